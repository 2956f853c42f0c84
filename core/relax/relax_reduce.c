/*
 * relax_reduce.c - the Relax candidates of `reduce` (see relax_reduce.h).
 *
 * Applying works in three steps over the freshly parsed module: the
 * chosen candidates fill tables by variable id (a binding dropped, the
 * variable that replaces it, the function it becomes a parameter of) and
 * by function and block; one walk over every block then drops and splices
 * statements and points every use at the end of its chain of
 * replacements; last, functions, result fields and unread parameters go.
 */
#include "relax_reduce.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *const relax_reduce_pass_names[RX_REDUCE_PASSES] = {"delete", "bypass", "hints",
							       "funcs",  "unwrap", "tuples"};

/* Whether s binds a variable of its own (what reduce counts). */
static bool binds_var(const RxStmt *s)
{
	return (s->kind == RX_STMT_BIND || s->kind == RX_STMT_MATCH || s->kind == RX_STMT_IF) &&
	       s->var;
}

static size_t count_block(const RxBlock *b)
{
	size_t n = 0;
	if (!b)
		return 0;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		n += binds_var(s) + count_block(s->then_block) + count_block(s->else_block);
	}
	return n;
}

size_t relax_reduce_count_bindings(const RxModule *m)
{
	size_t n = 0;
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f]->kind == RX_FUNC_RELAX)
			n += count_block(m->funcs[f]->body);
	return n;
}

/* ---- what names what ---- */

static void mark_names(const RxModule *m, const RxExpr *e, uint32_t self, bool *named)
{
	if (!e)
		return;
	if ((e->kind == RX_EXPR_GLOBAL ||
	     (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_GLOBAL)) &&
	    e->name)
		for (uint32_t f = 0; f < m->nfuncs; f++)
			if (f != self && strcmp(m->funcs[f]->name, e->name) == 0)
				named[f] = true;
	for (uint32_t i = 0; i < e->nitems; i++)
		mark_names(m, e->items[i], self, named);
	for (uint32_t i = 0; i < e->nkwargs; i++)
		mark_names(m, e->kwargs[i], self, named);
}

static void mark_block_names(const RxModule *m, const RxBlock *b, uint32_t self, bool *named)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		mark_names(m, s->value, self, named);
		mark_block_names(m, s->then_block, self, named);
		mark_block_names(m, s->else_block, self, named);
	}
	mark_names(m, b->result, self, named);
}

/* named[f]: another function calls or names function f. */
static bool *functions_named(const RxModule *m)
{
	bool *named = xcalloc(m->nfuncs + 1, sizeof *named);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f]->kind == RX_FUNC_RELAX)
			mark_block_names(m, m->funcs[f]->body, f, named);
	return named;
}

/* ---- candidates ---- */

typedef struct List {
	RxCandidate *items;
	size_t count, cap;
	RxReducePass pass;
	uint32_t dataflow;       /* dataflow blocks seen so far */
	const RxExpr **value_of; /* by var id: what a binding binds it to, or NULL */
} List;

