/*
 * test_relax_step.c - stepping RealizeVDevice's propagate one event at a
 * time (core/relax/relax_realize.h's cursor, session_relax.h's stepper),
 * and the placement facts of a realised module (relax_facts.h).
 *
 * Properties over every module of tests/data/relax, relax-gen and
 * relax-handwritten (187 modules), under policy tvm and
 * policy copy: replaying propagate event by event places one new variable
 * per event, each from a seed or an already placed neighbour, why answers
 * for exactly the variables placed so far, and the end state (the known
 * vdevices, then the module rewrite and normalize make of it, or their
 * error) is the state of the phase run at once; the session's stepper,
 * driven by `stepi` units with breakpoints on every variable, ends where
 * `plan` ends. The placement JSON parses with json-c, says what the text
 * lines say, and Relay's reader (`--diff-placement`) reads the same facts.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "dispatch.h"
#include "plan.h"
#include "relax_explain.h"
#include "relax_facts.h"
#include "relax_parse.h"
#include "relax_print.h"
#include "relax_realize.h"
#include "session_relax.h"
#include "stepper.h"

#define RELAX_DIR DEVPLAN_DATA_DIR "/relax"

/* The corpus's input modules (NAME.py, not NAME.expect.py) in tests/data's
 * relax, relax-gen and relax-handwritten. */
static size_t corpus(char ***out)
{
	static const char *const dirs[] = {"relax", "relax-gen", "relax-handwritten"};
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t k = 0; k < DP_COUNT(dirs); k++) {
		char *dir = xasprintf("%s/%s", DEVPLAN_DATA_DIR, dirs[k]);
		DIR *d = opendir(dir);
		struct dirent *e;
		assert_non_null(d);
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			if (len < 4 || strcmp(e->d_name + len - 3, ".py") != 0 ||
			    strstr(e->d_name, ".expect."))
				continue;
			grow_array((void **)out, &cap, n + 1, sizeof **out);
			(*out)[n++] = xasprintf("%s/%s", dir, e->d_name);
		}
		closedir(d);
		free(dir);
	}
	assert_true(n >= 150);
	return n;
}

