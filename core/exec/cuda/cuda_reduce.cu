/*
 * cuda_reduce.cu - the CUDA kernels of the reductions: sum, mean, prod,
 * max, min, all, any, argmax, argmin and variance.
 *
 * One block per output element (a grid-stride loop over them when there
 * are more than the grid holds): the block's threads stride over the
 * reduced positions, each accumulating its share, and the block combines
 * the shares in shared memory. The geometry is the CPU kernels' (size-1
 * axes dropped, adjacent reduced axes merged when contiguous), so a
 * reduction over the innermost axes reads each row coalesced. Floats
 * accumulate in double and integers in wrapping 64-bit arithmetic; max and
 * min propagate NaN; argmax and argmin give the first extreme's flattened
 * position (the last with select_last_index), as on the CPU.
 */
#include "kernels_cuda.h"

struct ReducePlan {
	int nkept, nred;
	int64_t kept_shape[CUDA_MAX_NDIM], kept_stride[CUDA_MAX_NDIM];
	int64_t kept_mean_stride[CUDA_MAX_NDIM];
	int64_t red_shape[CUDA_MAX_NDIM], red_stride[CUDA_MAX_NDIM];
	int64_t red_count;
	KernelReduce op;
	bool select_last, unbiased;
};

/* One thread's (then the block's) partial result. */
struct Acc {
	double d;
	long long i;
	long long arg; /* argmax/argmin: position of d or i; -1 before any */
};

__device__ static inline bool is_arg(KernelReduce op)
{
	return op == REDUCE_ARGMAX || op == REDUCE_ARGMIN;
}

__device__ static Acc acc_identity(KernelReduce op)
{
	Acc a;
	a.arg = -1;
	a.d = op == REDUCE_PROD || op == REDUCE_ALL ? 1.0
	      : op == REDUCE_MAX                    ? -INFINITY
	      : op == REDUCE_MIN                    ? INFINITY
						    : 0.0;
	a.i = op == REDUCE_PROD || op == REDUCE_ALL ? 1
	      : op == REDUCE_MAX                    ? LLONG_MIN
	      : op == REDUCE_MIN                    ? LLONG_MAX
						    : 0;
	return a;
}

/* Is (v, r) a better argmax/argmin candidate than (best, at)? Positions
 * break ties: the lower one wins, the higher with select_last. */
template <typename V>
__device__ static inline bool arg_better(KernelReduce op, bool last, V v, long long r, V best,
					 long long at)
{
	if (at < 0)
		return true;
	if (v == best)
		return last ? r > at : r < at;
	return op == REDUCE_ARGMAX ? v > best : v < best;
}

/* Folds one element (float path in d, integer path in i). */
template <bool FLOAT>
__device__ static void acc_add(Acc &a, const ReducePlan &p, double dv, long long iv, long long r,
			       double mean)
{
	switch (p.op) {
	case REDUCE_SUM:
	case REDUCE_MEAN:
		if (FLOAT)
			a.d += dv;
		else
			a.i = wrap_add(a.i, iv);
		break;
	case REDUCE_PROD:
		if (FLOAT)
			a.d *= dv;
		else
			a.i = wrap_mul(a.i, iv);
		break;
	case REDUCE_MAX:
		if (FLOAT)
			a.d = a.d != a.d ? a.d : (dv > a.d || dv != dv) ? dv : a.d;
		else
			a.i = iv > a.i ? iv : a.i;
		break;
	case REDUCE_MIN:
		if (FLOAT)
			a.d = a.d != a.d ? a.d : (dv < a.d || dv != dv) ? dv : a.d;
		else
			a.i = iv < a.i ? iv : a.i;
		break;
	case REDUCE_ALL:
		a.i = a.i && (FLOAT ? dv != 0 : iv != 0);
		break;
	case REDUCE_ANY:
		a.i = a.i || (FLOAT ? dv != 0 : iv != 0);
		break;
	case REDUCE_ARGMAX:
	case REDUCE_ARGMIN:
		if (FLOAT ? arg_better(p.op, p.select_last, dv, r, a.d, a.arg)
			  : arg_better(p.op, p.select_last, iv, r, a.i, a.arg)) {
			a.d = dv;
			a.i = iv;
			a.arg = r;
		}
		break;
	case REDUCE_VARIANCE:
		a.d += (dv - mean) * (dv - mean);
		break;
	}
}

