/* host.h - the host evaluator: runs the Python part of a .tk program (top
 * level statements, plain defs, lambdas, `if __name__ == "__main__":`) by
 * walking its AST, over the values of val.h.
 *
 * Other modules plug in through this header:
 *   - built-in modules (torch, triton, triton.language, triton_util, ...)
 *     are values made with val_module_new and registered by dotted name with
 *     host_register_module; `import` finds only registered modules;
 *   - their functions are val_cfunc's (host_def adds one to a module), which
 *     read their arguments with host_args and the host_to_* conversions,
 *     report errors with host_error, and call back into the program with
 *     host_call (a grid lambda, a key function);
 *   - objects with behaviour of their own (tensors, kernels, launchers,
 *     triton.Config) carry a val_type (val.h);
 *   - the methods of the built-in kinds (str.join, list.append, ...) and
 *     str % args come from pylib, the layer above, which fills in h->types
 *     (below): the host calls them without naming pylib;
 *   - `@triton.jit` is just a registered function that receives the
 *     VAL_FUNC of the def (val_func: its AST, file, globals and closure) and
 *     returns a VAL_KERNEL; host_func_lookup resolves the names its body
 *     uses exactly as the function itself would.
 *
 * Errors.  Every runtime error prints, through diag_report,
 *
 *     prog.tk:3:12: error: integer division or modulo by zero
 *         return a // b
 *                ^~~~~~
 *     prog.tk:6:12: note: in 'div', called from here
 *         return div(a, b) + 1
 *                ^~~~~~~~~
 *     prog.tk:9:7: note: in 'outer', called from here
 *     print(outer(1, 0))
 *           ^~~~~~~~~~~~
 *
 * that is the error at the failing expression and then the chain of calls
 * that led there, innermost first (long chains are cut in the middle).
 * stdout is flushed first, so output printed before the error stays in
 * order.
 *
 * Exceptions.  An error is a Python exception: host_error and host_raise
 * make an instance of a built-in exception class (host_exc below), note
 * where it happened (the span, the file and the chain of calls), leave it
 * pending in h->exc and return VAL_ERR; every caller passes VAL_ERR up
 * until a `try` statement (or C code, with host_exc_take) catches it.  One
 * that nobody catches is printed as above when it reaches the top of the
 * program (or of a debugger expression), and the run stops with exit
 * status 1.  While one is pending, further errors are not raised (the
 * first one wins, as when every error stopped the run).
 *
 * Fatal errors are not exceptions: an error inside a kernel launch (a bad
 * access, device_assert, a compile error of the kernel) is printed where
 * it happens (host_fail) and sets h->exiting; so does the debugger's
 * `kill`.  Nothing catches them, and no `finally` or `__exit__` runs. */
#ifndef TRITSIM_HOST_H
#define TRITSIM_HOST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "val.h"

typedef struct host_frame host_frame;
struct backend_dev;
struct access_log;
struct alog_arg;

/* What records the memory accesses of a run's launches (alog.h): --viz's
 * pictures (main.c, viz/) or `tritsim check`'s grader (teach/).  The
 * launcher (triton/launch.c) calls begin before each launch of kernel
 * (its grid, how many axes the grid was given with, its nparams
 * parameters by ir_kernel.params index) and hands the backend the record
 * it returns (NULL: this launch is not recorded); then end, the launch
 * failed or not (ok), with that record. */
typedef struct host_recorder {
    void *ctx;
    struct access_log *(*begin)(void *ctx, const char *kernel, const int64_t grid[3],
                                int rank, int nparams, const struct alog_arg *args);
    void (*end)(void *ctx, struct access_log *log, bool ok);
} host_recorder;
typedef struct host_scope host_scope;

/* The built-in exception classes, in the order of their hierarchy (each
 * class's base comes before it; exceptions.c has the table). */
