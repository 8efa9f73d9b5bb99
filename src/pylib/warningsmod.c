/* warningsmod.c - the warnings module: warn() with a category and a
 * stacklevel, CPython's filters (warnings.filters, a list of (action,
 * message, category, module, lineno) searched from the front, with
 * CPython 3.11's defaults), the per-module registry that shows a warning
 * once per place under the "default" action (the module's
 * __warningregistry__, forgotten whenever the filters change, as in
 * CPython), the actions error/ignore/always/default/module/once,
 * simplefilter, filterwarnings, resetwarnings, catch_warnings (with
 * record=True a list of WarningMessage objects), formatwarning and
 * showwarning (file:line: Category: message, then the source line, on
 * stderr).  The Warning classes themselves are built-in exception
 * classes (host.h's HOST_EXCS).
 *
 * The module's state is in its attributes: filters, and the private
 * _version (bumped when the filters change), _once (the "once" registry)
 * and _log (the list catch_warnings(record=True) collects into, or None). */
#include "builtins_impl.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const val_type warn_catch_type, warn_message_type;

static val warn_module(host *h)
{
    return host_module(h, "warnings");
}

static void warn_mutated(val mod)
{
    val v = val_object_get(mod, "_version");
    val_object_set(mod, "_version", val_int(builtin_is_int(v) ? builtin_int_of(v) + 1 : 1));
}

static bool warn_is_category(host *h, val c)
{
    return c.kind == VAL_CLASS && class_is_subclass(c, host_exc_class(h, HOST_EXC_WARNING));
}

static const char *const warn_actions[] = {
    "error", "ignore", "always", "default", "module", "once", NULL,
};

static bool warn_check_action(host *h, val action, src_span at)
{
    if (action.kind == VAL_STR)
        for (int i = 0; warn_actions[i]; i++)
            if (!strcmp(val_as_str(action)->s, warn_actions[i]))
                return true;
    val r = host_repr(h, action);
    if (r.kind == VAL_ERR)
        return false;
    host_raise(h, HOST_EXC_ASSERTION, at, "invalid action: %s", val_as_str(r)->s);
    val_unref(r);
    return false;
}

/* Add (action, message, category, module, lineno) to the filters: at the
 * front (an equal entry removed first) or, with append, at the end. */
static void warn_add_filter(val mod, val entry, bool append)
{
    val filters = val_object_get(mod, "filters");
    if (filters.kind != VAL_LIST) {
        filters = val_list_new(1);
        val_object_set(mod, "filters", filters);
    }
    const val_seq *s = val_as_seq(filters);
    if (!append) {
        for (size_t i = 0; i < s->len; i++)
            if (val_equal(s->items[i], entry)) {
                val_unref(val_list_remove(filters, i));
                break;
            }
        val_list_insert(filters, 0, entry);
    } else {
        bool dup = false;
        for (size_t i = 0; i < s->len; i++)
            dup = dup || val_equal(s->items[i], entry);
        if (dup)
            val_unref(entry);
        else
            val_list_push(filters, entry);
    }
    warn_mutated(mod);
}

static val warn_entry(val action, val message, val category, val module, int64_t lineno)
{
    val items[5] = {val_ref(action), val_ref(message), val_ref(category), val_ref(module),
                    val_int(lineno)};
    return val_tuple_of(5, items);
}

BUILTIN_FN(warn_simplefilter)
{
    (void)self;
    val a[4];
    int64_t lineno = 0;
    int append = 0;
    if (!host_args(h, at, "simplefilter", "action, category=, lineno=, append=", argc, argv,
                   kw, a) ||
        !warn_check_action(h, a[0], at) ||
        (a[2].kind != VAL_MISSING && !host_to_int(h, a[2], at, "lineno", &lineno)) ||
        (a[3].kind != VAL_MISSING && (append = host_truth(h, a[3], at)) < 0))
        return val_err();
    val cat = a[1].kind == VAL_MISSING ? host_exc_class(h, HOST_EXC_WARNING) : a[1];
    if (!warn_is_category(h, cat))
        return host_raise(h, HOST_EXC_ASSERTION, at, "category must be a class");
    warn_add_filter(warn_module(h), warn_entry(a[0], val_none(), cat, val_none(), lineno),
                    append);
    return val_none();
}

