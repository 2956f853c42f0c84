/*
 * relax_lower.c - a realised Relax module written as Relay text (see
 * relax_lower.h); the operator calls are relax_lower_ops.c's.
 *
 * One pass over the entry function's statements in order. Each variable
 * gets a LowerVal (relax_lower_internal.h): a let variable for a call, the
 * value of its source for an alias `x = y`, the fields of a tuple literal,
 * or the shape an R.shape(...) binding names. A tensor's device is its
 * realised vdevice's, or `unplaced` when it has none.
 *
 * A call of another Relax function is inlined: its parameters take the
 * arguments' values and its bindings are written where the call is, with
 * names made unique (`b`, then `b_1`, ...). Inlining rather than a Relay
 * global per function because the callee's declared types are often
 * shapeless (`R.Tensor(dtype="float32", ndim=2)`, as TVM's frontends and
 * the random modules write helpers), while each call site has its
 * arguments' shapes: inlined, every let is typed from actual shapes as in
 * a one-function module, and each binding keeps its own realised vdevice
 * and its own source position. A recursive call cannot be inlined and is
 * a positioned error.
 *
 * `if c:` becomes a Relay `if (%c)` (a scalar bool tensor), each branch
 * its lets and its result; R.match_cast a let annotated with the cast's
 * type (symbolic dims `?`), which Relay's type inference checks when the
 * module is planned and again, with the inputs' shapes, when a run makes
 * it static: a mismatch is an error at that let.
 *
 * Every line written records where in the Relax source it comes from
 * (SourceOrigin, diag.h), so that errors the Relay parser, planner or a
 * run report on the lowered text are reported at the Relax binding.
 */
#include "relax_lower.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "relax_lower_internal.h"

bool lower_error(Lower *L, Pos pos, const char *fmt, const char *arg)
{
	diag_error(L->diags, L->m->src, pos, fmt, arg);
	for (uint32_t i = L->nactive; i-- > 1;)
		diag_note(L->diags, L->m->src, L->calls[i]->pos, "in @%s, called here",
			  L->active[i]->name);
	return false;
}

static bool type_device(Lower *L, const RxType *t, Pos pos, int32_t *device)
{
	int v = t ? relax_type_vdevice(t) : -1;
	if (t && t->kind == RX_TYPE_TUPLE && t->nfields > 0)
		return type_device(L, t->fields[0], pos, device);
	if (v < 0) {
		*device = L->unplaced;
		return true;
	}
	if (L->device_of[v] < 0) {
		StrBuf name;
		bool ok;
		strbuf_init(&name);
		relax_vdevice_name(L->m, v, &name);
		ok = lower_error(L, pos, "vdevice '%s' cannot run: devplan runs llvm and cuda ones",
				 name.data);
		strbuf_free(&name);
		return ok;
	}
	*device = L->device_of[v];
	return true;
}

/* The Relay type of a parameter or a match_cast: symbolic or unknown dims
 * become `?` (run takes their values from the inputs). */
static bool write_type(Lower *L, const RxType *t, Pos pos, StrBuf *sb)
{
	uint32_t n;
	if (t && t->kind == RX_TYPE_TUPLE) {
		strbuf_putc(sb, '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			if (!write_type(L, t->fields[i], pos, sb))
				return false;
		}
		strbuf_puts(sb, t->nfields == 1 ? ",)" : ")");
		return true;
	}
	if (!t || t->kind != RX_TYPE_TENSOR || !t->dtype ||
	    (t->shape && t->shape->kind != PY_TUPLE && t->shape->kind != PY_LIST) ||
	    (!t->shape && t->ndim < 0))
		return lower_error(
			L, pos, "a parameter needs a tensor type with a shape and a dtype to run%s",
			"");
	n = t->shape ? t->shape->nitems : (uint32_t)t->ndim;
	if (n == 0) {
		strbuf_puts(sb, t->dtype);
		return true;
	}
	strbuf_puts(sb, "Tensor[(");
	for (uint32_t i = 0; i < n; i++) {
		const PyExpr *d = t->shape ? t->shape->items[i] : NULL;
		if (i)
			strbuf_puts(sb, ", ");
		strbuf_puts(sb, d && d->kind == PY_INT ? d->text : "?");
	}
	strbuf_printf(sb, "%s), %s]", n == 1 ? "," : "", t->dtype);
	return true;
}

