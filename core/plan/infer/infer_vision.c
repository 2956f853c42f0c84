/*
 * infer_vision.c - the type relations of the vision.* operators (anchor
 * boxes, box decoding, non-maximum suppression, region pooling, YOLO's
 * reorg and the region proposal), after TVM 0.14's src/relay/op/vision/.
 *
 * Most return a tuple of fixed-dtype tensors (counts and indices in int32
 * or int64, as TVM declares them); the ranks TVM asserts are positioned
 * errors here, and so are the extents it asserts equal.
 */
#include "infer_ops.h"

/* Argument i as a tensor of nd dimensions, `what` naming it in the error. */
static Type *ranked_arg(OpTypeContext *ctx, uint32_t i, uint32_t nd, const char *what)
{
	Type *t = infer_tensor_arg(ctx, i);
	if (!t)
		return NULL;
	if (t->u.tensor.ndim == nd)
		return t;
	infer_op_error(ctx, "'%s' expects %u-D %s, got %s", infer_op_name(ctx), nd, what,
		       infer_tname(ctx, t));
	return NULL;
}

static Type *tensor_of(OpTypeContext *ctx, DType dt, uint32_t nd, const int64_t *dims)
{
	return type_tensor(ir_data_arena(ctx->module), dt, nd, dims);
}

static Type *tuple_of(OpTypeContext *ctx, uint32_t n, Type *const *fields)
{
	return type_tuple(ir_data_arena(ctx->module), n, fields);
}

/* a * b, `?` when either is unknown or the product overflows. */
static int64_t dim_product(int64_t a, int64_t b)
{
	int64_t r;
	if (!dim_known(a) || !dim_known(b) || !checked_mul(a, b, &r))
		return DIM_ANY;
	return r;
}

/* A list-of-numbers attribute that, when given, has exactly n values. */
static bool numbers_of_length(OpTypeContext *ctx, const char *name, uint32_t want, uint32_t dflt,
			      uint32_t *n)
{
	const AttrValue *items;
	bool given;
	if (!infer_attr_numbers(ctx, name, &items, n, &given))
		return false;
	if (!given)
		*n = dflt;
	if (!want || *n == want)
		return true;
	infer_op_error(ctx, "'%s' attribute %s must have %u values", infer_op_name(ctx), name,
		       want);
	return false;
}

/* ---- anchors and boxes ------------------------------------------------- */

/* vision.multibox_prior(data NCHW) -> [1, H * W * (sizes + ratios - 1), 4]. */
Type *infer_op_MULTIBOX_PRIOR(OpTypeContext *ctx)
{
	Type *x = ranked_arg(ctx, 0, 4, "data");
	uint32_t nsizes, nratios, nsteps, noffsets;
	int64_t dims[3];
	bool clip;
	if (!x || !numbers_of_length(ctx, "sizes", 0, 1, &nsizes) ||
	    !numbers_of_length(ctx, "ratios", 0, 1, &nratios) ||
	    !numbers_of_length(ctx, "steps", 2, 2, &nsteps) ||
	    !numbers_of_length(ctx, "offsets", 2, 2, &noffsets) ||
	    !infer_attr_bool(ctx, "clip", false, &clip))
		return NULL;
	if (nsizes == 0 || nratios == 0) {
		infer_op_error(ctx,
			       "'vision.multibox_prior' needs at least one size and one ratio");
		return NULL;
	}
	dims[0] = 1;
	dims[1] = dim_product(dim_product(x->u.tensor.dims[2], x->u.tensor.dims[3]),
			      (int64_t)nsizes + nratios - 1);
	dims[2] = 4;
	return tensor_of(ctx, x->u.tensor.dtype, 3, dims);
}

/* vision.multibox_transform_loc(cls_prob[B, C, A], loc_pred[B, 4 A],
 * anchor[1, A, 4]) -> ([B, A, 6], int32[B]). */
