/*
 * plan_specialize.c - a module with `?` dimensions made static for one run,
 * given the concrete types of @main's inputs and a way to compute values
 * from theirs.
 *
 * Why here and not in the interpreter: the executor (core/exec/) may use
 * only core/ir/, and the shape rules are the type relations of
 * core/plan/infer/. Rather than copy them, `run`, `compare` and `profile`
 * (core/session/run.c) hand a module with unknown dimensions and the
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
 * value. That value is asked of the caller (SpecializeOptions.value, a
 * function pointer and its context): core/plan may not call the executor,
 * and the session that runs the module holds the inputs' values, so
 * run.c computes it with the real kernels (exec_evaluate), and there
 * is one way to compute values, not a second evaluator of shape
 * arithmetic here. A shape argument is asked for each round until its
 * value is known, then kept by expression id. Once a call's shape arguments are
 * known, the call is rewritten in place into its static twin with the
 * values as attributes (dyn.reshape(x, s) becomes reshape(x, newshape=s),
 * and so on for broadcast_to, tile, zeros, ones, strided_slice, squeeze,
 * expand_dims, topk, one_hot, nn.pad, full, nn.upsampling,
 * nn.upsampling3d, image.resize2d and sparse_to_dense), whose kernel then
 * serves, and the clone
 * is inferred again, as long as a rewrite makes progress (a shape computed
 * from a dyn.* call's result is known the round after). The shape_of calls
 * and the arithmetic on them stay and still run. A dyn.* call whose
 * shapes stay unknown (they depend on argwhere's result, whose shape is the
 * data's, or no values were given) is reported by name with the reason,
 * and the clone is not returned.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "verify.h"

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

/* The number of elements of a tensor. */
static int64_t tensor_count(const Tensor *t)
{
	int64_t count = 1;
	for (uint32_t i = 0; i < t->ndim; i++)
		count *= t->shape[i];
	return count;
}

/* The integer values of a tensor, in order; false for another dtype. out
 * has room for the tensor's elements. */
