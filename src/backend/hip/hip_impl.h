/* hip_impl.h - what the HIP backend's files share: the HIP runtime as the
 * CUDA driver table (hip_driver.c), for the driver-API core of
 * cuda_impl.h that hip_backend.c's vendor plugs into. */
#ifndef TRITSIM_HIP_IMPL_H
#define TRITSIM_HIP_IMPL_H

#include "cuda_api.h"
#include "hip_api.h"

/* hipErrorInvalidValue, the adapters' answer to what HIP cannot do */
enum { HIP_ERROR_INVALID_VALUE = 1 };

/* rt's entry points as the CUDA driver's (one table: one runtime per
 * process). */
const cuda_driver *hip_driver_of(const hip_runtime *rt);

/* The HIP name of a driver call in messages ("cuMemAlloc" -> "hipMalloc"). */
const char *hip_call_name(const char *cu_name);

#endif
