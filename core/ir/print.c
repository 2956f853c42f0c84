/*
 * print.c - the Relay text printer: modules in TVM's graph form.
 *
 * A global is printed in six passes over its nodes. None of them recurses,
 * so a chain of a million bindings or a nest of a hundred thousand lets,
 * closures or ifs costs heap, never C stack:
 *
 *  1. walk: an iterative post-order walk (children in ir_child order) lists
 *     every node once, with a "let line" event for each let between its
 *     value and its variable; it counts each node's uses (parent edges) and
 *     reserves every source name of the global.
 *  2. place, in reverse post-order (every parent before its children): a
 *     non-atomic node goes to the innermost scope (function body, if
 *     branch or match clause) that encloses all its uses: the least common ancestor in the
 *     scope tree, kept O(log depth) by skew-binary jump pointers. A node is
 *     printed inline, without a binding, when its only use is a scope's
 *     result, a let's value, or the body of such an inline let, and it has
 *     no name from the source (`%2 = e; %2` prints back so); every other
 *     call, tuple, projection, if and closure is bound once as `%N = e;`. A
 *     let is never bound: its line `let %x = v;` goes to its scope, and a
 *     reference to the let prints as its body.
 *  3. anchor: the let lines of each scope, in post-order.
 *  4. order: a second walk that follows the text's own structure: a scope
 *     is its let lines in order, each preceded by the bindings its value
 *     needs first, then its result. This is the walk the parser's module
 *     will have, so a binding never drifts across a let line on a reparse
 *     [P1]. It appends each binding and let line to its scope's list.
 *  5. sort: within a segment (the bindings between two let lines) any
 *     order that defines before use reads back the same, so bindings go in
 *     id order -- the source order of a parsed module -- and a node a pass
 *     inserted later is pulled in just before its first user.
 *  6. emit: an explicit stack of frames prints the scopes; a binding of an
 *     if or a closure pushes frames for its branches or body and one that
 *     closes the brace. Names are given in print order: source names are
 *     kept; an unnamed binding, or a second node with a name already
 *     printed, gets the lowest number no node of the global is named; a
 *     second variable of a name gets the lowest free suffix (%x, %x1).
 *
 * Type definitions come first, in definition order, each as TVM prints
 * it; a constructor without fields is an atom (printed bare where it is
 * used, as TVM does), and a match prints like an if with one scope per
 * clause.
 *
 * Indentation is two spaces a level and stops growing after
 * PRINT_MAX_INDENT levels, so that deep nests print in linear space.
 */
#include "print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "metadata.h"

enum {
	PRINT_MAX_INDENT = 100,   /* levels; deeper lines stay at this indent */
	PRINT_INLINE_DEPTH = 8,   /* print_expr_inline: `...` below this depth */
	PRINT_INLINE_BUDGET = 64, /* print_expr_inline: nodes before `...` */
};

/* ------------------------------------------------------------------ */
/* Scalars, strings, attributes, devices                               */
/* ------------------------------------------------------------------ */

static void print_indent(StrBuf *out, uint32_t level)
{
	static const char spaces[] = "                                ";
	size_t n = 2 * (size_t)(level < PRINT_MAX_INDENT ? level : PRINT_MAX_INDENT);
	while (n) {
		size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
		strbuf_append(out, spaces, k);
		n -= k;
	}
}

static void print_u64(StrBuf *out, uint64_t v)
{
	char buf[24];
	char *p = buf + sizeof buf;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_append(out, p, (size_t)(buf + sizeof buf - p));
}

static void print_i64(StrBuf *out, int64_t v)
{
	if (v < 0) {
		strbuf_putc(out, '-');
		print_u64(out, 0 - (uint64_t)v);
	} else {
		print_u64(out, (uint64_t)v);
	}
}

/* Infinities and NaNs have no Relay spelling; they print as C writes them. */
static bool print_non_finite(StrBuf *out, double d)
{
	if (isnan(d))
		strbuf_puts(out, "nan");
	else if (isinf(d))
		strbuf_puts(out, d < 0 ? "-inf" : "inf");
	else
		return false;
	return true;
}

/* Whole numbers below 1e16 print without an exponent: 65504, not 6.55e+04.
 * Such a value is exact in a double, so "%.0f" reads back to it. */
static bool print_whole(StrBuf *out, double d)
{
	char buf[40];
	if (d != floor(d) || fabs(d) >= 1e16)
		return false;
	snprintf(buf, sizeof buf, "%.0f", d);
	strbuf_puts(out, buf);
	return true;
}

/* The shortest %g spelling that reads back as the same double. */
static void print_double(StrBuf *out, double d)
{
	char buf[40];
	if (print_non_finite(out, d) || print_whole(out, d))
		return;
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	strbuf_puts(out, buf);
}

/* The shortest %g spelling that reads back as the same float. */
static void print_float(StrBuf *out, float f)
{
	char buf[40];
	if (print_non_finite(out, f) || print_whole(out, f))
		return;
	for (int prec = 1; prec <= 9; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
		if (strtof(buf, NULL) == f)
			break;
	}
	strbuf_puts(out, buf);
}

static double print_half_to_double(uint16_t h)
{
	int exp = (h >> 10) & 0x1f;
	int mant = h & 0x3ff;
	double v;
	if (exp == 0)
		v = ldexp(mant, -24);
	else if (exp == 31)
		v = mant ? NAN : INFINITY;
	else
		v = ldexp(mant + 1024, exp - 25);
	return (h & 0x8000) ? -v : v;
}

/* IEEE half nearest to d (ties to even), for the round-trip check. */
static uint16_t print_double_to_half(double d)
{
	uint16_t sign = signbit(d) ? 0x8000 : 0;
	double a = fabs(d), r;
	int e;
	if (isnan(a))
		return sign | 0x7e00;
	if (a >= 65520.0)
		return sign | 0x7c00;
	if (a < ldexp(1, -14)) {
		/* subnormal: units of 2^-24; 1024 units is the smallest normal */
		return sign | (uint16_t)nearbyint(ldexp(a, 24));
	}
	frexp(a, &e);                    /* a = m * 2^e with m in [0.5, 1) */
	r = nearbyint(ldexp(a, 11 - e)); /* in [1024, 2048] */
	if (r >= 2048) {
		r = 1024;
		e++;
	}
	if (e - 1 > 15)
		return sign | 0x7c00;
	return sign | (uint16_t)(((e - 1 + 15) << 10) | ((int)r - 1024));
}

static void print_half(StrBuf *out, uint16_t h)
{
	char buf[40];
	double d = print_half_to_double(h);
	if (print_non_finite(out, d) || print_whole(out, d))
		return;
	for (int prec = 1; prec <= 5; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		/* the parser rounds through float, so check the same way */
		if (print_double_to_half((float)strtod(buf, NULL)) == h)
			break;
	}
	strbuf_puts(out, buf);
}

/* A scalar literal in TVM's spelling (1f, 2i64, 3i16, 3, True, 1f64,
 * 1f16), or meta[relay.Constant][i]. A tensor that is in neither form (a
 * pass built it without a metadata index, or a scalar of a dtype TVM has
 * no literal for, such as int8) prints as meta[relay.Constant][?]. */
static void print_constant(StrBuf *out, const Expr *e)
{
	const Tensor *t = &e->u.constant.tensor;
	if (e->u.constant.meta_index >= 0) {
		strbuf_puts(out, "meta[relay.Constant][");
		print_i64(out, e->u.constant.meta_index);
		strbuf_putc(out, ']');
		return;
	}
	if (t->ndim != 0 || !t->data || t->dtype >= DT_COUNT || t->nbytes < dtype_size(t->dtype)) {
		strbuf_puts(out, "meta[relay.Constant][?]");
		return;
	}
	switch (t->dtype) {
	case DT_FLOAT32: {
		float f;
		memcpy(&f, t->data, sizeof f);
		print_float(out, f);
		strbuf_putc(out, 'f');
		return;
	}
	case DT_FLOAT64: {
		double d;
		memcpy(&d, t->data, sizeof d);
		print_double(out, d);
		strbuf_puts(out, "f64");
		return;
	}
	case DT_FLOAT16: {
		uint16_t h;
		memcpy(&h, t->data, sizeof h);
		print_half(out, h);
		strbuf_puts(out, "f16");
		return;
	}
	case DT_INT32: {
		int32_t i;
		memcpy(&i, t->data, sizeof i);
		print_i64(out, i);
		return;
	}
	case DT_INT64: {
		int64_t i;
		memcpy(&i, t->data, sizeof i);
		print_i64(out, i);
		strbuf_puts(out, "i64");
		return;
	}
	case DT_INT16: {
		int16_t i;
		memcpy(&i, t->data, sizeof i);
		print_i64(out, i);
		strbuf_puts(out, "i16");
		return;
	}
	case DT_BOOL:
		strbuf_puts(out, *(const uint8_t *)t->data ? "True" : "False");
		return;
	case DT_INT8:
	case DT_UINT8:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
		strbuf_puts(out, "meta[relay.Constant][?]");
		return;
	case DT_COUNT:
		break;
	}
}

/* A double-quoted string: `"` and `\` escaped, newline, tab and carriage
 * return as \n \t \r, any other control byte after a backslash (the lexer
 * takes `\c` as c). */
static void print_string(StrBuf *out, const char *s)
{
	strbuf_putc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			strbuf_putc(out, '\\');
			strbuf_putc(out, (char)c);
		} else if (c == '\n') {
			strbuf_puts(out, "\\n");
		} else if (c == '\t') {
			strbuf_puts(out, "\\t");
		} else if (c == '\r') {
			strbuf_puts(out, "\\r");
		} else {
			if (c < 0x20)
				strbuf_putc(out, '\\');
			strbuf_putc(out, (char)c);
		}
	}
	strbuf_putc(out, '"');
}

