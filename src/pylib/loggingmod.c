/* loggingmod.c - the logging module as library code uses it: loggers by
 * dotted name in a hierarchy under the root logger (getLogger), levels
 * (effective level through the parents), records passed to the handlers of
 * the logger and its ancestors (propagate), StreamHandler and NullHandler
 * with a Formatter's %-style format, basicConfig, the module-level
 * functions (which configure the root logger first, as CPython's do), and
 * the "last resort" handler: with no handler anywhere, a record of level
 * WARNING or above prints its bare message on stderr.
 *
 * Loggers, handlers, formatters and records are objects with an attribute
 * dict (their state: name, level, parent, handlers, propagate, disabled;
 * a handler's level, formatter, stream; a record's fields), so programs
 * read and set them as in CPython; the methods come from getattr hooks.
 * The module keeps its state in its own attributes: root, and the private
 * _loggers (name -> logger), _levels (level -> name) and _disable. */
#define _POSIX_C_SOURCE 200809L
#include "builtins_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { LOG_NOTSET = 0, LOG_DEBUG = 10, LOG_INFO = 20, LOG_WARNING = 30, LOG_ERROR = 40,
       LOG_CRITICAL = 50 };

#define LOG_BASIC_FORMAT "%(levelname)s:%(name)s:%(message)s"

static const val_type log_logger_type, log_handler_type, log_formatter_type, log_record_type;

/* The kinds of handler this module makes. */
enum { LOG_H_STREAM, LOG_H_NULL };

typedef struct log_handler {
    val_object o;
    int kind;
} log_handler;

/* An object of one of this module's types: every one keeps `mod`, the
 * logging module, in its attributes as _module. */
static val log_module_of(val obj)
{
    return val_object_get(obj, "_module");
}

static val log_attr(val obj, const char *name)
{
    return val_object_get(obj, name);
}

static int64_t log_int_attr(val obj, const char *name, int64_t dflt)
{
    val v = val_object_get(obj, name);
    return builtin_is_int(v) ? builtin_int_of(v) : dflt;
}

static bool log_bool_attr(host *h, val obj, const char *name, bool dflt)
{
    val v = val_object_get(obj, name);
    if (v.kind == VAL_MISSING)
        return dflt;
    int t = host_truth(h, v, h->stmt_at);
    return t < 0 ? dflt : t;
}

/* ---- levels ------------------------------------------------------------------------------- */

/* getLevelName: the name of an int level ("Level 5" for one without),
 * the int of a name (or "Level NAME"). */
static val log_level_name(host *h, val mod, val level)
{
    val levels = val_object_get(mod, "_levels");
    if (builtin_is_int(level)) {
        val n = val_dict_get(levels, val_int(builtin_int_of(level)));
        if (n.kind != VAL_MISSING)
            return val_ref(n);
        return val_str_fmt("Level %lld", (long long)builtin_int_of(level));
    }
    size_t pos = 0;
    val k, v;
    while (val_dict_next(levels, &pos, &k, &v))
        if (val_equal(v, level))
            return val_ref(k);
    val s = host_str(h, level);
    if (s.kind == VAL_ERR)
        return s;
    val r = val_str_fmt("Level %s", val_as_str(s)->s);
    val_unref(s);
    return r;
}

/* A level argument: an int, or a registered level's name. */
static bool log_level_arg(host *h, val mod, val v, src_span at, int64_t *out)
{
    if (builtin_is_int(v)) {
        *out = builtin_int_of(v);
        return true;
    }
    if (v.kind == VAL_STR) {
        val levels = val_object_get(mod, "_levels");
        size_t pos = 0;
        val k, n;
        while (val_dict_next(levels, &pos, &k, &n))
            if (val_equal(n, v)) {
                *out = builtin_int_of(k);
                return true;
            }
        host_raise(h, HOST_EXC_VALUE, at, "ValueError: Unknown level: '%s'", val_as_str(v)->s);
        return false;
    }
    host_raise(h, HOST_EXC_TYPE, at, "Level not an integer or a valid string: %s",
               val_type_name(v));
    return false;
}

/* ---- formatters ---------------------------------------------------------------------------- */

static val log_formatter_new(val mod, val fmt, val datefmt)
{
    val f = val_object_new(&log_formatter_type);
    val_object_set(f, "_module", val_ref(mod));
    val_object_set(f, "_fmt", fmt.kind == VAL_STR ? val_ref(fmt) : val_str_cstr("%(message)s"));
    val_object_set(f, "datefmt", datefmt.kind == VAL_MISSING ? val_none() : val_ref(datefmt));
    return f;
}

BUILTIN_FN(log_Formatter)
{
    val a[3];
    if (!host_args(h, at, "Formatter", "fmt=, datefmt=, style=", argc, argv, kw, a))
        return val_err();
    if (a[2].kind == VAL_STR && strcmp(val_as_str(a[2])->s, "%"))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "logging.Formatter: only style='%%' "
                          "formats are supported by tritsim");
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE && a[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "Formatter fmt must be a str");
    return log_formatter_new(self, a[0], a[1]);
}

/* The record's asctime: "2024-01-31 12:00:00,123", or strftime(datefmt). */
static val log_asctime(val record, val datefmt)
{
    val c = val_object_get(record, "created");
    double created = c.kind == VAL_FLOAT ? c.u.f : 0;
    time_t secs = (time_t)created;
    struct tm tm;
    localtime_r(&secs, &tm);
    char buf[256];
    if (datefmt.kind == VAL_STR) {
        size_t n = strftime(buf, sizeof buf, val_as_str(datefmt)->s, &tm);
        return val_str_new(buf, n);
    }
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return val_str_fmt("%s,%03d", buf, (int)((created - (double)secs) * 1000));
}

