/*
 * relax_lex.c - the TVMScript tokenizer (see relax_lex.h).
 *
 * One pass over the bytes with a stack of indentation widths, as in
 * Python's tokenizer: at the start of a logical line outside brackets the
 * width of the leading spaces is compared with the top of the stack and
 * INDENT or DEDENTs are emitted; a line that is blank or only a comment
 * emits nothing. Tabs count as advancing to the next multiple of 8.
 * Strings take single or double quotes and the usual backslash escapes;
 * triple-quoted strings are not part of what TVM prints and are refused.
 */
#include "relax_lex.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { RX_MAX_INDENT_DEPTH = 200 };

typedef struct Lexer {
	const SourceFile *src;
	const char *p, *text;
	Arena *arena;
	RxTokens *toks;
	DiagList *diags;
	uint32_t line;
	const char *line_start;
	int depth; /* open brackets */
	int indents[RX_MAX_INDENT_DEPTH];
	int nindents;
} Lexer;

static Pos lex_pos(const Lexer *lx, const char *at)
{
	return (Pos){lx->line, (uint32_t)(at - lx->line_start) + 1};
}

static void push_token(Lexer *lx, RxTokKind kind, const char *start, size_t len, const char *text)
{
	RxToken *t;
	grow_array((void **)&lx->toks->items, &lx->toks->cap, lx->toks->count + 1, sizeof(RxToken));
	t = &lx->toks->items[lx->toks->count++];
	t->kind = kind;
	t->pos = lex_pos(lx, start);
	t->offset = (size_t)(start - lx->text);
	t->len = len;
	t->text = text ? text : arena_strndup(lx->arena, start, len);
}

static bool lex_error(Lexer *lx, const char *at, const char *msg)
{
	diag_error(lx->diags, lx->src, lex_pos(lx, at), "%s", msg);
	return false;
}

static void new_line(Lexer *lx)
{
	lx->line++;
	lx->line_start = lx->p;
}

/* Leading whitespace of a logical line: INDENT, DEDENTs or nothing. */
static bool lex_indentation(Lexer *lx)
{
	int width = 0;
	const char *start = lx->p;
	while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\f') {
		width = *lx->p == '\t' ? (width / 8 + 1) * 8 : width + 1;
		lx->p++;
	}
	if (*lx->p == '\n' || *lx->p == '\r' || *lx->p == '#' || *lx->p == '\0')
		return true; /* blank or comment line */
	if (width > lx->indents[lx->nindents - 1]) {
		if (lx->nindents == RX_MAX_INDENT_DEPTH)
			return lex_error(lx, lx->p, "blocks nested too deeply");
		lx->indents[lx->nindents++] = width;
		push_token(lx, RX_TOK_INDENT, start, (size_t)(lx->p - start), "");
		return true;
	}
	while (width < lx->indents[lx->nindents - 1]) {
		lx->nindents--;
		push_token(lx, RX_TOK_DEDENT, lx->p, 0, "");
	}
	if (width != lx->indents[lx->nindents - 1])
		return lex_error(lx, lx->p, "unindent does not match any outer indentation level");
	return true;
}

static char escape_char(char c)
{
	switch (c) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case '0':
		return '\0';
	default:
		return c;
	}
}

static bool lex_string(Lexer *lx)
{
	const char *start = lx->p;
	char quote = *lx->p++;
	StrBuf sb;
	if (lx->p[0] == quote && lx->p[1] == quote)
		return lex_error(lx, start, "triple-quoted strings are not supported");
	strbuf_init(&sb);
	while (*lx->p != quote) {
		if (*lx->p == '\0' || *lx->p == '\n') {
			strbuf_free(&sb);
			return lex_error(lx, start, "unterminated string");
		}
		if (*lx->p == '\\' && lx->p[1] != '\0' && lx->p[1] != '\n') {
			strbuf_putc(&sb, escape_char(lx->p[1]));
			lx->p += 2;
			continue;
		}
		strbuf_putc(&sb, *lx->p++);
	}
	lx->p++;
	push_token(lx, RX_TOK_STR, start, (size_t)(lx->p - start),
		   arena_strndup(lx->arena, sb.data ? sb.data : "", sb.len));
	strbuf_free(&sb);
	return true;
}

static void lex_number(Lexer *lx)
{
	const char *start = lx->p;
	bool is_float = false;
	if (lx->p[0] == '0' && (lx->p[1] == 'x' || lx->p[1] == 'X')) {
		lx->p += 2;
		while (isxdigit((unsigned char)*lx->p))
			lx->p++;
	} else {
		while (isdigit((unsigned char)*lx->p) || *lx->p == '.' || *lx->p == '_' ||
		       ((*lx->p == 'e' || *lx->p == 'E') && lx->p > start) ||
		       ((*lx->p == '+' || *lx->p == '-') &&
			(lx->p[-1] == 'e' || lx->p[-1] == 'E'))) {
			is_float |= *lx->p == '.' || *lx->p == 'e' || *lx->p == 'E';
			lx->p++;
		}
	}
	push_token(lx, is_float ? RX_TOK_FLOAT : RX_TOK_INT, start, (size_t)(lx->p - start), NULL);
}

