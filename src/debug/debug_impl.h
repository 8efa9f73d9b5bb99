/* debug_impl.h - what debug.c (the engine: launches, stops, expressions)
 * and debug_cmd.c (the REPL and its commands) share.  Not for other
 * modules: their interface is debug.h. */
#ifndef TRITSIM_DEBUG_IMPL_H
#define TRITSIM_DEBUG_IMPL_H

#include <signal.h>
#include <stdio.h>
#include <stdint.h>

#include "arena.h"
#include "debug.h"
#include "exec.h"
#include "spec.h"
#include "strbuf.h"

/* An expression typed by the user (a condition, a watch, a display), kept
 * parsed. */
typedef struct dbg_expr {
    char *text;
    src_file *file;          /* "<expr>", holding the text */
    arena a;
    ast_node *e;
    uint64_t id;             /* never reused, unlike the address */
    bool uses_pid;           /* the name pid appears in it */
} dbg_expr;

typedef enum dbg_bp_kind { DBG_BREAK, DBG_WATCH } dbg_bp_kind;

typedef struct dbg_bp {
    int num;
    dbg_bp_kind kind;
    bool enabled, temporary;
    int line;                /* DBG_BREAK */
    char *file;              /* DBG_BREAK: the file named, NULL: the program's */
    dbg_expr *expr;          /* DBG_BREAK: the condition (or NULL); DBG_WATCH: what */
    int64_t hits;
    /* DBG_WATCH: the frame it watches in (the one it was set in, or the
     * first it could be evaluated in; -1 not yet), as gdb scopes a watch on
     * a local to its frame; the value last seen there, in program old_pid */
    int32_t frame;
    bool have_old;
    int64_t old_pid;
    exec_tile old;
    /* DBG_WATCH: program absent_pid stood where the expression had no
     * value yet (a variable not assigned): its first value is reported */
    bool absent;
    int64_t absent_pid;
} dbg_bp;

typedef struct dbg_display {
    int num;
    dbg_expr *expr;
    bool hex;
} dbg_display;

/* What the running program does until the next stop. */
typedef enum dbg_mode {
    DBG_CONTINUE,            /* until a breakpoint, watchpoint or breakpoint() */
    DBG_STEP,                /* the next statement, into helpers */
    DBG_NEXT,                /* the next statement of this function or its callers */
    DBG_FINISH,              /* until the function returns to its caller */
    DBG_UNTIL,               /* until line until_line, or a later line (0) */
    DBG_STOP,                /* the next statement of whatever program runs */
} dbg_mode;

/* A program of the launch that is neither the focus nor finished, and the
 * statement it stands at (as dbg_launch.focus_stmt). */
typedef struct dbg_paused {
    exec_prog *P;
    int32_t stmt;
} dbg_paused;

/* The launch being debugged. */
typedef struct dbg_launch {
    host *h;
    const exec_launch *L;
    const ir_kernel *k;
    exec_sess *S;
    int32_t *first_stmt;     /* per pc: the first statement starting there, or -1 */
    int32_t *last_stmt;      /* per pc: the last one */
    uint8_t *started;        /* per program: started (maybe finished) */
    int64_t next;            /* programs below it have all started */
    int64_t done;            /* programs finished */
    dbg_paused *paused;      /* started, not finished, not the focus */
    int npaused, cappaused;
    exec_prog *focus;
    /* Several statements can start at one pc (a call's line, then the first
     * line of the helper it calls; a statement that emitted no code, then
     * the next one): the focus stops at each of them in turn, and
     * focus_stmt says at which.  -1: none in particular (mid-statement, or
     * running: the last of them). */
    int32_t focus_stmt;
    bool focus_fresh;        /* just started: nothing checked where it stands yet */
    int frame_sel;           /* `frame N`: 0 the innermost */
    bool failed;             /* a program failed: the launch ends */
    /* Breakpoint conditions (dbg_expr.id) without pid, at statements where
     * they needed a program's data: they need it in every program (only
     * pid differs between them), so they are not compiled again for each
     * (dbg_pool_end). */
    struct dbg_data_cond { uint64_t id; int32_t stmt; } *data_conds;
    int ndata_conds, capdata_conds;
    struct dbg_stoppers *stoppers;   /* debug.c's, reused by each decision */
} dbg_launch;

struct debug {
    debug_opts o;
    dbg_bp *bps;
    int nbps, capbps, next_num;
    dbg_display *disps;
    int ndisps, capdisps, next_disp;
    dbg_launch *cur;         /* the launch stopped in, or NULL */
    bool running;            /* the program is running (run was given) */
    bool session;            /* tritsim debug: every launch goes through here */
    bool kill, quit;         /* unwind the program; then leave tritsim */
    int nvalues;             /* $1, $2, ... */
    dbg_mode mode;
    int mode_depth, mode_line, until_line;
    int list_line;           /* where `list` goes on */
    int64_t last_pid;        /* the program of the last stop shown */
    int32_t last_frame;
    char *last_cmd;          /* an empty line repeats it, as in gdb */
    int argc;                /* tritsim debug FILE -- ARGS: `run`'s default */
    char **argv;             /* argv[0] the file */
    char *run_args;          /* the ARGS of the last `run ARGS`, which a plain `run`
                                reuses (as gdb and pdb do); NULL: argv's */
    FILE *say;               /* where `break` says what is wrong: stdout at the
                                prompt, stderr for tritsim run --break */
    bool sigint_set;         /* on a terminal: SIGINT is ours while we live */
    struct sigaction old_sigint;
};

