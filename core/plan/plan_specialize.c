/*
 * plan_specialize.c - a module with `?` dimensions made static for one run,
 * given the concrete types of @main's inputs.
 *
 * Why here and not in the interpreter: the executor (core/exec/) may use
 * only core/ir/, and the shape rules are the type relations of
 * core/plan/infer/. Rather than copy them, `run`, `compare` and `profile`
 * (commands/cmd_run.c) hand a module with unknown dimensions and the
 * inputs' actual shapes to plan_specialize, which returns a clone where
 * every shape is known, and run that clone on the executor's ordinary
 * static path (memory per actual shape, the size checks, the kernels).
 * A static module never comes here: it runs as it is.
 *
 * How: the clone's inputs are annotated with their concrete types, written
 * `?` in a return type or a let annotation is dropped (the body says
 * better), and the whole clone is inferred again, so every operator whose
 * result shape follows from its operands' shapes (elementwise, reductions,
 * nn ops, reshape, concatenate, shape_of's own length, ...) gets a static
 * type. A dyn.* call gives `?` from its relation because its shape is a
 * value; where that value can be computed on the host before running (a
 * constant, shape_of of a tensor whose type is now static, through
 * device_copy, on_device, cast and let variables, and take, concatenate,
 * strided_slice, expand_dims, reshape, squeeze, add, subtract and
 * multiply of such values, as TVM's ONNX frontend builds shapes), the call is rewritten
 * in place into its static twin with the value as the attribute
 * (dyn.reshape(x, s) becomes reshape(x, newshape=s), and so on for
 * broadcast_to, tile, zeros, ones, strided_slice, squeeze, expand_dims;
 * dyn.full becomes broadcast_to of its fill value, full having no kernel),
 * whose kernel then serves, and the clone is inferred again, as long as a
 * rewrite makes progress. The shape_of calls stay and still run. Shapes
 * that depend on the data itself (a shape read from an input's values)
 * stay `?`, and the executor refuses them by name before running.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "verify.h"

enum { SPECIALIZE_MAX_ROUNDS = 64, SPECIALIZE_MAX_VALUES = 64, SPECIALIZE_MAX_DEPTH = 32 };

static bool has_unknown_dims(const Type *t)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TYPE_TENSOR:
		for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
			if (t->u.tensor.dims[i] < 0)
				return true;
		return false;
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (has_unknown_dims(t->u.tuple.fields[i]))
				return true;
		return false;
	case TYPE_FUNC:
		for (uint32_t i = 0; i < t->u.func.nparams; i++)
			if (has_unknown_dims(t->u.func.params[i]))
				return true;
		return has_unknown_dims(t->u.func.ret);
	case TYPE_REF:
	case TYPE_VAR:
	case TYPE_CALL:
		return false;
	}
	return false;
}

bool plan_has_unknown_dims(const IrModule *m)
{
	ExprVec order = {0};
	bool found = false;
	ir_module_list(m, &order);
	for (size_t i = 0; i < order.count && !found; i++) {
		const Expr *e = order.items[i];
		found = e->kind != EXPR_FN && e->kind != EXPR_GLOBAL && has_unknown_dims(e->type);
	}
	exprvec_free(&order);
	return found;
}

static bool host_values(const Expr *e, int64_t *out, uint32_t *n, int depth);

/* Integer attribute list `name` of a call (at most SPECIALIZE_MAX_VALUES
 * items): its length, 0 when absent, -1 when not a list of integers. */
static int attr_ints(const Expr *e, const char *name, int64_t *out)
{
	const Attr *a = ir_attr(e, name);
	if (!a || a->value.kind == ATTR_NONE)
		return 0;
	if (a->value.kind != ATTR_LIST || a->value.u.list.n > SPECIALIZE_MAX_VALUES)
		return -1;
	for (uint32_t i = 0; i < a->value.u.list.n; i++) {
		if (a->value.u.list.items[i].kind != ATTR_INT)
			return -1;
		out[i] = a->value.u.list.items[i].u.i;
	}
	return (int)a->value.u.list.n;
}

/* strided_slice of a vector of host values, with TVM's canonicalisation
 * (op_slice_canonical); slice_mode "size" and axes are left to the run. */
