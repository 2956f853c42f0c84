/*
 * test_verify.c - the IR verifier (core/ir/verify.c).
 *
 * Two sides. Every version the pipeline makes of every planning case
 * verifies clean, with types required from infer on and devices from core
 * on (and the plan passing plan_verify), as session_run_phase requires in
 * builds with DEVPLAN_VERIFY (checked here directly, so that it holds in
 * any build).
 * And each kind of damage a phase could do to a module is found (a missing
 * fixed on_device among them, with which TVM would read a device otherwise
 * than planned): a planned
 * module is cloned, one node of the clone is broken, and the verifier must
 * say what and where.
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

#include "plan.h"
#include "session.h"
#include "verify.h"

#include "plan_case.h"

#define T "Tensor[(5, 7), float32]"

/* A let, a closure with a parameter, a call of it and an annotation. */
static const char *const module_text =
	"def @main(%a: " T ", %b: " T ") {\n"
	"  let %x = add(%a, %b);\n"
	"  let %f = fn (%y: " T ") {\n"
	"    negative(%y)\n"
	"  };\n"
	"  %0 = %f(%x);\n"
	"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][1]);\n"
	"  multiply(%1, %a)\n"
	"}\n";

/* What session_run_phase requires after phase p. */
static unsigned required_after(size_t p)
{
	unsigned require = 0;
	for (size_t i = 0; i <= p; i++) {
		if (pipeline_phases[i].flags & PHASE_PRODUCES_TYPES)
			require |= VERIFY_TYPES;
		if (pipeline_phases[i].flags & PHASE_PLACES_DEVICES)
			require |= VERIFY_DEVICES;
	}
	return require;
}

/* Every version s holds verifies clean; name says which in a failure. */
static void verify_versions(Session *s, const char *name)
{
	for (size_t v = 0; v <= s->phases_done; v++) {
		DiagList diags;
		const IrModule *m = s->versions[v];
		unsigned require = v ? required_after(v - 1) : 0;
		if (!m)
			continue;
		diag_init(&diags);
		if (!ir_verify(m, require, s->devices.count, &diags) ||
		    ((require & VERIFY_DEVICES) && !plan_verify(m, &s->devices, &diags))) {
			fprintf(stderr, "%s, %s:\n", name,
				v ? pipeline_phases[v - 1].name : "as loaded");
			diag_print_all(stderr, &diags);
			fail();
		}
		diag_free(&diags);
	}
}

static void load_text(Session *s, const char *text)
{
	char path[] = "/tmp/devplan-verify-XXXXXX";
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

/* Plans every case of dir and verifies each version it makes (all of
 * them, or those before the phase a failing case stops in); returns how
 * many cases were planned. */
static size_t verify_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t planned = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		Session s;
		char *module;
		if (len < 4 || strcmp(ent->d_name + len - 3, ".dp") != 0)
			continue;
		session_init(&s);
		s.settings.cache_mib = 1e9; /* keep every version */
		module = plan_case_setup(&s, dir, ent->d_name);
		if (module && session_load(&s, module)) {
			bool ok = session_step(&s, pipeline_count);
			if (!ok && !plan_case_expects_failure(dir, ent->d_name)) {
				diag_print_all(stderr, &s.diags);
				fail_msg("%s did not plan", ent->d_name);
			}
			verify_versions(&s, ent->d_name);
			planned += ok;
		}
		free(module);
		session_free(&s);
	}
	closedir(d);
	return planned;
}

static void test_pipeline_versions_verify(void **state)
{
	Session s;
	(void)state;
	session_init(&s);
	load_text(&s, module_text);
	assert_true(session_step(&s, pipeline_count));
	verify_versions(&s, "the closure module");
	session_free(&s);
	assert_true(verify_dir(DEVPLAN_SOURCE_DIR "/tests/plan_cases") > 0);
	assert_true(verify_dir(DEVPLAN_DATA_DIR "/cases") > 0);
}

