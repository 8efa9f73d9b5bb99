/* viz.c - pictures of a launch (viz.h): the recorder's life per launch, the
 * layout of a tensor's elements as cells, the cells filled from the
 * recorded lanes, each program's entries for the page, and the text dump
 * (launchN.txt).  viz_png.c draws the cells, viz_html.c writes the page. */
#define _POSIX_C_SOURCE 200809L
#include "viz_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"

/* ---- opening and closing ----------------------------------------------- */

/* mkdir -p */
static bool viz_mkdirs(const char *dir)
{
    char *p = xstrdup(dir);
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            ok = false;
        *s = c;
        if (!c)
            break;
    }
    struct stat st;
    ok = ok && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    return ok;
}

viz *viz_open(const char *dir, const char *program)
{
    if (!viz_mkdirs(dir)) {
        fprintf(stderr, "tritsim: --viz: cannot make the folder '%s': %s\n", dir,
                strerror(errno ? errno : ENOTDIR));
        return NULL;
    }
    viz *v = xcalloc(1, sizeof *v);
    v->dir = xstrdup(dir);
    v->program = xstrdup(program);
    return v;
}

static void viz_launch_free(viz_launch *l)
{
    for (int i = 0; i < l->ntensors; i++) {
        free(l->t[i].load);
        free(l->t[i].store);
        free(l->t[i].flags);
        strbuf_free(&l->t[i].png);
    }
    free(l->t);
    free(l->entries);
    strbuf_free(&l->notes);
}

bool viz_close(viz *v)
{
    if (!v)
        return true;
    bool ok = !v->failed && viz_html_write(v);
    if (ok)
        fprintf(stderr, "tritsim: --viz: %d launch%s drawn in %s/index.html\n", v->nlaunches,
                v->nlaunches == 1 ? "" : "es", v->dir);
    for (int i = 0; i < v->nlaunches; i++)
        viz_launch_free(&v->launches[i]);
    free(v->launches);
    free(v->dir);
    free(v->program);
    free(v);
    return ok;
}

access_log *viz_launch_begin(viz *v, const char *kernel, const int64_t grid[3],
                                int nparams, const alog_arg *args)
{
    if (v->nlaunches >= VIZ_MAX_LAUNCHES) {
        v->skipped++;
        return NULL;
    }
    v->launches = xrealloc(v->launches, (size_t)(v->nlaunches + 1) * sizeof *v->launches);
    viz_launch *l = &v->launches[v->nlaunches];
    memset(l, 0, sizeof *l);
    l->index = v->nlaunches + 1;
    snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
    for (int d = 0; d < 3; d++)
        l->grid[d] = grid[d];
    l->nprog = grid[0] * grid[1] * grid[2];
    alog_init(&v->trace, nparams, grid, VIZ_MAX_EVENTS);
    v->args = xcalloc((size_t)nparams + 1, sizeof *v->args);
    memcpy(v->args, args, (size_t)nparams * sizeof *args);
    v->nparams = nparams;
    int64_t mapped = 0;
    for (int i = 0; i < nparams; i++) {
        if (!args[i].tensor || args[i].extent <= 0)
            continue;
        bool map = args[i].extent <= VIZ_MAX_MAPPED - mapped;
        mapped += map ? args[i].extent : 0;
        alog_want(&v->trace, i, args[i].extent, map);
    }
    v->active = true;
    return &v->trace;
}

/* ---- layout ---------------------------------------------------------------- */

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return q * b > a ? q - 1 : q;
}

