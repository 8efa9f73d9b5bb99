/* spec_expr.c - the specializer's expressions: names, operators (folded
 * on constants, IR on tiles, with Triton's type promotion), and the walk of
 * an expression (sp_expr): literals, f-strings, attributes, subscripts,
 * calls, boolean operators, comparisons, conditional expressions. */
#define _POSIX_C_SOURCE 200809L
#include "spec_impl.h"
#include "spec_tl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ------------------------------------------------------------- */

/* Names of Python's builtins that kernels may use. */
static const char *const sp_python_builtins[] = {
    "range", "min", "max", "print", "len", "int", "float", "bool", "abs",
    "breakpoint", "isinstance", "tuple", "list", "str", NULL,
};

bool sp_global_sval(spec *s, spec_global g, const ast_node *at, const char *name, sval *out)
{
    switch (g.kind) {
    case SPEC_G_CONST:
        *out = sv_const(g.c);
        return true;
    case SPEC_G_MODULE:
        *out = (sval){.kind = SV_MODULE, .name = g.qualname, .slot = -1};
        return true;
    case SPEC_G_FUNC:
        *out = (sval){.kind = SV_FUNC, .name = g.qualname, .slot = -1};
        return true;
    case SPEC_G_JIT:
        *out = (sval){.kind = SV_JIT, .def = g.def, .file = g.file, .env = g.env,
                      .host_fn = g.host_fn, .slot = -1};
        return true;
    case SPEC_G_OTHER:
        if (g.plain_global)
            return sp_error(s, at, "NameError: cannot access global variable '%s' from within "
                            "a @triton.jit function: as in Triton, kernels read only the "
                            "globals made with tl.constexpr (%s = tl.constexpr(...)); pass "
                            "it as an argument, or set TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1",
                            name, name);
        return sp_error(s, at, "'%s' is %s, which a kernel cannot use (pass it as an "
                        "argument, or make it a @triton.jit function or a constant)",
                        name, g.what);
    case SPEC_G_UNDEFINED:
        break;
    }
    return sp_error(s, at, "name '%s' is not defined", name);
}

bool spec_refuse_plain_global(spec_global *g)
{
    const char *allow = getenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS");
    if (allow && !strcmp(allow, "1"))
        return false;
    *g = (spec_global){.kind = SPEC_G_OTHER, .plain_global = true,
                       .what = "a global that is not a tl.constexpr"};
    return true;
}

static bool sp_name(spec *s, const ast_node *e, sval *out)
{
    const char *name = e->u.name.id;
    sval *local = sp_lookup_local(s, name);
    if (local) {
        if (local->kind == SV_UNDEF)
            return sp_error(s, e, "'%s' is not defined here: %s", name, local->name);
        *out = *local;
        return true;
    }
    const char *func = NULL;
    int later = s->dbg_expr ? sp_dbg_later_line(s, name, &func) : 0;
    if (later)
        return sp_error(s, e, "'%s' has no value here yet: %s() assigns it at line %d", name,
                        func, later);
    spec_global g = s->host->lookup(s->host->ctx, s->fn->env, name);
    if (g.kind != SPEC_G_UNDEFINED)
        return sp_global_sval(s, g, e, name, out);
    for (int i = 0; sp_python_builtins[i]; i++)
        if (!strcmp(sp_python_builtins[i], name)) {
            char *q = arena_alloc(s->a, strlen(name) + 10);
            sprintf(q, "builtins.%s", name);
            *out = (sval){.kind = SV_FUNC, .name = q, .slot = -1};
            return true;
        }
    return sp_error(s, e, "name '%s' is not defined", name);
}

/* ---- operators ------------------------------------------------------------- */

static bool sp_is_number(sval v)
{
    return v.kind == SV_CONST &&
           (v.c.kind == SC_INT || v.c.kind == SC_FLOAT || v.c.kind == SC_BOOL);
}

static double sp_num_f(const spec_const *c)
{
    return c->kind == SC_FLOAT ? c->u.f : c->kind == SC_BOOL ? (double)c->u.b : (double)c->u.i;
}

static int64_t sp_num_i(const spec_const *c)
{
    return c->kind == SC_BOOL ? (int64_t)c->u.b : c->u.i;
}

static sval sv_float(double f)
{
    spec_const c = {.kind = SC_FLOAT, .u.f = f};
    return sv_const(c);
}

static sval sv_bool(bool b)
{
    spec_const c = {.kind = SC_BOOL, .u.b = b};
    return sv_const(c);
}

/* Equality of two constants, as Python's == (1 == 1.0 == True, a NaN is not
 * equal to itself): for == in kernels.  spec_const_eq, for cache keys and
 * the debugger's snapshots, asks the stricter "the same constant?". */
static bool sp_const_eq(const spec_const *a, const spec_const *b)
{
    bool an = a->kind == SC_INT || a->kind == SC_FLOAT || a->kind == SC_BOOL;
    bool bn = b->kind == SC_INT || b->kind == SC_FLOAT || b->kind == SC_BOOL;
    if (an && bn) {
        if (a->kind != SC_FLOAT && b->kind != SC_FLOAT)
            return sp_num_i(a) == sp_num_i(b);
        return sp_num_f(a) == sp_num_f(b);
    }
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SC_NONE: return true;
    case SC_STR: return a->u.str.len == b->u.str.len &&
                        !memcmp(a->u.str.s, b->u.str.s, a->u.str.len);
    case SC_DTYPE: return a->u.dt == b->u.dt;
    case SC_TUPLE:
        if (a->u.tuple.n != b->u.tuple.n)
            return false;
        for (int i = 0; i < a->u.tuple.n; i++)
            if (!sp_const_eq(&a->u.tuple.items[i], &b->u.tuple.items[i]))
                return false;
        return true;
    default: return false;
    }
}

