/*
 * kernels_cpu.h - what the CPU kernels of core/exec/cpu/ share.
 *
 * Only the files of this folder include it. Each family file defines the
 * kernels kernel_cpu_ID of its operators (declared below from ops.def, so a
 * kernel that no file defines is a link error) and kernels_cpu.c the
 * threads, the cpu_-prefixed helpers declared below and the table
 * kernel_cpu_launch reads. Scalar arithmetic and element access run once
 * per element, so they are inline here (with no linkage, they keep their
 * short names). Error strings returned through `char **err` are the
 * caller's.
 */
#ifndef DEVPLAN_KERNELS_CPU_H
#define DEVPLAN_KERNELS_CPU_H

#include <limits.h>
#include <stdint.h>

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

/* Work sizes (elements) below which a kernel stays on one thread. */
enum { GRAIN_ELEMENTWISE = 1 << 16, GRAIN_ROWS = 1 << 14 };

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

/* Saturating float to integer conversion (NaN gives 0). */
static inline int64_t double_to_i64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

static inline int32_t i64_to_i32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static inline int32_t double_to_i32(double v)
{
	if (v != v)
		return 0;
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

/* Saturating float to integer conversion into [lo, hi] (NaN gives 0), for
 * the integer dtypes narrower than 64 bits. */
static inline int64_t double_to_range(double v, int64_t lo, int64_t hi)
{
	if (v != v)
		return 0;
	if (v >= (double)hi)
		return hi;
	if (v <= (double)lo)
		return lo;
	return (int64_t)v;
}

static inline uint64_t double_to_u64(double v)
{
	if (v != v || v <= 0)
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

/* ---- generic element access (cast, clip, reductions) -------------------- */

/* Integer elements load as int64: uint64 ones above INT64_MAX wrap, which
 * keeps add, subtract and multiply exact modulo 2^64. */
static inline double load_double(const void *p, DType dt, int64_t i)
{
	switch (dt) {
	case DT_FLOAT32:
		return ((const float *)p)[i];
	case DT_FLOAT64:
		return ((const double *)p)[i];
	case DT_FLOAT16:
		return npy_half_to_float(((const uint16_t *)p)[i]);
	case DT_BFLOAT16:
		return npy_bfloat16_to_float(((const uint16_t *)p)[i]);
	case DT_INT8:
		return ((const int8_t *)p)[i];
	case DT_UINT8:
		return ((const uint8_t *)p)[i];
	case DT_INT16:
		return ((const int16_t *)p)[i];
	case DT_UINT16:
		return ((const uint16_t *)p)[i];
	case DT_INT32:
		return ((const int32_t *)p)[i];
	case DT_UINT32:
		return ((const uint32_t *)p)[i];
	case DT_INT64:
		return (double)((const int64_t *)p)[i];
	case DT_UINT64:
		return (double)((const uint64_t *)p)[i];
	case DT_BOOL:
		return ((const uint8_t *)p)[i];
	case DT_COUNT:
		break;
	}
	return 0;
}

static inline int64_t load_int(const void *p, DType dt, int64_t i)
{
	switch (dt) {
	case DT_INT8:
		return ((const int8_t *)p)[i];
	case DT_UINT8:
		return ((const uint8_t *)p)[i];
	case DT_INT16:
		return ((const int16_t *)p)[i];
	case DT_UINT16:
		return ((const uint16_t *)p)[i];
	case DT_INT32:
		return ((const int32_t *)p)[i];
	case DT_UINT32:
		return ((const uint32_t *)p)[i];
	case DT_INT64:
		return ((const int64_t *)p)[i];
	case DT_UINT64:
		return (int64_t)((const uint64_t *)p)[i];
	case DT_BOOL:
		return ((const uint8_t *)p)[i];
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_BFLOAT16:
		return double_to_i64(load_double(p, dt, i));
	case DT_COUNT:
		break;
	}
	return 0;
}

/* Stores v converted to dt: integers saturate, as casts from float do. */
static inline void store_double(void *p, DType dt, int64_t i, double v)
{
	switch (dt) {
	case DT_FLOAT32:
		((float *)p)[i] = (float)v;
		break;
	case DT_FLOAT64:
		((double *)p)[i] = v;
		break;
	case DT_FLOAT16:
		((uint16_t *)p)[i] = npy_float_to_half((float)v);
		break;
	case DT_BFLOAT16:
		((uint16_t *)p)[i] = npy_float_to_bfloat16((float)v);
		break;
	case DT_INT8:
		((int8_t *)p)[i] = (int8_t)double_to_range(v, INT8_MIN, INT8_MAX);
		break;
	case DT_UINT8:
		((uint8_t *)p)[i] = (uint8_t)double_to_range(v, 0, UINT8_MAX);
		break;
	case DT_INT16:
		((int16_t *)p)[i] = (int16_t)double_to_range(v, INT16_MIN, INT16_MAX);
		break;
	case DT_UINT16:
		((uint16_t *)p)[i] = (uint16_t)double_to_range(v, 0, UINT16_MAX);
		break;
	case DT_INT32:
		((int32_t *)p)[i] = double_to_i32(v);
		break;
	case DT_UINT32:
		((uint32_t *)p)[i] = (uint32_t)double_to_range(v, 0, UINT32_MAX);
		break;
	case DT_INT64:
		((int64_t *)p)[i] = double_to_i64(v);
		break;
	case DT_UINT64:
		((uint64_t *)p)[i] = double_to_u64(v);
		break;
	case DT_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	case DT_COUNT:
		break;
	}
}

/* Stores v in dt: integers wrap (keep the low bits), as C's conversions to
 * unsigned do. */
static inline void store_int(void *p, DType dt, int64_t i, int64_t v)
{
	switch (dt) {
	case DT_INT8:
		((int8_t *)p)[i] = (int8_t)(uint8_t)(uint64_t)v;
		break;
	case DT_UINT8:
		((uint8_t *)p)[i] = (uint8_t)(uint64_t)v;
		break;
	case DT_INT16:
		((int16_t *)p)[i] = (int16_t)(uint16_t)(uint64_t)v;
		break;
	case DT_UINT16:
		((uint16_t *)p)[i] = (uint16_t)(uint64_t)v;
		break;
	case DT_INT32:
		((int32_t *)p)[i] = i64_to_i32(v);
		break;
	case DT_UINT32:
		((uint32_t *)p)[i] = (uint32_t)(uint64_t)v;
		break;
	case DT_INT64:
		((int64_t *)p)[i] = v;
		break;
	case DT_UINT64:
		((uint64_t *)p)[i] = (uint64_t)v;
		break;
	case DT_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_BFLOAT16:
		store_double(p, dt, i, (double)v);
		break;
	case DT_COUNT:
		break;
	}
}

/* ---- shared drivers ---------------------------------------------------- */

/* Runs f32 or f64 over [0, n) by the first input's dtype; other dtypes are unsupported. */
bool cpu_run_float(const KernelCall *kc, int64_t n, int64_t grain, KernelRangeFn f32,
		   KernelRangeFn f64, void *job, char **err);
/* c[m, n] = op(a) * op(b) with row-major leading dimensions, float32 or
 * float64 (OpenBLAS). */
void cpu_gemm(DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
	      int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc);
/* Whether the first input is float32 or float64, which cpu_gemm takes; else
 * the error. */
bool cpu_blas_dtype(const KernelCall *kc, char **err);

#endif
