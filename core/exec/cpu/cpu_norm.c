/*
 * cpu_norm.c - the CPU kernels of the normalisations: nn.batch_norm
 * (inference form), nn.layer_norm, nn.instance_norm, nn.group_norm, and
 * nn.log_softmax.
 *
 * The data is seen as [outer, mid, c, inner] around the channel axis
 * (KernelNorm). batch_norm scales each channel by its moving statistics;
 * layer_norm normalises each (outer, inner) row along the axis; instance
 * and group norm normalise each (outer, group) over its channels, mid and
 * inner. Statistics are two-pass (mean, then the mean square deviation) in
 * double; gamma and beta run along the channel axis unless scale or
 * center is off. float32 and float64.
 */
#include "kernels_cpu.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <xmmintrin.h>
#endif

/* A float32 layer_norm output of at least this many bytes, which would
 * push the caches' contents out anyway, is stored around them along the
 * last axis (_mm_stream_ps: whole lines written without reading them
 * first, as memcpy does past the caches; nn.layer_norm 4096^2 went from
 * 0.51-0.52 of memcpy to 0.61-0.64, one thread's CPU time). Smaller ones,
 * bert's among them, stay in the caches for the operator after. */
#define LAYER_NORM_STREAM ((size_t)4 << 20)

typedef struct NormJob {
	const KernelCall *kc;
} NormJob;

/* gamma * (x - mean) / sqrt(var + eps) + beta for channel c */
#define NORM_OUT(x, mean, inv, c)                                        \
	(((x) - (mean)) * (inv) * (kn->scale ? (double)gamma[c] : 1.0) + \
	 (kn->center ? (double)beta[c] : 0.0))

/* batch_norm: rows are (outer, mid, c) triples of inner elements. */
#define DEFINE_BATCH_NORM(NAME, T)                                                            \
	static void NAME(void *vjob, int64_t begin, int64_t end)                              \
	{                                                                                     \
		const KernelCall *kc = ((NormJob *)vjob)->kc;                                 \
		const KernelNorm *kn = &kc->p.norm;                                           \
		const T *x = kc->in[0].data, *gamma = kc->in[1].data, *beta = kc->in[2].data; \
		const T *mean = kc->in[3].data, *var = kc->in[4].data;                        \
		T *y = kc->out[0].data;                                                       \
		for (int64_t row = begin; row < end; row++) {                                 \
			int64_t c = row % kn->c;                                              \
			double inv = 1.0 / sqrt((double)var[c] + kn->eps);                    \
			for (int64_t i = 0; i < kn->inner; i++) {                             \
				int64_t k = row * kn->inner + i;                              \
				y[k] = (T)NORM_OUT((double)x[k], (double)mean[c], inv, c);    \
			}                                                                     \
		}                                                                             \
	}
DEFINE_BATCH_NORM(batch_norm_f32, float)
DEFINE_BATCH_NORM(batch_norm_f64, double)

/* One layer_norm row along the last axis (inner 1, the usual case): its
 * statistics summed in eight double lanes each, so that neither is one
 * chain of dependent additions, and the whole row compiled as wide as the
 * CPU's vectors (CPU_CLONES). gamma and beta may be unused (scale or
 * center off). */
#define DEFINE_LAYER_NORM_RUN(NAME, T)                                                             \
	CPU_CLONES static void NAME(const T *restrict xr, T *restrict yr, const T *restrict gamma, \
				    const T *restrict beta, const KernelNorm *kn, bool stream)     \
	{                                                                                          \
		double s[8] = {0}, q[8] = {0}, mean, inv;                                          \
		(void)stream;                                                                      \
		int64_t c = 0, n = kn->c;                                                          \
		for (; c + 8 <= n; c += 8)                                                         \
			for (int j = 0; j < 8; j++)                                                \
				s[j] += xr[c + j];                                                 \
		for (; c < n; c++)                                                                 \
			s[0] += xr[c];                                                             \
		mean = (((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]))) /       \
		       (double)n;                                                                  \
		for (c = 0; c + 8 <= n; c += 8)                                                    \
			for (int j = 0; j < 8; j++) {                                              \
				double d = xr[c + j] - mean;                                       \
				q[j] += d * d;                                                     \
			}                                                                          \
		for (; c < n; c++)                                                                 \
			q[0] += (xr[c] - mean) * (xr[c] - mean);                                   \
		inv = 1.0 /                                                                        \
		      sqrt((((q[0] + q[4]) + (q[1] + q[5])) + ((q[2] + q[6]) + (q[3] + q[7]))) /   \
				   (double)n +                                                     \
			   kn->eps);                                                               \
		if (kn->scale && kn->center)                                                       \
			for (c = 0; c < n; c++)                                                    \
				yr[c] = (T)((xr[c] - mean) * inv * gamma[c] + beta[c]);            \
		else                                                                               \
			for (c = 0; c < n; c++)                                                    \
				yr[c] = (T)NORM_OUT((double)xr[c], mean, inv, c);                  \
	}
