/* autograd_impl.h - what the files of autograd share: the graph's node,
 * the formula table entries, and the helpers formulas are written with.
 *
 *   autograd.c           the graph, recording, backward(), Function, modes
 *   autograd_formulas.c  add, sub, mul, div, neg, sum, mean, matmul, relu,
 *                        exp, to/clone, reshape/view, layer_norm
 *   autograd_ops.c       the elementwise functions (rsqrt, tanh, pow, ...),
 *                        where, clamp, maximum, softmax, the reductions
 *                        (var, norm, logsumexp, cumsum, cumprod, sort,
 *                        topk, max, amax), cat/stack, scatter, and the
 *                        rearranging ops (transpose, permute, flip, gather,
 *                        x[key], ...), whose backward runs the op again
 *   autograd_nn.c        torch.nn.functional's: cross_entropy, nll_loss,
 *                        mse_loss, kl_div, rms_norm, embedding, conv2d,
 *                        scaled_dot_product_attention */
#ifndef TRITSIM_AUTOGRAD_IMPL_H
#define TRITSIM_AUTOGRAD_IMPL_H

#include "host.h"
#include "tensor.h"

typedef struct ag_meta {
    dtype type;
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS];
    bool cuda;
} ag_meta;

typedef struct ag_node ag_node;

/* What a node may keep, and how many outputs it may have: a formula's node
 * two (var_mean's), a torch.autograd.Function's node as many as its
 * forward returns, up to AG_OUTS. */
enum { AG_SAVED = 4, AG_FORMULA_OUTS = 2, AG_OUTS = 8 };

/* The grads of a node's inputs for the gradient g of its output: gin[i]
 * a new tensor (of input i's shape and dtype) or NULL where there is
 * none; false with a message in err (or after raising: err empty). */
typedef bool (*ag_backward_fn)(host *h, ag_node *n, const tensor *g, tensor **gin, char *err);
/* Read a call's arguments (all: the input first) into the node: its
 * inputs (ag_inputs, ag_input) and what the formula keeps. */
typedef bool (*ag_record_fn)(host *h, ag_node *n, int argc, const val *all,
                             const val_kwargs *kw, val result, src_span at);

typedef struct ag_formula {
    const char *op;          /* the torch name: "add" */
    const char *node;        /* the grad_fn's name: "AddBackward0" */
    ag_record_fn record;
    ag_backward_fn backward;
} ag_formula;

struct ag_node {
    val_object o;
    const ag_formula *f;     /* NULL: a Function's node, or an op without formula */
    char *name;              /* "AddBackward0" (owned) */
    char *op;                /* what was called, for messages (owned) */
    src_span at;
    const src_file *file;
    int n;
    val *next;               /* per input: a node, a leaf tensor, or NONE */
    ag_meta *meta;           /* per input that is a tensor */
    val saved[AG_SAVED];     /* what the formula keeps */
    unsigned saved_version[AG_SAVED];   /* their storage's version then */
    unsigned saved_unread;   /* bit k: backward will not read saved[k] (the
                                operand of an input that needs no gradient) */
    int64_t dims[TENSOR_MAX_DIMS];
    int ndims;               /* sum/mean: the dims (all_dims: every one) */
    bool all_dims, keepdim;
    double scalar;           /* add/sub: alpha; layer_norm: eps */
    int64_t ival;            /* an int the formula keeps (a dim, an index) */
    int mode;                /* a choice the formula keeps (gelu's tanh, ...) */
    const void *fn;          /* the torch_fn called (a rearranging op) */
    val args;                /* its arguments, the input as None (a tuple),
                                and its keyword arguments (a dict), or NONE */
    val kwargs;
    int *next_index;         /* per input: which output of its node it is */
    ag_meta out;
    val cls, ctx;            /* a Function's class and ctx */
    int nout;                /* a Function's node: the items its forward
                                returned (a tuple's length; 1 otherwise) */
    ag_meta *outs;           /* a Function's node: per item, its meta
                                (type DTYPE_INVALID: no float tensor) */
    bool released;           /* backward ran without retain_graph and
                                dropped saved[] */
    /* backward()'s scratch */
    unsigned mark;
    int pending;
    tensor *grad[AG_OUTS];   /* per output: the gradient collected */
    const tensor *g2;        /* while the formula runs: the second output's
                                gradient (NULL: none reached it) */
};

/* The formula tables, each ended by a {NULL} entry. */
extern const ag_formula ag_formulas_base[];   /* autograd_formulas.c */
extern const ag_formula ag_formulas_ops[];    /* autograd_ops.c */
extern const ag_formula ag_formulas_nn[];     /* autograd_nn.c */

/* ---- building a node (autograd.c) ------------------------------------------- */

/* Give node n count inputs, each NONE until ag_input sets it. */
void ag_inputs(ag_node *n, int count);
/* Input i of n is v (its edge, and its meta when a tensor). */
void ag_input(ag_node *n, int i, val v);
/* A tensor's data without its autograd state (what nodes keep). */
val ag_detached(val v);
/* Argument i of a call (all: the input first), or keyword name; MISSING. */
val ag_arg(int argc, const val *all, const val_kwargs *kw, int i, const char *name);
bool ag_kw_has(const val_kwargs *kw, const char *name);
/* Neither MISSING nor None. */
bool ag_present(val v);
/* Is v a tensor that requires grad. */
bool ag_requires(val v);
/* Keep a call's arguments in n (args, kwargs: tensors detached), and read
 * them back into c (borrowed from n) to parse them again in backward. */
void ag_keep_call(ag_node *n, int argc, const val *all, const val_kwargs *kw);
typedef struct ag_call {
    int argc;
    const val *all;
    val_kwargs kw;
    const char *names[33];
} ag_call;
bool ag_call_of(const ag_node *n, ag_call *c);
/* Rename node n (grad_fn's name depends on the arguments: SqueezeBackward1). */
void ag_set_name(ag_node *n, const char *name);

/* ---- what formulas share (autograd_formulas.c) ----------------------------------- */

/* g summed over the dimensions it was broadcast along, so that it has
 * meta's shape, and converted to meta's dtype. */
tensor *ag_reduce_to(const tensor *g, const ag_meta *m, char *err);
/* g broadcast to meta's shape (a new contiguous tensor of its dtype). */
tensor *ag_expand_to(const tensor *g, const ag_meta *m, char *err);
/* Record functions: one input, nothing kept; one input, keeping it
 * (saved[0]) or the output (saved[0]); input and other (saved[0], [1]). */
bool ag_rec_one(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                val result, src_span at);
bool ag_rec_keep_input(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                       val result, src_span at);
bool ag_rec_keep_output(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                        val result, src_span at);
bool ag_rec_two(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                val result, src_span at);
/* The matmul backward (matmul, mm, bmm). */
bool ag_bw_matmul(host *h, ag_node *n, const tensor *g, tensor **gin, char *err);
/* A contiguous float64 copy of t. */
tensor *ag_f64(const tensor *t, char *err);
/* n doubles as a tensor of meta's shape, dtype and device. */
tensor *ag_from_f64(const double *d, const ag_meta *m, char *err);

#endif
