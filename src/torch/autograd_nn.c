/* autograd_nn.c - the backward formulas of torch.nn.functional's losses
 * and layers: cross_entropy and nll_loss (NllLossBackward0), mse_loss,
 * kl_div, rms_norm, embedding, conv2d (ConvolutionBackward0),
 * scaled_dot_product_attention, group_norm and
 * binary_cross_entropy_with_logits.  Each node keeps its call's arguments
 * (ag_keep_call) and reads them again with torch_nn.c's parser, whose
 * gradient functions (torch_*_backward) do the work. */
#include "autograd_impl.h"

#include <string.h>

#include "torch_impl.h"

/* Record: keep the call; the inputs are the tensors at the argument
 * positions (or keywords) of names, a NULL-ended list. */
static void nn_record(ag_node *n, int argc, const val *all, const val_kwargs *kw,
                      const char *const *names)
{
    int count = 0;
    while (names[count])
        count++;
    ag_inputs(n, count);
    for (int i = 0; i < count; i++) {
        val v = ag_arg(argc, all, kw, i, names[i]);
        if (tensor_of(v))
            ag_input(n, i, v);
    }
    ag_keep_call(n, argc, all, kw);
}

/* gin[i] = r reduced to input i's meta (r stolen); false when r is NULL. */
static bool nn_give(ag_node *n, int i, tensor *r, tensor **gin, char *err)
{
    if (!r)
        return false;
    if (n->next[i].kind == VAL_NONE) {
        tensor_unref(r);
        return true;
    }
    gin[i] = ag_reduce_to(r, &n->meta[i], err);
    tensor_unref(r);
    return gin[i] != NULL;
}

/* ---- cross_entropy, nll_loss ------------------------------------------------------ */

static const char *const ce_inputs[] = {"input", NULL};

static bool rec_ce(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                   val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, ce_inputs);
    n->mode = strstr(n->op, "nll_loss") != NULL;
    /* PyTorch's cross_entropy is log_softmax + nll_loss; with label
     * smoothing or class probabilities its last step is another op */
    torch_ce c;
    ag_call call;
    if (ag_call_of(n, &call) && torch_ce_args(h, n->mode, call.argc, call.all, &call.kw, at, &c)) {
        if (c.probs)
            ag_set_name(n, c.reduction == TORCH_RED_MEAN ? "DivBackward0" : "NegBackward0");
        else if (c.smoothing > 0)
            ag_set_name(n, "AddBackward0");
    }
    return true;
}

static bool bw_ce(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_ce c;
    if (!ag_call_of(n, &call) || !torch_ce_args(h, n->mode, call.argc, call.all, &call.kw,
                                                n->at, &c))
        return false;
    return nn_give(n, 0, torch_ce_backward(&c, g, err), gin, err);
}

/* ---- mse_loss, kl_div --------------------------------------------------------------- */

static const char *const two_inputs[] = {"input", "target", NULL};

static bool rec_two_kept(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                         val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, two_inputs);
    return true;
}

/* mse: d/dx = 2 (x - y) g / count (mean), d/dy its negation */
static bool bw_mse(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    val a[5];
    if (!ag_call_of(n, &call) ||
        !host_args(h, n->at, "mse_loss", "input, target, size_average=, reduce=, reduction=",
                   call.argc, call.all, &call.kw, a))
        return false;
    int red;
    if (!torch_reduction_arg(h, a[4], a[2], a[3], n->at, false, &red))
        return false;
    const tensor *x = tensor_of(a[0]), *y = tensor_of(a[1]);
    tensor *d = tensor_binary(TENSOR_SUB, tensor_operand_of(x), tensor_operand_of(y), err);
    if (!d)
        return false;
    double k = 2;
    if (red == TORCH_RED_MEAN)
        k /= (double)(tensor_numel(d) ? tensor_numel(d) : 1);
    tensor *s = tensor_binary(TENSOR_MUL, tensor_operand_of(d), tensor_operand_float(k), err);
    tensor *p = s ? tensor_binary(TENSOR_MUL, tensor_operand_of(s), tensor_operand_of(g), err)
                  : NULL;
    tensor *m = p ? tensor_unary(TENSOR_NEG, p, err) : NULL;
    tensor_unref(d);
    tensor_unref(s);
    if (!m) {
        tensor_unref(p);
        return false;
    }
    if (!nn_give(n, 0, p, gin, err)) {
        tensor_unref(m);
        return false;
    }
    return nn_give(n, 1, m, gin, err);
}

/* kl_div is composite in PyTorch: its last op names the node */
static bool rec_kl(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                   val result, src_span at)
{
    (void)result;
    nn_record(n, argc, all, kw, two_inputs);
    ag_call call;
    torch_kl k;
    if (!ag_call_of(n, &call) || !torch_kl_args(h, call.argc, call.all, &call.kw, at, &k))
        return false;
    static const char *const names[] = {
        [TORCH_RED_NONE] = "SubBackward0", [TORCH_RED_MEAN] = "MeanBackward0",
        [TORCH_RED_SUM] = "SumBackward0", [TORCH_RED_BATCHMEAN] = "DivBackward0",
    };
    ag_set_name(n, k.reduction == TORCH_RED_NONE && k.log_target ? "MulBackward0"
                                                                 : names[k.reduction]);
    return true;
}

