/*
 * kernel_resize.h - the arithmetic of the resamplings, shared by the CPU
 * kernel (cpu/cpu_image.c) and the CUDA one (cuda/cuda_image.cu) so that
 * both compute the same taps: TVM 0.14's python/tvm/topi/image/resize.py
 * (get_inx, get_closest_index, _cubic_spline_weights), in float32 as topi
 * computes it.
 *
 * One spatial dimension at a time: resize_taps gives the input positions
 * an output position reads (already clamped to the image, as topi's
 * get_*_pixel clamps) and their weights; the value is the sum over every
 * dimension's taps of the products of the weights, which is topi's nested
 * lerp (linear) and its rows-then-columns cubic kernel. Header only, C and
 * CUDA C++.
 */
#ifndef DEVPLAN_KERNEL_RESIZE_H
#define DEVPLAN_KERNEL_RESIZE_H

#include <math.h>

#include "kernels.h"

#ifdef __CUDACC__
#define RESIZE_FN __host__ __device__ static inline
#else
#define RESIZE_FN static inline
#endif

typedef struct ResizeTaps {
	int n;            /* taps used: 1, 2 or 4 */
	int64_t index[4]; /* clamped input positions */
	float weight[4];
	bool outside; /* tf_crop_and_resize: the coordinate is off the image */
} ResizeTaps;

/* get_inx: the input coordinate of output position x along a dimension
 * of image input positions and target output ones. align_corners with a
 * target of 1 divides 0 by 0 in topi; here it reads position 0. */
RESIZE_FN float resize_coordinate(const KernelResize *r, int64_t x, int64_t image, int64_t target,
				  float start, float end)
{
	float fx = (float)x, scale = (float)image / (float)target;
	switch (r->coordinate) {
	case RESIZE_HALF_PIXEL:
		return (fx + 0.5f) * scale - 0.5f;
	case RESIZE_ALIGN_CORNERS:
		return target > 1 ? (float)(image - 1) / (float)(target - 1) * fx : 0.0f;
	case RESIZE_ASYMMETRIC:
		return scale * fx;
	case RESIZE_PYTORCH_HALF_PIXEL:
		return target > 1 ? (fx + 0.5f) * scale - 0.5f : 0.0f;
	case RESIZE_TF_HALF_PIXEL_FOR_NN:
		return (fx + 0.5f) * scale;
	case RESIZE_TF_CROP_AND_RESIZE:
		return target > 1 ? start * (float)(image - 1) + fx * (end - start) *
									 (float)(image - 1) /
									 (float)(target - 1)
				  : 0.5f * (start + end) * (float)(image - 1);
	}
	return 0.0f;
}

/* get_closest_index. */
RESIZE_FN int64_t resize_nearest(KernelResizeRounding rounding, float x)
{
	switch (rounding) {
	case RESIZE_ROUND:
		return (int64_t)roundf(x);
	case RESIZE_ROUND_PREFER_FLOOR:
		return (int64_t)ceilf(x - 0.5f);
	case RESIZE_ROUND_PREFER_CEIL:
		return (int64_t)floorf(x + 0.5f);
	case RESIZE_FLOOR: /* topi's epsilon against rounding errors */
		return (int64_t)floorf(x + 1e-5f);
	case RESIZE_CEIL:
		return (int64_t)ceilf(x - 1e-5f);
	}
	return 0;
}

RESIZE_FN int64_t resize_clamp(int64_t i, int64_t image)
{
	return i < 0 ? 0 : i >= image ? image - 1 : i;
}

/* The taps of output position x along spatial dimension dim (0 depth, 1
 * height, 2 width). A dimension the operator does not have reads 0. */
RESIZE_FN void resize_taps(const KernelResize *r, int dim, int64_t x, ResizeTaps *t)
{
	int64_t image = r->in[dim], target = r->out[dim], base;
	float in_x, f;
	t->outside = false;
	t->n = 0; /* every method below sets it */
	if (dim < 3 - r->rank) {
		t->n = 1;
		t->index[0] = 0;
		t->weight[0] = 1.0f;
		return;
	}
	in_x = resize_coordinate(r, x, image, target, r->roi_start[dim], r->roi_end[dim]);
	if (r->coordinate == RESIZE_TF_CROP_AND_RESIZE)
		t->outside = in_x < 0.0f || in_x > (float)(image - 1);
	switch (r->method) {
	case RESIZE_NEAREST:
		t->n = 1;
		t->index[0] = resize_clamp(resize_nearest(r->rounding, in_x), image);
		t->weight[0] = 1.0f;
		return;
	case RESIZE_LINEAR:
		base = (int64_t)floorf(in_x);
		f = in_x - (float)base;
		t->n = 2;
		t->index[0] = resize_clamp(base, image);
		t->index[1] = resize_clamp(base + 1, image);
		t->weight[0] = 1.0f - f;
		t->weight[1] = f;
		return;
	case RESIZE_CUBIC: {
		float a = r->cubic_alpha, f2, f3, sum = 0.0f;
		base = (int64_t)floorf(in_x);
		f = in_x - floorf(in_x);
		f2 = f * f;
		f3 = f * f * f;
		t->n = 4;
		t->weight[0] = a * (f3 - 2 * f2 + f);
		t->weight[1] = (a + 2) * f3 - (3 + a) * f2 + 1;
		t->weight[2] = -(a + 2) * f3 + (3 + 2 * a) * f2 - a * f;
		t->weight[3] = -a * f3 + a * f2;
		for (int i = 0; i < 4; i++) {
			t->index[i] = resize_clamp(base - 1 + i, image);
			/* topi's exclusion test, as written there */
			if (r->cubic_exclude && (base - 1 + i < 0 || base + i > image))
				t->weight[i] = 0.0f;
			sum += t->weight[i];
		}
		if (r->cubic_exclude)
			for (int i = 0; i < 4; i++)
				t->weight[i] /= sum;
		return;
	}
	}
}

#endif
