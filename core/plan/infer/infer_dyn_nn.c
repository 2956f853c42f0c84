/*
 * infer_dyn_nn.c - the type relations of the dyn.* forms of nn and image
 * operators, whose sizes, scales or pad widths are tensors known only at
 * run time: dyn.nn.pad, dyn.nn.upsampling, dyn.nn.upsampling3d and
 * dyn.image.resize2d.
 *
 * As in TVM 0.14 (src/relay/op/dyn/nn/, src/relay/op/dyn/image/): the
 * result has the data's rank and layout; the dimensions the run-time
 * operands decide are `?` (every one for pad, the spatial ones for the
 * others), the rest are the data's.
 */
#include "infer_transforms.h"

#include <string.h>

/* A scalar or 1-element run-time operand (a scale); false after
 * reporting. */
static bool scalar_arg(OpTypeContext *ctx, uint32_t i, const char *what)
{
	Type *t = infer_tensor_arg(ctx, i);
	if (!t)
		return false;
	if (t->u.tensor.ndim > 1 || (t->u.tensor.ndim == 1 && t->u.tensor.dims[0] != 1)) {
		infer_op_error(ctx, "'%s' %s must be a scalar, got %s", infer_op_name(ctx), what,
			       infer_tname(ctx, t));
		return false;
	}
	return true;
}

/* x's type with the dimensions at pos[from..to) unknown. */
static Type *spatial_unknown(OpTypeContext *ctx, const Type *x, DType dt, const int *pos,
			     uint32_t from, uint32_t to)
{
	int64_t dims[5];
	memcpy(dims, x->u.tensor.dims, x->u.tensor.ndim * sizeof(int64_t));
	for (uint32_t k = from; k < to; k++)
		dims[pos[k]] = DIM_ANY;
	return infer_result(ctx, dt, x->u.tensor.ndim, dims, (Type *)x, NULL);
}

/* dyn.nn.pad(data, pad_width, pad_value, pad_mode="constant"): pad_width
 * is a [rank, 2] integer tensor; every dimension of the result is `?`. */
Type *infer_op_DYN_PAD(OpTypeContext *ctx)
{
	static const char *const modes[] = {"constant", "edge", "reflect", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *w;
	const char *mode;
	if (!x || !(w = infer_tensor_arg(ctx, 1)) || !scalar_arg(ctx, 2, "pad value") ||
	    !infer_attr_choice(ctx, "pad_mode", "constant", modes, &mode))
		return NULL;
	if (w->u.tensor.ndim != 2 || !is_int_tensor(w) ||
	    (dim_known(w->u.tensor.dims[0]) && w->u.tensor.dims[0] != x->u.tensor.ndim) ||
	    (dim_known(w->u.tensor.dims[1]) && w->u.tensor.dims[1] != 2)) {
		infer_op_error(ctx,
			       "'dyn.nn.pad' pad_width must be an integer tensor of shape (%u, 2), "
			       "got %s",
			       x->u.tensor.ndim, infer_tname(ctx, w));
		return NULL;
	}
	return unknown_tensor(ctx, x->u.tensor.dtype, x->u.tensor.ndim);
}

/* dyn.nn.upsampling(data, scale_h, scale_w, layout="NCHW",
 * method="nearest_neighbor", align_corners=False): H and W are `?`. */
Type *infer_op_DYN_UPSAMPLING(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "bilinear", "bicubic", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[4];
	const char *method;
	bool align;
	if (!x || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !scalar_arg(ctx, 1, "scale_h") || !scalar_arg(ctx, 2, "scale_w") ||
	    !infer_attr_choice(ctx, "method", "nearest_neighbor", methods, &method) ||
	    !infer_attr_bool(ctx, "align_corners", false, &align))
		return NULL;
	return spatial_unknown(ctx, x, x->u.tensor.dtype, pos, 2, 4);
}

/* dyn.nn.upsampling3d(data, scale_d, scale_h, scale_w, layout="NCDHW",
 * method="nearest_neighbor", coordinate_transformation_mode="half_pixel"):
 * D, H and W are `?`. */
Type *infer_op_DYN_UPSAMPLING3D(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "trilinear", NULL};
	static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[5];
	const char *method, *mode;
	if (!x || !infer_layout_axes(ctx, "layout", "NCDHW", x, pos) ||
	    !scalar_arg(ctx, 1, "scale_d") || !scalar_arg(ctx, 2, "scale_h") ||
	    !scalar_arg(ctx, 3, "scale_w") ||
	    !infer_attr_choice(ctx, "method", "nearest_neighbor", methods, &method) ||
	    !infer_attr_choice(ctx, "coordinate_transformation_mode", "half_pixel", modes, &mode))
		return NULL;
	return spatial_unknown(ctx, x, x->u.tensor.dtype, pos, 2, 5);
}

/* dyn.image.resize2d(data, size, roi, layout="NCHW", method="linear",
 * ..., out_dtype=""): size is a 2-element integer tensor, roi a 4-element
 * float one; H and W are `?`, the dtype is out_dtype or the data's. */
Type *infer_op_DYN_RESIZE2D(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "linear", "cubic", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *size, *roi;
	int pos[4];
	const char *method;
	DType dt;
	if (!x || !(size = infer_tensor_arg(ctx, 1)) || !(roi = infer_tensor_arg(ctx, 2)) ||
	    !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !infer_attr_choice(ctx, "method", "linear", methods, &method) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &dt))
		return NULL;
	if (size->u.tensor.ndim != 1 || !is_int_tensor(size) ||
	    (dim_known(size->u.tensor.dims[0]) && size->u.tensor.dims[0] != 2)) {
		infer_op_error(ctx,
			       "'dyn.image.resize2d' size must be a 2-element integer tensor, "
			       "got %s",
			       infer_tname(ctx, size));
		return NULL;
	}
	if (roi->u.tensor.ndim != 1 ||
	    (dim_known(roi->u.tensor.dims[0]) && roi->u.tensor.dims[0] != 4)) {
		infer_op_error(ctx, "'dyn.image.resize2d' roi must be a 4-element tensor, got %s",
			       infer_tname(ctx, roi));
		return NULL;
	}
	return spatial_unknown(ctx, x, dt, pos, 2, 4);
}
