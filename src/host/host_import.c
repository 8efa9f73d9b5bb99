/* host_import.c - the import system: `import a.b`, `from m import x`,
 * relative imports in packages, and the modules of the program itself.
 *
 * sys.modules is h->modules: the built-in modules (torch, triton, math,
 * ...) registered at start-up, then every module imported.  A name not
 * there is looked for as CPython's path finder does: on sys.path (a list
 * the program may change; the main file's folder first) for a top-level
 * name, on the package's __path__ for a submodule; in each folder
 * NAME/__init__.py (a package), then NAME.py, and a folder NAME without
 * __init__.py makes a namespace package when nothing else is found.  A
 * module found is parsed (kept until host_free), entered in sys.modules,
 * and its body run once with its own globals, which are the module's
 * attributes; while it runs it is "partially initialised" (an import
 * cycle sees it so, with CPython's messages).  A failed body removes it
 * from sys.modules again. */
#define _POSIX_C_SOURCE 200809L
#include "host_impl.h"
#include "parse.h"
#include "pathname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { IMPORT_NAME_MAX = 512 };

/* ---- helpers ---------------------------------------------------------------------- */

static bool import_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool import_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The attribute name of module m (borrowed str), or NULL. */
static const char *import_attr_str(val m, const char *name)
{
    if (m.kind != VAL_MODULE && m.kind != VAL_OBJECT)
        return NULL;
    val v = val_object_get(m, name);
    return v.kind == VAL_STR ? val_as_str(v)->s : NULL;
}

/* What messages call a file: relative to the current folder when inside
 * it, as the main program is named on the command line.  Malloc'd. */
static char *import_display_name(const char *abs)
{
    char *cwd = pathname_abspath(".");
    size_t n = cwd ? strlen(cwd) : 0;
    char *r;
    if (cwd && n > 1 && !strncmp(abs, cwd, n) && abs[n] == '/')
        r = strdup(abs + n + 1);
    else
        r = strdup(abs);
    free(cwd);
    return r;
}

bool host_module_initializing(host *h, val m)
{
    if (m.kind != VAL_MODULE || h->importing.kind != VAL_DICT)
        return false;
    const char *name = import_attr_str(m, "__name__");
    return name && val_dict_get_str(h->importing, name).kind != VAL_MISSING;
}

/* ---- sys.path and sys.modules ----------------------------------------------------- */

void host_import_setup(host *h)
{
    val sys = host_module(h, "sys");
    if (sys.kind != VAL_MODULE)
        return;
    val path = val_list_new(4);
    char *abs = pathname_abspath(h->file->name);
    if (abs) {
        char *slash = strrchr(abs, '/');
        if (slash == abs)
            slash[1] = '\0';
        else if (slash)
            *slash = '\0';
        val_list_push(path, val_str_cstr(abs));
        free(abs);
    }
    /* PYTHONPATH's folders come next, as in CPython */
    const char *pp = getenv("PYTHONPATH");
    while (pp && *pp) {
        size_t n = strcspn(pp, ":");
        if (n)
            val_list_push(path, val_str_new(pp, n));
        pp += n;
        if (*pp == ':')
            pp++;
    }
    val_object_set(sys, "path", path);
    val_object_set(sys, "modules", val_ref(h->modules));
}

/* The folders to search for top-level modules: sys.path (borrowed list),
 * or VAL_MISSING when there is no sys.path list. */
static val import_sys_path(host *h)
{
    val sys = host_module(h, "sys");
    if (sys.kind != VAL_MODULE)
        return val_missing();
    val p = val_object_get(sys, "path");
    return p.kind == VAL_LIST ? p : val_missing();
}

/* ---- finding a module on disk ------------------------------------------------------ */

typedef struct import_found {
    char *file;     /* the .py file (NAME.py or NAME/__init__.py), malloc'd, or NULL */
    bool package;   /* a package: file is its __init__.py (or NULL: namespace) */
    val dirs;       /* list: the package's __path__ (owned), or VAL_NONE */
} import_found;