static void add(List *l, uint32_t a, uint32_t b)
{
	/* R.add(a, a): one candidate (a binding's are listed together) */
	for (size_t i = l->count; i-- > 0 && l->items[i].a == a;)
		if (l->items[i].b == b)
			return;
	grow_array((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items);
	l->items[l->count++] = (RxCandidate){l->pass, a, b};
}

static bool is_op(const RxExpr *e, const char *name)
{
	return e && e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP && e->name &&
	       strcmp(e->name, name) == 0;
}

/* y = t[i] where t = (..., x, ...): x, the field, when it is a variable
 * of y's struct info; else NULL. */
static const RxVar *projected(const List *l, const RxStmt *s)
{
	const RxExpr *v = s->value, *t;
	if (!v || v->kind != RX_EXPR_GETITEM || v->items[0]->kind != RX_EXPR_VAR)
		return NULL;
	t = l->value_of[v->items[0]->var->id];
	if (!t || t->kind != RX_EXPR_TUPLE || v->index < 0 || (uint64_t)v->index >= t->nitems ||
	    t->items[v->index]->kind != RX_EXPR_VAR || !t->items[v->index]->var->type ||
	    !relax_type_equal(t->items[v->index]->var->type, s->var->type))
		return NULL;
	return t->items[v->index]->var;
}

static void list_stmt(List *l, const RxStmt *s)
{
	const RxExpr *v = s->value;
	const RxVar *field;
	switch (l->pass) {
	case RX_REDUCE_DELETE:
		if (binds_var(s) && s->var->type)
			add(l, s->var->id, 0);
		break;
	case RX_REDUCE_BYPASS:
		if (s->kind == RX_STMT_BIND && s->var->type && (field = projected(l, s)))
			add(l, s->var->id, field->id);
		if (s->kind != RX_STMT_BIND || !s->var->type || !v || v->kind != RX_EXPR_CALL ||
		    v->callee != RX_CALL_OP || is_op(v, "R.hint_on_device") ||
		    is_op(v, "R.to_vdevice"))
			break;
		for (uint32_t i = 0; i < v->nitems; i++)
			if (v->items[i]->kind == RX_EXPR_VAR && v->items[i]->var != s->var &&
			    v->items[i]->var->type &&
			    relax_type_equal(v->items[i]->var->type, s->var->type))
				add(l, s->var->id, v->items[i]->var->id);
		break;
	case RX_REDUCE_HINTS:
		if (s->kind == RX_STMT_BIND &&
		    (is_op(v, "R.hint_on_device") || is_op(v, "R.to_vdevice")) && v->nitems >= 1 &&
		    v->items[0]->kind == RX_EXPR_VAR)
			add(l, s->var->id, v->items[0]->var->id);
		break;
	case RX_REDUCE_UNWRAP:
		if (s->kind == RX_STMT_DATAFLOW)
			add(l, l->dataflow, 0);
		break;
	case RX_REDUCE_FUNCS: /* list_module_level */
	case RX_REDUCE_TUPLES:
	case RX_REDUCE_PASSES:
		break;
	}
	if (s->kind == RX_STMT_DATAFLOW)
		l->dataflow++;
}

static void list_block(List *l, const RxBlock *b)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		if (b->stmts[i]->kind == RX_STMT_BIND && b->stmts[i]->var)
			l->value_of[b->stmts[i]->var->id] = b->stmts[i]->value;
		list_stmt(l, b->stmts[i]);
		list_block(l, b->stmts[i]->then_block);
		list_block(l, b->stmts[i]->else_block);
	}
}

static void list_module_level(List *l, const RxModule *m)
{
	bool *named = functions_named(m);
	uint32_t relax = 0;
	for (uint32_t f = 0; f < m->nfuncs; f++) /* the entry functions */
		relax += m->funcs[f]->kind == RX_FUNC_RELAX && !named[f];
	for (uint32_t f = 0; f < m->nfuncs; f++) {
		const RxFunc *fn = m->funcs[f];
		if (named[f])
			continue;
		if (l->pass == RX_REDUCE_FUNCS && (fn->kind == RX_FUNC_PRIM || relax > 1))
			add(l, f, 0);
		if (l->pass == RX_REDUCE_TUPLES && fn->kind == RX_FUNC_RELAX && fn->body->result &&
		    fn->body->result->kind == RX_EXPR_TUPLE && fn->body->result->nitems > 1)
			for (uint32_t k = 0; k < fn->body->result->nitems; k++)
				add(l, f, k);
	}
	free(named);
}

size_t relax_reduce_candidates(const RxModule *m, RxReducePass pass, RxCandidate **out)
{
	List l = {.pass = pass};
	bool *named = functions_named(m);
	l.value_of = xcalloc(m->nvars + 1, sizeof *l.value_of);
	if (pass == RX_REDUCE_FUNCS || pass == RX_REDUCE_TUPLES)
		list_module_level(&l, m);
	else
		for (uint32_t f = 0; f < m->nfuncs; f++)
			/* a new parameter of a function another one calls would
			 * leave its calls an argument short */
			if (m->funcs[f]->kind == RX_FUNC_RELAX &&
			    !(pass == RX_REDUCE_DELETE && named[f]))
				list_block(&l, m->funcs[f]->body);
	free(named);
	free(l.value_of);
	*out = l.items;
	return l.count;
}