static void free_corpus(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static RxModule *load(const char *path, SourceFile **src)
{
	DiagList diags;
	RxModule *m;
	char *err = NULL;
	diag_init(&diags);
	*src = source_read(path, &err);
	assert_non_null(*src);
	m = relax_parse(*src, &diags);
	assert_non_null(m);
	diag_free(&diags);
	return m;
}

/* Runs the phases left; the printed module, or "error: ..." at the first error. */
static char *finish(RxRealize *r)
{
	DiagList diags;
	StrBuf sb;
	bool ok = true;
	diag_init(&diags);
	while (ok && r->done < RX_PHASE_COUNT)
		ok = relax_realize_step(r, &diags);
	strbuf_init(&sb);
	if (ok)
		relax_print_module(&sb, relax_realize_current(r));
	for (size_t i = 0; i < diags.count; i++)
		if (diags.items[i].severity == DIAG_ERROR)
			strbuf_printf(&sb, "error: %u:%u: %s\n", diags.items[i].pos.line,
				      diags.items[i].pos.col, diags.items[i].message);
	diag_free(&diags);
	return strbuf_detach(&sb);
}

/* Runs phases up to `phases`; false when one fails (TVM's errors in
 * collect: nothing to step then). */
static bool run_to(RxRealize *r, size_t phases)
{
	DiagList diags;
	bool ok = true;
	diag_init(&diags);
	while (ok && r->done < phases)
		ok = relax_realize_step(r, &diags);
	diag_free(&diags);
	return ok;
}

/* One module under one policy: the event-by-event replay against the
 * phase run at once. */
static bool check_replay(const RxModule *m, bool copy)
{
	RxRealize whole, stepped;
	uint32_t n = m->nvars;
	char *a, *b;
	relax_realize_init(&whole, m);
	relax_realize_init(&stepped, m);
	whole.copy_policy = stepped.copy_policy = copy;
	if (!run_to(&whole, RX_PHASE_PROPAGATE + 1)) {
		assert_false(run_to(&stepped, RX_PHASE_PROPAGATE + 1));
		relax_realize_free(&whole);
		relax_realize_free(&stepped);
		return false;
	}
	assert_true(run_to(&stepped, RX_PHASE_PROPAGATE + 1));
	assert_false(relax_realize_in_progress(&whole));
	relax_realize_rewind(&stepped);
	for (uint32_t v = 0; v < n; v++)
		assert_int_equal(stepped.known[v], -1);
	assert_int_equal(stepped.nevents, whole.nevents);
	for (size_t i = 0; i < stepped.nevents; i++) {
		const RxEvent *e = &stepped.events[i];
		size_t placed = 0;
		assert_true(relax_realize_in_progress(&stepped));
		/* a new variable, from a seed or from a placed neighbour */
		assert_int_equal(stepped.known[e->var], -1);
		if (e->from != UINT32_MAX) {
			bool neighbour = false;
			assert_int_equal(stepped.known[e->from], e->vdevice);
			for (uint32_t k = stepped.adj_start[e->var];
			     k < stepped.adj_start[e->var + 1]; k++)
				neighbour |= stepped.adj[k] == e->from;
			assert_true(neighbour);
		}
		relax_realize_replay(&stepped);
		assert_int_equal(stepped.known[e->var], e->vdevice);
		for (uint32_t v = 0; v < n; v++) {
			uint32_t *chain;
			size_t len = relax_why(&stepped, v, &chain);
			placed += stepped.known[v] >= 0;
			/* why answers for the variables placed so far, from their seed */
			assert_int_equal(len > 0, stepped.known[v] >= 0);
			if (len)
				assert_int_equal(chain[len - 1], v);
			free(chain);
		}
		assert_int_equal(placed, i + 1);
	}
	assert_false(relax_realize_in_progress(&stepped));
	assert_memory_equal(stepped.known, whole.known, n * sizeof *whole.known);
	a = finish(&whole);
	b = finish(&stepped);
	assert_string_equal(b, a);
	free(a);
	free(b);
	relax_realize_free(&whole);
	relax_realize_free(&stepped);
	return true;
}

static void test_replay_matches_whole_phase(void **state)
{
	char **paths;
	size_t n = corpus(&paths), stepped = 0;
	(void)state;
	for (size_t i = 0; i < n; i++) {
		SourceFile *src;
		RxModule *m = load(paths[i], &src);
		stepped += check_replay(m, false);
		stepped += check_replay(m, true);
		relax_module_free(m);
		source_release(src);
	}
	assert_true(stepped > n);
	free_corpus(paths, n);
}

/* A replay left half way: rewrite replays the rest first. */
static void test_step_finishes_replay(void **state)
{
	char **paths;
	size_t n = corpus(&paths);
	(void)state;
	for (size_t i = 0; i < n; i++) {
		SourceFile *src;
		RxModule *m = load(paths[i], &src);
		RxRealize whole, half;
		char *a, *b;
		relax_realize_init(&whole, m);
		relax_realize_init(&half, m);
		whole.copy_policy = half.copy_policy = true;
		if (!run_to(&half, RX_PHASE_PROPAGATE + 1)) {
			relax_realize_free(&whole);
			relax_realize_free(&half);
			relax_module_free(m);
			source_release(src);
			continue;
		}
		relax_realize_rewind(&half);
		for (size_t k = 0; k < half.nevents / 2; k++)
			relax_realize_replay(&half);
		a = finish(&whole);
		b = finish(&half);
		assert_string_equal(b, a);
		free(a);
		free(b);
		relax_realize_free(&whole);
		relax_realize_free(&half);
		relax_module_free(m);
		source_release(src);
	}
	free_corpus(paths, n);
}

typedef struct Seen {
	size_t events, changes, phases;
} Seen;

static void count_reports(void *arg, const RxStepReport *r)
{
	Seen *seen = arg;
	seen->events += r->kind == STEP_REPORT_EVENT;
	seen->changes += r->kind == STEP_REPORT_CHANGE;
	seen->phases += r->kind == STEP_REPORT_PHASE_DONE;
}

/* The module a session ends with (or its failure), planned by `plan` or
 * by stepi units with a watchpoint on every variable name. */
static char *session_plan(const char *path, PlanPolicy policy, bool stepi, Seen *seen)
{
	Session s;
	StrBuf sb;
	bool ok;
	session_init(&s);
	s.settings.policy = policy;
	assert_true(session_load(&s, path));
	assert_true(session_relax_active(&s));
	if (stepi) {
		const RxModule *m = session_relax_module(&s, RX_PHASE_COLLECT);
		RxStepSink sink = {count_reports, seen};
		StepOutcome o = STEP_DONE;
		for (uint32_t v = 0; v < m->nvars; v++) {
			bool named = false;
			for (uint32_t w = 0; w < v && !named; w++)
				named = strcmp(m->vars[w]->name, m->vars[v]->name) == 0;
			if (!named) {
				char *name = xasprintf("%%%s", m->vars[v]->name);
				stepper_break_add(s.stepper, BREAK_WATCH, -1, name);
				free(name);
			}
		}
		while (o == STEP_DONE)
			o = session_relax_run(&s, STEP_EVENT, 1, true, &sink);
		ok = o == STEP_END;
		assert_true(ok || o == STEP_FAILED);
	} else {
		ok = session_relax_step(&s, SIZE_MAX);
	}
	strbuf_init(&sb);
	if (ok)
		relax_print_module(&sb, session_relax_module(&s, -1));
	else
		strbuf_printf(&sb, "failed in %d", s.relax->failed_phase);
	session_free(&s);
	return strbuf_detach(&sb);
}

static void test_session_stepi_equals_plan(void **state)
{
	char **paths;
	size_t n = corpus(&paths);
	static const PlanPolicy policies[] = {POLICY_TVM, POLICY_COPY};
	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < 2; p++) {
			Seen seen = {0};
			char *a = session_plan(paths[i], policies[p], false, NULL);
			char *b = session_plan(paths[i], policies[p], true, &seen);
			assert_string_equal(b, a);
			/* every event shown, each a change of a watched variable */
			assert_int_equal(seen.events, seen.changes);
			/* each phase reported done once, up to the failed one */
			if (strncmp(a, "failed in ", 10) == 0)
				assert_int_equal(seen.phases, (size_t)atoi(a + 10));
			else
				assert_int_equal(seen.phases, RX_PHASE_COUNT);
			free(a);
			free(b);
		}
	free_corpus(paths, n);
}

