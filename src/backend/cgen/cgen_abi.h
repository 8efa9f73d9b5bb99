/* cgen_abi.h - the contract between a kernel emitted by cgen (cgen.h) and
 * the GPU backend that launches it (backend/cuda, later backend/hip): the
 * kernel's parameters, the runtime block it reports errors and prints
 * through, and the record formats in it.  Host-side C; cgen writes the
 * same definitions into every kernel's prelude, with static_asserts of the
 * offsets below, so the two sides cannot drift apart silently.
 *
 * The entry point of every emitted kernel is
 *
 *     extern "C" __global__ void tk_kernel(tk_rt *rt, P0 p0, P1 p1, ...,
 *                                          lo_i, hi_i, c_i, ...)
 *
 * and, after them, for each pointer parameter i in order, three 64-bit
 * parameters: the first and one past the last device byte it may reach,
 * and c = hi - lo - 15 (0 where hi - lo < 16), the offsets from lo at
 * which 16 bytes fit (the bounds checks read them from the parameter bank;
 * lo and hi are also in rt->arg_lo/arg_hi for the host's records).
 * with one parameter per ir_kernel.params, in order, of the C type
 * cgen_param_size says (pointers: the 64-bit device address of the
 * argument's first element; ints of 32 bits or fewer and int1: a 32-bit
 * int; 64-bit ints: 64 bits; fp8, fp16, bf16, fp32: a float holding the
 * exact value; fp64: a double).  The block is cgen_info.threads threads
 * (num_warps warps), with cgen_info.smem_bytes of dynamic shared memory;
 * the grid is (grid[0], grid[1], grid[2]): program (x, y, z) is block
 * (x, y, z).
 *
 * rt points to device memory the backend owns: a tk_rt followed by the
 * arrays it points to.  The backend fills the inputs before a launch and
 * clears err_key and print_used; after the launch it reads them back:
 *  - err_key != TK_NO_ERROR: a program failed; err says where and how
 *    (the lowest program id, linear x + y*gx + z*gx*gy, wins; within it the
 *    first failing instruction, and in it the lowest lane).  The program
 *    stopped there; other programs may have run on.
 *  - print records (below) from print_buf[0 .. min(print_used,
 *    print_cap)); print_used > print_cap means records were lost.
 *
 * Pointers made from integers.  A kernel with a CAST from an integer to a
 * pointer (cgen_info.int_ptrs) takes two more parameters, after the
 * bounds:
 *
 *     const tk_amap *tk_am, unsigned long long tk_nam
 *
 * the table of the storages such a pointer may reach (backend.h:
 * backend_launch.revealed), tk_nam entries by increasing host address, in
 * device memory.  The kernel keeps such pointers at the host's addresses,
 * as the CPU does (addrmap.h), so that casting one back to an integer or
 * printing it shows what the CPU shows: the cast looks the address up (the
 * last entry whose [host, host + bytes] holds it, one past its end
 * included) and keeps that entry's number i + 1 in the lane's top 16 bits,
 * lane = address + ((i + 1) << 48), decoded as the nearest multiple of
 * 2^48 (so pointer arithmetic below the storage keeps it); an address in
 * no entry stays as it is (a device address, from a pointer argument cast
 * to an integer and back: under unified addressing the device's
 * allocations and the host's never overlap).  A LOAD, STORE or ATOMIC lane
 * with such a number checks its host address against the entry (checked
 * kernels: TK_ERR_TAGGED) and moves the bytes at dev + (address - host);
 * a cast back to an integer or a print removes the number.  At most
 * TK_AMAP_MAX entries. */
#ifndef TRITSIM_CGEN_ABI_H
#define TRITSIM_CGEN_ABI_H

#include <stdint.h>

#define TK_NO_ERROR UINT64_MAX

