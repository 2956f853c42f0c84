/*
 * test_parser.c - unit tests of the Relay parser (core/ir/parse.c) and the
 * #[metadata] reader and writer (core/ir/metadata.c).
 *
 * Each construct of SPEC §2 is parsed from a small text and the IR built
 * for it is checked node by node: sharing of graph bindings, let links,
 * devices on parameters, functions and annotations, attributes, constants
 * (metadata_small.relay's tensors decoded to their exact values), types,
 * scoping and positions. Every shared model and case must parse without a
 * diagnostic. Failing parses print their diagnostics, so a broken test
 * says why.
 */
#include <dirent.h>
#include <pthread.h>
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
#include "metadata.h"
#include "parse.h"
#include "print.h"

static DeviceTable devices;
static DiagList diags;
static SourceFile *last_src; /* diags point into it: kept until the next parse */

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	diag_free(&diags);
	source_release(last_src);
	last_src = NULL;
	devices_free(&devices);
	return 0;
}

static char *format_diags(void)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&sb, &diags.items[i]);
	return strbuf_detach(&sb);
}

static IrModule *parse_with(const char *text, size_t len, DeviceTable *table)
{
	IrModule *m;
	diag_clear(&diags);
	source_release(last_src);
	last_src = source_from_string("t.relay", text, len);
	m = parse_module(last_src, table, &diags);
	return m;
}

/* Parses text that must be valid (warnings allowed). */
static IrModule *parse_ok(const char *text)
{
	IrModule *m = parse_with(text, strlen(text), &devices);
	if (!m || diags.errors) {
		char *s = format_diags();
		print_error("unexpected diagnostics:\n%s", s);
		free(s);
		fail();
	}
	return m;
}

/* Parses text that must fail; returns the formatted diagnostics. */
static char *parse_fails(const char *text)
{
	IrModule *m = parse_with(text, strlen(text), &devices);
	assert_null(m);
	assert_true(diags.errors > 0);
	return format_diags();
}

static Expr *body_of(IrModule *m, const char *global)
{
	int32_t i = ir_find_global(m, global);
	assert_true(i >= 0);
	assert_non_null(m->globals[i].fn);
	return m->globals[i].fn->u.fn.body;
}

static Expr *fn_of(IrModule *m, const char *global)
{
	int32_t i = ir_find_global(m, global);
	assert_true(i >= 0);
	return m->globals[i].fn;
}

static void assert_op(const Expr *e, OpKind op)
{
	assert_int_equal(e->kind, EXPR_CALL);
	assert_int_equal(e->u.call.op, op);
}

#define T23 "Tensor[(2, 3), float32]"

/* ---- bindings ---------------------------------------------------------- */

static void test_graph_binding_is_shared(void **state)
{
	IrModule *m = parse_ok("def @main(%x: " T23 ") {\n"
			       "  %0 = add(%x, %x);\n"
			       "  %1 = multiply(%0, %0);\n"
			       "  subtract(%1, %0)\n"
			       "}\n");
	Expr *body = body_of(m, "main"), *x = fn_of(m, "main")->u.fn.params[0];
	Expr *one = body->u.call.args[0], *zero = body->u.call.args[1];
	(void)state;
	assert_op(body, OP_SUBTRACT);
	assert_op(one, OP_MULTIPLY);
	assert_op(zero, OP_ADD);
	assert_ptr_equal(one->u.call.args[0], zero);
	assert_ptr_equal(one->u.call.args[1], zero);
	assert_ptr_equal(zero->u.call.args[0], x);
	assert_ptr_equal(zero->u.call.args[1], x);
	assert_string_equal(zero->name, "0");
	assert_string_equal(one->name, "1");
	assert_null(body->name);
	assert_string_equal(x->name, "x");
	assert_int_equal(m->nfree_vars, 0);
	ir_module_free(m);
}

static void test_binding_keeps_an_existing_name(void **state)
{
	IrModule *m = parse_ok("def @main(%x: " T23 ") {\n"
			       "  %0 = %x;\n"
			       "  %1 = add(%0, %x);\n"
			       "  %2 = %1;\n"
			       "  %2\n"
			       "}\n");
	Expr *body = body_of(m, "main");
	(void)state;
	assert_op(body, OP_ADD);
	assert_string_equal(body->name, "1");
	assert_ptr_equal(body->u.call.args[0], fn_of(m, "main")->u.fn.params[0]);
	assert_string_equal(body->u.call.args[0]->name, "x");
	ir_module_free(m);
}

static void test_let_links_its_value(void **state)
{
	IrModule *m = parse_ok("def @main(%x: " T23 ") {\n"
			       "  let %y = add(%x, %x);\n"
			       "  let %z: " T23 " = negative(%y);\n"
			       "  %z\n"
			       "}\n");
	Expr *let1 = body_of(m, "main"), *let2, *y, *z;
	(void)state;
	assert_int_equal(let1->kind, EXPR_LET);
	assert_int_equal(let1->pos.line, 2);
	assert_int_equal(let1->pos.col, 3);
	y = let1->u.let.var;
	assert_int_equal(y->kind, EXPR_VAR);
	assert_int_equal(y->u.var.role, VAR_LET);
	assert_string_equal(y->name, "y");
	assert_null(y->u.var.annotation);
	assert_ptr_equal(y->u.var.value, let1->u.let.value);
	assert_op(let1->u.let.value, OP_ADD);
	let2 = let1->u.let.body;
	assert_int_equal(let2->kind, EXPR_LET);
	z = let2->u.let.var;
	assert_non_null(z->u.var.annotation);
	assert_int_equal(z->u.var.annotation->u.tensor.ndim, 2);
	assert_ptr_equal(z->type, z->u.var.annotation);
	assert_ptr_equal(let2->u.let.value->u.call.args[0], y);
	assert_ptr_equal(let2->u.let.body, z);
	assert_ptr_equal(z->u.var.value, let2->u.let.value);
	ir_module_free(m);
}

static void test_recursive_let_closure(void **state)
{
	IrModule *m = parse_ok("def @main(%x: int32) {\n"
			       "  let %f = fn (%n: int32) -> int32 { %f(%n) };\n"
			       "  %f(%x)\n"
			       "}\n");
	Expr *let = body_of(m, "main"), *f = let->u.let.var, *closure = let->u.let.value;
	(void)state;
	assert_int_equal(closure->kind, EXPR_FN);
	assert_int_equal(closure->u.fn.body->kind, EXPR_CALL);
	assert_int_equal(closure->u.fn.body->u.call.op, OP_NONE);
	assert_ptr_equal(closure->u.fn.body->u.call.callee, f);
	assert_ptr_equal(let->u.let.body->u.call.callee, f);
	ir_module_free(m);
}

static void test_let_value_sees_the_outer_name(void **state)
{
	/* a non-function let does not see itself: %x in the value is the param */
	IrModule *m = parse_ok("def @main(%x: int32) {\n"
			       "  let %x = add(%x, 1);\n"
			       "  %x\n"
			       "}\n");
	Expr *let = body_of(m, "main");
	(void)state;
	assert_ptr_equal(let->u.let.value->u.call.args[0], fn_of(m, "main")->u.fn.params[0]);
	assert_ptr_equal(let->u.let.body, let->u.let.var);
	assert_int_equal(m->nfree_vars, 0);
	ir_module_free(m);
}

/* ---- devices ----------------------------------------------------------- */

static void test_parameter_and_function_devices(void **state)
{
	IrModule *m = parse_ok("def @main(%a {virtual_device=meta[VirtualDevice][1]}: " T23
			       ", %b: " T23 ",\n"
			       "          %c {virtual_device=\"cpu:0\"}: " T23 ",\n"
			       "          virtual_device=meta[VirtualDevice][0], Primitive=1, "
			       "Compiler=\"x\") -> " T23 " {\n"
			       "  add(%a, %b)\n"
			       "}\n");
	Expr *fn = fn_of(m, "main");
	const Attr *a;
	(void)state;
	assert_int_equal(fn->u.fn.nparams, 3);
	assert_int_equal(fn->u.fn.params[0]->device, 1);
	assert_int_equal(fn->u.fn.params[1]->device, IR_NO_DEVICE);
	assert_int_equal(fn->u.fn.params[2]->device, 0);
	assert_int_equal(fn->u.fn.params[0]->u.var.role, VAR_PARAM);
	assert_int_equal(fn->device, 0);
	assert_non_null(fn->u.fn.ret_type);
	assert_int_equal(fn->u.fn.head->nattrs, 2);
	a = ir_attr(fn, "Primitive");
	assert_non_null(a);
	assert_int_equal(a->value.kind, ATTR_INT);
	assert_int_equal(a->value.u.i, 1);
	a = ir_attr(fn, "Compiler");
	assert_int_equal(a->value.kind, ATTR_STRING);
	assert_string_equal(a->value.u.s, "x");
	assert_null(ir_attr(fn, "virtual_device"));
	ir_module_free(m);
}

static void test_device_spellings(void **state)
{
	IrModule *m =
		parse_ok("def @main(%x: " T23 ") {\n"
			 "  %0 = on_device(%x, virtual_device=meta[VirtualDevice][1]);\n"
			 "  %1 = on_device(%0, virtual_device=\"cuda:0\", constrain_result=True);\n"
			 "  %2 = on_device(%1, virtual_device=VirtualDevice(device_type=2, "
			 "virtual_device_id=0, "
			 "target=Target(id=38b79f0, kind='cuda', keys={'cuda', 'gpu'}, "
			 "attrs={'thread_warp_size': "
			 "32, 'max_num_threads': 1024, 'arch': \"sm_50\"}, host=Target(id=3706ec0, "
			 "kind='llvm', "
			 "keys={'cpu'}))), constrain_body=False);\n"
			 "  %3 = on_device(%2, virtual_device=VirtualDevice(device_type=1, "
			 "virtual_device_id=0));\n"
			 "  %4 = on_device(%3, virtual_device=VirtualDevice(device_type=-1, "
			 "virtual_device_id=-1));\n"
			 "  %5 = on_device(%4, virtual_device=\"cuda\");\n"
			 "  device_copy(%5, src_virtual_device=meta[VirtualDevice][1], "
			 "dst_virtual_device=\"cpu:0\")\n"
			 "}\n");
	Expr *copy = body_of(m, "main"), *e;
	int32_t dev, src, dst;
	bool body, result;
	(void)state;
	assert_op(copy, OP_DEVICE_COPY);
	ir_device_copy_props(copy, &src, &dst);
	assert_int_equal(src, 1);
	assert_int_equal(dst, 0);
	e = copy->u.call.args[0]; /* %5 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 1);
	e = e->u.call.args[0]; /* %4: unconstrained */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, IR_NO_DEVICE);
	assert_int_equal(ir_attr(e, "virtual_device")->value.kind, ATTR_NONE);
	e = e->u.call.args[0]; /* %3 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 0);
	e = e->u.call.args[0]; /* %2 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 1);
	assert_false(body);
	assert_false(result);
	e = e->u.call.args[0]; /* %1 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 1);
	assert_true(body);
	assert_true(result);
	assert_int_equal(ir_attr(e, "virtual_device")->value.kind, ATTR_DEVICE);
	e = e->u.call.args[0]; /* %0 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 1);
	assert_true(body);
	assert_false(result);
	ir_module_free(m);
}

static void test_meta_device_uses_the_table_without_metadata(void **state)
{
	DeviceTable table;
	char *err = NULL;
	IrModule *m;
	Expr *body;
	(void)state;
	devices_init_default(&table);
	assert_int_equal(devices_add(&table, "cuda:1", NULL, &err), 2);
	m = parse_with(
		"def @main(%x: int32) { on_device(%x, virtual_device=meta[VirtualDevice][2]) }",
		strlen("def @main(%x: int32) { on_device(%x, "
		       "virtual_device=meta[VirtualDevice][2]) }"),
		&table);
	assert_non_null(m);
	body = body_of(m, "main");
	assert_int_equal(ir_attr(body, "virtual_device")->value.u.device, 2);
	ir_module_free(m);
	devices_free(&table);
}

/* Memory scopes in every spelling: "KIND:ID:SCOPE", TVM's literal with
 * memory_scope in single quotes (as it prints one) or double, and
 * meta[VirtualDevice][i] of a table that has the scope. A scope of a device
 * the table has is added to it, once; one of a device it lacks is an error,
 * as is a device with a scope but no type (a warning: unconstrained). */
