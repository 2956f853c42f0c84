/*
 * kernels_cpu.h - what the CPU kernels of core/exec/cpu/ share.
 *
 * Only the files of this folder include it. Each family file defines the
 * kernels kernel_cpu_ID of its operators (declared below from ops.def, so a
 * kernel that no file defines is a link error) and kernels_cpu.c the
 * threads, the cpu_-prefixed helpers declared below and the table
 * kernel_cpu_launch reads. Scalar arithmetic runs once per element, so it
 * is inline here (with no linkage, it keeps its short names); element
 * access by dtype is dtype_access.h's, shared with CUDA and the tests.
 * Error strings returned through `char **err` are the caller's.
 */
#ifndef DEVPLAN_KERNELS_CPU_H
#define DEVPLAN_KERNELS_CPU_H

#include <limits.h>
#include <stdint.h>

#include "dtype_access.h"
#include "kernels.h"
#include "npy.h"
#include "util.h"

/* One kernel per operator, in the file of its family. */
#define OP(id, family, name, min_args, max_args, schema) \
	bool kernel_cpu_##id(const KernelCall *kc, char **err);
#define OP_PLAN(id, family, name, min_args, max_args, schema) /* no kernel */
#include "ops.def"
#undef OP_PLAN
#undef OP

/* GRAIN_ELEMENTWISE and GRAIN_ROWS: kernels.h */

/* CPU_CLONES before a hot loop's function: GCC compiles it for AVX-512
 * and AVX2 as well as the baseline the build targets (SSE2), and the one
 * the machine runs is picked when the program loads (target_clones, an
 * ifunc), so a loop of arithmetic (softmax's polynomial exp, a depthwise
 * filter's taps) runs 16 or 8 floats wide instead of 4. Only the vector
 * width changes: the ISO C mode's -ffp-contract=off keeps products and
 * sums apart (no FMA), so every clone gives the same bits. Elsewhere
 * (another compiler, architecture or system) it is nothing. A loop whose
 * arithmetic is defined as fused multiply-adds takes CPU_CLONES_FMA. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CPU_CLONES
#endif

/* CPU_CLONES_FMA before a loop whose arithmetic is DEFINED as fused
 * multiply-adds (an explicit fma()/fmaf(), one rounding a product and
 * sum): the direct convolutions, acc = fma(x, w, acc) in the naive order.
 * Its clones are AVX-512 and AVX with FMA ("fma"; GCC's "arch=haswell"
 * would test for that very CPU model), where the fma is one instruction,
 * and the baseline, where it is libm's correctly rounded fmaf (software:
 * slow, same bits), so here too every clone gives the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CPU_CLONES_FMA __attribute__((target_clones("avx512f", "fma", "default")))
#else
#define CPU_CLONES_FMA
#endif

/* Defines kernel_cpu_ID, the table's entry for OP_ID, as a call of the shared DRIVER. */
#define KERNEL_CPU_VIA(ID, DRIVER)                             \
	bool kernel_cpu_##ID(const KernelCall *kc, char **err) \
	{                                                      \
		return DRIVER(kc, err);                        \
	}

/* ---- messages ---------------------------------------------------------- */

/* "'OP' on the cpu does not support DTYPE" in *err; returns false. */
bool cpu_unsupported(const KernelCall *kc, DType dt, char **err);
/* A matrix dimension BLAS cannot take (over INT_MAX); returns false. */
bool cpu_too_large(const KernelCall *kc, char **err);

static inline bool fits_int(int64_t v)
{
	return v >= 0 && v <= INT_MAX;
}

/* ---- scalar arithmetic ------------------------------------------------- */

static inline int64_t iadd(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x + (uint64_t)y);
}

static inline int64_t isub(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x - (uint64_t)y);
}

static inline int64_t imul(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x * (uint64_t)y);
}

static inline int64_t idiv(int64_t x, int64_t y)
{
	if (y == 0)
		return 0;
	if (y == -1)
		return isub(0, x);
	return x / y;
}

static inline int64_t ineg(int64_t x)
{
	return isub(0, x);
}

/* Element access by dtype (cast, clip, reductions) and the saturating
 * conversions: dtype_access.h. */

/* ---- shared drivers ---------------------------------------------------- */

/* Runs f32 or f64 over [0, n) by the first input's dtype; other dtypes are unsupported. */
bool cpu_run_float(const KernelCall *kc, int64_t n, int64_t grain, KernelRangeFn f32,
		   KernelRangeFn f64, void *job, char **err);
/* c[m, n] = op(a) * op(b) with row-major leading dimensions, float32 or
 * float64 (OpenBLAS, or cpu_gemm_skinny for a narrow side). */
void cpu_gemm(DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
	      int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc);
/* C = A B with n <= GEMM_SKINNY_MAX narrow, element (i, kk) of A at
 * a[kk * lda + i], B's (kk, j) at b[kk * sbk + j * sbj], C's (i, j) at
 * c[i * sci + j * scj], float32 or float64, read where they lie
 * (gemm_skinny.c); false (nothing written) when n is not narrow or
 * the copy of B cannot be allocated. */
bool cpu_gemm_skinny(DType dt, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
		     const void *b, int64_t sbk, int64_t sbj, void *c, int64_t sci, int64_t scj);
/* The widest of cpu_gemm_skinny's kernels it may use, where the CPU has
 * it: 2 (the default) AVX-512, 1 AVX2, 0 the scalar loop (which it
 * otherwise leaves to OpenBLAS); for the tests, which check that each gives
 * the same bits. Returns the widest it will use. */
int cpu_gemm_skinny_limit(int isa);
/* Whether the first input is float32 or float64, which cpu_gemm takes; else
 * the error. */
bool cpu_blas_dtype(const KernelCall *kc, char **err);

#endif