#define HOST_EXCS(X) \
    X(BASE, "BaseException", NONE) X(SYSTEM_EXIT, "SystemExit", BASE) \
    X(KEYBOARD_INTERRUPT, "KeyboardInterrupt", BASE) \
    X(GENERATOR_EXIT, "GeneratorExit", BASE) X(EXCEPTION, "Exception", BASE) \
    X(ARITHMETIC, "ArithmeticError", EXCEPTION) \
    X(ZERO_DIVISION, "ZeroDivisionError", ARITHMETIC) \
    X(OVERFLOW, "OverflowError", ARITHMETIC) X(LOOKUP, "LookupError", EXCEPTION) \
    X(INDEX, "IndexError", LOOKUP) X(KEY, "KeyError", LOOKUP) \
    X(VALUE, "ValueError", EXCEPTION) X(TYPE, "TypeError", EXCEPTION) \
    X(UNICODE, "UnicodeError", VALUE) X(UNICODE_DECODE, "UnicodeDecodeError", UNICODE) \
    X(UNICODE_ENCODE, "UnicodeEncodeError", UNICODE) \
    X(RUNTIME, "RuntimeError", EXCEPTION) \
    X(NOT_IMPLEMENTED, "NotImplementedError", RUNTIME) \
    X(RECURSION, "RecursionError", RUNTIME) X(ASSERTION, "AssertionError", EXCEPTION) \
    X(ATTRIBUTE, "AttributeError", EXCEPTION) X(NAME, "NameError", EXCEPTION) \
    X(UNBOUND_LOCAL, "UnboundLocalError", NAME) X(IMPORT, "ImportError", EXCEPTION) \
    X(MODULE_NOT_FOUND, "ModuleNotFoundError", IMPORT) \
    X(STOP_ITERATION, "StopIteration", EXCEPTION) X(OS, "OSError", EXCEPTION) \
    X(FILE_NOT_FOUND, "FileNotFoundError", OS) X(FILE_EXISTS, "FileExistsError", OS) \
    X(PERMISSION, "PermissionError", OS) X(IS_A_DIRECTORY, "IsADirectoryError", OS) \
    X(NOT_A_DIRECTORY, "NotADirectoryError", OS) X(TIMEOUT, "TimeoutError", OS) \
    X(MEMORY, "MemoryError", EXCEPTION) \
    X(SYNTAX, "SyntaxError", EXCEPTION) X(WARNING, "Warning", EXCEPTION) \
    X(USER_WARNING, "UserWarning", WARNING) \
    X(DEPRECATION_WARNING, "DeprecationWarning", WARNING) \
    X(PENDING_DEPRECATION_WARNING, "PendingDeprecationWarning", WARNING) \
    X(SYNTAX_WARNING, "SyntaxWarning", WARNING) X(RUNTIME_WARNING, "RuntimeWarning", WARNING) \
    X(FUTURE_WARNING, "FutureWarning", WARNING) X(IMPORT_WARNING, "ImportWarning", WARNING) \
    X(UNICODE_WARNING, "UnicodeWarning", WARNING) X(BYTES_WARNING, "BytesWarning", WARNING) \
    X(RESOURCE_WARNING, "ResourceWarning", WARNING) \
    X(ENCODING_WARNING, "EncodingWarning", WARNING)

/* The GPU the simulation answers device queries for (--target): what
 * torch.cuda and triton.runtime.driver report, whatever runs the kernels. */
typedef enum host_target {
    HOST_TARGET_H100,           /* an NVIDIA H100 SXM (the default) */
    HOST_TARGET_MI300X,         /* an AMD MI300X: torch.version.hip is set */
    HOST_TARGET_B200,           /* an NVIDIA B200 (Blackwell, capability 10.0) */
} host_target;

typedef enum host_exc {
#define HOST_EXC_ENUM(id, name, base) HOST_EXC_##id,
    HOST_EXCS(HOST_EXC_ENUM)
#undef HOST_EXC_ENUM
    HOST_EXC__COUNT
} host_exc;

/* ---- the built-in types' methods (filled in by pylib) ------------------------
 *
 * The evaluator owns the values of val.h but not Python's library around
 * them: the methods of str, list, tuple, dict, range, int and float and
 * printf-style str % args belong to pylib (src/pylib/), the layer above.
 * So that the host never calls up into it, pylib fills in h->types when
 * its builtin_init runs (the first entry of src/modules.c's table) and
 * the host reads them: obj.method(...) on a built-in kind indexes
 * types.methods by the kind and scans that kind's table by name.  In a
 * host nobody filled in, those kinds have no methods and str % args is
 * an unsupported operand. */

