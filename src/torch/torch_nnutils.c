/* torch_nnutils.c - torch.nn.modules.utils: _single, _pair, _triple,
 * _quadruple and _ntuple, the helpers that turn `kernel_size=3` or
 * `stride=(1, 2)` into a tuple of one length.  Convolution and attention
 * wrappers import them. */
#include "torch_impl.h"

/* parse(x): tuple(x) when x is a sequence, else x repeated n times (n is
 * the builtin's self). */
static val nnutils_parse(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[1];
    if (!host_args(h, at, "parse", "x", argc, argv, kw, a))
        return val_err();
    val x = a[0];
    if (x.kind == VAL_TUPLE || x.kind == VAL_LIST || x.kind == VAL_RANGE) {
        val list = host_to_list(h, x, at);
        if (list.kind == VAL_ERR)
            return list;
        const val_seq *l = val_as_seq(list);
        val t = val_tuple_new(l->len);
        for (size_t i = 0; i < l->len; i++)
            val_seq_set(t, i, val_ref(l->items[i]));
        val_unref(list);
        return t;
    }
    int64_t n = self.u.i;
    val t = val_tuple_new((size_t)n);
    for (int64_t i = 0; i < n; i++)
        val_seq_set(t, (size_t)i, val_ref(x));
    return t;
}

static val nnutils_ntuple(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[2];
    int64_t n;
    if (!host_args(h, at, "_ntuple", "n, name=", argc, argv, kw, a) ||
        !host_to_int(h, a[0], at, "_ntuple() n", &n))
        return val_err();
    if (n < 0 || n > 64)
        return host_raise(h, HOST_EXC_VALUE, at, "_ntuple() n must be between 0 and 64, "
                          "not %lld", (long long)n);
    return val_builtin_new("parse", nnutils_parse, val_int(n));
}

void torch_nnutils_add(host *h, val nn)
{
    val modules = val_module_new("torch.nn.modules");
    val utils = val_module_new("torch.nn.modules.utils");
    static const char *const names[][2] = {
        {"_single", "torch.nn.modules.utils._single"},
        {"_pair", "torch.nn.modules.utils._pair"},
        {"_triple", "torch.nn.modules.utils._triple"},
        {"_quadruple", "torch.nn.modules.utils._quadruple"},
    };
    for (int i = 0; i < 4; i++)
        val_object_set(utils, names[i][0], val_builtin_new(names[i][1], nnutils_parse,
                                                           val_int(i + 1)));
    val_object_set(utils, "_ntuple", val_builtin_new("torch.nn.modules.utils._ntuple",
                                                     nnutils_ntuple, val_none()));
    val_object_set(modules, "utils", val_ref(utils));
    host_register_module(h, "torch.nn.modules.utils", utils);
    val_object_set(nn, "modules", val_ref(modules));
    host_register_module(h, "torch.nn.modules", modules);
}
