/*
 * cuda_image.cu - the CUDA kernels of the resamplings: image.resize1d/2d/3d,
 * nn.upsampling and nn.upsampling3d, one kernel as on the CPU, with one
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