/* A list built and taken apart by a match of two pattern variables. */
static const char *const adt_text = "type List[A] {\n"
				    "  Cons(A, List[A]),\n"
				    "  Nil,\n"
				    "}\n"
				    "def @main(%a: " T ") {\n"
				    "  %0 = Cons(%a, Nil);\n"
				    "  %1 = match (%0) {\n"
				    "    Cons(%h, %t) => { %h },\n"
				    "    Nil => { %a },\n"
				    "  };\n"
				    "  negative(%1)\n"
				    "}\n";

/* ---- damage ---- */

typedef struct Damage {
	Session s;
	IrModule *m;  /* a clone of the planned module, to break */
	Expr **by_id; /* its nodes */
	DiagList diags;
} Damage;

static int damage_setup_text(void **state, const char *text)
{
	Damage *d = calloc(1, sizeof *d);
	session_init(&d->s);
	load_text(&d->s, text);
	assert_true(session_step(&d->s, pipeline_count));
	d->m = ir_module_clone(session_current(&d->s));
	d->by_id = ir_index_by_id(d->m);
	diag_init(&d->diags);
	*state = d;
	return 0;
}

static int damage_setup(void **state)
{
	return damage_setup_text(state, module_text);
}

static int adt_damage_setup(void **state)
{
	return damage_setup_text(state, adt_text);
}

static int damage_teardown(void **state)
{
	Damage *d = *state;
	diag_free(&d->diags);
	free(d->by_id);
	ir_module_free(d->m);
	session_free(&d->s);
	free(d);
	return 0;
}

/* The first node of kind `kind` (with op `op` for a call, or named `name`
 * when not NULL). */
static Expr *find(Damage *d, ExprKind kind, OpKind op, const char *name)
{
	for (uint32_t id = 0; id < d->m->nexprs; id++) {
		Expr *e = d->by_id[id];
		if (!e || e->kind != kind || (kind == EXPR_CALL && e->u.call.op != op))
			continue;
		if (!name || (e->name && strcmp(e->name, name) == 0))
			return e;
	}
	fail_msg("no such node");
	return NULL;
}

/* The clone fails to verify with an error containing `text`. */
static void expect_violation(Damage *d, const char *text)
{
	bool found = false;
	assert_false(ir_verify(d->m, VERIFY_TYPES | VERIFY_DEVICES, d->s.devices.count, &d->diags));
	for (size_t i = 0; i < d->diags.count; i++)
		if (strstr(d->diags.items[i].message, text))
			found = true;
	if (!found) {
		diag_print_all(stderr, &d->diags);
		fail_msg("expected a violation saying '%s'", text);
	}
}

static void test_clone_verifies(void **state)
{
	Damage *d = *state;
	assert_true(ir_verify(d->m, VERIFY_TYPES | VERIFY_DEVICES, d->s.devices.count, &d->diags));
	assert_int_equal(d->diags.count, 0);
}

static void test_missing_device(void **state)
{
	Damage *d = *state;
	Expr *e = find(d, EXPR_CALL, OP_MULTIPLY, NULL);
	e->device = IR_NO_DEVICE;
	expect_violation(d, "no device after planning");
	/* before core, a free device is fine */
	diag_clear(&d->diags);
	assert_true(ir_verify(d->m, VERIFY_TYPES, d->s.devices.count, &d->diags));
}

/* plan_verify finds what TVM would read otherwise than planned: each fixed
 * on_device capture wrote is needed (lexical.h). */
static void expect_misread(Damage *d, const char *text)
{
	bool found = false;
	assert_true(ir_verify(d->m, VERIFY_TYPES | VERIFY_DEVICES, d->s.devices.count, &d->diags));
	assert_false(plan_verify(d->m, &d->s.devices, &d->diags));
	for (size_t i = 0; i < d->diags.count; i++)
		if (strstr(d->diags.items[i].message, text))
			found = true;
	if (!found) {
		diag_print_all(stderr, &d->diags);
		fail_msg("expected plan_verify to say '%s'", text);
	}
}

