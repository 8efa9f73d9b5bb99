/* spec.h - the specializer: a @triton.jit function, the values of its
 * constexpr parameters and the types of its runtime arguments become typed
 * kernel IR with static shapes (ir.h).
 *
 * It walks the kernel's AST once, as Triton's code generator does: Python
 * values (constexprs, literals, dtypes, tuples) are computed on the spot;
 * tile values become IR instructions; `if` on a constexpr takes one branch;
 * `tl.static_range` unrolls; `range` with runtime bounds becomes a loop;
 * helper @triton.jit functions are inlined (their call chain is kept in
 * ir_frame for backtraces).  Every shape is static, and anything that breaks
 * the rules (a non-power-of-two arange, a loop that changes a variable's
 * type, an unsupported tl.* name) is an error at the line that did it.
 *
 * The specializer knows nothing of host values: the launcher (launch.c)
 * describes the arguments with spec_const / dtype and answers name lookups
 * through spec_host. */
#ifndef TRITSIM_SPEC_H
#define TRITSIM_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "dtype.h"
#include "ir.h"
#include "strbuf.h"

/* A compile-time Python value. */
typedef enum spec_const_kind {
    SC_NONE, SC_BOOL, SC_INT, SC_FLOAT, SC_STR, SC_DTYPE, SC_TUPLE,
} spec_const_kind;

typedef struct spec_const {
    spec_const_kind kind;
    union {
        bool b;
        int64_t i;
        double f;
        dtype dt;
        struct { const char *s; size_t len; } str;
        struct { struct spec_const *items; int n; } tuple;
    } u;
} spec_const;

/* The Python type name of a constant: "int", "tuple", "None", ... */
const char *spec_const_kind_name(const spec_const *c);

/* The same constant?  Same kind and value, tuples item by item (True is not
 * 1, and floats compare by their bits: -0.0 is not 0.0, a NaN is itself):
 * the launcher's cache key and the debugger's scope snapshots both ask. */
bool spec_const_eq(const spec_const *a, const spec_const *b);

/* Append a constant as Python's repr shows it: 1024, 0.5, True, 'rows',
 * (1, 2), tl.float16 (a pointer type by its own name): the constexprs of
 * --dump-ir's header, under tritsim run and python3 -m tritsim alike. */
void spec_const_repr(strbuf *b, const spec_const *c);

/* What a global name of a kernel's module is. */
typedef enum spec_global_kind {
    SPEC_G_UNDEFINED,   /* no such name */
    SPEC_G_CONST,       /* a number, string, None, dtype or tuple: folded */
    SPEC_G_MODULE,      /* a module, by qualified name ("triton.language") */
    SPEC_G_FUNC,        /* a built-in function, by qualified name
                           ("triton.cdiv", "triton_util.print_if") */
    SPEC_G_JIT,         /* another @triton.jit function, or (host_fn) a plain
                           Python function under Triton's interpreter */
    SPEC_G_OTHER,       /* a host value kernels cannot use */
} spec_global_kind;

typedef struct spec_global {
    spec_global_kind kind;
    spec_const c;              /* SPEC_G_CONST */
    const char *qualname;      /* SPEC_G_MODULE, SPEC_G_FUNC */
    const ast_node *def;       /* SPEC_G_JIT: its FUNCDEF */
    bool host_fn;              /* SPEC_G_JIT: a function without @triton.jit,
                                  which only spec_host.interpret allows */
    const src_file *file;      /* SPEC_G_JIT: the file it is in */
    void *env;                 /* SPEC_G_JIT: its module, for lookups */
    const char *what;          /* SPEC_G_OTHER: "a tensor", "a function" */
    bool plain_global;         /* SPEC_G_OTHER: a number, string, tuple or None
                                  that is a global of the kernel's module but
                                  not a tl.constexpr, which Triton refuses */
} spec_global;

/* A lookup's answer for a global that is a plain value (a number, string,
 * tuple, list or None, not a tl.constexpr), which Triton 3 compiles only
 * under TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1 (its interpreter reads them
 * all): true and *g the refusal, or false where the rule is lifted. */
bool spec_refuse_plain_global(spec_global *g);

