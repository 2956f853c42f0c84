/*
 * run_each.c - `compare --each`: every intermediate value of the
 * planned run against the same value of the all-cpu reference run.
 *
 * The final results alone prove little: a model that ends in a softmax
 * or a tanh saturates, and its output matches whatever went wrong inside.
 * So both runs are observed (ExecOptions.observe): the reference run,
 * whose every op result is kept by (expression id, tuple field,
 * occurrence), and the planned run, whose every op result is compared on
 * arrival with the reference's value of the same expression and freed
 * with it at once. The two run as a pipeline on one thread
 * (run_each_runs): the planned run drives, and a value whose reference has
 * not come yet steps the reference run (exec_run_step) until it comes, so
 * the reference values held are those made ahead of the planned run's
 * order (a value or two on a chain), not a whole run's; a different order
 * only holds more, never waits for ever, and no state is shared between
 * threads. The planned run lends its values (ExecOptions.observe_borrows,
 * run_each_observe_planned_lent): one on the cpu or the emulator is
 * compared where it is, without a copy; the reference's lent values are
 * copied into chunks, and a chunk whose values were all compared is kept
 * for the next one (its pages already faulted in).
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
 * What it found comes back as records, one per value compared, for
 * `compare --each` to print (commands/compare_each.c): the first past
 * tolerance, the first not finite in the reference, the worst, and the
 * operands of each with their ranges.
 *
 * Ownership: the tracker owns the reference values it keeps and its
 * records; it borrows the modules and the inputs, which outlive it.
 */
#include "run_each.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "interrupt.h"
#include "run.h"

enum { EACH_NONE = UINT32_MAX, EACH_DEPTH_STEPS = 64 };

/* The reference values lent by the run are copied into chunks of at least
 * EACH_CHUNK bytes, each value on a 64-byte boundary: values of a megabyte
 * each as arrays of their own would each be a fresh mapping from malloc,
 * mapped and unmapped once per value. A chunk is retired when every value
 * in it has been compared: kept as the spare that the next chunk reuses. */
#define EACH_CHUNK ((size_t)32 << 20)

typedef struct EachChunk {
	char *base;      /* NULL once freed */
	size_t size;     /* what it may hold: its capacity until it is closed,
			    then what it holds */
	size_t capacity; /* its allocation's size */
	size_t used;
	size_t live; /* values in it not yet compared */
} EachChunk;

/* A reference value waiting for its planned twin. */
typedef struct EachSlot {
	uint32_t id, field;
	uint32_t next;  /* the next slot of the same id, EACH_NONE at the end */
	uint32_t chunk; /* the chunk holding value.data, or EACH_NONE: an array
			   of its own (npy_array_free) */
	size_t held;    /* the bytes it added to RunEach.held */
	bool used;
	NpyArray value;
} EachSlot;

/* One input of @main, whose range the operands of a failing value show:
 * measured when asked for (a model's weights are hundreds of MB, and most
 * comparisons fail nowhere). */
typedef struct EachInput {
	uint32_t id;
	const NpyArray *array; /* the caller's, which outlives the tracker */
} EachInput;

struct RunEach {
	double tolerance;
	bool allow_nonfinite; /* compare --allow-nan */
	EachSlot *slots;
	size_t nslots, cap_slots;
	EachChunk *chunks;
	size_t nchunks, cap_chunks;
	char *spare; /* a chunk's memory whose values were all compared, kept
			for the next chunk (its pages faulted in already) */
	size_t spare_size;
	size_t held, peak_held;      /* bytes of reference values kept, and the most */
	bool (*more)(void *context); /* the reference run as a source, or NULL */
	void *more_context;
	bool reference_done;   /* reference values from now on are dropped */
	uint32_t *head, *tail; /* by reference expression id */
	uint32_t nref;
	RunEachRecord *records;
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

RunEach *run_each_new(const IrModule *reference, const IrModule *planned, const NpyArray *inputs,
		      size_t ninputs, double tolerance, bool allow_nonfinite)
{
	RunEach *x = xcalloc(1, sizeof *x);
	ExecParam *params;
	size_t np = exec_params(planned, &params);
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
		EachInput *in = &x->inputs[x->ninputs++];
		in->id = params[k].var->id;
		in->array = &inputs[k];
	}
	free(params);
	return x;
}