/* Combines two partial results. */
template <bool FLOAT> __device__ static void acc_merge(Acc &a, const Acc &b, const ReducePlan &p)
{
	switch (p.op) {
	case REDUCE_ARGMAX:
	case REDUCE_ARGMIN:
		if (b.arg >= 0 && (FLOAT ? arg_better(p.op, p.select_last, b.d, b.arg, a.d, a.arg)
					 : arg_better(p.op, p.select_last, b.i, b.arg, a.i, a.arg)))
			a = b;
		break;
	case REDUCE_ALL:
	case REDUCE_ANY:
		a.i = p.op == REDUCE_ALL ? (a.i && b.i) : (a.i || b.i);
		break;
	case REDUCE_VARIANCE:
		a.d += b.d;
		break;
	case REDUCE_SUM:
	case REDUCE_MEAN:
	case REDUCE_PROD:
	case REDUCE_MAX:
	case REDUCE_MIN:
		/* the element rule applied to b's value */
		acc_add<FLOAT>(a, p, b.d, b.i, 0, 0);
		break;
	}
}

template <typename T, typename TOut, bool FLOAT>
__global__ void reduce_rows(const T *in, const void *mean_data, DType mean_dtype, TOut *out,
			    int64_t nout, ReducePlan p)
{
	__shared__ Acc shared[THREADS];
	for (int64_t o = blockIdx.x; o < nout; o += gridDim.x) {
		int64_t base = 0, mean_off = 0, rest = o;
		double mean = 0;
		Acc a = acc_identity(p.op);
		for (int d = p.nkept - 1; d >= 0; d--) {
			int64_t c = rest % p.kept_shape[d];
			rest /= p.kept_shape[d];
			base += c * p.kept_stride[d];
			mean_off += c * p.kept_mean_stride[d];
		}
		if (p.op == REDUCE_VARIANCE) {
			mean = dtype_load_double(mean_data, mean_dtype, mean_off);
		}
		for (int64_t r = threadIdx.x; r < p.red_count; r += blockDim.x) {
			int64_t off = base, q = r;
			for (int d = p.nred - 1; d >= 0; d--) {
				off += q % p.red_shape[d] * p.red_stride[d];
				q /= p.red_shape[d];
			}
			double dv = FLOAT ? (double)Elem<T>::load(in[off]) : 0.0;
			long long iv = FLOAT ? 0 : (long long)Elem<T>::load(in[off]);
			if (p.op == REDUCE_VARIANCE && !FLOAT)
				dv = (double)iv;
			acc_add<FLOAT>(a, p, dv, iv, r, mean);
		}
		shared[threadIdx.x] = a;
		__syncthreads();
		for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
			if (threadIdx.x < half)
				acc_merge<FLOAT>(shared[threadIdx.x], shared[threadIdx.x + half],
						 p);
			__syncthreads();
		}
		if (threadIdx.x == 0) {
			Acc r = shared[0];
			int64_t n = p.red_count;
			if (is_arg(p.op)) {
				out[o] = Elem<TOut>::store(r.arg < 0 ? 0 : r.arg);
			} else if (p.op == REDUCE_ALL || p.op == REDUCE_ANY) {
				out[o] = Elem<TOut>::store(r.i);
			} else if (p.op == REDUCE_VARIANCE) {
				int64_t div = n - (p.unbiased ? 1 : 0);
				out[o] = from_double<TOut>(div > 0 ? r.d / (double)div : NAN);
			} else if (FLOAT) {
				if (p.op == REDUCE_MEAN)
					r.d = n ? r.d / (double)n : NAN;
				out[o] = from_double<TOut>(r.d);
			} else {
				if (p.op == REDUCE_MEAN)
					r.i = n ? r.i / n : 0;
				out[o] = Elem<TOut>::store(r.i);
			}
		}
		__syncthreads();
	}
}

