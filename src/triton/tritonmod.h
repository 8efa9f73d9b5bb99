/* tritonmod.h - the triton, triton.language (tl), triton.language.math,
 * triton_util and pdb modules of .tk programs. */
#ifndef TRITSIM_TRITONMOD_H
#define TRITSIM_TRITONMOD_H

#include "host.h"

/* Register triton and its submodules (triton.language, triton.testing,
 * triton.runtime, ...) with the host. */
void tritonmod_init(host *h);
/* Register triton_util (the lecture's helpers: cdiv, print_if,
 * breakpoint_if, ...). */
void tritonmod_util_init(host *h);
/* Register pdb (set_trace: in host code a warning that tritsim's debugger
 * stops in kernels). */
void tritonmod_pdb_init(host *h);

#endif
