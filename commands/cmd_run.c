/*
 * cmd_run.c - executing the planned module: `run`, `compare` and `profile`.
 *
 * All three build @main's inputs the same way: NAME=FILE.npy reads a NumPy
 * file, NAME=random[:SEED] draws seeded random values (npy.h documents the
 * generator), NAME=random:SEED:(3,4) in the shape given (which an input
 * whose type has `?` dimensions needs), and an input not named is random
 * with its index as the seed, which a note says. Random values are drawn
 * like an initialised model's (run_inputs.c) unless `set inputs random`
 * asks for uniform ones: uniform weights make a batch norm's variance
 * negative in the exports that copy it from a weight, and every such
 * model's result NaN.
 *
 * Dynamic shapes: a module with `?` dimensions is run as plan_specialize
 * (core/plan/plan_specialize.c) makes it for the inputs' actual shapes and
 * values, a clone typed again with every shape known, the dyn.* calls
 * turned into their static forms once their shape arguments' values are
 * known. Those values come from this file's callback (value_for_inputs),
 * which computes them with exec_evaluate from the inputs already built:
 * core/plan may not call the executor, and the executor may not call
 * core/plan, so the commands join the two. The executor then runs the
 * clone like any static module, allocating per actual shape; a static
 * module skips this.
 * A given shape is checked against the input's static dimensions and the
 * memory before anything is drawn or read further.
 *
 * Then exec_run (exec.h) does the work and these
 * handlers only format: `run` a summary per result (type, device, first
 * values, checksum), `compare` the largest errors against a run of the
 * same program with every op on the cpu, `profile` times per op and device
 * and the copies next to the bytes that `copies` predicted.
 *
 * The output of `run` and `compare` is deterministic (no timings), so that
 * transcripts can hold it; only `profile` (and `run --profile`) print
 * times.
 */
#include "commands.h"

#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_each.h"
#include "exec.h"
#include "run_inputs.h"
#include "run_values.h"
#include "interrupt.h"
#include "plan.h"

/* RUN_MAX_SHAPE_ELEMENTS: the most elements of any one value computed
 * ahead of a run to find a dyn.* call's shape (the run computes it again) */
enum {
	RUN_SHOW_VALUES = 8,
	RUN_LIST_RANDOM = 6,
	INPUT_MAX_NDIM = 16,
	RUN_MAX_SHAPE_ELEMENTS = 4096,
	COMPARE_MAX_EXPECT = 64
};

static uint64_t memory_limit(const Session *s);
static bool memory_limit_valid(CmdContext *ctx);

typedef struct RunArgs {
	int first; /* argv index of the first NAME=VALUE */
	const char *output;
	const char *dump; /* --dump DIR */
	bool profile;
} RunArgs;

/* --output and --profile (when allowed) among the arguments. */
static bool parse_options(CmdContext *ctx, int argc, char **argv, bool allow_options, RunArgs *args)
{
	memset(args, 0, sizeof *args);
	args->first = 1;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		if (allow_options && strcmp(argv[i], "--profile") == 0) {
			args->profile = true;
		} else if (allow_options && strcmp(argv[i], "--output") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--output needs a file name");
				return false;
			}
			args->output = argv[++i];
		} else if (allow_options && strcmp(argv[i], "--dump") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--dump needs a directory");
				return false;
			}
			args->dump = argv[++i];
		} else {
			cmd_error(ctx, "unknown option '%s'", argv[i]);
			return false;
		}
	}
	return true;
}

/* An option, the file name after --output or the count after --top. */
static bool is_option_word(char **argv, int i)
{
	return strncmp(argv[i], "--", 2) == 0 ||
	       (i > 1 &&
		(strcmp(argv[i - 1], "--output") == 0 || strcmp(argv[i - 1], "--expect") == 0 ||
		 strcmp(argv[i - 1], "--top") == 0 || strcmp(argv[i - 1], "--dump") == 0));
}

/* Batch-norm variances (%bn0_moving_var, %running_var, %x_variance) feed
 * sqrt(var + eps): their random values are taken non-negative, or every
 * model with batch norm would compute NaN from random inputs. */
static bool is_variance(const char *name)
{
	size_t n = strlen(name);
	return (n >= 3 && strcmp(name + n - 3, "var") == 0) ||
	       (n >= 8 && strcmp(name + n - 8, "variance") == 0);
}

/* Clears the sign bit of every float element. */
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

/* The NAME=VALUE arguments matched with the inputs of @main: given[k] is
 * the VALUE named for params[k], NULL when none is. Returns false after
 * reporting a malformed argument, a name @main has no input for, or an
 * input named twice. */
static bool match_inputs(CmdContext *ctx, int argc, char **argv, const ExecParam *params, size_t n,
			 const char **given)
{
	for (int i = 1; i < argc; i++) {
		const char *eq, *name = argv[i];
		size_t len, k;
		if (is_option_word(argv, i))
			continue;
		eq = strchr(name, '=');
		if (name[0] == '%')
			name++;
		if (!eq || eq == name) {
			cmd_error(ctx, "'%s' is not NAME=FILE.npy or NAME=random[:SEED[:(SHAPE)]]",
				  argv[i]);
			return false;
		}
		len = (size_t)(eq - name);
		for (k = 0; k < n; k++)
			if (strlen(params[k].name) == len &&
			    strncmp(params[k].name, name, len) == 0)
				break;
		if (k == n) {
			StrBuf names;
			strbuf_init(&names);
			for (size_t j = 0; j < n && j < 8; j++)
				strbuf_printf(&names, "%s%%%s", j ? ", " : "", params[j].name);
			if (n > 8)
				strbuf_printf(&names, ", ... (%zu in all)", n);
			cmd_error(ctx, "@main has no input '%%%.*s'; its inputs are %s", (int)len,
				  name, n ? names.data : "none");
			strbuf_free(&names);
			return false;
		}
		if (given[k]) {
			cmd_error(ctx, "input '%%%s' is given twice", params[k].name);
			return false;
		}
		given[k] = eq + 1;
	}
	return true;
}

/* How one input is made: read from a file, or drawn at random with a
 * seed, in the shape its type says or the one given after the seed. */
typedef struct InputSpec {
	const char *file; /* NAME=FILE.npy; NULL: random values */
	uint64_t seed;
	bool has_shape; /* random:SEED:(D0, D1...) */
	uint32_t ndim;
	int64_t shape[INPUT_MAX_NDIM];
} InputSpec;