Type *infer_op_MULTIBOX_TRANSFORM_LOC(OpTypeContext *ctx)
{
	Type *cls = ranked_arg(ctx, 0, 3, "class probabilities"), *loc, *anchor, *fields[2];
	int64_t dims[3], a;
	uint32_t nvar;
	bool clip, keep;
	double threshold;
	if (!cls || !(loc = ranked_arg(ctx, 1, 2, "location predictions")) ||
	    !(anchor = ranked_arg(ctx, 2, 3, "anchors")) ||
	    !infer_attr_bool(ctx, "clip", true, &clip) ||
	    !infer_attr_number(ctx, "threshold", 0.01, &threshold) ||
	    !numbers_of_length(ctx, "variances", 4, 4, &nvar) ||
	    !infer_attr_bool(ctx, "keep_background", false, &keep))
		return NULL;
	a = anchor->u.tensor.dims[1];
	if (!dim_match(cls->u.tensor.dims[2], a) || !dim_match(anchor->u.tensor.dims[2], 4) ||
	    !dim_match(loc->u.tensor.dims[1], dim_product(cls->u.tensor.dims[2], 4))) {
		infer_op_error(ctx,
			       "'vision.multibox_transform_loc' anchors do not match: class "
			       "probabilities %s, location predictions %s, anchors %s",
			       infer_tname(ctx, cls), infer_tname(ctx, loc),
			       infer_tname(ctx, anchor));
		return NULL;
	}
	dims[0] = cls->u.tensor.dims[0];
	dims[1] = dim_known(a) ? a : cls->u.tensor.dims[2];
	dims[2] = 6;
	fields[0] = tensor_of(ctx, cls->u.tensor.dtype, 3, dims);
	fields[1] = tensor_of(ctx, DT_INT32, 1, dims);
	return tuple_of(ctx, 2, fields);
}

/* ---- non-maximum suppression ------------------------------------------- */

/* vision.get_valid_counts(data[B, N, K], score_threshold) -> (int32[B],
 * data, int32[B, N]). */
Type *infer_op_GET_VALID_COUNTS(OpTypeContext *ctx)
{
	Type *x = ranked_arg(ctx, 0, 3, "data"), *fields[3];
	int64_t id_index, score_index;
	double threshold;
	if (!x || !infer_tensor_arg(ctx, 1) ||
	    !infer_attr_number(ctx, "score_threshold", 0, &threshold) ||
	    !infer_attr_int(ctx, "id_index", 0, &id_index, NULL) ||
	    !infer_attr_int(ctx, "score_index", 1, &score_index, NULL))
		return NULL;
	fields[0] = tensor_of(ctx, DT_INT32, 1, x->u.tensor.dims);
	fields[1] = x;
	fields[2] = tensor_of(ctx, DT_INT32, 2, x->u.tensor.dims);
	return tuple_of(ctx, 3, fields);
}

/* vision.non_max_suppression(data[B, N, K], valid_count[B], indices,
 * max_output_size, iou_threshold): with return_indices (the default)
 * (int32[B, N], int32[B, 1]), else data's type. */
Type *infer_op_NON_MAX_SUPPRESSION(OpTypeContext *ctx)
{
	Type *x = ranked_arg(ctx, 0, 3, "data"), *fields[2];
	int64_t top_k, coord_start, score_index, id_index, dims[2];
	bool force, indices, to_bottom;
	if (!x || !ranked_arg(ctx, 1, 1, "valid counts") ||
	    !infer_attr_bool(ctx, "force_suppress", false, &force) ||
	    !infer_attr_int(ctx, "top_k", -1, &top_k, NULL) ||
	    !infer_attr_int(ctx, "coord_start", 2, &coord_start, NULL) ||
	    !infer_attr_int(ctx, "score_index", 1, &score_index, NULL) ||
	    !infer_attr_int(ctx, "id_index", 0, &id_index, NULL) ||
	    !infer_attr_bool(ctx, "return_indices", true, &indices) ||
	    !infer_attr_bool(ctx, "invalid_to_bottom", false, &to_bottom))
		return NULL;
	if (!indices)
		return x;
	fields[0] = tensor_of(ctx, DT_INT32, 2, x->u.tensor.dims);
	dims[0] = x->u.tensor.dims[0];
	dims[1] = 1;
	fields[1] = tensor_of(ctx, DT_INT32, 2, dims);
	return tuple_of(ctx, 2, fields);
}

