/*
 * types.c - type constructors, equality, printing and sizes.
 */
#include "types.h"

#include <string.h>

static const struct {
	const char *name;
	size_t size;
	unsigned code, bits;
} dtype_table[] = {
#define X(e, name, size, code, bits) [e] = {name, size, code, bits},
	DTYPE_LIST(X)
#undef X
};

const char *dtype_name(DType dt)
{
	DP_ASSERT(dt < DT_COUNT);
	return dtype_table[dt].name;
}

size_t dtype_size(DType dt)
{
	DP_ASSERT(dt < DT_COUNT);
	return dtype_table[dt].size;
}

bool dtype_from_name(const char *name, size_t len, DType *out)
{
	for (int i = 0; i < DT_COUNT; i++) {
		if (strlen(dtype_table[i].name) == len &&
		    memcmp(dtype_table[i].name, name, len) == 0) {
			*out = (DType)i;
			return true;
		}
	}
	return false;
}

const char *dtype_known_names(void)
{
#define X(e, name, size, code, bits) ", " name
	static const char text[] = DTYPE_LIST(X);
#undef X
	return text + 2;
}

bool dtype_is_float(DType dt)
{
	DP_ASSERT(dt < DT_COUNT);
	return dtype_table[dt].code == 2 || dtype_table[dt].code == 4;
}

bool dtype_is_integer(DType dt)
{
	DP_ASSERT(dt < DT_COUNT);
	return dt != DT_BOOL && dtype_table[dt].code <= 1;
}

bool dtype_is_unsigned(DType dt)
{
	DP_ASSERT(dt < DT_COUNT);
	return dt != DT_BOOL && dtype_table[dt].code == 1;
}

void dtype_dlpack(DType dt, unsigned *code, unsigned *bits)
{
	DP_ASSERT(dt < DT_COUNT);
	*code = dtype_table[dt].code;
	*bits = dtype_table[dt].bits;
}

bool dtype_from_dlpack(unsigned code, unsigned bits, DType *out)
{
	for (int i = 0; i < DT_COUNT; i++)
		if (dtype_table[i].code == code && dtype_table[i].bits == bits) {
			*out = (DType)i;
			return true;
		}
	return false;
}

Type *type_tensor(Arena *arena, DType dtype, uint32_t ndim, const int64_t *dims)
{
	Type *t = arena_alloc(arena, sizeof(Type));
	t->kind = TYPE_TENSOR;
	t->u.tensor.dtype = dtype;
	t->u.tensor.ndim = ndim;
	t->u.tensor.dims = arena_array(arena, ndim, sizeof(int64_t));
	if (ndim)
		memcpy(t->u.tensor.dims, dims, ndim * sizeof(int64_t));
	return t;
}

Type *type_scalar(Arena *arena, DType dtype)
{
	return type_tensor(arena, dtype, 0, NULL);
}

Type *type_tuple(Arena *arena, uint32_t nfields, Type *const *fields)
{
	Type *t = arena_alloc(arena, sizeof(Type));
	t->kind = TYPE_TUPLE;
	t->u.tuple.nfields = nfields;
	t->u.tuple.fields = arena_array(arena, nfields, sizeof(Type *));
	if (nfields)
		memcpy(t->u.tuple.fields, fields, nfields * sizeof(Type *));
	return t;
}

Type *type_func(Arena *arena, uint32_t nparams, Type *const *params, Type *ret)
{
	Type *t = arena_alloc(arena, sizeof(Type));
	t->kind = TYPE_FUNC;
	t->u.func.nparams = nparams;
	t->u.func.params = arena_array(arena, nparams, sizeof(Type *));
	if (nparams)
		memcpy(t->u.func.params, params, nparams * sizeof(Type *));
	t->u.func.ret = ret;
	return t;
}

Type *type_ref(Arena *arena, Type *value)
{
	Type *t = arena_alloc(arena, sizeof(Type));
	t->kind = TYPE_REF;
	t->u.ref.value = value;
	return t;
}

