/* torchmod.c - registers the torch module and its submodules: the function
 * tables of torch_*.c, the dtypes (torch.float32, torch.half, ...), the
 * types (torch.Tensor, torch.Size, torch.device), and the small modules
 * torch.cuda, torch.nn.functional, torch.testing, torch.linalg and
 * torch.version.
 *
 * torch.cuda.is_available() is True: programs ask it to choose their
 * device, and every tensor works on 'cuda' here, so GPU programs run
 * unchanged.  torch.cuda.synchronize() and torch.cuda.Event, which wait for
 * and time the kernels on the run's backend, are torch_cuda.c's. */
#include "torchmod.h"

#include <string.h>

#include "torch_impl.h"

#include "autograd.h"

/* What torch.cuda.get_device_name() and the device properties call the GPU. */
#define TORCH_GPU_NAME "tritsim (CPU simulator)"

/* ---- small functions of torch and torch.cuda -------------------------------- */

static val fn_constant(host *h, int argc, const val *argv, const val_kwargs *kw, src_span at,
                       const char *fname, const char *params, val result)
{
    val a[2];
    if (!host_args(h, at, fname, params, argc, argv, kw, a)) {
        val_unref(result);
        return val_err();
    }
    return result;
}

#define CONSTANT(name, params, result) \
    static val fn_##name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                         src_span at) \
    { \
        (void)self; \
        return fn_constant(h, argc, argv, kw, at, #name, params, result); \
    }
CONSTANT(is_available, "", val_bool(true))
CONSTANT(device_count, "", val_int(1))
CONSTANT(current_device, "", val_int(0))
CONSTANT(empty_cache, "", val_none())
CONSTANT(set_device, "device", val_none())
CONSTANT(is_bf16_supported, "including_emulation=", val_bool(true))
CONSTANT(get_device_name, "device=", val_str_cstr(TORCH_GPU_NAME))
CONSTANT(get_default_dtype, "", val_dtype(DTYPE_FP32))

/* ---- the simulated GPU: torch.cuda.get_device_properties and friends -------- */

static const torch_gpu gpu_h100 = {
    .backend = "cuda", .arch = NULL, .major = 9, .minor = 0, .sm_count = 132,
    .warp_size = 32, .max_shared_mem = 232448, .max_num_regs = 65536,
    .max_threads_per_sm = 2048, .sm_clock_khz = 1980000, .mem_clock_khz = 2619000,
    .mem_bus_width = 5120, .l2_cache_size = 50 << 20, .total_memory = 81559LL << 20,
};

static const torch_gpu gpu_mi300x = {
    .backend = "hip", .arch = "gfx942", .major = 9, .minor = 4, .sm_count = 304,
    .warp_size = 64, .max_shared_mem = 65536, .max_num_regs = 65536,
    .max_threads_per_sm = 2048, .sm_clock_khz = 2100000, .mem_clock_khz = 1300000,
    .mem_bus_width = 8192, .l2_cache_size = 4 << 20, .total_memory = 196592LL << 20,
};

/* NVIDIA's published figures for the B200 (DGX B200, HGX B200): 148 SMs,
 * 227 KB of shared memory a block may opt into (as Hopper), 126 MB of L2,
 * 180 GB of HBM3e on an 8192-bit bus; the clocks are its boost clock and
 * the memory clock of its 8 TB/s. */
static const torch_gpu gpu_b200 = {
    .backend = "cuda", .arch = NULL, .major = 10, .minor = 0, .sm_count = 148,
    .warp_size = 32, .max_shared_mem = 232448, .max_num_regs = 65536,
    .max_threads_per_sm = 2048, .sm_clock_khz = 1965000, .mem_clock_khz = 3996000,
    .mem_bus_width = 8192, .l2_cache_size = 126 << 20, .total_memory = 183359LL << 20,
};

const torch_gpu *torch_gpu_info(const host *h)
{
    switch (h->target) {
    case HOST_TARGET_H100: return &gpu_h100;
    case HOST_TARGET_MI300X: return &gpu_mi300x;
    case HOST_TARGET_B200: return &gpu_b200;
    }
    return &gpu_h100;
}

/* The arguments of a torch.cuda query whose first parameter is an
 * optional device (None, an int, "cuda", "cuda:0" or a torch.device). */
static bool cuda_query_args(host *h, src_span at, const char *fname, const char *params,
                            int argc, const val *argv, const val_kwargs *kw, val *a)
{
    bool cuda = true;
    return host_args(h, at, fname, params, argc, argv, kw, a) &&
           torch_device_arg(h, a[0], at, fname, &cuda);
}

/* torch.cuda.get_device_capability(device=None): (major, minor). */
static val fn_get_device_capability(host *h, val self, int argc, const val *argv,
                                    const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    if (!cuda_query_args(h, at, "get_device_capability", "device=", argc, argv, kw, a))
        return val_err();
    const torch_gpu *g = torch_gpu_info(h);
    val items[2] = {val_int(g->major), val_int(g->minor)};
    return val_tuple_of(2, items);
}

/* repr of torch.cuda.get_device_properties(): torch's short form. */
static void props_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val name = val_object_get(self, "name");
    val mem = val_object_get(self, "total_memory");
    val l2 = val_object_get(self, "L2_cache_size");
    strbuf_printf(out, "_CudaDeviceProperties(name='%s', major=%lld, minor=%lld, "
                  "total_memory=%lldMB, multi_processor_count=%lld, L2_cache_size=%lldMB)",
                  name.kind == VAL_STR ? val_as_str(name)->s : "?",
                  (long long)val_object_get(self, "major").u.i,
                  (long long)val_object_get(self, "minor").u.i,
                  (long long)(mem.u.i >> 20),
                  (long long)val_object_get(self, "multi_processor_count").u.i,
                  (long long)(l2.u.i >> 20));
}

