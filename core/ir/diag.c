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
	if (src->origin) {
		source_origin_free(src->origin);
		free(src->origin);
	}
	free(src);
}

void source_origin_line(SourceOrigin *o, Pos pos, uint32_t call)
{
	grow_array((void **)&o->pos, &o->pos_cap, o->nlines + 1, sizeof *o->pos);
	grow_array((void **)&o->call, &o->call_cap, o->nlines + 1, sizeof *o->call);
	o->pos[o->nlines] = pos;
	o->call[o->nlines++] = call;
}

void source_origin_free(SourceOrigin *o)
{
	for (uint32_t i = 0; i < o->ncalls; i++)
		free(o->calls[i].callee);
	free(o->calls);
	free(o->pos);
	free(o->call);
	source_release(o->file);
	memset(o, 0, sizeof *o);
}

void source_set_origin(SourceFile *src, SourceOrigin *origin)
{
	if (src->origin) {
		source_origin_free(src->origin);
		free(src->origin);
	}
	src->origin = xmalloc(sizeof *src->origin);
	*src->origin = *origin;
	memset(origin, 0, sizeof *origin);
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

static void diag_push(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
		      char *message)
{
	Diag *d;
	grow_array((void **)&list->items, &list->cap, list->count + 1, sizeof(Diag));
	d = &list->items[list->count++];
	d->severity = severity;
	d->src = src;
	d->pos = pos;
	d->message = message;
	if (severity == DIAG_ERROR)
		list->errors++;
}

/* A diagnostic on a made text, at its origin (SourceOrigin). */
static void diag_push_origin(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
			     char *message)
{
	const SourceOrigin *o = src->origin;
	diag_push(list, severity, o->file, o->pos[pos.line - 1], message);
	for (uint32_t c = o->call[pos.line - 1]; c && c <= o->ncalls; c = o->calls[c - 1].parent)
		diag_push(list, DIAG_NOTE, o->file, o->calls[c - 1].pos,
			  xasprintf("in @%s, called here", o->calls[c - 1].callee));
	/* the made text's line quoted: the text itself may be freed before
	 * the list is printed */
	if (severity != DIAG_NOTE) {
		size_t len, from = 0;
		const char *line = source_line(src, pos.line, &len);
		while (from < len && (line[from] == ' ' || line[from] == '\t'))
			from++;
		diag_push(list, DIAG_NOTE, NULL, (Pos){0, 0},
			  xasprintf("%s, line %u: %.*s", src->name, pos.line,
				    (int)(len - from > 160 ? 160 : len - from), line + from));
	}
}

void diag_vadd(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
	       const char *fmt, va_list ap)
{
	StrBuf sb;
	strbuf_init(&sb);
	strbuf_vprintf(&sb, fmt, ap);
	if (src && src->origin && pos.line >= 1 && pos.line <= src->origin->nlines &&
	    src->origin->pos[pos.line - 1].line)
		diag_push_origin(list, severity, src, pos, strbuf_detach(&sb));
	else
		diag_push(list, severity, src, pos, strbuf_detach(&sb));
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
