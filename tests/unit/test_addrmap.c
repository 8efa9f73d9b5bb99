/* test_addrmap.c - unit tests of addrmap.h: the registry of storages by
 * address range and the tags of pointers made from integers. */
#include <stdint.h>
#include <stdlib.h>

#include "addrmap.h"
#include "tap.h"

int main(void)
{
    static char mem[4096];
    uint64_t base = (uint64_t)(uintptr_t)mem;
    TAP_OK(addrmap_find(base) == 0 && addrmap_count() == 0, "an empty map finds nothing");
    static int owner_b;
    int c = addrmap_add(mem + 1000, 8, NULL), a = addrmap_add(mem, 100, NULL);
    int b = addrmap_add(mem + 100, 50, &owner_b);
    TAP_OK(a > 0 && b > 0 && c > 0 && a != b && b != c && a != c, "three storages, three tags");
    TAP_OK(addrmap_count() == 3, "three registered");
    TAP_OK(addrmap_nth(0) == addrmap_get(a) && addrmap_nth(1) == addrmap_get(b) &&
           addrmap_nth(2) == addrmap_get(c) && addrmap_nth(3) == NULL && addrmap_nth(-1) == NULL,
           "walked in address order, whatever the order they came in");
    TAP_OK(addrmap_get(b)->owner == &owner_b && addrmap_get(a)->owner == NULL,
           "each keeps its owner");
    TAP_OK(addrmap_find(base) == a && addrmap_find(base + 99) == a, "the first and last byte of a");
    TAP_OK(addrmap_find(base + 100) == b, "where b starts, b (not one past a's end)");
    TAP_OK(addrmap_find(base + 150) == b, "one past b's end still finds b");
    TAP_OK(addrmap_find(base + 151) == 0 && addrmap_find(base + 999) == 0,
           "the gap between b and c is in no storage");
    TAP_OK(addrmap_find(base + 1003) == c && addrmap_find(base - 1) == 0, "inside c; before a");
    TAP_OK(addrmap_add(mem, 0, NULL) == 0, "an empty range gets no tag");
    TAP_OK(addrmap_add((void *)(uintptr_t)((uint64_t)1 << 47), 16, NULL) == 0,
           "an address of 2^47 or more gets no tag");

    /* tagged lanes: the tag survives pointer arithmetic either way */
    uint64_t lane = addrmap_tagged(base + 8, b);
    TAP_OK(addrmap_lane_tag(lane) == b && addrmap_untag(lane) == base + 8, "a tagged lane");
    uint64_t below = lane - 4096 * 8;     /* far before the storage */
    TAP_OK(addrmap_lane_tag(below) == b && addrmap_untag(below) == base + 8 - 4096 * 8,
           "arithmetic below the storage keeps the tag");
    uint64_t neg = addrmap_tagged(0, b) - 16;   /* below address zero */
    TAP_OK(addrmap_lane_tag(neg) == b && (int64_t)addrmap_untag(neg) == -16,
           "an address below zero keeps the tag and reads as negative");
    TAP_OK(addrmap_lane_tag(base) == 0 && addrmap_untag(base) == base,
           "an untagged address is itself");
    TAP_OK(addrmap_lane_tag(UINT64_MAX) == 0 && addrmap_untag(UINT64_MAX) == UINT64_MAX,
           "-1 as a pointer stays -1");
    uint64_t unused = addrmap_tagged(base, 4000);
    TAP_OK(addrmap_lane_tag(unused) == 0 && addrmap_untag(unused) == unused,
           "the top bits of a tag nobody has: an ordinary value");

    /* removing, and tags used again */
    addrmap_remove(b);
    TAP_OK(addrmap_find(base + 120) == 0 && addrmap_get(b) == NULL && addrmap_lane_tag(lane) == 0,
           "a freed storage is gone, and so is its tag");
    TAP_OK(addrmap_find(base + 50) == a && addrmap_find(base + 1000) == c, "the others stay");
    int d = addrmap_add(mem + 2000, 16, NULL);
    TAP_OK(d == b && addrmap_find(base + 2010) == d, "the freed tag is used again");
    addrmap_remove(a);
    addrmap_remove(c);
    addrmap_remove(d);
    addrmap_remove(d);
    TAP_OK(addrmap_count() == 0 && addrmap_find(base + 2010) == 0, "all removed (twice is harmless)");

    /* many storages, found by binary search */
    enum { N = 300 };
    static char big[N * 16];
    int tags[N];
    for (int i = N - 1; i >= 0; i--)
        tags[i] = addrmap_add(big + i * 16, 8, NULL);
    bool ok = true;
    for (int i = 0; i < N; i++)
        ok &= addrmap_find((uint64_t)(uintptr_t)(big + i * 16 + 3)) == tags[i] &&
              addrmap_find((uint64_t)(uintptr_t)(big + i * 16 + 12)) == 0;
    TAP_OK(ok, "%d storages added in reverse order are each found", N);
    for (int i = 0; i < N; i += 2)
        addrmap_remove(tags[i]);
    ok = true;
    for (int i = 0; i < N; i++)
        ok &= addrmap_find((uint64_t)(uintptr_t)(big + i * 16)) == (i % 2 ? tags[i] : 0);
    TAP_OK(ok, "every other one removed");
    for (int i = 1; i < N; i += 2)
        addrmap_remove(tags[i]);
    TAP_OK(addrmap_count() == 0, "empty again");
    return tap_done();
}
