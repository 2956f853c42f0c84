/*
 * cmd_targets.c - the device table: `targets` lists it, `target add`
 * extends it (a device, or a device in a memory scope, KIND:ID:SCOPE), `target set` changes a device's cost model (the link
 * bandwidth, memory bandwidth and peak throughput `estimate` divides by,
 * and the fixed costs of a copy and of an operator it adds), `target
 * calibrate` measures this machine's memcpy bandwidth and sgemm rate and
 * makes them the cpu devices' (core/session/calibrate.c).
 *
 * The table only grows, so indices that modules and planned versions hold
 * stay valid and adding a device never resets planning.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* Where a device's cost model comes from, as `targets` names it. */
static const char *costs_name(DeviceCosts costs)
{
	switch (costs) {
	case DEVICE_COSTS_NOMINAL:
		return "nominal";
	case DEVICE_COSTS_SET:
		return "set";
	case DEVICE_COSTS_CALIBRATED:
		return "calibrated";
	}
	return "?";
}

int cmd_targets(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	size_t name_w = strlen("name"), target_w = strlen("target"), host_w = strlen("host");
	for (uint32_t i = 0; i < s->devices.count; i++) {
		const Device *d = &s->devices.items[i];
		if (strlen(d->name) > name_w)
			name_w = strlen(d->name);
		if (strlen(d->target) > target_w)
			target_w = strlen(d->target);
		if (d->host_target && strlen(d->host_target) > host_w)
			host_w = strlen(d->host_target);
	}
	fprintf(ctx->out, "index  %-*s  %-*s  %-*s  %9s  %10s  %11s  %12s  %9s  %s\n", (int)name_w,
		"name", (int)target_w, "target", (int)host_w, "host", "link GB/s", "latency us",
		"memory GB/s", "peak GFLOP/s", "launch us", "costs");
	for (uint32_t i = 0; i < s->devices.count; i++) {
		const Device *d = &s->devices.items[i];
		const char *host = d->host_target ? d->host_target : "-";
		fprintf(ctx->out, "%5u  %-*s  %-*s  %-*s  %9g  %10g  %11g  %12g  %9g  %s%s\n", i,
			(int)name_w, d->name, (int)target_w, d->target, (int)host_w, host,
			d->bandwidth, d->latency, d->memory, d->peak, d->launch,
			costs_name(d->costs),
			(int32_t)i == s->settings.fallback ? "  (fallback)" : "");
	}
	return 0;
}

/* `target set DEVICE NAME=VALUE...`: the cost model of a device. Every
 * assignment is checked before any is applied. */
static int target_set(CmdContext *ctx, int argc, char **argv)
{
	DeviceTable *devices = &ctx->session->devices;
	int index = argc > 2 ? devices_find_name(devices, argv[2]) : -1;
	DeviceTable check;
	char *err = NULL;
	if (argc < 3)
		return cmd_error(ctx, "usage: target set DEVICE [bandwidth=GB/s] [latency=US] "
				      "[memory=GB/s] [peak=GFLOP/s] [launch=US]");
	if (index < 0)
		return cmd_error(ctx, "unknown device '%s'; see 'targets'", argv[2]);
	if (argc < 4)
		return cmd_error(ctx, "usage: target set DEVICE [bandwidth=GB/s] [latency=US] "
				      "[memory=GB/s] [peak=GFLOP/s] [launch=US]");
	devices_copy(&check, devices);
	for (int i = 3; i < argc; i++)
		if (!devices_set_attribute(&check, (uint32_t)index, argv[i], &err)) {
			devices_free(&check);
			cmd_error(ctx, "%s", err);
			free(err);
			return 1;
		}
	devices_free(&check);
	for (int i = 3; i < argc; i++)
		devices_set_attribute(devices, (uint32_t)index, argv[i], &err);
	fprintf(ctx->out,
		"%s: link %g GB/s + %g us a copy, memory %g GB/s, peak %g GFLOP/s + %g us an "
		"operator\n",
		devices->items[index].name, devices->items[index].bandwidth,
		devices->items[index].latency, devices->items[index].memory,
		devices->items[index].peak, devices->items[index].launch);
	return 0;
}

