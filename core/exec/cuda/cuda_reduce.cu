/*
 * cuda_reduce.cu - the CUDA kernels of the reductions sum, mean and max:
 * one thread per output element walks the reduced positions, floats
 * accumulating in double like the CPU kernels.
 */
#include "kernels_cuda.h"

struct ReducePlan {
	int nkept, nred;
	int64_t kept_shape[CUDA_MAX_NDIM], kept_stride[CUDA_MAX_NDIM];
	int64_t red_shape[CUDA_MAX_NDIM], red_stride[CUDA_MAX_NDIM];
	int64_t red_count;
	int op; /* 0 sum, 1 mean, 2 max */
};

/* One thread per output element walks the reduced positions. */
template <typename T, bool FLOAT>
__global__ void reduce_kernel(const T *in, T *out, int64_t nout, ReducePlan p)
{
	GRID_LOOP(o, nout)
	{
		int64_t base = 0, rest = o;
		double dacc = p.op == 2 ? -INFINITY : 0;
		long long iacc = p.op == 2 ? LLONG_MIN : 0;
		for (int d = p.nkept - 1; d >= 0; d--) {
			base += rest % p.kept_shape[d] * p.kept_stride[d];
			rest /= p.kept_shape[d];
		}
		for (int64_t r = 0; r < p.red_count; r++) {
			int64_t off = base, q = r;
			for (int d = p.nred - 1; d >= 0; d--) {
				off += q % p.red_shape[d] * p.red_stride[d];
				q /= p.red_shape[d];
			}
			if (FLOAT) {
				double v = (double)Elem<T>::load(in[off]);
				if (p.op != 2)
					dacc += v;
				else if (v != v || dacc != dacc)
					dacc = NAN;
				else if (v > dacc)
					dacc = v;
			} else {
				long long v = (long long)Elem<T>::load(in[off]);
				if (p.op == 2)
					iacc = v > iacc ? v : iacc;
				else
					iacc = wrap_add(iacc, v);
			}
		}
		if (p.op == 1) {
			dacc = p.red_count ? dacc / (double)p.red_count : NAN;
			iacc = p.red_count ? iacc / p.red_count : 0;
		}
		if (FLOAT)
			out[o] = from_double<T>(dacc);
		else
			out[o] = Elem<T>::store(iacc);
	}
}

template <typename T, bool FLOAT>
static bool reduce_typed(CudaState *s, const KernelCall *kc, const ReducePlan &p, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	reduce_kernel<T, FLOAT><<<blocks_for(n), THREADS, 0, s->stream>>>(
		(const T *)kc->in[0].data, (T *)kc->out[0].data, n, p);
	return launched(kc, err);
}

static bool reduce_run(CudaState *s, const KernelCall *kc, int op, char **err)
{
	const KernelTensor *in = &kc->in[0];
	int64_t strides[64], st = 1;
	ReducePlan p;
	memset(&p, 0, sizeof p);
	p.red_count = 1;
	p.op = op;
	if (in->ndim > 64) {
		*err = xasprintf("'%s' on cuda supports at most 64 dimensions", kc->name);
		return false;
	}
	for (uint32_t i = in->ndim; i-- > 0;) {
		strides[i] = st;
		st *= in->shape[i];
	}
	for (uint32_t i = 0; i < in->ndim; i++) {
		if (in->shape[i] == 1)
			continue;
		if (kc->axes[i]) {
			if (p.nred == CUDA_MAX_NDIM)
				goto too_many;
			p.red_shape[p.nred] = in->shape[i];
			p.red_stride[p.nred++] = strides[i];
			p.red_count *= in->shape[i];
		} else {
			if (p.nkept == CUDA_MAX_NDIM)
				goto too_many;
			p.kept_shape[p.nkept] = in->shape[i];
			p.kept_stride[p.nkept++] = strides[i];
		}
	}
	switch (in->dtype) {
	case DT_FLOAT32:
		return reduce_typed<float, true>(s, kc, p, err);
	case DT_FLOAT64:
		return reduce_typed<double, true>(s, kc, p, err);
	case DT_FLOAT16:
		return reduce_typed<__half, true>(s, kc, p, err);
	case DT_INT32:
		return reduce_typed<int32_t, false>(s, kc, p, err);
	case DT_INT64:
		return reduce_typed<int64_t, false>(s, kc, p, err);
	case DT_BOOL:
		return reduce_typed<uint8_t, false>(s, kc, p, err);
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
	return unsupported(kc, in->dtype, err);
too_many:
	*err = xasprintf("'%s' on cuda supports at most %d reduced or kept dimensions", kc->name,
			 CUDA_MAX_NDIM);
	return false;
}

bool kernel_cuda_SUM(CudaState *s, const KernelCall *kc, char **err)
{
	return reduce_run(s, kc, 0, err);
}

bool kernel_cuda_MEAN(CudaState *s, const KernelCall *kc, char **err)
{
	return reduce_run(s, kc, 1, err);
}

bool kernel_cuda_MAX(CudaState *s, const KernelCall *kc, char **err)
{
	return reduce_run(s, kc, 2, err);
}
