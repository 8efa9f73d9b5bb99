/* cuda_launch.c - the CUDA and HIP backends' compile and launch.
 *
 * Compile: the verified IR -> CUDA or HIP C++ (cgen_emit, in the vendor's
 * dialect) -> a binary for the device's own architecture (the vendor's
 * compiler, NVRTC or hiprtc, behind the disk cache, cuda_cache.h) -> a
 * module.  num_warps (and, on HIP, waves_per_eu) comes with each launch
 * and decides the block's shape, so a kernel object holds one variant per
 * num_warps and waves_per_eu: the default (4 warps) is built at compile
 * time, so that emission errors surface there, others at their first
 * launch.
 *
 * Launch: the arguments' device copies (cuda_mem.c; for a kernel that
 * makes pointers from integers also those of the storages such pointers
 * may reach, with their table, cgen_abi.h: tk_amap), the runtime block
 * (cgen_abi.h: each pointer argument's byte range, the error record
 * cleared; pinned host memory the device reaches, so plain stores),
 * cuLaunchKernel, then the stream synchronised, the runtime block read
 * back (plain loads; the print records copied back when there are any)
 * and a failing program's error reported with the CPU's words (fault.h),
 * so that a launch reports its failure as the CPU does.
 *
 * The deferred mode (backend.h: defer; triton.testing.do_bench's timed
 * runs, and every launch under --unchecked) skips the wait: a launch takes the next of a ring of runtime
 * blocks (cuda_impl.h: CUDA_RING), keeps a copy of what its check needs,
 * and returns once enqueued; cuda_pending_check waits for them and checks
 * them in launch order at the next sync point (sync, a download, a
 * timer's elapsed time or sync, the mode turned off, the ring full, a
 * kernel freed, close), reporting the first failure as its launch would
 * have.  A kernel with prints is always checked at once. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_impl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "cgen_abi.h"
#include "cgen_mfma.h"
#include "cgen_out.h"
#include "fault.h"
#include "sha256.h"

/* The kernel compiled for one num_warps (and waves_per_eu). */
typedef struct cuda_variant {
    int num_warps;
    int waves_per_eu;           /* 0 where the dialect has none */
    int nonkdim;                /* matrix_instr_nonkdim (HIP; else 0) */
    CUmodule mod;               /* NULL after close */
    CUfunction fn;
    cgen_info info;
} cuda_variant;

struct cuda_kernel {
    backend_kernel base;
    cuda_dev *dev;              /* NULL once the device is closed */
    const ir_kernel *ir;
    const src_file *file;
    bool int_ptrs;              /* the kernel makes pointers from integers */
    cuda_variant *v;
    int nv;
    cuda_kernel *prev, *next;   /* the device's list */
};

enum { CUDA_DEFAULT_WARPS = 4, CUDA_STATIC_SMEM = 48 * 1024 };

static const char cuda_hint[] = "run it on the CPU with --backend cpu (the default)";

/* ---- compile ------------------------------------------------------------------ */

/* Where a compiler's failure's source goes: $TMPDIR (else
 * /tmp)/tritsim-NAME-HASH.cu (.hip on HIP). */
static void cuda_save_source(const cuda_kernel *k, const char *src, strbuf *path)
{
    unsigned char d[32];
    char hex[65];
    sha256(src, strlen(src), d);
    sha256_hex(d, hex);
    hex[12] = 0;
    const char *tmp = getenv("TMPDIR");
    strbuf_printf(path, "%s/tritsim-%s-%s.%s", tmp && *tmp ? tmp : "/tmp", k->ir->name, hex,
                  k->dev->v->dialect == CGEN_HIP ? "hip" : "cu");
    FILE *fp = fopen(strbuf_cstr(path), "w");
    if (!fp || fputs(src, fp) < 0 || fclose(fp) != 0) {
        strbuf_clear(path);
        if (fp)
            fclose(fp);
    }
}

/* The kernel's first instruction's place: where errors about the whole
 * kernel point. */
static const ir_inst *cuda_first_inst(const ir_kernel *ir)
{
    return ir->ncode > 0 ? &ir->code[0] : NULL;
}

/* TRITSIM_CGEN_REPLACE=FILE, for experiments with a hand-edited kernel:
 * FILE is a kernel's source as --dump-cuda (--dump-hip) prints it, first
 * line and all; where that line names this kernel, dialect and num_warps,
 * FILE is compiled in place of the generated source (its shared memory
 * and block shape stay the generated kernel's; the disk cache keys on the
 * text, so it never answers for the other).  false, with diag told, when
 * FILE cannot be read. */
