/* test_backend.c - unit tests of the backend interface (backend.h): the
 * registry, a kernel compiled and launched through the CPU backend's
 * table, with the lifetimes the interface promises (a kernel object freed
 * after its backend was closed), the test double cpu-staged keeping its
 * own copy of a buffer as a GPU backend does, and the timing stamps on
 * the host's clock and on a backend's. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "hip_api.h"
#include "ir.h"
#include "irbuild.h"
#include "tap.h"

/* store_pid(z_ptr): z[pid] = pid, built by hand (irbuild.h):
 *     %0 = program_id 0        int32
 *     %1 = arg 0               pointer<int32>
 *     %2 = ptr_add %1, %0      pointer<int32>
 *     store %2, %0
 *     return */
static void build_store_pid(irb *b)
{
    irb_init(b, "store_pid");
    int pid = irb_pid(b, 0);
    int z = irb_arg(b, irb_param(b, "z_ptr", dtype_ptr_to(DTYPE_INT32)));
    irb_store(b, irb_ptr_add(b, z, pid), pid, -1);
    irb_emit(b, IR_RETURN, 0, -1, -1, -1, -1, 0);
}

static void test_registry(void)
{
    const backend *cpu = backend_find("cpu");
    TAP_OK(cpu != NULL, "backend_find finds the CPU backend");
    TAP_STR_EQ(cpu ? cpu->name : "", "cpu", "it is called cpu");
    const backend *cuda = backend_find("cuda");
    TAP_STR_EQ(cuda ? cuda->name : "", "cuda", "backend_find finds the CUDA backend");
    TAP_OK(cuda && cuda->timer_new && cuda->timer_record && cuda->timer_sync &&
           cuda->timer_elapsed_ms && cuda->timer_free, "which has timers");
    TAP_OK(!cpu || (!cpu->timer_new && !cpu->timer_free), "the CPU backend has none");
    const backend *hip = backend_find("hip");
    TAP_STR_EQ(hip ? hip->name : "", "hip", "backend_find finds the HIP backend");
    TAP_OK(hip && hip->timer_new && hip->defer && hip->launch == cuda->launch,
           "which has timers and the deferred mode, and launches as the CUDA backend does");
    TAP_OK(backend_find("opencl") == NULL, "an unknown name finds nothing");

    const backend *be = NULL;
    strbuf why = {0};
    TAP_INT_EQ(backend_select("cpu", &be, &why), BACKEND_OK, "the CPU backend can run here");
    TAP_OK(be == cpu && why.len == 0, "backend_select gives it, with no reason");
    setenv("TRITSIM_LIBAMDHIP", "/nonexistent/libamdhip64.so", 1);
    TAP_INT_EQ(backend_select("hip", &be, &why), BACKEND_UNAVAILABLE,
               "hip cannot run without the HIP runtime");
    TAP_OK(strstr(strbuf_cstr(&why), "the HIP runtime (ROCm's libamdhip64) is not installed: "
                  "tried /nonexistent/libamdhip64.so; install ROCm") == strbuf_cstr(&why),
           "and the reason says what is missing");
    unsetenv("TRITSIM_LIBAMDHIP");
    hip_api_reset();
    TAP_OK(be == NULL, "backend_select gives no backend then");
    strbuf_clear(&why);
    TAP_INT_EQ(backend_select("opencl", &be, &why), BACKEND_UNKNOWN, "opencl is unknown");
    strbuf_free(&why);
}

