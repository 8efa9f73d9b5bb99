/* tritonmod.c - the modules `triton`, `triton.language` (tl),
 * `triton.language.math`, `triton.language.extra.libdevice`, the
 * lecture's `triton_util` and `pdb` (set_trace), as host values.
 *
 * Kernel functions (tl.load, tl.arange, ...) exist here so that names
 * resolve and `import`s work, but calling one on the host is an error that
 * says it belongs in a @triton.jit function: inside kernels the specializer
 * (spec_tl.c) gives them their meaning.  The list of those names comes from
 * the specializer, so the two sides cannot drift apart.
 *
 * triton.runtime.driver.active describes the GPU tritsim simulates
 * (torch_gpu_info): its target, its torch device, its properties. */
#define _POSIX_C_SOURCE 200809L
#include "tritonmod.h"

#include <stdlib.h>
#include <string.h>

#include "autotune.h"
#include "constexpr.h"
#include "dtype.h"
#include "launch.h"
#include "libtriton.h"
#include "proton.h"
#include "spec.h"
#include "torchmod.h"
#include "tritontesting.h"
#include "tritontools.h"

/* ---- triton ------------------------------------------------------------- */

/* do_not_specialize: parameter names or indices of the def fn, as bits. */
static bool triton_no_spec(host *h, val list, val fn, src_span at, uint64_t *bits)
{
    *bits = 0;
    if (list.kind == VAL_NONE)
        return true;
    val items = host_to_list(h, list, at);
    if (items.kind == VAL_ERR)
        return false;
    const ast_list *ps = &((const val_func *)fn.u.o)->node->u.funcdef.params;
    bool ok = true;
    const val_seq *seq = val_as_seq(items);
    for (size_t i = 0; ok && i < seq->len; i++) {
        val it = seq->items[i];
        int idx = -1;
        if (it.kind == VAL_INT && it.u.i >= 0 && it.u.i < ps->len)
            idx = (int)it.u.i;
        else if (it.kind == VAL_STR)
            for (int j = 0; j < ps->len && idx < 0; j++)
                if (!strcmp(ps->items[j]->u.param.name, val_as_str(it)->s))
                    idx = j;
        if (idx < 0) {
            host_error(h, at, "do_not_specialize names no parameter of %s(): give "
                       "parameter names or indices", ((const val_func *)fn.u.o)->name);
            ok = false;
        } else if (idx < 64) {
            *bits |= (uint64_t)1 << idx;
        }
    }
    val_unref(items);
    return ok;
}

/* @triton.jit, or @triton.jit(do_not_specialize=..., launch_metadata=...,
 * debug=..., ...), which returns the decorator with those two as self. */
static val triton_jit(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                      src_span at)
{
    if (argc == 0) {
        /* self: (do_not_specialize, launch_metadata) */
        val dns = val_none(), md = val_none();
        for (int i = 0; kw && i < kw->n; i++) {
            if (!strcmp(kw->names[i], "do_not_specialize"))
                dns = kw->values[i];
            else if (!strcmp(kw->names[i], "launch_metadata"))
                md = kw->values[i];
        }
        return val_builtin_new("triton.jit", triton_jit,
                               val_tuple_of(2, (val[]){val_ref(dns), val_ref(md)}));
    }
    if (argc != 1 || argv[0].kind != VAL_FUNC || ((const val_func *)argv[0].u.o)->node->kind
                                                     != AST_FUNCDEF)
        return host_error(h, at, "@triton.jit decorates a function defined with 'def'");
    val dns = self.kind == VAL_TUPLE ? val_as_seq(self)->items[0] : val_none();
    val md = self.kind == VAL_TUPLE ? val_as_seq(self)->items[1] : val_none();
    uint64_t no_spec;
    if (!triton_no_spec(h, dns, argv[0], at, &no_spec))
        return val_err();
    return launch_kernel_new(argv[0], no_spec, md);
}

