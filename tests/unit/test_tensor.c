/* test_tensor.c - unit tests of tensor.h, the C side of torch tensors: the
 * launcher's view (data, extent, strides), views and their errors, copies,
 * the float loops (tensor_loops.h) and runs, fp8 conversions, dtype views
 * and refusals, torch's type promotion, elementwise arithmetic, reductions
 * and matrix products.  Expected values
 * are worked out by hand from torch's rules. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tensor.h"
#include "tensor_loops.h"
#include "tensor_par.h"

static char err[TENSOR_ERR_LEN];

/* A 1-D int64 tensor 0, 1, ..., n-1. */
static tensor *iota(int64_t n)
{
    tensor *t = tensor_new(DTYPE_INT64, 1, &n, false, err);
    for (int64_t i = 0; i < n; i++)
        tensor_set(t, &i, (dtype_scalar){.i = i});
    return t;
}

/* A tensor of dtype type and the given shape from doubles. */
static tensor *from(dtype type, int ndim, const int64_t *shape, const double *v)
{
    tensor *t = tensor_new(type, ndim, shape, false, err);
    int64_t n = tensor_numel(t);
    tensor *flat = tensor_view(t, 1, &n, err);
    for (int64_t i = 0; i < n; i++)
        tensor_set(flat, &i, dtype_cast((dtype_scalar){.f = v[i]}, DTYPE_FP64, type));
    tensor_unref(flat);
    return t;
}

static double flat_f(const tensor *t, int64_t i)
{
    return dtype_cast(tensor_get_flat(t, i), t->type, DTYPE_FP64).f;
}

static char *repr(const tensor *t)
{
    static char buf[2048];
    strbuf sb = {0};
    tensor_repr(t, &sb);
    snprintf(buf, sizeof buf, "%s", strbuf_cstr(&sb));
    strbuf_free(&sb);
    return buf;
}

static void test_launcher_view(void)
{
    int64_t shape[2] = {3, 4};
    tensor *t = tensor_new(DTYPE_FP32, 2, shape, true, err);
    TAP_OK(t && t->cuda && t->ndim == 2 && t->strides[0] == 4 && t->strides[1] == 1,
           "a new 3x4 tensor is row-major");
    TAP_OK(((uintptr_t)tensor_data(t) % TENSOR_ALIGN) == 0, "storage is 64-byte aligned");
    TAP_INT_EQ(tensor_extent(t), 12, "extent of a contiguous 3x4 tensor");
    TAP_OK(tensor_of(tensor_val(t)) == t && tensor_of(val_int(3)) == NULL,
           "tensor_of finds tensors only");
    tensor *col = tensor_select(t, 1, 2, err);
    TAP_INT_EQ((char *)tensor_data(col) - (char *)tensor_data(t), 8,
               "column 2 starts 2 floats in");
    TAP_INT_EQ(tensor_extent(col), 9, "extent of a column: 1 + 2*4");
    TAP_OK(!tensor_is_contiguous(col), "a column is not contiguous");
    int64_t e0 = 0;
    tensor *empty = tensor_new(DTYPE_FP16, 1, &e0, false, err);
    TAP_INT_EQ(tensor_extent(empty), 0, "an empty tensor reaches nothing");
    TAP_OK(tensor_is_contiguous(empty), "an empty tensor is contiguous");
    tensor *zero_d = tensor_scalar(DTYPE_INT32, (dtype_scalar){.i = -3}, false);
    TAP_INT_EQ(tensor_extent(zero_d), 1, "a 0-d tensor has one element");
    TAP_INT_EQ(tensor_numel(zero_d), 1, "numel of a 0-d tensor");
    int64_t big[2] = {1, 1};
    big[0] = (int64_t)1 << 40;
    big[1] = (int64_t)1 << 20;
    TAP_OK(tensor_new(DTYPE_FP32, 2, big, false, err) == NULL &&
           strstr(err, "cannot allocate") != NULL, "an impossible size is an error: %s", err);
    int64_t neg = -2;
    TAP_OK(tensor_new(DTYPE_FP32, 1, &neg, false, err) == NULL, "negative sizes are refused");
    TAP_STR_EQ(err, "Trying to create tensor with negative dimension -2: [-2]", "their message");
    tensor_unref(t);
    tensor_unref(col);
    tensor_unref(empty);
    tensor_unref(zero_d);
}

static void test_views(void)
{
    tensor *x = iota(12);
    int64_t s34[2] = {3, 4}, s_bad[2] = {5, -1}, s_inf[2] = {-1, 6};
    tensor *v = tensor_view(x, 2, s34, err);
    tensor *t = tensor_transpose(v, 0, 1, err);
    TAP_OK(t->strides[0] == 1 && t->strides[1] == 4 && t->shape[0] == 4,
           "transpose swaps shape and strides");
    int64_t twelve = 12;
    TAP_OK(tensor_view(t, 1, &twelve, err) == NULL && strstr(err, "Use .reshape(...)"),
           "a transposed tensor cannot be viewed flat");
    tensor *r = tensor_reshape(t, 1, &twelve, err);
    TAP_OK(r && !tensor_same_storage(r, t) && flat_f(r, 1) == 4 && flat_f(r, 3) == 1,
           "reshape copies it instead: 0 4 8 1 ...");
    TAP_OK(tensor_view(x, 2, s_bad, err) == NULL, "12 elements do not make rows of 5");
    TAP_STR_EQ(err, "shape '[5, -1]' is invalid for input of size 12", "the view message");
    tensor *inf = tensor_view(x, 2, s_inf, err);
    TAP_OK(inf && inf->shape[0] == 2, "-1 is inferred");
    /* a view of a slice: rows 1..2 of the 3x4 view stay viewable as 8 */
    tensor *rows = tensor_slice(v, 0, 1, 3, 1, err);
    int64_t eight = 8;
    tensor *rv = tensor_view(rows, 1, &eight, err);
    TAP_OK(rv && rv->offset == 4 && flat_f(rv, 0) == 4, "contiguous rows view flat");
    tensor *steps = tensor_slice(x, 0, 1, 100, 3, err);
    TAP_OK(steps->shape[0] == 4 && steps->strides[0] == 3 && flat_f(steps, 3) == 10,
           "x[1::3] is 1 4 7 10");
    TAP_OK(tensor_slice(x, 0, 0, 5, 0, err) == NULL, "a zero step is refused");
    tensor *neg = tensor_slice(x, 0, -3, -1, 1, err);
    TAP_OK(neg->shape[0] == 2 && flat_f(neg, 0) == 9, "x[-3:-1] is 9 10");
    int64_t perm[2] = {1, 0}, dup[2] = {0, 0};
    tensor *p = tensor_permute(v, 2, perm, err);
    TAP_OK(p && p->strides[0] == 1, "permute(1, 0)");
    TAP_OK(tensor_permute(v, 2, dup, err) == NULL, "duplicate dims are refused");
    int64_t ex[3] = {2, 3, -1};
    tensor *e = tensor_expand(v, 3, ex, err);
    TAP_OK(e && e->strides[0] == 0 && e->shape[2] == 4, "expand adds a stride-0 dimension");
    TAP_INT_EQ(tensor_extent(e), 12, "an expanded tensor reaches the same elements");
    int64_t ex_bad[2] = {3, 5};
    TAP_OK(tensor_expand(v, 2, ex_bad, err) == NULL, "4 columns do not expand to 5");
    TAP_STR_EQ(err, "The expanded size of the tensor (5) must match the existing size (4) at "
               "non-singleton dimension 1.  Target sizes: [3, 5].  Tensor sizes: [3, 4]",
               "the expand message");
    tensor *u = tensor_unsqueeze(v, -1, err);
    TAP_OK(u && u->ndim == 3 && u->shape[2] == 1, "unsqueeze(-1) appends a dimension");
    tensor *sq = tensor_squeeze(u, true, 0, err);
    TAP_OK(sq && sq->ndim == 2, "squeeze() drops it again");
    TAP_OK(tensor_select(v, 0, 3, err) == NULL, "row 3 of 3 is out of range");
    TAP_OK(!tensor_wrap_dim(2, 2, NULL, err), "dim 2 of a 2-D tensor is out of range");
    TAP_STR_EQ(err, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
               "the dim message");
    tensor *all[] = {x, v, t, r, inf, rows, rv, steps, neg, p, e, u, sq};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
}

