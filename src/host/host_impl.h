/* host_impl.h - what the files of the host evaluator share (host.c and
 * host_*.c, classes.c, exceptions.c): not a contract with other modules.
 * Only src/host/ includes it; the other layers use host.h. */
#ifndef TRITSIM_HOST_IMPL_H
#define TRITSIM_HOST_IMPL_H

#include "host.h"

/* Python's default recursion limit; how deep comparisons of nested
 * tuples may go; the most items a list made by the host may have (a
 * runaway list(range(10**18)) is an error, not an out-of-memory exit). */
enum { HOST_MAX_DEPTH = 1000, HOST_MAX_NEST = 500, HOST_MAX_ITEMS = 1 << 27 };

/* One running call of a program function (or the module, at the top). */
struct host_frame {
    host_frame *prev;
    const char *name;       /* the function running ("<module>" at the top) */
    src_span call_site;     /* where the caller called it */
    val globals;            /* borrowed: the module's variables */
    val retval;             /* set by `return` */
    const val_func *func;   /* the function running, NULL at the top */
    const src_file *file;   /* the file its code comes from (h->file while
                               it runs; the caller's frame has the file of
                               call_site) */
    bool import;            /* a module's body run by `import` (call_site is
                               the import statement) */
};

/* The variables of one call (or comprehension). */
typedef struct host_env {
    val_obj h;
    const host_scope *scope;   /* lives in the host's scope arena */
    val parent;                /* ENV the function was defined in, or NONE */
    int nslots;
    val *slots;                /* VAL_MISSING while unbound */
} host_env;

/* How a statement ends: on to the next one, or a jump, or an error. */
typedef enum host_flow {
    FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN, FLOW_ERROR
} host_flow;

/* Ints (bools count as ints) and numbers, and their values. */
static inline bool host_is_int(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL;
}

static inline bool host_is_num(val v)
{
    return v.kind == VAL_INT || v.kind == VAL_BOOL || v.kind == VAL_FLOAT;
}

static inline int64_t host_int_of(val v)
{
    return v.kind == VAL_BOOL ? (int64_t)v.u.b : v.u.i;
}

static inline double host_float_of(val v)
{
    return v.kind == VAL_FLOAT ? v.u.f : (double)host_int_of(v);
}

/* ---- host.c ---- */

/* Offer the str keys of d (a dict; anything else offers nothing). */
void host_suggest_dict(host_suggest *s, val d);
/* " (did you mean 'x'?)" in buf, or "" when s found nothing. */
const char *host_did_you_mean(const host_suggest *s, char *buf, size_t len);
/* A text eval() parsed, or a module file imported: its file and AST,
 * kept until host_free. */
struct host_source {
    struct host_source *next;
    src_file *file;
    arena a;
};

/* ---- host_import.c ---- */

/* `import a.b` and `from m import x`: bind the names; false after an
 * error. */
bool host_exec_import(host *h, const ast_node *s);
bool host_exec_importfrom(host *h, const ast_node *s);
/* Before the main program runs: sys.path (the program's folder, then
 * PYTHONPATH's) and sys.modules, when there is a sys module. */
void host_import_setup(host *h);

/* ---- host_scope.c ---- */

/* The analysis of a def, lambda or comprehension node, made on first
 * use. */
const host_scope *host_scope_of(host *h, const ast_node *node);
/* A new environment for scope sc, inside parent (an ENV, or NONE). */
val host_env_new(const host_scope *sc, val parent);
/* The environment v is, or NULL when v is not an ENV. */
host_env *host_env_of(val v);
/* Drop the reference to the environment of a call that has returned,
 * freeing it with the functions defined in it when only they hold it. */
void host_env_release(val env);
/* The value of a name (borrowed), or VAL_ERR after reporting. */
val host_load_name(host *h, const char *name, src_span at);
/* Bind name to v (stolen); false after reporting. */
bool host_store_name(host *h, const char *name, val v, src_span at);
/* del name; false after reporting. */
bool host_delete_name(host *h, const char *name, src_span at);
/* Unbind name if it is bound (the name of an except clause, after it). */
void host_unbind_name(host *h, const char *name);
/* The first argument of the innermost running call of a program function
 * (self, or cls), borrowed; VAL_MISSING when there is none. */
val host_frame_self(host *h);

/* ---- host_expr.c ---- */

/* The value of expression e (a new reference), or VAL_ERR. */
val host_eval(host *h, const ast_node *e);

/* Run genexp e's loops over iterable (its first), yielding each element
 * through gen_yield: the body of its generator.  False after an error. */
bool host_comp_run(host *h, const ast_node *e, val iterable);

/* ---- host_stmt.c ---- */

/* Run a block of statements. */
host_flow host_exec_block(host *h, const ast_list *body);
/* target = v, stealing v; false after reporting. */
bool host_assign(host *h, const ast_node *target, val v);

