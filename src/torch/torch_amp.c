/* torch_amp.c - torch.amp and torch.cuda.amp as kernel libraries use them:
 * the custom_fwd / custom_bwd decorators of an autograd.Function's forward
 * and backward.  tritsim has no autocast (every operation runs in the
 * dtypes it is given), and without autocast PyTorch's decorators call the
 * function unchanged, so here they give back the function itself.
 * torch.autocast is accepted where it changes nothing for float32 work:
 * enabled=False, or dtype=torch.float32 on cuda (a context that does
 * nothing: tritsim does not cast float16 inputs up inside it); autocasting
 * to float16 or bfloat16 is refused with a message that says so.
 * torch.is_autocast_enabled() is therefore False, and
 * torch.get_autocast_dtype(device) the dtype PyTorch's autocast would use
 * by default (float16 on cuda, bfloat16 on cpu). */
#include <string.h>

#include "torch_impl.h"

/* The decorator custom_fwd(device_type=...) returns when called without
 * the function: applied to it, the function unchanged. */
static val amp_identity(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "decorate", "fn", argc, argv, kw, a))
        return val_err();
    return val_ref(a[0]);
}

/* custom_fwd(fwd=None, *, device_type, cast_inputs=None) and
 * custom_bwd(bwd=None, *, device_type); torch.cuda.amp's take no
 * device_type (self: true there). */
static val amp_decorator(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at, const char *name, bool fwd)
{
    bool cuda_amp = self.kind == VAL_BOOL && self.u.b;
    const char *params = cuda_amp ? (fwd ? "fn=, cast_inputs=" : "fn=")
                                  : (fwd ? "fn=, device_type=, cast_inputs=" : "fn=, device_type=");
    val a[3];
    if (!host_args(h, at, name, params, argc, argv, kw, a))
        return val_err();
    if (!cuda_amp) {
        if (a[1].kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at, "%s() missing 1 required keyword-only "
                              "argument: 'device_type'", name);
        const char *dev;
        if (!host_to_str(h, a[1], at, "device_type", &dev))
            return val_err();
    }
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return val_ref(a[0]);
    return val_builtin_new(fwd ? "custom_fwd.decorate" : "custom_bwd.decorate", amp_identity,
                           val_none());
}

static val fn_custom_fwd(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    return amp_decorator(h, self, argc, argv, kw, at, "custom_fwd", true);
}

static val fn_custom_bwd(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    return amp_decorator(h, self, argc, argv, kw, at, "custom_bwd", false);
}

val torch_amp_module(bool cuda_amp)
{
    val m = val_module_new(cuda_amp ? "torch.cuda.amp" : "torch.amp");
    val_object_set(m, "custom_fwd",
                   val_builtin_new(cuda_amp ? "torch.cuda.amp.custom_fwd" : "torch.amp.custom_fwd",
                                   fn_custom_fwd, val_bool(cuda_amp)));
    val_object_set(m, "custom_bwd",
                   val_builtin_new(cuda_amp ? "torch.cuda.amp.custom_bwd" : "torch.amp.custom_bwd",
                                   fn_custom_bwd, val_bool(cuda_amp)));
    return m;
}

/* torch.is_autocast_enabled(device_type=None): False, tritsim has no autocast */
static val fn_is_autocast_enabled(host *h, val self, int argc, const val *argv,
                                  const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    const char *dev;
    if (!host_args(h, at, "is_autocast_enabled", "device_type=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && !host_to_str(h, a[0], at, "device_type", &dev)))
        return val_err();
    return val_bool(false);
}

/* torch.get_autocast_dtype(device_type) */
static val fn_get_autocast_dtype(host *h, val self, int argc, const val *argv,
                                 const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    const char *dev;
    if (!host_args(h, at, "get_autocast_dtype", "device_type", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "device_type", &dev))
        return val_err();
    if (!strcmp(dev, "cuda"))
        return val_dtype(DTYPE_FP16);
    if (!strcmp(dev, "cpu"))
        return val_dtype(DTYPE_BF16);
    return host_raise(h, HOST_EXC_RUNTIME, at, "unsupported autocast device_type '%s' in "
                      "tritsim (cuda and cpu are)", dev);
}

/* torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None) */
static val fn_autocast(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val a[4];
    const char *dev;
    bool on = true;
    if (!host_args(h, at, "autocast", "device_type, dtype=, enabled=, cache_enabled=", argc,
                   argv, kw, a) ||
        !host_to_str(h, a[0], at, "device_type", &dev) ||
        (a[2].kind != VAL_MISSING && !torch_bool_arg(h, a[2], at, "autocast", "enabled", &on)))
        return val_err();
    if (strcmp(dev, "cuda") && strcmp(dev, "cpu"))
        return host_raise(h, HOST_EXC_RUNTIME, at, "unsupported autocast device_type '%s' in "
                          "tritsim (cuda and cpu are)", dev);
    if (on) {
        bool fp32 = a[1].kind == VAL_DTYPE && (val_dtype_id(a[1]) & ~VAL_DTYPE_TL) == DTYPE_FP32;
        if (!fp32 || strcmp(dev, "cuda"))
            return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "torch.autocast that casts "
                              "(to float16 or bfloat16) is not supported by tritsim: every "
                              "operation runs in the dtypes it is given (autocast with "
                              "enabled=False, or with dtype=torch.float32 on cuda, is "
                              "accepted and does nothing)");
    }
    val null = host_getattr(h, host_module(h, "contextlib"), "nullcontext", at);
    if (null.kind == VAL_ERR)
        return null;
    val r = host_call(h, null, 0, NULL, NULL, at);
    val_unref(null);
    return r;
}

void torch_amp_add(host *h, val torch)
{
    (void)h;
    val_object_set(torch, "autocast", val_builtin_new("torch.autocast", fn_autocast,
                                                      val_none()));
    val_object_set(torch, "is_autocast_enabled",
                   val_builtin_new("torch.is_autocast_enabled", fn_is_autocast_enabled,
                                   val_none()));
    val_object_set(torch, "get_autocast_dtype",
                   val_builtin_new("torch.get_autocast_dtype", fn_get_autocast_dtype,
                                   val_none()));
}
