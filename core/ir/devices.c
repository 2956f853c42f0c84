/*
 * devices.c - the device table.
 */
#include "devices.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *kind;
	int device_type;
	const char *target; /* default target */
} kinds[] = {
	{"cpu", DEVICE_TYPE_CPU, "llvm"},
	{"llvm", DEVICE_TYPE_CPU, "llvm"},
	{"cuda", DEVICE_TYPE_CUDA, "cuda"},
	{"gpu", DEVICE_TYPE_CUDA, "cuda"},
	{"opencl", 4, "opencl"},
	{"vulkan", 7, "vulkan"},
	{"metal", 8, "metal"},
	{"rocm", 10, "rocm"},
};

int devices_type_of_kind(const char *kind)
{
	for (size_t i = 0; i < DP_COUNT(kinds); i++)
		if (strcmp(kinds[i].kind, kind) == 0)
			return kinds[i].device_type;
	return -1;
}

const char *devices_kind_of_type(int device_type)
{
	for (size_t i = 0; i < DP_COUNT(kinds); i++)
		if (kinds[i].device_type == device_type)
			return kinds[i].kind;
	return NULL;
}

static const char *default_target(int device_type)
{
	for (size_t i = 0; i < DP_COUNT(kinds); i++)
		if (kinds[i].device_type == device_type)
			return kinds[i].target;
	return "llvm";
}

void devices_init_default(DeviceTable *table)
{
	char *err = NULL;
	memset(table, 0, sizeof *table);
	if (devices_add(table, "cpu:0", "llvm", &err) != 0 ||
	    devices_add(table, "cuda:0", "cuda", &err) != 1)
		DP_ASSERT(!"default device table");
}

void devices_free(DeviceTable *table)
{
	for (uint32_t i = 0; i < table->count; i++) {
		free(table->items[i].name);
		free(table->items[i].kind);
		free(table->items[i].target);
		free(table->items[i].host_target);
	}
	free(table->items);
	memset(table, 0, sizeof *table);
}

void devices_copy(DeviceTable *dst, const DeviceTable *src)
{
	memset(dst, 0, sizeof *dst);
	grow_array((void **)&dst->items, &dst->cap, src->count, sizeof(Device));
	for (uint32_t i = 0; i < src->count; i++) {
		const Device *from = &src->items[i];
		Device *to = &dst->items[i];
		*to = *from;
		to->name = xstrdup(from->name);
		to->kind = xstrdup(from->kind);
		to->target = xstrdup(from->target);
		to->host_target = from->host_target ? xstrdup(from->host_target) : NULL;
	}
	dst->count = src->count;
}

/* Splits "KIND:ID" (or "KIND", id 0); false when malformed. */
static bool split_name(const char *name, char *kind, size_t kind_size, int *id)
{
	const char *colon = strchr(name, ':');
	size_t n = colon ? (size_t)(colon - name) : strlen(name);
	char *end;
	long v = 0;
	if (n == 0 || n >= kind_size)
		return false;
	memcpy(kind, name, n);
	kind[n] = '\0';
	if (colon) {
		if (!colon[1])
			return false;
		v = strtol(colon + 1, &end, 10);
		if (*end || v < 0 || v > 65535)
			return false;
	}
	*id = (int)v;
	return true;
}

int devices_add(DeviceTable *table, const char *name, const char *target, char **err)
{
	char kind[32];
	int id, type;
	Device *d;
	if (!split_name(name, kind, sizeof kind, &id)) {
		*err = xasprintf("malformed device name '%s': expected KIND:ID, e.g. cuda:1", name);
		return -1;
	}
	type = devices_type_of_kind(kind);
	if (type < 0) {
		*err = xasprintf(
			"unknown device kind '%s' (known: cpu, cuda, opencl, vulkan, metal, rocm)",
			kind);
		return -1;
	}
	if (devices_find(table, type, id) >= 0) {
		*err = xasprintf("device '%s:%d' is already in the table",
				 devices_kind_of_type(type), id);
		return -1;
	}
	if (table->count >= DEVICES_MAX) {
		*err = xasprintf("the device table is full (at most %d devices)", DEVICES_MAX);
		return -1;
	}
	grow_array((void **)&table->items, &table->cap, table->count + 1, sizeof(Device));
	d = &table->items[table->count];
	d->kind = xstrdup(devices_kind_of_type(type));
	d->name = xasprintf("%s:%d", d->kind, id);
	d->device_type = type;
	d->device_id = id;
	d->target = xstrdup(target ? target : default_target(type));
	d->host_target = type == DEVICE_TYPE_CPU ? NULL : xstrdup("llvm");
	d->bandwidth = type == DEVICE_TYPE_CPU ? DEVICES_CPU_BANDWIDTH_DEFAULT
					       : DEVICES_ACCELERATOR_BANDWIDTH_DEFAULT;
	d->peak = type == DEVICE_TYPE_CPU ? DEVICES_CPU_PEAK_DEFAULT
					  : DEVICES_ACCELERATOR_PEAK_DEFAULT;
	d->latency = type == DEVICE_TYPE_CPU ? DEVICES_CPU_LATENCY_DEFAULT
					     : DEVICES_ACCELERATOR_LATENCY_DEFAULT;
	d->launch = type == DEVICE_TYPE_CPU ? DEVICES_CPU_LAUNCH_DEFAULT
					    : DEVICES_ACCELERATOR_LAUNCH_DEFAULT;
	return (int)table->count++;
}

