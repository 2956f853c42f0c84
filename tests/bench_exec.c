/*
 * bench_exec.c - the executor against its references (SPEC §9).
 *
 * CPU rows: the machine's memory bandwidth measured as a plain memcpy of
 * 64 MiB (on one thread and split across the kernels' threads; the faster
 * is the reference), then the cpu backend's `add` of two 64 MiB float32
 * arrays (bytes moved: two reads and a write), launched through the
 * backend exactly as the interpreter launches it; and OpenBLAS cblas_sgemm
 * called directly on 1024 x 1024 x 1024 against the backend's nn.dense on
 * the same sizes. Targets: elementwise at least 70% of the memcpy
 * bandwidth, dense at least 80% of sgemm. Then a row per operator family
 * that real models spend time in (cpu_op_benches, at their shapes): a
 * one-call program parsed and typed, its operands allocated on the cpu and
 * the kernel launched as the interpreter does; data movement, elementwise
 * operators, reductions, normalisations and poolings against memcpy timed
 * in turns with them (so that another job on the machine weighs on both
 * alike), products and convolutions against sgemm on their own GEMM,
 * likewise in turns, each at least 50%.
 *
 * GPU rows (built with CUDA and a GPU present; --gpu makes a missing GPU an
 * error): cudaMemcpy of 256 MiB between pinned host memory and the device,
 * both ways, against the cuda backend's device_copy path from cpu-backend
 * memory (which is pinned once a GPU is open); a device-to-device
 * cudaMemcpy of 256 MiB against the backend's float32 `add` kernel on 3 x
 * 256 MiB. Targets: device_copy at least 80% of the pinned cudaMemcpy
 * bandwidth, elementwise at least 70% of the device-to-device bandwidth.
 * A copy from pageable memory (how .npy inputs travel, through staging
 * buffers) is shown for information.
 *
 * Every figure is the median of REPS runs (default 5) after one warm-up;
 * buffers are allocated and touched before timing. Peak is the process's
 * peak resident set so far (VmHWM).
 *
 * Usage: bench_exec [-r REPS] [--only WORD] [--cpu-time] [--cpu] [--gpu]
 * (default: cpu, and gpu when one is usable; --only WORD: of the operator
 * rows, those whose name contains WORD; --cpu-time: every time is the
 * process's CPU time, which other jobs on a shared machine change little:
 * with DEVPLAN_THREADS=1 and OPENBLAS_NUM_THREADS=1 it compares one
 * thread's work with one thread's)
 * Exit status: 0 when every target is met, 1 when one is missed, 2 when a
 * measurement could not run.
 */
#include <cblas.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef DEVPLAN_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "dtype_access.h"
#include "exec.h"
#include "infer.h"
#include "kernels.h"
#include "parse.h"

enum { BENCH_MAX_REPS = 101 };

static int reps = 5;
static int missed = 0;
static const char *only; /* --only WORD: the operator rows whose name contains it */
static bool cpu_time;    /* --cpu-time: the process's CPU time instead of the wall clock */