void print_device(StrBuf *out, int32_t device)
{
	if (device < 0) {
		strbuf_puts(out, "VirtualDevice()");
		return;
	}
	strbuf_puts(out, "meta[VirtualDevice][");
	print_i64(out, device);
	strbuf_putc(out, ']');
}

/* A device as the section printed after the module numbers it (slots), or
 * by its device-table index (slots NULL). */
static void print_device_in(StrBuf *out, MetadataSlots *slots, int32_t device)
{
	print_device(out, slots && device >= 0 ? metadata_slot(slots, device) : device);
}

typedef struct PrintListFrame {
	const AttrValue *list;
	uint32_t next;
} PrintListFrame;

/* An attribute value; nested lists use an explicit stack. */
static void print_attr_value(StrBuf *out, MetadataSlots *slots, const AttrValue *value)
{
	PrintListFrame *stack = NULL;
	size_t depth = 0, cap = 0;
	const AttrValue *v = value;
	for (;;) {
		if (v) {
			switch (v->kind) {
			case ATTR_NONE:
				strbuf_puts(out, "None");
				break;
			case ATTR_INT:
				/* TVM's IntImmToString: int32 bare */
				print_i64(out, v->u.i);
				if (v->suffix == NUM_I64)
					strbuf_puts(out, "i64");
				else if (v->suffix == NUM_I16)
					strbuf_puts(out, "i16");
				break;
			case ATTR_FLOAT:
				/* FloatImmToString: f32 as `f` */
				print_double(out, v->u.f);
				strbuf_puts(out, v->suffix == NUM_F64   ? "f64"
						 : v->suffix == NUM_F16 ? "f16"
									: "f");
				break;
			case ATTR_STRING:
				print_string(out, v->u.s ? v->u.s : "");
				break;
			case ATTR_BOOL:
				strbuf_puts(out, v->u.b ? "True" : "False");
				break;
			case ATTR_META:
				strbuf_puts(out, "meta[");
				strbuf_puts(out, v->u.meta.kind);
				strbuf_putc(out, ']');
				strbuf_putc(out, '[');
				print_i64(out, v->u.meta.index);
				strbuf_putc(out, ']');
				break;
			case ATTR_DEVICE:
				/* the parser reads an unconstrained device as None */
				if (v->u.device < 0)
					strbuf_puts(out, "None");
				else
					print_device_in(out, slots, v->u.device);
				break;
			case ATTR_CONSTANT:
				strbuf_puts(out, "meta[relay.Constant][");
				print_i64(out, v->u.constant);
				strbuf_putc(out, ']');
				break;
			case ATTR_LIST:
				strbuf_putc(out, '[');
				grow_array((void **)&stack, &cap, depth + 1, sizeof *stack);
				stack[depth++] = (PrintListFrame){v, 0};
				break;
			}
			v = NULL;
		}
		if (!depth)
			break;
		PrintListFrame *top = &stack[depth - 1];
		if (top->next < top->list->u.list.n) {
			if (top->next)
				strbuf_puts(out, ", ");
			v = &top->list->u.list.items[top->next++];
		} else {
			strbuf_putc(out, ']');
			depth--;
		}
	}
	free(stack);
}

/* `name=value` for each attribute, each preceded by ", " unless it is the
 * first item of the list being printed. */
static void print_attrs(StrBuf *out, MetadataSlots *slots, const Attr *attrs, uint32_t n,
			bool first)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!first || i)
			strbuf_puts(out, ", ");
		strbuf_puts(out, attrs[i].name);
		strbuf_putc(out, '=');
		print_attr_value(out, slots, &attrs[i].value);
	}
}

bool print_is_atom(const Expr *e)
{
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE: /* its name, in place, as TVM prints it */
		return true;
	case EXPR_CONSTRUCT:
		/* a constructor without fields prints bare, in place, as
		 * TVM prints it (it reads back as a ConstructorNode there) */
		return e->u.construct.nargs == 0;
	case EXPR_CALL:
	case EXPR_LET:
	case EXPR_FN:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_MATCH:
		return false;
	}
	return false;
}

static bool print_is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* Name table: an open-addressing set of names with flags, cleared in  */
/* O(1) by bumping a generation.                                        */
/* ------------------------------------------------------------------ */

enum {
	NAME_RESERVED = 1, /* some node of the global carries this name */
	NAME_ASSIGNED = 2, /* printed for a node already */
};

typedef struct NameSlot {
	const char *name; /* borrowed: a node's name or the printer's arena */
	uint32_t len;
	uint32_t gen; /* the slot is empty unless gen == table gen */
	uint64_t hash;
	uint32_t value; /* suffix table: the next suffix to try */
	uint8_t flags;
} NameSlot;

typedef struct NameTable {
	NameSlot *slots;
	size_t cap; /* a power of two */
	size_t count;
	uint32_t gen;
} NameTable;

static void print_names_clear(NameTable *t)
{
	t->gen++;
	t->count = 0;
	if (t->gen == 0) { /* wrapped: really clear */
		memset(t->slots, 0, t->cap * sizeof(NameSlot));
		t->gen = 1;
	}
}

static NameSlot *print_names_probe(NameTable *t, const char *name, size_t len, uint64_t hash)
{
	size_t mask = t->cap - 1;
	for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
		NameSlot *s = &t->slots[i];
		if (s->gen != t->gen)
			return s;
		if (s->hash == hash && s->len == len && memcmp(s->name, name, len) == 0)
			return s;
	}
}

/* The slot of `name`, or NULL when absent and !create. `name` must outlive
 * the table's current generation when created. The pointer is valid until
 * the next creation. */
static NameSlot *print_names_find(NameTable *t, const char *name, size_t len, bool create)
{
	uint64_t hash = hash_bytes(name, len);
	if (!t->cap) {
		if (!create)
			return NULL;
		t->cap = 64;
		t->slots = xcalloc(t->cap, sizeof(NameSlot));
		if (!t->gen)
			t->gen = 1;
	}
	NameSlot *s = print_names_probe(t, name, len, hash);
	if (s->gen == t->gen)
		return s;
	if (!create)
		return NULL;
	if (2 * (t->count + 1) > t->cap) {
		NameSlot *old = t->slots;
		size_t old_cap = t->cap;
		t->cap *= 2;
		t->slots = xcalloc(t->cap, sizeof(NameSlot));
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].gen == t->gen)
				*print_names_probe(t, old[i].name, old[i].len, old[i].hash) =
					old[i];
		free(old);
		s = print_names_probe(t, name, len, hash);
	}
	*s = (NameSlot){.name = name, .len = (uint32_t)len, .gen = t->gen, .hash = hash};
	t->count++;
	return s;
}

/* ------------------------------------------------------------------ */
/* The printer's state                                                 */
/* ------------------------------------------------------------------ */

enum {
	NODE_INLINE_EDGE = 1, /* some use is an inline position */
	NODE_INLINE = 2,      /* printed in place of its one use, unbound */
	NODE_ORDERED = 4,     /* reached by the ordering walk */
	NODE_PENDING = 8,     /* a binding of the segment being sorted, not yet placed */
	NODE_CHAIN_EDGE = 16, /* some use is a scope's result or a let's body */
	NODE_WRAPPED = 32,    /* a let printed in parentheses (see print_place) */
};

/* A function body, an if branch or a match clause's body. */
typedef struct PrintScope {
	int32_t parent; /* -1 for the global's body */
	int32_t jump;   /* skew-binary jump pointer (itself for the root) */
	uint32_t depth;
	Expr *root;      /* the expression whose value the scope yields */
	Expr *owner;     /* the closure or if it belongs to (NULL: the global) */
	int32_t anchors; /* first let of the scope in post-order (item list) */
	int32_t anchors_tail;
	int32_t items; /* bindings and let lines (item list): in walk order,
			  in print order once pass 5 has sorted them */
	int32_t items_tail;
} PrintScope;

/* A binding or a let line in a scope's list. */
typedef struct PrintItem {
	Expr *e; /* the bound node, or the let */
	int32_t next;
	bool let_line;
} PrintItem;

typedef struct PrintEvent {
	Expr *e;
	bool let_line; /* between the let's value and its variable */
} PrintEvent;

typedef enum WalkKind {
	WALK_NODE,     /* e: visit children from `next`, then finish e */
	WALK_SCOPE,    /* scope: its lets' values, each with its line, then its result */
	WALK_LET_LINE, /* e: a let whose value is done: list its line */
} WalkKind;

typedef struct WalkFrame {
	WalkKind kind;
	Expr *e;
	uint32_t next;  /* WALK_NODE: next child; WALK_SCOPE: 1 once the result is pushed */
	int32_t scope;  /* WALK_SCOPE */
	int32_t anchor; /* WALK_SCOPE: next let (item index), -1 at the end */
} WalkFrame;

typedef enum EmitKind {
	EMIT_SCOPE,        /* print items from `item`, then the result */
	EMIT_ELSE,         /* `} else {` and the else branch of if e */
	EMIT_CLOSE,        /* `}` (or `)`: paren) and the rest of the line that
			      opened the brace */
	EMIT_CLAUSE,       /* clause `item` of match e: `pattern => {` and its body */
	EMIT_CLAUSE_CLOSE, /* `},` after a clause's body */
} EmitKind;

typedef struct EmitFrame {
	EmitKind kind;
	uint32_t indent;
	int32_t scope;         /* EMIT_SCOPE */
	int32_t item;          /* EMIT_SCOPE: next item, -1 at the end;
				  EMIT_CLAUSE: the clause */
	Expr *e;               /* EMIT_ELSE: the if; EMIT_CLAUSE: the match;
				  EMIT_CLOSE: the closure, if or match whose
				  span the line's comment carries, or NULL */
	const Expr *annotated; /* EMIT_CLOSE: node the line's comment describes */
	bool semicolon;        /* EMIT_CLOSE: the line ends with `;` */
	bool paren;            /* EMIT_CLOSE: a wrapped let's `)`, not `}` */
} EmitFrame;

