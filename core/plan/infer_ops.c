/*
 * infer_ops.c - one type relation per operator of ops.def.
 *
 * A relation reads its argument types and the call's attributes and returns
 * the result type, or reports one error positioned at the call and returns
 * NULL. The table at the bottom is generated from ops.def, so an operator
 * without a relation does not compile. Relations follow TVM's (numpy
 * broadcasting, NCHW/OIHW convolution, the special values of reshape) and
 * are permissive about `?` dimensions: a check involving an unknown
 * dimension passes and a result that depends on one is `?`.
 *
 * Two rules keep this file safe and cheap. Every size computed from the
 * input (products, padded extents, sums along an axis) goes through the
 * checked arithmetic below, so an absurd shape is an error and never
 * undefined behaviour. And a result equal to an input type is that input's
 * Type pointer (infer_result), so a chain of a million elementwise ops
 * allocates no types at all.
 *
 * Messages are lowercase, name the op in quotes and print the operand types
 * in Relay syntax, e.g. `cannot broadcast operands of 'add':
 * Tensor[(5, 7), float32] and Tensor[(3, 7), float32]`.
 */
#include "infer.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Limits on what one op may create, so that absurd attributes are errors
 * rather than allocations of terabytes. */
enum { INFER_MAX_NDIM = 1024, INFER_MAX_FIELDS = 1 << 16 };

/* ---- messages ---------------------------------------------------------- */

static const char *infer_op_name(const OpTypeContext *ctx)
{
	return op_info(ctx->call->u.call.op)->name;
}

static void infer_op_error(OpTypeContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);

static void infer_op_error(OpTypeContext *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(ctx->diags, DIAG_ERROR, ctx->module->src, ctx->call->pos, fmt, ap);
	va_end(ap);
}

static const char *tname(OpTypeContext *ctx, const Type *t)
{
	return infer_type_name(ctx->module, t);
}

/* `[1, 2, 3]` for an attribute's int list, in the module arena. */
static const char *list_text(OpTypeContext *ctx, const AttrValue *items, uint32_t n)
{
	StrBuf sb;
	const char *out;
	strbuf_init(&sb);
	strbuf_putc(&sb, '[');
	for (uint32_t i = 0; i < n; i++)
		strbuf_printf(&sb, "%s%lld", i ? ", " : "", (long long)items[i].u.i);
	strbuf_putc(&sb, ']');
	out = arena_strndup(ir_data_arena(ctx->module), sb.data, sb.len);
	strbuf_free(&sb);
	return out;
}

/* A dimension as printed: the number or `?`. */
static const char *dim_text(OpTypeContext *ctx, int64_t d)
{
	char buf[32];
	if (d < 0)
		return "?";
	snprintf(buf, sizeof buf, "%lld", (long long)d);
	return arena_strdup(ir_data_arena(ctx->module), buf);
}

/* ---- dimensions and checked arithmetic --------------------------------- */

static bool dim_known(int64_t d)
{
	return d >= 0;
}

/* Two dimensions that may be equal: equal, or either unknown. */
static bool dim_match(int64_t a, int64_t b)
{
	return a == b || !dim_known(a) || !dim_known(b);
}

