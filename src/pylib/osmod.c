/* osmod.c - the os module (environ as a live mapping of the process
 * environment, getenv, getcwd, cpu_count, makedirs, remove, unlink, rmdir,
 * listdir) and os.path (exists, isfile, isdir, join, basename, dirname,
 * splitext, abspath), tempfile (gettempdir, mkdtemp, TemporaryDirectory),
 * and urllib.request.urlretrieve, which refuses: tritsim reads no network. */
#define _DEFAULT_SOURCE   /* setenv, unsetenv, environ */
#include "builtins_impl.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pathname.h"

/* ---- os and os.path -------------------------------------------------------------------- */

extern char **environ;

/* os.environ: a mapping that reads and writes the process environment. */
static val builtin_environ_dict(void)
{
    val d = val_dict_new();
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        val_dict_set(d, val_str_new(*e, (size_t)(eq - *e)), val_str_cstr(eq + 1));
    }
    return d;
}

static bool builtin_environ_key(host *h, val key, src_span at, const char **out)
{
    if (key.kind != VAL_STR) {
        host_raise(h, HOST_EXC_TYPE, at, "str expected, not %s", val_type_name(key));
        return false;
    }
    *out = val_as_str(key)->s;
    return true;
}

static val builtin_environ_getitem(host *h, val self, val key, src_span at)
{
    (void)self;
    const char *k;
    if (!builtin_environ_key(h, key, at, &k))
        return val_err();
    const char *v = getenv(k);
    if (!v)
        return host_raise(h, HOST_EXC_KEY, at,
                          "KeyError: '%s' (the environment variable is not set; use "
                          "os.environ.get('%s') to get None instead)", k, k);
    return val_str_cstr(v);
}

static bool builtin_environ_setitem(host *h, val self, val key, val v, src_span at)
{
    (void)self;
    const char *k, *s;
    if (!builtin_environ_key(h, key, at, &k))
        return false;
    if (v.kind != VAL_STR) {
        host_raise(h, HOST_EXC_TYPE, at,
                   "str expected, not %s (environment values are strings: write "
                   "'1', not 1)", val_type_name(v));
        return false;
    }
    s = val_as_str(v)->s;
    if (!*k || strchr(k, '=') || setenv(k, s, 1) != 0) {
        host_raise(h, HOST_EXC_OS, at, "cannot set the environment variable '%s'", k);
        return false;
    }
    return true;
}

static val builtin_environ_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at)
{
    (void)inplace;
    (void)b;
    if (op != AST_OP_IN)
        return val_missing();
    const char *k;
    if (!builtin_environ_key(h, a, at, &k))
        return val_err();
    return val_bool(getenv(k) != NULL);
}

static val builtin_environ_iter(host *h, val self, src_span at)
{
    (void)h;
    (void)self;
    (void)at;
    val d = builtin_environ_dict();
    val l = val_list_new(val_as_dict(d)->len);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(d, &pos, &k, &v))
        val_list_push(l, val_ref(k));
    val_unref(d);
    return l;
}

static int64_t builtin_environ_len(host *h, val self, src_span at)
{
    (void)h;
    (void)self;
    (void)at;
    int64_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    return n;
}

static void builtin_environ_repr(host *h, val self, strbuf *out)
{
    (void)self;
    val d = builtin_environ_dict();
    strbuf_puts(out, "environ(");
    val_print_repr(h, d, out);
    strbuf_putc(out, ')');
    val_unref(d);
}

BUILTIN_FN(builtin_environ_get)
{
    (void)self;
    const char *k;
    if (!builtin_nargs(h, "get", argc, kw, 1, 2, at) ||
        !builtin_environ_key(h, argv[0], at, &k))
        return val_err();
    const char *v = getenv(k);
    if (v)
        return val_str_cstr(v);
    return argc == 2 ? val_ref(argv[1]) : val_none();
}

