/*
 * lex.h - the Relay text lexer.
 *
 * The lexer turns the bytes of a SourceFile into tokens on demand, one at a
 * time, so a module of a million bindings never holds more than the parser's
 * few tokens of lookahead. Tokens point into the source text (nothing is
 * copied or allocated per token) and carry their 1-based line and column.
 * Comments (line comments and TVM's block comments, which nest) and
 * whitespace are skipped. Malformed input (an unterminated comment or
 * string, a stray byte, a bad number) is reported once through the DiagList
 * and comes back as a TK_ERROR token, so the parser can recover without
 * piling up errors.
 *
 * TVM's printer ends the comment after an expression with a source span,
 * `ty=T span=NAME:LINE:COL`; a lexer given a LexSpans list notes
 * each such `span=` there (LexSpan) for the parser to attach.
 *
 * Ownership: a Lexer borrows its SourceFile, DiagList and LexSpans; it owns
 * nothing.
 */
#ifndef DEVPLAN_LEX_H
#define DEVPLAN_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "util.h"

typedef enum TokenKind {
	TK_EOF,
	TK_ERROR,    /* malformed input, already reported */
	TK_IDENT,    /* add, nn.conv2d, relay.Constant, float32, True */
	TK_GLOBAL,   /* @name: text includes the '@' */
	TK_LOCAL,    /* %name or %0: text includes the '%' */
	TK_INT,      /* num.i; suffix NUM_NONE or NUM_I16/I32/I64 */
	TK_FLOAT,    /* num.f; suffix NUM_NONE or NUM_F16/F32/F64 */
	TK_STRING,   /* "...": text is the raw bytes between the quotes */
	TK_LPAREN,   /* ( */
	TK_RPAREN,   /* ) */
	TK_LBRACKET, /* [ */
	TK_RBRACKET, /* ] */
	TK_LBRACE,   /* { */
	TK_RBRACE,   /* } */
	TK_COMMA,    /* , */
	TK_SEMI,     /* ; */
	TK_COLON,    /* : */
	TK_EQUAL,    /* = */
	TK_DOT,      /* . */
	TK_ARROW,    /* -> */
	TK_FATARROW, /* => (a match clause) */
	TK_QUESTION, /* ? */
	TK_HASH,     /* #[ */
	TK_DEF,      /* def */
	TK_FN,       /* fn */
	TK_LET,      /* let */
	TK_IF,       /* if */
	TK_ELSE,     /* else */
	TK_FREE_VAR, /* free_var */
	/* TVM's infix operators, which read as calls (parse.c) */
	TK_PLUS,       /* + */
	TK_MINUS,      /* - not before a digit or '>' */
	TK_STAR,       /* * */
	TK_SLASH,      /* / not starting a comment */
	TK_LESS,       /* < */
	TK_GREATER,    /* > */
	TK_LESS_EQ,    /* <= */
	TK_GREATER_EQ, /* >= */
	TK_EQ_EQ,      /* == */
	TK_NOT_EQ,     /* != */
} TokenKind;

/* The type suffix written after a number: 1f, 2i64, 3i16, 1f16 (TVM's
 * tokenizer: i or f and a width; i alone is i32, f alone f32). */
typedef enum NumSuffix {
	NUM_NONE,
	NUM_I16,
	NUM_I32,
	NUM_I64,
	NUM_F16,
	NUM_F32,
	NUM_F64,
} NumSuffix;

typedef struct Token {
	TokenKind kind;
	Pos pos;          /* of the first byte */
	uint32_t offset;  /* of the first byte in the source text */
	uint32_t len;     /* bytes of the token (for TK_STRING: of the contents) */
	const char *text; /* into the source text; not NUL-terminated */
	NumSuffix suffix; /* TK_INT, TK_FLOAT */
	union {
		int64_t i; /* TK_INT */
		double f;  /* TK_FLOAT */
	} num;
} Token;

/* A `span=` note in a block comment: the text from just past `span=` to
 * the comment's closing delimiter (spaces before it dropped), and where the
 * token before the comment ends, which tells the parser the expression the
 * comment follows. */
typedef struct LexSpan {
	uint32_t after;  /* offset just past the token before the comment */
	uint32_t offset; /* of the span's text */
	uint32_t len;
} LexSpan;

/* The notes met so far, in source order; owned by whoever set it up. */
typedef struct LexSpans {
	LexSpan *items;
	size_t count;
	size_t cap;
} LexSpans;

typedef struct Lexer {
	const SourceFile *src;
	const char *text;
	size_t cursor;      /* offset of the next byte to read */
	size_t end;         /* offset where the input stops (a #[metadata] line) */
	uint32_t line;      /* line of the cursor */
	size_t line_start;  /* offset of the first byte of that line */
	TokenKind prev;     /* the kind of the last token returned */
	bool hit_eof_error; /* an unterminated comment or string ate the rest */
	DiagList *diags;
	LexSpans *spans; /* where `span=` notes go; NULL (lex_init's) skips them */
} Lexer;

/* Lexes src->text[0, end). */
void lex_init(Lexer *lx, const SourceFile *src, size_t end, DiagList *diags);
/* The next token; TK_EOF forever once the input is exhausted. */
void lex_next(Lexer *lx, Token *out);
/* Skips, at the byte level, optional whitespace and a balanced group
 * `( ... )` holding anything (nested brackets and braces, strings in single
 * or double quotes): the Target(...) part of TVM's VirtualDevice literal.
 * Returns false after reporting an error. */
bool lex_skip_group(Lexer *lx, const char *what);

/* `';'`, `'nn.conv2d'`, `end of input`: how a message names a token. */
void lex_describe(StrBuf *out, const Token *tok);
/* Appends the decoded contents of a TK_STRING token (escapes resolved). */
void lex_string_value(StrBuf *out, const Token *tok);
/* True when the token is the identifier `word`. */
bool lex_is_ident(const Token *tok, const char *word);
/* The position of byte `offset` of src (binary search of line starts). */
Pos lex_offset_pos(const SourceFile *src, size_t offset);
/* Parses text[0, len) as a decimal floating-point number in the C locale,
 * whatever the process locale; false unless all of it was consumed. */
bool lex_parse_double(const char *text, size_t len, double *out);

#endif
