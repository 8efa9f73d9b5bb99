/* host_ops.c - the operators of the host evaluator: truth, ==, ordering
 * (numbers, strings, sequences), `in` and `is`, the binary operators on the
 * built-in kinds (+ and * of sequences and strings, str %, dict |) after
 * the object types' hooks, the unary operators; and repr, str and format
 * of any value.  Number arithmetic is in host_num.c. */
#include "host_impl.h"

#include <math.h>
#include <string.h>

#include "pyformat.h"

/* ---- truth, equality, ordering ---------------------------------------------- */

int host_truth(host *h, val v, src_span at)
{
    int t = val_truth_builtin(v);
    if (t >= 0)
        return t;
    if (v.kind == VAL_ERR)
        return -1;
    const val_type *ty = val_type_of(v);
    return ty->truth(h, v, at);
}

static const char *host_op_text(ast_op op)
{
    switch (op) {
    case AST_OP_UADD: return "+";
    case AST_OP_USUB: return "-";
    default: return ast_op_name(op);
    }
}

/* a == b as a C truth value: 1, 0, -1 after an error. */
static int host_eq(host *h, val a, val b, src_span at)
{
    if (val_is_heap(a) && val_is_heap(b) && a.u.o == b.u.o)
        return 1;
    if (!val_type_of(a) && !val_type_of(b))
        return val_equal(a, b);
    val r = host_binop_full(h, AST_OP_EQ, false, a, b, at);
    if (r.kind == VAL_ERR)
        return -1;
    int t = host_truth(h, r, at);
    val_unref(r);
    return t;
}

static val host_cmp_error(host *h, ast_op op, val a, val b, src_span at)
{
    return host_raise(h, HOST_EXC_TYPE, at,
                      "'%s' is not supported between instances of '%s' and '%s'",
                      ast_op_name(op), val_type_name(a), val_type_name(b));
}

static bool host_cmp_result(ast_op op, int c)
{
    switch (op) {
    case AST_OP_LT: return c < 0;
    case AST_OP_LE: return c <= 0;
    case AST_OP_GT: return c > 0;
    default: return c >= 0;
    }
}

/* a < b, a <= b, ... on the built-in kinds. */
static val host_order(host *h, ast_op op, val a, val b, src_span at)
{
    if (host_is_num(a) && host_is_num(b)) {
        int c = host_num_cmp(a, b);
        return val_bool(c != 2 && host_cmp_result(op, c));
    }
    if (a.kind == VAL_STR && b.kind == VAL_STR) {
        const val_str *x = val_as_str(a), *y = val_as_str(b);
        size_t n = x->len < y->len ? x->len : y->len;
        int c = memcmp(x->s, y->s, n);
        if (c == 0)
            c = x->len < y->len ? -1 : x->len > y->len;
        return val_bool(host_cmp_result(op, c));
    }
    if ((a.kind == VAL_TUPLE || a.kind == VAL_LIST) && a.kind == b.kind) {
        /* Lexicographic: the first items that differ decide. */
        const val_seq *x = val_as_seq(a), *y = val_as_seq(b);
        size_t i = 0;
        for (; i < x->len && i < y->len; i++) {
            int e = host_eq(h, x->items[i], y->items[i], at);
            if (e < 0)
                return val_err();
            if (!e) {
                if (h->nest >= HOST_MAX_NEST)
                    return host_raise(h, HOST_EXC_RECURSION, at,
                                      "the values compared are nested too deeply");
                h->nest++;
                val r = host_binop_full(h, op, false, x->items[i], y->items[i], at);
                h->nest--;
                return r;
            }
        }
        int c = x->len < y->len ? -1 : x->len > y->len;
        return val_bool(host_cmp_result(op, c));
    }
    return host_cmp_error(h, op, a, b, at);
}

int host_less(host *h, val a, val b, src_span at)
{
    val r = host_binop_full(h, AST_OP_LT, false, a, b, at);
    if (r.kind == VAL_ERR)
        return -1;
    int t = host_truth(h, r, at);
    val_unref(r);
    return t;
}

static bool host_is_same(val a, val b)
{
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case VAL_NONE:
    case VAL_ELLIPSIS:
        return true;
    case VAL_BOOL: return a.u.b == b.u.b;
    case VAL_INT: return a.u.i == b.u.i;
    case VAL_FLOAT: return memcmp(&a.u.f, &b.u.f, sizeof a.u.f) == 0;
    case VAL_DTYPE: return a.u.dtype == b.u.dtype;
    default: return a.u.o == b.u.o;
    }
}

/* ---- membership ------------------------------------------------------------ */

