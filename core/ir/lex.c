/*
 * lex.c - the Relay text lexer.
 *
 * A hand-written scanner over the source bytes, bounded by an end offset
 * rather than by NUL, so that NUL bytes in the input are ordinary (bad)
 * bytes. Each call to lex_next skips whitespace and comments, then reads one
 * token. Block comments nest as in TVM's tokenizer (`/` `*` opens a level,
 * `*` `/` closes one), counted with an integer, never recursively. A run of
 * bytes that cannot start a token is reported once and returned as one
 * TK_ERROR token. Numbers are classified here (int or float, with their
 * suffix) and converted in the C locale, whatever locale the shell set.
 *
 * A block comment of one level that holds ` span=` (or starts with it) is
 * noted when the lexer has a LexSpans list: everything after `span=` up to
 * the comment's end is the span, as TVM prints it last in the comment.
 * Only comments pay for this, so a module without them costs nothing more.
 *
 * After a '.', digits are always an integer: `%t.0.1` is two projections,
 * not the float 0.1.
 *
 * Minus signs follow TVM's tokenizer: a run of '-' right before a digit
 * (or `inff`, TVM's infinity) is part of the number, its sign their
 * parity (`--10` is 10), so `%x -1` is two operands, not a subtraction;
 * any other '-' is the infix operator (TK_MINUS), and '-' '>' the arrow.
 * A %name or @name may hold a '/' followed by a name character
 * (`%base/x`, which TVM reads as one name), so that `%a/%b` still
 * divides.
 */
#include "lex.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

void lex_init(Lexer *lx, const SourceFile *src, size_t end, DiagList *diags)
{
	memset(lx, 0, sizeof *lx);
	lx->src = src;
	lx->text = src->text;
	lx->end = end < src->len ? end : src->len;
	lx->line = 1;
	lx->prev = TK_EOF;
	lx->diags = diags;
	/* a UTF-8 byte order mark is not part of the text */
	if (lx->end >= 3 && memcmp(lx->text, "\xef\xbb\xbf", 3) == 0)
		lx->cursor = 3;
}

static Pos lex_pos(const Lexer *lx, size_t offset)
{
	return (Pos){lx->line, (uint32_t)(offset - lx->line_start + 1)};
}

