/*
 * cpu_nn.c - the CPU kernels of nn.softmax and the matrix products.
 *
 * nn.dense and nn.batch_matmul go to OpenBLAS (cpu_gemm, in kernels_cpu.c);
 * softmax shifts each row by its maximum and sums in double, float32 with
 * a polynomial exp that vectorises.
 */
#include "kernels_cpu.h"

#include <math.h>
#include <string.h>

#include "kernel_fastmath.h"

/* ---- softmax ----------------------------------------------------------- */

typedef struct SoftmaxJob {
	const KernelCall *kc;
} SoftmaxJob;

/* Rows are (outer, inner) pairs; each is max-shifted, exponentiated and
 * normalised (times the reciprocal of the sum), with the sum in double.
 * A float32 row along the last axis (inner 1, the usual case) is one run
 * of three loops that vectorise, each as wide as the CPU's vectors
 * (CPU_CLONES): the maximum in sixteen lanes; exp by kernel_expf_nonpos
 * (kernel_fastmath.h: kernel_expf's bits for x - max <= 0, a polynomial
 * within 2 ulp, where libm's expf is a call per element), summed in sixteen float lanes over blocks of 128
 * elements (eight additions each) and the blocks' sums in double; the
 * scaling by the float reciprocal. float64 rows and strided rows take exp
 * and expf one at a time. */
enum { SOFTMAX_LANES = 16, SOFTMAX_BLOCK = 128 };

/* The largest of x[0 .. len) that is not NaN (-inf when none is), in
 * SOFTMAX_LANES lanes: with GCC's vector types, as one vector (GCC does
 * not vectorise the lanes written as an array: they became sixteen scalar
 * maxss chains, 0.6 ns an element, a third of the row's time). */
static inline float softmax_max_f32(const float *restrict x, int64_t len)
{
	float m = -INFINITY;
	int64_t k = 0;
#if defined(__GNUC__)
	typedef float Lanes __attribute__((vector_size(SOFTMAX_LANES * sizeof(float))));
	typedef int32_t Mask __attribute__((vector_size(SOFTMAX_LANES * sizeof(float))));
	Lanes lane_max = (Lanes){0} - INFINITY;
	for (; k + SOFTMAX_LANES <= len; k += SOFTMAX_LANES) {
		Lanes v;
		Mask gt;
		memcpy(&v, x + k, sizeof v);
		gt = v > lane_max;
		lane_max = (Lanes)((gt & (Mask)v) | (~gt & (Mask)lane_max));
	}
	for (int j = 0; j < SOFTMAX_LANES; j++)
		m = lane_max[j] > m ? lane_max[j] : m;
#endif
	for (; k < len; k++)
		m = x[k] > m ? x[k] : m;
	return m;
}

CPU_CLONES static void softmax_run_f32(const float *restrict x, float *restrict y, int64_t len)
{
	float m = softmax_max_f32(x, len), inv;
	double total[SOFTMAX_LANES] = {0}, sum = 0;
	int64_t k;
	for (k = 0; k + SOFTMAX_BLOCK <= len; k += SOFTMAX_BLOCK) {
		float lane[SOFTMAX_LANES] = {0};
		for (int64_t b = k; b < k + SOFTMAX_BLOCK; b += SOFTMAX_LANES)
			for (int j = 0; j < SOFTMAX_LANES; j++) {
				float e = kernel_expf_nonpos(x[b + j] - m);
				y[b + j] = e;
				lane[j] += e;
			}
		for (int j = 0; j < SOFTMAX_LANES; j++)
			total[j] += lane[j];
	}
	for (; k < len; k++) {
		float e = kernel_expf_nonpos(x[k] - m);
		y[k] = e;
		total[0] += e;
	}
	for (int j = 0; j < SOFTMAX_LANES; j++)
		sum += total[j];
	inv = (float)(1.0 / sum);
	for (k = 0; k < len; k++)
		y[k] = y[k] * inv;
}

