/* pathlibmod.c - pathlib.Path: a PosixPath holding its path in the form
 * PurePosixPath gives it (empty and "." components dropped, repeated
 * slashes joined, ".." kept, a leading "//" kept as POSIX allows, "." for
 * nothing), its pure operations (/, parent, name, suffix, stem, parts,
 * joinpath, with_name, with_suffix, is_absolute, ==) and the file-system
 * queries a program asks most (exists, is_file, is_dir, absolute, resolve,
 * mkdir, is_symlink), the home directory (expanduser, Path.home) and
 * Path.cwd, the ancestors (parents), and its files: open, read_text,
 * write_text, read_bytes, write_bytes (through fileio.c), unlink, rmdir,
 * iterdir, glob, rglob.  str(p) and os.fspath-style uses
 * (the os.path functions, p.__fspath__()) give the path. */
#define _DEFAULT_SOURCE   /* realpath */
#include "pathlibmod.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>
#include <pwd.h>
#include <fnmatch.h>

#include "arena.h"
#include "bytesval.h"
#include "builtins_impl.h"
#include "pathname.h"
#include "strbuf.h"
#include "val.h"

typedef struct path_obj {
    val_object o;
    char *s;            /* the normalized path, owned */
} path_obj;

static const val_type path_type;

static bool is_path(val v)
{
    return v.kind == VAL_OBJECT && v.u.o->type == &path_type;
}

static const char *path_of(val v)
{
    return ((const path_obj *)v.u.o)->s;
}

/* ---- pure paths ------------------------------------------------------------ */

/* Join the path strings parts[0..n) as PurePosixPath(*parts) does: a part
 * with a root starts over. */
static char *path_join(int n, const char *const *parts)
{
    strbuf root, body;
    strbuf_init(&root);
    strbuf_init(&body);
    for (int i = 0; i < n; i++) {
        const char *p = parts[i];
        size_t r = pathname_root_len(p);
        if (r) {
            strbuf_clear(&root);
            strbuf_putn(&root, "//", r);
            strbuf_clear(&body);
        }
        while (*p) {
            while (*p == '/')
                p++;
            size_t len = strcspn(p, "/");
            if (len && !(len == 1 && p[0] == '.')) {
                if (body.len)
                    strbuf_putc(&body, '/');
                strbuf_putn(&body, p, len);
            }
            p += len;
        }
    }
    strbuf_puts(&root, strbuf_cstr(&body));
    char *s = xstrdup(root.len ? strbuf_cstr(&root) : ".");
    strbuf_free(&root);
    strbuf_free(&body);
    return s;
}

static val path_new_owned(char *s)
{
    path_obj *p = val_obj_new(sizeof *p, VAL_OBJECT, &path_type);
    p->s = s;
    return val_of(p);
}

static val path_new(int n, const char *const *parts)
{
    return path_new_owned(path_join(n, parts));
}