/* vision.all_class_non_max_suppression(boxes[B, N, 4], scores[B, C, N],
 * ...): "onnx" (default) gives (int64[B * C * N, 3], int64[1]),
 * "tensorflow" (int64[B, C * N, 2], float32[B, C * N], int64[B]). */
Type *infer_op_ALL_CLASS_NON_MAX_SUPPRESSION(OpTypeContext *ctx)
{
	static const char *const formats[] = {"onnx", "tensorflow", NULL};
	Type *boxes = ranked_arg(ctx, 0, 3, "boxes"), *scores, *fields[3];
	const char *format;
	int64_t b, c, n, dims[3];
	if (!boxes || !(scores = ranked_arg(ctx, 1, 3, "scores")) ||
	    !infer_attr_choice(ctx, "output_format", "onnx", formats, &format))
		return NULL;
	b = boxes->u.tensor.dims[0];
	n = boxes->u.tensor.dims[1];
	c = scores->u.tensor.dims[1];
	if (strcmp(format, "onnx") == 0) {
		dims[0] = dim_product(dim_product(b, c), n);
		dims[1] = 3;
		fields[0] = tensor_of(ctx, DT_INT64, 2, dims);
		dims[0] = 1;
		fields[1] = tensor_of(ctx, DT_INT64, 1, dims);
		return tuple_of(ctx, 2, fields);
	}
	dims[0] = b;
	dims[1] = dim_product(c, n);
	dims[2] = 2;
	fields[0] = tensor_of(ctx, DT_INT64, 3, dims);
	fields[1] = tensor_of(ctx, DT_FLOAT32, 2, dims);
	fields[2] = tensor_of(ctx, DT_INT64, 1, dims);
	return tuple_of(ctx, 3, fields);
}

/* vision.regular_non_max_suppression(boxes[B, N, 4], scores[B, N, C]) ->
 * (float32[B, M, 4], float32[B, M], float32[B, M], int32[B]) with M =
 * max_detections. */
Type *infer_op_REGULAR_NON_MAX_SUPPRESSION(OpTypeContext *ctx)
{
	Type *boxes = ranked_arg(ctx, 0, 3, "boxes"), *fields[4];
	int64_t per_class, max_detections, classes, dims[3];
	bool has_max;
	double iou, score;
	if (!boxes || !ranked_arg(ctx, 1, 3, "scores") ||
	    !infer_attr_int(ctx, "max_detections_per_class", 0, &per_class, NULL) ||
	    !infer_attr_int(ctx, "max_detections", 0, &max_detections, &has_max) ||
	    !infer_attr_int(ctx, "num_classes", 0, &classes, NULL) ||
	    !infer_attr_number(ctx, "iou_threshold", 0, &iou) ||
	    !infer_attr_number(ctx, "score_threshold", 0, &score))
		return NULL;
	if (!has_max || max_detections < 0) {
		infer_op_error(ctx, "'vision.regular_non_max_suppression' needs a non-negative "
				    "max_detections attribute");
		return NULL;
	}
	dims[0] = boxes->u.tensor.dims[0];
	dims[1] = max_detections;
	dims[2] = 4;
	fields[0] = tensor_of(ctx, DT_FLOAT32, 3, dims);
	fields[1] = fields[2] = tensor_of(ctx, DT_FLOAT32, 2, dims);
	fields[3] = tensor_of(ctx, DT_INT32, 1, dims);
	return tuple_of(ctx, 4, fields);
}

/* ---- region pooling ------------------------------------------------------ */

/* vision.roi_align and vision.roi_pool(data, rois[R, 5]): NCHW gives
 * [R, C, ph, pw], NHWC [R, ph, pw, C]. */
