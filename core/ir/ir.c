/*
 * ir.c - constructors, cloning and iterative traversal of the IR.
 *
 * Cloning maps old nodes to new ones through an array indexed by id, built
 * in post-order so that children exist before their parents; no recursion,
 * so depth is bounded only by memory.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

static IrData *ir_data_new(IrData *parent)
{
	IrData *d = xcalloc(1, sizeof(IrData));
	arena_init(&d->arena);
	d->parent = parent;
	if (parent)
		parent->refcount++;
	d->refcount = 1;
	return d;
}

/* Drops one reference; the last frees the arena and releases the parent.
 * A loop, not recursion: a chain can be as long as the versions made. */
static void ir_data_release(IrData *d)
{
	while (d && --d->refcount == 0) {
		IrData *parent = d->parent;
		arena_free(&d->arena);
		free(d);
		d = parent;
	}
}

/* The cleanup of an unfinished module (oom.h): its maker's reference. */
static void ir_module_abandon(void *m)
{
	ir_module_free(m);
}

/* A module with no nodes whose data extends parent's (NULL: a first
 * version). */
static IrModule *ir_module_alloc(SourceFile *src, IrData *parent)
{
	IrModule *m = xcalloc(1, sizeof(IrModule));
	m->refcount = 1;
	arena_init(&m->nodes);
	m->data = ir_data_new(parent);
	m->src = source_retain(src);
	m->unfinished = oom_cleanup_add(ir_module_abandon, m);
	return m;
}

void ir_module_commit(IrModule *m)
{
	if (m && m->unfinished) {
		oom_cleanup_remove(m->unfinished);
		m->unfinished = 0;
	}
}

IrModule *ir_module_new(SourceFile *src)
{
	return ir_module_alloc(src, NULL);
}

Arena *ir_data_arena(IrModule *m)
{
	return &m->data->arena;
}

IrModule *ir_module_retain(const IrModule *m)
{
	IrModule *shared = (IrModule *)m;
	shared->refcount++;
	return shared;
}

void ir_module_free(IrModule *m)
{
	if (!m || --m->refcount > 0)
		return;
	ir_module_commit(m); /* forget its cleanup: nothing left to clean */
	source_release(m->src);
	free(m->globals);
	free(m->free_vars);
	free(m->constants);
	arena_free(&m->nodes);
	ir_data_release(m->data);
	free(m);
}

int32_t ir_find_global(const IrModule *m, const char *name)
{
	for (uint32_t i = 0; i < m->nglobals; i++)
		if (strcmp(m->globals[i].name, name) == 0)
			return (int32_t)i;
	return -1;
}

int32_t ir_find_typedef(const IrModule *m, const char *name)
{
	for (uint32_t i = 0; i < m->ntypedefs; i++)
		if (strcmp(m->typedefs[i].name, name) == 0)
			return (int32_t)i;
	return -1;
}

const IrConstructor *ir_constructor(const IrModule *m, uint32_t adt, uint32_t ctor)
{
	DP_ASSERT(adt < m->ntypedefs && ctor < m->typedefs[adt].nctors);
	return &m->typedefs[adt].ctors[ctor];
}

typedef struct NameSearch {
	const char *name;
	const Expr *found; /* the match with the lowest id so far */
} NameSearch;

static bool match_name(Expr *e, void *arg)
{
	NameSearch *search = arg;
	if (e->name && strcmp(e->name, search->name) == 0 &&
	    (!search->found || e->id < search->found->id))
		search->found = e;
	return true;
}

typedef struct IdSearch {
	uint32_t id;
	const Expr *found;
} IdSearch;

static bool match_id(Expr *e, void *arg)
{
	IdSearch *search = arg;
	if (e->id != search->id)
		return true;
	search->found = e;
	return false;
}

void ir_set_aliases(IrModule *m, const IrAlias *items, uint32_t n)
{
	IrAlias *copy = n ? arena_array(ir_data_arena(m), n, sizeof(IrAlias)) : NULL;
	if (n)
		memcpy(copy, items, n * sizeof(IrAlias));
	m->aliases = copy;
	m->naliases = n;
}

const Expr *ir_find_value(const IrModule *m, const char *name)
{
	NameSearch search = {name[0] == '%' ? name + 1 : name, NULL};
	ir_module_visit(m, match_name, &search);
	for (uint32_t i = 0; !search.found && i < m->naliases; i++)
		if (strcmp(m->aliases[i].name, search.name) == 0) {
			IdSearch by_id = {m->aliases[i].target, NULL};
			ir_module_visit(m, match_id, &by_id);
			return by_id.found;
		}
	return search.found;
}

const Expr *ir_find_named(const IrModule *m, const char *word)
{
	if (word[0] == '@') {
		int32_t g = ir_find_global(m, word + 1);
		return g >= 0 ? m->globals[g].fn : NULL;
	}
	return ir_find_value(m, word);
}

typedef struct NameSuggest {
	Suggestions *suggestions;
	StrBuf name;
} NameSuggest;

static bool suggest_name(Expr *e, void *arg)
{
	NameSuggest *ns = arg;
	if (!e->name)
		return true;
	strbuf_reset(&ns->name);
	strbuf_printf(&ns->name, "%%%s", e->name);
	suggest_consider(ns->suggestions, ns->name.data);
	return true;
}

