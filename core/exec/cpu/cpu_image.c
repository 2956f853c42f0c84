/*
 * cpu_image.c - the CPU kernels of the resamplings: image.resize1d/2d/3d,
 * nn.upsampling and nn.upsampling3d, which TVM lowers to the same topi
 * resize and so share one kernel here, and image.crop_and_resize, topi's
 * 2-D resize per box.
 *
 * The taps of every output position are computed once per call and per
 * spatial dimension (kernel_resize.h, the arithmetic the CUDA kernel
 * shares): a ResizeAxis per dimension. The value is topi's nested
 * interpolation in the dtype (float32 in float, as topi computes it;
 * float64 in double): the width taps' x * wx summed from the first
 * product (topi's _lerp, A * (1 - t) + B * t, and _cubic_kernel), those
 * sums times wy summed over the height taps, those times wz over the
 * depth taps. Channel-first data goes by output rows, each sum a loop
 * over a row that the compiler vectorises (CPU_CLONES), the input rows
 * gathered at the width taps by AVX-512's gather where the CPU has it
 * (or, where 16 taps lie within 16 inputs, loaded and permuted);
 * channel-last data goes by output positions, each sum over a run of
 * channels; the layouts agree bit for bit. image.crop_and_resize keeps a loop per
 * output position: its taps change with every box.
 */
#include "kernels_cpu.h"

#include <stdint.h>
#include <stdlib.h>

#include "kernel_resize.h"

/* A helper of the CPU_CLONES row functions, inlined into each clone. */
#if defined(__GNUC__)
#define RESIZE_INLINE static inline __attribute__((always_inline))
#else
#define RESIZE_INLINE static inline
#endif

typedef struct ResizeJob {
	const KernelCall *kc;
} ResizeJob;

/* The taps of the len output positions of one dimension: tap f of
 * position o reads input index[f * len + o] with weight[f * len + o]
 * (topi's float weight); outside[o]: tf_crop_and_resize's coordinate is
 * off the image (any_outside: for some o). The indices are 32-bit, which
 * lets the compiler gather with them. */
typedef struct ResizeAxis {
	int n; /* taps per position: 1, 2 or 4 */
	int64_t len;
	int32_t *index;
	float *weight;
	bool *outside, any_outside;
	/* window[k]: whether the 16 taps index[16 k .. 16 k + 15] lie within
	 * 16 consecutive inputs (near: as an upsampling's do, or a
	 * resampling's by less than 16/15, unless they span two taps), the
	 * first of them (base) and which of those 16 are on the row (mask) */
	struct ResizeWindow {
		int32_t base;
		uint16_t mask;
		bool near;
	} * window;
} ResizeAxis;

/* a->window for the taps of a (input extent image) */
static void resize_window_init(ResizeAxis *a, int64_t image)
{
	int64_t chunks = a->n * a->len / 16;
	a->window = xmalloc((size_t)(chunks + 1) * sizeof *a->window);
	for (int64_t k = 0; k < chunks; k++) {
		int32_t lo = a->index[16 * k], hi = lo;
		for (int j = 1; j < 16; j++) {
			lo = a->index[16 * k + j] < lo ? a->index[16 * k + j] : lo;
			hi = a->index[16 * k + j] > hi ? a->index[16 * k + j] : hi;
		}
		a->window[k].near = hi - lo < 16;
		a->window[k].base = lo;
		a->window[k].mask =
			(uint16_t)(image - lo >= 16 ? 0xffff : (1u << (image - lo)) - 1);
	}
}

