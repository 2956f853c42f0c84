/*
 * relax_parse_body.c - function bodies of the Relax parser: statements,
 * and the reading of Python expressions as Relax expressions.
 *
 * A body is a list of statements ending in `return`; a `with
 * R.dataflow():` block ends in R.output(...); an `if` binds the variable
 * that both branches assign last (TVM prints `r: T = r_then` there), so
 * each branch's block has that assignment's value as its result. A name
 * is a variable of the scope or an error; `cls.f` and a function's name
 * are globals; R.* calls are operators, with the device of
 * R.hint_on_device and R.to_vdevice and the out_ty of R.call_tir read
 * into the call. Anything else (numbers, strings, R.shape([...])
 * arguments, dicts) stays a literal PyExpr. An unannotated binding takes
 * the type its value infers to (relax_infer.c).
 */
#include <stdlib.h>
#include <string.h>

#include "relax_infer.h"
#include "relax_parse_internal.h"
#include "util.h"

typedef struct StmtList {
	RxStmt **items;
	size_t count, cap;
} StmtList;

static RxExpr *expr_new(RxParser *p, RxExprKind kind, Pos pos)
{
	RxExpr *e = arena_alloc(&p->m->arena, sizeof *e);
	e->kind = kind;
	e->pos = pos;
	e->vdevice = -1;
	return e;
}

static RxExpr *convert(RxParser *p, const PyExpr *e);

static bool is_alias(RxParser *p, const char *name)
{
	(void)p;
	return strcmp(name, "cls") == 0;
}

/* The device of R.hint_on_device: R.device(device_type=, index=) or
 * tvm.cpu(i) / tvm.cuda(i) / ... as written by hand. */
static bool hint_device(RxParser *p, RxExpr *call, const PyExpr *dev)
{
	static const struct {
		const char *name;
		int type;
	} tvm_devices[] = {{"tvm.cpu", 1},    {"tvm.cuda", 2},  {"tvm.gpu", 2},  {"tvm.opencl", 4},
			   {"tvm.vulkan", 7}, {"tvm.metal", 8}, {"tvm.rocm", 10}};
	const char *name = dev && dev->kind == PY_CALL ? py_dotted_name(p->m, dev->base) : NULL;
	int64_t type = -1, index = 0;
	PyExpr *a;
	if (name && strcmp(name, "R.device") == 0) {
		a = py_kwarg(dev, "device_type") ? py_kwarg(dev, "device_type") : py_arg(dev, 0);
		if (!a || !py_int(a, &type))
			return rxp_error(p, a ? a->pos : dev->pos,
					 "R.device needs an integer device_type");
		a = py_kwarg(dev, "index") ? py_kwarg(dev, "index") : py_arg(dev, 1);
	} else {
		for (size_t i = 0; name && i < DP_COUNT(tvm_devices); i++)
			if (strcmp(name, tvm_devices[i].name) == 0)
				type = tvm_devices[i].type;
		if (type < 0)
			return rxp_error(p, dev ? dev->pos : call->pos,
					 "R.hint_on_device needs a device: "
					 "R.device(device_type=.., index=..)");
		a = py_arg(dev, 0);
	}
	if (a && !py_int(a, &index))
		return rxp_error(p, a->pos, "the device index must be an integer");
	call->hint_type = (int)type;
	call->hint_index = (int)index;
	return true;
}

/* R.hint_on_device(x, device, memory_scope="global"), R.to_vdevice(x,
 * dst_vdevice), R.call_tir(f, args, out_ty): what the call carries
 * besides its arguments. */
