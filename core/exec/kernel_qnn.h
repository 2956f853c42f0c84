/*
 * kernel_qnn.h - the arithmetic of the quantized operators, shared by the
 * CPU kernels (cpu/cpu_qnn.c) and the CUDA ones (cuda/cuda_qnn.cu) so that
 * both compute the same numbers: what TVM 0.14's canonicalization
 * (src/relay/qnn/op/quantize.cc, dequantize.cc, requantize.cc and
 * src/relay/qnn/utils.cc) lowers each operator to, element by element.
 * Header only, C and CUDA C++.
 *
 * Where TVM's lowering depends on the target it is read for a target
 * without SSE4.1 (CUDA's, and LLVM's generic one): requantize's float
 * rounding is its written-out Upward and Tonearest, not floor and round.
 * quantize's round is devplan's `round` (nearbyint, ties to even). Casts
 * of floats out of an integer dtype's range, which TVM leaves undefined,
 * saturate (NaN gives 0).
 */
#ifndef DEVPLAN_KERNEL_QNN_H
#define DEVPLAN_KERNEL_QNN_H

#include <math.h>
#include <stdint.h>

#include "dtype_access.h"
#include "kernels.h"

#ifdef __CUDACC__
#define QNN_FN __host__ __device__ static inline
#else
#define QNN_FN static inline
#endif

/* Products rounded on their own, never fused with the sum that follows
 * (nvcc fuses by default; C11 does not), as TVM's separate ops are. */
#ifdef __CUDA_ARCH__
#define QNN_FMUL(a, b) __fmul_rn(a, b)
#define QNN_DMUL(a, b) __dmul_rn(a, b)
#else
#define QNN_FMUL(a, b) ((a) * (b))
#define QNN_DMUL(a, b) ((a) * (b))
#endif

/* The channel of element i (KernelQnn's len and inner), and the index a
 * parameter of count elements reads there (a scalar or one element: 0). */
QNN_FN int64_t qnn_param_index(const KernelQnn *q, int64_t i, int64_t count)
{
	return count == 1 ? 0 : (i / q->inner) % q->len;
}

QNN_FN int64_t qnn_clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* GetQmin and GetQmax: the range of an integer dtype (of int64 for the
 * others, which the qnn relations do not let through). */
