/*
 * reduce_relay.c - the Relay candidates of `reduce` (reduce.h; the search
 * is reduce.c's): delete, bypass, unwrap, inline, shrink and rename over
 * a Relay module.
 *
 * A pass parses the smallest text so far (the working module), types a
 * copy of it, lists its candidates (nodes of the working module, by id)
 * and builds trials: a trial clones the working module, applies the
 * chosen changes to the clone and prints it. Changes are redirections:
 * each changed node is given a replacement (a fresh parameter, the
 * argument of an annotation, a callee's body) in a table by id, and then
 * every use in the clone is pointed at the end of its chain of
 * replacements, so that the nodes left without uses fall away when the
 * clone is printed.
 */
#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "metadata.h"
#include "print.h"
#include "reduce_internal.h"
#include "util.h"

typedef enum ReducePass {
	PASS_DELETE,
	PASS_BYPASS,
	PASS_UNWRAP,
	PASS_INLINE,
	PASS_SHRINK,
	PASS_RENAME,
} ReducePass;

static const char *const pass_names[] = {"delete", "bypass", "unwrap",
					 "inline", "shrink", "rename"};

/* What a candidate changes. */
typedef enum CandidateKind {
	CAND_BINDING, /* id: a node of @main's body, becomes a parameter */
	CAND_LET,     /* id: a let of @main's body, its variable a parameter */
	CAND_BYPASS,  /* id: an op call, becomes its operand `aux` (same type;
			      one candidate per such operand) */
	CAND_WRAPPER, /* id: an on_device or device_copy, becomes its argument */
	CAND_DEVICE,  /* id: a parameter or function loses its virtual_device */
	CAND_CALL,    /* id: a call, becomes the body of fn `aux` (let `aux2`
			      binds it, or UINT32_MAX) */
	CAND_SHAPE,   /* id: a parameter of @main, all its dimensions 1 */
	CAND_RENAME,  /* every name short (one candidate) */
} CandidateKind;

typedef struct Candidate {
	CandidateKind kind;
	uint32_t id;
	uint32_t aux, aux2;
} Candidate;

typedef struct CandidateList {
	Candidate *items;
	size_t count, cap;
} CandidateList;

/* The working module of a pass: the smallest text so far, parsed, a typed
 * copy by id, and the pass's candidates. */
typedef struct RelayWork {
	const Session *origin;
	const ReduceOptions *opts;
	IrModule *m;
	IrModule *typed;
	Expr **typed_by_id;
	int32_t main; /* index of @main in m, or -1 */
	CandidateList list;
} RelayWork;

/* What the printer gives a line of its own (a `%N = ` binding, a let). */
static bool is_binding(const Expr *e)
{
	return !print_is_atom(e);
}

/* Every node of every global, each once, in post-order. */
static void whole_module(const IrModule *m, ExprVec *out)
{
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	for (uint32_t g = 0; g < m->nglobals; g++)
		ir_postorder(m, m->globals[g].fn, true, seen, out);
	free(seen);
}

size_t reduce_count_bindings(const IrModule *m)
{
	ExprVec order = {0};
	size_t n = 0;
	whole_module(m, &order);
	for (size_t i = 0; i < order.count; i++)
		n += is_binding(order.items[i]);
	for (uint32_t g = 0; g < m->nglobals; g++) {
		/* neither the function nor its result, which prints inline */
		const Expr *tail = m->globals[g].fn->u.fn.body;
		while (tail->kind == EXPR_LET)
			tail = tail->u.let.body;
		n -= 1 + is_binding(tail);
	}
	exprvec_free(&order);
	return n;
}

/* A type a fresh parameter can have: tensors and tuples of them (the
 * planner gives a closure or an ADT value no device of its own to keep). */
static bool parameter_type(const Type *t)
{
	return t && type_is_tensors(t);
}

static bool bit(const uint8_t *bits, uint32_t i)
{
	return bits[i / 8] >> (i % 8) & 1;
}

