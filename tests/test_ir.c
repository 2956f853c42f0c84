/*
 * test_ir.c - unit tests of the arena, types, device table and the IR's
 * cloning and traversal helpers (core/ir/arena.c, types.c, devices.c, ir.c).
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "devices.h"
#include "ir.h"
#include "ops.h"
#include "types.h"

/* strbuf_put_int prints what "%lld" prints, at both ends of the range. */
static void test_strbuf_put_int(void **state)
{
	const long long values[] = {0, 7, -1, 10, -10, 1234567890123LL, LLONG_MAX, LLONG_MIN};
	(void)state;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		StrBuf sb;
		char want[32];
		strbuf_init(&sb);
		strbuf_puts(&sb, "x");
		strbuf_put_int(&sb, values[i]);
		snprintf(want, sizeof want, "x%lld", values[i]);
		assert_string_equal(sb.data, want);
		strbuf_free(&sb);
	}
}

static void test_arena_zeroed_aligned_and_large(void **state)
{
	Arena a;
	(void)state;
	arena_init(&a);
	for (int i = 0; i < 100000; i++) {
		unsigned char *p = arena_alloc(&a, (size_t)(i % 37) + 1);
		assert_int_equal((uintptr_t)p % 8, 0);
		for (int k = 0; k < i % 37 + 1; k++)
			assert_int_equal(p[k], 0);
		memset(p, 0xab, (size_t)(i % 37) + 1);
	}
	{
		/* a request larger than a block gets a block of its own */
		unsigned char *big = arena_alloc(&a, 5u << 20);
		assert_int_equal(big[0], 0);
		assert_int_equal(big[(5u << 20) - 1], 0);
		big[0] = 1;
	}
	assert_string_equal(arena_strndup(&a, "hello world", 5), "hello");
	assert_true(a.used_bytes >= (5u << 20));
	arena_free(&a);
	assert_null(a.head);
}

static void test_types_print_equal_bytes(void **state)
{
	Arena a;
	StrBuf sb;
	int64_t dims[] = {5, 7}, any[] = {DIM_ANY, 3}, n;
	Type *t, *u, *q, *tup, *fn;
	(void)state;
	arena_init(&a);
	strbuf_init(&sb);
	t = type_tensor(&a, DT_FLOAT32, 2, dims);
	u = type_tensor(&a, DT_FLOAT32, 2, dims);
	q = type_tensor(&a, DT_INT64, 2, any);
	assert_true(type_equal(t, u));
	assert_false(type_equal(t, q));
	tup = type_tuple(&a, 2, (Type *[]){t, q});
	fn = type_func(&a, 1, (Type *[]){t}, tup);
	type_print(&sb, fn);
	assert_string_equal(
		sb.data,
		"fn (Tensor[(5, 7), float32]) -> (Tensor[(5, 7), float32], Tensor[(?, 3), int64])");
	strbuf_reset(&sb);
	type_print(&sb, type_tuple(&a, 1, (Type *[]){type_scalar(&a, DT_BOOL)}));
	assert_string_equal(sb.data, "(bool,)");
	assert_true(type_bytes(t, &n));
	assert_int_equal(n, 140);
	assert_false(type_bytes(q, &n)); /* a `?` dimension has no static size */
	{
		int64_t huge[] = {INT64_MAX / 2, 4};
		assert_false(type_num_elements(type_tensor(&a, DT_FLOAT32, 2, huge), &n));
	}
	{
		DType dt;
		assert_true(dtype_from_name("float16", 7, &dt));
		assert_int_equal(dt, DT_FLOAT16);
		assert_int_equal(dtype_size(dt), 2);
		assert_false(dtype_from_name("float8", 6, &dt));
	}
	strbuf_free(&sb);
	arena_free(&a);
}

