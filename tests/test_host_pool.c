/*
 * test_host_pool.c - the host pool (exec_host_pool in core/exec/exec.c),
 * the one cache of host blocks behind the pageable and the pinned
 * allocators.
 *
 * The pinned pool's source is cudaMallocHost, which only a GPU machine has,
 * so these tests give the pool a counting source that runs out on demand:
 * blocks come in size classes (multiples of 64 bytes for small ones, four
 * classes per power of two above), freed blocks are reused when they fit
 * and are at most twice the size asked for, the cache keeps at most
 * max_cached bytes, and a fall_back
 * source's pool that finds its source empty gives its cache back, tries
 * once more and then hands out pageable memory, which it frees itself and
 * never caches, while a pool without fall_back fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec.h"

/* The source: exec_host_alloc behind a switch, counting what it made. */
static struct {
	int live;    /* blocks it made and has not taken back */
	int made;    /* calls of alloc that succeeded */
	int refused; /* calls of alloc that failed */
	int refuse;  /* calls still to refuse; -1: every one */
	size_t last; /* the size last asked for */
} source;

static void *counted_alloc(size_t nbytes)
{
	void *p;
	if (source.refuse != 0) {
		if (source.refuse > 0)
			source.refuse--;
		source.refused++;
		return NULL;
	}
	source.last = nbytes;
	p = exec_host_alloc(nbytes);
	assert_non_null(p);
	source.live++;
	source.made++;
	return p;
}

static void counted_free(void *raw)
{
	source.live--;
	exec_host_free(raw);
}

static const ExecHostSource falls_back = {counted_alloc, counted_free, true, "counted"};
static const ExecHostSource strict = {counted_alloc, counted_free, false, "strict"};

static int setup(void **state)
{
	(void)state;
	memset(&source, 0, sizeof source);
	return 0;
}

