/*
 * test_lexer.c - unit tests of the Relay lexer (core/ir/lex.c).
 *
 * Each test lexes a short text and checks the token kinds, their text,
 * positions and values, and the diagnostics for malformed input (one error
 * per problem, then the lexer goes on).
 */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "lex.h"

typedef struct Lexed {
	SourceFile *src;
	DiagList diags;
	Token toks[64];
	size_t n;
} Lexed;

/* Lexes text up to and including TK_EOF (at most 64 tokens). */
static Lexed *lex_text(const char *text, size_t len)
{
	Lexed *l = test_calloc(1, sizeof(Lexed));
	Lexer lx;
	l->src = source_from_string("t.relay", text, len);
	diag_init(&l->diags);
	lex_init(&lx, l->src, l->src->len, &l->diags);
	do {
		lex_next(&lx, &l->toks[l->n]);
	} while (l->toks[l->n++].kind != TK_EOF && l->n < 64);
	return l;
}

#define LEX(s) lex_text(s, strlen(s))

static void lexed_free(Lexed *l)
{
	diag_free(&l->diags);
	source_release(l->src);
	test_free(l);
}

static void assert_token(const Token *t, TokenKind kind, const char *text, uint32_t line,
			 uint32_t col)
{
	assert_int_equal(t->kind, kind);
	if (text) {
		assert_int_equal(t->len, strlen(text));
		assert_memory_equal(t->text, text, t->len);
	}
	assert_int_equal(t->pos.line, line);
	assert_int_equal(t->pos.col, col);
}

static void test_definition_header(void **state)
{
	Lexed *l = LEX("def @main(%x: Tensor[(5, ?), float32]) -> fn {");
	const Token *t = l->toks;
	(void)state;
	assert_token(t++, TK_DEF, "def", 1, 1);
	assert_token(t++, TK_GLOBAL, "@main", 1, 5);
	assert_token(t++, TK_LPAREN, "(", 1, 10);
	assert_token(t++, TK_LOCAL, "%x", 1, 11);
	assert_token(t++, TK_COLON, ":", 1, 13);
	assert_token(t++, TK_IDENT, "Tensor", 1, 15);
	assert_token(t++, TK_LBRACKET, "[", 1, 21);
	assert_token(t++, TK_LPAREN, "(", 1, 22);
	assert_token(t++, TK_INT, "5", 1, 23);
	assert_token(t++, TK_COMMA, ",", 1, 24);
	assert_token(t++, TK_QUESTION, "?", 1, 26);
	assert_token(t++, TK_RPAREN, ")", 1, 27);
	assert_token(t++, TK_COMMA, ",", 1, 28);
	assert_token(t++, TK_IDENT, "float32", 1, 30);
	assert_token(t++, TK_RBRACKET, "]", 1, 37);
	assert_token(t++, TK_RPAREN, ")", 1, 38);
	assert_token(t++, TK_ARROW, "->", 1, 40);
	assert_token(t++, TK_FN, "fn", 1, 43);
	assert_token(t++, TK_LBRACE, "{", 1, 46);
	assert_token(t++, TK_EOF, NULL, 1, 47);
	assert_int_equal(l->diags.count, 0);
	lexed_free(l);
}

static void test_keywords_and_dotted_names(void **state)
{
	Lexed *l = LEX("let if else free_var nn.conv2d relay.Constant lettuce #[ ; =");
	(void)state;
	assert_int_equal(l->toks[0].kind, TK_LET);
	assert_int_equal(l->toks[1].kind, TK_IF);
	assert_int_equal(l->toks[2].kind, TK_ELSE);
	assert_int_equal(l->toks[3].kind, TK_FREE_VAR);
	assert_token(&l->toks[4], TK_IDENT, "nn.conv2d", 1, 22);
	assert_token(&l->toks[5], TK_IDENT, "relay.Constant", 1, 32);
	assert_token(&l->toks[6], TK_IDENT, "lettuce", 1, 47);
	assert_int_equal(l->toks[7].kind, TK_HASH);
	assert_int_equal(l->toks[8].kind, TK_SEMI);
	assert_int_equal(l->toks[9].kind, TK_EQUAL);
	assert_true(lex_is_ident(&l->toks[4], "nn.conv2d"));
	assert_false(lex_is_ident(&l->toks[4], "nn.conv"));
	lexed_free(l);
}

