/* importlibmod.c - importlib: import_module (absolute and relative
 * names), invalidate_caches; importlib.util.find_spec (a ModuleSpec or
 * None, without running the module) and module_from_spec, with the
 * spec's loader.exec_module; importlib.metadata.version, which
 * knows the packages tritsim provides (their __version__) and raises
 * PackageNotFoundError for every other name, as CPython does for a
 * package that is not installed.  Also pkgutil.iter_modules, which
 * packages use to import their own subpackages, and pkgutil.extend_path,
 * with which a package's __init__ spreads it over several folders. */
#define _POSIX_C_SOURCE 200809L
#include "builtins_impl.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pathname.h"

/* The absolute name of name (relative when it starts with dots) inside
 * package; false after raising. */
static bool importlib_resolve(host *h, const char *name, val package, src_span at,
                              strbuf *out)
{
    if (name[0] != '.') {
        strbuf_puts(out, name);
        return true;
    }
    const char *pkg;
    if (package.kind == VAL_MISSING || package.kind == VAL_NONE) {
        host_raise(h, HOST_EXC_TYPE, at, "the 'package' argument is required to perform a "
                   "relative import for '%s'", name);
        return false;
    }
    if (!host_to_str(h, package, at, "package", &pkg))
        return false;
    size_t level = strspn(name, ".");
    size_t n = strlen(pkg);
    for (size_t up = 1; up < level; up++) {
        /* one package up: cut at the last dot before n */
        size_t cut = n;
        while (cut > 0 && pkg[cut - 1] != '.')
            cut--;
        if (cut == 0) {
            host_raise(h, HOST_EXC_IMPORT, at,
                       "attempted relative import beyond top-level package");
            return false;
        }
        n = cut - 1;
    }
    strbuf_printf(out, "%.*s", (int)n, pkg);
    if (name[level])
        strbuf_printf(out, ".%s", name + level);
    return true;
}

BUILTIN_FN(importlib_import_module)
{
    (void)self;
    val p[2];
    const char *name;
    if (!host_args(h, at, "import_module", "name, package=", argc, argv, kw, p) ||
        !host_to_str(h, p[0], at, "import_module() argument 'name'", &name))
        return val_err();
    strbuf b = {0};
    if (!importlib_resolve(h, name, p[1], at, &b)) {
        strbuf_free(&b);
        return val_err();
    }
    val m = host_import_module(h, strbuf_cstr(&b), at);
    strbuf_free(&b);
    return m;
}

BUILTIN_FN(importlib_invalidate_caches)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "invalidate_caches", argc, kw, 0, 0, at))
        return val_err();
    return val_none();
}

/* ---- importlib.util.find_spec ------------------------------------------------------ */

static void importlib_spec_repr(host *h, val self, strbuf *out)
{
    strbuf_puts(out, "ModuleSpec(name=");
    val_print_repr(h, val_object_get(self, "name"), out);
    strbuf_puts(out, ", loader=");
    val loader = val_object_get(self, "loader");
    strbuf_puts(out, loader.kind == VAL_NONE ? "None" : "<tritsim loader>");
    strbuf_puts(out, ", origin=");
    val_print_repr(h, val_object_get(self, "origin"), out);
    strbuf_putc(out, ')');
}

static const val_type importlib_spec_type = {
    .name = "ModuleSpec",
    .repr = importlib_spec_repr,
};

/* loader.exec_module(module): the module ran when module_from_spec
 * imported it, so there is nothing left to run. */
BUILTIN_FN(importlib_exec_module)
{
    (void)self, (void)argv;
    if (!builtin_nargs(h, "exec_module", argc, kw, 1, 1, at))
        return val_err();
    return val_none();
}

static const val_type importlib_loader_type = {
    .name = "Loader",
};

/* importlib.util.module_from_spec(spec): the module the spec names,
 * imported as the import statement does (tritsim runs a module once: the
 * result is the module of sys.modules, not a fresh copy as in CPython). */
BUILTIN_FN(importlib_module_from_spec)
{
    (void)self;
    if (!builtin_nargs(h, "module_from_spec", argc, kw, 1, 1, at))
        return val_err();
    val name = argv[0].kind == VAL_OBJECT ? val_object_get(argv[0], "name") : val_missing();
    if (name.kind != VAL_STR) {
        host_raise(h, HOST_EXC_ATTRIBUTE, at, "'%s' object has no attribute 'loader'",
                   val_type_name(argv[0]));
        return val_err();
    }
    return host_import_module(h, val_as_str(name)->s, at);
}

