/* exec_mem.c - the CPU executor's loads, stores and atomics: each checks
 * the active lanes first (a min/max pass, then a per-lane search only when
 * something is wrong), then moves the data (a memcpy when the lanes are
 * contiguous); through a tracked pointer (exec_affine.c) the check is one
 * address range and the data moves by rows, and anything doubtful goes
 * the lane-by-lane way, which reports the exact failing lane.
 *
 * A recorded launch (exec_launch.log: --viz, tritsim check) also records
 * every lane of every access, the lanes that failed the check included
 * (alog_access, alog.h); the plan then sends every access down the plain
 * path (exec.c), as it does under --racecheck.  The checkers
 * (exec_check.c) see the active lanes of every access that passed its
 * check; under --initcheck alone, only accesses through an argument whose
 * storage has a bitmap of written bytes leave the fast path.
 *
 * ATOMIC lanes run one at a time, in lane order, each a real atomic
 * (fetch-add for 4/8-byte ints, a compare-and-swap loop otherwise);
 * masked lanes return 0. */
#define _POSIX_C_SOURCE 200809L
/* As in exec.c: let GCC vectorise the typed loops behind runtime checks. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#include "exec_impl.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "addrmap.h"
#include "fault.h"
#include "alog.h"

/* A value missing from a switch over an enum is an error here (ir.h) */
#pragma GCC diagnostic error "-Wswitch"
#pragma GCC diagnostic error "-Wswitch-enum"

/* ======================================================================
 * Memory: bounds checks, loads, stores, atomics.
 * ====================================================================== */

typedef enum access_kind { ACC_LOAD, ACC_STORE, ACC_ATOMIC } access_kind;

/* The lanes of one memory instruction. */
typedef struct access {
    access_kind kind;
    int32_t pslot;          /* the pointer operand */
    const uint64_t *ptr;    /* addresses, stride sp */
    int64_t sp;
    const uint8_t *mask;    /* NULL: every lane; stride sm */
    int64_t sm;
    int64_t n;
    int esz;                /* bytes each lane touches */
    bool contig;            /* set by the check: ptr[i] == ptr[0] + i * esz,
                               every lane active */
} access;

/* Does [ad, ad + esz) lie in pointer argument i's bytes? */
static bool in_arg(const exec_ctx *x, int i, uint64_t ad, int esz)
{
    uint64_t base = x->L->args[i].value.u, bytes = x->plan.argbytes[i];
    return ad >= base && bytes >= (uint64_t)esz && ad - base <= bytes - (uint64_t)esz;
}

static const char *arg_name(const exec_ctx *x, int i)
{
    const char *s = x->L->args[i].name;
    return s ? s : x->k->params[i].name ? x->k->params[i].name : "?";
}

/* Report the failing lane of an access: arg is the pointer argument it
 * should have been in, or -1 when it is in none.  The words are every
 * backend's (fault.h). */
static bool access_error(exec_prog *P, const ir_inst *in, const access *ac,
                         int64_t lane, int arg)
{
    const exec_ctx *x = P->x;
    uint64_t ad = ac->ptr[lane * ac->sp];
    char ln[64];
    exec_lane_name(ln, sizeof ln, exec_lane_type(P, in), lane);
    backend_access_fault f = {
        .kind = ac->kind == ACC_LOAD ? BACKEND_ACCESS_LOAD
                : ac->kind == ACC_STORE ? BACKEND_ACCESS_STORE : BACKEND_ACCESS_ATOMIC,
        .coord = {P->coord[0], P->coord[1], P->coord[2]},
        .lane = ln, .addr = arg < 0 ? addrmap_untag(ad) : ad, .esz = ac->esz, .arg = arg,
        .int_ptrs = x->plan.int_ptrs,
    };
    if (arg >= 0) {
        f.arg_name = arg_name(x, arg);
        f.arg_base = x->L->args[arg].value.u;
        f.arg_bytes = x->plan.argbytes[arg];
        f.arg_esz = dtype_size(dtype_elem(x->k->params[arg].dt));
        f.arg_numel = x->L->args[arg].numel;
    }
    strbuf msg = {0}, note = {0};
    backend_fault_access(&f, &msg, &note);
    exec_fail(P, in, note.len ? strbuf_cstr(&note) : NULL, "%s", strbuf_cstr(&msg));
    strbuf_free(&msg);
    strbuf_free(&note);
    return false;
}

/* Report the failing lane of an access through a pointer made from an
 * integer, tagged with storage e (addrmap.h); real is its address.  The
 * words are every backend's (fault.h). */
static bool tagged_error(exec_prog *P, const ir_inst *in, const access *ac, int64_t lane,
                         const addrmap_entry *e, uint64_t real)
{
    char ln[64];
    exec_lane_name(ln, sizeof ln, exec_lane_type(P, in), lane);
    strbuf msg = {0}, note = {0};
    backend_fault_tagged(ac->kind == ACC_LOAD ? BACKEND_ACCESS_LOAD
                         : ac->kind == ACC_STORE ? BACKEND_ACCESS_STORE : BACKEND_ACCESS_ATOMIC,
                         P->coord, ln, real, e->base, e->bytes, ac->esz, DT(P, ac->pslot),
                         &msg, &note);
    exec_fail(P, in, strbuf_cstr(&note), "%s", strbuf_cstr(&msg));
    strbuf_free(&msg);
    strbuf_free(&note);
    return false;
}

