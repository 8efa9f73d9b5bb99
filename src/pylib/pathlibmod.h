/* pathlibmod.h - the pathlib module of .tk programs: pathlib.Path (a
 * PosixPath) with its pure path operations and the queries of the file
 * system a program asks most (exists, is_file, is_dir, mkdir). */
#ifndef TRITSIM_PATHLIBMOD_H
#define TRITSIM_PATHLIBMOD_H

#include "host.h"

/* Register pathlib with h. */
void pathlib_init(host *h);

#endif