static val triton_cdiv(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                       src_span at)
{
    (void)self;
    val p[2];
    int64_t x, d;
    if (!host_args(h, at, "cdiv", "x, div", argc, argv, kw, p) ||
        !host_to_int(h, p[0], at, "cdiv() argument 1", &x) ||
        !host_to_int(h, p[1], at, "cdiv() argument 2", &d))
        return val_err();
    if (d == 0)
        return host_raise(h, HOST_EXC_ZERO_DIVISION, at,
                          "integer division or modulo by zero in cdiv");
    int64_t t;
    if (__builtin_add_overflow(x, d - 1, &t))
        return host_raise(h, HOST_EXC_OVERFLOW, at, "integer overflow in cdiv");
    return val_int(dtype_pyfloordiv_i64(t, d));
}

static val triton_next_power_of_2(host *h, val self, int argc, const val *argv,
                                  const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    int64_t n;
    if (!host_args(h, at, "next_power_of_2", "n", argc, argv, kw, p) ||
        !host_to_int(h, p[0], at, "next_power_of_2() argument", &n))
        return val_err();
    int64_t r = 1;
    while (r < n && r < ((int64_t)1 << 62))
        r <<= 1;
    return val_int(r);
}

/* A kernel-only function called on the host; self holds its name. */
static val triton_kernel_only(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    (void)argc, (void)argv, (void)kw;
    const char *name = self.kind == VAL_STR ? val_as_str(self)->s : "this function";
    return host_error(h, at, "%s can only be called inside a @triton.jit function", name);
}

/* tl.pointer_type(element_ty, address_space=1) on the host: the dtype
 * value (str: pointer<fp16>), as kernels see it (spec_tl.c's rules). */
static val tl_pointer_type(host *h, val self, int argc, const val *argv,
                           const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[2];
    if (!host_args(h, at, "pointer_type", "element_ty, address_space=", argc, argv, kw, p))
        return val_err();
    if (p[0].kind != VAL_DTYPE)
        return host_error(h, at, "TypeError: element_ty is a %s.", val_type_name(p[0]));
    dtype elem = (dtype)val_dtype_id(p[0]);
    if (dtype_is_ptr(elem))
        return host_error(h, at, "tl.pointer_type: pointers to pointers (%s) are not "
                          "supported by tritsim", dtype_name(elem));
    if (p[1].kind != VAL_MISSING) {
        int64_t space;
        if (!host_to_int(h, p[1], at, "address_space", &space))
            return val_err();
        if (space != 1)
            return host_error(h, at, "tl.pointer_type: address_space %lld is not supported "
                              "by tritsim (kernels address global memory, space 1)",
                              (long long)space);
    }
    return val_tl_dtype(dtype_ptr_to(elem));
}

/* triton.set_allocator(allocator): the function launches call as
 * allocator(size, alignment, stream) for the global scratch of kernels
 * that make tensor descriptors (launch.c). */
static val triton_set_allocator(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "set_allocator", "allocator", argc, argv, kw, p))
        return val_err();
    launch_set_allocator(h, p[0]);
    return val_none();
}

/* ---- triton.runtime.driver: the simulated GPU ---------------------------- */

/* repr of GPUTarget: Triton's dataclass form. */
static void target_repr(host *h, val self, strbuf *out)
{
    strbuf_puts(out, "GPUTarget(backend=");
    val_print_repr(h, val_object_get(self, "backend"), out);
    strbuf_puts(out, ", arch=");
    val_print_repr(h, val_object_get(self, "arch"), out);
    strbuf_puts(out, ", warp_size=");
    val_print_repr(h, val_object_get(self, "warp_size"), out);
    strbuf_putc(out, ')');
}

static const val_type target_type = {
    .name = "GPUTarget",
    .repr = target_repr,
};

/* driver.active.get_current_target(): GPUTarget('cuda', 90, 32), or
 * ('hip', 'gfx942', 64) under --target mi300x. */