/* The last component ("" for a root or "."). */
static const char *path_name(const char *s)
{
    if (!strcmp(s, "."))
        return "";
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

/* Where the name's suffix starts (its '.'), or NULL: a dot that is
 * neither the name's first nor its last character. */
static const char *path_suffix_at(const char *name)
{
    const char *dot = strrchr(name, '.');
    size_t n = strlen(name);
    return dot && dot > name && dot < name + n - 1 ? dot : NULL;
}

static char *path_parent(const char *s)
{
    size_t r = pathname_root_len(s);
    const char *name = path_name(s);
    if (!*name)
        return xstrdup(s);              /* "/", "//" and "." are their own parents */
    size_t keep = (size_t)(name - s);
    if (keep > r)
        keep--;                          /* the slash before the name */
    if (keep == 0)
        return xstrdup(".");
    char *p = xmalloc(keep + 1);
    memcpy(p, s, keep);
    p[keep] = '\0';
    return p;
}

/* A str or path argument as a path string (borrowed), else the error
 * Python gives. */
static bool path_arg(host *h, val v, src_span at, const char **out)
{
    if (v.kind == VAL_STR) {
        *out = val_as_str(v)->s;
        return true;
    }
    if (is_path(v)) {
        *out = path_of(v);
        return true;
    }
    if (v.kind != VAL_ERR)
        host_error(h, at, "argument should be a str or an os.PathLike object where "
                   "__fspath__ returns a str, not '%s'", val_type_name(v));
    return false;
}

/* The path strings of argv[0..argc), after first (may be NULL). */
static val path_from_args(host *h, const char *first, int argc, const val *argv, src_span at)
{
    const char **parts = xmalloc(((size_t)argc + 1) * sizeof *parts);
    int n = 0;
    if (first)
        parts[n++] = first;
    for (int i = 0; i < argc; i++)
        if (!path_arg(h, argv[i], at, &parts[n++])) {
            free(parts);
            return val_err();
        }
    val r = path_new(n, parts);
    free(parts);
    return r;
}

/* ---- the constructor and methods ------------------------------------------ */

static val fn_path(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    (void)self;
    if (kw && kw->n)
        return host_error(h, at, "Path() got an unexpected keyword argument '%s'",
                          kw->names[0]);
    return path_from_args(h, NULL, argc, argv, at);
}

static bool path_no_args(host *h, const char *fname, int argc, const val_kwargs *kw,
                         src_span at)
{
    if (argc == 0 && (!kw || kw->n == 0))
        return true;
    host_error(h, at, "%s() takes no arguments", fname);
    return false;
}

static val path_cwd_str(host *h, src_span at)
{
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf))
        return host_error(h, at, "OSError: cannot read the current directory: %s",
                          strerror(errno));
    return val_str_cstr(buf);
}

static val fn_joinpath(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    if (kw && kw->n)
        return host_error(h, at, "joinpath() takes no keyword arguments");
    return path_from_args(h, path_of(self), argc, argv, at);
}

static val fn_str(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    (void)argv;
    if (!path_no_args(h, "as_posix", argc, kw, at))
        return val_err();
    return val_str_cstr(path_of(self));
}

static int path_stat_kind(const char *s)
{
    struct stat st;
    if (stat(s, &st) != 0)
        return 0;
    return S_ISDIR(st.st_mode) ? 2 : S_ISREG(st.st_mode) ? 1 : 3;
}

static val path_test(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, const char *fname, int which)
{
    (void)argv;
    if (!path_no_args(h, fname, argc, kw, at))
        return val_err();
    if (which == 3)
        return val_bool(pathname_root_len(path_of(self)) > 0);
    int k = path_stat_kind(path_of(self));
    return val_bool(which == 0 ? k != 0 : k == which);
}

HOST_CFUNC_CALLING(fn_exists, path_test, "exists", 0)
HOST_CFUNC_CALLING(fn_is_file, path_test, "is_file", 1)
HOST_CFUNC_CALLING(fn_is_dir, path_test, "is_dir", 2)
HOST_CFUNC_CALLING(fn_is_absolute, path_test, "is_absolute", 3)

static val fn_is_symlink(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)argv;
    if (!path_no_args(h, "is_symlink", argc, kw, at))
        return val_err();
    struct stat st;
    return val_bool(lstat(path_of(self), &st) == 0 && S_ISLNK(st.st_mode));
}

/* The path with a leading "~" or "~user" replaced by that home directory
 * as CPython's expanduser finds it ($HOME for "~", else the password
 * database); NULL when there is none.  Other paths come back unchanged. */
static char *path_expand_home(const char *s)
{
    if (s[0] != '~')
        return xstrdup(s);
    size_t ulen = strcspn(s + 1, "/");
    const char *home = NULL;
    if (ulen == 0) {
        home = getenv("HOME");
        if (!home) {
            struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : NULL;
        }
    } else {
        char *user = xmalloc(ulen + 1);
        memcpy(user, s + 1, ulen);
        user[ulen] = '\0';
        struct passwd *pw = getpwnam(user);
        free(user);
        home = pw ? pw->pw_dir : NULL;
    }
    if (!home)
        return NULL;
    const char *rest = s + 1 + ulen;
    while (*rest == '/')
        rest++;                          /* relative to home, not a new root */
    const char *parts[2] = {home, rest};
    return path_join(2, parts);
}