/* Look for module `last` (the last component of its name) in the folders
 * of list dirs.  True when found (*out filled). */
static bool import_find(val dirs, const char *last, import_found *out)
{
    out->file = NULL;
    out->package = false;
    out->dirs = val_none();
    val ns = val_none();   /* namespace portions seen */
    if (dirs.kind != VAL_LIST)
        return false;
    const val_seq *s = val_as_seq(dirs);
    for (size_t i = 0; i < s->len; i++) {
        if (s->items[i].kind != VAL_STR)
            continue;
        const char *d = val_as_str(s->items[i])->s;
        char *abs = pathname_abspath(*d ? d : ".");
        if (!abs)
            continue;
        strbuf b = {0};
        strbuf_printf(&b, "%s/%s", abs, last);
        char *dir = strbuf_detach(&b);
        strbuf_printf(&b, "%s/__init__.py", dir);
        char *init = strbuf_detach(&b);
        strbuf_printf(&b, "%s/%s.py", abs, last);
        char *mod = strbuf_detach(&b);
        free(abs);
        bool found = false;
        if (import_is_dir(dir) && import_is_file(init)) {
            out->file = init;
            init = NULL;
            out->package = true;
            out->dirs = val_list_new(1);
            val_list_push(out->dirs, val_str_cstr(dir));
            found = true;
        } else if (import_is_file(mod)) {
            out->file = mod;
            mod = NULL;
            found = true;
        } else if (import_is_dir(dir)) {
            if (ns.kind == VAL_NONE)
                ns = val_list_new(1);
            val_list_push(ns, val_str_cstr(dir));
        }
        free(dir);
        free(init);
        free(mod);
        if (found) {
            val_unref(ns);
            return true;
        }
    }
    if (ns.kind == VAL_NONE)
        return false;
    out->package = true;
    out->dirs = ns;
    return true;
}

/* ---- loading --------------------------------------------------------------------- */

/* The text and AST of a module file, kept until host_free (its
 * functions point into them). */
static src_file *import_keep_source(host *h, src_file *f, arena **a)
{
    struct host_source *src = xcalloc(1, sizeof *src);
    src->file = f;
    arena_init(&src->a);
    src->next = h->sources;
    h->sources = src;
    *a = &src->a;
    return f;
}

/* Raise the SyntaxError of a module file that does not parse, at the
 * first error the parser reported (msgs: its diagnostics, "NAME:L:C:
 * error: text"), inside the import frame. */
static void import_syntax_error(host *h, const src_file *f, const char *msgs)
{
    size_t n = strlen(f->name);
    int line = 1, col = 1;
    const char *text = msgs;
    if (!strncmp(msgs, f->name, n) && msgs[n] == ':') {
        sscanf(msgs + n + 1, "%d:%d", &line, &col);
        const char *e = strstr(msgs, "error: ");
        if (e)
            text = e + 7;
    }
    size_t tl = strcspn(text, "\n");
    src_span sp = {line, col, line, col + 1, 0, 0};
    if (line >= 1 && line <= f->nlines) {
        sp.off = (unsigned)(f->line_start[line - 1] + (size_t)(col - 1));
        if (sp.off >= f->len)
            sp.off = f->len ? (unsigned)f->len - 1 : 0;
        sp.end_off = sp.off + 1;
    }
    val args = val_tuple_new(1);
    val_seq_set(args, 0, val_str_new(text, tl));
    host_raise_args(h, HOST_EXC_SYNTAX, args, sp, "%.*s", (int)tl, text);
}

/* Run body of module m (named name, from file f) with the module's
 * attributes as its globals, the import statement at `at` as its caller. */