static void test_device_scopes(void **state)
{
	static const char text[] =
		"def @main(%x: " T23 ") {\n"
		"  %0 = on_device(%x, virtual_device=\"cpu:0:scopeA\");\n"
		"  %1 = on_device(%0, virtual_device=VirtualDevice(device_type=2, "
		"virtual_device_id=0, target=Target(id=1, kind='cuda'), "
		"memory_scope='global.texture'));\n"
		"  %2 = on_device(%1, virtual_device=VirtualDevice(device_type=1, "
		"virtual_device_id=0, memory_scope=\"scopeA\"));\n"
		"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][3]);\n"
		"  on_device(%3, virtual_device=VirtualDevice(memory_scope='global'))\n"
		"}\n";
	DeviceTable table;
	IrModule *m;
	Expr *e;
	int32_t dev;
	bool body, result;
	(void)state;
	devices_init_default(&table);
	m = parse_with(text, strlen(text), &table);
	assert_non_null(m);
	assert_int_equal(diags.errors, 0);
	/* the scope without a device, and meta[VirtualDevice][3] read from the
	 * table for want of a #[metadata] section */
	assert_int_equal(diags.count, 2);
	assert_non_null(strstr(diags.items[0].message, "memory scope 'global' but no device"));
	assert_non_null(strstr(diags.items[1].message, "indexes devplan's device table"));
	assert_int_equal(table.count, 4);
	assert_string_equal(table.items[2].name, "cpu:0:scopeA");
	assert_string_equal(table.items[2].scope, "scopeA");
	assert_string_equal(table.items[3].name, "cuda:0:global.texture");
	assert_string_equal(table.items[3].target, "cuda");
	e = body_of(m, "main");
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, IR_NO_DEVICE);
	e = e->u.call.args[0]; /* %3 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 3);
	e = e->u.call.args[0]; /* %2 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 2);
	e = e->u.call.args[0]; /* %1 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 3);
	e = e->u.call.args[0]; /* %0 */
	ir_on_device_props(e, &dev, &body, &result);
	assert_int_equal(dev, 2);
	ir_module_free(m);

	/* a scope of a device the table lacks */
	m = parse_with("def @main(%x: int32) { on_device(%x, virtual_device=\"cuda:1:g\") }",
		       strlen("def @main(%x: int32) { on_device(%x, virtual_device=\"cuda:1:g\") "
			      "}"),
		       &table);
	assert_null(m);
	assert_non_null(strstr(diags.items[0].message, "unknown device 'cuda:1:g'"));
	assert_int_equal(table.count, 4);
	devices_free(&table);
}

/* ---- attributes -------------------------------------------------------- */

static void test_op_attributes(void **state)
{
	IrModule *m = parse_ok(
		"def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) "
		"{\n"
		"  %0 = nn.conv2d(%x, %w, strides=[1, 1], padding=[1, 1, 1, 1], channels=4, "
		"kernel_size=[3, 3], out_dtype=\"\", data_layout=None);\n"
		"  %1 = clip(%0, a_min=0, a_max=6.5f);\n"
		"  %2 = sum(%1, axis=[1, -1], keepdims=True);\n"
		"  %3 = mean(%2, axis=[1], exclude=0);\n"
		"  %4 = nn.max_pool2d(%3, pool_size=[2, 2], padding=[[0, 0], [1, 1]]);\n"
		"  cast(%4, dtype=\"float16\")\n"
		"}\n");
	Expr *cast = body_of(m, "main"), *pool, *mean, *sum, *clip, *conv;
	const Attr *a;
	(void)state;
	assert_op(cast, OP_CAST);
	assert_string_equal(ir_attr(cast, "dtype")->value.u.s, "float16");
	pool = cast->u.call.args[0];
	a = ir_attr(pool, "padding");
	assert_int_equal(a->value.kind, ATTR_LIST);
	assert_int_equal(a->value.u.list.n, 2);
	assert_int_equal(a->value.u.list.items[1].kind, ATTR_LIST);
	assert_int_equal(a->value.u.list.items[1].u.list.items[0].u.i, 1);
	mean = pool->u.call.args[0];
	assert_int_equal(ir_attr(mean, "axis")->value.kind, ATTR_LIST);
	assert_int_equal(ir_attr(mean, "axis")->value.u.list.n, 1);
	/* 0/1 for a boolean attribute becomes a boolean */
	assert_int_equal(ir_attr(mean, "exclude")->value.kind, ATTR_BOOL);
	assert_false(ir_attr(mean, "exclude")->value.u.b);
	sum = mean->u.call.args[0];
	a = ir_attr(sum, "axis");
	assert_int_equal(a->value.kind, ATTR_LIST);
	assert_int_equal(a->value.u.list.items[1].u.i, -1);
	assert_true(ir_attr(sum, "keepdims")->value.u.b);
	clip = sum->u.call.args[0];
	/* an integer for a number attribute becomes a float */
	assert_int_equal(ir_attr(clip, "a_min")->value.kind, ATTR_FLOAT);
	assert_true(ir_attr(clip, "a_min")->value.u.f == 0.0);
	assert_true(ir_attr(clip, "a_max")->value.u.f == 6.5);
	conv = clip->u.call.args[0];
	assert_int_equal(conv->u.call.nattrs, 6);
	assert_int_equal(ir_attr(conv, "channels")->value.u.i, 4);
	assert_int_equal(ir_attr(conv, "data_layout")->value.kind, ATTR_NONE);
	assert_string_equal(ir_attr(conv, "out_dtype")->value.u.s, "");
	assert_int_equal(ir_attr(conv, "strides")->pos.line, 2);
	ir_module_free(m);
}

static void test_zero_argument_op(void **state)
{
	IrModule *m = parse_ok("def @main() { zeros(shape=[1, 32], dtype=\"float32\") }");
	Expr *z = body_of(m, "main");
	(void)state;
	assert_op(z, OP_ZEROS);
	assert_int_equal(z->u.call.nargs, 0);
	assert_int_equal(z->u.call.nattrs, 2);
	ir_module_free(m);
}

/* ---- expressions ------------------------------------------------------- */

static void test_closures_and_calls(void **state)
{
	IrModule *m = parse_ok("def @main(%x: " T23 ") {\n"
			       "  %0 = fn (%p: " T23
			       ", %q, virtual_device=meta[VirtualDevice][1]) -> " T23 " {\n"
			       "    add(%p, %x)\n"
			       "  };\n"
			       "  %1 = %0(%x, %x);\n"
			       "  (fn (%r) { %r })(%1)\n"
			       "}\n");
	Expr *outer = body_of(m, "main"), *one = outer->u.call.args[0], *closure;
	(void)state;
	assert_int_equal(outer->kind, EXPR_CALL);
	assert_int_equal(outer->u.call.op, OP_NONE);
	assert_int_equal(outer->u.call.callee->kind, EXPR_FN);
	assert_int_equal(one->u.call.op, OP_NONE);
	closure = one->u.call.callee;
	assert_int_equal(closure->kind, EXPR_FN);
	assert_string_equal(closure->name, "0");
	assert_int_equal(closure->device, 1);
	assert_int_equal(closure->u.fn.nparams, 2);
	assert_null(closure->u.fn.params[1]->u.var.annotation);
	/* the closure body sees the enclosing parameter %x */
	assert_ptr_equal(closure->u.fn.body->u.call.args[1], fn_of(m, "main")->u.fn.params[0]);
	assert_ptr_equal(closure->u.fn.body->u.call.args[0], closure->u.fn.params[0]);
	assert_int_equal(one->u.call.nargs, 2);
	ir_module_free(m);
}

static void test_tuples_and_projections(void **state)
{
	IrModule *m = parse_ok("def @main(%x: int32, %t: ((int32, int32), int32)) {\n"
			       "  %0 = ();\n"
			       "  %1 = (%x,);\n"
			       "  %2 = (%x);\n"
			       "  %3 = (%x, %0, %1,);\n"
			       "  %4 = %t.0.1;\n"
			       "  %5 = (%x, %2).1;\n"
			       "  %6 = split(%x, indices_or_sections=2).0;\n"
			       "  (%3, %4, %5, %6)\n"
			       "}\n");
	Expr *tuple = body_of(m, "main"), *x = fn_of(m, "main")->u.fn.params[0], *e;
	(void)state;
	assert_int_equal(tuple->kind, EXPR_TUPLE);
	assert_int_equal(tuple->u.tuple.nfields, 4);
	e = tuple->u.tuple.fields[0]; /* %3 */
	assert_int_equal(e->kind, EXPR_TUPLE);
	assert_int_equal(e->u.tuple.nfields, 3);
	assert_ptr_equal(e->u.tuple.fields[0], x);
	assert_int_equal(e->u.tuple.fields[1]->u.tuple.nfields, 0);
	assert_int_equal(e->u.tuple.fields[2]->kind, EXPR_TUPLE);
	assert_int_equal(e->u.tuple.fields[2]->u.tuple.nfields, 1);
	e = tuple->u.tuple.fields[1]; /* %t.0.1 */
	assert_int_equal(e->kind, EXPR_PROJ);
	assert_int_equal(e->u.proj.index, 1);
	assert_int_equal(e->u.proj.tuple->kind, EXPR_PROJ);
	assert_int_equal(e->u.proj.tuple->u.proj.index, 0);
	assert_ptr_equal(e->u.proj.tuple->u.proj.tuple, fn_of(m, "main")->u.fn.params[1]);
	assert_int_equal(e->pos.col, 8);
	e = tuple->u.tuple.fields[2]; /* (%x, %2).1: %2 is %x itself */
	assert_int_equal(e->kind, EXPR_PROJ);
	assert_ptr_equal(e->u.proj.tuple->u.tuple.fields[1], x);
	e = tuple->u.tuple.fields[3];
	assert_int_equal(e->kind, EXPR_PROJ);
	assert_op(e->u.proj.tuple, OP_SPLIT);
	ir_module_free(m);
}

