/*
 * cuda_elementwise.cu - the CUDA kernels of the elementwise operators: the
 * binary ops and nn.bias_add, the unary ops and clip, and cast.
 *
 * Binary operators share the CPU kernels' broadcasting plan (dimensions of
 * size 1 dropped, contiguous ones merged; at most 8 after that) with a
 * flat, vectorised path for same-shape float32 operands; float16 computes
 * in float and integers in wrapping 64-bit arithmetic as on the CPU, so
 * results agree.
 */
#include "kernels_cuda.h"

/* ---- binary ------------------------------------------------------------ */

struct AddOp {
	__device__ float operator()(float x, float y) const
	{
		return x + y;
	}
	__device__ double operator()(double x, double y) const
	{
		return x + y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return wrap_add(x, y);
	}
};
struct SubOp {
	__device__ float operator()(float x, float y) const
	{
		return x - y;
	}
	__device__ double operator()(double x, double y) const
	{
		return x - y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return wrap_sub(x, y);
	}
};
struct MulOp {
	__device__ float operator()(float x, float y) const
	{
		return x * y;
	}
	__device__ double operator()(double x, double y) const
	{
		return x * y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return wrap_mul(x, y);
	}
};
struct DivOp {
	__device__ float operator()(float x, float y) const
	{
		return x / y;
	}
	__device__ double operator()(double x, double y) const
	{
		return x / y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return y == 0 ? 0 : y == -1 ? wrap_sub(0, x) : x / y;
	}
};
struct MaxOp {
	__device__ float operator()(float x, float y) const
	{
		return (x > y || x != x) ? x : y;
	}
	__device__ double operator()(double x, double y) const
	{
		return (x > y || x != x) ? x : y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return x > y ? x : y;
	}
};
struct MinOp {
	__device__ float operator()(float x, float y) const
	{
		return (x < y || x != x) ? x : y;
	}
	__device__ double operator()(double x, double y) const
	{
		return (x < y || x != x) ? x : y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return x < y ? x : y;
	}
};

/* The broadcasting plan (kernel_broadcast_plan): strides per merged output
 * dimension for each operand. */
struct Broadcast {
	int ndim;
	int64_t shape[CUDA_MAX_NDIM];
	int64_t sa[CUDA_MAX_NDIM], sb[CUDA_MAX_NDIM];
	bool flat; /* both operands have the output's shape */
};

static bool broadcast_plan(const KernelTensor *out, const int64_t *as, uint32_t an,
			   const int64_t *bs, uint32_t bn, Broadcast *bc)
{
	uint32_t n = out->ndim;
	int64_t *shape = (int64_t *)xmalloc((n + 1) * sizeof(int64_t));
	int64_t *st[2] = {(int64_t *)xmalloc((n + 1) * sizeof(int64_t)),
			  (int64_t *)xmalloc((n + 1) * sizeof(int64_t))};
	const int64_t *shapes[2] = {as, bs};
	uint32_t nds[2] = {an, bn};
	uint32_t k = kernel_broadcast_plan(out->shape, n, shapes, nds, shape, st);
	bool ok = k <= CUDA_MAX_NDIM;
	if (ok) {
		bc->ndim = (int)k;
		for (uint32_t i = 0; i < k; i++) {
			bc->shape[i] = shape[i];
			bc->sa[i] = st[0][i];
			bc->sb[i] = st[1][i];
		}
		bc->flat = k == 1 && st[0][0] == 1 && st[1][0] == 1;
	}
	free(shape);
	free(st[0]);
	free(st[1]);
	return ok;
}

template <typename T, typename Op>
__global__ void binary_flat(const T *a, const T *b, T *out, int64_t n, Op op)
{
	GRID_LOOP(i, n)
	out[i] = Elem<T>::store(op(Elem<T>::load(a[i]), Elem<T>::load(b[i])));
}

template <typename Op>
__global__ void binary_flat_f32x4(const float4 *a, const float4 *b, float4 *out, int64_t n4, Op op)
{
	GRID_LOOP(i, n4)
	{
		float4 x = a[i], y = b[i], r;
		r.x = op(x.x, y.x);
		r.y = op(x.y, y.y);
		r.z = op(x.z, y.z);
		r.w = op(x.w, y.w);
		out[i] = r;
	}
}

template <typename T, typename Op>
__global__ void binary_strided(const T *a, const T *b, T *out, int64_t n, Broadcast bc, Op op)
{
	GRID_LOOP(i, n)
	{
		int64_t rest = i, oa = 0, ob = 0;
		for (int d = bc.ndim - 1; d >= 0; d--) {
			int64_t c = rest % bc.shape[d];
			rest /= bc.shape[d];
			oa += c * bc.sa[d];
			ob += c * bc.sb[d];
		}
		out[i] = Elem<T>::store(op(Elem<T>::load(a[oa]), Elem<T>::load(b[ob])));
	}
}