/* A chunk whose values were all compared lets go of its memory: kept as
 * the spare for the next chunk (a fresh mapping's pages would fault in
 * again; the larger of two is kept), else freed. */
static void chunk_retire(RunEach *x, EachChunk *c)
{
	if (!x->spare || c->capacity > x->spare_size) {
		free(x->spare);
		x->spare = c->base;
		x->spare_size = c->capacity;
	} else {
		free(c->base);
	}
	c->base = NULL;
}

/* Lets go of a kept reference value. */
static void slot_release(RunEach *x, EachSlot *slot)
{
	EachChunk *c;
	DP_ASSERT(x->held >= slot->held);
	x->held -= slot->held;
	slot->held = 0;
	if (slot->chunk == EACH_NONE) {
		npy_array_free(&slot->value);
		return;
	}
	c = &x->chunks[slot->chunk];
	free(slot->value.shape);
	memset(&slot->value, 0, sizeof slot->value);
	slot->chunk = EACH_NONE;
	DP_ASSERT(c->live > 0);
	if (--c->live == 0 && c->base && c->used == c->size)
		chunk_retire(x, c);
}

void run_each_free(RunEach *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nslots; i++)
		slot_release(x, &x->slots[i]);
	for (size_t i = 0; i < x->nchunks; i++)
		free(x->chunks[i].base);
	free(x->chunks);
	free(x->spare);
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

/* Room for nbytes in the last chunk, or a new chunk; NULL when the memory
 * is not there. *chunk is the chunk's index. */
static void *chunk_take(RunEach *x, size_t nbytes, uint32_t *chunk)
{
	EachChunk *c = x->nchunks ? &x->chunks[x->nchunks - 1] : NULL;
	size_t need = (nbytes + 63) / 64 * 64, size;
	void *p;
	if (need < nbytes)
		return NULL;
	if (!c || !c->base || c->size - c->used < need) {
		if (c) {
			c->size = c->used; /* closed: retired once its values are compared */
			if (c->base && c->live == 0)
				chunk_retire(x, c);
		}
		size = need > EACH_CHUNK ? need : EACH_CHUNK;
		if (x->spare && x->spare_size >= size) {
			p = x->spare;
			size = x->spare_size;
			x->spare = NULL;
		} else if (!(p = aligned_alloc(64, size))) {
			return NULL;
		}
		grow_array((void **)&x->chunks, &x->cap_chunks, x->nchunks + 1, sizeof(EachChunk));
		c = &x->chunks[x->nchunks++];
		*c = (EachChunk){p, size, size, 0, 0};
	}
	p = c->base + c->used;
	c->used += need;
	c->live++;
	*chunk = (uint32_t)(c - x->chunks);
	return p;
}

/* Counts n bytes more held for slot. */
static void hold(RunEach *x, EachSlot *slot, size_t n)
{
	slot->held = n;
	x->held += n;
	if (x->held > x->peak_held)
		x->peak_held = x->held;
}

/* A new slot for the reference value of (call, field). */
static EachSlot *slot_add(RunEach *x, const Expr *call, uint32_t field)
{
	EachSlot *slot;
	uint32_t index;
	grow_array((void **)&x->slots, &x->cap_slots, x->nslots + 1, sizeof(EachSlot));
	index = (uint32_t)x->nslots++;
	slot = &x->slots[index];
	memset(slot, 0, sizeof *slot);
	slot->id = call->id;
	slot->field = field;
	slot->next = EACH_NONE;
	slot->chunk = EACH_NONE;
	if (x->tail[call->id] == EACH_NONE)
		x->head[call->id] = index;
	else
		x->slots[x->tail[call->id]].next = index;
	x->tail[call->id] = index;
	return slot;
}