/* One line of the Relay text, indented, coming from pos of the Relax
 * source. */
static void emit(Lower *L, Pos pos, const char *text)
{
	for (int i = 0; i < L->indent; i++)
		strbuf_puts(L->out, "  ");
	strbuf_puts(L->out, text);
	strbuf_putc(L->out, '\n');
	if (L->origin)
		source_origin_line(L->origin, pos, L->call);
}

/* A Relay name for a Relax variable, unique in the text: the name itself
 * the first time, then NAME_1, NAME_2, ... (owned by the set). */
static bool name_used(const Lower *L, const char *name, size_t *slot)
{
	size_t i = hash_bytes(name, strlen(name)) & (L->names_cap - 1);
	while (L->names[i]) {
		if (strcmp(L->names[i], name) == 0) {
			*slot = i;
			return true;
		}
		i = (i + 1) & (L->names_cap - 1);
	}
	*slot = i;
	return false;
}

static const char *fresh_name(Lower *L, const char *base)
{
	char *name = xstrdup(base);
	size_t slot;
	if (2 * (L->nnames + 1) > L->names_cap) {
		char **old = L->names;
		size_t cap = L->names_cap;
		L->names_cap = cap ? 2 * cap : 64;
		L->names = xcalloc(L->names_cap, sizeof *L->names);
		for (size_t i = 0; i < cap; i++)
			if (old[i] && !name_used(L, old[i], &slot))
				L->names[slot] = old[i];
		free(old);
	}
	for (unsigned k = 1; name_used(L, name, &slot); k++) {
		free(name);
		name = xasprintf("%s_%u", base, k);
	}
	L->names[slot] = name;
	L->nnames++;
	return name;
}

static void val_free(LowerVal *v)
{
	for (uint32_t i = 0; i < v->nfields; i++)
		val_free(&v->fields[i]);
	free(v->fields);
	free(v->text);
	memset(v, 0, sizeof *v);
}

static void val_copy(LowerVal *dst, const LowerVal *src)
{
	*dst = *src;
	dst->text = src->text ? xstrdup(src->text) : NULL;
	dst->fields = src->nfields ? xcalloc(src->nfields, sizeof *dst->fields) : NULL;
	for (uint32_t i = 0; i < src->nfields; i++)
		val_copy(&dst->fields[i], &src->fields[i]);
}

/* vals[v] = val (taken over) */
static void set_var(Lower *L, const RxVar *v, LowerVal *val)
{
	val_free(&L->vals[v->id]);
	L->vals[v->id] = *val;
	L->vals[v->id].set = true;
	memset(val, 0, sizeof *val);
}

