/*
 * test_path.c - lexical path arithmetic (core/ir/path.c): normalising,
 * joining, the directory part, lying within a directory, the common
 * directory of two paths and the relative path between them. Each case is
 * a table row; a failure names the row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "path.h"

static void test_normalize(void **state)
{
	static const char *const cases[][2] = {
		{"a/./b/../c//", "a/c"},
		{"/a/b/..", "/a"},
		{"/..", "/"},
		{"/../x", "/x"},
		{"../x", "../x"},
		{"../../x/..", "../.."},
		{"a/..", "."},
		{"", "."},
		{".", "."},
		{"./m.relay", "m.relay"},
		{"/", "/"},
		{"//a//b/", "/a/b"},
		{"a/../../b", "../b"},
		{"x/..y/.z", "x/..y/.z"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *actual = path_normalize(cases[i][0]);
		if (strcmp(actual, cases[i][1]) != 0)
			fail_msg("path_normalize(\"%s\") is \"%s\", not \"%s\"", cases[i][0],
				 actual, cases[i][1]);
		free(actual);
	}
}

static void test_join_and_dirname(void **state)
{
	static const char *const joins[][3] = {
		{"/a/b", "c.relay", "/a/b/c.relay"},
		{"/a/b", "../c", "/a/c"},
		{"/a/b", "/x/./y", "/x/y"},
		{"/", "x", "/x"},
		{"/a", ".", "/a"},
	};
	static const char *const dirs[][2] = {
		{"a/b", "a"}, {"b", "."}, {"/b", "/"}, {"/a/b/c", "/a/b"}, {"/", "/"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof joins / sizeof joins[0]; i++) {
		char *actual = path_join(joins[i][0], joins[i][1]);
		if (strcmp(actual, joins[i][2]) != 0)
			fail_msg("path_join(\"%s\", \"%s\") is \"%s\", not \"%s\"", joins[i][0],
				 joins[i][1], actual, joins[i][2]);
		free(actual);
	}
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		char *actual = path_dirname(dirs[i][0]);
		if (strcmp(actual, dirs[i][1]) != 0)
			fail_msg("path_dirname(\"%s\") is \"%s\", not \"%s\"", dirs[i][0], actual,
				 dirs[i][1]);
		free(actual);
	}
	assert_string_equal(path_basename("/a/b.svg"), "b.svg");
	assert_string_equal(path_basename("b.svg"), "b.svg");
}

static void test_within_common_and_relative(void **state)
{
	/* from, to, common directory, relative path, to within from */
	static const char *const cases[][5] = {
		{"/a/b", "/a/b/c/d", "/a/b", "c/d", "y"},
		{"/a/b", "/a/d/e", "/a", "../d/e", "n"},
		{"/a/b", "/a/b", "/a/b", ".", "y"},
		{"/a/b", "/a/bc", "/a", "../bc", "n"},
		{"/a/bc", "/a/b", "/a", "../b", "n"},
		{"/", "/x/y", "/", "x/y", "y"},
		{"/a", "/", "/", "..", "n"},
		{"/a/b/c", "/x", "/", "../../../x", "n"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *common = path_common_dir(cases[i][0], cases[i][1]);
		char *relative = path_relative(cases[i][0], cases[i][1]);
		bool within = path_is_within(cases[i][0], cases[i][1]);
		if (strcmp(common, cases[i][2]) != 0)
			fail_msg("path_common_dir(\"%s\", \"%s\") is \"%s\", not \"%s\"",
				 cases[i][0], cases[i][1], common, cases[i][2]);
		if (strcmp(relative, cases[i][3]) != 0)
			fail_msg("path_relative(\"%s\", \"%s\") is \"%s\", not \"%s\"", cases[i][0],
				 cases[i][1], relative, cases[i][3]);
		if (within != (cases[i][4][0] == 'y'))
			fail_msg("path_is_within(\"%s\", \"%s\") is %s", cases[i][0], cases[i][1],
				 within ? "true" : "false");
		free(common);
		free(relative);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_join_and_dirname),
		cmocka_unit_test(test_within_common_and_relative),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