static int64_t ceildiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Lay out the elements of a as t's element grid. */
static void viz_layout(viz_tensor *t, const alog_arg *a)
{
    t->extent = a->extent;
    int64_t numel = 1;
    t->ndims = a->ndim;
    for (int d = 0; d < a->ndim; d++) {
        numel *= a->shape[d];
        t->shape[d] = a->shape[d];
    }
    /* the axes of more than one element, largest stride first: dense when
     * each stride is the product of the sizes after it */
    int nd = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] <= 1)
            continue;
        int at = nd++;
        while (at > 0 && t->dstride[at - 1] < a->strides[d]) {
            t->dstride[at] = t->dstride[at - 1];
            t->dshape[at] = t->dshape[at - 1];
            t->daxis[at] = t->daxis[at - 1];
            at--;
        }
        t->dstride[at] = a->strides[d];
        t->dshape[at] = a->shape[d];
        t->daxis[at] = d;
    }
    t->nd = nd;
    bool dense = numel == a->extent;
    int64_t want = 1;
    for (int i = nd - 1; i >= 0 && dense; i--) {
        dense = t->dstride[i] == want;
        want *= t->dshape[i];
    }
    if (a->ndim >= 2 && dense) {
        t->strip = false;
        t->r = a->shape[a->ndim - 2];
        t->w = a->shape[a->ndim - 1];
        int64_t slices = numel / (t->r * t->w);
        t->erows = slices * (t->r + 1) - 1;
    } else {
        t->strip = true;
        t->w = a->extent <= 64 ? a->extent : 64;
        t->erows = ceildiv(a->extent, t->w);
    }
    t->fc = ceildiv(t->w, VIZ_MAX_SIDE);
    t->fr = ceildiv(t->erows, VIZ_MAX_SIDE);
    t->cols = ceildiv(t->w, t->fc);
    t->rows = ceildiv(t->erows, t->fr);
}

/* Element e's place (row er, column ec) in t's element grid: rows before 0
 * and from erows on lie outside the tensor. */
static void viz_place(const viz_tensor *t, int64_t e, int64_t *er, int64_t *ec)
{
    if (t->strip || e < 0) {
        *er = floordiv(e, t->w);
        *ec = e - *er * t->w;
        return;
    }
    if (e >= t->extent) {
        int64_t d = e - t->extent;
        *er = t->erows + d / t->w;
        *ec = d % t->w;
        return;
    }
    int64_t coord[ALOG_MAX_DIMS] = {0}, rem = e;
    for (int i = 0; i < t->nd; i++) {
        coord[t->daxis[i]] = rem / t->dstride[i];
        rem %= t->dstride[i];
    }
    int64_t s = 0;
    for (int d = 0; d + 2 < t->ndims; d++)
        s = s * t->shape[d] + coord[d];
    *er = s * (t->r + 1) + coord[t->ndims - 2];
    *ec = coord[t->ndims - 1];
}

/* Is the cell of element-grid place (er, ec) (its first element) inside? */
static bool viz_inside(const viz_tensor *t, int64_t er, int64_t ec)
{
    if (er < 0 || er >= t->erows || ec >= t->w)
        return false;
    if (t->strip)
        return er * t->w + ec < t->extent;
    return t->fr > 1 || er % (t->r + 1) != t->r;
}

/* ---- filling the cells ------------------------------------------------------- */

/* The cell of element e of t, or -1 when it is not drawn. */
static int64_t viz_cell(const viz_tensor *t, int64_t e)
{
    int64_t er, ec;
    viz_place(t, e, &er, &ec);
    int64_t cr = floordiv(er, t->fr) + t->top, cc = ec / t->fc;
    if (cr < 0 || cr >= t->top + t->rows + t->bottom)
        return -1;
    return cr * t->cols + cc;
}

/* Program n loaded (or stored) a cell: who keeps the lowest, many is set
 * when there were two. */
static void viz_mark(int32_t *who, uint8_t *flags, uint8_t many, int32_t n)
{
    if (*who < 0) {
        *who = n;
    } else if (*who != n) {
        *flags |= many;
        if (n < *who)
            *who = n;
    }
}