static void test_copies(void)
{
    tensor *x = iota(5);
    tensor *dst = tensor_slice(x, 0, 1, 5, 1, err), *src = tensor_slice(x, 0, 0, 4, 1, err);
    TAP_OK(!tensor_copy_into(dst, src, err) && strstr(err, "single memory location"),
           "x[1:] = x[:-1] overlaps partially and is refused, as in torch");
    tensor *c = tensor_to(src, DTYPE_FP16, true, err);
    TAP_OK(c->type == DTYPE_FP16 && c->cuda && flat_f(c, 3) == 3, "tensor_to converts");
    TAP_OK(tensor_copy_into(dst, c, err) && flat_f(x, 1) == 0 && flat_f(x, 4) == 3,
           "a copy shifts the values");
    tensor *one = tensor_scalar(DTYPE_FP64, (dtype_scalar){.f = 2.9}, false);
    TAP_OK(tensor_copy_into(x, one, err) && flat_f(x, 0) == 2 && flat_f(x, 4) == 2,
           "a 0-d float broadcasts into an int tensor, truncated");
    tensor_fill(x, (dtype_scalar){.i = -7});
    TAP_OK(flat_f(x, 0) == -7 && flat_f(x, 4) == -7, "fill writes every element");
    int64_t s22[2] = {2, 2};
    double mv[4] = {0, 3, 0, 1};
    tensor *m = from(DTYPE_FP32, 2, s22, mv);
    tensor *nz = tensor_nonzero(m, err);
    TAP_OK(nz->shape[0] == 2 && nz->shape[1] == 2 && flat_f(nz, 1) == 1 && flat_f(nz, 2) == 1,
           "nonzero gives (0, 1) and (1, 1)");
    dtype_scalar item;
    TAP_OK(!tensor_item(m, &item, err), "item() of 4 elements fails");
    TAP_STR_EQ(err, "a Tensor with 4 elements cannot be converted to Scalar", "its message");
    tensor *all[] = {x, dst, src, c, one, m, nz};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
}

/* tensor_loops.h's conversions give dtype.c's bits: every float16 and
 * bfloat16 pattern, and float32 patterns spread over the whole range
 * (every 65521st, and the neighbours of the rounding boundaries). */
static void test_loop_conversions(void)
{
    int bad16 = 0, badbf = 0, badload = 0;
    for (uint32_t x = 0; x < 65536; x++) {
        uint16_t h = (uint16_t)x;
        float a, b;
        tensor_loop_load_f32(DTYPE_FP16, &h, 2, &a, 1);
        b = dtype_f16_to_f32(h);
        badload += memcmp(&a, &b, sizeof a) != 0;
        tensor_loop_load_f32(DTYPE_BF16, &h, 2, &a, 1);
        b = dtype_bf16_to_f32(h);
        badload += memcmp(&a, &b, sizeof a) != 0;
    }
    const uint32_t edges[] = {0x477fefffu, 0x477ff000u, 0x477ff001u, 0x38800000u, 0x387fffffu,
                              0x33000000u, 0x33000001u, 0x7f800000u, 0x7f800001u, 0x7fc00000u,
                              0x7f7fffffu, 0x7f7f8000u, 0x00008000u, 0x00018000u};
    for (uint64_t i = 0; i < 65600 + 2 * sizeof edges / sizeof *edges; i++) {
        size_t ne = sizeof edges / sizeof *edges;
        uint32_t u = i < 65600 ? (uint32_t)(i * 65521u) : edges[(i - 65600) % ne];
        if (i >= 65600 + ne)
            u |= 0x80000000u;       /* the same, negative */
        float f;
        memcpy(&f, &u, sizeof f);
        uint16_t h, bf;
        tensor_loop_store_f32(DTYPE_FP16, &h, 2, &f, 1);
        tensor_loop_store_f32(DTYPE_BF16, &bf, 2, &f, 1);
        bad16 += h != dtype_f32_to_f16(f);
        badbf += bf != dtype_f32_to_bf16(f);
    }
    TAP_INT_EQ(badload, 0, "float16 and bfloat16 loads give dtype.c's floats");
    TAP_INT_EQ(bad16, 0, "float32 -> float16 stores give dtype_f32_to_f16's bits");
    TAP_INT_EQ(badbf, 0, "float32 -> bfloat16 stores give dtype_f32_to_bf16's bits");
    double d = 1.0 + 0x1p-11 + 0x1p-40;      /* float64 -> float16 rounds once: up */
    uint16_t h;
    tensor_loop_store_f64(DTYPE_FP16, &h, 2, &d, 1);
    TAP_INT_EQ(h, 0x3c01, "float64 1 + 2^-11 + 2^-40 -> float16 rounds up (not through float32)");

    /* runs: a contiguous 3x4 is one run, its transpose four runs of 3 with a
     * stride of 4 elements, and a broadcast operand keeps its zero step */
    int64_t s34[2] = {3, 4}, s43[2] = {4, 3}, len, step[TENSOR_ITER_OPS];
    tensor *a = tensor_new(DTYPE_FP16, 2, s34, false, err);
    tensor_iter it;
    tensor_iter_init(&it, 2, s34);
    tensor_iter_add_src(&it, a);
    tensor_iter_runs(&it, &len, step);
    TAP_OK(len == 12 && step[0] == 2 && it.numel == 1, "a contiguous 3x4 is one run");
    tensor *t = tensor_transpose(a, 0, 1, err);
    int64_t s4[1] = {3};
    tensor *row = tensor_new(DTYPE_FP32, 1, s4, false, err);
    tensor_iter_init(&it, 2, s43);
    tensor_iter_add_src(&it, t);
    tensor_iter_add_src(&it, row);
    tensor_iter_runs(&it, &len, step);
    TAP_OK(len == 3 && step[0] == 8 && step[1] == 4 && it.numel == 4,
           "its transpose with a broadcast row: 4 runs of 3");
    /* a strided, converting copy through the runs */
    double v[12];
    for (int i = 0; i < 12; i++)
        v[i] = i * 1.25 - 3.3;
    tensor *src = from(DTYPE_FP32, 2, s34, v);
    tensor *ts = tensor_transpose(src, 0, 1, err);
    tensor *c = tensor_to(ts, DTYPE_BF16, false, err);
    int same = 0;
    for (int64_t i = 0; i < 4; i++)
        for (int64_t j = 0; j < 3; j++)
            same += flat_f(c, i * 3 + j) == dtype_cast((dtype_scalar){.f = (float)v[j * 4 + i]},
                                                        DTYPE_FP64, DTYPE_BF16).f;
    TAP_INT_EQ(same, 12, "a transposed float32 -> bfloat16 copy converts each element");
    tensor *all[] = {a, t, row, src, ts, c};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
}