static void test_if(void **state)
{
	IrModule *m = parse_ok("def @main(%c: bool, %x: int32) {\n"
			       "  if (%c) {\n"
			       "    %0 = add(%x, 1);\n"
			       "    %0\n"
			       "  } else {\n"
			       "    let %y = negative(%x);\n"
			       "    %y\n"
			       "  }\n"
			       "}\n");
	Expr *e = body_of(m, "main");
	(void)state;
	assert_int_equal(e->kind, EXPR_IF);
	assert_int_equal(e->pos.line, 2);
	assert_ptr_equal(e->u.if_.cond, fn_of(m, "main")->u.fn.params[0]);
	assert_op(e->u.if_.then_branch, OP_ADD);
	assert_int_equal(e->u.if_.else_branch->kind, EXPR_LET);
	ir_module_free(m);
}

static void assert_scalar(const Expr *e, DType dt, const void *bytes)
{
	assert_int_equal(e->kind, EXPR_CONSTANT);
	assert_int_equal(e->u.constant.meta_index, -1);
	assert_int_equal(e->u.constant.tensor.dtype, dt);
	assert_int_equal(e->u.constant.tensor.ndim, 0);
	assert_int_equal(e->u.constant.tensor.nbytes, dtype_size(dt));
	assert_memory_equal(e->u.constant.tensor.data, bytes, dtype_size(dt));
	assert_non_null(e->type);
	assert_int_equal(e->type->u.tensor.ndim, 0);
}

static void test_scalar_constants(void **state)
{
	IrModule *m =
		parse_ok("def @main() {\n"
			 "  (1f, 1.5f, 2i64, 3, 1f64, 1f16, -1f, True, False, 0.1, 1e-05f, -7)\n"
			 "}\n");
	Expr *t = body_of(m, "main");
	float f;
	double d;
	int64_t l;
	int32_t i;
	uint16_t h;
	uint8_t b;
	(void)state;
	assert_int_equal(t->u.tuple.nfields, 12);
	f = 1.0f;
	assert_scalar(t->u.tuple.fields[0], DT_FLOAT32, &f);
	f = 1.5f;
	assert_scalar(t->u.tuple.fields[1], DT_FLOAT32, &f);
	l = 2;
	assert_scalar(t->u.tuple.fields[2], DT_INT64, &l);
	i = 3;
	assert_scalar(t->u.tuple.fields[3], DT_INT32, &i);
	d = 1.0;
	assert_scalar(t->u.tuple.fields[4], DT_FLOAT64, &d);
	h = 0x3c00; /* 1.0 in IEEE half precision */
	assert_scalar(t->u.tuple.fields[5], DT_FLOAT16, &h);
	f = -1.0f;
	assert_scalar(t->u.tuple.fields[6], DT_FLOAT32, &f);
	b = 1;
	assert_scalar(t->u.tuple.fields[7], DT_BOOL, &b);
	b = 0;
	assert_scalar(t->u.tuple.fields[8], DT_BOOL, &b);
	f = 0.1f;
	assert_scalar(t->u.tuple.fields[9], DT_FLOAT32, &f);
	f = 1e-05f;
	assert_scalar(t->u.tuple.fields[10], DT_FLOAT32, &f);
	i = -7;
	assert_scalar(t->u.tuple.fields[11], DT_INT32, &i);
	ir_module_free(m);
}

/* ---- metadata ---------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	StrBuf sb;
	char buf[4096];
	size_t n;
	assert_non_null(f);
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_append(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return strbuf_detach(&sb);
}

/* Whether the diagnostics hold more than notes (the fuzz corpus has bare
 * inputs and unknown operators, which load with a note). */
static bool beyond_notes(void)
{
	for (size_t i = 0; i < diags.count; i++)
		if (diags.items[i].severity != DIAG_NOTE)
			return true;
	return false;
}

static IrModule *parse_file_notes(const char *path, bool notes_ok)
{
	char *err = NULL;
	SourceFile *src = source_read(path, &err);
	IrModule *m;
	if (!src) {
		print_error("%s\n", err);
		free(err);
		fail();
	}
	diag_clear(&diags);
	source_release(last_src);
	last_src = src;
	m = parse_module(src, &devices, &diags);
	if (!m || (notes_ok ? beyond_notes() : diags.count > 0)) {
		char *s = format_diags();
		print_error("%s: unexpected diagnostics:\n%s", path, s);
		free(s);
		fail();
	}
	return m;
}

static IrModule *parse_file(const char *path)
{
	return parse_file_notes(path, false);
}

static void test_metadata_small(void **state)
{
	IrModule *m = parse_file(DEVPLAN_DATA_DIR "/models/metadata_small.relay");
	Expr *mul = body_of(m, "main"), *on_device, *add, *cast, *c0, *c1;
	static const float want0[] = {0, 1, 2, 3, 4, 5};
	static const int32_t want1[] = {1, 2, 3};
	int32_t dev;
	bool body, result;
	(void)state;
	assert_true(m->has_metadata);
	assert_string_equal(m->version, "0.0.5");
	assert_int_equal(m->nconstants, 2);
	assert_op(mul, OP_MULTIPLY);
	on_device = mul->u.call.args[0];
	cast = mul->u.call.args[1];
	/* meta[VirtualDevice][0] is the section's entry 0: device_type 2, id 0 */
	ir_on_device_props(on_device, &dev, &body, &result);
	assert_int_equal(dev, devices_find_name(&devices, "cuda:0"));
	assert_int_equal(dev, 1);
	add = on_device->u.call.args[0];
	c0 = add->u.call.args[1];
	c1 = cast->u.call.args[0];
	assert_ptr_equal(c0, m->constants[0]);
	assert_ptr_equal(c1, m->constants[1]);
	assert_int_equal(c0->u.constant.meta_index, 0);
	assert_int_equal(c1->u.constant.meta_index, 1);
	assert_int_equal(c0->u.constant.tensor.dtype, DT_FLOAT32);
	assert_int_equal(c0->u.constant.tensor.ndim, 2);
	assert_int_equal(c0->u.constant.tensor.shape[0], 2);
	assert_int_equal(c0->u.constant.tensor.shape[1], 3);
	assert_int_equal(c0->u.constant.tensor.nbytes, sizeof want0);
	assert_memory_equal(c0->u.constant.tensor.data, want0, sizeof want0);
	assert_int_equal(c1->u.constant.tensor.dtype, DT_INT32);
	assert_int_equal(c1->u.constant.tensor.ndim, 1);
	assert_int_equal(c1->u.constant.tensor.shape[0], 3);
	assert_memory_equal(c1->u.constant.tensor.data, want1, sizeof want1);
	assert_int_equal(c0->pos.line, 3);
	ir_module_free(m);
}

static void test_metadata_constant_shared(void **state)
{
	size_t len;
	char *text = read_file(DEVPLAN_DATA_DIR "/models/metadata_small.relay", &len);
	char *meta = strstr(text, "#[metadata]");
	StrBuf sb;
	IrModule *m;
	Expr *body;
	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main() {\n"
			 "  %0 = add(meta[relay.Constant][0], meta[relay.Constant][0]);\n"
			 "  %0\n"
			 "}\n");
	strbuf_puts(&sb, meta);
	m = parse_ok(sb.data);
	body = body_of(m, "main");
	assert_ptr_equal(body->u.call.args[0], body->u.call.args[1]);
	/* constant 1, which nothing uses, is in the module all the same */
	assert_int_equal(m->nconstants, 2);
	assert_non_null(m->constants[1]);
	assert_int_equal(m->constants[1]->u.constant.meta_index, 1);
	ir_module_free(m);
	strbuf_free(&sb);
	free(text);
}

/* meta[VirtualDevice][i] without devices in a #[metadata] section indexes
 * the device table, which TVM's parser alone rejects: one note says so,
 * at the first; none with the section's devices, none when it failed. */
static void test_meta_device_from_table_note(void **state)
{
	static const char body[] = "def @main(%x: " T23 ") {\n"
				   "  %0 = on_device(%x, virtual_device=meta[VirtualDevice][1]);\n"
				   "  on_device(%0, virtual_device=meta[VirtualDevice][0])\n"
				   "}\n";
	static const char constants_only[] =
		"#[metadata]\n"
		"{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, {\"type_key\": \"Map\", "
		"\"keys\": [\"relay.Constant\"], \"data\": [2]}, {\"type_key\": \"Array\", "
		"\"data\": []}], \"b64ndarrays\": [], \"attrs\": {\"tvm_version\": "
		"\"0.14.0\"}}\n";
	StrBuf sb;
	IrModule *m;
	(void)state;
	m = parse_ok(body);
	assert_int_equal(diags.count, 1);
	assert_int_equal(diags.items[0].severity, DIAG_NOTE);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, 37);
	assert_string_equal(diags.items[0].message,
			    "meta[VirtualDevice][i] indexes devplan's device table ('targets') as "
			    "the module has no #[metadata] section; TVM's parser rejects it unless "
			    "Python hands it a metatable ('save' writes the section)");
	ir_module_free(m);
	strbuf_init(&sb);
	strbuf_puts(&sb, body);
	strbuf_puts(&sb, constants_only);
	m = parse_ok(sb.data);
	assert_int_equal(diags.count, 1);
	assert_non_null(
		strstr(diags.items[0].message, "as the module's #[metadata] section holds none;"));
	ir_module_free(m);
	/* a module that does not parse gets its errors only */
	strbuf_reset(&sb);
	strbuf_puts(&sb, body);
	strbuf_puts(&sb, "def @broken(\n");
	assert_null(parse_with(sb.data, sb.len, &devices));
	for (size_t i = 0; i < diags.count; i++)
		assert_int_not_equal(diags.items[i].severity, DIAG_NOTE);
	strbuf_free(&sb);
}