/* Python arithmetic on two constants. */
static bool sp_fold_binop(spec *s, ast_op op, const spec_const *a, const spec_const *b,
                          const ast_node *at, sval *out)
{
    if (op == AST_OP_EQ || op == AST_OP_NE || op == AST_OP_IS || op == AST_OP_ISNOT) {
        bool eq = sp_const_eq(a, b);
        *out = sv_bool((op == AST_OP_EQ || op == AST_OP_IS) ? eq : !eq);
        return true;
    }
    bool an = a->kind == SC_INT || a->kind == SC_FLOAT || a->kind == SC_BOOL;
    bool bn = b->kind == SC_INT || b->kind == SC_FLOAT || b->kind == SC_BOOL;
    if (!an || !bn)
        return sp_error(s, at, "unsupported operand types for %s: '%s' and '%s'",
                        ast_op_name(op), spec_const_kind_name(a), spec_const_kind_name(b));
    bool isfloat = a->kind == SC_FLOAT || b->kind == SC_FLOAT;
    if (!isfloat) {
        int64_t x = sp_num_i(a), y = sp_num_i(b), r = 0;
        bool ovf = false;
        switch (op) {
        case AST_OP_ADD: ovf = __builtin_add_overflow(x, y, &r); break;
        case AST_OP_SUB: ovf = __builtin_sub_overflow(x, y, &r); break;
        case AST_OP_MUL: ovf = __builtin_mul_overflow(x, y, &r); break;
        case AST_OP_DIV:
            if (y == 0)
                return sp_error(s, at, "division by zero in a constant expression");
            *out = sv_float((double)x / (double)y);
            return true;
        case AST_OP_FLOORDIV:
        case AST_OP_MOD:
            if (y == 0)
                return sp_error(s, at, "integer division or modulo by zero in a "
                                "constant expression");
            r = op == AST_OP_FLOORDIV ? dtype_pyfloordiv_i64(x, y) : dtype_pymod_i64(x, y);
            break;
        case AST_OP_POW:
            if (y < 0) {
                *out = sv_float(pow((double)x, (double)y));
                return true;
            }
            r = 1;
            for (int64_t i = 0; i < y && !ovf; i++)
                ovf = __builtin_mul_overflow(r, x, &r);
            break;
        case AST_OP_LSHIFT:
            if (y < 0)
                return sp_error(s, at, "negative shift count");
            ovf = y >= 63 ? x != 0 : ((x << y) >> y) != x;
            r = y >= 63 ? 0 : (int64_t)((uint64_t)x << y);
            break;
        case AST_OP_RSHIFT:
            if (y < 0)
                return sp_error(s, at, "negative shift count");
            r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
            break;
        case AST_OP_BITAND: r = x & y; break;
        case AST_OP_BITOR: r = x | y; break;
        case AST_OP_BITXOR: r = x ^ y; break;
        case AST_OP_LT: *out = sv_bool(x < y); return true;
        case AST_OP_LE: *out = sv_bool(x <= y); return true;
        case AST_OP_GT: *out = sv_bool(x > y); return true;
        case AST_OP_GE: *out = sv_bool(x >= y); return true;
        default:
            return sp_error(s, at, "operator %s is not supported on constants", ast_op_name(op));
        }
        if (ovf)
            return sp_error(s, at, "integer overflow in a constant expression "
                            "(constants are 64-bit)");
        if ((op == AST_OP_BITAND || op == AST_OP_BITOR || op == AST_OP_BITXOR) &&
            a->kind == SC_BOOL && b->kind == SC_BOOL)
            *out = sv_bool(r != 0);
        else
            *out = sv_int(r);
        return true;
    }
    double x = sp_num_f(a), y = sp_num_f(b);
    switch (op) {
    case AST_OP_ADD: *out = sv_float(x + y); return true;
    case AST_OP_SUB: *out = sv_float(x - y); return true;
    case AST_OP_MUL: *out = sv_float(x * y); return true;
    case AST_OP_DIV:
        if (y == 0)
            return sp_error(s, at, "float division by zero in a constant expression");
        *out = sv_float(x / y);
        return true;
    case AST_OP_FLOORDIV:
    case AST_OP_MOD:
        if (y == 0)
            return sp_error(s, at, "float modulo by zero in a constant expression");
        *out = sv_float(op == AST_OP_FLOORDIV ? dtype_pyfloordiv_f64(x, y)
                                              : dtype_pymod_f64(x, y));
        return true;
    case AST_OP_POW: *out = sv_float(pow(x, y)); return true;
    case AST_OP_LT: *out = sv_bool(x < y); return true;
    case AST_OP_LE: *out = sv_bool(x <= y); return true;
    case AST_OP_GT: *out = sv_bool(x > y); return true;
    case AST_OP_GE: *out = sv_bool(x >= y); return true;
    default:
        return sp_error(s, at, "operator %s needs int operands, not float", ast_op_name(op));
    }
}