/* `target calibrate`: this machine's figures, measured now, for every cpu
 * device. */
static int target_calibrate(CmdContext *ctx, int argc)
{
	Session *s = ctx->session;
	const ExecCalibration *c = &s->calibration;
	char *err = NULL;
	if (argc > 2)
		return cmd_error(ctx, "usage: target calibrate");
	if (!session_calibrate(s, true, true, &err)) {
		cmd_error(ctx, "target calibrate: %s", err);
		free(err);
		return 1;
	}
	fprintf(ctx->out,
		"calibrated on this machine with %d cpu thread%s in %.2f s: memcpy %.3g GB/s, "
		"sgemm %.3g GFLOP/s, a kernel call %.3g us\n"
		"one thread: memcpy %.3g GB/s, within %.3g KiB of cache %.3g GB/s, a 64^3 sgemm "
		"%.3g GFLOP/s; a kind's first call in a run %.3g us more\n"
		"a one-row product (sgemv) %.3g us a call besides its bytes, %.3g us split over "
		"the threads; one with a narrow side (4096 x 16 x 1024) %.3g GFLOP/s\n",
		c->threads, c->threads == 1 ? "" : "s", c->seconds, c->memory_gbps, c->sgemm_gflops,
		c->launch_us, c->memory1_gbps, c->cache_bytes / 1024, c->cache_gbps,
		c->small_gflops, c->first_call_us, c->gemv_us, c->gemv_split_us, c->skinny_gflops);
	for (uint32_t i = 0; i < s->devices.count; i++)
		if (s->devices.items[i].costs == DEVICE_COSTS_CALIBRATED)
			fprintf(ctx->out,
				"%s: link and memory %.3g GB/s, peak %.3g GFLOP/s + %.3g us an "
				"operator\n",
				s->devices.items[i].name, s->devices.items[i].memory,
				s->devices.items[i].peak, s->devices.items[i].launch);
	return 0;
}

int cmd_target(CmdContext *ctx, int argc, char **argv)
{
	char *err;
	int index;
	if (strcmp(argv[1], "set") == 0)
		return target_set(ctx, argc, argv);
	if (strcmp(argv[1], "calibrate") == 0)
		return target_calibrate(ctx, argc);
	if (strcmp(argv[1], "add") != 0) {
		bool ambiguous;
		cmd_error(ctx, "unknown subcommand 'target %s'", argv[1]);
		fprintf(ctx->err, "usage: %s\n", commands_find("target", &ambiguous)->usage);
		return 1;
	}
	if (argc < 3 || argc > 4)
		return cmd_error(ctx, "usage: target add KIND:ID[:SCOPE] [TARGET]");
	index = devices_add(&ctx->session->devices, argv[2], argc > 3 ? argv[3] : NULL, &err);
	if (index < 0) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	fprintf(ctx->out, "added %s (target %s) as device %d\n",
		ctx->session->devices.items[index].name, ctx->session->devices.items[index].target,
		index);
	return 0;
}

void cmd_complete_target(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	static const char *const kinds[] = {
		"cpu:", "cuda:", "opencl:", "vulkan:", "metal:", "rocm:"};
	if (argc == 1) {
		cmd_candidates_add(out, word, "add");
		cmd_candidates_add(out, word, "calibrate");
		cmd_candidates_add(out, word, "set");
	} else if (argc == 2 && strcmp(argv[1], "set") == 0) {
		for (uint32_t i = 0; i < s->devices.count; i++)
			cmd_candidates_add(out, word, s->devices.items[i].name);
	} else if (argc == 2) {
		for (size_t i = 0; i < DP_COUNT(kinds); i++)
			cmd_candidates_add(out, word, kinds[i]);
	} else if (argc >= 3 && strcmp(argv[1], "set") == 0) {
		cmd_candidates_add(out, word, "bandwidth=");
		cmd_candidates_add(out, word, "latency=");
		cmd_candidates_add(out, word, "launch=");
		cmd_candidates_add(out, word, "memory=");
		cmd_candidates_add(out, word, "peak=");
	}
}
