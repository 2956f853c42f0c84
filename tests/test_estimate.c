/*
 * test_estimate.c - core/plan/plan_estimate.c: FLOPs, copy bytes and time,
 * and peak memory per device of tiny planned modules, each number worked
 * out by hand in the comment beside it.
 */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "plan_estimate.h"
#include "session.h"

/* Loads text into s and plans it; fails the test when it does not plan. */
static void plan_text(Session *s, const char *text)
{
	SourceFile *src = source_from_string("t.relay", text, strlen(text));
	session_init(s);
	if (!session_load_source(s, src, "t.relay") || !session_step(s, pipeline_count)) {
		diag_print_all(stderr, &s->diags);
		fail();
	}
	source_release(src);
}

/* Everything on the cpu: a dense, a relu, a sum and a convolution. */
static void test_flops_and_peak_on_one_device(void **state)
{
	static const char text[] =
		"def @main(%x: Tensor[(2, 3), float32], %w: Tensor[(4, 3), float32],\n"
		"          %k: Tensor[(8, 4, 3, 3), float32], %img: Tensor[(1, 4, 6, 6), float32]) "
		"{\n"
		"  %0 = nn.dense(%x, %w, units=4);\n"
		"  %1 = nn.relu(%0);\n"
		"  %2 = sum(%1);\n"
		"  %3 = nn.conv2d(%img, %k, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, "
		"3]);\n"
		"  (%2, %3)\n"
		"}\n";
	Session s;
	PlanEstimate e;
	(void)state;
	plan_text(&s, text);
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	assert_int_equal(e.ndevices, 2);
	/* dense: out (2, 4) = 8 elements, K = 3: 2 * 8 * 3 = 48; relu: 8
	 * outputs; sum: 8 inputs; conv2d: out (1, 8, 6, 6) = 288 elements,
	 * K = 4 * 3 * 3 = 36 (288 weights / 8 output channels): 2 * 36 * 288 =
	 * 20736. 48 + 8 + 8 + 20736 = 20800. */
	assert_true(e.devices[0].flops == 20800);
	assert_int_equal(e.devices[0].ops, 4);
	assert_int_equal(e.devices[0].ops_unknown, 0);
	/* 20800 / 1000 GFLOP/s */
	assert_true(e.devices[0].seconds == 20800 / (DEVICES_CPU_PEAK_DEFAULT * 1e9));
	/* parameters from the start: %x 24 + %w 48 + %k 1152 + %img 576 =
	 * 1800; %0 +32 = 1832 (%x, %w die after it: 1760); %1 +32 = 1792
	 * (%0 dies: 1760); %2 +4 = 1764 (%1 dies: 1732); %3 +1152 = 2884,
	 * the peak (%2 and %3 live on as the result) */
	assert_int_equal(e.devices[0].peak_bytes, 2884);
	assert_int_equal(e.devices[0].unsized, 0);
	/* nothing on the gpu, nothing copied */
	assert_true(e.devices[1].flops == 0);
	assert_int_equal(e.devices[1].peak_bytes, 0);
	assert_int_equal(e.ncopies, 0);
	assert_int_equal(e.ndirections, 0);
	plan_estimate_free(&e);
	session_free(&s);
}

/* Two devices: a copy each way, and what lives where. */
static void test_copies_and_peak_per_device(void **state)
{
	static const char text[] =
		"def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32],\n"
		"          %c: Tensor[(5, 7), float32]) {\n"
		"  %0 = add(%a, %b);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
		"  %2 = add(%b, %c);\n"
		"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
		"  subtract(%1, %3)\n"
		"}\n";
	Session s;
	PlanEstimate e;
	(void)state;
	plan_text(&s, text);
	/* the link of cuda:0 at 20 GB/s and 8 us a copy; the cpu's own
	 * bandwidth and latency are not the link's */
	s.devices.items[1].bandwidth = 20;
	s.devices.items[0].bandwidth = 1;
	s.devices.items[1].latency = 8;
	s.devices.items[0].latency = 1000;
	s.devices.items[1].launch = 4;
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	/* %b cpu -> cuda and %2 cuda -> cpu, 140 bytes each, 8e-6 + 140 / 20e9 s */
	assert_int_equal(e.ncopies, 2);
	assert_int_equal(e.ndirections, 2);
	assert_int_equal(e.directions[0].src, 0);
	assert_int_equal(e.directions[0].dst, 1);
	assert_int_equal(e.directions[0].bytes, 140);
	assert_int_equal(e.directions[0].copies, 1);
	assert_true(fabs(e.directions[0].seconds - (8e-6 + 140 / 20e9)) < 1e-15);
	assert_true(fabs(e.directions[1].seconds - (8e-6 + 140 / 20e9)) < 1e-15);
	assert_int_equal(e.directions[1].src, 1);
	assert_int_equal(e.directions[1].dst, 0);
	assert_int_equal(e.directions[1].bytes, 140);
	/* cpu: %a + %b (280), %0 (+140) = 420; cuda: %c, the copy of %b, %2 */
	assert_int_equal(e.devices[0].peak_bytes, 420);
	assert_int_equal(e.devices[1].peak_bytes, 420);
	/* 35 elements per add or subtract: two on the cpu, one on the gpu */
	assert_true(e.devices[0].flops == 70);
	assert_true(e.devices[1].flops == 35);
	/* time: FLOPs at the peak, and the gpu's one add 4 us to launch; the
	 * cpu's launch is 0 */
	assert_true(fabs(e.devices[0].seconds - 70 / 1000e9) < 1e-18);
	assert_true(fabs(e.devices[1].seconds - (35 / 50000e9 + 4e-6)) < 1e-15);
	plan_estimate_free(&e);
	session_free(&s);
}

