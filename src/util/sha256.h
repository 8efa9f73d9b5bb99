/* sha256.h - SHA-256 (FIPS 180-4), for keys of on-disk caches and checks
 * of what they hold: incremental (init, update, final) or in one call,
 * with the digest as 32 bytes or 64 lowercase hex digits. */
#ifndef TRITSIM_SHA256_H
#define TRITSIM_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t bytes;         /* fed so far */
    unsigned char block[64];
    size_t used;            /* bytes of block filled */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);
void sha256_final(sha256_ctx *c, unsigned char digest[32]);

/* The digest of data in one call. */
void sha256(const void *data, size_t len, unsigned char digest[32]);

/* digest as 64 hex digits and a NUL. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
