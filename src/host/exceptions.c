/* exceptions.c - Python's exceptions on the host: the built-in exception
 * classes (BaseException and its subclasses, VAL_CLASS values that
 * programs catch, raise and derive from), raising them (host_error,
 * host_raise, and host_raise_value for the raise statement), the pending
 * exception, and printing one that nothing caught.
 *
 * An exception is a VAL_INSTANCE of a class derived from BaseException;
 * its args tuple is the attribute "args", and __cause__, __context__ and
 * __suppress_context__ are attributes too.  Raising it records where
 * (val_raise: the span, the file, the chain of calls, and for errors the
 * evaluator reports, the message to print) and leaves it in h->exc.  The
 * message is printed only when the exception reaches the top uncaught
 * (host_exc_report), so that a caught error prints nothing, and what a
 * `finally` block prints comes before it. */
#define _POSIX_C_SOURCE 200809L
#include "host_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HOST_EXC_NONE = -1 };

static const struct {
    const char *name;
    int base;
} exc_table[] = {
#define EXC_ROW(id, name, base) {name, HOST_EXC_##base},
    HOST_EXCS(EXC_ROW)
#undef EXC_ROW
};

#define EXC_FN(name) \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at)

val host_exc_class(host *h, host_exc k)
{
    return h->exc_classes[k];
}

val exc_args(val exc)
{
    if (exc.kind != VAL_INSTANCE)
        return val_missing();
    val a = val_object_get(exc, "args");
    return a.kind == VAL_TUPLE ? a : val_missing();
}

bool host_exc_is(host *h, val v, host_exc k)
{
    return v.kind == VAL_INSTANCE &&
           class_is_subclass(((const val_instance *)v.u.o)->cls, h->exc_classes[k]);
}

/* Set e.args (stolen), and what some classes derive from it: a
 * SystemExit's code, a StopIteration's value. */
static void exc_set_args(host *h, val e, val args)
{
    const val_seq *a = val_as_seq(args);
    if (host_exc_is(h, e, HOST_EXC_SYSTEM_EXIT))
        val_object_set(e, "code", a->len == 0 ? val_none()
                                  : a->len == 1 ? val_ref(a->items[0]) : val_ref(args));
    else if (host_exc_is(h, e, HOST_EXC_STOP_ITERATION))
        val_object_set(e, "value", a->len ? val_ref(a->items[0]) : val_none());
    val_object_set(e, "args", args);
}

val exc_new(host *h, host_exc k, val args)
{
    val e = class_instance_new(h->exc_classes[k]);
    exc_set_args(h, e, args);
    return e;
}

/* ---- BaseException's methods ------------------------------------------------ */

/* The instance a method of BaseException works on: self when bound,
 * else the first argument (BaseException.__init__(self, ...)). */
static bool exc_self(host *h, const char *fname, val *self, int *argc, const val **argv,
                     src_span at)
{
    if (self->kind == VAL_NONE) {
        if (*argc < 1)
            return host_raise(h, HOST_EXC_TYPE, at, "%s() needs an exception as its first "
                              "argument", fname).kind != VAL_ERR;
        *self = (*argv)[0];
        (*argv)++;
        (*argc)--;
    }
    if (self->kind != VAL_INSTANCE ||
        !((val_class *)((val_instance *)self->u.o)->cls.u.o)->exception) {
        host_raise(h, HOST_EXC_TYPE, at, "%s() needs an exception, not a '%s'", fname,
                   val_type_name(*self));
        return false;
    }
    return true;
}

EXC_FN(exc_init_method)
{
    if (!exc_self(h, "BaseException.__init__", &self, &argc, &argv, at))
        return val_err();
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no keyword arguments",
                          val_type_name(self));
    val args = val_tuple_new((size_t)argc);
    for (int i = 0; i < argc; i++)
        val_seq_set(args, (size_t)i, val_ref(argv[i]));
    exc_set_args(h, self, args);
    return val_none();
}