void devices_format_costs(const Device *d, StrBuf *out)
{
	bool cpu = d->device_type == DEVICE_TYPE_CPU;
	const struct {
		const char *name;
		double value, dflt;
	} costs[] = {
		{"bandwidth", d->bandwidth,
		 cpu ? DEVICES_CPU_BANDWIDTH_DEFAULT : DEVICES_ACCELERATOR_BANDWIDTH_DEFAULT},
		{"latency", d->latency,
		 cpu ? DEVICES_CPU_LATENCY_DEFAULT : DEVICES_ACCELERATOR_LATENCY_DEFAULT},
		{"peak", d->peak,
		 cpu ? DEVICES_CPU_PEAK_DEFAULT : DEVICES_ACCELERATOR_PEAK_DEFAULT},
		{"launch", d->launch,
		 cpu ? DEVICES_CPU_LAUNCH_DEFAULT : DEVICES_ACCELERATOR_LAUNCH_DEFAULT},
	};
	for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++) {
		char text[32];
		int digits = 6;
		if (costs[i].value == costs[i].dflt)
			continue;
		do /* the shortest spelling that reads back as the same number */
			snprintf(text, sizeof text, "%.*g", digits, costs[i].value);
		while (strtod(text, NULL) != costs[i].value && ++digits <= 17);
		strbuf_printf(out, " %s=%s", costs[i].name, text);
	}
}

bool devices_set_attribute(DeviceTable *table, uint32_t i, const char *assignment, char **err)
{
	const char *eq = strchr(assignment, '=');
	size_t n = eq ? (size_t)(eq - assignment) : strlen(assignment);
	double value;
	char *end;
	double *field;
	bool zero_ok = false; /* a fixed cost may be none */
	if (n == strlen("bandwidth") && strncmp(assignment, "bandwidth", n) == 0) {
		field = &table->items[i].bandwidth;
	} else if (n == strlen("peak") && strncmp(assignment, "peak", n) == 0) {
		field = &table->items[i].peak;
	} else if (n == strlen("latency") && strncmp(assignment, "latency", n) == 0) {
		field = &table->items[i].latency;
		zero_ok = true;
	} else if (n == strlen("launch") && strncmp(assignment, "launch", n) == 0) {
		field = &table->items[i].launch;
		zero_ok = true;
	} else {
		*err = xasprintf("unknown attribute '%.*s': expected bandwidth=GB/s, latency=US, "
				 "peak=GFLOP/s or launch=US",
				 (int)n, assignment);
		return false;
	}
	if (!eq || !eq[1]) {
		*err = xasprintf("'%.*s' needs a value: %.*s=NUMBER", (int)n, assignment, (int)n,
				 assignment);
		return false;
	}
	value = strtod(eq + 1, &end);
	if (*end || !(zero_ok ? value >= 0 : value > 0) || value > 1e15) {
		*err = xasprintf("invalid value '%s' for '%.*s': expected a number %s", eq + 1,
				 (int)n, assignment, zero_ok ? "of 0 or more" : "above 0");
		return false;
	}
	*field = value;
	return true;
}

int devices_find(const DeviceTable *table, int device_type, int device_id)
{
	for (uint32_t i = 0; i < table->count; i++)
		if (table->items[i].device_type == device_type &&
		    table->items[i].device_id == device_id)
			return (int)i;
	return -1;
}

int devices_find_name(const DeviceTable *table, const char *name)
{
	char kind[32];
	int id, type;
	if (!split_name(name, kind, sizeof kind, &id))
		return -1;
	type = devices_type_of_kind(kind);
	return type < 0 ? -1 : devices_find(table, type, id);
}

const char *devices_name(const DeviceTable *table, int32_t index)
{
	if (index < 0 || (uint32_t)index >= table->count)
		return "?";
	return table->items[index].name;
}
