/*
 * run_args.c - what `run`, `compare` and `profile` share (run_args.h):
 * their NAME=VALUE arguments matched with @main's inputs and parsed into
 * the session's RunInputSpec, the inputs built, the module made static
 * for them and run, each step's diagnostics printed, and the completion
 * of the three.
 *
 * A VALUE is FILE.npy (found where a script finds its files,
 * commands_input_path), random, random:SEED or random:SEED:(D0,D1,...);
 * an input not named is random with its index as the seed, which a note
 * lists. Each input is parsed and made in turn, so the first bad one
 * stops the command with its own message. The rules (the checks against
 * the type and the memory, uniform and realistic values) are the
 * session's (core/session/run_inputs.c).
 */
#include "run_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { RUN_LIST_RANDOM = 6 };

/* An option, the file name after --output or the count after --top. */
static bool is_option_word(char **argv, int i)
{
	return strncmp(argv[i], "--", 2) == 0 ||
	       (i > 1 &&
		(strcmp(argv[i - 1], "--output") == 0 || strcmp(argv[i - 1], "--expect") == 0 ||
		 strcmp(argv[i - 1], "--top") == 0 || strcmp(argv[i - 1], "--dump") == 0));
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

/* "(3,4)", "(5)", "(5,)" or "()" after random:SEED: into spec. Returns
 * false after reporting. */
static bool parse_input_shape(CmdContext *ctx, const ExecParam *p, const char *value,
			      const char *text, RunInputSpec *spec)
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
		if (spec->ndim == RUN_INPUT_MAX_NDIM) {
			cmd_error(ctx, "'%s' for %%%s: a shape has at most %d dimensions", value,
				  p->name, RUN_INPUT_MAX_NDIM);
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
 * random:SEED:(SHAPE); NULL (not named) is random with k as the seed. A
 * file's path is where a script finds it (commands_input_path; the
 * caller frees spec->path). Returns false after reporting. */
static bool parse_input_value(CmdContext *ctx, const ExecParam *p, const char *value, size_t k,
			      RunInputSpec *spec)
{
	bool random = !value || strncmp(value, "random", 6) == 0;
	run_input_spec_random(spec, k);
	if (!random) {
		spec->file = value;
		spec->path = commands_input_path(ctx, value);
		return true;
	}
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

/* The session's diagnostics of a run step, printed and dropped. */
static void print_diags(CmdContext *ctx, DiagList *diags)
{
	cmd_print_diags(ctx, diags);
	diag_clear(diags);
}

/* Parses input k's VALUE and makes it; false after reporting. */
static bool make_input(CmdContext *ctx, RunInputs *in, size_t k, const char *given, DiagList *diags)
{
	RunInputSpec spec;
	bool ok = parse_input_value(ctx, &in->params[k], given, k, &spec) &&
		  run_inputs_make(ctx->session, in, k, &spec, diags);
	free((char *)spec.path);
	print_diags(ctx, diags);
	return ok;
}

/* Builds one array per input of m: the arguments matched with the inputs,
 * then each input parsed and made in order, and a note naming the inputs
 * not given, which take random values. Returns false after reporting,
 * with nothing in *in to free. */
bool cmd_run_prepare_inputs(CmdContext *ctx, const IrModule *m, int argc, char **argv,
			    RunInputs *in)
{
	size_t nrandom = 0;
	const char **given;
	StrBuf note;
	DiagList diags;
	bool ok = false;
	diag_init(&diags);
	if (!run_inputs_start(ctx->session, m, in, &diags)) {
		cmd_print_diags(ctx, &diags);
		diag_free(&diags);
		return false;
	}
	given = xcalloc(in->count + 1, sizeof(char *));
	strbuf_init(&note);
	if (!match_inputs(ctx, argc, argv, in->params, in->count, given))
		goto done;
	for (size_t k = 0; k < in->count; k++) {
		if (!make_input(ctx, in, k, given[k], &diags))
			goto done;
		if (!given[k]) {
			if (nrandom < RUN_LIST_RANDOM)
				strbuf_printf(&note, "%s%%%s=random:%zu", nrandom ? ", " : "",
					      in->params[k].name, k);
			nrandom++;
		}
	}
	if (nrandom > RUN_LIST_RANDOM)
		strbuf_printf(&note, ", and %zu more", nrandom - RUN_LIST_RANDOM);
	run_inputs_finish(ctx->session, in);
	if (nrandom)
		cmd_note(ctx, "%zu input%s not given take%s %srandom values: %s", nrandom,
			 nrandom == 1 ? "" : "s", nrandom == 1 ? "s" : "",
			 ctx->session->settings.inputs == INPUTS_REALISTIC ? "realistic "
									   : "uniform ",
			 note.data);
	ok = true;
done:
	if (!ok)
		run_inputs_free(in);
	strbuf_free(&note);
	free(given);
	diag_free(&diags);
	return ok;
}

/* run_specialize, its diagnostics printed; NULL after reporting. */
IrModule *cmd_run_specialize(CmdContext *ctx, const IrModule *m, const RunInputs *in)
{
	DiagList diags;
	IrModule *out;
	diag_init(&diags);
	out = run_specialize(m, in->arrays, in->count, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	return out;
}

/* run_module, its diagnostics (notes included) printed either way. */
bool cmd_run_module(CmdContext *ctx, const IrModule *m, const ExecOptions *o, const RunInputs *in,
		    ExecResult *result)
{
	DiagList diags;
	bool ok;
	diag_init(&diags);
	ok = run_module(ctx->session, m, o, in->arrays, in->count, result, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	return ok;
}

void cmd_print_shape_type(CmdContext *ctx, const NpyArray *a)
{
	fputs("Tensor[(", ctx->out);
	for (uint32_t i = 0; i < a->ndim; i++)
		fprintf(ctx->out, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
	fprintf(ctx->out, "), %s]", dtype_name(a->dtype));
}

/* `result` or `result.I` when @main returns several tensors. */
void cmd_print_result_name(CmdContext *ctx, size_t i, size_t n)
{
	if (n == 1)
		fputs("result", ctx->out);
	else
		fprintf(ctx->out, "result.%zu", i);
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