BUILTIN_FN(builtin_environ_setdefault)
{
    const char *k;
    if (!builtin_nargs(h, "setdefault", argc, kw, 2, 2, at) ||
        !builtin_environ_key(h, argv[0], at, &k))
        return val_err();
    const char *v = getenv(k);
    if (v)
        return val_str_cstr(v);
    if (!builtin_environ_setitem(h, self, argv[0], argv[1], at))
        return val_err();
    return val_ref(argv[1]);
}

BUILTIN_FN(builtin_environ_pop)
{
    (void)self;
    const char *k;
    if (!builtin_nargs(h, "pop", argc, kw, 1, 2, at) ||
        !builtin_environ_key(h, argv[0], at, &k))
        return val_err();
    const char *v = getenv(k);
    if (!v) {
        if (argc == 2)
            return val_ref(argv[1]);
        return host_raise(h, HOST_EXC_KEY, at, "KeyError: '%s'", k);
    }
    val r = val_str_cstr(v);
    unsetenv(k);
    return r;
}

/* os.environ.keys(), .values() and .items(): a view of a snapshot of the
 * environment taken now. */
static val builtin_environ_view(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at, const char *name, int what)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, name, argc, kw, 0, 0, at))
        return val_err();
    val d = builtin_environ_dict();
    val v = builtin_view_new(d, what);
    val_unref(d);
    return v;
}

HOST_CFUNC_CALLING(builtin_environ_keys, builtin_environ_view, "keys", 0)
HOST_CFUNC_CALLING(builtin_environ_values, builtin_environ_view, "values", 1)
HOST_CFUNC_CALLING(builtin_environ_items, builtin_environ_view, "items", 2)

BUILTIN_FN(builtin_environ_copy)
{
    (void)argv;
    (void)self;
    if (!builtin_nargs(h, "copy", argc, kw, 0, 0, at))
        return val_err();
    return builtin_environ_dict();
}

static const char *const builtin_environ_attrs[] = {
    "get", "setdefault", "pop", "keys", "values", "items", "copy", NULL,
};

static val builtin_environ_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h;
    (void)at;
    static const val_method ms[] = {
        {"get", "os.environ.get", builtin_environ_get},
        {"setdefault", "os.environ.setdefault", builtin_environ_setdefault},
        {"pop", "os.environ.pop", builtin_environ_pop},
        {"keys", "os.environ.keys", builtin_environ_keys},
        {"values", "os.environ.values", builtin_environ_values},
        {"items", "os.environ.items", builtin_environ_items},
        {"copy", "os.environ.copy", builtin_environ_copy},
    };
    return val_method_bind(ms, sizeof ms / sizeof ms[0], name, self);
}

static const val_type builtin_environ_type = {
    .name = "_Environ",
    .getattr = builtin_environ_getattr,
    .getitem = builtin_environ_getitem,
    .setitem = builtin_environ_setitem,
    .binop = builtin_environ_binop,
    .len = builtin_environ_len,
    .iter = builtin_environ_iter,
    .repr = builtin_environ_repr,
    .attr_names = builtin_environ_attrs,
};

BUILTIN_FN(builtin_os_getenv)
{
    (void)self;
    return builtin_environ_get(h, val_none(), argc, argv, kw, at);
}

BUILTIN_FN(builtin_os_getcwd)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "getcwd", argc, kw, 0, 0, at))
        return val_err();
    char buf[4096];
    if (!getcwd(buf, sizeof buf))
        return host_raise(h, HOST_EXC_OS, at, "OSError: cannot read the current directory: %s",
                          strerror(errno));
    return val_str_cstr(buf);
}

BUILTIN_FN(builtin_os_cpu_count)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "cpu_count", argc, kw, 0, 0, at))
        return val_err();
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? val_int(n) : val_none();
}

/* os.makedirs(name, mode=0o777, exist_ok=False): every missing directory
 * of the path, as Python makes them. */
