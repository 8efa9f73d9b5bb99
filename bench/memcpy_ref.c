/* memcpy_ref.c - the memcpy reference of bench/run: the time one memcpy
 * of BYTES bytes takes (the best of half a second of copies, both buffers
 * touched first), so that tritsim's copy benchmark can be quoted as a
 * share of what the machine's memcpy moves.
 *
 *   bench/memcpy_ref [BYTES]      prints "ms<TAB>GB/s" (default 2^26 bytes) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_ref.h"

typedef struct memcpy_ref_bufs {
    char *src, *dst;
    size_t bytes;
} memcpy_ref_bufs;

static void memcpy_ref_copy(void *arg, int rep)
{
    memcpy_ref_bufs *m = arg;
    memcpy(m->dst, m->src, m->bytes);
    m->src[rep % 64] ^= m->dst[m->bytes - 1 - (size_t)(rep % 64)];   /* keep the copies */
}

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)1 << 26;
    char *src = malloc(bytes), *dst = malloc(bytes);
    if (!bytes || !src || !dst) {
        fprintf(stderr, "memcpy_ref: cannot allocate 2 x %zu bytes\n", bytes);
        return 1;
    }
    memset(src, 1, bytes);
    memset(dst, 2, bytes);
    /* the best of at least half a second of copies (and 10), as the
     * benchmarks time their launches */
    memcpy_ref_bufs m = {src, dst, bytes};
    double best = bench_best(10, memcpy_ref_copy, &m);
    printf("%.3f\t%.2f\n", best * 1e3, (double)bytes / best / 1e9);
    free(src);
    free(dst);
    return 0;
}
