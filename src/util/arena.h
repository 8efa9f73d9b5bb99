/* arena.h - bump allocator for data that lives as long as one source file
 * (tokens' decoded text, AST nodes, identifiers).  Everything allocated from
 * an arena is freed at once by arena_free; no individual frees.  Allocation
 * failure is fatal (the program reports it and exits): a front end that ran
 * out of memory has nothing sensible left to do. */
#ifndef TRITSIM_ARENA_H
#define TRITSIM_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena {
    arena_block *head;   /* newest block; older blocks hang off it */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);

/* Zero-filled, aligned for any object type. */
void *arena_alloc(arena *a, size_t size);

/* A NUL-terminated copy of s[0..len). */
char *arena_strndup(arena *a, const char *s, size_t len);

/* A copy of n pointers (for freezing a growable vector into the arena). */
void **arena_copy_ptrs(arena *a, void *const *ptrs, size_t n);

/* Out-of-memory handler shared by the whole program: prints and exits 1. */
_Noreturn void arena_oom(void);

/* malloc/realloc that never return NULL (they call arena_oom). */
void *xmalloc(size_t size);
void *xrealloc(void *p, size_t size);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

#endif
