/*
 * kernels.c - decoding a call's attributes for the kernels.
 *
 * The type relations (core/plan/infer/) have already validated every
 * attribute and derived the result shapes, so decoding here only reads
 * them, with the same defaults as the relations (TVM's): strides and
 * dilation 1, padding 0 given as [p], [ph, pw] or [top, left, bottom,
 * right], softmax and bias_add axes -1 and 1, transpose_a and transpose_b false. What the
 * kernels cannot honour (an out_dtype different from the operands, a
 * layout other than NCHW with OIHW or IOHW weights, which the relations
 * type) is refused with an error rather than computed wrongly.
 */
#include "kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "npy.h"

KernelTensor kernel_tensor(void *data, DType dtype, uint32_t ndim, const int64_t *shape)
{
	KernelTensor t;
	t.data = data;
	t.dtype = dtype;
	t.ndim = ndim;
	t.shape = shape;
	t.count = 1;
	for (uint32_t i = 0; i < ndim; i++)
		t.count *= shape[i];
	t.nbytes = (size_t)t.count * dtype_size(dtype);
	return t;
}

/* ---- attributes ---------------------------------------------------------- */

static const AttrValue *attr_get(const Expr *call, const char *name)
{
	const Attr *a = ir_attr(call, name);
	return a && a->value.kind != ATTR_NONE ? &a->value : NULL;
}

static int64_t attr_int(const Expr *call, const char *name, int64_t dflt)
{
	const AttrValue *v = attr_get(call, name);
	if (!v)
		return dflt;
	switch (v->kind) {
	case ATTR_INT:
		return v->u.i;
	case ATTR_BOOL:
		return v->u.b;
	case ATTR_FLOAT:
		return (int64_t)v->u.f;
	case ATTR_LIST:
		return v->u.list.n == 1 && v->u.list.items[0].kind == ATTR_INT
			       ? v->u.list.items[0].u.i
			       : dflt;
	case ATTR_NONE:
	case ATTR_STRING:
	case ATTR_DEVICE:
	case ATTR_CONSTANT:
	case ATTR_META:
		break;
	}
	return dflt;
}

static bool attr_bool(const Expr *call, const char *name, bool dflt)
{
	const AttrValue *v = attr_get(call, name);
	if (v && v->kind == ATTR_BOOL)
		return v->u.b;
	if (v && v->kind == ATTR_INT)
		return v->u.i != 0;
	return dflt;
}

static double attr_number(const Expr *call, const char *name, double dflt)
{
	const AttrValue *v = attr_get(call, name);
	if (v && v->kind == ATTR_FLOAT)
		return v->u.f;
	if (v && v->kind == ATTR_INT)
		return (double)v->u.i;
	return dflt;
}

/* An int list attribute (a bare int is a list of one): its items and count;
 * 0 items when absent. */
static uint32_t attr_list(const Expr *call, const char *name, const AttrValue **items)
{
	const AttrValue *v = attr_get(call, name);
	*items = NULL;
	if (!v)
		return 0;
	if (v->kind == ATTR_INT) {
		*items = v;
		return 1;
	}
	if (v->kind == ATTR_LIST) {
		*items = v->u.list.items;
		return v->u.list.n;
	}
	return 0;
}

static bool normalize_axis(int64_t axis, uint32_t ndim, int64_t *out)
{
	if (axis < -(int64_t)ndim || axis >= (int64_t)ndim)
		return false;
	*out = axis < 0 ? axis + ndim : axis;
	return true;
}

/* [outer, len, inner] of t around axis. */
static void split_axis(const KernelTensor *t, int64_t axis, KernelAxis *a)
{
	a->axis = axis;
	a->outer = 1;
	a->inner = 1;
	for (int64_t i = 0; i < axis; i++)
		a->outer *= t->shape[i];
	a->len = t->shape[axis];
	for (uint32_t i = (uint32_t)axis + 1; i < t->ndim; i++)
		a->inner *= t->shape[i];
}

/* ---- per operator ---------------------------------------------------------- */

/* Layout attribute `name` of call is absent, empty, want or also. */
static bool layout_is(const Expr *call, const char *name, const char *want, const char *also)
{
	const AttrValue *v = attr_get(call, name);
	return !v || v->kind != ATTR_STRING || !*v->u.s || strcmp(v->u.s, want) == 0 ||
	       (also && strcmp(v->u.s, also) == 0);
}

/* The window operators: spatial rank, whether a convolution (with a weight
 * operand) or its transpose, and the layouts the kernels compute. */
typedef struct WindowOp {
	int rank;
	bool conv, transpose;
	const char *data, *kernel, *kernel_also;
} WindowOp;

static bool window_op(OpKind op, WindowOp *w)
{
	static const char *const data[] = {"NCW", "NCHW", "NCDHW"};
	static const char *const oi[] = {"OIW", "OIHW", "OIDHW"};
	static const char *const io[] = {"IOW", "IOHW", "IODHW"};
	int rank;
	bool conv = false, transpose = false;
	if (op == OP_CONV1D || op == OP_CONV2D || op == OP_CONV3D)
		conv = true;
	if (op == OP_CONV1D_TRANSPOSE || op == OP_CONV2D_TRANSPOSE || op == OP_CONV3D_TRANSPOSE)
		conv = transpose = true;
	if (op == OP_CONV1D || op == OP_CONV1D_TRANSPOSE || op == OP_MAX_POOL1D ||
	    op == OP_AVG_POOL1D || op == OP_ADAPTIVE_AVG_POOL1D || op == OP_ADAPTIVE_MAX_POOL1D)
		rank = 1;
	else if (op == OP_CONV3D || op == OP_CONV3D_TRANSPOSE || op == OP_MAX_POOL3D ||
		 op == OP_AVG_POOL3D || op == OP_ADAPTIVE_AVG_POOL3D ||
		 op == OP_ADAPTIVE_MAX_POOL3D)
		rank = 3;
	else if (op == OP_CONV2D || op == OP_CONV2D_TRANSPOSE || op == OP_MAX_POOL2D ||
		 op == OP_AVG_POOL2D || op == OP_GLOBAL_AVG_POOL2D || op == OP_GLOBAL_MAX_POOL2D ||
		 op == OP_ADAPTIVE_AVG_POOL2D || op == OP_ADAPTIVE_MAX_POOL2D)
		rank = 2;
	else
		return false;
	w->rank = rank;
	w->conv = conv;
	w->transpose = transpose;
	w->data = data[rank - 1];
	w->kernel = transpose ? io[rank - 1] : oi[rank - 1];
	/* TVM's transposed convolutions read an OI* weight as I* O* too */
	w->kernel_also = transpose ? oi[rank - 1] : NULL;
	return true;
}

/* The window kernels compute NC(D)(H)W data with OI* (or IO*) weights. */
static bool window_layouts_only(KernelCall *kc, const Expr *call, const WindowOp *wo, char **err)
{
	bool ok;
	if (wo->conv)
		ok = layout_is(call, "data_layout", wo->data, NULL) &&
		     layout_is(call, "out_layout", wo->data, NULL) &&
		     layout_is(call, "kernel_layout", wo->kernel, wo->kernel_also);
	else
		ok = layout_is(call, "layout", wo->data, NULL) &&
		     layout_is(call, "out_layout", wo->data, NULL);
	if (!ok && wo->conv)
		*err = xasprintf(
			"the kernels of '%s' compute only %s data with %s weights, not the "
			"layouts this call names",
			kc->name, wo->data, wo->kernel);
	else if (!ok)
		*err = xasprintf("the kernels of '%s' compute only %s data, not the layouts this "
				 "call names",
				 kc->name, wo->data);
	return ok;
}

static bool same_out_dtype(KernelCall *kc, char **err)
{
	if (kc->out[0].dtype == kc->in[0].dtype)
		return true;
	*err = xasprintf("'%s' with out_dtype %s on %s operands is not supported", kc->name,
			 dtype_name(kc->out[0].dtype), dtype_name(kc->in[0].dtype));
	return false;
}

