/*
 * infer_fixture.h - the fixture the type-relation suites of one operator
 * family share (test_infer_elementwise.c, test_infer_misc.c): a module of
 * one @main with given parameters and body is parsed and inferred, and its
 * result type, its first error (with its column) or the parser's first
 * error is checked.
 *
 * Header-only, included once by each suite; the module and diagnostics are
 * the suite's, created in setup and released in teardown. A suite whose
 * modules need more than @main (test_infer_adt.c: type definitions)
 * defines INFER_FIXTURE_PRELUDE, the text before @main, and
 * INFER_FIXTURE_BODY_LINE, the line @main's body lands on, before
 * including it; fixture_tail, when set, follows @main (a #[metadata]
 * section).
 */
#ifndef DEVPLAN_TESTS_INFER_FIXTURE_H
#define DEVPLAN_TESTS_INFER_FIXTURE_H

#ifndef INFER_FIXTURE_PRELUDE
#define INFER_FIXTURE_PRELUDE "#[version = \"0.0.5\"]\n"
#define INFER_FIXTURE_BODY_LINE 3
#endif

static DeviceTable devices;
static DiagList diags;
static SourceFile *src;
static IrModule *mod;
static const char *fixture_tail;

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	src = NULL;
	mod = NULL;
	fixture_tail = NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(mod);
	source_release(src);
	diag_free(&diags);
	devices_free(&devices);
	return 0;
}

/* INFER_FIXTURE_PRELUDE, `def @main(params) {\n  body\n}` and
 * fixture_tail, as the module source t.relay. */
static SourceFile *fixture_source(const char *params, const char *body)
{
	StrBuf sb;
	SourceFile *out;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%sdef @main(%s) {\n  %s\n}\n%s", INFER_FIXTURE_PRELUDE, params, body,
		      fixture_tail ? fixture_tail : "");
	out = source_from_string("t.relay", sb.data, sb.len);
	strbuf_free(&sb);
	return out;
}

static char *format_diags(void)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&sb, &diags.items[i]);
	return strbuf_detach(&sb);
}

/* Parses fixture_source's module (the body at column 3 of line
 * INFER_FIXTURE_BODY_LINE) and infers it; returns whether inference succeeded. Parse errors fail
 * the test. */
static bool infer_main(const char *params, const char *body)
{
	bool ok;
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	src = fixture_source(params, body);
	mod = parse_module(src, &devices, &diags);
	if (!mod || diags.errors) {
		char *s = format_diags();
		print_error("unexpected parse diagnostics:\n%s", s);
		free(s);
		fail();
	}
	ok = infer_module(mod, &diags);
	return ok;
}

/* The body infers to the type `want`. */
static void check_type(const char *params, const char *body, const char *want)
{
	int32_t g;
	StrBuf sb;
	if (!infer_main(params, body)) {
		char *s = format_diags();
		print_error("unexpected diagnostics for %s:\n%s", body, s);
		free(s);
		fail();
	}
	g = ir_find_global(mod, "main");
	assert_true(g >= 0);
	strbuf_init(&sb);
	type_print(&sb, mod->globals[g].fn->u.fn.body->type);
	if (strcmp(sb.data, want) != 0)
		print_error("%s: got %s, want %s\n", body, sb.data, want);
	assert_string_equal(sb.data, want);
	strbuf_free(&sb);
}

/* The body fails with exactly one error, `want`, on its line at column `col`. */
static void check_error_at(const char *params, const char *body, int col, const char *want)
{
	char *got, expected[512];
	assert_false(infer_main(params, body));
	got = format_diags();
	snprintf(expected, sizeof expected, "t.relay:%d:%d: error: %s\n", INFER_FIXTURE_BODY_LINE,
		 col, want);
	if (diags.count != 1 || strncmp(got, expected, strlen(expected)) != 0)
		print_error("%s:\ngot:  %swant: %s", body, got, expected);
	assert_int_equal(diags.count, 1);
	assert_true(strncmp(got, expected, strlen(expected)) == 0);
	free(got);
}

#define check_error(params, body, want) check_error_at(params, body, 3, want)

/* The body does not parse: the first diagnostic is `want` on the body's
 * line, column col. */
static inline void check_parse_error(const char *params, const char *body, int col,
				     const char *want)
{
	char *got, expected[512];
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	src = fixture_source(params, body);
	mod = parse_module(src, &devices, &diags);
	assert_null(mod);
	got = format_diags();
	snprintf(expected, sizeof expected, "t.relay:%d:%d: error: %s\n", INFER_FIXTURE_BODY_LINE,
		 col, want);
	if (strncmp(got, expected, strlen(expected)) != 0)
		print_error("%s:\ngot:  %swant: %s", body, got, expected);
	assert_true(strncmp(got, expected, strlen(expected)) == 0);
	free(got);
}

#endif
