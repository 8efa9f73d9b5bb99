/* spec_print.c - printing and checks in a kernel: print(), tl.device_print,
 * tl.static_print, tl.static_assert, tl.device_assert, breakpoint(), and
 * the lecture's triton_util helpers print_if and breakpoint_if with their
 * program-id conditions (spec_pid_conds_*). */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <stdlib.h>
#include <string.h>

/* ---- printing and checks ------------------------------------------------- */

/* Append v to a print's pieces: text for constants, a slot for tiles. */
static bool sp_print_piece(spec *s, sval v, const ast_node *at, ir_fmt_piece **pieces, int *n,
                           int *cap)
{
    if (v.kind == SV_FMT) {
        for (int i = 0; i < v.n; i++) {
            if (*n == *cap) {
                *cap = *cap ? 2 * *cap : 8;
                *pieces = xrealloc(*pieces, (size_t)*cap * sizeof **pieces);
            }
            (*pieces)[(*n)++] = v.pieces[i];
        }
        return true;
    }
    ir_fmt_piece pc = {.slot = -1};
    if (v.kind == SV_TILE) {
        pc.slot = v.slot;
    } else if (v.kind == SV_CONST) {
        strbuf b;
        strbuf_init(&b);
        if (!sp_format_const(s, &v.c, NULL, 0, at, &b)) {
            strbuf_free(&b);
            return false;
        }
        pc.text = arena_strndup(s->a, strbuf_cstr(&b), b.len);
        strbuf_free(&b);
    } else {
        char buf[128];
        return sp_error(s, at, "cannot print %s in a kernel", sp_describe(s, v, buf, sizeof buf));
    }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *pieces = xrealloc(*pieces, (size_t)*cap * sizeof **pieces);
    }
    (*pieces)[(*n)++] = pc;
    return true;
}

static ir_print sp_print_finish(spec *s, ir_print_kind kind, ir_fmt_piece *pieces, int n)
{
    ir_print p = {.kind = kind, .npieces = n};
    p.pieces = arena_alloc(s->a, (size_t)(n + 1) * sizeof *pieces);
    if (n)
        memcpy(p.pieces, pieces, (size_t)n * sizeof *pieces);
    for (int i = 0; i < 3; i++)
        p.pid_cond[i].op = -1;
    free(pieces);
    return p;
}

/* Triton's device_print(prefix, *args): the prefix is a constant string of
 * printable ASCII, every later argument a value it converts to a tensor (a
 * string there fails).  fname names the call for messages. */
static bool sp_device_print_args(spec *s, const char *fname, sval prefix, const sval *args,
                                 int nargs, const ast_node *call)
{
    if (prefix.kind != SV_CONST || prefix.c.kind != SC_STR) {
        char buf[128];
        return sp_error(s, call, "the first argument of %s in a kernel must be a constant "
                        "string, the prefix of Triton's device_print(prefix, *values), not "
                        "%s%s", fname, sp_describe(s, prefix, buf, sizeof buf),
                        prefix.kind == SV_FMT ? " with tile fields (they work only under "
                        "Triton's interpreter): pass the tiles as separate arguments"
                        : ": start with a string such as \"x\"");
    }
    for (size_t i = 0; i < prefix.c.u.str.len; i++) {
        unsigned char ch = (unsigned char)prefix.c.u.str.s[i];
        if (!(ch >= 0x20 && ch < 0x7f) && !(ch && strchr("\t\n\r\v\f", ch)))
            return sp_error(s, call, "the prefix of %s must be printable ASCII, as Triton "
                            "requires", fname);
    }
    for (int i = 0; i < nargs; i++) {
        sval v = args[i];
        if ((v.kind == SV_CONST && v.c.kind == SC_STR) || v.kind == SV_FMT)
            return sp_error(s, call, "%s in a kernel takes one string, its prefix, then "
                            "values (Triton's device_print cannot convert a string to a "
                            "tensor): argument %d is %s; put the text in the prefix or print "
                            "it in a call of its own", fname, i + 2,
                            v.kind == SV_FMT ? "an f-string" : "a string");
    }
    return true;
}

/* print(...) under Triton's interpreter is Python's print: any values,
 * strings and f-strings with tile fields among them, joined by sep (a
 * constant string); end may only be the newline. */
