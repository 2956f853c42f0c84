/*
 * test_host_pool.c - the host pool (exec_host_pool in core/exec/exec.c),
 * the one cache of host blocks behind the pageable and the pinned
 * allocators.
 *
 * The pinned pool's source is cudaMallocHost, which only a GPU machine has,
 * so these tests give the pool a counting source that runs out on demand:
 * freed blocks are reused when they fit and are at most twice the size
 * asked for, the cache keeps at most max_cached bytes, and a fall_back
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_reuse, setup),
		cmocka_unit_test_setup(test_cache_limit, setup),
		cmocka_unit_test_setup(test_strict_source_runs_out, setup),
		cmocka_unit_test_setup(test_fall_back, setup),
		cmocka_unit_test_setup(test_fall_back_retry, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
