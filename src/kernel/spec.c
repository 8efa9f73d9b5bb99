/* spec.c - the specializer (spec.h): walks a @triton.jit function's AST
 * with its constexpr values and argument types and emits typed IR.
 *
 * Values during specialization (sval) are either compile-time Python values
 * (constexprs, literals, dtypes, tuples, modules, functions) or tiles: IR
 * slots with a static type.  Expressions on constants fold; expressions on
 * tiles emit instructions.  This file has the entry (spec_kernel), the
 * inlining of helper functions (sp_call_jit), errors, the IR-emission
 * helpers, values, scopes, tiles made from values and constants as text;
 * the expressions live in spec_expr.c, the statements in spec_stmt.c and
 * the tl.* functions in spec_tl.c and its family (spec_tl.h). */
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
    /* Say where an inlined helper was called from, innermost first; a run
     * of the same call (recursion) once, with a count. */
    for (sp_func *f = s->fn; f && f->caller;) {
        diag_report(s->d, DIAG_NOTE, f->caller->file, f->call->span,
                    "in '%s', called from here", f->name);
        sp_func *g = f->caller;
        int repeats = 0;
        for (; g && g->caller && g->call == f->call; g = g->caller)
            repeats++;
        if (repeats)
            diag_repeated(s->d, repeats);
        f = g;
    }
    return false;
}

/* ---- emitting IR ---------------------------------------------------------- */

int32_t sp_slot(spec *s, ir_type t, const char *name)
{
    ir_slot sl = {.type = t, .name = name, .ptr_arg = -1};
    SP_PUSH(s->slots, s->nslots, s->cap_slots, sl);
    return s->nslots - 1;
}

bool sp_check_numel(spec *s, const ir_type *t, const ast_node *at, const char *what)
{
    double n = 1;         /* exact: dimensions are powers of two */
    for (int i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    if (n <= (double)SP_MAX_NUMEL)
        return true;
    char sh[96];
    sp_shape_str(t, sh, sizeof sh);
    return sp_error(s, at, "%s makes a tile of shape %s (%.0f elements), but a tile may have "
                    "at most %lld elements, as in Triton; use smaller blocks", what, sh, n,
                    (long long)SP_MAX_NUMEL);
}

/* The limits every instruction obeys, whichever function emitted it: its
 * result's elements and the kernel's length.  Passing one reports it once
 * and sets s->too_big, which fails the statement being walked (sp_block). */
static void sp_emit_limits(spec *s, int32_t dst, const ast_node *at)
{
    if (s->too_big)
        return;
    if (dst >= 0 && !sp_check_numel(s, &s->slots[dst].type, at, "this operation"))
        s->too_big = true;
    else if (s->ncode >= SP_MAX_CODE)
        s->too_big = !sp_error(s, at, "this kernel has grown past %d IR instructions "
                               "(tritsim's limit), most likely from a long tl.static_range "
                               "or deep inlining; use tl.range or range for loops run at "
                               "run time", (int)SP_MAX_CODE);
}

int32_t sp_emit(spec *s, ir_opcode op, int sub, int32_t dst, int32_t a,
                int32_t b, int32_t c, int64_t imm, const ast_node *at)
{
    sp_emit_limits(s, dst, at);
    ir_inst in = {.op = (uint8_t)op, .sub = (uint8_t)sub, .dst = dst, .a = a,
                  .b = b, .c = c, .d = -1, .imm = imm, .at = at, .frame = s->fn->frame};
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

bool spec_on_value(uint64_t no_spec, int i)
{
    return !(i < 64 && (no_spec >> i & 1));
}

bool spec_div16(uint64_t no_spec, int i, uint64_t value)
{
    return value % 16 == 0 && spec_on_value(no_spec, i);
}

bool spec_params_eq(const spec_param *a, const spec_param *b, int n)
{
    for (int i = 0; i < n; i++) {
        if (a[i].is_const != b[i].is_const)
            return false;
        if (a[i].is_const ? !spec_const_eq(&a[i].c, &b[i].c)
                          : a[i].dt != b[i].dt || a[i].div16 != b[i].div16)
            return false;
        if (!a[i].is_const && (a[i].desc_nd != b[i].desc_nd || a[i].desc_nan != b[i].desc_nan ||
                               memcmp(a[i].desc_block, b[i].desc_block,
                                      sizeof a[i].desc_block)))
            return false;
    }
    return true;
}

void spec_const_repr(strbuf *b, const spec_const *c)
{
    switch (c->kind) {
    case SC_NONE: strbuf_puts(b, "None"); break;
    case SC_BOOL: strbuf_puts(b, c->u.b ? "True" : "False"); break;
    case SC_INT: strbuf_printf(b, "%lld", (long long)c->u.i); break;
    case SC_FLOAT: pyformat_float_repr(b, c->u.f); break;
    case SC_STR: pyformat_str_repr(b, c->u.str.s, c->u.str.len); break;
    case SC_DTYPE:
        if (dtype_tl_name(c->u.dt))
            strbuf_printf(b, "tl.%s", dtype_tl_name(c->u.dt));
        else
            strbuf_puts(b, dtype_name(c->u.dt));      /* a pointer type */
        break;
    case SC_TUPLE:
        strbuf_putc(b, '(');
        for (int i = 0; i < c->u.tuple.n; i++) {
            if (i)
                strbuf_puts(b, ", ");
            spec_const_repr(b, &c->u.tuple.items[i]);
        }
        strbuf_puts(b, c->u.tuple.n == 1 ? ",)" : ")");
        break;
    }
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
    case SV_JIT:
        snprintf(buf, len, "the %s function %s", v.host_fn ? "Python" : "@triton.jit",
                 v.def->u.funcdef.name);
        break;
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
    case SV_TYPE: {
        char t[96];
        ir_type_str(sp_slot_type(s, v.slot), t, sizeof t);
        snprintf(buf, len, "the block type of %s", t);
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

sval *sp_scope_find(sp_scope *sc, const char *name)
{
    for (int i = sc->n - 1; i >= 0; i--)
        if (!strcmp(sc->vars[i].name, name))
            return &sc->vars[i].v;
    return NULL;
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
bool sp_mergeable(const sval *v)
{
    return v->kind == SV_TILE ||
           (v->kind == SV_CONST &&
            (v->c.kind == SC_INT || v->c.kind == SC_FLOAT || v->c.kind == SC_BOOL));
}

/* The type a runtime if merges v as (v mergeable): a tile's, or a number's
 * own scalar type, without emitting anything. */
ir_type sp_merge_type(spec *s, const sval *v)
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
        /* A helper's tl.constexpr annotation is not enforced: a value known
         * only at run time is bound as it is, as Triton does (only a
         * kernel's own constexpr parameters must be constants). */
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
        rparams[nr].div16 = params[i].div16;
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
