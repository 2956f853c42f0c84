/*
 * random_draw.h - the seeded random values of run inputs, drawn on the
 * cpu kernels' threads (core/exec/cpu/random_draw.c).
 *
 * Both are counter-based: element i depends only on the seed and i, so the
 * values are the same whatever DEVPLAN_THREADS says and however the range
 * is split.
 */
#ifndef DEVPLAN_RANDOM_DRAW_H
#define DEVPLAN_RANDOM_DRAW_H

#include <stdbool.h>
#include <stdint.h>

/* Element i of splitmix64's sequence from seed: the state after i + 1
 * steps, mixed (npy_random's values, one after another). */
uint64_t random_splitmix64_at(uint64_t seed, int64_t i);

/* dst[i] = the float32 uniform value in [-1, 1) of element i of seed's
 * sequence: its top 24 bits times 2^-23, minus 1 (npy_random's float32). */
void random_uniform_f32(float *dst, int64_t n, uint64_t seed);

/* In place: the uniform values in [-1, 1) of a, taken as u = (a + 1) / 2
 * in [0, 1), become standard normal values by the Box-Muller transform in
 * float32 on consecutive pairs (a[2p], a[2p + 1]) =
 *   (r cos(2 pi u2), r sin(2 pi u2)),  r = sqrt(-2 log(1 - u1)),
 * the last element alone when n is odd (with u2 = 1/2), then each z
 * becomes (absolute ? |z| : z) * scale + shift. log, sin and cos are
 * polynomials good to a few ulps, the same on every machine (no fused
 * multiply-add is assumed). */
void random_normal_f32(float *a, int64_t n, float scale, float shift, bool absolute);

#endif