/* ---- applying ---- */

typedef struct Edit {
	RxModule *m;
	bool *drop;         /* by var id: its binding goes */
	RxVar **replace;    /* by var id: what its uses read instead, or NULL */
	int32_t *param_of;  /* by var id: the function it becomes a parameter of, or -1 */
	bool *unwrap;       /* by dataflow ordinal */
	uint32_t ndataflow; /* ordinals handed out so far */
	uint32_t nunwrap;
	bool *drop_func;   /* by function index */
	bool **drop_field; /* by function index: fields of its result, or NULL */
} Edit;

static RxVar *chase(const Edit *e, RxVar *v)
{
	for (uint32_t guard = 0; v && e->replace[v->id] && guard <= e->m->nvars; guard++)
		v = e->replace[v->id];
	return v;
}

static void substitute(const Edit *ed, RxExpr *e)
{
	if (!e)
		return;
	if (e->kind == RX_EXPR_VAR)
		e->var = chase(ed, e->var);
	for (uint32_t i = 0; i < e->nitems; i++)
		substitute(ed, e->items[i]);
	for (uint32_t i = 0; i < e->nkwargs; i++)
		substitute(ed, e->kwargs[i]);
}

static void edit_block(Edit *ed, RxBlock *b);

static void count_dataflow(const RxBlock *b, uint32_t *n)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		*n += b->stmts[i]->kind == RX_STMT_DATAFLOW;
		count_dataflow(b->stmts[i]->then_block, n);
		count_dataflow(b->stmts[i]->else_block, n);
	}
}

/* A dataflow block's outputs once its statements are edited: each the end
 * of its chain, kept when the block still defines it, once. */
static void edit_outputs(Edit *ed, RxStmt *s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->noutputs; i++) {
		RxVar *v = chase(ed, s->outputs[i]);
		bool defined = false, dup = false;
		for (uint32_t k = 0; k < s->then_block->nstmts; k++)
			defined |= binds_var(s->then_block->stmts[k]) &&
				   s->then_block->stmts[k]->var == v;
		for (uint32_t k = 0; k < n; k++)
			dup |= s->outputs[k] == v;
		if (defined && !dup)
			s->outputs[n++] = v;
	}
	s->noutputs = n;
}

/* Appends s, or the statements of a dataflow block unwrapped, to stmts. */
static void keep_stmt(Edit *ed, RxStmt *s, RxStmt ***stmts, uint32_t *n, size_t *cap)
{
	uint32_t ordinal = s->kind == RX_STMT_DATAFLOW ? ed->ndataflow++ : 0;
	if (binds_var(s) && ed->drop[s->var->id]) {
		/* the dataflow blocks it held keep their ordinals */
		count_dataflow(s->then_block, &ed->ndataflow);
		count_dataflow(s->else_block, &ed->ndataflow);
		return;
	}
	substitute(ed, s->value);
	edit_block(ed, s->then_block);
	edit_block(ed, s->else_block);
	if (s->kind == RX_STMT_DATAFLOW && ordinal < ed->nunwrap && ed->unwrap[ordinal]) {
		for (uint32_t k = 0; k < s->then_block->nstmts; k++) {
			grow_array((void **)stmts, cap, *n + 1, sizeof **stmts);
			(*stmts)[(*n)++] = s->then_block->stmts[k];
		}
		return;
	}
	if (s->kind == RX_STMT_DATAFLOW)
		edit_outputs(ed, s);
	grow_array((void **)stmts, cap, *n + 1, sizeof **stmts);
	(*stmts)[(*n)++] = s;
}

