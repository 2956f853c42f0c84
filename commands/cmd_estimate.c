/*
 * cmd_estimate.c - `estimate`: what the plan will cost before it runs
 * (SPEC §3.3), and the estimate beside the measurement in `profile`.
 *
 * The numbers come from core/plan/plan_estimate.c (static types and the
 * device table's cost model, `target set`); this file only lays them out:
 * one table of copies with their totals per direction, one of devices
 * (peak memory, FLOPs, bytes its operators move, compute time), and a line
 * saying which cost model each device's comes from: a calibrated one
 * (`target calibrate`, `profile`) holds this machine's figures, which vary
 * from run to run, so a transcript keeps to the nominal one. Bytes and
 * FLOPs are printed exactly, so that a transcript can hold them; times
 * with three significant digits.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "plan_estimate.h"

/* Seconds with three significant digits in the unit that suits them. */
static const char *format_time(char *buf, size_t size, double seconds)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}, {1e-12, "ps"}};
	size_t u = 0;
	if (seconds == 0) {
		snprintf(buf, size, "0");
		return buf;
	}
	while (u + 1 < DP_COUNT(units) && seconds < units[u].scale)
		u++;
	snprintf(buf, size, "%.3g %s", seconds / units[u].scale, units[u].unit);
	return buf;
}

/* Notes for what the estimate had to leave out. */
static void note_unknowns(CmdContext *ctx, const PlanEstimate *e)
{
	const DeviceTable *devices = &ctx->session->devices;
	for (uint32_t d = 0; d < e->ndevices; d++) {
		if (e->devices[d].ops_unknown)
			cmd_note(ctx,
				 "%zu operator call%s on %s left out of its FLOPs, bytes and "
				 "time but for the launch (a size is unknown, or no rule fits)",
				 e->devices[d].ops_unknown,
				 e->devices[d].ops_unknown == 1 ? "" : "s",
				 devices_name(devices, (int32_t)d));
		if (e->devices[d].unsized)
			cmd_note(ctx,
				 "%zu value%s on %s of unknown size left out of its peak memory",
				 e->devices[d].unsized, e->devices[d].unsized == 1 ? "" : "s",
				 devices_name(devices, (int32_t)d));
	}
	for (size_t i = 0; i < e->ncopies; i++)
		if (e->copies[i].fact->bytes < 0) {
			cmd_note(ctx, "a copy of unknown size counts 0 bytes");
			break;
		}
}

static void print_estimate(CmdContext *ctx, const PlanEstimate *e)
{
	const DeviceTable *devices = &ctx->session->devices;
	StrBuf label;
	char t[32];
	int width = (int)strlen("copies");
	strbuf_init(&label);
	for (size_t i = 0; i < e->ncopies; i++) {
		const PlacementFact *f = e->copies[i].fact;
		int w = (int)(strlen(f->function) + strlen(f->value) +
			      strlen(devices_name(devices, f->device)) +
			      strlen(devices_name(devices, f->dest)) + 6);
		if (w > width)
			width = w;
	}
	for (size_t i = 0; i < e->ndirections; i++) {
		int w = (int)(strlen(devices_name(devices, e->directions[i].src)) +
			      strlen(devices_name(devices, e->directions[i].dst)) + 10);
		if (w > width)
			width = w;
	}
	fprintf(ctx->out, "%-*s  %12s  %9s  %10s  %10s\n", width + 2, "copies", "bytes",
		"link GB/s", "latency us", "time");
	for (size_t i = 0; i < e->ncopies; i++) {
		const PlacementFact *f = e->copies[i].fact;
		strbuf_reset(&label);
		strbuf_printf(&label, "%s %s %s -> %s", f->function, f->value,
			      devices_name(devices, f->device), devices_name(devices, f->dest));
		fprintf(ctx->out, "  %-*s  %12lld  %9g  %10g  %10s\n", width, label.data,
			(long long)(f->bytes > 0 ? f->bytes : 0),
			plan_estimate_link(devices, f->device, f->dest).bandwidth,
			plan_estimate_link(devices, f->device, f->dest).latency,
			format_time(t, sizeof t, e->copies[i].seconds));
	}
	for (size_t i = 0; i < e->ndirections; i++) {
		const EstimateDirection *d = &e->directions[i];
		strbuf_reset(&label);
		strbuf_printf(&label, "total %s -> %s", devices_name(devices, d->src),
			      devices_name(devices, d->dst));
		fprintf(ctx->out, "  %-*s  %12lld  %9s  %10s  %10s  (%zu cop%s)\n", width,
			label.data, (long long)d->bytes, "", "",
			format_time(t, sizeof t, d->seconds), d->copies,
			d->copies == 1 ? "y" : "ies");
	}
	if (!e->ncopies)
		fputs("  (no copies in the plan)\n", ctx->out);

	width = (int)strlen("devices");
	for (uint32_t d = 0; d < e->ndevices; d++)
		if ((int)strlen(devices_name(devices, (int32_t)d)) > width)
			width = (int)strlen(devices_name(devices, (int32_t)d));
	fprintf(ctx->out, "%-*s  %12s  %16s  %14s  %12s  %11s  %9s  %10s  %5s\n", width + 2,
		"devices", "peak memory", "FLOPs", "bytes", "peak GFLOP/s", "memory GB/s",
		"launch us", "time", "ops");
	for (uint32_t d = 0; d < e->ndevices; d++) {
		const EstimateDevice *x = &e->devices[d];
		fprintf(ctx->out, "  %-*s  %12lld  %16.0f  %14.0f  %12g  %11g  %9g  %10s  %5zu\n",
			width, devices_name(devices, (int32_t)d), (long long)x->peak_bytes,
			x->flops, x->bytes, devices->items[d].peak, devices->items[d].memory,
			devices->items[d].launch, format_time(t, sizeof t, x->seconds), x->ops);
	}
	strbuf_free(&label);
}