static bool import_exec(host *h, val m, const char *name, const src_file *f,
                        const ast_node *body, const char *msgs, src_span at)
{
    if (h->depth >= HOST_MAX_DEPTH) {
        host_raise(h, HOST_EXC_RECURSION, at, "maximum recursion depth exceeded while "
                   "importing '%s'", name);
        return false;
    }
    val globals = ((val_object *)m.u.o)->attrs;
    host_frame frame = {h->frame, name, at, globals, val_none(), NULL, f, true};
    val saved_env = h->env, saved_ns = h->class_ns;
    const src_file *saved_file = h->file;
    h->frame = &frame;
    h->file = f;
    h->env = val_none();
    h->class_ns = val_none();
    h->depth++;
    bool ok;
    if (msgs) {
        import_syntax_error(h, f, msgs);
        ok = false;
    } else {
        host_flow fl = host_exec_block(h, &body->u.module.body);
        ok = fl != FLOW_ERROR && !h->exiting;
        if (ok && (fl == FLOW_BREAK || fl == FLOW_CONTINUE)) {
            host_error(h, body->span, "'break' or 'continue' outside a loop");
            ok = false;
        }
    }
    h->depth--;
    h->env = saved_env;
    h->class_ns = saved_ns;
    h->frame = frame.prev;
    h->file = saved_file;
    val_unref(frame.retval);
    return ok;
}

/* A new module object named name for what import_find found; NULL file:
 * a namespace package. */
static val import_new_module(const char *name, const import_found *fd)
{
    val m = val_module_new(name);
    val_object_set(m, "__doc__", val_none());
    val_object_set(m, "__file__", fd->file ? val_str_cstr(fd->file) : val_none());
    if (fd->package) {
        val_object_set(m, "__path__", val_ref(fd->dirs));
        val_object_set(m, "__package__", val_str_cstr(name));
    } else {
        const char *dot = strrchr(name, '.');
        val_object_set(m, "__package__", dot ? val_str_new(name, (size_t)(dot - name))
                                             : val_str_cstr(""));
    }
    return m;
}

static val import_run(host *h, const char *name, val m, src_file *f, src_span at);

/* Load module `name` found as fd: its body run.  The module (borrowed,
 * from sys.modules), or VAL_ERR. */
static val import_load(host *h, const char *name, const import_found *fd, src_span at)
{
    val m = import_new_module(name, fd);
    if (!fd->file) {
        host_register_module(h, name, m);
        return m;
    }
    char *shown = import_display_name(fd->file);
    src_file *f = src_read(fd->file);
    if (!f) {
        free(shown);
        val_unref(m);
        return host_raise(h, HOST_EXC_IMPORT, at, "cannot read '%s' (module '%s')",
                          fd->file, name);
    }
    free(f->name);
    f->name = shown;
    return import_run(h, name, m, f, at);
}

/* Parse file f (taken: kept until host_free) and run it as the body of
 * module m (stolen) named name, registered in sys.modules while it runs.
 * The module (borrowed, from sys.modules), or VAL_ERR. */
static val import_run(host *h, const char *name, val m, src_file *f, src_span at)
{
    arena *a;
    import_keep_source(h, f, &a);
    char *msgs = NULL;
    size_t msgs_len = 0;
    FILE *mem = open_memstream(&msgs, &msgs_len);
    if (!mem) {
        val_unref(m);
        return host_raise(h, HOST_EXC_MEMORY, at, "out of memory");
    }
    diag_sink d;
    diag_sink_init(&d, mem);
    d.color = false;
    d.max_errors = 1;
    const ast_node *body = parse_file(f, &d, a);
    fclose(mem);
    bool bad = d.nerrors > 0;
    host_register_module(h, name, m);
    if (h->importing.kind != VAL_DICT)
        h->importing = val_dict_new();
    val_dict_set_str(h->importing, name, val_none());
    /* the frame's name outlives this call (in tracebacks): kept with the file */
    const char *kept = arena_strndup(a, name, strlen(name));
    bool ok = import_exec(h, m, kept, f, body, bad ? (msgs ? msgs : "") : NULL, at);
    free(msgs);
    val key = val_str_cstr(name);
    val_unref(val_dict_pop(h->importing, key));
    if (!ok) {
        val_unref(val_dict_pop(h->modules, key));
        val_unref(key);
        return val_err();
    }
    val_unref(key);
    val r = val_dict_get_str(h->modules, name);
    if (r.kind == VAL_MISSING)
        return host_raise(h, HOST_EXC_IMPORT, at, "Loaded module %s not found in sys.modules",
                          name);
    return r;
}