/* ---- the working module ---- */

/* Loads text into c, a fresh session with origin's devices and settings
 * but not its pins, which the module as reduced carries as annotations.
 * The caller frees c either way. */
static bool scratch_load(const Session *origin, Session *c, const char *text, size_t len)
{
	const char *name = origin->source ? session_module_name(origin) : "reduced";
	SourceFile *src = source_from_string(name, text, len);
	bool ok;
	session_init_like(c, origin);
	pins_clear(&c->pins);
	ok = session_load_source(c, src, name);
	source_release(src);
	return ok;
}

/* Whether m type-checks, on a copy (m is not typed by it). */
static bool type_checks(const IrModule *m)
{
	IrModule *typed = ir_module_clone(m);
	DiagList diags;
	bool ok;
	diag_init(&diags);
	ok = infer_module(typed, &diags) && diags.errors == 0;
	diag_free(&diags);
	ir_module_free(typed);
	return ok;
}

static void work_release(RelayWork *r)
{
	free(r->list.items);
	r->list = (CandidateList){0};
	free(r->typed_by_id);
	if (r->typed)
		ir_module_free(r->typed);
	if (r->m)
		ir_module_free(r->m);
	r->typed_by_id = NULL;
	r->typed = r->m = NULL;
}

/* Parses text as the working module; false when it does not load (it
 * always should: it loaded when it was tested). */
static bool work_load(RelayWork *r, const char *text, size_t len)
{
	Session c;
	DiagList diags;
	work_release(r);
	if (scratch_load(r->origin, &c, text, len))
		r->m = ir_module_retain(session_version(&c, -1)); /* outlives c */
	session_free(&c);
	if (!r->m)
		return false;
	r->typed = ir_module_clone(r->m);
	diag_init(&diags);
	infer_module(r->typed, &diags); /* nodes it could not type are left out */
	diag_free(&diags);
	r->typed_by_id = ir_index_by_id(r->typed);
	r->main = ir_find_global(r->m, "main");
	return true;
}

static const Type *type_of(const RelayWork *r, uint32_t id)
{
	const Expr *e = id < r->typed->nexprs ? r->typed_by_id[id] : NULL;
	return e ? e->type : NULL;
}

/* ---- candidates ---- */

static void add(CandidateList *l, CandidateKind kind, uint32_t id, uint32_t aux, uint32_t aux2)
{
	grow_array((void **)&l->items, &l->cap, l->count + 1, sizeof(Candidate));
	l->items[l->count++] = (Candidate){kind, id, aux, aux2};
}

/* Whether child c of e is a variable e binds (a let's, a function's
 * parameters, a match clause's), not a use of a value. */
static bool binds(const Expr *e, uint32_t c)
{
	return (e->kind == EXPR_LET && c == 1) || (e->kind == EXPR_FN && c < e->u.fn.nparams) ||
	       (e->kind == EXPR_MATCH && c > 0 && ir_match_body_of_child(e, c) < 0);
}

/* Uses of each node in child positions that read a value (not the
 * variable a let, function or match binds). */
static uint32_t *count_uses(const IrModule *m, const ExprVec *all)
{
	uint32_t *uses = xcalloc(m->nexprs, sizeof *uses);
	for (size_t i = 0; i < all->count; i++) {
		const Expr *e = all->items[i];
		uint32_t n = ir_child_count(e);
		for (uint32_t c = 0; c < n; c++)
			if (!binds(e, c))
				uses[ir_child(e, c)->id]++;
	}
	for (uint32_t g = 0; g < m->nglobals; g++)
		uses[m->globals[g].fn->id]++; /* the definition keeps it */
	return uses;
}

/* @main's body without nested functions, in post-order. */
static void main_scope(const RelayWork *r, ExprVec *out)
{
	uint8_t *seen = xcalloc(r->m->nexprs / 8 + 1, 1);
	ir_postorder(r->m, r->m->globals[r->main].fn->u.fn.body, false, seen, out);
	free(seen);
}