/* fp8 tensors: PyTorch's conversions (through float32, no saturation, fp8
 * <-> ints allowed), view(dtype), and the operations they refuse. */
static void test_fp8(void)
{
    dtype E4 = DTYPE_FP8E4NV, E5 = DTYPE_FP8E5;
    TAP_DBL_EQ(tensor_convert((dtype_scalar){.i = 300}, DTYPE_INT64, E4).f, 288.0,
               "int64 300 -> e4m3fn 288");
    TAP_OK(isnan(tensor_convert((dtype_scalar){.f = 500.0}, DTYPE_FP32, E4).f),
           "float32 500 -> e4m3fn is NaN (Triton's cast gives 448)");
    TAP_DBL_EQ(dtype_cast((dtype_scalar){.f = 500.0}, DTYPE_FP32, E4).f, 448.0,
               "... and dtype_cast saturates");
    TAP_OK(isinf(tensor_convert((dtype_scalar){.f = 61440.0}, DTYPE_FP32, E5).f),
           "float32 61440 -> e5m2 is inf");
    TAP_DBL_EQ(tensor_convert((dtype_scalar){.f = 1.0625 + ldexp(1, -30)}, DTYPE_FP64, E4).f,
               1.0, "float64 goes through float32 first: 1.0625 + 2^-30 is a tie, to 1.0");
    TAP_INT_EQ(tensor_convert((dtype_scalar){.f = -3.75}, E4, DTYPE_INT32).i, -3,
               "e4m3fn -3.75 -> int32 truncates to -3");
    TAP_INT_EQ(tensor_convert((dtype_scalar){.f = NAN}, E5, DTYPE_INT1).u, 1,
               "e5m2 NaN -> bool is True");
    TAP_DBL_EQ(tensor_convert((dtype_scalar){.f = 1.125}, E4, E5).f, 1.0,
               "e4m3fn 1.125 -> e5m2 is a tie, to 1.0");

    int64_t n = 8;
    tensor *x = tensor_new(E4, 1, &n, false, err);
    TAP_OK(x != NULL && tensor_elsize(x) == 1, "fp8 tensors are made, 1 byte an element");
    tensor_fill(x, tensor_convert((dtype_scalar){.f = 1.0}, DTYPE_FP64, E4));
    tensor *u = tensor_view_dtype(x, DTYPE_UINT8, err);
    TAP_OK(u && u->shape[0] == 8 && tensor_get_flat(u, 7).u == 0x38, "view(uint8) shows 0x38");
    tensor_set(u, (int64_t[]){2}, (dtype_scalar){.u = 0x7e});
    TAP_DBL_EQ(flat_f(x, 2), 448.0, "a write through the view shows in the fp8 tensor");
    tensor *s = tensor_slice(x, 0, 2, 8, 1, err);
    tensor *w = tensor_view_dtype(s, DTYPE_INT16, err);
    TAP_OK(w && w->shape[0] == 3 && w->offset == 1 && tensor_get_flat(w, 0).i == 0x387e,
           "view(int16) of x[2:] pairs the bytes: offset 1, 0x387e first");
    tensor *odd = tensor_slice(x, 0, 1, 8, 1, err);
    TAP_OK(!tensor_view_dtype(odd, DTYPE_FP32, err), "view(float32) of 7 bytes fails");
    TAP_STR_EQ(err, "self.size(-1) must be divisible by 4 to view Float8_e4m3fn as Float "
               "(different element sizes), but got 7", "with torch's message");
    tensor *odd2 = tensor_slice(x, 0, 1, 5, 1, err);
    TAP_OK(!tensor_view_dtype(odd2, DTYPE_FP32, err) && strstr(err, "storage_offset() must be "
           "divisible by 4"), "view(float32) at storage offset 1 fails");
    tensor *f = tensor_view_dtype(x, DTYPE_FP32, err);
    tensor *back = f ? tensor_view_dtype(f, E5, err) : NULL;
    TAP_OK(f && f->shape[0] == 2 && back && back->shape[0] == 8, "view(float32) and back");
    tensor *zero_d = tensor_select(x, 0, 0, err);
    TAP_OK(!tensor_view_dtype(zero_d, DTYPE_INT16, err) &&
           !strcmp(err, "self.dim() cannot be 0 to view Float8_e4m3fn as Short (different "
                   "element sizes)"), "a 0-d tensor cannot change its element size");

    TAP_OK(!tensor_binary(TENSOR_ADD, tensor_operand_of(x), tensor_operand_of(x), err) &&
           strstr(err, "does not compute on Float8_e4m3fn"), "x + x on fp8 is refused");
    TAP_OK(!tensor_unary(TENSOR_ABS, x, err), "abs(x) on fp8 is refused");
    TAP_OK(!tensor_reduce(TENSOR_SUM, x, 0, NULL, false, DTYPE_INVALID, err), "sum too");
    TAP_INT_EQ(tensor_promote_types(E4, DTYPE_INT1, err), DTYPE_INVALID,
               "fp8 promotes with nothing else, not even bool");
    TAP_STR_EQ(err, "Promotion for Float8 Types is not supported, attempted to promote "
               "Float8_e4m3fn and Bool", "torch's message");
    TAP_INT_EQ(tensor_promote_types(E5, E5, err), E5, "fp8 with itself is itself");
    tensor *all[] = {x, u, s, w, odd, odd2, f, back, zero_d};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
}