/* A per-dimension attribute of a rank-dimensional window into out's last
 * rank slots (the others stay 1): one value for every dimension, or one
 * each. */
static void attr_spatial(const Expr *call, const char *name, int rank, int64_t dflt, int64_t out[3])
{
	const AttrValue *items;
	uint32_t n = attr_list(call, name, &items);
	for (int s = 0; s < 3; s++)
		out[s] = 1;
	for (int s = 0; s < rank; s++)
		out[3 - rank + s] =
			n == 0 ? dflt : items[(uint32_t)s < n ? (uint32_t)s : n - 1].u.i;
}

/* padding: one value for every side, one per dimension for both its sides,
 * or every dimension's beginning then every dimension's end. */
static void attr_window_padding(const Expr *call, int rank, int64_t pad[3], int64_t pad_end[3])
{
	const AttrValue *items;
	uint32_t n = attr_list(call, "padding", &items);
	for (int s = 0; s < 3; s++)
		pad[s] = pad_end[s] = 0;
	for (int s = 0; s < rank; s++) {
		int d = 3 - rank + s;
		if (n == 1)
			pad[d] = pad_end[d] = items[0].u.i;
		else if (n == (uint32_t)rank)
			pad[d] = pad_end[d] = items[s].u.i;
		else if (n == 2 * (uint32_t)rank) {
			pad[d] = items[s].u.i;
			pad_end[d] = items[rank + s].u.i;
		}
	}
}

static bool prepare_window(KernelCall *kc, const Expr *call, const WindowOp *wo)
{
	KernelWindow *w = &kc->p.window;
	const KernelTensor *x = &kc->in[0], *y = &kc->out[0];
	int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
	int rank = wo->rank;
	if (x->ndim != (uint32_t)rank + 2 || y->ndim != (uint32_t)rank + 2 ||
	    (wo->conv && kc->in[1].ndim != (uint32_t)rank + 2))
		return false;
	for (int s = 0; s < rank; s++) {
		in[3 - rank + s] = x->shape[2 + s];
		out[3 - rank + s] = y->shape[2 + s];
		if (wo->conv)
			k[3 - rank + s] = kc->in[1].shape[2 + s];
	}
	w->n = x->shape[0];
	w->c = x->shape[1];
	w->o = y->shape[1];
	w->d = in[0], w->h = in[1], w->w = in[2];
	w->od = out[0], w->oh = out[1], w->ow = out[2];
	if (wo->conv) {
		w->groups = attr_int(call, "groups", 1);
	} else {
		attr_spatial(call, "pool_size", rank, 1, k);
		w->groups = 1;
	}
	w->kd = k[0], w->kh = k[1], w->kw = k[2];
	attr_spatial(call, "strides", rank, 1, w->stride);
	attr_spatial(call, "dilation", rank, 1, w->dilation);
	attr_window_padding(call, rank, w->pad, w->pad_end);
	w->count_include_pad = attr_bool(call, "count_include_pad", false);
	for (int s = 0; s < 3; s++)
		if (w->stride[s] < 1 || w->dilation[s] < 1)
			return false;
	return w->groups >= 1;
}

/* ---- resampling ---- */

/* A string attribute, or dflt when absent, None or empty. */
static const char *attr_string(const Expr *call, const char *name, const char *dflt)
{
	const AttrValue *v = attr_get(call, name);
	return v && v->kind == ATTR_STRING && *v->u.s ? v->u.s : dflt;
}

/* The index of s in the NULL-terminated names, or -1. */
static int name_index(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

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

uint32_t kernel_broadcast_plan(const int64_t *out_shape, uint32_t out_ndim,
			       const int64_t *const shapes[2], const uint32_t ndims[2],
			       int64_t *shape, int64_t *const strides[2])
{
	uint32_t n = out_ndim, k = 0;
	for (int j = 0; j < 2; j++) {
		int64_t s = 1;
		/* strides of operand j for every output axis, innermost first */
		for (uint32_t i = n; i-- > 0;) {
			int64_t pos = (int64_t)i - (int64_t)(n - ndims[j]);
			if (pos < 0 || shapes[j][pos] == 1) {
				strides[j][i] = 0;
			} else {
				strides[j][i] = s;
				s *= shapes[j][pos];
			}
		}
	}
	/* drop size-1 output dimensions, merge contiguous neighbours */
	for (uint32_t i = 0; i < n; i++) {
		if (out_shape[i] == 1)
			continue;
		if (k > 0 && strides[0][k - 1] == strides[0][i] * out_shape[i] &&
		    strides[1][k - 1] == strides[1][i] * out_shape[i]) {
			shape[k - 1] *= out_shape[i];
			strides[0][k - 1] = strides[0][i];
			strides[1][k - 1] = strides[1][i];
			continue;
		}
		shape[k] = out_shape[i];
		strides[0][k] = strides[0][i];
		strides[1][k] = strides[1][i];
		k++;
	}
	if (k == 0) {
		shape[0] = 1;
		strides[0][0] = strides[1][0] = 0;
		k = 1;
	}
	return k;
}

/* KernelNorm of a normalisation; false when its axis or groups do not fit
 * the data. */
static bool prepare_norm(KernelCall *kc, const Expr *call)
{
	const KernelTensor *x = &kc->in[0];
	KernelNorm *kn = &kc->p.norm;
	OpKind op = kc->op;
	bool grouped = op == OP_INSTANCE_NORM || op == OP_GROUP_NORM;
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", op == OP_LAYER_NORM ? -1 : 1), x->ndim, &axis))
		return false;
	if (grouped && axis == 0)
		return false;
	kn->outer = kn->mid = kn->inner = 1;
	for (int64_t i = 0; i < axis; i++) {
		if (grouped && i > 0)
			kn->mid *= x->shape[i];
		else
			kn->outer *= x->shape[i];
	}
	kn->c = x->shape[axis];
	for (uint32_t i = (uint32_t)axis + 1; i < x->ndim; i++)
		kn->inner *= x->shape[i];
	kn->groups = op == OP_GROUP_NORM ? attr_int(call, "num_groups", 0) : kn->c;
	if (kn->groups <= 0 || kn->c % kn->groups != 0)
		return false;
	kn->eps = attr_number(call, "epsilon", 1e-5);
	kn->center = attr_bool(call, "center", true);
	kn->scale = attr_bool(call, "scale", true);
	return true;
}

/* The identity view of in[0] (the output has its rank), arrays in
 * kc->axes; callers then edit what their operator changes. */
static KernelView *view_init(KernelCall *kc, uint32_t ndim)
{
	const KernelTensor *in = &kc->in[0];
	KernelView *v = &kc->p.view;
	int64_t stride = 1;
	uint32_t n = ndim ? ndim : 1;
	kc->axes = xcalloc(6 * (size_t)n, sizeof(int64_t));
	v->ndim = ndim;
	v->begin = kc->axes;
	v->step = v->begin + n;
	v->div = v->step + n;
	v->mod = v->div + n;
	v->extent = v->mod + n;
	v->in_stride = v->extent + n;
	v->mode = PAD_CONSTANT;
	/* input axis j sits at output axis j + ndim - in->ndim (right-aligned) */
	for (uint32_t d = ndim; d-- > 0;) {
		int64_t j = (int64_t)d - (int64_t)(ndim - in->ndim);
		v->step[d] = 1;
		v->div[d] = 1;
		v->extent[d] = j >= 0 ? in->shape[j] : 1;
		v->in_stride[d] = j >= 0 ? stride : 0;
		if (j >= 0)
			stride *= in->shape[j];
	}
	return v;
}

static bool prepare_view(KernelCall *kc, const Expr *call)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	KernelView *v;
	const AttrValue *items;
	uint32_t n;
	int64_t axis;
	if (out->ndim < in->ndim)
		return false;
	v = view_init(kc, out->ndim);
	if (kc->op == OP_PAD || kc->op == OP_MIRROR_PAD) {
		const AttrValue *mode = attr_get(call, kc->op == OP_PAD ? "pad_mode" : "mode");
		const char *m = mode && mode->kind == ATTR_STRING ? mode->u.s
				: kc->op == OP_PAD                ? "constant"
								  : "SYMMETRIC";
		v->mode = strcmp(m, "edge") == 0                                   ? PAD_EDGE
			  : strcmp(m, "reflect") == 0 || strcmp(m, "REFLECT") == 0 ? PAD_REFLECT
			  : strcmp(m, "SYMMETRIC") == 0                            ? PAD_SYMMETRIC
										   : PAD_CONSTANT;
		n = attr_list(call, "pad_width", &items);
		if (n != in->ndim)
			return false;
		for (uint32_t d = 0; d < n; d++) {
			if (items[d].kind != ATTR_LIST || items[d].u.list.n != 2)
				return false;
			v->begin[d] = -items[d].u.list.items[0].u.i;
		}
		return true;
	}
	if (kc->op == OP_STRIDED_SLICE) {
		const AttrValue *begin, *strides, *axes;
		uint32_t nb = attr_list(call, "begin", &begin),
			 ns = attr_list(call, "strides", &strides);
		uint32_t na = attr_list(call, "axes", &axes);
		const AttrValue *mode = attr_get(call, "slice_mode");
		bool size_mode =
			mode && mode->kind == ATTR_STRING && strcmp(mode->u.s, "size") == 0;
		/* without axes, the lists cover the leading axes */
		uint32_t count = na ? na : in->ndim;
		for (uint32_t i = 0; i < count; i++) {
			int64_t stride = size_mode || i >= ns ? 1 : strides[i].u.i, b;
			axis = i;
			if (na && !normalize_axis(axes[i].u.i, in->ndim, &axis))
				return false;
			if (stride == 0)
				return false;
			b = i < nb ? begin[i].u.i : stride > 0 ? 0 : INT64_MAX;
			v->begin[axis] = op_slice_canonical(b, in->shape[axis], stride);
			v->step[axis] = stride;
		}
		return true;
	}
	if (kc->op == OP_REPEAT || kc->op == OP_REVERSE) {
		if (!normalize_axis(attr_int(call, "axis", 0), in->ndim, &axis))
			return false;
		if (kc->op == OP_REVERSE) {
			v->begin[axis] = in->shape[axis] - 1;
			v->step[axis] = -1;
			return true;
		}
		v->div[axis] = attr_int(call, "repeats", 1);
		return v->div[axis] > 0;
	}
	if (kc->op == OP_TILE) {
		/* an axis tiles its input's extent; the new leading ones read it once */
		for (uint32_t d = 0; d < out->ndim; d++)
			v->mod[d] = v->extent[d];
		return true;
	}
	/* broadcast_to: an axis of extent 1 reads its one element throughout */
	for (uint32_t d = 0; d < out->ndim; d++)
		if (v->extent[d] == 1)
			v->step[d] = 0;
	return true;
}

