/*
 * realize_rewrite.c - RealizeVDevice's rewrite and re-normalisation
 * (RELAX.md §2.1 D; VDeviceTypeUpdater and ExprMutator::ReEmitBinding in
 * TVM).
 *
 * rewrite (D1, D2): every placed tensor variable gets its vdevice, and
 * each hint becomes its argument (already there) or R.to_vdevice.
 * normalize (D3): a binding whose variable or value changed gets the type
 * its value infers to, which may lose the vdevice the pass computed
 * (call_tir's out_ty, a callee's declared type, a mixed matmul or concat,
 * a match_cast's type); an elementwise binary operator on two vdevices is
 * TVM's ValueError. A function whose body changed takes the body's type
 * as its return type unless the body's type is a base of the declared
 * one. What TVM drops silently is reported here as a warning.
 */
#include <string.h>

#include "realize_internal.h"
#include "relax_infer.h"
#include "util.h"

bool relax_is_op(const RxExpr *e, const char *op)
{
	return e && e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP && strcmp(e->name, op) == 0;
}

/* D2: the hint's replacement, given its vdevice h: its argument (m's
 * variable of that id, typed as m has it now) or R.to_vdevice. */
static RxExpr *replace_hint(RxModule *m, const RxExpr *hint, int h)
{
	RxExpr *arg = hint->items[0], *copy;
	const RxType *t = NULL;
	if (arg->kind == RX_EXPR_VAR) {
		RxExpr *var = arena_alloc(&m->arena, sizeof *var);
		*var = *arg;
		var->var = m->vars[arg->var->id];
		arg = var;
		t = var->var->type;
	}
	if (relax_type_vdevice(t) == h)
		return arg;
	copy = arena_alloc(&m->arena, sizeof *copy);
	*copy = *hint;
	copy->name = "R.to_vdevice";
	copy->vdevice = h;
	copy->items = arena_alloc(&m->arena, sizeof *copy->items);
	copy->items[0] = arg;
	copy->nitems = 1;
	copy->nkwargs = 0;
	return copy;
}

static void rewrite_block(RxRealize *r, RxModule *m, RxBlock *b)
{
	for (uint32_t i = 0; i < b->nstmts; i++) {
		RxStmt *s = b->stmts[i];
		if (s->kind == RX_STMT_IF) {
			rewrite_block(r, m, s->then_block);
			rewrite_block(r, m, s->else_block);
		} else if (s->kind == RX_STMT_DATAFLOW) {
			rewrite_block(r, m, s->then_block);
		} else if (s->kind == RX_STMT_BIND && relax_is_op(s->value, "R.hint_on_device") &&
			   s->value->nitems) {
			s->hint = s->value;
			s->value = replace_hint(m, s->value, r->explicit_dev[s->var->id]);
			s->changed = true;
		}
	}
}

bool realize_rewrite(RxRealize *r, DiagList *diags)
{
	RxModule *m = relax_module_copy(r->in);
	(void)diags;
	r->remapped = xcalloc(m->nvars + 1, 1);
	for (uint32_t v = 0; v < m->nvars; v++) {
		RxVar *var = m->vars[v];
		if (r->known[v] < 0 || !var->type || var->type->kind != RX_TYPE_TENSOR)
			continue;
		var->type = relax_type_with_vdevice(m, var->type, r->known[v]);
		r->remapped[v] = 1;
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX)
			rewrite_block(r, m, m->funcs[i]->body);
	if (r->copy_policy)
		realize_rewrite_copy(r, m);
	r->rewritten = m;
	return true;
}

/* Whether e uses a variable TVM replaced. */
static bool uses_remapped(const RxRealize *r, const RxExpr *e)
{
	if (!e)
		return false;
	if (e->kind == RX_EXPR_VAR)
		return r->remapped[e->var->id];
	for (uint32_t i = 0; i < e->nitems; i++)
		if (uses_remapped(r, e->items[i]))
			return true;
	return false;
}

static void name_vdevice(const RxModule *m, int v, StrBuf *sb)
{
	if (v < 0)
		strbuf_puts(sb, "no vdevice");
	else
		relax_vdevice_name(m, v, sb);
}

