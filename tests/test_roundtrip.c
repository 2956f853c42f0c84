/*
 * test_roundtrip.c - [P1] in meaning, not only in text: parse(print(m))
 * equals m.
 *
 * test_printer checks print(parse(print(m))) == print(m), which a printer
 * that always drops the same attribute passes. Here every module devplan's
 * tests hold (tests/data's models, cases, planning cases, golden and
 * transcript modules, TVM's parser and printer texts of tests/tvm_parser,
 * and tests/golden/roundtrip/, FAMILY.relay per operator family of ops.def
 * (tests/op-families checks the names) and a module per part of the
 * language no family owns, with every
 * attribute away from its default) is
 *   - loaded and inferred (m), printed, the text loaded and inferred again
 *     (m'), and m and m' compared node by node by ir_equal_modules
 *     (core/ir/ir_equal.h, which `diff --module` uses too): the same kinds,
 *     operators, attribute names and values in order, constants' bytes,
 *     written and inferred types, the device TVM reads off the text for
 *     every node, and the same sharing (a node used twice in m is one node
 *     used twice in m');
 *   - planned, printed, and the planned text loaded again and compared the
 *     same way (without types, which the parser does not read back).
 * Names are not compared: the printer names what the source left unnamed.
 * A module that does not load is skipped with a line saying so (the
 * transcripts hold broken modules on purpose); the test fails when too few
 * load, so it cannot pass vacuously, and when one of tests/golden/roundtrip/
 * does not. tests/golden/roundtrip/untyped/ holds attribute values devplan's
 * relations do not type yet (layouts): compared as loaded, without types.
 *
 * test_every_operator_and_attribute checks that those modules call every
 * operator of ops.def with every attribute of its schema away from TVM's
 * default at least once, so
 * a new operator or attribute fails it until a module uses it, and with
 * the attributes in the schema's order (TVM's field order, as TVM prints
 * them); test_modules_print_back_as_written that each module prints back
 * byte for byte.
 *
 * Spans: the comparison includes each node's source span (ir_span), so
 * every module above that has them (the realworld ones, golden/spans/) keeps
 * them through print and parse, planned too; test_spans_print_back_as_written
 * checks that TVM's realworld dumps and spans.relay print back byte for
 * byte, spans and types included, after infer (and, without the types,
 * as loaded); test_spans_survive_planning that every phase keeps the span
 * of every node it keeps, and what the inserted annotations carry.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <glob.h>

#include "ir_equal.h"
#include "parse.h"
#include "print.h"
#include "session.h"

/* m and m' compared by the library's structural comparison (ir_equal.h),
 * as strictly as it goes: attributes as written, types when asked, source
 * spans, and the devices TVM reads off each text. */
static bool same_module(const IrModule *a, const DeviceTable *da, const IrModule *b,
			const DeviceTable *db, bool types, const char *where, char *why,
			size_t why_len)
{
	IrEqualOptions opts = {.devices_a = da,
			       .devices_b = db,
			       .types = types,
			       .spans = true,
			       .annotations = true,
			       .attrs_as_written = true,
			       .free_var_names = true};
	IrDifference d;
	if (ir_equal_modules(a, b, &opts, &d))
		return true;
	snprintf(why, why_len, "%s:%u:%u: %s%s%s", where, d.pos_a.line, d.pos_a.col,
		 d.global ? "in @" : "", d.global ? d.global : "", d.global ? ": " : "");
	snprintf(why + strlen(why), why_len - strlen(why), "%s", d.what);
	return false;
}

static char *print_text(const IrModule *m, const DeviceTable *devices)
{
	StrBuf sb;
	PrintOptions opts = {.devices = devices, .show_metadata = true};
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	return strbuf_detach(&sb);
}

/* Loads text into s (through a temporary file, as a user would) and runs
 * `phases` phases; the module then, or NULL. */
static IrModule *load_text(Session *s, const char *text, size_t phases)
{
	char path[] = "/tmp/devplan-roundtrip-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	IrModule *m = NULL;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	if (session_load(s, path) && session_step(s, phases))
		m = session_current(s);
	unlink(path);
	return m;
}

typedef struct Tally {
	size_t checked, skipped;
} Tally;