/* The distance from the storage tagged tag to the bytes the launch runs
 * on (exec_launch.reloc): 0 at the host's addresses. */
static uint64_t reloc_of(const exec_launch *L, int tag)
{
    int lo = 0, hi = L->nreloc;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (L->reloc[mid].tag < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < L->nreloc && L->reloc[lo].tag == tag ? (uint64_t)L->reloc[lo].delta : 0;
}

/* Every active lane inside its tensor and aligned: first the cheap test
 * (the range of the addresses against the tensor), then, only if that
 * fails, a search for the first bad lane in row-major order. */
static bool check_access(exec_prog *P, const ir_inst *in, access *ac)
{
    const exec_ctx *x = P->x;
    int arg = x->k->slots[ac->pslot].ptr_arg;
    uint64_t amask = (uint64_t)ac->esz - 1;
    ac->contig = false;
    if (arg >= 0) {
        /* One branch-free pass: the range and alignment of the active
         * lanes, how many are active, and whether the addresses are one
         * contiguous run.  An inactive lane is neutral: UINT64_MAX for the
         * minimum, 0 for the maximum and the alignment bits. */
        uint64_t first = ac->ptr[0], step = (uint64_t)ac->esz;
        uint64_t lo = UINT64_MAX, hi = 0, odd = 0, broken = 0;
        int64_t active = 0, n = ac->n;
        const uint64_t *ptr = ac->ptr;
        const uint8_t *mask = ac->mask;
        if (ac->sp == 1 && (!mask || ac->sm == 1)) {
            /* the common case, written for the vectoriser */
            for (int64_t i = 0; i < n; i++) {
                uint64_t ad = ptr[i];
                bool on = !mask || mask[i] != 0;
                uint64_t a_lo = on ? ad : UINT64_MAX, a_hi = on ? ad : 0;
                lo = a_lo < lo ? a_lo : lo;
                hi = a_hi > hi ? a_hi : hi;
                odd |= a_hi;
                active += on;
                broken |= ad ^ (first + (uint64_t)i * step);
            }
        } else {
            for (int64_t i = 0; i < n; i++) {
                uint64_t ad = ptr[i * ac->sp];
                bool on = !mask || mask[i * ac->sm] != 0;
                uint64_t a_lo = on ? ad : UINT64_MAX, a_hi = on ? ad : 0;
                lo = a_lo < lo ? a_lo : lo;
                hi = a_hi > hi ? a_hi : hi;
                odd |= a_hi;
                active += on;
            }
            broken = n > 1;    /* a scalar pointer repeated: no memcpy */
        }
        bool contig = broken == 0;
        if (active == ac->n)
            ac->mask = NULL;       /* every lane on: the copy needs no mask */
        ac->contig = contig && active == ac->n;
        if (lo > hi || (in_arg(x, arg, lo, ac->esz) && in_arg(x, arg, hi, ac->esz) &&
                        !(odd & amask)))
            return true;
        for (int64_t i = 0; i < ac->n; i++) {
            uint64_t ad = ac->ptr[i * ac->sp];
            if ((!ac->mask || ac->mask[i * ac->sm]) &&
                (!in_arg(x, arg, ad, ac->esz) || (ad & amask)))
                return access_error(P, in, ac, i, arg);
        }
        return true;
    }
    /* The pointer may point into any argument, or, made from an integer,
     * into the storage its tag names (addrmap.h): find what holds each
     * lane, trying the last one found first.  With tags, the addresses go
     * untagged into the worker's scratch, which the access then reads. */
    uint64_t *clean = x->plan.int_ptrs ? (uint64_t *)(void *)P->w->scratch : NULL;
    int last = -1, raw = 0, tag = 0;
    const addrmap_entry *e = NULL;
    uint64_t delta = 0;     /* where the tagged storage lies (exec_launch.reloc) */
    for (int64_t i = 0; i < ac->n; i++) {
        if (ac->mask && !ac->mask[i * ac->sm]) {
            if (clean)
                clean[i] = 0;
            continue;
        }
        uint64_t ad = ac->ptr[i * ac->sp];
        if (clean && addrmap_raw_tag(ad) != raw) {
            raw = addrmap_raw_tag(ad);
            tag = addrmap_lane_tag(ad);
            e = tag ? addrmap_get(tag) : NULL;
            delta = tag ? reloc_of(x->L, tag) : 0;
        }
        if (clean && tag) {
            uint64_t real = addrmap_untag_as(ad, tag);
            if (e->bytes < (uint64_t)ac->esz || real - e->base > e->bytes - (uint64_t)ac->esz ||
                (real & amask))
                return tagged_error(P, in, ac, i, e, real);
            clean[i] = real + delta;
            continue;
        }
        if (last < 0 || !in_arg(x, last, ad, ac->esz)) {
            last = -1;
            for (int j = 0; j < x->k->nparams && last < 0; j++)
                if (dtype_is_ptr(x->k->params[j].dt) && in_arg(x, j, ad, ac->esz))
                    last = j;
            if (last < 0)
                return access_error(P, in, ac, i, -1);
        }
        if (ad & amask)
            return access_error(P, in, ac, i, last);
        if (clean)
            clean[i] = ad;
    }
    if (clean) {
        ac->ptr = clean;
        ac->sp = 1;
    }
    return true;
}

/* A recorded launch (exec_launch.log, alog.h: --viz draws it, `tritsim
 * check` grades with it): record every lane of an access, after its check
 * and whatever the check said (checked false: it failed), so that the
 * out-of-bounds lane that stopped the launch is in the record too. */
static void alog_access(exec_prog *P, const ir_inst *in, const access *ac, bool checked)
{
    const exec_ctx *x = P->x;
    access_log *t = x->L->log;
    int sarg = x->k->slots[ac->pslot].ptr_arg;
    uint8_t kind = ac->kind == ACC_LOAD ? ALOG_LOAD
                   : ac->kind == ACC_STORE ? ALOG_STORE : ALOG_ATOMIC;
    if (!checked)
        kind |= ALOG_FAILED;
    const ir_type *tile = exec_lane_type(P, in);
    uint8_t shape = alog_shape_of(t, tile->ndim, tile->shape);
    uint32_t access = P->naccess++;
    int32_t pid = P->pid > INT32_MAX ? INT32_MAX : (int32_t)P->pid;
    enum { BATCH = 256 };
    alog_event buf[BATCH];
    int nb = 0;
    int64_t unplaced = 0;
    for (int64_t i = 0; i < ac->n; i++) {
        uint64_t ad = ac->ptr[i * ac->sp];
        bool on = !ac->mask || ac->mask[i * ac->sm];
        int arg = sarg;
        if (arg < 0) {
            if (x->plan.int_ptrs)
                ad = addrmap_untag(ad);
            for (int j = 0; j < x->k->nparams && arg < 0; j++)
                if (dtype_is_ptr(x->k->params[j].dt) && in_arg(x, j, ad, 1))
                    arg = j;
        }
        if (arg < 0 || !t->want[arg]) {
            unplaced += arg < 0 && on;
            continue;
        }
        int64_t esz = dtype_size(dtype_elem(x->k->params[arg].dt));
        int64_t diff = (int64_t)(ad - x->L->args[arg].value.u);
        uint8_t what = kind;
        if (!on)
            what |= ALOG_MASKED;
        else if (!in_arg(x, arg, ad, ac->esz))
            what |= ALOG_OOB;
        buf[nb++] = (alog_event){
            .elem = diff >= 0 ? diff / esz : -((esz - 1 - diff) / esz),
            .pid = pid, .lane = i > INT32_MAX ? INT32_MAX : (int32_t)i,
            .arg = (int16_t)arg, .what = what, .shape = shape, .access = access,
        };
        if (nb == BATCH) {
            alog_add(t, buf, nb);
            nb = 0;
        }
    }
    if (nb)
        alog_add(t, buf, nb);
    if (unplaced)
        alog_unplaced(t, unplaced);
}

static inline const void *addr(uint64_t a) { return (const void *)(uintptr_t)a; }

/* ---- fp16 and bf16 elements: memory holds 16-bit patterns, slots floats -- */

static inline bool narrow16(dtype t)
{
    return t == DTYPE_FP16 || t == DTYPE_BF16;
}

/* n consecutive elements at src into float lanes D[0..n), and back; the
 * bits of dtype_load and dtype_store (fpconv.h), a whole run at a time. */
static void load16_run(dtype t, float *D, const void *src, int64_t n)
{
    if (t == DTYPE_FP16)
        fpconv_f16_to_f32_n(D, src, n);
    else
        fpconv_bf16_to_f32_n(D, src, n);
}

static void store16_run(dtype t, void *dst, const float *V, int64_t n)
{
    if (t == DTYPE_FP16)
        fpconv_f32_to_f16_n(dst, V, n);
    else
        fpconv_f32_to_bf16_n(dst, V, n);
}

/* n copies of one lane's value (a broadcast scalar stored to a run). */
static void store16_fill(dtype t, void *dst, float v, int64_t n)
{
    uint16_t h = t == DTYPE_FP16 ? fpconv_f32_to_f16(v) : fpconv_f32_to_bf16(v);
    for (int64_t i = 0; i < n; i++)
        memcpy((char *)dst + 2 * i, &h, 2);
}

/* One element at p into lane i of D, and lane i of V to p: typed for fp16
 * and bf16, through dtype.h for int1 and fp8. */
static inline void load_lane(dtype t, void *D, int64_t i, const void *p)
{
    uint16_t h;
    if (t == DTYPE_FP16) {
        memcpy(&h, p, 2);
        ((float *)D)[i] = fpconv_f16_to_f32(h);
    } else if (t == DTYPE_BF16) {
        memcpy(&h, p, 2);
        ((float *)D)[i] = fpconv_bf16_to_f32(h);
    } else {
        lane_set(t, D, i, dtype_load(t, p));
    }
}

static inline void store_lane(dtype t, void *p, const void *V, int64_t i)
{
    uint16_t h;
    if (t == DTYPE_FP16) {
        h = fpconv_f32_to_f16(((const float *)V)[i]);
        memcpy(p, &h, 2);
    } else if (t == DTYPE_BF16) {
        h = fpconv_f32_to_bf16(((const float *)V)[i]);
        memcpy(p, &h, 2);
    } else {
        dtype_store(t, p, lane_get(t, V, i));
    }
}

/* Stores into a tensor this large bypass the caches (non-temporal stores,
 * as glibc's memcpy does for large copies): its lines would only push the
 * rest out, and a write that misses need not read the line first. */
enum { STREAM_MIN_TENSOR = 32 << 20, STREAM_MIN_RUN = 1024 };

/* memcpy into tensor memory, streaming when the run is long enough; the
 * caller ends the instruction with stream_end(). */
static void copy_out(void *dst, const void *src, size_t n, bool stream)
{
#if defined(__SSE2__)
    if (stream && n >= STREAM_MIN_RUN) {
        char *d = dst;
        const char *s = src;
        size_t head = (16 - ((uintptr_t)d & 15)) & 15;
        memcpy(d, s, head);
        d += head;
        s += head;
        n -= head;
        for (; n >= 64; n -= 64, d += 64, s += 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
            __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
            _mm_stream_si128((__m128i *)(void *)d, a);
            _mm_stream_si128((__m128i *)(void *)(d + 16), b);
            _mm_stream_si128((__m128i *)(void *)(d + 32), c);
            _mm_stream_si128((__m128i *)(void *)(d + 48), e);
        }
        memcpy(d, s, n);
        return;
    }
#else
    (void)stream;
#endif
    memcpy(dst, src, n);
}

/* Order the streaming stores before whatever comes next, as plain stores
 * would be. */
static void stream_end(bool stream)
{
#if defined(__SSE2__)
    if (stream)
        _mm_sfence();
#else
    (void)stream;
#endif
}

/* Fill a load's destination with its `other` operand (or zeros): what its
 * masked-off lanes hold. */
static void mem_prefill(void *D, const void *O, int64_t so, int64_t n, int ssz)
{
    if (!O) {
        memset(D, 0, (size_t)(n * ssz));
    } else if (so) {
        memmove(D, O, (size_t)(n * ssz));
    } else if (ssz == 4) {
        /* one value for every lane: a loop of stores, not a call of
         * memcpy per lane */
        uint32_t v, *d = D;
        memcpy(&v, O, sizeof v);
        for (int64_t i = 0; i < n; i++)
            d[i] = v;
    } else if (ssz == 8) {
        uint64_t v, *d = D;
        memcpy(&v, O, sizeof v);
        for (int64_t i = 0; i < n; i++)
            d[i] = v;
    } else {
        for (int64_t i = 0; i < n; i++)
            memcpy((char *)D + i * ssz, O, (size_t)ssz);
    }
}

/* mem_prefill of lanes [from, from + n) only. */
static void mem_prefill_part(void *D, const void *O, int64_t so, int64_t from, int64_t n,
                             int ssz)
{
    if (n > 0)
        mem_prefill((char *)D + from * ssz, O && so ? (const char *)O + from * so * ssz : O, so,
                    n, ssz);
}

/* A load or store through a tracked pointer tile (FASTPATH_MEMORY): one
 * range and alignment check for the box of active lanes, then whole rows
 * (one memcpy when the lanes are contiguous).  Returns false when the
 * ordinary path must run instead: the pointer's record is not valid, or
 * some lane of the box may be outside the tensor or misaligned (the
 * ordinary path then finds and reports the exact lane, if any). */
static bool mem_fast(exec_prog *P, const ir_inst *in)
{
    const exec_ctx *x = P->x;
    bool load = in->op == IR_LOAD;
    int32_t ps = in->a, ms = load ? in->b : in->c;
    const exec_rec *pr = REC(P, ps);
    if (!pr->valid)
        return false;
    /* --initcheck: an argument whose storage has a bitmap takes the plain
     * path, which checks and marks it (exec_check.c) */
    if (x->check && exec_check_lanes(x->check, x->L, x->k->slots[ps].ptr_arg))
        return false;
    const ir_type *tp = TYPE(P, ps);
    dtype t = dtype_elem(tp->dt);
    int64_t ssz = st_size(st_of(t)), nlanes = NUMEL(P, ps);
    int64_t esz = same_repr(t) ? ssz : t == DTYPE_FP16 || t == DTYPE_BF16 ? 2 : 1;
    _Static_assert(AFFINE_MAX_DIM == 4, "the loops below walk four axes");
    int64_t n[AFFINE_MAX_DIM], st[AFFINE_MAX_DIM] = {0}, lo[AFFINE_MAX_DIM] = {0};
    int64_t hi[AFFINE_MAX_DIM];
    int pad = AFFINE_MAX_DIM - tp->ndim;
    rec_shape4(tp, n);
    for (int d = 0; d < AFFINE_MAX_DIM; d++)
        hi[d] = n[d];
    for (int d = 0; d < tp->ndim; d++)
        st[d + pad] = pr->st[d];
    const uint8_t *M = NULL;       /* a mask known only lane by lane */
    bool empty = false;
    if (ms >= 0) {
        if (NUMEL(P, ms) == 1) {
            empty = !*(const uint8_t *)SLOT(P, ms);
        } else if (TRACKED(P, ms) && REC(P, ms)->valid) {
            const exec_rec *mr = REC(P, ms);
            for (int d = 0; d < tp->ndim; d++) {
                lo[d + pad] = mr->lo[d];
                hi[d + pad] = mr->hi[d];
            }
        } else {
            M = SLOT(P, ms);
        }
    }
    if (M && load && (const void *)M == SLOT(P, in->dst))
        return false;        /* the mask's lanes are about to be overwritten */
    bool full = !M;
    for (int d = 0; d < AFFINE_MAX_DIM; d++) {
        empty |= lo[d] >= hi[d];
        full &= lo[d] == 0 && hi[d] == n[d];
    }
    void *D = load ? SLOT(P, in->dst) : NULL;
    const void *O = load && in->c >= 0 ? SLOT(P, in->c) : NULL;
    int64_t so = load && in->c >= 0 ? STRIDE(P, in->c) : 0;
    if (empty) {
        if (load)
            mem_prefill(D, O, so, nlanes, (int)ssz);
        return true;
    }

    /* The box's lowest and highest offsets from the base, its first lane's
     * address, and alignment: the first lane aligned and every stride
     * along which the box has two lanes or more a multiple of esz. */
    int64_t olo = 0, ohi = 0, ofirst = 0;
    uint64_t odd = 0;
    for (int d = 0; d < AFFINE_MAX_DIM; d++) {
        int64_t a, b;
        if (__builtin_mul_overflow(st[d], lo[d], &a) ||
            __builtin_mul_overflow(st[d], hi[d] - 1, &b) ||
            __builtin_add_overflow(olo, a < b ? a : b, &olo) ||
            __builtin_add_overflow(ohi, a < b ? b : a, &ohi) ||
            __builtin_add_overflow(ofirst, a, &ofirst))
            return false;
        if (hi[d] - lo[d] > 1)
            odd |= (uint64_t)st[d];
    }
    uint64_t base = (uint64_t)pr->base;
    uint64_t alo = base + (uint64_t)olo, ahi = base + (uint64_t)ohi;
    int arg = x->k->slots[ps].ptr_arg;
    odd |= base + (uint64_t)ofirst;
    if ((odd & (uint64_t)(esz - 1)) || alo > ahi || !in_arg(x, arg, alo, (int)esz) ||
        !in_arg(x, arg, ahi, (int)esz))
        return false;

    if (load && (IFLAGS(P, in) & FASTPATH_LOAD_VIEW) && full && n[0] == 1 && n[1] == 1 &&
        st[3] == esz && st[2] >= n[3] * esz && st[2] % esz == 0 && st[2] / esz <= INT32_MAX) {
        /* the dot that reads this tile takes the rows where they are */
        exec_rec *v = REC(P, in->dst);
        v->base = (int64_t)base;
        v->st[0] = st[2] / esz;
        v->valid = true;
        return true;
    }
    bool raw = same_repr(t) || (!load && t == DTYPE_INT1);
    const char *V = load ? NULL : SLOT(P, in->b);
    int64_t sv = load ? 0 : STRIDE(P, in->b);
    bool stream = !load && x->plan.argbytes[arg] >= STREAM_MIN_TENSOR;
    if (full && raw && (load || sv)) {
        bool contig = true;
        int64_t want = esz;
        for (int d = AFFINE_MAX_DIM - 1; d >= 0; d--) {
            contig &= n[d] == 1 || st[d] == want;
            want *= n[d];
        }
        if (contig) {
            if (load)
                memcpy(D, addr(base), (size_t)(nlanes * esz));
            else
                copy_out((void *)(uintptr_t)base, V, (size_t)(nlanes * esz), stream);
            stream_end(stream);
            return true;
        }
    }
    bool conv = !raw && narrow16(t);     /* whole runs through fpconv.h */
    int64_t j0 = lo[3], cnt = hi[3] - lo[3];
    if (load && !full && !M && lo[0] == 0 && hi[0] == n[0] && lo[1] == 0 && hi[1] == n[1] &&
        lo[2] == 0 && hi[2] == n[2]) {
        /* only the last axis is cut: the other value goes to each row's
         * lanes before and after the box, not to the whole tile (a
         * masked row of a power-of-two block filled twice) */
        for (int64_t row = 0; row < nlanes; row += n[3]) {
            mem_prefill_part(D, O, so, row, j0, (int)ssz);
            mem_prefill_part(D, O, so, row + j0 + cnt, n[3] - j0 - cnt, (int)ssz);
        }
    } else if (load && !full) {
        mem_prefill(D, O, so, nlanes, (int)ssz);
    }
    if (!M && st[3] == esz && cnt * esz <= 512) {
        /* short rows far apart: ask for all of them before copying any, so
         * that their cache misses overlap */
        for (int64_t i0 = lo[0]; i0 < hi[0]; i0++)
            for (int64_t i1 = lo[1]; i1 < hi[1]; i1++)
                for (int64_t i2 = lo[2]; i2 < hi[2]; i2++) {
                    const char *row = addr(base + (uint64_t)i0 * (uint64_t)st[0] +
                                           (uint64_t)i1 * (uint64_t)st[1] +
                                           (uint64_t)i2 * (uint64_t)st[2] +
                                           (uint64_t)(j0 * esz));
                    for (int64_t b = 0; b < cnt * esz + 63; b += 64) {
                        const char *at = row + (b < cnt * esz ? b : cnt * esz - 1);
                        if (load)
                            __builtin_prefetch(at, 0);
                        else
                            __builtin_prefetch(at, 1);
                    }
                }
    }
    for (int64_t i0 = lo[0]; i0 < hi[0]; i0++)
        for (int64_t i1 = lo[1]; i1 < hi[1]; i1++)
            for (int64_t i2 = lo[2]; i2 < hi[2]; i2++) {
                uint64_t row = base + (uint64_t)i0 * (uint64_t)st[0] +
                               (uint64_t)i1 * (uint64_t)st[1] + (uint64_t)i2 * (uint64_t)st[2];
                int64_t lane = ((i0 * n[1] + i1) * n[2] + i2) * n[3];
                if (!M && raw && st[3] == esz && (load || sv)) {
                    uint64_t a = row + (uint64_t)(j0 * esz);
                    if (load)
                        memcpy((char *)D + (lane + j0) * ssz, addr(a), (size_t)(cnt * esz));
                    else
                        copy_out((void *)(uintptr_t)a, V + (lane + j0) * ssz,
                                 (size_t)(cnt * esz), stream);
                    continue;
                }
                if (!M && conv && st[3] == esz) {
                    uint64_t a = row + (uint64_t)(j0 * esz);
                    if (load)
                        load16_run(t, (float *)D + lane + j0, addr(a), cnt);
                    else if (sv)
                        store16_run(t, (void *)(uintptr_t)a, (const float *)V + lane + j0, cnt);
                    else
                        store16_fill(t, (void *)(uintptr_t)a, *(const float *)V, cnt);
                    continue;
                }
                for (int64_t j = j0; j < j0 + cnt; j++) {
                    int64_t i = lane + j;
                    if (M && !M[i])
                        continue;
                    uint64_t a = row + (uint64_t)j * (uint64_t)st[3];
                    if (load && raw)
                        memcpy((char *)D + i * ssz, addr(a), (size_t)esz);
                    else if (load)
                        load_lane(t, D, i, addr(a));
                    else if (raw)
                        memcpy((void *)(uintptr_t)a, V + i * sv * ssz, (size_t)esz);
                    else
                        store_lane(t, (void *)(uintptr_t)a, V, i * sv);
                }
            }
    stream_end(stream);
    return true;
}

/* d[i] = *ptr[i] for active lanes, else the other value (or zero). */
#define LOAD_LOOP(T) do { \
    T *d_ = D; const T *o_ = O; \
    if (ac.contig) { memcpy(d_, addr(ac.ptr[0]), (size_t)n * sizeof(T)); break; } \
    for (int64_t i = 0; i < n; i++) { \
        if (!ac.mask || ac.mask[i * ac.sm]) \
            memcpy(&d_[i], addr(ac.ptr[i * ac.sp]), sizeof(T)); \
        else \
            d_[i] = o_ ? o_[i * so] : (T)0; \
    } \
} while (0)

