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
 * (cpu_op_benches): a one-call program parsed and typed, its operands
 * allocated on the cpu and the kernel launched as the interpreter does;
 * elementwise operators and reductions against memcpy timed in turns with
 * them (so that another job on the machine weighs on both alike), at least
 * 50%, and convolutions against sgemm on their own im2col GEMM, likewise in
 * turns, at least 50%.
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
 * Usage: bench_exec [-r REPS] [--cpu] [--gpu]   (default: cpu, and gpu
 * when one is usable)
 * Exit status: 0 when every target is met, 1 when one is missed, 2 when a
 * measurement could not run.
 */
#include <cblas.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef DEVPLAN_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "exec.h"
#include "infer.h"
#include "parse.h"

enum { BENCH_MAX_REPS = 101 };

static int reps = 5;
static int missed = 0;

static double now(void)
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
 * output written once) or OpenBLAS's sgemm on the GEMM that does the same
 * arithmetic (a convolution as im2col: weights (m x k) times columns
 * (k x n)). */
typedef enum OpReference { REF_MEMORY, REF_GEMM } OpReference;

typedef struct OpBench {
	const char *workload; /* the row's name */
	const char *size;     /* the row's size column */
	const char *params;   /* @main's parameter list */
	const char *body;     /* one call of the operator on them */
	OpReference reference;
	int m, n, k;   /* REF_GEMM: the GEMM's shape */
	double target; /* the least ratio to the reference; 0: for information */
} OpBench;

/* Targets (issue 13): elementwise operators and reductions at least half
 * the memcpy bandwidth, convolutions at least half of sgemm's rate on
 * their own GEMM. Softmax, layer norm and pooling read their data more than
 * once by nature (a maximum and a sum before the result; a window per
 * output), and erf is libm's erff, exact and bound by its arithmetic: they
 * are shown for information. */
static const OpBench cpu_op_benches[] = {
	{"fast_erf f32", "4096^2", "%x: Tensor[(4096, 4096), float32]", "fast_erf(%x)", REF_MEMORY,
	 0, 0, 0, 0.50},
	{"erf f32 (libm's erff)", "4096^2", "%x: Tensor[(4096, 4096), float32]", "erf(%x)",
	 REF_MEMORY, 0, 0, 0, 0},
	{"multiply, row broadcast", "4096^2 x 4096",
	 "%x: Tensor[(4096, 4096), float32], %y: Tensor[(4096), float32]", "multiply(%x, %y)",
	 REF_MEMORY, 0, 0, 0, 0.50},
	{"where f32", "4096^2",
	 "%c: Tensor[(4096, 4096), bool], %x: Tensor[(4096, 4096), float32], %y: Tensor[(4096, "
	 "4096), float32]",
	 "where(%c, %x, %y)", REF_MEMORY, 0, 0, 0, 0.50},
	{"sum, last axis", "4096^2", "%x: Tensor[(4096, 4096), float32]", "sum(%x, axis=[-1])",
	 REF_MEMORY, 0, 0, 0, 0.50},
	{"sum, first axis", "4096^2", "%x: Tensor[(4096, 4096), float32]", "sum(%x, axis=[0])",
	 REF_MEMORY, 0, 0, 0, 0.50},
	{"max, keepdims", "4096^2", "%x: Tensor[(4096, 4096), float32]",
	 "max(%x, axis=[1], keepdims=True)", REF_MEMORY, 0, 0, 0, 0.50},
	{"argmax, last axis", "4096^2", "%x: Tensor[(4096, 4096), float32]",
	 "argmax(%x, axis=[-1])", REF_MEMORY, 0, 0, 0, 0.50},
	{"nn.softmax", "4096^2", "%x: Tensor[(4096, 4096), float32]", "nn.softmax(%x)", REF_MEMORY,
	 0, 0, 0, 0},
	{"nn.layer_norm", "4096^2",
	 "%x: Tensor[(4096, 4096), float32], %g: Tensor[(4096), float32], %b: Tensor[(4096), "
	 "float32]",
	 "nn.layer_norm(%x, %g, %b)", REF_MEMORY, 0, 0, 0, 0},
	{"nn.conv2d 3x3, 64 ch", "1x64x56x56",
	 "%x: Tensor[(1, 64, 56, 56), float32], %w: Tensor[(64, 64, 3, 3), float32]",
	 "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3])", REF_GEMM, 64,
	 56 * 56, 64 * 9, 0.50},
	{"nn.conv2d 1x1, 256 -> 64", "1x256x56x56",
	 "%x: Tensor[(1, 256, 56, 56), float32], %w: Tensor[(64, 256, 1, 1), float32]",
	 "nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=64, kernel_size=[1, 1])", REF_GEMM, 64,
	 56 * 56, 256, 0.50},
	{"nn.conv2d 7x7/2, 3 -> 64", "1x3x224x224",
	 "%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32]",
	 "nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, "
	 "7])",
	 REF_GEMM, 64, 112 * 112, 3 * 49, 0.50},
	{"nn.max_pool2d 3x3/2", "1x64x112x112", "%x: Tensor[(1, 64, 112, 112), float32]",
	 "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])", REF_MEMORY, 0,
	 0, 0, 0},
};

