/* host_impl.h - what host.c, classes.c and exceptions.c share (not a
 * contract with other modules: those use host.h). */
#ifndef TRITSIM_HOST_IMPL_H
#define TRITSIM_HOST_IMPL_H

#include "host.h"

/* One running call of a program function (or the module, at the top). */
struct host_frame {
    host_frame *prev;
    const char *name;       /* the function running ("<module>" at the top) */
    src_span call_site;     /* where the caller called it */
    val globals;            /* borrowed: the module's variables */
    val retval;             /* set by `return` */
    const val_func *func;   /* the function running, NULL at the top */
};

/* ---- classes.c ---- */

/* A new instance of cls with no attributes (no __init__ run). */
val class_instance_new(val cls);
/* After a class body ran: its functions learn their class (for super()). */
void class_adopt(val cls);
/* cls(args...): a new instance, __init__ run. */
val class_call(host *h, val cls, int argc, const val *argv, const val_kwargs *kw,
               src_span at);

/* ---- exceptions.c ---- */

/* Make the built-in exception classes (h->exc_classes, the builtins). */
void exc_init(host *h);
/* An instance of built-in exception class k with args (a tuple, stolen). */
val exc_new(host *h, host_exc k, val args);
/* raise exc from cause (cause VAL_MISSING when there is no `from`): what
 * host_raise_value does, with __cause__ set. */
val exc_raise_from(host *h, val exc, val cause, src_span at);
/* A traceback object for exc (what __exit__ receives). */
val exc_traceback(val exc);
/* The exception instance's args tuple (borrowed), or an empty tuple's
 * stand-in VAL_MISSING when it has none. */
val exc_args(val exc);

/* ---- host.c ---- */

/* The first argument of the innermost running call of a program function
 * (self, or cls), borrowed; VAL_MISSING when there is none. */
val host_frame_self(host *h);

#endif