void run_each_observe_reference(void *context, const Expr *call, uint32_t field, int32_t device,
				NpyArray *value)
{
	RunEach *x = context;
	EachSlot *slot;
	(void)device;
	if (call->id >= x->nref || x->reference_done) {
		npy_array_free(value);
		return;
	}
	slot = slot_add(x, call, field);
	slot->value = *value;
	hold(x, slot, value->nbytes);
}

/* The kept bytes of call's first operand when value has the same bytes
 * (*chunk holds them), else NULL. */
static void *same_as_operand(RunEach *x, const Expr *call, const NpyArray *value, uint32_t *chunk)
{
	const Expr *arg;
	const EachSlot *slot;
	if (call->kind != EXPR_CALL || call->u.call.nargs == 0)
		return NULL;
	arg = ir_computed_value(call->u.call.args[0]);
	if (!arg || arg->kind != EXPR_CALL || arg->id >= x->nref || x->tail[arg->id] == EACH_NONE)
		return NULL;
	slot = &x->slots[x->tail[arg->id]];
	if (slot->field != 0 || slot->chunk == EACH_NONE || slot->value.nbytes != value->nbytes ||
	    memcmp(slot->value.data, value->data, value->nbytes) != 0)
		return NULL;
	*chunk = slot->chunk;
	return slot->value.data;
}

void run_each_observe_reference_lent(void *context, const Expr *call, uint32_t field,
				     int32_t device, NpyArray *value)
{
	RunEach *x = context;
	EachSlot *slot;
	uint32_t chunk;
	void *data;
	size_t held = 0;
	(void)device;
	if (call->id >= x->nref || x->reference_done)
		return;
	/* the bytes of its first operand (a reshape's, a copy's) are kept
	 * once; others are copied, or skipped when the memory is not there
	 * (observing is best effort) */
	if ((data = same_as_operand(x, call, value, &chunk))) {
		x->chunks[chunk].live++;
	} else if ((data = chunk_take(x, value->nbytes, &chunk))) {
		memcpy(data, value->data, value->nbytes);
		held = value->nbytes;
	} else {
		return;
	}
	slot = slot_add(x, call, field);
	slot->chunk = chunk;
	hold(x, slot, held);
	slot->value = *value;
	slot->value.data = data;
	slot->value.shape = value->ndim ? xmalloc(value->ndim * sizeof(int64_t)) : NULL;
	if (value->ndim)
		memcpy(slot->value.shape, value->shape, value->ndim * sizeof(int64_t));
}

/* The reference value for the next occurrence of (id, field) kept now, or
 * NULL. */
static EachSlot *kept_reference(RunEach *x, uint32_t id, uint32_t field)
{
	for (uint32_t k = x->head[id]; k != EACH_NONE; k = x->slots[k].next) {
		EachSlot *slot = &x->slots[k];
		if (!slot->used && slot->field == field) {
			slot->used = true;
			return slot;
		}
	}
	return NULL;
}

/* The reference value for the next occurrence of (id, field), the
 * reference run stepped until it comes where it is a source; NULL when it
 * never does. */
static EachSlot *take_reference(RunEach *x, uint32_t id, uint32_t field)
{
	EachSlot *slot;
	bool more = true;
	if (id >= x->nref)
		return NULL;
	while (!(slot = kept_reference(x, id, field)) && more)
		more = x->more && x->more(x->more_context);
	return slot;
}

void run_each_pull_reference(RunEach *x, bool (*more)(void *context), void *context)
{
	x->more = more;
	x->more_context = context;
}

void run_each_reference_done(RunEach *x)
{
	x->more = NULL;
	x->reference_done = true;
}

size_t run_each_peak_held(const RunEach *x)
{
	return x->peak_held;
}

/* The ops on the longest path from the inputs to what e reads. */
static uint32_t operand_depth(const RunEach *x, const Expr *e, int budget)
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

/* The range of the finite elements of v[0, n) and the NaNs and infinities,
 * into the running *lo, *hi and counts: 16 lanes that the compiler keeps
 * in vector registers (an element is finite when its exponent is not all
 * ones), so a megabyte takes a few microseconds. */
