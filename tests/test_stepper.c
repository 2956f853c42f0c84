/*
 * test_stepper.c - the replay cursor, breakpoints, interrupts and the line
 * diff (core/session/stepper.c, core/session/linediff.c).
 *
 * The replay is checked against the analysis `core` itself leaves in the
 * trace, on every planning case and model: after the analyze and default
 * events, both union-finds must agree domain by domain, and committing a
 * stepped core must give the very module `plan` gives. Interrupts are
 * checked between phases, inside check, infer and core (on a chain long
 * enough to reach the 65536-step polls) and inside a replay. The diff is
 * checked by applying its hunks to the old text and getting the new one.
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

#include "linediff.h"
#include "plan.h"
#include "print.h"
#include "session.h"
#include "stepper.h"

#include "plan_case.h"

#define T "Tensor[(5, 7), float32]"

static const char *const shared_input =
	"def @main(%a: " T ", %b: " T ", %c: " T ") {\n"
	"  %0 = add(%a, %b);\n"
	"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
	"  %2 = add(%b, %c);\n"
	"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
	"  subtract(%1, %3)\n"
	"}\n";

/* Loads text as a module through a temporary file. */
static void load_text(Session *s, const char *text)
{
	char path[] = "/tmp/devplan-stepper-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	if (!session_load(s, path))
		diag_print_all(stderr, &s->diags);
	unlink(path);
	assert_true(session_has_module(s));
}

static char *print_text(const IrModule *m, const DeviceTable *devices)
{
	StrBuf sb;
	PrintOptions opts = {.devices = devices, .show_types = true};
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	return strbuf_detach(&sb);
}

/* The replay after the analyze and default events equals core's analysis. */
static void compare_analyses(const char *name, PlanAnalysis *replay, PlanAnalysis *core)
{
	if (replay->ndomains != core->ndomains || replay->nconstraints != core->nconstraints) {
		fprintf(stderr,
			"%s: replay has %zu domains and %zu constraints, core %zu and %zu\n", name,
			replay->ndomains, replay->nconstraints, core->ndomains, core->nconstraints);
		fail();
	}
	for (uint32_t d = 0; d < core->ndomains; d++) {
		uint32_t r1 = plan_domain_find(replay, d), r2 = plan_domain_find(core, d);
		if (r1 != r2 || replay->domains[r1].device != core->domains[r2].device) {
			fprintf(stderr, "%s: domain %u differs\n", name, d);
			fail();
		}
	}
	for (size_t i = 0; i < core->nconstraints; i++)
		assert_int_equal(replay->applied[i], core->applied[i]);
	for (uint32_t id = 0; id < core->nexprs; id++)
		assert_int_equal(replay->expr_domain[id], core->expr_domain[id]);
}

/* Steps core event by event on a loaded session and checks the replay and
 * the committed module; true when the strict comparison could be made. */
static bool check_replay(Session *s, const char *name, bool expect_failure)
{
	PlanTrace *t = s->trace;
	size_t applied, total, k;
	char *stepped, *planned;
	bool strict = false;
	if (!session_step(s, pipeline_count - 1)) {
		if (!expect_failure) {
			/* a case that stops planning by surprise fails, not skips */
			diag_print_all(stderr, &s->diags);
			fprintf(stderr, "%s: planning failed before core\n", name);
			fail();
		}
		return false;
	}
	assert_int_equal(stepper_run(s, STEP_EVENT, 1, true, NULL), STEP_DONE);
	if (!stepper_in_progress(s, &applied, &total)) {
		/* one event only: committed at once */
		assert_true(session_planned(s));
		return false;
	}
	assert_int_equal(applied, 1);
	assert_int_equal(total, t->nevents);
	k = t->default_end < t->nevents ? t->default_end : t->nevents - 1;
	if (k > 1)
		assert_int_equal(stepper_run(s, STEP_EVENT, k - 1, true, NULL), STEP_DONE);
	assert_true(stepper_in_progress(s, &applied, NULL));
	assert_int_equal(applied, k);
	if (k == t->default_end) {
		compare_analyses(name, stepper_replay(s), t->core);
		strict = true;
	} else {
		/* one default event short: what is bound agrees with core */
		PlanAnalysis *replay = stepper_replay(s);
		for (uint32_t id = 0; id < t->core->nexprs; id++) {
			DomainState a = stepper_domain_state(replay, id);
			DomainState b = stepper_domain_state(t->core, id);
			if (a.device != IR_NO_DEVICE)
				assert_int_equal(a.device, b.device);
		}
	}
	/* finishing by stepping gives what planning in one go gives */
	assert_int_equal(stepper_run(s, STEP_EVENT, SIZE_MAX, true, NULL), STEP_END);
	assert_false(stepper_in_progress(s, NULL, NULL));
	stepped = print_text(session_current(s), &s->devices);
	session_restart(s);
	assert_true(session_step(s, pipeline_count));
	planned = print_text(session_current(s), &s->devices);
	if (strcmp(stepped, planned) != 0) {
		fprintf(stderr, "%s: stepping and planning differ\n--- stepped\n%s--- planned\n%s",
			name, stepped, planned);
		fail();
	}
	free(stepped);
	free(planned);
	return strict;
}

