/*
 * relax_parse.c - the module level of the Relax parser (see relax_parse.h):
 * the @I.ir_module class, its vdevice list, function headers, annotations
 * and the name scope; relax_parse_body.c reads function bodies.
 *
 * A @T.prim_func is kept as its text, dedented: devplan never looks
 * inside a kernel (RealizeVDevice ignores PrimFuncs), and printing the
 * lines back is what keeps such a module round-tripping. Targets are kept
 * as the full config dicts TVM prints: a string or partial dict gets the
 * defaults TVM fills in for its kind (relax_target.c).
 */
#include "relax_parse.h"

#include <stdlib.h>
#include <string.h>

#include "relax_parse_internal.h"
#include "relax_target.h"
#include "util.h"

/* The scope: a hash table from name to variable, with an undo log so that
 * a block's names are forgotten when it ends (a later binding of the same
 * name shadows an earlier one, as in Python). */
typedef struct ScopeEntry {
	const char *name;
	RxVar *var;
} ScopeEntry;

typedef struct ScopeUndo {
	const char *name;
	RxVar *previous;
} ScopeUndo;

struct RxScope {
	ScopeEntry *slots;
	size_t cap, used;
	ScopeUndo *undo;
	size_t nundo, undo_cap;
	size_t *marks;
	size_t nmarks, marks_cap;
};

static size_t scope_slot(const RxScope *s, const char *name)
{
	size_t i = (size_t)hash_bytes(name, strlen(name)) & (s->cap - 1);
	while (s->slots[i].name && strcmp(s->slots[i].name, name) != 0)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void scope_grow(RxScope *s)
{
	ScopeEntry *old = s->slots;
	size_t old_cap = s->cap;
	s->cap = old_cap ? old_cap * 2 : 64;
	s->slots = xcalloc(s->cap, sizeof *s->slots);
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].name)
			s->slots[scope_slot(s, old[i].name)] = old[i];
	free(old);
}

RxVar *rxp_lookup(RxParser *p, const char *name)
{
	RxScope *s = p->scope;
	if (!s || !s->cap)
		return NULL;
	return s->slots[scope_slot(s, name)].var;
}

RxVar *rxp_define(RxParser *p, const char *name, Pos pos, RxType *type)
{
	RxModule *m = p->m;
	RxScope *s = p->scope;
	RxVar *v = arena_alloc(&m->arena, sizeof *v);
	ScopeEntry *e;
	v->name = name;
	v->pos = pos;
	v->type = type;
	v->id = m->nvars;
	grow_array((void **)&m->vars, &m->vars_cap, m->nvars + 1, sizeof *m->vars);
	m->vars[m->nvars++] = v;
	if ((s->used + 1) * 2 > s->cap)
		scope_grow(s);
	e = &s->slots[scope_slot(s, name)];
	grow_array((void **)&s->undo, &s->undo_cap, s->nundo + 1, sizeof *s->undo);
	s->undo[s->nundo++] = (ScopeUndo){name, e->var};
	if (!e->name) {
		e->name = name;
		s->used++;
	}
	e->var = v;
	return v;
}

void rxp_scope_begin(RxParser *p)
{
	RxScope *s = p->scope;
	grow_array((void **)&s->marks, &s->marks_cap, s->nmarks + 1, sizeof *s->marks);
	s->marks[s->nmarks++] = s->nundo;
}

void rxp_scope_end(RxParser *p)
{
	RxScope *s = p->scope;
	size_t mark = s->marks[--s->nmarks];
	while (s->nundo > mark) {
		ScopeUndo u = s->undo[--s->nundo];
		s->slots[scope_slot(s, u.name)].var = u.previous;
	}
}

void rxp_scope_free(RxParser *p)
{
	if (!p->scope)
		return;
	free(p->scope->slots);
	free(p->scope->undo);
	free(p->scope->marks);
	free(p->scope);
	p->scope = NULL;
}

