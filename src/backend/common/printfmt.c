/* printfmt.c - the text of PRINT (print(): text and values as numpy prints
 * them; tl.device_print: a line per element), of a failed ASSERT and of
 * BREAKPOINT outside a debugger, from the values the instruction read
 * (printfmt.h).  The CPU executor and the GPU backends both print through
 * here.
 *
 * tl.device_print writes Triton's GPU format (PrintOpToLLVM.cpp), not the
 * interpreter's: "pid (0, 1, 0) idx ( 3) x: 1.500000". */
#include "printfmt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "pyformat.h"

dtype printfmt_numpy_dtype(dtype t)
{
    return !dtype_is_ptr(t) && dtype_is_fp8(t) ? DTYPE_FP32 : t;
}

void printfmt_from_memory(dtype t, void *D, const void *M, int64_t n)
{
    if (dtype_is_ptr(t) || !dtype_is_fp8(t)) {
        memcpy(D, M, (size_t)n * (size_t)dtype_size(t));
        return;
    }
    float *f = D;
    const unsigned char *b = M;
    for (int64_t i = 0; i < n; i++)
        f[i] = (float)dtype_load(t, b + i).f;
}

/* Element i of numpy-format data of a slot of dtype t, canonical. */
static dtype_scalar numpy_get(dtype t, const void *data, int64_t i)
{
    dtype nt = printfmt_numpy_dtype(t);
    return dtype_load(nt, (const unsigned char *)data + i * dtype_size(nt));
}

