/*
 * relax_syntax.c - the token cursor and Python expressions (see
 * relax_syntax.h).
 *
 * The expression grammar is the part of Python TVMScript prints: names
 * and attributes, calls with keyword arguments, subscripts, parenthesised
 * tuples, lists, dicts, numbers, strings, True/False/None and unary minus.
 * Binary arithmetic appears only inside @T.prim_func bodies, which the
 * module parser skips as text, so it is not read here. Each rule carries
 * its grammar as a comment, chibicc style; nesting is bounded so that a
 * hostile file cannot exhaust the stack.
 */
#include "relax_syntax.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { RX_MAX_EXPR_DEPTH = 400 };

const RxToken *rxp_peek(const RxParser *p)
{
	return &p->toks.items[p->at];
}

const RxToken *rxp_peek_at(const RxParser *p, size_t ahead)
{
	size_t i = p->at + ahead;
	return &p->toks.items[i < p->toks.count ? i : p->toks.count - 1];
}

const RxToken *rxp_next(RxParser *p)
{
	const RxToken *t = &p->toks.items[p->at];
	if (t->kind != RX_TOK_EOF)
		p->at++;
	return t;
}

bool rxp_is(const RxParser *p, RxTokKind kind, const char *text)
{
	const RxToken *t = rxp_peek(p);
	return t->kind == kind && (!text || strcmp(t->text, text) == 0);
}

bool rxp_accept(RxParser *p, RxTokKind kind, const char *text)
{
	if (!rxp_is(p, kind, text))
		return false;
	rxp_next(p);
	return true;
}

bool rxp_error(RxParser *p, Pos pos, const char *fmt, ...)
{
	va_list ap;
	if (p->failed)
		return false;
	va_start(ap, fmt);
	diag_vadd(p->diags, DIAG_ERROR, p->src, pos, fmt, ap);
	va_end(ap);
	p->failed = true;
	p->at = p->toks.count - 1; /* the EOF token: every caller unwinds */
	return false;
}

static const char *token_description(const RxToken *t)
{
	if (t->kind == RX_TOK_OP || t->kind == RX_TOK_NAME || t->kind == RX_TOK_INT ||
	    t->kind == RX_TOK_FLOAT)
		return t->text;
	return relax_token_kind_name(t->kind);
}

bool rxp_expect(RxParser *p, RxTokKind kind, const char *text, const char *what)
{
	const RxToken *t = rxp_peek(p);
	if (rxp_accept(p, kind, text))
		return true;
	if (t->kind == RX_TOK_STR)
		return rxp_error(p, t->pos, "expected %s, found a string", what);
	return rxp_error(p, t->pos, "expected %s, found '%s'", what, token_description(t));
}

static PyExpr *py_new(RxParser *p, PyKind kind, Pos pos)
{
	PyExpr *e = arena_alloc(&p->m->arena, sizeof *e);
	e->kind = kind;
	e->pos = pos;
	return e;
}

/* Growable item lists while a bracket is read. */
typedef struct PyItems {
	PyExpr **items;
	const char **keys;
	size_t count, cap, key_cap;
} PyItems;