/* str(e): "" without args, str(arg) with one (a KeyError's repr(key)),
 * else the args tuple. */
EXC_FN(exc_str_method)
{
    (void)kw;
    if (!exc_self(h, "BaseException.__str__", &self, &argc, &argv, at))
        return val_err();
    val a = exc_args(self);
    size_t n = a.kind == VAL_TUPLE ? val_as_seq(a)->len : 0;
    if (n == 0)
        return val_str_cstr("");
    if (n > 1)
        return host_repr(h, a);
    val x = val_as_seq(a)->items[0];
    return host_exc_is(h, self, HOST_EXC_KEY) ? host_repr(h, x) : host_str(h, x);
}

/* repr(e): ValueError('x'), MyError(1, 2) */
EXC_FN(exc_repr_method)
{
    (void)kw;
    if (!exc_self(h, "BaseException.__repr__", &self, &argc, &argv, at))
        return val_err();
    strbuf b = {0};
    strbuf_printf(&b, "%s(", val_type_name(self));
    val a = exc_args(self);
    size_t n = a.kind == VAL_TUPLE ? val_as_seq(a)->len : 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            strbuf_puts(&b, ", ");
        val r = host_repr(h, val_as_seq(a)->items[i]);
        if (r.kind == VAL_ERR) {
            strbuf_free(&b);
            return r;
        }
        strbuf_putn(&b, val_as_str(r)->s, val_as_str(r)->len);
        val_unref(r);
    }
    strbuf_putc(&b, ')');
    return val_str_from_buf(&b);
}

/* OSError(errno, strerror[, filename]): e.errno, e.strerror, e.filename
 * set, e.args the first two (as CPython); other arguments as any
 * exception's. */
EXC_FN(exc_oserror_init)
{
    if (!exc_self(h, "OSError.__init__", &self, &argc, &argv, at))
        return val_err();
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at, "%s() takes no keyword arguments",
                          val_type_name(self));
    int nargs = argc >= 3 && argc <= 5 ? 2 : argc;
    val args = val_tuple_new((size_t)nargs);
    for (int i = 0; i < nargs; i++)
        val_seq_set(args, (size_t)i, val_ref(argv[i]));
    exc_set_args(h, self, args);
    if (argc >= 2 && argc <= 5) {
        if (!host_setattr(h, self, "errno", argv[0], at) ||
            !host_setattr(h, self, "strerror", argv[1], at) ||
            (argc >= 3 && !host_setattr(h, self, "filename", argv[2], at)))
            return val_err();
    }
    return val_none();
}

/* str(e) of an OSError with errno and strerror: "[Errno 2] No such file
 * or directory: 'x'". */
EXC_FN(exc_oserror_str)
{
    (void)kw;
    if (!exc_self(h, "OSError.__str__", &self, &argc, &argv, at))
        return val_err();
    val no = host_getattr_opt(h, self, "errno", at), se = host_getattr_opt(h, self,
                                                                           "strerror", at);
    val fn = host_getattr_opt(h, self, "filename", at);
    val r;
    if (no.kind == VAL_MISSING || no.kind == VAL_NONE || se.kind == VAL_MISSING ||
        se.kind == VAL_NONE) {
        val none[1] = {self};
        r = exc_str_method(h, val_none(), 1, none, NULL, at);
    } else {
        strbuf b = {0};
        val ns = host_str(h, no), ss = host_str(h, se);
        strbuf_printf(&b, "[Errno %s] %s", ns.kind == VAL_STR ? val_as_str(ns)->s : "?",
                      ss.kind == VAL_STR ? val_as_str(ss)->s : "?");
        val_unref(ns);
        val_unref(ss);
        if (fn.kind != VAL_MISSING && fn.kind != VAL_NONE) {
            val fr = host_repr(h, fn);
            strbuf_printf(&b, ": %s", fr.kind == VAL_STR ? val_as_str(fr)->s : "?");
            val_unref(fr);
        }
        r = val_str_from_buf(&b);
    }
    val_unref(no);
    val_unref(se);
    val_unref(fn);
    return r;
}