static val path_expanduser(host *h, const char *s, src_span at)
{
    char *e = path_expand_home(s);
    if (!e)
        return host_error(h, at, "Could not determine home directory.");
    return path_new_owned(e);
}

static val fn_expanduser(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)argv;
    if (!path_no_args(h, "expanduser", argc, kw, at))
        return val_err();
    return path_expanduser(h, path_of(self), at);
}

/* Path.home() and Path.cwd(), through type_getattr. */
static val fn_home(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    (void)self, (void)argv;
    if (!path_no_args(h, "home", argc, kw, at))
        return val_err();
    return path_expanduser(h, "~", at);
}

static val fn_cwd(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at)
{
    (void)self, (void)argv;
    if (!path_no_args(h, "cwd", argc, kw, at))
        return val_err();
    val c = path_cwd_str(h, at);
    if (c.kind == VAL_ERR)
        return c;
    const char *parts[1] = {val_as_str(c)->s};
    val r = path_new(1, parts);
    val_unref(c);
    return r;
}

static val path_absolute(host *h, val self, src_span at)
{
    if (pathname_root_len(path_of(self)))
        return val_ref(self);
    val c = path_cwd_str(h, at);
    if (c.kind == VAL_ERR)
        return c;
    const char *parts[2] = {val_as_str(c)->s, path_of(self)};
    val r = path_new(2, parts);
    val_unref(c);
    return r;
}

static val fn_absolute(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)argv;
    if (!path_no_args(h, "absolute", argc, kw, at))
        return val_err();
    return path_absolute(h, self, at);
}

/* resolve(): the real path when the file exists; else the absolute path
 * with ".." taken lexically. */
static val fn_resolve(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)argv;
    if (!path_no_args(h, "resolve", argc, kw, at))
        return val_err();
    char *r = realpath(path_of(self), NULL);
    if (!r)
        r = pathname_abspath(path_of(self));
    if (!r)
        return host_error(h, at, "OSError: cannot read the current directory: %s",
                          strerror(errno));
    return path_new_owned(r);
}

static val fn_with_name(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val a[1];
    const char *name;
    if (!host_args(h, at, "with_name", "name", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "with_name() argument", &name))
        return val_err();
    if (!*path_name(path_of(self)))
        return host_error(h, at, "ValueError: PosixPath('%s') has an empty name",
                          path_of(self));
    if (!*name || !strcmp(name, ".") || strchr(name, '/'))
        return host_error(h, at, "ValueError: Invalid name '%s'", name);
    char *parent = path_parent(path_of(self));
    const char *parts[2] = {parent, name};
    val r = path_new(2, parts);
    free(parent);
    return r;
}

static val fn_with_suffix(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    val a[1];
    const char *suffix;
    if (!host_args(h, at, "with_suffix", "suffix", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "with_suffix() argument", &suffix))
        return val_err();
    const char *s = path_of(self), *name = path_name(s);
    if (!*name)
        return host_error(h, at, "ValueError: PosixPath('%s') has an empty name", s);
    if (strchr(suffix, '/') || (*suffix && (suffix[0] != '.' || !suffix[1])))
        return host_error(h, at, "ValueError: Invalid suffix '%s'", suffix);
    const char *dot = path_suffix_at(name);
    size_t keep = dot ? (size_t)(dot - s) : strlen(s);
    strbuf b;
    strbuf_init(&b);
    strbuf_putn(&b, s, keep);
    strbuf_puts(&b, suffix);
    char *r = xstrdup(strbuf_cstr(&b));
    strbuf_free(&b);
    return path_new_owned(r);
}