static bool cuda_replace_source(const cuda_kernel *k, int num_warps, strbuf *src,
                                diag_sink *diag)
{
    const char *path = getenv("TRITSIM_CGEN_REPLACE");
    if (!path || !*path)
        return true;
    const char *dialect = k->dev->v->dialect == CGEN_HIP ? "HIP" : "CUDA";
    strbuf head = {0}, msg = {0};
    strbuf_printf(&head, "// ---- tritsim: %s source of %s (num_warps %d)\n", dialect,
                  k->ir->name, num_warps);
    src_file *f = src_read(path);     /* bounded, as a program's source */
    if (!f) {
        strbuf_printf(&msg, "TRITSIM_CGEN_REPLACE names '%s', which cannot be read (%s)", path,
                      strerror(errno));
        backend_report_at(diag, k->ir, k->file, k->ir->ncode > 0 ? &k->ir->code[0] : NULL,
                          strbuf_cstr(&msg), "unset TRITSIM_CGEN_REPLACE, or name a kernel's "
                          "source as --dump-cuda prints it");
    } else if (f->len >= head.len && !memcmp(f->text, head.data, head.len)) {
        fprintf(stderr, "tritsim: TRITSIM_CGEN_REPLACE: compiling %s in place of the generated "
                "%s source of %s (num_warps %d)\n", path, dialect, k->ir->name, num_warps);
        strbuf_clear(src);
        strbuf_putn(src, f->text, f->len);
    }
    if (f)
        src_free(f);
    strbuf_free(&head);
    strbuf_free(&msg);
    return f != NULL;
}

/* A compiled image loaded: its module and kernel, the kernel opted in to
 * smem bytes of dynamic shared memory where that is past the static
 * limit; false with why (and nothing loaded). */
