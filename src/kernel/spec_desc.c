/* spec_desc.c - tensor descriptors: tl.make_tensor_descriptor and the
 * loads, stores and atomics through them (desc.load(offsets),
 * desc.store(offsets, value), desc.atomic_add(offsets, value), ...,
 * tl.load_tensor_descriptor, tl.store_tensor_descriptor), with the checks
 * and messages of Triton 3.6's semantic.py.
 *
 * A descriptor is what the GPU's TMA unit reads: a base pointer, a shape
 * and strides in elements (the last stride 1), and a block shape fixed at
 * compile time.  Like a block pointer (spec_block.c) it needs no IR of its
 * own: it is an SV_BLOCKPTR whose sp_blockinfo says desc, holding runtime
 * scalars (the base, nd int32 sizes, nd int64 strides).  An access at
 * offsets lowers to the pointer tile base + sum over d of (offsets[d] +
 * arange(block[d])) * strides[d] and the mask 0 <= index < shape[d] on
 * every dimension: elements outside the shape read as zero (NaN with
 * padding_option="nan") and are not written, as TMA does, and the elements
 * inside it meet the executor's bounds checks against the base's tensor.
 *
 * Each tl.make_tensor_descriptor in a kernel needs 128 bytes of global
 * scratch per program on the GPU (where the descriptor is written), which
 * the launch asks triton.set_allocator's allocator for (launch.c):
 * ir_kernel.ndesc counts them.  The GPU's rules on the base (16-byte
 * aligned) and the strides (multiples of 16 bytes) are checked when a
 * program makes the descriptor. */
#include <string.h>

#include "spec_tl.h"

enum { SP_DESC_MAX_DIM = 5 };     /* Triton's limit; tritsim's tiles stop at 4 */

/* A list or tuple argument as a tuple of values. */
static bool sp_desc_seq(spec *s, sval v, const ast_node *at, const char *fname,
                        const char *what, sval *seq)
{
    *seq = sp_tuple_view(s, v);
    if (seq->kind != SV_TUPLE) {
        char buf[128];
        return sp_error(s, at, "%s: %s must be a list or tuple, not %s", fname, what,
                        sp_describe(s, v, buf, sizeof buf));
    }
    return true;
}

/* v as a scalar of dtype dt (Triton's make_scalar): a number becomes a
 * constant, a one-element integer tile is cast. */
static bool sp_desc_scalar(spec *s, sval v, dtype dt, const ast_node *at, const char *what,
                           sval *out)
{
    if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_BOOL)) {
        int64_t i = v.c.kind == SC_BOOL ? v.c.u.b : v.c.u.i;
        *out = sv_tile(sp_const_slot(s, &(spec_const){.kind = SC_INT, .u.i = i}, dt, at));
        return true;
    }
    int32_t x;
    if (!sp_want_tile(s, v, at, what, &x))
        return false;
    const ir_type *t = sp_slot_type(s, x);
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    if (n != 1 || !dtype_is_int(t->dt) || dtype_is_ptr(t->dt)) {
        char ts[96];
        ir_type_str(t, ts, sizeof ts);
        return sp_error(s, at, "%s must be an integer scalar, not %s", what, ts);
    }
    if (t->ndim)
        x = sp_new_tile(s, sp_scalar_type(t->dt), IR_RESHAPE, 0, x, -1, -1, 0, at).slot;
    *out = sv_tile(sp_cast(s, x, dt, at));
    return true;
}

/* A check of the GPU's made at run time: every lane of cond (int1) true,
 * else the program fails with "<head> in program (x, y, z): <tail>". */
static void sp_desc_check(spec *s, int32_t cond, const char *head, ir_fmt_piece *tail,
                          int ntail, const ast_node *at)
{
    ir_print p = {.kind = IR_PRINT_TEXT, .npieces = 1 + ntail};
    p.pieces = arena_alloc(s->a, (size_t)(ntail + 1) * sizeof *p.pieces);
    p.pieces[0] = (ir_fmt_piece){.text = head, .slot = -1};
    memcpy(p.pieces + 1, tail, (size_t)ntail * sizeof *tail);
    for (int i = 0; i < 3; i++)
        p.pid_cond[i].op = -1;
    sp_emit(s, IR_ASSERT, IR_ASSERT_RULE, -1, cond, -1, -1, sp_print_desc(s, p), at);
}