static KernelReduce reduce_kind(OpKind op)
{
	static const struct {
		OpKind op;
		KernelReduce kind;
	} kinds[] = {{OP_SUM, REDUCE_SUM},       {OP_MEAN, REDUCE_MEAN},
		     {OP_PROD, REDUCE_PROD},     {OP_MAX, REDUCE_MAX},
		     {OP_MIN, REDUCE_MIN},       {OP_ALL, REDUCE_ALL},
		     {OP_ANY, REDUCE_ANY},       {OP_ARGMAX, REDUCE_ARGMAX},
		     {OP_ARGMIN, REDUCE_ARGMIN}, {OP_VARIANCE, REDUCE_VARIANCE}};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].op == op)
			return kinds[i].kind;
	return REDUCE_SUM;
}

static bool prepare_take(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *data = &kc->in[0], *indices = &kc->in[1];
	const AttrValue *axis_attr = attr_get(call, "axis");
	const char *mode = NULL;
	const AttrValue *mode_attr = attr_get(call, "mode");
	KernelTake *t = &kc->p.take;
	int64_t axis, batch_dims = attr_int(call, "batch_dims", 0);
	if (mode_attr && mode_attr->kind == ATTR_STRING)
		mode = mode_attr->u.s;
	t->mode = !mode || strcmp(mode, "clip") == 0 ? TAKE_CLIP
		  : strcmp(mode, "wrap") == 0        ? TAKE_WRAP
						     : TAKE_FAST;
	t->batch = t->outer = t->inner = 1;
	if (!axis_attr || axis_attr->kind == ATTR_NONE) {
		t->len = data->count;
		t->count = indices->count;
	} else {
		if (!normalize_axis(axis_attr->u.i, data->ndim, &axis))
			goto bad;
		if (batch_dims < 0)
			batch_dims += indices->ndim;
		if (batch_dims < 0 || batch_dims > axis || batch_dims > (int64_t)indices->ndim)
			goto bad;
		for (int64_t i = 0; i < batch_dims; i++)
			t->batch *= data->shape[i];
		for (int64_t i = batch_dims; i < axis; i++)
			t->outer *= data->shape[i];
		t->len = data->shape[axis];
		for (uint32_t i = (uint32_t)axis + 1; i < data->ndim; i++)
			t->inner *= data->shape[i];
		t->count = 1;
		for (uint32_t i = (uint32_t)batch_dims; i < indices->ndim; i++)
			t->count *= indices->shape[i];
	}
	if (dtype_is_float(indices->dtype)) {
		*err = xasprintf("'take' needs integer indices, not %s",
				 dtype_name(indices->dtype));
		return false;
	}
	if (t->len == 0 && kc->out[0].count > 0) {
		*err = xasprintf("'take' from an empty axis");
		return false;
	}
	return true;
bad:
	*err = xasprintf("'take' has an axis or batch_dims outside its operands");
	return false;
}

/* KernelGather of gather, gather_nd, scatter_elements or scatter_nd (the
 * relations have checked ranks and the nd forms' shapes). */
/* sparse_to_dense(indices, values, default_value): TVM's topi takes
 * indices of rank 0, 1 or 2 (a [tuples, width] 2-D one, width at most the
 * output's rank) and a scalar or one value per tuple. */
static bool prepare_sparse(KernelCall *kc, char **err)
{
	const KernelTensor *idx = &kc->in[0], *values = &kc->in[1], *dflt = &kc->in[2];
	const KernelTensor *out = &kc->out[0];
	KernelSparse *s = &kc->p.sparse;
	s->tuples = idx->ndim == 0 ? 1 : idx->shape[0];
	s->width = idx->ndim == 2 ? idx->shape[1] : 1;
	if (dtype_is_float(idx->dtype) || idx->ndim > 2) {
		*err = xasprintf("'%s' needs integer indices of rank 0, 1 or 2, got %s of rank %u",
				 kc->name, dtype_name(idx->dtype), idx->ndim);
		return false;
	}
	if (out->ndim == 0 || out->ndim > KERNEL_GATHER_MAX_NDIM || s->width > out->ndim) {
		*err = xasprintf("'%s' indices of %lld coordinates do not address an output of "
				 "rank %u (1 to %d)",
				 kc->name, (long long)s->width, out->ndim, KERNEL_GATHER_MAX_NDIM);
		return false;
	}
	if (values->ndim > 1 || (values->ndim == 1 && values->shape[0] != s->tuples) ||
	    dflt->ndim != 0 || values->dtype != out->dtype || dflt->dtype != out->dtype) {
		*err = xasprintf("'%s' needs a scalar or one value per index (%lld) and a scalar "
				 "default, both %s",
				 kc->name, (long long)s->tuples, dtype_name(out->dtype));
		return false;
	}
	s->values_step = values->ndim == 1 ? 1 : 0;
	s->inner = 1;
	for (uint32_t d = 0; d < out->ndim; d++) {
		if ((int64_t)d < s->width)
			s->extent[d] = out->shape[d];
		else
			s->inner *= out->shape[d];
	}
	return true;
}

