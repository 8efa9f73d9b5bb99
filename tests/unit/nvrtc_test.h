/* nvrtc_test.h - for the emitter's unit tests: compile a generated kernel
 * with NVRTC the way the CUDA backend does (cuda_api's loader,
 * cuda_build_options for sm_90), plus --Ofast-compile=max to keep the
 * tests quick (the same diagnostics, less optimisation). */
#ifndef TRITSIM_NVRTC_TEST_H
#define TRITSIM_NVRTC_TEST_H

#include <stdbool.h>

#include "cuda_api.h"

/* NVRTC, or NULL when it cannot be loaded (the caller skips). */
const cuda_nvrtc *nvrtc_test_load(void);

/* Does src compile with no diagnostic?  *log gets NVRTC's log when it is
 * not empty (the caller frees it), else NULL. */
bool nvrtc_test_compile(const cuda_nvrtc *rtc, const char *src, const char *name, char **log);

#endif
