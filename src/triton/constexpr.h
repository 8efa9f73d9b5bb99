/* constexpr.h - tl.constexpr on the host (constexpr.c): Triton's wrapper
 * of a compile-time value, as module constants and kernel arguments. */
#ifndef TRITSIM_CONSTEXPR_H
#define TRITSIM_CONSTEXPR_H

#include "host.h"

/* The class tl.constexpr: calling it makes a constexpr object. */
val constexpr_class_new(void);
bool constexpr_is_class(val v);

/* The value a constexpr object wraps (borrowed), or VAL_MISSING when v is
 * not one. */
val constexpr_value(val v);

#endif
