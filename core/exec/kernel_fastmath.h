/*
 * kernel_fastmath.h - TVM's fast_ approximations that devplan computes as
 * TVM does, shared by the CPU kernels (cpu/cpu_elementwise.c) and the CUDA
 * ones (cuda/cuda_elementwise.cu) so that both give the same numbers.
 *
 * fast_erf on float32 and float16 is TVM 0.14's fast_erf_float_expr
 * (src/tir/op/op.cc, from Eigen): the input clamped to [-4, 4] and a
 * rational function, an odd polynomial of degree 13 over an even one of
 * degree 8, in float arithmetic. Its error against erf is at most about
 * 4.3e-7 (3 to 4 ulp near 1); unlike libm's erff it has no branch or table,
 * so a loop of it vectorises. NaN stays NaN (the clamp is written so that
 * it passes NaN through, where TVM's min/max would be undefined). Header
 * only, C and CUDA C++.
 */
#ifndef DEVPLAN_KERNEL_FASTMATH_H
#define DEVPLAN_KERNEL_FASTMATH_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define FASTMATH_FN __host__ __device__ static inline
#else
#define FASTMATH_FN static inline
#endif

FASTMATH_FN float kernel_fast_erf(float x)
{
	float x2, p, q;
	x = x > 4.0f ? 4.0f : x < -4.0f ? -4.0f : x;
	x2 = x * x;
	/* the numerator: alpha_13 .. alpha_1, then times x */
	p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
	p = x2 * p + -2.10102402082508e-06f;
	p = x2 * p + -5.69250639462346e-05f;
	p = x2 * p + -7.34990630326855e-04f;
	p = x2 * p + -2.95459980854025e-03f;
	p = x2 * p + -1.60960333262415e-02f;
	p = x * p;
	/* the denominator: beta_8 .. beta_0 */
	q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
	q = x2 * q + -1.68282697438203e-03f;
	q = x2 * q + -7.37332916720468e-03f;
	q = x2 * q + -1.42647390514189e-02f;
	return p / q;
}

/* e^c for c = n ln 2 + r: r by Cody and Waite's two-part ln 2, then e^r
 * by Cephes's polynomial (kernel_expf and kernel_expf_nonpos share it, so
 * they give the same bits). */
FASTMATH_FN float expf_reduced(float c, float n)
{
	float r, p;
	r = c - n * 0.693359375f;
	r = r - n * -2.12194440e-4f;
	p = 1.9875691500e-4f;
	p = p * r + 1.3981999507e-3f;
	p = p * r + 8.3334519073e-3f;
	p = p * r + 4.1665795894e-2f;
	p = p * r + 1.6666665459e-1f;
	p = p * r + 5.0000001201e-1f;
	p = p * r * r + r + 1.0f;
	return p;
}

FASTMATH_FN float kernel_expf(float x)
{
	const float shifter = 12582912.0f; /* 1.5 * 2^23: adding it rounds to an integer */
	float c = x < -87.33654f ? -87.33654f : x > 88.72284f ? 88.72284f : x;
	float t = c * 1.44269504088896341f + shifter, n = t - shifter, p;
	union {
		float f;
		uint32_t u;
	} bits = {t}, lo, hi;
	int32_t k;
	p = expf_reduced(c, n);
	/* n (in [-126, 128]) is the low bits of t, as an integer; 2^n is
	 * 2^(n/2) 2^(n - n/2), each a normal float built in the exponent bits
	 * (in unsigned arithmetic: for a NaN x, t's bits are no such integer,
	 * the result is NaN all the same, and no signed overflow may happen) */
	k = (int32_t)(bits.u - 0x4b400000u);
	lo.u = (uint32_t)((k >> 1) + 127) << 23;
	hi.u = (uint32_t)((k - (k >> 1)) + 127) << 23;
	p = p * lo.f * hi.f;
	p = x < -87.33654f ? 0.0f : p;
	return x > 88.72284f ? (float)INFINITY : p;
}

/* kernel_expf for x <= 0 (and NaN), softmax's shifted inputs, in fewer
 * operations: no upper clamp, and 2^n (n in [-126, 0]) one normal float,
 * so one product where kernel_expf takes two, each exact but the last,
 * which rounds the same exact value: the same bits as kernel_expf
 * (test_kernel_expf compares them on a sample of every non-positive
 * float). */