/* Run tritsim's own module `name` from its Python text (registered by
 * host_register_source_module): as a file "<tritsim>/NAME" with
 * __file__ None, as CPython's frozen modules have. */
static val import_source_module(host *h, const char *name, const char *text, src_span at)
{
    import_found fd = {NULL, false, val_none()};
    val m = import_new_module(name, &fd);
    strbuf b = {0};
    strbuf_printf(&b, "<tritsim>/%s", name);
    char *shown = strbuf_detach(&b);
    src_file *f = src_from_string(shown, text, strlen(text));
    free(shown);
    return import_run(h, name, m, f, at);
}

/* ---- importing by name ------------------------------------------------------------ */

/* Make registered submodules "name.x" attributes of module `name`, as
 * Python packages that import their submodules do. */
static void import_link_submodules(host *h, const char *name, val m)
{
    if (m.kind != VAL_MODULE && m.kind != VAL_OBJECT)
        return;
    size_t n = strlen(name);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(h->modules, &pos, &k, &v)) {
        if (k.kind != VAL_STR)
            continue;
        const char *sub = val_as_str(k)->s;
        if (strncmp(sub, name, n) || sub[n] != '.' || strchr(sub + n + 1, '.'))
            continue;
        if (val_object_get(m, sub + n + 1).kind == VAL_MISSING)
            val_object_set(m, sub + n + 1, val_ref(v));
    }
}

/* The pending ImportError gets its name and path attributes (path: a
 * file, or NULL for None); returns VAL_ERR. */
static val import_exc_attrs(host *h, const char *name, const char *path)
{
    if (h->exc.kind == VAL_INSTANCE) {
        val_object_set(h->exc, "name", val_str_cstr(name));
        val_object_set(h->exc, "path", path ? val_str_cstr(path) : val_none());
    }
    return val_err();
}

/* Raise ModuleNotFoundError for name: args CPython's message, the text
 * printed saying what tritsim looked for. */
static val import_not_found_raise(host *h, const char *name, val parent, src_span at);

static val import_not_found(host *h, const char *name, val parent, src_span at)
{
    import_not_found_raise(h, name, parent, at);
    return import_exc_attrs(h, name, NULL);
}

static val import_not_found_raise(host *h, const char *name, val parent, src_span at)
{
    val args = val_tuple_new(1);
    const char *dot = strrchr(name, '.');
    if (parent.kind != VAL_MISSING && val_object_get(parent, "__path__").kind == VAL_MISSING) {
        const char *pname = import_attr_str(parent, "__name__");
        if (import_attr_str(parent, "__file__")) {
            val_seq_set(args, 0, val_str_fmt("No module named '%s'; '%s' is not a package",
                                             name, pname ? pname : "?"));
            return host_raise_args(h, HOST_EXC_MODULE_NOT_FOUND, args, at,
                                   "No module named '%s'; '%s' is not a package", name,
                                   pname ? pname : "?");
        }
        /* a submodule of one of tritsim's own modules */
        val_seq_set(args, 0, val_str_fmt("No module named '%s'", name));
        return host_raise_args(h, HOST_EXC_MODULE_NOT_FOUND, args, at, "module '%s' is not "
                               "supported by tritsim (see doc/language.md)", name);
    }
    val_seq_set(args, 0, val_str_fmt("No module named '%s'", name));
    if (dot)
        return host_raise_args(h, HOST_EXC_MODULE_NOT_FOUND, args, at,
                               "No module named '%s' (no %s.py or %s/ in the package's "
                               "folder)", name, dot + 1, dot + 1);
    return host_raise_args(h, HOST_EXC_MODULE_NOT_FOUND, args, at,
                           "No module named '%s' (tritsim does not provide it, see "
                           "doc/language.md, and sys.path has no %s.py or %s/)",
                           name, name, name);
}