static const val_type props_type = {
    .name = "_CudaDeviceProperties",
    .repr = props_repr,
};

/* torch.cuda.get_device_properties(device=None): the simulated GPU. */
static val fn_get_device_properties(host *h, val self, int argc, const val *argv,
                                    const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    if (!cuda_query_args(h, at, "get_device_properties", "device=", argc, argv, kw, a))
        return val_err();
    const torch_gpu *g = torch_gpu_info(h);
    val p = val_object_new(&props_type);
    val_object_set(p, "name", val_str_cstr(TORCH_GPU_NAME));
    val_object_set(p, "major", val_int(g->major));
    val_object_set(p, "minor", val_int(g->minor));
    val_object_set(p, "total_memory", val_int(g->total_memory));
    val_object_set(p, "multi_processor_count", val_int(g->sm_count));
    val_object_set(p, "L2_cache_size", val_int(g->l2_cache_size));
    val_object_set(p, "warp_size", val_int(g->warp_size));
    val_object_set(p, "max_threads_per_multi_processor", val_int(g->max_threads_per_sm));
    val_object_set(p, "regs_per_multiprocessor", val_int(g->max_num_regs));
    val_object_set(p, "shared_memory_per_block_optin", val_int(g->max_shared_mem));
    val_object_set(p, "is_integrated", val_int(0));
    val_object_set(p, "is_multi_gpu_board", val_int(0));
    if (g->arch)
        val_object_set(p, "gcnArchName", val_str_cstr(g->arch));
    return p;
}

/* ---- torch.cuda.Stream: accepted, there is one queue ------------------------ */

static void stream_repr(host *h, val self, strbuf *out)
{
    (void)h, (void)self;
    strbuf_puts(out, "<torch.cuda.Stream device=cuda:0 cuda_stream=0x0>");
}

static val stream_noop(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    if (!host_args(h, at, "synchronize", "", argc, argv, kw, NULL))
        return val_err();
    return val_none();
}