static bool host_slice(const Expr *e, int64_t *out, uint32_t *n, int depth)
{
	int64_t data[SPECIALIZE_MAX_VALUES], b[SPECIALIZE_MAX_VALUES], en[SPECIALIZE_MAX_VALUES],
		st[SPECIALIZE_MAX_VALUES], stride = 1, begin, end;
	uint32_t nd;
	int nb = attr_ints(e, "begin", b), ne = attr_ints(e, "end", en),
	    ns = attr_ints(e, "strides", st);
	const Attr *mode = ir_attr(e, "slice_mode"), *axes = ir_attr(e, "axes");
	if (nb != 1 || ne < 0 || ne > 1 || ns < 0 || ns > 1 ||
	    (mode && mode->value.kind == ATTR_STRING && strcmp(mode->value.u.s, "end") != 0) ||
	    (axes && axes->value.kind != ATTR_NONE) ||
	    !host_values(e->u.call.args[0], data, &nd, depth + 1))
		return false;
	if (ns == 1)
		stride = st[0];
	if (stride == 0)
		return false;
	begin = op_slice_canonical(b[0], nd, stride);
	end = ne == 1 ? op_slice_canonical(en[0], nd, stride) : stride > 0 ? (int64_t)nd : -1;
	*n = 0;
	for (int64_t i = begin; stride > 0 ? i < end : i > end; i += stride)
		out[(*n)++] = data[i];
	return true;
}

/* add, subtract or multiply of host values, a scalar (one value)
 * broadcast against a vector; false on overflow. */
static bool host_arith(const Expr *e, int64_t *out, uint32_t *n, int depth)
{
	int64_t a[SPECIALIZE_MAX_VALUES], b[SPECIALIZE_MAX_VALUES];
	uint32_t na, nb;
	if (!host_values(e->u.call.args[0], a, &na, depth + 1) ||
	    !host_values(e->u.call.args[1], b, &nb, depth + 1) || (na != nb && na != 1 && nb != 1))
		return false;
	*n = na > nb ? na : nb;
	for (uint32_t i = 0; i < *n; i++) {
		int64_t x = a[na == 1 ? 0 : i], y = b[nb == 1 ? 0 : i];
		bool overflow = ir_is_op(e, OP_ADD)        ? __builtin_add_overflow(x, y, &out[i])
				: ir_is_op(e, OP_SUBTRACT) ? __builtin_sub_overflow(x, y, &out[i])
							   : __builtin_mul_overflow(x, y, &out[i]);
		if (overflow)
			return false;
	}
	return true;
}

/* The values of a 1-D (or scalar) integer tensor that can be computed on
 * the host before running; false when they depend on the data. */
