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

#include "exec_clock.h"
#include "kernels.h"
#include "util.h"

enum {
	CALIBRATE_REPS = 5,
	CALIBRATE_COPY_BYTES = 64 << 20, /* twice a large L3 cache, or more */
	CALIBRATE_GEMM_N = 512,
	CALIBRATE_LAUNCHES = 1000, /* one-element adds per timed run */
};

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef struct CopyJob {
	char *dst;
	const char *src;
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
	(void)err;
	kernel_parallel_for(CALIBRATE_COPY_BYTES, 1 << 20, copy_range, ctx);
	return true;
}

static bool run_dense(void *ctx, char **err)
{
	return kernel_cpu_launch(ctx, err);
}

static bool run_launches(void *ctx, char **err)
{
	for (int i = 0; i < CALIBRATE_LAUNCHES; i++)
		if (!kernel_cpu_launch(ctx, err))
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
	qsort(t, CALIBRATE_REPS, sizeof(double), compare_doubles);
	return t[CALIBRATE_REPS / 2];
}

bool exec_calibrate(ExecCalibration *out, char **err)
{
	const size_t n = CALIBRATE_GEMM_N;
	const int64_t mshape[2] = {CALIBRATE_GEMM_N, CALIBRATE_GEMM_N};
	double start = wall_seconds(), t;
	char *src, *dst;
	float *a, *b, *c;
	CopyJob copy;
	KernelTensor in[2], res[1];
	KernelCall dense, add;
	const int64_t one = 1;
	float x[2] = {1, 2}, y = 0;
	Measured m;
	memset(out, 0, sizeof *out);
	out->threads = kernel_cpu_threads();

	src = malloc(CALIBRATE_COPY_BYTES);
	dst = malloc(CALIBRATE_COPY_BYTES);
	if (!src || !dst) {
		free(src);
		free(dst);
		*err = xstrdup("no memory for the calibration's 2 x 64 MiB copy");
		return false;
	}
	memset(src, 1, CALIBRATE_COPY_BYTES); /* touched: no page faults timed */
	memset(dst, 0, CALIBRATE_COPY_BYTES);
	copy = (CopyJob){dst, src};
	m = (Measured){run_copy, &copy};
	t = measure(&m, err);
	free(src);
	free(dst);
	out->memory_gbps = t > 0 ? 2.0 * CALIBRATE_COPY_BYTES / t * 1e-9 : 0;

	a = malloc(n * n * sizeof(float));
	b = malloc(n * n * sizeof(float));
	c = malloc(n * n * sizeof(float));
	if (!a || !b || !c) {
		free(a);
		free(b);
		free(c);
		*err = xstrdup("no memory for the calibration's 512 x 512 product");
		return false;
	}
	for (size_t i = 0; i < n * n; i++) {
		a[i] = (float)(i % 7) * 0.25f;
		b[i] = (float)(i % 5) * 0.5f;
		c[i] = 0;
	}
	in[0] = kernel_tensor(a, DT_FLOAT32, 2, mshape);
	in[1] = kernel_tensor(b, DT_FLOAT32, 2, mshape);
	res[0] = kernel_tensor(c, DT_FLOAT32, 2, mshape);
	memset(&dense, 0, sizeof dense);
	dense.op = OP_DENSE;
	dense.name = "nn.dense";
	dense.in = in;
	dense.nin = 2;
	dense.out = res;
	dense.nout = 1;
	dense.p.matmul = (KernelMatmul){.batch = 1,
					.batch_a = 1,
					.batch_b = 1,
					.m = CALIBRATE_GEMM_N,
					.n = CALIBRATE_GEMM_N,
					.k = CALIBRATE_GEMM_N,
					.trans_b = true};
	m = (Measured){run_dense, &dense};
	t = measure(&m, err);
	free(a);
	free(b);
	free(c);
	if (t < 0)
		return false;
	out->sgemm_gflops = t > 0 ? 2.0 * (double)(n * n * n) / t * 1e-9 : 0;

	in[0] = kernel_tensor(&x[0], DT_FLOAT32, 1, &one);
	in[1] = kernel_tensor(&x[1], DT_FLOAT32, 1, &one);
	res[0] = kernel_tensor(&y, DT_FLOAT32, 1, &one);
	memset(&add, 0, sizeof add);
	add.op = OP_ADD;
	add.name = "add";
	add.in = in;
	add.nin = 2;
	add.out = res;
	add.nout = 1;
	m = (Measured){run_launches, &add};
	if ((t = measure(&m, err)) < 0)
		return false;
	out->launch_us = t / CALIBRATE_LAUNCHES * 1e6;
	out->seconds = wall_seconds() - start;
	if (out->memory_gbps <= 0 || out->sgemm_gflops <= 0) {
		*err = xstrdup("the calibration measured no time (a clock without resolution)");
		return false;
	}
	return true;
}