/* x % m == 0 for an int64 scalar x (*rem: x % m). */
static bool sp_desc_multiple(spec *s, sval x, int64_t m, const ast_node *at, int32_t *ok,
                             int32_t *rem)
{
    sval r, c;
    if (!sp_binop(s, AST_OP_MOD, x, sv_int(m), at, &r) ||
        !sp_binop(s, AST_OP_EQ, r, sv_int(0), at, &c))
        return false;
    *ok = c.slot;
    if (rem)
        *rem = r.slot;
    return true;
}

static char *sp_desc_text(spec *s, const char *text)
{
    return arena_strndup(s->a, text, strlen(text));
}

/* tl.make_tensor_descriptor(base, shape, strides, block_shape,
 * padding_option="zero") */
bool tl_make_tensor_descriptor(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    static const char fname[] = "tl.make_tensor_descriptor";
    sval p[5], shape, strides, block;
    if (!SP_BIND(s, "triton.language.make_tensor_descriptor",
                 "base, shape, strides, block_shape, padding_option=", a, call, p))
        return false;
    const ir_type *bt = p[0].kind == SV_TILE ? sp_slot_type(s, p[0].slot) : NULL;
    if (!bt || !dtype_is_ptr(bt->dt) || bt->ndim != 0) {
        char buf[128];
        return sp_error(s, call, "%s: base must be a scalar pointer (a tensor argument, or "
                        "an address cast with tl.pointer_type), not %s", fname,
                        sp_describe(s, p[0], buf, sizeof buf));
    }
    if (!sp_desc_seq(s, p[1], call, fname, "shape", &shape) ||
        !sp_desc_seq(s, p[2], call, fname, "strides", &strides) ||
        !sp_desc_seq(s, p[3], call, fname, "block_shape", &block))
        return false;
    int nd = shape.n;
    if (nd < 1 || nd > SP_DESC_MAX_DIM)
        return sp_error(s, call, "Expected 1 <= ndim <= 5 but got %d dimensions", nd);
    if (strides.n != nd)
        return sp_error(s, call, "Expected %d strides but got %d", nd, strides.n);
    if (block.n != nd)
        return sp_error(s, call, "Expected block_shape to have %d dimensions but got %d", nd,
                        block.n);
    if (nd > IR_MAX_DIM)
        return sp_error(s, call, "%s: tritsim's tiles have at most %d dimensions, so its "
                        "descriptors too (this one has %d)", fname, IR_MAX_DIM, nd);
    dtype elem = dtype_elem(bt->dt);
    int64_t esize = dtype_bits(elem) / 8;
    int64_t b[IR_MAX_DIM];
    for (int d = 0; d < nd; d++) {
        sval v = block.items[d];
        if (v.kind != SV_CONST || v.c.kind != SC_INT)
            return sp_error(s, call, "Shape element %d must have type `constexpr[int]`, got "
                            "%s (block_shape must be known at compile time)", d,
                            v.kind == SV_TILE ? "a tile" : "another value");
        b[d] = v.c.u.i;
    }
    if (b[nd - 1] * esize < 16)
        return sp_error(s, call, "Descriptor block shape must have at least 16 bytes in the "
                        "last dimension, but got %lld * %lld = %lld bytes",
                        (long long)b[nd - 1], (long long)esize, (long long)(b[nd - 1] * esize));
    sval last = strides.items[nd - 1];
    if (last.kind == SV_CONST && last.c.kind == SC_INT && last.c.u.i != 1)
        return sp_error(s, call, "Tensor descriptor last dim must be 1 but got %lld",
                        (long long)last.c.u.i);
    if (last.kind != SV_CONST || last.c.kind != SC_INT) {
        char buf[128];
        return sp_error(s, call, "%s: the last stride must be the constant 1 (Triton reads it "
                        "at compile time), not %s", fname, sp_describe(s, last, buf, sizeof buf));
    }
    const char *pad = "zero";
    if (!sv_is_none(p[4]) && !sp_want_str(s, p[4], call, "padding_option", &pad))
        return false;
    if (strcmp(pad, "zero") && strcmp(pad, "nan"))
        return sp_error(s, call, "Padding option %s not supported", pad);
    if (!strcmp(pad, "nan") && dtype_is_int(elem))
        return sp_error(s, call, "Padding option `nan` is not supported for integer blocks");
    int64_t numel = 1;
    for (int d = 0; d < nd; d++) {
        if (b[d] < 1 || (b[d] & (b[d] - 1)))
            return sp_error(s, call, "Shape element %d must be a power of 2", d);
        numel *= b[d];
        if (numel > (1 << 20))
            break;
    }
    if (numel > (1 << 20))
        return sp_error(s, call, "numel (%lld) exceeds triton maximum tensor numel (1048576)",
                        (long long)numel);

    sp_blockinfo *bi = arena_alloc(s->a, sizeof *bi);
    memset(bi, 0, sizeof *bi);
    bi->nd = nd;
    bi->elem = elem;
    bi->desc = true;
    bi->pad_nan = !strcmp(pad, "nan");
    for (int d = 0; d < nd; d++) {
        bi->block[d] = (int32_t)b[d];
        bi->order[d] = (int8_t)(nd - 1 - d);
    }
    sval r = {.kind = SV_BLOCKPTR, .n = 1 + 2 * nd, .slot = -1, .block = bi};
    r.items = arena_alloc(s->a, (size_t)r.n * sizeof *r.items);
    r.items[0] = p[0];
    for (int d = 0; d < nd; d++) {
        char what[48];
        snprintf(what, sizeof what, "%s: shape[%d]", fname, d);
        if (!sp_desc_scalar(s, shape.items[d], DTYPE_INT32, call, what, &r.items[1 + d]))
            return false;
        snprintf(what, sizeof what, "%s: strides[%d]", fname, d);
        if (!sp_desc_scalar(s, strides.items[d], DTYPE_INT64, call, what,
                            &r.items[1 + nd + d]))
            return false;
    }

    /* What the GPU needs of the memory the descriptor describes, checked
     * by each program that makes it. */
    if (!s->dbg_expr) {
        int32_t ok, rem;
        sval addr = sv_tile(sp_cast(s, p[0].slot, DTYPE_INT64, call));
        if (!sp_desc_multiple(s, addr, 16, call, &ok, &rem))
            return false;
        ir_fmt_piece tail[3] = {
            {.text = "its base address is ", .slot = -1},
            {.slot = rem, .spec = "d"},
            {.text = " bytes past a multiple of 16 (the GPU's TMA unit needs 16-byte "
                     "aligned tensors)", .slot = -1},
        };
        sp_desc_check(s, ok, "misaligned tensor descriptor", tail, 3, call);
        for (int d = 0; d < nd - 1; d++) {
            sval bytes;
            if (!sp_binop(s, AST_OP_MUL, r.items[1 + nd + d], sv_int(esize), call, &bytes) ||
                !sp_desc_multiple(s, bytes, 16, call, &ok, NULL))
                return false;
            char text[160];
            snprintf(text, sizeof text, " elements of %s) is not a multiple of 16 bytes (the "
                     "GPU's TMA unit needs it)", dtype_name(elem));
            char head[48];
            snprintf(head, sizeof head, "its stride %d (", d);
            ir_fmt_piece st[3] = {
                {.text = sp_desc_text(s, head), .slot = -1},
                {.slot = r.items[1 + nd + d].slot, .spec = "d"},
                {.text = sp_desc_text(s, text), .slot = -1},
            };
            sp_desc_check(s, ok, "misaligned tensor descriptor", st, 3, call);
        }
        s->ndesc++;
    }
    *out = r;
    return true;
}