/* formatter.format(record): the format with the record's fields. */
static val log_format_record(host *h, val formatter, val record, src_span at)
{
    val fmt = val_object_get(formatter, "_fmt");
    if (fmt.kind != VAL_STR)
        fmt = val_str_cstr("%(message)s");
    else
        val_ref(fmt);
    if (strstr(val_as_str(fmt)->s, "%(asctime)"))
        val_object_set(record, "asctime",
                       log_asctime(record, val_object_get(formatter, "datefmt")));
    val fields = ((val_object *)record.u.o)->attrs;
    val s = h->types.str_percent ? h->types.str_percent(h, fmt, fields, at)
                                 : val_ref(val_object_get(record, "message"));
    val_unref(fmt);
    if (s.kind == VAL_ERR)
        return s;
    val exc_text = val_object_get(record, "exc_text");
    if (exc_text.kind == VAL_STR) {
        val r = val_str_fmt("%s\n%s", val_as_str(s)->s, val_as_str(exc_text)->s);
        val_unref(s);
        return r;
    }
    return s;
}

BUILTIN_FN(log_formatter_format)
{
    if (!builtin_nargs(h, "format", argc, kw, 1, 1, at))
        return val_err();
    if (val_type_of(argv[0]) != &log_record_type)
        return host_raise(h, HOST_EXC_TYPE, at, "Formatter.format() takes a LogRecord");
    return log_format_record(h, self, argv[0], at);
}

static val log_formatter_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "format"))
        return val_builtin_new("Formatter.format", log_formatter_format, val_ref(self));
    return val_missing();
}

static const char *const log_formatter_attrs[] = {"format", "datefmt", NULL};

static const val_type log_formatter_type = {
    .name = "Formatter",
    .getattr = log_formatter_getattr,
    .attr_names = log_formatter_attrs,
};

/* ---- handlers ------------------------------------------------------------------------------ */

static val log_handler_new(host *h, val mod, int kind, val stream)
{
    log_handler *hd = val_obj_new(sizeof *hd, VAL_OBJECT, &log_handler_type);
    hd->o.attrs = val_dict_new();
    hd->kind = kind;
    val v = val_of(hd);
    val_object_set(v, "_module", val_ref(mod));
    val_object_set(v, "level", val_int(LOG_NOTSET));
    val_object_set(v, "formatter", val_none());
    val_object_set(v, "filters", val_list_new(0));
    val_object_set(v, "name", val_none());
    if (kind == LOG_H_STREAM) {
        if (stream.kind == VAL_MISSING || stream.kind == VAL_NONE) {
            val sys = host_module(h, "sys");
            stream = sys.kind == VAL_MODULE ? val_object_get(sys, "stderr") : val_none();
        }
        val_object_set(v, "stream", val_ref(stream));
    }
    return v;
}

BUILTIN_FN(log_StreamHandler)
{
    val a[1];
    if (!host_args(h, at, "StreamHandler", "stream=", argc, argv, kw, a))
        return val_err();
    return log_handler_new(h, self, LOG_H_STREAM, a[0]);
}

BUILTIN_FN(log_NullHandler)
{
    (void)argv;
    if (!builtin_nargs(h, "NullHandler", argc, kw, 0, 0, at))
        return val_err();
    return log_handler_new(h, self, LOG_H_NULL, val_none());
}

/* Do the filters of a logger or handler let record through?  1, 0, or -1
 * after an error.  A filter is a callable, or an object with .filter. */
static int log_filtered(host *h, val obj, val record, src_span at)
{
    val filters = val_object_get(obj, "filters");
    if (filters.kind != VAL_LIST)
        return 1;
    const val_seq *fs = val_as_seq(filters);
    for (size_t i = 0; i < fs->len; i++) {
        val f = fs->items[i];
        val m = host_getattr_opt(h, f, "filter", at);
        val r = host_call(h, m.kind != VAL_MISSING ? m : f, 1, &record, NULL, at);
        val_unref(m);
        int t = r.kind == VAL_ERR ? -1 : host_truth(h, r, at);
        val_unref(r);
        if (t <= 0)
            return t;
    }
    return 1;
}

/* Write text and a newline to stream (anything with .write). */
static bool log_write(host *h, val stream, val text, src_span at)
{
    val w = host_getattr(h, stream, "write", at);
    if (w.kind == VAL_ERR)
        return false;
    val line = val_str_fmt("%s\n", val_as_str(text)->s);
    val r = host_call(h, w, 1, &line, NULL, at);
    val_unref(line);
    val_unref(w);
    if (r.kind == VAL_ERR)
        return false;
    val_unref(r);
    return true;
}

/* handler.handle(record): its level, its filters, then emit. */
static bool log_handle(host *h, val hd, val record, src_span at)
{
    if (val_type_of(hd) != &log_handler_type) {
        /* a handler of the program's own: its handle method decides */
        val r = host_getattr(h, hd, "handle", at);
        if (r.kind != VAL_ERR) {
            val x = host_call(h, r, 1, &record, NULL, at);
            val_unref(r);
            r = x;
        }
        val_unref(r);
        return r.kind != VAL_ERR;
    }
    int f = log_filtered(h, hd, record, at);
    if (f <= 0)
        return f == 0;
    if (((log_handler *)hd.u.o)->kind == LOG_H_NULL)
        return true;
    val fmt = val_object_get(hd, "formatter");
    val text;
    if (fmt.kind == VAL_NONE || fmt.kind == VAL_MISSING) {
        val dflt = log_formatter_new(log_module_of(hd), val_missing(), val_missing());
        text = log_format_record(h, dflt, record, at);
        val_unref(dflt);
    } else if (val_type_of(fmt) == &log_formatter_type) {
        text = log_format_record(h, fmt, record, at);
    } else {
        text = host_call_method(h, fmt, "format", 1, &record, NULL, at);
    }
    if (text.kind == VAL_ERR)
        return false;
    bool ok = text.kind == VAL_STR
                  ? log_write(h, val_object_get(hd, "stream"), text, at)
                  : (host_raise(h, HOST_EXC_TYPE, at, "a formatter must return a str"), false);
    val_unref(text);
    return ok;
}