/* A warning where the type TVM derives loses the vdevice C computed. */
static void warn_dropped(RxRealize *r, const RxModule *m, const RxStmt *s, DiagList *diags)
{
	int want = r->known[s->var->id], got = relax_type_vdevice(s->var->type);
	StrBuf a, b;
	if (want < 0 || got == want || !s->var->type || s->var->type->kind != RX_TYPE_TENSOR)
		return;
	strbuf_init(&a);
	strbuf_init(&b);
	name_vdevice(m, want, &a);
	name_vdevice(m, got, &b);
	diag_warning(
		diags, m->src, s->pos,
		"'%s' was placed on %s, but its value's type gives %s: TVM keeps %s without a word",
		s->var->name, a.data, b.data, b.data);
	strbuf_free(&a);
	strbuf_free(&b);
}

static bool binary_error(RxRealize *r, const RxModule *m, const RxStmt *s, const RxInferError *err,
			 DiagList *diags)
{
	StrBuf call, lhs, rhs;
	strbuf_init(&call);
	strbuf_init(&lhs);
	strbuf_init(&rhs);
	strbuf_printf(&call, "%s(", s->value->name);
	for (uint32_t i = 0; i < s->value->nitems; i++)
		strbuf_printf(&call, "%s%s", i ? ", " : "",
			      s->value->items[i]->kind == RX_EXPR_VAR
				      ? s->value->items[i]->var->name
				      : "...");
	strbuf_putc(&call, ')');
	name_vdevice(m, err->lhs, &lhs);
	name_vdevice(m, err->rhs, &rhs);
	diag_error(
		diags, m->src, s->pos,
		"ValueError: Binary operators with Tensor arguments must have the same VDevice for "
		"both operands. However, %s has a LHS on VDevice %s (vdevice:%d) and a RHS on "
		"VDevice "
		"%s (vdevice:%d)",
		call.data, lhs.data, err->lhs, rhs.data, err->rhs);
	(void)r;
	strbuf_free(&call);
	strbuf_free(&lhs);
	strbuf_free(&rhs);
	return false;
}

/* The least common type of an if's branches (StructInfoLCA, enough of it). */
static RxType *join_types(RxModule *m, RxType *a, RxType *b)
{
	if (!a || !b)
		return a ? a : b;
	if (relax_type_equal(a, b) || a->kind != RX_TYPE_TENSOR || b->kind != RX_TYPE_TENSOR)
		return a;
	return a->vdevice == b->vdevice ? a : relax_type_with_vdevice(m, a, -1);
}

static RxType *result_type(RxModule *m, const RxExpr *e)
{
	return e ? relax_infer_value(m, e, NULL, NULL) : NULL;
}

static bool normalize_block(RxRealize *r, RxModule *m, RxBlock *b, bool *changed, DiagList *diags);

static bool normalize_stmt(RxRealize *r, RxModule *m, RxStmt *s, bool *changed, DiagList *diags)
{
	RxInferError err;
	bool value_changed;
	RxType *t;
	switch (s->kind) {
	case RX_STMT_BIND:
		/* D2 again, on the argument's type as normalised so far: TVM
		 * decides it while it re-emits the bindings in order */
		if (s->hint)
			s->value = replace_hint(m, s->hint, r->explicit_dev[s->var->id]);
		value_changed = s->changed || uses_remapped(r, s->value);
		if (!r->remapped[s->var->id] && !value_changed)
			return true;
		/* an unchanged value keeps the type the parser gave it, which
		 * for an annotated call is the annotation (TVM's Emit sets a
		 * fresh call's type to it) */
		if (!value_changed) {
			s->var->type = r->in->vars[s->var->id]->type;
			break;
		}
		t = relax_infer_value(m, s->value, s->var->type, &err);
		if (err.failed)
			return binary_error(r, m, s, &err, diags);
		if (t)
			s->var->type = t;
		break;
	case RX_STMT_MATCH:
		if (!r->remapped[s->var->id] && !uses_remapped(r, s->value))
			return true;
		s->var->type = s->cast;
		break;
	case RX_STMT_IF: {
		bool branches = false;
		if (!normalize_block(r, m, s->then_block, &branches, diags) ||
		    !normalize_block(r, m, s->else_block, &branches, diags))
			return false;
		if (!r->remapped[s->var->id] && !branches && !uses_remapped(r, s->value))
			return true;
		t = join_types(m, result_type(m, s->then_block->result),
			       result_type(m, s->else_block->result));
		if (t)
			s->var->type = t;
		break;
	}
	case RX_STMT_DATAFLOW:
		return normalize_block(r, m, s->then_block, changed, diags);
	case RX_STMT_ALIAS:
	case RX_STMT_EXPR:
		return true;
	}
	r->remapped[s->var->id] = 1;
	*changed = true;
	warn_dropped(r, m, s, diags);
	return true;
}

