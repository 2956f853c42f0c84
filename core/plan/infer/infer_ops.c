/*
 * infer_ops.c - what the type relations share, and their table.
 *
 * There is one type relation per operator of ops.def, in the file of its
 * family beside this one: infer_elementwise.c, infer_fill.c,
 * infer_reduce.c, infer_nn.c, infer_window.c and infer_transform.c. A
 * relation reads its argument types and the call's attributes and returns
 * the result type, or reports one error positioned at the call and returns
 * NULL. The table at the bottom is generated from ops.def, so an operator
 * without a relation does not link. Relations follow TVM's (numpy
 * broadcasting, NCHW/OIHW convolution, the special values of reshape) and
 * are permissive about `?` dimensions: a check involving an unknown
 * dimension passes and a result that depends on one is `?`.
 *
 * Two rules keep the relations safe and cheap. Every size computed from the
 * input (products, padded extents, sums along an axis) goes through the
 * checked arithmetic of infer_ops.h, so an absurd shape is an error and
 * never undefined behaviour. And a result equal to an input type is that
 * input's Type pointer (infer_result), so a chain of a million elementwise
 * ops allocates no types at all.
 *
 * Messages are lowercase, name the op in quotes and print the operand types
 * in Relay syntax, e.g. `cannot broadcast operands of 'add':
 * Tensor[(5, 7), float32] and Tensor[(3, 7), float32]`.
 *
 * This file holds what every family uses, declared in infer_ops.h:
 * messages, result types, the readers of arguments and attributes, and the
 * table.
 */
#include "infer_ops.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ---------------------------------------------------------- */

const char *infer_op_name(const OpTypeContext *ctx)
{
	return op_info(ctx->call->u.call.op)->name;
}

void infer_op_error(OpTypeContext *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(ctx->diags, DIAG_ERROR, ctx->module->src, ctx->call->pos, fmt, ap);
	va_end(ap);
}

const char *infer_tname(OpTypeContext *ctx, const Type *t)
{
	return infer_type_name(ctx->module, t);
}

/* `[1, 2, 3]` for an attribute's int list, in the module arena. */
const char *infer_list_text(OpTypeContext *ctx, const AttrValue *items, uint32_t n)
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
const char *infer_dim_text(OpTypeContext *ctx, int64_t d)
{
	char buf[32];
	if (d < 0)
		return "?";
	snprintf(buf, sizeof buf, "%lld", (long long)d);
	return arena_strdup(ir_data_arena(ctx->module), buf);
}

/* ---- result types ------------------------------------------------------ */

/* The tensor type (dt, dims): `a` or `b` when it equals one of them (either
 * may be NULL), else a new type in the module arena. */
Type *infer_result(OpTypeContext *ctx, DType dt, uint32_t ndim, const int64_t *dims, Type *a,
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
Type *infer_tensor_arg(OpTypeContext *ctx, uint32_t i)
{
	Type *t = ctx->arg_types[i];
	if (t->kind == TYPE_TENSOR)
		return t;
	infer_op_error(ctx, "'%s' expects a tensor for argument %u, got %s", infer_op_name(ctx),
		       i + 1, infer_tname(ctx, t));
	return NULL;
}

/* Both arguments of a binary op as tensors of one dtype. */
bool infer_tensor_pair(OpTypeContext *ctx, Type **a, Type **b)
{
	*a = ctx->arg_types[0];
	*b = ctx->arg_types[1];
	if ((*a)->kind != TYPE_TENSOR || (*b)->kind != TYPE_TENSOR) {
		infer_op_error(ctx, "'%s' expects tensor operands, got %s and %s",
			       infer_op_name(ctx), infer_tname(ctx, *a), infer_tname(ctx, *b));
		return false;
	}
	return true;
}

bool infer_same_dtype(OpTypeContext *ctx, const Type *a, const Type *b)
{
	if (a->u.tensor.dtype == b->u.tensor.dtype)
		return true;
	infer_op_error(ctx, "operands of '%s' have different dtypes: %s and %s", infer_op_name(ctx),
		       infer_tname(ctx, a), infer_tname(ctx, b));
	return false;
}

bool infer_dtype_in(DType dt, const DType *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == dt)
			return true;
	return false;
}

