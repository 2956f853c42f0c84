/*
 * test_planner.c - properties of the planner over every planning case.
 *
 * Each case (tests/data/cases and tests/plan_cases) is a NAME.dp script and
 * the module it loads; the script's `set` lines give the settings. For
 * every case that plans, the tests check:
 *   validity     plan_verify accepts the planned module [P5, structure];
 *   idempotence  printing the planned module, parsing it and planning it
 *                again gives the same text and keeps every fact [P3];
 *   round trip   the planned module prints to text that reparses to the
 *                same text [P1];
 * plus order independence on the shared-input module with its operands and
 * independent bindings swapped [P4], a 100,000-binding chain that must
 * plan without exhausting the stack, the typed device regions
 * (plan_regions) that `regions` and `render --regions` both show, and the
 * comparison of two plans' facts (plan_placement_diff) that `pin` shows,
 * and how a leaf domain meets a function domain (bound: the result only;
 * first-order: collapsed).
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
#include <json-c/json.h>

#include "parse.h"
#include "plan.h"
#include "print.h"
#include "session.h"

#include "plan_case.h"

static char *print_text(const IrModule *m, const DeviceTable *devices)
{
	StrBuf sb;
	PrintOptions opts = {.devices = devices, .show_metadata = true};
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	return strbuf_detach(&sb);
}

static char *placement_text(const IrModule *m, const DeviceTable *devices)
{
	StrBuf sb;
	Placement p;
	strbuf_init(&sb);
	plan_placement(m, &p);
	plan_placement_format(&sb, &p, devices, false);
	plan_placement_free(&p);
	return strbuf_detach(&sb);
}

/* Plans text under the session's settings; NULL when planning fails. */
static IrModule *plan_text(Session *s, const char *name, const char *text)
{
	char path[] = "/tmp/devplan-test-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	IrModule *out = NULL;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	if (session_load(s, path) && session_step(s, pipeline_count))
		out = session_current(s);
	unlink(path);
	(void)name;
	return out;
}

/* Every fact of the first plan holds in the second. The second may name
 * more bindings: printing gives the planner's unnamed nodes (its copies)
 * names, and those come back as `bind` facts. */
/* Whether text holds the line [line, line + len) as a whole line. */
static bool has_line(const char *text, const char *line, size_t len)
{
	while (*text) {
		const char *end = strchr(text, '\n');
		size_t n = end ? (size_t)(end - text) : strlen(text);
		if (n == len && memcmp(text, line, len) == 0)
			return true;
		text += n + (end ? 1 : 0);
	}
	return false;
}

/* Whether a placement line binds a name planning removed (IrAlias): its
 * value is there, under another name, in the printed text. */
static bool binds_alias(const IrModule *m, const char *line, size_t n)
{
	for (uint32_t i = 0; i < m->naliases; i++) {
		size_t k = strlen(m->aliases[i].name);
		const char *at = strstr(line, " bind %");
		if (at && at < line + n && (size_t)(line + n - (at + 7)) > k &&
		    strncmp(at + 7, m->aliases[i].name, k) == 0 && at[7 + k] == ' ')
			return true;
	}
	return false;
}

/* Every fact of the first plan is a fact of the second, but the bindings
 * of names only the first plan knew (the annotations its planning
 * removed); the second may bind more names (the printer named each
 * binding it wrote). */
static bool facts_preserved(const IrModule *first_plan, const char *first, const char *second)
{
	for (const char *p = first; *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (!has_line(second, p, n) && !binds_alias(first_plan, p, n))
			return false;
		p += n + (end ? 1 : 0);
	}
	for (const char *p = second; *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *line = xstrndup(p, n);
		bool ok = has_line(first, p, n) || strstr(line, " bind ");
		free(line);
		if (!ok)
			return false;
		p += n + (end ? 1 : 0);
	}
	return true;
}

/* `placement --json` is exactly what json-c prints for the same document
 * (plan_facts.c writes it without building json-c objects). */