/* mkdir(mode=0o777, parents=False, exist_ok=False) */
static val fn_mkdir(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    val a[3];
    if (!host_args(h, at, "mkdir", "mode=, parents=, exist_ok=", argc, argv, kw, a))
        return val_err();
    int parents = 0, exist_ok = 0;
    if ((a[1].kind != VAL_MISSING && (parents = host_truth(h, a[1], at)) < 0) ||
        (a[2].kind != VAL_MISSING && (exist_ok = host_truth(h, a[2], at)) < 0))
        return val_err();
    mode_t mode = a[0].kind == VAL_INT ? (mode_t)a[0].u.i : 0777;
    const char *s = path_of(self);
    if (path_stat_kind(s)) {
        if (exist_ok && path_stat_kind(s) == 2)
            return val_none();
        return host_error(h, at, "FileExistsError: [Errno 17] File exists: '%s'", s);
    }
    char *buf = xstrdup(s);
    bool ok = true;
    for (char *c = buf + 1; parents && ok && *c; c++)
        if (*c == '/') {
            *c = '\0';
            ok = mkdir(buf, mode) == 0 || errno == EEXIST;
            *c = '/';
        }
    ok = ok && mkdir(buf, mode) == 0;
    int err = errno;
    free(buf);
    if (!ok && err == ENOENT)
        return host_error(h, at, "FileNotFoundError: [Errno 2] No such file or directory: "
                          "'%s' (parents=True makes the missing directories)", s);
    if (!ok)
        return host_error(h, at, "OSError: cannot create directory '%s': %s", s,
                          strerror(err));
    return val_none();
}

/* ---- files ----------------------------------------------------------------------- */

/* open() of the path: a new file object or VAL_ERR. */
static val path_open_mode(host *h, val self, const char *mode, val encoding, src_span at)
{
    val name = val_str_cstr(path_of(self));
    val f = fileio_open(h, name, mode, encoding, true, at);
    val_unref(name);
    return f;
}

static val fn_open(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                   src_span at)
{
    val a[5];
    const char *mode = "r";
    if (!host_args(h, at, "open", "mode=, buffering=, encoding=, errors=, newline=", argc,
                   argv, kw, a) ||
        (a[0].kind != VAL_MISSING && !host_to_str(h, a[0], at, "open() mode", &mode)))
        return val_err();
    return path_open_mode(h, self, mode, a[2], at);
}

/* Call method name of file f (no arguments, or arg), close f; the result. */
static val path_file_call(host *h, val f, const char *name, val arg, src_span at)
{
    val r = host_call_method(h, f, name, arg.kind == VAL_MISSING ? 0 : 1, &arg, NULL, at);
    val cr = host_call_method(h, f, "close", 0, NULL, NULL, at);
    if (cr.kind == VAL_ERR && r.kind != VAL_ERR) {
        val_unref(r);
        r = val_err();
    }
    val_unref(cr);
    val_unref(f);
    return r;
}

static val fn_read_text(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val a[2];
    if (!host_args(h, at, "read_text", "encoding=, errors=", argc, argv, kw, a))
        return val_err();
    val f = path_open_mode(h, self, "r", a[0], at);
    return f.kind == VAL_ERR ? f : path_file_call(h, f, "read", val_missing(), at);
}