static bool checked_add(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

static bool checked_sub(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_sub_overflow(a, b, out);
}

static bool checked_mul(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* Scratch space for result dimensions: inline for the usual ranks. */
typedef struct DimBuf {
	int64_t *d;
	int64_t small[8];
} DimBuf;

static int64_t *dims_alloc(DimBuf *b, size_t n)
{
	b->d = n <= DP_COUNT(b->small) ? b->small : xmalloc(n * sizeof(int64_t));
	return b->d;
}

static void dims_release(DimBuf *b)
{
	if (b->d != b->small)
		free(b->d);
}

static bool tensor_is(const Type *t, DType dt, uint32_t ndim, const int64_t *dims)
{
	return t && t->kind == TYPE_TENSOR && t->u.tensor.dtype == dt && t->u.tensor.ndim == ndim &&
	       (ndim == 0 || memcmp(t->u.tensor.dims, dims, ndim * sizeof(int64_t)) == 0);
}

/* The tensor type (dt, dims): `a` or `b` when it equals one of them (either
 * may be NULL), else a new type in the module arena. */
static Type *infer_result(OpTypeContext *ctx, DType dt, uint32_t ndim, const int64_t *dims, Type *a,
			  Type *b)
{
	if (tensor_is(a, dt, ndim, dims))
		return a;
	if (tensor_is(b, dt, ndim, dims))
		return b;
	return type_tensor(ir_data_arena(ctx->module), dt, ndim, dims);
}

/* ---- arguments --------------------------------------------------------- */

/* Argument i when it is a tensor; otherwise reports and returns NULL. */
static Type *tensor_arg(OpTypeContext *ctx, uint32_t i)
{
	Type *t = ctx->arg_types[i];
	if (t->kind == TYPE_TENSOR)
		return t;
	infer_op_error(ctx, "'%s' expects a tensor for argument %u, got %s", infer_op_name(ctx),
		       i + 1, tname(ctx, t));
	return NULL;
}

/* Both arguments of a binary op as tensors of one dtype. */
static bool tensor_pair(OpTypeContext *ctx, Type **a, Type **b)
{
	*a = ctx->arg_types[0];
	*b = ctx->arg_types[1];
	if ((*a)->kind != TYPE_TENSOR || (*b)->kind != TYPE_TENSOR) {
		infer_op_error(ctx, "'%s' expects tensor operands, got %s and %s",
			       infer_op_name(ctx), tname(ctx, *a), tname(ctx, *b));
		return false;
	}
	return true;
}

static bool same_dtype(OpTypeContext *ctx, const Type *a, const Type *b)
{
	if (a->u.tensor.dtype == b->u.tensor.dtype)
		return true;
	infer_op_error(ctx, "operands of '%s' have different dtypes: %s and %s", infer_op_name(ctx),
		       tname(ctx, a), tname(ctx, b));
	return false;
}

/* ---- attributes -------------------------------------------------------- */

/* The attribute's value, or NULL when it is absent or None. */
static const AttrValue *attr_value(const OpTypeContext *ctx, const char *name)
{
	const Attr *a = ir_attr(ctx->call, name);
	return a && a->value.kind != ATTR_NONE ? &a->value : NULL;
}

static bool attr_as_int(const AttrValue *v, int64_t *out)
{
	if (v->kind == ATTR_INT) {
		*out = v->u.i;
		return true;
	}
	if (v->kind == ATTR_BOOL) {
		*out = v->u.b;
		return true;
	}
	if (v->kind == ATTR_FLOAT && v->u.f >= -9.2e18 && v->u.f <= 9.2e18 &&
	    v->u.f == (double)(int64_t)v->u.f) {
		*out = (int64_t)v->u.f;
		return true;
	}
	return false;
}

static bool attr_int(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t *out,
		     bool *present)
{
	const AttrValue *v = attr_value(ctx, name);
	if (present)
		*present = v != NULL;
	*out = dflt;
	if (!v)
		return true;
	if (attr_as_int(v, out))
		return true;
	infer_op_error(ctx, "'%s' attribute '%s' must be an integer", infer_op_name(ctx), name);
	return false;
}

static bool attr_bool(OpTypeContext *ctx, const char *name, bool dflt, bool *out)
{
	const AttrValue *v = attr_value(ctx, name);
	*out = dflt;
	if (!v)
		return true;
	if (v->kind == ATTR_BOOL) {
		*out = v->u.b;
		return true;
	}
	if (v->kind == ATTR_INT) {
		*out = v->u.i != 0;
		return true;
	}
	infer_op_error(ctx, "'%s' attribute '%s' must be a boolean", infer_op_name(ctx), name);
	return false;
}

/* A string attribute; NULL when absent or None. */
static bool attr_string(OpTypeContext *ctx, const char *name, const char **out)
{
	const AttrValue *v = attr_value(ctx, name);
	*out = NULL;
	if (!v)
		return true;
	if (v->kind == ATTR_STRING) {
		*out = v->u.s;
		return true;
	}
	infer_op_error(ctx, "'%s' attribute '%s' must be a string", infer_op_name(ctx), name);
	return false;
}

/* An int list (a bare int counts as a list of one). On success *items are
 * ATTR_INT values (a float item is rejected); *present says whether it was
 * given at all. */
static bool attr_list(OpTypeContext *ctx, const char *name, const AttrValue **items, uint32_t *n,
		      bool *present)
{
	const AttrValue *v = attr_value(ctx, name);
	*items = NULL;
	*n = 0;
	*present = v != NULL;
	if (!v)
		return true;
	if (v->kind == ATTR_INT) {
		*items = v;
		*n = 1;
		return true;
	}
	if (v->kind == ATTR_LIST) {
		for (uint32_t i = 0; i < v->u.list.n; i++)
			if (v->u.list.items[i].kind != ATTR_INT)
				goto bad;
		*items = v->u.list.items;
		*n = v->u.list.n;
		return true;
	}
bad:
	infer_op_error(ctx, "'%s' attribute '%s' must be a list of integers", infer_op_name(ctx),
		       name);
	return false;
}

/* A dtype attribute: dflt when absent, None or "". */
static bool attr_dtype(OpTypeContext *ctx, const char *name, DType dflt, DType *out)
{
	const char *s;
	*out = dflt;
	if (!attr_string(ctx, name, &s))
		return false;
	if (!s || !*s)
		return true;
	if (dtype_from_name(s, strlen(s), out))
		return true;
	infer_op_error(ctx, "'%s' has unknown %s \"%s\"", infer_op_name(ctx), name, s);
	return false;
}

/* A layout attribute must be absent, "" or one of the accepted spellings. */
static bool attr_layout(OpTypeContext *ctx, const char *name, const char *want, const char *also)
{
	const char *s;
	if (!attr_string(ctx, name, &s))
		return false;
	if (!s || !*s || strcmp(s, want) == 0 || (also && strcmp(s, also) == 0))
		return true;
	infer_op_error(ctx, "'%s' supports only %s=\"%s\", got \"%s\"", infer_op_name(ctx), name,
		       want, s);
	return false;
}

/* A per-spatial-dimension pair (strides, dilation, kernel_size...): one value
 * for both or two; each value at least `min`. */
static bool attr_pair(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t min,
		      int64_t out[2], bool *present)
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	out[0] = out[1] = dflt;
	if (!attr_list(ctx, name, &items, &n, &given))
		return false;
	if (present)
		*present = given;
	if (!given)
		return true;
	if (n != 1 && n != 2) {
		infer_op_error(ctx, "'%s' attribute %s=%s must have 1 or 2 values",
			       infer_op_name(ctx), name, list_text(ctx, items, n));
		return false;
	}
	out[0] = items[0].u.i;
	out[1] = items[n - 1].u.i;
	if (out[0] < min || out[1] < min) {
		infer_op_error(ctx, "'%s' attribute %s=%s must be at least %lld",
			       infer_op_name(ctx), name, list_text(ctx, items, n), (long long)min);
		return false;
	}
	return true;
}

/* padding as TVM spells it: [p], [ph, pw] or [top, left, bottom, right];
 * out is top, left, bottom, right. */
static bool attr_padding(OpTypeContext *ctx, int64_t out[4])
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	out[0] = out[1] = out[2] = out[3] = 0;
	if (!attr_list(ctx, "padding", &items, &n, &given))
		return false;
	if (!given)
		return true;
	switch (n) {
	case 1:
		out[0] = out[1] = out[2] = out[3] = items[0].u.i;
		break;
	case 2:
		out[0] = out[2] = items[0].u.i;
		out[1] = out[3] = items[1].u.i;
		break;
	case 4:
		for (int i = 0; i < 4; i++)
			out[i] = items[i].u.i;
		break;
	default:
		infer_op_error(ctx, "'%s' attribute padding=%s must have 1, 2 or 4 values",
			       infer_op_name(ctx), list_text(ctx, items, n));
		return false;
	}
	for (int i = 0; i < 4; i++)
		if (out[i] < 0) {
			infer_op_error(ctx, "'%s' attribute padding=%s must not be negative",
				       infer_op_name(ctx), list_text(ctx, items, n));
			return false;
		}
	return true;
}

/* An axis in [-ndim, ndim), made non-negative. */
static bool normalize_axis(OpTypeContext *ctx, int64_t axis, const Type *t, int64_t *out)
{
	int64_t ndim = t->u.tensor.ndim;
	if (axis < -ndim || axis >= ndim) {
		infer_op_error(ctx, "'%s' axis %lld is out of range for %s", infer_op_name(ctx),
			       (long long)axis, tname(ctx, t));
		return false;
	}
	*out = axis < 0 ? axis + ndim : axis;
	return true;
}

/* ---- elementwise ------------------------------------------------------- */

/* numpy broadcasting: right-aligned, equal or 1; `?` against d gives d
 * unless d is 1. */
static bool broadcast_dim(int64_t a, int64_t b, int64_t *out)
{
	if (a == b || b == 1)
		*out = a;
	else if (a == 1)
		*out = b;
	else if (!dim_known(a))
		*out = b;
	else if (!dim_known(b))
		*out = a;
	else
		return false;
	return true;
}

static Type *infer_broadcast(OpTypeContext *ctx)
{
	Type *a, *b, *r;
	DimBuf buf;
	int64_t *dims;
	uint32_t na, nb, n;
	if (!tensor_pair(ctx, &a, &b) || !same_dtype(ctx, a, b))
		return NULL;
	if (type_equal(a, b))
		return a;
	na = a->u.tensor.ndim;
	nb = b->u.tensor.ndim;
	n = na > nb ? na : nb;
	dims = dims_alloc(&buf, n);
	for (uint32_t k = 1; k <= n; k++) {
		int64_t da = k <= na ? a->u.tensor.dims[na - k] : 1;
		int64_t db = k <= nb ? b->u.tensor.dims[nb - k] : 1;
		if (!broadcast_dim(da, db, &dims[n - k])) {
			infer_op_error(ctx, "cannot broadcast operands of '%s': %s and %s",
				       infer_op_name(ctx), tname(ctx, a), tname(ctx, b));
			dims_release(&buf);
			return NULL;
		}
	}
	r = infer_result(ctx, a->u.tensor.dtype, n, dims, a, b);
	dims_release(&buf);
	return r;
}

