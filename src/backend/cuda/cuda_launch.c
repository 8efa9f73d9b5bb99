/* cuda_launch.c - the CUDA backend's compile and launch.  Until the
 * emitter (cgen.c) is part of the build, compile says so: no kernel runs. */
#include "cuda_impl.h"

#include <stdlib.h>

backend_kernel *cuda_compile(backend_dev *dev, const ir_kernel *ir, const src_file *file,
                             diag_sink *diag)
{
    (void)dev;
    src_span sp = ir->ncode > 0 && ir->code[0].at ? ir->code[0].at->span : (src_span){0};
    diag_report(diag, DIAG_ERROR, file, sp,
                "the CUDA backend cannot compile kernels yet: its code generator is not "
                "part of this build");
    return NULL;
}

bool cuda_launch(backend_dev *dev, backend_kernel *k, const backend_launch *L)
{
    (void)dev, (void)k, (void)L;
    return false;
}

void cuda_kernel_free(backend_kernel *k)
{
    free(k);
}

void cuda_kernels_close(cuda_dev *d)
{
    (void)d;
}