DEFINE_LAYER_NORM_RUN(layer_norm_run_f64, double)

#if defined(__GNUC__)
/* A float32 row with GCC's vector types (GCC did not vectorise the eight
 * double lanes written as arrays: the row took 1.7 ns an element and
 * nn.layer_norm 4096^2 ran at 0.45 of memcpy). The statistics in double,
 * in sixteen lanes (two vectors of eight, element c in lane c % 16, the
 * tail in lane 0) so that two chains of additions overlap; each output is
 * (x - mean) * inv in double, rounded to float, then times gamma plus
 * beta in float, as TVM computes it (within 2 ulp of the double form). */
typedef float LnF8 __attribute__((vector_size(8 * sizeof(float))));
typedef double LnD8 __attribute__((vector_size(8 * sizeof(double))));

/* The sum of the 16 lanes of (a, b), in pairs, then the tail's lane 0 */
#define LN_LANES_SUM(a, b)                                                     \
	((((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7]))) + \
	 (((b[0] + b[4]) + (b[1] + b[5])) + ((b[2] + b[6]) + (b[3] + b[7]))))

/* Eight outputs (x - mean) * inv, rounded to float, times gamma plus beta,
 * into *v (a pointer: a vector returned by value would change the ABI
 * between the clones) */
static inline __attribute__((always_inline)) void ln_scale_shift(LnF8 *v, const float *x,
								 const float *gamma,
								 const float *beta, double mean,
								 double inv)
{
	LnF8 g, b;
	memcpy(v, x, sizeof *v);
	memcpy(&g, gamma, sizeof g);
	memcpy(&b, beta, sizeof b);
	*v = __builtin_convertvector((__builtin_convertvector(*v, LnD8) - mean) * inv, LnF8);
	*v = *v * g + b;
}

CPU_CLONES static void layer_norm_run_f32(const float *restrict xr, float *restrict yr,
					  const float *restrict gamma, const float *restrict beta,
					  const KernelNorm *kn, bool stream)
{
	LnD8 s0 = {0}, s1 = {0}, q0 = {0}, q1 = {0};
	LnF8 v, w;
	double mean, inv;
	int64_t c = 0, n = kn->c;
	for (; c + 16 <= n; c += 16) {
		memcpy(&v, xr + c, sizeof v);
		memcpy(&w, xr + c + 8, sizeof w);
		s0 += __builtin_convertvector(v, LnD8);
		s1 += __builtin_convertvector(w, LnD8);
	}
	for (; c < n; c++)
		s0[0] += xr[c];
	mean = LN_LANES_SUM(s0, s1) / (double)n;
	for (c = 0; c + 16 <= n; c += 16) {
		LnD8 d, e;
		memcpy(&v, xr + c, sizeof v);
		memcpy(&w, xr + c + 8, sizeof w);
		d = __builtin_convertvector(v, LnD8) - mean;
		e = __builtin_convertvector(w, LnD8) - mean;
		q0 += d * d;
		q1 += e * e;
	}
	for (; c < n; c++)
		q0[0] += (xr[c] - mean) * (xr[c] - mean);
	inv = 1.0 / sqrt(LN_LANES_SUM(q0, q1) / (double)n + kn->eps);
	if (!kn->scale || !kn->center) {
		for (c = 0; c < n; c++)
			yr[c] = (float)NORM_OUT((double)xr[c], mean, inv, c);
		return;
	}
	c = 0;
#ifdef __SSE2__
	if (stream) {
		/* up to the first 16-byte boundary, then whole vectors around the
		 * caches */
		for (; c < n && (uintptr_t)(yr + c) % 16 != 0; c++)
			yr[c] = (float)((xr[c] - mean) * inv) * gamma[c] + beta[c];
		for (; c + 8 <= n; c += 8) {
			__m128 lo, hi;
			ln_scale_shift(&v, xr + c, gamma + c, beta + c, mean, inv);
			memcpy(&lo, &v, sizeof lo);
			memcpy(&hi, (const char *)&v + sizeof lo, sizeof hi);
			_mm_stream_ps(yr + c, lo);
			_mm_stream_ps(yr + c + 4, hi);
		}
	}
#endif
	for (; c + 8 <= n; c += 8) {
		ln_scale_shift(&v, xr + c, gamma + c, beta + c, mean, inv);
		memcpy(yr + c, &v, sizeof v);
	}
	for (; c < n; c++)
		yr[c] = (float)((xr[c] - mean) * inv) * gamma[c] + beta[c];
}
#else
DEFINE_LAYER_NORM_RUN(layer_norm_run_f32, float)
#endif