/* A let's value and a negative on cuda:0 in a function on cpu:0. */
static const char *const scoped_text =
	"def @main(%a: " T ", %b: " T ") {\n"
	"  let %x = on_device(add(%a, %a), virtual_device=meta[VirtualDevice][1]);\n"
	"  %0 = negative(%x);\n"
	"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][1]);\n"
	"  %2 = multiply(%1, %b);\n"
	"  on_device(%2, virtual_device=meta[VirtualDevice][0])\n"
	"}\n";

static int scoped_setup(void **state)
{
	return damage_setup_text(state, scoped_text);
}

/* The copy of the negative's result (on cuda:0) to the multiply (on
 * cpu:0) reads it through on_device(..., cuda:0, fixed): without it, TVM
 * reads the negative as in @main's scope, cpu:0. */
static void test_copy_source_unscoped(void **state)
{
	Damage *d = *state;
	Expr *copy = find(d, EXPR_CALL, OP_DEVICE_COPY, NULL);
	DiagList clean;
	diag_init(&clean);
	assert_true(plan_verify(d->m, &d->s.devices, &clean));
	diag_free(&clean);
	assert_true(ir_is_op(copy->u.call.args[0], OP_ON_DEVICE));
	copy->u.call.args[0] = copy->u.call.args[0]->u.call.args[0];
	expect_misread(d, "TVM would read %0 as on cpu:0");
}

/* A let's value on another device than the let is wrapped likewise. */
static void test_let_value_unscoped(void **state)
{
	Damage *d = *state;
	Expr *let = find(d, EXPR_LET, OP_NONE, NULL);
	assert_true(ir_is_op(let->u.let.value, OP_ON_DEVICE));
	let->u.let.value = let->u.let.value->u.call.args[0];
	let->u.let.var->u.var.value = let->u.let.value;
	expect_misread(d, "TVM would read add@2:");
}

static void test_device_outside_table(void **state)
{
	Damage *d = *state;
	find(d, EXPR_CALL, OP_ADD, NULL)->device = 7;
	expect_violation(d, "device 7, which the device table");
}

static void test_missing_type(void **state)
{
	Damage *d = *state;
	find(d, EXPR_CALL, OP_NEGATIVE, NULL)->type = NULL;
	expect_violation(d, "no type after type inference");
	diag_clear(&d->diags);
	assert_true(ir_verify(d->m, VERIFY_DEVICES, d->s.devices.count, &d->diags));
	d->m->typed = false;
	expect_violation(d, "not marked typed");
}

static void test_bad_ids(void **state)
{
	Damage *d = *state;
	Expr *add = find(d, EXPR_CALL, OP_ADD, NULL);
	Expr *neg = find(d, EXPR_CALL, OP_NEGATIVE, NULL);
	neg->id = add->id;
	expect_violation(d, "an id another node has too");
	diag_clear(&d->diags);
	neg->id = d->m->nexprs + 5;
	expect_violation(d, "an id at or above the module's count");
}

static void test_missing_child(void **state)
{
	Damage *d = *state;
	find(d, EXPR_CALL, OP_MULTIPLY, NULL)->u.call.args[1] = NULL;
	expect_violation(d, "child 1 missing");
}

static void test_arity(void **state)
{
	Damage *d = *state;
	find(d, EXPR_CALL, OP_MULTIPLY, NULL)->u.call.nargs = 1;
	expect_violation(d, "'multiply' called with 1 arguments");
}

/* A call of an operator not in ops.def needs its name, attributes' text
 * and printed type; with them it verifies like any call. */
static void test_unknown_operator(void **state)
{
	Damage *d = *state;
	Expr *neg = find(d, EXPR_CALL, OP_NEGATIVE, NULL);
	UnknownOp known = {"contrib.my_op", "", neg->type};
	neg->u.call.op = OP_UNKNOWN;
	neg->u.call.unknown = NULL;
	expect_violation(d, "a call of an unknown operator without its name or type");
	diag_clear(&d->diags);
	neg->u.call.unknown = &known;
	assert_true(ir_verify(d->m, VERIFY_TYPES | VERIFY_DEVICES, d->s.devices.count, &d->diags));
}

