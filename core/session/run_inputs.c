/*
 * run_inputs.c - `set inputs realistic`: random inputs shaped like a
 * trained model's, so that a model's numbers mean something.
 *
 * Uniform values in [-1, 1) (npy_random) drive every layer of a deep model
 * to saturation: a convolution's output grows with its fan-in, and the
 * final softmax becomes a one-hot vector that matches whatever happened
 * inside. Realistic inputs take the role of each input from its first
 * consumer and draw it the way an initialised network has it (He/LeCun
 * style, as PyTorch initialises layers):
 *
 *   weight of a convolution, dense or matmul (operand 1)  N(0, 1/fan_in),
 *       fan_in the product of every dimension but the first (OIHW, [units,
 *       in]) or, for nn.matmul, the first (its weight is [in, units]);
 *   scale of a normalisation (gamma)                       1 + N(0, 0.1^2);
 *   shift, mean (beta, moving_mean)                        N(0, 0.1^2);
 *   variance (moving_var)                                  1 + |N(0, 0.1^2)|;
 *   bias (operand 1 of nn.bias_add, a 1-d operand of add)  N(0, 0.01^2);
 *   anything else (the data)                               N(0, 1);
 *
 * and an input whose consumer does not say (a batch norm a frontend
 * simplified into add, sqrt, divide) by its name: ...var, ...variance,
 * ...gamma, ...beta, ...mean, ...bias. An input whose square root or
 * logarithm is taken (through copy, cast, reshapes and adding a constant)
 * is a variance whatever else reads it.
 *
 * The normal values come from the same seeded uniform values by the
 * Box-Muller transform, so the inputs stay reproducible: the same seed gives
 * the same tensor. Only float tensors drawn at random change; files and
 * integer inputs are taken as they are.
 */
#include "run_inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dtype_access.h"
#include "ops.h"

typedef enum InputRole {
	ROLE_DATA,
	ROLE_WEIGHT,
	ROLE_WEIGHT_IN_FIRST, /* nn.matmul's [in, units] weight */
	ROLE_SCALE,
	ROLE_SHIFT,
	ROLE_VARIANCE,
	ROLE_BIAS,
} InputRole;

/* The role an operand position gives the value it reads (an if chain: a
 * switch over every operator would need a default). */
static InputRole role_of_use(const Expr *call, uint32_t arg)
{
	OpKind op = call->u.call.op;
	const Expr *a = call->u.call.args[arg];
	if (op == OP_CONV1D || op == OP_CONV2D || op == OP_CONV3D || op == OP_CONV1D_TRANSPOSE ||
	    op == OP_CONV2D_TRANSPOSE || op == OP_CONV3D_TRANSPOSE || op == OP_DENSE)
		return arg == 1 ? ROLE_WEIGHT : ROLE_DATA;
	if (op == OP_MATMUL)
		return arg == 1 ? ROLE_WEIGHT_IN_FIRST : ROLE_DATA;
	if (op == OP_BATCH_NORM)
		return arg == 1   ? ROLE_SCALE
		       : arg == 4 ? ROLE_VARIANCE
		       : arg >= 2 ? ROLE_SHIFT
				  : ROLE_DATA;
	if (op == OP_LAYER_NORM || op == OP_GROUP_NORM || op == OP_INSTANCE_NORM)
		return arg == 1 ? ROLE_SCALE : arg == 2 ? ROLE_SHIFT : ROLE_DATA;
	if (op == OP_BIAS_ADD)
		return arg == 1 ? ROLE_BIAS : ROLE_DATA;
	if (op == OP_ADD && arg == 1 && a->type && a->type->kind == TYPE_TENSOR &&
	    a->type->u.tensor.ndim == 1)
		return ROLE_BIAS;
	return ROLE_DATA;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The role a name gives an input its consumer does not: the parameters of
 * a simplified batch norm (`bn_moving_var`, `bn_gamma`, ...). */
static InputRole role_of_name(const char *name)
{
	if (ends_with(name, "var") || ends_with(name, "variance"))
		return ROLE_VARIANCE;
	if (ends_with(name, "gamma"))
		return ROLE_SCALE;
	if (ends_with(name, "beta") || ends_with(name, "mean"))
		return ROLE_SHIFT;
	if (ends_with(name, "bias"))
		return ROLE_BIAS;
	return ROLE_DATA;
}

/* The input a root or logarithm's operand comes from, through what keeps
 * it positive (copy, cast, reshapes, adding a constant), or NULL. */
static const Expr *positive_source(const Expr *e)
{
	for (int steps = 0; e && steps < 64; steps++) {
		e = ir_computed_value(e);
		if (ir_is_op(e, OP_COPY) || ir_is_op(e, OP_CAST) || ir_is_op(e, OP_EXPAND_DIMS) ||
		    ir_is_op(e, OP_RESHAPE))
			e = e->u.call.args[0];
		else if (ir_is_op(e, OP_ADD) && e->u.call.args[1]->kind == EXPR_CONSTANT)
			e = e->u.call.args[0];
		else if (ir_is_op(e, OP_ADD) && e->u.call.args[0]->kind == EXPR_CONSTANT)
			e = e->u.call.args[1];
		else
			break;
	}
	return e && e->kind == EXPR_VAR ? e : NULL;
}

/* Standard normal values from the uniform values in [-1, 1) of a (float32
 * or float64), in place: Box-Muller on consecutive pairs. */
static void make_normal(NpyArray *a)
{
	int64_t n = npy_array_count(a);
	for (int64_t i = 0; i < n; i += 2) {
		double u1 = (exec_element(a, i) + 1.0) / 2.0; /* [0, 1) */
		double u2 = i + 1 < n ? (exec_element(a, i + 1) + 1.0) / 2.0 : 0.5;
		double r = sqrt(-2.0 * log(1.0 - u1)), t = 2.0 * M_PI * u2;
		double z[2] = {r * cos(t), r * sin(t)};
		for (int k = 0; k < 2 && i + k < n; k++)
			dtype_store_double(a->data, a->dtype, i + k, z[k]);
	}
}

static void scale_shift(NpyArray *a, double scale, double shift, bool absolute)
{
	int64_t n = npy_array_count(a);
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		v = (absolute ? fabs(v) : v) * scale + shift;
		dtype_store_double(a->data, a->dtype, i, v);
	}
}

