/*
 * prepare_window.c - decoding the attributes of the window family: the convolutions and poolings of every rank
 * as one KernelWindow (prepare_window_attrs, which qnn.conv2d shares),
 * refusing the layouts the kernels do not run.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

/* Layout attribute `name` of call is absent, empty, want or also. */
static bool layout_is(const Expr *call, const char *name, const char *want, const char *also)
{
	const AttrValue *v = attr_get(call, name);
	return !v || v->kind != ATTR_STRING || !*v->u.s || strcmp(v->u.s, want) == 0 ||
	       (also && strcmp(v->u.s, also) == 0);
}

bool prepare_window_op(OpKind op, WindowOp *w)
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
bool prepare_window_layouts(KernelCall *kc, const Expr *call, const WindowOp *wo, char **err)
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

bool prepare_window_attrs(KernelCall *kc, const Expr *call, const WindowOp *wo)
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

static bool decode_global_avg_pool2d(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	WindowOp wo = {0};
	(void)prepare_window_op(op, &wo);
	return prepare_window_layouts(kc, call, &wo, err);
}

KERNEL_PREPARE_VIA(GLOBAL_AVG_POOL2D, decode_global_avg_pool2d)

/* the convolutions and poolings; the global and adaptive poolings have
 * no window attributes: only the extents, and their windows come from them */
static bool decode_window(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	WindowOp wo = {0};
	(void)prepare_window_op(op, &wo);
	if (!prepare_window_layouts(kc, call, &wo, err))
		return false;
	if (!prepare_window_attrs(kc, call, &wo))
		return prepare_bad(kc, err);
	return wo.conv ? same_out_dtype(kc, err) : true;
}

KERNEL_PREPARE_VIA(CONV1D, decode_window)
KERNEL_PREPARE_VIA(CONV2D, decode_window)
KERNEL_PREPARE_VIA(CONV3D, decode_window)
KERNEL_PREPARE_VIA(CONV1D_TRANSPOSE, decode_window)
KERNEL_PREPARE_VIA(CONV2D_TRANSPOSE, decode_window)
KERNEL_PREPARE_VIA(CONV3D_TRANSPOSE, decode_window)
KERNEL_PREPARE_VIA(MAX_POOL1D, decode_window)
KERNEL_PREPARE_VIA(MAX_POOL2D, decode_window)
KERNEL_PREPARE_VIA(MAX_POOL3D, decode_window)
KERNEL_PREPARE_VIA(AVG_POOL1D, decode_window)
KERNEL_PREPARE_VIA(AVG_POOL2D, decode_window)
KERNEL_PREPARE_VIA(AVG_POOL3D, decode_window)
KERNEL_PREPARE_VIA(GLOBAL_MAX_POOL2D, decode_window)
KERNEL_PREPARE_VIA(ADAPTIVE_AVG_POOL1D, decode_window)
KERNEL_PREPARE_VIA(ADAPTIVE_AVG_POOL2D, decode_window)
KERNEL_PREPARE_VIA(ADAPTIVE_AVG_POOL3D, decode_window)
KERNEL_PREPARE_VIA(ADAPTIVE_MAX_POOL1D, decode_window)
KERNEL_PREPARE_VIA(ADAPTIVE_MAX_POOL2D, decode_window)
KERNEL_PREPARE_VIA(ADAPTIVE_MAX_POOL3D, decode_window)
