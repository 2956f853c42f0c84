/*
 * parse.c - the Relay text parser (SPEC §2).
 *
 * A recursive-descent parser in the chibicc manner: one function per
 * grammar rule, the rule written above it. It pulls tokens from the lexer on
 * demand with a few tokens of lookahead, and builds IR nodes only
 * through the ir.h constructors, straight into the module's arenas.
 *
 * Expressions follow TVM's parser: a body, and what parentheses, call
 * arguments and an if's condition hold, is a sequence of statements
 * (`let`, graph bindings, `e;`) ending in an expression; an expression
 * is infix operators (parse_expr, TVM's precedence) over calls and
 * projections (parse_postfix) of primaries, among which an operator or
 * constructor named alone is a value (EXPR_OP_VALUE).
 *
 * Scale: a function body is a loop over statements, not a recursion, and
 * lets are stacked and folded into nested EXPR_LETs once the body's result
 * is known, so a million bindings cost a million loop iterations. %names
 * resolve through an open-addressing hash table with an undo log (a scope
 * is a mark in the log), so entering and leaving a closure, an if branch or
 * a function costs only the names bound inside it. As in TVM's parser, a
 * graph binding (`%0 = e;`) stays visible to the rest of its definition
 * after its scope ends, while a let's, a parameter's or a pattern's
 * variable used outside its scope is an error (check_free_uses); a name no
 * binding of the definition has is a free variable. Call arguments, tuple
 * fields, parameters, attributes and dimensions are collected on parser-
 * owned stacks that are reused, so nothing is malloc'd per token. Recursion
 * (nested expressions, types, attribute lists) is capped at
 * parse_max_depth(): PARSE_MAX_DEPTH levels, fewer when the stack is too
 * small for them (each level may take PARSE_LEVEL_BYTES of it here and in
 * the walks after the parser, which recurse as deep).
 *
 * Type definitions are read in order; a type may be named before its
 * definition (type calls are checked at the end, resolve_types), a
 * constructor only after its type's. Their constructors, the type
 * variables in scope and the pattern variables of the matches being read
 * have tables and stacks of their own (see Parser).
 *
 * Spans: TVM ends the comment after an expression with the expression's
 * source span (`ty=T span=NAME:LINE:COL`, after a call's ')', a
 * constant, a tuple, a projection, a closure's '}' and a variable's
 * definition). The lexer notes each `span=` with where the token before
 * the comment ends (LexSpan); when the parser finishes such an expression
 * it takes the note that follows its last token (take_span) and keeps it
 * under the expression's position, and parse_module hands them to the
 * module sorted by position (IrSpans). A note that follows anything else
 * (a reference, a `def`) is passed over.
 *
 * The #[metadata] section comes after the functions that refer to it, so
 * parse_module finds it first (a line starting `#[metadata]`), reads it with
 * metadata_parse, and lexes only the text before it. Global references are
 * resolved after the whole module is read, so forward references and
 * recursion work.
 *
 * Errors: every syntax error makes the rule return NULL/false; the statement
 * loop then skips to the next ';' at its nesting level (or to the '}' that
 * closes it, or to the next 'def'), and parsing goes on, so one run reports
 * several errors. Semantic errors (an unknown operator or attribute, an
 * unresolved device or constant) are reported where they are found and a
 * placeholder keeps the parse going. Errors are never reported on a token
 * the lexer already complained about, and parsing stops after
 * PARSE_MAX_ERRORS.
 */
#define _GNU_SOURCE /* pthread_getattr_np: the stack this thread has */
#include "parse.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "interrupt.h"
#include "lex.h"
#include "metadata.h"

/* Stack per nesting level: the parser's is the deepest of the walks
 * (measured in an optimised build, load, plan, run, ir and compare of
 * nested calls: 1,293 bytes a level, 196 levels in 256 KiB and 804 in
 * 1 MiB), with a fifth more for a margin; the sanitizers' frames are about
 * three times larger. */
#if defined(__SANITIZE_ADDRESS__)
#define PARSE_LEVEL_BYTES 4096
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARSE_LEVEL_BYTES 4096
#endif
#endif
#ifndef PARSE_LEVEL_BYTES
#define PARSE_LEVEL_BYTES 1536
#endif

enum {
	PARSE_MAX_DEPTH = 1000,
	PARSE_LOOKAHEAD = 4, /* a power of two */
	/* for the rest of the program: the frames below the parser (about
	 * 9 KiB measured) and the deepest library call at the leaves */
	PARSE_STACK_RESERVE = 32 * 1024,
};

/* The size of the calling thread's stack: what pthread gives it (the
 * devplan binary runs its commands on a thread with a stack of its own,
 * repl/main.c), else the main thread's `ulimit -s`; 0 when unlimited or
 * unknown. */
static size_t thread_stack_size(void)
{
	pthread_attr_t attr;
	size_t size = 0;
	struct rlimit rl;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstacksize(&attr, &size) != 0)
			size = 0;
		pthread_attr_destroy(&attr);
		if (size)
			return size;
	}
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return (size_t)rl.rlim_cur;
}

/* The deepest nesting the stack can hold: PARSE_MAX_DEPTH with a stack of
 * 2 MiB or more (the devplan binary's command thread has 8 MiB whatever
 * `ulimit -s` says), fewer on a smaller one (149 levels in 256 KiB), where
 * a deep module would otherwise overflow it. */
int parse_max_depth(void)
{
	/* a thread's stack does not change size; on the main thread glibc
	 * finds it by reading /proc/self/maps, so ask once per thread */
	static _Thread_local size_t stack_cached;
	static _Thread_local bool known;
	size_t stack, usable;
	if (!known) {
		stack_cached = thread_stack_size();
		known = true;
	}
	stack = stack_cached;
	if (stack == 0)
		return PARSE_MAX_DEPTH;
	if (stack <= PARSE_STACK_RESERVE + PARSE_LEVEL_BYTES)
		return 1;
	usable = (stack - PARSE_STACK_RESERVE) / PARSE_LEVEL_BYTES;
	return usable < PARSE_MAX_DEPTH ? (int)usable : PARSE_MAX_DEPTH;
}

/* ---- Name tables ------------------------------------------------------ */

/* A name (a slice of the source text) and what it means where it is used:
 * in a scope or the free variables, a node (NULL when not bound); among the
 * globals and operators, an index plus one (0 when not defined). */
typedef struct NameEntry {
	const char *key; /* NULL: an empty slot */
	uint32_t len;
	uint32_t hash;
	union {
		Expr *expr;
		uint32_t index_plus_one;
	} u;
	/* in the scope: the definition that last bound the name
	 * (Parser.definition); among the free variables: the last one that
	 * used it without a declaration in scope */
	uint32_t definition;
	bool declared; /* a free variable: declared with free_var */
} NameEntry;

typedef struct NameTable {
	NameEntry *slots;
	size_t cap; /* a power of two, or 0 */
	size_t count;
} NameTable;

/* FNV-1a, then a murmur3 finaliser: FNV's low bits cluster for names like
 * %0..%999999, and the table masks with the low bits. */
static uint32_t name_hash(const char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (uint32_t)h;
}

static NameEntry *name_table_probe(const NameTable *t, const char *key, uint32_t len, uint32_t h)
{
	size_t mask = t->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		NameEntry *e = &t->slots[i];
		if (!e->key || (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0))
			return e;
	}
}

/* The entry for key, or NULL when the table has never seen it. */
static NameEntry *name_table_find(const NameTable *t, const char *key, size_t len)
{
	NameEntry *e;
	if (!t->cap)
		return NULL;
	e = name_table_probe(t, key, (uint32_t)len, name_hash(key, len));
	return e->key ? e : NULL;
}

/* The entry for key, created (zeroed meaning) when missing. The pointer
 * stays valid until the next insertion. The table grows at 70% load. */
static NameEntry *name_table_insert(NameTable *t, const char *key, size_t len)
{
	uint32_t h = name_hash(key, len);
	NameEntry *e;
	if ((t->count + 1) * 10 > t->cap * 7) {
		NameTable bigger = {0};
		bigger.cap = t->cap ? t->cap * 2 : 64;
		bigger.slots = xcalloc(bigger.cap, sizeof(NameEntry));
		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i].key)
				*name_table_probe(&bigger, t->slots[i].key, t->slots[i].len,
						  t->slots[i].hash) = t->slots[i];
		bigger.count = t->count;
		free(t->slots);
		*t = bigger;
	}
	e = name_table_probe(t, key, (uint32_t)len, h);
	if (!e->key) {
		e->key = key;
		e->len = (uint32_t)len;
		e->hash = h;
		e->u.expr = NULL;
		t->count++;
	}
	return e;
}

static void name_table_free(NameTable *t)
{
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* ---- The parser ------------------------------------------------------- */

/* A scope binding to undo: the name and what it meant before. */
typedef struct ScopeUndo {
	const char *key;
	uint32_t len;
	Expr *prev;
	bool graph; /* a graph binding `%0 = e;` (see scope_restore) */
} ScopeUndo;

/* A use of a free variable without a declaration in scope, kept for the
 * end of its definition to tell whether the name is bound there
 * (check_free_uses). */
typedef struct FreeUse {
	Expr *var;
	Pos pos;
} FreeUse;

/* An operator not in ops.def that the module calls: its first call, and
 * how many there are (for the note that names them). */
typedef struct UnknownUse {
	const Expr *first;
	uint32_t calls;
} UnknownUse;

/* A type call `Name[...]` to check against the type definitions once the
 * module is read (a type may be used before its definition). */
typedef struct TypeRef {
	const Type *type;
	Pos pos;
} TypeRef;

/* `let %var = value;` waiting for the rest of its body. */
typedef struct LetFrame {
	Expr *var;
	Expr *value;
	Pos pos;
} LetFrame;

/* A parser-owned stack of T, reused across the parse. */
#define STACK(T)              \
	struct {              \
		T *items;     \
		size_t count; \
		size_t cap;   \
	}
#define STACK_PUSH(s, v)                                                         \
	do {                                                                     \
		if ((s).count == (s).cap)                                        \
			grow_array((void **)&(s).items, &(s).cap, (s).count + 1, \
				   sizeof(*(s).items));                          \
		(s).items[(s).count++] = (v);                                    \
	} while (0)

/* &s.items[i], also for a stack that never held anything (items NULL). */
#define STACK_AT(s, i) ((s).items ? (s).items + (i) : NULL)

typedef STACK(IrConstructor) ConstructorStack;

typedef struct Parser {
	Lexer lex;
	Token ahead[PARSE_LOOKAHEAD]; /* a ring: ahead[head] is the next token */
	unsigned head;
	unsigned nahead;
	uint32_t last_line;   /* line of the last consumed token */
	uint32_t last_offset; /* where the last consumed token starts */
	uint32_t last_end;    /* and where it ends (a string: before its quotes) */
	/* the last ';' that made a sequence (`e1; e2`) inside parentheses,
	 * as offset + 1 (0: none), its position, and the one a note was
	 * given for (note_sequence) */
	uint32_t seq_semi, seq_noted;
	Pos seq_semi_pos;
	const SourceFile *src;
	IrModule *m;
	DeviceTable *devices; /* grows by the memory scopes the module names */
	DiagList *diags;
	size_t errors_at_start;
	bool stop; /* too many errors, too deep or Ctrl-C: read nothing more */
	int depth;
	int max_depth;  /* parse_max_depth() */
	size_t ntokens; /* tokens read, for polling Ctrl-C (interrupt_poll) */

	NameTable scope;               /* %name -> node, with an undo log */
	Expr **numbered;               /* %0, %1, ...: node by number, outside the table */
	uint32_t *numbered_definition; /* and the definition that bound it last */
	size_t numbered_cap;
	size_t numbered_limit;
	uint32_t definition;    /* counts the definitions (and a bare input) read */
	uint32_t definition_id; /* the first node id of the one being read */
	NameTable stale;        /* graph bindings of this definition out of scope */
	/* what out_of_scope_var walks: stamps by node id (visited, bound
	 * inside the walk), its generation, and what is left of its budget */
	uint32_t *walk_seen, *walk_bound;
	size_t walk_cap;
	uint32_t walk_gen;
	size_t walk_budget;
	STACK(FreeUse) free_uses; /* in this definition (check_free_uses) */
	/* set by a definition just before its body: the body leaves its
	 * bindings for the definition to drop all at once (scope_restore) */
	bool body_restore_deferred;
	STACK(ScopeUndo) undo;
	NameTable free_vars; /* %name -> VAR_FREE node, module-wide */
	size_t free_vars_cap;
	NameTable globals;   /* @name -> index in m->globals */
	NameTable ops;       /* operator name -> OpKind */
	ExprVec global_refs; /* EXPR_GLOBAL nodes to resolve at the end */

	STACK(Expr *) exprs; /* arguments, fields, parameters */
	STACK(Type *) types;
	STACK(int64_t) dims;
	STACK(Attr) attrs;
	STACK(AttrValue) values; /* list items */
	STACK(UnknownUse) unknown_ops;
	STACK(LetFrame) lets;

	/* algebraic data types (the section "Algebraic data types") */
	STACK(IrTypeDef) typedefs;       /* m->typedefs points here until the end */
	NameTable type_names;            /* type name -> index in typedefs */
	NameTable ctor_names;            /* constructor -> (adt << 16 | ctor) */
	STACK(const char *) tvars;       /* type variables in scope, innermost last */
	STACK(TypeRef) type_refs;        /* type calls to check once all are defined */
	STACK(const Pattern *) patterns; /* sub-patterns being collected */
	ExprVec pattern_vars;            /* the variables of the matches being read,
					    the innermost's from match_vars on */
	size_t match_vars;

	Arena scratch; /* attribute strings and lists, metadata tensors */
	StrBuf buf;    /* a NUL-terminated copy of the name at hand */

	LexSpans span_notes; /* the lexer's `span=` notes, in source order */
	size_t span_next;    /* the first note not passed over yet */
	STACK(IrSpan) spans; /* the notes taken, by expression position */

	bool has_meta; /* the source has a #[metadata] section */
	bool meta_ok;  /* and it was read without errors */
	MetadataSection meta;
	Pos table_device; /* the first meta[VirtualDevice][i] that indexes the
			     device table, the section having no devices
			     (line 0: none), which TVM's parser rejects */
} Parser;

static Expr *parse_expr(Parser *p);
static Expr *parse_sequence(Parser *p);
static Expr *parse_body(Parser *p);
static Type *parse_type(Parser *p);
static bool parse_type_params(Parser *p, size_t mark);
static bool parse_annotation(Parser *p, Type **out);
static const char **take_type_params(Parser *p, size_t mark, uint32_t *n);
static Type *parse_type_name(Parser *p);
static Expr *parse_construct(Parser *p);
static Expr *parse_construct_args(Parser *p, const char *name, Pos pos, uint32_t adt,
				  uint32_t ctor);
static Expr *parse_match(Parser *p);
static Expr *parse_postfix(Parser *p);
static bool close_body(Parser *p, bool body_ok, const char *what);
static bool parse_attr_value(Parser *p, AttrValue *out);
static Expr *meta_constant(Parser *p, Pos pos, int64_t index);

/* ---- Errors ----------------------------------------------------------- */

static bool too_many_errors(Parser *p)
{
	return p->diags->errors - p->errors_at_start >= PARSE_MAX_ERRORS;
}

static void check_error_limit(Parser *p)
{
	if (!p->stop && too_many_errors(p)) {
		p->stop = true;
		diag_note(p->diags, p->src, (Pos){0, 0}, "too many errors, stopping");
	}
}

static void parse_error(Parser *p, Pos pos, const char *fmt, ...) DP_PRINTF(3, 4);

static void parse_error(Parser *p, Pos pos, const char *fmt, ...)
{
	va_list ap;
	if (p->stop)
		return;
	va_start(ap, fmt);
	diag_vadd(p->diags, DIAG_ERROR, p->src, pos, fmt, ap);
	va_end(ap);
	check_error_limit(p);
}

/* ---- Tokens ----------------------------------------------------------- */

static Token *peek_at(Parser *p, unsigned k)
{
	DP_ASSERT(k < PARSE_LOOKAHEAD);
	while (p->nahead <= k) {
		Token *t = &p->ahead[(p->head + p->nahead++) % PARSE_LOOKAHEAD];
		if (!p->stop && interrupt_poll(p->ntokens++)) {
			/* an error without a position: the module is not loaded */
			diag_error(p->diags, NULL, (Pos){0, 0}, "interrupted while reading '%s'",
				   p->src->name);
			p->stop = true;
		}
		if (p->stop) {
			memset(t, 0, sizeof *t);
			t->kind = TK_EOF;
			t->text = p->src->text + p->lex.end;
			t->offset = (uint32_t)p->lex.end;
			t->pos = lex_offset_pos(p->src, p->lex.end);
			continue;
		}
		lex_next(&p->lex, t);
		if (t->kind == TK_ERROR)
			check_error_limit(p);
	}
	return &p->ahead[(p->head + k) % PARSE_LOOKAHEAD];
}

static Token *peek(Parser *p)
{
	return p->nahead ? &p->ahead[p->head] : peek_at(p, 0);
}

static Token next(Parser *p)
{
	Token t = *peek(p);
	p->head = (p->head + 1) % PARSE_LOOKAHEAD;
	p->nahead--;
	p->last_line = t.pos.line;
	p->last_offset = t.offset;
	p->last_end = t.offset + t.len;
	return t;
}

static bool accept(Parser *p, TokenKind kind)
{
	if (peek(p)->kind != kind)
		return false;
	next(p);
	return true;
}

/* Reports `expected WHAT, found TOKEN` at the current token, unless the
 * lexer already reported that token (or an error that ate the input). */
static void error_expected(Parser *p, const char *what)
{
	Token *t = peek(p);
	StrBuf sb;
	if (t->kind == TK_ERROR || (t->kind == TK_EOF && p->lex.hit_eof_error))
		return;
	strbuf_init(&sb);
	lex_describe(&sb, t);
	parse_error(p, t->pos, "expected %s, found %s", what, sb.data);
	strbuf_free(&sb);
}

static bool expect(Parser *p, TokenKind kind, const char *what)
{
	if (accept(p, kind))
		return true;
	error_expected(p, what);
	return false;
}

/* A statement's closing ';'. A missing one is reported; when the next token
 * starts a new line the ';' is taken as written, so the rest of the body
 * still parses. Before the body's '}' nothing is reported here: the body
 * then says that its result is missing, which is the actual mistake. */
static bool expect_semicolon(Parser *p, const char *what)
{
	Token *t;
	if (accept(p, TK_SEMI))
		return true;
	t = peek(p);
	if (t->kind == TK_RBRACE)
		return true;
	error_expected(p, what);
	return t->kind != TK_EOF && t->kind != TK_ERROR && t->kind != TK_DEF &&
	       t->pos.line > p->last_line;
}

static bool enter(Parser *p)
{
	if (p->depth >= p->max_depth) {
		if (!p->stop && p->max_depth == PARSE_MAX_DEPTH)
			parse_error(p, peek(p)->pos, "nesting too deep (more than %d levels)",
				    PARSE_MAX_DEPTH);
		else if (!p->stop)
			parse_error(
				p, peek(p)->pos,
				"nesting too deep (more than %d level%s: the stack, `ulimit -s`, "
				"holds no more)",
				p->max_depth, p->max_depth == 1 ? "" : "s");
		p->stop = true;
		return false;
	}
	p->depth++;
	return true;
}

static void leave(Parser *p)
{
	p->depth--;
}

/* Skips up to the body's '}', a 'def' or the end; with past_semicolon, past a depth-0 ';'. */
static void sync_skip(Parser *p, bool past_semicolon)
{
	size_t depth = 0;
	for (;;) {
		TokenKind k = peek(p)->kind;
		if (k == TK_EOF || k == TK_DEF)
			return;
		if (past_semicolon && k == TK_SEMI && depth == 0) {
			next(p);
			return;
		}
		if (k == TK_RBRACE && depth == 0)
			return;
		if (k == TK_LPAREN || k == TK_LBRACKET || k == TK_LBRACE)
			depth++;
		else if ((k == TK_RPAREN || k == TK_RBRACKET || k == TK_RBRACE) && depth)
			depth--;
		next(p);
	}
}

/* Skips the rest of a statement: past the next ';' at this nesting level,
 * or up to (not past) the '}' that closes the enclosing body, the next
 * 'def' or the end. Closing brackets of the broken statement are skipped. */
static void sync_statement(Parser *p)
{
	sync_skip(p, true);
}

/* Skips to the '}' that closes the current body (not past it). */
static void sync_close_brace(Parser *p)
{
	sync_skip(p, false);
}

static void sync_definition(Parser *p)
{
	while (peek(p)->kind != TK_EOF && peek(p)->kind != TK_DEF)
		next(p);
}

/* ---- Spans ---------------------------------------------------------- */

/* Keeps, under pos, the span note of a comment right after the last token
 * consumed, which ends the expression at pos; notes after earlier tokens
 * belonged to nothing kept and are passed over. Peeks first, so that the
 * lexer has read past the comment (the token is read next anyway). */
static void take_span(Parser *p, Pos pos)
{
	const LexSpans *notes = &p->span_notes;
	const LexSpan *note;
	peek(p);
	while (p->span_next < notes->count && notes->items[p->span_next].after < p->last_end)
		p->span_next++;
	if (p->span_next == notes->count)
		return;
	note = &notes->items[p->span_next];
	if (note->after == p->last_end) {
		IrSpan span = {pos, arena_strndup(ir_data_arena(p->m), p->src->text + note->offset,
						  note->len)};
		STACK_PUSH(p->spans, span);
		p->span_next++;
	}
}

static int compare_spans(const void *a, const void *b)
{
	const IrSpan *x = a, *y = b;
	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	/* the one taken first: the stack's order */
	return x < y ? -1 : x > y;
}

/* The spans taken, sorted by position, into m's data arena (m->spans). Two
 * expressions at one position (a hand-written `(%a, %b).0`: the tuple and
 * the projection) keep the first span read; TVM's printer binds such a
 * tuple to a name of its own, so its text never has two. */
static void keep_spans(Parser *p)
{
	IrModule *m = p->m;
	IrSpans *spans;
	IrSpan *items;
	uint32_t n = 0;
	if (!p->spans.count)
		return;
	qsort(p->spans.items, p->spans.count, sizeof(IrSpan), compare_spans);
	items = arena_array(ir_data_arena(m), p->spans.count, sizeof(IrSpan));
	for (size_t i = 0; i < p->spans.count; i++) {
		const IrSpan *s = &p->spans.items[i];
		if (n && items[n - 1].pos.line == s->pos.line && items[n - 1].pos.col == s->pos.col)
			continue;
		items[n++] = *s;
	}
	spans = arena_alloc(ir_data_arena(m), sizeof(IrSpans));
	spans->items = items;
	spans->count = n;
	spans->nparsed = m->nexprs;
	m->spans = spans;
}

/* ---- Names and scopes ------------------------------------------------- */

/* A NUL-terminated copy of a %name or @name without its sigil, valid until
 * the next call. */
static const char *token_name(Parser *p, const Token *t)
{
	strbuf_reset(&p->buf);
	strbuf_append(&p->buf, t->text + 1, t->len - 1);
	return p->buf.data;
}

/* TVM numbers graph bindings %0, %1, ...; such a name (canonical, below a
 * bound set by the source size) is a slot of a plain array, which is
 * cache-friendly for a million of them. Other names use the hash table. */
static Expr **numbered_slot(Parser *p, const char *key, size_t len, bool grow)
{
	size_t n = 0;
	if (len == 0 || len > 9 || (key[0] == '0' && len > 1))
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (key[i] < '0' || key[i] > '9')
			return NULL;
		n = n * 10 + (size_t)(key[i] - '0');
	}
	if (n > p->numbered_limit)
		return NULL;
	if (n >= p->numbered_cap) {
		size_t old = p->numbered_cap, cap = old;
		if (!grow)
			return NULL;
		grow_array((void **)&p->numbered, &p->numbered_cap, n + 1, sizeof(Expr *));
		grow_array((void **)&p->numbered_definition, &cap, p->numbered_cap,
			   sizeof(uint32_t));
		memset(p->numbered + old, 0, (p->numbered_cap - old) * sizeof(Expr *));
		memset(p->numbered_definition + old, 0, (p->numbered_cap - old) * sizeof(uint32_t));
	}
	return &p->numbered[n];
}

