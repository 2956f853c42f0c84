/*
 * test_relax_lower.c - a realised Relax module lowered onto Relay
 * (core/relax/relax_lower.c).
 *
 * Each mapped operator, with its attributes away from their defaults,
 * must lower to the Relay call written beside it, and that Relay must
 * parse (core/ir/parse.c checks every attribute against ops.def); an
 * operand on another vdevice becomes a device_copy, R.to_vdevice one too;
 * an operator with no kernel, a vdevice devplan cannot run, a recursive
 * call and a call_tir of a prim_func that is not a copy are positioned
 * errors naming what cannot run. Calls between functions are inlined
 * (unique names, each line's origin its Relax binding and call), `if` is a
 * Relay if, R.match_cast an annotated let, a named entry is found or
 * refused with a did-you-mean.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "devices.h"
#include "ir.h"
#include "parse.h"
#include "relax_lower.h"
#include "relax_parse.h"
#include "relax_realize.h"

#define HEADER                                                                               \
	"@I.ir_module\n"                                                                     \
	"class Module:\n"                                                                    \
	"    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\"), I.vdevice(\"cuda\", " \
	"0), I.vdevice(\"metal\", 0)]})\n"                                                   \
	"    @R.function\n"

#define T(shape) "R.Tensor(" shape ", dtype=\"float32\", vdevice=\"llvm:0\")"

/* Lowers text (realised under policy tvm) with llvm -> 0, cuda -> 1 and
 * metal unrunnable, from entry (NULL: the default); the Relay text, or
 * NULL with the first error's "line:col: message" in *err. With origin,
 * the lines' origins too (the caller frees them). */
static char *lower_entry(const char *text, const char *entry, SourceOrigin *origin, char **err)
{
	SourceFile *src = source_from_string("t.py", text, strlen(text));
	DiagList diags;
	RxModule *m;
	RxRealize r;
	int32_t device_of[3] = {0, 1, -1};
	StrBuf out;
	char *result = NULL;
	diag_init(&diags);
	*err = NULL;
	m = relax_parse(src, &diags);
	assert_non_null(m);
	relax_realize_init(&r, m);
	while (r.done < RX_PHASE_COUNT)
		assert_true(relax_realize_step(&r, &diags));
	strbuf_init(&out);
	if (relax_lower(relax_realize_current(&r), device_of, 0, entry, &out, origin, &diags)) {
		result = strbuf_detach(&out);
	} else {
		for (size_t i = 0; i < diags.count; i++)
			if (diags.items[i].severity == DIAG_ERROR && !*err)
				*err = xasprintf("%u:%u: %s", diags.items[i].pos.line,
						 diags.items[i].pos.col, diags.items[i].message);
		strbuf_free(&out);
	}
	relax_realize_free(&r);
	relax_module_free(m);
	diag_free(&diags);
	source_release(src);
	return result;
}

static char *lower_text(const char *text, char **err)
{
	return lower_entry(text, NULL, NULL, err);
}

/* The Relay text parses with the default device table (cpu:0, cuda:0). */
static void assert_parses(const char *relay)
{
	SourceFile *src = source_from_string("lowered.relay", relay, strlen(relay));
	DeviceTable devices;
	DiagList diags;
	IrModule *m;
	devices_init_default(&devices);
	diag_init(&diags);
	m = parse_module(src, &devices, &diags);
	if (!m || diags.errors)
		for (size_t i = 0; i < diags.count; i++)
			fprintf(stderr, "%u:%u: %s\n%s", diags.items[i].pos.line,
				diags.items[i].pos.col, diags.items[i].message, relay);
	assert_non_null(m);
	assert_int_equal(diags.errors, 0);
	ir_module_free(m);
	diag_free(&diags);
	devices_free(&devices);
	source_release(src);
}

typedef struct OpCase {
	const char *params; /* the function's parameters */
	const char *value;  /* the binding's value */
	const char *type;   /* its annotation */
	const char *relay;  /* what the Relay text must contain */
} OpCase;

