/* torch_info.c - torch.finfo and torch.iinfo, the numeric limits that
 * quantisation kernels and their wrappers ask of a dtype (the float8
 * formats included), and the markers that tell torch.compile to leave a
 * function alone (torch.compiler.disable, torch._dynamo.disable), which do
 * nothing in a program that is not compiled, and torch.library's custom
 * operators (custom_op, triton_op): the function itself, called directly,
 * with the registration methods (register_fake, register_autograd,
 * register_kernel) accepted and not used. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "torch_impl.h"

/* ---- torch.finfo --------------------------------------------------------------- */

typedef struct finfo_row {
    dtype dt;
    const char *name;        /* what finfo.dtype says */
    int bits;
    double eps, max, tiny, resolution;
} finfo_row;

/* The IEEE formats' exact limits, and the float8 ones of PyTorch
 * (e4m3fn: no infinity, 448 the largest; e5m2: IEEE-like, 57344). */
static const finfo_row finfo_rows[] = {
    {DTYPE_FP16, "float16", 16, 0x1p-10, 65504.0, 0x1p-14, 1e-3},
    {DTYPE_BF16, "bfloat16", 16, 0x1p-7, 0x1.fep+127, 0x1p-126, 1e-2},
    {DTYPE_FP32, "float32", 32, 0x1p-23, 0x1.fffffep+127, 0x1p-126, 1e-6},
    {DTYPE_FP64, "float64", 64, 0x1p-52, 0x1.fffffffffffffp+1023, 0x1p-1022, 1e-15},
    {DTYPE_FP8E4NV, "float8_e4m3fn", 8, 0x1p-3, 448.0, 0x1p-6, 1.0},
    {DTYPE_FP8E5, "float8_e5m2", 8, 0x1p-2, 57344.0, 0x1p-14, 1.0},
};

/* A finfo or iinfo object: its attributes, and the row its repr reads. */
typedef struct info_obj {
    val_object o;
    const void *row;
} info_obj;

static val info_new(const val_type *type, const void *row)
{
    info_obj *o = val_obj_new(sizeof *o, VAL_OBJECT, type);
    o->o.attrs = val_dict_new();
    o->row = row;
    return val_of(o);
}

static void finfo_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const finfo_row *r = ((const info_obj *)self.u.o)->row;
    strbuf_printf(out, "finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, "
                  "tiny=%g, dtype=%s)", r->resolution, -r->max, r->max, r->eps, r->tiny,
                  r->tiny, r->name);
}

static const val_type finfo_type = {
    .name = "finfo",
    .repr = finfo_repr,
};

/* torch.finfo(type=None): the default float32 without an argument. */
static val fn_finfo(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "finfo", "type=", argc, argv, kw, a))
        return val_err();
    dtype dt = DTYPE_FP32;
    if (a[0].kind != VAL_MISSING && !torch_dtype_arg(h, a[0], at, "finfo", &dt))
        return val_err();
    for (size_t i = 0; i < sizeof finfo_rows / sizeof *finfo_rows; i++) {
        const finfo_row *r = &finfo_rows[i];
        if (r->dt != dt)
            continue;
        val o = info_new(&finfo_type, r);
        val_object_set(o, "bits", val_int(r->bits));
        val_object_set(o, "eps", val_float(r->eps));
        val_object_set(o, "max", val_float(r->max));
        val_object_set(o, "min", val_float(-r->max));
        val_object_set(o, "tiny", val_float(r->tiny));
        val_object_set(o, "smallest_normal", val_float(r->tiny));
        val_object_set(o, "resolution", val_float(r->resolution));
        val_object_set(o, "dtype", val_str_cstr(r->name));
        return o;
    }
    return host_raise(h, HOST_EXC_TYPE, at, "torch.finfo() requires a floating point input "
                      "type. Use torch.iinfo to handle 'torch.finfo'");
}

/* ---- torch.iinfo --------------------------------------------------------------- */