static bool sp_python_print(spec *s, const sval *p, const ast_node *call)
{
    spec_const sep = {.kind = SC_STR};
    sep.u.str.s = " ";
    sep.u.str.len = 1;
    if (!sv_is_none(p[1])) {
        if (p[1].kind != SV_CONST || p[1].c.kind != SC_STR)
            return sp_error(s, call, "print(sep=...) in a kernel takes a constant string");
        sep = p[1].c;
    }
    if (!sv_is_none(p[2]) &&
        (p[2].kind != SV_CONST || p[2].c.kind != SC_STR || p[2].c.u.str.len != 1 ||
         p[2].c.u.str.s[0] != '\n'))
        return sp_error(s, call, "print(end=...) in a kernel can only be the newline: "
                        "each program's print is a line of its own");
    ir_fmt_piece *pieces = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < p[0].n; i++)
        if ((i && !sp_print_piece(s, sv_const(sep), call, &pieces, &n, &cap)) ||
            !sp_print_piece(s, p[0].items[i], call, &pieces, &n, &cap))
            return free(pieces), false;
    ir_print pr = sp_print_finish(s, IR_PRINT_TEXT, pieces, n);
    sp_emit(s, IR_PRINT, 0, -1, -1, -1, -1, sp_print_desc(s, pr), call);
    return true;
}

/* print(...) in a kernel is Triton's tl.device_print, so it takes the same
 * arguments; tritsim prints them as Triton's interpreter does (tiles as
 * numpy arrays, separated by spaces).  Under the interpreter itself
 * (spec_host.interpret) it is Python's print. */
bool sp_builtin_print(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    if (!SP_BIND(s, "builtins.print", "*values, sep=, end=", a, call, p))
        return false;
    if (s->host->interpret) {
        *out = sv_none();
        return sp_python_print(s, p, call);
    }
    if (!sv_is_none(p[1]) || !sv_is_none(p[2]))
        return sp_error(s, call, "print(%s=...) is not supported in kernels: there print is "
                        "tl.device_print, which has no %s argument",
                        sv_is_none(p[1]) ? "end" : "sep", sv_is_none(p[1]) ? "end" : "sep");
    if (p[0].n == 0)
        return sp_error(s, call, "print() in a kernel needs a prefix string, as Triton's "
                        "device_print(prefix, *values) does");
    if (!sp_device_print_args(s, "print", p[0].items[0], p[0].items + 1, p[0].n - 1, call))
        return false;
    ir_fmt_piece *pieces = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < p[0].n; i++) {
        if (i) {
            spec_const c = {.kind = SC_STR};
            c.u.str.s = " ";
            c.u.str.len = 1;
            if (!sp_print_piece(s, sv_const(c), call, &pieces, &n, &cap))
                return free(pieces), false;
        }
        if (!sp_print_piece(s, p[0].items[i], call, &pieces, &n, &cap))
            return free(pieces), false;
    }
    ir_print pr = sp_print_finish(s, IR_PRINT_TEXT, pieces, n);
    sp_emit(s, IR_PRINT, 0, -1, -1, -1, -1, sp_print_desc(s, pr), call);
    *out = sv_none();
    return true;
}

/* The lecture's pid conditions: "=0", ",>1", ">1,=0", "!=2,<=3": one
 * condition per axis, comma-separated; an empty one matches any pid. */
bool spec_pid_conds_parse(const char *text, ir_print *p, char *err, size_t errlen)
{
    for (int i = 0; i < 3; i++)
        p->pid_cond[i].op = -1;
    int axis = 0;
    const char *c = text;
    for (;;) {
        const char *end = c;
        while (*end && *end != ',')
            end++;
        char buf[32];
        size_t len = 0;
        for (const char *q = c; q < end && len < sizeof buf - 1; q++)
            if (*q != ' ')
                buf[len++] = *q;
        buf[len] = '\0';
        if (len) {
            if (axis > 2) {
                snprintf(err, errlen, "pid conditions cover at most 3 axes: '%s'", text);
                return false;
            }
            static const struct { const char *op; int8_t cmp; } ops[] = {
                {"<=", IR_LE}, {">=", IR_GE}, {"!=", IR_NE}, {"<", IR_LT},
                {">", IR_GT}, {"=", IR_EQ},
            };
            size_t k = 0;
            while (k < 6 && strncmp(buf, ops[k].op, strlen(ops[k].op)))
                k++;
            char *num_end;
            const char *num = k < 6 ? buf + strlen(ops[k].op) : buf;
            long long v = strtoll(num, &num_end, 10);
            if (k == 6 || num_end == num || *num_end) {
                snprintf(err, errlen, "bad pid condition '%s' in '%s': use one of "
                         "< > <= >= = != and a number per axis, comma-separated, "
                         "e.g. '>1,=0'", buf, text);
                return false;
            }
            p->pid_cond[axis].op = ops[k].cmp;
            p->pid_cond[axis].value = v;
        }
        axis++;
        if (!*end)
            break;
        c = end + 1;
    }
    return true;
}

