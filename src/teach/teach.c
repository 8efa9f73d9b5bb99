/* teach.c - the exercises' table and the commands around the grader:
 * `tritsim exercises` (the list, with progress), `tritsim exercise NAME`
 * (the starting file, never over the learner's work) and `tritsim check`
 * (grading through teach_check.c, or the next hint), and the progress
 * file .tritsim-progress kept in the exercise's folder: one line per
 * exercise, "NAME passed=0|1 hints=N". */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "teach.h"
#include "teach_impl.h"

static const teach_exercise teach_table[] = {
    {"copy-one", "copy a vector, one element per program (the first step to copy)"},
    {"copy-block", "copy a vector, a block per program, n a multiple of the block"},
    {"copy", "copy a vector block by block; mask the last block (the lecture's first kernel)"},
    {"grayscale", "turn a colour image grey with a 2-D grid of programs"},
    {"matmul", "multiply matrices, one block of the product per program"},
    {"matmul-grouped", "the same product with programs grouped (swizzled) for the cache"},
    {"outer", "the outer product of two vectors: broadcasting a column by a row"},
    {"rowsum", "the sum of each row: a loop over blocks and tl.sum"},
    {"softmax", "the softmax of each row, a row in one block: max, exp, sum"},
    {"softmax-online", "the softmax of rows longer than a block: a running max and sum"},
    {"matmul-leaky", "matmul + bias + leaky_relu in one kernel: a fused epilogue"},
    {"conv1d", "a 1-D convolution: k taps over a signal, masks at both edges"},
    {"qmatmul", "an int8 matmul with an fp32 scale per group of 32 along k"},
    {"flash-attention", "attention forward for one head: online softmax over blocks of keys"},
    {NULL, NULL},
};

#define TEACH_PROGRESS ".tritsim-progress"

const teach_exercise *teach_find(const char *name)
{
    for (const teach_exercise *e = teach_table; e->name; e++)
        if (!strcmp(e->name, name))
            return e;
    return NULL;
}

const char *teach_file_text(const char *name)
{
    for (const teach_file *f = teach_files; f->name; f++)
        if (!strcmp(f->name, name))
            return f->text;
    return NULL;
}

/* ---- progress ------------------------------------------------------------ */

typedef struct teach_progress {
    bool known;             /* the file has a line for the exercise */
    bool passed;
    int hints;
} teach_progress;

/* The folder of path ("." when it has none), in buf. */
static void teach_dir(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, len, ".");
    else if (slash == path)
        snprintf(buf, len, "/");
    else
        snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

static teach_progress teach_progress_read(const char *dir, const char *name)
{
    teach_progress p = {0};
    char path[4096], line[256], n[128];
    snprintf(path, sizeof path, "%s/" TEACH_PROGRESS, dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return p;
    while (fgets(line, sizeof line, f)) {
        int passed, hints;
        if (sscanf(line, "%127s passed=%d hints=%d", n, &passed, &hints) == 3 &&
            !strcmp(n, name)) {
            p.known = true;
            p.passed = passed != 0;
            p.hints = hints;
        }
    }
    fclose(f);
    return p;
}

/* Rewrite the progress file with name's line set to p (others kept). */
static void teach_progress_write(const char *dir, const char *name, teach_progress p)
{
    char path[4096], tmp[4200], line[256], n[128];
    snprintf(path, sizeof path, "%s/" TEACH_PROGRESS, dir);
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *out = fopen(tmp, "w");
    if (!out)
        return;
    FILE *in = fopen(path, "r");
    if (in) {
        while (fgets(line, sizeof line, in))
            if (sscanf(line, "%127s", n) == 1 && strcmp(n, name))
                fputs(line, out);
        fclose(in);
    }
    fprintf(out, "%s passed=%d hints=%d\n", name, p.passed ? 1 : 0, p.hints);
    if (fclose(out) == 0)
        rename(tmp, path);
    else
        remove(tmp);
}

/* ---- the commands ------------------------------------------------------------ */

int teach_list(FILE *out)
{
    fputs("Exercises (tritsim exercise NAME writes NAME.tk here; tritsim check NAME.tk "
          "grades it):\n", out);
    for (const teach_exercise *e = teach_table; e->name; e++) {
        teach_progress p = teach_progress_read(".", e->name);
        char file[160];
        snprintf(file, sizeof file, "%s.tk", e->name);
        char state[64] = "";
        if (p.passed)
            snprintf(state, sizeof state, "  [passed]");
        else if (p.known && p.hints)
            snprintf(state, sizeof state, "  [started, %d hint%s seen]", p.hints,
                     p.hints == 1 ? "" : "s");
        else if (p.known || access(file, F_OK) == 0)
            snprintf(state, sizeof state, "  [started]");
        fprintf(out, "  %-15s %s%s\n", e->name, e->title, state);
    }
    return 0;
}

int teach_start(const char *name, FILE *out)
{
    const teach_exercise *e = teach_find(name);
    if (!e) {
        fprintf(stderr, "tritsim: exercise: no exercise called '%s' (tritsim exercises lists "
                "them)\n", name);
        return 2;
    }
    char file[160], src[160];
    snprintf(file, sizeof file, "%s.tk", e->name);
    snprintf(src, sizeof src, "%s.tk", e->name);
    const char *text = teach_file_text(src);
    /* O_EXCL: the learner's work is never overwritten */
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            fprintf(stderr, "tritsim: exercise: %s exists already; it is left as it is "
                    "(remove or rename it to start again)\n", file);
        else
            fprintf(stderr, "tritsim: exercise: cannot write %s: %s\n", file, strerror(errno));
        return 1;
    }
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    ok = close(fd) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "tritsim: exercise: cannot write %s\n", file);
        return 1;
    }
    fprintf(out, "wrote %s: %s\n", file, e->title);
    fprintf(out, "write the kernel's body, then: tritsim run %s; tritsim check %s "
            "(tritsim check --hint %s for a hint)\n", file, file, file);
    return 0;
}

