/* arena.c - the bump allocator of arena.h and the never-NULL malloc
 * wrappers the whole program uses. */
#include "arena.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
    arena_block *prev;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

enum { ARENA_BLOCK_MIN = 64 * 1024 };

_Noreturn void arena_oom(void)
{
    fputs("tritsim: out of memory\n", stderr);
    exit(1);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        arena_oom();
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        arena_oom();
    return q;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        arena_oom();
    return p;
}

void arena_init(arena *a)
{
    a->head = NULL;
}

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *prev = b->prev;
        free(b);
        b = prev;
    }
    a->head = NULL;
}

void *arena_alloc(arena *a, size_t size)
{
    const size_t align = alignof(max_align_t);
    size = (size + align - 1) & ~(align - 1);
    arena_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > ARENA_BLOCK_MIN ? size : ARENA_BLOCK_MIN;
        b = xmalloc(sizeof *b + cap);
        b->prev = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t len)
{
    char *p = arena_alloc(a, len + 1);
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void **arena_copy_ptrs(arena *a, void *const *ptrs, size_t n)
{
    void **p = arena_alloc(a, n * sizeof *p);
    if (n)
        memcpy(p, ptrs, n * sizeof *p);
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    memcpy(p, s, n);
    return p;
}
