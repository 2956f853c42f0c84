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
#include <stdint.h>
#include <string.h>

typedef struct ArenaBlock ArenaBlock;

typedef struct Arena {
	ArenaBlock *head;   /* newest block; older ones chain behind it */
	unsigned char *cur; /* the free rest of the newest small-piece block */
	unsigned char *end;
	size_t used_bytes; /* bytes handed out, for benches and tests */
} Arena;

void arena_init(Arena *arena);
void arena_free(Arena *arena);
/* arena_alloc_uninit when the current block cannot serve the request. */
void *arena_alloc_slow(Arena *arena, size_t size);

/* 8-byte aligned memory (enough for every type devplan stores) that lives
 * until arena_free, NOT zeroed: for a caller that writes all of it (a
 * clone's nodes). Inline: a module allocates once per node. */
static inline void *arena_alloc_uninit(Arena *arena, size_t size)
{
	size_t rounded = size ? (size + 7) & ~(size_t)7 : 8;
	if (rounded <= (size_t)(arena->end - arena->cur)) {
		void *p = arena->cur;
		arena->cur += rounded;
		arena->used_bytes += rounded;
		return p;
	}
	return arena_alloc_slow(arena, size);
}

/* Zeroed arena_alloc_uninit. */
static inline void *arena_alloc(Arena *arena, size_t size)
{
	return memset(arena_alloc_uninit(arena, size), 0, size);
}

/* arena_array's overflow failure (aborts, like running out of memory). */
void arena_array_overflow(void);

/* count elements of elem_size bytes, zeroed; aborts when the size
 * overflows. */
static inline void *arena_array(Arena *arena, size_t count, size_t elem_size)
{
	if (elem_size && count > SIZE_MAX / elem_size)
		arena_array_overflow();
	return arena_alloc(arena, count * elem_size);
}

char *arena_strndup(Arena *arena, const char *s, size_t n);
char *arena_strdup(Arena *arena, const char *s);

#endif