static void iinfo_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const dtype *dt = ((const info_obj *)self.u.o)->row;
    if (dtype_is_signed(*dt))
        strbuf_printf(out, "iinfo(min=%lld, max=%llu, dtype=%s)",
                      (long long)dtype_int_min(*dt), (unsigned long long)dtype_int_max(*dt),
                      dtype_name(*dt));
    else
        strbuf_printf(out, "iinfo(min=0, max=%llu, dtype=%s)",
                      (unsigned long long)dtype_int_max(*dt), dtype_name(*dt));
}

static const val_type iinfo_type = {
    .name = "iinfo",
    .repr = iinfo_repr,
};

/* The dtypes iinfo answers for, as their own values (the object keeps a
 * pointer to its row); not uint64, whose max is beyond tritsim's ints. */
static const dtype iinfo_types[] = {DTYPE_INT8,  DTYPE_INT16,  DTYPE_INT32, DTYPE_INT64,
                                    DTYPE_UINT8, DTYPE_UINT16, DTYPE_UINT32};

/* torch.iinfo(type) */
static val fn_iinfo(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                    src_span at)
{
    (void)self;
    val a[1];
    dtype dt;
    if (!host_args(h, at, "iinfo", "type", argc, argv, kw, a) ||
        !torch_dtype_arg(h, a[0], at, "iinfo", &dt))
        return val_err();
    for (size_t i = 0; i < sizeof iinfo_types / sizeof *iinfo_types; i++) {
        if (iinfo_types[i] != dt)
            continue;
        val o = info_new(&iinfo_type, &iinfo_types[i]);
        val_object_set(o, "bits", val_int((int64_t)dtype_size(dt) * 8));
        val_object_set(o, "min", val_int(dtype_int_min(dt)));
        val_object_set(o, "max", val_int((int64_t)dtype_int_max(dt)));
        val_object_set(o, "dtype", val_str_cstr(dtype_name(dt)));
        return o;
    }
    if (dt == DTYPE_UINT64)
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "torch.iinfo(torch.uint64) is not "
                          "supported by tritsim (its max is beyond tritsim's integers)");
    return host_raise(h, HOST_EXC_TYPE, at, "torch.iinfo() requires an integer input type. "
                      "Use torch.finfo to handle '%s'", dt == DTYPE_INT1 ? "torch.bool"
                                                                        : dtype_name(dt));
}

/* ---- torch.compiler.disable, torch._dynamo.disable ----------------------------- */

static val disable_apply(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "disable", "fn", argc, argv, kw, a))
        return val_err();
    return val_ref(a[0]);
}

/* disable(fn=None, recursive=True, *, reason=None): fn itself, or a
 * decorator that gives back what it decorates. */
static val fn_disable(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[3];
    if (!host_args(h, at, "disable", "fn=, recursive=, reason=", argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return val_ref(a[0]);
    return val_builtin_new("disable", disable_apply, val_none());
}

/* torch.compile(model=None, *, fullgraph=False, dynamic=None,
 * backend="inductor", mode=None, options=None, disable=False): tritsim
 * compiles nothing, so the model or function itself (as torch.compile's
 * result behaves: called, it runs the code), or a decorator giving back
 * what it decorates. */
static val fn_compile(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    (void)self;
    val a[7];
    if (!host_args(h, at, "compile", "model=, *, fullgraph=, dynamic=, backend=, mode=, "
                   "options=, disable=", argc, argv, kw, a))
        return val_err();
    if (a[4].kind != VAL_MISSING && a[4].kind != VAL_NONE && a[5].kind != VAL_MISSING &&
        a[5].kind != VAL_NONE)
        return host_error(h, at, "Either mode or options can be specified, but both can't "
                          "be specified at the same time.");
    if (a[0].kind != VAL_MISSING && a[0].kind != VAL_NONE)
        return val_ref(a[0]);
    return val_builtin_new("compile", disable_apply, val_none());
}

/* torch._dynamo.mark_static(t, index=None) and mark_dynamic(t, index, *,
 * min=None, max=None): hints to the compiler about a tensor's sizes; with
 * nothing compiled they change nothing and give None. */
static val mark_impl(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                     src_span at, const char *fname, bool dynamic)
{
    (void)self;
    val a[4];
    if (!host_args(h, at, fname, dynamic ? "t, index, *, min=, max=" : "t, index=", argc,
                   argv, kw, a))
        return val_err();
    return val_none();
}

/* torch.compiler.allow_in_graph(fn) / torch._dynamo.allow_in_graph: tells
 * the compiler to keep fn as one node of the graph; fn comes back. */
static val fn_allow_in_graph(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "allow_in_graph", "fn", argc, argv, kw, a))
        return val_err();
    return val_ref(a[0]);
}

