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

#endif
