/*
 * infer_layout.c - the type relations of layout_transform, with the small
 * parser of TVM's layout strings it needs, and of
 * auto_scheduler_layout_transform and meta_schedule_layout_transform.
 *
 * A layout is a sequence of axes, each an upper-case letter (a primal axis:
 * N, C, H, W...) or a factor and a lower-case letter (a subordinate axis:
 * the `16c` of NCHW16c, an inner split of C). Each primal axis appears
 * once, a subordinate one at most once and only beside its primal. As in
 * TVM's BijectiveLayout, the two layouts must have the same primal axes;
 * each primal extent is the source's (times its subordinate factor there)
 * divided by the destination's factor, and a subordinate axis is its
 * factor. A split that does not divide is an error here (TVM's floordiv
 * would drop the remainder).
 */
#include "infer_transforms.h"

#include <string.h>

enum { LAYOUT_AXES = 26 };

typedef struct Layout {
	uint32_t n;                     /* axes in the string */
	char axis[INFER_MAX_NDIM];      /* each axis's letter as written */
	int64_t factor[INFER_MAX_NDIM]; /* a subordinate's factor; 0 primal */
	int64_t split[LAYOUT_AXES];     /* per primal letter: its subordinate's
					    factor, 1 when it has none */
	bool has_primal[LAYOUT_AXES];
} Layout;

/* Parses s into *l; false after reporting what is wrong with it. */
static bool layout_parse(OpTypeContext *ctx, const char *name, const char *s, Layout *l)
{
	bool sub_seen[LAYOUT_AXES] = {0};
	memset(l, 0, sizeof *l);
	for (int i = 0; i < LAYOUT_AXES; i++)
		l->split[i] = 1;
	for (const char *p = s; *p;) {
		int64_t f = 0;
		bool digits = false;
		while (*p >= '0' && *p <= '9') {
			if (!checked_mul(f, 10, &f) || !checked_add(f, *p - '0', &f))
				goto bad;
			digits = true;
			p++;
		}
		if (l->n >= INFER_MAX_NDIM)
			goto bad;
		if (*p >= 'A' && *p <= 'Z' && !digits) {
			if (l->has_primal[*p - 'A'])
				goto bad;
			l->has_primal[*p - 'A'] = true;
		} else if (*p >= 'a' && *p <= 'z' && digits && f > 0) {
			if (sub_seen[*p - 'a'])
				goto bad;
			sub_seen[*p - 'a'] = true;
			l->split[*p - 'a'] = f;
		} else {
			goto bad;
		}
		l->axis[l->n] = *p;
		l->factor[l->n++] = digits ? f : 0;
		p++;
	}
	for (int i = 0; i < LAYOUT_AXES; i++)
		if (sub_seen[i] && !l->has_primal[i])
			goto bad;
	return true;
bad:
	infer_op_error(ctx, "'%s' %s \"%s\" is not a layout", infer_op_name(ctx), name, s);
	return false;
}

/* layout_transform(x, src_layout, dst_layout): x's shape in src_layout
 * rearranged into dst_layout. */
Type *infer_op_LAYOUT_TRANSFORM(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const char *src_name, *dst_name;
	Layout *src, *dst;
	int64_t extent[LAYOUT_AXES];
	DimBuf buf;
	int64_t *dims = NULL;
	if (!x || !infer_attr_string(ctx, "src_layout", &src_name) ||
	    !infer_attr_string(ctx, "dst_layout", &dst_name))
		return NULL;
	if (!src_name || !dst_name) {
		infer_op_error(ctx,
			       "'layout_transform' needs src_layout and dst_layout attributes");
		return NULL;
	}
	src = xmalloc(2 * sizeof(Layout));
	dst = src + 1;
	if (!layout_parse(ctx, "src_layout", src_name, src) ||
	    !layout_parse(ctx, "dst_layout", dst_name, dst))
		goto done;
	if (memcmp(src->has_primal, dst->has_primal, sizeof src->has_primal) != 0) {
		infer_op_error(ctx, "'layout_transform' cannot convert from \"%s\" to \"%s\"",
			       src_name, dst_name);
		goto done;
	}
	if (src->n != x->u.tensor.ndim) {
		infer_op_error(ctx, "'layout_transform' src_layout \"%s\" does not match %s",
			       src_name, infer_tname(ctx, x));
		goto done;
	}
	for (int i = 0; i < LAYOUT_AXES; i++)
		extent[i] = 1;
	/* the full extent of each primal axis in the source */
	for (uint32_t i = 0; i < src->n; i++) {
		char a = src->axis[i];
		int64_t d = x->u.tensor.dims[i], *e = &extent[(a | 0x20) - 'a'];
		if (src->factor[i] && dim_known(d) && d != src->factor[i]) {
			infer_op_error(ctx,
				       "'layout_transform' axis %u of %s is not the %lld of \"%s\"",
				       i, infer_tname(ctx, x), (long long)src->factor[i], src_name);
			goto done;
		}
		if (!dim_known(*e) || !dim_known(d))
			*e = DIM_ANY;
		else if (!checked_mul(*e, d, e)) {
			infer_op_error(ctx, "'layout_transform' of %s overflows",
				       infer_tname(ctx, x));
			goto done;
		}
	}
	dims = dims_alloc(&buf, dst->n);
	for (uint32_t i = 0; i < dst->n; i++) {
		char a = dst->axis[i];
		int64_t e = extent[(a | 0x20) - 'a'], f = dst->split[(a | 0x20) - 'a'];
		if (dst->factor[i])
			dims[i] = dst->factor[i];
		else if (!dim_known(e))
			dims[i] = DIM_ANY;
		else if (e % f != 0) {
			infer_op_error(
				ctx, "'layout_transform' cannot split axis %c of %s (%lld) by %lld",
				a, infer_tname(ctx, x), (long long)e, (long long)f);
			goto done;
		} else
			dims[i] = e / f;
	}
	r = infer_result(ctx, x->u.tensor.dtype, dst->n, dims, x, NULL);
done:
	if (dims)
		dims_release(&buf);
	free(src);
	return r;
}