/* The streamed stores done before the pool's join */
static void layer_norm_fence(bool stream)
{
#ifdef __SSE2__
	if (stream)
		_mm_sfence();
#else
	(void)stream;
#endif
}

/* layer_norm: rows are (outer, inner) pairs of c elements, stride inner. */
#define DEFINE_LAYER_NORM(NAME, T, RUN)                                                       \
	static void NAME(void *vjob, int64_t begin, int64_t end)                              \
	{                                                                                     \
		const KernelCall *kc = ((NormJob *)vjob)->kc;                                 \
		const KernelNorm *kn = &kc->p.norm;                                           \
		const T *x = kc->in[0].data, *gamma = kc->in[1].data, *beta = kc->in[2].data; \
		T *y = kc->out[0].data;                                                       \
		bool stream = kc->out[0].nbytes >= LAYER_NORM_STREAM;                         \
		for (int64_t row = begin; row < end; row++) {                                 \
			int64_t o = row / kn->inner, i = row % kn->inner;                     \
			const T *xr = x + o * kn->c * kn->inner + i;                          \
			T *yr = y + o * kn->c * kn->inner + i;                                \
			double mean = 0, var = 0, inv;                                        \
			if (kn->inner == 1) {                                                 \
				RUN(xr, yr, gamma, beta, kn, stream);                         \
				continue;                                                     \
			}                                                                     \
			for (int64_t c = 0; c < kn->c; c++)                                   \
				mean += xr[c * kn->inner];                                    \
			mean /= (double)kn->c;                                                \
			for (int64_t c = 0; c < kn->c; c++) {                                 \
				double d = xr[c * kn->inner] - mean;                          \
				var += d * d;                                                 \
			}                                                                     \
			inv = 1.0 / sqrt(var / (double)kn->c + kn->eps);                      \
			for (int64_t c = 0; c < kn->c; c++)                                   \
				yr[c * kn->inner] =                                           \
					(T)NORM_OUT((double)xr[c * kn->inner], mean, inv, c); \
		}                                                                             \
		layer_norm_fence(stream);                                                     \
	}
DEFINE_LAYER_NORM(layer_norm_f32, float, layer_norm_run_f32)
DEFINE_LAYER_NORM(layer_norm_f64, double, layer_norm_run_f64)

/* instance and group norm: rows are (outer, group) pairs; a group is its
 * channels' elements over mid and inner. */
#define DEFINE_GROUP_NORM(NAME, T)                                                                 \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const KernelCall *kc = ((NormJob *)vjob)->kc;                                      \
		const KernelNorm *kn = &kc->p.norm;                                                \
		const T *x = kc->in[0].data, *gamma = kc->in[1].data, *beta = kc->in[2].data;      \
		T *y = kc->out[0].data;                                                            \
		int64_t per = kn->c / kn->groups;                                                  \
		double count = (double)(kn->mid * per * kn->inner);                                \
		for (int64_t row = begin; row < end; row++) {                                      \
			int64_t o = row / kn->groups, g = row % kn->groups;                        \
			double mean = 0, var = 0, inv = 0;                                         \
			for (int pass = 0; pass < 3; pass++) {                                     \
				for (int64_t m = 0; m < kn->mid; m++)                              \
					for (int64_t c = g * per; c < (g + 1) * per; c++) {        \
						int64_t base = ((o * kn->mid + m) * kn->c + c) *   \
							       kn->inner;                          \
						for (int64_t i = 0; i < kn->inner; i++) {          \
							double v = x[base + i];                    \
							if (pass == 0)                             \
								mean += v;                         \
							else if (pass == 1)                        \
								var += (v - mean) * (v - mean);    \
							else                                       \
								y[base + i] = (T)NORM_OUT(v, mean, \
											  inv, c); \
						}                                                  \
					}                                                          \
				if (pass == 0)                                                     \
					mean /= count;                                             \
				else if (pass == 1)                                                \
					inv = 1.0 / sqrt(var / count + kn->eps);                   \
			}                                                                          \
		}                                                                                  \
	}
