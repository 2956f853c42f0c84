/*
 * compare_each.c - `compare --each`: every intermediate value of the
 * planned run against the same value of the all-cpu reference run.
 *
 * The final results alone prove little: a model that ends in a softmax
 * or a tanh saturates, and its output matches whatever went wrong inside.
 * So both runs are observed (ExecOptions.observe): the reference run first,
 * whose every op result is kept by (expression id, tuple field,
 * occurrence), then the planned run, whose every op result is compared on
 * arrival with the reference's value of the same expression and freed
 * with it at once, so the memory held is one run's intermediates.
 * Expression ids are stable across the versions of a module, so the
 * planned module's calls find their reference (the version `infer`
 * produced); a call that only the planned module has (none: core inserts
 * only device_copy and on_device, which are not observed) is skipped.
 *
 * Each value has its own tolerance: the dtype's (float32 and float64 the
 * `tolerance` setting, float16 at least 1e-3, bfloat16 at least 1e-2,
 * integers and bool exact), widened by the rounding that accumulates along
 * the way, one unit per op on the longest path from the inputs to it
 * (depth), since each op's rounding in the planned run feeds the next. An
 * element passes when |planned - reference| <= tol * max(1, |reference|),
 * the rule of the final comparison; a NaN or an infinity passes only where
 * both runs have the same and the user allowed it (--allow-nan). The first
 * value whose reference holds one is named with its operands' values in
 * the reference run: with the values before it all finite, it is the op
 * that made the NaN (a sqrt of a negative variance, a log of 0).
 *
 * Ownership: the tracker owns the reference values it keeps and its
 * records; it borrows the modules, the inputs and the session, which
 * outlive it.
 */
#include "compare_each.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

enum { EACH_NONE = UINT32_MAX, EACH_DEPTH_STEPS = 64 };

/* A reference value waiting for its planned twin. */
typedef struct EachSlot {
	uint32_t id, field;
	uint32_t next; /* the next slot of the same id, EACH_NONE at the end */
	bool used;
	NpyArray value;
} EachSlot;

/* What the comparison of one planned value found. */
typedef struct EachRecord {
	const Expr *e; /* in the planned module */
	uint32_t field;
	int32_t device;
	DType dtype;
	int64_t count, bad; /* bad: elements past tolerance, a NaN or an
			       infinity on one side only among them */
	double max_abs, max_rel, tol;
	uint32_t depth;
	double min, max;         /* the planned value's range (finite elements) */
	double ref_min, ref_max; /* the reference value's */
	int64_t ref_nans, ref_infs;
	bool layout_differs; /* shape or dtype differ from the reference */
} EachRecord;

/* The range of one input of @main, for the operands of a failing value. */
typedef struct EachInput {
	uint32_t id;
	double min, max; /* of the finite elements */
	int64_t nans, infs;
} EachInput;

struct CompareEach {
	const Session *session;
	double tolerance;
	bool allow_nonfinite; /* compare --allow-nan */
	EachSlot *slots;
	size_t nslots, cap_slots;
	uint32_t *head, *tail; /* by reference expression id */
	uint32_t nref;
	EachRecord *records;
	size_t nrecords, cap_records;
	const Expr **let_var; /* by planned expression id: the let variable
				 bound to it, which names it, or NULL */
	uint32_t *depth;      /* by planned expression id */
	uint32_t *record_of;  /* by planned expression id: its last record */
	uint32_t nplanned;
	EachInput *inputs;
	size_t ninputs;
	size_t unmatched; /* planned values without a reference */
};

