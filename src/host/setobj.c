/* setobj.c - set and frozenset: the values of set displays ({1, 2}), set
 * comprehensions, set() and frozenset(), their operators and methods.
 *
 * The table is CPython's: open addressing with a few linear probes, then
 * perturbed jumps; deleted entries leave dummies; it grows four times
 * when three fifths are used.  Numbers hash as CPython hashes them (an
 * int is its own hash), so sets of small ints iterate and print in the
 * order CPython gives; other values hash as tritsim hashes them (CPython
 * randomises the hashes of strs, so their order is arbitrary there too). */
#include "complexval.h"
#include "host_impl.h"

#include <stdlib.h>
#include <string.h>

enum { SET_MINSIZE = 8, SET_LINEAR_PROBES = 9, SET_PERTURB_SHIFT = 5 };

typedef enum { SLOT_EMPTY, SLOT_DUMMY, SLOT_FULL } slot_state;

typedef struct set_slot {
    val key;
    int64_t hash;
    slot_state state;
} set_slot;

typedef struct set_obj {
    val_object o;
    size_t mask;        /* table size - 1 */
    size_t fill;        /* full and dummy slots */
    size_t used;        /* full slots */
    size_t finger;      /* where pop() looks first */
    set_slot *table;
} set_obj;

static const val_type set_type, frozenset_type;

bool set_is(val v)
{
    return v.kind == VAL_OBJECT && (v.u.o->type == &set_type || v.u.o->type == &frozenset_type);
}

const val_type *set_val_type(bool frozen)
{
    return frozen ? &frozenset_type : &set_type;
}

static set_obj *set_of(val v)
{
    return (set_obj *)v.u.o;
}

static bool set_frozen(val v)
{
    return v.u.o->type == &frozenset_type;
}

/* CPython's hash of numbers (modulo 2**61 - 1, -1 taken as -2); tritsim's
 * hash for the rest. */
static int64_t set_hash(val v)
{
    int64_t i;
    cplx z;
    if (complexval_is(v) && complexval_parts(v, &z) && z.im == 0)
        v = val_float(z.re);    /* complex(2, 0) hashes as 2 */
    if (v.kind == VAL_INT || v.kind == VAL_BOOL) {
        i = v.kind == VAL_BOOL ? v.u.b : v.u.i;
    } else if (v.kind == VAL_FLOAT && v.u.f == (double)(int64_t)v.u.f &&
               v.u.f >= -9.2e18 && v.u.f <= 9.2e18) {
        i = (int64_t)v.u.f;
    } else {
        int64_t r = (int64_t)val_hash(v);
        return r == -1 ? -2 : r;
    }
    const uint64_t p = (1ULL << 61) - 1;
    uint64_t a = i < 0 ? (uint64_t)(-(i + 1)) + 1 : (uint64_t)i;
    int64_t r = (int64_t)(a % p);
    if (i < 0)
        r = -r;
    return r == -1 ? -2 : r;
}

static bool set_same(val a, val b)
{
    if (val_is_heap(a) && val_is_heap(b) && a.u.o == b.u.o)
        return true;
    return val_equal(a, b);
}

static void set_alloc(set_obj *s, size_t size)
{
    s->table = xcalloc(size, sizeof *s->table);
    s->mask = size - 1;
    s->fill = s->used = 0;
}

/* Put key (stolen) into a table that has no dummies and no equal key. */
static void set_insert_clean(set_obj *s, val key, int64_t hash)
{
    size_t perturb = (size_t)hash, i = (size_t)hash & s->mask;
    for (;;) {
        set_slot *e = &s->table[i];
        if (e->state == SLOT_EMPTY)
            goto found;
        if (i + SET_LINEAR_PROBES <= s->mask) {
            for (int j = 0; j < SET_LINEAR_PROBES; j++) {
                e++;
                if (e->state == SLOT_EMPTY)
                    goto found;
            }
        }
        perturb >>= SET_PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & s->mask;
        continue;
found:
        e->key = key;
        e->hash = hash;
        e->state = SLOT_FULL;
        s->fill++;
        s->used++;
        return;
    }
}

static void set_resize(set_obj *s, size_t minused)
{
    size_t size = SET_MINSIZE;
    while (size <= minused)
        size <<= 1;
    set_slot *old = s->table;
    size_t oldsize = s->mask + 1;
    set_alloc(s, size);
    for (size_t i = 0; i < oldsize; i++)
        if (old[i].state == SLOT_FULL)
            set_insert_clean(s, old[i].key, old[i].hash);
    free(old);
}

