/* torch_impl.h - what the files of the torch module share (not a contract
 * with other modules; those use torchmod.h and tensor.h).
 *
 *   torchmod.c      registers torch, torch.cuda, torch.nn.functional, ...
 *   torch_args.c    reading arguments: dtypes, devices, shapes, dims,
 *                   numbers, nested lists -> tensors, tensors -> lists
 *   torch_create.c  torch.tensor, zeros, arange, rand, ..._like, eye, ...
 *   torch_tensor.c  the Tensor type: attributes, operators, printing, and
 *                   the methods that reshape, convert and read tensors
 *   torch_math.c    functions that are both torch.f(x) and x.f(): unary
 *                   and binary arithmetic, reductions, matmul, cat, where,
 *                   norms (and torch.linalg's)
 *   torch_index.c   x[key] and x[key] = value; gather, scatter, index_select,
 *                   masked_fill
 *   torch_sort.c    sort, argsort, topk
 *   torch_nn.c      torch.nn.functional's losses and layers: cross_entropy,
 *                   nll_loss, mse_loss, kl_div, rms_norm, embedding,
 *                   dropout, conv2d, scaled_dot_product_attention
 *   torch_nnmore.c  group_norm, and linear, l1_loss, smooth_l1_loss made of
 *                   recorded torch operations
 *   torch_module.c  torch.nn.Module and torch.nn.Parameter
 *   torch_layers.c  the library's modules: Linear, LayerNorm, the losses, ...
 *   torch_containers.c  Sequential, ModuleList, ModuleDict
 *   torch_nninit.c  torch.nn.init
 *   torch_backends.c torch.backends (cuda.matmul, cudnn flags) and
 *                   torch.set/get_float32_matmul_precision
 *   torch_testing.c allclose, isclose, equal, testing.assert_close
 *   torch_objects.c torch.Size, torch.device, torch.return_types
 *
 * Conventions.  Functions that exist both as torch.f(input, ...) and as
 * the method input.f(...) are one val_cfunc: when called as a method the
 * tensor arrives as self, and torch_self_args puts it in front of the
 * arguments so host_args can read "input, dim=, ..." either way.  Several
 * functions that share one implementation (add, sub, ... -> binary) are
 * each one TORCH_NAMED line. */
#ifndef TRITSIM_TORCH_IMPL_H
#define TRITSIM_TORCH_IMPL_H

#include "host.h"
#include "tensor.h"
#include "torchmod.h"

/* ---- function tables ------------------------------------------------------ */

/* One function of the torch module: torch.<name> when qual_torch is set,
 * Tensor.<name> when qual_method is set, torch.nn.functional.<name> when
 * qual_nnf is set (qualified names are static strings for messages). */
typedef struct torch_fn {
    const char *name;
    val_cfunc fn;
    const char *qual_torch, *qual_method, *qual_nnf;
    int grad;               /* what autograd does with a call (below) */
} torch_fn;

/* torch_fn.grad: a call with an argument that requires grad is recorded
 * in the autograd graph (autograd.c; ops without a backward formula give
 * an error when backward reaches them); a function that makes tensors
 * records nothing and honours requires_grad=; a function that only reads
 * or controls autograd (detach, backward, requires_grad_) records nothing. */
enum { TORCH_AG_RECORD, TORCH_AG_CREATE, TORCH_AG_NONE };

#define TORCH_BOTH(n, f) {n, f, "torch." n, "Tensor." n, NULL, TORCH_AG_RECORD}
#define TORCH_FUNC(n, f) {n, f, "torch." n, NULL, NULL, TORCH_AG_RECORD}
#define TORCH_METHOD(n, f) {n, f, NULL, "Tensor." n, NULL, TORCH_AG_RECORD}
#define TORCH_ALL3(n, f) {n, f, "torch." n, "Tensor." n, "torch.nn.functional." n, \
                          TORCH_AG_RECORD}