CompareEach *compare_each_new(const Session *s, const IrModule *reference, const IrModule *planned,
			      const NpyArray *inputs, size_t ninputs, double tolerance,
			      bool allow_nonfinite)
{
	CompareEach *x = xcalloc(1, sizeof *x);
	ExecParam *params;
	size_t np = exec_params(planned, &params);
	x->session = s;
	x->tolerance = tolerance;
	x->allow_nonfinite = allow_nonfinite;
	x->nref = reference->nexprs;
	x->head = xmalloc((x->nref + 1) * sizeof(uint32_t));
	x->tail = xmalloc((x->nref + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i <= x->nref; i++)
		x->head[i] = x->tail[i] = EACH_NONE;
	x->nplanned = planned->nexprs;
	x->depth = xcalloc(x->nplanned + 1, sizeof(uint32_t));
	x->let_var = ir_let_names(planned);
	x->record_of = xmalloc((x->nplanned + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i <= x->nplanned; i++)
		x->record_of[i] = EACH_NONE;
	x->inputs = xcalloc(np + 1, sizeof(EachInput));
	for (size_t k = 0; k < np && k < ninputs; k++) {
		int64_t n = npy_array_count(&inputs[k]);
		EachInput *in = &x->inputs[x->ninputs++];
		in->id = params[k].var->id;
		in->min = INFINITY;
		in->max = -INFINITY;
		for (int64_t i = 0; i < n; i++) {
			double v = exec_element(&inputs[k], i);
			in->nans += isnan(v) != 0;
			in->infs += isinf(v) != 0;
			if (isinf(v))
				continue;
			if (v < in->min)
				in->min = v;
			if (v > in->max)
				in->max = v;
		}
	}
	free(params);
	return x;
}

void compare_each_free(CompareEach *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nslots; i++)
		npy_array_free(&x->slots[i].value);
	free(x->slots);
	free(x->head);
	free(x->tail);
	free(x->records);
	free(x->depth);
	free(x->let_var);
	free(x->record_of);
	free(x->inputs);
	free(x);
}

void compare_each_observe_reference(void *context, const Expr *call, uint32_t field, int32_t device,
				    NpyArray *value)
{
	CompareEach *x = context;
	EachSlot *slot;
	uint32_t index;
	(void)device;
	if (call->id >= x->nref) {
		npy_array_free(value);
		return;
	}
	grow_array((void **)&x->slots, &x->cap_slots, x->nslots + 1, sizeof(EachSlot));
	index = (uint32_t)x->nslots++;
	slot = &x->slots[index];
	slot->id = call->id;
	slot->field = field;
	slot->next = EACH_NONE;
	slot->used = false;
	slot->value = *value;
	if (x->tail[call->id] == EACH_NONE)
		x->head[call->id] = index;
	else
		x->slots[x->tail[call->id]].next = index;
	x->tail[call->id] = index;
}

/* The reference value for the next occurrence of (id, field), or NULL. */
static EachSlot *take_reference(CompareEach *x, uint32_t id, uint32_t field)
{
	if (id >= x->nref)
		return NULL;
	for (uint32_t k = x->head[id]; k != EACH_NONE; k = x->slots[k].next) {
		EachSlot *slot = &x->slots[k];
		if (!slot->used && slot->field == field) {
			slot->used = true;
			return slot;
		}
	}
	return NULL;
}

/* The ops on the longest path from the inputs to what e reads. */
static uint32_t operand_depth(const CompareEach *x, const Expr *e, int budget)
{
	uint32_t d = 0;
	e = ir_computed_value(e);
	if (!e || budget <= 0)
		return 0;
	switch (e->kind) {
	case EXPR_CALL:
		return e->id < x->nplanned ? x->depth[e->id] : 0;
	case EXPR_TUPLE:
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++) {
			uint32_t f = operand_depth(x, e->u.tuple.fields[i], budget - 1);
			if (f > d)
				d = f;
		}
		return d;
	case EXPR_PROJ:
		return operand_depth(x, e->u.proj.tuple, budget - 1);
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_CONSTANT:
	case EXPR_FN:
	case EXPR_LET:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		break;
	}
	return 0;
}

/* The dtype's own tolerance: integers and bool exact, the half-precision
 * floats at least their rounding. */
