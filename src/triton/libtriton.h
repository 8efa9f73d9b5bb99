/* libtriton.h - triton._C.libtriton (libtriton.c): the cuBLASLt wrapper
 * Triton's tutorials call. */
#ifndef TRITSIM_LIBTRITON_H
#define TRITSIM_LIBTRITON_H

#include "host.h"

/* Register triton._C and its submodules, as triton's attribute _C. */
void libtriton_init(host *h, val triton);

#endif
