/* fault.c - the messages of kernels' run-time errors, one text for every
 * backend (fault.h), and where they are reported. */
#include "fault.h"

#include <inttypes.h>
#include <stdio.h>

void backend_fault_access(const backend_access_fault *f, strbuf *msg, strbuf *note)
{
    static const char *const what[] = {"load from", "store to", "atomic update of"};
    static const char *const what_any[] = {"load", "store", "atomic update"};
    static const char *const verb[] = {"reads", "writes", "updates"};
    const int64_t *c = f->coord;
    int k = (int)f->kind;
    if (f->arg < 0 && f->int_ptrs) {
        strbuf_puts(note, "a pointer made from an integer must point into a tensor that is "
                    "still alive (the addresses from data_ptr()), or into an argument");
        strbuf_printf(msg, "%s through a wild pointer in program (%" PRId64 ", %" PRId64 ", %"
                      PRId64 "): %s %s address 0x%" PRIx64 ", which is in no tensor (neither "
                      "a tensor argument nor a live tensor whose data_ptr() the program took)",
                      what_any[k], c[0], c[1], c[2], f->lane, verb[k], f->addr);
        return;
    }
    if (f->arg < 0) {
        strbuf_puts(note, "this pointer does not point into any tensor passed to the kernel; "
                    "check how it was computed");
        strbuf_printf(msg, "out-of-bounds %s in program (%" PRId64 ", %" PRId64 ", %" PRId64
                      "): %s %s an address outside every tensor argument",
                      what_any[k], c[0], c[1], c[2], f->lane, verb[k]);
        return;
    }
    uint64_t ad = f->addr, base = f->arg_base;
    int64_t aesz = f->arg_esz;
    int64_t diff = (int64_t)(ad - base);
    /* rounded down; unsigned, as -diff overflows for the lowest address */
    uint64_t below = (0 - (uint64_t)diff + (uint64_t)aesz - 1) / (uint64_t)aesz;
    int64_t elem = diff >= 0 ? diff / aesz : -1 - (int64_t)(below - 1);
    bool inside = ad >= base && f->arg_bytes >= (uint64_t)f->esz &&
                  ad - base <= f->arg_bytes - (uint64_t)f->esz;
    if (inside) {
        strbuf_puts(note, "offsets count elements, not bytes");
        strbuf_printf(msg, "misaligned %s '%s' in program (%" PRId64 ", %" PRId64 ", %" PRId64
                      "): %s %s byte %" PRId64 " of the tensor, not a multiple of the element "
                      "size (%d bytes)", what[k], f->arg_name, c[0], c[1], c[2], f->lane,
                      verb[k], diff, f->esz);
        return;
    }
    if (elem < 0)
        strbuf_puts(note, "the offset is negative here; check how the offsets are computed "
                    "from the program id");
    else if (f->kind == BACKEND_ACCESS_LOAD)
        strbuf_puts(note, "mask the lanes past the end: tl.load(ptr + offs, mask=offs < n)");
    else
        strbuf_puts(note, "mask the lanes past the end: tl.store(ptr + offs, x, mask=offs < n)");
    strbuf_printf(msg, "out-of-bounds %s '%s' in program (%" PRId64 ", %" PRId64 ", %" PRId64
                  "): %s %s element %" PRId64 " of a %zu-element tensor", what[k], f->arg_name,
                  c[0], c[1], c[2], f->lane, verb[k], elem, f->arg_numel);
}

void backend_fault_tagged(backend_access_kind kind, const int64_t coord[3], const char *lane,
                          uint64_t addr, uint64_t base, uint64_t bytes, int esz,
                          dtype ptr_type, strbuf *msg, strbuf *note)
{
    static const char *const what[] = {"load", "store", "atomic update"};
    static const char *const verb[] = {"reads", "writes", "updates"};
    const int64_t *c = coord;
    int k = (int)kind;
    int64_t diff = (int64_t)(addr - base);
    if (diff >= 0 && bytes >= (uint64_t)esz && (uint64_t)diff <= bytes - (uint64_t)esz &&
        diff % esz) {
        strbuf_puts(note, "offsets count elements, not bytes");
        strbuf_printf(msg, "misaligned %s in program (%" PRId64 ", %" PRId64 ", %" PRId64 "): "
                      "%s %s byte %" PRId64 " of the tensor storage its pointer was made from "
                      "(an integer cast to %s), not a multiple of the element size (%d bytes)",
                      what[k], c[0], c[1], c[2], lane, verb[k], diff, dtype_name(ptr_type), esz);
        return;
    }
    /* rounded down; unsigned, as -diff overflows for the lowest address */
    uint64_t below = (0 - (uint64_t)diff + (uint64_t)esz - 1) / (uint64_t)esz;
    int64_t elem = diff >= 0 ? diff / esz : -1 - (int64_t)(below - 1);
    strbuf_puts(note, elem < 0 ? "the offset is negative here; check the offsets added to the "
                "pointer made from an integer"
                : "mask the lanes past the end, or check the sizes and strides used with the "
                "pointer made from an integer");
    strbuf_printf(msg, "out-of-bounds %s in program (%" PRId64 ", %" PRId64 ", %" PRId64 "): "
                  "%s %s element %" PRId64 " of the %" PRId64 "-element tensor storage its "
                  "pointer was made from (an integer cast to %s)", what[k], c[0], c[1], c[2],
                  lane, verb[k], elem, (int64_t)(bytes / (uint64_t)esz), dtype_name(ptr_type));
}