/* "(3,4)", "(5)", "(5,)" or "()" after random:SEED: into spec. Returns
 * false after reporting. */
static bool parse_input_shape(CmdContext *ctx, const ExecParam *p, const char *value,
			      const char *text, InputSpec *spec)
{
	const char *c = text;
	spec->has_shape = true;
	spec->ndim = 0;
	if (*c++ != '(')
		goto malformed;
	while (*c == ' ')
		c++;
	while (*c != ')') {
		char *end;
		long long d;
		if (spec->ndim == INPUT_MAX_NDIM) {
			cmd_error(ctx, "'%s' for %%%s: a shape has at most %d dimensions", value,
				  p->name, INPUT_MAX_NDIM);
			return false;
		}
		if (*c == '-') {
			cmd_error(ctx, "'%s' for %%%s: dimension %u is negative", value, p->name,
				  spec->ndim);
			return false;
		}
		if (*c < '0' || *c > '9')
			goto malformed;
		errno = 0;
		d = strtoll(c, &end, 10);
		if (errno) {
			cmd_error(ctx, "'%s' for %%%s: dimension %u is too large", value, p->name,
				  spec->ndim);
			return false;
		}
		spec->shape[spec->ndim++] = d;
		c = end;
		while (*c == ' ')
			c++;
		if (*c == ',') {
			c++;
			while (*c == ' ')
				c++;
		} else if (*c != ')') {
			goto malformed;
		}
	}
	if (c[1] == '\0')
		return true;
malformed:
	cmd_error(ctx,
		  "'%s' for %%%s: expected random:SEED:(D0,D1,...), a shape of non-negative "
		  "integers",
		  value, p->name);
	return false;
}

/* The VALUE given for input k: FILE.npy, random, random:SEED or
 * random:SEED:(SHAPE); NULL (not named) is random with k as the seed.
 * Returns false after reporting. */
static bool parse_input_value(CmdContext *ctx, const ExecParam *p, const char *value, size_t k,
			      InputSpec *spec)
{
	bool random = !value || strncmp(value, "random", 6) == 0;
	memset(spec, 0, sizeof *spec);
	spec->file = random ? NULL : value;
	spec->seed = k;
	if (value && random && value[6] != '\0') {
		char *end;
		if (value[6] != ':' || !value[7]) {
			cmd_error(ctx,
				  "'%s' for %%%s: expected random, random:SEED or "
				  "random:SEED:(D0,D1,...)",
				  value, p->name);
			return false;
		}
		errno = 0;
		spec->seed = strtoull(value + 7, &end, 10);
		if (errno || end == value + 7 || (*end && *end != ':') || value[7] == '-') {
			cmd_error(ctx, "'%s' for %%%s: the seed must be a non-negative integer",
				  value, p->name);
			return false;
		}
		if (*end == ':' && !parse_input_shape(ctx, p, value, end + 1, spec))
			return false;
	}
	return true;
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

/* A shape given for input p (from random:SEED:(...) or a file) agrees with
 * p's type: the same rank and every static dimension equal; and it fits in
 * memory. Returns false after reporting. */
static bool check_input_shape(CmdContext *ctx, const ExecParam *p, uint32_t ndim,
			      const int64_t *shape, const char *source)
{
	const Type *t = p->type;
	StrBuf ty;
	double bytes = (double)dtype_size(t->u.tensor.dtype);
	uint64_t limit =
		memory_limit(ctx->session) ? memory_limit(ctx->session) : exec_physical_memory();
	bool ok = true;
	strbuf_init(&ty);
	type_print(&ty, t);
	if (ndim != t->u.tensor.ndim) {
		cmd_error(ctx, "input %%%s: %s has %u dimensions, but its type %s has %u", p->name,
			  source, ndim, ty.data, t->u.tensor.ndim);
		ok = false;
		goto done;
	}
	for (uint32_t d = 0; d < ndim; d++) {
		if (t->u.tensor.dims[d] >= 0 && t->u.tensor.dims[d] != shape[d]) {
			cmd_error(ctx,
				  "input %%%s: %s gives dimension %u as %lld, but its type %s "
				  "fixes it at %lld",
				  p->name, source, d, (long long)shape[d], ty.data,
				  (long long)t->u.tensor.dims[d]);
			ok = false;
			goto done;
		}
		bytes *= (double)shape[d]; /* a double cannot overflow here */
	}
	if (bytes > (double)limit) {
		char need[32], have[32];
		cmd_format_bytes(need, sizeof need, bytes);
		cmd_format_bytes(have, sizeof have, (double)limit);
		if (memory_limit(ctx->session))
			cmd_error(ctx, "input %%%s: %s asks for %s, more than the %s memory limit",
				  p->name, source, need, have);
		else
			cmd_error(ctx,
				  "input %%%s: %s asks for %s, more than this machine's %s of "
				  "memory",
				  p->name, source, need, have);
		ok = false;
	}
done:
	strbuf_free(&ty);
	return ok;
}

/* A .npy file holds its array's bytes, so one larger than the memory
 * limit is refused before it is read (npy_read checks the header against
 * the data that follows it). Returns false after reporting. */
static bool check_file_size(CmdContext *ctx, const ExecParam *p, const char *path)
{
	struct stat st;
	uint64_t limit =
		memory_limit(ctx->session) ? memory_limit(ctx->session) : exec_physical_memory();
	char need[32], have[32];
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size <= limit)
		return true; /* npy_read says what is wrong with it */
	cmd_format_bytes(need, sizeof need, (double)st.st_size);
	cmd_format_bytes(have, sizeof have, (double)limit);
	if (memory_limit(ctx->session))
		cmd_error(ctx, "input %%%s: %s holds %s, more than the %s memory limit", p->name,
			  path, need, have);
	else
		cmd_error(ctx, "input %%%s: %s holds %s, more than this machine's %s of memory",
			  p->name, path, need, have);
	return false;
}

/* Input p's array as spec says: the file's, or seeded random values of
 * p's tensor type, in the shape given (which must agree with the type's
 * static dimensions, and is required where it has `?`); non-negative for
 * a batch-norm variance. Returns false after reporting, with nothing in
 * *out. */
