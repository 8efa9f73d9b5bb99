/* spec_impl.h - what the specializer's files share: spec.c (the entry,
 * inlining, IR emission, values, scopes), spec_expr.c (expressions),
 * spec_stmt.c (statements), spec_debug.c (the debugger's tables) and
 * spec_tl.c with its family (the tl.* and builtin functions, spec_tl.h).
 * Not for other modules: their interface is spec.h. */
#ifndef TRITSIM_SPEC_IMPL_H
#define TRITSIM_SPEC_IMPL_H

#include <stdio.h>

#include "arena.h"
#include "spec.h"
#include "strbuf.h"

/* A value during specialization. */
typedef enum sv_kind {
    SV_CONST,    /* a Python value known now (c) */
    SV_TILE,     /* an IR slot (slot) */
    SV_TUPLE,    /* a tuple of svals (items, n), e.g. a helper's return */
    SV_MODULE,   /* a module (name: its qualified name) */
    SV_FUNC,     /* a built-in function (name: its qualified name) */
    SV_JIT,      /* a @triton.jit function (def, file, env), or with host_fn
                    a plain Python function under the interpreter */
    SV_METHOD,   /* a tile's method (name) bound to the tile in slot */
    SV_FMT,      /* an f-string with tile fields (pieces, n) */
    SV_BLOCKPTR, /* a block pointer (block; items, n: its runtime scalars) */
    SV_TYPE,     /* a tile's block type (x.type; slot: the tile, spec_types.c) */
    SV_UNDEF,    /* a name that is not usable here; name says why */
} sv_kind;

/* What a block pointer (tl.make_block_ptr) fixes at compile time.  Its
 * runtime part is an sval's items: the base pointer, then nd int64 scalars
 * each of shape, strides and offsets (n = 1 + 3 * nd), all SV_TILE. */
typedef struct sp_blockinfo {
    int nd;
    int32_t block[IR_MAX_DIM];     /* block_shape */
    int8_t order[IR_MAX_DIM];
    dtype elem;                    /* the element type pointed to */
    bool desc;                     /* a tensor descriptor (spec_desc.c): its runtime
                                      part is the base, nd int32 sizes and nd int64
                                      strides (n = 1 + 2 * nd); no offsets */
    bool pad_nan;                  /* a descriptor's padding_option="nan" */
} sp_blockinfo;

typedef struct sval sval;
struct sval {
    sv_kind kind;
    spec_const c;
    int32_t slot;
    sval *items;              /* SV_TUPLE */
    ir_fmt_piece *pieces;     /* SV_FMT */
    int n;
    const char *name;
    const ast_node *def;      /* SV_JIT */
    bool host_fn;             /* SV_JIT: no @triton.jit (spec_host.interpret) */
    const sp_blockinfo *block; /* SV_BLOCKPTR */
    const src_file *file;
    void *env;
};

typedef struct sp_var {
    const char *name;
    sval v;
} sp_var;

typedef struct sp_scope {
    sp_var *vars;
    int n, cap;
} sp_scope;

/* One function being specialized: the kernel, or an inlined helper. */
typedef struct sp_func sp_func;
struct sp_func {
    const char *name;
    const src_file *file;
    void *env;
    sp_scope scope;
    int32_t frame;             /* its ir_frame */
    sp_func *caller;
    const ast_node *call;      /* the call site in the caller */
    bool returned;             /* this path has returned: skip the rest of it */
    sval ret;                  /* the value returned (None when none) */
    int runtime_depth;         /* nesting of runtime if/loops */
    int loop_depth;            /* nesting of runtime for/while loops */
    /* Returns inside a runtime 'if' (Triton's early returns): each copies
     * its value into the slots of ret and jumps to the end of the inlined
     * body; the jumps are patched there. */
    bool rt_ret;
    const ast_node *first_ret; /* the first return seen, for messages */
    int32_t *ret_jumps;
    int nret_jumps, cap_ret_jumps;
    /* The debugger's scope snapshots (spec_debug.c): this function's last
     * statement (index + 1; 0 before its first) and its scope then. */
    int32_t dbg_prev;
    sp_scope dbg_shadow;
};

typedef struct sp_dbg_rec sp_dbg_rec;

typedef struct spec {
    diag_sink *d;
    arena *a;
    const spec_host *host;
    FILE *out;
    sp_func *fn;               /* the innermost function */
    int inline_depth;

    ir_inst *code;   int32_t ncode, cap_code;
    ir_slot *slots;  int32_t nslots, cap_slots;
    ir_frame *frames; int32_t nframes, cap_frames;
    ir_print *prints; int32_t nprints, cap_prints;

    /* The debugger's tables (spec_debug.c). */
    int32_t cur_stmt;          /* the innermost statement being walked, or -1 */
    int32_t *inst_stmt; int32_t cap_inst_stmt;   /* one per instruction */
    ir_stmt *stmts;  int32_t nstmts, cap_stmts;
    sp_dbg_rec *dbg;           /* scope snapshots and frame environments */
    bool dbg_expr;             /* compiling a debugger expression: no side effects */
    const ir_kernel *dbg_kernel;   /* dbg_expr: the stopped kernel, */
    int32_t dbg_at;                /* and the statement it stands at */
    int32_t ndesc;             /* tl.make_tensor_descriptor calls made (ir_kernel.ndesc) */
    int64_t unrolled;          /* tl.static_range iterations unrolled so far */
    bool too_big;              /* a limit was passed (sp_emit): the error is reported,
                                  and the statement being walked fails */
} spec;