static void edit_block(Edit *ed, RxBlock *b)
{
	RxStmt **stmts = NULL;
	uint32_t n = 0;
	size_t cap = 0;
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++)
		keep_stmt(ed, b->stmts[i], &stmts, &n, &cap);
	substitute(ed, b->result);
	b->stmts = arena_array(&ed->m->arena, n ? n : 1, sizeof *b->stmts);
	if (n)
		memcpy(b->stmts, stmts, n * sizeof *stmts);
	b->nstmts = n;
	free(stmts);
}

static void note_use(const RxExpr *e, uint32_t *uses)
{
	if (!e)
		return;
	if (e->kind == RX_EXPR_VAR)
		uses[e->var->id]++;
	for (uint32_t i = 0; i < e->nitems; i++)
		note_use(e->items[i], uses);
	for (uint32_t i = 0; i < e->nkwargs; i++)
		note_use(e->kwargs[i], uses);
}

static void note_block_uses(const RxBlock *b, uint32_t *uses)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		note_use(b->stmts[i]->value, uses);
		note_block_uses(b->stmts[i]->then_block, uses);
		note_block_uses(b->stmts[i]->else_block, uses);
	}
	note_use(b->result, uses);
}

/* The parameters each function gains (in variable order), then the ones
 * nothing reads of every function no other one calls. */
static void edit_params(Edit *ed)
{
	RxModule *m = ed->m;
	uint32_t *uses = xcalloc(m->nvars + 1, sizeof *uses);
	bool *named = functions_named(m);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f]->kind == RX_FUNC_RELAX)
			note_block_uses(m->funcs[f]->body, uses);
	for (uint32_t f = 0; f < m->nfuncs; f++) {
		RxFunc *fn = m->funcs[f];
		uint32_t extra = 0, n = 0;
		RxVar **params;
		if (fn->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t v = 0; v < m->nvars; v++)
			extra += ed->param_of[v] == (int32_t)f;
		params = arena_array(&m->arena, fn->nparams + extra + 1, sizeof *params);
		for (uint32_t i = 0; i < fn->nparams; i++)
			if (named[f] || uses[fn->params[i]->id])
				params[n++] = fn->params[i];
		for (uint32_t v = 0; v < m->nvars; v++)
			if (ed->param_of[v] == (int32_t)f && (named[f] || uses[v]))
				params[n++] = m->vars[v];
		fn->params = params;
		fn->nparams = n;
	}
	free(named);
	free(uses);
}

/* The result without its dropped fields (one always stays), and the
 * declared return type with it when it lists as many. */
static void edit_result(Edit *ed, RxFunc *fn, const bool *drop)
{
	RxExpr *t = fn->body->result;
	RxType *ret = fn->ret, *nt = NULL;
	uint32_t n = 0, nt_fields = 0, total = t->nitems;
	bool all = true;
	for (uint32_t k = 0; k < total; k++)
		all &= drop[k];
	if (ret && ret->kind == RX_TYPE_TUPLE && ret->nfields == total) {
		nt = arena_alloc(&ed->m->arena, sizeof *nt);
		*nt = *ret;
		nt->fields = arena_array(&ed->m->arena, total, sizeof *nt->fields);
	}
	for (uint32_t k = 0; k < total; k++) {
		if (drop[k] && !(all && k + 1 == total))
			continue;
		t->items[n++] = t->items[k];
		if (nt)
			nt->fields[nt_fields++] = ret->fields[k];
	}
	t->nitems = n;
	if (nt) {
		nt->nfields = nt_fields;
		fn->ret = nt;
	} else if (ret && n != total) {
		fn->ret = NULL; /* a return type that is no tuple of these fields */
	}
}

/* Whether the chosen functions leave a Relax one; if not, main (else the
 * last Relax one) stays. */
static void keep_one(Edit *ed)
{
	RxModule *m = ed->m;
	int32_t keep = -1;
	for (uint32_t f = 0; f < m->nfuncs; f++) {
		if (m->funcs[f]->kind != RX_FUNC_RELAX)
			continue;
		if (!ed->drop_func[f])
			return;
		if (keep < 0 || strcmp(m->funcs[keep]->name, "main") != 0)
			keep = (int32_t)f;
	}
	if (keep >= 0)
		ed->drop_func[keep] = false;
}

