/* torch_backends.c - torch.backends: the flags programs set before they
 * benchmark or compare (torch.backends.cuda.matmul.allow_tf32,
 * allow_fp16/bf16_reduced_precision_reduction; torch.backends.cudnn's
 * enabled, benchmark, deterministic, allow_tf32), the sdp backend
 * switches of torch.backends.cuda, and torch.set_float32_matmul_precision
 * / get_float32_matmul_precision.
 *
 * The flags are ordinary attributes with PyTorch's defaults: a program
 * reads back what it set.  They change no result: tritsim's host matmul
 * always computes float32 products in full float32 (what allow_tf32=False
 * asks for), and no convolution uses cuDNN.  doc/language.md says so. */
#include "torch_impl.h"

#include <stdio.h>
#include <string.h>

/* ---- torch.backends.cuda's sdp switches ------------------------------------- */

static const char *const sdp_flags[] = {"flash", "mem_efficient", "math", "cudnn"};

/* The module holding the sdp flags (torch.backends.cuda) is each
 * builtin's self. */
static val sdp_enable(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at, const char *which)
{
    val a[1];
    bool on;
    if (!host_args(h, at, "enable_sdp", "enabled", argc, argv, kw, a) ||
        !torch_bool_arg(h, a[0], at, "enable_sdp", "enabled", &on))
        return val_err();
    char name[48];
    snprintf(name, sizeof name, "_%s_sdp_enabled", which);
    val_object_set(self, name, val_bool(on));
    return val_none();
}

static val sdp_enabled(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at, const char *which)
{
    if (!host_args(h, at, "sdp_enabled", "", argc, argv, kw, NULL))
        return val_err();
    char name[48];
    snprintf(name, sizeof name, "_%s_sdp_enabled", which);
    return val_object_get(self, name);
}

HOST_CFUNC_CALLING(fn_enable_flash_sdp, sdp_enable, "flash")
HOST_CFUNC_CALLING(fn_enable_mem_efficient_sdp, sdp_enable, "mem_efficient")
HOST_CFUNC_CALLING(fn_enable_math_sdp, sdp_enable, "math")
HOST_CFUNC_CALLING(fn_enable_cudnn_sdp, sdp_enable, "cudnn")
HOST_CFUNC_CALLING(fn_flash_sdp_enabled, sdp_enabled, "flash")
HOST_CFUNC_CALLING(fn_mem_efficient_sdp_enabled, sdp_enabled, "mem_efficient")
HOST_CFUNC_CALLING(fn_math_sdp_enabled, sdp_enabled, "math")
HOST_CFUNC_CALLING(fn_cudnn_sdp_enabled, sdp_enabled, "cudnn")

/* A context manager that does nothing: torch.backends.cuda.sdp_kernel(...)
 * and sdpa_kernel(...) choose among attention kernels tritsim does not
 * have (F.scaled_dot_product_attention has one implementation). */
static val ctx_enter(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)h, (void)argc, (void)argv, (void)kw, (void)at;
    return val_ref(self);
}

static val ctx_exit(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)h, (void)self, (void)argc, (void)argv, (void)kw, (void)at;
    return val_bool(false);
}

static const val_type sdp_ctx_type = {
    .name = "sdp_kernel",
};

static val fn_sdp_kernel(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[4];
    if (!host_args(h, at, "sdp_kernel", "enable_flash=, enable_math=, enable_mem_efficient=, "
                   "enable_cudnn=", argc, argv, kw, a))
        return val_err();
    val c = val_object_new(&sdp_ctx_type);
    host_def(c, "sdp_kernel.__enter__", ctx_enter);
    host_def(c, "sdp_kernel.__exit__", ctx_exit);
    return c;
}

/* ---- torch.set_float32_matmul_precision -------------------------------------- */

/* self: torch.backends.cuda.matmul, whose allow_tf32 the precision sets. */
static val fn_set_precision(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    val a[1];
    const char *p;
    if (!host_args(h, at, "set_float32_matmul_precision", "precision", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "set_float32_matmul_precision() argument 'precision'", &p))
        return val_err();
    if (strcmp(p, "highest") && strcmp(p, "high") && strcmp(p, "medium"))
        return host_error(h, at, "Invalid precision %s", p);
    val_object_set(self, "allow_tf32", val_bool(strcmp(p, "highest") != 0));
    val_object_set(self, "_precision", val_str_cstr(p));
    return val_none();
}

static val fn_get_precision(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    if (!host_args(h, at, "get_float32_matmul_precision", "", argc, argv, kw, NULL))
        return val_err();
    val tf32 = val_object_get(self, "allow_tf32");
    val p = val_object_get(self, "_precision");
    bool on = tf32.kind == VAL_BOOL ? tf32.u.b : true;
    if (!on)
        return val_str_cstr("highest");
    if (p.kind == VAL_STR && !strcmp(val_as_str(p)->s, "medium"))
        return val_str_cstr("medium");
    return val_str_cstr("high");
}