/* Binds name to e in the current scope, as a graph binding (`%0 = e;`)
 * or not (a let, a parameter, a pattern's or a free_var's variable). */
static void scope_bind(Parser *p, const Token *name, Expr *e, bool graph)
{
	const char *key = name->text + 1;
	size_t len = name->len - 1;
	Expr **slot = numbered_slot(p, key, len, true);
	ScopeUndo u = {key, (uint32_t)len, NULL, graph};
	if (slot) {
		p->numbered_definition[slot - p->numbered] = p->definition;
	} else {
		NameEntry *entry = name_table_insert(&p->scope, key, len);
		entry->definition = p->definition;
		slot = &entry->u.expr;
	}
	u.prev = *slot;
	*slot = e;
	STACK_PUSH(p->undo, u);
}

/* Was the name bound anywhere in the definition being read? */
static bool bound_in_definition(Parser *p, const char *key, size_t len)
{
	Expr **slot = numbered_slot(p, key, len, false);
	NameEntry *entry;
	if (slot)
		return p->numbered_definition[slot - p->numbered] == p->definition;
	entry = name_table_find(&p->scope, key, len);
	return entry && entry->definition == p->definition;
}

/* Leaves the scopes opened since mark. A graph binding that goes out of
 * scope stays visible to the rest of its definition (stale), as in TVM's
 * parser, whose graph bindings are not scoped: its printer binds a value
 * two branches share in the first and uses it in the second. */
static void scope_restore(Parser *p, size_t mark)
{
	while (p->undo.count > mark) {
		ScopeUndo *u = &p->undo.items[--p->undo.count];
		Expr **slot = numbered_slot(p, u->key, u->len, false);
		if (!slot)
			slot = &name_table_find(&p->scope, u->key, u->len)->u.expr;
		if (u->graph && *slot)
			name_table_insert(&p->stale, u->key, u->len)->u.expr = *slot;
		*slot = u->prev;
	}
}

/* Leaves every scope at the end of a definition (or of a bare input). */
static void scope_clear(Parser *p)
{
	if (2 * p->undo.count >= p->scope.count) {
		/* Everything goes, and most of the table with it: clearing
		 * it whole is sequential, while undoing a million bindings one
		 * by one is a million hash lookups. */
		if (p->numbered)
			memset(p->numbered, 0, p->numbered_cap * sizeof(Expr *));
		if (p->scope.count)
			memset(p->scope.slots, 0, p->scope.cap * sizeof(NameEntry));
		p->scope.count = 0;
		p->undo.count = 0;
	} else {
		scope_restore(p, 0);
	}
	name_table_free(&p->stale);
}

/* What a %name means here, or NULL. */
static Expr *scope_lookup(Parser *p, const char *key, size_t len)
{
	Expr **slot = numbered_slot(p, key, len, false);
	NameEntry *entry;
	if (slot)
		return *slot;
	entry = name_table_find(&p->scope, key, len);
	return entry ? entry->u.expr : NULL;
}

static void add_free_var(Parser *p, Expr *var)
{
	IrModule *m = p->m;
	if (m->nfree_vars == p->free_vars_cap)
		grow_array((void **)&m->free_vars, &p->free_vars_cap, m->nfree_vars + 1,
			   sizeof(Expr *));
	m->free_vars[m->nfree_vars++] = var;
}

/* The module-wide free variable named by t, created on first use; a
 * declaration (`free_var`) or not (a %name that nothing binds). */
static Expr *free_var(Parser *p, const Token *t, Type *annotation, bool declaration)
{
	NameEntry *entry = name_table_insert(&p->free_vars, t->text + 1, t->len - 1);
	if (!entry->u.expr) {
		entry->u.expr = ir_var(p->m, t->pos, token_name(p, t), VAR_FREE, annotation);
		add_free_var(p, entry->u.expr);
	}
	if (declaration) {
		entry->declared = true;
	} else if (!entry->declared && entry->definition != p->definition) {
		/* its first undeclared use in this definition */
		FreeUse use = {entry->u.expr, t->pos};
		entry->definition = p->definition;
		STACK_PUSH(p->free_uses, use);
	}
	return entry->u.expr;
}

enum { STALE_WALK_BUDGET = 1 << 24 }; /* nodes, over a whole parse */

/* A variable that graph binding e (out of its scope, used here) uses and
 * that is not in scope here: bound neither where the use is nor inside e
 * (a closure's parameter, a let's variable that e holds). NULL when there
 * is none; e itself when the walk's budget, which keeps a text of many
 * such uses from taking quadratic time, is spent. The walk stays inside
 * the definition being read (what came before holds none of its
 * variables). */
static const Expr *out_of_scope_var(Parser *p, Expr *e)
{
	const Expr *found = NULL;
	ExprVec stack = {0};
	if (p->walk_cap < p->m->nexprs) {
		size_t old = p->walk_cap;
		grow_array((void **)&p->walk_seen, &p->walk_cap, p->m->nexprs, sizeof(uint32_t));
		p->walk_bound = xrealloc(p->walk_bound, p->walk_cap * sizeof(uint32_t));
		memset(p->walk_seen + old, 0, (p->walk_cap - old) * sizeof(uint32_t));
		memset(p->walk_bound + old, 0, (p->walk_cap - old) * sizeof(uint32_t));
	}
	p->walk_gen++;
	exprvec_push(&stack, e);
	while (stack.count && !found) {
		Expr *n = stack.items[--stack.count];
		if (n->id < p->definition_id || p->walk_seen[n->id] == p->walk_gen)
			continue;
		if (!p->walk_budget) {
			found = e;
			break;
		}
		p->walk_budget--;
		p->walk_seen[n->id] = p->walk_gen;
		switch (n->kind) {
		case EXPR_VAR:
			if (n->u.var.role != VAR_FREE && p->walk_bound[n->id] != p->walk_gen &&
			    (!n->name || scope_lookup(p, n->name, strlen(n->name)) != n))
				found = n;
			continue;
		case EXPR_LET:
			p->walk_bound[n->u.let.var->id] = p->walk_gen;
			break;
		case EXPR_FN:
			for (uint32_t i = 0; i < n->u.fn.nparams; i++)
				p->walk_bound[n->u.fn.params[i]->id] = p->walk_gen;
			break;
		case EXPR_MATCH:
			for (uint32_t i = 0; i < n->u.match.nvars; i++)
				p->walk_bound[n->u.match.vars[i]->id] = p->walk_gen;
			break;
		case EXPR_GLOBAL:
		case EXPR_CONSTANT:
		case EXPR_CALL:
		case EXPR_TUPLE:
		case EXPR_PROJ:
		case EXPR_IF:
		case EXPR_CONSTRUCT:
		case EXPR_OP_VALUE:
			break;
		}
		for (uint32_t i = 0; i < ir_child_count(n); i++)
			exprvec_push(&stack, ir_child(n, i));
	}
	exprvec_free(&stack);
	return found;
}

/* A %name in an expression: the innermost binding, else a graph binding
 * of this definition out of scope (scope_restore), else a free variable.
 * An out-of-scope graph binding whose value uses a variable not in scope
 * here (TVM's parser reads it, and its type inference refuses it) is an
 * error. */
static Expr *lookup_local(Parser *p, const Token *t)
{
	Expr *e = scope_lookup(p, t->text + 1, t->len - 1);
	NameEntry *stale;
	const Expr *var;
	if (e)
		return e;
	stale = name_table_find(&p->stale, t->text + 1, t->len - 1);
	if (!stale)
		return free_var(p, t, NULL, false);
	var = out_of_scope_var(p, stale->u.expr);
	if (var == stale->u.expr) {
		parse_error(p, t->pos, "'%.*s' is used outside the scope of its binding",
			    (int)t->len, t->text);
	} else if (var) {
		parse_error(p, t->pos,
			    "'%.*s' is used outside the scope of its binding, and its value uses "
			    "'%%%s', which is not in scope here",
			    (int)t->len, t->text, var->name ? var->name : "");
		if (!p->stop)
			diag_note(p->diags, p->src, var->pos, "'%%%s' is bound here",
				  var->name ? var->name : "");
	}
	return stale->u.expr;
}

/* A node of fn named name that binds it (a variable, or a graph
 * binding's node), the first in the text, or NULL. */
static const Expr *find_binding(Parser *p, Expr *fn, const char *name)
{
	uint8_t *seen = xcalloc(p->m->nexprs / 8 + 1, 1);
	ExprVec nodes = {0};
	const Expr *found = NULL;
	ir_postorder(p->m, fn, true, seen, &nodes);
	for (size_t i = 0; i < nodes.count; i++) {
		const Expr *e = nodes.items[i];
		if (e->name && strcmp(e->name, name) == 0 &&
		    (e->kind != EXPR_VAR || e->u.var.role != VAR_FREE) &&
		    (!found || e->pos.line < found->pos.line ||
		     (e->pos.line == found->pos.line && e->pos.col < found->pos.col)))
			found = e;
	}
	exprvec_free(&nodes);
	free(seen);
	return found;
}

/* At the end of a definition (fn: what it defines): a %name used where
 * nothing binding it is in scope is a free variable, unless the
 * definition binds it elsewhere. Then, as TVM's parser reports (`this
 * local variable has not been previously declared`), it is an error: a
 * let's, a parameter's or a pattern's variable used out of its scope, or
 * a name used before the binding that follows. */
static void check_free_uses(Parser *p, Expr *fn)
{
	for (size_t i = 0; i < p->free_uses.count && !p->stop; i++) {
		const FreeUse *u = &p->free_uses.items[i];
		const char *name = u->var->name;
		NameEntry *entry = name_table_find(&p->free_vars, name, strlen(name));
		const Expr *binding;
		if (entry->declared || !bound_in_definition(p, name, strlen(name)))
			continue;
		binding = fn ? find_binding(p, fn, name) : NULL;
		if (binding &&
		    (binding->pos.line > u->pos.line ||
		     (binding->pos.line == u->pos.line && binding->pos.col > u->pos.col)))
			parse_error(p, u->pos, "'%%%s' is used before its binding", name);
		else
			parse_error(
				p, u->pos,
				"'%%%s' is used outside the scope of its binding (a let's, a "
				"parameter's or a pattern's variable is visible only in its body)",
				name);
		if (binding && !p->stop)
			diag_note(p->diags, p->src, binding->pos, "'%%%s' is bound here", name);
	}
	p->free_uses.count = 0;
}

/* ---- Devices ---------------------------------------------------------- */

static void describe_table(StrBuf *sb, const DeviceTable *t)
{
	if (t->count == 0) {
		strbuf_puts(sb, "no devices");
		return;
	}
	for (uint32_t i = 0; i < t->count; i++)
		strbuf_printf(sb, "%s%s", i ? ", " : "", t->items[i].name);
}

static void describe_device(StrBuf *sb, int64_t type, int64_t id, const char *scope)
{
	const char *kind = type >= 0 && type <= INT32_MAX ? devices_kind_of_type((int)type) : NULL;
	if (kind)
		strbuf_printf(sb, "%s:%lld", kind, (long long)id);
	else
		strbuf_printf(sb, "device type %lld id %lld", (long long)type, (long long)id);
	if (scope && scope[0])
		strbuf_printf(sb, kind ? ":%s" : " in memory scope '%s'", scope);
}

