/*
 * run_inputs.c - the inputs of a run (run_inputs.h): each from a .npy file
 * or seeded random values, checked against its type and the memory limit
 * before a byte of it is read or drawn.
 *
 * A given shape (random:SEED:(3,4), or a file's for an input with `?`
 * dimensions) must agree with the input's static dimensions; the bytes
 * it asks for, and a file's size, must fit in the memory limit (the
 * machine's memory when none is set). Random values are uniform in
 * [-1, 1) (npy_random); a batch norm's variance, named so
 * (run_input_is_variance), is made non-negative, or every model with
 * batch norm would compute NaN.
 *
 * `set inputs realistic` (the default) then redraws them: uniform values
 * drive every layer of a deep model to saturation: a convolution's output
 * grows with its fan-in, and the final softmax becomes a one-hot vector
 * that matches whatever happened inside. Realistic inputs take the role
 * of each input from its first consumer and draw it the way an
 * initialised network has it (He/LeCun style, as PyTorch initialises
 * layers):
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
 * simplified into add, sqrt, divide) by its name: ...var, ...variance (the
 * same rule as the uniform values'), ...gamma, ...beta, ...mean, ...bias.
 * An input whose square root or logarithm is taken (through copy, cast,
 * reshapes and adding a constant) is a variance whatever else reads it.
 *
 * The normal values come from the same seeded uniform values by the
 * Box-Muller transform, so the inputs stay reproducible: the same seed gives
 * the same tensor, whatever DEVPLAN_THREADS says. A float32 tensor (a
 * model's weights, hundreds of MB) is transformed, scaled and shifted in
 * one pass of float32 vector code (random_normal_f32,
 * core/exec/cpu/random_draw.c), a float64 one in double. Only float tensors
 * drawn at random change; files and integer inputs are taken as they are.
 */
#include "run_inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels.h"
#include "ops.h"
#include "plan.h"
#include "random_draw.h"
#include "run.h"

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

bool run_input_is_variance(const char *name)
{
	return ends_with(name, "var") || ends_with(name, "variance");
}

/* The role a name gives an input its consumer does not: the parameters of
 * a simplified batch norm (`bn_moving_var`, `bn_gamma`, ...). */