static void test_device_table(void **state)
{
	DeviceTable t;
	char *err = NULL;
	(void)state;
	devices_init_default(&t);
	assert_int_equal(t.count, 2);
	assert_string_equal(devices_name(&t, 0), "cpu:0");
	assert_string_equal(devices_name(&t, 1), "cuda:0");
	assert_string_equal(devices_name(&t, IR_NO_DEVICE), "?");
	assert_int_equal(devices_find_name(&t, "cuda"), 1);
	assert_int_equal(devices_find(&t, DEVICE_TYPE_CUDA, 0), 1);
	assert_int_equal(devices_add(&t, "cuda:1", NULL, &err), 2);
	assert_string_equal(t.items[2].target, "cuda");
	assert_string_equal(t.items[2].host_target, "llvm");
	assert_int_equal(devices_add(&t, "cuda:1", NULL, &err), -1);
	assert_string_equal(err, "device 'cuda:1' is already in the table");
	free(err);
	assert_int_equal(devices_add(&t, "tpu:0", NULL, &err), -1);
	assert_non_null(strstr(err, "unknown device kind 'tpu'"));
	free(err);
	assert_int_equal(devices_add(&t, "cuda:x", NULL, &err), -1);
	assert_non_null(strstr(err, "malformed device name"));
	free(err);
	/* an expression keeps its device in 16 bits: the table stops at
	 * DEVICES_MAX */
	for (int id = 2; t.count < DEVICES_MAX; id++) {
		char name[32];
		int next = (int)t.count;
		snprintf(name, sizeof name, "cuda:%d", id);
		assert_int_equal(devices_add(&t, name, NULL, &err), next);
	}
	assert_int_equal(devices_add(&t, "cpu:1", NULL, &err), -1);
	assert_non_null(strstr(err, "the device table is full"));
	free(err);
	devices_free(&t);
}

/* Memory scopes: KIND:ID:SCOPE names, an entry per (type, id, scope) with
 * the target and cost model of the same device without a scope, TVM's
 * Join of two entries, and interning a scope of a device the table has. */
static void test_device_scopes(void **state)
{
	DeviceTable t;
	char *err = NULL;
	int texture, scope_a, scope_b;
	(void)state;
	devices_init_default(&t);
	t.items[1].bandwidth = 12; /* `target set cuda:0 bandwidth=12` */
	texture = devices_add(&t, "gpu:0:global.texture", NULL, &err);
	assert_int_equal(texture, 2);
	assert_string_equal(t.items[2].name, "cuda:0:global.texture");
	assert_string_equal(t.items[2].scope, "global.texture");
	assert_string_equal(t.items[2].target, "cuda");
	assert_string_equal(t.items[2].host_target, "llvm");
	assert_true(t.items[2].bandwidth == 12);
	assert_string_equal(t.items[0].scope, "");
	assert_int_equal(devices_add(&t, "cuda:0:global.texture", NULL, &err), -1);
	assert_string_equal(err, "device 'cuda:0:global.texture' is already in the table");
	free(err);
	assert_int_equal(devices_add(&t, "cuda:0:", NULL, &err), -1);
	assert_non_null(strstr(err, "malformed device name 'cuda:0:'"));
	free(err);
	assert_int_equal(devices_add(&t, "cuda:0:tex ture", NULL, &err), -1);
	free(err);
	assert_int_equal(devices_add(&t, "cuda::x", NULL, &err), -1);
	free(err);
	scope_a = devices_add(&t, "cpu:0:scopeA", "c", &err);
	scope_b = devices_add(&t, "cpu:0:scopeB", NULL, &err);
	assert_string_equal(t.items[scope_a].target, "c");
	assert_null(t.items[scope_b].host_target);
	/* lookups: a name without a scope finds the entry without one */
	assert_int_equal(devices_find_name(&t, "cuda:0"), 1);
	assert_int_equal(devices_find_name(&t, "cuda:0:global.texture"), texture);
	assert_int_equal(devices_find_name(&t, "cpu:0:scopeC"), -1);
	assert_int_equal(devices_find(&t, DEVICE_TYPE_CPU, 0), 0);
	assert_int_equal(devices_find_scoped(&t, DEVICE_TYPE_CPU, 0, "scopeB"), scope_b);
	/* Join: the scope wins over none, whichever side; two scopes or two
	 * devices do not join */
	assert_int_equal(devices_join(&t, 0, scope_a), scope_a);
	assert_int_equal(devices_join(&t, scope_b, 0), scope_b);
	assert_int_equal(devices_join(&t, scope_a, scope_a), scope_a);
	assert_int_equal(devices_join(&t, scope_a, scope_b), -1);
	assert_int_equal(devices_join(&t, 1, texture), texture);
	assert_int_equal(devices_join(&t, 0, texture), -1);
	assert_int_equal(devices_join(&t, 0, 1), -1);
	assert_int_equal(devices_join(&t, IR_NO_DEVICE, IR_NO_DEVICE), -1);
	assert_true(devices_same_device(&t, scope_a, scope_b));
	assert_false(devices_same_device(&t, scope_a, texture));
	assert_int_equal(devices_unscoped(&t, scope_b), 0);
	assert_int_equal(devices_unscoped(&t, 1), 1);
	/* interning: a new scope of a device the table has is appended once;
	 * one of a device it lacks, or a malformed scope, is refused */
	assert_int_equal(devices_intern(&t, DEVICE_TYPE_CUDA, 0, "shared"), 5);
	assert_string_equal(t.items[5].name, "cuda:0:shared");
	assert_int_equal(devices_intern(&t, DEVICE_TYPE_CUDA, 0, "shared"), 5);
	assert_int_equal(devices_intern_name(&t, "cuda:0:local"), 6);
	assert_int_equal(devices_intern(&t, DEVICE_TYPE_CUDA, 1, "shared"), -1);
	assert_int_equal(devices_intern(&t, DEVICE_TYPE_CUDA, 1, ""), -1);
	assert_int_equal(devices_intern(&t, DEVICE_TYPE_CPU, 0, "a b"), -1);
	assert_int_equal(t.count, 7);
	/* a scope of a device whose entry without one was never added */
	assert_int_equal(devices_add(&t, "cuda:2:global.texture", NULL, &err), 7);
	assert_int_equal(devices_unscoped(&t, 7), 7);
	assert_int_equal(devices_intern(&t, DEVICE_TYPE_CUDA, 2, "global"), 8);
	assert_int_equal(devices_unscoped(&t, 8), 7);
	devices_free(&t);
}

