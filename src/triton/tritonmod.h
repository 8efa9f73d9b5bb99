/* tritonmod.h - the triton, triton.language (tl), triton.language.math and
 * triton_util modules of .tk programs. */
#ifndef TRITSIM_TRITONMOD_H
#define TRITSIM_TRITONMOD_H

#include "host.h"

/* Register the modules with the host. */
void tritonmod_init(host *h);

#endif
