/* test_cuda.c - unit tests of the CUDA backend's parts that need no GPU:
 * SHA-256 (the cache's hash), the loader's messages when a library is
 * missing (TRITSIM_LIBCUDA / TRITSIM_LIBNVRTC point at files that do not
 * exist), the disk cache (key, write, read back, corrupt entries ignored,
 * off switch) and, where the CUDA toolkit's NVRTC is installed, a kernel
 * compiled to a cubin and found in the cache the second time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_api.h"
#include "cuda_cache.h"
#include "sha256.h"
#include "tap.h"

static void test_sha256(void)
{
    /* FIPS 180-4's examples */
    unsigned char d[32];
    char hex[65];
    sha256("abc", 3, d);
    sha256_hex(d, hex);
    TAP_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
               "sha256(\"abc\")");
    sha256("", 0, d);
    sha256_hex(d, hex);
    TAP_STR_EQ(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
               "sha256 of nothing");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256(two, strlen(two), d);
    sha256_hex(d, hex);
    TAP_STR_EQ(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
               "sha256 of a two-block message");
    /* fed in pieces, across block boundaries */
    static char mil[1000];
    memset(mil, 'a', sizeof mil);
    sha256_ctx c;
    sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        sha256_update(&c, mil, sizeof mil);
    sha256_final(&c, d);
    sha256_hex(d, hex);
    TAP_STR_EQ(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
               "sha256 of a million 'a', fed 1000 at a time");
}

