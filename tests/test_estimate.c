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
#include <sys/wait.h>
#include <unistd.h>

#include "calibrate.h"
#include "exec_clock.h"
#include "kernels.h"
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
	/* a roofline per call: every one of these is bound by its bytes at the
	 * nominal cpu's 10 GB/s (its FLOPs at 1000 GFLOP/s take far less):
	 * dense 24 + 48 + 32 = 104, relu 32 + 32, sum 32 + 4, conv2d 576 +
	 * 1152 + 1152 = 2880: 3084 bytes */
	assert_true(e.devices[0].bytes == 3084);
	assert_true(fabs(e.devices[0].seconds - 3084 / (DEVICES_CPU_MEMORY_DEFAULT * 1e9)) < 1e-18);
	assert_int_equal(e.nops, 4);
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
	/* time: each add reads two 140-byte operands and writes one, 420
	 * bytes at the device's memory bandwidth (the cpu's 10 GB/s, not its
	 * link's 1), and the gpu's one add 4 us to launch; the cpu's launch
	 * is 0 */
	assert_true(fabs(e.devices[0].seconds - 840 / 10e9) < 1e-18);
	assert_true(fabs(e.devices[1].seconds - (420 / 3000e9 + 4e-6)) < 1e-15);
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

/* The estimate of one call of op, by operator, in e: its EstimateOp. */
static const EstimateOp *op_of(const PlanEstimate *e, OpKind op)
{
	for (size_t i = 0; i < e->nops; i++)
		if (e->ops[i].op == op)
			return &e->ops[i];
	fail_msg("no estimate for op %d", (int)op);
	return NULL;
}

/* Given a calibration, a product takes its FLOPs at the sgemm rate, a
 * transpose its bytes at memcpy's bandwidth, an elementwise op its bytes
 * too: the roofline of each call. */
static void test_calibrated_roofline(void **state)
{
	static const char text[] =
		"def @main(%x: Tensor[(256, 512), float32], %w: Tensor[(1024, 512), float32],\n"
		"          %t: Tensor[(1024, 1024), float32]) {\n"
		"  %0 = nn.dense(%x, %w, units=1024);\n"
		"  %1 = transpose(%t, axes=[1, 0]);\n"
		"  %2 = add(%0, %0);\n"
		"  (%1, %2)\n"
		"}\n";
	const ExecCalibration c = {.threads = 2, .memory_gbps = 8, .sgemm_gflops = 50};
	Session s;
	PlanEstimate e;
	const EstimateOp *dense, *transpose, *add;
	double dense_s, transpose_s, add_s;
	(void)state;
	plan_text(&s, text);
	session_apply_calibration(&s.devices, 0, &c);
	assert_int_equal(s.devices.items[0].costs, DEVICE_COSTS_CALIBRATED);
	assert_true(s.devices.items[0].memory == 8 && s.devices.items[0].bandwidth == 8);
	assert_true(s.devices.items[0].peak == 50);
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	dense = op_of(&e, OP_DENSE);
	transpose = op_of(&e, OP_TRANSPOSE);
	add = op_of(&e, OP_ADD);
	/* dense: 2 * 256 * 1024 * 512 FLOPs at 50 GFLOP/s (5.4 ms) beat its
	 * (256 * 512 + 1024 * 512 + 256 * 1024) * 4 bytes at 8 GB/s (0.46 ms) */
	dense_s = 2.0 * 256 * 1024 * 512 / 50e9;
	assert_true(dense->flops == 2.0 * 256 * 1024 * 512);
	assert_true(dense->bytes == (256.0 * 512 + 1024 * 512 + 256 * 1024) * 4);
	assert_true(fabs(dense->seconds - dense_s) < 1e-12);
	/* transpose: no FLOPs, 4 MiB read and 4 MiB written at 8 GB/s */
	transpose_s = 2.0 * 1024 * 1024 * 4 / 8e9;
	assert_true(transpose->flops == 0);
	assert_true(fabs(transpose->seconds - transpose_s) < 1e-12);
	/* add: 256 * 1024 FLOPs, but two operands read and one written, 3 MiB
	 * at 8 GB/s */
	add_s = 3.0 * 256 * 1024 * 4 / 8e9;
	assert_true(fabs(add->seconds - add_s) < 1e-12);
	assert_true(fabs(e.devices[0].seconds - (dense_s + transpose_s + add_s)) < 1e-12);
	assert_int_equal(dense->calls, 1);
	plan_estimate_free(&e);
	session_free(&s);
}

