/*
 * test_session.c - the session's module versions under the cache setting
 * (core/session/session.c): versions let go to bound memory are recomputed exactly,
 * and what the trace keeps outlives them.
 *
 * Every planning case (tests/data/cases and tests/plan_cases) runs twice,
 * once keeping every version and once with `set cache 0`, which lets go of
 * every version but the current one after each phase. Both sessions then
 * answer the same commands, the ones that read earlier versions included,
 * and must print exactly the same. A plan that fails stays inspectable:
 * the session remembers where planning stopped until it moves on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"
#include "pipeline.h"
#include "session.h"

/* Commands that read every version, the trace and the planned module. */
static const char *const probe_commands[] = {
	"ir --phase parse",
	"ir --phase rewrite --devices",
	"ir --phase check --devices",
	"ir --phase infer",
	"ir --devices",
	"diff rewrite",
	"diff check",
	"diff",
	"placement",
	"conflicts",
	"copies",
	"verify",
	"restart",
	"ir",
	"step 3",
	"stepi 4",
	"diff",
	"ir --phase rewrite",
	"why %0",
	"continue",
	"ir --devices",
	"restart",
	"plan",
	"ir --devices",
};

typedef struct Run {
	Session session;
	CmdContext ctx;
	char *out;
	size_t out_len;
} Run;

static void run_begin(Run *r, bool keep_nothing)
{
	session_init(&r->session);
	if (keep_nothing)
		r->session.settings.cache_mib = 0;
	r->out = NULL;
	r->out_len = 0;
	cmd_context_init(&r->ctx, &r->session, NULL, NULL);
	r->ctx.out = open_memstream(&r->out, &r->out_len);
	assert_non_null(r->ctx.out);
	r->ctx.err = r->ctx.out;
}

static void run_line(Run *r, const char *line)
{
	fprintf(r->ctx.out, "> %s\n", line);
	commands_execute_line(&r->ctx, line);
	fflush(r->ctx.out);
}

static void run_end(Run *r)
{
	fclose(r->ctx.out);
	r->ctx.out = r->ctx.err = NULL;
	cmd_context_free(&r->ctx);
	session_free(&r->session);
	free(r->out);
}

/* How many earlier versions the session still holds. */
static size_t kept_earlier(const Session *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->phases_done; i++)
		n += s->versions[i] != NULL;
	return n;
}

static void check_case(const char *dir, const char *script)
{
	Run keep, lean;
	run_begin(&keep, false);
	run_begin(&lean, true);
	commands_run_script(&keep.ctx, script);
	commands_run_script(&lean.ctx, script);
	fflush(keep.ctx.out);
	fflush(lean.ctx.out);
	/* the lean session really let go of its earlier versions */
	assert_int_equal(kept_earlier(&lean.session), 0);
	if (keep.session.phases_done > 0)
		assert_int_equal(kept_earlier(&keep.session), keep.session.phases_done);
	for (size_t i = 0; i < DP_COUNT(probe_commands); i++) {
		run_line(&keep, probe_commands[i]);
		run_line(&lean, probe_commands[i]);
	}
	if (strcmp(keep.out, lean.out) != 0) {
		print_error("%s/%s prints differently with 'set cache 0':\n--- keep\n%s\n--- cache "
			    "0\n%s\n",
			    dir, script, keep.out, lean.out);
		fail();
	}
	run_end(&keep);
	run_end(&lean);
}

static size_t check_dir(const char *dir)
{
	char cwd[4096];
	struct dirent **names;
	size_t checked = 0;
	int n;
	assert_non_null(getcwd(cwd, sizeof cwd));
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	assert_int_equal(chdir(dir), 0);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		if (len > 3 && strcmp(name + len - 3, ".dp") == 0) {
			check_case(dir, name);
			checked++;
		}
		free(names[i]);
	}
	free(names);
	assert_int_equal(chdir(cwd), 0);
	return checked;
}

static void test_let_go_versions_recompute_exactly(void **state)
{
	(void)state;
	assert_true(check_dir(DEVPLAN_SOURCE_DIR "/tests/plan_cases") > 0);
	check_dir(DEVPLAN_DATA_DIR "/cases");
}

/* The setting: a positive budget keeps the versions that fit, newest
 * first being the current; lowering it lets go at once; `set` rejects
 * nonsense. */
static void test_cache_setting(void **state)
{
	Run r;
	int i = session_setting_find("cache");
	bool reset;
	char *err;
	(void)state;
	assert_true(i >= 0);
	run_begin(&r, false);
	assert_int_equal(chdir(DEVPLAN_SOURCE_DIR "/tests/plan_cases"), 0);
	run_line(&r, "load two_wrappers.relay");
	run_line(&r, "plan");
	assert_true(session_planned(&r.session));
	assert_int_equal(kept_earlier(&r.session), pipeline_count);
	assert_true(session_setting_set(&r.session, i, "0", &reset, &err));
	assert_false(reset);
	assert_int_equal(kept_earlier(&r.session), 0);
	/* asked for, a version comes back and stays until planning moves */
	assert_non_null(session_version(&r.session, 0));
	assert_non_null(r.session.versions[1]);
	assert_false(session_setting_set(&r.session, i, "-1", &reset, &err));
	assert_non_null(strstr(err, "non-negative"));
	free(err);
	assert_false(session_setting_set(&r.session, i, "lots", &reset, &err));
	free(err);
	run_end(&r);
}

/* Ctrl-C while a version is recomputed: no version, an error that says
 * which, and the session as it was (the next request recomputes). */