/* A binding being placed by the segment sort, after its dependencies. */
typedef struct SortFrame {
	Expr *e;
	size_t next, end; /* its dependencies still to look at, in Printer.deps */
} SortFrame;

/* Binding x of a scope uses binding d of the same scope, directly or from
 * inside one of its branches or its body. */
typedef struct PrintDep {
	uint32_t x; /* id */
	Expr *d;
} PrintDep;

typedef struct Printer {
	StrBuf *out;
	const IrModule *m;
	const PrintOptions *opts;
	const DeviceTable *devices;
	MetadataSlots *slots; /* with the module's own section: its device
				 numbers; NULL: device-table indices */
	/* Per node, by id; valid only where stamp[id] == gen. */
	uint32_t gen;
	uint32_t *stamp;
	uint32_t *uses;     /* parent edges within the global */
	int32_t *scope;     /* placement (while placing: common scope of uses) */
	int32_t *owned;     /* fn: its body scope; if: its then scope (else + 1);
			       match: its first clause's scope (clause k + k) */
	uint8_t *flags;     /* NODE_* */
	const char **names; /* printed name without '%' */
	Expr **target;      /* a let: the non-let end of its body chain; else itself */
	uint8_t *declared;  /* bitmap over ids: free variable already declared */
	PrintEvent *events;
	size_t nevents, events_cap;
	WalkFrame *walk;
	size_t walk_cap;
	PrintScope *scopes;
	size_t nscopes, scopes_cap;
	PrintItem *items;
	size_t nitems, items_cap;
	EmitFrame *emit;
	size_t emit_depth, emit_cap;
	SortFrame *sort;
	size_t sort_cap;
	ExprVec segment; /* the bindings of the segment being sorted */
	PrintDep *deps;  /* "x prints after d" for bindings of one scope, by x */
	size_t ndeps, deps_cap;
	uint32_t *first_dep; /* by id: where x's run in deps starts (pass 5) */
	/* Names taken in the current global: numbers below num_limit in two
	 * dense arrays (the common case, kept off the hash table), words and
	 * other numbers in names_table. */
	uint32_t num_limit;
	uint32_t *num_stamp; /* == gen: num_flags[n] is valid */
	uint8_t *num_flags;  /* NAME_* of the name "n" */
	NameTable names_table;
	NameTable suffixes;
	uint32_t next_number;
	StrBuf scratch;
	Arena arena;        /* generated names, freed with the printer */
	ExprVec extra_free; /* unlisted free variables met in the globals */
	/* printed types by Type pointer, direct-mapped: a module's nodes
	 * share few types, and `ty=` follows every binding */
	struct {
		const Type *type;
		StrBuf text;
	} type_cache[64];
} Printer;

static void print_init(Printer *p, StrBuf *out, const IrModule *m, const PrintOptions *opts,
		       const DeviceTable *devices)
{
	size_t n = m->nexprs ? m->nexprs : 1;
	memset(p, 0, sizeof *p);
	p->out = out;
	p->m = m;
	p->opts = opts;
	p->devices = devices;
	p->stamp = xcalloc(n, sizeof *p->stamp);
	p->uses = xmalloc(n * sizeof *p->uses);
	p->scope = xmalloc(n * sizeof *p->scope);
	p->owned = xmalloc(n * sizeof *p->owned);
	p->flags = xmalloc(n * sizeof *p->flags);
	p->names = xmalloc(n * sizeof *p->names);
	p->target = xmalloc(n * sizeof *p->target);
	p->first_dep = xmalloc(n * sizeof *p->first_dep);
	p->declared = xcalloc(n / 8 + 1, 1);
	/* a fresh number is below (reserved names + names given) <= 2n */
	p->num_limit = n > (UINT32_MAX - 64) / 2 ? UINT32_MAX - 1 : (uint32_t)(2 * n + 64);
	p->num_stamp = xcalloc(p->num_limit, sizeof *p->num_stamp);
	p->num_flags = xmalloc(p->num_limit);
	strbuf_init(&p->scratch);
	arena_init(&p->arena);
}

static void print_release(Printer *p)
{
	for (size_t i = 0; i < DP_COUNT(p->type_cache); i++)
		strbuf_free(&p->type_cache[i].text);
	free(p->stamp);
	free(p->uses);
	free(p->scope);
	free(p->owned);
	free(p->flags);
	free(p->names);
	free(p->target);
	free(p->first_dep);
	free(p->declared);
	free(p->num_stamp);
	free(p->num_flags);
	free(p->events);
	free(p->walk);
	free(p->scopes);
	free(p->items);
	free(p->emit);
	free(p->sort);
	exprvec_free(&p->segment);
	free(p->deps);
	free(p->names_table.slots);
	free(p->suffixes.slots);
	strbuf_free(&p->scratch);
	arena_free(&p->arena);
	exprvec_free(&p->extra_free);
}

static bool print_reached(const Printer *p, const Expr *e)
{
	return e->id < p->m->nexprs && p->stamp[e->id] == p->gen;
}

/* The node a reference to e prints as: a let stands for its body, unless
 * it is printed in parentheses (NODE_WRAPPED). */
static const Expr *print_resolve(const Printer *p, const Expr *e)
{
	while (e->kind == EXPR_LET) {
		if (!print_reached(p, e)) {
			e = e->u.let.body;
			continue;
		}
		if (p->flags[e->id] & NODE_WRAPPED)
			break;
		e = p->target[e->id];
	}
	return e;
}

static void print_push_event(Printer *p, Expr *e, bool let_line)
{
	if (p->nevents == p->events_cap)
		grow_array((void **)&p->events, &p->events_cap, p->nevents + 1, sizeof *p->events);
	p->events[p->nevents++] = (PrintEvent){e, let_line};
}

static int32_t print_push_item(Printer *p, Expr *e, bool let_line)
{
	if (p->nitems == p->items_cap)
		grow_array((void **)&p->items, &p->items_cap, p->nitems + 1, sizeof *p->items);
	DP_ASSERT(p->nitems < INT32_MAX);
	p->items[p->nitems] = (PrintItem){e, -1, let_line};
	return (int32_t)p->nitems++;
}

static void print_link_item(Printer *p, int32_t *head, int32_t *tail, Expr *e, bool let_line)
{
	int32_t i = print_push_item(p, e, let_line);
	if (*tail < 0)
		*head = i;
	else
		p->items[*tail].next = i;
	*tail = i;
}

/* ------------------------------------------------------------------ */
/* Pass 1: walk                                                        */
/* ------------------------------------------------------------------ */

/* A canonical decimal below num_limit ("0", "17"; not "017") as a number. */
static bool print_name_number(const Printer *p, const char *s, size_t len, uint32_t *out)
{
	uint64_t v = 0;
	if (len == 0 || len > 10 || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= p->num_limit)
		return false;
	*out = (uint32_t)v;
	return true;
}

static uint8_t *print_number_flags(Printer *p, uint32_t n)
{
	if (p->num_stamp[n] != p->gen) {
		p->num_stamp[n] = p->gen;
		p->num_flags[n] = 0;
	}
	return &p->num_flags[n];
}

/* The NAME_* flags of a name, or NULL when it is not known and !create.
 * With create, `name` must live as long as the printer. */
static uint8_t *print_name_flags(Printer *p, const char *name, size_t len, bool create)
{
	uint32_t n;
	NameSlot *s;
	if (print_name_number(p, name, len, &n))
		return print_number_flags(p, n);
	s = print_names_find(&p->names_table, name, len, create);
	return s ? &s->flags : NULL;
}

/* Resets e's per-node state on the first time the global reaches it. */
static void print_touch(Printer *p, Expr *e)
{
	uint32_t id = e->id;
	DP_ASSERT(id < p->m->nexprs);
	p->stamp[id] = p->gen;
	p->uses[id] = 0;
	p->scope[id] = -1;
	p->owned[id] = -1;
	p->flags[id] = 0;
	p->names[id] = NULL;
	p->target[id] = e;
	p->first_dep[id] = UINT32_MAX;
	if (e->name) {
		uint8_t *flags = print_name_flags(p, e->name, strlen(e->name), true);
		*flags |= NAME_RESERVED;
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_FREE)
			*flags |= NAME_ASSIGNED;
	}
	if (e->kind == EXPR_VAR && e->u.var.role == VAR_FREE &&
	    !(p->declared[id >> 3] & (1u << (id & 7)))) {
		p->declared[id >> 3] |= (uint8_t)(1u << (id & 7));
		exprvec_push(&p->extra_free, e);
	}
}

static void print_push_walk(Printer *p, size_t *depth, WalkFrame frame)
{
	grow_array((void **)&p->walk, &p->walk_cap, *depth + 1, sizeof *p->walk);
	p->walk[(*depth)++] = frame;
}

static void print_walk(Printer *p, Expr *root)
{
	size_t depth = 0;
	p->nevents = 0;
	print_touch(p, root);
	print_push_walk(p, &depth, (WalkFrame){.kind = WALK_NODE, .e = root});
	while (depth) {
		WalkFrame *top = &p->walk[depth - 1];
		Expr *e = top->e;
		if (e->kind == EXPR_LET && top->next == 1)
			print_push_event(p, e, true);
		if (top->next < ir_child_count(e)) {
			Expr *c = ir_child(e, top->next++);
			if (!print_reached(p, c)) {
				print_touch(p, c);
				print_push_walk(p, &depth, (WalkFrame){.kind = WALK_NODE, .e = c});
			}
			p->uses[c->id]++;
			continue;
		}
		print_push_event(p, e, false);
		depth--;
	}
}