static void check_placement_json(const char *dp, const IrModule *m, const DeviceTable *devices)
{
	Placement p;
	StrBuf sb;
	json_object *doc;
	plan_placement(m, &p);
	strbuf_init(&sb);
	plan_placement_format(&sb, &p, devices, true);
	doc = json_tokener_parse(sb.data);
	if (!doc) {
		fprintf(stderr, "%s: placement --json is not JSON:\n%s", dp, sb.data);
		fail();
	}
	{
		char *reprinted = xasprintf(
			"%s\n", json_object_to_json_string_ext(
					doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		if (strcmp(reprinted, sb.data) != 0) {
			fprintf(stderr,
				"%s: placement --json differs from json-c's layout\n--- "
				"ours\n%s--- json-c\n%s",
				dp, sb.data, reprinted);
			fail();
		}
		free(reprinted);
	}
	json_object_put(doc);
	{
		/* and plan_placement_read_json reads back the same facts, which
		 * `devplan --diff-placement` compares */
		DeviceTable copy;
		Placement back;
		PlacementDiff d;
		StrBuf lines, back_lines;
		char *err = NULL;
		devices_copy(&copy, devices);
		if (!plan_placement_read_json(sb.data, sb.len, &back, &copy, &err)) {
			fprintf(stderr, "%s: placement --json does not read back: %s\n", dp, err);
			fail();
		}
		assert_int_equal(copy.count, devices->count);
		plan_placement_diff(&p, &back, devices, &d);
		strbuf_init(&lines);
		strbuf_init(&back_lines);
		plan_placement_format(&lines, &p, devices, false);
		plan_placement_format(&back_lines, &back, devices, false);
		/* the same facts, as a set: JSON groups them by kind */
		if (d.count || back.count != p.count) {
			fprintf(stderr,
				"%s: placement --json read back differs\n--- planned\n%s--- read "
				"back\n%s",
				dp, lines.data ? lines.data : "",
				back_lines.data ? back_lines.data : "");
			fail();
		}
		strbuf_free(&lines);
		strbuf_free(&back_lines);
		plan_placement_diff_free(&d);
		plan_placement_free(&back);
		devices_free(&copy);
	}
	strbuf_free(&sb);
	plan_placement_free(&p);
}

static void check_case(const char *dir, const char *dp)
{
	Session s;
	char *module;
	bool expect_failure = plan_case_expects_failure(dir, dp);
	bool planned_ok;
	session_init(&s);
	module = plan_case_setup(&s, dir, dp);
	planned_ok = module && session_load(&s, module) && session_step(&s, pipeline_count);
	if (!planned_ok && !expect_failure) {
		/* a case that stops planning by surprise is a failure, not a skip */
		diag_print_all(stderr, &s.diags);
		fprintf(stderr, "%s: planning failed, but its .expect says it exits 0\n", dp);
		fail();
	}
	if (planned_ok) {
		IrModule *planned = session_current(&s);
		DiagList diags;
		char *text = print_text(planned, &s.devices);
		char *facts = placement_text(planned, &s.devices);
		check_placement_json(dp, planned, &s.devices);
		diag_init(&diags);
		if (!plan_verify(planned, &s.devices, &diags)) {
			diag_print_all(stderr, &diags);
			fprintf(stderr, "%s: the plan does not verify\n", dp);
			fail();
		}
		diag_free(&diags);
		{
			/* plan the printed plan again */
			Session again;
			IrModule *replanned;
			session_init(&again);
			again.settings = s.settings;
			/* the same device table: devices added by the case */
			for (uint32_t d = again.devices.count; d < s.devices.count; d++) {
				char *err = NULL;
				assert_true(devices_add(&again.devices, s.devices.items[d].name,
							s.devices.items[d].target, &err) >= 0);
			}
			replanned = plan_text(&again, dp, text);
			if (!replanned) {
				diag_print_all(stderr, &again.diags);
				fprintf(stderr, "%s: the planned module does not plan again:\n%s",
					dp, text);
				fail();
			}
			{
				char *text2 = print_text(replanned, &again.devices);
				char *facts2 = placement_text(replanned, &again.devices);
				if (strcmp(text, text2) != 0) {
					fprintf(stderr,
						"%s: not idempotent\n--- first\n%s--- second\n%s",
						dp, text, text2);
					fail();
				}
				if (!facts_preserved(planned, facts, facts2)) {
					fprintf(stderr,
						"%s: placement changed\n--- first\n%s--- "
						"second\n%s",
						dp, facts, facts2);
					fail();
				}
				free(text2);
				free(facts2);
			}
			session_free(&again);
		}
		free(text);
		free(facts);
	}
	free(module);
	session_free(&s);
}

static void check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t n = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		if (len > 3 && strcmp(ent->d_name + len - 3, ".dp") == 0) {
			check_case(dir, ent->d_name);
			n++;
		}
	}
	closedir(d);
	assert_true(n > 0);
}