enum { RANGE_LANES = 16 };

static void range_f32(const float *v, int64_t n, float *lo, float *hi, int64_t *nans, int64_t *infs)
{
	float l[RANGE_LANES], h[RANGE_LANES];
	int32_t cn[RANGE_LANES] = {0}, ci[RANGE_LANES] = {0};
	int64_t i = 0;
	for (int j = 0; j < RANGE_LANES; j++) {
		l[j] = INFINITY;
		h[j] = -INFINITY;
	}
	for (; i + RANGE_LANES <= n; i += RANGE_LANES)
		for (int j = 0; j < RANGE_LANES; j++) {
			float x = v[i + j];
			uint32_t b;
			memcpy(&b, &x, sizeof b);
			b &= 0x7fffffffu;
			float xl = b < 0x7f800000u ? x : INFINITY;
			float xh = b < 0x7f800000u ? x : -INFINITY;
			l[j] = xl < l[j] ? xl : l[j];
			h[j] = xh > h[j] ? xh : h[j];
			cn[j] += b > 0x7f800000u;
			ci[j] += b == 0x7f800000u;
		}
	for (int j = 0; j < RANGE_LANES; j++) {
		*lo = l[j] < *lo ? l[j] : *lo;
		*hi = h[j] > *hi ? h[j] : *hi;
		*nans += cn[j];
		*infs += ci[j];
	}
	for (; i < n; i++) {
		float x = v[i];
		if (isfinite(x)) {
			*lo = x < *lo ? x : *lo;
			*hi = x > *hi ? x : *hi;
		} else {
			*nans += isnan(x) != 0;
			*infs += isinf(x) != 0;
		}
	}
}

/* The first element of v[0, n) equal to z (0: the sign of the first zero,
 * which a loop in order keeps as the least or greatest). */
static float first_equal_f32(const float *v, int64_t n, float z)
{
	for (int64_t i = 0; i < n; i++)
		if (v[i] == z)
			return v[i];
	return z;
}

/* compare_values of two float32 arrays when they are equal byte for byte
 * (the emulator runs the cpu kernels, so most values are): no element
 * differs, both ranges are one, and a NaN or an infinity is the same on
 * both sides. Compared and measured a block at a time, while the block is
 * in cache; false at the first block that differs, with r untouched. */
enum { IDENTICAL_BLOCK = 4096 };

static bool compare_identical_f32(RunEachRecord *r, const float *got, const float *want, int64_t n)
{
	float lo = INFINITY, hi = -INFINITY;
	int64_t nans = 0, infs = 0;
	for (int64_t i = 0; i < n; i += IDENTICAL_BLOCK) {
		int64_t m = n - i < IDENTICAL_BLOCK ? n - i : IDENTICAL_BLOCK;
		if (memcmp(got + i, want + i, (size_t)m * sizeof(float)) != 0)
			return false;
		range_f32(got + i, m, &lo, &hi, &nans, &infs);
	}
	/* of equal least (greatest) elements a loop in order keeps the first:
	 * with 0 that is the first zero's sign */
	if (lo == 0)
		lo = first_equal_f32(got, n, 0);
	if (hi == 0)
		hi = first_equal_f32(got, n, 0);
	r->min = r->ref_min = lo == INFINITY ? INFINITY : (double)lo;
	r->max = r->ref_max = hi == -INFINITY ? -INFINITY : (double)hi;
	r->ref_nans = nans;
	r->ref_infs = infs;
	return true;
}

/* Fills r's errors of got against want and both ranges: an element is bad
 * past tolerance, or when a NaN or infinity on one side is not the same on
 * the other (whether the same one passes is the caller's, from the
 * reference's counts). */