static InputRole role_of_name(const char *name)
{
	if (run_input_is_variance(name))
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

/* Standard normal values from the uniform values in [-1, 1) of a float64
 * array, in place: Box-Muller in double on consecutive pairs (float32
 * arrays take random_normal_f32, the same transform in float32). */
typedef struct NormalJob {
	double *a;
	int64_t n;
} NormalJob;

/* Box-Muller on the pairs [begin, end): pair p is elements 2p and 2p + 1
 * (the last alone when n is odd, with u2 = 0.5). Each pair is its own, so
 * the pairs split over threads give the same values as one loop. */
static void normal_pairs(void *ctx, int64_t begin, int64_t end)
{
	NormalJob *job = ctx;
	double *a = job->a;
	int64_t n = job->n;
	for (int64_t i = 2 * begin; i < 2 * end && i < n; i += 2) {
		double u1 = (a[i] + 1.0) / 2.0; /* [0, 1) */
		double u2 = i + 1 < n ? (a[i + 1] + 1.0) / 2.0 : 0.5;
		double r = sqrt(-2.0 * log(1.0 - u1)), t = 2.0 * M_PI * u2;
		a[i] = r * cos(t);
		if (i + 1 < n)
			a[i + 1] = r * sin(t);
	}
}

static void make_normal_f64(NpyArray *a, double scale, double shift, bool absolute)
{
	NormalJob job = {a->data, npy_array_count(a)};
	kernel_parallel_for((job.n + 1) / 2, 1 << 14, normal_pairs, &job);
	for (int64_t i = 0; i < job.n; i++)
		job.a[i] = (absolute ? fabs(job.a[i]) : job.a[i]) * scale + shift;
}

/* a's uniform values, drawn again as normal values for its role. */
static void draw_normal(NpyArray *a, InputRole role)
{
	double scale = 1, shift = 0;
	bool absolute = false;
	int64_t fan_in = 1;
	switch (role) {
	case ROLE_WEIGHT:
		for (uint32_t d = 1; d < a->ndim; d++)
			fan_in *= a->shape[d];
		scale = 1.0 / sqrt((double)(fan_in > 0 ? fan_in : 1));
		break;
	case ROLE_WEIGHT_IN_FIRST:
		fan_in = a->ndim ? a->shape[0] : 1;
		scale = 1.0 / sqrt((double)(fan_in > 0 ? fan_in : 1));
		break;
	case ROLE_SCALE:
		scale = 0.1;
		shift = 1.0;
		break;
	case ROLE_SHIFT:
		scale = 0.1;
		break;
	case ROLE_VARIANCE:
		scale = 0.1;
		shift = 1.0;
		absolute = true;
		break;
	case ROLE_BIAS:
		scale = 0.01;
		break;
	case ROLE_DATA:
		break;
	}
	if (a->dtype == DT_FLOAT32) { /* the weights: one pass, in float32 vector code */
		random_normal_f32(a->data, npy_array_count(a), (float)scale, (float)shift,
				  absolute);
		return;
	}
	make_normal_f64(a, scale, shift, absolute);
}

/* Redraws the inputs drawn at random (drawn[k]) as an initialised
 * model's, each by its role. */
static void draw_realistic(const IrModule *m, const ExecParam *params, size_t n, NpyArray *inputs,
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
	for (size_t k = 0; k < n; k++)
		if (drawn[k] && (inputs[k].dtype == DT_FLOAT32 || inputs[k].dtype == DT_FLOAT64))
			draw_normal(&inputs[k], roles[k]);
	free(roles);
	free(seen);
}

/* ---- making each input ---------------------------------------------------- */

/* Clears the sign bit of every element. */
static void make_non_negative(NpyArray *a)
{
	int64_t n = npy_array_count(a);
	switch (a->dtype) {
	case DT_FLOAT32:
		for (int64_t i = 0; i < n; i++)
			((float *)a->data)[i] = fabsf(((float *)a->data)[i]);
		break;
	case DT_FLOAT64:
		for (int64_t i = 0; i < n; i++)
			((double *)a->data)[i] = fabs(((double *)a->data)[i]);
		break;
	case DT_FLOAT16:
	case DT_BFLOAT16:
		for (int64_t i = 0; i < n; i++)
			((uint16_t *)a->data)[i] &= 0x7fff;
		break;
	case DT_INT8:
		for (int64_t i = 0; i < n; i++)
			((int8_t *)a->data)[i] = (int8_t)abs(((int8_t *)a->data)[i]);
		break;
	case DT_INT16:
		for (int64_t i = 0; i < n; i++)
			((int16_t *)a->data)[i] = (int16_t)abs(((int16_t *)a->data)[i]);
		break;
	case DT_INT32:
		for (int64_t i = 0; i < n; i++)
			((int32_t *)a->data)[i] = abs(((int32_t *)a->data)[i]);
		break;
	case DT_INT64:
		for (int64_t i = 0; i < n; i++)
			((int64_t *)a->data)[i] = llabs(((int64_t *)a->data)[i]);
		break;
	case DT_UINT8:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
}

static bool has_unknown_dims(const Type *t)
{
	if (!t || t->kind != TYPE_TENSOR)
		return false;
	for (uint32_t d = 0; d < t->u.tensor.ndim; d++)
		if (t->u.tensor.dims[d] < 0)
			return true;
	return false;
}

/* The memory an input may take: the limit, else the machine's. */
static uint64_t input_limit(const Session *s)
{
	return run_memory_limit(s) ? run_memory_limit(s) : exec_physical_memory();
}

/* "more than the 1.0 GiB memory limit" or "more than this machine's 64.0
 * GiB of memory", after `what` (asks for, holds) and the bytes. */
static void report_too_big(const Session *s, const ExecParam *p, const char *source,
			   const char *what, double bytes, DiagList *diags)
{
	char need[32], have[32];
	format_bytes_short(need, sizeof need, bytes);
	format_bytes_short(have, sizeof have, (double)input_limit(s));
	if (run_memory_limit(s))
		diag_error(diags, NULL, (Pos){0},
			   "input %%%s: %s %s %s, more than the %s memory limit", p->name, source,
			   what, need, have);
	else
		diag_error(diags, NULL, (Pos){0},
			   "input %%%s: %s %s %s, more than this machine's %s of memory", p->name,
			   source, what, need, have);
}

/* A shape given for input p (from random:SEED:(...) or a file) agrees with
 * p's type: the same rank and every static dimension equal; and it fits in
 * memory. False with the error in diags. */
static bool check_input_shape(const Session *s, const ExecParam *p, uint32_t ndim,
			      const int64_t *shape, const char *source, DiagList *diags)
{
	const Type *t = p->type;
	StrBuf ty;
	double bytes = (double)dtype_size(t->u.tensor.dtype);
	bool ok = true;
	strbuf_init(&ty);
	type_print(&ty, t);
	if (ndim != t->u.tensor.ndim) {
		diag_error(diags, NULL, (Pos){0},
			   "input %%%s: %s has %u dimensions, but its type %s has %u", p->name,
			   source, ndim, ty.data, t->u.tensor.ndim);
		ok = false;
		goto done;
	}
	for (uint32_t d = 0; d < ndim; d++) {
		if (t->u.tensor.dims[d] >= 0 && t->u.tensor.dims[d] != shape[d]) {
			diag_error(diags, NULL, (Pos){0},
				   "input %%%s: %s gives dimension %u as %lld, but its type %s "
				   "fixes it at %lld",
				   p->name, source, d, (long long)shape[d], ty.data,
				   (long long)t->u.tensor.dims[d]);
			ok = false;
			goto done;
		}
		bytes *= (double)shape[d]; /* a double cannot overflow here */
	}
	if (bytes > (double)input_limit(s)) {
		report_too_big(s, p, source, "asks for", bytes, diags);
		ok = false;
	}
done:
	strbuf_free(&ty);
	return ok;
}

/* A .npy file holds its array's bytes, so one larger than the memory
 * limit is refused before it is read (npy_read checks the header against
 * the data that follows it). False with the error in diags. */
static bool check_file_size(const Session *s, const ExecParam *p, const char *path, DiagList *diags)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size <= input_limit(s))
		return true; /* npy_read says what is wrong with it */
	report_too_big(s, p, path, "holds", (double)st.st_size, diags);
	return false;
}

