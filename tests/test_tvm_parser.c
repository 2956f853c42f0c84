/*
 * test_tvm_parser.c - the Relay texts of TVM's own parser and printer
 * tests, read as TVM reads them.
 *
 * tests/tvm_parser/ holds them (its README says which TVM tests they come
 * from, which were left out and why):
 *   - parser/, printer/, std/ and plan_devices/: texts TVM accepts. Each
 *     loads (against the default device table), prints, loads again and
 *     equals the first load in meaning (core/ir/ir_equal.h, as strictly
 *     as it goes: kinds, operators, attributes as written, constants,
 *     spans, free variables by name, devices, sharing),
 *     and prints the same the second time [P1];
 *   - reject/: texts TVM rejects. Each fails to load, with exactly the
 *     positioned diagnostics of NAME.expected (as test_parse_errors
 *     compares: the file parsed under the name "NAME.relay"; regenerate
 *     with DEVPLAN_UPDATE_GOLDEN=1 and read the diff).
 * test_reads_as_tvm ports the assertions TVM's tests make about what a
 * text means (assert_parses_as, graph_equal): a text against a reference
 * written in calls (`1 * 1 + 1` is `add(multiply(1, 1), 1)`), equal or
 * not in meaning.
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
#include "parse.h"
#include "print.h"

#include "ir_equal.h"

#define TVM_DIR DEVPLAN_SOURCE_DIR "/tests/tvm_parser"

static DeviceTable devices;

/* a and b the same module (ir_equal.h) as strictly as it goes, for a
 * module that prints and reads back: attributes as written, source spans,
 * free variables by name; the first difference into why. */
static bool same_module(const IrModule *a, const IrModule *b, const char *where, char *why,
			size_t why_len)
{
	IrEqualOptions opts = {.devices_a = &devices,
			       .devices_b = &devices,
			       .spans = true,
			       .annotations = true,
			       .attrs_as_written = true,
			       .free_var_names = true};
	IrDifference d;
	if (ir_equal_modules(a, b, &opts, &d))
		return true;
	snprintf(why, why_len, "%s:%u:%u: %s%s%s%s", where, d.pos_a.line, d.pos_a.col,
		 d.global ? "in @" : "", d.global ? d.global : "", d.global ? ": " : "", d.what);
	return false;
}

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

/* The module text holds, parsed under name; its diagnostics, formatted,
 * into *diagnostics when that is not NULL. */
static IrModule *parse_text(const char *name, const char *text, size_t len, StrBuf *diagnostics)
{
	SourceFile *src = source_from_string(name, text, len);
	DiagList diags;
	IrModule *m;
	diag_init(&diags);
	m = parse_module(src, &devices, &diags);
	if (diagnostics)
		for (size_t i = 0; i < diags.count; i++)
			diag_format(diagnostics, &diags.items[i]);
	diag_free(&diags);
	source_release(src);
	return m;
}

static IrModule *parse_or_fail(const char *name, const char *text)
{
	StrBuf sb;
	IrModule *m;
	strbuf_init(&sb);
	m = parse_text(name, text, strlen(text), &sb);
	if (!m)
		fail_msg("%s does not load:\n%s\n--- the text:\n%s", name, sb.data ? sb.data : "",
			 text);
	strbuf_free(&sb);
	return m;
}

static char *print_text(const IrModule *m)
{
	StrBuf sb;
	PrintOptions opts = {.devices = &devices, .show_metadata = true};
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	return strbuf_detach(&sb);
}

/* The .relay files of dir, sorted, as a NULL-terminated array of names. */
static char **list_relay_files(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;
	size_t n = 0, cap = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		if (len > 6 && strcmp(ent->d_name + len - 6, ".relay") == 0) {
			grow_array((void **)&names, &cap, n + 2, sizeof(char *));
			names[n++] = xasprintf("%s", ent->d_name);
		}
	}
	closedir(d);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	if (names)
		names[n] = NULL;
	*count = n;
	return names;
}

