/* nvrtc_check.c - compiles CUDA sources that the emitter made with NVRTC
 * for sm_90, with the options the CUDA backend compiles every kernel with
 * (cuda_build_options; NVRTC is loaded by cuda_api's loader), and says in
 * TAP which ones NVRTC refuses: one test per file, and for a failure
 * NVRTC's log with each line it names quoted from the file.  A tool of
 * tests/cgen-nvrtc.test, not a test itself.
 *
 *     nvrtc_check [--fast] [--ptx] [--batch N] FILE...
 *
 * Each FILE holds one kernel's whole source (its entry point tk_kernel);
 * its first line, when a // comment, names it in the TAP line.
 *
 * --fast adds --Ofast-compile=max (less optimisation: the same errors in
 * less time).
 *
 * --ptx stops at PTX (--gpu-architecture=compute_90 instead of sm_90, the
 * other options unchanged) for the files without inline PTX (no "asm"):
 * NVRTC's front end and NVVM find every error in C++, and ptxas takes
 * most of the time; what only ptxas would refuse in them (a static
 * __shared__ array over 48 KiB, say) goes unchecked then.  The files with
 * inline PTX (the tensor cores' mma.sync), which only ptxas checks, still
 * go through it to a cubin, after the others.
 *
 * --batch N compiles N files per NVRTC program, to pay NVRTC's start-up
 * cost once for them: each file is wrapped in a namespace of its own, its
 * entry point renamed by a #define, and a #line directive makes NVRTC's
 * messages name the file and its own line numbers.  When a batch fails,
 * each of its files is compiled again alone, as the backend would, and
 * only those that fail then are reported.
 *
 * Where libnvrtc cannot be loaded the output is a TAP skip ("1..0 # SKIP
 * why") and the exit status 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "cuda_cache.h"
#include "strbuf.h"

enum { NVRTC_CHECK_ARCH = 90 };

typedef struct nvrtc_file {
    const char *path;
    bool cubin;         /* compiled to a cubin, not only to PTX */
    char *text;         /* NULL when it could not be read */
    char label[256];    /* its first line's comment, or the path */
} nvrtc_file;

typedef struct nvrtc_opts {
    const char *opts[10];
    int nopts;
    char archopt[32];
} nvrtc_opts;

/* The options for a cubin (o[1]) and for PTX only (o[0]). */
static void nvrtc_check_options(bool fast, nvrtc_opts o[2])
{
    for (int k = 0; k < 2; k++) {
        cuda_build_options(NVRTC_CHECK_ARCH, o[k].archopt, o[k].opts);
        while (o[k].opts[o[k].nopts])
            o[k].nopts++;
        if (fast)
            o[k].opts[o[k].nopts++] = "--Ofast-compile=max";
    }
    /* cuda_build_options puts the architecture first */
    snprintf(o[0].archopt, sizeof o[0].archopt, "--gpu-architecture=compute_%d",
             NVRTC_CHECK_ARCH);
    o[0].opts[0] = o[0].archopt;
}

static char *nvrtc_check_read(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    strbuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        strbuf_putn(&sb, buf, n);
    bool bad = ferror(fp);
    fclose(fp);
    if (bad) {
        strbuf_free(&sb);
        return NULL;
    }
    strbuf_cstr(&sb);
    return strbuf_detach(&sb);
}

static void nvrtc_check_label(nvrtc_file *f)
{
    const char *t = f->text;
    if (t && strncmp(t, "// ", 3) == 0) {
        const char *s = t + 3;
        while (*s == '-' || *s == ' ')
            s++;
        size_t n = strcspn(s, "\n");
        if (n >= sizeof f->label)
            n = sizeof f->label - 1;
        memcpy(f->label, s, n);
        f->label[n] = 0;
    } else {
        snprintf(f->label, sizeof f->label, "%s", f->path);
    }
}

/* Compile src; true when NVRTC accepts it; its log (when it refuses) into
 * log, and why NVRTC itself failed into why. */
static bool nvrtc_check_compile(const cuda_nvrtc *rtc, const nvrtc_opts *o, const char *src,
                                strbuf *log, strbuf *why)
{
    nvrtcProgram prog = NULL;
    nvrtcResult r = rtc->nvrtcCreateProgram(&prog, src, "tk_kernel.cu", 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        strbuf_printf(why, "nvrtcCreateProgram: %s", rtc->nvrtcGetErrorString(r));
        return false;
    }
    r = rtc->nvrtcCompileProgram(prog, o->nopts, o->opts);
    bool ok = r == NVRTC_SUCCESS;
    if (!ok) {
        strbuf_printf(why, "nvrtcCompileProgram: %s", rtc->nvrtcGetErrorString(r));
        size_t n = 0;
        if (rtc->nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1) {
            char *text = malloc(n);
            if (text && rtc->nvrtcGetProgramLog(prog, text) == NVRTC_SUCCESS)
                strbuf_puts(log, text);
            free(text);
        }
    }
    rtc->nvrtcDestroyProgram(&prog);
    return ok;
}