static void test_numbers(void **state)
{
	Lexed *l = LEX("1f 1.5f 1e-05f 2i64 3 -1f 1f64 1f16 0.1 -3 7i32 2.5e3 "
		       "9223372036854775807 -9223372036854775808 -4i16 5i");
	const Token *t = l->toks;
	(void)state;
	assert_int_equal(t[0].kind, TK_FLOAT);
	assert_int_equal(t[0].suffix, NUM_F32);
	assert_true(t[0].num.f == 1.0);
	assert_true(t[1].kind == TK_FLOAT && t[1].num.f == 1.5 && t[1].suffix == NUM_F32);
	assert_true(t[2].kind == TK_FLOAT && t[2].num.f == 1e-05 && t[2].suffix == NUM_F32);
	assert_true(t[3].kind == TK_INT && t[3].num.i == 2 && t[3].suffix == NUM_I64);
	assert_true(t[4].kind == TK_INT && t[4].num.i == 3 && t[4].suffix == NUM_NONE);
	assert_true(t[5].kind == TK_FLOAT && t[5].num.f == -1.0);
	assert_true(t[6].kind == TK_FLOAT && t[6].suffix == NUM_F64);
	assert_true(t[7].kind == TK_FLOAT && t[7].suffix == NUM_F16);
	assert_true(t[8].kind == TK_FLOAT && t[8].num.f == 0.1 && t[8].suffix == NUM_NONE);
	assert_true(t[9].kind == TK_INT && t[9].num.i == -3);
	assert_true(t[10].kind == TK_INT && t[10].num.i == 7 && t[10].suffix == NUM_I32);
	assert_true(t[11].kind == TK_FLOAT && t[11].num.f == 2500.0);
	assert_true(t[12].kind == TK_INT && t[12].num.i == INT64_MAX);
	assert_true(t[13].kind == TK_INT && t[13].num.i == INT64_MIN);
	assert_true(t[14].kind == TK_INT && t[14].num.i == -4 && t[14].suffix == NUM_I16);
	assert_true(t[15].kind == TK_INT && t[15].num.i == 5 && t[15].suffix == NUM_I32);
	assert_int_equal(t[16].kind, TK_EOF);
	assert_int_equal(l->diags.count, 0);
	lexed_free(l);
}