/* auto_scheduler_layout_transform(x, src_layout, dst_layout): the extents
 * written in dst_layout, an auto-scheduler layout of extents each followed
 * by an axis name ("1N2C112H112W16c" is (1, 2, 112, 112, 16)). */
Type *infer_op_AUTO_SCHEDULER_LAYOUT_TRANSFORM(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	const char *src, *dst;
	DimBuf buf;
	int64_t *dims;
	uint32_t n = 0;
	if (!x || !infer_attr_string(ctx, "src_layout", &src) ||
	    !infer_attr_string(ctx, "dst_layout", &dst))
		return NULL;
	if (!dst) {
		infer_op_error(ctx,
			       "'auto_scheduler_layout_transform' needs a dst_layout attribute");
		return NULL;
	}
	dims = dims_alloc(&buf, strlen(dst) / 2 + 1);
	for (const char *p = dst; *p;) {
		int64_t f = 0;
		const char *q = p;
		while (*q >= '0' && *q <= '9')
			if (!checked_mul(f, 10, &f) || !checked_add(f, *q++ - '0', &f))
				goto bad;
		if (q == p || !((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z')))
			goto bad;
		while ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z'))
			q++;
		dims[n++] = f;
		p = q;
	}
	r = infer_result(ctx, x->u.tensor.dtype, n, dims, x, NULL);
	dims_release(&buf);
	return r;
bad:
	infer_op_error(ctx, "'auto_scheduler_layout_transform' dst_layout \"%s\" is not a layout",
		       dst);
	dims_release(&buf);
	return NULL;
}

/* meta_schedule_layout_transform(x, index_map=meta[IndexMap][i]): TVM's
 * MetaScheduleLayoutTransformRel maps x's shape through a TIR index map,
 * which lives in the #[metadata] section as TIR expressions devplan does
 * not evaluate. The result type is the one TVM printed after the call
 * (op_type_is_printed); the relation checks what it can: a tensor of x's
 * dtype, and an index map given. */
Type *infer_op_META_SCHEDULE_LAYOUT_TRANSFORM(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	Type *printed = ctx->call->type;
	if (!x)
		return NULL;
	if (!ir_attr(ctx->call, "index_map") ||
	    ir_attr(ctx->call, "index_map")->value.kind != ATTR_META) {
		infer_op_error(ctx, "'meta_schedule_layout_transform' needs an index_map "
				    "(meta[IndexMap][i])");
		return NULL;
	}
	if (!printed) {
		infer_op_error(ctx,
			       "'meta_schedule_layout_transform' needs its result type printed "
			       "after the call (/* ty=... */): devplan cannot apply the index map");
		return NULL;
	}
	if (printed->kind != TYPE_TENSOR || printed->u.tensor.dtype != x->u.tensor.dtype) {
		infer_op_error(ctx,
			       "'meta_schedule_layout_transform' is printed to give %s, not a "
			       "tensor of its data's dtype %s",
			       infer_tname(ctx, printed), dtype_name(x->u.tensor.dtype));
		return NULL;
	}
	return printed;
}
