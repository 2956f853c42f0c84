/*
 * cublas_lazy.cu - cuBLAS loaded when the first GPU device opens, not at
 * process start.
 *
 * Linking libcublas pulls in cuBLASLt (over 500 MB of address space) when
 * the process starts, so under a small `ulimit -v` even `devplan --version`
 * could not start, and every session paid for a library only a GPU run
 * uses. devplan calls five cuBLAS functions; this file defines them, with
 * the header's own signatures (so the rest of the code is unchanged and the
 * linker takes these instead of the library's), and each resolves the real
 * function with dlopen/dlsym on its first call. When the library cannot be
 * loaded, cublasCreate fails with CUBLAS_STATUS_NOT_INITIALIZED and
 * cublas_lazy_error says why, which the cuda backend reports.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <cublas_v2.h>

#include "cublas_lazy.h"

/* Tried in order: the toolkit's major version, then the development name. */
static const char *const cublas_names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
static void *cublas_library;
static char cublas_why[512];

static void *cublas_symbol(const char *name)
{
	void *f;
	if (!cublas_library) {
		for (size_t i = 0; i < sizeof cublas_names / sizeof cublas_names[0]; i++)
			if ((cublas_library = dlopen(cublas_names[i], RTLD_NOW | RTLD_LOCAL)))
				break;
		if (!cublas_library) {
			const char *e = dlerror();
			snprintf(cublas_why, sizeof cublas_why,
				 "cannot load cuBLAS (%s): %s; put the CUDA libraries on "
				 "LD_LIBRARY_PATH (such as /usr/local/cuda/lib64)",
				 cublas_names[0], e ? e : "not found");
			return NULL;
		}
	}
	f = dlsym(cublas_library, name);
	if (!f)
		snprintf(cublas_why, sizeof cublas_why, "cuBLAS has no %s", name);
	return f;
}

const char *cublas_lazy_error(void)
{
	return cublas_why[0] ? cublas_why : NULL;
}

/* Each function: its pointer, resolved on first use. */
#define CUBLAS_LAZY(fn_type, name, fail_call, call)                         \
	static fn_type name##_real;                                         \
	if (!name##_real && !(name##_real = (fn_type)cublas_symbol(#name))) \
		return fail_call;                                           \
	return call

typedef cublasStatus_t (*CreateFn)(cublasHandle_t *);
typedef cublasStatus_t (*DestroyFn)(cublasHandle_t);
typedef cublasStatus_t (*SetStreamFn)(cublasHandle_t, cudaStream_t);
typedef cublasStatus_t (*SgemmBatchedFn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
					 int, int, const float *, const float *, int, long long int,
					 const float *, int, long long int, const float *, float *,
					 int, long long int, int);
typedef cublasStatus_t (*DgemmBatchedFn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
					 int, int, const double *, const double *, int,
					 long long int, const double *, int, long long int,
					 const double *, double *, int, long long int, int);

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t *handle)
{
	CUBLAS_LAZY(CreateFn, cublasCreate_v2, CUBLAS_STATUS_NOT_INITIALIZED,
		    cublasCreate_v2_real(handle));
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle)
{
	CUBLAS_LAZY(DestroyFn, cublasDestroy_v2, CUBLAS_STATUS_NOT_INITIALIZED,
		    cublasDestroy_v2_real(handle));
}

cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream)
{
	CUBLAS_LAZY(SetStreamFn, cublasSetStream_v2, CUBLAS_STATUS_NOT_INITIALIZED,
		    cublasSetStream_v2_real(handle, stream));
}

cublasStatus_t CUBLASWINAPI cublasSgemmStridedBatched(
	cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
	int k, const float *alpha, const float *A, int lda, long long int strideA, const float *B,
	int ldb, long long int strideB, const float *beta, float *C, int ldc, long long int strideC,
	int batchCount)
{
	CUBLAS_LAZY(SgemmBatchedFn, cublasSgemmStridedBatched, CUBLAS_STATUS_NOT_INITIALIZED,
		    cublasSgemmStridedBatched_real(handle, transa, transb, m, n, k, alpha, A, lda,
						   strideA, B, ldb, strideB, beta, C, ldc, strideC,
						   batchCount));
}

cublasStatus_t CUBLASWINAPI cublasDgemmStridedBatched(
	cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
	int k, const double *alpha, const double *A, int lda, long long int strideA,
	const double *B, int ldb, long long int strideB, const double *beta, double *C, int ldc,
	long long int strideC, int batchCount)
{
	CUBLAS_LAZY(DgemmBatchedFn, cublasDgemmStridedBatched, CUBLAS_STATUS_NOT_INITIALIZED,
		    cublasDgemmStridedBatched_real(handle, transa, transb, m, n, k, alpha, A, lda,
						   strideA, B, ldb, strideB, beta, C, ldc, strideC,
						   batchCount));
}
}
