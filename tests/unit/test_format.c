/* test_format.c - unit tests of format.h.
 *
 * Expected strings are either printed verbatim in the seed lecture
 * (practitioners-guide-to-triton.md: "pid = [0] | offs = [0 1], mask =
 * [ True  True], x = [1 2]" and its torch tensors) or what numpy's str()
 * and torch's repr() print for the same data (checked against numpy 1.24
 * and torch 1.13). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tap.h"

/* Values given as doubles, stored in dtype t's memory format. */
static void *make(dtype t, int64_t n, const double *v)
{
    unsigned char *p = calloc((size_t)(n > 0 ? n : 1), (size_t)dtype_size(t));
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar s = {.f = v[i]};
        dtype_store(t, p + i * dtype_size(t), dtype_cast(s, DTYPE_FP64, t));
    }
    return p;
}

/* 0, 1, 2, ... n-1 times scale */
static void *ramp(dtype t, int64_t n, double scale)
{
    double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; i++)
        v[i] = (double)i * scale;
    void *p = make(t, n, v);
    free(v);
    return p;
}

static char *np_str(dtype t, void *data, int ndim, const int64_t *shape,
                    const int64_t *strides)
{
    strbuf sb;
    strbuf_init(&sb);
    format_array a = {data, t, ndim, shape, strides, NULL};
    if (!format_numpy(&sb, &a))
        strbuf_puts(&sb, "<invalid>");
    free(data);
    return strbuf_detach(&sb);
}

static char *torch_str(dtype t, void *data, int ndim, const int64_t *shape,
                       const char *device)
{
    strbuf sb;
    strbuf_init(&sb);
    format_array a = {data, t, ndim, shape, NULL, NULL};
    format_torch_opts o = {.device = device};
    if (!format_torch(&sb, &a, &o))
        strbuf_puts(&sb, "<invalid>");
    free(data);
    return strbuf_detach(&sb);
}

#define CHECK(got, want, ...) do { \
        char *got_ = (got); \
        TAP_STR_EQ(got_, want, __VA_ARGS__); \
        free(got_); \
    } while (0)

#define V(...) ((const double[]){__VA_ARGS__})
#define S(...) ((const int64_t[]){__VA_ARGS__})
#define NP(t, n, vals) np_str(t, make(t, n, vals), 1, S(n), NULL)

static void test_numpy_seed(void)
{
    /* print_if(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', '') */
    CHECK(np_str(DTYPE_INT32, make(DTYPE_INT32, 1, V(0)), 1, S(1), NULL), "[0]",
          "program_id is a 1-element array: pid = [0]");
    CHECK(NP(DTYPE_INT32, 2, V(0, 1)), "[0 1]", "offs = [0 1]");
    CHECK(NP(DTYPE_INT1, 2, V(1, 1)), "[ True  True]", "mask = [ True  True]");
    CHECK(NP(DTYPE_INT1, 2, V(0, 0)), "[False False]", "mask = [False False]");
    CHECK(NP(DTYPE_INT64, 2, V(1, 2)), "[1 2]", "x = [1 2]");
    CHECK(NP(DTYPE_INT32, 2, V(12, 13)), "[12 13]", "offs = [12 13]");
}