static void items_push(PyItems *l, PyExpr *e, const char *key)
{
	grow_array((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items);
	grow_array((void **)&l->keys, &l->key_cap, l->count + 1, sizeof *l->keys);
	l->keys[l->count] = key;
	l->items[l->count++] = e;
}

static void items_finish(RxParser *p, PyItems *l, PyExpr *e, bool with_keys)
{
	e->nitems = (uint32_t)l->count;
	e->items = arena_array(&p->m->arena, l->count, sizeof *e->items);
	if (l->count)
		memcpy(e->items, l->items, l->count * sizeof *e->items);
	if (with_keys) {
		e->keys = arena_array(&p->m->arena, l->count, sizeof *e->keys);
		if (l->count)
			memcpy(e->keys, l->keys, l->count * sizeof *e->keys);
	}
	free(l->items);
	free(l->keys);
}

/* items: (item (',' item)* ','?)? closer -- item is expr, or NAME '=' expr
 * in a call, or expr ':' expr in a dict. *trailing_comma says whether a
 * comma ended the list (a one-element tuple). */
static bool read_items(RxParser *p, PyItems *l, const char *closer, PyKind kind,
		       bool *trailing_comma)
{
	*trailing_comma = false;
	while (!rxp_is(p, RX_TOK_OP, closer)) {
		const char *key = NULL;
		PyExpr *e;
		if (kind == PY_CALL && rxp_peek(p)->kind == RX_TOK_NAME &&
		    rxp_peek_at(p, 1)->kind == RX_TOK_OP &&
		    strcmp(rxp_peek_at(p, 1)->text, "=") == 0) {
			key = rxp_next(p)->text;
			rxp_next(p);
		} else if (kind == PY_CALL && l->count && l->keys[l->count - 1]) {
			return rxp_error(p, rxp_peek(p)->pos,
					 "positional argument follows keyword argument");
		}
		if (!(e = rxp_expr(p)))
			return false;
		items_push(l, e, key);
		if (kind == PY_DICT) {
			if (!rxp_expect(p, RX_TOK_OP, ":", "':' in a dict") || !(e = rxp_expr(p)))
				return false;
			items_push(l, e, NULL);
		}
		*trailing_comma = false;
		if (!rxp_accept(p, RX_TOK_OP, ","))
			break;
		*trailing_comma = true;
	}
	return rxp_expect(p, RX_TOK_OP, closer,
			  closer[0] == ')'   ? "')'"
			  : closer[0] == ']' ? "']'"
					     : "'}'");
}

static PyExpr *read_bracket(RxParser *p, PyKind kind, const char *closer, Pos pos)
{
	PyItems l = {0};
	bool trailing;
	PyExpr *e = py_new(p, kind, pos);
	if (!read_items(p, &l, closer, kind, &trailing)) {
		free(l.items);
		free(l.keys);
		return NULL;
	}
	/* `(x)` is x itself; `(x,)` and `()` are tuples */
	if (kind == PY_TUPLE && l.count == 1 && !trailing) {
		PyExpr *inner = l.items[0];
		free(l.items);
		free(l.keys);
		return inner;
	}
	items_finish(p, &l, e, false);
	return e;
}

/* atom: NAME | INT | FLOAT | STR+ | '(' items ')' | '[' items ']' | '{' items '}' */
static PyExpr *read_atom(RxParser *p)
{
	const RxToken *t = rxp_next(p);
	PyExpr *e;
	switch (t->kind) {
	case RX_TOK_NAME:
		e = py_new(p, PY_NAME, t->pos);
		e->text = t->text;
		return e;
	case RX_TOK_INT:
	case RX_TOK_FLOAT:
		e = py_new(p, t->kind == RX_TOK_INT ? PY_INT : PY_FLOAT, t->pos);
		e->text = t->text;
		return e;
	case RX_TOK_STR:
		e = py_new(p, PY_STR, t->pos);
		e->text = t->text;
		return e;
	case RX_TOK_OP:
		if (strcmp(t->text, "(") == 0)
			return read_bracket(p, PY_TUPLE, ")", t->pos);
		if (strcmp(t->text, "[") == 0)
			return read_bracket(p, PY_LIST, "]", t->pos);
		if (strcmp(t->text, "{") == 0)
			return read_bracket(p, PY_DICT, "}", t->pos);
		break;
	case RX_TOK_NEWLINE:
	case RX_TOK_INDENT:
	case RX_TOK_DEDENT:
	case RX_TOK_EOF:
		break;
	}
	rxp_error(p, t->pos, "expected an expression, found '%s'", token_description(t));
	return NULL;
}

/* postfix: atom ('.' NAME | '(' items ')' | '[' expr ']')* */
static PyExpr *read_postfix(RxParser *p)
{
	PyExpr *e = read_atom(p);
	while (e) {
		const RxToken *t = rxp_peek(p);
		PyExpr *next;
		if (rxp_accept(p, RX_TOK_OP, ".")) {
			const RxToken *name = rxp_peek(p);
			if (!rxp_expect(p, RX_TOK_NAME, NULL, "a name after '.'"))
				return NULL;
			next = py_new(p, PY_ATTR, name->pos);
			next->text = name->text;
		} else if (rxp_accept(p, RX_TOK_OP, "(")) {
			PyItems l = {0};
			bool trailing;
			next = py_new(p, PY_CALL, t->pos);
			if (!read_items(p, &l, ")", PY_CALL, &trailing)) {
				free(l.items);
				free(l.keys);
				return NULL;
			}
			items_finish(p, &l, next, true);
		} else if (rxp_accept(p, RX_TOK_OP, "[")) {
			PyExpr *index = rxp_expr_list(p);
			if (!index || !rxp_expect(p, RX_TOK_OP, "]", "']'"))
				return NULL;
			next = py_new(p, PY_INDEX, t->pos);
			next->items = arena_alloc(&p->m->arena, sizeof *next->items);
			next->items[0] = index;
			next->nitems = 1;
		} else {
			break;
		}
		next->base = e;
		next->pos = e->pos; /* an expression is where it starts */
		e = next;
	}
	return e;
}

/* The binary operators of shape expressions, loosest first. */
static int binary_precedence(const RxToken *t)
{
	static const char *const levels[][6] = {
		{"==", "!=", "<", "<=", ">", ">="},
		{"+", "-"},
		{"*", "/", "//", "%"},
	};
	/* most operator tokens are brackets and commas: ruled out at once */
	if (t->kind != RX_TOK_OP || !t->text[0] || !strchr("=!<>+-*/%", t->text[0]))
		return -1;
	for (int l = 0; l < 3; l++)
		for (int k = 0; k < 6 && levels[l][k]; k++)
			if (strcmp(t->text, levels[l][k]) == 0)
				return l;
	return -1;
}

static PyExpr *read_unary(RxParser *p);

/* binary: unary (OP unary)*, by precedence climbing */
static PyExpr *read_binary(RxParser *p, int min_level)
{
	PyExpr *lhs = read_unary(p);
	int level;
	while (lhs && (level = binary_precedence(rxp_peek(p))) >= min_level) {
		const RxToken *op = rxp_next(p);
		PyExpr *rhs = read_binary(p, level + 1), *e;
		if (!rhs)
			return NULL;
		e = py_new(p, PY_BINOP, lhs->pos);
		e->text = op->text;
		e->items = arena_array(&p->m->arena, 2, sizeof *e->items);
		e->items[0] = lhs;
		e->items[1] = rhs;
		e->nitems = 2;
		lhs = e;
	}
	return lhs;
}

/* expr: binary */
PyExpr *rxp_expr(RxParser *p)
{
	const RxToken *t = rxp_peek(p);
	PyExpr *e;
	if (++p->depth > RX_MAX_EXPR_DEPTH) {
		rxp_error(p, t->pos, "expression nested too deeply");
		p->depth--;
		return NULL;
	}
	e = read_binary(p, 0);
	p->depth--;
	return e;
}

/* unary: '-' unary | postfix */
static PyExpr *read_unary(RxParser *p)
{
	const RxToken *t = rxp_peek(p);
	PyExpr *e;
	if (++p->depth > RX_MAX_EXPR_DEPTH) {
		rxp_error(p, t->pos, "expression nested too deeply");
		p->depth--;
		return NULL;
	}
	if (rxp_accept(p, RX_TOK_OP, "-")) {
		PyExpr *inner = read_unary(p);
		e = inner ? py_new(p, PY_NEG, t->pos) : NULL;
		if (e)
			e->base = inner;
	} else {
		e = read_postfix(p);
	}
	p->depth--;
	return e;
}

/* expr_list: expr (',' expr)* ','? */
PyExpr *rxp_expr_list(RxParser *p)
{
	Pos pos = rxp_peek(p)->pos;
	PyExpr *first = rxp_expr(p), *tuple;
	PyItems l = {0};
	if (!first || !rxp_is(p, RX_TOK_OP, ","))
		return first;
	items_push(&l, first, NULL);
	while (rxp_accept(p, RX_TOK_OP, ",")) {
		PyExpr *e;
		if (rxp_peek(p)->kind == RX_TOK_NEWLINE || rxp_is(p, RX_TOK_OP, "]") ||
		    rxp_is(p, RX_TOK_OP, ":"))
			break;
		if (!(e = rxp_expr(p))) {
			free(l.items);
			free(l.keys);
			return NULL;
		}
		items_push(&l, e, NULL);
	}
	tuple = py_new(p, PY_TUPLE, pos);
	items_finish(p, &l, tuple, false);
	return tuple;
}

const char *py_dotted_name(RxModule *m, const PyExpr *e)
{
	const char *base;
	if (e->kind == PY_NAME)
		return e->text;
	if (e->kind != PY_ATTR || !(base = py_dotted_name(m, e->base)))
		return NULL;
	size_t n = strlen(base), k = strlen(e->text);
	char *s = arena_alloc(&m->arena, n + k + 2);
	memcpy(s, base, n);
	s[n] = '.';
	memcpy(s + n + 1, e->text, k + 1);
	return s;
}

static void print_string(StrBuf *out, const char *s)
{
	strbuf_putc(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_putc(out, '\\');
		if (*s == '\n')
			strbuf_puts(out, "\\n");
		else
			strbuf_putc(out, *s);
	}
	strbuf_putc(out, '"');
}

static void print_items(StrBuf *out, const PyExpr *e, const char *open, const char *close)
{
	strbuf_puts(out, open);
	for (uint32_t i = 0; i < e->nitems; i++) {
		if (i)
			strbuf_puts(out, e->kind == PY_DICT && i % 2 ? ": " : ", ");
		if (e->keys && e->keys[i])
			strbuf_printf(out, "%s=", e->keys[i]);
		py_print(out, e->items[i]);
	}
	if (e->kind == PY_TUPLE && e->nitems == 1)
		strbuf_putc(out, ',');
	strbuf_puts(out, close);
}

static int printed_precedence(const PyExpr *e)
{
	RxToken t = {.kind = RX_TOK_OP, .text = e->text};
	return e->kind == PY_BINOP ? binary_precedence(&t) : 99;
}

/* An operand of a binary operator, in parentheses when it binds looser
 * (or as tightly, on the right: a - (b - c)). */
static void print_operand(StrBuf *out, const PyExpr *e, const PyExpr *parent, bool right)
{
	int mine = printed_precedence(e), theirs = printed_precedence(parent);
	bool parens = mine < theirs || (right && mine == theirs);
	if (parens)
		strbuf_putc(out, '(');
	py_print(out, e);
	if (parens)
		strbuf_putc(out, ')');
}

void py_print(StrBuf *out, const PyExpr *e)
{
	switch (e->kind) {
	case PY_NAME:
	case PY_INT:
	case PY_FLOAT:
		strbuf_puts(out, e->text);
		return;
	case PY_STR:
		print_string(out, e->text);
		return;
	case PY_ATTR:
		py_print(out, e->base);
		strbuf_printf(out, ".%s", e->text);
		return;
	case PY_CALL:
		py_print(out, e->base);
		print_items(out, e, "(", ")");
		return;
	case PY_INDEX:
		py_print(out, e->base);
		strbuf_putc(out, '[');
		py_print(out, e->items[0]);
		strbuf_putc(out, ']');
		return;
	case PY_TUPLE:
		print_items(out, e, "(", ")");
		return;
	case PY_LIST:
		print_items(out, e, "[", "]");
		return;
	case PY_DICT:
		print_items(out, e, "{", "}");
		return;
	case PY_NEG:
		strbuf_putc(out, '-');
		py_print(out, e->base);
		return;
	case PY_BINOP:
		print_operand(out, e->items[0], e, false);
		strbuf_printf(out, " %s ", e->text);
		print_operand(out, e->items[1], e, true);
		return;
	}
}

PyExpr *py_kwarg(const PyExpr *call, const char *key)
{
	for (uint32_t i = 0; i < call->nitems; i++)
		if (call->keys && call->keys[i] && strcmp(call->keys[i], key) == 0)
			return call->items[i];
	return NULL;
}

uint32_t py_nargs(const PyExpr *call)
{
	uint32_t n = 0;
	while (n < call->nitems && !(call->keys && call->keys[n]))
		n++;
	return n;
}

PyExpr *py_arg(const PyExpr *call, uint32_t i)
{
	return i < py_nargs(call) ? call->items[i] : NULL;
}

bool py_int(const PyExpr *e, int64_t *v)
{
	char *end;
	bool neg = e->kind == PY_NEG;
	if (neg)
		e = e->base;
	if (e->kind != PY_INT)
		return false;
	errno = 0;
	long long x = strtoll(e->text, &end, 0);
	if (errno || *end)
		return false;
	*v = neg ? -x : x;
	return true;
}
