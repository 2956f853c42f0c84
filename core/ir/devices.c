/*
 * devices.c - the device table.
 *
 * A name is KIND:ID[:SCOPE]; the entry's own name is always spelled with
 * the kind's canonical name ("gpu:0" finds and adds "cuda:0"). Lookups are
 * linear: tables hold a handful of entries.
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
	devices_truncate(table, 0);
	free(table->items);
	memset(table, 0, sizeof *table);
}

void devices_truncate(DeviceTable *table, uint32_t count)
{
	while (table->count > count) {
		Device *d = &table->items[--table->count];
		free(d->name);
		free(d->kind);
		free(d->scope);
		free(d->target);
		free(d->host_target);
	}
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
		to->scope = xstrdup(from->scope);
		to->target = xstrdup(from->target);
		to->host_target = from->host_target ? xstrdup(from->host_target) : NULL;
	}
	dst->count = src->count;
}

bool devices_valid_scope(const char *scope)
{
	size_t n = strlen(scope);
	if (n > 64)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = scope[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return true;
}

/* Splits "KIND:ID:SCOPE", "KIND:ID" or "KIND" (id 0) into its parts (the
 * scope into scope[], "" when absent); false when malformed. */
static bool split_name(const char *name, char *kind, size_t kind_size, int *id, char *scope,
		       size_t scope_size)
{
	const char *colon = strchr(name, ':'), *second = colon ? strchr(colon + 1, ':') : NULL;
	size_t n = colon ? (size_t)(colon - name) : strlen(name);
	char number[16];
	char *end;
	long v = 0;
	if (n == 0 || n >= kind_size)
		return false;
	memcpy(kind, name, n);
	kind[n] = '\0';
	scope[0] = '\0';
	if (colon) {
		size_t digits = second ? (size_t)(second - colon - 1) : strlen(colon + 1);
		if (digits == 0 || digits >= sizeof number)
			return false;
		memcpy(number, colon + 1, digits);
		number[digits] = '\0';
		v = strtol(number, &end, 10);
		if (*end || number[0] == '-' || number[0] == '+' || v < 0 || v > 65535)
			return false;
	}
	if (second) {
		if (!second[1] || strlen(second + 1) >= scope_size ||
		    !devices_valid_scope(second + 1))
			return false;
		strcpy(scope, second + 1);
	}
	*id = (int)v;
	return true;
}

/* Appends (type, id, scope) with a target (NULL: see devices_add); the
 * caller has checked that it is new and that the table has room. */
static int append(DeviceTable *table, int type, int id, const char *scope, const char *target)
{
	int base = scope[0] ? devices_find(table, type, id) : -1;
	const Device *like;
	Device *d;
	grow_array((void **)&table->items, &table->cap, table->count + 1, sizeof(Device));
	d = &table->items[table->count];
	like = base >= 0 ? &table->items[base] : NULL; /* after the array may have moved */
	d->kind = xstrdup(devices_kind_of_type(type));
	d->name = scope[0] ? xasprintf("%s:%d:%s", d->kind, id, scope)
			   : xasprintf("%s:%d", d->kind, id);
	d->device_type = type;
	d->device_id = id;
	d->scope = xstrdup(scope);
	d->target = xstrdup(target ? target : like ? like->target : default_target(type));
	if (like) {
		d->host_target = like->host_target ? xstrdup(like->host_target) : NULL;
		d->bandwidth = like->bandwidth;
		d->peak = like->peak;
		d->memory = like->memory;
		d->latency = like->latency;
		d->launch = like->launch;
		d->costs = like->costs;
		return (int)table->count++;
	}
	d->host_target = type == DEVICE_TYPE_CPU ? NULL : xstrdup("llvm");
	d->bandwidth = type == DEVICE_TYPE_CPU ? DEVICES_CPU_BANDWIDTH_DEFAULT
					       : DEVICES_ACCELERATOR_BANDWIDTH_DEFAULT;
	d->peak = type == DEVICE_TYPE_CPU ? DEVICES_CPU_PEAK_DEFAULT
					  : DEVICES_ACCELERATOR_PEAK_DEFAULT;
	d->memory = type == DEVICE_TYPE_CPU ? DEVICES_CPU_MEMORY_DEFAULT
					    : DEVICES_ACCELERATOR_MEMORY_DEFAULT;
	d->latency = type == DEVICE_TYPE_CPU ? DEVICES_CPU_LATENCY_DEFAULT
					     : DEVICES_ACCELERATOR_LATENCY_DEFAULT;
	d->launch = type == DEVICE_TYPE_CPU ? DEVICES_CPU_LAUNCH_DEFAULT
					    : DEVICES_ACCELERATOR_LAUNCH_DEFAULT;
	d->costs = DEVICE_COSTS_NOMINAL;
	return (int)table->count++;
}