/* ------------------------------------------------------------------ */
/* Pass 2: place                                                       */
/* ------------------------------------------------------------------ */

static int32_t print_new_scope(Printer *p, int32_t parent, Expr *owner, Expr *root)
{
	if (p->nscopes == p->scopes_cap)
		grow_array((void **)&p->scopes, &p->scopes_cap, p->nscopes + 1, sizeof *p->scopes);
	DP_ASSERT(p->nscopes < INT32_MAX);
	int32_t id = (int32_t)p->nscopes++;
	PrintScope *s = &p->scopes[id];
	*s = (PrintScope){.owner = parent >= 0 ? owner : NULL,
			  .parent = parent,
			  .jump = id,
			  .root = root,
			  .anchors = -1,
			  .anchors_tail = -1,
			  .items = -1,
			  .items_tail = -1};
	if (parent >= 0) {
		const PrintScope *ps = &p->scopes[parent];
		const PrintScope *pj = &p->scopes[ps->jump];
		const PrintScope *pjj = &p->scopes[pj->jump];
		s->depth = ps->depth + 1;
		s->jump = ps->depth - pj->depth == pj->depth - pjj->depth ? pj->jump : parent;
	}
	return id;
}

static int32_t print_ancestor_at(const Printer *p, int32_t s, uint32_t depth)
{
	while (p->scopes[s].depth > depth) {
		int32_t j = p->scopes[s].jump;
		s = p->scopes[j].depth >= depth ? j : p->scopes[s].parent;
	}
	return s;
}

/* The innermost scope enclosing both a and b. */
static int32_t print_common_scope(const Printer *p, int32_t a, int32_t b)
{
	if (a == b)
		return a;
	if (p->scopes[a].depth > p->scopes[b].depth)
		a = print_ancestor_at(p, a, p->scopes[b].depth);
	else
		b = print_ancestor_at(p, b, p->scopes[a].depth);
	while (a != b) {
		int32_t ja = p->scopes[a].jump, jb = p->scopes[b].jump;
		if (ja != jb) {
			a = ja;
			b = jb;
		} else {
			a = p->scopes[a].parent;
			b = p->scopes[b].parent;
		}
	}
	return a;
}

/* Records a use of c in scope s; edge holds NODE_INLINE_EDGE when the use
 * prints c in place, and NODE_CHAIN_EDGE too when c is what the scope
 * yields (its result, or the body of a let whose line is in it). */
static void print_use(Printer *p, const Expr *c, int32_t s, uint8_t edge)
{
	if (print_is_atom(c))
		return;
	int32_t *acc = &p->scope[c->id];
	*acc = *acc < 0 ? s : print_common_scope(p, *acc, s);
	p->flags[c->id] |= edge;
}

enum {
	EDGE_OPERAND = 0,
	EDGE_INLINE = NODE_INLINE_EDGE,
	EDGE_CHAIN = NODE_INLINE_EDGE | NODE_CHAIN_EDGE,
};