static bool read_call_attrs(RxParser *p, RxExpr *call, const PyExpr *e)
{
	if (strcmp(call->name, "R.hint_on_device") == 0) {
		PyExpr *scope =
			py_kwarg(e, "memory_scope") ? py_kwarg(e, "memory_scope") : py_arg(e, 2);
		if (py_nargs(e) < 1)
			return rxp_error(p, e->pos, "R.hint_on_device needs a value and a device");
		call->hint_scope = scope && scope->kind == PY_STR ? scope->text : "global";
		return hint_device(p, call,
				   py_kwarg(e, "device") ? py_kwarg(e, "device") : py_arg(e, 1));
	}
	if (strcmp(call->name, "R.to_vdevice") == 0) {
		PyExpr *dst =
			py_kwarg(e, "dst_vdevice") ? py_kwarg(e, "dst_vdevice") : py_arg(e, 1);
		if (py_nargs(e) < 1 || !dst || dst->kind != PY_STR)
			return rxp_error(p, e->pos,
					 "R.to_vdevice needs a value and a vdevice string");
		call->vdevice = rxp_vdevice(p, dst->text, dst->pos);
		return call->vdevice >= 0;
	}
	if (strcmp(call->name, "R.call_tir") == 0 || strcmp(call->name, "R.call_dps_packed") == 0) {
		PyExpr *out =
			py_kwarg(e, "out_ty") ? py_kwarg(e, "out_ty") : py_kwarg(e, "out_sinfo");
		if (!out)
			out = py_arg(e, 2);
		if (!out)
			return rxp_error(p, e->pos, "%s needs out_ty", call->name);
		if (out->kind == PY_LIST)
			return (call->out_type = rxp_type_list(p, out)) != NULL;
		return (call->out_type = rxp_type(p, out)) != NULL;
	}
	return true;
}

/* Which arguments the call keeps as Relax expressions: the device and
 * type arguments read into the call are left out. */
static bool keeps_argument(const RxExpr *call, uint32_t i, const char *key)
{
	if (call->callee != RX_CALL_OP)
		return true;
	if (strcmp(call->name, "R.hint_on_device") == 0)
		return !key && i == 0;
	if (strcmp(call->name, "R.to_vdevice") == 0)
		return !key && i == 0;
	if (strcmp(call->name, "R.call_tir") == 0 || strcmp(call->name, "R.call_dps_packed") == 0)
		return key ? strcmp(key, "out_ty") != 0 && strcmp(key, "out_sinfo") != 0 : i < 2;
	return true;
}

static bool convert_call_items(RxParser *p, RxExpr *call, const PyExpr *e, uint32_t first)
{
	call->items = arena_array(&p->m->arena, e->nitems + 1, sizeof *call->items);
	call->kwargs = arena_array(&p->m->arena, e->nitems, sizeof *call->kwargs);
	call->keys = arena_array(&p->m->arena, e->nitems, sizeof *call->keys);
	for (uint32_t i = 0; i < e->nitems; i++) {
		const char *key = e->keys ? e->keys[i] : NULL;
		RxExpr *arg;
		if (!keeps_argument(call, i, key))
			continue;
		if (!(arg = convert(p, e->items[i])))
			return false;
		if (key) {
			call->keys[call->nkwargs] = key;
			call->kwargs[call->nkwargs++] = arg;
		} else {
			call->items[first + call->nitems++] = arg;
		}
	}
	return true;
}

static RxExpr *convert_call(RxParser *p, const PyExpr *e)
{
	const char *name = py_dotted_name(p->m, e->base);
	RxExpr *call = expr_new(p, RX_EXPR_CALL, e->pos);
	RxVar *var = name && !strchr(name, '.') ? rxp_lookup(p, name) : NULL;
	call->name = name;
	if (var) {
		call->callee = RX_CALL_VAR;
		call->items = NULL;
	} else if (name && strncmp(name, "R.", 2) == 0) {
		call->callee = RX_CALL_OP;
	} else if (name && strncmp(name, "cls.", 4) == 0) {
		call->callee = RX_CALL_GLOBAL;
		call->name = name + 4;
	} else if (name && !strchr(name, '.')) {
		call->callee = RX_CALL_GLOBAL;
	} else {
		call->kind = RX_EXPR_LITERAL; /* T.int64(), tvm.cpu(), ...: as written */
		call->py = (PyExpr *)e;
		return call;
	}
	if (!convert_call_items(p, call, e, 0) || !read_call_attrs(p, call, e))
		return NULL;
	if (var) { /* a closure: the callee comes first */
		memmove(call->items + 1, call->items, call->nitems * sizeof *call->items);
		call->items[0] = expr_new(p, RX_EXPR_VAR, e->base->pos);
		call->items[0]->var = var;
		call->nitems++;
	}
	return call;
}