static void test_numpy(void)
{
    CHECK(NP(DTYPE_FP64, 2, V(1, 2.5)), "[1.  2.5]", "integral floats end in '.'");
    CHECK(NP(DTYPE_FP32, 2, V(0.1, 0.2)), "[0.1 0.2]", "fp32 0.1 prints shortest");
    CHECK(np_str(DTYPE_INT64, ramp(DTYPE_INT64, 4, 1), 2, S(2, 2), NULL) , "[[0 1]\n [2 3]]",
          "2-D ints");
    CHECK(NP(DTYPE_FP64, 2, V(1e-5, 1)), "[1.e-05 1.e+00]", "small values switch to scientific");
    CHECK(NP(DTYPE_FP64, 2, V(1, 2000)), "[1.e+00 2.e+03]", "a ratio above 1000 switches to scientific");
    CHECK(NP(DTYPE_FP64, 2, V(NAN, INFINITY)), "[nan inf]", "nan and inf");
    CHECK(NP(DTYPE_FP64, 3, V(NAN, 1.5, -INFINITY)), "[ nan  1.5 -inf]", "non-finite padding");
    CHECK(NP(DTYPE_FP64, 2, V(-1.5, 2)), "[-1.5  2. ]", "signs and right padding");
    CHECK(NP(DTYPE_FP64, 2, V(1.5e-5, 1)), "[1.5e-05 1.0e+00]", "scientific digits padded with zeros");
    CHECK(NP(DTYPE_FP64, 2, V(0, 1e-5)), "[0.e+00 1.e-05]", "zero in scientific");
    CHECK(NP(DTYPE_FP64, 2, V(1.0 / 512, 1)), "[0.00195312 1.        ]",
          "8 digits, the tie rounded to even");
    CHECK(NP(DTYPE_FP64, 1, V(1.0 / 3)), "[0.33333333]", "fp64 1/3 is cut to 8 digits");
    CHECK(NP(DTYPE_FP32, 1, V(1.0 / 3)), "[0.33333334]", "fp32 1/3 prints its shortest digits");
    CHECK(NP(DTYPE_FP64, 2, V(1e-100, 1)), "[1.e-100 1.e+000]", "three-digit exponents");
    CHECK(NP(DTYPE_FP16, 2, V(0.5, 0.25)), "[0.5  0.25]", "fp16");
    CHECK(NP(DTYPE_FP16, 1, V(0.1)), "[0.1]", "fp16 0.1 prints shortest for fp16");
    CHECK(NP(DTYPE_FP16, 1, V(65504)), "[65504.]", "fp16 max");
    CHECK(NP(DTYPE_BF16, 1, V(0.1)), "[0.1]", "bf16 0.1 prints shortest for bf16");
    CHECK(NP(DTYPE_FP16, 2, V(65504, 0.5)), "[6.55e+04 5.00e-01]",
          "fp16 65504 in scientific: shortest digits");
    CHECK(NP(DTYPE_FP16, 3, V(65504, 1000.5, 0.25)), "[6.5504e+04 1.0005e+03 2.5000e-01]",
          "a longer neighbour shows fp16 65504's exact digits, not zeros");
    CHECK(NP(DTYPE_FP32, 1, V(3 * 16777216.0)), "[50331648.]",
          "positional: the integer digits are exact (scalar str would say 50331650.0)");
    CHECK(NP(DTYPE_FP32, 2, V(3 * 16777216.0, 1.5)), "[5.033165e+07 1.500000e+00]",
          "fp32 in scientific, 6 digits");
    CHECK(NP(DTYPE_FP32, 2, V(1e7 + 1, 1.5)), "[1.0000001e+07 1.5000000e+00]",
          "fp32 in scientific, 7 digits");
    CHECK(NP(DTYPE_INT64, 2, V(1, 10)), "[ 1 10]", "ints right-aligned");
    CHECK(NP(DTYPE_INT8, 2, V(-5, 100)), "[ -5 100]", "int8 with a sign");
    CHECK(NP(DTYPE_FP64, 2, V(1, -0.0)), "[ 1. -0.]", "-0.0");
    CHECK(NP(DTYPE_FP64, 1, V(123456789.0)), "[1.23456789e+08]", ">= 1e8 is scientific");
    CHECK(NP(DTYPE_FP64, 1, V(99999999.0)), "[99999999.]", "below 1e8 stays positional");
    CHECK(NP(DTYPE_FP64, 2, V(-INFINITY, 1)), "[-inf   1.]", "-inf widens the column");
    CHECK(NP(DTYPE_FP64, 2, V(NAN, 1e-5)), "[   nan 1.e-05]", "nan next to scientific");
    CHECK(np_str(DTYPE_FP64, ramp(DTYPE_FP64, 30, 1.5), 1, S(30), NULL),
          "[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  19.5\n"
          " 21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 39.  40.5\n"
          " 42.  43.5]", "long float rows wrap at 75 columns");
    CHECK(np_str(DTYPE_INT64, ramp(DTYPE_INT64, 100, 1), 1, S(100), NULL),
          "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
          " 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47\n"
          " 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71\n"
          " 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95\n"
          " 96 97 98 99]", "long int rows wrap at 75 columns");
    CHECK(np_str(DTYPE_INT64, ramp(DTYPE_INT64, 8, 1), 3, S(2, 2, 2), NULL),
          "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]", "3-D: a blank line between blocks");
    CHECK(np_str(DTYPE_FP64, ramp(DTYPE_FP64, 2000, 0), 1, S(2000), NULL),
          "[0. 0. 0. ... 0. 0. 0.]", "more than 1000 elements are summarised");
    CHECK(np_str(DTYPE_INT64, ramp(DTYPE_INT64, 2000, 1), 2, S(40, 50), NULL),
          "[[   0    1    2 ...   47   48   49]\n"
          " [  50   51   52 ...   97   98   99]\n"
          " [ 100  101  102 ...  147  148  149]\n"
          " ...\n"
          " [1850 1851 1852 ... 1897 1898 1899]\n"
          " [1900 1901 1902 ... 1947 1948 1949]\n"
          " [1950 1951 1952 ... 1997 1998 1999]]",
          "summarised 2-D: widths measured on the shown values only");
    CHECK(np_str(DTYPE_INT64, ramp(DTYPE_INT64, 4, 1), 2, S(2, 2), S(1, 2)),
          "[[0 2]\n [1 3]]", "strides: a transposed view");
    CHECK(np_str(DTYPE_INT64, (char *)ramp(DTYPE_INT64, 3, 1), 1, S(0), NULL), "[]", "empty array");

    /* 0-d arrays print as numpy scalars */
    CHECK(np_str(DTYPE_INT32, make(DTYPE_INT32, 1, V(5)), 0, NULL, NULL), "5", "0-d int");
    CHECK(np_str(DTYPE_INT1, make(DTYPE_INT1, 1, V(1)), 0, NULL, NULL), "True", "0-d bool");
    CHECK(np_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(1.5)), 0, NULL, NULL), "1.5", "0-d float");
    CHECK(np_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(5.0)), 0, NULL, NULL), "5.0",
          "0-d integral float keeps '.0'");
    CHECK(np_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(1e-4)), 0, NULL, NULL), "1e-04",
          "fp32 1e-4 is just below 1e-4: scientific");
    CHECK(np_str(DTYPE_FP16, make(DTYPE_FP16, 1, V(0.1)), 0, NULL, NULL), "0.1", "0-d fp16");
    CHECK(np_str(DTYPE_FP16, make(DTYPE_FP16, 1, V(65504)), 0, NULL, NULL), "65500.0",
          "a 0-d fp16 65504 prints its shortest digits");
    uint64_t big = UINT64_MAX;
    void *pbig = malloc(8);
    memcpy(pbig, &big, 8);
    CHECK(np_str(DTYPE_UINT64, pbig, 0, NULL, NULL), "18446744073709551615", "0-d uint64 max");

    strbuf sb;
    strbuf_init(&sb);
    format_array bad = {NULL, DTYPE_INT32, 1, S(3), NULL, NULL};
    TAP_OK(!format_numpy(&sb, &bad) && sb.len == 0, "NULL data for a non-empty array is refused");
    format_array neg = {&big, DTYPE_INT32, 1, S(-1), NULL, NULL};
    TAP_OK(!format_numpy(&sb, &neg) && sb.len == 0, "a negative extent is refused");
    format_array deep = {&big, DTYPE_INT32, FORMAT_MAX_DIMS + 1, S(1), NULL, NULL};
    TAP_OK(!format_numpy(&sb, &deep), "too many dimensions are refused");
    strbuf_free(&sb);
}