template <typename T, typename Op>
static bool binary_typed(CudaState *s, const KernelCall *kc, const Broadcast &bc, Op op, char **err)
{
	const T *a = (const T *)kc->in[0].data, *b = (const T *)kc->in[1].data;
	T *out = (T *)kc->out[0].data;
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	if (bc.flat)
		binary_flat<T, Op><<<blocks_for(n), THREADS, 0, s->stream>>>(a, b, out, n, op);
	else
		binary_strided<T, Op>
			<<<blocks_for(n), THREADS, 0, s->stream>>>(a, b, out, n, bc, op);
	return launched(kc, err);
}

template <typename Op>
static bool binary_run(CudaState *s, const KernelCall *kc, const int64_t *bshape, uint32_t bndim,
		       Op op, char **err)
{
	Broadcast bc;
	const KernelTensor *out = &kc->out[0];
	if (!broadcast_plan(out, kc->in[0].shape, kc->in[0].ndim, bshape, bndim, &bc)) {
		*err = xasprintf("'%s' broadcasts over more than %d dimensions", kc->name,
				 CUDA_MAX_NDIM);
		return false;
	}
	switch (out->dtype) {
	case DT_FLOAT32: {
		int64_t n = out->count;
		bool aligned = ((uintptr_t)kc->in[0].data | (uintptr_t)kc->in[1].data |
				(uintptr_t)out->data) %
				       16 ==
			       0;
		if (bc.flat && n % 4 == 0 && aligned && n > 0) {
			binary_flat_f32x4<Op><<<blocks_for(n / 4), THREADS, 0, s->stream>>>(
				(const float4 *)kc->in[0].data, (const float4 *)kc->in[1].data,
				(float4 *)out->data, n / 4, op);
			return launched(kc, err);
		}
		return binary_typed<float>(s, kc, bc, op, err);
	}
	case DT_FLOAT64:
		return binary_typed<double>(s, kc, bc, op, err);
	case DT_FLOAT16:
		return binary_typed<__half>(s, kc, bc, op, err);
	case DT_INT32:
		return binary_typed<int32_t>(s, kc, bc, op, err);
	case DT_INT64:
		return binary_typed<int64_t>(s, kc, bc, op, err);
	case DT_BOOL:
		return binary_typed<uint8_t>(s, kc, bc, op, err);
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
	return unsupported(kc, out->dtype, err);
}

bool kernel_cuda_ADD(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, AddOp(), err);
}

bool kernel_cuda_SUBTRACT(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, SubOp(), err);
}

bool kernel_cuda_MULTIPLY(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, MulOp(), err);
}

bool kernel_cuda_DIVIDE(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, DivOp(), err);
}

bool kernel_cuda_MAXIMUM(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, MaxOp(), err);
}

bool kernel_cuda_MINIMUM(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, MinOp(), err);
}

/* the bias seen as [len, 1, ..., 1] against the axis */
bool kernel_cuda_BIAS_ADD(CudaState *s, const KernelCall *kc, char **err)
{
	uint32_t nd = kc->in[0].ndim - (uint32_t)kc->p.axis.axis;
	int64_t *shape = (int64_t *)xmalloc(nd * sizeof(int64_t));
	bool ok;
	shape[0] = kc->p.axis.len;
	for (uint32_t i = 1; i < nd; i++)
		shape[i] = 1;
	ok = binary_run(s, kc, shape, nd, AddOp(), err);
	free(shape);
	return ok;
}

/* ---- unary ------------------------------------------------------------- */

/* unary: X(float expression, double expression) over x */
struct NegOp {
	__device__ float operator()(float x) const
	{
		return -x;
	}
	__device__ double operator()(double x) const
	{
		return -x;
	}
	__device__ long long operator()(long long x) const
	{
		return wrap_sub(0, x);
	}
};
struct ExpOp {
	__device__ float operator()(float x) const
	{
		return expf(x);
	}
	__device__ double operator()(double x) const
	{
		return exp(x);
	}
};
struct LogOp {
	__device__ float operator()(float x) const
	{
		return logf(x);
	}
	__device__ double operator()(double x) const
	{
		return log(x);
	}
};
struct SqrtOp {
	__device__ float operator()(float x) const
	{
		return sqrtf(x);
	}
	__device__ double operator()(double x) const
	{
		return sqrt(x);
	}
};
struct TanhOp {
	__device__ float operator()(float x) const
	{
		return tanhf(x);
	}
	__device__ double operator()(double x) const
	{
		return tanh(x);
	}
};
struct SigmoidOp {
	__device__ float operator()(float x) const
	{
		return 1.0f / (1.0f + expf(-x));
	}
	__device__ double operator()(double x) const
	{
		return 1.0 / (1.0 + exp(-x));
	}
};
struct ReluOp {
	__device__ float operator()(float x) const
	{
		return x > 0 ? x : (x != x ? x : 0.0f);
	}
	__device__ double operator()(double x) const
	{
		return x > 0 ? x : (x != x ? x : 0.0);
	}
	__device__ long long operator()(long long x) const
	{
		return x > 0 ? x : 0;
	}
};
struct ClipOp {
	double lo, hi;
	__device__ float operator()(float x) const
	{
		return x < lo ? (float)lo : x > hi ? (float)hi : x;
	}
	__device__ double operator()(double x) const
	{
		return x < lo ? lo : x > hi ? hi : x;
	}
	__device__ long long operator()(long long x) const
	{
		if ((double)x < lo)
			return sat_ll(ceil(lo));
		if ((double)x > hi)
			return sat_ll(floor(hi));
		return x;
	}
};

