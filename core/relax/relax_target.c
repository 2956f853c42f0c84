/*
 * relax_target.c - target kinds and their printed configs (see
 * relax_target.h).
 *
 * TVM prints a vdevice's target as its exported config with the keys in
 * alphabetical order. A target written as "cuda" or {"kind": "cuda"}
 * gains the attributes TVM fills in: the table below holds them for the
 * kinds in its tests (observed with apache-tvm 0.27.0.post1; a bare "llvm"
 * gets the host's triple, taken here as x86_64-unknown-linux-gnu, the
 * triple the corpus spells out). Other kinds get keys [kind] and tag "".
 */
#include "relax_target.h"

#include <stdlib.h>
#include <string.h>

#include "relax_syntax.h"
#include "util.h"

typedef struct TargetDefault {
	const char *kind;
	int device_type;
	const char *defaults; /* "key=value;..." with value a JSON-ish literal */
} TargetDefault;

static const TargetDefault target_defaults[] = {
	{"llvm", 1, "keys=[cpu];mtriple=x86_64-unknown-linux-gnu;tag="},
	{"c", 1, "keys=[cpu];tag="},
	{"cuda", 2, "arch=sm_50;keys=[cuda,gpu];max_num_threads=#1024;tag=;thread_warp_size=#32"},
	{"nvptx", 2, "keys=[cuda,gpu];tag="},
	{"opencl", 4, "keys=[opencl,gpu];tag="},
	{"vulkan", 7, "keys=[vulkan,gpu];tag="},
	{"metal", 8,
	 "keys=[metal,gpu];max_function_args=#31;max_num_threads=#256;"
	 "max_shared_memory_per_block=#32768;max_threads_per_block=#256;tag=;thread_warp_size=#16"},
	{"rocm", 10, "keys=[rocm,gpu];tag="},
	{"hexagon", 16, "keys=[hexagon];tag="},
	{"webgpu", 15, "keys=[webgpu,gpu];tag="},
};

static const TargetDefault *find_default(const char *kind)
{
	for (size_t i = 0; i < DP_COUNT(target_defaults); i++)
		if (strcmp(target_defaults[i].kind, kind) == 0)
			return &target_defaults[i];
	return NULL;
}

int relax_target_device_type(const char *kind)
{
	const TargetDefault *d = find_default(kind);
	return d ? d->device_type : 0;
}

const char *relax_target_kind(RxModule *m, const PyExpr *target)
{
	if (target->kind == PY_STR) {
		size_t n = strcspn(target->text, " ");
		return n ? arena_strndup(&m->arena, target->text, n) : NULL;
	}
	if (target->kind == PY_DICT)
		for (uint32_t i = 0; i + 1 < target->nitems; i += 2)
			if (target->items[i]->kind == PY_STR &&
			    strcmp(target->items[i]->text, "kind") == 0 &&
			    target->items[i + 1]->kind == PY_STR)
				return target->items[i + 1]->text;
	return NULL;
}

static PyExpr *py_leaf(RxModule *m, PyKind kind, const char *text)
{
	PyExpr *e = arena_alloc(&m->arena, sizeof *e);
	e->kind = kind;
	e->text = text;
	return e;
}

/* A default's value: [a,b] a list of strings, #N an integer, else a string. */
static PyExpr *default_value(RxModule *m, const char *v, size_t n)
{
	if (n && v[0] == '#')
		return py_leaf(m, PY_INT, arena_strndup(&m->arena, v + 1, n - 1));
	if (n && v[0] == '[') {
		PyExpr *list = py_leaf(m, PY_LIST, NULL);
		const char *p = v + 1, *end = v + n - 1;
		list->items = arena_array(&m->arena, 8, sizeof *list->items);
		while (p < end && list->nitems < 8) {
			size_t k = strcspn(p, ",]");
			list->items[list->nitems++] =
				py_leaf(m, PY_STR, arena_strndup(&m->arena, p, k));
			p += k + 1;
		}
		return list;
	}
	return py_leaf(m, PY_STR, arena_strndup(&m->arena, v, n));
}

typedef struct ConfigEntry {
	const char *key;
	PyExpr *value;
} ConfigEntry;

static void set_entry(ConfigEntry *entries, size_t *n, const char *key, PyExpr *value)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(entries[i].key, key) == 0) {
			entries[i].value = value;
			return;
		}
	entries[*n].key = key;
	entries[(*n)++].value = value;
}

static int compare_entries(const void *a, const void *b)
{
	return strcmp(((const ConfigEntry *)a)->key, ((const ConfigEntry *)b)->key);
}

static void add_defaults(RxModule *m, const char *kind, ConfigEntry *entries, size_t *n)
{
	const TargetDefault *d = find_default(kind);
	const char *p = d ? d->defaults : NULL;
	if (!d) {
		PyExpr *keys = py_leaf(m, PY_LIST, NULL);
		keys->items = arena_alloc(&m->arena, sizeof *keys->items);
		keys->items[keys->nitems++] = py_leaf(m, PY_STR, kind);
		set_entry(entries, n, "keys", keys);
		set_entry(entries, n, "tag", py_leaf(m, PY_STR, ""));
		return;
	}
	while (p && *p) {
		size_t k = strcspn(p, "="), v = strcspn(p + k + 1, ";");
		set_entry(entries, n, arena_strndup(&m->arena, p, k),
			  default_value(m, p + k + 1, v));
		p += k + 1 + v + (p[k + 1 + v] == ';');
	}
}

PyExpr *relax_target_config(RxModule *m, const PyExpr *target, const char *kind)
{
	size_t cap = 16 + (target->kind == PY_DICT ? target->nitems / 2 : 0), n = 0;
	ConfigEntry *entries = xcalloc(cap, sizeof *entries);
	PyExpr *dict = py_leaf(m, PY_DICT, NULL);
	add_defaults(m, kind, entries, &n);
	set_entry(entries, &n, "kind", py_leaf(m, PY_STR, kind));
	if (target->kind == PY_DICT)
		for (uint32_t i = 0; i + 1 < target->nitems; i += 2)
			if (target->items[i]->kind == PY_STR)
				set_entry(entries, &n, target->items[i]->text,
					  target->items[i + 1]);
	qsort(entries, n, sizeof *entries, compare_entries);
	dict->items = arena_array(&m->arena, 2 * n, sizeof *dict->items);
	for (size_t i = 0; i < n; i++) {
		dict->items[dict->nitems++] = py_leaf(m, PY_STR, entries[i].key);
		dict->items[dict->nitems++] = entries[i].value;
	}
	free(entries);
	return dict;
}