static void test_let_value(void **state)
{
	Damage *d = *state;
	Expr *x = find(d, EXPR_VAR, OP_NONE, "x");
	x->u.var.value = find(d, EXPR_CALL, OP_MULTIPLY, NULL);
	expect_violation(d, "a let whose variable stands for another value");
}

static void test_parameter_out_of_scope(void **state)
{
	Damage *d = *state;
	/* multiply(%1, %a) reads the closure's %y instead of %a */
	find(d, EXPR_CALL, OP_MULTIPLY, NULL)->u.call.args[1] = find(d, EXPR_VAR, OP_NONE, "y");
	expect_violation(d, "%y (id ");
	expect_violation(d, "outside the function that binds it");
}

static void test_variable_bound_twice(void **state)
{
	Damage *d = *state;
	/* the let of %x binds %f's variable, which %f's let binds too; %x is
	 * then bound by nothing where it is used */
	Expr *x = find(d, EXPR_VAR, OP_NONE, "x");
	Expr *f = find(d, EXPR_VAR, OP_NONE, "f");
	for (uint32_t id = 0; id < d->m->nexprs; id++)
		if (d->by_id[id] && d->by_id[id]->kind == EXPR_LET && d->by_id[id]->u.let.var == x)
			d->by_id[id]->u.let.var = f;
	expect_violation(d, "a let whose variable stands for another value");
	expect_violation(d, "a variable bound by two binders");
	expect_violation(d, "%x (id ");
	expect_violation(d, "outside the let that binds it");
}

static void test_global_reference(void **state)
{
	Damage *d = *state;
	Expr *add = find(d, EXPR_CALL, OP_ADD, NULL);
	Expr *g = ir_global_ref(d->m, add->pos, "nowhere");
	g->u.global.index = 0;
	g->device = add->device;
	g->type = add->type;
	add->u.call.args[0] = g;
	expect_violation(d, "a reference to no global of that name");
}

static void test_adt_verifies(void **state)
{
	Damage *d = *state;
	assert_true(ir_verify(d->m, VERIFY_TYPES | VERIFY_DEVICES, d->s.devices.count, &d->diags));
}

static void test_construct_arity(void **state)
{
	Damage *d = *state;
	find(d, EXPR_CONSTRUCT, OP_NONE, "0")->u.construct.nargs = 1;
	expect_violation(d, "a construction of no known constructor of that arity");
}

static void test_pattern_variables_in_order(void **state)
{
	Damage *d = *state;
	Expr *match = find(d, EXPR_MATCH, OP_NONE, NULL), *h = match->u.match.vars[0];
	match->u.match.vars[0] = match->u.match.vars[1];
	match->u.match.vars[1] = h;
	expect_violation(d, "pattern variable 1 out of id order");
}

static void test_pattern_variable_out_of_scope(void **state)
{
	Damage *d = *state;
	/* negative(%1) reads the clause's %h instead */
	find(d, EXPR_CALL, OP_NEGATIVE, NULL)->u.call.args[0] = find(d, EXPR_VAR, OP_NONE, "h");
	expect_violation(d, "outside the match that binds it");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipeline_versions_verify),
		cmocka_unit_test_setup_teardown(test_adt_verifies, adt_damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_construct_arity, adt_damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_pattern_variables_in_order, adt_damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_pattern_variable_out_of_scope,
						adt_damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_clone_verifies, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_missing_device, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_copy_source_unscoped, scoped_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_let_value_unscoped, scoped_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_device_outside_table, damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_missing_type, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_bad_ids, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_missing_child, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_arity, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_operator, damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_let_value, damage_setup, damage_teardown),
		cmocka_unit_test_setup_teardown(test_parameter_out_of_scope, damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_variable_bound_twice, damage_setup,
						damage_teardown),
		cmocka_unit_test_setup_teardown(test_global_reference, damage_setup,
						damage_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