BUILTIN_FN(builtin_os_makedirs)
{
    (void)self;
    val a[3];
    const char *path;
    if (!host_args(h, at, "makedirs", "name, mode=, exist_ok=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "the path", &path))
        return val_err();
    int exist_ok = 0;
    if (a[2].kind != VAL_MISSING && (exist_ok = host_truth(h, a[2], at)) < 0)
        return val_err();
    mode_t mode = a[1].kind == VAL_INT ? (mode_t)a[1].u.i : 0777;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (exist_ok && S_ISDIR(st.st_mode))
            return val_none();
        return fileio_raise_errno(h, EEXIST, path, at);
    }
    char *buf = xstrdup(path);
    bool ok = true;
    for (char *c = buf + 1; ok && *c; c++)
        if (*c == '/') {
            *c = '\0';
            ok = mkdir(buf, mode) == 0 || errno == EEXIST;
            *c = '/';
        }
    ok = ok && (mkdir(buf, mode) == 0 || (exist_ok && errno == EEXIST));
    int err = errno;
    free(buf);
    if (!ok)
        return host_raise(h, HOST_EXC_OS, at, "OSError: cannot create directory '%s': %s", path,
                          strerror(err));
    return val_none();
}

/* A path argument of the os.path functions: a str, or what an object's
 * __fspath__() gives (pathlib.Path); a new reference, VAL_ERR after
 * reporting. */
static val builtin_fspath(host *h, val v, src_span at, const char *fname)
{
    if (v.kind == VAL_STR || v.kind == VAL_ERR)
        return val_ref(v);
    val f = v.kind == VAL_OBJECT ? host_getattr_opt(h, v, "__fspath__", at) : val_missing();
    if (f.kind == VAL_ERR)
        return f;
    if (f.kind != VAL_MISSING) {
        val r = host_call(h, f, 0, NULL, NULL, at);
        val_unref(f);
        if (r.kind == VAL_STR || r.kind == VAL_ERR)
            return r;
        val_unref(r);
    }
    return host_error(h, at, "%s() argument must be str or os.PathLike object, not '%s'",
                      fname, val_type_name(v));
}

static val builtin_stat_test(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int which)
{
    (void)self;
    if (!builtin_nargs(h, name, argc, kw, 1, 1, at))
        return val_err();
    val p = builtin_fspath(h, argv[0], at, name);
    if (p.kind == VAL_ERR)
        return p;
    struct stat st;
    bool found = stat(val_as_str(p)->s, &st) == 0;
    val_unref(p);
    if (!found)
        return val_bool(false);
    return val_bool(which == 0 || (which == 1 ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode)));
}

HOST_CFUNC_CALLING(builtin_path_exists, builtin_stat_test, "exists", 0)
HOST_CFUNC_CALLING(builtin_path_isfile, builtin_stat_test, "isfile", 1)
HOST_CFUNC_CALLING(builtin_path_isdir, builtin_stat_test, "isdir", 2)

BUILTIN_FN(builtin_path_join)
{
    (void)self;
    if (!builtin_no_kwargs(h, "join", kw, at))
        return val_err();
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "join() missing 1 required positional argument: 'a'");
    strbuf b = {0};
    for (int i = 0; i < argc; i++) {
        val pv = builtin_fspath(h, argv[i], at, "join");
        if (pv.kind == VAL_ERR) {
            strbuf_free(&b);
            return pv;
        }
        const char *p = val_as_str(pv)->s;
        if (p[0] == '/')
            strbuf_clear(&b);
        else if (b.len && b.data[b.len - 1] != '/')
            strbuf_putc(&b, '/');
        strbuf_puts(&b, p);
        val_unref(pv);
    }
    return val_str_from_buf(&b);
}