/* The dtype_op and IR operation of an ast_op on tiles. */
static bool sp_tile_op(ast_op op, dtype_op *dop, ir_opcode *irop, int *sub)
{
    static const struct { ast_op op; dtype_op dop; ir_opcode ir; int sub; } map[] = {
        {AST_OP_ADD, DTYPE_OP_ADD, IR_BINARY, IR_ADD},
        {AST_OP_SUB, DTYPE_OP_SUB, IR_BINARY, IR_SUB},
        {AST_OP_MUL, DTYPE_OP_MUL, IR_BINARY, IR_MUL},
        {AST_OP_DIV, DTYPE_OP_TRUEDIV, IR_BINARY, IR_DIV},
        {AST_OP_FLOORDIV, DTYPE_OP_FLOORDIV, IR_BINARY, IR_FLOORDIV},
        {AST_OP_MOD, DTYPE_OP_MOD, IR_BINARY, IR_MOD},
        {AST_OP_BITAND, DTYPE_OP_AND, IR_BINARY, IR_AND},
        {AST_OP_BITOR, DTYPE_OP_OR, IR_BINARY, IR_OR},
        {AST_OP_BITXOR, DTYPE_OP_XOR, IR_BINARY, IR_XOR},
        {AST_OP_LSHIFT, DTYPE_OP_SHL, IR_BINARY, IR_SHL},
        {AST_OP_RSHIFT, DTYPE_OP_SHR, IR_BINARY, IR_SHR},
        {AST_OP_EQ, DTYPE_OP_EQ, IR_CMP, IR_EQ},
        {AST_OP_NE, DTYPE_OP_NE, IR_CMP, IR_NE},
        {AST_OP_LT, DTYPE_OP_LT, IR_CMP, IR_LT},
        {AST_OP_LE, DTYPE_OP_LE, IR_CMP, IR_LE},
        {AST_OP_GT, DTYPE_OP_GT, IR_CMP, IR_GT},
        {AST_OP_GE, DTYPE_OP_GE, IR_CMP, IR_GE},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].op == op) {
            *dop = map[i].dop;
            *irop = map[i].ir;
            *sub = map[i].sub;
            return true;
        }
    return false;
}

/* The operand description dtype_binop wants. */
static dtype_operand sp_operand(spec *s, sval v)
{
    dtype_operand o = {0};
    if (v.kind == SV_TILE) {
        o.type = sp_slot_type(s, v.slot)->dt;
    } else {
        o.is_scalar = true;
        o.type = sp_const_dtype(&v.c);
        if (v.c.kind == SC_FLOAT)
            o.value.f = v.c.u.f;
        else if (dtype_is_unsigned(o.type))
            o.value.u = (uint64_t)sp_num_i(&v.c);
        else
            o.value.i = sp_num_i(&v.c);
    }
    return o;
}

/* An operand slot of dtype dt: constants materialised, tiles cast. */
int32_t sp_operand_slot(spec *s, sval v, dtype dt, const ast_node *at)
{
    if (v.kind == SV_CONST)
        return sp_const_slot(s, &v.c, dt, at);
    return sp_cast(s, v.slot, dt, at);
}

/* A binary operation on tiles (at least one of a, b is a tile): Triton's
 * type rules, then broadcasting, then one instruction. */
static bool sp_tile_binop(spec *s, ast_op op, sval a, sval b, const ast_node *at, sval *out)
{
    dtype_op dop;
    ir_opcode irop;
    int sub;
    if (op == AST_OP_POW)
        return sp_error(s, at, "'**' is not defined on tiles; use libdevice.pow (from "
                        "triton.language.extra import libdevice) or multiply instead");
    if (op == AST_OP_MATMUL)
        return sp_error(s, at, "'@' is not defined on tiles; use tl.dot(a, b)");
    if (!sp_tile_op(op, &dop, &irop, &sub))
        return sp_error(s, at, "operator %s is not supported on tiles", ast_op_name(op));
    char err[256];
    dtype_binop_types ty;
    if (!dtype_binop(dop, sp_operand(s, a), sp_operand(s, b), &ty, err, sizeof err))
        return sp_error(s, at, "%s", err);
    if (ty.swapped) {
        sval t = a;
        a = b;
        b = t;
    }
    int32_t sa = sp_operand_slot(s, a, ty.lhs, at);
    int32_t sb = sp_operand_slot(s, b, ty.rhs, at);
    ir_type shape;
    if (!sp_broadcast_shape(sp_slot_type(s, sa), sp_slot_type(s, sb), &shape)) {
        char x[64], y[64];
        sp_shape_str(sp_slot_type(s, sa), x, sizeof x);
        sp_shape_str(sp_slot_type(s, sb), y, sizeof y);
        return sp_error(s, at, "shapes %s and %s do not broadcast together for '%s'",
                        x, y, ast_op_name(op));
    }
    char opname[32];
    snprintf(opname, sizeof opname, "'%s'", ast_op_name(op));
    if (!sp_broadcast_fits(s, sp_slot_type(s, sa), sp_slot_type(s, sb), &shape, at, opname))
        return false;
    sa = sp_broadcast_to(s, sa, &shape, at);
    sb = sp_broadcast_to(s, sb, &shape, at);
    ir_type rt = shape;
    rt.dt = ty.result;
    int32_t dst = sp_slot(s, rt, NULL);
    if (dtype_is_ptr(ty.result) && (op == AST_OP_ADD || op == AST_OP_SUB)) {
        if (op == AST_OP_SUB) {
            int32_t neg = sp_slot(s, *sp_slot_type(s, sb), NULL);
            sp_emit(s, IR_UNARY, IR_NEG, neg, sb, -1, -1, 0, at);
            sb = neg;
        }
        s->slots[dst].ptr_arg = s->slots[sa].ptr_arg;
        sp_emit(s, IR_PTR_ADD, 0, dst, sa, sb, -1, 0, at);
    } else {
        sp_emit(s, irop, sub, dst, sa, sb, -1, 0, at);
    }
    *out = sv_tile(dst);
    return true;
}

/* v as one constant: a constant, or a tuple of constants at any depth
 * (the literal (1, 0) is a tuple of constants, x.shape a constant tuple). */