/* Element e's summary (alog_map) into its cell c. */
static void viz_merge(viz_tensor *t, int64_t c, const alog_map *m, int64_t e)
{
    uint8_t f = m->flags[e], *cf = &t->flags[c];
    *cf |= (f & ALOG_M_LMANY ? VIZ_LMANY : 0) | (f & ALOG_M_SMANY ? VIZ_SMANY : 0) |
           (f & ALOG_M_LMASK ? VIZ_LMASK : 0) | (f & ALOG_M_SMASK ? VIZ_SMASK : 0) |
           (f & ALOG_M_OOB ? VIZ_OOB : 0) | (f & ALOG_M_ATOMIC ? VIZ_ATOMIC : 0);
    if (m->load[e] >= 0)
        viz_mark(&t->load[c], cf, VIZ_LMANY, m->load[e]);
    if (m->store[e] >= 0)
        viz_mark(&t->store[c], cf, VIZ_SMANY, m->store[e]);
}

static int viz_entry_cmp(const void *pa, const void *pb)
{
    const viz_entry *a = pa, *b = pb;
    if (a->prog != b->prog)
        return a->prog < b->prog ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return a->cell < b->cell ? -1 : a->cell > b->cell;
}

/* Tensor ti from the recorder: the rows outside it, its cells, and each
 * program's entries (appended to *ent, unless events were dropped). */
static void viz_fill(viz_tensor *t, int ti, const access_log *tr, viz_entry **ent,
                     int64_t *nent, int64_t *cap)
{
    /* how many cell rows outside the tensor to draw */
    int64_t lo = 0, hi = t->rows;
    for (int64_t i = 0; i < tr->n; i++) {
        const alog_event *e = &tr->ev[i];
        if (e->arg != t->arg)
            continue;
        int64_t er, ec;
        viz_place(t, e->elem, &er, &ec);
        int64_t cr = floordiv(er, t->fr);
        lo = cr < lo ? cr : lo;
        hi = cr + 1 > hi ? cr + 1 : hi;
    }
    t->top = -lo < VIZ_MAX_OUTSIDE ? -lo : VIZ_MAX_OUTSIDE;
    t->bottom = hi - t->rows < VIZ_MAX_OUTSIDE ? hi - t->rows : VIZ_MAX_OUTSIDE;
    int64_t ncell = (t->top + t->rows + t->bottom) * t->cols;
    t->load = xcalloc((size_t)ncell, sizeof *t->load);
    t->store = xcalloc((size_t)ncell, sizeof *t->store);
    t->flags = xcalloc((size_t)ncell, 1);
    for (int64_t c = 0; c < ncell; c++) {
        t->load[c] = t->store[c] = -1;
        int64_t cr = c / t->cols - t->top, cc = c % t->cols;
        if (viz_inside(t, cr * t->fr, cc * t->fc))
            t->flags[c] = VIZ_INSIDE;
    }
    /* the tensor's elements from the map, when there is one; the rest
     * (and everything, without a map) from the events */
    const alog_map *m = &tr->map[t->arg];
    for (int64_t e = 0; e < m->numel; e++)
        if (m->load[e] >= 0 || m->store[e] >= 0 || m->flags[e])
            viz_merge(t, viz_cell(t, e), m, e);
    for (int64_t i = 0; i < tr->n; i++) {
        const alog_event *e = &tr->ev[i];
        if (e->arg != t->arg)
            continue;
        int64_t c = viz_cell(t, e->elem);
        if (c < 0) {
            t->outside++;
            continue;
        }
        int32_t n = e->pid;
        bool load = e->what & ALOG_LOAD;
        bool mapped = e->elem >= 0 && e->elem < m->numel;
        uint8_t kind = load ? VIZ_K_LOAD : VIZ_K_STORE;
        if (e->what & ALOG_MASKED) {
            t->flags[c] |= load ? VIZ_LMASK : VIZ_SMASK;
            kind |= VIZ_K_MASKED;
        } else if (mapped) {
            kind |= e->what & ALOG_OOB ? VIZ_K_OOB : 0;
        } else {
            if (e->what & ALOG_OOB) {
                t->flags[c] |= VIZ_OOB;
                kind |= VIZ_K_OOB;
            }
            if (e->what & ALOG_ATOMIC)
                t->flags[c] |= VIZ_ATOMIC;
            if (load)
                viz_mark(&t->load[c], &t->flags[c], VIZ_LMANY, n);
            else
                viz_mark(&t->store[c], &t->flags[c], VIZ_SMANY, n);
        }
        if (tr->dropped)
            continue;           /* no stepping through programs: no entries */
        if (*nent == *cap) {
            *cap = *cap ? 2 * *cap : 1024;
            *ent = xrealloc(*ent, (size_t)*cap * sizeof **ent);
        }
        (*ent)[(*nent)++] = (viz_entry){.prog = n, .t = (int16_t)ti, .kind = kind, .cell = c};
    }
}