static Type *infer_unary(OpTypeContext *ctx, bool need_float)
{
	Type *x = tensor_arg(ctx, 0);
	if (!x)
		return NULL;
	if (need_float && !dtype_is_float(x->u.tensor.dtype)) {
		infer_op_error(ctx, "'%s' expects a floating-point tensor, got %s",
			       infer_op_name(ctx), tname(ctx, x));
		return NULL;
	}
	return x;
}

static Type *infer_op_ADD(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

static Type *infer_op_SUBTRACT(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

static Type *infer_op_MULTIPLY(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

static Type *infer_op_DIVIDE(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

static Type *infer_op_MAXIMUM(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

static Type *infer_op_MINIMUM(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

static Type *infer_op_NEGATIVE(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

static Type *infer_op_EXP(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

static Type *infer_op_LOG(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

static Type *infer_op_SQRT(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

static Type *infer_op_TANH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

static Type *infer_op_SIGMOID(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

static Type *infer_op_RELU(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

static Type *infer_op_ZEROS_LIKE(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

static Type *infer_op_ONES_LIKE(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

/* clip(x, a_min, a_max): the bounds are numbers; the type is x's. */
static Type *infer_op_CLIP(OpTypeContext *ctx)
{
	static const char *const bounds[] = {"a_min", "a_max"};
	for (size_t i = 0; i < DP_COUNT(bounds); i++) {
		const AttrValue *v = attr_value(ctx, bounds[i]);
		if (v && v->kind != ATTR_FLOAT && v->kind != ATTR_INT) {
			infer_op_error(ctx, "'clip' attribute '%s' must be a number", bounds[i]);
			return NULL;
		}
	}
	return infer_unary(ctx, false);
}

/* ---- matrix products --------------------------------------------------- */

/* nn.dense(data[..., K], weight[N, K]) -> [..., N] */
static Type *infer_op_DENSE(OpTypeContext *ctx)
{
	Type *d, *w, *r;
	int64_t units, k, n;
	bool has_units;
	DType out_dt;
	DimBuf buf;
	int64_t *dims;
	uint32_t nd;
	if (!tensor_pair(ctx, &d, &w))
		return NULL;
	nd = d->u.tensor.ndim;
	if (nd == 0) {
		infer_op_error(ctx, "'nn.dense' expects data with at least one dimension, got %s",
			       tname(ctx, d));
		return NULL;
	}
	if (!attr_int(ctx, "units", 0, &units, &has_units))
		return NULL;
	k = d->u.tensor.dims[nd - 1];
	if (w->u.tensor.ndim != 2 || !dim_match(w->u.tensor.dims[1], k)) {
		infer_op_error(ctx, "'nn.dense' expects weight of shape (units, %s), got %s",
			       dim_text(ctx, k), tname(ctx, w));
		return NULL;
	}
	n = w->u.tensor.dims[0];
	if (has_units) {
		if (units < 0 || (dim_known(n) && n != units)) {
			infer_op_error(ctx,
				       "'nn.dense' attribute units=%lld does not match weight %s",
				       (long long)units, tname(ctx, w));
			return NULL;
		}
		n = units;
	}
	if (!same_dtype(ctx, d, w) || !attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	dims = dims_alloc(&buf, nd);
	memcpy(dims, d->u.tensor.dims, nd * sizeof(int64_t));
	dims[nd - 1] = n;
	r = infer_result(ctx, out_dt, nd, dims, d, NULL);
	dims_release(&buf);
	return r;
}

/* nn.batch_matmul(x[B, M, K], y[B, N, K]) -> [B, M, N], with transpose_a
 * (default false) and transpose_b (default true) and a batch of 1
 * broadcasting. */
static Type *infer_op_BATCH_MATMUL(OpTypeContext *ctx)
{
	Type *x, *y;
	bool ta, tb;
	int64_t dims[3], kx, ky;
	const int64_t *xd, *yd;
	DType out_dt;
	if (!tensor_pair(ctx, &x, &y))
		return NULL;
	if (x->u.tensor.ndim != 3 || y->u.tensor.ndim != 3) {
		infer_op_error(ctx, "'nn.batch_matmul' expects 3-D operands, got %s and %s",
			       tname(ctx, x), tname(ctx, y));
		return NULL;
	}
	if (!attr_bool(ctx, "transpose_a", false, &ta) || !attr_bool(ctx, "transpose_b", true, &tb))
		return NULL;
	xd = x->u.tensor.dims;
	yd = y->u.tensor.dims;
	kx = ta ? xd[1] : xd[2];
	ky = tb ? yd[2] : yd[1];
	if (!dim_match(kx, ky)) {
		infer_op_error(ctx,
			       "'nn.batch_matmul' reduction dimensions do not match: %s and %s "
			       "(transpose_a=%s, transpose_b=%s)",
			       tname(ctx, x), tname(ctx, y), ta ? "True" : "False",
			       tb ? "True" : "False");
		return NULL;
	}
	if (!broadcast_dim(xd[0], yd[0], &dims[0])) {
		infer_op_error(ctx,
			       "batch dimensions of 'nn.batch_matmul' do not broadcast: %s and %s",
			       tname(ctx, x), tname(ctx, y));
		return NULL;
	}
	dims[1] = ta ? xd[2] : xd[1];
	dims[2] = tb ? yd[1] : yd[2];
	if (!same_dtype(ctx, x, y) || !attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 3, dims, x, y);
}

/* nn.bias_add(x, bias[C]) with C = x.shape[axis]; the type is x's. */
static Type *infer_op_BIAS_ADD(OpTypeContext *ctx)
{
	Type *x, *bias;
	int64_t axis;
	if (!tensor_pair(ctx, &x, &bias) || !attr_int(ctx, "axis", 1, &axis, NULL) ||
	    !normalize_axis(ctx, axis, x, &axis))
		return NULL;
	if (bias->u.tensor.ndim != 1 ||
	    !dim_match(bias->u.tensor.dims[0], x->u.tensor.dims[axis])) {
		infer_op_error(ctx, "'nn.bias_add' bias %s does not match axis %lld of %s",
			       tname(ctx, bias), (long long)axis, tname(ctx, x));
		return NULL;
	}
	if (!same_dtype(ctx, x, bias))
		return NULL;
	return x;
}

static Type *infer_op_SOFTMAX(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0);
	int64_t axis;
	if (!x || !attr_int(ctx, "axis", -1, &axis, NULL) || !normalize_axis(ctx, axis, x, &axis))
		return NULL;
	return x;
}

/* ---- reductions -------------------------------------------------------- */

/* sum/mean/max: axis absent or None reduces every axis (TVM ignores
 * exclude then); otherwise the listed axes, or all others with exclude. */
static Type *infer_reduce(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0), *r;
	const AttrValue *items;
	uint32_t n, ndim, nout = 0;
	bool present, keepdims, exclude;
	uint8_t *reduce;
	DimBuf buf;
	int64_t *dims;
	if (!x || !attr_list(ctx, "axis", &items, &n, &present) ||
	    !attr_bool(ctx, "keepdims", false, &keepdims) ||
	    !attr_bool(ctx, "exclude", false, &exclude))
		return NULL;
	ndim = x->u.tensor.ndim;
	reduce = xcalloc(ndim ? ndim : 1, 1);
	if (!present) {
		memset(reduce, 1, ndim);
	} else {
		for (uint32_t i = 0; i < n; i++) {
			int64_t axis;
			if (!normalize_axis(ctx, items[i].u.i, x, &axis)) {
				free(reduce);
				return NULL;
			}
			if (reduce[axis]) {
				infer_op_error(ctx, "'%s' axis=%s names axis %lld twice",
					       infer_op_name(ctx), list_text(ctx, items, n),
					       (long long)axis);
				free(reduce);
				return NULL;
			}
			reduce[axis] = 1;
		}
		if (exclude)
			for (uint32_t i = 0; i < ndim; i++)
				reduce[i] = !reduce[i];
	}
	dims = dims_alloc(&buf, ndim);
	for (uint32_t i = 0; i < ndim; i++) {
		if (!reduce[i])
			dims[nout++] = x->u.tensor.dims[i];
		else if (keepdims)
			dims[nout++] = 1;
	}
	r = infer_result(ctx, x->u.tensor.dtype, nout, dims, x, NULL);
	dims_release(&buf);
	free(reduce);
	return r;
}

static Type *infer_op_SUM(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

static Type *infer_op_MEAN(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

static Type *infer_op_MAX(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

/* ---- shape manipulation ------------------------------------------------ */

/*
 * reshape(x, newshape): TVM's special values. 0 copies the next input
 * dimension (a literal 0 with allowzero), -1 is inferred from the element
 * count, -2 copies all remaining dimensions, -3 merges the next two, and
 * -4 splits the next one into the two values that follow it (one may be -1).
 */
static Type *infer_op_RESHAPE(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n, ndim, src = 0, nout = 0;
	int64_t infer_at = -1, product = 1, total = 0;
	bool present, allowzero, unknown = false, total_known;
	const int64_t *xd;
	DimBuf buf;
	int64_t *out;
	const char *shape_text;
	if (!x || !attr_list(ctx, "newshape", &items, &n, &present) ||
	    !attr_bool(ctx, "allowzero", false, &allowzero))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'reshape' needs a newshape attribute");
		return NULL;
	}
	ndim = x->u.tensor.ndim;
	xd = x->u.tensor.dims;
	shape_text = NULL;
	out = dims_alloc(&buf, (size_t)n + ndim + 1);
#define RESHAPE_FAIL(...)                         \
	do {                                      \
		infer_op_error(ctx, __VA_ARGS__); \
		goto done;                        \
	} while (0)
#define SHAPE_TEXT() (shape_text ? shape_text : (shape_text = list_text(ctx, items, n)))
	for (uint32_t i = 0; i < n; i++) {
		int64_t v = items[i].u.i;
		if (v > 0) {
			out[nout++] = v;
			src++;
		} else if (v == 0) {
			if (allowzero) {
				out[nout++] = 0;
			} else {
				if (src >= ndim)
					RESHAPE_FAIL(
						"'reshape' newshape %s copies dimension %u of %s, "
						"which has only %u",
						SHAPE_TEXT(), src, tname(ctx, x), ndim);
				out[nout++] = xd[src];
			}
			src++;
		} else if (v == -1) {
			if (infer_at >= 0)
				RESHAPE_FAIL("'reshape' newshape %s has more than one -1",
					     SHAPE_TEXT());
			infer_at = nout;
			out[nout++] = DIM_ANY;
			src++;
		} else if (v == -2) {
			while (src < ndim)
				out[nout++] = xd[src++];
		} else if (v == -3) {
			if (src + 1 >= ndim)
				RESHAPE_FAIL("'reshape' newshape %s merges dimensions past the end "
					     "of %s",
					     SHAPE_TEXT(), tname(ctx, x));
			if (!dim_known(xd[src]) || !dim_known(xd[src + 1]))
				out[nout] = DIM_ANY;
			else if (!checked_mul(xd[src], xd[src + 1], &out[nout]))
				RESHAPE_FAIL("'reshape' merged dimension of %s overflows",
					     tname(ctx, x));
			nout++;
			src += 2;
		} else if (v == -4) {
			int64_t d, d1, d2, prod;
			if (i + 2 >= n)
				RESHAPE_FAIL("'reshape' newshape %s: -4 must be followed by two "
					     "values",
					     SHAPE_TEXT());
			if (src >= ndim)
				RESHAPE_FAIL(
					"'reshape' newshape %s splits a dimension past the end "
					"of %s",
					SHAPE_TEXT(), tname(ctx, x));
			d = xd[src++];
			d1 = items[i + 1].u.i;
			d2 = items[i + 2].u.i;
			i += 2;
			if (d1 < -1 || d2 < -1 || d1 == 0 || d2 == 0 || (d1 == -1 && d2 == -1))
				RESHAPE_FAIL(
					"'reshape' newshape %s has an invalid split %lld, %lld",
					SHAPE_TEXT(), (long long)d1, (long long)d2);
			if (!dim_known(d)) {
				out[nout++] = d1 == -1 ? DIM_ANY : d1;
				out[nout++] = d2 == -1 ? DIM_ANY : d2;
				continue;
			}
			if (d1 == -1)
				d1 = d % d2 == 0 ? d / d2 : -1;
			if (d2 == -1)
				d2 = d % d1 == 0 ? d / d1 : -1;
			if (d1 < 0 || d2 < 0 || !checked_mul(d1, d2, &prod) || prod != d)
				RESHAPE_FAIL(
					"'reshape' newshape %s cannot split dimension %lld of %s",
					SHAPE_TEXT(), (long long)d, tname(ctx, x));
			out[nout++] = d1;
			out[nout++] = d2;
		} else {
			RESHAPE_FAIL("'reshape' newshape %s has invalid value %lld", SHAPE_TEXT(),
				     (long long)v);
		}
	}
	for (uint32_t i = 0; i < nout; i++) {
		if ((int64_t)i == infer_at)
			continue;
		if (!dim_known(out[i]))
			unknown = true;
		else if (!checked_mul(product, out[i], &product))
			RESHAPE_FAIL("'reshape' newshape %s has more elements than int64 can count",
				     SHAPE_TEXT());
	}
	total_known = type_num_elements(x, &total);
	if (infer_at >= 0) {
		if (unknown || !total_known) {
			out[infer_at] = DIM_ANY;
		} else if (product == 0 || total % product != 0) {
			RESHAPE_FAIL("'reshape' cannot reshape %s (%lld elements) to newshape %s",
				     tname(ctx, x), (long long)total, SHAPE_TEXT());
		} else {
			out[infer_at] = total / product;
		}
	} else if (!unknown && total_known && product != total) {
		RESHAPE_FAIL("'reshape' cannot reshape %s (%lld elements) to newshape %s (%lld "
			     "elements)",
			     tname(ctx, x), (long long)total, SHAPE_TEXT(), (long long)product);
	}
	if (nout > INFER_MAX_NDIM)
		RESHAPE_FAIL("'reshape' result has %u dimensions, more than %d", nout,
			     INFER_MAX_NDIM);
	r = infer_result(ctx, x->u.tensor.dtype, nout, out, x, NULL);
done:
#undef RESHAPE_FAIL
#undef SHAPE_TEXT
	dims_release(&buf);
	return r;
}

/* transpose(x, axes): a permutation of the axes; absent or [] reverses. */
static Type *infer_op_TRANSPOSE(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n, ndim;
	bool present;
	uint8_t *used;
	DimBuf buf;
	int64_t *dims;
	if (!x || !attr_list(ctx, "axes", &items, &n, &present))
		return NULL;
	ndim = x->u.tensor.ndim;
	dims = dims_alloc(&buf, ndim);
	if (!present || n == 0) {
		for (uint32_t i = 0; i < ndim; i++)
			dims[i] = x->u.tensor.dims[ndim - 1 - i];
		r = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
		dims_release(&buf);
		return r;
	}
	if (n != ndim) {
		infer_op_error(ctx, "'transpose' axes=%s do not match the %u dimensions of %s",
			       list_text(ctx, items, n), ndim, tname(ctx, x));
		dims_release(&buf);
		return NULL;
	}
	used = xcalloc(ndim, 1);
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis;
		if (!normalize_axis(ctx, items[i].u.i, x, &axis))
			goto done;
		if (used[axis]) {
			infer_op_error(ctx, "'transpose' axes=%s is not a permutation",
				       list_text(ctx, items, n));
			goto done;
		}
		used[axis] = 1;
		dims[i] = x->u.tensor.dims[axis];
	}
	r = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
done:
	free(used);
	dims_release(&buf);
	return r;
}

/* concatenate((t0, t1, ...), axis): equal ranks and dtypes, equal dims off
 * the axis, summed along it. */
static Type *infer_op_CONCATENATE(OpTypeContext *ctx)
{
	Type *t = ctx->arg_types[0], *first, *r;
	int64_t axis;
	uint32_t ndim, nf;
	DimBuf buf;
	int64_t *dims;
	if (t->kind != TYPE_TUPLE || t->u.tuple.nfields == 0)
		goto not_tensors;
	for (uint32_t j = 0; j < t->u.tuple.nfields; j++)
		if (t->u.tuple.fields[j]->kind != TYPE_TENSOR)
			goto not_tensors;
	nf = t->u.tuple.nfields;
	first = t->u.tuple.fields[0];
	ndim = first->u.tensor.ndim;
	if (!attr_int(ctx, "axis", 0, &axis, NULL) || !normalize_axis(ctx, axis, first, &axis))
		return NULL;
	if (nf == 1)
		return first;
	dims = dims_alloc(&buf, ndim);
	memcpy(dims, first->u.tensor.dims, ndim * sizeof(int64_t));
	for (uint32_t j = 1; j < nf; j++) {
		const Type *f = t->u.tuple.fields[j];
		if (f->u.tensor.ndim != ndim || f->u.tensor.dtype != first->u.tensor.dtype) {
			infer_op_error(ctx,
				       "'concatenate' fields 0 and %u differ in rank or dtype: "
				       "%s and %s",
				       j, tname(ctx, first), tname(ctx, f));
			goto fail;
		}
		for (uint32_t i = 0; i < ndim; i++) {
			int64_t d = f->u.tensor.dims[i];
			if ((int64_t)i == axis) {
				if (!dim_known(dims[i]) || !dim_known(d))
					dims[i] = DIM_ANY;
				else if (!checked_add(dims[i], d, &dims[i])) {
					infer_op_error(ctx,
						       "'concatenate' result along axis %lld "
						       "overflows",
						       (long long)axis);
					goto fail;
				}
			} else if (!dim_match(dims[i], d)) {
				infer_op_error(ctx,
					       "'concatenate' fields 0 and %u differ outside "
					       "axis %lld: %s and %s",
					       j, (long long)axis, tname(ctx, first),
					       tname(ctx, f));
				goto fail;
			} else if (!dim_known(dims[i])) {
				dims[i] = d;
			}
		}
	}
	r = infer_result(ctx, first->u.tensor.dtype, ndim, dims, first, NULL);
	dims_release(&buf);
	return r;
fail:
	dims_release(&buf);
	return NULL;
not_tensors:
	infer_op_error(ctx, "'concatenate' expects a non-empty tuple of tensors, got %s",
		       tname(ctx, t));
	return NULL;
}

/* ---- convolution and pooling ------------------------------------------ */

/* One spatial extent of a convolution or pooling window:
 * (in + pad_before + pad_after - dilation * (kernel - 1) - 1) / stride + 1,
 * rounding up with ceil_mode. `?` in, `?` out. */
static bool window_extent(OpTypeContext *ctx, const char *which, int64_t in, int64_t pad_a,
			  int64_t pad_b, int64_t kernel, int64_t dilation, int64_t stride,
			  bool ceil_mode, int64_t *out)
{
	int64_t padded, span, num;
	if (!dim_known(in) || !dim_known(kernel)) {
		*out = DIM_ANY;
		return true;
	}
	if (kernel == 0) {
		infer_op_error(ctx, "'%s' has an empty window in %s", infer_op_name(ctx), which);
		return false;
	}
	if (!checked_add(in, pad_a, &padded) || !checked_add(padded, pad_b, &padded) ||
	    !checked_mul(dilation, kernel - 1, &span) || !checked_add(span, 1, &span)) {
		infer_op_error(ctx, "'%s' output %s overflows", infer_op_name(ctx), which);
		return false;
	}
	if (span > padded) {
		infer_op_error(ctx,
			       "'%s' window of %lld (dilated) is larger than the padded input "
			       "%s of %lld",
			       infer_op_name(ctx), (long long)span, which, (long long)padded);
		return false;
	}
	num = padded - span;
	if (ceil_mode)
		num = num / stride + (num % stride != 0);
	else
		num = num / stride;
	*out = num + 1;
	return true;
}

/* The 4-D data and weight of a convolution. */
static bool conv_operands(OpTypeContext *ctx, const char *layouts, Type **d, Type **w)
{
	if (!tensor_pair(ctx, d, w))
		return false;
	if ((*d)->u.tensor.ndim == 4 && (*w)->u.tensor.ndim == 4)
		return true;
	infer_op_error(ctx, "'%s' expects 4-D data and weight (%s), got %s and %s",
		       infer_op_name(ctx), layouts, tname(ctx, *d), tname(ctx, *w));
	return false;
}

/* channels and kernel_size, when given, must agree with the weight. */
static bool conv_check_attrs(OpTypeContext *ctx, const Type *w, int64_t *out_channels, int64_t kh,
			     int64_t kw)
{
	int64_t channels, ks[2];
	bool has_channels, has_ks;
	if (!attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !attr_pair(ctx, "kernel_size", 0, 0, ks, &has_ks))
		return false;
	if (has_channels) {
		if (channels < 0 || !dim_match(channels, *out_channels)) {
			infer_op_error(ctx, "'%s' attribute channels=%lld does not match weight %s",
				       infer_op_name(ctx), (long long)channels, tname(ctx, w));
			return false;
		}
		*out_channels = channels;
	}
	if (has_ks && (!dim_match(ks[0], kh) || !dim_match(ks[1], kw))) {
		infer_op_error(
			ctx, "'%s' attribute kernel_size=[%lld, %lld] does not match weight %s",
			infer_op_name(ctx), (long long)ks[0], (long long)ks[1], tname(ctx, w));
		return false;
	}
	return true;
}

/* nn.conv2d: data NCHW, weight OIHW with I = C / groups. */
static Type *infer_op_CONV2D(OpTypeContext *ctx)
{
	Type *d, *w;
	int64_t strides[2], dilation[2], pad[4], groups, dims[4], c, o, i_per_group;
	DType out_dt;
	if (!conv_operands(ctx, "NCHW and OIHW", &d, &w) ||
	    !attr_layout(ctx, "data_layout", "NCHW", NULL) ||
	    !attr_layout(ctx, "kernel_layout", "OIHW", NULL) ||
	    !attr_layout(ctx, "out_layout", "NCHW", NULL) ||
	    !attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !attr_pair(ctx, "dilation", 1, 1, dilation, NULL) || !attr_padding(ctx, pad) ||
	    !attr_int(ctx, "groups", 1, &groups, NULL))
		return NULL;
	if (groups < 1) {
		infer_op_error(ctx, "'nn.conv2d' attribute groups=%lld must be positive",
			       (long long)groups);
		return NULL;
	}
	c = d->u.tensor.dims[1];
	o = w->u.tensor.dims[0];
	i_per_group = w->u.tensor.dims[1];
	if (dim_known(c) && c % groups != 0) {
		infer_op_error(
			ctx, "'nn.conv2d' data %s has %lld channels, not divisible by groups=%lld",
			tname(ctx, d), (long long)c, (long long)groups);
		return NULL;
	}
	if (dim_known(c) && dim_known(i_per_group) && i_per_group != c / groups) {
		int64_t expects;
		if (!checked_mul(i_per_group, groups, &expects))
			expects = INT64_MAX;
		infer_op_error(ctx,
			       "'nn.conv2d' channel mismatch: data %s has %lld channels, "
			       "weight %s expects %lld (groups=%lld)",
			       tname(ctx, d), (long long)c, tname(ctx, w), (long long)expects,
			       (long long)groups);
		return NULL;
	}
	if (dim_known(o) && o % groups != 0) {
		infer_op_error(ctx,
			       "'nn.conv2d' weight %s has %lld output channels, not divisible by "
			       "groups=%lld",
			       tname(ctx, w), (long long)o, (long long)groups);
		return NULL;
	}
	if (!conv_check_attrs(ctx, w, &o, w->u.tensor.dims[2], w->u.tensor.dims[3]))
		return NULL;
	dims[0] = d->u.tensor.dims[0];
	dims[1] = o;
	if (!window_extent(ctx, "height", d->u.tensor.dims[2], pad[0], pad[2], w->u.tensor.dims[2],
			   dilation[0], strides[0], false, &dims[2]) ||
	    !window_extent(ctx, "width", d->u.tensor.dims[3], pad[1], pad[3], w->u.tensor.dims[3],
			   dilation[1], strides[1], false, &dims[3]))
		return NULL;
	if (!same_dtype(ctx, d, w) || !attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 4, dims, d, NULL);
}

/* One spatial extent of a transposed convolution:
 * (in - 1) * stride - pad_before - pad_after + dilation * (kernel - 1)
 * + output_padding + 1. */
static bool transpose_extent(OpTypeContext *ctx, const char *which, int64_t in, int64_t pad_a,
			     int64_t pad_b, int64_t kernel, int64_t dilation, int64_t stride,
			     int64_t out_pad, int64_t *out)
{
	int64_t v, span;
	if (!dim_known(in) || !dim_known(kernel)) {
		*out = DIM_ANY;
		return true;
	}
	if (!checked_mul(in - 1, stride, &v) || !checked_sub(v, pad_a, &v) ||
	    !checked_sub(v, pad_b, &v) || !checked_mul(dilation, kernel - 1, &span) ||
	    !checked_add(v, span, &v) || !checked_add(v, out_pad, &v) || !checked_add(v, 1, &v)) {
		infer_op_error(ctx, "'%s' output %s overflows", infer_op_name(ctx), which);
		return false;
	}
	if (v < 0) {
		infer_op_error(ctx, "'%s' output %s would be %lld", infer_op_name(ctx), which,
			       (long long)v);
		return false;
	}
	*out = v;
	return true;
}

/* nn.conv2d_transpose: data NCHW, weight (in_channels, out_channels /
 * groups, kh, kw) as TVM lays it out (IOHW; older TVM printed that shape as
 * kernel_layout="OIHW", which is accepted too). */
static Type *infer_op_CONV2D_TRANSPOSE(OpTypeContext *ctx)
{
	Type *d, *w;
	int64_t strides[2], dilation[2], out_pad[2], pad[4], groups, dims[4], c, o;
	DType out_dt;
	if (!conv_operands(ctx, "NCHW and IOHW", &d, &w) ||
	    !attr_layout(ctx, "data_layout", "NCHW", NULL) ||
	    !attr_layout(ctx, "kernel_layout", "IOHW", "OIHW") ||
	    !attr_layout(ctx, "out_layout", "NCHW", NULL) ||
	    !attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !attr_pair(ctx, "output_padding", 0, 0, out_pad, NULL) || !attr_padding(ctx, pad) ||
	    !attr_int(ctx, "groups", 1, &groups, NULL))
		return NULL;
	if (groups < 1) {
		infer_op_error(ctx, "'nn.conv2d_transpose' attribute groups=%lld must be positive",
			       (long long)groups);
		return NULL;
	}
	c = d->u.tensor.dims[1];
	if (!dim_match(c, w->u.tensor.dims[0])) {
		infer_op_error(ctx,
			       "'nn.conv2d_transpose' channel mismatch: data %s has %lld "
			       "channels, weight %s expects %lld",
			       tname(ctx, d), (long long)c, tname(ctx, w),
			       (long long)w->u.tensor.dims[0]);
		return NULL;
	}
	if (dim_known(c) && c % groups != 0) {
		infer_op_error(ctx,
			       "'nn.conv2d_transpose' data %s has %lld channels, not divisible "
			       "by groups=%lld",
			       tname(ctx, d), (long long)c, (long long)groups);
		return NULL;
	}
	o = w->u.tensor.dims[1];
	if (dim_known(o) && !checked_mul(o, groups, &o)) {
		infer_op_error(ctx, "'nn.conv2d_transpose' output channels overflow");
		return NULL;
	}
	if (!conv_check_attrs(ctx, w, &o, w->u.tensor.dims[2], w->u.tensor.dims[3]))
		return NULL;
	dims[0] = d->u.tensor.dims[0];
	dims[1] = o;
	if (!transpose_extent(ctx, "height", d->u.tensor.dims[2], pad[0], pad[2],
			      w->u.tensor.dims[2], dilation[0], strides[0], out_pad[0], &dims[2]) ||
	    !transpose_extent(ctx, "width", d->u.tensor.dims[3], pad[1], pad[3],
			      w->u.tensor.dims[3], dilation[1], strides[1], out_pad[1], &dims[3]))
		return NULL;
	if (!same_dtype(ctx, d, w) || !attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 4, dims, d, NULL);
}

/* The 4-D NCHW input of a pooling op. */
static Type *pool_input(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0);
	if (!x)
		return NULL;
	if (x->u.tensor.ndim != 4) {
		infer_op_error(ctx, "'%s' expects 4-D NCHW data, got %s", infer_op_name(ctx),
			       tname(ctx, x));
		return NULL;
	}
	if (!attr_layout(ctx, "layout", "NCHW", NULL) ||
	    !attr_layout(ctx, "out_layout", "NCHW", NULL))
		return NULL;
	return x;
}

static Type *infer_pool(OpTypeContext *ctx)
{
	Type *x = pool_input(ctx);
	int64_t pool[2], strides[2], dilation[2], pad[4], dims[4];
	bool has_pool, ceil_mode;
	if (!x || !attr_pair(ctx, "pool_size", 1, 1, pool, &has_pool) ||
	    !attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !attr_pair(ctx, "dilation", 1, 1, dilation, NULL) || !attr_padding(ctx, pad) ||
	    !attr_bool(ctx, "ceil_mode", false, &ceil_mode))
		return NULL;
	if (!has_pool) {
		infer_op_error(ctx, "'%s' needs a pool_size attribute", infer_op_name(ctx));
		return NULL;
	}
	dims[0] = x->u.tensor.dims[0];
	dims[1] = x->u.tensor.dims[1];
	if (!window_extent(ctx, "height", x->u.tensor.dims[2], pad[0], pad[2], pool[0], dilation[0],
			   strides[0], ceil_mode, &dims[2]) ||
	    !window_extent(ctx, "width", x->u.tensor.dims[3], pad[1], pad[3], pool[1], dilation[1],
			   strides[1], ceil_mode, &dims[3]))
		return NULL;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

static Type *infer_op_MAX_POOL2D(OpTypeContext *ctx)
{
	return infer_pool(ctx);
}

static Type *infer_op_AVG_POOL2D(OpTypeContext *ctx)
{
	bool count_include_pad;
	if (!attr_bool(ctx, "count_include_pad", false, &count_include_pad))
		return NULL;
	return infer_pool(ctx);
}

static Type *infer_op_GLOBAL_AVG_POOL2D(OpTypeContext *ctx)
{
	Type *x = pool_input(ctx);
	int64_t dims[4];
	if (!x)
		return NULL;
	dims[0] = x->u.tensor.dims[0];
	dims[1] = x->u.tensor.dims[1];
	dims[2] = dims[3] = 1;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* nn.batch_flatten(x[N, ...]) -> [N, prod(...)] */
static Type *infer_op_BATCH_FLATTEN(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0);
	int64_t dims[2], rest = 1;
	if (!x)
		return NULL;
	if (x->u.tensor.ndim == 0) {
		infer_op_error(ctx, "'nn.batch_flatten' expects at least one dimension, got %s",
			       tname(ctx, x));
		return NULL;
	}
	/* a zero dimension makes the product 0 whatever else is unknown */
	for (uint32_t i = 1; i < x->u.tensor.ndim && rest != 0; i++)
		if (x->u.tensor.dims[i] == 0)
			rest = 0;
	for (uint32_t i = 1; i < x->u.tensor.ndim && rest != 0; i++) {
		int64_t d = x->u.tensor.dims[i];
		if (!dim_known(d) || !dim_known(rest))
			rest = DIM_ANY;
		else if (!checked_mul(rest, d, &rest)) {
			infer_op_error(ctx,
				       "'nn.batch_flatten' of %s has more elements than int64 "
				       "can count",
				       tname(ctx, x));
			return NULL;
		}
	}
	dims[0] = x->u.tensor.dims[0];
	dims[1] = rest;
	return infer_result(ctx, x->u.tensor.dtype, 2, dims, x, NULL);
}

/* expand_dims(x, axis, num_newaxis=1): axis in [-ndim-1, ndim]. */
static Type *infer_op_EXPAND_DIMS(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0), *r;
	int64_t axis, num, ndim;
	bool has_axis;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!x || !attr_int(ctx, "axis", 0, &axis, &has_axis) ||
	    !attr_int(ctx, "num_newaxis", 1, &num, NULL))
		return NULL;
	ndim = x->u.tensor.ndim;
	if (!has_axis) {
		infer_op_error(ctx, "'expand_dims' needs an axis attribute");
		return NULL;
	}
	if (axis < -ndim - 1 || axis > ndim) {
		infer_op_error(ctx, "'expand_dims' axis %lld is out of range for %s",
			       (long long)axis, tname(ctx, x));
		return NULL;
	}
	if (num < 0 || num > INFER_MAX_NDIM - ndim) {
		infer_op_error(ctx, "'expand_dims' num_newaxis=%lld must be between 0 and %lld",
			       (long long)num, (long long)(INFER_MAX_NDIM - ndim));
		return NULL;
	}
	if (axis < 0)
		axis += ndim + 1;
	if (num == 0)
		return x;
	dims = dims_alloc(&buf, (size_t)(ndim + num));
	for (int64_t i = 0; i < ndim; i++) {
		if (i == axis)
			for (int64_t j = 0; j < num; j++)
				dims[k++] = 1;
		dims[k++] = x->u.tensor.dims[i];
	}
	if (axis == ndim)
		for (int64_t j = 0; j < num; j++)
			dims[k++] = 1;
	r = infer_result(ctx, x->u.tensor.dtype, k, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* squeeze(x, axis): the listed axes, each of size 1, or every axis of size 1
 * when absent. */
static Type *infer_op_SQUEEZE(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n, ndim, k = 0;
	bool present;
	uint8_t *drop;
	DimBuf buf;
	int64_t *dims;
	if (!x || !attr_list(ctx, "axis", &items, &n, &present))
		return NULL;
	ndim = x->u.tensor.ndim;
	drop = xcalloc(ndim ? ndim : 1, 1);
	dims = dims_alloc(&buf, ndim);
	if (!present) {
		for (uint32_t i = 0; i < ndim; i++)
			drop[i] = x->u.tensor.dims[i] == 1;
	} else {
		for (uint32_t i = 0; i < n; i++) {
			int64_t axis;
			if (!normalize_axis(ctx, items[i].u.i, x, &axis))
				goto done;
			if (dim_known(x->u.tensor.dims[axis]) && x->u.tensor.dims[axis] != 1) {
				infer_op_error(ctx,
					       "'squeeze' cannot squeeze axis %lld of %s: its size "
					       "is %lld",
					       (long long)axis, tname(ctx, x),
					       (long long)x->u.tensor.dims[axis]);
				goto done;
			}
			drop[axis] = 1;
		}
	}
	for (uint32_t i = 0; i < ndim; i++)
		if (!drop[i])
			dims[k++] = x->u.tensor.dims[i];
	r = infer_result(ctx, x->u.tensor.dtype, k, dims, x, NULL);
done:
	dims_release(&buf);
	free(drop);
	return r;
}

/* split(x, indices_or_sections, axis): N equal sections, or cuts at the
 * listed indices; a tuple of the pieces. */
static Type *infer_op_SPLIT(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *v;
	int64_t axis, d;
	uint32_t ndim, nfields;
	Type **fields = NULL;
	DimBuf buf;
	int64_t *dims;
	if (!x || !attr_int(ctx, "axis", 0, &axis, NULL) || !normalize_axis(ctx, axis, x, &axis))
		return NULL;
	v = attr_value(ctx, "indices_or_sections");
	if (!v) {
		infer_op_error(ctx, "'split' needs an indices_or_sections attribute");
		return NULL;
	}
	ndim = x->u.tensor.ndim;
	d = x->u.tensor.dims[axis];
	dims = dims_alloc(&buf, ndim);
	memcpy(dims, x->u.tensor.dims, ndim * sizeof(int64_t));
	if (v->kind == ATTR_INT) {
		int64_t sections = v->u.i;
		Type *field;
		if (sections < 1 || sections > INFER_MAX_FIELDS) {
			infer_op_error(ctx, "'split' needs between 1 and %d sections, got %lld",
				       INFER_MAX_FIELDS, (long long)sections);
			goto done;
		}
		if (dim_known(d) && d % sections != 0) {
			infer_op_error(ctx,
				       "'split' cannot divide axis %lld of %s into %lld equal "
				       "sections",
				       (long long)axis, tname(ctx, x), (long long)sections);
			goto done;
		}
		dims[axis] = dim_known(d) ? d / sections : DIM_ANY;
		field = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
		nfields = (uint32_t)sections;
		fields = xmalloc(nfields * sizeof(Type *));
		for (uint32_t i = 0; i < nfields; i++)
			fields[i] = field;
	} else if (v->kind == ATTR_LIST) {
		uint32_t n = v->u.list.n;
		int64_t begin = 0;
		const AttrValue *items = v->u.list.items;
		if (n >= INFER_MAX_FIELDS) {
			infer_op_error(ctx, "'split' into more than %d pieces", INFER_MAX_FIELDS);
			goto done;
		}
		for (uint32_t i = 0; i < n; i++)
			if (items[i].kind != ATTR_INT) {
				infer_op_error(ctx,
					       "'split' attribute 'indices_or_sections' must be "
					       "an integer or a list of integers");
				goto done;
			}
		nfields = n + 1;
		fields = xmalloc(nfields * sizeof(Type *));
		for (uint32_t i = 0; i <= n; i++) {
			int64_t end = i < n ? items[i].u.i : d;
			if (i < n && (end < begin || (dim_known(d) && end > d))) {
				infer_op_error(ctx,
					       "'split' indices %s are not increasing within "
					       "axis %lld of %s",
					       list_text(ctx, items, n), (long long)axis,
					       tname(ctx, x));
				goto done;
			}
			dims[axis] = dim_known(end) ? end - begin : DIM_ANY;
			fields[i] =
				i > 0 && tensor_is(fields[i - 1], x->u.tensor.dtype, ndim, dims)
					? fields[i - 1]
					: infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
			begin = end;
		}
	} else {
		infer_op_error(ctx, "'split' attribute 'indices_or_sections' must be an integer or "
				    "a list of integers");
		goto done;
	}
	r = type_tuple(ir_data_arena(ctx->module), nfields, fields);
done:
	free(fields);
	dims_release(&buf);
	return r;
}

/* zeros/ones(shape, dtype): a fresh tensor type. */
static Type *infer_filled(OpTypeContext *ctx)
{
	const AttrValue *items;
	uint32_t n;
	bool present;
	DType dt;
	DimBuf buf;
	int64_t *dims, count = 1;
	Type *r = NULL;
	if (!attr_list(ctx, "shape", &items, &n, &present) ||
	    !attr_dtype(ctx, "dtype", DT_FLOAT32, &dt))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'%s' needs a shape attribute", infer_op_name(ctx));
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'%s' shape has %u dimensions, more than %d",
			       infer_op_name(ctx), n, INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		dims[i] = items[i].u.i;
		if (dims[i] < 0) {
			infer_op_error(ctx, "'%s' shape %s has a negative dimension",
				       infer_op_name(ctx), list_text(ctx, items, n));
			goto done;
		}
		if (!checked_mul(count, dims[i], &count)) {
			infer_op_error(ctx, "'%s' shape %s has more elements than int64 can count",
				       infer_op_name(ctx), list_text(ctx, items, n));
			goto done;
		}
	}
	r = type_tensor(ir_data_arena(ctx->module), dt, n, dims);
done:
	dims_release(&buf);
	return r;
}

static Type *infer_op_ZEROS(OpTypeContext *ctx)
{
	return infer_filled(ctx);
}

static Type *infer_op_ONES(OpTypeContext *ctx)
{
	return infer_filled(ctx);
}

static Type *infer_op_CAST(OpTypeContext *ctx)
{
	Type *x = tensor_arg(ctx, 0);
	const char *s;
	DType dt;
	if (!x || !attr_string(ctx, "dtype", &s))
		return NULL;
	if (!s || !*s) {
		infer_op_error(ctx, "'cast' needs a dtype attribute");
		return NULL;
	}
	if (!attr_dtype(ctx, "dtype", x->u.tensor.dtype, &dt))
		return NULL;
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
}

/* The annotations are not computations: any value, its own type. */
static Type *infer_op_ON_DEVICE(OpTypeContext *ctx)
{
	return ctx->arg_types[0];
}

static Type *infer_op_DEVICE_COPY(OpTypeContext *ctx)
{
	return ctx->arg_types[0];
}

static const OpTypeRelation infer_relations[OP_COUNT] = {
#define OP(id, name, min_args, max_args, schema) [OP_##id] = infer_op_##id,
#include "ops.def"
#undef OP
};

OpTypeRelation infer_relation(OpKind op)
{
	DP_ASSERT(op < OP_COUNT && infer_relations[op]);
	return infer_relations[op];
}
