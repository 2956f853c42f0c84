/*
 * test_viz.c - the Graphviz drawing (viz/) and the `render` command.
 *
 * The graphs are planned through the session API, as the shell does, and
 * inspected through cgraph itself (this is viz's own test, so it reads the
 * Agraph_t that viz_build_graph returns; nothing else outside viz/ includes
 * Graphviz): node and edge counts, fill colour per device, copy nodes,
 * clusters, the red conflict edge. Golden files in tests/golden/dot hold
 * the exact .dot of the shared cases before and after planning (NAME.relay
 * in, NAME.PHASE.dot out); UPDATE=1 in the environment rewrites them. The
 * image formats are checked by their magic bytes, the writes for leaving no
 * temporary file behind and an existing file untouched on failure.
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

#include <graphviz/cgraph.h>

#include "dispatch.h"
#include "plan.h"
#include "session.h"
#include "stepper.h"
#include "viz.h"

#define GOLDEN_DIR DEVPLAN_SOURCE_DIR "/tests/golden/dot"

/* ---- helpers ---- */

/* A session with `file` (in the golden directory) loaded under the given
 * fallback and policy, after `phases` phases; expect_ok says whether the
 * last step must succeed. */
static Session *planned(const char *file, const char *fallback, const char *policy, size_t phases,
			bool expect_ok)
{
	Session *s = xcalloc(1, sizeof *s);
	char *path = xasprintf("%s/%s", GOLDEN_DIR, file);
	bool reset;
	char *err = NULL;
	session_init(s);
	assert_true(
		session_setting_set(s, session_setting_find("fallback"), fallback, &reset, &err));
	assert_true(session_setting_set(s, session_setting_find("policy"), policy, &reset, &err));
	if (!session_load(s, path)) {
		diag_print_all(stderr, &s->diags);
		fail();
	}
	free(path);
	if (phases)
		assert_int_equal(session_step(s, phases), expect_ok);
	return s;
}

static void release(Session *s)
{
	session_free(s);
	free(s);
}

/* Options that draw every node (--params): most tests check the drawing of
 * parameters; the folding tests clear params. */
static VizOptions options_of(const Session *s)
{
	VizOptions o;
	memset(&o, 0, sizeof o);
	o.module = session_current(s);
	o.devices = &s->devices;
	o.trace = s->trace;
	o.depth = -1;
	o.params = true;
	return o;
}

static bool is_legend(void *obj)
{
	return strncmp(agnameof(obj), "legend_", 7) == 0;
}

static size_t count_nodes(Agraph_t *g)
{
	size_t n = 0;
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		n += !is_legend(v);
	return n;
}

static size_t count_edges(Agraph_t *g)
{
	size_t n = 0;
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		for (Agedge_t *e = agfstout(g, v); e; e = agnxtout(g, e))
			n += !is_legend(agtail(e));
	return n;
}

static const char *attr(void *obj, const char *name)
{
	char *v = agget(obj, (char *)name);
	return v ? v : "";
}

/* The node whose label starts with prefix (e.g. "%b\n"); fails if none. */
static Agnode_t *node_labelled(Agraph_t *g, const char *prefix)
{
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		if (!is_legend(v) && strncmp(attr(v, "label"), prefix, strlen(prefix)) == 0)
			return v;
	print_error("no node labelled '%s...'\n", prefix);
	fail();
	return NULL;
}

static size_t count_shape(Agraph_t *g, const char *shape)
{
	size_t n = 0;
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		n += !is_legend(v) && strcmp(attr(v, "shape"), shape) == 0;
	return n;
}

/* The red edges, each checked to carry a label. */
static size_t count_red_edges(Agraph_t *g, Agedge_t **last)
{
	size_t n = 0;
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		for (Agedge_t *e = agfstout(g, v); e; e = agnxtout(g, e))
			if (!is_legend(v) && strcmp(attr(e, "color"), "red") == 0) {
				n++;
				*last = e;
			}
	return n;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data;
	long size;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = xmalloc((size_t)size + 1);
	*len = fread(data, 1, (size_t)size, f);
	data[*len] = '\0';
	fclose(f);
	return data;
}

static char *temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/test_viz.XXXXXX", base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(dir));
	return dir;
}

/* Names in dir other than . and .., sorted, joined by spaces. */
static char *list_dir(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	StrBuf sb;
	strbuf_init(&sb);
	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
			strbuf_printf(&sb, "%s%s", sb.len ? " " : "", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return strbuf_detach(&sb);
}

static void remove_dir(char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
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

/* Runs one command line on s; *out and *err get what it printed. */
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

/* ---- the shared-input case ---- */

static void test_shared_input_after_check(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", 2, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g = viz_build_graph(&o, &st, &err);
	Agedge_t *red = NULL;
	(void)state;
	assert_non_null(g);
	/* %a %b %c, add, on_device, the inserted copy, add, on_device, subtract */
	assert_int_equal(count_nodes(g), 9);
	assert_int_equal(count_edges(g), 9);
	assert_int_equal(st.nodes, 9);
	assert_int_equal(st.edges, 9);
	assert_int_equal(count_shape(g, "hexagon"), 1);
	/* the use of %b on cuda:0, through the copy check inserted for it */
	assert_int_equal(count_red_edges(g, &red), 1);
	assert_ptr_equal(agtail(red), node_labelled(g, "%b\\n"));
	assert_string_equal(attr(aghead(red), "shape"), "hexagon");
	assert_string_equal(attr(red, "label"), "needs %b on cuda:0");
	assert_string_equal(attr(red, "style"), "bold");
	assert_int_equal(st.conflicts, 1);
	/* the copy is shaded from cpu:0 to cuda:0 and says how much it moves */
	assert_string_equal(attr(aghead(red), "fillcolor"), "#E69F00:#56B4E9");
	assert_non_null(strstr(attr(aghead(red), "label"), "cpu:0 \xe2\x86\x92 cuda:0"));
	assert_non_null(strstr(attr(aghead(red), "label"), "140 bytes"));
	/* before core nothing has a device: white, dashed */
	assert_string_equal(attr(node_labelled(g, "%0 = add"), "fillcolor"), "#FFFFFF");
	assert_non_null(strstr(attr(node_labelled(g, "%0 = add"), "style"), "dashed"));
	assert_non_null(agnode(g, "legend_unplanned", 0));
	viz_free_graph(g);
	release(s);
}

static void test_shared_input_after_core(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g = viz_build_graph(&o, &st, &err);
	Agedge_t *red = NULL;
	Agraph_t *sub;
	size_t clusters = 0;
	(void)state;
	assert_non_null(g);
	/* %a %b %c, add, the copy of %b, add, the copy back, subtract: the
	 * on_device calls are gone (TVM's form, which the colours show) */
	assert_int_equal(count_nodes(g), 8);
	assert_int_equal(count_edges(g), 8);
	assert_int_equal(st.unplanned, 0);
	/* fill colour by device: cpu:0 orange, cuda:0 sky blue */
	assert_string_equal(viz_device_color(0), "#E69F00");
	assert_string_equal(viz_device_color(1), "#56B4E9");
	assert_string_equal(viz_device_color(IR_NO_DEVICE), "#FFFFFF");
	assert_string_equal(attr(node_labelled(g, "%a\\n"), "fillcolor"), "#E69F00");
	assert_string_equal(attr(node_labelled(g, "%b\\n"), "fillcolor"), "#E69F00");
	assert_string_equal(attr(node_labelled(g, "%c\\n"), "fillcolor"), "#56B4E9");
	assert_string_equal(attr(node_labelled(g, "%0 = add"), "fillcolor"), "#E69F00");
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "fillcolor"), "#56B4E9");
	assert_string_equal(attr(node_labelled(g, "subtract"), "fillcolor"), "#E69F00");
	assert_null(strstr(attr(node_labelled(g, "subtract"), "style"), "dashed"));
	assert_null(agnode(g, "legend_unplanned", 0));
	/* both copies: %b to the gpu, %2 back to the cpu */
	assert_int_equal(count_shape(g, "hexagon"), 2);
	assert_int_equal(st.copies, 2);
	assert_non_null(strstr(attr(node_labelled(g, "%3 = device_copy"), "label"),
			       "cuda:0 \xe2\x86\x92 cpu:0\\n140 bytes"));
	assert_string_equal(attr(node_labelled(g, "%3 = device_copy"), "penwidth"), "2.5");
	/* the conflict stays drawn: it is why the first copy exists */
	assert_int_equal(count_red_edges(g, &red), 1);
	assert_ptr_equal(agtail(red), node_labelled(g, "%b\\n"));
	/* one cluster per function, plus the legend with both devices */
	for (sub = agfstsubg(g); sub; sub = agnxtsubg(sub))
		clusters += strncmp(agnameof(sub), "cluster_g", 9) == 0;
	assert_int_equal(clusters, 1);
	assert_non_null(agsubg(g, "cluster_legend", 0));
	assert_string_equal(attr(agnode(g, "legend_d0", 0), "label"), "cpu:0");
	assert_string_equal(attr(agnode(g, "legend_d1", 0), "fillcolor"), "#56B4E9");
	assert_int_equal(agnnodes(agsubg(g, "cluster_g0", 0)), 8);
	viz_free_graph(g);
	release(s);
}