typedef struct spec_host {
    /* The global `name` of module env (constants are copied into the
     * specializer's arena by the callee, or must outlive the kernel). */
    spec_global (*lookup)(void *ctx, void *env, const char *name);
    /* Optional: attribute attr of the program's module named module, for
     * `mod.helper(x)` in a kernel: *known tells whether module is one of
     * the program's (read from a file); SPEC_G_UNDEFINED when it has no
     * such attribute. */
    spec_global (*lookup_attr)(void *ctx, const char *module, const char *attr, bool *known);
    void *ctx;
    /* Record the debugger's tables (below): only where a debugger may stop
     * in the kernel or show its statements; without them the kernel has no
     * statement table and k->debug is NULL. */
    bool debug_info;
    /* TRITON_INTERPRET=1: the kernel runs as Triton's interpreter runs it,
     * as Python, so a kernel may also call plain Python functions
     * (lookup gives them as SPEC_G_JIT with host_fn) and print() takes
     * any values, f-strings with tile fields among them, as Python's
     * print does.  A call of such a function whose arguments are all
     * constants runs once, on the host, through call (below), while the
     * kernel compiles: its result is a constant (the lecture's pid
     * conditions, string methods, eval).  One given a tile is inlined like
     * a @triton.jit helper, and so is one that uses kernel-only names
     * (tl.*, jit functions) or prints or stops (print, breakpoint,
     * set_trace), itself or in a function it calls: those happen in each
     * program, as in the interpreter. */
    bool interpret;
    /* Call the host function fn (the env of its SPEC_G_JIT) with these
     * constants; the result is copied into the callee's arena.  False with
     * a message in err (the exception it raised, or a result that is not
     * a constant).  NULL where the caller has no host. */
    bool (*call)(void *ctx, void *fn, int argc, const spec_const *argv, int nkw,
                 const char *const *kwnames, const spec_const *kwv, spec_const *out,
                 char *err, size_t errlen);
} spec_host;

/* One parameter of the kernel's FUNCDEF, in order. */
typedef struct spec_param {
    bool is_const;          /* a constexpr: value in c */
    spec_const c;
    dtype dt;               /* a runtime argument: its scalar or pointer type */
    /* A runtime int whose value, or a pointer whose address, is a multiple
     * of 16, as Triton specializes them (unless do_not_specialize names
     * the parameter): the launcher's cache key, and ir_param.div16. */
    bool div16;
    /* A host TensorDescriptor (desc_nd > 0): dt is the pointer type of its
     * base, and it takes 1 + 2 * desc_nd runtime arguments, in this order:
     * the base pointer, the sizes (int32), the strides (int64). */
    int desc_nd;
    int32_t desc_block[IR_MAX_DIM];
    bool desc_nan;          /* padding="nan" */
} spec_param;

/* Does a launch specialize runtime parameter i on its value (Triton's
 * "equal to 1" and "multiple of 16"), do_not_specialize naming parameter
 * i with bit i of no_spec? */
bool spec_on_value(uint64_t no_spec, int i);
/* Triton's divisibility specialization of parameter i: an int that is a
 * multiple of 16, or a tensor whose address is (spec_param.div16). */
bool spec_div16(uint64_t no_spec, int i, uint64_t value);
/* The same specialization key: n parameters alike, constexprs by value
 * (spec_const_eq), runtime arguments by dtype, divisibility and
 * TensorDescriptor shape. */
bool spec_params_eq(const spec_param *a, const spec_param *b, int n);

/* Specialize def (a FUNCDEF of file f, module env).  The IR and everything
 * it points to live in arena a.  Returns NULL after reporting errors to d.
 * Text from tl.static_print goes to out. */
ir_kernel *spec_kernel(const src_file *f, const ast_node *def, void *env,
                       const spec_host *host, const spec_param *params,
                       diag_sink *d, arena *a, FILE *out);

/* The functions kernels can call, by qualified name ("triton.language.load",
 * "triton_util.print_if"): the i-th, or NULL past the end.  The host side
 * registers these names so that `tl.load` exists (and says it is for
 * kernels only when called on the host). */