static void resize_axis_init(ResizeAxis *a, const KernelResize *r, int dim)
{
	a->len = r->out[dim];
	a->n = 1;
	a->any_outside = false;
	a->index = xmalloc((size_t)(4 * a->len + 1) * sizeof(int32_t));
	a->weight = xmalloc((size_t)(4 * a->len + 1) * sizeof(float));
	a->outside = xmalloc((size_t)(a->len + 1) * sizeof(bool));
	for (int64_t o = 0; o < a->len; o++) {
		ResizeTaps t;
		resize_taps(r, dim, o, &t);
		a->n = t.n; /* the same for every position of a dimension */
		a->outside[o] = t.outside;
		a->any_outside = a->any_outside || t.outside;
		for (int f = 0; f < t.n; f++) {
			a->index[f * a->len + o] = (int32_t)t.index[f]; /* < r->in[dim] */
			a->weight[f * a->len + o] = t.weight[f];
		}
	}
	resize_window_init(a, r->in[dim]);
}

static void resize_axis_free(ResizeAxis *a)
{
	free(a->index);
	free(a->weight);
	free(a->outside);
	free(a->window);
}

typedef struct ResizeRowsJob {
	const KernelCall *kc;
	ResizeAxis axis[3]; /* depth, height, width */
} ResizeRowsJob;

/* Input row src gathered at the width taps: g[f * ow + o] = src[index of
 * tap f of position o]. */
#define DEFINE_RESIZE_GATHER(NAME, T)                                                           \
	CPU_CLONES static void NAME(const ResizeAxis *ax, const T *restrict src, T *restrict g) \
	{                                                                                       \
		for (int64_t i = 0; i < ax->n * ax->len; i++)                                   \
			g[i] = src[ax->index[i]];                                               \
	}
DEFINE_RESIZE_GATHER(resize_gather_f32, float)
DEFINE_RESIZE_GATHER(resize_gather_f64, double)

/* resize_gather_f32 by AVX-512's gather, 16 floats an instruction (GCC
 * emulates the vectorised loop's gathers with scalar loads), when the CPU
 * has it: the same values, copied. Where 16 taps lie within 16 inputs
 * (ax->window), those inputs are loaded (the ones off the row masked out)
 * and permuted instead, a few cycles where a gather takes about 16. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
__attribute__((target("avx512f"))) static void
resize_gather_f32_512(const ResizeAxis *ax, const float *restrict src, float *restrict g)
{
	int64_t n = ax->n * ax->len, i = 0;
	for (; i + 16 <= n; i += 16) {
		const struct ResizeWindow *w = &ax->window[i / 16];
		__m512i at = _mm512_loadu_si512(ax->index + i);
		if (w->near)
			_mm512_storeu_ps(g + i,
					 _mm512_permutexvar_ps(
						 _mm512_sub_epi32(at, _mm512_set1_epi32(w->base)),
						 _mm512_maskz_loadu_ps(w->mask, src + w->base)));
		else
			_mm512_storeu_ps(g + i, _mm512_i32gather_ps(at, src, 4));
	}
	for (; i < n; i++)
		g[i] = src[ax->index[i]];
}

static void resize_gather_f32_any(const ResizeAxis *ax, const float *restrict src,
				  float *restrict g)
{
	if (__builtin_cpu_supports("avx512f"))
		resize_gather_f32_512(ax, src, g);
	else
		resize_gather_f32(ax, src, g);
}
#else
#define resize_gather_f32_any resize_gather_f32
#endif

/* acc[o] = v[o] * w (first) or acc[o] + v[o] * w: one term of a sum over
 * taps, in the dtype. */
#define DEFINE_RESIZE_TERM(NAME, T)                                                            \
	RESIZE_INLINE void NAME(T *restrict acc, const T *restrict v, const float *restrict w, \
				float w1, bool first, int64_t n)                               \
	{                                                                                      \
		if (first && w)                                                                \
			for (int64_t o = 0; o < n; o++)                                        \
				acc[o] = v[o] * (T)w[o];                                       \
		else if (w)                                                                    \
			for (int64_t o = 0; o < n; o++)                                        \
				acc[o] += v[o] * (T)w[o];                                      \
		else if (first)                                                                \
			for (int64_t o = 0; o < n; o++)                                        \
				acc[o] = v[o] * (T)w1;                                         \
		else                                                                           \
			for (int64_t o = 0; o < n; o++)                                        \
				acc[o] += v[o] * (T)w1;                                        \
	}