static RxExpr *convert_items(RxParser *p, RxExprKind kind, const PyExpr *e)
{
	RxExpr *t = expr_new(p, kind, e->pos);
	t->items = arena_array(&p->m->arena, e->nitems, sizeof *t->items);
	for (uint32_t i = 0; i < e->nitems; i++)
		if (!(t->items[t->nitems++] = convert(p, e->items[i])))
			return NULL;
	return t;
}

/* A symbolic dim declared before the class (`n = TypeVar("n")`), which a
 * call may pass as a value: kept as written. */
static bool is_symbol(const RxParser *p, const char *name)
{
	for (size_t i = 0; i < p->nsymbols; i++)
		if (strcmp(p->symbols[i], name) == 0)
			return true;
	return false;
}

static RxExpr *convert(RxParser *p, const PyExpr *e)
{
	RxExpr *x;
	switch (e->kind) {
	case PY_NAME: {
		RxVar *v = rxp_lookup(p, e->text);
		if (v) {
			x = expr_new(p, RX_EXPR_VAR, e->pos);
			x->var = v;
			return x;
		}
		if (strcmp(e->text, "None") && strcmp(e->text, "True") &&
		    strcmp(e->text, "False") && strcmp(e->text, p->m->name ? p->m->name : "") &&
		    !is_symbol(p, e->text)) {
			rxp_error(p, e->pos, "name '%s' is not defined", e->text);
			return NULL;
		}
		break;
	}
	case PY_ATTR:
		if (e->base->kind == PY_NAME && is_alias(p, e->base->text)) {
			x = expr_new(p, RX_EXPR_GLOBAL, e->pos);
			x->name = e->text;
			return x;
		}
		break;
	case PY_CALL:
		return convert_call(p, e);
	case PY_TUPLE:
		return convert_items(p, RX_EXPR_TUPLE, e);
	case PY_INDEX: {
		int64_t index;
		if (!py_int(e->items[0], &index))
			break;
		x = expr_new(p, RX_EXPR_GETITEM, e->pos);
		x->items = arena_alloc(&p->m->arena, sizeof *x->items);
		if (!(x->items[0] = convert(p, e->base)))
			return NULL;
		x->nitems = 1;
		x->index = index;
		return x;
	}
	case PY_LIST:
	case PY_DICT:
	case PY_INT:
	case PY_FLOAT:
	case PY_STR:
	case PY_NEG:
	case PY_BINOP:
		break;
	}
	x = expr_new(p, RX_EXPR_LITERAL, e->pos);
	x->py = (PyExpr *)e;
	return x;
}

static RxStmt *stmt_new(RxParser *p, RxStmtKind kind, Pos pos, StmtList *list)
{
	RxStmt *s = arena_alloc(&p->m->arena, sizeof *s);
	s->kind = kind;
	s->pos = pos;
	grow_array((void **)&list->items, &list->cap, list->count + 1, sizeof *list->items);
	list->items[list->count++] = s;
	return s;
}

/* R.match_cast(value, type) */
static bool read_match_cast(RxParser *p, RxStmt *s, const PyExpr *e)
{
	PyExpr *value = py_arg(e, 0), *type = py_arg(e, 1);
	if (!value || !type)
		return rxp_error(p, e->pos, "R.match_cast needs a value and a type");
	s->kind = RX_STMT_MATCH;
	return (s->value = convert(p, value)) && (s->cast = rxp_type(p, type));
}

static bool is_call_of(RxParser *p, const PyExpr *e, const char *name)
{
	const char *n = e->kind == PY_CALL ? py_dotted_name(p->m, e->base) : NULL;
	return n && strcmp(n, name) == 0;
}