void cmd_estimate_print_model(CmdContext *ctx, const DeviceTable *devices)
{
	const Session *s = ctx->session;
	static const DeviceCosts kinds[] = {DEVICE_COSTS_CALIBRATED, DEVICE_COSTS_SET,
					    DEVICE_COSTS_NOMINAL};
	bool first = true;
	fputs("cost model:", ctx->out);
	for (size_t k = 0; k < DP_COUNT(kinds); k++) {
		bool any = false;
		for (uint32_t d = 0; d < devices->count; d++) {
			if (devices->items[d].costs != kinds[k])
				continue;
			fprintf(ctx->out, "%s %s",
				any     ? ","
				: first ? ""
					: ";",
				devices->items[d].name);
			any = true;
			first = false;
		}
		if (!any)
			continue;
		switch (kinds[k]) {
		case DEVICE_COSTS_CALIBRATED:
			fprintf(ctx->out,
				" calibrated on this machine (%d cpu thread%s: memcpy %.3g GB/s, "
				"sgemm %.3g GFLOP/s, a kernel call %.3g us)",
				s->calibration.threads, s->calibration.threads == 1 ? "" : "s",
				s->calibration.memory_gbps, s->calibration.sgemm_gflops,
				s->calibration.launch_us);
			break;
		case DEVICE_COSTS_SET:
			fputs(" set with 'target set'", ctx->out);
			break;
		case DEVICE_COSTS_NOMINAL:
			fputs(" nominal ('targets'; 'target calibrate' measures this machine's "
			      "cpu)",
			      ctx->out);
			break;
		}
	}
	fputc('\n', ctx->out);
}

int cmd_estimate(CmdContext *ctx, int argc, char **argv)
{
	PlanEstimate e;
	(void)argc;
	(void)argv;
	if (!plan_estimate(session_current(ctx->session), &ctx->session->devices, &e))
		return cmd_error(ctx, "interrupted");
	print_estimate(ctx, &e);
	cmd_estimate_print_model(ctx, &ctx->session->devices);
	note_unknowns(ctx, &e);
	plan_estimate_free(&e);
	return 0;
}

void cmd_estimate_print_against(CmdContext *ctx, const DeviceTable *costs,
				const PlanEstimate *estimate, const ExecProfile *p)
{
	const DeviceTable *devices = &ctx->session->devices;
	const PlanEstimate e = *estimate;
	char t1[32], t2[32], t3[32], t4[32];
	int width = (int)strlen("device");
	for (uint32_t d = 0; d < e.ndevices; d++)
		if ((int)strlen(devices_name(devices, (int32_t)d)) > width)
			width = (int)strlen(devices_name(devices, (int32_t)d));
	fputs("estimate vs measured (estimate: static types, a roofline per operator); ", ctx->out);
	cmd_estimate_print_model(ctx, costs);
	fprintf(ctx->out, "  %-*s  %12s  %12s  %12s  %12s  %12s  %12s\n", width, "device",
		"compute est", "measured", "copies est", "measured", "peak est", "measured");
	for (uint32_t d = 0; d < e.ndevices; d++) {
		double compute = 0, copies = 0, copies_est = 0;
		long long peak = -1;
		/* a device's copies are those that arrive on it */
		for (size_t i = 0; i < p->nops; i++)
			if (p->ops[i].device == (int32_t)d)
				compute += p->ops[i].busy;
		for (size_t i = 0; i < p->ncopies; i++)
			if (p->copies[i].dst == (int32_t)d)
				copies += p->copies[i].seconds;
		for (size_t i = 0; i < e.ndirections; i++)
			if (e.directions[i].dst == (int32_t)d)
				copies_est += e.directions[i].seconds;
		for (size_t i = 0; i < p->ndevices; i++)
			if (p->devices[i].device == (int32_t)d)
				peak = (long long)p->devices[i].peak_bytes;
		fprintf(ctx->out, "  %-*s  %12s  %12s  %12s  %12s  %12lld  ", width,
			devices_name(devices, (int32_t)d),
			format_time(t1, sizeof t1, e.devices[d].seconds),
			format_time(t2, sizeof t2, compute), format_time(t3, sizeof t3, copies_est),
			format_time(t4, sizeof t4, copies), (long long)e.devices[d].peak_bytes);
		if (peak >= 0)
			fprintf(ctx->out, "%12lld\n", peak);
		else
			fprintf(ctx->out, "%12s\n", "-");
	}
}