/* The value of e: a variable's, a tuple's fields, a field, a constant. */
static bool resolve(Lower *L, const RxExpr *e, LowerVal *out)
{
	memset(out, 0, sizeof *out);
	switch (e->kind) {
	case RX_EXPR_VAR:
		if (!L->vals[e->var->id].set)
			return lower_error(L, e->pos, "'%s' has no value that can run here",
					   e->var->name);
		val_copy(out, &L->vals[e->var->id]);
		return true;
	case RX_EXPR_TUPLE:
		out->set = out->is_tuple = true;
		out->device = -1;
		out->fields = xcalloc(e->nitems ? e->nitems : 1, sizeof *out->fields);
		for (uint32_t i = 0; i < e->nitems; i++, out->nfields++)
			if (!resolve(L, e->items[i], &out->fields[i])) {
				val_free(out);
				return false;
			}
		if (out->nfields)
			out->device = out->fields[0].device;
		return true;
	case RX_EXPR_GETITEM: {
		LowerVal base;
		const RxType *t;
		if (!resolve(L, e->items[0], &base))
			return false;
		if (base.is_tuple) {
			bool in = e->index >= 0 && (uint64_t)e->index < base.nfields;
			if (in)
				val_copy(out, &base.fields[e->index]);
			val_free(&base);
			return in || lower_error(L, e->pos, "tuple index out of range%s", "");
		}
		if (!base.text) {
			val_free(&base);
			return lower_error(L, e->pos, "this value is not a tuple: cannot run%s",
					   "");
		}
		t = base.type && base.type->kind == RX_TYPE_TUPLE && e->index >= 0 &&
				    (uint64_t)e->index < base.type->nfields
			    ? base.type->fields[e->index]
			    : NULL;
		out->set = true;
		out->text = xasprintf("%s.%" PRId64, base.text, e->index);
		out->type = t;
		out->device = base.device;
		val_free(&base);
		return !t || type_device(L, t, e->pos, &out->device);
	}
	case RX_EXPR_LITERAL:
		if (e->py && (e->py->kind == PY_FLOAT || e->py->kind == PY_INT)) {
			*out = (LowerVal){.set = true, .device = -1};
			out->text = xasprintf("%sf", e->py->text);
			return true;
		}
		return lower_error(L, e->pos, "this constant cannot run yet%s", "");
	case RX_EXPR_CALL:
		if (e->callee == RX_CALL_OP && strcmp(e->name, "R.const") == 0) {
			StrBuf sb;
			strbuf_init(&sb);
			if (!lower_scalar_const(L, e, &sb)) {
				strbuf_free(&sb);
				return false;
			}
			*out = (LowerVal){.set = true, .device = -1};
			out->text = strbuf_detach(&sb);
			return true;
		}
		break;
	case RX_EXPR_GLOBAL:
		break;
	}
	return lower_error(L, e->pos, "a nested call cannot run (TVM binds every call)%s", "");
}

/* A value as an operand on device want (-1: wherever it is). */
static bool write_val(Lower *L, const LowerVal *v, int32_t want, Pos pos, StrBuf *sb)
{
	if (v->is_tuple) {
		strbuf_putc(sb, '(');
		for (uint32_t i = 0; i < v->nfields; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			if (!write_val(L, &v->fields[i], want, pos, sb))
				return false;
		}
		strbuf_puts(sb, v->nfields == 1 ? ",)" : ")");
		return true;
	}
	if (!v->text)
		return lower_error(L, pos, "a shape is not a tensor: cannot run%s", "");
	if (want >= 0 && v->device >= 0 && v->device != want) {
		strbuf_printf(sb, "device_copy(%s, src_virtual_device=", v->text);
		lower_write_device(sb, v->device);
		strbuf_puts(sb, ", dst_virtual_device=");
		lower_write_device(sb, want);
		strbuf_putc(sb, ')');
	} else {
		strbuf_puts(sb, v->text);
	}
	return true;
}

bool operand(Lower *L, const RxExpr *e, int32_t want, StrBuf *sb)
{
	LowerVal v;
	bool ok = resolve(L, e, &v) && write_val(L, &v, want, e->pos, sb);
	val_free(&v);
	return ok;
}

/* `let %NAME[: annotation] = value;` for var, which then stands for it. */
static void emit_let(Lower *L, Pos pos, const RxVar *var, const char *annotation, const char *value,
		     int32_t device, const RxType *type)
{
	const char *name = fresh_name(L, var->name);
	char *line = xasprintf("let %%%s%s%s = %s;", name, annotation ? ": " : "",
			       annotation ? annotation : "", value);
	LowerVal v = {.set = true, .device = device, .type = type};
	emit(L, pos, line);
	free(line);
	v.text = xasprintf("%%%s", name);
	set_var(L, var, &v);
}