static bool fail(printfmt_err *err, const char *note, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(printfmt_err *err, const char *note, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    snprintf(err->note, sizeof err->note, "%s", note ? note : "");
    return false;
}

/* A 0-d value with a format spec: Python's format(value, spec), as numpy
 * scalars do it (through the Python int / float / bool). */
static bool format_spec_value(strbuf *sb, dtype t, dtype_scalar v, const char *spec,
                              printfmt_err *err)
{
    pyformat_spec ps;
    char why[256];
    strbuf b = {0};
    bool isfloat = !dtype_is_ptr(t) && dtype_is_float(t);
    const char *tname = isfloat ? "float" : t == DTYPE_INT1 ? "bool" : "int";
    bool ok = pyformat_parse_spec(spec, strlen(spec), tname, &ps, why, sizeof why);
    if (ok && isfloat)
        ok = pyformat_float(&b, v.f, &ps, why, sizeof why);
    else if (ok && (dtype_is_signed(t) || v.u <= (uint64_t)INT64_MAX))
        ok = pyformat_int(&b, dtype_is_signed(t) ? v.i : (int64_t)v.u, &ps, why, sizeof why);
    else if (ok)    /* a uint64 above INT64_MAX: pyformat_int takes int64 */
        ok = pyformat_float(&b, (double)v.u, &ps, why, sizeof why);
    if (ok)
        strbuf_putn(sb, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    return ok ? true : fail(err, NULL, "%s", why);
}

/* Piece i (a slot): numpy's str() of it, or format(value, spec) for a
 * scalar. */
static bool format_slot(strbuf *sb, const ir_print *pr, int32_t i, const printfmt_src *src,
                        printfmt_err *err)
{
    const ir_fmt_piece *pc = &pr->pieces[i];
    const ir_type *t = &src->k->slots[pc->slot].type;
    if (pc->spec && pc->spec[0] && t->ndim > 0) {
        char ty[96];
        ir_type_str(t, ty, sizeof ty);
        return fail(err, "format a scalar, e.g. a tl.sum() of the tile",
                    "unsupported format string passed to numpy.ndarray.__format__ "
                    "(the value is a %s tile)", ty);
    }
    const void *data = src->lanes(src->ctx, i);
    if (!data) {
        strbuf_putc(sb, '?');
        return true;
    }
    if (pc->spec && pc->spec[0])
        return format_spec_value(sb, t->dt, numpy_get(t->dt, data, 0), pc->spec, err);
    /* Scalars print as 1-element arrays, "pid = [0]": under Triton's
     * interpreter, which the lecture shows, program ids and scalar
     * arguments are numpy arrays of shape (1,). */
    int64_t shape[IR_MAX_DIM] = {1};
    for (int d = 0; d < t->ndim; d++)
        shape[d] = t->shape[d];
    format_array arr = {.data = data, .type = printfmt_numpy_dtype(t->dt),
                        .ndim = t->ndim ? t->ndim : 1, .shape = shape};
    if (!format_numpy(sb, &arr))
        return fail(err, NULL, "internal error: a value of type %s cannot be printed",
                    dtype_name(t->dt));
    return true;
}

/* Pieces from..npieces-1 of a PRINT_TEXT (or an assertion's message). */
static bool format_pieces(strbuf *sb, const ir_print *pr, int32_t from,
                          const printfmt_src *src, printfmt_err *err)
{
    for (int32_t i = from; i < pr->npieces; i++) {
        const ir_fmt_piece *pc = &pr->pieces[i];
        if (pc->slot < 0)
            strbuf_puts(sb, pc->text ? pc->text : "");
        else if (!format_slot(sb, pr, i, src, err))
            return false;
    }
    return true;
}

/* Triton's device_print prefix, munged as semantic.device_print does it:
 * ends in ": " and starts with " " when longer than two characters. */
static void device_prefix(const ir_print *pr, bool operands, strbuf *sb)
{
    strbuf p = {0};
    for (int32_t i = 0; i < pr->npieces; i++)
        if (pr->pieces[i].slot < 0 && pr->pieces[i].text)
            strbuf_puts(&p, pr->pieces[i].text);
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
        strbuf_printf(sb, "0x%" PRIx64, v.u);
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
static void device_print(strbuf *sb, const ir_print *pr, const int64_t c[3],
                         const printfmt_src *src)
{
    int nops = 0;
    for (int32_t i = 0; i < pr->npieces; i++)
        nops += pr->pieces[i].slot >= 0;
    strbuf prefix = {0};
    device_prefix(pr, nops > 0, &prefix);
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
        const ir_type *t = &src->k->slots[s].type;
        const void *data = src->lanes(src->ctx, pi);
        int64_t n = ir_type_numel(t);
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
            if (data)
                device_print_value(sb, t->dt, numpy_get(t->dt, data, i), pr->hex);
            else
                strbuf_putc(sb, '?');
            strbuf_putc(sb, '\n');
        }
        op++;
    }
    strbuf_free(&prefix);
}

bool printfmt_print(strbuf *out, const ir_print *pr, const int64_t pid[3],
                    const printfmt_src *src, printfmt_err *err)
{
    if (pr->kind == IR_PRINT_DEVICE) {
        device_print(out, pr, pid, src);
        return true;
    }
    if (!format_pieces(out, pr, 0, src, err))
        return false;
    strbuf_putc(out, '\n');
    return true;
}

bool printfmt_assert(int sub, const ir_print *msg, const int64_t c[3], const char *lane,
                     const printfmt_src *src, printfmt_err *err)
{
    strbuf text = {0};
    bool ok;
    err->note[0] = 0;
    if (sub == IR_ASSERT_RULE && msg && msg->npieces > 0) {
        /* a check of the GPU's rules (spec_desc.c): head, program, tail */
        const char *head = msg->pieces[0].text;
        ok = format_pieces(&text, msg, 1, src, err);
        if (ok)
            snprintf(err->msg, sizeof err->msg, "%s in program (%" PRId64 ", %" PRId64 ", %"
                     PRId64 "): %s", head ? head : "", c[0], c[1], c[2], strbuf_cstr(&text));
    } else {
        ok = !msg || format_pieces(&text, msg, 0, src, err);
        if (ok)
            snprintf(err->msg, sizeof err->msg, "device assertion failed in program (%" PRId64
                     ", %" PRId64 ", %" PRId64 "), %s%s%s", c[0], c[1], c[2], lane,
                     text.len ? ": " : "", strbuf_cstr(&text));
    }
    strbuf_free(&text);
    return ok;
}

void printfmt_breakpoint(strbuf *out, const char *file, int line, int col,
                         const int64_t pid[3])
{
    strbuf_printf(out, "%s:%d:%d: breakpoint in program (%" PRId64 ", %" PRId64 ", %" PRId64
                  ") not taken: stdin is not a terminal (run under 'tritsim debug' to stop "
                  "here, or pass --no-break)\n", file, line, col, pid[0], pid[1], pid[2]);
}
