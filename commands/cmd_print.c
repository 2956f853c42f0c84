/*
 * cmd_print.c - `print %x[SLICE]`: a value the last `run` kept, gdb-style.
 *
 * The values come from the session (values.h): @main's inputs and results
 * after every run, and every operator's result while they fit in the
 * run's budget (unless `set keep-values off`). `print` names a value as
 * `ir` shows it (a binding, a let variable, an input), optionally a field
 * of a tuple result (`%x.1`), or as `run` named a final value (`result`,
 * `result.1`, without `%`), and a NumPy-like
 * slice: each index an integer (negative from the end) or start:stop
 * (either may be left out), fewer indices than dimensions keeping the rest
 * whole. It prints the type, the device it was computed on and the run,
 * the range (min, max, mean of the finite elements, NaN and infinity
 * counts), then the elements as nested lists: all of a value of at most
 * PRINT_WHOLE elements or a slice of at most PRINT_SLICE, else the first
 * few with a note to slice.
 */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

enum {
	PRINT_WHOLE = 64,   /* a value this small prints whole */
	PRINT_SLICE = 4096, /* the most elements a slice prints */
	PRINT_FIRST = 8,    /* of a larger value: its first elements */
	PRINT_MAX_NDIM = 32,
};

/* What one dimension of the slice keeps: start, count (and whether it was
 * an integer index, which drops the dimension). */
typedef struct PrintDim {
	int64_t start, count;
	bool index;
} PrintDim;

/* An integer of the slice at *p; false when there is none. */
static bool print_integer(const char **p, int64_t *out)
{
	char *end;
	long long v;
	while (**p == ' ')
		(*p)++;
	if (!(**p == '-' || (**p >= '0' && **p <= '9')))
		return false;
	errno = 0;
	v = strtoll(*p, &end, 10);
	if (errno || end == *p)
		return false;
	*p = end;
	*out = v;
	return true;
}

/* Parses "[i, a:b, :]" (text after the name) against a's shape into dims;
 * false after reporting. */
static bool print_parse_slice(CmdContext *ctx, const char *text, const NpyArray *a, PrintDim *dims)
{
	const char *p = text;
	uint32_t d = 0;
	for (uint32_t i = 0; i < a->ndim; i++)
		dims[i] = (PrintDim){0, a->shape[i], false};
	if (!*p)
		return true;
	if (*p != '[')
		return cmd_error(ctx, "print: expected '[' after the name, not '%s'", p), false;
	p++;
	for (;;) {
		int64_t lo = 0, hi, size, given;
		bool has_lo, colon = false;
		while (*p == ' ')
			p++;
		if (*p == ']' && d == 0)
			break;
		if (d >= a->ndim) {
			cmd_error(ctx, "print: more indices than the %u dimension%s of the value",
				  a->ndim, a->ndim == 1 ? "" : "s");
			return false;
		}
		size = a->shape[d];
		hi = size;
		has_lo = print_integer(&p, &lo);
		while (*p == ' ')
			p++;
		if (*p == ':') {
			colon = true;
			p++;
			if (!print_integer(&p, &hi))
				hi = size;
		}
		if (!has_lo && !colon) {
			cmd_error(ctx, "print: expected an index or start:stop at '%s'", p);
			return false;
		}
		given = lo;
		if (lo < 0)
			lo += size;
		if (colon && hi < 0)
			hi += size;
		if (!colon) {
			if (lo < 0 || lo >= size) {
				cmd_error(ctx,
					  "print: index %lld is out of range for dimension %u of "
					  "size %lld",
					  (long long)given, d, (long long)size);
				return false;
			}
			dims[d] = (PrintDim){lo, 1, true};
		} else {
			/* like NumPy, a range clamps to the dimension */
			lo = lo < 0 ? 0 : lo > size ? size : lo;
			hi = hi < lo ? lo : hi > size ? size : hi;
			dims[d] = (PrintDim){lo, hi - lo, false};
		}
		d++;
		while (*p == ' ')
			p++;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ']')
			break;
		cmd_error(ctx, "print: expected ',' or ']' at '%s'", *p ? p : "the end");
		return false;
	}
	p++;
	while (*p == ' ')
		p++;
	if (*p) {
		cmd_error(ctx, "print: unexpected '%s' after the slice", p);
		return false;
	}
	return true;
}

static void print_number(CmdContext *ctx, const NpyArray *a, int64_t k)
{
	if (a->dtype == DT_UINT64)
		fprintf(ctx->out, "%llu", (unsigned long long)((const uint64_t *)a->data)[k]);
	else if (a->dtype == DT_INT64)
		fprintf(ctx->out, "%lld", (long long)((const int64_t *)a->data)[k]);
	else if (a->dtype == DT_BOOL)
		fputs(((const uint8_t *)a->data)[k] ? "True" : "False", ctx->out);
	else if (dtype_is_integer(a->dtype))
		fprintf(ctx->out, "%lld", (long long)exec_element(a, k));
	else
		fprintf(ctx->out, "%.6g", exec_element(a, k));
}

