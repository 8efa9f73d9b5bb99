/* spec_tl.c - the functions a kernel can call while it is specialized:
 * triton.language (tl.*), the tile methods (x.to, x.sum, ...), the Python
 * builtins kernels may use (range, min, print, ...), triton.cdiv and the
 * lecture's triton_util helpers (print_if, breakpoint_if).  Each becomes
 * IR through spec.c's helpers, or folds when its arguments are constants.
 *
 * Every function declares its Python signature as a string ("pointer, mask=,
 * other="); sp_bind_args binds positional and keyword arguments to it the
 * way Python does, so messages about arguments are uniform. */
#define _POSIX_C_SOURCE 200809L
#include "spec_tl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
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

static bool sp_want_dtype(spec *s, sval v, const ast_node *at, const char *what, dtype *dt)
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
static bool sp_want_shape(spec *s, sval v, const ast_node *at, ir_type *t)
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
        return true;
    char x[64], y[64];
    sp_shape_str(a, x, sizeof x);
    sp_shape_str(b, y, sizeof y);
    return sp_error(s, at, "%s: shapes %s and %s do not broadcast together", what, x, y);
}

sval sp_new_tile(spec *s, ir_type t, ir_opcode op, int sub, int32_t a, int32_t b,
                        int32_t c, int64_t imm, const ast_node *at)
{
    int32_t dst = sp_slot(s, t, NULL);
    sp_emit(s, op, sub, dst, a, b, c, imm, at);
    return sv_tile(dst);
}

/* ---- program ids, ranges, constants ------------------------------------- */

static bool sp_axis(spec *s, sval v, const ast_node *at, int64_t *axis)
{
    if (!sp_const_int(s, v, at, "axis", axis))
        return false;
    if (*axis < 0 || *axis > 2)
        return sp_error(s, at, "axis must be 0, 1 or 2, not %lld", (long long)*axis);
    return true;
}

static bool tl_program_id(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int64_t axis;
    if (!SP_BIND(s, "triton.language.program_id", "axis", a, call, p) ||
        !sp_axis(s, p[0], call, &axis))
        return false;
    *out = sp_new_tile(s, sp_scalar_type(DTYPE_INT32), IR_PROGRAM_ID, 0, -1, -1, -1, axis, call);
    return true;
}

static bool tl_num_programs(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int64_t axis;
    if (!SP_BIND(s, "triton.language.num_programs", "axis", a, call, p) ||
        !sp_axis(s, p[0], call, &axis))
        return false;
    *out = sp_new_tile(s, sp_scalar_type(DTYPE_INT32), IR_NUM_PROGRAMS, 0, -1, -1, -1, axis,
                       call);
    return true;
}

static bool tl_arange(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int64_t start, end;
    if (!SP_BIND(s, "triton.language.arange", "start, end", a, call, p) ||
        !sp_const_int(s, p[0], call, "tl.arange's start", &start) ||
        !sp_const_int(s, p[1], call, "tl.arange's end", &end))
        return false;
    int64_t n = end - start;
    if (end <= start)
        return sp_error(s, call, "tl.arange(%lld, %lld) is empty: end must be greater than "
                        "start", (long long)start, (long long)end);
    if (n & (n - 1))
        return sp_error(s, call, "tl.arange(%lld, %lld) has %lld elements, but the range "
                        "must be a power of two (as in Triton); use %lld and a mask",
                        (long long)start, (long long)end, (long long)n,
                        (long long)(1LL << (64 - __builtin_clzll((uint64_t)n))));
    if (n > (1 << 20) || start < INT32_MIN || end > INT32_MAX)
        return sp_error(s, call, "tl.arange range is too large (at most 1048576 elements "
                        "within int32)");
    int32_t shape[1] = {(int32_t)n};
    *out = sp_new_tile(s, sp_type(DTYPE_INT32, 1, shape), IR_ARANGE, 0, -1, -1, -1, start, call);
    return true;
}

/* A tile of shape t filled with v (a number or a scalar tile). */
static bool sp_fill(spec *s, ir_type t, sval v, const ast_node *at, sval *out)
{
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_FLOAT ||
                               v.c.kind == SC_BOOL)) {
        /* CONST fills its destination, whatever the shape */
        int32_t c = sp_const_slot(s, &v.c, t.dt, at);
        s->slots[c].type = t;
        *out = sv_tile(c);
        return true;
    }
    int32_t x;
    if (!sp_want_tile(s, v, at, "the fill value", &x))
        return false;
    if (sp_slot_type(s, x)->ndim != 0)
        return sp_error(s, at, "the fill value must be a scalar");
    x = sp_cast(s, x, t.dt, at);
    *out = sv_tile(sp_materialize(s, x, &t, at));
    return true;
}

static bool tl_zeros(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    ir_type t = {0};
    if (!SP_BIND(s, "triton.language.zeros", "shape, dtype", a, call, p) ||
        !sp_want_shape(s, p[0], call, &t) || !sp_want_dtype(s, p[1], call, "dtype", &t.dt))
        return false;
    return sp_fill(s, t, sv_int(0), call, out);
}

static bool tl_full(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    ir_type t = {0};
    if (!SP_BIND(s, "triton.language.full", "shape, value, dtype", a, call, p) ||
        !sp_want_shape(s, p[0], call, &t) || !sp_want_dtype(s, p[2], call, "dtype", &t.dt))
        return false;
    return sp_fill(s, t, p[1], call, out);
}

