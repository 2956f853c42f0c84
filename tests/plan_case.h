/*
 * plan_case.h - reading a planning case (NAME.dp, NAME.relay, NAME.expect)
 * into a Session for the unit tests, as tests/check-cases runs it.
 *
 * Header-only: each test executable that includes it gets its own copy.
 * The caller owns the returned module path.
 */
#ifndef DEVPLAN_TESTS_PLAN_CASE_H
#define DEVPLAN_TESTS_PLAN_CASE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "session.h"

/* Applies the `set NAME VALUE` and `target add NAME [TARGET]` lines of the
 * case script dir/dp to s; returns the path of the module it loads, or
 * NULL. A line the session refuses fails the calling test. */
static char *plan_case_setup(Session *s, const char *dir, const char *dp)
{
	char path[4096], line[1024], *module = NULL;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, dp);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f)) {
		char name[128], value[512], target[128];
		int fields;
		if (sscanf(line, "set %127s %511s", name, value) == 2) {
			bool reset;
			char *err = NULL;
			int i = session_setting_find(name);
			assert_true(i >= 0);
			if (!session_setting_set(s, i, value, &reset, &err)) {
				fprintf(stderr, "%s: %s\n", dp, err);
				fail();
			}
		} else if ((fields = sscanf(line, "target add %127s %127s", name, target)) >= 1) {
			char *err = NULL;
			if (devices_add(&s->devices, name, fields == 2 ? target : NULL, &err) < 0) {
				fprintf(stderr, "%s: %s\n", dp, err);
				fail();
			}
		} else if (sscanf(line, "load %511s", value) == 1) {
			free(module);
			module = xasprintf("%s/%s", dir, value);
		}
	}
	fclose(f);
	return module;
}

/* Whether the case's NAME.expect says that its script fails (`# exit N`
 * with N other than 0): only then may planning it fail (a later command,
 * such as a `pin`, may be what fails). */
static bool plan_case_expects_failure(const char *dir, const char *dp)
{
	char path[4096], line[1024];
	bool fails = false;
	FILE *f;
	snprintf(path, sizeof path, "%s/%.*s.expect", dir, (int)(strlen(dp) - 3), dp);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof line, f)) {
		int status;
		if (sscanf(line, "# exit %d", &status) == 1)
			fails = status != 0;
	}
	fclose(f);
	return fails;
}

#endif