/* tvm_vm_multi_cpu: z's llvm:1 is inferred, in the lines and the JSON. */
static void test_placement_json(void **state)
{
	SourceFile *src;
	RxModule *m = load(RELAX_DIR "/tvm_vm_multi_cpu.py", &src);
	RxRealize r;
	RxPlacement p;
	StrBuf lines, json;
	json_object *doc, *fns, *fn, *params, *field;
	size_t nparams = 0;
	(void)state;
	relax_realize_init(&r, m);
	run_to(&r, RX_PHASE_COUNT);
	relax_placement(relax_realize_current(&r), m, &p);
	strbuf_init(&lines);
	strbuf_init(&json);
	for (size_t i = 0; i < p.count; i++) {
		relax_fact_format(&lines, p.m, &p.facts[i]);
		strbuf_putc(&lines, '\n');
		nparams += p.facts[i].kind == RX_FACT_PARAM;
	}
	assert_non_null(strstr(lines.data, "@foo param %z llvm:1:global (inferred)\n"));
	relax_placement_json(&json, &p);
	doc = json_tokener_parse(json.data);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "functions", &fns));
	assert_int_equal(json_object_array_length(fns), 1);
	fn = json_object_array_get_idx(fns, 0);
	assert_true(json_object_object_get_ex(fn, "function", &field));
	assert_string_equal(json_object_get_string(field), "@foo");
	assert_true(json_object_object_get_ex(fn, "params", &params));
	assert_int_equal(json_object_array_length(params), nparams);
	/* each parameter says what its line says */
	for (size_t i = 0; i < nparams; i++) {
		json_object *o = json_object_array_get_idx(params, i), *v, *d, *inf, *dev;
		char *line;
		assert_true(json_object_object_get_ex(o, "value", &v));
		assert_true(json_object_object_get_ex(o, "vdevice", &d));
		assert_true(json_object_object_get_ex(o, "inferred", &inf));
		assert_true(json_object_object_get_ex(o, "device", &dev));
		line = xasprintf("@foo param %s %s%s\n", json_object_get_string(v),
				 json_object_get_string(d),
				 json_object_get_boolean(inf) ? " (inferred)" : "");
		assert_non_null(strstr(lines.data, line));
		free(line);
	}
	field = json_object_array_get_idx(params, 2);
	assert_true(json_object_object_get_ex(field, "device", &field));
	assert_string_equal(json_object_get_string(field), "cpu:1");
	assert_true(json_object_object_get_ex(fn, "copies", &field));
	assert_int_equal(json_object_array_length(field), 1);
	field = json_object_array_get_idx(field, 0);
	assert_true(json_object_object_get_ex(field, "bytes", &field));
	assert_int_equal(json_object_get_int64(field), 32);
	assert_true(json_object_object_get_ex(fn, "result_inferred", &field));
	assert_int_equal(json_object_get_boolean(field),
			 strstr(lines.data, "result llvm:1:global (inferred)") != NULL);
	assert_true(json_object_object_get_ex(fn, "result_vdevice", &field));
	assert_string_equal(json_object_get_string(field), "llvm:1:global");
	json_object_put(doc);
	/* Relay's reader (devplan --diff-placement) reads it: the same facts,
	 * devices as run puts them */
	{
		Placement back;
		DeviceTable devices;
		char *err = NULL;
		devices_init_default(&devices);
		assert_true(plan_placement_read_json(json.data, json.len, &back, &devices, &err));
		assert_int_equal(back.count, p.count);
		for (size_t i = 0; i < back.count; i++)
			if (back.facts[i].kind == FACT_PARAM &&
			    strcmp(back.facts[i].value, "%z") == 0)
				assert_string_equal(devices_name(&devices, back.facts[i].device),
						    "cpu:1");
		plan_placement_free(&back);
		devices_free(&devices);
	}
	strbuf_free(&lines);
	strbuf_free(&json);
	relax_placement_free(&p);
	relax_realize_free(&r);
	relax_module_free(m);
	source_release(src);
}