#define TORCH_LINALG(n, f) {n, f, "torch.linalg." n, NULL, NULL, TORCH_AG_RECORD}
#define TORCH_NNF(n, f) {n, f, NULL, NULL, "torch.nn.functional." n, TORCH_AG_RECORD}
#define TORCH_CREATE(n, f) {n, f, "torch." n, NULL, NULL, TORCH_AG_CREATE}
#define TORCH_METHOD_CREATE(n, f) {n, f, NULL, "Tensor." n, NULL, TORCH_AG_CREATE}
#define TORCH_METHOD_NO_GRAD(n, f) {n, f, NULL, "Tensor." n, NULL, TORCH_AG_NONE}
#define TORCH_BOTH_NO_GRAD(n, f) {n, f, "torch." n, "Tensor." n, NULL, TORCH_AG_NONE}

/* The tables, each ended by a {NULL} entry. */
extern const torch_fn torch_create_fns[];
extern const torch_fn torch_tensor_fns[];
extern const torch_fn torch_math_fns[];
extern const torch_fn torch_linalg_fns[];    /* torch_math.c: torch.linalg.<name> */
extern const torch_fn torch_index_fns[];     /* torch_index.c: gather, scatter, ... */
extern const torch_fn torch_sort_fns[];      /* torch_sort.c: sort, argsort, topk */
extern const torch_fn torch_nn_fns[];        /* torch_nn.c: F.cross_entropy, ... */
extern const torch_fn torch_nnmore_fns[];    /* torch_nnmore.c: F.group_norm, F.linear, ... */
extern const torch_fn torch_testing_fns[];
extern const torch_fn torch_misc_fns[];     /* torchmod.c: is_tensor, dtype queries */
extern const torch_fn torch_autograd_fns[]; /* autograd.c: backward, requires_grad_, ... */

/* torch.testing.assert_close as a value (torch_testing.c). */
val torch_testing_assert_close(void);
/* torch.manual_seed(seed), shared with torch.cuda.manual_seed(_all). */
val torch_manual_seed_fn(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                         src_span at);

/* Function f as a value named qualname (bound to self, or VAL_NONE), called
 * through autograd_call. */
val torch_fn_value(const char *qualname, const torch_fn *f, val self);

/* The method `name` of tensors, or NULL. */
const torch_fn *torch_find_method(const char *name);

/* Most arguments a torch function takes. */
#define TORCH_ARGS_MAX 33

/* Read the arguments of a method or torch.f(input, ...) function into
 * val a[] by host_args' params (which start with "input"), and declare
 * `tensor *t` as the input; returns VAL_ERR from the function on error.
 * Uses the cfunc's parameter names h, self, argc, argv, kw, at. */
#define TORCH_READ_ARGS(fname, params, a) \
    val all_[TORCH_ARGS_MAX]; \
    int n_ = torch_self_args(self, argc, argv, all_, TORCH_ARGS_MAX); \
    if (!host_args(h, at, fname, params, n_, all_, kw, a)) \
        return val_err(); \
    tensor *t = torch_tensor_arg(h, a[0], at, fname, "input"); \
    if (!t) \
        return val_err()

/* TORCH_READ_ARGS for params that start "input, other": also declares
 * `tensor *o` as the other tensor. */
#define TORCH_READ_ARGS_OTHER(fname, params, a) \
    TORCH_READ_ARGS(fname, params, a); \
    tensor *o = torch_tensor_arg(h, a[1], at, fname, "other"); \
    if (!o) \
        return val_err()

/* Define fn_<name> as impl(h, self, argc, argv, kw, at, "<name>", ...),
 * e.g. TORCH_NAMED(sum, reduce, TENSOR_SUM) defines fn_sum. */
#define TORCH_NAMED(name, impl, ...) HOST_CFUNC_CALLING(fn_##name, impl, #name, __VA_ARGS__)

/* torch accepts numpy's axis= wherever it takes dim=: kw with "axis"
 * renamed to "dim" (names holds up to cap names; kw itself when there is
 * nothing to rename). */