static bool normalize_block(RxRealize *r, RxModule *m, RxBlock *b, bool *changed, DiagList *diags)
{
	for (uint32_t i = 0; i < b->nstmts; i++)
		if (!normalize_stmt(r, m, b->stmts[i], changed, diags))
			return false;
	*changed |= uses_remapped(r, b->result);
	return true;
}

/* IsBaseOf(base, derived), on what devplan models of types. */
static bool type_is_base_of(const RxType *base, const RxType *derived)
{
	if (!base || !derived)
		return true;
	if (base->kind != derived->kind)
		return base->kind == RX_TYPE_OTHER;
	if (base->kind == RX_TYPE_TUPLE) {
		if (base->nfields != derived->nfields)
			return false;
		for (uint32_t i = 0; i < base->nfields; i++)
			if (!type_is_base_of(base->fields[i], derived->fields[i]))
				return false;
		return true;
	}
	if (base->kind != RX_TYPE_TENSOR)
		return true;
	if (base->vdevice >= 0 && base->vdevice != derived->vdevice)
		return false;
	if (base->dtype && (!derived->dtype || strcmp(base->dtype, derived->dtype) != 0))
		return false;
	return !base->shape || relax_py_equal(base->shape, derived->shape);
}

/* Whether a declared type and a body's type cannot both hold whatever
 * the symbolic dims are: another kind, another tuple length, static
 * shapes that differ. TVM re-derives such a declared return type even
 * in a function the pass did not change (a `-> R.Tuple` returning a
 * tensor, a 3-tuple declared for a 2-tuple, `(10,)` for `(2, 4)`). */
static bool contradicts(const RxType *declared, const RxType *body)
{
	if (declared->kind == RX_TYPE_OTHER || body->kind == RX_TYPE_OTHER)
		return false;
	if (declared->kind != body->kind)
		return true;
	if (declared->kind == RX_TYPE_TUPLE) {
		if (declared->nfields != body->nfields)
			return true;
		for (uint32_t i = 0; i < declared->nfields; i++)
			if (contradicts(declared->fields[i], body->fields[i]))
				return true;
		return false;
	}
	if (declared->kind != RX_TYPE_TENSOR)
		return false;
	if (declared->ndim >= 0 && body->ndim >= 0 && declared->ndim != body->ndim)
		return true;
	if (!declared->shape || !body->shape)
		return false;
	if (declared->shape->nitems != body->shape->nitems)
		return true;
	for (uint32_t i = 0; i < declared->shape->nitems; i++) {
		const PyExpr *a = declared->shape->items[i], *b = body->shape->items[i];
		if (a->kind == PY_INT && b->kind == PY_INT && strcmp(a->text, b->text) != 0)
			return true;
	}
	return false;
}

static bool normalize_function(RxRealize *r, RxModule *m, RxFunc *f, DiagList *diags)
{
	bool changed = false;
	RxType *body;
	for (uint32_t i = 0; i < f->nparams; i++)
		changed |= r->remapped[f->params[i]->id];
	if (!normalize_block(r, m, f->body, &changed, diags))
		return false;
	body = result_type(m, f->body->result);
	if (!f->ret || !body || type_is_base_of(body, f->ret) ||
	    (!changed && !contradicts(f->ret, body)))
		return true;
	if (relax_type_vdevice(f->ret) >= 0 &&
	    relax_type_vdevice(body) != relax_type_vdevice(f->ret)) {
		StrBuf a, b;
		strbuf_init(&a);
		strbuf_init(&b);
		name_vdevice(m, relax_type_vdevice(f->ret), &a);
		name_vdevice(m, relax_type_vdevice(body), &b);
		diag_warning(diags, m->src, f->pos,
			     "@%s is declared to return on %s, but its body's result is on %s: TVM "
			     "replaces the declared type without a word",
			     f->name, a.data, b.data);
		strbuf_free(&a);
		strbuf_free(&b);
	}
	f->ret = body;
	return true;
}

bool realize_normalize(RxRealize *r, DiagList *diags)
{
	RxModule *m = relax_module_copy(r->rewritten);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		RxFunc *f = m->funcs[i];
		if (f->kind == RX_FUNC_RELAX && !normalize_function(r, m, f, diags)) {
			relax_module_free(m);
			return false;
		}
	}
	r->normalized = m;
	return true;
}
