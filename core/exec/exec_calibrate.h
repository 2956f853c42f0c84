/*
 * exec_calibrate.h - this machine's memory bandwidth and matrix-product
 * rate, measured once, for the cost model `estimate` reads (`target
 * calibrate`, and `profile`'s estimate).
 *
 * Two measurements on the cpu backend's own threads (kernel_cpu_threads,
 * DEVPLAN_THREADS), each timed by its busy time (exec_clock.h: CPU time,
 * spread over the kernels' threads, the measure `profile` times every
 * operator by) so that another job on a shared machine does not make the
 * machine look slower than it is: memcpy of 64 MiB split over the kernels' threads (bytes read plus
 * bytes written, the unit every data-moving operator of the estimate is
 * counted in), and the cpu backend's nn.dense (OpenBLAS sgemm, with the
 * threads the kernels set it to) on 512 x 512 x 512; and what calling a
 * kernel costs besides its work, the backend's `add` of one element (what
 * a model of small tensors, an LSTM cell or an MLP, spends most of its
 * time in). Each is the median of
 * five runs after a warm-up; all together take about 0.1-0.3 s.
 *
 * Ownership: nothing is kept; the result is a plain struct.
 */
#ifndef DEVPLAN_EXEC_CALIBRATE_H
#define DEVPLAN_EXEC_CALIBRATE_H

#include <stdbool.h>

typedef struct ExecCalibration {
	int threads;         /* the cpu kernels' threads it was measured with */
	double memory_gbps;  /* GB/s (1e9) of memcpy: bytes read + written */
	double sgemm_gflops; /* GFLOP/s (1e9) of float32 sgemm */
	double launch_us;    /* microseconds a kernel call costs besides its
				work: an `add` of one element */
	double seconds;      /* how long measuring took (wall clock) */
} ExecCalibration;

/* Measures this machine. False with *err set (caller frees) when the
 * buffers cannot be allocated or the product's kernel fails. */
bool exec_calibrate(ExecCalibration *out, char **err);

#endif