/* basename, dirname, splitext, abspath */
static val builtin_path_part(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at, const char *name, int which)
{
    (void)self;
    if (!builtin_nargs(h, name, argc, kw, 1, 1, at))
        return val_err();
    val pv = builtin_fspath(h, argv[0], at, name);
    if (pv.kind == VAL_ERR)
        return pv;
    const char *p = val_as_str(pv)->s;
    size_t n = val_as_str(pv)->len;
    const char *slash = strrchr(p, '/');
    size_t base = slash ? (size_t)(slash - p) + 1 : 0;
    val r;
    if (which == 0) {
        r = val_str_new(p + base, n - base);
    } else if (which == 1) {
        size_t e = base;
        while (e > 1 && p[e - 1] == '/')
            e--;   /* dirname('/a/b') is '/a', dirname('/a') is '/' */
        r = val_str_new(p, e);
    } else if (which == 3) {
        char *a = pathname_abspath(p);
        r = a ? val_str_cstr(a)
              : host_error(h, at, "OSError: cannot read the current directory: %s",
                           strerror(errno));
        free(a);
    } else {
        const char *dot = strrchr(p + base, '.');
        size_t lead = base;
        while (lead < n && p[lead] == '.')
            lead++;
        if (!dot || dot < p + lead) {
            val t[2] = {val_ref(pv), val_str_cstr("")};
            r = val_tuple_of(2, t);
        } else {
            val t[2] = {val_str_new(p, (size_t)(dot - p)), val_str_cstr(dot)};
            r = val_tuple_of(2, t);
        }
    }
    val_unref(pv);
    return r;
}

HOST_CFUNC_CALLING(builtin_path_basename, builtin_path_part, "basename", 0)
HOST_CFUNC_CALLING(builtin_path_dirname, builtin_path_part, "dirname", 1)
HOST_CFUNC_CALLING(builtin_path_splitext, builtin_path_part, "splitext", 2)
HOST_CFUNC_CALLING(builtin_path_abspath, builtin_path_part, "abspath", 3)

/* os.remove / os.unlink (what 0), os.rmdir (1), os.listdir (2; path
 * optional, "." by default) */
static val builtin_os_file(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at, const char *name, int what)
{
    (void)self;
    if (!builtin_nargs(h, name, argc, kw, what == 2 ? 0 : 1, 1, at))
        return val_err();
    val p = argc ? builtin_fspath(h, argv[0], at, name) : val_str_cstr(".");
    if (p.kind == VAL_ERR)
        return p;
    const char *path = val_as_str(p)->s;
    val r = val_none();
    if (what == 2) {
        DIR *d = opendir(path);
        if (!d) {
            r = fileio_raise_errno(h, errno, path, at);
        } else {
            r = val_list_new(8);
            struct dirent *e;
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                    val_list_push(r, val_str_cstr(e->d_name));
            closedir(d);
        }
    } else if ((what == 0 ? unlink(path) : rmdir(path)) != 0) {
        r = fileio_raise_errno(h, errno, path, at);
    }
    val_unref(p);
    return r;
}

HOST_CFUNC_CALLING(builtin_os_remove, builtin_os_file, "remove", 0)
HOST_CFUNC_CALLING(builtin_os_unlink, builtin_os_file, "unlink", 0)
HOST_CFUNC_CALLING(builtin_os_rmdir, builtin_os_file, "rmdir", 1)
HOST_CFUNC_CALLING(builtin_os_listdir, builtin_os_file, "listdir", 2)

void builtin_os_init(host *h)
{
    val os = val_module_new("os");
    val_object *eo = val_obj_new(sizeof *eo, VAL_OBJECT, &builtin_environ_type);
    val_object_set(os, "environ", val_of(eo));
    host_def(os, "os.getenv", builtin_os_getenv);
    host_def(os, "os.getcwd", builtin_os_getcwd);
    host_def(os, "os.cpu_count", builtin_os_cpu_count);
    host_def(os, "os.makedirs", builtin_os_makedirs);
    host_def(os, "os.remove", builtin_os_remove);
    host_def(os, "os.unlink", builtin_os_unlink);
    host_def(os, "os.rmdir", builtin_os_rmdir);
    host_def(os, "os.listdir", builtin_os_listdir);
    val_object_set(os, "sep", val_str_cstr("/"));
    val_object_set(os, "pathsep", val_str_cstr(":"));
    val_object_set(os, "devnull", val_str_cstr("/dev/null"));
    /* access() modes, as shutil.which's mode= takes them (POSIX values) */
    val_object_set(os, "F_OK", val_int(0));
    val_object_set(os, "R_OK", val_int(4));
    val_object_set(os, "W_OK", val_int(2));
    val_object_set(os, "X_OK", val_int(1));
    val_object_set(os, "name", val_str_cstr("posix"));
    val path = val_module_new("os.path");
    host_def(path, "os.path.exists", builtin_path_exists);
    host_def(path, "os.path.isfile", builtin_path_isfile);
    host_def(path, "os.path.isdir", builtin_path_isdir);
    host_def(path, "os.path.join", builtin_path_join);
    host_def(path, "os.path.basename", builtin_path_basename);
    host_def(path, "os.path.dirname", builtin_path_dirname);
    host_def(path, "os.path.splitext", builtin_path_splitext);
    host_def(path, "os.path.abspath", builtin_path_abspath);
    val_object_set(os, "path", val_ref(path));
    host_register_module(h, "os", os);
    host_register_module(h, "os.path", path);
}

