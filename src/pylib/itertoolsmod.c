/* itertoolsmod.c - the itertools module: product, chain, permutations,
 * combinations and accumulate, computed up front (see builtins.c). */
#include "builtins_impl.h"

#include <stdlib.h>

/* ---- itertools --------------------------------------------------------------------------- */

BUILTIN_FN(builtin_itertools_product)
{
    (void)self;
    val o[1];
    if (!host_args(h, at, "product", "*, repeat=", 0, NULL, kw, o))
        return val_err();
    int64_t repeat = 1;
    if (o[0].kind != VAL_MISSING && !host_to_int(h, o[0], at, "repeat", &repeat))
        return val_err();
    if (repeat < 0)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: repeat argument cannot be negative");
    if ((int64_t)argc * repeat > 64)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at,
                          "product() of more than 64 iterables is not supported");
    int n = (int)(argc * repeat);
    val *pools = xmalloc((size_t)(argc ? argc : 1) * sizeof *pools);
    int got = 0;
    val out = val_err();
    for (; got < argc; got++) {
        pools[got] = host_to_list(h, argv[got], at);
        if (pools[got].kind == VAL_ERR)
            goto done;
    }
    out = val_list_new(0);
    size_t idx[64] = {0}, total = 1;
    for (int k = 0; k < n; k++) {
        size_t len = val_as_seq(pools[k % (argc ? argc : 1)])->len;
        if (len && total > ((size_t)1 << 26) / len) {
            val_unref(out);
            out = host_raise(h, HOST_EXC_MEMORY, at, "product() would have too many items");
            goto done;
        }
        total *= len;
    }
    for (size_t c = 0; c < total; c++) {
        val t = val_tuple_new((size_t)n);
        for (int k = 0; k < n; k++)
            val_seq_set(t, (size_t)k, val_ref(val_as_seq(pools[k % argc])->items[idx[k]]));
        val_list_push(out, t);
        for (int k = n - 1; k >= 0; k--) {
            if (++idx[k] < val_as_seq(pools[k % argc])->len)
                break;
            idx[k] = 0;
        }
    }
    out = host_iterator_new(out, "itertools.product");
done:
    for (int k = 0; k < got; k++)
        val_unref(pools[k]);
    free(pools);
    return out;
}

BUILTIN_FN(builtin_itertools_chain)
{
    (void)self;
    if (!builtin_no_kwargs(h, "chain", kw, at))
        return val_err();
    val out = val_list_new(0);
    for (int i = 0; i < argc; i++) {
        val l = host_to_list(h, argv[i], at);
        if (l.kind == VAL_ERR) {
            val_unref(out);
            return l;
        }
        for (size_t k = 0; k < val_as_seq(l)->len; k++)
            val_list_push(out, val_ref(val_as_seq(l)->items[k]));
        val_unref(l);
    }
    return host_iterator_new(out, "itertools.chain");
}

/* combinations (ordered index sets) and permutations of r items. */
static bool builtin_choose(host *h, const val_seq *pool, size_t r, bool perm, size_t *idx,
                           bool *used, size_t depth, size_t start, val out, src_span at)
{
    if (depth == r) {
        if (val_as_seq(out)->len >= ((size_t)1 << 22)) {
            host_raise(h, HOST_EXC_MEMORY, at, "too many combinations");
            return false;
        }
        val t = val_tuple_new(r);
        for (size_t k = 0; k < r; k++)
            val_seq_set(t, k, val_ref(pool->items[idx[k]]));
        val_list_push(out, t);
        return true;
    }
    for (size_t i = perm ? 0 : start; i < pool->len; i++) {
        if (perm && used[i])
            continue;
        idx[depth] = i;
        used[i] = true;
        bool ok = builtin_choose(h, pool, r, perm, idx, used, depth + 1, i + 1, out, at);
        used[i] = false;
        if (!ok)
            return false;
    }
    return true;
}

static val builtin_combinatoric(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at, bool perm)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, perm ? "permutations" : "combinations", perm ? "iterable, r=" : "iterable, r",
                   argc, argv, kw, a))
        return val_err();
    val pool = host_to_list(h, a[0], at);
    if (pool.kind == VAL_ERR)
        return pool;
    int64_t r = (int64_t)val_as_seq(pool)->len;
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE &&
        !host_to_int(h, a[1], at, "r", &r)) {
        val_unref(pool);
        return val_err();
    }
    if (r < 0) {
        val_unref(pool);
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: r must be non-negative");
    }
    val out = val_list_new(0);
    size_t n = val_as_seq(pool)->len;
    if ((size_t)r <= n) {
        size_t *idx = xcalloc((size_t)r + 1, sizeof *idx);
        bool *used = xcalloc(n + 1, sizeof *used);
        bool ok = builtin_choose(h, val_as_seq(pool), (size_t)r, perm, idx, used, 0, 0, out, at);
        free(idx);
        free(used);
        if (!ok) {
            val_unref(out);
            val_unref(pool);
            return val_err();
        }
    }
    val_unref(pool);
    return host_iterator_new(out, perm ? "itertools.permutations" : "itertools.combinations");
}

HOST_CFUNC_CALLING(builtin_itertools_permutations, builtin_combinatoric, true)
HOST_CFUNC_CALLING(builtin_itertools_combinations, builtin_combinatoric, false)

BUILTIN_FN(builtin_itertools_accumulate)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "accumulate", "iterable, func=, *, initial=", argc, argv, kw, a))
        return val_err();
    val items = host_to_list(h, a[0], at);
    if (items.kind == VAL_ERR)
        return items;
    val out = val_list_new(0);
    val acc = val_missing();
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE) {
        acc = val_ref(a[2]);
        val_list_push(out, val_ref(acc));
    }
    const val_seq *s = val_as_seq(items);
    for (size_t i = 0; i < s->len; i++) {
        val r;
        if (acc.kind == VAL_MISSING)
            r = val_ref(s->items[i]);
        else if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE) {
            val args[2] = {acc, s->items[i]};
            r = host_call(h, a[1], 2, args, NULL, at);
        } else
            r = host_binop(h, AST_OP_ADD, acc, s->items[i], at);
        val_unref(acc);
        acc = r;
        if (r.kind == VAL_ERR) {
            val_unref(out);
            val_unref(items);
            return r;
        }
        val_list_push(out, val_ref(acc));
    }
    val_unref(acc);
    val_unref(items);
    return host_iterator_new(out, "itertools.accumulate");
}

void builtin_itertools_init(host *h)
{
    val m = val_module_new("itertools");
    host_def(m, "itertools.product", builtin_itertools_product);
    host_def(m, "itertools.chain", builtin_itertools_chain);
    host_def(m, "itertools.permutations", builtin_itertools_permutations);
    host_def(m, "itertools.combinations", builtin_itertools_combinations);
    host_def(m, "itertools.accumulate", builtin_itertools_accumulate);
    host_register_module(h, "itertools", m);
}