/* Under the error policy check stops planning: the loaded module is drawn
 * with the red use straight from %b into the cuda add. */
static void test_conflict_under_error_policy(void **state)
{
	Session *s = planned("shared_input.relay", "cuda:0", "error", pipeline_count, false);
	VizOptions o = options_of(s);
	char *err = NULL;
	Agraph_t *g = viz_build_graph(&o, NULL, &err);
	Agedge_t *red = NULL;
	(void)state;
	assert_non_null(g);
	assert_int_equal(count_nodes(g), 8);
	assert_int_equal(count_red_edges(g, &red), 1);
	assert_ptr_equal(agtail(red), node_labelled(g, "%b\\n"));
	assert_ptr_equal(aghead(red), node_labelled(g, "%0 = add"));
	assert_string_equal(attr(red, "label"), "needs %b on cpu:0");
	/* the legend lists what is drawn: no device yet, the conflict */
	assert_null(agnode(g, "legend_d0", 0));
	assert_null(agnode(g, "legend_d1", 0));
	assert_non_null(agnode(g, "legend_unplanned", 0));
	assert_non_null(agnode(g, "legend_conflict", 0));
	assert_null(agnode(g, "legend_copy", 0));
	viz_free_graph(g);
	release(s);
}

static void test_regions(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g;
	const char *colors[3] = {"#E69F00", "#56B4E9", "#E69F00"};
	size_t n = 0;
	(void)state;
	o.regions = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_null(agsubg(g, "cluster_g0", 0));
	/* cpu (%0), the copy, cuda (%2), the copy back, cpu */
	for (Agraph_t *sub = agfstsubg(g); sub; sub = agnxtsubg(sub)) {
		if (strncmp(agnameof(sub), "cluster_r", 9) != 0)
			continue;
		assert_true(n < 3);
		assert_string_equal(attr(sub, "color"), colors[n]);
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(st.clusters, 3);
	assert_non_null(agsubnode(agsubg(g, "cluster_r1", 0), node_labelled(g, "%0 = add"), 0));
	assert_null(agsubnode(agsubg(g, "cluster_r2", 0), node_labelled(g, "%0 = add"), 0));
	assert_string_equal(attr(agsubg(g, "cluster_r2", 0), "label"), "@main region 2 on cuda:0");
	viz_free_graph(g);
	release(s);
}

/* The region subgraph (cluster_r...) that holds node v, or NULL. */
static Agraph_t *region_of(Agraph_t *g, Agnode_t *v)
{
	for (Agraph_t *sub = agfstsubg(g); sub; sub = agnxtsubg(sub))
		if (strncmp(agnameof(sub), "cluster_r", 9) == 0 && agsubnode(sub, v, 0))
			return sub;
	return NULL;
}

/* A device_copy between two calls of one region does not split it, whichever
 * way it moves data: one written by the user to another device (@side),
 * one bringing a parameter in (@incoming), one check inserted (@inserted).
 * The same regions as the `regions` transcript region_copies. */
static void test_regions_across_copies(void **state)
{
	Session *s = planned("region_copies.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g;
	(void)state;
	o.regions = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	/* @side cpu, cuda, cpu; @incoming cpu; @inserted cpu, cuda, cpu */
	assert_int_equal(st.clusters, 7);
	assert_non_null(region_of(g, node_labelled(g, "%x = add")));
	assert_ptr_equal(region_of(g, node_labelled(g, "%x = add")),
			 region_of(g, node_labelled(g, "%z = multiply")));
	assert_ptr_equal(region_of(g, node_labelled(g, "%0 = add")),
			 region_of(g, node_labelled(g, "multiply\\n")));
	assert_string_equal(attr(region_of(g, node_labelled(g, "multiply\\n")), "label"),
			    "@incoming region 1 on cpu:0");
	assert_ptr_equal(region_of(g, node_labelled(g, "%2 = negative")),
			 region_of(g, node_labelled(g, "%4 = add")));
	assert_string_equal(attr(region_of(g, node_labelled(g, "%4 = add")), "label"),
			    "@inserted region 2 on cuda:0");
	/* the copies stay outside every region */
	assert_int_equal(st.copies, 5);
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		if (!is_legend(v) && strcmp(attr(v, "shape"), "hexagon") == 0)
			assert_null(region_of(g, v));
	viz_free_graph(g);
	release(s);
}

static void test_focus_and_depth(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g;
	(void)state;
	o.focus = "%2";
	o.depth = 1;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	/* %2, what it reads (the copy of %b, %c) and its consumer (the copy back) */
	assert_int_equal(count_nodes(g), 4);
	assert_int_equal(count_edges(g), 3);
	viz_free_graph(g);
	o.depth = 0;
	g = viz_build_graph(&o, &st, &err);
	assert_int_equal(count_nodes(g), 1);
	viz_free_graph(g);
	o.focus = "b"; /* the % is optional */
	o.depth = -1;  /* default: two edges */
	g = viz_build_graph(&o, &st, &err);
	/* %b; %0 and the copy; %a, %1 and %2 */
	assert_int_equal(count_nodes(g), 6);
	viz_free_graph(g);
	o.focus = "%nope";
	assert_null(viz_build_graph(&o, &st, &err));
	assert_string_equal(err, "no value named '%nope' in the module");
	free(err);
	release(s);
}

/* Past max_nodes the overview is drawn instead, saying why in its title;
 * --force draws every node, and a --focus cut still too big is refused. */
static void test_size_limit(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g;
	(void)state;
	o.max_nodes = 5;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_true(st.overview);
	assert_true(st.too_big);
	assert_int_equal(st.full_nodes, 8);
	assert_int_equal(st.full_edges, 8);
	/* cpu:0, the copy of %b, cuda:0, the copy back, cpu:0 */
	assert_int_equal(st.nodes, 5);
	assert_int_equal(count_nodes(g), 5);
	assert_non_null(strstr(attr(g, "label"), "overview of device regions: the graph has 8 "
						 "nodes, more than 5 to lay out (--force"));
	viz_free_graph(g);
	o.force = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_false(st.overview);
	assert_int_equal(count_nodes(g), 8);
	viz_free_graph(g);
	o.force = false;
	o.focus = "%c";
	o.depth = 1;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_false(st.overview);
	viz_free_graph(g);
	o.max_nodes = 1;
	assert_null(viz_build_graph(&o, &st, &err));
	assert_non_null(strstr(err, "2 nodes and 1 edges, more than 1"));
	assert_non_null(strstr(err, "--depth N"));
	free(err);
	release(s);
}

/* A module past VIZ_MAX_NODES is drawn as its overview, and one whose
 * input feeds every step draws the far uses from reference nodes. */
static void test_large_modules(void **state)
{
	char *dir = temp_dir();
	char *path = xasprintf("%s/big.relay", dir);
	FILE *f = fopen(path, "w");
	Session s;
	VizOptions o;
	VizStats st;
	char *err = NULL, *out, *cerr;
	Agraph_t *g;
	(void)state;
	assert_non_null(f);
	fputs("def @main(%x: Tensor[(4), float32], %y: Tensor[(4), float32]) {\n  %0 = add(%x, "
	      "%y);\n",
	      f);
	for (int i = 1; i < VIZ_MAX_NODES; i++)
		fprintf(f, "  %%%d = add(%%%d, %%y);\n", i, i - 1);
	fprintf(f, "  %%%d\n}\n", VIZ_MAX_NODES - 1);
	fclose(f);
	session_init(&s);
	assert_true(session_load(&s, path));
	o = options_of(&s);
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_true(st.too_big);
	assert_int_equal(st.full_nodes, 5002);
	/* one region, not yet on a device */
	assert_int_equal(count_nodes(g), 1);
	assert_non_null(
		strstr(attr(agnode(g, "r1", 0), "label"), "5000 calls: add \xe2\x80\xa6 add"));
	viz_free_graph(g);
	/* the command warns, and draws the overview (it folds %y, a weight) */
	assert_int_equal(run_command(&s, "render -", &out, &cerr), 0);
	assert_string_equal(cerr,
			    "warning: the graph has 5001 nodes and 5000 edges, more than "
			    "5000 to lay out; drew the overview of its device regions instead "
			    "(--force draws every node, --focus %x --depth N a neighbourhood)\n");
	assert_non_null(strstr(out, "overview of device regions: the graph has 5001 nodes"));
	free(out);
	free(cerr);
	o.focus = "%2500";
	o.depth = 1;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	/* %2499, %y, %2500, %2501 (at depth 2 %y would bring in every add) */
	assert_int_equal(count_nodes(g), 4);
	viz_free_graph(g);
	o.focus = NULL;
	o.force = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.nodes, VIZ_MAX_NODES + 2);
	/* %y feeds every add: all but the first few uses come from references */
	assert_true(st.references > VIZ_MAX_NODES - 100);
	assert_int_equal(count_nodes(g), st.nodes + st.references);
	assert_string_equal(attr(agnode(g, "n1_9999", 0), "shape"), "ellipse");
	viz_free_graph(g);
	session_free(&s);
	unlink(path);
	free(path);
	remove_dir(dir);
}

/* A session with a chain of n relu calls loaded (in dir). */
static void load_chain(Session *s, const char *dir, int n)
{
	char *path = xasprintf("%s/chain%d.relay", dir, n);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("def @main(%x: Tensor[(4), float32]) {\n  %0 = nn.relu(%x);\n", f);
	for (int i = 1; i < n; i++)
		fprintf(f, "  %%%d = nn.relu(%%%d);\n", i, i - 1);
	fprintf(f, "  %%%d\n}\n", n - 1);
	fclose(f);
	session_init(s);
	assert_true(session_load(s, path));
	unlink(path);
	free(path);
}

/* The width and height a PNG's header gives. */
static void png_size(const char *path, uint32_t *w, uint32_t *h)
{
	size_t len;
	unsigned char *p = (unsigned char *)read_all(path, &len);
	assert_non_null(p);
	assert_true(len > 24);
	assert_memory_equal(p + 12, "IHDR", 4);
	*w = (uint32_t)p[16] << 24 | (uint32_t)p[17] << 16 | (uint32_t)p[18] << 8 | p[19];
	*h = (uint32_t)p[20] << 24 | (uint32_t)p[21] << 16 | (uint32_t)p[22] << 8 | p[23];
	free(p);
}

typedef struct Warnings {
	size_t count;
	char text[1024];
} Warnings;

static void collect_warning(void *context, const char *message)
{
	Warnings *w = context;
	size_t used = strlen(w->text);
	w->count++;
	snprintf(w->text + used, sizeof w->text - used, "%s\n", message);
}

/* A session with the shared-value chain of n bindings loaded (in dir) and
 * planned, as tests/gen-shared-value writes it: adds that all read %y,
 * every eighth binding an on_device, alternately cpu:0 and cuda:0. The
 * plan copies %y to cuda:0 once, and that copy feeds every cuda:0 region. */
static void load_shared_value(Session *s, const char *dir, int n)
{
	char *path = xasprintf("%s/shared%d.relay", dir, n);
	FILE *f = fopen(path, "w");
	const char *prev = "%x";
	char name[16];
	assert_non_null(f);
	fputs("def @main(%x: Tensor[(16, 16), float32], %y: Tensor[(16, 16), float32]) {\n", f);
	for (int k = 0; k < n; k++) {
		if (k % 8 == 7)
			fprintf(f,
				"  %%%d = on_device(%s, virtual_device=meta[VirtualDevice][%d]);\n",
				k, prev, (k / 8) % 2);
		else
			fprintf(f, "  %%%d = add(%s, %%y);\n", k, prev);
		snprintf(name, sizeof name, "%%%d", k);
		prev = name;
	}
	fprintf(f, "  %s\n}\n", prev);
	fclose(f);
	session_init(s);
	assert_true(session_load(s, path));
	assert_true(session_step(s, pipeline_count));
	unlink(path);
	free(path);
}

/* The id of the copy of %y: the hexagon the reference nodes name. */
static Agnode_t *shared_copy(Agraph_t *g, size_t *references)
{
	Agnode_t *copy = NULL;
	*references = 0;
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v)) {
		char id[32];
		if (is_legend(v) || strcmp(attr(v, "shape"), "ellipse") != 0)
			continue;
		(*references)++;
		/* n<id>_<link>: a use of box n<id> */
		assert_true(strchr(agnameof(v), '_') != NULL);
		snprintf(id, sizeof id, "%.*s", (int)(strchr(agnameof(v), '_') - agnameof(v)),
			 agnameof(v));
		if (!copy)
			copy = agnode(g, id, 0);
		assert_non_null(copy);
		assert_string_equal(agnameof(copy), id);
		assert_string_equal(attr(v, "label"), attr(copy, "tooltip"));
	}
	return copy;
}