static void test_scalars(void)
{
    strbuf sb;
    strbuf_init(&sb);
    static const struct { double x; const char *want; } py[] = {
        {1.5, "1.5"}, {4.0, "4.0"}, {1e-5, "1e-05"}, {1e16, "1e+16"},
        {0.1, "0.1"}, {-0.0, "-0.0"}, {1e22, "1e+22"}, {123456789012345.6, "123456789012345.6"},
        {0.0001, "0.0001"}, {1.0 / 3, "0.3333333333333333"}, {5e-324, "5e-324"},
        {1.7976931348623157e308, "1.7976931348623157e+308"}, {2.5e-5, "2.5e-05"},
    };
    for (size_t i = 0; i < sizeof py / sizeof py[0]; i++) {
        strbuf_clear(&sb);
        format_numpy_scalar(&sb, DTYPE_FP64, (dtype_scalar){.f = py[i].x});
        TAP_STR_EQ(strbuf_cstr(&sb), py[i].want, "str(np.float64) %s", py[i].want);
    }
    strbuf_clear(&sb);
    format_numpy_scalar(&sb, DTYPE_FP64, (dtype_scalar){.f = -INFINITY});
    TAP_STR_EQ(strbuf_cstr(&sb), "-inf", "str(np.float64(-inf))");
    strbuf_clear(&sb);
    format_numpy_scalar(&sb, DTYPE_FP32, (dtype_scalar){.f = NAN});
    TAP_STR_EQ(strbuf_cstr(&sb), "nan", "str(np.float32(nan))");
    strbuf_clear(&sb);
    format_numpy_scalar(&sb, DTYPE_FP32, (dtype_scalar){.f = (float)0.1});
    TAP_STR_EQ(strbuf_cstr(&sb), "0.1", "str(np.float32(0.1)): shortest for fp32");
    strbuf_clear(&sb);
    format_numpy_scalar(&sb, DTYPE_FP32, (dtype_scalar){.f = 50331648.0});
    TAP_STR_EQ(strbuf_cstr(&sb), "50331650.0",
               "fp32 3*2^24: the halfway decimal counts (even significand)");
    strbuf_clear(&sb);
    format_numpy_scalar(&sb, DTYPE_INT8, (dtype_scalar){.i = -128});
    TAP_STR_EQ(strbuf_cstr(&sb), "-128", "str(np.int8(-128))");
    strbuf_clear(&sb);
    format_numpy_scalar(&sb, DTYPE_INT1, (dtype_scalar){.u = 0});
    TAP_STR_EQ(strbuf_cstr(&sb), "False", "str(np.bool_(False))");

    char d[24];
    int e;
    int n = format_shortest_digits(0.1f, DTYPE_FP32, d, &e);
    TAP_OK(n == 1 && strcmp(d, "1") == 0 && e == -1, "shortest fp32 digits of 0.1f: 1e-1");
    n = format_shortest_digits(0.1f, DTYPE_FP64, d, &e);
    TAP_OK(n == 17 && strcmp(d, "10000000149011612") == 0 && e == -1,
           "the same value as a double needs 17 digits (%s)", d);
    n = format_shortest_digits(ldexp(1, 23), DTYPE_BF16, d, &e);
    TAP_OK(n == 2 && strcmp(d, "84") == 0 && e == 6, "bf16 2^23 is 8.4e6 (%se%d)", d, e);
    n = format_shortest_digits(ldexp(1, -20), DTYPE_FP32, d, &e);
    TAP_OK(strcmp(d, "9536743") == 0 && e == -7, "fp32 2^-20 is 9.536743e-07 (%se%d)", d, e);
    strbuf_free(&sb);
}

