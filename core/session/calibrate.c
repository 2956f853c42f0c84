/*
 * calibrate.c - this machine's figures in the cpu devices' cost model
 * (calibrate.h).
 *
 * A cpu's link bandwidth is the bandwidth of a copy within its memory,
 * which is what memcpy measures, so both its bandwidth and its memory take
 * the memcpy figure; its peak takes the sgemm rate, the one the matrix
 * products and convolutions run at; its launch the cost of calling a
 * kernel on one element as `profile` times it; the rest of the
 * measurement (one thread's rates, the cache's, where the backend splits
 * work) is its DeviceCpuModel. Its latency stays as it is (a copy within
 * memory is a memcpy call).
 */
#include "calibrate.h"

#include <stdlib.h>
#include <string.h>

#include "exec_clock.h"
#include "infer.h"
#include "parse.h"

enum {
	CHAIN_ROUNDS = 8, /* of the chain's operator kinds */
	CHAIN_RUNS = 5,   /* profiled runs after a warm-up; the median */
};

/* The chain's operators, in turn: binary ones take the chain and x. */
static const struct {
	const char *name;
	bool binary;
} chain_ops[] = {{"add", true},     {"multiply", true},  {"nn.relu", false}, {"subtract", true},
		 {"maximum", true}, {"negative", false}, {"minimum", true},  {"abs", false}};

/* A module of `rounds` rounds of chain_ops on one float32. */
static char *chain_text(int rounds)
{
	StrBuf sb;
	uint32_t n = 0;
	strbuf_init(&sb);
	strbuf_puts(&sb, "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1), float32]) {\n");
	for (int r = 0; r < rounds; r++)
		for (size_t k = 0; k < DP_COUNT(chain_ops); k++, n++) {
			char prev[16];
			snprintf(prev, sizeof prev, n ? "%%%u" : "%%x", n - 1);
			strbuf_printf(&sb, "  %%%u = %s(%s%s);\n", n, chain_ops[k].name, prev,
				      chain_ops[k].binary ? ", %x" : "");
		}
	strbuf_printf(&sb, "  %%%u\n}\n", n - 1);
	return sb.data;
}

/* Moves twice a core's L2 cache through it (the calibration's cache_bytes
 * are half of one), as a run's other operators and the shell's work
 * between two runs do between an operator kind's call in one run and its
 * first in the next. */
static void evict_caches(size_t bytes)
{
	static volatile unsigned char sink;
	unsigned char *b = xmalloc(bytes);
	unsigned char sum = 0;
	memset(b, (int)sink, bytes);
	for (size_t i = 0; i < bytes; i += 64)
		sum = (unsigned char)(sum + b[i]);
	sink = sum;
	free(b);
}

/* The median busy seconds of the operators of a chain of `rounds` rounds
 * (CHAIN_RUNS profiled runs after a warm-up, each after the caches were
 * evicted by moving `evict` bytes through them, or not), as `profile`
 * measures them. */
static bool chain_busy(int rounds, size_t evict, double *seconds, char **err)
{
	char *text = chain_text(rounds);
	SourceFile *src = source_from_string("calibration", text, strlen(text));
	DeviceTable devices;
	DiagList diags;
	IrModule *m;
	ExecOptions opts;
	NpyArray x;
	const int64_t one = 1;
	double busy[CHAIN_RUNS];
	bool ok = true;
	devices_init_default(&devices);
	diag_init(&diags);
	free(text);
	m = parse_module(src, &devices, &diags);
	source_release(src);
	if (!m || !infer_module(m, &diags)) {
		*err = xstrdup("the calibration's chain of operators does not type");
		ok = false;
	} else if (!npy_array_alloc(&x, DT_FLOAT32, 1, &one, err)) {
		ok = false;
	} else {
		memset(&opts, 0, sizeof opts);
		opts.all_on_cpu = true;
		opts.profile = true;
		for (int run = -1; run < CHAIN_RUNS && ok; run++) {
			ExecResult r;
			memset(&r, 0, sizeof r);
			if (evict)
				evict_caches(evict);
			ok = exec_run(m, &devices, &opts, &x, 1, &r, &diags);
			if (ok && run >= 0) {
				busy[run] = 0;
				for (size_t i = 0; i < r.profile.nops; i++)
					busy[run] += r.profile.ops[i].busy;
			}
			exec_result_free(&r);
		}
		if (!ok)
			*err = xstrdup("the calibration's chain of operators did not run");
		npy_array_free(&x);
	}
	if (ok) {
		*seconds = exec_clock_median(busy, CHAIN_RUNS);
	}
	if (m)
		ir_module_free(m);
	diag_free(&diags);
	devices_free(&devices);
	return ok;
}

/* What an operator costs besides its work as `profile` measures one in a
 * module: chains of one-element operators of eight kinds run by the
 * interpreter on the cpu. CHAIN_ROUNDS rounds of the kinds, run after
 * run, cost c->launch_us an operator; one round run after twice a core's
 * L2 cache went through it costs c->first_call_us more an operator: the
 * first call of each kind in a run, whose code, branches and the
 * interpreter's data went cold since its call in the run before (the rest
 * of the model ran in between, and the shell; a model of a few small
 * operators, like metadata_small, is mostly first calls). A kernel called
 * in a loop of its own and timed as a whole costs less than either: its
 * code stays warm and no clock is read between calls. */
static bool interpreter_call_cost(ExecCalibration *c, char **err)
{
	double cold, all, kinds = (double)DP_COUNT(chain_ops);
	if (!chain_busy(CHAIN_ROUNDS, 0, &all, err) ||
	    !chain_busy(1, (size_t)(4 * c->cache_bytes), &cold, err))
		return false;
	all /= kinds * CHAIN_ROUNDS;
	cold /= kinds;
	c->launch_us = all * 1e6;
	c->first_call_us = cold > all ? (cold - all) * 1e6 : 0;
	return true;
}

void session_apply_calibration(DeviceTable *devices, uint32_t i, const ExecCalibration *c)
{
	Device *d = &devices->items[i];
	d->bandwidth = c->memory_gbps;
	d->memory = c->memory_gbps;
	d->peak = c->sgemm_gflops;
	d->launch = c->launch_us;
	d->costs = DEVICE_COSTS_CALIBRATED;
	d->cpu = (DeviceCpuModel){.threads = c->threads,
				  .small_peak = c->small_gflops,
				  .memory1 = c->memory1_gbps,
				  .first_call = c->first_call_us,
				  .cache = c->cache_gbps,
				  .cache_bytes = c->cache_bytes,
				  .split_elements = c->split_elements,
				  .gemm_split = c->gemm_split,
				  .gemm_side = c->gemm_side,
				  .small_side = c->small_side,
				  .gemv_split = c->gemv_split,
				  .gemv_call = c->gemv_us,
				  .gemv_threaded = c->gemv_split_us,
				  .direct_conv = c->direct_conv,
				  .skinny_max = c->skinny_max,
				  .skinny_big = c->skinny_big,
				  .skinny_peak = c->skinny_gflops};
}

bool session_calibrate(Session *s, bool all, bool again, char **err)
{
	if (!s->calibrated || again) {
		ExecCalibration c;
		if (!exec_calibrate(&c, err) || !interpreter_call_cost(&c, err))
			return false;
		s->calibration = c;
		s->calibrated = true;
	}
	for (uint32_t i = 0; i < s->devices.count; i++)
		if (s->devices.items[i].device_type == DEVICE_TYPE_CPU &&
		    (all || s->devices.items[i].costs != DEVICE_COSTS_SET))
			session_apply_calibration(&s->devices, i, &s->calibration);
	return true;
}