/* The matmul and transposed-convolution rules, and a let-bound value that
 * lives to its last use through the variable. */
static void test_rules_and_lets(void **state)
{
	static const char text[] =
		"def @main(%a: Tensor[(2, 5, 3), float32], %b: Tensor[(2, 4, 5), float32],\n"
		"          %d: Tensor[(1, 4, 5, 5), float32], %k: Tensor[(4, 2, 3, 3), float32]) "
		"{\n"
		"  let %m = nn.batch_matmul(%a, %b, transpose_a=True, transpose_b=True);\n"
		"  let %t = nn.conv2d_transpose(%d, %k, channels=2, kernel_size=[3, 3]);\n"
		"  let %n = negative(%m);\n"
		"  (%n, %t)\n"
		"}\n";
	Session s;
	PlanEstimate e;
	(void)state;
	plan_text(&s, text);
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	/* batch_matmul, %a held as (B, K, M): out (2, 3, 4) = 24, K = 5:
	 * 2 * 24 * 5 = 240. conv2d_transpose, IOHW weights (4, 2, 3, 3): K =
	 * 72 / 4 input channels = 18, 100 inputs: 2 * 18 * 100 = 3600.
	 * negative: 24. */
	assert_true(e.devices[0].flops == 240 + 3600 + 24);
	/* params 120 + 160 + 400 + 288 = 968; %m +96 = 1064 (%a, %b die:
	 * 784); %t (1, 2, 7, 7) +392 = 1176 (%d, %k die: 488: %m, %t); %n
	 * +96 = 584: %m, read through the variable, lives until %n */
	assert_int_equal(e.devices[0].peak_bytes, 1176);
	plan_estimate_free(&e);
	session_free(&s);
}

static void test_link_bandwidth(void **state)
{
	DeviceTable t;
	char *err = NULL;
	(void)state;
	devices_init_default(&t);
	assert_int_equal(devices_add(&t, "cuda:1", NULL, &err), 2);
	assert_int_equal(devices_add(&t, "cpu:1", NULL, &err), 3);
	assert_true(devices_set_attribute(&t, 1, "bandwidth=12", &err));
	assert_true(devices_set_attribute(&t, 3, "bandwidth=4", &err));
	/* host <-> accelerator: the accelerator's link, either way */
	assert_true(plan_estimate_link(&t, 0, 1).bandwidth == 12);
	assert_true(plan_estimate_link(&t, 1, 0).bandwidth == 12);
	assert_true(plan_estimate_link(&t, 0, 2).bandwidth ==
		    DEVICES_ACCELERATOR_BANDWIDTH_DEFAULT);
	/* two accelerators: the slower; two cpus: the slower memory */
	assert_true(plan_estimate_link(&t, 1, 2).bandwidth == 12);
	assert_true(plan_estimate_link(&t, 0, 3).bandwidth == 4);
	assert_false(devices_set_attribute(&t, 1, "peak=0", &err));
	free(err);
	/* fixed costs: the accelerator's either way, the larger of two; 0 is a
	 * cost, below 0 is not */
	assert_true(devices_set_attribute(&t, 1, "latency=3", &err));
	assert_true(devices_set_attribute(&t, 2, "latency=0", &err));
	assert_true(plan_estimate_link(&t, 0, 1).latency == 3);
	assert_true(plan_estimate_link(&t, 1, 0).latency == 3);
	assert_true(plan_estimate_link(&t, 0, 2).latency == 0);
	assert_true(plan_estimate_link(&t, 1, 2).latency == 3);
	assert_true(plan_estimate_link(&t, 0, 3).latency == DEVICES_CPU_LATENCY_DEFAULT);
	assert_false(devices_set_attribute(&t, 1, "launch=-1", &err));
	free(err);
	err = NULL;
	devices_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flops_and_peak_on_one_device),
		cmocka_unit_test(test_copies_and_peak_per_device),
		cmocka_unit_test(test_rules_and_lets),
		cmocka_unit_test(test_link_bandwidth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