/* m (after `phases` phases, types compared when infer ran) against its
 * printed text loaded again and taken as far. */
static void check_stage(const char *file, Session *s, size_t phases, bool types)
{
	IrModule *m;
	char *text, why[600];
	Session again;
	if (!session_step(s, phases))
		return;
	m = session_current(s);
	text = print_text(m, &s->devices);
	session_init(&again);
	again.settings = s->settings;
	for (uint32_t d = again.devices.count; d < s->devices.count; d++) {
		char *err = NULL;
		assert_true(devices_add(&again.devices, s->devices.items[d].name,
					s->devices.items[d].target, &err) >= 0);
	}
	{
		/* a planned module is read back as written: no phase again */
		IrModule *back = load_text(&again, text, types ? phases : 0);
		if (!back) {
			diag_print_all(stderr, &again.diags);
			fprintf(stderr, "%s: the printed module does not load again:\n%s", file,
				text);
			fail();
		}
		if (!same_module(m, &s->devices, back, &again.devices, types, file, why,
				 sizeof why)) {
			fprintf(stderr, "%s: parse(print(m)) differs from m after %zu phases: %s\n",
				file, phases, why);
			fail();
		}
	}
	session_free(&again);
	free(text);
}

/* A module of tests/golden/roundtrip/untyped/: attribute values devplan
 * parses and prints but whose type relation it does not have (a layout
 * other than the one devplan's relation supports); compared as loaded,
 * without types. */
static void check_untyped_file(const char *path, Tally *t)
{
	Session s;
	session_init(&s);
	if (!session_load(&s, path)) {
		diag_print_all(stderr, &s.diags);
		t->skipped++;
		session_free(&s);
		return;
	}
	check_stage(path, &s, 0, false);
	t->checked++;
	session_free(&s);
}

static void check_file(const char *path, Tally *t)
{
	Session s;
	size_t infer = (size_t)pipeline_find("infer") + 1;
	session_init(&s);
	if (!session_load(&s, path) || !session_step(&s, infer)) {
		t->skipped++;
		session_free(&s);
		return;
	}
	check_stage(path, &s, infer, true);
	check_stage(path, &s, pipeline_count, false);
	t->checked++;
	session_free(&s);
}

static void check_dir(const char *dir, Tally *t)
{
	size_t skipped = t->skipped;
	DIR *d = opendir(dir);
	struct dirent *ent;
	if (!d)
		return;
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		if (len > 6 && strcmp(ent->d_name + len - 6, ".relay") == 0) {
			char *path = xasprintf("%s/%s", dir, ent->d_name);
			if (strstr(dir, "/roundtrip/untyped"))
				check_untyped_file(path, t);
			else
				check_file(path, t);
			free(path);
		}
	}
	closedir(d);
	/* the per-family modules are there to be checked: none may be skipped */
	if (strstr(dir, "/golden/roundtrip") && t->skipped != skipped) {
		fprintf(stderr, "%s: %zu module(s) do not load or infer\n", dir,
			t->skipped - skipped);
		fail();
	}
}

static void test_every_module(void **state)
{
	static const char *const dirs[] = {
		DEVPLAN_DATA_DIR "/models",
		DEVPLAN_DATA_DIR "/models/realworld",
		DEVPLAN_DATA_DIR "/cases",
		DEVPLAN_SOURCE_DIR "/tests/plan_cases",
		DEVPLAN_SOURCE_DIR "/tests/tvm_plan_devices",
		DEVPLAN_SOURCE_DIR "/tests/golden/dot",
		DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip",
		DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip/untyped",
		DEVPLAN_SOURCE_DIR "/tests/golden/spans",
		DEVPLAN_SOURCE_DIR "/tests/transcripts",
		DEVPLAN_SOURCE_DIR "/tests/tvm_parser/parser",
		DEVPLAN_SOURCE_DIR "/tests/tvm_parser/printer",
		DEVPLAN_SOURCE_DIR "/tests/tvm_parser/std",
		DEVPLAN_SOURCE_DIR "/tests/tvm_parser/plan_devices",
		DEVPLAN_SOURCE_DIR "/scripts/examples",
	};
	Tally t = {0};
	(void)state;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		check_dir(dirs[i], &t);
	printf("round trip in meaning: %zu modules checked, %zu that do not load or infer "
	       "skipped\n",
	       t.checked, t.skipped);
	assert_true(t.checked >= 30);
}