static void test_cpu_launch(void)
{
    irb b;
    build_store_pid(&b);
    static const char text[] = "pass\n";
    src_file *file = src_from_string("k.tk", text, strlen(text));
    diag_sink d;
    diag_sink_init(&d, stderr);

    const backend *be = backend_find("cpu");
    strbuf why = {0};
    backend_dev *dev = backend_open(be, &(backend_config){.threads = 2}, &why);
    TAP_OK(dev != NULL && dev->be == be, "open gives a state that knows its backend");
    backend_kernel *k = backend_compile(dev, &b.k, file, &d);
    TAP_OK(k != NULL && k->be == be, "compile gives a kernel object that knows its backend");

    int32_t z[8];
    for (int i = 0; i < 8; i++)
        z[i] = -1;
    backend_buffer buf = {.host = (unsigned char *)z, .size = sizeof z};
    backend_arg arg = {.value.u = (uint64_t)(uintptr_t)z, .numel = 8, .name = "z_ptr",
                       .buffer = &buf};
    backend_launch L = {.file = file, .grid = {5, 1, 1}, .rank = 1, .args = &arg,
                        .num_warps = 4, .num_stages = 3, .out = stdout, .diag = &d};
    TAP_OK(backend_run(dev, k, &L), "a launch of 5 programs succeeds");
    TAP_OK(z[0] == 0 && z[4] == 4 && z[5] == -1, "each program stored its id (z = %d %d %d)",
           z[0], z[4], z[5]);
    L.grid[0] = 8;
    TAP_OK(backend_run(dev, k, &L) && z[7] == 7, "a second launch reuses the kernel object");
    TAP_OK(backend_sync(dev, &d), "sync succeeds (CPU launches have ended already)");
    TAP_OK(buf.copy == NULL && buf.release == NULL && !buf.host_dirty && !buf.dev_dirty,
           "the CPU backend makes no device copy");
    backend_close(dev);
    backend_free(k);
    TAP_OK(true, "a kernel object is freed after its backend was closed");
    strbuf_free(&why);
    src_free(file);
}

/* cpu-staged: hidden without TRITSIM_TEST_BACKENDS=1; a launch works on
 * its copy, leaves the host bytes spoilt and dev_dirty set; download
 * brings the results back; host_dirty uploads host writes; both flags at
 * once is refused. */
static void test_staged(void)
{
    unsetenv("TRITSIM_TEST_BACKENDS");
    TAP_OK(backend_find("cpu-staged") == NULL, "cpu-staged is hidden without the variable");
    setenv("TRITSIM_TEST_BACKENDS", "1", 1);
    const backend *be = backend_find("cpu-staged");
    TAP_OK(be != NULL && !be->host_addresses, "TRITSIM_TEST_BACKENDS=1 shows cpu-staged, "
           "whose kernels do not see host addresses");
    if (!be)
        return;

    irb b;
    build_store_pid(&b);
    static const char text[] = "pass\n";
    src_file *file = src_from_string("k.tk", text, strlen(text));
    diag_sink d;
    diag_sink_init(&d, stderr);
    strbuf why = {0};
    backend_dev *dev = backend_open(be, &(backend_config){.threads = 2}, &why);
    backend_kernel *k = dev ? backend_compile(dev, &b.k, file, &d) : NULL;
    TAP_OK(k != NULL, "cpu-staged opens and compiles");
    if (!k)
        return;

    /* aligned as a tensor's storage is */
    int32_t *z = aligned_alloc(64, 64);
    for (int i = 0; i < 8; i++)
        z[i] = -1;
    backend_buffer buf = {.host = (unsigned char *)z, .size = 8 * sizeof *z};
    backend_arg arg = {.value.u = (uint64_t)(uintptr_t)z, .numel = 8, .name = "z_ptr",
                       .buffer = &buf};
    backend_launch L = {.file = file, .grid = {5, 1, 1}, .rank = 1, .args = &arg,
                        .num_warps = 4, .num_stages = 3, .out = stdout, .diag = &d};
    TAP_OK(backend_run(dev, k, &L), "a launch on cpu-staged succeeds");
    TAP_OK(buf.copy != NULL && buf.release && buf.download && buf.dev_dirty && !buf.host_dirty,
           "it made a copy, with release and download hooks, and marked it dev_dirty");
    TAP_OK((uint32_t)z[0] == 0xA5A5A5A5u && (uint32_t)z[7] == 0xA5A5A5A5u,
           "the stale host bytes are spoilt (z[0] = %#x)", (unsigned)z[0]);
    buf.download(&buf, NULL);
    TAP_OK(!buf.dev_dirty && z[0] == 0 && z[4] == 4 && z[5] == -1,
           "download brings the results back (z = %d %d %d)", z[0], z[4], z[5]);
    z[6] = 100;
    buf.host_dirty = true;
    TAP_OK(backend_run(dev, k, &L), "a second launch");
    buf.download(&buf, NULL);
    TAP_OK(z[6] == 100 && z[3] == 3, "the host write made before it was uploaded (z[6] = %d)",
           z[6]);
    buf.host_dirty = buf.dev_dirty = true;
    fputs("# (a message about argument 'z_ptr' is expected)\n", stderr);
    TAP_OK(!backend_run(dev, k, &L), "a launch refuses a buffer changed on both sides");
    buf.release(&buf);
    TAP_OK(buf.copy == NULL && !buf.dev_dirty && !buf.host_dirty, "release frees the copy");
    backend_close(dev);
    backend_free(k);
    free(z);
    strbuf_free(&why);
    src_free(file);
}