QNN_FN void qnn_range(DType dt, int64_t *lo, int64_t *hi)
{
	*lo = INT64_MIN;
	*hi = INT64_MAX;
	switch (dt) {
	case DT_INT8:
		*lo = -128;
		*hi = 127;
		break;
	case DT_UINT8:
		*lo = 0;
		*hi = 255;
		break;
	case DT_INT16:
		*lo = -32768;
		*hi = 32767;
		break;
	case DT_UINT16:
		*lo = 0;
		*hi = 65535;
		break;
	case DT_INT32:
		*lo = INT32_MIN;
		*hi = INT32_MAX;
		break;
	case DT_UINT32:
		*lo = 0;
		*hi = UINT32_MAX;
		break;
	case DT_UINT64:
		*lo = 0;
		break;
	case DT_INT64:
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_BFLOAT16:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
}

/* GetFixedPointMultiplierShift: the multiplier as a Q31 significand and a
 * power of two, significand * 2^(shift - 31). */
QNN_FN void qnn_multiplier_shift(double multiplier, int32_t *significand, int32_t *shift)
{
	int e = 0;
	double s;
	int64_t si;
	if (multiplier == 0.) {
		*significand = 0;
		*shift = 0;
		return;
	}
	s = frexp(multiplier, &e);
	si = (int64_t)round(s * (double)(1ll << 31));
	if (si == (1ll << 31)) {
		si /= 2;
		e++;
	}
	*significand = (int32_t)si;
	*shift = e;
}

/* x times significand * 2^(shift - 31) in int64 (x shifted left first by
 * a positive shift), rounded by adding half of 2^(31 + right shift), or
 * one less for a negative product (to_nearest), and cast to int32:
 * QMultiplyShift (UPWARD; the per-axis q_multiply_shift) and
 * FixedPointMultiplyToNearest (TONEAREST). Shifts past 64 bits, which TVM
 * leaves undefined, give 0. */
QNN_FN int32_t qnn_fixed_point(int32_t x, int32_t significand, int32_t shift, bool to_nearest)
{
	int ls = shift > 0 ? shift : 0, rs = shift > 0 ? 0 : -shift;
	int64_t v, half;
	if (ls > 62 || rs > 32)
		return 0;
	v = (int64_t)((uint64_t)(int64_t)x << ls);
	v = (int64_t)((uint64_t)v * (uint64_t)(int64_t)significand);
	half = (int64_t)1 << (rs + 30);
	if (to_nearest && v < 0)
		half -= 1;
	v = (int64_t)((uint64_t)v + (uint64_t)half);
	return dtype_wrap_i32(v >> (rs + 31));
}

/* tir.q_multiply_shift as TVM legalises it, for requantize's scalar scale
 * with UPWARD rounding (FixedPointMultiply): a significand of one half
 * (2^30) is a shift in int32, wrapping, rounded when to the right. */
QNN_FN int32_t qnn_q_multiply_shift(int32_t x, int32_t significand, int32_t shift)
{
	if (significand == 1 << 30) {
		int e = shift - 1;
		if (e > 31)
			return 0;
		if (e > 0)
			return (int32_t)((uint32_t)x << e);
		e = -e;
		if (e > 31)
			e = 31;
		return e == 0 ? x : (int32_t)((uint32_t)x + (1u << (e - 1))) >> e;
	}
	return qnn_fixed_point(x, significand, shift, false);
}

/* requantize's float rounding: Upward (half up, floor(x + 0.5) with the
 * sum in the compute dtype) and Tonearest (half away from zero); values
 * that are not finite pass. */
QNN_FN double qnn_round_f64(double x, int rounding)
{
	if (!isfinite(x))
		return x;
	if (rounding == KERNEL_QNN_UPWARD)
		return floor(x + 0.5);
	return x < 0 ? -trunc(-x + 0.5) : trunc(x + 0.5);
}

QNN_FN float qnn_round_f32(float x, int rounding)
{
	if (!isfinite(x))
		return x;
	if (rounding == KERNEL_QNN_UPWARD)
		return floorf(x + 0.5f);
	return x < 0 ? -truncf(-x + 0.5f) : truncf(x + 0.5f);
}

/* qnn.quantize: round(x / scale) + zero_point in float32, clipped to the
 * output dtype's range [lo, hi]. */
QNN_FN int64_t qnn_quantize(float x, float scale, int32_t zero_point, int64_t lo, int64_t hi)
{
	float v = nearbyintf(x / scale) + (float)zero_point;
	if (v != v)
		return 0;
	if (v <= (float)lo)
		return lo;
	if (v >= (float)hi)
		return hi;
	return (int64_t)v;
}

/* qnn.dequantize: (int32(x) - zero_point) in int32, as float32, times the
 * scale. */
QNN_FN float qnn_dequantize(int64_t x, float scale, int32_t zero_point)
{
	int32_t d = dtype_wrap_i32((int64_t)dtype_wrap_i32(x) - zero_point);
	return QNN_FMUL((float)d, scale);
}

/* dequantize to float16: clipped to its range before the cast. */
QNN_FN float qnn_clip_half(float v)
{
	return v < -65504.0f ? -65504.0f : v > 65504.0f ? 65504.0f : v;
}

/* qnn.requantize of one element x (int64 holds every input dtype) with its
 * channel's input scale and zero point: RequantizeLowerInt (compute_dtype
 * int64), RequantizeLowerFP<32> or <64>, saturated to [lo, hi] unless the
 * output is int32. */
QNN_FN int64_t qnn_requantize(const KernelQnn *q, int64_t x, float in_scale, int32_t in_zero,
			      float out_scale, int32_t out_zero, int64_t lo, int64_t hi)
{
	double multiplier = (double)in_scale / (double)out_scale;
	int32_t r;
	if (q->compute == KERNEL_QNN_INT64) {
		int32_t t = dtype_wrap_i32((int64_t)dtype_wrap_i32(x) - in_zero);
		if (!q->scalar_scale || in_scale != out_scale) {
			int32_t m, s;
			qnn_multiplier_shift(multiplier, &m, &s);
			if (q->rounding == KERNEL_QNN_TONEAREST)
				t = qnn_fixed_point(t, m, s, true);
			else if (q->scalar_scale)
				t = qnn_q_multiply_shift(t, m, s);
			else
				t = qnn_fixed_point(t, m, s, false);
		}
		r = dtype_wrap_i32((int64_t)t + out_zero);
	} else if (q->compute == KERNEL_QNN_FLOAT32) {
		float t = (float)x - (float)in_zero;
		t = QNN_FMUL(t, (float)multiplier) + (float)out_zero;
		r = dtype_sat_i32(qnn_round_f32(t, q->rounding));
	} else {
		double t = (double)x - (double)in_zero;
		t = QNN_DMUL(t, multiplier) + (double)out_zero;
		r = dtype_sat_i32(qnn_round_f64(t, q->rounding));
	}
	return q->out_int32 ? r : qnn_clamp(r, lo, hi);
}

/* qnn.add, qnn.subtract, qnn.mul of one output element. The operands
 * arrive as int64 with their own channels' parameters (a, sa, za and b,
 * sb, zb), the output's (so, zo); lo and hi are the dtype's range.
 * add and subtract (RequantizeOrUpcast): each operand to int32 in the
 * output's scale and zero point, by requantize (UPWARD, int64, int32 out)
 * unless its parameters are scalars equal to the output's; then their sum
 * less zo (difference plus zo), clipped. mul: (a - za) * (b - zb) in
 * int32, requantized from the scale sa * sb (in float32) and zero point 0
 * to (so, zo) and the dtype. */
QNN_FN int64_t qnn_binary(const KernelQnn *q, OpKind op, int64_t a, float sa, int32_t za, int64_t b,
			  float sb, int32_t zb, float so, int32_t zo, int64_t lo, int64_t hi)
{
	KernelQnn r = *q;
	int32_t x, y;
	r.rounding = KERNEL_QNN_UPWARD;
	r.compute = KERNEL_QNN_INT64;
	if (op == OP_QNN_MUL) {
		int32_t t;
		x = dtype_wrap_i32((int64_t)dtype_wrap_i32(a) - za);
		y = dtype_wrap_i32((int64_t)dtype_wrap_i32(b) - zb);
		t = (int32_t)((uint32_t)x * (uint32_t)y);
		r.out_int32 = false;
		return qnn_requantize(&r, t, QNN_FMUL(sa, sb), 0, so, zo, lo, hi);
	}
	r.out_int32 = true;
	r.scalar_scale = q->side_scalar[0];
	x = q->side_scalar[0] && sa == so && za == zo
		    ? dtype_wrap_i32(a)
		    : (int32_t)qnn_requantize(&r, a, sa, za, so, zo, lo, hi);
	r.scalar_scale = q->side_scalar[1];
	y = q->side_scalar[1] && sb == so && zb == zo
		    ? dtype_wrap_i32(b)
		    : (int32_t)qnn_requantize(&r, b, sb, zb, so, zo, lo, hi);
	if (op == OP_QNN_ADD)
		return qnn_clamp(dtype_wrap_i32((int64_t)dtype_wrap_i32((int64_t)x + y) - zo), lo,
				 hi);
	return qnn_clamp(dtype_wrap_i32((int64_t)dtype_wrap_i32((int64_t)x - y) + zo), lo, hi);
}

/* The flat indices into lhs (side 0) and rhs (side 1) of output element
 * i, by the broadcasting plan. */
QNN_FN int64_t qnn_operand_index(const KernelQnn *q, int side, int64_t i)
{
	int64_t at = 0;
	for (int d = (int)q->ndim - 1; d >= 0; d--) {
		at += (i % q->shape[d]) * q->stride[side][d];
		i /= q->shape[d];
	}
	return at;
}

/* The index a parameter of count elements reads for operand element j
 * of side (a scalar or one element: 0). */
QNN_FN int64_t qnn_side_param(const KernelQnn *q, int side, int64_t j, int64_t count)
{
	return count == 1 ? 0 : (j / q->side_inner[side]) % q->side_len[side];
}

/* qnn.dense and qnn.batch_matmul, output element e: the sum over k of
 * (a - za) * (b - zb), zb per column (dense's units) when nzb > 1, in
 * wrapping 64-bit arithmetic; TVM's four terms are that sum, exactly,
 * modulo the int32 it computes in. */
QNN_FN int64_t qnn_matmul_at(const KernelMatmul *m, const void *a, DType at, const void *b,
			     DType bt, int32_t za, const int32_t *zb, int64_t nzb, int64_t e)
{
	int64_t col = e % m->n, row = (e / m->n) % m->m, bi = e / (m->n * m->m);
	int64_t oa = (m->batch_a == 1 ? 0 : bi) * m->m * m->k;
	int64_t ob = (m->batch_b == 1 ? 0 : bi) * m->k * m->n;
	int64_t z = zb[nzb == 1 ? 0 : col];
	uint64_t acc = 0;
	for (int64_t k = 0; k < m->k; k++) {
		int64_t x =
			dtype_load_int(a, at, oa + (m->trans_a ? k * m->m + row : row * m->k + k));
		int64_t y =
			dtype_load_int(b, bt, ob + (m->trans_b ? col * m->k + k : k * m->n + col));
		acc += (uint64_t)(x - za) * (uint64_t)(y - z);
	}
	return (int64_t)acc;
}

/* qnn.conv2d, output element e of [n, o, oh, ow]: the sum over the
 * window of (x - zx) * (w - zw[o]) (zw scalar when nzw is 1), groups and
 * dilation as conv2d's; TVM pads the data with zx, so padding adds 0. */
QNN_FN int64_t qnn_conv2d_at(const KernelWindow *w, const void *x, DType xt, const void *k,
			     DType kt, int32_t zx, const int32_t *zw, int64_t nzw, int64_t e)
{
	int64_t ow = e % w->ow, oh = (e / w->ow) % w->oh, o = (e / (w->ow * w->oh)) % w->o;
	int64_t n = e / (w->ow * w->oh * w->o);
	int64_t cpg = w->c / w->groups, opg = w->o / w->groups, g = o / opg;
	int64_t z = zw[nzw == 1 ? 0 : o];
	uint64_t acc = 0;
	for (int64_t ic = 0; ic < cpg; ic++) {
		int64_t c = g * cpg + ic;
		for (int64_t kh = 0; kh < w->kh; kh++) {
			int64_t ih = oh * w->stride[1] - w->pad[1] + kh * w->dilation[1];
			if (ih < 0 || ih >= w->h)
				continue;
			for (int64_t kw = 0; kw < w->kw; kw++) {
				int64_t iw = ow * w->stride[2] - w->pad[2] + kw * w->dilation[2];
				int64_t xv, kv;
				if (iw < 0 || iw >= w->w)
					continue;
				xv = dtype_load_int(x, xt,
						    ((n * w->c + c) * w->h + ih) * w->w + iw) -
				     zx;
				kv = dtype_load_int(k, kt,
						    ((o * cpg + ic) * w->kh + kh) * w->kw + kw) -
				     z;
				acc += (uint64_t)xv * (uint64_t)kv;
			}
		}
	}
	return (int64_t)acc;
}

/* The float function of a qnn unary operator (TVM's
 * QNN_UNARY_OP_DEFAULT_CANONICALIZATION: dequantize, the float operator,
 * quantize to the data's dtype) on the dequantized value. TVM computes it
 * in float32 with the target's functions, which differ by target; here
 * each is computed in double and rounded to float32 once, so the CPU and
 * CUDA agree; hardswish is TVM's pattern, x * clip(x + 3, 0, 6) / 6 in
 * float32. */
QNN_FN float qnn_unary_float(OpKind op, float x)
{
	double d = x;
	if (op == OP_QNN_HARDSWISH) {
		float c = x + 3.0f;
		c = c < 0.0f ? 0.0f : c > 6.0f ? 6.0f : c;
		return QNN_FMUL(x, c) / 6.0f;
	}
	if (op == OP_QNN_TANH)
		return (float)tanh(d);
	if (op == OP_QNN_EXP)
		return (float)exp(d);
	if (op == OP_QNN_SQRT)
		return (float)sqrt(d);
	if (op == OP_QNN_RSQRT)
		return (float)(1.0 / sqrt(d));
	if (op == OP_QNN_ERF)
		return (float)erf(d);
	if (op == OP_QNN_SIGMOID)
		return (float)(1.0 / (1.0 + exp(-d)));
	if (op == OP_QNN_LOG)
		return (float)log(d);
	return x < 0 ? -x : x; /* qnn.abs */
}

/* A qnn unary operator of one element x (data, scale, zero_point,
 * output_scale, output_zero_point, all scalars), into [lo, hi]. */
QNN_FN int64_t qnn_unary(OpKind op, int64_t x, float s, int32_t z, float so, int32_t zo, int64_t lo,
			 int64_t hi)
{
	return qnn_quantize(qnn_unary_float(op, qnn_dequantize(x, s, z)), so, zo, lo, hi);
}

/* qnn.leaky_relu of one element x (QnnLeakyReluCanonicalize): x in int32
 * requantized to the output's scale and zero point (UPWARD, int64; a cast
 * where the scalar parameters agree); below the input zero point, alpha
 * times that plus (1 - alpha) times the output zero point, each a
 * FixedPointMultiply (q_multiply_shift); clipped to [lo, hi]. */
QNN_FN int64_t qnn_leaky_relu(double alpha, int64_t x, float s, int32_t z, float so, int32_t zo,
			      int64_t lo, int64_t hi)
{
	KernelQnn r;
	int32_t d = dtype_wrap_i32(x), q, m, sh, mz, shz;
	r.rounding = KERNEL_QNN_UPWARD;
	r.compute = KERNEL_QNN_INT64;
	r.scalar_scale = true;
	r.out_int32 = true;
	q = s == so && z == zo ? d : (int32_t)qnn_requantize(&r, d, s, z, so, zo, lo, hi);
	if (d < z) {
		qnn_multiplier_shift(alpha, &m, &sh);
		qnn_multiplier_shift(1 - alpha, &mz, &shz);
		q = dtype_wrap_i32((int64_t)qnn_q_multiply_shift(q, m, sh) +
				   qnn_q_multiply_shift(zo, mz, shz));
	}
	return qnn_clamp(q, lo, hi);
}

#endif