static bool host_values(const Expr *e, int64_t *out, uint32_t *n, int depth)
{
	if (depth > SPECIALIZE_MAX_DEPTH)
		return false;
	for (;;) {
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value) {
			e = e->u.var.value;
			continue;
		}
		if (e->kind == EXPR_CALL &&
		    (ir_is_op(e, OP_DEVICE_COPY) || ir_is_op(e, OP_ON_DEVICE) ||
		     ir_is_op(e, OP_CAST)) &&
		    e->u.call.nargs == 1) {
			e = e->u.call.args[0];
			continue;
		}
		break;
	}
	if (e->kind == EXPR_CALL && ir_is_op(e, OP_SHAPE_OF) && e->u.call.nargs == 1) {
		const Type *t = e->u.call.args[0]->type;
		if (!t || t->kind != TYPE_TENSOR || has_unknown_dims(t) ||
		    t->u.tensor.ndim > SPECIALIZE_MAX_VALUES)
			return false;
		memcpy(out, t->u.tensor.dims, t->u.tensor.ndim * sizeof(int64_t));
		*n = t->u.tensor.ndim;
		return true;
	}
	if (e->kind == EXPR_CALL &&
	    !(e->type && e->type->kind == TYPE_TENSOR && e->type->u.tensor.ndim <= 1))
		return false;
	/* a scalar made a vector and back: the same values */
	if (e->kind == EXPR_CALL && e->u.call.nargs == 1 &&
	    (ir_is_op(e, OP_EXPAND_DIMS) || ir_is_op(e, OP_RESHAPE) || ir_is_op(e, OP_SQUEEZE)))
		return host_values(e->u.call.args[0], out, n, depth + 1);
	if (e->kind == EXPR_CALL && ir_is_op(e, OP_CONCATENATE) && e->u.call.nargs == 1) {
		const Expr *t = e->u.call.args[0];
		while (t->kind == EXPR_VAR && t->u.var.role == VAR_LET && t->u.var.value)
			t = t->u.var.value;
		if (t->kind != EXPR_TUPLE)
			return false;
		*n = 0;
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++) {
			int64_t part[SPECIALIZE_MAX_VALUES];
			uint32_t np;
			if (!host_values(t->u.tuple.fields[i], part, &np, depth + 1) ||
			    *n + np > SPECIALIZE_MAX_VALUES)
				return false;
			memcpy(out + *n, part, np * sizeof(int64_t));
			*n += np;
		}
		return true;
	}
	/* take(values, indices) along the only axis */
	if (e->kind == EXPR_CALL && ir_is_op(e, OP_TAKE) && e->u.call.nargs == 2) {
		int64_t data[SPECIALIZE_MAX_VALUES], idx[SPECIALIZE_MAX_VALUES];
		uint32_t nd, ni;
		const Attr *axis = ir_attr(e, "axis");
		if ((axis && axis->value.kind == ATTR_INT && axis->value.u.i != 0 &&
		     axis->value.u.i != -1) ||
		    !host_values(e->u.call.args[0], data, &nd, depth + 1) ||
		    !host_values(e->u.call.args[1], idx, &ni, depth + 1))
			return false;
		for (uint32_t i = 0; i < ni; i++) {
			int64_t k = idx[i] < 0 ? idx[i] + nd : idx[i];
			if (k < 0 || k >= (int64_t)nd)
				return false;
			out[i] = data[k];
		}
		*n = ni;
		return true;
	}
	if (e->kind == EXPR_CALL && ir_is_op(e, OP_STRIDED_SLICE) && e->u.call.nargs == 1)
		return host_slice(e, out, n, depth);
	if (e->kind == EXPR_CALL && e->u.call.nargs == 2 &&
	    (ir_is_op(e, OP_ADD) || ir_is_op(e, OP_SUBTRACT) || ir_is_op(e, OP_MULTIPLY)))
		return host_arith(e, out, n, depth);
	if (e->kind == EXPR_CONSTANT) {
		const Tensor *c = &e->u.constant.tensor;
		int64_t count = c->ndim == 0 ? 1 : c->shape[0];
		if (c->ndim > 1 || !dtype_is_integer(c->dtype) || count > SPECIALIZE_MAX_VALUES ||
		    (size_t)count * dtype_size(c->dtype) > c->nbytes)
			return false;
		for (int64_t i = 0; i < count; i++) {
			const char *p = (const char *)c->data + (size_t)i * dtype_size(c->dtype);
			switch (c->dtype) {
			case DT_INT8:
				out[i] = *(const int8_t *)p;
				break;
			case DT_INT16:
				out[i] = *(const int16_t *)p;
				break;
			case DT_INT32:
				out[i] = *(const int32_t *)p;
				break;
			case DT_INT64:
				out[i] = *(const int64_t *)p;
				break;
			case DT_UINT8:
			case DT_BOOL:
				out[i] = *(const uint8_t *)p;
				break;
			case DT_UINT16:
				out[i] = *(const uint16_t *)p;
				break;
			case DT_UINT32:
				out[i] = *(const uint32_t *)p;
				break;
			case DT_UINT64:
				out[i] = (int64_t) * (const uint64_t *)p;
				break;
			case DT_FLOAT16:
			case DT_BFLOAT16:
			case DT_FLOAT32:
			case DT_FLOAT64:
			case DT_COUNT:
				return false;
			}
		}
		*n = (uint32_t)count;
		return true;
	}
	return false;
}

static AttrValue list_value(IrModule *m, const int64_t *v, uint32_t n)
{
	AttrValue a = {.kind = ATTR_LIST};
	a.u.list.n = n;
	a.u.list.items = arena_array(ir_data_arena(m), n ? n : 1, sizeof(AttrValue));
	for (uint32_t i = 0; i < n; i++)
		a.u.list.items[i] = (AttrValue){.kind = ATTR_INT, .u.i = v[i]};
	return a;
}

/* The call's attributes other than those named in drop (NULL-ended), then
 * extra ones, in a new array. */
