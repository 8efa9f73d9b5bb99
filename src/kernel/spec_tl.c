/* spec_tl.c - the functions a kernel can call while it is specialized:
 * binding a call's arguments, the table of every built-in (triton.language,
 * the tile methods, the Python builtins, triton.cdiv and the lecture's
 * triton_util helpers) and the lookup of a module's attributes, the tile
 * attributes and methods (x.to, x.sum, ...), and the smaller tl.*
 * functions (hints, tl.constexpr, tl.pointer_type, tl.cast).  Each becomes
 * IR through spec.c's helpers, or folds when its arguments are constants.
 * The other functions live with their family (spec_tl.h lists the files).
 *
 * Every function declares its Python signature as a string ("pointer, mask=,
 * other="); sp_bind_args binds positional and keyword arguments to it the
 * way Python does, so messages about arguments are uniform. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <math.h>
#include <string.h>


const char *sp_display_name(const char *q, char *buf, size_t len)
{
    if (!strncmp(q, "triton.language.extra.libdevice.", 32))
        snprintf(buf, len, "libdevice.%s", q + 32);
    else if (!strncmp(q, "triton.language.extra.cuda.libdevice.", 37))
        snprintf(buf, len, "libdevice.%s", q + 37);
    else if (!strncmp(q, "triton.language.", 16))
        snprintf(buf, len, "tl.%s", q + 16);
    else if (!strncmp(q, "builtins.", 9))
        snprintf(buf, len, "%s", q + 9);
    else
        snprintf(buf, len, "%s", q);
    return buf;
}

/* Bind args to the signature sig: comma-separated names, each optionally
 * followed by '=' (optional, default None).  A name starting with '*' takes
 * the remaining positional arguments (bound as a tuple). */
bool sp_bind_args(spec *s, const char *qual, const char *sig, const sp_args *a,
                         const ast_node *call, sval *out, int nout)
{
    char names[SP_MAX_PARAMS][32];
    bool optional[SP_MAX_PARAMS] = {0}, have[SP_MAX_PARAMS] = {0};
    int n = 0, star = -1;
    for (const char *p = sig; *p && n < SP_MAX_PARAMS;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t k = 0;
        while (*p && *p != ',' && *p != '=' && k < sizeof names[0] - 1)
            names[n][k++] = *p++;
        names[n][k] = '\0';
        if (*p == '=') {
            optional[n] = true;
            p++;
        }
        if (names[n][0] == '*')
            star = n;
        n++;
    }
    if (n > nout)
        return sp_error(s, call, "internal error: %s has %d parameters but room for %d",
                        qual, n, nout);
    char fname[96];
    sp_display_name(qual, fname, sizeof fname);
    for (int i = 0; i < n; i++)
        out[i] = sv_none();
    int pos = 0;
    for (int i = 0; i < a->argc; i++) {
        if (pos == star) {
            sval t = {.kind = SV_TUPLE, .n = a->argc - i, .slot = -1};
            t.items = arena_alloc(s->a, (size_t)(t.n + 1) * sizeof *t.items);
            for (int k = 0; k < t.n; k++)
                t.items[k] = a->argv[i + k];
            out[pos] = t;
            have[pos++] = true;
            break;
        }
        if (pos >= n)
            return sp_error(s, call, "%s() takes at most %d positional arguments but %d "
                            "were given", fname, n, a->argc);
        out[pos] = a->argv[i];
        have[pos++] = true;
    }
    for (int k = 0; k < a->nkw; k++) {
        int i = 0;
        while (i < n && strcmp(names[i], a->kwnames[k]))
            i++;
        if (i == n)
            return sp_error(s, call, "%s() got an unexpected keyword argument '%s'", fname,
                            a->kwnames[k]);
        if (have[i])
            return sp_error(s, call, "%s() got multiple values for argument '%s'", fname,
                            a->kwnames[k]);
        out[i] = a->kwv[k];
        have[i] = true;
    }
    for (int i = 0; i < n; i++)
        if (!have[i] && !optional[i] && i != star)
            return sp_error(s, call, "%s() missing required argument '%s'", fname, names[i]);
    if (star >= 0 && !have[star])
        out[star] = (sval){.kind = SV_TUPLE, .slot = -1};
    return true;
}


/* ---- argument helpers ------------------------------------------------- */

bool sp_want_tile(spec *s, sval v, const ast_node *at, const char *what, int32_t *slot)
{
    if (v.kind == SV_TILE) {
        *slot = v.slot;
        return true;
    }
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL))
        return sp_as_tile(s, v, at, slot);
    char buf[128];
    return sp_error(s, at, "%s must be a tile, not %s", what, sp_describe(s, v, buf, sizeof buf));
}

