/*
 * arena.c - a chain of blocks; large requests get a block of their own so a
 * big constant does not waste the tail of the current block.
 */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { ARENA_BLOCK_SIZE = 1 << 20, ARENA_ALIGN = 8 };

struct ArenaBlock {
	ArenaBlock *next;
	_Alignas(16) unsigned char data[]; /* 8-aligned pieces are handed out */
};

void arena_init(Arena *arena)
{
	arena->head = NULL;
	arena->cur = arena->end = NULL;
	arena->used_bytes = 0;
}

void arena_free(Arena *arena)
{
	ArenaBlock *b = arena->head;
	while (b) {
		ArenaBlock *next = b->next;
		free(b);
		b = next;
	}
	arena_init(arena);
}

/* Blocks come from malloc, not zeroed: each piece is zeroed as it is
 * handed out (arena_alloc), except those the caller overwrites whole
 * (arena_alloc_uninit), so a clone's nodes are not written twice. */
static ArenaBlock *arena_new_block(size_t size)
{
	ArenaBlock *b = xmalloc(sizeof(ArenaBlock) + size);
	b->next = NULL;
	return b;
}

/* The inline arena_alloc_uninit found no room in the current block. The
 * request is large (a block of its own, kept behind the current one so a
 * big constant does not waste the current block's tail) or the current
 * block is full (a new one). */
void *arena_alloc_slow(Arena *arena, size_t size)
{
	ArenaBlock *b = arena->head;
	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (size == 0)
		size = ARENA_ALIGN;
	if (size > ARENA_BLOCK_SIZE / 4) {
		ArenaBlock *big = arena_new_block(size);
		if (b) {
			big->next = b->next;
			b->next = big;
		} else {
			/* the only block: full, so the next small piece starts
			 * a block of its own */
			arena->head = big;
			arena->cur = arena->end = NULL;
		}
		arena->used_bytes += size;
		return big->data;
	}
	b = arena_new_block(ARENA_BLOCK_SIZE);
	b->next = arena->head;
	arena->head = b;
	arena->cur = b->data + size;
	arena->end = b->data + ARENA_BLOCK_SIZE;
	arena->used_bytes += size;
	return b->data;
}

void arena_array_overflow(void)
{
	dp_assert_fail("arena_array size overflow", __FILE__, __LINE__, __func__);
}

char *arena_strndup(Arena *arena, const char *s, size_t n)
{
	char *p = arena_alloc(arena, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(Arena *arena, const char *s)
{
	return arena_strndup(arena, s, strlen(s));
}