BUILTIN_FN(importlib_find_spec)
{
    (void)self;
    val p[2];
    const char *name;
    if (!host_args(h, at, "find_spec", "name, package=", argc, argv, kw, p) ||
        !host_to_str(h, p[0], at, "find_spec() argument 'name'", &name))
        return val_err();
    strbuf b = {0};
    if (!importlib_resolve(h, name, p[1], at, &b)) {
        strbuf_free(&b);
        return val_err();
    }
    val origin;
    int r = host_import_find(h, strbuf_cstr(&b), at, &origin);
    if (r <= 0) {
        strbuf_free(&b);
        return r < 0 ? val_err() : val_none();
    }
    val spec = val_object_new(&importlib_spec_type);
    const char *full = strbuf_cstr(&b);
    const char *dot = strrchr(full, '.');
    val_object_set(spec, "name", val_str_cstr(full));
    val_object_set(spec, "parent", dot ? val_str_new(full, (size_t)(dot - full))
                                       : val_str_cstr(""));
    val_object_set(spec, "has_location", val_bool(origin.kind == VAL_STR &&
                                                  strcmp(val_as_str(origin)->s, "built-in")));
    val_object_set(spec, "origin", origin);
    val loader = val_object_new(&importlib_loader_type);
    val_object_set(loader, "exec_module",
                   val_builtin_new("exec_module", importlib_exec_module, val_none()));
    val_object_set(spec, "loader", loader);
    strbuf_free(&b);
    return spec;
}

/* ---- importlib.metadata.version ----------------------------------------------------- */

BUILTIN_FN(importlib_version)
{
    (void)self;
    val p[1];
    const char *name;
    if (!host_args(h, at, "version", "distribution_name", argc, argv, kw, p) ||
        !host_to_str(h, p[0], at, "version() argument", &name))
        return val_err();
    /* a package tritsim provides is "installed" at its __version__ */
    val m = strchr(name, '.') ? val_missing() : host_module(h, name);
    val v = m.kind == VAL_MODULE ? val_object_get(m, "__version__") : val_missing();
    if (v.kind == VAL_STR)
        return val_ref(v);
    val mod = host_module(h, "importlib.metadata");
    val cls = mod.kind == VAL_MODULE ? val_object_get(mod, "PackageNotFoundError")
                                     : val_missing();
    val msg = val_str_fmt("No package metadata was found for %s", name);
    val e = host_call(h, cls, 1, &msg, NULL, at);
    val_unref(msg);
    if (e.kind == VAL_ERR)
        return e;
    val_object_set(e, "name", val_str_cstr(name));
    host_raise_value(h, e, at);
    val_unref(e);
    return val_err();
}

/* ---- pkgutil.iter_modules -------------------------------------------- */

static int pkgutil_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The module a folder entry is, as CPython's FileFinder sees it: name.py
 * a module, a folder holding __init__.py a package; NULL otherwise. */
static char *pkgutil_module_name(const char *dir, const char *entry, bool *ispkg)
{
    *ispkg = false;
    size_t n = strlen(entry);
    if (n > 3 && !strcmp(entry + n - 3, ".py")) {
        char *name = strndup(entry, n - 3);
        if (!strchr(name, '.') && strcmp(name, "__init__"))
            return name;
        free(name);
        return NULL;
    }
    if (strchr(entry, '.') || !strcmp(entry, "__pycache__"))
        return NULL;
    strbuf p = {0};
    strbuf_printf(&p, "%s/%s/__init__.py", dir, entry);
    struct stat st;
    *ispkg = stat(p.data, &st) == 0 && S_ISREG(st.st_mode);
    strbuf_free(&p);
    return *ispkg ? strdup(entry) : NULL;
}

/* The entries of folder dir (sorted, as CPython lists them) as
 * (folder, name, ispkg) tuples appended to out, each name once. */
static void pkgutil_scan(const char *dir, const char *prefix, val seen, val out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            names = xrealloc(names, cap * sizeof *names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, pkgutil_cmp);
    for (size_t i = 0; i < n; i++) {
        bool ispkg;
        char *name = pkgutil_module_name(dir, names[i], &ispkg);
        if (name && val_dict_get_str(seen, name).kind == VAL_MISSING) {
            val_dict_set_str(seen, name, val_none());
            val t = val_tuple_new(3);
            val_seq_set(t, 0, val_str_cstr(dir));
            val_seq_set(t, 1, val_str_fmt("%s%s", prefix, name));
            val_seq_set(t, 2, val_bool(ispkg));
            val_list_push(out, t);
        }
        free(name);
        free(names[i]);
    }
    free(names);
}

/* pkgutil.iter_modules(path=None, prefix=''): (finder, name, ispkg) for
 * each module and package in the folders of path (sys.path when None);
 * the finder is the folder's name here. */
