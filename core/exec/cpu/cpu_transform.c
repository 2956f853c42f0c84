/*
 * cpu_transform.c - the CPU kernels of the operators that move data
 * without computing: the reshapes (reshape, nn.batch_flatten, expand_dims,
 * squeeze), copy and the annotations are copies of the bytes, transpose
 * walks the input with permuted strides, concatenate, split and take copy
 * rows, and shape_of writes its operand's shape.
 */
#include "kernels_cpu.h"

#include <stdlib.h>
#include <string.h>

static bool copy_kernel(const KernelCall *kc, char **err)
{
	(void)err;
	if (kc->out[0].data != kc->in[0].data && kc->out[0].nbytes)
		memcpy(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes);
	return true;
}

KERNEL_CPU_VIA(RESHAPE, copy_kernel)
KERNEL_CPU_VIA(BATCH_FLATTEN, copy_kernel)
KERNEL_CPU_VIA(EXPAND_DIMS, copy_kernel)
KERNEL_CPU_VIA(SQUEEZE, copy_kernel)
KERNEL_CPU_VIA(COPY, copy_kernel)

/* on_device is a pass-through and device_copy a transfer: the interpreter
 * handles both without launching, but as kernels they are copies. */
KERNEL_CPU_VIA(ON_DEVICE, copy_kernel)
KERNEL_CPU_VIA(DEVICE_COPY, copy_kernel)

typedef struct TransposeJob {
	uint32_t ndim;
	const int64_t *out_shape;
	int64_t *in_stride; /* input stride of each output axis */
	const char *in;
	char *out;
	size_t esize;
} TransposeJob;

static void transpose_range(void *vjob, int64_t begin, int64_t end)
{
	TransposeJob *job = vjob;
	uint32_t nd = job->ndim;
	int64_t small[8], *idx = nd <= 8 ? small : xmalloc(nd * sizeof(int64_t));
	int64_t off = 0, rest = begin;
	for (uint32_t i = nd; i-- > 0;) {
		idx[i] = rest % job->out_shape[i];
		rest /= job->out_shape[i];
		off += idx[i] * job->in_stride[i];
	}
	for (int64_t pos = begin; pos < end; pos++) {
		switch (job->esize) {
		case 1:
			((uint8_t *)job->out)[pos] = ((const uint8_t *)job->in)[off];
			break;
		case 2:
			((uint16_t *)job->out)[pos] = ((const uint16_t *)job->in)[off];
			break;
		case 4:
			((uint32_t *)job->out)[pos] = ((const uint32_t *)job->in)[off];
			break;
		default:
			((uint64_t *)job->out)[pos] = ((const uint64_t *)job->in)[off];
			break;
		}
		for (uint32_t i = nd; i-- > 0;) {
			off += job->in_stride[i];
			if (++idx[i] < job->out_shape[i])
				break;
			off -= idx[i] * job->in_stride[i];
			idx[i] = 0;
		}
	}
	if (idx != small)
		free(idx);
}

bool kernel_cpu_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	uint32_t nd = in->ndim;
	int64_t *in_strides, s = 1;
	TransposeJob job;
	(void)err;
	if (nd == 0 || out->count == 0)
		return copy_kernel(kc, err);
	in_strides = xmalloc(nd * sizeof(int64_t));
	for (uint32_t i = nd; i-- > 0;) {
		in_strides[i] = s;
		s *= in->shape[i];
	}
	job.ndim = nd;
	job.out_shape = out->shape;
	job.in_stride = xmalloc(nd * sizeof(int64_t));
	for (uint32_t i = 0; i < nd; i++)
		job.in_stride[i] = in_strides[kc->axes[i]];
	job.in = in->data;
	job.out = out->data;
	job.esize = dtype_size(in->dtype);
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, transpose_range, &job);
	free(job.in_stride);
	free(in_strides);
	return true;
}

/* concatenate/split: each piece is [outer, len_i * inner] inside the whole
 * [outer, total * inner]. */
static bool pieces_copy(const KernelCall *kc, const KernelTensor *whole, const KernelTensor *pieces,
			uint32_t npieces, bool into_whole)
{
	int64_t axis = kc->p.axis.axis, outer = kc->p.axis.outer, inner = kc->p.axis.inner;
	size_t esize = dtype_size(whole->dtype);
	int64_t total = whole->shape[axis], offset = 0;
	for (uint32_t p = 0; p < npieces; p++) {
		int64_t len = pieces[p].shape[axis];
		size_t row = (size_t)(len * inner) * esize;
		for (int64_t o = 0; o < outer && row; o++) {
			char *w = (char *)whole->data +
				  ((size_t)(o * total + offset) * inner) * esize;
			char *q = (char *)pieces[p].data + (size_t)o * row;
			if (into_whole)
				memcpy(w, q, row);
			else
				memcpy(q, w, row);
		}
		offset += len;
	}
	return true;
}

bool kernel_cpu_CONCATENATE(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->out[0], kc->in, kc->nin, true);
}

bool kernel_cpu_SPLIT(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->in[0], kc->out, kc->nout, false);
}

/* An index into [0, len) per take's mode; len > 0. */
static int64_t take_index(int64_t i, int64_t len, KernelTakeMode mode)
{
	if (mode == TAKE_WRAP) {
		i %= len;
		return i < 0 ? i + len : i;
	}
	/* clip, and fast (which TVM leaves unchecked) clamped to stay in bounds */
	return i < 0 ? 0 : i >= len ? len - 1 : i;
}

bool kernel_cpu_TAKE(const KernelCall *kc, char **err)
{
	const KernelTake *t = &kc->p.take;
	const KernelTensor *data = &kc->in[0], *indices = &kc->in[1];
	size_t row = (size_t)t->inner * dtype_size(data->dtype);
	const char *src = data->data;
	char *dst = kc->out[0].data;
	(void)err;
	if (kc->out[0].count == 0)
		return true;
	for (int64_t b = 0; b < t->batch; b++)
		for (int64_t o = 0; o < t->outer; o++)
			for (int64_t q = 0; q < t->count; q++) {
				int64_t i = take_index(
					load_int(indices->data, indices->dtype, b * t->count + q),
					t->len, t->mode);
				memcpy(dst, src + ((b * t->outer + o) * t->len + i) * row, row);
				dst += row;
			}
	return true;
}

bool kernel_cpu_SHAPE_OF(const KernelCall *kc, char **err)
{
	(void)err;
	for (uint32_t i = 0; i < kc->in[0].ndim; i++)
		store_int(kc->out[0].data, kc->out[0].dtype, i, kc->in[0].shape[i]);
	return true;
}
