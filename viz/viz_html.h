/*
 * viz_html.h - the page `render --html` writes: one self-contained HTML
 * file holding the graph's SVG, a JSON record per drawn node and a small
 * script (pan, zoom, search, a side panel, toggles), with nothing fetched
 * from the network.
 *
 * The page's HTML and script live in viz/html/ (view.html, view.js) and
 * are embedded into the library at build time (viz/html/embed.cmake), so
 * that they stay editable as HTML and JavaScript. viz/ knows nothing of
 * `why` or the planner: the records come from the caller (commands/),
 * which reads which nodes the SVG draws with viz_svg_node_ids.
 *
 * Ownership: everything passed in is borrowed for the call; a VizHtmlFile
 * is viz_html_finish's to free; the id array
 * viz_svg_node_ids returns and error strings are the caller's to free().
 */
#ifndef DEVPLAN_VIZ_HTML_H
#define DEVPLAN_VIZ_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A value's consumer, or a device_copy that reads it. */
typedef struct VizHtmlUse {
	uint32_t id;      /* the consumer's expression id (its node is n<id>) */
	const char *name; /* %y, or OP@LINE:COL */
	const char *from; /* a copy's source device, else NULL */
	const char *to;   /* a copy's destination device */
	int64_t bytes;    /* what a copy moves; -1 when unknown */
} VizHtmlUse;

/* One drawn value's record. Strings may be NULL where unknown. */
typedef struct VizHtmlNode {
	uint32_t id;            /* the SVG node titled n<id> (and its reference nodes) */
	const char *name;       /* %x, or OP@LINE:COL */
	const char *op;         /* the op, or the kind: parameter, constant, call @f, ... */
	const char *type;       /* Tensor[(5, 7), float32] */
	const char *device;     /* cpu:0; NULL before planning */
	const char *why;        /* what `why` prints for it */
	bool parameter;         /* a parameter, free variable or constant */
	const VizHtmlUse *uses; /* its consumers, device_copy ones with from/to */
	size_t nuses;
} VizHtmlNode;

/* The page. */
typedef struct VizHtmlPage {
	const char *title; /* the graph's title */
	const char *svg;   /* Graphviz's SVG (viz_render_to_memory) */
	size_t svg_len;
	const VizHtmlNode *nodes;
	size_t nnodes;
} VizHtmlPage;

/* The expression ids of the values the SVG draws: every node titled
 * n<id>, or n<id>_<k> (a reference node for a use of n<id>), in ascending
 * order, once each. Returns how many; *ids is NULL when none. */
size_t viz_svg_node_ids(const char *svg, size_t len, uint32_t **ids);

/* Writes the page with file_write.h's writer (a temporary file beside path
 * renamed over it), so that path is never left half-written; false with
 * *err set and path untouched when it cannot (a destination file_begin
 * refuses, a failed write). */
bool viz_html_write(const VizHtmlPage *page, const char *path, char **err);

/* viz_html_write in two steps, so that a caller can make the temporary file
 * before the work of rendering and fail early: viz_html_begin makes it
 * (NULL with *err set when it cannot, path untouched); viz_html_finish
 * writes page into it and renames it over path, or with page NULL removes
 * it; either way it frees f. */
typedef struct VizHtmlFile VizHtmlFile;
VizHtmlFile *viz_html_begin(const char *path, char **err);
bool viz_html_finish(VizHtmlFile *f, const VizHtmlPage *page, char **err);

/* The page as a string (the caller frees it): what viz_html_write writes. */
char *viz_html_page(const VizHtmlPage *page, size_t *len);

#endif