bool sp_want_dtype(spec *s, sval v, const ast_node *at, const char *what, dtype *dt)
{
    if (v.kind == SV_CONST && v.c.kind == SC_DTYPE) {
        *dt = v.c.u.dt;
        return true;
    }
    char buf[128];
    return sp_error(s, at, "%s must be a dtype such as tl.float32, not %s", what,
                    sp_describe(s, v, buf, sizeof buf));
}

bool sp_want_str(spec *s, sval v, const ast_node *at, const char *what,
                        const char **str)
{
    if (v.kind == SV_CONST && v.c.kind == SC_STR) {
        *str = v.c.u.str.s;
        return true;
    }
    char buf[128];
    return sp_error(s, at, "%s must be a constant string, not %s", what,
                    sp_describe(s, v, buf, sizeof buf));
}

/* A static shape from a constant int, tuple or list of ints. */
bool sp_want_shape(spec *s, sval v, const ast_node *at, ir_type *t)
{
    sval items[IR_MAX_DIM];
    int n;
    if (v.kind == SV_CONST && v.c.kind == SC_INT) {
        items[0] = v;
        n = 1;
    } else {
        if (v.kind == SV_CONST && v.c.kind == SC_TUPLE) {
            if (v.c.u.tuple.n > IR_MAX_DIM)
                return sp_error(s, at, "tiles have at most %d dimensions", IR_MAX_DIM);
            n = v.c.u.tuple.n;
            for (int i = 0; i < n; i++)
                items[i] = sv_const(v.c.u.tuple.items[i]);
        } else if (v.kind == SV_TUPLE) {
            if (v.n > IR_MAX_DIM)
                return sp_error(s, at, "tiles have at most %d dimensions", IR_MAX_DIM);
            n = v.n;
            for (int i = 0; i < n; i++)
                items[i] = v.items[i];
        } else {
            char buf[128];
            return sp_error(s, at, "a shape must be a tuple of constexpr ints, not %s",
                            sp_describe(s, v, buf, sizeof buf));
        }
    }
    t->ndim = (int8_t)n;
    int64_t numel = 1;
    for (int i = 0; i < n; i++) {
        int64_t d;
        if (!sp_const_int(s, items[i], at, "a shape dimension", &d))
            return false;
        if (d < 1 || (d & (d - 1)))
            return sp_error(s, at, "shape dimensions must be powers of two, as in Triton; "
                            "got %lld (round up with triton.next_power_of_2 and mask the "
                            "extra lanes)", (long long)d);
        numel *= d;
        if (numel > (1 << 20))
            return sp_error(s, at, "a tile may have at most 1048576 elements, as in Triton");
        t->shape[i] = (int32_t)d;
    }
    return true;
}

/* A boolean mask tile (int1), or -1 when absent or constant True. */
bool sp_want_mask(spec *s, sval v, const ast_node *at, int32_t *slot)
{
    *slot = -1;
    if (sv_is_none(v))
        return true;
    if (v.kind == SV_CONST && v.c.kind == SC_BOOL && v.c.u.b)
        return true;
    int32_t m;
    if (!sp_want_tile(s, v, at, "mask", &m))
        return false;
    *slot = sp_cast(s, m, DTYPE_INT1, at);
    return true;
}

bool sp_shapes_join(spec *s, const ir_type *a, const ir_type *b, ir_type *out,
                           const ast_node *at, const char *what)
{
    /* copies: out may be a or b (sp_broadcast_shape writes out->ndim first) */
    ir_type ca = *a, cb = *b;
    a = &ca;
    b = &cb;
    if (sp_broadcast_shape(a, b, out))
        return sp_broadcast_fits(s, a, b, out, at, what);
    char x[64], y[64];
    sp_shape_str(a, x, sizeof x);
    sp_shape_str(b, y, sizeof y);
    return sp_error(s, at, "%s: shapes %s and %s do not broadcast together", what, x, y);
}

bool sp_broadcast_fits(spec *s, const ir_type *a, const ir_type *b, const ir_type *joined,
                       const ast_node *at, const char *what)
{
    char x[64], y[64], op[256];
    sp_shape_str(a, x, sizeof x);
    sp_shape_str(b, y, sizeof y);
    snprintf(op, sizeof op, "%s of shapes %s and %s", what, x, y);
    return sp_check_numel(s, joined, at, op);
}

sval sp_new_tile(spec *s, ir_type t, ir_opcode op, int sub, int32_t a, int32_t b,
                        int32_t c, int64_t imm, const ast_node *at)
{
    int32_t dst = sp_slot(s, t, NULL);
    sp_emit(s, op, sub, dst, a, b, c, imm, at);
    return sv_tile(dst);
}

/* ---- hints, types, casts ------------------------------------------------- */

/* Hints for the GPU compiler: the value itself on the CPU. */
static bool tl_hint(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    if (a->argc < 1)
        return sp_error(s, call, "this hint needs the value as its first argument");
    *out = a->argv[0];
    return true;
}