DEFINE_GROUP_NORM(group_norm_f32, float)
DEFINE_GROUP_NORM(group_norm_f64, double)

static bool norm_run(const KernelCall *kc, int64_t rows, KernelRangeFn f32, KernelRangeFn f64,
		     char **err)
{
	NormJob job = {kc};
	int64_t per_row = kc->out[0].count / (rows ? rows : 1);
	return cpu_run_float(kc, rows, GRAIN_ELEMENTWISE / (per_row + 1) + 1, f32, f64, &job, err);
}

/* The moving mean and variance pass through as the second and third
 * results (TVM's inference form). */
bool kernel_cpu_BATCH_NORM(const KernelCall *kc, char **err)
{
	const KernelNorm *kn = &kc->p.norm;
	if (!norm_run(kc, kn->outer * kn->mid * kn->c, batch_norm_f32, batch_norm_f64, err))
		return false;
	memcpy(kc->out[1].data, kc->in[3].data, kc->out[1].nbytes);
	memcpy(kc->out[2].data, kc->in[4].data, kc->out[2].nbytes);
	return true;
}

bool kernel_cpu_LAYER_NORM(const KernelCall *kc, char **err)
{
	const KernelNorm *kn = &kc->p.norm;
	return norm_run(kc, kn->outer * kn->inner, layer_norm_f32, layer_norm_f64, err);
}

static bool group_kernel(const KernelCall *kc, char **err)
{
	const KernelNorm *kn = &kc->p.norm;
	return norm_run(kc, kn->outer * kn->groups, group_norm_f32, group_norm_f64, err);
}

KERNEL_CPU_VIA(INSTANCE_NORM, group_kernel)
KERNEL_CPU_VIA(GROUP_NORM, group_kernel)

/* ---- log_softmax ---------------------------------------------------------- */

/* x - max - log(sum(exp(x - max))) along the axis, the sum in double. */
#define DEFINE_LOG_SOFTMAX(NAME, T)                                               \
	static void NAME(void *vjob, int64_t begin, int64_t end)                  \
	{                                                                         \
		const KernelCall *kc = ((NormJob *)vjob)->kc;                     \
		const T *x = kc->in[0].data;                                      \
		T *y = kc->out[0].data;                                           \
		int64_t len = kc->p.axis.len, inner = kc->p.axis.inner;           \
		for (int64_t row = begin; row < end; row++) {                     \
			int64_t o = row / inner, i = row % inner;                 \
			const T *xr = x + o * len * inner + i;                    \
			T *yr = y + o * len * inner + i;                          \
			double m = -INFINITY, sum = 0, lse;                       \
			for (int64_t k = 0; k < len; k++)                         \
				m = xr[k * inner] > m ? xr[k * inner] : m;        \
			for (int64_t k = 0; k < len; k++)                         \
				sum += exp((double)xr[k * inner] - m);            \
			lse = m + log(sum);                                       \
			for (int64_t k = 0; k < len; k++)                         \
				yr[k * inner] = (T)((double)xr[k * inner] - lse); \
		}                                                                 \
	}
DEFINE_LOG_SOFTMAX(log_softmax_f32, float)
DEFINE_LOG_SOFTMAX(log_softmax_f64, double)

bool kernel_cpu_LOG_SOFTMAX(const KernelCall *kc, char **err)
{
	NormJob job = {kc};
	int64_t rows = kc->p.axis.outer * kc->p.axis.inner;
	int64_t grain = GRAIN_ELEMENTWISE / (kc->p.axis.len + 1) + 1;
	return cpu_run_float(kc, rows, grain, log_softmax_f32, log_softmax_f64, &job, err);
}

