/*
 * exec_cuda.cu - the cuda backend: device memory, transfers and one CUDA
 * kernel per operator of ops.def.
 *
 * Each device gets a stream and a cuBLAS handle bound to it; kernels and
 * cuBLAS calls queue on the stream, and every transfer waits for it before
 * returning, so the interpreter sees synchronous semantics (cudaFree also
 * waits for the device, so a buffer is never freed under a running kernel).
 *
 * Transfers: memory the host reaches at DMA speed is pinned memory. When a
 * GPU is opened, the backend installs a pinned host allocator in the
 * runtime (a cache of cudaMallocHost blocks, reused across allocations of
 * similar size so pinning costs once), so the cpu backend's buffers are
 * pinned and a device_copy to or from the cpu is one cudaMemcpyAsync. Other
 * host memory (input arrays) goes through two pinned staging buffers in
 * turn, the host memcpy of one chunk overlapping the DMA of the other.
 *
 * Kernels: elementwise operators share the CPU kernels' broadcasting plan
 * (dimensions of size 1 dropped, contiguous ones merged; at most 8 after
 * that) with a flat, vectorised path for same-shape float32 operands;
 * float16 computes in float and integers in wrapping 64-bit arithmetic as
 * on the CPU, so results agree. nn.dense and nn.batch_matmul are cuBLAS
 * (strided batched, a stride of 0 broadcasting a batch of 1); convolutions
 * and pooling are direct kernels, one thread per output element; softmax
 * and reductions accumulate in double like the CPU kernels.
 *
 * This file is C++ only because nvcc is; it sees the IR only through
 * kernels.h and exec.h.
 */
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "exec.h"
}

/* ---- errors ------------------------------------------------------------------ */

static bool cuda_ok(cudaError_t e, const char *what, char **err)
{
	if (e == cudaSuccess)
		return true;
	*err = xasprintf("%s: %s", what, cudaGetErrorString(e));
	cudaGetLastError(); /* clear a sticky-free error */
	return false;
}

static const char *cublas_name(cublasStatus_t s)
{
	switch (s) {
	case CUBLAS_STATUS_SUCCESS:
		return "success";
	case CUBLAS_STATUS_NOT_INITIALIZED:
		return "not initialized";
	case CUBLAS_STATUS_ALLOC_FAILED:
		return "allocation failed";
	case CUBLAS_STATUS_INVALID_VALUE:
		return "invalid value";
	case CUBLAS_STATUS_ARCH_MISMATCH:
		return "architecture mismatch";
	case CUBLAS_STATUS_MAPPING_ERROR:
		return "mapping error";
	case CUBLAS_STATUS_EXECUTION_FAILED:
		return "execution failed";
	case CUBLAS_STATUS_INTERNAL_ERROR:
		return "internal error";
	case CUBLAS_STATUS_NOT_SUPPORTED:
		return "not supported";
	case CUBLAS_STATUS_LICENSE_ERROR:
		return "license error";
	}
	return "unknown status";
}

static bool cublas_ok(cublasStatus_t s, const char *what, char **err)
{
	if (s == CUBLAS_STATUS_SUCCESS)
		return true;
	*err = xasprintf("%s: cuBLAS %s", what, cublas_name(s));
	return false;
}

extern "C" bool exec_cuda_probe(char **why)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);
	if (e != cudaSuccess) {
		*why = xasprintf("cudaGetDeviceCount: %s", cudaGetErrorString(e));
		cudaGetLastError();
		return false;
	}
	if (n == 0) {
		*why = xstrdup("cudaGetDeviceCount found no device");
		return false;
	}
	return true;
}

/* ---- the pinned host allocator -------------------------------------------------- */

enum { PINNED_HEADER = 64 };
static const size_t PINNED_CACHE_MAX = (size_t)1 << 30;

/* What sits at the start of every block: its size, and whether
 * cudaMallocHost made it. When the host cannot pin any more (pinned
 * memory is a fraction of RAM), the pool hands out pageable memory
 * instead of failing an allocation the host could satisfy; copies of it
 * go through the staging buffers like any other pageable memory. */
struct PinnedHeader {
	size_t size;
	bool pinned;
};
static_assert(sizeof(PinnedHeader) <= PINNED_HEADER, "the header fits its slot");

struct PinnedBlock {
	void *raw;
	size_t size;
};

struct PinnedPool {
	PinnedBlock *cached;
	size_t ncached, cap;
	size_t cached_bytes;
};

static void *pinned_alloc(void *ctx, size_t nbytes)
{
	PinnedPool *pool = (PinnedPool *)ctx;
	size_t want = (nbytes + PINNED_HEADER + 4095) / 4096 * 4096, best = SIZE_MAX;
	void *raw = NULL;
	if (want < nbytes)
		return NULL;
	/* the smallest cached block that fits and is at most twice the size */
	for (size_t i = 0; i < pool->ncached; i++) {
		size_t s = pool->cached[i].size;
		if (s >= want && s / 2 <= want && (best == SIZE_MAX || s < pool->cached[best].size))
			best = i;
	}
	if (best != SIZE_MAX) {
		PinnedBlock b = pool->cached[best];
		pool->cached[best] = pool->cached[--pool->ncached];
		pool->cached_bytes -= b.size;
		raw = b.raw;
		want = b.size;
	} else if (cudaMallocHost(&raw, want) != cudaSuccess) {
		cudaGetLastError();
		/* give the cache back and try once more */
		for (size_t i = 0; i < pool->ncached; i++)
			cudaFreeHost(pool->cached[i].raw);
		pool->ncached = 0;
		pool->cached_bytes = 0;
		if (cudaMallocHost(&raw, want) != cudaSuccess) {
			cudaGetLastError();
			raw = exec_host_alloc(want);
			if (!raw)
				return NULL;
			((PinnedHeader *)raw)->size = want;
			((PinnedHeader *)raw)->pinned = false;
			return (char *)raw + PINNED_HEADER;
		}
	}
	((PinnedHeader *)raw)->size = want;
	((PinnedHeader *)raw)->pinned = true;
	return (char *)raw + PINNED_HEADER;
}