static size_t check_dir(const char *dir, const char *suffix, size_t *strict)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t n = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name), slen = strlen(suffix);
		Session s;
		char *module;
		if (len <= slen || strcmp(ent->d_name + len - slen, suffix) != 0)
			continue;
		session_init(&s);
		if (strcmp(suffix, ".dp") == 0)
			module = plan_case_setup(&s, dir, ent->d_name);
		else
			module = xasprintf("%s/%s", dir, ent->d_name);
		if (!module || !session_load(&s, module)) {
			diag_print_all(stderr, &s.diags);
			fprintf(stderr, "%s: does not load\n", ent->d_name);
			fail();
		}
		n++;
		if (check_replay(&s, ent->d_name,
				 strcmp(suffix, ".dp") == 0 &&
					 plan_case_expects_failure(dir, ent->d_name)))
			(*strict)++;
		free(module);
		session_free(&s);
	}
	closedir(d);
	return n;
}

static void test_replay_matches_core(void **state)
{
	size_t strict = 0, n = 0;
	(void)state;
	n += check_dir(DEVPLAN_DATA_DIR "/cases", ".dp", &strict);
	n += check_dir(DEVPLAN_SOURCE_DIR "/tests/plan_cases", ".dp", &strict);
	n += check_dir(DEVPLAN_DATA_DIR "/models", ".relay", &strict);
	assert_true(n >= 10);
	/* many have capture events after the defaults (16 of 31 today) */
	assert_true(strict >= 5);
}

/* ---- breakpoints ---- */

typedef struct Log {
	StrBuf text;
	Session *s;
} Log;

static void log_report(void *arg, const StepReport *r)
{
	Log *log = arg;
	switch (r->kind) {
	case STEP_REPORT_PHASE_DONE:
		strbuf_printf(&log->text, "done %s\n", pipeline_phases[r->phase].name);
		return;
	case STEP_REPORT_PHASE_FAILED:
		strbuf_printf(&log->text, "failed %s\n", pipeline_phases[r->phase].name);
		return;
	case STEP_REPORT_EVENT:
		strbuf_printf(&log->text, "event %zu\n", r->event + 1);
		return;
	case STEP_REPORT_CHANGE:
		strbuf_printf(&log->text, "change %u %d->%d\n", r->bp->number, r->before.device,
			      r->after.device);
		return;
	case STEP_REPORT_BREAK:
		strbuf_printf(&log->text, "break %u\n", r->bp->number);
		return;
	}
}

static void test_breakpoints(void **state)
{
	Session s;
	Log log;
	StepSink sink = {log_report, &log};
	Stepper *st;
	PlanAnalysis *replay;
	const Expr *b;
	(void)state;
	session_init(&s);
	st = s.stepper;
	strbuf_init(&log.text);
	log.s = &s;
	load_text(&s, shared_input);
	assert_int_equal(stepper_break_add(st, BREAK_PHASE, pipeline_find("infer"), NULL), 1);
	assert_int_equal(stepper_break_add(st, BREAK_VALUE, -1, "%b"), 2);
	assert_int_equal(stepper_break_add(st, BREAK_CONFLICT, -1, NULL), 3);

	/* check reports the conflict of %b: stop after it */
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, &sink), STEP_STOPPED);
	assert_string_equal(log.text.data, "done rewrite\ndone check\nbreak 3\n");
	/* then before infer */
	strbuf_reset(&log.text);
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, &sink), STEP_STOPPED);
	assert_string_equal(log.text.data, "break 1\n");
	assert_int_equal(s.phases_done, 2);
	/* %b joins %a's class at event 2: core is in progress there */
	strbuf_reset(&log.text);
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, &sink), STEP_STOPPED);
	assert_string_equal(log.text.data, "done infer\nevent 2\nchange 2 -1->-1\n");
	replay = stepper_replay(&s);
	assert_non_null(replay);
	b = ir_find_named(replay->module, "%b");
	assert_non_null(b);
	assert_int_equal(stepper_domain_state(replay, b->id).device, IR_NO_DEVICE);
	/* and gets the cpu at event 3 */
	strbuf_reset(&log.text);
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, &sink), STEP_STOPPED);
	assert_string_equal(log.text.data, "event 3\nchange 2 -1->0\n");
	assert_int_equal(stepper_domain_state(stepper_replay(&s), b->id).device, 0);
	assert_int_equal(stepper_breakpoint(st, 1)->hits, 2);

	/* plan ignores them all */
	strbuf_reset(&log.text);
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, false, &sink), STEP_END);
	assert_string_equal(log.text.data, "done core\n");
	assert_true(session_planned(&s));
	assert_int_equal(stepper_breakpoint(st, 1)->hits, 2);

	/* deleting, numbering */
	assert_true(stepper_break_delete(st, 2));
	assert_false(stepper_break_delete(st, 2));
	assert_int_equal(stepper_break_count(st), 2);
	assert_int_equal(stepper_break_add(st, BREAK_WATCH, -1, "%c"), 4);
	stepper_break_clear(st);
	assert_int_equal(stepper_break_count(st), 0);
	strbuf_free(&log.text);
	session_free(&s);
}

