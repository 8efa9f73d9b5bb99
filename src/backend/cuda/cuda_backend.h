/* cuda_backend.h - the CUDA backend's table (backend.h): kernels emitted
 * as CUDA C++ by cgen (cgen.h), compiled by NVRTC for the device's own
 * architecture (cached on disk, cuda_cache.h) and launched through the
 * driver API, all loaded with dlopen (cuda_api.h). */
#ifndef TRITSIM_CUDA_BACKEND_H
#define TRITSIM_CUDA_BACKEND_H

#include "backend.h"

extern const backend cuda_backend;

#endif