static void test_promotion(void)
{
    TAP_OK(tensor_promote_types(DTYPE_UINT8, DTYPE_INT8, NULL) == DTYPE_INT16, "u8+i8 -> i16");
    TAP_OK(tensor_promote_types(DTYPE_FP16, DTYPE_BF16, NULL) == DTYPE_FP32, "f16+bf16 -> f32");
    TAP_OK(tensor_promote_types(DTYPE_INT64, DTYPE_FP16, NULL) == DTYPE_FP16, "i64+f16 -> f16");
    TAP_OK(tensor_promote_types(DTYPE_INT1, DTYPE_UINT8, NULL) == DTYPE_UINT8, "bool+u8 -> u8");
    TAP_OK(tensor_promote_types(DTYPE_UINT16, DTYPE_INT8, err) == DTYPE_INVALID,
           "uint16 does not promote with int8");
    int64_t two = 2;
    tensor *i32 = tensor_new(DTYPE_INT32, 1, &two, false, err);
    tensor *f16 = tensor_new(DTYPE_FP16, 1, &two, false, err);
    tensor *d0 = tensor_scalar(DTYPE_FP64, (dtype_scalar){.f = 1}, false);
    tensor_operand a[2] = {tensor_operand_of(i32), tensor_operand_int(1)};
    TAP_OK(tensor_result_type(2, a, err) == DTYPE_INT32, "int32 tensor + 1 stays int32");
    a[1] = tensor_operand_float(0.5);
    TAP_OK(tensor_result_type(2, a, err) == DTYPE_FP32, "int32 tensor + 0.5 is float32");
    a[0] = tensor_operand_of(f16);
    TAP_OK(tensor_result_type(2, a, err) == DTYPE_FP16, "float16 tensor + 0.5 stays float16");
    a[1] = tensor_operand_of(d0);
    TAP_OK(tensor_result_type(2, a, err) == DTYPE_FP16, "a 0-d float64 does not widen float16");
    a[0] = tensor_operand_of(i32);
    TAP_OK(tensor_result_type(2, a, err) == DTYPE_FP64, "but it makes int32 float64");
    a[0] = tensor_operand_bool(true);
    a[1] = tensor_operand_int(3);
    TAP_OK(tensor_result_type(2, a, err) == DTYPE_INT64, "two numbers: bool + int -> int64");
    TAP_OK(!tensor_can_cast(DTYPE_FP32, DTYPE_INT64) && !tensor_can_cast(DTYPE_INT32, DTYPE_INT1)
           && tensor_can_cast(DTYPE_FP32, DTYPE_FP16), "can_cast");
    TAP_STR_EQ(tensor_type_name(DTYPE_UINT8), "Byte", "uint8 is Byte in messages");
    tensor_unref(i32);
    tensor_unref(f16);
    tensor_unref(d0);
}

/* x op y as binop_loop computes one element: in double, rounded to the
 * compute type ct. */
static double ref_op(tensor_binop op, dtype ct, double x, double y)
{
    double r = op == TENSOR_ADD ? x + y : op == TENSOR_SUB ? x - y : op == TENSOR_MUL ? x * y
             : x / y;
    return dtype_round_float(ct, r);
}

/* + - * / on float tensors (the loops of tensor_ops.c) against the
 * element-at-a-time rule: operands converted to the compute type (float32
 * for float16/bfloat16), the operation rounded to it, the result rounded
 * to the output's dtype; with a broadcast row, a transposed operand, an
 * in-place update and values that overflow, underflow and give NaN. */
static void test_float_loops(void)
{
    enum { R = 37, C = 29 };
    int64_t shape[2] = {R, C}, ct[2] = {C, R}, row[1] = {C};
    double va[R * C], vb[R * C];
    uint64_t seed = 12345;
    for (int i = 0; i < R * C; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(seed >> 11) / 9007199254740992.0;
        int e = (int)(seed >> 3 & 63) - 32;
        va[i] = ldexp(u - 0.5, e);
        vb[i] = ldexp(0.7 - u, (int)(seed & 31) - 16);
    }
    va[3] = INFINITY, vb[3] = INFINITY;     /* inf - inf: NaN */
    vb[5] = 0.0;                            /* / 0 */
    va[7] = 60000.0, vb[7] = 60000.0;       /* float16 overflow */
    const dtype pairs[][2] = {{DTYPE_FP16, DTYPE_FP16}, {DTYPE_BF16, DTYPE_FP32},
                              {DTYPE_FP16, DTYPE_BF16}, {DTYPE_FP64, DTYPE_FP16},
                              {DTYPE_FP32, DTYPE_FP32}};
    const tensor_binop ops[] = {TENSOR_ADD, TENSOR_SUB, TENSOR_MUL, TENSOR_DIV};
    int bad = 0, cases = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
        dtype ta = pairs[p][0], tb = pairs[p][1];
        dtype res = tensor_promote_types(ta, tb, err);
        dtype cty = res == DTYPE_FP64 ? DTYPE_FP64 : DTYPE_FP32;
        tensor *a = from(ta, 2, shape, va), *b = from(tb, 2, shape, vb);
        tensor *bt = from(tb, 2, ct, vb), *btt = tensor_transpose(bt, 0, 1, err);
        tensor *r1 = from(tb, 1, row, vb);
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
            tensor_binop op = ops[o];
            tensor *x = tensor_binary(op, tensor_operand_of(a), tensor_operand_of(b), err);
            tensor *y = tensor_binary(op, tensor_operand_of(a), tensor_operand_of(btt), err);
            tensor *z = tensor_binary(op, tensor_operand_of(r1), tensor_operand_of(a), err);
            for (int i = 0; i < R * C; i++) {
                int r = i / C, c = i % C;
                double xa = flat_f(a, i), xb = flat_f(b, i);
                double xt = flat_f(bt, c * R + r), xr = flat_f(r1, c);
                double want[3] = {ref_op(op, cty, xa, xb), ref_op(op, cty, xa, xt),
                                  ref_op(op, cty, xr, xa)};
                tensor *got[3] = {x, y, z};
                for (int k = 0; k < 3; k++) {
                    double w = dtype_round_float(res, want[k]), g = flat_f(got[k], i);
                    bad += !(w == g || (isnan(w) && isnan(g)));
                    cases++;
                }
            }
            tensor_unref(x);
            tensor_unref(y);
            tensor_unref(z);
        }
        /* in place: a += b in a's dtype */
        tensor *c = tensor_to(a, ta, false, err);
        bool ok = tensor_binary_inplace(TENSOR_ADD, c, tensor_operand_of(b), err);
        for (int i = 0; ok && i < R * C; i++) {
            double w = dtype_round_float(ta, ref_op(TENSOR_ADD, cty, flat_f(a, i), flat_f(b, i)));
            double g = flat_f(c, i);
            bad += !(w == g || (isnan(w) && isnan(g)));
            cases++;
        }
        bad += !ok;
        tensor *all[] = {a, b, bt, btt, r1, c};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            tensor_unref(all[i]);
    }
    TAP_INT_EQ(cases, 5 * (12 + 1) * R * C, "every element of the float loops was checked");
    TAP_INT_EQ(bad, 0, "float + - * / give the element-at-a-time results");
}

