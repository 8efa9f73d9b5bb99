/* libtriton.c - triton._C.libtriton, the part of Triton's native library
 * that tutorials call from Python: nvidia.cublas.CublasLt, the cuBLASLt
 * wrapper Triton's persistent-matmul tutorial compares with.  Here
 * CublasLt(workspace).matmul(a, b, c) computes c = a @ b.T with the host
 * tensor library (the product torch.matmul computes: float32 sums, float16
 * and bfloat16 rounded at the end), so the tutorial's "cuBLAS" line is a
 * reference of the same math, not NVIDIA's library. */
#include "libtriton.h"

#include <string.h>

#include "tensor.h"

typedef struct libtriton_cublas {
    val_object o;
    val workspace;
} libtriton_cublas;

static void libtriton_cublas_free(val_obj *o)
{
    val_unref(((libtriton_cublas *)o)->workspace);
}

/* matmul(a, b, c): c[M, N] = a[M, K] @ b[N, K].T, all of one dtype. */
static val libtriton_matmul(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                            src_span at)
{
    (void)self;
    val p[3];
    if (!host_args(h, at, "matmul", "A, B, C", argc, argv, kw, p))
        return val_err();
    tensor *a = tensor_of(p[0]), *b = tensor_of(p[1]), *c = tensor_of(p[2]);
    if (!a || !b || !c)
        return host_raise(h, HOST_EXC_TYPE, at, "CublasLt.matmul() takes three tensors");
    if (a->ndim != 2 || b->ndim != 2 || c->ndim != 2 || a->shape[1] != b->shape[1] ||
        c->shape[0] != a->shape[0] || c->shape[1] != b->shape[0])
        return host_raise(h, HOST_EXC_VALUE, at, "CublasLt.matmul(A, B, C): A is [M, K], B "
                          "[N, K] (transposed) and C [M, N]");
    if (a->type != b->type || a->type != c->type ||
        (a->type != DTYPE_FP16 && a->type != DTYPE_BF16 && a->type != DTYPE_FP32))
        return host_raise(h, HOST_EXC_NOT_IMPLEMENTED, at, "CublasLt.matmul(): tritsim "
                          "multiplies float16, bfloat16 or float32 tensors of one dtype");
    char err[TENSOR_ERR_LEN];
    tensor *bt = tensor_transpose(b, 0, 1, err);
    tensor *r = bt ? tensor_matmul(a, bt, err) : NULL;
    bool ok = r && tensor_copy_into(c, r, err);
    tensor_unref(bt);
    tensor_unref(r);
    if (!ok)
        return host_error(h, at, "CublasLt.matmul(): %s", err);
    return val_none();
}

static val libtriton_cublas_getattr(host *h, val self, const char *name, src_span at)
{
    (void)h, (void)at;
    if (!strcmp(name, "matmul"))
        return val_builtin_new("CublasLt.matmul", libtriton_matmul, val_ref(self));
    return val_missing();
}

static const char *const libtriton_cublas_attrs[] = {"matmul", NULL};

static const val_type libtriton_cublas_type = {
    .name = "CublasLt",
    .getattr = libtriton_cublas_getattr,
    .free = libtriton_cublas_free,
    .attr_names = libtriton_cublas_attrs,
};

/* CublasLt(workspace): the workspace tensor is kept, as cuBLASLt keeps it. */
static val libtriton_cublas_new(host *h, val self, int argc, const val *argv,
                                const val_kwargs *kw, src_span at)
{
    (void)self;
    val p[1];
    if (!host_args(h, at, "CublasLt", "workspace", argc, argv, kw, p))
        return val_err();
    if (!tensor_of(p[0]))
        return host_raise(h, HOST_EXC_TYPE, at, "CublasLt() takes its workspace tensor");
    libtriton_cublas *c = val_obj_new(sizeof *c, VAL_OBJECT, &libtriton_cublas_type);
    c->o.attrs = val_dict_new();
    c->workspace = val_ref(p[0]);
    return val_of(c);
}

void libtriton_init(host *h, val triton)
{
    val C = val_module_new("triton._C");
    val lib = val_module_new("triton._C.libtriton");
    val nvidia = val_module_new("triton._C.libtriton.nvidia");
    val cublas = val_module_new("triton._C.libtriton.nvidia.cublas");
    host_def(cublas, "triton._C.libtriton.nvidia.cublas.CublasLt", libtriton_cublas_new);
    val_object_set(nvidia, "cublas", val_ref(cublas));
    val_object_set(lib, "nvidia", val_ref(nvidia));
    val_object_set(C, "libtriton", val_ref(lib));
    val_object_set(triton, "_C", val_ref(C));
    host_register_module(h, "triton._C.libtriton.nvidia.cublas", cublas);
    host_register_module(h, "triton._C.libtriton.nvidia", nvidia);
    host_register_module(h, "triton._C.libtriton", lib);
    host_register_module(h, "triton._C", C);
}