bool sp_const_tuple(arena *a, sval v, spec_const *out)
{
    if (v.kind == SV_CONST) {
        *out = v.c;
        return true;
    }
    if (v.kind != SV_TUPLE)
        return false;
    spec_const c = {.kind = SC_TUPLE};
    c.u.tuple.n = v.n;
    c.u.tuple.items = arena_alloc(a, (size_t)(v.n + 1) * sizeof *c.u.tuple.items);
    for (int i = 0; i < v.n; i++)
        if (!sp_const_tuple(a, v.items[i], &c.u.tuple.items[i]))
            return false;
    *out = c;
    return true;
}

bool sp_binop(spec *s, ast_op op, sval a, sval b, const ast_node *at, sval *out)
{
    spec_const ca, cb;
    if (a.kind == SV_CONST && b.kind == SV_CONST)
        return sp_fold_binop(s, op, &a.c, &b.c, at, out);
    if ((op == AST_OP_EQ || op == AST_OP_NE) && (a.kind == SV_TUPLE || b.kind == SV_TUPLE) &&
        sp_const_tuple(s->a, a, &ca) && sp_const_tuple(s->a, b, &cb))
        return sp_fold_binop(s, op, &ca, &cb, at, out);
    if ((a.kind == SV_TILE || sp_is_number(a)) && (b.kind == SV_TILE || sp_is_number(b)))
        return sp_tile_binop(s, op, a, b, at, out);
    if (a.kind == SV_TUPLE && b.kind == SV_TUPLE && op == AST_OP_ADD) {
        sval t = {.kind = SV_TUPLE, .n = a.n + b.n, .slot = -1};
        t.items = arena_alloc(s->a, (size_t)(t.n ? t.n : 1) * sizeof *t.items);
        for (int i = 0; i < a.n; i++)
            t.items[i] = a.items[i];
        for (int i = 0; i < b.n; i++)
            t.items[a.n + i] = b.items[i];
        *out = t;
        return true;
    }
    char x[128], y[128];
    return sp_error(s, at, "unsupported operands for '%s': %s and %s", ast_op_name(op),
                    sp_describe(s, a, x, sizeof x), sp_describe(s, b, y, sizeof y));
}

bool sp_unop(spec *s, ast_op op, sval a, const ast_node *at, sval *out)
{
    if (a.kind == SV_CONST) {
        const spec_const *c = &a.c;
        if (op == AST_OP_NOT) {
            *out = sv_bool(!sp_const_truth(c));
            return true;
        }
        if (c->kind == SC_FLOAT && op != AST_OP_INVERT) {
            *out = sv_float(op == AST_OP_USUB ? -c->u.f : c->u.f);
            return true;
        }
        if (c->kind == SC_INT || c->kind == SC_BOOL) {
            int64_t x = sp_num_i(c);
            if (op == AST_OP_USUB && x == INT64_MIN)
                return sp_error(s, at, "integer overflow in a constant expression");
            *out = sv_int(op == AST_OP_USUB ? -x : op == AST_OP_INVERT ? ~x : x);
            return true;
        }
        return sp_error(s, at, "bad operand type for unary %s: '%s'", ast_op_name(op),
                        spec_const_kind_name(c));
    }
    if (a.kind != SV_TILE) {
        char buf[128];
        return sp_error(s, at, "bad operand for unary %s: %s", ast_op_name(op),
                        sp_describe(s, a, buf, sizeof buf));
    }
    const ir_type *t = sp_slot_type(s, a.slot);
    if (op == AST_OP_UADD) {
        *out = a;
        return true;
    }
    if (op == AST_OP_NOT) {
        /* `not x` is x == 0, for any scalar or tile. */
        return sp_binop(s, AST_OP_EQ, a, sv_int(0), at, out);
    }
    dtype rt;
    char err[256];
    if (!dtype_unary(op == AST_OP_USUB ? DTYPE_OP_NEG : DTYPE_OP_INVERT, t->dt, &rt,
                     err, sizeof err))
        return sp_error(s, at, "%s", err);
    if (op == AST_OP_USUB && dtype_is_float(t->dt)) {
        /* Triton's unary minus of a float is 0 - x: -(0.0) is 0.0, not -0.0 */
        spec_const zero = {.kind = SC_FLOAT, .u.f = 0.0};
        return sp_binop(s, AST_OP_SUB, sv_const(zero), a, at, out);
    }
    ir_type nt = *t;
    nt.dt = rt;
    int32_t dst = sp_slot(s, nt, NULL);
    sp_emit(s, IR_UNARY, op == AST_OP_USUB ? IR_NEG : IR_INVERT, dst, a.slot, -1, -1, 0, at);
    *out = sv_tile(dst);
    return true;
}

/* ---- expressions ------------------------------------------------------------ */

static bool sp_tuple_from_list(spec *s, const ast_list *elts, sval *out)
{
    sval t = {.kind = SV_TUPLE, .n = elts->len, .slot = -1};
    t.items = arena_alloc(s->a, (size_t)(elts->len ? elts->len : 1) * sizeof *t.items);
    for (int i = 0; i < elts->len; i++) {
        if (elts->items[i]->kind == AST_STARRED)
            return sp_error(s, elts->items[i], "starred expressions are not supported "
                            "in kernels");
        if (!sp_expr(s, elts->items[i], &t.items[i]))
            return false;
    }
    *out = t;
    return true;
}