static void list_delete(const RelayWork *r, CandidateList *l)
{
	ExprVec scope = {0}, all = {0};
	uint8_t *let_value;
	uint32_t *uses;
	if (r->main < 0)
		return;
	whole_module(r->m, &all);
	uses = count_uses(r->m, &all);
	exprvec_free(&all);
	main_scope(r, &scope);
	let_value = xcalloc(r->m->nexprs / 8 + 1, 1);
	for (size_t i = 0; i < scope.count; i++) {
		const Expr *e = scope.items[i];
		if (e->kind == EXPR_LET)
			let_value[e->u.let.value->id / 8] |=
				(uint8_t)(1u << e->u.let.value->id % 8);
	}
	for (size_t i = 0; i < scope.count; i++) {
		const Expr *e = scope.items[i];
		if (e->kind == EXPR_LET) {
			/* a variable nothing reads goes whatever its type */
			if (!uses[e->u.let.var->id] || parameter_type(type_of(r, e->u.let.var->id)))
				add(l, CAND_LET, e->id, 0, 0);
		} else if (is_binding(e) && e->kind != EXPR_FN && !bit(let_value, e->id) &&
			   parameter_type(type_of(r, e->id))) {
			add(l, CAND_BINDING, e->id, 0, 0);
		}
	}
	free(uses);
	free(let_value);
	exprvec_free(&scope);
}

static void list_bypass(const RelayWork *r, CandidateList *l)
{
	ExprVec all = {0};
	whole_module(r->m, &all);
	for (size_t i = 0; i < all.count; i++) {
		const Expr *e = all.items[i];
		const Type *t = type_of(r, e->id);
		if (e->kind != EXPR_CALL || e->u.call.op == OP_NONE || !t)
			continue;
		for (uint32_t a = 0; a < e->u.call.nargs; a++) {
			const Type *at = type_of(r, e->u.call.args[a]->id);
			if (at && type_equal(at, t))
				add(l, CAND_BYPASS, e->id, a, 0);
		}
	}
	exprvec_free(&all);
}

static void list_unwrap(const RelayWork *r, CandidateList *l)
{
	ExprVec all = {0};
	whole_module(r->m, &all);
	for (size_t i = 0; i < all.count; i++) {
		const Expr *e = all.items[i];
		if ((ir_is_op(e, OP_ON_DEVICE) || ir_is_op(e, OP_DEVICE_COPY)) &&
		    e->u.call.nargs == 1)
			add(l, CAND_WRAPPER, e->id, 0, 0);
		else if ((e->kind == EXPR_FN ||
			  (e->kind == EXPR_VAR && e->u.var.role == VAR_PARAM)) &&
			 e->device != IR_NO_DEVICE)
			add(l, CAND_DEVICE, e->id, 0, 0);
	}
	exprvec_free(&all);
}

static void list_inline(const RelayWork *r, CandidateList *l)
{
	ExprVec all = {0};
	uint32_t *uses, *global_calls = xcalloc(r->m->nglobals + 1, sizeof(uint32_t));
	uint32_t *let_of = xcalloc(r->m->nexprs, sizeof(uint32_t));
	whole_module(r->m, &all);
	uses = count_uses(r->m, &all);
	for (size_t i = 0; i < all.count; i++) {
		const Expr *e = all.items[i];
		if (e->kind == EXPR_GLOBAL && e->u.global.index >= 0)
			global_calls[e->u.global.index]++;
		if (e->kind == EXPR_LET)
			let_of[e->u.let.var->id] = e->id + 1;
	}
	for (size_t i = 0; i < all.count; i++) {
		const Expr *e = all.items[i], *callee, *fn = NULL;
		uint32_t let = UINT32_MAX;
		if (e->kind != EXPR_CALL || e->u.call.op != OP_NONE)
			continue;
		callee = e->u.call.callee;
		if (callee->kind == EXPR_FN && uses[callee->id] == 1) {
			fn = callee;
		} else if (callee->kind == EXPR_VAR && callee->u.var.role == VAR_LET &&
			   callee->u.var.value && callee->u.var.value->kind == EXPR_FN &&
			   uses[callee->id] == 1 && uses[callee->u.var.value->id] == 1 &&
			   let_of[callee->id]) {
			fn = callee->u.var.value;
			let = let_of[callee->id] - 1;
		} else if (callee->kind == EXPR_GLOBAL && callee->u.global.index >= 0 &&
			   callee->u.global.index != r->main &&
			   global_calls[callee->u.global.index] == 1) {
			fn = r->m->globals[callee->u.global.index].fn;
		}
		if (fn && fn->u.fn.nparams == e->u.call.nargs && fn->u.fn.head->ntype_params == 0)
			add(l, CAND_CALL, e->id, fn->id, let);
	}
	free(let_of);
	free(uses);
	free(global_calls);
	exprvec_free(&all);
}

