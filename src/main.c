/* main.c - the command line: subcommands, options (getopt_long), exit
 * statuses.  0 success, 1 a program or kernel error, 2 a usage error. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argparsemod.h"
#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "host.h"
#include "lex.h"
#include "parse.h"
#include "torchmod.h"
#include "tritonmod.h"
#include "visionmod.h"
#include "val.h"

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
    "  parse FILE           check a program's syntax\n"
    "\n"
    "Options of run:\n"
    "  -t, --threads N      run programs of a launch on N threads (default: cores)\n"
    "  -b, --backend NAME   cpu (default), cuda or hip\n"
    "\n"
    "Options of parse:\n"
    "      --ast            print the syntax tree as an S-expression\n"
    "      --spans          with --ast, show each node's line:col span\n"
    "      --tokens         print the tokens, one per line\n"
    "\n"
    "  -h, --help           show this help and exit\n"
    "  -V, --version        show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 the program or a kernel failed, 2 usage error.\n"
    "Set NO_COLOR to turn colour off in messages.\n";

/* Print a usage error, point at --help, and return the usage status. */
static int main_usage_error(const char *fmt, const char *arg)
{
    fputs("tritsim: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'tritsim --help' for more information.\n", stderr);
    return EXIT_USAGE;
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
    if (!f)
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

static int main_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"threads", required_argument, NULL, 't'},
        {"backend", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int threads = 0;
    const char *backend = "cpu";
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
            threads = (int)n;
            break;
        }
        case 'b':
            if (strcmp(optarg, "cpu") && strcmp(optarg, "cuda") && strcmp(optarg, "hip"))
                return main_usage_error("run: unknown backend '%s' (use cpu, cuda or hip)",
                                        optarg);
            backend = !strcmp(optarg, "cuda") ? "cuda" : !strcmp(optarg, "hip") ? "hip" : "cpu";
            break;
        case 'h': fputs(main_usage, stdout); return 0;
        default: return main_bad_option();
        }
    }
    if (optind >= argc)
        return main_usage_error("run: %s", "missing FILE");

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
        /* The program's sys.argv: FILE and what follows it (getopt_long has
         * moved the options, and a "--", in front of FILE). */
        host *h = host_new(&d, f);
        h->threads = threads;
        h->backend = backend;
        torch_init(h);
        vision_init(h);
        argparse_init(h);
        tritonmod_init(h);
        status = host_run_file(h, m, argc - optind, argv + optind);
        host_free(h);
        val_free_all();
    }
    arena_free(&a);
    src_free(f);
    return status;
}

int main(int argc, char **argv)
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
    static char run_name[] = "tritsim run", parse_name[] = "tritsim parse";
    if (!strcmp(cmd, "run")) {
        argv[1] = run_name;
        return main_run(argc - 1, argv + 1);
    }
    if (!strcmp(cmd, "parse")) {
        argv[1] = parse_name;
        return main_parse(argc - 1, argv + 1);
    }
    if (cmd[0] == '-')
        return main_usage_error("unknown option '%s'", cmd);
    return main_usage_error("unknown command '%s' (commands: run, parse)", cmd);
}