/* The exercise a learner's file is: its line "# tritsim exercise: NAME",
 * else its name without .tk. */
static const teach_exercise *teach_of_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f) {
        char line[256], name[128];
        for (int i = 0; i < 20 && fgets(line, sizeof line, f); i++)
            if (sscanf(line, "# tritsim exercise: %127s", name) == 1) {
                fclose(f);
                return teach_find(name);
            }
        fclose(f);
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[128];
    snprintf(name, sizeof name, "%s", base);
    size_t n = strlen(name);
    if (n > 3 && !strcmp(name + n - 3, ".tk"))
        name[n - 3] = 0;
    return teach_find(name);
}

/* Hint k (from 1) of the exercise's hints file (hints are separated by
 * blank lines), in buf; how many there are. */
static int teach_hint(const char *hints, int k, char *buf, size_t len)
{
    int count = 0;
    const char *p = hints;
    buf[0] = 0;
    while (*p) {
        while (*p == '\n')
            p++;
        if (!*p)
            break;
        const char *end = strstr(p, "\n\n");
        if (!end)
            end = p + strlen(p);
        count++;
        if (count == k)
            snprintf(buf, len, "%.*s", (int)(end - p), p);
        p = end;
    }
    return count;
}

int teach_check(const char *path, bool hint, teach_modules_fn init, FILE *out)
{
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "tritsim: check: cannot read '%s': %s\n", path, strerror(errno));
        return 2;
    }
    const teach_exercise *e = teach_of_file(path);
    if (!e) {
        fprintf(stderr, "tritsim: check: %s is no exercise (it has no line '# tritsim "
                "exercise: NAME' and its name is none of the exercises')\n", path);
        return 2;
    }
    char dir[4096];
    teach_dir(path, dir, sizeof dir);
    teach_progress p = teach_progress_read(dir, e->name);
    if (hint) {
        char hname[160], text[2048];
        snprintf(hname, sizeof hname, "%s.hints", e->name);
        const char *hints = teach_file_text(hname);
        int n = teach_hint(hints ? hints : "", p.hints + 1, text, sizeof text);
        if (n == 0) {
            fprintf(out, "no hints for '%s'\n", e->name);
            return 0;
        }
        if (p.hints >= n) {
            teach_hint(hints, n, text, sizeof text);
            fprintf(out, "hint %d of %d (the last; there are no more):\n%s\n", n, n, text);
            return 0;
        }
        p.hints++;
        fprintf(out, "hint %d of %d:\n%s\n", p.hints, n, text);
        teach_progress_write(dir, e->name, p);
        return 0;
    }
    int st = teach_grade(e, path, init, out);
    if (st == 0 && !p.passed) {
        p.passed = true;
        teach_progress_write(dir, e->name, p);
    } else if (st == 1 && !p.known) {
        teach_progress_write(dir, e->name, p);   /* started */
    }
    return st;
}