BUILTIN_FN(log_handler_setLevel)
{
    int64_t lv;
    if (!builtin_nargs(h, "setLevel", argc, kw, 1, 1, at) ||
        !log_level_arg(h, log_module_of(self), argv[0], at, &lv))
        return val_err();
    val_object_set(self, "level", val_int(lv));
    return val_none();
}

BUILTIN_FN(log_handler_setFormatter)
{
    if (!builtin_nargs(h, "setFormatter", argc, kw, 1, 1, at))
        return val_err();
    val_object_set(self, "formatter", val_ref(argv[0]));
    return val_none();
}

BUILTIN_FN(log_handler_handle)
{
    if (!builtin_nargs(h, "handle", argc, kw, 1, 1, at))
        return val_err();
    return log_handle(h, self, argv[0], at) ? val_none() : val_err();
}

BUILTIN_FN(log_handler_flush)
{
    UNUSED_ARGS;
    return val_none();
}

/* addFilter / removeFilter of loggers and handlers. */
BUILTIN_FN(log_addFilter)
{
    if (!builtin_nargs(h, "addFilter", argc, kw, 1, 1, at))
        return val_err();
    val fs = val_object_get(self, "filters");
    if (fs.kind == VAL_LIST)
        val_list_push(fs, val_ref(argv[0]));
    return val_none();
}

BUILTIN_FN(log_removeFilter)
{
    if (!builtin_nargs(h, "removeFilter", argc, kw, 1, 1, at))
        return val_err();
    val fs = val_object_get(self, "filters");
    for (size_t i = 0; fs.kind == VAL_LIST && i < val_as_seq(fs)->len; i++)
        if (val_is_heap(argv[0]) && val_as_seq(fs)->items[i].u.o == argv[0].u.o) {
            val_unref(val_list_remove(fs, i));
            break;
        }
    return val_none();
}

static void log_handler_repr(host *h, val self, strbuf *out)
{
    const char *cls = ((log_handler *)self.u.o)->kind == LOG_H_NULL ? "NullHandler"
                                                                     : "StreamHandler";
    strbuf_printf(out, "<%s ", cls);
    val stream = val_object_get(self, "stream");
    if (stream.kind != VAL_MISSING) {
        val n = host_getattr_opt(h, stream, "name", h->stmt_at);
        if (n.kind == VAL_STR)
            strbuf_printf(out, "%s ", val_as_str(n)->s);
        else if (val_type_name(stream) && !strcmp(val_type_name(stream), "TextIOWrapper")) {
            strbuf tmp = {0};
            val_print_repr(h, stream, &tmp);
            const char *s = strbuf_cstr(&tmp), *q = strstr(s, "name='");
            if (q) {
                q += 6;
                strbuf_putn(out, q, strcspn(q, "'"));
                strbuf_putc(out, ' ');
            }
            strbuf_free(&tmp);
        }
        val_unref(n);
    }
    val lv = log_level_name(h, log_module_of(self), val_int(log_int_attr(self, "level", 0)));
    if (lv.kind == VAL_STR)
        strbuf_printf(out, "(%s)>", val_as_str(lv)->s);
    val_unref(lv);
}

static val log_handler_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    static const val_method methods[] = {
        {"setLevel", "Handler.setLevel", log_handler_setLevel},
        {"setFormatter", "Handler.setFormatter", log_handler_setFormatter},
        {"handle", "Handler.handle", log_handler_handle},
        {"emit", "Handler.emit", log_handler_handle},
        {"flush", "Handler.flush", log_handler_flush},
        {"close", "Handler.close", log_handler_flush},
        {"addFilter", "Handler.addFilter", log_addFilter},
        {"removeFilter", "Handler.removeFilter", log_removeFilter},
    };
    return val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
}

static const char *const log_handler_attrs[] = {
    "setLevel", "setFormatter", "handle", "emit", "flush", "close", "addFilter",
    "removeFilter", "level", "formatter", "stream", "name", NULL,
};

static const val_type log_handler_type = {
    .name = "Handler",
    .getattr = log_handler_getattr,
    .repr = log_handler_repr,
    .attr_names = log_handler_attrs,
};

/* ---- records ------------------------------------------------------------------------------ */

BUILTIN_FN(log_record_getMessage)
{
    (void)argv;
    if (!builtin_nargs(h, "getMessage", argc, kw, 0, 0, at))
        return val_err();
    return val_ref(val_object_get(self, "message"));
}

static val log_record_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "getMessage"))
        return val_builtin_new("LogRecord.getMessage", log_record_getMessage, val_ref(self));
    return val_missing();
}

static void log_record_repr(host *h, val self, strbuf *out)
{
    (void)h;
    val name = val_object_get(self, "name"), path = val_object_get(self, "pathname");
    val msg = val_object_get(self, "msg");
    strbuf_printf(out, "<LogRecord: %s, %lld, %s, %lld, \"",
                  name.kind == VAL_STR ? val_as_str(name)->s : "?",
                  (long long)log_int_attr(self, "levelno", 0),
                  path.kind == VAL_STR ? val_as_str(path)->s : "?",
                  (long long)log_int_attr(self, "lineno", 0));
    val_print_str(h, msg, out);
    strbuf_puts(out, "\">");
}

