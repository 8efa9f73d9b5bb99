/* hip_backend.h - the HIP backend's table (backend.h): kernels emitted as
 * HIP C++ by cgen (cgen.h, the HIP dialect), compiled by hiprtc for the
 * device's own architecture (cached on disk, cuda_cache.h) and launched
 * through HIP's module API, all loaded with dlopen (hip_api.h) and driven
 * by the CUDA backend's driver-API core (cuda_impl.h). */
#ifndef TRITSIM_HIP_BACKEND_H
#define TRITSIM_HIP_BACKEND_H

#include "backend.h"

extern const backend hip_backend;

#endif
