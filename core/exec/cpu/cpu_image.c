/*
 * cpu_image.c - the CPU kernels of the resamplings: image.resize1d/2d/3d,
 * nn.upsampling and nn.upsampling3d, which TVM lowers to the same topi
 * resize and so share one kernel here, and image.crop_and_resize, topi's
 * 2-D resize per box.
 *
 * The taps of every output position are computed once per call and per
 * spatial dimension (kernel_resize.h, the arithmetic the CUDA kernel
 * shares): a ResizeAxis per dimension. Channel-first data then goes by
 * output rows: each row adds, for each depth and height tap, each width
 * tap's weighted input run into a row of doubles, a loop the compiler
 * vectorises (CPU_CLONES); channel-last data goes by output positions,
 * every tap adding to a run of channels. Either way every output sums
 * the same products in the same order as one position's loop over its
 * taps (depth, height, width) would: ((wz * wy) * wx) * x in double,
 * starting at 0, as the loop per output position before it did (the
 * layouts agree bit for bit). float32 and float64. image.crop_and_resize
 * keeps that loop: its taps change with every box.
 */
#include "kernels_cpu.h"

#include <stdint.h>
#include <stdlib.h>

#include "kernel_resize.h"

typedef struct ResizeJob {
	const KernelCall *kc;
} ResizeJob;

/* The taps of the len output positions of one dimension: tap f of
 * position o reads input index[f * len + o] with weight[f * len + o]
 * (topi's float weight, widened); outside[o]: tf_crop_and_resize's
 * coordinate is off the image (any_outside: for some o). The indices are
 * 32-bit, which lets the compiler gather with them. */
typedef struct ResizeAxis {
	int n; /* taps per position: 1, 2 or 4 */
	int64_t len;
	int32_t *index;
	double *weight;
	bool *outside, any_outside;
} ResizeAxis;

static void resize_axis_init(ResizeAxis *a, const KernelResize *r, int dim)
{
	a->len = r->out[dim];
	a->n = 1;
	a->any_outside = false;
	a->index = xmalloc((size_t)(4 * a->len + 1) * sizeof(int32_t));
	a->weight = xmalloc((size_t)(4 * a->len + 1) * sizeof(double));
	a->outside = xmalloc((size_t)(a->len + 1) * sizeof(bool));
	for (int64_t o = 0; o < a->len; o++) {
		ResizeTaps t;
		resize_taps(r, dim, o, &t);
		a->n = t.n; /* the same for every position of a dimension */
		a->outside[o] = t.outside;
		a->any_outside = a->any_outside || t.outside;
		for (int f = 0; f < t.n; f++) {
			a->index[f * a->len + o] = (int32_t)t.index[f]; /* < r->in[dim] */
			a->weight[f * a->len + o] = (double)t.weight[f];
		}
	}
}

static void resize_axis_free(ResizeAxis *a)
{
	free(a->index);
	free(a->weight);
	free(a->outside);
}

typedef struct ResizeRowsJob {
	const KernelCall *kc;
	ResizeAxis axis[3]; /* depth, height, width */
} ResizeRowsJob;

/* Input row src gathered at the width taps: g[f * ow + o] = src[index of
 * tap f of position o], widened to double. */
#define DEFINE_RESIZE_GATHER(NAME, T)                                            \
	CPU_CLONES static void NAME(const ResizeAxis *ax, const T *restrict src, \
				    double *restrict g)                          \
	{                                                                        \
		for (int64_t i = 0; i < ax->n * ax->len; i++)                    \
			g[i] = (double)src[ax->index[i]];                        \
	}
DEFINE_RESIZE_GATHER(resize_gather_f32, float)
DEFINE_RESIZE_GATHER(resize_gather_f64, double)