static void pinned_free(void *ctx, void *ptr)
{
	PinnedPool *pool = (PinnedPool *)ctx;
	void *raw = (char *)ptr - PINNED_HEADER;
	size_t size = ((PinnedHeader *)raw)->size;
	if (!((PinnedHeader *)raw)->pinned) {
		exec_host_free(raw);
		return;
	}
	if (pool->cached_bytes + size > PINNED_CACHE_MAX) {
		cudaFreeHost(raw);
		return;
	}
	grow_array((void **)&pool->cached, &pool->cap, pool->ncached + 1, sizeof(PinnedBlock));
	pool->cached[pool->ncached].raw = raw;
	pool->cached[pool->ncached].size = size;
	pool->ncached++;
	pool->cached_bytes += size;
}

static void pinned_destroy(void *ctx)
{
	PinnedPool *pool = (PinnedPool *)ctx;
	for (size_t i = 0; i < pool->ncached; i++)
		cudaFreeHost(pool->cached[i].raw);
	free(pool->cached);
	free(pool);
}

/* ---- the device ------------------------------------------------------------------ */

static const size_t STAGING_BYTES = (size_t)16 << 20;

struct CudaState {
	int id;
	cudaStream_t stream;
	cublasHandle_t blas;
	void *staging[2];      /* pinned, STAGING_BYTES each, made on first use */
	cudaEvent_t staged[2]; /* the DMA that last used each */
	size_t max_pitch;      /* the largest pitch cudaMemcpy2D accepts (2^31 - 1 bytes
				  on current GPUs, less than one row of a big tensor) */
};

static CudaState *state_of(ExecDevice *dev)
{
	return (CudaState *)dev->state;
}

static bool cuda_open(ExecDevice *dev, char **err)
{
	int n = 0;
	CudaState *s;
	cudaError_t e = cudaGetDeviceCount(&n);
	if (e != cudaSuccess) {
		*err = xasprintf("cudaGetDeviceCount: %s", cudaGetErrorString(e));
		cudaGetLastError();
		return false;
	}
	if (dev->device_id < 0 || dev->device_id >= n) {
		*err = xasprintf("there is no CUDA device %d (%d found)", dev->device_id, n);
		return false;
	}
	if (!cuda_ok(cudaSetDevice(dev->device_id), "cudaSetDevice", err) ||
	    !cuda_ok(cudaFree(0), "creating the CUDA context", err))
		return false;
	s = (CudaState *)xcalloc(1, sizeof *s);
	s->id = dev->device_id;
	{
		int pitch = 0;
		if (!cuda_ok(cudaDeviceGetAttribute(&pitch, cudaDevAttrMaxPitch, s->id),
			     "cudaDeviceGetAttribute", err)) {
			free(s);
			return false;
		}
		s->max_pitch = pitch > 0 ? (size_t)pitch : 0;
	}
	if (!cuda_ok(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking),
		     "cudaStreamCreate", err)) {
		free(s);
		return false;
	}
	if (!cublas_ok(cublasCreate(&s->blas), "cublasCreate", err)) {
		cudaStreamDestroy(s->stream);
		free(s);
		return false;
	}
	/* unbound, cuBLAS would run on the legacy default stream, which does not
	 * order with a non-blocking stream: a gemm could read its operands
	 * before the kernels that write them have run */
	if (!cublas_ok(cublasSetStream(s->blas, s->stream), "cublasSetStream", err)) {
		cublasDestroy(s->blas);
		cudaStreamDestroy(s->stream);
		free(s);
		return false;
	}
	dev->state = s;
	if (dev->runtime->host.ctx == dev->runtime->pageable.ctx) {
		ExecHostAllocator *h = &dev->runtime->host;
		h->alloc = pinned_alloc;
		h->free = pinned_free;
		h->destroy = pinned_destroy;
		h->ctx = xcalloc(1, sizeof(PinnedPool));
		h->name = "pinned";
	}
	return true;
}

static void cuda_close(ExecDevice *dev)
{
	CudaState *s = state_of(dev);
	if (!s)
		return;
	cudaSetDevice(s->id);
	cudaStreamSynchronize(s->stream);
	for (int i = 0; i < 2; i++)
		if (s->staging[i]) {
			cudaEventDestroy(s->staged[i]);
			cudaFreeHost(s->staging[i]);
		}
	cublasDestroy(s->blas);
	cudaStreamDestroy(s->stream);
	free(s);
	dev->state = NULL;
}

static void *cuda_alloc(ExecDevice *dev, size_t nbytes, char **err)
{
	void *p = NULL;
	cudaError_t e;
	cudaSetDevice(state_of(dev)->id);
	e = cudaMalloc(&p, nbytes ? nbytes : 1);
	if (e != cudaSuccess) {
		*err = xasprintf("cannot allocate %zu bytes on %s: %s", nbytes, dev->name,
				 cudaGetErrorString(e));
		cudaGetLastError();
		return NULL;
	}
	return p;
}

static void cuda_free(ExecDevice *dev, void *ptr)
{
	cudaSetDevice(state_of(dev)->id);
	cudaFree(ptr);
}

static bool is_pinned(const void *p)
{
	cudaPointerAttributes attr;
	if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
		cudaGetLastError();
		return false;
	}
	return attr.type == cudaMemoryTypeHost;
}