const val_kwargs *torch_axis_alias(const val_kwargs *kw, val_kwargs *copy, const char **names,
                                   int cap);
#define TORCH_AXIS_IS_DIM(kw) \
    const char *axis_names_[TORCH_ARGS_MAX]; \
    val_kwargs axis_kw_; \
    kw = torch_axis_alias(kw, &axis_kw_, axis_names_, TORCH_ARGS_MAX)

/* torch.backends and the float32 matmul precision into module torch
 * (torch_backends.c). */
void torch_backends_add(host *h, val torch);
/* --initcheck (torch_create.c): the host that reports host reads of
 * memory never written (tensor.h's tensor_init_fail), for this run. */
void torch_initcheck_init(host *h);

/* torch.cuda.synchronize and torch.cuda.Event into module cuda (torch_cuda.c). */
void torch_cuda_add(val cuda);
/* torch.amp (false) or torch.cuda.amp (true): custom_fwd, custom_bwd
 * (torch_amp.c). */
val torch_amp_module(bool cuda_amp);
/* torch.is_autocast_enabled and torch.get_autocast_dtype (torch_amp.c). */
void torch_amp_add(host *h, val torch);
/* torch.finfo, torch.iinfo, torch.compiler and torch._dynamo's disable
 * (torch_info.c). */
void torch_info_add(host *h, val torch);
/* torch_inductor.c: torch._inductor (config, written in Python) */
void torch_inductor_add(host *h, val torch);
/* torch.utils._triton.has_triton and torch.use_deterministic_algorithms
 * with its queries (torch_utilmod.c). */
void torch_utilmod_add(host *h, val torch);
/* torch.distributed, never initialised (torch_dist.c). */
void torch_dist_add(host *h, val torch);
/* torch.nn.modules.utils: _single, _pair, ... (torch_nnutils.c). */
void torch_nnutils_add(host *h, val nn);

/* torch.nn.Module and torch.nn.Parameter into nn (torch_module.c). */
void torch_module_add(host *h, val nn);
/* The library's modules (Linear, LayerNorm, the losses, Sequential, ...)
 * into nn, after torch_module_add (torch_layers.c). */
void torch_layers_add(host *h, val nn);
/* The activations torch_layers.c lacks, Softmin, GLU, HuberLoss, and the
 * classes tritsim has only by name (Conv2d, ...) into nn (torch_nnact.c). */
void torch_nnact_add(host *h, val nn);
/* Conv1d, Conv2d, AvgPool1d, AvgPool2d into nn (torch_convpool.c). */
void torch_convpool_add(host *h, val nn);
/* BatchNorm1d, BatchNorm2d into nn (torch_batchnorm.c). */
void torch_batchnorm_add(host *h, val nn);
/* torch.count_nonzero (torch_reduce_more.c). */
void torch_reduce_more_add(host *h, val torch);
/* Sequential, ModuleList, ModuleDict into nn, derived from module
 * (torch_containers.c). */
void torch_containers_add(host *h, val nn, val module);
/* torch.nn.init into nn (torch_nninit.c). */
void torch_nninit_add(host *h, val nn);
/* The instance a C method of a Module class works on: self when it is
 * bound, else the first argument, then dropped from argv (a method read
 * from the class: nn.Module.__init__(self), nn.Linear.forward(m, x));
 * false after raising TypeError when there is none. */
bool torch_method_self(host *h, val *self, int *argc, const val **argv, src_span at);
/* Define the method `name` of a Module class: its body runs with self
 * the instance, whether called bound or through the class. */
#define TORCH_MODULE_METHOD(name) \
    static val name##_body(host *h, val self, int argc, const val *argv, \
                           const val_kwargs *kw, src_span at); \
    static val name(host *h, val self, int argc, const val *argv, const val_kwargs *kw, \
                    src_span at) \
    { \
        if (!torch_method_self(h, &self, &argc, &argv, at)) \
            return val_err(); \
        return name##_body(h, self, argc, argv, kw, at); \
    } \
    static val name##_body(host *h, val self, int argc, const val *argv, \
                           const val_kwargs *kw, src_span at)
