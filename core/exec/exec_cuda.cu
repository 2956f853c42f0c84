/*
 * exec_cuda.cu - the cuda backend: device memory, transfers, and the table
 * of the CUDA kernels.
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
 * Kernels: one per operator of ops.def, in cuda/cuda_FAMILY.cu of the
 * family ops.def gives it (cuda_elementwise.cu, cuda_window.cu...). They
 * compute as the CPU kernels do (float16 in float, integers in wrapping
 * 64-bit arithmetic, softmax and reductions accumulating in double), so
 * results agree; nn.dense and nn.batch_matmul are cuBLAS, convolutions and
 * pooling direct kernels, one thread per output element.
 *
 * This file is C++ only because nvcc is; it sees the IR only through
 * kernels.h and exec.h.
 */
#include "cuda/cublas_lazy.h"
#include "cuda/kernels_cuda.h"

/* ---- errors ------------------------------------------------------------------ */

bool cuda_ok(cudaError_t e, const char *what, char **err)
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

bool cublas_ok(cublasStatus_t s, const char *what, char **err)
{
	if (s == CUBLAS_STATUS_SUCCESS)
		return true;
	/* cuBLAS is loaded on first use (cublas_lazy.cu): say why it is not */
	if (cublas_lazy_error())
		*err = xasprintf("%s: %s", what, cublas_lazy_error());
	else
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

static const size_t PINNED_CACHE_MAX = (size_t)1 << 30;

/* The pinned pool is the runtime's host pool (exec_host_pool) over
 * cudaMallocHost. When the host cannot pin any more, the pool hands out
 * pageable memory instead of failing an allocation the host could satisfy;
 * copies of it go through the staging buffers like any other pageable
 * memory. */
static void *pinned_alloc(size_t nbytes)
{
	void *raw = NULL;
	if (cudaMallocHost(&raw, nbytes) != cudaSuccess) {
		cudaGetLastError();
		return NULL;
	}
	return raw;
}

static void pinned_free(void *raw)
{
	cudaFreeHost(raw);
}

static const ExecHostSource pinned_source = {pinned_alloc, pinned_free, true, "pinned"};

/* ---- the device ------------------------------------------------------------------ */

static const size_t STAGING_BYTES = (size_t)16 << 20;

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
	if (dev->runtime->host.ctx == dev->runtime->pageable.ctx)
		dev->runtime->host = exec_host_pool(&pinned_source, PINNED_CACHE_MAX);
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
	cudaFree(s->scratch);
	cublasDestroy(s->blas);
	cudaStreamDestroy(s->stream);
	free(s);
	dev->state = NULL;
}

bool cuda_scratch(CudaState *s, size_t bytes, void **out, char **err)
{
	if (bytes > s->scratch_bytes) {
		size_t grown = bytes + bytes / 4;
		if (!cuda_ok(cudaStreamSynchronize(s->stream), "cudaStreamSynchronize", err))
			return false;
		cudaFree(s->scratch);
		s->scratch = NULL;
		s->scratch_bytes = 0;
		if (!cuda_ok(cudaMalloc(&s->scratch, grown), "cudaMalloc (workspace)", err))
			return false;
		s->scratch_bytes = grown;
	}
	*out = s->scratch;
	return true;
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

/* ---- the table and the backend --------------------------------------------------------- */

typedef bool (*CudaKernelFn)(CudaState *s, const KernelCall *kc, char **err);

/* In ops.def order (C++ has no designated array initialisers); the enum
 * comes from the same list, so entry i is OP i. An operator that no
 * family file defines does not link. */
static const CudaKernelFn cuda_kernels[OP_COUNT] = {
#define OP(id, family, name, min_args, max_args, schema) kernel_cuda_##id,
#define OP_PLAN(id, family, name, min_args, max_args, schema) nullptr, /* no kernel */
#include "ops.def"
#undef OP_PLAN
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

/* Positional (designated initializers are C++20): every member named, lend
 * and unlend NULL since a GPU does not read host memory (inputs are copied
 * in). */
extern "C" const ExecBackend exec_backend_cuda = {
	"cuda",       cuda_open,     cuda_close,     cuda_alloc,  cuda_free,
	cuda_copy_in, cuda_copy_out, cuda_copy_peer, cuda_launch, kernel_cuda_supports,
	cuda_sync,    false,         false,          NULL,        NULL,
};