/* Whether p is memory cudaMalloc'd on s's GPU. The interpreter checks
 * placement first; this is the second line, as in the emulator: a host
 * pointer given to a kernel would be a fault that poisons the whole CUDA
 * context (or, pinned, a silent read of host memory over the bus), and
 * another GPU's pointer a wrong answer or a fault. */
static bool on_device(const CudaState *s, const void *p, char **why)
{
	cudaPointerAttributes attr;
	cudaError_t e = cudaPointerGetAttributes(&attr, p);
	*why = NULL;
	if (e != cudaSuccess) {
		/* after a kernel's fault every call fails: say that, not "elsewhere" */
		*why = xasprintf("cudaPointerGetAttributes: %s", cudaGetErrorString(e));
		cudaGetLastError();
		return false;
	}
	return attr.type == cudaMemoryTypeDevice && attr.device == s->id;
}

/* A transfer failed half way: wait for what it queued, so that the staging
 * buffers are never refilled under a DMA still reading them. */
static bool abandon(CudaState *s)
{
	cudaStreamSynchronize(s->stream);
	cudaGetLastError();
	return false;
}

static bool staging_ready(CudaState *s, char **err)
{
	for (int i = 0; i < 2; i++) {
		if (s->staging[i])
			continue;
		if (!cuda_ok(cudaMallocHost(&s->staging[i], STAGING_BYTES), "cudaMallocHost", err))
			return false;
		if (!cuda_ok(cudaEventCreateWithFlags(&s->staged[i], cudaEventDisableTiming),
			     "cudaEventCreate", err)) {
			cudaFreeHost(s->staging[i]);
			s->staging[i] = NULL;
			return false;
		}
	}
	return true;
}

static bool cuda_copy_in(ExecDevice *dev, void *dst, const void *src, size_t nbytes, char **err)
{
	CudaState *s = state_of(dev);
	char *why;
	cudaSetDevice(s->id);
	if (!on_device(s, dst, &why)) {
		*err = why ? why
			   : xasprintf("copy into %s targets memory that is not the device's",
				       dev->name);
		return false;
	}
	if (is_pinned(src)) {
		return cuda_ok(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, s->stream),
			       "cudaMemcpyAsync to the device", err) &&
		       cuda_ok(cudaStreamSynchronize(s->stream), "copy to the device", err);
	}
	if (!staging_ready(s, err))
		return false;
	/* chunk k goes through buffer k % 2: fill it once its last DMA is done */
	for (size_t off = 0, k = 0; off < nbytes; off += STAGING_BYTES, k++) {
		size_t len = nbytes - off < STAGING_BYTES ? nbytes - off : STAGING_BYTES;
		int b = (int)(k % 2);
		if (k >= 2 && !cuda_ok(cudaEventSynchronize(s->staged[b]), "staging", err))
			return abandon(s);
		memcpy(s->staging[b], (const char *)src + off, len);
		if (!cuda_ok(cudaMemcpyAsync((char *)dst + off, s->staging[b], len,
					     cudaMemcpyHostToDevice, s->stream),
			     "cudaMemcpyAsync to the device", err) ||
		    !cuda_ok(cudaEventRecord(s->staged[b], s->stream), "cudaEventRecord", err))
			return abandon(s);
	}
	return cuda_ok(cudaStreamSynchronize(s->stream), "copy to the device", err);
}

static bool cuda_copy_out(ExecDevice *dev, void *dst, const void *src, size_t nbytes, char **err)
{
	CudaState *s = state_of(dev);
	size_t nchunks = (nbytes + STAGING_BYTES - 1) / STAGING_BYTES;
	char *why;
	cudaSetDevice(s->id);
	if (!on_device(s, src, &why)) {
		*err = why ? why
			   : xasprintf("copy out of %s reads memory that is not the device's",
				       dev->name);
		return false;
	}
	if (is_pinned(dst)) {
		return cuda_ok(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, s->stream),
			       "cudaMemcpyAsync from the device", err) &&
		       cuda_ok(cudaStreamSynchronize(s->stream), "copy from the device", err);
	}
	if (!staging_ready(s, err))
		return false;
	/* DMA chunk k + 1 while the host copies chunk k out */
	for (size_t k = 0; k <= nchunks; k++) {
		if (k < nchunks) {
			size_t off = k * STAGING_BYTES;
			size_t len = nbytes - off < STAGING_BYTES ? nbytes - off : STAGING_BYTES;
			if (!cuda_ok(cudaMemcpyAsync(s->staging[k % 2], (const char *)src + off,
						     len, cudaMemcpyDeviceToHost, s->stream),
				     "cudaMemcpyAsync from the device", err) ||
			    !cuda_ok(cudaEventRecord(s->staged[k % 2], s->stream),
				     "cudaEventRecord", err))
				return abandon(s);
		}
		if (k > 0) {
			size_t j = k - 1, off = j * STAGING_BYTES;
			size_t len = nbytes - off < STAGING_BYTES ? nbytes - off : STAGING_BYTES;
			if (!cuda_ok(cudaEventSynchronize(s->staged[j % 2]), "staging", err))
				return abandon(s);
			memcpy((char *)dst + off, s->staging[j % 2], len);
		}
	}
	return true;
}