BUILTIN_FN(warn_filterwarnings)
{
    (void)self;
    val a[6];
    int64_t lineno = 0;
    int append = 0;
    if (!host_args(h, at, "filterwarnings", "action, message=, category=, module=, lineno=, "
                   "append=", argc, argv, kw, a) ||
        !warn_check_action(h, a[0], at) ||
        (a[4].kind != VAL_MISSING && !host_to_int(h, a[4], at, "lineno", &lineno)) ||
        (a[5].kind != VAL_MISSING && (append = host_truth(h, a[5], at)) < 0))
        return val_err();
    for (int i = 1; i <= 3; i += 2)
        if (a[i].kind != VAL_MISSING && a[i].kind != VAL_STR)
            return host_raise(h, HOST_EXC_ASSERTION, at, "%s must be a string",
                              i == 1 ? "message" : "module");
    val cat = a[2].kind == VAL_MISSING ? host_exc_class(h, HOST_EXC_WARNING) : a[2];
    if (!warn_is_category(h, cat))
        return host_raise(h, HOST_EXC_ASSERTION, at, "category must be a class");
    val msg = a[1].kind == VAL_STR && val_as_str(a[1])->len ? a[1] : val_none();
    val mod = a[3].kind == VAL_STR && val_as_str(a[3])->len ? a[3] : val_none();
    warn_add_filter(warn_module(h), warn_entry(a[0], msg, cat, mod, lineno), append);
    return val_none();
}

BUILTIN_FN(warn_resetwarnings)
{
    (void)self;
    (void)argv;
    if (!builtin_nargs(h, "resetwarnings", argc, kw, 0, 0, at))
        return val_err();
    val mod = warn_module(h);
    val_object_set(mod, "filters", val_list_new(0));
    warn_mutated(mod);
    return val_none();
}

/* ---- showing a warning -------------------------------------------------------------------- */

/* Line `line` (1-based) of f, without its leading and trailing blanks. */
static val warn_source_line(const src_file *f, int line)
{
    if (!f || line < 1 || line > f->nlines)
        return val_none();
    const char *s = f->text + f->line_start[line - 1];
    const char *e = line < f->nlines ? f->text + f->line_start[line] : f->text + f->len;
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    return val_str_new(s, (size_t)(e - s));
}

/* formatwarning's text: "file:line: Category: message\n  source\n". */
static val warn_format(host *h, val message, val category, val filename, val lineno,
                       val line)
{
    strbuf b = {0};
    val_print_str(h, filename, &b);
    strbuf_putc(&b, ':');
    val_print_str(h, lineno, &b);
    strbuf_puts(&b, ": ");
    val name = category.kind == VAL_CLASS ? val_object_get(category, "__name__")
                                          : val_missing();
    if (name.kind == VAL_STR)
        strbuf_puts(&b, val_as_str(name)->s);
    else
        strbuf_puts(&b, ((val_class *)category.u.o)->name);
    strbuf_puts(&b, ": ");
    val_print_str(h, message, &b);
    strbuf_putc(&b, '\n');
    if (line.kind == VAL_STR && val_as_str(line)->len) {
        const char *s = val_as_str(line)->s;
        while (isspace((unsigned char)*s))
            s++;
        size_t n = strlen(s);
        while (n && isspace((unsigned char)s[n - 1]))
            n--;
        strbuf_puts(&b, "  ");
        strbuf_putn(&b, s, n);
        strbuf_putc(&b, '\n');
    }
    return val_str_from_buf(&b);
}

