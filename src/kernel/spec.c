/* spec.c - the specializer (spec.h): walks a @triton.jit function's AST
 * with its constexpr values and argument types and emits typed IR.
 *
 * Values during specialization (sval) are either compile-time Python values
 * (constexprs, literals, dtypes, tuples, modules, functions) or tiles: IR
 * slots with a static type.  Expressions on constants fold; expressions on
 * tiles emit instructions.  The tl.* functions live in spec_tl.c; this file
 * has the values, scopes, expressions and statements. */
#define _POSIX_C_SOURCE 200809L
#include "spec_impl.h"
#include "combine.h"

#include "pyformat.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------- */

bool sp_error(spec *s, const ast_node *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(s->d, DIAG_ERROR, s->fn->file, at->span, fmt, ap);
    va_end(ap);
    /* Say where an inlined helper was called from, innermost first. */
    for (sp_func *f = s->fn; f && f->caller; f = f->caller)
        diag_report(s->d, DIAG_NOTE, f->caller->file, f->call->span,
                    "in '%s', called from here", f->name);
    return false;
}

/* ---- emitting IR ---------------------------------------------------------- */

#define SP_PUSH(arr, n, cap, item)                                        \
    do {                                                                  \
        if ((n) == (cap)) {                                               \
            (cap) = (cap) ? 2 * (cap) : 64;                               \
            (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr));       \
        }                                                                 \
        (arr)[(n)++] = (item);                                            \
    } while (0)

int32_t sp_slot(spec *s, ir_type t, const char *name)
{
    ir_slot sl = {.type = t, .name = name, .ptr_arg = -1};
    SP_PUSH(s->slots, s->nslots, s->cap_slots, sl);
    return s->nslots - 1;
}

int32_t sp_emit(spec *s, ir_opcode op, int sub, int32_t dst, int32_t a,
                int32_t b, int32_t c, int64_t imm, const ast_node *at)
{
    ir_inst in = {.op = (uint8_t)op, .sub = (uint8_t)sub, .dst = dst, .a = a,
                  .b = b, .c = c, .imm = imm, .at = at, .frame = s->fn->frame};
    SP_PUSH(s->code, s->ncode, s->cap_code, in);
    sp_dbg_emitted(s);
    return s->ncode - 1;
}

int32_t sp_print_desc(spec *s, ir_print p)
{
    SP_PUSH(s->prints, s->nprints, s->cap_prints, p);
    return s->nprints - 1;
}

ir_type sp_type(dtype dt, int ndim, const int32_t *shape)
{
    ir_type t = {.dt = dt, .ndim = (int8_t)ndim};
    for (int i = 0; i < ndim; i++)
        t.shape[i] = shape[i];
    return t;
}

ir_type sp_scalar_type(dtype dt)
{
    return sp_type(dt, 0, NULL);
}

const ir_type *sp_slot_type(spec *s, int32_t slot)
{
    return &s->slots[slot].type;
}

/* ---- values --------------------------------------------------------------- */

sval sv_const(spec_const c)
{
    sval v = {.kind = SV_CONST, .c = c, .slot = -1};
    return v;
}

sval sv_int(int64_t i)
{
    spec_const c = {.kind = SC_INT, .u.i = i};
    return sv_const(c);
}

sval sv_none(void)
{
    spec_const c = {.kind = SC_NONE};
    return sv_const(c);
}

sval sv_tile(int32_t slot)
{
    sval v = {.kind = SV_TILE, .slot = slot};
    return v;
}

bool sv_is_none(sval v)
{
    return v.kind == SV_CONST && v.c.kind == SC_NONE;
}

const char *spec_const_kind_name(const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: return "None";
    case SC_BOOL: return "bool";
    case SC_INT: return "int";
    case SC_FLOAT: return "float";
    case SC_STR: return "str";
    case SC_DTYPE: return "dtype";
    case SC_TUPLE: return "tuple";
    }
    return "value";
}

bool spec_const_eq(const spec_const *a, const spec_const *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SC_NONE: return true;
    case SC_BOOL: return a->u.b == b->u.b;
    case SC_INT: return a->u.i == b->u.i;
    case SC_FLOAT: return !memcmp(&a->u.f, &b->u.f, sizeof a->u.f);
    case SC_DTYPE: return a->u.dt == b->u.dt;
    case SC_STR: return a->u.str.len == b->u.str.len &&
                        (a->u.str.s == b->u.str.s ||
                         !memcmp(a->u.str.s, b->u.str.s, a->u.str.len));
    case SC_TUPLE:
        if (a->u.tuple.n != b->u.tuple.n)
            return false;
        if (a->u.tuple.items == b->u.tuple.items)
            return true;
        for (int i = 0; i < a->u.tuple.n; i++)
            if (!spec_const_eq(&a->u.tuple.items[i], &b->u.tuple.items[i]))
                return false;
        return true;
    }
    return false;
}

/* A short description of a value for error messages. */
const char *sp_describe(spec *s, sval v, char *buf, size_t len)
{
    switch (v.kind) {
    case SV_CONST: snprintf(buf, len, "a constant %s", spec_const_kind_name(&v.c)); break;
    case SV_TILE: {
        char t[96];
        ir_type_str(sp_slot_type(s, v.slot), t, sizeof t);
        snprintf(buf, len, "a tile of %s", t);
        break;
    }
    case SV_TUPLE: snprintf(buf, len, "a tuple"); break;
    case SV_MODULE: snprintf(buf, len, "the module %s", v.name); break;
    case SV_FUNC: snprintf(buf, len, "the function %s", v.name); break;
    case SV_JIT: snprintf(buf, len, "the @triton.jit function %s", v.def->u.funcdef.name); break;
    case SV_METHOD: snprintf(buf, len, "the method .%s", v.name); break;
    case SV_FMT: snprintf(buf, len, "an f-string"); break;
    case SV_BLOCKPTR: {
        ir_type t = {.dt = v.block->elem, .ndim = (int8_t)v.block->nd};
        char sh[64];
        memcpy(t.shape, v.block->block, sizeof t.shape);
        sp_shape_str(&t, sh, sizeof sh);
        snprintf(buf, len, "a %s %s blocks of %s", v.block->desc ? "tensor descriptor of"
                 : "block pointer to", dtype_name(t.dt), sh);
        break;
    }
    case SV_UNDEF: snprintf(buf, len, "an undefined name"); break;
    }
    return buf;
}

/* Python's truth of a constant. */
bool sp_const_truth(const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: return false;
    case SC_BOOL: return c->u.b;
    case SC_INT: return c->u.i != 0;
    case SC_FLOAT: return c->u.f != 0.0;
    case SC_STR: return c->u.str.len != 0;
    case SC_DTYPE: return true;
    case SC_TUPLE: return c->u.tuple.n != 0;
    }
    return false;
}

/* Was slot last written by a constant (a number assigned to a name)? */
static bool sp_made_by_const(const spec *s, int32_t slot)
{
    for (int32_t pc = s->ncode - 1; pc >= 0; pc--)
        if (s->code[pc].dst == slot)
            return s->code[pc].op == IR_CONST;
    return false;
}

/* The constant as an int, for shapes, axes and ranges. */
bool sp_const_int(spec *s, sval v, const ast_node *at, const char *what, int64_t *out)
{
    if (v.kind == SV_CONST && v.c.kind == SC_INT) {
        *out = v.c.u.i;
        return true;
    }
    if (v.kind == SV_CONST && v.c.kind == SC_BOOL) {
        *out = v.c.u.b;
        return true;
    }
    char buf[128];
    bool scalar = v.kind == SV_TILE && sp_slot_type(s, v.slot)->ndim == 0 &&
                  sp_made_by_const(s, v.slot);
    return sp_error(s, at, "%s must be a constexpr int, not %s%s", what,
                    sp_describe(s, v, buf, sizeof buf),
                    scalar ? " (as in Triton, a number assigned to a variable is a scalar "
                             "tile: write `n: tl.constexpr = 16`, or pass it as a "
                             "tl.constexpr parameter)" : "");
}

/* ---- scopes ------------------------------------------------------------- */

sval *sp_lookup_local(spec *s, const char *name)
{
    sp_scope *sc = &s->fn->scope;
    for (int i = sc->n - 1; i >= 0; i--)
        if (!strcmp(sc->vars[i].name, name))
            return &sc->vars[i].v;
    return NULL;
}

