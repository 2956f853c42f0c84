/*
 * infer_ops.h - what the type relations of core/plan/infer/ share.
 *
 * Only the files of this folder include it: each family file defines the
 * relations infer_op_ID of its operators (declared below from ops.def, so a
 * relation that no file defines is a link error), and infer_ops.c the
 * helpers below and the table infer_relation reads. The helpers are
 * infer_-prefixed like the rest of the phase, the smallest inline (those
 * have no linkage, and keep their short names). Every string they return
 * lives in the module's arena.
 */
#ifndef DEVPLAN_INFER_OPS_H
#define DEVPLAN_INFER_OPS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

/* Limits on what one op may create, so that absurd attributes are errors
 * rather than allocations of terabytes. */
enum { INFER_MAX_NDIM = 1024, INFER_MAX_FIELDS = 1 << 16 };

/* One relation per operator, in the file of its family. */
#define OP(id, family, name, min_args, max_args, schema) Type *infer_op_##id(OpTypeContext *ctx);
#include "ops.def"
#undef OP

/* ---- messages ---------------------------------------------------------- */

const char *infer_op_name(const OpTypeContext *ctx);
/* Reports an error positioned at the call. */
void infer_op_error(OpTypeContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
/* t in Relay syntax. */
const char *infer_tname(OpTypeContext *ctx, const Type *t);
/* `[1, 2, 3]` for an attribute's int list. */
const char *infer_list_text(OpTypeContext *ctx, const AttrValue *items, uint32_t n);
/* A dimension as printed: the number or `?`. */
const char *infer_dim_text(OpTypeContext *ctx, int64_t d);

/* ---- dimensions and checked arithmetic --------------------------------- */

static inline bool dim_known(int64_t d)
{
	return d >= 0;
}

/* Two dimensions that may be equal: equal, or either unknown. */
static inline bool dim_match(int64_t a, int64_t b)
{
	return a == b || !dim_known(a) || !dim_known(b);
}

static inline bool checked_add(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

static inline bool checked_sub(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_sub_overflow(a, b, out);
}

static inline bool checked_mul(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* Scratch space for result dimensions: inline for the usual ranks. */
typedef struct DimBuf {
	int64_t *d;
	int64_t small[8];
} DimBuf;

static inline int64_t *dims_alloc(DimBuf *b, size_t n)
{
	b->d = n <= DP_COUNT(b->small) ? b->small : xmalloc(n * sizeof(int64_t));
	return b->d;
}

static inline void dims_release(DimBuf *b)
{
	if (b->d != b->small)
		free(b->d);
}

static inline bool tensor_is(const Type *t, DType dt, uint32_t ndim, const int64_t *dims)
{
	return t && t->kind == TYPE_TENSOR && t->u.tensor.dtype == dt && t->u.tensor.ndim == ndim &&
	       (ndim == 0 || memcmp(t->u.tensor.dims, dims, ndim * sizeof(int64_t)) == 0);
}

/* ---- result types ------------------------------------------------------ */

/* The tensor type (dt, dims): `a` or `b` when it equals one of them (either
 * may be NULL), else a new type in the module arena. */
Type *infer_result(OpTypeContext *ctx, DType dt, uint32_t ndim, const int64_t *dims, Type *a,
		   Type *b);

/* ---- arguments --------------------------------------------------------- */

/* Argument i when it is a tensor; otherwise reports and returns NULL. */
Type *infer_tensor_arg(OpTypeContext *ctx, uint32_t i);
/* Both arguments of a binary op as tensors of one dtype. */
bool infer_tensor_pair(OpTypeContext *ctx, Type **a, Type **b);
bool infer_same_dtype(OpTypeContext *ctx, const Type *a, const Type *b);
/* Whether dt is one of the n dtypes of set, and "int8, uint8 or int16"
 * for messages (in the module arena). */
bool infer_dtype_in(DType dt, const DType *set, size_t n);
const char *infer_dtype_set_text(OpTypeContext *ctx, const DType *set, size_t n);
/* A dtype set and its length, for the two above. */
#define INFER_DTYPES(set) set, DP_COUNT(set)
/* The only argument as a tensor, of a float dtype when need_float (the
 * relation of the unary ops). */
Type *infer_unary(OpTypeContext *ctx, bool need_float);

/* ---- attributes -------------------------------------------------------- */

/* Each reader reports a malformed attribute and returns false; an absent
 * one (or None) gives the default. */

/* The attribute's value, or NULL when it is absent or None. */
const AttrValue *infer_attr_value(const OpTypeContext *ctx, const char *name);
bool infer_attr_int(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t *out,
		    bool *present);
bool infer_attr_bool(OpTypeContext *ctx, const char *name, bool dflt, bool *out);
/* A string attribute; NULL when absent or None. */
bool infer_attr_string(OpTypeContext *ctx, const char *name, const char **out);
/* An int list (a bare int counts as a list of one). On success *items are
 * ATTR_INT values (a float item is rejected); *present says whether it was
 * given at all. */
bool infer_attr_list(OpTypeContext *ctx, const char *name, const AttrValue **items, uint32_t *n,
		     bool *present);
/* A dtype attribute: dflt when absent, None or "". */
bool infer_attr_dtype(OpTypeContext *ctx, const char *name, DType dflt, DType *out);
/* A layout attribute must be absent, "" or one of the accepted spellings. */
bool infer_attr_layout(OpTypeContext *ctx, const char *name, const char *want, const char *also);
/* A per-spatial-dimension pair (strides, dilation, kernel_size...): one value
 * for both or two; each value at least `min`. */
bool infer_attr_pair(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t min,
		     int64_t out[2], bool *present);
/* padding as TVM spells it: [p], [ph, pw] or [top, left, bottom, right];
 * out is top, left, bottom, right. */
bool infer_attr_padding(OpTypeContext *ctx, int64_t out[4]);
/* An axis in [-ndim, ndim), made non-negative. */
bool infer_normalize_axis(OpTypeContext *ctx, int64_t axis, const Type *t, int64_t *out);

/* ---- shapes ------------------------------------------------------------- */

/* numpy broadcasting of one dimension: right-aligned, equal or 1; `?`
 * against d gives d unless d is 1 (elementwise ops, nn.batch_matmul's
 * batch). */
bool infer_broadcast_dim(int64_t a, int64_t b, int64_t *out);
/* Helpers more than one family's relations share (infer_ops.c):
 * the numpy broadcast of a's and b's shapes, of dtype dt (a or b when it
 * is that type; a mismatch reported naming the op and both types); */
Type *infer_broadcast_types(OpTypeContext *ctx, Type *a, Type *b, DType dt);
/* whether broadcasting `from` against (ndim, dims) gives (ndim, dims); */
bool infer_broadcasts_to(const Type *from, uint32_t ndim, const int64_t *dims);
/* operand i is a vector of c elements of x's dtype (reported otherwise); */
bool infer_channel_vector(OpTypeContext *ctx, uint32_t i, const Type *x, int64_t c);
/* idx is a tensor of integers (reported otherwise); */
bool infer_need_int_indices(OpTypeContext *ctx, const Type *idx);
/* a shape attribute's n items as dims, each non-negative (reported). */
bool infer_shape_attr_dims(OpTypeContext *ctx, const AttrValue *items, uint32_t n, int64_t *dims);

/* ---- nn.*, image.*, vision.*, random.* --------------------------------
 * Shared by infer_norm.c, infer_nn_misc.c, infer_nn_contrib.c,
 * infer_window.c, infer_image.c, infer_vision.c and infer_random.c. */

/* A number attribute (an int counts); dflt when absent or None. */
bool infer_attr_number(OpTypeContext *ctx, const char *name, double dflt, double *out);
/* A list of numbers (kind F: ints and floats); *n is 0 when absent. */
bool infer_attr_numbers(OpTypeContext *ctx, const char *name, const AttrValue **items, uint32_t *n,
			bool *present);
/* A list of n [before, after] int pairs (nn.pad's pad_width, the paddings
 * and crops of space_to_batch_nd...): required; before[i], after[i]. */
bool infer_attr_pairs(OpTypeContext *ctx, const char *name, uint32_t n, int64_t *before,
		      int64_t *after);
/* A string attribute that must be one of the NULL-terminated `allowed`;
 * dflt when absent, None or "". */
bool infer_attr_choice(OpTypeContext *ctx, const char *name, const char *dflt,
		       const char *const *allowed, const char **out);
/* One value per spatial dimension (strides, dilation, pool_size...): one
 * value for all `rank` or `rank` values; each at least `min`. */
bool infer_attr_dims(OpTypeContext *ctx, const char *name, uint32_t rank, int64_t dflt, int64_t min,
		     int64_t *out, bool *present);
/* padding of a rank-`rank` window as TVM spells it: [p], one per dimension
 * or all befores then all afters; out[i] and out[rank + i] are dimension
 * i's before and after. */
bool infer_attr_padding_nd(OpTypeContext *ctx, uint32_t rank, int64_t *out);
/* A layout attribute (dflt when absent or "") that must be a permutation of
 * dflt's letters; x must have as many dimensions. pos[k] is the axis of x
 * that letter dflt[k] names. */
bool infer_layout_axes(OpTypeContext *ctx, const char *name, const char *dflt, const Type *x,
		       int *pos);
/* One extent of a sliding window:
 * (in + pad_a + pad_b - dilation * (kernel - 1) - 1) / stride + 1, rounding
 * up with ceil_mode; `?` in, `?` out (infer_window.c). */
bool infer_window_extent(OpTypeContext *ctx, const char *which, int64_t in, int64_t pad_a,
			 int64_t pad_b, int64_t kernel, int64_t dilation, int64_t stride,
			 bool ceil_mode, int64_t *out);
/* One extent of a transposed convolution:
 * (in - 1) * stride - pad_a - pad_b + dilation * (kernel - 1) + out_pad + 1
 * (infer_window.c). */
bool infer_transpose_extent(OpTypeContext *ctx, const char *which, int64_t in, int64_t pad_a,
			    int64_t pad_b, int64_t kernel, int64_t dilation, int64_t stride,
			    int64_t out_pad, int64_t *out);

#endif
