/* val.h - host values: the Python objects that a .tk program's host code
 * handles (numbers, strings, tuples, lists, dicts, functions, modules,
 * tensors, dtypes, kernels, launchers).
 *
 * A val is a small struct passed by value: None, bools, ints, floats, dtypes
 * and Ellipsis are immediate; everything else points to a reference-counted
 * heap object.  val_ref / val_unref manage the count.  Every heap object is
 * also on one list of live objects, so that objects caught in reference
 * cycles (a function whose globals hold the function) are still freed when
 * the program ends (val_free_all) and leak checkers stay quiet.  Host values
 * belong to the thread that runs the host program: counts are not atomic.
 *
 * Two kinds are not Python values: VAL_ERR is what a failing operation
 * returns after reporting its error (callers pass it up unchanged), and
 * VAL_MISSING means "absent" (no such key, attribute or argument) where an
 * operation may legitimately find nothing.
 *
 * Ownership: a function that returns a val returns a new reference unless
 * it says "borrowed".  Functions that store a val into a container (list
 * push, dict set, tuple fill, module set) take over ("steal") the reference
 * they are given: pass val_ref(v) to keep your own.
 *
 * Object types.  Values of kinds OBJECT, MODULE, TENSOR, KERNEL, LAUNCHER
 * (and the host's internal ENV) carry a val_type: a small table of hooks
 * through which the evaluator reads attributes, calls, subscripts, applies
 * operators, prints and frees them.  A module that defines a new kind of
 * object (tensor.c, kernel.c, triton.Config, functools.partial) writes one
 * static const val_type and allocates its objects with val_obj_new:
 *
 *     typedef struct tensor { val_obj h; ... } tensor;
 *     static const val_type tensor_type = {
 *         .name = "Tensor", .getattr = tensor_getattr, .getitem = ...,
 *         .binop = tensor_binop, .repr = tensor_repr, .free = tensor_free,
 *     };
 *     tensor *t = val_obj_new(sizeof *t, VAL_TENSOR, &tensor_type);
 *     return val_of(t);
 *
 * Every hook may be NULL; the operation is then the TypeError Python would
 * give ("'Tensor' object is not callable").  The built-ins abs(), int(),
 * float(), round() and math.floor/ceil/trunc reach an object through the
 * attributes __abs__, __int__, __float__, __round__, __floor__, __ceil__,
 * __trunc__ if its getattr hook provides them (bound methods). */
#ifndef TRITSIM_VAL_H
#define TRITSIM_VAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"
#include "strbuf.h"

typedef enum val_kind {
    VAL_ERR,       /* not a value: an error was reported; unwind */
    VAL_MISSING,   /* not a value: nothing there (see above) */
    VAL_NONE,
    VAL_BOOL,
    VAL_INT,       /* int64; Python ints beyond that are an error */
    VAL_FLOAT,
    VAL_DTYPE,     /* tl.float32 / torch.float32 (one kind: dtype.h) */
    VAL_ELLIPSIS,  /* ... (tensor indexing) */
    /* heap objects from here on */
    VAL_STR,
    VAL_TUPLE,
    VAL_LIST,
    VAL_DICT,
    VAL_SLICE,
    VAL_RANGE,
    VAL_FUNC,      /* a def or lambda of the program (closure) */
    VAL_BUILTIN,   /* a function written in C, maybe bound to a self; also
                      the built-in types (int, str, ValueError, ...) */
    VAL_MODULE,    /* torch, triton, tl, math, ... (val_object layout) */
    VAL_OBJECT,    /* a bag of attributes with a val_type (triton.Config,
                      functools.partial, exceptions, ...) */
    VAL_TENSOR,    /* a torch tensor (tensor.h) */
    VAL_KERNEL,    /* a @triton.jit function */
    VAL_LAUNCHER,  /* kernel[grid], ready to be called */
    VAL_CLASS,     /* a class: from a class statement, or one tritsim
                      defines (the exceptions, torch.autograd.Function) */
    VAL_INSTANCE,  /* an object of a VAL_CLASS (val_instance) */
    VAL_ENV,       /* internal to host_scope.c: a call's variables */
} val_kind;

typedef struct val_obj val_obj;
typedef struct val_type val_type;
typedef struct host host;   /* the evaluator (host.h) */

typedef struct val {
    val_kind kind;
    union {
        bool b;
        int64_t i;
        double f;
        int dtype;      /* a dtype_id from dtype.h */
        val_obj *o;     /* heap kinds */
    } u;
} val;

