/* teach.h - exercises for people learning to write kernels: the commands
 * `tritsim exercises` (the list, with the learner's progress),
 * `tritsim exercise NAME` (a starting file in the current folder) and
 * `tritsim check [--hint] FILE` (grading against a reference, or the next
 * hint).  The exercises' texts are embedded (src/teach/ex/); progress is
 * kept in .tritsim-progress in the exercise's folder.  doc/architecture.md
 * ("Exercises and tritsim check") says how the grader works. */
#ifndef TRITSIM_TEACH_H
#define TRITSIM_TEACH_H

#include <stdbool.h>
#include <stdio.h>

#include "host.h"

/* What makes a fresh host able to import torch, triton, ...: main.c's
 * modules_init (src/modules.c sits above this layer). */
typedef void (*teach_modules_fn)(host *h);

/* tritsim exercises: the list on out, with the progress recorded in the
 * current folder.  Returns 0. */
int teach_list(FILE *out);

/* tritsim exercise NAME: write NAME.tk into the current folder.  0 when
 * written, 1 when the file exists (it is left alone) or cannot be
 * written, 2 when there is no such exercise. */
int teach_start(const char *name, FILE *out);

/* tritsim check FILE: grade it (0 passed, 1 failed, 2 not an exercise or
 * unreadable); with hint, print the next hint instead. */
int teach_check(const char *path, bool hint, teach_modules_fn init, FILE *out);

#endif