static val runtime_get_current_target(host *h, val self, int argc, const val *argv,
                                      const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "get_current_target", "", argc, argv, kw, NULL))
        return val_err();
    const torch_gpu *g = torch_gpu_info(h);
    val t = val_object_new(&target_type);
    val_object_set(t, "backend", val_str_cstr(g->backend));
    val_object_set(t, "arch", g->arch ? val_str_cstr(g->arch)
                                      : val_int(g->major * 10 + g->minor));
    val_object_set(t, "warp_size", val_int(g->warp_size));
    return t;
}

/* driver.active.get_active_torch_device(): torch.device('cuda', 0). */
static val runtime_get_active_torch_device(host *h, val self, int argc, const val *argv,
                                           const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "get_active_torch_device", "", argc, argv, kw, NULL))
        return val_err();
    return torch_device_new(true, 0);
}

/* driver.active.get_current_device(): device 0, the only one. */
static val runtime_get_current_device(host *h, val self, int argc, const val *argv,
                                      const val_kwargs *kw, src_span at)
{
    (void)self;
    if (!host_args(h, at, "get_current_device", "", argc, argv, kw, NULL))
        return val_err();
    return val_int(0);
}

/* driver.active.get_current_stream(device=None): stream handle 0. */
static val runtime_get_current_stream(host *h, val self, int argc, const val *argv,
                                      const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    if (!host_args(h, at, "get_current_stream", "device=", argc, argv, kw, a))
        return val_err();
    return val_int(0);
}

/* driver.active.utils.get_device_properties(device): the dict Triton's
 * CUDA (or HIP) driver returns, with the simulated GPU's values. */
static val runtime_get_device_properties(host *h, val self, int argc, const val *argv,
                                         const val_kwargs *kw, src_span at)
{
    (void)self;
    val a[1];
    int64_t dev;
    if (!host_args(h, at, "get_device_properties", "device", argc, argv, kw, a) ||
        !host_to_int(h, a[0], at, "get_device_properties() argument", &dev))
        return val_err();
    if (dev != 0)
        return host_error(h, at, "tritsim has one device, 0; device %lld does not exist",
                          (long long)dev);
    const torch_gpu *g = torch_gpu_info(h);
    val d = val_dict_new();
    val_dict_set_str(d, "max_shared_mem", val_int(g->max_shared_mem));
    val_dict_set_str(d, "max_num_regs", val_int(g->max_num_regs));
    val_dict_set_str(d, "multiprocessor_count", val_int(g->sm_count));
    val_dict_set_str(d, "warpSize", val_int(g->warp_size));
    val_dict_set_str(d, "sm_clock_rate", val_int(g->sm_clock_khz));
    val_dict_set_str(d, "mem_clock_rate", val_int(g->mem_clock_khz));
    val_dict_set_str(d, "mem_bus_width", val_int(g->mem_bus_width));
    if (g->arch) {
        val_dict_set_str(d, "arch", val_str_cstr(g->arch));
        val_dict_set_str(d, "max_threads_per_sm", val_int(g->max_threads_per_sm));
    }
    return d;
}

static void driver_repr(host *h, val self, strbuf *out)
{
    (void)h, (void)self;
    strbuf_puts(out, "<tritsim's simulated GPU driver>");
}

static const val_type driver_type = {
    .name = "CudaDriver",
    .repr = driver_repr,
};