static bool bw_kl(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_kl k;
    tensor *gx, *gy;
    if (!ag_call_of(n, &call) || !torch_kl_args(h, call.argc, call.all, &call.kw, n->at, &k) ||
        !torch_kl_backward(&k, g, &gx, &gy, err))
        return false;
    return nn_give(n, 0, gx, gin, err) && nn_give(n, 1, gy, gin, err);
}

/* ---- rms_norm, embedding ---------------------------------------------------------- */

static const char *const rms_inputs[] = {"input", "normalized_shape", "weight", NULL};

static bool rec_rms(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                    val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, rms_inputs);
    return true;
}

static bool bw_rms(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_rms r;
    tensor *gx, *gw;
    if (!ag_call_of(n, &call) || !torch_rms_args(h, call.argc, call.all, &call.kw, n->at, &r) ||
        !torch_rms_backward(&r, g, &gx, &gw, err))
        return false;
    return nn_give(n, 0, gx, gin, err) && (!gw || nn_give(n, 2, gw, gin, err));
}

static bool bw_embedding(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_embedding e;
    if (!ag_call_of(n, &call) ||
        !torch_embedding_args(h, call.argc, call.all, &call.kw, n->at, &e))
        return false;
    return nn_give(n, 1, torch_embedding_backward(&e, g, err), gin, err);
}

/* ---- conv2d, scaled_dot_product_attention ------------------------------------------- */

static const char *const conv_inputs[] = {"input", "weight", "bias", NULL};

static bool rec_conv(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                     val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, conv_inputs);
    return true;
}

static bool bw_conv(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_conv c;
    tensor *gx, *gw, *gb;
    if (!ag_call_of(n, &call) || !torch_conv_args(h, call.argc, call.all, &call.kw, n->at, &c) ||
        !torch_conv_backward(&c, g, &gx, &gw, &gb, err))
        return false;
    return nn_give(n, 0, gx, gin, err) && nn_give(n, 1, gw, gin, err) &&
           (!gb || nn_give(n, 2, gb, gin, err));
}

static const char *const sdpa_inputs[] = {"query", "key", "value", NULL};

static bool rec_sdpa(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                     val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, sdpa_inputs);
    return true;
}

static bool bw_sdpa(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_sdpa s;
    tensor *gq, *gk, *gv;
    if (!ag_call_of(n, &call) || !torch_sdpa_args(h, call.argc, call.all, &call.kw, n->at, &s) ||
        !torch_sdpa_backward(&s, g, &gq, &gk, &gv, err))
        return false;
    return nn_give(n, 0, gq, gin, err) && nn_give(n, 1, gk, gin, err) &&
           nn_give(n, 2, gv, gin, err);
}

static const char *const embedding_inputs[] = {"input", "weight", NULL};

static bool rec_embedding(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                          val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, embedding_inputs);
    return true;
}

/* ---- group_norm ------------------------------------------------------------------------ */

static const char *const gn_inputs[] = {"input", "num_groups", "weight", "bias", NULL};

static bool rec_gn(host *h, ag_node *n, int argc, const val *all, const val_kwargs *kw,
                   val result, src_span at)
{
    (void)h, (void)result, (void)at;
    nn_record(n, argc, all, kw, gn_inputs);
    return true;
}

static bool bw_gn(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_gn gn;
    tensor *gx, *gw, *gb;
    if (!ag_call_of(n, &call) || !torch_gn_args(h, call.argc, call.all, &call.kw, n->at, &gn) ||
        !torch_gn_backward(&gn, g, &gx, &gw, &gb, err))
        return false;
    return nn_give(n, 0, gx, gin, err) && (!gw || nn_give(n, 2, gw, gin, err)) &&
           (!gb || nn_give(n, 3, gb, gin, err));
}

static bool bw_bce(host *h, ag_node *n, const tensor *g, tensor **gin, char *err)
{
    ag_call call;
    torch_bce b;
    tensor *gx, *gy;
    if (!ag_call_of(n, &call) || !torch_bce_args(h, call.argc, call.all, &call.kw, n->at, &b) ||
        !torch_bce_backward(&b, g, &gx, &gy, err))
        return false;
    return nn_give(n, 0, gx, gin, err) && nn_give(n, 1, gy, gin, err);
}

const ag_formula ag_formulas_nn[] = {
    {"binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", rec_two_kept,
     bw_bce},
    {"group_norm", "NativeGroupNormBackward0", rec_gn, bw_gn},
    {"cross_entropy", "NllLossBackward0", rec_ce, bw_ce},
    {"nll_loss", "NllLossBackward0", rec_ce, bw_ce},
    {"mse_loss", "MseLossBackward0", rec_two_kept, bw_mse},
    {"kl_div", "KlDivBackward0", rec_kl, bw_kl},
    {"rms_norm", "MulBackward0", rec_rms, bw_rms},
    {"embedding", "EmbeddingBackward0", rec_embedding, bw_embedding},
    {"conv2d", "ConvolutionBackward0", rec_conv, bw_conv},
    {"scaled_dot_product_attention", "ScaledDotProductFlashAttentionForCpuBackward0", rec_sdpa,
     bw_sdpa},
    {NULL, NULL, NULL, NULL},
};