/* The overview of 800 adds sharing one %y (issue 26: a 200-node overview
 * dot had not laid out after 172 s): the copy of %y feeds the cuda:0
 * region after it by an edge, and every later one from a reference node
 * beside it, so that no edge spans the drawing; its cost is a chain's, and
 * it draws within a few seconds of CPU. */
static void test_overview_of_a_shared_value(void **state)
{
	char *dir = temp_dir(), *path = xasprintf("%s/o.svg", dir), *err = NULL;
	Session s;
	VizOptions o;
	VizStats st;
	Agraph_t *g;
	Agnode_t *copy;
	size_t references, out = 0;
	(void)state;
	load_shared_value(&s, dir, 800);
	o = options_of(&s);
	o.params = false;
	o.overview = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	/* 100 regions, 100 copies, a reference in each cuda:0 region but the first */
	assert_int_equal(st.nodes, 200);
	assert_int_equal(st.copies, 100);
	assert_int_equal(st.references, 49);
	assert_int_equal(count_nodes(g), st.nodes + st.references);
	copy = shared_copy(g, &references);
	assert_int_equal(references, 49);
	assert_non_null(copy);
	assert_string_equal(attr(copy, "shape"), "hexagon");
	for (Agedge_t *e = agfstout(g, copy); e; e = agnxtout(g, e))
		out++;
	assert_int_equal(out, 1);
	assert_true(st.cost < 4.0 * (double)(st.nodes + st.references));
	assert_non_null(agnode(g, "legend_reference", 0));
	viz_free_graph(g);
	/* laid out well within the limits */
	o.layout_seconds = 10;
	if (!viz_render(&o, path, &st, &err)) {
		print_error("%s\n", err);
		fail();
	}
	session_free(&s);
	free(path);
	remove_dir(dir);
}