static val stream_query(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    if (!host_args(h, at, "query", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(true);
}

static const val_type stream_type = {
    .name = "Stream",
    .repr = stream_repr,
};

/* A Stream object: work on it is done when the call returns. */
static val stream_new(void)
{
    val s = val_object_new(&stream_type);
    val_object_set(s, "cuda_stream", val_int(0));
    val_object_set(s, "device", torch_device_new(true, 0));
    host_def(s, "torch.cuda.Stream.synchronize", stream_noop);
    host_def(s, "torch.cuda.Stream.query", stream_query);
    return s;
}

/* torch.cuda.Stream(device=None, priority=0) */
static val fn_stream(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)self;
    val a[2];
    if (!cuda_query_args(h, at, "Stream", "device=, priority=", argc, argv, kw, a))
        return val_err();
    return stream_new();
}

/* torch.cuda.current_stream(device=None) / default_stream(device=None) */
static val fn_current_stream(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                             src_span at)
{
    (void)self;
    val a[1];
    if (!cuda_query_args(h, at, "current_stream", "device=", argc, argv, kw, a))
        return val_err();
    return stream_new();
}

/* torch.cuda.set_stream(stream): nothing to switch. */
static val fn_set_stream(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "set_stream", "stream", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_OBJECT || a[0].u.o->type != &stream_type)
        return host_error(h, at, "set_stream(): expected a torch.cuda.Stream, not %s",
                          val_type_name(a[0]));
    return val_none();
}

/* ---- torch.cuda.device(device): a context manager; there is one GPU --------- */

static val cudadev_enter(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    if (!host_args(h, at, "__enter__", "", argc, argv, kw, NULL))
        return val_err();
    return val_none();
}

static val cudadev_exit(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)h, (void)self, (void)argc, (void)argv, (void)kw, (void)at;
    return val_bool(false);
}

static const val_type cudadev_type = {
    .name = "device",
};

/* torch.cuda.device(device): device an int, "cuda[:0]", a torch.device or
 * None; entering it selects the one GPU there is. */
static val fn_cuda_device(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[1];
    if (!cuda_query_args(h, at, "device", "device", argc, argv, kw, a))
        return val_err();
    val c = val_object_new(&cudadev_type);
    /* idx: the index asked for, -1 for None (PyTorch's) */
    val_object_set(c, "idx", val_int(a[0].kind == VAL_NONE ? -1
                                     : a[0].kind == VAL_INT ? a[0].u.i : 0));
    host_def(c, "torch.cuda.device.__enter__", cudadev_enter);
    host_def(c, "torch.cuda.device.__exit__", cudadev_exit);
    return c;
}

static val fn_is_tensor(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "is_tensor", "obj", argc, argv, kw, a))
        return val_err();
    return val_bool(a[0].kind == VAL_TENSOR);
}

static val fn_is_floating_point(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    val a[1];
    TORCH_READ_ARGS("is_floating_point", "input", a);
    return val_bool(dtype_is_float(t->type));
}

/* A dtype argument of the dtype functions. */
static bool dtype_of_arg(host *h, val v, src_span at, const char *fname, dtype *out)
{
    if (v.kind != VAL_DTYPE) {
        host_error(h, at, "%s(): expected a torch.dtype, not %s", fname, val_type_name(v));
        return false;
    }
    return torch_dtype_arg(h, v, at, fname, out);
}

static val fn_promote_types(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    (void)self;
    val a[2];
    dtype x, y;
    char err[TENSOR_ERR_LEN];
    if (!host_args(h, at, "promote_types", "type1, type2", argc, argv, kw, a) ||
        !dtype_of_arg(h, a[0], at, "promote_types", &x) ||
        !dtype_of_arg(h, a[1], at, "promote_types", &y))
        return val_err();
    dtype r = tensor_promote_types(x, y, err);
    return r == DTYPE_INVALID ? torch_fail(h, at, err) : val_dtype(r);
}

static val fn_can_cast(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[2];
    dtype x, y;
    if (!host_args(h, at, "can_cast", "from_, to", argc, argv, kw, a) ||
        !dtype_of_arg(h, a[0], at, "can_cast", &x) || !dtype_of_arg(h, a[1], at, "can_cast", &y))
        return val_err();
    return val_bool(tensor_can_cast(x, y));
}