static bool sp_want_desc(spec *s, sval v, const ast_node *at, const char *fname)
{
    if (v.kind == SV_BLOCKPTR && v.block->desc)
        return true;
    char buf[128];
    return sp_error(s, at, "%s needs a tensor descriptor (from tl.make_tensor_descriptor), "
                    "not %s", fname, sp_describe(s, v, buf, sizeof buf));
}

/* The offsets of an access: nd int32 scalars, as Triton's
 * _convert_to_ir_values(require_i64=False) takes them; as int64 values
 * for the lowering. */
static bool sp_desc_offsets(spec *s, sval desc, sval offs_v, const ast_node *at,
                            sval *offs)
{
    int nd = desc.block->nd;
    sval seq = sp_tuple_view(s, offs_v);
    if (seq.kind != SV_TUPLE) {
        char buf[128];
        return sp_error(s, at, "the offsets of a tensor descriptor access must be a list or "
                        "tuple of %d integers, not %s", nd,
                        sp_describe(s, offs_v, buf, sizeof buf));
    }
    if (seq.n != nd)
        return sp_error(s, at, "expected %d offsets, but got %d", nd, seq.n);
    for (int d = 0; d < nd; d++) {
        sval v = seq.items[d];
        if (v.kind == SV_CONST && (v.c.kind == SC_INT || v.c.kind == SC_BOOL)) {
            int64_t i = v.c.kind == SC_BOOL ? v.c.u.b : v.c.u.i;
            if (i < -((int64_t)1 << 31) || i >= ((int64_t)1 << 31))
                return sp_error(s, at, "Block pointers only support 32 bit "
                                "`offsets/block_shape`, got a value %lld which is out of the "
                                "range", (long long)i);
            offs[d] = sv_tile(sp_const_slot(s, &(spec_const){.kind = SC_INT, .u.i = i},
                                            DTYPE_INT64, at));
            continue;
        }
        int32_t x;
        if (!sp_want_tile(s, v, at, "an offset", &x))
            return false;
        const ir_type *t = sp_slot_type(s, x);
        int64_t n = 1;
        for (int k = 0; k < t->ndim; k++)
            n *= t->shape[k];
        if (n != 1)
            return sp_error(s, at, "Expected a scalar in shape/strides/offsets");
        if (!dtype_is_int(t->dt) || dtype_is_ptr(t->dt))
            return sp_error(s, at, "Expected an integer scalar type in shape/strides/offsets");
        if (t->dt == DTYPE_INT64 || t->dt == DTYPE_UINT64)
            return sp_error(s, at, "Block pointers only support 32 bit `offsets/block_shape`, "
                            "add a `.to(tl.int32)` or use regular indexing for 64 bit support");
        if (t->ndim)
            x = sp_new_tile(s, sp_scalar_type(t->dt), IR_RESHAPE, 0, x, -1, -1, 0, at).slot;
        offs[d] = sv_tile(sp_cast(s, x, DTYPE_INT64, at));
    }
    return true;
}

