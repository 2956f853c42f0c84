/*
 * run.c - the run itself: its options, its memory limit, the module a run
 * with given inputs executes, and exec_run with the inputs held (run.h).
 *
 * Dynamic shapes: a module with `?` dimensions is run as plan_specialize
 * (core/plan/plan_specialize.c) makes it for the inputs' actual shapes and
 * values, a clone typed again with every shape known, the dyn.* calls
 * turned into their static forms once their shape arguments' values are
 * known. Those values come from this file's callback (value_for_inputs),
 * which computes them with exec_evaluate from the inputs already built:
 * core/plan may not call the executor, and the executor may not call
 * core/plan, so the session joins the two. The executor then runs the
 * clone like any static module, allocating per actual shape; a static
 * module skips this.
 *
 * The memory limit is `set memory-limit`, else DEVPLAN_MEMORY_LIMIT
 * parsed strictly; a malformed variable fails the run before anything is
 * made (run_memory_limit_valid) rather than being ignored.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"

/* DEVPLAN_MEMORY_LIMIT parsed strictly (parse_byte_size). *limit is 0
 * when unset; false with *why for anything malformed. */
static bool parse_memory_limit(uint64_t *limit, const char **why)
{
	const char *s = getenv("DEVPLAN_MEMORY_LIMIT");
	*limit = 0;
	return !s || !*s || parse_byte_size(s, limit, why);
}

uint64_t run_memory_limit(const Session *s)
{
	uint64_t limit;
	const char *why;
	if (s->settings.memory_limit)
		return s->settings.memory_limit;
	return parse_memory_limit(&limit, &why) ? limit : 0;
}

bool run_memory_limit_valid(DiagList *diags)
{
	uint64_t limit;
	const char *why = NULL;
	if (parse_memory_limit(&limit, &why))
		return true;
	diag_error(diags, NULL, (Pos){0}, "DEVPLAN_MEMORY_LIMIT='%s': %s",
		   getenv("DEVPLAN_MEMORY_LIMIT"), why);
	return false;
}

ExecOptions run_options(const Session *s, bool all_on_cpu, bool profile)
{
	ExecOptions o;
	memset(&o, 0, sizeof o);
	o.gpu = s->settings.gpu;
	o.all_on_cpu = all_on_cpu;
	o.profile = profile;
	o.memory_limit = run_memory_limit(s);
	return o;
}

bool run_fault(const Session *s, ExecOptions *o, DiagList *diags)
{
	const char *text = getenv("DEVPLAN_FAULT");
	char *err = NULL;
	if (!text || !*text)
		return true;
	if (exec_fault_parse(text, &s->devices, &o->fault, &err))
		return true;
	diag_error(diags, NULL, (Pos){0}, "DEVPLAN_FAULT: %s", err);
	free(err);
	return false;
}

bool run_sizes_fit(const Session *s, const IrModule *m, DiagList *diags)
{
	ExecOptions o;
	if (plan_has_unknown_dims(m))
		return true;
	memset(&o, 0, sizeof o);
	o.memory_limit = run_memory_limit(s);
	return exec_check_sizes(m, &o, diags);
}

/* What plan_specialize's callback needs: the run's inputs. */
typedef struct ValueContext {
	const NpyArray *inputs;
	size_t n;
} ValueContext;

/* plan_specialize's callback (PlanValueFn): the value of a shape argument
 * computed on the cpu from the inputs' values (exec_evaluate), copied into
 * the arena plan_specialize gives. */
static PlanValueStatus value_for_inputs(void *ctx, const IrModule *m, const Expr *e, Arena *arena,
					Tensor *out, char **why, DiagList *diags)
{
	const ValueContext *vc = ctx;
	NpyArray a;
	switch (exec_evaluate(m, e, vc->inputs, vc->n, RUN_MAX_SHAPE_ELEMENTS, &a, why, diags)) {
	case EVAL_DONE:
		break;
	case EVAL_UNKNOWN:
		return PLAN_VALUE_UNKNOWN;
	case EVAL_FAILED:
		return PLAN_VALUE_FAILED;
	}
	out->dtype = a.dtype;
	out->ndim = a.ndim;
	out->shape = arena_array(arena, a.ndim ? a.ndim : 1, sizeof(int64_t));
	if (a.ndim)
		memcpy(out->shape, a.shape, a.ndim * sizeof(int64_t));
	out->nbytes = a.nbytes;
	out->data = arena_alloc(arena, a.nbytes ? a.nbytes : 1);
	if (a.nbytes)
		memcpy(out->data, a.data, a.nbytes);
	npy_array_free(&a);
	return PLAN_VALUE_KNOWN;
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

/* The error of a module that cannot be made static: the shapes of the
 * inputs that had `?` dimensions (types[k] set), or only their values. */
static void report_unspecialized(const ExecParam *params, size_t np, const Type **types,
				 const NpyArray *inputs, size_t n, DiagList *diags)
{
	StrBuf given;
	strbuf_init(&given);
	for (size_t k = 0; k < np && k < n; k++) {
		if (!types[k])
			continue;
		strbuf_printf(&given, "%s%%%s (", given.len ? ", " : "", params[k].name);
		for (uint32_t d = 0; d < inputs[k].ndim; d++)
			strbuf_printf(&given, "%s%lld", d ? ", " : "",
				      (long long)inputs[k].shape[d]);
		strbuf_puts(&given, ")");
	}
	if (given.len)
		diag_error(diags, NULL, (Pos){0}, "@main cannot run with these inputs' shapes: %s",
			   given.data);
	else
		diag_error(diags, NULL, (Pos){0}, "@main cannot run with these inputs' values");
	strbuf_free(&given);
}

IrModule *run_specialize(const IrModule *m, const NpyArray *inputs, size_t n, DiagList *diags)
{
	ExecParam *params;
	size_t np;
	const Type **types;
	Arena arena;
	IrModule *out;
	ValueContext vc = {inputs, n};
	SpecializeOptions so;
	if (!plan_has_unknown_dims(m))
		return ir_module_retain(m);
	np = exec_params(m, &params);
	types = xcalloc(np + 1, sizeof *types);
	arena_init(&arena);
	for (size_t k = 0; k < np && k < n; k++)
		if (has_unknown_dims(params[k].type))
			types[k] = type_tensor(&arena, params[k].type->u.tensor.dtype,
					       inputs[k].ndim, inputs[k].shape);
	so = (SpecializeOptions){types, np, value_for_inputs, &vc};
	out = plan_specialize(m, &so, diags);
	if (!out && interrupt_pending())
		interrupt_clear();
	if (!out)
		report_unspecialized(params, np, types, inputs, n, diags);
	arena_free(&arena);
	free(types);
	free(params);
	return out;
}

bool run_module(const Session *s, const IrModule *m, const ExecOptions *o, const NpyArray *inputs,
		size_t n, ExecResult *result, DiagList *diags)
{
	ExecOptions held = *o;
	bool ok;
	for (size_t i = 0; i < n; i++)
		held.memory_held += inputs[i].nbytes;
	ok = exec_run(m, &s->devices, &held, inputs, n, result, diags);
	if (!ok)
		exec_result_free(result);
	if (!ok && interrupt_pending())
		interrupt_clear();
	return ok;
}