static void test_arithmetic(void)
{
    int64_t s3 = 3, s2[2] = {2, 1};
    double av[3] = {7, -7, 2}, bv[2] = {2, -3};
    tensor *a = from(DTYPE_INT64, 1, &s3, av), *b = from(DTYPE_INT64, 2, s2, bv);
    tensor *q = tensor_binary(TENSOR_FLOORDIV, tensor_operand_of(a), tensor_operand_of(b), err);
    TAP_OK(q && q->ndim == 2 && q->shape[0] == 2 && q->shape[1] == 3, "(3) // (2, 1) is 2x3");
    TAP_OK(flat_f(q, 0) == 3 && flat_f(q, 1) == -4 && flat_f(q, 3) == -3 && flat_f(q, 4) == 2,
           "floor division with Python's signs");
    tensor *r = tensor_binary(TENSOR_MOD, tensor_operand_of(a), tensor_operand_int(-3), err);
    TAP_OK(flat_f(r, 0) == -2 && flat_f(r, 1) == -1 && flat_f(r, 2) == -1,
           "%% takes the divisor's sign");
    tensor *d = tensor_binary(TENSOR_DIV, tensor_operand_of(a), tensor_operand_int(2), err);
    TAP_OK(d->type == DTYPE_FP32 && flat_f(d, 0) == 3.5, "int / int is float32");
    tensor *z = tensor_binary(TENSOR_FLOORDIV, tensor_operand_of(a), tensor_operand_int(0), err);
    TAP_OK(z == NULL && !strcmp(err, "ZeroDivisionError"), "integer // 0 fails");
    tensor *c = tensor_binary(TENSOR_LT, tensor_operand_of(a), tensor_operand_float(2.5), err);
    TAP_OK(c->type == DTYPE_INT1 && flat_f(c, 0) == 0 && flat_f(c, 2) == 1, "a < 2.5 is bool");
    TAP_OK(!tensor_binary_inplace(TENSOR_ADD, a, tensor_operand_float(0.5), err),
           "int += 0.5 is refused");
    TAP_STR_EQ(err, "result type Float can't be cast to the desired output type Long",
               "the in-place message");
    int64_t s4 = 4;
    tensor *four = tensor_new(DTYPE_INT64, 1, &s4, false, err);
    TAP_OK(tensor_binary(TENSOR_ADD, tensor_operand_of(a), tensor_operand_of(four), err) == NULL,
           "3 and 4 do not broadcast");
    TAP_STR_EQ(err, "The size of tensor a (3) must match the size of tensor b (4) at "
               "non-singleton dimension 0", "the broadcast message");
    /* float16: 0.1 * 3 computed in float32 and rounded once */
    double hv[1] = {3};
    tensor *h = from(DTYPE_FP16, 1, &(int64_t){1}, hv);
    tensor *hm = tensor_binary(TENSOR_MUL, tensor_operand_of(h), tensor_operand_float(0.1), err);
    TAP_DBL_EQ(flat_f(hm, 0), dtype_round_float(DTYPE_FP16, (double)(3.0f * 0.1f)),
               "float16 * 0.1 rounds the float32 product");
    tensor *neg = tensor_unary(TENSOR_NEG, c, err);
    TAP_OK(neg == NULL && strstr(err, "use the `~`"), "-bool is refused");
    tensor *ex = tensor_unary(TENSOR_EXP, a, err);
    TAP_OK(ex->type == DTYPE_FP32 && flat_f(ex, 2) == (double)expf(2.0f), "exp(int) is float32");
    tensor *w = tensor_where(c, tensor_operand_of(a), tensor_operand_float(0.5), err);
    TAP_OK(w->type == DTYPE_FP32 && flat_f(w, 0) == 0.5 && flat_f(w, 2) == 2, "where");
    tensor *all[] = {a, b, q, r, d, c, four, h, hm, ex, w};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
}

/* Float sums and means add in double in row-major order, whatever the
 * layout: a transposed float16 tensor and a sum over both dimensions. */
static void test_float_sums(void)
{
    enum { R = 300, C = 7 };
    int64_t shape[2] = {C, R}, dims[2] = {0, 1}, d1 = 1;
    double v[R * C];
    for (int i = 0; i < R * C; i++)
        v[i] = (i % 13) * 0.37 - 1.9 + i * 1e-3;
    tensor *x = from(DTYPE_FP16, 2, shape, v), *t = tensor_transpose(x, 0, 1, err);
    tensor *s = tensor_reduce(TENSOR_SUM, t, 1, &d1, false, DTYPE_INVALID, err);
    tensor *m = tensor_reduce(TENSOR_MEAN, t, 2, dims, false, DTYPE_INVALID, err);
    int bad = 0;
    double all = 0;
    for (int r = 0; r < R; r++) {
        double acc = 0;
        for (int c = 0; c < C; c++)
            acc += flat_f(x, c * R + r);
        bad += flat_f(s, r) != dtype_round_float(DTYPE_FP16, acc);
    }
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            all += flat_f(x, c * R + r);
    TAP_INT_EQ(bad, 0, "sum(1) of a transposed float16 tensor adds each row in order");
    TAP_DBL_EQ(flat_f(m, 0), dtype_round_float(DTYPE_FP16, all / (R * C)),
               "mean over both dimensions of it, in row-major order of the view");
    tensor *each[] = {x, t, s, m};
    for (size_t i = 0; i < sizeof each / sizeof *each; i++)
        tensor_unref(each[i]);
}