void sp_bind(spec *s, const char *name, sval v)
{
    sval *old = sp_lookup_local(s, name);
    if (old) {
        *old = v;
        return;
    }
    sp_var var = {.name = name, .v = v};
    SP_PUSH(s->fn->scope.vars, s->fn->scope.n, s->fn->scope.cap, var);
}

/* A copy of the current scope, to compare against after a branch. */
sp_scope sp_scope_copy(const sp_scope *sc)
{
    sp_scope c = {.n = sc->n, .cap = sc->n};
    c.vars = xmalloc((size_t)(sc->n ? sc->n : 1) * sizeof *c.vars);
    if (sc->n)
        memcpy(c.vars, sc->vars, (size_t)sc->n * sizeof *c.vars);
    return c;
}

static sval *sp_scope_find(sp_scope *sc, const char *name)
{
    for (int i = sc->n - 1; i >= 0; i--)
        if (!strcmp(sc->vars[i].name, name))
            return &sc->vars[i].v;
    return NULL;
}

/* ---- names ------------------------------------------------------------- */

/* Names of Python's builtins that kernels may use. */
static const char *const sp_python_builtins[] = {
    "range", "min", "max", "print", "len", "int", "float", "bool", "abs",
    "breakpoint", "isinstance", "tuple", "list", NULL,
};

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
    spec_global g = s->host->lookup(s->host->ctx, s->fn->env, name);
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
                      .slot = -1};
        return true;
    case SPEC_G_OTHER:
        return sp_error(s, e, "'%s' is %s, which a kernel cannot use (pass it as an "
                        "argument, or make it a @triton.jit function or a constant)",
                        name, g.what);
    case SPEC_G_UNDEFINED:
        break;
    }
    for (int i = 0; sp_python_builtins[i]; i++)
        if (!strcmp(sp_python_builtins[i], name)) {
            char *q = arena_alloc(s->a, strlen(name) + 10);
            sprintf(q, "builtins.%s", name);
            *out = (sval){.kind = SV_FUNC, .name = q, .slot = -1};
            return true;
        }
    return sp_error(s, e, "name '%s' is not defined", name);
}

/* ---- tiles from values ---------------------------------------------------- */

/* The dtype Triton gives a Python number (semantic.to_tensor). */
dtype sp_const_dtype(const spec_const *c)
{
    switch (c->kind) {
    case SC_BOOL: return DTYPE_INT1;
    case SC_INT: return dtype_of_pyint(c->u.i);
    case SC_FLOAT: return dtype_of_pyfloat(c->u.f);
    default: return DTYPE_INVALID;
    }
}

/* A 0-d slot holding constant c converted to dt. */
int32_t sp_const_slot(spec *s, const spec_const *c, dtype dt, const ast_node *at)
{
    int32_t slot = sp_slot(s, sp_scalar_type(dt), NULL);
    int32_t pc = sp_emit(s, IR_CONST, 0, slot, -1, -1, -1, 0, at);
    double f = c->kind == SC_FLOAT ? c->u.f : c->kind == SC_BOOL ? c->u.b : (double)c->u.i;
    int64_t i = c->kind == SC_FLOAT ? (int64_t)c->u.f : c->kind == SC_BOOL ? c->u.b : c->u.i;
    if (dtype_is_float(dt)) {
        s->code[pc].fimm = dtype_round_float(dt, f);
    } else {
        dtype_scalar v;
        if (c->kind == SC_FLOAT) {
            dtype_scalar src = {.f = c->u.f};
            v = dtype_cast(src, DTYPE_FP64, dt);
        } else {
            v = dtype_wrap(dt, (uint64_t)i);
        }
        s->code[pc].imm = dtype_is_unsigned(dt) ? (int64_t)v.u : v.i;
    }
    return slot;
}

/* Does v have a run-time value that a runtime if can merge: a tile, or a
 * number sp_as_tile can turn into one? */
static bool sp_mergeable(const sval *v)
{
    return v->kind == SV_TILE ||
           (v->kind == SV_CONST &&
            (v->c.kind == SC_INT || v->c.kind == SC_FLOAT || v->c.kind == SC_BOOL));
}

/* The type a runtime if merges v as (v mergeable): a tile's, or a number's
 * own scalar type, without emitting anything. */
static ir_type sp_merge_type(spec *s, const sval *v)
{
    return v->kind == SV_TILE ? *sp_slot_type(s, v->slot) : sp_scalar_type(sp_const_dtype(&v->c));
}

/* v as a tile slot: tiles as they are, numbers as 0-d slots of their
 * natural dtype. */
bool sp_as_tile(spec *s, sval v, const ast_node *at, int32_t *slot)
{
    if (v.kind == SV_TILE) {
        *slot = v.slot;
        return true;
    }
    if (sp_mergeable(&v)) {     /* a number */
        *slot = sp_const_slot(s, &v.c, sp_const_dtype(&v.c), at);
        return true;
    }
    char buf[128];
    return sp_error(s, at, "expected a tile or a number, found %s",
                    sp_describe(s, v, buf, sizeof buf));
}

/* slot converted to dtype dt (same shape). */
int32_t sp_cast(spec *s, int32_t slot, dtype dt, const ast_node *at)
{
    const ir_type *t = sp_slot_type(s, slot);
    if (t->dt == dt)
        return slot;
    ir_type nt = *t;
    nt.dt = dt;
    int32_t dst = sp_slot(s, nt, NULL);
    if (dtype_is_ptr(dt) && dtype_is_ptr(t->dt))    /* the same address */
        s->slots[dst].ptr_arg = s->slots[slot].ptr_arg;
    sp_emit(s, IR_CAST, 0, dst, slot, -1, -1, 0, at);
    return dst;
}

/* numpy broadcasting of two shapes; false if they do not broadcast. */
bool sp_broadcast_shape(const ir_type *a, const ir_type *b, ir_type *out)
{
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    out->ndim = (int8_t)n;
    for (int i = 0; i < n; i++) {
        int ia = i - (n - a->ndim), ib = i - (n - b->ndim);
        int32_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        out->shape[i] = da == 1 ? db : da;
    }
    return true;
}

void sp_shape_str(const ir_type *t, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < t->ndim && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, i ? ", %d" : "%d", t->shape[i]);
    if (k < len)
        snprintf(buf + k, len - k, "]");
}

/* slot broadcast to shape (numpy rules) when its shape differs, even from
 * a 0-d scalar (for results that must have the shape, e.g. tl.full). */
int32_t sp_materialize(spec *s, int32_t slot, const ir_type *shape, const ast_node *at)
{
    const ir_type *t = sp_slot_type(s, slot);
    if (t->ndim == shape->ndim) {
        bool same = true;
        for (int i = 0; same && i < t->ndim; i++)
            same = t->shape[i] == shape->shape[i];
        if (same)
            return slot;
    }
    ir_type nt = *shape;
    nt.dt = t->dt;
    int32_t dst = sp_slot(s, nt, NULL);
    s->slots[dst].ptr_arg = s->slots[slot].ptr_arg;
    sp_emit(s, IR_BROADCAST, 0, dst, slot, -1, -1, 0, at);
    return dst;
}

/* As sp_materialize, but a 0-d scalar stays as it is: elementwise
 * instructions broadcast scalar operands themselves. */