/* e.with_traceback(tb): tritsim keeps no traceback objects; gives e. */
EXC_FN(exc_with_traceback)
{
    (void)kw;
    if (!exc_self(h, "BaseException.with_traceback", &self, &argc, &argv, at))
        return val_err();
    return val_ref(self);
}

void exc_init(host *h)
{
    for (int k = 0; k < HOST_EXC__COUNT; k++) {
        val base = exc_table[k].base == HOST_EXC_NONE ? val_none()
                                                      : h->exc_classes[exc_table[k].base];
        val c = class_new(exc_table[k].name, base, true);
        val_class *vc = (val_class *)c.u.o;
        vc->exception = true;
        vc->exc_kind = k;
        val_object_set(c, "__module__", val_str_cstr("builtins"));
        if (k == HOST_EXC_BASE) {
            val_object_set(c, "__init__", val_builtin_new("BaseException.__init__",
                                                          exc_init_method, val_none()));
            val_object_set(c, "__str__", val_builtin_new("BaseException.__str__",
                                                         exc_str_method, val_none()));
            val_object_set(c, "__repr__", val_builtin_new("BaseException.__repr__",
                                                          exc_repr_method, val_none()));
            val_object_set(c, "with_traceback",
                           val_builtin_new("BaseException.with_traceback", exc_with_traceback,
                                           val_none()));
            val_object_set(c, "__cause__", val_none());
            val_object_set(c, "__context__", val_none());
            val_object_set(c, "__suppress_context__", val_bool(false));
            val_object_set(c, "__traceback__", val_none());
        }
        h->exc_classes[k] = c;
        val_dict_set_str(h->builtins, exc_table[k].name, val_ref(c));
    }
    val os = h->exc_classes[HOST_EXC_OS];
    val_object_set(os, "__init__", val_builtin_new("OSError.__init__", exc_oserror_init,
                                                   val_none()));
    val_object_set(os, "__str__", val_builtin_new("OSError.__str__", exc_oserror_str,
                                                  val_none()));
    val_object_set(os, "errno", val_none());
    val_object_set(os, "strerror", val_none());
    val_object_set(os, "filename", val_none());
    /* ImportError's name and path: None unless the import system sets them */
    val_object_set(h->exc_classes[HOST_EXC_IMPORT], "name", val_none());
    val_object_set(h->exc_classes[HOST_EXC_IMPORT], "path", val_none());
}

/* ---- traceback objects ---------------------------------------------------------- */

/* What __exit__ receives as its traceback: tritsim keeps no frames of
 * its own, only the line of the raise (tb_lineno). */
static void exc_tb_repr(host *h, val self, strbuf *out)
{
    (void)h;
    strbuf_printf(out, "<traceback object at %p>", (void *)self.u.o);
}

static const val_type exc_tb_type = {
    .name = "traceback",
    .repr = exc_tb_repr,
};

val exc_traceback(val exc)
{
    val tb = val_object_new(&exc_tb_type);
    const val_raise *r = exc.kind == VAL_INSTANCE ? ((const val_instance *)exc.u.o)->raised : NULL;
    val_object_set(tb, "tb_lineno", r ? val_int(r->at.line) : val_none());
    return tb;
}

/* ---- raising ------------------------------------------------------------------ */

/* The place of a raise at `at` now: the file and the chain of calls. */
static val_raise *exc_site(host *h, src_span at, char *message)
{
    int n = 0;
    for (const host_frame *f = h->frame; f && f->prev; f = f->prev)
        n++;
    val_raise *r = xmalloc(sizeof *r + (size_t)n * sizeof r->frames[0]);
    r->message = message;
    r->at = at;
    r->file = h->file;
    r->nframes = n;
    int i = 0;
    for (const host_frame *f = h->frame; f && f->prev; f = f->prev, i++) {
        r->frames[i].name = f->name;
        r->frames[i].call_site = f->call_site;
        r->frames[i].file = f->prev->file;
        r->frames[i].import = f->import;
    }
    return r;
}

