/* cpu_staged.h - "cpu-staged", a test double of a GPU backend (backend.h,
 * registered only when TRITSIM_TEST_BACKENDS=1): the CPU executor running
 * on a separate copy of each buffer, kept through backend_buffer as a GPU
 * backend keeps its device copies, so that `make check` tests the host
 * side's coherence protocol (tensor.h) without a GPU. */
#ifndef TRITSIM_CPU_STAGED_H
#define TRITSIM_CPU_STAGED_H

#include "backend.h"

extern const backend cpu_staged_backend;

#endif