static void test_shared_cases(void **state)
{
	(void)state;
	check_dir(DEVPLAN_DATA_DIR "/cases");
}

static void test_own_cases(void **state)
{
	(void)state;
	check_dir(DEVPLAN_SOURCE_DIR "/tests/plan_cases");
}

#define T "Tensor[(5, 7), float32]"

static char *plan_facts(const char *text, const char *fallback)
{
	Session s;
	bool reset;
	char *err = NULL, *facts;
	IrModule *planned;
	session_init(&s);
	assert_true(
		session_setting_set(&s, session_setting_find("fallback"), fallback, &reset, &err));
	planned = plan_text(&s, "order", text);
	assert_non_null(planned);
	facts = placement_text(planned, &s.devices);
	session_free(&s);
	return facts;
}

/* Sorts the lines of text in place so that placements compare as sets. */
static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *sorted_lines(char *text)
{
	char *lines[256];
	size_t n = 0;
	StrBuf sb;
	for (char *tok = strtok(text, "\n"); tok && n < 256; tok = strtok(NULL, "\n"))
		lines[n++] = tok;
	qsort(lines, n, sizeof(char *), compare_lines);
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++) {
		strbuf_puts(&sb, lines[i]);
		strbuf_putc(&sb, '\n');
	}
	return strbuf_detach(&sb);
}

static void test_order_independence(void **state)
{
	static const char *const fallbacks[] = {"cpu:0", "cuda:0"};
	const char *text = "def @main(%a: " T ", %b: " T ", %c: " T ") {\n"
			   "  %0 = add(%a, %b);\n"
			   "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
			   "  %2 = add(%b, %c);\n"
			   "  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
			   "  subtract(%1, %3)\n"
			   "}\n";
	/* operands swapped and the independent bindings in the other order,
	 * keeping the names so the facts compare */
	const char *swapped = "def @main(%a: " T ", %b: " T ", %c: " T ") {\n"
			      "  %2 = add(%c, %b);\n"
			      "  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
			      "  %0 = add(%b, %a);\n"
			      "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
			      "  subtract(%1, %3)\n"
			      "}\n";
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char *a = plan_facts(text, fallbacks[i]);
		char *b = plan_facts(swapped, fallbacks[i]);
		char *sa = sorted_lines(a), *sb = sorted_lines(b);
		if (strcmp(sa, sb) != 0) {
			fprintf(stderr,
				"fallback %s: order changed the plan\n--- text order\n%s--- "
				"swapped\n%s",
				fallbacks[i], sa, sb);
			fail();
		}
		free(a);
		free(b);
		free(sa);
		free(sb);
	}
}

/* `why` at the far end of a long chain (%1, bound through 98 negatives
 * to the defaulted result): the steps nearest the value and nearest the
 * bind, and how many in between were left out. */