static void print_place(Printer *p, Expr *root)
{
	p->nscopes = 0;
	for (size_t i = p->nevents; i-- > 0;) {
		Expr *e = p->events[i].e;
		uint32_t id = e->id;
		int32_t s = -1;
		if (p->events[i].let_line || print_is_atom(e))
			continue;
		if (e != root) {
			s = p->scope[id];
			DP_ASSERT(s >= 0);
			/* a name from the source stays printed, even where a
			 * phase left its node a scope's result or a let's value */
			if (p->uses[id] == 1 && (p->flags[id] & NODE_INLINE_EDGE) &&
			    !(e->name && !e->name_generated))
				p->flags[id] |= NODE_INLINE;
		}
		switch (e->kind) {
		case EXPR_FN:
			p->owned[id] = print_new_scope(p, s, e, e->u.fn.body);
			print_use(p, e->u.fn.body, p->owned[id], EDGE_CHAIN);
			break;
		case EXPR_IF:
			p->owned[id] = print_new_scope(p, s, e, e->u.if_.then_branch);
			print_new_scope(p, s, e, e->u.if_.else_branch);
			print_use(p, e->u.if_.cond, s, EDGE_OPERAND);
			print_use(p, e->u.if_.then_branch, p->owned[id], EDGE_CHAIN);
			print_use(p, e->u.if_.else_branch, p->owned[id] + 1, EDGE_CHAIN);
			break;
		case EXPR_MATCH:
			print_use(p, e->u.match.scrutinee, s, EDGE_OPERAND);
			for (uint32_t k = 0; k < e->u.match.nclauses; k++) {
				int32_t c = print_new_scope(p, s, e, e->u.match.bodies[k]);
				if (k == 0)
					p->owned[id] = c;
				print_use(p, e->u.match.bodies[k], c, EDGE_CHAIN);
			}
			break;
		case EXPR_LET:
			/* A let whose one use is a scope's result or a let's
			 * body is a line of that scope, `let %x = v;`. Any other
			 * (an operand, a let's value, a let used twice) is
			 * printed as TVM prints it, in parentheses around a
			 * scope of its own, `%0 = (let %x = v; b);`, so that it
			 * reads back as the same nested let */
			if (!(p->uses[id] == 1 && (p->flags[id] & NODE_CHAIN_EDGE))) {
				p->flags[id] |= NODE_WRAPPED;
				s = p->owned[id] = print_new_scope(p, s, e, e->u.let.body);
			}
			print_use(p, e->u.let.value, s, EDGE_INLINE);
			print_use(p, e->u.let.body, s, EDGE_CHAIN);
			break;
		case EXPR_CALL:
		case EXPR_TUPLE:
		case EXPR_PROJ:
		case EXPR_CONSTRUCT:
			for (uint32_t k = 0, n = ir_child_count(e); k < n; k++)
				print_use(p, ir_child(e, k), s, EDGE_OPERAND);
			break;
		case EXPR_VAR:
		case EXPR_GLOBAL:
		case EXPR_CONSTANT:
		case EXPR_OP_VALUE:
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Pass 3: anchor                                                      */
/* ------------------------------------------------------------------ */

/* The scope whose lines hold let e's line: its own when it is wrapped. */
static int32_t print_let_scope(const Printer *p, const Expr *e)
{
	return (p->flags[e->id] & NODE_WRAPPED) ? p->owned[e->id] : p->scope[e->id];
}

static void print_anchor(Printer *p)
{
	p->nitems = 0;
	for (size_t i = 0; i < p->nevents; i++) {
		Expr *e = p->events[i].e;
		if (p->events[i].let_line) {
			PrintScope *s = &p->scopes[print_let_scope(p, e)];
			print_link_item(p, &s->anchors, &s->anchors_tail, e, true);
		} else if (e->kind == EXPR_LET && !(p->flags[e->id] & NODE_WRAPPED)) {
			/* the body came earlier in post-order */
			p->target[e->id] = p->target[e->u.let.body->id];
		}
	}
}

/* ------------------------------------------------------------------ */
/* Pass 4: order (and the naming helpers pass 6 uses)                 */
/* ------------------------------------------------------------------ */

/* A copy of text in the printer's arena, marked as given. */
static const char *print_claim(Printer *p, const char *text, size_t len)
{
	char *name = arena_strndup(&p->arena, text, len);
	*print_name_flags(p, name, len, true) |= NAME_ASSIGNED;
	return name;
}

/* True when some node of the global has the name or it was given. */
static bool print_name_taken(Printer *p, const char *text, size_t len)
{
	uint8_t *flags = print_name_flags(p, text, len, false);
	return flags && *flags;
}

/* The lowest number no node of the global is named and none was given. */
static const char *print_fresh_number(Printer *p)
{
	for (;;) {
		uint32_t n = p->next_number++;
		if (n < p->num_limit && *print_number_flags(p, n))
			continue;
		strbuf_reset(&p->scratch);
		print_u64(&p->scratch, n);
		if (!print_name_taken(p, p->scratch.data, p->scratch.len))
			return print_claim(p, p->scratch.data, p->scratch.len);
	}
}

/* base followed by the lowest suffix 1, 2, ... that makes a free name. */
static const char *print_fresh_suffix(Printer *p, const char *base)
{
	size_t len = strlen(base);
	NameSlot *counter = print_names_find(&p->suffixes, base, len, true);
	uint32_t k = counter->value ? counter->value : 1;
	for (;; k++) {
		strbuf_reset(&p->scratch);
		strbuf_append(&p->scratch, base, len);
		print_u64(&p->scratch, k);
		if (!print_name_taken(p, p->scratch.data, p->scratch.len))
			break;
	}
	counter->value = k + 1; /* only names_table changes below */
	return print_claim(p, p->scratch.data, p->scratch.len);
}

/* Gives `name` to e if no node printed so far has it; false otherwise. */
static bool print_take_name(Printer *p, Expr *e, const char *name)
{
	uint8_t *flags = print_name_flags(p, name, strlen(name), true);
	if (*flags & NAME_ASSIGNED)
		return false;
	*flags |= NAME_ASSIGNED;
	p->names[e->id] = name;
	return true;
}

static void print_name_var(Printer *p, Expr *e)
{
	const char *base;
	if (p->names[e->id])
		return;
	if (e->u.var.role == VAR_FREE) {
		p->names[e->id] = e->name ? e->name : "?";
		return;
	}
	/* %0 would read as a graph binding: a variable gets a word */
	if (e->name && !print_is_number(e->name)) {
		if (print_take_name(p, e, e->name))
			return;
		base = e->name;
	} else {
		/* TVM's printer calls a variable without a name (the one
		 * of `e1; e2`) %v */
		base = e->name ? "x" : "v";
		if (!print_name_taken(p, base, 1)) {
			p->names[e->id] = print_claim(p, base, 1);
			return;
		}
	}
	p->names[e->id] = print_fresh_suffix(p, base);
}

static void print_name_binding(Printer *p, Expr *e)
{
	if (p->names[e->id])
		return;
	if (e->name && print_take_name(p, e, e->name))
		return;
	p->names[e->id] = !e->name || print_is_number(e->name) ? print_fresh_number(p)
							       : print_fresh_suffix(p, e->name);
}

/* The ordering walk met e for the first time: list its binding. */
static void print_finish(Printer *p, Expr *e, Expr *root)
{
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
		return;
	case EXPR_LET:
		if (!(p->flags[e->id] & NODE_WRAPPED))
			return;
		break;
	case EXPR_CONSTRUCT:
		if (print_is_atom(e))
			return;
		break;
	case EXPR_CALL:
	case EXPR_FN:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_MATCH:
		break;
	}
	if (e == root || (p->flags[e->id] & NODE_INLINE))
		return;
	PrintScope *s = &p->scopes[p->scope[e->id]];
	print_link_item(p, &s->items, &s->items_tail, e, false);
}

/* Pushes e (a let: the node it stands for) unless the walk has met it. */
static void print_visit(Printer *p, size_t *depth, const Expr *e)
{
	Expr *n = (Expr *)print_resolve(p, e);
	if (!print_reached(p, n) || (p->flags[n->id] & NODE_ORDERED))
		return;
	p->flags[n->id] |= NODE_ORDERED;
	print_push_walk(p, depth, (WalkFrame){.kind = WALK_NODE, .e = n});
}

static void print_order(Printer *p, Expr *root)
{
	size_t depth = 0;
	print_visit(p, &depth, root);
	while (depth) {
		WalkFrame *top = &p->walk[depth - 1];
		switch (top->kind) {
		case WALK_SCOPE: {
			PrintScope *s = &p->scopes[top->scope];
			if (top->anchor >= 0) {
				Expr *let = p->items[top->anchor].e;
				top->anchor = p->items[top->anchor].next;
				print_push_walk(p, &depth,
						(WalkFrame){.kind = WALK_LET_LINE, .e = let});
				print_visit(p, &depth, let->u.let.value);
			} else if (!top->next) {
				top->next = 1;
				print_visit(p, &depth, s->root);
			} else {
				depth--;
			}
			break;
		}
		case WALK_LET_LINE: {
			Expr *let = top->e, *var = let->u.let.var;
			PrintScope *s = &p->scopes[print_let_scope(p, let)];
			depth--;
			print_link_item(p, &s->items, &s->items_tail, let, true);
			if (print_reached(p, var))
				p->flags[var->id] |= NODE_ORDERED;
			break;
		}
		case WALK_NODE: {
			Expr *e = top->e;
			int32_t scope = -1;
			if (e->kind == EXPR_FN && top->next == e->u.fn.nparams)
				scope = p->owned[e->id];
			else if (e->kind == EXPR_IF && (top->next == 1 || top->next == 2))
				scope = p->owned[e->id] + (int32_t)top->next - 1;
			else if (e->kind == EXPR_MATCH && ir_match_body_of_child(e, top->next) >= 0)
				scope = p->owned[e->id] + ir_match_body_of_child(e, top->next);
			else if (e->kind == EXPR_LET && top->next == 0) /* wrapped */
				scope = p->owned[e->id];
			if (scope >= 0) {
				/* a wrapped let's scope holds all of it */
				top->next = e->kind == EXPR_LET ? ir_child_count(e) : top->next + 1;
				print_push_walk(p, &depth,
						(WalkFrame){.kind = WALK_SCOPE,
							    .scope = scope,
							    .anchor = p->scopes[scope].anchors});
			} else if (top->next < ir_child_count(e)) {
				Expr *c = ir_child(e, top->next++);
				print_visit(p, &depth, c);
			} else {
				depth--;
				print_finish(p, e, root);
			}
			break;
		}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Pass 5: sort each segment (the bindings between two let lines)      */
/* ------------------------------------------------------------------ */

/* The walk fixed which segment of its scope each binding belongs to; within
 * a segment any order that puts a binding after what it uses reads back
 * the same. Bindings print in id order, which is the source order of a
 * parsed module and the construction order of a built one, and a binding
 * that something uses before its turn (a node a pass inserted later) is
 * pulled in just before its first user. On reparse the ids follow the
 * printed order, so the order is a fixed point [P1]. */

static int print_compare_ids(const void *a, const void *b)
{
	uint32_t x = (*(Expr *const *)a)->id, y = (*(Expr *const *)b)->id;
	return x < y ? -1 : x > y;
}

static bool print_is_bound(const Printer *p, const Expr *e)
{
	return !print_is_atom(e) && (e->kind != EXPR_LET || (p->flags[e->id] & NODE_WRAPPED)) &&
	       p->scope[e->id] >= 0 && !(p->flags[e->id] & NODE_INLINE);
}

static void print_add_dep(Printer *p, const Expr *x, Expr *d)
{
	if (p->ndeps == p->deps_cap)
		grow_array((void **)&p->deps, &p->deps_cap, p->ndeps + 1, sizeof *p->deps);
	p->deps[p->ndeps++] = (PrintDep){x->id, d};
}

static int print_compare_deps(const void *a, const void *b)
{
	const PrintDep *x = a, *y = b;
	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return x->d->id < y->d->id ? -1 : x->d->id > y->d->id;
}

/* Every "x after d" between bindings of one scope, each edge looked at
 * once: an edge between two bindings of a scope is a dependency of its
 * user; an edge from inside a branch or body to a binding d of an
 * enclosing scope S is charged to the binding of S that owns that branch
 * or body (an owner printed in place -- a result or a let's value -- comes
 * after its segment anyway). A let of an enclosing scope stands for its
 * body. Sorted by x, then by d's id. */
static void print_collect_deps(Printer *p)
{
	p->ndeps = 0;
	for (size_t i = 0; i < p->nevents; i++) {
		Expr *u = p->events[i].e;
		int32_t q;
		if (p->events[i].let_line || print_is_atom(u) || p->scope[u->id] < 0)
			continue;
		q = p->scope[u->id];
		for (uint32_t k = 0, n = ir_child_count(u); k < n; k++) {
			Expr *t = ir_child(u, k);
			int32_t s;
			if (t->kind == EXPR_LET && print_reached(p, t) && p->scope[t->id] >= 0 &&
			    p->scopes[p->scope[t->id]].depth <= p->scopes[q].depth)
				t = (Expr *)print_resolve(p, t);
			if (!print_reached(p, t) || !print_is_bound(p, t))
				continue;
			s = p->scope[t->id];
			if (s == q) {
				if (print_is_bound(p, u))
					print_add_dep(p, u, t);
			} else if (p->scopes[s].depth < p->scopes[q].depth) {
				int32_t a = print_ancestor_at(p, q, p->scopes[s].depth + 1);
				Expr *x = p->scopes[a].owner;
				if (p->scopes[a].parent == s && x && print_is_bound(p, x) &&
				    p->scope[x->id] == s)
					print_add_dep(p, x, t);
			}
		}
	}
	for (size_t i = 1; i < p->ndeps; i++) {
		if (print_compare_deps(&p->deps[i - 1], &p->deps[i]) > 0) {
			qsort(p->deps, p->ndeps, sizeof *p->deps, print_compare_deps);
			break;
		}
	}
	DP_ASSERT(p->ndeps < UINT32_MAX);
	for (size_t i = p->ndeps; i-- > 0;)
		p->first_dep[p->deps[i].x] = (uint32_t)i;
}

/* The run of p->deps whose x is id: [*begin, *end). */
static void print_find_deps(const Printer *p, uint32_t id, size_t *begin, size_t *end)
{
	size_t i = p->first_dep[id];
	if (i >= p->ndeps || p->deps[i].x != id) {
		*begin = *end = 0;
		return;
	}
	*begin = i;
	while (i < p->ndeps && p->deps[i].x == id)
		i++;
	*end = i;
}

static void print_push_sort(Printer *p, size_t depth, Expr *e)
{
	grow_array((void **)&p->sort, &p->sort_cap, depth + 1, sizeof *p->sort);
	p->sort[depth].e = e;
	print_find_deps(p, e->id, &p->sort[depth].next, &p->sort[depth].end);
}

static void print_sort_segment(Printer *p, const int32_t *slots, size_t n)
{
	Expr **order = p->segment.items;
	size_t placed = 0, depth = 0;
	bool sorted = true;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = order[i - 1]->id < order[i]->id;
	if (!sorted)
		qsort(order, n, sizeof(Expr *), print_compare_ids);
	for (size_t i = 0; i < n; i++)
		p->flags[order[i]->id] |= NODE_PENDING;
	for (size_t i = 0; i < n; i++) {
		if (!(p->flags[order[i]->id] & NODE_PENDING))
			continue;
		print_push_sort(p, depth++, order[i]);
		while (depth) {
			SortFrame *top = &p->sort[depth - 1];
			Expr *dep = NULL;
			while (top->next < top->end && !dep) {
				Expr *d = p->deps[top->next++].d;
				if (p->flags[d->id] & NODE_PENDING)
					dep = d;
			}
			if (dep) {
				print_push_sort(p, depth++, dep);
				continue;
			}
			/* everything it uses is placed: place it */
			p->flags[top->e->id] &= (uint8_t)~NODE_PENDING;
			DP_ASSERT(placed < n);
			p->items[slots[placed++]].e = top->e;
			depth--;
		}
	}
	DP_ASSERT(placed == n);
}

static void print_sort(Printer *p)
{
	int32_t *slots = NULL;
	size_t cap = 0;
	print_collect_deps(p);
	for (size_t s = 0; s < p->nscopes; s++) {
		int32_t i = p->scopes[s].items;
		size_t n = 0;
		for (;;) {
			if (i < 0 || p->items[i].let_line) {
				if (n)
					print_sort_segment(p, slots, n);
				n = 0;
				p->segment.count = 0;
				if (i < 0)
					break;
			} else {
				grow_array((void **)&slots, &cap, n + 1, sizeof *slots);
				slots[n++] = i;
				exprvec_push(&p->segment, p->items[i].e);
			}
			i = p->items[i].next;
		}
	}
	free(slots);
}

/* ------------------------------------------------------------------ */
/* Pass 6: emit                                                        */
/* ------------------------------------------------------------------ */

/* The source span of e, or NULL (none, or e is NULL). */
static const char *print_span_of(const Printer *p, const Expr *e)
{
	return e && p->m->spans ? ir_span(p->m, e) : NULL;
}

/* ` span=S` for the span of e, if it has one. */
static void print_span(Printer *p, const Expr *e)
{
	const char *span = print_span_of(p, e);
	if (span) {
		strbuf_puts(p->out, " span=");
		strbuf_puts(p->out, span);
	}
}

/* The comment describing e (ty=T and/or the device name, see print.h),
 * then the source span of `spanned`, which TVM's printer writes last in
 * the comment after an expression (`span=NAME:LINE:COL`, also without a
 * type); nothing when none of them applies. */
static void print_note(Printer *p, const Expr *e, const Expr *spanned)
{
	bool ty = p->opts->show_types && e && e->type;
	int32_t device = !e                   ? IR_NO_DEVICE
			 : p->opts->device_of ? p->opts->device_of[e->id]
					      : e->device;
	bool dev = p->opts->show_devices && e && (p->opts->device_of || device != IR_NO_DEVICE);
	const char *span = print_span_of(p, spanned);
	if (!ty && !dev && !span)
		return;
	strbuf_puts(p->out, " /*");
	if (ty || dev)
		strbuf_putc(p->out, ' ');
	if (ty) {
		size_t slot = ((uintptr_t)e->type >> 4) % DP_COUNT(p->type_cache);
		strbuf_puts(p->out, "ty=");
		if (p->type_cache[slot].type != e->type) {
			strbuf_reset(&p->type_cache[slot].text);
			type_print(&p->type_cache[slot].text, e->type);
			p->type_cache[slot].type = e->type;
		}
		strbuf_append(p->out, p->type_cache[slot].text.data, p->type_cache[slot].text.len);
	}
	if (ty && dev)
		strbuf_putc(p->out, ' ');
	if (dev)
		strbuf_puts(p->out,
			    device == IR_NO_DEVICE ? "free" : devices_name(p->devices, device));
	if (span) {
		strbuf_puts(p->out, " span=");
		strbuf_puts(p->out, span);
	}
	strbuf_puts(p->out, " */");
}

/* The comment of e and its own span. */
static void print_comment(Printer *p, const Expr *e)
{
	print_note(p, e, e);
}

/* The span of a node whose comment devplan does not print where TVM does
 * (a let's or a pattern's variable, after its type; a bare constructor),
 * in a comment of its own as TVM writes it, `ty=T span=S` (a variable's
 * type when types are shown; a bare constructor's type may be open,
 * `List[?]`, where TVM's is known). Nothing for a node without a span. */
static void print_own_span(Printer *p, const Expr *e)
{
	if (!print_span_of(p, e))
		return;
	strbuf_puts(p->out, " /*");
	if (e->kind == EXPR_VAR && p->opts->show_types && e->type) {
		strbuf_puts(p->out, " ty=");
		type_print(p->out, e->type);
	}
	print_span(p, e);
	strbuf_puts(p->out, " */");
}

/* The end of a line: the comment describing `annotated` with the span of
 * `spanned` (the expression printed in full on it, or NULL), and `;`. */
static void print_end_line(Printer *p, const Expr *annotated, const Expr *spanned, bool semicolon)
{
	print_note(p, annotated, spanned);
	if (semicolon)
		strbuf_putc(p->out, ';');
	strbuf_putc(p->out, '\n');
}

/* A reference: a variable, global, constant, or the name of a binding. */
static void print_atom(Printer *p, const Expr *e)
{
	StrBuf *out = p->out;
	e = print_resolve(p, e);
	switch (e->kind) {
	case EXPR_GLOBAL:
		strbuf_putc(out, '@');
		strbuf_puts(out, e->u.global.name);
		return;
	case EXPR_OP_VALUE:
		strbuf_puts(out, e->u.op_value.name);
		return;
	case EXPR_CONSTANT:
		/* TVM follows a constant with its type where it stands */
		print_constant(out, e);
		print_comment(p, e);
		return;
	case EXPR_CONSTRUCT:
		if (print_is_atom(e)) {
			strbuf_puts(out, e->u.construct.name);
			print_own_span(p, e);
			return;
		}
		break;
	case EXPR_VAR:
	case EXPR_CALL:
	case EXPR_LET:
	case EXPR_FN:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_MATCH:
		break;
	}
	strbuf_putc(out, '%');
	if (print_reached(p, e) && p->names[e->id])
		strbuf_puts(out, p->names[e->id]);
	else
		strbuf_puts(out, e->kind == EXPR_VAR && e->name ? e->name : "?");
}

static void print_param(Printer *p, Expr *var)
{
	StrBuf *out = p->out;
	if (var->kind == EXPR_VAR && print_reached(p, var))
		print_name_var(p, var);
	print_atom(p, var);
	if (var->device != IR_NO_DEVICE) {
		strbuf_puts(out, " {virtual_device=");
		print_device_in(out, p->slots, var->device);
		strbuf_putc(out, '}');
	}
	if (var->kind == EXPR_VAR && var->u.var.annotation) {
		strbuf_puts(out, ": ");
		type_print(out, var->u.var.annotation);
	} else if (var->kind == EXPR_VAR && p->opts->show_types && var->type) {
		/* TVM's inference writes the type it found for an
		 * unannotated parameter as its annotation */
		strbuf_puts(out, ": ");
		type_print(out, var->type);
	}
	print_comment(p, var);
}

/* `[A](params, virtual_device=D, attrs) -> T {` and the newline. */
static void print_fn_head(Printer *p, const Expr *fn)
{
	StrBuf *out = p->out;
	const Type *ret = fn->u.fn.ret_type;
	const FnHead *head = fn->u.fn.head;
	if (head->ntype_params) { /* a polymorphic closure: `fn [A, B](` */
		strbuf_putc(out, '[');
		for (uint32_t i = 0; i < head->ntype_params; i++) {
			if (i)
				strbuf_puts(out, ", ");
			strbuf_puts(out, head->type_params[i]);
		}
		strbuf_putc(out, ']');
	}
	strbuf_putc(out, '(');
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++) {
		if (i)
			strbuf_puts(out, ", ");
		print_param(p, fn->u.fn.params[i]);
	}
	/* TVM's order: the attributes, then the device */
	print_attrs(out, p->slots, fn->u.fn.head->attrs, fn->u.fn.head->nattrs,
		    fn->u.fn.nparams == 0);
	if (fn->device != IR_NO_DEVICE) {
		if (fn->u.fn.nparams || fn->u.fn.head->nattrs)
			strbuf_puts(out, ", ");
		strbuf_puts(out, "virtual_device=");
		print_device_in(out, p->slots, fn->device);
	}
	strbuf_putc(out, ')');
	if (!ret && p->opts->show_types && fn->type && fn->type->kind == TYPE_FUNC)
		ret = fn->type->u.func.ret; /* may stay NULL */
	if (ret) {
		strbuf_puts(out, " -> ");
		type_print(out, ret);
	}
	strbuf_puts(out, " {\n");
}

static void print_push_emit(Printer *p, EmitFrame frame)
{
	grow_array((void **)&p->emit, &p->emit_cap, p->emit_depth + 1, sizeof *p->emit);
	p->emit[p->emit_depth++] = frame;
}

static void print_push_scope(Printer *p, int32_t scope, uint32_t indent)
{
	print_push_emit(p, (EmitFrame){.kind = EMIT_SCOPE,
				       .indent = indent,
				       .scope = scope,
				       .item = p->scopes[scope].items});
}

/* The end of an unknown operator's call: its attributes as written, the
 * ')', and the printed type the parser needs to read it back, with the
 * call's span, unless the line's comment will carry them. True when it
 * printed them. */
static bool print_unknown_op_rest(Printer *p, const Expr *e, const Expr *annotated)
{
	const UnknownOp *u = e->u.call.unknown;
	if (*u->attrs) {
		if (e->u.call.nargs)
			strbuf_puts(p->out, ", ");
		strbuf_puts(p->out, u->attrs);
	}
	strbuf_putc(p->out, ')');
	if (annotated == e && p->opts->show_types && e->type == u->type)
		return false;
	strbuf_puts(p->out, " /* ty=");
	type_print(p->out, u->type);
	print_span(p, e);
	strbuf_puts(p->out, " */");
	return true;
}

/* The type of a call whose operator's relation reads it back
 * (op_type_is_printed), with the call's span, unless the line's comment
 * will carry them. True when it printed them. */
static bool print_type_after_call(Printer *p, const Expr *e, const Expr *annotated)
{
	if (!e->type || (annotated == e && p->opts->show_types))
		return false;
	strbuf_puts(p->out, " /* ty=");
	type_print(p->out, e->type);
	print_span(p, e);
	strbuf_puts(p->out, " */");
	return true;
}

/* e in full on the current line. A call, tuple or projection ends the line
 * (comment describing `annotated` with e's span, then `;` if semicolon); a
 * closure or an if opens its braces and pushes the frames that print and
 * close them. */
static void print_full(Printer *p, const Expr *e, uint32_t indent, const Expr *annotated,
		       bool semicolon)
{
	StrBuf *out = p->out;
	const Expr *spanned = e;
	switch (e->kind) {
	case EXPR_CALL:
		if (e->u.call.op != OP_NONE)
			strbuf_puts(out, ir_call_op_name(e));
		else if (e->u.call.callee)
			print_atom(p, e->u.call.callee);
		else
			strbuf_puts(out, "%?");
		strbuf_putc(out, '(');
		for (uint32_t i = 0; i < e->u.call.nargs; i++) {
			if (i)
				strbuf_puts(out, ", ");
			print_atom(p, e->u.call.args[i]);
		}
		print_attrs(out, p->slots, e->u.call.attrs, e->u.call.nattrs, e->u.call.nargs == 0);
		if (e->u.call.op == OP_UNKNOWN) {
			if (print_unknown_op_rest(p, e, annotated))
				spanned = NULL;
		} else {
			strbuf_putc(out, ')');
			if (op_type_is_printed(e->u.call.op) &&
			    print_type_after_call(p, e, annotated))
				spanned = NULL;
		}
		break;
	case EXPR_TUPLE:
		strbuf_putc(out, '(');
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++) {
			if (i)
				strbuf_puts(out, ", ");
			print_atom(p, e->u.tuple.fields[i]);
		}
		if (e->u.tuple.nfields == 1)
			strbuf_putc(out, ',');
		strbuf_putc(out, ')');
		break;
	case EXPR_PROJ:
		print_atom(p, e->u.proj.tuple);
		strbuf_putc(out, '.');
		print_u64(out, e->u.proj.index);
		break;
	case EXPR_FN:
		strbuf_puts(out, "fn ");
		print_fn_head(p, e);
		print_push_emit(p, (EmitFrame){.kind = EMIT_CLOSE,
					       .indent = indent,
					       .e = (Expr *)e,
					       .annotated = annotated,
					       .semicolon = semicolon});
		print_push_scope(p, p->owned[e->id], indent + 1);
		return;
	case EXPR_IF:
		strbuf_puts(out, "if (");
		print_atom(p, e->u.if_.cond);
		strbuf_puts(out, ") {\n");
		print_push_emit(p, (EmitFrame){.kind = EMIT_CLOSE,
					       .indent = indent,
					       .e = (Expr *)e,
					       .annotated = annotated,
					       .semicolon = semicolon});
		print_push_emit(p,
				(EmitFrame){.kind = EMIT_ELSE, .indent = indent, .e = (Expr *)e});
		print_push_scope(p, p->owned[e->id], indent + 1);
		return;
	case EXPR_MATCH:
		/* TVM's layout: `match (x) {`, each clause on its own line
		 * with its body in braces and a comma, then `}` */
		strbuf_puts(out, e->u.match.complete ? "match (" : "match? (");
		print_atom(p, e->u.match.scrutinee);
		strbuf_puts(out, ") {\n");
		if (!e->u.match.nclauses) {
			print_indent(out, indent + 1);
			strbuf_putc(out, '\n');
		}
		print_push_emit(p, (EmitFrame){.kind = EMIT_CLOSE,
					       .indent = indent,
					       .e = (Expr *)e,
					       .annotated = annotated,
					       .semicolon = semicolon});
		for (uint32_t k = e->u.match.nclauses; k-- > 0;)
			print_push_emit(p, (EmitFrame){.kind = EMIT_CLAUSE,
						       .indent = indent + 1,
						       .item = (int32_t)k,
						       .e = (Expr *)e});
		return;
	case EXPR_CONSTRUCT:
		strbuf_puts(out, e->u.construct.name);
		if (e->u.construct.nargs) {
			strbuf_putc(out, '(');
			for (uint32_t i = 0; i < e->u.construct.nargs; i++) {
				if (i)
					strbuf_puts(out, ", ");
				print_atom(p, e->u.construct.args[i]);
			}
			strbuf_putc(out, ')');
		}
		break;
	case EXPR_LET:
		if (print_reached(p, e) && (p->flags[e->id] & NODE_WRAPPED)) {
			/* TVM's layout of a let in an expression */
			strbuf_puts(out, "(\n");
			print_push_emit(p, (EmitFrame){.kind = EMIT_CLOSE,
						       .indent = indent,
						       .e = (Expr *)e,
						       .annotated = annotated,
						       .semicolon = semicolon,
						       .paren = true});
			print_push_scope(p, p->owned[e->id], indent + 1);
			return;
		}
		/* a let printed as its body: a reference to that */
		/* fall through */
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
		/* a reference (TVM prints a variable's span where it is
		 * defined), or a constant with its own comment */
		print_atom(p, e);
		spanned = NULL;
		break;
	}
	print_end_line(p, annotated, spanned, semicolon);
}

/* A pattern as TVM prints it: `_`, `%x: T`, `Cons(%h, _)`, `(%a, %b)`.
 * Recursive: a pattern nests as deep as the parser let it (PARSE_MAX_DEPTH). */
static void print_pattern(Printer *p, const Expr *match, const Pattern *pat)
{
	StrBuf *out = p->out;
	Expr *var;
	switch (pat->kind) {
	case PATTERN_WILDCARD:
		strbuf_putc(out, '_');
		return;
	case PATTERN_VAR:
		var = match->u.match.vars[pat->var];
		if (print_reached(p, var))
			print_name_var(p, var);
		print_atom(p, var);
		if (var->u.var.annotation) {
			strbuf_puts(out, ": ");
			type_print(out, var->u.var.annotation);
		}
		print_own_span(p, var);
		return;
	case PATTERN_CONSTRUCTOR:
		strbuf_puts(out, ir_constructor(p->m, pat->adt, pat->ctor)->name);
		if (!pat->nsubs)
			return;
		break;
	case PATTERN_TUPLE:
		break;
	}
	strbuf_putc(out, '(');
	for (uint32_t i = 0; i < pat->nsubs; i++) {
		if (i)
			strbuf_puts(out, ", ");
		print_pattern(p, match, pat->subs[i]);
	}
	strbuf_putc(out, ')');
}

/* A let's value or a scope's result: in full when printed in place, else
 * as a reference. A result's comment describes it only when in full. */
static void print_value(Printer *p, const Expr *e, uint32_t indent, const Expr *annotated,
			bool semicolon)
{
	const Expr *r = print_resolve(p, e);
	if (!print_is_atom(r) && print_reached(p, r) && (p->flags[r->id] & NODE_INLINE)) {
		print_full(p, r, indent, annotated ? annotated : r, semicolon);
		return;
	}
	print_atom(p, r);
	print_end_line(p, annotated, NULL, semicolon);
}

static void print_item(Printer *p, const PrintItem *item, uint32_t indent)
{
	StrBuf *out = p->out;
	print_indent(out, indent);
	if (item->let_line) {
		const Expr *let = item->e;
		Expr *var = let->u.let.var;
		strbuf_puts(out, "let ");
		if (var->kind == EXPR_VAR && print_reached(p, var))
			print_name_var(p, var);
		print_atom(p, var);
		if (var->kind == EXPR_VAR && var->u.var.annotation) {
			strbuf_puts(out, ": ");
			type_print(out, var->u.var.annotation);
		}
		print_own_span(p, var);
		strbuf_puts(out, " = ");
		print_value(p, let->u.let.value, indent, var, true);
	} else {
		print_name_binding(p, item->e);
		print_atom(p, item->e);
		strbuf_puts(out, " = ");
		print_full(p, item->e, indent, item->e, true);
	}
}

static void print_emit(Printer *p)
{
	while (p->emit_depth) {
		EmitFrame *top = &p->emit[p->emit_depth - 1];
		uint32_t indent = top->indent;
		switch (top->kind) {
		case EMIT_SCOPE: {
			int32_t scope = top->scope;
			if (top->item >= 0) {
				PrintItem item = p->items[top->item];
				top->item = item.next;
				print_item(p, &item, indent);
			} else {
				p->emit_depth--;
				print_indent(p->out, indent);
				print_value(p, p->scopes[scope].root, indent, NULL, false);
			}
			break;
		}
		case EMIT_ELSE: {
			const Expr *e = top->e;
			p->emit_depth--;
			print_indent(p->out, indent);
			strbuf_puts(p->out, "} else {\n");
			print_push_scope(p, p->owned[e->id] + 1, indent + 1);
			break;
		}
		case EMIT_CLAUSE: {
			const Expr *e = top->e;
			int32_t k = top->item;
			p->emit_depth--;
			print_indent(p->out, indent);
			print_pattern(p, e, e->u.match.clauses[k].pattern);
			strbuf_puts(p->out, " => {\n");
			print_push_emit(p,
					(EmitFrame){.kind = EMIT_CLAUSE_CLOSE, .indent = indent});
			print_push_scope(p, p->owned[e->id] + k, indent + 1);
			break;
		}
		case EMIT_CLAUSE_CLOSE:
			p->emit_depth--;
			print_indent(p->out, indent);
			strbuf_puts(p->out, "},\n");
			break;
		case EMIT_CLOSE: {
			const Expr *annotated = top->annotated, *spanned = top->e;
			bool semicolon = top->semicolon, paren = top->paren;
			p->emit_depth--;
			print_indent(p->out, indent);
			strbuf_putc(p->out, paren ? ')' : '}');
			print_end_line(p, annotated, spanned, semicolon);
			break;
		}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Globals and the module                                              */
/* ------------------------------------------------------------------ */

static void print_global(Printer *p, const IrGlobal *g)
{
	Expr *fn = g->fn;
	DP_ASSERT(fn && fn->kind == EXPR_FN);
	p->gen++;
	print_names_clear(&p->names_table);
	print_names_clear(&p->suffixes);
	p->next_number = 0;
	/* a name planning removed (IrAlias) still means its value to the
	 * user: no new node is given it */
	for (uint32_t i = 0; i < p->m->naliases; i++) {
		const char *name = p->m->aliases[i].name;
		*print_name_flags(p, name, strlen(name), true) |= NAME_RESERVED;
	}
	print_walk(p, fn);
	print_place(p, fn);
	print_anchor(p);
	print_order(p, fn);
	print_sort(p);
	strbuf_puts(p->out, "def @");
	strbuf_puts(p->out, g->name);
	if (g->ntype_params) {
		strbuf_putc(p->out, '[');
		for (uint32_t i = 0; i < g->ntype_params; i++) {
			if (i)
				strbuf_puts(p->out, ", ");
			strbuf_puts(p->out, g->type_params[i]);
		}
		strbuf_putc(p->out, ']');
	}
	print_fn_head(p, fn);
	print_push_emit(p, (EmitFrame){.kind = EMIT_CLOSE, .indent = 0});
	print_push_scope(p, p->owned[fn->id], 1);
	print_emit(p);
}

/* TVM's VisitType_(TypeDataNode): `type NAME[PARAMS] {`, one
 * constructor a line, each with a comma, `}` (an empty body keeps TVM's
 * indented empty line). */
static void print_typedef(StrBuf *out, const IrTypeDef *def)
{
	strbuf_puts(out, "type ");
	strbuf_puts(out, def->name);
	if (def->nparams) {
		strbuf_putc(out, '[');
		for (uint32_t i = 0; i < def->nparams; i++) {
			if (i)
				strbuf_puts(out, ", ");
			strbuf_puts(out, def->params[i]);
		}
		strbuf_putc(out, ']');
	}
	strbuf_puts(out, " {\n");
	if (!def->nctors)
		strbuf_puts(out, "  \n");
	for (uint32_t i = 0; i < def->nctors; i++) {
		const IrConstructor *c = &def->ctors[i];
		strbuf_puts(out, "  ");
		strbuf_puts(out, c->name);
		if (c->nfields) {
			strbuf_putc(out, '(');
			for (uint32_t j = 0; j < c->nfields; j++) {
				if (j)
					strbuf_puts(out, ", ");
				type_print(out, c->fields[j]);
			}
			strbuf_putc(out, ')');
		}
		strbuf_puts(out, ",\n");
	}
	strbuf_puts(out, "}\n");
}

static void print_free_var(Printer *p, StrBuf *out, const Expr *var)
{
	StrBuf *saved = p->out;
	strbuf_puts(out, "free_var %");
	strbuf_puts(out, var->name ? var->name : "?");
	if (var->kind == EXPR_VAR && var->u.var.annotation) {
		strbuf_puts(out, ": ");
		type_print(out, var->u.var.annotation);
	}
	p->out = out;
	print_comment(p, var);
	p->out = saved;
	strbuf_puts(out, ";\n");
}

void print_module(StrBuf *out, const IrModule *m, const PrintOptions *opts)
{
	static const PrintOptions defaults = {0};
	DeviceTable local_devices;
	const DeviceTable *devices;
	MetadataSlots slots;
	Printer p;
	size_t free_at;
	bool first = true;
	if (!opts)
		opts = &defaults;
	devices = opts->devices;
	if (!devices) {
		devices_init_default(&local_devices);
		devices = &local_devices;
	}
	print_init(&p, out, m, opts, devices);
	if (opts->show_metadata && m->metadata) {
		/* the section is printed after the text: its device numbers */
		metadata_slots_init(&slots, m->metadata, devices);
		p.slots = &slots;
	}
	strbuf_puts(out, "#[version = \"0.0.5\"]\n");
	for (uint32_t i = 0; i < m->ntypedefs && !opts->only_global; i++) {
		print_typedef(out, &m->typedefs[i]);
		strbuf_putc(out, '\n');
	}
	for (uint32_t i = 0; i < m->nfree_vars; i++) {
		const Expr *var = m->free_vars[i];
		if (var->id < m->nexprs)
			p.declared[var->id >> 3] |= (uint8_t)(1u << (var->id & 7));
		print_free_var(&p, out, var);
	}
	free_at = out->len;
	for (uint32_t i = 0; i < m->nglobals; i++) {
		if (opts->only_global && strcmp(m->globals[i].name, opts->only_global) != 0)
			continue;
		if (!first)
			strbuf_putc(out, '\n');
		first = false;
		print_global(&p, &m->globals[i]);
	}
	if (p.extra_free.count) {
		/* free variables used without a declaration: declare them too */
		StrBuf decl;
		size_t tail = out->len - free_at;
		strbuf_init(&decl);
		for (size_t i = 0; i < p.extra_free.count; i++)
			print_free_var(&p, &decl, p.extra_free.items[i]);
		strbuf_append(out, decl.data, decl.len); /* grows out */
		memmove(out->data + free_at + decl.len, out->data + free_at, tail);
		memcpy(out->data + free_at, decl.data, decl.len);
		strbuf_free(&decl);
	}
	if (opts->show_metadata && (m->nconstants > 0 || m->metadata)) {
		strbuf_putc(out, '\n');
		metadata_write(out, m, devices, p.slots);
	}
	if (p.slots)
		metadata_slots_free(p.slots);
	print_release(&p);
	if (devices == &local_devices)
		devices_free(&local_devices);
}

/* ------------------------------------------------------------------ */
/* One-line form for messages                                          */
/* ------------------------------------------------------------------ */

static void print_inline_node(StrBuf *out, const Expr *e, int depth, int *budget)
{
	if (!e) {
		strbuf_putc(out, '?');
		return;
	}
	if (depth > PRINT_INLINE_DEPTH || *budget <= 0) {
		strbuf_puts(out, "...");
		return;
	}
	(*budget)--;
	switch (e->kind) {
	case EXPR_VAR:
		strbuf_putc(out, '%');
		strbuf_puts(out, e->name ? e->name : "?");
		return;
	case EXPR_GLOBAL:
		strbuf_putc(out, '@');
		strbuf_puts(out, e->u.global.name);
		return;
	case EXPR_OP_VALUE:
		strbuf_puts(out, e->u.op_value.name);
		return;
	case EXPR_CONSTANT:
		print_constant(out, e);
		return;
	case EXPR_CALL:
		if (e->u.call.op != OP_NONE)
			strbuf_puts(out, ir_call_op_name(e));
		else
			print_inline_node(out, e->u.call.callee, depth + 1, budget);
		strbuf_putc(out, '(');
		for (uint32_t i = 0; i < e->u.call.nargs; i++) {
			if (i)
				strbuf_puts(out, ", ");
			print_inline_node(out, e->u.call.args[i], depth + 1, budget);
		}
		print_attrs(out, NULL, e->u.call.attrs, e->u.call.nattrs, e->u.call.nargs == 0);
		if (e->u.call.op == OP_UNKNOWN && *e->u.call.unknown->attrs)
			strbuf_printf(out, "%s%s", e->u.call.nargs ? ", " : "",
				      e->u.call.unknown->attrs);
		strbuf_putc(out, ')');
		return;
	case EXPR_LET:
		strbuf_puts(out, "let ");
		print_inline_node(out, e->u.let.var, depth + 1, budget);
		strbuf_puts(out, " = ");
		print_inline_node(out, e->u.let.value, depth + 1, budget);
		strbuf_puts(out, "; ");
		print_inline_node(out, e->u.let.body, depth + 1, budget);
		return;
	case EXPR_FN:
		strbuf_puts(out, "fn (");
		for (uint32_t i = 0; i < e->u.fn.nparams; i++) {
			if (i)
				strbuf_puts(out, ", ");
			print_inline_node(out, e->u.fn.params[i], depth + 1, budget);
		}
		strbuf_puts(out, ") { ");
		print_inline_node(out, e->u.fn.body, depth + 1, budget);
		strbuf_puts(out, " }");
		return;
	case EXPR_TUPLE:
		strbuf_putc(out, '(');
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++) {
			if (i)
				strbuf_puts(out, ", ");
			print_inline_node(out, e->u.tuple.fields[i], depth + 1, budget);
		}
		if (e->u.tuple.nfields == 1)
			strbuf_putc(out, ',');
		strbuf_putc(out, ')');
		return;
	case EXPR_PROJ:
		print_inline_node(out, e->u.proj.tuple, depth + 1, budget);
		strbuf_putc(out, '.');
		print_u64(out, e->u.proj.index);
		return;
	case EXPR_IF:
		strbuf_puts(out, "if (");
		print_inline_node(out, e->u.if_.cond, depth + 1, budget);
		strbuf_puts(out, ") { ");
		print_inline_node(out, e->u.if_.then_branch, depth + 1, budget);
		strbuf_puts(out, " } else { ");
		print_inline_node(out, e->u.if_.else_branch, depth + 1, budget);
		strbuf_puts(out, " }");
		return;
	case EXPR_CONSTRUCT:
		strbuf_puts(out, e->u.construct.name);
		if (!e->u.construct.nargs)
			return;
		strbuf_putc(out, '(');
		for (uint32_t i = 0; i < e->u.construct.nargs; i++) {
			if (i)
				strbuf_puts(out, ", ");
			print_inline_node(out, e->u.construct.args[i], depth + 1, budget);
		}
		strbuf_putc(out, ')');
		return;
	case EXPR_MATCH:
		strbuf_puts(out, e->u.match.complete ? "match (" : "match? (");
		print_inline_node(out, e->u.match.scrutinee, depth + 1, budget);
		strbuf_puts(out, ") { ... }");
		return;
	}
}

void print_expr_inline(StrBuf *out, const Expr *e)
{
	int budget = PRINT_INLINE_BUDGET;
	print_inline_node(out, e, 0, &budget);
}