bool exec_op_load(exec_prog *P, const ir_inst *in)
{
    if (IFLAGS(P, in) & FASTPATH_LOAD_VIEW)
        REC(P, in->dst)->valid = false;     /* lanes, unless mem_fast says */
    if (IFLAGS(P, in) & FASTPATH_MEMORY) {
        if (!P->x->L->log && mem_fast(P, in))
            return true;
        exec_slot_sync(P, in->a);
        exec_slot_sync(P, in->b);
    }
    dtype t = DT(P, in->dst);
    int64_t n = NUMEL(P, in->dst);
    access ac = {
        .kind = ACC_LOAD, .pslot = in->a, .ptr = SLOT(P, in->a),
        .sp = STRIDE(P, in->a), .mask = in->b >= 0 ? SLOT(P, in->b) : NULL,
        .sm = in->b >= 0 ? STRIDE(P, in->b) : 0, .n = n, .esz = dtype_size(t),
    };
    bool checked = check_access(P, in, &ac);
    if (P->x->L->log)
        alog_access(P, in, &ac, checked);
    if (!checked)
        return false;
    if (P->x->check && !exec_check_access(P, in, EXEC_ACC_LOAD, ac.pslot, ac.ptr, ac.sp,
                                          ac.mask, ac.sm, ac.n, ac.esz))
        return false;
    void *D = SLOT(P, in->dst);
    const void *O = in->c >= 0 ? SLOT(P, in->c) : NULL;
    int64_t so = in->c >= 0 ? STRIDE(P, in->c) : 0;
    if (same_repr(t)) {
        switch (st_size(st_of(t))) {
        case 1: LOAD_LOOP(uint8_t); break;
        case 2: LOAD_LOOP(uint16_t); break;
        case 4: LOAD_LOOP(uint32_t); break;
        default: LOAD_LOOP(uint64_t); break;
        }
        return true;
    }
    /* int1, fp16, bf16, fp8: decode each element. */
    if (ac.contig && narrow16(t)) {
        load16_run(t, D, addr(ac.ptr[0]), n);
        return true;
    }
    for (int64_t i = 0; i < n; i++) {
        if (!ac.mask || ac.mask[i * ac.sm])
            load_lane(t, D, i, addr(ac.ptr[i * ac.sp]));
        else if (O)
            lane_set(t, D, i, lane_get(t, O, i * so));
        else
            lane_set(t, D, i, (dtype_scalar){.u = 0});
    }
    return true;
}