/* A method of the values of a built-in kind: "join" of str is
 * {"join", "str.join", fn, VAL_STR}. */
typedef struct host_method {
    const char *name;
    const char *qualname;
    val_cfunc fn;
    val_kind kind;      /* the kind self has */
} host_method;

typedef struct host_types {
    /* by kind, for the kinds up to VAL_RANGE: the kind's methods, up to an
     * entry whose name is NULL; NULL when it has none */
    const host_method *methods[VAL_RANGE + 1];
    /* fmt % args for a str fmt (printf-style formatting), or NULL */
    val (*str_percent)(host *h, val fmt, val args, src_span at);
} host_types;

struct host {
    /* ---- set by the creator (tritsim run) -------------------------------- */
    diag_sink *diag;            /* where errors go */
    const src_file *file;       /* the program */
    int threads;                /* --threads N; 0 = one per core */
    const char *backend;        /* --backend: where kernels run, a name that
                                   backend_find (backend.h) knows; "cpu" */
    host_target target;         /* --target: the GPU device queries describe */
    struct debug *debugger;     /* launches go through it when it wants them */
    const host_recorder *recorder;  /* launches' accesses are recorded
                                   (above), or NULL */
    bool no_break;              /* --no-break: breakpoint() in kernels does nothing */
    bool unchecked;             /* --unchecked: GPU kernels without bounds checks */
    bool racecheck;             /* --racecheck: launches check for races between
                                   programs (backend.h) */
    bool initcheck;             /* --initcheck: torch.empty and its kin give
                                   storages whose unwritten elements kernels and
                                   the host may not read (tensor.h) */
    const char *dump_ir;        /* --dump-ir[=KERNEL]: NULL off, "" every kernel,
                                   else the kernel of that name (launch.c) */
    int ir_dumped;              /* specializations --dump-ir listed so far */
    const char *dump_cuda;      /* --dump-cuda[=KERNEL]: the same for the CUDA
                                   source the GPU backends would compile */
    bool dump_hip;              /* --dump-hip[=KERNEL]: dump_cuda lists the
                                   HIP source instead */
    int cuda_dumped;
    /* ---- free for the kernel side (launch caches, thread pool) ----------- */
    void *kernel_ctx;
    void (*kernel_ctx_free)(void *ctx);   /* called by host_free if set */
    /* The backend the program's kernels run on (backend.h), for the torch
     * layer (torch.cuda.synchronize, Event): the one open now, or NULL
     * when none is; with open, opened now if need be (NULL after an
     * error reported at `at`).  Set by the triton module (launch.c); NULL
     * when it is not loaded. */
    struct backend_dev *(*kernel_device)(host *h, bool open, src_span at);
    /* ---- read-only for other modules ------------------------------------- */
    val builtins;               /* dict: Python's built-in names */
    val modules;                /* dict: dotted name -> registered module */
    val source_modules;         /* dict: dotted name -> its Python text (str),
                                   run when first imported (host_import.c) */
    val main_globals;           /* dict: the program's global variables */
    bool exiting;               /* a fatal error (or the debugger's kill):
                                   unwind quietly, catch nothing */
    int exit_status;            /* the status it ends the run with */
    val exc;                    /* the exception being raised (an instance),
                                   or VAL_NONE */
    val handling;               /* the exception the innermost running
                                   `except` block handles, or VAL_NONE */
    val exc_classes[HOST_EXC__COUNT];   /* the built-in exception classes */
    bool no_grad;               /* torch.no_grad(): autograd records nothing */
    /* ---- filled in by pylib's builtin_init (above) ------------------------ */
    host_types types;
    /* ---- internal ---------------------------------------------------------- */
    host_frame *frame;          /* the running call, innermost */
    int depth;                  /* nested calls of program functions */
    int nest;                   /* nested comparisons of containers */
    val env;                    /* VAL_ENV of the running scope, or VAL_NONE */
    val class_ns;               /* the namespace (dict) of the class body
                                   running in this scope, or VAL_NONE */
    const val_builtin *calling; /* the built-in host_call is calling: its fn
                                   may read its data (set just before) */
    src_span stmt_at;           /* the statement running, innermost: where a
                                   hook with no span of its own (repr()
                                   calling __repr__) reports its call */
    arena scope_arena;          /* host_scope analyses of defs and lambdas */
    struct host_source *sources;    /* texts host_eval_string parsed, module
                                       files imported */
    val importing;              /* dict: names of the modules whose body runs
                                   now (host_import.c), or VAL_NONE */
    host_scope **scope_table;   /* open addressing by node pointer */
    size_t scope_cap, scope_count;
};