/* ---- nn.l2_normalize, nn.lrn ------------------------------------------------ */

/* The offset of position idx of the n axes (shape, stride), row-major. */
static int64_t split_offset(const int64_t *shape, const int64_t *stride, uint32_t n, int64_t idx)
{
	int64_t off = 0;
	for (uint32_t d = n; d-- > 0;) {
		off += idx % shape[d] * stride[d];
		idx /= shape[d];
	}
	return off;
}

/* x / sqrt(max(sum of x^2 over the reduced axes, eps)), numpy's maximum
 * (NaN propagates); one kept position per row, the sum in double. */
#define DEFINE_L2_NORMALIZE(NAME, T)                                                             \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                 \
	{                                                                                        \
		const KernelCall *kc = ((NormJob *)vjob)->kc;                                    \
		const KernelSplit *sp = &kc->p.split;                                            \
		const T *x = kc->in[0].data;                                                     \
		T *y = kc->out[0].data;                                                          \
		for (int64_t k = begin; k < end; k++) {                                          \
			int64_t base =                                                           \
				split_offset(sp->kept_shape, sp->kept_stride, sp->nkept, k);     \
			double sum = 0, norm;                                                    \
			for (int64_t r = 0; r < sp->red_count; r++) {                            \
				double v = x[base + split_offset(sp->red_shape, sp->red_stride,  \
								 sp->nred, r)];                  \
				sum += v * v;                                                    \
			}                                                                        \
			norm = sqrt(isnan(sum) || sum > sp->eps ? sum : sp->eps);                \
			for (int64_t r = 0; r < sp->red_count; r++) {                            \
				int64_t off = base + split_offset(sp->red_shape, sp->red_stride, \
								  sp->nred, r);                  \
				y[off] = (T)(x[off] / norm);                                     \
			}                                                                        \
		}                                                                                \
	}
DEFINE_L2_NORMALIZE(l2_normalize_f32, float)
DEFINE_L2_NORMALIZE(l2_normalize_f64, double)

bool kernel_cpu_L2_NORMALIZE(const KernelCall *kc, char **err)
{
	NormJob job = {kc};
	int64_t red = kc->p.split.red_count;
	int64_t rows = red ? kc->out[0].count / red : 0;
	return cpu_run_float(kc, rows, GRAIN_ELEMENTWISE / (red + 1) + 1, l2_normalize_f32,
			     l2_normalize_f64, &job, err);
}

/* topi's lrn: x / (bias + alpha * sum / size) ^ beta, the sum of the
 * squares of channels c - size / 2 .. c - size / 2 + size - 1 (zero
 * outside the axis). */
#define DEFINE_LRN(NAME, T)                                                                   \
	static void NAME(void *vjob, int64_t begin, int64_t end)                              \
	{                                                                                     \
		const KernelCall *kc = ((NormJob *)vjob)->kc;                                 \
		const KernelLrn *l = &kc->p.lrn;                                              \
		int64_t len = l->axis.len, inner = l->axis.inner;                             \
		const T *x = kc->in[0].data;                                                  \
		T *y = kc->out[0].data;                                                       \
		for (int64_t e = begin; e < end; e++) {                                       \
			int64_t c = e / inner % len, first = c - l->size / 2;                 \
			double sum = 0;                                                       \
			for (int64_t w = first; w < first + l->size; w++)                     \
				if (w >= 0 && w < len) {                                      \
					double v = x[e + (w - c) * inner];                    \
					sum += v * v;                                         \
				}                                                             \
			y[e] = (T)(x[e] /                                                     \
				   pow(l->bias + l->alpha * sum / (double)l->size, l->beta)); \
		}                                                                             \
	}
DEFINE_LRN(lrn_f32, float)
DEFINE_LRN(lrn_f64, double)

bool kernel_cpu_LRN(const KernelCall *kc, char **err)
{
	NormJob job = {kc};
	return cpu_run_float(kc, kc->out[0].count, GRAIN_ELEMENTWISE / (kc->p.lrn.size + 1) + 1,
			     lrn_f32, lrn_f64, &job, err);
}
