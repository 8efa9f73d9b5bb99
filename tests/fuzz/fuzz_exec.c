/* fuzz_exec.c - differential fuzzer of the CPU executor: random valid
 * kernels (fuzz_gen.c) and random inputs, each kernel specialized once
 * (parse -> spec_kernel, in process) and launched on copies of the same
 * buffers in several ways that must give the same bits:
 *
 *   fast      the executor as tritsim runs it, one thread (the reference);
 *   plain     no fast path at all (exec_launch.plain): no affine records,
 *             lazy slots, row copies, fused dots, invariant hoisting or
 *             typed casts;
 *   lanes     the debugger's plan (exec_launch.keep_lanes): records but
 *             every slot's lanes kept;
 *   threads   fast on several threads (unless the kernel's results depend
 *             on the order of its programs: float atomics, old values).
 *
 * Compared: whether the launch failed, its error message and printed text,
 * and every buffer, inputs included, element by element: bit for bit,
 * except that two NaNs of a float dtype are equal (doc/ir.md 3.5: a NaN's
 * payload is whatever the C operations give).  A kernel that does not
 * specialize, or whose launch fails the same way everywhere, is a bug of
 * the generator (it must make valid kernels) and counts as a failure too.
 *
 *   fuzz_exec [-s SEED] [-n COUNT] [-i FIRST] [-t THREADS] [-q]
 *   fuzz_exec -s SEED --show I     print kernel I of the campaign, its
 *                                  arguments, and run it
 *   fuzz_exec -s SEED --tk I       kernel I as a tritsim program (inputs
 *                                  included) that prints its outputs
 *   fuzz_exec --selftest ...       spoil each plain run's first output
 *                                  element: every kernel must then fail
 *                                  (the comparison itself is tested)
 *
 * Each kernel is a function of (seed, index) alone, so a failure is
 * reproduced with --show.  Exit status: 0 when every kernel agreed, 1
 * otherwise (the first failures are printed with their kernel). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>

#include "arena.h"
#include "exec.h"
#include "fuzz_gen.h"
#include "parse.h"
#include "pool.h"
#include "spec.h"

enum { NCONF = 4 };
static const char *const conf_name[NCONF] = {"fast", "plain", "lanes", "threads"};

/* One launch's outcome. */
typedef struct outcome {
    bool ok;
    char *out;              /* printed text */
    size_t out_len;
    char *diag;             /* error messages */
    size_t diag_len;
    unsigned char *mem[FZ_MAX_BUF];
} outcome;

typedef struct fuzz {
    uint64_t seed;
    pool *one, *many;
    int max_reports;        /* failures printed in full */
    bool selftest;          /* spoil the plain runs' first output element */
    int nfail;
    uint64_t nrun, nnan, nreject, ninvalid, nskip_threads;
} fuzz;

/* ---- the kernel's module ---------------------------------------------------- */

static const ast_node *find_def(const ast_node *mod, const char *name)
{
    for (int i = 0; i < mod->u.module.body.len; i++) {
        const ast_node *n = mod->u.module.body.items[i];
        if (n->kind == AST_FUNCDEF && !strcmp(n->u.funcdef.name, name))
            return n;
    }
    return NULL;
}

/* The module's globals: tl, triton and its @triton.jit functions. */
typedef struct module {
    const src_file *file;
    const ast_node *mod;
} module;

static spec_global lookup(void *ctx, void *env, const char *name)
{
    const module *m = ctx;
    (void)env;
    spec_global g = {.kind = SPEC_G_UNDEFINED};
    if (!strcmp(name, "tl")) {
        g.kind = SPEC_G_MODULE;
        g.qualname = "triton.language";
    } else if (!strcmp(name, "triton")) {
        g.kind = SPEC_G_MODULE;
        g.qualname = "triton";
    } else if (find_def(m->mod, name)) {
        g.kind = SPEC_G_JIT;
        g.def = find_def(m->mod, name);
        g.file = m->file;
        g.env = ctx;
    }
    return g;
}

/* ---- inputs ---------------------------------------------------------------------- */