bool type_equal(const Type *a, const Type *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case TYPE_TENSOR:
		if (a->u.tensor.dtype != b->u.tensor.dtype || a->u.tensor.ndim != b->u.tensor.ndim)
			return false;
		for (uint32_t i = 0; i < a->u.tensor.ndim; i++)
			if (a->u.tensor.dims[i] != b->u.tensor.dims[i])
				return false;
		return true;
	case TYPE_TUPLE:
		if (a->u.tuple.nfields != b->u.tuple.nfields)
			return false;
		for (uint32_t i = 0; i < a->u.tuple.nfields; i++)
			if (!type_equal(a->u.tuple.fields[i], b->u.tuple.fields[i]))
				return false;
		return true;
	case TYPE_FUNC:
		if (a->u.func.nparams != b->u.func.nparams)
			return false;
		for (uint32_t i = 0; i < a->u.func.nparams; i++)
			if (!type_equal(a->u.func.params[i], b->u.func.params[i]))
				return false;
		return type_equal(a->u.func.ret, b->u.func.ret);
	case TYPE_REF:
		return type_equal(a->u.ref.value, b->u.ref.value);
	}
	return false;
}

void type_print(StrBuf *out, const Type *t)
{
	if (!t) {
		strbuf_puts(out, "?");
		return;
	}
	switch (t->kind) {
	case TYPE_TENSOR:
		strbuf_puts(out, "Tensor[(");
		for (uint32_t i = 0; i < t->u.tensor.ndim; i++) {
			if (i)
				strbuf_puts(out, ", ");
			if (t->u.tensor.dims[i] == DIM_ANY)
				strbuf_putc(out, '?');
			else
				strbuf_put_int(out, (long long)t->u.tensor.dims[i]);
		}
		strbuf_puts(out, "), ");
		strbuf_puts(out, dtype_name(t->u.tensor.dtype));
		strbuf_putc(out, ']');
		return;
	case TYPE_TUPLE:
		strbuf_putc(out, '(');
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++) {
			if (i)
				strbuf_puts(out, ", ");
			type_print(out, t->u.tuple.fields[i]);
		}
		if (t->u.tuple.nfields == 1)
			strbuf_putc(out, ',');
		strbuf_putc(out, ')');
		return;
	case TYPE_FUNC:
		strbuf_puts(out, "fn (");
		for (uint32_t i = 0; i < t->u.func.nparams; i++) {
			if (i)
				strbuf_puts(out, ", ");
			type_print(out, t->u.func.params[i]);
		}
		strbuf_puts(out, ") -> ");
		type_print(out, t->u.func.ret);
		return;
	case TYPE_REF:
		strbuf_puts(out, "ref(");
		type_print(out, t->u.ref.value);
		strbuf_putc(out, ')');
		return;
	}
}

const char *type_string(Arena *arena, const Type *t)
{
	StrBuf sb;
	const char *out;
	strbuf_init(&sb);
	type_print(&sb, t);
	out = arena_strndup(arena, sb.data ? sb.data : "", sb.len);
	strbuf_free(&sb);
	return out;
}

bool type_num_elements(const Type *t, int64_t *out)
{
	int64_t n = 1;
	if (!t || t->kind != TYPE_TENSOR)
		return false;
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++) {
		int64_t d = t->u.tensor.dims[i];
		if (d < 0)
			return false;
		if (d && n > INT64_MAX / d)
			return false;
		n *= d;
	}
	*out = n;
	return true;
}

bool type_bytes(const Type *t, int64_t *out)
{
	int64_t total = 0, n;
	if (!t)
		return false;
	switch (t->kind) {
	case TYPE_TENSOR:
		if (!type_num_elements(t, &n))
			return false;
		if (n > INT64_MAX / (int64_t)dtype_size(t->u.tensor.dtype))
			return false;
		*out = n * (int64_t)dtype_size(t->u.tensor.dtype);
		return true;
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++) {
			if (!type_bytes(t->u.tuple.fields[i], &n) || total > INT64_MAX - n)
				return false;
			total += n;
		}
		*out = total;
		return true;
	case TYPE_FUNC:
	case TYPE_REF: /* a cell's size is the runtime's business */
		return false;
	}
	return false;
}