/* A calibration of a cpu of `threads` threads: memcpy 8 GB/s a thread,
 * 40 GB/s within 1 MiB of cache, sgemm 100 GFLOP/s a thread (measured on
 * 512^3) and 60 on a product OpenBLAS keeps on one thread (64^3); 0.5 us
 * an operator and 2 us more for a kind's first call in a run; a one-row
 * product 0.25 us a call more on one thread, 2 us split; a product with
 * a side of at most 16 and another operand of 2^19 elements 30 GFLOP/s a
 * thread (gemm_skinny). */
static ExecCalibration model_calibration(int threads)
{
	ExecCalibration c = {.threads = threads,
			     .memory_gbps = 8.0 * threads,
			     .memory1_gbps = 8,
			     .cache_gbps = 40,
			     .cache_bytes = 1 << 20,
			     .sgemm_gflops = 100.0 * threads,
			     .small_gflops = 60,
			     .launch_us = 0.5,
			     .first_call_us = 2,
			     .split_elements = 65536,
			     .gemm_split = 65536.0 * 4,
			     .gemv_split = 2304.0 * 4,
			     .direct_conv = 64,
			     .gemv_us = 0.25,
			     .gemv_split_us = 2,
			     .gemm_side = 512,
			     .small_side = 64,
			     .skinny_max = 16,
			     .skinny_big = 1 << 19,
			     .skinny_gflops = 30.0 * threads};
	return c;
}

/* The estimated seconds of text's one operator op on a cpu calibrated
 * with `threads` threads (model_calibration), its launch and first call
 * taken off. */
static double op_seconds_calibrated(const char *text, OpKind op, const ExecCalibration *c)
{
	Session s;
	PlanEstimate e;
	double seconds;
	plan_text(&s, text);
	session_apply_calibration(&s.devices, 0, c);
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	seconds = op_of(&e, op)->seconds - (c->launch_us + c->first_call_us) * 1e-6;
	plan_estimate_free(&e);
	session_free(&s);
	return seconds;
}

static double calibrated_op_seconds(const char *text, OpKind op, int threads)
{
	ExecCalibration c = model_calibration(threads);
	return op_seconds_calibrated(text, op, &c);
}

/* The seconds OpenBLAS's packing of a float32 product m x n x k adds
 * (plan_estimate.c): its operands' m k + k n floats read and written,
 * less what the calibration's square product of `side` packs per FLOP
 * (8 / side bytes), at `gbps`. */
static double packing(double m, double n, double k, double side, double gbps)
{
	double extra = 8 * (m * k + k * n) - 2 * m * n * k * 8 / side;
	return extra > 0 ? extra / (gbps * 1e9) : 0;
}

/* An operator the kernels keep on one thread (fewer than 2 x 65536
 * elements: kernel_parallel_for runs n / grain chunks) is estimated at
 * one thread's rates whatever the cpu's threads; past it, it takes n /
 * 65536 threads, so a memory-bound add of a million elements goes twice
 * as fast on two threads' memcpy (16 GB/s against 8). Seeded draws of
 * the size either side. */
static void test_threads_by_split(void **state)
{
	unsigned seed = 30;
	(void)state;
	for (int draw = 0; draw < 24; draw++) {
		bool small = draw % 2 == 0;
		int64_t n = small ? 1 + (int64_t)(rand_r(&seed) % (2 * 65536 - 1))
				  : 4 * 65536 + (int64_t)(rand_r(&seed) % (8 * 65536));
		char text[256];
		double one, two, four;
		snprintf(text, sizeof text,
			 "def @main(%%a: Tensor[(%lld), float32], %%b: Tensor[(%lld), float32]) {\n"
			 "  add(%%a, %%b)\n}\n",
			 (long long)n, (long long)n);
		one = calibrated_op_seconds(text, OP_ADD, 1);
		two = calibrated_op_seconds(text, OP_ADD, 2);
		four = calibrated_op_seconds(text, OP_ADD, 4);
		if (small) {
			/* 12 n bytes on one thread: in the cache up to 1 MiB */
			double bw = 12.0 * (double)n <= (1 << 20) ? 40e9 : 8e9;
			assert_true(fabs(one - 12.0 * (double)n / bw) < 1e-12);
			assert_true(one == two && two == four);
		} else {
			/* two threads: all of them, memcpy's 16 GB/s; four: n / 65536
			 * >= 4 of them, 32 GB/s */
			assert_true(fabs(one - 12.0 * (double)n / 8e9) < 1e-12);
			assert_true(fabs(one / two - 2) < 1e-9);
			assert_true(fabs(one / four - 4) < 1e-9);
		}
	}
}

