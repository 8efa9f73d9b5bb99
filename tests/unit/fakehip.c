/* fakehip.c - a stand-in for AMD's HIP runtime (libamdhip64) and hiprtc,
 * built by the tests as tests/unit/libfakehip.so, so that the HIP
 * backend's runtime path (loading, device queries, compiling, module
 * loading, launching, copies, error records, failures) runs in
 * `make check` on machines without an AMD GPU or ROCm.  tritsim loads it
 * through TRITSIM_LIBAMDHIP and TRITSIM_LIBHIPRTC (hip_api.h).
 *
 * What it does:
 *  - one device, "gfx90a:sramecc+:xnack-", wavefronts of 64, 64 KiB of
 *    shared memory; TRITSIM_FAKEHIP_DEVICES=0 makes it see none;
 *  - device memory is host memory (hipMalloc is malloc, a device address
 *    is the host address, copies are memcpy), so what the host uploads
 *    comes back unchanged;
 *  - hiprtc "compiles" by accepting the source: the code object is a
 *    magic line and the source; hipModuleLoadData takes that, or an ELF
 *    file (real hiprtc's output, where the tests use the real compiler);
 *  - a launch runs nothing: it checks its function and records its
 *    shape.  TRITSIM_FAKEHIP_FAULT=PC:ARG:LANE makes it write a failed
 *    access into the launch's runtime block (cgen_abi.h: tk_rt): program
 *    (1, 0, 0), lane LANE, instruction PC, at the first byte past pointer
 *    argument ARG's range, as a checked kernel's out-of-bounds store would;
 *  - TRITSIM_FAKEHIP_FAIL=NAME makes the entry point NAME fail
 *    (hipErrorOutOfMemory; hiprtcCompileProgram: a compile error with a
 *    log);
 *  - every call worth checking is a line in the file TRITSIM_FAKEHIP_LOG,
 *    when set ("hipMalloc 1200", "hipModuleLaunchKernel grid 2 1 1 block
 *    256 1 1 smem 0", ...).
 * The types follow HIP's ABI as hip_api.h declares it; nothing here
 * includes tritsim's headers but cgen_abi.h, the runtime block's layout. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen_abi.h"

#define EXPORT __attribute__((visibility("default")))

typedef int hipError_t;
enum {
    OK = 0,
    ERR_INVALID_VALUE = 1,
    ERR_OUT_OF_MEMORY = 2,
    ERR_NO_DEVICE = 100,
    ERR_INVALID_IMAGE = 200,
    ERR_NOT_FOUND = 500,
};

static const char fake_magic[] = "TKFAKEHIPCO\n";

static void fake_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fake_log(const char *fmt, ...)
{
    const char *path = getenv("TRITSIM_FAKEHIP_LOG");
    if (!path || !*path)
        return;
    FILE *fp = fopen(path, "a");
    if (!fp)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
    fputc('\n', fp);
    fclose(fp);
}

/* Should entry point name fail? */
static int fake_fails(const char *name)
{
    const char *f = getenv("TRITSIM_FAKEHIP_FAIL");
    return f && !strcmp(f, name);
}

/* ---- device --------------------------------------------------------------- */

EXPORT hipError_t hipInit(unsigned flags)
{
    (void)flags;
    return OK;
}

EXPORT hipError_t hipDriverGetVersion(int *v)
{
    *v = 50221153;
    return OK;
}

EXPORT hipError_t hipRuntimeGetVersion(int *v)
{
    *v = 50221153;
    return OK;
}

EXPORT hipError_t hipGetDeviceCount(int *n)
{
    const char *d = getenv("TRITSIM_FAKEHIP_DEVICES");
    *n = d && *d ? atoi(d) : 1;
    return *n ? OK : ERR_NO_DEVICE;
}

EXPORT hipError_t hipDeviceGet(int *dev, int ordinal)
{
    *dev = ordinal;
    return OK;
}