/* Is v an instance of a class derived from torch.nn.Module? */
bool torch_module_is(val v);
/* What Module.__init__ does to self (an instance of a Module class). */
void torch_module_init_self(val self);
/* nn.Parameter(t, requires_grad): a leaf viewing t's elements. */
val torch_parameter_new(host *h, const tensor *t, bool requires_grad, src_span at);

/* ---- complex tensors (torch_complex.c) ---------------------------------------------- */

/* torch.complex, polar, view_as_real, view_as_complex, is_complex, real,
 * imag, conj, angle, ... */
extern const torch_fn torch_complex_fns[];
/* A call of f (through autograd_call) with a complex tensor, a complex
 * dtype or a Python complex among its arguments: true with the result (or
 * VAL_ERR) in *out; false when no argument is complex. */
bool torch_complex_dispatch(host *h, const torch_fn *f, val self, int argc, const val *argv,
                            const val_kwargs *kw, src_span at, val *out);
/* a op b where an operand is a complex tensor or a Python complex. */
val torch_complex_binop(host *h, ast_op op, bool inplace, val a, val b, src_span at);
/* The Tensor type's hooks for complex tensors: tensor_type's hooks (in
 * torch_tensor.c) hand a complex tensor to these (getattr, setattr,
 * getitem, setitem, binop, unop, truth, len, iter, repr, format). */
extern const val_type torch_complex_hooks;
/* isclose of complex tensors a and b (parts of one dtype; PyTorch's
 * complex distances) as a bool tensor of their broadcast shape, with the
 * magnitudes |a - b| and |b| (float64 tensors of that shape) in *absd and
 * *abse; NULL with a message in err. */
tensor *torch_complex_close(const tensor *a, const tensor *b, double rtol, double atol,
                            bool equal_nan, tensor **absd, tensor **abse, char *err);
/* torch.complex64, cfloat, complex128, cdouble, complex32, chalf. */
void torch_complex_add(val torch);

/* ---- errors and results ------------------------------------------------------- */

/* Report a tensor.h message; returns VAL_ERR. */
val torch_fail(host *h, src_span at, const char *err);
/* t as a value, or the error in err when t is NULL. */
val torch_result(host *h, src_span at, tensor *t, const char *err);

/* ---- arguments (torch_args.c) ----------------------------------------------------- */

/* argv with self in front when self is a tensor; returns the count. */
int torch_self_args(val self, int argc, const val *argv, val *buf, int cap);

/* The tensor in v, or NULL after reporting "fname(): argument 'arg' must
 * be Tensor, not int". */
tensor *torch_tensor_arg(host *h, val v, src_span at, const char *fname, const char *arg);
/* A dtype= argument: a torch dtype, or Python's float/int/bool types
 * (float64, int64, bool, as torch reads them).  VAL_MISSING and None leave
 * *out unchanged. */
bool torch_dtype_arg(host *h, val v, src_span at, const char *fname, dtype *out);
/* A device= argument: 'cuda', 'cuda:0', 'cpu', a torch.device or 0.
 * VAL_MISSING and None leave *cuda unchanged. */
bool torch_device_arg(host *h, val v, src_span at, const char *fname, bool *cuda);
/* requires_grad=: a bool (autograd_call makes the result require grad). */
bool torch_requires_grad_arg(host *h, val v, src_span at, const char *fname);
/* A shape: one tuple/list/torch.Size, or the ints of argv themselves
 * (zeros(2, 3) and zeros((2, 3))). */
bool torch_shape_args(host *h, int argc, const val *argv, src_span at, const char *fname,
                      int *ndim, int64_t *shape);
/* One int or a tuple/list of ints (dims, sizes); *n receives the count. */
bool torch_int_list(host *h, val v, src_span at, const char *fname, const char *arg,
                    int *n, int64_t *out, int cap);