static void set_attrs(IrModule *m, Expr *call, const char *const *drop, const Attr *extra,
		      uint32_t nextra)
{
	uint32_t n = 0;
	Attr *attrs = arena_array(ir_data_arena(m), call->u.call.nattrs + nextra + 1, sizeof(Attr));
	for (uint32_t i = 0; i < call->u.call.nattrs; i++) {
		bool dropped = false;
		for (const char *const *d = drop; *d; d++)
			dropped |= strcmp(call->u.call.attrs[i].name, *d) == 0;
		if (!dropped)
			attrs[n++] = call->u.call.attrs[i];
	}
	for (uint32_t i = 0; i < nextra; i++)
		attrs[n++] = extra[i];
	call->u.call.attrs = attrs;
	call->u.call.nattrs = n;
}

/* The static twin of a dyn.* call whose shapes come as arguments: the op,
 * the attributes its shape arguments become, where they start and how
 * many there are; false for any other call. */
static bool static_twin(const Expr *e, OpKind *twin, const char **names, uint32_t *first,
			uint32_t *nvalues)
{
	*first = 1;
	*nvalues = 1;
	/* an if chain, not a switch: every other op of the enum is left as it is */
	if (ir_is_op(e, OP_DYN_RESHAPE)) {
		*twin = OP_RESHAPE;
		names[0] = "newshape";
	} else if (ir_is_op(e, OP_DYN_BROADCAST_TO)) {
		*twin = OP_BROADCAST_TO;
		names[0] = "shape";
	} else if (ir_is_op(e, OP_DYN_TILE)) {
		*twin = OP_TILE;
		names[0] = "reps";
	} else if (ir_is_op(e, OP_DYN_SQUEEZE)) {
		*twin = OP_SQUEEZE;
		names[0] = "axis";
	} else if (ir_is_op(e, OP_DYN_EXPAND_DIMS)) {
		*twin = OP_EXPAND_DIMS;
		names[0] = "axis";
	} else if (ir_is_op(e, OP_DYN_FULL)) {
		/* full has no kernel; broadcast_to of the fill value serves when
		 * the dtype stays the fill value's */
		const Attr *dt = ir_attr(e, "dtype");
		const Type *fill = e->u.call.nargs == 2 ? e->u.call.args[0]->type : NULL;
		if (!fill || fill->kind != TYPE_TENSOR ||
		    (dt && dt->value.kind == ATTR_STRING && dt->value.u.s[0] &&
		     strcmp(dt->value.u.s, dtype_name(fill->u.tensor.dtype)) != 0))
			return false;
		*twin = OP_BROADCAST_TO;
		names[0] = "shape";
	} else if (ir_is_op(e, OP_DYN_ZEROS) || ir_is_op(e, OP_DYN_ONES)) {
		*twin = ir_is_op(e, OP_DYN_ZEROS) ? OP_ZEROS : OP_ONES;
		names[0] = "shape";
		*first = 0;
	} else if (ir_is_op(e, OP_DYN_STRIDED_SLICE)) {
		*twin = OP_STRIDED_SLICE;
		names[0] = "begin";
		names[1] = "end";
		names[2] = "strides";
		*nvalues = 3;
	} else {
		return false;
	}
	return e->u.call.nargs == *first + *nvalues;
}

/* Rewrites a dyn.* call whose shape arguments the host can compute into
 * its static twin; false when it is not one or they cannot be. */
static bool make_static(IrModule *m, Expr *e)
{
	int64_t v[3][SPECIALIZE_MAX_VALUES];
	uint32_t n[3];
	Attr extra[3];
	const char *names[4] = {NULL, NULL, NULL, NULL};
	OpKind twin;
	uint32_t first, nvalues; /* where the shape arguments start, how many */
	if (!static_twin(e, &twin, names, &first, &nvalues))
		return false;
	for (uint32_t i = 0; i < nvalues; i++) {
		const Type *at = e->u.call.args[first + i]->type;
		if (!host_values(e->u.call.args[first + i], v[i], &n[i], 0) ||
		    (at && at->kind == TYPE_TENSOR && at->u.tensor.ndim == 1 &&
		     at->u.tensor.dims[0] != (int64_t)n[i]))
			return false;
		extra[i] = (Attr){.name = names[i], .pos = e->pos};
		if (twin == OP_EXPAND_DIMS) {
			if (n[i] != 1)
				return false;
			extra[i].value = (AttrValue){.kind = ATTR_INT, .u.i = v[i][0]};
		} else {
			extra[i].value = list_value(m, v[i], n[i]);
		}
	}
	set_attrs(m, e, names, extra, nvalues);
	e->u.call.op = twin;
	e->u.call.nargs = first;
	return true;
}

