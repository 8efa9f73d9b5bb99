/* torch_utilmod.c - the small PyTorch utilities kernel libraries probe
 * at import: torch.utils._triton.has_triton (True: tritsim runs Triton
 * kernels) and the deterministic-algorithms switch
 * (torch.use_deterministic_algorithms, are_deterministic_algorithms_enabled,
 * is_deterministic_algorithms_warn_only_enabled), which tritsim keeps and
 * reports; every tritsim run is deterministic whatever it says. */
#include <string.h>

#include "torch_impl.h"

/* The switch, per run (tritsim runs one program per process). */
static bool util_deterministic, util_warn_only;

static val fn_has_triton(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    if (!host_args(h, at, "has_triton", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(true);
}

/* use_deterministic_algorithms(mode, *, warn_only=False) */
static val fn_use_deterministic(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "use_deterministic_algorithms", "mode, *, warn_only=", argc, argv, kw,
                   a))
        return val_err();
    if (a[0].kind != VAL_BOOL || (a[1].kind != VAL_MISSING && a[1].kind != VAL_BOOL)) {
        host_raise(h, HOST_EXC_TYPE, at, "use_deterministic_algorithms expects a bool, "
                   "but got %s", val_type_name(a[a[0].kind != VAL_BOOL ? 0 : 1]));
        return val_err();
    }
    util_deterministic = a[0].u.b;
    util_warn_only = a[1].kind == VAL_BOOL && a[1].u.b;
    return val_none();
}

static val fn_are_deterministic(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "are_deterministic_algorithms_enabled", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(util_deterministic);
}

static val fn_warn_only(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    if (!host_args(h, at, "is_deterministic_algorithms_warn_only_enabled", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(util_warn_only);
}

void torch_utilmod_add(host *h, val torch)
{
    util_deterministic = util_warn_only = false;
    static const val_method fns[] = {
        {"use_deterministic_algorithms", "torch.use_deterministic_algorithms",
         fn_use_deterministic},
        {"are_deterministic_algorithms_enabled", "torch.are_deterministic_algorithms_enabled",
         fn_are_deterministic},
        {"is_deterministic_algorithms_warn_only_enabled",
         "torch.is_deterministic_algorithms_warn_only_enabled", fn_warn_only},
    };
    val_method_set_all(torch, fns, sizeof fns / sizeof *fns, val_none());
    val utils = val_module_new("torch.utils");
    val triton = val_module_new("torch.utils._triton");
    val_object_set(triton, "has_triton", val_builtin_new("torch.utils._triton.has_triton",
                                                         fn_has_triton, val_none()));
    val_object_set(utils, "_triton", val_ref(triton));
    val_object_set(torch, "utils", val_ref(utils));
    host_register_module(h, "torch.utils", utils);
    host_register_module(h, "torch.utils._triton", triton);
}