static bool tl_nothing(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    (void)s, (void)a, (void)call;
    *out = sv_none();
    return true;
}

static bool tl_constexpr(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    if (!SP_BIND(s, "triton.language.constexpr", "value", a, call, p))
        return false;
    if (p[0].kind != SV_CONST)
        return sp_error(s, call, "tl.constexpr() needs a value known at compile time");
    *out = p[0];
    return true;
}

/* tl.pointer_type(element_ty, address_space=1): the dtype of a pointer to
 * element_ty, e.g. for x.to(tl.pointer_type(tl.float16)).  Pointers to
 * pointers are not part of tritsim's subset; address spaces other than 1
 * (global memory) have no meaning in kernels (Triton's to_ir uses 1). */
static bool tl_pointer_type(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    dtype elem = DTYPE_INVALID;
    if (!SP_BIND(s, "triton.language.pointer_type", "element_ty, address_space=", a, call,
                 p) ||
        !sp_want_dtype(s, p[0], call, "tl.pointer_type's element_ty", &elem))
        return false;
    if (dtype_is_ptr(elem))
        return sp_error(s, call, "tl.pointer_type: pointers to pointers (%s) are not "
                        "supported by tritsim", dtype_name(elem));
    if (!sv_is_none(p[1])) {
        int64_t space;
        if (!sp_const_int(s, p[1], call, "address_space", &space))
            return false;
        if (space != 1)
            return sp_error(s, call, "tl.pointer_type: address_space %lld is not supported "
                            "by tritsim (kernels address global memory, space 1)",
                            (long long)space);
    }
    spec_const c = {.kind = SC_DTYPE, .u.dt = dtype_ptr_to(elem)};
    *out = sv_const(c);
    return true;
}

static bool sp_method_to(spec *s, int32_t x, const sp_args *a, const ast_node *call,
                         sval *out);

/* tl.cast(input, dtype, fp_downcast_rounding=None, bitcast=False): input.to(...)
 * after making a number a tile, as Triton's to_tensor does. */
static bool tl_cast(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    if (!SP_BIND(s, "triton.language.cast", "input, dtype, fp_downcast_rounding=, bitcast=",
                 a, call, p) ||
        !sp_want_tile(s, p[0], call, "tl.cast's input", &x))
        return false;
    static const char *const names[] = {"dtype", "fp_downcast_rounding", "bitcast"};
    sp_args rest = {.nkw = 0};
    sval kwv[3];
    const char *kwn[3];
    for (int i = 0; i < 3; i++)
        if (i == 0 || !sv_is_none(p[i + 1])) {
            kwn[rest.nkw] = names[i];
            kwv[rest.nkw++] = p[i + 1];
        }
    rest.kwnames = kwn;
    rest.kwv = kwv;
    return sp_method_to(s, x, &rest, call, out);
}

/* tl.add(x, y, sanitize_overflow=True): x + y.  sanitize_overflow only
 * adds overflow checks to Triton's debug builds.  (core.py has sub and mul
 * too, but triton.language does not export them.) */
static bool tl_add(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    bool flag;
    return SP_BIND(s, "triton.language.add", "x, y, sanitize_overflow=", a, call, p) &&
           sp_const_flag(s, p[2], call, "sanitize_overflow", &flag) &&
           sp_binop(s, AST_OP_ADD, p[0], p[1], call, out);
}

/* tl.broadcast(input, other): both broadcast to their common shape. */
static bool tl_broadcast(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, y;
    ir_type t;
    if (!SP_BIND(s, "triton.language.broadcast", "input, other", a, call, p) ||
        !sp_want_tile(s, p[0], call, "tl.broadcast's input", &x) ||
        !sp_want_tile(s, p[1], call, "tl.broadcast's other", &y) ||
        !sp_shapes_join(s, sp_slot_type(s, x), sp_slot_type(s, y), &t, call, "tl.broadcast"))
        return false;
    t.dt = sp_slot_type(s, x)->dt;
    x = sp_broadcast_to(s, x, &t, call);
    t.dt = sp_slot_type(s, y)->dt;
    y = sp_broadcast_to(s, y, &t, call);
    *out = sp_pair(s, sv_tile(x), sv_tile(y));
    return true;
}

/* tl.inline_asm_elementwise: PTX (or AMDGCN) text for the GPU's assembler,
 * which a CPU cannot run and tritsim does not translate. */
static bool tl_inline_asm(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    (void)a, (void)out;
    return sp_error(s, call, "tl.inline_asm_elementwise is not supported by tritsim: its "
                    "argument is GPU assembly (PTX), which tritsim neither runs on the CPU "
                    "nor checks; write the operation with tl functions or libdevice "
                    "(see doc/language.md)");
}