/* A constant tuple seen as an SV_TUPLE of constants. */
sval sp_tuple_view(spec *s, sval v)
{
    if (v.kind != SV_CONST || v.c.kind != SC_TUPLE)
        return v;
    sval t = {.kind = SV_TUPLE, .n = v.c.u.tuple.n, .slot = -1};
    t.items = arena_alloc(s->a, (size_t)(t.n ? t.n : 1) * sizeof *t.items);
    for (int i = 0; i < t.n; i++)
        t.items[i] = sv_const(v.c.u.tuple.items[i]);
    return t;
}

static bool sp_fstring(spec *s, const ast_node *e, sval *out)
{
    const ast_list *parts = &e->u.fstring.parts;
    ir_fmt_piece *pieces = arena_alloc(s->a, (size_t)(parts->len ? parts->len : 1) *
                                                 sizeof *pieces);
    int n = 0;
    strbuf text;
    strbuf_init(&text);
    bool ok = true;
    for (int i = 0; ok && i < parts->len; i++) {
        const ast_node *p = parts->items[i];
        if (p->kind == AST_STR) {
            strbuf_putn(&text, p->u.str.s, p->u.str.len);
            continue;
        }
        /* A replacement field: its spec must be known now. */
        const char *fmt_spec = NULL;
        if (p->u.formatted.spec) {
            sval sv;
            if (!(ok = sp_expr(s, p->u.formatted.spec, &sv)))
                break;
            if (sv.kind != SV_CONST || sv.c.kind != SC_STR) {
                ok = sp_error(s, p->u.formatted.spec, "a format spec in a kernel must "
                              "be a constant");
                break;
            }
            fmt_spec = sv.c.u.str.s;
        }
        sval v;
        if (!(ok = sp_expr(s, p->u.formatted.value, &v)))
            break;
        if (v.kind == SV_CONST) {
            ok = sp_format_const(s, &v.c, fmt_spec, (char)p->u.formatted.conv,
                                 p->u.formatted.value, &text);
            continue;
        }
        if (v.kind != SV_TILE) {
            char buf[128];
            ok = sp_error(s, p->u.formatted.value, "cannot format %s in a kernel",
                          sp_describe(s, v, buf, sizeof buf));
            break;
        }
        if (text.len) {
            pieces[n++] = (ir_fmt_piece){.text = arena_strndup(s->a, text.data, text.len),
                                         .slot = -1};
            strbuf_clear(&text);
        }
        pieces[n++] = (ir_fmt_piece){.slot = v.slot, .conv = (char)p->u.formatted.conv,
                                     .spec = fmt_spec};
    }
    if (ok) {
        if (n == 0) {
            spec_const c = {.kind = SC_STR};
            c.u.str.len = text.len;
            c.u.str.s = arena_strndup(s->a, strbuf_cstr(&text), text.len);
            *out = sv_const(c);
        } else {
            if (text.len)
                pieces[n++] = (ir_fmt_piece){
                    .text = arena_strndup(s->a, text.data, text.len), .slot = -1};
            *out = (sval){.kind = SV_FMT, .pieces = pieces, .n = n, .slot = -1};
        }
    }
    strbuf_free(&text);
    return ok;
}

static bool sp_attribute(spec *s, const ast_node *e, sval *out)
{
    sval v;
    if (!sp_expr(s, e->u.attribute.value, &v))
        return false;
    const char *attr = e->u.attribute.attr;
    switch (v.kind) {
    case SV_MODULE:
        return sp_module_attr(s, v.name, attr, e, out);
    case SV_TILE:
        return sp_tile_attr(s, v, attr, e, out);
    case SV_BLOCKPTR:
        if (v.block->desc)
            return sp_desc_attr(s, v, attr, e, out);
        break;
    case SV_CONST:
        if (v.c.kind == SC_DTYPE)
            return sp_dtype_attr(s, v.c.u.dt, attr, e, out);
        break;
    case SV_TYPE:
        return sp_type_attr(s, v, attr, e, out);
    default:
        break;
    }
    char buf[128];
    return sp_error(s, e, "%s has no attribute '%s' in a kernel",
                    sp_describe(s, v, buf, sizeof buf), attr);
}

/* x[i] of a tuple with a constant index. */
static bool sp_tuple_index(spec *s, sval t, const ast_node *idx, sval *out)
{
    sval iv;
    int64_t i;
    if (!sp_expr(s, idx, &iv) || !sp_const_int(s, iv, idx, "a tuple index", &i))
        return false;
    if (i < 0)
        i += t.n;
    if (i < 0 || i >= t.n)
        return sp_error(s, idx, "tuple index %lld out of range (the tuple has %d items)",
                        (long long)iv.c.u.i, t.n);
    *out = t.items[i];
    return true;
}

/* x[:, None], x[None, :], x[None]: only full slices and None, as Triton.  A
 * debugger expression may also pick elements with constant indices and
 * slices (offs[0], x[2:4]; sp_dbg_axis): those slice each axis first, then
 * one reshape drops the indexed axes and adds the None ones. */