void run_inputs_realistic(const IrModule *m, const ExecParam *params, size_t n, NpyArray *inputs,
			  const bool *drawn)
{
	InputRole *roles = xcalloc(n + 1, sizeof(InputRole));
	bool *seen = xcalloc(n + 1, sizeof(bool));
	Expr **by_id = ir_index_by_id(m);
	/* each input's first consumer, in id order (the order of the text) */
	for (uint32_t id = 0; id < m->nexprs; id++) {
		const Expr *call = by_id[id];
		if (!call || call->kind != EXPR_CALL || call->u.call.op == OP_NONE)
			continue;
		for (uint32_t a = 0; a < call->u.call.nargs; a++) {
			const Expr *v = ir_computed_value(call->u.call.args[a]);
			for (size_t k = 0; k < n; k++) {
				if (seen[k] || params[k].var != v)
					continue;
				seen[k] = true;
				roles[k] = role_of_use(call, a);
			}
		}
	}
	/* an input whose root or logarithm is taken (a variance, through copy,
	 * add of a constant epsilon, reshapes) must be positive, whatever its
	 * first consumer or name says: ONNX exports use one tensor as both
	 * (resnet50's bn1_weight) */
	for (uint32_t id = 0; id < m->nexprs; id++) {
		const Expr *e = by_id[id];
		if (!e || !(ir_is_op(e, OP_SQRT) || ir_is_op(e, OP_RSQRT) || ir_is_op(e, OP_LOG)))
			continue;
		e = positive_source(e->u.call.args[0]);
		for (size_t k = 0; k < n && e; k++)
			if (params[k].var == e) {
				roles[k] = ROLE_VARIANCE;
				seen[k] = true;
			}
	}
	free(by_id);
	/* a batch norm that a frontend simplified into add, sqrt, divide and
	 * multiply no longer says which input is which: the names do */
	for (size_t k = 0; k < n; k++)
		if (roles[k] == ROLE_DATA)
			roles[k] = role_of_name(params[k].name);
	for (size_t k = 0; k < n; k++) {
		NpyArray *a = &inputs[k];
		int64_t fan_in = 1;
		if (!drawn[k] || (a->dtype != DT_FLOAT32 && a->dtype != DT_FLOAT64))
			continue;
		make_normal(a);
		switch (roles[k]) {
		case ROLE_WEIGHT:
			for (uint32_t d = 1; d < a->ndim; d++)
				fan_in *= a->shape[d];
			scale_shift(a, 1.0 / sqrt((double)(fan_in > 0 ? fan_in : 1)), 0, false);
			break;
		case ROLE_WEIGHT_IN_FIRST:
			fan_in = a->ndim ? a->shape[0] : 1;
			scale_shift(a, 1.0 / sqrt((double)(fan_in > 0 ? fan_in : 1)), 0, false);
			break;
		case ROLE_SCALE:
			scale_shift(a, 0.1, 1.0, false);
			break;
		case ROLE_SHIFT:
			scale_shift(a, 0.1, 0.0, false);
			break;
		case ROLE_VARIANCE:
			scale_shift(a, 0.1, 1.0, true);
			break;
		case ROLE_BIAS:
			scale_shift(a, 0.01, 0.0, false);
			break;
		case ROLE_DATA:
			break;
		}
	}
	free(roles);
	free(seen);
}

/* Whether a holds a saturated output: every element 0 (a dead relu),
 * every one at +-1 (a saturated tanh), or rows along the last axis that are
 * one-hot (a saturated softmax). *what names which. A constant output
 * other than 0 is no sign of it (zeros_like, full). */
bool run_output_saturated(const NpyArray *a, const char **what)
{
	int64_t n = npy_array_count(a), row = a->ndim ? a->shape[a->ndim - 1] : 1;
	bool zero = true, unit = true, one_hot = row > 1;
	if (!dtype_is_float(a->dtype) || n < 2)
		return false;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		zero &= v == 0;
		unit &= fabs(fabs(v) - 1.0) < 1e-3;
	}
	for (int64_t r = 0; one_hot && r < n / row; r++) {
		int64_t ones = 0;
		for (int64_t i = 0; i < row; i++) {
			double v = exec_element(a, r * row + i);
			if (fabs(v - 1.0) < 1e-3)
				ones++;
			else if (fabs(v) > 1e-3)
				one_hot = false;
		}
		one_hot &= ones == 1;
	}
	*what = zero      ? "every element is 0"
		: unit    ? "every element is +-1"
		: one_hot ? "each row is one-hot"
			  : NULL;
	return *what != NULL;
}