/* OpenBLAS 0.3.21 keeps a product of M * N * K <= 262144 on one thread:
 * such a dense is estimated at the one-thread product's rate (60 GFLOP/s)
 * whatever the threads; a larger one at the sgemm rate of all of them;
 * either with its packing beyond the calibration square's (64^3 or
 * 512^3), here in the cache (40 GB/s a thread): none for 64^3 on one
 * thread. */
static void test_threads_of_products(void **state)
{
	static const struct {
		int m, n, k;
	} shapes[] = {{64, 64, 64}, {16, 64, 256}, {8, 16, 2048}, {65, 64, 64}, {128, 128, 128}};
	(void)state;
	for (size_t i = 0; i < DP_COUNT(shapes); i++) {
		char text[256];
		double mnk = (double)shapes[i].m * shapes[i].n * shapes[i].k, flops = 2 * mnk;
		double one, two;
		snprintf(text, sizeof text,
			 "def @main(%%x: Tensor[(%d, %d), float32], %%w: Tensor[(%d, %d), "
			 "float32]) {\n"
			 "  nn.dense(%%x, %%w, units=%d)\n}\n",
			 shapes[i].m, shapes[i].k, shapes[i].n, shapes[i].k, shapes[i].n);
		one = calibrated_op_seconds(text, OP_DENSE, 1);
		two = calibrated_op_seconds(text, OP_DENSE, 2);
		if (mnk <= 262144) {
			double pack = packing(shapes[i].m, shapes[i].n, shapes[i].k, 64, 40);
			assert_true(fabs(one - (flops / 60e9 + pack)) < 1e-12);
			assert_true(one == two);
			assert_true(i == 0 ? pack == 0 : pack > 0);
		} else {
			double pack = packing(shapes[i].m, shapes[i].n, shapes[i].k, 512, 40);
			assert_true(pack > 0);
			assert_true(fabs(one - (flops / 100e9 + pack)) < 1e-12);
			assert_true(fabs(two - (flops / 200e9 + pack / 2)) < 1e-12);
		}
	}
}

/* A product of one row is sgemv (OpenBLAS 0.3.21's interface/gemv.c):
 * bound by its bytes, on every thread from M * N = 9216 up, else on one,
 * and each call costs the calibration's figure besides: 2 us split over
 * the threads (the hand-off to OpenBLAS's worker), 0.25 us on one thread,
 * once per product of a batch. */
static void test_one_row_products(void **state)
{
	static const char big[] = "def @main(%x: Tensor[(1, 1024), float32], "
				  "%w: Tensor[(1024, 1024), float32]) {\n"
				  "  nn.dense(%x, %w, units=1024)\n}\n";
	static const char small[] = "def @main(%x: Tensor[(1, 64), float32], "
				    "%w: Tensor[(64, 64), float32]) {\n"
				    "  nn.dense(%x, %w, units=64)\n}\n";
	static const char batch[] = "def @main(%x: Tensor[(4, 1, 64), float32], "
				    "%w: Tensor[(4, 64, 64), float32]) {\n"
				    "  nn.batch_matmul(%x, %w)\n}\n";
	double big_bytes = (1024.0 + 1024 * 1024 + 1024) * 4, small_bytes = (64.0 + 4096 + 64) * 4;
	(void)state;
	/* 4 MiB read at memcpy's rate: on both threads, or one */
	assert_true(fabs(calibrated_op_seconds(big, OP_DENSE, 2) - (big_bytes / 16e9 + 2e-6)) <
		    1e-12);
	assert_true(fabs(calibrated_op_seconds(big, OP_DENSE, 1) - (big_bytes / 8e9 + 0.25e-6)) <
		    1e-12);
	/* 16.5 KiB within the cache, on one thread whatever the threads
	 * (64 * 64 < 9216) */
	assert_true(fabs(calibrated_op_seconds(small, OP_DENSE, 2) -
			 (small_bytes / 40e9 + 0.25e-6)) < 1e-12);
	assert_true(fabs(calibrated_op_seconds(small, OP_DENSE, 1) -
			 (small_bytes / 40e9 + 0.25e-6)) < 1e-12);
	/* four of them: four calls */
	assert_true(fabs(calibrated_op_seconds(batch, OP_BATCH_MATMUL, 2) -
			 (4 * small_bytes / 40e9 + 4 * 0.25e-6)) < 1e-12);
}

