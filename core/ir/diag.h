/*
 * diag.h - source files, positions and compiler-style diagnostics.
 *
 * A SourceFile holds a file's name and bytes and an index of line starts, so
 * that any Pos (1-based line and column) can be printed as
 * `file:line:col: error: message` followed by the source line and a caret
 * under the column, like gcc and chibicc. A DiagList collects diagnostics so
 * that the parser can report several before giving up; it owns its messages.
 * Library code reports through a DiagList and returns a status; only the
 * shell decides where diagnostics are printed.
 */
#ifndef DEVPLAN_DIAG_H
#define DEVPLAN_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* A position in a source file; line 0 means "no position". */
typedef struct Pos {
	uint32_t line; /* 1-based */
	uint32_t col;  /* 1-based, in bytes */
} Pos;

typedef struct SourceOrigin SourceOrigin;

/* A loaded source text. The holder frees it with source_free. */
typedef struct SourceFile {
	char *name;            /* as the user named it */
	char *text;            /* NUL-terminated copy of the bytes */
	size_t len;            /* bytes, excluding the terminating NUL */
	uint32_t *line_starts; /* offset of each line's first byte */
	uint32_t nlines;
	int refcount;         /* module versions share one source */
	SourceOrigin *origin; /* a text made from another: where its lines come from */
} SourceFile;

/* A call a made text's lines were inlined through (SourceOrigin). */
typedef struct SourceCall {
	Pos pos;         /* the call, in the origin's file */
	char *callee;    /* the called function's name (owned) */
	uint32_t parent; /* 1 + the index of the call this one sits in; 0: none */
} SourceCall;

/* Where each line of a text made from another comes from (a Relax module
 * lowered to Relay text, core/relax/relax_lower.c). A diagnostic added at
 * line L of such a text is reported at pos[L-1] of file instead, followed
 * by a note at each call the line was inlined through and, for an error
 * or warning, a note at L in the made text itself. A line whose pos has
 * line 0 keeps its own position. */
struct SourceOrigin {
	SourceFile *file; /* retained */
	Pos *pos;         /* by line - 1 */
	uint32_t *call;   /* by line - 1: 1 + index into calls; 0: none */
	uint32_t nlines;
	size_t pos_cap, call_cap;
	SourceCall *calls;
	uint32_t ncalls;
	size_t calls_cap;
};

/* Appends the origin of the next line of the made text. */
void source_origin_line(SourceOrigin *o, Pos pos, uint32_t call);
void source_origin_free(SourceOrigin *o);
/* src's diagnostics are reported through origin from now on; src takes
 * the origin over (*origin is emptied). */
void source_set_origin(SourceFile *src, SourceOrigin *origin);

/* Reads a file; on failure returns NULL and sets *err to a message the
 * caller frees. */
SourceFile *source_read(const char *path, char **err);
/* Wraps text that did not come from a file (tests, -c strings). */
SourceFile *source_from_string(const char *name, const char *text, size_t len);
SourceFile *source_retain(SourceFile *src);
void source_release(SourceFile *src);
/* The bytes of line `line` (without its newline) and their length. */
const char *source_line(const SourceFile *src, uint32_t line, size_t *len);

typedef enum DiagSeverity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagSeverity;

typedef struct Diag {
	DiagSeverity severity;
	const SourceFile *src; /* NULL for diagnostics without a source */
	Pos pos;
	char *message; /* owned */
} Diag;

typedef struct DiagList {
	Diag *items;
	size_t count;
	size_t cap;
	size_t errors;
} DiagList;

void diag_init(DiagList *list);
void diag_free(DiagList *list);
void diag_clear(DiagList *list);
void diag_add(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
	      const char *fmt, ...) DP_PRINTF(5, 6);
void diag_vadd(DiagList *list, DiagSeverity severity, const SourceFile *src, Pos pos,
	       const char *fmt, va_list ap);
#define diag_error(list, src, pos, ...) diag_add(list, DIAG_ERROR, src, pos, __VA_ARGS__)
#define diag_warning(list, src, pos, ...) diag_add(list, DIAG_WARNING, src, pos, __VA_ARGS__)
#define diag_note(list, src, pos, ...) diag_add(list, DIAG_NOTE, src, pos, __VA_ARGS__)

/* Appends one diagnostic as text: `file:line:col: error: msg`, then the
 * source line and a caret line when a position is known. */
void diag_format(StrBuf *out, const Diag *diag);
/* Prints every diagnostic of the list, in order. */
void diag_print_all(FILE *out, const DiagList *list);

#endif
