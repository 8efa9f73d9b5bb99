/* blas.c - OpenBLAS set to one thread (see blas.h).
 *
 * Linked statically, OpenBLAS reads OPENBLAS_NUM_THREADS in a constructor
 * and starts its thread pool there, before main: one thread per core, which
 * cost a 16-core machine a millisecond or more of every tritsim start-up.
 * A constructor of higher priority runs first and sets the variable to 1,
 * so no pool is started.  Linked as a shared library, OpenBLAS's
 * constructor runs before any of ours; blas_ready then sets one thread and
 * stops the pool it started. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include "blas.h"

#include <pthread.h>
#include <stdlib.h>

#include <cblas.h>

__attribute__((constructor(101))) static void blas_before_openblas(void)
{
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
}

#ifdef OPENBLAS_VERSION
int blas_thread_shutdown_(void);
#endif

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

static void blas_one_thread(void)
{
#ifdef OPENBLAS_VERSION
    openblas_set_num_threads(1);
    blas_thread_shutdown_();
#endif
}

void blas_ready(void)
{
    pthread_once(&blas_once, blas_one_thread);
}
