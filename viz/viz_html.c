/*
 * viz_html.c - the page `render --html` writes (viz_html.h).
 *
 * The page is the template viz/html/view.html with four markers filled
 * in: @@TITLE@@ (the graph's title, HTML-escaped), @@SVG@@ (Graphviz's SVG
 * from its <svg> element on: the XML declaration and doctype have no place
 * inside HTML), @@DATA@@ (the records as JSON, inside a
 * <script type="application/json">) and @@SCRIPT@@ (viz/html/view.js).
 * Both assets come from viz_html_assets.h, which the build generates from
 * the files (viz/html/embed.cmake).
 *
 * The JSON is built with json-c, so strings are escaped as JSON requires;
 * then every `<`, `>` and `&` in it becomes a \u escape, which JSON.parse
 * reads back as the same character and which leaves no `</script>` or
 * `<!--` for the HTML parser to see, whatever a name or a why chain holds.
 *
 * The page is written with file_write.h's writer, as every file devplan
 * writes (temporary file in the target's directory, every write checked,
 * then rename; a symbolic link stays one).
 */
#include "viz_html.h"

#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "file_write.h"
#include "interrupt.h"
#include "util.h"
#include "viz_html_assets.h"

/* The first occurrence of needle in the n bytes at hay, or NULL (memmem,
 * which glibc declares only with _GNU_SOURCE). */
static const char *viz_find(const char *hay, size_t n, const char *needle, size_t len)
{
	for (size_t i = 0; len <= n && i <= n - len; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, len) == 0)
			return hay + i;
	return NULL;
}

/* ---- which nodes the SVG draws ---- */

static int viz_compare_ids(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The id of a node title `n<id>` or `n<id>_<k>`; false for anything else
 * (the legend, a cluster, another kind of node). */
static bool viz_title_id(const char *title, size_t len, uint32_t *id)
{
	size_t i = 1;
	uint64_t v = 0;
	if (len < 2 || title[0] != 'n')
		return false;
	for (; i < len && title[i] >= '0' && title[i] <= '9'; i++) {
		v = v * 10 + (uint64_t)(title[i] - '0');
		if (v > UINT32_MAX)
			return false;
	}
	if (i == 1)
		return false;
	if (i < len) {
		size_t k = i + 1;
		if (title[i] != '_' || k == len)
			return false;
		for (; k < len; k++)
			if (title[k] < '0' || title[k] > '9')
				return false;
	}
	*id = (uint32_t)v;
	return true;
}

size_t viz_svg_node_ids(const char *svg, size_t len, uint32_t **ids)
{
	static const char node_class[] = "class=\"node\"";
	const char *p = svg, *end = svg + len;
	uint32_t *out = NULL;
	size_t n = 0, cap = 0, kept = 0;
	/* each node is <g id=".." class="node">\n<title>NAME</title> */
	while ((p = viz_find(p, (size_t)(end - p), node_class, sizeof node_class - 1))) {
		const char *open, *close;
		uint32_t id;
		p += sizeof node_class - 1;
		open = viz_find(p, (size_t)(end - p), "<title>", 7);
		if (!open)
			break;
		open += 7;
		close = viz_find(open, (size_t)(end - open), "</title>", 8);
		if (!close)
			break;
		if (viz_title_id(open, (size_t)(close - open), &id)) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				out = xrealloc(out, cap * sizeof *out);
			}
			out[n++] = id;
		}
		p = close;
	}
	if (n) {
		qsort(out, n, sizeof *out, viz_compare_ids);
		for (size_t i = 0; i < n; i++)
			if (kept == 0 || out[kept - 1] != out[i])
				out[kept++] = out[i];
	}
	*ids = out;
	return kept;
}

/* ---- the page ---- */

static void viz_json_add_string(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, value ? json_object_new_string(value) : NULL);
}

static json_object *viz_json_node(const VizHtmlNode *n)
{
	json_object *o = json_object_new_object();
	json_object *uses = json_object_new_array();
	json_object *copies = json_object_new_array();
	char key[16];
	viz_json_add_string(o, "name", n->name);
	viz_json_add_string(o, "op", n->op);
	viz_json_add_string(o, "type", n->type);
	viz_json_add_string(o, "device", n->device);
	viz_json_add_string(o, "why", n->why);
	json_object_object_add(o, "parameter", json_object_new_boolean(n->parameter));
	for (size_t i = 0; i < n->nuses; i++) {
		const VizHtmlUse *u = &n->uses[i];
		json_object *use = json_object_new_object();
		snprintf(key, sizeof key, "n%u", u->id);
		viz_json_add_string(use, "node", key);
		viz_json_add_string(use, "name", u->name);
		if (u->from) {
			json_object *copy = json_object_new_object();
			viz_json_add_string(copy, "node", key);
			viz_json_add_string(copy, "name", u->name);
			viz_json_add_string(copy, "from", u->from);
			viz_json_add_string(copy, "to", u->to);
			json_object_object_add(copy, "bytes",
					       u->bytes >= 0 ? json_object_new_int64(u->bytes)
							     : NULL);
			json_object_array_add(copies, copy);
		}
		json_object_array_add(uses, use);
	}
	json_object_object_add(o, "uses", uses);
	json_object_object_add(o, "copies", copies);
	return o;
}