#define STORE_LOOP(T) do { \
    const T *v_ = V; \
    if (ac.contig && sv) { memcpy((void *)(uintptr_t)ac.ptr[0], v_, (size_t)n * sizeof(T)); break; } \
    for (int64_t i = 0; i < n; i++) \
        if (!ac.mask || ac.mask[i * ac.sm]) \
            memcpy((void *)(uintptr_t)ac.ptr[i * ac.sp], &v_[i * sv], sizeof(T)); \
} while (0)

bool exec_op_store(exec_prog *P, const ir_inst *in)
{
    if (IFLAGS(P, in) & FASTPATH_MEMORY) {
        if (!P->x->L->log && mem_fast(P, in))
            return true;
        exec_slot_sync(P, in->a);
        exec_slot_sync(P, in->c);
    }
    dtype t = dtype_elem(DT(P, in->a));
    int64_t n = NUMEL(P, in->a);
    if (NUMEL(P, in->b) > n)
        n = NUMEL(P, in->b);
    if (in->c >= 0 && NUMEL(P, in->c) > n)
        n = NUMEL(P, in->c);
    access ac = {
        .kind = ACC_STORE, .pslot = in->a, .ptr = SLOT(P, in->a),
        .sp = STRIDE(P, in->a), .mask = in->c >= 0 ? SLOT(P, in->c) : NULL,
        .sm = in->c >= 0 ? STRIDE(P, in->c) : 0, .n = n, .esz = dtype_size(t),
    };
    bool checked = check_access(P, in, &ac);
    if (P->x->L->log)
        alog_access(P, in, &ac, checked);
    if (!checked)
        return false;
    if (P->x->check && !exec_check_access(P, in, EXEC_ACC_STORE, ac.pslot, ac.ptr, ac.sp,
                                          ac.mask, ac.sm, ac.n, ac.esz))
        return false;
    const void *V = SLOT(P, in->b);
    int64_t sv = STRIDE(P, in->b);
    if (same_repr(t) || t == DTYPE_INT1) {   /* int1 lanes are already 0/1 */
        switch (st_size(st_of(t))) {
        case 1: STORE_LOOP(uint8_t); break;
        case 2: STORE_LOOP(uint16_t); break;
        case 4: STORE_LOOP(uint32_t); break;
        default: STORE_LOOP(uint64_t); break;
        }
        return true;
    }
    /* fp16, bf16, fp8: encode each element (exact: the lanes hold such
     * values). */
    if (ac.contig && sv && narrow16(t)) {
        store16_run(t, (void *)(uintptr_t)ac.ptr[0], V, n);
        return true;
    }
    for (int64_t i = 0; i < n; i++)
        if (!ac.mask || ac.mask[i * ac.sm])
            store_lane(t, (void *)(uintptr_t)ac.ptr[i * ac.sp], V, i * sv);
    return true;
}

