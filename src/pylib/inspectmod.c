/* inspectmod.c - inspect.currentframe(), inspect.getfile(),
 * inspect.getsource() of a module (the program's file, or the text of one
 * of tritsim's modules written in Python) and inspect.signature() with its
 * Signature and Parameter objects.
 *
 * A frame here is what a program reads of the running code: f_lineno
 * (the line of the currentframe() call), f_globals (the program's global
 * variables) and f_code, whose co_filename is the program's file.  As in
 * Python 3.9 and later, the file of the program run is an absolute path
 * (os.path.abspath of the name given on the command line), so
 * inspect.getfile(inspect.currentframe()) gives it wherever tritsim was
 * started from.  A .tk program is one file: every frame, function and
 * kernel in it has that file. */
#include "inspectmod.h"

#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "diag.h"
#include "pathname.h"
#include "val.h"

static const val_type frame_type = {.name = "frame"};
static const val_type code_type = {.name = "code"};

/* The absolute path of source file f, as a new str. */
static val inspect_file(host *h, const src_file *f, src_span at)
{
    char *p = pathname_abspath(f->name);
    if (!p)
        return host_error(h, at, "OSError: cannot read the current directory");
    val s = val_str_cstr(p);
    free(p);
    return s;
}

static val fn_currentframe(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "currentframe", "", argc, argv, kw, p))
        return val_err();
    val file = inspect_file(h, h->file, at);
    if (file.kind == VAL_ERR)
        return file;
    val code = val_object_new(&code_type);
    val_object_set(code, "co_filename", file);
    val frame = val_object_new(&frame_type);
    val_object_set(frame, "f_code", code);
    val_object_set(frame, "f_lineno", val_int(at.line));
    val_object_set(frame, "f_globals", val_ref(h->main_globals));
    return frame;
}

static bool inspect_is(val v, const val_type *t)
{
    return v.kind == VAL_OBJECT && v.u.o->type == t;
}

/* inspect.getfile(v). */
static val inspect_getfile(host *h, val v, src_span at)
{
    if (inspect_is(v, &frame_type))
        v = val_object_get(v, "f_code");
    if (inspect_is(v, &code_type))
        return val_ref(val_object_get(v, "co_filename"));
    if (v.kind == VAL_KERNEL) {
        /* a @triton.jit function: the file of the def it wraps, which is
         * its attribute `fn` (as Triton's JITFunction.fn) */
        val fn = host_getattr(h, v, "fn", at);
        if (fn.kind == VAL_ERR)
            return fn;
        val r = inspect_getfile(h, fn, at);
        val_unref(fn);
        return r;
    }
    if (v.kind == VAL_FUNC)
        return inspect_file(h, ((const val_func *)v.u.o)->file, at);
    if (v.kind == VAL_MODULE) {
        val file = val_object_get(v, "__file__");
        if (file.kind == VAL_STR)   /* one of the program's modules */
            return val_ref(file);
        val name = val_object_get(v, "__name__");
        return host_error(h, at, "TypeError: <module '%s'> is a built-in module (tritsim "
                          "has no source file for it)",
                          name.kind == VAL_STR ? val_as_str(name)->s : "?");
    }
    return host_error(h, at, "TypeError: module, class, method, function, traceback, frame, "
                      "or code object was expected, got %s", val_type_name(v));
}

static val fn_getfile(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "getfile", "object", argc, argv, kw, p))
        return val_err();
    return inspect_getfile(h, p[0], at);
}

/* ---- inspect.signature ----------------------------------------------------
 * A Signature of a def, a lambda or a @triton.jit function: .parameters, a
 * dict of Parameter objects in order, each with .name, .kind (an int:
 * Parameter.POSITIONAL_ONLY .. VAR_KEYWORD, which it compares equal to),
 * .default (Parameter.empty when none) and .annotation (always
 * Parameter.empty: tritsim does not evaluate annotations); str() gives
 * CPython's text of the parameters, annotations left out. */

enum { P_POSONLY, P_NORMAL, P_VARARGS, P_KWONLY, P_KWARGS };

static void param_str(host *h, val self, strbuf *out);

static const val_type empty_type = {.name = "_empty"};
static const val_type param_type = {.name = "Parameter", .str = param_str};

static void param_repr(host *h, val self, strbuf *out)
{
    strbuf_puts(out, "<Parameter \"");
    param_str(h, self, out);
    strbuf_puts(out, "\">");
}

static void sig_str(host *h, val self, strbuf *out);

static void sig_repr(host *h, val self, strbuf *out)
{
    strbuf_puts(out, "<Signature ");
    sig_str(h, self, out);
    strbuf_putc(out, '>');
}

static const val_type param_type_r = {.name = "Parameter", .str = param_str, .repr = param_repr};
static const val_type sig_type = {.name = "Signature", .str = sig_str, .repr = sig_repr};

static void param_str(host *h, val self, strbuf *out)
{
    val name = val_object_get(self, "name"), kind = val_object_get(self, "kind");
    val def = val_object_get(self, "default");
    if (kind.kind == VAL_INT && kind.u.i == P_VARARGS)
        strbuf_putc(out, '*');
    if (kind.kind == VAL_INT && kind.u.i == P_KWARGS)
        strbuf_puts(out, "**");
    if (name.kind == VAL_STR)
        strbuf_puts(out, val_as_str(name)->s);
    if (!inspect_is(def, &empty_type)) {
        strbuf_putc(out, '=');
        val_print_repr(h, def, out);
    }
}

