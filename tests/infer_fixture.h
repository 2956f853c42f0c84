/*
 * infer_fixture.h - the fixture every suite of type relations shares: the
 * walk's (test_infer.c, and its topics test_infer_adt.c and
 * test_infer_closure.c) and one per operator family F of ops.def
 * (test_infer_F.c, which tests/op-families checks against ops.def).
 *
 * One setup and teardown, and four ways to make the module whose @main is
 * inferred and checked, so that a family's suite holds its operators'
 * cases however they were written:
 *   - text after a prelude: check_type, check_error(_at) and
 *     check_parse_error compare @main's result type, its one formatted
 *     error (file:line:col) or the parser's first error. The prelude is
 *     INFER_FIXTURE_PRELUDE with @main's body on INFER_FIXTURE_BODY_LINE,
 *     or, for one test, fixture_prelude and fixture_body_line when it sets
 *     them (the ADT types a memory.* operator needs); fixture_tail, when
 *     set, follows @main (a #[metadata] section);
 *   - plain text, `def @main(params) {\n  body\n}` (the body on line 2):
 *     expect_type, expect_error (the message and its position),
 *     expect_parse_error and expect_round_trip (print(parse(text)) == text);
 *   - the same text for one call: expect_call_type, expect_call_error and
 *     expect_call_parse_error (with its column);
 *   - built by hand with ir.h's constructors (prm, call, the T, ARGS and
 *     ATTRS macros), without the parser: run_main, check_built_type and
 *     check_built_error, OK and FAIL.
 *
 * Header-only, included once by each suite after cmocka's headers; it
 * includes the project's headers it uses, and its functions are static
 * inline, so a suite pays for none it does not call.
 * The modules and diagnostics are the suite's, created in setup and
 * released in teardown. A suite whose modules need more than @main
 * (test_infer_adt.c: type definitions) defines INFER_FIXTURE_PRELUDE, the
 * text before @main, and INFER_FIXTURE_BODY_LINE, the line @main's body
 * lands on, before including it.
 */
#ifndef DEVPLAN_TESTS_INFER_FIXTURE_H
#define DEVPLAN_TESTS_INFER_FIXTURE_H

#include "devices.h"
#include "diag.h"
#include "infer.h"
#include "ir.h"
#include "parse.h"
#include "print.h"

#ifndef INFER_FIXTURE_PRELUDE
#define INFER_FIXTURE_PRELUDE "#[version = \"0.0.5\"]\n"
#define INFER_FIXTURE_BODY_LINE 3
#endif

static DeviceTable devices;
static DiagList diags;
static SourceFile *src;
static IrModule *mod; /* parsed from text */
static const char *fixture_tail;
static const char *fixture_prelude; /* NULL: INFER_FIXTURE_PRELUDE */
static int fixture_body_line;       /* 0: INFER_FIXTURE_BODY_LINE */
static IrModule *m;                 /* built by hand */
static Expr *params[64];
static uint32_t nparams;
static uint32_t next_line;

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	src = NULL;
	mod = NULL;
	fixture_tail = NULL;
	fixture_prelude = NULL;
	fixture_body_line = 0;
	m = ir_module_new(NULL);
	nparams = 0;
	next_line = 10;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(mod);
	source_release(src);
	ir_module_free(m);
	diag_free(&diags);
	devices_free(&devices);
	return 0;
}

/* ---- text after a prelude ------------------------------------------------ */

/* The line @main's body is on. */
static inline int fixture_line(void)
{
	return fixture_body_line ? fixture_body_line : INFER_FIXTURE_BODY_LINE;
}

/* The prelude, `def @main(params) {\n  body\n}` and
 * fixture_tail, as the module source t.relay. */
static inline SourceFile *fixture_source(const char *params, const char *body)
{
	StrBuf sb;
	SourceFile *out;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%sdef @main(%s) {\n  %s\n}\n%s",
		      fixture_prelude ? fixture_prelude : INFER_FIXTURE_PRELUDE, params, body,
		      fixture_tail ? fixture_tail : "");
	out = source_from_string("t.relay", sb.data, sb.len);
	strbuf_free(&sb);
	return out;
}

static inline char *format_diags(void)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&sb, &diags.items[i]);
	return strbuf_detach(&sb);
}

/* Parses fixture_source's module (the body at column 3 of line
 * fixture_line()) and infers it; returns whether inference succeeded. Parse errors fail
 * the test. */
static inline bool infer_main(const char *params, const char *body)
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
static inline void check_type(const char *params, const char *body, const char *want)
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
static inline void check_error_at(const char *params, const char *body, int col, const char *want)
{
	char *got, expected[512];
	assert_false(infer_main(params, body));
	got = format_diags();
	snprintf(expected, sizeof expected, "t.relay:%d:%d: error: %s\n", fixture_line(), col,
		 want);
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
	snprintf(expected, sizeof expected, "t.relay:%d:%d: error: %s\n", fixture_line(), col,
		 want);
	if (strncmp(got, expected, strlen(expected)) != 0)
		print_error("%s:\ngot:  %swant: %s", body, got, expected);
	assert_true(strncmp(got, expected, strlen(expected)) == 0);
	free(got);
}