static bool cuda_copy_peer(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src,
			   size_t nbytes, char **err)
{
	CudaState *d = state_of(dst_dev), *s = state_of(src_dev);
	char *why;
	if (!on_device(s, src, &why) || !on_device(d, dst, &why)) {
		*err = why ? why
			   : xasprintf("copy from %s to %s uses memory outside their spaces",
				       src_dev->name, dst_dev->name);
		return false;
	}
	cudaSetDevice(d->id);
	/* within one device its stream orders the copy after the kernels; two
	 * entries of the table on one GPU still have a stream each, so they
	 * take the path below, which waits for the source's stream first */
	if (d == s)
		return cuda_ok(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice,
					       d->stream),
			       "cudaMemcpyAsync between buffers", err) &&
		       cuda_ok(cudaStreamSynchronize(d->stream), "device copy", err);
	cudaSetDevice(s->id);
	if (!cuda_ok(cudaStreamSynchronize(s->stream), "device copy", err))
		return false;
	cudaSetDevice(d->id);
	return cuda_ok(cudaMemcpyPeerAsync(dst, d->id, src, s->id, nbytes, d->stream),
		       "cudaMemcpyPeerAsync", err) &&
	       cuda_ok(cudaStreamSynchronize(d->stream), "device copy", err);
}

static void cuda_sync(ExecDevice *dev)
{
	CudaState *s = state_of(dev);
	cudaSetDevice(s->id);
	cudaStreamSynchronize(s->stream);
}

/* ---- element types --------------------------------------------------------------- */

/* Storage type T computes as C: float16 in float, integers and bool in
 * wrapping 64-bit integers, as kernels_cpu.c does. */
template <typename T> struct Elem;
template <> struct Elem<float> {
	typedef float C;
	__device__ static float load(float v)
	{
		return v;
	}
	__device__ static float store(float v)
	{
		return v;
	}
};
template <> struct Elem<double> {
	typedef double C;
	__device__ static double load(double v)
	{
		return v;
	}
	__device__ static double store(double v)
	{
		return v;
	}
};
template <> struct Elem<__half> {
	typedef float C;
	__device__ static float load(__half v)
	{
		return __half2float(v);
	}
	__device__ static __half store(float v)
	{
		return __float2half_rn(v);
	}
};
template <> struct Elem<int32_t> {
	typedef long long C;
	__device__ static long long load(int32_t v)
	{
		return v;
	}
	__device__ static int32_t store(long long v)
	{
		return (int32_t)(uint32_t)(unsigned long long)v;
	}
};
template <> struct Elem<int64_t> {
	typedef long long C;
	__device__ static long long load(int64_t v)
	{
		return v;
	}
	__device__ static int64_t store(long long v)
	{
		return v;
	}
};
template <> struct Elem<uint8_t> {
	typedef long long C;
	__device__ static long long load(uint8_t v)
	{
		return v;
	}
	__device__ static uint8_t store(long long v)
	{
		return v != 0;
	}
};

__device__ static long long wrap_add(long long x, long long y)
{
	return (long long)((unsigned long long)x + (unsigned long long)y);
}

__device__ static long long wrap_sub(long long x, long long y)
{
	return (long long)((unsigned long long)x - (unsigned long long)y);
}

__device__ static long long wrap_mul(long long x, long long y)
{
	return (long long)((unsigned long long)x * (unsigned long long)y);
}

__device__ static long long sat_ll(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775807.0)
		return LLONG_MAX;
	if (v <= -9223372036854775808.0)
		return LLONG_MIN;
	return (long long)v;
}

__device__ static int sat_i32(double v)
{
	if (v != v)
		return 0;
	if (v >= 2147483647.0)
		return INT_MAX;
	if (v <= -2147483648.0)
		return INT_MIN;
	return (int)v;
}

/* ---- launch shapes ----------------------------------------------------------------- */

enum { THREADS = 256, CUDA_MAX_NDIM = 8 };

static unsigned blocks_for(int64_t n)
{
	int64_t b = (n + THREADS - 1) / THREADS;
	if (b < 1)
		b = 1;
	if (b > 65536)
		b = 65536;
	return (unsigned)b;
}

#define GRID_LOOP(i, n)                                                           \
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); \
	     i += (int64_t)gridDim.x * blockDim.x)

static bool unsupported(const KernelCall *kc, DType dt, char **err)
{
	*err = xasprintf("'%s' on cuda does not support %s", kc->name, dtype_name(dt));
	return false;
}

static bool launched(const KernelCall *kc, char **err)
{
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		return true;
	*err = xasprintf("'%s' kernel launch: %s", kc->name, cudaGetErrorString(e));
	return false;
}

/* ---- elementwise ------------------------------------------------------------------- */

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

/* The broadcasting plan (see kernels_cpu.c): strides per merged output
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
	case DT_COUNT:
		break;
	}
	return unsupported(kc, out->dtype, err);
}

static bool kernel_cuda_ADD(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, AddOp(), err);
}

static bool kernel_cuda_SUBTRACT(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, SubOp(), err);
}

static bool kernel_cuda_MULTIPLY(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, MulOp(), err);
}

static bool kernel_cuda_DIVIDE(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, DivOp(), err);
}

static bool kernel_cuda_MAXIMUM(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, MaxOp(), err);
}

static bool kernel_cuda_MINIMUM(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, kc->in[1].shape, kc->in[1].ndim, MinOp(), err);
}

/* the bias seen as [len, 1, ..., 1] against the axis */
static bool kernel_cuda_BIAS_ADD(CudaState *s, const KernelCall *kc, char **err)
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
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

static bool kernel_cuda_NEGATIVE(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_any(s, kc, NegOp(), err);
}

static bool kernel_cuda_EXP(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, ExpOp(), err);
}

static bool kernel_cuda_LOG(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, LogOp(), err);
}

static bool kernel_cuda_SQRT(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, SqrtOp(), err);
}

static bool kernel_cuda_TANH(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, TanhOp(), err);
}

static bool kernel_cuda_SIGMOID(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_float(s, kc, SigmoidOp(), err);
}