static void sig_str(host *h, val self, strbuf *out)
{
    val ps = val_object_get(self, "parameters");
    strbuf_putc(out, '(');
    size_t pos = 0;
    val key, p;
    bool first = true, star = false;
    int64_t last = -1;
    while (ps.kind == VAL_DICT && val_dict_next(ps, &pos, &key, &p)) {
        val kind = val_object_get(p, "kind");
        int64_t k = kind.kind == VAL_INT ? kind.u.i : P_NORMAL;
        if (last == P_POSONLY && k != P_POSONLY)
            strbuf_puts(out, ", /");
        if (!first)
            strbuf_puts(out, ", ");
        if (k == P_KWONLY && !star)
            strbuf_puts(out, "*, ");
        if (k == P_VARARGS || k == P_KWONLY)
            star = true;
        param_str(h, p, out);
        first = false;
        last = k;
    }
    if (last == P_POSONLY)
        strbuf_puts(out, ", /");
    strbuf_putc(out, ')');
}

static val fn_signature(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val p[1];
    if (!host_args(h, at, "signature", "obj", argc, argv, kw, p))
        return val_err();
    (void)self;
    val obj = p[0], fn = {.kind = VAL_NONE};
    if (obj.kind == VAL_KERNEL) {
        /* a @triton.jit function: the def it wraps (JITFunction.fn) */
        fn = host_getattr(h, obj, "fn", at);
        if (fn.kind == VAL_ERR)
            return fn;
        obj = fn;
    }
    if (obj.kind != VAL_FUNC) {
        val_unref(fn);
        if (obj.kind == VAL_BUILTIN || obj.kind == VAL_CLASS)
            return host_error(h, at, "ValueError: no signature found for %s (tritsim gives "
                              "signatures of the program's own functions only)",
                              val_type_name(obj));
        return host_error(h, at, "TypeError: %s is not a callable object", val_type_name(obj));
    }
    const val_func *f = (const val_func *)obj.u.o;
    const ast_list *ps = f->node->kind == AST_FUNCDEF ? &f->node->u.funcdef.params
                                                      : &f->node->u.lambda.params;
    val empty = val_object_get(host_module(h, "inspect"), "_empty");
    val params = val_dict_new();
    for (int i = 0; i < ps->len && i < f->nparams; i++) {
        const ast_node *a = ps->items[i];
        int kind = a->u.param.kind == AST_PARAM_POSONLY ? P_POSONLY
                   : a->u.param.kind == AST_PARAM_VARARGS ? P_VARARGS
                   : a->u.param.kind == AST_PARAM_KWONLY ? P_KWONLY
                   : a->u.param.kind == AST_PARAM_KWARGS ? P_KWARGS : P_NORMAL;
        val q = val_object_new(&param_type_r);
        val_object_set(q, "name", val_str_cstr(a->u.param.name));
        val_object_set(q, "kind", val_int(kind));
        val_object_set(q, "default", val_ref(f->defaults[i].kind == VAL_MISSING ? empty
                                                                               : f->defaults[i]));
        val_object_set(q, "annotation", val_ref(empty));
        val_object_set(q, "empty", val_ref(empty));
        val_dict_set_str(params, a->u.param.name, q);
    }
    val_unref(fn);
    val sig = val_object_new(&sig_type);
    val_object_set(sig, "parameters", params);
    val_object_set(sig, "return_annotation", val_ref(empty));
    val_object_set(sig, "empty", val_ref(empty));
    return sig;
}

/* inspect.getsource(module): the whole text of the module's file, as
 * CPython gives it; for tritsim's modules written in Python
 * (torch._inductor.config, einops) the text tritsim runs.  Modules written
 * in C have none (CPython's TypeError for a built-in module); functions
 * and classes are not supported. */
static val fn_getsource(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "getsource", "object", argc, argv, kw, p))
        return val_err();
    val v = p[0];
    if (v.kind != VAL_MODULE)
        return host_error(h, at, "NotImplementedError: inspect.getsource() of %s: tritsim "
                          "gives the source of modules only", val_type_name(v));
    val file = val_object_get(v, "__file__");
    val name = val_object_get(v, "__name__");
    const char *mn = name.kind == VAL_STR ? val_as_str(name)->s : "?";
    if (file.kind == VAL_STR) {
        src_file *f = src_read(val_as_str(file)->s);     /* bounded, as a program's source */
        if (!f)
            return host_error(h, at, "OSError: could not get source code (%s)",
                              val_as_str(file)->s);
        val r = val_str_new(f->text, f->len);
        src_free(f);
        return r;
    }
    val text = val_dict_get_str(h->source_modules, mn);
    if (text.kind == VAL_STR)
        return val_ref(text);
    return host_error(h, at, "TypeError: <module '%s' (built-in)> is a built-in module", mn);
}

void inspect_init(host *h)
{
    val m = val_module_new("inspect");
    host_def(m, "inspect.currentframe", fn_currentframe);
    host_def(m, "inspect.getfile", fn_getfile);
    host_def(m, "inspect.getsource", fn_getsource);
    val empty = val_object_new(&empty_type);
    val_object_set(m, "_empty", empty);
    val param = val_object_new(&param_type);
    static const char *const kinds[] = {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD",
                                        "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"};
    for (int k = 0; k < 5; k++)
        val_object_set(param, kinds[k], val_int(k));
    val_object_set(param, "empty", val_ref(empty));
    val_object_set(m, "Parameter", param);
    val sig = val_object_new(&sig_type);
    val_object_set(sig, "empty", val_ref(empty));
    val_object_set(m, "Signature", sig);
    host_def(m, "inspect.signature", fn_signature);
    host_register_module(h, "inspect", m);
}
