/*
 * relax_syntax.h - the token cursor and the Python expression grammar the
 * Relax parser reads statements with (relax_syntax.c), shared by
 * relax_parse.c (module and functions) and relax_parse_body.c (bodies).
 *
 * Errors are positioned diagnostics; after the first one the cursor stops
 * at the end of the file (RxParser.failed), so every caller unwinds
 * without cascades.
 */
#ifndef DEVPLAN_RELAX_SYNTAX_H
#define DEVPLAN_RELAX_SYNTAX_H

#include "relax_ir.h"
#include "relax_lex.h"

typedef struct RxScope RxScope;

typedef struct RxParser {
	RxModule *m;
	const SourceFile *src;
	RxTokens toks;
	size_t at;
	DiagList *diags;
	bool failed;
	RxScope *scope;       /* the names visible in the function being read */
	int depth;            /* expression nesting, bounded */
	const char **symbols; /* the symbolic dims declared before the class (malloc'ed) */
	size_t nsymbols, symbols_cap;
} RxParser;

const RxToken *rxp_peek(const RxParser *p);
const RxToken *rxp_peek_at(const RxParser *p, size_t ahead);
const RxToken *rxp_next(RxParser *p);
/* The current token is the operator or keyword name text. */
bool rxp_is(const RxParser *p, RxTokKind kind, const char *text);
/* Consumes it when it is; false otherwise. */
bool rxp_accept(RxParser *p, RxTokKind kind, const char *text);
/* Consumes it, or reports "expected WHAT" and fails. */
bool rxp_expect(RxParser *p, RxTokKind kind, const char *text, const char *what);
/* Reports an error at pos (once) and fails the parse. */
bool rxp_error(RxParser *p, Pos pos, const char *fmt, ...) DP_PRINTF(3, 4);

/* expr_list: a Python expression, or several separated by commas (a
 * tuple without parentheses), as on the right of `=`. NULL on error. */
PyExpr *rxp_expr_list(RxParser *p);
/* expr: one Python expression (no bare tuple). NULL on error. */
PyExpr *rxp_expr(RxParser *p);

/* The dotted name of a PY_NAME/PY_ATTR chain ("R.nn.relu") in m's arena,
 * or NULL when e is something else. */
const char *py_dotted_name(RxModule *m, const PyExpr *e);
/* Appends e as TVM prints it (double-quoted strings). */
void py_print(StrBuf *out, const PyExpr *e);
/* The keyword argument `key` of a call, or NULL. */
PyExpr *py_kwarg(const PyExpr *call, const char *key);
/* The i-th positional argument of a call, or NULL. */
PyExpr *py_arg(const PyExpr *call, uint32_t i);
/* Positional arguments of a call. */
uint32_t py_nargs(const PyExpr *call);
/* Whether e is an integer literal (signed); its value in *v. */
bool py_int(const PyExpr *e, int64_t *v);

#endif