static void edit_functions(Edit *ed)
{
	RxModule *m = ed->m;
	uint32_t n = 0;
	keep_one(ed);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (ed->drop_field[f])
			edit_result(ed, m->funcs[f], ed->drop_field[f]);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (!ed->drop_func[f])
			m->funcs[n++] = m->funcs[f];
	m->nfuncs = n;
}

/* Where each variable is bound: the function of its binding statement. */
static void note_owner(const RxBlock *b, int32_t f, int32_t *owner, uint32_t *ndataflow)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		if (binds_var(s))
			owner[s->var->id] = f;
		*ndataflow += s->kind == RX_STMT_DATAFLOW;
		note_owner(s->then_block, f, owner, ndataflow);
		note_owner(s->else_block, f, owner, ndataflow);
	}
}

static void choose(Edit *ed, const RxCandidate *c, const int32_t *owner)
{
	RxModule *m = ed->m;
	switch (c->pass) {
	case RX_REDUCE_DELETE:
		if (c->a < m->nvars && owner[c->a] >= 0) {
			ed->drop[c->a] = true;
			ed->param_of[c->a] = owner[c->a];
		}
		break;
	case RX_REDUCE_BYPASS:
	case RX_REDUCE_HINTS:
		if (c->a < m->nvars && c->b < m->nvars && owner[c->a] >= 0) {
			ed->drop[c->a] = true;
			ed->replace[c->a] = m->vars[c->b];
		}
		break;
	case RX_REDUCE_FUNCS:
		if (c->a < m->nfuncs)
			ed->drop_func[c->a] = true;
		break;
	case RX_REDUCE_UNWRAP:
		if (c->a < ed->nunwrap)
			ed->unwrap[c->a] = true;
		break;
	case RX_REDUCE_TUPLES: {
		const RxExpr *t = c->a < m->nfuncs && m->funcs[c->a]->kind == RX_FUNC_RELAX
					  ? m->funcs[c->a]->body->result
					  : NULL;
		if (!t || t->kind != RX_EXPR_TUPLE || c->b >= t->nitems)
			break;
		if (!ed->drop_field[c->a])
			ed->drop_field[c->a] = xcalloc(t->nitems, sizeof(bool));
		ed->drop_field[c->a][c->b] = true;
		break;
	}
	case RX_REDUCE_PASSES:
		break;
	}
}

void relax_reduce_apply(RxModule *m, const RxCandidate *cands, const bool *chosen, size_t n)
{
	Edit ed = {.m = m};
	uint32_t nfuncs = m->nfuncs;
	int32_t *owner = xmalloc((m->nvars + 1) * sizeof *owner);
	ed.drop = xcalloc(m->nvars + 1, sizeof *ed.drop);
	ed.replace = xcalloc(m->nvars + 1, sizeof *ed.replace);
	ed.param_of = xmalloc((m->nvars + 1) * sizeof *ed.param_of);
	ed.drop_func = xcalloc(m->nfuncs + 1, sizeof *ed.drop_func);
	ed.drop_field = xcalloc(m->nfuncs + 1, sizeof *ed.drop_field);
	for (uint32_t v = 0; v <= m->nvars; v++)
		owner[v] = ed.param_of[v] = -1;
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f]->kind == RX_FUNC_RELAX)
			note_owner(m->funcs[f]->body, (int32_t)f, owner, &ed.nunwrap);
	ed.unwrap = xcalloc(ed.nunwrap + 1, sizeof *ed.unwrap);
	for (size_t i = 0; i < n; i++)
		if (chosen[i])
			choose(&ed, &cands[i], owner);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f]->kind == RX_FUNC_RELAX)
			edit_block(&ed, m->funcs[f]->body);
	edit_functions(&ed);
	edit_params(&ed);
	for (uint32_t f = 0; f < nfuncs; f++)
		free(ed.drop_field[f]);
	free(ed.drop_field);
	free(ed.drop_func);
	free(ed.unwrap);
	free(ed.param_of);
	free(ed.replace);
	free(ed.drop);
	free(owner);
}