static const OpCase op_cases[] = {
	{"x: " T("(2, 3)") ", y: " T("(2, 3)"), "R.add(x, y)", T("(2, 3)"), "add(%x, %y)"},
	{"x: " T("(2, 3)"), "R.nn.relu(x)", T("(2, 3)"), "nn.relu(%x)"},
	{"x: " T("(2, 3)") ", y: " T("(3, 4)"), "R.matmul(x, y, out_dtype=None)", T("(2, 4)"),
	 "nn.matmul(%x, %y)"},
	{"x: " T("(5, 2, 3)") ", y: " T("(3, 4)"), "R.matmul(x, y)", T("(5, 2, 4)"),
	 "reshape(nn.matmul(reshape(%x, newshape=[-1, 3]), %y), newshape=[5, 2, 4])"},
	{"x: " T("(5, 2, 3)") ", y: " T("(5, 3, 4)"), "R.matmul(x, y)", T("(5, 2, 4)"),
	 "reshape(nn.batch_matmul(reshape(%x, newshape=[-1, 2, 3]), reshape(%y, newshape=[-1, "
	 "3, 4]), transpose_b=False), newshape=[5, 2, 4])"},
	{"x: " T("(2, 3)"), "R.permute_dims(x, axes=[1, 0])", T("(3, 2)"),
	 "transpose(%x, axes=[1, 0])"},
	{"x: " T("(2, 3)"), "R.reshape(x, R.shape([3, 2]))", T("(3, 2)"),
	 "reshape(%x, newshape=[3, 2])"},
	{"x: " T("(2, 3)") ", y: " T("(2, 3)"), "R.concat((x, y), axis=1)", T("(2, 6)"),
	 "concatenate((%x, %y), axis=1)"},
	{"x: " T("(2, 3)"), "R.mean(x, axis=[1], keepdims=True)", T("(2, 1)"),
	 "mean(%x, axis=[1], keepdims=True)"},
	{"x: " T("(2, 3)"), "R.sum(x, axis=[0], keepdims=False)", T("(3,)"),
	 "sum(%x, axis=[0], keepdims=False)"},
	{"x: " T("(2, 3)"), "R.nn.softmax(x, axis=0)", T("(2, 3)"), "nn.softmax(%x, axis=0)"},
	{"x: " T("(2, 3)") ", g: " T("(3,)") ", b: " T("(3,)"),
	 "R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-06, center=True, scale=False)",
	 T("(2, 3)"),
	 "nn.layer_norm(%x, %g, %b, axis=-1, epsilon=1e-06, center=True, scale=False)"},
	{"x: " T("(2, 3)"), "R.astype(x, dtype=\"float16\")",
	 "R.Tensor((2, 3), dtype=\"float16\", vdevice=\"llvm:0\")", "cast(%x, dtype=\"float16\")"},
	{"x: " T("(2, 3)"), "R.expand_dims(x, axis=[1])", T("(2, 1, 3)"),
	 "expand_dims(%x, axis=1)"},
	{"x: " T("(2, 3)"), "R.broadcast_to(x, R.shape([4, 2, 3]))", T("(4, 2, 3)"),
	 "broadcast_to(%x, shape=[4, 2, 3])"},
	{"x: " T("(1, 2, 5, 5)") ", w: " T("(4, 2, 3, 3)"),
	 "R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, "
	 "data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=\"void\")",
	 T("(1, 4, 3, 3)"),
	 "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, "
	 "data_layout=\"NCHW\", kernel_layout=\"OIHW\")"},
	{"x: " T("(2, 3)"), "R.nn.gelu(x)", T("(2, 3)"), "erf(multiply(%x, 0.7071067811865476f))"},
	{"x: " T("(2, 3)"), "R.nn.silu(x)", T("(2, 3)"), "multiply(%x, sigmoid(%x))"},
	{"x: " T("(2, 3)"), "R.multiply(x, R.const(0.5, \"float32\"))", T("(2, 3)"),
	 "multiply(%x, 0.5f)"},
	{"x: " T("(2, 3)"), "R.erf(x)", T("(2, 3)"), "erf(%x)"},
};

static void test_ops(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof op_cases / sizeof *op_cases; i++) {
		const OpCase *c = &op_cases[i];
		char *text = xasprintf(HEADER "    def main(%s) -> %s:\n"
					      "        r: %s = %s\n"
					      "        return r\n",
				       c->params, c->type, c->type, c->value);
		char *err, *relay = lower_text(text, &err);
		if (!relay || !strstr(relay, c->relay))
			fprintf(stderr, "case %zu: %s\nwanted: %s\ngot: %s\n", i, err ? err : "",
				c->relay, relay ? relay : "(none)");
		assert_non_null(relay);
		assert_non_null(strstr(relay, c->relay));
		assert_non_null(strstr(relay, "virtual_device=meta[VirtualDevice][0]"));
		assert_parses(relay);
		free(relay);
		free(text);
	}
}