/* binding: NAME (':' type)? '=' expr_list NEWLINE */
static RxStmt *read_binding(RxParser *p, StmtList *list)
{
	const RxToken *name = rxp_next(p);
	RxType *ann = NULL;
	PyExpr *annotation, *value;
	RxStmt *s = stmt_new(p, RX_STMT_BIND, name->pos, list);
	bool annotated = rxp_accept(p, RX_TOK_OP, ":");
	if (annotated && (!(annotation = rxp_expr(p)) || !(ann = rxp_type(p, annotation))))
		return NULL;
	if (!rxp_expect(p, RX_TOK_OP, "=", "'='") || !(value = rxp_expr_list(p)) ||
	    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the binding"))
		return NULL;
	if (!ann && value->kind == PY_NAME && is_alias(p, name->text)) {
		s->kind = RX_STMT_ALIAS;
		s->alias = name->text;
		s->py = value;
		return s;
	}
	if (is_call_of(p, value, "R.match_cast")) {
		if (!read_match_cast(p, s, value))
			return NULL;
		ann = ann ? ann : s->cast;
	} else if (!(s->value = convert(p, value))) {
		return NULL;
	}
	if (!ann)
		ann = relax_infer_value(p->m, s->value, NULL, NULL);
	s->var = rxp_define(p, name->text, name->pos, ann);
	s->var->annotated = annotated;
	return s;
}

static RxBlock *finish_block(RxParser *p, StmtList *list)
{
	RxBlock *b = arena_alloc(&p->m->arena, sizeof *b);
	b->nstmts = (uint32_t)list->count;
	b->stmts = arena_array(&p->m->arena, list->count, sizeof *b->stmts);
	if (list->count)
		memcpy(b->stmts, list->items, list->count * sizeof *b->stmts);
	free(list->items);
	list->items = NULL;
	return b;
}

static bool read_statements(RxParser *p, StmtList *list, bool in_dataflow);

/* R.output(NAME, ...) */
static bool read_outputs(RxParser *p, RxStmt *s, const PyExpr *e)
{
	s->outputs = arena_array(&p->m->arena, e->nitems, sizeof *s->outputs);
	for (uint32_t i = 0; i < e->nitems; i++) {
		RxVar *v = e->items[i]->kind == PY_NAME ? rxp_lookup(p, e->items[i]->text) : NULL;
		if (!v)
			return rxp_error(p, e->items[i]->pos,
					 "R.output takes variables of the block");
		s->outputs[s->noutputs++] = v;
	}
	return true;
}

/* dataflow: 'with' 'R.dataflow' '(' ')' ':' NEWLINE INDENT statements DEDENT */
static bool read_dataflow(RxParser *p, StmtList *list)
{
	Pos pos = rxp_next(p)->pos;
	PyExpr *e = rxp_expr(p);
	StmtList inner = {0};
	RxStmt *s;
	if (!e)
		return false;
	if (!is_call_of(p, e, "R.dataflow"))
		return rxp_error(p, e->pos, "expected 'with R.dataflow():'");
	if (!rxp_expect(p, RX_TOK_OP, ":", "':'") ||
	    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "a new line") ||
	    !rxp_expect(p, RX_TOK_INDENT, NULL, "the dataflow block's indented body"))
		return false;
	s = stmt_new(p, RX_STMT_DATAFLOW, pos, list);
	if (!read_statements(p, &inner, true)) {
		free(inner.items);
		return false;
	}
	/* the block's last statement is R.output(...) */
	if (inner.count && inner.items[inner.count - 1]->kind == RX_STMT_EXPR &&
	    is_call_of(p, inner.items[inner.count - 1]->py, "R.output")) {
		if (!read_outputs(p, s, inner.items[inner.count - 1]->py)) {
			free(inner.items);
			return false;
		}
		inner.count--;
	}
	s->then_block = finish_block(p, &inner);
	return true;
}

/* The last statement of an if branch, `r: T = value`: the branch's result,
 * and the name the if binds. */
static bool branch_result(RxParser *p, StmtList *list, RxBlock **block, RxStmt **last)
{
	RxStmt *s = list->count ? list->items[list->count - 1] : NULL;
	if (!s || s->kind != RX_STMT_BIND)
		return rxp_error(p, rxp_peek(p)->pos,
				 "an if branch must end by assigning its result");
	list->count--;
	*block = finish_block(p, list);
	(*block)->result = s->value;
	(*block)->result_pos = s->pos;
	*last = s;
	return true;
}