FASTMATH_FN float kernel_expf_nonpos(float x)
{
	const float shifter = 12582912.0f;
	float c = x < -87.33654f ? -87.33654f : x;
	float t = c * 1.44269504088896341f + shifter, n = t - shifter, p;
	union {
		float f;
		uint32_t u;
	} bits = {t}, scale;
	p = expf_reduced(c, n);
	/* n + 127 in [1, 127] as the exponent bits (unsigned: see kernel_expf) */
	scale.u = (bits.u - 0x4b400000u + 127u) << 23;
	p = p * scale.f;
	return x < -87.33654f ? 0.0f : p;
}

/* tanh on float32 without a branch or a table, so that a loop of it
 * vectorises: for |x| < 0.625 Cephes' tanhf polynomial, x + x^3 P(x^2),
 * else 1 - 2 / (e^{2|x|} + 1) with kernel_expf, the sign of x. Measured on
 * every 7th float of [-12, 12] within 1.4 ulp of tanh; NaN stays NaN,
 * +-inf are +-1 (test_kernel_fastmath samples it). */
FASTMATH_FN float kernel_tanhf(float x)
{
	float a = x < 0.0f ? -x : x, z = x * x, p, e, big;
	p = -5.70498872745e-3f;
	p = p * z + 2.06390887954e-2f;
	p = p * z + -5.37397155531e-2f;
	p = p * z + 1.33314422036e-1f;
	p = p * z + -3.33332819422e-1f;
	p = p * z * x + x;
	p = a == 0.0f ? x : p; /* -0 stays -0 (the sum above is +0) */
	e = kernel_expf(a + a);
	big = 1.0f - 2.0f / (e + 1.0f);
	big = x < 0.0f ? -big : big;
	return a < 0.625f ? p : big;
}

/* The logistic function 1 / (1 + e^-x) with kernel_expf: measured on every
 * 7th float of [-12, 12] within 2 ulp. */
FASTMATH_FN float kernel_sigmoidf(float x)
{
	return 1.0f / (1.0f + kernel_expf(-x));
}

/* erf on float32 without a branch, a table or a divide, so that a loop of
 * it vectorises (about 50 vector instructions for 16 floats where the
 * old branch-free form, Taylor series and erfc, took 100 and a divide):
 * two polynomials, each lane picking its own. For |x| < 1, x + x P(x^2), P of degree 6 (the
 * leading x exact, so that the rounding of P's sum costs little); for
 * 1 <= |x| < 3.92 a polynomial of degree 14 in |x| - 2.46, the sign of x;
 * past 3.92, where erf rounds to 1, +-1. The coefficients are fits of
 * erf (on Chebyshev nodes, each rounded to float before the next higher
 * ones are fitted again, so that the constant terms' rounding is
 * absorbed). Measured on every float of [0, 4.5] against double erf:
 * within 1.29 ulp (at 0.9835, where x P(x^2) is largest; the build
 * compiles as ISO C, so nothing contracts to FMA); erf is odd, so
 * the negative floats mirror those. +-0 stay +-0, a tiny x gives
 * x + x 0.128 (2x / sqrt(pi) rounded), NaN stays NaN and +-inf are +-1
 * (test_kernel_erff_sweep sweeps it). */
FASTMATH_FN float kernel_erff(float x)
{
	float a = x < 0.0f ? -x : x, z = x * x, p, u, q;
	p = 7.928365085e-05f;
	p = p * z + -8.033018094e-04f;
	p = p * z + 5.190963391e-03f;
	p = p * z + -2.685522474e-02f;
	p = p * z + 1.128361970e-01f;
	p = p * z + -3.761262894e-01f;
	p = p * z + 1.283791661e-01f;
	p = x * p + x;
	/* the clamp lets NaN through: NaN > 3.92 is false */
	u = (a > 3.92f ? 3.92f : a) - 2.46f;
	q = 1.136737183e-06f;
	q = q * u + 9.486114294e-08f;
	q = q * u + -1.767010690e-05f;
	q = q * u + 2.470601248e-05f;
	q = q * u + 7.690853090e-05f;
	q = q * u + -2.996162220e-04f;
	q = q * u + 3.541386104e-04f;
	q = q * u + 4.593310587e-04f;
	q = q * u + -2.935637953e-03f;
	q = q * u + 6.799544673e-03f;
	q = q * u + -9.914868511e-03f;
	q = q * u + 9.832455777e-03f;
	q = q * u + -6.534384098e-03f;
	q = q * u + 2.656236524e-03f;
	q = q * u + 9.994966388e-01f;
	q = a >= 3.92f ? 1.0f : q;
	q = x < 0.0f ? -q : q;
	return a < 1.0f ? p : q;
}

#endif