/* The table entry for a DLPack (type, id) in memory scope `scope` ("" for
 * none); id -1 means the first entry of that type. A scope of a device
 * the table has, which it does not hold yet, is added to it
 * (devices_intern). */
static int find_device(DeviceTable *t, int64_t type, int64_t id, const char *scope)
{
	if (type < INT32_MIN || type > INT32_MAX || id < -1 || id > INT32_MAX)
		return -1;
	if (id < 0)
		for (uint32_t i = 0; i < t->count && id < 0; i++)
			if (t->items[i].device_type == type)
				id = t->items[i].device_id;
	if (id < 0)
		return -1;
	return devices_intern(t, (int)type, (int)id, scope);
}

/* Resolves (type, id, scope) into out: ATTR_DEVICE, or ATTR_NONE when type
 * is -1 (an unconstrained VirtualDevice, whose memory scope alone devplan
 * does not plan: a warning says so) or after reporting a device that is not
 * in the table. `what` names the reference in the message. */
static void resolve_device(Parser *p, Pos pos, int64_t type, int64_t id, const char *scope,
			   const char *what, AttrValue *out)
{
	int index;
	StrBuf dev, table;
	out->kind = ATTR_NONE;
	if (type < 0) {
		if (scope && scope[0])
			diag_warning(p->diags, p->src, pos,
				     "%s has the memory scope '%s' but no device: devplan plans it "
				     "as unconstrained",
				     what, scope);
		return;
	}
	index = find_device(p->devices, type, id, scope ? scope : "");
	if (index >= 0) {
		out->kind = ATTR_DEVICE;
		out->u.device = index;
		return;
	}
	strbuf_init(&dev);
	strbuf_init(&table);
	describe_device(&dev, type, id, scope);
	describe_table(&table, p->devices);
	parse_error(p, pos, "%s is %s, which is not in the device table (it holds %s)", what,
		    dev.data, table.data);
	strbuf_free(&dev);
	strbuf_free(&table);
}

/* meta[VirtualDevice][index]: an entry of the module's own #[metadata]
 * section when that has VirtualDevice entries, else of the device table. */
static void resolve_meta_device(Parser *p, Pos pos, int64_t index, AttrValue *out)
{
	char what[64];
	out->kind = ATTR_NONE;
	if (index >= 0 && index < p->devices->count && p->meta.ndevices == 0) {
		out->kind = ATTR_DEVICE; /* the common case, without formatting `what` */
		out->u.device = (int32_t)index;
		if (p->table_device.line == 0)
			p->table_device = pos;
		return;
	}
	snprintf(what, sizeof what, "meta[VirtualDevice][%lld]", (long long)index);
	if (p->has_meta && !p->meta_ok)
		return; /* the section's own errors say enough */
	if (p->meta.ndevices > 0) {
		const MetadataDevice *d;
		if (index < 0 || index >= p->meta.ndevices) {
			StrBuf held;
			strbuf_init(&held);
			for (uint32_t i = 0; i < p->meta.ndevices; i++) {
				strbuf_puts(&held, i ? ", " : "");
				if (p->meta.devices[i].device_type < 0)
					strbuf_puts(&held, "unconstrained");
				else
					describe_device(&held, p->meta.devices[i].device_type,
							p->meta.devices[i].device_id,
							p->meta.devices[i].scope);
			}
			parse_error(p, pos,
				    "%s is out of range: the #[metadata] section holds %u virtual "
				    "device%s (%s)",
				    what, p->meta.ndevices, p->meta.ndevices == 1 ? "" : "s",
				    held.data);
			strbuf_free(&held);
			return;
		}
		d = &p->meta.devices[index];
		resolve_device(p, pos, d->device_type, d->device_id, d->scope, what, out);
		return;
	}
	if (index < 0 || index >= p->devices->count) {
		StrBuf table;
		strbuf_init(&table);
		describe_table(&table, p->devices);
		parse_error(p, pos, "%s is out of range: the device table holds %u device%s (%s)",
			    what, p->devices->count, p->devices->count == 1 ? "" : "s", table.data);
		strbuf_free(&table);
		return;
	}
	out->kind = ATTR_DEVICE;
	out->u.device = (int32_t)index;
}

/* A device-valued attribute: a device reference, None, or the short form
 * "cuda:0" (a string, resolved here). Returns false after reporting a value
 * of another kind or an unknown name. */
static bool value_to_device(Parser *p, Pos pos, AttrValue *v, const char *what)
{
	StrBuf table;
	int index;
	switch (v->kind) {
	case ATTR_DEVICE:
	case ATTR_NONE:
		return true;
	case ATTR_STRING:
		index = devices_intern_name(p->devices, v->u.s);
		if (index >= 0) {
			v->kind = ATTR_DEVICE;
			v->u.device = index;
			return true;
		}
		strbuf_init(&table);
		describe_table(&table, p->devices);
		parse_error(p, pos, "unknown device '%s': the device table holds %s", v->u.s,
			    table.data);
		strbuf_free(&table);
		v->kind = ATTR_NONE;
		return false;
	case ATTR_INT:
	case ATTR_FLOAT:
	case ATTR_BOOL:
	case ATTR_LIST:
	case ATTR_CONSTANT:
	case ATTR_META:
		break;
	}
	parse_error(p, pos,
		    "%s expects a virtual device (meta[VirtualDevice][i], "
		    "VirtualDevice(...) or \"KIND:ID\")",
		    what);
	v->kind = ATTR_NONE;
	return false;
}

/* device_literal := 'VirtualDevice' '(' (IDENT '=' (attr_value | 'Target' group))
 *                   (',' IDENT '=' ...)* ')'
 * The form TVM prints in dumps and messages; device_type,
 * virtual_device_id and memory_scope (a string, which TVM prints in single
 * quotes) are read, the Target(...) part is skipped. */
static bool parse_device_literal(Parser *p, AttrValue *out)
{
	Token kw = next(p);
	int64_t type = -1, id = -1;
	char what[160];
	const char *scope = "";
	if (!expect(p, TK_LPAREN, "'(' after 'VirtualDevice'"))
		return false;
	if (!accept(p, TK_RPAREN)) {
		for (;;) {
			Token name;
			AttrValue v;
			Pos vpos;
			if (peek(p)->kind != TK_IDENT) {
				error_expected(p, "a field name in 'VirtualDevice(...)'");
				return false;
			}
			name = next(p);
			if (!expect(p, TK_EQUAL, "'=' after the field name"))
				return false;
			vpos = peek(p)->pos;
			if (lex_is_ident(peek(p), "Target")) {
				next(p);
				DP_ASSERT(p->nahead == 0);
				if (!lex_skip_group(&p->lex, "Target"))
					return false;
			} else {
				if (!parse_attr_value(p, &v))
					return false;
				if (lex_is_ident(&name, "device_type") ||
				    lex_is_ident(&name, "virtual_device_id")) {
					if (v.kind != ATTR_INT) {
						parse_error(p, vpos, "'%.*s' expects an integer",
							    (int)name.len, name.text);
						return false;
					}
					if (lex_is_ident(&name, "device_type"))
						type = v.u.i;
					else
						id = v.u.i;
				} else if (lex_is_ident(&name, "memory_scope")) {
					if (v.kind != ATTR_STRING || !devices_valid_scope(v.u.s)) {
						parse_error(
							p, vpos,
							"'memory_scope' expects a string of "
							"letters, "
							"digits, '_', '.' and '-' (at most 64)");
						return false;
					}
					scope = v.u.s; /* in the scratch arena */
				}
			}
			if (accept(p, TK_COMMA))
				continue;
			if (!expect(p, TK_RPAREN, "')' to close 'VirtualDevice('"))
				return false;
			break;
		}
	}
	snprintf(what, sizeof what, "VirtualDevice(device_type=%lld, virtual_device_id=%lld%s%s%s)",
		 (long long)type, (long long)id, scope[0] ? ", memory_scope='" : "", scope,
		 scope[0] ? "'" : "");
	resolve_device(p, kw.pos, type, id, scope, what, out);
	return true;
}

/* meta_ref := 'meta' '[' IDENT ']' '[' INT ']' */
static bool parse_meta_ref(Parser *p, Token *kind, int64_t *index)
{
	next(p);
	if (!expect(p, TK_LBRACKET, "'[' after 'meta'"))
		return false;
	if (peek(p)->kind != TK_IDENT) {
		error_expected(p, "'relay.Constant' or 'VirtualDevice' in 'meta[...]'");
		return false;
	}
	*kind = next(p);
	if (!expect(p, TK_RBRACKET, "']' after the metadata kind") ||
	    !expect(p, TK_LBRACKET, "'[' before the metadata index"))
		return false;
	if (peek(p)->kind != TK_INT) {
		error_expected(p, "an index in 'meta[...][i]'");
		return false;
	}
	*index = next(p).num.i;
	return expect(p, TK_RBRACKET, "']' after the metadata index");
}

static void unsupported_meta(Parser *p, const Token *kind)
{
	parse_error(p, kind->pos,
		    "unsupported metadata kind '%.*s' (devplan reads relay.Constant and "
		    "VirtualDevice)",
		    (int)(kind->len > 40 ? 40 : kind->len), kind->text);
}

/* ---- Attributes ------------------------------------------------------- */

/* meta_object := meta_ref
 * An attribute of kind 'm', or a function attribute: a reference into the
 * #[metadata] section that devplan keeps as written and does not read (an
 * IndexMap, a Map, a Target); the kind lives in the scratch arena until the
 * call or function copies it. */
static bool parse_meta_object(Parser *p, AttrValue *out)
{
	Token kind;
	int64_t index;
	Pos pos = peek(p)->pos;
	if (!parse_meta_ref(p, &kind, &index))
		return false;
	if (p->meta_ok) {
		/* with a section, the entry must be in it; without one, the
		 * object comes from elsewhere (a metatable handed to TVM) */
		const MetadataKey *key =
			metadata_find_key(p->meta.keys, p->meta.nkeys, kind.text, kind.len);
		if (!key)
			parse_error(p, pos,
				    "meta[%.*s][%lld] is not in the #[metadata] section: it has no "
				    "'%.*s' entries",
				    (int)(kind.len > 40 ? 40 : kind.len), kind.text,
				    (long long)index, (int)(kind.len > 40 ? 40 : kind.len),
				    kind.text);
		else if (index < 0 || index >= key->count)
			parse_error(p, pos,
				    "meta[%s][%lld] is out of range: the #[metadata] section holds "
				    "%u '%s' entr%s",
				    key->name, (long long)index, key->count, key->name,
				    key->count == 1 ? "y" : "ies");
	}
	memset(out, 0, sizeof *out);
	out->kind = ATTR_META;
	out->u.meta.kind = arena_strndup(&p->scratch, kind.text, kind.len);
	out->u.meta.index = index;
	return true;
}

/* attr_value := INT | FLOAT | STRING | 'True' | 'False' | 'None'
 *             | '[' (attr_value (',' attr_value)* ','?)? ']'
 *             | 'meta' '[' 'VirtualDevice' ']' '[' INT ']' | device_literal
 * Strings and lists live in the scratch arena. */
static bool parse_attr_value(Parser *p, AttrValue *out)
{
	Token *t = peek(p);
	memset(out, 0, sizeof *out);
	if (t->kind == TK_INT) {
		out->kind = ATTR_INT;
		out->suffix = (uint8_t)t->suffix;
		out->u.i = next(p).num.i;
		return true;
	}
	if (t->kind == TK_FLOAT) {
		out->kind = ATTR_FLOAT;
		out->suffix = (uint8_t)t->suffix;
		out->u.f = next(p).num.f;
		return true;
	}
	if (t->kind == TK_STRING) {
		Token s = next(p);
		strbuf_reset(&p->buf);
		lex_string_value(&p->buf, &s);
		out->kind = ATTR_STRING;
		out->u.s = arena_strndup(&p->scratch, p->buf.data ? p->buf.data : "", p->buf.len);
		return true;
	}
	if (lex_is_ident(t, "True") || lex_is_ident(t, "False")) {
		out->kind = ATTR_BOOL;
		out->u.b = next(p).text[0] == 'T';
		return true;
	}
	if (lex_is_ident(t, "None")) {
		next(p);
		out->kind = ATTR_NONE;
		return true;
	}
	if (lex_is_ident(t, "VirtualDevice"))
		return parse_device_literal(p, out);
	if (lex_is_ident(t, "meta")) {
		Token kind;
		int64_t index;
		Pos pos = t->pos;
		if (!parse_meta_ref(p, &kind, &index))
			return false;
		if (lex_is_ident(&kind, "VirtualDevice")) {
			resolve_meta_device(p, pos, index, out);
			return true;
		}
		if (lex_is_ident(&kind, "relay.Constant")) {
			/* TVM prints an Expr-typed field so (arange's start...) */
			Expr *c = meta_constant(p, pos, index);
			if (c->u.constant.meta_index == index) { /* not a placeholder */
				out->kind = ATTR_CONSTANT;
				out->u.constant = (int32_t)index;
			}
			return true;
		}
		unsupported_meta(p, &kind);
		return true;
	}
	if (t->kind == TK_LBRACKET) {
		size_t mark = p->values.count;
		bool ok = true;
		if (!enter(p))
			return false;
		next(p);
		if (!accept(p, TK_RBRACKET)) {
			for (;;) {
				AttrValue item;
				if (!parse_attr_value(p, &item)) {
					ok = false;
					break;
				}
				STACK_PUSH(p->values, item);
				if (accept(p, TK_COMMA)) {
					if (accept(p, TK_RBRACKET))
						break;
					continue;
				}
				if (!expect(p, TK_RBRACKET, "',' or ']' in the list")) {
					ok = false;
					break;
				}
				break;
			}
		}
		leave(p);
		if (ok) {
			size_t n = p->values.count - mark;
			out->kind = ATTR_LIST;
			out->u.list.n = (uint32_t)n;
			out->u.list.items = arena_array(&p->scratch, n, sizeof(AttrValue));
			if (n)
				memcpy(out->u.list.items, &p->values.items[mark],
				       n * sizeof(AttrValue));
		}
		p->values.count = mark;
		return ok;
	}
	error_expected(p, "an attribute value");
	return false;
}

static const char *value_kind_name(const AttrValue *v)
{
	switch (v->kind) {
	case ATTR_NONE:
		return "None";
	case ATTR_INT:
		return "an integer";
	case ATTR_FLOAT:
		return "a float";
	case ATTR_STRING:
		return "a string";
	case ATTR_BOOL:
		return "a boolean";
	case ATTR_LIST:
		return "a list";
	case ATTR_DEVICE:
		return "a virtual device";
	case ATTR_CONSTANT:
		return "a constant";
	case ATTR_META:
		return "a metadata object";
	}
	return "a value";
}

static const char *schema_kind_name(char kind)
{
	switch (kind) {
	case 'i':
		return "an integer";
	case 'f':
		return "a number";
	case 's':
		return "a string";
	case 'b':
		return "a boolean";
	case 'l':
		return "a list of integers";
	case 'L':
		return "an integer or a list of integers";
	case 'F':
		return "a list of numbers";
	case 'd':
		return "a virtual device";
	case 'e':
		return "a number or a constant (meta[relay.Constant][i])";
	case 'c':
		return "a constant (meta[relay.Constant][i]) or a list of integers";
	case 'm':
		return "a metadata object (meta[KIND][i])";
	default:
		return "a value";
	}
}

/* A list of integers, or of such lists (padding=[[1, 1], [1, 1]]). */
static bool is_int_list(const AttrValue *v, const AttrValue **bad)
{
	for (uint32_t i = 0; i < v->u.list.n; i++) {
		const AttrValue *item = &v->u.list.items[i];
		if (item->kind == ATTR_LIST) {
			if (!is_int_list(item, bad))
				return false;
		} else if (item->kind != ATTR_INT) {
			*bad = item;
			return false;
		}
	}
	return true;
}

/* A flat list of ints and floats (kind 'F'). */
static bool is_number_list(const AttrValue *v, const AttrValue **bad)
{
	for (uint32_t i = 0; i < v->u.list.n; i++) {
		const AttrValue *item = &v->u.list.items[i];
		if (item->kind != ATTR_INT && item->kind != ATTR_FLOAT) {
			*bad = item;
			return false;
		}
	}
	return true;
}

/* Checks (and normalises: int -> float for 'f', 0/1 -> bool for 'b') a value
 * against the schema kind of an op attribute. */