static double now(void)
{
	struct timespec ts;
	clock_gettime(cpu_time ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef void (*BenchFn)(void *ctx);

/* The median seconds of `reps` runs after one warm-up. */
static double measure(BenchFn fn, void *ctx)
{
	double t[BENCH_MAX_REPS];
	fn(ctx);
	for (int i = 0; i < reps; i++) {
		double t0 = now();
		fn(ctx);
		t[i] = now() - t0;
	}
	qsort(t, (size_t)reps, sizeof(double), compare_doubles);
	return t[reps / 2];
}

static long peak_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void header(void)
{
	printf("%-26s %-12s %10s %14s %11s  %-30s %s\n", "workload", "size", "time", "throughput",
	       "peak RSS", "reference", "ratio");
}

/* One row; ratio < 0 prints none, target > 0 marks ok or MISSED. */
static void row(const char *workload, const char *size, double seconds, double rate,
		const char *unit, const char *reference, double ratio, double target)
{
	char time[32], thr[32], peak[32], r[48];
	long kib = peak_kib();
	if (seconds < 1e-3)
		snprintf(time, sizeof time, "%.1f us", seconds * 1e6);
	else
		snprintf(time, sizeof time, "%.2f ms", seconds * 1e3);
	snprintf(thr, sizeof thr, "%.1f %s", rate, unit);
	if (kib < 0)
		snprintf(peak, sizeof peak, "?");
	else
		snprintf(peak, sizeof peak, "%.0f MiB", (double)kib / 1024);
	if (ratio < 0)
		r[0] = '\0';
	else if (target <= 0)
		snprintf(r, sizeof r, "%.2f (info)", ratio);
	else if (ratio >= target)
		snprintf(r, sizeof r, "%.2f ok (>= %.2f)", ratio, target);
	else {
		snprintf(r, sizeof r, "%.2f MISSED (>= %.2f)", ratio, target);
		missed++;
	}
	printf("%-26s %-12s %10s %14s %11s  %-30s %s\n", workload, size, time, thr, peak, reference,
	       r);
	fflush(stdout);
}

static void *touched(ExecDevice *dev, size_t bytes, float value)
{
	char *err = NULL;
	void *p = exec_alloc(dev, bytes, &err);
	if (!p) {
		fprintf(stderr, "bench_exec: %s\n", err);
		free(err);
		exit(2);
	}
	if (dev->backend->host_memory) {
		float *f = p;
		for (size_t i = 0; i < bytes / sizeof(float); i++)
			f[i] = value;
	}
	return p;
}

/* ---- cpu ---------------------------------------------------------------- */

typedef struct CopyJob {
	char *dst;
	const char *src;
	size_t bytes;
} CopyJob;

static void copy_range(void *vjob, int64_t begin, int64_t end)
{
	CopyJob *job = vjob;
	memcpy(job->dst + begin, job->src + begin, (size_t)(end - begin));
}

static void memcpy_one_thread(void *ctx)
{
	CopyJob *job = ctx;
	memcpy(job->dst, job->src, job->bytes);
}

static void memcpy_threads(void *ctx)
{
	CopyJob *job = ctx;
	kernel_parallel_for((int64_t)job->bytes, 1 << 20, copy_range, job);
}

typedef struct LaunchJob {
	ExecDevice *dev;
	KernelCall kc;
} LaunchJob;

static void launch_once(void *ctx)
{
	LaunchJob *job = ctx;
	char *err = NULL;
	if (!exec_launch(job->dev, &job->kc, &err)) {
		fprintf(stderr, "bench_exec: %s\n", err);
		exit(2);
	}
	exec_sync(job->dev);
}

typedef struct GemmJob {
	const float *a, *b;
	float *c;
	int n;
} GemmJob;

static void sgemm_direct(void *ctx)
{
	GemmJob *g = ctx;
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, g->n, g->n, g->n, 1.0f, g->a, g->n,
		    g->b, g->n, 0.0f, g->c, g->n);
}

/* ---- cpu operators ------------------------------------------------------- */

/* What an operator's row is measured against: the machine's memory
 * bandwidth (for an operator bound by it: every input read once, every
 * output written once, unless the row says which bytes it must move) or
 * OpenBLAS's sgemm on the GEMM that does the same arithmetic (a convolution
 * as im2col: weights (m x k) times columns (k x n), batch times). */
typedef enum OpReference { REF_MEMORY, REF_GEMM } OpReference;

typedef struct OpBench {
	const char *workload; /* the row's name */
	const char *size;     /* the row's size column */
	const char *params;   /* @main's parameter list */
	const char *body;     /* one call of the operator on them */
	OpReference reference;
	int m, n, k;   /* REF_GEMM: the GEMM's shape */
	double target; /* the least ratio to the reference; 0: for information */
	int batch;     /* REF_GEMM: how many such GEMMs (0: one) */
	double moved;  /* REF_MEMORY: the bytes it must move (0: every operand once) */
} OpBench;

/* Targets (issues 13 and 30): elementwise operators, data movement,
 * reductions, normalisations and poolings at least half the memcpy
 * bandwidth, products and convolutions at least half of sgemm's rate on
 * their own GEMM. erf is libm's erff, exact and bound by its arithmetic:
 * it is shown for information. The shapes after the first rows are those
 * of the real models (tests/data/models): rw_bert_base's weight and
 * attention transposes, softmax, layer norm, embedding take and batch
 * products, resnet's max pooling, mobilenet's depthwise convolutions,
 * squeezenet's concatenation, dcgan's transposed convolutions (the first
 * a product of 16 columns against a 32 MB weight), resnext's
 * grouped convolution (against its groups' GEMMs, 32 of 4 x 3136 x 36),
 * yolov5's stepped slice. A depthwise convolution
 * does 9 multiply-adds per element it reads: it is bound by memory, not
 * by a GEMM (whose shape would be one row), and is measured against
 * memcpy. */
static const OpBench cpu_op_benches[] = {
	{"fast_erf f32", "4096^2", "%x: Tensor[(4096, 4096), float32]", "fast_erf(%x)", REF_MEMORY,
	 0, 0, 0, 0.50, 0, 0},
	{"erf f32 (libm's erff)", "4096^2", "%x: Tensor[(4096, 4096), float32]", "erf(%x)",
	 REF_MEMORY, 0, 0, 0, 0, 0, 0},
	{"multiply, row broadcast", "4096^2 x 4096",
	 "%x: Tensor[(4096, 4096), float32], %y: Tensor[(4096), float32]", "multiply(%x, %y)",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"where f32", "4096^2",
	 "%c: Tensor[(4096, 4096), bool], %x: Tensor[(4096, 4096), float32], %y: Tensor[(4096, "
	 "4096), float32]",
	 "where(%c, %x, %y)", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"sum, last axis", "4096^2", "%x: Tensor[(4096, 4096), float32]", "sum(%x, axis=[-1])",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"sum, first axis", "4096^2", "%x: Tensor[(4096, 4096), float32]", "sum(%x, axis=[0])",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"max, keepdims", "4096^2", "%x: Tensor[(4096, 4096), float32]",
	 "max(%x, axis=[1], keepdims=True)", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"argmax, last axis", "4096^2", "%x: Tensor[(4096, 4096), float32]",
	 "argmax(%x, axis=[-1])", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"cast f32 -> f16", "4096^2", "%x: Tensor[(4096, 4096), float32]",
	 "cast(%x, dtype=\"float16\")", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"cast i64 -> i32", "4096^2", "%x: Tensor[(4096, 4096), int64]",
	 "cast(%x, dtype=\"int32\")", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"transpose 2-D", "3072x768", "%x: Tensor[(3072, 768), float32]", "transpose(%x)",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"transpose 0,2,1,3", "1x128x12x64", "%x: Tensor[(1, 128, 12, 64), float32]",
	 "transpose(%x, axes=[0, 2, 1, 3])", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"transpose 0,2,3,1", "1x128x12x64", "%x: Tensor[(1, 128, 12, 64), float32]",
	 "transpose(%x, axes=[0, 2, 3, 1])", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"concatenate, channels", "2 x 1x64x55x55",
	 "%x: Tensor[(1, 64, 55, 55), float32], %y: Tensor[(1, 64, 55, 55), float32]",
	 "concatenate((%x, %y), axis=1)", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"strided_slice, channels", "1x256x56x56", "%x: Tensor[(1, 256, 56, 56), float32]",
	 "strided_slice(%x, begin=[0, 64, 0, 0], end=[1, 192, 56, 56], strides=[1, 1, 1, 1])",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 2.0 * 128 * 56 * 56 * 4},
	{"strided_slice, step 2", "1x3x640x640", "%x: Tensor[(1, 3, 640, 640), float32]",
	 "strided_slice(%x, begin=[0, 0, 0, 1], end=[1, 3, 640, 640], strides=[1, 1, 2, 2])",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 2.0 * 3 * 320 * 640 * 4},
	{"take, embedding rows", "30522x768[128]",
	 "%w: Tensor[(30522, 768), float32], %i: Tensor[(1, 128), int64]", "take(%w, %i, axis=0)",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 2.0 * 128 * 768 * 4 + 128 * 8},
	{"nn.softmax", "4096^2", "%x: Tensor[(4096, 4096), float32]", "nn.softmax(%x)", REF_MEMORY,
	 0, 0, 0, 0.50, 0, 0},
	{"nn.softmax, attention", "1x12x128x128", "%x: Tensor[(1, 12, 128, 128), float32]",
	 "nn.softmax(%x, axis=3)", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"nn.layer_norm", "4096^2",
	 "%x: Tensor[(4096, 4096), float32], %g: Tensor[(4096), float32], %b: Tensor[(4096), "
	 "float32]",
	 "nn.layer_norm(%x, %g, %b)", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"nn.layer_norm, bert", "1x128x768",
	 "%x: Tensor[(1, 128, 768), float32], %g: Tensor[(768), float32], %b: Tensor[(768), "
	 "float32]",
	 "nn.layer_norm(%x, %g, %b, axis=-1, epsilon=1e-12f)", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"nn.max_pool2d 3x3/2", "1x64x112x112", "%x: Tensor[(1, 64, 112, 112), float32]",
	 "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])", REF_MEMORY, 0,
	 0, 0, 0.50, 0, 0},
	{"nn.avg_pool2d 3x3/1", "1x192x35x35", "%x: Tensor[(1, 192, 35, 35), float32]",
	 "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[1, 1], padding=[1, 1, 1, 1])", REF_MEMORY, 0,
	 0, 0, 0.50, 0, 0},
	{"image.resize2d linear x2", "1x64x56x56", "%x: Tensor[(1, 64, 56, 56), float32]",
	 "image.resize2d(%x, size=[112, 112], method=\"linear\")", REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"nn.batch_matmul", "12x128x128x64",
	 "%a: Tensor[(12, 128, 64), float32], %b: Tensor[(12, 128, 64), float32]",
	 "nn.batch_matmul(%a, %b, transpose_b=True)", REF_GEMM, 128, 128, 64, 0.50, 12, 0},
	{"nn.conv2d 3x3, 64 ch", "1x64x56x56",
	 "%x: Tensor[(1, 64, 56, 56), float32], %w: Tensor[(64, 64, 3, 3), float32]",
	 "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3])", REF_GEMM, 64,
	 56 * 56, 64 * 9, 0.50, 0, 0},
	{"nn.conv2d 1x1, 256 -> 64", "1x256x56x56",
	 "%x: Tensor[(1, 256, 56, 56), float32], %w: Tensor[(64, 256, 1, 1), float32]",
	 "nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=64, kernel_size=[1, 1])", REF_GEMM, 64,
	 56 * 56, 256, 0.50, 0, 0},
	{"nn.conv2d 7x7/2, 3 -> 64", "1x3x224x224",
	 "%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32]",
	 "nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, "
	 "7])",
	 REF_GEMM, 64, 112 * 112, 3 * 49, 0.50, 0, 0},
	{"nn.conv2d 3x3, groups 32", "1x128x56x56",
	 "%x: Tensor[(1, 128, 56, 56), float32], %w: Tensor[(128, 4, 3, 3), float32]",
	 "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=32, channels=128, kernel_size=[3, 3])",
	 REF_GEMM, 4, 56 * 56, 4 * 9, 0.50, 32, 0},
	{"nn.conv2d depthwise 3x3", "1x32x112x112",
	 "%x: Tensor[(1, 32, 112, 112), float32], %w: Tensor[(32, 1, 3, 3), float32]",
	 "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=32, channels=32, kernel_size=[3, 3])",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"nn.conv2d depthwise 3x3/2", "1x64x112x112",
	 "%x: Tensor[(1, 64, 112, 112), float32], %w: Tensor[(64, 1, 3, 3), float32]",
	 "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], groups=64, channels=64, "
	 "kernel_size=[3, 3])",
	 REF_MEMORY, 0, 0, 0, 0.50, 0, 0},
	{"nn.conv2d_transpose 4x4/2", "1x256x16x16",
	 "%x: Tensor[(1, 256, 16, 16), float32], %w: Tensor[(256, 128, 4, 4), float32]",
	 "nn.conv2d_transpose(%x, %w, channels=128, kernel_size=[4, 4], strides=[2, 2], "
	 "padding=[1, 1, 1, 1])",
	 REF_GEMM, 128 * 16, 16 * 16, 256, 0.50, 0, 0},
	{"nn.conv2d_transpose, 4x4 in", "1x1024x4x4",
	 "%x: Tensor[(1, 1024, 4, 4), float32], %w: Tensor[(1024, 512, 4, 4), float32]",
	 "nn.conv2d_transpose(%x, %w, channels=512, kernel_size=[4, 4], strides=[2, 2], "
	 "padding=[1, 1, 1, 1])",
	 REF_GEMM, 512 * 16, 16, 1024, 0.50, 0, 0},
};

typedef struct SgemmJob {
	const float *a, *b;
	float *c;
	int m, n, k, batch;
} SgemmJob;

/* batch GEMMs of the shape, one after the other on the same operands */
static void sgemm_shape(void *ctx)
{
	SgemmJob *g = ctx;
	for (int i = 0; i < g->batch; i++)
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k, 1.0f, g->a,
			    g->k, g->b, g->n, 0.0f, g->c, g->n);
}