/* One channel-first output row from its pairs (depth tap, height tap),
 * the input row of pair p gathered in g[p] and its weight wz * wy in
 * wzy[p]: each output sums ((wz * wy) * wx) * x over the pairs in order
 * and their width taps, from 0. Linear resampling of a plane (two pairs,
 * two width taps) sums in registers; others in the row acc. */
#define DEFINE_RESIZE_ROW(NAME, T)                                                           \
	CPU_CLONES static void NAME(const ResizeAxis *ax, int pairs, const double *const *g, \
				    const double *wzy, double *restrict acc, T *restrict y,  \
				    double extrapolation)                                    \
	{                                                                                    \
		int64_t ow = ax->len;                                                        \
		const double *restrict wx = ax->weight;                                      \
		if (pairs == 2 && ax->n == 2) {                                              \
			const double *restrict g0 = g[0], *restrict g1 = g[1];               \
			double w0 = wzy[0], w1 = wzy[1];                                     \
			for (int64_t o = 0; o < ow; o++) {                                   \
				double v = 0;                                                \
				v += w0 * wx[o] * g0[o];                                     \
				v += w0 * wx[ow + o] * g0[ow + o];                           \
				v += w1 * wx[o] * g1[o];                                     \
				v += w1 * wx[ow + o] * g1[ow + o];                           \
				acc[o] = v;                                                  \
			}                                                                    \
		} else {                                                                     \
			for (int64_t o = 0; o < ow; o++)                                     \
				acc[o] = 0;                                                  \
			for (int p = 0; p < pairs; p++)                                      \
				for (int f = 0; f < ax->n; f++) {                            \
					const double *restrict gf = g[p] + f * ow;           \
					const double *restrict wf = wx + f * ow;             \
					double w = wzy[p];                                   \
					for (int64_t o = 0; o < ow; o++)                     \
						acc[o] += w * wf[o] * gf[o];                 \
				}                                                            \
		}                                                                            \
		if (ax->any_outside)                                                         \
			for (int64_t o = 0; o < ow; o++)                                     \
				y[o] = (T)(ax->outside[o] ? extrapolation : acc[o]);         \
		else                                                                         \
			for (int64_t o = 0; o < ow; o++)                                     \
				y[o] = (T)acc[o];                                            \
	}
DEFINE_RESIZE_ROW(resize_row_f32, float)
DEFINE_RESIZE_ROW(resize_row_f64, double)

/* The most pairs of an output row (cubic in 3-D: 4 x 4), and the gathered
 * input rows a thread keeps: twice that, so that the rows an output row
 * needs are never evicted by each other. */
enum { RESIZE_PAIRS = 16, RESIZE_SLOTS = 2 * RESIZE_PAIRS };

/* Over output rows [begin, end) of n * c * od * oh, channel-first. The
 * input rows gathered at the width taps are kept in slots tagged by plane
 * and row (the least recently used one goes first), so that the output
 * rows sharing an input row (two to four upsampling by 2) gather it once. */