static bool kernel_cuda_RELU(CudaState *s, const KernelCall *kc, char **err)
{
	return unary_any(s, kc, ReluOp(), err);
}

static bool kernel_cuda_CLIP(CudaState *s, const KernelCall *kc, char **err)
{
	ClipOp op;
	op.lo = kc->p.clip.lo;
	op.hi = kc->p.clip.hi;
	return unary_any(s, kc, op, err);
}

/* ---- fills and casts -------------------------------------------------------------- */

template <typename T> __global__ void fill_kernel(T *out, int64_t n, T v)
{
	GRID_LOOP(i, n)
	out[i] = v;
}

template <typename T> static T host_value(double v);
template <> float host_value<float>(double v)
{
	return (float)v;
}
template <> double host_value<double>(double v)
{
	return v;
}
template <> __half host_value<__half>(double v)
{
	__half_raw raw;
	raw.x = npy_float_to_half((float)v);
	return __half(raw);
}
template <> int32_t host_value<int32_t>(double v)
{
	return (int32_t)v;
}
template <> int64_t host_value<int64_t>(double v)
{
	return (int64_t)v;
}
template <> uint8_t host_value<uint8_t>(double v)
{
	return v != 0;
}

template <typename T> static bool fill_typed(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	fill_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>((T *)kc->out[0].data, n,
								 host_value<T>(kc->p.fill));
	return launched(kc, err);
}

static bool fill_run(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->p.fill == 0)
		return cuda_ok(cudaMemsetAsync(kc->out[0].data, 0, kc->out[0].nbytes, s->stream),
			       "cudaMemsetAsync", err);
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return fill_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return fill_typed<double>(s, kc, err);
	case DT_FLOAT16:
		return fill_typed<__half>(s, kc, err);
	case DT_INT32:
		return fill_typed<int32_t>(s, kc, err);
	case DT_INT64:
		return fill_typed<int64_t>(s, kc, err);
	case DT_BOOL:
		return fill_typed<uint8_t>(s, kc, err);
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

static bool kernel_cuda_ZEROS(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

static bool kernel_cuda_ONES(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

static bool kernel_cuda_ZEROS_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

static bool kernel_cuda_ONES_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

/* cast: integers (and bool) travel through 64-bit integers, anything
 * involving a float through double; float to integer saturates. */
template <typename T> __device__ static double to_double(T v)
{
	return (double)Elem<T>::load(v);
}
template <typename T> __device__ static T from_double(double v);
template <> __device__ float from_double<float>(double v)
{
	return (float)v;
}
template <> __device__ double from_double<double>(double v)
{
	return v;
}
template <> __device__ __half from_double<__half>(double v)
{
	return __float2half_rn((float)v);
}
template <> __device__ int32_t from_double<int32_t>(double v)
{
	return sat_i32(v);
}
template <> __device__ int64_t from_double<int64_t>(double v)
{
	return sat_ll(v);
}
template <> __device__ uint8_t from_double<uint8_t>(double v)
{
	return v != 0;
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
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

static bool kernel_cuda_CAST(CudaState *s, const KernelCall *kc, char **err)
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
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

/* ---- data movement ------------------------------------------------------------------ */

static bool copy_run(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->out[0].data == kc->in[0].data || kc->out[0].nbytes == 0)
		return true;
	return cuda_ok(cudaMemcpyAsync(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes,
				       cudaMemcpyDeviceToDevice, s->stream),
		       "cudaMemcpyAsync", err);
}

static bool kernel_cuda_RESHAPE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

static bool kernel_cuda_BATCH_FLATTEN(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

static bool kernel_cuda_EXPAND_DIMS(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

static bool kernel_cuda_SQUEEZE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

static bool kernel_cuda_ON_DEVICE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

static bool kernel_cuda_DEVICE_COPY(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

struct TransposePlan {
	int ndim;
	int64_t out_shape[CUDA_MAX_NDIM];
	int64_t in_stride[CUDA_MAX_NDIM]; /* input stride of each output axis */
};

template <typename T>
__global__ void transpose_kernel(const T *in, T *out, int64_t n, TransposePlan p)
{
	GRID_LOOP(i, n)
	{
		int64_t rest = i, off = 0;
		for (int d = p.ndim - 1; d >= 0; d--) {
			off += rest % p.out_shape[d] * p.in_stride[d];
			rest /= p.out_shape[d];
		}
		out[i] = in[off];
	}
}

static bool kernel_cuda_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	TransposePlan p;
	int64_t strides[CUDA_MAX_NDIM], st = 1, n = out->count;
	unsigned blocks = blocks_for(n);
	if (in->ndim == 0 || n == 0)
		return copy_run(s, kc, err);
	if (in->ndim > CUDA_MAX_NDIM) {
		*err = xasprintf("'transpose' on cuda supports at most %d dimensions",
				 CUDA_MAX_NDIM);
		return false;
	}
	for (uint32_t i = in->ndim; i-- > 0;) {
		strides[i] = st;
		st *= in->shape[i];
	}
	p.ndim = (int)in->ndim;
	for (uint32_t i = 0; i < in->ndim; i++) {
		p.out_shape[i] = out->shape[i];
		p.in_stride[i] = strides[kc->axes[i]];
	}
	switch (dtype_size(in->dtype)) {
	case 1:
		transpose_kernel<uint8_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint8_t *)in->data, (uint8_t *)out->data, n, p);
		break;
	case 2:
		transpose_kernel<uint16_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint16_t *)in->data, (uint16_t *)out->data, n, p);
		break;
	case 4:
		transpose_kernel<uint32_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint32_t *)in->data, (uint32_t *)out->data, n, p);
		break;
	default:
		transpose_kernel<uint64_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint64_t *)in->data, (uint64_t *)out->data, n, p);
		break;
	}
	return launched(kc, err);
}