/* A tensor of type t on dev, its size added to *bytes: every byte of a
 * float or bool set (float32 0.0115, bool true), an integer tensor (the
 * indices of take) filled with positions spread over [0, 1000). */
static KernelTensor bench_tensor(ExecDevice *dev, const Type *t, size_t *bytes)
{
	DType dt = t->u.tensor.dtype;
	size_t n = dtype_size(dt), count = 1;
	void *p;
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		count *= (size_t)t->u.tensor.dims[i];
	n *= count;
	p = touched(dev, n, 0);
	memset(p, 0x3c, n);
	if (dtype_is_integer(dt))
		for (size_t i = 0; i < count; i++)
			dtype_store_int(p, dt, (int64_t)i, (int64_t)(i * 617 % 1000));
	*bytes += n;
	return kernel_tensor(p, dt, t->u.tensor.ndim, t->u.tensor.dims);
}

/* A job run `times` times in a row: one timed sample of a short kernel. */
typedef struct Repeated {
	BenchFn fn;
	void *ctx;
	int times;
} Repeated;

enum { SAMPLE_MS = 10 };

static double run_repeated(const Repeated *r)
{
	double t0 = now();
	for (int i = 0; i < r->times; i++)
		r->fn(r->ctx);
	return (now() - t0) / r->times;
}