static bool tl_range_outside_for(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    (void)a, (void)out;
    return sp_error(s, call, "range() can only be used as the iterable of a for loop in "
                    "a kernel");
}

/* ---- the table ------------------------------------------------------------- */


static const struct sp_builtin {
    const char *qual;
    sp_builtin_fn *fn;
    /* SPEC_FX_*: every entry states it (spec.h); -Wextra warns of an entry
     * without it, and test_spec_debug checks the flags against the names */
    int effects;
} sp_builtins[] = {
    {"triton.language.program_id", tl_program_id, SPEC_FX_NONE},
    {"triton.language.num_programs", tl_num_programs, SPEC_FX_NONE},
    {"triton.language.arange", tl_arange, SPEC_FX_NONE},
    {"triton.language.zeros", tl_zeros, SPEC_FX_NONE},
    {"triton.language.full", tl_full, SPEC_FX_NONE},
    {"triton.language.zeros_like", tl_zeros_like, SPEC_FX_NONE},
    {"triton.language.load", tl_load, SPEC_FX_NONE},
    {"triton.language.make_block_ptr", tl_make_block_ptr, SPEC_FX_NONE},
    {"triton.language.advance", tl_advance, SPEC_FX_NONE},
    {"triton.language.make_tensor_descriptor", tl_make_tensor_descriptor, SPEC_FX_NONE},
    {"triton.language.load_tensor_descriptor", tl_load_tensor_descriptor, SPEC_FX_NONE},
    {"triton.language.store_tensor_descriptor", tl_store_tensor_descriptor, SPEC_FX_WRITES},
    {"triton.language.store", tl_store, SPEC_FX_WRITES},
    {"triton.language.dot", tl_dot, SPEC_FX_NONE},
    {"triton.language.dot_scaled", tl_dot_scaled, SPEC_FX_NONE},
    {"triton.language.atomic_add", tl_atomic_add, SPEC_FX_WRITES},
    {"triton.language.atomic_max", tl_atomic_max, SPEC_FX_WRITES},
    {"triton.language.atomic_min", tl_atomic_min, SPEC_FX_WRITES},
    {"triton.language.atomic_xchg", tl_atomic_xchg, SPEC_FX_WRITES},
    {"triton.language.atomic_cas", tl_atomic_cas, SPEC_FX_WRITES},
    {"triton.language.atomic_and", tl_atomic_and, SPEC_FX_WRITES},
    {"triton.language.atomic_or", tl_atomic_or, SPEC_FX_WRITES},
    {"triton.language.atomic_xor", tl_atomic_xor, SPEC_FX_WRITES},
    {"triton.language.where", tl_where, SPEC_FX_NONE},
    {"triton.language.minimum", tl_minimum, SPEC_FX_NONE},
    {"triton.language.maximum", tl_maximum, SPEC_FX_NONE},
    {"triton.language.cdiv", tl_cdiv, SPEC_FX_NONE},
    {"triton.language.swizzle2d", tl_swizzle2d, SPEC_FX_NONE},
    {"triton.language.expand_dims", tl_expand_dims, SPEC_FX_NONE},
    {"triton.language.reshape", tl_reshape, SPEC_FX_NONE},
    {"triton.language.view", tl_reshape, SPEC_FX_NONE},
    {"triton.language.broadcast_to", tl_broadcast_to, SPEC_FX_NONE},
    {"triton.language.trans", tl_trans, SPEC_FX_NONE},
    {"triton.language.permute", tl_trans, SPEC_FX_NONE},
    {"triton.language.join", tl_join, SPEC_FX_NONE},
    {"triton.language.split", tl_split, SPEC_FX_NONE},
    {"triton.language.interleave", tl_interleave, SPEC_FX_NONE},
    {"triton.language.cat", tl_cat, SPEC_FX_NONE},
    {"triton.language.ravel", tl_ravel, SPEC_FX_NONE},
    {"triton.language.flip", tl_flip, SPEC_FX_NONE},
    {"triton.language.gather", tl_gather, SPEC_FX_NONE},
    {"triton.language.histogram", tl_histogram, SPEC_FX_NONE},
    {"triton.language.sum", tl_sum, SPEC_FX_NONE},
    {"triton.language.max", tl_max, SPEC_FX_NONE},
    {"triton.language.min", tl_min, SPEC_FX_NONE},
    {"triton.language.argmax", tl_argmax, SPEC_FX_NONE},
    {"triton.language.argmin", tl_argmin, SPEC_FX_NONE},
    {"triton.language.xor_sum", tl_xor_sum, SPEC_FX_NONE},
    {"triton.language.cumsum", tl_cumsum, SPEC_FX_NONE},
    {"triton.language.cumprod", tl_cumprod, SPEC_FX_NONE},
    {"triton.language.reduce", tl_reduce, SPEC_FX_NONE},
    {"triton.language.associative_scan", tl_associative_scan, SPEC_FX_NONE},
    {"triton.language.exp", tl_exp, SPEC_FX_NONE},
    {"triton.language.exp2", tl_exp2, SPEC_FX_NONE},
    {"triton.language.log", tl_log, SPEC_FX_NONE},
    {"triton.language.log2", tl_log2, SPEC_FX_NONE},
    {"triton.language.sqrt", tl_sqrt, SPEC_FX_NONE},
    {"triton.language.sqrt_rn", tl_sqrt_rn, SPEC_FX_NONE},
    {"triton.language.rsqrt", tl_rsqrt, SPEC_FX_NONE},
    {"triton.language.sin", tl_sin, SPEC_FX_NONE},
    {"triton.language.cos", tl_cos, SPEC_FX_NONE},
    {"triton.language.abs", tl_abs, SPEC_FX_NONE},
    {"triton.language.floor", tl_floor, SPEC_FX_NONE},
    {"triton.language.ceil", tl_ceil, SPEC_FX_NONE},
    {"triton.language.erf", tl_erf, SPEC_FX_NONE},
    {"triton.language.sigmoid", tl_sigmoid, SPEC_FX_NONE},
    {"triton.language.randint", tl_randint, SPEC_FX_NONE},
    {"triton.language.randint4x", tl_randint4x, SPEC_FX_NONE},
    {"triton.language.rand", tl_rand, SPEC_FX_NONE},
    {"triton.language.rand4x", tl_rand4x, SPEC_FX_NONE},
    {"triton.language.randn", tl_randn, SPEC_FX_NONE},
    {"triton.language.randn4x", tl_randn4x, SPEC_FX_NONE},
    {"triton.language.softmax", tl_softmax, SPEC_FX_NONE},
    {"triton.language.fma", tl_fma, SPEC_FX_NONE},
    {"triton.language.umulhi", tl_umulhi, SPEC_FX_NONE},
    {"triton.language.fdiv", tl_fdiv, SPEC_FX_NONE},
    {"triton.language.div_rn", tl_div_rn, SPEC_FX_NONE},
    {"triton.language.clamp", tl_clamp, SPEC_FX_NONE},
    {"triton.language.static_range", tl_range_outside_for, SPEC_FX_NONE},
    {"triton.language.range", tl_range_outside_for, SPEC_FX_NONE},
    {"triton.language.static_print", tl_static_print, SPEC_FX_PRINTS},
    {"triton.language.static_assert", tl_static_assert, SPEC_FX_NONE},
    {"triton.language.device_print", tl_device_print, SPEC_FX_PRINTS},
    {"triton.language.device_assert", tl_device_assert, SPEC_FX_STOPS | SPEC_FX_PRINTS},
    {"triton.language.multiple_of", tl_hint, SPEC_FX_NONE},
    {"triton.language.max_contiguous", tl_hint, SPEC_FX_NONE},
    {"triton.language.max_constancy", tl_hint, SPEC_FX_NONE},
    {"triton.language.assume", tl_nothing, SPEC_FX_NONE},
    {"triton.language.debug_barrier", tl_nothing, SPEC_FX_NONE},
    {"triton.language.constexpr", tl_constexpr, SPEC_FX_NONE},
    {"triton.language.pointer_type", tl_pointer_type, SPEC_FX_NONE},
    {"triton.language.cast", tl_cast, SPEC_FX_NONE},
    {"triton.language.add", tl_add, SPEC_FX_NONE},
    {"triton.language.broadcast", tl_broadcast, SPEC_FX_NONE},
    {"triton.language.reduce_or", tl_reduce_or, SPEC_FX_NONE},
    {"triton.language.sort", tl_sort, SPEC_FX_NONE},
    {"triton.language.topk", tl_topk, SPEC_FX_NONE},
    {"triton.language.bitonic_merge", tl_bitonic_merge, SPEC_FX_NONE},
    {"triton.language.inline_asm_elementwise", tl_inline_asm, SPEC_FX_NONE},
    {"triton.language.extra.cuda.gdc_wait", tl_nothing, SPEC_FX_NONE},
    {"triton.language.extra.cuda.gdc_launch_dependents", tl_nothing, SPEC_FX_NONE},
    {"triton.cdiv", tl_cdiv, SPEC_FX_NONE},
    {"triton.next_power_of_2", triton_next_power_of_2, SPEC_FX_NONE},
    {"triton_util.cdiv", tl_cdiv, SPEC_FX_NONE},
    {"triton_util.print_if", util_print_if, SPEC_FX_PRINTS},
    {"triton_util.breakpoint_if", util_breakpoint_if, SPEC_FX_STOPS},
    {"triton_util.check_tensors_gpu_ready", util_host_only, SPEC_FX_NONE},
    {"builtins.range", tl_range_outside_for, SPEC_FX_NONE},
    {"builtins.print", sp_builtin_print, SPEC_FX_PRINTS},
    {"builtins.breakpoint", sp_builtin_breakpoint, SPEC_FX_STOPS},
    {"pdb.set_trace", sp_builtin_breakpoint, SPEC_FX_STOPS},
    {"IPython.core.debugger.set_trace", sp_builtin_breakpoint, SPEC_FX_STOPS},
    {"builtins.min", sp_builtin_min, SPEC_FX_NONE},
    {"builtins.max", sp_builtin_max, SPEC_FX_NONE},
    {"builtins.len", sp_builtin_len, SPEC_FX_NONE},
    {"builtins.int", sp_builtin_int, SPEC_FX_NONE},
    {"builtins.float", sp_builtin_float, SPEC_FX_NONE},
    {"builtins.bool", sp_builtin_bool, SPEC_FX_NONE},
    {"builtins.isinstance", sp_builtin_isinstance, SPEC_FX_NONE},
};

