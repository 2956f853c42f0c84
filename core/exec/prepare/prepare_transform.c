/*
 * prepare_transform.c - decoding the attributes of the transform family: the index views (nn.pad, nn.mirror_pad,
 * strided_slice, slice_like, tile, repeat, reverse, broadcast_to(_like))
 * as KernelView arrays, take's mode and extents, layout_transform's axis
 * arithmetic, transpose's permutation, the axes of concatenate, split and
 * stack, and nn.depth_to_space / nn.space_to_depth; the copies need only
 * their operands.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

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

KERNEL_PREPARE_VIA(RESHAPE, prepare_operands_only)
KERNEL_PREPARE_VIA(BATCH_FLATTEN, prepare_operands_only)
KERNEL_PREPARE_VIA(EXPAND_DIMS, prepare_operands_only)
KERNEL_PREPARE_VIA(SQUEEZE, prepare_operands_only)
KERNEL_PREPARE_VIA(ON_DEVICE, prepare_operands_only)
KERNEL_PREPARE_VIA(DEVICE_COPY, prepare_operands_only)
KERNEL_PREPARE_VIA(COPY, prepare_operands_only)
KERNEL_PREPARE_VIA(SHAPE_OF, prepare_operands_only)
KERNEL_PREPARE_VIA(WHERE, prepare_operands_only)

KERNEL_PREPARE_VIA(REINTERPRET, prepare_operands_only)
KERNEL_PREPARE_VIA(RESHAPE_LIKE, prepare_operands_only)
KERNEL_PREPARE_VIA(CONTRIB_REVERSE_RESHAPE, prepare_operands_only)
KERNEL_PREPARE_VIA(NDARRAY_SIZE, prepare_operands_only)

static bool decode_depth_to_space(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	const KernelTensor *in = kc->in;
	const KernelTensor *out = kc->out;
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
	sp->crd =
		sp->to_space && mode && mode->kind == ATTR_STRING && strcmp(mode->u.s, "DCR") != 0;
	return sp->block >= 1;
}

KERNEL_PREPARE_VIA(DEPTH_TO_SPACE, decode_depth_to_space)
KERNEL_PREPARE_VIA(SPACE_TO_DEPTH, decode_depth_to_space)

KERNEL_PREPARE_VIA(STACK, decode_stack)

KERNEL_PREPARE_VIA(LAYOUT_TRANSFORM, prepare_layout)

static bool decode_concatenate(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", 0), in[0].ndim, &axis))
		return prepare_bad(kc, err);
	split_axis(&in[0], axis, &kc->p.axis);
	return true;
}

KERNEL_PREPARE_VIA(CONCATENATE, decode_concatenate)
KERNEL_PREPARE_VIA(SPLIT, decode_concatenate)

static bool decode_transpose(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	const AttrValue *items;
	uint32_t n = attr_list(call, "axes", &items), ndim = in[0].ndim;
	kc->axes = xcalloc(ndim ? ndim : 1, sizeof(int64_t));
	if (n == 0) {
		for (uint32_t i = 0; i < ndim; i++)
			kc->axes[i] = ndim - 1 - i;
		return true;
	}
	if (n != ndim)
		return prepare_bad(kc, err);
	for (uint32_t i = 0; i < n; i++)
		if (!normalize_axis(items[i].u.i, ndim, &kc->axes[i]))
			return prepare_bad(kc, err);
	return true;
}

KERNEL_PREPARE_VIA(TRANSPOSE, decode_transpose)

static bool decode_slice_like(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	const KernelTensor *out = kc->out;
	/* the identity view: the output's coordinates read the input's,
	 * every axis cut from its beginning */
	if (out[0].ndim != in[0].ndim)
		return prepare_bad(kc, err);
	(void)view_init(kc, out[0].ndim);
	return true;
}

KERNEL_PREPARE_VIA(SLICE_LIKE, decode_slice_like)

static bool decode_mirror_pad(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_view(kc, call))
		return prepare_bad(kc, err);
	return true;
}

KERNEL_PREPARE_VIA(MIRROR_PAD, decode_mirror_pad)
KERNEL_PREPARE_VIA(PAD, decode_mirror_pad)
KERNEL_PREPARE_VIA(STRIDED_SLICE, decode_mirror_pad)
KERNEL_PREPARE_VIA(REPEAT, decode_mirror_pad)
KERNEL_PREPARE_VIA(REVERSE, decode_mirror_pad)
KERNEL_PREPARE_VIA(TILE, decode_mirror_pad)
KERNEL_PREPARE_VIA(BROADCAST_TO, decode_mirror_pad)
KERNEL_PREPARE_VIA(BROADCAST_TO_LIKE, decode_mirror_pad)

static bool decode_take(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_take(kc, call, err))
		return false;
	return true;
}

KERNEL_PREPARE_VIA(TAKE, decode_take)