/* ---- the text dump --------------------------------------------------------- */

/* One cell's token in the text dump: '.' untouched, '~' outside and
 * untouched, 'm' masked lanes only, N a program, N+ several, !N outside. */
static void viz_token(const viz_tensor *t, int64_t c, bool store, char *buf, size_t len)
{
    int32_t who = store ? t->store[c] : t->load[c];
    uint8_t f = t->flags[c];
    if (who >= 0)
        snprintf(buf, len, "%s%d%s", (f & VIZ_OOB) && !(f & VIZ_INSIDE) ? "!" : "", who,
                 f & (store ? VIZ_SMANY : VIZ_LMANY) ? "+" : "");
    else if (f & (store ? VIZ_SMASK : VIZ_LMASK))
        snprintf(buf, len, "m");
    else
        snprintf(buf, len, f & VIZ_INSIDE ? "." : "~");
}

static void viz_dump_map(FILE *o, const viz_tensor *t, bool store)
{
    int64_t nrow = t->top + t->rows + t->bottom;
    int width = 1;
    char tok[32];
    for (int64_t c = 0; c < nrow * t->cols; c++) {
        viz_token(t, c, store, tok, sizeof tok);
        int w = (int)strlen(tok);
        width = w > width ? w : width;
    }
    fprintf(o, "  %s by:\n", store ? "stored" : "loaded");
    for (int64_t r = 0; r < nrow; r++) {
        bool out = r < t->top || r >= t->top + t->rows;
        fputs(out ? "  > " : "    ", o);
        for (int64_t cc = 0; cc < t->cols; cc++) {
            viz_token(t, r * t->cols + cc, store, tok, sizeof tok);
            fprintf(o, "%s%*s", cc ? " " : "", width, tok);
        }
        fputc('\n', o);
    }
}

static bool viz_dump(const viz *v, const viz_launch *l)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/launch%d.txt", v->dir, l->index);
    FILE *o = fopen(path, "w");
    if (!o) {
        fprintf(stderr, "tritsim: --viz: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    fprintf(o, "launch %d: %s, grid (%lld, %lld, %lld), %lld program%s%s\n", l->index,
            l->kernel, (long long)l->grid[0], (long long)l->grid[1], (long long)l->grid[2],
            (long long)l->nprog, l->nprog == 1 ? "" : "s", l->ok ? "" : ", failed");
    if (l->notes.len)
        fprintf(o, "%s", strbuf_cstr(&l->notes));
    for (int i = 0; i < l->ntensors; i++) {
        const viz_tensor *t = &l->t[i];
        fprintf(o, "%s: %s\n", t->name, t->desc);
        if ((t->top + t->rows + t->bottom) * t->cols > VIZ_TEXT_CELLS) {
            fprintf(o, "  (%lld x %lld cells: too many for text, see %s)\n",
                    (long long)(t->top + t->rows + t->bottom), (long long)t->cols, t->file);
            continue;
        }
        viz_dump_map(o, t, false);
        viz_dump_map(o, t, true);
    }
    bool ok = !ferror(o);
    ok &= fclose(o) == 0;
    if (!ok)
        fprintf(stderr, "tritsim: --viz: cannot write '%s'\n", path);
    return ok;
}

/* ---- the end of a launch ------------------------------------------------------- */

