/*
 * infer_image.c - the type relations of the image.* operators:
 * image.resize1d/2d/3d, image.crop_and_resize, image.dilation2d,
 * image.affine_grid, image.grid_sample and the resamplings nn.upsampling
 * and nn.upsampling3d, after TVM 0.14's
 * src/relay/op/image/.
 *
 * Data layouts are permutations of NCW, NCHW or NCDHW, as TVM's relations
 * convert them to those by letter; the sizes the attributes give (size,
 * crop_size, target_shape) are required, with one value per spatial
 * dimension.
 */
#include "infer_ops.h"

#include <math.h>

/* An attribute holding exactly n positive ints (a required output size);
 * out gets them. */
static bool size_attr(OpTypeContext *ctx, const char *name, uint32_t n, int64_t *out)
{
	const AttrValue *items;
	uint32_t got;
	bool given;
	if (!infer_attr_list(ctx, name, &items, &got, &given))
		return false;
	if (!given || got != n) {
		infer_op_error(ctx, "'%s' needs a %s attribute of %u values", infer_op_name(ctx),
			       name, n);
		return false;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (items[i].u.i < 1) {
			infer_op_error(ctx, "'%s' attribute %s=%s must be positive",
				       infer_op_name(ctx), name, infer_list_text(ctx, items, n));
			return false;
		}
		out[i] = items[i].u.i;
	}
	return true;
}

/* ---- resize ------------------------------------------------------------ */

static const char *const resize_layouts[] = {NULL, "NCW", "NCHW", "NCDHW"};

/* image.resizeNd: the spatial axes of `layout` take the `size` attribute;
 * roi, when given, holds a start and an end per spatial dimension. */
static Type *infer_resize(OpTypeContext *ctx, uint32_t rank)
{
	static const char *const methods[] = {"nearest_neighbor", "linear", "cubic", NULL};
	static const char *const modes[] = {
		"half_pixel",           "align_corners",      "asymmetric", "pytorch_half_pixel",
		"tf_half_pixel_for_nn", "tf_crop_and_resize", NULL};
	static const char *const roundings[] = {
		"round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[5];
	int64_t size[3], dims[5], exclude;
	const AttrValue *roi;
	uint32_t nroi;
	bool has_roi;
	const char *method, *mode, *rounding;
	double alpha, extrapolation;
	DType out_dt;
	if (!x || !infer_layout_axes(ctx, "layout", resize_layouts[rank], x, pos) ||
	    !size_attr(ctx, "size", rank, size) ||
	    !infer_attr_choice(ctx, "method", "linear", methods, &method) ||
	    !infer_attr_choice(ctx, "coordinate_transformation_mode", "half_pixel", modes, &mode) ||
	    !infer_attr_choice(ctx, "rounding_method", "round", roundings, &rounding) ||
	    !infer_attr_number(ctx, "cubic_alpha", -0.5, &alpha) ||
	    !infer_attr_int(ctx, "cubic_exclude", 0, &exclude, NULL) ||
	    !infer_attr_number(ctx, "extrapolation_value", 0, &extrapolation) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt) ||
	    !infer_attr_numbers(ctx, "roi", &roi, &nroi, &has_roi))
		return NULL;
	if (has_roi && nroi != 2 * rank) {
		infer_op_error(ctx, "'%s' attribute roi must have %u values", infer_op_name(ctx),
			       2 * rank);
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, (rank + 2) * sizeof(int64_t));
	for (uint32_t i = 0; i < rank; i++)
		dims[pos[2 + i]] = size[i];
	return infer_result(ctx, out_dt, rank + 2, dims, x, NULL);
}

Type *infer_op_RESIZE1D(OpTypeContext *ctx)
{
	return infer_resize(ctx, 1);
}

Type *infer_op_RESIZE2D(OpTypeContext *ctx)
{
	return infer_resize(ctx, 2);
}

Type *infer_op_RESIZE3D(OpTypeContext *ctx)
{
	return infer_resize(ctx, 3);
}

/* image.crop_and_resize(data, boxes[B, 4], box_indices[B]) -> data with
 * N = B and H, W = crop_size. */