void ir_suggest_names(const IrModule *m, const char *word, StrBuf *out)
{
	Suggestions s;
	NameSuggest ns = {&s, {0}};
	/* what was typed, with the sigil it names values by */
	char *typed = word[0] == '%' || word[0] == '@' ? xstrdup(word) : xasprintf("%%%s", word);
	suggest_init(&s, typed);
	strbuf_init(&ns.name);
	if (m) {
		if (word[0] != '@') {
			ir_module_visit(m, suggest_name, &ns);
			for (uint32_t i = 0; i < m->naliases; i++) {
				strbuf_reset(&ns.name);
				strbuf_printf(&ns.name, "%%%s", m->aliases[i].name);
				suggest_consider(&s, ns.name.data);
			}
		}
		for (uint32_t i = 0; i < m->nglobals; i++) {
			strbuf_reset(&ns.name);
			strbuf_printf(&ns.name, "@%s", m->globals[i].name);
			suggest_consider(&s, ns.name.data);
		}
	}
	suggest_finish(&s, out);
	strbuf_free(&ns.name);
	free(typed);
}

/* One name of the index: an expression's own (alias: the place among the
 * module's aliases, which are searched in order after the names). */
typedef struct IrNameEntry {
	const char *name;
	const Expr *e;
	uint32_t order; /* the id, or the alias's index */
} IrNameEntry;

struct IrNameIndex {
	const IrModule *m;
	IrNameEntry *names, *aliases;
	size_t nnames, naliases;
};