DEFINE_RESIZE_TERM(resize_term_f32, float)
DEFINE_RESIZE_TERM(resize_term_f64, double)

/* One channel-first output row from its pairs (depth tap, height tap),
 * the input row of pair p gathered in g[p]: topi's nested interpolation,
 * in the dtype: each pair's width taps sum x * wx (from the first
 * product, as topi's _lerp and _cubic_kernel do), each depth tap's height
 * taps sum those times wy, the depth taps those times wz (a dimension the
 * operator lacks has one tap of weight 1, which changes nothing). Linear
 * resampling of a plane (two pairs, two width taps) computes in
 * registers; others in the rows tx, ty and acc. */
#define DEFINE_RESIZE_ROW(NAME, T, TERM)                                                           \
	CPU_CLONES static void NAME(const ResizeAxis *ax, int ny, int nz, const T *const *g,       \
				    const float *wy, const float *wz, T *restrict tmp,             \
				    T *restrict y, double extrapolation)                           \
	{                                                                                          \
		int64_t ow = ax->len;                                                              \
		const float *restrict wx = ax->weight;                                             \
		T *restrict tx = tmp, *restrict ty = tmp + ow, *restrict acc = tmp + 2 * ow;       \
		if (nz == 1 && ny == 2 && ax->n == 2) {                                            \
			const T *restrict g0 = g[0], *restrict g1 = g[1];                          \
			T y0 = (T)wy[0], y1 = (T)wy[1], z0 = (T)wz[0];                             \
			T *restrict dst = ax->any_outside ? acc : y;                               \
			for (int64_t o = 0; o < ow; o++) {                                         \
				T a = (T)wx[o], b = (T)wx[ow + o];                                 \
				T top = g0[o] * a + g0[ow + o] * b;                                \
				T bottom = g1[o] * a + g1[ow + o] * b;                             \
				dst[o] = (top * y0 + bottom * y1) * z0;                            \
			}                                                                          \
			if (!ax->any_outside)                                                      \
				return;                                                            \
		} else {                                                                           \
			for (int a = 0; a < nz; a++) {                                             \
				for (int e = 0; e < ny; e++) {                                     \
					const T *gp = g[a * ny + e];                               \
					for (int f = 0; f < ax->n; f++)                            \
						TERM(tx, gp + f * ow, wx + f * ow, 0, f == 0, ow); \
					TERM(ty, tx, NULL, wy[e], e == 0, ow);                     \
				}                                                                  \
				TERM(acc, ty, NULL, wz[a], a == 0, ow);                            \
			}                                                                          \
		}                                                                                  \
		if (ax->any_outside)                                                               \
			for (int64_t o = 0; o < ow; o++)                                           \
				y[o] = ax->outside[o] ? (T)extrapolation : acc[o];                 \
		else                                                                               \
			for (int64_t o = 0; o < ow; o++)                                           \
				y[o] = acc[o];                                                     \
	}
DEFINE_RESIZE_ROW(resize_row_f32, float, resize_term_f32)
DEFINE_RESIZE_ROW(resize_row_f64, double, resize_term_f64)

/* The most pairs of an output row (cubic in 3-D: 4 x 4), and the gathered
 * input rows a thread keeps: twice that, so that the rows an output row
 * needs are never evicted by each other. */
enum { RESIZE_PAIRS = 16, RESIZE_SLOTS = 2 * RESIZE_PAIRS };

/* Over output rows [begin, end) of n * c * od * oh, channel-first. The
 * input rows gathered at the width taps are kept in slots tagged by plane
 * and row (the least recently used one goes first), so that the output
 * rows sharing an input row (two to four upsampling by 2) gather it once. */