/* Common head of every heap object. */
struct val_obj {
    int refs;
    val_kind kind;
    const val_type *type;             /* hooks; NULL for the built-in kinds
                                         STR .. BUILTIN */
    val_obj *live_prev, *live_next;   /* the list of live objects */
};

static inline bool val_is_heap(val v) { return v.kind >= VAL_STR; }
static inline bool val_is_err(val v) { return v.kind == VAL_ERR; }

static inline val val_none(void) { val v = {VAL_NONE, {0}}; return v; }
static inline val val_err(void) { val v = {VAL_ERR, {0}}; return v; }
static inline val val_missing(void) { val v = {VAL_MISSING, {0}}; return v; }
static inline val val_ellipsis(void) { val v = {VAL_ELLIPSIS, {0}}; return v; }
static inline val val_bool(bool b) { val v = {VAL_BOOL, {.b = b}}; return v; }
static inline val val_int(int64_t i) { val v = {VAL_INT, {.i = i}}; return v; }
static inline val val_float(double f) { val v = {VAL_FLOAT, {.f = f}}; return v; }
static inline val val_dtype(int id) { val v = {VAL_DTYPE, {.dtype = id}}; return v; }
/* triton.language's dtypes (tl.float32) are other objects than torch's
 * (torch.float32): they print as Triton does ("fp32") and compare unequal
 * to torch's.  The flag sits above the dtype's own bits. */
enum { VAL_DTYPE_TL = 0x100 };
static inline val val_tl_dtype(int id) { return val_dtype(id | VAL_DTYPE_TL); }
/* The dtype.h value of a VAL_DTYPE, whichever module it came from. */
static inline int val_dtype_id(val v) { return v.u.dtype & (VAL_DTYPE_TL - 1); }

/* The val that points at heap object o (any struct starting with val_obj). */
static inline val val_of(void *o)
{
    val v;
    v.kind = ((val_obj *)o)->kind;
    v.u.o = (val_obj *)o;
    return v;
}

void val_release(val_obj *o);
/* One more reference; returns v. */
static inline val val_ref(val v)
{
    if (val_is_heap(v))
        v.u.o->refs++;
    return v;
}
/* One reference less; frees the object (and, without recursion, what it
 * alone held) at zero.  No-op on immediates, VAL_ERR and VAL_MISSING. */
static inline void val_unref(val v)
{
    if (val_is_heap(v) && --v.u.o->refs == 0)
        val_release(v.u.o);
}

/* Free every object still alive (cycles included).  Call once at exit;
 * no val may be used afterwards. */
void val_free_all(void);
/* Is val_free_all running?  (A free hook then only frees C memory.) */
bool val_shutting_down(void);

/* ---- object types ------------------------------------------------------- */

/* Keyword arguments of a call: n names with their values (borrowed). */
typedef struct val_kwargs {
    int n;
    const char *const *names;
    const val *values;
} val_kwargs;

/* A function written in C.  self is the bound object (VAL_NONE when not a
 * method); argv and kw are borrowed; at is the call's span, for errors.
 * Returns a new reference, or VAL_ERR after reporting through host_error.
 * kw may be NULL when there are no keyword arguments. */
typedef val (*val_cfunc)(host *h, val self, int argc, const val *argv,
                         const val_kwargs *kw, src_span at);

/* The hooks of an object type.  self is borrowed; results are new
 * references; VAL_ERR means an error was reported (through host_error, at
 * the span given).  Any hook may be NULL. */