static void test_torch(void)
{
    /* the seed's outputs, verbatim */
    CHECK(torch_str(DTYPE_INT64, make(DTYPE_INT64, 6, V(1, 2, 0, 0, 0, 0)), 1, S(6), NULL),
          "tensor([1, 2, 0, 0, 0, 0])", "seed: an int64 vector has no dtype suffix");
    CHECK(torch_str(DTYPE_INT64, make(DTYPE_INT64, 6, V(1, 2, 3, 4, 5, 6)), 1, S(6), NULL),
          "tensor([1, 2, 3, 4, 5, 6])", "seed: copied tensor");
    double fours[15];
    for (int i = 0; i < 15; i++)
        fours[i] = 4;
    CHECK(torch_str(DTYPE_FP16, make(DTYPE_FP16, 15, fours), 2, S(3, 5), "cuda:0"),
          "tensor([[4., 4., 4., 4., 4.],\n"
          "        [4., 4., 4., 4., 4.],\n"
          "        [4., 4., 4., 4., 4.]], device='cuda:0', dtype=torch.float16)",
          "seed: fp16 matmul result on cuda");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 15, fours), 2, S(3, 5), "cuda:0"),
          "tensor([[4., 4., 4., 4., 4.],\n"
          "        [4., 4., 4., 4., 4.],\n"
          "        [4., 4., 4., 4., 4.]], device='cuda:0')",
          "seed: fp32 result shows no dtype");
    CHECK(torch_str(DTYPE_INT64, ramp(DTYPE_INT64, 20, 1), 2, S(5, 4), "cuda:0"),
          "tensor([[ 0,  1,  2,  3],\n"
          "        [ 4,  5,  6,  7],\n"
          "        [ 8,  9, 10, 11],\n"
          "        [12, 13, 14, 15],\n"
          "        [16, 17, 18, 19]], device='cuda:0')", "seed: the swizzle input");
    double minus1[20];
    for (int i = 0; i < 20; i++)
        minus1[i] = -1;
    CHECK(torch_str(DTYPE_INT64, make(DTYPE_INT64, 20, minus1), 2, S(5, 4), "cuda:0"),
          "tensor([[-1, -1, -1, -1],\n"
          "        [-1, -1, -1, -1],\n"
          "        [-1, -1, -1, -1],\n"
          "        [-1, -1, -1, -1],\n"
          "        [-1, -1, -1, -1]], device='cuda:0')", "seed: -torch.ones_like(x)");
    CHECK(torch_str(DTYPE_INT64, make(DTYPE_INT64, 20, V(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11,
                                                         12, 14, 16, 18, 13, 15, 17, 19)),
                    2, S(5, 4), "cuda:0"),
          "tensor([[ 0,  3,  6,  9],\n"
          "        [ 1,  4,  7, 10],\n"
          "        [ 2,  5,  8, 11],\n"
          "        [12, 14, 16, 18],\n"
          "        [13, 15, 17, 19]], device='cuda:0')", "seed: the swizzled result");
    CHECK(torch_str(DTYPE_UINT8, make(DTYPE_UINT8, 24, V(117, 119, 117, 113, 119, 129, 129, 113,
                                                         130, 126, 122, 115, 83, 85, 85, 80,
                                                         85, 97, 97, 82, 98, 93, 89, 83)),
                    3, S(2, 3, 4), NULL),
          "tensor([[[117, 119, 117, 113],\n"
          "         [119, 129, 129, 113],\n"
          "         [130, 126, 122, 115]],\n"
          "\n"
          "        [[ 83,  85,  85,  80],\n"
          "         [ 85,  97,  97,  82],\n"
          "         [ 98,  93,  89,  83]]], dtype=torch.uint8)", "seed: img[:2,:3,:4]");

    /* torch behaviour */
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(1, 2000)), 1, S(2), NULL),
          "tensor([1.0000e+00, 2.0000e+03])", "integral floats with a large ratio: scientific");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(1e-5, 1)), 1, S(2), NULL),
          "tensor([1.0000e-05, 1.0000e+00])", "small values: scientific");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(0.12345, 1)), 1, S(2), NULL),
          "tensor([0.1235, 1.0000])", "four decimals");
    CHECK(torch_str(DTYPE_INT1, make(DTYPE_INT1, 2, V(1, 0)), 1, S(2), NULL),
          "tensor([ True, False])", "bool tensor");
    CHECK(torch_str(DTYPE_INT64, make(DTYPE_INT64, 1, V(5)), 0, NULL, NULL), "tensor(5)", "0-d int64");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(1.5)), 0, NULL, NULL), "tensor(1.5000)", "0-d float");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(4)), 0, NULL, NULL), "tensor(4.)", "0-d integral float");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(1e-5)), 0, NULL, NULL), "tensor(1.0000e-05)",
          "0-d small float");
    CHECK(torch_str(DTYPE_INT32, make(DTYPE_INT32, 1, V(5)), 0, NULL, NULL),
          "tensor(5, dtype=torch.int32)", "0-d int32 shows its dtype");
    CHECK(torch_str(DTYPE_INT64, NULL, 1, S(0), NULL), "tensor([], dtype=torch.int64)",
          "an empty tensor shows every dtype but float32");
    CHECK(torch_str(DTYPE_FP32, NULL, 1, S(0), NULL), "tensor([])", "empty float32");
    CHECK(torch_str(DTYPE_INT1, NULL, 1, S(0), NULL), "tensor([], dtype=torch.bool)", "empty bool");
    CHECK(torch_str(DTYPE_FP32, NULL, 2, S(2, 0), NULL), "tensor([], size=(2, 0))", "empty 2-D");
    CHECK(torch_str(DTYPE_FP32, ramp(DTYPE_FP32, 2000, 0), 1, S(2000), NULL),
          "tensor([0., 0., 0.,  ..., 0., 0., 0.])", "summarised vector");
    CHECK(torch_str(DTYPE_FP32, ramp(DTYPE_FP32, 2000, 0), 2, S(40, 50), NULL),
          "tensor([[0., 0., 0.,  ..., 0., 0., 0.],\n"
          "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
          "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
          "        ...,\n"
          "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
          "        [0., 0., 0.,  ..., 0., 0., 0.],\n"
          "        [0., 0., 0.,  ..., 0., 0., 0.]])", "summarised matrix");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 1, V(-0.0)), 1, S(1), NULL), "tensor([-0.])", "-0.");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(NAN, 1.5)), 1, S(2), NULL),
          "tensor([   nan, 1.5000])", "nan padded to the column");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(INFINITY, 1)), 1, S(2), NULL),
          "tensor([inf, 1.])", "inf in int mode has no '.'");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 3, V(1, NAN, INFINITY)), 1, S(3), NULL),
          "tensor([1., nan, inf])", "non-finite values do not widen the column");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(123456789.0, 1)), 1, S(2), NULL),
          "tensor([1.2346e+08, 1.0000e+00])", "above 1e8: scientific");
    CHECK(torch_str(DTYPE_FP32, make(DTYPE_FP32, 2, V(-1.5, 2.25)), 1, S(2), NULL),
          "tensor([-1.5000,  2.2500])", "signs align");
    CHECK(torch_str(DTYPE_FP16, make(DTYPE_FP16, 2, V(0.1, 0.2)), 1, S(2), NULL),
          "tensor([0.1000, 0.2000], dtype=torch.float16)", "fp16 prints its fp32 value");
    CHECK(torch_str(DTYPE_FP64, make(DTYPE_FP64, 3, V(1, 1, 1)), 1, S(3), NULL),
          "tensor([1., 1., 1.], dtype=torch.float64)", "float64 shows its dtype");
    CHECK(torch_str(DTYPE_FP32, ramp(DTYPE_FP32, 30, 1.5), 1, S(30), NULL),
          "tensor([ 0.0000,  1.5000,  3.0000,  4.5000,  6.0000,  7.5000,  9.0000, 10.5000,\n"
          "        12.0000, 13.5000, 15.0000, 16.5000, 18.0000, 19.5000, 21.0000, 22.5000,\n"
          "        24.0000, 25.5000, 27.0000, 28.5000, 30.0000, 31.5000, 33.0000, 34.5000,\n"
          "        36.0000, 37.5000, 39.0000, 40.5000, 42.0000, 43.5000])",
          "whole elements per line, 80 columns");
    CHECK(torch_str(DTYPE_INT32, ramp(DTYPE_INT32, 20, 1), 1, S(20), NULL),
          "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
          "        18, 19], dtype=torch.int32)", "wrapped ints with a dtype");
    CHECK(torch_str(DTYPE_INT16, ramp(DTYPE_INT16, 24, 1), 3, S(2, 3, 4), NULL),
          "tensor([[[ 0,  1,  2,  3],\n"
          "         [ 4,  5,  6,  7],\n"
          "         [ 8,  9, 10, 11]],\n"
          "\n"
          "        [[12, 13, 14, 15],\n"
          "         [16, 17, 18, 19],\n"
          "         [20, 21, 22, 23]]], dtype=torch.int16)", "3-D int16");

    strbuf sb;
    strbuf_init(&sb);
    double ones[4] = {1, 1, 1, 1};
    void *p = make(DTYPE_FP32, 4, ones);
    format_array a = {p, DTYPE_FP32, 2, S(2, 2), NULL, NULL};
    format_torch_opts o = {.requires_grad = true};
    format_torch(&sb, &a, &o);
    TAP_STR_EQ(strbuf_cstr(&sb), "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)",
               "requires_grad suffix");
    strbuf_clear(&sb);
    format_torch(&sb, &a, NULL);
    TAP_STR_EQ(strbuf_cstr(&sb), "tensor([[1., 1.],\n        [1., 1.]])", "NULL options");
    /* a long last line pushes the suffix onto its own line */
    strbuf_clear(&sb);
    int64_t n = 8;
    void *q = ramp(DTYPE_INT32, n, 1000000);
    format_array b = {q, DTYPE_INT32, 1, &n, NULL, NULL};
    format_torch(&sb, &b, NULL);
    TAP_STR_EQ(strbuf_cstr(&sb),
               "tensor([      0, 1000000, 2000000, 3000000, 4000000, 5000000, 6000000, 7000000],\n"
               "       dtype=torch.int32)", "suffix wraps past 80 columns");
    strbuf_clear(&sb);
    n = 9;
    free(q);
    q = ramp(DTYPE_INT32, n, 1000000);
    b.data = q;
    format_torch(&sb, &b, NULL);
    TAP_STR_EQ(strbuf_cstr(&sb),
               "tensor([      0, 1000000, 2000000, 3000000, 4000000, 5000000, 6000000, 7000000,\n"
               "        8000000], dtype=torch.int32)", "a short last line keeps the suffix");
    format_array ptr = {p, dtype_ptr_to(DTYPE_FP32), 1, &n, NULL, NULL};
    strbuf_clear(&sb);
    TAP_OK(!format_torch(&sb, &ptr, NULL) && sb.len == 0, "torch has no pointer tensors");
    free(p);
    free(q);
    strbuf_free(&sb);
}

int main(void)
{
    test_numpy_seed();
    test_numpy();
    test_scalars();
    test_torch();
    return tap_done();
}
