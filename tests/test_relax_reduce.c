/*
 * test_relax_reduce.c - `reduce` on Relax modules (core/session/reduce.c's
 * search over core/relax/relax_reduce.c's candidates).
 *
 * The property: every module of the tests/data/relax folders that fails to plan
 * under `set policy tvm` reduces to a module that loads, fails with the
 * same error (its message up to the first full stop: TVM's exception and
 * what it says, not the operands it names), has no more bindings and no
 * more bytes than the module as loaded printed, and is the same text on a
 * second run. Then examples of each pass on small modules.
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

#include "reduce.h"
#include "relax_parse.h"
#include "relax_print.h"
#include "relax_reduce.h"
#include "session.h"
#include "session_relax.h"

/* The first error of a plan under policy tvm, up to its first ". ", or
 * NULL when the module plans (malloc'ed). */
static char *plan_error(Session *s)
{
	if (session_relax_step(s, SIZE_MAX))
		return NULL;
	for (size_t i = 0; i < s->diags.count; i++)
		if (s->diags.items[i].severity == DIAG_ERROR) {
			const char *m = s->diags.items[i].message, *stop = strstr(m, ". ");
			size_t n = stop ? (size_t)(stop - m) : strlen(m);
			char *key = malloc(n + 1);
			memcpy(key, m, n);
			key[n] = '\0';
			return key;
		}
	return strdup("");
}

static bool fails_with(void *arg, Session *c)
{
	char *key = plan_error(c);
	bool same = key && strcmp(key, arg) == 0;
	free(key);
	return same;
}

static bool load_text(Session *s, const char *text, const char *name)
{
	SourceFile *src = source_from_string(name, text, strlen(text));
	bool ok;
	session_init(s);
	s->settings.policy = POLICY_TVM;
	ok = session_load_source(s, src, name);
	source_release(src);
	return ok;
}

static size_t printed_bytes(const Session *s)
{
	StrBuf out;
	size_t n;
	strbuf_init(&out);
	relax_print_module(&out, session_relax_module(s, RX_PHASE_COLLECT));
	n = out.len;
	strbuf_free(&out);
	return n;
}

/* Reduces the module at path when it fails under policy tvm; 1 when it
 * did, 0 when it plans. */
static int check_module(const char *path)
{
	Session s, again, c;
	ReduceOptions o = {0};
	ReduceResult r, r2;
	char *key, *key2;
	size_t bytes;
	session_init(&s);
	s.settings.policy = POLICY_TVM;
	if (!session_load(&s, path) || !session_relax_active(&s))
		fail_msg("%s does not load as Relax", path);
	key = plan_error(&s);
	if (!key) {
		session_free(&s);
		return 0;
	}
	bytes = printed_bytes(&s);
	session_restart(&s);
	o.test = fails_with;
	o.test_arg = key;
	o.property = key;
	if (!reduce_module(&s, &o, &r))
		fail_msg("%s: reduce refused: %s", path,
			 s.diags.count ? s.diags.items[0].message : "");
	assert_false(r.interrupted);
	if (r.bindings_after > r.bindings_before || strlen(r.text) > bytes)
		fail_msg("%s: reduced to %zu bindings, %zu bytes from %zu, %zu", path,
			 r.bindings_after, strlen(r.text), r.bindings_before, bytes);
	/* the written module, on its own: loads, fails the same way */
	if (!load_text(&c, r.text, "reduced.py"))
		fail_msg("%s: the reduced module does not load:\n%s", path, r.text);
	key2 = plan_error(&c);
	if (!key2 || strcmp(key, key2) != 0)
		fail_msg("%s: the reduced module fails with '%s', not '%s'", path,
			 key2 ? key2 : "(nothing)", key);
	assert_int_equal(relax_reduce_count_bindings(session_relax_module(&c, RX_PHASE_COLLECT)),
			 r.bindings_after);
	/* deterministic */
	session_init_like(&again, &s);
	assert_true(session_load(&again, path));
	assert_true(reduce_module(&again, &o, &r2));
	assert_string_equal(r.text, r2.text);
	reduce_result_free(&r2);
	free(key2);
	session_free(&c);
	session_free(&again);
	reduce_result_free(&r);
	free(key);
	session_free(&s);
	return 1;
}

