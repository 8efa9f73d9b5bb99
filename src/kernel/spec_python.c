/* spec_python.c - the Python builtins a kernel may call besides print and
 * breakpoint (spec_print.c): min, max, len, int, float, bool, isinstance; and the
 * stub of the host-only functions, which says to call them before the
 * launch. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Python builtins ------------------------------------------------------ */

static bool sp_builtin_minmax(spec *s, const sp_args *a, const ast_node *call, sval *out,
                           bool is_max)
{
    if (a->nkw)
        return sp_error(s, call, "%s() in a kernel takes no keyword arguments",
                        is_max ? "max" : "min");
    const sval *v = a->argv;
    int n = a->argc;
    sval t;
    if (n == 1) {
        t = a->argv[0];
        if (t.kind == SV_CONST && t.c.kind == SC_TUPLE) {
            sval *items = arena_alloc(s->a, (size_t)(t.c.u.tuple.n + 1) * sizeof *items);
            for (int i = 0; i < t.c.u.tuple.n; i++)
                items[i] = sv_const(t.c.u.tuple.items[i]);
            v = items;
            n = t.c.u.tuple.n;
        } else if (t.kind == SV_TUPLE) {
            v = t.items;
            n = t.n;
        }
    }
    if (n == 0)
        return sp_error(s, call, "%s() of nothing", is_max ? "max" : "min");
    sval best = v[0];
    bool tiles = false;
    for (int i = 0; i < n; i++)
        tiles = tiles || v[i].kind == SV_TILE;
    if (tiles) {
        /* As in Triton, min/max of tiles are tl.minimum/tl.maximum. */
        for (int i = 1; i < n; i++) {
            sp_args pair = {.argc = 2, .argv = (sval[]){best, v[i]}};
            if (!(is_max ? tl_maximum : tl_minimum)(s, &pair, call, &best))
                return false;
        }
        *out = best;
        return true;
    }
    for (int i = 1; i < n; i++) {
        sval lt;
        if (!sp_binop(s, AST_OP_LT, best, v[i], call, &lt))
            return false;
        if (lt.c.u.b == is_max)
            best = v[i];
    }
    *out = best;
    return true;
}

bool sp_builtin_min(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_builtin_minmax(s, a, call, out, false);
}

bool sp_builtin_max(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_builtin_minmax(s, a, call, out, true);
}

bool sp_builtin_len(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    if (!SP_BIND(s, "builtins.len", "obj", a, call, p))
        return false;
    if (p[0].kind == SV_TUPLE) {
        *out = sv_int(p[0].n);
        return true;
    }
    if (p[0].kind == SV_CONST && p[0].c.kind == SC_TUPLE) {
        *out = sv_int(p[0].c.u.tuple.n);
        return true;
    }
    if (p[0].kind == SV_CONST && p[0].c.kind == SC_STR) {
        *out = sv_int((int64_t)p[0].c.u.str.len);
        return true;
    }
    if (p[0].kind == SV_TILE && sp_slot_type(s, p[0].slot)->ndim > 0) {
        *out = sv_int(sp_slot_type(s, p[0].slot)->shape[0]);
        return true;
    }
    char buf[128];
    return sp_error(s, call, "len() of %s", sp_describe(s, p[0], buf, sizeof buf));
}