/* ---- plain text ---------------------------------------------------------- */

static inline IrModule *parse_text(const char *text)
{
	SourceFile *src = source_from_string("nn.relay", text, strlen(text));
	IrModule *mod = parse_module(src, &devices, &diags);
	if (!mod || diags.errors) {
		diag_print_all(stderr, &diags);
		fprintf(stderr, "--- text that did not parse:\n%s", text);
	}
	source_release(src);
	assert_non_null(mod);
	assert_int_equal(diags.errors, 0);
	return mod;
}

/* Parses `def @main(PARAMS) { BODY }` (the body's call on line 2, column
 * 3) and infers it; returns whether inference succeeded. */
static inline bool infer_plain_main(const char *params, const char *body)
{
	char text[4096];
	bool ok;
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, body);
	mod = parse_text(text);
	ok = infer_module(mod, &diags);
	return ok;
}

/* @main's result has type `want`. */
static inline void expect_type(const char *params, const char *body, const char *want)
{
	int32_t g;
	if (!infer_plain_main(params, body))
		diag_print_all(stderr, &diags);
	assert_int_equal(diags.errors, 0);
	g = ir_find_global(mod, "main");
	assert_true(g >= 0);
	assert_string_equal(infer_type_name(mod, mod->globals[g].fn->u.fn.body->type), want);
	ir_module_free(mod);
	mod = NULL;
}

/* Inference fails with exactly this one error, at the call. */
static inline void expect_error(const char *params, const char *body, const char *want)
{
	bool ok = infer_plain_main(params, body);
	if (ok || diags.count != 1)
		diag_print_all(stderr, &diags);
	assert_false(ok);
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message, want);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, 3);
	ir_module_free(mod);
	mod = NULL;
	diag_free(&diags);
	diag_init(&diags);
}

/* The parser rejects the module with this first error (an attribute of
 * the wrong kind for the operator's schema). */
static inline void expect_parse_error(const char *params, const char *body, const char *want)
{
	char text[4096];
	SourceFile *src;
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, body);
	src = source_from_string("nn.relay", text, strlen(text));
	mod = parse_module(src, &devices, &diags);
	source_release(src);
	assert_true(diags.errors > 0);
	assert_string_equal(diags.items[0].message, want);
	ir_module_free(mod);
	mod = NULL;
	diag_free(&diags);
	diag_init(&diags);
}

/* print(parse(text)) == text, and the module infers. */
static inline void expect_round_trip(const char *text)
{
	StrBuf sb;
	mod = parse_text(text);
	strbuf_init(&sb);
	print_module(&sb, mod, NULL);
	assert_string_equal(sb.data, text);
	strbuf_free(&sb);
	if (!infer_module(mod, &diags))
		diag_print_all(stderr, &diags);
	assert_int_equal(diags.errors, 0);
}

/* ---- plain text, one call ----------------------------------------------- */

static inline void print_diags(void)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&sb, &diags.items[i]);
	fprintf(stderr, "%s", sb.data ? sb.data : "");
	strbuf_free(&sb);
}

/* Parses `def @main(params) {\n  call\n}` (which must parse) and infers it;
 * returns whether inference succeeded. */
static inline bool infer_text_call(const char *params, const char *call)
{
	char text[2048];
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, call);
	src = source_from_string("t.relay", text, strlen(text));
	mod = parse_module(src, &devices, &diags);
	if (!mod || diags.errors) {
		print_diags();
		fail_msg("does not parse: %s", text);
	}
	return infer_module(mod, &diags);
}

static inline const char *body_type(void)
{
	static char buf[512];
	int32_t g = ir_find_global(mod, "main");
	StrBuf sb;
	assert_true(g >= 0);
	strbuf_init(&sb);
	type_print(&sb, mod->globals[g].fn->u.fn.body->type);
	snprintf(buf, sizeof buf, "%s", sb.data ? sb.data : "");
	strbuf_free(&sb);
	return buf;
}

/* The call types as `want`. */
static inline void expect_call_type(const char *params, const char *call, const char *want)
{
	if (!infer_text_call(params, call)) {
		print_diags();
		fail_msg("inference failed: %s", call);
	}
	if (strcmp(body_type(), want) != 0)
		fail_msg("%s: got %s, want %s", call, body_type(), want);
}

/* The call fails with exactly this error, positioned at the call. */
static inline void expect_call_error(const char *params, const char *call, const char *want)
{
	if (infer_text_call(params, call))
		fail_msg("%s: inferred %s, want the error %s", call, body_type(), want);
	if (diags.count != 1)
		print_diags();
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message, want);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, 3);
}

