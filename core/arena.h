/*
 * arena.h - bump allocation in large blocks, freed as a whole.
 *
 * Each module version owns one arena holding all its nodes, types, names and
 * constant data; destroying the version frees the arena and with it every
 * pointer handed out, so nothing inside a module is freed one by one.
 * Allocation aborts on exhaustion like xmalloc.
 */
#ifndef DEVPLAN_ARENA_H
#define DEVPLAN_ARENA_H

#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;

typedef struct Arena {
	ArenaBlock *head;  /* newest block; older ones chain behind it */
	size_t used_bytes; /* bytes handed out, for `show memory` and benches */
} Arena;

void arena_init(Arena *arena);
void arena_free(Arena *arena);
/* Zeroed, 8-byte aligned memory (enough for every type devplan stores) that
 * lives until arena_free. */
void *arena_alloc(Arena *arena, size_t size);
void *arena_array(Arena *arena, size_t count, size_t elem_size);
char *arena_strndup(Arena *arena, const char *s, size_t n);
char *arena_strdup(Arena *arena, const char *s);

#endif