static void test_metadata_device_not_in_table(void **state)
{
	/* the section says cuda:0; a table without it cannot resolve it */
	size_t len;
	char *text = read_file(DEVPLAN_DATA_DIR "/models/metadata_small.relay", &len);
	DeviceTable cpu_only;
	char *err = NULL;
	IrModule *m;
	(void)state;
	memset(&cpu_only, 0, sizeof cpu_only);
	assert_int_equal(devices_add(&cpu_only, "cpu:0", NULL, &err), 0);
	m = parse_with(text, len, &cpu_only);
	assert_null(m);
	assert_int_equal(diags.errors, 1);
	assert_string_equal(diags.items[0].message,
			    "meta[VirtualDevice][0] is cuda:0, which is not in the device table "
			    "(it holds cpu:0)");
	assert_int_equal(diags.items[0].pos.line, 4);
	devices_free(&cpu_only);
	free(text);
}

static void test_byte_order_mark_and_crlf(void **state)
{
	size_t len;
	char *small = read_file(DEVPLAN_DATA_DIR "/models/metadata_small.relay", &len);
	StrBuf sb;
	IrModule *m;
	(void)state;
	/* a UTF-8 BOM, and CRLF line ends everywhere, metadata included */
	strbuf_init(&sb);
	strbuf_puts(&sb, "\xef\xbb\xbf");
	for (size_t i = 0; i < len; i++) {
		if (small[i] == '\n')
			strbuf_putc(&sb, '\r');
		strbuf_putc(&sb, small[i]);
	}
	m = parse_ok(sb.data);
	assert_int_equal(m->nconstants, 2);
	assert_int_equal(body_of(m, "main")->pos.line, 6);
	assert_int_equal(body_of(m, "main")->pos.col, 3);
	ir_module_free(m);
	strbuf_free(&sb);
	free(small);
}

static void test_metadata_write_round_trip(void **state)
{
	IrModule *m = parse_file(DEVPLAN_DATA_DIR "/models/metadata_small.relay"), *back;
	DeviceTable table;
	char *err = NULL;
	StrBuf sb;
	Expr *body;
	(void)state;
	/* a table whose order differs from the TVM section's */
	devices_init_default(&table);
	assert_int_equal(devices_add(&table, "cuda:1", NULL, &err), 2);
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main() {\n"
			 "  %0 = on_device(meta[relay.Constant][0], "
			 "virtual_device=meta[VirtualDevice][2]);\n"
			 "  %1 = on_device(meta[relay.Constant][1], "
			 "virtual_device=meta[VirtualDevice][0]);\n"
			 "  %2 = on_device(%1, virtual_device=meta[VirtualDevice][1]);\n"
			 "  (%0, %2)\n"
			 "}\n\n");
	metadata_write(&sb, m, &table, NULL);
	back = parse_with(sb.data, sb.len, &table);
	if (!back) {
		char *s = format_diags();
		print_error("%s\n%s", sb.data, s);
		free(s);
		fail();
	}
	assert_true(back->has_metadata);
	assert_int_equal(back->nconstants, 2);
	for (uint32_t i = 0; i < 2; i++) {
		const Tensor *a = &m->constants[i]->u.constant.tensor;
		const Tensor *b = &back->constants[i]->u.constant.tensor;
		assert_int_equal(a->dtype, b->dtype);
		assert_int_equal(a->ndim, b->ndim);
		assert_memory_equal(a->shape, b->shape, a->ndim * sizeof(int64_t));
		assert_int_equal(a->nbytes, b->nbytes);
		assert_memory_equal(a->data, b->data, a->nbytes);
	}
	body = body_of(back, "main");
	assert_int_equal(ir_attr(body->u.tuple.fields[0], "virtual_device")->value.u.device, 2);
	assert_int_equal(ir_attr(body->u.tuple.fields[1], "virtual_device")->value.u.device, 1);
	assert_int_equal(
		ir_attr(body->u.tuple.fields[1]->u.call.args[0], "virtual_device")->value.u.device,
		0);
	/* writing the parsed section again gives the same text */
	{
		StrBuf again, first;
		const char *meta = strstr(sb.data, "#[metadata]");
		strbuf_init(&again);
		strbuf_init(&first);
		strbuf_puts(&first, meta);
		metadata_write(&again, back, &table, NULL);
		assert_string_equal(again.data, first.data);
		strbuf_free(&again);
		strbuf_free(&first);
	}
	ir_module_free(back);
	ir_module_free(m);
	strbuf_free(&sb);
	devices_free(&table);
}

static void test_metadata_write_all_dtypes(void **state)
{
	/* every dtype survives metadata_write and the reader, bytes and all */
	IrModule *m = ir_module_new(NULL), *back;
	unsigned char data[64];
	int64_t shape[2] = {2, 2};
	StrBuf sb;
	(void)state;
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (unsigned char)(i * 7 + 1);
	m->constants = calloc(DT_COUNT + 1, sizeof(Expr *));
	m->nconstants = DT_COUNT + 1;
	for (size_t i = 0; i < DT_COUNT; i++) {
		Tensor t = {(DType)i, 2, shape, data, 4 * dtype_size((DType)i)};
		m->constants[i] = ir_constant(m, (Pos){1, 1}, &t, (int32_t)i);
	}
	{
		Tensor empty = {DT_FLOAT32, 1, (int64_t[]){0}, data, 0};
		m->constants[DT_COUNT] = ir_constant(m, (Pos){1, 1}, &empty, DT_COUNT);
	}
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main() { meta[relay.Constant][6] }\n");
	metadata_write(&sb, m, &devices, NULL);
	back = parse_with(sb.data, sb.len, &devices);
	assert_non_null(back);
	assert_int_equal(back->nconstants, DT_COUNT + 1);
	for (size_t i = 0; i <= DT_COUNT; i++) {
		const Tensor *a = &m->constants[i]->u.constant.tensor;
		const Tensor *b = &back->constants[i]->u.constant.tensor;
		assert_int_equal(a->dtype, b->dtype);
		assert_int_equal(a->ndim, b->ndim);
		assert_int_equal(a->nbytes, b->nbytes);
		if (a->nbytes)
			assert_memory_equal(a->data, b->data, a->nbytes);
	}
	ir_module_free(back);
	ir_module_free(m);
	strbuf_free(&sb);
}

/* metadata_parse directly, on broken sections */
static void assert_metadata_error(const char *json, const char *message)
{
	SourceFile *src = source_from_string("m.relay", json, strlen(json));
	MetadataSection section;
	Arena arena;
	arena_init(&arena);
	diag_clear(&diags);
	assert_false(
		metadata_parse(src->text, src->len, src, (Pos){1, 1}, &arena, &section, &diags));
	assert_int_equal(diags.errors, 1);
	if (strcmp(diags.items[0].message, message) != 0) {
		print_error("for %s\nwant: %s\ngot:  %s\n", json, message, diags.items[0].message);
		fail();
	}
	assert_null(section.devices);
	assert_null(section.constants);
	arena_free(&arena);
	source_release(src);
}

#define NODES_PREFIX "{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, "
#define CONST_ROOT                                                                 \
	"{\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}, " \
	"{\"type_key\": \"Array\", \"data\": [3]}, "                               \
	"{\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"0\"}}], "

static void test_metadata_errors(void **state)
{
	(void)state;
	assert_metadata_error("   ", "expected a JSON object after '#[metadata]'");
	assert_metadata_error("{\"root\": 1, \"nodes\": [", "the #[metadata] JSON ends too early");
	assert_metadata_error(
		"{\"root\" 1}",
		"malformed #[metadata] JSON: object property name separator ':' expected");
	assert_metadata_error("{} x", "unexpected text after the #[metadata] JSON");
	assert_metadata_error("[]", "the #[metadata] section is not a JSON object");
	assert_metadata_error("{\"root\": 1}", "the #[metadata] section has no \"nodes\" array");
	assert_metadata_error("{\"nodes\": []}",
			      "the #[metadata] section has no \"root\" node index");
	assert_metadata_error(NODES_PREFIX "{\"type_key\": \"Array\"}]}",
			      "metadata: node 1 (the root) is a 'Array', not a 'Map'");
	assert_metadata_error(NODES_PREFIX "{\"type_key\": \"Map\", \"keys\": [\"VirtualDevice\"], "
					   "\"data\": [7]}]}",
			      "metadata: the VirtualDevice entry refers to node 7, but there are 2 "
			      "nodes");
	assert_metadata_error(NODES_PREFIX
			      "{\"type_key\": \"Map\", \"keys\": [\"VirtualDevice\"], "
			      "\"data\": [2]}, {\"type_key\": \"Array\", \"data\": [3]}, "
			      "{\"type_key\": \"VirtualDevice\", \"attrs\": {}}]}",
			      "metadata: node 3 (VirtualDevice) has no integer attribute "
			      "'device_type_int'");
	assert_metadata_error(NODES_PREFIX CONST_ROOT "\"b64ndarrays\": []}",
			      "metadata: constant 0 refers to b64ndarrays[0], but there are 0");
	assert_metadata_error(NODES_PREFIX CONST_ROOT "\"b64ndarrays\": [\"P6G0lvB*\"]}",
			      "metadata: b64ndarrays[0] is not valid base64 (character 8)");
	assert_metadata_error(NODES_PREFIX CONST_ROOT "\"b64ndarrays\": [\"P6G0l\"]}",
			      "metadata: b64ndarrays[0] is truncated base64");
	assert_metadata_error(NODES_PREFIX CONST_ROOT "\"b64ndarrays\": [\"AAAAAAAAAAAA\"]}",
			      "metadata: b64ndarrays[0] is not a TVM NDArray (bad magic number)");
	assert_metadata_error(NODES_PREFIX CONST_ROOT
			      "\"b64ndarrays\": [\"P6G0lvBAXt0AAAAAAAAAAA==\"]}",
			      "metadata: b64ndarrays[0] is truncated in its header");
	/* int4 */
	assert_metadata_error(
		NODES_PREFIX CONST_ROOT
		"\"b64ndarrays\": [\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAAAAAAAEAQAAAAAAAAAAAA==\"]}",
		"metadata: b64ndarrays[0] has an unsupported dtype (code 0, 4 bits, 1 lanes)");
	/* float32 (3) claiming 8 bytes */
	assert_metadata_error(
		NODES_PREFIX CONST_ROOT
		"\"b64ndarrays\": "
		"[\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQADAAAAAAAAAAgAAAAAAAAA\"]}",
		"metadata: b64ndarrays[0] announces 8 bytes of data, but its shape and "
		"dtype need 12");
	/* float32 (3) with 12 bytes announced and none present */
	assert_metadata_error(
		NODES_PREFIX CONST_ROOT
		"\"b64ndarrays\": "
		"[\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQADAAAAAAAAAAwAAAAAAAAA\"]}",
		"metadata: b64ndarrays[0] is truncated: its header announces 12 bytes of "
		"data, 0 are present");
	/* a dimension whose size in bytes overflows */
	assert_metadata_error(
		NODES_PREFIX CONST_ROOT
		"\"b64ndarrays\": "
		"[\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQD/////////fwwAAAAAAAAA\"]}",
		"metadata: b64ndarrays[0] has an invalid shape");
}