/* The slot holding a key equal to key, or NULL. */
static set_slot *set_find(const set_obj *s, val key, int64_t hash)
{
    size_t perturb = (size_t)hash, i = (size_t)hash & s->mask;
    for (;;) {
        set_slot *e = &s->table[i];
        int probes = i + SET_LINEAR_PROBES <= s->mask ? SET_LINEAR_PROBES : 0;
        do {
            if (e->state == SLOT_EMPTY)
                return NULL;
            if (e->state == SLOT_FULL && e->hash == hash && set_same(e->key, key))
                return e;
            e++;
        } while (probes--);
        perturb >>= SET_PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & s->mask;
    }
}

/* Add key (borrowed), already known hashable. */
static void set_add_hashed(set_obj *s, val key, int64_t hash)
{
    size_t perturb = (size_t)hash, i = (size_t)hash & s->mask;
    set_slot *freeslot = NULL;
    for (;;) {
        set_slot *e = &s->table[i];
        int probes = i + SET_LINEAR_PROBES <= s->mask ? SET_LINEAR_PROBES : 0;
        do {
            if (e->state == SLOT_EMPTY) {
                if (freeslot) {
                    freeslot->key = val_ref(key);
                    freeslot->hash = hash;
                    freeslot->state = SLOT_FULL;
                    s->used++;
                    return;
                }
                e->key = val_ref(key);
                e->hash = hash;
                e->state = SLOT_FULL;
                s->fill++;
                s->used++;
                if (s->fill * 5 >= s->mask * 3)
                    set_resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
                return;
            }
            if (e->state == SLOT_FULL && e->hash == hash && set_same(e->key, key))
                return;
            if (e->state == SLOT_DUMMY && !freeslot)
                freeslot = e;
            e++;
        } while (probes--);
        perturb >>= SET_PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & s->mask;
    }
}

static bool set_check_hashable(host *h, val key, src_span at)
{
    if (val_hashable(key))
        return true;
    host_raise(h, HOST_EXC_TYPE, at, "unhashable type: '%s'", val_type_name(key));
    return false;
}

bool set_add(host *h, val set, val key, src_span at)
{
    if (!set_check_hashable(h, key, at))
        return false;
    set_add_hashed(set_of(set), key, set_hash(key));
    return true;
}

/* 1 removed, 0 absent, -1 after an error. */
static int set_discard(host *h, val set, val key, src_span at)
{
    if (!set_check_hashable(h, key, at))
        return -1;
    set_slot *e = set_find(set_of(set), key, set_hash(key));
    if (!e)
        return 0;
    val_unref(e->key);
    e->key = val_none();
    e->state = SLOT_DUMMY;
    set_of(set)->used--;
    return 1;
}

static int set_contains(host *h, val set, val key, src_span at)
{
    if (!val_hashable(key)) {
        if (set_is(key))
            return 0;   /* a set is never an item of a set */
        return set_check_hashable(h, key, at) ? 0 : -1;
    }
    return set_find(set_of(set), key, set_hash(key)) != NULL;
}

val set_new(bool frozen)
{
    set_obj *s = val_obj_new(sizeof *s, VAL_OBJECT, frozen ? &frozenset_type : &set_type);
    set_alloc(s, SET_MINSIZE);
    return val_of(s);
}

/* The next full slot from *pos on (its key borrowed), false at the end. */
static bool set_next(val set, size_t *pos, val *key)
{
    const set_obj *s = set_of(set);
    while (*pos <= s->mask) {
        const set_slot *e = &s->table[(*pos)++];
        if (e->state == SLOT_FULL) {
            *key = e->key;
            return true;
        }
    }
    return false;
}

/* The items of set other into s, as CPython merges them (the table grown
 * first; an empty one takes the items in other's table order). */
static void set_merge(set_obj *s, const set_obj *o)
{
    if (o->used == 0)
        return;
    if ((s->fill + o->used) * 5 >= s->mask * 3)
        set_resize(s, (s->used + o->used) * 2);
    if (s->fill == 0 && s->mask == o->mask && o->fill == o->used) {
        for (size_t i = 0; i <= o->mask; i++)
            if (o->table[i].state == SLOT_FULL) {
                s->table[i].key = val_ref(o->table[i].key);
                s->table[i].hash = o->table[i].hash;
                s->table[i].state = SLOT_FULL;
            }
        s->fill = s->used = o->used;
        return;
    }
    bool clean = s->fill == 0;
    for (size_t i = 0; i <= o->mask; i++)
        if (o->table[i].state == SLOT_FULL) {
            if (clean)
                set_insert_clean(s, val_ref(o->table[i].key), o->table[i].hash);
            else
                set_add_hashed(s, o->table[i].key, o->table[i].hash);
        }
}