/* rows of width bytes, pitch apart in the whole and packed in the piece.
 * cudaMemcpy2D refuses a pitch over the device's maximum (2^31 - 1 bytes),
 * which one row of a concatenation along axis 0 of tensors over 2 GiB
 * exceeds: a single row (or rows that are contiguous anyway) is one plain
 * copy, and over-long pitches go row by row (each row then being over
 * 2 GiB, there are few). */
static bool rows_copy(CudaState *s, char *whole, size_t pitch, char *piece, size_t width,
		      size_t rows, bool into_whole, char **err)
{
	if (rows == 1 || width == pitch)
		return cuda_ok(cudaMemcpyAsync(into_whole ? whole : piece,
					       into_whole ? piece : whole, width * rows,
					       cudaMemcpyDeviceToDevice, s->stream),
			       "cudaMemcpyAsync", err);
	if (pitch <= s->max_pitch)
		return into_whole
			       ? cuda_ok(cudaMemcpy2DAsync(whole, pitch, piece, width, width, rows,
							   cudaMemcpyDeviceToDevice, s->stream),
					 "cudaMemcpy2DAsync", err)
			       : cuda_ok(cudaMemcpy2DAsync(piece, width, whole, pitch, width, rows,
							   cudaMemcpyDeviceToDevice, s->stream),
					 "cudaMemcpy2DAsync", err);
	for (size_t r = 0; r < rows; r++) {
		char *w = whole + r * pitch, *q = piece + r * width;
		if (!cuda_ok(cudaMemcpyAsync(into_whole ? w : q, into_whole ? q : w, width,
					     cudaMemcpyDeviceToDevice, s->stream),
			     "cudaMemcpyAsync", err))
			return false;
	}
	return true;
}

/* concatenate/split: each piece is rows of len_i * inner elements inside
 * the whole's rows of total * inner, one 2-D copy per piece. */
static bool pieces_copy(CudaState *s, const KernelCall *kc, const KernelTensor *whole,
			const KernelTensor *pieces, uint32_t npieces, bool into_whole, char **err)
{
	int64_t axis = kc->p.axis.axis, outer = kc->p.axis.outer, inner = kc->p.axis.inner;
	size_t es = dtype_size(whole->dtype);
	size_t pitch = (size_t)(whole->shape[axis] * inner) * es;
	int64_t offset = 0;
	for (uint32_t p = 0; p < npieces; p++) {
		size_t width = (size_t)(pieces[p].shape[axis] * inner) * es;
		char *w = (char *)whole->data + (size_t)(offset * inner) * es;
		offset += pieces[p].shape[axis];
		if (width == 0 || outer == 0)
			continue;
		if (!rows_copy(s, w, pitch, (char *)pieces[p].data, width, (size_t)outer,
			       into_whole, err))
			return false;
	}
	return true;
}

static bool kernel_cuda_CONCATENATE(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->out[0], kc->in, kc->nin, true, err);
}

static bool kernel_cuda_SPLIT(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->in[0], kc->out, kc->nout, false, err);
}

/* ---- reductions ------------------------------------------------------------------------ */

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
	case DT_COUNT:
		break;
	}
	return unsupported(kc, in->dtype, err);
too_many:
	*err = xasprintf("'%s' on cuda supports at most %d reduced or kept dimensions", kc->name,
			 CUDA_MAX_NDIM);
	return false;
}

static bool kernel_cuda_SUM(CudaState *s, const KernelCall *kc, char **err)
{
	return reduce_run(s, kc, 0, err);
}

static bool kernel_cuda_MEAN(CudaState *s, const KernelCall *kc, char **err)
{
	return reduce_run(s, kc, 1, err);
}

static bool kernel_cuda_MAX(CudaState *s, const KernelCall *kc, char **err)
{
	return reduce_run(s, kc, 2, err);
}

/* ---- softmax ----------------------------------------------------------------------- */

__device__ static float dev_exp(float x)
{
	return expf(x);
}

__device__ static double dev_exp(double x)
{
	return exp(x);
}

template <typename T>
__global__ void softmax_kernel(const T *x, T *y, int64_t rows, int64_t len, int64_t inner)
{
	GRID_LOOP(row, rows)
	{
		int64_t o = row / inner, i = row % inner;
		const T *xr = x + o * len * inner + i;
		T *yr = y + o * len * inner + i;
		T m = -INFINITY;
		double sum = 0;
		for (int64_t k = 0; k < len; k++)
			m = xr[k * inner] > m ? xr[k * inner] : m;
		for (int64_t k = 0; k < len; k++) {
			T e = dev_exp(xr[k * inner] - m);
			yr[k * inner] = e;
			sum += e;
		}
		for (int64_t k = 0; k < len; k++)
			yr[k * inner] = (T)(yr[k * inner] / sum);
	}
}

static bool kernel_cuda_SOFTMAX(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t rows = kc->p.axis.outer * kc->p.axis.inner;
	if (rows == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		softmax_kernel<float><<<blocks_for(rows), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, rows,
			kc->p.axis.len, kc->p.axis.inner);
		return launched(kc, err);
	case DT_FLOAT64:
		softmax_kernel<double><<<blocks_for(rows), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, rows,
			kc->p.axis.len, kc->p.axis.inner);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

/* ---- matrix products: cuBLAS --------------------------------------------------------- */

/* Row-major out[b] (m x n) = op(a[b]) op(b[b]) is column-major
 * out^T = op(b)^T op(a)^T: cuBLAS gets b first. */
