/* nvrtc_test.c - NVRTC for the emitter's unit tests (nvrtc_test.h). */
#include "nvrtc_test.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_cache.h"
#include "strbuf.h"

const cuda_nvrtc *nvrtc_test_load(void)
{
    strbuf why = {0};
    const cuda_nvrtc *rtc = cuda_nvrtc_load(&why);
    strbuf_free(&why);
    return rtc;
}

bool nvrtc_test_compile(const cuda_nvrtc *rtc, const char *src, const char *name, char **log)
{
    char arch[32];
    const char *opts[9];
    cuda_build_options(90, arch, opts);
    int n = 0;
    while (opts[n])
        n++;
    opts[n++] = "--Ofast-compile=max";
    *log = NULL;
    nvrtcProgram p = NULL;
    nvrtcResult rc = rtc->nvrtcCreateProgram(&p, src, name, 0, NULL, NULL);
    if (rc == NVRTC_SUCCESS)
        rc = rtc->nvrtcCompileProgram(p, n, opts);
    size_t size = 0;
    if (p && rtc->nvrtcGetProgramLogSize(p, &size) == NVRTC_SUCCESS && size > 1) {
        *log = calloc(1, size + 1);
        if (*log)
            rtc->nvrtcGetProgramLog(p, *log);
    }
    /* quiet: nothing but blank lines and ptxas's remarks ("ptxas info",
     * e.g. --Ofast-compile's note that it serialized wgmma instructions,
     * which the backend's own compile, without it, does not make) */
    bool quiet = true;
    for (const char *l = *log; l && *l && quiet;) {
        size_t len = strcspn(l, "\n");
        quiet = strspn(l, " \r\t") >= len || strncmp(l, "ptxas info", 10) == 0;
        l += len + (l[len] == '\n');
    }
    if (quiet) {
        free(*log);
        *log = NULL;
    }
    if (p)
        rtc->nvrtcDestroyProgram(&p);
    return rc == NVRTC_SUCCESS && quiet;
}