int rxp_vdevice(RxParser *p, const char *text, Pos pos)
{
	int v;
	if (!p->m->has_global_infos) {
		rxp_error(p, pos, "vdevice \"%s\": The GlobalInfos in the IRModule is not defined.",
			  text);
		return -1;
	}
	v = relax_vdevice_lookup(p->m, text);
	if (v < 0)
		rxp_error(p, pos,
			  "vdevice \"%s\": The target VDevice in the GlobalInfos was not found.",
			  text);
	return v;
}

/* R.Tensor(shape?, dtype?, vdevice?, ndim=?) */
static RxType *tensor_type(RxParser *p, const PyExpr *e)
{
	PyExpr *shape = NULL, *dtype = NULL, *vdev = NULL, *ndim = NULL;
	int64_t n = -1;
	int vdevice = -1;
	if (e->kind == PY_CALL) {
		shape = py_kwarg(e, "shape") ? py_kwarg(e, "shape") : py_arg(e, 0);
		dtype = py_kwarg(e, "dtype") ? py_kwarg(e, "dtype") : py_arg(e, 1);
		vdev = py_kwarg(e, "vdevice") ? py_kwarg(e, "vdevice") : py_arg(e, 2);
		ndim = py_kwarg(e, "ndim");
		/* R.Tensor("float32"): a lone string is the dtype */
		if (shape && shape->kind == PY_STR && !dtype) {
			dtype = shape;
			shape = NULL;
		}
	}
	if (shape && shape->kind == PY_NAME && strcmp(shape->text, "None") == 0)
		shape = NULL;
	if (dtype && dtype->kind != PY_STR)
		return rxp_error(p, dtype->pos, "R.Tensor's dtype must be a string"), NULL;
	if (ndim && !py_int(ndim, &n))
		return rxp_error(p, ndim->pos, "R.Tensor's ndim must be an integer"), NULL;
	if (vdev && vdev->kind != PY_STR)
		return rxp_error(p, vdev->pos, "R.Tensor's vdevice must be a string"), NULL;
	if (vdev && (vdevice = rxp_vdevice(p, vdev->text, vdev->pos)) < 0)
		return NULL;
	if (shape && shape->kind == PY_LIST)
		shape->kind = PY_TUPLE;
	return relax_type_tensor(p->m, shape, (int)n, dtype && dtype->text[0] ? dtype->text : NULL,
				 vdevice);
}

static RxType *tuple_type(RxParser *p, const PyExpr *e)
{
	RxType *t = arena_alloc(&p->m->arena, sizeof *t);
	uint32_t n = e->kind == PY_CALL ? py_nargs(e) : 0;
	/* R.Tuple([A, B]) and R.Tuple((A, B)) list the fields too */
	if (n == 1 && (e->items[0]->kind == PY_LIST || e->items[0]->kind == PY_TUPLE)) {
		e = e->items[0];
		n = e->nitems;
	}
	t->kind = RX_TYPE_TUPLE;
	t->fields = arena_array(&p->m->arena, n, sizeof *t->fields);
	for (uint32_t i = 0; i < n; i++)
		if (!(t->fields[t->nfields++] = rxp_type(p, e->items[i])))
			return NULL;
	return t;
}

RxType *rxp_type_list(RxParser *p, const PyExpr *list)
{
	RxType *t = arena_alloc(&p->m->arena, sizeof *t);
	t->kind = RX_TYPE_TUPLE;
	t->listed = true;
	t->fields = arena_array(&p->m->arena, list->nitems, sizeof *t->fields);
	for (uint32_t i = 0; i < list->nitems; i++)
		if (!(t->fields[t->nfields++] = rxp_type(p, list->items[i])))
			return NULL;
	return t;
}