/* What went wrong (tk_err.kind). */
typedef enum tk_err_kind {
    TK_ERR_NONE = 0,
    TK_ERR_ACCESS = 1,      /* a LOAD, STORE or ATOMIC lane outside every
                               tensor it may reach, or misaligned: addr, arg
                               (the argument it should lie in, -1: none) */
    TK_ERR_ASSERT = 2,      /* an ASSERT lane was false: lane */
    TK_ERR_GATHER = 3,      /* a GATHER index out of its axis: value */
    TK_ERR_TRAP = 4,        /* anything else the emitted code detects: value
                               is a code the emitter documents */
    TK_ERR_TAGGED = 5,      /* a LOAD, STORE or ATOMIC lane through a pointer
                               made from an integer outside the storage it
                               was made from, or misaligned: addr (the host
                               address it reached), value (the tk_amap entry) */
} tk_err_kind;

typedef struct tk_err {
    uint32_t kind;          /* tk_err_kind */
    int32_t pc;             /* the failing instruction */
    int64_t pid[3];         /* the program */
    int64_t lane;           /* flat (row-major) lane of the instruction's tile */
    uint64_t addr;          /* TK_ERR_ACCESS: the device address */
    int32_t arg;            /* TK_ERR_ACCESS: the pointer argument, -1 none */
    int32_t pad;
    int64_t value;          /* TK_ERR_GATHER: the index; TK_ERR_TRAP: a code */
} tk_err;

typedef struct tk_rt {
    /* inputs */
    uint64_t *arg_lo;       /* per parameter: first byte it may reach (pointers) */
    uint64_t *arg_hi;       /* per parameter: one past its last byte */
    unsigned char *print_buf;
    uint64_t print_cap;     /* bytes */
    /* outputs */
    unsigned long long print_used;   /* bytes asked for so far (atomicAdd) */
    unsigned long long err_key;      /* TK_NO_ERROR, or pid_linear << 26 | lane:
                                        the smallest wins (atomicMin) */
    unsigned int err_lock;           /* guards err while a program writes it */
    unsigned int pad;
    tk_err err;
} tk_rt;

/* One storage a pointer made from an integer may reach: its host bytes
 * [host, host + bytes) and the device address of its copy. */
typedef struct tk_amap {
    uint64_t host;
    uint64_t bytes;
    uint64_t dev;
} tk_amap;

enum {
    TK_AMAP_SHIFT = 48,     /* where an entry's number sits in a lane */
    TK_AMAP_MAX = 65535,    /* the numbers 16 bits hold (backend.h keeps
                               launches well below: BACKEND_MAX_REVEALED) */
};

/* A print record in print_buf (8-byte aligned, little-endian):
 *     uint32 bytes      the record's size, header included, a multiple of 8
 *     uint32 what       the instruction's pc, or'd with TK_REC_BREAK for a
 *                       BREAKPOINT, TK_REC_ASSERT for a failed ASSERT's
 *                       message, neither for a PRINT
 *     uint32 pid[3]     the program
 *     uint32 seq        the record's number within its program (0, 1, ...)
 *     then, for a PRINT or ASSERT, for each piece of the instruction's
 *     ir_print with a slot, in piece order, that slot's elements in
 *     row-major order, each in the slot dtype's memory format (dtype_store's:
 *     fp16 and bf16 as their bits, fp8 as its byte, int1 as a byte 0 or 1,
 *     pointers as 8-byte addresses), each slot's data padded to 8 bytes.
 *     A BREAKPOINT has no data.
 * A program reserves a record with one atomicAdd of its size on
 * print_used, at offset o.  It writes the record only when it fits
 * (o + bytes <= print_cap); when only the first 8 bytes fit it still
 * writes `bytes`, so that the host, walking the records from offset 0,
 * knows where the written ones end: records are reserved in increasing
 * offsets, so the ones that fit are exactly those before the first one
 * that does not.
 * A program that fails an ASSERT whose message formats values writes
 * the TK_REC_ASSERT record of those values before it stops (the host
 * words the error as the CPU does, cgen_out.h); a device_print
 * (IR_PRINT_DEVICE) record holds its slots as a print() one does: the
 * host writes one line per element, as the CPU does. */
enum { TK_PRINT_HEADER = 24 };
#define TK_REC_BREAK 0x80000000u
#define TK_REC_ASSERT 0x40000000u
#define TK_REC_PC 0x3fffffffu

#endif
