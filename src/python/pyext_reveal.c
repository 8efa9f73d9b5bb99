/* pyext_reveal.c - the PyTorch tensors whose addresses a program took
 * (python3 -m tritsim), for kernels that make pointers from integers.
 *
 * A kernel may load through an address it read from memory or got as an
 * integer (Triton's grouped GEMM keeps each matrix's data_ptr() in a
 * tensor).  tritsim checks such accesses against the storage the address
 * falls in, so it must know the storages: under tritsim run the tensor
 * layer registers a storage when data_ptr() is called (addrmap.h).  Here
 * the tensors are PyTorch's, so the shim wraps torch.Tensor.data_ptr to
 * call reveal(t), which keeps a weak reference to t with its storage's
 * bounds.  At the launch of a kernel with integer-made pointers
 * (pyext_reveal_begin), the live ones enter the address registry for the
 * launch (on the CPU backend only the CPU tensors: a CUDA tensor's address
 * is none the CPU can read, so a pointer to one is reported as wild), and
 * on a GPU backend each also becomes a backend_buffer of the launch's
 * revealed list, CUDA tensors in place (on_device) and CPU tensors
 * through a device copy, downloaded after the launch. */
#include "pyext.h"

#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "arena.h"

/* One revealed storage. */
typedef struct pyext_revealed {
    PyObject *ref;          /* a weak reference to the tensor */
    uint64_t base, bytes;   /* its storage */
    bool cuda;              /* its storage is in the GPU's memory */
    int tag;                /* its addrmap tag during a CPU launch, else 0 */
    backend_buffer buf;     /* its device side during a GPU launch */
} pyext_revealed;

enum { PYEXT_MAX_REVEALED = 4096 };

static pyext_revealed *pyext_rv[PYEXT_MAX_REVEALED];
static int pyext_nrv;
static bool pyext_rv_gpu;   /* the launch under way is a GPU backend's */

static bool pyext_rv_alive(const pyext_revealed *r)
{
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *t = NULL;
    if (PyWeakref_GetRef(r->ref, &t) < 0) {
        PyErr_Clear();
        return false;
    }
    Py_XDECREF(t);
    return t != NULL;
#else
    PyObject *t = PyWeakref_GetObject(r->ref);     /* borrowed */
    return t && t != Py_None;
#endif
}

/* Drop the entries whose tensor is gone (never during a launch). */
static void pyext_rv_prune(void)
{
    int k = 0;
    for (int i = 0; i < pyext_nrv; i++) {
        pyext_revealed *r = pyext_rv[i];
        if (pyext_rv_alive(r)) {
            pyext_rv[k++] = r;
        } else {
            Py_DECREF(r->ref);
            free(r);
        }
    }
    pyext_nrv = k;
}

PyObject *pyext_reveal(PyObject *mod, PyObject *t)
{
    (void)mod;
    uint64_t base, bytes;
    if (!pyext_tensor_storage(t, &base, &bytes))
        return NULL;
    int cuda = pyext_tensor_is_cuda(t);
    if (cuda < 0)
        return NULL;
    if (bytes == 0)
        Py_RETURN_NONE;
    for (int i = 0; i < pyext_nrv; i++) {
        pyext_revealed *r = pyext_rv[i];
        if (r->base == base && r->cuda == (bool)cuda) {
            if (bytes > r->bytes)
                r->bytes = bytes;
            if (!pyext_rv_alive(r)) {       /* the same storage, seen again */
                PyObject *w = PyWeakref_NewRef(t, NULL);
                if (!w)
                    return NULL;
                Py_SETREF(r->ref, w);
            }
            Py_RETURN_NONE;
        }
    }
    if (pyext_nrv == PYEXT_MAX_REVEALED)
        pyext_rv_prune();
    if (pyext_nrv == PYEXT_MAX_REVEALED) {
        PyErr_Format(PyExc_RuntimeError, "tritsim keeps the storages of at most %d live "
                     "tensors whose data_ptr() the program took: let go of the tensors no "
                     "longer needed (del)", PYEXT_MAX_REVEALED);
        return NULL;
    }
    PyObject *w = PyWeakref_NewRef(t, NULL);
    if (!w)
        return NULL;
    pyext_revealed *r = xcalloc(1, sizeof *r);
    r->ref = w;
    r->base = base;
    r->bytes = bytes;
    r->cuda = cuda;
    pyext_rv[pyext_nrv++] = r;
    Py_RETURN_NONE;
}

PyObject *pyext_set_data_ptr_py(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *cls, *fn;
    if (!PyArg_ParseTuple(args, "OO", &cls, &fn))
        return NULL;
    pyext_set_data_ptr(cls, fn);
    Py_RETURN_NONE;
}

/* The revealed list goes by increasing address (cgen_abi.h: tk_amap). */
static int pyext_rv_cmp(const void *a, const void *b)
{
    uint64_t x = (uint64_t)(uintptr_t)(*(backend_buffer *const *)a)->host;
    uint64_t y = (uint64_t)(uintptr_t)(*(backend_buffer *const *)b)->host;
    return (x > y) - (x < y);
}

bool pyext_reveal_begin(bool host_addresses, backend_buffer ***out, int *n)
{
    *out = NULL;
    *n = 0;
    pyext_rv_prune();
    pyext_rv_gpu = !host_addresses;
    /* the registry, as tritsim run keeps it (the CPU executor, and the
     * test double of a GPU backend, look addresses up there); not a CUDA
     * storage for a backend that runs at host addresses */
    for (int i = 0; i < pyext_nrv; i++) {
        pyext_revealed *r = pyext_rv[i];
        if (!r->cuda || !host_addresses)
            r->tag = addrmap_add((const void *)(uintptr_t)r->base, (size_t)r->bytes, &r->buf);
    }
    if (host_addresses)
        return true;
    if (pyext_nrv > BACKEND_MAX_REVEALED) {
        PyErr_Format(PyExc_RuntimeError, "a GPU backend gives a kernel that makes pointers "
                     "from integers the storage of every live tensor whose data_ptr() the "
                     "program took, at most %d of them, and there are %d: let go of the "
                     "tensors no longer needed (del)", BACKEND_MAX_REVEALED, pyext_nrv);
        return false;
    }
    *out = xcalloc((size_t)pyext_nrv + 1, sizeof **out);
    for (int i = 0; i < pyext_nrv; i++) {
        pyext_revealed *r = pyext_rv[i];
        backend_buffer_over(&r->buf, (void *)(uintptr_t)r->base, (size_t)r->bytes, r->cuda);
        (*out)[(*n)++] = &r->buf;
    }
    qsort(*out, (size_t)*n, sizeof **out, pyext_rv_cmp);
    return true;
}

bool pyext_reveal_end(strbuf *why)
{
    bool ok = true;
    for (int i = 0; i < pyext_nrv; i++) {
        pyext_revealed *r = pyext_rv[i];
        if (r->tag) {
            addrmap_remove(r->tag);
            r->tag = 0;
        }
        if (!pyext_rv_gpu)
            continue;
        ok = backend_buffer_end(&r->buf, ok, why) && ok;
    }
    pyext_rv_gpu = false;
    return ok;
}