static bool sp_builtin_convert(spec *s, const char *qual, const sp_args *a, const ast_node *call,
                            sval *out)
{
    sval p[1];
    if (!SP_BIND(s, qual, "x", a, call, p))
        return false;
    const char *what = qual + 9;
    /* float('inf'), float('-inf'), float('nan'), int('3'): Python's own
     * conversion of a constant string, done now. */
    if (p[0].kind == SV_CONST && p[0].c.kind == SC_STR && strcmp(what, "bool")) {
        const char *text = p[0].c.u.str.s;
        char *end;
        errno = 0;
        spec_const r = {.kind = SC_FLOAT};
        if (!strcmp(what, "float")) {
            r.u.f = strtod(text, &end);
        } else {
            r.kind = SC_INT;
            r.u.i = strtoll(text, &end, 10);
        }
        while (*end == ' ' || *end == '\t' || *end == '\n')
            end++;
        if (end == text || *end || errno)
            return sp_error(s, call, "could not convert string to %s: '%s'", what, text);
        *out = sv_const(r);
        return true;
    }
    if (p[0].kind != SV_CONST || (p[0].c.kind != SC_INT && p[0].c.kind != SC_FLOAT &&
                                  p[0].c.kind != SC_BOOL))
        return sp_error(s, call, "%s() in a kernel works on constant numbers only; convert "
                        "tiles with x.to(tl.int32) and the like", what);
    spec_const c = p[0].c;
    double f = c.kind == SC_FLOAT ? c.u.f : c.kind == SC_BOOL ? c.u.b : (double)c.u.i;
    if (!strcmp(what, "int")) {
        if (c.kind == SC_FLOAT && !(fabs(f) < 9.2e18))
            return sp_error(s, call, "cannot convert %g to int", f);
        *out = sv_int(c.kind == SC_FLOAT ? (int64_t)f : c.kind == SC_BOOL ? c.u.b : c.u.i);
    } else if (!strcmp(what, "float")) {
        spec_const r = {.kind = SC_FLOAT, .u.f = f};
        *out = sv_const(r);
    } else {
        spec_const r = {.kind = SC_BOOL, .u.b = sp_const_truth(&c)};
        *out = sv_const(r);
    }
    return true;
}

bool sp_builtin_int(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_builtin_convert(s, "builtins.int", a, call, out);
}

bool sp_builtin_float(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_builtin_convert(s, "builtins.float", a, call, out);
}

bool sp_builtin_bool(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_builtin_convert(s, "builtins.bool", a, call, out);
}

bool util_host_only(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    (void)a, (void)out;
    return sp_error(s, call, "this function runs on the host; call it before the launch, "
                    "not inside a kernel");
}

/* The classes isinstance knows in kernels, and whether v is one.  Triton
 * unwraps constexprs before calling a Python builtin, so a constant is
 * its Python value (an int is no tl.constexpr, a bool is an int) and a
 * tile is a tl.tensor; a dtype (pointers and block types too) is a
 * tl.dtype. */
static bool sp_instance_of(spec *s, sval v, sval cls, const ast_node *call, bool *res)
{
    if (cls.kind == SV_TUPLE) {
        *res = false;
        for (int i = 0; i < cls.n; i++) {
            bool r;
            if (!sp_instance_of(s, v, cls.items[i], call, &r))
                return false;
            *res = *res || r;
        }
        return true;
    }
    const char *q = cls.kind == SV_FUNC ? cls.name : "";
    bool c = v.kind == SV_CONST;
    spec_const_kind k = v.c.kind;
    if (!strcmp(q, "triton.language.tensor"))
        *res = v.kind == SV_TILE;
    else if (!strcmp(q, "triton.language.tensor_descriptor"))
        *res = v.kind == SV_BLOCKPTR && v.block->desc;
    else if (!strcmp(q, "triton.language.constexpr"))
        *res = false;
    else if (!strcmp(q, "triton.language.dtype"))
        *res = (c && k == SC_DTYPE) || v.kind == SV_TYPE;
    else if (!strcmp(q, "triton.language.pointer_type"))
        *res = c && k == SC_DTYPE && dtype_is_ptr(v.c.u.dt);
    else if (!strcmp(q, "triton.language.block_type"))
        *res = v.kind == SV_TYPE;
    else if (!strcmp(q, "builtins.int"))
        *res = c && (k == SC_INT || k == SC_BOOL);
    else if (!strcmp(q, "builtins.float"))
        *res = c && k == SC_FLOAT;
    else if (!strcmp(q, "builtins.bool"))
        *res = c && k == SC_BOOL;
    else if (!strcmp(q, "builtins.str"))
        *res = c && k == SC_STR;
    else {
        char buf[128];
        return sp_error(s, call, "isinstance() in a kernel takes tl.tensor, "
                        "tl.tensor_descriptor, tl.dtype, tl.pointer_type, tl.block_type, "
                        "tl.constexpr, int, float, bool or str (or a tuple of them), not %s",
                        sp_describe(s, cls, buf, sizeof buf));
    }
    return true;
}

bool sp_builtin_isinstance(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    bool r;
    if (!SP_BIND(s, "builtins.isinstance", "obj, class_or_tuple", a, call, p) ||
        !sp_instance_of(s, p[0], p[1], call, &r))
        return false;
    *out = sv_const((spec_const){.kind = SC_BOOL, .u.b = r});
    return true;
}