typedef struct SgemmJob {
	const float *a, *b;
	float *c;
	int m, n, k;
} SgemmJob;

static void sgemm_shape(void *ctx)
{
	SgemmJob *g = ctx;
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->m, g->n, g->k, 1.0f, g->a, g->k,
		    g->b, g->n, 0.0f, g->c, g->n);
}

/* A tensor of type t on dev, every byte set (float32 0.0115, bool true),
 * its size added to *bytes. */
static KernelTensor bench_tensor(ExecDevice *dev, const Type *t, size_t *bytes)
{
	size_t n = dtype_size(t->u.tensor.dtype);
	void *p;
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		n *= (size_t)t->u.tensor.dims[i];
	p = touched(dev, n, 0);
	memset(p, 0x3c, n);
	*bytes += n;
	return kernel_tensor(p, t->u.tensor.dtype, t->u.tensor.ndim, t->u.tensor.dims);
}

/* fn and its reference timed in turns, `reps` rounds after a warm-up of
 * each (the reference is the faster of ref and ref2 when ref2 is given):
 * the medians of fn's and the reference's times, and the median over the
 * rounds of reference time / fn time, which another job on the machine
 * changes little because both halves of a round share its load. */
static void measure_against(BenchFn fn, void *ctx, BenchFn ref, BenchFn ref2, void *ref_ctx,
			    double *t_fn, double *t_ref, double *speed)
{
	double tf[BENCH_MAX_REPS], tr[BENCH_MAX_REPS], q[BENCH_MAX_REPS];
	fn(ctx);
	ref(ref_ctx);
	if (ref2)
		ref2(ref_ctx);
	for (int i = 0; i < reps; i++) {
		double t0 = now(), t1, t2;
		fn(ctx);
		t1 = now();
		ref(ref_ctx);
		t2 = now();
		tf[i] = t1 - t0;
		tr[i] = t2 - t1;
		if (ref2) {
			double t3;
			ref2(ref_ctx);
			t3 = now();
			if (t3 - t2 < tr[i])
				tr[i] = t3 - t2;
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
	if (call->kind != EXPR_CALL || call->u.call.nargs > 8 || call->type->kind != TYPE_TENSOR) {
		fprintf(stderr, "bench_exec: '%s' is not one call with one result\n", b->body);
		exit(2);
	}
	for (uint32_t i = 0; i < call->u.call.nargs; i++)
		in[i] = bench_tensor(cpu, call->u.call.args[i]->type, &bytes);
	out[0] = bench_tensor(cpu, call->type, &bytes);
	memset(&job, 0, sizeof job);
	job.dev = cpu;
	if (!kernel_call_prepare(&job.kc, call, in, call->u.call.nargs, out, 1, &err)) {
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
			      b->k};
		double flops = 2.0 * b->m * b->n * b->k, tg, speed;
		char reference[64];
		measure_against(launch_once, &job, sgemm_shape, NULL, &g, &t, &tg, &speed);
		snprintf(reference, sizeof reference, "sgemm %dx%dx%d", b->m, b->n, b->k);
		rate = flops / t * 1e-9;
		row(b->workload, b->size, t, rate, "GFLOP/s", reference, speed, b->target);
		exec_free(cpu, (void *)g.a, na * sizeof(float));
		exec_free(cpu, (void *)g.b, nb * sizeof(float));
		exec_free(cpu, g.c, nc * sizeof(float));
	} else {
		const size_t copied = (size_t)64 << 20;
		CopyJob copy = {touched(cpu, copied, 0), touched(cpu, copied, 1.0f), copied};
		double tm, speed;
		measure_against(launch_once, &job, memcpy_one_thread, memcpy_threads, &copy, &t,
				&tm, &speed);
		rate = (double)bytes / t * 1e-9;
		/* rate / memcpy's: bytes per second over 2 x 64 MiB per second */
		row(b->workload, b->size, t, rate, "GB/s", "memcpy in turns",
		    speed * (double)bytes / (2.0 * (double)copied), b->target);
		exec_free(cpu, copy.dst, copied);
		exec_free(cpu, (void *)copy.src, copied);
	}
	kernel_call_release(&job.kc);
	for (uint32_t i = 0; i < call->u.call.nargs; i++)
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
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			reps = atoi(argv[++i]);
			if (reps < 1 || reps > BENCH_MAX_REPS) {
				fprintf(stderr, "bench_exec: -r takes 1 to %d\n", BENCH_MAX_REPS);
				return 2;
			}
		} else if (strcmp(argv[i], "--cpu") == 0) {
			cpu = true;
		} else if (strcmp(argv[i], "--gpu") == 0) {
			gpu = gpu_required = true;
		} else {
			fprintf(stderr, "usage: bench_exec [-r REPS] [--cpu] [--gpu]\n");
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