static bool is_module(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && strcmp(name + n - 3, ".py") == 0 &&
	       !(n > 10 && strcmp(name + n - 10, ".expect.py") == 0);
}

static void test_corpus_property(void **state)
{
	DIR *data = opendir(DEVPLAN_DATA_DIR);
	struct dirent *d;
	int failing = 0, modules = 0;
	(void)state;
	assert_non_null(data);
	while ((d = readdir(data))) {
		char dir[4096];
		DIR *sub;
		struct dirent *f;
		if (strncmp(d->d_name, "relax", 5) != 0)
			continue;
		snprintf(dir, sizeof dir, "%s/%s", DEVPLAN_DATA_DIR, d->d_name);
		if (!(sub = opendir(dir)))
			continue;
		while ((f = readdir(sub))) {
			char path[8192];
			if (!is_module(f->d_name))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
			modules++;
			failing += check_module(path);
		}
		closedir(sub);
	}
	closedir(data);
	/* the corpus has 26 .error cases and seed_15019_extra.py */
	printf("reduced %d failing modules of %d\n", failing, modules);
	assert_true(failing >= 27);
}

/* The #15019 pattern with unrelated bindings, a helper no one calls, a
 * dataflow block and a tuple result: only the two hinted adds stay. */
static void test_seed_extra(void **state)
{
	Session s;
	ReduceOptions o = {0};
	ReduceResult r;
	char key[] = "ValueError: Binary operators with Tensor arguments must have the same "
		     "VDevice for both operands";
	(void)state;
	session_init(&s);
	s.settings.policy = POLICY_TVM;
	assert_true(session_load(&s, DEVPLAN_DATA_DIR "/relax-reduce/seed_15019_extra.py"));
	o.test = fails_with;
	o.test_arg = key;
	assert_true(reduce_module(&s, &o, &r));
	assert_int_equal(r.bindings_before, 14);
	assert_int_equal(r.bindings_after, 3);
	assert_null(strstr(r.text, "def helper"));
	assert_null(strstr(r.text, "R.dataflow"));
	assert_null(strstr(r.text, "R.sigmoid"));
	assert_non_null(strstr(r.text, "R.hint_on_device"));
	reduce_result_free(&r);
	session_free(&s);
}

/* Each pass alone on a module that has one of its candidates. */
static const char *const header = "# from tvm.script import ir as I\n"
				  "# from tvm.script import relax as R\n\n"
				  "@I.ir_module\nclass Module:\n"
				  "    @R.function\n";

static char *apply_all(const char *body, RxReducePass pass, size_t *ncands)
{
	char *text = malloc(strlen(header) + strlen(body) + 1);
	SourceFile *src;
	DiagList diags;
	RxModule *m;
	RxCandidate *cands;
	bool *all;
	StrBuf out;
	strcpy(text, header);
	strcat(text, body);
	src = source_from_string("t.py", text, strlen(text));
	diag_init(&diags);
	m = relax_parse(src, &diags);
	if (!m)
		fail_msg("does not parse: %s", diags.count ? diags.items[0].message : "");
	*ncands = relax_reduce_candidates(m, pass, &cands);
	all = calloc(*ncands + 1, sizeof *all);
	for (size_t i = 0; i < *ncands; i++)
		all[i] = true;
	relax_reduce_apply(m, cands, all, *ncands);
	strbuf_init(&out);
	relax_print_module(&out, m);
	free(all);
	free(cands);
	relax_module_free(m);
	source_release(src);
	diag_free(&diags);
	free(text);
	return strbuf_detach(&out);
}

#define T "R.Tensor((2, 2), dtype=\"float32\")"