/* How many calls make a sample of about SAMPLE_MS, from one call
 * (which also warms it up). */
static int times_for(BenchFn fn, void *ctx)
{
	double t0 = now(), t;
	fn(ctx);
	t = now() - t0;
	if (t * 1e3 >= SAMPLE_MS)
		return 1;
	return t <= 0 ? 1000 : (int)(SAMPLE_MS * 1e-3 / t) + 1;
}

/* fn and its reference timed in turns, `reps` rounds after a warm-up of
 * each (the reference is the faster of ref and ref2 when ref2 is given):
 * the medians of fn's and the reference's times per call, and the median
 * over the rounds of reference time / fn time, which another job on the
 * machine changes little because both halves of a round share its load.
 * A call shorter than SAMPLE_MS is repeated to fill a sample, so
 * that a kernel of microseconds is not timed by the clock's resolution. */
static void measure_against(BenchFn fn, void *ctx, BenchFn ref, BenchFn ref2, void *ref_ctx,
			    double *t_fn, double *t_ref, double *speed)
{
	double tf[BENCH_MAX_REPS], tr[BENCH_MAX_REPS], q[BENCH_MAX_REPS];
	Repeated rf = {fn, ctx, times_for(fn, ctx)}, rr = {ref, ref_ctx, times_for(ref, ref_ctx)},
		 rr2 = {ref2, ref_ctx, ref2 ? times_for(ref2, ref_ctx) : 0};
	for (int i = 0; i < reps; i++) {
		tf[i] = run_repeated(&rf);
		tr[i] = run_repeated(&rr);
		if (ref2) {
			double t2 = run_repeated(&rr2);
			if (t2 < tr[i])
				tr[i] = t2;
		}
		q[i] = tr[i] / tf[i];
	}
	qsort(tf, (size_t)reps, sizeof(double), compare_doubles);
	qsort(tr, (size_t)reps, sizeof(double), compare_doubles);
	qsort(q, (size_t)reps, sizeof(double), compare_doubles);
	*t_fn = tf[reps / 2];
	*t_ref = tr[reps / 2];
	*speed = q[reps / 2];
}

