/* backend.c - the registry of backends (one static table: the executors
 * of this build, and the names reserved for those still to come) and the
 * calls through a backend's table (backend.h). */
#include "backend.h"

#include <stddef.h>
#include <string.h>

#include "cpu_backend.h"
#include "cuda_backend.h"

/* Every name --backend accepts.  A row without a table is a backend this
 * build does not have; missing says so, for backend_select's message. */
static const struct backend_entry {
    const char *name;
    const backend *be;      /* NULL: not built */
    const char *missing;
} backend_table[] = {
    {"cpu", &cpu_backend, NULL},
    {"cuda", &cuda_backend, NULL},
    {"hip", NULL, "the HIP backend (AMD GPUs) is not built yet"},
};

static const struct backend_entry *backend_entry_of(const char *name)
{
    for (size_t i = 0; i < sizeof backend_table / sizeof *backend_table; i++)
        if (!strcmp(backend_table[i].name, name))
            return &backend_table[i];
    return NULL;
}

const backend *backend_find(const char *name)
{
    const struct backend_entry *e = backend_entry_of(name);
    return e ? e->be : NULL;
}

backend_status backend_select(const char *name, const backend **out, strbuf *why)
{
    *out = NULL;
    const struct backend_entry *e = backend_entry_of(name);
    if (!e)
        return BACKEND_UNKNOWN;
    if (!e->be) {
        strbuf_puts(why, e->missing);
        return BACKEND_UNAVAILABLE;
    }
    if (!e->be->available(why))
        return BACKEND_UNAVAILABLE;
    *out = e->be;
    return BACKEND_OK;
}

/* ---- calls through the table ------------------------------------------------- */

backend_dev *backend_open(const backend *be, const backend_config *c, strbuf *why)
{
    backend_dev *d = be->open(c, why);
    if (d)
        d->be = be;
    return d;
}

void backend_close(backend_dev *d)
{
    if (d)
        d->be->close(d);
}

backend_kernel *backend_compile(backend_dev *d, const ir_kernel *ir, const src_file *file,
                                diag_sink *diag)
{
    backend_kernel *k = d->be->compile(d, ir, file, diag);
    if (k)
        k->be = d->be;
    return k;
}

bool backend_run(backend_dev *d, backend_kernel *k, const backend_launch *L)
{
    return d->be->launch(d, k, L);
}

bool backend_sync(backend_dev *d, diag_sink *diag)
{
    return d->be->sync(d, diag);
}

void backend_free(backend_kernel *k)
{
    if (k)
        k->be->free(k);
}