struct val_type {
    /* type(x).__name__ and the name in messages: "Tensor", "Config". */
    const char *name;
    /* x.name: the attribute, VAL_MISSING when there is none (the host then
     * reports it, with suggestions from attr_names), or VAL_ERR.  For OBJECT
     * and MODULE values the attribute dict is searched first. */
    val (*getattr)(host *h, val self, const char *name, src_span at);
    /* x.name = value (value borrowed); false after reporting an error.  NULL:
     * OBJECT values store into their attribute dict, others refuse. */
    bool (*setattr)(host *h, val self, const char *name, val value, src_span at);
    /* x(args...) */
    val (*call)(host *h, val self, int argc, const val *argv,
                const val_kwargs *kw, src_span at);
    /* x[key]; key is what the subscript evaluated to: an int, a slice, a
     * tuple of ints/slices/None/Ellipsis/tensors, ... */
    val (*getitem)(host *h, val self, val key, src_span at);
    /* x[key] = value (both borrowed); false after an error. */
    bool (*setitem)(host *h, val self, val key, val value, src_span at);
    /* a op b, where a or b (or both) has this type.  op is an arithmetic,
     * bitwise or comparison ast_op (EQ..GE), or AST_OP_IN for `a in b` (b is
     * then self).  With inplace (a op= b, a is self) the hook may update a
     * and return a new reference to it.  VAL_MISSING: not supported for
     * these operands (the host then tries the other operand's type, then
     * falls back to identity for == and !=, else reports a TypeError). */
    val (*binop)(host *h, ast_op op, bool inplace, val a, val b, src_span at);
    /* -x, +x, ~x (op is AST_OP_USUB, AST_OP_UADD or AST_OP_INVERT). */
    val (*unop)(host *h, ast_op op, val self, src_span at);
    /* bool(x): 1 or 0, -1 after an error.  NULL: always true. */
    int (*truth)(host *h, val self, src_span at);
    /* len(x): >= 0, -1 after an error. */
    int64_t (*len)(host *h, val self, src_span at);
    /* iter(x): a tuple or list holding the items to iterate over, or an
     * iterator (an object whose type has a next hook). */
    val (*iter)(host *h, val self, src_span at);
    /* next(x) of an iterator (a type with this hook is its own iterator,
     * items computed as they are asked for: generators): 1 with the item
     * (a new reference) in *out, 0 at the end, -1 after an error. */
    int (*next)(host *h, val self, val *out, src_span at);
    /* repr(x), appended to out.  NULL: <Name object at 0x...>. */
    void (*repr)(host *h, val self, strbuf *out);
    /* str(x); NULL: as repr. */
    void (*str)(host *h, val self, strbuf *out);
    /* format(x, spec) and f"{x:spec}", also with an empty spec (the hook
     * then usually gives str(x)); a new str.  NULL: an empty spec means
     * str(x), others are an error. */
    val (*format)(host *h, val self, const char *spec, size_t len, src_span at);
    /* Release what the object owns (val_unref its values, free its buffers),
     * not the object itself.  Also called by val_free_all, where val_unref
     * does nothing, so the hook must not read the values it releases. */
    void (*free)(val_obj *self);
    /* NULL-terminated attribute names, for "did you mean" suggestions. */
    const char *const *attr_names;
    /* Dict keys and set items.  unhashable: its values cannot be (set);
     * otherwise hash and equal, when given, make equal values (by content,
     * frozenset) one key; else a value is equal to itself only. */
    bool unhashable;
    uint64_t (*hash)(val self);
    bool (*equal)(val self, val other);
    /* isinstance(v, self), for objects that stand for a type (a class
     * written in C with attributes, e.g. TensorDescriptor). */
    bool (*instancecheck)(val self, val v);
    /* T.name for the built-in type T whose instances have this type (its
     * class methods and constants, e.g. pathlib.Path.home): the attribute,
     * or VAL_MISSING.  type is the built-in (borrowed). */
    val (*type_getattr)(host *h, val type, const char *name, src_span at);
};

/* A new zero-filled heap object of size bytes (at least sizeof(val_obj)),
 * one reference, on the live list. */
void *val_obj_new(size_t size, val_kind kind, const val_type *type);

/* The hooks of v: its object type, the dtype type for VAL_DTYPE (see
 * val_set_dtype_type), NULL for the other kinds. */
const val_type *val_type_of(val v);
/* dtype.c registers the hooks of VAL_DTYPE values (repr, attributes). */
void val_set_dtype_type(const val_type *t);

/* ---- the built-in heap kinds ---------------------------------------------- */

typedef struct val_str {
    val_obj h;
    size_t len;
    bool ascii;         /* every byte < 0x80: code points are bytes */
    char s[];           /* NUL-terminated; may hold NUL bytes before len */
} val_str;

/* TUPLE and LIST share a layout; a tuple's items never change once built. */
typedef struct val_seq {
    val_obj h;
    size_t len, cap;
    val *items;
} val_seq;

/* DICT: insertion-ordered, as Python's.  Keys must be hashable
 * (val_hashable); entries deleted from the middle leave holes that
 * iteration skips (VAL_MISSING keys). */
typedef struct val_dict_entry {
    val key, value;
    uint64_t hash;
} val_dict_entry;