static void test_step_commits_and_restart_cancels(void **state)
{
	Session s;
	(void)state;
	session_init(&s);
	load_text(&s, shared_input);
	assert_int_equal(stepper_run(&s, STEP_EVENT, 4, true, NULL), STEP_DONE);
	assert_true(stepper_in_progress(&s, NULL, NULL));
	assert_true(session_planning_started(&s));
	/* session_step finishes the phase in progress */
	assert_true(session_step(&s, 1));
	assert_true(session_planned(&s));
	assert_false(stepper_in_progress(&s, NULL, NULL));
	/* restart and load drop a phase in progress */
	session_restart(&s);
	assert_int_equal(stepper_run(&s, STEP_EVENT, 5, true, NULL), STEP_DONE);
	assert_true(stepper_in_progress(&s, NULL, NULL));
	session_restart(&s);
	assert_false(stepper_in_progress(&s, NULL, NULL));
	assert_int_equal(s.phases_done, 0);
	assert_int_equal(stepper_run(&s, STEP_EVENT, 5, true, NULL), STEP_DONE);
	load_text(&s, shared_input);
	assert_false(stepper_in_progress(&s, NULL, NULL));
	/* a planning setting drops it too */
	assert_int_equal(stepper_run(&s, STEP_EVENT, 5, true, NULL), STEP_DONE);
	{
		bool reset;
		char *err = NULL;
		assert_true(session_setting_set(&s, session_setting_find("fallback"), "cuda:0",
						&reset, &err));
		assert_true(reset);
	}
	assert_false(stepper_in_progress(&s, NULL, NULL));
	session_free(&s);
}

/* ---- interrupts ---- */

static bool has_message(const DiagList *diags, const char *text)
{
	for (size_t i = 0; i < diags->count; i++)
		if (strstr(diags->items[i].message, text))
			return true;
	return false;
}

static void interrupt_report(void *arg, const StepReport *r)
{
	(void)arg;
	(void)r;
	interrupt_request();
}

static void test_interrupts(void **state)
{
	enum { N = 40000 };
	Session s;
	StrBuf sb;
	PhaseContext ctx;
	DiagList diags;
	IrModule *out;
	(void)state;
	session_init(&s);
	strbuf_init(&sb);
	/* two constraints per add and a use of %x each: over 65536 steps */
	strbuf_puts(&sb, "def @main(%x: " T ") {\n  %0 = add(%x, %x);\n");
	for (int i = 1; i < N; i++)
		strbuf_printf(&sb, "  %%%d = add(%%%d, %%x);\n", i, i - 1);
	strbuf_printf(&sb, "  %%%d\n}\n", N - 1);
	load_text(&s, sb.data);
	strbuf_free(&sb);

	/* between phases: nothing runs */
	interrupt_request();
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, NULL), STEP_INTERRUPTED);
	assert_true(has_message(&s.diags, "interrupted before phase 'rewrite'"));
	assert_int_equal(s.phases_done, 0);
	interrupt_clear();

	/* inside check, infer and core, called directly */
	assert_true(session_step(&s, 1));
	diag_init(&diags);
	ctx = session_phase_context(&s);
	ctx.diags = &diags;
	interrupt_request();
	out = plan_check_phase(session_current(&s), &ctx);
	assert_null(out);
	assert_true(has_message(&diags, "interrupted during phase 'check'"));
	interrupt_clear();
	assert_true(session_step(&s, 1));
	diag_clear(&diags);
	interrupt_request();
	out = pipeline_phases[pipeline_find("infer")].run(session_current(&s), &ctx);
	assert_null(out);
	assert_true(has_message(&diags, "interrupted during phase 'infer'"));
	interrupt_clear();
	assert_true(session_step(&s, 1));
	assert_int_equal(s.phases_done, 3);
	interrupt_request();
	assert_false(session_step(&s, 1));
	assert_true(has_message(&s.diags, "interrupted"));
	assert_int_equal(s.phases_done, 3);
	diag_clear(&diags);
	out = plan_core_phase(session_current(&s), &ctx);
	assert_null(out);
	assert_true(has_message(&diags, "interrupted during phase 'core'"));
	interrupt_clear();
	diag_free(&diags);

	/* inside a replay (Ctrl-C at the first watch report): the cursor
	 * stays where the poll stopped it */
	assert_int_equal(stepper_run(&s, STEP_EVENT, 1, true, NULL), STEP_DONE);
	stepper_break_add(s.stepper, BREAK_WATCH, -1, "%x");
	{
		StepSink sink = {interrupt_report, NULL};
		size_t applied;
		assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, &sink), STEP_INTERRUPTED);
		assert_true(has_message(&s.diags, "interrupted at event 65535"));
		assert_true(stepper_in_progress(&s, &applied, NULL));
		assert_int_equal(applied, 0xffff);
	}
	interrupt_clear();
	stepper_break_clear(s.stepper);
	assert_int_equal(stepper_run(&s, STEP_CONTINUE, 0, true, NULL), STEP_END);
	assert_true(session_planned(&s));
	session_free(&s);
}

