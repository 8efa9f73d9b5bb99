/* inspectmod.h - the inspect module of .tk programs: currentframe() and
 * getfile(), what programs use to find the file they run from. */
#ifndef TRITSIM_INSPECTMOD_H
#define TRITSIM_INSPECTMOD_H

#include "host.h"

/* Register inspect with h. */
void inspect_init(host *h);

#endif