static void test_numbers_in_another_locale(void **state)
{
	/* a locale with a decimal comma must not change how 1.5f reads */
	const char *names[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE.utf8"};
	Lexed *l;
	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (setlocale(LC_NUMERIC, names[i]))
			break;
	l = LEX("1.5f 0.25");
	assert_true(l->toks[0].num.f == 1.5);
	assert_true(l->toks[1].num.f == 0.25);
	setlocale(LC_NUMERIC, "C");
	lexed_free(l);
}

static void test_bad_numbers(void **state)
{
	Lexed *l = LEX("1q 2.5i64 99999999999999999999 1e999f 3i8 1.5i16 x");
	(void)state;
	assert_int_equal(l->toks[0].kind, TK_ERROR);
	assert_int_equal(l->toks[1].kind, TK_ERROR);
	assert_int_equal(l->toks[2].kind, TK_ERROR);
	assert_int_equal(l->toks[3].kind, TK_ERROR);
	assert_int_equal(l->toks[4].kind, TK_ERROR);
	assert_int_equal(l->toks[5].kind, TK_ERROR);
	assert_token(&l->toks[6], TK_IDENT, "x", 1, 50);
	assert_int_equal(l->diags.count, 6);
	assert_string_equal(l->diags.items[0].message, "invalid suffix 'q' on number '1'");
	assert_string_equal(l->diags.items[1].message,
			    "integer suffix 'i64' on the floating-point number '2.5'");
	assert_string_equal(l->diags.items[2].message,
			    "integer '99999999999999999999' is out of range");
	assert_string_equal(l->diags.items[3].message, "number '1e999' is out of range");
	/* TVM has literals for int16, int32 and int64 only */
	assert_string_equal(l->diags.items[4].message, "invalid suffix 'i8' on number '3'");
	assert_string_equal(l->diags.items[5].message,
			    "integer suffix 'i16' on the floating-point number '1.5'");
	lexed_free(l);
}

/* TVM's infix operators; a run of '-' before a number is its sign (its
 * parity: --10 is 10), any other '-' the operator; `inff` is infinity;
 * a name may hold a '/' followed by a name character. */
static void test_operators_and_signs(void **state)
{
	Lexed *l = LEX("+ - * / < <= > >= == != = => -> --10 ---10 - 1 -inff inff "
		       "%base/x %a/%b @g/h");
	const Token *t = l->toks;
	(void)state;
	assert_token(t++, TK_PLUS, "+", 1, 1);
	assert_token(t++, TK_MINUS, "-", 1, 3);
	assert_token(t++, TK_STAR, "*", 1, 5);
	assert_token(t++, TK_SLASH, "/", 1, 7);
	assert_token(t++, TK_LESS, "<", 1, 9);
	assert_token(t++, TK_LESS_EQ, "<=", 1, 11);
	assert_token(t++, TK_GREATER, ">", 1, 14);
	assert_token(t++, TK_GREATER_EQ, ">=", 1, 16);
	assert_token(t++, TK_EQ_EQ, "==", 1, 19);
	assert_token(t++, TK_NOT_EQ, "!=", 1, 22);
	assert_token(t++, TK_EQUAL, "=", 1, 25);
	assert_token(t++, TK_FATARROW, "=>", 1, 27);
	assert_token(t++, TK_ARROW, "->", 1, 30);
	assert_token(t, TK_INT, "--10", 1, 33);
	assert_int_equal(t++->num.i, 10);
	assert_token(t, TK_INT, "---10", 1, 38);
	assert_int_equal(t++->num.i, -10);
	assert_token(t++, TK_MINUS, "-", 1, 44);
	assert_token(t++, TK_INT, "1", 1, 46);
	assert_token(t, TK_FLOAT, "-inff", 1, 48);
	assert_true(t->num.f < 0 && isinf(t->num.f) && t->suffix == NUM_F32);
	t++;
	assert_token(t, TK_FLOAT, "inff", 1, 54);
	assert_true(t->num.f > 0 && isinf(t->num.f));
	t++;
	assert_token(t++, TK_LOCAL, "%base/x", 1, 59);
	assert_token(t++, TK_LOCAL, "%a", 1, 67);
	assert_token(t++, TK_SLASH, "/", 1, 69);
	assert_token(t++, TK_LOCAL, "%b", 1, 70);
	assert_token(t++, TK_GLOBAL, "@g/h", 1, 73);
	assert_int_equal(t->kind, TK_EOF);
	assert_int_equal(l->diags.count, 0);
	lexed_free(l);
}

static void test_projection_digits(void **state)
{
	/* after '.', digits are an integer: %t.0.1 is two projections */
	Lexed *l = LEX("%t.0.1 %x.12");
	const Token *t = l->toks;
	(void)state;
	assert_token(t++, TK_LOCAL, "%t", 1, 1);
	assert_token(t++, TK_DOT, ".", 1, 3);
	assert_token(t++, TK_INT, "0", 1, 4);
	assert_token(t++, TK_DOT, ".", 1, 5);
	assert_token(t++, TK_INT, "1", 1, 6);
	assert_token(t++, TK_LOCAL, "%x", 1, 8);
	assert_token(t++, TK_DOT, ".", 1, 10);
	assert_token(t, TK_INT, "12", 1, 11);
	assert_int_equal(t->num.i, 12);
	lexed_free(l);
}

static void test_comments(void **state)
{
	Lexed *l = LEX("a /* ty=fn (Tensor[(1), float32]) -> int32 span=f:1:2 */ b // rest\n"
		       "/* outer /* inner */ still outer */ c\n"
		       "/*\n multi\n line */ d");
	(void)state;
	assert_token(&l->toks[0], TK_IDENT, "a", 1, 1);
	assert_token(&l->toks[1], TK_IDENT, "b", 1, 58);
	assert_token(&l->toks[2], TK_IDENT, "c", 2, 37);
	assert_token(&l->toks[3], TK_IDENT, "d", 5, 10);
	assert_int_equal(l->toks[4].kind, TK_EOF);
	assert_int_equal(l->diags.count, 0);
	lexed_free(l);
}

static void test_unterminated_comment(void **state)
{
	Lexed *l = LEX("x\n  /* never closed");
	Lexed *nested = LEX("/* a /* b */");
	(void)state;
	assert_int_equal(l->toks[1].kind, TK_ERROR);
	assert_int_equal(l->toks[2].kind, TK_EOF);
	assert_int_equal(l->diags.count, 1);
	assert_string_equal(l->diags.items[0].message, "unterminated comment");
	assert_int_equal(l->diags.items[0].pos.line, 2);
	assert_int_equal(l->diags.items[0].pos.col, 3);
	assert_int_equal(nested->diags.count, 1);
	assert_string_equal(nested->diags.items[0].message,
			    "unterminated comment (comments nest: each '/*' needs its own '*/')");
	lexed_free(l);
	lexed_free(nested);
}

static void test_strings(void **state)
{
	Lexed *l = LEX("\"float32\" \"a\\\"b\\\\c\\n\" \"\"");
	StrBuf sb;
	(void)state;
	strbuf_init(&sb);
	assert_token(&l->toks[0], TK_STRING, "float32", 1, 1);
	lex_string_value(&sb, &l->toks[1]);
	assert_string_equal(sb.data, "a\"b\\c\n");
	assert_int_equal(l->toks[2].kind, TK_STRING);
	assert_int_equal(l->toks[2].len, 0);
	strbuf_free(&sb);
	lexed_free(l);
}

static void test_unterminated_string(void **state)
{
	Lexed *l = LEX("f(\"abc\n) x");
	(void)state;
	assert_int_equal(l->toks[2].kind, TK_ERROR);
	assert_int_equal(l->diags.count, 1);
	assert_string_equal(l->diags.items[0].message, "unterminated string");
	assert_int_equal(l->diags.items[0].pos.col, 3);
	/* lexing resumes on the next line */
	assert_token(&l->toks[3], TK_RPAREN, ")", 2, 1);
	assert_token(&l->toks[4], TK_IDENT, "x", 2, 3);
	lexed_free(l);
}

static void test_garbage_runs(void **state)
{
	static const char text[] = "a $$^^ b \xff\xfe c \0\0 d ! e # f";
	Lexed *l = lex_text(text, sizeof text - 1);
	(void)state;
	assert_token(&l->toks[0], TK_IDENT, "a", 1, 1);
	assert_int_equal(l->toks[1].kind, TK_ERROR);
	assert_token(&l->toks[2], TK_IDENT, "b", 1, 8);
	assert_int_equal(l->toks[3].kind, TK_ERROR);
	assert_token(&l->toks[4], TK_IDENT, "c", 1, 13);
	assert_int_equal(l->toks[5].kind, TK_ERROR);
	assert_token(&l->toks[6], TK_IDENT, "d", 1, 18);
	assert_int_equal(l->toks[7].kind, TK_ERROR);
	assert_int_equal(l->toks[9].kind, TK_ERROR);
	assert_int_equal(l->diags.count, 5);
	assert_string_equal(l->diags.items[0].message, "unexpected character '$'");
	assert_string_equal(l->diags.items[1].message, "unexpected byte 0xff");
	assert_string_equal(l->diags.items[2].message, "unexpected NUL byte");
	assert_string_equal(l->diags.items[3].message, "unexpected character '!'");
	assert_string_equal(l->diags.items[4].message, "unexpected character '#'");
	lexed_free(l);
}

static void test_sigils_need_names(void **state)
{
	Lexed *l = LEX("% @ %_x @f1");
	(void)state;
	assert_int_equal(l->toks[0].kind, TK_ERROR);
	assert_int_equal(l->toks[1].kind, TK_ERROR);
	assert_token(&l->toks[2], TK_LOCAL, "%_x", 1, 5);
	assert_token(&l->toks[3], TK_GLOBAL, "@f1", 1, 9);
	assert_string_equal(l->diags.items[0].message, "expected a name after '%'");
	lexed_free(l);
}

static void test_skip_group(void **state)
{
	const char *text = "Target(id=3706ec0, kind='llvm', keys={'cpu', \"x)\"}, attrs={'a': [1, "
			   "(2)]}), rest";
	SourceFile *src = source_from_string("t.relay", text, strlen(text));
	DiagList diags;
	Lexer lx;
	Token t;
	(void)state;
	diag_init(&diags);
	lex_init(&lx, src, src->len, &diags);
	lex_next(&lx, &t);
	assert_true(lex_is_ident(&t, "Target"));
	assert_true(lex_skip_group(&lx, "Target"));
	lex_next(&lx, &t);
	assert_int_equal(t.kind, TK_COMMA);
	lex_next(&lx, &t);
	assert_true(lex_is_ident(&t, "rest"));
	assert_int_equal(diags.count, 0);
	diag_free(&diags);
	source_release(src);

	text = "Target(kind='cuda', keys={'cuda'";
	src = source_from_string("t.relay", text, strlen(text));
	diag_init(&diags);
	lex_init(&lx, src, src->len, &diags);
	lex_next(&lx, &t);
	assert_false(lex_skip_group(&lx, "Target"));
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message,
			    "unterminated 'Target(': expected ')' to close it");
	assert_true(lx.hit_eof_error);
	lex_next(&lx, &t);
	assert_int_equal(t.kind, TK_EOF);
	diag_free(&diags);
	source_release(src);
}