static void test_reductions(void)
{
    int64_t s23[2] = {2, 3};
    double v[6] = {1, 5, 3, 4, NAN, 6};
    tensor *x = from(DTYPE_FP32, 2, s23, v);
    int64_t dim1 = 1, dim0 = 0;
    tensor *s = tensor_reduce(TENSOR_SUM, x, 1, &dim0, false, DTYPE_INVALID, err);
    TAP_OK(s->ndim == 1 && flat_f(s, 0) == 5 && isnan(flat_f(s, 1)), "sum(0) with a NaN");
    tensor *vals, *idx;
    TAP_OK(tensor_max_dim(true, x, 1, true, &vals, &idx, err), "max(dim=1, keepdim=True)");
    TAP_OK(vals->ndim == 2 && vals->shape[1] == 1 && flat_f(vals, 0) == 5 && isnan(flat_f(vals, 1))
           && flat_f(idx, 0) == 1 && flat_f(idx, 1) == 1, "NaN wins max, with its index");
    tensor *am = tensor_reduce(TENSOR_ARGMIN, x, 0, NULL, false, DTYPE_INVALID, err);
    TAP_OK(am->ndim == 0 && flat_f(am, 0) == 4, "argmin over all is a flat index (NaN wins)");
    tensor *ix = iota(5);
    TAP_OK(tensor_reduce(TENSOR_MEAN, ix, 0, NULL, false, DTYPE_INVALID, err) == NULL,
           "mean of ints is an error");
    tensor *sm = tensor_reduce(TENSOR_SUM, ix, 1, &dim1, false, DTYPE_INVALID, err);
    TAP_OK(sm == NULL, "dim 1 of a 1-D tensor: %s", err);
    tensor *m = tensor_reduce(TENSOR_MEAN, ix, 0, NULL, false, DTYPE_FP64, err);
    TAP_OK(m->type == DTYPE_FP64 && flat_f(m, 0) == 2, "mean(dtype=float64)");
    tensor *sf = tensor_softmax(x, 0, false, DTYPE_INVALID, err);
    TAP_OK(fabs(flat_f(sf, 0) - 1 / (1 + exp(3.0))) < 1e-7, "softmax along dim 0");
    tensor *cs = tensor_cumsum(ix, 0, err);
    TAP_OK(flat_f(cs, 4) == 10 && cs->type == DTYPE_INT64, "cumsum");
    tensor *all[] = {x, s, vals, idx, am, ix, m, sf, cs};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tensor_unref(all[i]);
}

static void test_matmul(void)
{
    int64_t s23[2] = {2, 3}, s32[2] = {3, 2};
    double av[6] = {1, 2, 3, 4, 5, 6}, bv[6] = {7, 8, 9, 10, 11, 12};
    dtype types[4] = {DTYPE_FP32, DTYPE_FP64, DTYPE_FP16, DTYPE_INT32};
    for (int k = 0; k < 4; k++) {
        tensor *a = from(types[k], 2, s23, av), *b = from(types[k], 2, s32, bv);
        tensor *c = tensor_matmul(a, b, err);
        TAP_OK(c && c->type == types[k] && flat_f(c, 0) == 58 && flat_f(c, 1) == 64 &&
               flat_f(c, 2) == 139 && flat_f(c, 3) == 154, "2x3 @ 3x2 in %s", dtype_name(types[k]));
        tensor *bt = tensor_transpose(b, 0, 1, err), *at = tensor_transpose(a, 0, 1, err);
        tensor *c2 = tensor_matmul(bt, at, err);
        TAP_OK(c2 && flat_f(c2, 1) == 139, "strided operands (b.t() @ a.t()) in %s",
               dtype_name(types[k]));
        tensor *all[] = {a, b, c, bt, at, c2};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            tensor_unref(all[i]);
    }
    tensor *a = from(DTYPE_FP32, 2, s23, av);
    TAP_OK(tensor_matmul(a, a, err) == NULL, "2x3 @ 2x3 fails");
    TAP_STR_EQ(err, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", "its message");
    tensor *v = from(DTYPE_FP32, 1, &(int64_t){3}, bv);
    tensor *mv = tensor_matmul(a, v, err);
    TAP_OK(mv && mv->ndim == 1 && flat_f(mv, 0) == 50, "matrix @ vector is a vector");
    tensor *dot = tensor_matmul(v, v, err);
    TAP_OK(dot && dot->ndim == 0 && flat_f(dot, 0) == 49 + 64 + 81, "vector @ vector is 0-d");
    tensor *f64 = tensor_to(a, DTYPE_FP64, false, err);
    TAP_OK(tensor_matmul(a, f64, err) == NULL && strstr(err, "float != double"),
           "mixed dtypes are refused");
    tensor_unref(a);
    tensor_unref(v);
    tensor_unref(mv);
    tensor_unref(dot);
    tensor_unref(f64);
}

static void test_random(void)
{
    int64_t n = 1000;
    tensor *a = tensor_new(DTYPE_FP32, 1, &n, false, err), *b = tensor_new(DTYPE_FP32, 1, &n,
                                                                          false, err);
    tensor_manual_seed(42);
    tensor_fill_uniform(a, 0, 1);
    tensor_manual_seed(42);
    tensor_fill_uniform(b, 0, 1);
    bool same = true, in_range = true;
    for (int64_t i = 0; i < n; i++) {
        same = same && flat_f(a, i) == flat_f(b, i);
        in_range = in_range && flat_f(a, i) >= 0 && flat_f(a, i) < 1;
    }
    TAP_OK(same, "one seed, one sequence");
    TAP_OK(in_range, "uniform numbers lie in [0, 1)");
    TAP_INT_EQ(tensor_initial_seed(), 42, "initial_seed is the last seed");
    tensor_unref(a);
    tensor_unref(b);
}

static void test_repr(void)
{
    int64_t s = 3;
    double v[3] = {1, 2, 3};
    tensor *t = from(DTYPE_FP16, 1, &s, v);
    t->cuda = true;
    TAP_STR_EQ(repr(t), "tensor([1., 2., 3.], device='cuda:0', dtype=torch.float16)",
               "repr with device and dtype");
    tensor_unref(t);
}

/* tensor_unary on float tensors (a run at a time) gives the bits of the
 * element-at-a-time formula: the element as a double, the function in
 * double, one rounding to the dtype; predicates give 0/1.  Contiguous and
 * transposed inputs, with NaN, infinities, zeros, subnormals and
 * overflow. */
static void test_float_unary(void)
{
    enum { R = 23, C = 41 };
    int64_t shape[2] = {R, C}, ct[2] = {C, R};
    double v[R * C];
    uint64_t seed = 777;
    for (int i = 0; i < R * C; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(seed >> 11) / 9007199254740992.0;
        v[i] = ldexp(u - 0.3, (int)(seed >> 3 & 31) - 20);
    }
    v[0] = NAN, v[1] = -INFINITY, v[2] = INFINITY, v[3] = -0.0, v[4] = 0x1p-24;
    v[5] = 12.0;                            /* exp(12) overflows float16 */
    const dtype types[] = {DTYPE_FP16, DTYPE_BF16, DTYPE_FP32, DTYPE_FP64};
    const tensor_unop ops[] = {TENSOR_NEG, TENSOR_ABS, TENSOR_SQRT, TENSOR_EXP,
                               TENSOR_ISNAN, TENSOR_ISINF, TENSOR_ISFINITE};
    int bad = 0, cases = 0;
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        dtype t = types[k];
        tensor *a = from(t, 2, shape, v), *b = from(t, 2, ct, v);
        tensor *bt = tensor_transpose(b, 0, 1, err);
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
            tensor_unop op = ops[o];
            for (int which = 0; which < 2; which++) {
                const tensor *in = which ? bt : a;
                tensor *r = tensor_unary(op, in, err);
                bool pred = op >= TENSOR_ISNAN;
                for (int64_t i = 0; i < R * C; i++) {
                    double x = flat_f(in, i), y;
                    switch (op) {
                    case TENSOR_NEG: y = -x; break;
                    case TENSOR_ABS: y = fabs(x); break;
                    case TENSOR_SQRT: y = sqrt(x); break;
                    case TENSOR_EXP: y = exp(x); break;
                    case TENSOR_ISNAN: y = isnan(x) != 0; break;
                    case TENSOR_ISINF: y = isinf(x) != 0; break;
                    default: y = isfinite(x) != 0; break;
                    }
                    unsigned char want[8] = {0}, got[8] = {0};
                    if (pred)
                        want[0] = (unsigned char)y;
                    else
                        dtype_store(t, want, (dtype_scalar){.f = dtype_round_float(t, y)});
                    dtype_store(r->type, got, tensor_get_flat(r, i));
                    bad += memcmp(want, got, 8) != 0 || r->type != (pred ? DTYPE_INT1 : t);
                    cases++;
                }
                tensor_unref(r);
            }
        }
        tensor_unref(a);
        tensor_unref(b);
        tensor_unref(bt);
    }
    TAP_INT_EQ(bad, 0, "float unary ops and predicates: one rounding, bit for bit (%d cases)",
               cases);
}