/* Make e (stolen) the pending exception, raised at `at` with message (owned,
 * may be NULL) unless it was raised before. */
static val exc_throw(host *h, val e, src_span at, char *message)
{
    val_instance *in = (val_instance *)e.u.o;
    if (!in->raised)
        in->raised = exc_site(h, at, message);
    else
        free(message);
    /* raised while handling another: that one is its context */
    if (h->handling.kind != VAL_NONE && h->handling.u.o != e.u.o &&
        val_object_get(e, "__context__").kind == VAL_MISSING)
        val_object_set(e, "__context__", val_ref(h->handling));
    h->exc = e;
    return val_err();
}

/* The length of the word a message starts with when ": " follows it (as
 * in "ValueError: math domain error"), else 0. */
static size_t exc_word(const char *msg)
{
    size_t n = strspn(msg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
    return n > 0 && msg[n] == ':' && msg[n + 1] == ' ' ? n : 0;
}

static val exc_vraise_args(host *h, host_exc k, val args, src_span at, const char *fmt,
                           va_list ap)
{
    if (h->exiting || host_exc_pending(h)) {
        val_unref(args);
        return val_err();
    }
    strbuf b;
    strbuf_init(&b);
    strbuf_vprintf(&b, fmt, ap);
    size_t len = b.len;
    char *msg = strbuf_detach(&b);
    if (args.kind == VAL_MISSING) {
        /* "ValueError: math domain error" has args ('math domain error',) */
        size_t skip = 0, n = exc_word(msg);
        if (n > 5 && (!strncmp(msg + n - 5, "Error", 5) || !strncmp(msg, exc_table[k].name, n)))
            skip = n + 2;
        val m = val_str_new(msg + skip, len - skip);
        args = val_tuple_of(1, &m);
    }
    return exc_throw(h, exc_new(h, k, args), at, msg);
}

val host_vraise(host *h, host_exc k, src_span at, const char *fmt, va_list ap)
{
    return exc_vraise_args(h, k, val_missing(), at, fmt, ap);
}

val host_raise(host *h, host_exc k, src_span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    exc_vraise_args(h, k, val_missing(), at, fmt, ap);
    va_end(ap);
    return val_err();
}

val host_raise_args(host *h, host_exc k, val args, src_span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    exc_vraise_args(h, k, args, at, fmt, ap);
    va_end(ap);
    return val_err();
}

/* A message that starts with a built-in class's name ("ValueError: ...",
 * as the modules write Python's messages) raises that class; any other
 * is a RuntimeError, as most of torch's errors are. */
static host_exc exc_class_of_message(const char *fmt)
{
    size_t n = exc_word(fmt);
    if (n == 0)
        return HOST_EXC_RUNTIME;
    for (int k = 0; k < HOST_EXC__COUNT; k++)
        if (strlen(exc_table[k].name) == n && !strncmp(fmt, exc_table[k].name, n))
            return (host_exc)k;
    return HOST_EXC_RUNTIME;
}

val host_verror(host *h, src_span at, const char *fmt, va_list ap)
{
    return exc_vraise_args(h, exc_class_of_message(fmt), val_missing(), at, fmt, ap);
}

val host_error(host *h, src_span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    exc_vraise_args(h, exc_class_of_message(fmt), val_missing(), at, fmt, ap);
    va_end(ap);
    return val_err();
}

static bool exc_is_exception(val v)
{
    return (v.kind == VAL_CLASS && ((const val_class *)v.u.o)->exception) ||
           (v.kind == VAL_INSTANCE &&
            ((const val_class *)((const val_instance *)v.u.o)->cls.u.o)->exception);
}

/* An instance to raise for exc: itself, or a class called without
 * arguments.  A new reference, or VAL_ERR. */
static val exc_instance(host *h, val exc, src_span at, const char *what)
{
    if (!exc_is_exception(exc))
        return host_raise(h, HOST_EXC_TYPE, at, "%s must derive from BaseException "
                          "(raise ValueError('...'), not a '%s')", what, val_type_name(exc));
    if (exc.kind == VAL_INSTANCE)
        return val_ref(exc);
    val e = class_call(h, exc, 0, NULL, NULL, at);
    if (e.kind != VAL_ERR && !exc_is_exception(e)) {
        val_unref(e);
        return host_raise(h, HOST_EXC_TYPE, at, "calling %s did not make an exception",
                          ((const val_class *)exc.u.o)->name);
    }
    return e;
}

val exc_raise_from(host *h, val exc, val cause, src_span at)
{
    if (h->exiting || host_exc_pending(h))
        return val_err();
    val e = exc_instance(h, exc, at, "exceptions");
    if (e.kind == VAL_ERR)
        return e;
    if (cause.kind != VAL_MISSING) {
        val c = cause.kind == VAL_NONE ? val_none()
                                       : exc_instance(h, cause, at, "exception causes");
        if (c.kind == VAL_ERR) {
            val_unref(e);
            return c;
        }
        val_object_set(e, "__cause__", c);
        val_object_set(e, "__suppress_context__", val_bool(true));
    }
    return exc_throw(h, e, at, NULL);
}

val exc_reraise_at(host *h, val exc, src_span at)
{
    val_instance *in = (val_instance *)exc.u.o;
    if (in->raised) {
        free(in->raised->message);
        free(in->raised);
        in->raised = NULL;
    }
    return exc_throw(h, exc, at, NULL);
}

val host_raise_value(host *h, val exc, src_span at)
{
    return exc_raise_from(h, exc, val_missing(), at);
}

val host_exc_take(host *h)
{
    val e = h->exc;
    h->exc = val_none();
    return e;
}

void host_exc_restore(host *h, val exc)
{
    val_unref(h->exc);
    h->exc = exc;
}

/* ---- printing ------------------------------------------------------------------ */

static bool exc_same_site(const val_raise_frame *a, const val_raise_frame *b)
{
    return a->call_site.off == b->call_site.off &&
           a->call_site.end_off == b->call_site.end_off && a->file == b->file &&
           !strcmp(a->name, b->name);
}

/* The notes of a chain of calls, innermost first: runs of the same call
 * (recursion) print once with a count; of the rest, the 10 innermost and
 * the 10 outermost calls are shown. */
static void exc_print_frames(host *h, const val_raise_frame *fr, int n)
{
    int groups = 0;
    for (int i = 0; i < n;) {
        while (i + 1 < n && exc_same_site(&fr[i], &fr[i + 1]))
            i++;
        groups++;
        i++;
    }
    int g = 0;
    for (int i = 0; i < n;) {
        int last = i, repeats = 0;
        while (last + 1 < n && exc_same_site(&fr[last], &fr[last + 1])) {
            last++;
            repeats++;
        }
        if (groups > 20 && g >= 10 && g < groups - 10) {
            if (g == 10)
                fprintf(h->diag->out, "  ... %d more calls ...\n", groups - 20);
        } else {
            if (fr[i].import)
                diag_report(h->diag, DIAG_NOTE, fr[i].file, fr[i].call_site,
                            "in module '%s', imported from here", fr[i].name);
            else
                diag_report(h->diag, DIAG_NOTE, fr[i].file, fr[i].call_site,
                            "'%s' called from here", fr[i].name);
            if (repeats)
                fprintf(h->diag->out, "  [the call above repeated %d more time%s]\n", repeats,
                        repeats == 1 ? "" : "s");
        }
        g++;
        i = last + 1;
    }
}

void host_traceback(host *h)
{
    val_raise *r = exc_site(h, (src_span){0}, NULL);
    exc_print_frames(h, r->frames, r->nframes);
    free(r);
}

val host_fail(host *h)
{
    host_traceback(h);
    fflush(h->diag->out);
    h->exiting = true;
    h->exit_status = 1;
    return val_err();
}

/* What an uncaught exception prints: the message of an error the
 * evaluator raised, else "Type: str(e)" ("Type" when str(e) is empty). */
static char *exc_text(host *h, val e)
{
    const val_raise *r = ((const val_instance *)e.u.o)->raised;
    if (r && r->message) {
        size_t n = strlen(r->message) + 1;
        return memcpy(xmalloc(n), r->message, n);
    }
    strbuf b = {0};
    class_print_name(((const val_instance *)e.u.o)->cls, &b);
    val s = host_str(h, e);
    if (s.kind == VAL_ERR) {
        val_unref(host_exc_take(h));
        strbuf_puts(&b, ": <str() of the exception failed>");
    } else if (val_as_str(s)->len) {
        strbuf_puts(&b, ": ");
        strbuf_putn(&b, val_as_str(s)->s, val_as_str(s)->len);
    }
    val_unref(s);
    return strbuf_detach(&b);
}

/* A cause or context of the exception shown, as a note at its place. */
static void exc_print_chained(host *h, val e, int depth)
{
    if (depth >= 4 || e.kind != VAL_INSTANCE)
        return;
    val cause = val_object_get(e, "__cause__");
    val context = val_object_get(e, "__context__");
    val sup = val_object_get(e, "__suppress_context__");
    bool suppress = sup.kind == VAL_BOOL && sup.u.b;
    val next;
    const char *how;
    if (cause.kind == VAL_INSTANCE) {
        next = cause;
        how = "the direct cause of the error above";
    } else if (!suppress && context.kind == VAL_INSTANCE) {
        next = context;
        how = "the error above happened while handling this one";
    } else {
        return;
    }
    const val_raise *r = ((const val_instance *)next.u.o)->raised;
    char *text = exc_text(h, next);
    if (r)
        diag_report(h->diag, DIAG_NOTE, r->file, r->at, "%s: %s", how, text);
    else
        fprintf(h->diag->out, "note: %s: %s\n", how, text);
    free(text);
    exc_print_chained(h, next, depth + 1);
}

void host_exc_report(host *h)
{
    val e = host_exc_take(h);
    if (e.kind != VAL_INSTANCE)
        return;
    fflush(stdout);
    if (host_exc_is(h, e, HOST_EXC_SYSTEM_EXIT)) {
        /* sys.exit(code): an int is the status, None 0, anything else is
         * printed to stderr and the status is 1. */
        val code = val_object_get(e, "code");
        int status = 0;
        if (code.kind == VAL_INT || code.kind == VAL_BOOL) {
            status = (int)((code.kind == VAL_BOOL ? code.u.b : code.u.i) & 0xFF);
        } else if (code.kind != VAL_NONE && code.kind != VAL_MISSING) {
            val s = host_str(h, code);
            if (s.kind == VAL_STR)
                fprintf(stderr, "%s\n", val_as_str(s)->s);
            else
                val_unref(host_exc_take(h));
            val_unref(s);
            status = 1;
        }
        fflush(stderr);
        h->exit_status = status;
        val_unref(e);
        return;
    }
    char *text = exc_text(h, e);
    const val_raise *r = ((const val_instance *)e.u.o)->raised;
    if (r) {
        diag_report(h->diag, DIAG_ERROR, r->file, r->at, "%s", text);
        exc_print_frames(h, r->frames, r->nframes);
    } else {
        fprintf(h->diag->out, "error: %s\n", text);
    }
    free(text);
    exc_print_chained(h, e, 0);
    fflush(h->diag->out);
    h->exit_status = 1;
    val_unref(e);
}