static bool sp_pid_conds(spec *s, sval conds, const ast_node *at, ir_print *p)
{
    const char *text = "";
    char err[256];
    if (!sp_want_str(s, conds, at, "the condition string", &text))
        return false;
    if (!spec_pid_conds_parse(text, p, err, sizeof err))
        return sp_error(s, at, "%s", err);
    return true;
}

bool util_print_if(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    if (!SP_BIND(s, "triton_util.print_if", "txt, conds", a, call, p))
        return false;
    ir_fmt_piece *pieces = NULL;
    int n = 0, cap = 0;
    if (!sp_print_piece(s, p[0], call, &pieces, &n, &cap))
        return free(pieces), false;
    ir_print pr = sp_print_finish(s, IR_PRINT_TEXT, pieces, n);
    if (!sp_pid_conds(s, p[1], call, &pr))
        return false;
    sp_emit(s, IR_PRINT, 0, -1, -1, -1, -1, sp_print_desc(s, pr), call);
    *out = sv_none();
    return true;
}

bool util_breakpoint_if(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    if (!SP_BIND(s, "triton_util.breakpoint_if", "conds", a, call, p))
        return false;
    ir_print pr = sp_print_finish(s, IR_PRINT_TEXT, NULL, 0);
    if (!sp_pid_conds(s, p[0], call, &pr))
        return false;
    sp_emit(s, IR_BREAKPOINT, 0, -1, -1, -1, -1, sp_print_desc(s, pr), call);
    *out = sv_none();
    return true;
}

bool sp_builtin_breakpoint(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    if (!SP_BIND(s, "builtins.breakpoint", "", a, call, p))
        return false;
    ir_print pr = sp_print_finish(s, IR_PRINT_TEXT, NULL, 0);
    sp_emit(s, IR_BREAKPOINT, 0, -1, -1, -1, -1, sp_print_desc(s, pr), call);
    *out = sv_none();
    return true;
}

/* device_print(hex=True) of a value of type dt: NVIDIA's printf gets
 * fp16/bf16/fp32 promoted to fp64 (printfPromoteValue) under the hex
 * format of the narrower type ("0x%08x" for fp32), so Triton 3.6 does not
 * print their bits; refuse those rather than print what the GPU does not. */
static bool sp_device_print_hex_ok(spec *s, dtype dt, const ast_node *call)
{
    if (!dtype_is_float(dt) || dt == DTYPE_FP64)
        return true;
    return sp_error(s, call, "tl.device_print(hex=True) does not print the bits of %s values "
                    "on the GPU: Triton 3.6 hands them to printf promoted to fp64 under the "
                    "format of a %d-bit integer; print x.to(tl.%s, bitcast=True) instead",
                    dtype_name(dt), dtype_bits(dt), dtype_bits(dt) == 32 ? "uint32" : "uint16");
}

bool tl_device_print(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    const char *prefix = "";
    bool hex = false;
    if (!SP_BIND(s, "triton.language.device_print", "prefix, *args, hex=", a, call, p) ||
        !sp_device_print_args(s, "tl.device_print", p[0], p[1].items, p[1].n, call))
        return false;
    prefix = p[0].c.u.str.s;
    if (!sv_is_none(p[2])) {
        if (p[2].kind != SV_CONST || (p[2].c.kind != SC_BOOL && p[2].c.kind != SC_INT))
            return sp_error(s, call, "the hex argument of tl.device_print must be a constant "
                            "True or False");
        hex = sp_const_truth(&p[2].c);
    }
    ir_fmt_piece *pieces = NULL;
    int n = 0, cap = 0;
    spec_const pc = {.kind = SC_STR};
    pc.u.str.s = prefix;
    pc.u.str.len = strlen(prefix);
    if (!sp_print_piece(s, sv_const(pc), call, &pieces, &n, &cap))
        return free(pieces), false;
    for (int i = 0; i < p[1].n; i++) {
        int32_t x;
        if (!sp_want_tile(s, p[1].items[i], call, "a device_print value", &x) ||
            (hex && !sp_device_print_hex_ok(s, sp_slot_type(s, x)->dt, call)))
            return free(pieces), false;
        if (!sp_print_piece(s, sv_tile(x), call, &pieces, &n, &cap))
            return free(pieces), false;
    }
    ir_print pr = sp_print_finish(s, IR_PRINT_DEVICE, pieces, n);
    pr.hex = hex;
    sp_emit(s, IR_PRINT, 0, -1, -1, -1, -1, sp_print_desc(s, pr), call);
    *out = sv_none();
    return true;
}