/* The elements dims select, as nested lists: dimension d on, from offset
 * base; dropped (integer-indexed) dimensions print no brackets. */
static void print_elements(CmdContext *ctx, const NpyArray *a, const PrintDim *dims, uint32_t d,
			   int64_t base, int indent)
{
	int64_t stride = 1;
	if (d == a->ndim) {
		print_number(ctx, a, base);
		return;
	}
	for (uint32_t i = d + 1; i < a->ndim; i++)
		stride *= a->shape[i];
	if (dims[d].index) {
		print_elements(ctx, a, dims, d + 1, base + dims[d].start * stride, indent);
		return;
	}
	fputc('[', ctx->out);
	for (int64_t i = 0; i < dims[d].count; i++) {
		bool inner_list = false;
		for (uint32_t j = d + 1; j < a->ndim; j++)
			inner_list |= !dims[j].index;
		if (i) {
			if (inner_list)
				fprintf(ctx->out, ",\n%*s", indent + 1, "");
			else
				fputs(", ", ctx->out);
		}
		print_elements(ctx, a, dims, d + 1, base + (dims[d].start + i) * stride,
			       indent + 1);
	}
	fputc(']', ctx->out);
}

static void print_range(CmdContext *ctx, const NpyArray *a)
{
	int64_t n = npy_array_count(a), nans = 0, infs = 0, finite = 0;
	double lo = INFINITY, hi = -INFINITY, sum = 0;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		if (isnan(v)) {
			nans++;
		} else if (isinf(v)) {
			infs++;
		} else {
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			sum += v;
			finite++;
		}
	}
	if (finite)
		fprintf(ctx->out, "  min %.6g, max %.6g, mean %.6g", lo, hi, sum / (double)finite);
	else
		fputs("  no finite element", ctx->out);
	fprintf(ctx->out, ", %lld NaN, %lld inf\n", (long long)nans, (long long)infs);
}

/* Whether name is `result` or `result.K`, the final values as `run`
 * prints them; *field gets K (0 for `result`), *field_named whether it
 * was written. */
static bool is_result_name(const char *name, uint32_t *field, bool *field_named)
{
	char *end;
	long k;
	*field = 0;
	*field_named = false;
	if (strncmp(name, "result", 6) != 0)
		return false;
	if (name[6] == '\0')
		return true;
	if (name[6] != '.' || name[7] < '0' || name[7] > '9')
		return false;
	errno = 0;
	k = strtol(name + 7, &end, 10);
	if (*end || errno || k > UINT32_MAX)
		return false;
	*field = (uint32_t)k;
	*field_named = true;
	return true;
}

/* The final value `result` or `result.K` names, as a SessionValue that
 * borrows the kept array (into *out); NULL after reporting. */
static const SessionValue *find_result(CmdContext *ctx, const char *name, uint32_t field,
				       bool field_named, SessionValue *out)
{
	const SessionValues *values = &ctx->session->values;
	if (values->nresults == 0) {
		cmd_error(ctx, "the last run gave no tensor result");
		return NULL;
	}
	if (values->nresults > 1 && !field_named) {
		cmd_error(ctx, "'result' is a tuple of %zu; name a field, as result.0",
			  values->nresults);
		return NULL;
	}
	if (field >= values->nresults) {
		if (values->nresults == 1)
			cmd_error(ctx, "'%s': the last run gave one result, 'result'", name);
		else
			cmd_error(ctx,
				  "'%s': the last run gave %zu results, result.0 to result.%zu",
				  name, values->nresults, values->nresults - 1);
		return NULL;
	}
	memset(out, 0, sizeof *out);
	out->field = field;
	out->device = values->result_devices[field];
	out->kind = VALUE_KEPT_RESULT;
	out->value = values->results[field];
	return out;
}

/* Why the value of e was not kept, as an error. */
static int not_kept(CmdContext *ctx, const char *name)
{
	const SessionValues *values = &ctx->session->values;
	char budget[32];
	if (!values->every)
		return cmd_error(ctx,
				 "'%s' was not kept: under 'set keep-values off' 'run' keeps the "
				 "inputs and results only; 'set keep-values on' and run again to "
				 "keep every value",
				 name);
	if (values->dropped) {
		cmd_format_bytes(budget, sizeof budget, (double)values->budget);
		return cmd_error(ctx,
				 "'%s' was not kept: %zu values past the %s 'print' may hold "
				 "were let go; 'run --dump DIR' writes every value",
				 name, values->dropped, budget);
	}
	return cmd_error(ctx,
			 "'%s' has no value from the last run: it is no operator's result, or "
			 "the run did not compute it",
			 name);
}