int32_t sp_broadcast_to(spec *s, int32_t slot, const ir_type *shape, const ast_node *at)
{
    if (sp_slot_type(s, slot)->ndim == 0)
        return slot;
    return sp_materialize(s, slot, shape, at);
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
static int32_t sp_operand_slot(spec *s, sval v, dtype dt, const ast_node *at)
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
        if (v.c.kind == SC_DTYPE) {
            dtype dt = v.c.u.dt;
            spec_const c = {.kind = SC_DTYPE};
            if (!strcmp(attr, "element_ty") && dtype_is_ptr(dt)) {
                c.u.dt = dtype_elem(dt);
                *out = sv_const(c);
                return true;
            }
            if (!strcmp(attr, "primitive_bitwidth")) {
                *out = sv_int(dtype_bits(dt));
                return true;
            }
        }
        break;
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
            sp_emit(s, IR_SLICE, 0, dst, cur, -1, -1, src | (start << 4), at);
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

/* ---- constants as text -------------------------------------------------- */

bool sp_format_const(spec *s, const spec_const *c, const char *fmt_spec, char conv,
                     const ast_node *at, strbuf *out)
{
    strbuf b;
    strbuf_init(&b);
    char err[256] = "";
    bool ok = true;
    pyformat_spec ps;
    bool have_spec = fmt_spec && *fmt_spec;
    switch (c->kind) {
    case SC_NONE: strbuf_puts(&b, "None"); break;
    case SC_BOOL: strbuf_puts(&b, c->u.b ? "True" : "False"); break;
    case SC_INT:
        if (have_spec) {
            ok = pyformat_parse_spec(fmt_spec, strlen(fmt_spec), "int", &ps, err, sizeof err) &&
                 pyformat_int(&b, c->u.i, &ps, err, sizeof err);
            have_spec = false;
        } else {
            strbuf_printf(&b, "%lld", (long long)c->u.i);
        }
        break;
    case SC_FLOAT:
        if (have_spec) {
            ok = pyformat_parse_spec(fmt_spec, strlen(fmt_spec), "float", &ps, err,
                                     sizeof err) &&
                 pyformat_float(&b, c->u.f, &ps, err, sizeof err);
            have_spec = false;
        } else {
            pyformat_float_repr(&b, c->u.f);
        }
        break;
    case SC_STR:
        if (conv == 'r')
            pyformat_str_repr(&b, c->u.str.s, c->u.str.len);
        else
            strbuf_putn(&b, c->u.str.s, c->u.str.len);
        break;
    case SC_DTYPE: strbuf_puts(&b, dtype_name(c->u.dt)); break;
    case SC_TUPLE:
        strbuf_putc(&b, '(');
        for (int i = 0; ok && i < c->u.tuple.n; i++) {
            if (i)
                strbuf_puts(&b, ", ");
            ok = sp_format_const(s, &c->u.tuple.items[i], NULL, 'r', at, &b);
        }
        strbuf_puts(&b, c->u.tuple.n == 1 ? ",)" : ")");
        break;
    }
    if (ok && have_spec) {
        /* Other types format their str() with a string spec. */
        strbuf t;
        strbuf_init(&t);
        ok = pyformat_parse_spec(fmt_spec, strlen(fmt_spec), "str", &ps, err, sizeof err) &&
             pyformat_str(&t, strbuf_cstr(&b), b.len, &ps, err, sizeof err);
        strbuf_free(&b);
        b = t;
    }
    if (ok)
        strbuf_putn(out, strbuf_cstr(&b), b.len);
    strbuf_free(&b);
    if (!ok)
        return sp_error(s, at, "%s", err);
    return true;
}

/* ---- statements ------------------------------------------------------------ */

static bool sp_block(spec *s, const ast_list *body);

/* Is a parameter annotated tl.constexpr (or triton.language.constexpr)? */
static bool sp_is_constexpr_annotation(const ast_node *ann)
{
    if (!ann)
        return false;
    if (ann->kind == AST_ATTRIBUTE)
        return !strcmp(ann->u.attribute.attr, "constexpr");
    if (ann->kind == AST_NAME)
        return !strcmp(ann->u.name.id, "constexpr");
    return false;
}

/* What a plain assignment stores, as Triton 3.6's visit_Assign: a number
 * (also a tl.constexpr's value, and each number of a tuple) becomes a 0-d
 * tile of its own type, so `n = 16; tl.arange(0, n)` is refused there and
 * here, and `z = 0.0; 1.0 / z` is inf; strings, None, dtypes and tiles stay
 * as they are.  `n: tl.constexpr = 16` keeps the constant. */
static bool sp_assigned(spec *s, sval v, const ast_node *at, sval *out)
{
    *out = v;
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL)) {
        int32_t slot;
        if (!sp_as_tile(s, v, at, &slot))
            return false;
        *out = sv_tile(slot);
        return true;
    }
    v = sp_tuple_view(s, v);
    if (v.kind != SV_TUPLE)
        return true;
    sval t = v;
    t.items = arena_alloc(s->a, (size_t)(v.n ? v.n : 1) * sizeof *t.items);
    for (int i = 0; i < v.n; i++)
        if (!sp_assigned(s, v.items[i], at, &t.items[i]))
            return false;
    *out = t;
    return true;
}

static bool sp_assign(spec *s, const ast_node *target, sval v)
{
    switch (target->kind) {
    case AST_NAME:
        if (v.kind == SV_TILE && !s->slots[v.slot].name)
            s->slots[v.slot].name = target->u.name.id;
        sp_bind(s, target->u.name.id, v);
        return true;
    case AST_TUPLE:
    case AST_LIST: {
        const ast_list *elts = &target->u.seq.elts;
        v = sp_tuple_view(s, v);
        if (v.kind != SV_TUPLE) {
            char buf[128];
            return sp_error(s, target, "cannot unpack %s into %d names",
                            sp_describe(s, v, buf, sizeof buf), elts->len);
        }
        if (v.n != elts->len)
            return sp_error(s, target, "cannot unpack a tuple of %d items into %d names",
                            v.n, elts->len);
        for (int i = 0; i < elts->len; i++)
            if (!sp_assign(s, elts->items[i], v.items[i]))
                return false;
        return true;
    }
    case AST_SUBSCRIPT:
        return sp_error(s, target, "a kernel cannot assign to an element of a tile or "
                        "tensor; write memory with tl.store");
    case AST_ATTRIBUTE:
        return sp_error(s, target, "a kernel cannot assign to attributes");
    default:
        return sp_error(s, target, "cannot assign to this in a kernel");
    }
}

/* Every name a statement list assigns (for loop-carried variables). */
static void sp_collect_target(const ast_node *t, const char ***names, int *n, int *cap)
{
    if (t->kind == AST_NAME) {
        for (int i = 0; i < *n; i++)
            if (!strcmp((*names)[i], t->u.name.id))
                return;
        SP_PUSH(*names, *n, *cap, t->u.name.id);
    } else if (t->kind == AST_TUPLE || t->kind == AST_LIST) {
        for (int i = 0; i < t->u.seq.elts.len; i++)
            sp_collect_target(t->u.seq.elts.items[i], names, n, cap);
    } else if (t->kind == AST_STARRED) {
        sp_collect_target(t->u.starred.value, names, n, cap);
    }
}

static void sp_collect_assigned(const ast_list *body, const char ***names, int *n, int *cap)
{
    for (int i = 0; i < body->len; i++) {
        const ast_node *st = body->items[i];
        switch (st->kind) {
        case AST_ASSIGN:
            for (int k = 0; k < st->u.assign.targets.len; k++)
                sp_collect_target(st->u.assign.targets.items[k], names, n, cap);
            break;
        case AST_AUGASSIGN:
            sp_collect_target(st->u.augassign.target, names, n, cap);
            break;
        case AST_ANNASSIGN:
            if (st->u.annassign.value)
                sp_collect_target(st->u.annassign.target, names, n, cap);
            break;
        case AST_FOR:
            sp_collect_target(st->u.for_.target, names, n, cap);
            sp_collect_assigned(&st->u.for_.body, names, n, cap);
            sp_collect_assigned(&st->u.for_.orelse, names, n, cap);
            break;
        case AST_IF:
        case AST_WHILE:
            sp_collect_assigned(&st->u.if_.body, names, n, cap);
            sp_collect_assigned(&st->u.if_.orelse, names, n, cap);
            break;
        default:
            break;
        }
    }
}

/* Two values are the same binding: nothing to merge after a runtime if's
 * branches, nothing to record in a debugger snapshot (spec_debug.c).  A
 * false "no" costs only a merge slot or a change record; a false "yes"
 * would lose a value, so constants compare exactly (1 is not 1.0 or True,
 * at any depth of a tuple; 0.0 is not -0.0) and the other kinds compare
 * every field they use (a method's tile, an f-string's pieces). */
bool sp_same(const sval *a, const sval *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SV_TILE: return a->slot == b->slot;
    case SV_CONST: return spec_const_eq(&a->c, &b->c);
    default:
        return a->slot == b->slot && a->items == b->items && a->pieces == b->pieces &&
               a->n == b->n && a->name == b->name && a->def == b->def &&
               a->block == b->block && a->file == b->file && a->env == b->env &&
               spec_const_eq(&a->c, &b->c);
    }
}