static val fn_write_text(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    val a[4];
    if (!host_args(h, at, "write_text", "data, encoding=, errors=, newline=", argc, argv, kw,
                   a))
        return val_err();
    if (a[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "data must be str, not %s",
                          val_type_name(a[0]));
    val f = path_open_mode(h, self, "w", a[1], at);
    return f.kind == VAL_ERR ? f : path_file_call(h, f, "write", a[0], at);
}

static val fn_read_bytes(host *h, val self, int argc, const val *argv,
                         const val_kwargs *kw, src_span at)
{
    (void)argv;
    if (!path_no_args(h, "read_bytes", argc, kw, at))
        return val_err();
    val f = path_open_mode(h, self, "rb", val_missing(), at);
    return f.kind == VAL_ERR ? f : path_file_call(h, f, "read", val_missing(), at);
}

/* write_bytes(data): data bytes (CPython takes any bytes-like object
 * through a memoryview; tritsim's only one is bytes) */
static val fn_write_bytes(host *h, val self, int argc, const val *argv,
                          const val_kwargs *kw, src_span at)
{
    val a[1];
    if (!host_args(h, at, "write_bytes", "data", argc, argv, kw, a))
        return val_err();
    if (!bytesval_is(a[0]))
        return host_raise(h, HOST_EXC_TYPE, at, "memoryview: a bytes-like object is required, "
                          "not '%s'", val_type_name(a[0]));
    val f = path_open_mode(h, self, "wb", val_missing(), at);
    return f.kind == VAL_ERR ? f : path_file_call(h, f, "write", a[0], at);
}

static val fn_unlink(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at)
{
    val a[1];
    if (!host_args(h, at, "unlink", "missing_ok=", argc, argv, kw, a))
        return val_err();
    int missing_ok = 0;
    if (a[0].kind != VAL_MISSING && (missing_ok = host_truth(h, a[0], at)) < 0)
        return val_err();
    if (unlink(path_of(self)) != 0 && !(missing_ok && errno == ENOENT))
        return fileio_raise_errno(h, errno, path_of(self), at);
    return val_none();
}

static val fn_rmdir(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    if (!path_no_args(h, "rmdir", argc, kw, at))
        return val_err();
    (void)argv;
    if (rmdir(path_of(self)) != 0)
        return fileio_raise_errno(h, errno, path_of(self), at);
    return val_none();
}

/* The entries of directory dir (no . and ..), sorted by name (CPython's
 * order is the directory's: sorting makes runs repeatable); NULL with
 * errno set when it cannot be read. */
static val path_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return val_missing();
    val l = val_list_new(8);
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            val_list_push(l, val_str_cstr(e->d_name));
    closedir(d);
    val_seq *q = val_as_seq(l);
    for (size_t i = 1; i < q->len; i++)   /* insertion sort: directories are small */
        for (size_t j = i; j > 0 && strcmp(val_as_str(q->items[j - 1])->s,
                                           val_as_str(q->items[j])->s) > 0; j--) {
            val t = q->items[j];
            q->items[j] = q->items[j - 1];
            q->items[j - 1] = t;
        }
    return l;
}

static val path_child(val self, const char *name)
{
    const char *parts[2] = {path_of(self), name};
    return strcmp(path_of(self), ".") ? path_new(2, parts) : path_new(1, parts + 1);
}

static val fn_iterdir(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)argv;
    if (!path_no_args(h, "iterdir", argc, kw, at))
        return val_err();
    val names = path_entries(path_of(self));
    if (names.kind == VAL_MISSING)
        return fileio_raise_errno(h, errno, path_of(self), at);
    val l = val_list_new(val_as_seq(names)->len);
    for (size_t i = 0; i < val_as_seq(names)->len; i++)
        val_list_push(l, path_child(self, val_as_str(val_as_seq(names)->items[i])->s));
    val_unref(names);
    return host_iterator_new(l, "generator");
}

/* Add to out the paths under dir (a path) that match the components
 * pats[0..n); "**" matches any number of directories. */
static void path_glob_in(val dir, char **pats, int n, val out)
{
    if (n == 0) {
        val_list_push(out, val_ref(dir));
        return;
    }
    if (!strcmp(pats[0], "**")) {
        path_glob_in(dir, pats + 1, n - 1, out);    /* zero directories */
        val names = path_entries(path_of(dir));
        if (names.kind == VAL_MISSING)
            return;
        for (size_t i = 0; i < val_as_seq(names)->len; i++) {
            const char *nm = val_as_str(val_as_seq(names)->items[i])->s;
            val c = path_child(dir, nm);
            if (nm[0] != '.' && path_stat_kind(path_of(c)) == 2)
                path_glob_in(c, pats, n, out);
            val_unref(c);
        }
        val_unref(names);
        return;
    }
    val names = path_entries(path_of(dir));
    if (names.kind == VAL_MISSING)
        return;
    for (size_t i = 0; i < val_as_seq(names)->len; i++) {
        const char *nm = val_as_str(val_as_seq(names)->items[i])->s;
        if (fnmatch(pats[0], nm, FNM_PERIOD) != 0)
            continue;
        val c = path_child(dir, nm);
        if (n == 1 || path_stat_kind(path_of(c)) == 2)
            path_glob_in(c, pats + 1, n - 1, out);
        val_unref(c);
    }
    val_unref(names);
}

