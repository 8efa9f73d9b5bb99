/* tabulatemod.h - the tabulate module of .tk programs: tabulate.tabulate()
 * in the package's "simple" and "plain" table formats. */
#ifndef TRITSIM_TABULATEMOD_H
#define TRITSIM_TABULATEMOD_H

#include "host.h"

/* Register tabulate with h. */
void tabulate_init(host *h);

#endif