const char *infer_dtype_set_text(OpTypeContext *ctx, const DType *set, size_t n)
{
	StrBuf sb;
	const char *text;
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&sb, "%s%s",
			      i == 0       ? ""
			      : i + 1 == n ? " or "
					   : ", ",
			      dtype_name(set[i]));
	text = arena_strndup(ir_data_arena(ctx->module), sb.data ? sb.data : "", sb.len);
	strbuf_free(&sb);
	return text;
}

/* ---- attributes -------------------------------------------------------- */

/* The attribute's value, or NULL when it is absent or None. */
const AttrValue *infer_attr_value(const OpTypeContext *ctx, const char *name)
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

bool infer_attr_int(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t *out, bool *present)
{
	const AttrValue *v = infer_attr_value(ctx, name);
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

bool infer_attr_bool(OpTypeContext *ctx, const char *name, bool dflt, bool *out)
{
	const AttrValue *v = infer_attr_value(ctx, name);
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
bool infer_attr_string(OpTypeContext *ctx, const char *name, const char **out)
{
	const AttrValue *v = infer_attr_value(ctx, name);
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
bool infer_attr_list(OpTypeContext *ctx, const char *name, const AttrValue **items, uint32_t *n,
		     bool *present)
{
	const AttrValue *v = infer_attr_value(ctx, name);
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
bool infer_attr_dtype(OpTypeContext *ctx, const char *name, DType dflt, DType *out)
{
	const char *s;
	*out = dflt;
	if (!infer_attr_string(ctx, name, &s))
		return false;
	if (!s || !*s)
		return true;
	if (dtype_from_name(s, strlen(s), out))
		return true;
	infer_op_error(ctx, "'%s' has unknown %s \"%s\"", infer_op_name(ctx), name, s);
	return false;
}

/* A layout attribute must be absent, "" or one of the accepted spellings. */
bool infer_attr_layout(OpTypeContext *ctx, const char *name, const char *want, const char *also)
{
	const char *s;
	if (!infer_attr_string(ctx, name, &s))
		return false;
	if (!s || !*s || strcmp(s, want) == 0 || (also && strcmp(s, also) == 0))
		return true;
	infer_op_error(ctx, "'%s' supports only %s=\"%s\", got \"%s\"", infer_op_name(ctx), name,
		       want, s);
	return false;
}

/* A per-spatial-dimension pair (strides, dilation, kernel_size...): one value
 * for both or two; each value at least `min`. */
bool infer_attr_pair(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t min,
		     int64_t out[2], bool *present)
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	out[0] = out[1] = dflt;
	if (!infer_attr_list(ctx, name, &items, &n, &given))
		return false;
	if (present)
		*present = given;
	if (!given)
		return true;
	if (n != 1 && n != 2) {
		infer_op_error(ctx, "'%s' attribute %s=%s must have 1 or 2 values",
			       infer_op_name(ctx), name, infer_list_text(ctx, items, n));
		return false;
	}
	out[0] = items[0].u.i;
	out[1] = items[n - 1].u.i;
	if (out[0] < min || out[1] < min) {
		infer_op_error(ctx, "'%s' attribute %s=%s must be at least %lld",
			       infer_op_name(ctx), name, infer_list_text(ctx, items, n),
			       (long long)min);
		return false;
	}
	return true;
}

/* padding as TVM spells it: [p], [ph, pw] or [top, left, bottom, right];
 * out is top, left, bottom, right. */
bool infer_attr_padding(OpTypeContext *ctx, int64_t out[4])
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	out[0] = out[1] = out[2] = out[3] = 0;
	if (!infer_attr_list(ctx, "padding", &items, &n, &given))
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
			       infer_op_name(ctx), infer_list_text(ctx, items, n));
		return false;
	}
	for (int i = 0; i < 4; i++)
		if (out[i] < 0) {
			infer_op_error(ctx, "'%s' attribute padding=%s must not be negative",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			return false;
		}
	return true;
}

/* An axis in [-ndim, ndim), made non-negative. */
bool infer_normalize_axis(OpTypeContext *ctx, int64_t axis, const Type *t, int64_t *out)
{
	int64_t ndim = t->u.tensor.ndim;
	if (axis < -ndim || axis >= ndim) {
		infer_op_error(ctx, "'%s' axis %lld is out of range for %s", infer_op_name(ctx),
			       (long long)axis, infer_tname(ctx, t));
		return false;
	}
	*out = axis < 0 ? axis + ndim : axis;
	return true;
}

/* ---- shapes two families share ----------------------------------------- */

/* numpy broadcasting: right-aligned, equal or 1; `?` against d gives d
 * unless d is 1. */
bool infer_broadcast_dim(int64_t a, int64_t b, int64_t *out)
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

Type *infer_unary(OpTypeContext *ctx, bool need_float)
{
	Type *x = infer_tensor_arg(ctx, 0);
	if (!x)
		return NULL;
	if (need_float && !dtype_is_float(x->u.tensor.dtype)) {
		infer_op_error(ctx, "'%s' expects a floating-point tensor, got %s",
			       infer_op_name(ctx), infer_tname(ctx, x));
		return NULL;
	}
	return x;
}

/* ---- the table --------------------------------------------------------- */

static const OpTypeRelation infer_relations[OP_COUNT] = {
#define OP(id, family, name, min_args, max_args, schema) [OP_##id] = infer_op_##id,
#include "ops.def"
#undef OP
};

OpTypeRelation infer_relation(OpKind op)
{
	DP_ASSERT(op < OP_COUNT && infer_relations[op]);
	return infer_relations[op];
}

/* ---- nn.*, image.*, vision.*, random.* ----------------------------------
 *
 * What the relations of infer_norm.c, infer_nn_misc.c,
 * infer_nn_contrib.c, infer_window.c, infer_image.c, infer_vision.c and
 * infer_random.c share: number, number-list, choice and pair-list
 * attributes, per-dimension lists and padding of any rank, and layouts
 * given as permutations of NCHW-like letters. */

bool infer_attr_number(OpTypeContext *ctx, const char *name, double dflt, double *out)
{
	const AttrValue *v = infer_attr_value(ctx, name);
	*out = dflt;
	if (!v)
		return true;
	if (v->kind == ATTR_FLOAT) {
		*out = v->u.f;
		return true;
	}
	if (v->kind == ATTR_INT) {
		*out = (double)v->u.i;
		return true;
	}
	infer_op_error(ctx, "'%s' attribute '%s' must be a number", infer_op_name(ctx), name);
	return false;
}

bool infer_attr_numbers(OpTypeContext *ctx, const char *name, const AttrValue **items, uint32_t *n,
			bool *present)
{
	const AttrValue *v = infer_attr_value(ctx, name);
	*items = NULL;
	*n = 0;
	*present = v != NULL;
	if (!v)
		return true;
	if (v->kind == ATTR_LIST) {
		for (uint32_t i = 0; i < v->u.list.n; i++)
			if (v->u.list.items[i].kind != ATTR_INT &&
			    v->u.list.items[i].kind != ATTR_FLOAT)
				goto bad;
		*items = v->u.list.items;
		*n = v->u.list.n;
		return true;
	}
bad:
	infer_op_error(ctx, "'%s' attribute '%s' must be a list of numbers", infer_op_name(ctx),
		       name);
	return false;
}

bool infer_attr_pairs(OpTypeContext *ctx, const char *name, uint32_t n, int64_t *before,
		      int64_t *after)
{
	const AttrValue *v = infer_attr_value(ctx, name);
	if (!v || v->kind != ATTR_LIST || v->u.list.n != n) {
		infer_op_error(ctx, "'%s' needs a %s of %u [before, after] pairs",
			       infer_op_name(ctx), name, n);
		return false;
	}
	for (uint32_t i = 0; i < n; i++) {
		const AttrValue *pair = &v->u.list.items[i];
		if (pair->kind != ATTR_LIST || pair->u.list.n != 2 ||
		    pair->u.list.items[0].kind != ATTR_INT ||
		    pair->u.list.items[1].kind != ATTR_INT) {
			infer_op_error(ctx,
				       "'%s' %s item %u must be a pair [before, after] of integers",
				       infer_op_name(ctx), name, i);
			return false;
		}
		before[i] = pair->u.list.items[0].u.i;
		after[i] = pair->u.list.items[1].u.i;
	}
	return true;
}

bool infer_attr_choice(OpTypeContext *ctx, const char *name, const char *dflt,
		       const char *const *allowed, const char **out)
{
	const char *s;
	StrBuf sb;
	*out = dflt;
	if (!infer_attr_string(ctx, name, &s))
		return false;
	if (!s || !*s)
		return true;
	for (const char *const *a = allowed; *a; a++)
		if (strcmp(s, *a) == 0) {
			*out = *a;
			return true;
		}
	strbuf_init(&sb);
	for (const char *const *a = allowed; *a; a++)
		strbuf_printf(&sb, "%s\"%s\"", a == allowed ? "" : a[1] ? ", " : " or ", *a);
	infer_op_error(ctx, "'%s' attribute %s=\"%s\" must be %s", infer_op_name(ctx), name, s,
		       sb.data);
	strbuf_free(&sb);
	return false;
}

bool infer_attr_dims(OpTypeContext *ctx, const char *name, uint32_t rank, int64_t dflt, int64_t min,
		     int64_t *out, bool *present)
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	for (uint32_t i = 0; i < rank; i++)
		out[i] = dflt;
	if (!infer_attr_list(ctx, name, &items, &n, &given))
		return false;
	if (present)
		*present = given;
	if (!given)
		return true;
	if (n != 1 && n != rank) {
		infer_op_error(ctx, "'%s' attribute %s=%s must have 1 or %u values",
			       infer_op_name(ctx), name, infer_list_text(ctx, items, n), rank);
		return false;
	}
	for (uint32_t i = 0; i < rank; i++) {
		out[i] = items[n == 1 ? 0 : i].u.i;
		if (out[i] < min) {
			infer_op_error(ctx, "'%s' attribute %s=%s must be at least %lld",
				       infer_op_name(ctx), name, infer_list_text(ctx, items, n),
				       (long long)min);
			return false;
		}
	}
	return true;
}