static val path_glob(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, const char *fname, bool recursive)
{
    val a[1];
    const char *pat;
    if (!host_args(h, at, fname, "pattern", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "pattern", &pat))
        return val_err();
    if (!*pat || pat[0] == '/')
        return host_raise(h, HOST_EXC_VALUE, at, "%s", *pat ? "Non-relative patterns are "
                          "unsupported" : "Unacceptable pattern: ''");
    strbuf full = {0};
    if (recursive)
        strbuf_puts(&full, "**/");
    strbuf_puts(&full, pat);
    char *copy = xstrdup(strbuf_cstr(&full));
    strbuf_free(&full);
    char *pats[64];
    int n = 0;
    for (char *tok = strtok(copy, "/"); tok && n < 64; tok = strtok(NULL, "/"))
        pats[n++] = tok;
    val out = val_list_new(8);
    path_glob_in(self, pats, n, out);
    free(copy);
    return host_iterator_new(out, "generator");
}

HOST_CFUNC_CALLING(fn_glob, path_glob, "glob", false)
HOST_CFUNC_CALLING(fn_rglob, path_glob, "rglob", true)

static const struct {
    const char *name;
    val_cfunc fn;
} path_methods[] = {
    {"open", fn_open}, {"read_text", fn_read_text}, {"write_text", fn_write_text},
    {"read_bytes", fn_read_bytes}, {"write_bytes", fn_write_bytes}, {"unlink", fn_unlink},
    {"rmdir", fn_rmdir}, {"iterdir", fn_iterdir}, {"glob", fn_glob}, {"rglob", fn_rglob},
    {"exists", fn_exists}, {"is_file", fn_is_file}, {"is_dir", fn_is_dir},
    {"is_symlink", fn_is_symlink}, {"expanduser", fn_expanduser},
    {"is_absolute", fn_is_absolute}, {"absolute", fn_absolute}, {"resolve", fn_resolve},
    {"joinpath", fn_joinpath}, {"with_name", fn_with_name},
    {"with_suffix", fn_with_suffix}, {"mkdir", fn_mkdir}, {"as_posix", fn_str},
    {"__fspath__", fn_str}, {"__str__", fn_str},
};

/* ---- the type's hooks --------------------------------------------------------- */

static val path_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    const char *s = path_of(self), *base = path_name(s);
    for (size_t i = 0; i < sizeof path_methods / sizeof path_methods[0]; i++)
        if (!strcmp(name, path_methods[i].name))
            return val_builtin_new(path_methods[i].name, path_methods[i].fn, val_ref(self));
    if (!strcmp(name, "name"))
        return val_str_cstr(base);
    if (!strcmp(name, "suffix")) {
        const char *dot = path_suffix_at(base);
        return val_str_cstr(dot ? dot : "");
    }
    if (!strcmp(name, "stem")) {
        const char *dot = path_suffix_at(base);
        return dot ? val_str_new(base, (size_t)(dot - base)) : val_str_cstr(base);
    }
    if (!strcmp(name, "parent"))
        return path_new_owned(path_parent(s));
    if (!strcmp(name, "parents")) {
        /* a tuple of the ancestors, nearest first (CPython's is a sequence
         * of its own; len, [i], `in` and iteration agree) */
        val l = val_list_new(4);
        char *cur = xstrdup(s);
        while (*path_name(cur)) {
            char *up = path_parent(cur);
            free(cur);
            cur = up;
            val_list_push(l, path_new_owned(xstrdup(cur)));
        }
        free(cur);
        val_seq *q = val_as_seq(l);
        val t = val_tuple_of(q->len, q->items);
        q->len = 0;
        val_unref(l);
        return t;
    }
    if (!strcmp(name, "parts")) {
        val l = val_list_new(4);
        size_t r = pathname_root_len(s);
        if (r)
            val_list_push(l, val_str_new(s, r));
        for (const char *p = s + r; *p && strcmp(s, ".");) {
            size_t len = strcspn(p, "/");
            val_list_push(l, val_str_new(p, len));
            p += len + (p[len] == '/');
        }
        val_seq *q = val_as_seq(l);
        val t = val_tuple_of(q->len, q->items);
        q->len = 0;
        val_unref(l);
        return t;
    }
    return val_missing();
}

