/* test_language_doc.c - doc/language.md cannot drift from the code: every
 * function a kernel can call (the specializer's table) and every public
 * name of the modules a program can import (torch, triton, triton.language,
 * triton_util, torchvision, argparse, math, ...) must appear in the reference, written
 * `module.name` (tl.name for triton.language).  One TAP line per module,
 * listing the names the document is missing.
 *
 * LANGUAGE_DOC_DUMP=1 prints every name instead, one per line, for writing
 * the document. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "host.h"
#include "modules.h"
#include "spec.h"
#include "strbuf.h"
#include "tap.h"
#include "val.h"

static char *doc_text;
static bool dump;

static char *read_doc(void)
{
    const char *srcdir = getenv("srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/doc/language.md", srcdir ? srcdir : ".");
    src_file *f = src_read(path);
    if (!f)
        return NULL;
    char *text = strdup(f->text);
    src_free(f);
    return text;
}

/* The name as the document writes it: tl.x for triton.language.x,
 * libdevice.x for triton.language.extra[.cuda].libdevice.x. */
static void shown_name(const char *qual, strbuf *out)
{
    static const char *const libdevice[] = {
        "triton.language.extra.libdevice.", "triton.language.extra.cuda.libdevice.", NULL,
    };
    strbuf_clear(out);
    for (int i = 0; libdevice[i]; i++)
        if (!strncmp(qual, libdevice[i], strlen(libdevice[i]))) {
            strbuf_printf(out, "libdevice.%s", qual + strlen(libdevice[i]));
            return;
        }
    if (!strncmp(qual, "triton.language.", 16) && !strchr(qual + 16, '.'))
        strbuf_printf(out, "tl.%s", qual + 16);
    else
        strbuf_puts(out, qual);
}

/* Is `name` in the document, between backquotes? */
static bool documented(const char *name)
{
    char key[512];
    snprintf(key, sizeof key, "`%s`", name);
    if (strstr(doc_text, key))
        return true;
    /* a call form counts too: `tl.load(ptr, mask=None, other=None)` */
    snprintf(key, sizeof key, "`%s(", name);
    return strstr(doc_text, key) != NULL;
}

/* Check a list of names; one TAP line for the group. */
static void check_group(const char *group, const char **names, int n)
{
    strbuf missing;
    strbuf_init(&missing);
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (dump) {
            printf("# %s\n", names[i]);
            continue;
        }
        if (!documented(names[i])) {
            strbuf_printf(&missing, "%s%s", count ? ", " : "", names[i]);
            count++;
        }
    }
    if (!TAP_OK(count == 0, "doc/language.md documents every name of %s (%d names)", group, n))
        printf("# missing: %s\n", strbuf_cstr(&missing));
    strbuf_free(&missing);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void)
{
    dump = getenv("LANGUAGE_DOC_DUMP") && *getenv("LANGUAGE_DOC_DUMP");
    doc_text = read_doc();
    if (!doc_text) {
        printf("Bail out! cannot read doc/language.md (set srcdir)\n");
        return 1;
    }

    /* 1. functions kernels can call */
    const char *knames[512];
    char kbuf[512][96];
    int nk = 0;
    strbuf sb;
    strbuf_init(&sb);
    for (int i = 0; spec_builtin_name(i) && nk < 512; i++) {
        const char *q = spec_builtin_name(i);
        if (!strncmp(q, "builtins.", 9))
            snprintf(kbuf[nk], sizeof kbuf[nk], "%s", q + 9);
        else {
            shown_name(q, &sb);
            snprintf(kbuf[nk], sizeof kbuf[nk], "%s", strbuf_cstr(&sb));
        }
        knames[nk] = kbuf[nk];
        nk++;
    }
    check_group("kernel functions", knames, nk);

    /* 2. the modules a program can import */
    src_file *f = src_from_string("doc.tk", "", 0);
    diag_sink d;
    diag_sink_init(&d, stderr);
    host *h = host_new(&d, f);
    modules_init(h);
    size_t pos = 0;
    val key, module;
    while (val_dict_next(h->modules, &pos, &key, &module)) {
        const char *mname = val_as_str(key)->s;
        if (module.kind != VAL_MODULE)
            continue;
        val attrs = ((val_object *)module.u.o)->attrs;
        if (attrs.kind != VAL_DICT)
            continue;
        size_t n = val_as_dict(attrs)->len, k = 0, apos = 0;
        char **names = calloc(n + 1, sizeof *names);
        val a, v;
        while (val_dict_next(attrs, &apos, &a, &v)) {
            const char *attr = val_as_str(a)->s;
            if (attr[0] == '_' || v.kind == VAL_MODULE)
                continue;   /* private names; submodules are checked themselves */
            strbuf full;
            strbuf_init(&full);
            strbuf_printf(&full, "%s.%s", mname, attr);
            shown_name(strbuf_cstr(&full), &sb);
            names[k++] = strdup(strbuf_cstr(&sb));
            strbuf_free(&full);
        }
        qsort(names, k, sizeof *names, cmp_str);
        check_group(mname, (const char **)names, (int)k);
        for (size_t i = 0; i < k; i++)
            free(names[i]);
        free(names);
    }
    host_free(h);
    val_free_all();
    src_free(f);
    strbuf_free(&sb);
    free(doc_text);
    return tap_done();
}
