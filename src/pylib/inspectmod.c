/* inspectmod.c - inspect.currentframe() and inspect.getfile().
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

void inspect_init(host *h)
{
    val m = val_module_new("inspect");
    host_def(m, "inspect.currentframe", fn_currentframe);
    host_def(m, "inspect.getfile", fn_getfile);
    host_register_module(h, "inspect", m);
}