static val fn_result_type(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[2];
    tensor_operand ops[2];
    char err[TENSOR_ERR_LEN];
    if (!host_args(h, at, "result_type", "tensor1, tensor2", argc, argv, kw, a))
        return val_err();
    for (int i = 0; i < 2; i++)
        if (!torch_operand(a[i], &ops[i]))
            return host_error(h, at, "result_type(): argument '%s' must be Tensor or Number, "
                              "not %s", i ? "tensor2" : "tensor1", val_type_name(a[i]));
    dtype r = tensor_result_type(2, ops, err);
    return r == DTYPE_INVALID ? torch_fail(h, at, err) : val_dtype(r);
}

const torch_fn torch_misc_fns[] = {
    TORCH_FUNC("is_tensor", fn_is_tensor),
    TORCH_BOTH("is_floating_point", fn_is_floating_point),
    TORCH_FUNC("promote_types", fn_promote_types),
    TORCH_FUNC("can_cast", fn_can_cast),
    TORCH_FUNC("result_type", fn_result_type),
    TORCH_FUNC("get_default_dtype", fn_get_default_dtype),
    {NULL, NULL, NULL, NULL, NULL, 0},
};

/* ---- registration ---------------------------------------------------------------- */

/* Every attribute name torch.<x> gives a dtype for. */
static const char *const dtype_attrs[] = {
    "float32", "float", "float64", "double", "float16", "half", "bfloat16",
    "int8", "int16", "short", "int32", "int", "int64", "long", "uint8", "uint16",
    "uint32", "uint64", "bool", "float8_e4m3fn", "float8_e5m2", NULL,
};

/* A torch function as a value: called through autograd_call, which
 * records it in the autograd graph when it should (its data is f). */
val torch_fn_value(const char *qualname, const torch_fn *f, val self)
{
    val b = val_builtin_new(qualname, autograd_call, self);
    ((val_builtin *)b.u.o)->data = f;
    return b;
}

static void add_table(val torch, val nnf, const torch_fn *table)
{
    for (const torch_fn *f = table; f->name; f++) {
        if (f->qual_torch)
            val_object_set(torch, f->name, torch_fn_value(f->qual_torch, f, val_none()));
        if (f->qual_nnf)
            val_object_set(nnf, f->name, torch_fn_value(f->qual_nnf, f, val_none()));
    }
}

/* Register module m as name and as attribute attr of parent. */
static void add_module(host *h, val parent, const char *attr, const char *name, val m)
{
    val_object_set(parent, attr, val_ref(m));
    host_register_module(h, name, m);
}

static val make_cuda(void)
{
    val cuda = val_module_new("torch.cuda");
    static const val_method fns[] = {
        {"is_available", "torch.cuda.is_available", fn_is_available},
        {"device_count", "torch.cuda.device_count", fn_device_count},
        {"current_device", "torch.cuda.current_device", fn_current_device},
        {"empty_cache", "torch.cuda.empty_cache", fn_empty_cache},
        {"set_device", "torch.cuda.set_device", fn_set_device},
        {"is_bf16_supported", "torch.cuda.is_bf16_supported", fn_is_bf16_supported},
        {"get_device_name", "torch.cuda.get_device_name", fn_get_device_name},
        {"manual_seed", "torch.cuda.manual_seed", torch_manual_seed_fn},
        {"manual_seed_all", "torch.cuda.manual_seed_all", torch_manual_seed_fn},
        {"get_device_capability", "torch.cuda.get_device_capability",
         fn_get_device_capability},
        {"get_device_properties", "torch.cuda.get_device_properties",
         fn_get_device_properties},
        {"Stream", "torch.cuda.Stream", fn_stream},
        {"current_stream", "torch.cuda.current_stream", fn_current_stream},
        {"default_stream", "torch.cuda.default_stream", fn_current_stream},
        {"set_stream", "torch.cuda.set_stream", fn_set_stream},
        {"device", "torch.cuda.device", fn_cuda_device},
    };
    val_method_set_all(cuda, fns, sizeof fns / sizeof *fns, val_none());
    torch_cuda_add(cuda);
    return cuda;
}