static double rand_float(uint64_t *r, bool specials)
{
    uint64_t x = fz_rand(r);
    int c = (int)(x % 100);
    x >>= 8;
    if (c < 55)
        return ((double)(int)(x % 33) - 16) * 0.25;
    if (c < 85 || !specials)
        return ((double)(int64_t)(x % 2000001) - 1e6) / 1e5;
    switch (c % 8) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return INFINITY;
    case 3: return -INFINITY;
    case 4: return NAN;
    case 5: return -NAN;
    case 6: return x & 1 ? 1e30 : -3e38;
    default: return x & 1 ? 1e-40 : -5e-8;
    }
}

static int64_t rand_int(uint64_t *r)
{
    uint64_t x = fz_rand(r);
    int c = (int)(x % 100);
    x >>= 8;
    if (c < 55)
        return (int64_t)(x % 41) - 20;
    if (c < 85)
        return (int64_t)fz_rand(r);
    static const int64_t ext[] = {0, -1, 127, -128, 255, 32767, -32768, 65535, INT32_MAX,
                                  INT32_MIN, 0xffffffffll, INT64_MAX, INT64_MIN};
    return ext[x % (sizeof ext / sizeof ext[0])];
}

/* The starting bytes of every buffer, one image per buffer. */
static void make_inputs(const fz_kernel *k, unsigned char **img)
{
    uint64_t r = k->data_seed;
    for (int b = 0; b < k->nbuf; b++) {
        const fz_buf *B = &k->buf[b];
        int sz = dtype_size(B->dt);
        img[b] = malloc((size_t)B->numel * (size_t)sz);
        bool specials = fz_rand(&r) % 2;
        for (int64_t i = 0; i < B->numel; i++) {
            unsigned char *p = img[b] + i * sz;
            if (B->zero) {
                memset(p, 0, (size_t)sz);
            } else if (B->dt == DTYPE_INT1) {
                *p = B->output ? 1 : (unsigned char)(fz_rand(&r) & 1);
            } else if (B->output) {
                /* a fill every dtype holds exactly (fuzz --tk makes it) */
                dtype_scalar v;
                if (dtype_is_float(B->dt))
                    v.f = -77.0;
                else
                    v.i = 90;
                dtype_store(B->dt, p, v);
            } else if (dtype_is_float(B->dt)) {
                dtype_scalar v = {.f = rand_float(&r, specials)};
                dtype_store(B->dt, p, v);
            } else {
                int64_t v = rand_int(&r);
                memcpy(p, &v, (size_t)sz);       /* little-endian: the low bytes */
            }
        }
    }
}

/* ---- a launch -------------------------------------------------------------------- */

static void run_one(const fz_kernel *k, const ir_kernel *ir, const src_file *file,
                    unsigned char **img, pool *p, int conf, outcome *o)
{
    memset(o, 0, sizeof *o);
    backend_arg args[FZ_MAX_BUF + FZ_MAX_SCAL];
    int na = 0;
    for (int b = 0; b < k->nbuf; b++) {
        size_t bytes = (size_t)k->buf[b].numel * (size_t)dtype_size(k->buf[b].dt);
        o->mem[b] = malloc(bytes);
        memcpy(o->mem[b], img[b], bytes);
        args[na++] = (backend_arg){.value.u = (uint64_t)(uintptr_t)o->mem[b],
                                   .numel = (size_t)k->buf[b].numel, .name = k->buf[b].name};
    }
    for (int s = 0; s < k->nscal; s++)
        args[na++] = (backend_arg){.value = k->scal[s].v, .name = k->scal[s].name};
    FILE *out = open_memstream(&o->out, &o->out_len);
    FILE *dout = open_memstream(&o->diag, &o->diag_len);
    diag_sink d;
    diag_sink_init(&d, dout);
    d.color = false;
    exec_launch L = {
        .kernel = ir, .file = file, .grid = {k->grid[0], k->grid[1], k->grid[2]},
        .rank = k->rank, .args = args, .pool = p, .out = out, .diag = &d,
        .breaks = EXEC_BREAK_IGNORE, .keep_lanes = conf == 2, .plain = conf == 1,
    };
    o->ok = exec_run(&L);
    fclose(out);
    fclose(dout);
}