template <typename T, typename Op>
__global__ void unary_kernel(const T *in, T *out, int64_t n, Op op)
{
	GRID_LOOP(i, n)
	out[i] = Elem<T>::store(op(Elem<T>::load(in[i])));
}

template <typename T, typename Op>
static bool unary_typed(CudaState *s, const KernelCall *kc, Op op, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	unary_kernel<T, Op><<<blocks_for(n), THREADS, 0, s->stream>>>((const T *)kc->in[0].data,
								      (T *)kc->out[0].data, n, op);
	return launched(kc, err);
}

/* Float-only operators. */
template <typename Op>
static bool unary_float(CudaState *s, const KernelCall *kc, Op op, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return unary_typed<float>(s, kc, op, err);
	case DT_FLOAT64:
		return unary_typed<double>(s, kc, op, err);
	case DT_FLOAT16:
		return unary_typed<__half>(s, kc, op, err);
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
	return unsupported(kc, kc->out[0].dtype, err);
}

/* Operators defined on every dtype. */
template <typename Op> static bool unary_any(CudaState *s, const KernelCall *kc, Op op, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return unary_typed<float>(s, kc, op, err);
	case DT_FLOAT64:
		return unary_typed<double>(s, kc, op, err);
	case DT_FLOAT16:
		return unary_typed<__half>(s, kc, op, err);
	case DT_INT32:
		return unary_typed<int32_t>(s, kc, op, err);
	case DT_INT64:
		return unary_typed<int64_t>(s, kc, op, err);
	case DT_BOOL:
		return unary_typed<uint8_t>(s, kc, op, err);
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

bool kernel_cuda_NEGATIVE(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_any(s, kc, NegOp(), err);
}

bool kernel_cuda_EXP(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, ExpOp(), err);
}

bool kernel_cuda_LOG(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, LogOp(), err);
}

bool kernel_cuda_SQRT(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, SqrtOp(), err);
}

bool kernel_cuda_TANH(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, TanhOp(), err);
}

bool kernel_cuda_SIGMOID(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, SigmoidOp(), err);
}

bool kernel_cuda_RELU(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_any(s, kc, ReluOp(), err);
}

bool kernel_cuda_CLIP(CudaState *s, const KernelCall *kc, char **err)
{
	ClipOp op;
	op.lo = kc->p.clip.lo;
	op.hi = kc->p.clip.hi;
	return unary_any(s, kc, op, err);
}

/* ---- cast -------------------------------------------------------------- */

/* cast: integers (and bool) travel through 64-bit integers, anything
 * involving a float through double; float to integer saturates. */
template <typename T> __device__ static double to_double(T v)
{
	return (double)Elem<T>::load(v);
}

template <typename Tin, typename Tout>
__global__ void cast_kernel(const Tin *in, Tout *out, int64_t n, bool int_path)
{
	GRID_LOOP(i, n)
	{
		if (int_path)
			out[i] = Elem<Tout>::store((long long)Elem<Tin>::load(in[i]));
		else
			out[i] = from_double<Tout>(to_double<Tin>(in[i]));
	}
}

template <typename Tin, typename Tout>
static bool cast_typed(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	bool int_path = !dtype_is_float(kc->in[0].dtype) && !dtype_is_float(kc->out[0].dtype);
	if (n == 0)
		return true;
	cast_kernel<Tin, Tout><<<blocks_for(n), THREADS, 0, s->stream>>>(
		(const Tin *)kc->in[0].data, (Tout *)kc->out[0].data, n, int_path);
	return launched(kc, err);
}

template <typename Tin> static bool cast_from(CudaState *s, const KernelCall *kc, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return cast_typed<Tin, float>(s, kc, err);
	case DT_FLOAT64:
		return cast_typed<Tin, double>(s, kc, err);
	case DT_FLOAT16:
		return cast_typed<Tin, __half>(s, kc, err);
	case DT_INT32:
		return cast_typed<Tin, int32_t>(s, kc, err);
	case DT_INT64:
		return cast_typed<Tin, int64_t>(s, kc, err);
	case DT_BOOL:
		return cast_typed<Tin, uint8_t>(s, kc, err);
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

bool kernel_cuda_CAST(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->in[0].dtype == kc->out[0].dtype)
		return cuda_ok(cudaMemcpyAsync(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes,
					       cudaMemcpyDeviceToDevice, s->stream),
			       "cudaMemcpyAsync", err);
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		return cast_from<float>(s, kc, err);
	case DT_FLOAT64:
		return cast_from<double>(s, kc, err);
	case DT_FLOAT16:
		return cast_from<__half>(s, kc, err);
	case DT_INT32:
		return cast_from<int32_t>(s, kc, err);
	case DT_INT64:
		return cast_from<int64_t>(s, kc, err);
	case DT_BOOL:
		return cast_from<uint8_t>(s, kc, err);
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