HOST_CFUNC_CALLING(fn_mark_static, mark_impl, "mark_static", false)
HOST_CFUNC_CALLING(fn_mark_dynamic, mark_impl, "mark_dynamic", true)

/* ---- torch.library ---------------------------------------------------------------- */

/* What custom_op makes of a function: calling it calls the function. */
typedef struct custom_op {
    val_object o;
    val fn, name;
} custom_op;

static void custom_op_free(val_obj *o)
{
    val_unref(((custom_op *)o)->fn);
    val_unref(((custom_op *)o)->name);
}

static val custom_op_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    return host_call(h, ((custom_op *)self.u.o)->fn, argc, argv, kw, at);
}

/* register_fake(fn) / register_kernel(device)(fn): the function back. */
static val custom_op_passthrough(host *h, val self, int argc, const val *argv,
                                 const val_kwargs *kw, src_span at)
{
    (void)self, (void)kw;
    if (argc != 1)
        return host_raise(h, HOST_EXC_TYPE, at, "takes one function");
    return val_ref(argv[0]);
}

static val custom_op_register_kernel(host *h, val self, int argc, const val *argv,
                                     const val_kwargs *kw, src_span at)
{
    (void)self, (void)kw, (void)argv;
    if (argc < 1 || argc > 2)
        return host_raise(h, HOST_EXC_TYPE, at, "register_kernel(device_types, fn=None)");
    if (argc == 2)
        return val_ref(argv[1]);
    return val_builtin_new("register_kernel", custom_op_passthrough, val_none());
}

/* register_autograd(backward, *, setup_context=None): accepted; the
 * function's own autograd (if any) is what runs. */
static val custom_op_register_autograd(host *h, val self, int argc, const val *argv,
                                       const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "register_autograd", "backward, *, setup_context=", argc, argv, kw,
                   a))
        return val_err();
    return val_none();
}

/* register_torch_dispatch(torch_dispatch_class, fn=None): accepted; tritsim
 * has no dispatch modes (FunctionalTensorMode and the like never run), so
 * the function is never called. */
static val custom_op_register_dispatch(host *h, val self, int argc, const val *argv,
                                       const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[2];
    if (!host_args(h, at, "register_torch_dispatch", "torch_dispatch_class, fn=", argc, argv,
                   kw, a))
        return val_err();
    if (a[1].kind == VAL_MISSING)
        return val_builtin_new("register_torch_dispatch", custom_op_passthrough, val_none());
    return val_none();
}

static val custom_op_getattr(host *h, val self, const char *name, src_span at)
{
    const custom_op *c = (const custom_op *)self.u.o;
    if (!strcmp(name, "register_fake"))
        return val_builtin_new("register_fake", custom_op_passthrough, val_none());
    if (!strcmp(name, "register_kernel"))
        return val_builtin_new("register_kernel", custom_op_register_kernel, val_none());
    if (!strcmp(name, "register_autograd"))
        return val_builtin_new("register_autograd", custom_op_register_autograd, val_none());
    if (!strcmp(name, "register_torch_dispatch"))
        return val_builtin_new("register_torch_dispatch", custom_op_register_dispatch,
                               val_none());
    if (!strcmp(name, "_name"))
        return val_ref(c->name);
    return host_getattr_opt(h, c->fn, name, at);
}

