/*
 * exec_calibrate.h - this machine's memory bandwidth and matrix-product
 * rate, measured once, for the cost model `estimate` reads (`target
 * calibrate`, and `profile`'s estimate).
 *
 * Measured on the cpu backend's own threads (kernel_cpu_threads,
 * DEVPLAN_THREADS), each timed by its busy time (exec_clock.h: CPU time,
 * spread over the kernels' threads, the measure `profile` times every
 * operator by) so that another job on a shared machine does not make the
 * machine look slower than it is:
 * - memcpy of 64 MiB split over the kernels' threads (bytes read plus
 *   bytes written, the unit every data-moving operator of the estimate is
 *   counted in), and on one thread;
 * - a copy within one core's cache: half its L2 cache's bytes, read plus
 *   written, on one thread (what an operator whose operands were just
 *   written by the one before it reads at);
 * - the cpu backend's nn.dense (OpenBLAS sgemm, with the threads the
 *   kernels set it to) on 512 x 512 x 512, and on 64 x 64 x 64, a product
 *   OpenBLAS runs on one thread whatever its threads (EXEC_GEMM_SPLIT);
 * - its nn.dense of one row (OpenBLAS sgemv) on 1 x 64 by 64 x 64, which
 *   OpenBLAS runs on one thread, and on 1 x 128 by 128 x 128, which it
 *   splits over its threads (EXEC_GEMV_SPLIT), 256 calls a timed run: what
 *   a call takes besides its bytes at the cache's rate (the weights of a
 *   small model stay in cache from run to run), the per-call cost of
 *   sgemv and, threaded, of handing half the rows to OpenBLAS's worker and
 *   waiting for it, which the calling thread's busy time counts. Here
 *   (2 vCPUs, OpenBLAS 0.3.21, load 4-6) 0.2-0.5 us on one thread and
 *   1-2 us threaded, so that a threaded sgemv of a few hundred KiB costs the
 *   caller as much as one thread's (mlp's 1 x 784 by 128 x 784: 3-5 us a
 *   call at 1 and 2 threads);
 * - its nn.matmul of 4096 x 16 by the transpose of 1024 x 4096, a product
 *   with one narrow side that the cpu's own kernel computes (gemm_skinny.c,
 *   GEMM_SKINNY_MAX): it reads its 16 MiB operand where it lies, at a rate
 *   of its own, below both memcpy's (it only reads) and sgemm's (a
 *   transposed convolution of 16 positions, dcgan's first, ran at half
 *   the 512^3 rate on two threads);
 * Each rate is the median of five runs after a warm-up; all together take
 * about 0.2-0.4 s. Besides what it measures, it reports where the cpu
 * backend splits work over its threads, which the estimate needs to know
 * which rate an operator runs at.
 *
 * Ownership: nothing is kept; the result is a plain struct.
 */
#ifndef DEVPLAN_EXEC_CALIBRATE_H
#define DEVPLAN_EXEC_CALIBRATE_H

#include <stdbool.h>

/* OpenBLAS 0.3.21 (Debian 12's, which devplan loads) runs a product on one
 * thread when M * N * K <= SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD
 * = 65536 * 4 (interface/gemm.c: `if (MNK <= (SMP_THRESHOLD_MIN * (double)
 * GEMM_MULTITHREAD_THRESHOLD)) args.nthreads = 1;`, the threshold's
 * default 4 from Makefile.system), and a matrix-vector product (cpu_gemm's
 * for one row) when M * N < 2304 * GEMM_MULTITHREAD_THRESHOLD
 * (interface/gemv.c); otherwise on all its threads. */
#define EXEC_GEMM_SPLIT (65536.0 * 4)
#define EXEC_GEMV_SPLIT (2304.0 * 4)

typedef struct ExecCalibration {
	int threads;           /* the cpu kernels' threads it was measured with */
	double memory_gbps;    /* GB/s (1e9) of memcpy: bytes read + written */
	double memory1_gbps;   /* ... on one thread */
	double cache_gbps;     /* ... on one thread within its cache */
	double cache_bytes;    /* the bytes (read + written) of that copy */
	double sgemm_gflops;   /* GFLOP/s (1e9) of float32 sgemm, 512^3 */
	double small_gflops;   /* ... of 64^3, which OpenBLAS runs on one thread */
	double launch_us;      /* microseconds an operator costs besides its
				 work, as `profile` times one in a module:
				 not measured here (0), session_calibrate
				 measures it by running one */
	double first_call_us;  /* what the first call of an operator kind in a
				 run costs more (session_calibrate) */
	double split_elements; /* the kernels split work past this many
				  elements (GRAIN_ELEMENTWISE) */
	double gemm_split;     /* EXEC_GEMM_SPLIT */
	double gemm_side;      /* the sides of the square products of */
	double small_side;     /* sgemm_gflops and small_gflops (512, 64) */
	double gemv_split;     /* EXEC_GEMV_SPLIT */
	double direct_conv;    /* DIRECT_CONV_MAX */
	double gemv_us;        /* microseconds a one-row product (sgemv) on one
				 thread takes besides its roofline: 1 x 64 by
				 64 x 64 */
	double gemv_split_us;  /* ... one OpenBLAS threads (1 x 128 by 128 x
				 128, past EXEC_GEMV_SPLIT) on the kernels'
				 threads: with its workers' hand-off */
	double skinny_max;     /* GEMM_SKINNY_MAX, or 0 on a CPU without
				 gemm_skinny's kernels */
	double skinny_big;     /* GEMM_SKINNY_BIG */
	double skinny_gflops;  /* GFLOP/s of a product with a narrow side of
				 GEMM_SKINNY_MAX (4096 x 16 by a transposed
				 1024 x 4096) by gemm_skinny on the kernels'
				 threads; 0 without its kernels */
	double seconds;        /* how long measuring took (wall clock) */
} ExecCalibration;

/* Measures this machine. False with *err set (caller frees) when the
 * buffers cannot be allocated or the product's kernel fails. */
bool exec_calibrate(ExecCalibration *out, char **err);

#endif
