/* test_spec_debug.c - unit tests of the specializer's debugger side
 * (spec.h: spec_dbg_vars, spec_dbg_eval, spec_builtin_effects; ir.h: the
 * statement table) and of parse_expr (parse.h).
 *
 * Small kernels are parsed from strings and specialized through spec_kernel
 * with a tiny spec_host that knows `tl`, `triton`, the @triton.jit functions
 * of the text and one global constant.  The checks are what the debugger
 * relies on: the statements' lines and first instructions, the names in
 * scope at a statement with their kinds and values, and what a debugger
 * expression compiles to (a folded constant, a tile of some type, or an
 * error message with its position). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "ir.h"
#include "parse.h"
#include "pool.h"
#include "spec.h"
#include "tap.h"

/* ---- a kernel from text ----------------------------------------------- */

typedef struct tk {
    arena mem;
    src_file *file;
    ast_node *mod;
    ir_kernel *k;
} tk;

static const ast_node *tk_def(const tk *t, const char *name)
{
    for (int i = 0; i < t->mod->u.module.body.len; i++) {
        const ast_node *n = t->mod->u.module.body.items[i];
        if (n->kind == AST_FUNCDEF && !strcmp(n->u.funcdef.name, name))
            return n;
    }
    return NULL;
}

/* The module's globals: tl, triton, its @triton.jit functions, SCALE = 10. */
static spec_global tk_lookup(void *ctx, void *env, const char *name)
{
    tk *t = ctx;
    (void)env;
    spec_global g = {.kind = SPEC_G_UNDEFINED};
    if (!strcmp(name, "tl")) {
        g.kind = SPEC_G_MODULE;
        g.qualname = "triton.language";
    } else if (!strcmp(name, "triton")) {
        g.kind = SPEC_G_MODULE;
        g.qualname = "triton";
    } else if (!strcmp(name, "SCALE")) {
        g.kind = SPEC_G_CONST;
        g.c = (spec_const){.kind = SC_INT, .u.i = 10};
    } else if (tk_def(t, name)) {
        g.kind = SPEC_G_JIT;
        g.def = tk_def(t, name);
        g.file = t->file;
        g.env = t;
    }
    return g;
}

static spec_host tk_host;

/* Specialize `kernel` of text with the given parameters (and the
 * debugger's tables when debug_info). */
static bool tk_build(tk *t, const char *text, const char *kernel, const spec_param *params,
                     bool debug_info)
{
    memset(t, 0, sizeof *t);
    arena_init(&t->mem);
    t->file = src_from_string("k.tk", text, strlen(text));
    diag_sink d;
    diag_sink_init(&d, stderr);
    t->mod = parse_file(t->file, &d, &t->mem);
    if (d.nerrors)
        return false;
    tk_host = (spec_host){.lookup = tk_lookup, .ctx = t, .debug_info = debug_info};
    t->k = spec_kernel(t->file, tk_def(t, kernel), t, &tk_host, params, &d, &t->mem, stdout);
    return t->k != NULL;
}

static void tk_free(tk *t)
{
    arena_free(&t->mem);
    src_free(t->file);
}

/* The first statement at line `line` (from statement `from` on), or -1. */
static int32_t stmt_at(const ir_kernel *k, int line, int32_t from)
{
    for (int32_t i = from; i < k->nstmts; i++)
        if (k->stmts[i].at->span.line == line)
            return i;
    return -1;
}

/* ---- evaluating expressions ------------------------------------------- */

typedef struct ev {
    bool ok;
    spec_dbg_result r;
    char err[1024];
} ev;

/* The expressions' files live as long as their results: freed at the end. */
enum { MAX_EXPRS = 128 };
static src_file *expr_files[MAX_EXPRS];
static int nexpr_files;

/* Compile text as a debugger expression at statement stmt for program pid. */
static ev eval_at(tk *t, int32_t stmt, const char *text, int64_t p0, int64_t p1)
{
    ev v;
    memset(&v, 0, sizeof v);
    src_file *file = src_from_string("<expr>", text, strlen(text));
    if (nexpr_files < MAX_EXPRS)
        expr_files[nexpr_files++] = file;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    diag_sink d;
    diag_sink_init(&d, f);
    int64_t pid[2] = {p0, p1};
    ast_node *e = parse_expr(file, &d, &t->mem);
    if (e)
        v.ok = spec_dbg_eval(t->k, stmt, file, e, pid, 2, &d, &t->mem, &v.r);
    fclose(f);
    snprintf(v.err, sizeof v.err, "%s", buf ? buf : "");
    free(buf);
    return v;
}