static Type *infer_roi(OpTypeContext *ctx)
{
	static const char *const layouts[] = {"NCHW", "NHWC", NULL};
	Type *x = ranked_arg(ctx, 0, 4, "data"), *rois;
	const AttrValue *size;
	uint32_t n;
	bool given;
	const char *layout;
	double scale;
	int64_t dims[4], ph, pw;
	if (!x || !(rois = ranked_arg(ctx, 1, 2, "regions of interest")) ||
	    !infer_attr_list(ctx, "pooled_size", &size, &n, &given) ||
	    !infer_attr_number(ctx, "spatial_scale", 1, &scale) ||
	    !infer_attr_choice(ctx, "layout", "NCHW", layouts, &layout))
		return NULL;
	if (n != 2 || size[0].u.i < 1 || size[1].u.i < 1) {
		infer_op_error(ctx, "'%s' needs a pooled_size attribute of 2 positive values",
			       infer_op_name(ctx));
		return NULL;
	}
	ph = size[0].u.i;
	pw = size[1].u.i;
	dims[0] = rois->u.tensor.dims[0];
	if (strcmp(layout, "NCHW") == 0) {
		dims[1] = x->u.tensor.dims[1];
		dims[2] = ph;
		dims[3] = pw;
	} else {
		dims[1] = ph;
		dims[2] = pw;
		dims[3] = x->u.tensor.dims[3];
	}
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

Type *infer_op_ROI_ALIGN(OpTypeContext *ctx)
{
	static const char *const modes[] = {"avg", "max", NULL};
	int64_t ratio;
	const char *mode;
	if (!infer_attr_int(ctx, "sample_ratio", -1, &ratio, NULL) ||
	    !infer_attr_choice(ctx, "mode", "avg", modes, &mode))
		return NULL;
	return infer_roi(ctx);
}

Type *infer_op_ROI_POOL(OpTypeContext *ctx)
{
	return infer_roi(ctx);
}

/* vision.yolo_reorg(data NCHW) -> (N, C * s^2, H / s, W / s). */
Type *infer_op_YOLO_REORG(OpTypeContext *ctx)
{
	Type *x = ranked_arg(ctx, 0, 4, "data");
	int64_t stride, dims[4];
	if (!x || !infer_attr_int(ctx, "stride", 1, &stride, NULL))
		return NULL;
	if (stride < 1 || stride > (1 << 20)) {
		infer_op_error(ctx, "'vision.yolo_reorg' attribute stride=%lld must be positive",
			       (long long)stride);
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	dims[1] = dim_product(dims[1], stride * stride);
	for (int i = 2; i < 4; i++)
		if (dim_known(dims[i]))
			dims[i] /= stride;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* vision.proposal(cls_prob[B, 2A, H, W], bbox_pred[B, 4A, H, W],
 * im_info[B, 3]) -> [B * rpn_post_nms_top_n, 5]. */
Type *infer_op_PROPOSAL(OpTypeContext *ctx)
{
	Type *cls = ranked_arg(ctx, 0, 4, "class probabilities"), *info;
	uint32_t nscales, nratios;
	int64_t stride, pre_n, post_n, min_size, dims[2];
	double threshold;
	bool iou_loss;
	if (!cls || !ranked_arg(ctx, 1, 4, "box predictions") ||
	    !(info = ranked_arg(ctx, 2, 2, "image info")) ||
	    !numbers_of_length(ctx, "scales", 0, 4, &nscales) ||
	    !numbers_of_length(ctx, "ratios", 0, 3, &nratios) ||
	    !infer_attr_int(ctx, "feature_stride", 16, &stride, NULL) ||
	    !infer_attr_number(ctx, "threshold", 0.7, &threshold) ||
	    !infer_attr_int(ctx, "rpn_pre_nms_top_n", 6000, &pre_n, NULL) ||
	    !infer_attr_int(ctx, "rpn_post_nms_top_n", 300, &post_n, NULL) ||
	    !infer_attr_int(ctx, "rpn_min_size", 16, &min_size, NULL) ||
	    !infer_attr_bool(ctx, "iou_loss", false, &iou_loss))
		return NULL;
	if (!dim_match(info->u.tensor.dims[1], 3)) {
		infer_op_error(ctx, "'vision.proposal' expects image info of shape (B, 3), got %s",
			       infer_tname(ctx, info));
		return NULL;
	}
	if (post_n < 1) {
		infer_op_error(
			ctx, "'vision.proposal' attribute rpn_post_nms_top_n=%lld must be positive",
			(long long)post_n);
		return NULL;
	}
	dims[0] = dim_product(cls->u.tensor.dims[0], post_n);
	dims[1] = 5;
	return tensor_of(ctx, cls->u.tensor.dtype, 2, dims);
}