/* ---- small queries ------------------------------------------------------------- */

static val fn_true(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    (void)self;
    if (!host_args(h, at, "is_available", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(true);
}

static val fn_false(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    if (!host_args(h, at, "is_available", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(false);
}

/* torch.backends.cudnn.version(): the cuDNN of PyTorch 2.11's CUDA wheels. */
static val fn_cudnn_version(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    (void)self;
    if (!host_args(h, at, "version", "", argc, argv, kw, NULL))
        return val_err();
    return val_int(91002);
}

/* m.name = a builtin bound to self (borrowed). */
static void def_in(val m, const char *name, const char *qual, val_cfunc fn, val self)
{
    val_object_set(m, name, val_builtin_new(qual, fn, val_ref(self)));
}

void torch_backends_add(host *h, val torch)
{
    val backends = val_module_new("torch.backends");
    val cuda = val_module_new("torch.backends.cuda");
    val matmul = val_module_new("torch.backends.cuda.matmul");
    val cudnn = val_module_new("torch.backends.cudnn");
    val mps = val_module_new("torch.backends.mps");

    val_object_set(matmul, "allow_tf32", val_bool(false));
    val_object_set(matmul, "allow_fp16_reduced_precision_reduction", val_bool(true));
    val_object_set(matmul, "allow_bf16_reduced_precision_reduction", val_bool(true));
    val_object_set(matmul, "_precision", val_str_cstr("highest"));
    val_object_set(cuda, "matmul", val_ref(matmul));
    for (size_t i = 0; i < sizeof sdp_flags / sizeof *sdp_flags; i++) {
        char name[48];
        snprintf(name, sizeof name, "_%s_sdp_enabled", sdp_flags[i]);
        val_object_set(cuda, name, val_bool(true));
    }
    static const val_method sdp[] = {
        {"enable_flash_sdp", "torch.backends.cuda.enable_flash_sdp", fn_enable_flash_sdp},
        {"enable_mem_efficient_sdp", "torch.backends.cuda.enable_mem_efficient_sdp",
         fn_enable_mem_efficient_sdp},
        {"enable_math_sdp", "torch.backends.cuda.enable_math_sdp", fn_enable_math_sdp},
        {"enable_cudnn_sdp", "torch.backends.cuda.enable_cudnn_sdp", fn_enable_cudnn_sdp},
        {"flash_sdp_enabled", "torch.backends.cuda.flash_sdp_enabled", fn_flash_sdp_enabled},
        {"mem_efficient_sdp_enabled", "torch.backends.cuda.mem_efficient_sdp_enabled",
         fn_mem_efficient_sdp_enabled},
        {"math_sdp_enabled", "torch.backends.cuda.math_sdp_enabled", fn_math_sdp_enabled},
        {"cudnn_sdp_enabled", "torch.backends.cuda.cudnn_sdp_enabled", fn_cudnn_sdp_enabled},
    };
    val_method_set_all(cuda, sdp, sizeof sdp / sizeof *sdp, cuda);
    def_in(cuda, "sdp_kernel", "torch.backends.cuda.sdp_kernel", fn_sdp_kernel, val_none());
    def_in(cuda, "is_built", "torch.backends.cuda.is_built", fn_true, val_none());

    val_object_set(cudnn, "enabled", val_bool(true));
    val_object_set(cudnn, "benchmark", val_bool(false));
    val_object_set(cudnn, "deterministic", val_bool(false));
    val_object_set(cudnn, "allow_tf32", val_bool(true));
    def_in(cudnn, "is_available", "torch.backends.cudnn.is_available", fn_true, val_none());
    def_in(cudnn, "version", "torch.backends.cudnn.version", fn_cudnn_version, val_none());
    def_in(mps, "is_available", "torch.backends.mps.is_available", fn_false, val_none());
    def_in(mps, "is_built", "torch.backends.mps.is_built", fn_false, val_none());

    val_object_set(backends, "cuda", val_ref(cuda));
    val_object_set(backends, "cudnn", val_ref(cudnn));
    val_object_set(backends, "mps", val_ref(mps));
    host_register_module(h, "torch.backends.cuda", cuda);
    host_register_module(h, "torch.backends.cudnn", cudnn);
    host_register_module(h, "torch.backends.mps", mps);
    host_register_module(h, "torch.backends.cuda.matmul", matmul);
    def_in(torch, "set_float32_matmul_precision", "torch.set_float32_matmul_precision",
           fn_set_precision, matmul);
    def_in(torch, "get_float32_matmul_precision", "torch.get_float32_matmul_precision",
           fn_get_precision, matmul);
    val_object_set(torch, "backends", val_ref(backends));
    host_register_module(h, "torch.backends", backends);
}
