/* shutilmod.c - shutil, as far as kernel libraries use it: which(cmd,
 * mode=os.F_OK | os.X_OK, path=None), the search of PATH for a program
 * that wrappers do before they call a compiler or a tool (`nvcc`, `hipcc`),
 * laid out as CPython 3.11's on POSIX; and disk_usage(path), the
 * usage(total, used, free) named tuple of the file system holding path,
 * in bytes, as CPython computes it from statvfs. */
#define _POSIX_C_SOURCE 200809L
#include "builtins_impl.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* CPython's _access_check: fn exists, access(fn, mode) allows it, and it
 * is not a folder. */
static bool shutil_access(const char *fn, int mode)
{
    struct stat st;
    return stat(fn, &st) == 0 && access(fn, mode) == 0 && !S_ISDIR(st.st_mode);
}

BUILTIN_FN(shutil_which)
{
    (void)self;
    val a[3];
    const char *cmd, *path = NULL;
    long long mode = F_OK | X_OK;
    if (!host_args(h, at, "which", "cmd, mode=, path=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "which() argument 'cmd'", &cmd))
        return val_err();
    if (a[1].kind != VAL_MISSING) {
        if (a[1].kind != VAL_INT) {
            host_raise(h, HOST_EXC_TYPE, at, "which() argument 'mode' must be an int, not %s",
                       val_type_name(a[1]));
            return val_err();
        }
        mode = a[1].u.i;
    }
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE &&
        !host_to_str(h, a[2], at, "which() argument 'path'", &path))
        return val_err();
    /* a command with a folder in it is checked as it is */
    if (strchr(cmd, '/'))
        return shutil_access(cmd, (int)mode) ? val_str_cstr(cmd) : val_none();
    if (!path)
        path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";   /* os.confstr("CS_PATH") on Linux */
    if (!*path)
        return val_none();
    val seen = val_dict_new();
    val found = val_none();
    const char *p = path;
    for (;;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        val dir = val_str_new(p, n);
        if (val_dict_get(seen, dir).kind == VAL_MISSING) {
            val_dict_set(seen, val_ref(dir), val_none());
            strbuf b = {0};
            /* os.path.join(dir, cmd) */
            if (n == 0)
                strbuf_puts(&b, cmd);
            else
                strbuf_printf(&b, "%.*s%s%s", (int)n, p, p[n - 1] == '/' ? "" : "/", cmd);
            if (shutil_access(b.data, (int)mode))
                found = val_str_cstr(b.data);
            strbuf_free(&b);
        }
        val_unref(dir);
        if (found.kind != VAL_NONE || !end)
            break;
        p = end + 1;
    }
    val_unref(seen);
    return found;
}

BUILTIN_FN(shutil_disk_usage)
{
    (void)self;
    val a[1];
    const char *path;
    if (!host_args(h, at, "disk_usage", "path", argc, argv, kw, a))
        return val_err();
    val p = a[0];
    if (p.kind != VAL_STR) {
        /* a pathlib.Path: its __fspath__ */
        val fs = host_getattr_opt(h, p, "__fspath__", at);
        if (fs.kind == VAL_ERR)
            return fs;
        if (fs.kind == VAL_MISSING)
            return host_raise(h, HOST_EXC_TYPE, at, "disk_usage() argument 'path' must be "
                              "str or os.PathLike, not %s", val_type_name(p));
        p = host_call(h, fs, 0, NULL, NULL, at);
        val_unref(fs);
        if (p.kind == VAL_ERR)
            return p;
    } else {
        val_ref(p);
    }
    if (!host_to_str(h, p, at, "disk_usage() argument 'path'", &path)) {
        val_unref(p);
        return val_err();
    }
    struct statvfs st;
    if (statvfs(path, &st) != 0) {
        val r = fileio_raise_errno(h, errno, path, at);
        val_unref(p);
        return r;
    }
    val_unref(p);
    /* CPython: free counts the blocks free to unprivileged users, used
     * the blocks not free at all */
    long long total = (long long)st.f_blocks * (long long)st.f_frsize;
    long long freeb = (long long)st.f_bavail * (long long)st.f_frsize;
    long long used = ((long long)st.f_blocks - (long long)st.f_bfree) * (long long)st.f_frsize;
    val coll = host_import_module(h, "collections", at);
    if (coll.kind == VAL_ERR)
        return coll;
    val nt = host_getattr(h, coll, "namedtuple", at);
    val_unref(coll);
    if (nt.kind == VAL_ERR)
        return nt;
    val targs[2] = {val_str_cstr("usage"), val_str_cstr("total used free")};
    val cls = host_call(h, nt, 2, targs, NULL, at);
    val_unref(targs[0]);
    val_unref(targs[1]);
    val_unref(nt);
    if (cls.kind == VAL_ERR)
        return cls;
    val vals[3] = {val_int(total), val_int(used), val_int(freeb)};
    val r = host_call(h, cls, 3, vals, NULL, at);
    val_unref(cls);
    return r;
}

void builtin_shutil_init(host *h)
{
    val m = val_module_new("shutil");
    host_def(m, "shutil.which", shutil_which);
    host_def(m, "shutil.disk_usage", shutil_disk_usage);
    host_register_module(h, "shutil", m);
}