/* HIP 5.2's attribute numbers (hip_api.h) */
EXPORT hipError_t hipDeviceGetAttribute(int *value, int attr, int dev)
{
    (void)dev;
    switch (attr) {
    case 23: *value = 9; return OK;         /* compute capability major */
    case 61: *value = 0; return OK;         /* minor */
    case 63: *value = 104; return OK;       /* compute units (an MI210) */
    case 74: *value = 65536; return OK;     /* shared memory per block */
    case 87: *value = 64; return OK;        /* wavefront */
    default: return ERR_INVALID_VALUE;
    }
}

EXPORT hipError_t hipDeviceGetName(char *name, int len, int dev)
{
    (void)dev;
    snprintf(name, (size_t)len, "tritsim's stand-in AMD GPU");
    return OK;
}

/* HIP 5's hipDeviceProp_t: name at 0, gcnArchName at 396 */
EXPORT hipError_t hipGetDeviceProperties(void *prop, int dev)
{
    (void)dev;
    memset(prop, 0, 792);
    strcpy((char *)prop, "tritsim's stand-in AMD GPU");
    strcpy((char *)prop + 396, "gfx90a:sramecc+:xnack-");
    return OK;
}

static int fake_ctx;

EXPORT hipError_t hipDevicePrimaryCtxRetain(void **ctx, int dev)
{
    (void)dev;
    *ctx = &fake_ctx;
    fake_log("hipDevicePrimaryCtxRetain");
    return OK;
}

EXPORT hipError_t hipDevicePrimaryCtxRelease(int dev)
{
    (void)dev;
    fake_log("hipDevicePrimaryCtxRelease");
    return OK;
}

EXPORT hipError_t hipCtxSetCurrent(void *ctx)
{
    return ctx == &fake_ctx ? OK : ERR_INVALID_VALUE;
}

EXPORT hipError_t hipDeviceSynchronize(void) { return OK; }

/* ---- modules and launches ------------------------------------------------- */

typedef struct fake_module {
    char *code;
    int fn;                 /* its function, a handle */
} fake_module;

EXPORT hipError_t hipModuleLoadData(fake_module **mod, const void *image)
{
    const char *s = image;
    int elf = !memcmp(s, "\177ELF", 4);
    if (!elf && strncmp(s, fake_magic, strlen(fake_magic)))
        return ERR_INVALID_IMAGE;
    fake_module *m = calloc(1, sizeof *m);
    m->code = elf ? NULL : strdup(s + strlen(fake_magic));
    *mod = m;
    fake_log("hipModuleLoadData %s", elf ? "an ELF code object" : "the stand-in's code object");
    return OK;
}

EXPORT hipError_t hipModuleGetFunction(int **f, fake_module *mod, const char *name)
{
    /* the source must define it (an ELF object is trusted) */
    if (mod->code && !strstr(mod->code, name))
        return ERR_NOT_FOUND;
    *f = &mod->fn;
    fake_log("hipModuleGetFunction %s", name);
    return OK;
}

EXPORT hipError_t hipModuleUnload(fake_module *mod)
{
    free(mod->code);
    free(mod);
    fake_log("hipModuleUnload");
    return OK;
}

/* HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK 0, NUM_REGS 4 */
EXPORT hipError_t hipFuncGetAttribute(int *value, int attr, void *f)
{
    (void)f;
    *value = attr == 0 ? 1024 : attr == 4 ? 32 : 0;
    return OK;
}

/* The injected failure (TRITSIM_FAKEHIP_FAULT=PC:ARG:LANE) into the
 * launch's runtime block. */