typedef struct val_dict {
    val_obj h;
    size_t len;             /* live entries */
    size_t nentries, cap;   /* used and allocated entries */
    val_dict_entry *entries;
    int64_t *index;         /* open addressing: entry number or -1 */
    size_t index_cap;       /* a power of two */
} val_dict;

/* SLICE: start/stop/step are None or ints (or anything: tensors read
 * them as they please). */
typedef struct val_slice {
    val_obj h;
    val start, stop, step;
} val_slice;

typedef struct val_range {
    val_obj h;
    int64_t start, stop, step;
} val_range;

/* FUNC: a def or lambda.  The kernel side reads node (a FUNCDEF with its
 * decorators, params and body), file, and resolves the names the body uses
 * with host_func_lookup. */
typedef struct val_func {
    val_obj h;
    const char *name;           /* the def's name, or "<lambda>" */
    const ast_node *node;       /* FUNCDEF or LAMBDA */
    const src_file *file;       /* the file node comes from */
    val globals;                /* VAL_DICT: the module's variables */
    val closure;                /* VAL_ENV of the enclosing call, or VAL_NONE */
    int nparams;
    val *defaults;              /* per param: its default, or VAL_MISSING */
    val attrs;                  /* VAL_DICT of attributes set on it, or NONE */
    val owner;                  /* the VAL_CLASS whose body defined it (for
                                   super()), or NONE */
} val_func;

/* BUILTIN: a C function, maybe bound to self.  A built-in *type* (int,
 * str, list, ValueError, torch.Tensor) is a builtin whose call makes
 * instances and whose inst_kind (and inst_type for object types) says which
 * values are its instances, for isinstance() and type(). */
typedef struct val_builtin {
    val_obj h;
    const char *name;           /* qualified, for messages: "torch.zeros" */
    val_cfunc fn;
    val self;                   /* owned reference, or VAL_NONE */
    val_kind inst_kind;         /* VAL_ERR when not a type */
    const val_type *inst_type;  /* for object kinds: the exact type */
    const void *data;           /* whatever fn wants (static data) */
} val_builtin;

/* MODULE and OBJECT: attributes in a dict; behaviour from h.type.  Every
 * OBJECT starts with this struct (a type adds its C fields after it);
 * attrs may stay zero (not a dict) when the type keeps no attributes. */
typedef struct val_object {
    val_obj h;
    val attrs;                  /* a VAL_DICT of str -> val */
} val_object;

/* CLASS: a class with single inheritance.  attrs (the val_object layout,
 * so val_object_get/set work) is its namespace: what its body defined
 * (functions, staticmethod/classmethod wrappers, class attributes).  The
 * behaviour of classes and their instances lives in classes.c; the
 * h.type of a class and of its instances are hook tables defined there. */
typedef struct val_class {
    val_object o;
    char *name;                 /* owned */
    val base;                   /* VAL_CLASS, or VAL_NONE (object) */
    bool builtin;               /* tritsim's own: printed as 'ValueError',
                                   not '__main__.ValueError' */
    bool exception;             /* BaseException or derived from it */
    int exc_kind;               /* a built-in exception class: its host_exc
                                   (host.h); -1 for the others */
    const struct class_meta *meta;  /* what a class written in C (enum.Enum)
                                   makes of the classes derived from it, or
                                   NULL (host.h) */
} val_class;

/* Where an exception was raised (exceptions.c fills it in): the message
 * shown if nothing catches it (NULL: "Type: str(e)", computed then), the
 * span and file of the raise, and the calls that led there, innermost first. */
typedef struct val_raise_frame {
    const char *name;           /* the function that was called (the module
                                   imported when import is set) */
    src_span call_site;         /* where its caller called it */
    const src_file *file;       /* the file of call_site */
    bool import;                /* a module's body, run by an import */
} val_raise_frame;
typedef struct val_raise {
    char *message;              /* owned, or NULL */
    src_span at;
    const src_file *file;
    int nframes;
    val_raise_frame frames[];
} val_raise;

/* INSTANCE: attrs holds the object's own attributes (an exception's args
 * among them). */
typedef struct val_instance {
    val_object o;
    val cls;                    /* its VAL_CLASS */
    val_raise *raised;          /* exceptions: the last raise that made it
                                   (owned, malloc'd), or NULL */
} val_instance;

static inline val_str *val_as_str(val v) { return (val_str *)v.u.o; }
static inline val_seq *val_as_seq(val v) { return (val_seq *)v.u.o; }
static inline val_dict *val_as_dict(val v) { return (val_dict *)v.u.o; }

/* ---- constructors --------------------------------------------------------- */