static void compare_values(RunEachRecord *r, const NpyArray *got, const NpyArray *want)
{
	int64_t n = npy_array_count(got);
	if (got->dtype == DT_FLOAT32 && n > 0 && compare_identical_f32(r, got->data, want->data, n))
		return;
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

bool run_each_nonfinite(const RunEachRecord *r)
{
	return r->ref_nans || r->ref_infs;
}

bool run_each_fails(const RunEach *x, const RunEachRecord *r)
{
	return r->bad > 0 || (run_each_nonfinite(r) && !x->allow_nonfinite);
}

/* A planned value compared with its reference, which is freed; the value
 * is the caller's. */
static void observe_planned(RunEach *x, const Expr *call, uint32_t field, int32_t device,
			    const NpyArray *value)
{
	EachSlot *ref = take_reference(x, call->id, field);
	RunEachRecord *r;
	uint32_t depth = 0;
	if (!ref) {
		x->unmatched++;
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
	grow_array((void **)&x->records, &x->cap_records, x->nrecords + 1, sizeof(RunEachRecord));
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
	slot_release(x, ref);
}

void run_each_observe_planned(void *context, const Expr *call, uint32_t field, int32_t device,
			      NpyArray *value)
{
	observe_planned(context, call, field, device, value);
	npy_array_free(value);
}

void run_each_observe_planned_lent(void *context, const Expr *call, uint32_t field, int32_t device,
				   NpyArray *value)
{
	observe_planned(context, call, field, device, value);
}

/* ---- both runs at once ---------------------------------------------------- */

/* The tracker's source of reference values (run_each_pull_reference): the
 * reference run, one op's result further. */
static bool step_reference(void *running)
{
	return exec_run_step(running) == EXEC_STEP_MORE;
}

bool run_each_runs(const Session *s, RunEach *x, const IrModule *reference, const IrModule *planned,
		   ExecOptions *ro, ExecOptions *po, const NpyArray *inputs, size_t n,
		   ExecResult *got, ExecResult *want, DiagList *reference_diags,
		   DiagList *planned_diags, bool *reference_ok)
{
	ExecRunning *running;
	bool ok = false;
	ro->observe = run_each_observe_reference_lent; /* copied into the tracker's chunks */
	ro->observe_context = x;
	ro->observe_borrows = true;
	po->observe = run_each_observe_planned_lent; /* compared where they are */
	po->observe_context = x;
	po->observe_borrows = true;
	/* the inputs' arrays are the run's memory too, as run_module counts them */
	for (size_t i = 0; i < n; i++)
		ro->memory_held += inputs[i].nbytes;
	memset(got, 0, sizeof *got);
	running = exec_run_begin(reference, &s->devices, ro, inputs, n, want, reference_diags);
	/* a reference run that fails before its first value: the planned run
	 * would not have run */
	if (exec_run_step(running) != EXEC_STEP_FAILED) {
		run_each_pull_reference(x, step_reference, running);
		ok = run_module(s, planned, po, inputs, n, got, planned_diags);
		run_each_reference_done(x);
	}
	while (exec_run_step(running) == EXEC_STEP_MORE)
		;
	*reference_ok = exec_run_end(running);
	if (!*reference_ok && interrupt_pending())
		interrupt_clear();
	if (ok && !*reference_ok)
		exec_result_free(got);
	if (!ok || !*reference_ok)
		exec_result_free(want);
	return ok && *reference_ok;
}

/* ---- what the runs found ---------------------------------------------- */

void run_each_summarise(const RunEach *x, RunEachSummary *out)
{
	memset(out, 0, sizeof *out);
	out->compared = x->nrecords;
	out->unmatched = x->unmatched;
	out->allow_nonfinite = x->allow_nonfinite;
	for (size_t i = 0; i < x->nrecords; i++) {
		const RunEachRecord *r = &x->records[i];
		if (run_each_nonfinite(r)) {
			if (!out->first_nonfinite)
				out->first_nonfinite = r;
			out->with_nonfinite++;
		}
		if (r->bad == 0)
			continue;
		if (!out->first)
			out->first = r;
		out->counts.differ++;
	}
	if (!x->allow_nonfinite)
		out->counts.nonfinite = out->with_nonfinite;
}

const RunEachRecord *run_each_records(const RunEach *x, size_t *n)
{
	*n = x->nrecords;
	return x->records;
}

/* A record in the table of the worst, with whether it fails. */
typedef struct EachRow {
	const RunEachRecord *r;
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

const RunEachRecord **run_each_worst(const RunEach *x, size_t top, size_t *n)
{
	EachRow *rows = xmalloc((x->nrecords + 1) * sizeof *rows);
	const RunEachRecord **worst;
	size_t nrows = 0;
	for (size_t i = 0; i < x->nrecords; i++) {
		const RunEachRecord *r = &x->records[i];
		if (r->max_abs > 0 || run_each_fails(x, r))
			rows[nrows++] = (EachRow){r, run_each_fails(x, r)};
	}
	if (nrows)
		qsort(rows, nrows, sizeof *rows, compare_worst);
	*n = nrows < top ? nrows : top;
	worst = xmalloc((*n + 1) * sizeof *worst);
	for (size_t i = 0; i < *n; i++)
		worst[i] = rows[i].r;
	free(rows);
	return worst;
}

/* `%x` (the let variable bound to e) or e's own name. */
static void expr_name(const RunEach *x, const Expr *e, StrBuf *out)
{
	if (!e->name && e->id < x->nplanned && x->let_var[e->id])
		strbuf_printf(out, "%%%s", x->let_var[e->id]->name);
	else
		ir_value_name(out, e);
}

void run_each_name(const RunEach *x, const RunEachRecord *r, StrBuf *out)
{
	expr_name(x, r->e, out);
	if (r->e->type && r->e->type->kind == TYPE_TUPLE)
		strbuf_printf(out, ".%u", r->field);
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

/* The range of the value base (field of a tuple result when base != v)
 * from its record, when it was compared. */
static void operand_from_record(const RunEach *x, const Expr *base, const Expr *v, uint32_t field,
				bool in_reference, RunEachOperand *out)
{
	/* a tuple result's fields are recorded in order, the last one last */
	uint32_t last = x->record_of[base->id];
	uint32_t nfields =
		base->type && base->type->kind == TYPE_TUPLE ? base->type->u.tuple.nfields : 1;
	const RunEachRecord *o;
	if (!(base == v || (field < nfields && last + 1 >= nfields)))
		return;
	o = &x->records[base == v ? last : last + 1 - nfields + field];
	out->min = in_reference ? o->ref_min : o->min;
	out->max = in_reference ? o->ref_max : o->max;
	if (in_reference) {
		out->nans = o->ref_nans;
		out->infs = o->ref_infs;
	}
	out->known = true;
}

/* An input's range into out: its finite elements' least and greatest, its
 * NaNs and infinities. */
static void input_range(const NpyArray *a, RunEachOperand *out)
{
	int64_t n = npy_array_count(a);
	out->min = INFINITY;
	out->max = -INFINITY;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		out->nans += isnan(v) != 0;
		out->infs += isinf(v) != 0;
		if (!isfinite(v))
			continue;
		if (v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
	}
	out->known = true;
}

void run_each_operand(const RunEach *x, const RunEachRecord *r, uint32_t arg, bool in_reference,
		      RunEachOperand *out, StrBuf *name)
{
	const Expr *call = r->e, *v = ir_computed_value(call->u.call.args[arg]), *base = v;
	uint32_t field = 0;
	memset(out, 0, sizeof *out);
	out->value = v;
	out->copied_to = copied_to(call->u.call.args[arg]);
	/* a field of an op's tuple result (split) reads that field's record */
	if (v->kind == EXPR_PROJ) {
		base = ir_computed_value(v->u.proj.tuple);
		field = v->u.proj.index;
	}
	expr_name(x, base, name);
	if (base != v)
		strbuf_printf(name, ".%u", field);
	if (base->kind == EXPR_CALL && base->id < x->nplanned &&
	    x->record_of[base->id] != EACH_NONE) {
		operand_from_record(x, base, v, field, in_reference, out);
	} else if (v->kind == EXPR_VAR) {
		for (size_t k = 0; k < x->ninputs && !out->known; k++)
			if (x->inputs[k].id == v->id)
				input_range(x->inputs[k].array, out);
	}
}