/* Set by the SIGINT handler (installed on a terminal for the debugger's
 * whole life): a running launch stops, a prompt drops its line. */
extern volatile sig_atomic_t dbg_interrupted;
/* Nonzero while Ctrl-C is to be caught rather than end tritsim. */
extern volatile sig_atomic_t dbg_catching;

/* ---- debug.c ---------------------------------------------------------- */
/* Parse text as an expression; NULL after printing the error to out. */
dbg_expr *dbg_expr_new(const char *text, FILE *out);
void dbg_expr_free(dbg_expr *x);

/* A value of an expression evaluated in the stopped program. */
typedef struct dbg_value {
    spec_dbg_kind kind;
    spec_const c;            /* SPEC_DBG_CONST */
    exec_tile tile;          /* SPEC_DBG_TILE */
    bool has_mask;           /* a masked load's result: lanes of mask 0 are off */
    exec_tile mask;
    const char *what;        /* SPEC_DBG_OTHER */
} dbg_value;

typedef struct dbg_values {
    int n;
    dbg_value *v;
    arena a;                 /* the compiled expression */
} dbg_values;

/* Evaluate x in the focused program at the selected frame; false after
 * printing why (quiet: print nothing). */
bool dbg_eval(debug *g, dbg_expr *x, bool quiet, dbg_values *out);
void dbg_values_free(dbg_values *v);
/* `pid` is the program id tuple, so `pid == 1` (in a 1-d grid, say) or
 * `pid == (1, 0)` in a 3-d grid is never true, as in Python; in a
 * breakpoint's condition that silently never stops.  Report a comparison of
 * pid with a number, or (rank > 0: the grid's) its equality with a tuple of
 * another length, at that comparison in e (parsed from f); false then. */
bool dbg_pid_compare_ok(const ast_node *e, const src_file *f, int rank, diag_sink *d);
/* The statement a program at pc is at: the one starting there, or
 * (mid-statement, after Ctrl-C or a failure) the one its next instruction
 * belongs to; -1 when there is none. */
int32_t dbg_stmt_at(const dbg_launch *D, int32_t pc);
/* The statement program P stands at, stmt (its focus_stmt or
 * dbg_paused.stmt) when that starts at P's pc, else dbg_stmt_at's. */
int32_t dbg_prog_stmt(const dbg_launch *D, const exec_prog *P, int32_t stmt);
/* The statement the focused program is at (in the selected frame). */
int32_t dbg_cur_stmt(const debug *g);
/* The depth of a frame (0 the kernel). */
int dbg_frame_depth(const ir_kernel *k, int32_t frame);
/* Program coordinates as "(1, 0, 0)". */
void dbg_coord_str(const dbg_launch *D, int64_t pid, char *buf, size_t len);
/* Show where the focused program is: "program (1, 0, 0) at f.tk:12" when
 * it differs from the last stop (or always), then the source line. */
void dbg_show_where(debug *g, bool always);
/* Print one source line "12\t...". */
void dbg_print_line(const src_file *f, int line);
const src_file *dbg_frame_file(const dbg_launch *D, int32_t frame);
/* Switch the focus to program pid (starting it and running it to the
 * focus's place when needed).  false after printing why not. */
bool dbg_switch_program(debug *g, int64_t pid);
/* Does a breakpoint's FILE (NULL: any) name f, by its name or its base name? */
bool dbg_file_matches(const char *want, const src_file *f);
/* The mask slot of the masked load that is slot's only writer, or -1. */
int32_t dbg_load_mask(const ir_kernel *k, int32_t slot);
/* Evaluate watchpoint b here: true when its value changed since the last
 * time in this program (and report is set: then the change is printed). */
bool dbg_watch_hit(debug *g, dbg_bp *b, bool report);
/* Show one display (quiet: nothing when it cannot be evaluated here). */
void dbg_show_display(debug *g, const dbg_display *ds, bool quiet);
/* Show every display that can be evaluated here. */
void dbg_show_displays(debug *g);

/* ---- debug_cmd.c ---------------------------------------------------------- */
/* The prompt, inside a launch (stopped) or at the top (not running).
 * Returns when a command resumes the program (g->mode set), or at the top
 * when the user quits. */
void dbg_repl(debug *g);
/* Print a value: "$1 = fp32[8] ..." (name NULL: numbered), hex for p/x. */
void dbg_print_value(debug *g, const char *name, const dbg_value *v, bool hex, strbuf *out);
void dbg_repl_init(debug *g);
void dbg_repl_done(debug *g);

#endif