/* The triton.runtime module: driver.active and its utils. */
static val tritonmod_runtime(host *h)
{
    val runtime = val_module_new("triton.runtime");
    val driver = val_module_new("triton.runtime.driver");
    val active = val_object_new(&driver_type);
    val utils = val_object_new(&driver_type);
    host_def(active, "triton.runtime.driver.active.get_active_torch_device",
             runtime_get_active_torch_device);
    host_def(active, "triton.runtime.driver.active.get_current_target",
             runtime_get_current_target);
    host_def(active, "triton.runtime.driver.active.get_current_device",
             runtime_get_current_device);
    host_def(active, "triton.runtime.driver.active.get_current_stream",
             runtime_get_current_stream);
    host_def(utils, "triton.runtime.driver.active.utils.get_device_properties",
             runtime_get_device_properties);
    val_object_set(active, "utils", utils);
    val_object_set(driver, "active", active);
    val_object_set(runtime, "driver", val_ref(driver));
    host_register_module(h, "triton.runtime.driver", driver);
    return runtime;
}

/* ---- triton_util --------------------------------------------------------- */

static val util_check_tensors_gpu_ready(host *h, val self, int argc, const val *argv,
                                        const val_kwargs *kw, src_span at)
{
    (void)self;
    if (kw && kw->n)
        return host_raise(h, HOST_EXC_TYPE, at,
                          "check_tensors_gpu_ready() takes no keyword arguments");
    bool interpreted = launch_interpreting();
    for (int i = 0; i < argc; i++) {
        if (argv[i].kind != VAL_TENSOR)
            return host_error(h, at, "check_tensors_gpu_ready() takes tensors, not %s",
                              val_type_name(argv[i]));
        val fn = host_getattr(h, argv[i], "is_contiguous", at);
        if (fn.kind == VAL_ERR)
            return fn;
        val r = host_call(h, fn, 0, NULL, NULL, at);
        val_unref(fn);
        if (r.kind == VAL_ERR)
            return r;
        int t = host_truth(h, r, at);
        val_unref(r);
        if (t < 0)
            return val_err();
        if (!t)
            return host_error(h, at, "AssertionError: A tensor is not contiguous");
        if (!interpreted) {
            val c = host_getattr(h, argv[i], "is_cuda", at);
            if (c.kind == VAL_ERR)
                return c;
            t = host_truth(h, c, at);
            val_unref(c);
            if (t < 0)
                return val_err();
            if (!t)
                return host_error(h, at, "AssertionError: A tensor is not on cuda (create "
                                  "it with device='cuda', or set TRITON_INTERPRET=1)");
        }
    }
    return val_none();
}

/* print_if / breakpoint_if outside a kernel: the program id is (0, 0, 0). */
static bool util_host_conds(host *h, val conds, src_span at, bool *match)
{
    const char *text;
    if (!host_to_str(h, conds, at, "the condition string", &text))
        return false;
    ir_print p;
    char err[256];
    if (!spec_pid_conds_parse(text, &p, err, sizeof err)) {
        host_error(h, at, "%s", err);
        return false;
    }
    static const int64_t zero[3] = {0, 0, 0};
    *match = ir_print_pid_passes(&p, zero);
    return true;
}

static val util_print_if(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at)
{
    (void)self;
    val p[2];
    bool match;
    if (!host_args(h, at, "print_if", "txt, conds", argc, argv, kw, p) ||
        !util_host_conds(h, p[1], at, &match))
        return val_err();
    if (match) {
        val s = host_str(h, p[0]);
        if (s.kind == VAL_ERR)
            return s;
        fwrite(val_as_str(s)->s, 1, val_as_str(s)->len, stdout);
        fputc('\n', stdout);
        val_unref(s);
    }
    return val_none();
}

static val util_breakpoint_if(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    bool match;
    if (!host_args(h, at, "breakpoint_if", "conds", argc, argv, kw, p) ||
        !util_host_conds(h, p[0], at, &match))
        return val_err();
    /* tritsim's debugger stops in kernels; outside one (a host call, as
     * the lecture's helpers allow) there is no kernel program to stop. */
    return val_none();
}

/* pdb.set_trace() in host code (and IPython's, which the lecture's
 * notebook imports): tritsim debugs kernels, not the host program, so say
 * so and go on (in a kernel it is a breakpoint). */
