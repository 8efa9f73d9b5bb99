/* pyext.h - the CPython extension module _tritsim (python3 -m tritsim,
 * doc/python.md): the parts shared by its files.
 *
 * The extension is a top layer beside main.c.  It lets the user's own
 * CPython and PyTorch run the host program while tritsim runs the kernels:
 * a @triton.jit function's source goes through tritsim's parser (front/),
 * specializer (kernel/spec.h) and a backend (backend/backend.h), with
 * arguments that are the user's own objects (torch tensors described by
 * address, dtype and storage, Python numbers, constexprs) instead of
 * tritsim's host values.  No lower layer knows Python.
 *
 *   pyext.c         the module: options, the backend device, the classes
 *                   the Python package registers, KernelError
 *   pyext_kernel.c  the Kernel type: source -> AST, name lookups in the
 *                   function's globals, the specialization cache, a launch
 *   pyext_args.c    Python values as constants and as launch arguments
 *                   (tensors read in place, bounds from their storage)
 */
#ifndef TRITSIM_PYEXT_H
#define TRITSIM_PYEXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>

/* Python 3.8 and 3.9 lack these two. */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *pyext_newref(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#define Py_NewRef(o) pyext_newref((PyObject *)(o))
#endif
#if PY_VERSION_HEX < 0x03090000
#define PyObject_CallOneArg(f, a) PyObject_CallFunctionObjArgs((f), (a), NULL)
#endif

#include "arena.h"
#include "backend.h"
#include "dtype.h"
#include "spec.h"

/* ---- options (python3 -m tritsim's command line, tritsim.configure) ---- */
typedef struct pyext_options {
    char backend[32];       /* --backend: "cpu" (default), "cuda" */
    int threads;            /* --threads: 0 = one per core */
    bool unchecked;         /* --unchecked */
    bool no_break;          /* --no-break */
    char *dump_ir;          /* --dump-ir[=NAME]: NULL off, "" every kernel */
    char *break_spec;       /* --break SPEC (pyext_debug.c), or NULL */
} pyext_options;

extern pyext_options pyext_opts;

/* The exception kernels raise (tritsim.KernelError, a RuntimeError). */
extern PyObject *pyext_kernel_error;

/* The Python classes the package registers (_tritsim.register): tritsim's
 * JITFunction, tl.constexpr and tl.dtype, and the function that makes the
 * Kernel of a plain Python function (which a kernel made under
 * TRITON_INTERPRET=1 may call).  NULL until registered. */
extern PyObject *pyext_jit_class, *pyext_constexpr_class, *pyext_dtype_class,
    *pyext_host_kernel;

/* The run's backend, opened at the first launch with pyext_opts; NULL
 * after setting a Python exception that says why it cannot run. */
backend_dev *pyext_device(void);
/* Is a backend open (options can no longer change)? */
bool pyext_device_open(void);

/* ---- the debugger (pyext_debug.c) ------------------------------------------ */
/* _tritsim.debug_start(script, break_spec) */
PyObject *pyext_debug_start(PyObject *self, PyObject *args);
/* Is there a debugger (kernels are specialized with its tables)? */
bool pyext_debugging(void);
/* Does it want this launch? */
bool pyext_debug_wants(const ir_kernel *ir);
/* Run the launch under the debugger (debug_launch, on the CPU backend). */
bool pyext_debug_launch(backend_dev *dev, const ir_kernel *ir, const backend_launch *L,
                        bool *killed);
/* Free it (the module's end). */
void pyext_debug_end(void);

/* ---- the Kernel type (pyext_kernel.c) ------------------------------------ */
extern PyTypeObject pyext_kernel_type;

/* ---- values (pyext_args.c) ------------------------------------------------ */

/* Interned attribute names used on every launch. */
typedef struct pyext_names {
    PyObject *data_ptr, *dtype, *untyped_storage, *storage, *nbytes, *is_cuda, *cpu,
        *copy_, *value, *id, *kernel_object, *tritsim_name, *name, *element_size, *size, *get_device,
        *data;
} pyext_names;
extern pyext_names pyext_str;
bool pyext_names_init(void);

/* v as a compile-time constant (None, bool, int, float, str, tl.dtype,
 * tl.constexpr, tuples and lists of them), strings copied into a; false
 * (no exception set) when v cannot be one. */
bool pyext_const(PyObject *v, arena *a, spec_const *out);
/* c as a new Python object (dtypes as tl.dtype objects). */
PyObject *pyext_const_object(const spec_const *c);

/* Does v look like a tensor (has data_ptr, as Triton asks)? */
bool pyext_is_tensor(PyObject *v);
/* The dtype of v (a tensor: its .dtype, e.g. torch.float32); DTYPE_INVALID
 * with a Python exception set when it has none tritsim knows. */
dtype pyext_tensor_dtype(PyObject *v);
/* Is v a tensor on a CUDA device (v.is_cuda)?  -1 with an exception set. */
int pyext_tensor_is_cuda(PyObject *v);
/* A CUDA tensor on the GPU that tritsim's GPU backend runs on (device 0 of
 * those the driver shows, as PyTorch's cuda:0)?  False with a Python
 * exception naming the parameter otherwise. */
bool pyext_tensor_on_gpu0(PyObject *v, const char *param);

/* A tensor argument of one launch: where its elements are and how far its
 * storage reaches past the address, for the bounds checks. */
typedef struct pyext_tensor {
    uint64_t addr;          /* data_ptr(): the first element */
    uint64_t numel;         /* elements from addr to the storage's end */
    dtype dt;
    uint64_t base, bytes;   /* the storage: its first byte and its size */
} pyext_tensor;
/* Tensor v's data_ptr(), read without revealing it (pyext_set_data_ptr);
 * false with a Python exception set. */
bool pyext_tensor_addr(PyObject *v, uint64_t *addr);
/* Describe tensor v (on the CPU); false with a Python exception set. */
bool pyext_tensor_of(PyObject *v, dtype dt, const char *param, pyext_tensor *out);
/* The first byte and the size of tensor v's storage; false with a Python
 * exception set. */
bool pyext_tensor_storage(PyObject *v, uint64_t *base, uint64_t *bytes);
/* Launches read tensors' addresses with fn (torch.Tensor's own data_ptr,
 * for instances of cls) instead of the data_ptr method, which the shim
 * wraps to reveal tensors (pyext_reveal.c). */
void pyext_set_data_ptr(PyObject *cls, PyObject *fn);

/* ---- tensors whose data_ptr() the program took (pyext_reveal.c) ---------- */

/* _tritsim.reveal(t): t's storage may be reached by a kernel through an
 * integer address from now on, while t lives. */
PyObject *pyext_reveal(PyObject *mod, PyObject *t);
/* _tritsim.set_allocator(fn): triton.set_allocator's allocator (None: none),
 * called for the scratch of kernels that make tensor descriptors
 * (pyext_kernel.c). */
PyObject *pyext_set_allocator(PyObject *mod, PyObject *fn);
/* _tritsim.set_data_ptr(cls, fn): pyext_set_data_ptr. */
PyObject *pyext_set_data_ptr_py(PyObject *mod, PyObject *args);
/* Before the launch of a kernel that makes pointers from integers: on a
 * backend that runs at host addresses, the storages of revealed CPU
 * tensors enter the address registry (addrmap.h) for the launch; on a GPU
 * backend, *out lists the buffers of every revealed tensor's storage (CUDA
 * tensors as they are, CPU ones to be copied), for backend_launch.revealed.
 * False with a Python exception set. */
bool pyext_reveal_begin(bool host_addresses, backend_buffer ***out, int *n);
/* After the launch (begun or not): the registry entries leave, device
 * copies of CPU tensors are downloaded and freed; false with why. */
bool pyext_reveal_end(strbuf *why);

#endif