static int name_entry_cmp(const void *a, const void *b)
{
	const IrNameEntry *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The first entry (the lowest order) named name, or NULL. */
static const IrNameEntry *name_entry_find(const IrNameEntry *v, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(v[lo].name, name) == 0 ? &v[lo] : NULL;
}

IrNameIndex *ir_name_index_new(const IrModule *m)
{
	IrNameIndex *ix = xcalloc(1, sizeof *ix);
	Expr **by_id = ir_index_by_id(m);
	ix->m = m;
	ix->names = xmalloc((m->nexprs + 1) * sizeof *ix->names);
	for (uint32_t id = 0; id < m->nexprs; id++)
		if (by_id[id] && by_id[id]->name)
			ix->names[ix->nnames++] = (IrNameEntry){by_id[id]->name, by_id[id], id};
	ix->aliases = xmalloc((m->naliases + 1) * sizeof *ix->aliases);
	for (uint32_t i = 0; i < m->naliases; i++) {
		uint32_t target = m->aliases[i].target;
		ix->aliases[ix->naliases++] = (IrNameEntry){
			m->aliases[i].name, target < m->nexprs ? by_id[target] : NULL, i};
	}
	qsort(ix->names, ix->nnames, sizeof *ix->names, name_entry_cmp);
	qsort(ix->aliases, ix->naliases, sizeof *ix->aliases, name_entry_cmp);
	free(by_id);
	return ix;
}

const Expr *ir_name_index_find(const IrNameIndex *ix, const char *word)
{
	const IrNameEntry *hit;
	const char *name = word[0] == '%' ? word + 1 : word;
	if (word[0] == '@')
		return ir_find_named(ix->m, word);
	hit = name_entry_find(ix->names, ix->nnames, name);
	if (!hit)
		hit = name_entry_find(ix->aliases, ix->naliases, name);
	return hit ? hit->e : NULL;
}

void ir_name_index_free(IrNameIndex *ix)
{
	if (!ix)
		return;
	free(ix->names);
	free(ix->aliases);
	free(ix);
}

Expr *ir_new(IrModule *m, ExprKind kind, Pos pos)
{
	Expr *e = arena_alloc(&m->nodes, sizeof(Expr));
	e->kind = kind;
	e->device = IR_NO_DEVICE;
	e->id = m->nexprs++;
	DP_ASSERT(m->nexprs != 0);
	e->pos = pos;
	return e;
}

static Expr **copy_exprs(IrModule *m, Expr *const *items, uint32_t n)
{
	Expr **out = arena_array(&m->nodes, n, sizeof(Expr *));
	if (n)
		memcpy(out, items, n * sizeof(Expr *));
	return out;
}

static const char *copy_name(IrModule *m, const char *name)
{
	return name ? arena_strdup(ir_data_arena(m), name) : NULL;
}

Expr *ir_var(IrModule *m, Pos pos, const char *name, VarRole role, Type *annotation)
{
	Expr *e = ir_new(m, EXPR_VAR, pos);
	e->name = copy_name(m, name);
	e->u.var.role = role;
	e->u.var.annotation = annotation;
	e->type = annotation;
	return e;
}

Expr *ir_global_ref(IrModule *m, Pos pos, const char *name)
{
	Expr *e = ir_new(m, EXPR_GLOBAL, pos);
	e->u.global.name = copy_name(m, name);
	e->u.global.index = -1;
	return e;
}

static AttrValue copy_attr_value(IrModule *m, const AttrValue *v)
{
	AttrValue out = *v;
	if (v->kind == ATTR_STRING)
		out.u.s = copy_name(m, v->u.s);
	else if (v->kind == ATTR_META)
		out.u.meta.kind = copy_name(m, v->u.meta.kind);
	else if (v->kind == ATTR_LIST) {
		out.u.list.items = arena_array(ir_data_arena(m), v->u.list.n, sizeof(AttrValue));
		for (uint32_t i = 0; i < v->u.list.n; i++)
			out.u.list.items[i] = copy_attr_value(m, &v->u.list.items[i]);
	}
	return out;
}

static Attr *copy_attrs(IrModule *m, const Attr *attrs, uint32_t n)
{
	Attr *out = arena_array(ir_data_arena(m), n, sizeof(Attr));
	for (uint32_t i = 0; i < n; i++) {
		out[i].name = copy_name(m, attrs[i].name);
		out[i].pos = attrs[i].pos;
		out[i].value = copy_attr_value(m, &attrs[i].value);
	}
	return out;
}

Expr *ir_call_op(IrModule *m, Pos pos, OpKind op, Expr *const *args, uint32_t nargs,
		 const Attr *attrs, uint32_t nattrs)
{
	Expr *e = ir_new(m, EXPR_CALL, pos);
	e->u.call.op = op;
	e->u.call.args = copy_exprs(m, args, nargs);
	e->u.call.nargs = nargs;
	e->u.call.attrs = copy_attrs(m, attrs, nattrs);
	e->u.call.nattrs = nattrs;
	return e;
}

Expr *ir_call_unknown(IrModule *m, Pos pos, const UnknownOp *unknown, Expr *const *args,
		      uint32_t nargs)
{
	Expr *e = ir_new(m, EXPR_CALL, pos);
	e->u.call.op = OP_UNKNOWN;
	e->u.call.unknown = unknown;
	e->u.call.args = copy_exprs(m, args, nargs);
	e->u.call.nargs = nargs;
	return e;
}

const char *ir_call_op_name(const Expr *call)
{
	DP_ASSERT(call->kind == EXPR_CALL && call->u.call.op != OP_NONE);
	if (call->u.call.op == OP_UNKNOWN) /* NULL only in damaged IR the verifier names */
		return call->u.call.unknown ? call->u.call.unknown->name : "unknown-op";
	return op_info(call->u.call.op)->name;
}

Expr *ir_call_expr(IrModule *m, Pos pos, Expr *callee, Expr *const *args, uint32_t nargs)
{
	Expr *e = ir_new(m, EXPR_CALL, pos);
	e->u.call.op = OP_NONE;
	e->u.call.callee = callee;
	e->u.call.args = copy_exprs(m, args, nargs);
	e->u.call.nargs = nargs;
	return e;
}

void ir_set_call_attrs(IrModule *m, Expr *call, const Attr *attrs, uint32_t nattrs)
{
	DP_ASSERT(call->kind == EXPR_CALL);
	call->u.call.attrs = copy_attrs(m, attrs, nattrs);
	call->u.call.nattrs = nattrs;
}

Expr *ir_let(IrModule *m, Pos pos, Expr *var, Expr *value, Expr *body)
{
	Expr *e = ir_new(m, EXPR_LET, pos);
	e->u.let.var = var;
	e->u.let.value = value;
	e->u.let.body = body;
	var->u.var.role = VAR_LET;
	var->u.var.value = value;
	return e;
}

const FnHead ir_empty_fn_head = {NULL, 0, 0, NULL};

Expr *ir_fn(IrModule *m, Pos pos, Expr *const *params, uint32_t nparams, Type *ret_type, Expr *body)
{
	Expr *e = ir_new(m, EXPR_FN, pos);
	e->u.fn.params = copy_exprs(m, params, nparams);
	e->u.fn.nparams = nparams;
	e->u.fn.ret_type = ret_type;
	e->u.fn.body = body;
	e->u.fn.head = &ir_empty_fn_head;
	return e;
}

Expr *ir_tuple(IrModule *m, Pos pos, Expr *const *fields, uint32_t nfields)
{
	Expr *e = ir_new(m, EXPR_TUPLE, pos);
	e->u.tuple.fields = copy_exprs(m, fields, nfields);
	e->u.tuple.nfields = nfields;
	return e;
}

Expr *ir_proj(IrModule *m, Pos pos, Expr *tuple, uint32_t index)
{
	Expr *e = ir_new(m, EXPR_PROJ, pos);
	e->u.proj.tuple = tuple;
	e->u.proj.index = index;
	return e;
}

Expr *ir_if(IrModule *m, Pos pos, Expr *cond, Expr *then_branch, Expr *else_branch)
{
	Expr *e = ir_new(m, EXPR_IF, pos);
	e->u.if_.cond = cond;
	e->u.if_.then_branch = then_branch;
	e->u.if_.else_branch = else_branch;
	return e;
}

Expr *ir_construct(IrModule *m, Pos pos, uint32_t adt, uint32_t ctor, Expr *const *args,
		   uint32_t nargs)
{
	Expr *e = ir_new(m, EXPR_CONSTRUCT, pos);
	e->u.construct.adt = adt;
	e->u.construct.ctor = ctor;
	e->u.construct.nargs = nargs;
	e->u.construct.args = copy_exprs(m, args, nargs);
	e->u.construct.name = ir_constructor(m, adt, ctor)->name;
	return e;
}

Expr *ir_op_value(IrModule *m, Pos pos, OpKind op)
{
	Expr *e = ir_new(m, EXPR_OP_VALUE, pos);
	DP_ASSERT(op < OP_COUNT);
	e->u.op_value.op = op;
	e->u.op_value.name = op_info(op)->name;
	return e;
}

Expr *ir_constructor_value(IrModule *m, Pos pos, uint32_t adt, uint32_t ctor)
{
	Expr *e = ir_new(m, EXPR_OP_VALUE, pos);
	e->u.op_value.op = OP_NONE;
	e->u.op_value.adt = adt;
	e->u.op_value.ctor = ctor;
	e->u.op_value.name = ir_constructor(m, adt, ctor)->name;
	return e;
}

Expr *ir_match(IrModule *m, Pos pos, Expr *scrutinee, const MatchClause *clauses,
	       Expr *const *bodies, uint32_t nclauses, Expr *const *vars, uint32_t nvars,
	       bool complete)
{
	Expr *e = ir_new(m, EXPR_MATCH, pos);
	DP_ASSERT(nvars < (1u << 31));
	e->u.match.scrutinee = scrutinee;
	e->u.match.clauses = clauses;
	e->u.match.bodies = copy_exprs(m, bodies, nclauses);
	e->u.match.nclauses = nclauses;
	e->u.match.vars = copy_exprs(m, vars, nvars);
	e->u.match.nvars = nvars;
	for (uint32_t i = 0; i < nvars; i++)
		e->u.match.vars[i]->u.var.value = e;
	e->u.match.complete = complete;
	return e;
}

/* Where child i >= 1 of a match is held: clause k's variables, then its
 * body. Clause k starts at child 1 + first_var + k, which grows with k,
 * so the clause is found by halving: a match of many clauses costs log n
 * per child. */
static Expr **match_slot(const Expr *e, uint32_t i, int32_t *clause, bool *is_body)
{
	uint32_t lo = 0, hi = e->u.match.nclauses, off;
	const MatchClause *c;
	while (lo < hi) { /* the first clause starting after i */
		uint32_t mid = lo + (hi - lo) / 2;
		if (1 + e->u.match.clauses[mid].first_var + mid <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	DP_ASSERT(lo > 0);
	c = &e->u.match.clauses[lo - 1];
	off = i - (1 + c->first_var + (lo - 1));
	*clause = (int32_t)(lo - 1);
	*is_body = off >= c->nvars;
	if (off < c->nvars)
		return &e->u.match.vars[c->first_var + off];
	DP_ASSERT(off == c->nvars);
	return &e->u.match.bodies[lo - 1];
}

int32_t ir_match_clause_of_child(const Expr *match, uint32_t i)
{
	int32_t clause = -1;
	bool is_body;
	if (i == 0 || i >= ir_child_count(match))
		return -1;
	match_slot(match, i, &clause, &is_body);
	return clause;
}

int32_t ir_match_body_of_child(const Expr *match, uint32_t i)
{
	int32_t clause = -1;
	bool is_body = false;
	if (i == 0 || i >= ir_child_count(match))
		return -1;
	match_slot(match, i, &clause, &is_body);
	return is_body ? clause : -1;
}

static void copy_tensor(IrModule *m, Tensor *dst, const Tensor *src)
{
	*dst = *src;
	dst->shape = arena_array(ir_data_arena(m), src->ndim, sizeof(int64_t));
	if (src->ndim)
		memcpy(dst->shape, src->shape, src->ndim * sizeof(int64_t));
	dst->data = arena_alloc(ir_data_arena(m), src->nbytes);
	if (src->nbytes)
		memcpy(dst->data, src->data, src->nbytes);
}

Expr *ir_constant(IrModule *m, Pos pos, const Tensor *value, int32_t meta_index)
{
	Expr *e = ir_new(m, EXPR_CONSTANT, pos);
	copy_tensor(m, &e->u.constant.tensor, value);
	e->u.constant.meta_index = meta_index;
	e->type = type_tensor(ir_data_arena(m), value->dtype, value->ndim, value->shape);
	return e;
}

uint32_t ir_add_global(IrModule *m, const char *name, Expr *fn, Pos pos)
{
	uint32_t n = m->nglobals;
	/* a plain heap array whose capacity is max(4, the next power of two) */
	if (n == 0 || (n >= 4 && (n & (n - 1)) == 0))
		m->globals = xrealloc(m->globals, (n ? 2 * (size_t)n : 4) * sizeof(IrGlobal));
	m->globals[m->nglobals].name = copy_name(m, name);
	m->globals[m->nglobals].fn = fn;
	m->globals[m->nglobals].pos = pos;
	m->globals[m->nglobals].type_params = NULL;
	m->globals[m->nglobals].ntype_params = 0;
	return m->nglobals++;
}

const char *ir_span(const IrModule *m, const Expr *e)
{
	const IrSpans *spans = m->spans;
	uint32_t lo = 0, hi;
	if (!spans)
		return NULL;
	while (e->id >= spans->nparsed) {
		if (e->kind == EXPR_VAR)
			return NULL;
		if (!(ir_is_op(e, OP_DEVICE_COPY) || ir_is_op(e, OP_ON_DEVICE)) ||
		    e->u.call.nargs != 1)
			break;
		e = e->u.call.args[0];
	}
	hi = spans->count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		Pos at = spans->items[mid].pos;
		if (at.line == e->pos.line && at.col == e->pos.col)
			return spans->items[mid].text;
		if (at.line < e->pos.line || (at.line == e->pos.line && at.col < e->pos.col))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const Attr *ir_attr(const Expr *e, const char *name)
{
	const Attr *attrs = NULL;
	uint32_t n = 0;
	if (e->kind == EXPR_CALL) {
		attrs = e->u.call.attrs;
		n = e->u.call.nattrs;
	} else if (e->kind == EXPR_FN) {
		attrs = e->u.fn.head->attrs;
		n = e->u.fn.head->nattrs;
	}
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(attrs[i].name, name) == 0)
			return &attrs[i];
	return NULL;
}

bool ir_fn_is_primitive(const Expr *fn)
{
	const Attr *a = fn->kind == EXPR_FN ? ir_attr(fn, "Primitive") : NULL;
	if (!a)
		return false;
	return (a->value.kind == ATTR_INT && a->value.u.i != 0) ||
	       (a->value.kind == ATTR_BOOL && a->value.u.b);
}

static int32_t attr_device(const Expr *e, const char *name)
{
	const Attr *a = ir_attr(e, name);
	return a && a->value.kind == ATTR_DEVICE ? a->value.u.device : IR_NO_DEVICE;
}

static bool attr_bool(const Expr *e, const char *name, bool dflt)
{
	const Attr *a = ir_attr(e, name);
	if (!a)
		return dflt;
	if (a->value.kind == ATTR_BOOL)
		return a->value.u.b;
	if (a->value.kind == ATTR_INT)
		return a->value.u.i != 0;
	return dflt;
}

void ir_on_device_props(const Expr *call, int32_t *device, bool *constrain_body,
			bool *constrain_result)
{
	DP_ASSERT(ir_is_op(call, OP_ON_DEVICE));
	*device = attr_device(call, "virtual_device");
	*constrain_body = attr_bool(call, "constrain_body", true);
	*constrain_result = attr_bool(call, "constrain_result", false);
}

void ir_device_copy_props(const Expr *call, int32_t *src, int32_t *dst)
{
	DP_ASSERT(ir_is_op(call, OP_DEVICE_COPY));
	*src = attr_device(call, "src_virtual_device");
	*dst = attr_device(call, "dst_virtual_device");
}

const Expr *ir_copy_source(const Expr *copy)
{
	const Expr *v = copy->u.call.args[0];
	DP_ASSERT(ir_is_op(copy, OP_DEVICE_COPY));
	while (ir_is_op(v, OP_ON_DEVICE) && v->u.call.nargs == 1)
		v = v->u.call.args[0];
	return v;
}

bool ir_is_op(const Expr *e, OpKind op)
{
	return e->kind == EXPR_CALL && e->u.call.op == op;
}

static Attr device_attr(const char *name, int32_t device, Pos pos)
{
	Attr a = {.name = name, .pos = pos};
	a.value.kind = ATTR_DEVICE;
	a.value.u.device = device;
	return a;
}

Expr *ir_device_copy(IrModule *m, Pos pos, Expr *value, int32_t src, int32_t dst)
{
	Attr attrs[2] = {device_attr("src_virtual_device", src, pos),
			 device_attr("dst_virtual_device", dst, pos)};
	Expr *e = ir_call_op(m, pos, OP_DEVICE_COPY, &value, 1, attrs, 2);
	e->type = value->type;
	return e;
}

Expr *ir_on_device(IrModule *m, Pos pos, Expr *value, int32_t device)
{
	Attr attr = device_attr("virtual_device", device, pos);
	Expr *e = ir_call_op(m, pos, OP_ON_DEVICE, &value, 1, &attr, 1);
	e->type = value->type;
	return e;
}

void ir_set_device_copy(IrModule *m, Expr *call, int32_t src, int32_t dst)
{
	Attr attrs[2] = {device_attr("src_virtual_device", src, call->pos),
			 device_attr("dst_virtual_device", dst, call->pos)};
	DP_ASSERT(call->kind == EXPR_CALL && call->u.call.nargs == 1);
	call->u.call.op = OP_DEVICE_COPY;
	call->u.call.attrs = copy_attrs(m, attrs, 2);
	call->u.call.nattrs = 2;
}

void ir_set_on_device_fixed(IrModule *m, Expr *call, int32_t device)
{
	Attr attrs[2] = {device_attr("virtual_device", device, call->pos),
			 {.name = "constrain_result", .pos = call->pos}};
	DP_ASSERT(call->kind == EXPR_CALL && call->u.call.nargs == 1);
	attrs[1].value.kind = ATTR_BOOL;
	attrs[1].value.u.b = true;
	call->u.call.op = OP_ON_DEVICE;
	call->u.call.attrs = copy_attrs(m, attrs, 2);
	call->u.call.nattrs = 2;
}

void ir_wrap_in_on_device(IrModule *m, Expr *e, int32_t device, bool fixed)
{
	Expr *inner = ir_new(m, e->kind, e->pos);
	Expr *wrapper;
	uint32_t id = inner->id;
	Type *type = e->type;
	DP_ASSERT(e->kind != EXPR_VAR);
	*inner = *e;
	inner->id = id;
	wrapper = ir_on_device(m, e->pos, inner, device);
	if (fixed)
		ir_set_on_device_fixed(m, wrapper, device);
	id = e->id;
	*e = *wrapper;
	e->id = id;
	e->name = NULL;
	e->name_generated = false;
	e->type = type;
}

const Attr *ir_fixed_on_device_attrs(IrModule *m, int32_t device)
{
	Attr *a = arena_array(ir_data_arena(m), 2, sizeof(Attr));
	a[0] = device_attr("virtual_device", device, (Pos){0, 0});
	a[1] = (Attr){.name = "constrain_result"};
	a[1].value.kind = ATTR_BOOL;
	a[1].value.u.b = true;
	return a;
}

const Attr *ir_device_copy_attrs(IrModule *m, int32_t src, int32_t dst)
{
	Attr *a = arena_array(ir_data_arena(m), 2, sizeof(Attr));
	a[0] = device_attr("src_virtual_device", src, (Pos){0, 0});
	a[1] = device_attr("dst_virtual_device", dst, (Pos){0, 0});
	return a;
}

Expr *ir_call_shared_attrs(IrModule *m, Pos pos, OpKind op, Expr *value, const Attr *attrs,
			   uint32_t nattrs)
{
	Expr *e = ir_new(m, EXPR_CALL, pos);
	e->u.call.op = op;
	e->u.call.args = copy_exprs(m, &value, 1);
	e->u.call.nargs = 1;
	e->u.call.attrs = (Attr *)attrs;
	e->u.call.nattrs = nattrs;
	e->type = value->type;
	return e;
}

uint32_t ir_child_count(const Expr *e)
{
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
		return 0;
	case EXPR_CALL:
		return e->u.call.nargs + (e->u.call.op == OP_NONE ? 1 : 0);
	case EXPR_LET:
		return 3;
	case EXPR_FN:
		return e->u.fn.nparams + 1;
	case EXPR_TUPLE:
		return e->u.tuple.nfields;
	case EXPR_PROJ:
		return 1;
	case EXPR_IF:
		return 3;
	case EXPR_CONSTRUCT:
		return e->u.construct.nargs;
	case EXPR_MATCH:
		return 1 + e->u.match.nvars + e->u.match.nclauses;
	}
	return 0;
}

Expr **ir_child_slot(Expr *e, uint32_t i)
{
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
		break;
	case EXPR_CALL:
		if (e->u.call.op == OP_NONE)
			return i == 0 ? &e->u.call.callee : &e->u.call.args[i - 1];
		return &e->u.call.args[i];
	case EXPR_LET:
		return i == 0 ? &e->u.let.value : i == 1 ? &e->u.let.var : &e->u.let.body;
	case EXPR_FN:
		return i < e->u.fn.nparams ? &e->u.fn.params[i] : &e->u.fn.body;
	case EXPR_TUPLE:
		return &e->u.tuple.fields[i];
	case EXPR_PROJ:
		return &e->u.proj.tuple;
	case EXPR_IF:
		return i == 0   ? &e->u.if_.cond
		       : i == 1 ? &e->u.if_.then_branch
				: &e->u.if_.else_branch;
	case EXPR_CONSTRUCT:
		return &e->u.construct.args[i];
	case EXPR_MATCH: {
		int32_t clause;
		bool is_body;
		return i == 0 ? &e->u.match.scrutinee : match_slot(e, i, &clause, &is_body);
	}
	}
	DP_ASSERT(!"child slot of a leaf");
	return NULL;
}

Expr *ir_child(const Expr *e, uint32_t i)
{
	/* the slot of a node it does not change: nothing is written */
	return *ir_child_slot((Expr *)e, i);
}

void exprvec_push(ExprVec *v, Expr *e)
{
	if (v->count == v->cap)
		grow_array((void **)&v->items, &v->cap, v->count + 1, sizeof(Expr *));
	v->items[v->count++] = e;
}

void exprvec_free(ExprVec *v)
{
	free(v->items);
	v->items = NULL;
	v->count = v->cap = 0;
}

static bool bit_test(const uint8_t *bits, uint32_t i)
{
	return bits[i >> 3] & (1u << (i & 7));
}

static bool bit_test_and_set(uint8_t *bits, uint32_t i)
{
	bool was = bits[i >> 3] & (1u << (i & 7));
	bits[i >> 3] |= (uint8_t)(1u << (i & 7));
	return was;
}

typedef struct VisitFrame {
	Expr *e;
	uint32_t next_child;
	uint32_t nchildren; /* counted once, when the frame is pushed */
} VisitFrame;

void ir_postorder(const IrModule *m, Expr *root, bool into_functions, uint8_t *seen, ExprVec *out)
{
	VisitFrame *stack = NULL;
	size_t depth = 0, cap = 0;
	(void)m;
	if (!root || bit_test_and_set(seen, root->id))
		return;
	grow_array((void **)&stack, &cap, 64, sizeof(VisitFrame));
	stack[depth++] = (VisitFrame){root, 0, ir_child_count(root)};
	while (depth) {
		VisitFrame *top = &stack[depth - 1];
		if (top->next_child < top->nchildren) {
			Expr *child = ir_child(top->e, top->next_child++);
			if (!bit_test_and_set(seen, child->id)) {
				uint32_t n = child->kind == EXPR_FN && !into_functions
						     ? 0
						     : ir_child_count(child);
				if (depth == cap)
					grow_array((void **)&stack, &cap, depth + 1,
						   sizeof(VisitFrame));
				stack[depth++] = (VisitFrame){child, 0, n};
			}
			continue;
		}
		exprvec_push(out, top->e);
		depth--;
	}
	free(stack);
}

/* Clone: the clone's nodes are laid out by id in chunks of CLONE_CHUNK
 * (ordinary arena pieces, so the memory of a freed version is reused), and
 * the copy of any node is at a known address before it is made: no map,
 * and a variable can point at its value even when a recursive let reaches
 * the variable first. Names, strings, types and constant data are
 * immutable and shared with the source version through its retained
 * IrData (ir_module_clone). */
enum { CLONE_CHUNK_BITS = 11, CLONE_CHUNK = 1u << CLONE_CHUNK_BITS };

static inline Expr *clone_slot(Expr *const *chunks, uint32_t id)
{
	return &chunks[id >> CLONE_CHUNK_BITS][id & (CLONE_CHUNK - 1)];
}

static void clone_node(IrModule *dst, Expr *const *chunks, const Expr *e)
{
	Expr *c = clone_slot(chunks, e->id);
	*c = *e;
#define MAP(x) ((x) ? clone_slot(chunks, (x)->id) : NULL)
	switch (e->kind) {
	case EXPR_VAR:
		c->u.var.value = MAP(e->u.var.value);
		break;
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
		break;
	case EXPR_CALL:
		if (e->u.call.op == OP_NONE)
			c->u.call.callee = MAP(e->u.call.callee);
		c->u.call.args = arena_array(&dst->nodes, e->u.call.nargs, sizeof(Expr *));
		for (uint32_t i = 0; i < e->u.call.nargs; i++)
			c->u.call.args[i] = MAP(e->u.call.args[i]);
		/* attributes are rewritten by replacing the array, never in place */
		break;
	case EXPR_LET:
		c->u.let.var = MAP(e->u.let.var);
		c->u.let.value = MAP(e->u.let.value);
		c->u.let.body = MAP(e->u.let.body);
		break;
	case EXPR_FN:
		c->u.fn.params = arena_array(&dst->nodes, e->u.fn.nparams, sizeof(Expr *));
		for (uint32_t i = 0; i < e->u.fn.nparams; i++)
			c->u.fn.params[i] = MAP(e->u.fn.params[i]);
		c->u.fn.body = MAP(e->u.fn.body);
		break;
	case EXPR_TUPLE:
		c->u.tuple.fields = arena_array(&dst->nodes, e->u.tuple.nfields, sizeof(Expr *));
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			c->u.tuple.fields[i] = MAP(e->u.tuple.fields[i]);
		break;
	case EXPR_PROJ:
		c->u.proj.tuple = MAP(e->u.proj.tuple);
		break;
	case EXPR_IF:
		c->u.if_.cond = MAP(e->u.if_.cond);
		c->u.if_.then_branch = MAP(e->u.if_.then_branch);
		c->u.if_.else_branch = MAP(e->u.if_.else_branch);
		break;
	case EXPR_CONSTRUCT:
		c->u.construct.args =
			arena_array(&dst->nodes, e->u.construct.nargs, sizeof(Expr *));
		for (uint32_t i = 0; i < e->u.construct.nargs; i++)
			c->u.construct.args[i] = MAP(e->u.construct.args[i]);
		break;
	case EXPR_MATCH:
		c->u.match.scrutinee = MAP(e->u.match.scrutinee);
		c->u.match.bodies = arena_array(&dst->nodes, e->u.match.nclauses, sizeof(Expr *));
		for (uint32_t i = 0; i < e->u.match.nclauses; i++)
			c->u.match.bodies[i] = MAP(e->u.match.bodies[i]);
		c->u.match.vars = arena_array(&dst->nodes, e->u.match.nvars, sizeof(Expr *));
		for (uint32_t i = 0; i < e->u.match.nvars; i++)
			c->u.match.vars[i] = MAP(e->u.match.vars[i]);
		break;
	}
#undef MAP
}

IrModule *ir_module_clone(const IrModule *m)
{
	ExprVec order = {0};
	IrModule *c = ir_module_clone_ordered(m, &order);
	exprvec_free(&order);
	return c;
}

/* Lists m's nodes in post-order from its roots (free variables,
 * constants, then globals) into order, with seen (m->nexprs bits) marking
 * them. */
static void list_roots(const IrModule *m, uint8_t *seen, ExprVec *order)
{
	for (uint32_t i = 0; i < m->nfree_vars; i++)
		ir_postorder(m, m->free_vars[i], true, seen, order);
	for (uint32_t i = 0; i < m->nconstants; i++)
		if (m->constants[i])
			ir_postorder(m, m->constants[i], true, seen, order);
	for (uint32_t i = 0; i < m->nglobals; i++)
		ir_postorder(m, m->globals[i].fn, true, seen, order);
}

void ir_module_list(const IrModule *m, ExprVec *order)
{
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	grow_array((void **)&order->items, &order->cap, order->count + m->nexprs + 1,
		   sizeof(Expr *));
	list_roots(m, seen, order);
	free(seen);
}

IrModule *ir_module_clone_ordered(const IrModule *m, ExprVec *new_order)
{
	IrModule *c = ir_module_alloc(m->src, m->data);
	size_t nchunks = (m->nexprs + CLONE_CHUNK - 1) / CLONE_CHUNK;
	Expr **chunks = xmalloc((nchunks ? nchunks : 1) * sizeof(Expr *));
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	size_t first = new_order->count;
	/* the source's post-order, in new_order's tail, then mapped in place */
	grow_array((void **)&new_order->items, &new_order->cap, first + m->nexprs + 1,
		   sizeof(Expr *));
	list_roots(m, seen, new_order);
	/* written below: every slot a node lands in, then the rest zeroed */
	for (size_t k = 0; k < nchunks; k++)
		chunks[k] = arena_alloc_uninit(&c->nodes, CLONE_CHUNK * sizeof(Expr));
	for (size_t i = first; i < new_order->count; i++) {
		const Expr *e = new_order->items[i];
		clone_node(c, chunks, e);
		new_order->items[i] = clone_slot(chunks, e->id);
	}
	/* the slots of ids no root reaches (a phase left them unreachable)
	 * and the last chunk's tail: zeroed, never referenced */
	for (size_t id = 0; id < nchunks * CLONE_CHUNK; id++)
		if (id >= m->nexprs || !bit_test(seen, (uint32_t)id))
			memset(clone_slot(chunks, (uint32_t)id), 0, sizeof(Expr));
	c->nexprs = m->nexprs;
	for (uint32_t i = 0; i < m->nglobals; i++) {
		ir_add_global(c, m->globals[i].name, clone_slot(chunks, m->globals[i].fn->id),
			      m->globals[i].pos);
		c->globals[i].type_params = m->globals[i].type_params;
		c->globals[i].ntype_params = m->globals[i].ntype_params;
	}
	c->typedefs = m->typedefs;
	c->ntypedefs = m->ntypedefs;
	if (m->nfree_vars) {
		c->free_vars = xmalloc(m->nfree_vars * sizeof(Expr *));
		for (uint32_t i = 0; i < m->nfree_vars; i++)
			c->free_vars[i] = clone_slot(chunks, m->free_vars[i]->id);
		c->nfree_vars = m->nfree_vars;
	}
	if (m->nconstants) {
		c->constants = xcalloc(m->nconstants, sizeof(Expr *));
		for (uint32_t i = 0; i < m->nconstants; i++)
			c->constants[i] =
				m->constants[i] ? clone_slot(chunks, m->constants[i]->id) : NULL;
		c->nconstants = m->nconstants;
	}
	c->has_metadata = m->has_metadata;
	c->metadata = m->metadata;
	c->typed = m->typed;
	c->version = m->version;
	c->spans = m->spans;
	c->aliases = m->aliases;
	c->naliases = m->naliases;
	free(chunks);
	free(seen);
	return c;
}

/* Every node reachable from root not yet in `seen`, each once, passed to
 * visit in depth-first pre-order, without recursion; stops early when
 * visit returns false (and then returns false). */
static bool visit_preorder(Expr *root, uint8_t *seen, bool (*visit)(Expr *e, void *arg), void *arg,
			   ExprVec *stack)
{
	if (!root || bit_test_and_set(seen, root->id))
		return true;
	stack->count = 0;
	exprvec_push(stack, root);
	while (stack->count) {
		Expr *e = stack->items[--stack->count];
		uint32_t n = ir_child_count(e);
		if (!visit(e, arg))
			return false;
		for (uint32_t i = n; i-- > 0;) {
			Expr *child = ir_child(e, i);
			if (!bit_test_and_set(seen, child->id))
				exprvec_push(stack, child);
		}
	}
	return true;
}

bool ir_module_visit(const IrModule *m, bool (*visit)(Expr *e, void *arg), void *arg)
{
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	ExprVec stack = {0};
	bool all = true;
	for (uint32_t i = 0; all && i < m->nfree_vars; i++)
		all = visit_preorder(m->free_vars[i], seen, visit, arg, &stack);
	for (uint32_t i = 0; all && i < m->nglobals; i++)
		all = visit_preorder(m->globals[i].fn, seen, visit, arg, &stack);
	exprvec_free(&stack);
	free(seen);
	return all;
}

static bool index_node(Expr *e, void *by_id)
{
	((Expr **)by_id)[e->id] = e;
	return true;
}

Expr **ir_index_by_id(const IrModule *m)
{
	Expr **by_id = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Expr *));
	ir_module_visit(m, index_node, by_id);
	return by_id;
}