/* The size limit and the cost estimate apply to the overview too, and no
 * error suggests the option just used: 4,000 adds sharing %y make an
 * overview of 1,000 boxes and 249 references, refused under a limit of
 * 1,000 nodes whether asked for or drawn as the fallback; a full drawing
 * under the node limit whose edges span many ranks (200 adds, with its
 * labels doubling every rank) is drawn as its overview, saying why. */
static void test_overview_limits(void **state)
{
	char *dir = temp_dir(), *err = NULL;
	Session s;
	VizOptions o;
	VizStats st;
	Agraph_t *g;
	(void)state;
	load_shared_value(&s, dir, 4000);
	o = options_of(&s);
	o.params = false;
	o.overview = true;
	o.max_nodes = 1000;
	assert_null(viz_build_graph(&o, &st, &err));
	assert_string_equal(err, "the overview has 1000 nodes and 249 references to far values, "
				 "more than 1000 to lay out; draw a neighbourhood with --focus %x "
				 "--depth N instead of --overview, or pass --force to lay it out "
				 "anyway");
	free(err);
	o.force = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	viz_free_graph(g);
	/* the fallback of a graph too big */
	o.force = false;
	o.overview = false;
	assert_null(viz_build_graph(&o, &st, &err));
	assert_non_null(strstr(err, "the graph has 4002 nodes, "));
	assert_non_null(strstr(err, ", and its overview has 1000 nodes and 249 references to far "
				    "values, more than 1000 to lay out; draw a neighbourhood with "
				    "--focus %x --depth N"));
	assert_null(strstr(err, "--overview"));
	free(err);
	session_free(&s);
	/* the cost: 202 nodes and 133 references are under 400, but their
	 * edges cost far more than 400 nodes' 8,000 */
	load_shared_value(&s, dir, 200);
	o = options_of(&s);
	o.params = false;
	o.max_nodes = 400;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_true(st.too_big);
	assert_true(st.overview);
	assert_int_equal(st.full_nodes, 202);
	assert_true(st.full_cost > 8000);
	assert_non_null(strstr(attr(g, "label"), "overview of device regions: the graph has 202 "
						 "nodes and 133 references to far values, but "
						 "its edges span so many ranks"));
	viz_free_graph(g);
	session_free(&s);
	remove_dir(dir);
}

/* Whether the process has mapped a file whose path holds name. */
static bool mapped(const char *name)
{
	size_t len;
	char *maps = read_all("/proc/self/maps", &len);
	bool found = maps && strstr(maps, name);
	free(maps);
	return found;
}

/* Every layout runs in a child process under a CPU-time and an
 * address-space limit: past either the render fails, nothing is written,
 * and the session goes on; the session itself never loads Graphviz's
 * plugins or the font stack (whose failed allocations abort). */
static void test_layout_limits(void **state)
{
	char *dir = temp_dir(), *path = xasprintf("%s/g.svg", dir), *err = NULL;
	Session *small = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	Session s;
	VizOptions o = options_of(small);
	(void)state;
	/* no memory to spare: Graphviz cannot load its plugins, or dies */
	o.layout_memory = 1 << 20;
	assert_false(viz_render(&o, path, NULL, &err));
	if (!strstr(err, "graphviz could not load its plugins") &&
	    !strstr(err, "most likely out of the 1 MiB a layout may map; draw its device regions "
			 "with --overview")) {
		print_error("%s\n", err);
		fail();
	}
	free(err);
	assert_int_equal(access(path, F_OK), -1);
	o.layout_memory = 0;
	assert_true(viz_render(&o, path, NULL, &err));
	assert_false(mapped("libgvplugin"));
	assert_false(mapped("libpango"));
	assert_false(mapped("libfontconfig"));
	unlink(path);
	release(small);
	/* 4,000 adds sharing %y, every node forced: seconds of dot, stopped
	 * after one */
	load_shared_value(&s, dir, 4000);
	o = options_of(&s);
	o.params = false;
	o.force = true;
	o.layout_seconds = 1;
	assert_false(viz_render(&o, path, NULL, &err));
	assert_string_equal(err, "graphviz used up the 1 s of CPU a layout may take without "
				 "finishing it; draw its device regions with --overview, or a "
				 "neighbourhood with --focus %x --depth N");
	free(err);
	assert_int_equal(access(path, F_OK), -1);
	session_free(&s);
	free(path);
	remove_dir(dir);
}

/* A PNG is never written unreadable: a chain that fits is drawn at full
 * size; one a little too tall for Cairo is scaled to fit, with a warning
 * (and Graphviz's own stderr note never printed); one that would shrink
 * below a legible scale is refused with what to do instead, and nothing is
 * written. SVG has no such limit. */
static void test_png_fits_or_is_refused(void **state)
{
	static const struct {
		int n;
		bool ok, warned;
	} chains[] = {{100, true, false}, {500, true, true}, {1500, false, false}};
	char *dir = temp_dir();
	(void)state;
	for (size_t i = 0; i < DP_COUNT(chains); i++) {
		Session s;
		VizOptions o;
		Warnings w = {0, ""};
		char *path = xasprintf("%s/chain.png", dir), *err = NULL;
		uint32_t width, height;
		load_chain(&s, dir, chains[i].n);
		o = options_of(&s);
		o.warn = collect_warning;
		o.warn_context = &w;
		if (!chains[i].ok) {
			assert_false(viz_render(&o, path, NULL, &err));
			assert_non_null(strstr(err, "too big for a PNG"));
			assert_non_null(strstr(err, "--overview"));
			assert_non_null(strstr(err, ".svg"));
			free(err);
			assert_int_equal(access(path, F_OK), -1);
			free(path);
			/* the same drawing as SVG is fine; as PDF it is written, with
			 * a warning that some viewers will not open the page */
			path = xasprintf("%s/chain.svg", dir);
			assert_true(viz_render(&o, path, NULL, &err));
			unlink(path);
			assert_int_equal(w.count, 0);
			free(path);
			path = xasprintf("%s/chain.pdf", dir);
			assert_true(viz_render(&o, path, NULL, &err));
			assert_int_equal(w.count, 1);
			assert_non_null(strstr(w.text, "PDF page is"));
			unlink(path);
		} else {
			if (!viz_render(&o, path, NULL, &err)) {
				print_error("%d: %s\n", chains[i].n, err);
				fail();
			}
			png_size(path, &width, &height);
			assert_true(height < VIZ_PNG_MAX_SIDE);
			assert_true(width < VIZ_PNG_MAX_SIDE);
			if (chains[i].warned) {
				assert_int_equal(w.count, 1);
				assert_non_null(strstr(w.text, "scaled to 0."));
				/* shrunk only as far as it must: within 1% of the limit */
				assert_true(height > VIZ_PNG_MAX_SIDE * 0.99);
			} else {
				assert_int_equal(w.count, 0);
				/* about 70 pixels a node at 96 dpi */
				assert_true(height > (uint32_t)chains[i].n * 50);
			}
			unlink(path);
		}
		free(path);
		session_free(&s);
	}
	remove_dir(dir);
}