/* The pointer tile and mask of the block at offs. */
static bool sp_desc_lower(spec *s, sval desc, const sval *offs, const ast_node *at,
                          int32_t *ptr, int32_t *mask)
{
    int nd = desc.block->nd;
    /* The GPU's TMA unit needs the block to start at a multiple of 16
     * bytes along the last dimension; on an H100 any other start stops
     * the kernel with an illegal instruction (fp32 offsets 1, 2, 6 and -1
     * did; -8, -4 and 4 worked). */
    if (!s->dbg_expr) {
        dtype elem = desc.block->elem;
        int64_t esize = dtype_size(elem);
        sval bytes;
        int32_t ok;
        if (!sp_binop(s, AST_OP_MUL, offs[nd - 1], sv_int(esize), at, &bytes) ||
            !sp_desc_multiple(s, bytes, 16, at, &ok, NULL))
            return false;
        char text[200];
        snprintf(text, sizeof text, " elements of %s, not a multiple of 16 bytes (the GPU's "
                 "TMA unit needs the block to start at one: an H100 stops with an illegal "
                 "instruction); use offsets that are multiples of %lld there",
                 dtype_name(elem), (long long)(16 / esize > 0 ? 16 / esize : 1));
        ir_fmt_piece tail[3] = {
            {.text = "its offset along the last dimension is ", .slot = -1},
            {.slot = offs[nd - 1].slot, .spec = "d"},
            {.text = sp_desc_text(s, text), .slot = -1},
        };
        sp_desc_check(s, ok, "misaligned tensor descriptor access", tail, 3, at);
    }
    sval bp = desc;
    bp.n = 1 + 3 * nd;
    bp.items = arena_alloc(s->a, (size_t)bp.n * sizeof *bp.items);
    memcpy(bp.items, desc.items, (size_t)(1 + 2 * nd) * sizeof *bp.items);
    memcpy(bp.items + 1 + 2 * nd, offs, (size_t)nd * sizeof *offs);
    return sp_block_lower(s, bp, (1u << nd) - 1, at, ptr, mask);
}

