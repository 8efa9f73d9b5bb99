/* torchmod.c - registers the torch module and its submodules: the function
 * tables of torch_*.c, the dtypes (torch.float32, torch.half, ...), the
 * types (torch.Tensor, torch.Size, torch.device), and the small modules
 * torch.cuda, torch.nn.functional, torch.testing and torch.version.
 *
 * torch.cuda.is_available() is True: programs ask it to choose their
 * device, and every tensor works on 'cuda' here, so GPU programs run
 * unchanged.  torch.cuda.synchronize() has nothing to wait for. */
#include "torchmod.h"

#include <string.h>

#include "torch_impl.h"

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
CONSTANT(synchronize, "device=", val_none())
CONSTANT(device_count, "", val_int(1))
CONSTANT(current_device, "", val_int(0))
CONSTANT(empty_cache, "", val_none())
CONSTANT(set_device, "device", val_none())
CONSTANT(is_bf16_supported, "including_emulation=", val_bool(true))
CONSTANT(get_device_name, "device=", val_str_cstr("tritsim (CPU simulator)"))
CONSTANT(get_default_dtype, "", val_dtype(DTYPE_FP32))

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

static const torch_fn misc_fns[] = {
    TORCH_FUNC("is_tensor", fn_is_tensor),
    TORCH_BOTH("is_floating_point", fn_is_floating_point),
    TORCH_FUNC("promote_types", fn_promote_types),
    TORCH_FUNC("can_cast", fn_can_cast),
    TORCH_FUNC("result_type", fn_result_type),
    TORCH_FUNC("get_default_dtype", fn_get_default_dtype),
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- registration ---------------------------------------------------------------- */

/* Every attribute name torch.<x> gives a dtype for. */
static const char *const dtype_attrs[] = {
    "float32", "float", "float64", "double", "float16", "half", "bfloat16",
    "int8", "int16", "short", "int32", "int", "int64", "long", "uint8", "uint16",
    "uint32", "uint64", "bool", "float8_e4m3fn", "float8_e5m2", NULL,
};

static void add_table(val torch, val nnf, const torch_fn *table)
{
    for (const torch_fn *f = table; f->name; f++) {
        if (f->qual_torch)
            val_object_set(torch, f->name, val_builtin_new(f->qual_torch, f->fn, val_none()));
        if (f->qual_nnf)
            val_object_set(nnf, f->name, val_builtin_new(f->qual_nnf, f->fn, val_none()));
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
    static const struct { const char *name, *qual; val_cfunc fn; } fns[] = {
        {"is_available", "torch.cuda.is_available", fn_is_available},
        {"synchronize", "torch.cuda.synchronize", fn_synchronize},
        {"device_count", "torch.cuda.device_count", fn_device_count},
        {"current_device", "torch.cuda.current_device", fn_current_device},
        {"empty_cache", "torch.cuda.empty_cache", fn_empty_cache},
        {"set_device", "torch.cuda.set_device", fn_set_device},
        {"is_bf16_supported", "torch.cuda.is_bf16_supported", fn_is_bf16_supported},
        {"get_device_name", "torch.cuda.get_device_name", fn_get_device_name},
        {"manual_seed", "torch.cuda.manual_seed", torch_manual_seed_fn},
        {"manual_seed_all", "torch.cuda.manual_seed_all", torch_manual_seed_fn},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        val_object_set(cuda, fns[i].name, val_builtin_new(fns[i].qual, fns[i].fn, val_none()));
    return cuda;
}

/* torch.version.cuda / .hip say which GPU stack the program "runs" on:
 * HIP under --backend hip (the ROCm tutorial picks its configs by it). */
static val make_version(host *h)
{
    val v = val_module_new("torch.version");
    bool hip = h->backend && !strcmp(h->backend, "hip");
    val_object_set(v, "cuda", hip ? val_none() : val_str_cstr("12.1"));
    val_object_set(v, "hip", hip ? val_str_cstr("6.0") : val_none());
    val_object_set(v, "__version__", val_str_cstr("2.1.0+tritsim"));
    return v;
}

void torch_init(host *h)
{
    val torch = val_module_new("torch");
    val nn = val_module_new("torch.nn");
    val nnf = val_module_new("torch.nn.functional");
    val testing = val_module_new("torch.testing");
    const torch_fn *tables[] = {torch_create_fns, torch_tensor_fns, torch_math_fns,
                                torch_testing_fns, misc_fns};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        add_table(torch, nnf, tables[i]);
    for (const char *const *d = dtype_attrs; *d; d++)
        val_object_set(torch, *d, val_dtype(dtype_from_torch_attr(*d)));
    val_object_set(torch, "Tensor", torch_tensor_type_val());
    val_object_set(torch, "Size", torch_size_type_val());
    val_object_set(torch, "device", torch_device_type_val());
    val_object_set(torch, "__version__", val_str_cstr("2.1.0+tritsim"));
    val_object_set(testing, "assert_close", torch_testing_assert_close());

    add_module(h, torch, "cuda", "torch.cuda", make_cuda());
    add_module(h, torch, "version", "torch.version", make_version(h));
    add_module(h, torch, "testing", "torch.testing", testing);
    add_module(h, nn, "functional", "torch.nn.functional", nnf);
    add_module(h, torch, "nn", "torch.nn", nn);
    host_register_module(h, "torch", torch);
    torch_register_dtype_type();
}