static void test_metadata_without_devices_uses_the_table(void **state)
{
	/* a section with constants only: meta[VirtualDevice][i] indexes the table */
	const char *text =
		"def @main(%x: int32) { on_device(%x, virtual_device=meta[VirtualDevice][1]) }\n"
		"#[metadata]\n" NODES_PREFIX
		"{\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}, "
		"{\"type_key\": \"Array\"}]}\n";
	IrModule *m = parse_ok(text);
	(void)state;
	assert_int_equal(ir_attr(body_of(m, "main"), "virtual_device")->value.u.device, 1);
	assert_int_equal(m->nconstants, 0);
	ir_module_free(m);
}

/* ---- types ------------------------------------------------------------- */

static void test_types(void **state)
{
	IrModule *m = parse_ok(
		"def @main(%a: Tensor[(?, 3), int64], %b: float32, %c: float32,\n"
		"          %d: (Tensor[(1), bool], (float16, int32)), %e: (int32,), %f: (),\n"
		"          %g: fn (int32, Tensor[(2), float64]) -> (int32, int32),\n"
		"          %h: Tensor[(1i64, 0, 7,), float32]) -> bool {\n"
		"  True\n"
		"}\n");
	Expr *fn = fn_of(m, "main");
	Type *t;
	(void)state;
	t = fn->u.fn.params[0]->u.var.annotation;
	assert_int_equal(t->kind, TYPE_TENSOR);
	assert_int_equal(t->u.tensor.dtype, DT_INT64);
	assert_int_equal(t->u.tensor.ndim, 2);
	assert_int_equal(t->u.tensor.dims[0], DIM_ANY);
	assert_int_equal(t->u.tensor.dims[1], 3);
	t = fn->u.fn.params[1]->u.var.annotation;
	assert_int_equal(t->kind, TYPE_TENSOR);
	assert_int_equal(t->u.tensor.ndim, 0);
	assert_int_equal(t->u.tensor.dtype, DT_FLOAT32);
	t = fn->u.fn.params[2]->u.var.annotation;
	assert_int_equal(t->u.tensor.ndim, 0);
	t = fn->u.fn.params[3]->u.var.annotation;
	assert_int_equal(t->kind, TYPE_TUPLE);
	assert_int_equal(t->u.tuple.nfields, 2);
	assert_int_equal(t->u.tuple.fields[0]->u.tensor.dtype, DT_BOOL);
	assert_int_equal(t->u.tuple.fields[1]->kind, TYPE_TUPLE);
	assert_int_equal(t->u.tuple.fields[1]->u.tuple.fields[0]->u.tensor.dtype, DT_FLOAT16);
	t = fn->u.fn.params[4]->u.var.annotation;
	assert_int_equal(t->kind, TYPE_TUPLE);
	assert_int_equal(t->u.tuple.nfields, 1);
	t = fn->u.fn.params[5]->u.var.annotation;
	assert_int_equal(t->kind, TYPE_TUPLE);
	assert_int_equal(t->u.tuple.nfields, 0);
	t = fn->u.fn.params[6]->u.var.annotation;
	assert_int_equal(t->kind, TYPE_FUNC);
	assert_int_equal(t->u.func.nparams, 2);
	assert_int_equal(t->u.func.params[1]->u.tensor.dtype, DT_FLOAT64);
	assert_int_equal(t->u.func.ret->kind, TYPE_TUPLE);
	t = fn->u.fn.params[7]->u.var.annotation;
	assert_int_equal(t->u.tensor.ndim, 3);
	assert_int_equal(t->u.tensor.dims[0], 1);
	assert_int_equal(t->u.tensor.dims[1], 0);
	assert_int_equal(fn->u.fn.ret_type->u.tensor.dtype, DT_BOOL);
	ir_module_free(m);
}

/* ---- module structure -------------------------------------------------- */

/* TVM's dtypes in types: int, uint and float (32 bits), uint1 (bool),
 * vectors (int8x4, uint1x4, float16x4) printed as TVM prints them; `_`
 * alone on a variable is no annotation, inside a type a hole printed `_`. */
static void test_tvm_dtypes_and_incomplete_type(void **state)
{
	IrModule *m = parse_ok("def @main(%a: int, %b: uint1x4, %c: Tensor[(2), float16x4],\n"
			       "          %d: uint1, %e: _, %f: fn (_) -> int8x4) {\n"
			       "  %a\n"
			       "}\n");
	Expr *fn = fn_of(m, "main");
	StrBuf sb;
	char *errors;
	(void)state;
	assert_int_equal(fn->u.fn.params[0]->u.var.annotation->u.tensor.dtype, DT_INT32);
	assert_int_equal(fn->u.fn.params[0]->u.var.annotation->u.tensor.lanes, 1);
	assert_int_equal(fn->u.fn.params[1]->u.var.annotation->u.tensor.dtype, DT_BOOL);
	assert_int_equal(fn->u.fn.params[1]->u.var.annotation->u.tensor.lanes, 4);
	assert_int_equal(fn->u.fn.params[3]->u.var.annotation->u.tensor.dtype, DT_BOOL);
	assert_null(fn->u.fn.params[4]->u.var.annotation);
	strbuf_init(&sb);
	print_module(&sb, m, NULL);
	assert_non_null(strstr(sb.data, "def @main(%a: int32, %b: uint1x4, "
					"%c: Tensor[(2), float16x4], %d: bool, %e, "
					"%f: fn (_) -> int8x4) {"));
	strbuf_free(&sb);
	ir_module_free(m);
	/* a bool vector is uint1x4 (TVM's String2DLDataType rejects boolx4
	 * too); a vector has a lane at least */
	errors = parse_fails("def @main(%a: boolx4, %b: int8x0) { %a }\n");
	assert_non_null(strstr(errors, "t.relay:1:15: error: unknown dtype 'boolx4'"));
	assert_non_null(strstr(errors, "t.relay:1:27: error: unknown dtype 'int8x0'"));
	free(errors);
}

static void test_globals_forward_and_recursive(void **state)
{
	IrModule *m =
		parse_ok("def @main(%x: int32) { @f(%x) }\n"
			 "def @f(%y: int32) -> int32 { if (True) { @f(%y) } else { @g(%y) } }\n"
			 "def @g(%z: int32) { %z }\n");
	Expr *call = body_of(m, "main"), *iff = body_of(m, "f");
	(void)state;
	assert_int_equal(m->nglobals, 3);
	assert_string_equal(m->globals[0].name, "main");
	assert_int_equal(call->u.call.callee->kind, EXPR_GLOBAL);
	assert_string_equal(call->u.call.callee->u.global.name, "f");
	assert_int_equal(call->u.call.callee->u.global.index, 1);
	assert_int_equal(iff->u.if_.then_branch->u.call.callee->u.global.index, 1);
	assert_int_equal(iff->u.if_.else_branch->u.call.callee->u.global.index, 2);
	assert_int_equal(m->globals[1].pos.line, 2);
	assert_int_equal(m->globals[1].pos.col, 1);
	ir_module_free(m);
}

static void test_free_vars(void **state)
{
	IrModule *m = parse_ok("free_var %a: int32;\n"
			       "def @main(%x: int32) {\n"
			       "  free_var %c: float32;\n"
			       "  %0 = add(%x, %b);\n"
			       "  %1 = add(%0, %b);\n"
			       "  (%1, %a, %c)\n"
			       "}\n"
			       "def @f() { %b }\n");
	Expr *t = body_of(m, "main"), *b;
	(void)state;
	assert_int_equal(m->nfree_vars, 3);
	assert_string_equal(m->free_vars[0]->name, "a");
	assert_non_null(m->free_vars[0]->u.var.annotation);
	assert_string_equal(m->free_vars[1]->name, "c");
	assert_string_equal(m->free_vars[2]->name, "b");
	assert_null(m->free_vars[2]->u.var.annotation);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(m->free_vars[i]->u.var.role, VAR_FREE);
	b = m->free_vars[2];
	assert_ptr_equal(t->u.tuple.fields[0]->u.call.args[1], b);
	assert_ptr_equal(t->u.tuple.fields[0]->u.call.args[0]->u.call.args[1], b);
	assert_ptr_equal(t->u.tuple.fields[1], m->free_vars[0]);
	assert_ptr_equal(t->u.tuple.fields[2], m->free_vars[1]);
	/* one node per name, across functions too */
	assert_ptr_equal(body_of(m, "f"), b);
	ir_module_free(m);
}

/* The whole module as print_module writes it (the caller frees it). */
static char *print_plain(const IrModule *m)
{
	StrBuf sb;
	PrintOptions opts = {0};
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	return strbuf_detach(&sb);
}

/* `extern type NAME` and `type NAME` without braces, as TVM's parser
 * reads them: type definitions without constructors, which TVM prints
 * (it does not keep the keyword) as `type NAME {` and an empty body. */
static void test_extern_and_braceless_types(void **state)
{
	IrModule *m = parse_ok("#[version = \"0.0.5\"]\n"
			       "extern type Handle\n"
			       "type Opaque[A]\n"
			       "extern type Box[A] {}\n"
			       "def @main(%h: Handle, %b: Box[float32]) -> Handle {\n"
			       "  %h\n"
			       "}\n"
			       "extern type Late\n");
	char *text;
	(void)state;
	assert_int_equal(m->ntypedefs, 4);
	assert_string_equal(m->typedefs[0].name, "Handle");
	assert_int_equal(m->typedefs[0].nctors, 0);
	assert_int_equal(m->typedefs[1].nparams, 1);
	assert_int_equal(m->typedefs[2].nctors, 0);
	assert_string_equal(m->typedefs[3].name, "Late");
	text = print_plain(m);
	assert_string_equal(text, "#[version = \"0.0.5\"]\n"
				  "type Handle {\n  \n}\n\n"
				  "type Opaque[A] {\n  \n}\n\n"
				  "type Box[A] {\n  \n}\n\n"
				  "type Late {\n  \n}\n\n"
				  "def @main(%h: Handle, %b: Box[float32]) -> Handle {\n"
				  "  %h\n"
				  "}\n");
	free(text);
	ir_module_free(m);
}

/* A bare `fn` or expression as the whole input is @main (TVM's
 * IRModule.from_expr), with a note, and prints back as a `def` that reads
 * back to the same text [P1]. */
