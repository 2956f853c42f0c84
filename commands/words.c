/*
 * words.c - how a command line splits into words, and how a word is written
 * back so that it splits again into itself.
 *
 * One grammar, in both directions. Reading (commands_split): blanks
 * separate words; "double quotes" group, and inside them a backslash
 * starts an escape, \" \\ \n \t \r or \xNN (two hex digits, not 00), as
 * in sh's $'...' and gdb; outside quotes a backslash keeps the next
 * quote, backslash or blank as it is (any other stays a backslash); `#`
 * at the start of a word begins a comment. A raw control character (a
 * byte below 0x20 but tab and the blanks, or 0x7f), a control character
 * other than tab inside quotes, an unknown escape inside quotes and an
 * unterminated quote are errors that say the column.
 *
 * Writing (commands_put_word) uses only what reading accepts: a word
 * that needs it is put in double quotes with every control character,
 * quote and backslash escaped, and a byte that is not part of valid UTF-8
 * written \xNN, so that a recording is one line per command, readable,
 * and reads back as the same words. That is what keeps a recorded file
 * name holding a newline from becoming a second command on replay
 * (commands_script_line, commands_recorded_line).
 */
#include "words.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void commands_free_words(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* A control character as messages name it: \n, \t, \r or \xNN. */
static char *control_name(unsigned char c)
{
	return c == '\n'   ? xstrdup("\\n")
	       : c == '\t' ? xstrdup("\\t")
	       : c == '\r' ? xstrdup("\\r")
			   : xasprintf("\\x%02x", c);
}

static char *control_error(unsigned char c, size_t column, bool quoted)
{
	char *name = control_name(c);
	char *err = xasprintf("control character %s %sat column %zu; write it %s inside double "
			      "quotes",
			      name, quoted ? "inside quotes " : "", column, name);
	free(name);
	return err;
}

/* Reads the escape at p (just after a backslash inside quotes) into word;
 * the bytes it took, or 0 with *err set. */
static size_t read_escape(const char *p, StrBuf *word, size_t column, char **err)
{
	int hi, lo;
	switch (*p) {
	case '"':
	case '\\':
		strbuf_putc(word, *p);
		return 1;
	case 'n':
		strbuf_putc(word, '\n');
		return 1;
	case 't':
		strbuf_putc(word, '\t');
		return 1;
	case 'r':
		strbuf_putc(word, '\r');
		return 1;
	case 'x':
		hi = hex_value(p[1]);
		lo = hi < 0 ? -1 : hex_value(p[2]);
		if (lo < 0) {
			*err = xasprintf("'\\x' at column %zu needs two hex digits", column);
			return 0;
		}
		if (hi == 0 && lo == 0) {
			*err = xasprintf("'\\x00' at column %zu: a word cannot hold a NUL byte",
					 column);
			return 0;
		}
		strbuf_putc(word, (char)(hi * 16 + lo));
		return 3;
	case '\0':
		return 0; /* the caller reports the unterminated quote */
	default:
		if (is_control((unsigned char)*p))
			*err = control_error((unsigned char)*p, column + 1, true);
		else
			*err = xasprintf(
				"unknown escape '\\%c' at column %zu (inside double quotes: "
				"\\\" \\\\ \\n \\t \\r \\xNN)",
				*p, column);
		return 0;
	}
}

/* Reads the quoted part of a word at p (just after its opening quote,
 * which is at column open) into word: what follows its closing quote, or
 * NULL with *err set. */
static const char *read_quoted(const char *line, const char *p, StrBuf *word, size_t open,
			       char **err)
{
	while (*p != '"') {
		size_t column = (size_t)(p - line) + 1;
		if (!*p) {
			*err = xasprintf("unterminated quote at column %zu", open);
			return NULL;
		}
		if (*p == '\\') {
			size_t n = read_escape(p + 1, word, column, err);
			if (*err)
				return NULL;
			if (n == 0) {
				*err = xasprintf("unterminated quote at column %zu", open);
				return NULL;
			}
			p += 1 + n;
		} else if (is_control((unsigned char)*p) && *p != '\t') {
			*err = control_error((unsigned char)*p, column, true);
			return NULL;
		} else {
			strbuf_putc(word, *p++);
		}
	}
	return p + 1;
}

/* Reads the word at p (not blank, not a comment) into word: what follows
 * it, or NULL with *err set. */