#define T57(m) type_tensor(ir_data_arena(m), DT_FLOAT32, 2, (int64_t[]){5, 7})

/* %0 = add(%a, %a); let %x = negative(%0); multiply(%x, %0) */
static IrModule *small_module(void)
{
	IrModule *m = ir_module_new(NULL);
	Pos p = {1, 1};
	Expr *a = ir_var(m, p, "a", VAR_PARAM, T57(m));
	Expr *add = ir_call_op(m, p, OP_ADD, (Expr *[]){a, a}, 2, NULL, 0);
	Expr *x = ir_var(m, p, "x", VAR_LET, NULL);
	Expr *neg = ir_call_op(m, p, OP_NEGATIVE, &add, 1, NULL, 0);
	Expr *mul = ir_call_op(m, p, OP_MULTIPLY, (Expr *[]){x, add}, 2, NULL, 0);
	Expr *let = ir_let(m, p, x, neg, mul);
	add->name = "0";
	a->device = 1;
	ir_add_global(m, "main", ir_fn(m, p, &a, 1, NULL, let), p);
	return m;
}

static void test_clone_keeps_sharing_ids_and_devices(void **state)
{
	IrModule *m = small_module(), *c;
	Expr *let, *mul;
	(void)state;
	c = ir_module_clone(m);
	assert_int_equal(c->nglobals, 1);
	assert_int_equal(c->nexprs, m->nexprs);
	assert_ptr_not_equal(c->globals[0].fn, m->globals[0].fn);
	let = c->globals[0].fn->u.fn.body;
	mul = let->u.let.body;
	/* the shared %0 is one node in the clone too */
	assert_ptr_equal(mul->u.call.args[1], let->u.let.value->u.call.args[0]);
	assert_string_equal(mul->u.call.args[1]->name, "0");
	/* the let variable still points at its (cloned) value */
	assert_ptr_equal(let->u.let.var->u.var.value, let->u.let.value);
	assert_int_equal(c->globals[0].fn->u.fn.params[0]->device, 1);
	assert_int_equal(mul->id, m->globals[0].fn->u.fn.body->u.let.body->id);
	ir_module_free(c);
	ir_module_free(m);
}

static void test_postorder_children_first_and_deep(void **state)
{
	IrModule *m = ir_module_new(NULL);
	Pos p = {1, 1};
	Expr *x = ir_var(m, p, "x", VAR_PARAM, T57(m)), *e = x;
	ExprVec order = {0};
	uint8_t *seen;
	(void)state;
	/* a chain deep enough to overflow a recursive walk */
	for (int i = 0; i < 300000; i++)
		e = ir_call_op(m, p, OP_ADD, (Expr *[]){e, x}, 2, NULL, 0);
	ir_add_global(m, "main", ir_fn(m, p, &x, 1, NULL, e), p);
	seen = calloc(m->nexprs / 8 + 1, 1);
	ir_postorder(m, m->globals[0].fn, true, seen, &order);
	assert_int_equal(order.count, m->nexprs);
	assert_ptr_equal(order.items[0], x);
	assert_ptr_equal(order.items[order.count - 1], m->globals[0].fn);
	for (size_t i = 1; i + 1 < order.count; i++)
		assert_int_equal(order.items[i]->kind, EXPR_CALL);
	exprvec_free(&order);
	free(seen);
	{
		IrModule *c = ir_module_clone(m);
		assert_int_equal(c->nexprs, m->nexprs);
		ir_module_free(c);
	}
	ir_module_free(m);
}