static bool sp_same_type(const ir_type *a, const ir_type *b)
{
    if (a->dt != b->dt || a->ndim != b->ndim)
        return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

/* Copy v into the existing slot dst (emitting into the current position),
 * or fail if its type differs.  what/name describe it for errors. */
static bool sp_copy_into(spec *s, int32_t dst, sval v, const char *name, const char *what,
                         const ast_node *at)
{
    const ir_type *dt = sp_slot_type(s, dst);
    int32_t src;
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL)) {
        /* a number keeps its own type (int32/int64, fp32, int1), as Triton
         * makes it a tensor before comparing types: 1 into an fp32 variable
         * is a type change there ("Mismatched type ... int32 and fp32") */
        src = sp_const_slot(s, &v.c, sp_const_dtype(&v.c), at);
    } else if (v.kind == SV_TILE) {
        src = v.slot;
    } else {
        char buf[128];
        return sp_error(s, at, "%s '%s' is %s, which cannot change at run time", what, name,
                        sp_describe(s, v, buf, sizeof buf));
    }
    if (src == dst)
        return true;
    const ir_type *st = sp_slot_type(s, src);
    if (!sp_same_type(st, dt)) {
        char a[96], b[96];
        ir_type_str(dt, a, sizeof a);
        ir_type_str(st, b, sizeof b);
        return sp_error(s, at, "%s '%s' has type %s before but %s after; its type must "
                        "stay the same (cast with .to(), or start it with the right "
                        "type, e.g. tl.zeros(..., dtype=...))", what, name, a, b);
    }
    if (s->slots[src].ptr_arg != s->slots[dst].ptr_arg)
        s->slots[dst].ptr_arg = -1;
    sp_emit(s, IR_COPY, 0, dst, src, -1, -1, 0, at);
    return true;
}

/* A fresh slot holding v (a tile or a number), for a value that a loop or a
 * runtime if will change. */
static bool sp_carry_slot(spec *s, sval v, const char *name, const ast_node *at,
                          int32_t *out)
{
    int32_t src = -1;
    if (!sp_as_tile(s, v, at, &src))
        return false;
    int32_t dst = sp_slot(s, *sp_slot_type(s, src), name);
    s->slots[dst].ptr_arg = s->slots[src].ptr_arg;
    sp_emit(s, IR_COPY, 0, dst, src, -1, -1, 0, at);
    *out = dst;
    return true;
}

static bool sp_runtime_cond(spec *s, sval cond, const ast_node *at, int32_t *slot)
{
    if (cond.kind != SV_TILE) {
        char buf[128];
        return sp_error(s, at, "a condition must be a constant or a scalar, not %s",
                        sp_describe(s, cond, buf, sizeof buf));
    }
    if (sp_slot_type(s, cond.slot)->ndim != 0) {
        char t[96];
        ir_type_str(sp_slot_type(s, cond.slot), t, sizeof t);
        return sp_error(s, at, "a condition must be a scalar, but this is a tile of %s "
                        "(reduce it with tl.sum/tl.max, or use tl.where for per-lane "
                        "choices)", t);
    }
    *slot = cond.slot;
    return true;
}

static bool sp_copy_block_into(spec *s, sval dst, sval v, const char *name,
                               const ast_node *at);

/* A branch's value v into the merge value dst (a slot or a block pointer). */
static bool sp_merge_into(spec *s, sval dst, sval v, const char *name, const ast_node *at)
{
    if (dst.kind == SV_BLOCKPTR)
        return sp_copy_block_into(s, dst, v, name, at);
    return sp_copy_into(s, dst.slot, v, name, "variable", at);
}

/* ---- returns ------------------------------------------------------------ */

/* The first 'return' statement anywhere inside statement st (Triton's
 * ContainsReturnChecker looks at the syntax, constexpr branches included). */
static const ast_node *sp_find_return_in(const ast_list *body);

static const ast_node *sp_find_return(const ast_node *st)
{
    const ast_node *r = NULL;
    switch (st->kind) {
    case AST_RETURN:
        return st;
    case AST_IF:
    case AST_WHILE:
        if (!(r = sp_find_return_in(&st->u.if_.body)))
            r = sp_find_return_in(&st->u.if_.orelse);
        return r;
    case AST_FOR:
        if (!(r = sp_find_return_in(&st->u.for_.body)))
            r = sp_find_return_in(&st->u.for_.orelse);
        return r;
    default:
        return NULL;
    }
}

static const ast_node *sp_find_return_in(const ast_list *body)
{
    for (int i = 0; i < body->len; i++) {
        const ast_node *r = sp_find_return(body->items[i]);
        if (r)
            return r;
    }
    return NULL;
}

static bool sp_return_in_loop(spec *s, const ast_node *ret)
{
    return sp_error(s, ret, "'return' inside a runtime 'for' or 'while' loop is not "
                    "supported by Triton (\"Cannot have `return` statements inside `while` "
                    "or `for` statements\"); end the loop through its condition (a while "
                    "loop with a flag) and return after it");
}

/* A returned value as Triton passes it out of a function: numbers become
 * scalar tiles (int32/int64, fp32, int1), tuples keep their shape. */
static bool sp_ret_decay(spec *s, sval v, const ast_node *at, sval *out)
{
    v = sp_tuple_view(s, v);
    if (v.kind == SV_TUPLE) {
        *out = v;
        out->items = arena_alloc(s->a, (size_t)(v.n + 1) * sizeof *out->items);
        for (int i = 0; i < v.n; i++)
            if (!sp_ret_decay(s, v.items[i], at, &out->items[i]))
                return false;
        return true;
    }
    if (v.kind == SV_TILE || (v.kind == SV_CONST && (v.c.kind == SC_INT ||
                                                    v.c.kind == SC_FLOAT ||
                                                    v.c.kind == SC_BOOL))) {
        int32_t slot;
        if (!sp_as_tile(s, v, at, &slot))
            return false;
        *out = sv_tile(slot);
        return true;
    }
    char buf[128];
    return sp_error(s, at, "a function that returns inside a runtime 'if' can return "
                    "tiles, numbers and tuples of them, not %s",
                    sp_describe(s, v, buf, sizeof buf));
}

/* The type of a decayed return value, as text ("None" for no value). */
static void sp_ret_type_str(spec *s, sval v, strbuf *b)
{
    if (sv_is_none(v)) {
        strbuf_puts(b, "None");
    } else if (v.kind == SV_TUPLE) {
        strbuf_putc(b, '(');
        for (int i = 0; i < v.n; i++) {
            if (i)
                strbuf_puts(b, ", ");
            sp_ret_type_str(s, v.items[i], b);
        }
        strbuf_puts(b, v.n == 1 ? ",)" : ")");
    } else {
        char t[96];
        ir_type_str(sp_slot_type(s, v.slot), t, sizeof t);
        strbuf_puts(b, t);
    }
}

/* Do decayed values a and b have the same type (Triton compares the
 * types of all returns of a function)? */
static bool sp_ret_same_type(spec *s, sval a, sval b)
{
    if (sv_is_none(a) || sv_is_none(b))
        return sv_is_none(a) && sv_is_none(b);
    if (a.kind != b.kind)
        return false;
    if (a.kind == SV_TUPLE) {
        if (a.n != b.n)
            return false;
        for (int i = 0; i < a.n; i++)
            if (!sp_ret_same_type(s, a.items[i], b.items[i]))
                return false;
        return true;
    }
    return sp_same_type(sp_slot_type(s, a.slot), sp_slot_type(s, b.slot));
}

/* Fresh slots shaped like the decayed value v: where every return of the
 * function leaves its value. */
static sval sp_ret_slots(spec *s, sval v)
{
    if (v.kind == SV_TUPLE) {
        sval r = v;
        r.items = arena_alloc(s->a, (size_t)(v.n + 1) * sizeof *r.items);
        for (int i = 0; i < v.n; i++)
            r.items[i] = sp_ret_slots(s, v.items[i]);
        return r;
    }
    int32_t dst = sp_slot(s, *sp_slot_type(s, v.slot), "return value");
    s->slots[dst].ptr_arg = s->slots[v.slot].ptr_arg;
    return sv_tile(dst);
}

static void sp_ret_copy(spec *s, sval dst, sval v, const ast_node *at)
{
    if (dst.kind == SV_TUPLE) {
        for (int i = 0; i < dst.n; i++)
            sp_ret_copy(s, dst.items[i], v.items[i], at);
        return;
    }
    if (s->slots[v.slot].ptr_arg != s->slots[dst.slot].ptr_arg)
        s->slots[dst.slot].ptr_arg = -1;
    sp_emit(s, IR_COPY, 0, dst.slot, v.slot, -1, -1, 0, at);
}