BUILTIN_FN(warn_formatwarning)
{
    (void)self;
    val a[5];
    if (!host_args(h, at, "formatwarning", "message, category, filename, lineno, line=", argc,
                   argv, kw, a))
        return val_err();
    if (a[1].kind != VAL_CLASS)
        return host_raise(h, HOST_EXC_TYPE, at, "formatwarning() category must be a class");
    return warn_format(h, a[0], a[1], a[2], a[3], a[4]);
}

static bool warn_write(host *h, val file, val text, src_span at)
{
    if (file.kind == VAL_MISSING || file.kind == VAL_NONE) {
        val sys = host_module(h, "sys");
        file = sys.kind == VAL_MODULE ? val_object_get(sys, "stderr") : val_missing();
        if (file.kind == VAL_MISSING)
            return true;
    }
    val w = host_getattr(h, file, "write", at);
    if (w.kind == VAL_ERR)
        return false;
    val r = host_call(h, w, 1, &text, NULL, at);
    val_unref(w);
    val_unref(r);
    return r.kind != VAL_ERR;
}

BUILTIN_FN(warn_showwarning)
{
    (void)self;
    val a[6];
    if (!host_args(h, at, "showwarning", "message, category, filename, lineno, file=, line=",
                   argc, argv, kw, a))
        return val_err();
    if (a[1].kind != VAL_CLASS)
        return host_raise(h, HOST_EXC_TYPE, at, "showwarning() category must be a class");
    val text = warn_format(h, a[0], a[1], a[2], a[3], a[5]);
    bool ok = warn_write(h, a[4], text, at);
    val_unref(text);
    return ok ? val_none() : val_err();
}

/* ---- WarningMessage -------------------------------------------------------------------------- */

static void warn_message_str(host *h, val self, strbuf *out)
{
    static const char *const fields[] = {"message", "category", "filename", "lineno", "line"};
    strbuf_putc(out, '{');
    for (int i = 0; i < 5; i++) {
        strbuf_printf(out, "%s%s : ", i ? ", " : "", fields[i]);
        val v = val_object_get(self, fields[i]);
        if (i == 3)
            val_print_str(h, v, out);
        else
            val_print_repr(h, v, out);
    }
    strbuf_putc(out, '}');
}

static const val_type warn_message_type = {
    .name = "WarningMessage",
    .str = warn_message_str,
};

static val warn_message_new(val message, val category, val filename, val lineno, val line)
{
    val m = val_object_new(&warn_message_type);
    val_object_set(m, "message", val_ref(message));
    val_object_set(m, "category", val_ref(category));
    val_object_set(m, "filename", val_ref(filename));
    val_object_set(m, "lineno", val_ref(lineno));
    val_object_set(m, "file", val_none());
    val_object_set(m, "line", val_ref(line));
    val_object_set(m, "source", val_none());
    return m;
}

/* Show a warning that passed the filters: into catch_warnings' list, or
 * through warnings.showwarning (the program may have replaced it). */
static bool warn_show(host *h, val mod, val message, val category, val filename, int line,
                      const src_file *file, src_span at)
{
    val log = val_object_get(mod, "_log");
    val srcline = warn_source_line(file, line);
    bool ok = true;
    if (log.kind == VAL_LIST) {
        val_list_push(log, warn_message_new(message, category, filename, val_int(line),
                                            val_none()));
    } else {
        val show = val_object_get(mod, "showwarning");
        if (show.kind == VAL_BUILTIN && ((val_builtin *)show.u.o)->fn == warn_showwarning) {
            val text = warn_format(h, message, category, filename, val_int(line), srcline);
            ok = warn_write(h, val_missing(), text, at);
            val_unref(text);
        } else if (show.kind != VAL_MISSING) {
            val args[4] = {message, category, filename, val_int(line)};
            val r = host_call(h, show, 4, args, NULL, at);
            ok = r.kind != VAL_ERR;
            val_unref(r);
        }
    }
    val_unref(srcline);
    return ok;
}