/* A freed block serves a request of at least half its size, from the cache. */
static void test_reuse(void **state)
{
	ExecHostAllocator h = exec_host_pool(&strict, (size_t)1 << 20);
	void *a, *b, *c;
	(void)state;
	assert_string_equal(h.name, "strict");
	a = h.alloc(h.ctx, 10000);
	assert_non_null(a);
	memset(a, 1, 10000);
	h.free(h.ctx, a);
	b = h.alloc(h.ctx, 6000); /* fits and is more than half: reused */
	assert_ptr_equal(b, a);
	assert_int_equal(source.made, 1);
	h.free(h.ctx, b);
	c = h.alloc(h.ctx, 1000); /* less than half the cached block: fresh */
	assert_ptr_not_equal(c, a);
	assert_int_equal(source.made, 2);
	h.free(h.ctx, c);
	assert_int_equal(source.live, 2);
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* What does not fit under max_cached goes back to the source at once. */
static void test_cache_limit(void **state)
{
	ExecHostAllocator h = exec_host_pool(&strict, 16384);
	void *a, *b;
	(void)state;
	a = h.alloc(h.ctx, 10000); /* 12 KiB with its header */
	b = h.alloc(h.ctx, 10000);
	h.free(h.ctx, a);
	assert_int_equal(source.live, 2);
	h.free(h.ctx, b);
	assert_int_equal(source.live, 1);
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* Without fall_back an empty source is a failed allocation. */
static void test_strict_source_runs_out(void **state)
{
	ExecHostAllocator h = exec_host_pool(&strict, (size_t)1 << 20);
	void *a;
	(void)state;
	a = h.alloc(h.ctx, 100);
	h.free(h.ctx, a);
	source.refuse = -1;
	assert_null(h.alloc(h.ctx, 100000));
	assert_int_equal(source.refused, 1);
	assert_int_equal(source.live, 1); /* the cache was kept */
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* With fall_back: the cache goes back, the source is asked again, and at
 * last the block is pageable memory that the source never sees. */
static void test_fall_back(void **state)
{
	ExecHostAllocator h = exec_host_pool(&falls_back, (size_t)1 << 20);
	void *a, *b;
	(void)state;
	a = h.alloc(h.ctx, 100);
	h.free(h.ctx, a);
	assert_int_equal(source.live, 1);
	source.refuse = -1;
	b = h.alloc(h.ctx, 100000);
	assert_non_null(b);
	memset(b, 2, 100000);
	assert_int_equal(source.refused, 2);
	assert_int_equal(source.live, 0); /* the cache was given back */
	h.free(h.ctx, b);                 /* freed, not cached */
	assert_int_equal(source.live, 0);
	source.refuse = 0;
	b = h.alloc(h.ctx, 100000);
	assert_int_equal(source.made, 2);
	h.free(h.ctx, b);
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* A source that has room again once the cache went back: the retry gets
 * a block of the source, which goes to the cache when freed. */
static void test_fall_back_retry(void **state)
{
	ExecHostAllocator h = exec_host_pool(&falls_back, (size_t)1 << 20);
	void *a, *b;
	(void)state;
	a = h.alloc(h.ctx, 100);
	h.free(h.ctx, a);
	source.refuse = 1;
	b = h.alloc(h.ctx, 100000);
	assert_non_null(b);
	assert_int_equal(source.refused, 1);
	assert_int_equal(source.made, 2);
	assert_int_equal(source.live, 1); /* the cached block went back */
	h.free(h.ctx, b);
	assert_int_equal(source.live, 1); /* cached */
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* A one-element tensor takes a 64-byte multiple with its header, not a
 * page; a block asked for is at most a quarter larger than the request. */
static void test_small_blocks(void **state)
{
	ExecHostAllocator h = exec_host_pool(&strict, (size_t)1 << 20);
	size_t sizes[] = {1, 4, 64, 65, 200, 1000, 4000, 5000, 100000, 3000000};
	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		void *p = h.alloc(h.ctx, sizes[i]);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 64, 0);
		memset(p, 3, sizes[i]);
		assert_true(source.last >= sizes[i] + 64);
		assert_int_equal(source.last % 64, 0);
		if (sizes[i] <= 64)
			assert_true(source.last <= 128);
		else
			assert_true(source.last <= (sizes[i] + 128) / 4 * 5);
		h.free(h.ctx, p);
	}
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* Requests of one class share its blocks; a much bigger cached block is
 * not handed out for a small request, nor a smaller one for a big one. */
static void test_reuse_within_class(void **state)
{
	ExecHostAllocator h = exec_host_pool(&strict, (size_t)1 << 24);
	void *a, *b, *big, *c;
	(void)state;
	a = h.alloc(h.ctx, 1000);
	h.free(h.ctx, a);
	b = h.alloc(h.ctx, 1020); /* same class */
	assert_ptr_equal(b, a);
	assert_int_equal(source.made, 1);
	big = h.alloc(h.ctx, 1 << 20);
	assert_int_equal(source.made, 2);
	h.free(h.ctx, big);
	c = h.alloc(h.ctx, 4); /* the 1 MiB block is far too big */
	assert_ptr_not_equal(c, big);
	assert_int_equal(source.made, 3);
	h.free(h.ctx, b);
	h.free(h.ctx, c);
	c = h.alloc(h.ctx, 2 << 20); /* nothing cached is big enough */
	assert_int_equal(source.made, 4);
	h.free(h.ctx, c);
	/* many blocks of one class come back in turn, none made again */
	{
		enum { N = 1000 };
		void *p[N];
		for (int i = 0; i < N; i++)
			p[i] = h.alloc(h.ctx, 4);
		for (int i = 0; i < N; i++)
			h.free(h.ctx, p[i]);
		int made = source.made;
		for (int i = 0; i < N; i++)
			p[i] = h.alloc(h.ctx, 8);
		assert_int_equal(source.made, made);
		for (int i = 0; i < N; i++)
			h.free(h.ctx, p[i]);
	}
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

/* Many small blocks freed at once: the cache keeps exactly what fits in
 * max_cached (a block of a one-element tensor is 128 bytes, so 64 KiB
 * holds 512 of them) and gives the rest back. */
static void test_cache_bound_small(void **state)
{
	enum { N = 10000 };
	ExecHostAllocator h = exec_host_pool(&strict, 65536);
	void **p = calloc(N, sizeof *p);
	(void)state;
	for (int i = 0; i < N; i++)
		p[i] = h.alloc(h.ctx, 4);
	assert_int_equal(source.live, N);
	for (int i = 0; i < N; i++)
		h.free(h.ctx, p[i]);
	assert_int_equal(source.live, 65536 / 128);
	for (int i = 0; i < N; i++)
		p[i] = h.alloc(h.ctx, 4);
	assert_int_equal(source.made, N + N - 65536 / 128);
	for (int i = 0; i < N; i++)
		h.free(h.ctx, p[i]);
	free(p);
	h.destroy(h.ctx);
	assert_int_equal(source.live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_reuse, setup),
		cmocka_unit_test_setup(test_cache_limit, setup),
		cmocka_unit_test_setup(test_strict_source_runs_out, setup),
		cmocka_unit_test_setup(test_fall_back, setup),
		cmocka_unit_test_setup(test_fall_back_retry, setup),
		cmocka_unit_test_setup(test_small_blocks, setup),
		cmocka_unit_test_setup(test_reuse_within_class, setup),
		cmocka_unit_test_setup(test_cache_bound_small, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