/* The comparison itself finds a dropped attribute, which a text round
 * trip of the printed module cannot. */
static void test_detects_a_dropped_attribute(void **state)
{
	const char *text = "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, "
			   "3), float32]) {\n"
			   "  nn.conv2d(%x, %w, padding=[2, 2, 2, 2], dilation=[2, 2])\n"
			   "}\n";
	Session a, b;
	IrModule *ma, *mb;
	char why[600];
	Expr **by_id;
	(void)state;
	session_init(&a);
	session_init(&b);
	ma = load_text(&a, text, 0);
	mb = load_text(&b, text, 0);
	assert_non_null(ma);
	assert_non_null(mb);
	assert_true(same_module(ma, &a.devices, mb, &b.devices, false, "conv2d", why, sizeof why));
	by_id = ir_index_by_id(mb);
	for (uint32_t id = 0; id < mb->nexprs; id++)
		if (by_id[id] && ir_is_op(by_id[id], OP_CONV2D))
			by_id[id]->u.call.nattrs--; /* drop dilation */
	free(by_id);
	assert_false(same_module(ma, &a.devices, mb, &b.devices, false, "conv2d", why, sizeof why));
	assert_non_null(strstr(why, "dilation=[2,2] against no dilation"));
	session_free(&a);
	session_free(&b);
}

/* ---- coverage of the operators and their attributes ------------------------ */

/* Not None and not TVM's default (any value of an attribute without one). */
static bool is_non_default(OpKind op, const Attr *a)
{
	size_t len;
	const char *dflt;
	StrBuf sb;
	bool differs;
	if (a->value.kind == ATTR_NONE)
		return false;
	dflt = op_attr_default(op, a->name, &len);
	if (!dflt)
		return true;
	strbuf_init(&sb);
	ir_attr_value_compact(&sb, &a->value);
	differs = sb.len != len || memcmp(sb.data, dflt, len) != 0;
	strbuf_free(&sb);
	return differs;
}

typedef struct Coverage {
	bool called[OP_COUNT];
	/* attribute names seen away from the default, per op, as " name " */
	StrBuf seen[OP_COUNT];
} Coverage;

/* The place of attribute `name` in op's schema. */
static int schema_index(OpKind op, const char *name)
{
	int i = 0;
	for (const char *s = op_info(op)->schema; *s; s = op_schema_next(s), i++)
		if (strcspn(s, ":") == strlen(name) && strncmp(s, name, strlen(name)) == 0)
			return i;
	return -1;
}

/* Marks m's calls in cov; a call whose attributes are not in the schema's
 * order (TVM's field order, in which TVM prints them) goes to misordered. */
static void cover_module(Coverage *cov, const IrModule *m, const char *path, StrBuf *misordered)
{
	Expr **by_id = ir_index_by_id(m);
	for (uint32_t id = 0; id < m->nexprs; id++) {
		const Expr *e = by_id[id];
		OpKind op;
		int last = -1;
		if (!e || e->kind != EXPR_CALL || e->u.call.op >= OP_COUNT)
			continue;
		op = e->u.call.op;
		cov->called[op] = true;
		for (uint32_t i = 0; i < e->u.call.nattrs; i++) {
			int at = schema_index(op, e->u.call.attrs[i].name);
			if (at < last)
				strbuf_printf(misordered, "  %s:%u:%u: %s: %s after %s\n", path,
					      e->pos.line, e->pos.col, op_info(op)->name,
					      e->u.call.attrs[i].name, e->u.call.attrs[i - 1].name);
			last = at;
			if (is_non_default(op, &e->u.call.attrs[i]))
				strbuf_printf(&cov->seen[op], " %s ", e->u.call.attrs[i].name);
		}
	}
	free(by_id);
}

/* The operators and attributes no module of tests/golden/roundtrip/ uses,
 * one line each, into missing. */