/* ---- atomics --------------------------------------------------------- */

/* Atomic access to 1, 2, 4 or 8 bytes as an unsigned bit pattern. */
static uint64_t atomic_read(void *p, int size)
{
    switch (size) {
    case 1: return __atomic_load_n((uint8_t *)p, __ATOMIC_SEQ_CST);
    case 2: return __atomic_load_n((uint16_t *)p, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST);
    }
}

#define CAS_N(T) do { \
    T e_ = (T)*expected; \
    bool ok_ = __atomic_compare_exchange_n((T *)p, &e_, (T)desired, false, \
                                           __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    *expected = e_; \
    return ok_; \
} while (0)

static bool atomic_cas_bits(void *p, int size, uint64_t *expected, uint64_t desired)
{
    switch (size) {
    case 1: CAS_N(uint8_t);
    case 2: CAS_N(uint16_t);
    case 4: CAS_N(uint32_t);
    default: CAS_N(uint64_t);
    }
}

/* A value of type t from / to its memory bit pattern. */
static dtype_scalar from_bits(dtype t, uint64_t bits)
{
    unsigned char b[8];
    switch (dtype_size(t)) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(b, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(b, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(b, &v, 4); break; }
    default: memcpy(b, &bits, 8); break;
    }
    return dtype_load(t, b);
}