/* Import module `name` (dotted, absolute), its parents first.  The module
 * (borrowed, from sys.modules), or VAL_ERR. */
static val import_module(host *h, const char *name, src_span at)
{
    val m = val_dict_get_str(h->modules, name);
    if (m.kind != VAL_MISSING) {
        import_link_submodules(h, name, m);
        return m;
    }
    const char *dot = strrchr(name, '.');
    val dirs;
    val parent = val_missing();
    if (dot) {
        char pname[IMPORT_NAME_MAX];
        snprintf(pname, sizeof pname, "%.*s", (int)(dot - name), name);
        parent = import_module(h, pname, at);
        if (parent.kind == VAL_ERR)
            return parent;
        /* importing the parent may have imported this one */
        m = val_dict_get_str(h->modules, name);
        if (m.kind != VAL_MISSING)
            return m;
        if (parent.kind != VAL_MODULE)
            return import_not_found(h, name, val_missing(), at);
        val text = val_dict_get_str(h->source_modules, name);
        if (text.kind == VAL_STR) {
            m = import_source_module(h, name, val_as_str(text)->s, at);
            if (m.kind != VAL_ERR)
                val_object_set(parent, dot + 1, val_ref(m));
            return m;
        }
        dirs = val_object_get(parent, "__path__");
        if (dirs.kind == VAL_MISSING)
            return import_not_found(h, name, parent, at);
    } else {
        /* tritsim's own top-level modules in Python (einops), as its
         * registered ones, come before sys.path */
        val text = val_dict_get_str(h->source_modules, name);
        if (text.kind == VAL_STR)
            return import_source_module(h, name, val_as_str(text)->s, at);
        dirs = import_sys_path(h);
    }
    import_found fd;
    if (!import_find(dirs, dot ? dot + 1 : name, &fd))
        return import_not_found(h, name, val_missing(), at);
    m = import_load(h, name, &fd, at);
    free(fd.file);
    val_unref(fd.dirs);
    if (m.kind == VAL_ERR)
        return m;
    /* the parent package gets the submodule as an attribute */
    if (parent.kind == VAL_MODULE)
        val_object_set(parent, dot + 1, val_ref(m));
    return m;
}

val host_import_module(host *h, const char *name, src_span at)
{
    if (strlen(name) >= IMPORT_NAME_MAX)
        return host_raise(h, HOST_EXC_MODULE_NOT_FOUND, at, "module name too long");
    val m = import_module(h, name, at);
    return m.kind == VAL_ERR ? m : val_ref(m);
}

int host_import_find(host *h, const char *name, src_span at, val *origin)
{
    *origin = val_none();
    val m = val_dict_get_str(h->modules, name);
    if (m.kind != VAL_MISSING) {
        const char *file = import_attr_str(m, "__file__");
        *origin = val_str_cstr(file ? file : "built-in");
        return 1;
    }
    if (val_dict_get_str(h->source_modules, name).kind == VAL_STR) {
        *origin = val_str_cstr("built-in");     /* tritsim's own, in Python */
        return 1;
    }
    const char *dot = strrchr(name, '.');
    val dirs;
    if (dot) {
        char pname[IMPORT_NAME_MAX];
        snprintf(pname, sizeof pname, "%.*s", (int)(dot - name), name);
        /* as CPython's find_spec, the parent is imported */
        val parent = host_import_module(h, pname, at);
        if (parent.kind == VAL_ERR)
            return -1;
        dirs = val_object_get(parent, "__path__");
        bool program = import_attr_str(parent, "__file__") != NULL;
        val_unref(parent);   /* sys.modules keeps it */
        if (dirs.kind == VAL_MISSING) {
            if (program) {
                host_raise(h, HOST_EXC_MODULE_NOT_FOUND, at, "__path__ attribute not found "
                           "on '%s' while trying to find '%s'", pname, name);
                return -1;
            }
            return 0;
        }
    } else {
        dirs = import_sys_path(h);
    }
    import_found fd;
    if (!import_find(dirs, dot ? dot + 1 : name, &fd))
        return 0;
    *origin = fd.file ? val_str_cstr(fd.file) : val_none();
    free(fd.file);
    val_unref(fd.dirs);
    return 1;
}