/* What Graphviz warns about reaches opts->warn, not stderr: a title that is
 * not UTF-8. */
static void test_graphviz_warnings_are_reported(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	Warnings w = {0, ""};
	char *dir = temp_dir(), *path = xasprintf("%s/g.svg", dir), *err = NULL;
	(void)state;
	o.title = "caf\xe9 \xff";
	o.warn = collect_warning;
	o.warn_context = &w;
	assert_true(viz_render(&o, path, NULL, &err));
	assert_true(w.count >= 1);
	assert_non_null(strstr(w.text, "graphviz: Warning: "));
	assert_non_null(strstr(w.text, "UTF"));
	/* without a callback they are dropped, not printed */
	o.warn = NULL;
	assert_true(viz_render(&o, path, NULL, &err));
	free(path);
	remove_dir(dir);
	release(s);
}

static void test_closures_and_globals(void **state)
{
	Session *s = planned("closure.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	char *err = NULL;
	Agraph_t *g = viz_build_graph(&o, NULL, &err);
	Agraph_t *main_cluster, *closure = NULL;
	(void)state;
	assert_non_null(g);
	main_cluster = agsubg(g, "cluster_g0", 0);
	assert_non_null(main_cluster);
	assert_non_null(agsubg(g, "cluster_g1", 0));
	assert_string_equal(attr(agsubg(g, "cluster_g1", 0), "label"), "@g, result on cpu:0");
	/* the closure's cluster sits inside @main's, titled by its let */
	for (Agraph_t *sub = agfstsubg(main_cluster); sub; sub = agnxtsubg(sub))
		if (strncmp(agnameof(sub), "cluster_fn", 10) == 0)
			closure = sub;
	assert_non_null(closure);
	assert_string_equal(attr(closure, "label"), "%f, result on cpu:0");
	assert_int_equal(agnnodes(closure), 2);
	assert_string_equal(attr(node_labelled(g, "%f = fn"), "shape"), "component");
	assert_string_equal(attr(node_labelled(g, "%3 = if"), "shape"), "diamond");
	assert_string_equal(attr(node_labelled(g, "call @g"), "peripheries"), "2");
	assert_string_equal(attr(node_labelled(g, "2f"), "shape"), "cylinder");
	viz_free_graph(g);
	/* by region, function calls belong to regions as the `regions` command
	 * counts them: @main's one cpu:0 run is %0 (a call of %f), the negative
	 * and the call of @g */
	o.regions = true;
	g = viz_build_graph(&o, NULL, &err);
	assert_non_null(g);
	assert_non_null(region_of(g, node_labelled(g, "call @g")));
	assert_string_equal(attr(region_of(g, node_labelled(g, "call @g")), "label"),
			    "@main region 1 on cpu:0");
	assert_ptr_equal(region_of(g, node_labelled(g, "%0 = call %f")),
			 region_of(g, node_labelled(g, "call @g")));
	assert_ptr_equal(region_of(g, node_labelled(g, "negative")),
			 region_of(g, node_labelled(g, "call @g")));
	viz_free_graph(g);
	release(s);
}

/* ---- folding, the overview, focus, tooltips, uncopied operands ---- */

/* Whether some node's label starts with prefix. */
static bool has_node_labelled(Agraph_t *g, const char *prefix)
{
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		if (!is_legend(v) && strncmp(attr(v, "label"), prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* Weights fold into their consumers by default: the conv's weight, the
 * bias, and %var with the constant and the three calls that make a scale
 * of them; %data stays. --params draws them all. */
static void test_folding(void **state)
{
	Session *s = planned("weights.relay", "cuda:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	Agraph_t *g;
	(void)state;
	o.params = false;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.folded, 7);
	/* %data, conv2d, bias_add, divide, the copy, relu */
	assert_int_equal(count_nodes(g), 6);
	assert_int_equal(st.nodes, 6);
	assert_true(has_node_labelled(g, "%data\\n"));
	assert_false(has_node_labelled(g, "%w\\n"));
	assert_false(has_node_labelled(g, "%3 = sqrt"));
	assert_non_null(strstr(attr(node_labelled(g, "%0 = nn.conv2d"), "label"),
			       "\\ncpu:0\\nweights: 1 on cpu:0, 4x3x3x3"));
	assert_non_null(strstr(attr(node_labelled(g, "%1 = nn.bias_add"), "label"),
			       "\\nweights: 1 on cpu:0, 4"));
	assert_non_null(strstr(attr(node_labelled(g, "%5 = divide"), "label"),
			       "\\nweights: 1 on cpu:0, 4x1x1"));
	assert_non_null(agnode(g, "legend_weights", 0));
	viz_free_graph(g);
	o.params = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.folded, 0);
	assert_int_equal(count_nodes(g), 13);
	assert_true(has_node_labelled(g, "%w\\n"));
	assert_null(strstr(attr(node_labelled(g, "%0 = nn.conv2d"), "label"), "weights"));
	assert_null(agnode(g, "legend_weights", 0));
	viz_free_graph(g);
	release(s);

	/* %b, in conflict, stays with its red edge; %c folds into the add */
	s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	o = options_of(s);
	o.params = false;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.folded, 1);
	assert_true(has_node_labelled(g, "%a\\n"));
	assert_true(has_node_labelled(g, "%b\\n"));
	assert_false(has_node_labelled(g, "%c\\n"));
	assert_int_equal(st.conflicts, 1);
	assert_non_null(
		strstr(attr(node_labelled(g, "%2 = add"), "label"), "weights: 1 on cuda:0, 5x7"));
	viz_free_graph(g);
	release(s);

	/* a copied parameter stays drawn: every copy keeps its operand */
	s = planned("region_copies.relay", "cpu:0", "copy", pipeline_count, true);
	o = options_of(s);
	o.params = false;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.copies, 5);
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		if (!is_legend(v) && strcmp(attr(v, "shape"), "hexagon") == 0)
			assert_non_null(agfstin(g, v));
	viz_free_graph(g);
	/* as loaded, before any device is known, the user's copies too */
	o.module = session_version(s, -1);
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.copies, 3);
	for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v))
		if (!is_legend(v) && strcmp(attr(v, "shape"), "hexagon") == 0)
			assert_non_null(agfstin(g, v));
	viz_free_graph(g);
	release(s);
}

/* The overview of resnet18 with a stretch pinned to cuda:0: three regions
 * and the two copies between them, params counted on the regions. */
static void test_overview(void **state)
{
	Session s;
	VizOptions o;
	VizStats st;
	char *err = NULL;
	Agraph_t *g;
	Agnode_t *r1, *r2, *r3;
	size_t hexagons = 0;
	(void)state;
	session_init(&s);
	if (!session_load(&s, DEVPLAN_DATA_DIR "/models/resnet18.relay")) {
		diag_print_all(stderr, &s.diags);
		fail();
	}
	session_pin(&s,
		    &(PlanPin){.name = "50", .device = devices_find_name(&s.devices, "cuda:0")});
	session_pin(&s,
		    &(PlanPin){.name = "100", .device = devices_find_name(&s.devices, "cpu:0")});
	assert_true(session_step(&s, pipeline_count));
	o = options_of(&s);
	o.overview = true;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_true(st.overview);
	assert_false(st.too_big);
	assert_int_equal(st.nodes, 5);
	assert_int_equal(count_nodes(g), 5);
	assert_int_equal(st.copies, 2);
	r1 = agnode(g, "r1", 0);
	r2 = agnode(g, "r2", 0);
	r3 = agnode(g, "r3", 0);
	assert_non_null(r1);
	assert_non_null(r2);
	assert_non_null(r3);
	assert_non_null(strstr(attr(r1, "label"), "@main region 1 on cpu:0\\n50 calls: add "));
	assert_non_null(strstr(attr(r2, "label"), "@main region 2 on cuda:0\\n1 call: nn.conv2d"));
	assert_non_null(strstr(attr(r2, "label"), "in 784.0 KiB, out 784.0 KiB"));
	assert_string_equal(attr(r2, "fillcolor"), "#56B4E9");
	/* r1 -> copy -> r2 -> copy -> r3, and r1's other output straight to r3 */
	for (Agedge_t *e = agfstout(g, r1); e; e = agnxtout(g, e))
		if (strcmp(attr(aghead(e), "shape"), "hexagon") == 0) {
			hexagons++;
			assert_non_null(agedge(g, aghead(e), r2, NULL, 0));
			assert_string_equal(attr(e, "label"), "802816 B");
		}
	assert_int_equal(hexagons, 1);
	assert_non_null(agedge(g, r1, r3, NULL, 0));
	assert_non_null(agnode(g, "legend_region", 0));
	assert_null(agnode(g, "legend_weights", 0));
	viz_free_graph(g);
	session_free(&s);
}