/* A freed large block is kept for the next tensor of its size
 * (tensor.c's cache): tensor_new still gives zeros after a tensor of the
 * same size held other values, and the bytes after a tensor_new_uninit
 * tensor's elements are zero. */
static void test_block_reuse(void)
{
    int64_t n = 3 << 18;                /* 3 MiB of float32 */
    int64_t odd = n - 3;                /* the same block, 12 bytes of tail */
    bool zeros = true, tail = true;
    for (int round = 0; round < 3; round++) {
        tensor *t = tensor_new(DTYPE_FP32, 1, &n, false, err);
        const float *p = tensor_cdata(t);
        for (int64_t i = 0; i < n; i++)
            zeros = zeros && p[i] == 0.0f;
        tensor_fill(t, (dtype_scalar){.f = -1.5});
        tensor_unref(t);
        tensor *u = tensor_new_uninit(DTYPE_FP32, 1, &odd, false, err);
        const unsigned char *q = tensor_cdata(u);
        for (size_t i = (size_t)odd * 4; i < u->storage->nbytes; i++)
            tail = tail && q[i] == 0;
        tensor_fill(u, (dtype_scalar){.f = 2.0});
        tensor_unref(u);
    }
    TAP_OK(zeros, "tensor_new gives zeros in a block another tensor used");
    TAP_OK(tail, "the bytes after tensor_new_uninit's elements are zero");
    /* blocks of other sizes, grown and shrunk (mremap) for the next size */
    const int64_t sizes[] = {n + 40000, n + 400000, n - 300000, 2 * n, n / 2 + 1000};
    zeros = tail = true;
    bool kept = true;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int64_t m = sizes[k];
        tensor *t = tensor_new(DTYPE_FP32, 1, &m, false, err);
        const float *p = tensor_cdata(t);
        for (int64_t i = 0; i < m; i++)
            zeros = zeros && p[i] == 0.0f;
        tensor_fill(t, (dtype_scalar){.f = -1.5});
        tensor_unref(t);
        int64_t m2 = m + 1000 - 3;
        tensor *u = tensor_new_uninit(DTYPE_FP32, 1, &m2, false, err);
        const unsigned char *q = tensor_cdata(u);
        for (size_t i = (size_t)m2 * 4; i < u->storage->nbytes; i++)
            tail = tail && q[i] == 0;
        tensor_fill(u, (dtype_scalar){.f = 2.0});
        const float *f = tensor_cdata(u);
        kept = kept && f[0] == 2.0f && f[m2 - 1] == 2.0f;
        tensor_unref(u);
    }
    TAP_OK(zeros && kept, "tensor_new gives zeros in a kept block resized for it");
    TAP_OK(tail, "the bytes after tensor_new_uninit's elements in a resized block are zero");
}

/* The same bytes of two tensors of one shape and dtype (read in order). */
static bool same_bytes(const tensor *a, const tensor *b)
{
    if (!a || !b || a->type != b->type || tensor_numel(a) != tensor_numel(b))
        return false;
    int64_t n = tensor_numel(a);
    size_t es = (size_t)tensor_elsize(a);
    for (int64_t i = 0; i < n; i++) {
        unsigned char x[8] = {0}, y[8] = {0};
        dtype_store(a->type, x, tensor_get_flat(a, i));
        dtype_store(b->type, y, tensor_get_flat(b, i));
        if (memcmp(x, y, es))
            return false;
    }
    return true;
}

/* The host loops' fast paths on threads (tensor_par.h) give the bytes of
 * the plain element loops (0 threads): + - * / and comparisons of float
 * tensors (contiguous, transposed, broadcast, a scalar), bool logic,
 * unary functions, conversions, in-place arithmetic and randn (several
 * fills in a row, odd sizes leaving a spare, a transposed view), with 1,
 * 3 and 8 threads, on tensors large enough to be cut into pieces. */
