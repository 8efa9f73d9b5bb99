/* argparsemod.h - the argparse module of .tk programs: a subset of
 * Python's argparse (ArgumentParser, add_argument, parse_args, Namespace)
 * enough for the command lines of tutorial scripts. */
#ifndef TRITSIM_ARGPARSEMOD_H
#define TRITSIM_ARGPARSEMOD_H

#include "host.h"

/* Register argparse with h. */
void argparse_init(host *h);

#endif