/* A convolution through im2col pays for its column matrix: written once
 * (with the input read), read by the product; a 1x1 one of stride 1 uses
 * its input as the matrix and pays nothing more. A transposed one
 * writes its columns in the product and adds them into the zeroed
 * output (col2im). Each product pays OpenBLAS's packing besides (all of
 * them past 262144 M * N * K: beyond 512^3's share). */
static void test_convolution_passes(void **state)
{
	double conv, pointwise, transpose, depthwise;
	(void)state;
	/* 16 -> 32 channels, 3x3, 32x32: columns 16 * 9 x 1024 = 147456;
	 * product 2 * 32 * 1024 * 144 FLOPs at 100 GFLOP/s (94.4 us) beats
	 * (columns + weight + output) * 4 = 739328 bytes in the cache at 40
	 * GB/s; the im2col pass (input + columns) * 4 = 655360 bytes at 40 */
	conv = calibrated_op_seconds("def @main(%x: Tensor[(1, 16, 32, 32), float32], "
				     "%w: Tensor[(32, 16, 3, 3), float32]) {\n"
				     "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=32, "
				     "kernel_size=[3, 3])\n}\n",
				     OP_CONV2D, 1);
	/* packing 32 x 1024 x 144: 1069056 bytes, past the cache (8 GB/s) */
	assert_true(fabs(conv - (2.0 * 32 * 1024 * 144 / 100e9 + 655360.0 / 40e9 +
				 packing(32, 1024, 144, 512, 8))) < 1e-12);
	/* 1x1: 2 * 32 * 1024 * 16 FLOPs at 100 GFLOP/s, no pass */
	pointwise =
		calibrated_op_seconds("def @main(%x: Tensor[(1, 16, 32, 32), float32], "
				      "%w: Tensor[(32, 16, 1, 1), float32]) {\n"
				      "  nn.conv2d(%x, %w, channels=32, kernel_size=[1, 1])\n}\n",
				      OP_CONV2D, 1);
	assert_true(fabs(pointwise -
			 (2.0 * 32 * 1024 * 16 / 100e9 + packing(32, 1024, 16, 512, 40))) < 1e-12);
	/* transposed, 64 -> 32 channels, 4x4 of stride 2 on 8x8: columns
	 * 32 * 16 x 64 = 32768; product 2 * 512 * 64 * 64 FLOPs at 100
	 * (41.9 us) beats (input 4096 + weight 32768 + columns) * 4 bytes in
	 * the cache; col2im: columns + twice the 32 x 16 x 16 output, 4 bytes
	 * each, 196608 bytes at 40 GB/s */
	transpose = calibrated_op_seconds(
		"def @main(%x: Tensor[(1, 64, 8, 8), float32], %w: Tensor[(64, 32, 4, 4), "
		"float32]) {\n"
		"  nn.conv2d_transpose(%x, %w, channels=32, kernel_size=[4, 4], strides=[2, 2], "
		"padding=[1, 1, 1, 1])\n}\n",
		OP_CONV2D_TRANSPOSE, 1);
	assert_true(fabs(transpose -
			 (2.0 * 512 * 64 * 64 / 100e9 + (32768.0 + 2 * 32 * 16 * 16) * 4 / 40e9 +
			  packing(512, 64, 64, 512, 40))) < 1e-12);
	/* depthwise 3x3 on 32 x 32 x 32: a group's cg * og of 1 is computed
	 * directly (no columns, no product): 2 * 32 * 1024 * 9 FLOPs at 100
	 * GFLOP/s (5.9 us) under (input + weight + output) * 4 = 263296
	 * bytes in the cache at 40 GB/s */
	depthwise = calibrated_op_seconds(
		"def @main(%x: Tensor[(1, 32, 32, 32), float32], %w: Tensor[(32, 1, 3, 3), "
		"float32]) {\n"
		"  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=32, channels=32, "
		"kernel_size=[3, 3])\n}\n",
		OP_CONV2D, 1);
	assert_true(fabs(depthwise - 263296.0 / 40e9) < 1e-12);
}

/* The seconds of a float32 conv2d_transpose of cin -> cout channels, 4x4
 * of stride 2, on an hw x hw input, on a cpu of `threads` threads
 * calibrated as model_calibration but for its narrow products' kernel:
 * skinny_max 0 says the CPU has none. */