/* ---- the line diff ---- */

/* Applies a unified diff to a: the hunks' context and deletions must
 * match, and the result is returned (caller frees). */
static char *apply_diff(const char *a, const char *diff)
{
	StrBuf out;
	const char *p = diff, *src = a;
	long line = 1; /* next line of a, 1-based */
	strbuf_init(&out);
	if (!*diff)
		return xstrdup(a);
	assert_true(strncmp(p, "--- ", 4) == 0);
	p = strchr(p, '\n') + 1;
	assert_true(strncmp(p, "+++ ", 4) == 0);
	p = strchr(p, '\n') + 1;
	while (*p) {
		long start, count = 1;
		const char *eol;
		assert_true(strncmp(p, "@@ -", 4) == 0);
		start = strtol(p + 4, (char **)&eol, 10);
		if (*eol == ',')
			count = strtol(eol + 1, NULL, 10);
		if (count == 0)
			start++; /* an empty range names the line before */
		/* copy the lines of a before the hunk */
		while (line < start) {
			const char *nl = strchr(src, '\n');
			strbuf_append(&out, src, (size_t)(nl - src + 1));
			src = nl + 1;
			line++;
		}
		p = strchr(p, '\n') + 1;
		while (*p && *p != '@') {
			const char *nl = strchr(p, '\n');
			size_t len = (size_t)(nl - p);
			if (*p == ' ' || *p == '-') {
				/* must match the next line of a */
				assert_true(strncmp(src, p + 1, len - 1) == 0 &&
					    src[len - 1] == '\n');
				if (*p == ' ')
					strbuf_append(&out, src, len);
				src += len;
				line++;
			} else {
				assert_true(*p == '+');
				strbuf_append(&out, p + 1, len);
			}
			p = nl + 1;
		}
	}
	strbuf_puts(&out, src);
	return strbuf_detach(&out);
}

static void check_diff(const char *a, const char *b, size_t want_hunks)
{
	StrBuf d;
	char *patched;
	size_t hunks;
	strbuf_init(&d);
	hunks = linediff_unified(&d, a, strlen(a), b, strlen(b), "a", "b", 3);
	if (want_hunks != (size_t)-1)
		assert_int_equal(hunks, want_hunks);
	patched = apply_diff(a, d.data ? d.data : "");
	if (strcmp(patched, b) != 0) {
		fprintf(stderr, "diff does not apply\n--- a\n%s--- b\n%s--- diff\n%s", a, b,
			d.data);
		fail();
	}
	free(patched);
	strbuf_free(&d);
}