static void free_names(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

/* Every text of TVM_DIR/sub loads, prints, loads again to the same module
 * and prints the same; at least min of them. */
static void check_accepted(const char *sub, size_t min)
{
	char *dir = xasprintf("%s/%s", TVM_DIR, sub);
	size_t n;
	char **names = list_relay_files(dir, &n);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]), why[600];
		StrBuf text;
		IrModule *m, *back;
		char *printed, *again;
		strbuf_init(&text);
		assert_true(read_all(path, &text));
		m = parse_or_fail(names[i], text.data ? text.data : "");
		printed = print_text(m);
		back = parse_or_fail(names[i], printed);
		if (!same_module(m, back, names[i], why, sizeof why))
			fail_msg("%s/%s: parse(print(m)) differs from m: %s\n--- printed:\n%s", sub,
				 names[i], why, printed);
		again = print_text(back);
		if (strcmp(again, printed) != 0)
			fail_msg(
				"%s/%s: print(parse(print(m))) differs from print(m):\n%s\n---\n%s",
				sub, names[i], printed, again);
		free(again);
		free(printed);
		ir_module_free(back);
		ir_module_free(m);
		strbuf_free(&text);
		free(path);
	}
	printf("%s: %zu texts load, print and load again to the same module\n", sub, n);
	assert_true(n >= min);
	free_names(names);
	free(dir);
}

static void test_parser_texts(void **state)
{
	(void)state;
	check_accepted("parser", 120);
}

static void test_printer_texts(void **state)
{
	(void)state;
	check_accepted("printer", 20);
}

static void test_std_texts(void **state)
{
	(void)state;
	check_accepted("std", 4);
}

static void test_plan_devices_texts(void **state)
{
	(void)state;
	check_accepted("plan_devices", 50);
}

/* What TVM's tests assert a text means, with the expression they build
 * written as a text in calls. */
static const struct {
	const char *file; /* in parser/ */
	const char *reference;
	bool equal;
} meanings[] = {
	/* test_bin_op */
	{"bin_op_01", "multiply(1, 1)", true},
	{"bin_op_02", "divide(1, 1)", true},
	{"bin_op_03", "add(1, 1)", true},
	{"bin_op_04", "subtract(1, 1)", true},
	{"bin_op_05", "less(1, 1)", true},
	{"bin_op_06", "greater(1, 1)", true},
	{"bin_op_07", "less_equal(1, 1)", true},
	{"bin_op_08", "greater_equal(1, 1)", true},
	{"bin_op_09", "equal(1, 1)", true},
	{"bin_op_10", "not_equal(1, 1)", true},
	/* test_parens */
	{"parens_1", "(1 * 1) + 1", true},
	{"parens_1", "1 * (1 + 1)", false},
	{"parens_3", "multiply(1, add(1, 1))", true},
	/* test_op_assoc */
	{"op_assoc_1", "(((1 * 1) + 1) < 1) == 1", true},
	{"op_assoc_1", "equal(less(add(multiply(1, 1), 1), 1), 1)", true},
	{"op_assoc_3", "1 == (1 < (1 + (1 * 1)))", true},
	{"op_assoc_3", "equal(1, less(1, add(1, multiply(1, 1))))", true},
	/* test_int_literal, test_float_literal: the dtypes */
	{"int_literal_07", "-42i32", true},
	{"int_literal_08", "-42i16", true},
	{"int_literal_10", "-42i64", true},
	{"int_literal_11", "-42i32", true},
	{"int_literal_13", "2147483648i64", true},
	{"float_literal_13", "3f16", true},
	{"float_literal_15", "3f32", true},
	{"float_literal_16", "3f64", true},
	{"negative_1", "10", true},
	{"negative_2", "-10", true},
	/* test_let, test_seq, test_graph */
	{"let_1", "let %x = 1; ()", true},
	{"let_2", "let %x = 1; let %y = 2; ()", true},
	{"seq_1", "let %_ = (); ()", true},
	{"seq_2", "let %x = 1; ()", true},
	{"graph_1", "%0 = (); (%0, %0, 1)", true},
	{"graph_single", "()", true},
	/* test_func, test_call */
	{"func_3", "fn (%x, %y) { add(%x, %y) }", true},
	{"call_1", "let %id = fn (%x) { %x }; multiply(10, %id(10))", true},
	{"call_4", "let %multiply = fn (%x, %y) { multiply(%x, %y) }; %multiply(0, 0)", true},
	{"call_6",
	 "let %curried_mult = fn (%x) { fn (%y) { multiply(%x, %y) } };\n"
	 "let %_ = %curried_mult(0);\n"
	 "%0 = %curried_mult(0);\n"
	 "%0(0)",
	 true},
	/* test_incomplete_type: `_` says nothing */
	{"incomplete_type", "let %_ = (); ()", true},
	/* test_builtin_types: TVM's spellings */
	{"builtin_types_int32", "let %_: Tensor[(), int32] = (); ()", true},
	{"builtin_types_int8x4", "let %_: int8 = (); ()", false},
};