/* One row: parses and types the one-call program, allocates its operands
 * and result on the cpu, and times the kernel as the interpreter launches
 * it (kernel_call_prepare, exec_launch), in turns with its reference. */

static void bench_cpu_op(ExecDevice *cpu, const OpBench *b)
{
	StrBuf text;
	DiagList diags;
	DeviceTable devices;
	SourceFile *src;
	IrModule *m;
	const Expr *call, *fn;
	KernelTensor in[8], out[1];
	uint32_t nin = 0;
	LaunchJob job;
	size_t bytes = 0;
	char *err = NULL;
	double t, rate;
	strbuf_init(&text);
	strbuf_printf(&text, "def @main(%s) {\n  %s\n}\n", b->params, b->body);
	diag_init(&diags);
	devices_init_default(&devices);
	src = source_from_string("bench.relay", text.data, text.len);
	m = parse_module(src, &devices, &diags);
	if (!m || !infer_module(m, &diags)) {
		diag_print_all(stderr, &diags);
		exit(2);
	}
	fn = m->globals[0].fn;
	call = fn->u.fn.body;
	if (call->kind != EXPR_CALL || call->type->kind != TYPE_TENSOR) {
		fprintf(stderr, "bench_exec: '%s' is not one call with one result\n", b->body);
		exit(2);
	}
	/* the operands as the interpreter passes them: a tuple's fields in turn */
	for (uint32_t i = 0; i < call->u.call.nargs; i++) {
		const Type *t = call->u.call.args[i]->type;
		bool tuple = t->kind == TYPE_TUPLE;
		for (uint32_t f = 0; f < (tuple ? t->u.tuple.nfields : 1); f++) {
			if (nin == 8) {
				fprintf(stderr, "bench_exec: '%s' has too many operands\n",
					b->body);
				exit(2);
			}
			in[nin++] = bench_tensor(cpu, tuple ? t->u.tuple.fields[f] : t, &bytes);
		}
	}
	out[0] = bench_tensor(cpu, call->type, &bytes);
	memset(&job, 0, sizeof job);
	job.dev = cpu;
	if (!kernel_call_prepare(&job.kc, call, in, nin, out, 1, &err)) {
		fprintf(stderr, "bench_exec: %s: %s\n", b->workload, err);
		exit(2);
	}
	if (b->reference == REF_GEMM) {
		size_t na = (size_t)b->m * (size_t)b->k, nb = (size_t)b->k * (size_t)b->n,
		       nc = (size_t)b->m * (size_t)b->n;
		SgemmJob g = {touched(cpu, na * sizeof(float), 0.5f),
			      touched(cpu, nb * sizeof(float), 0.5f),
			      touched(cpu, nc * sizeof(float), 0),
			      b->m,
			      b->n,
			      b->k,
			      b->batch ? b->batch : 1};
		double flops = 2.0 * b->m * b->n * b->k * g.batch, tg, speed;
		char reference[64];
		measure_against(launch_once, &job, sgemm_shape, NULL, &g, &t, &tg, &speed);
		if (g.batch > 1)
			snprintf(reference, sizeof reference, "%d x sgemm %dx%dx%d", g.batch, b->m,
				 b->n, b->k);
		else
			snprintf(reference, sizeof reference, "sgemm %dx%dx%d", b->m, b->n, b->k);
		rate = flops / t * 1e-9;
		row(b->workload, b->size, t, rate, "GFLOP/s", reference, speed, b->target);
		exec_free(cpu, (void *)g.a, na * sizeof(float));
		exec_free(cpu, (void *)g.b, nb * sizeof(float));
		exec_free(cpu, g.c, nc * sizeof(float));
	} else {
		/* the memory's bandwidth: a copy of 64 MiB, or of half the bytes
		 * the operator moves when that is more, beyond the caches (an
		 * operator whose data fit in them may pass it) */
		double moved = b->moved > 0 ? b->moved : (double)bytes;
		size_t copied = ((size_t)(moved / 2) + 63) / 64 * 64;
		if (copied < (size_t)64 << 20)
			copied = (size_t)64 << 20;
		CopyJob copy = {touched(cpu, copied, 0), touched(cpu, copied, 1.0f), copied};
		double tm, speed;
		measure_against(launch_once, &job, memcpy_one_thread, memcpy_threads, &copy, &t,
				&tm, &speed);
		rate = moved / t * 1e-9;
		/* rate / memcpy's: bytes per second over 2 x copied per second */
		row(b->workload, b->size, t, rate, "GB/s", "memcpy in turns",
		    speed * moved / (2.0 * (double)copied), b->target);
		exec_free(cpu, copy.dst, copied);
		exec_free(cpu, (void *)copy.src, copied);
	}
	kernel_call_release(&job.kc);
	for (uint32_t i = 0; i < nin; i++)
		exec_free(cpu, in[i].data, in[i].nbytes);
	exec_free(cpu, out[0].data, out[0].nbytes);
	free(err);
	ir_module_free(m);
	source_release(src);
	devices_free(&devices);
	diag_free(&diags);
	strbuf_free(&text);
}