static void test_par_paths(void)
{
    enum { R = 211, C = 307 };          /* 64777 elements: several pieces */
    int64_t shape[2] = {R, C}, ct[2] = {C, R}, row[2] = {1, C};
    static double va[R * C], vb[R * C];
    uint64_t seed = 99;
    for (int i = 0; i < R * C; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(seed >> 11) / 9007199254740992.0;
        va[i] = ldexp(u - 0.5, (int)(seed >> 3 & 15) - 6);
        vb[i] = i % 17 == 0 ? va[i] : ldexp(0.6 - u, (int)(seed & 7) - 3);
    }
    va[10] = NAN, vb[11] = INFINITY, vb[12] = 0.0;
    const dtype types[] = {DTYPE_FP16, DTYPE_BF16, DTYPE_FP32, DTYPE_FP64};
    const tensor_binop ops[] = {TENSOR_ADD, TENSOR_SUB, TENSOR_MUL, TENSOR_DIV, TENSOR_EQ,
                                TENSOR_NE, TENSOR_LT, TENSOR_LE, TENSOR_GT, TENSOR_GE};
    const int threads[] = {1, 3, 8};
    int bad = 0, cases = 0;
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        dtype t = types[k];
        tensor *a = from(t, 2, shape, va), *bt = from(t, 2, ct, vb);
        tensor *b = tensor_transpose(bt, 0, 1, err), *r1 = from(t, 2, row, vb);
        tensor_operand opnds[][2] = {
            {tensor_operand_of(a), tensor_operand_of(b)},
            {tensor_operand_of(r1), tensor_operand_of(a)},
            {tensor_operand_of(a), tensor_operand_float(0.1)},
        };
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
            for (size_t w = 0; w < sizeof opnds / sizeof *opnds; w++) {
                tensor_par_set_threads(0);
                tensor *plain = tensor_binary(ops[o], opnds[w][0], opnds[w][1], err);
                for (size_t n = 0; n < sizeof threads / sizeof *threads; n++) {
                    tensor_par_set_threads(threads[n]);
                    tensor *fast = tensor_binary(ops[o], opnds[w][0], opnds[w][1], err);
                    bad += !same_bytes(plain, fast);
                    cases++;
                    tensor_unref(fast);
                }
                tensor_unref(plain);
            }
        /* bool logic, unary functions, conversions, in place */
        tensor_par_set_threads(0);
        tensor *pa = tensor_binary(TENSOR_GT, tensor_operand_of(a), tensor_operand_float(0), err);
        tensor *pb = tensor_binary(TENSOR_LT, tensor_operand_of(b), tensor_operand_float(0), err);
        const tensor_binop logic[] = {TENSOR_AND, TENSOR_OR, TENSOR_XOR, TENSOR_ADD, TENSOR_MUL};
        tensor *want[5 + 3 + 2 + 1];
        for (int pass = 0; pass <= 3; pass++) {
            if (pass)
                tensor_par_set_threads(threads[pass - 1]);
            tensor *got[5 + 3 + 2 + 1];
            for (int i = 0; i < 5; i++)
                got[i] = tensor_binary(logic[i], tensor_operand_of(pa), tensor_operand_of(pb), err);
            got[5] = tensor_unary(TENSOR_ABS, b, err);
            got[6] = tensor_unary(TENSOR_EXP, a, err);
            got[7] = tensor_unary(TENSOR_ISFINITE, b, err);
            got[8] = tensor_to(b, t == DTYPE_FP16 ? DTYPE_BF16 : DTYPE_FP16, false, err);
            got[9] = tensor_to(a, DTYPE_FP32, false, err);
            got[10] = tensor_to(a, t, false, err);
            bad += !tensor_binary_inplace(TENSOR_ADD, got[10], tensor_operand_of(b), err);
            for (int i = 0; i < 11; i++) {
                if (!pass) {
                    want[i] = got[i];
                    continue;
                }
                bad += !same_bytes(want[i], got[i]);
                cases++;
                tensor_unref(got[i]);
            }
        }
        for (int i = 0; i < 11; i++)
            tensor_unref(want[i]);
        tensor *all[] = {a, bt, b, r1, pa, pb};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            tensor_unref(all[i]);
    }
    /* randn: fills of odd and even sizes in a row, and a transposed view */
    int64_t sizes[] = {3, 40001, 70000, 5, 65537};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        tensor *want[6];
        for (int pass = 0; pass <= 3; pass++) {
            tensor_par_set_threads(pass ? threads[pass - 1] : 0);
            tensor_manual_seed(1234);
            tensor *got[6];
            for (int i = 0; i < 5; i++) {
                got[i] = tensor_new(types[k], 1, &sizes[i], false, err);
                tensor_fill_normal(got[i], 0.5, 2.0);
            }
            tensor *base = tensor_new(types[k], 2, ct, false, err);
            got[5] = tensor_transpose(base, 0, 1, err);
            tensor_unref(base);
            tensor_fill_normal(got[5], -1.0, 1.0);
            for (int i = 0; i < 6; i++) {
                if (!pass) {
                    want[i] = got[i];
                    continue;
                }
                bad += !same_bytes(want[i], got[i]);
                cases++;
                tensor_unref(got[i]);
            }
        }
        for (int i = 0; i < 6; i++)
            tensor_unref(want[i]);
    }
    tensor_par_set_threads(-1);
    TAP_INT_EQ(cases, 4 * (10 * 3 * 3 + 11 * 3) + 4 * 6 * 3, "every fast path was compared");
    TAP_INT_EQ(bad, 0, "host loops on 1, 3 and 8 threads give the plain loops' bytes");
}

/* randn's AVX2 path (tensor_random.c: polynomial log, sin and cos with a
 * bound, libm where the bound leaves the element in doubt) gives the
 * plain loop's bytes: float16, bfloat16 and float32 fills of a million
 * numbers and more with means and deviations that put values near zero,
 * beyond float16's largest, and among float16's subnormals, an odd fill
 * leaving a spare, and the same fills with the path turned off. */
static void test_normal_fast(void)
{
    const dtype types[] = {DTYPE_FP16, DTYPE_BF16, DTYPE_FP32};
    const double ms[][2] = {{0.0, 1.0}, {-2.3, 0.5}, {1.0, 1e-5}, {0.0, 3e4}, {5e4, 1e4},
                            {0.0, 1e-6}, {-7.0, 1e20}};
    int64_t sizes[] = {(1 << 20) + 1, 70001};
    int bad = 0, cases = 0;
    for (size_t k = 0; k < sizeof types / sizeof *types; k++)
        for (size_t m = 0; m < sizeof ms / sizeof *ms; m++) {
            tensor *want[2] = {NULL, NULL};
            for (int pass = 0; pass < 3; pass++) {
                tensor_par_set_threads(pass ? 2 : 0);
                tensor_random_set_simd(pass != 2);
                tensor_manual_seed(77 + m);
                for (int i = 0; i < 2; i++) {
                    tensor *got = tensor_new(types[k], 1, &sizes[i], false, err);
                    tensor_fill_normal(got, ms[m][0], ms[m][1]);
                    if (!pass) {
                        want[i] = got;
                        continue;
                    }
                    bad += !same_bytes(want[i], got);
                    cases++;
                    tensor_unref(got);
                }
            }
            tensor_unref(want[0]);
            tensor_unref(want[1]);
        }
    tensor_random_set_simd(true);
    tensor_par_set_threads(-1);
    TAP_INT_EQ(cases, 3 * 7 * 2 * 2, "every randn fill was compared");
    TAP_INT_EQ(bad, 0, "randn's AVX2 path gives the plain loop's bytes");
}

int main(void)
{
    test_launcher_view();
    test_views();
    test_copies();
    test_loop_conversions();
    test_fp8();
    test_promotion();
    test_arithmetic();
    test_float_loops();
    test_float_unary();
    test_reductions();
    test_float_sums();
    test_matmul();
    test_random();
    test_par_paths();
    test_normal_fast();
    test_block_reuse();
    test_repr();
    val_free_all();
    return tap_done();
}