/* Does filter text (a message or module pattern) match s?  The pattern
 * is taken as literal text: a message filter matches a message that
 * starts with it, ignoring case; a module filter the whole module name. */
static bool warn_pattern_match(val pat, const char *s, bool whole)
{
    if (pat.kind != VAL_STR)
        return true;
    const char *p = val_as_str(pat)->s;
    size_t n = val_as_str(pat)->len;
    if (whole)
        return !strcmp(p, s);
    return strlen(s) >= n && !strncasecmp(p, s, n);
}

/* ---- warn ---------------------------------------------------------------------------------- */

static val warn_warn(host *h, val message, val category, int64_t stacklevel, src_span at)
{
    val mod = warn_module(h);
    val inst, text;
    if (message.kind == VAL_INSTANCE && host_exc_is(h, message, HOST_EXC_WARNING)) {
        category = ((val_instance *)message.u.o)->cls;
        inst = val_ref(message);
    } else {
        if (category.kind == VAL_MISSING || category.kind == VAL_NONE)
            category = host_exc_class(h, HOST_EXC_USER_WARNING);
        if (!warn_is_category(h, category))
            return host_raise(h, HOST_EXC_TYPE, at, "category must be a Warning subclass, "
                              "not '%s'", category.kind == VAL_CLASS
                                              ? ((val_class *)category.u.o)->name
                                              : val_type_name(category));
        inst = host_call(h, category, 1, &message, NULL, at);
        if (inst.kind == VAL_ERR)
            return inst;
    }
    text = host_str(h, inst);
    if (text.kind == VAL_ERR) {
        val_unref(inst);
        return text;
    }
    host_site site;
    host_site_of(h, stacklevel > 1 ? (int)stacklevel - 1 : 0, at, &site);
    val modname = val_dict_get_str(site.globals, "__name__");
    const char *mname = modname.kind == VAL_STR ? val_as_str(modname)->s : "__main__";
    val file = val_dict_get_str(site.globals, "__file__");
    val filename = file.kind == VAL_STR ? val_ref(file) : val_str_cstr(site.file->name);
    int line = site.at.line;
    /* the module's registry, forgotten when the filters changed */
    val registry = val_dict_get_str(site.globals, "__warningregistry__");
    if (registry.kind != VAL_DICT) {
        registry = val_dict_new();
        val_dict_set_str(site.globals, "__warningregistry__", registry);
    }
    val version = val_object_get(mod, "_version");
    val rv = val_dict_get_str(registry, "version");
    if (rv.kind == VAL_MISSING || !val_equal(rv, version)) {
        val_dict_clear(registry);
        val_dict_set_str(registry, "version", val_ref(version));
    }
    val key = val_tuple_of(3, (val[]){val_ref(text), val_ref(category), val_int(line)});
    val r = val_none();
    if (val_dict_get(registry, key).kind != VAL_MISSING)
        goto done;
    const char *action = "default";
    val filters = val_object_get(mod, "filters");
    for (size_t i = 0; filters.kind == VAL_LIST && i < val_as_seq(filters)->len; i++) {
        val f = val_as_seq(filters)->items[i];
        if (f.kind != VAL_TUPLE || val_as_seq(f)->len != 5)
            continue;
        const val *it = val_as_seq(f)->items;
        if (it[0].kind != VAL_STR || !warn_pattern_match(it[1], val_as_str(text)->s, false) ||
            it[2].kind != VAL_CLASS || !class_is_subclass(category, it[2]) ||
            !warn_pattern_match(it[3], mname, true) ||
            (builtin_is_int(it[4]) && builtin_int_of(it[4]) && builtin_int_of(it[4]) != line))
            continue;
        action = val_as_str(it[0])->s;
        break;
    }
    if (!strcmp(action, "error")) {
        r = host_raise_value(h, inst, at);
        goto done;
    }
    if (!strcmp(action, "ignore"))
        goto done;
    if (!strcmp(action, "once")) {
        val once = val_object_get(mod, "_once");
        val okey = val_tuple_of(2, (val[]){val_ref(text), val_ref(category)});
        bool seen = val_dict_get(once, okey).kind != VAL_MISSING;
        if (seen) {
            val_unref(okey);
            goto done;
        }
        val_dict_set(once, okey, val_bool(true));
    } else if (!strcmp(action, "module")) {
        val_dict_set(registry, val_ref(key), val_bool(true));
        val mkey = val_tuple_of(3, (val[]){val_ref(text), val_ref(category), val_int(0)});
        bool seen = val_dict_get(registry, mkey).kind != VAL_MISSING;
        if (seen) {
            val_unref(mkey);
            goto done;
        }
        val_dict_set(registry, mkey, val_bool(true));
    } else if (!strcmp(action, "default")) {
        val_dict_set(registry, val_ref(key), val_bool(true));
    }
    if (!warn_show(h, mod, inst, category, filename, line, site.file, at))
        r = val_err();
done:
    val_unref(key);
    val_unref(filename);
    val_unref(text);
    val_unref(inst);
    return r;
}

