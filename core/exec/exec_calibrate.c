/*
 * exec_calibrate.c - this machine's memcpy bandwidth and sgemm rate
 * (exec_calibrate.h says what is measured and how).
 *
 * Both run on the cpu kernels' own machinery, so that the figures are what
 * the kernels can reach: the copy is split over kernel_parallel_for's
 * threads, the product is the cpu backend's nn.dense kernel, which calls
 * OpenBLAS's sgemm with the threads kernels_cpu.c set it to. Times are
 * busy times (exec_clock.h: CPU time, spread over the kernels' threads),
 * the measure `profile` times each operator by, the median of five: on a
 * machine shared with other jobs the wall clock counts the time others
 * ran, the CPU time only ours.
 */
#include "exec_calibrate.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec_clock.h"
#include "kernels.h"
#include "util.h"

enum {
	CALIBRATE_REPS = 5,
	CALIBRATE_COPY_BYTES = 64 << 20, /* twice a large L3 cache, or more */
	CALIBRATE_GEMM_N = 512,
	CALIBRATE_SMALL_N = 64,            /* 64^3 = EXEC_GEMM_SPLIT: one thread */
	CALIBRATE_SMALL_PRODUCTS = 64,     /* 64^3 products per timed run */
	CALIBRATE_GEMV_N = 64,             /* 1 x 64 by 64 x 64: one thread (< 9216) */
	CALIBRATE_GEMV_SPLIT_N = 128,      /* 1 x 128 by 128 x 128: threaded (>= 9216) */
	CALIBRATE_GEMV_PRODUCTS = 256,     /* one-row products per timed run */
	CALIBRATE_SKINNY_M = 4096,         /* a product with a narrow side: */
	CALIBRATE_SKINNY_K = 1024,         /* 4096 x 16 by 1024 x 4096^T */
	CALIBRATE_CACHE_DEFAULT = 1 << 20, /* an L2 cache when sysconf cannot say */
};

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct CopyJob {
	char *dst;
	const char *src;
	int64_t bytes;
	int repeats; /* copies per timed run */
	bool split;  /* over the kernels' threads, or on the caller's alone */
} CopyJob;

static void copy_range(void *ctx, int64_t begin, int64_t end)
{
	CopyJob *job = ctx;
	memcpy(job->dst + begin, job->src + begin, (size_t)(end - begin));
}

typedef struct Measured {
	bool (*run)(void *ctx, char **err);
	void *ctx;
} Measured;

static bool run_copy(void *ctx, char **err)
{
	CopyJob *job = ctx;
	(void)err;
	for (int i = 0; i < job->repeats; i++)
		if (job->split)
			kernel_parallel_for(job->bytes, 1 << 20, copy_range, ctx);
		else
			copy_range(ctx, 0, job->bytes);
	return true;
}

typedef struct ProductJob {
	KernelCall call;
	int repeats;
} ProductJob;

static bool run_products(void *ctx, char **err)
{
	ProductJob *job = ctx;
	for (int i = 0; i < job->repeats; i++)
		if (!kernel_cpu_launch(&job->call, err))
			return false;
	return true;
}

/* The median busy seconds (exec_clock_busy, as `profile` times an
 * operator) of one run of m, after a warm-up; a negative number after an
 * error. */
static double measure(const Measured *m, char **err)
{
	double t[CALIBRATE_REPS];
	if (!m->run(m->ctx, err))
		return -1;
	for (int i = 0; i < CALIBRATE_REPS; i++) {
		ExecClock t0 = exec_clock_now(true), t1;
		if (!m->run(m->ctx, err))
			return -1;
		t1 = exec_clock_now(true);
		t[i] = exec_clock_busy(&t0, &t1);
	}
	return exec_clock_median(t, CALIBRATE_REPS);
}

/* GB/s (read + written) of `repeats` copies of `bytes` (a negative number
 * when the buffers cannot be allocated). */
static double copy_rate(int64_t bytes, int repeats, bool split)
{
	char *src = malloc((size_t)bytes), *dst = malloc((size_t)bytes);
	CopyJob job = {dst, src, bytes, repeats, split};
	Measured m = {run_copy, &job};
	double t;
	if (!src || !dst) {
		free(src);
		free(dst);
		return -1;
	}
	memset(src, 1, (size_t)bytes); /* touched: no page faults timed */
	memset(dst, 0, (size_t)bytes);
	t = measure(&m, NULL);
	free(src);
	free(dst);
	return t > 0 ? 2.0 * (double)bytes * repeats / t * 1e-9 : 0;
}