/* ---- tempfile ------------------------------------------------------------------------- */

/* The folder temporary files go in: $TMPDIR, else /tmp. */
static const char *builtin_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

BUILTIN_FN(builtin_tempfile_gettempdir)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "gettempdir", argc, kw, 0, 0, at))
        return val_err();
    return val_str_cstr(builtin_tmpdir());
}

/* A new directory dir/prefixXXXXXXsuffix, as tempfile.mkdtemp makes it. */
static val builtin_mkdtemp(host *h, int argc, const val *argv, const val_kwargs *kw,
                           src_span at, const char *fname)
{
    val a[3];
    if (!host_args(h, at, fname, "suffix=, prefix=, dir=", argc, argv, kw, a))
        return val_err();
    const char *part[3] = {"", "tmp", builtin_tmpdir()};
    for (int i = 0; i < 3; i++)
        if (a[i].kind != VAL_MISSING && a[i].kind != VAL_NONE &&
            !host_to_str(h, a[i], at, fname, &part[i]))
            return val_err();
    for (int tries = 0; tries < 100; tries++) {
        val p = val_str_fmt("%s/%s%08llx%s", part[2], part[1],
                            ((unsigned long long)builtin_time_ns() * 2654435761u + (unsigned)tries) &
                                0xffffffffu, part[0]);
        if (mkdir(val_as_str(p)->s, 0700) == 0)
            return p;
        int err = errno;
        if (err != EEXIST) {
            val r = fileio_raise_errno(h, err, val_as_str(p)->s, at);
            val_unref(p);
            return r;
        }
        val_unref(p);
    }
    return fileio_raise_errno(h, EEXIST, part[2], at);
}

BUILTIN_FN(builtin_tempfile_mkdtemp)
{
    (void)self;
    return builtin_mkdtemp(h, argc, argv, kw, at, "mkdtemp");
}

/* Remove path and everything under it (shutil.rmtree); false with errno. */
static bool builtin_rmtree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            strbuf b = {0};
            strbuf_printf(&b, "%s/%s", path, e->d_name);
            struct stat st;
            if (lstat(strbuf_cstr(&b), &st) == 0 && S_ISDIR(st.st_mode))
                builtin_rmtree(strbuf_cstr(&b));
            else
                unlink(strbuf_cstr(&b));
            strbuf_free(&b);
        }
        closedir(d);
    }
    return rmdir(path) == 0 || errno == ENOENT;
}

typedef struct builtin_tmpdir_obj {
    val_object o;
    val name;
    bool removed;
} builtin_tmpdir_obj;

static const val_type builtin_tmpdir_type;

BUILTIN_FN(builtin_tmpdir_cleanup)
{
    (void)argc, (void)argv, (void)kw;
    builtin_tmpdir_obj *t = (builtin_tmpdir_obj *)self.u.o;
    if (!t->removed) {
        t->removed = true;
        if (!builtin_rmtree(val_as_str(t->name)->s))
            return fileio_raise_errno(h, errno, val_as_str(t->name)->s, at);
    }
    return val_none();
}

