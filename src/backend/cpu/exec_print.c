/* exec_print.c - the CPU executor's PRINT (print(): text and values as
 * numpy prints them; tl.device_print: a line per element), ASSERT
 * (tl.device_assert, and the checks of the GPU's rules) and BREAKPOINT
 * outside a debugger; and a slot's lanes in numpy's memory format, which
 * printing and the debugger's tiles (exec_sess.c) read.
 *
 * tl.device_print writes Triton's GPU format (PrintOpToLLVM.cpp), not the
 * interpreter's: "pid (0, 1, 0) idx ( 3) x: 1.500000". */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#include <inttypes.h>
#include <string.h>

#include "addrmap.h"
#include "format.h"
#include "pyformat.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * print, assert, breakpoint.
 * ====================================================================== */

/* n lanes of a slot of type t (at A) copied to D in numpy's memory format,
 * the one format.h and exec_tile want: fp16 and bf16 lanes (floats in a
 * slot) become their 16-bit patterns, any other lane is copied as it is.
 * D has room for n lanes of the slot's size.  Returns the type of D's
 * elements: t, except fp8, whose values D holds as fp32. */
dtype exec_numpy_lanes(dtype t, void *D, const void *A, int64_t n)
{
    if (t == DTYPE_FP16 || t == DTYPE_BF16) {
        uint16_t *h = D;
        const float *f = A;
        for (int64_t i = 0; i < n; i++)
            h[i] = t == DTYPE_FP16 ? dtype_f32_to_f16(f[i]) : dtype_f32_to_bf16(f[i]);
        return t;
    }
    if (dtype_is_ptr(t)) {       /* the addresses, without addrmap.h's tags */
        uint64_t *d = D;
        const uint64_t *a = A;
        for (int64_t i = 0; i < n; i++)
            d[i] = addrmap_untag(a[i]);
        return t;
    }
    memcpy(D, A, (size_t)n * (size_t)st_size(st_of(t)));
    return dtype_is_fp8(t) ? DTYPE_FP32 : t;
}

static bool pid_passes(const exec_prog *P, const ir_print *pr)
{
    return ir_print_pid_passes(pr, P->coord);
}

/* A 0-d value with a format spec: Python's format(value, spec), as numpy
 * scalars do it (through the Python int / float / bool). */