static bool lower_block(Lower *L, const RxBlock *b);
static bool inline_call(Lower *L, const RxStmt *st, const RxExpr *call);

static const RxFunc *find_func(const RxModule *m, const char *name)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i]->name, name) == 0)
			return m->funcs[i];
	return NULL;
}

/* The value of a binding that makes no let: an alias, a tuple, a shape, a
 * declared symbolic dimension. *done when it was one. */
static bool bind_alias(Lower *L, const RxStmt *st, int32_t device, bool *done)
{
	const RxExpr *e = st->value;
	LowerVal v;
	*done = true;
	if (e->kind == RX_EXPR_VAR || e->kind == RX_EXPR_TUPLE) {
		if (!resolve(L, e, &v))
			return false;
		if (e->kind == RX_EXPR_TUPLE)
			v.type = st->var->type;
		set_var(L, st->var, &v);
		return true;
	}
	if (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP && strcmp(e->name, "R.shape") == 0) {
		v = (LowerVal){.set = true, .device = device, .shape = e, .type = st->var->type};
		set_var(L, st->var, &v);
		return true;
	}
	/* `n = T.int64()`: a symbolic dimension declared, which the shapes
	 * name and the run takes from the inputs */
	if (e->kind == RX_EXPR_LITERAL && e->py && e->py->kind == PY_CALL && e->py->nitems == 0)
		return true;
	*done = false;
	return true;
}

static bool lower_bind(Lower *L, const RxStmt *st)
{
	const RxExpr *e = st->value;
	const RxType *type = st->var->type;
	int32_t device;
	StrBuf sb;
	bool ok, done;
	if (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_GLOBAL)
		return inline_call(L, st, e);
	if (!type_device(L, type, st->pos, &device) || !bind_alias(L, st, device, &done))
		return false;
	if (done)
		return true;
	strbuf_init(&sb);
	if (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP &&
	    strcmp(e->name, "R.to_vdevice") == 0) {
		ok = e->nitems == 1 && e->items[0]->kind == RX_EXPR_VAR;
		if (ok)
			ok = operand(L, e->items[0], device, &sb);
		else
			lower_error(L, e->pos, "%s of a tuple cannot run yet", e->name);
	} else if (e->kind == RX_EXPR_CALL) {
		strbuf_puts(&sb, "on_device(");
		ok = lower_call(L, e, type, device, &sb);
		strbuf_puts(&sb, ", virtual_device=");
		lower_write_device(&sb, device);
		strbuf_putc(&sb, ')');
	} else {
		LowerVal v;
		ok = resolve(L, e, &v) && write_val(L, &v, -1, e->pos, &sb);
		if (ok && e->kind == RX_EXPR_GETITEM)
			device = v.device;
		val_free(&v);
	}
	if (ok)
		emit_let(L, st->pos, st->var, NULL, sb.data, device, type);
	strbuf_free(&sb);
	return ok;
}

/* `k = R.match_cast(v, T)`: a let of v annotated with T, which Relay's
 * type inference checks; without a dtype or rank to check, an alias. */
static bool lower_match(Lower *L, const RxStmt *st)
{
	const RxType *t = st->cast;
	LowerVal v;
	StrBuf type, value;
	bool ok;
	if (!resolve(L, st->value, &v))
		return false;
	if (!t || t->kind != RX_TYPE_TENSOR || !t->dtype || (!t->shape && t->ndim < 0) ||
	    v.is_tuple || !v.text) {
		v.type = t ? t : v.type;
		set_var(L, st->var, &v);
		return true;
	}
	strbuf_init(&type);
	strbuf_init(&value);
	ok = write_type(L, t, st->pos, &type) && write_val(L, &v, -1, st->pos, &value);
	if (ok)
		emit_let(L, st->pos, st->var, type.data, value.data, v.device, t);
	strbuf_free(&type);
	strbuf_free(&value);
	val_free(&v);
	return ok;
}