static val util_pdb_set_trace(host *h, val self, int argc, const val *argv,
                              const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "set_trace", "", argc, argv, kw, p))
        return val_err();
    diag_report(h->diag, DIAG_WARNING, h->file, at,
                "set_trace() outside a kernel does nothing in tritsim: its debugger "
                "stops in kernels (use it inside a @triton.jit function, or `tritsim debug`)");
    return val_none();
}

/* ---- registration -------------------------------------------------------- */

/* Register in module (named `name`) every kernel function a kernel may
 * call as name.X, taking the X from the triton.language functions. */
static void tritonmod_kernel_names(val module, const char *name)
{
    static const char prefix[] = "triton.language.";
    size_t plen = sizeof prefix - 1;
    for (int i = 0; spec_builtin_name(i); i++) {
        const char *q = spec_builtin_name(i);
        if (strncmp(q, prefix, plen) || strchr(q + plen, '.'))
            continue;
        const char *attr = q + plen;
        char alias[128];
        snprintf(alias, sizeof alias, "%s.%s", name, attr);
        if (!spec_has_builtin(alias))
            continue;
        if (val_object_get(module, attr).kind != VAL_MISSING)
            continue;
        char shown[96];
        if (!strcmp(name, "triton.language"))
            snprintf(shown, sizeof shown, "tl.%s", attr);
        else
            snprintf(shown, sizeof shown, "tl.math.%s", attr);
        val_object_set(module, attr, val_builtin_new(q, triton_kernel_only,
                                                     val_str_cstr(shown)));
    }
}

/* triton.language.extra, its libdevice (the same module as
 * triton.language.extra.cuda.libdevice, as on a CUDA machine) and
 * tl.extra: libdevice's functions, kernel-only like tl's. */
static void tritonmod_extra(host *h, val tl)
{
    static const char prefix[] = "triton.language.extra.libdevice.";
    val ld = val_module_new("triton.language.extra.libdevice");
    for (int i = 0; spec_builtin_name(i); i++) {
        const char *q = spec_builtin_name(i);
        if (strncmp(q, prefix, sizeof prefix - 1))
            continue;
        char shown[96];
        snprintf(shown, sizeof shown, "libdevice.%s", q + sizeof prefix - 1);
        val_object_set(ld, q + sizeof prefix - 1,
                       val_builtin_new(q, triton_kernel_only, val_str_cstr(shown)));
    }
    val cuda = val_module_new("triton.language.extra.cuda");
    val_object_set(cuda, "libdevice", val_ref(ld));
    val extra = val_module_new("triton.language.extra");
    val_object_set(extra, "libdevice", val_ref(ld));
    val_object_set(extra, "cuda", val_ref(cuda));
    val_object_set(tl, "extra", val_ref(extra));
    host_register_module(h, "triton.language.extra", extra);
    host_register_module(h, "triton.language.extra.cuda", cuda);
    host_register_module(h, "triton.language.extra.libdevice", val_ref(ld));
    host_register_module(h, "triton.language.extra.cuda.libdevice", ld);
}

static val tritonmod_language(const char *name)
{
    val tl = val_module_new(name);
    for (int d = 1; d < DTYPE__NSCALAR; d++) {
        const char *attr = dtype_tl_name((dtype)d);
        if (attr)
            val_object_set(tl, attr, val_tl_dtype(d));
    }
    val_object_set(tl, "constexpr", constexpr_class_new());
    host_def(tl, "triton.language.pointer_type", tl_pointer_type);
    return tl;
}

/* triton.runtime.errors: Triton's exception classes, in Python text
 * (host_register_source_module), imported on first use. */