#define DEFINE_RESIZE_ROWS(NAME, T, GATHER, ROW)                                                \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                \
	{                                                                                       \
		const ResizeRowsJob *job = vjob;                                                \
		const KernelResize *r = &job->kc->p.resize;                                     \
		const ResizeAxis *az = &job->axis[0], *ay = &job->axis[1], *ax = &job->axis[2]; \
		int64_t in_size = r->in[0] * r->in[1] * r->in[2], span = ax->n * ax->len;       \
		int64_t od = r->out[0], oh = r->out[1], ow = r->out[2];                         \
		int pairs = az->n * ay->n, slots = 2 * pairs;                                   \
		int64_t tag[RESIZE_SLOTS], stamp[RESIZE_SLOTS];                                 \
		const T *g[RESIZE_PAIRS];                                                       \
		float wy[4], wz[4];                                                             \
		T *tmp = xmalloc((size_t)(3 * ow) * sizeof(T));                                 \
		T *data = xmalloc((size_t)(slots * span) * sizeof(T));                          \
		for (int s = 0; s < slots; s++)                                                 \
			tag[s] = stamp[s] = -1;                                                 \
		int64_t plane = begin / (od * oh), oz = begin / oh % od, oy = begin % oh - 1;   \
		for (int64_t row = begin; row < end; row++) {                                   \
			T *y = (T *)job->kc->out[0].data + row * ow;                            \
			if (++oy == oh) { /* (plane, oz, oy) of row, without a division */      \
				oy = 0;                                                         \
				if (++oz == od) {                                               \
					oz = 0;                                                 \
					plane++;                                                \
				}                                                               \
			}                                                                       \
			if (az->outside[oz] || ay->outside[oy]) {                               \
				for (int64_t o = 0; o < ow; o++)                                \
					y[o] = (T)r->extrapolation;                             \
				continue;                                                       \
			}                                                                       \
			for (int a = 0; a < az->n; a++) {                                       \
				wz[a] = az->weight[a * od + oz];                                \
				for (int e = 0; e < ay->n; e++) {                               \
					int p = a * ay->n + e, slot = 0;                        \
					int64_t in_row = az->index[a * od + oz] * r->in[1] +    \
							 ay->index[e * oh + oy];                \
					int64_t key = plane * r->in[0] * r->in[1] + in_row;     \
					for (int s = 1; s < slots && tag[slot] != key; s++)     \
						if (tag[s] == key || stamp[s] < stamp[slot])    \
							slot = s;                               \
					if (tag[slot] != key) {                                 \
						GATHER(ax,                                      \
						       (const T *)job->kc->in[0].data +         \
							       plane * in_size +                \
							       in_row * r->in[2],               \
						       data + slot * span);                     \
						tag[slot] = key;                                \
					}                                                       \
					stamp[slot] = row;                                      \
					g[p] = data + slot * span;                              \
					wy[e] = ay->weight[e * oh + oy];                        \
				}                                                               \
			}                                                                       \
			ROW(ax, ay->n, az->n, g, wy, wz, tmp, y, r->extrapolation);             \
		}                                                                               \
		free(tmp);                                                                      \
		free(data);                                                                     \
	}
DEFINE_RESIZE_ROWS(resize_rows_f32, float, resize_gather_f32_any, resize_row_f32)
DEFINE_RESIZE_ROWS(resize_rows_f64, double, resize_gather_f64, resize_row_f64)

/* One channel-last output position's c channels: the same sums as a
 * channel-first row's, in the same order, over runs of channels (tmp:
 * 3 * c). */
