/*
 * cpu_image.c - the CPU kernels of the resamplings: image.resize1d/2d/3d,
 * nn.upsampling and nn.upsampling3d, which TVM lowers to the same topi
 * resize and so share one kernel here, and image.crop_and_resize, topi's
 * 2-D resize per box.
 *
 * Each output position computes its taps per spatial dimension once
 * (kernel_resize.h, the arithmetic the CUDA kernel shares) and applies
 * them to every channel; channel-first and channel-last data differ only
 * in their strides. float32 and float64, summed in double.
 */
#include "kernels_cpu.h"

#include "kernel_resize.h"

typedef struct ResizeJob {
	const KernelCall *kc;
} ResizeJob;

/* Over output positions [begin, end) of n * od * oh * ow. */
#define DEFINE_RESIZE(NAME, T)                                                                     \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const KernelCall *kc = ((const ResizeJob *)vjob)->kc;                              \
		const KernelResize *r = &kc->p.resize;                                             \
		int64_t in_size = r->in[0] * r->in[1] * r->in[2];                                  \
		int64_t out_size = r->out[0] * r->out[1] * r->out[2];                              \
		/* a channel's stride, and a position's */                                         \
		int64_t in_cs = r->channels_last ? 1 : in_size,                                    \
			in_ps = r->channels_last ? r->c : 1;                                       \
		int64_t out_cs = r->channels_last ? 1 : out_size,                                  \
			out_ps = r->channels_last ? r->c : 1;                                      \
		for (int64_t i = begin; i < end; i++) {                                            \
			int64_t b = i / out_size, o = i % out_size;                                \
			ResizeTaps tz, ty, tx;                                                     \
			const T *x = (const T *)kc->in[0].data + b * r->c * in_size;               \
			T *y = (T *)kc->out[0].data + b * r->c * out_size + o * out_ps;            \
			resize_taps(r, 0, o / (r->out[1] * r->out[2]), &tz);                       \
			resize_taps(r, 1, o / r->out[2] % r->out[1], &ty);                         \
			resize_taps(r, 2, o % r->out[2], &tx);                                     \
			for (int64_t c = 0; c < r->c; c++) {                                       \
				const T *xc = x + c * in_cs;                                       \
				double v = 0;                                                      \
				if (tz.outside || ty.outside || tx.outside)                        \
					v = r->extrapolation;                                      \
				else                                                               \
					for (int a = 0; a < tz.n; a++)                             \
						for (int e = 0; e < ty.n; e++)                     \
							for (int f = 0; f < tx.n; f++)             \
								v += (double)tz.weight[a] *        \
								     ty.weight[e] * tx.weight[f] * \
								     xc[((tz.index[a] * r->in[1] + \
									  ty.index[e]) *           \
										 r->in[2] +        \
									 tx.index[f]) *            \
									in_ps];                    \
				y[c * out_cs] = (T)v;                                              \
			}                                                                          \
		}                                                                                  \
	}
DEFINE_RESIZE(resize_f32, float)
DEFINE_RESIZE(resize_f64, double)

static bool resize_kernel(const KernelCall *kc, char **err)
{
	const KernelResize *r = &kc->p.resize;
	ResizeJob job = {kc};
	int64_t taps = r->method == RESIZE_CUBIC ? 64 : r->method == RESIZE_LINEAR ? 8 : 1;
	return cpu_run_float(kc, r->n * r->out[0] * r->out[1] * r->out[2],
			     1 + GRAIN_ROWS / (r->c * taps + 1), resize_f32, resize_f64, &job, err);
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