static bool generate_input(CmdContext *ctx, const ExecParam *p, const InputSpec *spec,
			   NpyArray *out)
{
	const Type *t = p->type;
	const int64_t *shape;
	char *err = NULL;
	if (spec->file) {
		char *path = commands_input_path(ctx, spec->file);
		bool read = check_file_size(ctx, p, path) && npy_read(path, out, &err);
		free(path);
		if (!read) {
			if (err)
				cmd_error(ctx, "%s", err);
			free(err);
			return false;
		}
		/* NumPy has no bfloat16: a uint16 file holds its bit patterns,
		 * as TVM's NDArray.copyfrom takes them */
		if (out->dtype == DT_UINT16 && t && t->kind == TYPE_TENSOR &&
		    t->u.tensor.dtype == DT_BFLOAT16)
			out->dtype = DT_BFLOAT16;
		/* a static input's mismatch is the executor's to report */
		if (has_unknown_dims(t) &&
		    !check_input_shape(ctx, p, out->ndim, out->shape, spec->file)) {
			npy_array_free(out);
			return false;
		}
		return true;
	}
	if (!t || t->kind != TYPE_TENSOR) {
		cmd_error(ctx, "input %%%s is not a tensor: give it as NAME=FILE.npy", p->name);
		return false;
	}
	if (spec->has_shape) {
		if (!check_input_shape(ctx, p, spec->ndim, spec->shape, "the shape given"))
			return false;
		shape = spec->shape;
	} else if (has_unknown_dims(t)) {
		StrBuf ty;
		strbuf_init(&ty);
		type_print(&ty, t);
		cmd_error(ctx,
			  "input %%%s has type %s with unknown dimensions: give its shape, "
			  "%s=random:SEED:(D0,D1,...), or a file, %s=FILE.npy",
			  p->name, ty.data, p->name, p->name);
		strbuf_free(&ty);
		return false;
	} else {
		/* within the memory limit before a byte of it is allocated */
		if (!check_input_shape(ctx, p, t->u.tensor.ndim, t->u.tensor.dims, "its type"))
			return false;
		shape = t->u.tensor.dims;
	}
	if (!npy_random(out, t->u.tensor.dtype, t->u.tensor.ndim, shape, spec->seed, &err)) {
		cmd_error(ctx, "input %%%s: %s", p->name, err);
		free(err);
		return false;
	}
	if (is_variance(p->name))
		make_non_negative(out);
	return true;
}

/* Whether every tensor a run of m makes, its inputs among them, fits in
 * memory (exec_check_sizes), checked before the inputs are made; a module
 * with `?` dimensions is checked once its shapes are known (by exec_run)
 * and its inputs one by one in generate_input. False after reporting. */