static const struct sp_builtin *sp_find_builtin(const char *qual)
{
    /* tl.math.X is tl.X for the functions of Triton's math.py (3.6 has no
     * tl.math.max or min). */
    static const char *const math_names[] = {
        "umulhi", "exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "sqrt_rn", "rsqrt",
        "abs", "fdiv", "div_rn", "erf", "floor", "ceil", "fma", NULL,
    };
    char buf[128];
    if (!strncmp(qual, "triton.language.math.", 21)) {
        const char *name = qual + 21;
        int i = 0;
        while (math_names[i] && strcmp(math_names[i], name))
            i++;
        if (!math_names[i])
            return NULL;
        snprintf(buf, sizeof buf, "triton.language.%s", name);
        qual = buf;
    }
    for (size_t i = 0; i < sizeof sp_builtins / sizeof sp_builtins[0]; i++)
        if (!strcmp(sp_builtins[i].qual, qual))
            return &sp_builtins[i];
    return NULL;
}

bool spec_has_builtin(const char *qualname)
{
    return sp_find_builtin(qualname) != NULL || sp_libdevice_has(qualname);
}

/* The table's entries, then libdevice's functions (all pure). */
enum { SP_NBUILTINS = sizeof sp_builtins / sizeof sp_builtins[0] };