static bool offered(const CmdCandidates *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++)
		if (strcmp(c->items[i], name) == 0)
			return true;
	return false;
}

/* Tab after break and watch offers the Relax module's variables and phases. */
static void test_break_completion(void **state)
{
	Session s;
	CmdCandidates c;
	(void)state;
	session_init(&s);
	assert_true(session_load(&s, RELAX_DIR "/seed_15019.py"));
	commands_complete(&s, "break %y", 6, "%y", &c);
	assert_int_equal(c.count, 2);
	assert_true(offered(&c, "%y") && offered(&c, "%y_1"));
	cmd_candidates_free(&c);
	commands_complete(&s, "tbreak pro", 7, "pro", &c);
	assert_int_equal(c.count, 1);
	assert_true(offered(&c, "propagate"));
	cmd_candidates_free(&c);
	commands_complete(&s, "watch ", 6, "", &c);
	assert_true(offered(&c, "%a") && offered(&c, "%z"));
	assert_false(offered(&c, "propagate") || offered(&c, "core"));
	cmd_candidates_free(&c);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_matches_whole_phase),
		cmocka_unit_test(test_step_finishes_replay),
		cmocka_unit_test(test_session_stepi_equals_plan),
		cmocka_unit_test(test_placement_json),
		cmocka_unit_test(test_break_completion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