/* ---- host_call.c ---- */

/* The function a def or lambda node makes, named name, its defaults
 * evaluated now in the running scope; VAL_ERR after an error. */
val host_make_func(host *h, const ast_node *node, const char *name,
                   const ast_list *params);

/* ---- host_ops.c ---- */

/* a op b with the object types' hooks first (in place when asked). */
val host_binop_full(host *h, ast_op op, bool inplace, val a, val b, src_span at);


/* ---- host_num.c ---- */

/* Raise the OverflowError of an int result beyond 64 bits: VAL_ERR. */
val host_overflow(host *h, src_span at);
/* a op b on two ints (or bools), on two floats: the result, VAL_ERR
 * after an error, or VAL_MISSING when the op is not one of numbers. */
val host_int_binop(host *h, ast_op op, val va, val vb, src_span at);
val host_float_binop(host *h, ast_op op, double a, double b, src_span at);
/* Compare numbers exactly (an int and a float too): -1, 0, 1, or 2 when
 * unordered (NaN). */
int host_num_cmp(val a, val b);

/* ---- host_access.c ---- */

/* del obj[key]; false after reporting. */
bool host_delitem(host *h, val obj, val key, src_span at);
/* The method `name` of the values of a built-in kind (str.join, ...), from
 * the tables pylib filled in (h->types), or NULL. */
const host_method *host_method_of(host *h, val_kind kind, const char *name);
/* str.strip and friends taken from the type are builtins whose fn is
 * host_call_unbound (never called itself) and whose data is the
 * host_method; host_call calls them through host_unbound_invoke, with
 * self the first argument. */
val host_call_unbound(host *h, val self, int argc, const val *argv,
                      const val_kwargs *kw, src_span at);
val host_unbound_invoke(host *h, const val_builtin *b, int argc, const val *argv,
                        const val_kwargs *kw, src_span at);
/* The last component of a dotted name ("torch.zeros" -> "zeros"). */
const char *host_short_name(const char *qualname);

/* ---- host_iter.c ---- */

/* The items an iterator object has left (borrowed list/tuple), or
 * VAL_MISSING when v is not an iterator object. */
val host_iterator_items(val v);

/* ---- gen.c ---- */

/* The generator a call of generator function fn returns; env (stolen) has
 * the call's arguments bound. */
val gen_new_func(host *h, val fn, val env);
/* The generator of genexp e: iterable is its first iterable, evaluated
 * (stolen); env (stolen) the comprehension's environment. */
val gen_new_genexp(host *h, const ast_node *e, val iterable, val env);
/* Is v a generator? */
bool gen_is(val v);
/* `yield v` (v stolen) in the running generator: the value sent in (None
 * for next()), or VAL_ERR (an exception thrown in, or an error). */
val gen_yield(host *h, val v, src_span at);
/* `yield from src` (borrowed): src's return value, or VAL_ERR. */
val gen_yield_from(host *h, val src, src_span at);
/* Are there generators whose objects are gone and that must be closed?
 * gen_collect closes them (at a statement boundary, nothing pending). */
bool gen_pending(void);
void gen_collect(host *h);
/* The program ended: close the generators still suspended. */
void gen_shutdown(host *h);

/* ---- classes.c ---- */

/* After a class body ran: its functions learn their class (for super()). */
void class_adopt(val cls);
/* cls(args...): a new instance, __init__ run. */
val class_call(host *h, val cls, int argc, const val *argv, const val_kwargs *kw,
               src_span at);

/* ---- exceptions.c ---- */

/* Make the built-in exception classes (h->exc_classes, the builtins). */
void exc_init(host *h);
/* raise exc from cause (cause VAL_MISSING when there is no `from`): what
 * host_raise_value does, with __cause__ set. */
val exc_raise_from(host *h, val exc, val cause, src_span at);
/* Raise exc (stolen; an exception instance raised before) again as if
 * first raised at `at`: the place it was raised is forgotten. */
val exc_reraise_at(host *h, val exc, src_span at);
/* A traceback object for exc (what __exit__ receives). */
val exc_traceback(val exc);
/* The exception instance's args tuple (borrowed), or an empty tuple's
 * stand-in VAL_MISSING when it has none. */
val exc_args(val exc);

/* A slice of a sequence of len items: its first index, step and count
 * (CPython's PySlice_GetIndicesEx); an int index, negative ones from the
 * end, "<what> index out of range" past it (host_access.c). */
bool host_slice_indices(host *h, val slice, int64_t len, src_span at,
                        int64_t *start, int64_t *step, int64_t *count);
bool host_seq_index(host *h, val key, int64_t len, const char *what, src_span at,
                    int64_t *out);

#endif
