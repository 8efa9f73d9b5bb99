/* main.c - the command line: subcommands, options (getopt_long), exit
 * statuses.  0 success, 1 a program or kernel error, 2 a usage error. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <sys/resource.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "ast.h"
#include "backend.h"
#include "diag.h"
#include "debug.h"
#include "host.h"
#include "lex.h"
#include "modules.h"
#include "parse.h"
#include "teach.h"
#include "val.h"
#include "viz.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.0-dev"
#endif

enum { EXIT_PROGRAM = 1, EXIT_USAGE = 2 };

static const char main_usage[] =
    "Usage: tritsim COMMAND [OPTIONS] FILE\n"
    "Run Triton-style tile kernels (Python syntax) on the CPU.\n"
    "\n"
    "Commands:\n"
    "  run FILE [-- ARGS]   run a program\n"
    "  debug FILE [-- ARGS] run a program under the kernel debugger (type `help`)\n"
    "  parse FILE           check a program's syntax\n"
    "  exercises            list the exercises, with your progress in this folder\n"
    "  exercise NAME        write the exercise's starting file NAME.tk here (never\n"
    "                       over an existing file)\n"
    "  check FILE           grade an exercise: its kernel against a reference on\n"
    "                       several sizes, blocks and grids, and what went wrong\n"
    "\n"
    "Options of run and debug:\n"
    "  -t, --threads N      run programs of a launch on N threads (default: cores)\n"
    "  -b, --backend NAME   where kernels run: cpu (the default), cuda (an\n"
    "                       NVIDIA GPU: needs its driver and NVRTC) or hip (an\n"
    "                       AMD GPU: needs ROCm's libamdhip64 and libhiprtc)\n"
    "      --unchecked      GPU backends: kernels without bounds checks or\n"
    "                       device assertions, launched without waiting (faster;\n"
    "                       the CPU always checks)\n"
    "      --target GPU     the GPU the simulation answers device queries for\n"
    "                       (torch.cuda, triton.runtime.driver): h100 (the\n"
    "                       default), b200 (Blackwell, capability 10.0) or mi300x\n"
    "                       (AMD code paths: torch.version.hip; what --backend hip\n"
    "                       answers)\n"
    "      --break SPEC     stop at a kernel line and open the debugger: LINE,\n"
    "                       FILE:LINE or FUNCTION, with ' if COND' if wanted\n"
    "                       (e.g. '14 if pid == (1, 0)')\n"
    "      --no-break       ignore breakpoint() and breakpoint_if() in kernels\n"
    "                       (without a terminal they print where they would stop)\n"
    "      --dump-ir[=KERNEL]\n"
    "                       print each kernel's IR (or KERNEL's only) on stderr\n"
    "                       when it is specialized: a header with the argument\n"
    "                       types and constexprs, then one instruction a line\n"
    "      --dump-cuda[=KERNEL]\n"
    "                       print the CUDA C++ the GPU backends make of each\n"
    "                       kernel (or KERNEL's only) on stderr, at its first\n"
    "                       launch with each num_warps, on any backend\n"
    "      --dump-hip[=KERNEL]\n"
    "                       the same for the HIP C++ of the HIP backend (an AMD\n"
    "                       GPU of 64-lane wavefronts, as MI200 and MI300)\n"
    "      --racecheck      report two programs of a launch that touch the same\n"
    "                       element where one access is a plain store (or one\n"
    "                       plain, one atomic): the run stops with an error\n"
    "      --initcheck      report reads, by kernels and by the host, of elements\n"
    "                       of torch.empty (empty_like, empty_strided, ...) tensors\n"
    "                       that nothing has written: the run stops with an error\n"
    "                       (both checkers run on the CPU backend only)\n"
    "      --viz[=DIR]      run only: draw which program loaded and stored each\n"
    "                       element of each tensor argument of each launch: a\n"
    "                       PNG per tensor, a text map per launch and a page to\n"
    "                       step through the programs, DIR/index.html (DIR is\n"
    "                       FILE's name without .tk, plus -viz, by default)\n"
    "\n"
    "Options of check:\n"
    "      --hint           show the next hint instead (one more each time;\n"
    "                       progress is kept in .tritsim-progress beside FILE)\n"
    "\n"
    "Options of parse:\n"
    "      --ast            print the syntax tree as an S-expression\n"
    "      --spans          with --ast, show each node's line:col span\n"
    "      --tokens         print the tokens, one per line\n"
    "\n"
    "  -h, --help           show this help and exit\n"
    "  -V, --version        show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 the program or a kernel failed (check: the\n"
    "exercise is not solved yet), 2 usage error.\n"
    "Set NO_COLOR to turn colour off in messages.\n";

/* Print a usage error, point at --help, and return the usage status. */
static int main_usage_error(const char *fmt, const char *arg)
{
    fputs("tritsim: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'tritsim --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* --backend NAME cannot run here: say what is missing (why) and how to
 * run anyway. */
static void main_no_backend(const char *name, const char *why)
{
    fprintf(stderr, "tritsim: cannot run kernels with --backend %s: %s\n", name, why);
    fputs("tritsim: run them on the CPU with --backend cpu (the default); --target h100, "
          "--target b200 or --target mi300x chooses the GPU the simulation answers device "
          "queries for\n",
          stderr);
}

/* getopt_long's own message has been printed; add the hint. */
static int main_bad_option(void)
{
    fputs("Try 'tritsim --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

static src_file *main_read_source(const char *path)
{
    src_file *f = src_read(path);
    if (!f && errno == EFBIG)
        fprintf(stderr, "tritsim: cannot read '%s': it has more than %zu bytes, the most "
                "tritsim reads as a program\n", path, SRC_MAX_BYTES);
    else if (!f && errno == ENODEV)
        fprintf(stderr, "tritsim: cannot read '%s': it is a device, not a file; give a "
                "program file (or a pipe)\n", path);
    else if (!f)
        fprintf(stderr, "tritsim: cannot read '%s': %s\n", path, strerror(errno));
    return f;
}

typedef enum { PARSE_CHECK, PARSE_AST, PARSE_TOKENS } parse_mode;

static int main_parse(int argc, char **argv)
{
    enum { OPT_AST = 256, OPT_SPANS, OPT_TOKENS };
    static const struct option opts[] = {
        {"ast", no_argument, NULL, OPT_AST},
        {"spans", no_argument, NULL, OPT_SPANS},
        {"tokens", no_argument, NULL, OPT_TOKENS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    parse_mode mode = PARSE_CHECK;
    bool spans = false;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_AST: mode = PARSE_AST; break;
        case OPT_SPANS: spans = true; break;
        case OPT_TOKENS: mode = PARSE_TOKENS; break;
        case 'h': fputs(main_usage, stdout); return 0;
        default: return main_bad_option();
        }
    }
    if (optind >= argc)
        return main_usage_error("parse: %s", "missing FILE");
    if (optind + 1 < argc)
        return main_usage_error("parse: unexpected argument '%s'", argv[optind + 1]);
    if (spans && mode != PARSE_AST)
        return main_usage_error("parse: %s", "--spans goes with --ast");

    src_file *f = main_read_source(argv[optind]);
    if (!f)
        return EXIT_USAGE;
    diag_sink d;
    diag_sink_init(&d, stderr);
    if (mode == PARSE_TOKENS) {
        lex_dump(f, &d, stdout);
    } else {
        arena a;
        arena_init(&a);
        ast_node *m = parse_file(f, &d, &a);
        if (mode == PARSE_AST && d.nerrors == 0)
            ast_print(stdout, m, spans);
        arena_free(&a);
    }
    int status = d.nerrors ? EXIT_PROGRAM : 0;
    src_free(f);
    return status;
}

/* One program to run (tritsim run, or each `run` of the debugger). */
typedef struct main_prog {
    const src_file *f;
    const ast_node *m;
    int threads;
    const char *backend;
    host_target target;
    bool no_break;
    bool unchecked;
    bool racecheck, initcheck;  /* --racecheck, --initcheck */
    const char *dump_ir;    /* --dump-ir: "" every kernel, else a kernel's name */
    const char *dump_cuda;  /* --dump-cuda or --dump-hip: the same */
    bool dump_hip;          /* --dump-hip: dump_cuda lists HIP */
    const char *viz_dir;    /* --viz: the pictures' folder, or NULL */
} main_prog;

/* --viz: the host's recorder (host.h) draws each launch (viz.h). */
static access_log *main_viz_begin(void *ctx, const char *kernel, const int64_t grid[3],
                                  int rank, int nparams, const alog_arg *args)
{
    (void)rank;
    return viz_launch_begin(ctx, kernel, grid, nparams, args);
}

static void main_viz_end(void *ctx, access_log *log, bool ok)
{
    (void)log;
    viz_launch_end(ctx, ok);
}

/* Run the program once on a fresh host; its exit status. */
static int main_exec(void *ctx, debug *g, int argc, char **argv)
{
    main_prog *p = ctx;
    diag_sink d;
    diag_sink_init(&d, stderr);
    host *h = host_new(&d, p->f);
    h->threads = p->threads;
    h->backend = p->backend;
    h->target = p->target;
    h->debugger = g;
    h->no_break = p->no_break;
    h->unchecked = p->unchecked;
    h->racecheck = p->racecheck;
    h->initcheck = p->initcheck;
    h->dump_ir = p->dump_ir;
    h->dump_cuda = p->dump_cuda;
    h->dump_hip = p->dump_hip;
    modules_init(h);
    viz *v = NULL;
    if (p->viz_dir && !(v = viz_open(p->viz_dir, p->f->name))) {
        host_free(h);
        return EXIT_USAGE;
    }
    host_recorder rec = {.ctx = v, .begin = main_viz_begin, .end = main_viz_end};
    if (v)
        h->recorder = &rec;
    int status = host_run_file(h, p->m, argc, argv);
    /* the pictures of a failed run too: an out-of-bounds lane is a lesson */
    if (!viz_close(v) && status == 0)
        status = EXIT_PROGRAM;
    h->recorder = NULL;
    /* Which kernels run can depend on the program's input, so a name that
     * matched nothing is a warning, not a failure of the run. */
    if (status == 0 && p->dump_ir && *p->dump_ir && h->ir_dumped == 0)
        fprintf(stderr, "tritsim: warning: --dump-ir=%s: no kernel named '%s' was "
                "launched\n", p->dump_ir, p->dump_ir);
    host_free(h);
    return status;
}

static int main_run(int argc, char **argv, bool debugging)
{
    enum { OPT_BREAK = 256, OPT_NO_BREAK, OPT_TARGET, OPT_DUMP_IR, OPT_DUMP_CUDA, OPT_DUMP_HIP,
           OPT_UNCHECKED, OPT_VIZ, OPT_RACECHECK, OPT_INITCHECK };
    static const struct option opts[] = {
        {"threads", required_argument, NULL, 't'},
        {"backend", required_argument, NULL, 'b'},
        {"target", required_argument, NULL, OPT_TARGET},
        {"break", required_argument, NULL, OPT_BREAK},
        {"no-break", no_argument, NULL, OPT_NO_BREAK},
        {"dump-ir", optional_argument, NULL, OPT_DUMP_IR},
        {"dump-cuda", optional_argument, NULL, OPT_DUMP_CUDA},
        {"dump-hip", optional_argument, NULL, OPT_DUMP_HIP},
        {"unchecked", no_argument, NULL, OPT_UNCHECKED},
        {"viz", optional_argument, NULL, OPT_VIZ},
        {"racecheck", no_argument, NULL, OPT_RACECHECK},
        {"initcheck", no_argument, NULL, OPT_INITCHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    main_prog prog = {.backend = "cpu", .target = HOST_TARGET_H100};
    bool target_set = false;
    const char *breaks[64];
    int nbreaks = 0;
    bool viz = false;
    const char *viz_dir = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "t:b:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': {
            char *end;
            errno = 0;
            long n = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || n < 1 || n > 4096)
                return main_usage_error("run: --threads wants a number from 1 to 4096, "
                                        "not '%s'", optarg);
            prog.threads = (int)n;
            break;
        }
        case 'b': {
            const backend *be;
            strbuf why = {0};
            backend_status st = backend_select(optarg, &be, &why);
            if (st == BACKEND_UNKNOWN)
                return main_usage_error("run: unknown backend '%s' (use cpu, cuda or hip)",
                                        optarg);
            if (st == BACKEND_UNAVAILABLE) {
                main_no_backend(optarg, strbuf_cstr(&why));
                strbuf_free(&why);
                return EXIT_USAGE;
            }
            prog.backend = be->name;
            break;
        }
        case OPT_TARGET:
            target_set = true;
            if (!strcmp(optarg, "h100"))
                prog.target = HOST_TARGET_H100;
            else if (!strcmp(optarg, "mi300x"))
                prog.target = HOST_TARGET_MI300X;
            else if (!strcmp(optarg, "b200"))
                prog.target = HOST_TARGET_B200;
            else
                return main_usage_error("run: unknown target '%s' (use h100, b200 or "
                                        "mi300x)", optarg);
            break;
        case OPT_BREAK:
            if (nbreaks == 64)
                return main_usage_error("run: %s", "at most 64 --break options");
            breaks[nbreaks++] = optarg;
            break;
        case OPT_NO_BREAK: prog.no_break = true; break;
        case OPT_UNCHECKED: prog.unchecked = true; break;
        case OPT_RACECHECK: prog.racecheck = true; break;
        case OPT_INITCHECK: prog.initcheck = true; break;
        case OPT_DUMP_IR:
            if (optarg && !*optarg)
                return main_usage_error("run: %s", "--dump-ir= wants a kernel's name");
            prog.dump_ir = optarg ? optarg : "";
            break;
        case OPT_DUMP_CUDA:
        case OPT_DUMP_HIP: {
            const char *opt = c == OPT_DUMP_HIP ? "--dump-hip" : "--dump-cuda";
            if (optarg && !*optarg)
                return main_usage_error("run: %s= wants a kernel's name", opt);
            if (prog.dump_cuda && prog.dump_hip != (c == OPT_DUMP_HIP))
                return main_usage_error("run: %s", "--dump-cuda and --dump-hip: one or the "
                                        "other");
            prog.dump_cuda = optarg ? optarg : "";
            prog.dump_hip = c == OPT_DUMP_HIP;
            break;
        }
        case OPT_VIZ:
            if (optarg && !*optarg)
                return main_usage_error("run: %s", "--viz= wants a folder");
            viz = true;
            viz_dir = optarg;
            break;
        case 'h': fputs(main_usage, stdout); return 0;
        default: return main_bad_option();
        }
    }
    if (optind >= argc)
        return main_usage_error("%s", debugging ? "debug: missing FILE" : "run: missing FILE");
    /* kernels on an AMD GPU: device queries describe one */
    if (!strcmp(prog.backend, "hip")) {
        if (target_set && prog.target != HOST_TARGET_MI300X)
            return main_usage_error("run: %s", "--backend hip runs kernels on an AMD GPU: "
                                    "--target h100 or b200 would describe an NVIDIA "
                                    "one");
        prog.target = HOST_TARGET_MI300X;
    }
    if (viz && debugging)
        return main_usage_error("debug: %s", "--viz goes with run, not debug");
    if (viz && strcmp(prog.backend, "cpu"))
        return main_usage_error("run: --viz records the CPU backend's launches, not "
                                "--backend %s's", prog.backend);
    char viz_default[4096];
    if (viz && !viz_dir) {
        /* FILE's name without its folder and .tk, plus -viz, here */
        const char *base = strrchr(argv[optind], '/');
        base = base ? base + 1 : argv[optind];
        size_t n = strlen(base);
        if (n > 3 && !strcmp(base + n - 3, ".tk"))
            n -= 3;
        snprintf(viz_default, sizeof viz_default, "%.*s-viz", (int)(n < 4000 ? n : 4000), base);
        viz_dir = viz_default;
    }
    prog.viz_dir = viz_dir;
    /* The debugger steps the CPU executor itself (backend.h), and only
     * the CPU executor sees every access for the checkers. */
    bool on_cpu = !strcmp(prog.backend, "cpu");
    if (!on_cpu && (prog.racecheck || prog.initcheck)) {
        fprintf(stderr, "tritsim: %s: the checkers run kernels on the CPU backend only, "
                "not on --backend %s; check without --backend (or with --backend cpu)\n",
                prog.racecheck ? "--racecheck" : "--initcheck", prog.backend);
        return EXIT_USAGE;
    }
    if (!on_cpu && (debugging || nbreaks)) {
        fprintf(stderr, "tritsim: %s: the debugger runs kernels on the CPU backend only, "
                "not on --backend %s; debug without --backend (or with --backend cpu)\n",
                debugging ? "debug" : "--break", prog.backend);
        return EXIT_USAGE;
    }

    src_file *f = main_read_source(argv[optind]);
    if (!f)
        return EXIT_USAGE;
    diag_sink d;
    diag_sink_init(&d, stderr);
    arena a;
    arena_init(&a);
    ast_node *m = parse_file(f, &d, &a);
    int status = EXIT_PROGRAM;
    if (d.nerrors == 0) {
        prog.f = f;
        prog.m = m;
        /* A debugger when asked for, or when a breakpoint() in a kernel
         * could stop with someone at the terminal to answer. */
        bool tty = isatty(STDIN_FILENO);
        debug *g = NULL;
        if (debugging || nbreaks || (on_cpu && tty && !prog.no_break)) {
            debug_opts o = {.file = f, .module = m, .run = main_exec, .run_ctx = &prog,
                            .no_break = prog.no_break, .tty = tty};
            g = debug_new(&o);
        }
        bool ok = true;
        for (int i = 0; i < nbreaks && ok; i++)
            ok = debug_break(g, breaks[i]);
        /* The program's sys.argv: FILE and what follows it (getopt_long has
         * moved the options, and a "--", in front of FILE). */
        if (!ok)
            status = EXIT_USAGE;
        else if (debugging)
            status = debug_main(g, argc - optind, argv + optind);
        else if (g)
            status = debug_run(g, argc - optind, argv + optind);
        else
            status = main_exec(&prog, NULL, argc - optind, argv + optind);
        debug_free(g);
        val_free_all();
    }
    arena_free(&a);
    src_free(f);
    return status;
}

/* tritsim check [--hint] FILE */
static int main_check(int argc, char **argv)
{
    enum { OPT_HINT = 256 };
    static const struct option opts[] = {
        {"hint", no_argument, NULL, OPT_HINT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool hint = false;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_HINT: hint = true; break;
        case 'h': fputs(main_usage, stdout); return 0;
        default: return main_bad_option();
        }
    }
    if (optind >= argc)
        return main_usage_error("check: %s", "missing FILE");
    if (optind + 1 < argc)
        return main_usage_error("check: unexpected argument '%s'", argv[optind + 1]);
    return teach_check(argv[optind], hint, modules_init, stdout);
}

static int main_command(int argc, char **argv)
{
    if (argc < 2)
        return main_usage_error("%s", "missing COMMAND");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        fputs(main_usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        printf("tritsim %s\n", PACKAGE_VERSION);
        return 0;
    }
    /* Subcommands parse their own options from argv[1] on; getopt_long
     * names argv[0] in its messages, so make that "tritsim CMD". */
    static char run_name[] = "tritsim run", parse_name[] = "tritsim parse",
                debug_name[] = "tritsim debug";
    if (!strcmp(cmd, "run")) {
        argv[1] = run_name;
        return main_run(argc - 1, argv + 1, false);
    }
    if (!strcmp(cmd, "debug")) {
        argv[1] = debug_name;
        return main_run(argc - 1, argv + 1, true);
    }
    if (!strcmp(cmd, "parse")) {
        argv[1] = parse_name;
        return main_parse(argc - 1, argv + 1);
    }
    if (!strcmp(cmd, "check")) {
        static char check_name[] = "tritsim check";
        argv[1] = check_name;
        return main_check(argc - 1, argv + 1);
    }
    if (!strcmp(cmd, "exercises")) {
        if (argc > 2)
            return main_usage_error("exercises: unexpected argument '%s'", argv[2]);
        return teach_list(stdout);
    }
    if (!strcmp(cmd, "exercise")) {
        if (argc < 3)
            return main_usage_error("exercise: %s", "missing NAME (tritsim exercises lists "
                                    "them)");
        if (argc > 3)
            return main_usage_error("exercise: unexpected argument '%s'", argv[3]);
        return teach_start(argv[2], stdout);
    }
    if (cmd[0] == '-')
        return main_usage_error("unknown option '%s'", cmd);
    return main_usage_error("unknown command '%s' (commands: run, debug, parse, exercises, "
                            "exercise, check)", cmd);
}

/* Output is buffered, so a write that failed (a full disk, /dev/full, a
 * closed stdout) shows only when it is flushed: flush both streams at exit
 * and fail the run if either lost output.  A lost stderr cannot say so. */
static int main_finish_output(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;      /* 0 when the write failed before (its reason is lost) */
        fprintf(stderr, "tritsim: cannot write to standard output: %s; output was lost\n",
                e ? strerror(e) : "a write failed");
        status = status ? status : EXIT_PROGRAM;
    }
    if (fflush(stderr) != 0 || ferror(stderr))
        status = status ? status : EXIT_PROGRAM;
    return status;
}

/* The main stack may grow to this: HOST_MAX_DEPTH nested calls, however
 * many C frames each level takes (a repr through a class's __repr__ is a
 * dozen; sanitizer builds make them three times larger), end in Python's
 * RecursionError, not in a crash.  Raising the soft limit at the start
 * lets the kernel grow the stack that far; it is used only as deep as the
 * program goes. */
enum { MAIN_STACK = 64 << 20 };

static void main_raise_stack_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= MAIN_STACK)
        return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > MAIN_STACK ? MAIN_STACK
                                                                             : rl.rlim_max;
    setrlimit(RLIMIT_STACK, &rl);   /* at worst the limit stays as it was */
}

int main(int argc, char **argv)
{
    main_raise_stack_limit();
    return main_finish_output(main_command(argc, argv));
}
