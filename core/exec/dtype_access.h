/*
 * dtype_access.h - reading and writing one element of a tensor whose dtype
 * is known only at run time, and the conversions those reads and writes
 * share: the one place that turns a DType into a C type. The CPU kernels,
 * the CUDA kernels (device and host code), the qnn arithmetic, the
 * executor's host arrays and the tests all read and write elements through
 * it, so each dtype's rules are written once. Header only, C and CUDA C++;
 * every function is static inline, so a call with a constant dtype folds
 * to one load or store.
 *
 * The rules. Reads: dtype_load_double gives any element as a double
 * (int64 and uint64 beyond 2^53 rounded); dtype_load_int gives it as an
 * int64, exact for every integer dtype (uint64 above INT64_MAX wraps, which
 * keeps add, subtract and multiply exact modulo 2^64) and saturating for
 * floats. Writes: dtype_store_double saturates into an integer dtype (NaN
 * gives 0), as TVM's casts from float are read here; dtype_store_int wraps
 * (keeps the low bits), as C's conversions to unsigned do. bool reads as 0
 * or 1 and stores v != 0.
 *
 * Hot loops do not call these per element: they are specialised per dtype
 * (a switch picks a typed loop) and use the conversions below on their
 * typed values; the generic loads and stores serve the generic paths
 * (cast, clip, the reductions' general walk, qnn, tests).
 */
#ifndef DEVPLAN_DTYPE_ACCESS_H
#define DEVPLAN_DTYPE_ACCESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "npy.h"
#include "types.h"
#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define DP_HOSTDEV __host__ __device__ static inline
#else
#define DP_HOSTDEV static inline
#endif

/* ---- scalar conversions ------------------------------------------------- */

/* float to int64, saturating (NaN gives 0). */
DP_HOSTDEV int64_t dtype_sat_i64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

/* float to int32, saturating (NaN gives 0). */
DP_HOSTDEV int32_t dtype_sat_i32(double v)
{
	if (v != v)
		return 0;
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

/* float to [lo, hi], saturating (NaN gives 0), for the integer dtypes
 * narrower than 64 bits. */
DP_HOSTDEV int64_t dtype_sat_range(double v, int64_t lo, int64_t hi)
{
	if (v != v)
		return 0;
	if (v >= (double)hi)
		return hi;
	if (v <= (double)lo)
		return lo;
	return (int64_t)v;
}

/* float to uint64, saturating (NaN and negatives give 0). */
DP_HOSTDEV uint64_t dtype_sat_u64(double v)
{
	if (v != v || v <= 0)
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

/* int64 to int32 keeping the low 32 bits. */
DP_HOSTDEV int32_t dtype_wrap_i32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

/* float16 and bfloat16 bits <-> float32 (npy.c's on the host, the CUDA
 * intrinsics, which round the same way, on the device). */
DP_HOSTDEV float dtype_half_to_float(uint16_t h)
{
#ifdef __CUDA_ARCH__
	return __half2float(__ushort_as_half(h));
#else
	return npy_half_to_float(h);
#endif
}

DP_HOSTDEV uint16_t dtype_float_to_half(float f)
{
#ifdef __CUDA_ARCH__
	return __half_as_ushort(__float2half_rn(f));
#else
	return npy_float_to_half(f);
#endif
}

DP_HOSTDEV float dtype_bfloat16_to_float(uint16_t b)
{
#ifdef __CUDA_ARCH__
	return __bfloat162float(__ushort_as_bfloat16(b));
#else
	return npy_bfloat16_to_float(b);
#endif
}

DP_HOSTDEV uint16_t dtype_float_to_bfloat16(float f)
{
#ifdef __CUDA_ARCH__
	return __bfloat16_as_ushort(__float2bfloat16_rn(f));
#else
	return npy_float_to_bfloat16(f);
#endif
}

/* ---- elements ------------------------------------------------------------ */

/* Element i of (p, dt) as a double. */
DP_HOSTDEV double dtype_load_double(const void *p, DType dt, int64_t i)
{
	switch (dt) {
	case DT_FLOAT32:
		return ((const float *)p)[i];
	case DT_FLOAT64:
		return ((const double *)p)[i];
	case DT_FLOAT16:
		return dtype_half_to_float(((const uint16_t *)p)[i]);
	case DT_BFLOAT16:
		return dtype_bfloat16_to_float(((const uint16_t *)p)[i]);
	case DT_INT8:
		return ((const int8_t *)p)[i];
	case DT_UINT8:
	case DT_BOOL:
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
	case DT_COUNT:
		break;
	}
	return 0;
}

/* Element i of (p, dt) as an int64: exact for integers, floats saturate. */
DP_HOSTDEV int64_t dtype_load_int(const void *p, DType dt, int64_t i)
{
	switch (dt) {
	case DT_INT8:
		return ((const int8_t *)p)[i];
	case DT_UINT8:
	case DT_BOOL:
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
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_BFLOAT16:
		return dtype_sat_i64(dtype_load_double(p, dt, i));
	case DT_COUNT:
		break;
	}
	return 0;
}

/* Stores v converted to dt: integers saturate. */
DP_HOSTDEV void dtype_store_double(void *p, DType dt, int64_t i, double v)
{
	switch (dt) {
	case DT_FLOAT32:
		((float *)p)[i] = (float)v;
		break;
	case DT_FLOAT64:
		((double *)p)[i] = v;
		break;
	case DT_FLOAT16:
		((uint16_t *)p)[i] = dtype_float_to_half((float)v);
		break;
	case DT_BFLOAT16:
		((uint16_t *)p)[i] = dtype_float_to_bfloat16((float)v);
		break;
	case DT_INT8:
		((int8_t *)p)[i] = (int8_t)dtype_sat_range(v, INT8_MIN, INT8_MAX);
		break;
	case DT_UINT8:
		((uint8_t *)p)[i] = (uint8_t)dtype_sat_range(v, 0, UINT8_MAX);
		break;
	case DT_INT16:
		((int16_t *)p)[i] = (int16_t)dtype_sat_range(v, INT16_MIN, INT16_MAX);
		break;
	case DT_UINT16:
		((uint16_t *)p)[i] = (uint16_t)dtype_sat_range(v, 0, UINT16_MAX);
		break;
	case DT_INT32:
		((int32_t *)p)[i] = dtype_sat_i32(v);
		break;
	case DT_UINT32:
		((uint32_t *)p)[i] = (uint32_t)dtype_sat_range(v, 0, UINT32_MAX);
		break;
	case DT_INT64:
		((int64_t *)p)[i] = dtype_sat_i64(v);
		break;
	case DT_UINT64:
		((uint64_t *)p)[i] = dtype_sat_u64(v);
		break;
	case DT_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	case DT_COUNT:
		break;
	}
}

/* Stores v in dt: integers wrap (keep the low bits), floats round. */
DP_HOSTDEV void dtype_store_int(void *p, DType dt, int64_t i, int64_t v)
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
		((int32_t *)p)[i] = dtype_wrap_i32(v);
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
		dtype_store_double(p, dt, i, (double)v);
		break;
	case DT_COUNT:
		break;
	}
}

#endif