static void test_why_long_chain(void **state)
{
	enum { N = 100 };
	StrBuf sb, why;
	Session s;
	IrModule *planned;
	const Expr *last = NULL;
	Expr **by_id;
	size_t lines = 0;
	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main(%x: " T ") {\n"
			 "  %0 = on_device(%x, virtual_device=meta[VirtualDevice][1]);\n");
	for (int i = 1; i < N; i++)
		strbuf_printf(&sb, "  %%%d = negative(%%%d);\n", i, i - 1);
	strbuf_printf(&sb, "  %%%d\n}\n", N - 1);
	session_init(&s);
	planned = plan_text(&s, "why_long_chain", sb.data);
	assert_non_null(planned);
	by_id = ir_index_by_id(s.trace->core->module);
	for (uint32_t id = 0; id < s.trace->core->nexprs; id++)
		if (by_id[id] && by_id[id]->name && strcmp(by_id[id]->name, "1") == 0)
			last = by_id[id];
	free(by_id);
	assert_non_null(last);
	strbuf_init(&why);
	plan_explain(&why, s.trace->core, last, &s.devices, s.trace);
	for (const char *p = why.data; *p; p++)
		lines += *p == '\n';
	/* the header, 32 steps, the gap, 32 steps, the bind, its reason */
	assert_int_equal(lines, 1 + 32 + 1 + 32 + 1 + 1);
	assert_non_null(strstr(why.data, "%1 is on cpu:0:\n  %1 operand of negative %2"));
	assert_non_null(strstr(why.data, "  ... 35 more steps ...\n"));
	assert_non_null(strstr(why.data, "defaulted to the fallback device)\n"
					 "  decided by: the fallback device ('set fallback')\n"));
	strbuf_free(&why);
	strbuf_free(&sb);
	session_free(&s);
}

/* `why` on a value check copied ends at the annotation that placed it,
 * not at the copy check inserted, which only restates the resolution; a
 * chain that can end only at such a copy (here: every copy and on_device
 * counted as inserted) ends with the conflict and the rule behind it. */
static void test_why_looks_past_inserted_copies(void **state)
{
	static const char text[] = "def @main(%a: " T ", %b: " T ", %c: " T ") {\n"
				   "  %0 = add(%a, %b);\n"
				   "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
				   "  %2 = add(%b, %c);\n"
				   "  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
				   "  subtract(%1, %3)\n"
				   "}\n";
	Session s;
	PlanTrace every;
	StrBuf why;
	bool reset;
	char *err = NULL;
	const Expr *b;
	(void)state;
	session_init(&s);
	assert_true(
		session_setting_set(&s, session_setting_find("fallback"), "cuda:0", &reset, &err));
	assert_non_null(plan_text(&s, "why_copied", text));
	b = ir_find_named(s.trace->core->module, "b");
	assert_non_null(b);
	strbuf_init(&why);
	plan_explain(&why, s.trace->core, b, &s.devices, s.trace);
	/* the temporary file's name is in the positions */
	assert_non_null(strstr(why.data, "%b is on cuda:0:\n  %b operand of add %2 ("));
	assert_non_null(strstr(why.data, ":4:8)\n  %2 body of on_device %3 is on cuda:0 ("));
	assert_non_null(strstr(why.data, ":5:8)\n  decided by: an on_device annotation\n"));
	assert_null(strstr(why.data, "device_copy"));
	strbuf_free(&why);
	every = *s.trace;
	every.check_nexprs = 1;
	strbuf_init(&why);
	plan_explain(&why, s.trace->core, b, &s.devices, &every);
	assert_non_null(strstr(why.data, "%b is on cuda:0:\n  %b source of device_copy "));
	assert_non_null(strstr(why.data, "  check: %b is needed on cpu:0 and cuda:0\n"
					 "    cuda:0: %2 body of on_device %3 is on cuda:0 ("));
	assert_non_null(strstr(why.data,
			       "  decided by: check, resolving the conflict: %b stays on "
			       "cuda:0, the fallback device, where a consumer uses it\n"));
	strbuf_free(&why);
	session_free(&s);
}