BUILTIN_FN(warn_warn_fn)
{
    (void)self;
    val a[4];
    int64_t stacklevel = 1;
    if (!host_args(h, at, "warn", "message, category=, stacklevel=, source=", argc, argv, kw,
                   a) ||
        (a[2].kind != VAL_MISSING && !host_to_int(h, a[2], at, "stacklevel", &stacklevel)))
        return val_err();
    return warn_warn(h, a[0], a[1], stacklevel, at);
}

/* ---- catch_warnings ------------------------------------------------------------------------ */

typedef struct warn_catch {
    val_object o;
    bool record, entered;
    val action, category;       /* simplefilter's, when given (action VAL_NONE: none) */
    val saved_filters, saved_show, saved_log;
} warn_catch;

static void warn_catch_free(val_obj *o)
{
    warn_catch *c = (warn_catch *)o;
    val_unref(c->action);
    val_unref(c->category);
    val_unref(c->saved_filters);
    val_unref(c->saved_show);
    val_unref(c->saved_log);
}

BUILTIN_FN(warn_catch_enter)
{
    (void)argv;
    if (!builtin_nargs(h, "__enter__", argc, kw, 0, 0, at))
        return val_err();
    warn_catch *c = (warn_catch *)self.u.o;
    if (c->entered)
        return host_raise(h, HOST_EXC_RUNTIME, at, "Cannot enter %s twice", "catch_warnings");
    c->entered = true;
    val mod = warn_module(h);
    val filters = val_object_get(mod, "filters");
    c->saved_filters = val_ref(filters);
    c->saved_show = val_ref(val_object_get(mod, "showwarning"));
    c->saved_log = val_ref(val_object_get(mod, "_log"));
    val copy = filters.kind == VAL_LIST ? host_to_list(h, filters, at) : val_list_new(0);
    if (copy.kind == VAL_ERR)
        return copy;
    val_object_set(mod, "filters", copy);
    warn_mutated(mod);
    if (c->action.kind == VAL_STR)
        warn_add_filter(mod, warn_entry(c->action, val_none(), c->category, val_none(), 0),
                        false);
    if (!c->record)
        return val_none();
    val log = val_list_new(0);
    val_object_set(mod, "_log", val_ref(log));
    return log;
}

BUILTIN_FN(warn_catch_exit)
{
    (void)argv;
    (void)kw;
    (void)argc;
    (void)at;
    warn_catch *c = (warn_catch *)self.u.o;
    if (!c->entered)
        return host_raise(h, HOST_EXC_RUNTIME, at, "Cannot exit %s without entering first",
                          "catch_warnings");
    val mod = warn_module(h);
    val_object_set(mod, "filters", c->saved_filters);
    val_object_set(mod, "showwarning", c->saved_show);
    val_object_set(mod, "_log", c->saved_log);
    c->saved_filters = c->saved_show = c->saved_log = val_none();
    warn_mutated(mod);
    return val_bool(false);
}

