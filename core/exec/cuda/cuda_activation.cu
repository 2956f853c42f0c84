/*
 * cuda_activation.cu - the CUDA kernels of nn.leaky_relu, nn.prelu and
 * nn.dropout at inference (cpu_activation.c computes the same): one thread
 * per element in the float dtypes, as Elem<T> computes them; dropout is a
 * copy and a mask of ones.
 */
#include "kernels_cuda.h"

/* x > 0 ? x : x * alpha, alpha a scalar (inner 0) or alpha[i / inner % len]. */
template <typename T>
__global__ void leaky_kernel(const T *x, const T *alpha, double scalar, T *out, int64_t n,
			     int64_t inner, int64_t len)
{
	typedef typename Elem<T>::C C;
	GRID_LOOP(i, n)
	{
		C v = Elem<T>::load(x[i]);
		C s = alpha ? Elem<T>::load(alpha[i / inner % len]) : (C)scalar;
		out[i] = Elem<T>::store(v > 0 ? v : v * s);
	}
}

template <typename T> static bool leaky_typed(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	bool prelu = kc->op == OP_PRELU;
	if (n == 0)
		return true;
	leaky_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>(
		(const T *)kc->in[0].data, prelu ? (const T *)kc->in[1].data : NULL,
		prelu ? 0 : kc->p.alpha, (T *)kc->out[0].data, n, prelu ? kc->p.axis.inner : 1,
		prelu ? kc->p.axis.len : 1);
	return launched(kc, err);
}

static bool leaky_run(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->op == OP_PRELU && kc->in[1].dtype != kc->in[0].dtype) {
		*err = xasprintf("'nn.prelu' on cuda needs alpha of the data's dtype");
		return false;
	}
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		return leaky_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return leaky_typed<double>(s, kc, err);
	case DT_FLOAT16:
		return leaky_typed<__half>(s, kc, err);
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

bool kernel_cuda_LEAKY_RELU(CudaState *s, const KernelCall *kc, char **err)
{
	return leaky_run(s, kc, err);
}

bool kernel_cuda_PRELU(CudaState *s, const KernelCall *kc, char **err)
{
	return leaky_run(s, kc, err);
}

template <typename T> __global__ void ones_kernel(T *out, int64_t n)
{
	GRID_LOOP(i, n)
	out[i] = from_double<T>(1.0);
}

template <typename T>
static bool mask_typed(CudaState *s, const KernelTensor *m, const KernelCall *kc, char **err)
{
	if (m->count == 0)
		return true;
	ones_kernel<T><<<blocks_for(m->count), THREADS, 0, s->stream>>>((T *)m->data, m->count);
	return launched(kc, err);
}

bool kernel_cuda_DROPOUT(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *x = &kc->in[0];
	if (kc->out[0].data != x->data && x->nbytes &&
	    !cuda_ok(cudaMemcpyAsync(kc->out[0].data, x->data, x->nbytes, cudaMemcpyDeviceToDevice,
				     s->stream),
		     "cudaMemcpyAsync", err))
		return false;
	for (uint32_t o = 1; o < kc->nout; o++) {
		const KernelTensor *m = &kc->out[o];
		bool ok = false;
		switch (m->dtype) {
		case DT_FLOAT32:
			ok = mask_typed<float>(s, m, kc, err);
			break;
		case DT_FLOAT64:
			ok = mask_typed<double>(s, m, kc, err);
			break;
		case DT_FLOAT16:
			ok = mask_typed<__half>(s, m, kc, err);
			break;
		case DT_INT32:
			ok = mask_typed<int32_t>(s, m, kc, err);
			break;
		case DT_INT64:
			ok = mask_typed<int64_t>(s, m, kc, err);
			break;
		case DT_BOOL:
			ok = mask_typed<uint8_t>(s, m, kc, err);
			break;
		case DT_INT8:
		case DT_UINT8:
		case DT_INT16:
		case DT_UINT16:
		case DT_UINT32:
		case DT_UINT64:
		case DT_BFLOAT16:
		case DT_COUNT:
			ok = unsupported(kc, m->dtype, err);
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}