/* desc.load(offsets): the block, zero (or NaN) outside the shape. */
static bool sp_desc_load(spec *s, sval desc, sval offs_v, const ast_node *call, sval *out)
{
    sval offs[IR_MAX_DIM];
    int32_t ptr, mask;
    if (!sp_desc_offsets(s, desc, offs_v, call, offs) ||
        !sp_desc_lower(s, desc, offs, call, &ptr, &mask))
        return false;
    dtype elem = desc.block->elem;
    spec_const pad = {.kind = SC_INT, .u.i = 0};
    if (desc.block->pad_nan)
        pad = (spec_const){.kind = SC_FLOAT, .u.f = __builtin_nan("")};
    else if (dtype_is_float(elem))
        pad = (spec_const){.kind = SC_FLOAT, .u.f = 0.0};
    int32_t other = sp_const_slot(s, &pad, elem, call);
    ir_type t = *sp_slot_type(s, ptr);
    t.dt = elem;
    *out = sp_new_tile(s, t, IR_LOAD, 0, ptr, mask, other, 0, call);
    return true;
}

/* The value of a store-like access: a tile of exactly the block's shape
 * (validate_store_like), cast to the element type. */
static bool sp_desc_value(spec *s, sval desc, sval v, const ast_node *at, const char *fname,
                          int32_t ptr, int32_t *val)
{
    if (v.kind != SV_TILE) {
        char buf[128];
        return sp_error(s, at, "%s: the value must be a tile of the descriptor's block shape, "
                        "not %s", fname, sp_describe(s, v, buf, sizeof buf));
    }
    const ir_type *vt = sp_slot_type(s, v.slot), *pt = sp_slot_type(s, ptr);
    if (vt->ndim != pt->ndim || memcmp(vt->shape, pt->shape, sizeof vt->shape[0] *
                                       (size_t)vt->ndim)) {
        char x[64], y[64];
        sp_shape_str(vt, x, sizeof x);
        sp_shape_str(pt, y, sizeof y);
        return sp_error(s, at, "%s: the value's shape %s is not the descriptor's block shape "
                        "%s (Triton asserts value.shape == desc.block_shape)", fname, x, y);
    }
    *val = v.slot;
    return sp_mem_cast(s, val, desc.block->elem, at, "the value");
}

/* desc.store(offsets, value): the elements inside the shape. */
static bool sp_desc_store(spec *s, sval desc, sval offs_v, sval v, const ast_node *call,
                          sval *out)
{
    sval offs[IR_MAX_DIM];
    int32_t ptr, mask, val;
    if (!sp_desc_offsets(s, desc, offs_v, call, offs) ||
        !sp_desc_lower(s, desc, offs, call, &ptr, &mask) ||
        !sp_desc_value(s, desc, v, call, "desc.store", ptr, &val))
        return false;
    sp_emit(s, IR_STORE, 0, -1, ptr, val, mask, 0, call);
    *out = sv_none();
    return true;
}

/* desc.atomic_add/min/max/and/or/xor(offsets, value), element types as
 * semantic.py's descriptor_atomic_* allow (fp16/bf16 min/max need native
 * TMA, which the simulated H100 has). */