static void test_loader(void)
{
    setenv("TRITSIM_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("TRITSIM_LIBNVRTC", "/nonexistent/libnvrtc.so.13", 1);
    cuda_api_reset();
    strbuf why = {0};
    TAP_OK(cuda_driver_load(&why) == NULL, "no driver at TRITSIM_LIBCUDA");
    TAP_OK(strstr(strbuf_cstr(&why), "the NVIDIA driver's CUDA library cannot be loaded "
                  "(/nonexistent/libcuda.so.1: ") == strbuf_cstr(&why),
           "the reason names the file");
    TAP_OK(strstr(strbuf_cstr(&why), "install the NVIDIA driver (it provides "
                  "libcuda.so.1) on a machine with an NVIDIA GPU, or unset TRITSIM_LIBCUDA"),
           "and says what to install or do");
    tap_diag_text("why", strbuf_cstr(&why));
    strbuf_clear(&why);
    TAP_OK(cuda_driver_load(&why) == NULL && strstr(strbuf_cstr(&why), "cannot be loaded"),
           "a second load gives the same answer");
    strbuf_clear(&why);
    TAP_OK(cuda_nvrtc_load(&why) == NULL, "no NVRTC at TRITSIM_LIBNVRTC");
    TAP_STR_EQ(strbuf_cstr(&why),
               "NVRTC (the CUDA runtime compiler) is not installed: tried "
               "/nonexistent/libnvrtc.so.13; install the CUDA toolkit (its NVRTC library, e.g. "
               "the cuda-nvrtc package), or set CUDA_HOME to where it is, or unset "
               "TRITSIM_LIBNVRTC", "its reason lists what was tried");
    strbuf_clear(&why);
    /* a library that exists but is not NVRTC: libc */
    setenv("TRITSIM_LIBNVRTC", "libc.so.6", 1);
    cuda_api_reset();
    TAP_OK(cuda_nvrtc_load(&why) == NULL &&
           strstr(strbuf_cstr(&why), "NVRTC (the CUDA runtime compiler) is unusable: "
                  "libc.so.6 has no nvrtcVersion"), "a library without NVRTC's symbols");
    tap_diag_text("why", strbuf_cstr(&why));
    strbuf_free(&why);
    unsetenv("TRITSIM_LIBCUDA");
    unsetenv("TRITSIM_LIBNVRTC");
    cuda_api_reset();
}

static bool write_file(const char *path, const char *bytes, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return false;
    bool ok = fwrite(bytes, 1, n, fp) == n;
    return fclose(fp) == 0 && ok;
}

static void test_cache(const char *tmp)
{
    strbuf dir = {0};
    setenv("TRITSIM_CACHE_DIR", "/some/where", 1);
    TAP_OK(cuda_cache_dir(&dir) && !strcmp(strbuf_cstr(&dir), "/some/where"),
           "TRITSIM_CACHE_DIR names the folder");
    unsetenv("TRITSIM_CACHE_DIR");
    strbuf_clear(&dir);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    TAP_OK(cuda_cache_dir(&dir) && !strcmp(strbuf_cstr(&dir), "/xdg/tritsim"),
           "else $XDG_CACHE_HOME/tritsim");
    unsetenv("XDG_CACHE_HOME");
    strbuf_clear(&dir);
    setenv("HOME", "/home/h", 1);
    TAP_OK(cuda_cache_dir(&dir) && !strcmp(strbuf_cstr(&dir), "/home/h/.cache/tritsim"),
           "else ~/.cache/tritsim");
    setenv("TRITSIM_NO_DISK_CACHE", "1", 1);
    TAP_OK(!cuda_cache_dir(&dir), "TRITSIM_NO_DISK_CACHE=1 turns it off");
    unsetenv("TRITSIM_NO_DISK_CACHE");

    const char *p1[] = {"src", "arch 90"}, *p2[] = {"src", "arch 80"},
               *p3[] = {"srcarch 90", ""};
    char k1[65], k1b[65], k2[65], k3[65];
    cuda_cache_key(p1, 2, k1);
    cuda_cache_key(p1, 2, k1b);
    cuda_cache_key(p2, 2, k2);
    cuda_cache_key(p3, 2, k3);
    TAP_OK(strlen(k1) == 64 && !strcmp(k1, k1b), "a key is 64 hex digits, the same each time");
    TAP_OK(strcmp(k1, k2) && strcmp(k1, k3), "a different part, or the same text split "
           "otherwise, gives another key");

    char cdir[512];
    snprintf(cdir, sizeof cdir, "%s/a/b", tmp);
    strbuf got = {0};
    TAP_OK(!cuda_cache_get(cdir, k1, &got), "a missing entry is a miss");
    static const char cubin[] = "\177ELF\0binary\0bytes";
    TAP_OK(cuda_cache_put(cdir, k1, cubin, sizeof cubin), "an entry is written (the folder "
           "made with its parents)");
    TAP_OK(cuda_cache_get(cdir, k1, &got) && got.len == sizeof cubin &&
           !memcmp(got.data, cubin, sizeof cubin), "and read back byte for byte");
    char path[700];
    snprintf(path, sizeof path, "%s/%s.cubin", cdir, k1);
    struct stat st;
    TAP_OK(stat(path, &st) == 0 && st.st_size == 48 + (off_t)sizeof cubin,
           "as <key>.cubin: a 48-byte header and the cubin");

    /* corrupt it: a flipped byte of the cubin, a truncated file, garbage */
    FILE *fp = fopen(path, "r+b");
    if (fp) {
        fseek(fp, 50, SEEK_SET);
        fputc('X', fp);
        fclose(fp);
    }
    strbuf_clear(&got);
    TAP_OK(!cuda_cache_get(cdir, k1, &got), "a changed byte fails the checksum: a miss");
    TAP_OK(write_file(path, "TKCUBIN1", 8) && !cuda_cache_get(cdir, k1, &got),
           "a truncated entry is a miss");
    TAP_OK(write_file(path, "hello, world, this is not a cubin entry at all, no no no", 56) &&
           !cuda_cache_get(cdir, k1, &got), "garbage is a miss");
    TAP_OK(cuda_cache_put(cdir, k1, cubin, sizeof cubin) && cuda_cache_get(cdir, k1, &got) &&
           got.len == sizeof cubin, "and is rewritten by the next put");
    snprintf(path, sizeof path, "%s/%s.tmp.%ld", cdir, k1, (long)getpid());
    TAP_OK(stat(path, &st) != 0, "no temporary file is left behind");
    TAP_OK(!cuda_cache_put("/proc/no/such/dir", k1, cubin, sizeof cubin),
           "an unwritable folder: put says so (the caller goes on)");
    strbuf_free(&got);
    strbuf_free(&dir);
}

/* The NVRTC step, where the toolkit is installed. */
static void test_nvrtc(const char *tmp)
{
    strbuf why = {0};
    const cuda_nvrtc *rtc = cuda_nvrtc_load(&why);
    if (!rtc) {
        /* TAP: a skipped check is an "ok" with a SKIP directive */
        TAP_OK(true, "# SKIP NVRTC is not installed: %s", strbuf_cstr(&why));
        strbuf_free(&why);
        return;
    }
    char cdir[512];
    snprintf(cdir, sizeof cdir, "%s/nvrtc", tmp);
    setenv("TRITSIM_CACHE_DIR", cdir, 1);
    static const char src[] =
        "extern \"C\" __global__ void tk_kernel(float *x, int n)\n"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 2.0f + 1.0f; }\n";
    cuda_build b = {.src = src, .arch = 90, .driver_version = 13000};
    TAP_OK(cuda_build_cubin(rtc, &b, &why), "NVRTC %d.%d compiles a kernel for sm_90",
           rtc->major, rtc->minor);
    TAP_OK(!b.from_cache && b.cubin.len > 4 && !memcmp(b.cubin.data, "\177ELF", 4),
           "into a cubin (an ELF file), compiled");
    cuda_build b2 = {.src = src, .arch = 90, .driver_version = 13000};
    TAP_OK(cuda_build_cubin(rtc, &b2, &why) && b2.from_cache && b2.cubin.len == b.cubin.len &&
           !memcmp(b2.cubin.data, b.cubin.data, b.cubin.len),
           "the second time it comes from the disk cache, the same bytes");
    cuda_build b3 = {.src = src, .arch = 90, .driver_version = 13010};
    TAP_OK(cuda_build_cubin(rtc, &b3, &why) && !b3.from_cache,
           "another driver version is another key");
    setenv("TRITSIM_NO_DISK_CACHE", "1", 1);
    cuda_build b4 = {.src = src, .arch = 90, .driver_version = 13000};
    TAP_OK(cuda_build_cubin(rtc, &b4, &why) && !b4.from_cache,
           "with TRITSIM_NO_DISK_CACHE=1 it compiles again");
    unsetenv("TRITSIM_NO_DISK_CACHE");
    cuda_build bad = {.src = "__global__ void f() { int x = ; }\n", .arch = 90};
    strbuf_clear(&why);
    TAP_OK(!cuda_build_cubin(rtc, &bad, &why), "a source NVRTC refuses fails");
    TAP_OK(strstr(strbuf_cstr(&bad.log), "expected an expression") != NULL &&
           strstr(strbuf_cstr(&why), "nvrtcCompileProgram failed"),
           "with NVRTC's log and the failing call");
    tap_diag_text("log", strbuf_cstr(&bad.log));
    cuda_build_free(&b);
    cuda_build_free(&b2);
    cuda_build_free(&b3);
    cuda_build_free(&b4);
    cuda_build_free(&bad);
    strbuf_free(&why);
    unsetenv("TRITSIM_CACHE_DIR");
}

int main(void)
{
    char tmp[] = "/tmp/test_cuda.XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 99;
    }
    test_sha256();
    test_loader();
    test_cache(tmp);
    test_nvrtc(tmp);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return tap_done();
}
