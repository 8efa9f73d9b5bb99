/* torch_reduce_more.c - reductions that are compositions of others:
 * torch.count_nonzero(input, dim=None), the number of elements that are not
 * zero (NaN counts), over all of input or over dim (an int or a tuple), as
 * an int64 tensor: (input != 0).sum(dim). */
#include "torch_impl.h"

static val fn_count_nonzero(host *h, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "count_nonzero", "input, dim=", argc, argv, kw, a))
        return val_err();
    val torch = host_module(h, "torch");
    val ne = host_getattr(h, torch, "ne", at);
    if (ne.kind == VAL_ERR)
        return ne;
    val args[2] = {a[0], val_int(0)};
    val mask = host_call(h, ne, 2, args, NULL, at);
    val_unref(ne);
    if (mask.kind == VAL_ERR)
        return mask;
    val sum = host_getattr(h, mask, "sum", at);
    val r = sum.kind == VAL_ERR ? sum
            : a[1].kind == VAL_MISSING || a[1].kind == VAL_NONE
                ? host_call(h, sum, 0, NULL, NULL, at)
                : host_call(h, sum, 1, &a[1], NULL, at);
    val_unref(sum);
    val_unref(mask);
    return r;
}

void torch_reduce_more_add(host *h, val torch)
{
    (void)h;
    val_object_set(torch, "count_nonzero", val_builtin_new("torch.count_nonzero",
                                                           fn_count_nonzero, val_none()));
}