static void test_reads_as_tvm(void **state)
{
	(void)state;
	for (size_t i = 0; i < DP_COUNT(meanings); i++) {
		char *path = xasprintf("%s/parser/%s.relay", TVM_DIR, meanings[i].file), why[600];
		StrBuf text;
		IrModule *m, *ref;
		bool same;
		strbuf_init(&text);
		assert_true(read_all(path, &text));
		m = parse_or_fail(meanings[i].file, text.data);
		ref = parse_or_fail("reference", meanings[i].reference);
		same = same_module(m, ref, meanings[i].file, why, sizeof why);
		if (same != meanings[i].equal)
			fail_msg("%s.relay %s %s: %s", meanings[i].file,
				 meanings[i].equal ? "does not read as" : "reads as",
				 meanings[i].reference, same ? "they are equal" : why);
		ir_module_free(ref);
		ir_module_free(m);
		strbuf_free(&text);
		free(path);
	}
}

/* Every text of reject/ fails with its golden diagnostics. */
static void test_rejected_texts(void **state)
{
	char *dir = xasprintf("%s/reject", TVM_DIR);
	bool update = getenv("DEVPLAN_UPDATE_GOLDEN") != NULL;
	size_t n;
	char **names = list_relay_files(dir, &n);
	(void)state;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]) - strlen(".relay");
		char *path = xasprintf("%s/%s", dir, names[i]);
		char *golden = xasprintf("%s/%.*s.expected", dir, (int)len, names[i]);
		StrBuf text, got, want;
		IrModule *m;
		strbuf_init(&text);
		strbuf_init(&got);
		strbuf_init(&want);
		assert_true(read_all(path, &text));
		m = parse_text(names[i], text.data ? text.data : "", text.len, &got);
		if (m)
			fail_msg("reject/%s loads, but TVM rejects it", names[i]);
		if (update) {
			FILE *f = fopen(golden, "wb");
			assert_non_null(f);
			fwrite(got.data ? got.data : "", 1, got.len, f);
			fclose(f);
		} else {
			if (!read_all(golden, &want))
				fail_msg("reject/%s has no %.*s.expected (DEVPLAN_UPDATE_GOLDEN=1 "
					 "writes it)",
					 names[i], (int)len, names[i]);
			if (strcmp(got.data ? got.data : "", want.data ? want.data : "") != 0)
				fail_msg("reject/%s:\n---- expected ----\n%s---- got ----\n%s",
					 names[i], want.data ? want.data : "",
					 got.data ? got.data : "");
		}
		strbuf_free(&text);
		strbuf_free(&got);
		strbuf_free(&want);
		free(golden);
		free(path);
	}
	printf("reject: %zu texts rejected with their diagnostics\n", n);
	assert_true(n >= 10);
	free_names(names);
	free(dir);
}

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	devices_free(&devices);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parser_texts), cmocka_unit_test(test_printer_texts),
		cmocka_unit_test(test_std_texts),    cmocka_unit_test(test_plan_devices_texts),
		cmocka_unit_test(test_reads_as_tvm), cmocka_unit_test(test_rejected_texts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
