/* autotune.h - triton.Config, @triton.autotune and @triton.heuristics: the
 * objects that wrap a @triton.jit kernel (or each other), choose meta
 * parameters at launch, and pass them to the wrapped kernel as keywords. */
#ifndef TRITSIM_AUTOTUNE_H
#define TRITSIM_AUTOTUNE_H

#include "host.h"
#include "val.h"

/* Add Config, autotune and heuristics to the triton module. */
void autotune_init(val triton);

#endif