static bool set_update(host *h, val set, val other, src_span at)
{
    if (set_is(other)) {
        if (other.u.o != set.u.o)
            set_merge(set_of(set), set_of(other));
        return true;
    }
    if (other.kind == VAL_DICT) {
        set_obj *s = set_of(set);
        size_t n = val_as_dict(other)->len, pos = 0;
        if ((s->fill + n) * 5 >= s->mask * 3)
            set_resize(s, (s->used + n) * 2);
        val k, v;
        while (val_dict_next(other, &pos, &k, &v))
            set_add_hashed(s, k, set_hash(k));
        return true;
    }
    host_iter it;
    if (!host_iter_begin(h, other, at, &it))
        return false;
    val x;
    int st;
    bool ok = true;
    while ((st = host_iter_next(h, &it, &x)) > 0) {
        ok = set_add(h, set, x, at);
        val_unref(x);
        if (!ok)
            break;
    }
    host_iter_end(&it);
    return ok && st >= 0;
}

val set_from(host *h, val iterable, bool frozen, src_span at)
{
    val s = set_new(frozen);
    if (iterable.kind != VAL_MISSING && !set_update(h, s, iterable, at)) {
        val_unref(s);
        return val_err();
    }
    return s;
}

static val set_copy_as(val set, bool frozen)
{
    val r = set_new(frozen);
    set_merge(set_of(r), set_of(set));
    return r;
}

/* Discard key (hashable) from s. */
static void set_discard_hashed(set_obj *s, val key, int64_t hash)
{
    set_slot *e = set_find(s, key, hash);
    if (!e)
        return;
    val_unref(e->key);
    e->key = val_none();
    e->state = SLOT_DUMMY;
    s->used--;
}

/* s -= o, in place */
static void set_difference_update(set_obj *s, const set_obj *o)
{
    if (s == o) {
        for (size_t i = 0; i <= s->mask; i++)
            if (s->table[i].state == SLOT_FULL)
                set_discard_hashed(s, s->table[i].key, s->table[i].hash);
        return;
    }
    for (size_t i = 0; i <= o->mask; i++)
        if (o->table[i].state == SLOT_FULL)
            set_discard_hashed(s, o->table[i].key, o->table[i].hash);
}

/* s ^= o, in place */
static void set_symdiff_update(set_obj *s, val other)
{
    val o = set_copy_as(other, false);   /* o may be s itself */
    const set_obj *t = set_of(o);
    for (size_t i = 0; i <= t->mask; i++)
        if (t->table[i].state == SLOT_FULL) {
            if (set_find(s, t->table[i].key, t->table[i].hash))
                set_discard_hashed(s, t->table[i].key, t->table[i].hash);
            else
                set_add_hashed(s, t->table[i].key, t->table[i].hash);
        }
    val_unref(o);
}

/* ---- the operators ---------------------------------------------------------------- */

static bool set_subset(host *h, val a, val b)
{
    if (set_of(a)->used > set_of(b)->used)
        return false;
    size_t pos = 0;
    val k;
    while (set_next(a, &pos, &k))
        if (set_contains(h, b, k, (src_span){0}) <= 0)
            return false;
    return true;
}

/* a & b, a - b, a ^ b, a | b as a new set of a's kind, built as CPython
 * builds it (which decides the order of its items). */
static void set_take(val a, val r);

static val set_combine(host *h, ast_op op, val a, val b, bool frozen)
{
    (void)h;
    const set_obj *x = set_of(a), *y = set_of(b);
    val r;
    switch (op) {
    case AST_OP_BITOR:
        r = set_copy_as(a, frozen);
        set_merge(set_of(r), y);
        return r;
    case AST_OP_BITAND: {
        r = set_new(frozen);
        const set_obj *small = y->used > x->used ? x : y, *big = small == x ? y : x;
        for (size_t i = 0; i <= small->mask; i++)
            if (small->table[i].state == SLOT_FULL &&
                set_find(big, small->table[i].key, small->table[i].hash))
                set_add_hashed(set_of(r), small->table[i].key, small->table[i].hash);
        return r;
    }
    case AST_OP_SUB:
        if ((x->used >> 2) > y->used) {
            r = set_copy_as(a, frozen);
            set_difference_update(set_of(r), y);
            return r;
        }
        r = set_new(frozen);
        for (size_t i = 0; i <= x->mask; i++)
            if (x->table[i].state == SLOT_FULL &&
                !set_find(y, x->table[i].key, x->table[i].hash))
                set_add_hashed(set_of(r), x->table[i].key, x->table[i].hash);
        return r;
    case AST_OP_BITXOR:
        r = set_copy_as(b, frozen);
        set_symdiff_update(set_of(r), a);
        return r;
    default:
        return val_missing();
    }
}

