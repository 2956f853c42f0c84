/*
 * test_viz_html.c - the page `render --html` writes (viz/viz_html.c,
 * commands/cmd_render_html.c).
 *
 * The page is read back as text: one document, the SVG inline, a JSON
 * record (parsed with json-c) for every node the SVG draws, each holding
 * what `why` prints for the value, its uses and the copies that read it;
 * names and why text that hold `</script>` cannot end the script
 * elements early; a render that fails leaves an existing file untouched
 * and no temporary file behind. tests/browser-test opens the page in
 * Chromium.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <json-c/json.h>

#include "dispatch.h"
#include "session.h"
#include "viz_html.h"

#define SHARED_INPUT DEVPLAN_SOURCE_DIR "/tests/golden/dot/shared_input.relay"
#define DATA_OPEN "<script type=\"application/json\" id=\"devplan-data\">"

/* ---- helpers ---- */

static Session *planned_shared_input(void)
{
	Session *s = xcalloc(1, sizeof *s);
	session_init(s);
	if (!session_load(s, SHARED_INPUT)) {
		diag_print_all(stderr, &s->diags);
		fail();
	}
	assert_true(session_step(s, 4));
	return s;
}

static void release(Session *s)
{
	session_free(s);
	free(s);
}

static int run_command(Session *s, const char *line, char **out, char **err)
{
	CmdContext ctx;
	size_t lo, le;
	int status;
	FILE *o = open_memstream(out, &lo), *e = open_memstream(err, &le);
	cmd_context_init(&ctx, s, o, e);
	status = commands_execute_line(&ctx, line);
	cmd_context_free(&ctx);
	fclose(o);
	fclose(e);
	return status;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	StrBuf sb;
	char buf[4096];
	size_t n;
	if (!f)
		return NULL;
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_append(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb);
}

static char *temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/test_viz_html.XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(dir));
	return dir;
}

/* How many entries dir holds besides . and .. */
static int count_entries(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, NULL), count = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
			count++;
		free(names[i]);
	}
	free(names);
	return count;
}

static void remove_dir(char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, NULL);
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]->d_name);
		if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
			unlink(path);
		free(path);
		free(names[i]);
	}
	free(names);
	rmdir(dir);
	free(dir);
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The page's JSON block, parsed (the caller puts it). */
static json_object *page_data(const char *page)
{
	const char *start = strstr(page, DATA_OPEN), *end;
	char *text;
	json_object *o;
	assert_non_null(start);
	start += strlen(DATA_OPEN);
	end = strstr(start, "</script>");
	assert_non_null(end);
	text = xstrndup(start, (size_t)(end - start));
	o = json_tokener_parse(text);
	free(text);
	assert_non_null(o);
	return o;
}

