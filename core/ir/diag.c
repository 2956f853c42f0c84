/*
 * diag.c - source files and diagnostic formatting.
 *
 * Tabs in the source line are kept, and the caret line copies them, so the
 * caret sits under the column whatever the terminal's tab width. A line
 * longer than DIAG_LINE_MAX bytes (more than TVM's printer writes, even
 * with its type comments) is shown as a window of DIAG_WINDOW bytes around
 * the caret, with `...` where it was cut, so that an error on a 100 MB
 * line prints a line, not the file twice.
 */
#include "diag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_read.h"

static void source_index_lines(SourceFile *src)
{
	size_t cap = 0;
	src->line_starts = NULL;
	src->nlines = 0;
	grow_array((void **)&src->line_starts, &cap, 1, sizeof(uint32_t));
	src->line_starts[src->nlines++] = 0;
	for (size_t i = 0; i < src->len; i++) {
		if (src->text[i] == '\n' && i + 1 <= src->len) {
			grow_array((void **)&src->line_starts, &cap, src->nlines + 1,
				   sizeof(uint32_t));
			src->line_starts[src->nlines++] = (uint32_t)(i + 1);
		}
	}
}

SourceFile *source_from_string(const char *name, const char *text, size_t len)
{
	SourceFile *src = xcalloc(1, sizeof(SourceFile));
	src->name = xstrdup(name);
	src->text = xstrndup(text, len);
	src->len = len;
	src->refcount = 1;
	source_index_lines(src);
	return src;
}

SourceFile *source_read(const char *path, char **err)
{
	char *text;
	size_t len;
	SourceFile *src;
	if (!file_read_all(path, FILE_STREAM, &text, &len, err))
		return NULL;
	if (len > UINT32_MAX - 1) {
		*err = xasprintf("'%s' is too large (%zu bytes)", path, len);
		free(text);
		return NULL;
	}
	src = xcalloc(1, sizeof(SourceFile));
	src->name = xstrdup(path);
	src->len = len;
	src->text = text;
	src->refcount = 1;
	source_index_lines(src);
	return src;
}

SourceFile *source_retain(SourceFile *src)
{
	if (src)
		src->refcount++;
	return src;
}

void source_release(SourceFile *src)
{
	if (!src || --src->refcount > 0)
		return;
	free(src->name);
	free(src->text);
	free(src->line_starts);
	free(src);
}

const char *source_line(const SourceFile *src, uint32_t line, size_t *len)
{
	size_t start, end;
	if (line == 0 || line > src->nlines) {
		*len = 0;
		return "";
	}
	start = src->line_starts[line - 1];
	end = start;
	while (end < src->len && src->text[end] != '\n')
		end++;
	if (end > start && src->text[end - 1] == '\r')
		end--;
	*len = end - start;
	return src->text + start;
}

void diag_init(DiagList *list)
{
	memset(list, 0, sizeof *list);
}

void diag_clear(DiagList *list)
{
	for (size_t i = 0; i < list->count; i++)
		free(list->items[i].message);
	list->count = 0;
	list->errors = 0;
}

void diag_free(DiagList *list)
{
	diag_clear(list);
	free(list->items);
	diag_init(list);
}

void diag_vadd(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
	       const char *fmt, va_list ap)
{
	StrBuf sb;
	Diag *d;
	grow_array((void **)&list->items, &list->cap, list->count + 1, sizeof(Diag));
	d = &list->items[list->count++];
	strbuf_init(&sb);
	strbuf_vprintf(&sb, fmt, ap);
	d->severity = severity;
	d->src = src;
	d->pos = pos;
	d->message = strbuf_detach(&sb);
	if (severity == DIAG_ERROR)
		list->errors++;
}

void diag_add(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
	      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(list, severity, src, pos, fmt, ap);
	va_end(ap);
}

static const char *severity_name(DiagSeverity s)
{
	switch (s) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	case DIAG_NOTE:
		return "note";
	}
	return "error";
}

/* Appends bytes of a source line, replacing control bytes other than tab so
 * that a binary file cannot corrupt the terminal. */
static void append_printable(StrBuf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		strbuf_putc(out, (c < 32 && c != '\t') || c == 127 ? '?' : (char)c);
	}
}

enum { DIAG_LINE_MAX = 240, DIAG_WINDOW = 80 };

/* Whether byte c continues a UTF-8 character (a window never cuts one). */
static bool utf8_continuation(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

void diag_format(StrBuf *out, const Diag *d)
{
	if (d->src && d->pos.line)
		strbuf_printf(out, "%s:%u:%u: ", d->src->name, d->pos.line, d->pos.col);
	else if (d->src)
		strbuf_printf(out, "%s: ", d->src->name);
	strbuf_printf(out, "%s: %s\n", severity_name(d->severity), d->message);
	if (d->src && d->pos.line && d->pos.line <= d->src->nlines) {
		size_t len, from = 0, to, caret;
		const char *line = source_line(d->src, d->pos.line, &len);
		caret = d->pos.col > 0 && d->pos.col - 1 < len ? d->pos.col - 1 : len;
		to = len;
		if (len > DIAG_LINE_MAX) {
			from = caret > DIAG_WINDOW / 2 ? caret - DIAG_WINDOW / 2 : 0;
			if (from > len - DIAG_WINDOW)
				from = len - DIAG_WINDOW;
			to = from + DIAG_WINDOW;
			while (from > 0 && utf8_continuation(line[from]))
				from--;
			while (to < len && utf8_continuation(line[to]))
				to++;
		}
		strbuf_puts(out, from ? "  ..." : "  ");
		append_printable(out, line + from, to - from);
		strbuf_puts(out, to < len ? "...\n  " : "\n  ");
		if (from)
			strbuf_puts(out, "   ");
		for (size_t i = from; i < caret; i++)
			strbuf_putc(out, line[i] == '\t' ? '\t' : ' ');
		strbuf_puts(out, "^\n");
	}
}

void diag_print_all(FILE *out, const DiagList *list)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < list->count; i++)
		diag_format(&sb, &list->items[i]);
	if (sb.len)
		fwrite(sb.data, 1, sb.len, out);
	strbuf_free(&sb);
}