/* Operators, longest first. */
static const char *const lex_operators[] = {
	"**=", "//=", ">>=", "<<=", "->", "**", "//", "==", "!=", "<=", ">=", "<<",
	">>",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", ":=", "(",  ")",
	"[",   "]",   "{",   "}",   ",",  ":",  ".",  ";",  "@",  "=",  "+",  "-",
	"*",   "/",   "%",   "&",   "|",  "^",  "~",  "<",  ">",
};

static bool lex_operator(Lexer *lx)
{
	for (size_t i = 0; i < DP_COUNT(lex_operators); i++) {
		size_t n;
		if (lx->p[0] != lex_operators[i][0]) /* most are ruled out here */
			continue;
		n = strlen(lex_operators[i]);
		if (strncmp(lx->p, lex_operators[i], n) != 0)
			continue;
		if (strchr("([{", lx->p[0]) && n == 1)
			lx->depth++;
		else if (strchr(")]}", lx->p[0]) && n == 1 && lx->depth > 0)
			lx->depth--;
		push_token(lx, RX_TOK_OP, lx->p, n, lex_operators[i]);
		lx->p += n;
		return true;
	}
	return lex_error(lx, lx->p, "unexpected character");
}

/* One token, or the end of a physical line. */
static bool lex_one(Lexer *lx, bool *at_line_start)
{
	char c = *lx->p;
	if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
		lx->p++;
	} else if (c == '#') {
		while (*lx->p && *lx->p != '\n')
			lx->p++;
	} else if (c == '\\' && lx->p[1] == '\n') {
		lx->p += 2;
		new_line(lx);
	} else if (c == '\n') {
		size_t n = lx->toks->count;
		if (lx->depth == 0 && n && lx->toks->items[n - 1].kind != RX_TOK_NEWLINE &&
		    lx->toks->items[n - 1].kind != RX_TOK_INDENT &&
		    lx->toks->items[n - 1].kind != RX_TOK_DEDENT) {
			push_token(lx, RX_TOK_NEWLINE, lx->p, 1, "");
		}
		lx->p++;
		new_line(lx);
		*at_line_start = lx->depth == 0;
	} else if (isalpha((unsigned char)c) || c == '_') {
		const char *start = lx->p;
		while (isalnum((unsigned char)*lx->p) || *lx->p == '_')
			lx->p++;
		push_token(lx, RX_TOK_NAME, start, (size_t)(lx->p - start), NULL);
	} else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)lx->p[1]))) {
		lex_number(lx);
	} else if (c == '"' || c == '\'') {
		return lex_string(lx);
	} else {
		return lex_operator(lx);
	}
	return true;
}

bool relax_lex(const SourceFile *src, Arena *arena, RxTokens *toks, DiagList *diags)
{
	Lexer lx = {.src = src,
		    .text = src->text,
		    .p = src->text,
		    .arena = arena,
		    .toks = toks,
		    .diags = diags,
		    .line = 1,
		    .line_start = src->text,
		    .nindents = 1};
	bool at_line_start = true;
	if (memchr(src->text, '\0', src->len))
		return lex_error(&lx, src->text + strlen(src->text), "NUL byte in the file");
	while (*lx.p) {
		if (at_line_start) {
			at_line_start = false;
			if (!lex_indentation(&lx))
				return false;
			continue;
		}
		if (!lex_one(&lx, &at_line_start))
			return false;
	}
	if (toks->count && toks->items[toks->count - 1].kind != RX_TOK_NEWLINE &&
	    toks->items[toks->count - 1].kind != RX_TOK_DEDENT)
		push_token(&lx, RX_TOK_NEWLINE, lx.p, 0, "");
	while (lx.nindents > 1) {
		lx.nindents--;
		push_token(&lx, RX_TOK_DEDENT, lx.p, 0, "");
	}
	push_token(&lx, RX_TOK_EOF, lx.p, 0, "");
	return true;
}

void relax_tokens_free(RxTokens *toks)
{
	free(toks->items);
	memset(toks, 0, sizeof *toks);
}

const char *relax_token_kind_name(RxTokKind kind)
{
	switch (kind) {
	case RX_TOK_NAME:
		return "name";
	case RX_TOK_INT:
		return "integer";
	case RX_TOK_FLOAT:
		return "number";
	case RX_TOK_STR:
		return "string";
	case RX_TOK_OP:
		return "operator";
	case RX_TOK_NEWLINE:
		return "end of line";
	case RX_TOK_INDENT:
		return "indent";
	case RX_TOK_DEDENT:
		return "dedent";
	case RX_TOK_EOF:
		return "end of file";
	}
	return "token";
}
