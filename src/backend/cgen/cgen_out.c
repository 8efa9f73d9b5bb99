/* cgen_out.c - the host side of an emitted kernel's prints (cgen_out.h):
 * reads the print records of a launch (cgen_abi.h), sorts them into
 * program order, and writes them with printfmt.h as the CPU executor
 * writes its programs' output; words a failed ASSERT from its record; and
 * the record layout both sides of the ABI compute. */
#define _POSIX_C_SOURCE 200809L
#include "cgen_out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "printfmt.h"
#include "strbuf.h"

/* ---- the record layout ----------------------------------------------------- */

static uint64_t round8(uint64_t n)
{
    return (n + 7) & ~(uint64_t)7;
}

/* The print whose slots a record of instruction pc holds, or NULL. */
static const ir_print *rec_print(const ir_kernel *k, int32_t pc)
{
    const ir_inst *in = &k->code[pc];
    if (in->op != IR_PRINT && in->op != IR_ASSERT)
        return NULL;
    return ir_inst_print(k, in);
}

static uint64_t piece_bytes(const ir_kernel *k, const ir_fmt_piece *p)
{
    const ir_type *t = &k->slots[p->slot].type;
    return round8((uint64_t)ir_type_numel(t) * (uint64_t)dtype_size(t->dt));
}

uint64_t cgen_rec_piece_at(const ir_kernel *k, int32_t pc, int32_t piece)
{
    const ir_print *pr = rec_print(k, pc);
    uint64_t at = TK_PRINT_HEADER;
    for (int32_t i = 0; pr && i < piece && i < pr->npieces; i++)
        if (pr->pieces[i].slot >= 0)
            at += piece_bytes(k, &pr->pieces[i]);
    return at;
}

uint64_t cgen_rec_bytes(const ir_kernel *k, int32_t pc)
{
    const ir_print *pr = rec_print(k, pc);
    return cgen_rec_piece_at(k, pc, pr ? pr->npieces : 0);
}

/* ---- the buffer's size ------------------------------------------------------ */

uint64_t cgen_out_buffer_bytes(diag_sink *diag, const src_file *file)
{
    static bool warned;
    const char *s = getenv("TRITSIM_PRINT_BUFFER");
    if (!s || !*s)
        return CGEN_OUT_BUFFER_DEFAULT;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        end++;
    if (end == s || *end || s[0] == '-' || v == 0 || v > (UINT64_MAX >> 30)) {
        if (!warned && diag && file)
            diag_report(diag, DIAG_WARNING, file, (src_span){0},
                        "TRITSIM_PRINT_BUFFER=%s is not a size in bytes (e.g. 67108864 or "
                        "64M); the GPU's print buffer keeps its default of %" PRIu64 " bytes",
                        s, CGEN_OUT_BUFFER_DEFAULT);
        warned = true;
        return CGEN_OUT_BUFFER_DEFAULT;
    }
    return (uint64_t)v << shift;
}

/* ---- reading the records ----------------------------------------------------- */

typedef struct rec {
    int64_t pid;             /* linear */
    uint32_t seq;
    uint32_t what;
    uint64_t at;             /* offset in the buffer */
} rec;

static int rec_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static bool malformed(const cgen_out_launch *L, uint64_t at, const char *why)
{
    diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                "internal error: the GPU's print records of '%s' are malformed at byte %" PRIu64
                " (%s); please report this", L->k->name, at, why);
    return false;
}

/* Check the record at `at` against the kernel; false after reporting. */
static bool rec_check(const cgen_out_launch *L, uint64_t at, uint32_t bytes, rec *r)
{
    const ir_kernel *k = L->k;
    const unsigned char *h = L->buf + at;
    uint32_t what = get32(h + 4), pc = what & TK_REC_PC, flags = what & ~TK_REC_PC;
    if ((int64_t)pc >= k->ncode)
        return malformed(L, at, "no such instruction");
    int op = k->code[pc].op;
    if ((flags == 0 && op != IR_PRINT) || (flags == TK_REC_BREAK && op != IR_BREAKPOINT) ||
        (flags == TK_REC_ASSERT && op != IR_ASSERT) ||
        (flags != 0 && flags != TK_REC_BREAK && flags != TK_REC_ASSERT))
        return malformed(L, at, "the instruction does not print");
    if (bytes != cgen_rec_bytes(k, (int32_t)pc))
        return malformed(L, at, "the size is not the instruction's");
    int64_t c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = get32(h + 8 + 4 * i);
        if (c[i] >= L->grid[i])
            return malformed(L, at, "the program is outside the grid");
    }
    *r = (rec){.pid = c[0] + L->grid[0] * (c[1] + L->grid[1] * c[2]), .seq = get32(h + 20),
               .what = what, .at = at};
    return true;
}

/* The records that were written, sorted into program order (*n of them);
 * false after reporting malformed ones. */
static bool read_records(const cgen_out_launch *L, rec **out, size_t *n)
{
    uint64_t end = L->used < L->cap ? L->used : L->cap;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    for (uint64_t at = 0; at + 8 <= end;) {
        uint32_t bytes = get32(L->buf + at);
        if (at + bytes > L->cap)
            break;          /* reserved but not written: the rest was lost */
        if (bytes < TK_PRINT_HEADER || bytes % 8)
            return malformed(L, at, "bad size");
        rec r;
        if (!rec_check(L, at, bytes, &r))
            return false;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        (*out)[(*n)++] = r;
        at += bytes;
    }
    if (*n > 1)
        qsort(*out, *n, sizeof **out, rec_cmp);
    return true;
}

/* ---- formatting -------------------------------------------------------------- */

/* A record's values for printfmt: piece i's slot, memory format -> numpy
 * format, in scratch. */
