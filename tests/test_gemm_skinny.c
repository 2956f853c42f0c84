/*
 * test_gemm_skinny.c - the products with a narrow side (gemm_skinny.c)
 * against a naive product accumulated in double, and against their
 * definition: each element one chain of fused multiply-adds over k in order.
 *
 * Seeded random shapes: the narrow side 1 to GEMM_SKINNY_MAX (and a little past
 * it, which OpenBLAS takes), k from 1, leading dimensions wider than the
 * rows, B and C through both orientations, every transpose combination of
 * cpu_gemm, NaN and infinities in either operand. Every result must lie
 * within gamma_k sum |a||b| of the double product (NaN where it is NaN,
 * the same infinity), and a product the skinny kernel computes must be bit
 * for bit the chain of fmaf/fma, for each of its kernels (AVX-512, AVX2,
 * scalar: those this CPU has), on three threads: so the bits depend on
 * neither the CPU nor the thread count. Elements of C outside the product
 * must be left alone.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu/kernels_cpu.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* an integer in [lo, hi] */
static int64_t rnd_in(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static double rnd_value(void)
{
	return (double)(rnd() % 2000001) / 1e6 - 1.0;
}

static const double sentinel = 12345.0;

/* One product's operands as doubles (converted to dt when run), laid out
 * for cpu_gemm: op(a) m x k, op(b) k x n, row-major with leading
 * dimensions lda, ldb, ldc. */
typedef struct Product {
	DType dt;
	bool ta, tb;
	int64_t m, n, k, lda, ldb, ldc;
	size_t na, nb, nc;
	double *a, *b;
} Product;

static double op_a(const Product *p, int64_t i, int64_t kk)
{
	return p->ta ? p->a[kk * p->lda + i] : p->a[i * p->lda + kk];
}

static double op_b(const Product *p, int64_t kk, int64_t j)
{
	return p->tb ? p->b[j * p->ldb + kk] : p->b[kk * p->ldb + j];
}

/* Random operands, a NaN and an infinity or two in some of them. */
static void product_init(Product *p, DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k)
{
	*p = (Product){.dt = dt, .ta = ta, .tb = tb, .m = m, .n = n, .k = k};
	p->lda = (ta ? m : k) + (rnd() % 2 ? rnd_in(1, 5) : 0);
	p->ldb = (tb ? k : n) + (rnd() % 2 ? rnd_in(1, 5) : 0);
	p->ldc = n + (rnd() % 2 ? rnd_in(1, 5) : 0);
	p->na = (size_t)((ta ? k : m) * p->lda);
	p->nb = (size_t)((tb ? n : k) * p->ldb);
	p->nc = (size_t)(m * p->ldc);
	p->a = malloc(p->na * sizeof(double));
	p->b = malloc(p->nb * sizeof(double));
	assert_non_null(p->a);
	assert_non_null(p->b);
	for (size_t i = 0; i < p->na; i++)
		p->a[i] = rnd_value();
	for (size_t i = 0; i < p->nb; i++)
		p->b[i] = rnd_value();
	if (rnd() % 3 == 0) {
		double specials[] = {NAN, INFINITY, -INFINITY};
		for (int s = 0; s < 3; s++) {
			if (rnd() % 2)
				p->a[rnd() % p->na] = specials[s];
			else
				p->b[rnd() % p->nb] = specials[s];
		}
	}
}

static void product_free(Product *p)
{
	free(p->a);
	free(p->b);
}

static void *to_dtype(DType dt, const double *v, size_t n)
{
	void *out = malloc(n * dtype_size(dt));
	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		if (dt == DT_FLOAT32)
			((float *)out)[i] = (float)v[i];
		else
			((double *)out)[i] = v[i];
	}
	return out;
}

static double value(DType dt, const void *v, size_t i)
{
	return dt == DT_FLOAT32 ? ((const float *)v)[i] : ((const double *)v)[i];
}

/* Checks c (in dt, m x ldc) against the double product, and when `exact`
 * against the chain of fused multiply-adds bit for bit. */