/* Input p's array read from spec's file. */
static bool read_input(const Session *s, const ExecParam *p, const RunInputSpec *spec,
		       NpyArray *out, DiagList *diags)
{
	const Type *t = p->type;
	char *err = NULL;
	if (!check_file_size(s, p, spec->path, diags))
		return false;
	if (!npy_read(spec->path, out, &err)) {
		if (err)
			diag_error(diags, NULL, (Pos){0}, "%s", err);
		free(err);
		return false;
	}
	/* NumPy has no bfloat16: a uint16 file holds its bit patterns, as
	 * TVM's NDArray.copyfrom takes them */
	if (out->dtype == DT_UINT16 && t && t->kind == TYPE_TENSOR &&
	    t->u.tensor.dtype == DT_BFLOAT16)
		out->dtype = DT_BFLOAT16;
	/* a static input's mismatch is the executor's to report */
	if (has_unknown_dims(t) &&
	    !check_input_shape(s, p, out->ndim, out->shape, spec->file, diags)) {
		npy_array_free(out);
		return false;
	}
	return true;
}

/* Input p's seeded random values in the shape given or its type's. */
static bool draw_input(const Session *s, const ExecParam *p, const RunInputSpec *spec,
		       NpyArray *out, DiagList *diags)
{
	const Type *t = p->type;
	const int64_t *shape;
	char *err = NULL;
	if (!t || t->kind != TYPE_TENSOR) {
		diag_error(diags, NULL, (Pos){0},
			   "input %%%s is not a tensor: give it as NAME=FILE.npy", p->name);
		return false;
	}
	if (spec->has_shape) {
		if (!check_input_shape(s, p, spec->ndim, spec->shape, "the shape given", diags))
			return false;
		shape = spec->shape;
	} else if (has_unknown_dims(t)) {
		StrBuf ty;
		strbuf_init(&ty);
		type_print(&ty, t);
		diag_error(diags, NULL, (Pos){0},
			   "input %%%s has type %s with unknown dimensions: give its shape, "
			   "%s=random:SEED:(D0,D1,...), or a file, %s=FILE.npy",
			   p->name, ty.data, p->name, p->name);
		strbuf_free(&ty);
		return false;
	} else {
		/* within the memory limit before a byte of it is allocated */
		if (!check_input_shape(s, p, t->u.tensor.ndim, t->u.tensor.dims, "its type", diags))
			return false;
		shape = t->u.tensor.dims;
	}
	if (!npy_random(out, t->u.tensor.dtype, t->u.tensor.ndim, shape, spec->seed, &err)) {
		diag_error(diags, NULL, (Pos){0}, "input %%%s: %s", p->name, err);
		free(err);
		return false;
	}
	if (run_input_is_variance(p->name))
		make_non_negative(out);
	return true;
}