typedef struct rec_src {
    const ir_kernel *k;
    const unsigned char *rec;    /* NULL: the values were lost */
    int32_t pc;
    unsigned char *scratch;
} rec_src;

static const void *rec_lanes(void *ctx, int32_t piece)
{
    rec_src *s = ctx;
    if (!s->rec)
        return NULL;
    const ir_print *pr = rec_print(s->k, s->pc);
    const ir_type *t = &s->k->slots[pr->pieces[piece].slot].type;
    printfmt_from_memory(t->dt, s->scratch, s->rec + cgen_rec_piece_at(s->k, s->pc, piece),
                         ir_type_numel(t));
    return s->scratch;
}

static void set_fail(cgen_out_fail *f, int32_t pc, int64_t pid, const int64_t grid[3])
{
    f->failed = true;
    f->pc = pc;
    f->pid[0] = pid % grid[0];
    f->pid[1] = pid / grid[0] % grid[1];
    f->pid[2] = pid / (grid[0] * grid[1]);
}

/* The words of err, a failed ASSERT, from its record r (NULL: none). */
static void assert_words(const cgen_out_launch *L, const rec *r, unsigned char *scratch,
                         cgen_out_fail *f)
{
    const ir_kernel *k = L->k;
    const ir_inst *in = &k->code[f->pc];
    const ir_print *msg = ir_inst_print(k, in);
    rec_src rs = {k, r ? L->buf + r->at : NULL, f->pc, scratch};
    printfmt_src src = {.k = k, .lanes = rec_lanes, .ctx = &rs};
    printfmt_err err;
    printfmt_assert(in->sub, msg, f->pid, L->err_lane ? L->err_lane : "lane ?", &src, &err);
    f->words = true;
    snprintf(f->msg, sizeof f->msg, "%s", err.msg);
    snprintf(f->note, sizeof f->note, "%s", err.note);
    bool values = false;
    for (int32_t i = 0; msg && i < msg->npieces; i++)
        values |= msg->pieces[i].slot >= 0;
    if (values && !r && !f->note[0])
        snprintf(f->note, sizeof f->note, "the values in the message (shown as ?) were lost "
                 "with the GPU's print buffer; TRITSIM_PRINT_BUFFER sets its size");
}

bool cgen_out_write(FILE *out, const cgen_out_launch *L, cgen_out_fail *f)
{
    const ir_kernel *k = L->k;
    memset(f, 0, sizeof *f);
    f->pc = -1;
    int64_t failpid = INT64_MAX;
    if (L->err) {
        const tk_err *e = L->err;
        failpid = e->pid[0] + L->grid[0] * (e->pid[1] + L->grid[1] * e->pid[2]);
        set_fail(f, e->pc, failpid, L->grid);
    }
    rec *recs;
    size_t n;
    bool ok = read_records(L, &recs, &n);
    int64_t maxn = 1;
    for (int32_t s = 0; s < k->nslots; s++) {
        int64_t m = ir_type_numel(&k->slots[s].type);
        maxn = m > maxn ? m : maxn;
    }
    unsigned char *scratch = xmalloc((size_t)maxn * 8);
    const rec *assert_rec = NULL;
    strbuf text = {0};
    for (size_t i = 0; ok && i < n; i++) {
        const rec *r = &recs[i];
        if (r->pid > failpid)
            break;
        int32_t pc = (int32_t)(r->what & TK_REC_PC);
        int64_t c[3] = {r->pid % L->grid[0], r->pid / L->grid[0] % L->grid[1],
                        r->pid / (L->grid[0] * L->grid[1])};
        strbuf_clear(&text);
        if (r->what & TK_REC_ASSERT) {
            if (L->err && r->pid == failpid && pc == L->err->pc)
                assert_rec = r;
            continue;
        }
        if (r->what & TK_REC_BREAK) {
            if (!L->breaks_report)
                continue;
            const ir_inst *in = &k->code[pc];
            printfmt_breakpoint(&text, L->file ? L->file->name : "<kernel>",
                                in->at ? in->at->span.line : 0, in->at ? in->at->span.col : 0,
                                c);
            fwrite(strbuf_cstr(&text), 1, text.len, out);
            continue;
        }
        rec_src rs = {k, L->buf + r->at, pc, scratch};
        printfmt_src src = {.k = k, .lanes = rec_lanes, .ctx = &rs};
        printfmt_err err;
        bool fmt_ok = printfmt_print(&text, ir_inst_print(k, &k->code[pc]), c, &src, &err);
        /* as on the CPU, the text before a failing piece is written */
        fwrite(strbuf_cstr(&text), 1, text.len, out);
        if (!fmt_ok) {
            /* the program fails at this PRINT, before anything the device
             * recorded after it */
            set_fail(f, pc, r->pid, L->grid);
            f->words = true;
            snprintf(f->msg, sizeof f->msg, "%s", err.msg);
            snprintf(f->note, sizeof f->note, "%s", err.note);
            failpid = -1;
            break;
        }
    }
    if (ok && L->err && failpid >= 0 && L->err->kind == TK_ERR_ASSERT && f->pc >= 0 &&
        f->pc < k->ncode && k->code[f->pc].op == IR_ASSERT)
        assert_words(L, assert_rec, scratch, f);
    strbuf_free(&text);
    free(scratch);
    free(recs);
    fflush(out);
    if (ok && L->used > L->cap)
        diag_report(L->diag, DIAG_WARNING, L->file, (src_span){0},
                    "the GPU's print buffer of %" PRIu64 " bytes was too small for the %" PRIu64
                    " bytes of prints of '%s': the output above misses some of them; set "
                    "TRITSIM_PRINT_BUFFER=%" PRIu64 " (bytes) or more, print less, or launch "
                    "fewer programs", L->cap, L->used, k->name, round8(L->used));
    return ok;
}