val val_str_new(const char *s, size_t len);
val val_str_cstr(const char *s);
val val_str_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A str holding a strbuf's text; the buffer is freed (emptied). */
val val_str_from_buf(strbuf *b);

/* A tuple of n items, all None; fill with val_seq_set before sharing it. */
val val_tuple_new(size_t n);
/* A tuple of the n given values (stolen). */
val val_tuple_of(size_t n, const val *items);
val val_list_new(size_t cap);
/* Set item i (i < len) of a tuple or list, stealing v and dropping the
 * old item. */
void val_seq_set(val seq, size_t i, val v);
/* Append to a list, stealing v. */
void val_list_push(val list, val v);
/* Insert at i (0 <= i <= len), stealing v. */
void val_list_insert(val list, size_t i, val v);
/* Remove item i and return it (the reference moves to the caller). */
val val_list_remove(val list, size_t i);

val val_dict_new(void);
/* The value stored under key (borrowed), or VAL_MISSING; key must be
 * hashable. */
val val_dict_get(val d, val key);
val val_dict_get_str(val d, const char *key);
/* d[key] = value, stealing both. */
void val_dict_set(val d, val key, val value);
void val_dict_set_str(val d, const char *key, val value);
/* Remove key; its value (reference moved to the caller), or VAL_MISSING. */
val val_dict_pop(val d, val key);
/* Iterate: start with *pos = 0; true with key and value (borrowed) of the
 * next entry, false at the end. */
bool val_dict_next(val d, size_t *pos, val *key, val *value);
void val_dict_clear(val d);

val val_slice_new(val start, val stop, val step);   /* steals all three */
val val_range_new(int64_t start, int64_t stop, int64_t step);
/* Number of items of a range (0 for empty). */
int64_t val_range_len(const val_range *r);

/* A C function as a value; self is stolen (VAL_NONE for a plain one). */
val val_builtin_new(const char *name, val_cfunc fn, val self);

/* A row of a type's method table: the attribute's name, the qualified
 * name its builtin shows (NULL: the name itself), the function. */
typedef struct val_method {
    const char *name, *qual;
    val_cfunc fn;
} val_method;
/* The method `name` of table tab (n rows) bound to self (a new
 * reference), or val_missing() when the table has no such row. */
val val_method_bind(const val_method *tab, size_t n, const char *name, val self);
/* Set every row of table tab (n rows) as an attribute of the OBJECT or
 * MODULE obj: a builtin bound to self (referenced once a row), e.g. a
 * class's methods (self None) or a module's functions. */
void val_method_set_all(val obj, const val_method *tab, size_t n, val self);

/* An OBJECT of the given type with an empty attribute dict. */
val val_object_new(const val_type *type);
/* A MODULE named name (static string), with __name__ set. */
val val_module_new(const char *name);
/* Set an attribute of an OBJECT or MODULE, stealing v. */
void val_object_set(val obj, const char *name, val v);
/* Attribute of an OBJECT or MODULE (borrowed), or VAL_MISSING. */
val val_object_get(val obj, const char *name);

/* ---- queries ------------------------------------------------------------- */

/* The name Python's type(x).__name__ gives: "int", "str", "NoneType",
 * "function", "Tensor", ... */
const char *val_type_name(val v);

/* True for values that can be dict keys: None, bools, numbers, dtypes,
 * Ellipsis, strs, tuples of hashable values, and objects (by identity);
 * lists and dicts are not. */
bool val_hashable(val v);
uint64_t val_hash(val v);

/* Python == on the built-in kinds (numbers across int/float/bool,
 * strings, tuples and lists item by item, dicts); identity for functions
 * and objects.  The evaluator consults an object type's binop first. */
bool val_equal(val a, val b);

/* Append repr(v) / str(v) to out.  Containers print their items with
 * repr; objects through their type's hooks (h is passed to them). */
void val_print_repr(host *h, val v, strbuf *out);
void val_print_str(host *h, val v, strbuf *out);
/* Append "Name(f1=repr, f2=repr, ...)" of an object's attributes fields
 * (NULL-terminated), as a dataclass prints. */
void val_print_fields(host *h, val self, const char *name, const char *const *fields,
                      strbuf *out);

/* Truth of the built-in kinds (0 or 1); -1 for object kinds, which the
 * evaluator asks through their hook. */
int val_truth_builtin(val v);

/* Number of code points of a str. */
size_t val_str_chars(const val_str *s);

#endif