static void bench_cpu_ops(ExecDevice *cpu)
{
	for (size_t i = 0; i < sizeof cpu_op_benches / sizeof cpu_op_benches[0]; i++)
		if (!only || strstr(cpu_op_benches[i].workload, only))
			bench_cpu_op(cpu, &cpu_op_benches[i]);
}

static void bench_cpu(ExecRuntime *rt)
{
	ExecDevice *cpu = exec_runtime_device(rt, 0);
	const size_t bytes = (size_t)64 << 20;
	int64_t n = (int64_t)(bytes / sizeof(float)), shape[1] = {n}, mshape[2] = {1024, 1024};
	void *a, *b, *c;
	CopyJob copy;
	LaunchJob add, dense;
	KernelTensor in[2], out[1], din[2], dout[1];
	GemmJob gemm;
	double t1, tn, ref_bw, t, ref_gflops;
	char label[64];
	if (!cpu) {
		fprintf(stderr, "bench_exec: no cpu device\n");
		exit(2);
	}
	a = touched(cpu, bytes, 1.0f);
	b = touched(cpu, bytes, 2.0f);
	c = touched(cpu, bytes, 0.0f);
	copy = (CopyJob){c, a, bytes};
	t1 = measure(memcpy_one_thread, &copy);
	tn = measure(memcpy_threads, &copy);
	ref_bw = 2.0 * (double)bytes / (t1 < tn ? t1 : tn) * 1e-9;
	row("memcpy, 1 thread", "64 MiB", t1, 2.0 * (double)bytes / t1 * 1e-9, "GB/s", "", -1, 0);
	snprintf(label, sizeof label, "memcpy, %d threads", kernel_cpu_threads());
	row(label, "64 MiB", tn, 2.0 * (double)bytes / tn * 1e-9, "GB/s", "", -1, 0);

	in[0] = kernel_tensor(a, DT_FLOAT32, 1, shape);
	in[1] = kernel_tensor(b, DT_FLOAT32, 1, shape);
	out[0] = kernel_tensor(c, DT_FLOAT32, 1, shape);
	memset(&add, 0, sizeof add);
	add.dev = cpu;
	add.kc.op = OP_ADD;
	add.kc.name = "add";
	add.kc.in = in;
	add.kc.nin = 2;
	add.kc.out = out;
	add.kc.nout = 1;
	t = measure(launch_once, &add);
	row("add f32 (cpu backend)", "2 x 64 MiB", t, 3.0 * (double)bytes / t * 1e-9, "GB/s",
	    "best memcpy", 3.0 * (double)bytes / t * 1e-9 / ref_bw, 0.70);

	din[0] = kernel_tensor(a, DT_FLOAT32, 2, mshape);
	din[1] = kernel_tensor(b, DT_FLOAT32, 2, mshape);
	dout[0] = kernel_tensor(c, DT_FLOAT32, 2, mshape);
	gemm = (GemmJob){a, b, c, 1024};
	t = measure(sgemm_direct, &gemm);
	ref_gflops = 2.0 * 1024 * 1024 * 1024 / t * 1e-9;
	row("cblas_sgemm (OpenBLAS)", "1024^3", t, ref_gflops, "GFLOP/s", "", -1, 0);
	memset(&dense, 0, sizeof dense);
	dense.dev = cpu;
	dense.kc.op = OP_DENSE;
	dense.kc.name = "nn.dense";
	dense.kc.in = din;
	dense.kc.nin = 2;
	dense.kc.out = dout;
	dense.kc.nout = 1;
	dense.kc.p.matmul = (KernelMatmul){.batch = 1,
					   .batch_a = 1,
					   .batch_b = 1,
					   .m = 1024,
					   .n = 1024,
					   .k = 1024,
					   .trans_b = true};
	t = measure(launch_once, &dense);
	row("nn.dense (cpu backend)", "1024^3", t, 2.0 * 1024 * 1024 * 1024 / t * 1e-9, "GFLOP/s",
	    "cblas_sgemm", 2.0 * 1024 * 1024 * 1024 / t * 1e-9 / ref_gflops, 0.80);
	exec_free(cpu, a, bytes);
	exec_free(cpu, b, bytes);
	exec_free(cpu, c, bytes);
	bench_cpu_ops(cpu);
}

