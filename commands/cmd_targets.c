/*
 * cmd_targets.c - the device table: `targets` lists it, `target add`
 * extends it (a device, or a device in a memory scope, KIND:ID:SCOPE), `target set` changes a device's cost model (the link
 * bandwidth and peak throughput `estimate` divides by, and the fixed costs
 * of a copy and of an operator it adds).
 *
 * The table only grows, so indices that modules and planned versions hold
 * stay valid and adding a device never resets planning.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

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
	fprintf(ctx->out, "index  %-*s  %-*s  %-*s  %9s  %10s  %12s  %9s\n", (int)name_w, "name",
		(int)target_w, "target", (int)host_w, "host", "link GB/s", "latency us",
		"peak GFLOP/s", "launch us");
	for (uint32_t i = 0; i < s->devices.count; i++) {
		const Device *d = &s->devices.items[i];
		const char *host = d->host_target ? d->host_target : "-";
		fprintf(ctx->out, "%5u  %-*s  %-*s  %-*s  %9g  %10g  %12g  %9g%s\n", i, (int)name_w,
			d->name, (int)target_w, d->target, (int)host_w, host, d->bandwidth,
			d->latency, d->peak, d->launch,
			(int32_t)i == s->settings.fallback ? "  (fallback)" : "");
	}
	return 0;
}

/* `target set DEVICE NAME=VALUE...`: the cost model of a device. Every
 * assignment is checked before any is applied. */
static int target_set(CmdContext *ctx, int argc, char **argv)
{
	DeviceTable *devices = &ctx->session->devices;
	int index = devices_find_name(devices, argv[2]);
	DeviceTable check;
	char *err = NULL;
	if (index < 0)
		return cmd_error(ctx, "unknown device '%s'; see 'targets'", argv[2]);
	if (argc < 4)
		return cmd_error(ctx, "usage: target set DEVICE [bandwidth=GB/s] [latency=US] "
				      "[peak=GFLOP/s] [launch=US]");
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
	fprintf(ctx->out, "%s: link %g GB/s + %g us a copy, peak %g GFLOP/s + %g us an operator\n",
		devices->items[index].name, devices->items[index].bandwidth,
		devices->items[index].latency, devices->items[index].peak,
		devices->items[index].launch);
	return 0;
}

int cmd_target(CmdContext *ctx, int argc, char **argv)
{
	char *err;
	int index;
	if (strcmp(argv[1], "set") == 0)
		return target_set(ctx, argc, argv);
	if (strcmp(argv[1], "add") != 0) {
		bool ambiguous;
		cmd_error(ctx, "unknown subcommand 'target %s'", argv[1]);
		fprintf(ctx->err, "usage: %s\n", commands_find("target", &ambiguous)->usage);
		return 1;
	}
	if (argc > 4)
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
		cmd_candidates_add(out, word, "peak=");
	}
}