static double dtype_tolerance(DType dt, double tolerance)
{
	switch (dt) {
	case DT_FLOAT32:
	case DT_FLOAT64:
		return tolerance;
	case DT_FLOAT16:
		return tolerance > 1e-3 ? tolerance : 1e-3;
	case DT_BFLOAT16:
		return tolerance > 1e-2 ? tolerance : 1e-2;
	case DT_INT8:
	case DT_INT16:
	case DT_INT32:
	case DT_INT64:
	case DT_UINT8:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return 0;
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

/* Widens [*lo, *hi] by v unless it is NaN or infinite. */
static void widen(double v, double *lo, double *hi)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* Fills r's errors of got against want and both ranges: an element is bad
 * past tolerance, or when a NaN or infinity on one side is not the same on
 * the other (whether the same one passes is the caller's, from the
 * reference's counts). */
static void compare_values(EachRecord *r, const NpyArray *got, const NpyArray *want)
{
	int64_t n = npy_array_count(got);
	r->min = r->ref_min = INFINITY;
	r->max = r->ref_max = -INFINITY;
	for (int64_t i = 0; i < n; i++) {
		double a = exec_element(got, i), b = exec_element(want, i), d, rel;
		widen(a, &r->min, &r->max);
		widen(b, &r->ref_min, &r->ref_max);
		if (!isfinite(a) || !isfinite(b)) {
			r->ref_nans += isnan(b) != 0;
			r->ref_infs += isinf(b) != 0;
			if (!((isnan(a) && isnan(b)) || a == b)) {
				r->max_abs = r->max_rel = INFINITY;
				r->bad++;
			}
			continue;
		}
		if (a == b)
			continue;
		d = fabs(a - b);
		rel = b != 0 ? d / fabs(b) : INFINITY;
		if (d > r->max_abs)
			r->max_abs = d;
		if (rel > r->max_rel)
			r->max_rel = rel;
		if (!(d <= r->tol * (fabs(b) > 1 ? fabs(b) : 1)))
			r->bad++;
	}
}

/* Whether r's reference holds a NaN or an infinity. */
static bool nonfinite(const EachRecord *r)
{
	return r->ref_nans || r->ref_infs;
}

/* Whether r fails the comparison: past tolerance, or not finite in the
 * reference when that is not allowed. */
static bool fails(const CompareEach *x, const EachRecord *r)
{
	return r->bad > 0 || (nonfinite(r) && !x->allow_nonfinite);
}

void compare_each_observe_planned(void *context, const Expr *call, uint32_t field, int32_t device,
				  NpyArray *value)
{
	CompareEach *x = context;
	EachSlot *ref = take_reference(x, call->id, field);
	EachRecord *r;
	uint32_t depth = 0;
	if (!ref) {
		x->unmatched++;
		npy_array_free(value);
		return;
	}
	for (uint32_t a = 0; a < call->u.call.nargs; a++) {
		uint32_t d = operand_depth(x, call->u.call.args[a], EACH_DEPTH_STEPS);
		if (d > depth)
			depth = d;
	}
	depth++;
	if (call->id < x->nplanned) {
		x->depth[call->id] = depth;
		x->record_of[call->id] = (uint32_t)x->nrecords;
	}
	grow_array((void **)&x->records, &x->cap_records, x->nrecords + 1, sizeof(EachRecord));
	r = &x->records[x->nrecords++];
	memset(r, 0, sizeof *r);
	r->e = call;
	r->field = field;
	r->device = device;
	r->dtype = value->dtype;
	r->count = npy_array_count(value);
	r->depth = depth;
	r->tol = dtype_tolerance(value->dtype, x->tolerance) * depth;
	if (!same_layout(value, &ref->value)) {
		r->layout_differs = true;
		r->bad = r->count;
		r->max_abs = r->max_rel = INFINITY;
	} else {
		compare_values(r, value, &ref->value);
	}
	npy_array_free(value);
	npy_array_free(&ref->value);
}

/* `%x` or `nn.conv2d@7:8`, with `.K` for field K of a tuple result. */
static void record_name(StrBuf *sb, const CompareEach *x, const EachRecord *r)
{
	if (!r->e->name && r->e->id < x->nplanned && x->let_var[r->e->id])
		strbuf_printf(sb, "%%%s", x->let_var[r->e->id]->name);
	else
		ir_value_name(sb, r->e);
	if (r->e->type && r->e->type->kind == TYPE_TUPLE)
		strbuf_printf(sb, ".%u", r->field);
}

static const char *device_text(const CompareEach *x, int32_t device)
{
	return device >= 0 ? devices_name(&x->session->devices, device) : "cpu";
}

static void print_row(CmdContext *ctx, const CompareEach *x, const EachRecord *r)
{
	StrBuf name;
	char bad[96];
	strbuf_init(&name);
	record_name(&name, x, r);
	if (r->layout_differs)
		snprintf(bad, sizeof bad, "shape/dtype");
	else if (r->ref_nans && r->ref_infs)
		snprintf(bad, sizeof bad, "%lld/%lld (%lld NaN, %lld inf)", (long long)r->bad,
			 (long long)r->count, (long long)r->ref_nans, (long long)r->ref_infs);
	else if (nonfinite(r))
		snprintf(bad, sizeof bad, "%lld/%lld (%lld %s)", (long long)r->bad,
			 (long long)r->count, (long long)(r->ref_nans + r->ref_infs),
			 r->ref_nans ? "NaN" : "inf");
	else
		snprintf(bad, sizeof bad, "%lld/%lld", (long long)r->bad, (long long)r->count);
	fprintf(ctx->out, "  %-24s %-20s %-8s %-10.3g %-10.3g %-9.2g %s\n", name.data,
		ir_call_op_name(r->e), device_text(x, r->device), r->max_abs, r->max_rel, r->tol,
		bad);
	strbuf_free(&name);
}

static void print_header(CmdContext *ctx)
{
	fprintf(ctx->out, "  %-24s %-20s %-8s %-10s %-10s %-9s %s\n", "value", "op", "device",
		"max abs", "max rel", "tolerance", "past");
}

/* The device a device_copy on the way from e to its value moves it to,
 * or -1 when it is read where it is. */
static int32_t copied_to(const Expr *e)
{
	for (int steps = 0; e && steps < EACH_DEPTH_STEPS; steps++) {
		if (ir_is_op(e, OP_DEVICE_COPY)) {
			int32_t src, dst;
			ir_device_copy_props(e, &src, &dst);
			return dst;
		}
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value)
			e = e->u.var.value;
		else if (e->kind == EXPR_LET)
			e = e->u.let.body;
		else if (ir_is_op(e, OP_ON_DEVICE) && e->u.call.nargs == 1)
			e = e->u.call.args[0];
		else
			break;
	}
	return -1;
}

/* ", 3 NaN, 1 inf" when there are any. */
static void print_counts(CmdContext *ctx, int64_t nans, int64_t infs)
{
	if (nans)
		fprintf(ctx->out, ", %lld NaN", (long long)nans);
	if (infs)
		fprintf(ctx->out, ", %lld inf", (long long)infs);
}

/* The operands of r's value: each one's type, device and range in the
 * planned run; in_reference: each one's type and range (with its NaN and
 * infinities) in the reference run, which ran on the cpu alone. */
static void print_operands(CmdContext *ctx, const CompareEach *x, const EachRecord *r,
			   bool in_reference)
{
	const Expr *call = r->e;
	for (uint32_t a = 0; a < call->u.call.nargs; a++) {
		const Expr *v = ir_computed_value(call->u.call.args[a]);
		StrBuf name, type;
		bool known = false;
		double lo = 0, hi = 0;
		int64_t nans = 0, infs = 0;
		strbuf_init(&name);
		strbuf_init(&type);
		const Expr *base = v;
		uint32_t field = 0;
		/* a field of an op's tuple result (split) reads that field's record */
		if (v->kind == EXPR_PROJ) {
			base = ir_computed_value(v->u.proj.tuple);
			field = v->u.proj.index;
		}
		if (!base->name && base->id < x->nplanned && x->let_var[base->id])
			strbuf_printf(&name, "%%%s", x->let_var[base->id]->name);
		else
			ir_value_name(&name, base);
		if (base != v)
			strbuf_printf(&name, ".%u", field);
		if (v->type)
			type_print(&type, v->type);
		if (base->kind == EXPR_CALL && base->id < x->nplanned &&
		    x->record_of[base->id] != EACH_NONE) {
			/* a tuple result's fields are recorded in order, the last
			 * one last */
			uint32_t last = x->record_of[base->id];
			uint32_t nfields = base->type && base->type->kind == TYPE_TUPLE
						   ? base->type->u.tuple.nfields
						   : 1;
			if (base == v || (field < nfields && last + 1 >= nfields)) {
				const EachRecord *o =
					&x->records[base == v ? last : last + 1 - nfields + field];
				lo = in_reference ? o->ref_min : o->min;
				hi = in_reference ? o->ref_max : o->max;
				if (in_reference) {
					nans = o->ref_nans;
					infs = o->ref_infs;
				}
				known = true;
			}
		} else if (v->kind == EXPR_VAR) {
			for (size_t k = 0; k < x->ninputs; k++)
				if (x->inputs[k].id == v->id) {
					lo = x->inputs[k].min;
					hi = x->inputs[k].max;
					nans = x->inputs[k].nans;
					infs = x->inputs[k].infs;
					known = true;
				}
		}
		fprintf(ctx->out, "    operand %u: %s: %s", a, name.data, type.data);
		if (v->device >= 0 && !in_reference)
			fprintf(ctx->out, " on %s", device_text(x, v->device));
		if (copied_to(call->u.call.args[a]) >= 0 && !in_reference)
			fprintf(ctx->out, ", copied to %s",
				device_text(x, copied_to(call->u.call.args[a])));
		if (known && lo <= hi)
			fprintf(ctx->out, ", range [%.4g, %.4g]", lo, hi);
		else if (known)
			fputs(", no finite element", ctx->out);
		else if (v->kind == EXPR_CONSTANT)
			fputs(", a constant", ctx->out);
		if (known)
			print_counts(ctx, nans, infs);
		fputc('\n', ctx->out);
		strbuf_free(&name);
		strbuf_free(&type);
	}
}

/* Why the value is on its device: core's explanation, indented, its
 * first steps and the last (where the device was decided) when long. */
static void print_why(CmdContext *ctx, const CompareEach *x, const EachRecord *r)
{
	enum { HEAD = 4, TAIL = 2 };
	const PlanTrace *t = x->session->trace;
	PlanAnalysis *an = t ? t->core : NULL;
	StrBuf sb;
	size_t nlines = 0, line = 0;
	if (!an || r->e->id >= an->nexprs || !an->by_id[r->e->id])
		return;
	strbuf_init(&sb);
	plan_explain(&sb, an, an->by_id[r->e->id], &x->session->devices, x->session->trace);
	for (size_t i = 0; i < sb.len; i++)
		nlines += sb.data[i] == '\n' || i + 1 == sb.len;
	for (const char *p = sb.data; *p; line++) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		/* the first line says where it is; then steps */
		if (line <= HEAD || line + TAIL >= nlines)
			fprintf(ctx->out, "    %s%.*s\n", line == 0 ? "why: " : "", (int)n, p);
		else if (line == HEAD + 1)
			fprintf(ctx->out, "      ... %zu more steps ...\n",
				nlines - HEAD - TAIL - 1);
		p += n + (end ? 1 : 0);
	}
	strbuf_free(&sb);
}

/* A record in the table of the worst, with whether it fails. */
typedef struct EachRow {
	const EachRecord *r;
	bool fails;
} EachRow;

static int compare_worst(const void *pa, const void *pb)
{
	const EachRow *a = pa, *b = pb;
	/* failing first, then by relative error, then in execution order */
	if (a->fails != b->fails)
		return a->fails ? -1 : 1;
	if (a->r->max_rel != b->r->max_rel)
		return a->r->max_rel > b->r->max_rel ? -1 : 1;
	return a->r < b->r ? -1 : a->r > b->r;
}

/* The heading of a value named in the report: "%x = OP[ on DEVICE] (FILE:L:C)". */
static void print_heading(CmdContext *ctx, const CompareEach *x, const char *what,
			  const EachRecord *r, bool device)
{
	StrBuf name;
	strbuf_init(&name);
	record_name(&name, x, r);
	fprintf(ctx->out, "%s: %s = %s", what, name.data, ir_call_op_name(r->e));
	if (device)
		fprintf(ctx->out, " on %s", device_text(x, r->device));
	if (r->e->pos.line)
		fprintf(ctx->out, " (%s:%u:%u)", session_module_name(x->session), r->e->pos.line,
			r->e->pos.col);
	strbuf_free(&name);
}

CompareEachCounts compare_each_report(CompareEach *x, CmdContext *ctx, bool all, size_t top)
{
	const EachRecord *first = NULL, *first_nonfinite = NULL;
	CompareEachCounts counts = {0, 0};
	size_t with_nonfinite = 0;
	for (size_t i = 0; i < x->nrecords; i++) {
		const EachRecord *r = &x->records[i];
		if (nonfinite(r)) {
			if (!first_nonfinite)
				first_nonfinite = r;
			with_nonfinite++;
		}
		if (r->bad == 0)
			continue;
		if (!first)
			first = r;
		counts.differ++;
	}
	if (!x->allow_nonfinite)
		counts.nonfinite = with_nonfinite;
	fprintf(ctx->out, "each: %zu value%s compared in execution order, %zu past tolerance",
		x->nrecords, x->nrecords == 1 ? "" : "s", counts.differ);
	if (with_nonfinite)
		fprintf(ctx->out, ", %zu with NaN or infinity in the reference%s", with_nonfinite,
			x->allow_nonfinite ? " (allowed)" : "");
	fputc('\n', ctx->out);
	if (x->unmatched)
		cmd_note(ctx, "%zu value%s of the planned run had no reference to compare with",
			 x->unmatched, x->unmatched == 1 ? "" : "s");
	if (first) {
		print_heading(ctx, x, "first past tolerance", first, true);
		if (first->layout_differs)
			fputs(": its shape or dtype differs from the reference\n", ctx->out);
		else
			fprintf(ctx->out,
				": %lld of %lld element%s past tolerance %.2g (%u op%s deep), max "
				"abs "
				"error %.3g, max rel error %.3g\n",
				(long long)first->bad, (long long)first->count,
				first->count == 1 ? "" : "s", first->tol, first->depth,
				first->depth == 1 ? "" : "s", first->max_abs, first->max_rel);
		print_operands(ctx, x, first, false);
		print_why(ctx, x, first);
	}
	if (first_nonfinite) {
		/* the values before it were finite: this op made the NaN or
		 * infinity out of finite operands, unless an input held one */
		print_heading(ctx, x, "first NaN or infinity in the reference", first_nonfinite,
			      false);
		fputs(": ", ctx->out);
		if (first_nonfinite->ref_nans)
			fprintf(ctx->out, "%lld NaN%s", (long long)first_nonfinite->ref_nans,
				first_nonfinite->ref_infs ? ", " : "");
		if (first_nonfinite->ref_infs)
			fprintf(ctx->out, "%lld inf", (long long)first_nonfinite->ref_infs);
		fprintf(ctx->out, " of %lld element%s\n", (long long)first_nonfinite->count,
			first_nonfinite->count == 1 ? "" : "s");
		print_operands(ctx, x, first_nonfinite, true);
	}
	if (all) {
		fputs("every value, in execution order:\n", ctx->out);
		print_header(ctx);
		for (size_t i = 0; i < x->nrecords; i++)
			print_row(ctx, x, &x->records[i]);
	} else if (x->nrecords && top) {
		/* a value equal to its reference says nothing: a table of zeros
		 * is left out */
		EachRow *rows = xmalloc(x->nrecords * sizeof *rows);
		size_t nrows = 0, n;
		for (size_t i = 0; i < x->nrecords; i++) {
			const EachRecord *r = &x->records[i];
			if (r->max_abs > 0 || fails(x, r))
				rows[nrows++] = (EachRow){r, fails(x, r)};
		}
		qsort(rows, nrows, sizeof *rows, compare_worst);
		n = nrows < top ? nrows : top;
		if (nrows == 0) {
			fprintf(ctx->out, "nothing past tolerance: every value equals the "
					  "reference's\n");
		} else {
			fprintf(ctx->out, "worst %zu by relative error%s:\n", n,
				counts.differ || counts.nonfinite ? "" : " (none past tolerance)");
			print_header(ctx);
			for (size_t i = 0; i < n; i++)
				print_row(ctx, x, rows[i].r);
		}
		free(rows);
	}
	return counts;
}