static bool tl_zeros_like(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int32_t x;
    if (!SP_BIND(s, "triton.language.zeros_like", "input", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    return sp_fill(s, *sp_slot_type(s, x), sv_int(0), call, out);
}

/* ---- memory ----------------------------------------------------------- */

bool sp_want_pointer(spec *s, sval v, const ast_node *at, int32_t *slot)
{
    if (v.kind == SV_TILE && dtype_is_ptr(sp_slot_type(s, v.slot)->dt)) {
        *slot = v.slot;
        return true;
    }
    char buf[128];
    return sp_error(s, at, "expected a pointer (a tensor argument plus offsets), found %s",
                    sp_describe(s, v, buf, sizeof buf));
}

bool sp_mem_cast(spec *s, int32_t *slot, dtype elem, const ast_node *at, const char *what)
{
    dtype from = sp_slot_type(s, *slot)->dt;
    if (!dtype_can_cast(from, elem))
        return sp_error(s, at, "%s is %s, which Triton cannot cast to %s, the pointer's element "
                        "type%s", what, dtype_name(from), dtype_name(elem),
                        dtype_is_fp8(elem) && dtype_is_int(from)
                        ? " (it has no int -> fp8 cast): use a float (0.0 for a constant, "
                          ".to(tl.float32) for a tile)" : "");
    *slot = sp_cast(s, *slot, elem, at);
    return true;
}

/* Broadcast a pointer tile and a mask (and a value) to their common shape. */
static bool sp_mem_shapes(spec *s, int32_t *ptr, int32_t *mask, int32_t *val,
                          const ast_node *at, const char *what)
{
    ir_type shape = *sp_slot_type(s, *ptr);
    if (*mask >= 0 && !sp_shapes_join(s, &shape, sp_slot_type(s, *mask), &shape, at, what))
        return false;
    if (val && *val >= 0 && !sp_shapes_join(s, &shape, sp_slot_type(s, *val), &shape, at, what))
        return false;
    *ptr = sp_materialize(s, *ptr, &shape, at);
    if (*mask >= 0)
        *mask = sp_broadcast_to(s, *mask, &shape, at);
    if (val && *val >= 0)
        *val = sp_broadcast_to(s, *val, &shape, at);
    return true;
}

static bool sp_check_block_args(spec *s, sval boundary_check, sval padding, const ast_node *at)
{
    sval bc = boundary_check;
    bool empty = sv_is_none(bc) || (bc.kind == SV_TUPLE && bc.n == 0) ||
                 (bc.kind == SV_CONST && bc.c.kind == SC_TUPLE && bc.c.u.tuple.n == 0);
    bool nopad = sv_is_none(padding) ||
                 (padding.kind == SV_CONST && padding.c.kind == SC_STR && !padding.c.u.str.len);
    if (!empty || !nopad)
        return sp_error(s, at, "boundary_check and padding_option need a block pointer "
                        "(tl.make_block_ptr); mask an ordinary pointer with mask=");
    return true;
}

static bool tl_load(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[8];
    int32_t ptr, mask, other = -1;
    if (!SP_BIND(s, "triton.language.load",
                      "pointer, mask=, other=, boundary_check=, padding_option=, "
                      "cache_modifier=, eviction_policy=, volatile=", a, call, p))
        return false;
    if (p[0].kind == SV_BLOCKPTR)
        return sp_block_load(s, p, call, out);
    if (!sp_want_pointer(s, p[0], call, &ptr) || !sp_want_mask(s, p[1], call, &mask) ||
        !sp_check_block_args(s, p[3], p[4], call))
        return false;
    dtype elem = dtype_elem(sp_slot_type(s, ptr)->dt);
    if (!sv_is_none(p[2])) {
        if (mask < 0 && !(p[1].kind == SV_CONST && p[1].c.kind == SC_BOOL))
            return sp_error(s, call, "tl.load: 'other' needs a mask");
        if (!sp_want_tile(s, p[2], call, "other", &other) ||
            !sp_mem_cast(s, &other, elem, call, "tl.load: other"))
            return false;
    }
    if (!sp_mem_shapes(s, &ptr, &mask, &other, call, "tl.load"))
        return false;
    ir_type t = *sp_slot_type(s, ptr);
    t.dt = elem;
    *out = sp_new_tile(s, t, IR_LOAD, 0, ptr, mask, other, 0, call);
    return true;
}

static bool tl_store(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[6];
    int32_t ptr, val, mask;
    if (!SP_BIND(s, "triton.language.store",
                      "pointer, value, mask=, boundary_check=, cache_modifier=, "
                      "eviction_policy=", a, call, p))
        return false;
    if (p[0].kind == SV_BLOCKPTR)
        return sp_block_store(s, p, call, out);
    if (!sp_want_pointer(s, p[0], call, &ptr) || !sp_want_tile(s, p[1], call, "value", &val) ||
        !sp_want_mask(s, p[2], call, &mask) || !sp_check_block_args(s, p[3], sv_none(), call))
        return false;
    dtype elem = dtype_elem(sp_slot_type(s, ptr)->dt);
    const ir_type *vt = sp_slot_type(s, val);
    ir_type pt = *sp_slot_type(s, ptr), joined;
    /* The value may not have more dimensions than the pointer and mask. */
    if (!sp_shapes_join(s, &pt, vt, &joined, call, "tl.store") ||
        !sp_mem_cast(s, &val, elem, call, "tl.store: the value"))
        return false;
    if (!sp_mem_shapes(s, &ptr, &mask, &val, call, "tl.store"))
        return false;
    val = sp_materialize(s, val, sp_slot_type(s, ptr), call);
    sp_emit(s, IR_STORE, 0, -1, ptr, val, mask, 0, call);
    *out = sv_none();
    return true;
}

/* ---- arithmetic ------------------------------------------------------- */

/* tl.dot's operand shapes, as Triton 3.6 checks them: the same rank, at
 * least 2 ([M, K] @ [K, N]; leading dimensions are batches, one 2-D product
 * each), the same batch shape and K, and K no smaller than the NVIDIA
 * backend's minimum.  *rt gets the result's ndim and shape. */
static bool dot_shapes(spec *s, const ir_type *tx, const ir_type *ty, const ast_node *call,
                       ir_type *rt)
{
    char x[64], y[64];
    sp_shape_str(tx, x, sizeof x);
    sp_shape_str(ty, y, sizeof y);
    int nd = tx->ndim;
    if (nd < 2 || ty->ndim != nd) {
        const char *fix =
            tx->ndim < 2 || ty->ndim < 2 ? "for a product of vectors use tl.sum(x * y)" :
            "broadcast the 2-D operand along the batch, e.g. "
            "tl.broadcast_to(w[None, :, :], (B, K, N))";
        return sp_error(s, call, "tl.dot needs two tiles of the same rank, at least 2 "
                        "([M, K] @ [K, N], or batched [B, M, K] @ [B, K, N]), got %s @ %s; "
                        "%s", x, y, fix);
    }
    for (int i = 0; i < nd - 2; i++)
        if (tx->shape[i] != ty->shape[i])
            return sp_error(s, call, "tl.dot: the batch dimensions differ: %s @ %s; give "
                            "both operands the same batch shape ([B, M, K] @ [B, K, N])",
                            x, y);
    if (tx->shape[nd - 1] != ty->shape[nd - 2])
        return sp_error(s, call, "tl.dot: the inner dimensions differ: %s @ %s", x, y);
    /* Triton 3.6's NVIDIA backend (min_dot_size): K >= 32 for 8-bit
     * operands, 4 for 64-bit ones, 16 for the rest; any M and N. */
    int bits = dtype_bits(tx->dt);
    int64_t min_k = bits == 8 ? 32 : bits == 64 ? 4 : 16;
    if (tx->shape[nd - 1] < min_k)
        return sp_error(s, call, "tl.dot needs K >= %lld for %s operands, as Triton on an "
                        "NVIDIA GPU (\"Input shapes should have M >= 1, N >= 1 and K >= "
                        "%lld\"): got %s @ %s; make the K block larger", (long long)min_k,
                        dtype_name(tx->dt), (long long)min_k, x, y);
    rt->ndim = (int8_t)nd;
    for (int i = 0; i < nd - 2; i++)
        rt->shape[i] = tx->shape[i];
    rt->shape[nd - 2] = tx->shape[nd - 2];
    rt->shape[nd - 1] = ty->shape[nd - 1];
    return true;
}

static bool tl_dot(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[7];
    int32_t x, y, acc = -1;
    if (!SP_BIND(s, "triton.language.dot",
                      "input, other, acc=, input_precision=, allow_tf32=, "
                      "max_num_imprecise_acc=, out_dtype=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) || !sp_want_tile(s, p[1], call, "other", &y))
        return false;
    const ir_type *tx = sp_slot_type(s, x), *ty = sp_slot_type(s, y);
    ir_type shape = {0};
    if (!dot_shapes(s, tx, ty, call, &shape))
        return false;
    dtype in = tx->dt;
    /* Triton takes any two fp8 operands (fp8e4nv with fp8e5 too) */
    bool fp8 = dtype_is_fp8(tx->dt) && dtype_is_fp8(ty->dt);
    if (ty->dt != in && !fp8)
        return sp_error(s, call, "tl.dot: both operands must have the same dtype (%s and %s); "
                        "cast one with .to()", dtype_name(tx->dt), dtype_name(ty->dt));
    dtype res;
    if (in == DTYPE_INT8)
        res = DTYPE_INT32;
    else if (fp8 || in == DTYPE_FP16 || in == DTYPE_BF16 || in == DTYPE_FP32 ||
             in == DTYPE_FP64)
        res = in == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
    else
        return sp_error(s, call, "tl.dot does not support %s operands (use fp8e4nv, fp8e5, "
                        "fp16, bf16, fp32 or int8)", dtype_name(in));
    if (!sv_is_none(p[6])) {
        dtype od = DTYPE_INVALID;
        if (!sp_want_dtype(s, p[6], call, "out_dtype", &od))
            return false;
        if (od == DTYPE_FP16 && (in == DTYPE_FP16 || fp8))
            res = DTYPE_FP16;
        else if (od != res)
            return sp_error(s, call, "tl.dot: out_dtype %s is not possible for %s inputs",
                            dtype_name(od), dtype_name(in));
    }
    /* Precision of fp32 inputs: Triton's default is tf32, like the GPU. */
    ir_precision prec = IR_PREC_TF32;
    if (!sv_is_none(p[4])) {
        if (p[4].kind != SV_CONST || p[4].c.kind != SC_BOOL)
            return sp_error(s, call, "allow_tf32 must be True or False");
        prec = p[4].c.u.b ? IR_PREC_TF32 : IR_PREC_IEEE;
    }
    if (!sv_is_none(p[3])) {
        const char *ip = "";
        if (!sp_want_str(s, p[3], call, "input_precision", &ip))
            return false;
        if (!strcmp(ip, "ieee"))
            prec = IR_PREC_IEEE;
        else if (!strcmp(ip, "tf32"))
            prec = IR_PREC_TF32;
        else if (!strcmp(ip, "tf32x3"))
            prec = IR_PREC_TF32X3;
        else
            return sp_error(s, call, "input_precision must be \"ieee\", \"tf32\" or "
                            "\"tf32x3\", not \"%s\"", ip);
    }
    if (in != DTYPE_FP32)
        prec = IR_PREC_IEEE;
    ir_type rt = sp_type(res, shape.ndim, shape.shape);
    if (!sv_is_none(p[2])) {
        if (!sp_want_tile(s, p[2], call, "acc", &acc))
            return false;
        const ir_type *ta = sp_slot_type(s, acc);
        if (ta->ndim != rt.ndim ||
            memcmp(ta->shape, rt.shape, (size_t)rt.ndim * sizeof rt.shape[0])) {
            char want[64], got[64];
            sp_shape_str(&rt, want, sizeof want);
            sp_shape_str(ta, got, sizeof got);
            return sp_error(s, call, "tl.dot: acc must have shape %s, the product's, not %s",
                            want, got);
        }
        /* Triton asserts acc's dtype is out_dtype (float32 unless given)
         * and the product's: it converts nothing */
        dtype want = sv_is_none(p[6]) ? DTYPE_FP32 : res;
        if (ta->dt != res)
            return sp_error(s, call, "tl.dot: acc is %s but the product of %s operands is %s, "
                            "and Triton converts nothing: make acc %s, or cast it with .to()",
                            dtype_name(ta->dt), dtype_name(in), dtype_name(res),
                            dtype_name(res));
        if (ta->dt != want)
            return sp_error(s, call, "tl.dot: acc is %s but out_dtype is float32 (the "
                            "default); Triton requires the two to be the same: pass "
                            "out_dtype=tl.%s", dtype_name(ta->dt), dtype_tl_name(res));
    }
    *out = sp_new_tile(s, rt, IR_DOT, 0, x, y, acc, prec, call);
    return true;
}

bool tl_where(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t c;
    if (!SP_BIND(s, "triton.language.where", "condition, x, y", a, call, p) ||
        !sp_want_tile(s, p[0], call, "condition", &c))
        return false;
    c = sp_cast(s, c, DTYPE_INT1, call);
    dtype_operand ox = {0}, oy = {0};
    sval v[2] = {p[1], p[2]};
    dtype_operand *o[2] = {&ox, &oy};
    for (int i = 0; i < 2; i++) {
        if (v[i].kind == SV_TILE) {
            o[i]->type = sp_slot_type(s, v[i].slot)->dt;
        } else if (v[i].kind == SV_CONST && (v[i].c.kind == SC_INT || v[i].c.kind == SC_FLOAT ||
                                             v[i].c.kind == SC_BOOL)) {
            o[i]->is_scalar = true;
            o[i]->type = sp_const_dtype(&v[i].c);
            if (v[i].c.kind == SC_FLOAT)
                o[i]->value.f = v[i].c.u.f;
            else
                o[i]->value.i = v[i].c.kind == SC_BOOL ? v[i].c.u.b : v[i].c.u.i;
        } else {
            char buf[128];
            return sp_error(s, call, "tl.where's values must be tiles or numbers, not %s",
                            sp_describe(s, v[i], buf, sizeof buf));
        }
    }
    dtype_binop_types ty;
    char err[256];
    if (!dtype_binop(DTYPE_OP_WHERE, ox, oy, &ty, err, sizeof err))
        return sp_error(s, call, "tl.where: %s", err);
    int32_t x = v[0].kind == SV_CONST ? sp_const_slot(s, &v[0].c, ty.result, call)
                                      : sp_cast(s, v[0].slot, ty.result, call);
    int32_t y = v[1].kind == SV_CONST ? sp_const_slot(s, &v[1].c, ty.result, call)
                                      : sp_cast(s, v[1].slot, ty.result, call);
    ir_type shape = *sp_slot_type(s, c);
    if (!sp_shapes_join(s, &shape, sp_slot_type(s, x), &shape, call, "tl.where") ||
        !sp_shapes_join(s, &shape, sp_slot_type(s, y), &shape, call, "tl.where"))
        return false;
    c = sp_broadcast_to(s, c, &shape, call);
    x = sp_broadcast_to(s, x, &shape, call);
    y = sp_broadcast_to(s, y, &shape, call);
    shape.dt = ty.result;
    int32_t dst = sp_slot(s, shape, NULL);
    if (dtype_is_ptr(ty.result))
        s->slots[dst].ptr_arg = s->slots[x].ptr_arg == s->slots[y].ptr_arg
                                    ? s->slots[x].ptr_arg : -1;
    sp_emit(s, IR_WHERE, 0, dst, c, x, y, 0, call);
    *out = sv_tile(dst);
    return true;
}

/* propagate_nan: tl.PropagateNan.ALL or .NONE (sp_module_attr makes them
 * the strings "ALL" and "NONE"); None is NONE. */
static bool sp_propagate_nan(spec *s, sval v, const ast_node *at, bool *all)
{
    *all = false;
    if (sv_is_none(v))
        return true;
    if (v.kind == SV_CONST && v.c.kind == SC_STR &&
        (!strcmp(v.c.u.str.s, "ALL") || !strcmp(v.c.u.str.s, "NONE"))) {
        *all = !strcmp(v.c.u.str.s, "ALL");
        return true;
    }
    char buf[128];
    return sp_error(s, at, "propagate_nan must be tl.PropagateNan.ALL or "
                    "tl.PropagateNan.NONE, not %s", sp_describe(s, v, buf, sizeof buf));
}

static bool sp_minmax(spec *s, const char *qual, bool is_max, const sp_args *a,
                      const ast_node *call, sval *out)
{
    sval p[3];
    if (!SP_BIND(s, qual, "x, y, propagate_nan=", a, call, p))
        return false;
    if (p[0].kind == SV_CONST && p[1].kind == SV_CONST) {
        sval lt;
        if (!sp_binop(s, AST_OP_LT, p[0], p[1], call, &lt))
            return false;
        *out = (lt.c.u.b == is_max) ? p[1] : p[0];
        return true;
    }
    bool nan_all = false;
    if (!sp_propagate_nan(s, p[2], call, &nan_all))
        return false;
    dtype_operand ox = {0}, oy = {0};
    for (int i = 0; i < 2; i++) {
        dtype_operand *o = i ? &oy : &ox;
        if (p[i].kind == SV_TILE) {
            o->type = sp_slot_type(s, p[i].slot)->dt;
        } else if (p[i].kind == SV_CONST) {
            o->is_scalar = true;
            o->type = sp_const_dtype(&p[i].c);
            if (p[i].c.kind == SC_FLOAT)
                o->value.f = p[i].c.u.f;
            else
                o->value.i = p[i].c.kind == SC_BOOL ? p[i].c.u.b : p[i].c.u.i;
        }
    }
    dtype_binop_types ty;
    char err[256];
    if (!dtype_binop(is_max ? DTYPE_OP_MAXIMUM : DTYPE_OP_MINIMUM, ox, oy, &ty, err, sizeof err))
        return sp_error(s, call, "%s", err);
    int32_t x = p[0].kind == SV_CONST ? sp_const_slot(s, &p[0].c, ty.lhs, call)
                                      : sp_cast(s, p[0].slot, ty.lhs, call);
    int32_t y = p[1].kind == SV_CONST ? sp_const_slot(s, &p[1].c, ty.rhs, call)
                                      : sp_cast(s, p[1].slot, ty.rhs, call);
    ir_type shape;
    if (!sp_shapes_join(s, sp_slot_type(s, x), sp_slot_type(s, y), &shape, call, qual))
        return false;
    x = sp_broadcast_to(s, x, &shape, call);
    y = sp_broadcast_to(s, y, &shape, call);
    shape.dt = ty.result;
    int sub = is_max ? (nan_all ? IR_MAX_NAN : IR_MAX) : (nan_all ? IR_MIN_NAN : IR_MIN);
    *out = sp_new_tile(s, shape, IR_BINARY, sub, x, y, -1, 0, call);
    return true;
}

static bool tl_minimum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_minmax(s, "triton.language.minimum", false, a, call, out);
}

bool tl_maximum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_minmax(s, "triton.language.maximum", true, a, call, out);
}

static bool tl_cdiv(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2], t;
    /* (x + div - 1) // div, on constants or tiles alike */
    return SP_BIND(s, "triton.language.cdiv", "x, div", a, call, p) &&
           sp_binop(s, AST_OP_ADD, p[0], p[1], call, &t) &&
           sp_binop(s, AST_OP_SUB, t, sv_int(1), call, &t) &&
           sp_binop(s, AST_OP_FLOORDIV, t, p[1], call, out);
}

static bool triton_next_power_of_2(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int64_t n;
    if (!SP_BIND(s, "triton.next_power_of_2", "n", a, call, p) ||
        !sp_const_int(s, p[0], call, "triton.next_power_of_2's argument", &n))
        return false;
    int64_t r = 1;
    while (r < n && r < ((int64_t)1 << 62))
        r <<= 1;
    *out = sv_int(r);
    return true;
}

/* tl.swizzle2d(i, j, size_i, size_j, size_g): the grouped ordering of the
 * lecture, computed with ordinary operations so it works on constants and
 * tiles alike. */
static bool tl_swizzle2d(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[5], ij, size_gj, group_id, off_i, size_g, rest, new_i, new_j, t;
    if (!SP_BIND(s, "triton.language.swizzle2d", "i, j, size_i, size_j, size_g", a, call, p))
        return false;
    bool ok = sp_binop(s, AST_OP_MUL, p[0], p[3], call, &t) &&
              sp_binop(s, AST_OP_ADD, t, p[1], call, &ij) &&
              sp_binop(s, AST_OP_MUL, p[4], p[3], call, &size_gj) &&
              sp_binop(s, AST_OP_FLOORDIV, ij, size_gj, call, &group_id) &&
              sp_binop(s, AST_OP_MUL, group_id, p[4], call, &off_i) &&
              sp_binop(s, AST_OP_SUB, p[2], off_i, call, &t);
    if (!ok)
        return false;
    sp_args mm = {.argc = 2, .argv = (sval[]){t, p[4]}};
    ok = tl_minimum(s, &mm, call, &size_g) &&
         sp_binop(s, AST_OP_MOD, ij, size_gj, call, &rest) &&
         sp_binop(s, AST_OP_MOD, rest, size_g, call, &t) &&
         sp_binop(s, AST_OP_ADD, off_i, t, call, &new_i) &&
         sp_binop(s, AST_OP_FLOORDIV, rest, size_g, call, &new_j);
    if (!ok)
        return false;
    sval r = {.kind = SV_TUPLE, .n = 2, .slot = -1};
    r.items = arena_alloc(s->a, 2 * sizeof *r.items);
    r.items[0] = new_i;
    r.items[1] = new_j;
    *out = r;
    return true;
}

/* ---- math ---------------------------------------------------------------- */

/* The dtypes each function accepts, as Triton's math.py checks them
 * (_check_dtype): fp32 and fp64, sqrt_rn fp32 only; abs takes any number
 * (unsigned: unchanged); sigmoid is 1 / (1 + exp(-x)), so exp's rule.
 * Python numbers become tiles of their own dtype first (2.0 is fp32). */
enum { SP_F32_F64, SP_F32, SP_ANY };

static const struct { const char *name; ir_math fn; int accepts; } sp_math_fns[] = {
    {"exp", IR_EXP, SP_F32_F64}, {"exp2", IR_EXP2, SP_F32_F64}, {"log", IR_LOG, SP_F32_F64},
    {"log2", IR_LOG2, SP_F32_F64}, {"sqrt", IR_SQRT, SP_F32_F64},
    {"sqrt_rn", IR_SQRT_RN, SP_F32}, {"rsqrt", IR_RSQRT, SP_F32_F64},
    {"sin", IR_SIN, SP_F32_F64}, {"cos", IR_COS, SP_F32_F64}, {"abs", IR_ABS, SP_ANY},
    {"floor", IR_FLOOR, SP_F32_F64}, {"ceil", IR_CEIL, SP_F32_F64},
    {"erf", IR_ERF, SP_F32_F64}, {"sigmoid", IR_SIGMOID, SP_F32_F64},
};

static bool sp_math_unary(spec *s, const char *qual, const sp_args *a, const ast_node *call,
                          sval *out)
{
    const char *name = strrchr(qual, '.') + 1;
    size_t i = 0;
    while (strcmp(sp_math_fns[i].name, name))
        i++;
    sval p[1];
    int32_t x;
    if (!SP_BIND(s, qual, "x", a, call, p))
        return false;
    if (p[0].kind == SV_CONST && sp_math_fns[i].fn == IR_ABS &&
        (p[0].c.kind == SC_INT || p[0].c.kind == SC_FLOAT)) {
        *out = p[0];
        if (p[0].c.kind == SC_INT)
            out->c.u.i = p[0].c.u.i < 0 ? -p[0].c.u.i : p[0].c.u.i;
        else
            out->c.u.f = fabs(p[0].c.u.f);
        return true;
    }
    if (!sp_want_tile(s, p[0], call, "x", &x))
        return false;
    ir_type t = *sp_slot_type(s, x);
    int acc = sp_math_fns[i].accepts;
    if (acc == SP_ANY ? dtype_is_ptr(t.dt) || t.dt == DTYPE_INT1
                      : t.dt != DTYPE_FP32 && (acc == SP_F32 || t.dt != DTYPE_FP64))
        return sp_error(s, call, "tl.%s expects %s, not %s (as in Triton; convert with "
                        ".to(tl.float32))", name,
                        acc == SP_ANY ? "a number tile" : acc == SP_F32 ? "fp32"
                                                                         : "fp32 or fp64",
                        dtype_name(t.dt));
    *out = sp_new_tile(s, t, IR_MATH, sp_math_fns[i].fn, x, -1, -1, 0, call);
    return true;
}

#define SP_MATH_WRAPPER(fname)                                                      \
    bool tl_##fname(spec *s, const sp_args *a, const ast_node *call, sval *out) \
    {                                                                               \
        return sp_math_unary(s, "triton.language." #fname, a, call, out);           \
    }
SP_MATH_WRAPPER(exp)
SP_MATH_WRAPPER(exp2)
SP_MATH_WRAPPER(log)
SP_MATH_WRAPPER(log2)
SP_MATH_WRAPPER(sqrt)
SP_MATH_WRAPPER(sqrt_rn)
SP_MATH_WRAPPER(rsqrt)
SP_MATH_WRAPPER(sin)
SP_MATH_WRAPPER(cos)
SP_MATH_WRAPPER(abs)
SP_MATH_WRAPPER(floor)
SP_MATH_WRAPPER(ceil)
SP_MATH_WRAPPER(erf)
SP_MATH_WRAPPER(sigmoid)
#undef SP_MATH_WRAPPER

/* Triton's math functions check the dtypes of their tensor arguments
 * (math.py's _check_dtype) before anything is converted. */
static bool sp_check_dtypes(spec *s, const char *fname, const sval *v, int n,
                            const dtype *ok, int nok, const ast_node *at)
{
    for (int i = 0; i < n; i++) {
        if (v[i].kind != SV_TILE)
            continue;
        dtype dt = sp_slot_type(s, v[i].slot)->dt;
        bool good = false;
        for (int k = 0; k < nok; k++)
            good = good || ok[k] == dt;
        if (!good) {
            char list[128] = "";
            for (int k = 0; k < nok; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         k ? ", " : "", dtype_name(ok[k]));
            return sp_error(s, at, "%s expects %s tiles, not %s (as in Triton)", fname, list,
                            dtype_name(dt));
        }
    }
    return true;
}

/* Turn the operands into tiles (Python numbers take their own dtype, as
 * Triton's _to_tensor does), give them their common type
 * (binary_op_type_legalization) and broadcast them to one shape. */
static bool sp_legalize(spec *s, const char *fname, const sval *v, int n, int32_t *slot,
                        ir_type *shape, const ast_node *at)
{
    for (int i = 0; i < n; i++)
        if (!sp_want_tile(s, v[i], at, "an operand", &slot[i]))
            return false;
    dtype dt = sp_slot_type(s, slot[0])->dt;
    for (int i = 1; i < n; i++) {
        dtype_operand x = {.type = dt}, y = {.type = sp_slot_type(s, slot[i])->dt};
        dtype_binop_types ty;
        char err[256];
        if (!dtype_binop(DTYPE_OP_ADD, x, y, &ty, err, sizeof err))
            return sp_error(s, at, "%s: %s", fname, err);
        dt = ty.result;
    }
    *shape = *sp_slot_type(s, slot[0]);
    for (int i = 1; i < n; i++) {
        ir_type prev = *shape;
        if (!sp_shapes_join(s, &prev, sp_slot_type(s, slot[i]), shape, at, fname))
            return false;
    }
    shape->dt = dt;
    for (int i = 0; i < n; i++)
        slot[i] = sp_broadcast_to(s, sp_cast(s, slot[i], dt, at), shape, at);
    return true;
}

static bool tl_fma(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x[3];
    ir_type t;
    if (!SP_BIND(s, "triton.language.fma", "x, y, z", a, call, p) ||
        !sp_legalize(s, "tl.fma", p, 3, x, &t, call))
        return false;
    if (!dtype_is_float(t.dt))
        return sp_error(s, call, "tl.fma needs float operands, not %s", dtype_name(t.dt));
    *out = sp_new_tile(s, t, IR_MATH, IR_FMA, x[0], x[1], x[2], 0, call);
    return true;
}

bool tl_umulhi(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    static const dtype ok[] = {DTYPE_INT32, DTYPE_INT64, DTYPE_UINT32, DTYPE_UINT64};
    sval p[2];
    int32_t x[2];
    ir_type t;
    if (!SP_BIND(s, "triton.language.umulhi", "x, y", a, call, p) ||
        !sp_check_dtypes(s, "tl.umulhi", p, 2, ok, 4, call) ||
        !sp_legalize(s, "tl.umulhi", p, 2, x, &t, call))
        return false;
    if (!dtype_is_int(t.dt) || dtype_bits(t.dt) < 32)
        return sp_error(s, call, "tl.umulhi needs 32- or 64-bit integers, not %s",
                        dtype_name(t.dt));
    *out = sp_new_tile(s, t, IR_MATH, IR_UMULHI, x[0], x[1], -1, 0, call);
    return true;
}

/* x / y on floats: fdiv (the fast division; exact on the CPU, whatever
 * ieee_rounding says) and div_rn (fp32, rounded to nearest). */
static bool sp_float_div(spec *s, const char *fname, const sval *p, bool rn,
                         const ast_node *call, sval *out)
{
    static const dtype ok[] = {DTYPE_FP32};
    int32_t x[2];
    ir_type t;
    if (rn && !sp_check_dtypes(s, fname, p, 2, ok, 1, call))
        return false;
    for (int i = 0; i < 2; i++)
        if (p[i].kind == SV_TILE && !dtype_is_float(sp_slot_type(s, p[i].slot)->dt))
            return sp_error(s, call, "both operands of %s must be floats, not %s", fname,
                            dtype_name(sp_slot_type(s, p[i].slot)->dt));
    if (!sp_legalize(s, fname, p, 2, x, &t, call))
        return false;
    if (!dtype_is_float(t.dt))
        return sp_error(s, call, "both operands of %s must be floats", fname);
    *out = sp_new_tile(s, t, IR_BINARY, rn ? IR_FDIV_RN : IR_DIV, x[0], x[1], -1, 0, call);
    return true;
}

static bool tl_fdiv(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    return SP_BIND(s, "triton.language.fdiv", "x, y, ieee_rounding=", a, call, p) &&
           sp_float_div(s, "tl.fdiv", p, false, call, out);
}

static bool tl_div_rn(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    return SP_BIND(s, "triton.language.div_rn", "x, y", a, call, p) &&
           sp_float_div(s, "tl.div_rn", p, true, call, out);
}

/* tl.clamp(x, min, max, propagate_nan): floats only; bf16 works in fp32;
 * min(max(x, lo), hi), so with propagate_nan=NONE a NaN x gives lo. */
static bool tl_clamp(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4], lo;
    bool all;
    if (!SP_BIND(s, "triton.language.clamp", "x, min, max, propagate_nan=", a, call, p) ||
        !sp_propagate_nan(s, p[3], call, &all))
        return false;
    int32_t x[3];
    ir_type t;
    if (!sp_legalize(s, "tl.clamp", p, 3, x, &t, call))
        return false;
    if (!dtype_is_float(t.dt))
        return sp_error(s, call, "tl.clamp supports floats only, not %s", dtype_name(t.dt));
    if (t.dt == DTYPE_BF16) {
        for (int i = 0; i < 3; i++)
            x[i] = sp_cast(s, x[i], DTYPE_FP32, call);
        t.dt = DTYPE_FP32;
    }
    lo = sp_new_tile(s, t, IR_BINARY, all ? IR_MAX_NAN : IR_MAX, x[0], x[1], -1, 0, call);
    *out = sp_new_tile(s, t, IR_BINARY, all ? IR_MIN_NAN : IR_MIN, lo.slot, x[2], -1, 0, call);
    return true;
}

/* ---- shapes -------------------------------------------------------------- */

static bool sp_reshape_to(spec *s, int32_t x, ir_type nt, const ast_node *at, sval *out)
{
    const ir_type *t = sp_slot_type(s, x);
    int64_t n0 = 1, n1 = 1;
    for (int i = 0; i < t->ndim; i++)
        n0 *= t->shape[i];
    for (int i = 0; i < nt.ndim; i++)
        n1 *= nt.shape[i];
    if (n0 != n1) {
        char a[64], b[64];
        sp_shape_str(t, a, sizeof a);
        sp_shape_str(&nt, b, sizeof b);
        return sp_error(s, at, "cannot reshape a tile of shape %s (%lld elements) to %s "
                        "(%lld elements)", a, (long long)n0, b, (long long)n1);
    }
    nt.dt = t->dt;
    int32_t dst = sp_slot(s, nt, NULL);
    s->slots[dst].ptr_arg = s->slots[x].ptr_arg;
    sp_emit(s, IR_RESHAPE, 0, dst, x, -1, -1, 0, at);
    *out = sv_tile(dst);
    return true;
}

static bool tl_expand_dims(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    int64_t axis;
    if (!SP_BIND(s, "triton.language.expand_dims", "input, axis", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) ||
        !sp_const_int(s, p[1], call, "axis", &axis))
        return false;
    ir_type t = *sp_slot_type(s, x), nt = {.dt = t.dt, .ndim = (int8_t)(t.ndim + 1)};
    if (axis < 0)
        axis += t.ndim + 1;
    if (axis < 0 || axis > t.ndim)
        return sp_error(s, call, "tl.expand_dims: axis %lld is out of range for a tile of "
                        "%d dimensions", (long long)axis, t.ndim);
    if (nt.ndim > IR_MAX_DIM)
        return sp_error(s, call, "tiles have at most %d dimensions", IR_MAX_DIM);
    for (int i = 0, k = 0; i < nt.ndim; i++)
        nt.shape[i] = i == axis ? 1 : t.shape[k++];
    return sp_reshape_to(s, x, nt, call, out);
}

static bool tl_reshape(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x;
    ir_type nt = {0};
    if (!SP_BIND(s, "triton.language.reshape", "input, *shape, can_reorder=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    /* reshape(x, (a, b)) or reshape(x, a, b) */
    sval shape = p[1];
    if (shape.kind == SV_TUPLE && shape.n == 1)
        shape = shape.items[0];
    if (!sp_want_shape(s, shape, call, &nt))
        return false;
    return sp_reshape_to(s, x, nt, call, out);
}

static bool tl_broadcast_to(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    ir_type nt = {0}, joined;
    if (!SP_BIND(s, "triton.language.broadcast_to", "input, *shape", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    sval shape = p[1].kind == SV_TUPLE && p[1].n == 1 ? p[1].items[0] : p[1];
    if (!sp_want_shape(s, shape, call, &nt) ||
        !sp_shapes_join(s, sp_slot_type(s, x), &nt, &joined, call, "tl.broadcast_to"))
        return false;
    nt.dt = sp_slot_type(s, x)->dt;
    *out = sv_tile(sp_materialize(s, x, &nt, call));
    return true;
}

static bool tl_trans(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    if (!SP_BIND(s, "triton.language.trans", "input, *dims", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x))
        return false;
    ir_type t = *sp_slot_type(s, x), nt = t;
    int perm[IR_MAX_DIM];
    if (p[1].kind == SV_TUPLE && p[1].n == 0) {
        if (t.ndim != 2)
            return sp_error(s, call, "tl.trans without dims needs a 2-D tile");
        perm[0] = 1;
        perm[1] = 0;
    } else {
        /* trans(x, 1, 0) or trans(x, (1, 0)) */
        sval d = p[1].kind == SV_TUPLE && p[1].n == 1 ? p[1].items[0] : p[1];
        sval items[IR_MAX_DIM];
        int n = 0;
        if (d.kind == SV_TUPLE) {
            n = d.n;
            for (int i = 0; i < n && i < IR_MAX_DIM; i++)
                items[i] = d.items[i];
        } else if (d.kind == SV_CONST && d.c.kind == SC_TUPLE) {
            n = d.c.u.tuple.n;
            for (int i = 0; i < n && i < IR_MAX_DIM; i++)
                items[i] = sv_const(d.c.u.tuple.items[i]);
        }
        if (n != t.ndim)
            return sp_error(s, call, "tl.trans: give one dim for each of the %d dimensions",
                            t.ndim);
        unsigned seen = 0;
        for (int i = 0; i < n; i++) {
            int64_t v;
            if (!sp_const_int(s, items[i], call, "a dim", &v))
                return false;
            if (v < 0 || v >= n || (seen & (1u << v)))
                return sp_error(s, call, "tl.trans: dims must be a permutation of 0..%d", n - 1);
            seen |= 1u << v;
            perm[i] = (int)v;
        }
    }
    int64_t imm = 0;
    for (int i = 0; i < t.ndim; i++) {
        nt.shape[i] = t.shape[perm[i]];
        imm |= (int64_t)perm[i] << (4 * i);
    }
    *out = sp_new_tile(s, nt, IR_TRANS, 0, x, -1, -1, imm, call);
    return true;
}

static bool sp_const_flag(spec *s, sval v, const ast_node *at, const char *what, bool *out)
{
    *out = false;
    if (sv_is_none(v))
        return true;
    if (v.kind != SV_CONST)
        return sp_error(s, at, "%s must be a constant (True or False)", what);
    *out = sp_const_truth(&v.c);
    return true;
}

static sval sp_pair(spec *s, sval a, sval b)
{
    sval r = {.kind = SV_TUPLE, .n = 2, .slot = -1};
    r.items = arena_alloc(s->a, 2 * sizeof *r.items);
    r.items[0] = a;
    r.items[1] = b;
    return r;
}

static bool sp_flip_axis(spec *s, int32_t x, int64_t axis, const ast_node *at, int32_t *out)
{
    *out = sp_slot(s, *sp_slot_type(s, x), NULL);
    sp_emit(s, IR_FLIP, 0, *out, x, -1, -1, axis, at);
    return true;
}

/* tl.join(a, b): a new minor axis of size 2 holding a and b (broadcast to
 * one shape first; two scalars give a [2] tile). */
static bool sp_join(spec *s, int32_t x, int32_t y, const ast_node *call, int32_t *out)
{
    ir_type tx = *sp_slot_type(s, x), ty = *sp_slot_type(s, y), shape;
    if (tx.dt != ty.dt)
        return sp_error(s, call, "tl.join: both tiles must have the same dtype, not %s and "
                        "%s; cast one with .to()", dtype_name(tx.dt), dtype_name(ty.dt));
    if (!sp_shapes_join(s, &tx, &ty, &shape, call, "tl.join"))
        return false;
    if (shape.ndim >= IR_MAX_DIM)
        return sp_error(s, call, "tiles have at most %d dimensions", IR_MAX_DIM);
    shape.dt = tx.dt;
    ir_type one = shape, two = shape;
    one.shape[one.ndim++] = 1;
    two.shape[two.ndim++] = 2;
    sval a, b;
    if (!sp_reshape_to(s, sp_materialize(s, x, &shape, call), one, call, &a) ||
        !sp_reshape_to(s, sp_materialize(s, y, &shape, call), one, call, &b))
        return false;
    *out = sp_slot(s, two, NULL);
    sp_emit(s, IR_CONCAT, 0, *out, a.slot, b.slot, -1, one.ndim - 1, call);
    return true;
}

static bool tl_join(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, y, r;
    if (!SP_BIND(s, "triton.language.join", "a, b", a, call, p))
        return false;
    /* Triton's join takes tensors only; a constant is refused there */
    for (int i = 0; i < 2; i++)
        if (p[i].kind != SV_TILE)
            return sp_error(s, call, "tl.join needs two tiles, and argument %d is a constant "
                            "(make a tile of it with tl.full)", i + 1);
    if (!sp_want_tile(s, p[0], call, "a", &x) || !sp_want_tile(s, p[1], call, "b", &y) ||
        !sp_join(s, x, y, call, &r))
        return false;
    *out = sv_tile(r);
    return true;
}

/* tl.split(a): the two halves of a's minor axis, which must be 2. */
static bool tl_split(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[1];
    int32_t x;
    if (!SP_BIND(s, "triton.language.split", "a", a, call, p) ||
        !sp_want_tile(s, p[0], call, "a", &x))
        return false;
    ir_type t = *sp_slot_type(s, x);
    if (t.ndim == 0 || t.shape[t.ndim - 1] != 2) {
        char buf[64];
        sp_shape_str(&t, buf, sizeof buf);
        return sp_error(s, call, "tl.split: the last dimension must have size 2; got shape "
                        "%s", buf);
    }
    ir_type half = t, res = t;
    half.shape[half.ndim - 1] = 1;
    res.ndim--;
    sval r[2];
    for (int i = 0; i < 2; i++) {
        int32_t h = sp_slot(s, half, NULL);
        sp_emit(s, IR_SLICE, 0, h, x, -1, -1, (int64_t)(t.ndim - 1) | ((int64_t)i << 4), call);
        if (!sp_reshape_to(s, h, res, call, &r[i]))
            return false;
    }
    *out = sp_pair(s, r[0], r[1]);
    return true;
}

/* tl.interleave(a, b) = join(a, b) reshaped so that the minor axis
 * alternates a and b. */
static bool tl_interleave(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, y, j;
    if (!SP_BIND(s, "triton.language.interleave", "a, b", a, call, p) ||
        !sp_want_tile(s, p[0], call, "a", &x) || !sp_want_tile(s, p[1], call, "b", &y) ||
        !sp_join(s, x, y, call, &j))
        return false;
    ir_type t = *sp_slot_type(s, j);
    if (t.ndim == 1) {
        *out = sv_tile(j);
        return true;
    }
    t.ndim--;
    t.shape[t.ndim - 1] *= 2;
    return sp_reshape_to(s, j, t, call, out);
}

/* tl.cat(input, other, can_reorder): Triton only has the reordering form
 * (of 1-D tiles); tritsim keeps the order, one of the allowed results. */
static bool tl_cat(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x, y;
    bool reorder;
    if (!SP_BIND(s, "triton.language.cat", "input, other, can_reorder=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) || !sp_want_tile(s, p[1], call, "other", &y) ||
        !sp_const_flag(s, p[2], call, "can_reorder", &reorder))
        return false;
    if (!reorder)
        return sp_error(s, call, "tl.cat needs can_reorder=True: the current implementation "
                        "of `cat` always may reorder elements (as in Triton)");
    ir_type tx = *sp_slot_type(s, x), ty = *sp_slot_type(s, y);
    if (tx.ndim != 1 || ty.ndim != 1)
        return sp_error(s, call, "tl.cat joins 1-D tiles only (as in Triton); got %d-D and "
                        "%d-D", tx.ndim, ty.ndim);
    if (tx.dt != ty.dt)
        return sp_error(s, call, "tl.cat: both tiles must have the same dtype, not %s and %s",
                        dtype_name(tx.dt), dtype_name(ty.dt));
    int64_t n = (int64_t)tx.shape[0] + ty.shape[0];
    if (n & (n - 1))
        return sp_error(s, call, "tl.cat of %d and %d elements gives %lld, not a power of "
                        "two", tx.shape[0], ty.shape[0], (long long)n);
    tx.shape[0] = (int32_t)n;
    *out = sp_new_tile(s, tx, IR_CONCAT, 0, x, y, -1, 0, call);
    return true;
}

static bool tl_ravel(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x;
    if (!SP_BIND(s, "triton.language.ravel", "x, can_reorder=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "x", &x))
        return false;
    ir_type t = *sp_slot_type(s, x), nt = {.dt = t.dt, .ndim = 1, .shape = {1}};
    for (int i = 0; i < t.ndim; i++)
        nt.shape[0] *= t.shape[i];
    return sp_reshape_to(s, x, nt, call, out);
}

/* tl.flip(x, dim): reversed along dim. */
static bool tl_flip(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    int32_t x, r;
    if (!SP_BIND(s, "triton.language.flip", "x, dim=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "x", &x))
        return false;
    const ir_type *t = sp_slot_type(s, x);
    if (t->ndim == 0)
        return sp_error(s, call, "tl.flip needs a tile with at least one dimension");
    /* Triton 3.6's flip checks -len(x.shape) <= dim before it reads a None
     * dim as the last axis, so flip(x) without dim fails there. */
    int64_t dim;
    if (sv_is_none(p[1]))
        return sp_error(s, call, "tl.flip needs dim: Triton 3.6 compares dim with the "
                        "number of dimensions first, which fails for dim=None; pass "
                        "dim=-1 to flip the last axis");
    if (!sp_const_int(s, p[1], call, "dim", &dim))
        return false;
    if (dim < -t->ndim || dim >= t->ndim)
        return sp_error(s, call, "tl.flip: dim %lld is out of range for a tile of %d "
                        "dimensions", (long long)dim, t->ndim);
    if (dim < 0)
        dim += t->ndim;
    sp_flip_axis(s, x, dim, call, &r);
    *out = sv_tile(r);
    return true;
}

/* tl.gather(src, index, axis): out[i] = src[i with its axis coordinate
 * replaced by index[i]]; index has src's rank and src's shape off the
 * axis, and the result has index's shape (Triton 3.x's semantic.gather). */
static bool tl_gather(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x, ix;
    int64_t axis;
    if (!SP_BIND(s, "triton.language.gather", "src, index, axis", a, call, p) ||
        !sp_want_tile(s, p[0], call, "src", &x) || !sp_want_tile(s, p[1], call, "index", &ix) ||
        !sp_const_int(s, p[2], call, "axis", &axis))
        return false;
    ir_type ts = *sp_slot_type(s, x), ti = *sp_slot_type(s, ix);
    if (!dtype_is_int(ti.dt) || dtype_is_ptr(ti.dt))
        return sp_error(s, call, "tl.gather: index must be a tile of integers, not %s",
                        dtype_name(ti.dt));
    if (ts.ndim == 0 || ti.ndim != ts.ndim)
        return sp_error(s, call, "tl.gather: src and index must have the same number of "
                        "dimensions (at least 1); got %d and %d", ts.ndim, ti.ndim);
    if (axis < -ts.ndim || axis >= ts.ndim)
        return sp_error(s, call, "tl.gather: axis %lld is out of range for a tile of %d "
                        "dimensions", (long long)axis, ts.ndim);
    if (axis < 0)
        axis += ts.ndim;
    for (int d = 0; d < ts.ndim; d++)
        if (d != axis && ti.shape[d] != ts.shape[d]) {
            char bs[64], bi[64];
            sp_shape_str(&ts, bs, sizeof bs);
            sp_shape_str(&ti, bi, sizeof bi);
            return sp_error(s, call, "tl.gather: index shape %s must match src shape %s on "
                            "every axis but axis %lld", bi, bs, (long long)axis);
        }
    ir_type rt = ti;
    rt.dt = ts.dt;
    *out = sp_new_tile(s, rt, IR_GATHER, 0, x, ix, -1, axis, call);
    s->slots[out->slot].ptr_arg = s->slots[x].ptr_arg;
    return true;
}

/* tl.histogram(input, num_bins, mask=None): int32 [num_bins] counts of
 * the values of a 1-D integer tile, bins of width 1 from 0; values
 * outside [0, num_bins) and masked-off lanes are not counted. */
static bool tl_histogram(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x, m;
    int64_t bins;
    if (!SP_BIND(s, "triton.language.histogram", "input, num_bins, mask=", a, call, p) ||
        !sp_want_tile(s, p[0], call, "input", &x) ||
        !sp_const_int(s, p[1], call, "num_bins", &bins) ||
        !sp_want_mask(s, p[2], call, &m))
        return false;
    ir_type t = *sp_slot_type(s, x);
    if (t.ndim != 1 || !dtype_is_int(t.dt) || dtype_is_ptr(t.dt)) {
        char ts[96];
        ir_type_str(&t, ts, sizeof ts);
        return sp_error(s, call, "tl.histogram: input must be a 1-D tile of integers, not "
                        "%s", ts);
    }
    if (bins <= 0 || bins > (1 << 20) || (bins & (bins - 1)))
        return sp_error(s, call, "tl.histogram: num_bins must be a power of two (at most "
                        "2**20), not %lld", (long long)bins);
    if (m >= 0) {
        ir_type mt = *sp_slot_type(s, m), joined;
        if (!sp_shapes_join(s, &mt, &t, &joined, call, "tl.histogram mask"))
            return false;
        if (joined.ndim != 1 || joined.shape[0] != t.shape[0])
            return sp_error(s, call, "tl.histogram: the mask must have the input's shape");
        m = sp_materialize(s, m, &t, call);
    }
    ir_type rt = {.dt = DTYPE_INT32, .ndim = 1, .shape = {(int32_t)bins}};
    *out = sp_new_tile(s, rt, IR_HISTOGRAM, 0, x, m, -1, bins, call);
    return true;
}

/* ---- reductions and scans ------------------------------------------------ */

/* A reduction or scan axis: a constant int in [-ndim, ndim), wrapped as in
 * Triton; None (allowed for reductions) is -1. */
static bool sp_red_axis(spec *s, sval v, const ir_type *t, bool none_ok,
                        const ast_node *at, int64_t *axis)
{
    *axis = -1;
    if (none_ok && sv_is_none(v))
        return true;
    int64_t a;
    if (!sp_const_int(s, v, at, "axis", &a))
        return false;
    if (t->ndim == 0)
        return sp_error(s, at, "cannot reduce or scan a scalar (it has no axis %lld)",
                        (long long)a);
    if (a < -t->ndim || a >= t->ndim)
        return sp_error(s, at, "axis %lld is out of range for a tile of %d dimensions "
                        "(use %d..%d)", (long long)a, t->ndim, -t->ndim, t->ndim - 1);
    *axis = a < 0 ? a + t->ndim : a;
    return true;
}

/* REDUCE of x over axis (-1: all); keep_dims keeps the reduced axes as 1. */
static sval sp_emit_reduce(spec *s, int32_t x, ir_reduce kind, int64_t axis, bool keep_dims,
                           dtype rdt, const ast_node *call)
{
    ir_type t = *sp_slot_type(s, x), rt = {.dt = rdt};
    for (int i = 0; i < t.ndim; i++) {
        bool reduced = axis < 0 || i == axis;
        if (!reduced || keep_dims)
            rt.shape[rt.ndim++] = reduced ? 1 : t.shape[i];
    }
    return sp_new_tile(s, rt, IR_REDUCE, kind, x, -1, -1, axis, call);
}

/* Triton's _pick_sum_dtype: dtype= when given, else integers narrower than
 * 32 bits widen to int32 (signed) or uint32 (unsigned, and int1). */
static bool sp_sum_dtype(spec *s, sval dt_arg, dtype in, const ast_node *call, dtype *out)
{
    *out = in;
    if (!sv_is_none(dt_arg))
        return sp_want_dtype(s, dt_arg, call, "dtype", out);
    if (dtype_is_int(in) && dtype_bits(in) < 32)
        *out = dtype_is_signed(in) ? DTYPE_INT32 : DTYPE_UINT32;
    return true;
}

static bool sp_red_input(spec *s, sval v, const ast_node *call, int32_t *x, ir_type *t)
{
    if (!sp_want_tile(s, v, call, "input", x))
        return false;
    *t = *sp_slot_type(s, *x);
    if (dtype_is_ptr(t->dt))
        return sp_error(s, call, "cannot reduce or scan pointers");
    return true;
}

static bool tl_sum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool keep;
    dtype rdt;
    if (!SP_BIND(s, "triton.language.sum", "input, axis=, keep_dims=, dtype=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t) || !sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "keep_dims", &keep) ||
        !sp_sum_dtype(s, p[3], t.dt, call, &rdt))
        return false;
    x = sp_cast(s, x, rdt, call);
    *out = sp_emit_reduce(s, x, IR_RED_SUM, axis, keep, rdt, call);
    return true;
}

static bool tl_xor_sum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool keep;
    if (!SP_BIND(s, "triton.language.xor_sum", "input, axis=, keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t))
        return false;
    if (!dtype_is_int(t.dt))
        return sp_error(s, call, "xor_sum only supported for integers, not %s",
                        dtype_name(t.dt));
    if (!sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "keep_dims", &keep))
        return false;
    *out = sp_emit_reduce(s, x, IR_RED_XOR, axis, keep, t.dt, call);
    return true;
}

/* Reductions that return indices need an axis: Triton 3.6's
 * _reduce_with_indices reads input.shape[axis], which fails for None. */
static bool sp_index_axis(spec *s, const char *qual, sval axis, const ast_node *call)
{
    if (!sv_is_none(axis))
        return true;
    char nb[64];
    const char *name = sp_display_name(qual, nb, sizeof nb);
    bool arg = !strcmp(qual, "triton.language.argmax") || !strcmp(qual, "triton.language.argmin");
    return sp_error(s, call, "%s%s needs an axis: Triton finds the indices along "
                    "input.shape[axis], which fails for axis=None; flatten the tile first, "
                    "e.g. %s(tl.ravel(x), 0%s)", name, arg ? "" : " with return_indices=True",
                    name, arg ? "" : ", return_indices=True");
}

/* tl.max / tl.min, and with return_indices=True also the int32 index of
 * the first extreme value (tie_break_left; without it Triton leaves ties
 * unspecified and tritsim still takes the first).  As in Triton, bf16 is
 * reduced in fp32, and without indices every type narrower than 32 bits is
 * widened (floats to fp32, integers to int32). */
static bool sp_maxmin(spec *s, const char *qual, bool is_max, const sp_args *a,
                      const ast_node *call, sval *out)
{
    sval p[5];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool ret_idx, tie_left, keep;
    if (!SP_BIND(s, qual, "input, axis=, return_indices=, return_indices_tie_break_left=, "
                 "keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t) || !sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "return_indices", &ret_idx) ||
        !sp_const_flag(s, p[3], call, "return_indices_tie_break_left", &tie_left) ||
        !sp_const_flag(s, p[4], call, "keep_dims", &keep) ||
        (ret_idx && !sp_index_axis(s, qual, p[1], call)))
        return false;
    dtype rdt = t.dt;
    if (rdt == DTYPE_BF16 || (!ret_idx && dtype_bits(rdt) < 32))
        rdt = dtype_is_float(rdt) ? DTYPE_FP32 : DTYPE_INT32;
    x = sp_cast(s, x, rdt, call);
    sval v = sp_emit_reduce(s, x, is_max ? IR_RED_MAX : IR_RED_MIN, axis, keep, rdt, call);
    if (!ret_idx) {
        *out = v;
        return true;
    }
    sval i = sp_emit_reduce(s, x, is_max ? IR_RED_ARGMAX : IR_RED_ARGMIN, axis, keep,
                            DTYPE_INT32, call);
    *out = sp_pair(s, v, i);
    return true;
}

static bool tl_max(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_maxmin(s, "triton.language.max", true, a, call, out);
}

static bool tl_min(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_maxmin(s, "triton.language.min", false, a, call, out);
}

static bool sp_argmaxmin(spec *s, const char *qual, bool is_max, const sp_args *a,
                         const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool tie_left, keep;
    if (!SP_BIND(s, qual, "input, axis, tie_break_left=, keep_dims=", a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t) || !sp_index_axis(s, qual, p[1], call) ||
        !sp_red_axis(s, p[1], &t, true, call, &axis) ||
        !sp_const_flag(s, p[2], call, "tie_break_left", &tie_left) ||
        !sp_const_flag(s, p[3], call, "keep_dims", &keep))
        return false;
    if (t.dt == DTYPE_BF16)
        x = sp_cast(s, x, DTYPE_FP32, call);
    *out = sp_emit_reduce(s, x, is_max ? IR_RED_ARGMAX : IR_RED_ARGMIN, axis, keep,
                          DTYPE_INT32, call);
    return true;
}

static bool tl_argmax(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_argmaxmin(s, "triton.language.argmax", true, a, call, out);
}

static bool tl_argmin(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_argmaxmin(s, "triton.language.argmin", false, a, call, out);
}

/* tl.cumsum / tl.cumprod: inclusive scans; bf16 runs in fp32, cumsum picks
 * its type as tl.sum does; reverse=True scans from the end (a flip, the
 * scan, a flip back). */
static bool sp_scan(spec *s, const char *qual, ir_reduce kind, const sp_args *a,
                    const ast_node *call, sval *out)
{
    sval p[4];
    int32_t x;
    ir_type t;
    int64_t axis;
    bool reverse;
    bool is_sum = kind == IR_RED_SUM;
    if (!SP_BIND(s, qual, is_sum ? "input, axis=, reverse=, dtype=" : "input, axis=, reverse=",
                 a, call, p) ||
        !sp_red_input(s, p[0], call, &x, &t))
        return false;
    if (sv_is_none(p[1]))
        p[1] = sv_int(0);
    if (!sp_red_axis(s, p[1], &t, false, call, &axis) ||
        !sp_const_flag(s, p[2], call, "reverse", &reverse))
        return false;
    dtype rdt = t.dt == DTYPE_BF16 ? DTYPE_FP32 : t.dt;
    if (is_sum && !sp_sum_dtype(s, p[3], rdt, call, &rdt))
        return false;
    x = sp_cast(s, x, rdt, call);
    t.dt = rdt;
    if (reverse)
        sp_flip_axis(s, x, axis, call, &x);
    int32_t r = sp_slot(s, t, NULL);
    sp_emit(s, IR_SCAN, kind, r, x, -1, -1, axis, call);
    if (reverse)
        sp_flip_axis(s, r, axis, call, &r);
    *out = sv_tile(r);
    return true;
}

static bool tl_cumsum(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_scan(s, "triton.language.cumsum", IR_RED_SUM, a, call, out);
}

static bool tl_cumprod(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return sp_scan(s, "triton.language.cumprod", IR_RED_PROD, a, call, out);
}

/* ---- tl.reduce and tl.associative_scan: user combine functions ----------- */

/* No IR of their own: the @triton.jit combine_fn is inlined on tile
 * pieces.  A reduction over an axis of length n is a tree of ceil(log2 n)
 * steps, each combining the first half with the second, as a GPU's
 * butterfly does; a scan is Hillis-Steele: at distance d = 1, 2, 4, ...
 * lane i (i >= d) becomes combine(x[i - d], x[i]). */

enum { SP_MAX_COMBINE = 6 };   /* tiles in one tuple of inputs */

typedef struct sp_combine {
    const char *fname;          /* "tl.reduce", for messages */
    sval fn;
    int k;                      /* inputs */
    int32_t x[SP_MAX_COMBINE];
    dtype dt[SP_MAX_COMBINE];
    bool tuple;                 /* the inputs came as a tuple */
    int64_t axis;
} sp_combine;

/* The input (a tile or a tuple of tiles of one shape) and combine_fn. */
static bool sp_combine_inputs(spec *s, sp_combine *c, sval in, sval fn, const ast_node *call)
{
    char buf[96], b2[64];
    if (fn.kind != SV_JIT)
        return sp_error(s, call, "%s: combine_fn must be a @triton.jit function, not %s",
                        c->fname, sp_describe(s, fn, buf, sizeof buf));
    c->fn = fn;
    c->tuple = in.kind == SV_TUPLE;
    c->k = c->tuple ? in.n : 1;
    if (c->k < 1 || c->k > SP_MAX_COMBINE)
        return sp_error(s, call, "%s takes 1 to %d input tiles, not %d", c->fname,
                        SP_MAX_COMBINE, c->k);
    for (int i = 0; i < c->k; i++) {
        ir_type t;
        if (!sp_red_input(s, c->tuple ? in.items[i] : in, call, &c->x[i], &t))
            return false;
        c->dt[i] = t.dt;
        const ir_type *t0 = sp_slot_type(s, c->x[0]);
        bool same = t.ndim == t0->ndim;
        for (int d = 0; same && d < t.ndim; d++)
            same = t.shape[d] == t0->shape[d];
        if (!same) {
            sp_shape_str(t0, buf, sizeof buf);
            sp_shape_str(&t, b2, sizeof b2);
            return sp_error(s, call, "%s: all inputs must have the same shape; got %s and %s",
                            c->fname, buf, b2);
        }
    }
    const ast_list *params = &fn.def->u.funcdef.params;
    if (params->len != 2 * c->k)
        return sp_error(s, call, "%s: combine_fn %s() takes %d arguments; it must take %d "
                        "(two for each of the %d input tile%s)", c->fname,
                        fn.def->u.funcdef.name, params->len, 2 * c->k, c->k,
                        c->k == 1 ? "" : "s");
    return true;
}

/* Slot r[i] = x[i][start : start + n] along the axis. */
static void sp_slice_all(spec *s, const sp_combine *c, const int32_t *x, int64_t start,
                         int32_t n, const ast_node *at, int32_t *r)
{
    for (int i = 0; i < c->k; i++) {
        ir_type t = *sp_slot_type(s, x[i]);
        t.shape[c->axis] = n;
        r[i] = sp_slot(s, t, NULL);
        sp_emit(s, IR_SLICE, 0, r[i], x[i], -1, -1, c->axis | (start << 4), at);
    }
}

/* r = combine_fn(left..., right...), each result cast to its input's
 * dtype and broadcast to the pieces' shape. */
static bool sp_combine_call(spec *s, const sp_combine *c, const int32_t *left,
                            const int32_t *right, const ast_node *call, int32_t *r)
{
    sval argv[2 * SP_MAX_COMBINE], res;
    for (int i = 0; i < c->k; i++) {
        argv[i] = sv_tile(left[i]);
        argv[c->k + i] = sv_tile(right[i]);
    }
    if (!sp_call_jit(s, c->fn, 2 * c->k, argv, 0, NULL, NULL, call, &res))
        return false;
    int n = res.kind == SV_TUPLE ? res.n : 1;
    if (n != c->k)
        return sp_error(s, call, "%s: combine_fn %s() returned %s%d value%s; it must return "
                        "%d (one for each input tile)", c->fname, c->fn.def->u.funcdef.name,
                        res.kind == SV_TUPLE ? "a tuple of " : "", n, n == 1 ? "" : "s",
                        c->k);
    for (int i = 0; i < c->k; i++) {
        sval v = res.kind == SV_TUPLE ? res.items[i] : res;
        if (v.kind != SV_TILE && !(v.kind == SV_CONST && v.c.kind != SC_NONE &&
                                   v.c.kind != SC_STR))
            return sp_error(s, call, "%s: combine_fn %s() must return tiles or numbers",
                            c->fname, c->fn.def->u.funcdef.name);
        int32_t slot;
        if (!sp_want_tile(s, v, call, "the combined value", &slot))
            return false;
        r[i] = sp_materialize(s, sp_cast(s, slot, c->dt[i], call), sp_slot_type(s, left[i]),
                              call);
    }
    return true;
}

static sval sp_combine_result(spec *s, const sp_combine *c, const int32_t *r)
{
    if (!c->tuple)
        return sv_tile(r[0]);
    sval t = {.kind = SV_TUPLE, .n = c->k, .slot = -1};
    t.items = arena_alloc(s->a, (size_t)c->k * sizeof *t.items);
    for (int i = 0; i < c->k; i++)
        t.items[i] = sv_tile(r[i]);
    return t;
}

/* tl.reduce(input, axis, combine_fn, keep_dims=False); axis None reduces
 * the raveled input. */
static bool tl_reduce(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    sp_combine c = {.fname = "tl.reduce"};
    bool keep;
    if (!SP_BIND(s, "triton.language.reduce", "input, axis, combine_fn, keep_dims=", a, call,
                 p) ||
        !sp_combine_inputs(s, &c, p[0], p[2], call) ||
        !sp_const_flag(s, p[3], call, "keep_dims", &keep))
        return false;
    ir_type t = *sp_slot_type(s, c.x[0]);
    if (!sp_red_axis(s, p[1], &t, true, call, &c.axis))
        return false;
    int32_t cur[SP_MAX_COMBINE], lo[SP_MAX_COMBINE], hi[SP_MAX_COMBINE];
    memcpy(cur, c.x, sizeof cur);
    bool all = c.axis < 0;
    if (all) {   /* all axes: reduce the raveled tiles */
        ir_type flat = {.ndim = 1, .shape = {1}};
        for (int d = 0; d < t.ndim; d++)
            flat.shape[0] *= t.shape[d];
        for (int i = 0; i < c.k; i++) {
            sval f;
            flat.dt = c.dt[i];
            if (!sp_reshape_to(s, cur[i], flat, call, &f))
                return false;
            cur[i] = f.slot;
        }
        c.axis = 0;
    }
    for (int32_t n = sp_slot_type(s, cur[0])->shape[c.axis]; n > 1; n = (n + 1) / 2) {
        int32_t h = n / 2, r[SP_MAX_COMBINE];
        sp_slice_all(s, &c, cur, 0, h, call, lo);
        sp_slice_all(s, &c, cur, h, h, call, hi);
        if (!sp_combine_call(s, &c, lo, hi, call, r))
            return false;
        if (n & 1) {   /* an odd length: the last lane waits for the next step */
            int32_t last[SP_MAX_COMBINE];
            sp_slice_all(s, &c, cur, n - 1, 1, call, last);
            for (int i = 0; i < c.k; i++) {
                ir_type t2 = *sp_slot_type(s, r[i]);
                t2.shape[c.axis]++;
                r[i] = sp_new_tile(s, t2, IR_CONCAT, 0, r[i], last[i], -1, c.axis, call).slot;
            }
        }
        memcpy(cur, r, sizeof cur);
    }
    /* cur now has length 1 on the axis: keep it, or drop it (all axes:
     * reshape to the keep_dims shape or a scalar). */
    for (int i = 0; i < c.k; i++) {
        ir_type rt = {.dt = c.dt[i]};
        for (int d = 0; d < t.ndim; d++) {
            bool reduced = all || d == c.axis;
            if (!reduced || keep)
                rt.shape[rt.ndim++] = reduced ? 1 : t.shape[d];
        }
        sval f;
        if (!sp_reshape_to(s, cur[i], rt, call, &f))
            return false;
        cur[i] = f.slot;
    }
    *out = sp_combine_result(s, &c, cur);
    return true;
}

/* tl.associative_scan(input, axis, combine_fn, reverse=False): inclusive;
 * reverse=True scans from the end (a flip, the scan, a flip back). */
static bool tl_associative_scan(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4];
    sp_combine c = {.fname = "tl.associative_scan"};
    bool reverse;
    if (!SP_BIND(s, "triton.language.associative_scan", "input, axis, combine_fn, reverse=", a,
                 call, p) ||
        !sp_combine_inputs(s, &c, p[0], p[2], call) ||
        !sp_const_flag(s, p[3], call, "reverse", &reverse))
        return false;
    ir_type t = *sp_slot_type(s, c.x[0]);
    if (!sp_red_axis(s, p[1], &t, false, call, &c.axis))
        return false;
    int32_t cur[SP_MAX_COMBINE], lo[SP_MAX_COMBINE], hi[SP_MAX_COMBINE];
    int32_t head[SP_MAX_COMBINE], r[SP_MAX_COMBINE];
    memcpy(cur, c.x, sizeof cur);
    if (reverse)
        for (int i = 0; i < c.k; i++)
            sp_flip_axis(s, cur[i], c.axis, call, &cur[i]);
    int32_t n = t.shape[c.axis];
    for (int32_t d = 1; d < n; d *= 2) {
        sp_slice_all(s, &c, cur, 0, n - d, call, lo);
        sp_slice_all(s, &c, cur, d, n - d, call, hi);
        sp_slice_all(s, &c, cur, 0, d, call, head);
        if (!sp_combine_call(s, &c, lo, hi, call, r))
            return false;
        for (int i = 0; i < c.k; i++) {
            ir_type full = *sp_slot_type(s, cur[i]);
            cur[i] = sp_new_tile(s, full, IR_CONCAT, 0, head[i], r[i], -1, c.axis, call).slot;
        }
    }
    if (reverse)
        for (int i = 0; i < c.k; i++)
            sp_flip_axis(s, cur[i], c.axis, call, &cur[i]);
    *out = sp_combine_result(s, &c, cur);
    return true;
}

/* tl.softmax(x, dim=None, keep_dims=False, ieee_rounding=False), as
 * Triton's standard.py writes it: over axis dim (0 when None),
 * exp(x - max(x, dim)) / sum(...), both reductions with keep_dims. */
static bool tl_softmax(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[4], m, z, num, den;
    if (!SP_BIND(s, "triton.language.softmax", "x, dim=, keep_dims=, ieee_rounding=", a,
                 call, p))
        return false;
    sval dim = sv_is_none(p[1]) ? sv_int(0) : p[1];
    const char *kw[] = {"keep_dims"};
    sval keep = sv_is_none(p[2]) ? sv_const((spec_const){.kind = SC_BOOL}) : p[2];
    sp_args ma = {.argc = 2, .argv = (sval[]){p[0], dim}, .nkw = 1, .kwnames = kw,
                  .kwv = &keep};
    if (!tl_max(s, &ma, call, &m) || !sp_binop(s, AST_OP_SUB, p[0], m, call, &z))
        return false;
    sp_args ea = {.argc = 1, .argv = &z};
    if (!tl_exp(s, &ea, call, &num))
        return false;
    sp_args sa = {.argc = 2, .argv = (sval[]){num, dim}, .nkw = 1, .kwnames = kw,
                  .kwv = &keep};
    if (!tl_sum(s, &sa, call, &den))
        return false;
    return sp_float_div(s, "tl.fdiv", (sval[]){num, den}, false, call, out);
}

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

/* print(...) in a kernel is Triton's tl.device_print, so it takes the same
 * arguments; tritsim prints them as Triton's interpreter does (tiles as
 * numpy arrays, separated by spaces). */
static bool builtin_print(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    if (!SP_BIND(s, "builtins.print", "*values, sep=, end=", a, call, p))
        return false;
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

bool spec_pid_conds_match(const ir_print *p, const int64_t pid[3])
{
    for (int i = 0; i < 3; i++) {
        int64_t v = p->pid_cond[i].value, x = pid[i];
        bool ok = true;
        switch (p->pid_cond[i].op) {
        case IR_EQ: ok = x == v; break;
        case IR_NE: ok = x != v; break;
        case IR_LT: ok = x < v; break;
        case IR_LE: ok = x <= v; break;
        case IR_GT: ok = x > v; break;
        case IR_GE: ok = x >= v; break;
        default: break;
        }
        if (!ok)
            return false;
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

static bool util_print_if(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool util_breakpoint_if(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool builtin_breakpoint(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool tl_device_print(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool tl_static_print(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool tl_static_assert(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool tl_device_assert(spec *s, const sp_args *a, const ast_node *call, sval *out)
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
    sp_emit(s, IR_ASSERT, 0, -1, c, -1, -1, sp_print_desc(s, pr), call);
    return true;
}

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

static bool tl_range_outside_for(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    (void)a, (void)out;
    return sp_error(s, call, "range() can only be used as the iterable of a for loop in "
                    "a kernel");
}

/* ---- Python builtins ------------------------------------------------------ */

static bool builtin_minmax(spec *s, const sp_args *a, const ast_node *call, sval *out,
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

static bool builtin_min(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return builtin_minmax(s, a, call, out, false);
}

static bool builtin_max(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return builtin_minmax(s, a, call, out, true);
}

static bool builtin_len(spec *s, const sp_args *a, const ast_node *call, sval *out)
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

static bool builtin_convert(spec *s, const char *qual, const sp_args *a, const ast_node *call,
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

static bool builtin_int(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return builtin_convert(s, "builtins.int", a, call, out);
}

static bool builtin_float(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return builtin_convert(s, "builtins.float", a, call, out);
}

static bool builtin_bool(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    return builtin_convert(s, "builtins.bool", a, call, out);
}

static bool util_host_only(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    (void)a, (void)out;
    return sp_error(s, call, "this function runs on the host; call it before the launch, "
                    "not inside a kernel");
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
    {"triton.cdiv", tl_cdiv, SPEC_FX_NONE},
    {"triton.next_power_of_2", triton_next_power_of_2, SPEC_FX_NONE},
    {"triton_util.cdiv", tl_cdiv, SPEC_FX_NONE},
    {"triton_util.print_if", util_print_if, SPEC_FX_PRINTS},
    {"triton_util.breakpoint_if", util_breakpoint_if, SPEC_FX_STOPS},
    {"triton_util.check_tensors_gpu_ready", util_host_only, SPEC_FX_NONE},
    {"builtins.range", tl_range_outside_for, SPEC_FX_NONE},
    {"builtins.print", builtin_print, SPEC_FX_PRINTS},
    {"builtins.breakpoint", builtin_breakpoint, SPEC_FX_STOPS},
    {"pdb.set_trace", builtin_breakpoint, SPEC_FX_STOPS},
    {"builtins.min", builtin_min, SPEC_FX_NONE},
    {"builtins.max", builtin_max, SPEC_FX_NONE},
    {"builtins.len", builtin_len, SPEC_FX_NONE},
    {"builtins.int", builtin_int, SPEC_FX_NONE},
    {"builtins.float", builtin_float, SPEC_FX_NONE},
    {"builtins.bool", builtin_bool, SPEC_FX_NONE},
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
    static const char *const methods[] = {
        "to", "sum", "max", "min", "argmax", "argmin", "xor_sum", "cumsum", "cumprod",
        "reshape", "view", "trans", "permute", "broadcast_to", "expand_dims", "exp", "exp2",
        "log", "log2",
        "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "floor", "ceil", "erf", "abs", "sigmoid",
        "softmax", "fma", "flip", "ravel", "split", "reduce", "associative_scan", "gather",
        "histogram", NULL,
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
            *out = sp_new_tile(s, t, IR_CAST, 2, x, -1, -1, 0, call);
            return true;
        }
    }
    if (!dtype_can_cast(t.dt, dt))
        return sp_error(s, call, "cannot cast %s to %s", dtype_name(t.dt), dtype_name(dt));
    *out = sv_tile(sp_cast(s, x, dt, call));
    return true;
}

bool sp_call_method(spec *s, sval m, const sp_args *args, const ast_node *call, sval *out)
{
    if (m.items)           /* a tensor descriptor's method */
        return sp_desc_call(s, m, args, call, out);
    if (!strcmp(m.name, "to"))
        return sp_method_to(s, m.slot, args, call, out);
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