static void test_end_offset(void **state)
{
	/* the lexer stops at `end`, where a #[metadata] section would start */
	const char *text = "a b\n#[metadata]\n{}";
	SourceFile *src = source_from_string("t.relay", text, strlen(text));
	DiagList diags;
	Lexer lx;
	Token t;
	(void)state;
	diag_init(&diags);
	lex_init(&lx, src, 4, &diags);
	lex_next(&lx, &t);
	lex_next(&lx, &t);
	assert_true(lex_is_ident(&t, "b"));
	lex_next(&lx, &t);
	assert_int_equal(t.kind, TK_EOF);
	diag_free(&diags);
	source_release(src);
}

static void test_describe_and_positions(void **state)
{
	Lexed *l = LEX("x;\n\"s\"\n");
	StrBuf sb;
	Pos p;
	(void)state;
	strbuf_init(&sb);
	lex_describe(&sb, &l->toks[1]);
	assert_string_equal(sb.data, "';'");
	strbuf_reset(&sb);
	lex_describe(&sb, &l->toks[2]);
	assert_string_equal(sb.data, "'\"s\"'");
	strbuf_reset(&sb);
	lex_describe(&sb, &l->toks[3]);
	assert_string_equal(sb.data, "end of input");
	p = lex_offset_pos(l->src, 4);
	assert_int_equal(p.line, 2);
	assert_int_equal(p.col, 2);
	p = lex_offset_pos(l->src, 0);
	assert_int_equal(p.line, 1);
	assert_int_equal(p.col, 1);
	strbuf_free(&sb);
	lexed_free(l);
}