BUILTIN_FN(builtin_tmpdir_enter)
{
    (void)h, (void)argc, (void)argv, (void)kw, (void)at;
    return val_ref(((builtin_tmpdir_obj *)self.u.o)->name);
}

static val builtin_tmpdir_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "name"))
        return val_ref(((builtin_tmpdir_obj *)self.u.o)->name);
    if (!strcmp(name, "cleanup") || !strcmp(name, "__exit__"))
        return val_builtin_new("TemporaryDirectory.cleanup", builtin_tmpdir_cleanup,
                               val_ref(self));
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("TemporaryDirectory.__enter__", builtin_tmpdir_enter,
                               val_ref(self));
    return val_missing();
}

static void builtin_tmpdir_repr(host *h, val self, strbuf *out)
{
    val r = host_repr(h, ((builtin_tmpdir_obj *)self.u.o)->name);
    strbuf_printf(out, "<TemporaryDirectory %s>", r.kind == VAL_STR ? val_as_str(r)->s : "?");
    val_unref(r);
}

/* A TemporaryDirectory the program forgot is removed when it goes. */
static void builtin_tmpdir_free(val_obj *o)
{
    builtin_tmpdir_obj *t = (builtin_tmpdir_obj *)o;
    if (!t->removed)
        builtin_rmtree(val_as_str(t->name)->s);
    val_unref(t->name);
}

static const char *const builtin_tmpdir_attrs[] = {"name", "cleanup", NULL};

static const val_type builtin_tmpdir_type = {
    .name = "TemporaryDirectory",
    .getattr = builtin_tmpdir_getattr,
    .repr = builtin_tmpdir_repr,
    .free = builtin_tmpdir_free,
    .attr_names = builtin_tmpdir_attrs,
};

BUILTIN_FN(builtin_tempfile_tmpdir)
{
    (void)self;
    val p = builtin_mkdtemp(h, argc, argv, kw, at, "TemporaryDirectory");
    if (p.kind == VAL_ERR)
        return p;
    builtin_tmpdir_obj *t = val_obj_new(sizeof *t, VAL_OBJECT, &builtin_tmpdir_type);
    t->name = p;
    return val_of(t);
}

void builtin_tempfile_init(host *h)
{
    val m = val_module_new("tempfile");
    host_def(m, "tempfile.gettempdir", builtin_tempfile_gettempdir);
    host_def(m, "tempfile.mkdtemp", builtin_tempfile_mkdtemp);
    host_def(m, "tempfile.TemporaryDirectory", builtin_tempfile_tmpdir);
    host_register_module(h, "tempfile", m);
}

/* urllib.request.urlretrieve(url, filename=None): tritsim reads no network
 * (the lecture downloads its photo only when the file is missing), so it
 * raises OSError, naming the file to put in place. */
BUILTIN_FN(builtin_urlretrieve)
{
    (void)self;
    val p[4];
    if (!host_args(h, at, "urlretrieve", "url, filename=, reporthook=, data=", argc, argv, kw, p))
        return val_err();
    val name = p[1].kind == VAL_MISSING || p[1].kind == VAL_NONE ? val_none() : host_str(h, p[1]);
    if (name.kind == VAL_ERR)
        return name;
    val u = host_str(h, p[0]);
    if (u.kind == VAL_ERR) {
        val_unref(name);
        return u;
    }
    host_raise(h, HOST_EXC_OS, at, "urlretrieve: tritsim does not download (no network "
               "access): fetch %s yourself%s%s", val_as_str(u)->s,
               name.kind == VAL_STR ? " and save it as " : "",
               name.kind == VAL_STR ? val_as_str(name)->s : "");
    val_unref(u);
    val_unref(name);
    return val_err();
}

void builtin_urllib_init(host *h)
{
    val urllib = val_module_new("urllib");
    val request = val_module_new("urllib.request");
    host_def(request, "urllib.request.urlretrieve", builtin_urlretrieve);
    val_object_set(urllib, "request", val_ref(request));
    host_register_module(h, "urllib", urllib);
    host_register_module(h, "urllib.request", request);
}