void backend_fault_gather(const int64_t coord[3], const char *lane, bool negative,
                          uint64_t magnitude, int ax, int64_t axis_size, strbuf *msg,
                          strbuf *note)
{
    strbuf_puts(note, "clamp or mask the indices: they must lie in [0, size of the axis)");
    strbuf_printf(msg, "tl.gather index out of range in program (%" PRId64 ", %" PRId64 ", %"
                  PRId64 "): %s has index %s%" PRIu64 ", but axis %d has %" PRId64
                  " elements", coord[0], coord[1], coord[2], lane, negative ? "-" : "",
                  magnitude, ax, axis_size);
}

void backend_lane_name(char *buf, size_t len, const ir_type *t, int64_t lane)
{
    if (t->ndim <= 1) {
        snprintf(buf, len, "lane %" PRId64, lane);
        return;
    }
    int64_t idx[IR_MAX_DIM];
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = lane % t->shape[d];
        lane /= t->shape[d];
    }
    size_t n = (size_t)snprintf(buf, len, "lane (");
    for (int d = 0; d < t->ndim && n < len; d++)
        n += (size_t)snprintf(buf + n, len - n, "%s%" PRId64, d ? ", " : "", idx[d]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

static int64_t backend_numel(const ir_type *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n;
}

const ir_type *backend_lane_type(const ir_kernel *k, const ir_inst *in)
{
    int32_t s[1 + IR_MAX_READS] = {in->dst};
    int n = 1 + ir_reads(in, s + 1);
    int32_t best = -1;
    for (int i = 0; i < n; i++)
        if (s[i] >= 0 && (best < 0 || backend_numel(&k->slots[s[i]].type) >
                                          backend_numel(&k->slots[best].type)))
            best = s[i];
    return &k->slots[best].type;
}

/* The file the code of frame f comes from: its own, else file. */
static const src_file *backend_frame_file(const ir_kernel *k, const src_file *file, int32_t f)
{
    return f >= 0 && f < k->nframes && k->frames[f].file ? k->frames[f].file : file;
}

const src_file *backend_inst_file(const ir_kernel *k, const src_file *file,
                                  const ir_inst *in)
{
    return backend_frame_file(k, file, in ? in->frame : -1);
}

void backend_report_at(diag_sink *diag, const ir_kernel *k, const src_file *file,
                       const ir_inst *in, const char *msg, const char *note)
{
    src_span sp = in && in->at ? in->at->span : (src_span){0};
    const src_file *f0 = backend_frame_file(k, file, in ? in->frame : -1);
    diag_report(diag, DIAG_ERROR, f0, sp, "%s", msg);
    if (note)
        diag_report(diag, DIAG_NOTE, f0, sp, "%s", note);
    /* The inlined calls, innermost first; a run of the same call
     * (recursion) once, with a count. */
    for (int32_t f = in ? in->frame : -1; f >= 0 && f < k->nframes;) {
        if (!k->frames[f].call)
            break;
        diag_report(diag, DIAG_NOTE, backend_frame_file(k, file, k->frames[f].parent),
                    k->frames[f].call->span, "in '%s', called from here", k->frames[f].func);
        int32_t g = k->frames[f].parent;
        int repeats = 0;
        for (; g >= 0 && g < k->nframes && k->frames[g].call == k->frames[f].call;
             g = k->frames[g].parent)
            repeats++;
        if (repeats)
            diag_repeated(diag, repeats);
        f = g;
    }
}