/* The --focus node has a thick border in its own colour, in the legend;
 * the focus never folds. */
static void test_focus_highlight(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	char *err = NULL;
	Agraph_t *g;
	(void)state;
	o.focus = "%2";
	g = viz_build_graph(&o, NULL, &err);
	assert_non_null(g);
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "penwidth"), "4");
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "color"), "#6A3D9A");
	assert_string_equal(attr(node_labelled(g, "%c\\n"), "penwidth"), "1");
	assert_string_equal(attr(node_labelled(g, "%c\\n"), "color"), "black");
	assert_string_equal(attr(agnode(g, "legend_focus", 0), "penwidth"), "4");
	viz_free_graph(g);
	o.focus = "%c";
	o.params = false;
	g = viz_build_graph(&o, NULL, &err);
	assert_non_null(g);
	assert_string_equal(attr(node_labelled(g, "%c\\n"), "penwidth"), "4");
	viz_free_graph(g);
	o.focus = NULL;
	g = viz_build_graph(&o, NULL, &err);
	assert_non_null(g);
	assert_null(agnode(g, "legend_focus", 0));
	viz_free_graph(g);
	release(s);
}

/* SVG nodes carry a tooltip (name, op, type, device, the first step of
 * `why`, position) and their DOT name as id. */
static void test_tooltips(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	char *err = NULL, *svg = NULL, *want;
	size_t len;
	Agraph_t *g;
	StrBuf why;
	const char *step, *end;
	(void)state;
	o.analysis = s->trace->core;
	g = viz_build_graph(&o, NULL, &err);
	assert_non_null(g);
	/* the first step of what `why %2` prints */
	strbuf_init(&why);
	plan_explain(&why, s->trace->core, ir_find_named(session_current(s), "2"), &s->devices,
		     s->trace);
	step = strchr(why.data, '\n') + 1;
	while (*step == ' ')
		step++;
	end = strchr(step, '\n');
	want = xasprintf("%%2\\nadd\\nTensor[(5, 7), float32]\\non cuda:0\\nwhy: %.*s\\nat 6:8",
			 (int)(end - step), step);
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "tooltip"), want);
	free(want);
	strbuf_free(&why);
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "id"),
			    agnameof(node_labelled(g, "%2 = add")));
	viz_free_graph(g);
	assert_true(viz_render_to_memory(&o, VIZ_FORMAT_SVG, &svg, &len, NULL, &err));
	assert_non_null(strstr(svg, "<g id=\"n5\" class=\"node\">\n<title>n5</title>"));
	assert_non_null(strstr(svg, "xlink:title=\"%2&#10;add&#10;Tensor[(5, 7), float32]&#10;on "
				    "cuda:0&#10;why: "));
	free(svg);
	release(s);
}

/* An operand on another device than its operator, with no copy between,
 * is a dashed edge in the operand's colour that says why: here %x,
 * captured by the closure %f, drawn as if on cuda:0. */
static void test_uncopied_operands(void **state)
{
	Session *s = planned("closure.relay", "cpu:0", "copy", pipeline_count, true);
	const IrModule *m = session_current(s);
	VizOptions o = options_of(s);
	VizStats st;
	char *err = NULL;
	int32_t *device_of = xmalloc(m->nexprs * sizeof(int32_t));
	const Expr *x = ir_find_named(m, "x");
	Agraph_t *g;
	Agedge_t *dashed = NULL;
	(void)state;
	assert_non_null(x);
	for (uint32_t i = 0; i < m->nexprs; i++)
		device_of[i] = 0;
	device_of[x->id] = 1;
	o.device_of = device_of;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_int_equal(st.uncopied, 1);
	for (Agedge_t *e = agfstin(g, node_labelled(g, "add")); e; e = agnxtin(g, e))
		if (strcmp(attr(e, "style"), "dashed") == 0)
			dashed = e;
	assert_non_null(dashed);
	assert_ptr_equal(agtail(dashed), node_labelled(g, "%x\\n"));
	assert_string_equal(attr(dashed, "label"), "no copy: captured by a closure from cuda:0");
	assert_string_equal(attr(dashed, "color"), "#56B4E9");
	assert_non_null(agnode(g, "legend_uncopied", 0));
	viz_free_graph(g);
	free(device_of);
	release(s);
}

/* ---- golden .dot files ---- */

static void check_golden(const Session *s, const VizOptions *o, const char *golden)
{
	char *dir = temp_dir();
	char *out = xasprintf("%s/g.dot", dir);
	char *want_path = xasprintf("%s/%s", GOLDEN_DIR, golden);
	char *err = NULL, *got, *want;
	size_t got_len = 0, want_len = 0;
	const char *update = getenv("UPDATE");
	if (!viz_render(o, out, NULL, &err)) {
		print_error("%s: %s\n", golden, err);
		fail();
	}
	got = read_all(out, &got_len);
	assert_non_null(got);
	if (update && strcmp(update, "1") == 0) {
		FILE *f = fopen(want_path, "wb");
		assert_non_null(f);
		fwrite(got, 1, got_len, f);
		fclose(f);
	}
	want = read_all(want_path, &want_len);
	if (!want) {
		print_error("%s: missing; run with UPDATE=1 to create it\n", want_path);
		fail();
	}
	if (got_len != want_len || memcmp(got, want, got_len) != 0) {
		size_t line = 1, i = 0;
		while (i < got_len && i < want_len && got[i] == want[i])
			line += got[i++] == '\n';
		print_error("%s differs from the graph drawn, first at line %zu:\n"
			    "--- expected ---\n%s\n--- actual ---\n%s\n",
			    golden, line, want, got);
		fail();
	}
	free(got);
	free(want);
	free(want_path);
	unlink(out);
	free(out);
	remove_dir(dir);
}

typedef struct GoldenCase {
	const char *relay;
	const char *fallback;
	const char *policy;
	const char *phase; /* "parse" or a phase name */
	bool regions;
	bool folded;   /* weights folded (render's default), file NAME.PHASE_folded.dot */
	bool overview; /* --overview, NAME.PHASE_overview.dot */
} GoldenCase;