/* A return of a helper that has returned (or returns now) inside a runtime
 * 'if': the value goes into the function's return slots. */
static bool sp_ret_store(spec *s, sval v, const ast_node *st)
{
    sp_func *f = s->fn;
    sval d = sv_none();
    if (!sv_is_none(v) && !sp_ret_decay(s, v, st->u.expr.value ? st->u.expr.value : st, &d))
        return false;
    if (!f->first_ret) {
        f->first_ret = st;
        f->ret = sv_is_none(d) ? d : sp_ret_slots(s, d);
    } else if (!sp_ret_same_type(s, f->ret, d)) {
        strbuf a, b;
        strbuf_init(&a);
        strbuf_init(&b);
        sp_ret_type_str(s, d, &a);
        sp_ret_type_str(s, f->ret, &b);
        sp_error(s, st, "%s() returns %s here but %s at line %d; all its returns must give "
                 "the same type, as in Triton (\"Inconsistent return types\"): convert with "
                 ".to(...)", f->name, strbuf_cstr(&a), strbuf_cstr(&b), f->first_ret->span.line);
        strbuf_free(&a);
        strbuf_free(&b);
        return false;
    }
    if (!sv_is_none(d))
        sp_ret_copy(s, f->ret, d, st);
    return true;
}

static bool sp_if(spec *s, const ast_node *st)
{
    sval cond;
    if (!sp_expr(s, st->u.if_.test, &cond))
        return false;
    if (cond.kind == SV_CONST)
        return sp_block(s, sp_const_truth(&cond.c) ? &st->u.if_.body : &st->u.if_.orelse);
    int32_t cs;
    if (!sp_runtime_cond(s, cond, st->u.if_.test, &cs))
        return false;
    const ast_node *ret;
    if (s->fn->loop_depth > 0 && (ret = sp_find_return(st)))
        return sp_return_in_loop(s, ret);

    /* A branch that returns ends its path (returned); the code after the if
     * runs only if one of the branches did not return. */
    sp_scope before = sp_scope_copy(&s->fn->scope);
    int32_t br = sp_emit(s, IR_BRANCH, 0, -1, cs, -1, -1, 0, st);
    s->fn->runtime_depth++;
    bool ok = sp_block(s, &st->u.if_.body);
    bool then_ret = s->fn->returned;
    s->fn->returned = false;
    sp_scope then_sc = sp_scope_copy(&s->fn->scope);
    int32_t j1 = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);
    /* else: start again from the scope before the if */
    free(s->fn->scope.vars);
    s->fn->scope = sp_scope_copy(&before);
    s->code[br].imm = s->ncode;
    ok = ok && sp_block(s, &st->u.if_.orelse);
    bool else_ret = s->fn->returned;
    s->fn->returned = false;
    s->fn->runtime_depth--;
    sp_scope else_sc = sp_scope_copy(&s->fn->scope);
    int32_t j2 = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);

    /* Names bound differently by the two branches get a merge slot, written
     * at the end of each branch (blocks m1 and m2, placed after both). */
    int nm = 0;
    const char **mnames = xmalloc((size_t)(then_sc.n + else_sc.n + 1) * sizeof *mnames);
    sval *mvals = xmalloc((size_t)(then_sc.n + else_sc.n + 1) * sizeof *mvals);
    sp_scope *sides[2] = {&then_sc, &else_sc};
    for (int side = 0; ok && side < 2; side++)
        for (int i = 0; ok && i < sides[side]->n; i++) {
            const char *name = sides[side]->vars[i].name;
            bool dup = false;
            for (int k = 0; k < nm && !dup; k++)
                dup = !strcmp(mnames[k], name);
            if (dup)
                continue;
            sval *t = sp_scope_find(&then_sc, name), *e = sp_scope_find(&else_sc, name);
            if (t && e && sp_same(t, e)) {
                sp_bind(s, name, *t);
                continue;
            }
            if (!t || !e || t->kind == SV_UNDEF || e->kind == SV_UNDEF) {
                char *why = arena_alloc(s->a, 96);
                snprintf(why, 96, "it is assigned in only one branch of the 'if' at "
                         "line %d", st->span.line);
                sp_bind(s, name, (sval){.kind = SV_UNDEF, .name = why});
                continue;
            }
            mnames[nm] = name;
            if (t->kind == SV_BLOCKPTR) {
                /* a block pointer: merge slots for each of its scalars */
                mvals[nm] = *t;
                mvals[nm].items = arena_alloc(s->a, (size_t)t->n * sizeof *t->items);
                for (int j = 0; j < t->n; j++) {
                    int32_t m = sp_slot(s, *sp_slot_type(s, t->items[j].slot), name);
                    s->slots[m].ptr_arg = s->slots[t->items[j].slot].ptr_arg;
                    mvals[nm].items[j] = sv_tile(m);
                }
                nm++;
                continue;
            }
            /* Only tiles and numbers have a value at run time to merge. */
            if (!sp_mergeable(t) || !sp_mergeable(e)) {
                char bt[128], be[128];
                ok = sp_error(s, st, "'%s' differs between the branches of this 'if' "
                              "(%s, and %s); a runtime 'if' can only merge tiles and "
                              "numbers: bind it the same way in both branches, or branch "
                              "on a tl.constexpr", name, sp_describe(s, *t, bt, sizeof bt),
                              sp_describe(s, *e, be, sizeof be));
                break;
            }
            /* Both branches must give the same type, numbers as Triton
             * types them (int32/int64, fp32, int1): Triton refuses 1 in one
             * branch and 1.0 in the other. */
            ir_type tt = sp_merge_type(s, t), et = sp_merge_type(s, e);
            if (!sp_same_type(&tt, &et)) {
                char a[96], b[96];
                ir_type_str(&tt, a, sizeof a);
                ir_type_str(&et, b, sizeof b);
                ok = sp_error(s, st, "'%s' is %s after the 'then' branch of this 'if' but %s "
                              "after the 'else' branch; Triton refuses that (\"Mismatched "
                              "type for %s\"): give both the same type (1.0 rather than 1, "
                              "or .to(...))", name, a, b, name);
                break;
            }
            mvals[nm] = sv_tile(sp_slot(s, tt, name));
            nm++;
        }
    s->code[j1].imm = s->ncode;
    for (int k = 0; ok && k < nm; k++)
        ok = sp_merge_into(s, mvals[k], *sp_scope_find(&then_sc, mnames[k]), mnames[k], st);
    int32_t j3 = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);
    s->code[j2].imm = s->ncode;
    for (int k = 0; ok && k < nm; k++)
        ok = sp_merge_into(s, mvals[k], *sp_scope_find(&else_sc, mnames[k]), mnames[k], st);
    s->code[j3].imm = s->ncode;
    for (int k = 0; ok && k < nm; k++)
        sp_bind(s, mnames[k], mvals[k]);
    s->fn->returned = then_ret && else_ret;
    free(mnames);
    free(mvals);
    free(before.vars);
    free(then_sc.vars);
    free(else_sc.vars);
    return ok;
}

/* A block pointer whose runtime scalars are fresh slots (copies of v's),
 * for a loop that changes it (tl.advance). */
static bool sp_carry_block(spec *s, sval v, const char *name, const ast_node *at, sval *out)
{
    *out = v;
    out->items = arena_alloc(s->a, (size_t)v.n * sizeof *out->items);
    for (int j = 0; j < v.n; j++) {
        int32_t slot;
        if (!sp_carry_slot(s, v.items[j], name, at, &slot))
            return false;
        out->items[j] = sv_tile(slot);
    }
    return true;
}

/* Copy block pointer v's scalars into the carried block pointer dst; v must
 * point to blocks of the same element type and shape. */
static bool sp_copy_block_into(spec *s, sval dst, sval v, const char *name,
                               const ast_node *at)
{
    const sp_blockinfo *a = dst.block, *b = v.block;
    if (v.kind != SV_BLOCKPTR || b->nd != a->nd || b->elem != a->elem ||
        b->desc != a->desc || b->pad_nan != a->pad_nan ||
        memcmp(b->block, a->block, sizeof a->block)) {
        char x[128], y[128];
        return sp_error(s, at, "variable '%s' is %s on one path but %s on another; it "
                        "must stay the same kind of block pointer or descriptor", name,
                        sp_describe(s, dst, x, sizeof x), sp_describe(s, v, y, sizeof y));
    }
    for (int j = 0; j < dst.n; j++)
        if (!sp_copy_into(s, dst.items[j].slot, v.items[j], name, "loop-carried variable", at))
            return false;
    return true;
}