int cmd_print(CmdContext *ctx, int argc, char **argv)
{
	const SessionValues *values = &ctx->session->values;
	StrBuf arg, name;
	const char *slice;
	const Expr *e;
	const SessionValue *v = NULL;
	SessionValue result;
	PrintDim dims[PRINT_MAX_NDIM];
	uint32_t field = 0;
	bool field_named = false;
	int64_t count = 1, total;
	int status = 0;
	if (!values->module)
		return cmd_error(ctx, "nothing has run yet; 'run' keeps the values 'print' shows");
	strbuf_init(&arg);
	for (int i = 1; i < argc; i++)
		strbuf_printf(&arg, "%s%s", i > 1 ? " " : "", argv[i]);
	slice = strchr(arg.data, '[');
	strbuf_init(&name);
	strbuf_printf(&name, "%.*s", (int)(slice ? (size_t)(slice - arg.data) : arg.len), arg.data);
	while (name.len && name.data[name.len - 1] == ' ')
		name.data[--name.len] = '\0';
	if (is_result_name(name.data, &field, &field_named)) {
		if (!(v = find_result(ctx, name.data, field, field_named, &result))) {
			status = 1;
			goto done;
		}
		goto found;
	}
	e = ir_find_named(values->module, name.data);
	if (!e) {
		/* %x.K: field K of a tuple result */
		char *dot = strrchr(name.data, '.');
		char *end;
		long k = dot ? strtol(dot + 1, &end, 10) : -1;
		if (dot && dot[1] && !*end && k >= 0) {
			*dot = '\0';
			e = ir_find_named(values->module, name.data);
			*dot = '.';
			field = (uint32_t)k;
			field_named = e != NULL;
		}
	}
	if (!e) {
		StrBuf hint;
		strbuf_init(&hint);
		ir_suggest_names(values->module, name.data, &hint);
		status = cmd_error(ctx, "no value named '%s' in the module that ran%s", name.data,
				   hint.data ? hint.data : "");
		strbuf_free(&hint);
		goto done;
	}
	e = ir_computed_value(e);
	if (e->type && e->type->kind == TYPE_TUPLE &&
	    (!field_named || field >= e->type->u.tuple.nfields)) {
		int base = field_named ? (int)(strrchr(name.data, '.') - name.data) : (int)name.len;
		if (field_named)
			status = cmd_error(ctx, "'%.*s' is a tuple of %u: it has no field %u", base,
					   name.data, e->type->u.tuple.nfields, field);
		else
			status = cmd_error(ctx, "'%s' is a tuple of %u; name a field, as %s.0",
					   name.data, e->type->u.tuple.nfields, name.data);
		goto done;
	}
	v = session_values_find(values, e->id, field);
	if (!v) {
		status = not_kept(ctx, name.data);
		goto done;
	}
found:
	if (v->value.ndim > PRINT_MAX_NDIM) {
		status = cmd_error(ctx, "'%s' has %u dimensions, more than print shows", name.data,
				   v->value.ndim);
		goto done;
	}
	if (!print_parse_slice(ctx, slice ? slice : "", &v->value, dims)) {
		status = 1;
		goto done;
	}
	total = npy_array_count(&v->value);
	for (uint32_t d = 0; d < v->value.ndim; d++)
		count *= dims[d].count;
	fprintf(ctx->out, "%s = Tensor[(", arg.data);
	for (uint32_t d = 0; d < v->value.ndim; d++)
		fprintf(ctx->out, "%s%lld", d ? ", " : "", (long long)v->value.shape[d]);
	fprintf(ctx->out, "), %s]", dtype_name(v->value.dtype));
	if (v->device >= 0)
		fprintf(ctx->out, " on %s", devices_name(&ctx->session->devices, v->device));
	fprintf(ctx->out, ", %s of run %u\n",
		v->kind == VALUE_KEPT_INPUT    ? "input"
		: v->kind == VALUE_KEPT_RESULT ? "result"
					       : "value",
		values->run);
	print_range(ctx, &v->value);
	if (slice && count > PRINT_SLICE) {
		status = cmd_error(ctx, "the slice has %lld elements; print shows at most %d",
				   (long long)count, PRINT_SLICE);
		goto done;
	}
	if (!slice && total > PRINT_WHOLE) {
		fputs("  first:", ctx->out);
		for (int64_t k = 0; k < PRINT_FIRST && k < total; k++) {
			fputc(' ', ctx->out);
			print_number(ctx, &v->value, k);
		}
		fprintf(ctx->out, " ... (%lld elements; print %s[...] for a slice)\n",
			(long long)total, name.data);
		goto done;
	}
	fputs("  ", ctx->out);
	print_elements(ctx, &v->value, dims, 0, 0, 2);
	fputc('\n', ctx->out);
done:
	strbuf_free(&arg);
	strbuf_free(&name);
	return status;
}