/* torch._C._cuda_getCurrentRawStream(device_index): the current stream's
 * handle as an int, 0 (the default stream, which is all tritsim has; the
 * cuda_stream of torch.cuda.current_stream()). */
static val fn_raw_stream(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "_cuda_getCurrentRawStream", "device_index", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_INT)
        return host_raise(h, HOST_EXC_TYPE, at, "_cuda_getCurrentRawStream(): expected an "
                          "int device index, not %s", val_type_name(a[0]));
    return val_int(0);
}

/* torch.version.cuda / .hip say which GPU stack the program "runs" on:
 * HIP under --target mi300x (the ROCm tutorial picks its configs by it). */
static val make_version(host *h)
{
    val v = val_module_new("torch.version");
    bool hip = h->target == HOST_TARGET_MI300X;
    val_object_set(v, "cuda", hip ? val_none() : val_str_cstr("12.1"));
    val_object_set(v, "hip", hip ? val_str_cstr("6.0") : val_none());
    val_object_set(v, "__version__", val_str_cstr("2.1.0+tritsim"));
    return v;
}

void torch_init(host *h)
{
    torch_initcheck_init(h);
    val torch = val_module_new("torch");
    val nn = val_module_new("torch.nn");
    val nnf = val_module_new("torch.nn.functional");
    val testing = val_module_new("torch.testing");
    const torch_fn *tables[] = {torch_create_fns, torch_tensor_fns, torch_math_fns,
                                torch_testing_fns, torch_misc_fns, torch_autograd_fns,
                                torch_index_fns, torch_sort_fns, torch_complex_fns, torch_nn_fns,
                                torch_nnmore_fns};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        add_table(torch, nnf, tables[i]);
    for (const char *const *d = dtype_attrs; *d; d++)
        val_object_set(torch, *d, val_dtype(dtype_from_torch_attr(*d)));
    torch_complex_add(torch);
    val_object_set(torch, "Tensor", torch_tensor_type_val());
    val_object_set(torch, "Size", torch_size_type_val());
    val_object_set(torch, "device", torch_device_type_val());
    val_object_set(torch, "__version__", val_str_cstr("2.1.0+tritsim"));
    val_object_set(testing, "assert_close", torch_testing_assert_close());

    val cuda = make_cuda();
    add_module(h, torch, "cuda", "torch.cuda", cuda);
    add_module(h, cuda, "amp", "torch.cuda.amp", torch_amp_module(true));
    add_module(h, torch, "amp", "torch.amp", torch_amp_module(false));
    torch_amp_add(h, torch);
    add_module(h, torch, "version", "torch.version", make_version(h));
    val c_ext = val_module_new("torch._C");
    val_object_set(c_ext, "_cuda_getCurrentRawStream",
                   val_builtin_new("torch._C._cuda_getCurrentRawStream", fn_raw_stream,
                                   val_none()));
    add_module(h, torch, "_C", "torch._C", c_ext);
    add_module(h, torch, "testing", "torch.testing", testing);
    val linalg = val_module_new("torch.linalg");
    add_table(linalg, nnf, torch_linalg_fns);
    add_module(h, torch, "linalg", "torch.linalg", linalg);
    add_module(h, nn, "functional", "torch.nn.functional", nnf);
    autograd_init(h, torch);
    add_module(h, torch, "nn", "torch.nn", nn);
    torch_backends_add(h, torch);
    torch_info_add(h, torch);
    torch_inductor_add(h, torch);
    torch_utilmod_add(h, torch);
    torch_dist_add(h, torch);
    torch_reduce_more_add(h, torch);
    torch_nnutils_add(h, nn);
    torch_module_add(h, nn);
    torch_layers_add(h, nn);
    torch_nnact_add(h, nn);
    torch_convpool_add(h, nn);
    torch_batchnorm_add(h, nn);
    torch_nninit_add(h, nn);
    host_register_module(h, "torch", torch);
    torch_register_dtype_type();
}