static const char *const log_record_attrs[] = {
    "getMessage", "name", "msg", "args", "levelname", "levelno", "pathname", "filename",
    "module", "lineno", "funcName", "created", "msecs", "message", "exc_info", NULL,
};

static const val_type log_record_type = {
    .name = "LogRecord",
    .getattr = log_record_getattr,
    .repr = log_record_repr,
    .attr_names = log_record_attrs,
};

/* The text of an exception for a record's exc_text: its last line as a
 * traceback would print it ("ValueError: bad"); the frames are not
 * printed. */
static val log_exc_text(host *h, val e)
{
    if (e.kind != VAL_INSTANCE)
        return val_none();
    strbuf b = {0};
    strbuf_puts(&b, "Traceback (most recent call last):\n  (frames not shown by tritsim)\n");
    strbuf_puts(&b, val_type_name(e));
    val s = host_str(h, e);
    if (s.kind == VAL_STR && val_as_str(s)->len)
        strbuf_printf(&b, ": %s", val_as_str(s)->s);
    if (s.kind == VAL_ERR)
        val_unref(host_exc_take(h));
    val_unref(s);
    return val_str_from_buf(&b);
}

/* A new record: msg % args as its message.  exc is the exception of
 * exc_info (VAL_NONE without). */
static val log_record_new(host *h, val logger, int64_t level, val msg, val args, val exc,
                          val extra, int stacklevel, src_span at)
{
    val mod = log_module_of(logger);
    val rec = val_object_new(&log_record_type);
    val_object_set(rec, "name", val_ref(log_attr(logger, "name")));
    val_object_set(rec, "msg", val_ref(msg));
    val_object_set(rec, "args", val_ref(args));
    val_object_set(rec, "levelno", val_int(level));
    val_object_set(rec, "levelname", log_level_name(h, mod, val_int(level)));
    host_site site;
    host_site_of(h, stacklevel > 0 ? stacklevel - 1 : 0, at, &site);
    val file = val_dict_get_str(site.globals, "__file__");
    const char *path = file.kind == VAL_STR ? val_as_str(file)->s : site.file->name;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    val_object_set(rec, "pathname", val_str_cstr(path));
    val_object_set(rec, "filename", val_str_cstr(base));
    size_t stem = strcspn(base, ".");
    val_object_set(rec, "module", val_str_new(base, stem));
    val_object_set(rec, "lineno", val_int(site.at.line));
    val_object_set(rec, "funcName", val_str_cstr(site.func));
    struct timeval tv;
    gettimeofday(&tv, NULL);
    double now = (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
    val_object_set(rec, "created", val_float(now));
    val_object_set(rec, "msecs", val_float((double)(tv.tv_usec / 1000)));
    val start = val_object_get(mod, "_start");
    val_object_set(rec, "relativeCreated",
                   val_float((now - (start.kind == VAL_FLOAT ? start.u.f : now)) * 1000));
    val_object_set(rec, "thread", val_int(1));
    val_object_set(rec, "threadName", val_str_cstr("MainThread"));
    val_object_set(rec, "process", val_int(getpid()));
    val_object_set(rec, "processName", val_str_cstr("MainProcess"));
    val_object_set(rec, "exc_info", val_ref(exc));
    val_object_set(rec, "exc_text", log_exc_text(h, exc));
    val_object_set(rec, "stack_info", val_none());
    if (extra.kind == VAL_DICT) {
        size_t pos = 0;
        val k, v;
        while (val_dict_next(extra, &pos, &k, &v))
            if (k.kind == VAL_STR)
                val_object_set(rec, val_as_str(k)->s, val_ref(v));
    }
    /* the message: str(msg) % args, or str(msg) */
    val text;
    if (args.kind == VAL_TUPLE && val_as_seq(args)->len == 0) {
        text = host_str(h, msg);
    } else {
        val fmt = host_str(h, msg);
        text = fmt.kind == VAL_ERR || !h->types.str_percent
                   ? fmt
                   : h->types.str_percent(h, fmt, args, at);
        if (fmt.kind != VAL_ERR && h->types.str_percent)
            val_unref(fmt);
    }
    if (text.kind == VAL_ERR) {
        val_unref(rec);
        return text;
    }
    val_object_set(rec, "message", text);
    return rec;
}

/* ---- loggers ------------------------------------------------------------------------------ */

static val log_logger_new(val mod, const char *name, int64_t level, val parent)
{
    val lg = val_object_new(&log_logger_type);
    val_object_set(lg, "_module", val_ref(mod));
    val_object_set(lg, "name", val_str_cstr(name));
    val_object_set(lg, "level", val_int(level));
    val_object_set(lg, "parent", val_ref(parent));
    val_object_set(lg, "propagate", val_bool(true));
    val_object_set(lg, "handlers", val_list_new(0));
    val_object_set(lg, "filters", val_list_new(0));
    val_object_set(lg, "disabled", val_bool(false));
    return lg;
}

static int64_t log_effective_level(val logger)
{
    for (val l = logger; l.kind == VAL_OBJECT; l = log_attr(l, "parent")) {
        int64_t lv = log_int_attr(l, "level", 0);
        if (lv)
            return lv;
    }
    return LOG_NOTSET;
}

static bool log_enabled_for(val logger, int64_t level)
{
    val mod = log_module_of(logger);
    if (log_int_attr(mod, "_disable", 0) >= level)
        return false;
    return level >= log_effective_level(logger);
}

/* getLogger(name): the one logger of that name; a new one's parent is its
 * nearest existing ancestor, and loggers below it whose parent was above
 * it get it as their parent. */
static val log_get_logger(val mod, const char *name)
{
    val root = val_object_get(mod, "root");
    if (!name || !*name || !strcmp(name, "root"))
        return val_ref(root);
    val loggers = val_object_get(mod, "_loggers");
    val lg = val_dict_get_str(loggers, name);
    if (lg.kind != VAL_MISSING)
        return val_ref(lg);
    size_t n = strlen(name);
    val parent = root;
    char *buf = xmalloc(n + 1);
    memcpy(buf, name, n + 1);
    for (char *dot = strrchr(buf, '.'); dot; dot = strrchr(buf, '.')) {
        *dot = '\0';
        val p = val_dict_get_str(loggers, buf);
        if (p.kind != VAL_MISSING) {
            parent = p;
            break;
        }
    }
    free(buf);
    lg = log_logger_new(mod, name, LOG_NOTSET, parent);
    size_t pos = 0;
    val k, v;
    while (val_dict_next(loggers, &pos, &k, &v)) {
        const char *kn = val_as_str(k)->s;
        if (strncmp(kn, name, n) || kn[n] != '.')
            continue;
        val p = log_attr(v, "parent");
        val pn = p.kind == VAL_OBJECT ? log_attr(p, "name") : val_missing();
        bool above = p.u.o == root.u.o ||
                     (pn.kind == VAL_STR && val_as_str(pn)->len < n);
        if (above)
            val_object_set(v, "parent", val_ref(lg));
    }
    val_dict_set_str(loggers, name, val_ref(lg));
    return lg;
}

/* Pass record to the handlers of logger and its ancestors; with none at
 * all, the last resort prints the message on stderr (WARNING and up). */
static bool log_call_handlers(host *h, val logger, val record, src_span at)
{
    int64_t level = log_int_attr(record, "levelno", 0);
    int found = 0;
    for (val l = logger; l.kind == VAL_OBJECT; l = log_attr(l, "parent")) {
        val hs = log_attr(l, "handlers");
        if (hs.kind == VAL_LIST) {
            for (size_t i = 0; i < val_as_seq(hs)->len; i++) {
                val hd = val_ref(val_as_seq(hs)->items[i]);
                found++;
                bool ok = true;
                int64_t hl = val_type_of(hd) == &log_handler_type ? log_int_attr(hd, "level", 0)
                                                                  : 0;
                if (val_type_of(hd) != &log_handler_type) {
                    val lv = host_getattr_opt(h, hd, "level", at);
                    hl = builtin_is_int(lv) ? builtin_int_of(lv) : 0;
                    val_unref(lv);
                }
                if (level >= hl)
                    ok = log_handle(h, hd, record, at);
                val_unref(hd);
                if (!ok)
                    return false;
            }
        }
        if (!log_bool_attr(h, l, "propagate", true))
            break;
    }
    if (found == 0 && level >= LOG_WARNING) {
        val sys = host_module(h, "sys");
        val err = sys.kind == VAL_MODULE ? val_object_get(sys, "stderr") : val_missing();
        if (err.kind == VAL_MISSING)
            return true;
        val text = val_ref(val_object_get(record, "message"));
        val exc_text = val_object_get(record, "exc_text");
        if (exc_text.kind == VAL_STR) {
            val t = val_str_fmt("%s\n%s", val_as_str(text)->s, val_as_str(exc_text)->s);
            val_unref(text);
            text = t;
        }
        bool ok = log_write(h, err, text, at);
        val_unref(text);
        return ok;
    }
    return true;
}

/* logger.log(level, msg, *args, exc_info=, stack_info=, stacklevel=,
 * extra=): the work of debug(), info(), ... */
static val log_emit(host *h, val logger, int64_t level, bool exc_default, int argc,
                    const val *argv, const val_kwargs *kw, src_span at)
{
    val opt[4] = {val_missing(), val_missing(), val_missing(), val_missing()};
    static const char *const names[] = {"exc_info", "stack_info", "stacklevel", "extra"};
    for (int i = 0; kw && i < kw->n; i++) {
        int j = 0;
        while (j < 4 && strcmp(kw->names[i], names[j]))
            j++;
        if (j == 4)
            return host_raise(h, HOST_EXC_TYPE, at, "Logger._log() got an unexpected keyword "
                              "argument '%s'", kw->names[i]);
        opt[j] = kw->values[i];
    }
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at, "missing 1 required positional argument: "
                          "'msg'");
    if (log_bool_attr(h, logger, "disabled", false) || !log_enabled_for(logger, level))
        return val_none();
    val exc = val_none();
    bool want_exc = exc_default;
    if (opt[0].kind != VAL_MISSING) {
        if (opt[0].kind == VAL_INSTANCE)
            exc = opt[0];
        else if (opt[0].kind == VAL_TUPLE && val_as_seq(opt[0])->len == 3)
            exc = val_as_seq(opt[0])->items[1];
        else {
            int t = host_truth(h, opt[0], at);
            if (t < 0)
                return val_err();
            want_exc = t;
        }
    }
    if (want_exc && exc.kind == VAL_NONE)
        exc = h->handling;
    int64_t stacklevel = 1;
    if (opt[2].kind != VAL_MISSING &&
        !host_to_int(h, opt[2], at, "stacklevel", &stacklevel))
        return val_err();
    /* args: the rest; a single non-empty dict is the mapping itself */
    val args;
    if (argc == 2 && argv[1].kind == VAL_DICT && val_as_dict(argv[1])->len)
        args = val_ref(argv[1]);
    else {
        args = val_tuple_new((size_t)(argc - 1));
        for (int i = 1; i < argc; i++)
            val_seq_set(args, (size_t)(i - 1), val_ref(argv[i]));
    }
    val rec = log_record_new(h, logger, level, argv[0], args, exc, opt[3], (int)stacklevel, at);
    val_unref(args);
    if (rec.kind == VAL_ERR)
        return rec;
    int f = log_filtered(h, logger, rec, at);
    bool ok = f > 0 ? log_call_handlers(h, logger, rec, at) : f == 0;
    val_unref(rec);
    return ok ? val_none() : val_err();
}