/* R.to_vdevice and an operand on another vdevice are device_copy calls. */
static void test_copies(void **state)
{
	const char *text = HEADER "    def main(x: " T(
		"(2, 3)") ", y: R.Tensor((2, 3), dtype=\"float32\", "
			  "vdevice=\"cuda:0\")) -> R.Tensor((2, 3), dtype=\"float32\", "
			  "vdevice=\"cuda:0\"):\n"
			  "        a: R.Tensor((2, 3), dtype=\"float32\", vdevice=\"cuda:0\") = "
			  "R.to_vdevice(x, dst_vdevice=\"cuda:0\")\n"
			  "        b: R.Tensor((2, 3), dtype=\"float32\", vdevice=\"cuda:0\") = "
			  "R.add(a, y)\n"
			  "        return b\n";
	char *err, *relay = lower_text(text, &err);
	(void)state;
	assert_non_null(relay);
	assert_non_null(strstr(relay, "%y {virtual_device=meta[VirtualDevice][1]}"));
	assert_non_null(strstr(relay,
			       "let %a = device_copy(%x, src_virtual_device=meta["
			       "VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1]);"));
	assert_non_null(
		strstr(relay, "on_device(add(%a, %y), virtual_device=meta[VirtualDevice][1])"));
	assert_parses(relay);
	free(relay);
}

typedef struct ErrorCase {
	const char *body; /* the function, after HEADER */
	const char *error;
} ErrorCase;

static const ErrorCase error_cases[] = {
	{"    def main(x: " T("(2, 3)") ") -> " T(
		 "(2, 3)") ":\n"
			   "        r: " T("(2, 3)") " = R.einsum((x,), subscripts=\"ij->ji\")\n"
						     "        return r\n",
	 "6:66: R.einsum has no kernel: cannot run"},
	{"    def main(x: R.Tensor((2, 3), dtype=\"float32\", vdevice=\"metal:0\")) -> "
	 "R.Tensor((2, 3), dtype=\"float32\", vdevice=\"metal:0\"):\n"
	 "        return x\n",
	 "5:14: vdevice 'metal:0:global' cannot run"},
	{"    def main(x: " T("(2, 3)") ") -> " T("(2, 3)") ":\n"
							    "        cls = Module\n"
							    "        r: " T(
								    "(2, 3)") " = cls.main(x)\n"
									      "        return r\n",
	 "7:66: a recursive call of @main cannot run"},
	{"    def main(x: " T("(2, 3)") ") -> " T(
		 "(2, 3)") ":\n"
			   "        r: " T("(2, 3)") " = R.call_tir(cls.f, (x,), out_sinfo=" T(
				   "(2, 3)") ")\n"
					     "        return r\n"
					     "    @T.prim_func\n"
					     "    def f(A: T.Buffer((2, 3), \"float32\"), B: "
					     "T.Buffer((2, 3), \"float32\")):\n"
					     "        for i, j in T.grid(2, 3):\n"
					     "            B[i, j] = A[j, i]\n",
	 "6:66: R.call_tir has no kernel: cannot run"},
	{"    def main(x: " T("(n, 2, 3)") ", y: " T("(3, 4)") ") -> " T(
		 "(n, 2, 4)") ":\n"
			      "        r: " T("(n, 2, 4)") " = R.matmul(x, y)\n"
							   "        return r\n",
	 "6:69: R.matmul needs static shapes to run"},
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof error_cases / sizeof *error_cases; i++) {
		char *text = xasprintf(HEADER "%s", error_cases[i].body);
		char *err, *relay = lower_text(text, &err);
		if (relay || !err || !strstr(err, error_cases[i].error))
			fprintf(stderr, "case %zu: wanted %s, got %s\n", i, error_cases[i].error,
				err ? err : relay);
		assert_null(relay);
		assert_non_null(err);
		assert_non_null(strstr(err, error_cases[i].error));
		free(err);
		free(text);
	}
}

/* A helper called twice is inlined twice, its names made unique, each
 * line's origin its Relax binding and the call it sits in. */