const char *spec_builtin_name(int i)
{
    if (i < 0)
        return NULL;
    return i < SP_NBUILTINS ? sp_builtins[i].qual : sp_libdevice_name(i - SP_NBUILTINS);
}

int spec_builtin_effects(int i)
{
    if (i < 0 || !spec_builtin_name(i))
        return -1;
    return i < SP_NBUILTINS ? sp_builtins[i].effects : SPEC_FX_NONE;
}

bool sp_call_builtin(spec *s, const char *qual, const sp_args *args, const ast_node *call,
                     sval *out)
{
    if (sp_libdevice_has(qual))
        return (!s->dbg_expr || sp_dbg_pure(s, qual, SPEC_FX_NONE, call)) &&
               sp_libdevice_call(s, qual, args, call, out);
    const struct sp_builtin *b = sp_find_builtin(qual);
    if (!b) {
        char buf[128];
        return sp_error(s, call, "%s is not supported in kernels by tritsim (see "
                        "doc/language.md)", sp_display_name(qual, buf, sizeof buf));
    }
    if (s->dbg_expr && !sp_dbg_pure(s, qual, b->effects, call))
        return false;
    return b->fn(s, args, call, out);
}

static bool sp_is_submodule(const char *q)
{
    static const char *const subs[] = {
        "triton.language", "triton.language.math", "triton.language.extra",
        "triton.language.extra.libdevice", "triton.language.extra.cuda",
        "triton.language.extra.cuda.libdevice", "triton.language.PropagateNan", NULL,
    };
    for (int i = 0; subs[i]; i++)
        if (!strcmp(subs[i], q))
            return true;
    return false;
}