static bool path_setattr(host *h, val self, const char *name, val value, src_span at)
{
    (void)self, (void)value;
    host_error(h, at, "'PosixPath' object has no attribute '%s'", name);
    return false;
}

/* p / q, str / p, p == q */
static val path_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    if (op == AST_OP_DIV) {
        if ((!is_path(a) && a.kind != VAL_STR) || (!is_path(b) && b.kind != VAL_STR))
            return val_missing();
        const char *parts[2];
        if (!path_arg(h, a, at, &parts[0]) || !path_arg(h, b, at, &parts[1]))
            return val_err();
        return path_new(2, parts);
    }
    if ((op == AST_OP_EQ || op == AST_OP_NE) && is_path(a) && is_path(b))
        return val_bool((strcmp(path_of(a), path_of(b)) == 0) == (op == AST_OP_EQ));
    return val_missing();
}

static val path_type_getattr(host *h, val type, const char *name, src_span at)
{
    (void)h, (void)type, (void)at;
    if (!strcmp(name, "home"))
        return val_builtin_new("pathlib.Path.home", fn_home, val_none());
    if (!strcmp(name, "cwd"))
        return val_builtin_new("pathlib.Path.cwd", fn_cwd, val_none());
    return val_missing();
}

static void path_str(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_puts(out, path_of(self));
}

static void path_repr(host *h, val self, strbuf *out)
{
    val s = val_str_cstr(path_of(self));
    val r = host_repr(h, s);
    strbuf_printf(out, "PosixPath(%s)", r.kind == VAL_STR ? val_as_str(r)->s : "?");
    val_unref(r);
    val_unref(s);
}

static void path_free(val_obj *self)
{
    free(((path_obj *)self)->s);
}

static const char *const path_attrs[] = {
    "name", "suffix", "stem", "parent", "parents", "parts", "exists", "is_file", "is_dir",
    "is_symlink", "expanduser",
    "is_absolute", "absolute", "resolve", "joinpath", "with_name", "with_suffix", "mkdir",
    "as_posix", "open", "read_text", "write_text", "read_bytes", "write_bytes", "unlink",
    "rmdir", "iterdir", "glob", "rglob", NULL,
};

static const val_type path_type = {
    .name = "PosixPath",
    .getattr = path_getattr,
    .setattr = path_setattr,
    .binop = path_binop,
    .str = path_str,
    .repr = path_repr,
    .free = path_free,
    .attr_names = path_attrs,
    .type_getattr = path_type_getattr,
};

void pathlib_init(host *h)
{
    val m = val_module_new("pathlib");
    static const char *const types[] = {"pathlib.Path", "pathlib.PosixPath"};
    for (int i = 0; i < 2; i++) {
        val t = val_builtin_new(types[i], fn_path, val_none());
        ((val_builtin *)t.u.o)->inst_kind = VAL_OBJECT;
        ((val_builtin *)t.u.o)->inst_type = &path_type;
        val_object_set(m, types[i] + 8, t);
    }
    host_register_module(h, "pathlib", m);
}