#define DEFINE_RESIZE_ROWS(NAME, T, GATHER, ROW)                                                   \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const ResizeRowsJob *job = vjob;                                                   \
		const KernelResize *r = &job->kc->p.resize;                                        \
		const ResizeAxis *az = &job->axis[0], *ay = &job->axis[1], *ax = &job->axis[2];    \
		int64_t in_size = r->in[0] * r->in[1] * r->in[2], span = ax->n * ax->len;          \
		int64_t od = r->out[0], oh = r->out[1], ow = r->out[2];                            \
		int pairs = az->n * ay->n, slots = 2 * pairs;                                      \
		int64_t tag[RESIZE_SLOTS], stamp[RESIZE_SLOTS];                                    \
		const double *g[RESIZE_PAIRS];                                                     \
		double wzy[RESIZE_PAIRS];                                                          \
		double *acc = xmalloc((size_t)ow * sizeof(double));                                \
		double *data = xmalloc((size_t)(slots * span) * sizeof(double));                   \
		for (int s = 0; s < slots; s++)                                                    \
			tag[s] = stamp[s] = -1;                                                    \
		for (int64_t row = begin; row < end; row++) {                                      \
			int64_t plane = row / (od * oh), oz = row / oh % od, oy = row % oh;        \
			T *y = (T *)job->kc->out[0].data + row * ow;                               \
			if (az->outside[oz] || ay->outside[oy]) {                                  \
				for (int64_t o = 0; o < ow; o++)                                   \
					y[o] = (T)r->extrapolation;                                \
				continue;                                                          \
			}                                                                          \
			for (int a = 0; a < az->n; a++)                                            \
				for (int e = 0; e < ay->n; e++) {                                  \
					int p = a * ay->n + e, slot = 0;                           \
					int64_t in_row = az->index[a * od + oz] * r->in[1] +       \
							 ay->index[e * oh + oy];                   \
					int64_t key = plane * r->in[0] * r->in[1] + in_row;        \
					for (int s = 1; s < slots && tag[slot] != key; s++)        \
						if (tag[s] == key || stamp[s] < stamp[slot])       \
							slot = s;                                  \
					if (tag[slot] != key) {                                    \
						GATHER(ax,                                         \
						       (const T *)job->kc->in[0].data +            \
							       plane * in_size +                   \
							       in_row * r->in[2],                  \
						       data + slot * span);                        \
						tag[slot] = key;                                   \
					}                                                          \
					stamp[slot] = row;                                         \
					g[p] = data + slot * span;                                 \
					wzy[p] =                                                   \
						az->weight[a * od + oz] * ay->weight[e * oh + oy]; \
				}                                                                  \
			ROW(ax, pairs, g, wzy, acc, y, r->extrapolation);                          \
		}                                                                                  \
		free(acc);                                                                         \
		free(data);                                                                        \
	}
DEFINE_RESIZE_ROWS(resize_rows_f32, float, resize_gather_f32, resize_row_f32)
DEFINE_RESIZE_ROWS(resize_rows_f64, double, resize_gather_f64, resize_row_f64)

/* One channel-last output position's c channels: acc[ch] sums the taps'
 * (wz * wy) * wx * x in the same order as a channel-first row. */
#define DEFINE_RESIZE_PIXEL(NAME, T)                                                              \
	CPU_CLONES static void NAME(const ResizeAxis *ax3, const int64_t *pos,                    \
				    const T *restrict x, const int64_t *in, int64_t c,            \
				    double *restrict acc, T *restrict y, double extrapolation)    \
	{                                                                                         \
		const ResizeAxis *az = &ax3[0], *ay = &ax3[1], *ax = &ax3[2];                     \
		int64_t oz = pos[0], oy = pos[1], ox = pos[2];                                    \
		if (az->outside[oz] || ay->outside[oy] || ax->outside[ox]) {                      \
			for (int64_t ch = 0; ch < c; ch++)                                        \
				y[ch] = (T)extrapolation;                                         \
			return;                                                                   \
		}                                                                                 \
		for (int64_t ch = 0; ch < c; ch++)                                                \
			acc[ch] = 0;                                                              \
		for (int a = 0; a < az->n; a++)                                                   \
			for (int e = 0; e < ay->n; e++) {                                         \
				double wzy = az->weight[a * az->len + oz] *                       \
					     ay->weight[e * ay->len + oy];                        \
				int64_t rowi = az->index[a * az->len + oz] * in[1] +              \
					       ay->index[e * ay->len + oy];                       \
				for (int f = 0; f < ax->n; f++) {                                 \
					double w = wzy * ax->weight[f * ax->len + ox];            \
					const T *src =                                            \
						x +                                               \
						(rowi * in[2] + ax->index[f * ax->len + ox]) * c; \
					for (int64_t ch = 0; ch < c; ch++)                        \
						acc[ch] += w * (double)src[ch];                   \
				}                                                                 \
			}                                                                         \
		for (int64_t ch = 0; ch < c; ch++)                                                \
			y[ch] = (T)acc[ch];                                                       \
	}