static void fake_fault(void **params)
{
    const char *spec = getenv("TRITSIM_FAKEHIP_FAULT");
    int pc, arg;
    long long lane;
    if (!spec || sscanf(spec, "%d:%d:%lld", &pc, &arg, &lane) != 3)
        return;
    tk_rt *rt = *(tk_rt **)params[0];
    rt->err = (tk_err){.kind = TK_ERR_ACCESS, .pc = pc, .pid = {1, 0, 0}, .lane = lane,
                       .addr = rt->arg_hi[arg], .arg = arg};
    rt->err_key = ((uint64_t)1 << 26) | (uint64_t)lane;
    fake_log("fault written: instruction %d, argument %d, lane %lld", pc, arg, lane);
}

EXPORT hipError_t hipModuleLaunchKernel(int *f, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                        void *stream, void **params, void **extra)
{
    (void)stream;
    (void)extra;
    if (!f || !params)
        return ERR_INVALID_VALUE;
    fake_log("hipModuleLaunchKernel grid %u %u %u block %u %u %u smem %u", gx, gy, gz, bx, by,
             bz, smem);
    fake_fault(params);
    return OK;
}

/* ---- memory ------------------------------------------------------------------ */

EXPORT hipError_t hipMalloc(void **p, size_t bytes)
{
    if (fake_fails("hipMalloc"))
        return ERR_OUT_OF_MEMORY;
    *p = calloc(1, bytes);
    fake_log("hipMalloc %zu", bytes);
    return *p ? OK : ERR_OUT_OF_MEMORY;
}

EXPORT hipError_t hipFree(void *p)
{
    free(p);
    fake_log("hipFree");
    return OK;
}

EXPORT hipError_t hipMemcpyHtoD(void *dst, void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    fake_log("hipMemcpyHtoD %zu", bytes);
    return OK;
}

EXPORT hipError_t hipMemcpyDtoH(void *dst, void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    fake_log("hipMemcpyDtoH %zu", bytes);
    return OK;
}

EXPORT hipError_t hipMemcpyHtoDAsync(void *dst, void *src, size_t bytes, void *s)
{
    (void)s;
    memcpy(dst, src, bytes);
    return OK;
}

EXPORT hipError_t hipMemsetD8(void *dst, unsigned char v, size_t n)
{
    memset(dst, v, n);
    return OK;
}

EXPORT hipError_t hipMemsetD32Async(void *dst, int v, size_t n, void *s)
{
    (void)s;
    for (size_t i = 0; i < n; i++)
        memcpy((char *)dst + 4 * i, &v, 4);
    return OK;
}

EXPORT hipError_t hipHostMalloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    *p = calloc(1, bytes);
    return *p ? OK : ERR_OUT_OF_MEMORY;
}

EXPORT hipError_t hipHostGetDevicePointer(void **d, void *p, unsigned flags)
{
    (void)flags;
    *d = p;
    return OK;
}

EXPORT hipError_t hipHostFree(void *p)
{
    free(p);
    return OK;
}

/* ---- streams and events ------------------------------------------------------ */

static int fake_stream;

EXPORT hipError_t hipStreamCreateWithFlags(void **s, unsigned flags)
{
    (void)flags;
    *s = &fake_stream;
    return OK;
}

EXPORT hipError_t hipStreamSynchronize(void *s)
{
    (void)s;
    fake_log("hipStreamSynchronize");
    return OK;
}

EXPORT hipError_t hipStreamDestroy(void *s)
{
    (void)s;
    return OK;
}

EXPORT hipError_t hipEventCreateWithFlags(void **e, unsigned flags)
{
    (void)flags;
    *e = calloc(1, sizeof(double));
    return OK;
}

EXPORT hipError_t hipEventRecord(void *e, void *s)
{
    (void)s;
    *(double *)e += 1;      /* each record a millisecond later */
    return OK;
}

EXPORT hipError_t hipEventSynchronize(void *e)
{
    (void)e;
    return OK;
}

EXPORT hipError_t hipEventElapsedTime(float *ms, void *start, void *end)
{
    *ms = (float)(*(double *)end - *(double *)start);
    return OK;
}