Pos lex_offset_pos(const SourceFile *src, size_t offset)
{
	uint32_t lo = 0, hi = src->nlines;
	if (src->nlines == 0)
		return (Pos){1, (uint32_t)offset + 1};
	/* the last line start <= offset */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (src->line_starts[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	return (Pos){lo + 1, (uint32_t)(offset - src->line_starts[lo] + 1)};
}

static locale_t c_locale;

bool lex_parse_double(const char *text, size_t len, double *out)
{
	char small[64];
	char *buf = len < sizeof small ? small : xmalloc(len + 1);
	char *end;
	locale_t old = (locale_t)0;
	bool ok;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (!c_locale)
		c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (c_locale)
		old = uselocale(c_locale);
	errno = 0;
	*out = strtod(buf, &end);
	if (c_locale)
		uselocale(old);
	ok = len > 0 && end == buf + len;
	if (buf != small)
		free(buf);
	return ok;
}

/* Notes the `span=` of the one-level block comment text[open, close)
 * (delimiters included), if it has one; `after` ends the token before it. */
static void note_span(Lexer *lx, size_t after, size_t open, size_t close)
{
	const char *t = lx->text;
	size_t body = open + 2, end = close - 2;
	for (size_t i = body; i + 5 <= end; i++) {
		if (t[i] != 's' || memcmp(t + i, "span=", 5) != 0 || (i > body && t[i - 1] != ' '))
			continue;
		i += 5;
		while (end > i && t[end - 1] == ' ')
			end--;
		if (end > i) {
			LexSpan note = {(uint32_t)after, (uint32_t)i, (uint32_t)(end - i)};
			LexSpans *s = lx->spans;
			if (s->count == s->cap)
				grow_array((void **)&s->items, &s->cap, s->count + 1,
					   sizeof *s->items);
			s->items[s->count++] = note;
		}
		return;
	}
}

/* Skips whitespace and comments. False after reporting an unterminated
 * comment, which leaves the cursor at the end of the input. */
static bool skip_trivia(Lexer *lx)
{
	const char *t = lx->text;
	size_t i = lx->cursor, end = lx->end, after = lx->cursor;
	while (i < end) {
		char c = t[i];
		if (c == '\n') {
			i++;
			lx->line++;
			lx->line_start = i;
		} else if (is_space(c)) {
			i++;
		} else if (c == '/' && i + 1 < end && t[i + 1] == '/') {
			while (i < end && t[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < end && t[i + 1] == '*') {
			Pos open = lex_pos(lx, i);
			size_t depth = 1, max_depth = 1, open_offset = i;
			i += 2;
			while (i < end && depth) {
				if (t[i] == '\n') {
					i++;
					lx->line++;
					lx->line_start = i;
				} else if (t[i] == '/' && i + 1 < end && t[i + 1] == '*') {
					depth++;
					if (depth > max_depth)
						max_depth = depth;
					i += 2;
				} else if (t[i] == '*' && i + 1 < end && t[i + 1] == '/') {
					depth--;
					i += 2;
				} else {
					i++;
				}
			}
			if (depth) {
				if (max_depth > 1)
					diag_error(lx->diags, lx->src, open,
						   "unterminated comment (comments nest: each '/*' "
						   "needs its own '*/')");
				else
					diag_error(lx->diags, lx->src, open,
						   "unterminated comment");
				lx->cursor = end;
				lx->hit_eof_error = true;
				return false;
			}
			if (lx->spans && max_depth == 1)
				note_span(lx, after, open_offset, i);
		} else {
			break;
		}
	}
	lx->cursor = i;
	return true;
}

/* Can byte i start a token? (Used to find the end of a run of bad bytes.) */
static bool starts_token(const Lexer *lx, size_t i)
{
	const char *t = lx->text;
	char c = t[i];
	char next = i + 1 < lx->end ? t[i + 1] : '\0';
	if (is_ident_char(c) || is_space(c))
		return true;
	switch (c) {
	case '%':
	case '@':
	case '"':
	case '\'':
	case '(':
	case ')':
	case '[':
	case ']':
	case '{':
	case '}':
	case ',':
	case ';':
	case ':':
	case '=':
	case '.':
	case '?':
	case '-':
	case '+':
	case '*':
	case '/':
	case '<':
	case '>':
		return true;
	case '!':
		return next == '=';
	case '#':
		return next == '[';
	default:
		return false;
	}
}

static void set_token(Lexer *lx, Token *out, TokenKind kind, size_t start, size_t end)
{
	out->kind = kind;
	out->pos = lex_pos(lx, start);
	out->offset = (uint32_t)start;
	out->len = (uint32_t)(end - start);
	out->text = lx->text + start;
	out->suffix = NUM_NONE;
	out->num.i = 0;
	lx->cursor = end;
	lx->prev = kind;
}

static void lex_error(Lexer *lx, Token *out, size_t start, size_t end, const char *fmt, ...)
	DP_PRINTF(5, 6);

static void lex_error(Lexer *lx, Token *out, size_t start, size_t end, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(lx->diags, DIAG_ERROR, lx->src, lex_pos(lx, start), fmt, ap);
	va_end(ap);
	set_token(lx, out, TK_ERROR, start, end);
}

static bool parse_suffix(const char *s, size_t n, NumSuffix *out)
{
	static const struct {
		const char *text;
		NumSuffix suffix;
	} suffixes[] = {
		{"", NUM_NONE},   {"f", NUM_F32},   {"f32", NUM_F32},
		{"f16", NUM_F16}, {"f64", NUM_F64}, {"i", NUM_I32},
		{"i16", NUM_I16}, {"i32", NUM_I32}, {"i64", NUM_I64},
	};
	for (size_t i = 0; i < DP_COUNT(suffixes); i++) {
		if (strlen(suffixes[i].text) == n && memcmp(suffixes[i].text, s, n) == 0) {
			*out = suffixes[i].suffix;
			return true;
		}
	}
	return false;
}

/* Does `inff` (TVM's float32 infinity) start at i, as a word of its own? */
static bool at_infinity(const Lexer *lx, size_t i)
{
	return lx->end - i >= 4 && memcmp(lx->text + i, "inff", 4) == 0 &&
	       (i + 4 == lx->end || !is_ident_char(lx->text[i + 4]));
}

/* number := '-'* (digits ('.' digits)? ([eE] [+-]? digits)? suffix? | 'inff')
 * The minus signs' parity is the sign, as in TVM's tokenizer. */
static void lex_number(Lexer *lx, Token *out, size_t start)
{
	const char *t = lx->text;
	size_t i = start, end = lx->end, num_end, sfx_start, digits;
	bool neg = false, is_float = false;
	NumSuffix suffix;
	while (i < end && t[i] == '-') {
		neg = !neg;
		i++;
	}
	digits = i;
	if (at_infinity(lx, i)) {
		set_token(lx, out, TK_FLOAT, start, i + 4);
		out->num.f = neg ? -INFINITY : INFINITY;
		out->suffix = NUM_F32;
		return;
	}
	while (i < end && is_digit(t[i]))
		i++;
	if (lx->prev != TK_DOT) {
		if (i + 1 < end && t[i] == '.' && is_digit(t[i + 1])) {
			is_float = true;
			i++;
			while (i < end && is_digit(t[i]))
				i++;
		}
		if (i < end && (t[i] == 'e' || t[i] == 'E')) {
			size_t j = i + 1;
			if (j < end && (t[j] == '+' || t[j] == '-'))
				j++;
			if (j < end && is_digit(t[j])) {
				is_float = true;
				i = j;
				while (i < end && is_digit(t[i]))
					i++;
			}
		}
	}
	num_end = i;
	sfx_start = i;
	if (lx->prev != TK_DOT)
		while (i < end && is_ident_char(t[i]))
			i++;
	if (!parse_suffix(t + sfx_start, i - sfx_start, &suffix)) {
		lex_error(lx, out, start, i, "invalid suffix '%.*s' on number '%.*s'",
			  (int)(i - sfx_start > 32 ? 32 : i - sfx_start), t + sfx_start,
			  (int)(num_end - start > 32 ? 32 : num_end - start), t + start);
		return;
	}
	if (is_float && (suffix == NUM_I16 || suffix == NUM_I32 || suffix == NUM_I64)) {
		lex_error(lx, out, start, i,
			  "integer suffix '%.*s' on the floating-point number '%.*s'",
			  (int)(i - sfx_start), t + sfx_start,
			  (int)(num_end - start > 32 ? 32 : num_end - start), t + start);
		return;
	}
	if (is_float || suffix == NUM_F16 || suffix == NUM_F32 || suffix == NUM_F64) {
		double v;
		if (!lex_parse_double(t + digits, num_end - digits, &v) || isinf(v)) {
			lex_error(lx, out, start, i, "number '%.*s' is out of range",
				  (int)(num_end - start > 32 ? 32 : num_end - start), t + start);
			return;
		}
		set_token(lx, out, TK_FLOAT, start, i);
		out->num.f = neg ? -v : v;
		out->suffix = suffix;
		return;
	} else {
		uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		for (size_t k = digits; k < num_end; k++) {
			uint64_t d = (uint64_t)(t[k] - '0');
			if (acc > (limit - d) / 10) {
				lex_error(lx, out, start, i, "integer '%.*s' is out of range",
					  (int)(num_end - start > 32 ? 32 : num_end - start),
					  t + start);
				return;
			}
			acc = acc * 10 + d;
		}
		set_token(lx, out, TK_INT, start, i);
		/* -(2^63) has no positive int64 counterpart: negate in unsigned */
		out->num.i = neg ? (int64_t)(0 - acc) : (int64_t)acc;
		out->suffix = suffix;
	}
}

/* string := '"' (char | '\' char)* '"' on one line */
/* A string in double quotes, or in single quotes as TVM prints a memory
 * scope in a VirtualDevice(...) literal (memory_scope='global.texture'). */
static void lex_string(Lexer *lx, Token *out, size_t start)
{
	const char *t = lx->text;
	char quote = t[start];
	size_t i = start + 1, end = lx->end;
	bool bad_byte = false;
	while (i < end && t[i] != quote && t[i] != '\n') {
		if ((unsigned char)t[i] < 0x20 && t[i] != '\t' && t[i] != '\r')
			bad_byte = true;
		if (t[i] == '\\' && i + 1 < end && t[i + 1] != '\n')
			i++;
		i++;
	}
	if (i >= end || t[i] != quote) {
		if (i >= end)
			lx->hit_eof_error = true;
		lex_error(lx, out, start, i, "unterminated string");
		return;
	}
	if (bad_byte) {
		lex_error(lx, out, start, i + 1, "control byte in string");
		return;
	}
	set_token(lx, out, TK_STRING, start, i + 1);
	out->text = t + start + 1;
	out->len = (uint32_t)(i - start - 1);
}

static TokenKind keyword_kind(const char *s, size_t n)
{
	switch (n) {
	case 2:
		if (memcmp(s, "fn", 2) == 0)
			return TK_FN;
		if (memcmp(s, "if", 2) == 0)
			return TK_IF;
		break;
	case 3:
		if (memcmp(s, "def", 3) == 0)
			return TK_DEF;
		if (memcmp(s, "let", 3) == 0)
			return TK_LET;
		break;
	case 4:
		if (memcmp(s, "else", 4) == 0)
			return TK_ELSE;
		break;
	case 8:
		if (memcmp(s, "free_var", 8) == 0)
			return TK_FREE_VAR;
		break;
	}
	return TK_IDENT;
}

/* name := ('%' | '@') ident-char+, TVM's names holding '/' (`%base/x`) */
static void lex_name(Lexer *lx, Token *out, size_t start)
{
	const char *t = lx->text;
	char c = t[start];
	size_t i = start + 1, end = lx->end;
	while (i < end && (is_ident_char(t[i]) || (t[i] == '/' && i > start + 1 && i + 1 < end &&
						   is_ident_char(t[i + 1]))))
		i++;
	if (i == start + 1) {
		lex_error(lx, out, start, i, "expected a name after '%c'", c);
		return;
	}
	set_token(lx, out, c == '%' ? TK_LOCAL : TK_GLOBAL, start, i);
}

/* punct := ( ) [ ] { } , ; : = => == + * / < <= > >= != . ? - -> #[
 * Sets the punctuation token that starts at start (c, followed by next) and
 * returns true; false when c starts none. */
static bool lex_punctuation(Lexer *lx, Token *out, size_t start, char c, char next)
{
	size_t i = start + 1;
	switch (c) {
	case '(':
		set_token(lx, out, TK_LPAREN, start, i);
		return true;
	case ')':
		set_token(lx, out, TK_RPAREN, start, i);
		return true;
	case '[':
		set_token(lx, out, TK_LBRACKET, start, i);
		return true;
	case ']':
		set_token(lx, out, TK_RBRACKET, start, i);
		return true;
	case '{':
		set_token(lx, out, TK_LBRACE, start, i);
		return true;
	case '}':
		set_token(lx, out, TK_RBRACE, start, i);
		return true;
	case ',':
		set_token(lx, out, TK_COMMA, start, i);
		return true;
	case ';':
		set_token(lx, out, TK_SEMI, start, i);
		return true;
	case ':':
		set_token(lx, out, TK_COLON, start, i);
		return true;
	case '=':
		if (next == '>') { /* a match clause's `=>` */
			set_token(lx, out, TK_FATARROW, start, i + 1);
			return true;
		}
		if (next == '=') {
			set_token(lx, out, TK_EQ_EQ, start, i + 1);
			return true;
		}
		set_token(lx, out, TK_EQUAL, start, i);
		return true;
	case '+':
		set_token(lx, out, TK_PLUS, start, i);
		return true;
	case '*':
		set_token(lx, out, TK_STAR, start, i);
		return true;
	case '/': /* comments were skipped: a division */
		set_token(lx, out, TK_SLASH, start, i);
		return true;
	case '<':
		if (next == '=') {
			set_token(lx, out, TK_LESS_EQ, start, i + 1);
			return true;
		}
		set_token(lx, out, TK_LESS, start, i);
		return true;
	case '>':
		if (next == '=') {
			set_token(lx, out, TK_GREATER_EQ, start, i + 1);
			return true;
		}
		set_token(lx, out, TK_GREATER, start, i);
		return true;
	case '!':
		if (next == '=') {
			set_token(lx, out, TK_NOT_EQ, start, i + 1);
			return true;
		}
		break;
	case '.':
		set_token(lx, out, TK_DOT, start, i);
		return true;
	case '?':
		set_token(lx, out, TK_QUESTION, start, i);
		return true;
	case '-':
		if (next == '>') {
			set_token(lx, out, TK_ARROW, start, i + 1);
			return true;
		}
		set_token(lx, out, TK_MINUS, start, i);
		return true;
	case '#':
		if (next == '[') {
			set_token(lx, out, TK_HASH, start, i + 1);
			return true;
		}
		break;
	default:
		break;
	}
	return false;
}

/* A run of bytes from start that cannot start a token: one error for all
 * of it. */
static void lex_unexpected(Lexer *lx, Token *out, size_t start)
{
	char c = lx->text[start];
	size_t i = start + 1;
	while (i < lx->end && !starts_token(lx, i))
		i++;
	if (c == '\0')
		lex_error(lx, out, start, i, "unexpected NUL byte");
	else if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
		lex_error(lx, out, start, i, "unexpected character '%c'", c);
	else
		lex_error(lx, out, start, i, "unexpected byte 0x%02x", (unsigned char)c);
}

void lex_next(Lexer *lx, Token *out)
{
	const char *t = lx->text;
	size_t start, i, end = lx->end;
	char c, next;
	if (!skip_trivia(lx)) {
		/* the error was reported; hand the parser one TK_ERROR */
		set_token(lx, out, TK_ERROR, end, end);
		return;
	}
	start = lx->cursor;
	if (start >= end) {
		set_token(lx, out, TK_EOF, end, end);
		return;
	}
	c = t[start];
	next = start + 1 < end ? t[start + 1] : '\0';
	i = start + 1;
	if (c == 'i' && at_infinity(lx, start)) {
		lex_number(lx, out, start);
		return;
	}
	if (is_ident_start(c)) {
		/* ident := name ('.' name)*, as in nn.conv2d */
		for (;;) {
			while (i < end && is_ident_char(t[i]))
				i++;
			if (i + 1 < end && t[i] == '.' && is_ident_start(t[i + 1]))
				i++;
			else
				break;
		}
		set_token(lx, out, keyword_kind(t + start, i - start), start, i);
		return;
	}
	if (c == '-') {
		/* a run of '-' before a number is its sign */
		size_t j = start;
		while (j < end && t[j] == '-')
			j++;
		if ((j < end && is_digit(t[j])) || at_infinity(lx, j)) {
			lex_number(lx, out, start);
			return;
		}
	}
	if (is_digit(c)) {
		lex_number(lx, out, start);
		return;
	}
	switch (c) {
	case '%':
	case '@':
		lex_name(lx, out, start);
		return;
	case '"':
	case '\'':
		lex_string(lx, out, start);
		return;
	default:
		break;
	}
	if (!lex_punctuation(lx, out, start, c, next))
		lex_unexpected(lx, out, start);
}

bool lex_skip_group(Lexer *lx, const char *what)
{
	enum { MAX_GROUP_DEPTH = 64 };
	const char *t = lx->text;
	char closers[MAX_GROUP_DEPTH];
	size_t i, end = lx->end, depth = 0;
	Pos open;
	if (!skip_trivia(lx))
		return false;
	i = lx->cursor;
	if (i >= end || t[i] != '(') {
		Token tok;
		StrBuf sb;
		lex_next(lx, &tok);
		if (tok.kind == TK_ERROR)
			return false;
		strbuf_init(&sb);
		lex_describe(&sb, &tok);
		diag_error(lx->diags, lx->src, tok.pos, "expected '(' after '%s', found %s", what,
			   sb.data);
		strbuf_free(&sb);
		return false;
	}
	open = lex_pos(lx, i);
	while (i < end) {
		char c = t[i];
		if (c == '\n') {
			i++;
			lx->line++;
			lx->line_start = i;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (depth == MAX_GROUP_DEPTH) {
				diag_error(lx->diags, lx->src, lex_pos(lx, i),
					   "'%s(...)' is nested too deeply", what);
				lx->cursor = i;
				return false;
			}
			closers[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
		} else if (c == ')' || c == ']' || c == '}') {
			if (c != closers[depth - 1]) {
				diag_error(lx->diags, lx->src, lex_pos(lx, i),
					   "expected '%c' in '%s(...)', found '%c'",
					   closers[depth - 1], what, c);
				lx->cursor = i;
				return false;
			}
			if (--depth == 0) {
				lx->cursor = i + 1;
				lx->prev = TK_RPAREN;
				return true;
			}
		} else if (c == '"' || c == '\'') {
			i++;
			while (i < end && t[i] != c) {
				if (t[i] == '\\' && i + 1 < end && t[i + 1] != '\n')
					i++;
				else if (t[i] == '\n') {
					lx->line++;
					lx->line_start = i + 1;
				}
				i++;
			}
			if (i >= end)
				break;
		}
		i++;
	}
	diag_error(lx->diags, lx->src, open, "unterminated '%s(': expected ')' to close it", what);
	lx->cursor = end;
	lx->hit_eof_error = true;
	return false;
}

void lex_describe(StrBuf *out, const Token *tok)
{
	size_t n = tok->len > 40 ? 40 : tok->len;
	if (tok->kind == TK_EOF) {
		strbuf_puts(out, "end of input");
		return;
	}
	strbuf_putc(out, '\'');
	if (tok->kind == TK_STRING)
		strbuf_putc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)tok->text[i];
		strbuf_putc(out, c < 0x20 || c >= 0x7f ? '?' : (char)c);
	}
	if (n < tok->len)
		strbuf_puts(out, "...");
	if (tok->kind == TK_STRING)
		strbuf_putc(out, '"');
	strbuf_putc(out, '\'');
}

void lex_string_value(StrBuf *out, const Token *tok)
{
	DP_ASSERT(tok->kind == TK_STRING);
	for (uint32_t i = 0; i < tok->len; i++) {
		char c = tok->text[i];
		if (c == '\\' && i + 1 < tok->len) {
			c = tok->text[++i];
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			default:
				break;
			}
		}
		strbuf_putc(out, c);
	}
}

bool lex_is_ident(const Token *tok, const char *word)
{
	/* the first byte rules out most candidates before strlen */
	return tok->kind == TK_IDENT && tok->text[0] == word[0] && tok->len == strlen(word) &&
	       memcmp(tok->text, word, tok->len) == 0;
}