/* Triton's limit on the elements of one tile (TRITON_MAX_TENSOR_NUMEL),
 * which every tile type obeys, however it was made. */
#define SP_MAX_NUMEL ((int64_t)1 << 20)
/* The most IR instructions one kernel may have (tl.static_range and inlined
 * helpers unroll): hundreds of times the largest real kernel (the tests'
 * have at most a few thousand), and small enough (some 100 MB of IR and
 * debug tables) to fail in a second instead of growing until the machine
 * runs out of memory. */
#define SP_MAX_CODE ((int32_t)1 << 20)
/* The most iterations one tl.static_range may unroll (see doc/language.md). */
#define SP_MAX_UNROLL ((int64_t)1 << 16)
/* ... and all of a kernel's tl.static_range loops together (nested ones
 * multiply, even when their bodies emit nothing). */
#define SP_MAX_UNROLL_ALL ((int64_t)1 << 20)

/* spec.c */
bool sp_error(spec *s, const ast_node *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Append item to the growable array arr (n items, room for cap). */
#define SP_PUSH(arr, n, cap, item)                                        \
    do {                                                                  \
        if ((n) == (cap)) {                                               \
            (cap) = (cap) ? 2 * (cap) : 64;                               \
            (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr));       \
        }                                                                 \
        (arr)[(n)++] = (item);                                            \
    } while (0)
int32_t sp_slot(spec *s, ir_type t, const char *name);
int32_t sp_emit(spec *s, ir_opcode op, int sub, int32_t dst, int32_t a,
                int32_t b, int32_t c, int64_t imm, const ast_node *at);
int32_t sp_print_desc(spec *s, ir_print p);
/* An error unless a tile of type t has at most SP_MAX_NUMEL elements; what
 * names the operation that makes it ("'+' of shapes [a] and [b]"). */
bool sp_check_numel(spec *s, const ir_type *t, const ast_node *at, const char *what);
/* A copy of the growable array p (n items of size bytes) in arena a. */
void *sp_freeze(arena *a, const void *p, size_t n, size_t size);
/* A kernel in s->a with s's code, slots, frames and prints (the rest is
 * zero: the caller fills in its parameters and debug tables). */
ir_kernel *sp_freeze_kernel(spec *s, const char *name);
ir_type sp_type(dtype dt, int ndim, const int32_t *shape);
ir_type sp_scalar_type(dtype dt);
const ir_type *sp_slot_type(spec *s, int32_t slot);
sval sv_const(spec_const c);
sval sv_int(int64_t i);
sval sv_none(void);
sval sv_tile(int32_t slot);
bool sv_is_none(sval v);
const char *sp_describe(spec *s, sval v, char *buf, size_t len);
bool sp_const_truth(const spec_const *c);
bool sp_const_int(spec *s, sval v, const ast_node *at, const char *what, int64_t *out);
sval *sp_lookup_local(spec *s, const char *name);
void sp_bind(spec *s, const char *name, sval v);
sp_scope sp_scope_copy(const sp_scope *sc);
/* name's binding in scope sc (the latest), or NULL. */
sval *sp_scope_find(sp_scope *sc, const char *name);
dtype sp_const_dtype(const spec_const *c);
int32_t sp_const_slot(spec *s, const spec_const *c, dtype dt, const ast_node *at);
/* Does v have a run-time value that a runtime if can merge (a tile, or a
 * number), and the type it merges as? */
bool sp_mergeable(const sval *v);
ir_type sp_merge_type(spec *s, const sval *v);
bool sp_as_tile(spec *s, sval v, const ast_node *at, int32_t *slot);
int32_t sp_cast(spec *s, int32_t slot, dtype dt, const ast_node *at);
bool sp_broadcast_shape(const ir_type *a, const ir_type *b, ir_type *out);
void sp_shape_str(const ir_type *t, char *buf, size_t len);
int32_t sp_broadcast_to(spec *s, int32_t slot, const ir_type *shape, const ast_node *at);
int32_t sp_materialize(spec *s, int32_t slot, const ir_type *shape, const ast_node *at);
bool sp_call_jit(spec *s, sval fn, int argc, const sval *argv, int nkw,
                 const char *const *kwnames, const sval *kwv,
                 const ast_node *call, sval *out);
/* Append the text of constant c (Python's str, or format(c, spec)). */
bool sp_format_const(spec *s, const spec_const *c, const char *fmt_spec,
                     char conv, const ast_node *at, strbuf *out);