static bool prepare_gather(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *data = &kc->in[0], *indices = &kc->in[1];
	KernelGather *g = &kc->p.gather;
	OpKind op = kc->op;
	const AttrValue *mode = attr_get(call, op == OP_SCATTER_ND ? "mode" : "reduction");
	static const char *const modes[] = {
		[SCATTER_UPDATE] = "update", [SCATTER_ADD] = "add", [SCATTER_MUL] = "mul",
		[SCATTER_MEAN] = "mean",     [SCATTER_MIN] = "min", [SCATTER_MAX] = "max"};
	bool empty = false;
	g->mode = SCATTER_UPDATE;
	if (mode && mode->kind == ATTR_STRING)
		for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
			if (strcmp(mode->u.s, modes[i]) == 0)
				g->mode = (KernelScatterMode)i;
	if (dtype_is_float(indices->dtype)) {
		*err = xasprintf("'%s' needs integer indices, not %s", kc->name,
				 dtype_name(indices->dtype));
		return false;
	}
	if (op == OP_GATHER || op == OP_SCATTER_ELEMENTS) {
		int64_t stride = 1;
		if (data->ndim > KERNEL_GATHER_MAX_NDIM || indices->ndim != data->ndim ||
		    !normalize_axis(attr_int(call, "axis", 0), data->ndim, &g->axis)) {
			*err = xasprintf("'%s' runs on indices of its data's rank, at most %d",
					 kc->name, KERNEL_GATHER_MAX_NDIM);
			return false;
		}
		g->ndim = data->ndim;
		g->len = data->shape[g->axis];
		for (uint32_t d = data->ndim; d-- > 0;) {
			g->shape[d] = indices->shape[d];
			g->stride[d] = stride;
			stride *= data->shape[d];
		}
		if (op == OP_SCATTER_ELEMENTS) {
			const KernelTensor *updates = &kc->in[2];
			bool fits = updates->ndim == indices->ndim;
			for (uint32_t d = 0; fits && d < data->ndim; d++)
				fits = updates->shape[d] == indices->shape[d] &&
				       ((int64_t)d == g->axis ||
					indices->shape[d] <= data->shape[d]);
			if (!fits) {
				*err = xasprintf("'scatter_elements' needs updates shaped like its "
						 "indices, and indices no larger than the data "
						 "outside the axis");
				return false;
			}
		}
		empty = g->len == 0 && indices->count > 0;
	} else {
		int64_t batch_dims = op == OP_GATHER_ND ? attr_int(call, "batch_dims", 0) : 0,
			batch = 1;
		g->m = indices->shape[0];
		if (g->m > KERNEL_GATHER_MAX_NDIM || batch_dims < 0 ||
		    batch_dims + g->m > (int64_t)data->ndim) {
			*err = xasprintf("'%s' indexes at most %d dimensions of its data", kc->name,
					 KERNEL_GATHER_MAX_NDIM);
			return false;
		}
		g->tuples = 1;
		for (uint32_t i = 1; i < indices->ndim; i++) {
			g->tuples *= indices->shape[i];
			if ((int64_t)i <= batch_dims)
				batch *= indices->shape[i];
		}
		g->per_batch = batch > 0 ? g->tuples / batch : 1;
		g->inner = 1;
		for (int64_t l = 0; l < g->m; l++) {
			g->extent[l] = data->shape[batch_dims + l];
			empty |= g->extent[l] == 0;
		}
		for (uint32_t d = (uint32_t)(batch_dims + g->m); d < data->ndim; d++)
			g->inner *= data->shape[d];
		empty = empty && g->tuples > 0 && g->inner > 0;
	}
	if (empty) {
		*err = xasprintf("'%s' indexes an empty axis", kc->name);
		return false;
	}
	return true;
}

/* One layout string (the relation has checked it): per axis its letter's
 * index (0 for a or A) and whether it is subordinate; per letter the
 * subordinate's factor, 1 without one. */
typedef struct LayoutAxes {
	uint32_t n;
	int letter[KERNEL_GATHER_MAX_NDIM];
	bool sub[KERNEL_GATHER_MAX_NDIM];
	int64_t split[26];
} LayoutAxes;

static bool layout_axes(const char *s, LayoutAxes *l)
{
	l->n = 0;
	for (int i = 0; i < 26; i++)
		l->split[i] = 1;
	while (*s) {
		int64_t f = 0;
		while (*s >= '0' && *s <= '9')
			f = f * 10 + (*s++ - '0');
		if (l->n >= KERNEL_GATHER_MAX_NDIM ||
		    !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
			return false;
		l->letter[l->n] = (*s | 0x20) - 'a';
		l->sub[l->n] = *s >= 'a';
		if (l->sub[l->n])
			l->split[l->letter[l->n]] = f;
		l->n++;
		s++;
	}
	return true;
}

static bool prepare_layout(KernelCall *kc, const Expr *call, char **err)
{
	const AttrValue *src = attr_get(call, "src_layout"), *dst = attr_get(call, "dst_layout");
	KernelLayout *k = &kc->p.layout;
	LayoutAxes in, out;
	int64_t stride = 1;
	if (!src || !dst || src->kind != ATTR_STRING || dst->kind != ATTR_STRING ||
	    !layout_axes(src->u.s, &in) || !layout_axes(dst->u.s, &out) || in.n != kc->in[0].ndim ||
	    out.n != kc->out[0].ndim) {
		*err = xasprintf("'layout_transform' runs layouts of at most %d axes",
				 KERNEL_GATHER_MAX_NDIM);
		return false;
	}
	k->in_ndim = in.n;
	k->out_ndim = out.n;
	for (uint32_t d = 0; d < out.n; d++) {
		k->out_shape[d] = kc->out[0].shape[d];
		k->out_slot[d] = out.letter[d];
		k->out_mult[d] = out.sub[d] ? 1 : out.split[out.letter[d]];
	}
	for (uint32_t j = in.n; j-- > 0;) {
		k->in_slot[j] = in.letter[j];
		k->in_div[j] = in.sub[j] ? 1 : in.split[in.letter[j]];
		k->in_mod[j] = in.sub[j] ? in.split[in.letter[j]] : 0;
		k->in_stride[j] = stride;
		stride *= kc->in[0].shape[j];
	}
	return true;
}

/* ---- the arrange family, nn.l2_normalize, nn.lrn ---------------------------- */

static int64_t saturate(double v, double lo, double hi)
{
	if (v != v)
		return 0;
	if (v <= lo)
		return (int64_t)lo;
	if (v >= hi)
		return hi >= 9223372036854775807.0 ? INT64_MAX : (int64_t)hi;
	return (int64_t)v;
}

uint64_t kernel_scalar_bits(DType dt, double v)
{
	float f = (float)v;
	uint32_t u32;
	uint64_t u64;
	switch (dt) {
	case DT_FLOAT32:
		memcpy(&u32, &f, sizeof u32);
		return u32;
	case DT_FLOAT64:
		memcpy(&u64, &v, sizeof u64);
		return u64;
	case DT_FLOAT16:
		return npy_float_to_half(f);
	case DT_BFLOAT16:
		return npy_float_to_bfloat16(f);
	case DT_INT8:
		return (uint8_t)saturate(v, INT8_MIN, INT8_MAX);
	case DT_UINT8:
		return (uint8_t)saturate(v, 0, UINT8_MAX);
	case DT_INT16:
		return (uint16_t)saturate(v, INT16_MIN, INT16_MAX);
	case DT_UINT16:
		return (uint16_t)saturate(v, 0, UINT16_MAX);
	case DT_INT32:
		return (uint32_t)saturate(v, INT32_MIN, INT32_MAX);
	case DT_UINT32:
		return (uint32_t)saturate(v, 0, UINT32_MAX);
	case DT_INT64:
		return (uint64_t)saturate(v, -9223372036854775808.0, 9223372036854775807.0);
	case DT_UINT64:
		if (v != v || v <= 0)
			return 0;
		return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
	case DT_BOOL:
		return v != 0;
	case DT_COUNT:
		break;
	}
	return 0;
}

/* Element strides of t (row-major). */
static void element_strides(const KernelTensor *t, int64_t *strides)
{
	int64_t st = 1;
	for (uint32_t i = t->ndim; i-- > 0;) {
		strides[i] = st;
		st *= t->shape[i];
	}
}

/* nn.l2_normalize's KernelSplit: the axes listed reduced, size-1 axes
 * dropped; without an axis attribute (None) every axis, as topi's
 * undefined axis, and with an empty list none. */
static bool prepare_split(KernelCall *kc, const Expr *call)
{
	const KernelTensor *x = &kc->in[0];
	KernelSplit *sp = &kc->p.split;
	const AttrValue *items;
	uint32_t n = attr_list(call, "axis", &items);
	bool reduced[KERNEL_GATHER_MAX_NDIM];
	int64_t strides[KERNEL_GATHER_MAX_NDIM];
	if (x->ndim > KERNEL_GATHER_MAX_NDIM)
		return false;
	for (uint32_t i = 0; i < x->ndim; i++)
		reduced[i] = !attr_get(call, "axis");
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis;
		if (!normalize_axis(items[i].u.i, x->ndim, &axis))
			return false;
		reduced[axis] = true;
	}
	element_strides(x, strides);
	memset(sp, 0, sizeof *sp);
	sp->red_count = 1;
	for (uint32_t i = 0; i < x->ndim; i++) {
		if (x->shape[i] == 1)
			continue;
		if (reduced[i]) {
			sp->red_shape[sp->nred] = x->shape[i];
			sp->red_stride[sp->nred++] = strides[i];
			sp->red_count *= x->shape[i];
		} else {
			sp->kept_shape[sp->nkept] = x->shape[i];
			sp->kept_stride[sp->nkept++] = strides[i];
		}
	}
	sp->eps = attr_number(call, "eps", 0);
	return true;
}

