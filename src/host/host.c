/* host.c - the host evaluator: a tree-walking interpreter of the Python
 * subset doc/language.md lists, over the values of val.h.
 *
 * This file has the host itself: making and freeing one, the registry of
 * modules and the `import` statements that read it, running a program
 * file (or a debugger expression), and the "did you mean" suggestions that
 * error messages everywhere use.  The evaluator's other files, one job
 * each (host_impl.h declares what they share):
 *
 *   host_scope.c   scopes, the environments of calls, names
 *   host_expr.c    evaluating expressions
 *   host_stmt.c    running statements: assignment, control flow, try,
 *                  with, def and class
 *   host_call.c    program functions: making them, binding a call's
 *                  arguments, host_call; host_args for C functions
 *   host_ops.c     operators: truth, ==, ordering, `in`, `is`, the
 *                  arithmetic of the built-in kinds; repr, str and format
 *   host_num.c     numbers: int and float arithmetic, conversions
 *   host_access.c  subscripts (items and slices) and attributes
 *   host_iter.c    iteration and iterator objects
 *   classes.c, exceptions.c   classes, and exceptions and raising
 *
 * Errors come back as VAL_ERR (FLOW_ERROR from statements) with the
 * exception pending in h->exc (host.h, exceptions.c). */
#define _POSIX_C_SOURCE 200809L
#include "host_impl.h"
#include "parse.h"
#include "pathname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- suggestions ---------------------------------------------------------- */