/* spec_expr.c */
/* A constant tuple seen as an SV_TUPLE of constants; v itself otherwise. */
sval sp_tuple_view(spec *s, sval v);
/* v as one constant: a constant, or a tuple of constants at any depth. */
bool sp_const_tuple(arena *a, sval v, spec_const *out);
/* An operand slot of dtype dt: constants materialised, tiles cast. */
int32_t sp_operand_slot(spec *s, sval v, dtype dt, const ast_node *at);
bool sp_binop(spec *s, ast_op op, sval a, sval b, const ast_node *at, sval *out);
bool sp_unop(spec *s, ast_op op, sval a, const ast_node *at, sval *out);
bool sp_expr(spec *s, const ast_node *e, sval *out);

/* spec_stmt.c */
/* The same binding (the same slot, the same constant exactly, the same
 * function...): nothing to merge or record when a name keeps it. */
bool sp_same(const sval *a, const sval *b);
/* Is a parameter annotated tl.constexpr (or triton.language.constexpr)? */
bool sp_is_constexpr_annotation(const ast_node *ann);
/* Walk a body's statements (until one returns). */
bool sp_block(spec *s, const ast_list *body);

/* spec_debug.c: the recording hooks of the walk.  sp_dbg_emitted after each
 * instruction; sp_dbg_stmt before a statement (returns the statement to
 * restore in s->cur_stmt after it); sp_dbg_frame for each new frame;
 * sp_dbg_func_end when a function's walk ends; sp_dbg_finish at the end
 * (moves the tables into k, or just frees them when k is NULL). */
void sp_dbg_emitted(spec *s);
int32_t sp_dbg_stmt(spec *s, const ast_node *st);
void sp_dbg_frame(spec *s, int32_t frame, const ast_node *def, void *env);
void sp_dbg_func_end(sp_func *f);
void sp_dbg_finish(spec *s, ir_kernel *k);
/* In a debugger expression, a call of a built-in with side effects
 * (effects, from the built-in table, other than SPEC_FX_NONE: tl.store,
 * atomics, prints, asserts, breakpoints) is an error. */
bool sp_dbg_pure(spec *s, const char *qualname, int effects, const ast_node *call);
/* In a debugger expression, a name the stopped function assigns but that
 * has no value where it stands: the line of the statement that gives it
 * its first value, and the function's name in *func; 0 for other names. */
int sp_dbg_later_line(const spec *s, const char *name, const char **func);
/* x[...] in a debugger expression: besides None and ':', constant indices
 * and slices (x[0], x[:, 2], x[1:3]) pick elements.  The elements that item
 * it (an index or a slice) picks on an axis of that size: [*start, *stop). */
bool sp_dbg_axis(spec *s, const ast_node *it, int axis, int64_t size, int64_t *start,
                 int64_t *stop);

/* spec_tl.c: call a built-in function by qualified name. */
typedef struct sp_args {
    int argc;
    const sval *argv;
    int nkw;
    const char *const *kwnames;
    const sval *kwv;
} sp_args;

bool sp_call_builtin(spec *s, const char *qualname, const sp_args *args,
                     const ast_node *call, sval *out);
/* A tile's attribute (x.dtype, x.shape, x.T) or method (x.to, x.sum). */
bool sp_tile_attr(spec *s, sval tile, const char *attr, const ast_node *at, sval *out);
bool sp_call_method(spec *s, sval method, const sp_args *args,
                    const ast_node *call, sval *out);
/* module.attr: a submodule, a dtype, or a function; of a module of the
 * program (spec_host.lookup_attr), its jit functions, constants and
 * submodules; an error for names tritsim does not support. */
bool sp_module_attr(spec *s, const char *module, const char *attr,
                    const ast_node *at, sval *out);
/* spec_expr.c: what a host global (or module attribute) g, called name
 * in messages, is in the kernel; false with an error for one it cannot
 * use. */
bool sp_global_sval(spec *s, spec_global g, const ast_node *at, const char *name, sval *out);
/* spec_desc.c: a tensor descriptor's attributes (desc.dtype, .block_shape,
 * .shape, .strides, the methods desc.load, desc.store, desc.atomic_*) and
 * the call of such a method (m.items[0] is the descriptor). */
bool sp_desc_attr(spec *s, sval desc, const char *attr, const ast_node *at, sval *out);
bool sp_desc_call(spec *s, sval m, const sp_args *args, const ast_node *call, sval *out);
/* A kernel parameter that is a host TensorDescriptor: its 1 + 2 * nd
 * runtime arguments appended to params (*n of them so far; the caller
 * made room) and the descriptor bound to its name. */
bool sp_desc_param(spec *s, const ast_node *param, const spec_param *sp, ir_param *params,
                   int *n);
/* "triton.language.load" -> "tl.load", for messages. */
const char *sp_display_name(const char *qualname, char *buf, size_t len);

#endif