static void list_uncovered(Coverage *cov, StrBuf *missing)
{
	for (int op = 0; op < OP_COUNT; op++) {
		const OpInfo *info = op_info((OpKind)op);
		if (!cov->called[op]) {
			strbuf_printf(missing, "  %s: called by no module\n", info->name);
			continue;
		}
		for (const char *s = info->schema; *s; s = op_schema_next(s)) {
			char *key = xasprintf(" %.*s ", (int)strcspn(s, ":"), s);
			if (!cov->seen[op].data || !strstr(cov->seen[op].data, key))
				strbuf_printf(missing,
					      "  %s: attribute %.*s never away from its default\n",
					      info->name, (int)strcspn(s, ":"), s);
			free(key);
		}
	}
}

/* Every operator of ops.def is called by a module of
 * tests/golden/roundtrip/ (or its untyped/), and every attribute of its
 * schema appears there at a value other than TVM's default (the `=default`
 * of ops.def), so that test_every_module round-trips each one. */
static size_t cover_dir(Coverage *cov, const char *dir, StrBuf *misordered)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t modules = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		if (len > 6 && strcmp(ent->d_name + len - 6, ".relay") == 0) {
			char *path = xasprintf("%s/%s", dir, ent->d_name);
			Session s;
			session_init(&s);
			if (!session_load(&s, path)) {
				diag_print_all(stderr, &s.diags);
				fail_msg("%s does not load", path);
			}
			cover_module(cov, session_current(&s), path, misordered);
			session_free(&s);
			free(path);
			modules++;
		}
	}
	closedir(d);
	return modules;
}

static void test_every_operator_and_attribute(void **state)
{
	Coverage *cov = xcalloc(1, sizeof *cov);
	StrBuf missing, misordered;
	size_t modules;
	(void)state;
	for (int op = 0; op < OP_COUNT; op++)
		strbuf_init(&cov->seen[op]);
	strbuf_init(&missing);
	strbuf_init(&misordered);
	modules = cover_dir(cov, DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip", &misordered) +
		  cover_dir(cov, DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip/untyped", &misordered);
	if (misordered.len)
		fprintf(stderr,
			"attributes out of TVM's field order (ops.def's schema order, in which "
			"TVM prints them):\n%s",
			misordered.data);
	list_uncovered(cov, &missing);
	if (missing.len)
		fprintf(stderr,
			"tests/golden/roundtrip/ (%zu modules) leaves uncovered:\n%s"
			"add a call with every attribute away from TVM's default to the module of "
			"the operator's family\n",
			modules, missing.data);
	assert_true(modules > 0);
	assert_int_equal(missing.len, 0);
	assert_int_equal(misordered.len, 0);
	strbuf_free(&missing);
	strbuf_free(&misordered);
	for (int op = 0; op < OP_COUNT; op++)
		strbuf_free(&cov->seen[op]);
	free(cov);
}

/* ---- the modules print back as written -------------------------------------- */

/* text without its comments (each with the newline after it). */
static char *strip_comments(const char *text)
{
	StrBuf sb;
	strbuf_init(&sb);
	while (*text) {
		if (text[0] == '/' && text[1] == '*') {
			const char *end = strstr(text + 2, "*/");
			assert_non_null(end);
			text = end + 2;
			if (*text == '\n')
				text++;
			continue;
		}
		strbuf_append(&sb, text, 1);
		text++;
	}
	return strbuf_detach(&sb);
}

static size_t print_back_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t modules = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		char *path, *want, *got, *err = NULL;
		SourceFile *src;
		Session s;
		if (len <= 6 || strcmp(ent->d_name + len - 6, ".relay") != 0)
			continue;
		path = xasprintf("%s/%s", dir, ent->d_name);
		src = source_read(path, &err);
		assert_non_null(src);
		want = strip_comments(src->text);
		session_init(&s);
		assert_true(session_load(&s, path));
		{
			/* comments on both sides: the printer writes the types it
			 * must keep (an operator whose type TVM printed) */
			char *printed = print_text(session_current(&s), &s.devices);
			got = strip_comments(printed);
			free(printed);
		}
		if (strcmp(want, got) != 0) {
			fprintf(stderr,
				"%s does not print back as written:\n---- written ----\n%s"
				"---- printed ----\n%s",
				path, want, got);
			fail();
		}
		free(got);
		free(want);
		session_free(&s);
		source_release(src);
		free(path);
		modules++;
	}
	closedir(d);
	return modules;
}