static void outcome_free(const fz_kernel *k, outcome *o)
{
    for (int b = 0; b < k->nbuf; b++)
        free(o->mem[b]);
    free(o->out);
    free(o->diag);
}

static bool is_nan(dtype t, const unsigned char *p)
{
    if (!dtype_is_float(t))
        return false;
    double v = dtype_load(t, p).f;
    return v != v;
}

/* ---- reports ---------------------------------------------------------------------- */

static void print_kernel(FILE *f, const fz_kernel *k, uint64_t seed, uint64_t index)
{
    fprintf(f, "---- kernel %" PRIu64 " of seed %" PRIu64 " (fuzz_exec -s %" PRIu64
            " --show %" PRIu64 ") ----\n%s", index, seed, seed, index, strbuf_cstr(&k->src));
    fprintf(f, "grid (%" PRId64 ", %" PRId64 ", %" PRId64 ")", k->grid[0], k->grid[1], k->grid[2]);
    for (int b = 0; b < k->nbuf; b++)
        fprintf(f, ", %s: %s[%" PRId64 "]%s", k->buf[b].name, dtype_name(k->buf[b].dt),
                k->buf[b].numel, k->buf[b].zero ? " zeros" : "");
    for (int s = 0; s < k->nscal; s++) {
        if (k->scal[s].dt == DTYPE_FP32)
            fprintf(f, ", %s=%g", k->scal[s].name, k->scal[s].v.f);
        else
            fprintf(f, ", %s=%" PRId64, k->scal[s].name, k->scal[s].v.i);
    }
    for (int c = 0; c < k->nconst; c++)
        fprintf(f, ", %s=%" PRId64, k->cons[c].name, k->cons[c].v);
    fprintf(f, "%s\n", k->order_dependent ? " (order-dependent)" : "");
}

static void print_elem(FILE *f, dtype t, const unsigned char *p)
{
    int sz = dtype_size(t);
    fprintf(f, "0x");
    for (int i = sz - 1; i >= 0; i--)
        fprintf(f, "%02x", p[i]);
    dtype_scalar v = dtype_load(t, p);
    if (dtype_is_float(t))
        fprintf(f, " (%.9g)", v.f);
    else
        fprintf(f, " (%" PRId64 ")", v.i);
}

/* Compare outcome b (configuration cb) with the reference a; print what
 * differs first.  Returns true when they agree. */
static bool agree(fuzz *F, const fz_kernel *k, const outcome *a, const outcome *b, int cb,
                  FILE *rep)
{
    if (a->ok != b->ok) {
        fprintf(rep, "%s %s, %s %s:\n%s%s", conf_name[0], a->ok ? "ran" : "failed",
                conf_name[cb], b->ok ? "ran" : "failed", a->diag, b->diag);
        return false;
    }
    if (a->diag_len != b->diag_len || memcmp(a->diag, b->diag, a->diag_len)) {
        fprintf(rep, "error messages differ:\n%s: %s%s: %s", conf_name[0], a->diag,
                conf_name[cb], b->diag);
        return false;
    }
    if (a->out_len != b->out_len || memcmp(a->out, b->out, a->out_len)) {
        fprintf(rep, "printed text differs:\n%s:\n%s\n%s:\n%s\n", conf_name[0], a->out,
                conf_name[cb], b->out);
        return false;
    }
    if (!a->ok)
        return true;        /* what a failed launch wrote is unspecified */
    for (int bi = 0; bi < k->nbuf; bi++) {
        dtype t = k->buf[bi].dt;
        int sz = dtype_size(t);
        for (int64_t i = 0; i < k->buf[bi].numel; i++) {
            const unsigned char *pa = a->mem[bi] + i * sz, *pb = b->mem[bi] + i * sz;
            if (!memcmp(pa, pb, (size_t)sz))
                continue;
            if (is_nan(t, pa) && is_nan(t, pb)) {
                F->nnan++;
                continue;
            }
            fprintf(rep, "%s[%" PRId64 "] (%s): %s ", k->buf[bi].name, i, dtype_name(t),
                    conf_name[0]);
            print_elem(rep, t, pa);
            fprintf(rep, ", %s ", conf_name[cb]);
            print_elem(rep, t, pb);
            fprintf(rep, "\n");
            return false;
        }
    }
    return true;
}