static const GoldenCase golden_cases[] = {
	{"shared_input.relay", "cpu:0", "copy", "parse", false, false, false},
	{"shared_input.relay", "cpu:0", "copy", "check", false, false, false},
	{"shared_input.relay", "cpu:0", "copy", "core", false, false, false},
	{"shared_input.relay", "cpu:0", "copy", "core", true, false, false},
	{"region_copies.relay", "cpu:0", "copy", "core", true, false, false},
	{"shared_input.relay", "cuda:0", "copy", "core", false, false, false},
	{"global_call.relay", "cuda:0", "copy", "parse", false, false, false},
	{"global_call.relay", "cuda:0", "copy", "core", false, false, false},
	{"left_add_on_cpu.relay", "cuda:0", "copy", "parse", false, false, false},
	{"left_add_on_cpu.relay", "cuda:0", "copy", "core", false, false, false},
	{"let_on_cpu.relay", "cuda:0", "copy", "parse", false, false, false},
	{"let_on_cpu.relay", "cuda:0", "copy", "core", false, false, false},
	{"plain.relay", "cuda:0", "copy", "parse", false, false, false},
	{"plain.relay", "cuda:0", "copy", "core", false, false, false},
	{"closure.relay", "cpu:0", "copy", "core", false, false, false},
	/* constructors, a match drawn like an if, its pattern variable fed
	 * by the scrutinee, and the copy of the list */
	{"adt_list.relay", "cpu:0", "copy", "core", false, false, false},
	/* folded: the conv's weight, the bias, the scale computed from %var
	 * and a constant; %data stays; then the conflicting %b and the copy of
	 * shared_input stay drawn, %c folds into the cuda add */
	{"weights.relay", "cuda:0", "copy", "core", false, true, false},
	{"weights.relay", "cuda:0", "copy", "parse", false, true, false},
	{"shared_input.relay", "cpu:0", "copy", "core", false, true, false},
	/* the overview: a box per region and per copy, over three functions */
	{"region_copies.relay", "cpu:0", "copy", "core", false, false, true},
	{"weights.relay", "cuda:0", "copy", "core", false, false, true},
};

static void test_golden_dot(void **state)
{
	(void)state;
	for (size_t i = 0; i < DP_COUNT(golden_cases); i++) {
		const GoldenCase *c = &golden_cases[i];
		int phase = strcmp(c->phase, "parse") == 0 ? -1 : pipeline_find(c->phase);
		Session *s = planned(c->relay, c->fallback, c->policy, pipeline_count, true);
		VizOptions o = options_of(s);
		char base[128], *title, *golden;
		size_t len = strcspn(c->relay, ".");
		snprintf(base, sizeof base, "%.*s", (int)len, c->relay);
		o.module = session_version(s, phase);
		o.regions = c->regions;
		o.params = !c->folded;
		o.overview = c->overview;
		title = xasprintf("%s %s%s", c->relay, phase < 0 ? "as loaded" : "after ",
				  phase < 0 ? "" : c->phase);
		o.title = title;
		golden = xasprintf("%s%s.%s%s%s%s.dot", base,
				   strcmp(c->fallback, "cpu:0") == 0 ? "" : "_gpu", c->phase,
				   c->regions ? "_regions" : "", c->folded ? "_folded" : "",
				   c->overview ? "_overview" : "");
		check_golden(s, &o, golden);
		free(golden);
		free(title);
		release(s);
	}
}

/* While core is stepped with stepi, render draws the devices its replay
 * has bound so far: after event 3 (the on_device at 5:8 binds %0's class
 * to cpu:0) %a, %b and %0 are cpu:0 and the rest is white and dashed;
 * after event 6 the cuda:0 add is too. */
static void test_core_in_progress(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", 3, true);
	VizOptions o;
	VizStats st;
	char *err = NULL;
	int32_t *devices;
	Agraph_t *g;
	(void)state;
	assert_null(stepper_replay_devices(s));
	assert_int_equal(stepper_run(s, STEP_EVENT, 3, false, NULL), STEP_DONE);
	devices = stepper_replay_devices(s);
	assert_non_null(devices);
	o = options_of(s);
	o.device_of = devices;
	o.title = "shared_input.relay after infer; core in progress, devices as of event 3 of 17";
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_string_equal(attr(node_labelled(g, "%a\\n"), "fillcolor"), "#E69F00");
	assert_string_equal(attr(node_labelled(g, "%0 = add"), "fillcolor"), "#E69F00");
	assert_null(strstr(attr(node_labelled(g, "%0 = add"), "style"), "dashed"));
	assert_non_null(strstr(attr(node_labelled(g, "%0 = add"), "label"), "\\ncpu:0"));
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "fillcolor"), "#FFFFFF");
	assert_non_null(strstr(attr(node_labelled(g, "%2 = add"), "style"), "dashed"));
	assert_string_equal(attr(node_labelled(g, "%c\\n"), "fillcolor"), "#FFFFFF");
	assert_int_equal(st.unplanned, 6); /* %c, %1, the copy, %2, %3, subtract */
	assert_non_null(agnode(g, "legend_unplanned", 0));
	viz_free_graph(g);
	check_golden(s, &o, "shared_input.core_event3.dot");
	free(devices);
	assert_int_equal(stepper_run(s, STEP_EVENT, 3, false, NULL), STEP_DONE);
	devices = stepper_replay_devices(s);
	o.device_of = devices;
	g = viz_build_graph(&o, &st, &err);
	assert_non_null(g);
	assert_string_equal(attr(node_labelled(g, "%2 = add"), "fillcolor"), "#56B4E9");
	assert_string_equal(attr(node_labelled(g, "%c\\n"), "fillcolor"), "#56B4E9");
	viz_free_graph(g);
	free(devices);
	release(s);
}

/* ---- files ---- */

static void test_formats_and_atomic_writes(void **state)
{
	static const struct {
		const char *name;
		const char *magic;
		size_t len;
	} files[] = {
		{"g.png", "\x89PNG\r\n\x1a\n", 8},  {"g.svg", "<?xml", 5}, {"g.pdf", "%PDF-", 5},
		{"g.dot", "digraph devplan {", 17}, {"G.SVG", "<?xml", 5},
	};
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	char *dir = temp_dir(), *listing, *err = NULL;
	(void)state;
	for (size_t i = 0; i < DP_COUNT(files); i++) {
		char *path = xasprintf("%s/%s", dir, files[i].name);
		size_t len;
		char *data;
		VizStats st;
		if (!viz_render(&o, path, &st, &err)) {
			print_error("%s: %s\n", files[i].name, err);
			fail();
		}
		assert_int_equal(st.nodes, 8);
		data = read_all(path, &len);
		assert_non_null(data);
		assert_true(len > files[i].len);
		assert_memory_equal(data, files[i].magic, files[i].len);
		if (strstr(files[i].name, "svg") || strstr(files[i].name, "SVG"))
			assert_non_null(strstr(data, "<svg"));
		{
			/* what the file holds: the same bytes for dot (svg numbers
			 * its gradients per process, png and pdf carry a time) */
			char *mem = NULL;
			size_t mlen;
			VizFormat f;
			assert_true(viz_format_of_path(files[i].name, &f));
			assert_true(viz_render_to_memory(&o, f, &mem, &mlen, NULL, &err));
			assert_memory_equal(mem, files[i].magic, files[i].len);
			assert_int_equal(mem[mlen], '\0');
			if (f == VIZ_FORMAT_SVG)
				assert_non_null(strstr(mem, "</svg>"));
			if (f == VIZ_FORMAT_DOT) {
				assert_int_equal(strlen(mem), mlen);
				assert_int_equal(mlen, len);
				assert_memory_equal(mem, data, len);
			}
			free(mem);
		}
		free(data);
		free(path);
	}
	{
		/* an error leaves nothing to free */
		char *mem = (char *)"x";
		size_t mlen = 1;
		o.focus = "%nope";
		assert_false(viz_render_to_memory(&o, VIZ_FORMAT_SVG, &mem, &mlen, NULL, &err));
		assert_null(mem);
		assert_int_equal(mlen, 0);
		assert_non_null(strstr(err, "%nope"));
		free(err);
		o.focus = NULL;
	}
	/* no temporary file is left behind */
	listing = list_dir(dir);
	assert_string_equal(listing, "G.SVG g.dot g.pdf g.png g.svg");
	free(listing);
	{
		/* a failing render leaves an existing file as it was */
		char *path = xasprintf("%s/g.dot", dir), *before, *after;
		size_t n1, n2;
		before = read_all(path, &n1);
		o.focus = "%nope";
		assert_false(viz_render(&o, path, NULL, &err));
		free(err);
		o.focus = NULL;
		after = read_all(path, &n2);
		assert_int_equal(n1, n2);
		assert_memory_equal(before, after, n1);
		free(before);
		free(after);
		free(path);
		listing = list_dir(dir);
		assert_string_equal(listing, "G.SVG g.dot g.pdf g.png g.svg");
		free(listing);
	}
	remove_dir(dir);
	release(s);
}