static val warn_catch_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "__enter__"))
        return val_builtin_new("catch_warnings.__enter__", warn_catch_enter, val_ref(self));
    if (!strcmp(name, "__exit__"))
        return val_builtin_new("catch_warnings.__exit__", warn_catch_exit, val_ref(self));
    return val_missing();
}

static void warn_catch_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "catch_warnings(%s)",
                  ((warn_catch *)self.u.o)->record ? "record=True" : "");
}

static const char *const warn_catch_attrs[] = {"__enter__", "__exit__", NULL};

static const val_type warn_catch_type = {
    .name = "catch_warnings",
    .getattr = warn_catch_getattr,
    .repr = warn_catch_repr,
    .free = warn_catch_free,
    .attr_names = warn_catch_attrs,
};

BUILTIN_FN(warn_catch_warnings)
{
    (void)self;
    val a[6];
    int record = 0;
    if (!host_args(h, at, "catch_warnings", "*, record=, module=, action=, category=, lineno=, "
                   "append=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && (record = host_truth(h, a[0], at)) < 0))
        return val_err();
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "catch_warnings(module=...) is "
                          "not supported by tritsim");
    if (a[2].kind != VAL_MISSING && a[2].kind != VAL_NONE && !warn_check_action(h, a[2], at))
        return val_err();
    val cat = a[3].kind == VAL_MISSING ? host_exc_class(h, HOST_EXC_WARNING) : a[3];
    if (!warn_is_category(h, cat))
        return host_raise(h, HOST_EXC_ASSERTION, at, "category must be a class");
    warn_catch *c = val_obj_new(sizeof *c, VAL_OBJECT, &warn_catch_type);
    c->record = record;
    c->action = a[2].kind == VAL_STR ? val_ref(a[2]) : val_none();
    c->category = val_ref(cat);
    c->saved_filters = c->saved_show = c->saved_log = val_none();
    return val_of(c);
}

void builtin_warnings_init(host *h)
{
    val m = val_module_new("warnings");
    host_def(m, "warnings.warn", warn_warn_fn);
    host_def(m, "warnings.simplefilter", warn_simplefilter);
    host_def(m, "warnings.filterwarnings", warn_filterwarnings);
    host_def(m, "warnings.resetwarnings", warn_resetwarnings);
    host_def(m, "warnings.catch_warnings", warn_catch_warnings);
    host_def(m, "warnings.formatwarning", warn_formatwarning);
    host_def(m, "warnings.showwarning", warn_showwarning);
    val filters = val_list_new(5);
    static const struct { const char *action; host_exc cat; const char *module; } dflt[] = {
        {"default", HOST_EXC_DEPRECATION_WARNING, "__main__"},
        {"ignore", HOST_EXC_DEPRECATION_WARNING, NULL},
        {"ignore", HOST_EXC_PENDING_DEPRECATION_WARNING, NULL},
        {"ignore", HOST_EXC_IMPORT_WARNING, NULL},
        {"ignore", HOST_EXC_RESOURCE_WARNING, NULL},
    };
    for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++) {
        val action = val_str_cstr(dflt[i].action);
        val module = dflt[i].module ? val_str_cstr(dflt[i].module) : val_none();
        val_list_push(filters, warn_entry(action, val_none(), host_exc_class(h, dflt[i].cat),
                                          module, 0));
        val_unref(action);
        val_unref(module);
    }
    val_object_set(m, "filters", filters);
    val_object_set(m, "_version", val_int(1));
    val_object_set(m, "_once", val_dict_new());
    val_object_set(m, "_log", val_none());
    host_register_module(h, "warnings", m);
}