/* item in container: 1, 0, -1 after an error. */
static int host_contains(host *h, val container, val item, src_span at)
{
    switch (container.kind) {
    case VAL_STR: {
        if (item.kind != VAL_STR) {
            host_raise(h, HOST_EXC_TYPE, at, "'in <string>' requires a str on the left, not '%s'",
                       val_type_name(item));
            return -1;
        }
        const val_str *s = val_as_str(container), *t = val_as_str(item);
        if (t->len == 0)
            return 1;
        if (t->len > s->len)
            return 0;
        for (size_t i = 0; i + t->len <= s->len; i++)
            if (!memcmp(s->s + i, t->s, t->len))
                return 1;
        return 0;
    }
    case VAL_TUPLE:
    case VAL_LIST: {
        const val_seq *s = val_as_seq(container);
        for (size_t i = 0; i < s->len; i++) {
            int e = host_eq(h, s->items[i], item, at);
            if (e != 0)
                return e;
        }
        return 0;
    }
    case VAL_DICT:
        if (!val_hashable(item)) {
            host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(item));
            return -1;
        }
        return val_dict_get(container, item).kind != VAL_MISSING;
    case VAL_RANGE: {
        const val_range *r = (const val_range *)container.u.o;
        int64_t i;
        if (host_is_int(item))
            i = host_int_of(item);
        else if (item.kind == VAL_FLOAT && item.u.f == trunc(item.u.f) &&
                 fabs(item.u.f) < 9.2e18)
            i = (int64_t)item.u.f;
        else
            return 0;
        if (r->step > 0 ? (i < r->start || i >= r->stop) : (i > r->start || i <= r->stop))
            return 0;
        return ((uint64_t)i - (uint64_t)r->start) % (uint64_t)(r->step > 0 ? r->step : -r->step) == 0;
    }
    default:
        break;
    }
    const val_type *t = val_type_of(container);
    if (t && t->binop) {
        val r = t->binop(h, AST_OP_IN, false, item, container, at);
        if (r.kind == VAL_ERR)
            return -1;
        if (r.kind != VAL_MISSING) {
            int tr = host_truth(h, r, at);
            val_unref(r);
            return tr;
        }
    }
    val items = host_iterator_items(container);
    if (items.kind != VAL_MISSING)
        return host_contains(h, items, item, at);
    if (t && t->next) {   /* a generator: consumed up to the item, as in Python */
        host_iter it;
        if (!host_iter_begin(h, container, at, &it))
            return -1;
        val x;
        int st, found = 0;
        while (!found && (st = host_iter_next(h, &it, &x)) > 0) {
            found = host_eq(h, x, item, at);
            val_unref(x);
            if (found < 0)
                st = -1;
        }
        host_iter_end(&it);
        return found < 0 || st < 0 ? -1 : found;
    }
    if (t && t->iter) {
        val seq = t->iter(h, container, at);
        if (seq.kind == VAL_ERR)
            return -1;
        int r = host_contains(h, seq, item, at);
        val_unref(seq);
        return r;
    }
    host_raise(h, HOST_EXC_TYPE, at,
               "argument of type '%s' is not iterable", val_type_name(container));
    return -1;
}

/* ---- binary operators on the built-in kinds ---------------------------------- */

/* Refuse absurd repetitions before allocating them. */
static bool host_repeat_count(host *h, val n, size_t len, src_span at, size_t *out)
{
    int64_t k = host_int_of(n);
    if (k <= 0 || len == 0) {
        *out = 0;
        return true;
    }
    if ((uint64_t)k > (size_t)HOST_MAX_ITEMS / len) {
        host_raise(h, HOST_EXC_MEMORY, at,
                   "the repeated sequence would be too long (%zu * %lld items)", len,
                   (long long)k);
        return false;
    }
    *out = (size_t)k;
    return true;
}

static val host_seq_concat(val a, val b)
{
    const val_seq *x = val_as_seq(a), *y = val_as_seq(b);
    val r = a.kind == VAL_TUPLE ? val_tuple_new(x->len + y->len) : val_list_new(x->len + y->len);
    val_seq *s = val_as_seq(r);
    for (size_t i = 0; i < x->len; i++)
        s->items[i] = val_ref(x->items[i]);
    for (size_t i = 0; i < y->len; i++)
        s->items[x->len + i] = val_ref(y->items[i]);
    s->len = x->len + y->len;
    return r;
}

static val host_seq_repeat(host *h, val seq, val n, src_span at)
{
    const val_seq *x = val_as_seq(seq);
    size_t k;
    if (!host_repeat_count(h, n, x->len, at, &k))
        return val_err();
    val r = seq.kind == VAL_TUPLE ? val_tuple_new(x->len * k) : val_list_new(x->len * k);
    val_seq *s = val_as_seq(r);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < x->len; i++)
            s->items[j * x->len + i] = val_ref(x->items[i]);
    s->len = x->len * k;
    return r;
}