static bool tensor_ints(const Tensor *t, int64_t *out, uint32_t *n)
{
	int64_t count = tensor_count(t);
	if (!dtype_is_integer(t->dtype) || (size_t)count * dtype_size(t->dtype) > t->nbytes)
		return false;
	for (int64_t i = 0; i < count; i++) {
		const char *p = (const char *)t->data + (size_t)i * dtype_size(t->dtype);
		switch (t->dtype) {
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

/* The numeric values of a tensor of integers, float32 or float64, in
 * order, as doubles; false for another dtype. out has room for the
 * tensor's elements. */
static bool tensor_numbers(const Tensor *t, double *out, uint32_t *n)
{
	int64_t count = tensor_count(t);
	if (dtype_is_integer(t->dtype)) {
		int64_t *v = xcalloc((size_t)count + 1, sizeof(int64_t));
		bool ok = tensor_ints(t, v, n);
		for (int64_t i = 0; ok && i < count; i++)
			out[i] = (double)v[i];
		free(v);
		return ok;
	}
	if ((t->dtype != DT_FLOAT32 && t->dtype != DT_FLOAT64) ||
	    (size_t)count * dtype_size(t->dtype) > t->nbytes)
		return false;
	for (int64_t i = 0; i < count; i++)
		out[i] = t->dtype == DT_FLOAT32 ? (double)((const float *)t->data)[i]
						: ((const double *)t->data)[i];
	*n = (uint32_t)count;
	return true;
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

/* What a shape argument's value becomes: one integer, a list of them, a
 * list of pairs (a [n, 2] tensor, nn.pad's pad_width), one number (a
 * scalar, nn.upsampling's scale_h) or a list of numbers (image.resize2d's
 * roi). */
typedef enum ValueForm { FORM_INT, FORM_LIST, FORM_PAIRS, FORM_FLOAT, FORM_FLOATS } ValueForm;

/* The static twin of a dyn.* call whose shapes come as arguments: the op,
 * the attributes its shape arguments become, where they start, how many
 * there are and the form of each (the arguments after them stay, as
 * nn.pad's pad value); false for any other call. The argument orders are
 * TVM 0.14's (src/relay/op/dyn/), as core/plan/infer/infer_dyn*.c read
 * them. */
static bool static_twin(const Expr *e, OpKind *twin, const char **names, uint32_t *first,
			uint32_t *nvalues, ValueForm *forms)
{
	uint32_t after = 0; /* arguments kept after the shape arguments */
	ValueForm *form = forms;
	*first = 1;
	*nvalues = 1;
	for (uint32_t i = 0; i < 4; i++)
		forms[i] = FORM_LIST;
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
		*form = FORM_INT;
	} else if (ir_is_op(e, OP_DYN_TOPK)) {
		*twin = OP_TOPK;
		names[0] = "k";
		*form = FORM_INT;
	} else if (ir_is_op(e, OP_DYN_ONE_HOT)) {
		*twin = OP_ONE_HOT;
		names[0] = "depth";
		*first = 3;
		*form = FORM_INT;
	} else if (ir_is_op(e, OP_DYN_PAD)) {
		*twin = OP_PAD;
		names[0] = "pad_width";
		*form = FORM_PAIRS;
		after = 1;
	} else if (ir_is_op(e, OP_DYN_FULL)) {
		*twin = OP_FULL;
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
	} else if (ir_is_op(e, OP_DYN_UPSAMPLING) || ir_is_op(e, OP_DYN_UPSAMPLING3D)) {
		/* dyn.nn.upsampling(data, scale_h, scale_w), dyn.nn.upsampling3d(data,
		 * scale_d, scale_h, scale_w): each scale a scalar */
		bool three = ir_is_op(e, OP_DYN_UPSAMPLING3D);
		*twin = three ? OP_UPSAMPLING3D : OP_UPSAMPLING;
		*nvalues = three ? 3 : 2;
		names[0] = three ? "scale_d" : "scale_h";
		names[1] = three ? "scale_h" : "scale_w";
		names[2] = three ? "scale_w" : NULL;
		for (uint32_t i = 0; i < *nvalues; i++)
			forms[i] = FORM_FLOAT;
	} else if (ir_is_op(e, OP_DYN_RESIZE2D)) {
		/* dyn.image.resize2d(data, size, roi) */
		*twin = OP_RESIZE2D;
		names[0] = "size";
		names[1] = "roi";
		forms[1] = FORM_FLOATS;
		*nvalues = 2;
	} else if (ir_is_op(e, OP_DYN_SPARSE_TO_DENSE)) {
		/* dyn.sparse_to_dense(indices, values, default_value, output_shape) */
		*twin = OP_SPARSE_TO_DENSE;
		names[0] = "output_shape";
		*first = 3;
	} else {
		return false;
	}
	return e->u.call.nargs == *first + *nvalues + after;
}

/* One run of plan_specialize: the clone, the caller's options, the values
 * computed so far and why the others could not be, by expression id. */
typedef struct Specializer {
	IrModule *m;
	const SpecializeOptions *opts;
	DiagList *diags;
	Arena values;   /* the values computed, until the clone is done */
	Tensor **known; /* by id: a value computed, in values */
	char **why;     /* by id: why the value of that shape argument is not known */
} Specializer;

/* The value of shape argument e, asked of the caller's callback until known;
 * NULL with sp->why[e->id] when it is not known (yet), and with *failed
 * after the callback reported an error. */
static const Tensor *shape_value(Specializer *sp, const Expr *e, bool *failed)
{
	Tensor t = {0};
	char *why = NULL;
	PlanValueStatus st;
	if (sp->known[e->id])
		return sp->known[e->id];
	if (!sp->opts->value) {
		if (!sp->why[e->id])
			sp->why[e->id] = xstrdup("no inputs' values are given");
		return NULL;
	}
	st = sp->opts->value(sp->opts->value_ctx, sp->m, e, &sp->values, &t, &why, sp->diags);
	switch (st) {
	case PLAN_VALUE_KNOWN:
		sp->known[e->id] = arena_alloc(&sp->values, sizeof(Tensor));
		*sp->known[e->id] = t;
		return sp->known[e->id];
	case PLAN_VALUE_UNKNOWN:
		free(sp->why[e->id]);
		sp->why[e->id] = why ? why : xstrdup("its value cannot be computed");
		return NULL;
	case PLAN_VALUE_FAILED:
		free(why);
		*failed = true;
		return NULL;
	}
	return NULL;
}

/* Rewrites a dyn.* call whose shape arguments have known values into its
 * static twin; false when it is not one or they are not known (yet), or
 * with *failed after an error was reported. */
static bool make_static(Specializer *sp, Expr *e, bool *failed)
{
	IrModule *m = sp->m;
	Attr extra[4];
	const char *names[4] = {NULL, NULL, NULL, NULL};
	OpKind twin;
	uint32_t first, nvalues; /* where the shape arguments start, how many */
	ValueForm forms[4];
	if (!static_twin(e, &twin, names, &first, &nvalues, forms))
		return false;
	/* a value is not computed before its type is static (the rounds are
	 * bounded, the evaluations are not free) */
	for (uint32_t i = 0; i < nvalues; i++)
		if (has_unknown_dims(e->u.call.args[first + i]->type))
			return false;
	for (uint32_t i = 0; i < nvalues; i++) {
		const Expr *arg = e->u.call.args[first + i];
		const Tensor *t = shape_value(sp, arg, failed);
		ValueForm form = forms[i];
		int64_t *v;
		double *f;
		uint32_t n;
		bool numbers = form == FORM_FLOAT || form == FORM_FLOATS;
		if (*failed)
			diag_note(sp->diags, m->src, e->pos,
				  "while computing the %s of '%s' for these inputs", names[i],
				  ir_call_op_name(e));
		if (!t)
			return false;
		v = arena_array(&sp->values, (size_t)tensor_count(t) + 1, sizeof(int64_t));
		f = arena_array(&sp->values, (size_t)tensor_count(t) + 1, sizeof(double));
		if (!(numbers ? tensor_numbers(t, f, &n) : tensor_ints(t, v, &n)) ||
		    ((form == FORM_INT || form == FORM_FLOAT) && n != 1) ||
		    ((form == FORM_LIST || form == FORM_FLOATS) && t->ndim > 1) ||
		    (form == FORM_PAIRS && (t->ndim != 2 || t->shape[1] != 2))) {
			static const char *const why[] = {
				[FORM_INT] = "its value is not one integer",
				[FORM_LIST] = "its value is not a list of integers",
				[FORM_PAIRS] = "its value is not a list of pairs of integers",
				[FORM_FLOAT] = "its value is not one integer, float32 or "
					       "float64 number",
				[FORM_FLOATS] = "its value is not a list of integers, float32 "
						"or float64 numbers",
			};
			free(sp->why[arg->id]);
			sp->why[arg->id] = xstrdup(why[form]);
			return false;
		}
		extra[i] = (Attr){.name = names[i], .pos = e->pos};
		switch (form) {
		case FORM_INT:
			extra[i].value = (AttrValue){.kind = ATTR_INT, .u.i = v[0]};
			break;
		case FORM_LIST:
			extra[i].value = list_value(m, v, n);
			break;
		case FORM_PAIRS:
			extra[i].value = (AttrValue){.kind = ATTR_LIST};
			extra[i].value.u.list.n = n / 2;
			extra[i].value.u.list.items =
				arena_array(ir_data_arena(m), n / 2 + 1, sizeof(AttrValue));
			for (uint32_t k = 0; k < n / 2; k++)
				extra[i].value.u.list.items[k] = list_value(m, v + 2 * k, 2);
			break;
		case FORM_FLOAT:
			extra[i].value = (AttrValue){.kind = ATTR_FLOAT, .u.f = f[0]};
			break;
		case FORM_FLOATS:
			extra[i].value = (AttrValue){.kind = ATTR_LIST};
			extra[i].value.u.list.n = n;
			extra[i].value.u.list.items =
				arena_array(ir_data_arena(m), n + 1, sizeof(AttrValue));
			for (uint32_t k = 0; k < n; k++)
				extra[i].value.u.list.items[k] =
					(AttrValue){.kind = ATTR_FLOAT, .u.f = f[k]};
			break;
		}
	}
	set_attrs(m, e, names, extra, nvalues);
	e->u.call.op = twin;
	/* the shape arguments go; those after them move up */
	for (uint32_t k = first + nvalues; k < e->u.call.nargs; k++)
		e->u.call.args[k - nvalues] = e->u.call.args[k];
	e->u.call.nargs -= nvalues;
	return true;
}

/* A tensor type the caller owns, in m's data arena. */
static Type *type_copy(IrModule *m, const Type *t)
{
	DP_ASSERT(t->kind == TYPE_TENSOR);
	return type_tensor(ir_data_arena(m), t->u.tensor.dtype, t->u.tensor.ndim, t->u.tensor.dims);
}

/* The dyn.* calls left with `?`: their shape arguments could not be
 * computed. Returns false after reporting each, with the reason. */
static bool report_value_shapes(Specializer *sp)
{
	ExprVec order = {0};
	bool ok = true;
	ir_module_list(sp->m, &order);
	for (size_t i = 0; i < order.count; i++) {
		const Expr *e = order.items[i];
		const char *names[4] = {NULL, NULL, NULL, NULL}, *why = NULL;
		OpKind twin;
		uint32_t first, nvalues;
		ValueForm forms[4];
		if (e->kind != EXPR_CALL || !has_unknown_dims(e->type) ||
		    !static_twin(e, &twin, names, &first, &nvalues, forms))
			continue;
		for (uint32_t k = 0; k < nvalues && !why; k++) {
			const Expr *arg = e->u.call.args[first + k];
			bool failed = false;
			/* one whose type stayed `?` was not asked for: ask why now */
			if (!sp->known[arg->id] && !sp->why[arg->id])
				shape_value(sp, arg, &failed);
			why = sp->why[arg->id];
		}
		diag_error(sp->diags, sp->m->src, e->pos,
			   "'%s' takes its %s from values known only while running: %s",
			   ir_call_op_name(e), names[0], why ? why : "they cannot be computed");
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

/* Makes m's dyn.* calls static, round after round while one is: each round
 * but the last rewrites at least one, so there are at most as many rounds
 * as dyn.* calls, plus one (a chain of them, each shape computed from the
 * previous result, takes them all). False after an error. */
static bool specialize_rounds(Specializer *sp)
{
	for (;;) {
		ExprVec order = {0};
		bool changed = false, failed = false;
		if (!infer_module(sp->m, sp->diags))
			return false;
		ir_module_list(sp->m, &order);
		for (size_t i = 0; i < order.count && !failed; i++) {
			Expr *e = order.items[i];
			if (e->kind == EXPR_CALL && has_unknown_dims(e->type))
				changed |= make_static(sp, e, &failed);
		}
		exprvec_free(&order);
		if (failed)
			return false;
		if (!changed)
			break;
	}
	return report_value_shapes(sp);
}

IrModule *plan_specialize(const IrModule *in, const SpecializeOptions *opts, DiagList *diags)
{
	IrModule *m = ir_module_clone(in);
	int32_t main_index = ir_find_global(m, "main");
	size_t k = 0;
	Specializer sp = {.m = m, .opts = opts, .diags = diags};
	bool ok;
	if (main_index >= 0) {
		Expr *fn = m->globals[main_index].fn;
		for (uint32_t i = 0; i < fn->u.fn.nparams && k < opts->ninputs; i++, k++)
			if (opts->input_types[k])
				fn->u.fn.params[i]->u.var.annotation =
					type_copy(m, opts->input_types[k]);
	}
	for (uint32_t i = 0; i < m->nfree_vars && k < opts->ninputs; i++, k++)
		if (opts->input_types[k])
			m->free_vars[i]->u.var.annotation = type_copy(m, opts->input_types[k]);
	drop_open_annotations(m);
	arena_init(&sp.values);
	sp.known = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Tensor *));
	sp.why = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(char *));
	ok = specialize_rounds(&sp);
	for (uint32_t id = 0; id < m->nexprs; id++)
		free(sp.why[id]);
	free(sp.why);
	free(sp.known);
	arena_free(&sp.values);
	if (!ok) {
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