/* A `span=` at the end of a one-level block comment is noted with where
 * the token before the comment ends; other comments, a nested one and a
 * lexer without a list are passed over. */
static void test_span_notes(void **state)
{
	static const char text[] = "f(x) /* ty=T span=/a b:0:0  */ g /* no span here */ "
				   "1f /*span=S:1:2*/ /* x /* span=N */ */ h // span=L\n";
	SourceFile *src = source_from_string("t.relay", text, strlen(text));
	DiagList diags;
	LexSpans spans = {0};
	Lexer lx;
	Token t;
	(void)state;
	diag_init(&diags);
	lex_init(&lx, src, src->len, &diags);
	assert_null(lx.spans);
	lx.spans = &spans;
	do
		lex_next(&lx, &t);
	while (t.kind != TK_EOF);
	assert_int_equal(diags.count, 0);
	assert_int_equal(spans.count, 2);
	assert_int_equal(spans.items[0].after, 4); /* just past `)` */
	assert_int_equal(spans.items[0].len, strlen("/a b:0:0"));
	assert_memory_equal(text + spans.items[0].offset, "/a b:0:0", spans.items[0].len);
	assert_int_equal(spans.items[1].after, strstr(text, "1f") + 2 - text);
	assert_memory_equal(text + spans.items[1].offset, "S:1:2", spans.items[1].len);
	assert_int_equal(spans.items[1].len, 5);
	free(spans.items);
	diag_free(&diags);
	source_release(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_definition_header),
		cmocka_unit_test(test_keywords_and_dotted_names),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_numbers_in_another_locale),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_operators_and_signs),
		cmocka_unit_test(test_projection_digits),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_unterminated_comment),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_unterminated_string),
		cmocka_unit_test(test_garbage_runs),
		cmocka_unit_test(test_sigils_need_names),
		cmocka_unit_test(test_skip_group),
		cmocka_unit_test(test_end_offset),
		cmocka_unit_test(test_describe_and_positions),
		cmocka_unit_test(test_span_notes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