/* a op= b for a set a: in place, as CPython does it. */
static void set_inplace(host *h, ast_op op, val a, val b)
{
    switch (op) {
    case AST_OP_BITOR:
        if (a.u.o != b.u.o)
            set_merge(set_of(a), set_of(b));
        break;
    case AST_OP_SUB:
        set_difference_update(set_of(a), set_of(b));
        break;
    case AST_OP_BITXOR:
        set_symdiff_update(set_of(a), b);
        break;
    default: {
        val r = set_combine(h, op, a, b, false);
        set_take(a, r);
        break;
    }
    }
}

/* Make a's items those of r (stolen): the in-place operators. */
static void set_take(val a, val r)
{
    set_obj *x = set_of(a), *y = set_of(r);
    set_slot *t = x->table;
    size_t m = x->mask;
    x->table = y->table;
    x->mask = y->mask;
    x->fill = y->fill;
    x->used = y->used;
    y->table = t;
    y->mask = m;
    y->fill = y->used = 0;
    for (size_t i = 0; i <= m; i++)
        if (t[i].state == SLOT_FULL)
            y->used++;
    val_unref(r);
}

static val set_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    if (op == AST_OP_IN) {
        int c = set_contains(h, b, a, at);
        return c < 0 ? val_err() : val_bool(c);
    }
    if (!set_is(a) || !set_is(b))
        return val_missing();
    switch (op) {
    case AST_OP_EQ:
    case AST_OP_NE: {
        bool eq = set_of(a)->used == set_of(b)->used && set_subset(h, a, b);
        return val_bool(op == AST_OP_EQ ? eq : !eq);
    }
    case AST_OP_LE: return val_bool(set_subset(h, a, b));
    case AST_OP_GE: return val_bool(set_subset(h, b, a));
    case AST_OP_LT: return val_bool(set_of(a)->used < set_of(b)->used && set_subset(h, a, b));
    case AST_OP_GT: return val_bool(set_of(b)->used < set_of(a)->used && set_subset(h, b, a));
    case AST_OP_BITOR:
    case AST_OP_BITAND:
    case AST_OP_SUB:
    case AST_OP_BITXOR: {
        if (inplace && !set_frozen(a)) {
            set_inplace(h, op, a, b);
            return val_ref(a);
        }
        return set_combine(h, op, a, b, set_frozen(a));
    }
    default:
        return val_missing();
    }
}

/* ---- the methods -------------------------------------------------------------------- */

static bool set_mutable(host *h, val self, const char *name, src_span at)
{
    if (!set_frozen(self))
        return true;
    host_raise(h, HOST_EXC_ATTRIBUTE, at, "'frozenset' object has no attribute '%s'", name);
    return false;
}

static val set_m_add(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[1];
    if (!host_args(h, at, "add", "elem", argc, argv, kw, a))
        return val_err();
    return set_add(h, self, a[0], at) ? val_none() : val_err();
}

static val set_m_discard(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[1];
    if (!host_args(h, at, "discard", "elem", argc, argv, kw, a))
        return val_err();
    return set_discard(h, self, a[0], at) < 0 ? val_err() : val_none();
}

static val set_m_remove(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val a[1];
    if (!host_args(h, at, "remove", "elem", argc, argv, kw, a))
        return val_err();
    int r = set_discard(h, self, a[0], at);
    if (r < 0)
        return val_err();
    if (r == 0) {
        val key = val_ref(a[0]);
        val rep = host_repr(h, key);
        val e = host_raise_args(h, HOST_EXC_KEY, val_tuple_of(1, &key), at, "KeyError: %s",
                                rep.kind == VAL_STR ? val_as_str(rep)->s : "?");
        val_unref(rep);
        return e;
    }
    return val_none();
}