static void test_passes(void **state)
{
	size_t n;
	char *out;
	(void)state;
	/* delete: a binding becomes a parameter; an unread one goes */
	out = apply_all("    def main(a: " T ") -> " T ":\n"
			"        b: " T " = R.exp(a)\n"
			"        c: " T " = R.nn.relu(b)\n"
			"        return c\n",
			RX_REDUCE_DELETE, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(out, "def main(c: " T ") -> " T ":\n        return c\n"));
	free(out);
	/* ... but not in a function another one calls: its calls would be an
	 * argument short */
	out = apply_all("    def f(a: " T ") -> " T ":\n"
			"        b: " T " = R.exp(a)\n"
			"        return b\n\n"
			"    @R.function\n"
			"    def main(a: " T ") -> " T ":\n"
			"        c: " T " = cls.f(a)\n"
			"        return c\n",
			RX_REDUCE_DELETE, &n);
	assert_int_equal(n, 1); /* c, in main */
	assert_non_null(strstr(out, "def f(a: " T ") -> " T ":\n        b: "));
	free(out);
	/* bypass: uses read an operand of the same struct info */
	out = apply_all("    def main(a: " T ", b: " T ") -> " T ":\n"
			"        c: " T " = R.add(a, b)\n"
			"        return c\n",
			RX_REDUCE_BYPASS, &n);
	assert_int_equal(n, 2);
	assert_null(strstr(out, "R.add"));
	assert_true(strstr(out, "return a\n") || strstr(out, "return b\n"));
	free(out);
	/* a projection of a tuple binding reads the field instead */
	out = apply_all("    def main(a: " T ", b: " T ") -> " T ":\n"
			"        t: R.Tuple(" T ", " T ") = a, b\n"
			"        u: " T " = t[1]\n"
			"        v: " T " = R.exp(u)\n"
			"        return v\n",
			RX_REDUCE_BYPASS, &n);
	assert_int_equal(n, 2); /* u to b, v to u */
	assert_null(strstr(out, "t[1]"));
	free(out);
	/* hints go, their uses reading the hinted value */
	out = apply_all("    def main(a: " T ") -> " T ":\n"
			"        b: " T " = R.hint_on_device(a, R.device(device_type=1, index=0), "
			"\"global\")\n"
			"        return b\n",
			RX_REDUCE_HINTS, &n);
	assert_int_equal(n, 1);
	assert_null(strstr(out, "hint_on_device"));
	free(out);
	/* unwrap: the dataflow block's bindings stay, the block goes */
	out = apply_all("    def main(a: " T ") -> " T ":\n"
			"        with R.dataflow():\n"
			"            b: " T " = R.exp(a)\n"
			"            R.output(b)\n"
			"        return b\n",
			RX_REDUCE_UNWRAP, &n);
	assert_int_equal(n, 1);
	assert_null(strstr(out, "dataflow"));
	assert_non_null(strstr(out, "\n        b: " T " = R.exp(a)\n"));
	free(out);
	/* funcs: a function no one calls goes, the last Relax one stays */
	out = apply_all("    def f(a: " T ") -> " T ":\n"
			"        return a\n\n"
			"    @R.function\n"
			"    def main(a: " T ") -> " T ":\n"
			"        return a\n",
			RX_REDUCE_FUNCS, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(out, "def main"));
	assert_null(strstr(out, "def f"));
	free(out);
	out = apply_all("    def f(a: " T ") -> " T ":\n"
			"        return a\n\n"
			"    @R.function\n"
			"    def main(a: " T ") -> " T ":\n"
			"        b: " T " = cls.f(a)\n"
			"        return b\n",
			RX_REDUCE_FUNCS, &n);
	assert_int_equal(n, 0); /* f is called; main is the last not called */
	free(out);
	/* tuples: fields of the returned tuple go, one stays */
	out = apply_all("    def main(a: " T ", b: " T ") -> R.Tuple(" T ", " T "):\n"
			"        return (a, b)\n",
			RX_REDUCE_TUPLES, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(out, "-> R.Tuple(" T "):\n        return (b,)\n"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_seed_extra),
		cmocka_unit_test(test_corpus_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