/* The functions of the levels, as Logger methods and as the module's
 * functions: the name, the level, whether exc_info defaults to true. */
#define LOG_LEVELS(X) \
    X(debug, LOG_DEBUG, false) \
    X(info, LOG_INFO, false) \
    X(warning, LOG_WARNING, false) \
    X(error, LOG_ERROR, false) \
    X(exception, LOG_ERROR, true) \
    X(critical, LOG_CRITICAL, false)

#define LOG_LOGGER_FN(name, level, exc) \
    BUILTIN_FN(log_logger_##name) \
    { \
        return log_emit(h, self, level, exc, argc, argv, kw, at); \
    }
LOG_LEVELS(LOG_LOGGER_FN)

/* log(level, msg, ...)'s level, its first argument. */
static bool log_level_first(host *h, int argc, const val *argv, src_span at, int64_t *lv)
{
    if (argc < 1) {
        host_raise(h, HOST_EXC_TYPE, at, "log() missing 1 required positional argument: "
                   "'level'");
        return false;
    }
    return host_to_int(h, argv[0], at, "level", lv);
}

BUILTIN_FN(log_logger_log)
{
    int64_t lv;
    if (!log_level_first(h, argc, argv, at, &lv))
        return val_err();
    return log_emit(h, self, lv, false, argc - 1, argv + 1, kw, at);
}

BUILTIN_FN(log_logger_setLevel)
{
    int64_t lv;
    if (!builtin_nargs(h, "setLevel", argc, kw, 1, 1, at) ||
        !log_level_arg(h, log_module_of(self), argv[0], at, &lv))
        return val_err();
    val_object_set(self, "level", val_int(lv));
    return val_none();
}

BUILTIN_FN(log_logger_getEffectiveLevel)
{
    (void)argv;
    if (!builtin_nargs(h, "getEffectiveLevel", argc, kw, 0, 0, at))
        return val_err();
    return val_int(log_effective_level(self));
}

BUILTIN_FN(log_logger_isEnabledFor)
{
    int64_t lv;
    if (!builtin_nargs(h, "isEnabledFor", argc, kw, 1, 1, at) ||
        !host_to_int(h, argv[0], at, "level", &lv))
        return val_err();
    return val_bool(!log_bool_attr(h, self, "disabled", false) && log_enabled_for(self, lv));
}

BUILTIN_FN(log_logger_addHandler)
{
    if (!builtin_nargs(h, "addHandler", argc, kw, 1, 1, at))
        return val_err();
    val hs = log_attr(self, "handlers");
    if (hs.kind != VAL_LIST)
        return host_raise(h, HOST_EXC_TYPE, at, "logger.handlers is not a list");
    for (size_t i = 0; i < val_as_seq(hs)->len; i++)
        if (val_is_heap(argv[0]) && val_as_seq(hs)->items[i].u.o == argv[0].u.o)
            return val_none();
    val_list_push(hs, val_ref(argv[0]));
    return val_none();
}

BUILTIN_FN(log_logger_removeHandler)
{
    if (!builtin_nargs(h, "removeHandler", argc, kw, 1, 1, at))
        return val_err();
    val hs = log_attr(self, "handlers");
    for (size_t i = 0; hs.kind == VAL_LIST && i < val_as_seq(hs)->len; i++)
        if (val_is_heap(argv[0]) && val_as_seq(hs)->items[i].u.o == argv[0].u.o) {
            val_unref(val_list_remove(hs, i));
            break;
        }
    return val_none();
}

BUILTIN_FN(log_logger_hasHandlers)
{
    (void)argv;
    if (!builtin_nargs(h, "hasHandlers", argc, kw, 0, 0, at))
        return val_err();
    for (val l = self; l.kind == VAL_OBJECT; l = log_attr(l, "parent")) {
        val hs = log_attr(l, "handlers");
        if (hs.kind == VAL_LIST && val_as_seq(hs)->len)
            return val_bool(true);
        if (!log_bool_attr(h, l, "propagate", true))
            break;
    }
    return val_bool(false);
}

BUILTIN_FN(log_logger_getChild)
{
    const char *suffix;
    if (!builtin_nargs(h, "getChild", argc, kw, 1, 1, at) ||
        !host_to_str(h, argv[0], at, "getChild() argument", &suffix))
        return val_err();
    val mod = log_module_of(self);
    val name = log_attr(self, "name");
    if (self.u.o == val_object_get(mod, "root").u.o)
        return log_get_logger(mod, suffix);
    strbuf b = {0};
    strbuf_printf(&b, "%s.%s", val_as_str(name)->s, suffix);
    val r = log_get_logger(mod, strbuf_cstr(&b));
    strbuf_free(&b);
    return r;
}

static void log_logger_repr(host *h, val self, strbuf *out)
{
    val mod = log_module_of(self);
    bool root = self.u.o == val_object_get(mod, "root").u.o;
    val lv = log_level_name(h, mod, val_int(log_effective_level(self)));
    val name = log_attr(self, "name");
    strbuf_printf(out, "<%s %s (%s)>", root ? "RootLogger" : "Logger",
                  name.kind == VAL_STR ? val_as_str(name)->s : "?",
                  lv.kind == VAL_STR ? val_as_str(lv)->s : "?");
    val_unref(lv);
}

static const val_method log_logger_methods[] = {
    {"debug", "Logger.debug", log_logger_debug},
    {"info", "Logger.info", log_logger_info},
    {"warning", "Logger.warning", log_logger_warning},
    {"warn", "Logger.warn", log_logger_warning},
    {"error", "Logger.error", log_logger_error},
    {"exception", "Logger.exception", log_logger_exception},
    {"critical", "Logger.critical", log_logger_critical},
    {"fatal", "Logger.fatal", log_logger_critical},
    {"log", "Logger.log", log_logger_log},
    {"setLevel", "Logger.setLevel", log_logger_setLevel},
    {"getEffectiveLevel", "Logger.getEffectiveLevel", log_logger_getEffectiveLevel},
    {"isEnabledFor", "Logger.isEnabledFor", log_logger_isEnabledFor},
    {"addHandler", "Logger.addHandler", log_logger_addHandler},
    {"removeHandler", "Logger.removeHandler", log_logger_removeHandler},
    {"hasHandlers", "Logger.hasHandlers", log_logger_hasHandlers},
    {"getChild", "Logger.getChild", log_logger_getChild},
    {"addFilter", "Logger.addFilter", log_addFilter},
    {"removeFilter", "Logger.removeFilter", log_removeFilter},
};

static val log_logger_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    return val_method_bind(log_logger_methods,
                           sizeof log_logger_methods / sizeof log_logger_methods[0], name, self);
}