/* ---- the statements ----------------------------------------------------------------- */

bool host_exec_import(host *h, const ast_node *s)
{
    for (int i = 0; i < s->u.import.names.len; i++) {
        const ast_node *al = s->u.import.names.items[i];
        const char *name = al->u.alias.name;
        if (strlen(name) >= IMPORT_NAME_MAX)
            return host_raise(h, HOST_EXC_MODULE_NOT_FOUND, al->span,
                              "module name too long").kind != VAL_ERR;
        val m = import_module(h, name, al->span);
        if (m.kind == VAL_ERR)
            return false;
        if (al->u.alias.asname) {
            if (!host_store_name(h, al->u.alias.asname, val_ref(m), al->span))
                return false;
            continue;
        }
        /* import a.b.c binds a */
        char first[IMPORT_NAME_MAX];
        size_t n = strcspn(name, ".");
        snprintf(first, sizeof first, "%.*s", (int)n, name);
        val top = val_dict_get_str(h->modules, first);
        if (top.kind == VAL_MISSING)
            top = m;
        import_link_submodules(h, first, top);
        if (!host_store_name(h, first, val_ref(top), al->span))
            return false;
    }
    return true;
}

/* The absolute name of `from .mod import x` (level dots, mod NULL for
 * `from . import x`) in the running module, in buf; false after raising. */
static bool import_resolve(host *h, int level, const char *mod, src_span at, char *buf,
                           size_t len)
{
    val g = h->frame ? h->frame->globals : val_missing();
    val pkg = g.kind == VAL_DICT ? val_dict_get_str(g, "__package__") : val_missing();
    if (pkg.kind != VAL_STR || !val_as_str(pkg)->len) {
        host_raise(h, HOST_EXC_IMPORT, at,
                   "attempted relative import with no known parent package");
        return false;
    }
    const char *base = val_as_str(pkg)->s;
    size_t n = strlen(base);
    for (int up = 1; up < level; up++) {
        const char *dot = NULL;
        for (size_t i = 0; i < n; i++)
            if (base[i] == '.')
                dot = base + i;
        if (!dot) {
            host_raise(h, HOST_EXC_IMPORT, at,
                       "attempted relative import beyond top-level package");
            return false;
        }
        n = (size_t)(dot - base);
    }
    if (mod)
        snprintf(buf, len, "%.*s.%s", (int)n, base, mod);
    else
        snprintf(buf, len, "%.*s", (int)n, base);
    return true;
}

/* `from m import *`: m's __all__ when it has one, else its public names. */
static bool import_star(host *h, val m, src_span at)
{
    val attrs = ((val_object *)m.u.o)->attrs;
    val all = val_object_get(m, "__all__");
    if (all.kind == VAL_LIST || all.kind == VAL_TUPLE) {
        const val_seq *s = val_as_seq(all);
        for (size_t i = 0; i < s->len; i++) {
            const char *name;
            if (!host_to_str(h, s->items[i], at, "an item of __all__", &name))
                return false;
            val v = host_getattr(h, m, name, at);
            if (v.kind == VAL_ERR || !host_store_name(h, name, v, at))
                return false;
        }
        return true;
    }
    size_t pos = 0;
    val k, v;
    while (attrs.kind == VAL_DICT && val_dict_next(attrs, &pos, &k, &v))
        if (k.kind == VAL_STR && val_as_str(k)->s[0] != '_' &&
            !host_store_name(h, val_as_str(k)->s, val_ref(v), at))
            return false;
    return true;
}

/* `from m import name` where m has no attribute name: for a package, the
 * submodule m.name (borrowed), VAL_MISSING when there is none, VAL_ERR
 * after an error of its import. */