static val host_str_repeat(host *h, val str, val n, src_span at)
{
    const val_str *s = val_as_str(str);
    size_t k;
    if (!host_repeat_count(h, n, s->len * 8, at, &k))
        return val_err();
    strbuf b = {0};
    for (size_t i = 0; i < k; i++)
        strbuf_putn(&b, s->s, s->len);
    return val_str_from_buf(&b);
}

static val host_binop_error(host *h, ast_op op, val a, val b, src_span at)
{
    const char *hint = "";
    if (op == AST_OP_ADD && (a.kind == VAL_STR) != (b.kind == VAL_STR) &&
        (a.kind == VAL_STR || b.kind == VAL_STR))
        hint = " (convert the number with str(x), or use an f-string)";
    if (op == AST_OP_ADD && a.kind == VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "can only concatenate str (not \"%s\") to str%s",
                          val_type_name(b), hint);
    if (op == AST_OP_ADD && (a.kind == VAL_LIST || a.kind == VAL_TUPLE))
        return host_raise(h, HOST_EXC_TYPE, at, "can only concatenate %s (not \"%s\") to %s",
                          val_type_name(a), val_type_name(b), val_type_name(a));
    return host_raise(h, HOST_EXC_TYPE, at, "unsupported operand type(s) for %s: '%s' and '%s'%s",
                      host_op_text(op), val_type_name(a), val_type_name(b), hint);
}