static val set_m_pop(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    (void)argv;
    if (argc || kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "pop() takes no arguments");
    set_obj *s = set_of(self);
    for (size_t n = 0; s->used && n <= s->mask; n++) {
        size_t i = (s->finger + n) & s->mask;
        if (s->table[i].state == SLOT_FULL) {
            val k = s->table[i].key;
            s->table[i].key = val_none();
            s->table[i].state = SLOT_DUMMY;
            s->used--;
            s->finger = i + 1;
            return k;
        }
    }
    val msg = val_str_cstr("pop from an empty set");
    return host_raise_args(h, HOST_EXC_KEY, val_tuple_of(1, &msg), at,
                           "KeyError: 'pop from an empty set'");
}

static void set_clear_table(set_obj *s)
{
    for (size_t i = 0; i <= s->mask; i++)
        if (s->table[i].state == SLOT_FULL)
            val_unref(s->table[i].key);
    free(s->table);
    set_alloc(s, SET_MINSIZE);
}

static val set_m_clear(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)argv;
    if (argc || kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "clear() takes no arguments");
    set_clear_table(set_of(self));
    return val_none();
}

static val set_m_copy(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)argv;
    if (argc || kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "copy() takes no arguments");
    return set_copy_as(self, set_frozen(self));
}

/* union(*others) and friends: others may be any iterables, taken as
 * CPython takes them (which decides the order of the result's items). */
static val set_multi(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, ast_op op, bool update)
{
    if (kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "set methods take no keyword arguments");
    bool frozen = !update && set_frozen(self);
    val r = update ? val_ref(self) : op == AST_OP_BITOR || argc == 0
                                         ? set_copy_as(self, frozen) : val_none();
    for (int i = 0; i < argc; i++) {
        val other = argv[i], cur = r.kind == VAL_NONE ? self : r;
        if (op == AST_OP_BITOR) {
            if (!set_update(h, r, other, at))
                goto fail;
            continue;
        }
        val o = set_is(other) ? val_ref(other) : set_from(h, other, false, at);
        if (o.kind == VAL_ERR)
            goto fail;
        if (update) {
            set_inplace(h, op, r, o);
        } else {
            val n = set_combine(h, op, cur, o, frozen);
            val_unref(r);
            r = n;
        }
        val_unref(o);
    }
    if (update) {
        val_unref(r);
        return val_none();
    }
    return r;
fail:
    val_unref(r);
    return val_err();
}

HOST_CFUNC_CALLING(set_m_union, set_multi, AST_OP_BITOR, false)
HOST_CFUNC_CALLING(set_m_intersection, set_multi, AST_OP_BITAND, false)
HOST_CFUNC_CALLING(set_m_difference, set_multi, AST_OP_SUB, false)
HOST_CFUNC_CALLING(set_m_symmetric_difference, set_multi, AST_OP_BITXOR, false)
HOST_CFUNC_CALLING(set_m_update, set_multi, AST_OP_BITOR, true)
HOST_CFUNC_CALLING(set_m_intersection_update, set_multi, AST_OP_BITAND, true)
HOST_CFUNC_CALLING(set_m_difference_update, set_multi, AST_OP_SUB, true)
HOST_CFUNC_CALLING(set_m_symmetric_difference_update, set_multi, AST_OP_BITXOR, true)

/* issubset, issuperset, isdisjoint */
static val set_relation(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at, int which)
{
    val a[1];
    if (!host_args(h, at, which == 0 ? "issubset" : which == 1 ? "issuperset" : "isdisjoint",
                   "other", argc, argv, kw, a))
        return val_err();
    val other = set_is(a[0]) ? val_ref(a[0]) : set_from(h, a[0], false, at);
    if (other.kind == VAL_ERR)
        return other;
    bool r;
    if (which == 0) {
        r = set_subset(h, self, other);
    } else if (which == 1) {
        r = set_subset(h, other, self);
    } else {
        val both = set_combine(h, AST_OP_BITAND, self, other, false);
        r = set_of(both)->used == 0;
        val_unref(both);
    }
    val_unref(other);
    return val_bool(r);
}

HOST_CFUNC_CALLING(set_m_issubset, set_relation, 0)
HOST_CFUNC_CALLING(set_m_issuperset, set_relation, 1)
HOST_CFUNC_CALLING(set_m_isdisjoint, set_relation, 2)