/* Loop-carried variables: before the loop, each name the body assigns that
 * already has a value gets its own slot, which the body reads; at the end
 * of each iteration the body's new value is copied back. */
typedef struct sp_carry {
    const char **names;
    sval *vals;            /* a tile, or a block pointer of carried scalars */
    int n;
    sp_scope before;       /* to find names first bound in the loop */
} sp_carry;

static bool sp_carry_begin(spec *s, const ast_list *body, const ast_node *at,
                           const char *skip, sp_carry *c)
{
    const char **names = NULL;
    int n = 0, cap = 0;
    sp_collect_assigned(body, &names, &n, &cap);
    c->names = xmalloc((size_t)(n + 1) * sizeof *c->names);
    c->vals = xmalloc((size_t)(n + 1) * sizeof *c->vals);
    c->n = 0;
    c->before = sp_scope_copy(&s->fn->scope);
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        sval *v = sp_lookup_local(s, names[i]);
        if (!v || v->kind == SV_UNDEF || (skip && !strcmp(names[i], skip)))
            continue;
        int32_t slot;
        if (v->kind == SV_BLOCKPTR) {
            if (!(ok = sp_carry_block(s, *v, names[i], at, &c->vals[c->n])))
                break;
            c->names[c->n] = names[i];
            sp_bind(s, names[i], c->vals[c->n++]);
            continue;
        }
        if (v->kind != SV_TILE && !(v->kind == SV_CONST && (v->c.kind == SC_INT ||
                                                            v->c.kind == SC_FLOAT ||
                                                            v->c.kind == SC_BOOL))) {
            char buf[128];
            ok = sp_error(s, at, "'%s' is %s and the loop assigns it; only tiles and "
                          "numbers (and block pointers) can change in a loop", names[i],
                          sp_describe(s, *v, buf, sizeof buf));
            break;
        }
        if (!(ok = sp_carry_slot(s, *v, names[i], at, &slot)))
            break;
        c->names[c->n] = names[i];
        c->vals[c->n] = sv_tile(slot);
        c->n++;
        sp_bind(s, names[i], sv_tile(slot));
    }
    free(names);
    return ok;
}

/* End of one iteration: copy the body's values into the carried slots. */
static bool sp_carry_back(spec *s, sp_carry *c, const ast_node *at)
{
    for (int i = 0; i < c->n; i++) {
        sval *v = sp_lookup_local(s, c->names[i]);
        if (!v || v->kind == SV_UNDEF)
            return sp_error(s, at, "'%s' is not defined at the end of the loop body",
                            c->names[i]);
        bool ok = c->vals[i].kind == SV_BLOCKPTR
                  ? sp_copy_block_into(s, c->vals[i], *v, c->names[i], at)
                  : sp_copy_into(s, c->vals[i].slot, *v, c->names[i], "loop-carried variable",
                                 at);
        if (!ok)
            return false;
    }
    return true;
}

/* After the loop: carried names hold their slots; names first bound inside
 * the loop are not usable after it. */
static void sp_carry_end(spec *s, sp_carry *c, const ast_node *at)
{
    for (int i = 0; i < c->n; i++)
        sp_bind(s, c->names[i], c->vals[i]);
    sp_scope *sc = &s->fn->scope;
    for (int i = 0; i < sc->n; i++)
        if (!sp_scope_find(&c->before, sc->vars[i].name)) {
            char *why = arena_alloc(s->a, 96);
            snprintf(why, 96, "it is assigned only inside the loop at line %d",
                     at->span.line);
            sc->vars[i].v = (sval){.kind = SV_UNDEF, .name = why};
        }
    free(c->names);
    free(c->vals);
    free(c->before.vars);
}

/* The loop forms: range/tl.range (a loop at run time) and tl.static_range
 * (unrolled now). */
static bool sp_for(spec *s, const ast_node *st)
{
    const ast_node *it = st->u.for_.iter;
    if (st->u.for_.orelse.len)
        return sp_error(s, st, "'for ... else' is not supported in kernels");
    sval fn = {.kind = SV_CONST};
    if (it->kind == AST_CALL && !sp_expr(s, it->u.call.func, &fn))
        return false;
    bool is_static = fn.kind == SV_FUNC && !strcmp(fn.name, "triton.language.static_range");
    bool is_range = fn.kind == SV_FUNC && (!strcmp(fn.name, "builtins.range") ||
                                           !strcmp(fn.name, "triton.language.range"));
    if (!is_static && !is_range) {
        /* A constant tuple: unrolled. */
        sval t;
        if (!sp_expr(s, it, &t))
            return false;
        t = sp_tuple_view(s, t);
        if (t.kind != SV_TUPLE)
            return sp_error(s, it, "kernels loop over range(...), tl.range(...) or "
                            "tl.static_range(...)");
        for (int i = 0; i < t.n && !s->fn->returned; i++)
            if (!sp_assign(s, st->u.for_.target, t.items[i]) || !sp_block(s, &st->u.for_.body))
                return false;
        return true;
    }
    /* start, end, step from the call's positional arguments */
    const ast_list *args = &it->u.call.args;
    if (args->len < 1 || args->len > 3)
        return sp_error(s, it, "range takes 1 to 3 arguments, not %d", args->len);
    sval b[3] = {sv_int(0), sv_int(0), sv_int(1)};
    for (int i = 0; i < args->len; i++)
        if (!sp_expr(s, args->items[i], &b[args->len == 1 ? 1 : i]))
            return false;
    for (int i = 0; i < it->u.call.keywords.len; i++) {
        const char *k = it->u.call.keywords.items[i]->u.keyword.arg;
        static const char *const ok_kw[] = {"num_stages", "loop_unroll_factor",
                                             "disallow_acc_multi_buffer", "flatten",
                                             "warp_specialize", NULL};
        bool known = false;
        for (int j = 0; k && ok_kw[j] && !known; j++)
            known = !strcmp(k, ok_kw[j]);
        if (!known)
            return sp_error(s, it->u.call.keywords.items[i], "unexpected keyword "
                            "argument '%s' for range", k ? k : "**");
    }
    if (is_static) {
        int64_t v[3];
        for (int i = 0; i < 3; i++)
            if (!sp_const_int(s, b[i], it, "a tl.static_range bound", &v[i]))
                return false;
        if (v[2] == 0)
            return sp_error(s, it, "range step must not be zero");
        for (int64_t i = v[0]; (v[2] > 0 ? i < v[1] : i > v[1]) && !s->fn->returned; i += v[2])
            if (!sp_assign(s, st->u.for_.target, sv_int(i)) || !sp_block(s, &st->u.for_.body))
                return false;
        return true;
    }
    if (st->u.for_.target->kind != AST_NAME)
        return sp_error(s, st->u.for_.target, "the variable of a range loop must be a name");
    const char *var = st->u.for_.target->u.name.id;
    /* The induction variable is int32, or int64 if a bound needs it. */
    dtype ivt = DTYPE_INT32;
    for (int i = 0; i < 3; i++) {
        if (b[i].kind == SV_TILE) {
            dtype t = sp_slot_type(s, b[i].slot)->dt;
            if (!dtype_is_int(t) || sp_slot_type(s, b[i].slot)->ndim != 0)
                return sp_error(s, it, "range bounds must be integer scalars");
            if (dtype_bits(t) == 64)
                ivt = DTYPE_INT64;
        } else if (b[i].kind != SV_CONST || (b[i].c.kind != SC_INT && b[i].c.kind != SC_BOOL)) {
            return sp_error(s, it, "range bounds must be integers");
        } else if (dtype_of_pyint(b[i].c.u.i) != DTYPE_INT32) {
            ivt = DTYPE_INT64;
        }
    }
    if (b[2].kind == SV_CONST && b[2].c.u.i == 0)
        return sp_error(s, it, "range step must not be zero");
    int32_t start = sp_operand_slot(s, b[0], ivt, it);
    int32_t end = sp_operand_slot(s, b[1], ivt, it);
    int32_t step = sp_operand_slot(s, b[2], ivt, it);
    sp_carry c;
    if (!sp_carry_begin(s, &st->u.for_.body, st, var, &c))
        return false;
    int32_t iv = sp_slot(s, sp_scalar_type(ivt), var);
    sp_emit(s, IR_COPY, 0, iv, start, -1, -1, 0, st);
    int32_t head = s->ncode;
    int32_t cond = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
    if (b[2].kind == SV_CONST) {
        sp_emit(s, IR_CMP, b[2].c.u.i > 0 ? IR_LT : IR_GT, cond, iv, end, -1, 0, st);
    } else {
        /* step's sign is known only at run time */
        int32_t up = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
        int32_t lt = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
        int32_t gt = sp_slot(s, sp_scalar_type(DTYPE_INT1), NULL);
        int32_t zero = sp_const_slot(s, &(spec_const){.kind = SC_INT}, ivt, st);
        sp_emit(s, IR_CMP, IR_GT, up, step, zero, -1, 0, st);
        sp_emit(s, IR_CMP, IR_LT, lt, iv, end, -1, 0, st);
        sp_emit(s, IR_CMP, IR_GT, gt, iv, end, -1, 0, st);
        sp_emit(s, IR_WHERE, 0, cond, up, lt, gt, 0, st);
    }
    int32_t br = sp_emit(s, IR_BRANCH, 0, -1, cond, -1, -1, 0, st);
    sp_bind(s, var, sv_tile(iv));
    s->fn->runtime_depth++;
    s->fn->loop_depth++;
    bool ok = sp_block(s, &st->u.for_.body) && sp_carry_back(s, &c, st);
    s->fn->loop_depth--;
    s->fn->runtime_depth--;
    if (ok) {
        sp_emit(s, IR_BINARY, IR_ADD, iv, iv, step, -1, 0, st);
        sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, head, st);
        s->code[br].imm = s->ncode;
    }
    sp_carry_end(s, &c, st);
    sp_bind(s, var, sv_tile(iv));
    return ok;
}