static val host_arith(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    if (host_is_int(a) && host_is_int(b)) {
        val r = host_int_binop(h, op, a, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    } else if (host_is_num(a) && host_is_num(b)) {
        val r = host_float_binop(h, op, host_float_of(a), host_float_of(b), at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    switch (op) {
    case AST_OP_ADD:
        if (a.kind == VAL_STR && b.kind == VAL_STR) {
            strbuf s = {0};
            strbuf_putn(&s, val_as_str(a)->s, val_as_str(a)->len);
            strbuf_putn(&s, val_as_str(b)->s, val_as_str(b)->len);
            return val_str_from_buf(&s);
        }
        if (inplace && a.kind == VAL_LIST) {
            /* list += iterable extends the list itself. */
            val items = host_to_list(h, b, at);
            if (items.kind == VAL_ERR)
                return items;
            for (size_t i = 0; i < val_as_seq(items)->len; i++)
                val_list_push(a, val_ref(val_as_seq(items)->items[i]));
            val_unref(items);
            return val_ref(a);
        }
        if ((a.kind == VAL_LIST || a.kind == VAL_TUPLE) && a.kind == b.kind)
            return host_seq_concat(a, b);
        break;
    case AST_OP_MUL:
        if (a.kind == VAL_STR && host_is_int(b))
            return host_str_repeat(h, a, b, at);
        if (b.kind == VAL_STR && host_is_int(a))
            return host_str_repeat(h, b, a, at);
        if ((a.kind == VAL_LIST || a.kind == VAL_TUPLE) && host_is_int(b)) {
            val r = host_seq_repeat(h, a, b, at);
            if (inplace && a.kind == VAL_LIST && r.kind == VAL_LIST) {
                /* list *= n repeats in place. */
                val_seq *x = val_as_seq(a), *y = val_as_seq(r);
                val *old = x->items;
                size_t oldlen = x->len;
                x->items = y->items;
                x->len = y->len;
                x->cap = y->cap;
                y->items = old;
                y->len = oldlen;
                y->cap = oldlen;
                val_unref(r);
                return val_ref(a);
            }
            return r;
        }
        if ((b.kind == VAL_LIST || b.kind == VAL_TUPLE) && host_is_int(a))
            return host_seq_repeat(h, b, a, at);
        break;
    case AST_OP_MOD:
        if (a.kind == VAL_STR && h->types.str_percent)
            return h->types.str_percent(h, a, b, at);
        break;
    case AST_OP_BITOR:
        if (a.kind == VAL_DICT && b.kind == VAL_DICT) {
            val r = a;
            if (!inplace) {
                r = val_dict_new();
                size_t pos = 0;
                val k, v;
                while (val_dict_next(a, &pos, &k, &v))
                    val_dict_set(r, val_ref(k), val_ref(v));
            } else {
                val_ref(r);
            }
            size_t pos = 0;
            val k, v;
            while (val_dict_next(b, &pos, &k, &v))
                val_dict_set(r, val_ref(k), val_ref(v));
            return r;
        }
        break;
    default:
        break;
    }
    return host_binop_error(h, op, a, b, at);
}

/* a op b with the object types' hooks first (in place when asked). */
val host_binop_full(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    if (a.kind == VAL_ERR || b.kind == VAL_ERR)
        return val_err();
    if (op == AST_OP_IN || op == AST_OP_NOTIN) {
        int c = host_contains(h, b, a, at);
        if (c < 0)
            return val_err();
        return val_bool(op == AST_OP_IN ? c : !c);
    }
    if (op == AST_OP_IS || op == AST_OP_ISNOT)
        return val_bool(host_is_same(a, b) == (op == AST_OP_IS));
    const val_type *ta = val_type_of(a), *tb = val_type_of(b);
    if (ta && ta->binop) {
        val r = ta->binop(h, op, inplace, a, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    if (tb && tb->binop && tb != ta) {
        val r = tb->binop(h, op, false, a, b, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    switch (op) {
    case AST_OP_EQ:
    case AST_OP_NE: {
        /* Objects without an == of their own compare by identity. */
        bool eq = (ta || tb) ? host_is_same(a, b) : val_equal(a, b);
        return val_bool(op == AST_OP_EQ ? eq : !eq);
    }
    case AST_OP_LT:
    case AST_OP_LE:
    case AST_OP_GT:
    case AST_OP_GE:
        return host_order(h, op, a, b, at);
    default:
        return host_arith(h, op, inplace, a, b, at);
    }
}

val host_binop(host *h, ast_op op, val a, val b, src_span at)
{
    return host_binop_full(h, op, false, a, b, at);
}

val host_unop(host *h, ast_op op, val v, src_span at)
{
    if (op == AST_OP_NOT) {
        int t = host_truth(h, v, at);
        return t < 0 ? val_err() : val_bool(!t);
    }
    if (host_is_int(v)) {
        int64_t i = host_int_of(v);
        switch (op) {
        case AST_OP_USUB:
            if (i == INT64_MIN)
                return host_overflow(h, at);
            return val_int(-i);
        case AST_OP_UADD: return val_int(i);
        case AST_OP_INVERT: return val_int(~i);
        default: break;
        }
    }
    if (v.kind == VAL_FLOAT) {
        if (op == AST_OP_USUB)
            return val_float(-v.u.f);
        if (op == AST_OP_UADD)
            return val_float(v.u.f);
    }
    const val_type *t = val_type_of(v);
    if (t && t->unop) {
        val r = t->unop(h, op, v, at);
        if (r.kind != VAL_MISSING)
            return r;
    }
    return host_raise(h, HOST_EXC_TYPE, at, "bad operand type for unary %s: '%s'", host_op_text(op),
                      val_type_name(v));
}

/* ---- text ------------------------------------------------------------------ */

/* repr hooks cannot fail: one that runs program code (a class's
 * __repr__) leaves an exception pending instead. */
val host_repr(host *h, val v)
{
    bool before = host_exc_pending(h);
    strbuf b = {0};
    val_print_repr(h, v, &b);
    if (!before && host_exc_pending(h)) {
        strbuf_free(&b);
        return val_err();
    }
    return val_str_from_buf(&b);
}

val host_str(host *h, val v)
{
    if (v.kind == VAL_STR)
        return val_ref(v);
    bool before = host_exc_pending(h);
    strbuf b = {0};
    val_print_str(h, v, &b);
    if (!before && host_exc_pending(h)) {
        strbuf_free(&b);
        return val_err();
    }
    return val_str_from_buf(&b);
}

val host_format(host *h, val v, const char *spec, size_t len, src_span at)
{
    /* A type with a format hook decides even for an empty spec: a 0-d
     * tensor formats as its number (f"{loss}" is "1.5", not "tensor(1.5)"). */
    const val_type *t = val_type_of(v);
    if (t && t->format)
        return t->format(h, v, spec, len, at);
    if (len == 0)
        return host_str(h, v);
    const char *tn = val_type_name(v);
    if (v.kind != VAL_INT && v.kind != VAL_BOOL && v.kind != VAL_FLOAT && v.kind != VAL_STR)
        return host_error(h, at, "a '%s' cannot be formatted with a format spec ('%.*s'); "
                          "format str(x) instead", tn, (int)len, spec);
    pyformat_spec ps;
    char err[200];
    strbuf b = {0};
    bool ok = pyformat_parse_spec(spec, len, tn, &ps, err, sizeof err);
    if (ok) {
        if (v.kind == VAL_FLOAT)
            ok = pyformat_float(&b, v.u.f, &ps, err, sizeof err);
        else if (v.kind == VAL_STR)
            ok = pyformat_str(&b, val_as_str(v)->s, val_as_str(v)->len, &ps, err, sizeof err);
        else
            ok = pyformat_int(&b, host_int_of(v), &ps, err, sizeof err);
    }
    if (!ok) {
        strbuf_free(&b);
        return host_raise(h, HOST_EXC_VALUE, at, "%s", err);
    }
    return val_str_from_buf(&b);
}