void ir_index_by_id_into(const IrModule *m, Expr **by_id)
{
	ir_module_visit(m, index_node, by_id);
}

const Expr *ir_computed_value(const Expr *e)
{
	for (int steps = 0; e && steps < 64; steps++) {
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value)
			e = e->u.var.value;
		else if (e->kind == EXPR_LET)
			e = e->u.let.body;
		else if ((ir_is_op(e, OP_ON_DEVICE) || ir_is_op(e, OP_DEVICE_COPY)) &&
			 e->u.call.nargs == 1)
			e = e->u.call.args[0];
		else
			break;
	}
	return e;
}

const Expr **ir_let_names(const IrModule *m)
{
	const Expr **names = xcalloc(m->nexprs + 1, sizeof(Expr *));
	Expr **by_id = ir_index_by_id(m);
	for (uint32_t id = 0; id < m->nexprs; id++) {
		const Expr *let = by_id[id], *value;
		if (!let || let->kind != EXPR_LET || !let->u.let.var->name)
			continue;
		value = let->u.let.value;
		/* through nested lets, and the on_device a planned let's value
		 * is wrapped in (TVM's form) */
		for (uint32_t steps = 0;
		     (value->kind == EXPR_LET || (ir_is_op(value, OP_ON_DEVICE) &&
						  value->u.call.nargs == 1 && !value->name)) &&
		     steps <= m->nexprs;
		     steps++)
			value = value->kind == EXPR_LET ? value->u.let.body : value->u.call.args[0];
		if (value->id < m->nexprs && !names[value->id])
			names[value->id] = let->u.let.var;
	}
	free(by_id);
	return names;
}