/* KernelArrange of an arrange operator; false when its attributes do not
 * fit the operands (with *err when there is more to say). */
static bool prepare_arrange(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *x = &kc->in[0], *y = &kc->out[0];
	KernelArrange *a = &kc->p.arrange;
	int64_t strides[KERNEL_GATHER_MAX_NDIM];
	memset(a, 0, sizeof *a);
	if (kc->op == OP_DILATE) {
		const AttrValue *items;
		uint32_t n = attr_list(call, "strides", &items);
		if (x->ndim > KERNEL_GATHER_MAX_NDIM || y->ndim != x->ndim) {
			*err = xasprintf("'nn.dilate' runs at most %d dimensions",
					 KERNEL_GATHER_MAX_NDIM);
			return false;
		}
		a->ndim = x->ndim;
		element_strides(x, a->in_stride);
		for (uint32_t d = 0; d < x->ndim; d++) {
			a->out_shape[d] = y->shape[d];
			a->stride[d] = n == 0 ? 1 : items[d < n ? d : n - 1].u.i;
			if (a->stride[d] < 1)
				return false;
		}
		a->fill_bits = kernel_scalar_bits(y->dtype, attr_number(call, "dilation_value", 0));
		return true;
	}
	if (kc->op == OP_SEQUENCE_MASK || kc->op == OP_REVERSE_SEQUENCE) {
		bool mask = kc->op == OP_SEQUENCE_MASK;
		int64_t seq, batch;
		if (x->ndim > KERNEL_GATHER_MAX_NDIM || x->ndim < 1)
			return false;
		if (mask) {
			seq = attr_int(call, "axis", 0);
			batch = 1 - seq;
		} else if (!normalize_axis(attr_int(call, "seq_axis", 1), x->ndim, &seq) ||
			   !normalize_axis(attr_int(call, "batch_axis", 0), x->ndim, &batch)) {
			return false;
		}
		if (seq < 0 || seq >= (int64_t)x->ndim || batch < 0 || batch >= (int64_t)x->ndim ||
		    kc->in[1].count != x->shape[batch])
			return false;
		element_strides(x, strides);
		a->len = x->shape[seq];
		a->len_stride = strides[seq];
		a->batch = x->shape[batch];
		a->batch_stride = strides[batch];
		if (mask)
			a->fill_bits =
				kernel_scalar_bits(y->dtype, attr_number(call, "mask_value", 0));
		return true;
	}
	if (kc->op == OP_TRILU || kc->op == OP_MATRIX_SET_DIAG) {
		if (x->ndim < 2)
			return false;
		a->rows = x->shape[x->ndim - 2];
		a->cols = x->shape[x->ndim - 1];
		if (kc->op == OP_TRILU) {
			a->flag = attr_bool(call, "upper", true);
			return true;
		}
		a->k1 = attr_int(call, "k1", 0);
		a->k2 = attr_int(call, "k2", 0);
		a->flag = attr_bool(call, "super_diag_right_align", true);
		a->flag2 = attr_bool(call, "sub_diag_right_align", false);
		a->diag_len = kc->in[1].shape[kc->in[1].ndim - 1];
		return a->k1 <= a->k2;
	}
	if (kc->op == OP_MESHGRID) {
		const char *indexing = attr_string(call, "indexing", "ij");
		a->flag = strcmp(indexing, "xy") == 0 && kc->nin >= 2;
		return kc->nout == kc->nin;
	}
	if (kc->op == OP_SEARCHSORTED) {
		const KernelTensor *seq = &kc->in[0], *v = &kc->in[1];
		if (seq->ndim < 1 || v->ndim < 1)
			return false;
		a->len = seq->shape[seq->ndim - 1];
		a->n = v->shape[v->ndim - 1];
		a->outer = seq->ndim == 1 ? 0 : seq->count / (a->len ? a->len : 1);
		a->flag = attr_bool(call, "right", false);
		return true;
	}
	if (kc->op == OP_SPACE_TO_BATCH_ND || kc->op == OP_BATCH_TO_SPACE_ND) {
		static const AttrValue one = {.kind = ATTR_INT, .u.i = 1};
		bool to_batch = kc->op == OP_SPACE_TO_BATCH_ND;
		const AttrValue *block, *pads;
		uint32_t m = attr_list(call, "block_shape", &block),
			 np = attr_list(call, to_batch ? "paddings" : "crops", &pads);
		if (m == 0) {
			/* TVM's default block_shape [1, 1] */
			block = NULL;
			m = 2;
		}
		if (m > KERNEL_GATHER_MAX_NDIM || x->ndim < m + 1 || y->ndim != x->ndim)
			return false;
		a->ndim = m;
		a->batch = to_batch ? x->shape[0] : y->shape[0];
		a->n = 1;
		for (uint32_t d = m + 1; d < x->ndim; d++)
			a->n *= x->shape[d];
		for (uint32_t k = 0; k < m; k++) {
			const AttrValue *b = block ? &block[k] : &one;
			a->block[k] = b->u.i;
			a->in_space[k] = x->shape[1 + k];
			a->out_shape[k] = y->shape[1 + k];
			a->before[k] = k < np && pads[k].kind == ATTR_LIST && pads[k].u.list.n == 2
					       ? pads[k].u.list.items[0].u.i
					       : 0;
			if (a->block[k] < 1)
				return false;
		}
		if (to_batch)
			a->fill_bits =
				kernel_scalar_bits(y->dtype, attr_number(call, "pad_value", 0));
		return true;
	}
	/* invert_permutation and unravel_index read their operands only */
	return kc->op == OP_INVERT_PERMUTATION || kc->op == OP_UNRAVEL_INDEX;
}

