/*
 * ops.c - the operator table generated from ops.def.
 */
#include "ops.h"

#include <string.h>

#include "util.h"

static const OpInfo op_table[] = {
#define OP(id, name, min_args, max_args, schema) [OP_##id] = {name, min_args, max_args, schema},
#include "ops.def"
#undef OP
};

const OpInfo *op_info(OpKind op)
{
	DP_ASSERT(op < OP_COUNT);
	return &op_table[op];
}

OpKind op_lookup(const char *name, size_t len)
{
	for (int i = 0; i < OP_COUNT; i++)
		if (strlen(op_table[i].name) == len && memcmp(op_table[i].name, name, len) == 0)
			return (OpKind)i;
	return OP_NONE;
}

char op_attr_kind(OpKind op, const char *attr)
{
	const char *s = op_info(op)->schema;
	size_t n = strlen(attr);
	while (*s) {
		const char *colon = strchr(s, ':');
		DP_ASSERT(colon);
		if ((size_t)(colon - s) == n && memcmp(s, attr, n) == 0)
			return colon[1];
		s = colon + 2;
		while (*s == ' ')
			s++;
	}
	return 0;
}

bool op_is_annotation(OpKind op)
{
	return op == OP_ON_DEVICE || op == OP_DEVICE_COPY;
}