void ir_value_name(StrBuf *out, const Expr *e)
{
	if (e->name) {
		strbuf_printf(out, "%%%s", e->name);
		return;
	}
	ir_value_source_name(out, e);
}

void ir_value_source_name(StrBuf *out, const Expr *e)
{
	if (e->name && !e->name_generated) {
		strbuf_printf(out, "%%%s", e->name);
		return;
	}
	switch (e->kind) {
	case EXPR_CALL:
		if (e->u.call.op != OP_NONE)
			strbuf_puts(out, ir_call_op_name(e));
		else
			strbuf_puts(out, "call");
		break;
	case EXPR_GLOBAL:
		strbuf_printf(out, "@%s", e->u.global.name);
		return;
	case EXPR_CONSTANT:
		strbuf_puts(out, "const");
		break;
	case EXPR_VAR:
		strbuf_puts(out, "var");
		break;
	case EXPR_LET:
		strbuf_puts(out, "let");
		break;
	case EXPR_FN:
		strbuf_puts(out, "fn");
		break;
	case EXPR_TUPLE:
		strbuf_puts(out, "tuple");
		break;
	case EXPR_PROJ:
		strbuf_puts(out, "proj");
		break;
	case EXPR_IF:
		strbuf_puts(out, "if");
		break;
	case EXPR_CONSTRUCT:
		strbuf_puts(out, e->u.construct.name);
		break;
	case EXPR_MATCH:
		strbuf_puts(out, "match");
		break;
	case EXPR_OP_VALUE:
		strbuf_puts(out, e->u.op_value.name);
		break;
	}
	strbuf_printf(out, "@%u:%u", e->pos.line, e->pos.col);
}