static void test_bare_function_and_expression(void **state)
{
	static const char *const inputs[] = {
		"fn (%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		"  %0 = add(%a, %b);\n"
		"  subtract(%0, %b)\n"
		"}\n",
		"#[version = \"0.0.5\"]\n"
		"free_var %a: Tensor[(5, 7), float32];\n"
		"free_var %b: Tensor[(5, 7), float32];\n"
		"%0 = add(%a, %b);\n"
		"subtract(%0, %b)\n",
		"subtract(add(%a, %b), %b)",
	};
	(void)state;
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		IrModule *m = parse_ok(inputs[i]), *again;
		Expr *fn;
		char *text, *text2;
		assert_int_equal(m->nglobals, 1);
		assert_string_equal(m->globals[0].name, "main");
		assert_int_equal(m->nfree_vars, 0);
		fn = m->globals[0].fn;
		assert_int_equal(fn->kind, EXPR_FN);
		assert_int_equal(fn->u.fn.nparams, 2);
		assert_string_equal(fn->u.fn.params[0]->name, "a");
		assert_string_equal(fn->u.fn.params[1]->name, "b");
		for (uint32_t k = 0; k < 2; k++)
			assert_int_equal(fn->u.fn.params[k]->u.var.role, VAR_PARAM);
		assert_int_equal(diags.count, 1);
		assert_int_equal(diags.items[0].severity, DIAG_NOTE);
		text = print_plain(m);
		assert_non_null(strstr(text, "def @main(%a"));
		again = parse_ok(text);
		text2 = print_plain(again);
		assert_string_equal(text, text2);
		free(text);
		free(text2);
		ir_module_free(again);
		ir_module_free(m);
	}
}

/* An operator not in ops.def is an OP_UNKNOWN call when TVM printed its
 * result type after it: its name, attributes as written and type are kept,
 * and it prints back with its type, even without types shown [P1]. */
static void test_unknown_operator_with_printed_type(void **state)
{
	IrModule *m = parse_ok("def @main(%x: Tensor[(1, 8), float32]) {\n"
			       "  %0 = contrib.my_op(%x, axis=1, k=[2, 3], s=\"a b\",) /* "
			       "ty=Tensor[(1, 8), float32] */;\n"
			       "  %1 = my_fused(%0) /* ty=(Tensor[(1, 8), float32], int32) */;\n"
			       "  %1.0\n"
			       "}\n"),
		 *again, *clone;
	Expr *proj = body_of(m, "main"), *fused = proj->u.proj.tuple, *op = fused->u.call.args[0];
	char *text, *text2;
	(void)state;
	assert_int_equal(op->u.call.op, OP_UNKNOWN);
	assert_string_equal(op->u.call.unknown->name, "contrib.my_op");
	assert_string_equal(op->u.call.unknown->attrs, "axis=1, k=[2, 3], s=\"a b\"");
	assert_int_equal(op->u.call.nattrs, 0);
	assert_ptr_equal(op->type, op->u.call.unknown->type);
	assert_string_equal(ir_call_op_name(op), "contrib.my_op");
	assert_int_equal(fused->u.call.op, OP_UNKNOWN);
	assert_string_equal(fused->u.call.unknown->attrs, "");
	assert_int_equal(fused->type->kind, TYPE_TUPLE);
	/* one note naming both */
	assert_int_equal(diags.count, 1);
	assert_int_equal(diags.items[0].severity, DIAG_NOTE);
	assert_non_null(strstr(diags.items[0].message, "'contrib.my_op' (1 call)"));
	assert_non_null(strstr(diags.items[0].message, "'my_fused' (1 call)"));
	text = print_plain(m);
	assert_non_null(strstr(text, "contrib.my_op(%x, axis=1, k=[2, 3], s=\"a b\") /* "
				     "ty=Tensor[(1, 8), float32] */;"));
	again = parse_ok(text);
	text2 = print_plain(again);
	assert_string_equal(text, text2);
	free(text2);
	/* a clone keeps the call as it is */
	clone = ir_module_clone(m);
	text2 = print_plain(clone);
	assert_string_equal(text, text2);
	free(text);
	free(text2);
	ir_module_free(clone);
	ir_module_free(again);
	ir_module_free(m);
}

/* TVM's printer may break a long line before the type comment: the
 * printed type is read on a following line too, a type spanning lines
 * too, up to the ';' (and only a ty= comment counts). */
static void test_unknown_operator_type_on_next_line(void **state)
{
	IrModule *m = parse_ok("def @main(%x: Tensor[(1, 8), float32]) {\n"
			       "  %0 = contrib.my_op(%x, axis=1)\n"
			       "    /* ty=Tensor[(1, 8), float32] */;\n"
			       "  %1 = my_fused(%0)\r\n"
			       "\t/* ty=(Tensor[(1, 8), float32],\n"
			       "         int32) */;\n"
			       "  %2 = %1.0;\n"
			       "  contrib.my_op(%2)\n"
			       "  /* ty=Tensor[(1, 8), float32] */\n"
			       "}\n");
	Expr *last = body_of(m, "main"), *proj = last->u.call.args[0];
	Expr *fused = proj->u.proj.tuple, *op = fused->u.call.args[0];
	char *text, *errors;
	(void)state;
	assert_int_equal(op->u.call.op, OP_UNKNOWN);
	assert_int_equal(op->type->kind, TYPE_TENSOR);
	assert_int_equal(fused->u.call.op, OP_UNKNOWN);
	assert_int_equal(fused->type->kind, TYPE_TUPLE);
	assert_int_equal(fused->type->u.tuple.nfields, 2);
	assert_int_equal(last->u.call.op, OP_UNKNOWN);
	assert_int_equal(last->type->kind, TYPE_TENSOR);
	text = print_plain(m);
	assert_non_null(
		strstr(text, "contrib.my_op(%x, axis=1) /* ty=Tensor[(1, 8), float32] */;"));
	free(text);
	ir_module_free(m);
	/* a comment that is not a type does not stand in for one */
	errors = parse_fails("def @main(%x: Tensor[(1, 8), float32]) {\n"
			     "  %0 = contrib.my_op(%x)\n"
			     "    /* span=x.py:3 */;\n"
			     "  %0\n"
			     "}\n");
	assert_non_null(strstr(errors, "t.relay:2:8: error: unknown operator 'contrib.my_op'"));
	free(errors);
	/* nor one after the ';' */
	errors = parse_fails("def @main(%x: Tensor[(1, 8), float32]) {\n"
			     "  %0 = contrib.my_op(%x);\n"
			     "  /* ty=Tensor[(1, 8), float32] */\n"
			     "  %0\n"
			     "}\n");
	assert_non_null(strstr(errors, "t.relay:2:8: error: unknown operator 'contrib.my_op'"));
	free(errors);
	/* an error in a type on a following line is reported where it is */
	errors = parse_fails("def @main(%x: Tensor[(1, 8), float32]) {\n"
			     "  %0 = contrib.my_op(%x)\n"
			     "    /* ty=Tensor[(1, 8), flot32] */;\n"
			     "  %0\n"
			     "}\n");
	assert_non_null(strstr(errors, "t.relay:3:26: error: unknown dtype 'flot32'"));
	free(errors);
}

/* TVM's function attributes are kept, in order, and printed back [P1];
 * ir_fn_is_primitive reads Primitive. */
static void test_function_attributes(void **state)
{
	IrModule *
		m = parse_ok(
		       "def @main(%x: Tensor[(2), float32]) {\n"
		       "  %0 = fn (%p0: Tensor[(2), float32], Primitive=1, Compiler=\"ccompiler\", "
		       "global_symbol=\"fused_negative\", Inline=1) -> Tensor[(2), float32] {\n"
		       "    negative(%p0)\n"
		       "  };\n"
		       "  %1 = fn (%p1: Tensor[(2), float32], Primitive=0) { %p1 };\n"
		       "  %2 = %0(%x);\n"
		       "  %1(%2)\n"
		       "}\n"),
	       *again;
	Expr *body = body_of(m, "main"), *fused = body->u.call.args[0]->u.call.callee,
	     *plain = body->u.call.callee;
	char *text, *text2;
	(void)state;
	assert_int_equal(fused->kind, EXPR_FN);
	assert_int_equal(fused->u.fn.head->nattrs, 4);
	assert_string_equal(fused->u.fn.head->attrs[0].name, "Primitive");
	assert_string_equal(fused->u.fn.head->attrs[1].name, "Compiler");
	assert_string_equal(fused->u.fn.head->attrs[1].value.u.s, "ccompiler");
	assert_string_equal(fused->u.fn.head->attrs[2].name, "global_symbol");
	assert_string_equal(fused->u.fn.head->attrs[3].name, "Inline");
	assert_true(ir_fn_is_primitive(fused));
	assert_false(ir_fn_is_primitive(plain));
	assert_false(ir_fn_is_primitive(body));
	text = print_plain(m);
	assert_non_null(strstr(text, ", Primitive=1, Compiler=\"ccompiler\", "
				     "global_symbol=\"fused_negative\", Inline=1) -> "));
	again = parse_ok(text);
	text2 = print_plain(again);
	assert_string_equal(text, text2);
	free(text);
	free(text2);
	ir_module_free(again);
	ir_module_free(m);
}

/* A graph binding stays visible to the rest of its definition once its
 * scope ends, as in TVM's parser, whose graph bindings are not scoped (its
 * printer binds a value two branches share in the first); a let's, a
 * parameter's or a pattern's variable is visible in its body only, and
 * used elsewhere in its definition, an error as in TVM; a name no binding
 * of the definition has is a free variable. */
static void test_scoping(void **state)
{
	IrModule *m = parse_ok("def @main(%x: int32) {\n"
			       "  %0 = fn () { %5 = add(%x, 1); %5 };\n"
			       "  %1 = if (True) { %6 = add(%x, 2); %6 } else { %6 };\n"
			       "  %2 = (%5, %6);\n"
			       "  %2\n"
			       "}\n"
			       "def @g() { (%0, %x) }\n");
	Expr *t = body_of(m, "main"), *g = body_of(m, "g");
	char *errors;
	(void)state;
	assert_op(t->u.tuple.fields[0], OP_ADD);
	assert_op(t->u.tuple.fields[1], OP_ADD);
	/* another function's names are not its own */
	assert_int_equal(g->u.tuple.fields[0]->u.var.role, VAR_FREE);
	assert_int_equal(g->u.tuple.fields[1]->u.var.role, VAR_FREE);
	assert_int_equal(m->nfree_vars, 2);
	ir_module_free(m);
	errors = parse_fails("def @main(%c: bool) {\n"
			     "  %0 = if (%c) { let %x = 1; %x } else { %x };\n"
			     "  %1 = fn (%p: int32) { %p };\n"
			     "  %2 = add(%p, %y);\n"
			     "  let %y = 2;\n"
			     "  (%0, %1, %2)\n"
			     "}\n");
	assert_string_equal(errors,
			    "t.relay:2:42: error: '%x' is used outside the scope of its binding (a "
			    "let's, a parameter's or a pattern's variable is visible only in its "
			    "body)\n"
			    "    %0 = if (%c) { let %x = 1; %x } else { %x };\n"
			    "                                           ^\n"
			    "t.relay:2:22: note: '%x' is bound here\n"
			    "    %0 = if (%c) { let %x = 1; %x } else { %x };\n"
			    "                       ^\n"
			    "t.relay:4:12: error: '%p' is used outside the scope of its binding (a "
			    "let's, a parameter's or a pattern's variable is visible only in its "
			    "body)\n"
			    "    %2 = add(%p, %y);\n"
			    "             ^\n"
			    "t.relay:3:12: note: '%p' is bound here\n"
			    "    %1 = fn (%p: int32) { %p };\n"
			    "             ^\n"
			    "t.relay:4:16: error: '%y' is used before its binding\n"
			    "    %2 = add(%p, %y);\n"
			    "                 ^\n"
			    "t.relay:5:7: note: '%y' is bound here\n"
			    "    let %y = 2;\n"
			    "        ^\n");
	free(errors);
	/* a graph binding out of its scope, whose value uses a variable out
	 * of its own (TVM's parser reads it, its type inference refuses it) */
	errors = parse_fails("def @main(%c: bool) {\n"
			     "  %0 = fn (%p: int32) { %5 = add(%p, 1); %5 };\n"
			     "  %1 = if (%c) { let %y = 2; %6 = add(%y, %y); %6 } else { %6 };\n"
			     "  (%0, %1, %5)\n"
			     "}\n");
	assert_non_null(strstr(errors, "t.relay:3:60: error: '%6' is used outside the scope of its "
				       "binding, and its value uses '%y', which is not in scope "
				       "here"));
	assert_non_null(strstr(errors, "t.relay:4:12: error: '%5' is used outside the scope of its "
				       "binding, and its value uses '%p', which is not in scope "
				       "here"));
	assert_non_null(strstr(errors, "t.relay:2:12: note: '%p' is bound here"));
	free(errors);
}