RxType *rxp_type(RxParser *p, const PyExpr *e)
{
	const PyExpr *head = e->kind == PY_CALL ? e->base : e;
	const char *name = py_dotted_name(p->m, head);
	RxType *t;
	if (name && strcmp(name, "R.Tensor") == 0)
		return tensor_type(p, e);
	if (name && strcmp(name, "R.Tuple") == 0)
		return tuple_type(p, e);
	if (!name || strncmp(name, "R.", 2) != 0)
		return rxp_error(p, e->pos, "expected a Relax type (R.Tensor, R.Tuple, ...)"), NULL;
	t = arena_alloc(&p->m->arena, sizeof *t);
	t->kind = strcmp(name, "R.Prim") == 0 ? RX_TYPE_PRIM : RX_TYPE_OTHER;
	t->text = (PyExpr *)e;
	return t;
}

/* I.vdevice(target, vdevice_id=0, memory_scope="global") */
static bool read_vdevice(RxParser *p, const PyExpr *e)
{
	RxModule *m = p->m;
	PyExpr *target, *id, *scope;
	RxVDevice *v;
	const char *name = e->kind == PY_CALL ? py_dotted_name(m, e->base) : NULL;
	if (!name || strcmp(name, "I.vdevice") != 0)
		return rxp_error(p, e->pos, "expected I.vdevice(...) in the vdevice list");
	target = py_kwarg(e, "target") ? py_kwarg(e, "target") : py_arg(e, 0);
	id = py_kwarg(e, "vdevice_id") ? py_kwarg(e, "vdevice_id") : py_arg(e, 1);
	scope = py_kwarg(e, "memory_scope") ? py_kwarg(e, "memory_scope") : py_arg(e, 2);
	if (!target || (target->kind != PY_STR && target->kind != PY_DICT))
		return rxp_error(p, e->pos, "I.vdevice needs a target string or dict");
	grow_array((void **)&m->vdevices, &m->vdevices_cap, m->nvdevices + 1, sizeof *m->vdevices);
	v = &m->vdevices[m->nvdevices++];
	memset(v, 0, sizeof *v);
	v->pos = e->pos;
	v->kind = relax_target_kind(m, target);
	if (!v->kind)
		return rxp_error(p, target->pos, "the target has no kind");
	if (id && !py_int(id, &v->vdevice_id))
		return rxp_error(p, id->pos, "the vdevice id must be an integer");
	if (scope && scope->kind != PY_STR)
		return rxp_error(p, scope->pos, "the memory scope must be a string");
	v->scope = scope ? scope->text : "global";
	v->device_type = relax_target_device_type(v->kind);
	v->target = relax_target_config(m, target, v->kind);
	return true;
}

/* I.module_global_infos({"vdevice": [I.vdevice(...), ...]}) */
static bool read_global_infos(RxParser *p, const PyExpr *call)
{
	const PyExpr *dict = py_arg(call, 0), *list = NULL;
	if (!dict || dict->kind != PY_DICT)
		return rxp_error(p, call->pos, "I.module_global_infos needs a dict");
	p->m->global_infos = (PyExpr *)dict;
	for (uint32_t i = 0; i + 1 < dict->nitems; i += 2)
		if (dict->items[i]->kind == PY_STR && strcmp(dict->items[i]->text, "vdevice") == 0)
			list = dict->items[i + 1];
	if (!list)
		return true;
	if (list->kind != PY_LIST && list->kind != PY_TUPLE)
		return rxp_error(p, list->pos, "the \"vdevice\" global info must be a list");
	p->m->has_global_infos = true;
	for (uint32_t i = 0; i < list->nitems; i++)
		if (!read_vdevice(p, list->items[i]))
			return false;
	return true;
}