static bool shrinkable(const Type *t)
{
	if (!t)
		return false;
	if (t->kind == TYPE_TUPLE) {
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (shrinkable(t->u.tuple.fields[i]))
				return true;
		return false;
	}
	if (t->kind != TYPE_TENSOR)
		return false;
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		if (t->u.tensor.dims[i] > 1)
			return true;
	return false;
}

static void list_shrink(const RelayWork *r, CandidateList *l)
{
	const Expr *fn;
	if (r->main < 0)
		return;
	fn = r->m->globals[r->main].fn;
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		if (shrinkable(fn->u.fn.params[i]->u.var.annotation))
			add(l, CAND_SHAPE, fn->u.fn.params[i]->id, 0, 0);
}

static void list_candidates(const RelayWork *r, ReducePass pass, CandidateList *l)
{
	switch (pass) {
	case PASS_DELETE:
		list_delete(r, l);
		break;
	case PASS_BYPASS:
		list_bypass(r, l);
		break;
	case PASS_UNWRAP:
		list_unwrap(r, l);
		break;
	case PASS_INLINE:
		list_inline(r, l);
		break;
	case PASS_SHRINK:
		list_shrink(r, l);
		break;
	case PASS_RENAME:
		add(l, CAND_RENAME, 0, 0, 0);
		break;
	}
}

/* ---- building a trial ---- */

/* The text a candidate is tested as: devices index the session's table,
 * which every scratch session shares (reduce_standalone adds the
 * #[metadata] section a file for TVM needs). */
static void print_text(const Session *s, const IrModule *m, StrBuf *out)
{
	PrintOptions opts = {0};
	opts.devices = &s->devices;
	opts.show_metadata = true;
	print_module(out, m, &opts);
}

typedef struct Trial {
	IrModule *c;      /* the clone being changed */
	Expr **by_id;     /* its nodes by id, n0 entries */
	uint32_t n0;      /* ids below it are the working module's */
	Expr **redirect;  /* by id (< n0): what replaces the node, or NULL */
	ExprVec fresh;    /* new parameters of @main, in order */
	bool result_open; /* @main's result may change: drop its written type */
} Trial;

static Expr *resolve(const Trial *t, Expr *e)
{
	for (int guard = 0; e && e->id < t->n0 && t->redirect[e->id] && guard < 1 << 20; guard++)
		e = t->redirect[e->id];
	return e;
}

static bool name_taken(const Expr *fn, const char *name)
{
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		if (fn->u.fn.params[i]->name && strcmp(fn->u.fn.params[i]->name, name) == 0)
			return true;
	return false;
}

/* A new parameter of @main standing for node `e` (of type ty). */
static Expr *fresh_param(RelayWork *r, Trial *t, const Expr *e, const Type *ty)
{
	const Expr *fn = t->c->globals[r->main].fn;
	const char *name = e->name;
	char buf[32];
	Expr *p;
	if (!name || name_taken(fn, name)) {
		snprintf(buf, sizeof buf, "p%u", (unsigned)e->id);
		name = buf;
	}
	p = ir_var(t->c, e->pos, name, VAR_PARAM, (Type *)ty);
	exprvec_push(&t->fresh, p);
	return p;
}

