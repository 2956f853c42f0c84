/*
 * cuda_elementwise.cu - the CUDA kernels of the elementwise operators: the
 * binary ops (arithmetic, logical, bitwise) and nn.bias_add, comparisons,
 * the unary ops and clip, isnan/isinf/isfinite, and cast.
 *
 * Binary operators share the CPU kernels' broadcasting plan (dimensions of
 * size 1 dropped, contiguous ones merged; at most 8 after that) with a
 * flat, vectorised path for same-shape float32 operands; float16 computes
 * in float and integers in wrapping 64-bit arithmetic as on the CPU, so
 * results agree.
 */
#include "kernel_fastmath.h"
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

/* The arithmetic TVM defines beyond the four operations, with the CPU
 * kernels' integer conventions (wrapping; division and modulo by 0 give 0;
 * shifts by a negative amount or 64 or more shift everything out). */
__device__ static inline long long int_div(long long x, long long y)
{
	return y == 0 ? 0 : y == -1 ? wrap_sub(0, x) : x / y;
}
__device__ static inline long long int_mod(long long x, long long y)
{
	return y == 0 || y == -1 ? 0 : x % y;
}
struct PowOp {
	__device__ float operator()(float x, float y) const
	{
		return powf(x, y);
	}
	__device__ double operator()(double x, double y) const
	{
		return pow(x, y);
	}
	__device__ long long operator()(long long x, long long y) const
	{
		unsigned long long r = 1, b = (unsigned long long)x;
		if (y < 0)
			return x == 1 ? 1 : x == -1 ? ((y & 1) ? -1 : 1) : 0;
		for (; y; y >>= 1) {
			if (y & 1)
				r *= b;
			b *= b;
		}
		return (long long)r;
	}
};
struct TruncModOp { /* mod and trunc_mod */
	__device__ float operator()(float x, float y) const
	{
		return fmodf(x, y);
	}
	__device__ double operator()(double x, double y) const
	{
		return fmod(x, y);
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return int_mod(x, y);
	}
};
struct TruncDivOp {
	__device__ float operator()(float x, float y) const
	{
		return truncf(x / y);
	}
	__device__ double operator()(double x, double y) const
	{
		return trunc(x / y);
	}
	__device__ long long operator()(long long x, long long y) const
	{
		return int_div(x, y);
	}
};
struct FloorDivOp {
	__device__ float operator()(float x, float y) const
	{
		return floorf(x / y);
	}
	__device__ double operator()(double x, double y) const
	{
		return floor(x / y);
	}
	__device__ long long operator()(long long x, long long y) const
	{
		long long q = int_div(x, y);
		return (y != 0 && y != -1 && x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
	}
};
struct FloorModOp {
	__device__ float operator()(float x, float y) const
	{
		return x - floorf(x / y) * y;
	}
	__device__ double operator()(double x, double y) const
	{
		return x - floor(x / y) * y;
	}
	__device__ long long operator()(long long x, long long y) const
	{
		long long r = int_mod(x, y);
		return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
	}
};
/* logical operators (bool operands, as the type relation demands) and
 * bitwise ones: integers and bool only */
#define BITWISE_OP(NAME, EXPR)                                                  \
	struct NAME {                                                           \
		__device__ long long operator()(long long x, long long y) const \
		{                                                               \
			return EXPR;                                            \
		}                                                               \
	};
BITWISE_OP(LogicalAndOp, (x != 0) && (y != 0))
BITWISE_OP(LogicalOrOp, (x != 0) || (y != 0))
BITWISE_OP(LogicalXorOp, (x != 0) != (y != 0))
BITWISE_OP(BitAndOp, x &y)
BITWISE_OP(BitOrOp, x | y)
BITWISE_OP(BitXorOp, x ^ y)
BITWISE_OP(ShlOp, y < 0 || y >= 64 ? 0 : (long long)((unsigned long long)x << y))
BITWISE_OP(ShrOp, y < 0 || y >= 64 ? (x < 0 ? -1 : 0) : (x < 0 ? ~(~x >> y) : x >> y))
#undef BITWISE_OP

/* A binary operator defined on integers and bool only. */
template <typename Op> static bool binary_int(CudaState *s, const KernelCall *kc, Op op, char **err)
{
	Broadcast bc;
	const KernelTensor *out = &kc->out[0];
	if (!broadcast_plan(out, kc->in[0].shape, kc->in[0].ndim, kc->in[1].shape, kc->in[1].ndim,
			    &bc)) {
		*err = xasprintf("'%s' broadcasts over more than %d dimensions", kc->name,
				 CUDA_MAX_NDIM);
		return false;
	}
	switch (out->dtype) {
	case DT_INT32:
		return binary_typed<int32_t>(s, kc, bc, op, err);
	case DT_INT64:
		return binary_typed<int64_t>(s, kc, bc, op, err);
	case DT_BOOL:
		return binary_typed<uint8_t>(s, kc, bc, op, err);
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
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

#define BINARY_ENTRY(ID, RUN, OPTYPE)                                              \
	bool kernel_cuda_##ID(CudaState *s, const KernelCall *kc, char **err)      \
	{                                                                          \
		return RUN(s, kc, kc->in[1].shape, kc->in[1].ndim, OPTYPE(), err); \
	}
#define BINARY_INT_ENTRY(ID, OPTYPE)                                          \
	bool kernel_cuda_##ID(CudaState *s, const KernelCall *kc, char **err) \
	{                                                                     \
		return binary_int(s, kc, OPTYPE(), err);                      \
	}
BINARY_ENTRY(POWER, binary_run, PowOp)
BINARY_ENTRY(MOD, binary_run, TruncModOp)
BINARY_ENTRY(TRUNC_MOD, binary_run, TruncModOp)
BINARY_ENTRY(TRUNC_DIVIDE, binary_run, TruncDivOp)
BINARY_ENTRY(FLOOR_DIVIDE, binary_run, FloorDivOp)
BINARY_ENTRY(FLOOR_MOD, binary_run, FloorModOp)
BINARY_INT_ENTRY(LOGICAL_AND, LogicalAndOp)
BINARY_INT_ENTRY(LOGICAL_OR, LogicalOrOp)
BINARY_INT_ENTRY(LOGICAL_XOR, LogicalXorOp)
BINARY_INT_ENTRY(BITWISE_AND, BitAndOp)
BINARY_INT_ENTRY(BITWISE_OR, BitOrOp)
BINARY_INT_ENTRY(BITWISE_XOR, BitXorOp)
BINARY_INT_ENTRY(LEFT_SHIFT, ShlOp)
BINARY_INT_ENTRY(RIGHT_SHIFT, ShrOp)
#undef BINARY_INT_ENTRY

/* ---- comparisons: operands of one dtype, a bool result ------------------- */

#define COMPARE_OP(NAME, EXPR)                                                   \
	struct NAME {                                                            \
		template <typename C> __device__ bool operator()(C x, C y) const \
		{                                                                \
			return EXPR;                                             \
		}                                                                \
	};
COMPARE_OP(EqOp, x == y)
COMPARE_OP(NeOp, x != y)
COMPARE_OP(LtOp, x < y)
COMPARE_OP(LeOp, x <= y)
COMPARE_OP(GtOp, x > y)
COMPARE_OP(GeOp, x >= y)
#undef COMPARE_OP

template <typename T, typename Op>
__global__ void compare_kernel(const T *a, const T *b, uint8_t *out, int64_t n, Broadcast bc, Op op)
{
	GRID_LOOP(i, n)
	{
		int64_t oa = i, ob = i;
		if (!bc.flat) {
			int64_t rest = i;
			oa = ob = 0;
			for (int d = bc.ndim - 1; d >= 0; d--) {
				int64_t c = rest % bc.shape[d];
				rest /= bc.shape[d];
				oa += c * bc.sa[d];
				ob += c * bc.sb[d];
			}
		}
		out[i] = op(Elem<T>::load(a[oa]), Elem<T>::load(b[ob])) ? 1 : 0;
	}
}

template <typename T, typename Op>
static bool compare_typed(CudaState *s, const KernelCall *kc, const Broadcast &bc, Op op,
			  char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	compare_kernel<T, Op><<<blocks_for(n), THREADS, 0, s->stream>>>(
		(const T *)kc->in[0].data, (const T *)kc->in[1].data, (uint8_t *)kc->out[0].data, n,
		bc, op);
	return launched(kc, err);
}

template <typename Op>
static bool compare_run(CudaState *s, const KernelCall *kc, const int64_t *bshape, uint32_t bndim,
			Op op, char **err)
{
	Broadcast bc;
	if (!broadcast_plan(&kc->out[0], kc->in[0].shape, kc->in[0].ndim, bshape, bndim, &bc)) {
		*err = xasprintf("'%s' broadcasts over more than %d dimensions", kc->name,
				 CUDA_MAX_NDIM);
		return false;
	}
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		return compare_typed<float>(s, kc, bc, op, err);
	case DT_FLOAT64:
		return compare_typed<double>(s, kc, bc, op, err);
	case DT_FLOAT16:
		return compare_typed<__half>(s, kc, bc, op, err);
	case DT_INT32:
		return compare_typed<int32_t>(s, kc, bc, op, err);
	case DT_INT64:
		return compare_typed<int64_t>(s, kc, bc, op, err);
	case DT_BOOL:
		return compare_typed<uint8_t>(s, kc, bc, op, err);
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

BINARY_ENTRY(EQUAL, compare_run, EqOp)
BINARY_ENTRY(NOT_EQUAL, compare_run, NeOp)
BINARY_ENTRY(LESS, compare_run, LtOp)
BINARY_ENTRY(LESS_EQUAL, compare_run, LeOp)
BINARY_ENTRY(GREATER, compare_run, GtOp)
BINARY_ENTRY(GREATER_EQUAL, compare_run, GeOp)
#undef BINARY_ENTRY

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
			return dtype_sat_i64(ceil(lo));
		if ((double)x > hi)
			return dtype_sat_i64(floor(hi));
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

/* Float-only unary math, as the CPU kernels compute it (fast_erf by TVM's
 * formula in kernel_fastmath.h, fast_exp and fast_tanh exactly). */
#define FLOAT_UNARY(NAME, FEXPR, DEXPR)                      \
	struct NAME {                                        \
		__device__ float operator()(float x) const   \
		{                                            \
			return FEXPR;                        \
		}                                            \
		__device__ double operator()(double x) const \
		{                                            \
			return DEXPR;                        \
		}                                            \
	};
FLOAT_UNARY(ErfOp, erff(x), erf(x))
FLOAT_UNARY(FastErfOp, kernel_fast_erf(x), erf(x))
FLOAT_UNARY(RsqrtOp, 1.0f / sqrtf(x), 1.0 / sqrt(x))
FLOAT_UNARY(Log2Op, log2f(x), log2(x))
FLOAT_UNARY(Log10Op, log10f(x), log10(x))
FLOAT_UNARY(SinOp, sinf(x), sin(x))
FLOAT_UNARY(CosOp, cosf(x), cos(x))
FLOAT_UNARY(TanOp, tanf(x), tan(x))
FLOAT_UNARY(AsinOp, asinf(x), asin(x))
FLOAT_UNARY(AcosOp, acosf(x), acos(x))
FLOAT_UNARY(AtanOp, atanf(x), atan(x))
FLOAT_UNARY(SinhOp, sinhf(x), sinh(x))
FLOAT_UNARY(CoshOp, coshf(x), cosh(x))
FLOAT_UNARY(AsinhOp, asinhf(x), asinh(x))
FLOAT_UNARY(AcoshOp, acoshf(x), acosh(x))
FLOAT_UNARY(AtanhOp, atanhf(x), atanh(x))
#undef FLOAT_UNARY

/* Unary operators of every dtype; rounding leaves an integer as it is. */
#define ANY_UNARY(NAME, FEXPR, DEXPR, IEXPR)                       \
	struct NAME {                                              \
		__device__ float operator()(float x) const         \
		{                                                  \
			return FEXPR;                              \
		}                                                  \
		__device__ double operator()(double x) const       \
		{                                                  \
			return DEXPR;                              \
		}                                                  \
		__device__ long long operator()(long long x) const \
		{                                                  \
			return IEXPR;                              \
		}                                                  \
	};
ANY_UNARY(AbsOp, fabsf(x), fabs(x), x < 0 ? wrap_sub(0, x) : x)
ANY_UNARY(CeilOp, ceilf(x), ceil(x), x)
ANY_UNARY(FloorOp, floorf(x), floor(x), x)
ANY_UNARY(RoundOp, nearbyintf(x), nearbyint(x), x)
ANY_UNARY(TruncOp, truncf(x), trunc(x), x)
ANY_UNARY(SignOp,
	  x > 0   ? 1.0f
	  : x < 0 ? -1.0f
		  : 0.0f,
	  x > 0   ? 1.0
	  : x < 0 ? -1.0
		  : 0.0,
	  x > 0   ? 1
	  : x < 0 ? -1
		  : 0)
ANY_UNARY(LogicalNotOp, x == 0 ? 1.0f : 0.0f, x == 0 ? 1.0 : 0.0, x == 0 ? 1 : 0)
#undef ANY_UNARY
struct BitNotOp {
	__device__ long long operator()(long long x) const
	{
		return ~x;
	}
};

#define UNARY_ENTRY(ID, RUN, OPTYPE)                                          \
	bool kernel_cuda_##ID(CudaState *s, const KernelCall *kc, char **err) \
	{                                                                     \
		return RUN(s, kc, OPTYPE(), err);                             \
	}
UNARY_ENTRY(ERF, unary_float, ErfOp)
UNARY_ENTRY(FAST_ERF, unary_float, FastErfOp)
UNARY_ENTRY(FAST_EXP, unary_float, ExpOp)
UNARY_ENTRY(FAST_TANH, unary_float, TanhOp)
UNARY_ENTRY(RSQRT, unary_float, RsqrtOp)
UNARY_ENTRY(LOG2, unary_float, Log2Op)
UNARY_ENTRY(LOG10, unary_float, Log10Op)
UNARY_ENTRY(SIN, unary_float, SinOp)
UNARY_ENTRY(COS, unary_float, CosOp)
UNARY_ENTRY(TAN, unary_float, TanOp)
UNARY_ENTRY(ASIN, unary_float, AsinOp)
UNARY_ENTRY(ACOS, unary_float, AcosOp)
UNARY_ENTRY(ATAN, unary_float, AtanOp)
UNARY_ENTRY(SINH, unary_float, SinhOp)
UNARY_ENTRY(COSH, unary_float, CoshOp)
UNARY_ENTRY(ASINH, unary_float, AsinhOp)
UNARY_ENTRY(ACOSH, unary_float, AcoshOp)
UNARY_ENTRY(ATANH, unary_float, AtanhOp)
UNARY_ENTRY(ABS, unary_any, AbsOp)
UNARY_ENTRY(CEIL, unary_any, CeilOp)
UNARY_ENTRY(FLOOR, unary_any, FloorOp)
UNARY_ENTRY(ROUND, unary_any, RoundOp)
UNARY_ENTRY(TRUNC, unary_any, TruncOp)
UNARY_ENTRY(SIGN, unary_any, SignOp)
UNARY_ENTRY(LOGICAL_NOT, unary_any, LogicalNotOp)
#undef UNARY_ENTRY

/* On a bool, ~x is its negation (~1 is -2: nonzero, true). */
bool kernel_cuda_BITWISE_NOT(CudaState *s, const KernelCall *kc, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_INT32:
		return unary_typed<int32_t>(s, kc, BitNotOp(), err);
	case DT_INT64:
		return unary_typed<int64_t>(s, kc, BitNotOp(), err);
	case DT_BOOL:
		return unary_typed<uint8_t>(s, kc, LogicalNotOp(), err);
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
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

/* isnan, isinf, isfinite: a bool per element; an integer is finite. */
template <typename T>
__global__ void classify_kernel(const T *in, uint8_t *out, int64_t n, int what)
{
	GRID_LOOP(i, n)
	{
		double x = (double)Elem<T>::load(in[i]);
		out[i] = what == 0 ? isnan(x) : what == 1 ? isinf(x) : isfinite(x);
	}
}

static bool classify_run(CudaState *s, const KernelCall *kc, int what, char **err)
{
	int64_t n = kc->out[0].count;
	uint8_t *out = (uint8_t *)kc->out[0].data;
	const void *in = kc->in[0].data;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		classify_kernel<float>
			<<<blocks_for(n), THREADS, 0, s->stream>>>((const float *)in, out, n, what);
		return launched(kc, err);
	case DT_FLOAT64:
		classify_kernel<double><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)in, out, n, what);
		return launched(kc, err);
	case DT_FLOAT16:
		classify_kernel<__half><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const __half *)in, out, n, what);
		return launched(kc, err);
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
		return cuda_ok(cudaMemsetAsync(out, what == 2 ? 1 : 0, (size_t)n, s->stream),
			       "cudaMemsetAsync", err);
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

bool kernel_cuda_ISNAN(CudaState *s, const KernelCall *kc, char **err)
{
	return classify_run(s, kc, 0, err);
}

bool kernel_cuda_ISINF(CudaState *s, const KernelCall *kc, char **err)
{
	return classify_run(s, kc, 1, err);
}

bool kernel_cuda_ISFINITE(CudaState *s, const KernelCall *kc, char **err)
{
	return classify_run(s, kc, 2, err);
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

/* cast_like: cast to the second operand's dtype */
bool kernel_cuda_CAST_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return kernel_cuda_CAST(s, kc, err);
}

/* ---- fixed_point_multiply (cpu_elementwise.c's arithmetic) ------------------ */

__global__ void fixed_point_multiply_kernel(const int32_t *x, int32_t *y, int64_t n, int32_t m,
					    int32_t s)
{
	GRID_LOOP(i, n)
	{
		int ls = s > 0 ? s : 0, rs = s > 0 ? 0 : -s;
		long long v;
		if (m == 1 << 30) {
			int e = s - 1;
			if (e > 31) {
				y[i] = 0;
			} else if (e > 0) {
				y[i] = (int32_t)((uint32_t)x[i] << e);
			} else {
				e = -e < 31 ? -e : 31;
				y[i] = e == 0 ? x[i]
					      : (int32_t)((uint32_t)x[i] + (1u << (e - 1))) >> e;
			}
			continue;
		}
		if (ls > 62 || rs > 31) {
			y[i] = 0;
			continue;
		}
		v = (long long)((unsigned long long)(long long)x[i] << ls);
		v = wrap_mul(v, m);
		v = wrap_add(v, 1ll << (rs + 30));
		y[i] = dtype_wrap_i32(v >> (rs + 31));
	}
}

bool kernel_cuda_FIXED_POINT_MULTIPLY(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->in[0].count;
	if (kc->in[0].dtype != DT_INT32)
		return unsupported(kc, kc->in[0].dtype, err);
	if (n == 0)
		return true;
	fixed_point_multiply_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		(const int32_t *)kc->in[0].data, (int32_t *)kc->out[0].data, n,
		kc->p.fpm.multiplier, kc->p.fpm.shift);
	return launched(kc, err);
}
