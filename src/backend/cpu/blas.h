/* blas.h - how tritsim runs OpenBLAS: on one thread, without a pool of
 * its own.  Kernels already run one program per core on tritsim's pool,
 * so a BLAS call inside a program must not start threads, and OpenBLAS's
 * own idle threads would spin on the cores the pool needs. */
#ifndef TRITSIM_BLAS_H
#define TRITSIM_BLAS_H

/* Call before the first BLAS call (cheap after the first time). */
void blas_ready(void);

#endif