/* ---- the watchdog: a kernel that runs too long is a failure too ----------- */

enum { HANG_SECONDS = 60 };
static char hang_msg[256];
static const char *hang_src;

static void on_alarm(int sig)
{
    (void)sig;
    /* only async-signal-safe calls: write, _exit */
    if (write(2, hang_msg, strlen(hang_msg)) < 0 || write(2, hang_src, strlen(hang_src)) < 0)
        _exit(3);
    _exit(3);
}

/* ---- one kernel ------------------------------------------------------------------- */

/* Generate, build and run kernel index; true when every run agreed. */
static bool fuzz_one(fuzz *F, fz_kernel *k, uint64_t index, bool show)
{
    fz_generate(F->seed, index, k);
    if (show)
        print_kernel(stdout, k, F->seed, index);
    const char *text = strbuf_cstr(&k->src);
    snprintf(hang_msg, sizeof hang_msg, "HANG: kernel %" PRIu64 " of seed %" PRIu64
             " ran more than %d s (fuzz_exec -s %" PRIu64 " --show %" PRIu64 ")\n", index,
             F->seed, HANG_SECONDS, F->seed, index);
    hang_src = text;
    alarm(HANG_SECONDS);
    src_file *file = src_from_string("fuzz.tk", text, strlen(text));
    char *dtext = NULL;
    size_t dlen = 0;
    FILE *dout = open_memstream(&dtext, &dlen);
    diag_sink d;
    diag_sink_init(&d, dout);
    d.color = false;
    arena mem;
    arena_init(&mem);
    ir_kernel *ir = NULL;
    const ast_node *mod = parse_file(file, &d, &mem);
    if (!d.nerrors) {
        spec_param params[FZ_MAX_BUF + FZ_MAX_SCAL + FZ_MAX_CONST];
        int np = 0;
        for (int b = 0; b < k->nbuf; b++)
            params[np++] = (spec_param){.dt = dtype_ptr_to(k->buf[b].dt)};
        for (int s = 0; s < k->nscal; s++)
            params[np++] = (spec_param){.dt = k->scal[s].dt};
        for (int c = 0; c < k->nconst; c++)
            params[np++] = (spec_param){.is_const = true,
                                        .c = {.kind = SC_INT, .u.i = k->cons[c].v}};
        module m = {.file = file, .mod = mod};
        spec_host host = {.lookup = lookup, .ctx = &m};
        FILE *sp = fopen("/dev/null", "w");
        ir = spec_kernel(file, find_def(mod, "kern"), &m, &host, params, &d, &mem, sp);
        fclose(sp);
    }
    fclose(dout);
    bool good = true;
    FILE *rep = stderr;
    if (!ir) {
        F->nreject++;
        good = false;
        if (F->nfail < F->max_reports) {
            print_kernel(rep, k, F->seed, index);
            fprintf(rep, "REJECTED (a generator bug): %s\n", dtext);
        }
    } else {
        unsigned char *img[FZ_MAX_BUF];
        make_inputs(k, img);
        outcome o[NCONF];
        int nconf = k->order_dependent ? 3 : 4;
        if (k->order_dependent)
            F->nskip_threads++;
        for (int c = 0; c < nconf; c++)
            run_one(k, ir, file, img, c == 3 ? F->many : F->one, c, &o[c]);
        for (int b = 0; F->selftest && b < k->nbuf; b++)
            if (k->buf[b].output) {
                /* a value no float reads as NaN, unlike the one there */
                int sz = dtype_size(k->buf[b].dt);
                unsigned char spoilt = o[1].mem[b][0] == 1 ? 2 : 1;
                memset(o[1].mem[b], 0, (size_t)sz);
                o[1].mem[b][0] = spoilt;
                break;
            }
        for (int c = 1; c < nconf && good; c++) {
            char *rtext = NULL;
            size_t rlen = 0;
            FILE *r = open_memstream(&rtext, &rlen);
            if (!agree(F, k, &o[0], &o[c], c, r))
                good = false;
            fclose(r);
            if (!good && F->nfail < F->max_reports) {
                print_kernel(rep, k, F->seed, index);
                fprintf(rep, "MISMATCH %s vs %s: %s", conf_name[0], conf_name[c], rtext);
            }
            free(rtext);
        }
        if (good && !o[0].ok) {
            F->ninvalid++;
            good = false;
            if (F->nfail < F->max_reports) {
                print_kernel(rep, k, F->seed, index);
                fprintf(rep, "INVALID (every run failed; a generator bug):\n%s", o[0].diag);
            }
        }
        if (show) {
            for (int b = 0; b < k->nbuf; b++) {
                if (!k->buf[b].output)
                    continue;
                int sz = dtype_size(k->buf[b].dt);
                printf("%s:", k->buf[b].name);
                for (int64_t i = 0; i < k->buf[b].numel && i < 64; i++) {
                    printf(" ");
                    print_elem(stdout, k->buf[b].dt, o[0].mem[b] + i * sz);
                }
                printf("%s\n", k->buf[b].numel > 64 ? " ..." : "");
            }
            fwrite(o[0].out, 1, o[0].out_len, stdout);
        }
        for (int c = 0; c < nconf; c++)
            outcome_free(k, &o[c]);
        for (int b = 0; b < k->nbuf; b++)
            free(img[b]);
    }
    alarm(0);
    if (!good)
        F->nfail++;
    F->nrun++;
    arena_free(&mem);
    src_free(file);
    free(dtext);
    return good;
}