/* An int of a size, dim list or index: ints (bools excluded) and
 * one-element int tensors (x.shape[0] may come back as a tensor in user
 * code); false, with nothing reported, for anything else. */
bool torch_index_int(val v, int64_t *out);
/* An int argument (ints, bools and one-element int tensors). */
bool torch_int_arg(host *h, val v, src_span at, const char *fname, const char *arg,
                   int64_t *out);
/* A bool argument (keepdim=...). */
bool torch_bool_arg(host *h, val v, src_span at, const char *fname, const char *arg,
                    bool *out);
/* A Python number (bool, int, float) or a tensor as an elementwise
 * operand; false (nothing reported) for anything else. */
bool torch_operand(val v, tensor_operand *out);
/* A number for a tensor of dtype t, with torch's overflow check ("value
 * cannot be converted to type uint8_t without overflow"). */
bool torch_number_to(host *h, val v, dtype t, src_span at, const char *fname,
                     dtype_scalar *out);
/* The Python value of one element: bool, int or float. */
val torch_scalar_val(dtype t, dtype_scalar v);
/* torch.tensor(data): nested lists/tuples of numbers, bools and
 * one-element tensors; dtype DTYPE_INVALID infers it as torch does. */
tensor *torch_from_data(host *h, val data, dtype t, bool cuda, src_span at);
/* t.tolist(): nested lists of Python numbers. */
val torch_to_list(const tensor *t);

/* ---- objects (torch_objects.c) ----------------------------------------------- */

/* torch.Size of a shape. */
val torch_size_new(int ndim, const int64_t *shape);
/* The ints of a torch.Size; false when v is not one. */
bool torch_size_get(val v, int *ndim, int64_t *shape);
/* Is v a torch.device; then *cuda says which. */
bool torch_device_get(val v, bool *cuda);
/* torch.return_types.<name>(values=..., indices=...), stealing both. */
val torch_return_pair(const char *name, val values, val indices);
/* The (values, indices) tuple of a torch.return_types value (borrowed), or
 * VAL_MISSING for anything else. */
val torch_return_items(val v);
/* The types as values, for torch.Size, torch.device and isinstance(). */
val torch_size_type_val(void);
val torch_device_type_val(void);
/* Make VAL_DTYPE values print as torch.float32 and answer torch.dtype's
 * attributes, unless another module registered their hooks already. */
void torch_register_dtype_type(void);
/* torch.Tensor: the type of tensors, callable as the legacy constructor
 * (torch_create.c). */
val torch_tensor_type_val(void);

/* ---- indexing (torch_index.c) ------------------------------------------------ */

val torch_getitem(host *h, val self, val key, src_span at);
bool torch_setitem(host *h, val self, val key, val value, src_span at);

/* ---- operators shared by the Tensor type and torch functions (torch_math.c) */

/* a op b for tensors and numbers (at least one tensor); VAL_MISSING when
 * an operand is neither. */
val torch_binop(host *h, tensor_binop op, val a, val b, src_span at);

/* ---- torch.nn.functional's formulas (torch_nn.c), shared with autograd ------- */

/* A loss's reduction= (with the legacy size_average= and reduce=). */
enum { TORCH_RED_NONE, TORCH_RED_MEAN, TORCH_RED_SUM, TORCH_RED_BATCHMEAN };
bool torch_reduction_arg(host *h, val v, val size_average, val reduce, src_span at,
                         bool batchmean_ok, int *out);

/* The arguments of a call, read the same way by the function and by the
 * autograd node that records it (all: the arguments, the input first).
 * The tensors are borrowed from the arguments. */
typedef struct torch_ce {
    const tensor *input, *target, *weight;  /* weight: NULL when absent */
    int reduction;
    int64_t ignore_index;
    double smoothing;
    bool log_probs;          /* nll_loss: the input holds log-probabilities */
    bool probs;              /* the target holds class probabilities */
    int64_t N, C, inner;     /* input (N, C, inner...) or (C,) */
} torch_ce;
bool torch_ce_args(host *h, bool nll, int argc, const val *all, const val_kwargs *kw,
                   src_span at, torch_ce *c);