static void check_product(const Product *p, const void *c, bool exact)
{
	double u = p->dt == DT_FLOAT32 ? ldexp(1.0, -24) : ldexp(1.0, -53);
	double gamma = (double)p->k * u / (1.0 - (double)p->k * u);
	for (int64_t i = 0; i < p->m; i++)
		for (int64_t j = 0; j < p->ldc; j++) {
			double got = value(p->dt, c, (size_t)(i * p->ldc + j));
			long double ref = 0, mag = 0;
			float chain32 = 0;
			double chain64 = 0;
			if (j >= p->n) {
				if (got != sentinel)
					fail_msg("C[%lld][%lld] past the product was written",
						 (long long)i, (long long)j);
				continue;
			}
			for (int64_t kk = 0; kk < p->k; kk++) {
				double x = op_a(p, i, kk), y = op_b(p, kk, j);
				if (p->dt == DT_FLOAT32) {
					x = (float)x;
					y = (float)y;
					chain32 = fmaf((float)x, (float)y, chain32);
				} else {
					chain64 = fma(x, y, chain64);
				}
				ref += (long double)x * y;
				mag += fabsl((long double)x * y);
			}
			if (isnan(ref) || isinf(ref)) {
				if (isnan(ref) ? !isnan(got) : got != (double)ref)
					fail_msg(
						"%s %s%s m=%lld n=%lld k=%lld: C[%lld][%lld] = %g, "
						"want %g",
						dtype_name(p->dt), p->ta ? "T" : "N",
						p->tb ? "T" : "N", (long long)p->m, (long long)p->n,
						(long long)p->k, (long long)i, (long long)j, got,
						(double)ref);
			} else if (!(fabsl(got - ref) <= (gamma + p->k * ldexp(1.0, -62)) * mag)) {
				fail_msg(
					"%s %s%s m=%lld n=%lld k=%lld: C[%lld][%lld] = %.17g, want "
					"%.17g within %g",
					dtype_name(p->dt), p->ta ? "T" : "N", p->tb ? "T" : "N",
					(long long)p->m, (long long)p->n, (long long)p->k,
					(long long)i, (long long)j, got, (double)ref,
					gamma * (double)mag);
			}
			if (exact) {
				double want = p->dt == DT_FLOAT32 ? chain32 : chain64;
				if (isnan(want) ? !isnan(got)
						: memcmp(&got, &want, sizeof got) != 0)
					fail_msg("%s %s%s m=%lld n=%lld k=%lld: C[%lld][%lld] = "
						 "%.17g, not the fma chain's %.17g",
						 dtype_name(p->dt), p->ta ? "T" : "N",
						 p->tb ? "T" : "N", (long long)p->m,
						 (long long)p->n, (long long)p->k, (long long)i,
						 (long long)j, got, want);
			}
		}
}

static void *sentinel_c(const Product *p)
{
	double *fill = malloc(p->nc * sizeof(double));
	void *c;
	assert_non_null(fill);
	for (size_t i = 0; i < p->nc; i++)
		fill[i] = sentinel;
	c = to_dtype(p->dt, fill, p->nc);
	free(fill);
	return c;
}

/* The kernel called directly, as cpu_gemm calls it for a narrow n and
 * op(a) = a^T (or for a narrow m and op(b) = b, C^T = op(b)^T op(a)^T),
 * on small shapes that cpu_gemm would leave to OpenBLAS. */
static void run_direct(const Product *p, bool narrow_n)
{
	void *a = to_dtype(p->dt, p->a, p->na), *b = to_dtype(p->dt, p->b, p->nb);
	void *c = sentinel_c(p);
	bool ran;
	if (narrow_n)
		ran = cpu_gemm_skinny(p->dt, p->m, p->n, p->k, a, p->lda, b, p->tb ? 1 : p->ldb,
				      p->tb ? p->ldb : 1, c, p->ldc, 1);
	else
		ran = cpu_gemm_skinny(p->dt, p->n, p->m, p->k, b, p->ldb, a, p->ta ? p->lda : 1,
				      p->ta ? 1 : p->lda, c, 1, p->ldc);
	assert_true(ran);
	check_product(p, c, true);
	free(a);
	free(b);
	free(c);
}