/* ---- gpu ---------------------------------------------------------------- */

#ifdef DEVPLAN_HAVE_CUDA
typedef struct CudaCopyJob {
	void *dst;
	const void *src;
	size_t bytes;
	enum cudaMemcpyKind kind;
} CudaCopyJob;

static void cuda_copy(void *ctx)
{
	CudaCopyJob *job = ctx;
	/* cudaMemcpy returns before a device-to-device copy is done: wait for
	 * it, or the reference reads an impossible bandwidth and every GPU row
	 * measured against it is judged against nothing. */
	if (cudaMemcpy(job->dst, job->src, job->bytes, job->kind) != cudaSuccess ||
	    cudaDeviceSynchronize() != cudaSuccess) {
		fprintf(stderr, "bench_exec: cudaMemcpy failed\n");
		exit(2);
	}
}

typedef struct ExecCopyJob {
	ExecDevice *dst_dev, *src_dev;
	void *dst;
	const void *src;
	size_t bytes;
} ExecCopyJob;

static void exec_copy_once(void *ctx)
{
	ExecCopyJob *job = ctx;
	char *err = NULL;
	if (!exec_copy(job->dst_dev, job->dst, job->src_dev, job->src, job->bytes, &err)) {
		fprintf(stderr, "bench_exec: %s\n", err);
		exit(2);
	}
}

static void bench_gpu(ExecRuntime *rt)
{
	ExecDevice *cpu = exec_runtime_device(rt, 0), *gpu = exec_runtime_device(rt, 1);
	const size_t bytes = (size_t)256 << 20;
	int64_t n = (int64_t)(bytes / sizeof(float)), shape[1] = {n};
	void *pinned = NULL, *dev_a = NULL, *dev_b = NULL, *dev_c, *host, *pageable;
	CudaCopyJob cj;
	ExecCopyJob ej;
	LaunchJob add;
	KernelTensor in[2], out[1];
	double t, h2d, d2h, d2d;
	if (!gpu || strcmp(gpu->backend->name, "cuda") != 0 || !cpu) {
		fprintf(stderr, "bench_exec: cuda:0 is not a GPU here\n");
		exit(2);
	}
	if (cudaMallocHost(&pinned, bytes) != cudaSuccess ||
	    cudaMalloc(&dev_a, bytes) != cudaSuccess) {
		fprintf(stderr, "bench_exec: cannot allocate %zu bytes for the references\n",
			bytes);
		exit(2);
	}
	memset(pinned, 1, bytes);
	cj = (CudaCopyJob){dev_a, pinned, bytes, cudaMemcpyHostToDevice};
	t = measure(cuda_copy, &cj);
	h2d = (double)bytes / t * 1e-9;
	row("cudaMemcpy pinned H2D", "256 MiB", t, h2d, "GB/s", "", -1, 0);
	cj = (CudaCopyJob){pinned, dev_a, bytes, cudaMemcpyDeviceToHost};
	t = measure(cuda_copy, &cj);
	d2h = (double)bytes / t * 1e-9;
	row("cudaMemcpy pinned D2H", "256 MiB", t, d2h, "GB/s", "", -1, 0);
	if (cudaMalloc(&dev_b, bytes) != cudaSuccess) {
		fprintf(stderr, "bench_exec: cannot allocate device memory\n");
		exit(2);
	}
	cj = (CudaCopyJob){dev_b, dev_a, bytes, cudaMemcpyDeviceToDevice};
	t = measure(cuda_copy, &cj);
	d2d = 2.0 * (double)bytes / t * 1e-9;
	row("cudaMemcpy D2D", "256 MiB", t, d2d, "GB/s", "", -1, 0);
	cudaFree(dev_a);
	cudaFree(dev_b);
	cudaFreeHost(pinned);

	/* device_copy through the backends: cpu memory is pinned now */
	host = touched(cpu, bytes, 1.0f);
	dev_a = touched(gpu, bytes, 0);
	ej = (ExecCopyJob){gpu, cpu, dev_a, host, bytes};
	t = measure(exec_copy_once, &ej);
	row("device_copy cpu -> cuda", "256 MiB", t, (double)bytes / t * 1e-9, "GB/s",
	    "cudaMemcpy pinned H2D", (double)bytes / t * 1e-9 / h2d, 0.80);
	ej = (ExecCopyJob){cpu, gpu, host, dev_a, bytes};
	t = measure(exec_copy_once, &ej);
	row("device_copy cuda -> cpu", "256 MiB", t, (double)bytes / t * 1e-9, "GB/s",
	    "cudaMemcpy pinned D2H", (double)bytes / t * 1e-9 / d2h, 0.80);
	pageable = exec_host_alloc(bytes);
	if (pageable) {
		char *err = NULL;
		memset(pageable, 1, bytes);
		t = now();
		if (exec_copy_in(gpu, dev_a, pageable, bytes, &err))
			t = now() - t;
		t = now();
		exec_copy_in(gpu, dev_a, pageable, bytes, &err);
		t = now() - t;
		free(err);
		row("input copy, pageable", "256 MiB", t, (double)bytes / t * 1e-9, "GB/s",
		    "cudaMemcpy pinned H2D", (double)bytes / t * 1e-9 / h2d, 0);
		exec_host_free(pageable);
	}

	dev_b = touched(gpu, bytes, 0);
	dev_c = touched(gpu, bytes, 0);
	in[0] = kernel_tensor(dev_a, DT_FLOAT32, 1, shape);
	in[1] = kernel_tensor(dev_b, DT_FLOAT32, 1, shape);
	out[0] = kernel_tensor(dev_c, DT_FLOAT32, 1, shape);
	memset(&add, 0, sizeof add);
	add.dev = gpu;
	add.kc.op = OP_ADD;
	add.kc.name = "add";
	add.kc.in = in;
	add.kc.nin = 2;
	add.kc.out = out;
	add.kc.nout = 1;
	t = measure(launch_once, &add);
	row("add f32 (cuda backend)", "2 x 256 MiB", t, 3.0 * (double)bytes / t * 1e-9, "GB/s",
	    "cudaMemcpy D2D", 3.0 * (double)bytes / t * 1e-9 / d2d, 0.70);
	exec_free(cpu, host, bytes);
	exec_free(gpu, dev_a, bytes);
	exec_free(gpu, dev_b, bytes);
	exec_free(gpu, dev_c, bytes);
}
#endif