static val import_submodule(host *h, val m, const char *mname, const char *name, src_span at)
{
    char sub[IMPORT_NAME_MAX * 2];
    snprintf(sub, sizeof sub, "%s.%s", mname, name);
    val v = val_dict_get_str(h->modules, sub);
    if (v.kind != VAL_MISSING) {
        import_link_submodules(h, sub, v);
        return v;
    }
    if (val_object_get(m, "__path__").kind == VAL_MISSING)
        return val_missing();
    import_found fd;
    if (!import_find(val_object_get(m, "__path__"), name, &fd))
        return val_missing();
    v = import_load(h, sub, &fd, at);
    free(fd.file);
    val_unref(fd.dirs);
    if (v.kind != VAL_ERR)
        val_object_set(m, name, val_ref(v));
    return v;
}

bool host_exec_importfrom(host *h, const ast_node *s)
{
    char resolved[IMPORT_NAME_MAX];
    const char *mname = s->u.importfrom.module;
    if (s->u.importfrom.level > 0) {
        if (!import_resolve(h, s->u.importfrom.level, mname, s->span, resolved,
                            sizeof resolved))
            return false;
        mname = resolved;
    }
    if (strlen(mname) >= IMPORT_NAME_MAX - 1) {
        host_raise(h, HOST_EXC_MODULE_NOT_FOUND, s->span, "module name too long");
        return false;
    }
    val m = import_module(h, mname, s->span);
    if (m.kind == VAL_ERR)
        return false;
    if (m.kind != VAL_MODULE && m.kind != VAL_OBJECT) {
        host_raise(h, HOST_EXC_IMPORT, s->span, "sys.modules['%s'] is not a module", mname);
        return false;
    }
    for (int i = 0; i < s->u.importfrom.names.len; i++) {
        const ast_node *al = s->u.importfrom.names.items[i];
        const char *name = al->u.alias.name;
        if (!strcmp(name, "*")) {
            if (!import_star(h, m, al->span))
                return false;
            continue;
        }
        val v = host_getattr_opt(h, m, name, al->span);
        if (v.kind == VAL_ERR)
            return false;
        if (v.kind == VAL_MISSING) {
            v = import_submodule(h, m, mname, name, al->span);
            if (v.kind == VAL_ERR)
                return false;
            if (v.kind != VAL_MISSING)
                v = val_ref(v);
        }
        if (v.kind == VAL_MISSING) {
            const char *file = import_attr_str(m, "__file__");
            val args = val_tuple_new(1);
            if (file) {
                /* one of the program's modules: CPython's messages */
                bool partial = host_module_initializing(h, m);
                const char *how = partial ? "partially initialized module " : "";
                const char *why = partial ? " (most likely due to a circular import)" : "";
                char *shown = import_display_name(file);
                val_seq_set(args, 0, val_str_fmt("cannot import name '%s' from %s'%s'%s (%s)",
                                                 name, how, mname, why, file));
                host_raise_args(h, HOST_EXC_IMPORT, args, al->span,
                                "cannot import name '%s' from %s'%s'%s (%s)", name, how,
                                mname, why, shown);
                free(shown);
                import_exc_attrs(h, mname, file);
                return false;
            }
            host_suggest sg;
            host_suggest_init(&sg, name);
            host_suggest_dict(&sg, ((val_object *)m.u.o)->attrs);
            char buf[128];
            val_seq_set(args, 0, val_str_fmt("cannot import name '%s' from '%s'", name, mname));
            host_raise_args(h, HOST_EXC_IMPORT, args, al->span,
                            "cannot import name '%s' from '%s'%s", name, mname,
                            sg.best ? host_did_you_mean(&sg, buf, sizeof buf)
                                    : " (tritsim does not support it: see doc/language.md)");
            import_exc_attrs(h, mname, NULL);
            return false;
        }
        if (!host_store_name(h, al->u.alias.asname ? al->u.alias.asname : name, v, al->span))
            return false;
    }
    return true;
}