static const char *const log_logger_attrs[] = {
    "debug", "info", "warning", "error", "exception", "critical", "log", "setLevel",
    "getEffectiveLevel", "isEnabledFor", "addHandler", "removeHandler", "hasHandlers",
    "getChild", "name", "level", "parent", "propagate", "handlers", "disabled", NULL,
};

static const val_type log_logger_type = {
    .name = "Logger",
    .getattr = log_logger_getattr,
    .repr = log_logger_repr,
    .attr_names = log_logger_attrs,
};

/* ---- module functions ---------------------------------------------------------------------- */

BUILTIN_FN(log_getLogger)
{
    val a[1];
    if (!host_args(h, at, "getLogger", "name=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE && a[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "A logger name must be a string");
    return log_get_logger(self, a[0].kind == VAL_STR ? val_as_str(a[0])->s : NULL);
}

BUILTIN_FN(log_basicConfig)
{
    val a[7];
    if (!host_args(h, at, "basicConfig", "*, level=, format=, datefmt=, stream=, handlers=, "
                   "force=, style=", argc, argv, kw, a))
        return val_err();
    val root = val_object_get(self, "root");
    val hs = log_attr(root, "handlers");
    int force = a[5].kind == VAL_MISSING ? 0 : host_truth(h, a[5], at);
    if (force < 0)
        return val_err();
    if (force && hs.kind == VAL_LIST)
        while (val_as_seq(hs)->len)
            val_unref(val_list_remove(hs, val_as_seq(hs)->len - 1));
    if (hs.kind == VAL_LIST && val_as_seq(hs)->len)
        return val_none();
    if (a[6].kind == VAL_STR && strcmp(val_as_str(a[6])->s, "%"))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "logging.basicConfig: only "
                          "style='%%' formats are supported by tritsim");
    if (a[3].kind != VAL_MISSING && a[4].kind != VAL_MISSING)
        return host_raise(h, HOST_EXC_VALUE, at, "ValueError: 'stream' and 'handlers' should "
                          "not be specified together");
    val fmt = a[1].kind == VAL_STR ? val_ref(a[1]) : val_str_cstr(LOG_BASIC_FORMAT);
    val formatter = log_formatter_new(self, fmt, a[2]);
    val_unref(fmt);
    val list = a[4].kind != VAL_MISSING && a[4].kind != VAL_NONE
                   ? host_to_list(h, a[4], at)
                   : val_list_new(1);
    if (list.kind == VAL_ERR) {
        val_unref(formatter);
        return list;
    }
    if (!val_as_seq(list)->len)
        val_list_push(list, log_handler_new(h, self, LOG_H_STREAM, a[3]));
    for (size_t i = 0; i < val_as_seq(list)->len; i++) {
        val hd = val_as_seq(list)->items[i];
        val f = val_object_get(hd, "formatter");
        if (f.kind == VAL_NONE || f.kind == VAL_MISSING)
            val_object_set(hd, "formatter", val_ref(formatter));
        val_list_push(hs, val_ref(hd));
    }
    val_unref(list);
    val_unref(formatter);
    if (a[0].kind != VAL_MISSING) {
        int64_t lv;
        if (!log_level_arg(h, self, a[0], at, &lv))
            return val_err();
        val_object_set(root, "level", val_int(lv));
    }
    return val_none();
}

/* logging.info(...) and the like: the root logger, configured first
 * (basicConfig()) when it has no handler. */
static val log_module_emit(host *h, val mod, int64_t level, bool exc, int argc,
                           const val *argv, const val_kwargs *kw, src_span at)
{
    val root = val_object_get(mod, "root");
    val hs = log_attr(root, "handlers");
    if (hs.kind == VAL_LIST && !val_as_seq(hs)->len) {
        val r = log_basicConfig(h, mod, 0, NULL, NULL, at);
        if (r.kind == VAL_ERR)
            return r;
    }
    return log_emit(h, root, level, exc, argc, argv, kw, at);
}

#define LOG_MODULE_FN(name, level, exc) \
    BUILTIN_FN(log_##name) \
    { \
        return log_module_emit(h, self, level, exc, argc, argv, kw, at); \
    }
LOG_LEVELS(LOG_MODULE_FN)

BUILTIN_FN(log_log)
{
    int64_t lv;
    if (!log_level_first(h, argc, argv, at, &lv))
        return val_err();
    return log_module_emit(h, self, lv, false, argc - 1, argv + 1, kw, at);
}

BUILTIN_FN(log_disable)
{
    val a[1];
    int64_t lv = LOG_CRITICAL;
    if (!host_args(h, at, "disable", "level=", argc, argv, kw, a) ||
        (a[0].kind != VAL_MISSING && !log_level_arg(h, self, a[0], at, &lv)))
        return val_err();
    val_object_set(self, "_disable", val_int(lv));
    return val_none();
}

BUILTIN_FN(log_getLevelName)
{
    if (!builtin_nargs(h, "getLevelName", argc, kw, 1, 1, at))
        return val_err();
    return log_level_name(h, self, argv[0]);
}

BUILTIN_FN(log_addLevelName)
{
    int64_t lv;
    if (!builtin_nargs(h, "addLevelName", argc, kw, 2, 2, at) ||
        !host_to_int(h, argv[0], at, "level", &lv))
        return val_err();
    if (argv[1].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "addLevelName() levelName must be a str");
    val_dict_set(val_object_get(self, "_levels"), val_int(lv), val_ref(argv[1]));
    return val_none();
}

BUILTIN_FN(log_getLevelNamesMapping)
{
    (void)argv;
    if (!builtin_nargs(h, "getLevelNamesMapping", argc, kw, 0, 0, at))
        return val_err();
    val d = val_dict_new();
    size_t pos = 0;
    val k, v;
    while (val_dict_next(val_object_get(self, "_levels"), &pos, &k, &v))
        val_dict_set(d, val_ref(v), val_ref(k));
    return d;
}

BUILTIN_FN(log_captureWarnings)
{
    (void)self;
    if (!builtin_nargs(h, "captureWarnings", argc, kw, 1, 1, at))
        return val_err();
    (void)argv;
    return val_none();
}

/* logging.Logger(name, level=NOTSET): a logger outside the hierarchy
 * (its parent is None); also the type for isinstance. */
BUILTIN_FN(log_Logger)
{
    val a[2];
    int64_t lv = LOG_NOTSET;
    const char *name;
    if (!host_args(h, at, "Logger", "name, level=", argc, argv, kw, a) ||
        !host_to_str(h, a[0], at, "Logger() name", &name) ||
        (a[1].kind != VAL_MISSING && !log_level_arg(h, self, a[1], at, &lv)))
        return val_err();
    return log_logger_new(self, name, lv, val_none());
}

/* A module function whose self is the logging module. */
static void log_def(val mod, const char *qual, val_cfunc fn)
{
    const char *dot = strrchr(qual, '.');
    val_object_set(mod, dot ? dot + 1 : qual, val_builtin_new(qual, fn, val_ref(mod)));
}

void builtin_logging_init(host *h)
{
    val m = val_module_new("logging");
    static const struct { const char *name; int level; } levels[] = {
        {"CRITICAL", LOG_CRITICAL}, {"ERROR", LOG_ERROR}, {"WARNING", LOG_WARNING},
        {"INFO", LOG_INFO}, {"DEBUG", LOG_DEBUG}, {"NOTSET", LOG_NOTSET},
    };
    val names = val_dict_new();
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        val_object_set(m, levels[i].name, val_int(levels[i].level));
        val_dict_set(names, val_int(levels[i].level), val_str_cstr(levels[i].name));
    }
    val_object_set(m, "FATAL", val_int(LOG_CRITICAL));
    val_object_set(m, "WARN", val_int(LOG_WARNING));
    val_object_set(m, "BASIC_FORMAT", val_str_cstr(LOG_BASIC_FORMAT));
    val_object_set(m, "_levels", names);
    val_object_set(m, "_loggers", val_dict_new());
    val_object_set(m, "_disable", val_int(0));
    struct timeval tv;
    gettimeofday(&tv, NULL);
    val_object_set(m, "_start", val_float((double)tv.tv_sec + (double)tv.tv_usec * 1e-6));
    val_object_set(m, "root", log_logger_new(m, "root", LOG_WARNING, val_none()));
    log_def(m, "logging.getLogger", log_getLogger);
    log_def(m, "logging.basicConfig", log_basicConfig);
    log_def(m, "logging.debug", log_debug);
    log_def(m, "logging.info", log_info);
    log_def(m, "logging.warning", log_warning);
    log_def(m, "logging.warn", log_warning);
    log_def(m, "logging.error", log_error);
    log_def(m, "logging.exception", log_exception);
    log_def(m, "logging.critical", log_critical);
    log_def(m, "logging.fatal", log_critical);
    log_def(m, "logging.log", log_log);
    log_def(m, "logging.disable", log_disable);
    log_def(m, "logging.getLevelName", log_getLevelName);
    log_def(m, "logging.addLevelName", log_addLevelName);
    log_def(m, "logging.getLevelNamesMapping", log_getLevelNamesMapping);
    log_def(m, "logging.captureWarnings", log_captureWarnings);
    log_def(m, "logging.StreamHandler", log_StreamHandler);
    log_def(m, "logging.NullHandler", log_NullHandler);
    log_def(m, "logging.Formatter", log_Formatter);
    log_def(m, "logging.Logger", log_Logger);
    val lt = val_object_get(m, "Logger");
    ((val_builtin *)lt.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)lt.u.o)->inst_type = &log_logger_type;
    host_register_module(h, "logging", m);
}
