/* torchmod.h - the torch module of .tk programs (torch, torch.cuda,
 * torch.nn, torch.nn.functional, torch.testing, torch.version).  The
 * tensors themselves are tensor.h; the functions live in torch_*.c. */
#ifndef TRITSIM_TORCHMOD_H
#define TRITSIM_TORCHMOD_H

#include "host.h"

/* Register torch and its submodules with h (call once, after host_new and
 * after h->backend is set: torch.version.hip follows --backend hip). */
void torch_init(host *h);

#endif