static const struct set_method {
    const char *name;
    val_cfunc fn;
    bool mutates;
} set_methods[] = {
    {"add", set_m_add, true},
    {"discard", set_m_discard, true},
    {"remove", set_m_remove, true},
    {"pop", set_m_pop, true},
    {"clear", set_m_clear, true},
    {"update", set_m_update, true},
    {"intersection_update", set_m_intersection_update, true},
    {"difference_update", set_m_difference_update, true},
    {"symmetric_difference_update", set_m_symmetric_difference_update, true},
    {"copy", set_m_copy, false},
    {"union", set_m_union, false},
    {"intersection", set_m_intersection, false},
    {"difference", set_m_difference, false},
    {"symmetric_difference", set_m_symmetric_difference, false},
    {"issubset", set_m_issubset, false},
    {"issuperset", set_m_issuperset, false},
    {"isdisjoint", set_m_isdisjoint, false},
};

static const char *const set_attrs[] = {
    "add", "discard", "remove", "pop", "clear", "update", "intersection_update",
    "difference_update", "symmetric_difference_update", "copy", "union", "intersection",
    "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint", NULL,
};

static val set_getattr(host *h, val self, const char *name, src_span at)
{
    for (size_t i = 0; i < sizeof set_methods / sizeof set_methods[0]; i++)
        if (!strcmp(set_methods[i].name, name)) {
            if (set_methods[i].mutates && !set_mutable(h, self, name, at))
                return val_err();
            return val_builtin_new(set_methods[i].name, set_methods[i].fn, val_ref(self));
        }
    return val_missing();
}

/* ---- the rest of the hooks ------------------------------------------------------------ */

static int64_t set_len(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return (int64_t)set_of(self)->used;
}

static int set_truth(host *h, val self, src_span at)
{
    (void)h, (void)at;
    return set_of(self)->used > 0;
}

static val set_iter(host *h, val self, src_span at)
{
    (void)h, (void)at;
    val l = val_list_new(set_of(self)->used);
    size_t pos = 0;
    val k;
    while (set_next(self, &pos, &k))
        val_list_push(l, val_ref(k));
    return l;
}

static void set_repr(host *h, val self, strbuf *out)
{
    bool frozen = set_frozen(self);
    if (set_of(self)->used == 0) {
        strbuf_puts(out, frozen ? "frozenset()" : "set()");
        return;
    }
    if (h->nest >= HOST_MAX_NEST) {
        strbuf_puts(out, "{...}");
        return;
    }
    h->nest++;
    strbuf_puts(out, frozen ? "frozenset({" : "{");
    size_t pos = 0;
    val k;
    bool first = true;
    while (set_next(self, &pos, &k)) {
        if (!first)
            strbuf_puts(out, ", ");
        first = false;
        val_print_repr(h, k, out);
    }
    strbuf_puts(out, frozen ? "})" : "}");
    h->nest--;
}

static void set_free(val_obj *o)
{
    set_obj *s = (set_obj *)o;
    for (size_t i = 0; i <= s->mask; i++)
        if (s->table[i].state == SLOT_FULL)
            val_unref(s->table[i].key);
    free(s->table);
}

/* frozensets as dict keys and set items: CPython's order-free mix. */
static uint64_t frozenset_hash(val self)
{
    uint64_t hash = 0;
    size_t pos = 0;
    val k;
    while (set_next(self, &pos, &k)) {
        uint64_t x = (uint64_t)set_hash(k);
        hash ^= ((x ^ 89869747ULL) ^ (x << 16)) * 3644798167ULL;
    }
    hash ^= ((uint64_t)set_of(self)->used + 1) * 1927868237ULL;
    return hash;
}

static bool frozenset_equal(val self, val other)
{
    if (!set_is(other) || set_of(self)->used != set_of(other)->used)
        return false;
    size_t pos = 0;
    val k;
    while (set_next(self, &pos, &k))
        if (!set_find(set_of(other), k, set_hash(k)))
            return false;
    return true;
}

static const val_type set_type = {
    .name = "set",
    .getattr = set_getattr,
    .binop = set_binop,
    .truth = set_truth,
    .len = set_len,
    .iter = set_iter,
    .repr = set_repr,
    .free = set_free,
    .attr_names = set_attrs,
    .unhashable = true,
    .equal = frozenset_equal,   /* sets inside lists, tuples, dicts compare by content */
};

static const val_type frozenset_type = {
    .name = "frozenset",
    .getattr = set_getattr,
    .binop = set_binop,
    .truth = set_truth,
    .len = set_len,
    .iter = set_iter,
    .repr = set_repr,
    .free = set_free,
    .attr_names = set_attrs,
    .hash = frozenset_hash,
    .equal = frozenset_equal,
};