static bool sizes_fit(CmdContext *ctx, const IrModule *m)
{
	ExecOptions o;
	DiagList diags;
	bool ok;
	if (plan_has_unknown_dims(m))
		return true;
	memset(&o, 0, sizeof o);
	o.memory_limit = memory_limit(ctx->session);
	diag_init(&diags);
	ok = exec_check_sizes(m, &o, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	return ok;
}

/* Builds one array per input of m: the arguments matched with the inputs,
 * then each input parsed and made in order, and a note naming the inputs
 * not given, which take random values. Returns false after reporting. */
static bool prepare_inputs(CmdContext *ctx, const IrModule *m, int argc, char **argv,
			   NpyArray **out, size_t *nout)
{
	ExecParam *params;
	size_t n, nrandom = 0;
	const char **given;
	NpyArray *inputs;
	StrBuf note;
	bool ok = false;
	size_t done = 0;
	if (!memory_limit_valid(ctx) || !sizes_fit(ctx, m))
		return false;
	n = exec_params(m, &params);
	given = xcalloc(n + 1, sizeof(char *));
	inputs = xcalloc(n + 1, sizeof(NpyArray));
	strbuf_init(&note);
	if (!match_inputs(ctx, argc, argv, params, n, given))
		goto done;
	for (size_t k = 0; k < n; k++) {
		InputSpec spec;
		if (!parse_input_value(ctx, &params[k], given[k], k, &spec) ||
		    !generate_input(ctx, &params[k], &spec, &inputs[k]))
			goto done;
		done = k + 1;
		if (!given[k]) {
			if (nrandom < RUN_LIST_RANDOM)
				strbuf_printf(&note, "%s%%%s=random:%zu", nrandom ? ", " : "",
					      params[k].name, k);
			nrandom++;
		}
	}
	if (nrandom > RUN_LIST_RANDOM)
		strbuf_printf(&note, ", and %zu more", nrandom - RUN_LIST_RANDOM);
	if (ctx->session->settings.inputs == INPUTS_REALISTIC) {
		bool *drawn = xcalloc(n + 1, sizeof(bool));
		for (size_t k = 0; k < n; k++)
			drawn[k] = !given[k] || strncmp(given[k], "random", 6) == 0;
		run_inputs_realistic(m, params, n, inputs, drawn);
		free(drawn);
	}
	if (nrandom)
		cmd_note(ctx, "%zu input%s not given take%s %srandom values: %s", nrandom,
			 nrandom == 1 ? "" : "s", nrandom == 1 ? "s" : "",
			 ctx->session->settings.inputs == INPUTS_REALISTIC ? "realistic "
									   : "uniform ",
			 note.data);
	ok = true;
done:
	if (!ok) {
		for (size_t k = 0; k < done; k++)
			npy_array_free(&inputs[k]);
		free(inputs);
		inputs = NULL;
	}
	*out = inputs;
	*nout = n;
	strbuf_free(&note);
	free(given);
	free(params);
	return ok;
}

static void free_inputs(NpyArray *inputs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		npy_array_free(&inputs[i]);
	free(inputs);
}

/* DEVPLAN_MEMORY_LIMIT parsed strictly (parse_byte_size). *limit is 0
 * when unset; false with *why for anything malformed. */
static bool parse_memory_limit(uint64_t *limit, const char **why)
{
	const char *s = getenv("DEVPLAN_MEMORY_LIMIT");
	*limit = 0;
	return !s || !*s || parse_byte_size(s, limit, why);
}

/* The memory limit of a run, for each tensor and for all of them
 * together: `set memory-limit`, else DEVPLAN_MEMORY_LIMIT; 0 when neither
 * is set (exec.h's default: a fraction of the machine's memory).
 * Malformed values never get here: prepare_inputs refuses them first. */
static uint64_t memory_limit(const Session *s)
{
	uint64_t limit;
	const char *why;
	if (s->settings.memory_limit)
		return s->settings.memory_limit;
	return parse_memory_limit(&limit, &why) ? limit : 0;
}

/* Whether DEVPLAN_MEMORY_LIMIT is unset or well formed; false after
 * reporting. */
static bool memory_limit_valid(CmdContext *ctx)
{
	uint64_t limit;
	const char *why = NULL;
	if (parse_memory_limit(&limit, &why))
		return true;
	cmd_error(ctx, "DEVPLAN_MEMORY_LIMIT='%s': %s", getenv("DEVPLAN_MEMORY_LIMIT"), why);
	return false;
}

/* The fault a test build injects (DEVPLAN_FAULT, see exec.h); none when
 * unset. False after reporting a malformed one or a build without them. */
static bool run_fault(CmdContext *ctx, ExecOptions *o)
{
	const char *text = getenv("DEVPLAN_FAULT");
	char *err = NULL;
	if (!text || !*text)
		return true;
	if (exec_fault_parse(text, &ctx->session->devices, &o->fault, &err))
		return true;
	cmd_error(ctx, "DEVPLAN_FAULT: %s", err);
	free(err);
	return false;
}

static ExecOptions run_options(const Session *s, bool all_on_cpu, bool profile)
{
	ExecOptions o;
	memset(&o, 0, sizeof o);
	o.gpu = s->settings.gpu;
	o.all_on_cpu = all_on_cpu;
	o.profile = profile;
	o.memory_limit = memory_limit(s);
	return o;
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

/* The module a run of m with these inputs executes: m itself (retained)
 * when its shapes are static, the fast path; else plan_specialize's clone,
 * whose inputs with `?` dimensions take the actual shapes of the arrays
 * given and whose dyn.* calls take their shapes from values computed from
 * the inputs' values. NULL after reporting. The caller frees it
 * (ir_module_free). */
static IrModule *module_for_inputs(CmdContext *ctx, const IrModule *m, const NpyArray *inputs,
				   size_t n)
{
	ExecParam *params;
	size_t np;
	const Type **types;
	Arena arena;
	DiagList diags;
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
	diag_init(&diags);
	out = plan_specialize(m, &so, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	if (!out && interrupt_pending())
		interrupt_clear();
	if (!out) {
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
			cmd_error(ctx, "@main cannot run with these inputs' shapes: %s",
				  given.data);
		else
			cmd_error(ctx, "@main cannot run with these inputs' values");
		strbuf_free(&given);
	}
	arena_free(&arena);
	free(types);
	free(params);
	return out;
}

/* Runs m; prints the diagnostics (notes included) either way. The inputs'
 * arrays count against the run's memory budget from the start. */
static bool run_module(CmdContext *ctx, const IrModule *m, const ExecOptions *o,
		       const NpyArray *inputs, size_t n, ExecResult *result)
{
	DiagList diags;
	ExecOptions held = *o;
	bool ok;
	for (size_t i = 0; i < n; i++)
		held.memory_held += inputs[i].nbytes;
	diag_init(&diags);
	ok = exec_run(m, &ctx->session->devices, &held, inputs, n, result, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	if (!ok)
		exec_result_free(result);
	if (!ok && interrupt_pending())
		interrupt_clear();
	return ok;
}

static void print_shape_type(CmdContext *ctx, const NpyArray *a)
{
	fputs("Tensor[(", ctx->out);
	for (uint32_t i = 0; i < a->ndim; i++)
		fprintf(ctx->out, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
	fprintf(ctx->out, "), %s]", dtype_name(a->dtype));
}

/* `result` or `result.I` when @main returns several tensors. */
static void print_result_name(CmdContext *ctx, size_t i, size_t n)
{
	if (n == 1)
		fputs("result", ctx->out);
	else
		fprintf(ctx->out, "result.%zu", i);
}

/* One value after a space: an integer exactly (a uint64 Threefry key
 * included), anything else to 6 digits. */
static void print_element(CmdContext *ctx, const NpyArray *a, int64_t k)
{
	if (a->dtype == DT_UINT64)
		fprintf(ctx->out, " %llu", (unsigned long long)((const uint64_t *)a->data)[k]);
	else if (a->dtype == DT_INT64)
		fprintf(ctx->out, " %lld", (long long)((const int64_t *)a->data)[k]);
	else if (dtype_is_integer(a->dtype))
		fprintf(ctx->out, " %lld", (long long)exec_element(a, k));
	else
		fprintf(ctx->out, " %.6g", exec_element(a, k));
}

/* A line saying how many elements of a result are NaN or infinite, when
 * any are, and where to look for the first. */
static void print_not_finite(CmdContext *ctx, const NpyArray *a)
{
	int64_t n = npy_array_count(a), nans = 0, infs = 0;
	if (!dtype_is_float(a->dtype))
		return;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		nans += isnan(v) != 0;
		infs += isinf(v) != 0;
	}
	if (!nans && !infs)
		return;
	fputs("  not finite: ", ctx->out);
	if (nans)
		fprintf(ctx->out, "%lld NaN%s", (long long)nans, infs ? ", " : "");
	if (infs)
		fprintf(ctx->out, "%lld inf", (long long)infs);
	fprintf(ctx->out, " of %lld values ('compare --each' names the op that made the first)\n",
		(long long)n);
}

static void print_summary(CmdContext *ctx, const ExecResult *r)
{
	for (size_t i = 0; i < r->noutputs; i++) {
		const NpyArray *a = &r->outputs[i];
		int64_t count = npy_array_count(a),
			show = count < RUN_SHOW_VALUES ? count : RUN_SHOW_VALUES;
		double sum;
		uint64_t hash;
		print_result_name(ctx, i, r->noutputs);
		fputs(": ", ctx->out);
		print_shape_type(ctx, a);
		fprintf(ctx->out, " on %s\n",
			devices_name(&ctx->session->devices, r->output_devices[i]));
		if (show == count)
			fprintf(ctx->out, "  values:");
		else
			fprintf(ctx->out, "  first %lld of %lld values:", (long long)show,
				(long long)count);
		for (int64_t k = 0; k < show; k++)
			print_element(ctx, a, k);
		fputc('\n', ctx->out);
		exec_checksum(a, &sum, &hash);
		fprintf(ctx->out, "  checksum: sum %.9g, fnv1a64 %016llx\n", sum,
			(unsigned long long)hash);
		print_not_finite(ctx, a);
	}
}

/* ---- profile ------------------------------------------------------------- */

/* Seconds as a short fixed-width string: us below a millisecond. */
static const char *format_seconds(char *buf, size_t size, double seconds)
{
	if (seconds < 1e-3)
		snprintf(buf, size, "%.1f us", seconds * 1e6);
	else if (seconds < 10)
		snprintf(buf, size, "%.3f ms", seconds * 1e3);
	else
		snprintf(buf, size, "%.2f s", seconds);
	return buf;
}

static int compare_op_stats(const void *pa, const void *pb)
{
	const ExecOpStat *a = pa, *b = pb;
	if (a->seconds != b->seconds)
		return a->seconds < b->seconds ? 1 : -1;
	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return (int)a->op - (int)b->op;
}

static void print_profile(CmdContext *ctx, const IrModule *m, const ExecResult *r)
{
	const ExecProfile *p = &r->profile;
	const DeviceTable *devices = &ctx->session->devices;
	ExecOpStat *ops = xmalloc((p->nops + 1) * sizeof(ExecOpStat));
	double op_total = 0, copy_seconds = 0;
	uint64_t copy_count = 0, copy_bytes = 0;
	int64_t predicted_total = 0;
	Placement placement;
	size_t ncopy_facts = 0;
	char buf[32];
	if (p->nops) { /* a @main that runs no operator has no table (NULL) */
		memcpy(ops, p->ops, p->nops * sizeof(ExecOpStat));
		qsort(ops, p->nops, sizeof(ExecOpStat), compare_op_stats);
	}
	for (size_t i = 0; i < p->nops; i++)
		op_total += ops[i].seconds;
	fprintf(ctx->out, "ops:\n  %-24s %-8s %7s %12s %7s\n", "op", "device", "calls", "time",
		"share");
	for (size_t i = 0; i < p->nops; i++)
		fprintf(ctx->out, "  %-24s %-8s %7llu %12s %6.1f%%\n", op_info(ops[i].op)->name,
			devices_name(devices, ops[i].device), (unsigned long long)ops[i].calls,
			format_seconds(buf, sizeof buf, ops[i].seconds),
			op_total > 0 ? 100 * ops[i].seconds / op_total : 0.0);
	fprintf(ctx->out, "  %-24s %-8s %7s %12s\n", "total", "", "",
		format_seconds(buf, sizeof buf, op_total));
	free(ops);

	plan_placement(m, &placement);
	fprintf(ctx->out, "copies:\n  %-32s %6s %12s %12s %12s %10s\n", "copy", "count", "bytes",
		"predicted", "time", "GB/s");
	for (size_t i = 0; i < placement.count; i++) {
		const PlacementFact *f = &placement.facts[i];
		const ExecCopyStat *c = NULL;
		char label[256];
		if (f->kind != FACT_COPY)
			continue;
		ncopy_facts++;
		for (size_t k = 0; k < p->ncopies; k++)
			if (p->copies[k].expr == f->expr)
				c = &p->copies[k];
		snprintf(label, sizeof label, "%s %s %s -> %s", f->function, f->value,
			 devices_name(devices, f->device), devices_name(devices, f->dest));
		fprintf(ctx->out, "  %-32s %6llu %12llu %12lld %12s %10.2f\n", label,
			(unsigned long long)(c ? c->count : 0),
			(unsigned long long)(c ? c->bytes : 0), (long long)f->bytes,
			format_seconds(buf, sizeof buf, c ? c->seconds : 0.0),
			c && c->seconds > 0 ? (double)c->bytes / c->seconds * 1e-9 : 0.0);
		if (f->bytes > 0)
			predicted_total += f->bytes;
	}
	for (size_t k = 0; k < p->ncopies; k++) {
		copy_count += p->copies[k].count;
		copy_bytes += p->copies[k].bytes;
		copy_seconds += p->copies[k].seconds;
	}
	if (ncopy_facts == 0 && p->ncopies == 0)
		fputs("  (no copies in the plan)\n", ctx->out);
	fprintf(ctx->out, "  %-32s %6llu %12llu %12lld %12s %10.2f\n", "total",
		(unsigned long long)copy_count, (unsigned long long)copy_bytes,
		(long long)predicted_total, format_seconds(buf, sizeof buf, copy_seconds),
		copy_seconds > 0 ? (double)copy_bytes / copy_seconds * 1e-9 : 0.0);
	plan_placement_free(&placement);

	fprintf(ctx->out, "inputs: %llu tensor%s, %llu bytes to their devices in %s\n",
		(unsigned long long)p->input_copies, p->input_copies == 1 ? "" : "s",
		(unsigned long long)p->input_bytes,
		format_seconds(buf, sizeof buf, p->input_seconds));
	fputs("memory peak:", ctx->out);
	for (size_t i = 0; i < p->ndevices; i++) {
		cmd_format_bytes(buf, sizeof buf, (double)p->devices[i].peak_bytes);
		fprintf(ctx->out, "%s %s %s (%s)", i ? "," : "",
			p->devices[i].device < 0 ? "cpu"
						 : devices_name(devices, p->devices[i].device),
			buf, p->devices[i].backend);
	}
	fprintf(ctx->out, "\nwall: %s\n", format_seconds(buf, sizeof buf, p->run_seconds));
	cmd_estimate_print_against(ctx, m, p);
	/* the emulator runs the cpu kernels and copies between host buffers:
	 * its times are the host's */
	for (size_t i = 0; i < p->ndevices; i++) {
		const ExecDeviceStat *d = &p->devices[i];
		if (d->device < 0 || strcmp(d->backend, exec_backend_emulated.name) != 0)
			continue;
		cmd_note(ctx,
			 "%s ran on the host emulator: its times are the cpu kernels' and "
			 "host memory copies', and say nothing about a GPU",
			 devices_name(devices, d->device));
	}
}

/* ---- commands ------------------------------------------------------------- */

int cmd_run(CmdContext *ctx, int argc, char **argv)
{
	const IrModule *current = session_current(ctx->session);
	IrModule *m;
	RunArgs args;
	NpyArray *inputs;
	size_t n;
	ExecResult result;
	ExecOptions o;
	RunValues *keeper;
	uint64_t budget;
	const char *budget_of = "the free memory";
	int status = 0;
	if (!parse_options(ctx, argc, argv, true, &args))
		return 1;
	/* a destination that cannot be written fails before the run */
	if (args.output) {
		char *err;
		if (!file_check(args.output, &err)) {
			cmd_error(ctx, "%s", err);
			free(err);
			return 1;
		}
	}
	if (!prepare_inputs(ctx, current, argc, argv, &inputs, &n))
		return 1;
	if (!(m = module_for_inputs(ctx, current, inputs, n))) {
		free_inputs(inputs, n);
		return 1;
	}
	o = run_options(ctx->session, false, args.profile);
	/* print's values: a quarter of the memory free now (of the limit, when
	 * that is less), so that keeping them never starves the run */
	budget = exec_available_memory() / 4;
	if (memory_limit(ctx->session) && memory_limit(ctx->session) / 4 < budget) {
		budget = memory_limit(ctx->session) / 4;
		budget_of = "the memory limit";
	}
	if (!(keeper = run_values_new(ctx, m, args.dump, budget, budget_of))) {
		ir_module_free(m);
		free_inputs(inputs, n);
		return 1;
	}
	o.observe = run_values_observe;
	o.observe_context = keeper;
	if (!run_module(ctx, m, &o, inputs, n, &result)) {
		run_values_finish(keeper, inputs, n, false);
		ir_module_free(m);
		free_inputs(inputs, n);
		return 1;
	}
	print_summary(ctx, &result);
	if (!run_values_finish(keeper, inputs, n, true))
		status = 1;
	if (args.output) {
		char *err = NULL;
		if (result.noutputs == 0) {
			status = cmd_error(ctx, "@main has no tensor result to save");
		} else if (!npy_write(args.output, &result.outputs[0], &err)) {
			status = cmd_error(ctx, "%s", err);
			free(err);
		} else {
			fprintf(ctx->out, "saved %s to %s\n",
				result.noutputs == 1 ? "result" : "result.0", args.output);
		}
	}
	if (args.profile)
		print_profile(ctx, m, &result);
	/* the results, as printed, for `print result` */
	session_values_set_results(&ctx->session->values, result.outputs, result.output_devices,
				   result.noutputs);
	result.outputs = NULL;
	result.output_devices = NULL;
	result.noutputs = 0;
	exec_result_free(&result);
	ir_module_free(m);
	free_inputs(inputs, n);
	return status;
}

int cmd_profile(CmdContext *ctx, int argc, char **argv)
{
	const IrModule *current = session_current(ctx->session);
	IrModule *m;
	RunArgs args;
	NpyArray *inputs;
	size_t n;
	ExecResult result;
	ExecOptions o;
	if (!parse_options(ctx, argc, argv, false, &args) ||
	    !prepare_inputs(ctx, current, argc, argv, &inputs, &n))
		return 1;
	if (!(m = module_for_inputs(ctx, current, inputs, n))) {
		free_inputs(inputs, n);
		return 1;
	}
	o = run_options(ctx->session, false, true);
	if (!run_module(ctx, m, &o, inputs, n, &result)) {
		ir_module_free(m);
		free_inputs(inputs, n);
		return 1;
	}
	print_profile(ctx, m, &result);
	exec_result_free(&result);
	ir_module_free(m);
	free_inputs(inputs, n);
	return 0;
}

/* What comparing a result with its reference found. */
typedef struct ResultCheck {
	double max_abs, max_rel; /* over the elements both sides give finite */
	bool differs;            /* an element past tolerance, or one that is not
				    the same non-finite value on both sides */
	int64_t nans, infs;      /* non-finite elements of the reference */
} ResultCheck;

/* a (the planned result) against the reference b: an element passes when
 * |a - b| <= tol * max(1, |b|); a NaN or an infinity on either side only
 * when the other side has the same (two NaN, or two infinities of one
 * sign), and then only if the caller allows a reference that is not
 * finite, which it decides from the counts. */
static void compare_arrays(const NpyArray *a, const NpyArray *b, double tol, ResultCheck *c)
{
	int64_t n = npy_array_count(a);
	memset(c, 0, sizeof *c);
	for (int64_t i = 0; i < n; i++) {
		double x = exec_element(a, i), y = exec_element(b, i), d, r;
		if (!isfinite(x) || !isfinite(y)) {
			c->nans += isnan(y) != 0;
			c->infs += isinf(y) != 0;
			if (!((isnan(x) && isnan(y)) || x == y)) {
				c->max_abs = c->max_rel = INFINITY;
				c->differs = true;
			}
			continue;
		}
		if (x == y)
			continue;
		d = fabs(x - y);
		r = y != 0 ? d / fabs(y) : INFINITY;
		if (d > c->max_abs)
			c->max_abs = d;
		if (r > c->max_rel)
			c->max_rel = r;
		if (!(d <= tol * (fabs(y) > 1 ? fabs(y) : 1)))
			c->differs = true;
	}
}

/* " (3 NaN, 2 inf in the cpu result)": the non-finite elements of a
 * reference, or nothing. */
static void print_nonfinite(CmdContext *ctx, int64_t nans, int64_t infs, const char *where)
{
	if (!nans && !infs)
		return;
	fputs(" (", ctx->out);
	if (nans)
		fprintf(ctx->out, "%lld NaN", (long long)nans);
	if (infs)
		fprintf(ctx->out, "%s%lld inf", nans ? ", " : "", (long long)infs);
	fprintf(ctx->out, " in the %s)", where);
}

static bool same_layout(const NpyArray *a, const NpyArray *b)
{
	if (a->dtype != b->dtype || a->ndim != b->ndim)
		return false;
	for (uint32_t i = 0; i < a->ndim; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	return true;
}

/* Whether result i (of n) of m's @main comes from an operator that
 * saturates (softmax, tanh, sigmoid, relu, clip): then all-0, all-+-1 and
 * one-hot results mean the inputs drove it there, not that the program
 * makes a constant. */
static bool saturating_result(const IrModule *m, size_t i, size_t n)
{
	int32_t main_index = ir_find_global(m, "main");
	const Expr *e;
	if (main_index < 0)
		return false;
	e = ir_computed_value(m->globals[main_index].fn->u.fn.body);
	if (e && e->kind == EXPR_TUPLE && e->u.tuple.nfields == n && i < n && n > 1)
		e = ir_computed_value(e->u.tuple.fields[i]);
	return e && (ir_is_op(e, OP_SOFTMAX) || ir_is_op(e, OP_TANH) || ir_is_op(e, OP_SIGMOID) ||
		     ir_is_op(e, OP_RELU) || ir_is_op(e, OP_CLIP) || ir_is_op(e, OP_LOG_SOFTMAX));
}

/* compare's options: --each, --all (with --each), --top N, --expect
 * FILE (repeated: one a result, in order) and --allow-nan. */
typedef struct CompareArgs {
	bool each, all;
	bool allow_nan; /* a NaN or infinity in the reference passes where the
			   planned run has the same */
	size_t top;
	const char *expect[COMPARE_MAX_EXPECT]; /* --expect FILE.npy, result by result */
	size_t nexpect;
} CompareArgs;

static bool parse_compare_options(CmdContext *ctx, int argc, char **argv, CompareArgs *args)
{
	memset(args, 0, sizeof *args);
	args->top = 5;
	for (int i = 1; i < argc; i++) {
		char *end;
		long v;
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		if (strcmp(argv[i], "--each") == 0) {
			args->each = true;
		} else if (strcmp(argv[i], "--all") == 0) {
			args->all = true;
		} else if (strcmp(argv[i], "--allow-nan") == 0) {
			args->allow_nan = true;
		} else if (strcmp(argv[i], "--expect") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--expect needs a .npy file");
				return false;
			}
			if (args->nexpect == COMPARE_MAX_EXPECT) {
				cmd_error(ctx, "at most %d --expect files", COMPARE_MAX_EXPECT);
				return false;
			}
			args->expect[args->nexpect++] = argv[++i];
		} else if (strcmp(argv[i], "--top") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--top needs a number of values");
				return false;
			}
			v = strtol(argv[++i], &end, 10);
			if (end == argv[i] || *end || v < 1 || v > 1000000) {
				cmd_error(ctx, "--top needs a number of values from 1, not '%s'",
					  argv[i]);
				return false;
			}
			args->top = (size_t)v;
		} else {
			cmd_error(ctx, "unknown option '%s'", argv[i]);
			return false;
		}
	}
	if ((args->all || args->top != 5) && !args->each) {
		cmd_error(ctx, "--all and --top go with --each");
		return false;
	}
	if (args->nexpect && args->each) {
		cmd_error(ctx, "--each compares the values of a reference run; --expect files hold "
			       "results only");
		return false;
	}
	return true;
}

/* The --expect files as the reference's results (want), one a result of
 * the planned run (got); false after reporting an unreadable file or a count
 * that does not match. */
static bool read_expected(CmdContext *ctx, const CompareArgs *args, const ExecResult *got,
			  ExecResult *want)
{
	char *err = NULL;
	memset(want, 0, sizeof *want);
	if (args->nexpect != got->noutputs) {
		cmd_error(ctx, "@main returns %zu result%s; --expect gives %zu file%s",
			  got->noutputs, got->noutputs == 1 ? "" : "s", args->nexpect,
			  args->nexpect == 1 ? "" : "s");
		return false;
	}
	want->outputs = xcalloc(args->nexpect, sizeof(NpyArray));
	want->output_devices = xcalloc(args->nexpect, sizeof(int32_t));
	for (size_t i = 0; i < args->nexpect; i++) {
		char *path = commands_input_path(ctx, args->expect[i]);
		bool read = npy_read(path, &want->outputs[i], &err);
		free(path);
		if (!read) {
			cmd_error(ctx, "--expect: %s", err);
			free(err);
			exec_result_free(want);
			return false;
		}
		want->noutputs++;
	}
	return true;
}

/* The last line of a comparison whose reference has NaN or infinity in
 * nonfinite of its n results (nans and infs elements in all), which the
 * user did not allow: nothing was compared that means anything. */
static void print_nonfinite_failure(CmdContext *ctx, const CompareArgs *args, size_t nonfinite,
				    size_t n, int64_t nans, int64_t infs, const char *against)
{
	fprintf(ctx->out, "compare: FAIL: %zu of %zu %s", nonfinite, n,
		args->nexpect ? (n == 1 ? "expected result" : "expected results") : "result");
	if (args->nexpect)
		fprintf(ctx->out, " (%s%s)", args->expect[0], args->nexpect > 1 ? ", ..." : "");
	else
		fprintf(ctx->out, "%s of %s", n == 1 ? "" : "s", against);
	fprintf(ctx->out, " %s NaN or infinity (", nonfinite == 1 ? "holds" : "hold");
	if (nans)
		fprintf(ctx->out, "%lld NaN", (long long)nans);
	if (infs)
		fprintf(ctx->out, "%s%lld inf", nans ? ", " : "", (long long)infs);
	fprintf(ctx->out,
		"): a reference that is not finite proves nothing; %s'compare "
		"--allow-nan' accepts the values both sides share\n",
		args->nexpect || args->each
			? ""
			: "'compare --each' names the op where the first appears, and ");
}

int cmd_compare(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const IrModule *planned = session_current(s);
	int infer = pipeline_find_flags(PHASE_PRODUCES_TYPES);
	const IrModule *reference = NULL;
	IrModule *planned_run = NULL, *reference_run = NULL;
	double tol = s->settings.tolerance;
	CompareArgs args;
	NpyArray *inputs;
	size_t n, failed = 0, nonfinite = 0, saturated = 0;
	int64_t nans = 0, infs = 0;
	CompareEachCounts past = {0, 0};
	ExecResult got, want;
	ExecOptions po, ro;
	CompareEach *each = NULL;
	int32_t cpu = -1;
	StrBuf against;
	bool ok;
	if (infer >= 0 && session_phase_ran(s, infer) && !(reference = cmd_version(ctx, infer)))
		return 1;
	if (!reference)
		reference = planned;
	if (!parse_compare_options(ctx, argc, argv, &args) ||
	    !prepare_inputs(ctx, planned, argc, argv, &inputs, &n))
		return 1;
	po = run_options(s, false, false);
	ro = run_options(s, true, false);
	if (!run_fault(ctx, &po) || !(planned_run = module_for_inputs(ctx, planned, inputs, n)) ||
	    (!args.nexpect && !(reference_run = module_for_inputs(ctx, reference, inputs, n)))) {
		ir_module_free(planned_run);
		free_inputs(inputs, n);
		return 1;
	}
	if (args.each) {
		/* the reference first: its values wait for the planned run's */
		each = compare_each_new(s, reference_run, planned_run, inputs, n, tol,
					args.allow_nan);
		ro.observe = compare_each_observe_reference;
		ro.observe_context = each;
		po.observe = compare_each_observe_planned;
		po.observe_context = each;
		ok = run_module(ctx, reference_run, &ro, inputs, n, &want);
		if (ok && !run_module(ctx, planned_run, &po, inputs, n, &got)) {
			exec_result_free(&want);
			ok = false;
		}
	} else {
		ok = run_module(ctx, planned_run, &po, inputs, n, &got);
		if (ok && args.nexpect)
			ok = read_expected(ctx, &args, &got, &want);
		else if (ok)
			ok = run_module(ctx, reference_run, &ro, inputs, n, &want);
		if (!ok && got.outputs)
			exec_result_free(&got);
	}
	if (reference_run)
		ir_module_free(reference_run);
	if (!ok) {
		compare_each_free(each);
		ir_module_free(planned_run);
		free_inputs(inputs, n);
		return 1;
	}
	strbuf_init(&against);
	if (each)
		past = compare_each_report(each, ctx, args.all, args.top);
	compare_each_free(each);
	ir_module_free(planned_run);
	for (uint32_t i = 0; i < s->devices.count && cpu < 0; i++)
		if (s->devices.items[i].device_type == DEVICE_TYPE_CPU)
			cpu = (int32_t)i;
	if (args.nexpect)
		strbuf_printf(&against, "the expected result%s (%s%s)",
			      args.nexpect == 1 ? "" : "s", args.expect[0],
			      args.nexpect > 1 ? ", ..." : "");
	else
		strbuf_printf(&against, "the run on %s alone",
			      cpu >= 0 ? devices_name(&s->devices, cpu) : "the cpu");
	if (got.noutputs != want.noutputs) {
		fprintf(ctx->out, "the planned program returns %zu tensors, the reference %zu\n",
			got.noutputs, want.noutputs);
		failed = got.noutputs > want.noutputs ? got.noutputs : want.noutputs;
	}
	for (size_t i = 0; i < got.noutputs && i < want.noutputs; i++) {
		ResultCheck c;
		print_result_name(ctx, i, got.noutputs);
		fputs(": ", ctx->out);
		print_shape_type(ctx, &got.outputs[i]);
		if (!same_layout(&got.outputs[i], &want.outputs[i])) {
			fputs(": differs in shape or dtype from the expected ", ctx->out);
			print_shape_type(ctx, &want.outputs[i]);
			fputc('\n', ctx->out);
			failed++;
			continue;
		}
		compare_arrays(&got.outputs[i], &want.outputs[i], tol, &c);
		failed += c.differs;
		nonfinite += c.nans || c.infs;
		nans += c.nans;
		infs += c.infs;
		fprintf(ctx->out, ": max abs error %.3g, max rel error %.3g", c.max_abs, c.max_rel);
		print_nonfinite(ctx, c.nans, c.infs,
				args.nexpect ? "expected result" : "cpu result");
		fputc('\n', ctx->out);
		{
			const char *what;
			bool sat = saturating_result(reference, i, got.noutputs) &&
				   run_output_saturated(&want.outputs[i], &what);
			saturated += sat;
			if (sat && saturated == 1)
				cmd_warning(ctx,
					    "the reference result is saturated (%s): a match "
					    "proves little; 'compare --each' compares every "
					    "value%s",
					    what,
					    s->settings.inputs == INPUTS_RANDOM
						    ? ", and 'set inputs realistic' draws inputs "
						      "that keep a model's numbers in range"
						    : "");
		}
	}
	if (failed)
		fprintf(ctx->out,
			"compare: FAIL: %zu of %zu result%s differ%s from %s beyond tolerance %g\n",
			failed, got.noutputs, got.noutputs == 1 ? "" : "s", failed == 1 ? "s" : "",
			against.data, tol);
	else if (nonfinite && !args.allow_nan)
		print_nonfinite_failure(ctx, &args, nonfinite, got.noutputs, nans, infs,
					against.data);
	else if (past.differ)
		fprintf(ctx->out,
			"compare: FAIL: %zu intermediate value%s differ%s from %s beyond "
			"tolerance, "
			"though the %zu result%s match%s\n",
			past.differ, past.differ == 1 ? "" : "s", past.differ == 1 ? "s" : "",
			against.data, got.noutputs, got.noutputs == 1 ? "" : "s",
			got.noutputs == 1 ? "es" : "");
	else if (past.nonfinite && !args.allow_nan)
		fprintf(ctx->out,
			"compare: FAIL: %zu intermediate value%s of %s %s NaN or infinity, though "
			"the %zu result%s match%s; 'compare --allow-nan' accepts the values both "
			"runs share\n",
			past.nonfinite, past.nonfinite == 1 ? "" : "s", against.data,
			past.nonfinite == 1 ? "holds" : "hold", got.noutputs,
			got.noutputs == 1 ? "" : "s", got.noutputs == 1 ? "es" : "");
	else {
		fprintf(ctx->out, "compare: PASS: %zu result%s match%s %s within tolerance %g",
			got.noutputs, got.noutputs == 1 ? "" : "s", got.noutputs == 1 ? "es" : "",
			against.data, tol);
		if (nans || infs || past.nonfinite) {
			fputs(" (--allow-nan: ", ctx->out);
			if (nans || infs) {
				if (nans)
					fprintf(ctx->out, "%lld NaN", (long long)nans);
				if (infs)
					fprintf(ctx->out, "%s%lld inf", nans ? ", " : "",
						(long long)infs);
				fputs(" on both sides", ctx->out);
			} else {
				fprintf(ctx->out,
					"%zu intermediate value%s with NaN or infinity on both "
					"sides",
					past.nonfinite, past.nonfinite == 1 ? "" : "s");
			}
			fputc(')', ctx->out);
		}
		fputc('\n', ctx->out);
	}
	strbuf_free(&against);
	exec_result_free(&got);
	strbuf_free(&against);
	exec_result_free(&got);
	exec_result_free(&want);
	free_inputs(inputs, n);
	return failed || past.differ || ((nonfinite || past.nonfinite) && !args.allow_nan) ? 1 : 0;
}

/* Options, then NAME= and NAME=random for each input of @main; a file
 * name after --output. */
void cmd_complete_run(const Session *s, int argc, char **argv, const char *word, CmdCandidates *out)
{
	const IrModule *m = session_current(s);
	ExecParam *params;
	size_t n;
	if (argc > 1 &&
	    (strcmp(argv[argc - 1], "--output") == 0 || strcmp(argv[argc - 1], "--dump") == 0)) {
		out->files = true;
		return;
	}
	if (strcmp(argv[0], "run") == 0) {
		cmd_candidates_add(out, word, "--dump");
		cmd_candidates_add(out, word, "--output");
		cmd_candidates_add(out, word, "--profile");
	}
	if (!m)
		return;
	n = exec_params(m, &params);
	for (size_t i = 0; i < n; i++) {
		char *c = xasprintf("%s=", params[i].name);
		char *r = xasprintf("%s=random", params[i].name);
		cmd_candidates_add(out, word, c);
		cmd_candidates_add(out, word, r);
		free(c);
		free(r);
	}
	free(params);
}