static void test_value_names(void **state)
{
	IrModule *m = small_module();
	StrBuf sb;
	Expr *let = m->globals[0].fn->u.fn.body;
	(void)state;
	strbuf_init(&sb);
	ir_value_name(&sb, let->u.let.value);
	assert_string_equal(sb.data, "negative@1:1");
	strbuf_reset(&sb);
	ir_value_name(&sb, let->u.let.var);
	assert_string_equal(sb.data, "%x");
	/* a name a phase made up: the commands show it, placement does not */
	let->u.let.value->name = "4";
	let->u.let.value->name_generated = true;
	strbuf_reset(&sb);
	ir_value_name(&sb, let->u.let.value);
	assert_string_equal(sb.data, "%4");
	strbuf_reset(&sb);
	ir_value_source_name(&sb, let->u.let.value);
	assert_string_equal(sb.data, "negative@1:1");
	strbuf_reset(&sb);
	ir_value_source_name(&sb, let->u.let.var);
	assert_string_equal(sb.data, "%x");
	strbuf_free(&sb);
	ir_module_free(m);
}

/* op_lookup finds every operator of the registry by its name, and nothing
 * for a name that is not one (or only a prefix of one). */
static void test_op_lookup(void **state)
{
	(void)state;
	for (int i = 0; i < OP_COUNT; i++) {
		const char *name = op_info((OpKind)i)->name;
		assert_int_equal(op_lookup(name, strlen(name)), i);
		assert_int_equal(op_lookup(name, strlen(name) - 1) == (OpKind)i, false);
	}
	assert_int_equal(op_lookup("no_such_op", 10), OP_NONE);
	assert_int_equal(op_lookup("", 0), OP_NONE);
	assert_false(op_info(OP_EINSUM)->has_kernel);
	assert_true(op_info(OP_ADD)->has_kernel);
}

/* op_attr_kind and op_attr_default read ops.def's `name:kind=default`
 * entries; every schema is well formed: each entry a name, a colon, a known
 * kind, then nothing or `=` and a default without spaces. */
static void test_op_schemas(void **state)
{
	size_t len = 99;
	const char *d;
	(void)state;
	assert_int_equal(op_attr_kind(OP_CONV2D, "strides"), 'l');
	assert_int_equal(op_attr_kind(OP_CONV2D, "out_dtype"), 's');
	assert_int_equal(op_attr_kind(OP_CONV2D, "stride"), 0);
	assert_int_equal(op_attr_kind(OP_ADD, "axis"), 0);
	d = op_attr_default(OP_CONV2D, "strides", &len);
	assert_non_null(d);
	assert_int_equal(len, 5);
	assert_memory_equal(d, "[1,1]", 5);
	d = op_attr_default(OP_CONV2D, "out_layout", &len); /* "" */
	assert_non_null(d);
	assert_int_equal(len, 0);
	d = op_attr_default(OP_CONV2D, "data_layout", &len);
	assert_int_equal(len, 4);
	assert_memory_equal(d, "NCHW", 4);
	d = op_attr_default(OP_LAYER_NORM, "epsilon", &len);
	assert_int_equal(len, 5);
	assert_memory_equal(d, "1e-05", 5);
	assert_null(op_attr_default(OP_CONV2D, "channels", &len)); /* no default */
	assert_null(op_attr_default(OP_CONV2D, "no_such", &len));
	for (int op = 0; op < OP_COUNT; op++)
		for (const char *s = op_info((OpKind)op)->schema; *s; s = op_schema_next(s)) {
			size_t name = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
			assert_true(name > 0);
			assert_int_equal(s[name], ':');
			assert_non_null(strchr("ifsblLFdecm", s[name + 1]));
			assert_true(s[name + 2] == '\0' || s[name + 2] == ' ' ||
				    s[name + 2] == '=');
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op_lookup),
		cmocka_unit_test(test_op_schemas),
		cmocka_unit_test(test_strbuf_put_int),
		cmocka_unit_test(test_arena_zeroed_aligned_and_large),
		cmocka_unit_test(test_types_print_equal_bytes),
		cmocka_unit_test(test_device_table),
		cmocka_unit_test(test_device_scopes),
		cmocka_unit_test(test_clone_keeps_sharing_ids_and_devices),
		cmocka_unit_test(test_postorder_children_first_and_deep),
		cmocka_unit_test(test_value_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