EXPORT hipError_t hipEventDestroy(void *e)
{
    free(e);
    return OK;
}

EXPORT const char *hipGetErrorName(hipError_t r)
{
    switch (r) {
    case OK: return "hipSuccess";
    case ERR_INVALID_VALUE: return "hipErrorInvalidValue";
    case ERR_OUT_OF_MEMORY: return "hipErrorOutOfMemory";
    case ERR_NO_DEVICE: return "hipErrorNoDevice";
    case ERR_INVALID_IMAGE: return "hipErrorInvalidImage";
    case ERR_NOT_FOUND: return "hipErrorNotFound";
    default: return "hipErrorUnknown";
    }
}

EXPORT const char *hipGetErrorString(hipError_t r)
{
    return r == ERR_OUT_OF_MEMORY ? "out of memory" : "stand-in error";
}

/* ---- hiprtc -------------------------------------------------------------------- */

typedef struct fake_prog {
    char *src;
    char *code;             /* the magic and the source, once compiled */
    const char *log;
} fake_prog;

EXPORT int hiprtcVersion(int *major, int *minor)
{
    *major = 5;
    *minor = 2;
    return 0;
}

EXPORT int hiprtcCreateProgram(fake_prog **p, const char *src, const char *name, int nheaders,
                               const char **headers, const char **names)
{
    (void)headers;
    (void)names;
    if (nheaders)
        return 1;
    *p = calloc(1, sizeof **p);
    (*p)->src = strdup(src);
    const char *w = strstr(src, "amdgpu_waves_per_eu(");
    if (strstr(src, "// tritsim-test: hand-edited"))
        fake_log("hiprtcCreateProgram %s hand-edited", name);
    else if (w)
        fake_log("hiprtcCreateProgram %s waves_per_eu %d", name,
                 atoi(w + strlen("amdgpu_waves_per_eu(")));
    else
        fake_log("hiprtcCreateProgram %s", name);
    return 0;
}

EXPORT int hiprtcCompileProgram(fake_prog *p, int nopts, const char **opts)
{
    char line[512] = "hiprtcCompileProgram";
    for (int i = 0; i < nopts; i++)
        if (strlen(line) + strlen(opts[i]) + 2 < sizeof line) {
            strcat(line, " ");
            strcat(line, opts[i]);
        }
    fake_log("%s", line);
    if (fake_fails("hiprtcCompileProgram")) {
        p->log = "tk_kernel.hip:1:1: error: the stand-in refuses this source\n";
        return 6;           /* HIPRTC_ERROR_COMPILATION */
    }
    size_t n = strlen(fake_magic) + strlen(p->src) + 1;
    p->code = malloc(n);
    snprintf(p->code, n, "%s%s", fake_magic, p->src);
    return 0;
}

EXPORT int hiprtcGetProgramLogSize(fake_prog *p, size_t *n)
{
    *n = p->log ? strlen(p->log) + 1 : 1;
    return 0;
}

EXPORT int hiprtcGetProgramLog(fake_prog *p, char *log)
{
    strcpy(log, p->log ? p->log : "");
    return 0;
}

EXPORT int hiprtcGetCodeSize(fake_prog *p, size_t *n)
{
    *n = p->code ? strlen(p->code) + 1 : 0;
    return 0;
}

EXPORT int hiprtcGetCode(fake_prog *p, char *code)
{
    if (!p->code)
        return 1;
    memcpy(code, p->code, strlen(p->code) + 1);
    return 0;
}

EXPORT int hiprtcDestroyProgram(fake_prog **p)
{
    free((*p)->src);
    free((*p)->code);
    free(*p);
    *p = NULL;
    return 0;
}

EXPORT const char *hiprtcGetErrorString(int r)
{
    return r == 6 ? "HIPRTC_ERROR_COMPILATION" : r ? "HIPRTC_ERROR" : "HIPRTC_SUCCESS";
}