/* decorators: ('@' expr NEWLINE)* */
static PyExpr *read_decorators(RxParser *p, PyExpr **first)
{
	PyExpr *last = NULL;
	*first = NULL;
	while (rxp_accept(p, RX_TOK_OP, "@")) {
		last = rxp_expr(p);
		if (!last || !rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the decorator line"))
			return NULL;
		if (!*first)
			*first = last;
	}
	return last;
}

static const char *decorator_name(RxParser *p, const PyExpr *d)
{
	return py_dotted_name(p->m, d->kind == PY_CALL ? d->base : d);
}

/* The lines from `from` up to the end of the token before `to`, each
 * without the first line's indentation. */
static const char *dedented_text(RxParser *p, size_t from_tok, size_t to_tok)
{
	const RxToken *first = &p->toks.items[from_tok], *last = &p->toks.items[to_tok - 1];
	const char *text = p->src->text;
	size_t start = p->src->line_starts[first->pos.line - 1], end = last->offset;
	size_t indent = first->pos.col - 1;
	StrBuf sb;
	strbuf_init(&sb);
	while (start < end) {
		size_t eol = start;
		while (eol < end && text[eol] != '\n')
			eol++;
		for (size_t k = 0; k < indent && start < eol && text[start] == ' '; k++)
			start++;
		strbuf_append(&sb, text + start, eol - start);
		strbuf_putc(&sb, '\n');
		start = eol + 1;
	}
	while (sb.len && (sb.data[sb.len - 1] == '\n' || sb.data[sb.len - 1] == ' '))
		sb.len--; /* the blank lines before the next function */
	strbuf_putc(&sb, '\n');
	const char *s = arena_strndup(&p->m->arena, sb.data, sb.len);
	strbuf_free(&sb);
	return s;
}

/* A @T.prim_func: its header and indented body skipped as text. */
static bool skip_prim_func(RxParser *p, RxFunc *f, size_t start_tok)
{
	int depth = 0;
	while (!rxp_is(p, RX_TOK_INDENT, NULL)) {
		if (rxp_peek(p)->kind == RX_TOK_EOF)
			return rxp_error(p, rxp_peek(p)->pos, "the prim_func has no body");
		rxp_next(p);
	}
	do {
		const RxToken *t = rxp_next(p);
		if (t->kind == RX_TOK_INDENT)
			depth++;
		else if (t->kind == RX_TOK_DEDENT)
			depth--;
		else if (t->kind == RX_TOK_EOF)
			return rxp_error(p, t->pos, "unexpected end of file in a prim_func");
	} while (depth > 0);
	f->text = dedented_text(p, start_tok, p->at - 1);
	return true;
}

/* params: (NAME ':' type (',' NAME ':' type)* ','?)? */
static bool read_params(RxParser *p, RxFunc *f)
{
	RxVar **params = NULL;
	size_t n = 0, cap = 0;
	while (!rxp_is(p, RX_TOK_OP, ")")) {
		const RxToken *name = rxp_peek(p);
		PyExpr *ann;
		RxType *type;
		if (!rxp_expect(p, RX_TOK_NAME, NULL, "a parameter name") ||
		    !rxp_expect(p, RX_TOK_OP, ":", "':' and the parameter's type") ||
		    !(ann = rxp_expr(p)) || !(type = rxp_type(p, ann))) {
			free(params);
			return false;
		}
		grow_array((void **)&params, &cap, n + 1, sizeof *params);
		params[n] = rxp_define(p, name->text, name->pos, type);
		params[n++]->annotated = true;
		if (!rxp_accept(p, RX_TOK_OP, ","))
			break;
	}
	f->nparams = (uint32_t)n;
	f->params = arena_array(&p->m->arena, n, sizeof *f->params);
	if (n)
		memcpy(f->params, params, n * sizeof *params);
	free(params);
	return rxp_expect(p, RX_TOK_OP, ")", "')' after the parameters");
}

/* function: decorators 'def' NAME '(' params ')' ('->' type)? ':' NEWLINE
 *           INDENT body DEDENT */
static bool read_function(RxParser *p)
{
	RxModule *m = p->m;
	size_t start_tok = p->at;
	PyExpr *first, *decorator = read_decorators(p, &first);
	const char *kind = decorator ? decorator_name(p, first) : NULL;
	RxFunc *f = arena_alloc(&m->arena, sizeof *f);
	const RxToken *name;
	PyExpr *ret;
	if (!decorator)
		return rxp_error(p, rxp_peek(p)->pos,
				 "expected a function (@R.function or @T.prim_func)");
	f->decorator = first;
	f->kind = kind && strcmp(kind, "T.prim_func") == 0 ? RX_FUNC_PRIM : RX_FUNC_RELAX;
	if (!rxp_expect(p, RX_TOK_NAME, "def", "'def'"))
		return false;
	name = rxp_peek(p);
	if (!rxp_expect(p, RX_TOK_NAME, NULL, "the function's name"))
		return false;
	f->name = name->text;
	f->pos = name->pos;
	grow_array((void **)&m->funcs, &m->funcs_cap, m->nfuncs + 1, sizeof *m->funcs);
	m->funcs[m->nfuncs++] = f;
	if (f->kind == RX_FUNC_PRIM)
		return skip_prim_func(p, f, start_tok);
	if (!kind || strcmp(kind, "R.function") != 0)
		return rxp_error(p, first->pos, "expected @R.function or @T.prim_func");
	rxp_scope_begin(p);
	if (!rxp_expect(p, RX_TOK_OP, "(", "'('") || !read_params(p, f))
		return false;
	if (rxp_accept(p, RX_TOK_OP, "->") &&
	    (!(ret = rxp_expr(p)) || !(f->ret = rxp_type(p, ret))))
		return false;
	if (!rxp_expect(p, RX_TOK_OP, ":", "':' after the function's signature") ||
	    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "a new line") ||
	    !rxp_expect(p, RX_TOK_INDENT, NULL, "the function's indented body"))
		return false;
	f->body = rxp_function_body(p);
	rxp_scope_end(p);
	return f->body != NULL;
}