static void custom_op_repr(host *h, val self, strbuf *out)
{
    (void)h;
    const custom_op *c = (const custom_op *)self.u.o;
    strbuf_printf(out, "<torch._library.custom_ops.CustomOpDef(op=%s)>",
                  c->name.kind == VAL_STR ? val_as_str(c->name)->s : "?");
}

static const char *const custom_op_attrs[] = {
    "register_fake", "register_kernel", "register_autograd", "register_torch_dispatch", NULL,
};

static const val_type custom_op_type = {
    .name = "CustomOpDef",
    .getattr = custom_op_getattr,
    .call = custom_op_call,
    .repr = custom_op_repr,
    .free = custom_op_free,
    .attr_names = custom_op_attrs,
};

static val custom_op_make(val name, val fn)
{
    custom_op *c = val_obj_new(sizeof *c, VAL_OBJECT, &custom_op_type);
    c->o.attrs = val_dict_new();
    c->fn = val_ref(fn);
    c->name = val_ref(name);
    return val_of(c);
}

static val custom_op_apply(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                           src_span at)
{
    if (argc != 1 || (kw && kw->n))
        return host_raise(h, HOST_EXC_TYPE, at, "custom_op's decorator takes one function");
    return custom_op_make(self, argv[0]);
}

/* custom_op(name, fn=None, /, *, mutates_args, device_types=None,
 * schema=None) and triton_op(name, fn=None, /, *, mutates_args, schema=None):
 * the operator, or a decorator that makes it. */
static val fn_custom_op(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                        src_span at)
{
    (void)self;
    val a[5];
    if (!host_args(h, at, "custom_op", "name, fn=, *, mutates_args=, device_types=, schema=",
                   argc, argv, kw, a))
        return val_err();
    if (a[0].kind != VAL_STR)
        return host_raise(h, HOST_EXC_TYPE, at, "custom_op() name must be a str "
                          "('namespace::name')");
    if (a[1].kind != VAL_MISSING && a[1].kind != VAL_NONE)
        return custom_op_make(a[0], a[1]);
    return val_builtin_new("custom_op", custom_op_apply, val_ref(a[0]));
}

/* register_fake(op, fn=None) and impl(op, device, fn=None)-like decorators
 * at module level: the function back. */
static val fn_library_register(host *h, val self, int argc, const val *argv,
                               const val_kwargs *kw, src_span at)
{
    (void)self, (void)kw;
    if (argc >= 2 && argv[argc - 1].kind == VAL_FUNC)
        return val_ref(argv[argc - 1]);
    if (argc < 1)
        return host_raise(h, HOST_EXC_TYPE, at, "takes the operator's name");
    return val_builtin_new("register_fake", custom_op_passthrough, val_none());
}

/* torch.library.CustomOpDef: the type of the operators custom_op makes */
static val custom_op_no_ctor(host *h, val self, int argc, const val *argv,
                             const val_kwargs *kw, src_span at)
{
    (void)self, (void)argc, (void)argv, (void)kw;
    return host_raise(h, HOST_EXC_TYPE, at, "make a CustomOpDef with torch.library.custom_op");
}

/* torch._library.triton.set_wrap_triton_enabled(enabled): a context that
 * does nothing, as wrap_triton always gives back the kernel itself here */
static val fn_set_wrap_triton_enabled(host *h, val self, int argc, const val *argv,
                                      const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    bool on;
    if (!host_args(h, at, "set_wrap_triton_enabled", "enabled", argc, argv, kw, a) ||
        !torch_bool_arg(h, a[0], at, "set_wrap_triton_enabled", "enabled", &on))
        return val_err();
    val null = host_getattr(h, host_module(h, "contextlib"), "nullcontext", at);
    if (null.kind == VAL_ERR)
        return null;
    val r = host_call(h, null, 0, NULL, NULL, at);
    val_unref(null);
    return r;
}

/* torch._library.triton and torch._subclasses.functional_tensor, as
 * libraries that wrap Triton kernels in custom operators import them. */
