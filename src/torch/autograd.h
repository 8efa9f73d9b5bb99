/* autograd.h - PyTorch's autograd for host tensors: requires_grad, .grad,
 * the graph of recorded operations (grad_fn nodes), backward(),
 * torch.autograd.Function, and the grad modes (torch.no_grad, ...).
 *
 * A tensor that requires grad is either a leaf (made by the program,
 * `requires_grad=True` or `x.requires_grad_()`), whose .grad backward()
 * fills, or the result of an operation recorded while grad mode was on,
 * whose grad_fn is the node that made it.  A node keeps what its backward
 * formula needs (detached views of its inputs or output, numbers) and
 * where its inputs came from.  Only operations on tensors that require
 * grad are recorded, and nothing under torch.no_grad().
 *
 * The torch module's functions are called through autograd_call, which
 * records them; operators (a + b, -a, a @ b) record through
 * autograd_record.  Operations without a backward formula are recorded
 * too, and backward() stops with an error naming them when it reaches
 * one.  The formulas are autograd_formulas.c's, autograd_ops.c's and
 * autograd_nn.c's (autograd_impl.h lists what each has; doc/language.md
 * lists them all), and torch.autograd.Function's backward. */
#ifndef TRITSIM_AUTOGRAD_H
#define TRITSIM_AUTOGRAD_H

#include "host.h"
#include "tensor.h"

/* Add torch.autograd (Function), torch.no_grad, torch.enable_grad,
 * torch.set_grad_enabled, torch.is_grad_enabled and torch.inference_mode
 * to module torch (and register torch.autograd). */
void autograd_init(host *h, val torch);

/* The val_cfunc behind every function of the torch module: the builtin
 * being called (h->calling) has the torch_fn as its data.  Calls it and
 * records the call in the graph when an argument requires grad. */
val autograd_call(host *h, val self, int argc, const val *argv, const val_kwargs *kw,
                  src_span at);

/* Record operator op ("add", "neg", "matmul", ...) applied to operands
 * (n of them) that made result (stolen); returns result, now with a
 * grad_fn when an operand requires grad and grad mode is on. */
val autograd_record(host *h, const char *op, val result, int n, const val *operands,
                    src_span at);

/* Before writing tensor target in place (x += y, x[i] = v, x.copy_(y)):
 * false after raising when autograd forbids it (target or one of the
 * others requires grad, outside torch.no_grad()). */
/* x[key] = value, recorded by autograd when x or value requires grad (a
 * CopySlices node); false after an error. */
bool autograd_setitem(host *h, val self, val key, val value, src_span at);
bool autograd_check_inplace(host *h, const char *op, val target, int n, const val *others,
                            src_span at);

/* Tensor attributes: requires_grad, grad, grad_fn, is_leaf (VAL_MISSING
 * for other names); setting requires_grad and grad. */
val autograd_getattr(host *h, val self, const char *name);
/* 1 set, 0 not an autograd attribute, -1 after raising. */
int autograd_setattr(host *h, val self, const char *name, val value, src_span at);

/* What repr(t) adds inside its parentheses: ", requires_grad=True" or
 * ", grad_fn=<AddBackward0>" (nothing for other tensors). */
void autograd_repr_suffix(const tensor *t, strbuf *out);

#endif