/* A little work between two records. */
static double test_spin(void)
{
    volatile double x = 0;
    for (int i = 0; i < 100000; i++)
        x += i * 0.5;
    return x;
}

static void test_timers(void)
{
    diag_sink d;
    diag_sink_init(&d, stderr);
    strbuf why = {0};
    double ms = -1;

    /* the host's clock: no backend, or one without the timer API */
    backend_dev *cpu = backend_open(backend_find("cpu"), &(backend_config){0},
                                    &why);
    backend_stamp *a = backend_timer_new(cpu), *b = backend_timer_new(NULL);
    TAP_OK(!backend_timer_elapsed_ms(a, b, &ms, &d, &why) && why.len,
           "elapsed_ms of unrecorded stamps is refused (%s)", strbuf_cstr(&why));
    strbuf_clear(&why);
    TAP_OK(backend_timer_record(a, &d, &why), "record on the CPU backend (host clock)");
    test_spin();
    TAP_OK(backend_timer_record(b, &d, &why) && backend_timer_recorded(b), "and with no backend");
    TAP_OK(backend_timer_elapsed_ms(a, b, &ms, &d, &why) && ms > 0 && ms < 10000,
           "the host clock measures the time between (%g ms)", ms);
    backend_close(cpu);
    TAP_OK(backend_timer_record(a, &d, &why), "a host-clock stamp outlives its backend");
    backend_timer_free(a);
    backend_timer_free(b);

    /* a backend's timer API (cpu-staged's) */
    setenv("TRITSIM_TEST_BACKENDS", "1", 1);
    backend_dev *st = backend_open(backend_find("cpu-staged"),
                                   &(backend_config){0}, &why);
    a = backend_timer_new(st);
    b = backend_timer_new(st);
    backend_stamp *h = backend_timer_new(NULL);
    TAP_OK(backend_timer_record(a, &d, &why) && backend_timer_record(h, &d, &why),
           "record on cpu-staged's timers");
    test_spin();
    TAP_OK(backend_timer_record(b, &d, &why) &&
           backend_timer_elapsed_ms(a, b, &ms, &d, &why) && ms > 0 && ms < 10000,
           "the backend's timers measure the time between (%g ms)", ms);
    TAP_OK(!backend_timer_elapsed_ms(h, b, &ms, &d, &why) && why.len,
           "stamps on different clocks are refused (%s)", strbuf_cstr(&why));
    strbuf_clear(&why);
    backend_close(st);
    TAP_OK(!backend_timer_record(a, &d, &why) && why.len,
           "a device stamp cannot be recorded once its backend is closed (%s)",
           strbuf_cstr(&why));
    backend_timer_free(a);
    backend_timer_free(b);
    backend_timer_free(h);
    TAP_OK(true, "device stamps are freed after their backend was closed");
    strbuf_free(&why);
}

int main(void)
{
    test_registry();
    test_cpu_launch();
    test_staged();
    test_timers();
    return tap_done();
}
