/* cuda_impl.h - what the CUDA backend's files share (cuda_backend.c: the
 * table, device and timers; cuda_mem.c: device copies of host buffers
 * and the runtime block; cuda_launch.c: compile and launch). */
#ifndef TRITSIM_CUDA_IMPL_H
#define TRITSIM_CUDA_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "cgen.h"
#include "cuda_api.h"
#include "cuda_backend.h"

/* Launches are synchronous for now: each launch waits for its programs
 * and reads the runtime block back, so an error is reported at the launch
 * that made it.  Set to true once errors can be collected at sync. */
#define CUDA_ASYNC_LAUNCHES false

typedef struct cuda_kernel cuda_kernel;
typedef struct cuda_copy cuda_copy;
typedef struct cuda_timer cuda_timer;

/* The backend opened for one run. */
typedef struct cuda_dev {
    backend_dev base;
    const cuda_driver *cu;
    const cuda_nvrtc *rtc;
    CUdevice dev;
    CUcontext ctx;              /* the device's primary context */
    CUstream stream;
    int arch;                   /* compute capability * 10 */
    int driver_version;         /* 13000 = CUDA 13.0 */
    size_t max_smem;            /* dynamic shared memory a block may opt in to */
    char name[128];
    bool checked;               /* bounds checks in emitted kernels */
    cuda_kernel *kernels;       /* live kernel objects that hold modules */
    cuda_copy *copies;          /* live device copies of host buffers */
    cuda_timer *timers;         /* live timers */
    /* the runtime block (cgen_abi.h): tk_rt, arg_lo[], arg_hi[], print buffer */
    CUdeviceptr rt;
    size_t rt_bytes;
    size_t rt_nparams;          /* the arg arrays' room */
    size_t print_cap;
} cuda_dev;

/* A driver call's result: true on success, else false with "what: error"
 * in why. */
bool cuda_ok(const cuda_dev *d, CUresult r, const char *what, strbuf *why);

/* ---- cuda_mem.c ------------------------------------------------------------- */

/* The device address for a pointer argument (its buffer's device copy made
 * and uploaded as needed); false with why. */
bool cuda_mem_arg(cuda_dev *d, const backend_arg *a, CUdeviceptr *out, strbuf *why);

/* Mark every pointer argument's buffer as written on the device. */
void cuda_mem_written(cuda_dev *d, const ir_kernel *k, const backend_arg *args);

/* Download every dirty copy, then free every copy (close). */
void cuda_mem_close(cuda_dev *d);

/* The runtime block with room for nparams parameters, allocated or grown;
 * false with why. */
bool cuda_mem_rt(cuda_dev *d, size_t nparams, strbuf *why);

/* ---- cuda_launch.c ---------------------------------------------------------- */

backend_kernel *cuda_compile(backend_dev *dev, const ir_kernel *ir, const src_file *file,
                             diag_sink *diag);
bool cuda_launch(backend_dev *dev, backend_kernel *k, const backend_launch *L);
void cuda_kernel_free(backend_kernel *k);
/* Unload every kernel's modules (close); the kernel objects stay valid
 * for cuda_kernel_free. */
void cuda_kernels_close(cuda_dev *d);

#endif
