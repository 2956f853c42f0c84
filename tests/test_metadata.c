/*
 * test_metadata.c - the #[metadata] section survives load -> plan -> print.
 *
 * A module loaded with a section prints it back (print_module with
 * show_metadata) so that every `meta[KEY][i]` of the printed text is valid:
 *   - unchanged (no device added, the constants as loaded), byte for byte as
 *     written: TVM's own sections (tests/data/models/realworld, the small
 *     one) and tests/golden/roundtrip/metadata_objects.relay, the whole
 *     text equal to the source's without its comments;
 *   - after planning added a device, or the replicate policy a constant,
 *     with every object devplan does not read (a tir.IndexMap, a Target, a
 *     Map) still there under its key and index with the same content, the
 *     text loading again with every reference resolved and the same
 *     devices and constants.
 * An object's content is compared as a graph read from the JSON here, with
 * its own reader (json-c), not devplan's: the type keys, strings, keys and
 * attributes of every node it reaches, whatever their indices.
 */
#include <dirent.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "print.h"
#include "session.h"

#define GOLDEN DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip/metadata_objects.relay"

static char *print_meta(const IrModule *m, const DeviceTable *devices)
{
	StrBuf sb;
	PrintOptions opts = {.devices = devices, .show_metadata = true};
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	return strbuf_detach(&sb);
}

/* Loads text into s through a temporary file and runs `phases` phases; the
 * module then, or NULL (the diagnostics printed). */
static IrModule *load_text(Session *s, const char *text, size_t phases)
{
	char path[] = "/tmp/devplan-metadata-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	IrModule *m = NULL;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	if (session_load(s, path) && session_step(s, phases))
		m = session_current(s);
	else
		diag_print_all(stderr, &s->diags);
	unlink(path);
	return m;
}

static char *read_text(const char *path)
{
	char *err = NULL, *text;
	SourceFile *src = source_read(path, &err);
	assert_non_null(src);
	text = xasprintf("%s", src->text);
	source_release(src);
	return text;
}

/* The text without its block comments: each with the space before it, or
 * with the newline after it when it starts a line. */
static char *strip_comments(const char *text)
{
	StrBuf sb;
	bool line_start = true;
	strbuf_init(&sb);
	while (*text) {
		const char *start =
			text[0] == ' ' && text[1] == '/' && text[2] == '*' ? text + 1 : text;
		if (start[0] == '/' && start[1] == '*') {
			const char *end = strstr(start + 2, "*/");
			assert_non_null(end);
			text = end + 2;
			if (line_start && *text == '\n')
				text++;
			continue;
		}
		line_start = *text == '\n';
		strbuf_append(&sb, text, 1);
		text++;
	}
	return strbuf_detach(&sb);
}

/* ---- The object graph, read here ---------------------------------------- */

static json_object *section_of(const char *text)
{
	const char *meta = strstr(text, "\n#[metadata]");
	json_object *root;
	assert_non_null(meta);
	root = json_tokener_parse(meta + strlen("\n#[metadata]"));
	assert_non_null(root);
	return root;
}

static json_object *nodes_of(json_object *section)
{
	json_object *nodes;
	assert_true(json_object_object_get_ex(section, "nodes", &nodes));
	return nodes;
}

static const char *str_field(json_object *node, const char *name)
{
	json_object *v;
	return json_object_object_get_ex(node, name, &v) ? json_object_get_string(v) : NULL;
}

/* The node meta[key][i] names, or -1 when the root has no such entry. */
static int64_t meta_entry(json_object *section, const char *key, size_t i)
{
	json_object *nodes = nodes_of(section), *root, *keys, *data, *v, *array, *items;
	assert_true(json_object_object_get_ex(section, "root", &v));
	root = json_object_array_get_idx(nodes, (size_t)json_object_get_int64(v));
	assert_string_equal(str_field(root, "type_key"), "Map");
	assert_true(json_object_object_get_ex(root, "keys", &keys));
	assert_true(json_object_object_get_ex(root, "data", &data));
	for (size_t k = 0; k < json_object_array_length(keys); k++) {
		if (strcmp(json_object_get_string(json_object_array_get_idx(keys, k)), key) != 0)
			continue;
		array = json_object_array_get_idx(
			nodes, (size_t)json_object_get_int64(json_object_array_get_idx(data, k)));
		assert_string_equal(str_field(array, "type_key"), "Array");
		if (!json_object_object_get_ex(array, "data", &items) ||
		    i >= json_object_array_length(items))
			return -1;
		return json_object_get_int64(json_object_array_get_idx(items, i));
	}
	return -1;
}