/* The call does not parse: its first error has this text and column. */
static inline void expect_call_parse_error(const char *params, const char *call, const char *want,
					   uint32_t col)
{
	char text[2048];
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, call);
	src = source_from_string("t.relay", text, strlen(text));
	mod = parse_module(src, &devices, &diags);
	if (mod && !diags.errors)
		fail_msg("parses: %s", call);
	assert_true(diags.count >= 1);
	assert_string_equal(diags.items[0].message, want);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, col);
}

/* ---- built by hand ------------------------------------------------------ */

#define ANY DIM_ANY
#define NDIMS(...) ((uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define T(dt, ...) type_tensor(ir_data_arena(m), dt, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define S(dt) type_scalar(ir_data_arena(m), dt)
#define ARGS(...) \
	(Expr *[]){__VA_ARGS__}, (uint32_t)(sizeof((Expr *[]){__VA_ARGS__}) / sizeof(Expr *))
#define ATTRS(...) (Attr[]){__VA_ARGS__}, (uint32_t)(sizeof((Attr[]){__VA_ARGS__}) / sizeof(Attr))
#define NOATTRS NULL, 0
#define LIST(name, ...) attr_list_of(name, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})

static inline Pos next_pos(void)
{
	return (Pos){next_line++, 3};
}

/* A parameter of @main. */
static inline Expr *prm(const char *name, Type *t)
{
	Expr *p = ir_var(m, next_pos(), name, VAR_PARAM, t);
	assert_true(nparams < 64);
	params[nparams++] = p;
	return p;
}

static inline Attr attr_int(const char *name, int64_t v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_INT, .u.i = v}};
	return a;
}

static inline Attr attr_float(const char *name, double v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_FLOAT, .u.f = v}};
	return a;
}

static inline Attr attr_bool(const char *name, bool v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_BOOL, .u.b = v}};
	return a;
}

static inline Attr attr_str(const char *name, const char *v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_STRING, .u.s = v}};
	return a;
}

static inline Attr attr_none(const char *name)
{
	Attr a = {.name = name, .value = {.kind = ATTR_NONE}};
	return a;
}

static inline Attr attr_list_of(const char *name, uint32_t n, const int64_t *vals)
{
	Attr a = {.name = name, .value = {.kind = ATTR_LIST}};
	AttrValue *items = arena_array(ir_data_arena(m), n, sizeof(AttrValue));
	for (uint32_t i = 0; i < n; i++) {
		items[i].kind = ATTR_INT;
		items[i].u.i = vals[i];
	}
	a.value.u.list.n = n;
	a.value.u.list.items = items;
	return a;
}

static inline Expr *call(OpKind op, Expr *const *args, uint32_t nargs, const Attr *attrs,
			 uint32_t nattrs)
{
	return ir_call_op(m, next_pos(), op, args, nargs, attrs, nattrs);
}

/* Wraps body in `def @main(params) { body }` and infers the module. */
static inline bool run_main(Expr *body)
{
	Expr *fn = ir_fn(m, (Pos){1, 1}, params, nparams, NULL, body);
	ir_add_global(m, "main", fn, (Pos){1, 1});
	return infer_module(m, &diags);
}

static inline const char *type_text(const Type *t)
{
	static char buf[512];
	StrBuf sb;
	strbuf_init(&sb);
	type_print(&sb, t);
	snprintf(buf, sizeof buf, "%s", sb.data ? sb.data : "");
	strbuf_free(&sb);
	return buf;
}

static inline void check_built_type(const Expr *e, const char *want)
{
	assert_string_equal(type_text(e->type), want);
}

/* Exactly one error, with this text, at this expression's position. */
static inline void check_built_error(const Expr *at, const char *want)
{
	if (diags.count != 1)
		diag_print_all(stderr, &diags);
	assert_int_equal(diags.count, 1);
	assert_int_equal(diags.errors, 1);
	assert_string_equal(diags.items[0].message, want);
	if (at) {
		assert_int_equal(diags.items[0].pos.line, at->pos.line);
		assert_int_equal(diags.items[0].pos.col, at->pos.col);
	}
	assert_false(m->typed);
}

/* Infers `op(args)` in @main; returns the call. */
static inline Expr *infer_built_call(bool expect_ok, OpKind op, Expr *const *args, uint32_t nargs,
				     const Attr *attrs, uint32_t nattrs)
{
	Expr *e = call(op, args, nargs, attrs, nattrs);
	bool ok = run_main(e);
	if (ok != expect_ok)
		diag_print_all(stderr, &diags);
	assert_int_equal(ok, expect_ok);
	return e;
}

#define OK(op, args, attrs) infer_built_call(true, op, args, attrs)
#define FAIL(op, args, attrs) infer_built_call(false, op, args, attrs)

#endif
