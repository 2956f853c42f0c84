/*
 * prepare_image.c - decoding the attributes of the resamplings (image.resize1d/2d/3d, nn.upsampling,
 * nn.upsampling3d) as a KernelResize, and image.crop_and_resize.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

/* image.resize1d/2d/3d, nn.upsampling and nn.upsampling3d as one topi
 * resize (on failure *err says why): upsampling is resize with method bilinear/bicubic/trilinear
 * read as linear/cubic, align_corners or asymmetric coordinates (nn.
 * upsampling) or its own coordinate_transformation_mode
 * (nn.upsampling3d), and topi's default rounding. */
static bool prepare_resize(KernelCall *kc, const Expr *call, char **err)
{
	static const char *const first[] = {NULL, "NCW", "NCHW", "NCDHW"};
	static const char *const last[] = {NULL, "NWC", "NHWC", "NDHWC"};
	static const char *const methods[] = {"nearest_neighbor", "linear", "cubic", NULL};
	static const char *const upsampling_methods[] = {"nearest_neighbor", "bilinear", "bicubic",
							 NULL};
	static const char *const upsampling3d_methods[] = {"nearest_neighbor", "trilinear", NULL};
	static const char *const modes[] = {
		"half_pixel",           "align_corners",      "asymmetric", "pytorch_half_pixel",
		"tf_half_pixel_for_nn", "tf_crop_and_resize", NULL};
	static const char *const roundings[] = {
		"round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil", NULL};
	KernelResize *r = &kc->p.resize;
	OpKind op = kc->op;
	int rank = op == OP_RESIZE1D ? 1 : op == OP_RESIZE3D || op == OP_UPSAMPLING3D ? 3 : 2;
	const char *layout = attr_string(call, "layout", first[rank]), *rounding = "";
	int method, mode;
	const AttrValue *roi;
	uint32_t nroi;
	if (op == OP_UPSAMPLING)
		method = name_index(attr_string(call, "method", "nearest_neighbor"),
				    upsampling_methods);
	else if (op == OP_UPSAMPLING3D)
		method = name_index(attr_string(call, "method", "nearest_neighbor"),
				    upsampling3d_methods);
	else
		method = name_index(attr_string(call, "method", "linear"), methods);
	if (op == OP_UPSAMPLING)
		mode = attr_bool(call, "align_corners", false) ? RESIZE_ALIGN_CORNERS
							       : RESIZE_ASYMMETRIC;
	else
		mode = name_index(attr_string(call, "coordinate_transformation_mode", "half_pixel"),
				  modes);
	if (op == OP_RESIZE1D || op == OP_RESIZE2D || op == OP_RESIZE3D)
		rounding = attr_string(call, "rounding_method", "");
	if (method < 0 || mode < 0)
		goto bad;
	memset(r, 0, sizeof *r);
	r->rank = rank;
	r->method = (KernelResizeMethod)method;
	r->coordinate = (KernelResizeCoordinate)mode;
	/* topi's default: round for align_corners, else floor */
	if (!*rounding)
		rounding = mode == RESIZE_ALIGN_CORNERS ? "round" : "floor";
	if (name_index(rounding, roundings) < 0)
		goto bad;
	r->rounding = (KernelResizeRounding)name_index(rounding, roundings);
	r->cubic_alpha = (float)attr_number(call, "cubic_alpha", -0.5);
	r->cubic_exclude = attr_int(call, "cubic_exclude", 0) != 0;
	r->extrapolation = attr_number(call, "extrapolation_value", 0);
	if (strcmp(layout, first[rank]) == 0)
		r->channels_last = false;
	else if (strcmp(layout, last[rank]) == 0)
		r->channels_last = true;
	else {
		*err = xasprintf("the kernels of '%s' compute only %s or %s data, not %s", kc->name,
				 first[rank], last[rank], layout);
		return false;
	}
	if (kc->in[0].ndim != (uint32_t)rank + 2 || kc->out[0].ndim != (uint32_t)rank + 2)
		goto bad;
	r->n = kc->in[0].shape[0];
	r->c = kc->in[0].shape[r->channels_last ? rank + 1 : 1];
	for (int i = 0; i < 3; i++)
		r->in[i] = r->out[i] = 1;
	for (int i = 0; i < rank; i++) {
		int axis = r->channels_last ? 1 + i : 2 + i;
		r->in[3 - rank + i] = kc->in[0].shape[axis];
		r->out[3 - rank + i] = kc->out[0].shape[axis];
	}
	/* roi: topi reads [start, end] (1-D), [start_h, start_w, end_h,
	 * end_w] (2-D) and, reversed, [start_w, start_h, start_d, end_w,
	 * end_h, end_d] (3-D) */
	nroi = attr_list(call, "roi", &roi);
	if (nroi == 2 * (uint32_t)rank)
		for (int i = 0; i < rank; i++) {
			int dim = rank == 3 ? 2 - i : 3 - rank + i;
			const AttrValue *b = &roi[i], *e = &roi[rank + i];
			r->roi_start[dim] =
				(float)(b->kind == ATTR_FLOAT ? b->u.f : (double)b->u.i);
			r->roi_end[dim] = (float)(e->kind == ATTR_FLOAT ? e->u.f : (double)e->u.i);
		}
	return true;
bad:
	*err = xasprintf("'%s' has attributes the kernels cannot decode", kc->name);
	return false;
}

