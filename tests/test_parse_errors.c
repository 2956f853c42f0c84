/*
 * test_parse_errors.c - golden tests of the parser's diagnostics.
 *
 * tests/golden/parse_errors/NAME.relay is a malformed (or warned-about)
 * module; NAME.expected holds exactly what the parser reports for it,
 * every diagnostic formatted by diag_format with its source line and caret.
 * The file is parsed under the name "NAME.relay" against the default device
 * table, so the expected text does not depend on where the tree lives. A
 * module with an error must come back NULL; one with only warnings must
 * come back as a module. On a mismatch the test prints the first line that
 * differs and both texts.
 *
 * To regenerate the expected files after an intended change of wording:
 *
 *   DEVPLAN_UPDATE_GOLDEN=1 build/tests/test_parse_errors
 *
 * then read the diff (git diff tests/golden) before committing it.
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

#include "devices.h"
#include "diag.h"
#include "ir.h"
#include "parse.h"

#define GOLDEN_DIR DEVPLAN_SOURCE_DIR "/tests/golden/parse_errors"

enum { MIN_GOLDEN_FILES = 30 };

static bool read_all(const char *path, StrBuf *out)
{
	FILE *f = fopen(path, "rb");
	char buf[4096];
	size_t n;
	if (!f)
		return false;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_append(out, buf, n);
	fclose(f);
	return true;
}

static void write_all(const char *path, const StrBuf *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	if (text->len)
		assert_int_equal(fwrite(text->data, 1, text->len, f), text->len);
	assert_int_equal(fclose(f), 0);
}

/* Prints the first differing line of want and got, then both in full. */
static void print_difference(const char *name, const char *want, const char *got)
{
	const char *w = want, *g = got;
	int line = 1;
	while (*w && *w == *g) {
		if (*w == '\n')
			line++;
		w++;
		g++;
	}
	while (w > want && w[-1] != '\n')
		w--, g--;
	print_error("%s: diagnostics differ from line %d of %.*s.expected\n"
		    "- %.*s\n+ %.*s\n"
		    "---- expected ----\n%s---- got ----\n%s------------------\n"
		    "(DEVPLAN_UPDATE_GOLDEN=1 rewrites the expected files)\n",
		    name, line, (int)(strlen(name) - strlen(".relay")), name, (int)strcspn(w, "\n"),
		    w, (int)strcspn(g, "\n"), g, want, got);
}

static void test_golden(void **state)
{
	const char *name = *state; /* NAME.relay */
	char path[1024], expected_path[1024];
	StrBuf input, want, got;
	SourceFile *src;
	DeviceTable devices;
	DiagList diags;
	IrModule *m;
	const char *update = getenv("DEVPLAN_UPDATE_GOLDEN");
	strbuf_init(&input);
	strbuf_init(&want);
	strbuf_init(&got);
	snprintf(path, sizeof path, "%s/%s", GOLDEN_DIR, name);
	snprintf(expected_path, sizeof expected_path, "%s/%.*s.expected", GOLDEN_DIR,
		 (int)(strlen(name) - strlen(".relay")), name);
	assert_true(read_all(path, &input));

	devices_init_default(&devices);
	diag_init(&diags);
	src = source_from_string(name, input.data ? input.data : "", input.len);
	m = parse_module(src, &devices, &diags);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&got, &diags.items[i]);
	if (!got.data)
		strbuf_puts(&got, "");

	if (update && strcmp(update, "1") == 0) {
		write_all(expected_path, &got);
	} else {
		if (!read_all(expected_path, &want)) {
			print_error("%s: missing %s (DEVPLAN_UPDATE_GOLDEN=1 writes it)\n", name,
				    expected_path);
			fail();
		}
		if (!want.data)
			strbuf_puts(&want, "");
		if (strcmp(want.data, got.data) != 0) {
			print_difference(name, want.data, got.data);
			fail();
		}
	}
	/* every golden input says something; errors mean no module */
	assert_true(diags.count > 0);
	if (diags.errors)
		assert_null(m);
	else
		assert_non_null(m);

	ir_module_free(m);
	diag_free(&diags);
	source_release(src);
	devices_free(&devices);
	strbuf_free(&input);
	strbuf_free(&want);
	strbuf_free(&got);
}

static int is_relay(const struct dirent *ent)
{
	size_t n = strlen(ent->d_name);
	return n > 6 && strcmp(ent->d_name + n - 6, ".relay") == 0;
}

int main(void)
{
	struct dirent **names;
	struct CMUnitTest *tests;
	int n = scandir(GOLDEN_DIR, &names, is_relay, alphasort), rc;
	if (n < MIN_GOLDEN_FILES) {
		fprintf(stderr,
			"test_parse_errors: found %d golden files in %s, want at least %d\n", n,
			GOLDEN_DIR, MIN_GOLDEN_FILES);
		return 1;
	}
	tests = calloc((size_t)n, sizeof *tests);
	for (int i = 0; i < n; i++) {
		tests[i].name = names[i]->d_name;
		tests[i].test_func = test_golden;
		tests[i].initial_state = names[i]->d_name;
	}
	rc = _cmocka_run_group_tests("parse_errors", tests, (size_t)n, NULL, NULL);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(tests);
	return rc;
}