static bool sp_desc_atomic(spec *s, sval desc, const char *name, sval offs_v, sval v,
                           const ast_node *call, sval *out)
{
    static const struct {
        const char *name;
        ir_atomic op;
        dtype ok[7];
    } ops[] = {
        {"atomic_add", IR_ATOMIC_ADD, {DTYPE_UINT32, DTYPE_INT32, DTYPE_UINT64, DTYPE_FP32,
                                       DTYPE_FP16, DTYPE_BF16}},
        {"atomic_min", IR_ATOMIC_MIN, {DTYPE_UINT32, DTYPE_INT32, DTYPE_UINT64, DTYPE_INT64,
                                       DTYPE_FP16, DTYPE_BF16}},
        {"atomic_max", IR_ATOMIC_MAX, {DTYPE_UINT32, DTYPE_INT32, DTYPE_UINT64, DTYPE_INT64,
                                       DTYPE_FP16, DTYPE_BF16}},
        {"atomic_and", IR_ATOMIC_AND, {DTYPE_UINT32, DTYPE_INT32, DTYPE_UINT64, DTYPE_INT64}},
        {"atomic_or", IR_ATOMIC_OR, {DTYPE_UINT32, DTYPE_INT32, DTYPE_UINT64, DTYPE_INT64}},
        {"atomic_xor", IR_ATOMIC_XOR, {DTYPE_UINT32, DTYPE_INT32, DTYPE_UINT64, DTYPE_INT64}},
    };
    size_t i = 0;
    while (strcmp(ops[i].name, name))
        i++;
    dtype elem = desc.block->elem;
    bool ok = false;
    for (int j = 0; j < 7 && ops[i].ok[j]; j++)
        ok |= ops[i].ok[j] == elem;
    if (!ok)
        return sp_error(s, call, "desc.%s: unsupported dtype %s (Triton's \"Unsupported "
                        "dtype\")", name, dtype_name(elem));
    sval offs[IR_MAX_DIM];
    int32_t ptr, mask, val;
    char fname[32];
    snprintf(fname, sizeof fname, "desc.%s", name);
    if (!sp_desc_offsets(s, desc, offs_v, call, offs) ||
        !sp_desc_lower(s, desc, offs, call, &ptr, &mask) ||
        !sp_desc_value(s, desc, v, call, fname, ptr, &val))
        return false;
    ir_type rt = *sp_slot_type(s, ptr);
    rt.dt = elem;
    sp_emit(s, IR_ATOMIC, ops[i].op, sp_slot(s, rt, NULL), ptr, val, mask, 0, call);
    *out = sv_none();
    return true;
}

static const char *const sp_desc_methods[] = {
    "load", "store", "atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or",
    "atomic_xor", NULL,
};

bool sp_desc_attr(spec *s, sval desc, const char *attr, const ast_node *at, sval *out)
{
    const sp_blockinfo *bi = desc.block;
    int nd = bi->nd;
    if (!strcmp(attr, "dtype")) {
        *out = sv_const((spec_const){.kind = SC_DTYPE, .u.dt = bi->elem});
        return true;
    }
    if (!strcmp(attr, "block_shape")) {
        spec_const c = {.kind = SC_TUPLE};
        c.u.tuple.n = nd;
        c.u.tuple.items = arena_alloc(s->a, (size_t)nd * sizeof *c.u.tuple.items);
        for (int d = 0; d < nd; d++)
            c.u.tuple.items[d] = (spec_const){.kind = SC_INT, .u.i = bi->block[d]};
        *out = sv_const(c);
        return true;
    }
    if (!strcmp(attr, "shape") || !strcmp(attr, "strides")) {
        sval t = {.kind = SV_TUPLE, .n = nd, .slot = -1};
        t.items = arena_alloc(s->a, (size_t)nd * sizeof *t.items);
        memcpy(t.items, desc.items + 1 + (attr[1] == 'h' ? 0 : nd), (size_t)nd * sizeof *t.items);
        *out = t;
        return true;
    }
    for (int i = 0; sp_desc_methods[i]; i++)
        if (!strcmp(attr, sp_desc_methods[i])) {
            sval m = {.kind = SV_METHOD, .slot = -1, .name = sp_desc_methods[i], .n = 1};
            m.items = arena_alloc(s->a, sizeof *m.items);
            m.items[0] = desc;
            *out = m;
            return true;
        }
    if (!strcmp(attr, "gather") || !strcmp(attr, "scatter"))
        return sp_error(s, at, "tensor descriptors' %s is not supported by tritsim (see "
                        "doc/language.md)", attr);
    return sp_error(s, at, "tensor descriptors have no attribute '%s' in tritsim (see "
                    "doc/language.md)", attr);
}