static val pkgutil_iter_modules(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[2];
    const char *prefix = "";
    if (!host_args(h, at, "iter_modules", "path=, prefix=", argc, argv, kw, a) ||
        (a[1].kind != VAL_MISSING && !host_to_str(h, a[1], at, "prefix", &prefix)))
        return val_err();
    val path = a[0];
    if (path.kind == VAL_MISSING || path.kind == VAL_NONE) {
        val sys = host_module(h, "sys");
        path = sys.kind == VAL_MODULE ? val_object_get(sys, "path") : val_missing();
        if (path.kind == VAL_MISSING)
            return val_list_new(0);
    }
    val dirs = host_to_list(h, path, at);
    if (dirs.kind == VAL_ERR)
        return dirs;
    val out = val_list_new(0), seen = val_dict_new();
    const val_seq *ds = val_as_seq(dirs);
    for (size_t i = 0; i < ds->len; i++) {
        const char *dir;
        if (!host_to_str(h, ds->items[i], at, "a folder of path", &dir)) {
            val_unref(out);
            out = val_err();
            break;
        }
        pkgutil_scan(dir, prefix, seen, out);
    }
    val_unref(seen);
    val_unref(dirs);
    return out;
}

/* pkgutil.extend_path(path, name): a copy of the list path with each
 * folder DIR/NAME added that exists and is not in it yet, DIR running over
 * sys.path (over the parent package's __path__ for a dotted name; the
 * copy as it is when that package is not imported); the last part of
 * name is looked for.  As CPython's, a path that is not a list comes back
 * as it is; `.pkg` files are not read. */
static val pkgutil_extend_path(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[2];
    const char *name;
    if (!host_args(h, at, "extend_path", "path, name", argc, argv, kw, a) ||
        !host_to_str(h, a[1], at, "extend_path() argument 'name'", &name))
        return val_err();
    if (a[0].kind != VAL_LIST)
        return val_ref(a[0]);
    val out = host_to_list(h, a[0], at);
    if (out.kind == VAL_ERR)
        return out;
    const char *dot = strrchr(name, '.');
    val search;
    if (dot) {
        val parent_name = val_str_new(name, (size_t)(dot - name));
        val parent = val_dict_get(h->modules, parent_name);
        val_unref(parent_name);
        search = parent.kind == VAL_MODULE ? val_object_get(parent, "__path__") : val_missing();
    } else {
        val sys = host_module(h, "sys");
        search = sys.kind == VAL_MODULE ? val_object_get(sys, "path") : val_missing();
    }
    if (search.kind != VAL_LIST)
        return out;
    const char *last = dot ? dot + 1 : name;
    const val_seq *ds = val_as_seq(search);
    for (size_t i = 0; i < ds->len; i++) {
        if (ds->items[i].kind != VAL_STR)
            continue;
        const char *d = val_as_str(ds->items[i])->s;
        char *abs = pathname_abspath(*d ? d : ".");
        if (!abs)
            continue;
        strbuf b = {0};
        strbuf_printf(&b, "%s/%s", abs, last);
        free(abs);
        struct stat st;
        if (stat(b.data, &st) == 0 && S_ISDIR(st.st_mode)) {
            val portion = val_str_cstr(b.data);
            const val_seq *os = val_as_seq(out);
            bool seen = false;
            for (size_t j = 0; j < os->len && !seen; j++)
                seen = val_equal(os->items[j], portion);
            if (seen)
                val_unref(portion);
            else
                val_list_push(out, portion);
        }
        strbuf_free(&b);
    }
    return out;
}

void builtin_importlib_init(host *h)
{
    val m = val_module_new("importlib");
    host_def(m, "importlib.import_module", importlib_import_module);
    host_def(m, "importlib.invalidate_caches", importlib_invalidate_caches);
    val util = val_module_new("importlib.util");
    host_def(util, "importlib.util.find_spec", importlib_find_spec);
    host_def(util, "importlib.util.module_from_spec", importlib_module_from_spec);
    val md = val_module_new("importlib.metadata");
    host_def(md, "importlib.metadata.version", importlib_version);
    val err = class_new("PackageNotFoundError", h->exc_classes[HOST_EXC_MODULE_NOT_FOUND], true);
    val_object_set(err, "__module__", val_str_cstr("importlib.metadata"));
    val_object_set(md, "PackageNotFoundError", err);
    val_object_set(m, "util", val_ref(util));
    val_object_set(m, "metadata", val_ref(md));
    host_register_module(h, "importlib", m);
    host_register_module(h, "importlib.util", util);
    host_register_module(h, "importlib.metadata", md);
}

void builtin_pkgutil_init(host *h)
{
    val pkgutil = val_module_new("pkgutil");
    host_def(pkgutil, "pkgutil.iter_modules", pkgutil_iter_modules);
    host_def(pkgutil, "pkgutil.extend_path", pkgutil_extend_path);
    host_register_module(h, "pkgutil", pkgutil);
}