/* A host for running file f, reporting to d; threads 0, backend "cpu",
 * target HOST_TARGET_H100.  It has the built-in exception classes and
 * object, super, property, ... (classes.c), but neither the rest of
 * Python's built-ins nor any module: its creator registers them
 * (modules_init, src/modules.c). */
host *host_new(diag_sink *d, const src_file *f);
/* Frees the host and its registry; values still referenced elsewhere live
 * on until val_free_all. */
void host_free(host *h);

/* import name (dotted, absolute) as the import statement does: a
 * registered module, or one of the program's files found on sys.path
 * (host_import.c); a new reference, or VAL_ERR. */
val host_import_module(host *h, const char *name, src_span at);
/* Where module name would come from, without importing it (its parent
 * package is imported, as importlib.util.find_spec does): 1 with *origin
 * its file (str), "built-in" for tritsim's own modules or None for a
 * namespace package; 0 when there is no such module; -1 after an error. */
int host_import_find(host *h, const char *name, src_span at, val *origin);
/* Is m one of the program's modules whose body is still running (an
 * import cycle sees it partially initialised)? */
bool host_module_initializing(host *h, val m);

/* Make `import name` / `from name import x` find module (stolen).  Dotted
 * names register submodules ("triton.language"); registering replaces an
 * earlier module of that name. */
void host_register_module(host *h, const char *name, val module);
/* Make `import name` run text (Python source; copied)
 * as module `name` the first time it is imported: tritsim's own modules
 * that are simplest written in Python (triton.tools.mxfp).  Its functions
 * and errors name the file "<tritsim>/NAME". */
void host_register_source_module(host *h, const char *name, const char *text);
/* The registered module of that name (borrowed), or VAL_MISSING. */
val host_module(host *h, const char *name);
/* Add a C function to a module (or OBJECT) under the last component of
 * qualname ("torch.zeros" -> attribute "zeros"); qualname must be a
 * static string: messages use it. */
void host_def(val module, const char *qualname, val_cfunc fn);
/* Define the static val_cfunc `fname` as a call of impl with the cfunc's
 * arguments (h, self, argc, argv, kw, at) and then the extra ones given:
 * one line for each of several functions that share an implementation,
 * e.g. HOST_CFUNC_CALLING(fn_std, var_std, "std", true). */
#define HOST_CFUNC_CALLING(fname, impl, ...)                                                \
    static val fname(host *h, val self, int argc, const val *argv, const val_kwargs *kw,   \
                     src_span at)                                                          \
    {                                                                                      \
        return impl(h, self, argc, argv, kw, at, __VA_ARGS__);                             \
    }

/* Evaluate expression e (parsed from f, e.g. a debugger command) in the
 * scope of the running program; an error is reported at f's positions and
 * does not stop the program.  VAL_ERR then. */
val host_eval_in(host *h, const src_file *f, const ast_node *e);
/* Call fn with each name host_eval_in can use now that is bound: the
 * running function's variables (and its enclosing functions'), then the
 * globals; an inner name can repeat an outer one.  For the debugger's Tab
 * completion. */
void host_each_name(host *h, void (*fn)(const char *name, void *ctx), void *ctx);

/* Python's eval(text): parse text (len bytes) as one expression and
 * evaluate it in the running scope (the caller's locals, then globals).
 * Text that does not parse raises SyntaxError; an exception the expression
 * raises is raised again at `at` (the eval call), with its class and
 * arguments, since the program's messages can only point into the program.
 * The parsed text lives as long as h (a lambda made there may outlive the
 * call). */
val host_eval_string(host *h, const char *text, size_t len, src_span at);

/* Run a parsed program as __main__, with sys.argv = argv[0..argc)
 * (argv[0] the file).  Returns the exit status: 0, 1 after an error, or
 * what sys.exit() asked for. */