static Type *ones(Arena *arena, const Type *t)
{
	if (t->kind == TYPE_TUPLE) {
		Type **fields = xmalloc(t->u.tuple.nfields * sizeof *fields + 1);
		Type *out;
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			fields[i] = ones(arena, t->u.tuple.fields[i]);
		out = type_tuple(arena, t->u.tuple.nfields, fields);
		free(fields);
		return out;
	}
	if (t->kind == TYPE_TENSOR) {
		int64_t *dims = xmalloc(t->u.tensor.ndim * sizeof *dims + 1);
		Type *out;
		for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
			dims[i] = t->u.tensor.dims[i] == DIM_ANY ? DIM_ANY : 1;
		out = type_tensor(arena, t->u.tensor.dtype, t->u.tensor.ndim, dims);
		free(dims);
		return out;
	}
	return (Type *)t;
}

/* The short name number i: a, ..., z, a1, ..., z1, a2, ... */
static void short_name(char *buf, size_t size, size_t i)
{
	if (i < 26)
		snprintf(buf, size, "%c", (char)('a' + i));
	else
		snprintf(buf, size, "%c%zu", (char)('a' + i % 26), i / 26);
}

static void rename_all(RelayWork *r, Trial *t)
{
	ExprVec all = {0};
	size_t next = 0;
	char buf[32];
	whole_module(t->c, &all);
	for (size_t i = 0; i < all.count; i++) {
		Expr *e = all.items[i];
		if (e->kind == EXPR_GLOBAL || e->kind == EXPR_FN || !e->name ||
		    (r->opts->keep && strcmp(e->name, r->opts->keep) == 0))
			continue;
		if (e->kind != EXPR_VAR || e->u.var.role == VAR_FREE) {
			if (e->kind != EXPR_VAR)
				e->name = NULL; /* a graph binding: numbered afresh */
			continue;
		}
		do
			short_name(buf, sizeof buf, next++);
		while (r->opts->keep && strcmp(buf, r->opts->keep) == 0);
		e->name = arena_strdup(ir_data_arena(t->c), buf);
	}
	exprvec_free(&all);
}

static void apply(RelayWork *r, Trial *t, const Candidate *cand)
{
	Expr *e = cand->id < t->n0 ? t->by_id[cand->id] : NULL;
	if (!e && cand->kind != CAND_RENAME)
		return;
	switch (cand->kind) {
	case CAND_BINDING:
		t->redirect[e->id] = fresh_param(r, t, e, type_of(r, e->id));
		t->result_open = true;
		break;
	case CAND_LET: {
		Expr *var = e->u.let.var;
		if (parameter_type(type_of(r, var->id)))
			t->redirect[var->id] = fresh_param(r, t, var, type_of(r, var->id));
		t->redirect[e->id] = e->u.let.body;
		break;
	}
	case CAND_WRAPPER:
		t->redirect[e->id] = e->u.call.args[0];
		break;
	case CAND_BYPASS:
		t->redirect[e->id] = e->u.call.args[cand->aux];
		break;
	case CAND_DEVICE:
		e->device = IR_NO_DEVICE;
		break;
	case CAND_CALL: {
		Expr *fn = t->by_id[cand->aux];
		for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
			t->redirect[fn->u.fn.params[i]->id] = e->u.call.args[i];
		t->redirect[e->id] = fn->u.fn.body;
		if (cand->aux2 != UINT32_MAX)
			t->redirect[cand->aux2] = t->by_id[cand->aux2]->u.let.body;
		break;
	}
	case CAND_SHAPE:
		e->u.var.annotation = ones(ir_data_arena(t->c), e->u.var.annotation);
		t->result_open = true;
		break;
	case CAND_RENAME:
		rename_all(r, t);
		break;
	}
}