#define DEFINE_RESIZE_PIXEL(NAME, T, TERM)                                                         \
	CPU_CLONES static void NAME(const ResizeAxis *ax3, const int64_t *pos,                     \
				    const T *restrict x, const int64_t *in, int64_t c,             \
				    T *restrict tmp, T *restrict y, double extrapolation)          \
	{                                                                                          \
		const ResizeAxis *az = &ax3[0], *ay = &ax3[1], *ax = &ax3[2];                      \
		int64_t oz = pos[0], oy = pos[1], ox = pos[2];                                     \
		T *restrict tx = tmp, *restrict ty = tmp + c, *restrict acc = tmp + 2 * c;         \
		if (az->outside[oz] || ay->outside[oy] || ax->outside[ox]) {                       \
			for (int64_t ch = 0; ch < c; ch++)                                         \
				y[ch] = (T)extrapolation;                                          \
			return;                                                                    \
		}                                                                                  \
		for (int a = 0; a < az->n; a++) {                                                  \
			for (int e = 0; e < ay->n; e++) {                                          \
				int64_t rowi = az->index[a * az->len + oz] * in[1] +               \
					       ay->index[e * ay->len + oy];                        \
				for (int f = 0; f < ax->n; f++)                                    \
					TERM(tx,                                                   \
					     x + (rowi * in[2] + ax->index[f * ax->len + ox]) * c, \
					     NULL, ax->weight[f * ax->len + ox], f == 0, c);       \
				TERM(ty, tx, NULL, ay->weight[e * ay->len + oy], e == 0, c);       \
			}                                                                          \
			TERM(acc, ty, NULL, az->weight[a * az->len + oz], a == 0, c);              \
		}                                                                                  \
		for (int64_t ch = 0; ch < c; ch++)                                                 \
			y[ch] = acc[ch];                                                           \
	}
DEFINE_RESIZE_PIXEL(resize_pixel_f32, float, resize_term_f32)
DEFINE_RESIZE_PIXEL(resize_pixel_f64, double, resize_term_f64)

/* Over output positions [begin, end) of n * od * oh * ow, channel-last. */
#define DEFINE_RESIZE_PIXELS(NAME, T, PIXEL)                                                       \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const ResizeRowsJob *job = vjob;                                                   \
		const KernelResize *r = &job->kc->p.resize;                                        \
		int64_t in_size = r->in[0] * r->in[1] * r->in[2];                                  \
		int64_t out_size = r->out[0] * r->out[1] * r->out[2];                              \
		T *tmp = xmalloc((size_t)(3 * r->c + 1) * sizeof(T));                              \
		for (int64_t i = begin; i < end; i++) {                                            \
			int64_t b = i / out_size, o = i % out_size;                                \
			int64_t pos[3] = {o / (r->out[1] * r->out[2]), o / r->out[2] % r->out[1],  \
					  o % r->out[2]};                                          \
			PIXEL(job->axis, pos, (const T *)job->kc->in[0].data + b * r->c * in_size, \
			      r->in, r->c, tmp, (T *)job->kc->out[0].data + i * r->c,              \
			      r->extrapolation);                                                   \
		}                                                                                  \
		free(tmp);                                                                         \
	}
DEFINE_RESIZE_PIXELS(resize_pixels_f32, float, resize_pixel_f32)
DEFINE_RESIZE_PIXELS(resize_pixels_f64, double, resize_pixel_f64)

static bool resize_kernel(const KernelCall *kc, char **err)
{
	const KernelResize *r = &kc->p.resize;
	ResizeRowsJob job = {kc, {{0}}};
	int64_t taps, rows, per_row;
	bool ok;
	for (int d = 0; d < 3; d++)
		if (r->in[d] > INT32_MAX)
			return cpu_too_large(kc, err);
	for (int d = 0; d < 3; d++)
		resize_axis_init(&job.axis[d], r, d);
	taps = (int64_t)job.axis[0].n * job.axis[1].n * job.axis[2].n;
	if (r->channels_last) {
		rows = r->n * r->out[0] * r->out[1] * r->out[2];
		per_row = r->c * taps;
		ok = cpu_run_float(kc, rows, 1 + GRAIN_ROWS / (per_row + 1), resize_pixels_f32,
				   resize_pixels_f64, &job, err);
	} else {
		rows = r->n * r->c * r->out[0] * r->out[1];
		per_row = r->out[2] * taps;
		ok = cpu_run_float(kc, rows, 1 + GRAIN_ROWS / (per_row + 1), resize_rows_f32,
				   resize_rows_f64, &job, err);
	}
	for (int d = 0; d < 3; d++)
		resize_axis_free(&job.axis[d]);
	return ok;
}