int devices_add(DeviceTable *table, const char *name, const char *target, char **err)
{
	char kind[32], scope[72];
	int id, type;
	if (!split_name(name, kind, sizeof kind, &id, scope, sizeof scope)) {
		*err = xasprintf("malformed device name '%s': expected KIND:ID or KIND:ID:SCOPE, "
				 "e.g. cuda:1 or cuda:0:global.texture (a scope of letters, "
				 "digits, '_', '.' and '-')",
				 name);
		return -1;
	}
	type = devices_type_of_kind(kind);
	if (type < 0) {
		*err = xasprintf(
			"unknown device kind '%s' (known: cpu, cuda, opencl, vulkan, metal, rocm)",
			kind);
		return -1;
	}
	if (devices_find_scoped(table, type, id, scope) >= 0) {
		*err = xasprintf("device '%s:%d%s%s' is already in the table",
				 devices_kind_of_type(type), id, scope[0] ? ":" : "", scope);
		return -1;
	}
	if (table->count >= DEVICES_MAX) {
		*err = xasprintf("the device table is full (at most %d devices)", DEVICES_MAX);
		return -1;
	}
	return append(table, type, id, scope, target);
}

int devices_intern(DeviceTable *table, int device_type, int device_id, const char *scope)
{
	int found;
	if (!scope)
		scope = "";
	found = devices_find_scoped(table, device_type, device_id, scope);
	if (found >= 0)
		return found;
	if (!scope[0] || !devices_valid_scope(scope) || table->count >= DEVICES_MAX)
		return -1;
	for (uint32_t i = 0; i < table->count; i++)
		if (table->items[i].device_type == device_type &&
		    table->items[i].device_id == device_id)
			return append(table, device_type, device_id, scope, NULL);
	return -1;
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
		{"memory", d->memory,
		 cpu ? DEVICES_CPU_MEMORY_DEFAULT : DEVICES_ACCELERATOR_MEMORY_DEFAULT},
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
	} else if (n == strlen("memory") && strncmp(assignment, "memory", n) == 0) {
		field = &table->items[i].memory;
	} else if (n == strlen("latency") && strncmp(assignment, "latency", n) == 0) {
		field = &table->items[i].latency;
		zero_ok = true;
	} else if (n == strlen("launch") && strncmp(assignment, "launch", n) == 0) {
		field = &table->items[i].launch;
		zero_ok = true;
	} else {
		*err = xasprintf("unknown attribute '%.*s': expected bandwidth=GB/s, latency=US, "
				 "memory=GB/s, peak=GFLOP/s or launch=US",
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
	table->items[i].costs = DEVICE_COSTS_SET;
	return true;
}

int devices_find_scoped(const DeviceTable *table, int device_type, int device_id, const char *scope)
{
	if (!scope)
		scope = "";
	for (uint32_t i = 0; i < table->count; i++)
		if (table->items[i].device_type == device_type &&
		    table->items[i].device_id == device_id &&
		    strcmp(table->items[i].scope, scope) == 0)
			return (int)i;
	return -1;
}

int devices_find(const DeviceTable *table, int device_type, int device_id)
{
	return devices_find_scoped(table, device_type, device_id, "");
}

int devices_find_name(const DeviceTable *table, const char *name)
{
	char kind[32], scope[72];
	int id, type;
	if (!split_name(name, kind, sizeof kind, &id, scope, sizeof scope))
		return -1;
	type = devices_type_of_kind(kind);
	return type < 0 ? -1 : devices_find_scoped(table, type, id, scope);
}

int devices_intern_name(DeviceTable *table, const char *name)
{
	char kind[32], scope[72];
	int id, type;
	if (!split_name(name, kind, sizeof kind, &id, scope, sizeof scope))
		return -1;
	type = devices_type_of_kind(kind);
	return type < 0 ? -1 : devices_intern(table, type, id, scope);
}

bool devices_same_device(const DeviceTable *table, int32_t a, int32_t b)
{
	if (a < 0 || b < 0 || (uint32_t)a >= table->count || (uint32_t)b >= table->count)
		return false;
	return table->items[a].device_type == table->items[b].device_type &&
	       table->items[a].device_id == table->items[b].device_id;
}

int32_t devices_join(const DeviceTable *table, int32_t a, int32_t b)
{
	if (a == b)
		return a < 0 ? -1 : a;
	if (!table || !devices_same_device(table, a, b))
		return -1;
	if (!table->items[a].scope[0])
		return b;
	if (!table->items[b].scope[0])
		return a;
	return -1; /* two scopes of one device */
}

int32_t devices_unscoped(const DeviceTable *table, int32_t i)
{
	int found;
	if (i < 0 || (uint32_t)i >= table->count || !table->items[i].scope[0])
		return i;
	found = devices_find(table, table->items[i].device_type, table->items[i].device_id);
	if (found >= 0)
		return found;
	for (uint32_t k = 0; k < (uint32_t)i; k++)
		if (devices_same_device(table, (int32_t)k, i))
			return (int32_t)k;
	return i;
}

const char *devices_name(const DeviceTable *table, int32_t index)
{
	if (index < 0 || (uint32_t)index >= table->count)
		return "?";
	return table->items[index].name;
}