bool infer_attr_padding_nd(OpTypeContext *ctx, uint32_t rank, int64_t *out)
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	for (uint32_t i = 0; i < 2 * rank; i++)
		out[i] = 0;
	if (!infer_attr_list(ctx, "padding", &items, &n, &given))
		return false;
	if (!given)
		return true;
	if (n == 1 || n == rank) {
		for (uint32_t i = 0; i < rank; i++)
			out[i] = out[rank + i] = items[n == 1 ? 0 : i].u.i;
	} else if (n == 2 * rank) {
		for (uint32_t i = 0; i < 2 * rank; i++)
			out[i] = items[i].u.i;
	} else {
		infer_op_error(ctx, "'%s' attribute padding=%s must have 1, %u or %u values",
			       infer_op_name(ctx), infer_list_text(ctx, items, n), rank, 2 * rank);
		return false;
	}
	for (uint32_t i = 0; i < 2 * rank; i++)
		if (out[i] < 0) {
			infer_op_error(ctx, "'%s' attribute padding=%s must not be negative",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			return false;
		}
	return true;
}

bool infer_layout_axes(OpTypeContext *ctx, const char *name, const char *dflt, const Type *x,
		       int *pos)
{
	const char *s;
	size_t n = strlen(dflt);
	if (!infer_attr_string(ctx, name, &s))
		return false;
	if (!s || !*s)
		s = dflt;
	if (strlen(s) != n)
		goto bad;
	for (size_t k = 0; k < n; k++) {
		const char *at = strchr(s, dflt[k]);
		if (!at || strchr(at + 1, dflt[k]))
			goto bad;
		pos[k] = (int)(at - s);
	}
	if (x->u.tensor.ndim != n) {
		infer_op_error(ctx, "'%s' expects %zu-D data (%s), got %s", infer_op_name(ctx), n,
			       s, infer_tname(ctx, x));
		return false;
	}
	return true;
bad:
	infer_op_error(ctx, "'%s' does not support %s=\"%s\" (a permutation of %s is expected)",
		       infer_op_name(ctx), name, s, dflt);
	return false;
}