const char *spec_builtin_name(int i);
/* What the i-th built-in does besides giving its value: SPEC_FX_NONE, or
 * some of the other bits.  Every entry of the table states it: 0 means the
 * entry forgot, which a unit test reports and the debugger refuses (a
 * debugger expression may call only SPEC_FX_NONE built-ins).  -1 past the
 * end. */
enum {
    SPEC_FX_NONE = 1,   /* only computes (or checks while compiling) */
    SPEC_FX_WRITES = 2, /* writes memory: tl.store, atomics */
    SPEC_FX_PRINTS = 4, /* prints, at run time or while compiling */
    SPEC_FX_STOPS = 8,  /* may stop the program: asserts, breakpoints */
};
int spec_builtin_effects(int i);
/* Can a kernel call the function of this qualified name?  (Also for
 * aliases such as "triton.language.math.exp".) */
bool spec_has_builtin(const char *qualname);

/* ---- the debugger's view of a specialized kernel (spec_debug.c) ----------
 *
 * With host->debug_info, spec_kernel records the statement table
 * (k->stmts, k->inst_stmt) and, for each statement, the names in scope when
 * the statement starts (k->debug), and keeps the spec_host it was given:
 * its ctx must live as long as the kernel for spec_dbg_eval. */

typedef enum spec_dbg_kind { SPEC_DBG_CONST, SPEC_DBG_TILE, SPEC_DBG_OTHER } spec_dbg_kind;

typedef struct spec_dbg_var {
    const char *name;        /* NULL for an expression result */
    bool is_arg;             /* a parameter of the statement's function */
    spec_dbg_kind kind;
    spec_const c;            /* SPEC_DBG_CONST: constexprs, Python values */
    int32_t slot;            /* SPEC_DBG_TILE: the slot holding it at this statement */
    const char *what;        /* SPEC_DBG_OTHER: "a block pointer", "a function", ... */
} spec_dbg_var;

/* The names visible at statement stmt of k: the parameters of its function
 * first (in order), then the other locals bound before the statement, in
 * first-binding order.  Names not usable there (assigned in only one branch
 * of a runtime if, or only inside a finished loop) are left out.  *out is
 * allocated in a.  Returns the count (0 for a kernel without debug data). */
int spec_dbg_vars(const ir_kernel *k, int32_t stmt, spec_dbg_var **out, arena *a);

typedef struct spec_dbg_result {
    ir_kernel *k;           /* slots: k's slots then new ones (same indices for the old);
                               code: the expression's instructions only (no RETURN);
                               frames: k's, then one for the expression (func
                               "(debugger)", file ef, parent the statement's frame)
                               and any for helpers it calls; prints and params: k's;
                               no statement table, inst_stmt all -1 */
    int n;                  /* 1, or a tuple's length */
    bool tuple;             /* the value is a tuple of n items (n may be 1) */
    spec_dbg_var *items;    /* each CONST or TILE (slot in ->k); name NULL */
} spec_dbg_result;

/* Compile expression e (an expression node parsed from file ef) in the scope of
 * statement stmt of k.  The name `pid` is the program id tuple (pid_rank
 * constants, the grid's rank) and shadows a kernel variable of that name;
 * kernel variables, constexprs, globals of the kernel's module (through the
 * spec_host the kernel was specialized with) and tl.* all work as in the
 * kernel, e.g. `pid == (1, 0)`, `pid[0] > 2`, `offs[0] >= 8`,
 * `tl.sum(mask) < 4`, `x * 2`, `x.dtype`, `x[None, :]`.  Side effects (tl.store,
 * atomics, print, device_print, breakpoint, ...) are errors.  A constant
 * tuple is one CONST item (an SC_TUPLE); a tuple holding tiles is its items.
 * Errors go to d with ef's positions; false then.  Everything in a. */
bool spec_dbg_eval(const ir_kernel *k, int32_t stmt, const src_file *ef, const ast_node *e,
                   const int64_t *pid, int pid_rank, diag_sink *d, arena *a,
                   spec_dbg_result *out);

/* print_if / breakpoint_if condition strings ("=0", ",>1", ">1,=0"): parse
 * into p->pid_cond (false with a message in err); ir_print_pid_passes
 * (ir.h) tests a program id against them. */
bool spec_pid_conds_parse(const char *text, ir_print *p, char *err, size_t errlen);

#endif