/* ---- a tritsim program --------------------------------------------------------- */

static const char *torch_name(dtype t)
{
    static char buf[40];
    const char *s = dtype_torch_name(t);
    snprintf(buf, sizeof buf, "%s", s);
    return buf;
}

/* A float as Python writes a float (never as an int). */
static const char *py_float(double v)
{
    static char buf[48];
    snprintf(buf, sizeof buf, "%.17g", v);
    if (!strpbrk(buf, ".en"))
        strcat(buf, ".0");
    return buf;
}

/* Kernel index as a program: the kernel, its inputs as lists, the launch,
 * and each output printed as a list. */
static void emit_tk(fuzz *F, fz_kernel *k, uint64_t index)
{
    fz_generate(F->seed, index, k);
    unsigned char *img[FZ_MAX_BUF];
    make_inputs(k, img);
    const char *src = strbuf_cstr(&k->src);
    printf("# kernel %" PRIu64 " of fuzz_exec seed %" PRIu64 "\nimport torch\n%s\n\n", index,
           F->seed, src);
    for (int b = 0; b < k->nbuf; b++) {
        const fz_buf *B = &k->buf[b];
        int sz = dtype_size(B->dt);
        printf("%s = torch.tensor([", B->name);
        for (int64_t i = 0; i < B->numel; i++) {
            dtype_scalar v = dtype_load(B->dt, img[b] + i * sz);
            if (i)
                printf(", ");
            if (B->dt == DTYPE_INT1)
                printf("%s", v.i ? "True" : "False");
            else if (!dtype_is_float(B->dt) && !dtype_is_signed(B->dt) && B->dt != DTYPE_UINT64)
                printf("%" PRIu64, v.u);
            else if (!dtype_is_float(B->dt))
                printf("%" PRId64, v.i);
            else if (v.f != v.f)
                printf("float('nan')");
            else if (isinf(v.f))
                printf("float('%sinf')", v.f < 0 ? "-" : "");
            else
                printf("%s", py_float(v.f));
        }
        /* fp8 tensors are made by conversion, uint64 ones as the bits of
         * int64 (a Python int literal past int64 is refused) */
        bool fp8 = B->dt == DTYPE_FP8E5 || B->dt == DTYPE_FP8E4NV, u64 = B->dt == DTYPE_UINT64;
        printf("], dtype=%s, device=\"cuda\")", fp8 ? "torch.float32" : u64 ? "torch.int64"
                                                : torch_name(B->dt));
        if (fp8 || u64)
            printf(".%s(%s)", fp8 ? "to" : "view", torch_name(B->dt));
        printf("\n");
    }
    printf("kern[(%" PRId64 ", %" PRId64 ", %" PRId64 ")](", k->grid[0], k->grid[1], k->grid[2]);
    for (int b = 0; b < k->nbuf; b++)
        printf("%s, ", k->buf[b].name);
    for (int s = 0; s < k->nscal; s++) {
        if (k->scal[s].dt == DTYPE_FP32)
            printf("%s, ", py_float(k->scal[s].v.f));
        else
            printf("%" PRId64 ", ", k->scal[s].v.i);
    }
    for (int c = 0; c < k->nconst; c++)
        printf("%s=%" PRId64 "%s", k->cons[c].name, k->cons[c].v, c + 1 < k->nconst ? ", " : "");
    printf(")\n");
    for (int b = 0; b < k->nbuf; b++)
        if (k->buf[b].output)
            printf("print(%s.tolist())\n", k->buf[b].name);
    for (int b = 0; b < k->nbuf; b++)
        free(img[b]);
}