int host_run_file(host *h, const ast_node *module, int argc, char **argv);
/* The same with __name__ = name: tritsim check (teach/) runs the learner's
 * file with its grader appended as "__check__", so that the learner's
 * `if __name__ == "__main__":` part stays out. */
int host_run_as(host *h, const ast_node *module, const char *name, int argc, char **argv);

/* ---- errors ------------------------------------------------------------- */

/* Raise a RuntimeError whose message is the formatted text (the class
 * the text starts with when it is "ValueError: ..." or another built-in
 * class's name), at `at` in the running program; returns VAL_ERR so that `return host_error(...)`
 * reads well.  While an exception is pending or h->exiting it does
 * nothing.  The torch, triton and other modules report their errors so
 * (most of torch's errors are RuntimeErrors); the evaluator and the
 * built-ins raise the class Python would, with host_raise. */
val host_error(host *h, src_span at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
val host_verror(host *h, src_span at, const char *fmt, va_list ap);
/* Raise an exception of built-in class k: str(e) is the message. */
val host_raise(host *h, host_exc k, src_span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
val host_vraise(host *h, host_exc k, src_span at, const char *fmt, va_list ap);
/* The same with e.args given (a tuple, stolen): the message is only what
 * is printed if nothing catches it, e.g. args ('k',) and the message
 * "KeyError: 'k' (the dict has no such key)". */
val host_raise_args(host *h, host_exc k, val args, src_span at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Raise exc (borrowed): an exception instance, or a class (instantiated
 * without arguments), as `raise exc` does; a first raise notes its place
 * (`at`), a re-raise keeps the first.  A TypeError when exc is neither. */
val host_raise_value(host *h, val exc, src_span at);
/* A new instance of built-in exception class k whose e.args is args (a
 * tuple, stolen), not raised: for raising with host_raise_value when e.args
 * matters more than a message, e.g. SystemExit(2), which ends the run
 * with exit status 2 when nothing catches it (sys.exit, argparse). */
val exc_new(host *h, host_exc k, val args);
/* Is an exception pending (h->exc set)? */
static inline bool host_exc_pending(const host *h) { return h->exc.kind != VAL_NONE; }
/* Take the pending exception (a new reference; none pending: VAL_NONE):
 * C code that catches an error. */
val host_exc_take(host *h);
/* Make exc (stolen) the pending exception again (after looking at it). */
void host_exc_restore(host *h, val exc);
/* Is v an instance of built-in exception class k (or of a subclass)? */
bool host_exc_is(host *h, val v, host_exc k);
/* The built-in exception class k (borrowed). */
val host_exc_class(host *h, host_exc k);
/* Print the pending exception as an uncaught one (the error at its place,
 * the chain of calls, its cause or context as notes), clear it, and set
 * the run's exit status: 1, or what an uncaught SystemExit says. */
void host_exc_report(host *h);
/* Print the notes of the call chain only (for errors reported through
 * diag_report directly, e.g. from inside a kernel). */
void host_traceback(host *h);
/* A fatal error was already reported through diag_report (e.g. inside a
 * kernel, at a span of the kernel's file): print the call chain and stop
 * the run with status 1 (h->exiting: no exception, nothing catches it).
 * Returns VAL_ERR. */
val host_fail(host *h);

/* "Did you mean" suggestions: offer candidates, then read best (NULL when
 * nothing is close enough to name). */
typedef struct host_suggest {
    const char *name;
    const char *best;
    int best_dist;
} host_suggest;
void host_suggest_init(host_suggest *s, const char *name);
void host_suggest_add(host_suggest *s, const char *candidate);

/* ---- operations any module may use ---------------------------------------- */

/* fn(*argv, **kw): program functions, builtins, objects with a call hook. */
val host_call(host *h, val fn, int argc, const val *argv, const val_kwargs *kw,
              src_span at);
/* obj.name; reports "'int' object has no attribute 'x'" when missing. */
val host_getattr(host *h, val obj, const char *name, src_span at);
/* obj.name(*argv, **kw), as a program's call of a method: the attribute's
 * error or the call's result (a new reference). */
val host_call_method(host *h, val obj, const char *name, int argc, const val *argv,
                     const val_kwargs *kw, src_span at);
/* obj.name or VAL_MISSING without reporting (hasattr, getattr(o, n, d)). */
val host_getattr_opt(host *h, val obj, const char *name, src_span at);
bool host_setattr(host *h, val obj, const char *name, val v, src_span at);
val host_getitem(host *h, val obj, val key, src_span at);
bool host_setitem(host *h, val obj, val key, val v, src_span at);
/* a op b for arithmetic, bitwise and comparison ops (and IN/NOTIN, IS). */
val host_binop(host *h, ast_op op, val a, val b, src_span at);
/* op v: not, -, +, ~ (AST_OP_NOT, USUB, UADD, INVERT). */
val host_unop(host *h, ast_op op, val v, src_span at);
/* bool(v): 1 or 0, -1 after an error. */
int host_truth(host *h, val v, src_span at);
/* a < b as sorted() and min() use it: 1 or 0, -1 after an error. */
int host_less(host *h, val a, val b, src_span at);
/* len(v), -1 after an error. */
int64_t host_len(host *h, val v, src_span at);
/* repr(v), str(v), format(v, spec) as new str values (VAL_ERR on error). */
val host_repr(host *h, val v);
val host_str(host *h, val v);
val host_format(host *h, val v, const char *spec, size_t spec_len, src_span at);

/* Iteration over any iterable: list, tuple, str, dict (keys), range,
 * iterators, objects with an iter hook.
 *
 *     host_iter it;
 *     if (!host_iter_begin(h, v, at, &it)) return val_err();
 *     val x; int r;
 *     while ((r = host_iter_next(h, &it, &x)) > 0) { ...; val_unref(x); }
 *     host_iter_end(&it);
 *     if (r < 0) return val_err();
 */
typedef struct host_iter {
    val src;            /* what is iterated (owned) */
    int64_t pos;        /* next index (or next byte of a str) */
    int64_t len;        /* for dicts: the size it must keep */
    src_span at;
} host_iter;
bool host_iter_begin(host *h, val v, src_span at, host_iter *it);
/* 1 with a new reference in *out, 0 at the end, -1 after an error. */
int host_iter_next(host *h, host_iter *it, val *out);
void host_iter_end(host_iter *it);
/* list(v) as a new list (VAL_ERR on error). */
val host_to_list(host *h, val v, src_span at);
/* Is v an iterator object (what iter() and next() accept as one)? */
bool host_is_iterator(val v);
/* An iterator object over the items of a list or tuple (stolen), printed
 * as <name object at 0x...>: what zip(), map(), genexps return.  name is
 * a static string: "zip", "map", "generator", ... */
val host_iterator_new(val items, const char *name);

/* Where the running program is, `up` calls out from a C function called
 * at `at`: up 0 is that call (in the innermost running function), up 1
 * the place that function was called from, and so on (warnings.warn's
 * stacklevel, logging's records).  file is the file of the span, func the
 * name of the function the span is in ("<module>" at the top), globals
 * (borrowed) its module's variables.  False when there are fewer calls
 * (then *out holds the outermost). */
typedef struct host_site {
    const src_file *file;
    src_span at;
    const char *func;
    val globals;
} host_site;
bool host_site_of(host *h, int up, src_span at, host_site *out);

/* ---- arguments of C functions ----------------------------------------------- */

/* Match the arguments of a call of C function fname to its parameters, as
 * Python does.  params lists the names, separated by commas; a name ending
 * in '=' is optional; a lone '*' starts the keyword-only ones.  Example:
 * "input, dim=, *, keepdim=, dtype=".  out[i] receives parameter i
 * (borrowed) or VAL_MISSING when an optional one was not given.  Reports
 * "zeros() got an unexpected keyword argument 'dtyp' (did you mean
 * 'dtype'?)" and the like and returns false.  At most 32 parameters. */
bool host_args(host *h, src_span at, const char *fname, const char *params,
               int argc, const val *argv, const val_kwargs *kw, val *out);

/* Conversions that report "what must be an int, not 'str'" (what: e.g.
 * "range() argument 1") and return false.  host_to_int takes ints and
 * bools; host_to_float also ints; host_to_str only strs (*out borrowed,
 * NUL-terminated). */
bool host_to_int(host *h, val v, src_span at, const char *what, int64_t *out);
bool host_to_float(host *h, val v, src_span at, const char *what, double *out);
bool host_to_str(host *h, val v, src_span at, const char *what, const char **out);

/* The value `name` has inside function fn (a VAL_FUNC or VAL_KERNEL's
 * function): its closure, then its module's globals, then the built-ins.
 * Borrowed; VAL_MISSING when it is not defined. */
val host_func_lookup(host *h, val fn, const char *name);

/* ---- sets (setobj.c) ----------------------------------------------------------- */

/* A new empty set (frozen: a frozenset). */
val set_new(bool frozen);
/* set(iterable) / frozenset(iterable); iterable VAL_MISSING: empty. */
val set_from(host *h, val iterable, bool frozen, src_span at);
/* Add key (borrowed); false after reporting an unhashable key. */
bool set_add(host *h, val set, val key, src_span at);
/* Is v a set or a frozenset? */
bool set_is(val v);
/* The hooks of sets or frozensets (for isinstance and type()). */
const val_type *set_val_type(bool frozen);

/* ---- classes (classes.c) ---------------------------------------------------- */

/* The behaviour of the classes derived from a class written in C, beyond
 * that of plain classes: a metaclass in C (enum.Enum's).  A class has the
 * meta of its nearest base that sets one (val_class.meta).  cls is the
 * derived class; every hook may be NULL (plain class behaviour). */
typedef struct class_meta {
    /* after a class statement ran the body of cls, before its decorators;
     * false after an error */
    bool (*created)(host *h, val cls, src_span at);
    /* cls(args...) */
    val (*call)(host *h, val cls, int argc, const val *argv, const val_kwargs *kw,
                src_span at);
    /* cls[key] */
    val (*getitem)(host *h, val cls, val key, src_span at);
    /* iter(cls): a list or tuple of the items */
    val (*iter)(host *h, val cls, src_span at);
    /* len(cls) */
    int64_t (*len)(host *h, val cls, src_span at);
    /* x in cls: 1, 0, -1 after an error */
    int (*contains)(host *h, val cls, val x, src_span at);
    /* repr(cls) */
    void (*repr)(host *h, val cls, strbuf *out);
    /* isinstance(v, cls) beyond v's class deriving from cls (the ABCs of
     * collections.abc: a list is a Sequence) */
    bool (*instancecheck)(val cls, val v);
} class_meta;
/* The meta of cls (its own or its nearest base's), or NULL. */
const class_meta *class_meta_of(val cls);

/* A class named name (copied) with base (a VAL_CLASS, borrowed) or
 * VAL_NONE; builtin classes print without '__main__.'.  Fill its
 * namespace with val_object_set (methods: builtins, which get the
 * instance as self; class_static / class_method wrappers). */
val class_new(const char *name, val base, bool builtin);
/* A new instance of cls with no attributes (no __init__ run). */
val class_instance_new(val cls);
/* Wrap a function (stolen) as staticmethod(fn) / classmethod(fn). */
val class_static(val fn);
val class_method(val fn);
/* name looked up in cls and its bases (borrowed, unbound), or MISSING. */
val class_lookup(val cls, const char *name);
/* Is cls (a VAL_CLASS) base or derived from it? */
bool class_is_subclass(val cls, val base);
/* The qualified name Python prints: "ValueError", "__main__.MyError". */
void class_print_name(val cls, strbuf *out);
/* obj.name for classes and instances (attributes, methods bound), or
 * MISSING, or VAL_ERR. */
val class_getattr(host *h, val obj, const char *name, src_span at);
/* obj.name = value as object.__setattr__ does it (a property's setter, or
 * the instance's attribute dict), whatever the class's own __setattr__. */
bool class_instance_setattr(host *h, val obj, const char *name, val value, src_span at);
/* del obj.name as object.__delattr__ does it (AttributeError when absent). */
bool class_instance_delattr(host *h, val obj, const char *name, src_span at);
/* del obj.name through the class's __delattr__: 1 done, -1 after an
 * error, 0 when obj is no instance of a class that has one. */
int class_delattr(host *h, val obj, const char *name, src_span at);
/* Offer the attribute names of a class or instance to a suggestion. */
void class_suggest(val obj, host_suggest *s);
/* The built-ins classes.c provides: object, super, staticmethod,
 * classmethod, property, issubclass, NotImplemented. */
void class_init(host *h);

#endif