/* module_stmt: 'I.module_attrs' '(' dict ')' | 'I.module_global_infos' '(' dict ')' */
/* `NAME = R.ExternFunc("symbol")`: a function of the module defined
 * outside it, kept as written. */
static bool read_extern_func(RxParser *p)
{
	const RxToken *name = rxp_next(p);
	RxModule *m = p->m;
	RxFunc *f;
	PyExpr *e;
	const char *callee;
	rxp_next(p); /* '=' */
	if (!(e = rxp_expr(p)))
		return false;
	callee = e->kind == PY_CALL ? py_dotted_name(m, e->base) : NULL;
	if (!callee || strcmp(callee, "R.ExternFunc") != 0)
		return rxp_error(p, e->pos,
				 "expected R.ExternFunc(...) (a function of the module "
				 "defined outside it)");
	f = arena_alloc(&m->arena, sizeof *f);
	f->kind = RX_FUNC_EXTERN;
	f->name = name->text;
	f->pos = name->pos;
	f->decorator = e;
	grow_array((void **)&m->funcs, &m->funcs_cap, m->nfuncs + 1, sizeof *m->funcs);
	m->funcs[m->nfuncs++] = f;
	return rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the line");
}

static bool read_module_statement(RxParser *p)
{
	PyExpr *e;
	const char *name;
	if (rxp_peek(p)->kind == RX_TOK_NAME && rxp_peek_at(p, 1)->kind == RX_TOK_OP &&
	    strcmp(rxp_peek_at(p, 1)->text, "=") == 0)
		return read_extern_func(p);
	e = rxp_expr(p);
	name = e && e->kind == PY_CALL ? py_dotted_name(p->m, e->base) : NULL;
	if (!e)
		return false;
	if (name && strcmp(name, "I.module_attrs") == 0)
		p->m->attrs = py_arg(e, 0);
	else if (name && strcmp(name, "I.module_global_infos") == 0) {
		if (!read_global_infos(p, e))
			return false;
	} else
		return rxp_error(p, e->pos,
				 "expected I.module_attrs, I.module_global_infos, a function or "
				 "NAME = R.ExternFunc(...)");
	return rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the line");
}