static bool sp_while(spec *s, const ast_node *st)
{
    if (st->u.if_.orelse.len)
        return sp_error(s, st, "'while ... else' is not supported in kernels");
    sp_carry c;
    if (!sp_carry_begin(s, &st->u.if_.body, st, NULL, &c))
        return false;
    int32_t head = s->ncode;
    sval cond;
    int32_t cs;
    bool ok = sp_expr(s, st->u.if_.test, &cond);
    if (ok && cond.kind == SV_CONST) {
        if (sp_const_truth(&cond.c))
            ok = sp_error(s, st->u.if_.test, "this loop would never end: its condition "
                          "is a constant");
        sp_carry_end(s, &c, st);
        return ok;
    }
    ok = ok && sp_runtime_cond(s, cond, st->u.if_.test, &cs);
    int32_t br = ok ? sp_emit(s, IR_BRANCH, 0, -1, cs, -1, -1, 0, st) : -1;
    s->fn->runtime_depth++;
    s->fn->loop_depth++;
    ok = ok && sp_block(s, &st->u.if_.body) && sp_carry_back(s, &c, st);
    s->fn->loop_depth--;
    s->fn->runtime_depth--;
    if (ok) {
        sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, head, st);
        s->code[br].imm = s->ncode;
    }
    sp_carry_end(s, &c, st);
    return ok;
}

/* return: in the kernel the program ends here; in a helper the value is
 * the call's.  A return inside a runtime 'if' (Triton's early return) ends
 * only that path: the helper's returns then meet in return slots at the end
 * of its inlined body.  Returns inside runtime loops are refused, as by
 * Triton. */
static bool sp_return(spec *s, const ast_node *st)
{
    sp_func *f = s->fn;
    if (f->loop_depth > 0)
        return sp_return_in_loop(s, st);
    sval v = sv_none();
    if (st->u.expr.value && !sp_expr(s, st->u.expr.value, &v))
        return false;
    if (!f->caller) {
        if (!sv_is_none(v))
            return sp_error(s, st, "a kernel cannot return a value; store it with tl.store");
        sp_emit(s, IR_RETURN, 0, -1, -1, -1, -1, 0, st);
        f->returned = true;
        return true;
    }
    if (f->runtime_depth == 0 && !f->rt_ret) {
        /* Every path returns here: the value stays as it is (a constant
         * stays a constant). */
        f->ret = v;
        f->returned = true;
        return true;
    }
    if (!sp_ret_store(s, v, st))
        return false;
    if (f->runtime_depth > 0) {
        int32_t j = sp_emit(s, IR_JUMP, 0, -1, -1, -1, -1, 0, st);
        SP_PUSH(f->ret_jumps, f->nret_jumps, f->cap_ret_jumps, j);
        f->rt_ret = true;
    }
    f->returned = true;
    return true;
}

static bool sp_stmt_kind(spec *s, const ast_node *st)
{
    switch (st->kind) {
    case AST_EXPR_STMT: {
        sval v;
        return sp_expr(s, st->u.expr.value, &v);
    }
    case AST_ASSIGN: {
        sval v;
        if (!sp_expr(s, st->u.assign.value, &v) || !sp_assigned(s, v, st, &v))
            return false;
        for (int i = 0; i < st->u.assign.targets.len; i++)
            if (!sp_assign(s, st->u.assign.targets.items[i], v))
                return false;
        return true;
    }
    case AST_AUGASSIGN: {
        sval cur, v;
        const ast_node *t = st->u.augassign.target;
        if (t->kind != AST_NAME)
            return sp_error(s, t, "a kernel can only update names with %s=",
                            ast_op_name(st->u.augassign.op));
        return sp_expr(s, t, &cur) && sp_expr(s, st->u.augassign.value, &v) &&
               sp_binop(s, st->u.augassign.op, cur, v, st, &v) &&
               sp_assigned(s, v, st, &v) && sp_assign(s, t, v);
    }
    case AST_ANNASSIGN: {
        sval v;
        if (!st->u.annassign.value)
            return true;
        return sp_expr(s, st->u.annassign.value, &v) &&
               (sp_is_constexpr_annotation(st->u.annassign.annotation) ||
                sp_assigned(s, v, st, &v)) &&
               sp_assign(s, st->u.annassign.target, v);
    }
    case AST_IF:
        return sp_if(s, st);
    case AST_FOR:
        return sp_for(s, st);
    case AST_WHILE:
        return sp_while(s, st);
    case AST_RETURN:
        return sp_return(s, st);
    case AST_PASS:
        return true;
    case AST_ASSERT: {
        sval v;
        if (!sp_expr(s, st->u.assert_.test, &v))
            return false;
        sval msg = sv_none();
        if (st->u.assert_.msg && !sp_expr(s, st->u.assert_.msg, &msg))
            return false;
        sp_args a = {.argc = 2, .argv = (sval[]){v, msg}};
        sval r;
        return sp_call_builtin(s, "triton.language.device_assert", &a, st, &r);
    }
    case AST_BREAK:
    case AST_CONTINUE:
        return sp_error(s, st, "'%s' is not supported in Triton kernels; use a while loop "
                        "with a condition, or tl.where", st->kind == AST_BREAK ? "break"
                                                                              : "continue");
    case AST_FUNCDEF:
        return sp_error(s, st, "functions cannot be defined inside a kernel; define a "
                        "@triton.jit function at the top level");
    case AST_IMPORT:
    case AST_IMPORTFROM:
        return sp_error(s, st, "imports are not allowed inside a kernel; import at the top "
                        "of the file");
    case AST_GLOBAL:
    case AST_NONLOCAL:
        return sp_error(s, st, "'global' and 'nonlocal' are not supported in kernels");
    case AST_RAISE:
        return sp_error(s, st, "'raise' is not supported in kernels; use tl.device_assert");
    case AST_DEL:
        return sp_error(s, st, "'del' is not supported in kernels");
    case AST_CLASSDEF:
        return sp_error(s, st, "classes cannot be defined inside a kernel; define them "
                        "in host code");
    case AST_TRY:
        return sp_error(s, st, "'try' is not supported in kernels (a kernel raises no "
                        "exceptions: use tl.device_assert)");
    case AST_WITH:
        return sp_error(s, st, "'with' is not supported in kernels");
    default:
        return sp_error(s, st, "this statement is not supported in kernels");
    }
}

/* A statement, recorded in the debugger's statement table first. */
static bool sp_stmt(spec *s, const ast_node *st)
{
    int32_t outer = sp_dbg_stmt(s, st);
    bool ok = sp_stmt_kind(s, st);
    s->cur_stmt = outer;
    return ok;
}