void run_input_spec_random(RunInputSpec *spec, size_t k)
{
	memset(spec, 0, sizeof *spec);
	spec->seed = k;
}

bool run_inputs_start(const Session *s, const IrModule *m, RunInputs *in, DiagList *diags)
{
	memset(in, 0, sizeof *in);
	if (!run_memory_limit_valid(diags) || !run_sizes_fit(s, m, diags))
		return false;
	in->m = m;
	in->count = exec_params(m, &in->params);
	in->arrays = xcalloc(in->count + 1, sizeof(NpyArray));
	in->drawn = xcalloc(in->count + 1, sizeof(bool));
	return true;
}

bool run_inputs_make(const Session *s, RunInputs *in, size_t k, const RunInputSpec *spec,
		     DiagList *diags)
{
	const ExecParam *p = &in->params[k];
	bool ok = spec->file ? read_input(s, p, spec, &in->arrays[k], diags)
			     : draw_input(s, p, spec, &in->arrays[k], diags);
	if (!ok)
		return false;
	in->drawn[k] = !spec->file;
	in->made = k + 1;
	return true;
}

void run_inputs_finish(const Session *s, RunInputs *in)
{
	if (s->settings.inputs == INPUTS_REALISTIC)
		draw_realistic(in->m, in->params, in->count, in->arrays, in->drawn);
}

bool run_inputs_build(const Session *s, const IrModule *m, const RunInputSpec *specs, RunInputs *in,
		      DiagList *diags)
{
	if (!run_inputs_start(s, m, in, diags))
		return false;
	for (size_t k = 0; k < in->count; k++) {
		RunInputSpec random;
		run_input_spec_random(&random, k);
		if (!run_inputs_make(s, in, k, specs ? &specs[k] : &random, diags)) {
			run_inputs_free(in);
			return false;
		}
	}
	run_inputs_finish(s, in);
	return true;
}

void run_inputs_free(RunInputs *in)
{
	for (size_t k = 0; k < in->made; k++)
		npy_array_free(&in->arrays[k]);
	free(in->arrays);
	free(in->drawn);
	free(in->params);
	memset(in, 0, sizeof *in);
}