bool kernel_dtype_checked_at_launch(DType dtype)
{
	switch (dtype) {
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
		return true;
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return false;
}

/* ---- quantized operators ---- */

/* qnn.add, qnn.subtract, qnn.mul: the broadcasting plan and each
 * operand's channel axis; mul with per-channel scales needs lhs_axis and
 * rhs_axis to agree, as TVM's lowering does. */
static bool prepare_qnn_binary(KernelCall *kc, const Expr *call, char **err)
{
	KernelQnn *q = &kc->p.qnn;
	const KernelTensor *out = &kc->out[0];
	const int64_t *shapes[2] = {kc->in[0].shape, kc->in[1].shape};
	uint32_t nds[2] = {kc->in[0].ndim, kc->in[1].ndim}, k;
	int64_t *shape = xmalloc((out->ndim + 1) * sizeof(int64_t));
	int64_t *st[2] = {xmalloc((out->ndim + 1) * sizeof(int64_t)),
			  xmalloc((out->ndim + 1) * sizeof(int64_t))};
	static const char *const axis_names[2] = {"lhs_axis", "rhs_axis"};
	int64_t axes[2];
	k = kernel_broadcast_plan(out->shape, out->ndim, shapes, nds, shape, st);
	if (k <= KERNEL_QNN_MAX_NDIM) {
		q->ndim = k;
		for (uint32_t i = 0; i < k; i++) {
			q->shape[i] = shape[i];
			q->stride[0][i] = st[0][i];
			q->stride[1][i] = st[1][i];
		}
	}
	free(shape);
	free(st[0]);
	free(st[1]);
	if (k > KERNEL_QNN_MAX_NDIM) {
		*err = xasprintf("'%s' broadcasts over more than %d dimensions", kc->name,
				 KERNEL_QNN_MAX_NDIM);
		return false;
	}
	for (int side = 0; side < 2; side++) {
		const KernelTensor *x = &kc->in[side];
		int64_t axis = attr_int(call, axis_names[side], -1);
		axes[side] = axis;
		q->side_len[side] = 1;
		q->side_inner[side] = 1;
		if (x->ndim > 0 && normalize_axis(axis, x->ndim, &axis)) {
			KernelAxis a;
			split_axis(x, axis, &a);
			q->side_len[side] = a.len;
			q->side_inner[side] = a.inner;
		}
		q->side_scalar[side] =
			kc->in[2 + 2 * side].ndim == 0 && kc->in[3 + 2 * side].ndim == 0;
	}
	q->scalar_scale = kc->in[2].ndim == 0 && kc->in[4].ndim == 0;
	if (kc->op == OP_QNN_MUL && !q->scalar_scale && axes[0] != axes[1]) {
		*err = xasprintf(
			"'%s' with per-channel scales needs lhs_axis and rhs_axis to agree "
			"(TVM lowers no other)",
			kc->name);
		return false;
	}
	return true;
}

/* qnn.quantize, qnn.dequantize, qnn.requantize: the channel axis of the
 * data (a scalar's only channel), requantize's rounding and compute dtype
 * (None: TVM's RequantizeConfig defaults, UPWARD and int64). */
static bool prepare_qnn(KernelCall *kc, const Expr *call, char **err)
{
	static const char *const roundings[] = {"UPWARD", "TONEAREST", NULL};
	static const char *const computes[] = {"int64", "float32", "float64", NULL};
	KernelQnn *q = &kc->p.qnn;
	const KernelTensor *x = &kc->in[0];
	int64_t axis = attr_int(call, "axis", -1);
	q->len = 1;
	q->inner = 1;
	if (x->ndim > 0 && normalize_axis(axis, x->ndim, &axis)) {
		KernelAxis a;
		split_axis(x, axis, &a);
		q->len = a.len;
		q->inner = a.inner;
	}
	if (kc->op == OP_QNN_REQUANTIZE) {
		const char *r = attr_string(call, "rounding", "None");
		const char *c = attr_string(call, "compute_dtype", "None");
		q->rounding = strcmp(r, "None") == 0 ? KERNEL_QNN_UPWARD : name_index(r, roundings);
		q->compute = strcmp(c, "None") == 0 ? KERNEL_QNN_INT64 : name_index(c, computes);
		if (q->rounding < 0 || q->compute < 0) {
			*err = xasprintf("'%s' does not support rounding \"%s\" with compute_dtype "
					 "\"%s\"",
					 kc->name, r, c);
			return false;
		}
		q->scalar_scale = kc->in[1].ndim == 0;
		q->out_int32 = kc->out[0].dtype == DT_INT32;
	}
	return true;
}

bool kernel_call_prepare(KernelCall *kc, const Expr *call, const KernelTensor *in, uint32_t nin,
			 const KernelTensor *out, uint32_t nout, char **err)
{
	OpKind op = call->u.call.op;
	memset(kc, 0, sizeof *kc);
	kc->op = op;
	kc->name = op_info(op)->name;
	kc->in = in;
	kc->nin = nin;
	kc->out = out;
	kc->nout = nout;
	switch (op) {
	case OP_RESHAPE:
	case OP_BATCH_FLATTEN:
	case OP_EXPAND_DIMS:
	case OP_SQUEEZE:
	case OP_CAST:
	case OP_ON_DEVICE:
	case OP_DEVICE_COPY:
	case OP_COPY:
	case OP_SHAPE_OF:
	case OP_WHERE:
	case OP_ISNAN:
	case OP_ISINF:
	case OP_ISFINITE:
	/* the *_like twins: cast_like is cast, reinterpret, reshape_like and
	 * contrib_reverse_reshape copy the bytes */
	case OP_CAST_LIKE:
	case OP_REINTERPRET:
	case OP_RESHAPE_LIKE:
	case OP_CONTRIB_REVERSE_RESHAPE:
	case OP_NDARRAY_SIZE:
#define ELEMENTWISE_CASE(id) case OP_##id:
		KERNEL_ELEMENTWISE_OPS(ELEMENTWISE_CASE)
#undef ELEMENTWISE_CASE
		return true;
	case OP_GLOBAL_AVG_POOL2D: {
		WindowOp wo;
		(void)window_op(op, &wo);
		return window_layouts_only(kc, call, &wo, err);
	}
	/* operators planned but without kernels: exec_run refuses them
		 * before anything runs, so this is only a second line */
#define OP(id, family, name, min_args, max_args, schema)
#define OP_PLAN(id, family, name, min_args, max_args, schema) case OP_##id:
#include "ops.def"
#undef OP_PLAN
#undef OP
		*err = xasprintf("devplan has no kernel for '%s' yet", kc->name);
		return false;
	case OP_DENSE: {
		KernelMatmul *m = &kc->p.matmul;
		m->batch = m->batch_a = m->batch_b = 1;
		m->k = in[0].shape[in[0].ndim - 1];
		m->m = 1;
		for (uint32_t i = 0; i + 1 < in[0].ndim; i++)
			m->m *= in[0].shape[i];
		m->n = in[1].shape[0];
		m->trans_a = false;
		m->trans_b = true;
		return same_out_dtype(kc, err);
	}
	case OP_BATCH_MATMUL: {
		KernelMatmul *m = &kc->p.matmul;
		m->trans_a = attr_bool(call, "transpose_a", false);
		m->trans_b = attr_bool(call, "transpose_b", false);
		m->batch_a = in[0].shape[0];
		m->batch_b = in[1].shape[0];
		m->batch = out[0].shape[0];
		m->m = out[0].shape[1];
		m->n = out[0].shape[2];
		m->k = m->trans_a ? in[0].shape[1] : in[0].shape[2];
		return same_out_dtype(kc, err);
	}
	case OP_MATMUL: {
		/* a [..., M, K] (transpose_a: a batch of [K, M]) times b, one matrix */
		KernelMatmul *m = &kc->p.matmul;
		uint32_t nd = in[0].ndim;
		m->trans_a = attr_bool(call, "transpose_a", false);
		m->trans_b = attr_bool(call, "transpose_b", false);
		m->batch = m->batch_a = m->batch_b = 1;
		m->n = out[0].shape[out[0].ndim - 1];
		if (m->trans_a) {
			for (uint32_t i = 0; i + 2 < nd; i++)
				m->batch *= in[0].shape[i];
			m->batch_a = m->batch;
			m->k = in[0].shape[nd - 2];
			m->m = in[0].shape[nd - 1];
		} else {
			m->k = in[0].shape[nd - 1];
			m->m = 1;
			for (uint32_t i = 0; i + 1 < nd; i++)
				m->m *= in[0].shape[i];
		}
		return same_out_dtype(kc, err);
	}
	case OP_LEAKY_RELU:
		kc->p.alpha = attr_number(call, "alpha", 0.25);
		return true;
	case OP_QNN_QUANTIZE:
	case OP_QNN_DEQUANTIZE:
	case OP_QNN_REQUANTIZE:
		return prepare_qnn(kc, call, err);
	case OP_QNN_ADD:
	case OP_QNN_SUBTRACT:
	case OP_QNN_MUL:
		return prepare_qnn_binary(kc, call, err);
	case OP_QNN_TANH:
	case OP_QNN_EXP:
	case OP_QNN_SQRT:
	case OP_QNN_RSQRT:
	case OP_QNN_ERF:
	case OP_QNN_SIGMOID:
	case OP_QNN_HARDSWISH:
	case OP_QNN_LOG:
	case OP_QNN_ABS:
		return true; /* scalar parameters, read by the kernel */
	case OP_QNN_LEAKY_RELU:
		kc->p.alpha = attr_number(call, "alpha", 0.25);
		return true;
	case OP_QNN_DENSE: {
		KernelMatmul m = {.batch = 1, .batch_a = 1, .batch_b = 1, .trans_b = true};
		m.k = in[0].shape[in[0].ndim - 1];
		m.m = 1;
		for (uint32_t i = 0; i + 1 < in[0].ndim; i++)
			m.m *= in[0].shape[i];
		m.n = in[1].shape[0];
		kc->p.qnn.matmul = m;
		return true;
	}
	case OP_QNN_BATCH_MATMUL: {
		KernelMatmul m = {0};
		m.trans_a = attr_bool(call, "transpose_a", false);
		m.trans_b = attr_bool(call, "transpose_b", false);
		m.batch_a = in[0].shape[0];
		m.batch_b = in[1].shape[0];
		m.batch = out[0].shape[0];
		m.m = out[0].shape[1];
		m.n = out[0].shape[2];
		m.k = m.trans_a ? in[0].shape[1] : in[0].shape[2];
		kc->p.qnn.matmul = m;
		return true;
	}
	case OP_QNN_CONV2D: {
		/* conv2d's window, then moved into the qnn member of the union */
		WindowOp wo;
		KernelWindow w;
		(void)window_op(OP_CONV2D, &wo);
		if (!window_layouts_only(kc, call, &wo, err))
			return false;
		if (!prepare_window(kc, call, &wo))
			break;
		w = kc->p.window;
		memset(&kc->p, 0, sizeof kc->p);
		kc->p.qnn.window = w;
		return true;
	}
	case OP_FIXED_POINT_MULTIPLY:
		kc->p.fpm.multiplier = (int32_t)attr_int(call, "multiplier", 0);
		kc->p.fpm.shift = (int32_t)attr_int(call, "shift", 0);
		return true;
	case OP_PRELU: {
		int64_t axis;
		if (!normalize_axis(attr_int(call, "axis", 1), in[0].ndim, &axis))
			break;
		split_axis(&in[0], axis, &kc->p.axis);
		return true;
	}
	case OP_DROPOUT:
		return true;
	case OP_SORT:
	case OP_ARGSORT:
	case OP_TOPK: {
		KernelSort *so = &kc->p.sort;
		const AttrValue *ret = attr_get(call, "ret_type");
		const char *r =
			op == OP_TOPK && ret && ret->kind == ATTR_STRING ? ret->u.s : "both";
		int64_t axis;
		if (!normalize_axis(attr_int(call, "axis", -1), in[0].ndim, &axis))
			break;
		split_axis(&in[0], axis, &so->line);
		so->ascend = attr_bool(call, "is_ascend", op != OP_TOPK);
		so->k = out[0].ndim == in[0].ndim ? out[0].shape[axis] : so->line.len;
		so->values_out = op == OP_ARGSORT || strcmp(r, "indices") == 0 ? -1 : 0;
		so->indices_out = op == OP_SORT || strcmp(r, "values") == 0 ? -1
				  : so->values_out == 0                     ? 1
									    : 0;
		if (so->k > so->line.len || (uint32_t)(so->indices_out + 1) > nout ||
		    (uint32_t)(so->values_out + 1) > nout) {
			*err = xasprintf("'%s' asks for more elements than the axis holds",
					 kc->name);
			return false;
		}
		return true;
	}
	case OP_DEPTH_TO_SPACE:
	case OP_SPACE_TO_DEPTH: {
		KernelSubpixel *sp = &kc->p.subpixel;
		const AttrValue *layout = attr_get(call, "layout"), *mode = attr_get(call, "mode");
		const char *l = layout && layout->kind == ATTR_STRING ? layout->u.s : "NCHW";
		int c, h, w;
		if (strcmp(l, "NCHW") == 0)
			c = 1, h = 2, w = 3;
		else if (strcmp(l, "NHWC") == 0)
			c = 3, h = 1, w = 2;
		else {
			*err = xasprintf("'%s' runs NCHW and NHWC data only, not %s", kc->name, l);
			return false;
		}
		sp->nhwc = c == 3;
		sp->in_c = in[0].shape[c];
		sp->in_h = in[0].shape[h];
		sp->in_w = in[0].shape[w];
		sp->out_c = out[0].shape[c];
		sp->out_h = out[0].shape[h];
		sp->out_w = out[0].shape[w];
		sp->block = attr_int(call, "block_size", 1);
		sp->to_space = op == OP_DEPTH_TO_SPACE;
		sp->crd = sp->to_space && mode && mode->kind == ATTR_STRING &&
			  strcmp(mode->u.s, "DCR") != 0;
		return sp->block >= 1;
	}
	case OP_CUMSUM:
	case OP_CUMPROD: {
		const AttrValue *axis = attr_get(call, "axis");
		int64_t a;
		kc->p.scan.exclusive = attr_bool(call, "exclusive", false);
		if (!axis) {
			kc->p.scan.line.outer = kc->p.scan.line.inner = 1;
			kc->p.scan.line.len = in[0].count;
			return true;
		}
		if (!normalize_axis(attr_int(call, "axis", 0), in[0].ndim, &a))
			break;
		split_axis(&in[0], a, &kc->p.scan.line);
		return true;
	}
	case OP_BATCH_NORM:
	case OP_LAYER_NORM:
	case OP_INSTANCE_NORM:
	case OP_GROUP_NORM:
		if (!prepare_norm(kc, call))
			break;
		return true;
	case OP_BIAS_ADD:
	case OP_LOG_SOFTMAX:
	case OP_SOFTMAX:
	case OP_FAST_SOFTMAX: {
		int64_t axis;
		if (!normalize_axis(attr_int(call, "axis", op == OP_BIAS_ADD ? 1 : -1), in[0].ndim,
				    &axis))
			break;
		split_axis(&in[0], axis, &kc->p.axis);
		return true;
	}
	case OP_STACK:
	case OP_ONE_HOT: {
		/* the new axis of the output: stack's, or one_hot's (-1 the last) */
		int64_t axis = attr_int(call, "axis", op == OP_STACK ? 0 : -1);
		if (op == OP_ONE_HOT && axis == -1)
			axis = out[0].ndim - 1;
		if (!normalize_axis(axis, out[0].ndim, &axis))
			break;
		split_axis(&out[0], axis, &kc->p.axis);
		return true;
	}
	case OP_FULL:
	case OP_FULL_LIKE:
	case OP_ARANGE:
		return true;
	case OP_LAYOUT_TRANSFORM:
		return prepare_layout(kc, call, err);
	case OP_CONCATENATE:
	case OP_SPLIT: {
		int64_t axis;
		if (!normalize_axis(attr_int(call, "axis", 0), in[0].ndim, &axis))
			break;
		split_axis(&in[0], axis, &kc->p.axis);
		return true;
	}
	case OP_SUM:
	case OP_MEAN:
	case OP_MAX:
	case OP_MIN:
	case OP_PROD:
	case OP_ALL:
	case OP_ANY:
	case OP_ARGMAX:
	case OP_ARGMIN:
	case OP_VARIANCE: {
		const AttrValue *items;
		uint32_t n = attr_list(call, "axis", &items), ndim = in[0].ndim;
		kc->p.reduce.kind = reduce_kind(op);
		kc->p.reduce.select_last_index = attr_bool(call, "select_last_index", false);
		kc->p.reduce.unbiased = attr_bool(call, "unbiased", false);
		kc->axes = xcalloc(ndim ? ndim : 1, sizeof(int64_t));
		/* TVM's GetReduceAxes: no axis, or an empty list, reduces every
		 * axis (exclude or not) */
		if (n == 0) {
			for (uint32_t i = 0; i < ndim; i++)
				kc->axes[i] = 1;
			return true;
		}
		for (uint32_t i = 0; i < n; i++) {
			int64_t axis;
			if (!normalize_axis(items[i].u.i, ndim, &axis))
				goto bad;
			kc->axes[axis] = 1;
		}
		if (attr_bool(call, "exclude", false))
			for (uint32_t i = 0; i < ndim; i++)
				kc->axes[i] = !kc->axes[i];
		return true;
	}
	case OP_TRANSPOSE: {
		const AttrValue *items;
		uint32_t n = attr_list(call, "axes", &items), ndim = in[0].ndim;
		kc->axes = xcalloc(ndim ? ndim : 1, sizeof(int64_t));
		if (n == 0) {
			for (uint32_t i = 0; i < ndim; i++)
				kc->axes[i] = ndim - 1 - i;
			return true;
		}
		if (n != ndim)
			goto bad;
		for (uint32_t i = 0; i < n; i++)
			if (!normalize_axis(items[i].u.i, ndim, &kc->axes[i]))
				goto bad;
		return true;
	}
	case OP_CONV1D:
	case OP_CONV2D:
	case OP_CONV3D:
	case OP_CONV1D_TRANSPOSE:
	case OP_CONV2D_TRANSPOSE:
	case OP_CONV3D_TRANSPOSE:
	case OP_MAX_POOL1D:
	case OP_MAX_POOL2D:
	case OP_MAX_POOL3D:
	case OP_AVG_POOL1D:
	case OP_AVG_POOL2D:
	case OP_AVG_POOL3D:
	/* the global and adaptive poolings have no window attributes: only
	 * the extents, and their windows come from them */
	case OP_GLOBAL_MAX_POOL2D:
	case OP_ADAPTIVE_AVG_POOL1D:
	case OP_ADAPTIVE_AVG_POOL2D:
	case OP_ADAPTIVE_AVG_POOL3D:
	case OP_ADAPTIVE_MAX_POOL1D:
	case OP_ADAPTIVE_MAX_POOL2D:
	case OP_ADAPTIVE_MAX_POOL3D: {
		WindowOp wo;
		(void)window_op(op, &wo);
		if (!window_layouts_only(kc, call, &wo, err))
			return false;
		if (!prepare_window(kc, call, &wo))
			break;
		return wo.conv ? same_out_dtype(kc, err) : true;
	}
	case OP_RESIZE1D:
	case OP_RESIZE2D:
	case OP_RESIZE3D:
	case OP_UPSAMPLING:
	case OP_UPSAMPLING3D:
		if (!prepare_resize(kc, call, err))
			return false;
		return same_out_dtype(kc, err);
	case OP_CROP_AND_RESIZE:
		if (!prepare_crop_and_resize(kc, call, err))
			return false;
		return same_out_dtype(kc, err);
	case OP_ZEROS:
	case OP_ZEROS_LIKE:
		kc->p.fill = 0;
		return true;
	case OP_ONES:
	case OP_ONES_LIKE:
		kc->p.fill = 1;
		return true;
	case OP_COLLAPSE_SUM_LIKE:
	case OP_COLLAPSE_SUM_TO: {
		/* TVM's topi collapse_sum: sum over x's leading axes that the
		 * target lacks and those where the target has 1 and x does not
		 * (the relation has checked that the target broadcasts to x) */
		uint32_t nd = in[0].ndim, tn = out[0].ndim;
		if (tn > nd)
			break;
		kc->p.reduce.kind = REDUCE_SUM;
		kc->axes = xcalloc(nd ? nd : 1, sizeof(int64_t));
		for (uint32_t i = 0; i < nd; i++)
			kc->axes[i] = i < nd - tn ||
				      (out[0].shape[i - (nd - tn)] == 1 && in[0].shape[i] != 1);
		return true;
	}
	case OP_SLICE_LIKE:
		/* the identity view: the output's coordinates read the input's,
		 * every axis cut from its beginning */
		if (out[0].ndim != in[0].ndim)
			break;
		(void)view_init(kc, out[0].ndim);
		return true;
	case OP_L2_NORMALIZE:
		if (!prepare_split(kc, call))
			break;
		return true;
	case OP_LRN: {
		KernelLrn *l = &kc->p.lrn;
		int64_t axis;
		if (!normalize_axis(attr_int(call, "axis", 1), in[0].ndim, &axis))
			break;
		split_axis(&in[0], axis, &l->axis);
		l->size = attr_int(call, "size", 5);
		l->alpha = attr_number(call, "alpha", 1e-4);
		l->beta = attr_number(call, "beta", 0.75);
		l->bias = attr_number(call, "bias", 2);
		if (l->size < 1)
			break;
		return true;
	}
	case OP_DILATE:
	case OP_SEQUENCE_MASK:
	case OP_REVERSE_SEQUENCE:
	case OP_TRILU:
	case OP_MATRIX_SET_DIAG:
	case OP_MESHGRID:
	case OP_SEARCHSORTED:
	case OP_INVERT_PERMUTATION:
	case OP_UNRAVEL_INDEX:
	case OP_SPACE_TO_BATCH_ND:
	case OP_BATCH_TO_SPACE_ND:
		if (!prepare_arrange(kc, call, err)) {
			if (*err)
				return false;
			break;
		}
		return true;
	case OP_MIRROR_PAD:
	case OP_PAD:
	case OP_STRIDED_SLICE:
	case OP_REPEAT:
	case OP_REVERSE:
	case OP_TILE:
	case OP_BROADCAST_TO:
	case OP_BROADCAST_TO_LIKE:
		if (!prepare_view(kc, call))
			break;
		return true;
	case OP_TAKE:
		if (!prepare_take(kc, call, err))
			return false;
		return true;
	case OP_GATHER:
	case OP_GATHER_ND:
	case OP_SCATTER_ELEMENTS:
	case OP_SCATTER_ND:
		return prepare_gather(kc, call, err);
	case OP_SPARSE_TO_DENSE:
		return prepare_sparse(kc, err);
	case OP_CLIP:
		kc->p.clip.lo = attr_number(call, "a_min", -INFINITY);
		kc->p.clip.hi = attr_number(call, "a_max", INFINITY);
		return true;
	case OP_COUNT:
	case OP_UNKNOWN: /* refused before the run starts (exec_run.c) */
		break;
	}
bad:
	kernel_call_release(kc);
	*err = xasprintf("'%s' has attributes the kernels cannot decode", op_info(op)->name);
	return false;
}

void kernel_call_release(KernelCall *kc)
{
	free(kc->axes);
	kc->axes = NULL;
}