/* The busy seconds of one float32 product by the cpu backend's nn.matmul
 * (mm: its shape and transposes, batch 1), the median of CALIBRATE_REPS
 * runs of `repeats`; 0 with *err set when it fails, -1 without memory. */
static double product_seconds(KernelMatmul mm, int repeats, char **err)
{
	const int64_t ashape[2] = {mm.trans_a ? mm.k : mm.m, mm.trans_a ? mm.m : mm.k};
	const int64_t bshape[2] = {mm.trans_b ? mm.n : mm.k, mm.trans_b ? mm.k : mm.n};
	const int64_t cshape[2] = {mm.m, mm.n};
	float *a = malloc((size_t)(mm.m * mm.k) * sizeof(float));
	float *b = malloc((size_t)(mm.k * mm.n) * sizeof(float));
	float *c = calloc((size_t)(mm.m * mm.n), sizeof(float));
	KernelTensor in[2], res[1];
	ProductJob job;
	Measured meas = {run_products, &job};
	double t;
	if (!a || !b || !c) {
		free(a);
		free(b);
		free(c);
		return -1;
	}
	for (int64_t i = 0; i < mm.m * mm.k; i++)
		a[i] = (float)(i % 7) * 0.25f;
	for (int64_t i = 0; i < mm.k * mm.n; i++)
		b[i] = (float)(i % 5) * 0.5f;
	in[0] = kernel_tensor(a, DT_FLOAT32, 2, ashape);
	in[1] = kernel_tensor(b, DT_FLOAT32, 2, bshape);
	res[0] = kernel_tensor(c, DT_FLOAT32, 2, cshape);
	memset(&job, 0, sizeof job);
	job.repeats = repeats;
	job.call.op = OP_MATMUL;
	job.call.name = "nn.matmul";
	job.call.in = in;
	job.call.nin = 2;
	job.call.out = res;
	job.call.nout = 1;
	mm.batch = mm.batch_a = mm.batch_b = 1;
	job.call.p.matmul = mm;
	t = measure(&meas, err);
	free(a);
	free(b);
	free(c);
	return t > 0 ? t / repeats : 0; /* a failure (*err set), or no time */
}

/* ... of m rows of n by n x n weights (nn.dense's shape). */
static double dense_seconds(int64_t m, int64_t n, int repeats, char **err)
{
	return product_seconds((KernelMatmul){.m = m, .n = n, .k = n, .trans_b = true}, repeats,
			       err);
}

/* GFLOP/s of product_seconds's product mm (its failures as it). */
static double product_gflops(KernelMatmul mm, int repeats, char **err)
{
	double t = product_seconds(mm, repeats, err);
	return t > 0 ? 2.0 * (double)(mm.m * mm.n * mm.k) / t * 1e-9 : t;
}

/* ... of float32 products n x n x n, nn.dense's shape. */
static double product_rate(int64_t n, int repeats, char **err)
{
	return product_gflops((KernelMatmul){.m = n, .n = n, .k = n, .trans_b = true}, repeats,
			      err);
}

/* GFLOP/s of a product with a narrow side: CALIBRATE_SKINNY_M rows of
 * GEMM_SKINNY_MAX columns by a CALIBRATE_SKINNY_K x CALIBRATE_SKINNY_M
 * operand read transposed, where it lies (16 MiB: gemm_skinny's case,
 * as a transposed convolution of 16 input positions multiplies its
 * weights), on the kernels' threads; 0 on a CPU without gemm_skinny's
 * kernels (OpenBLAS takes such products, and the estimate does not ask). */
static double skinny_rate(char **err)
{
	KernelMatmul mm = {.m = CALIBRATE_SKINNY_M,
			   .n = GEMM_SKINNY_MAX,
			   .k = CALIBRATE_SKINNY_K,
			   .trans_a = true};
	return kernel_cpu_gemm_skinny() ? product_gflops(mm, 1, err) : 0;
}

/* Microseconds a one-row product 1 x n by n x n (cblas_sgemv) takes
 * besides its roofline as the estimate counts it on t threads: its bytes
 * (the vector, the n x n weights and the result) at the cache's rate on
 * t threads, or its FLOPs at the sgemm rate (t of `threads`), whichever
 * is longer; never negative. -1 without memory, 0 with *err set on a
 * failure. */