static bool check_attr_kind(Parser *p, OpKind op, const char *name, char kind, AttrValue *v,
			    Pos pos)
{
	const AttrValue *bad = NULL;
	char what[128];
	if (v->kind == ATTR_NONE)
		return true;
	snprintf(what, sizeof what, "attribute '%s' of '%s'", name, op_info(op)->name);
	switch (kind) {
	case 'i':
		if (v->kind == ATTR_INT)
			return true;
		break;
	case 'f':
		if (v->kind == ATTR_INT) {
			v->kind = ATTR_FLOAT;
			v->u.f = (double)v->u.i;
		}
		if (v->kind == ATTR_FLOAT)
			return true;
		break;
	case 's':
		if (v->kind == ATTR_STRING)
			return true;
		break;
	case 'b':
		if (v->kind == ATTR_INT && (v->u.i == 0 || v->u.i == 1)) {
			v->kind = ATTR_BOOL;
			v->u.b = v->u.i == 1;
		}
		if (v->kind == ATTR_BOOL)
			return true;
		break;
	case 'L':
		if (v->kind == ATTR_INT)
			return true;
		/* fall through */
	case 'l':
		if (v->kind == ATTR_LIST) {
			if (is_int_list(v, &bad))
				return true;
			parse_error(p, pos, "%s expects %s, found a list holding %s", what,
				    schema_kind_name(kind), value_kind_name(bad));
			return false;
		}
		break;
	case 'F':
		if (v->kind == ATTR_LIST) {
			if (is_number_list(v, &bad))
				return true;
			parse_error(p, pos, "%s expects %s, found a list holding %s", what,
				    schema_kind_name(kind), value_kind_name(bad));
			return false;
		}
		break;
	case 'd':
		return value_to_device(p, pos, v, what);
	case 'e':
		if (v->kind == ATTR_INT) {
			v->kind = ATTR_FLOAT;
			v->u.f = (double)v->u.i;
		}
		if (v->kind == ATTR_FLOAT || v->kind == ATTR_CONSTANT)
			return true;
		break;
	case 'c':
		/* a Constant field (memory.alloc_tensor's const_shape): the
		 * constant, or its integers written out as a list */
		if (v->kind == ATTR_CONSTANT)
			return true;
		if (v->kind == ATTR_LIST) {
			if (is_int_list(v, &bad))
				return true;
			parse_error(p, pos, "%s expects %s, found a list holding %s", what,
				    schema_kind_name(kind), value_kind_name(bad));
			return false;
		}
		break;
	case 'm':
		if (v->kind == ATTR_META)
			return true;
		break;
	default:
		break;
	}
	parse_error(p, pos, "%s expects %s, found %s", what, schema_kind_name(kind),
		    value_kind_name(v));
	return false;
}

/* The names an op accepts, for "unknown attribute" messages. */
static void describe_schema(StrBuf *sb, OpKind op)
{
	const char *s = op_info(op)->schema;
	bool first = true;
	if (!*s) {
		strbuf_puts(sb, "it takes no attributes");
		return;
	}
	strbuf_puts(sb, "it accepts ");
	while (*s) {
		const char *colon = strchr(s, ':');
		strbuf_printf(sb, "%s%.*s", first ? "" : ", ", (int)(colon - s), s);
		first = false;
		s = op_schema_next(s);
	}
}

/* call_attr := IDENT '=' attr_value
 * Validated against the op's schema (op OP_NONE: an unknown op, reported
 * elsewhere) and pushed on the attribute stack. On a call of an
 * expression (!is_op) any name is kept as written, as TVM keeps them in
 * the attributes type their `attrs_type_key` names (parse_postfix). */
static bool parse_call_attr(Parser *p, OpKind op, bool is_op, size_t attr_mark)
{
	Token name = next(p);
	AttrValue v;
	Pos vpos;
	char *cname = arena_strndup(&p->scratch, name.text, name.len);
	char kind = is_op && op != OP_NONE ? op_attr_kind(op, cname) : 0;
	next(p); /* '=' */
	vpos = peek(p)->pos;
	if (kind == 'm' && lex_is_ident(peek(p), "meta")) {
		if (!parse_meta_object(p, &v))
			return false;
	} else if (!parse_attr_value(p, &v)) {
		return false;
	}
	if (is_op && op == OP_NONE)
		return true;
	if (is_op && !kind) {
		StrBuf sb;
		strbuf_init(&sb);
		describe_schema(&sb, op);
		parse_error(p, name.pos, "unknown attribute '%s' for operator '%s' (%s)", cname,
			    op_info(op)->name, sb.data);
		strbuf_free(&sb);
		return true;
	}
	for (size_t i = attr_mark; i < p->attrs.count; i++) {
		if (strcmp(p->attrs.items[i].name, cname) == 0) {
			parse_error(p, name.pos, "duplicate attribute '%s'", cname);
			return true;
		}
	}
	if (is_op && !check_attr_kind(p, op, cname, kind, &v, vpos))
		return true;
	{
		Attr a = {cname, v, name.pos};
		STACK_PUSH(p->attrs, a);
	}
	return true;
}

/* A deep copy of a value into the module's arena (ir_call_op copies call
 * attributes itself; function attributes are set here). */
static AttrValue copy_value(IrModule *m, const AttrValue *v)
{
	AttrValue out = *v;
	if (v->kind == ATTR_STRING)
		out.u.s = arena_strdup(ir_data_arena(m), v->u.s);
	else if (v->kind == ATTR_META)
		out.u.meta.kind = arena_strdup(ir_data_arena(m), v->u.meta.kind);
	else if (v->kind == ATTR_LIST) {
		out.u.list.items = arena_array(ir_data_arena(m), v->u.list.n, sizeof(AttrValue));
		for (uint32_t i = 0; i < v->u.list.n; i++)
			out.u.list.items[i] = copy_value(m, &v->u.list.items[i]);
	}
	return out;
}

/* ---- Types ------------------------------------------------------------ */

/* dtype := a name dtype_parse reads: float32, int (int32), int8x4, ...
 * A scalar type of that dtype (a placeholder after an error). */
static Type *parse_dtype_name(Parser *p, const Token *t)
{
	DType dt;
	uint32_t lanes;
	Type *type;
	if (!dtype_parse(t->text, t->len, &dt, &lanes)) {
		parse_error(p, t->pos,
			    "unknown dtype '%.*s' (devplan knows %s, and "
			    "their vectors such as int8x4)",
			    (int)(t->len > 40 ? 40 : t->len), t->text, dtype_known_names());
		dt = DT_FLOAT32;
		lanes = 1;
	}
	type = type_scalar(ir_data_arena(p->m), dt);
	type->u.tensor.lanes = lanes;
	return type;
}

/* tensor_type := 'Tensor' '[' '(' (dim (',' dim)* ','?)? ')' ',' dtype ']'
 * dim := INT | '?' */
static Type *parse_tensor_type(Parser *p)
{
	size_t mark = p->dims.count;
	Type *t = NULL, *dtype;
	Pos shape_pos;
	int64_t bytes;
	bool overflow = false, known_dtype;
	next(p); /* Tensor */
	if (!expect(p, TK_LBRACKET, "'[' after 'Tensor'"))
		return NULL;
	shape_pos = peek(p)->pos;
	if (!expect(p, TK_LPAREN, "'(' before the shape"))
		return NULL;
	if (!accept(p, TK_RPAREN)) {
		for (;;) {
			Token *d = peek(p);
			if (d->kind == TK_QUESTION) {
				next(p);
				STACK_PUSH(p->dims, (int64_t)DIM_ANY);
			} else if (d->kind == TK_INT) {
				Token dim = next(p);
				if (dim.num.i < 0) {
					parse_error(p, dim.pos,
						    "negative dimension '%lld' in the shape",
						    (long long)dim.num.i);
					dim.num.i = 0;
				}
				STACK_PUSH(p->dims, dim.num.i);
			} else {
				error_expected(p, "a dimension (an integer or '?')");
				goto out;
			}
			if (accept(p, TK_COMMA)) {
				if (accept(p, TK_RPAREN))
					break;
				continue;
			}
			if (!expect(p, TK_RPAREN, "',' or ')' in the shape"))
				goto out;
			break;
		}
	}
	if (!expect(p, TK_COMMA, "',' after the shape"))
		goto out;
	if (peek(p)->kind != TK_IDENT) {
		error_expected(p, "a dtype");
		goto out;
	}
	{
		Token name = next(p);
		size_t errors = p->diags->errors;
		dtype = parse_dtype_name(p, &name);
		known_dtype = p->diags->errors == errors;
	}
	if (!expect(p, TK_RBRACKET, "']' to close 'Tensor['"))
		goto out;
	/* the size in bytes of the known dimensions must fit in int64 */
	bytes = (int64_t)dtype_size(dtype->u.tensor.dtype) * dtype->u.tensor.lanes;
	for (size_t i = mark; known_dtype && i < p->dims.count; i++) {
		int64_t d = p->dims.items[i];
		if (d > 0 && bytes > INT64_MAX / d)
			overflow = true;
		else if (d > 0)
			bytes *= d;
	}
	if (overflow)
		parse_error(p, shape_pos, "shape is too large: its size in bytes overflows int64");
	if (p->dims.count - mark > UINT32_MAX)
		goto out;
	t = type_tensor(ir_data_arena(p->m), dtype->u.tensor.dtype,
			(uint32_t)(p->dims.count - mark), STACK_AT(p->dims, mark));
	t->u.tensor.lanes = dtype->u.tensor.lanes;
out:
	p->dims.count = mark;
	return t;
}

/* Parses type (',' type)* ','? up to ')' onto the type stack; the '(' is
 * already consumed. *trailing_comma tells `(T,)` from `(T)`. */
static bool parse_type_list(Parser *p, bool *trailing_comma)
{
	*trailing_comma = false;
	if (accept(p, TK_RPAREN))
		return true;
	for (;;) {
		Type *t = parse_type(p);
		if (!t)
			return false;
		STACK_PUSH(p->types, t);
		if (accept(p, TK_COMMA)) {
			if (accept(p, TK_RPAREN)) {
				*trailing_comma = true;
				return true;
			}
			continue;
		}
		return expect(p, TK_RPAREN, "',' or ')' in the type list");
	}
}

/* ref_type := 'ref' '(' type ')'
 * TVM's RelayRefType, as its printer spells it. */
static Type *parse_ref_type(Parser *p)
{
	Type *value;
	next(p);
	if (!expect(p, TK_LPAREN, "'(' after 'ref'"))
		return NULL;
	value = parse_type(p);
	if (!value || !expect(p, TK_RPAREN, "')' after the referenced type"))
		return NULL;
	return type_ref(ir_data_arena(p->m), value);
}

/* type := tensor_type | dtype | ref_type | type_var | type_call | '?' | '_'
 *       | '(' (type (',' type)* ','?)? ')'
 *       | 'fn' '(' (type (',' type)*)? ')' '->' type */
static Type *parse_type(Parser *p)
{
	Token *t = peek(p);
	Type *result = NULL;
	size_t mark = p->types.count;
	bool trailing;
	if (!enter(p))
		return NULL;
	if (lex_is_ident(t, "Tensor")) {
		result = parse_tensor_type(p);
	} else if (lex_is_ident(t, "_")) {
		/* TVM's IncompleteType: a type left to inference, a hole */
		next(p);
		result = type_var(ir_data_arena(p->m), "_", true);
	} else if (lex_is_ident(t, "ref")) {
		result = parse_ref_type(p);
	} else if (t->kind == TK_IDENT) {
		result = parse_type_name(p);
	} else if (t->kind == TK_QUESTION) {
		/* a type inference left open (printed `List[?]`), read back */
		next(p);
		result = type_var(ir_data_arena(p->m), "?", true);
	} else if (t->kind == TK_LPAREN) {
		next(p);
		if (parse_type_list(p, &trailing)) {
			size_t n = p->types.count - mark;
			if (n == 1 && !trailing)
				result = p->types.items[mark];
			else
				result = type_tuple(ir_data_arena(p->m), (uint32_t)n,
						    STACK_AT(p->types, mark));
		}
	} else if (t->kind == TK_FN) {
		/* 'fn' ('[' IDENT (',' IDENT)* ']')? '(' types ')' '->' type */
		size_t tmark = p->tvars.count;
		next(p);
		if ((peek(p)->kind != TK_LBRACKET || parse_type_params(p, tmark)) &&
		    expect(p, TK_LPAREN, "'(' after 'fn'") && parse_type_list(p, &trailing) &&
		    expect(p, TK_ARROW, "'->' after the parameter types")) {
			Type *ret = parse_type(p);
			if (ret) {
				result = type_func(ir_data_arena(p->m),
						   (uint32_t)(p->types.count - mark),
						   STACK_AT(p->types, mark), ret);
				result->u.func.type_params =
					take_type_params(p, tmark, &result->u.func.ntype_params);
			}
		}
		p->tvars.count = tmark;
	} else {
		error_expected(p, "a type");
	}
	p->types.count = mark;
	leave(p);
	return result;
}

/* annotation := type
 * The type written on a variable or as a function's result. `_` alone,
 * TVM's IncompleteType, says nothing: *out is NULL, as TVM's parser
 * makes `let %x: _ = e` the same as `let %x = e`. False after an error. */
static bool parse_annotation(Parser *p, Type **out)
{
	Type *t = parse_type(p);
	*out = t && t->kind == TYPE_VAR && t->u.var.hole && strcmp(t->u.var.name, "_") == 0 ? NULL
											    : t;
	return t != NULL;
}

/* ---- Expressions ------------------------------------------------------ */

/* A stand-in for an expression that was reported as wrong, so that the
 * parse goes on; the module is discarded anyway. */
static Expr *placeholder(Parser *p, Pos pos)
{
	float zero = 0;
	Tensor t = {DT_FLOAT32, 0, NULL, &zero, sizeof zero};
	return ir_constant(p->m, pos, &t, -1);
}

