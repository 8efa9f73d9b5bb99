/* torch_dist.c - torch.distributed as a program sees it when it never
 * joined a process group: available, not initialised, and every
 * collective an error that says so.  Kernel libraries test
 * `dist.is_available() and dist.is_initialized()` before reducing across
 * ranks, and check `isinstance(x, torch.distributed.tensor.DTensor)`;
 * both take the single-process path here, as they do under PyTorch
 * without init_process_group. */
#include <stdio.h>
#include <string.h>

#include "torch_impl.h"

static val dist_is_available(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "is_available", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(true);
}

static val dist_is_initialized(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "is_initialized", "", argc, argv, kw, NULL))
        return val_err();
    return val_bool(false);
}

/* get_rank, get_world_size, all_reduce, ...: PyTorch's own message. */
static val dist_no_group(host *h, val self, int argc, const val *argv,
                         const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw;
    const char *name = self.kind == VAL_STR ? val_as_str(self)->s : "this function";
    return host_raise(h, HOST_EXC_VALUE, at, "Default process group has not been "
                      "initialized, please make sure to call init_process_group. "
                      "(torch.distributed.%s: tritsim runs one process)", name);
}

void torch_dist_add(host *h, val torch)
{
    val dist = val_module_new("torch.distributed");
    val_object_set(dist, "is_available", val_builtin_new("torch.distributed.is_available",
                                                         dist_is_available, val_none()));
    val_object_set(dist, "is_initialized",
                   val_builtin_new("torch.distributed.is_initialized", dist_is_initialized,
                                   val_none()));
    /* the name a builtin keeps must outlive it: string literals */
#define DIST_QUAL(n) {n, "torch.distributed." n}
    static const char *const collective[][2] = {
        DIST_QUAL("get_rank"), DIST_QUAL("get_world_size"), DIST_QUAL("all_reduce"),
        DIST_QUAL("all_gather"), DIST_QUAL("all_gather_into_tensor"),
        DIST_QUAL("reduce_scatter"), DIST_QUAL("reduce_scatter_tensor"),
        DIST_QUAL("broadcast"), DIST_QUAL("barrier"), DIST_QUAL("new_group"),
    };
#undef DIST_QUAL
    for (size_t i = 0; i < sizeof collective / sizeof *collective; i++)
        val_object_set(dist, collective[i][0], val_builtin_new(collective[i][1], dist_no_group,
                                                               val_str_cstr(collective[i][0])));
    /* ReduceOp.SUM etc.: names the collectives above would take */
    val op = class_new("ReduceOp", val_none(), true);
    static const char *const ops[] = {"SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR",
                                      "BXOR", NULL};
    for (const char *const *o = ops; *o; o++) {
        char q[32];
        snprintf(q, sizeof q, "ReduceOp.%s", *o);
        val_object_set(op, *o, val_str_cstr(q));
    }
    val_object_set(dist, "ReduceOp", op);
    /* torch.distributed.tensor.DTensor: a class no tensor here belongs to */
    val dt = val_module_new("torch.distributed.tensor");
    val_object_set(dt, "DTensor", class_new("DTensor", val_none(), true));
    val_object_set(dist, "tensor", val_ref(dt));
    host_register_module(h, "torch.distributed.tensor", dt);
    val_object_set(torch, "distributed", val_ref(dist));
    host_register_module(h, "torch.distributed", dist);
}