static void viz_describe(viz_tensor *t, const alog_arg *a)
{
    strbuf s = {0};
    strbuf_printf(&s, "%s, shape (", dtype_name(a->dt));
    for (int d = 0; d < a->ndim; d++)
        strbuf_printf(&s, "%s%lld", d ? ", " : "", (long long)a->shape[d]);
    strbuf_printf(&s, "%s)", a->ndim == 1 ? "," : "");
    if (t->strip && a->ndim >= 2)
        strbuf_printf(&s, ", not one dense block: shown as its %lld elements in memory",
                      (long long)a->extent);
    if (t->fr > 1 || t->fc > 1)
        strbuf_printf(&s, "; each cell is %lld x %lld elements", (long long)t->fr,
                      (long long)t->fc);
    snprintf(t->desc, sizeof t->desc, "%s", strbuf_cstr(&s));
    strbuf_free(&s);
}

void viz_launch_end(viz *v, bool ok)
{
    if (!v->active)
        return;
    v->active = false;
    viz_launch *l = &v->launches[v->nlaunches++];
    l->ok = ok;
    access_log *tr = &v->trace;
    if (!ok)
        strbuf_printf(&l->notes, "A program failed and the launch stopped: red cells "
                      "show lanes outside a tensor.\n");
    bool partial = false;       /* a tensor drawn from the events kept only */
    for (int i = 0; i < v->nparams; i++)
        partial |= tr->want[i] && !tr->map[i].numel;
    if (tr->dropped)
        strbuf_printf(&l->notes, "The launch made %lld lane accesses, more than the %d a "
                      "launch keeps: the page does not step through its programs%s.\n",
                      (long long)(tr->n + tr->dropped), VIZ_MAX_EVENTS,
                      partial ? ", and tensors too large to map in full, and lanes outside "
                      "a tensor, are drawn from the accesses kept"
                      : ", and lanes outside a tensor are drawn from the accesses kept");
    if (tr->unplaced)
        strbuf_printf(&l->notes, "%lld active lanes pointed into no tensor argument; they "
                      "are not drawn.\n", (long long)tr->unplaced);
    l->t = xcalloc((size_t)v->nparams + 1, sizeof *l->t);
    viz_entry *ent = NULL;
    int64_t nent = 0, cap = 0;
    for (int i = 0; i < v->nparams; i++) {
        if (!tr->want[i])
            continue;
        viz_tensor *t = &l->t[l->ntensors];
        t->arg = i;
        snprintf(t->name, sizeof t->name, "%s", v->args[i].name ? v->args[i].name : "?");
        viz_layout(t, &v->args[i]);
        viz_describe(t, &v->args[i]);
        viz_fill(t, l->ntensors, tr, &ent, &nent, &cap);
        if (t->outside)
            strbuf_printf(&l->notes, "%s: %lld lane accesses lie more than %d rows outside "
                          "the tensor and are not drawn.\n", t->name, (long long)t->outside,
                          VIZ_MAX_OUTSIDE);
        l->ntensors++;
    }
    /* each program's entries, once each */
    if (nent)
        qsort(ent, (size_t)nent, sizeof *ent, viz_entry_cmp);
    int64_t k = 0;
    for (int64_t i = 0; i < nent; i++)
        if (!k || viz_entry_cmp(&ent[k - 1], &ent[i]))
            ent[k++] = ent[i];
    if (tr->dropped) {
        free(ent);
        ent = NULL;
        k = 0;
    } else if (v->entries + k > VIZ_MAX_ENTRIES) {
        strbuf_printf(&l->notes, "The page does not step through this launch's programs: "
                      "they touch %lld cells, more than the page's limit of %d in all.\n",
                      (long long)k, VIZ_MAX_ENTRIES);
        free(ent);
        ent = NULL;
        k = 0;
    }
    v->entries += k;
    l->entries = ent;
    l->nentries = k;
    for (int i = 0; i < l->ntensors; i++) {
        viz_tensor *t = &l->t[i];
        snprintf(t->file, sizeof t->file, "launch%d-%s.png", l->index, t->name);
        if (!viz_png_write(v->dir, t)) {
            t->file[0] = 0;
            v->failed = true;
        }
    }
    if (!viz_dump(v, l))
        v->failed = true;
    alog_free(tr);
    free(v->args);
    v->args = NULL;
}