void ir_describe_kind(StrBuf *out, const Expr *e)
{
	switch (e->kind) {
	case EXPR_VAR:
		strbuf_puts(out, e->u.var.role == VAR_FREE ? "free variable" : "parameter");
		break;
	case EXPR_GLOBAL:
		strbuf_puts(out, "global function");
		break;
	case EXPR_CONSTANT:
		strbuf_puts(out, "constant");
		break;
	case EXPR_CALL:
		if (e->u.call.op != OP_NONE)
			strbuf_puts(out, ir_call_op_name(e));
		else if (e->u.call.callee->kind == EXPR_GLOBAL)
			strbuf_printf(out, "call @%s", e->u.call.callee->u.global.name);
		else if (e->u.call.callee->name)
			strbuf_printf(out, "call %%%s", e->u.call.callee->name);
		else
			strbuf_puts(out, "call of a closure");
		break;
	case EXPR_FN:
		strbuf_puts(out, "closure");
		break;
	case EXPR_TUPLE:
		strbuf_puts(out, "tuple");
		break;
	case EXPR_PROJ:
		strbuf_printf(out, "field %u of a tuple", e->u.proj.index);
		break;
	case EXPR_IF:
		strbuf_puts(out, "if");
		break;
	case EXPR_MATCH:
		strbuf_puts(out, "match");
		break;
	case EXPR_CONSTRUCT:
		strbuf_printf(out, "constructor %s",
			      e->u.construct.name ? e->u.construct.name : "");
		break;
	case EXPR_LET:
		strbuf_puts(out, "let");
		break;
	case EXPR_OP_VALUE:
		strbuf_printf(out, "%s %s, as a value",
			      e->u.op_value.op == OP_NONE ? "constructor" : "operator",
			      e->u.op_value.name);
		break;
	}
}
