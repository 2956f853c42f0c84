/*
 * cuda_nn.cu - the CUDA kernels of nn.softmax and the matrix products.
 *
 * nn.dense and nn.batch_matmul are cuBLAS (strided batched, a stride of 0
 * broadcasting a batch of 1); softmax shifts each row by its maximum and
 * sums in double like the CPU kernel.
 */
#include "kernels_cuda.h"

/* ---- softmax ----------------------------------------------------------- */

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

/* nn.fast_softmax is softmax (TVM's differs by its fast_exp's error only) */
bool kernel_cuda_FAST_SOFTMAX(CudaState *s, const KernelCall *kc, char **err)
{
	return kernel_cuda_SOFTMAX(s, kc, err);
}

bool kernel_cuda_SOFTMAX(CudaState *s, const KernelCall *kc, char **err)
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

/* ---- matrix products: cuBLAS ------------------------------------------- */

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

bool kernel_cuda_DENSE(CudaState *s, const KernelCall *kc, char **err)
{
	return matmul_run(s, kc, err);
}

bool kernel_cuda_BATCH_MATMUL(CudaState *s, const KernelCall *kc, char **err)
{
	return matmul_run(s, kc, err);
}

bool kernel_cuda_MATMUL(CudaState *s, const KernelCall *kc, char **err)
{
	return matmul_run(s, kc, err);
}