static double transpose_seconds(int cin, int cout, int hw, int threads, double skinny_max)
{
	ExecCalibration c = model_calibration(threads);
	char text[320];
	snprintf(text, sizeof text,
		 "def @main(%%x: Tensor[(1, %d, %d, %d), float32], %%w: Tensor[(%d, %d, 4, 4), "
		 "float32]) {\n"
		 "  nn.conv2d_transpose(%%x, %%w, channels=%d, kernel_size=[4, 4], strides=[2, "
		 "2], padding=[1, 1, 1, 1])\n}\n",
		 cin, hw, hw, cin, cout, cout);
	c.skinny_max = skinny_max;
	return op_seconds_calibrated(text, OP_CONV2D_TRANSPOSE, &c);
}

/* A product with a side of at most 16 whose other operand (at least 2^19
 * elements) lies along the wide side's rows is gemm_skinny's, as cpu_gemm
 * decides: at the calibration's rate for such products (30 GFLOP/s a
 * thread), its narrow side padded to a power of two, without OpenBLAS's
 * packing. dcgan's first transposed convolution (1024 -> 512 channels on
 * 4 x 4: the weights' transpose 8192 x 1024 times 1024 x 16) is one; the
 * same on 8 x 8 (64 columns), one with a small weight, or on a CPU
 * without the kernels are OpenBLAS's, as are nn.dense's products (B
 * transposed), while nn.matmul's with transpose_a and few columns, and a
 * convolution with few output channels, are gemm_skinny's. */
static void test_products_with_a_narrow_side(void **state)
{
	/* col2im: columns 8192 x 16 plus twice the 512 x 8 x 8 output,
	 * floats, 768 KiB in the cache (on two threads when there are two) */
	double col2im = (8192.0 * 16 + 2 * 512 * 64) * 4 / 40e9;
	double flops = 2.0 * 8192 * 16 * 1024, blas;
	static const char matmul[] = "def @main(%x: Tensor[(1024, 8192), float32], "
				     "%w: Tensor[(1024, 12), float32]) {\n"
				     "  nn.matmul(%x, %w, transpose_a=True)\n}\n";
	static const char rows[] = "def @main(%x: Tensor[(8192, 1024), float32], "
				   "%w: Tensor[(1024, 12), float32]) {\n"
				   "  nn.matmul(%x, %w)\n}\n";
	static const char dense[] = "def @main(%x: Tensor[(12, 1024), float32], "
				    "%w: Tensor[(8192, 1024), float32]) {\n"
				    "  nn.dense(%x, %w, units=8192)\n}\n";
	static const char few_out[] = "def @main(%x: Tensor[(1, 64, 64, 64), float32], "
				      "%w: Tensor[(3, 64, 3, 3), float32]) {\n"
				      "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=3, "
				      "kernel_size=[3, 3])\n}\n";
	(void)state;
	/* compute-bound (268 MFLOP at 30 GFLOP/s against 33 MB at 8 GB/s) */
	assert_true(fabs(transpose_seconds(1024, 512, 4, 1, 16) - (flops / 30e9 + col2im)) < 1e-12);
	assert_true(fabs(transpose_seconds(1024, 512, 4, 2, 16) - (flops / 60e9 + col2im / 2)) <
		    1e-12);
	/* without the kernels, OpenBLAS's with its packing: 100 GFLOP/s
	 * under its bytes (input, weight, output and columns, 33.3 MB) */
	blas = (1024.0 * 16 + 1024 * 512 * 16 + 512 * 64 + 8192 * 16) * 4 / 8e9 + col2im +
	       packing(8192, 16, 1024, 512, 8);
	assert_true(blas > flops / 30e9 + col2im); /* why gemm_skinny exists */
	assert_true(fabs(transpose_seconds(1024, 512, 4, 1, 0) - blas) < 1e-12);
	/* 64 columns, and a weight of 64 x 512 x 16 < 2^19: OpenBLAS's */
	assert_true(fabs(transpose_seconds(1024, 512, 8, 1, 16) -
			 (4 * flops / 100e9 + (8192.0 * 64 + 2 * 512 * 256) * 4 / 8e9 +
			  packing(8192, 64, 1024, 512, 8))) < 1e-12);
	/* (OpenBLAS keeps 128 x 16 x 16 on one thread: 60 GFLOP/s, 64^3) */
	assert_true(fabs(transpose_seconds(16, 8, 4, 1, 16) -
			 (2.0 * 128 * 16 * 16 / 60e9 + (128.0 * 16 + 2 * 8 * 64) * 4 / 40e9 +
			  packing(128, 16, 16, 64, 40))) < 1e-12);
	/* 12 columns compute as 16 */
	assert_true(fabs(calibrated_op_seconds(matmul, OP_MATMUL, 1) -
			 2.0 * 8192 * 16 * 1024 / 30e9) < 1e-12);
	/* not transposed, its big operand lies across the wide side: OpenBLAS
	 * (its bytes, 33.9 MB at 8 GB/s, and its packing) */
	assert_true(fabs(calibrated_op_seconds(rows, OP_MATMUL, 1) -
			 ((8192.0 * 1024 + 1024 * 12 + 8192 * 12) * 4 / 8e9 +
			  packing(8192, 12, 1024, 512, 8))) < 1e-12);
	/* nn.dense: its bytes (33.7 MB at 8 GB/s) and OpenBLAS's packing */
	assert_true(fabs(calibrated_op_seconds(dense, OP_DENSE, 1) -
			 ((12.0 * 1024 + 8192 * 1024 + 12 * 8192) * 4 / 8e9 +
			  packing(12, 8192, 1024, 512, 8))) < 1e-12);
	/* 3 output channels of a 576 x 4096 column matrix: 4 rows'
	 * multiply-adds at 30 GFLOP/s under its bytes (the columns, 9.4 MB,
	 * and the output at 8 GB/s), plus im2col's pass */
	assert_true(fabs(calibrated_op_seconds(few_out, OP_CONV2D, 1) -
			 ((576.0 * 4096 + 3 * 576 + 3 * 4096) * 4 / 8e9 +
			  (64.0 * 4096 + 576 * 4096) * 4 / 8e9)) < 1e-12);
}