static bool sp_tile_subscript(spec *s, sval v, const ast_node *idx, const ast_node *at,
                              sval *out)
{
    ir_type t = *sp_slot_type(s, v.slot);
    const ast_node *const *items = &idx;
    int n = 1;
    if (idx->kind == AST_TUPLE) {
        items = (const ast_node *const *)idx->u.seq.elts.items;
        n = idx->u.seq.elts.len;
    }
    int32_t cur = v.slot;
    ir_type nt = {.dt = t.dt};
    int src = 0;
    for (int i = 0; i < n; i++) {
        const ast_node *it = items[i];
        if (it->kind == AST_CONST && it->u.const_.value == AST_CONST_NONE) {
            if (nt.ndim == IR_MAX_DIM)
                return sp_error(s, it, "tiles have at most %d dimensions", IR_MAX_DIM);
            nt.shape[nt.ndim++] = 1;
            continue;
        }
        bool full = it->kind == AST_SLICE && !it->u.slice.lower && !it->u.slice.upper &&
                    !it->u.slice.step;
        if (!full && !s->dbg_expr)
            return sp_error(s, it, "tiles can only be indexed with ':' and None "
                            "(e.g. x[:, None]); to pick elements use tl.load or tl.where");
        /* Triton 3.6 skips a ':' past the last axis without a word; an
         * index there is almost always a shape mistake, so tritsim says so */
        if (src >= t.ndim)
            return sp_error(s, it, "too many indices for a tile of %d dimension%s "
                            "(Triton ignores a ':' past the last axis; remove it, or "
                            "use None to add an axis)", t.ndim, t.ndim == 1 ? "" : "s");
        int64_t size = t.shape[src], start = 0, stop = size;
        if (!full && !sp_dbg_axis(s, it, src, size, &start, &stop))
            return false;
        if (stop - start != size) {
            ir_type st = *sp_slot_type(s, cur);
            st.shape[src] = (int32_t)(stop - start);
            int32_t dst = sp_slot(s, st, NULL);
            s->slots[dst].ptr_arg = s->slots[cur].ptr_arg;
            sp_emit(s, IR_SLICE, 0, dst, cur, -1, -1, ir_slice_pack(src, start), at);
            cur = dst;
        }
        if (it->kind == AST_SLICE) {  /* a slice keeps its axis, an index drops it */
            if (nt.ndim == IR_MAX_DIM)
                return sp_error(s, it, "tiles have at most %d dimensions", IR_MAX_DIM);
            nt.shape[nt.ndim++] = (int32_t)(stop - start);
        }
        src++;
    }
    while (src < t.ndim) {
        if (nt.ndim == IR_MAX_DIM)
            return sp_error(s, at, "tiles have at most %d dimensions", IR_MAX_DIM);
        nt.shape[nt.ndim++] = t.shape[src++];
    }
    int32_t dst = sp_slot(s, nt, NULL);
    s->slots[dst].ptr_arg = s->slots[cur].ptr_arg;
    sp_emit(s, IR_RESHAPE, 0, dst, cur, -1, -1, 0, at);
    *out = sv_tile(dst);
    return true;
}

static bool sp_subscript(spec *s, const ast_node *e, sval *out)
{
    sval v;
    if (!sp_expr(s, e->u.subscript.value, &v))
        return false;
    v = sp_tuple_view(s, v);
    if (v.kind == SV_TUPLE)
        return sp_tuple_index(s, v, e->u.subscript.index, out);
    if (v.kind == SV_TILE)
        return sp_tile_subscript(s, v, e->u.subscript.index, e, out);
    char buf[128];
    return sp_error(s, e, "%s cannot be indexed in a kernel", sp_describe(s, v, buf, sizeof buf));
}

/* Are all n values constants (or tuples of them)? */
static bool sp_all_const(spec *s, const sval *v, int n)
{
    spec_const c;
    for (int i = 0; i < n; i++)
        if (!sp_const_tuple(s->a, v[i], &c))
            return false;
    return true;
}

/* Does the call of a function of module env named by callee (a NAME or a
 * module's ATTRIBUTE) need the kernel: a kernel-only name (tl.*, a
 * @triton.jit function) or one that prints or stops (print, breakpoint,
 * set_trace, print_if, ...), directly or in a plain Python function it
 * calls?  Such a function is compiled into the kernel even when its
 * arguments are constants: the interpreter prints or stops in each
 * program. */
typedef struct sp_kernel_scan {
    spec *s;
    void *env;
    int depth;
} sp_kernel_scan;

static bool sp_needs_kernel_def(spec *s, const ast_node *def, void *env, int depth);

static bool sp_kernel_only_name(const char *qualname)
{
    if (!strncmp(qualname, "triton.language.", 16))
        return true;
    for (int i = 0; spec_builtin_name(i); i++)
        if (!strcmp(spec_builtin_name(i), qualname))
            return spec_builtin_effects(i) != SPEC_FX_NONE;
    return false;
}

static bool sp_calls_kernel_code(const ast_node *n, void *ctx)
{
    const sp_kernel_scan *k = ctx;
    if (n->kind != AST_CALL)
        return false;
    const ast_node *f = n->u.call.func;
    spec_global g;
    if (f->kind == AST_NAME) {
        g = k->s->host->lookup(k->s->host->ctx, k->env, f->u.name.id);
        if (g.kind == SPEC_G_UNDEFINED)     /* a Python builtin */
            return !strcmp(f->u.name.id, "print") || !strcmp(f->u.name.id, "breakpoint");
    } else if (f->kind == AST_ATTRIBUTE && f->u.attribute.value->kind == AST_NAME) {
        g = k->s->host->lookup(k->s->host->ctx, k->env, f->u.attribute.value->u.name.id);
        if (g.kind != SPEC_G_MODULE)
            return false;
        char q[256];
        snprintf(q, sizeof q, "%s.%s", g.qualname, f->u.attribute.attr);
        return sp_kernel_only_name(q);
    } else {
        return false;
    }
    switch (g.kind) {
    case SPEC_G_FUNC: return sp_kernel_only_name(g.qualname);
    case SPEC_G_JIT:
        return !g.host_fn || sp_needs_kernel_def(k->s, g.def, g.env, k->depth + 1);
    case SPEC_G_UNDEFINED:
    case SPEC_G_CONST:
    case SPEC_G_MODULE:
    case SPEC_G_OTHER:
        break;
    }
    return false;
}