/* TVM's infix operators read as calls of their operators, with its
 * precedence (`*` `/` over `+` `-` over the comparisons over `==` `!=`),
 * all left-associative, positioned where the left operand starts. */
static void test_infix_operators(void **state)
{
	IrModule *m = parse_ok("def @main(%a: int32, %b: int32) {\n"
			       "  (%a + %b * 2 < %a == %b != 1 - %a - %b / %a,\n"
			       "   %a <= %b, %a > --2, %a >= %b)\n"
			       "}\n");
	Expr *t = body_of(m, "main"), *ne, *eq, *lt, *sub;
	(void)state;
	assert_int_equal(t->kind, EXPR_TUPLE);
	/* ((a + b * 2) < a == b) != ((1 - a) - b / a) */
	ne = t->u.tuple.fields[0];
	assert_op(ne, OP_NOT_EQUAL);
	eq = ne->u.call.args[0];
	assert_op(eq, OP_EQUAL);
	lt = eq->u.call.args[0];
	assert_op(lt, OP_LESS);
	assert_op(lt->u.call.args[0], OP_ADD);
	assert_op(lt->u.call.args[0]->u.call.args[1], OP_MULTIPLY);
	assert_int_equal(lt->pos.line, 2);
	assert_int_equal(lt->pos.col, 4);
	sub = ne->u.call.args[1];
	assert_op(sub, OP_SUBTRACT);
	assert_op(sub->u.call.args[0], OP_SUBTRACT);
	assert_op(sub->u.call.args[1], OP_DIVIDE);
	assert_int_equal(sub->pos.col, 30);
	assert_op(t->u.tuple.fields[1], OP_LESS_EQUAL);
	assert_op(t->u.tuple.fields[2], OP_GREATER);
	/* --2 is the number 2, as TVM's tokenizer reads it */
	assert_int_equal(t->u.tuple.fields[2]->u.call.args[1]->kind, EXPR_CONSTANT);
	assert_int_equal(*(int32_t *)t->u.tuple.fields[2]->u.call.args[1]->u.constant.tensor.data,
			 2);
	ir_module_free(m);
	/* '-' before a name is no operator TVM has: no unary minus */
	free(parse_fails("def @main(%a: int32) { %a >= -%a }\n"));
}

/* `e1; e2` is TVM's sequencing, a let of a variable without a name; a
 * parenthesised sequence is an expression, so a let can be an operand. */
static void test_sequences_and_lets_in_expressions(void **state)
{
	IrModule *m = parse_ok("def @main(%r: ref(int32)) {\n"
			       "  ref_write(%r, 1);\n"
			       "  (let %a = 1; %a) + (2; 3)\n"
			       "}\n");
	Expr *seq = body_of(m, "main"), *add, *left, *right;
	(void)state;
	assert_int_equal(seq->kind, EXPR_LET);
	/* TVM's printer's name for it, made up */
	assert_string_equal(seq->u.let.var->name, "v");
	assert_true(seq->u.let.var->name_generated);
	assert_int_equal(seq->u.let.var->u.var.role, VAR_LET);
	assert_op(seq->u.let.value, OP_REF_WRITE);
	add = seq->u.let.body;
	assert_op(add, OP_ADD);
	left = add->u.call.args[0];
	assert_int_equal(left->kind, EXPR_LET);
	assert_string_equal(left->u.let.var->name, "a");
	assert_ptr_equal(left->u.let.body, left->u.let.var);
	right = add->u.call.args[1];
	assert_int_equal(right->kind, EXPR_LET);
	assert_true(right->u.let.var->name_generated);
	assert_int_equal(right->u.let.body->kind, EXPR_CONSTANT);
	ir_module_free(m);
}

/* An integer without a suffix that int32 cannot hold is an int64, as in
 * TVM; with i32 it is an error. */
static void test_integer_literal_widths(void **state)
{
	IrModule *m = parse_ok("def @main() { (2147483647, 2147483648, -2147483649, 1i64) }\n");
	Expr *t = body_of(m, "main");
	char *errors;
	(void)state;
	assert_int_equal(t->u.tuple.fields[0]->u.constant.tensor.dtype, DT_INT32);
	assert_int_equal(t->u.tuple.fields[1]->u.constant.tensor.dtype, DT_INT64);
	assert_int_equal(*(int64_t *)t->u.tuple.fields[1]->u.constant.tensor.data, 2147483648);
	assert_int_equal(t->u.tuple.fields[2]->u.constant.tensor.dtype, DT_INT64);
	ir_module_free(m);
	errors = parse_fails("def @main() { 2147483648i32 }\n");
	assert_non_null(strstr(errors, "error: integer '2147483648i32' does not fit in int32"));
	free(errors);
}

/* Attributes on a call of a function are TVM's generic ones: kept as
 * written when attrs_type_key names their type (golden/parse_errors has
 * the error without it). */
static void test_attributes_on_a_call_of_a_function(void **state)
{
	IrModule *m = parse_ok("def @main(%x: int32) {\n"
			       "  %0 = fn (%y: int32) { %y };\n"
			       "  %0(%x, name=\"n\", attrs_type_key=\"attrs.TestAttrs\")\n"
			       "}\n");
	Expr *call = body_of(m, "main");
	(void)state;
	assert_int_equal(call->kind, EXPR_CALL);
	assert_int_equal(call->u.call.op, OP_NONE);
	assert_int_equal(call->u.call.nattrs, 2);
	assert_string_equal(call->u.call.attrs[0].name, "name");
	assert_string_equal(call->u.call.attrs[0].value.u.s, "n");
	assert_string_equal(call->u.call.attrs[1].name, "attrs_type_key");
	assert_string_equal(call->u.call.attrs[1].value.u.s, "attrs.TestAttrs");
	ir_module_free(m);
}

/* An operator or a constructor with fields named without arguments is a
 * value (TVM's OpNode, ConstructorNode); called, directly or through a
 * graph binding, it is the operator's call or the construction itself,
 * as in TVM. */
static void test_operators_and_constructors_as_values(void **state)
{
	IrModule *m =
		parse_ok("type List[A] { Cons(A, List[A]), Nil }\n"
			 "def @main(%x: int32) {\n"
			 "  %0 = nn.relu;\n"
			 "  %1 = Cons;\n"
			 "  let %f = add;\n"
			 "  (%0(%x), (negative)(%x), %1(%x, Nil), %f(%x, %x), add, Cons, Nil)\n"
			 "}\n");
	Expr *t = body_of(m, "main")->u.let.body, *f;
	char *errors;
	(void)state;
	assert_op(t->u.tuple.fields[0], OP_RELU);
	assert_op(t->u.tuple.fields[1], OP_NEGATIVE);
	assert_int_equal(t->u.tuple.fields[2]->kind, EXPR_CONSTRUCT);
	assert_string_equal(t->u.tuple.fields[2]->u.construct.name, "Cons");
	f = t->u.tuple.fields[3];
	assert_int_equal(f->kind, EXPR_CALL);
	assert_int_equal(f->u.call.op, OP_NONE);
	assert_int_equal(f->u.call.callee->u.var.value->kind, EXPR_OP_VALUE);
	assert_int_equal(f->u.call.callee->u.var.value->u.op_value.op, OP_ADD);
	assert_int_equal(t->u.tuple.fields[4]->kind, EXPR_OP_VALUE);
	assert_string_equal(t->u.tuple.fields[4]->u.op_value.name, "add");
	assert_int_equal(t->u.tuple.fields[5]->kind, EXPR_OP_VALUE);
	assert_int_equal(t->u.tuple.fields[5]->u.op_value.op, OP_NONE);
	assert_string_equal(t->u.tuple.fields[5]->u.op_value.name, "Cons");
	/* a constructor without fields is its construction, as in TVM */
	assert_int_equal(t->u.tuple.fields[6]->kind, EXPR_CONSTRUCT);
	ir_module_free(m);
	errors = parse_fails("def @main(%x: int32) { %0 = add; (%0(%x), x) }\n");
	assert_non_null(
		strstr(errors, "t.relay:1:35: error: operator 'add' takes 2 arguments, got 1"));
	assert_non_null(strstr(errors, "t.relay:1:43: error: unknown operator 'x'"));
	free(errors);
}

static void test_positions(void **state)
{
	IrModule *m = parse_ok("def @main(%x: int32, %t: (int32, int32)) {\n"
			       "  %0 = nn.relu(%x) /* ty=int32 */;\n"
			       "  let %y = %t.1;\n"
			       "  multiply(%0,\n"
			       "           (%y, 2f))\n"
			       "}\n");
	Expr *fn = fn_of(m, "main"), *mul = fn->u.fn.body->u.let.body, *tuple, *relu;
	(void)state;
	assert_int_equal(fn->pos.line, 1);
	assert_int_equal(fn->pos.col, 1);
	assert_int_equal(fn->u.fn.params[1]->pos.col, 22);
	assert_int_equal(mul->pos.line, 4);
	assert_int_equal(mul->pos.col, 3);
	relu = mul->u.call.args[0];
	assert_int_equal(relu->pos.line, 2);
	assert_int_equal(relu->pos.col, 8);
	tuple = mul->u.call.args[1];
	assert_int_equal(tuple->pos.line, 5);
	assert_int_equal(tuple->pos.col, 12);
	assert_int_equal(tuple->u.tuple.fields[1]->pos.col, 17);
	assert_int_equal(fn->u.fn.body->u.let.value->pos.col, 12);
	assert_int_equal(fn->u.fn.body->u.let.var->pos.col, 7);
	ir_module_free(m);
}