/* Attributes that hold a value, not a node index, in the objects here. */
static bool value_attr(const char *type_key, const char *name)
{
	static const char *const names[] = {"dtype", "value", "default_device_type",
					    "device_type_int", "virtual_device_id"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	/* a constant's data is an index into b64ndarrays */
	return strcmp(type_key, "relay.Constant") == 0 && strcmp(name, "data") == 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Node i and everything it reaches, written out without indices. */
static void canonical(StrBuf *out, json_object *nodes, int64_t i, int depth)
{
	json_object *node, *v;
	const char *type_key, *names[32];
	size_t nnames = 0;
	assert_true(depth < 64);
	assert_true(i >= 0 && (size_t)i < json_object_array_length(nodes));
	node = json_object_array_get_idx(nodes, (size_t)i);
	type_key = str_field(node, "type_key");
	assert_non_null(type_key);
	if (!*type_key) {
		strbuf_puts(out, "null");
		return;
	}
	strbuf_printf(out, "%s", type_key);
	if (str_field(node, "repr_str"))
		strbuf_printf(out, "'%s'", str_field(node, "repr_str"));
	if (json_object_object_get_ex(node, "attrs", &v)) {
		json_object *attrs = v;
		json_object_object_foreach(attrs, name, value)
		{
			(void)value;
			assert_true(nnames < 32);
			names[nnames++] = name;
		}
		qsort(names, nnames, sizeof *names, compare_names);
		strbuf_putc(out, '{');
		for (size_t k = 0; k < nnames; k++) {
			const char *s = str_field(attrs, names[k]);
			strbuf_printf(out, "%s%s=", k ? " " : "", names[k]);
			if (value_attr(type_key, names[k]))
				strbuf_puts(out, s);
			else
				canonical(out, nodes, strtoll(s, NULL, 10), depth + 1);
		}
		strbuf_putc(out, '}');
	}
	if (json_object_object_get_ex(node, "keys", &v))
		strbuf_printf(out, "keys%s", json_object_to_json_string(v));
	if (json_object_object_get_ex(node, "data", &v)) {
		strbuf_putc(out, '[');
		for (size_t k = 0; k < json_object_array_length(v); k++) {
			strbuf_puts(out, k ? ", " : "");
			canonical(out, nodes,
				  json_object_get_int64(json_object_array_get_idx(v, k)),
				  depth + 1);
		}
		strbuf_putc(out, ']');
	}
}

/* meta[key][i] has the same content in both sections. */
static void assert_same_object(json_object *a, json_object *b, const char *key, size_t i)
{
	int64_t ia = meta_entry(a, key, i), ib = meta_entry(b, key, i);
	StrBuf ca, cb;
	if (ia < 0 || ib < 0) {
		print_error("meta[%s][%zu] is missing: %lld, %lld\n", key, i, (long long)ia,
			    (long long)ib);
		fail();
	}
	strbuf_init(&ca);
	strbuf_init(&cb);
	canonical(&ca, nodes_of(a), ia, 0);
	canonical(&cb, nodes_of(b), ib, 0);
	assert_true(ca.len > 20); /* it is an object, not null */
	assert_string_equal(ca.data, cb.data);
	strbuf_free(&ca);
	strbuf_free(&cb);
}

static size_t entries(json_object *section, const char *key)
{
	size_t n = 0;
	while (meta_entry(section, key, n) >= 0)
		n++;
	return n;
}

/* ---- Tests -------------------------------------------------------------- */

/* Planning puts the result on cpu:0, which the golden section (cuda:0 only)
 * does not hold: the printed section appends it and keeps the rest. */
static void test_unknown_objects_survive_planning(void **state)
{
	static const struct {
		const char *key;
		size_t count;
	} unknown[] = {{"tir.IndexMap", 2}, {"Target", 1}, {"Map", 1}};
	Session s, again;
	IrModule *m, *back;
	char *source = read_text(GOLDEN), *text, *text2;
	json_object *before, *after;
	const Expr *fn, *fn_back;
	(void)state;
	session_init(&s);
	assert_true(session_load(&s, GOLDEN));
	assert_true(session_step(&s, pipeline_count));
	m = session_current(&s);
	text = print_meta(m, &s.devices);
	/* the section's own device keeps its number, cpu:0 comes after it */
	assert_non_null(strstr(text, "%x {virtual_device=meta[VirtualDevice][0]}"));
	assert_non_null(strstr(text, "dst_virtual_device=meta[VirtualDevice][1]"));
	assert_null(strstr(text, "meta[VirtualDevice][2]"));

	before = section_of(source);
	after = section_of(text);
	for (size_t k = 0; k < sizeof unknown / sizeof *unknown; k++) {
		assert_int_equal(entries(after, unknown[k].key), unknown[k].count);
		for (size_t i = 0; i < unknown[k].count; i++)
			assert_same_object(before, after, unknown[k].key, i);
	}
	assert_same_object(before, after, "VirtualDevice", 0);
	assert_same_object(before, after, "relay.Constant", 0);
	assert_int_equal(entries(after, "VirtualDevice"), 2);
	assert_string_equal(
		str_field(json_object_object_get(
				  json_object_array_get_idx(
					  nodes_of(after),
					  (size_t)meta_entry(after, "VirtualDevice", 1)),
				  "attrs"),
			  "device_type_int"),
		"1");

	/* the text loads again, every reference resolved, the same devices */
	session_init(&again);
	back = load_text(&again, text, 0);
	assert_non_null(back);
	fn = m->globals[ir_find_global(m, "main")].fn;
	fn_back = back->globals[ir_find_global(back, "main")].fn;
	assert_int_equal(fn_back->device, fn->device);
	assert_int_equal(fn->device, devices_find_name(&s.devices, "cpu:0"));
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		assert_int_equal(fn_back->u.fn.params[i]->device, fn->u.fn.params[i]->device);
	assert_int_equal(back->nconstants, 1);
	/* and prints as it was printed: its section is now the one it has */
	text2 = print_meta(back, &again.devices);
	assert_string_equal(text2, text);

	json_object_put(before);
	json_object_put(after);
	free(text2);
	free(text);
	free(source);
	session_free(&again);
	session_free(&s);
}

/* A module printed as loaded reproduces its section byte for byte, and its
 * whole text but the comments. */
static void check_prints_as_written(const char *path)
{
	Session s;
	char *source = read_text(path), *text, *want, *got;
	const char *section;
	session_init(&s);
	if (!session_load(&s, path)) {
		diag_print_all(stderr, &s.diags);
		fail();
	}
	text = print_meta(session_current(&s), &s.devices);
	section = strstr(source, "\n#[metadata]");
	assert_non_null(section);
	/* the printer ends its output with a newline; TVM's astext does not */
	want = xasprintf("%s%s", section, source[strlen(source) - 1] == '\n' ? "" : "\n");
	got = strstr(text, "\n#[metadata]");
	if (!got || strcmp(got, want) != 0) {
		print_error("%s: the section does not print as written\n", path);
		fail();
	}
	free(want);
	want = strip_comments(source);
	got = strip_comments(text);
	want[strlen(want) - (want[strlen(want) - 1] == '\n')] = '\0';
	got[strlen(got) - 1] = '\0';
	if (strcmp(want, got) != 0) {
		print_error("%s does not print as written\n", path);
		fail();
	}
	free(want);
	free(got);
	free(text);
	free(source);
	session_free(&s);
}

static void test_unchanged_sections_print_as_written(void **state)
{
	const char *dir = DEVPLAN_DATA_DIR "/models/realworld";
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t n = 0;
	(void)state;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		char *path;
		if (len <= 6 || strcmp(ent->d_name + len - 6, ".relay") != 0)
			continue;
		path = xasprintf("%s/%s", dir, ent->d_name);
		check_prints_as_written(path);
		free(path);
		n++;
	}
	closedir(d);
	assert_true(n >= 3);
	check_prints_as_written(DEVPLAN_DATA_DIR "/models/metadata_small.relay");
	check_prints_as_written(GOLDEN);
	check_prints_as_written(DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip/arange_meta.relay");
}

/* A section: a Target, cuda:0, and one constant of 4 floats (1, 2, 3, 4). */
#define SMALL_SECTION                                                                              \
	"#[metadata]\n"                                                                            \
	"{\n"                                                                                      \
	"  \"root\": 1,\n"                                                                         \
	"  \"nodes\": [\n"                                                                         \
	"    {\"type_key\": \"\"},\n"                                                              \
	"    {\"type_key\": \"Map\", \"keys\": [\"Target\", \"VirtualDevice\", "                   \
	"\"relay.Constant\"], \"data\": [2, 9, 12]},\n"                                            \
	"    {\"type_key\": \"Array\", \"data\": [3]},\n"                                          \
	"    {\"type_key\": \"Target\", \"attrs\": {\"attrs\": \"7\", \"features\": \"7\", "       \
	"\"host\": \"0\", \"keys\": \"6\", \"kind\": \"4\", \"tag\": \"8\"}},\n"                   \
	"    {\"type_key\": \"TargetKind\", \"attrs\": {\"default_device_type\": \"1\", "          \
	"\"default_keys\": \"6\", \"name\": \"5\"}},\n"                                            \
	"    {\"type_key\": \"runtime.String\", \"repr_str\": \"llvm\"},\n"                        \
	"    {\"type_key\": \"Array\"},\n"                                                         \
	"    {\"type_key\": \"Map\"},\n"                                                           \
	"    {\"type_key\": \"runtime.String\"},\n"                                                \
	"    {\"type_key\": \"Array\", \"data\": [10]},\n"                                         \
	"    {\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"2\", "           \
	"\"memory_scope\": \"8\", \"target\": \"0\", \"virtual_device_id\": \"0\"}},\n"            \
	"    {\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"-1\", "          \
	"\"memory_scope\": \"8\", \"target\": \"0\", \"virtual_device_id\": \"-1\"}},\n"           \
	"    {\"type_key\": \"Array\", \"data\": [13]},\n"                                         \
	"    {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"0\", "           \
	"\"data\": \"0\", \"span\": \"0\", \"virtual_device_\": \"11\"}}\n"                        \
	"  ],\n"                                                                                   \
	"  \"b64ndarrays\": "                                                                      \
	"[\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQAEAAAAAAAAABAAAAAAAAAAAACAPwAAAEAAAEBAAACAQ" \
	"A="                                                                                       \
	"=\"],\n"                                                                                  \
	"  \"attrs\": {\"tvm_version\": \"0.14.0\"}\n"                                             \
	"}\n"

/* The replicate policy gives a constant used on two devices a copy, a new
 * meta[relay.Constant][1]: the section appends it (a new relay.Constant
 * and b64ndarray) and keeps the Target. */
static void test_a_new_constant_keeps_the_rest(void **state)
{
	static const char source[] =
		"#[version = \"0.0.5\"]\n"
		"def @lowered(%p: Tensor[(4), float32], target=meta[Target][0]) -> Tensor[(4), "
		"float32] {\n"
		"  negative(%p)\n"
		"}\n\n"
		"def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {\n"
		"  %0 = add(%x, meta[relay.Constant][0]);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], "
		"constrain_result=True);\n"
		"  %2 = multiply(%x, meta[relay.Constant][0]);\n"
		"  %3 = on_device(%2, virtual_device=\"cpu:0\", constrain_result=True);\n"
		"  subtract(%1, %3)\n"
		"}\n\n" SMALL_SECTION;
	Session s, again;
	IrModule *m, *back;
	char *text;
	json_object *before, *after, *arrays;
	int i = session_setting_find("policy");
	bool reset;
	char *err = NULL;
	(void)state;
	session_init(&s);
	assert_true(i >= 0);
	assert_true(session_setting_set(&s, i, "replicate", &reset, &err));
	m = load_text(&s, source, pipeline_count);
	assert_non_null(m);
	assert_int_equal(m->nconstants, 2);
	text = print_meta(m, &s.devices);
	assert_non_null(strstr(text, "meta[relay.Constant][1]"));
	before = section_of(source);
	after = section_of(text);
	assert_same_object(before, after, "Target", 0);
	assert_same_object(before, after, "relay.Constant", 0);
	assert_int_equal(entries(after, "relay.Constant"), 2);
	assert_true(json_object_object_get_ex(after, "b64ndarrays", &arrays));
	assert_int_equal(json_object_array_length(arrays), 2);

	session_init(&again);
	back = load_text(&again, text, 0);
	assert_non_null(back);
	assert_int_equal(back->nconstants, 2);
	for (uint32_t c = 0; c < 2; c++) {
		const Tensor *a = &m->constants[c]->u.constant.tensor;
		const Tensor *b = &back->constants[c]->u.constant.tensor;
		assert_int_equal(a->nbytes, b->nbytes);
		assert_memory_equal(a->data, b->data, a->nbytes);
	}
	json_object_put(before);
	json_object_put(after);
	free(text);
	session_free(&again);
	session_free(&s);
}

/* A section without VirtualDevice entries: meta[VirtualDevice][1] indexes
 * the device table (cuda:0) when loaded; printed with the section, the
 * device becomes its first entry, which the section now holds. */
static void test_a_section_without_devices_gains_them(void **state)
{
	static const char source[] =
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(4), float32], target=meta[Target][0]) -> Tensor[(4), "
		"float32] {\n"
		"  %0 = negative(%x);\n"
		"  on_device(%0, virtual_device=meta[VirtualDevice][1])\n"
		"}\n\n"
		"#[metadata]\n"
		"{\n"
		"  \"root\": 1,\n"
		"  \"nodes\": [\n"
		"    {\"type_key\": \"\"},\n"
		"    {\"type_key\": \"Map\", \"keys\": [\"Target\"], \"data\": [2]},\n"
		"    {\"type_key\": \"Array\", \"data\": [3]},\n"
		"    {\"type_key\": \"Target\", \"attrs\": {\"attrs\": \"7\", \"features\": \"7\", "
		"\"host\": \"0\", \"keys\": \"6\", \"kind\": \"4\", \"tag\": \"8\"}},\n"
		"    {\"type_key\": \"TargetKind\", \"attrs\": {\"default_device_type\": \"1\", "
		"\"default_keys\": \"6\", \"name\": \"5\"}},\n"
		"    {\"type_key\": \"runtime.String\", \"repr_str\": \"llvm\"},\n"
		"    {\"type_key\": \"Array\"},\n"
		"    {\"type_key\": \"Map\"},\n"
		"    {\"type_key\": \"runtime.String\"}\n"
		"  ],\n"
		"  \"b64ndarrays\": [],\n"
		"  \"attrs\": {\"tvm_version\": \"0.14.0\"}\n"
		"}\n";
	Session s, again;
	IrModule *m, *back;
	char *text;
	json_object *before, *after;
	const Expr *body;
	(void)state;
	session_init(&s);
	m = load_text(&s, source, 0);
	assert_non_null(m);
	text = print_meta(m, &s.devices);
	assert_non_null(strstr(text, "virtual_device=meta[VirtualDevice][0])"));
	before = section_of(source);
	after = section_of(text);
	assert_same_object(before, after, "Target", 0);
	assert_int_equal(entries(after, "VirtualDevice"), 1);
	session_init(&again);
	back = load_text(&again, text, 0);
	assert_non_null(back);
	body = back->globals[0].fn->u.fn.body;
	assert_int_equal(ir_attr(body, "virtual_device")->value.u.device,
			 devices_find_name(&again.devices, "cuda:0"));
	json_object_put(before);
	json_object_put(after);
	free(text);
	session_free(&again);
	session_free(&s);
}

/* The memory scope meta[VirtualDevice][i] has in a section, read here:
 * the repr_str of the runtime.String its memory_scope names ("" for none). */
static const char *device_scope(json_object *section, size_t i)
{
	json_object *nodes = nodes_of(section), *device, *attrs, *string;
	int64_t at = meta_entry(section, "VirtualDevice", i);
	const char *scope;
	assert_true(at >= 0);
	device = json_object_array_get_idx(nodes, (size_t)at);
	assert_string_equal(str_field(device, "type_key"), "VirtualDevice");
	assert_true(json_object_object_get_ex(device, "attrs", &attrs));
	scope = str_field(attrs, "memory_scope");
	assert_non_null(scope);
	string = json_object_array_get_idx(nodes, (size_t)strtoll(scope, NULL, 10));
	assert_string_equal(str_field(string, "type_key"), "runtime.String");
	scope = str_field(string, "repr_str");
	return scope ? scope : "";
}

/* The module as `save` writes it: with a section, a fresh one holding the
 * session's table when it has none of its own. */
static char *save_text(Session *s, const IrModule *m)
{
	StrBuf sb;
	strbuf_init(&sb);
	session_print_module(s, m, true, &sb);
	return strbuf_detach(&sb);
}

/* The placement lines of the planned module of s; with binds false, only
 * its parameters, results and copies (a planned module printed and planned
 * again names the on_device calls its capture wrote, which bind values of
 * their own). */
static char *placement_facts(Session *s, bool binds)
{
	Placement p;
	StrBuf sb;
	strbuf_init(&sb);
	plan_placement(session_current(s), &p);
	for (size_t i = 0; i < p.count; i++) {
		if (!binds && p.facts[i].kind == FACT_BIND)
			continue;
		plan_fact_format(&sb, &p.facts[i], &s->devices);
		strbuf_putc(&sb, '\n');
	}
	plan_placement_free(&p);
	return strbuf_detach(&sb);
}

static char *placement_of(Session *s)
{
	return placement_facts(s, true);
}

static void set_fallback(Session *s, const char *device)
{
	bool reset;
	char *err = NULL;
	assert_true(session_setting_set(s, session_setting_find("fallback"), device, &reset, &err));
}

/* Memory scopes survive a fresh section: a session whose table has
 * cpu:0:scopeA and cuda:0:global.texture plans a module that names them by
 * table index and saves it (the section holds every entry of the table,
 * each with its memory_scope as TVM writes it); a session with the default
 * table loads that text (the scopes join its table in the section's
 * order), plans it to the same placement and saves the same text. */
/* facts without its `bind` lines, in place */
static char *strip_binds(char *facts)
{
	char *out = facts;
	for (char *line = facts; *line;) {
		char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
		if (!strstr(line, " bind ") || (end && strstr(line, " bind ") > end)) {
			memmove(out, line, n);
			out += n;
		}
		line += n;
	}
	*out = 0;
	return facts;
}

static void test_scopes_round_trip(void **state)
{
	static const char source[] =
		"#[version = \"0.0.5\"]\n"
		"def @main(%x {virtual_device=meta[VirtualDevice][0]}: Tensor[(4), float32], "
		"%y: Tensor[(4), float32]) {\n"
		"  %0 = negative(%x);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][2]);\n"
		"  %2 = exp(%y);\n"
		"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][3], "
		"constrain_result=True);\n"
		"  add(%1, %3)\n"
		"}\n";
	Session s, again;
	IrModule *m, *back;
	char *text, *text_again, *facts, *facts_again, *err = NULL;
	json_object *section;
	(void)state;
	session_init(&s);
	assert_int_equal(devices_add(&s.devices, "cpu:0:scopeA", NULL, &err), 2);
	assert_int_equal(devices_add(&s.devices, "cuda:0:global.texture", NULL, &err), 3);
	m = load_text(&s, source, pipeline_count);
	assert_non_null(m);
	facts = placement_of(&s);
	/* %x on cpu:0, no scope, joins the negative's scopeA */
	assert_non_null(strstr(facts, "@main param %x cpu:0:scopeA\n"));
	assert_non_null(strstr(facts, "@main copy %0 cpu:0:scopeA -> cuda:0:global.texture 16\n"));
	text = save_text(&s, m);
	section = section_of(text);
	assert_int_equal(entries(section, "VirtualDevice"), 4);
	assert_string_equal(device_scope(section, 0), "");
	assert_string_equal(device_scope(section, 1), "");
	assert_string_equal(device_scope(section, 2), "scopeA");
	assert_string_equal(device_scope(section, 3), "global.texture");
	json_object_put(section);

	session_init(&again);
	back = load_text(&again, text, pipeline_count);
	assert_non_null(back);
	assert_int_equal(again.devices.count, 4);
	assert_string_equal(again.devices.items[2].name, "cpu:0:scopeA");
	assert_string_equal(again.devices.items[3].name, "cuda:0:global.texture");
	facts_again = placement_of(&again);
	/* the same facts, but the bindings: planning took out %1's and %3's
	 * on_device calls (names the saved text cannot hold), and the printer
	 * named each binding it wrote */
	assert_string_equal(strip_binds(facts_again), strip_binds(facts));
	text_again = save_text(&again, back);
	assert_string_equal(text_again, text);
	free(facts);
	free(facts_again);
	free(text);
	free(text_again);
	session_free(&again);
	session_free(&s);
}

/* A kept section whose entries have memory scopes (test_free_on_device's):
 * a planned module that adds no device prints it as written; one that adds
 * a scope of a device the section lacks (a pin to cuda:0:global.texture,
 * which the table gained by `target add`) appends that device with its
 * scope, and the text alone plans again to the same placement. */
static void test_scopes_in_a_kept_section(void **state)
{
	char *source = read_text(DEVPLAN_SOURCE_DIR "/tests/plan_cases/free_on_device.relay");
	Session s, again;
	IrModule *m;
	char *text, *facts, *facts_again, *err = NULL;
	json_object *section;
	(void)state;
	session_init(&s);
	set_fallback(&s, "cuda:0");
	m = load_text(&s, source, pipeline_count);
	assert_non_null(m);
	text = print_meta(m, &s.devices);
	assert_non_null(strstr(source, strstr(text, "\n#[metadata]") + 1));
	free(text);
	session_free(&s);

	/* the sum pinned into the texture of cuda:0, a device the section lacks */
	session_init(&s);
	set_fallback(&s, "cuda:0");
	assert_int_equal(devices_add(&s.devices, "cuda:0:global.texture", NULL, &err), 2);
	assert_non_null(load_text(&s, source, 0));
	session_pin(&s, &(PlanPin){.name = "3", .device = 2});
	assert_true(session_step(&s, pipeline_count));
	facts = placement_of(&s);
	assert_non_null(strstr(facts, "@main bind %3 cuda:0:global.texture\n"));
	free(facts);
	facts = placement_facts(&s, false);
	text = print_meta(session_current(&s), &s.devices);
	section = section_of(text);
	assert_int_equal(entries(section, "VirtualDevice"), 4);
	assert_string_equal(device_scope(section, 1), "scopeA");
	assert_string_equal(device_scope(section, 2), "scopeB");
	assert_string_equal(device_scope(section, 3), "global.texture");
	json_object_put(section);
	/* planned again from the text alone: the same facts */
	session_init(&again);
	set_fallback(&again, "cuda:0");
	assert_non_null(load_text(&again, text, pipeline_count));
	facts_again = placement_facts(&again, false);
	assert_string_equal(facts_again, facts);
	free(facts);
	free(facts_again);
	free(text);
	free(source);
	session_free(&again);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_objects_survive_planning),
		cmocka_unit_test(test_unchanged_sections_print_as_written),
		cmocka_unit_test(test_a_new_constant_keeps_the_rest),
		cmocka_unit_test(test_a_section_without_devices_gains_them),
		cmocka_unit_test(test_scopes_round_trip),
		cmocka_unit_test(test_scopes_in_a_kept_section),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