/* ---- main ----------------------------------------------------------------------- */

static uint64_t arg_u64(const char *s)
{
    return strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
    fuzz F = {.seed = 1, .max_reports = 5};
    const char *mr = getenv("FUZZ_REPORTS");
    if (mr)
        F.max_reports = atoi(mr);
    uint64_t count = 1000, first = 0;
    int threads = 4;
    bool quiet = false;
    int64_t show = -1, tk = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "-s") && more) F.seed = arg_u64(argv[++i]);
        else if (!strcmp(a, "-n") && more) count = arg_u64(argv[++i]);
        else if (!strcmp(a, "-i") && more) first = arg_u64(argv[++i]);
        else if (!strcmp(a, "-t") && more) threads = atoi(argv[++i]);
        else if (!strcmp(a, "-q")) quiet = true;
        else if (!strcmp(a, "--selftest")) F.selftest = true;
        else if (!strcmp(a, "--show") && more) show = (int64_t)arg_u64(argv[++i]);
        else if (!strcmp(a, "--tk") && more) tk = (int64_t)arg_u64(argv[++i]);
        else {
            fprintf(stderr, "usage: fuzz_exec [-s SEED] [-n COUNT] [-i FIRST] [-t THREADS] [-q]"
                            " [--show INDEX] [--tk INDEX] [--selftest]\n");
            return 2;
        }
    }
    fz_kernel k;
    memset(&k, 0, sizeof k);
    strbuf_init(&k.src);
    if (tk >= 0) {
        emit_tk(&F, &k, (uint64_t)tk);
        strbuf_free(&k.src);
        return 0;
    }
    signal(SIGALRM, on_alarm);
    F.one = pool_create(1);
    F.many = pool_create(threads < 2 ? 2 : threads);
    int status;
    if (show >= 0) {
        status = fuzz_one(&F, &k, (uint64_t)show, true) ? 0 : 1;
    } else {
        time_t t0 = time(NULL), last = t0;
        for (uint64_t i = first; i < first + count; i++) {
            fuzz_one(&F, &k, i, false);
            time_t now = time(NULL);
            if (!quiet && now - last >= 60) {
                fprintf(stderr, "fuzz_exec: %" PRIu64 " kernels, %d failed, %lds\n", F.nrun,
                        F.nfail, (long)(now - t0));
                last = now;
            }
        }
        printf("fuzz_exec: seed %" PRIu64 ", kernels %" PRIu64 "..%" PRIu64 ": %" PRIu64
               " run, %d failed (%" PRIu64 " rejected, %" PRIu64 " invalid), %" PRIu64
               " order-dependent (not run on threads), %" PRIu64 " NaNs with other payloads, "
               "%lds\n", F.seed, first, first + count - 1, F.nrun, F.nfail, F.nreject,
               F.ninvalid, F.nskip_threads, F.nnan, (long)(time(NULL) - t0));
        status = F.nfail ? 1 : 0;
    }
    pool_destroy(F.one);
    pool_destroy(F.many);
    strbuf_free(&k.src);
    return status;
}