tensor *torch_ce_forward(const torch_ce *c, char *err);
/* The gradient of the input for the gradient g of the loss. */
tensor *torch_ce_backward(const torch_ce *c, const tensor *g, char *err);

typedef struct torch_kl {
    const tensor *input, *target;
    int reduction;
    bool log_target;
} torch_kl;
bool torch_kl_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                   torch_kl *k);
tensor *torch_kl_forward(const torch_kl *k, char *err);
/* gx and gy of the broadcast shape (the caller reduces them). */
bool torch_kl_backward(const torch_kl *k, const tensor *g, tensor **gx, tensor **gy, char *err);

typedef struct torch_rms {
    const tensor *input, *weight;   /* weight: NULL when absent */
    int64_t C;                      /* elements normalised together */
    double eps;
} torch_rms;
bool torch_rms_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                    torch_rms *r);
tensor *torch_rms_forward(const torch_rms *r, char *err);
bool torch_rms_backward(const torch_rms *r, const tensor *g, tensor **gx, tensor **gw,
                        char *err);

/* F.group_norm (torch_nnmore.c): input (N, C, *) in G groups of C/G
 * channels, weight and bias (C,) or NULL. */
typedef struct torch_gn {
    const tensor *input, *weight, *bias;
    int64_t G, N, C, HW;     /* HW: the elements of one channel of one sample */
    double eps;
} torch_gn;
bool torch_gn_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                   torch_gn *g);
tensor *torch_gn_forward(const torch_gn *g, char *err);
bool torch_gn_backward(const torch_gn *g, const tensor *gy, tensor **gx, tensor **gw,
                       tensor **gb, char *err);

/* F.binary_cross_entropy_with_logits (torch_nnmore.c): weight and
 * pos_weight broadcast to the input's shape, or NULL. */
typedef struct torch_bce {
    const tensor *input, *target, *weight, *pos_weight;
    int reduction;
} torch_bce;
bool torch_bce_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                    torch_bce *b);
tensor *torch_bce_forward(const torch_bce *b, char *err);
/* gx and gy of the input's shape. */
bool torch_bce_backward(const torch_bce *b, const tensor *g, tensor **gx, tensor **gy,
                        char *err);

typedef struct torch_embedding {
    const tensor *input, *weight;
    int64_t padding_idx;
    bool has_padding;
} torch_embedding;
bool torch_embedding_args(host *h, int argc, const val *all, const val_kwargs *kw,
                          src_span at, torch_embedding *e);
tensor *torch_embedding_backward(const torch_embedding *e, const tensor *g, char *err);

typedef struct torch_conv {
    const tensor *input, *weight, *bias;
    int64_t stride[2], pad[2], dilation[2], groups;
    bool batched;
    int64_t N, Cin, H, W, Cout, kH, kW, Ho, Wo;
} torch_conv;
bool torch_conv_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                     torch_conv *c);
tensor *torch_conv_forward(const torch_conv *c, char *err);
bool torch_conv_backward(const torch_conv *c, const tensor *g, tensor **gx, tensor **gw,
                         tensor **gb, char *err);

typedef struct torch_sdpa {
    const tensor *q, *k, *v, *mask;  /* mask: NULL when absent */
    bool causal, gqa;
    double scale;
    int64_t B, Hq, Hk, L, S, E, Ev;  /* B: the batch dims but the heads */
} torch_sdpa;
bool torch_sdpa_args(host *h, int argc, const val *all, const val_kwargs *kw, src_span at,
                     torch_sdpa *s);
tensor *torch_sdpa_forward(const torch_sdpa *s, char *err);
bool torch_sdpa_backward(const torch_sdpa *s, const tensor *g, tensor **gq, tensor **gk,
                         tensor **gv, char *err);

#endif