int main(int argc, char **argv)
{
	bool cpu = false, gpu = false, gpu_required = false;
	DeviceTable devices;
	DiagList diags;
	ExecOptions o = {.gpu = GPU_REQUIRE};
	ExecRuntime *rt;
	char *why = NULL;
	/* its sgemm references and devplan's products use the same OpenBLAS
	 * kernels: the core type devplan would name, set before OpenBLAS
	 * (linked here) starts, by running again */
	if (!getenv("OPENBLAS_CORETYPE") && kernel_blas_coretype()) {
		setenv("OPENBLAS_CORETYPE", kernel_blas_coretype(), 1);
		execv("/proc/self/exe", argv);
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			reps = atoi(argv[++i]);
			if (reps < 1 || reps > BENCH_MAX_REPS) {
				fprintf(stderr, "bench_exec: -r takes 1 to %d\n", BENCH_MAX_REPS);
				return 2;
			}
		} else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else if (strcmp(argv[i], "--cpu-time") == 0) {
			cpu_time = true;
		} else if (strcmp(argv[i], "--cpu") == 0) {
			cpu = true;
		} else if (strcmp(argv[i], "--gpu") == 0) {
			gpu = gpu_required = true;
		} else {
			fprintf(stderr,
				"usage: bench_exec [-r REPS] [--only WORD] [--cpu-time] [--cpu] "
				"[--gpu]\n");
			return 2;
		}
	}
	if (!cpu && !gpu) {
		cpu = true;
		gpu = exec_gpu_available(&why);
	}
	devices_init_default(&devices);
	diag_init(&diags);
	printf("bench_exec: median of %d runs; %d cpu threads; %s\n", reps, kernel_cpu_threads(),
	       openblas_get_config());
	header();
	if (cpu) {
		rt = exec_runtime_new(&devices, &o, &diags);
		bench_cpu(rt);
		exec_runtime_free(rt);
	}
	if (gpu) {
#ifdef DEVPLAN_HAVE_CUDA
		rt = exec_runtime_new(&devices, &o, &diags);
		if (!exec_runtime_device(rt, 1)) {
			diag_print_all(stderr, &diags);
			exec_runtime_free(rt);
			return 2;
		}
		bench_gpu(rt);
		exec_runtime_free(rt);
#else
		fprintf(stderr, "bench_exec: built without CUDA\n");
		return 2;
#endif
	} else if (why) {
		printf("gpu rows skipped: %s\n", why);
	}
	(void)gpu_required;
	free(why);
	diag_free(&diags);
	devices_free(&devices);
	printf("%s\n", missed ? "bench_exec: some targets MISSED" : "bench_exec: every target met");
	return missed ? 1 : 0;
}
