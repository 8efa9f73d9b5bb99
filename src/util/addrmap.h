/* addrmap.h - the live tensor storages whose addresses a program has seen,
 * by address range, so that a kernel can turn an integer back into a
 * pointer (x.to(tl.pointer_type(...)), tl.cast) and every access through
 * that pointer is still checked against the storage it points into.
 *
 * A storage enters the map the first time the host reveals its address
 * (Tensor.data_ptr(), a TensorDescriptor, the allocator's scratch) and
 * leaves it when it is freed.  Entering it gives the storage a tag, a
 * number from 1 to ADDRMAP_MAX_TAGS that stays its own while it lives
 * (freed tags are used again).
 *
 * Tagged pointers.  When a kernel makes a pointer from an integer, the
 * executor looks the address up here (addrmap_find) and keeps the tag in
 * the pointer lane's top 16 bits: lane = address + (tag << 48).  Pointer
 * arithmetic on the lane then moves the address and keeps the tag, and a
 * load or store checks the untagged address against the tagged storage,
 * so stepping from one tensor into its neighbour is an error, as it is
 * for a pointer argument.  The tag is decoded as the nearest multiple of
 * 2^48 (addrmap_tag_of), so an address that pointer arithmetic took below
 * the storage (even below zero) still decodes to its tag.  User-space
 * addresses are below 2^47 on x86-64 and AArch64 (48-bit virtual
 * addresses); a storage outside that range is not tagged and addresses in
 * it cannot be turned back into pointers.  Everything that shows a pointer
 * (ptr -> int casts, prints, comparisons) uses the untagged address.
 *
 * Only the host thread changes the map, never while a launch runs; the
 * executor's workers only read it. */
#ifndef TRITSIM_ADDRMAP_H
#define TRITSIM_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    ADDRMAP_TAG_SHIFT = 48,
    ADDRMAP_MAX_TAGS = 65535,
};

/* One registered storage: its first byte, how many bytes it holds, and
 * what its registrant asked to keep with it (the tensor layer: the
 * storage's backend_buffer, so that a GPU launch can give the kernel a
 * device copy of every registered storage). */
typedef struct addrmap_entry {
    uint64_t base;
    uint64_t bytes;
    void *owner;
} addrmap_entry;

/* Register [base, base + bytes) with its owner; returns its tag, or 0 when
 * the range is empty, outside the taggable addresses, or every tag is
 * taken. */
int addrmap_add(const void *base, size_t bytes, void *owner);
/* Forget a registered storage (tag from addrmap_add; 0 does nothing). */
void addrmap_remove(int tag);
/* The tag of the storage that holds addr (its one-past-the-end address
 * included), or 0 when no registered storage does. */
int addrmap_find(uint64_t addr);
/* The storage of a tag, or NULL when the tag is not in use. */
const addrmap_entry *addrmap_get(int tag);
/* How many storages are registered. */
int addrmap_count(void);
/* The i-th registered storage by increasing base address (0 <= i <
 * addrmap_count()), for walking them all in that order. */
const addrmap_entry *addrmap_nth(int i);

/* The tag a lane's top bits name (not necessarily one in use). */
static inline int addrmap_raw_tag(uint64_t lane)
{
    return (int)(((lane + ((uint64_t)1 << (ADDRMAP_TAG_SHIFT - 1))) >> ADDRMAP_TAG_SHIFT) &
                 0xffff);
}

/* The tag of a pointer lane: the one its top bits name when a storage has
 * it, else 0 (an ordinary address).  An integer of 2^47 or more that is no
 * address of a storage, cast to a pointer, keeps its value, unless its top
 * bits happen to name a tag in use: then it reads as a pointer into that
 * storage (no user-space address is that large). */
int addrmap_lane_tag(uint64_t lane);

/* The address a lane holds, tag removed (an address below zero, which only
 * pointer arithmetic past the start of a storage makes, wraps). */
static inline uint64_t addrmap_untag_as(uint64_t lane, int tag)
{
    return lane - ((uint64_t)tag << ADDRMAP_TAG_SHIFT);
}

static inline uint64_t addrmap_untag(uint64_t lane)
{
    return addrmap_untag_as(lane, addrmap_lane_tag(lane));
}

/* The lane for address addr of the storage with this tag. */
static inline uint64_t addrmap_tagged(uint64_t addr, int tag)
{
    return addr + ((uint64_t)tag << ADDRMAP_TAG_SHIFT);
}

#endif