/* The numpy broadcast of a's and b's shapes, of dtype dt: a or b when it is
 * that type, else a new one. A mismatch is reported naming the op and both
 * types. */
Type *infer_broadcast_types(OpTypeContext *ctx, Type *a, Type *b, DType dt)
{
	Type *r;
	DimBuf buf;
	int64_t *dims;
	uint32_t na = a->u.tensor.ndim, nb = b->u.tensor.ndim, n;
	if (type_equal(a, b) && a->u.tensor.dtype == dt)
		return a;
	n = na > nb ? na : nb;
	dims = dims_alloc(&buf, n);
	for (uint32_t k = 1; k <= n; k++) {
		int64_t da = k <= na ? a->u.tensor.dims[na - k] : 1;
		int64_t db = k <= nb ? b->u.tensor.dims[nb - k] : 1;
		if (!infer_broadcast_dim(da, db, &dims[n - k])) {
			infer_op_error(ctx, "cannot broadcast operands of '%s': %s and %s",
				       infer_op_name(ctx), infer_tname(ctx, a),
				       infer_tname(ctx, b));
			dims_release(&buf);
			return NULL;
		}
	}
	r = infer_result(ctx, dt, n, dims, a, b);
	dims_release(&buf);
	return r;
}

/* Argument i must be the vector Tensor[(c), dtype of x]; `?` matches. */
bool infer_channel_vector(OpTypeContext *ctx, uint32_t i, const Type *x, int64_t c)
{
	Type *v = infer_tensor_arg(ctx, i);
	if (!v)
		return false;
	if (v->u.tensor.ndim == 1 && dim_match(v->u.tensor.dims[0], c) &&
	    v->u.tensor.dtype == x->u.tensor.dtype)
		return true;
	infer_op_error(
		ctx, "'%s' expects argument %u of type %s (the channel axis of %s), got %s",
		infer_op_name(ctx), i + 1,
		infer_tname(ctx, type_tensor(ir_data_arena(ctx->module), x->u.tensor.dtype, 1, &c)),
		infer_tname(ctx, x), infer_tname(ctx, v));
	return false;
}