/* Line `line` (from 1) of text, without its newline, into out. */
static void nvrtc_check_line(const char *text, long line, strbuf *out)
{
    const char *s = text;
    for (long i = 1; i < line && s; i++) {
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    if (s && *s)
        strbuf_putn(out, s, strcspn(s, "\n"));
}

/* NVRTC's log as TAP diagnostics; after each message that names a line
 * ("tk_kernel.cu(12): error: ..."), that line of the source. */
static void nvrtc_check_explain(const nvrtc_file *f, const char *log)
{
    const char *s = log;
    strbuf line = {0};
    while (*s) {
        size_t n = strcspn(s, "\n");
        printf("#   %.*s\n", (int)n, s);
        const char *p = memchr(s, '(', n);
        char *end = NULL;
        long ln = p ? strtol(p + 1, &end, 10) : 0;
        if (ln > 0 && end && strncmp(end, "):", 2) == 0) {
            strbuf_clear(&line);
            nvrtc_check_line(f->text, ln, &line);
            printf("#     %s line %ld: %s\n", f->path, ln, strbuf_cstr(&line));
        }
        s += n;
        if (*s == '\n')
            s++;
    }
    strbuf_free(&line);
}

/* One program of files[0..n-1], each in a namespace of its own. */
static void nvrtc_check_batch_source(const nvrtc_file *files, int n, strbuf *src)
{
    for (int i = 0; i < n; i++) {
        strbuf_printf(src, "#define tk_kernel tk_kernel_%d\nnamespace tk_ns_%d {\n#line 1 \"%s\"\n",
                      i, i, files[i].path);
        strbuf_puts(src, files[i].text);
        strbuf_puts(src, "\n}\n#undef tk_kernel\n");
    }
}

static int nvrtc_check_usage(void)
{
    fprintf(stderr, "usage: nvrtc_check [--fast] [--ptx] [--batch N] FILE...\n");
    return 2;
}

/* Compile files[order[b..b+n-1]] (all of one kind) as one program when
 * n > 1, and each alone when that fails; the TAP line of each, numbered
 * from *num; the number of failures. */
static int nvrtc_check_run(const cuda_nvrtc *rtc, const nvrtc_opts *o, nvrtc_file *files,
                           const int *order, int n, int *num)
{
    strbuf src = {0}, log = {0}, why = {0};
    bool readable = true;
    for (int i = 0; i < n; i++)
        readable = readable && files[order[i]].text;
    bool batch_ok = false;
    if (n > 1 && readable) {
        nvrtc_file *group = malloc((size_t)n * sizeof *group);
        for (int i = 0; i < n; i++)
            group[i] = files[order[i]];
        nvrtc_check_batch_source(group, n, &src);
        free(group);
        batch_ok = nvrtc_check_compile(rtc, o, strbuf_cstr(&src), &log, &why);
        if (!batch_ok)
            printf("# the program of files %d to %d fails (%s); each alone:\n", *num + 1,
                   *num + n, strbuf_cstr(&why));
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        nvrtc_file *f = &files[order[i]];
        bool ok = batch_ok;
        strbuf_clear(&log);
        strbuf_clear(&why);
        if (!f->text)
            strbuf_printf(&why, "cannot read %s", f->path);
        else if (!ok)
            ok = nvrtc_check_compile(rtc, o, f->text, &log, &why);
        printf("%s %d - %s (%s)\n", ok ? "ok" : "not ok", ++*num, f->label,
               f->cubin ? "cubin" : "PTX");
        if (!ok) {
            failed++;
            printf("# %s: %s\n", f->path, strbuf_cstr(&why));
            nvrtc_check_explain(f, strbuf_cstr(&log));
        }
    }
    fflush(stdout);
    strbuf_free(&src);
    strbuf_free(&log);
    strbuf_free(&why);
    return failed;
}

int main(int argc, char **argv)
{
    bool fast = false, ptx = false;
    int batch = 1, first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
        if (strcmp(argv[first], "--fast") == 0)
            fast = true;
        else if (strcmp(argv[first], "--ptx") == 0)
            ptx = true;
        else if (strcmp(argv[first], "--batch") == 0 && first + 1 < argc)
            batch = atoi(argv[++first]);
        else
            return nvrtc_check_usage();
    }
    if (batch < 1)
        return nvrtc_check_usage();
    int nfiles = argc - first;

    strbuf why = {0};
    const cuda_nvrtc *rtc = cuda_nvrtc_load(&why);
    if (!rtc) {
        printf("1..0 # SKIP libnvrtc not found: %s\n", strbuf_cstr(&why));
        strbuf_free(&why);
        return 0;
    }
    strbuf_free(&why);
    nvrtc_opts o[2] = {0};
    nvrtc_check_options(fast, o);

    /* the files to stop at PTX first, then those to compile to a cubin */
    nvrtc_file *files = calloc((size_t)nfiles + 1, sizeof *files);
    int *order = calloc((size_t)nfiles + 1, sizeof *order);
    int nptx = 0;
    for (int i = 0; i < nfiles; i++) {
        nvrtc_file *f = &files[i];
        f->path = argv[first + i];
        f->text = nvrtc_check_read(f->path);
        f->cubin = !ptx || !f->text || strstr(f->text, "asm") != NULL;
        nvrtc_check_label(f);
        if (!f->cubin)
            order[nptx++] = i;
    }
    for (int i = 0, k = nptx; i < nfiles; i++)
        if (files[i].cubin)
            order[k++] = i;
    printf("1..%d\n", nfiles);
    for (int k = 0; k < 2; k++) {
        printf("# NVRTC %d.%d (%s), %s:", rtc->major, rtc->minor, rtc->path,
               k ? "cubin" : "PTX only");
        for (int i = 0; i < o[k].nopts; i++)
            printf(" %s", o[k].opts[i]);
        printf("\n");
    }

    int failed = 0, num = 0;
    for (int b = 0; b < nfiles;) {
        bool cubin = files[order[b]].cubin;
        int n = 0;
        while (n < batch && b + n < nfiles && files[order[b + n]].cubin == cubin)
            n++;
        failed += nvrtc_check_run(rtc, &o[cubin], files, order + b, n, &num);
        b += n;
    }
    for (int i = 0; i < nfiles; i++)
        free(files[i].text);
    free(files);
    free(order);
    return failed ? 1 : 0;
}