/* Points every use in the clone at the end of its chain of replacements.
 * The variables that lets, functions and matches bind stay where they are. */
static void substitute(Trial *t)
{
	for (uint32_t id = 0; id < t->n0; id++) {
		Expr *e = t->by_id[id];
		uint32_t n;
		if (!e)
			continue;
		if (e->kind == EXPR_VAR && e->u.var.value)
			e->u.var.value = resolve(t, e->u.var.value);
		n = ir_child_count(e);
		for (uint32_t c = 0; c < n; c++) {
			Expr **slot = binds(e, c) ? NULL : ir_child_slot(e, c);
			if (slot)
				*slot = resolve(t, *slot);
		}
	}
}

/* After deleting bindings: the kept candidates nothing reads any more
 * join @main's result, so that deleting a binding deletes only it. */
static void keep_orphans(RelayWork *r, Trial *t, const Candidate *cands, const bool *chosen,
			 size_t n)
{
	Expr *fn = t->c->globals[r->main].fn, **tail = &fn->u.fn.body;
	uint8_t *seen = xcalloc(t->c->nexprs / 8 + 1, 1);
	ExprVec order = {0}, fields = {0};
	ir_postorder(t->c, fn, true, seen, &order);
	while ((*tail)->kind == EXPR_LET)
		tail = &(*tail)->u.let.body;
	for (size_t i = n; i-- > 0;) {
		Expr *e;
		if (chosen[i] || cands[i].kind != CAND_BINDING)
			continue;
		e = t->by_id[cands[i].id];
		if (bit(seen, e->id))
			continue;
		exprvec_push(&fields, e);
		ir_postorder(t->c, e, true, seen, &order);
	}
	if (fields.count) {
		Expr **items = xmalloc((fields.count + 1) * sizeof *items);
		size_t k = 0;
		bool param = (*tail)->kind == EXPR_VAR && (*tail)->id >= t->n0;
		if (!param)
			items[k++] = *tail;
		for (size_t i = fields.count; i-- > 0;)
			items[k++] = fields.items[i];
		*tail = k == 1 ? items[0] : ir_tuple(t->c, (*tail)->pos, items, (uint32_t)k);
		free(items);
	}
	exprvec_free(&fields);
	exprvec_free(&order);
	free(seen);
}

/* Drops what the changes left unused: @main's parameters (the fresh ones
 * are appended first), the global functions @main does not reach, and
 * free variables. */
static void drop_unused(RelayWork *r, Trial *t)
{
	IrModule *c = t->c;
	uint8_t *seen = xcalloc(c->nexprs / 8 + 1, 1);
	ExprVec order = {0};
	bool *keep = xcalloc(c->nglobals + 1, sizeof *keep);
	uint32_t ng = 0, nf = 0;
	Expr *fn = c->globals[r->main].fn;
	Expr **params = arena_array(&c->nodes, fn->u.fn.nparams + t->fresh.count, sizeof(Expr *));
	uint32_t np = 0;

	memcpy(params, fn->u.fn.params, fn->u.fn.nparams * sizeof(Expr *));
	if (t->fresh.count)
		memcpy(params + fn->u.fn.nparams, t->fresh.items, t->fresh.count * sizeof(Expr *));
	ir_postorder(c, fn->u.fn.body, true, seen, &order);
	for (uint32_t i = 0; i < fn->u.fn.nparams + t->fresh.count; i++)
		if (bit(seen, params[i]->id))
			params[np++] = params[i];
	fn->u.fn.params = params;
	fn->u.fn.nparams = np;

	/* the globals @main reaches, through the ones it reaches */
	keep[r->main] = true;
	for (size_t i = 0; i < order.count; i++) {
		const Expr *e = order.items[i];
		int32_t g = e->kind == EXPR_GLOBAL ? ir_find_global(c, e->u.global.name) : -1;
		if (g >= 0 && !keep[g]) {
			keep[g] = true;
			ir_postorder(c, c->globals[g].fn, true, seen, &order);
		}
	}
	for (uint32_t g = 0; g < c->nglobals; g++) /* the module's own array (malloc) */
		if (keep[g])
			c->globals[ng++] = c->globals[g];
	c->nglobals = ng;
	for (size_t i = 0; i < order.count; i++)
		if (order.items[i]->kind == EXPR_GLOBAL)
			order.items[i]->u.global.index =
				ir_find_global(c, order.items[i]->u.global.name);
	for (uint32_t i = 0; i < c->nfree_vars; i++)
		if (bit(seen, c->free_vars[i]->id))
			c->free_vars[nf++] = c->free_vars[i];
	c->nfree_vars = nf;
	free(keep);
	exprvec_free(&order);
	free(seen);
}