bool sp_desc_call(spec *s, sval m, const sp_args *a, const ast_node *call, sval *out)
{
    sval desc = m.items[0], p[2];
    char qual[64];
    snprintf(qual, sizeof qual, "tensor_descriptor.%s", m.name);
    if (!strcmp(m.name, "load"))
        return SP_BIND(s, qual, "offsets", a, call, p) &&
               sp_desc_load(s, desc, p[0], call, out);
    if (!SP_BIND(s, qual, "offsets, value", a, call, p))
        return false;
    if (s->dbg_expr && !sp_dbg_pure(s, "triton.language.store_tensor_descriptor",
                                     SPEC_FX_WRITES, call))
        return false;
    if (!strcmp(m.name, "store"))
        return sp_desc_store(s, desc, p[0], p[1], call, out);
    return sp_desc_atomic(s, desc, m.name, p[0], p[1], call, out);
}

/* tl.load_tensor_descriptor(desc, offsets) */
bool tl_load_tensor_descriptor(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[2];
    return SP_BIND(s, "triton.language.load_tensor_descriptor", "desc, offsets", a, call, p) &&
           sp_want_desc(s, p[0], call, "tl.load_tensor_descriptor") &&
           sp_desc_load(s, p[0], p[1], call, out);
}

/* tl.store_tensor_descriptor(desc, offsets, value) */
bool tl_store_tensor_descriptor(spec *s, const sp_args *a, const ast_node *call, sval *out)
{
    sval p[3];
    return SP_BIND(s, "triton.language.store_tensor_descriptor", "desc, offsets, value", a,
                   call, p) &&
           sp_want_desc(s, p[0], call, "tl.store_tensor_descriptor") &&
           sp_desc_store(s, p[0], p[1], p[2], call, out);
}

bool sp_desc_param(spec *s, const ast_node *param, const spec_param *sp, ir_param *params,
                   int *n)
{
    const char *name = param->u.param.name;
    int nd = sp->desc_nd;
    dtype elem = dtype_elem(sp->dt);
    if (nd > IR_MAX_DIM)
        return sp_error(s, param, "argument '%s' is a TensorDescriptor of %d dimensions; "
                        "tritsim's tiles have at most %d", name, nd, IR_MAX_DIM);
    int64_t esize = dtype_bits(elem) / 8;
    if (sp->desc_block[nd - 1] * esize < 16)
        return sp_error(s, param, "Descriptor block shape must have at least 16 bytes in the "
                        "last dimension, but got %d * %lld = %lld bytes (argument '%s')",
                        sp->desc_block[nd - 1], (long long)esize,
                        (long long)(sp->desc_block[nd - 1] * esize), name);
    sp_blockinfo *bi = arena_alloc(s->a, sizeof *bi);
    memset(bi, 0, sizeof *bi);
    bi->nd = nd;
    bi->elem = elem;
    bi->desc = true;
    bi->pad_nan = sp->desc_nan;
    for (int d = 0; d < nd; d++) {
        bi->block[d] = sp->desc_block[d];
        bi->order[d] = (int8_t)(nd - 1 - d);
    }
    sval r = {.kind = SV_BLOCKPTR, .n = 1 + 2 * nd, .slot = -1, .block = bi};
    r.items = arena_alloc(s->a, (size_t)r.n * sizeof *r.items);
    for (int j = 0; j < r.n; j++) {
        dtype dt = j == 0 ? sp->dt : j <= nd ? DTYPE_INT32 : DTYPE_INT64;
        char *pname = (char *)name;
        if (j > 0) {
            size_t len = strlen(name) + 24;
            pname = arena_alloc(s->a, len);
            snprintf(pname, len, "%s.%s[%d]", name, j <= nd ? "shape" : "strides",
                     (j - 1) % nd);
        }
        int32_t slot = sp_slot(s, sp_scalar_type(dt), pname);
        if (j == 0)
            s->slots[slot].ptr_arg = *n;
        sp_emit(s, IR_ARG, 0, slot, -1, -1, -1, *n, param);
        params[*n].name = pname;
        params[*n].dt = dt;
        (*n)++;
        r.items[j] = sv_tile(slot);
    }
    sp_bind(s, name, r);
    return true;
}