static void test_long_chain(void **state)
{
	enum { N = 100000 };
	StrBuf sb;
	char *facts;
	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main(%x: " T ") {\n  %0 = add(%x, %x);\n");
	for (int i = 1; i < N; i++) {
		if (i % 1000 == 0)
			strbuf_printf(&sb,
				      "  %%%d = on_device(%%%d, "
				      "virtual_device=meta[VirtualDevice][%d]);\n",
				      i, i - 1, (i / 1000 - 1) % 2);
		else
			strbuf_printf(&sb, "  %%%d = add(%%%d, %%x);\n", i, i - 1);
	}
	strbuf_printf(&sb, "  %%%d\n}\n", N - 1);
	facts = plan_facts(sb.data, "cpu:0");
	/* Segments between annotations alternate cpu, cuda, ...; each
	 * on_device whose next segment is on the other device becomes a copy
	 * (98 of them; the last segment is free and joins %x on the cpu), and
	 * %x, used on both devices, is copied once to the gpu. */
	{
		size_t copies = 0;
		for (const char *p = facts; (p = strstr(p, " copy ")); p++)
			copies++;
		assert_int_equal(copies, 99);
		assert_non_null(strstr(facts, "@main copy %x cpu:0 -> cuda:0 140\n"));
		assert_non_null(strstr(facts, "@main result cpu:0\n"));
	}
	free(facts);
	strbuf_free(&sb);
}

/* [P2] Two on_device wrappers of one value, both read on the cpu: one
 * device_copy in the planned module, shared. */
static void test_one_copy_per_destination(void **state)
{
	Session s;
	IrModule *planned;
	Expr **by_id;
	size_t copies = 0;
	(void)state;
	session_init(&s);
	assert_true(session_load(&s, DEVPLAN_SOURCE_DIR "/tests/plan_cases/two_wrappers.relay"));
	assert_true(session_step(&s, pipeline_count));
	planned = session_current(&s);
	by_id = ir_index_by_id(planned);
	for (uint32_t id = 0; id < planned->nexprs; id++)
		copies += by_id[id] && ir_is_op(by_id[id], OP_DEVICE_COPY);
	assert_int_equal(copies, 1);
	free(by_id);
	session_free(&s);
}

/* The regions of m in one line per function: `NAME: ` then, in listing
 * order, each region as DEVICE[CALL ...] with the copies listed before it
 * as <VALUE, after it as >VALUE, and after the last region as |VALUE. */
static char *regions_text(const IrModule *m, const DeviceTable *devices, const int32_t *device_of)
{
	PlanFunctions functions;
	PlanRegions regions;
	Expr **by_id = ir_index_by_id(m);
	StrBuf sb;
	strbuf_init(&sb);
	plan_functions(m, &functions);
	plan_regions(&functions, device_of, &regions);
	assert_int_equal(regions.count, functions.count);
	for (size_t f = 0; f < regions.count; f++) {
		const PlanFunctionRegions *fr = &regions.functions[f];
		assert_ptr_equal(fr->function, &functions.items[f]);
		strbuf_printf(&sb, "%s:", fr->function->name);
		for (size_t k = 0; k < fr->count; k++) {
			const PlanRegion *r = &fr->regions[k];
			for (size_t i = 0; i < r->nbefore; i++) {
				strbuf_puts(&sb, " <");
				ir_value_name(&sb, ir_copy_source(by_id[r->before[i]]));
			}
			strbuf_printf(&sb, " %s[", devices_name(devices, r->device));
			for (size_t i = 0; i < r->ncalls; i++) {
				if (i)
					strbuf_putc(&sb, ' ');
				ir_value_name(&sb, by_id[r->calls[i]]);
			}
			strbuf_putc(&sb, ']');
			for (size_t i = 0; i < r->nafter; i++) {
				strbuf_puts(&sb, " >");
				ir_value_name(&sb, ir_copy_source(by_id[r->after[i]]));
			}
		}
		for (size_t i = 0; i < fr->ntrailing; i++) {
			strbuf_puts(&sb, " |");
			ir_value_name(&sb, ir_copy_source(by_id[fr->trailing[i]]));
		}
		strbuf_putc(&sb, '\n');
	}
	plan_regions_free(&regions);
	plan_functions_free(&functions);
	free(by_id);
	return strbuf_detach(&sb);
}

/* plan_regions: a copy between two calls of a region is listed before it
 * when it brings data to the region's device, else after it (@side's copy
 * of %b); one between two regions is listed before the second; devices
 * given by device_of win over the module's own. */
static void test_regions(void **state)
{
	Session s;
	IrModule *planned;
	int32_t *free_devices;
	char *text;
	bool reset;
	char *err = NULL;
	(void)state;
	session_init(&s);
	assert_true(session_setting_set(&s, session_setting_find("policy"), "copy", &reset, &err));
	assert_true(session_load(&s, DEVPLAN_SOURCE_DIR "/tests/golden/dot/region_copies.relay"));
	assert_true(session_step(&s, pipeline_count));
	planned = session_current(&s);
	text = regions_text(planned, &s.devices, NULL);
	assert_string_equal(text,
			    "@side: cpu:0[add@3:12 multiply@5:12] >%b "
			    "cuda:0[negative@6:12] <%w cpu:0[add@8:3]\n"
			    "@incoming: <%c cpu:0[%0 multiply@14:3]\n"
			    "@inserted: cpu:0[%0] <%b cuda:0[%2 %4] <%4 cpu:0[subtract@24:3]\n");
	free(text);
	/* with every device free (a core in progress before its first event),
	 * one region per function; no copy brings data to no device, so every
	 * copy between its calls is listed after it */
	free_devices = xmalloc(planned->nexprs * sizeof(int32_t));
	for (uint32_t id = 0; id < planned->nexprs; id++)
		free_devices[id] = IR_NO_DEVICE;
	text = regions_text(planned, &s.devices, free_devices);
	assert_string_equal(text, "@side: ?[add@3:12 multiply@5:12 negative@6:12 add@8:3] >%b >%w\n"
				  "@incoming: ?[%0 multiply@14:3] >%c\n"
				  "@inserted: ?[%0 %2 %4 subtract@24:3] >%b >%4\n");
	free(text);
	free(free_devices);
	/* copies after the last call, or in a function without calls */
	planned = plan_text(&s, "trailing",
			    "#[version = \"0.0.5\"]\n"
			    "def @main(%a: Tensor[(2), float32]) {\n"
			    "  %0 = negative(%a);\n"
			    "  device_copy(%0, src_virtual_device=meta[VirtualDevice][0],"
			    " dst_virtual_device=meta[VirtualDevice][1])\n"
			    "}\n"
			    "def @only_copy(%b: Tensor[(2), float32]) {\n"
			    "  device_copy(%b, src_virtual_device=meta[VirtualDevice][1],"
			    " dst_virtual_device=meta[VirtualDevice][0])\n"
			    "}\n");
	assert_non_null(planned);
	text = regions_text(planned, &s.devices, NULL);
	assert_string_equal(text, "@main: cpu:0[%0] |%0\n@only_copy: |%b\n");
	free(text);
	session_free(&s);
}

static PlacementFact fact(FactKind kind, const char *value, int32_t device, int32_t dest,
			  int64_t bytes)
{
	PlacementFact f = {kind, "@main", (char *)value, device, dest, bytes, PLAN_NONE, PLAN_NONE};
	return f;
}

/* A diff as text: a line per change, `moved`, `added` or `removed` and the
 * fact's line (a moved fact's line before and after), then the totals. */
static char *diff_text(const Placement *before, const Placement *after, const DeviceTable *devices)
{
	PlacementDiff d;
	StrBuf sb;
	strbuf_init(&sb);
	plan_placement_diff(before, after, devices, &d);
	for (size_t i = 0; i < d.count; i++) {
		const PlacementChange *c = &d.changes[i];
		strbuf_puts(&sb, c->kind == PLACEMENT_MOVED   ? "moved "
				 : c->kind == PLACEMENT_ADDED ? "added "
							      : "removed ");
		if (c->before)
			plan_fact_format(&sb, c->before, devices);
		if (c->before && c->after)
			strbuf_puts(&sb, " => ");
		if (c->after)
			plan_fact_format(&sb, c->after, devices);
		strbuf_putc(&sb, '\n');
	}
	strbuf_printf(&sb, "copies %zu -> %zu, bytes %lld -> %lld\n", d.copies[0], d.copies[1],
		      (long long)d.bytes[0], (long long)d.bytes[1]);
	plan_placement_diff_free(&d);
	return strbuf_detach(&sb);
}

/* plan_placement_diff: a param, bind or result moves (the second %y) or is
 * removed (%x); a copy that differs in anything (devices, bytes) is
 * removed and another added; a name bound twice pairs in order; changes
 * come in program order: a fact's place in its plan (the second plan's for
 * one moved or added, the first's for one removed), a removal first. */
static void test_placement_diff(void **state)
{
	DeviceTable devices;
	char *err = NULL;
	int32_t cpu1;
	PlacementFact first[] = {
		fact(FACT_PARAM, "%x", 0, IR_NO_DEVICE, -1),
		fact(FACT_BIND, "%y", 0, IR_NO_DEVICE, -1),
		fact(FACT_BIND, "%y", 1, IR_NO_DEVICE, -1),
		fact(FACT_COPY, "%x", 0, 1, 140),
		fact(FACT_COPY, "%y", 0, 1, 8),
		fact(FACT_RESULT, NULL, 0, IR_NO_DEVICE, -1),
	};
	PlacementFact second[6];
	Placement before = {first, DP_COUNT(first), DP_COUNT(first), NULL, 0, 0};
	Placement after = {second, DP_COUNT(second), DP_COUNT(second), NULL, 0, 0};
	char *text;
	(void)state;
	devices_init_default(&devices);
	cpu1 = devices_add(&devices, "cpu:1", NULL, &err);
	assert_int_equal(cpu1, 2);
	second[0] = fact(FACT_RESULT, NULL, 0, IR_NO_DEVICE, -1);
	second[1] = fact(FACT_COPY, "%x", 1, 0, 140);
	second[2] = fact(FACT_COPY, "%x", cpu1, 1, 140);
	second[3] = fact(FACT_BIND, "%y", 0, IR_NO_DEVICE, -1);
	second[4] = fact(FACT_BIND, "%y", 0, IR_NO_DEVICE, -1);
	second[5] = fact(FACT_COPY, "%y", 0, 1, -1);
	text = diff_text(&before, &after, &devices);
	assert_string_equal(text, "removed @main param %x cpu:0\n"
				  "added @main copy %x cuda:0 -> cpu:0 140\n"
				  "added @main copy %x cpu:1 -> cuda:0 140\n"
				  "removed @main copy %x cpu:0 -> cuda:0 140\n"
				  "removed @main copy %y cpu:0 -> cuda:0 8\n"
				  "moved @main bind %y cuda:0 => @main bind %y cpu:0\n"
				  "added @main copy %y cpu:0 -> cuda:0 ?\n"
				  "copies 2 -> 3, bytes 148 -> 280\n");
	free(text);
	/* no plan before: every fact is added */
	after.count = 2;
	text = diff_text(NULL, &after, &devices);
	assert_string_equal(text, "added @main result cpu:0\n"
				  "added @main copy %x cuda:0 -> cpu:0 140\n"
				  "copies 0 -> 1, bytes 0 -> 140\n");
	free(text);
	devices_free(&devices);
}

/* Binds domain d to device with a constraint; returns whether it held. */
static bool bind_domain(PlanAnalysis *an, uint32_t d, int32_t device)
{
	Constraint c = {.kind = CONSTRAINT_PIN,
			.site = PLAN_NONE,
			.value = PLAN_NONE,
			.a = d,
			.b = PLAN_NONE,
			.device = device};
	return plan_constraint_apply(an, plan_constraint_add(an, &c), NULL);
}

static bool unify_domains(PlanAnalysis *an, uint32_t a, uint32_t b)
{
	Constraint c = {.kind = CONSTRAINT_LET_VAR,
			.site = PLAN_NONE,
			.value = PLAN_NONE,
			.a = a,
			.b = b,
			.device = IR_NO_DEVICE};
	return plan_constraint_apply(an, plan_constraint_add(an, &c), NULL);
}

/* Parameter i (nparams for the result) of function domain fd: its device. */
static int32_t part_device(PlanAnalysis *an, uint32_t fd, uint32_t i)
{
	const Domain *d = &an->domains[plan_domain_find(an, fd)];
	assert_true(i < d->nchildren);
	return plan_domain_device(an, an->children[d->children + i]);
}

/* A leaf meeting a function domain, in either order of the bind and the
 * meeting: a bound leaf puts only the function's result on its device,
 * as TVM's virtual device on a function type is fn(?):D (a closure's
 * virtual_device, pin or on_device), also through a function returning a
 * function; a first-order leaf (a tuple, a condition) collapses the whole
 * function onto its device, as TVM's UnifyExprCollapsed does. */
static void test_domain_meets_function(void **state)
{
	IrModule *m = ir_module_new(NULL);
	(void)state;
	for (int order = 0; order < 2; order++) {
		for (int first_order = 0; first_order < 2; first_order++) {
			PlanAnalysis an;
			uint32_t leaf, fd;
			plan_analysis_init(&an, m, NULL);
			leaf = plan_domain_new(&an);
			fd = plan_domain_as_function(&an, plan_domain_new(&an), 1);
			if (first_order)
				plan_domain_set_first_order(&an, leaf);
			if (order == 0)
				assert_true(bind_domain(&an, leaf, 1));
			assert_true(unify_domains(&an, fd, leaf));
			if (order == 1)
				assert_true(bind_domain(&an, leaf, 1));
			assert_int_equal(part_device(&an, fd, 1), 1);
			assert_int_equal(part_device(&an, fd, 0), first_order ? 1 : IR_NO_DEVICE);
			/* the parameter may then go elsewhere, unless collapsed */
			assert_int_equal(bind_domain(&an, an.children[an.domains[fd].children], 0),
					 !first_order);
			plan_analysis_free(&an);
		}
		{
			/* fn(?):fn(?):D, bound before or after its shape is known */
			PlanAnalysis an;
			uint32_t leaf, fd, result, inner;
			plan_analysis_init(&an, m, NULL);
			leaf = plan_domain_new(&an);
			fd = plan_domain_as_function(&an, plan_domain_new(&an), 1);
			if (order == 0)
				assert_true(bind_domain(&an, leaf, 1));
			assert_true(unify_domains(&an, fd, leaf));
			result = an.children[an.domains[fd].children + 1];
			inner = plan_domain_as_function(&an, plan_domain_new(&an), 1);
			assert_true(unify_domains(&an, result, inner));
			if (order == 1)
				assert_true(bind_domain(&an, leaf, 1));
			assert_int_equal(part_device(&an, inner, 1), 1);
			assert_int_equal(part_device(&an, inner, 0), IR_NO_DEVICE);
			assert_int_equal(part_device(&an, fd, 0), IR_NO_DEVICE);
			plan_analysis_free(&an);
		}
	}
	ir_module_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_cases),
		cmocka_unit_test(test_own_cases),
		cmocka_unit_test(test_order_independence),
		cmocka_unit_test(test_why_long_chain),
		cmocka_unit_test(test_why_looks_past_inserted_copies),
		cmocka_unit_test(test_long_chain),
		cmocka_unit_test(test_one_copy_per_destination),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_placement_diff),
		cmocka_unit_test(test_domain_meets_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