template <typename T, typename TOut, bool FLOAT>
static bool reduce_launch(CudaState *s, const KernelCall *kc, const ReducePlan &p, char **err)
{
	int64_t n = kc->out[0].count;
	const void *mean = kc->p.reduce.kind == REDUCE_VARIANCE ? kc->in[1].data : NULL;
	DType mean_dtype = kc->p.reduce.kind == REDUCE_VARIANCE ? kc->in[1].dtype : DT_FLOAT32;
	unsigned blocks = n > 65535 ? 65535 : (unsigned)n;
	if (n == 0)
		return true;
	reduce_rows<T, TOut, FLOAT><<<blocks, THREADS, 0, s->stream>>>(
		(const T *)kc->in[0].data, mean, mean_dtype, (TOut *)kc->out[0].data, n, p);
	return launched(kc, err);
}

/* The output is the input's dtype, except argmax/argmin (an integer
 * position) and all/any (bool). */
template <typename T, bool FLOAT>
static bool reduce_typed(CudaState *s, const KernelCall *kc, const ReducePlan &p, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_INT32:
		return reduce_launch<T, int32_t, FLOAT>(s, kc, p, err);
	case DT_INT64:
		return reduce_launch<T, int64_t, FLOAT>(s, kc, p, err);
	case DT_BOOL:
		return reduce_launch<T, uint8_t, FLOAT>(s, kc, p, err);
	case DT_FLOAT32:
		return reduce_launch<T, float, FLOAT>(s, kc, p, err);
	case DT_FLOAT64:
		return reduce_launch<T, double, FLOAT>(s, kc, p, err);
	case DT_FLOAT16:
		return reduce_launch<T, __half, FLOAT>(s, kc, p, err);
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
	return unsupported(kc, kc->out[0].dtype, err);
}

static bool reduce_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	const KernelTensor *mean = kc->p.reduce.kind == REDUCE_VARIANCE ? &kc->in[1] : NULL;
	int64_t strides[64], mean_strides[64], st = 1, mst = 1;
	bool last_reduced = false;
	ReducePlan p;
	memset(&p, 0, sizeof p);
	p.red_count = 1;
	p.op = kc->p.reduce.kind;
	p.select_last = kc->p.reduce.select_last_index;
	p.unbiased = kc->p.reduce.unbiased;
	if (in->ndim > 64) {
		*err = xasprintf("'%s' on cuda supports at most 64 dimensions", kc->name);
		return false;
	}
	for (uint32_t i = in->ndim; i-- > 0;) {
		strides[i] = st;
		st *= in->shape[i];
		mean_strides[i] = mean && mean->shape[i] != 1 ? mst : 0;
		if (mean)
			mst *= mean->shape[i];
	}
	for (uint32_t i = 0; i < in->ndim; i++) {
		if (in->shape[i] == 1)
			continue;
		if (kc->axes[i]) {
			p.red_count *= in->shape[i];
			if (last_reduced && p.red_stride[p.nred - 1] == strides[i] * in->shape[i]) {
				p.red_shape[p.nred - 1] *= in->shape[i];
				p.red_stride[p.nred - 1] = strides[i];
			} else {
				if (p.nred == CUDA_MAX_NDIM)
					goto too_many;
				p.red_shape[p.nred] = in->shape[i];
				p.red_stride[p.nred++] = strides[i];
			}
			last_reduced = true;
		} else {
			if (p.nkept == CUDA_MAX_NDIM)
				goto too_many;
			p.kept_shape[p.nkept] = in->shape[i];
			p.kept_stride[p.nkept] = strides[i];
			p.kept_mean_stride[p.nkept++] = mean_strides[i];
			last_reduced = false;
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

#define REDUCE_ENTRY(ID)                                                      \
	bool kernel_cuda_##ID(CudaState *s, const KernelCall *kc, char **err) \
	{                                                                     \
		return reduce_run(s, kc, err);                                \
	}
REDUCE_ENTRY(SUM)
REDUCE_ENTRY(MEAN)
REDUCE_ENTRY(MAX)
REDUCE_ENTRY(MIN)
REDUCE_ENTRY(PROD)
REDUCE_ENTRY(ALL)
REDUCE_ENTRY(ANY)
REDUCE_ENTRY(ARGMAX)
REDUCE_ENTRY(ARGMIN)
REDUCE_ENTRY(VARIANCE)
/* the axes the target broadcasts along, summed (kernels.c marks them) */
REDUCE_ENTRY(COLLAPSE_SUM_LIKE)
REDUCE_ENTRY(COLLAPSE_SUM_TO)
#undef REDUCE_ENTRY
