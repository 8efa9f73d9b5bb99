/* addrmap.c - the registry of storages by address range (addrmap.h): an
 * array indexed by tag, and the tags in use sorted by base address for
 * the lookups, which are a binary search. */
#include "addrmap.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

static addrmap_entry *entries;   /* by tag; bytes == 0: free */
static int ntags;                /* tags 1 .. ntags - 1 have been handed out */
static int *free_tags;           /* tags given back, to use again */
static int nfree;
static int *by_base;             /* the tags in use, by increasing base */
static int nsorted;
static int cap;                  /* entries, free_tags and by_base hold cap */

/* Index in by_base of the first tag whose base is above addr. */
static int upper(uint64_t addr)
{
    int lo = 0, hi = nsorted;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (entries[by_base[mid]].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int addrmap_add(const void *base, size_t bytes, void *owner)
{
    uint64_t b = (uint64_t)(uintptr_t)base;
    const uint64_t limit = (uint64_t)1 << (ADDRMAP_TAG_SHIFT - 1);
    if (bytes == 0 || b >= limit || bytes > limit - b)
        return 0;
    int tag;
    if (nfree > 0) {
        tag = free_tags[--nfree];
    } else {
        if (ntags == 0)
            ntags = 1;               /* tag 0 means "untagged" */
        if (ntags > ADDRMAP_MAX_TAGS)
            return 0;
        if (ntags >= cap) {
            int ncap = cap ? cap * 2 : 64;
            entries = xrealloc(entries, (size_t)ncap * sizeof *entries);
            free_tags = xrealloc(free_tags, (size_t)ncap * sizeof *free_tags);
            by_base = xrealloc(by_base, (size_t)ncap * sizeof *by_base);
            memset(entries + cap, 0, (size_t)(ncap - cap) * sizeof *entries);
            cap = ncap;
        }
        tag = ntags++;
    }
    entries[tag].base = b;
    entries[tag].bytes = bytes;
    entries[tag].owner = owner;
    int at = upper(b);
    memmove(by_base + at + 1, by_base + at, (size_t)(nsorted - at) * sizeof *by_base);
    by_base[at] = tag;
    nsorted++;
    return tag;
}

void addrmap_remove(int tag)
{
    if (tag <= 0 || tag >= ntags || entries[tag].bytes == 0)
        return;
    int at = upper(entries[tag].base);
    while (at > 0 && by_base[at - 1] != tag)
        at--;
    if (at > 0) {
        memmove(by_base + at - 1, by_base + at, (size_t)(nsorted - at) * sizeof *by_base);
        nsorted--;
    }
    entries[tag].bytes = 0;
    entries[tag].base = 0;
    entries[tag].owner = NULL;
    free_tags[nfree++] = tag;
    if (nsorted == 0) {              /* the last one: give the memory back */
        free(entries);
        free(free_tags);
        free(by_base);
        entries = NULL;
        free_tags = by_base = NULL;
        ntags = nfree = cap = 0;
    }
}

int addrmap_find(uint64_t addr)
{
    int at = upper(addr);
    if (at == 0)
        return 0;
    const addrmap_entry *e = &entries[by_base[at - 1]];
    return addr - e->base <= e->bytes ? by_base[at - 1] : 0;
}

const addrmap_entry *addrmap_get(int tag)
{
    if (tag <= 0 || tag >= ntags || entries[tag].bytes == 0)
        return NULL;
    return &entries[tag];
}

int addrmap_lane_tag(uint64_t lane)
{
    int tag = addrmap_raw_tag(lane);
    return tag && tag < ntags && entries[tag].bytes ? tag : 0;
}

int addrmap_count(void)
{
    return nsorted;
}

const addrmap_entry *addrmap_nth(int i)
{
    return i >= 0 && i < nsorted ? &entries[by_base[i]] : NULL;
}
