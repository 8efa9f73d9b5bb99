/* cuda_cache.c - CUDA source -> cubin through NVRTC, and the on-disk cache
 * of cubins in front of it (cuda_cache.h says where it lives and what an
 * entry looks like). */
#define _POSIX_C_SOURCE 200809L
#include "cuda_cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"

/* An entry: magic, the cubin's length (little-endian), its SHA-256, then
 * the cubin. */
static const char cuda_cache_magic[8] = {'T', 'K', 'C', 'U', 'B', 'I', 'N', '1'};
enum { CUDA_CACHE_HEADER = 8 + 8 + 32 };

bool cuda_cache_dir(strbuf *dir)
{
    const char *off = getenv("TRITSIM_NO_DISK_CACHE");
    if (off && *off && strcmp(off, "0") != 0)
        return false;
    const char *s = getenv("TRITSIM_CACHE_DIR");
    if (s && *s) {
        strbuf_puts(dir, s);
        return true;
    }
    s = getenv("XDG_CACHE_HOME");
    if (s && *s) {
        strbuf_printf(dir, "%s/tritsim", s);
        return true;
    }
    s = getenv("HOME");
    if (s && *s) {
        strbuf_printf(dir, "%s/.cache/tritsim", s);
        return true;
    }
    return false;
}

void cuda_cache_key(const char *const *parts, size_t nparts, char key[65])
{
    sha256_ctx c;
    sha256_init(&c);
    for (size_t i = 0; i < nparts; i++) {
        uint64_t n = strlen(parts[i]);
        unsigned char len[8];
        for (int j = 0; j < 8; j++)
            len[j] = (unsigned char)(n >> (8 * j));
        sha256_update(&c, len, sizeof len);
        sha256_update(&c, parts[i], (size_t)n);
    }
    unsigned char d[32];
    sha256_final(&c, d);
    sha256_hex(d, key);
}

static void cuda_cache_path(strbuf *p, const char *dir, const char *key, const char *ext)
{
    strbuf_printf(p, "%s/%s%s", dir, key, ext);
}

bool cuda_cache_get(const char *dir, const char *key, strbuf *out)
{
    strbuf path = {0};
    cuda_cache_path(&path, dir, key, ".cubin");
    FILE *fp = fopen(strbuf_cstr(&path), "rb");
    strbuf_free(&path);
    if (!fp)
        return false;
    unsigned char h[CUDA_CACHE_HEADER];
    bool ok = fread(h, 1, sizeof h, fp) == sizeof h && !memcmp(h, cuda_cache_magic, 8);
    uint64_t len = 0;
    for (int j = 0; ok && j < 8; j++)
        len |= (uint64_t)h[8 + j] << (8 * j);
    ok = ok && len > 0 && len <= CUDA_CACHE_MAX_ENTRY;
    char *data = ok ? malloc((size_t)len + 1) : NULL;
    ok = data && fread(data, 1, (size_t)len, fp) == len && fgetc(fp) == EOF;
    fclose(fp);
    if (ok) {
        unsigned char d[32];
        sha256(data, (size_t)len, d);
        ok = !memcmp(d, h + 16, 32);
    }
    if (ok)
        strbuf_putn(out, data, (size_t)len);
    free(data);
    return ok;
}

/* mkdir -p */
static bool cuda_cache_mkdirs(const char *dir)
{
    char *p = strdup(dir);
    if (!p)
        return false;
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = 0;
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                ok = false;
            *s = c;
            if (!c)
                break;
        }
    }
    free(p);
    return ok;
}

bool cuda_cache_put(const char *dir, const char *key, const void *data, size_t len)
{
    if (len == 0 || len > CUDA_CACHE_MAX_ENTRY || !cuda_cache_mkdirs(dir))
        return false;
    unsigned char h[CUDA_CACHE_HEADER];
    memcpy(h, cuda_cache_magic, 8);
    for (int j = 0; j < 8; j++)
        h[8 + j] = (unsigned char)((uint64_t)len >> (8 * j));
    sha256(data, len, h + 16);
    strbuf tmp = {0}, path = {0};
    char ext[48];
    snprintf(ext, sizeof ext, ".tmp.%ld", (long)getpid());
    cuda_cache_path(&tmp, dir, key, ext);
    cuda_cache_path(&path, dir, key, ".cubin");
    FILE *fp = fopen(strbuf_cstr(&tmp), "wb");
    bool ok = fp != NULL;
    if (fp) {
        ok = fwrite(h, 1, sizeof h, fp) == sizeof h && fwrite(data, 1, len, fp) == len;
        ok = fclose(fp) == 0 && ok;
    }
    if (ok)
        ok = rename(strbuf_cstr(&tmp), strbuf_cstr(&path)) == 0;
    if (!ok && fp)
        remove(strbuf_cstr(&tmp));
    strbuf_free(&tmp);
    strbuf_free(&path);
    return ok;
}

/* ---- NVRTC ------------------------------------------------------------------ */