static uint64_t to_bits(dtype t, dtype_scalar v)
{
    unsigned char b[8] = {0};
    dtype_store(t, b, v);
    switch (dtype_size(t)) {
    case 1: { uint8_t r; memcpy(&r, b, 1); return r; }
    case 2: { uint16_t r; memcpy(&r, b, 2); return r; }
    case 4: { uint32_t r; memcpy(&r, b, 4); return r; }
    default: { uint64_t r; memcpy(&r, b, 8); return r; }
    }
}

/* The new value of an atomic read-modify-write. */
static dtype_scalar atomic_apply(ir_atomic op, dtype t, dtype_scalar cur,
                                 dtype_scalar val)
{
    if (dtype_is_float(t)) {
        switch (op) {
        case IR_ATOMIC_ADD: cur.f = dtype_round_float(t, cur.f + val.f); break;
        case IR_ATOMIC_MAX: cur.f = fmax(cur.f, val.f); break;
        case IR_ATOMIC_MIN: cur.f = fmin(cur.f, val.f); break;
        case IR_ATOMIC_XCHG: cur = val; break;
        case IR_ATOMIC_CAS:                 /* atomic_lane compares itself */
        case IR_ATOMIC_AND: case IR_ATOMIC_OR: case IR_ATOMIC_XOR:   /* ints only */
            break;
        }
        return cur;
    }
    bool s = dtype_is_signed(t);
    switch (op) {
    case IR_ATOMIC_ADD: return dtype_wrap(t, cur.u + val.u);
    case IR_ATOMIC_MAX:
        return (s ? val.i > cur.i : val.u > cur.u) ? val : cur;
    case IR_ATOMIC_MIN:
        return (s ? val.i < cur.i : val.u < cur.u) ? val : cur;
    case IR_ATOMIC_AND: return dtype_wrap(t, cur.u & val.u);
    case IR_ATOMIC_OR: return dtype_wrap(t, cur.u | val.u);
    case IR_ATOMIC_XOR: return dtype_wrap(t, cur.u ^ val.u);
    case IR_ATOMIC_XCHG: return val;
    case IR_ATOMIC_CAS: return cur;         /* atomic_lane compares itself */
    }
    return cur;
}