static const char *type_of(const ev *v, int item)
{
    static char buf[96];
    if (!v->ok || item >= v->r.n || v->r.items[item].kind != SPEC_DBG_TILE)
        return "(not a tile)";
    ir_type_str(&v->r.k->slots[v->r.items[item].slot].type, buf, sizeof buf);
    return buf;
}

/* The first line of an error message. */
static const char *first_line(ev *v)
{
    char *nl = strchr(v->err, '\n');
    if (nl)
        *nl = 0;
    return v->err;
}

/* The first k->nslots slots of r are k's. */
static bool same_slots(const ir_kernel *r, const ir_kernel *k)
{
    for (int32_t i = 0; i < k->nslots; i++) {
        char a[96], b[96];
        ir_type_str(&r->slots[i].type, a, sizeof a);
        ir_type_str(&k->slots[i].type, b, sizeof b);
        if (strcmp(a, b) || r->slots[i].name != k->slots[i].name ||
            r->slots[i].ptr_arg != k->slots[i].ptr_arg)
            return false;
    }
    return true;
}

/* Run the expression's kernel on one program: the executor's IR checks
 * must accept it (slot values are whatever the register file holds). */
static bool exec_accepts(const tk *t, const ev *v)
{
    exec_arg args[8];
    memset(args, 0, sizeof args);
    for (int i = 0; i < v->r.k->nparams && i < 8; i++)
        args[i].name = v->r.k->params[i].name;
    diag_sink d;
    diag_sink_init(&d, stdout);
    pool *p = pool_create(1);
    exec_launch L = {.kernel = v->r.k, .file = t->file, .grid = {1, 1, 1}, .args = args,
                     .pool = p, .out = stdout, .diag = &d};
    bool ok = exec_run(&L);
    pool_destroy(p);
    return ok;
}

/* ---- the kernel under test -------------------------------------------- */

static const char *const text =
    "@triton.jit\n"                                         /* 1 */
    "def helper(a, k: tl.constexpr):\n"                     /* 2 */
    "    b = a * k\n"                                       /* 3 */
    "    return b + 1\n"                                    /* 4 */
    "\n"                                                    /* 5 */
    "@triton.jit\n"                                         /* 6 */
    "def kern(x_ptr, n, BLOCK: tl.constexpr):\n"            /* 7 */
    "    pid = tl.program_id(0)\n"                          /* 8 */
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"        /* 9 */
    "    mask = offs < n\n"                                 /* 10 */
    "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n" /* 11 */
    "    for j in tl.static_range(2):\n"                    /* 12 */
    "        x = helper(x, j + SCALE) * 3.0\n"              /* 13 */
    "    for i in range(n):\n"                              /* 14 */
    "        x += 1.0\n"                                    /* 15 */
    "    if pid > 0:\n"                                     /* 16 */
    "        y = x * 2\n"                                   /* 17 */
    "    tl.store(x_ptr + offs, x, mask=mask)\n"            /* 18 */
    "\n"                                                    /* 19 */
    "def writer(p):\n"                                      /* 20 */
    "    tl.store(p, 1.0)\n";                               /* 21 */