/* One `NAME = value` line before the class, kept for the printer. */
static void keep_prelude(RxModule *m, const char *name, PyExpr *value)
{
	const char **names = arena_array(&m->arena, m->nprelude + 1, sizeof *names);
	PyExpr **values = arena_array(&m->arena, m->nprelude + 1, sizeof *values);
	if (m->nprelude) {
		memcpy(names, m->prelude_names, m->nprelude * sizeof *names);
		memcpy(values, m->prelude_values, m->nprelude * sizeof *values);
	}
	names[m->nprelude] = name;
	values[m->nprelude++] = value;
	m->prelude_names = names;
	m->prelude_values = values;
}

/* module: ('import' ... | 'from' ...)* decorators 'class' NAME ':' NEWLINE
 *         INDENT (module_stmt | function)* DEDENT EOF */
static bool read_module(RxParser *p)
{
	PyExpr *first, *decorator;
	const RxToken *name;
	while (rxp_is(p, RX_TOK_NAME, "import") || rxp_is(p, RX_TOK_NAME, "from"))
		while (rxp_peek(p)->kind != RX_TOK_NEWLINE && rxp_peek(p)->kind != RX_TOK_EOF)
			rxp_next(p);
	/* NAME = T.int64() or TypeVar("n") lines TVM prints before the module
	 * declare symbolic dimensions: read and dropped, as names shapes use */
	while (rxp_peek(p)->kind == RX_TOK_NAME && rxp_peek_at(p, 1)->kind == RX_TOK_OP &&
	       strcmp(rxp_peek_at(p, 1)->text, "=") == 0) {
		PyExpr *value;
		grow_array((void **)&p->symbols, &p->symbols_cap, p->nsymbols + 1,
			   sizeof *p->symbols);
		p->symbols[p->nsymbols++] = rxp_next(p)->text;
		rxp_next(p);
		if (!(value = rxp_expr_list(p)) ||
		    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "the end of the line"))
			return false;
		keep_prelude(p->m, p->symbols[p->nsymbols - 1], value);
	}
	while (rxp_accept(p, RX_TOK_NEWLINE, NULL))
		;
	decorator = read_decorators(p, &first);
	if (!decorator || !decorator_name(p, first) ||
	    strcmp(decorator_name(p, first), "I.ir_module") != 0)
		return rxp_error(p, decorator ? first->pos : rxp_peek(p)->pos,
				 "expected @I.ir_module and a class");
	if (!rxp_expect(p, RX_TOK_NAME, "class", "'class'"))
		return false;
	name = rxp_peek(p);
	if (!rxp_expect(p, RX_TOK_NAME, NULL, "the module's name") ||
	    !rxp_expect(p, RX_TOK_OP, ":", "':'") ||
	    !rxp_expect(p, RX_TOK_NEWLINE, NULL, "a new line") ||
	    !rxp_expect(p, RX_TOK_INDENT, NULL, "the module's indented body"))
		return false;
	p->m->name = name->text;
	while (!rxp_accept(p, RX_TOK_DEDENT, NULL)) {
		bool ok = rxp_is(p, RX_TOK_OP, "@") ? read_function(p) : read_module_statement(p);
		if (!ok)
			return false;
	}
	return rxp_expect(p, RX_TOK_EOF, NULL, "the end of the file after the module");
}

bool relax_source_is_relax(const SourceFile *src, const char *path)
{
	size_t n = path ? strlen(path) : 0;
	if ((n >= 3 && strcmp(path + n - 3, ".py") == 0) ||
	    (n >= 6 && strcmp(path + n - 6, ".relax") == 0))
		return true;
	return src && strstr(src->text, "@I.ir_module") != NULL;
}

RxModule *relax_parse(const SourceFile *src, DiagList *diags)
{
	RxParser p = {.src = src, .diags = diags};
	bool ok;
	p.m = relax_module_new();
	p.m->src = src;
	p.scope = xcalloc(1, sizeof *p.scope);
	ok = relax_lex(src, &p.m->arena, &p.toks, diags) && read_module(&p);
	relax_tokens_free(&p.toks);
	rxp_scope_free(&p);
	free(p.symbols);
	if (!ok) {
		relax_module_free(p.m);
		return NULL;
	}
	return p.m;
}