static void test_calls(void **state)
{
	const char *text = HEADER "    def main(x: " T("(2, 3)") ") -> " T(
		"(2, 3)") ":\n"
			  "        cls = Module\n"
			  "        a: " T("(2, 3)") " = cls.helper(x)\n"
						    "        b: " T(
							    "(2, 3)") " = cls.helper(a)\n"
								      "        return b\n"
								      "    @R.function\n"
								      "    def helper(a: "
								      "R.Tensor(dtype=\"float32\", "
								      "ndim=2)) -> "
								      "R.Tensor(dtype=\"float32\", "
								      "ndim=2):\n"
								      "        b: "
								      "R.Tensor(dtype=\"float32\", "
								      "ndim=2) = R.exp(a)\n"
								      "        return b\n";
	SourceOrigin origin;
	char *err, *relay = lower_entry(text, NULL, &origin, &err);
	const char *second;
	uint32_t line = 1;
	(void)state;
	if (!relay)
		fprintf(stderr, "%s\n", err);
	assert_non_null(relay);
	assert_non_null(strstr(relay, "let %b = on_device(exp(%x)"));
	second = strstr(relay, "let %b_1 = on_device(exp(%b)");
	assert_non_null(second);
	assert_non_null(strstr(relay, "\n  %b_1\n"));
	assert_parses(relay);
	for (const char *c = relay; c < second; c++)
		line += *c == '\n';
	/* the second exp: helper's binding, in the call on line 8 */
	assert_int_equal(origin.pos[line - 1].line, 12);
	assert_int_not_equal(origin.call[line - 1], 0);
	assert_int_equal(origin.calls[origin.call[line - 1] - 1].pos.line, 8);
	assert_string_equal(origin.calls[origin.call[line - 1] - 1].callee, "helper");
	assert_int_equal(origin.nlines, line + 2);
	source_origin_free(&origin);
	free(relay);
	/* a named entry: helper's shapeless parameter takes the input's shape */
	relay = lower_entry(text, "@helper", NULL, &err);
	assert_non_null(relay);
	assert_non_null(strstr(relay, "%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(?, ?), "
				      "float32]\n"));
	assert_parses(relay);
	free(relay);
	relay = lower_entry(text, "@helpr", NULL, &err);
	assert_null(relay);
	assert_non_null(strstr(err, "no Relax function '@helpr' in the module; did you mean "
				    "'@helper'?"));
	free(err);
}

/* if/else is a Relay if on the scalar bool; match_cast a let annotated with
 * the cast's type, symbolic dims `?`. */
static void test_if_match(void **state)
{
	const char *text = HEADER "    def main(x: " T(
		"(n, 3)") ", c: R.Tensor((), dtype=\"bool\", "
			  "vdevice=\"llvm:0\")) -> " T(
				  "(2, 3)") ":\n"
					    "        n = T.int64()\n"
					    "        k: " T("(2, 3)") " = R.match_cast(x, " T(
						    "(2, 3)") ")\n"
							      "        m: " T(
								      "(n, 3)") " = "
										"R.match_cast(x,"
										" " T("(n, 3)") ")"
												"\n"
												"  "
												"  "
												"  "
												"  "
												"if"
												" c"
												":"
												"\n"
												"  "
												"  "
												"  "
												"  "
												"  "
												"  "
												"y:"
												" " T("(2, 3)") " = R.exp(k)\n"
														"        else:\n"
														"            z: " T(
															"(2, 3)") " = R.negative(k)\n"
																  "            y: " T(
																	  "(2, 3)") " = R.add(z, z)\n"
																		    "        return y\n";
	char *err, *relay = lower_text(text, &err);
	(void)state;
	assert_non_null(relay);
	assert_non_null(strstr(relay, "let %k: Tensor[(2, 3), float32] = %x;"));
	assert_non_null(strstr(relay, "let %m: Tensor[(?, 3), float32] = %x;"));
	assert_non_null(strstr(relay, "let %y = if (%c) {\n    let %y_1 = on_device(exp(%k)"));
	assert_non_null(strstr(relay, "  } else {\n    let %z = on_device(negative(%k)"));
	assert_non_null(strstr(relay, "let %y_2 = on_device(add(%z, %z)"));
	assert_parses(relay);
	free(relay);
}

/* R.call_tir of a prim_func that copies its input is a copy. */
static void test_call_tir_copy(void **state)
{
	const char *text = HEADER "    def main(x: " T("(2, 3)") ") -> " T(
		"(2, 3)") ":\n"
			  "        cls = Module\n"
			  "        r: " T("(2, 3)") " = R.call_tir(cls.f, (x,), out_sinfo=" T(
				  "(2, 3)") ")\n"
					    "        return r\n"
					    "    @T.prim_func\n"
					    "    def f(A: T.Buffer((2, 3), \"float32\"), B: "
					    "T.Buffer((2, 3), \"float32\")):\n"
					    "        for i, j in T.grid(2, 3):\n"
					    "            B[i, j] = A[i, j]\n";
	char *err, *relay = lower_text(text, &err);
	(void)state;
	assert_non_null(relay);
	assert_non_null(strstr(relay, "let %r = on_device(copy(%x)"));
	assert_parses(relay);
	free(relay);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),      cmocka_unit_test(test_copies),
		cmocka_unit_test(test_errors),   cmocka_unit_test(test_calls),
		cmocka_unit_test(test_if_match), cmocka_unit_test(test_call_tir_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
