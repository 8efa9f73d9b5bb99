/* modules.h - every module tritsim provides to .tk programs, registered
 * through one table (modules.c). */
#ifndef TRITSIM_MODULES_H
#define TRITSIM_MODULES_H

#include "host.h"

/* Register every module with h: call once, after host_new and after
 * setting h->target (torch.version and the simulated GPU follow
 * --target). */
void modules_init(host *h);

#endif