bool infer_need_int_indices(OpTypeContext *ctx, const Type *idx)
{
	if (dtype_is_integer(idx->u.tensor.dtype))
		return true;
	infer_op_error(ctx, "'%s' indices must be integers, got %s", infer_op_name(ctx),
		       infer_tname(ctx, idx));
	return false;
}

/* Whether broadcasting `from` against (ndim, dims) gives (ndim, dims)
 * itself: `from` has no more dimensions and each of them, right-aligned,
 * is 1, equal, or unknown on either side. */
bool infer_broadcasts_to(const Type *from, uint32_t ndim, const int64_t *dims)
{
	uint32_t fn = from->u.tensor.ndim;
	if (fn > ndim)
		return false;
	for (uint32_t i = 0; i < fn; i++) {
		int64_t f = from->u.tensor.dims[fn - 1 - i], d = dims[ndim - 1 - i];
		if (f != 1 && !dim_match(f, d))
			return false;
	}
	return true;
}

/* A `shape` attribute's dims; false after reporting a negative one. */
bool infer_shape_attr_dims(OpTypeContext *ctx, const AttrValue *items, uint32_t n, int64_t *dims)
{
	for (uint32_t i = 0; i < n; i++) {
		dims[i] = items[i].u.i;
		if (dims[i] < 0) {
			infer_op_error(ctx, "'%s' shape %s has a negative dimension",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			return false;
		}
	}
	return true;
}