DEFINE_RESIZE_PIXEL(resize_pixel_f32, float)
DEFINE_RESIZE_PIXEL(resize_pixel_f64, double)

/* Over output positions [begin, end) of n * od * oh * ow, channel-last. */
#define DEFINE_RESIZE_PIXELS(NAME, T, PIXEL)                                                       \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const ResizeRowsJob *job = vjob;                                                   \
		const KernelResize *r = &job->kc->p.resize;                                        \
		int64_t in_size = r->in[0] * r->in[1] * r->in[2];                                  \
		int64_t out_size = r->out[0] * r->out[1] * r->out[2];                              \
		double *acc = xmalloc((size_t)(r->c + 1) * sizeof(double));                        \
		for (int64_t i = begin; i < end; i++) {                                            \
			int64_t b = i / out_size, o = i % out_size;                                \
			int64_t pos[3] = {o / (r->out[1] * r->out[2]), o / r->out[2] % r->out[1],  \
					  o % r->out[2]};                                          \
			PIXEL(job->axis, pos, (const T *)job->kc->in[0].data + b * r->c * in_size, \
			      r->in, r->c, acc, (T *)job->kc->out[0].data + i * r->c,              \
			      r->extrapolation);                                                   \
		}                                                                                  \
		free(acc);                                                                         \
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
 * and so does a box index outside the batch. */
#define DEFINE_CROP_AND_RESIZE(NAME, T)                                                            \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const KernelCall *kc = ((const ResizeJob *)vjob)->kc;                              \
		const KernelTensor *boxes = &kc->in[1], *index = &kc->in[2];                       \
		const KernelResize *base = &kc->p.resize;                                          \
		int64_t in_size = base->in[1] * base->in[2];                                       \
		int64_t out_size = base->out[1] * base->out[2];                                    \
		int64_t in_cs = base->channels_last ? 1 : in_size,                                 \
			in_ps = base->channels_last ? base->c : 1;                                 \
		int64_t out_cs = base->channels_last ? 1 : out_size,                               \
			out_ps = base->channels_last ? base->c : 1;                                \
		for (int64_t i = begin; i < end; i++) {                                            \
			int64_t b = i / out_size, o = i % out_size;                                \
			int64_t image = dtype_load_int(index->data, index->dtype, b);              \
			KernelResize r = *base;                                                    \
			ResizeTaps ty, tx;                                                         \
			const T *x = (const T *)kc->in[0].data + image * r.c * in_size;            \
			T *y = (T *)kc->out[0].data + b * r.c * out_size + o * out_ps;             \
			bool off = image < 0 || image >= r.n;                                      \
			r.roi_start[1] =                                                           \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4);        \
			r.roi_start[2] =                                                           \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4 + 1);    \
			r.roi_end[1] =                                                             \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4 + 2);    \
			r.roi_end[2] =                                                             \
				(float)dtype_load_double(boxes->data, boxes->dtype, b * 4 + 3);    \
			resize_taps(&r, 1, o / r.out[2], &ty);                                     \
			resize_taps(&r, 2, o % r.out[2], &tx);                                     \
			off = off || ty.outside || tx.outside;                                     \
			for (int64_t c = 0; c < r.c; c++) {                                        \
				double v = 0;                                                      \
				if (off)                                                           \
					v = r.extrapolation;                                       \
				else                                                               \
					for (int e = 0; e < ty.n; e++)                             \
						for (int f = 0; f < tx.n; f++)                     \
							v += (double)ty.weight[e] * tx.weight[f] * \
							     x[c * in_cs +                         \
							       (ty.index[e] * r.in[2] +            \
								tx.index[f]) *                     \
								       in_ps];                     \
				y[c * out_cs] = (T)v;                                              \
			}                                                                          \
		}                                                                                  \
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