static const char *read_word(const char *line, const char *p, StrBuf *word, char **err)
{
	while (*p && !is_blank(*p)) {
		if (*p == '"') {
			p = read_quoted(line, p + 1, word, (size_t)(p - line) + 1, err);
			if (!p)
				return NULL;
		} else if (*p == '\\' &&
			   (p[1] == '"' || p[1] == '\\' || p[1] == ' ' || p[1] == '\t')) {
			strbuf_putc(word, p[1]);
			p += 2;
		} else if (is_control((unsigned char)*p)) {
			*err = control_error((unsigned char)*p, (size_t)(p - line) + 1, false);
			return NULL;
		} else {
			strbuf_putc(word, *p++);
		}
	}
	return p;
}

bool commands_split(const char *line, int *argc, char ***argv, char **err)
{
	char **words = NULL;
	size_t n = 0, cap = 0;
	const char *p = line;
	StrBuf word;
	strbuf_init(&word);
	*err = NULL;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p || *p == '#')
			break;
		strbuf_reset(&word);
		p = read_word(line, p, &word, err);
		if (!p) {
			strbuf_free(&word);
			commands_free_words((int)n, words);
			*argc = 0;
			*argv = NULL;
			return false;
		}
		grow_array((void **)&words, &cap, n + 2, sizeof(char *));
		words[n++] = xstrndup(word.data ? word.data : "", word.len);
	}
	strbuf_free(&word);
	if (words)
		words[n] = NULL;
	*argc = (int)n;
	*argv = words;
	return true;
}

/* The length of the valid UTF-8 sequence of two or more bytes at p, or 0
 * (overlong forms, surrogates and code points past U+10FFFF are not). */
static size_t utf8_sequence(const unsigned char *p)
{
	size_t n;
	unsigned cp;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07u;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Whether word must be quoted to read back as itself. */
static bool needs_quotes(const char *word)
{
	const unsigned char *p = (const unsigned char *)word;
	if (!*p || *p == '#')
		return true;
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_sequence(p) : 1;
		if (n == 0 || is_control(*p) || *p == ' ' || *p == '"' || *p == '\\')
			return true;
		p += n;
	}
	return false;
}

void commands_put_word(StrBuf *sb, const char *word)
{
	const unsigned char *p = (const unsigned char *)word;
	if (!needs_quotes(word)) {
		strbuf_puts(sb, word);
		return;
	}
	strbuf_putc(sb, '"');
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_sequence(p) : 1;
		if (*p == '"' || *p == '\\') {
			strbuf_putc(sb, '\\');
			strbuf_putc(sb, (char)*p);
		} else if (*p == '\n' || *p == '\t' || *p == '\r') {
			char *name = control_name(*p);
			strbuf_puts(sb, name);
			free(name);
		} else if (n == 0 || is_control(*p)) {
			strbuf_printf(sb, "\\x%02x", *p);
			n = 1;
		} else {
			strbuf_append(sb, (const char *)p, n);
		}
		p += n;
	}
	strbuf_putc(sb, '"');
}

/* Whether line holds a byte a script line cannot: a control character
 * other than tab (a newline or a carriage return would end the line). */
static bool has_control(const char *line)
{
	for (const unsigned char *p = (const unsigned char *)line; *p; p++)
		if (is_control(*p) && *p != '\t')
			return true;
	return false;
}

char *commands_join_words(int argc, char **argv)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (int i = 0; i < argc; i++) {
		if (i)
			strbuf_putc(&sb, ' ');
		commands_put_word(&sb, argv[i]);
	}
	return strbuf_detach(&sb);
}

char *commands_script_line(const char *line)
{
	int argc;
	char **argv, *err, *joined;
	if (!has_control(line))
		return xstrdup(line);
	if (!commands_split(line, &argc, &argv, &err)) {
		free(err);
		return NULL;
	}
	joined = commands_join_words(argc, argv);
	commands_free_words(argc, argv);
	return joined;
}

char *commands_recorded_line(const char *line, const char *mapped, bool failed)
{
	char *safe = mapped ? xstrdup(mapped) : commands_script_line(line), *text;
	if (safe) {
		text = xasprintf("%s%s\n", failed ? "-" : "", safe);
		free(safe);
		return text;
	}
	/* it did not split: a comment keeps it, escaped, and runs nothing */
	{
		StrBuf sb;
		strbuf_init(&sb);
		strbuf_puts(&sb, "# not replayed, it does not read back: ");
		for (const unsigned char *p = (const unsigned char *)line; *p; p++) {
			if (is_control(*p) && *p != '\t') {
				char *name = control_name(*p);
				strbuf_puts(&sb, name);
				free(name);
			} else {
				strbuf_putc(&sb, (char)*p);
			}
		}
		strbuf_putc(&sb, '\n');
		return strbuf_detach(&sb);
	}
}