bool sp_module_attr(spec *s, const char *module, const char *attr, const ast_node *at,
                    sval *out)
{
    char *q = arena_alloc(s->a, strlen(module) + strlen(attr) + 2);
    sprintf(q, "%s.%s", module, attr);
    if (sp_is_submodule(q)) {
        *out = (sval){.kind = SV_MODULE, .name = q, .slot = -1};
        return true;
    }
    if (!strcmp(module, "triton.language")) {
        dtype dt = dtype_from_tl_attr(attr);
        if (dt != DTYPE_INVALID) {
            spec_const c = {.kind = SC_DTYPE, .u.dt = dt};
            *out = sv_const(c);
            return true;
        }
    }
    /* classes, for isinstance (sp_builtin_isinstance); calling one is an
     * error that names it */
    if (!strcmp(module, "triton.language") &&
        (!strcmp(attr, "tensor") || !strcmp(attr, "tensor_descriptor") ||
         !strcmp(attr, "dtype") || !strcmp(attr, "block_type"))) {
        *out = (sval){.kind = SV_FUNC, .name = q, .slot = -1};
        return true;
    }
    if (!strcmp(module, "triton.language") && !strcmp(attr, "TRITON_MAX_TENSOR_NUMEL")) {
        *out = sv_int(1 << 20);
        return true;
    }
    if (!strcmp(module, "triton.language.PropagateNan") &&
        (!strcmp(attr, "ALL") || !strcmp(attr, "NONE"))) {
        spec_const c = {.kind = SC_STR};
        c.u.str.s = attr;
        c.u.str.len = strlen(attr);
        *out = sv_const(c);
        return true;
    }
    if (!strcmp(module, "math")) {
        static const struct { const char *name; double v; } consts[] = {
            {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"inf", INFINITY}, {"nan", NAN},
        };
        for (size_t i = 0; i < 4; i++)
            if (!strcmp(attr, consts[i].name)) {
                spec_const c = {.kind = SC_FLOAT, .u.f = consts[i].v};
                *out = sv_const(c);
                return true;
            }
    }
    if (sp_find_builtin(q) || sp_libdevice_has(q)) {
        *out = (sval){.kind = SV_FUNC, .name = q, .slot = -1};
        return true;
    }
    /* a module of the program: its jit functions and constants */
    if (s->host->lookup_attr && strcmp(module, "triton") && strncmp(module, "triton.", 7) &&
        strcmp(module, "math")) {
        bool known = false;
        spec_global g = s->host->lookup_attr(s->host->ctx, module, attr, &known);
        if (g.kind != SPEC_G_UNDEFINED)
            return sp_global_sval(s, g, at, q, out);
        if (known)
            return sp_error(s, at, "module '%s' has no attribute '%s'", module, attr);
    }
    char buf[128];
    return sp_error(s, at, "%s is not supported by tritsim (see doc/language.md)",
                    sp_display_name(q, buf, sizeof buf));
}

/* ---- tile attributes and methods ------------------------------------------- */

bool sp_tile_attr(spec *s, sval tile, const char *attr, const ast_node *at, sval *out)
{
    const ir_type *t = sp_slot_type(s, tile.slot);
    if (!strcmp(attr, "dtype")) {
        spec_const c = {.kind = SC_DTYPE, .u.dt = t->dt};
        *out = sv_const(c);
        return true;
    }
    if (!strcmp(attr, "shape")) {
        spec_const c = {.kind = SC_TUPLE};
        c.u.tuple.n = t->ndim;
        c.u.tuple.items = arena_alloc(s->a, (size_t)(t->ndim + 1) * sizeof *c.u.tuple.items);
        for (int i = 0; i < t->ndim; i++)
            c.u.tuple.items[i] = (spec_const){.kind = SC_INT, .u.i = t->shape[i]};
        *out = sv_const(c);
        return true;
    }
    if (!strcmp(attr, "T")) {
        sp_args a = {.argc = 1, .argv = &tile};
        return tl_trans(s, &a, at, out);
    }
    if (!strcmp(attr, "type"))
        return sp_tile_type(s, tile.slot, out);
    if (!strcmp(attr, "numel")) {
        *out = sv_int(ir_type_numel(t));
        return true;
    }
    /* Triton 3.6's tensor methods: each is the tl function of that name
     * with the tile first (x.cast is tl.cast, p.store(v) is tl.store(p, v)) */
    static const char *const methods[] = {
        "to", "cast", "sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce_or",
        "cumsum", "cumprod", "reshape", "view", "trans", "permute", "broadcast_to",
        "expand_dims", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos",
        "floor", "ceil", "erf", "abs", "sigmoid", "softmax", "fma", "cdiv", "div_rn", "flip",
        "ravel", "split", "reduce", "associative_scan", "gather", "histogram", "sort",
        "logical_and", "logical_or", "store", "atomic_add", "atomic_max", "atomic_min",
        "atomic_xchg", "atomic_cas", "atomic_and", "atomic_or", "atomic_xor", "randint",
        "randint4x", "rand", "randn", NULL,
    };
    for (int i = 0; methods[i]; i++)
        if (!strcmp(methods[i], attr)) {
            *out = (sval){.kind = SV_METHOD, .slot = tile.slot, .name = methods[i]};
            return true;
        }
    return sp_error(s, at, "tiles have no attribute '%s' in tritsim (see doc/language.md)",
                    attr);
}