static bool sp_block(spec *s, const ast_list *body)
{
    for (int i = 0; i < body->len && !s->fn->returned; i++)
        if (!sp_stmt(s, body->items[i]))
            return false;
    return true;
}

/* ---- functions ------------------------------------------------------------ */

/* A frame for function def (of file, module env), called at call. */
static int32_t sp_frame(spec *s, const ast_node *def, const src_file *file, void *env,
                        const ast_node *call, int32_t parent)
{
    ir_frame f = {.func = def->u.funcdef.name, .call = call, .parent = parent,
                  .file = file};
    SP_PUSH(s->frames, s->nframes, s->cap_frames, f);
    sp_dbg_frame(s, s->nframes - 1, def, env);
    return s->nframes - 1;
}


enum { SP_MAX_INLINE = 64 };

bool sp_call_jit(spec *s, sval fn, int argc, const sval *argv, int nkw,
                 const char *const *kwnames, const sval *kwv, const ast_node *call,
                 sval *out)
{
    const ast_node *def = fn.def;
    const ast_list *params = &def->u.funcdef.params;
    const char *name = def->u.funcdef.name;
    if (s->inline_depth >= SP_MAX_INLINE)
        return sp_error(s, call, "calls nest deeper than %d: is '%s' recursive? "
                        "(kernels cannot recurse)", SP_MAX_INLINE, name);
    sval *bound = xcalloc((size_t)(params->len + 1), sizeof *bound);
    bool *have = xcalloc((size_t)(params->len + 1), sizeof *have);
    bool ok = true;
    if (argc > params->len)
        ok = sp_error(s, call, "%s() takes %d arguments but %d were given", name,
                      params->len, argc);
    for (int i = 0; ok && i < params->len; i++)
        if (params->items[i]->u.param.kind == AST_PARAM_VARARGS ||
            params->items[i]->u.param.kind == AST_PARAM_KWARGS)
            ok = sp_error(s, params->items[i], "*args and **kwargs are not supported in "
                          "@triton.jit functions");
    for (int i = 0; ok && i < argc; i++) {
        bound[i] = argv[i];
        have[i] = true;
    }
    for (int k = 0; ok && k < nkw; k++) {
        int i = 0;
        while (i < params->len && strcmp(params->items[i]->u.param.name, kwnames[k]))
            i++;
        if (i == params->len)
            ok = sp_error(s, call, "%s() got an unexpected keyword argument '%s'", name,
                          kwnames[k]);
        else if (have[i])
            ok = sp_error(s, call, "%s() got multiple values for argument '%s'", name,
                          kwnames[k]);
        else {
            bound[i] = kwv[k];
            have[i] = true;
        }
    }

    sp_func f = {.name = name, .file = fn.file, .env = fn.env, .caller = s->fn,
                 .call = call,
                 .frame = sp_frame(s, def, fn.file, fn.env, call, s->fn->frame)};
    s->fn = &f;
    s->inline_depth++;
    for (int i = 0; ok && i < params->len; i++) {
        const ast_node *p = params->items[i];
        if (!have[i]) {
            if (!p->u.param.default_) {
                s->fn = f.caller;
                ok = sp_error(s, call, "%s() missing required argument '%s'", name,
                              p->u.param.name);
                s->fn = &f;
                break;
            }
            /* Defaults are evaluated in the callee's module. */
            if (!(ok = sp_expr(s, p->u.param.default_, &bound[i])))
                break;
        }
        if (sp_is_constexpr_annotation(p->u.param.annotation) && bound[i].kind == SV_TILE) {
            s->fn = f.caller;
            ok = sp_error(s, call, "argument '%s' of %s() is a tl.constexpr, but the value "
                          "passed is a tile known only at run time", p->u.param.name, name);
            s->fn = &f;
            break;
        }
        sp_bind(s, p->u.param.name, bound[i]);
    }
    ok = ok && sp_block(s, &def->u.funcdef.body);
    if (ok && f.rt_ret) {
        /* Early returns jump here, with their value in f.ret's slots. */
        for (int i = 0; i < f.nret_jumps; i++)
            s->code[f.ret_jumps[i]].imm = s->ncode;
        if (!f.returned && !sv_is_none(f.ret))
            ok = sp_error(s, def, "%s() returns a value at line %d but can also reach its "
                          "end without a return, where Triton returns an undefined value; "
                          "end it with a return", name, f.first_ret->span.line);
        *out = f.ret;
    } else {
        *out = f.returned ? f.ret : sv_none();
    }
    s->inline_depth--;
    s->fn = f.caller;
    free(f.ret_jumps);
    free(f.scope.vars);
    sp_dbg_func_end(&f);
    free(bound);
    free(have);
    return ok;
}

void *sp_freeze(arena *a, const void *p, size_t n, size_t size)
{
    void *q = arena_alloc(a, n * size + 1);
    if (n)
        memcpy(q, p, n * size);
    return q;
}

ir_kernel *sp_freeze_kernel(spec *s, const char *name)
{
    ir_kernel *k = arena_alloc(s->a, sizeof *k);
    k->name = name;
    k->code = sp_freeze(s->a, s->code, (size_t)s->ncode, sizeof *s->code);
    k->ncode = s->ncode;
    k->slots = sp_freeze(s->a, s->slots, (size_t)s->nslots, sizeof *s->slots);
    k->nslots = s->nslots;
    k->frames = sp_freeze(s->a, s->frames, (size_t)s->nframes, sizeof *s->frames);
    k->nframes = s->nframes;
    k->prints = sp_freeze(s->a, s->prints, (size_t)s->nprints, sizeof *s->prints);
    k->nprints = s->nprints;
    k->ndesc = s->ndesc;
    return k;
}

ir_kernel *spec_kernel(const src_file *f, const ast_node *def, void *env,
                       const spec_host *host, const spec_param *params, diag_sink *d,
                       arena *a, FILE *out)
{
    spec s = {.d = d, .a = a, .host = host, .out = out, .cur_stmt = -1};
    sp_func top = {.name = def->u.funcdef.name, .file = f, .env = env};
    s.fn = &top;
    top.frame = sp_frame(&s, def, f, env, NULL, -1);

    const ast_list *ps = &def->u.funcdef.params;
    int nslots_args = ps->len + 1;    /* a TensorDescriptor takes 1 + 2 * nd */
    for (int i = 0; i < ps->len; i++)
        nslots_args += params[i].is_const ? 0 : 2 * params[i].desc_nd;
    ir_param *rparams = xcalloc((size_t)nslots_args, sizeof *rparams);
    int nr = 0;
    bool ok = true;
    for (int i = 0; ok && i < ps->len; i++) {
        const ast_node *p = ps->items[i];
        if (p->u.param.kind == AST_PARAM_VARARGS || p->u.param.kind == AST_PARAM_KWARGS) {
            ok = sp_error(&s, p, "*args and **kwargs are not supported in kernels");
            break;
        }
        if (params[i].is_const) {
            sp_bind(&s, p->u.param.name, sv_const(params[i].c));
            continue;
        }
        if (params[i].desc_nd > 0) {
            ok = sp_desc_param(&s, p, &params[i], rparams, &nr);
            continue;
        }
        int32_t slot = sp_slot(&s, sp_scalar_type(params[i].dt), p->u.param.name);
        if (dtype_is_ptr(params[i].dt))
            s.slots[slot].ptr_arg = nr;
        sp_emit(&s, IR_ARG, 0, slot, -1, -1, -1, nr, p);
        rparams[nr].name = p->u.param.name;
        rparams[nr].dt = params[i].dt;
        nr++;
        sp_bind(&s, p->u.param.name, sv_tile(slot));
    }
    ok = ok && sp_block(&s, &def->u.funcdef.body);
    ir_kernel *k = NULL;
    if (ok) {
        sp_emit(&s, IR_RETURN, 0, -1, -1, -1, -1, 0, def);
        k = sp_freeze_kernel(&s, top.name);
        combine_kernel(k);
        k->params = sp_freeze(a, rparams, (size_t)nr, sizeof *rparams);
        k->nparams = nr;
    }
    sp_dbg_finish(&s, k);
    free(rparams);
    free(top.scope.vars);
    sp_dbg_func_end(&top);
    free(s.code);
    free(s.slots);
    free(s.frames);
    free(s.prints);
    return k;
}