static const char *string_of(json_object *o, const char *key)
{
	json_object *v;
	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

/* ---- tests ---- */

/* One document with the SVG inline and a record for every drawn node,
 * each with why's text, its uses and the copies that read it. */
static void test_page_of_shared_input(void **state)
{
	Session *s = planned_shared_input();
	char *dir = temp_dir(), *line, *out, *err, *page, *why, *why_err;
	const char *svg;
	json_object *data, *nodes, *b, *copies, *uses, *copy;
	uint32_t *ids;
	size_t nids;
	(void)state;
	line = xasprintf("render --html %s/g.html --params", dir);
	assert_int_equal(run_command(s, line, &out, &err), 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "(html): 8 nodes, 8 edges, 2 copies, 1 conflicting use"));
	free(line);
	free(out);
	free(err);
	line = xasprintf("%s/g.html", dir);
	page = read_all(line);
	free(line);
	assert_non_null(page);
	assert_int_equal(count_entries(dir), 1); /* no temporary file left */

	/* one document, the SVG inside it without its XML prologue */
	assert_int_equal(strncmp(page, "<!DOCTYPE html>", 15), 0);
	assert_int_equal(count(page, "<html"), 1);
	assert_int_equal(count(page, "</html>"), 1);
	assert_int_equal(count(page, "<svg"), 1);
	assert_int_equal(count(page, "</svg>"), 1);
	assert_null(strstr(page, "<?xml"));
	assert_null(strstr(page, "@@"));
	assert_non_null(strstr(page, "<title>shared_input.relay after core</title>"));
	/* the script: the JSON block and view.js, nothing else, nothing fetched */
	assert_int_equal(count(page, "</script>"), 2);
	assert_null(strstr(page, "src="));
	assert_null(strstr(page, "<link"));

	/* a record for every node the SVG draws, and no other */
	svg = strstr(page, "<svg");
	nids = viz_svg_node_ids(svg, (size_t)(strstr(svg, "</svg>") - svg), &ids);
	assert_int_equal(nids, 8);
	data = page_data(page);
	assert_true(json_object_object_get_ex(data, "nodes", &nodes));
	assert_int_equal(json_object_object_length(nodes), 8);
	for (size_t i = 0; i < nids; i++) {
		char key[16];
		json_object *r;
		snprintf(key, sizeof key, "n%u", ids[i]);
		assert_true(json_object_object_get_ex(nodes, key, &r));
		assert_non_null(string_of(r, "name"));
		assert_non_null(string_of(r, "why"));
	}
	free(ids);

	/* %b: a parameter on cpu:0 with its why chain, two uses, one copy */
	assert_true(json_object_object_get_ex(nodes, "n1", &b));
	assert_string_equal(string_of(b, "name"), "%b");
	assert_string_equal(string_of(b, "op"), "parameter");
	assert_string_equal(string_of(b, "device"), "cpu:0");
	assert_string_equal(string_of(b, "type"), "Tensor[(5, 7), float32]");
	assert_int_equal(run_command(s, "why %b", &why, &why_err), 0);
	assert_string_equal(string_of(b, "why"), why);
	assert_non_null(strstr(why, "check: %b is needed on cpu:0 and cuda:0"));
	free(why);
	free(why_err);
	assert_true(json_object_object_get_ex(b, "uses", &uses));
	assert_int_equal(json_object_array_length(uses), 2);
	assert_string_equal(string_of(json_object_array_get_idx(uses, 0), "name"), "%0");
	assert_string_equal(string_of(json_object_array_get_idx(uses, 1), "name"), "%4");
	assert_true(json_object_object_get_ex(b, "copies", &copies));
	assert_int_equal(json_object_array_length(copies), 1);
	copy = json_object_array_get_idx(copies, 0);
	assert_string_equal(string_of(copy, "name"), "%4");
	assert_string_equal(string_of(copy, "from"), "cpu:0");
	assert_string_equal(string_of(copy, "to"), "cuda:0");
	assert_string_equal(string_of(copy, "bytes"), "140");
	json_object_put(data);
	free(page);

	/* the picture's options still apply: --focus draws fewer nodes */
	line = xasprintf("render --html %s/g.html --focus %%b --depth 1", dir);
	assert_int_equal(run_command(s, line, &out, &err), 0);
	assert_non_null(strstr(out, "(html): 3 nodes"));
	free(line);
	free(out);
	free(err);
	line = xasprintf("%s/g.html", dir);
	page = read_all(line);
	free(line);
	data = page_data(page);
	assert_true(json_object_object_get_ex(data, "nodes", &nodes));
	assert_int_equal(json_object_object_length(nodes), 3);
	json_object_put(data);
	free(page);
	remove_dir(dir);
	release(s);
}

/* A name, a why chain or a title holding `</script>` or `<!--` cannot end
 * or disturb the script elements; JSON.parse (json-c here) reads the
 * strings back unchanged. */