/* Drops the #[metadata] constants nothing reads any more (a model's
 * weights are most of its text) and numbers the rest afresh; kept as they
 * are when an attribute names a constant by its number. */
static void drop_unused_constants(Trial *t)
{
	IrModule *c = t->c;
	ExprVec all = {0};
	int64_t *renumber;
	uint32_t n = 0;
	if (c->nconstants == 0)
		return;
	whole_module(c, &all);
	for (size_t i = 0; i < all.count; i++) {
		const Expr *e = all.items[i];
		if (e->kind != EXPR_CALL)
			continue;
		for (uint32_t a = 0; a < e->u.call.nattrs; a++)
			if (e->u.call.attrs[a].value.kind == ATTR_CONSTANT) {
				exprvec_free(&all);
				return;
			}
	}
	renumber = xmalloc(c->nconstants * sizeof *renumber);
	for (uint32_t i = 0; i < c->nconstants; i++)
		renumber[i] = -1;
	for (size_t i = 0; i < all.count; i++) {
		const Expr *e = all.items[i];
		if (e->kind == EXPR_CONSTANT && e->u.constant.meta_index >= 0 &&
		    (uint32_t)e->u.constant.meta_index < c->nconstants)
			renumber[e->u.constant.meta_index] = 0;
	}
	for (uint32_t i = 0; i < c->nconstants; i++)
		if (renumber[i] == 0) {
			renumber[i] = n;
			c->constants[n++] = c->constants[i];
		}
	for (size_t i = 0; i < all.count; i++) {
		Expr *e = all.items[i];
		if (e->kind == EXPR_CONSTANT && e->u.constant.meta_index >= 0 &&
		    (uint32_t)e->u.constant.meta_index < c->nconstants)
			e->u.constant.meta_index = (int32_t)renumber[e->u.constant.meta_index];
	}
	if (n < c->nconstants && c->metadata) {
		/* the section as loaded would carry the dropped weights along:
		 * unless it holds more than devices and constants, the module
		 * gets a fresh one (devices as the session's table numbers them) */
		bool plain = true;
		for (uint32_t k = 0; k < c->metadata->nkeys; k++)
			plain &= strcmp(c->metadata->keys[k].name, "VirtualDevice") == 0 ||
				 strcmp(c->metadata->keys[k].name, "relay.Constant") == 0;
		if (plain)
			c->metadata = NULL;
	}
	c->nconstants = n;
	free(renumber);
	exprvec_free(&all);
}