/* image.crop_and_resize as topi computes it: resize2d with tf_crop_and_resize
 * coordinates over each box's region (read by the kernels from the boxes
 * operand), bilinear (linear) or nearest_neighbor (rounded half away from
 * zero, as topi rounds with boxes), in NCHW or NHWC. */
static bool prepare_crop_and_resize(KernelCall *kc, const Expr *call, char **err)
{
	KernelResize *r = &kc->p.resize;
	const KernelTensor *x = &kc->in[0], *y = &kc->out[0];
	const char *layout = attr_string(call, "layout", "NCHW");
	const char *method = attr_string(call, "method", "bilinear");
	int h, w;
	memset(r, 0, sizeof *r);
	if (strcmp(layout, "NCHW") == 0 || strcmp(layout, "NHWC") == 0) {
		r->channels_last = layout[1] == 'H';
	} else {
		*err = xasprintf("the kernels of '%s' compute only NCHW or NHWC data, not %s",
				 kc->name, layout);
		return false;
	}
	if (x->ndim != 4 || y->ndim != 4 || kc->nin != 3) {
		*err = xasprintf("'%s' has operands the kernels cannot decode", kc->name);
		return false;
	}
	h = r->channels_last ? 1 : 2;
	w = h + 1;
	r->rank = 2;
	r->method = strcmp(method, "nearest_neighbor") == 0 ? RESIZE_NEAREST : RESIZE_LINEAR;
	r->coordinate = RESIZE_TF_CROP_AND_RESIZE;
	r->rounding = RESIZE_ROUND;
	r->extrapolation = attr_number(call, "extrapolation_value", 0);
	r->n = x->shape[0];
	r->c = x->shape[r->channels_last ? 3 : 1];
	r->in[0] = r->out[0] = 1;
	r->in[1] = x->shape[h];
	r->in[2] = x->shape[w];
	r->out[1] = y->shape[h];
	r->out[2] = y->shape[w];
	return true;
}

static bool decode_resize1d(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_resize(kc, call, err))
		return false;
	return same_out_dtype(kc, err);
}

KERNEL_PREPARE_VIA(RESIZE1D, decode_resize1d)
KERNEL_PREPARE_VIA(RESIZE2D, decode_resize1d)
KERNEL_PREPARE_VIA(RESIZE3D, decode_resize1d)
KERNEL_PREPARE_VIA(UPSAMPLING, decode_resize1d)
KERNEL_PREPARE_VIA(UPSAMPLING3D, decode_resize1d)

static bool decode_crop_and_resize(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_crop_and_resize(kc, call, err))
		return false;
	return same_out_dtype(kc, err);
}

KERNEL_PREPARE_VIA(CROP_AND_RESIZE, decode_crop_and_resize)
