/*
 * cuda_transform.cu - the CUDA kernels of the operators that move data
 * without computing: the reshapes (reshape, nn.batch_flatten, expand_dims,
 * squeeze) and the annotations are device-to-device copies, transpose a
 * kernel reading the input with permuted strides, concatenate and split
 * 2-D copies of rows.
 */
#include "kernels_cuda.h"

static bool copy_run(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->out[0].data == kc->in[0].data || kc->out[0].nbytes == 0)
		return true;
	return cuda_ok(cudaMemcpyAsync(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes,
				       cudaMemcpyDeviceToDevice, s->stream),
		       "cudaMemcpyAsync", err);
}

bool kernel_cuda_RESHAPE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_BATCH_FLATTEN(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_EXPAND_DIMS(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_SQUEEZE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_ON_DEVICE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_DEVICE_COPY(CudaState *s, const KernelCall *kc, char **err)
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

bool kernel_cuda_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
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

bool kernel_cuda_CONCATENATE(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->out[0], kc->in, kc->nin, true, err);
}

bool kernel_cuda_SPLIT(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->in[0], kc->out, kc->nout, false, err);
}