/* The per-family modules are written as devplan (and TVM) print them, so
 * every operator and attribute there prints back byte for byte: printing
 * what was loaded gives the file without its comments. */
static void test_modules_print_back_as_written(void **state)
{
	(void)state;
	assert_true(print_back_dir(DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip") +
			    print_back_dir(DEVPLAN_SOURCE_DIR "/tests/golden/roundtrip/untyped") >
		    1);
}

/* ---- Spans ------------------------------------------------------------ */

/* text without the `ty=T` of its comments, as devplan prints a module
 * before inference: `/ * ty=T span=S * /` keeps `span=S`, a comment with
 * only a type goes with the space before it. */
static char *strip_types(const char *text)
{
	StrBuf sb;
	strbuf_init(&sb);
	while (*text) {
		if (strncmp(text, " /* ty=", 7) == 0) {
			const char *end = strstr(text, "*/"), *span = strstr(text, " span=");
			assert_non_null(end);
			if (span && span < end) {
				strbuf_puts(&sb, " /*");
				strbuf_append(&sb, span, (size_t)(end + 2 - span));
			}
			text = end + 2;
			continue;
		}
		strbuf_append(&sb, text, 1);
		text++;
	}
	return strbuf_detach(&sb);
}

/* path's text is how devplan prints the module after infer, comments and
 * all, but perhaps for the final newline (TVM's dumps lack it); before
 * infer it prints the same without the types. */
static void check_prints_back_with_spans(const char *path)
{
	Session s;
	SourceFile *src;
	char *err = NULL, *want, *got;
	size_t infer = (size_t)pipeline_find("infer") + 1;
	PrintOptions opts = {.show_metadata = true};
	src = source_read(path, &err);
	assert_non_null(src);
	want = xasprintf("%s%s", src->text,
			 src->len && src->text[src->len - 1] == '\n' ? "" : "\n");
	assert_non_null(strstr(want, " span="));
	session_init(&s);
	assert_true(session_load(&s, path));
	opts.devices = &s.devices;
	for (int typed = 0; typed < 2; typed++) {
		char *expected = typed ? xasprintf("%s", want) : strip_types(want);
		StrBuf sb;
		if (typed)
			assert_true(session_step(&s, infer));
		opts.show_types = typed;
		strbuf_init(&sb);
		print_module(&sb, session_current(&s), &opts);
		got = strbuf_detach(&sb);
		if (strcmp(expected, got) != 0) {
			size_t i = 0, line = 1;
			while (expected[i] && expected[i] == got[i])
				line += expected[i++] == '\n';
			fprintf(stderr,
				"%s does not print back as written %s, from line %zu:\n"
				"---- written ----\n%.300s\n---- printed ----\n%.300s\n",
				path, typed ? "after infer" : "as loaded", line,
				expected + i - (i > 80 ? 80 : i), got + i - (i > 80 ? 80 : i));
			fail();
		}
		free(got);
		free(expected);
	}
	free(want);
	session_free(&s);
	source_release(src);
}

/* TVM 0.14's dumps of real models, spans on calls, constants and
 * on_device annotations, and spans.relay (every kind of expression TVM
 * gives a span, and the places devplan writes one) print back byte for
 * byte. */
static void test_spans_print_back_as_written(void **state)
{
	glob_t g;
	(void)state;
	assert_int_equal(glob(DEVPLAN_DATA_DIR "/models/realworld/*.relay", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 3);
	for (size_t i = 0; i < g.gl_pathc; i++)
		check_prints_back_with_spans(g.gl_pathv[i]);
	globfree(&g);
	check_prints_back_with_spans(DEVPLAN_SOURCE_DIR "/tests/golden/spans/spans.relay");
}

/* Planning with spans: the gpu-pinned add needs %x copied there and its
 * result copied back for the tuple on the cpu. */
static const char spans_planned_source[] =
	"#[version = \"0.0.5\"]\n"
	"def @main(%x: Tensor[(2), float32] /* span=X:1:1 */, %y: Tensor[(2), float32]) {\n"
	"  %0 = add(%x, %y) /* span=Add:2:3 */;\n"
	"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][1], constrain_result=True) "
	"/* span=Add:2:3 */;\n"
	"  %2 = (%1, %x) /* span=Tuple:3:3 */;\n"
	"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][0]) /* span=Tuple:3:3 */;\n"
	"  %4 = %3.0 /* span=Get:4:3 */;\n"
	"  negative(%4) /* span=Neg:5:3 */\n"
	"}\n";

static const char spans_planned_expected[] =
	"#[version = \"0.0.5\"]\n"
	"def @main(%x {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32] /* "
	"ty=Tensor[(2), float32] span=X:1:1 */, %y {virtual_device=meta[VirtualDevice][1]}: "
	"Tensor[(2), float32] /* ty=Tensor[(2), float32] */, "
	"virtual_device=meta[VirtualDevice][0]) -> Tensor[(2), float32] {\n"
	"  %5 = device_copy(%x, src_virtual_device=meta[VirtualDevice][0], "
	"dst_virtual_device=meta[VirtualDevice][1]) "
	"/* ty=Tensor[(2), float32] span=X:1:1 */;\n"
	"  %0 = add(%5, %y) /* ty=Tensor[(2), float32] span=Add:2:3 */;\n"
	"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][1], constrain_result=True) "
	"/* ty=Tensor[(2), float32] span=Add:2:3 */;\n"
	"  %6 = device_copy(%1, src_virtual_device=meta[VirtualDevice][1], "
	"dst_virtual_device=meta[VirtualDevice][0]) "
	"/* ty=Tensor[(2), float32] span=Add:2:3 */;\n"
	"  %2 = (%6, %x) /* ty=(Tensor[(2), float32], Tensor[(2), float32]) span=Tuple:3:3 */;\n"
	"  %4 = %2.0 /* ty=Tensor[(2), float32] span=Get:4:3 */;\n"
	"  negative(%4) /* ty=Tensor[(2), float32] span=Neg:5:3 */\n"
	"}\n";

/* Every phase keeps the span of every node it keeps (by id: a clone keeps
 * ids and positions), the annotations planning inserts carry the span of
 * the value they wrap (TVM's DeviceCopy and OnDevice), and the planned
 * module prints them. */
static void test_spans_survive_planning(void **state)
{
	Session s;
	IrModule *parsed, *planned;
	Expr **parsed_by_id;
	size_t checked = 0;
	char *text;
	StrBuf sb;
	PrintOptions opts = {.show_types = true};
	(void)state;
	session_init(&s);
	s.settings.fallback = 0;
	planned = load_text(&s, spans_planned_source, pipeline_count);
	if (!planned)
		diag_print_all(stderr, &s.diags);
	assert_non_null(planned);
	parsed = session_version(&s, -1);
	assert_non_null(parsed);
	parsed_by_id = ir_index_by_id(parsed);
	for (int phase = 0; phase < (int)pipeline_count; phase++) {
		IrModule *v = session_version(&s, phase);
		Expr **by_id;
		assert_non_null(v);
		assert_true(v->spans == parsed->spans);
		by_id = ir_index_by_id(v);
		for (uint32_t id = 0; id < parsed->nexprs; id++) {
			const Expr *was = parsed_by_id[id], *now = by_id[id];
			const char *span;
			if (!was || !now || was->kind != now->kind)
				continue; /* gone, or rebuilt in place (rewrite's wrapper) */
			span = ir_span(parsed, was);
			if (span)
				checked++;
			assert_ptr_equal(ir_span(v, now), span);
		}
		free(by_id);
	}
	free(parsed_by_id);
	/* every phase keeps the six, but core, which takes out the on_device
	 * calls %3 and %4 (TVM's form has no place for them) */
	assert_true(checked >= 6 * (pipeline_count - 1) + 4);
	opts.devices = &s.devices;
	strbuf_init(&sb);
	print_module(&sb, session_current(&s), &opts);
	text = strbuf_detach(&sb);
	assert_string_equal(text, spans_planned_expected);
	free(text);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_module),
		cmocka_unit_test(test_detects_a_dropped_attribute),
		cmocka_unit_test(test_every_operator_and_attribute),
		cmocka_unit_test(test_modules_print_back_as_written),
		cmocka_unit_test(test_spans_print_back_as_written),
		cmocka_unit_test(test_spans_survive_planning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