/* The records as JSON that is safe inside a <script> element. */
static void viz_json_data(StrBuf *out, const VizHtmlPage *page)
{
	json_object *root = json_object_new_object();
	json_object *nodes = json_object_new_object();
	const char *text;
	char key[16];
	viz_json_add_string(root, "title", page->title);
	for (size_t i = 0; i < page->nnodes; i++) {
		snprintf(key, sizeof key, "n%u", page->nodes[i].id);
		json_object_object_add(nodes, key, viz_json_node(&page->nodes[i]));
	}
	json_object_object_add(root, "nodes", nodes);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
							    JSON_C_TO_STRING_NOSLASHESCAPE);
	for (const char *p = text; *p; p++) {
		switch (*p) {
		case '<':
			strbuf_puts(out, "\\u003c");
			break;
		case '>':
			strbuf_puts(out, "\\u003e");
			break;
		case '&':
			strbuf_puts(out, "\\u0026");
			break;
		default:
			strbuf_putc(out, *p);
			break;
		}
	}
	json_object_put(root);
}

static void viz_html_escape(StrBuf *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		switch (*p) {
		case '<':
			strbuf_puts(out, "&lt;");
			break;
		case '>':
			strbuf_puts(out, "&gt;");
			break;
		case '&':
			strbuf_puts(out, "&amp;");
			break;
		case '"':
			strbuf_puts(out, "&quot;");
			break;
		default:
			strbuf_putc(out, *p);
			break;
		}
	}
}

/* Appends what marker (the text between @@ and @@) stands for; false for
 * an unknown marker, which is then copied as it is. */
static bool viz_fill_marker(StrBuf *out, const char *marker, size_t len, const VizHtmlPage *page)
{
	if (len == 5 && memcmp(marker, "TITLE", 5) == 0) {
		viz_html_escape(out, page->title);
	} else if (len == 3 && memcmp(marker, "SVG", 3) == 0) {
		const char *svg = page->svg ? page->svg : "";
		size_t n = page->svg ? page->svg_len : 0;
		const char *start = viz_find(svg, n, "<svg", 4);
		if (!start)
			start = svg;
		strbuf_append(out, start, n - (size_t)(start - svg));
	} else if (len == 4 && memcmp(marker, "DATA", 4) == 0) {
		viz_json_data(out, page);
	} else if (len == 6 && memcmp(marker, "SCRIPT", 6) == 0) {
		strbuf_append(out, (const char *)viz_html_view_js, sizeof viz_html_view_js - 1);
	} else {
		return false;
	}
	return true;
}

char *viz_html_page(const VizHtmlPage *page, size_t *len)
{
	const char *p = (const char *)viz_html_view_html;
	const char *end = p + sizeof viz_html_view_html - 1;
	StrBuf out;
	strbuf_init(&out);
	while (p < end) {
		const char *open = viz_find(p, (size_t)(end - p), "@@", 2), *close;
		if (!open) {
			strbuf_append(&out, p, (size_t)(end - p));
			break;
		}
		strbuf_append(&out, p, (size_t)(open - p));
		close = viz_find(open + 2, (size_t)(end - open - 2), "@@", 2);
		if (!close || !viz_fill_marker(&out, open + 2, (size_t)(close - open - 2), page)) {
			strbuf_append(&out, open, 2);
			p = open + 2;
			continue;
		}
		p = close + 2;
	}
	*len = out.len;
	return strbuf_detach(&out);
}

/* ---- the write, through file_write.h's writer ---- */

/* A page being written: the writer holding its temporary file. */
struct VizHtmlFile {
	FileWriter *file;
};

VizHtmlFile *viz_html_begin(const char *path, char **err)
{
	FileWriter *file = file_begin(path, err);
	VizHtmlFile *f;
	if (!file)
		return NULL;
	f = xcalloc(1, sizeof *f);
	f->file = file;
	return f;
}

bool viz_html_finish(VizHtmlFile *f, const VizHtmlPage *page, char **err)
{
	bool ok = page != NULL;
	*err = NULL;
	if (ok) {
		size_t len;
		char *text = viz_html_page(page, &len);
		if (interrupt_pending()) { /* Ctrl-C while it was made: no file */
			*err = xasprintf("interrupted: '%s' is left as it was", file_path(f->file));
			ok = false;
		} else {
			ok = file_write(f->file, text, len, err);
		}
		free(text);
	}
	if (ok)
		ok = file_commit(f->file, err);
	else
		file_abort(f->file);
	free(f);
	return ok;
}

bool viz_html_write(const VizHtmlPage *page, const char *path, char **err)
{
	VizHtmlFile *f = viz_html_begin(path, err);
	return f && viz_html_finish(f, page, err);
}