static bool matmul_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelMatmul *mm = &kc->p.matmul;
	cublasOperation_t opb = mm->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
	cublasOperation_t opa = mm->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
	int ldb = (int)(mm->trans_b ? mm->k : mm->n), lda = (int)(mm->trans_a ? mm->m : mm->k);
	long long stride_a = mm->batch_a == 1 ? 0 : mm->m * mm->k;
	long long stride_b = mm->batch_b == 1 ? 0 : mm->k * mm->n;
	long long stride_c = mm->m * mm->n;
	if (mm->m > INT_MAX || mm->n > INT_MAX || mm->k > INT_MAX || mm->batch > INT_MAX) {
		*err = xasprintf("'%s' has a dimension too large for cuBLAS", kc->name);
		return false;
	}
	if (mm->m == 0 || mm->n == 0 || mm->batch == 0)
		return true;
	if (mm->k == 0)
		return cuda_ok(cudaMemsetAsync(kc->out[0].data, 0, kc->out[0].nbytes, s->stream),
			       "cudaMemsetAsync", err);
	switch (kc->in[0].dtype) {
	case DT_FLOAT32: {
		const float one = 1, zero = 0;
		return cublas_ok(
			cublasSgemmStridedBatched(s->blas, opb, opa, (int)mm->n, (int)mm->m,
						  (int)mm->k, &one, (const float *)kc->in[1].data,
						  ldb, stride_b, (const float *)kc->in[0].data, lda,
						  stride_a, &zero, (float *)kc->out[0].data,
						  (int)mm->n, stride_c, (int)mm->batch),
			kc->name, err);
	}
	case DT_FLOAT64: {
		const double one = 1, zero = 0;
		return cublas_ok(
			cublasDgemmStridedBatched(s->blas, opb, opa, (int)mm->n, (int)mm->m,
						  (int)mm->k, &one, (const double *)kc->in[1].data,
						  ldb, stride_b, (const double *)kc->in[0].data,
						  lda, stride_a, &zero, (double *)kc->out[0].data,
						  (int)mm->n, stride_c, (int)mm->batch),
			kc->name, err);
	}
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

static bool kernel_cuda_DENSE(CudaState *s, const KernelCall *kc, char **err)
{
	return matmul_run(s, kc, err);
}

static bool kernel_cuda_BATCH_MATMUL(CudaState *s, const KernelCall *kc, char **err)
{
	return matmul_run(s, kc, err);
}

/* ---- convolution and pooling: direct kernels -------------------------------------------- */

template <typename T, typename A>
__global__ void conv2d_kernel(const T *x, const T *w, T *y, KernelWindow p)
{
	int64_t n = p.n * p.o * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	GRID_LOOP(i, n)
	{
		int64_t ox = i % p.ow, oy = i / p.ow % p.oh, o = i / (p.ow * p.oh) % p.o,
			b = i / (p.ow * p.oh * p.o), g = o / og;
		A acc = 0;
		for (int64_t ci = 0; ci < cg; ci++) {
			const T *xc = x + ((b * p.c + g * cg + ci) * p.h) * p.w;
			const T *wc = w + ((o * cg + ci) * p.kh) * p.kw;
			for (int64_t ky = 0; ky < p.kh; ky++) {
				int64_t iy = oy * p.stride[0] - p.pad[0] + ky * p.dilation[0];
				if (iy < 0 || iy >= p.h)
					continue;
				for (int64_t kx = 0; kx < p.kw; kx++) {
					int64_t ix =
						ox * p.stride[1] - p.pad[1] + kx * p.dilation[1];
					if (ix >= 0 && ix < p.w)
						acc += (A)xc[iy * p.w + ix] * (A)wc[ky * p.kw + kx];
				}
			}
		}
		y[i] = (T)acc;
	}
}

/* The transposed convolution gathered per output element: input pixel iy
 * reaches oy = iy * stride - pad + ky * dilation. */
template <typename T, typename A>
__global__ void conv2d_transpose_kernel(const T *x, const T *w, T *y, KernelWindow p)
{
	int64_t n = p.n * p.o * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	GRID_LOOP(i, n)
	{
		int64_t ox = i % p.ow, oy = i / p.ow % p.oh, o = i / (p.ow * p.oh) % p.o,
			b = i / (p.ow * p.oh * p.o), g = o / og, oc = o % og;
		A acc = 0;
		for (int64_t ci = 0; ci < cg; ci++) {
			int64_t c = g * cg + ci;
			const T *xc = x + ((b * p.c + c) * p.h) * p.w;
			const T *wc = w + ((c * og + oc) * p.kh) * p.kw;
			for (int64_t ky = 0; ky < p.kh; ky++) {
				int64_t ty = oy + p.pad[0] - ky * p.dilation[0];
				if (ty < 0 || ty % p.stride[0] != 0 || ty / p.stride[0] >= p.h)
					continue;
				for (int64_t kx = 0; kx < p.kw; kx++) {
					int64_t tx = ox + p.pad[1] - kx * p.dilation[1];
					if (tx < 0 || tx % p.stride[1] != 0 ||
					    tx / p.stride[1] >= p.w)
						continue;
					acc += (A)xc[ty / p.stride[0] * p.w + tx / p.stride[1]] *
					       (A)wc[ky * p.kw + kx];
				}
			}
		}
		y[i] = (T)acc;
	}
}

template <typename T>
__global__ void pool_kernel(const T *x, T *y, KernelWindow p, bool is_max, T lowest)
{
	int64_t n = p.n * p.c * p.oh * p.ow;
	GRID_LOOP(i, n)
	{
		int64_t ox = i % p.ow, oy = i / p.ow % p.oh, plane = i / (p.ow * p.oh);
		const T *xp = x + plane * p.h * p.w;
		double acc = is_max ? -INFINITY : 0;
		int64_t count = 0;
		bool any = false;
		for (int64_t ky = 0; ky < p.kh; ky++) {
			int64_t iy = oy * p.stride[0] - p.pad[0] + ky * p.dilation[0];
			bool row_in = iy >= 0 && iy < p.h;
			bool row_pad = iy >= -p.pad[0] && iy < p.h + p.pad_end[0];
			for (int64_t kx = 0; kx < p.kw; kx++) {
				int64_t ix = ox * p.stride[1] - p.pad[1] + kx * p.dilation[1];
				bool in = row_in && ix >= 0 && ix < p.w;
				if (in) {
					double v = (double)xp[iy * p.w + ix];
					any = true;
					if (is_max)
						acc = (v > acc || v != v) ? v : acc;
					else
						acc += v;
				}
				if (p.count_include_pad
					    ? row_pad && ix >= -p.pad[1] && ix < p.w + p.pad_end[1]
					    : in)
					count++;
			}
		}
		if (is_max)
			y[i] = any ? (T)acc : lowest;
		else
			y[i] = (T)(count ? acc / (double)count : 0);
	}
}

template <typename T>
__global__ void global_avg_kernel(const T *x, T *y, int64_t planes, int64_t size)
{
	GRID_LOOP(p, planes)
	{
		double sum = 0;
		for (int64_t i = 0; i < size; i++)
			sum += (double)Elem<T>::load(x[p * size + i]);
		y[p] = from_double<T>(size ? sum / (double)size : NAN);
	}
}

/* Launches one of the two convolution kernels, whose float32 and float64
 * instances share a signature, over the output's elements. */
static bool conv_run(CudaState *s, const KernelCall *kc, char **err,
		     void (*f32)(const float *, const float *, float *, KernelWindow),
		     void (*f64)(const double *, const double *, double *, KernelWindow))
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		f32<<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (const float *)kc->in[1].data,
			(float *)kc->out[0].data, kc->p.window);
		return launched(kc, err);
	case DT_FLOAT64:
		f64<<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (const double *)kc->in[1].data,
			(double *)kc->out[0].data, kc->p.window);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