static bool sp_needs_kernel_def(spec *s, const ast_node *def, void *env, int depth)
{
    if (depth > 8)          /* deep (or recursive) helpers: compile them in */
        return true;
    sp_kernel_scan k = {.s = s, .env = env, .depth = depth};
    return ast_any(def, sp_calls_kernel_code, &k);
}

/* A plain Python function called with constants under the interpreter
 * (spec_host.interpret): the host runs it now, once, and its result is a
 * constant. */
static bool sp_call_host(spec *s, sval fn, const sp_args *a, const ast_node *e, sval *out)
{
    if (!s->host->call)
        return sp_error(s, e, "'%s' is a Python function, which this kernel cannot call "
                        "here", fn.def->u.funcdef.name);
    spec_const *argv = arena_alloc(s->a, (size_t)(a->argc + 1) * sizeof *argv);
    spec_const *kwv = arena_alloc(s->a, (size_t)(a->nkw + 1) * sizeof *kwv);
    for (int i = 0; i < a->argc; i++)
        sp_const_tuple(s->a, a->argv[i], &argv[i]);
    for (int i = 0; i < a->nkw; i++)
        sp_const_tuple(s->a, a->kwv[i], &kwv[i]);
    char err[512];
    spec_const r;
    if (!s->host->call(s->host->ctx, fn.env, a->argc, argv, a->nkw, a->kwnames, kwv, &r, err,
                       sizeof err))
        return sp_error(s, e, "%s", err);
    *out = sv_const(r);
    return true;
}

static bool sp_call(spec *s, const ast_node *e, sval *out)
{
    sval fn;
    if (!sp_expr(s, e->u.call.func, &fn))
        return false;
    const ast_list *args = &e->u.call.args, *kws = &e->u.call.keywords;
    /* Arguments, with *tuple expanded. */
    int cap = args->len + 8, argc = 0;
    sval *argv = arena_alloc(s->a, (size_t)cap * sizeof *argv);
    for (int i = 0; i < args->len; i++) {
        const ast_node *a = args->items[i];
        if (a->kind == AST_STARRED) {
            sval t;
            if (!sp_expr(s, a->u.starred.value, &t))
                return false;
            t = sp_tuple_view(s, t);
            if (t.kind != SV_TUPLE)
                return sp_error(s, a, "only tuples can be unpacked with * in a kernel");
            if (argc + t.n > cap) {
                sval *more = arena_alloc(s->a, (size_t)(argc + t.n + 8) * sizeof *more);
                memcpy(more, argv, (size_t)argc * sizeof *argv);
                argv = more;
                cap = argc + t.n + 8;
            }
            for (int k = 0; k < t.n; k++)
                argv[argc++] = t.items[k];
            continue;
        }
        if (argc == cap) {
            sval *more = arena_alloc(s->a, (size_t)(2 * cap) * sizeof *more);
            memcpy(more, argv, (size_t)argc * sizeof *argv);
            argv = more;
            cap *= 2;
        }
        if (!sp_expr(s, a, &argv[argc]))
            return false;
        argc++;
    }
    const char **kwnames = arena_alloc(s->a, (size_t)(kws->len + 1) * sizeof *kwnames);
    sval *kwv = arena_alloc(s->a, (size_t)(kws->len + 1) * sizeof *kwv);
    for (int i = 0; i < kws->len; i++) {
        const ast_node *k = kws->items[i];
        if (!k->u.keyword.arg)
            return sp_error(s, k, "**kwargs is not supported in kernels");
        kwnames[i] = k->u.keyword.arg;
        if (!sp_expr(s, k->u.keyword.value, &kwv[i]))
            return false;
    }
    sp_args ca = {.argc = argc, .argv = argv, .nkw = kws->len,
                  .kwnames = kwnames, .kwv = kwv};
    switch (fn.kind) {
    case SV_FUNC:
        return sp_call_builtin(s, fn.name, &ca, e, out);
    case SV_JIT:
        if (fn.host_fn && sp_all_const(s, argv, argc) && sp_all_const(s, kwv, kws->len) &&
            !sp_needs_kernel_def(s, fn.def, fn.env, 0))
            return sp_call_host(s, fn, &ca, e, out);
        return sp_call_jit(s, fn, argc, argv, kws->len, kwnames, kwv, e, out);
    case SV_METHOD:
        return sp_call_method(s, fn, &ca, e, out);
    default: {
        char buf[128];
        return sp_error(s, e->u.call.func, "%s is not callable in a kernel",
                        sp_describe(s, fn, buf, sizeof buf));
    }
    }
}

/* a and b / a or b: Python's rules on constants; on tiles, the logical
 * and/or of their truth values, as Triton does. */
static bool sp_boolop(spec *s, const ast_node *e, sval *out)
{
    bool is_and = e->u.boolop.op == AST_OP_AND;
    sval acc;
    if (!sp_expr(s, e->u.boolop.values.items[0], &acc))
        return false;
    for (int i = 1; i < e->u.boolop.values.len; i++) {
        if (acc.kind == SV_CONST) {
            bool t = sp_const_truth(&acc.c);
            if (is_and ? !t : t)
                break;  /* short-circuit: acc is the result */
            if (!sp_expr(s, e->u.boolop.values.items[i], &acc))
                return false;
            continue;
        }
        sval next, a, b;
        if (!sp_expr(s, e->u.boolop.values.items[i], &next) ||
            !sp_binop(s, AST_OP_NE, acc, sv_int(0), e, &a) ||
            !sp_binop(s, AST_OP_NE, next, sv_int(0), e, &b) ||
            !sp_binop(s, is_and ? AST_OP_BITAND : AST_OP_BITOR, a, b, e, &acc))
            return false;
    }
    *out = acc;
    return true;
}