static void test_skinny_kernel_random(void **state)
{
	(void)state;
	rng_state = 0x5eed5eedULL;
	for (int isa = 2; isa >= 0; isa--) {
		if (cpu_gemm_skinny_limit(isa) != isa) {
			fprintf(stderr, "this CPU lacks kernel %d\n", isa);
			continue;
		}
		for (int t = 0; t < 240; t++) {
			DType dt = t % 2 ? DT_FLOAT64 : DT_FLOAT32;
			bool narrow_n = rnd() % 2;
			int64_t narrow = 1 + t / 2 % GEMM_SKINNY_MAX, big = rnd_in(1, 150),
				k = rnd() % 4 == 0 ? 1 : rnd_in(1, 120);
			Product p;
			/* narrow n: op(a) = a^T; narrow m: op(b) = b */
			if (narrow_n)
				product_init(&p, dt, true, rnd() % 2, big, narrow, k);
			else
				product_init(&p, dt, rnd() % 2, false, narrow, big, k);
			run_direct(&p, narrow_n);
			product_free(&p);
		}
	}
	cpu_gemm_skinny_limit(2);
}

/* cpu_gemm itself on shapes big enough for the skinny kernel, every
 * transpose combination: those it sends to the kernel are the fma chain,
 * the others (OpenBLAS) within the bound. */
static void test_skinny_gemm_routes(void **state)
{
	KernelTensor in = {.dtype = DT_FLOAT32};
	KernelCall kc = {.name = "test", .in = &in, .nin = 1};
	char *err = NULL;
	bool vector;
	(void)state;
	if (!cpu_blas_dtype(&kc, &err)) {
		fprintf(stderr, "skipped: %s\n", err);
		free(err);
		skip();
	}
	/* without a vector kernel, cpu_gemm leaves every product to OpenBLAS */
	vector = cpu_gemm_skinny_limit(2) > 0;
	rng_state = 0xbadc0ffeULL;
	for (int t = 0; t < 48; t++) {
		DType dt = t % 2 ? DT_FLOAT64 : DT_FLOAT32;
		bool ta = t / 2 % 2, tb = t / 4 % 2, narrow_n = t / 8 % 2;
		int64_t narrow = t / 16 == 2 ? rnd_in(GEMM_SKINNY_MAX + 1, GEMM_SKINNY_MAX + 4)
					     : rnd_in(1, GEMM_SKINNY_MAX),
			big = rnd_in(1000, 1200), k = rnd_in(530, 560);
		int64_t m = narrow_n ? big : narrow, n = narrow_n ? narrow : big;
		Product p;
		void *a, *b, *c;
		bool skinny;
		product_init(&p, dt, ta, tb, m, n, k);
		/* a row vector times op(b) is OpenBLAS's gemv */
		skinny = vector && !(m == 1 && !ta) &&
			 ((n <= GEMM_SKINNY_MAX && ta) || (m <= GEMM_SKINNY_MAX && !tb));
		a = to_dtype(dt, p.a, p.na);
		b = to_dtype(dt, p.b, p.nb);
		c = sentinel_c(&p);
		cpu_gemm(dt, ta, tb, m, n, k, a, p.lda, b, p.ldb, c, p.ldc);
		check_product(&p, c, skinny);
		free(a);
		free(b);
		free(c);
		product_free(&p);
	}
}

/* A narrow side past GEMM_SKINNY_MAX, or an empty one, is refused. */
static void test_skinny_refuses(void **state)
{
	float a[4] = {1, 2, 3, 4}, b[GEMM_SKINNY_MAX + 1] = {0}, c[2 * (GEMM_SKINNY_MAX + 1)];
	(void)state;
	assert_false(
		cpu_gemm_skinny(DT_FLOAT32, 2, GEMM_SKINNY_MAX + 1, 1, a, 2, b, 1, 1, c, 1, 1));
	assert_false(cpu_gemm_skinny(DT_FLOAT32, 2, 0, 1, a, 2, b, 1, 1, c, 1, 1));
	assert_true(cpu_gemm_skinny(DT_FLOAT32, 2, 1, 2, a, 2, b, 1, 1, c, 1, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skinny_kernel_random),
		cmocka_unit_test(test_skinny_gemm_routes),
		cmocka_unit_test(test_skinny_refuses),
	};
	/* more than one thread, on any machine, so that the tiles are split */
	setenv("DEVPLAN_THREADS", "3", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
