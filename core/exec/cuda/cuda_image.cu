/*
 * cuda_image.cu - the CUDA kernels of the resamplings: image.resize1d/2d/3d,
 * nn.upsampling and nn.upsampling3d, one kernel as on the CPU, and
 * image.crop_and_resize, with one
 * thread per output element and the taps of kernel_resize.h, the
 * arithmetic the CPU kernel shares.
 */
#include "kernels_cuda.h"

#include "kernel_resize.h"

template <typename T> __global__ void resize_kernel(const T *x, T *y, int64_t n, KernelResize r)
{
	int64_t in_size = r.in[0] * r.in[1] * r.in[2], out_size = r.out[0] * r.out[1] * r.out[2];
	int64_t in_cs = r.channels_last ? 1 : in_size, in_ps = r.channels_last ? r.c : 1;
	GRID_LOOP(i, n)
	{
		/* element i of the output as (image b, channel c, position o) */
		int64_t c = r.channels_last ? i % r.c : i / out_size % r.c;
		int64_t o = r.channels_last ? i / r.c % out_size : i % out_size;
		int64_t b = i / (out_size * r.c);
		ResizeTaps tz, ty, tx;
		const T *xc = x + b * r.c * in_size + c * in_cs;
		double v = 0;
		resize_taps(&r, 0, o / (r.out[1] * r.out[2]), &tz);
		resize_taps(&r, 1, o / r.out[2] % r.out[1], &ty);
		resize_taps(&r, 2, o % r.out[2], &tx);
		if (tz.outside || ty.outside || tx.outside)
			v = r.extrapolation;
		else
			for (int a = 0; a < tz.n; a++)
				for (int e = 0; e < ty.n; e++)
					for (int f = 0; f < tx.n; f++)
						v += (double)tz.weight[a] * ty.weight[e] *
						     tx.weight[f] *
						     (double)xc[((tz.index[a] * r.in[1] +
								  ty.index[e]) *
									 r.in[2] +
								 tx.index[f]) *
								in_ps];
		y[i] = (T)v;
	}
}

static bool resize_run(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		resize_kernel<float><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, n, kc->p.resize);
		return launched(kc, err);
	case DT_FLOAT64:
		resize_kernel<double><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, n, kc->p.resize);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

bool kernel_cuda_RESIZE1D(CudaState *s, const KernelCall *kc, char **err)
{
	return resize_run(s, kc, err);
}

bool kernel_cuda_RESIZE2D(CudaState *s, const KernelCall *kc, char **err)
{
	return resize_run(s, kc, err);
}

bool kernel_cuda_RESIZE3D(CudaState *s, const KernelCall *kc, char **err)
{
	return resize_run(s, kc, err);
}

bool kernel_cuda_UPSAMPLING(CudaState *s, const KernelCall *kc, char **err)
{
	return resize_run(s, kc, err);
}

bool kernel_cuda_UPSAMPLING3D(CudaState *s, const KernelCall *kc, char **err)
{
	return resize_run(s, kc, err);
}

/* ---- image.crop_and_resize (cpu_image.c's arithmetic) ---------------------- */

template <typename T>
__global__ void crop_and_resize_kernel(const T *x, const void *boxes, DType boxes_dtype,
				       const void *index, DType index_dtype, T *y, int64_t n,
				       KernelResize base)
{
	int64_t in_size = base.in[1] * base.in[2], out_size = base.out[1] * base.out[2];
	int64_t in_cs = base.channels_last ? 1 : in_size, in_ps = base.channels_last ? base.c : 1;
	GRID_LOOP(i, n)
	{
		/* element i of the output as (box b, channel c, position o) */
		int64_t c = base.channels_last ? i % base.c : i / out_size % base.c;
		int64_t o = base.channels_last ? i / base.c % out_size : i % out_size;
		int64_t b = i / (out_size * base.c);
		long long image = dtype_load_int(index, index_dtype, b);
		KernelResize r = base;
		ResizeTaps ty, tx;
		double v = 0;
		r.roi_start[1] = (float)dtype_load_double(boxes, boxes_dtype, b * 4);
		r.roi_start[2] = (float)dtype_load_double(boxes, boxes_dtype, b * 4 + 1);
		r.roi_end[1] = (float)dtype_load_double(boxes, boxes_dtype, b * 4 + 2);
		r.roi_end[2] = (float)dtype_load_double(boxes, boxes_dtype, b * 4 + 3);
		resize_taps(&r, 1, o / r.out[2], &ty);
		resize_taps(&r, 2, o % r.out[2], &tx);
		if (image < 0 || image >= r.n || ty.outside || tx.outside) {
			v = r.extrapolation;
		} else {
			const T *xc = x + image * r.c * in_size + c * in_cs;
			for (int e = 0; e < ty.n; e++)
				for (int f = 0; f < tx.n; f++)
					v += (double)ty.weight[e] * tx.weight[f] *
					     (double)xc[(ty.index[e] * r.in[2] + tx.index[f]) *
							in_ps];
		}
		y[i] = (T)v;
	}
}

bool kernel_cuda_CROP_AND_RESIZE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	const KernelTensor *boxes = &kc->in[1], *index = &kc->in[2];
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		crop_and_resize_kernel<float><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, boxes->data, boxes->dtype, index->data,
			index->dtype, (float *)kc->out[0].data, n, kc->p.resize);
		return launched(kc, err);
	case DT_FLOAT64:
		crop_and_resize_kernel<double><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, boxes->data, boxes->dtype, index->data,
			index->dtype, (double *)kc->out[0].data, n, kc->p.resize);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}
