# drive_cross_entropy_loss.py - Unsloth's cross-entropy loss
# (unsloth/kernels/cross_entropy_loss.py): fast_cross_entropy_loss(logits,
# labels, logit_softcapping, logit_scaling), the mean over the labels that
# are not -100, forward and the gradient for the logits (its backward
# writes the gradient over the saved logits).  Cases: a plain small
# vocabulary, logit scaling with softcapping (Gemma 2, Cohere), ignored
# labels in bfloat16, and a vocabulary over 65536 (the chunked forward
# kernel).  Reference: torch.nn.functional.cross_entropy on float32 logits,
# with autograd.  Last line: RESULT ok | RESULT fail: <what differed>.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpus_check as cc

cc.use_project("unsloth_zoo")
cc.use_project("unsloth")

import torch
import torch.nn.functional as F

from unsloth.kernels.cross_entropy_loss import fast_cross_entropy_loss

DEVICE = "cuda"
TOL = {torch.float32: (1e-4, 1e-4), torch.bfloat16: (2e-2, 2e-2)}


def reference(logits, labels, softcap, scale):
    x = logits
    if scale:
        x = scale * x
    if softcap:
        x = softcap * torch.tanh(x / softcap)
    n = (labels != -100).sum()
    return F.cross_entropy(x.reshape(-1, x.shape[-1]), labels.reshape(-1),
                           ignore_index=-100, reduction="sum") / n


def case(name, batch, seq, vocab, dtype, softcap=0, scale=0, ignored=0):
    logits = torch.randn(batch, seq, vocab, device=DEVICE, dtype=dtype) * 2
    labels = torch.randint(0, vocab, (batch, seq), device=DEVICE)
    if ignored:
        labels[0, :ignored] = -100
    x32 = logits.detach().float().clone().requires_grad_(True)
    want = reference(x32, labels, softcap, scale)
    want.backward()

    x = logits.detach().clone().requires_grad_(True)
    got = fast_cross_entropy_loss(x, labels, logit_softcapping=softcap,
                                  logit_scaling=scale)
    cc.close_dtype(name + " loss", got.detach(), want.detach(), dtype, TOL)
    got.backward()
    cc.close_dtype(name + " dlogits", x.grad, x32.grad, dtype, TOL)


torch.manual_seed(3407)
case("plain", 2, 5, 1000, torch.float32)
case("scaled+softcapped", 2, 4, 777, torch.float32, softcap=10.0, scale=0.5)
case("ignored", 2, 6, 512, torch.bfloat16, ignored=3)
case("chunked", 1, 3, 65536 + 200, torch.float32)

cc.finish()