static double gemv_call_us(const ExecCalibration *c, int64_t n, double t, char **err)
{
	double s = dense_seconds(1, n, CALIBRATE_GEMV_PRODUCTS, err), memory, compute;
	if (s <= 0)
		return s;
	memory = (double)(n + n * n + n) * sizeof(float) / (c->cache_gbps * t * 1e9);
	compute = 2.0 * (double)(n * n) / (c->sgemm_gflops * t / c->threads * 1e9);
	s -= memory > compute ? memory : compute;
	return s > 0 ? s * 1e6 : 0;
}

/* Half of one core's L2 cache: a copy's bytes read plus written that
 * stay within it. */
static int64_t cache_bytes(void)
{
	long l2 = -1;
#ifdef _SC_LEVEL2_CACHE_SIZE
	l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	if (l2 < 64 << 10 || l2 > 1L << 30)
		l2 = CALIBRATE_CACHE_DEFAULT;
	return (int64_t)l2 / 2;
}

bool exec_calibrate(ExecCalibration *out, char **err)
{
	double start = wall_seconds();
	int64_t cache = cache_bytes();
	memset(out, 0, sizeof *out);
	out->threads = kernel_cpu_threads();
	out->split_elements = GRAIN_ELEMENTWISE;
	out->gemm_split = EXEC_GEMM_SPLIT;
	out->gemm_side = CALIBRATE_GEMM_N;
	out->small_side = CALIBRATE_SMALL_N;
	out->gemv_split = EXEC_GEMV_SPLIT;
	out->direct_conv = DIRECT_CONV_MAX;
	out->skinny_max = kernel_cpu_gemm_skinny() ? GEMM_SKINNY_MAX : 0;
	out->skinny_big = GEMM_SKINNY_BIG;
	out->memory_gbps = copy_rate(CALIBRATE_COPY_BYTES, 1, true);
	out->memory1_gbps =
		out->threads == 1 ? out->memory_gbps : copy_rate(CALIBRATE_COPY_BYTES, 1, false);
	/* each copy moves `cache` bytes, half read and half written */
	out->cache_bytes = (double)cache;
	out->cache_gbps = copy_rate(cache / 2, (int)(CALIBRATE_COPY_BYTES / cache), false);
	if (out->memory_gbps < 0 || out->memory1_gbps < 0 || out->cache_gbps < 0) {
		*err = xstrdup("no memory for the calibration's 2 x 64 MiB copy");
		return false;
	}
	*err = NULL;
	out->sgemm_gflops = product_rate(CALIBRATE_GEMM_N, 1, err);
	if (out->sgemm_gflops >= 0 && !*err)
		out->small_gflops = product_rate(CALIBRATE_SMALL_N, CALIBRATE_SMALL_PRODUCTS, err);
	if (*err)
		return false;
	if (out->sgemm_gflops < 0 || out->small_gflops < 0) {
		*err = xstrdup("no memory for the calibration's 512 x 512 product");
		return false;
	}
	if (out->sgemm_gflops > 0 && out->cache_gbps > 0) {
		/* the threaded one on all the kernels' threads (OpenBLAS's: it
		 * has as many), or on one when that is all there is */
		out->gemv_us = gemv_call_us(out, CALIBRATE_GEMV_N, 1, err);
		if (out->gemv_us >= 0 && !*err)
			out->gemv_split_us =
				gemv_call_us(out, CALIBRATE_GEMV_SPLIT_N, out->threads, err);
		if (*err)
			return false;
		if (out->gemv_us < 0 || out->gemv_split_us < 0) {
			*err = xstrdup("no memory for the calibration's one-row product");
			return false;
		}
	}
	out->skinny_gflops = skinny_rate(err);
	if (*err)
		return false;
	if (out->skinny_gflops < 0) {
		*err = xstrdup("no memory for the calibration's 16 MiB narrow product");
		return false;
	}
	out->seconds = wall_seconds() - start;
	if (out->memory_gbps <= 0 || out->memory1_gbps <= 0 || out->cache_gbps <= 0 ||
	    out->sgemm_gflops <= 0 || out->small_gflops <= 0) {
		*err = xstrdup("the calibration measured no time (a clock without resolution)");
		return false;
	}
	return true;
}
