/*
 * cmd_targets.c - the device table: `targets` lists it, `target add`
 * extends it.
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
	fprintf(ctx->out, "index  %-*s  %-*s  host\n", (int)name_w, "name", (int)target_w,
		"target");
	for (uint32_t i = 0; i < s->devices.count; i++) {
		const Device *d = &s->devices.items[i];
		const char *host = d->host_target ? d->host_target : "-";
		fprintf(ctx->out, "%5u  %-*s  %-*s  ", i, (int)name_w, d->name, (int)target_w,
			d->target);
		if ((int32_t)i == s->settings.fallback)
			fprintf(ctx->out, "%-*s  (fallback)\n", (int)host_w, host);
		else
			fprintf(ctx->out, "%s\n", host);
	}
	return 0;
}

int cmd_target(CmdContext *ctx, int argc, char **argv)
{
	char *err;
	int index;
	if (strcmp(argv[1], "add") != 0) {
		bool ambiguous;
		cmd_error(ctx, "unknown subcommand 'target %s'", argv[1]);
		fprintf(ctx->err, "usage: %s\n", commands_find("target", &ambiguous)->usage);
		return 1;
	}
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
	if (argc == 1)
		cmd_candidates_add(out, word, "add");
	else if (argc == 2)
		for (size_t i = 0; i < DP_COUNT(kinds); i++)
			cmd_candidates_add(out, word, kinds[i]);
}