static void test_linediff_format(void **state)
{
	StrBuf d;
	(void)state;
	strbuf_init(&d);
	assert_int_equal(linediff_unified(&d, "x\ny\n", 4, "x\ny\n", 4, "a", "b", 3), 0);
	assert_int_equal(d.len, 0);
	assert_int_equal(linediff_unified(&d, "1\n2\n3\n4\n5\n6\n7\n8\n9\n", 18,
					  "1\n2\n3\n4\nfive\n6\n7\n8\n9\n", 21, "old", "new", 3),
			 1);
	assert_string_equal(d.data, "--- old\n+++ new\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n"
				    " 6\n 7\n 8\n");
	strbuf_reset(&d);
	/* an insertion at the very start, a deletion at the very end */
	assert_int_equal(linediff_unified(&d, "a\n", 2, "new\na\n", 6, "x", "y", 0), 1);
	assert_string_equal(d.data, "--- x\n+++ y\n@@ -0,0 +1 @@\n+new\n");
	strbuf_reset(&d);
	assert_int_equal(linediff_unified(&d, "a\nb\n", 4, "a\n", 2, "x", "y", 3), 1);
	assert_string_equal(d.data, "--- x\n+++ y\n@@ -1,2 +1 @@\n a\n-b\n");
	strbuf_free(&d);
	/* far-apart changes are separate hunks; near ones merge */
	check_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
		   "0\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n13\n", 2);
	check_diff("1\n2\n3\n4\n5\n6\n7\n", "0\n2\n3\n4\n5\n6\n8\n", 1);
	check_diff("", "a\nb\n", 1);
	check_diff("a\nb\n", "", 1);
	check_diff("a\nb\nc\n", "c\nb\na\n", (size_t)-1);
}

/* The keyed diff (`diff --devices`): lines compare by key; a device that
 * became known is no change and shows as b has it; one that moved is. */
static void test_linediff_keyed(void **state)
{
	static const char key_a[] = "a\nb\nc\nd\n", shown_a[] = "a\nb /* cpu:0 */\nc\nd\n";
	static const char key_b[] = "a\nb\nc\nD\n",
			  shown_b[] =
				  "a /* cpu:0 */\nb /* cuda:0 */\nc /* cpu:0 */\nD /* cpu:0 */\n";
	LinediffText a = {shown_a, key_a, strlen(shown_a), strlen(key_a)};
	LinediffText b = {shown_b, key_b, strlen(shown_b), strlen(key_b)};
	StrBuf d;
	(void)state;
	strbuf_init(&d);
	assert_int_equal(linediff_unified_keyed(&d, &a, &b, "x", "y", 3), 1);
	assert_string_equal(d.data, "--- x\n+++ y\n@@ -1,4 +1,4 @@\n"
				    " a /* cpu:0 */\n"
				    "-b /* cpu:0 */\n"
				    "+b /* cuda:0 */\n"
				    " c /* cpu:0 */\n"
				    "-d\n"
				    "+D /* cpu:0 */\n");
	strbuf_reset(&d);
	/* devices that only became known: no change at all */
	a = (LinediffText){key_a, key_a, strlen(key_a), strlen(key_a)};
	b = (LinediffText){"a /* x */\nb /* x */\nc\nd /* y */\n", key_a, 32, strlen(key_a)};
	assert_int_equal(linediff_unified_keyed(&d, &a, &b, "x", "y", 3), 0);
	assert_int_equal(d.len, 0);
	strbuf_free(&d);
}

static void test_linediff_random(void **state)
{
	unsigned seed = 12345;
	(void)state;
	for (int round = 0; round < 300; round++) {
		StrBuf a, b;
		int n = 1 + round % 40;
		strbuf_init(&a);
		strbuf_init(&b);
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			strbuf_printf(&a, "line %u\n", (seed >> 16) % 6);
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 4)
				strbuf_printf(&b, "line %u\n", (seed >> 20) % 6);
		}
		check_diff(a.data ? a.data : "", b.data ? b.data : "", (size_t)-1);
		strbuf_free(&a);
		strbuf_free(&b);
	}
}

/* Two large texts that share little: the cut-off keeps it fast, and the
 * diff still applies. */
static void test_linediff_large(void **state)
{
	enum { N = 60000 };
	StrBuf a, b;
	(void)state;
	strbuf_init(&a);
	strbuf_init(&b);
	for (int i = 0; i < N; i++) {
		strbuf_printf(&a, "  %%%d = add(%%%d, %%x);\n", i, i - 1);
		strbuf_printf(&b, "  %%%d = add(%%%d, %%x) /* ty=T */;\n", i, i - 1);
		if (i % 7 == 0) {
			strbuf_puts(&a, "}\n");
			strbuf_puts(&b, "}\n");
		}
	}
	check_diff(a.data, b.data, (size_t)-1);
	strbuf_free(&a);
	strbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_matches_core),
		cmocka_unit_test(test_breakpoints),
		cmocka_unit_test(test_step_commits_and_restart_cancels),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_linediff_format),
		cmocka_unit_test(test_linediff_keyed),
		cmocka_unit_test(test_linediff_random),
		cmocka_unit_test(test_linediff_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
