/*
 * random_draw.c - seeded uniform and normal values for run inputs
 * (random_draw.h), on the cpu kernels' threads.
 *
 * A model's weights are hundreds of MB of them (rw_bert_base: 110 M
 * values), so the normal transform is float32 arithmetic the compiler
 * turns into vector code: a block of pairs at a time, each step a plain
 * loop without calls or branches. log is Cephes' logf (the mantissa
 * reduced to [sqrt(1/2), sqrt(2)) by integer arithmetic, then a degree 9
 * polynomial); sin and cos of 2 pi u reduce u exactly to a quadrant and
 * an angle in [-pi/4, pi/4] (u is a multiple of 2^-24, so 4u and its
 * distance to the nearest integer are exact) and use Cephes' sinf and cosf
 * polynomials there. Each result is within a few float32 ulps of the
 * same transform in double (tests/test_random.c checks it).
 */
#include <math.h>

#include "kernels_cpu.h"
#include "random_draw.h"

enum { RANDOM_GRAIN = 1 << 14, RANDOM_BLOCK = 256 };

static const uint64_t GOLDEN = 0x9E3779B97F4A7C15ull;

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint64_t random_splitmix64_at(uint64_t seed, int64_t i)
{
	return mix64(seed + ((uint64_t)i + 1) * GOLDEN);
}

typedef struct UniformJob {
	float *dst;
	uint64_t seed;
} UniformJob;

static void uniform_range(void *ctx, int64_t begin, int64_t end)
{
	const UniformJob *job = ctx;
	uint64_t state = job->seed + (uint64_t)begin * GOLDEN;
	for (int64_t i = begin; i < end; i++) {
		state += GOLDEN;
		job->dst[i] = (float)(mix64(state) >> 40) * 0x1p-23f - 1.0f;
	}
}

void random_uniform_f32(float *dst, int64_t n, uint64_t seed)
{
	UniformJob job = {dst, seed};
	kernel_parallel_for(n, RANDOM_GRAIN, uniform_range, &job);
}

typedef union FloatBits {
	float f;
	uint32_t u;
} FloatBits;

static inline uint32_t float_bits(float f)
{
	return (FloatBits){.f = f}.u;
}

static inline float bits_float(uint32_t u)
{
	return (FloatBits){.u = u}.f;
}

/* log(v) for v in (0, 1], a normal float (Cephes logf). */
static inline float log_f32(float v)
{
	uint32_t ix = float_bits(v) - 0x3f3504f3u; /* sqrt(1/2)'s bits */
	int32_t e = (int32_t)ix >> 23;             /* arithmetic: v < sqrt(1/2) gives e < 0 */
	float m = bits_float(float_bits(v) - ((uint32_t)e << 23)), fe = (float)e;
	float f = m - 1.0f, z = f * f, y;
	y = 7.0376836292e-2f;
	y = y * f - 1.1514610310e-1f;
	y = y * f + 1.1676998740e-1f;
	y = y * f - 1.2420140846e-1f;
	y = y * f + 1.4249322787e-1f;
	y = y * f - 1.6668057665e-1f;
	y = y * f + 2.0000714765e-1f;
	y = y * f - 2.4999993993e-1f;
	y = y * f + 3.3333331174e-1f;
	y = y * f * z;
	y += -2.12194440e-4f * fe;
	y += -0.5f * z;
	return f + y + 0.693359375f * fe;
}

/* (cos, sin) of 2 pi u for u in [0, 1] a multiple of 2^-24. */
static inline void sincos_turn_f32(float u, float *c_out, float *s_out)
{
	float y = 4.0f * u;              /* exact */
	int32_t q = (int32_t)(y + 0.5f); /* nearest quadrant, 0..4 */
	float r = y - (float)q;          /* exact, in [-1/2, 1/2] */
	float a = r * 1.57079632679489662f, z = a * a;
	float s = a + a * z * ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f);
	float c = 1.0f - 0.5f * z +
		  z * z *
			  ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z +
			   4.166664568298827e-2f);
	int32_t swap = q & 1;
	float sin_sign = (float)(1 - (q & 2)), cos_sign = (float)(1 - ((q + 1) & 2));
	float sq = swap ? c : s, cq = swap ? s : c;
	*s_out = sin_sign * sq;
	*c_out = cos_sign * cq;
}

typedef struct NormalJob {
	float *a;
	int64_t n;
	float scale, shift;
	bool absolute;
} NormalJob;

/* The pairs [begin, end) of job->a, all whole (2 end <= n), at most
 * RANDOM_BLOCK of them: each step a loop over the block, which the
 * compiler makes vector code. */
static void normal_block(const NormalJob *job, int64_t begin, int64_t end)
{
	float *a = job->a + 2 * begin, scale = job->scale, shift = job->shift;
	float r[RANDOM_BLOCK], c[RANDOM_BLOCK], s[RANDOM_BLOCK];
	int64_t n = end - begin;
	for (int64_t p = 0; p < n; p++)
		r[p] = sqrtf(-2.0f * log_f32(1.0f - (a[2 * p] + 1.0f) * 0.5f));
	for (int64_t p = 0; p < n; p++)
		sincos_turn_f32((a[2 * p + 1] + 1.0f) * 0.5f, &c[p], &s[p]);
	if (job->absolute)
		for (int64_t p = 0; p < n; p++) {
			a[2 * p] = fabsf(r[p] * c[p]) * scale + shift;
			a[2 * p + 1] = fabsf(r[p] * s[p]) * scale + shift;
		}
	else
		for (int64_t p = 0; p < n; p++) {
			a[2 * p] = r[p] * c[p] * scale + shift;
			a[2 * p + 1] = r[p] * s[p] * scale + shift;
		}
}

static void normal_range(void *ctx, int64_t begin, int64_t end)
{
	const NormalJob *job = ctx;
	int64_t whole = job->n / 2;
	if (end > whole) { /* the odd last element, alone with u2 = 1/2 */
		float *last = &job->a[job->n - 1], z, c, s;
		float u1 = (*last + 1.0f) * 0.5f, r = sqrtf(-2.0f * log_f32(1.0f - u1));
		sincos_turn_f32(0.5f, &c, &s);
		z = r * c;
		*last = (job->absolute ? fabsf(z) : z) * job->scale + job->shift;
		end = whole;
	}
	for (int64_t p = begin; p < end; p += RANDOM_BLOCK)
		normal_block(job, p, end - p < RANDOM_BLOCK ? end : p + RANDOM_BLOCK);
}

void random_normal_f32(float *a, int64_t n, float scale, float shift, bool absolute)
{
	NormalJob job = {a, n, scale, shift, absolute};
	kernel_parallel_for((n + 1) / 2, RANDOM_GRAIN, normal_range, &job);
}
