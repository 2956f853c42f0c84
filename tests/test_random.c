/*
 * test_random.c - the seeded draws of run inputs (random_draw.h,
 * core/exec/cpu/random_draw.c).
 *
 * The uniform values are splitmix64's sequence, bit for bit the sequential
 * loop's. The float32 normal transform is checked against the same
 * Box-Muller transform in double on the same uniform values (a few
 * float32 ulps), for its statistics on seeded samples (mean, variance,
 * the Kolmogorov-Smirnov distance to the normal CDF, the fraction past
 * 2 and 3 sigma), for its scale, shift and absolute value, for its odd last
 * element, and for giving the same bits whatever the split: run in child
 * processes with DEVPLAN_THREADS=1 and 2 (the thread count is read once),
 * and in pieces.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "random_draw.h"
#include "util.h"

enum { BIG = 1 << 20 };

/* npy_random's float32 loop before it went parallel: the reference. */
static void uniform_reference(float *dst, int64_t n, uint64_t seed)
{
	uint64_t state = seed;
	for (int64_t i = 0; i < n; i++) {
		uint64_t z = (state += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		dst[i] = (float)(z >> 40) * 0x1p-23f - 1.0f;
	}
}

/* Box-Muller in double on the uniform values of u: the transform the
 * float32 one approximates. */
static void normal_reference(const float *u, double *z, int64_t n)
{
	for (int64_t i = 0; i < n; i += 2) {
		double u1 = ((double)u[i] + 1.0) / 2.0;
		double u2 = i + 1 < n ? ((double)u[i + 1] + 1.0) / 2.0 : 0.5;
		double r = sqrt(-2.0 * log(1.0 - u1)), t = 2.0 * M_PI * u2;
		z[i] = r * cos(t);
		if (i + 1 < n)
			z[i + 1] = r * sin(t);
	}
}

static uint64_t hash_floats(const float *f, int64_t n)
{
	uint64_t h = 1469598103934665603ull;
	const unsigned char *b = (const unsigned char *)f;
	for (size_t i = 0; i < (size_t)n * sizeof(float); i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static float *normal_sample(int64_t n, uint64_t seed, float scale, float shift, bool absolute)
{
	float *f = xmalloc((size_t)n * sizeof(float) + 1);
	random_uniform_f32(f, n, seed);
	random_normal_f32(f, n, scale, shift, absolute);
	return f;
}

static void test_uniform_is_the_sequence(void **state)
{
	int64_t sizes[] = {0, 1, 7, 100003, BIG + 5};
	(void)state;
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		int64_t n = sizes[k];
		float *got = xmalloc((size_t)n * sizeof(float) + 1);
		float *want = xmalloc((size_t)n * sizeof(float) + 1);
		random_uniform_f32(got, n, 42 + k);
		uniform_reference(want, n, 42 + k);
		assert_memory_equal(got, want, (size_t)n * sizeof(float));
		for (int64_t i = 0; i < n; i++)
			assert_true(got[i] >= -1.0f && got[i] < 1.0f);
		free(got);
		free(want);
	}
}

/* Every value within 4 float32 ulps of 1 (or of |z| past 1) of the double
 * transform: the polynomials, the quadrants and the signs all right. */
static void test_normal_matches_double(void **state)
{
	int64_t sizes[] = {1, 2, 3, 4097, BIG + 1};
	(void)state;
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		int64_t n = sizes[k];
		float *u = xmalloc((size_t)n * sizeof(float)), *f;
		double *z = xmalloc((size_t)n * sizeof(double)), worst = 0;
		uniform_reference(u, n, 1000 + k);
		normal_reference(u, z, n);
		f = normal_sample(n, 1000 + k, 1, 0, false);
		for (int64_t i = 0; i < n; i++) {
			double err = fabs((double)f[i] - z[i]) / (fabs(z[i]) > 1 ? fabs(z[i]) : 1);
			worst = err > worst ? err : worst;
		}
		if (!(worst <= 4 * 0x1p-23))
			fail_msg("n=%lld: worst error %g, more than 4 ulps", (long long)n, worst);
		free(u);
		free(z);
		free(f);
	}
}

/* The extremes of u: u1 = 0 gives r = 0, the largest u1 the largest r;
 * u2 at each quadrant's boundary gives exact cos and sin signs. */
static void test_normal_extremes(void **state)
{
	float a[] = {-1.0f,
		     0.0f,
		     1.0f - 0x1p-23f,
		     -0.5f,
		     1.0f - 0x1p-23f,
		     0.0f,
		     1.0f - 0x1p-23f,
		     0.5f,
		     1.0f - 0x1p-23f,
		     1.0f - 0x1p-23f,
		     0.0f};
	double rmax = sqrt(-2.0 * log(0x1p-24));
	(void)state;
	random_normal_f32(a, 11, 1, 0, false);
	assert_true(a[0] == 0.0f && a[1] == 0.0f);                         /* r = 0 */
	assert_true(fabs(a[2]) < 1e-5 && fabs(a[3] - rmax) < 1e-5);        /* u2 = 1/4 */
	assert_true(fabs(a[4] + rmax) < 1e-5 && fabs(a[5]) < 1e-5);        /* u2 = 1/2 */
	assert_true(fabs(a[6]) < 1e-5 && fabs(a[7] + rmax) < 1e-5);        /* u2 = 3/4 */
	assert_true(fabs(a[8] - rmax) < 1e-5 && a[9] < 0 && a[9] > -1e-5); /* u2 ~ 1 */
	assert_true(fabs(a[10] + 1.1774100225154747) < 1e-6); /* odd last: u1 = 1/2, cos(pi) */
}

static int compare_floats(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

/* The sample's statistics against N(0, 1): mean and variance within 5
 * standard errors, the Kolmogorov-Smirnov distance below its 0.1% critical
 * value, and the tails' weights. */
static void check_standard_normal(float *f, int64_t n)
{
	double sum = 0, sq = 0, d = 0, root = sqrt((double)n);
	int64_t past2 = 0, past3 = 0;
	for (int64_t i = 0; i < n; i++) {
		sum += f[i];
		sq += (double)f[i] * f[i];
		past2 += fabsf(f[i]) > 2;
		past3 += fabsf(f[i]) > 3;
	}
	if (fabs(sum / n) > 5 / root)
		fail_msg("mean %g", sum / n);
	if (fabs(sq / n - 1) > 5 * sqrt(2.0) / root)
		fail_msg("variance %g", sq / n);
	qsort(f, (size_t)n, sizeof(float), compare_floats);
	for (int64_t i = 0; i < n; i++) {
		double cdf = 0.5 * erfc(-f[i] / sqrt(2.0));
		double lo = fabs(cdf - (double)i / n), hi = fabs((double)(i + 1) / n - cdf);
		d = lo > d ? lo : d;
		d = hi > d ? hi : d;
	}
	if (d > 1.95 / root)
		fail_msg("Kolmogorov-Smirnov distance %g > %g", d, 1.95 / root);
	/* P(|z| > 2) = 0.0455, P(|z| > 3) = 0.0027: within 5 binomial sigmas */
	if (fabs((double)past2 / n - 0.0455003) > 5 * sqrt(0.0455 * 0.9545 / n))
		fail_msg("P(|z| > 2) = %g", (double)past2 / n);
	if (fabs((double)past3 / n - 0.0026998) > 5 * sqrt(0.0027 * 0.9973 / n))
		fail_msg("P(|z| > 3) = %g", (double)past3 / n);
}

static void test_normal_statistics(void **state)
{
	(void)state;
	for (uint64_t seed = 0; seed < 3; seed++) {
		float *f = normal_sample(BIG, seed, 1, 0, false);
		check_standard_normal(f, BIG);
		free(f);
	}
}

/* The even and the odd elements apart (cos and sin) are each N(0, 1),
 * and uncorrelated. */
static void test_normal_pairs_independent(void **state)
{
	float *f = normal_sample(BIG, 9, 1, 0, false);
	float *even = xmalloc(BIG / 2 * sizeof(float)), *odd = xmalloc(BIG / 2 * sizeof(float));
	double cross = 0;
	(void)state;
	for (int64_t i = 0; i < BIG / 2; i++) {
		even[i] = f[2 * i];
		odd[i] = f[2 * i + 1];
		cross += (double)even[i] * odd[i];
	}
	if (fabs(cross / (BIG / 2)) > 5 / sqrt(BIG / 2.0))
		fail_msg("correlation %g", cross / (BIG / 2));
	check_standard_normal(even, BIG / 2);
	check_standard_normal(odd, BIG / 2);
	free(f);
	free(even);
	free(odd);
}

/* scale, shift and absolute act on each value as documented. */
static void test_normal_scale_shift(void **state)
{
	float *z = normal_sample(4097, 5, 1, 0, false);
	float *s = normal_sample(4097, 5, 0.1f, 1.0f, false);
	float *v = normal_sample(4097, 5, 0.1f, 1.0f, true);
	(void)state;
	for (int64_t i = 0; i < 4097; i++) {
		assert_true(s[i] == z[i] * 0.1f + 1.0f);
		assert_true(v[i] == fabsf(z[i]) * 0.1f + 1.0f);
		assert_true(v[i] >= 1.0f);
	}
	free(z);
	free(s);
	free(v);
}

/* The same values drawn in pieces of an even length: each pair is its own. */
static void test_normal_in_pieces(void **state)
{
	int64_t n = 100001, cut = 30000;
	float *whole = normal_sample(n, 3, 1, 0, false);
	float *parts = xmalloc((size_t)n * sizeof(float));
	(void)state;
	uniform_reference(parts, n, 3);
	random_normal_f32(parts, cut, 1, 0, false);
	random_normal_f32(parts + cut, n - cut, 1, 0, false);
	assert_memory_equal(whole, parts, (size_t)n * sizeof(float));
	free(whole);
	free(parts);
}

/* A child with DEVPLAN_THREADS=threads: the hash of a large draw. */
static uint64_t hash_with_threads(const char *threads)
{
	int fds[2];
	pid_t pid;
	uint64_t h = 0;
	int status;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		float *f;
		setenv("DEVPLAN_THREADS", threads, 1);
		f = normal_sample(4 * BIG + 3, 77, 0.5f, 0.25f, false);
		h = hash_floats(f, 4 * BIG + 3);
		if (write(fds[1], &h, sizeof h) != (ssize_t)sizeof h)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &h, sizeof h), (ssize_t)sizeof h);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return h;
}

static void test_same_bits_any_thread_count(void **state)
{
	uint64_t one = hash_with_threads("1"), two = hash_with_threads("2");
	uint64_t four = hash_with_threads("4");
	(void)state;
	assert_true(one == two);
	assert_true(one == four);
}

int main(void)
{
	/* the thread count is read once: the children of
	 * test_same_bits_any_thread_count set theirs before any draw, so it
	 * runs first, before this process draws anything */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bits_any_thread_count),
		cmocka_unit_test(test_uniform_is_the_sequence),
		cmocka_unit_test(test_normal_matches_double),
		cmocka_unit_test(test_normal_extremes),
		cmocka_unit_test(test_normal_statistics),
		cmocka_unit_test(test_normal_pairs_independent),
		cmocka_unit_test(test_normal_scale_shift),
		cmocka_unit_test(test_normal_in_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