/* OpenBLAS's packing: a square product of the calibration's side pays
 * nothing more than its rate, a larger square nothing at all, and any
 * product at least its FLOPs at the rate; one with a side of a few dozen
 * pays for most of its operands' bytes (seeded draws). */
static void test_packing_of_products(void **state)
{
	unsigned seed = 31;
	(void)state;
	for (int draw = 0; draw < 32; draw++) {
		int m = 80 + (int)(rand_r(&seed) % 1200), n = 80 + (int)(rand_r(&seed) % 1200),
		    k = 80 + (int)(rand_r(&seed) % 1200);
		char text[256];
		double flops, got, bytes, extra, roof;
		if (draw < 2)
			m = n = k = 512 * (draw + 1);
		flops = 2.0 * m * n * k;
		bytes = 4.0 * ((double)m * k + (double)n * k + (double)m * n);
		snprintf(text, sizeof text,
			 "def @main(%%x: Tensor[(%d, %d), float32], %%w: Tensor[(%d, %d), "
			 "float32]) {\n"
			 "  nn.dense(%%x, %%w, units=%d)\n}\n",
			 m, k, n, k, n);
		got = calibrated_op_seconds(text, OP_DENSE, 2);
		if (draw < 2) {
			assert_true(fabs(got - flops / 200e9) < 1e-12);
			continue;
		}
		assert_true(got >= flops / 200e9 && got >= bytes / 16e9);
		/* the packing's extra bytes in the cache on both threads, or
		 * at memcpy's 16 GB/s */
		extra = 8.0 * ((double)m * k + (double)k * n) - flops / 64;
		roof = flops / 200e9 > bytes / 16e9 ? flops / 200e9 : bytes / 16e9;
		assert_true(fabs(got - (roof + packing(m, n, k, 512, extra <= 1 << 20 ? 80 : 16))) <
			    1e-12);
	}
}

/* Each operator kind's first call in a run costs the calibration's
 * first-call figure once, besides every call's launch. */