static void test_version(void **state)
{
	IrModule *m;
	(void)state;
	m = parse_ok("#[version = \"0.0.5\"]\ndef @main() { 1f }\n");
	assert_string_equal(m->version, "0.0.5");
	assert_int_equal(diags.count, 0);
	ir_module_free(m);
	m = parse_ok("#[version = \"0.0.4\"]\ndef @main() { 1f }\n");
	assert_int_equal(diags.count, 1);
	assert_int_equal(diags.items[0].severity, DIAG_WARNING);
	assert_string_equal(diags.items[0].message,
			    "version '0.0.4' is not 0.0.5; reading it as 0.0.5");
	ir_module_free(m);
	m = parse_ok("");
	assert_int_equal(m->nglobals, 0);
	assert_null(m->version);
	ir_module_free(m);
}

static void parse_dir(const char *dir, bool notes_ok)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	int n = 0;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		char path[1024];
		IrModule *m;
		if (len < 6 || strcmp(ent->d_name + len - 6, ".relay") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
		m = parse_file_notes(path, notes_ok);
		assert_true(m->nglobals > 0);
		assert_true(ir_find_global(m, "main") >= 0);
		ir_module_free(m);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

static void test_all_models_and_cases_parse(void **state)
{
	(void)state;
	parse_dir(DEVPLAN_DATA_DIR "/models", false);
	/* the cases index the device table with meta[VirtualDevice][i], as
	 * TVM's tests do with a metatable: a note says so */
	parse_dir(DEVPLAN_DATA_DIR "/cases", true);
	parse_dir(DEVPLAN_SOURCE_DIR "/tests/fuzz_corpus", true);
}

/* ---- scale and limits -------------------------------------------------- */

static void test_long_chain(void **state)
{
	enum { N = 200000 };
	StrBuf sb;
	IrModule *m;
	Expr *e;
	uint32_t depth = 0;
	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main(%x: int32) {\n  %0 = add(%x, %x);\n");
	for (int i = 1; i < N; i++)
		strbuf_printf(&sb, "  %%%d = add(%%%d, %%x);\n", i, i - 1);
	for (int i = 0; i < 1000; i++)
		strbuf_printf(&sb, "  let %%v%d = negative(%%%d);\n", i, N - 1);
	strbuf_printf(&sb, "  %%%d\n}\n", N - 1);
	m = parse_ok(sb.data);
	e = body_of(m, "main");
	while (e->kind == EXPR_LET)
		e = e->u.let.body;
	for (; e->kind == EXPR_CALL; e = e->u.call.args[0])
		depth++;
	assert_int_equal(depth, N);
	ir_module_free(m);
	strbuf_free(&sb);
}

static void test_nesting_limits(void **state)
{
	StrBuf sb;
	IrModule *m;
	(void)state;
	/* 900 nested tuples are fine */
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main(%x: int32) { ");
	for (int i = 0; i < 900; i++)
		strbuf_puts(&sb, "(");
	strbuf_puts(&sb, "%x");
	for (int i = 0; i < 900; i++)
		strbuf_puts(&sb, ",)");
	strbuf_puts(&sb, " }");
	m = parse_ok(sb.data);
	ir_module_free(m);
	strbuf_free(&sb);

	/* 100000 are an error, not a crash: expressions, types, lists, closures */
	{
		static const struct {
			const char *prefix, *open, *middle, *close, *suffix;
		} cases[] = {
			{"def @main(%x: int32) { ", "(", "%x", ")", " }"},
			{"def @main(%x: int32) { ", "negative(", "%x", ")", " }"},
			{"def @main(%x: int32) { ", "fn () { ", "%x", " }", " }"},
			{"def @main(%x: ", "(", "int32", ",)", ") { %x }"},
			{"def @main(%x: int32) { sum(%x, axis=", "[", "1", "]", ") }"},
			{"def @main(%x: int32) { ", "if (True) { ", "%x", " } else { %x }", " }"},
		};
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			strbuf_init(&sb);
			strbuf_puts(&sb, cases[c].prefix);
			for (int i = 0; i < 100000; i++)
				strbuf_puts(&sb, cases[c].open);
			strbuf_puts(&sb, cases[c].middle);
			for (int i = 0; i < 100000; i++)
				strbuf_puts(&sb, cases[c].close);
			strbuf_puts(&sb, cases[c].suffix);
			m = parse_with(sb.data, sb.len, &devices);
			assert_null(m);
			if (diags.errors != 1 ||
			    strcmp(diags.items[0].message,
				   "nesting too deep (more than 1000 levels)") != 0) {
				char *s = format_diags();
				print_error("case %zu:\n%.2000s\n", c, s);
				free(s);
				fail();
			}
			strbuf_free(&sb);
		}
	}
}

/* parse_max_depth() on a thread whose stack is `bytes` */
static void *max_depth_thread(void *arg)
{
	*(int *)arg = parse_max_depth();
	return NULL;
}

static int max_depth_on_stack(size_t bytes)
{
	pthread_attr_t attr;
	pthread_t thread;
	int depth = -1;
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, bytes), 0);
	assert_int_equal(pthread_create(&thread, &attr, max_depth_thread, &depth), 0);
	pthread_attr_destroy(&attr);
	assert_int_equal(pthread_join(thread, NULL), 0);
	return depth;
}

/* The nesting limit follows the stack of the thread that parses (the
 * devplan binary parses on a thread of 8 MiB whatever `ulimit -s` says):
 * all 1000 levels on 8 MiB, what fits on 256 KiB (about 149 levels in an
 * optimised build, fewer under the sanitizers), one on a stack with no
 * room for any. */
static void test_nesting_follows_thread_stack(void **state)
{
	int tiny, small;
	(void)state;
	/* smallest first: glibc hands a new thread a cached stack that is at
	 * least as large as asked for */
	tiny = max_depth_on_stack(64u << 10);
	small = max_depth_on_stack(256u << 10);
	assert_true(tiny >= 1 && tiny < small);
	assert_true(small >= 50 && small < 1000);
	assert_int_equal(max_depth_on_stack(8u << 20), 1000);
}

static void test_error_limit(void **state)
{
	StrBuf sb;
	IrModule *m;
	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main(%x: int32) {\n");
	for (int i = 0; i < 50; i++)
		strbuf_printf(&sb, "  %%%d = foo%d(%%x);\n", i, i);
	strbuf_puts(&sb, "  %x\n}\n");
	m = parse_with(sb.data, sb.len, &devices);
	assert_null(m);
	assert_int_equal(diags.errors, PARSE_MAX_ERRORS);
	assert_int_equal(diags.count, PARSE_MAX_ERRORS + 1);
	assert_int_equal(diags.items[PARSE_MAX_ERRORS].severity, DIAG_NOTE);
	assert_string_equal(diags.items[PARSE_MAX_ERRORS].message, "too many errors, stopping");
	strbuf_free(&sb);
}

static void test_errors_in_several_functions(void **state)
{
	char *s = parse_fails("def @f(%x: int32) {\n"
			      "  %0 = add(%x %x);\n"
			      "  %0\n"
			      "}\n"
			      "def @g(%y: int32) {\n"
			      "  nn.relu(%y, axis=1)\n"
			      "}\n"
			      "def @f() { 1 }\n");
	(void)state;
	assert_string_equal(s,
			    "t.relay:2:15: error: expected ')' after arguments, found '%x'\n"
			    "    %0 = add(%x %x);\n"
			    "                ^\n"
			    "t.relay:6:15: error: unknown attribute 'axis' for operator 'nn.relu' "
			    "(it takes no attributes)\n"
			    "    nn.relu(%y, axis=1)\n"
			    "                ^\n"
			    "t.relay:8:5: error: duplicate definition of '@f'\n"
			    "  def @f() { 1 }\n"
			    "      ^\n"
			    "t.relay:1:1: note: '@f' was first defined here\n"
			    "  def @f(%x: int32) {\n"
			    "  ^\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph_binding_is_shared),
		cmocka_unit_test(test_binding_keeps_an_existing_name),
		cmocka_unit_test(test_let_links_its_value),
		cmocka_unit_test(test_recursive_let_closure),
		cmocka_unit_test(test_let_value_sees_the_outer_name),
		cmocka_unit_test(test_parameter_and_function_devices),
		cmocka_unit_test(test_device_scopes),
		cmocka_unit_test(test_meta_device_from_table_note),
		cmocka_unit_test(test_device_spellings),
		cmocka_unit_test(test_meta_device_uses_the_table_without_metadata),
		cmocka_unit_test(test_op_attributes),
		cmocka_unit_test(test_zero_argument_op),
		cmocka_unit_test(test_closures_and_calls),
		cmocka_unit_test(test_tuples_and_projections),
		cmocka_unit_test(test_if),
		cmocka_unit_test(test_scalar_constants),
		cmocka_unit_test(test_metadata_small),
		cmocka_unit_test(test_metadata_constant_shared),
		cmocka_unit_test(test_metadata_device_not_in_table),
		cmocka_unit_test(test_byte_order_mark_and_crlf),
		cmocka_unit_test(test_metadata_write_round_trip),
		cmocka_unit_test(test_metadata_write_all_dtypes),
		cmocka_unit_test(test_metadata_errors),
		cmocka_unit_test(test_metadata_without_devices_uses_the_table),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_tvm_dtypes_and_incomplete_type),
		cmocka_unit_test(test_globals_forward_and_recursive),
		cmocka_unit_test(test_extern_and_braceless_types),
		cmocka_unit_test(test_free_vars),
		cmocka_unit_test(test_bare_function_and_expression),
		cmocka_unit_test(test_unknown_operator_with_printed_type),
		cmocka_unit_test(test_unknown_operator_type_on_next_line),
		cmocka_unit_test(test_function_attributes),
		cmocka_unit_test(test_scoping),
		cmocka_unit_test(test_infix_operators),
		cmocka_unit_test(test_sequences_and_lets_in_expressions),
		cmocka_unit_test(test_integer_literal_widths),
		cmocka_unit_test(test_attributes_on_a_call_of_a_function),
		cmocka_unit_test(test_operators_and_constructors_as_values),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_all_models_and_cases_parse),
		cmocka_unit_test(test_long_chain),
		cmocka_unit_test(test_nesting_limits),
		cmocka_unit_test(test_nesting_follows_thread_stack),
		cmocka_unit_test(test_error_limit),
		cmocka_unit_test(test_errors_in_several_functions),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