static void torch_info_private(host *h, val torch)
{
    val lib = val_module_new("torch._library");
    val tri = val_module_new("torch._library.triton");
    val_object_set(tri, "set_wrap_triton_enabled",
                   val_builtin_new("torch._library.triton.set_wrap_triton_enabled",
                                   fn_set_wrap_triton_enabled, val_none()));
    val_object_set(lib, "triton", val_ref(tri));
    val_object_set(torch, "_library", val_ref(lib));
    host_register_module(h, "torch._library", lib);
    host_register_module(h, "torch._library.triton", tri);
    val sub = val_module_new("torch._subclasses");
    val ft = val_module_new("torch._subclasses.functional_tensor");
    /* a class by name: tritsim has no dispatch modes to enter */
    val_object_set(ft, "FunctionalTensorMode", class_new("FunctionalTensorMode", val_none(),
                                                         true));
    val_object_set(sub, "functional_tensor", val_ref(ft));
    val_object_set(torch, "_subclasses", val_ref(sub));
    host_register_module(h, "torch._subclasses", sub);
    host_register_module(h, "torch._subclasses.functional_tensor", ft);
}

/* wrap_triton(kernel): the kernel itself. */
static val fn_wrap_triton(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                          src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "wrap_triton", "triton_kernel", argc, argv, kw, a))
        return val_err();
    return val_ref(a[0]);
}

void torch_info_add(host *h, val torch)
{
    val_object_set(torch, "finfo", val_builtin_new("torch.finfo", fn_finfo, val_none()));
    val_object_set(torch, "iinfo", val_builtin_new("torch.iinfo", fn_iinfo, val_none()));
    const char *mods[][2] = {{"compiler", "torch.compiler"}, {"_dynamo", "torch._dynamo"}};
    for (size_t i = 0; i < 2; i++) {
        val m = val_module_new(mods[i][1]);
        val_object_set(m, "disable", val_builtin_new(i ? "torch._dynamo.disable"
                                                       : "torch.compiler.disable",
                                                     fn_disable, val_none()));
        val_object_set(m, "allow_in_graph",
                       val_builtin_new(i ? "torch._dynamo.allow_in_graph"
                                         : "torch.compiler.allow_in_graph",
                                       fn_allow_in_graph, val_none()));
        if (i == 1) {
            host_def(m, "torch._dynamo.mark_static", fn_mark_static);
            host_def(m, "torch._dynamo.mark_dynamic", fn_mark_dynamic);
        }
        val_object_set(torch, mods[i][0], val_ref(m));
        host_register_module(h, mods[i][1], m);
    }
    val_object_set(torch, "compile", val_builtin_new("torch.compile", fn_compile, val_none()));
    val_object_set(torch, "_disable_dynamo", val_builtin_new("torch._disable_dynamo", fn_disable,
                                                             val_none()));
    val lib = val_module_new("torch.library");
    val_object_set(lib, "custom_op", val_builtin_new("torch.library.custom_op", fn_custom_op,
                                                     val_none()));
    val_object_set(lib, "triton_op", val_builtin_new("torch.library.triton_op", fn_custom_op,
                                                     val_none()));
    val_object_set(lib, "register_fake", val_builtin_new("torch.library.register_fake",
                                                         fn_library_register, val_none()));
    val_object_set(lib, "register_kernel", val_builtin_new("torch.library.register_kernel",
                                                           fn_library_register, val_none()));
    val_object_set(lib, "wrap_triton", val_builtin_new("torch.library.wrap_triton",
                                                       fn_wrap_triton, val_none()));
    val cdef = val_builtin_new("torch.library.CustomOpDef", custom_op_no_ctor, val_none());
    ((val_builtin *)cdef.u.o)->inst_kind = VAL_OBJECT;
    ((val_builtin *)cdef.u.o)->inst_type = &custom_op_type;
    val_object_set(lib, "CustomOpDef", cdef);
    val_object_set(torch, "library", val_ref(lib));
    torch_info_private(h, torch);
    host_register_module(h, "torch.library", lib);
}