static void test_first_calls(void **state)
{
	static const char text[] = "def @main(%a: Tensor[(4), float32]) {\n"
				   "  %0 = add(%a, %a);\n"
				   "  %1 = add(%0, %a);\n"
				   "  %2 = add(%1, %a);\n"
				   "  multiply(%2, %a)\n"
				   "}\n";
	ExecCalibration c = model_calibration(2);
	Session s;
	PlanEstimate e;
	double bytes_s = 3.0 * 16 / 40e9; /* each: 48 bytes in the cache */
	(void)state;
	plan_text(&s, text);
	session_apply_calibration(&s.devices, 0, &c);
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	assert_true(fabs(op_of(&e, OP_ADD)->seconds - (3 * (bytes_s + 0.5e-6) + 2e-6)) < 1e-12);
	assert_true(fabs(op_of(&e, OP_MULTIPLY)->seconds - (bytes_s + 0.5e-6 + 2e-6)) < 1e-12);
	/* a figure the user sets makes it the plain roofline again: no first
	 * calls, the bytes at memcpy's 16 GB/s */
	plan_estimate_free(&e);
	assert_true(devices_set_attribute(&s.devices, 0, "launch=0.5", NULL));
	assert_true(plan_estimate(session_current(&s), &s.devices, &e));
	assert_true(fabs(op_of(&e, OP_MULTIPLY)->seconds - (3.0 * 16 / 16e9 + 0.5e-6)) < 1e-12);
	plan_estimate_free(&e);
	session_free(&s);
}

/* What a child with DEVPLAN_THREADS=threads measures: the calibration's
 * cost of an operator of one element (launch_us) and what an empty span
 * costs `profile` (exec_clock_cost) after it, the kernels' pool started. */
typedef struct ThreadFigures {
	double launch_us, clock_us;
} ThreadFigures;

static ThreadFigures figures_with_threads(const char *threads)
{
	ThreadFigures f = {-1, -1};
	int fds[2], status;
	pid_t pid;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		Session s;
		char *err = NULL;
		setenv("DEVPLAN_THREADS", threads, 1);
		session_init(&s);
		if (session_calibrate(&s, false, false, &err) &&
		    kernel_cpu_threads() == atoi(threads)) {
			f.launch_us = s.calibration.launch_us;
			f.clock_us = exec_clock_cost()->busy * 1e6;
		}
		if (write(fds[1], &f, sizeof f) != (ssize_t)sizeof f)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &f, sizeof f), (ssize_t)sizeof f);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(f.launch_us >= 0 && f.clock_us > 0);
	return f;
}