static void test_statements(tk *t)
{
    const ir_kernel *k = t->k;
    /* 8 9 10 11 12, then per unrolled copy: 13 3 4, then 14 15 16 17 18 */
    static const int lines[] = {8, 9, 10, 11, 12, 13, 3, 4, 13, 3, 4, 14, 15, 16, 17, 18};
    int n = (int)(sizeof lines / sizeof lines[0]);
    TAP_INT_EQ(k->nstmts, n, "one statement per walked statement, unrolled and inlined");
    char got[256] = "", want[256] = "";
    for (int i = 0; i < k->nstmts; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%d ", k->stmts[i].at->span.line);
    for (int i = 0; i < n; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%d ", lines[i]);
    TAP_STR_EQ(got, want, "statement lines in emission order");
    bool mono = true;
    for (int i = 1; i < k->nstmts; i++)
        mono = mono && k->stmts[i].pc >= k->stmts[i - 1].pc;
    TAP_OK(mono, "statement pcs do not decrease");
    TAP_INT_EQ(k->stmts[0].pc, 2, "the first statement starts after the two ARGs");
    TAP_INT_EQ(k->inst_stmt[0], -1, "an ARG belongs to no statement");
    TAP_INT_EQ(k->inst_stmt[k->ncode - 1], -1, "the final RETURN belongs to no statement");
    TAP_INT_EQ(k->code[k->stmts[0].pc].op, IR_PROGRAM_ID, "statement 0 starts at program_id");
    TAP_INT_EQ(k->inst_stmt[k->stmts[0].pc], 0, "program_id belongs to statement 0");
    /* the for over static_range emits nothing: same pc as the next one */
    TAP_INT_EQ(k->stmts[4].pc, k->stmts[5].pc, "a statement with no code shares the next pc");
    /* statement 5 (line 13) calls helper; its * 3.0 comes after the
     * helper's statements 6 and 7 and belongs to statement 5 again */
    int32_t last = k->stmts[8].pc - 1;
    TAP_INT_EQ(k->inst_stmt[last], 5, "code after an inlined call is the caller's statement's");
    TAP_INT_EQ(k->code[last].op, IR_BINARY, "... it is the multiplication by 3.0");
    TAP_INT_EQ(k->inst_stmt[k->stmts[6].pc], 6, "the helper's first instruction is its own");
    TAP_OK(k->stmts[6].frame != 0 && k->frames[k->stmts[6].frame].file == t->file &&
           !strcmp(k->frames[k->stmts[6].frame].func, "helper"),
           "inlined statements have the helper's frame, with its file");
    TAP_OK(k->stmts[6].frame != k->stmts[9].frame, "each inlined call has its own frame");
    /* the body of the runtime loop: inside the loop's code */
    int32_t body = stmt_at(k, 15, 0);
    TAP_OK(body > 0 && k->stmts[body].pc > k->stmts[body - 1].pc,
           "the runtime loop's body statement starts after the loop's head");
    TAP_OK(k->frames[0].file == t->file, "the kernel's frame has its file");
}

static void test_vars(tk *t)
{
    spec_dbg_var *v;
    int n = spec_dbg_vars(t->k, 2, &v, &t->mem);  /* mask = offs < n */
    TAP_INT_EQ(n, 5, "five names before `mask = ...`");
    if (n == 5) {
        TAP_OK(!strcmp(v[0].name, "x_ptr") && v[0].is_arg && v[0].kind == SPEC_DBG_TILE &&
               v[0].slot == 0, "x_ptr: an argument in slot 0");
        TAP_OK(!strcmp(v[1].name, "n") && v[1].is_arg && v[1].kind == SPEC_DBG_TILE &&
               v[1].slot == 1, "n: an argument in slot 1");
        TAP_OK(!strcmp(v[2].name, "BLOCK") && v[2].is_arg && v[2].kind == SPEC_DBG_CONST &&
               v[2].c.kind == SC_INT && v[2].c.u.i == 4, "BLOCK: a constexpr argument, 4");
        TAP_OK(!strcmp(v[3].name, "pid") && !v[3].is_arg && v[3].kind == SPEC_DBG_TILE &&
               !strcmp(t->k->slots[v[3].slot].name, "pid"), "pid: a local tile");
        TAP_OK(!strcmp(v[4].name, "offs") && v[4].kind == SPEC_DBG_TILE, "offs: a local tile");
    }
    n = spec_dbg_vars(t->k, 0, &v, &t->mem);
    TAP_INT_EQ(n, 3, "only the arguments before the first statement");

    /* in the second inlined call, at `return b + 1`: a, k (= 1 + SCALE), b */
    n = spec_dbg_vars(t->k, 10, &v, &t->mem);
    TAP_INT_EQ(n, 3, "three names in the helper");
    if (n == 3) {
        TAP_OK(!strcmp(v[0].name, "a") && v[0].is_arg && v[0].kind == SPEC_DBG_TILE,
               "a: the helper's tile argument");
        TAP_OK(!strcmp(v[1].name, "k") && v[1].is_arg && v[1].kind == SPEC_DBG_CONST &&
               v[1].c.u.i == 11, "k: constexpr 11 in the second unrolled copy");
        TAP_OK(!strcmp(v[2].name, "b") && !v[2].is_arg && v[2].kind == SPEC_DBG_TILE,
               "b: the helper's local");
    }
    /* inside the runtime loop: x is the loop-carried slot; i is there */
    int32_t body = stmt_at(t->k, 15, 0);
    n = spec_dbg_vars(t->k, body, &v, &t->mem);
    bool have_i = false, have_j = false;
    for (int i = 0; i < n; i++) {
        have_i = have_i || !strcmp(v[i].name, "i");
        if (!strcmp(v[i].name, "j"))
            have_j = v[i].kind == SPEC_DBG_CONST && v[i].c.u.i == 1;
    }
    TAP_OK(have_i && have_j, "the loop variable i, and j (1) after the unrolled loop");
    /* at the store: y was assigned in one branch only: absent */
    n = spec_dbg_vars(t->k, stmt_at(t->k, 18, 0), &v, &t->mem);
    bool have_y = false;
    for (int i = 0; i < n; i++)
        have_y = have_y || !strcmp(v[i].name, "y");
    TAP_OK(!have_y && n == 9, "y (one branch only) is left out at the store (%d names)", n);
}

static void test_eval(tk *t)
{
    int32_t at_x = 3;               /* x = tl.load(...) */
    int32_t at_store = stmt_at(t->k, 18, 0);
    ev v = eval_at(t, at_x, "pid == (1, 0)", 1, 0);
    TAP_OK(v.ok && v.r.n == 1 && v.r.items[0].kind == SPEC_DBG_CONST &&
           v.r.items[0].c.kind == SC_BOOL && v.r.items[0].c.u.b,
           "pid == (1, 0) folds to True in program (1, 0)");
    if (!v.ok)
        tap_diag_text("error", v.err);
    TAP_INT_EQ(v.ok ? v.r.k->ncode : -1, 0, "... with no code");
    v = eval_at(t, at_x, "pid == (1, 0)", 0, 0);
    TAP_OK(v.ok && v.r.items[0].kind == SPEC_DBG_CONST && !v.r.items[0].c.u.b,
           "pid == (1, 0) folds to False in program (0, 0)");
    v = eval_at(t, at_x, "pid[0] > 2 or BLOCK * SCALE == 40", 3, 0);
    TAP_OK(v.ok && v.r.items[0].kind == SPEC_DBG_CONST && v.r.items[0].c.u.b,
           "pid[0], constexprs and module globals fold");
    v = eval_at(t, at_x, "offs[None, :] * 2", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "int32[1, 4]", "offs[None, :] * 2 is a tile of int32[1, 4]");
    TAP_OK(v.ok && v.r.k->nslots > t->k->nslots && same_slots(v.r.k, t->k),
           "the expression's kernel keeps the kernel's slots and adds its own");
    TAP_OK(v.ok && v.r.k->ncode > 0 && v.r.k->code[v.r.k->ncode - 1].op != IR_RETURN,
           "its code is the expression's alone, without a return");
    TAP_OK(v.ok && exec_accepts(t, &v), "the executor's IR checks accept it");
    v = eval_at(t, at_x, "tl.sum(mask) < 4", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "int1", "tl.sum(mask) < 4 is an int1 scalar");
    TAP_OK(v.ok && exec_accepts(t, &v), "the executor's IR checks accept it");
    v = eval_at(t, at_x, "offs[0] >= 8", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "int1", "offs[0] >= 8 is an int1 scalar");
    TAP_OK(v.ok && exec_accepts(t, &v), "the executor's IR checks accept it");
    v = eval_at(t, at_x, "offs[1:3]", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "int32[2]", "offs[1:3] is a tile of int32[2]");
    TAP_OK(v.ok && exec_accepts(t, &v), "the executor's IR checks accept it");
    v = eval_at(t, at_x, "offs[None, -3:][:, -1]", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "int32[1]", "None, negative bounds and indices");
    v = eval_at(t, at_x, "offs[BLOCK]", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:6: error: index 4 is out of range for axis 0 of "
               "size 4", "an index past the end");
    v = eval_at(t, at_x, "offs[n]", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:6: error: a tile index in a debugger expression "
               "must be a constant int, not a tile of int32", "a runtime index");
    v = eval_at(t, at_store, "x.dtype", 0, 0);
    TAP_OK(v.ok && v.r.items[0].kind == SPEC_DBG_CONST && v.r.items[0].c.kind == SC_DTYPE &&
           v.r.items[0].c.u.dt == DTYPE_FP32, "x.dtype is the constant fp32");
    v = eval_at(t, at_store, "x.shape == (4,) != (BLOCK, 1)", 0, 0);
    TAP_OK(v.ok && v.r.items[0].kind == SPEC_DBG_CONST && v.r.items[0].c.u.b,
           "tuples of constants compare");
    v = eval_at(t, at_x, "  offs, pid[1], tl.program_id(0)\n", 2, 5);
    TAP_OK(v.ok && v.r.tuple && v.r.n == 3 && v.r.items[0].kind == SPEC_DBG_TILE &&
           v.r.items[1].kind == SPEC_DBG_CONST && v.r.items[1].c.u.i == 5 &&
           v.r.items[2].kind == SPEC_DBG_TILE, "a tuple gives its items");
    TAP_STR_EQ(type_of(&v, 2), "int32", "tl.program_id(0) works in an expression");
    v = eval_at(t, at_store, "helper(x, 2)[None, :]", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "fp32[1, 4]", "a @triton.jit helper can be called");
    TAP_OK(v.ok && v.r.k->nframes == t->k->nframes + 2 &&
           !strcmp(v.r.k->frames[t->k->nframes].func, "(debugger)") &&
           v.r.k->frames[t->k->nframes + 1].parent == t->k->nframes,
           "frames: the kernel's, the expression's, then the helper's under it");
    v = eval_at(t, at_store, "writer(x_ptr)", 0, 0);
    TAP_STR_EQ(v.err, "k.tk:21:5: error: tl.store cannot be used in a debugger expression "
               "(it writes memory); show values without changing the program\n"
               "    tl.store(p, 1.0)\n"
               "    ^~~~~~~~~~~~~~~~\n"
               "<expr>:1:1: note: in 'writer', called from here\n"
               "writer(x_ptr)\n"
               "^~~~~~~~~~~~~\n", "a helper that stores is refused where it stores");
    v = eval_at(t, 10, "b + k", 0, 0);
    TAP_STR_EQ(type_of(&v, 0), "fp32[4]", "a helper's names at a helper's statement");
    v = eval_at(t, 10, "x", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:1: error: name 'x' is not defined",
               "the kernel's names are not visible in a helper");

    /* errors, with their positions in the expression */
    v = eval_at(t, at_x, "offs + zz * 2", 0, 0);
    TAP_OK(!v.ok, "an undefined name fails");
    TAP_STR_EQ(first_line(&v), "<expr>:1:8: error: name 'zz' is not defined",
               "... and says where");
    v = eval_at(t, 1, "offs", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:1: error: 'offs' has no value here yet: kern() "
               "assigns it at line 9", "a name assigned by the statement itself has no value "
               "yet, and the message says where it gets one");
    v = eval_at(t, at_store, "y + 1", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:1: error: 'y' is not defined here: it is assigned "
               "in only one branch of the 'if' at line 16", "a one-branch name says why");
    v = eval_at(t, at_x, "tl.store(x_ptr + offs, offs)", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:1: error: tl.store cannot be used in a debugger "
               "expression (it writes memory); show values without changing the program",
               "tl.store is refused");
    v = eval_at(t, at_x, "tl.atomic_add(x_ptr, 1.0)", 0, 0);
    TAP_OK(!v.ok && strstr(v.err, "tl.atomic_add cannot be used in a debugger expression"),
           "atomics are refused");
    v = eval_at(t, at_x, "print(offs)", 0, 0);
    TAP_OK(!v.ok && strstr(v.err, "print cannot be used in a debugger expression"),
           "print is refused");
    /* The other built-ins that print, check or stop: refused before they
     * emit anything (tl.static_print would print while compiling). */
    static const char *const effects[][2] = {
        {"tl.static_print(offs)", "<expr>:1:1: error: tl.static_print cannot be used"},
        {"1 + tl.device_print('v', offs)", "<expr>:1:5: error: tl.device_print cannot"},
        {"tl.device_assert(offs >= 0)", "<expr>:1:1: error: tl.device_assert cannot be"},
        {"breakpoint()", "<expr>:1:1: error: breakpoint cannot be used"},
        {"tl.atomic_cas(x_ptr, 1.0, 2.0)", "<expr>:1:1: error: tl.atomic_cas cannot be"},
    };
    for (size_t i = 0; i < sizeof effects / sizeof effects[0]; i++) {
        v = eval_at(t, at_x, effects[i][0], 0, 0);
        TAP_OK(!v.ok && !strncmp(v.err, effects[i][1], strlen(effects[i][1])),
               "%s is refused where it is called", effects[i][0]);
    }
    v = eval_at(t, at_x, "tl", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:1: error: this is the module triton.language, which "
               "the debugger cannot show; a debugger expression must give a tile, a number "
               "or another constant", "a module is not a value to show");
    v = eval_at(t, at_x, "offs +", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:7: error: expected an expression, found end of line",
               "a syntax error in the expression");
    v = eval_at(t, at_x, "offs mask", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:6: error: invalid syntax: found NAME 'mask' after "
               "the end of the expression; maybe a missing ',' or operator?",
               "trailing junk is an error");
    v = eval_at(t, at_x, "", 0, 0);
    TAP_STR_EQ(first_line(&v), "<expr>:1:1: error: expected an expression, found end of file",
               "an empty expression is an error");
}

/* The built-in table states each entry's effects (spec_builtin_effects),
 * and the debugger refuses the calls of those that have some.  A new
 * built-in whose name says it writes, prints, checks or stops must be
 * flagged; one that is not fails here.  The names below are the last part
 * of a qualified name ("store" for "triton.language.store"). */
static bool name_has_effect_word(const char *qual)
{
    static const char *const words[] = {
        "store", "atomic", "print", "assert", "breakpoint", "set_trace", NULL,
    };
    const char *dot = strrchr(qual, '.');
    const char *name = dot ? dot + 1 : qual;
    for (int i = 0; words[i]; i++)
        if (strstr(name, words[i]))
            return true;
    return false;
}

static void test_effects(tk *t)
{
    /* checks only while compiling: a failed static_assert is a compile
     * error, never an effect of the running program */
    static const char *const pure_despite_name[] = {"triton.language.static_assert", NULL};
    const int known = SPEC_FX_NONE | SPEC_FX_WRITES | SPEC_FX_PRINTS | SPEC_FX_STOPS;
    int n = 0, nflagged = 0;
    for (int i = 0; spec_builtin_name(i); i++, n++) {
        const char *q = spec_builtin_name(i);
        int fx = spec_builtin_effects(i);
        TAP_OK(fx > 0 && !(fx & ~known) && (fx == SPEC_FX_NONE || !(fx & SPEC_FX_NONE)),
               "the table states the effects of %s", q);
        bool exempt = false;
        for (int j = 0; pure_despite_name[j]; j++)
            exempt |= !strcmp(q, pure_despite_name[j]);
        bool want = name_has_effect_word(q) && !exempt;
        TAP_OK(want == (fx != SPEC_FX_NONE), "%s is %s", q,
               want ? "flagged as having effects" : "flagged as pure");
        nflagged += fx != SPEC_FX_NONE;
        /* the debugger refuses it by its flag, before binding arguments */
        const char *call = !strncmp(q, "triton.language.", 16) ? q + 16
                           : !strncmp(q, "builtins.", 9)       ? q + 9
                                                                : NULL;
        if (fx == SPEC_FX_NONE || !call)
            continue;
        char shown[64], text[96], want_err[192];
        snprintf(shown, sizeof shown, "%s%s", q[0] == 't' ? "tl." : "", call);
        snprintf(text, sizeof text, "%s()", shown);
        snprintf(want_err, sizeof want_err, "<expr>:1:1: error: %s cannot be used in a "
                 "debugger expression (it %s); show values without changing the program",
                 shown, fx & SPEC_FX_WRITES ? "writes memory" : "has side effects");
        ev v = eval_at(t, 3, text, 0, 0);
        TAP_STR_EQ(first_line(&v), want_err, "the debugger refuses %s", text);
    }
    TAP_OK(n > 90 && nflagged >= 17, "%d built-ins, %d with effects", n, nflagged);
    TAP_OK(spec_builtin_effects(n) == -1 && spec_builtin_effects(-1) == -1,
           "no effects past the table's ends");
}

/* sp_same, which the merge after a runtime if and the snapshots share:
 * 0.0 and -0.0 are two constants, so z is merged into a tile; x.sum and
 * y.sum are two methods, which cannot be merged (an error, where z = x.sum
 * once went on with x.sum on both paths). */
static const char *const merge_text =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def zero(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    if n > 0:\n"
    "        z = 0.0\n"
    "    else:\n"
    "        z = -0.0\n"
    "    tl.store(x_ptr, 1.0 / z)\n"
    "@triton.jit\n"
    "def meth(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    x = tl.load(x_ptr + tl.arange(0, BLOCK))\n"
    "    y = x + 1.0\n"
    "    if n > 0:\n"
    "        f = x.sum\n"
    "    else:\n"
    "        f = y.sum\n"
    "    tl.store(x_ptr, f())\n";

static void test_merge(const spec_param *params)
{
    tk t;
    bool ok = tk_build(&t, merge_text, "zero", params, true);
    TAP_OK(ok, "z = 0.0 or -0.0 specializes (no constant division by zero)");
    if (ok) {
        ev v = eval_at(&t, stmt_at(t.k, 9, 0), "z", 0, 0);
        TAP_STR_EQ(type_of(&v, 0), "fp32", "... and z is a tile after the if");
    }
    tk_free(&t);
    printf("# an error about the method .sum is expected here:\n");
    ok = tk_build(&t, merge_text, "meth", params, true);
    TAP_OK(!ok, "f = x.sum or y.sum is refused");
    tk_free(&t);
}

/* pid shadows a kernel variable named pid; a dump shows the statements. */
static void test_dump(tk *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ir_dump(t->k, f);
    fclose(f);
    TAP_OK(buf && strstr(buf, "      ; 8: stmt 0\n   2: program_id"),
           "ir_dump shows where statement 0 starts");
    TAP_OK(buf && strstr(buf, "; 12: stmt 4\n      ; 13: stmt 5\n"),
           "statements without code are listed together");
    free(buf);
}

int main(void)
{
    tk t;
    spec_param params[3] = {
        {.dt = dtype_ptr_to(DTYPE_FP32)},
        {.dt = DTYPE_INT32},
        {.is_const = true, .c = {.kind = SC_INT, .u.i = 4}},
    };
    bool ok = tk_build(&t, text, "kern", params, true);
    TAP_OK(ok, "the kernel specializes");
    if (ok) {
        test_statements(&t);
        test_vars(&t);
        test_eval(&t);
        test_effects(&t);
        test_dump(&t);
        ev v = eval_at(&t, 1, "pid", 7, 0);
        TAP_OK(v.ok && v.r.items[0].kind == SPEC_DBG_CONST &&
               v.r.items[0].c.kind == SC_TUPLE && v.r.items[0].c.u.tuple.n == 2 &&
               v.r.items[0].c.u.tuple.items[0].u.i == 7,
               "pid is the program id tuple, shadowing the kernel's pid");
    }
    ir_kernel *with = ok ? t.k : NULL;
    tk plain;
    ok = tk_build(&plain, text, "kern", params, false);
    TAP_OK(ok && plain.k->nstmts == 0 && !plain.k->stmts && !plain.k->inst_stmt &&
           !plain.k->debug, "without debug_info: no statement table, no scopes");
    bool same = ok && with && plain.k->ncode == with->ncode &&
                plain.k->nslots == with->nslots;
    for (int32_t pc = 0; same && pc < with->ncode; pc++) {
        const ir_inst *a = &plain.k->code[pc], *b = &with->code[pc];
        same = a->op == b->op && a->sub == b->sub && a->dst == b->dst && a->a == b->a &&
               a->b == b->b && a->c == b->c && a->d == b->d && a->imm == b->imm &&
               a->frame == b->frame &&
               !memcmp(&a->fimm, &b->fimm, sizeof a->fimm) && !a->at == !b->at &&
               (!a->at || (a->at->span.line == b->at->span.line &&
                           a->at->span.col == b->at->span.col));
    }
    TAP_OK(same, "... and the same code");
    test_merge(params);
    tk_free(&plain);
    tk_free(&t);
    for (int i = 0; i < nexpr_files; i++)
        src_free(expr_files[i]);
    return tap_done();
}