/* A tensor type the caller owns, in m's data arena. */
static Type *type_copy(IrModule *m, const Type *t)
{
	DP_ASSERT(t->kind == TYPE_TENSOR);
	return type_tensor(ir_data_arena(m), t->u.tensor.dtype, t->u.tensor.ndim, t->u.tensor.dims);
}

/* The dyn.* calls left with `?`: their shape arguments depend on the
 * data. Returns false after reporting each. */
static bool report_value_shapes(IrModule *m, DiagList *diags)
{
	ExprVec order = {0};
	bool ok = true;
	ir_module_list(m, &order);
	for (size_t i = 0; i < order.count; i++) {
		const Expr *e = order.items[i];
		const char *names[4] = {NULL, NULL, NULL, NULL};
		OpKind twin;
		uint32_t first, nvalues;
		if (e->kind != EXPR_CALL || !has_unknown_dims(e->type) ||
		    !static_twin(e, &twin, names, &first, &nvalues))
			continue;
		diag_error(diags, m->src, e->pos,
			   "'%s' takes its %s from values known only while running: devplan "
			   "computes shapes before running, from the inputs' shapes, constants "
			   "and shape_of",
			   ir_call_op_name(e), names[0]);
		ok = false;
	}
	exprvec_free(&order);
	return ok;
}

/* Written types that would contradict the concrete ones: a `?` in a
 * function's return type or in a let variable's annotation. */
static void drop_open_annotations(IrModule *m)
{
	ExprVec order = {0};
	ir_module_list(m, &order);
	for (size_t i = 0; i < order.count; i++) {
		Expr *e = order.items[i];
		if (e->kind == EXPR_FN && has_unknown_dims(e->u.fn.ret_type))
			e->u.fn.ret_type = NULL;
		else if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET &&
			 has_unknown_dims(e->u.var.annotation))
			e->u.var.annotation = NULL;
	}
	exprvec_free(&order);
}

IrModule *plan_specialize(const IrModule *in, const Type *const *input_types, size_t ninputs,
			  DiagList *diags)
{
	IrModule *m = ir_module_clone(in);
	int32_t main_index = ir_find_global(m, "main");
	size_t k = 0;
	if (main_index >= 0) {
		Expr *fn = m->globals[main_index].fn;
		for (uint32_t i = 0; i < fn->u.fn.nparams && k < ninputs; i++, k++)
			if (input_types[k])
				fn->u.fn.params[i]->u.var.annotation = type_copy(m, input_types[k]);
	}
	for (uint32_t i = 0; i < m->nfree_vars && k < ninputs; i++, k++)
		if (input_types[k])
			m->free_vars[i]->u.var.annotation = type_copy(m, input_types[k]);
	drop_open_annotations(m);
	for (int round = 0; round < SPECIALIZE_MAX_ROUNDS; round++) {
		ExprVec order = {0};
		bool changed = false;
		if (!infer_module(m, diags)) {
			ir_module_free(m);
			return NULL;
		}
		ir_module_list(m, &order);
		for (size_t i = 0; i < order.count; i++) {
			Expr *e = order.items[i];
			if (e->kind == EXPR_CALL && has_unknown_dims(e->type))
				changed |= make_static(m, e);
		}
		exprvec_free(&order);
		if (!changed)
			break;
	}
	if (!report_value_shapes(m, diags)) {
		ir_module_free(m);
		return NULL;
	}
#ifdef DEVPLAN_VERIFY
	{
		/* a rewrite that broke the clone is a bug here (verify.h) */
		DiagList found;
		diag_init(&found);
		if (!ir_verify(m, VERIFY_TYPES, DEVICES_MAX, &found))
			diag_print_all(stderr, &found);
		DP_ASSERT(found.count == 0);
		diag_free(&found);
	}
#endif
	return m;
}