static void test_write_errors(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", 0, true);
	VizOptions o = options_of(s);
	char *dir = temp_dir(), *path, *err = NULL;
	VizFormat f;
	(void)state;
	assert_true(viz_format_of_path("a/b.c/x.Png", &f));
	assert_int_equal(f, VIZ_FORMAT_PNG);
	assert_false(viz_format_of_path("a.b/x", &f));
	assert_false(viz_format_of_path(".svg", &f));
	assert_false(viz_render(&o, "graph.txt", NULL, &err));
	assert_string_equal(err,
			    "unknown format '.txt' of 'graph.txt'; use .png, .svg, .pdf or .dot");
	free(err);
	assert_false(viz_render(&o, "graph", NULL, &err));
	assert_string_equal(err, "'graph' has no extension; name a .png, .svg, .pdf or .dot file");
	free(err);
	path = xasprintf("%s/missing/g.svg", dir);
	assert_false(viz_render(&o, path, NULL, &err));
	assert_non_null(strstr(err, "No such file or directory"));
	assert_non_null(strstr(err, "cannot write"));
	free(err);
	free(path);
	{
		/* a symbolic link stays a link; the file it names gets the graph */
		char *real = xasprintf("%s/real.dot", dir), *link = xasprintf("%s/link.dot", dir);
		char *data;
		size_t len;
		struct stat st;
		FILE *f = fopen(real, "w");
		assert_non_null(f);
		fclose(f);
		assert_int_equal(symlink("real.dot", link), 0);
		assert_true(viz_render(&o, link, NULL, &err));
		assert_int_equal(lstat(link, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		data = read_all(real, &len);
		assert_non_null(strstr(data, "digraph devplan {"));
		free(data);
		unlink(link);
		unlink(real);
		free(link);
		free(real);
	}
	path = xasprintf("%s/sub.svg", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_false(viz_render(&o, path, NULL, &err));
	assert_non_null(strstr(err, "is a directory"));
	free(err);
	rmdir(path);
	free(path);
	remove_dir(dir);
	release(s);
}

/* Same module and options, same bytes: twice, through a stream, and after
 * a layout has run in the process (gvc keeps global state). */
static void test_dot_is_deterministic(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", pipeline_count, true);
	VizOptions o = options_of(s);
	char *dir = temp_dir(), *err = NULL;
	char *a = xasprintf("%s/a.dot", dir), *b = xasprintf("%s/b.dot", dir);
	char *png = xasprintf("%s/c.png", dir);
	char *da, *db, *stream = NULL;
	size_t la, lb, ls = 0;
	FILE *f;
	(void)state;
	assert_true(viz_render(&o, a, NULL, &err));
	assert_true(viz_render(&o, png, NULL, &err));
	assert_true(viz_render(&o, b, NULL, &err));
	f = open_memstream(&stream, &ls);
	assert_true(viz_write_dot(&o, f, NULL, &err));
	fclose(f);
	da = read_all(a, &la);
	db = read_all(b, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(da, db, la);
	assert_int_equal(la, ls);
	assert_memory_equal(da, stream, la);
	assert_null(strstr(da, "0x"));
	free(da);
	free(db);
	free(stream);
	free(a);
	free(b);
	free(png);
	remove_dir(dir);
	release(s);
}

/* ---- the command ---- */

static char *complete(const Session *s, const char *line, bool *files)
{
	CmdCandidates c;
	const char *word = strrchr(line, ' ') + 1;
	StrBuf sb;
	commands_complete(s, line, (size_t)(word - line), word, &c);
	strbuf_init(&sb);
	for (size_t i = 0; i < c.count; i++)
		strbuf_printf(&sb, "%s%s", i ? " " : "", c.items[i]);
	*files = c.files;
	cmd_candidates_free(&c);
	return strbuf_detach(&sb);
}

static void test_completion(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", 0, true);
	bool files;
	char *got;
	(void)state;
	got = complete(s, "render g.svg --phase c", &files);
	assert_string_equal(got, "check core");
	free(got);
	got = complete(s, "render g.svg --phase ", &files);
	assert_string_equal(got, "check core infer parse rewrite");
	free(got);
	got = complete(s, "render --f", &files);
	assert_string_equal(got, "--focus --force");
	free(got);
	got = complete(s, "render g.svg --focus %", &files);
	assert_string_equal(got, "%0 %1 %2 %3 %a %b %c");
	free(got);
	got = complete(s, "render ", &files);
	assert_string_equal(got, "");
	assert_true(files);
	free(got);
	release(s);
}

static void test_render_command(void **state)
{
	Session *s = planned("shared_input.relay", "cpu:0", "copy", 2, true);
	char *dir = temp_dir(), *line, *out, *err;
	(void)state;
	line = xasprintf("render %s/x.svg --phase parse", dir);
	assert_int_equal(run_command(s, line, &out, &err), 0);
	assert_non_null(strstr(out, "(svg): 7 nodes, 7 edges, 1 conflicting use, 1 weight folded"));
	assert_string_equal(err, "");
	free(out);
	free(err);
	free(line);
	assert_int_equal(run_command(s, "render - --phase core", &out, &err), 1);
	assert_string_equal(err, "error: phase 'core' has not run yet; use 'step'\n");
	free(out);
	free(err);
	assert_int_equal(run_command(s, "render - --depth 2", &out, &err), 1);
	assert_string_equal(err, "error: '--depth' needs '--focus %x' to say where to start\n");
	free(out);
	free(err);
	assert_int_equal(run_command(s, "render - --focus %b --depth x", &out, &err), 1);
	assert_string_equal(err, "error: '--depth' needs a number of edges, not 'x'\n");
	free(out);
	free(err);
	assert_int_equal(run_command(s, "render - --focus %b --depth 1", &out, &err), 0);
	assert_non_null(strstr(out, "digraph devplan {"));
	assert_non_null(
		strstr(out, "label=\"shared_input.relay after check\\nwithin 1 edge of %b\""));
	free(out);
	free(err);
	remove_dir(dir);
	release(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_input_after_check),
		cmocka_unit_test(test_shared_input_after_core),
		cmocka_unit_test(test_conflict_under_error_policy),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_regions_across_copies),
		cmocka_unit_test(test_focus_and_depth),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_large_modules),
		cmocka_unit_test(test_overview_of_a_shared_value),
		cmocka_unit_test(test_overview_limits),
		cmocka_unit_test(test_layout_limits),
		cmocka_unit_test(test_png_fits_or_is_refused),
		cmocka_unit_test(test_graphviz_warnings_are_reported),
		cmocka_unit_test(test_closures_and_globals),
		cmocka_unit_test(test_folding),
		cmocka_unit_test(test_overview),
		cmocka_unit_test(test_focus_highlight),
		cmocka_unit_test(test_tooltips),
		cmocka_unit_test(test_uncopied_operands),
		cmocka_unit_test(test_golden_dot),
		cmocka_unit_test(test_core_in_progress),
		cmocka_unit_test(test_formats_and_atomic_writes),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_dot_is_deterministic),
		cmocka_unit_test(test_completion),
		cmocka_unit_test(test_render_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