/* One branch: its statements and, last, its result as `var` assigns it. */
static bool lower_branch(Lower *L, const RxBlock *b, const RxVar *var, int32_t device)
{
	RxStmt last = {.kind = RX_STMT_BIND,
		       .pos = b->result_pos,
		       .var = (RxVar *)var,
		       .value = b->result};
	StrBuf sb;
	bool ok;
	L->indent++;
	ok = lower_block(L, b) && lower_bind(L, &last);
	strbuf_init(&sb);
	ok = ok && write_val(L, &L->vals[var->id], device, b->result_pos, &sb);
	if (ok)
		emit(L, b->result_pos, sb.data);
	strbuf_free(&sb);
	L->indent--;
	return ok;
}

/* `y = if c: ... else: ...` as `let %y = if (%c) { ... } else { ... };` */
static bool lower_if(Lower *L, const RxStmt *st)
{
	const char *name;
	StrBuf sb;
	int32_t device;
	bool ok;
	LowerVal v;
	if (!type_device(L, st->var->type, st->pos, &device))
		return false;
	strbuf_init(&sb);
	name = fresh_name(L, st->var->name);
	strbuf_printf(&sb, "let %%%s = if (", name);
	ok = operand(L, st->value, -1, &sb);
	strbuf_puts(&sb, ") {");
	if (ok)
		emit(L, st->pos, sb.data);
	ok = ok && lower_branch(L, st->then_block, st->then_var, device);
	if (ok)
		emit(L, st->pos, "} else {");
	ok = ok && lower_branch(L, st->else_block, st->else_var, device);
	if (ok)
		emit(L, st->pos, "};");
	strbuf_free(&sb);
	v = (LowerVal){.set = true, .device = device, .type = st->var->type};
	v.text = xasprintf("%%%s", name);
	set_var(L, st->var, &v);
	return ok;
}

/* `r = cls.f(args)`: f's body written here with its parameters bound to
 * the arguments' values; r takes f's result. */
static bool inline_call(Lower *L, const RxStmt *st, const RxExpr *call)
{
	const RxFunc *f = find_func(L->m, call->name);
	LowerVal *args;
	SourceCall *frame;
	uint32_t outer = L->call;
	bool ok = true;
	if (!f || f->kind != RX_FUNC_RELAX)
		return lower_error(L, call->pos,
				   f ? "'%s' is not a Relax function (a @T.prim_func or an "
				       "R.ExternFunc): its call cannot run"
				     : "'%s' is not a function of the module: cannot run",
				   call->name);
	for (uint32_t i = 0; i < L->nactive; i++)
		if (L->active[i] == f)
			return lower_error(
				L, call->pos,
				"a recursive call of @%s cannot run: devplan runs a call "
				"by inlining the function",
				f->name);
	if (call->nitems != f->nparams || call->nkwargs)
		return lower_error(L, call->pos,
				   "the call of @%s does not give one argument per "
				   "parameter: cannot run",
				   f->name);
	args = xcalloc(f->nparams + 1, sizeof *args);
	for (uint32_t i = 0; ok && i < f->nparams; i++)
		ok = resolve(L, call->items[i], &args[i]);
	if (ok && L->origin) {
		SourceOrigin *o = L->origin;
		grow_array((void **)&o->calls, &o->calls_cap, o->ncalls + 1, sizeof *o->calls);
		frame = &o->calls[o->ncalls++];
		*frame = (SourceCall){call->pos, xstrdup(f->name), outer};
		L->call = o->ncalls;
	}
	if (L->nactive == L->active_cap) {
		size_t cap = L->active_cap;
		grow_array((void **)&L->active, &L->active_cap, L->nactive + 1, sizeof *L->active);
		grow_array((void **)&L->calls, &cap, L->nactive + 1, sizeof *L->calls);
	}
	L->calls[L->nactive] = call;
	L->active[L->nactive++] = f;
	for (uint32_t i = 0; ok && i < f->nparams; i++)
		set_var(L, f->params[i], &args[i]);
	ok = ok && lower_block(L, f->body);
	if (ok && !f->body->result)
		ok = lower_error(L, f->pos, "@%s returns nothing to run", f->name);
	if (ok) {
		LowerVal r;
		ok = resolve(L, f->body->result, &r);
		if (ok)
			set_var(L, st->var, &r);
	}
	L->nactive--;
	L->call = outer;
	for (uint32_t i = 0; i < f->nparams; i++)
		val_free(&args[i]);
	free(args);
	return ok;
}