static bool kernel_cuda_CONV2D(CudaState *s, const KernelCall *kc, char **err)
{
	return conv_run(s, kc, err, conv2d_kernel<float, float>, conv2d_kernel<double, double>);
}

static bool kernel_cuda_CONV2D_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	return conv_run(s, kc, err, conv2d_transpose_kernel<float, float>,
			conv2d_transpose_kernel<double, double>);
}

static bool pool_run(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	bool is_max = kc->op == OP_MAX_POOL2D;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		pool_kernel<float><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, kc->p.window,
			is_max, -FLT_MAX);
		return launched(kc, err);
	case DT_FLOAT64:
		pool_kernel<double><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, kc->p.window,
			is_max, -DBL_MAX);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

static bool kernel_cuda_MAX_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

static bool kernel_cuda_AVG_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

static bool kernel_cuda_GLOBAL_AVG_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	int64_t planes = in->shape[0] * in->shape[1], size = in->shape[2] * in->shape[3];
	if (planes == 0)
		return true;
	switch (in->dtype) {
	case DT_FLOAT32:
		global_avg_kernel<float><<<blocks_for(planes), THREADS, 0, s->stream>>>(
			(const float *)in->data, (float *)kc->out[0].data, planes, size);
		return launched(kc, err);
	case DT_FLOAT64:
		global_avg_kernel<double><<<blocks_for(planes), THREADS, 0, s->stream>>>(
			(const double *)in->data, (double *)kc->out[0].data, planes, size);
		return launched(kc, err);
	case DT_FLOAT16: /* the cpu kernel takes every float type */
		global_avg_kernel<__half><<<blocks_for(planes), THREADS, 0, s->stream>>>(
			(const __half *)in->data, (__half *)kc->out[0].data, planes, size);
		return launched(kc, err);
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, in->dtype, err);
}

/* ---- the table and the backend --------------------------------------------------------- */

typedef bool (*CudaKernelFn)(CudaState *s, const KernelCall *kc, char **err);

/* In ops.def order (C++ has no designated array initialisers); the enum
 * comes from the same list, so entry i is OP i, and a missing kernel does
 * not compile. */
static const CudaKernelFn cuda_kernels[OP_COUNT] = {
#define OP(id, name, min_args, max_args, schema) kernel_cuda_##id,
#include "ops.def"
#undef OP
};

static bool cuda_launch(ExecDevice *dev, const KernelCall *kc, char **err)
{
	CudaState *s = state_of(dev);
	char *why;
	cudaSetDevice(s->id);
	for (uint32_t i = 0; i < kc->nin; i++)
		if (!on_device(s, kc->in[i].data, &why)) {
			*err = why ? why
				   : xasprintf("operand %u of '%s' is not in %s's memory", i + 1,
					       kc->name, dev->name);
			return false;
		}
	for (uint32_t i = 0; i < kc->nout; i++)
		if (!on_device(s, kc->out[i].data, &why)) {
			*err = why ? why
				   : xasprintf("result %u of '%s' is not in %s's memory", i + 1,
					       kc->name, dev->name);
			return false;
		}
	return cuda_kernels[kc->op](s, kc, err);
}

extern "C" const ExecBackend exec_backend_cuda = {
	"cuda",        cuda_open,      cuda_close,  cuda_alloc, cuda_free, cuda_copy_in,
	cuda_copy_out, cuda_copy_peer, cuda_launch, cuda_sync,  false,
};