static bool sp_method_to(spec *s, int32_t x, const sp_args *a, const ast_node *call,
                         sval *out)
{
    sval p[3];
    dtype dt = DTYPE_INVALID;
    if (!SP_BIND(s, "to", "dtype, fp_downcast_rounding=, bitcast=", a, call, p) ||
        !sp_want_dtype(s, p[0], call, "dtype", &dt))
        return false;
    ir_type t = *sp_slot_type(s, x);
    /* Triton's bitcast: the same type is the input itself, and a pointer
     * on either side makes it an ordinary cast */
    bool bitcast = !sv_is_none(p[2]) && p[2].kind == SV_CONST && sp_const_truth(&p[2].c);
    if (bitcast && dt == t.dt) {
        *out = sv_tile(x);
        return true;
    }
    if (bitcast && !dtype_is_ptr(dt) && !dtype_is_ptr(t.dt)) {
        if (dtype_size(dt) != dtype_size(t.dt))
            return sp_error(s, call, "bitcast between types of different sizes (%s and %s)",
                            dtype_name(t.dt), dtype_name(dt));
        t.dt = dt;
        *out = sp_new_tile(s, t, IR_BITCAST, 0, x, -1, -1, 0, call);
        return true;
    }
    if (!sv_is_none(p[1])) {
        /* Triton: only for a narrowing float conversion from fp32 or wider */
        const char *mode = "";
        if (!sp_want_str(s, p[1], call, "fp_downcast_rounding", &mode))
            return false;
        if (strcmp(mode, "rtne") && strcmp(mode, "rtz"))
            return sp_error(s, call, "fp_downcast_rounding must be \"rtne\" or \"rtz\", "
                            "not \"%s\"", mode);
        if (!dtype_is_float(t.dt) || !dtype_is_float(dt) || dtype_bits(t.dt) < 32 ||
            dtype_bits(dt) >= dtype_bits(t.dt))
            return sp_error(s, call, "fp_downcast_rounding is only for narrowing a float "
                            "of 32 bits or more to a smaller float (here %s to %s)",
                            dtype_name(t.dt), dtype_name(dt));
        if (!strcmp(mode, "rtz")) {
            t.dt = dt;
            *out = sp_new_tile(s, t, IR_CAST, IR_CAST_RTZ, x, -1, -1, 0, call);
            return true;
        }
    }
    if (!dtype_can_cast(t.dt, dt))
        return sp_error(s, call, "cannot cast %s to %s", dtype_name(t.dt), dtype_name(dt));
    *out = sv_tile(sp_cast(s, x, dt, call));
    return true;
}

/* x.logical_and(y), x.logical_or(y): Triton's semantic bitcasts each side
 * to int1, so both must be int1 tiles already. */
static bool sp_method_logical(spec *s, sval m, const sp_args *a, const ast_node *call,
                              sval *out)
{
    sval p[1];
    int32_t y;
    bool is_and = !strcmp(m.name, "logical_and");
    if (!sp_bind_args(s, m.name, "other", a, call, p, 1))
        return false;
    if (p[0].kind != SV_TILE)
        return sp_error(s, call, "%s needs a tile of int1 as its argument, not %s", m.name,
                        sp_describe(s, p[0], (char[128]){0}, 128));
    y = p[0].slot;
    int32_t side[2] = {m.slot, y};
    for (int i = 0; i < 2; i++) {
        dtype dt = sp_slot_type(s, side[i])->dt;
        if (dt != DTYPE_INT1)
            return sp_error(s, call, "%s works on int1 tiles (Triton bitcasts both sides to "
                            "int1, which fails for %s: \"Cannot bitcast data-type of size "
                            "%d to data-type of size 1\"); compare with != 0 first", m.name,
                            dtype_name(dt), dtype_bits(dt));
    }
    return sp_binop(s, is_and ? AST_OP_BITAND : AST_OP_BITOR, sv_tile(m.slot), sv_tile(y),
                    call, out);
}

bool sp_call_method(spec *s, sval m, const sp_args *args, const ast_node *call, sval *out)
{
    if (m.items)           /* a tensor descriptor's method */
        return sp_desc_call(s, m, args, call, out);
    if (m.slot < 0)        /* a type's query method */
        return sp_type_method_call(s, m, args, call, out);
    if (!strcmp(m.name, "to"))
        return sp_method_to(s, m.slot, args, call, out);
    if (!strcmp(m.name, "logical_and") || !strcmp(m.name, "logical_or"))
        return sp_method_logical(s, m, args, call, out);
    /* The other methods are tl functions with the tile first. */
    sval *argv = arena_alloc(s->a, (size_t)(args->argc + 1) * sizeof *argv);
    argv[0] = sv_tile(m.slot);
    for (int i = 0; i < args->argc; i++)
        argv[i + 1] = args->argv[i];
    sp_args a = *args;
    a.argc = args->argc + 1;
    a.argv = argv;
    char q[64];
    snprintf(q, sizeof q, "triton.language.%s", m.name);
    return sp_call_builtin(s, q, &a, call, out);
}