static bool lower_stmt(Lower *L, const RxStmt *st)
{
	switch (st->kind) {
	case RX_STMT_BIND:
		return lower_bind(L, st);
	case RX_STMT_DATAFLOW:
		return lower_block(L, st->then_block);
	case RX_STMT_ALIAS:
	case RX_STMT_EXPR:
		return true;
	case RX_STMT_MATCH:
		return lower_match(L, st);
	case RX_STMT_IF:
		return lower_if(L, st);
	}
	return false;
}

static bool lower_block(Lower *L, const RxBlock *b)
{
	for (uint32_t i = 0; i < b->nstmts; i++)
		if (!lower_stmt(L, b->stmts[i]))
			return false;
	return true;
}

/* Whether e calls or names the function name. */
static bool expr_uses(const RxExpr *e, const char *name)
{
	if (!e)
		return false;
	if ((e->kind == RX_EXPR_GLOBAL ||
	     (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_GLOBAL)) &&
	    e->name && strcmp(e->name, name) == 0)
		return true;
	for (uint32_t i = 0; i < e->nitems; i++)
		if (expr_uses(e->items[i], name))
			return true;
	for (uint32_t i = 0; i < e->nkwargs; i++)
		if (expr_uses(e->kwargs[i], name))
			return true;
	return false;
}

static bool block_uses(const RxBlock *b, const char *name)
{
	if (!b)
		return false;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *st = b->stmts[i];
		if (expr_uses(st->value, name) || block_uses(st->then_block, name) ||
		    block_uses(st->else_block, name))
			return true;
	}
	return expr_uses(b->result, name);
}

/* `main`, else the one Relax function no other one calls. */

/* `main`, else the one Relax function no other one calls. */
static const RxFunc *default_entry(const RxModule *m)
{
	const RxFunc *only = NULL;
	size_t n = 0;
	const RxFunc *main_fn = find_func(m, "main");
	if (main_fn && main_fn->kind == RX_FUNC_RELAX)
		return main_fn;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		bool called = false;
		if (m->funcs[i]->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t j = 0; j < m->nfuncs && !called; j++)
			called = j != i && m->funcs[j]->kind == RX_FUNC_RELAX &&
				 block_uses(m->funcs[j]->body, m->funcs[i]->name);
		if (!called) {
			only = m->funcs[i];
			n++;
		}
	}
	return n == 1 ? only : NULL;
}