static uint16_t float_to_half(float f)
{
	uint32_t x, sign, mant, half, rem;
	int32_t exp;
	memcpy(&x, &f, sizeof x);
	sign = (x >> 16) & 0x8000u;
	exp = (int32_t)((x >> 23) & 0xffu) - 127 + 15;
	mant = x & 0x7fffffu;
	if (((x >> 23) & 0xffu) == 0xffu)
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (exp <= 0) {
		uint32_t shift;
		if (exp < -10)
			return (uint16_t)sign;
		mant |= 0x800000u;
		shift = (uint32_t)(14 - exp);
		half = mant >> shift;
		rem = mant & ((1u << shift) - 1);
		if (rem > (1u << (shift - 1)) || (rem == (1u << (shift - 1)) && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	half = sign | ((uint32_t)exp << 10) | (mant >> 13);
	rem = mant & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
		half++; /* a carry into the exponent rounds up correctly */
	return (uint16_t)half;
}

/* scalar := INT | FLOAT | 'True' | 'False'
 * 3 is int32 (int64 when int32 cannot hold it, as in TVM), 2i64 int64,
 * 4i16 int16, 1f and 1.5 float32, 1f64 float64,
 * 1f16 float16 (TVM's support/scalars.cc: the other dtypes have no literal
 * and come as meta[relay.Constant][i]). */
static Expr *parse_scalar(Parser *p)
{
	Token t = next(p);
	union {
		float f32;
		double f64;
		uint16_t f16;
		int16_t i16;
		int32_t i32;
		int64_t i64;
		uint8_t b;
	} v;
	Tensor tensor = {DT_FLOAT32, 0, NULL, &v, 0};
	memset(&v, 0, sizeof v);
	if (t.kind == TK_IDENT) {
		tensor.dtype = DT_BOOL;
		v.b = t.text[0] == 'T';
	} else if (t.kind == TK_INT && t.suffix == NUM_I64) {
		tensor.dtype = DT_INT64;
		v.i64 = t.num.i;
	} else if (t.kind == TK_INT && t.suffix == NUM_I16) {
		tensor.dtype = DT_INT16;
		if (t.num.i < INT16_MIN || t.num.i > INT16_MAX)
			parse_error(p, t.pos, "integer '%.*s' does not fit in int16", (int)t.len,
				    t.text);
		else
			v.i16 = (int16_t)t.num.i;
	} else if (t.kind == TK_INT && t.suffix == NUM_NONE &&
		   (t.num.i < INT32_MIN || t.num.i > INT32_MAX)) {
		/* TVM's rule: an integer without a suffix that int32 cannot
		 * hold is an int64 */
		tensor.dtype = DT_INT64;
		v.i64 = t.num.i;
	} else if (t.kind == TK_INT) {
		tensor.dtype = DT_INT32;
		if (t.num.i < INT32_MIN || t.num.i > INT32_MAX)
			parse_error(p, t.pos, "integer '%.*s' does not fit in int32", (int)t.len,
				    t.text);
		else
			v.i32 = (int32_t)t.num.i;
	} else if (t.suffix == NUM_F64) {
		tensor.dtype = DT_FLOAT64;
		v.f64 = t.num.f;
	} else if (t.suffix == NUM_F16) {
		tensor.dtype = DT_FLOAT16;
		if (!isinf(t.num.f) && fabs(t.num.f) > 65504.0)
			parse_error(p, t.pos, "number '%.*s' is out of range for float16",
				    (int)t.len, t.text);
		else
			v.f16 = float_to_half((float)t.num.f);
	} else {
		tensor.dtype = DT_FLOAT32;
		if (!isinf(t.num.f) && fabs(t.num.f) > FLT_MAX)
			parse_error(p, t.pos, "number '%.*s' is out of range for float32",
				    (int)t.len, t.text);
		else
			v.f32 = (float)t.num.f;
	}
	tensor.nbytes = dtype_size(tensor.dtype);
	return ir_constant(p->m, t.pos, &tensor, -1);
}

/* meta[relay.Constant][i]: one node per index, shared by every use. */
static Expr *meta_constant(Parser *p, Pos pos, int64_t index)
{
	IrModule *m = p->m;
	if (!p->has_meta) {
		parse_error(
			p, pos,
			"meta[relay.Constant][%lld] needs a #[metadata] section, and the module "
			"has none",
			(long long)index);
		return placeholder(p, pos);
	}
	if (!p->meta_ok)
		return placeholder(p, pos);
	if (index < 0 || index >= m->nconstants) {
		parse_error(p, pos,
			    "meta[relay.Constant][%lld] is out of range: the #[metadata] section "
			    "holds %u constant%s",
			    (long long)index, m->nconstants, m->nconstants == 1 ? "" : "s");
		return placeholder(p, pos);
	}
	if (!m->constants[index])
		m->constants[index] =
			ir_constant(m, pos, &p->meta.constants[index], (int32_t)index);
	return m->constants[index];
}

/* After a parenthesised list opened at offset `open` failed: when a ';'
 * inside it made a sequence of what were meant as its items (a ')'
 * missing before it: `add(%x, %x;`), says so, once per ';'. */
static void note_sequence(Parser *p, uint32_t open)
{
	if (p->seq_semi > open && p->seq_semi != p->seq_noted && !p->stop) {
		p->seq_noted = p->seq_semi;
		diag_note(p->diags, p->src, p->seq_semi_pos,
			  "this ';' makes a sequence (`e1; e2`) of what follows it inside the "
			  "parentheses: is a ')' missing before it?");
	}
}

/* call_args := (arg (',' arg)* ','?)? ')'     arg := sequence | IDENT '=' attr_value
 * Arguments go on the expression stack, attributes on the attribute stack;
 * the '(' is already consumed. Attributes come after every argument; where
 * the first one starts goes to *attrs_offset (UINT32_MAX when there is
 * none), and p->last_offset is the ')' on success. */
static bool parse_call_items(Parser *p, OpKind op, bool is_op, uint32_t *attrs_offset)
{
	size_t attr_mark = p->attrs.count;
	bool seen_attr = false;
	*attrs_offset = UINT32_MAX;
	if (accept(p, TK_RPAREN))
		return true;
	for (;;) {
		Token *t = peek(p);
		if (t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_EQUAL) {
			if (!seen_attr)
				*attrs_offset = t->offset;
			if (!parse_call_attr(p, op, is_op, attr_mark))
				return false;
			seen_attr = true;
		} else {
			Expr *arg;
			if (seen_attr) {
				parse_error(p, t->pos,
					    "argument after the attributes (attributes come last)");
				return false;
			}
			arg = parse_sequence(p);
			if (!arg)
				return false;
			STACK_PUSH(p->exprs, arg);
		}
		if (accept(p, TK_COMMA)) {
			if (accept(p, TK_RPAREN))
				return true;
			continue;
		}
		return expect(p, TK_RPAREN, "')' after arguments");
	}
}

static bool parse_call_args(Parser *p, OpKind op, bool is_op, uint32_t *attrs_offset)
{
	uint32_t open = p->last_offset;
	if (parse_call_items(p, op, is_op, attrs_offset))
		return true;
	note_sequence(p, open);
	return false;
}

/* printed_type := '/' '*' 'ty=' type ... '*' '/'
 * The result type TVM prints in a comment after a call (on the call's
 * line or, where the printer broke it, a following one), read from
 * the source text at `offset` (just past the call's ')'; the lexer skips
 * comments, so this reads the bytes itself and lexes the type with a
 * lexer of its own). NULL when no such comment follows; an error in the
 * type is reported where it is. */
static Type *parse_printed_type(Parser *p, size_t offset)
{
	const char *text = p->src->text;
	size_t end = p->lex.end, start, close;
	Lexer saved_lex = p->lex;
	Token saved_ahead[PARSE_LOOKAHEAD];
	unsigned saved_head = p->head, saved_nahead = p->nahead;
	uint32_t saved_line = p->last_line, saved_offset = p->last_offset, saved_end = p->last_end;
	Pos pos;
	Type *t;
	/* TVM's printer may break a long line before the comment */
	while (offset < end && (text[offset] == ' ' || text[offset] == '\t' ||
				text[offset] == '\n' || text[offset] == '\r'))
		offset++;
	if (end - offset < 5 || memcmp(text + offset, "/*", 2) != 0)
		return NULL;
	start = offset + 2;
	while (start < end && text[start] == ' ')
		start++;
	if (end - start < 3 || memcmp(text + start, "ty=", 3) != 0)
		return NULL;
	start += 3;
	for (close = start; close + 1 < end; close++)
		if (text[close] == '*' && text[close + 1] == '/')
			break;
	if (close + 1 >= end)
		return NULL; /* unterminated: the lexer reports it */
	memcpy(saved_ahead, p->ahead, sizeof saved_ahead);
	pos = lex_offset_pos(p->src, start);
	lex_init(&p->lex, p->src, close, p->diags);
	p->lex.cursor = start;
	p->lex.line = pos.line;
	p->lex.line_start = start - (pos.col - 1);
	p->head = 0;
	p->nahead = 0;
	t = parse_type(p);
	p->lex = saved_lex;
	memcpy(p->ahead, saved_ahead, sizeof saved_ahead);
	p->head = saved_head;
	p->nahead = saved_nahead;
	p->last_line = saved_line;
	p->last_offset = saved_offset;
	p->last_end = saved_end;
	return t;
}

/* Notes an unknown operator's call for the note parse_module ends with. */
static void count_unknown(Parser *p, const Expr *call)
{
	const char *name = call->u.call.unknown->name;
	for (size_t i = 0; i < p->unknown_ops.count; i++)
		if (strcmp(p->unknown_ops.items[i].first->u.call.unknown->name, name) == 0) {
			p->unknown_ops.items[i].calls++;
			return;
		}
	{
		UnknownUse use = {call, 1};
		STACK_PUSH(p->unknown_ops, use);
	}
}

/* One note for the whole module, at the first unknown call: which
 * operators were taken on trust from their printed types. */
static void note_unknown_ops(Parser *p)
{
	StrBuf sb;
	size_t n = p->unknown_ops.count;
	if (!n)
		return;
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++) {
		const UnknownUse *u = &p->unknown_ops.items[i];
		strbuf_printf(&sb, "%s'%s' (%u call%s)",
			      i == 0       ? ""
			      : i + 1 == n ? " and "
					   : ", ",
			      u->first->u.call.unknown->name, u->calls, u->calls == 1 ? "" : "s");
	}
	if (n == 1 && p->unknown_ops.items[0].calls == 1)
		diag_note(p->diags, p->src, p->unknown_ops.items[0].first->pos,
			  "devplan does not know %s: planned from the type printed after the "
			  "call, like any primitive operator; it cannot run",
			  sb.data);
	else
		diag_note(p->diags, p->src, p->unknown_ops.items[0].first->pos,
			  "devplan does not know %s: planned from the types printed after the "
			  "calls, like any primitive operator; they cannot run",
			  sb.data);
	strbuf_free(&sb);
}

/* The call of known operator op at pos on the arguments and attributes
 * from emark and amark on the stacks (an arity it does not take is
 * reported, and the call built all the same). */
static Expr *finish_op_call(Parser *p, OpKind op, Pos pos, size_t emark, size_t amark)
{
	const OpInfo *info = op_info(op);
	uint32_t nargs = (uint32_t)(p->exprs.count - emark);
	if ((int64_t)nargs < info->min_args || (int64_t)nargs > info->max_args) {
		if (info->min_args == info->max_args)
			parse_error(p, pos, "operator '%s' takes %d argument%s, got %u", info->name,
				    info->min_args, info->min_args == 1 ? "" : "s", nargs);
		else
			parse_error(p, pos, "operator '%s' takes %d to %d arguments, got %u",
				    info->name, info->min_args, info->max_args, nargs);
	}
	return ir_call_op(p->m, pos, op, STACK_AT(p->exprs, emark), nargs,
			  STACK_AT(p->attrs, amark), (uint32_t)(p->attrs.count - amark));
}

/* op_call := OP '(' call_args printed_type?
 * Positioned at the operator's name. An operator not in ops.def is taken
 * on trust when its result type is printed after the call (an OP_UNKNOWN
 * call keeping its name and attributes as written); without one it is
 * reported, and its arguments parsed all the same, to find the errors
 * after it. */
static Expr *parse_op_call(Parser *p, OpKind op)
{
	Token name = next(p);
	size_t emark = p->exprs.count, amark = p->attrs.count;
	uint32_t attrs_offset;
	Expr *e = NULL;
	if (!expect(p, TK_LPAREN, "'(' after the operator name")) {
		if (op == OP_NONE)
			parse_error(p, name.pos, "unknown operator '%.*s'",
				    (int)(name.len > 60 ? 60 : name.len), name.text);
		return NULL;
	}
	if (parse_call_args(p, op, true, &attrs_offset)) {
		uint32_t nargs = (uint32_t)(p->exprs.count - emark);
		Type *printed = op == OP_NONE || op_type_is_printed(op)
					? parse_printed_type(p, p->last_offset + 1)
					: NULL;
		if (op == OP_NONE && printed) {
			Arena *a = ir_data_arena(p->m);
			UnknownOp *u = arena_alloc(a, sizeof *u);
			size_t attrs_end = p->last_offset;
			const char *text = p->src->text;
			if (attrs_offset == UINT32_MAX)
				attrs_offset = (uint32_t)attrs_end;
			while (attrs_end > attrs_offset &&
			       (text[attrs_end - 1] == ',' || text[attrs_end - 1] == ' ' ||
				text[attrs_end - 1] == '\t' || text[attrs_end - 1] == '\n' ||
				text[attrs_end - 1] == '\r'))
				attrs_end--;
			u->name = arena_strndup(a, name.text, name.len);
			u->attrs = arena_strndup(a, text + attrs_offset, attrs_end - attrs_offset);
			u->type = printed;
			e = ir_call_unknown(p->m, name.pos, u, STACK_AT(p->exprs, emark), nargs);
			e->type = printed;
			count_unknown(p, e);
		} else if (op == OP_NONE) {
			parse_error(p, name.pos, "unknown operator '%.*s'",
				    (int)(name.len > 60 ? 60 : name.len), name.text);
			e = placeholder(p, name.pos);
		} else {
			e = finish_op_call(p, op, name.pos, emark, amark);
			e->type = printed; /* op_type_is_printed: its relation reads it */
		}
	}
	p->exprs.count = emark;
	p->attrs.count = amark;
	return e;
}

/* tuple := '(' ')' | '(' sequence ')' | '(' sequence ',' ')'
 *        | '(' sequence (',' sequence)+ ','? ')'
 * A parenthesised sequence is itself: `(let %a = 1; %a)`. */
static Expr *parse_tuple(Parser *p)
{
	Token open = next(p);
	size_t mark = p->exprs.count;
	bool trailing = false;
	Expr *result = NULL;
	if (!accept(p, TK_RPAREN)) {
		for (;;) {
			Expr *e = parse_sequence(p);
			if (!e)
				goto out;
			STACK_PUSH(p->exprs, e);
			if (accept(p, TK_COMMA)) {
				if (accept(p, TK_RPAREN)) {
					trailing = true;
					break;
				}
				continue;
			}
			if (!expect(p, TK_RPAREN, "',' or ')'"))
				goto out;
			break;
		}
	}
	if (p->exprs.count - mark == 1 && !trailing)
		result = p->exprs.items[mark];
	else
		result = ir_tuple(p->m, open.pos, STACK_AT(p->exprs, mark),
				  (uint32_t)(p->exprs.count - mark));
out:
	if (!result)
		note_sequence(p, open.offset);
	p->exprs.count = mark;
	return result;
}

/* Consumes the '}' after a body. When the body failed, first skips to its
 * '}' without reporting anything new. */
static bool close_body(Parser *p, bool body_ok, const char *what)
{
	if (body_ok) {
		if (accept(p, TK_RBRACE))
			return true;
		error_expected(p, what);
	}
	sync_close_brace(p);
	accept(p, TK_RBRACE);
	return false;
}

/* if := 'if' '(' sequence ')' '{' body '}' 'else' '{' body '}' */
static Expr *parse_if(Parser *p)
{
	Token kw = next(p);
	Expr *cond, *then_branch, *else_branch;
	if (!expect(p, TK_LPAREN, "'(' after 'if'"))
		return NULL;
	cond = parse_sequence(p);
	if (!cond || !expect(p, TK_RPAREN, "')' after the condition") ||
	    !expect(p, TK_LBRACE, "'{' before the then branch"))
		return NULL;
	then_branch = parse_body(p);
	if (!close_body(p, then_branch != NULL, "'}' to close the then branch") ||
	    !expect(p, TK_ELSE, "'else' after the then branch") ||
	    !expect(p, TK_LBRACE, "'{' after 'else'"))
		return NULL;
	else_branch = parse_body(p);
	if (!close_body(p, else_branch != NULL, "'}' to close the else branch"))
		return NULL;
	return ir_if(p->m, kw.pos, cond, then_branch, else_branch);
}

/* param := LOCAL ('{' IDENT '=' attr_value (',' ...)* '}')? (':' type)?
 * The only parameter attribute is virtual_device. */
static bool parse_param(Parser *p, uint32_t first_param_id)
{
	Token name = next(p);
	int32_t device = IR_NO_DEVICE;
	Type *annotation = NULL;
	Expr *var, *prev;
	if (accept(p, TK_LBRACE)) {
		for (;;) {
			Token attr;
			AttrValue v;
			Pos vpos;
			if (peek(p)->kind != TK_IDENT || peek_at(p, 1)->kind != TK_EQUAL) {
				error_expected(p,
					       "'virtual_device=' in the parameter's attributes");
				return false;
			}
			attr = next(p);
			next(p);
			vpos = peek(p)->pos;
			if (!parse_attr_value(p, &v))
				return false;
			if (!lex_is_ident(&attr, "virtual_device"))
				parse_error(
					p, attr.pos,
					"unknown parameter attribute '%.*s' (only virtual_device)",
					(int)(attr.len > 40 ? 40 : attr.len), attr.text);
			else if (value_to_device(p, vpos, &v,
						 "parameter attribute 'virtual_device'") &&
				 v.kind == ATTR_DEVICE)
				device = v.u.device;
			if (accept(p, TK_COMMA))
				continue;
			if (!expect(p, TK_RBRACE, "'}' after the parameter's attributes"))
				return false;
			break;
		}
	}
	if (accept(p, TK_COLON) && !parse_annotation(p, &annotation))
		return false;
	prev = scope_lookup(p, name.text + 1, name.len - 1);
	if (prev && prev->kind == EXPR_VAR && prev->u.var.role == VAR_PARAM &&
	    prev->id >= first_param_id)
		parse_error(p, name.pos, "duplicate parameter '%.*s'", (int)name.len, name.text);
	take_span(p, name.pos);
	var = ir_var(p->m, name.pos, token_name(p, &name), VAR_PARAM, annotation);
	var->device = device;
	scope_bind(p, &name, var, false);
	STACK_PUSH(p->exprs, var);
	return true;
}

/* Whether a function attribute's value is a metadata object devplan keeps
 * as written (meta[Target][0], meta[Map][1]): a meta reference to anything
 * but a device or a constant, which mean something here. */
static bool is_meta_object(Parser *p)
{
	Token *kind = peek_at(p, 2);
	return lex_is_ident(peek(p), "meta") && peek_at(p, 1)->kind == TK_LBRACKET &&
	       kind->kind == TK_IDENT && !lex_is_ident(kind, "VirtualDevice") &&
	       !lex_is_ident(kind, "relay.Constant");
}

/* params := '(' (param (',' param)*)? (',' IDENT '=' fn_attr_value)* ','? ')'
 * fn_attr_value := attr_value | meta_object
 * Parameters go on the expression stack and are bound in the current
 * scope; `virtual_device=D` sets *device, other attributes go on the
 * attribute stack. The attributes may also stand alone: `fn (Primitive=1)`. */
static bool parse_params(Parser *p, int32_t *device)
{
	bool seen_attr = false;
	uint32_t first_param_id = p->m->nexprs;
	if (!expect(p, TK_LPAREN, "'(' before the parameters"))
		return false;
	if (accept(p, TK_RPAREN))
		return true;
	for (;;) {
		Token *t = peek(p);
		if (t->kind == TK_LOCAL && !seen_attr) {
			if (!parse_param(p, first_param_id))
				return false;
		} else if (t->kind == TK_IDENT && peek_at(p, 1)->kind == TK_EQUAL) {
			Token name = next(p);
			AttrValue v;
			Pos vpos;
			next(p);
			vpos = peek(p)->pos;
			if (is_meta_object(p)) {
				if (!parse_meta_object(p, &v))
					return false;
			} else if (!parse_attr_value(p, &v)) {
				return false;
			}
			seen_attr = true;
			if (lex_is_ident(&name, "virtual_device")) {
				if (value_to_device(p, vpos, &v,
						    "function attribute 'virtual_device'") &&
				    v.kind == ATTR_DEVICE)
					*device = v.u.device;
			} else {
				Attr a = {arena_strndup(&p->scratch, name.text, name.len), v,
					  name.pos};
				STACK_PUSH(p->attrs, a);
			}
		} else {
			error_expected(p, seen_attr ? "an attribute 'NAME=VALUE'" : "a parameter");
			return false;
		}
		if (accept(p, TK_COMMA)) {
			if (accept(p, TK_RPAREN))
				return true;
			continue;
		}
		return expect(p, TK_RPAREN, "',' or ')' after the parameter");
	}
}

/* fn_rest := params ('->' type)? '{' body '}'
 * The rest of a closure (`fn` and its type parameters consumed) or a
 * definition (`def @f` consumed); `what` names it in messages. The
 * parameters are visible in the body only. The type variables from tmark
 * on are the closure's own type parameters (a definition keeps its own in
 * its IrGlobal and passes the stack's count). A definition's end checks
 * its names' uses (check_free_uses) and leaves every scope. */
static Expr *parse_fn_rest(Parser *p, Pos pos, const char *what, size_t tmark, bool definition)
{
	size_t scope_mark = p->undo.count, emark = p->exprs.count, amark = p->attrs.count;
	int32_t device = IR_NO_DEVICE;
	Type *ret = NULL;
	Expr *body = NULL, *fn = NULL;
	bool ok = parse_params(p, &device);
	char msg[128];
	if (ok && accept(p, TK_ARROW))
		ok = parse_annotation(p, &ret);
	if (ok) {
		snprintf(msg, sizeof msg, "'{' before the body of %s", what);
		ok = expect(p, TK_LBRACE, msg);
	}
	if (ok) {
		/* a definition's scope ends with its body: the restore below
		 * drops the body's bindings too */
		p->body_restore_deferred = definition;
		body = parse_body(p);
		snprintf(msg, sizeof msg, "'}' to close the body of %s", what);
		ok = close_body(p, body != NULL, msg);
	}
	if (ok) {
		uint32_t nattrs = (uint32_t)(p->attrs.count - amark), ntype_params;
		const char **type_params = take_type_params(p, tmark, &ntype_params);
		fn = ir_fn(p->m, pos, STACK_AT(p->exprs, emark), (uint32_t)(p->exprs.count - emark),
			   ret, body);
		fn->device = device;
		if (nattrs || ntype_params) {
			FnHead *head = arena_alloc(ir_data_arena(p->m), sizeof(FnHead));
			head->nattrs = nattrs;
			head->attrs = arena_array(ir_data_arena(p->m), nattrs, sizeof(Attr));
			for (uint32_t i = 0; i < nattrs; i++) {
				const Attr *a = &p->attrs.items[amark + i];
				head->attrs[i].name = arena_strdup(ir_data_arena(p->m), a->name);
				head->attrs[i].value = copy_value(p->m, &a->value);
				head->attrs[i].pos = a->pos;
			}
			head->type_params = type_params;
			head->ntype_params = ntype_params;
			fn->u.fn.head = head;
		}
	}
	if (definition) {
		check_free_uses(p, fn);
		scope_clear(p);
	} else {
		scope_restore(p, scope_mark);
	}
	p->exprs.count = emark;
	p->attrs.count = amark;
	return fn;
}

/* primary := LOCAL | GLOBAL | scalar | meta_ref | tuple | 'fn' fn_rest | if
 *          | match | construct | op_call | OP */
static Expr *parse_primary(Parser *p)
{
	Token *t = peek(p);
	if (t->kind == TK_LOCAL) {
		Token name = next(p);
		return lookup_local(p, &name);
	}
	if (t->kind == TK_GLOBAL) {
		Token name = next(p);
		Expr *e = ir_global_ref(p->m, name.pos, token_name(p, &name));
		exprvec_push(&p->global_refs, e);
		return e;
	}
	if (t->kind == TK_INT || t->kind == TK_FLOAT || lex_is_ident(t, "True") ||
	    lex_is_ident(t, "False"))
		return parse_scalar(p);
	if (t->kind == TK_LPAREN)
		return parse_tuple(p);
	if (t->kind == TK_IF)
		return parse_if(p);
	if (t->kind == TK_FN) {
		/* closure := 'fn' ('[' IDENT (',' IDENT)* ']')? fn_rest */
		Token kw = next(p);
		size_t tmark = p->tvars.count;
		Expr *fn = NULL;
		if (peek(p)->kind != TK_LBRACKET || parse_type_params(p, tmark))
			fn = parse_fn_rest(p, kw.pos, "the function", tmark, false);
		p->tvars.count = tmark;
		return fn;
	}
	if (lex_is_ident(t, "meta")) {
		Token kind;
		int64_t index;
		Pos pos = t->pos;
		if (!parse_meta_ref(p, &kind, &index))
			return NULL;
		if (lex_is_ident(&kind, "relay.Constant"))
			return meta_constant(p, pos, index);
		if (lex_is_ident(&kind, "VirtualDevice"))
			parse_error(p, pos,
				    "meta[VirtualDevice][%lld] is a virtual device, not an "
				    "expression",
				    (long long)index);
		else
			unsupported_meta(p, &kind);
		return placeholder(p, pos);
	}
	if (lex_is_ident(t, "match")) /* no operator has that name */
		return parse_match(p);
	if (t->kind == TK_IDENT && name_table_find(&p->ctor_names, t->text, t->len))
		return parse_construct(p);
	if (t->kind == TK_IDENT && t->text[0] >= 'A' && t->text[0] <= 'Z' &&
	    !name_table_find(&p->ops, t->text, t->len)) {
		/* operators are lowercase; a capitalised name is a constructor */
		parse_error(p, t->pos, "unknown constructor '%.*s'",
			    (int)(t->len > 40 ? 40 : t->len), t->text);
		next(p);
		return NULL;
	}
	if (t->kind == TK_IDENT) {
		NameEntry *op = name_table_find(&p->ops, t->text, t->len);
		if (peek_at(p, 1)->kind == TK_LPAREN)
			return parse_op_call(p, op ? (OpKind)(op->u.index_plus_one - 1) : OP_NONE);
		if (op) {
			/* an operator as a value, TVM's OpNode */
			Token name = next(p);
			return ir_op_value(p->m, name.pos, (OpKind)(op->u.index_plus_one - 1));
		}
		if (!(t->text[0] >= 'A' && t->text[0] <= 'Z')) {
			parse_error(p, t->pos, "unknown operator '%.*s'",
				    (int)(t->len > 60 ? 60 : t->len), t->text);
			next(p);
			return NULL;
		}
	}
	if (t->kind == TK_IDENT && (t->text[0] >= 'A' && t->text[0] <= 'Z')) {
		parse_error(p, t->pos, "unknown constructor '%.*s'",
			    (int)(t->len > 40 ? 40 : t->len), t->text);
		return NULL;
	}
	error_expected(p, "an expression");
	return NULL;
}

/* The attributes from amark on the stack, written on call e of an
 * expression: kept as written, under TVM's rule that they say which
 * attributes type holds them (`attrs_type_key="attrs.TestAttrs"`,
 * which TVM's printer writes last). */
static void keep_call_attrs(Parser *p, Expr *e, size_t amark)
{
	size_t n = p->attrs.count - amark;
	if (!n)
		return;
	for (size_t i = amark; i < p->attrs.count; i++)
		if (strcmp(p->attrs.items[i].name, "attrs_type_key") == 0) {
			ir_set_call_attrs(p->m, e, STACK_AT(p->attrs, amark), (uint32_t)n);
			return;
		}
	parse_error(p, p->attrs.items[amark].pos,
		    "attributes on a call of a function need 'attrs_type_key', the "
		    "attributes type that holds them (TVM's rule)");
}

/* The call of operator or constructor value f at pos, its '(' consumed. */
static Expr *call_op_value(Parser *p, const Expr *f, Pos pos)
{
	size_t emark = p->exprs.count, amark = p->attrs.count;
	uint32_t attrs_offset;
	Expr *e = NULL;
	if (f->u.op_value.op == OP_NONE)
		return parse_construct_args(p, f->u.op_value.name, pos, f->u.op_value.adt,
					    f->u.op_value.ctor);
	if (parse_call_args(p, f->u.op_value.op, true, &attrs_offset))
		e = finish_op_call(p, f->u.op_value.op, pos, emark, amark);
	p->exprs.count = emark;
	p->attrs.count = amark;
	return e;
}

/* postfix := primary ('(' call_args | '.' INT)*
 * A call of an expression or a projection is positioned where the callee
 * or the tuple starts. */
static Expr *parse_postfix(Parser *p)
{
	Pos start;
	Expr *e;
	bool reference; /* a %name or @name: a node defined elsewhere */
	if (!enter(p))
		return NULL;
	start = peek(p)->pos;
	reference = peek(p)->kind == TK_LOCAL || peek(p)->kind == TK_GLOBAL;
	e = parse_primary(p);
	if (e && !reference)
		take_span(p, e->pos);
	while (e) {
		Token *t = peek(p);
		if (t->kind == TK_LPAREN && e->kind == EXPR_OP_VALUE) {
			/* `(add)(%x, %y)` or `%0 = add; %0(%x, %y)`: as in TVM,
			 * the call of the operator or constructor itself */
			next(p);
			e = call_op_value(p, e, start);
		} else if (t->kind == TK_LPAREN) {
			size_t mark = p->exprs.count, amark = p->attrs.count;
			next(p);
			uint32_t attrs_offset;
			if (parse_call_args(p, OP_NONE, false, &attrs_offset)) {
				e = ir_call_expr(p->m, start, e, STACK_AT(p->exprs, mark),
						 (uint32_t)(p->exprs.count - mark));
				keep_call_attrs(p, e, amark);
				take_span(p, start);
			} else {
				e = NULL;
			}
			p->exprs.count = mark;
			p->attrs.count = amark;
		} else if (t->kind == TK_DOT) {
			Token index;
			next(p);
			if (peek(p)->kind != TK_INT) {
				error_expected(p, "a field index after '.'");
				e = NULL;
				break;
			}
			index = next(p);
			if (index.num.i < 0 || index.num.i > UINT32_MAX) {
				parse_error(p, index.pos, "field index '%.*s' is out of range",
					    (int)index.len, index.text);
				index.num.i = 0;
			}
			e = ir_proj(p->m, start, e, (uint32_t)index.num.i);
			take_span(p, start);
		} else {
			break;
		}
	}
	leave(p);
	return e;
}

/* TVM's infix operators (its parser's DefaultOpTable): each reads as a
 * call of its operator, all left-associative, `*` and `/` binding
 * tighter than `+` and `-`, those tighter than the comparisons, and
 * `==` and `!=` loosest. TVM's printer writes the calls (`add(%x, %y)`),
 * and so does devplan's. */
static const struct {
	TokenKind token;
	OpKind op;
	int precedence;
} infix_ops[] = {
	{TK_STAR, OP_MULTIPLY, 12},  {TK_SLASH, OP_DIVIDE, 12},
	{TK_PLUS, OP_ADD, 10},       {TK_MINUS, OP_SUBTRACT, 10},
	{TK_LESS, OP_LESS, 8},       {TK_LESS_EQ, OP_LESS_EQUAL, 8},
	{TK_GREATER, OP_GREATER, 8}, {TK_GREATER_EQ, OP_GREATER_EQUAL, 8},
	{TK_EQ_EQ, OP_EQUAL, 7},     {TK_NOT_EQ, OP_NOT_EQUAL, 7},
};

/* The infix_ops entry of token kind k, or -1. */
static int infix_op(TokenKind k)
{
	for (int i = 0; i < (int)DP_COUNT(infix_ops); i++)
		if (infix_ops[i].token == k)
			return i;
	return -1;
}

/* One operand of an infix expression being read, and where it starts. */
typedef struct InfixOperand {
	Expr *e;
	Pos pos;
} InfixOperand;

/* Replaces the two topmost operands by the call of operator `rule` on
 * them, positioned where the left one starts (TVM merges their spans). */
static void reduce_infix(Parser *p, InfixOperand *operands, size_t *n, int rule)
{
	InfixOperand *left = &operands[*n - 2], *right = &operands[*n - 1];
	Expr *args[2] = {left->e, right->e};
	left->e = ir_call_op(p->m, left->pos, infix_ops[rule].op, args, 2, NULL, 0);
	(*n)--;
}

/* expr := postfix (INFIX postfix)*
 * TVM's ParseExprBinOp, its operator-precedence parse: since every
 * operator is left-associative, the pending operators have strictly
 * rising precedence, so the stacks hold at most one per level. */
static Expr *parse_expr(Parser *p)
{
	enum { LEVELS = 4 };
	InfixOperand operands[LEVELS + 1];
	int rules[LEVELS];
	size_t noperands = 0, nrules = 0;
	operands[0].pos = peek(p)->pos;
	operands[0].e = parse_postfix(p);
	if (!operands[0].e)
		return NULL;
	noperands = 1;
	for (;;) {
		int rule = infix_op(peek(p)->kind);
		InfixOperand right;
		if (rule < 0)
			break;
		next(p);
		right.pos = peek(p)->pos;
		right.e = parse_postfix(p);
		if (!right.e)
			return NULL;
		while (nrules &&
		       infix_ops[rules[nrules - 1]].precedence >= infix_ops[rule].precedence)
			reduce_infix(p, operands, &noperands, rules[--nrules]);
		DP_ASSERT(nrules < LEVELS && noperands <= LEVELS);
		rules[nrules++] = rule;
		operands[noperands++] = right;
	}
	while (nrules)
		reduce_infix(p, operands, &noperands, rules[--nrules]);
	return operands[0].e;
}

/* ---- Statements ------------------------------------------------------- */

/* binding := LOCAL '=' expr ';'
 * Later uses of the name are the same node (a DAG); the node takes the
 * name when it has none. */
static bool parse_binding(Parser *p)
{
	Token name = next(p);
	Expr *e;
	next(p); /* '=' */
	e = parse_expr(p);
	if (!e)
		return false;
	if (!e->name)
		e->name = arena_strndup(ir_data_arena(p->m), name.text + 1, name.len - 1);
	scope_bind(p, &name, e, true);
	return expect_semicolon(p, "';' after the binding");
}

/* let := 'let' LOCAL (':' type)? '=' expr ';'
 * The variable is visible in the rest of the body, and also in its own
 * value when that is a function (a recursive closure). */
static bool parse_let(Parser *p)
{
	Token kw = next(p), name;
	Type *annotation = NULL;
	Expr *var, *value;
	bool recursive;
	if (peek(p)->kind != TK_LOCAL) {
		error_expected(p, "a variable after 'let'");
		return false;
	}
	name = next(p);
	if (accept(p, TK_COLON) && !parse_annotation(p, &annotation))
		return false;
	take_span(p, name.pos);
	if (!expect(p, TK_EQUAL, "'=' after the let variable"))
		return false;
	var = ir_var(p->m, name.pos, token_name(p, &name), VAR_LET, annotation);
	recursive = peek(p)->kind == TK_FN;
	if (recursive)
		scope_bind(p, &name, var, false);
	value = parse_expr(p);
	if (!recursive)
		scope_bind(p, &name, var, false);
	if (!value)
		return false;
	{
		LetFrame frame = {var, value, kw.pos};
		STACK_PUSH(p->lets, frame);
	}
	return expect_semicolon(p, "';' after the let binding");
}

/* free_var := 'free_var' LOCAL (':' type)? ';' */
static bool parse_free_var(Parser *p, bool in_body)
{
	Token name;
	Type *annotation = NULL;
	Expr *var;
	next(p);
	if (peek(p)->kind != TK_LOCAL) {
		error_expected(p, "a variable after 'free_var'");
		return false;
	}
	name = next(p);
	if (accept(p, TK_COLON) && !parse_annotation(p, &annotation))
		return false;
	var = free_var(p, &name, annotation, true);
	take_span(p, var->pos);
	if (annotation && var->u.var.annotation != annotation) {
		if (var->u.var.annotation)
			parse_error(p, name.pos, "free variable '%.*s' is declared twice",
				    (int)name.len, name.text);
		var->u.var.annotation = annotation;
		var->type = annotation;
	}
	if (in_body)
		scope_bind(p, &name, var, false);
	return expect_semicolon(p, "';' after the free variable");
}

/* A statement `e;`, TVM's sequencing: e is evaluated and its value
 * dropped, which TVM's parser writes as a let of a variable without a
 * name (`let %_ = e;`), and so does devplan. The variable is called as
 * TVM's printer calls it, `%v` (a name made up: no binding of the user's
 * in `placement`), so that `why %v` finds what `ir` shows. */
static void push_sequenced(Parser *p, Expr *value, Pos pos)
{
	Expr *var = ir_var(p->m, pos, "v", VAR_LET, NULL);
	LetFrame frame = {var, value, pos};
	var->name_generated = true;
	STACK_PUSH(p->lets, frame);
}

/* statements := (binding | let | free_var | (block | expr) ';')* (block | expr)
 * block := '{' body '}'
 * TVM's ParseExpr: a body, and what parentheses, call arguments and an if's
 * condition hold (`(let %a = 1; 3) + 2`). A loop, not a recursion: lets
 * are stacked and folded into nested EXPR_LET nodes once the result is
 * known. Names bound here are forgotten at the end. With recover (a body
 * in braces), a failed statement is skipped up to its ';' and the next one
 * read, and the body's end is where its '}' is; without (inside
 * parentheses), the first error ends it and the statement around it
 * recovers. Returns NULL when any statement failed. */
static Expr *parse_statements(Parser *p, bool recover)
{
	size_t scope_mark = p->undo.count, let_mark = p->lets.count;
	Expr *result = NULL;
	bool ok = true, deferred = p->body_restore_deferred;
	p->body_restore_deferred = false;
	if (recover && !enter(p))
		return NULL;
	for (;;) {
		Token *t = peek(p);
		bool done;
		if (p->stop) {
			ok = false;
			break;
		}
		if (t->kind == TK_LET)
			done = parse_let(p);
		else if (t->kind == TK_FREE_VAR)
			done = parse_free_var(p, true);
		else if (t->kind == TK_LOCAL && peek_at(p, 1)->kind == TK_EQUAL)
			done = parse_binding(p);
		else if (recover &&
			 (t->kind == TK_RBRACE || t->kind == TK_EOF || t->kind == TK_DEF)) {
			if (ok)
				error_expected(p, "an expression for the result");
			ok = false;
			break;
		} else {
			Pos pos = t->pos;
			Expr *e;
			if (t->kind == TK_LBRACE) {
				next(p);
				e = parse_body(p);
				if (!close_body(p, e != NULL, "'}' to close the block"))
					e = NULL;
			} else {
				e = parse_expr(p);
			}
			if (e && accept(p, TK_SEMI)) {
				push_sequenced(p, e, pos);
				if (!recover) {
					p->seq_semi = p->last_offset + 1;
					p->seq_semi_pos = lex_offset_pos(p->src, p->last_offset);
				}
				done = true;
			} else if (e) {
				result = e;
				break;
			} else {
				done = false;
			}
		}
		if (!done) {
			ok = false;
			if (!recover)
				break;
			sync_statement(p);
		}
	}
	if (ok && result) {
		for (size_t i = p->lets.count; i-- > let_mark;) {
			LetFrame *f = &p->lets.items[i];
			result = ir_let(p->m, f->pos, f->var, f->value, result);
		}
	} else {
		result = NULL;
	}
	p->lets.count = let_mark;
	if (!deferred)
		scope_restore(p, scope_mark);
	if (recover)
		leave(p);
	return result;
}

/* body := statements, in braces (the caller reads them) or as the whole
 * input: errors are recovered from statement by statement. */
static Expr *parse_body(Parser *p)
{
	return parse_statements(p, true);
}

/* sequence := statements, inside parentheses or a call's arguments */
static Expr *parse_sequence(Parser *p)
{
	return parse_statements(p, false);
}

/* ---- Algebraic data types -------------------------------------------- */

/* A type variable in scope (a `type` definition's or a `def`'s
 * parameter), or NULL. */
static const char *find_type_var(Parser *p, const Token *t)
{
	for (size_t i = p->tvars.count; i-- > 0;) {
		const char *v = p->tvars.items[i];
		if (strlen(v) == t->len && memcmp(v, t->text, t->len) == 0)
			return v;
	}
	return NULL;
}

/* type_name := dtype | type_var | IDENT ('[' (type (',' type)*)? ']')?
 * A name that is neither a dtype nor a type variable in scope is a type
 * call, checked against the type definitions at the end (resolve_types),
 * except a lowercase one without brackets that names no type defined so
 * far, which is a misspelt dtype. */
static Type *parse_type_name(Parser *p)
{
	Token name = next(p);
	Arena *data = ir_data_arena(p->m);
	DType dt;
	uint32_t lanes;
	const char *var;
	size_t mark = p->types.count;
	bool bare = peek(p)->kind != TK_LBRACKET;
	Type *t = NULL;
	if (dtype_parse(name.text, name.len, &dt, &lanes))
		return parse_dtype_name(p, &name);
	if ((var = find_type_var(p, &name)) != NULL && bare)
		return type_var(data, var, false);
	if (bare && !(name.text[0] >= 'A' && name.text[0] <= 'Z') &&
	    !name_table_find(&p->type_names, name.text, name.len))
		return parse_dtype_name(p, &name);
	if (!bare) {
		next(p);
		if (!accept(p, TK_RBRACKET)) {
			for (;;) {
				Type *arg = parse_type(p);
				if (!arg)
					goto out;
				STACK_PUSH(p->types, arg);
				if (accept(p, TK_COMMA))
					continue;
				if (!expect(p, TK_RBRACKET, "',' or ']' in the type arguments"))
					goto out;
				break;
			}
		}
	}
	strbuf_reset(&p->buf);
	strbuf_append(&p->buf, name.text, name.len);
	t = type_call(data, p->buf.data, (uint32_t)(p->types.count - mark),
		      STACK_AT(p->types, mark), bare);
	{
		TypeRef ref = {t, name.pos};
		STACK_PUSH(p->type_refs, ref);
	}
out:
	p->types.count = mark;
	return t;
}

/* Every type call names a defined type, with as many arguments as it has
 * parameters (a bare name of a type without parameters has none). */
static void resolve_types(Parser *p)
{
	for (size_t i = 0; i < p->type_refs.count && !p->stop; i++) {
		const Type *t = p->type_refs.items[i].type;
		Pos pos = p->type_refs.items[i].pos;
		const char *name = t->u.call.name;
		NameEntry *entry = name_table_find(&p->type_names, name, strlen(name));
		const IrTypeDef *def;
		if (!entry) {
			parse_error(p, pos, "unknown type '%s'", name);
			continue;
		}
		def = &p->typedefs.items[entry->u.index_plus_one - 1];
		if (def->nparams != t->u.call.nargs)
			parse_error(p, pos, "type '%s' takes %u type argument%s, %u given", name,
				    def->nparams, def->nparams == 1 ? "" : "s", t->u.call.nargs);
	}
}

/* Reads '[' IDENT (',' IDENT)* ']' onto the type variable stack: the type
 * parameters of a `type` definition or a `def`. Returns false on a syntax
 * error. */
static bool parse_type_params(Parser *p, size_t mark)
{
	next(p); /* [ */
	for (;;) {
		Token name;
		if (peek(p)->kind != TK_IDENT) {
			error_expected(p, "a type parameter name");
			return false;
		}
		name = next(p);
		for (size_t i = mark; i < p->tvars.count; i++)
			if (strlen(p->tvars.items[i]) == name.len &&
			    memcmp(p->tvars.items[i], name.text, name.len) == 0)
				parse_error(p, name.pos, "duplicate type parameter '%.*s'",
					    (int)name.len, name.text);
		STACK_PUSH(p->tvars, arena_strndup(ir_data_arena(p->m), name.text, name.len));
		if (accept(p, TK_COMMA))
			continue;
		return expect(p, TK_RBRACKET, "',' or ']' after the type parameter");
	}
}

/* The type variables from mark on, as an array in the data arena. */
static const char **take_type_params(Parser *p, size_t mark, uint32_t *n)
{
	const char **out;
	*n = (uint32_t)(p->tvars.count - mark);
	out = arena_array(ir_data_arena(p->m), *n, sizeof(char *));
	for (uint32_t i = 0; i < *n; i++)
		out[i] = p->tvars.items[mark + i];
	return out;
}

/* constructor_def := IDENT ('(' type (',' type)* ')')? */
static bool parse_constructor_def(Parser *p, uint32_t adt, ConstructorStack *ctors)
{
	Token name;
	IrConstructor c = {0};
	size_t mark = p->types.count;
	NameEntry *entry;
	bool trailing;
	if (peek(p)->kind != TK_IDENT) {
		error_expected(p, "a constructor name");
		return false;
	}
	name = next(p);
	if (peek(p)->kind == TK_LPAREN) {
		next(p);
		if (!parse_type_list(p, &trailing)) {
			p->types.count = mark;
			return false;
		}
	}
	c.name = arena_strndup(ir_data_arena(p->m), name.text, name.len);
	c.nfields = (uint32_t)(p->types.count - mark);
	c.fields = arena_array(ir_data_arena(p->m), c.nfields, sizeof(Type *));
	for (uint32_t i = 0; i < c.nfields; i++)
		c.fields[i] = p->types.items[mark + i];
	c.pos = name.pos;
	p->types.count = mark;
	entry = name_table_insert(&p->ctor_names, name.text, name.len);
	if (entry->u.index_plus_one)
		parse_error(p, name.pos, "duplicate constructor '%.*s'", (int)name.len, name.text);
	else if (ctors->count >= 0xffff)
		parse_error(p, name.pos, "too many constructors in one type (at most 65535)");
	else
		entry->u.index_plus_one = (adt << 16 | (uint32_t)ctors->count) + 1;
	STACK_PUSH(*ctors, c);
	return true;
}

/* Does the next token start a definition of the module (or end it)? */
static bool starts_definition(Parser *p)
{
	const Token *t = peek(p);
	return t->kind == TK_EOF || t->kind == TK_DEF || t->kind == TK_HASH ||
	       t->kind == TK_FREE_VAR || lex_is_ident(t, "type") || lex_is_ident(t, "extern");
}

/* typedef := 'extern'? 'type' IDENT ('[' IDENT (',' IDENT)* ']')?
 *            ('{' (constructor_def (',' constructor_def)* ','?)? '}')?
 * As TVM's ParseTypeDef: the braces may be left out (no constructors), and
 * an `extern` type (TVM's TypeData, which does not remember the keyword)
 * may have none. TVM's parser stops reading definitions after an extern
 * one (a missing `continue`); devplan reads on. */
static bool parse_typedef(Parser *p)
{
	Token ext = {0}, kw, name;
	if (lex_is_ident(peek(p), "extern"))
		ext = next(p);
	kw = next(p);
	size_t tmark = p->tvars.count;
	ConstructorStack ctors = {0};
	IrTypeDef def = {0};
	NameEntry *entry;
	uint32_t adt = (uint32_t)p->typedefs.count;
	bool ok = false;
	if (peek(p)->kind != TK_IDENT) {
		error_expected(p, "a type name after 'type'");
		return false;
	}
	name = next(p);
	if (adt >= 0xffff) {
		parse_error(p, name.pos, "too many type definitions (at most 65535)");
		return false;
	}
	/* the name is known from here on, so that a constructor can refer
	 * to its own type by a bare lowercase name too */
	entry = name_table_insert(&p->type_names, name.text, name.len);
	if (entry->u.index_plus_one)
		parse_error(p, name.pos, "duplicate type definition '%.*s'", (int)name.len,
			    name.text);
	else
		entry->u.index_plus_one = adt + 1;
	if (peek(p)->kind == TK_LBRACKET && !parse_type_params(p, tmark))
		goto out;
	if (peek(p)->kind != TK_LBRACE && starts_definition(p)) {
		ok = true; /* no braces, no constructors */
		goto out;
	}
	if (!expect(p, TK_LBRACE, "'{' before the constructors"))
		goto out;
	if (ext.len && peek(p)->kind != TK_RBRACE) {
		parse_error(p, ext.pos, "an external type may not have any constructors");
		goto out;
	}
	while (!accept(p, TK_RBRACE)) {
		if (!parse_constructor_def(p, adt, &ctors))
			goto out;
		if (!accept(p, TK_COMMA)) {
			if (!expect(p, TK_RBRACE, "',' or '}' after the constructor"))
				goto out;
			break;
		}
	}
	ok = true;
out:
	/* kept even when broken (the module is dropped then): the names
	 * entered above refer to index adt, which no other definition may
	 * take */
	def.name = arena_strndup(ir_data_arena(p->m), name.text, name.len);
	def.params = take_type_params(p, tmark, &def.nparams);
	def.nctors = (uint32_t)ctors.count;
	def.ctors = arena_array(ir_data_arena(p->m), def.nctors, sizeof(IrConstructor));
	if (def.nctors)
		memcpy(def.ctors, ctors.items, def.nctors * sizeof(IrConstructor));
	def.pos = kw.pos;
	STACK_PUSH(p->typedefs, def);
	p->m->typedefs = p->typedefs.items;
	p->m->ntypedefs = (uint32_t)p->typedefs.count;
	p->tvars.count = tmark;
	free(ctors.items);
	return ok;
}

/* The constructor the identifier t names (it is in ctor_names). Every
 * entry names a definition kept in typedefs, a broken one too
 * (parse_typedef), and one of its constructors. */
static void find_constructor(Parser *p, const Token *t, uint32_t *adt, uint32_t *ctor)
{
	uint32_t packed = name_table_find(&p->ctor_names, t->text, t->len)->u.index_plus_one - 1;
	*adt = packed >> 16;
	*ctor = packed & 0xffff;
	DP_ASSERT(*adt < p->typedefs.count && *ctor < p->typedefs.items[*adt].nctors);
}

/* The call of constructor (adt, ctor) at pos: its arguments, the '('
 * consumed, up to the ')'. */
static Expr *parse_construct_args(Parser *p, const char *name, Pos pos, uint32_t adt, uint32_t ctor)
{
	uint32_t want = p->typedefs.items[adt].ctors[ctor].nfields;
	size_t mark = p->exprs.count;
	uint32_t open = p->last_offset;
	Expr *e = NULL;
	if (!accept(p, TK_RPAREN)) {
		for (;;) {
			Expr *arg = parse_sequence(p);
			if (!arg)
				goto out;
			STACK_PUSH(p->exprs, arg);
			if (accept(p, TK_COMMA))
				continue;
			if (!expect(p, TK_RPAREN, "',' or ')' after the constructor's argument"))
				goto out;
			break;
		}
	}
	if (p->exprs.count - mark != want) {
		parse_error(p, pos, "constructor '%s' takes %u argument%s, %zu given", name, want,
			    want == 1 ? "" : "s", p->exprs.count - mark);
		goto out;
	}
	e = ir_construct(p->m, pos, adt, ctor, STACK_AT(p->exprs, mark), want);
out:
	if (!e)
		note_sequence(p, open);
	p->exprs.count = mark;
	return e;
}

/* construct := CTOR ('(' (expr (',' expr)*)? ')')?
 * A constructor without fields is written bare, as TVM prints it, with
 * perhaps its type printed after it; one with fields written bare is the
 * constructor as a value (TVM's ConstructorNode), a function. */
static Expr *parse_construct(Parser *p)
{
	Token name = next(p);
	uint32_t adt, ctor;
	const IrConstructor *c;
	Expr *e;
	find_constructor(p, &name, &adt, &ctor);
	c = &p->typedefs.items[adt].ctors[ctor];
	if (accept(p, TK_LPAREN))
		return parse_construct_args(p, c->name, name.pos, adt, ctor);
	if (c->nfields)
		return ir_constructor_value(p->m, name.pos, adt, ctor);
	e = ir_construct(p->m, name.pos, adt, ctor, NULL, 0);
	/* a bare `Nil` followed by a `ty=List[float32]` comment: the printed
	 * type says what no argument can (infer_construct) */
	e->type = parse_printed_type(p, name.offset + name.len);
	return e;
}

static const Pattern *parse_pattern(Parser *p, size_t var_mark);

/* Reads '(' pattern (',' pattern)* ')' onto the pattern stack. */
static bool parse_pattern_list(Parser *p, size_t var_mark)
{
	next(p); /* ( */
	if (accept(p, TK_RPAREN))
		return true;
	for (;;) {
		const Pattern *sub = parse_pattern(p, var_mark);
		if (!sub)
			return false;
		STACK_PUSH(p->patterns, sub);
		if (accept(p, TK_COMMA))
			continue;
		return expect(p, TK_RPAREN, "',' or ')' in the pattern");
	}
}

/* pattern := '_' | LOCAL (':' type)? | CTOR ('(' pattern (',' pattern)* ')')?
 *          | '(' (pattern (',' pattern)*)? ')'
 * A variable is bound in the current scope (its clause's) and listed in
 * pattern_vars, numbered from the match's first (match_vars); var_mark is
 * where the clause's variables start. */
static const Pattern *parse_pattern(Parser *p, size_t var_mark)
{
	Token *t = peek(p);
	Pattern *pat = arena_alloc(ir_data_arena(p->m), sizeof(Pattern));
	size_t mark = p->patterns.count;
	const Pattern *result = NULL;
	if (!enter(p))
		return NULL;
	pat->pos = t->pos;
	if (lex_is_ident(t, "_")) {
		next(p);
		pat->kind = PATTERN_WILDCARD;
		result = pat;
	} else if (t->kind == TK_LOCAL) {
		Token name = next(p);
		Type *annotation = NULL;
		Expr *var;
		if (accept(p, TK_COLON) && !parse_annotation(p, &annotation))
			goto out;
		{
			/* bound already by this clause's pattern: the scope
			 * holds it, with an id from the clause's first on */
			Expr *prev = scope_lookup(p, name.text + 1, name.len - 1);
			if (prev && var_mark < p->pattern_vars.count && prev->kind == EXPR_VAR &&
			    prev->u.var.role == VAR_PATTERN &&
			    prev->id >= p->pattern_vars.items[var_mark]->id)
				parse_error(p, name.pos, "'%.*s' is bound twice in the pattern",
					    (int)name.len, name.text);
		}
		take_span(p, name.pos);
		var = ir_var(p->m, name.pos, token_name(p, &name), VAR_PATTERN, annotation);
		scope_bind(p, &name, var, false);
		pat->kind = PATTERN_VAR;
		pat->var = (uint32_t)(p->pattern_vars.count - p->match_vars);
		exprvec_push(&p->pattern_vars, var);
		result = pat;
	} else if (t->kind == TK_IDENT && name_table_find(&p->ctor_names, t->text, t->len)) {
		Token name = next(p);
		uint32_t want;
		find_constructor(p, &name, &pat->adt, &pat->ctor);
		want = p->typedefs.items[pat->adt].ctors[pat->ctor].nfields;
		if (peek(p)->kind == TK_LPAREN && !parse_pattern_list(p, var_mark))
			goto out;
		if (p->patterns.count - mark != want) {
			parse_error(p, name.pos,
				    "constructor '%.*s' has %u field%s, the pattern gives %zu",
				    (int)name.len, name.text, want, want == 1 ? "" : "s",
				    p->patterns.count - mark);
			goto out;
		}
		pat->kind = PATTERN_CONSTRUCTOR;
		result = pat;
	} else if (t->kind == TK_LPAREN) {
		if (!parse_pattern_list(p, var_mark))
			goto out;
		pat->kind = PATTERN_TUPLE;
		result = pat;
	} else if (t->kind == TK_IDENT) {
		parse_error(p, t->pos, "unknown constructor '%.*s' in the pattern",
			    (int)(t->len > 40 ? 40 : t->len), t->text);
	} else {
		error_expected(p, "a pattern ('_', a variable, a constructor or a tuple)");
	}
	if (result) {
		pat->nsubs = (uint32_t)(p->patterns.count - mark);
		pat->subs = arena_array(ir_data_arena(p->m), pat->nsubs, sizeof(Pattern *));
		for (uint32_t i = 0; i < pat->nsubs; i++)
			pat->subs[i] = p->patterns.items[mark + i];
	}
out:
	p->patterns.count = mark;
	leave(p);
	return result;
}

/* match := ('match' | 'match' '?') postfix '{' (clause (',' clause)* ','?)? '}'
 * clause := pattern '=>' ('{' body '}' | expr)
 * TVM prints `match?` for a match that need not be exhaustive, and the
 * matched value in parentheses, `match (%l)`, which are TVM's parser's
 * atomic expression: `match %l` and `match (%a, %b)` read too. A clause's
 * pattern variables are visible in its body only. */
static Expr *parse_match(Parser *p)
{
	Token kw = next(p);
	bool complete = !accept(p, TK_QUESTION), opened = false;
	Expr *scrutinee, *e = NULL;
	ExprVec bodies = {0};
	STACK(MatchClause) clauses = {0};
	size_t var_mark = p->pattern_vars.count;
	scrutinee = parse_postfix(p);
	if (!scrutinee || !expect(p, TK_LBRACE, "'{' before the match clauses"))
		goto out;
	opened = true;
	while (!accept(p, TK_RBRACE)) {
		size_t scope_mark = p->undo.count;
		MatchClause c = {0};
		Expr *body;
		c.pos = peek(p)->pos;
		c.first_var = (uint32_t)(p->pattern_vars.count - var_mark);
		p->match_vars = var_mark; /* a match in an earlier body moved it */
		c.pattern = parse_pattern(p, p->pattern_vars.count);
		c.nvars = (uint32_t)(p->pattern_vars.count - var_mark) - c.first_var;
		if (!c.pattern || !expect(p, TK_FATARROW, "'=>' after the pattern")) {
			scope_restore(p, scope_mark);
			goto out;
		}
		if (accept(p, TK_LBRACE)) {
			body = parse_body(p);
			if (!close_body(p, body != NULL, "'}' to close the clause"))
				body = NULL;
		} else {
			body = parse_sequence(p);
		}
		scope_restore(p, scope_mark);
		if (!body)
			goto out;
		STACK_PUSH(clauses, c);
		exprvec_push(&bodies, body);
		if (!accept(p, TK_COMMA)) {
			if (!expect(p, TK_RBRACE, "',' or '}' after the match clause"))
				goto out;
			break;
		}
	}
	{
		uint32_t n = (uint32_t)clauses.count;
		MatchClause *kept = arena_array(ir_data_arena(p->m), n, sizeof(MatchClause));
		if (n)
			memcpy(kept, clauses.items, n * sizeof(MatchClause));
		e = ir_match(p->m, kw.pos, scrutinee, kept, bodies.items, n,
			     p->pattern_vars.items ? p->pattern_vars.items + var_mark : NULL,
			     (uint32_t)(p->pattern_vars.count - var_mark), complete);
	}
out:
	if (!e && opened) {
		/* past the match's '}', so that its clauses are not taken for
		 * statements of the body around it */
		sync_close_brace(p);
		accept(p, TK_RBRACE);
	}
	p->pattern_vars.count = var_mark;
	exprvec_free(&bodies);
	free(clauses.items);
	return e;
}

/* ---- Module ----------------------------------------------------------- */

/* def := 'def' GLOBAL ('[' IDENT (',' IDENT)* ']')? fn_rest
 * The type parameters of a polymorphic function are in scope in its
 * parameters, result and body. */
static bool parse_def(Parser *p)
{
	Token kw = next(p), name;
	NameEntry *entry;
	int32_t index = -1;
	Expr *fn;
	char what[96];
	size_t tmark = p->tvars.count;
	if (peek(p)->kind != TK_GLOBAL) {
		error_expected(p, "a global name like '@main' after 'def'");
		return false;
	}
	name = next(p);
	entry = name_table_insert(&p->globals, name.text + 1, name.len - 1);
	if (entry->u.index_plus_one) {
		parse_error(p, name.pos, "duplicate definition of '%.*s'", (int)name.len,
			    name.text);
		if (!p->stop)
			diag_note(p->diags, p->src, p->m->globals[entry->u.index_plus_one - 1].pos,
				  "'%.*s' was first defined here", (int)name.len, name.text);
	} else {
		index = (int32_t)ir_add_global(p->m, token_name(p, &name), NULL, kw.pos);
		entry->u.index_plus_one = (uint32_t)index + 1;
	}
	snprintf(what, sizeof what, "'%.*s'", (int)(name.len > 60 ? 60 : name.len), name.text);
	if (peek(p)->kind == TK_LBRACKET && !parse_type_params(p, tmark)) {
		p->tvars.count = tmark;
		return false;
	}
	p->definition++;
	p->definition_id = p->m->nexprs;
	fn = parse_fn_rest(p, kw.pos, what, p->tvars.count, true);
	if (fn && index >= 0) {
		p->m->globals[index].fn = fn;
		p->m->globals[index].type_params =
			take_type_params(p, tmark, &p->m->globals[index].ntype_params);
	}
	p->tvars.count = tmark;
	return fn != NULL;
}

/* header := '#[' 'version' '=' STRING ']' */
static void parse_header(Parser *p)
{
	Token hash = next(p), version;
	StrBuf sb;
	if (!lex_is_ident(peek(p), "version")) {
		error_expected(p, "'version' after '#['");
		sync_definition(p);
		return;
	}
	next(p);
	if (!expect(p, TK_EQUAL, "'=' after 'version'"))
		goto fail;
	if (peek(p)->kind != TK_STRING) {
		error_expected(p, "a version string like \"0.0.5\"");
		goto fail;
	}
	version = next(p);
	if (!expect(p, TK_RBRACKET, "']' after the version"))
		goto fail;
	strbuf_init(&sb);
	lex_string_value(&sb, &version);
	p->m->version = arena_strdup(ir_data_arena(p->m), sb.data ? sb.data : "");
	if (strcmp(p->m->version, "0.0.5") != 0)
		diag_warning(p->diags, p->src, version.pos,
			     "version '%s' is not 0.0.5; reading it as 0.0.5", p->m->version);
	strbuf_free(&sb);
	(void)hash;
	return;
fail:
	sync_definition(p);
}

/* bare := body EOF
 * A bare expression or `fn` as the whole input, as Python's print(expr)
 * writes it, loaded as @main the way TVM's IRModule.from_expr does: a
 * function is @main itself; any other expression becomes @main's body, its
 * free variables @main's parameters (in the order they were first seen).
 * A note says so, since @main prints back as a `def`. */
static void parse_bare(Parser *p)
{
	Pos pos = peek(p)->pos;
	Expr *body, *fn;
	IrModule *m = p->m;
	NameEntry *entry;
	bool quiet;
	p->definition++;
	p->definition_id = p->m->nexprs;
	body = parse_body(p);
	check_free_uses(p, body);
	if (!body)
		return;
	if (peek(p)->kind != TK_EOF) {
		error_expected(p, "the end of the input after the bare expression");
		return;
	}
	/* the notes say how it loads: not after an error */
	quiet = p->diags->errors > p->errors_at_start;
	if (body->kind == EXPR_FN && !body->name) {
		fn = body;
		if (!quiet)
			diag_note(p->diags, p->src, pos,
				  "the input is a bare function: loaded as '@main'");
	} else {
		for (uint32_t i = 0; i < m->nfree_vars; i++)
			m->free_vars[i]->u.var.role = VAR_PARAM;
		fn = ir_fn(m, pos, m->free_vars, m->nfree_vars, NULL, body);
		m->nfree_vars = 0;
		if (!quiet)
			diag_note(p->diags, p->src, pos,
				  "the input is a bare expression: loaded as '@main', its free "
				  "variables as parameters");
	}
	entry = name_table_insert(&p->globals, "main", 4);
	entry->u.index_plus_one = ir_add_global(m, "main", fn, pos) + 1;
}

/* Can the next token start a bare expression (rather than be stray text
 * where a `def` belongs)? */
static bool starts_bare(Parser *p)
{
	Token *t = peek(p);
	switch (t->kind) {
	case TK_FN:
	case TK_LOCAL:
	case TK_LPAREN:
	case TK_INT:
	case TK_FLOAT:
	case TK_IF:
	case TK_LET:
	case TK_LBRACE: /* a block, as TVM's ParseExpr reads one */
	case TK_GLOBAL: /* said to be unknown when no `def` defines it */
		return true;
	case TK_IDENT:
		return lex_is_ident(t, "True") || lex_is_ident(t, "False") ||
		       lex_is_ident(t, "meta") || lex_is_ident(t, "match") ||
		       name_table_find(&p->ctor_names, t->text, t->len) ||
		       name_table_find(&p->ops, t->text, t->len) ||
		       peek_at(p, 1)->kind == TK_LPAREN;
	case TK_EOF:
	case TK_ERROR:
	case TK_STRING:
	case TK_RPAREN:
	case TK_LBRACKET:
	case TK_RBRACKET:
	case TK_RBRACE:
	case TK_PLUS:
	case TK_MINUS:
	case TK_STAR:
	case TK_SLASH:
	case TK_LESS:
	case TK_GREATER:
	case TK_LESS_EQ:
	case TK_GREATER_EQ:
	case TK_EQ_EQ:
	case TK_NOT_EQ:
	case TK_COMMA:
	case TK_SEMI:
	case TK_COLON:
	case TK_EQUAL:
	case TK_DOT:
	case TK_ARROW:
	case TK_FATARROW:
	case TK_QUESTION:
	case TK_HASH:
	case TK_DEF:
	case TK_ELSE:
	case TK_FREE_VAR:
		return false;
	}
	return false;
}

/* Skips the rest of a broken type definition: past its '}', or up to
 * the next type definition, 'def' or the end. */
static void sync_typedef(Parser *p)
{
	for (;;) {
		TokenKind k = peek(p)->kind;
		if (k == TK_EOF || k == TK_DEF ||
		    (lex_is_ident(peek(p), "type") && peek_at(p, 1)->kind == TK_IDENT) ||
		    (lex_is_ident(peek(p), "extern") && lex_is_ident(peek_at(p, 1), "type")))
			return;
		next(p);
		if (k == TK_RBRACE)
			return;
	}
}

/* module := header? typedef* free_var* (def (def | free_var | typedef)* | bare)? EOF */
static void parse_toplevel(Parser *p)
{
	bool seen_def = false;
	if (peek(p)->kind == TK_HASH)
		parse_header(p);
	while (!p->stop) {
		Token *t = peek(p);
		if (t->kind == TK_EOF)
			return;
		if ((lex_is_ident(t, "type") && peek_at(p, 1)->kind == TK_IDENT) ||
		    (lex_is_ident(t, "extern") && lex_is_ident(peek_at(p, 1), "type"))) {
			if (!parse_typedef(p))
				sync_typedef(p);
			continue;
		}
		if (!seen_def && starts_bare(p)) {
			parse_bare(p);
			return;
		}
		if (t->kind == TK_DEF) {
			seen_def = true;
			if (!parse_def(p))
				sync_definition(p);
		} else if (t->kind == TK_FREE_VAR) {
			if (!parse_free_var(p, false))
				sync_statement(p);
		} else if (t->kind == TK_ERROR) {
			next(p);
			sync_definition(p);
		} else if (t->kind == TK_HASH) {
			if (lex_is_ident(peek_at(p, 1), "metadata"))
				parse_error(p, t->pos, "'#[metadata]' must start a line");
			else
				parse_error(p, t->pos, "a '#[...]' header must come first");
			next(p);
			sync_definition(p);
		} else {
			error_expected(p, "'def'");
			sync_definition(p);
		}
	}
}

static void resolve_globals(Parser *p)
{
	for (size_t i = 0; i < p->global_refs.count; i++) {
		Expr *e = p->global_refs.items[i];
		const char *name = e->u.global.name;
		NameEntry *entry = name_table_find(&p->globals, name, strlen(name));
		if (entry && entry->u.index_plus_one)
			e->u.global.index = (int32_t)(entry->u.index_plus_one - 1);
		else
			parse_error(p, e->pos, "unknown global '@%s'", name);
	}
}

/* Offset of the first line that starts with `#[metadata]`, or src->len. */
static size_t find_metadata(const SourceFile *src)
{
	static const char marker[] = "#[metadata]";
	size_t n = sizeof marker - 1;
	for (uint32_t i = 0; i < src->nlines; i++) {
		size_t start = src->line_starts[i];
		if (start + n <= src->len && memcmp(src->text + start, marker, n) == 0)
			return start;
	}
	return src->len;
}

static void parser_free(Parser *p)
{
	name_table_free(&p->scope);
	free(p->numbered);
	free(p->numbered_definition);
	free(p->walk_seen);
	free(p->walk_bound);
	name_table_free(&p->stale);
	free(p->free_uses.items);
	name_table_free(&p->free_vars);
	name_table_free(&p->globals);
	name_table_free(&p->ops);
	exprvec_free(&p->global_refs);
	free(p->undo.items);
	free(p->exprs.items);
	free(p->types.items);
	free(p->dims.items);
	free(p->attrs.items);
	free(p->values.items);
	free(p->unknown_ops.items);
	free(p->lets.items);
	free(p->typedefs.items);
	name_table_free(&p->type_names);
	name_table_free(&p->ctor_names);
	free(p->tvars.items);
	free(p->type_refs.items);
	free(p->patterns.items);
	exprvec_free(&p->pattern_vars);
	free(p->span_notes.items);
	free(p->spans.items);
	metadata_free(&p->meta);
	arena_free(&p->scratch);
	strbuf_free(&p->buf);
}

static IrModule *parse_once(SourceFile *src, DeviceTable *devices, DiagList *diags)
{
	Parser p;
	size_t meta_offset;
	DiagList meta_diags;
	IrModule *m;
	bool failed;
	memset(&p, 0, sizeof p);
	diag_init(&meta_diags);
	if (src->len >= UINT32_MAX) {
		diag_error(diags, src, (Pos){0, 0}, "the source is too large (4 GiB or more)");
		return NULL;
	}
	m = ir_module_new(src);
	p.src = src;
	p.m = m;
	p.max_depth = parse_max_depth();
	p.devices = devices;
	p.diags = diags;
	p.errors_at_start = diags->errors;
	p.numbered_limit = src->len / 4; /* `%N = x;` takes more than 4 bytes */
	p.walk_budget = STALE_WALK_BUDGET;
	arena_init(&p.scratch);
	strbuf_init(&p.buf);
	for (int op = 0; op < OP_COUNT; op++) {
		const char *name = op_info((OpKind)op)->name;
		name_table_insert(&p.ops, name, strlen(name))->u.index_plus_one = (uint32_t)op + 1;
	}

	meta_offset = find_metadata(src);
	if (meta_offset < src->len) {
		size_t json = meta_offset + strlen("#[metadata]");
		p.has_meta = true;
		m->has_metadata = true;
		p.meta_ok =
			metadata_parse(src->text + json, src->len - json, src,
				       lex_offset_pos(src, json), &p.scratch, &p.meta, &meta_diags);
		if (p.meta_ok && p.meta.nconstants) {
			m->constants = xcalloc(p.meta.nconstants, sizeof(Expr *));
			m->nconstants = p.meta.nconstants;
		}
	}

	lex_init(&p.lex, src, meta_offset, diags);
	p.lex.spans = &p.span_notes;
	parse_toplevel(&p);
	resolve_globals(&p);
	resolve_types(&p);
	if (p.typedefs.count) {
		/* the definitions move into the data arena, shared by versions */
		IrTypeDef *defs =
			arena_array(ir_data_arena(m), p.typedefs.count, sizeof(IrTypeDef));
		memcpy(defs, p.typedefs.items, p.typedefs.count * sizeof(IrTypeDef));
		m->typedefs = defs;
	}
	if (diags->errors == p.errors_at_start) {
		note_unknown_ops(&p);
		/* devplan reads it as TVM does with a metatable from Python; TVM's
		 * own parser alone rejects it: say so once, where it starts */
		if (p.table_device.line)
			diag_note(diags, src, p.table_device,
				  "meta[VirtualDevice][i] indexes devplan's device table "
				  "('targets') as %s; TVM's parser rejects it unless Python "
				  "hands it a metatable ('save' writes the section)",
				  p.has_meta ? "the module's #[metadata] section holds none"
					     : "the module has no #[metadata] section");
	}

	/* constants no expression refers to still belong to the module */
	for (uint32_t i = 0; i < m->nconstants; i++)
		if (!m->constants[i])
			m->constants[i] = ir_constant(m, lex_offset_pos(src, meta_offset),
						      &p.meta.constants[i], (int32_t)i);
	keep_spans(&p);
	/* the section as written, for the printer (metadata_write) */
	if (p.meta_ok)
		metadata_keep(m, src->text + meta_offset, src->len - meta_offset, &p.meta);

	/* the section's diagnostics, in file order after the module's */
	for (size_t i = 0; i < meta_diags.count; i++) {
		Diag *d = &meta_diags.items[i];
		diag_add(diags, d->severity, d->src, d->pos, "%s", d->message);
	}
	diag_free(&meta_diags);

	failed = diags->errors > p.errors_at_start;
	parser_free(&p);
	if (failed) {
		ir_module_free(m);
		return NULL;
	}
	return m;
}

/* The memory scopes a parse added, by device type, id and scope name. */
static int compare_added(const void *a, const void *b)
{
	const Device *x = a, *y = b;
	if (x->device_type != y->device_type)
		return x->device_type < y->device_type ? -1 : 1;
	if (x->device_id != y->device_id)
		return x->device_id < y->device_id ? -1 : 1;
	return strcmp(x->scope, y->scope);
}

/* The memory scopes a module names join the table in an order of their own,
 * sorted by device and scope name, not in the order the text first names
 * them, so that the order of bindings does not number them [P4]: a parse
 * that added some is undone, they are added again sorted, and the module
 * parsed again (each now found, none added). */
IrModule *parse_module(SourceFile *src, DeviceTable *devices, DiagList *diags)
{
	DeviceTable none = {0};
	uint32_t before;
	size_t ndiags = diags->count, nerrors = diags->errors, nadded;
	Device *added;
	IrModule *m;
	if (!devices)
		devices = &none;
	before = devices->count;
	m = parse_once(src, devices, diags);
	if (devices->count == before) {
		devices_free(&none);
		return m;
	}
	nadded = devices->count - before;
	added = xmalloc(nadded * sizeof(Device));
	memcpy(added, devices->items + before, nadded * sizeof(Device));
	for (size_t i = 0; i < nadded; i++)
		added[i].scope = xstrdup(added[i].scope); /* truncate frees the table's */
	qsort(added, nadded, sizeof(Device), compare_added);
	devices_truncate(devices, before);
	for (size_t i = 0; i < nadded; i++) {
		devices_intern(devices, added[i].device_type, added[i].device_id, added[i].scope);
		free(added[i].scope);
	}
	free(added);
	ir_module_free(m);
	while (diags->count > ndiags)
		free(diags->items[--diags->count].message);
	diags->errors = nerrors;
	m = parse_once(src, devices, diags);
	devices_free(&none);
	return m;
}