static bool cuda_load(cuda_dev *d, const strbuf *image, size_t smem, CUmodule *mod,
                      CUfunction *fn, strbuf *why)
{
    const cuda_driver *cu = d->cu;
    *mod = NULL;
    *fn = NULL;
    if (!cuda_ok(d, cu->cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", why) ||
        !cuda_ok(d, cu->cuModuleLoadData(mod, image->data), "cuModuleLoadData", why))
        return false;
    if (cuda_ok(d, cu->cuModuleGetFunction(fn, *mod, "tk_kernel"), "cuModuleGetFunction", why) &&
        (smem <= CUDA_STATIC_SMEM || !d->v->smem_optin ||
         cuda_ok(d, cu->cuFuncSetAttribute(*fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                           (int)smem), "cuFuncSetAttribute", why)))
        return true;
    cu->cuModuleUnload(*mod);
    *mod = NULL;
    *fn = NULL;
    return false;
}

/* ---- occupancy ------------------------------------------------------------
 * ptxas gives a kernel the registers it likes.  Where that count leaves a
 * multiprocessor room for fewer blocks than its threads and shared memory
 * would, and a count at most a quarter lower would make room for more
 * (the softmax of bench/gpu: 52 registers a thread, 4 blocks of 256
 * threads; 48 fit 5), the kernel is built once more with that many blocks
 * asked of the compiler (cgen_options.min_blocks: __launch_bounds__'
 * second argument), and the new build is kept when it holds them without
 * spilling more than the first.  More blocks in flight is what a
 * memory-bound kernel needs; one that the rebuild would make spill keeps
 * its registers.  The rebuild goes through the disk cache as the first
 * build does, so a cached run compiles neither. */

/* The blocks of `threads` threads, `regs` registers a thread (0: not
 * counted) and `smem` bytes of shared memory that one multiprocessor of d
 * holds at once. */
static int cuda_blocks_at(const cuda_dev *d, int regs, int threads, size_t smem)
{
    int warps = (threads + 31) / 32;
    int per_warp = (regs * 32 + 255) / 256 * 256;     /* allocated by 256 */
    int b = d->sm_blocks;
    if (threads > 0 && d->sm_threads / threads < b)
        b = d->sm_threads / threads;
    if (per_warp > 0 && d->sm_regs / (per_warp * warps) < b)
        b = d->sm_regs / (per_warp * warps);
    /* (each block also takes 1 KiB of the multiprocessor's shared memory) */
    if (smem > 0 && (int)((size_t)d->sm_smem / (smem + 1024)) < b)
        b = (int)((size_t)d->sm_smem / (smem + 1024));
    return b;
}

/* The registers a thread, the local memory (spills) and the static shared
 * memory of fn; false where the driver does not say. */
static bool cuda_fn_room(const cuda_dev *d, CUfunction fn, int *regs, int *local, int *smem)
{
    const cuda_driver *cu = d->cu;
    return cu->cuFuncGetAttribute(regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) == CUDA_SUCCESS &&
           cu->cuFuncGetAttribute(local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn) ==
               CUDA_SUCCESS &&
           cu->cuFuncGetAttribute(smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn) ==
               CUDA_SUCCESS;
}

/* Rebuild the kernel of options o (emitted as info says, loaded as *mod
 * and *fn) for more blocks a multiprocessor where that pays, as above;
 * *mod and *fn are replaced when it does.  Any failure keeps the first. */
static void cuda_occupancy(cuda_kernel *k, const cgen_options *o, const cgen_info *info,
                           CUmodule *mod, CUfunction *fn)
{
    cuda_dev *d = k->dev;
    const cuda_driver *cu = d->cu;
    const char *replace = getenv("TRITSIM_CGEN_REPLACE");
    int r1, l1, s1;
    if (d->v->dialect != CGEN_CUDA || !d->sm_regs || !d->sm_threads || !d->sm_blocks ||
        !d->sm_smem || (replace && *replace) || !cuda_fn_room(d, *fn, &r1, &l1, &s1))
        return;
    int T = info->threads, warps = (T + 31) / 32;
    size_t smem = info->smem_bytes + (size_t)s1;
    int b1 = cuda_blocks_at(d, r1, T, smem), bmax = cuda_blocks_at(d, 0, T, smem);
    int tries[2] = {bmax, b1 + 1};
    for (int i = 0; i < 2; i++) {
        int b = tries[i];
        if (b <= b1 || (i == 1 && b == bmax))
            continue;
        int cap = d->sm_regs / (b * warps) / 256 * 256 / 32;
        if (cap * 4 < r1 * 3)
            continue;
        cgen_options o2 = *o;
        o2.min_blocks = b;
        strbuf src = {0}, image = {0}, log = {0}, why = {0};
        cgen_info info2 = {0};
        cgen_fault f = {.pc = -1};
        bool from_cache = false;
        CUmodule mod2 = NULL;
        CUfunction fn2 = NULL;
        int r2, l2, s2;
        bool ok = cgen_emit(k->ir, &o2, &src, &info2, &f) &&
                  d->v->build(d, strbuf_cstr(&src), &image, &log, &from_cache, &why) &&
                  cuda_load(d, &image, info2.smem_bytes, &mod2, &fn2, &why) &&
                  cuda_fn_room(d, fn2, &r2, &l2, &s2) &&
                  cuda_blocks_at(d, r2, T, info2.smem_bytes + (size_t)s2) > b1 && l2 <= l1;
        strbuf_free(&src);
        strbuf_free(&image);
        strbuf_free(&log);
        strbuf_free(&why);
        if (ok) {
            cu->cuModuleUnload(*mod);
            *mod = mod2;
            *fn = fn2;
            return;
        }
        if (mod2)
            cu->cuModuleUnload(mod2);
    }
}

/* Build (emit, compile, load) the variant for num_warps and waves; NULL
 * after reporting to diag. */
static cuda_variant *cuda_variant_build(cuda_kernel *k, int num_warps, int waves,
                                        int nonkdim, int num_stages, diag_sink *diag)
{
    cuda_dev *d = k->dev;
    const cuda_vendor *vd = d->v;
    const ir_kernel *ir = k->ir;
    cgen_options o = {
        .target = {.dialect = vd->dialect, .warp_size = d->warp_size,
                   .arch = vd->dialect == CGEN_CUDA ? d->arch : cgen_hip_arch(d->arch_name)},
        .num_warps = num_warps, .num_stages = num_stages, .checked = d->checked,
        .max_smem = d->max_smem, .waves_per_eu = waves, .matrix_instr_nonkdim = nonkdim,
    };
    strbuf src = {0}, why = {0}, msg = {0};
    cgen_info info = {0};
    cgen_fault f = {.pc = -1};
    cuda_variant *v = NULL;
    if (!cgen_emit(ir, &o, &src, &info, &f)) {
        const ir_inst *in = f.pc >= 0 && f.pc < ir->ncode ? &ir->code[f.pc] : cuda_first_inst(ir);
        strbuf_printf(&msg, "the %s backend cannot run this kernel: %s", vd->name, f.why);
        backend_report_at(diag, ir, k->file, in, strbuf_cstr(&msg), cuda_hint);
        d->base.out_of_resources = f.resources;
        goto out;
    }
    if (!cuda_replace_source(k, num_warps, &src, diag))
        goto out;
    strbuf image = {0}, log = {0};
    bool from_cache = false;
    if (!vd->build(d, strbuf_cstr(&src), &image, &log, &from_cache, &why)) {
        strbuf path = {0};
        cuda_save_source(k, strbuf_cstr(&src), &path);
        strbuf_puts(&msg, "internal error: ");
        vd->compiler(d, &msg);
        strbuf_printf(&msg, " cannot compile the %s code generated for '%s': %s", vd->name,
                      ir->name, strbuf_cstr(&why));
        if (log.len)
            strbuf_printf(&msg, "\n%s", strbuf_cstr(&log));
        strbuf note = {0};
        if (path.len)
            strbuf_printf(&note, "the generated source is saved in %s; please report this "
                          "with it; meanwhile %s", strbuf_cstr(&path), cuda_hint);
        else
            strbuf_printf(&note, "please report this; meanwhile %s", cuda_hint);
        backend_report_at(diag, ir, k->file, cuda_first_inst(ir), strbuf_cstr(&msg),
                          strbuf_cstr(&note));
        strbuf_free(&note);
        strbuf_free(&path);
        strbuf_free(&image);
        strbuf_free(&log);
        goto out;
    }
    CUmodule mod;
    CUfunction fn;
    const cuda_driver *cu = d->cu;
    bool ok = cuda_load(d, &image, info.smem_bytes, &mod, &fn, &why);
    strbuf_free(&image);
    strbuf_free(&log);
    /* registers: a program of info.threads threads must fit in the
     * registers of one multiprocessor */
    int max_threads = 0;
    if (ok && cuda_ok(d, cu->cuFuncGetAttribute(&max_threads,
                                                CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
                      "cuFuncGetAttribute", &why) &&
        max_threads < info.threads) {
        int regs = 0;
        cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
        cu->cuModuleUnload(mod);
        strbuf_printf(&msg, "the %s backend cannot run this kernel: it needs %d registers per "
                      "thread, so at most %d threads per program fit on this GPU, and "
                      "num_warps=%d asks for %d: use fewer warps or smaller blocks", vd->name, regs,
                      max_threads, num_warps, info.threads);
        backend_report_at(diag, ir, k->file, cuda_first_inst(ir), strbuf_cstr(&msg), cuda_hint);
        d->base.out_of_resources = true;
        goto out;
    }
    if (!ok) {
        strbuf_printf(&msg, "internal error: %s cannot load the code compiled for '%s': %s",
                      vd->driver_name, ir->name, strbuf_cstr(&why));
        backend_report_at(diag, ir, k->file, cuda_first_inst(ir), strbuf_cstr(&msg), cuda_hint);
        goto out;
    }
    cuda_occupancy(k, &o, &info, &mod, &fn);
    k->v = xrealloc(k->v, (size_t)(k->nv + 1) * sizeof *k->v);
    v = &k->v[k->nv++];
    *v = (cuda_variant){.num_warps = num_warps, .waves_per_eu = waves, .nonkdim = nonkdim,
                        .mod = mod, .fn = fn,
                        .info = info};
out:
    strbuf_free(&src);
    strbuf_free(&why);
    strbuf_free(&msg);
    return v;
}

static void cuda_report_bad_ir(const ir_kernel *ir, const src_file *file, const ir_fault *f,
                               diag_sink *diag)
{
    const ir_inst *in = f->pc >= 0 && f->pc < ir->ncode ? &ir->code[f->pc] : NULL;
    src_span sp = in && in->at ? in->at->span : (src_span){0};
    if (f->slot >= 0)
        diag_report(diag, DIAG_ERROR, file, sp,
                    "internal error: slot %" PRId32 " has an invalid type", f->slot);
    else
        diag_report(diag, DIAG_ERROR, file, sp, "internal error: bad kernel IR%s%s: %s",
                    in ? " at " : "", in ? ir_op_name((ir_opcode)in->op) : "", f->why);
}

backend_kernel *cuda_compile(backend_dev *dev, const ir_kernel *ir, const src_file *file,
                             diag_sink *diag)
{
    cuda_dev *d = (cuda_dev *)dev;
    ir_fault fault;
    if (!ir_verify(ir, &fault)) {
        cuda_report_bad_ir(ir, file, &fault, diag);
        return NULL;
    }
    cuda_kernel *k = xcalloc(1, sizeof *k);
    k->dev = d;
    k->ir = ir;
    k->file = file;
    for (int32_t pc = 0; pc < ir->ncode; pc++) {
        const ir_inst *in = &ir->code[pc];
        if (in->op == IR_CAST && dtype_is_ptr(ir->slots[in->dst].type.dt) &&
            !dtype_is_ptr(ir->slots[in->a].type.dt))
            k->int_ptrs = true;
    }
    if (!cuda_variant_build(k, CUDA_DEFAULT_WARPS, 0, 0, 3, diag)) {
        free(k);
        return NULL;
    }
    k->next = d->kernels;
    if (d->kernels)
        d->kernels->prev = k;
    d->kernels = k;
    return &k->base;
}

/* ---- errors read back from the runtime block ------------------------------------ */

/* Report the failure the runtime block records (e) with the words the CPU
 * uses for it: an access or a gather's index (a failed ASSERT is worded
 * by cgen_out_write, from its record). */
static void cuda_report_fault(const cuda_kernel *k, const backend_launch *L, const tk_err *e,
                              const cuda_slot *s)
{
    const CUdeviceptr *dptr = s->dptr;
    const ir_kernel *ir = k->ir;
    const ir_inst *in = e->pc >= 0 && e->pc < ir->ncode ? &ir->code[e->pc] : NULL;
    strbuf msg = {0}, note = {0};
    int64_t c[3] = {e->pid[0], e->pid[1], e->pid[2]};
    char ln[64] = "lane 0";
    if (in)
        backend_lane_name(ln, sizeof ln, in->op == IR_GATHER ? &ir->slots[in->dst].type
                                                             : backend_lane_type(ir, in),
                          e->lane);
    if (e->kind == TK_ERR_ACCESS && in) {
        dtype pt = ir->slots[in->a].type.dt;
        backend_access_fault f = {
            .kind = in->op == IR_LOAD ? BACKEND_ACCESS_LOAD
                    : in->op == IR_STORE ? BACKEND_ACCESS_STORE : BACKEND_ACCESS_ATOMIC,
            .coord = {c[0], c[1], c[2]}, .lane = ln, .addr = e->addr,
            .esz = dtype_size(dtype_elem(pt)), .arg = e->arg, .int_ptrs = k->int_ptrs,
        };
        if (e->arg >= 0 && e->arg < ir->nparams) {
            const backend_arg *a = &L->args[e->arg];
            f.arg_name = a->name ? a->name : ir->params[e->arg].name;
            f.arg_base = dptr[e->arg];
            f.arg_esz = dtype_size(dtype_elem(ir->params[e->arg].dt));
            f.arg_numel = a->numel;
            f.arg_bytes = (uint64_t)a->numel * (uint64_t)f.arg_esz;
        } else {
            f.arg = -1;
        }
        backend_fault_access(&f, &msg, &note);
    } else if (e->kind == TK_ERR_TAGGED && in && e->value >= 0 &&
               (uint64_t)e->value < s->namap) {
        const tk_amap *m = &s->amap[e->value];
        dtype pt = ir->slots[in->a].type.dt;
        backend_fault_tagged(in->op == IR_LOAD ? BACKEND_ACCESS_LOAD
                             : in->op == IR_STORE ? BACKEND_ACCESS_STORE : BACKEND_ACCESS_ATOMIC,
                             c, ln, e->addr, m->host, m->bytes, dtype_size(dtype_elem(pt)), pt,
                             &msg, &note);
    } else if (e->kind == TK_ERR_GATHER && in) {
        const ir_type *ta = &ir->slots[in->a].type;
        int ax = (int)in->imm;
        bool neg = dtype_is_signed(ir->slots[in->b].type.dt) && e->value < 0;
        backend_fault_gather(c, ln, neg, neg ? (uint64_t)0 - (uint64_t)e->value
                             : (uint64_t)e->value, ax, ta->shape[ax], &msg, &note);
    } else {
        strbuf_printf(&msg, "internal error: a %s program (%" PRId64 ", %" PRId64 ", %"
                      PRId64 ") failed with error kind %u at instruction %d (code %" PRId64 ")",
                      k->dev ? k->dev->v->name : "GPU", c[0], c[1], c[2], e->kind, e->pc,
                      e->value);
    }
    fflush(L->out);
    backend_report_at(L->diag, ir, L->file, in, strbuf_cstr(&msg),
                      note.len ? strbuf_cstr(&note) : NULL);
    strbuf_free(&msg);
    strbuf_free(&note);
}

/* ---- launch ------------------------------------------------------------------- */

static cuda_variant *cuda_variant_for(cuda_kernel *k, const backend_launch *L)
{
    int w = L->num_warps > 0 ? L->num_warps : CUDA_DEFAULT_WARPS;
    int waves = cgen_dialect_of(&(cgen_target){.dialect = k->dev->v->dialect})->waves_per_eu
                ? L->waves_per_eu : 0;
    int nonkdim = k->dev->v->dialect == CGEN_HIP ? L->matrix_instr_nonkdim : 0;
    for (int i = 0; i < k->nv; i++)
        if (k->v[i].num_warps == w && k->v[i].waves_per_eu == waves &&
            k->v[i].nonkdim == nonkdim)
            return &k->v[i];
    return cuda_variant_build(k, w, waves, nonkdim, L->num_stages, L->diag);
}

/* A launch's failure of the device or the driver (not of a program). */
static bool cuda_launch_fail(const cuda_kernel *k, const backend_launch *L, const char *why)
{
    diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                "the GPU failed running '%s': %s", k->ir->name, why);
    return false;
}

/* Report what slot s's runtime block holds after its launch (of kernel k,
 * described by L) has ended: the programs' output in program order, then
 * the failure, as the CPU writes them (cgen_out.h).  false after
 * reporting a failure. */
static bool cuda_slot_report(cuda_kernel *k, const backend_launch *L, const cuda_slot *s)
{
    cuda_dev *d = k->dev;
    tk_rt rt;
    /* written by the device; the stream has been synchronised since */
    memcpy(&rt, s->host, sizeof rt);
    bool failed = rt.err_key != TK_NO_ERROR;
    if (rt.print_used == 0 && !failed)
        return true;
    strbuf why = {0};
    bool ok = true;
    uint64_t n = rt.print_used < rt.print_cap ? rt.print_used : rt.print_cap;
    unsigned char *buf = n ? xmalloc((size_t)n) : NULL;
    if (n && !cuda_ok(d, d->cu->cuMemcpyDtoH(buf, d->print_buf, (size_t)n), "cuMemcpyDtoH",
                      &why)) {
        free(buf);
        cuda_launch_fail(k, L, strbuf_cstr(&why));
        strbuf_free(&why);
        return false;
    }
    const ir_kernel *ir = k->ir;
    char ln[64] = "lane 0";
    const ir_inst *fin = failed && rt.err.pc >= 0 && rt.err.pc < ir->ncode
                         ? &ir->code[rt.err.pc] : NULL;
    if (fin)
        backend_lane_name(ln, sizeof ln, backend_lane_type(ir, fin), rt.err.lane);
    cgen_out_launch o = {.k = ir, .file = L->file, .diag = L->diag, .buf = buf,
                         .used = rt.print_used, .cap = rt.print_cap,
                         .grid = {L->grid[0], L->grid[1], L->grid[2]},
                         .err = failed ? &rt.err : NULL, .err_lane = ln,
                         .breaks_report = L->breaks == BACKEND_BREAK_REPORT};
    cgen_out_fail f;
    memset(&f, 0, sizeof f);
    if (!cgen_out_write(L->out, &o, &f)) {
        ok = false;
    } else if (f.failed && f.words) {
        fflush(L->out);
        backend_report_at(L->diag, ir, L->file, &ir->code[f.pc], f.msg,
                          f.note[0] ? f.note : NULL);
        ok = false;
    } else if (failed) {
        cuda_report_fault(k, L, &rt.err, s);
        ok = false;
    }
    free(buf);
    strbuf_free(&why);
    return ok;
}

/* Wait for the stream; false after reporting a failure of the device
 * (to diag, naming k when known). */
static bool cuda_stream_wait(cuda_dev *d, const cuda_kernel *k, const backend_launch *L)
{
    strbuf why = {0};
    bool ok = cuda_ok(d, d->cu->cuStreamSynchronize(d->stream), "cuStreamSynchronize", &why);
    if (!ok)
        cuda_launch_fail(k, L, strbuf_cstr(&why));
    strbuf_free(&why);
    return ok;
}

bool cuda_pending_check(cuda_dev *d)
{
    int n = d->npending;
    if (n == 0)
        return true;
    d->npending = 0;
    cuda_slot *first = &d->ring[0];
    bool ok = cuda_stream_wait(d, first->k, &first->L);
    for (int i = 0; i < n; i++) {
        cuda_slot *s = &d->ring[i];
        /* the first failure in launch order is the one a launch checked at
         * once would have stopped the program at */
        if (ok)
            ok = cuda_slot_report(s->k, &s->L, s);
        s->k = NULL;
    }
    return ok;
}

bool cuda_defer(backend_dev *dev, bool on, diag_sink *diag)
{
    (void)diag;     /* failures go to the diag of the launch that made them */
    cuda_dev *d = (cuda_dev *)dev;
    bool ok = on || cuda_pending_check(d);
    d->deferred = on || !d->checked;    /* (--unchecked: always, cuda_open) */
    return ok;
}

/* A parameter's bytes as the kernel takes it (cgen_abi.h). */
static void cuda_param_value(dtype dt, const backend_arg *a, CUdeviceptr dp, void *slot)
{
    if (dtype_is_ptr(dt)) {
        uint64_t v = dp;
        memcpy(slot, &v, 8);
    } else if (dtype_is_float(dt) && cgen_param_size(dt) == 8) {
        double v = a->value.f;
        memcpy(slot, &v, 8);
    } else if (dtype_is_float(dt)) {
        float v = (float)a->value.f;     /* exact: the value is of its dtype */
        memcpy(slot, &v, 4);
    } else if (cgen_param_size(dt) == 8) {
        memcpy(slot, &a->value.u, 8);
    } else {
        uint32_t v = (uint32_t)a->value.u;
        memcpy(slot, &v, 4);
    }
}

bool cuda_launch(backend_dev *dev, backend_kernel *kernel, const backend_launch *L)
{
    cuda_dev *d = (cuda_dev *)dev;
    cuda_kernel *k = (cuda_kernel *)kernel;
    const ir_kernel *ir = k->ir;
    for (int i = 0; i < 3; i++)
        if (L->grid[i] < 1)
            return true;                /* no programs */
    if (L->grid[0] > INT32_MAX || L->grid[1] > 65535 || L->grid[2] > 65535) {
        diag_report(L->diag, DIAG_ERROR, L->file, (src_span){0},
                    "the grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") is larger than a %s "
                    "launch allows (2147483647, 65535, 65535)", L->grid[0], L->grid[1],
                    L->grid[2], d->v->name);
        return false;
    }
    cuda_variant *v = cuda_variant_for(k, L);
    if (!v)
        return false;
    size_t np = (size_t)ir->nparams;
    /* Deferred: the launch waits in the ring for its check, unless its
     * kernel prints (its records need the print buffer to itself).  A
     * launch checked at once first checks the pending ones, and so does
     * one that finds the ring full or the blocks too small. */
    bool deferred = d->deferred && !v->info.has_prints;
    size_t namap = v->info.int_ptrs ? (size_t)L->nrevealed : 0;
    if (d->npending && (!deferred || d->npending == CUDA_RING || np > d->rt_nparams ||
                        (v->info.int_ptrs && namap > d->amap_room)) &&
        !cuda_pending_check(d))
        return false;
    strbuf why = {0};
    if (!cuda_ok(d, d->cu->cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", &why) ||
        !cuda_mem_rt(d, np, &why) || (v->info.int_ptrs && !cuda_mem_amap(d, namap, &why))) {
        cuda_launch_fail(k, L, strbuf_cstr(&why));
        strbuf_free(&why);
        return false;
    }
    cuda_slot *s = &d->ring[d->npending];
    /* the block: tk_rt, then arg_lo[room], arg_hi[room], arg_c[room], written
     * in place; c: the offsets from lo where 16 bytes fit below hi */
    size_t room = d->rt_nparams;
    uint64_t *lo = (uint64_t *)(void *)(s->host + sizeof(tk_rt)), *hi = lo + room, *c = hi + room;
    bool ok = true;
    for (size_t i = 0; i < np && ok; i++) {
        dtype dt = ir->params[i].dt;
        s->dptr[i] = 0;
        if (dtype_is_ptr(dt)) {
            ok = cuda_mem_arg(d, &L->args[i], &s->dptr[i], &why);
            lo[i] = s->dptr[i];
            hi[i] = s->dptr[i] +
                    (uint64_t)L->args[i].numel * (uint64_t)dtype_size(dtype_elem(dt));
            c[i] = hi[i] - lo[i] >= 16 ? hi[i] - lo[i] - 15 : 0;
        }
        cuda_param_value(dt, &L->args[i], s->dptr[i], &s->vals[i]);
        s->params[i + 1] = &s->vals[i];
    }
    /* pointers made from integers: the storages they may reach */
    if (ok && v->info.int_ptrs)
        ok = cuda_mem_amap_fill(d, s, L, &why);
    tk_rt rt = {
        .arg_lo = (uint64_t *)(uintptr_t)(s->dev + sizeof(tk_rt)),
        .arg_hi = (uint64_t *)(uintptr_t)(s->dev + sizeof(tk_rt) + room * sizeof(uint64_t)),
        .print_buf = (unsigned char *)(uintptr_t)d->print_buf,
        .print_cap = d->print_cap,
        .print_used = 0,
        .err_key = TK_NO_ERROR,
    };
    memcpy(s->host, &rt, sizeof rt);
    CUdeviceptr rtp = s->dev;
    s->params[0] = &rtp;
    /* each pointer's bounds as three more parameters, in parameter order:
     * the checks read them from the constant bank, not across the bus */
    size_t extra = np + 1;
    for (size_t i = 0; i < np; i++)
        if (dtype_is_ptr(ir->params[i].dt)) {
            s->params[extra++] = &lo[i];
            s->params[extra++] = &hi[i];
            s->params[extra++] = &c[i];
        }
    if (v->info.int_ptrs) {
        s->params[extra++] = &s->amap_dev;
        s->params[extra++] = &s->namap;
    }
    CUresult r = !ok ? CUDA_SUCCESS
                 : d->cu->cuLaunchKernel(v->fn, (unsigned)L->grid[0], (unsigned)L->grid[1],
                                         (unsigned)L->grid[2], (unsigned)v->info.threads, 1, 1,
                                         (unsigned)v->info.smem_bytes, d->stream, s->params,
                                         NULL);
    ok = ok && cuda_ok(d, r, "cuLaunchKernel", &why);
    if (!ok) {
        cuda_launch_fail(k, L, strbuf_cstr(&why));
        d->base.out_of_resources = r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
        strbuf_free(&why);
        return false;
    }
    strbuf_free(&why);
    /* stores may have written any pointer argument, and any storage a
     * pointer made from an integer reaches */
    cuda_mem_written(d, ir, L);
    if (deferred) {
        memcpy(s->args, L->args, np * sizeof *s->args);
        s->k = k;
        s->L = *L;
        s->L.args = s->args;
        s->L.revealed = NULL;       /* the launcher's; its check needs s->amap */
        s->L.nrevealed = 0;
        d->npending++;
        return true;
    }
    return cuda_stream_wait(d, k, L) && cuda_slot_report(k, L, s);
}

/* ---- freeing ------------------------------------------------------------------ */

static void cuda_kernel_unload(cuda_kernel *k)
{
    for (int i = 0; i < k->nv; i++)
        if (k->v[i].mod) {
            k->dev->cu->cuModuleUnload(k->v[i].mod);
            k->v[i].mod = NULL;
        }
}

void cuda_kernel_free(backend_kernel *kernel)
{
    cuda_kernel *k = (cuda_kernel *)kernel;
    if (!k)
        return;
    if (k->dev) {
        /* its pending launches need it to be checked: check them now */
        for (int i = 0; i < k->dev->npending; i++)
            if (k->dev->ring[i].k == k) {
                cuda_pending_check(k->dev);
                break;
            }
        cuda_kernel_unload(k);
        if (k->prev)
            k->prev->next = k->next;
        else
            k->dev->kernels = k->next;
        if (k->next)
            k->next->prev = k->prev;
    }
    free(k->v);
    free(k);
}

void cuda_kernels_close(cuda_dev *d)
{
    for (cuda_kernel *k = d->kernels, *next; k; k = next) {
        next = k->next;
        cuda_kernel_unload(k);
        k->dev = NULL;
        k->prev = k->next = NULL;
    }
    d->kernels = NULL;
}