/* The text of the working module with the chosen candidates applied. */
static char *build(RelayWork *r, const Candidate *cands, const bool *chosen, size_t n, size_t *len)
{
	Trial t = {0};
	StrBuf out;
	t.c = ir_module_clone(r->m);
	t.n0 = t.c->nexprs;
	t.by_id = ir_index_by_id(t.c);
	t.redirect = xcalloc(t.n0 + 1, sizeof *t.redirect);
	for (size_t i = 0; i < n; i++)
		if (chosen[i])
			apply(r, &t, &cands[i]);
	substitute(&t);
	if (r->main >= 0) {
		for (size_t i = 0; i < n; i++)
			if (cands[i].kind == CAND_BINDING) {
				keep_orphans(r, &t, cands, chosen, n);
				break;
			}
		if (t.result_open)
			t.c->globals[r->main].fn->u.fn.ret_type = NULL;
		drop_unused(r, &t);
	}
	drop_unused_constants(&t);
	strbuf_init(&out);
	print_text(r->origin, t.c, &out);
	*len = out.len;
	exprvec_free(&t.fresh);
	free(t.redirect);
	free(t.by_id);
	ir_module_free(t.c);
	return strbuf_detach(&out);
}

/* The elements of @main's parameters, the last measure of size: a shape
 * of ones is smaller than (5, 7) though it prints as long. */
static double input_elements(const IrModule *m)
{
	int32_t g = ir_find_global(m, "main");
	double n = 0;
	if (g < 0)
		return 0;
	for (uint32_t i = 0; i < m->globals[g].fn->u.fn.nparams; i++) {
		int64_t k;
		const Type *t = m->globals[g].fn->u.fn.params[i]->u.var.annotation;
		if (t && type_num_elements(t, &k))
			n += (double)k;
	}
	return n;
}

/* ---- the language's entry points (ReduceLang) ---- */

static void *relay_work_new(const Session *origin, const ReduceOptions *o)
{
	RelayWork *r = xcalloc(1, sizeof *r);
	r->origin = origin;
	r->opts = o;
	return r;
}

static void relay_work_free(void *work)
{
	work_release(work);
	free(work);
}

static bool relay_work_load(void *work, const char *text, size_t len)
{
	return work_load(work, text, len);
}

static size_t relay_list(void *work, size_t pass)
{
	RelayWork *r = work;
	free(r->list.items);
	r->list = (CandidateList){0};
	list_candidates(r, (ReducePass)pass, &r->list);
	return r->list.count;
}

static char *relay_build(void *work, const bool *chosen, size_t n, size_t *len)
{
	RelayWork *r = work;
	return build(r, r->list.items, chosen, n, len);
}

static void relay_measure(Session *c, size_t *bindings, double *elements)
{
	*bindings = reduce_count_bindings(session_version(c, -1));
	*elements = input_elements(session_version(c, -1));
}

static bool relay_type_checks(Session *c)
{
	return type_checks(session_version(c, -1));
}

/* The loaded module with the session's pins written in as annotations. */
static bool relay_start(Session *s, StrBuf *text, size_t *bindings, bool *need_types)
{
	IrModule *loaded = session_version(s, -1), *annotated = NULL;
	size_t npins;
	if (!loaded) {
		diag_error(&s->diags, NULL, (Pos){0, 0}, "no module is loaded");
		return false;
	}
	session_pins(s, &npins);
	if (npins) { /* the module reduced carries them */
		annotated = session_annotate_pins(s, loaded, &s->diags);
		if (!annotated)
			return false;
		loaded = annotated;
	}
	*need_types = type_checks(loaded);
	print_text(s, loaded, text);
	*bindings = reduce_count_bindings(loaded);
	if (annotated)
		ir_module_free(annotated);
	return true;
}

static bool relay_standalone(const Session *s, const char *text, StrBuf *out)
{
	Session c;
	bool ok = scratch_load(s, &c, text, strlen(text));
	if (ok)
		session_print_module(&c, session_version(&c, -1), false, out);
	session_free(&c);
	return ok;
}

const ReduceLang reduce_relay = {
	.passes = pass_names,
	.npasses = sizeof pass_names / sizeof pass_names[0],
	.start = relay_start,
	.load = scratch_load,
	.measure = relay_measure,
	.type_checks = relay_type_checks,
	.work_new = relay_work_new,
	.work_load = relay_work_load,
	.list = relay_list,
	.build = relay_build,
	.work_free = relay_work_free,
	.standalone = relay_standalone,
};