/* One lane: returns the old value.  Integer add on 4- and 8-byte types
 * is a fetch-add; everything else a compare-and-swap loop on the bits
 * (fp32 add included). */
static dtype_scalar atomic_lane(ir_atomic op, dtype t, void *p, dtype_scalar val,
                                dtype_scalar cmp)
{
    int size = dtype_size(t);
    if (op == IR_ATOMIC_ADD && dtype_is_int(t) && t != DTYPE_INT1 && size >= 4) {
        uint64_t old = size == 4
            ? __atomic_fetch_add((uint32_t *)p, (uint32_t)val.u, __ATOMIC_SEQ_CST)
            : __atomic_fetch_add((uint64_t *)p, val.u, __ATOMIC_SEQ_CST);
        return dtype_wrap(t, old);
    }
    uint64_t cur = atomic_read(p, size);
    for (;;) {
        dtype_scalar old = from_bits(t, cur);
        uint64_t next;
        if (op == IR_ATOMIC_CAS)
            next = cur == to_bits(t, cmp) ? to_bits(t, val) : cur;
        else
            next = to_bits(t, atomic_apply(op, t, old, val));
        if (next == cur || atomic_cas_bits(p, size, &cur, next))
            return old;
    }
}

bool exec_op_atomic(exec_prog *P, const ir_inst *in)
{
    dtype t = dtype_elem(DT(P, in->a));
    bool cas = in->sub == IR_ATOMIC_CAS;
    int32_t vslot = cas ? in->d : in->b;
    int64_t n = NUMEL(P, in->a);
    if (NUMEL(P, vslot) > n)
        n = NUMEL(P, vslot);
    if (in->c >= 0 && NUMEL(P, in->c) > n)
        n = NUMEL(P, in->c);
    if (in->dst >= 0 && NUMEL(P, in->dst) > n)
        n = NUMEL(P, in->dst);
    access ac = {
        .kind = ACC_ATOMIC, .pslot = in->a, .ptr = SLOT(P, in->a),
        .sp = STRIDE(P, in->a), .mask = in->c >= 0 ? SLOT(P, in->c) : NULL,
        .sm = in->c >= 0 ? STRIDE(P, in->c) : 0, .n = n, .esz = dtype_size(t),
    };
    if (dtype_is_fp8(t))
        return exec_fail(P, in, NULL, "atomics on %s tensors are not supported",
                         dtype_name(t));
    bool checked = check_access(P, in, &ac);
    if (P->x->L->log)
        alog_access(P, in, &ac, checked);
    if (!checked)
        return false;
    if (P->x->check && !exec_check_access(P, in, EXEC_ACC_ATOMIC, ac.pslot, ac.ptr, ac.sp,
                                          ac.mask, ac.sm, ac.n, ac.esz))
        return false;
    const void *V = SLOT(P, vslot);
    int64_t sv = STRIDE(P, vslot);
    const void *CMP = cas ? SLOT(P, in->b) : NULL;
    int64_t scmp = cas ? STRIDE(P, in->b) : 0;
    void *D = in->dst >= 0 ? SLOT(P, in->dst) : NULL;
    dtype_scalar zero = {.u = 0};
    int64_t active = 0;         /* a lock (exec_check_lock): one lane */
    bool swapped = false;
    uint64_t last = 0;
    for (int64_t i = 0; i < n; i++) {
        dtype_scalar old = zero;     /* masked lanes return 0 */
        if (!ac.mask || ac.mask[i * ac.sm]) {
            dtype_scalar cmp = cas ? lane_get(t, CMP, i * scmp) : zero;
            last = ac.ptr[i * ac.sp];
            old = atomic_lane((ir_atomic)in->sub, t, (void *)(uintptr_t)last,
                              lane_get(t, V, i * sv), cmp);
            active++;
            swapped = cas && dtype_is_int(t) && old.u == cmp.u;
        }
        if (D)
            lane_set(t, D, i, old);
    }
    if (P->x->check && active == 1)
        exec_check_lock(P, (ir_atomic)in->sub, last, swapped);
    return true;
}
