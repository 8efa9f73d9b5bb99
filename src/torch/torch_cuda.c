/* torch_cuda.c - what of torch.cuda waits for and times the run's kernels:
 * torch.cuda.synchronize() and torch.cuda.Event.  Both reach the backend
 * the program's kernels run on through host.kernel_device (the launcher
 * opens it, launch.c); the other torch.cuda functions (device queries,
 * streams) are torchmod.c's.
 *
 * An Event with enable_timing=True times on the device's clock when the
 * backend has one (backend.h's timer API), else on the host's: the CPU's
 * launches have ended when they return, so the host clock measures them.
 * Recording opens the backend if no kernel has run yet, so that both ends
 * of a measurement are on the same clock. */
#include <string.h>

#include "backend.h"
#include "torch_impl.h"

/* ---- torch.cuda.synchronize ------------------------------------------------- */

/* Wait for the launches so far: false after reporting a failure that only
 * now came to light. */
static bool cuda_sync(host *h)
{
    backend_dev *d = h->kernel_device ? h->kernel_device(h, false, (src_span){0}) : NULL;
    return !d || backend_sync(d, h->diag);
}

/* torch.cuda.synchronize(device=None) */
static val fn_synchronize(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "synchronize", "device=", argc, argv, kw, a))
        return val_err();
    if (!cuda_sync(h))
        return host_fail(h);
    return val_none();
}

/* ---- torch.cuda.Event --------------------------------------------------------- */

typedef struct cuda_event {
    val_obj h;
    bool timing;            /* enable_timing=True */
    backend_dev *dev;       /* the backend stamp was made for (NULL: host clock) */
    backend_stamp *stamp;   /* made at the first record() */
} cuda_event;

static void event_free(val_obj *o)
{
    backend_timer_free(((cuda_event *)o)->stamp);
}

static cuda_event *event_of(val self)
{
    return (cuda_event *)self.u.o;
}

/* event.record(stream=None): the point after every launch so far. */
static val event_record(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    val a[1];
    if (!host_args(h, at, "record", "stream=", argc, argv, kw, a))
        return val_err();
    cuda_event *e = event_of(self);
    backend_dev *d = h->kernel_device ? h->kernel_device(h, true, at) : NULL;
    if (h->kernel_device && !d)
        return val_err();       /* the backend could not be opened: reported */
    if (!e->stamp || e->dev != d) {
        backend_timer_free(e->stamp);
        e->stamp = backend_timer_new(e->timing ? d : NULL);
        e->dev = d;
    }
    strbuf why = {0};
    bool ok = backend_timer_record(e->stamp, h->diag, &why);
    val r = ok ? val_none()
               : why.len ? host_error(h, at, "Event.record(): %s", strbuf_cstr(&why))
                         : host_fail(h);
    strbuf_free(&why);
    return r;
}

/* event.synchronize() / event.wait(stream=None) / event.query(): there is
 * one queue, so waiting for the event is waiting for every launch. */
static val event_synchronize(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                             src_span at)
{
    (void)self;
    if (!host_args(h, at, "synchronize", "", argc, argv, kw, NULL))
        return val_err();
    return cuda_sync(h) ? val_none() : host_fail(h);
}

static val event_wait(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "wait", "stream=", argc, argv, kw, a))
        return val_err();
    return val_none();
}

static val event_query(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    if (!host_args(h, at, "query", "", argc, argv, kw, NULL))
        return val_err();
    return cuda_sync(h) ? val_bool(true) : host_fail(h);
}

/* start.elapsed_time(end): milliseconds from start's record() to end's, as
 * a float, after waiting for end. */
static val event_elapsed_time(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    val a[1];
    if (!host_args(h, at, "elapsed_time", "end_event", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_OBJECT || a[0].u.o->type != self.u.o->type)
        return host_raise(h, HOST_EXC_TYPE, at, "elapsed_time(): argument 'end_event' must "
                          "be torch.cuda.Event, not %s", val_type_name(a[0]));
    cuda_event *s = event_of(self), *e = event_of(a[0]);
    if (!s->timing || !e->timing)
        return host_error(h, at, "Both events must be created with argument "
                          "'enable_timing=True'.");
    if (!s->stamp || !e->stamp || !backend_timer_recorded(s->stamp) ||
        !backend_timer_recorded(e->stamp))
        return host_error(h, at, "Both events must be recorded before calculating elapsed "
                          "time.");
    double ms;
    strbuf why = {0};
    bool ok = backend_timer_elapsed_ms(s->stamp, e->stamp, &ms, h->diag, &why);
    val r = ok ? val_float(ms)
               : why.len ? host_error(h, at, "elapsed_time(): %s", strbuf_cstr(&why))
                         : host_fail(h);
    strbuf_free(&why);
    return r;
}

static val event_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    static const val_method methods[] = {
        {"record", "Event.record", event_record},
        {"synchronize", "Event.synchronize", event_synchronize},
        {"wait", "Event.wait", event_wait},
        {"query", "Event.query", event_query},
        {"elapsed_time", "Event.elapsed_time", event_elapsed_time},
    };
    return val_method_bind(methods, sizeof methods / sizeof methods[0], name, self);
}

static void event_repr(host *h, val self, strbuf *out)
{
    (void)h, (void)self;
    strbuf_puts(out, "<torch.cuda.Event>");
}

static const char *const event_attrs[] = {
    "record", "synchronize", "wait", "query", "elapsed_time", NULL,
};

static const val_type event_type = {
    .name = "Event",
    .getattr = event_getattr,
    .repr = event_repr,
    .free = event_free,
    .attr_names = event_attrs,
};

/* torch.cuda.Event(enable_timing=False, blocking=False, interprocess=False) */
static val fn_event(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "Event", "enable_timing=, blocking=, interprocess=", argc, argv, kw,
                   a))
        return val_err();
    int timing = a[0].kind == VAL_MISSING ? 0 : host_truth(h, a[0], at);
    if (timing < 0)
        return val_err();
    cuda_event *e = val_obj_new(sizeof *e, VAL_OBJECT, &event_type);
    e->timing = timing;
    return val_of(e);
}

void torch_cuda_add(val cuda)
{
    val_object_set(cuda, "synchronize",
                   val_builtin_new("torch.cuda.synchronize", fn_synchronize, val_none()));
    val_object_set(cuda, "Event", val_builtin_new("torch.cuda.Event", fn_event, val_none()));
}