static bool format_spec_value(exec_prog *P, const ir_inst *in, strbuf *sb,
                              dtype t, dtype_scalar v, const char *spec)
{
    pyformat_spec ps;
    char err[256];
    strbuf b = {0};
    bool isfloat = !dtype_is_ptr(t) && dtype_is_float(t);
    const char *tname = isfloat ? "float" : t == DTYPE_INT1 ? "bool" : "int";
    bool ok = pyformat_parse_spec(spec, strlen(spec), tname, &ps, err, sizeof err);
    if (ok && isfloat)
        ok = pyformat_float(&b, v.f, &ps, err, sizeof err);
    else if (ok && (dtype_is_signed(t) || v.u <= (uint64_t)INT64_MAX))
        ok = pyformat_int(&b, dtype_is_signed(t) ? v.i : (int64_t)v.u, &ps, err, sizeof err);
    else if (ok)    /* a uint64 above INT64_MAX: pyformat_int takes int64 */
        ok = pyformat_float(&b, (double)v.u, &ps, err, sizeof err);
    if (ok)
        strbuf_putn(sb, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    return ok ? true : exec_fail(P, in, NULL, "%s", err);
}

/* One slot, numpy's str() of it, or format(value, spec) for a scalar. */
static bool format_slot(exec_prog *P, const ir_inst *in, strbuf *sb, int32_t s,
                        const char *spec)
{
    const ir_type *t = TYPE(P, s);
    dtype dt = t->dt;
    const void *data = SLOT(P, s);
    if (spec && spec[0]) {
        if (t->ndim > 0) {
            char ty[96];
            ir_type_str(t, ty, sizeof ty);
            return exec_fail(P, in, "format a scalar, e.g. a tl.sum() of the tile",
                             "unsupported format string passed to numpy.ndarray.__format__ "
                             "(the value is a %s tile)", ty);
        }
        return format_spec_value(P, in, sb, dt, lane_get(dt, data, 0), spec);
    }
    /* numpy wants memory-format elements, prepared in scratch (room for
     * 8 bytes a lane of the largest slot). */
    dt = exec_numpy_lanes(dt, P->w->scratch, data, NUMEL(P, s));
    data = P->w->scratch;
    /* Scalars print as 1-element arrays, "pid = [0]": under Triton's
     * interpreter, which the lecture shows, program ids and scalar
     * arguments are numpy arrays of shape (1,). */
    int64_t shape[IR_MAX_DIM] = {1};
    for (int d = 0; d < t->ndim; d++)
        shape[d] = t->shape[d];
    format_array arr = {.data = data, .type = dt, .ndim = t->ndim ? t->ndim : 1,
                        .shape = shape};
    if (!format_numpy(sb, &arr))
        return exec_internal(P, in, "value");
    return true;
}

/* The pieces of a PRINT_TEXT (or an assertion's message). */
static bool format_pieces(exec_prog *P, const ir_inst *in, strbuf *sb,
                          const ir_print *pr)
{
    for (int32_t i = 0; i < pr->npieces; i++) {
        const ir_fmt_piece *pc = &pr->pieces[i];
        if (pc->slot < 0)
            strbuf_puts(sb, pc->text ? pc->text : "");
        else if (!format_slot(P, in, sb, pc->slot, pc->spec))
            return false;
    }
    return true;
}

/* Triton's device_print prefix, munged as semantic.device_print does it:
 * ends in ": " and starts with " " when longer than two characters. */
static void device_prefix(const ir_print *pr, bool operands, strbuf *sb)
{
    strbuf raw = {0};
    for (int32_t i = 0; i < pr->npieces; i++)
        if (pr->pieces[i].slot < 0 && pr->pieces[i].text)
            strbuf_puts(&raw, pr->pieces[i].text);
    const char *s = strbuf_cstr(&raw);
    size_t len = raw.len;
    strbuf p = {0};
    strbuf_putn(&p, s, len);
    if (operands && (p.len == 0 || strbuf_cstr(&p)[p.len - 1] != ' '))
        strbuf_putc(&p, ' ');
    if (operands && (p.len < 2 || strcmp(strbuf_cstr(&p) + p.len - 2, ": ") != 0)) {
        strbuf_truncate(&p, p.len - 1);
        strbuf_puts(&p, ": ");
    }
    if (p.len > 2 && strbuf_cstr(&p)[0] != ' ')
        strbuf_putc(sb, ' ');
    strbuf_putn(sb, strbuf_cstr(&p), p.len);
    strbuf_free(&p);
    strbuf_free(&raw);
}

/* Digits GPU printf pads an index of an axis of this size to:
 * ceil(log10(size)), as Triton's PrintOpToLLVM does. */
static int index_width(int64_t size)
{
    int w = 0;
    for (int64_t p = 1; p < size; p *= 10)
        w++;
    return w;
}

/* One device_print value as NVIDIA's printf shows it under Triton's format
 * (PrintOpToLLVM.cpp's getFormatSubstr; printfPromoteValue widens ints
 * narrower than 32 bits to 32, sign-extending signed types only): %p for
 * pointers, %f for floats, %i / %u (%lli / %llu) for ints; with hex,
 * "0x%0Nx" ("0x%0Nllx" for 64 bits), N the type's bits / 4, so int8 -1
 * prints 0xffffffff and uint8 255 0xff.  fp64 prints its bits; the
 * specializer refuses hex for the narrower floats. */
static void device_print_value(strbuf *sb, dtype dt, dtype_scalar v, bool hex)
{
    if (dtype_is_ptr(dt)) {
        strbuf_printf(sb, "0x%" PRIx64, addrmap_untag(v.u));
    } else if (hex) {
        int bits = dtype_bits(dt);
        uint64_t u = v.u;
        if (dtype_is_float(dt))
            memcpy(&u, &v.f, sizeof u);
        else if (bits < 64)
            u = dtype_is_signed(dt) ? (uint32_t)(int32_t)v.i : (uint32_t)v.u;
        strbuf_printf(sb, "0x%0*" PRIx64, bits / 4, u);
    } else if (dtype_is_float(dt)) {
        strbuf_printf(sb, "%f", v.f);
    } else if (dtype_is_signed(dt)) {
        strbuf_printf(sb, "%" PRId64, v.i);
    } else {
        strbuf_printf(sb, "%" PRIu64, v.u);
    }
}

/* tl.device_print: one line per element,
 *   pid (0, 1, 0) idx (3) x: 1.500000
 * as Triton prints on the GPU (PrintOpToLLVM.cpp: "pid (%u, %u, %u) idx
 * (%Nu, ...)" then the prefix, "(operand i) " when there are several,
 * then the value, device_print_value).  A scalar prints "idx ()"; no
 * operands prints the pid and the prefix. */
static void device_print(exec_prog *P, const ir_print *pr, strbuf *sb)
{
    int nops = 0;
    for (int32_t i = 0; i < pr->npieces; i++)
        nops += pr->pieces[i].slot >= 0;
    strbuf prefix = {0};
    device_prefix(pr, nops > 0, &prefix);
    const int64_t *c = P->coord;
    if (nops == 0) {
        strbuf_printf(sb, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")%s\n", c[0], c[1],
                      c[2], strbuf_cstr(&prefix));
        strbuf_free(&prefix);
        return;
    }
    int op = 0;
    for (int32_t pi = 0; pi < pr->npieces; pi++) {
        int32_t s = pr->pieces[pi].slot;
        if (s < 0)
            continue;
        const ir_type *t = TYPE(P, s);
        const void *data = SLOT(P, s);
        int64_t n = NUMEL(P, s);
        for (int64_t i = 0; i < n; i++) {
            strbuf_printf(sb, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") idx (", c[0],
                          c[1], c[2]);
            int64_t idx[IR_MAX_DIM], rest = i;
            for (int d = t->ndim - 1; d >= 0; d--) {
                idx[d] = rest % t->shape[d];
                rest /= t->shape[d];
            }
            for (int d = 0; d < t->ndim; d++)
                strbuf_printf(sb, "%s%*" PRId64, d ? ", " : "", index_width(t->shape[d]),
                              idx[d]);
            strbuf_printf(sb, ")%s", strbuf_cstr(&prefix));
            if (nops > 1)
                strbuf_printf(sb, "(operand %d) ", op);
            device_print_value(sb, t->dt, lane_get(t->dt, data, i), pr->hex);
            strbuf_putc(sb, '\n');
        }
        op++;
    }
    strbuf_free(&prefix);
}

bool exec_op_print(exec_prog *P, const ir_inst *in)
{
    const ir_print *pr = ir_inst_print(P->x->k, in);   /* ir_verify: there is one */
    if (!pid_passes(P, pr))
        return true;
    strbuf *sb = &P->w->out;
    if (pr->kind == IR_PRINT_DEVICE) {
        device_print(P, pr, sb);
        return true;
    }
    if (!format_pieces(P, in, sb, pr))
        return false;
    strbuf_putc(sb, '\n');
    return true;
}

/* tl.device_assert: every active lane of a true (b, when present, is a
 * mask of the lanes that count). */
bool exec_op_assert(exec_prog *P, const ir_inst *in)
{
    dtype t = DT(P, in->a);
    int64_t n = NUMEL(P, in->a);
    const void *A = SLOT(P, in->a);
    const uint8_t *mask = in->b >= 0 ? SLOT(P, in->b) : NULL;
    int64_t sm = in->b >= 0 ? STRIDE(P, in->b) : 0;
    if (mask && NUMEL(P, in->b) > n)
        n = NUMEL(P, in->b);
    int64_t sa = STRIDE(P, in->a);
    for (int64_t i = 0; i < n; i++) {
        if (mask && !mask[i * sm])
            continue;
        dtype_scalar v = lane_get(t, A, i * sa);
        bool truth = dtype_is_float(t) && !dtype_is_ptr(t) ? v.f != 0 : v.u != 0;
        if (truth)
            continue;
        strbuf text = {0};
        const int64_t *c = P->coord;
        const ir_print *msg = ir_inst_print(P->x->k, in);
        if (in->sub == IR_ASSERT_RULE && msg && msg->npieces > 0) {
            /* a check of the GPU's rules (spec_desc.c): head, program, tail */
            ir_print tail = *msg;
            const char *head = tail.pieces[0].text;
            tail.pieces++;
            tail.npieces--;
            bool ok = format_pieces(P, in, &text, &tail);
            if (ok)
                exec_fail(P, in, NULL, "%s in program (%" PRId64 ", %" PRId64 ", %" PRId64 "): %s",
                          head ? head : "", c[0], c[1], c[2], strbuf_cstr(&text));
            strbuf_free(&text);
            return false;
        }
        if (msg && !format_pieces(P, in, &text, msg)) {
            strbuf_free(&text);
            return false;
        }
        char ln[64];
        exec_lane_name(ln, sizeof ln, exec_lane_type(P, in), i);
        exec_fail(P, in, NULL, "device assertion failed in program (%" PRId64 ", %" PRId64
                  ", %" PRId64 "), %s%s%s", c[0], c[1], c[2], ln, text.len ? ": " : "",
                  strbuf_cstr(&text));
        strbuf_free(&text);
        return false;
    }
    return true;
}

/* BREAKPOINT outside a debugger session: ignored (--no-break), or a line in
 * the program's output saying where it would have stopped (stdin is not a
 * terminal, so nobody could answer a prompt).  Under the debugger
 * (exec_sess_*) the debugger sees the instruction before it runs and stops
 * there itself; running it is then a no-op. */
bool exec_op_breakpoint(exec_prog *P, const ir_inst *in)
{
    const exec_ctx *x = P->x;
    const ir_print *cond = ir_inst_print(x->k, in);
    if (x->debug || x->L->breaks != EXEC_BREAK_REPORT || (cond && !pid_passes(P, cond)))
        return true;
    const src_file *f = x->L->file;
    int line = in->at ? in->at->span.line : 0, col = in->at ? in->at->span.col : 0;
    strbuf_printf(&P->w->out, "%s:%d:%d: breakpoint in program (%" PRId64 ", %" PRId64
                  ", %" PRId64 ") not taken: stdin is not a terminal (run under "
                  "'tritsim debug' to stop here, or pass --no-break)\n",
                  f ? f->name : "<kernel>", line, col, P->coord[0], P->coord[1], P->coord[2]);
    return true;
}