KERNEL_CPU_VIA(RESIZE1D, resize_kernel)
KERNEL_CPU_VIA(RESIZE2D, resize_kernel)
KERNEL_CPU_VIA(RESIZE3D, resize_kernel)
KERNEL_CPU_VIA(UPSAMPLING, resize_kernel)
KERNEL_CPU_VIA(UPSAMPLING3D, resize_kernel)

/* ---- image.crop_and_resize ------------------------------------------------ */

/* topi's crop_and_resize: resize2d's tf_crop_and_resize per box, the
 * region the box's (y1, x1, y2, x2) (read from the boxes operand), the
 * image the box index's; positions off the image read extrapolation_value,
 * and so does a box index outside the batch. The same nested sums in the
 * dtype as resize_row_f32. */
#define DEFINE_CROP_AND_RESIZE(NAME, T)                                                         \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                \
	{                                                                                       \
		const KernelCall *kc = ((const ResizeJob *)vjob)->kc;                           \
		const KernelTensor *boxes = &kc->in[1], *index = &kc->in[2];                    \
		const KernelResize *base = &kc->p.resize;                                       \
		int64_t in_size = base->in[1] * base->in[2];                                    \
		int64_t out_size = base->out[1] * base->out[2];                                 \
		int64_t in_cs = base->channels_last ? 1 : in_size,                              \
			in_ps = base->channels_last ? base->c : 1;                              \
		int64_t out_cs = base->channels_last ? 1 : out_size,                            \
			out_ps = base->channels_last ? base->c : 1;                             \
		for (int64_t i = begin; i < end; i++) {                                         \
			int64_t b = i / out_size, o = i % out_size;                             \
			int64_t image = dtype_load_int(index->data, index->dtype, b);           \
			KernelResize r = *base;                                                 \
			ResizeTaps ty, tx;                                                      \
			const T *x = (const T *)kc->in[0].data + image * r.c * in_size;         \
			T *y = (T *)kc->out[0].data + b * r.c * out_size + o * out_ps;          \
			bool off = image < 0 || image >= r.n;                                   \
			r.roi_start[1] =                                                        \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4);     \
			r.roi_start[2] =                                                        \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4 + 1); \
			r.roi_end[1] =                                                          \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4 + 2); \
			r.roi_end[2] =                                                          \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4 + 3); \
			resize_taps(&r, 1, o / r.out[2], &ty);                                  \
			resize_taps(&r, 2, o % r.out[2], &tx);                                  \
			off = off || ty.outside || tx.outside;                                  \
			for (int64_t c = 0; c < r.c; c++) {                                     \
				T v = (T)r.extrapolation;                                       \
				for (int e = 0; !off && e < ty.n; e++) {                        \
					T t = 0;                                                \
					for (int f = 0; f < tx.n; f++) {                        \
						T p = x[c * in_cs +                             \
							(ty.index[e] * r.in[2] + tx.index[f]) * \
								in_ps] *                        \
						      (T)tx.weight[f];                          \
						t = f ? t + p : p;                              \
					}                                                       \
					v = e ? v + t * (T)ty.weight[e] : t * (T)ty.weight[e];  \
				}                                                               \
				y[c * out_cs] = v;                                              \
			}                                                                       \
		}                                                                               \
	}
DEFINE_CROP_AND_RESIZE(crop_and_resize_f32, float)
DEFINE_CROP_AND_RESIZE(crop_and_resize_f64, double)

bool kernel_cpu_CROP_AND_RESIZE(const KernelCall *kc, char **err)
{
	const KernelResize *r = &kc->p.resize;
	ResizeJob job = {kc};
	int64_t boxes = kc->out[0].shape[0];
	return cpu_run_float(kc, boxes * r->out[1] * r->out[2], 1 + GRAIN_ROWS / (r->c * 4 + 1),
			     crop_and_resize_f32, crop_and_resize_f64, &job, err);
}