static const char runtime_errors_source[] =
    "\"\"\"triton.runtime.errors for tritsim: Triton's exception classes, for the\n"
    "programs that name them (a tuner that catches OutOfResources to skip a\n"
    "config).  tritsim's own launches report running out of shared memory or\n"
    "registers as their own error, which is not these classes.\"\"\"\n"
    "\n"
    "\n"
    "class TritonError(Exception):\n"
    "    pass\n"
    "\n"
    "\n"
    "class OutOfResources(TritonError):\n"
    "    def __init__(self, required, limit, name):\n"
    "        self.required = required\n"
    "        self.limit = limit\n"
    "        self.name = name\n"
    "        super().__init__(self._text())\n"
    "\n"
    "    def _text(self):\n"
    "        return (\"out of resource: %s, Required: %s, Hardware limit: %s. Reducing block \"\n"
    "                \"sizes or `num_stages` may help.\" % (self.name, self.required, self.limit))\n"
    "\n"
    "    def __str__(self):\n"
    "        return self._text()\n"
    "\n"
    "\n"
    "class PTXASError(TritonError):\n"
    "    pass\n"
    "\n"
    "\n"
    "class InterpreterError(TritonError):\n"
    "    pass\n";

void tritonmod_init(host *h)
{
    val triton = val_module_new("triton");
    h->kernel_device = launch_kernel_device;
    /* the Triton whose language tritsim follows (doc/language.md) */
    val_object_set(triton, "__version__", val_str_cstr("3.6.0"));
    host_def(triton, "triton.jit", triton_jit);
    host_def(triton, "triton.cdiv", triton_cdiv);
    host_def(triton, "triton.next_power_of_2", triton_next_power_of_2);
    host_def(triton, "triton.set_allocator", triton_set_allocator);
    val_object_set(triton, "JITFunction", launch_kernel_type_val());
    /* Config, autotune, heuristics (autotune.c) and triton.testing */
    autotune_init(triton);
    proton_init(h, triton);
    tritontesting_init(h, triton);
    tritontools_init(h, triton);
    libtriton_init(h, triton);

    val tl = tritonmod_language("triton.language");
    tritonmod_kernel_names(tl, "triton.language");
    val math = val_module_new("triton.language.math");
    tritonmod_kernel_names(math, "triton.language.math");
    val_object_set(tl, "math", val_ref(math));
    tritonmod_extra(h, tl);
    val_object_set(triton, "language", val_ref(tl));
    val runtime = tritonmod_runtime(h);
    val_object_set(triton, "runtime", val_ref(runtime));
    val_object_set(runtime, "JITFunction", launch_kernel_type_val());
    host_register_module(h, "triton.runtime", runtime);
    host_register_source_module(h, "triton.runtime.errors", runtime_errors_source);
    host_register_module(h, "triton", triton);
    host_register_module(h, "triton.language", tl);
    host_register_module(h, "triton.language.math", math);
}

void tritonmod_util_init(host *h)
{
    val util = val_module_new("triton_util");
    host_def(util, "triton_util.cdiv", triton_cdiv);
    host_def(util, "triton_util.check_tensors_gpu_ready", util_check_tensors_gpu_ready);
    host_def(util, "triton_util.print_if", util_print_if);
    host_def(util, "triton_util.breakpoint_if", util_breakpoint_if);
    host_register_module(h, "triton_util", util);
}

void tritonmod_pdb_init(host *h)
{
    val pdb = val_module_new("pdb");
    host_def(pdb, "pdb.set_trace", util_pdb_set_trace);
    host_register_module(h, "pdb", pdb);
    /* IPython.core.debugger.set_trace, the notebook's pdb.set_trace */
    val ipython = val_module_new("IPython");
    val core = val_module_new("IPython.core");
    val debugger = val_module_new("IPython.core.debugger");
    host_def(debugger, "IPython.core.debugger.set_trace", util_pdb_set_trace);
    val_object_set(core, "debugger", val_ref(debugger));
    val_object_set(ipython, "core", val_ref(core));
    host_register_module(h, "IPython", ipython);
    host_register_module(h, "IPython.core", core);
    host_register_module(h, "IPython.core.debugger", debugger);
}