#define DEFINE_SOFTMAX(NAME, T, EXPF, RUN)                                 \
	static void NAME(void *vjob, int64_t begin, int64_t end)           \
	{                                                                  \
		const KernelCall *kc = ((SoftmaxJob *)vjob)->kc;           \
		const T *x = kc->in[0].data;                               \
		T *y = kc->out[0].data;                                    \
		int64_t len = kc->p.axis.len, inner = kc->p.axis.inner;    \
		for (int64_t row = begin; row < end; row++) {              \
			int64_t o = row / inner, i = row % inner;          \
			const T *xr = x + o * len * inner + i;             \
			T *yr = y + o * len * inner + i;                   \
			T m = -INFINITY;                                   \
			double sum = 0, inv;                               \
			if (inner == 1) {                                  \
				RUN(xr, yr, len);                          \
				continue;                                  \
			}                                                  \
			for (int64_t k = 0; k < len; k++)                  \
				m = xr[k * inner] > m ? xr[k * inner] : m; \
			for (int64_t k = 0; k < len; k++) {                \
				T e = EXPF(xr[k * inner] - m);             \
				yr[k * inner] = e;                         \
				sum += e;                                  \
			}                                                  \
			inv = 1.0 / sum;                                   \
			for (int64_t k = 0; k < len; k++)                  \
				yr[k * inner] = (T)(yr[k * inner] * inv);  \
		}                                                          \
	}

/* A float64 row along the last axis: four lanes for the sum. */
static void softmax_run_f64(const double *restrict x, double *restrict y, int64_t len)
{
	double m = -INFINITY, lane[4] = {0, 0, 0, 0}, inv;
	int64_t k;
	for (k = 0; k < len; k++)
		m = x[k] > m ? x[k] : m;
	for (k = 0; k + 4 <= len; k += 4)
		for (int j = 0; j < 4; j++) {
			double e = exp(x[k + j] - m);
			y[k + j] = e;
			lane[j] += e;
		}
	for (; k < len; k++) {
		double e = exp(x[k] - m);
		y[k] = e;
		lane[0] += e;
	}
	inv = 1.0 / (lane[0] + lane[1] + lane[2] + lane[3]);
	for (k = 0; k < len; k++)
		y[k] = y[k] * inv;
}

DEFINE_SOFTMAX(softmax_f32, float, kernel_expf, softmax_run_f32)
DEFINE_SOFTMAX(softmax_f64, double, exp, softmax_run_f64)

/* nn.fast_softmax is softmax (TVM's differs by its fast_exp's error only) */
bool kernel_cpu_FAST_SOFTMAX(const KernelCall *kc, char **err)
{
	return kernel_cpu_SOFTMAX(kc, err);
}

bool kernel_cpu_SOFTMAX(const KernelCall *kc, char **err)
{
	SoftmaxJob job = {kc};
	int64_t rows = kc->p.axis.outer * kc->p.axis.inner;
	int64_t grain = GRAIN_ELEMENTWISE / (kc->p.axis.len + 1) + 1;
	return cpu_run_float(kc, rows, grain, softmax_f32, softmax_f64, &job, err);
}

/* ---- matrix products ----------------------------------------------------- */

static bool matmul_kernel(const KernelCall *kc, char **err)
{
	const KernelMatmul *mm = &kc->p.matmul;
	size_t es = dtype_size(kc->in[0].dtype);
	if (!cpu_blas_dtype(kc, err))
		return false;
	if (!fits_int(mm->m) || !fits_int(mm->n) || !fits_int(mm->k))
		return cpu_too_large(kc, err);
	for (int64_t b = 0; b < mm->batch; b++) {
		const char *a = (const char *)kc->in[0].data +
				(size_t)((mm->batch_a == 1 ? 0 : b) * mm->m * mm->k) * es;
		const char *w = (const char *)kc->in[1].data +
				(size_t)((mm->batch_b == 1 ? 0 : b) * mm->k * mm->n) * es;
		char *c = (char *)kc->out[0].data + (size_t)(b * mm->m * mm->n) * es;
		cpu_gemm(kc->in[0].dtype, mm->trans_a, mm->trans_b, mm->m, mm->n, mm->k, a,
			 mm->trans_a ? mm->m : mm->k, w, mm->trans_b ? mm->k : mm->n, c, mm->n);
	}
	return true;
}

KERNEL_CPU_VIA(DENSE, matmul_kernel)
KERNEL_CPU_VIA(BATCH_MATMUL, matmul_kernel)
KERNEL_CPU_VIA(MATMUL, matmul_kernel)
