/*
 * ops.c - the operator table generated from ops.def.
 */
#include "ops.h"

#include <stdint.h>
#include <string.h>

#include "util.h"

static const OpInfo op_table[] = {
#define OP(id, family, name, min_args, max_args, schema) \
	[OP_##id] = {name, #family, min_args, max_args, schema, true},
#define OP_PLAN(id, family, name, min_args, max_args, schema) \
	[OP_##id] = {name, #family, min_args, max_args, schema, false},
#include "ops.def"
#undef OP_PLAN
#undef OP
};

const OpInfo *op_info(OpKind op)
{
	DP_ASSERT(op < OP_COUNT);
	return &op_table[op];
}

/* op_lookup's open-addressing table of op numbers plus one (0: empty),
 * built at the first call: the parser asks once per call site, and a
 * linear search over the whole registry would dominate a large module's
 * parse. */
enum { OP_SLOTS = 1024 };
_Static_assert(OP_SLOTS >= 2 * OP_COUNT, "op_lookup's table is at most half full");
static uint16_t op_slots[OP_SLOTS];

static uint32_t op_hash(const char *name, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	return h;
}

OpKind op_lookup(const char *name, size_t len)
{
	uint32_t slot;
	if (!op_slots[op_hash(op_table[0].name, strlen(op_table[0].name)) & (OP_SLOTS - 1)])
		for (int i = 0; i < OP_COUNT; i++) {
			const char *n = op_table[i].name;
			uint32_t k = op_hash(n, strlen(n)) & (OP_SLOTS - 1);
			while (op_slots[k])
				k = (k + 1) & (OP_SLOTS - 1);
			op_slots[k] = (uint16_t)(i + 1);
		}
	for (slot = op_hash(name, len) & (OP_SLOTS - 1); op_slots[slot];
	     slot = (slot + 1) & (OP_SLOTS - 1)) {
		const char *n = op_table[op_slots[slot] - 1].name;
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return (OpKind)(op_slots[slot] - 1);
	}
	return OP_NONE;
}

/* The entry of `attr` in op's schema ("name:kind" or "name:kind=default"),
 * or NULL. */
static const char *schema_entry(OpKind op, const char *attr)
{
	const char *s = op_info(op)->schema;
	size_t n = strlen(attr);
	while (*s) {
		const char *colon = strchr(s, ':');
		DP_ASSERT(colon);
		if ((size_t)(colon - s) == n && memcmp(s, attr, n) == 0)
			return s;
		s = op_schema_next(s);
	}
	return NULL;
}

const char *op_schema_next(const char *entry)
{
	entry += strcspn(entry, " ");
	return entry + strspn(entry, " ");
}

char op_attr_kind(OpKind op, const char *attr)
{
	const char *e = schema_entry(op, attr);
	return e ? strchr(e, ':')[1] : 0;
}

const char *op_attr_default(OpKind op, const char *attr, size_t *len)
{
	const char *e = schema_entry(op, attr);
	const char *eq;
	if (!e)
		return NULL;
	eq = strchr(e, ':') + 2;
	if (*eq != '=')
		return NULL;
	*len = strcspn(eq + 1, " ");
	return eq + 1;
}

bool op_type_is_printed(OpKind op)
{
	/* its index_map, TIR in the metadata, gives the result's shape */
	return op == OP_META_SCHEDULE_LAYOUT_TRANSFORM;
}

bool op_is_annotation(OpKind op)
{
	return op == OP_ON_DEVICE || op == OP_DEVICE_COPY;
}

int64_t op_slice_canonical(int64_t index, int64_t extent, int64_t stride)
{
	int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? extent - 1 : extent;
	if (index < 0)
		index = index < INT64_MIN + extent ? lo : index + extent;
	return index < lo ? lo : index > hi ? hi : index;
}