/* str(v) as Triton 3.6's static_print shows it: constants as Python's
 * str, a tile as its type ("int32[]", "fp32[16, 16]"), a tuple as the list
 * of its items' str ("['16', '16']"). */
static bool sp_static_str(spec *s, sval v, const ast_node *call, strbuf *b)
{
    if (v.kind == SV_TILE) {
        const ir_type *t = sp_slot_type(s, v.slot);
        strbuf_printf(b, "%s[", dtype_name(t->dt));
        for (int i = 0; i < t->ndim; i++)
            strbuf_printf(b, "%s%d", i ? ", " : "", (int)t->shape[i]);
        strbuf_putc(b, ']');
        return true;
    }
    sval tv = sp_tuple_view(s, v);
    if (tv.kind == SV_TUPLE) {
        strbuf_putc(b, '[');
        for (int i = 0; i < tv.n; i++) {
            strbuf item;
            strbuf_init(&item);
            if (!sp_static_str(s, tv.items[i], call, &item)) {
                strbuf_free(&item);
                return false;
            }
            strbuf_printf(b, "%s'%s'", i ? ", " : "", strbuf_cstr(&item));
            strbuf_free(&item);
        }
        strbuf_putc(b, ']');
        return true;
    }
    if (v.kind == SV_CONST)
        return sp_format_const(s, &v.c, NULL, 0, call, b);
    char buf[128];
    strbuf_puts(b, sp_describe(s, v, buf, sizeof buf));
    return true;
}

bool tl_static_print(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    if (!SP_BIND(s, "triton.language.static_print", "*values", a, call, p))
        return false;
    strbuf b;
    strbuf_init(&b);
    for (int i = 0; i < p[0].n; i++) {
        if (i)
            strbuf_putc(&b, ' ');
        if (!sp_static_str(s, p[0].items[i], call, &b)) {
            strbuf_free(&b);
            return false;
        }
    }
    fprintf(s->out, "%s\n", strbuf_cstr(&b));
    strbuf_free(&b);
    *out = sv_none();
    return true;
}

bool tl_static_assert(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    if (!SP_BIND(s, "triton.language.static_assert", "cond, msg=", a, call, p))
        return false;
    if (p[0].kind != SV_CONST)
        return sp_error(s, call, "tl.static_assert needs a condition known at compile time; "
                        "use tl.device_assert for run-time values");
    if (!sp_const_truth(&p[0].c)) {
        const char *msg = "";
        if (!sv_is_none(p[1]) && !sp_want_str(s, p[1], call, "msg", &msg))
            return false;
        return sp_error(s, call, "static assertion failed%s%s", *msg ? ": " : "", msg);
    }
    *out = sv_none();
    return true;
}

bool tl_device_assert(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t c;
    if (!SP_BIND(s, "triton.language.device_assert", "cond, msg=", a, call, p))
        return false;
    *out = sv_none();
    if (p[0].kind == SV_CONST && sp_const_truth(&p[0].c))
        return true;
    if (!sp_want_tile(s, p[0], call, "the condition", &c))
        return false;
    c = sp_cast(s, c, DTYPE_INT1, call);
    ir_fmt_piece *pieces = NULL;
    int n = 0, cap = 0;
    if (!sv_is_none(p[1]) && !sp_print_piece(s, p[1], call, &pieces, &n, &cap))
        return free(pieces), false;
    ir_print pr = sp_print_finish(s, IR_PRINT_TEXT, pieces, n);
    sp_emit(s, IR_ASSERT, IR_ASSERT_DEVICE, -1, c, -1, -1, sp_print_desc(s, pr), call);
    return true;
}