static void test_escapes_script_end(void **state)
{
	static const char *const name = "%x</script><script>alert(1)</script>";
	static const char *const why = "why </SCRIPT> <!-- & \"quoted\" \\ \n";
	VizHtmlUse use = {
		.id = 3, .name = "</script>", .from = "cpu:0", .to = "cuda:0", .bytes = 4};
	VizHtmlNode node = {
		.id = 2, .name = name, .op = "add", .why = why, .uses = &use, .nuses = 1};
	VizHtmlPage p = {.title = "</title><script>x</script>",
			 .svg = "<?xml version=\"1.0\"?>\n<svg><g id=\"node1\" class=\"node\">"
				"<title>n2</title></g></svg>\n",
			 .nodes = &node,
			 .nnodes = 1};
	json_object *data, *nodes, *r;
	size_t len;
	char *page;
	(void)state;
	p.svg_len = strlen(p.svg);
	page = viz_html_page(&p, &len);
	assert_int_equal(strlen(page), len);
	assert_int_equal(count(page, "</script>"), 2);
	assert_null(strstr(page, "</SCRIPT>"));
	assert_int_equal(count(page, "<script"), 2);
	assert_non_null(
		strstr(page, "<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>"));
	assert_null(strstr(page, "<?xml"));
	data = page_data(page);
	assert_true(json_object_object_get_ex(data, "nodes", &nodes));
	assert_true(json_object_object_get_ex(nodes, "n2", &r));
	assert_string_equal(string_of(r, "name"), name);
	assert_string_equal(string_of(r, "why"), why);
	assert_string_equal(string_of(data, "title"), p.title);
	json_object_put(data);
	free(page);
}

/* A failing render leaves an existing file as it was, and nothing else. */
static void test_failure_leaves_file(void **state)
{
	Session *s = planned_shared_input();
	char *dir = temp_dir(), *path, *line, *out, *err, *text;
	FILE *f;
	(void)state;
	path = xasprintf("%s/g.html", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old page\n", f);
	fclose(f);

	line = xasprintf("render --html %s --focus %%nosuch", path);
	assert_int_equal(run_command(s, line, &out, &err), 1);
	assert_non_null(strstr(err, "error: "));
	free(line);
	free(out);
	free(err);
	text = read_all(path);
	assert_string_equal(text, "old page\n");
	free(text);
	assert_int_equal(count_entries(dir), 1);

	/* a directory, and a name that is not a page */
	line = xasprintf("render --html %s/sub.html", dir);
	free(path);
	path = xasprintf("%s/sub.html", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(run_command(s, line, &out, &err), 1);
	assert_non_null(strstr(err, "it is a directory"));
	free(line);
	free(out);
	free(err);
	rmdir(path);
	assert_int_equal(run_command(s, "render --html g.png", &out, &err), 1);
	assert_string_equal(
		err, "error: '--html' writes an HTML page; name a .html file, not 'g.png'\n");
	free(out);
	free(err);
	assert_int_equal(count_entries(dir), 1);
	free(path);
	remove_dir(dir);
	release(s);
}

/* The node titles: n<id> and reference nodes n<id>_<k>, once each, in
 * order; the legend and clusters are not values. */
static void test_svg_node_ids(void **state)
{
	static const char svg[] =
		"<g id=\"clust1\" class=\"cluster\"><title>cluster_g0</title></g>"
		"<g id=\"node1\" class=\"node\"><title>legend_d0</title></g>"
		"<g id=\"node2\" class=\"node\">\n<title>n10</title></g>"
		"<g id=\"node3\" class=\"node\">\n<title>n3_7</title></g>"
		"<g id=\"node4\" class=\"node\">\n<title>n3</title></g>"
		"<g id=\"node5\" class=\"node\">\n<title>n3x</title></g>"
		"<g id=\"edge1\" class=\"edge\">\n<title>n4&#45;&gt;n3</title></g>";
	uint32_t *ids;
	size_t n;
	(void)state;
	n = viz_svg_node_ids(svg, sizeof svg - 1, &ids);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 3);
	assert_int_equal(ids[1], 10);
	free(ids);
	assert_int_equal(viz_svg_node_ids("<svg></svg>", 11, &ids), 0);
	assert_null(ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_of_shared_input),
		cmocka_unit_test(test_escapes_script_end),
		cmocka_unit_test(test_failure_leaves_file),
		cmocka_unit_test(test_svg_node_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