Type *infer_op_CROP_AND_RESIZE(OpTypeContext *ctx)
{
	static const char *const methods[] = {"bilinear", "nearest_neighbor", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *boxes, *index;
	int pos[4];
	int64_t crop[2], dims[4], nboxes;
	const char *method;
	double extrapolation;
	DType out_dt;
	if (!x || !(boxes = infer_tensor_arg(ctx, 1)) || !(index = infer_tensor_arg(ctx, 2)) ||
	    !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !size_attr(ctx, "crop_size", 2, crop) ||
	    !infer_attr_choice(ctx, "method", "bilinear", methods, &method) ||
	    !infer_attr_number(ctx, "extrapolation_value", 0, &extrapolation) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	if (boxes->u.tensor.ndim != 2 || !dim_match(boxes->u.tensor.dims[1], 4)) {
		infer_op_error(ctx, "'image.crop_and_resize' expects boxes of shape (B, 4), got %s",
			       infer_tname(ctx, boxes));
		return NULL;
	}
	nboxes = boxes->u.tensor.dims[0];
	if (index->u.tensor.ndim != 1 || !dim_match(index->u.tensor.dims[0], nboxes)) {
		infer_op_error(ctx,
			       "'image.crop_and_resize' expects box indices of shape (%s), got %s",
			       infer_dim_text(ctx, nboxes), infer_tname(ctx, index));
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	dims[pos[0]] = nboxes;
	dims[pos[2]] = crop[0];
	dims[pos[3]] = crop[1];
	return infer_result(ctx, out_dt, 4, dims, x, NULL);
}

/* image.dilation2d(data NCHW, weight IHW) -> (N, I, H', W'), a window of
 * the weight's extents over each channel; data_layout and kernel_layout
 * may permute those letters (NHWC and HWI), the output in the data's. */
Type *infer_op_DILATION2D(OpTypeContext *ctx)
{
	Type *d, *w;
	int64_t strides[2], dilations[2], pad[4], dims[4];
	int pd[4], pw[3];
	DType out_dt;
	if (!infer_tensor_pair(ctx, &d, &w))
		return NULL;
	if (d->u.tensor.ndim != 4 || w->u.tensor.ndim != 3) {
		infer_op_error(ctx,
			       "'image.dilation2d' expects 4-D data and 3-D weight (NCHW and IHW), "
			       "got %s and %s",
			       infer_tname(ctx, d), infer_tname(ctx, w));
		return NULL;
	}
	if (!infer_layout_axes(ctx, "data_layout", "NCHW", d, pd) ||
	    !infer_layout_axes(ctx, "kernel_layout", "IHW", w, pw) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilations", 1, 1, dilations, NULL) ||
	    !infer_attr_padding(ctx, pad))
		return NULL;
	if (!dim_match(d->u.tensor.dims[pd[1]], w->u.tensor.dims[pw[0]])) {
		infer_op_error(ctx, "'image.dilation2d' channel mismatch: data %s and weight %s",
			       infer_tname(ctx, d), infer_tname(ctx, w));
		return NULL;
	}
	dims[pd[0]] = d->u.tensor.dims[pd[0]];
	dims[pd[1]] = dim_known(w->u.tensor.dims[pw[0]]) ? w->u.tensor.dims[pw[0]]
							 : d->u.tensor.dims[pd[1]];
	if (!infer_window_extent(ctx, "height", d->u.tensor.dims[pd[2]], pad[0], pad[2],
				 w->u.tensor.dims[pw[1]], dilations[0], strides[0], false,
				 &dims[pd[2]]) ||
	    !infer_window_extent(ctx, "width", d->u.tensor.dims[pd[3]], pad[1], pad[3],
				 w->u.tensor.dims[pw[2]], dilations[1], strides[1], false,
				 &dims[pd[3]]) ||
	    !infer_same_dtype(ctx, d, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 4, dims, d, NULL);
}

/* image.affine_grid(data[B, 2, 3]) -> [B, 2, target_shape...]. */
Type *infer_op_AFFINE_GRID(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t target[2], dims[4];
	if (!x || !size_attr(ctx, "target_shape", 2, target))
		return NULL;
	if (x->u.tensor.ndim != 3 || !dim_match(x->u.tensor.dims[1], 2) ||
	    !dim_match(x->u.tensor.dims[2], 3)) {
		infer_op_error(ctx,
			       "'image.affine_grid' expects affine matrices of shape (B, 2, 3), "
			       "got %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	dims[0] = x->u.tensor.dims[0];
	dims[1] = 2;
	dims[2] = target[0];
	dims[3] = target[1];
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* image.grid_sample(data, grid): 4-D data (NCHW or a permutation) with grid
 * [N, 2, H', W'], or 5-D (NCDHW) with grid [N, 3, D', H', W']; the output
 * takes the grid's spatial extents. */
Type *infer_op_GRID_SAMPLE(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest", "bilinear", "bicubic", NULL};
	static const char *const paddings[] = {"zeros", "border", "reflection", NULL};
	Type *x, *g;
	int pos[5];
	int64_t dims[5];
	uint32_t nd, rank;
	const char *method, *padding;
	bool align;
	if (!infer_tensor_pair(ctx, &x, &g))
		return NULL;
	nd = x->u.tensor.ndim;
	if (nd != 4 && nd != 5) {
		infer_op_error(ctx, "'image.grid_sample' expects 4-D or 5-D data, got %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	rank = nd - 2;
	if (!infer_layout_axes(ctx, "layout", nd == 4 ? "NCHW" : "NCDHW", x, pos) ||
	    !infer_attr_choice(ctx, "method", "bilinear", methods, &method) ||
	    !infer_attr_choice(ctx, "padding_mode", "zeros", paddings, &padding) ||
	    !infer_attr_bool(ctx, "align_corners", true, &align))
		return NULL;
	if (g->u.tensor.ndim != nd || !dim_match(g->u.tensor.dims[1], rank) ||
	    !dim_match(g->u.tensor.dims[0], x->u.tensor.dims[pos[0]])) {
		infer_op_error(ctx,
			       "'image.grid_sample' expects a grid of shape (%s, %u, ...) for %s, "
			       "got %s",
			       infer_dim_text(ctx, x->u.tensor.dims[pos[0]]), rank,
			       infer_tname(ctx, x), infer_tname(ctx, g));
		return NULL;
	}
	if (!infer_same_dtype(ctx, x, g))
		return NULL;
	memcpy(dims, x->u.tensor.dims, nd * sizeof(int64_t));
	for (uint32_t i = 0; i < rank; i++)
		dims[pos[2 + i]] = g->u.tensor.dims[2 + i];
	return infer_result(ctx, x->u.tensor.dtype, nd, dims, x, NULL);
}

/* round(d * scale), TVM's output extent of an upsampling; `?` stays. */
static bool scaled_extent(OpTypeContext *ctx, const char *which, int64_t d, double scale,
			  int64_t *out)
{
	double v;
	if (!dim_known(d)) {
		*out = DIM_ANY;
		return true;
	}
	v = round((double)d * scale);
	if (!(v >= 0 && v < 9.0e18)) {
		infer_op_error(ctx, "'%s' output %s overflows", infer_op_name(ctx), which);
		return false;
	}
	*out = (int64_t)v;
	return true;
}

/* A scale attribute: a positive number, 1 when absent. */
static bool scale_attr(OpTypeContext *ctx, const char *name, double *out)
{
	if (!infer_attr_number(ctx, name, 1, out))
		return false;
	if (*out > 0 && isfinite(*out))
		return true;
	infer_op_error(ctx, "'%s' attribute %s=%g must be positive", infer_op_name(ctx), name,
		       *out);
	return false;
}

/* nn.upsampling: NCHW (or a permutation of it) with H and W scaled. */
Type *infer_op_UPSAMPLING(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "bilinear", "bicubic", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[4];
	double sh, sw;
	bool align;
	const char *method;
	int64_t dims[4];
	if (!x || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !scale_attr(ctx, "scale_h", &sh) || !scale_attr(ctx, "scale_w", &sw) ||
	    !infer_attr_choice(ctx, "method", "nearest_neighbor", methods, &method) ||
	    !infer_attr_bool(ctx, "align_corners", false, &align))
		return NULL;
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	if (!scaled_extent(ctx, "height", dims[pos[2]], sh, &dims[pos[2]]) ||
	    !scaled_extent(ctx, "width", dims[pos[3]], sw, &dims[pos[3]]))
		return NULL;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* nn.upsampling3d: NCDHW (or a permutation of it) with D, H and W scaled. */
Type *infer_op_UPSAMPLING3D(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "trilinear", NULL};
	static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[5];
	double sd, sh, sw;
	const char *method, *mode;
	int64_t dims[5];
	if (!x || !infer_layout_axes(ctx, "layout", "NCDHW", x, pos) ||
	    !scale_attr(ctx, "scale_d", &sd) || !scale_attr(ctx, "scale_h", &sh) ||
	    !scale_attr(ctx, "scale_w", &sw) ||
	    !infer_attr_choice(ctx, "method", "nearest_neighbor", methods, &method) ||
	    !infer_attr_choice(ctx, "coordinate_transformation_mode", "half_pixel", modes, &mode))
		return NULL;
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	if (!scaled_extent(ctx, "depth", dims[pos[2]], sd, &dims[pos[2]]) ||
	    !scaled_extent(ctx, "height", dims[pos[3]], sh, &dims[pos[3]]) ||
	    !scaled_extent(ctx, "width", dims[pos[4]], sw, &dims[pos[4]]))
		return NULL;
	return infer_result(ctx, x->u.tensor.dtype, 5, dims, x, NULL);
}
