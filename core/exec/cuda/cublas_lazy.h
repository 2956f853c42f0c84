/*
 * cublas_lazy.h - why cuBLAS could not be loaded (cublas_lazy.cu), for the
 * cuda backend's error when cublasCreate fails.
 *
 * Ownership: the string is static.
 */
#ifndef DEVPLAN_CUBLAS_LAZY_H
#define DEVPLAN_CUBLAS_LAZY_H

#ifdef __cplusplus
extern "C" {
#endif

/* The reason the last cuBLAS load or lookup failed, or NULL. */
const char *cublas_lazy_error(void);

#ifdef __cplusplus
}
#endif

#endif