const RxFunc *relax_lower_entry(const RxModule *m, const char *name, DiagList *diags)
{
	const RxFunc *f;
	Suggestions near;
	StrBuf hint;
	if (!name) {
		if ((f = default_entry(m)))
			return f;
		diag_error(diags, NULL, (Pos){0, 0},
			   "no function to run: the module has no 'main' and not one Relax "
			   "function that no other one calls; name one with --entry @NAME");
		return NULL;
	}
	if (name[0] == '@')
		name++;
	f = find_func(m, name);
	if (f && f->kind == RX_FUNC_RELAX)
		return f;
	if (f) {
		diag_error(diags, NULL, (Pos){0, 0},
			   "@%s is not a Relax function (a @T.prim_func or an R.ExternFunc): the "
			   "entry must be one",
			   name);
		return NULL;
	}
	strbuf_init(&hint);
	{
		char *at = xasprintf("@%s", name);
		suggest_init(&near, at);
		free(at);
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX) {
			char *at = xasprintf("@%s", m->funcs[i]->name);
			suggest_consider(&near, at);
			free(at);
		}
	if (!suggest_finish(&near, &hint)) {
		strbuf_puts(&hint, "; its Relax functions are");
		for (uint32_t i = 0, k = 0; i < m->nfuncs; i++)
			if (m->funcs[i]->kind == RX_FUNC_RELAX)
				strbuf_printf(&hint, "%s @%s", k++ ? "," : "", m->funcs[i]->name);
	}
	diag_error(diags, NULL, (Pos){0, 0}, "no Relax function '@%s' in the module%s", name,
		   hint.data);
	strbuf_free(&hint);
	return NULL;
}

/* `def @main(` and one line per parameter, annotated with its device. */
static bool lower_params(Lower *L, const RxFunc *f)
{
	bool ok = true;
	emit(L, f->pos, "def @main(");
	L->indent++;
	for (uint32_t i = 0; ok && i < f->nparams; i++) {
		const RxVar *p = f->params[i];
		int32_t device;
		StrBuf line;
		LowerVal v;
		if (!type_device(L, p->type, p->pos, &device))
			return false;
		const char *name = fresh_name(L, p->name);
		strbuf_init(&line);
		strbuf_printf(&line, "%%%s {virtual_device=", name);
		lower_write_device(&line, device);
		strbuf_puts(&line, "}: ");
		ok = write_type(L, p->type, p->pos, &line);
		strbuf_puts(&line, i + 1 < f->nparams ? "," : "");
		if (ok)
			emit(L, p->pos, line.data);
		strbuf_free(&line);
		v = (LowerVal){.set = true, .device = device, .type = p->type};
		v.text = xasprintf("%%%s", name);
		set_var(L, p, &v);
	}
	L->indent--;
	if (ok)
		emit(L, f->pos, ") {");
	return ok;
}

bool relax_lower(const RxModule *m, const int32_t *device_of, int32_t unplaced, const char *entry,
		 StrBuf *out, SourceOrigin *origin, DiagList *diags)
{
	const RxFunc *f = relax_lower_entry(m, entry, diags);
	Lower L = {.m = m,
		   .device_of = device_of,
		   .unplaced = unplaced,
		   .diags = diags,
		   .out = out,
		   .origin = origin};
	bool ok;
	if (!f)
		return false;
	if (origin) {
		memset(origin, 0, sizeof *origin);
		origin->file = source_retain((SourceFile *)m->src);
	}
	L.vals = xcalloc(m->nvars ? m->nvars : 1, sizeof *L.vals);
	L.active = xcalloc(1, sizeof *L.active);
	L.calls = xcalloc(1, sizeof *L.calls);
	L.active_cap = 1;
	L.active[L.nactive++] = f;
	emit(&L, f->pos, "#[version = \"0.0.5\"]");
	ok = lower_params(&L, f);
	L.indent = 1;
	ok = ok && lower_block(&L, f->body);
	if (ok && !f->body->result)
		ok = lower_error(&L, f->pos, "'%s' returns nothing to run", f->name);
	if (ok) {
		StrBuf sb;
		strbuf_init(&sb);
		ok = operand(&L, f->body->result, -1, &sb);
		if (ok)
			emit(&L, f->body->result_pos, sb.data);
		strbuf_free(&sb);
	}
	L.indent = 0;
	if (ok)
		emit(&L, f->pos, "}");
	for (uint32_t i = 0; i < m->nvars; i++)
		val_free(&L.vals[i]);
	free(L.vals);
	free(L.active);
	free(L.calls);
	for (size_t i = 0; i < L.names_cap; i++)
		free(L.names[i]);
	free(L.names);
	return ok;
}