static bool read_branch(RxParser *p, RxBlock **block, RxStmt **last)
{
	StmtList inner = {0};
	bool ok;
	if (!rxp_expect(p, RX_TOK_OP, ":", "':'") ||
	    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "a new line") ||
	    !rxp_expect(p, RX_TOK_INDENT, NULL, "the branch's indented body"))
		return false;
	rxp_scope_begin(p);
	ok = read_statements(p, &inner, false) && branch_result(p, &inner, block, last);
	rxp_scope_end(p);
	free(inner.items);
	return ok;
}

/* if: 'if' expr ':' branch 'else' ':' branch */
static bool read_if(RxParser *p, StmtList *list)
{
	Pos pos = rxp_next(p)->pos;
	PyExpr *cond = rxp_expr(p);
	RxStmt *s = stmt_new(p, RX_STMT_IF, pos, list), *then_last, *else_last;
	if (!cond || !(s->value = convert(p, cond)) || !read_branch(p, &s->then_block, &then_last))
		return false;
	if (!rxp_expect(p, RX_TOK_NAME, "else", "'else' (an if needs both branches)") ||
	    !read_branch(p, &s->else_block, &else_last))
		return false;
	if (strcmp(then_last->var->name, else_last->var->name) != 0)
		return rxp_error(p, else_last->pos,
				 "the branches assign '%s' and '%s': they must assign one name",
				 then_last->var->name, else_last->var->name);
	s->then_var = then_last->var;
	s->else_var = else_last->var;
	s->var = rxp_define(p, then_last->var->name, then_last->pos, then_last->var->type);
	s->var->annotated = then_last->var->annotated;
	return true;
}

/* statement: binding | dataflow | if | expr NEWLINE */
static bool read_statement(RxParser *p, StmtList *list, bool in_dataflow)
{
	const RxToken *t = rxp_peek(p);
	if (t->kind == RX_TOK_NAME && strcmp(t->text, "with") == 0 && !in_dataflow)
		return read_dataflow(p, list);
	if (t->kind == RX_TOK_NAME && strcmp(t->text, "if") == 0)
		return read_if(p, list);
	if (t->kind == RX_TOK_NAME && rxp_peek_at(p, 1)->kind == RX_TOK_OP &&
	    (strcmp(rxp_peek_at(p, 1)->text, "=") == 0 ||
	     strcmp(rxp_peek_at(p, 1)->text, ":") == 0))
		return read_binding(p, list) != NULL;
	if (t->kind == RX_TOK_NAME || t->kind == RX_TOK_OP) {
		PyExpr *e = rxp_expr(p);
		RxStmt *s;
		if (!e || !rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the statement"))
			return false;
		s = stmt_new(p, RX_STMT_EXPR, t->pos, list);
		s->py = e;
		return true;
	}
	return rxp_error(p, t->pos, "expected a statement, found %s",
			 relax_token_kind_name(t->kind));
}

/* statements: statement+ up to the DEDENT (consumed) or a `return` */
static bool read_statements(RxParser *p, StmtList *list, bool in_dataflow)
{
	while (!rxp_accept(p, RX_TOK_DEDENT, NULL)) {
		if (rxp_is(p, RX_TOK_NAME, "return"))
			return in_dataflow ? rxp_error(p, rxp_peek(p)->pos,
						       "'return' inside a dataflow block")
					   : true;
		if (rxp_peek(p)->kind == RX_TOK_EOF)
			return rxp_error(p, rxp_peek(p)->pos, "unexpected end of file in a block");
		if (!read_statement(p, list, in_dataflow))
			return false;
	}
	return true;
}

RxBlock *rxp_function_body(RxParser *p)
{
	StmtList list = {0};
	RxBlock *b;
	PyExpr *e;
	Pos pos;
	if (!read_statements(p, &list, false) || !rxp_is(p, RX_TOK_NAME, "return")) {
		free(list.items);
		if (!p->failed)
			rxp_error(p, rxp_peek(p)->pos, "the function must end with 'return'");
		return NULL;
	}
	pos = rxp_next(p)->pos;
	b = finish_block(p, &list);
	b->result_pos = pos;
	if (!(e = rxp_expr_list(p)) || !(b->result = convert(p, e)) ||
	    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the return") ||
	    !rxp_expect(p, RX_TOK_DEDENT, NULL, "the end of the function after 'return'"))
		return NULL;
	return b;
}