void cuda_build_options(int arch, char archopt[32], const char *opts[8])
{
    /* sm_90a on Hopper: its wgmma instructions (cgen_wgmma.c) exist only
     * for the architecture itself, which is what the kernel runs on */
    snprintf(archopt, 32, "--gpu-architecture=sm_%d%s", arch, arch == 90 ? "a" : "");
    int n = 0;
    opts[n++] = archopt;
    opts[n++] = "-default-device";
    opts[n++] = "-std=c++17";
    opts[n++] = "-w";           /* generated code: unused helpers are normal */
    /* no contraction of a * b + c into an FMA: the CPU rounds each
     * operation (doc/ir.md 4.3) */
    opts[n++] = "--fmad=false";
    opts[n] = NULL;
}

/* "nvrtcWHAT failed: ..." (hiprtcWHAT for HIP's build) */
static void cuda_nvrtc_error(const cuda_nvrtc *rtc, const cuda_build *b, nvrtcResult r,
                             const char *what, strbuf *why)
{
    const char *s = rtc->nvrtcGetErrorString ? rtc->nvrtcGetErrorString(r) : NULL;
    strbuf_printf(why, "%s%s failed: %s", b->target ? "hiprtc" : "nvrtc", what,
                  s ? s : "unknown compiler error");
}

/* Compile with NVRTC, no cache. */
static bool cuda_nvrtc_compile(const cuda_nvrtc *rtc, cuda_build *b, const char *const *opts,
                               int nopts, strbuf *why)
{
    nvrtcProgram prog = NULL;
    nvrtcResult r = rtc->nvrtcCreateProgram(&prog, b->src, b->target ? "tk_kernel.hip"
                                            : "tk_kernel.cu", 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        cuda_nvrtc_error(rtc, b, r, "CreateProgram", why);
        return false;
    }
    r = rtc->nvrtcCompileProgram(prog, nopts, opts);
    bool ok = r == NVRTC_SUCCESS;
    if (!ok) {
        cuda_nvrtc_error(rtc, b, r, "CompileProgram", why);
        size_t n = 0;
        if (rtc->nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1) {
            char *log = malloc(n);
            if (log && rtc->nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
                strbuf_putn(&b->log, log, strnlen(log, n));
            free(log);
        }
    } else {
        size_t n = 0;
        r = rtc->nvrtcGetCUBINSize(prog, &n);
        char *bin = r == NVRTC_SUCCESS && n ? malloc(n) : NULL;
        if (bin && rtc->nvrtcGetCUBIN(prog, bin) == NVRTC_SUCCESS) {
            strbuf_putn(&b->cubin, bin, n);
        } else {
            cuda_nvrtc_error(rtc, b, r == NVRTC_SUCCESS ? 1 : r, b->target ? "GetCode" : "GetCUBIN",
                             why);
            ok = false;
        }
        free(bin);
    }
    rtc->nvrtcDestroyProgram(&prog);
    return ok;
}

bool cuda_build_cubin(const cuda_nvrtc *rtc, cuda_build *b, strbuf *why)
{
    char archopt[32];
    const char *nvrtc_opts[8];
    const char *const *opts = b->opts;
    if (!opts) {
        cuda_build_options(b->arch, archopt, nvrtc_opts);
        opts = nvrtc_opts;
    }
    int nopts = 0;
    while (opts[nopts] && nopts < 10)
        nopts++;
    /* the key: source, target, versions, options */
    char ver[160];
    if (b->target)
        snprintf(ver, sizeof ver, "target %.64s runtime %d rtc %d.%d", b->target,
                 b->driver_version, rtc->major, rtc->minor);
    else
        snprintf(ver, sizeof ver, "arch %d driver %d nvrtc %d.%d", b->arch, b->driver_version,
                 rtc->major, rtc->minor);
    const char *parts[12] = {b->src, ver};
    size_t np = 2;
    for (int i = 0; i < nopts; i++)
        parts[np++] = opts[i];
    char key[65];
    cuda_cache_key(parts, np, key);

    b->from_cache = false;
    strbuf dir = {0};
    bool cache = cuda_cache_dir(&dir);
    if (cache && cuda_cache_get(strbuf_cstr(&dir), key, &b->cubin)) {
        b->from_cache = true;
        strbuf_free(&dir);
        return true;
    }
    bool ok = cuda_nvrtc_compile(rtc, b, opts, nopts, why);
    if (ok && cache)
        cuda_cache_put(strbuf_cstr(&dir), key, b->cubin.data, b->cubin.len);
    strbuf_free(&dir);
    return ok;
}

void cuda_build_free(cuda_build *b)
{
    strbuf_free(&b->cubin);
    strbuf_free(&b->log);
}

bool cuda_build_into(const cuda_nvrtc *rtc, cuda_build *b, strbuf *image, strbuf *log,
                     bool *from_cache, strbuf *why)
{
    bool ok = cuda_build_cubin(rtc, b, why);
    if (ok)
        strbuf_putn(image, b->cubin.data, b->cubin.len);
    else
        strbuf_putn(log, b->log.data, b->log.len);
    *from_cache = b->from_cache;
    cuda_build_free(b);
    return ok;
}