static int compare_figures(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* An operator of one element splits over no threads: what a call costs
 * it is the same at 1 and 2 threads, and so is reading the clocks around
 * it. Reading the pool's worker's CPU clock around every operator (a
 * system call) once made an empty span at 2 threads cost about twice
 * what it does at 1, and vary with what the other core ran; the median
 * `profile` takes off each operator, measured once, then took a call's
 * whole cost: 0.001-0.06 us at 2 threads against 0.15 at 1. The medians
 * of three children each, taken in turn. */
static void test_call_cost_any_thread_count(void **state)
{
	enum { CHILDREN = 3 };
	double launch[2][CHILDREN], clock[2][CHILDREN];
	(void)state;
	for (int i = 0; i < CHILDREN; i++)
		for (int t = 0; t < 2; t++) {
			ThreadFigures f = figures_with_threads(t ? "2" : "1");
			launch[t][i] = f.launch_us;
			clock[t][i] = f.clock_us;
		}
	for (int t = 0; t < 2; t++) {
		qsort(launch[t], CHILDREN, sizeof(double), compare_figures);
		qsort(clock[t], CHILDREN, sizeof(double), compare_figures);
	}
	print_message("a kernel call %.3f us at 1 thread, %.3f at 2; an empty span %.3f us, "
		      "%.3f\n",
		      launch[0][1], launch[1][1], clock[0][1], clock[1][1]);
	assert_true(clock[1][1] < 1.5 * clock[0][1]);
	assert_true(launch[1][1] > launch[0][1] / 3 && launch[1][1] < launch[0][1] * 3);
}

/* The measurement itself: figures a machine can have, taken with the
 * kernels' threads, applied to the cpu devices but not to one whose model
 * the user set; measured once per session unless asked again. */
static void test_session_calibrate(void **state)
{
	Session s;
	char *err = NULL;
	ExecCalibration first;
	(void)state;
	session_init(&s);
	assert_int_equal(devices_add(&s.devices, "cpu:1", NULL, &err), 2);
	assert_true(devices_set_attribute(&s.devices, 2, "peak=123", &err));
	assert_false(s.calibrated);
	assert_true(session_calibrate(&s, false, false, &err));
	assert_true(s.calibrated);
	assert_int_equal(s.calibration.threads, kernel_cpu_threads());
	/* a memcpy between 0.1 GB/s and 10 TB/s, an sgemm between 0.1 GFLOP/s
	 * and 1 PFLOP/s, in under 5 s even on a loaded machine */
	assert_true(s.calibration.memory_gbps > 0.1 && s.calibration.memory_gbps < 1e4);
	assert_true(s.calibration.sgemm_gflops > 0.1 && s.calibration.sgemm_gflops < 1e6);
	assert_true(s.calibration.seconds > 0 && s.calibration.seconds < 5);
	/* an operator of one element, as `profile` times it less the clocks'
	 * cost (which can leave nothing), and its first call: under 1 ms */
	assert_true(s.calibration.launch_us >= 0 && s.calibration.launch_us < 1e3);
	assert_true(s.calibration.first_call_us >= 0 && s.calibration.first_call_us < 1e3);
	assert_true(s.devices.items[0].launch == s.calibration.launch_us);
	/* one thread's rates, the cache's, and where the kernels split */
	assert_true(s.calibration.memory1_gbps > 0.1 && s.calibration.memory1_gbps < 1e4);
	assert_true(s.calibration.cache_gbps > 0.1 && s.calibration.cache_gbps < 1e5);
	assert_true(s.calibration.cache_bytes >= 32 << 10);
	assert_true(s.calibration.small_gflops > 0.1 && s.calibration.small_gflops < 1e6);
	assert_true(s.calibration.split_elements == 65536);
	assert_true(s.calibration.gemm_split == 262144 && s.calibration.gemv_split == 9216 &&
		    s.calibration.direct_conv == 64);
	assert_true(s.calibration.gemm_side == 512 && s.calibration.small_side == 64);
	/* gemm_skinny's products, where this CPU has its kernels */
	assert_true(s.calibration.skinny_big == 1 << 19);
	if (kernel_cpu_gemm_skinny())
		assert_true(s.calibration.skinny_max == 16 && s.calibration.skinny_gflops > 0.1 &&
			    s.calibration.skinny_gflops < 1e6);
	else
		assert_true(s.calibration.skinny_max == 0 && s.calibration.skinny_gflops == 0);
	assert_true(s.devices.items[0].cpu.skinny_peak == s.calibration.skinny_gflops &&
		    s.devices.items[0].cpu.skinny_max == s.calibration.skinny_max &&
		    s.devices.items[0].cpu.gemm_side == 512);
	assert_int_equal(s.devices.items[0].cpu.threads, kernel_cpu_threads());
	assert_true(s.devices.items[0].cpu.cache == s.calibration.cache_gbps);
	assert_true(s.devices.items[0].cpu.first_call == s.calibration.first_call_us);
	assert_int_equal(s.devices.items[0].costs, DEVICE_COSTS_CALIBRATED);
	assert_true(s.devices.items[0].peak == s.calibration.sgemm_gflops);
	assert_true(s.devices.items[0].memory == s.calibration.memory_gbps);
	/* the accelerator keeps its model, the user's cpu:1 its own */
	assert_int_equal(s.devices.items[1].costs, DEVICE_COSTS_NOMINAL);
	assert_int_equal(s.devices.items[2].costs, DEVICE_COSTS_SET);
	assert_true(s.devices.items[2].peak == 123);
	/* cached: the same figures without measuring again */
	first = s.calibration;
	assert_true(session_calibrate(&s, false, false, &err));
	assert_memory_equal(&first, &s.calibration, sizeof first);
	/* `target calibrate`: all cpu devices */
	assert_true(session_calibrate(&s, true, false, &err));
	assert_int_equal(s.devices.items[2].costs, DEVICE_COSTS_CALIBRATED);
	session_free(&s);
}

int main(void)
{
	/* the thread count is read once: test_call_cost_any_thread_count's
	 * children set theirs, so it runs first */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call_cost_any_thread_count),
		cmocka_unit_test(test_flops_and_peak_on_one_device),
		cmocka_unit_test(test_copies_and_peak_per_device),
		cmocka_unit_test(test_rules_and_lets),
		cmocka_unit_test(test_link_bandwidth),
		cmocka_unit_test(test_calibrated_roofline),
		cmocka_unit_test(test_threads_by_split),
		cmocka_unit_test(test_threads_of_products),
		cmocka_unit_test(test_one_row_products),
		cmocka_unit_test(test_convolution_passes),
		cmocka_unit_test(test_products_with_a_narrow_side),
		cmocka_unit_test(test_packing_of_products),
		cmocka_unit_test(test_first_calls),
		cmocka_unit_test(test_session_calibrate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