/* Levenshtein distance, giving up (returning limit + 1) beyond limit. */
static int host_edit_distance(const char *a, const char *b, int limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return limit + 1;
    if ((la > lb ? la - lb : lb - la) > (size_t)limit)
        return limit + 1;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = prev + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

void host_suggest_init(host_suggest *s, const char *name)
{
    s->name = name;
    s->best = NULL;
    s->best_dist = 0;
}

void host_suggest_add(host_suggest *s, const char *cand)
{
    if (!cand || !strcmp(cand, s->name))
        return;
    /* Close enough: about a third of the name may differ. */
    int limit = (int)strlen(s->name) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    /* Of equally close names, the first in alphabetical order: CPython
     * offers the first of dir()'s sorted list, and the order in which
     * tritsim's tables were filled must not decide. */
    int d = host_edit_distance(s->name, cand, limit);
    if (d <= limit &&
        (!s->best || d < s->best_dist || (d == s->best_dist && strcmp(cand, s->best) < 0))) {
        s->best = cand;
        s->best_dist = d;
    }
}

void host_suggest_dict(host_suggest *s, val d)
{
    if (d.kind != VAL_DICT)
        return;
    size_t pos = 0;
    val k, v;
    while (val_dict_next(d, &pos, &k, &v))
        if (k.kind == VAL_STR)
            host_suggest_add(s, val_as_str(k)->s);
}

/* " (did you mean 'x'?)" or "". */
const char *host_did_you_mean(const host_suggest *s, char *buf, size_t len)
{
    if (!s->best)
        return "";
    snprintf(buf, len, " (did you mean '%s'?)", s->best);
    return buf;
}

/* ---- the host ------------------------------------------------------------------- */

host *host_new(diag_sink *d, const src_file *f)
{
    host *h = xcalloc(1, sizeof *h);
    h->diag = d;
    h->file = f;
    h->threads = 0;
    h->backend = "cpu";
    h->target = HOST_TARGET_H100;
    h->builtins = val_dict_new();
    h->modules = val_dict_new();
    h->source_modules = val_dict_new();
    h->main_globals = val_dict_new();
    h->env = val_none();
    h->class_ns = val_none();
    h->exc = val_none();
    h->handling = val_none();
    h->importing = val_none();
    arena_init(&h->scope_arena);
    class_init(h);
    exc_init(h);
    return h;
}

void host_free(host *h)
{
    if (!h)
        return;
    if (h->kernel_ctx_free)
        h->kernel_ctx_free(h->kernel_ctx);
    val_unref(h->builtins);
    val_unref(h->modules);
    val_unref(h->source_modules);
    val_unref(h->main_globals);
    val_unref(h->exc);
    val_unref(h->handling);
    val_unref(h->importing);
    for (int i = 0; i < HOST_EXC__COUNT; i++)
        val_unref(h->exc_classes[i]);
    arena_free(&h->scope_arena);
    free(h->scope_table);
    while (h->sources) {
        struct host_source *next = h->sources->next;
        src_free(h->sources->file);
        arena_free(&h->sources->a);
        free(h->sources);
        h->sources = next;
    }
    free(h);
}

void host_register_module(host *h, const char *name, val module)
{
    val_dict_set_str(h->modules, name, module);
}

void host_register_source_module(host *h, const char *name, const char *text)
{
    val_dict_set_str(h->source_modules, name, val_str_cstr(text));
}

val host_module(host *h, const char *name)
{
    return val_dict_get_str(h->modules, name);
}

void host_def(val module, const char *qualname, val_cfunc fn)
{
    val_object_set(module, host_short_name(qualname), val_builtin_new(qualname, fn, val_none()));
}

int host_run_file(host *h, const ast_node *module, int argc, char **argv)
{
    return host_run_as(h, module, "__main__", argc, argv);
}

int host_run_as(host *h, const ast_node *module, const char *name, int argc, char **argv)
{
    val g = h->main_globals;
    val_dict_set_str(g, "__name__", val_str_cstr(name));
    /* absolute, as Python 3.9+ makes a script's __file__ */
    char *abs = pathname_abspath(h->file->name);
    val_dict_set_str(g, "__file__", val_str_cstr(abs ? abs : h->file->name));
    free(abs);
    val_dict_set_str(g, "__doc__", val_none());
    val_dict_set_str(g, "__package__", val_none());
    /* sys.modules['__main__'] is a module whose attributes are the globals */
    val main = val_module_new(name);
    val_unref(((val_object *)main.u.o)->attrs);
    ((val_object *)main.u.o)->attrs = val_ref(g);
    host_register_module(h, name, main);
    host_import_setup(h);
    val sys = host_module(h, "sys");
    if (sys.kind == VAL_MODULE) {
        val args = val_list_new((size_t)argc);
        for (int i = 0; i < argc; i++)
            val_list_push(args, val_str_cstr(argv[i]));
        val_object_set(sys, "argv", args);
    }
    host_frame top = {NULL, "<module>", module->span, g, val_none(), NULL, h->file, false};
    h->frame = &top;
    h->env = val_none();
    host_flow fl = host_exec_block(h, &module->u.module.body);
    if (fl == FLOW_BREAK || fl == FLOW_CONTINUE)
        host_error(h, module->span, "'break' or 'continue' outside a loop");
    int status = 0;
    if (host_exc_pending(h)) {
        host_exc_report(h);   /* an exception nobody caught */
        status = h->exit_status;
    }
    gen_shutdown(h);   /* their finally blocks run, as CPython's finalisers do */
    if (h->exiting)
        status = h->exit_status;
    h->frame = NULL;
    val_unref(top.retval);
    fflush(stdout);
    return status;
}

/* The message of the first diagnostic in text (a diag_sink's output):
 * what follows "error: " on its first line, or the whole line. */
static void host_first_diag(const char *text, strbuf *out)
{
    const char *nl = strchr(text, '\n');
    size_t n = nl ? (size_t)(nl - text) : strlen(text);
    const char *e = strstr(text, "error: ");
    if (e && e < text + n) {
        n -= (size_t)(e + 7 - text);
        text = e + 7;
    }
    strbuf_putn(out, text, n);
}

val host_eval_string(host *h, const char *text, size_t len, src_span at)
{
    if (!h->frame)
        return host_error(h, at, "no program is running");
    struct host_source *src = xcalloc(1, sizeof *src);
    src->file = src_from_string("<string>", text, len);
    arena_init(&src->a);
    src->next = h->sources;
    h->sources = src;
    char *msgs = NULL;
    size_t msgs_len = 0;
    FILE *mem = open_memstream(&msgs, &msgs_len);
    if (!mem)
        return host_raise(h, HOST_EXC_MEMORY, at, "out of memory");
    diag_sink d;
    diag_sink_init(&d, mem);
    d.color = false;
    const ast_node *e = parse_expr(src->file, &d, &src->a);
    fclose(mem);
    if (!e || d.nerrors) {
        strbuf b;
        strbuf_init(&b);
        host_first_diag(msgs ? msgs : "", &b);
        free(msgs);
        host_raise(h, HOST_EXC_SYNTAX, at, "SyntaxError: %s (in eval of '%.*s')",
                   strbuf_cstr(&b), (int)len, text);
        strbuf_free(&b);
        return val_err();
    }
    free(msgs);
    val v = host_eval(h, e);
    if (v.kind == VAL_ERR && h->exc.kind == VAL_INSTANCE && !h->exiting)
        return exc_reraise_at(h, host_exc_take(h), at);
    return v;
}

val host_eval_in(host *h, const src_file *f, const ast_node *e)
{
    if (!h->frame)
        return host_error(h, e->span, "no program is running");
    /* A frame with no caller: an error prints no traceback of the program,
     * and is reported at f's positions. */
    host_frame top = {NULL, "<debugger>", e->span, h->frame->globals, val_none(), NULL, f,
                      false};
    host_frame *saved = h->frame;
    const src_file *file = h->file;
    bool exiting = h->exiting;
    int status = h->exit_status;
    h->frame = &top;
    h->file = f;
    val v = host_eval(h, e);
    if (host_exc_pending(h))
        host_exc_report(h);
    h->frame = saved;
    h->file = file;
    h->exiting = exiting;
    h->exit_status = status;
    val_unref(top.retval);
    return v;
}

bool host_site_of(host *h, int up, src_span at, host_site *out)
{
    const host_frame *fr = h->frame;
    out->file = h->file;
    out->at = at;
    out->func = fr ? fr->name : "<module>";
    out->globals = fr ? fr->globals : h->main_globals;
    for (int i = 0; i < up; i++) {
        if (!fr || !fr->prev)
            return false;
        out->at = fr->call_site;
        out->file = fr->prev->file ? fr->prev->file : h->file;
        fr = fr->prev;
        out->func = fr->name;
        out->globals = fr->globals;
    }
    return true;
}
