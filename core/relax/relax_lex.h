/*
 * relax_lex.h - tokens of the Python-like TVMScript text.
 *
 * The lexer turns the whole file into an array of tokens first, as
 * Python's tokenizer does: NEWLINE ends a logical line (none inside
 * brackets), INDENT and DEDENT mark indentation changes, comments and
 * blank lines vanish. Every token keeps its position and its byte range,
 * so that the parser can keep a @T.prim_func's text as written. An error
 * (a bad character, an unterminated string, a dedent to no enclosing
 * level) is a positioned diagnostic and stops the lexer.
 *
 * Ownership: the token array is malloc'ed and freed with relax_tokens_free;
 * token texts live in the arena given to relax_lex.
 */
#ifndef DEVPLAN_RELAX_LEX_H
#define DEVPLAN_RELAX_LEX_H

#include <stddef.h>

#include "arena.h"
#include "diag.h"

typedef enum RxTokKind {
	RX_TOK_NAME,
	RX_TOK_INT,
	RX_TOK_FLOAT,
	RX_TOK_STR,
	RX_TOK_OP, /* punctuation and operators: text is the characters */
	RX_TOK_NEWLINE,
	RX_TOK_INDENT,
	RX_TOK_DEDENT,
	RX_TOK_EOF,
} RxTokKind;

typedef struct RxToken {
	RxTokKind kind;
	Pos pos;
	const char *text; /* NAME, numbers, OP: as written; STR: decoded */
	size_t offset;    /* byte offset of the token in the source */
	size_t len;       /* bytes of the token in the source */
} RxToken;

typedef struct RxTokens {
	RxToken *items;
	size_t count, cap;
} RxTokens;

/* Lexes src into toks; false with a positioned error in diags. */
bool relax_lex(const SourceFile *src, Arena *arena, RxTokens *toks, DiagList *diags);
void relax_tokens_free(RxTokens *toks);
const char *relax_token_kind_name(RxTokKind kind);

#endif