static bool sp_compare(spec *s, const ast_node *e, sval *out)
{
    sval left, result = {.kind = SV_CONST};
    bool have = false;
    if (!sp_expr(s, e->u.compare.left, &left))
        return false;
    for (int i = 0; i < e->u.compare.comparators.len; i++) {
        ast_op op = e->u.compare.ops[i];
        sval right, r;
        if (!sp_expr(s, e->u.compare.comparators.items[i], &right))
            return false;
        if (op == AST_OP_IN || op == AST_OP_NOTIN) {
            sval t = sp_tuple_view(s, right);
            if (left.kind != SV_CONST || t.kind != SV_TUPLE)
                return sp_error(s, e, "'in' in a kernel needs a constant and a tuple");
            bool found = false;
            for (int k = 0; k < t.n && !found; k++)
                found = t.items[k].kind == SV_CONST && sp_const_eq(&left.c, &t.items[k].c);
            r = sv_bool(op == AST_OP_IN ? found : !found);
        } else if ((op == AST_OP_IS || op == AST_OP_ISNOT) &&
                   (left.kind != SV_CONST || right.kind != SV_CONST)) {
            /* A tile is never None. */
            bool none = sv_is_none(left) || sv_is_none(right);
            if (!none)
                return sp_error(s, e, "'is' in a kernel compares with None only");
            r = sv_bool(op == AST_OP_ISNOT);
        } else if (!sp_binop(s, op, left, right, e, &r)) {
            return false;
        }
        if (!have) {
            result = r;
            have = true;
        } else if (!sp_binop(s, AST_OP_BITAND, result, r, e, &result)) {
            return false;
        }
        left = right;
    }
    *out = result;
    return true;
}

static bool sp_ifexp(spec *s, const ast_node *e, sval *out)
{
    sval test;
    if (!sp_expr(s, e->u.ifexp.test, &test))
        return false;
    if (test.kind == SV_CONST)
        return sp_expr(s, sp_const_truth(&test.c) ? e->u.ifexp.body : e->u.ifexp.orelse, out);
    sval a, b;
    if (!sp_expr(s, e->u.ifexp.body, &a) || !sp_expr(s, e->u.ifexp.orelse, &b))
        return false;
    sp_args args = {.argc = 3, .argv = (sval[]){test, a, b}};
    return sp_call_builtin(s, "triton.language.where", &args, e, out);
}

bool sp_expr(spec *s, const ast_node *e, sval *out)
{
    switch (e->kind) {
    case AST_NAME:
        return sp_name(s, e, out);
    case AST_INT:
        if (e->u.int_.big || e->u.int_.value > (uint64_t)INT64_MAX)
            return sp_error(s, e, "integer constant too large for 64 bits");
        *out = sv_int((int64_t)e->u.int_.value);
        return true;
    case AST_FLOAT:
        *out = sv_float(e->u.float_.value);
        return true;
    case AST_STR: {
        if (e->u.str.bytes)
            return sp_error(s, e, "bytes are not supported in a kernel (Triton has no bytes "
                            "constants)");
        spec_const c = {.kind = SC_STR};
        c.u.str.s = e->u.str.s;
        c.u.str.len = e->u.str.len;
        *out = sv_const(c);
        return true;
    }
    case AST_FSTRING:
        return sp_fstring(s, e, out);
    case AST_CONST:
        switch (e->u.const_.value) {
        case AST_CONST_NONE: *out = sv_none(); return true;
        case AST_CONST_TRUE: *out = sv_bool(true); return true;
        case AST_CONST_FALSE: *out = sv_bool(false); return true;
        case AST_CONST_ELLIPSIS: break;
        }
        return sp_error(s, e, "'...' is not supported in kernels");
    case AST_ATTRIBUTE:
        return sp_attribute(s, e, out);
    case AST_SUBSCRIPT:
        return sp_subscript(s, e, out);
    case AST_CALL:
        return sp_call(s, e, out);
    case AST_BINOP: {
        sval a, b;
        return sp_expr(s, e->u.binop.left, &a) && sp_expr(s, e->u.binop.right, &b) &&
               sp_binop(s, e->u.binop.op, a, b, e, out);
    }
    case AST_UNARYOP: {
        sval a;
        return sp_expr(s, e->u.unaryop.operand, &a) &&
               sp_unop(s, e->u.unaryop.op, a, e, out);
    }
    case AST_BOOLOP:
        return sp_boolop(s, e, out);
    case AST_COMPARE:
        return sp_compare(s, e, out);
    case AST_IFEXP:
        return sp_ifexp(s, e, out);
    case AST_TUPLE:
    case AST_LIST:
        return sp_tuple_from_list(s, &e->u.seq.elts, out);
    case AST_IMAG:
        return sp_error(s, e, "complex numbers are not supported in kernels");
    case AST_NAMEDEXPR:
        return sp_error(s, e, "assignment expressions (:=) are not supported in kernels; "
                        "assign on a line of its own");
    case AST_LAMBDA:
        return sp_error(s, e, "lambdas are not supported in kernels; use a "
                        "@triton.jit function");
    case AST_DICT:
    case AST_SET:
    case AST_LISTCOMP:
    case AST_DICTCOMP:
    case AST_SETCOMP:
    case AST_GENEXP:
        return sp_error(s, e, "%s are not supported in kernels",
                        e->kind == AST_DICT ? "dicts" : e->kind == AST_SET ? "sets"
                                                                          : "comprehensions");
    default:
        return sp_error(s, e, "this expression is not supported in kernels");
    }
}