static void test_recompute_interrupted(void **state)
{
	Run r;
	(void)state;
	run_begin(&r, true);
	assert_int_equal(chdir(DEVPLAN_SOURCE_DIR "/tests/plan_cases"), 0);
	run_line(&r, "load two_wrappers.relay");
	run_line(&r, "plan");
	assert_true(session_planned(&r.session));
	assert_null(r.session.versions[3]);
	session_clear_diags(&r.session);
	interrupt_request();
	/* infer polls the flag when it finishes */
	assert_null(session_version(&r.session, pipeline_find("infer")));
	assert_true(r.session.diags.errors > 0);
	assert_non_null(strstr(r.session.diags.items[r.session.diags.count - 1].message,
			       "cannot recompute the module after phase 'infer'"));
	interrupt_clear();
	assert_null(r.session.versions[3]);
	assert_true(session_planned(&r.session));
	assert_non_null(session_version(&r.session, pipeline_find("infer")));
	run_end(&r);
}

/* A phase that edits its input in place and then fails (infer, on a type
 * error, after check inserted a copy): the session recomputes the version
 * it was given, stays before the phase, and prints what a session that
 * keeps every version prints. */
static void test_consumed_input_restored(void **state)
{
	static const char text[] =
		"def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32],\n"
		"          %c: Tensor[(3, 2), float32]) {\n"
		"  %0 = add(%a, %b);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
		"  %2 = add(%b, %c);\n"
		"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
		"  subtract(%1, %3)\n"
		"}\n";
	char path[] = "/tmp/devplan-test-XXXXXX.relay";
	char line[128];
	int fd = mkstemps(path, 6);
	Run keep, lean;
	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	run_begin(&keep, false);
	run_begin(&lean, true);
	snprintf(line, sizeof line, "load %s", path);
	run_line(&keep, line);
	run_line(&lean, line);
	for (int i = 0; i < 2; i++) {
		Run *r = i ? &lean : &keep;
		run_line(r, "step 2");
		run_line(r, "step");
		assert_int_equal(r->session.phases_done, 2);
		assert_non_null(session_current(&r->session));
		run_line(r, "ir");
		run_line(r, "phases");
	}
	fflush(keep.ctx.out);
	fflush(lean.ctx.out);
	assert_non_null(strstr(keep.out, "%4 = device_copy"));
	assert_string_equal(keep.out, lean.out);
	run_end(&keep);
	run_end(&lean);
	unlink(path);
}

/* Output of one command line, and its status. */
static int run_status(Run *r, const char *line)
{
	int status;
	fprintf(r->ctx.out, "> %s\n", line);
	status = commands_execute_line(&r->ctx, line);
	fflush(r->ctx.out);
	return status;
}

/* Planning stops in check under the error policy: the session remembers
 * where and why, the inspection commands answer from check's analysis
 * (after a note saying planning stopped), the same whether the versions
 * are kept or let go, and anything that moves planning forgets it. */
static void test_failed_plan_stays_inspectable(void **state)
{
	static const char *const inspect[] = {
		"conflicts", "why %b", "constraints %b", "copies", "ir --phase check", "render -",
	};
	int check = pipeline_find("check");
	Run keep, lean;
	(void)state;
	assert_int_equal(chdir(DEVPLAN_DATA_DIR "/cases"), 0);
	run_begin(&keep, false);
	run_begin(&lean, true);
	for (int i = 0; i < 2; i++) {
		Run *r = i ? &lean : &keep;
		const char *reason = NULL;
		assert_int_equal(session_failed_phase(&r->session, NULL), -1);
		assert_int_equal(run_status(r, "set policy error"), 0);
		assert_int_equal(run_status(r, "load shared_input.relay"), 0);
		assert_int_equal(run_status(r, "plan"), 1);
		assert_int_equal(session_failed_phase(&r->session, &reason), check);
		assert_non_null(reason);
		assert_non_null(strstr(reason, "'%b' is needed on cpu:0 and cuda:0"));
		for (size_t k = 0; k < DP_COUNT(inspect); k++)
			assert_int_equal(run_status(r, inspect[k]), 0);
		/* trying again fails again, in the same place */
		assert_int_equal(run_status(r, "step"), 1);
		assert_int_equal(session_failed_phase(&r->session, NULL), check);
		assert_int_equal(run_status(r, "restart"), 0);
		assert_int_equal(session_failed_phase(&r->session, &reason), -1);
		assert_null(reason);
		assert_int_equal(run_status(r, "conflicts"), 1);
		/* a phase that succeeds forgets the failure too */
		assert_int_equal(run_status(r, "plan"), 1);
		assert_int_equal(run_status(r, "set policy copy"), 0);
		assert_int_equal(session_failed_phase(&r->session, NULL), -1);
		assert_int_equal(run_status(r, "plan"), 0);
		assert_int_equal(run_status(r, "copies"), 0);
	}
	assert_non_null(strstr(keep.out, "note: planning stopped in phase 'check' (policy error): "
					 "'%b' is needed on cpu:0 and cuda:0\n"));
	assert_non_null(strstr(keep.out, "resolution: none under policy error"));
	assert_non_null(strstr(keep.out, "check: %b is needed on cpu:0 and cuda:0; policy error"));
	assert_non_null(strstr(keep.out, "@main %b cpu:0 -> cuda:0 140 bytes (policy copy would "
					 "insert it for a conflict)\n"));
	assert_non_null(strstr(keep.out, "phase 'check' produced no module"));
	assert_non_null(strstr(keep.out, "planning stopped in check\""));
	assert_non_null(strstr(keep.out, "color=red"));
	assert_string_equal(keep.out, lean.out);
	run_end(&keep);
	run_end(&lean);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_let_go_versions_recompute_exactly),
		cmocka_unit_test(test_cache_setting),
		cmocka_unit_test(test_recompute_interrupted),
		cmocka_unit_test(test_consumed_input_restored),
		cmocka_unit_test(test_failed_plan_stays_inspectable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
