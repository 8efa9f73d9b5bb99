/* cuda_cache.h - the CUDA backend's compiler side, testable without a GPU:
 * CUDA source -> cubin through NVRTC, and the on-disk cache of cubins.
 *
 * The cache.  A folder of files named <key>.cubin, where key is the
 * SHA-256 (hex) of everything that decides the cubin: the source, the
 * target architecture, the driver's and NVRTC's versions and the compiler
 * options.  The folder is $TRITSIM_CACHE_DIR when set, else
 * $XDG_CACHE_HOME/tritsim, else ~/.cache/tritsim; TRITSIM_NO_DISK_CACHE=1
 * turns the cache off.  An entry holds a header (magic, length, SHA-256 of
 * the cubin) and the cubin; it is written to a temporary file in the same
 * folder and renamed into place, so a reader sees a whole entry or none.
 * An entry that cannot be read, or whose header or checksum is wrong, is a
 * miss: the cubin is compiled again and the entry rewritten.  Entries are
 * never larger than CUDA_CACHE_MAX_ENTRY. */
#ifndef TRITSIM_CUDA_CACHE_H
#define TRITSIM_CUDA_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda_api.h"
#include "strbuf.h"

enum { CUDA_CACHE_MAX_ENTRY = 64 << 20 };

/* The cache folder into dir (not created yet); false when the cache is
 * off (TRITSIM_NO_DISK_CACHE=1, or no folder can be named). */
bool cuda_cache_dir(strbuf *dir);

/* The key of a cubin: SHA-256 over every part, each with its length, as
 * 64 hex digits. */
void cuda_cache_key(const char *const *parts, size_t nparts, char key[65]);

/* The entry key in dir into out (appended); false when it is missing,
 * unreadable or corrupt. */
bool cuda_cache_get(const char *dir, const char *key, strbuf *out);

/* Write the entry (creating dir and its parents when needed), atomically;
 * false when it could not be written (the cache is a convenience: callers
 * go on without it). */
bool cuda_cache_put(const char *dir, const char *key, const void *data, size_t len);

/* What a compilation was and what came of it.  The HIP backend compiles
 * through the same code: hiprtc's API is NVRTC's under other names, so
 * its entry points fill a cuda_nvrtc table (hip_api.c), and it names its
 * own options and target. */
typedef struct cuda_build {
    const char *src;        /* the CUDA (HIP) C++ source */
    int arch;               /* compute capability * 10: 90 -> sm_90 */
    int driver_version;     /* cuDriverGetVersion's, part of the cache key */
    const char *const *opts;    /* NULL-ended compiler options; NULL: NVRTC's
                                   for arch (cuda_build_options) */
    const char *target;     /* with opts: the target's name in the cache key
                               ("gfx90a:sramecc+:xnack-") */
    /* out */
    strbuf cubin;
    strbuf log;             /* NVRTC's log when compilation failed */
    bool from_cache;
} cuda_build;

/* Compile b->src for b->arch into b->cubin, through the disk cache.  false
 * when NVRTC refused the source: b->log holds its message (and why when
 * NVRTC itself failed). */
bool cuda_build_cubin(const cuda_nvrtc *rtc, cuda_build *b, strbuf *why);

/* The NVRTC options every kernel is compiled with (for arch), NULL-ended;
 * they are part of the cache key. */
void cuda_build_options(int arch, char archopt[32], const char *opts[8]);

void cuda_build_free(cuda_build *b);

/* cuda_build_cubin, then the binary appended to image (or the compiler's
 * log to log), *from_cache set, and b freed. */
bool cuda_build_into(const cuda_nvrtc *rtc, cuda_build *b, strbuf *image, strbuf *log,
                     bool *from_cache, strbuf *why);

#endif
