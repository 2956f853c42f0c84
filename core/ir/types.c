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

bool dtype_parse(const char *name, size_t len, DType *out, uint32_t *lanes)
{
	/* TVM's spellings without a width: 32 bits, and uint1 for bool */
	static const struct {
		const char *text;
		DType dtype;
	} aliases[] = {
		{"int", DT_INT32}, {"uint", DT_UINT32}, {"float", DT_FLOAT32}, {"uint1", DT_BOOL}};
	size_t base = len;
	uint64_t n = 0;
	*lanes = 1;
	for (size_t i = len; i-- > 0;) {
		if (name[i] == 'x' && i + 1 < len) {
			base = i;
			break;
		}
		if (name[i] < '0' || name[i] > '9')
			break;
	}
	if (base < len) {
		for (size_t i = base + 1; i < len && n <= 65535; i++)
			n = n * 10 + (uint64_t)(name[i] - '0');
		if (n == 0 || n > 65535)
			return false;
		*lanes = (uint32_t)n;
	}
	if (dtype_from_name(name, base, out))
		return *out != DT_BOOL || base == len; /* TVM: boolx4 is uint1x4 */
	for (size_t i = 0; i < DP_COUNT(aliases); i++)
		if (strlen(aliases[i].text) == base && memcmp(aliases[i].text, name, base) == 0) {
			*out = aliases[i].dtype;
			return true;
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
	t->u.tensor.lanes = 1;
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

Type *type_var(Arena *arena, const char *name, bool hole)
{
	Type *t = arena_alloc(arena, sizeof(Type));
	t->kind = TYPE_VAR;
	t->u.var.name = arena_strndup(arena, name, strlen(name));
	t->u.var.hole = hole;
	return t;
}

Type *type_call(Arena *arena, const char *name, uint32_t nargs, Type *const *args, bool bare)
{
	Type *t = arena_alloc(arena, sizeof(Type));
	t->kind = TYPE_CALL;
	t->u.call.name = arena_strndup(arena, name, strlen(name));
	t->u.call.nargs = nargs;
	t->u.call.args = arena_array(arena, nargs, sizeof(Type *));
	if (nargs)
		memcpy(t->u.call.args, args, nargs * sizeof(Type *));
	t->u.call.bare = bare && nargs == 0;
	return t;
}

/* Substitutes into the n types of in; returns true (and fills out) when
 * any changed. */
static bool type_substitute_list(Arena *arena, uint32_t count, Type *const *in, Type **out,
				 uint32_t n, const char *const *params, Type *const *args)
{
	bool changed = false;
	for (uint32_t i = 0; i < count; i++) {
		out[i] = type_substitute(arena, in[i], n, params, args);
		changed |= out[i] != in[i];
	}
	return changed;
}

Type *type_substitute(Arena *arena, Type *t, uint32_t n, const char *const *params,
		      Type *const *args)
{
	Type **items, *ret;
	if (!t || !n)
		return t;
	switch (t->kind) {
	case TYPE_TENSOR:
		return t;
	case TYPE_VAR:
		for (uint32_t i = 0; i < n && !t->u.var.hole; i++)
			if (strcmp(t->u.var.name, params[i]) == 0)
				return args[i];
		return t;
	case TYPE_TUPLE:
		items = arena_array(arena, t->u.tuple.nfields, sizeof(Type *));
		if (!type_substitute_list(arena, t->u.tuple.nfields, t->u.tuple.fields, items, n,
					  params, args))
			return t;
		return type_tuple(arena, t->u.tuple.nfields, items);
	case TYPE_FUNC:
		items = arena_array(arena, t->u.func.nparams, sizeof(Type *));
		ret = type_substitute(arena, t->u.func.ret, n, params, args);
		if (!type_substitute_list(arena, t->u.func.nparams, t->u.func.params, items, n,
					  params, args) &&
		    ret == t->u.func.ret)
			return t;
		{
			Type *f = type_func(arena, t->u.func.nparams, items, ret);
			f->u.func.ntype_params = t->u.func.ntype_params;
			f->u.func.type_params = t->u.func.type_params;
			return f;
		}
	case TYPE_CALL:
		items = arena_array(arena, t->u.call.nargs, sizeof(Type *));
		if (!type_substitute_list(arena, t->u.call.nargs, t->u.call.args, items, n, params,
					  args))
			return t;
		return type_call(arena, t->u.call.name, t->u.call.nargs, items, t->u.call.bare);
	case TYPE_REF:
		ret = type_substitute(arena, t->u.ref.value, n, params, args);
		return ret == t->u.ref.value ? t : type_ref(arena, ret);
	}
	return t;
}

bool type_has_hole(const Type *t)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TYPE_TENSOR:
		return false;
	case TYPE_VAR:
		return t->u.var.hole;
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (type_has_hole(t->u.tuple.fields[i]))
				return true;
		return false;
	case TYPE_FUNC:
		for (uint32_t i = 0; i < t->u.func.nparams; i++)
			if (type_has_hole(t->u.func.params[i]))
				return true;
		return type_has_hole(t->u.func.ret);
	case TYPE_CALL:
		for (uint32_t i = 0; i < t->u.call.nargs; i++)
			if (type_has_hole(t->u.call.args[i]))
				return true;
		return false;
	case TYPE_REF:
		return type_has_hole(t->u.ref.value);
	}
	return false;
}

bool type_has_lanes(const Type *t)
{
	if (!t)
		return false;
	switch (t->kind) {
	case TYPE_TENSOR:
		return t->u.tensor.lanes > 1;
	case TYPE_VAR:
		return false;
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (type_has_lanes(t->u.tuple.fields[i]))
				return true;
		return false;
	case TYPE_FUNC:
		for (uint32_t i = 0; i < t->u.func.nparams; i++)
			if (type_has_lanes(t->u.func.params[i]))
				return true;
		return type_has_lanes(t->u.func.ret);
	case TYPE_CALL:
		for (uint32_t i = 0; i < t->u.call.nargs; i++)
			if (type_has_lanes(t->u.call.args[i]))
				return true;
		return false;
	case TYPE_REF:
		return type_has_lanes(t->u.ref.value);
	}
	return false;
}

bool type_equal(const Type *a, const Type *b)
{
	if (a == b)
		return true;
	if ((a && a->kind == TYPE_VAR && a->u.var.hole) ||
	    (b && b->kind == TYPE_VAR && b->u.var.hole))
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case TYPE_TENSOR:
		if (a->u.tensor.dtype != b->u.tensor.dtype ||
		    a->u.tensor.ndim != b->u.tensor.ndim || a->u.tensor.lanes != b->u.tensor.lanes)
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
		if (a->u.func.nparams != b->u.func.nparams ||
		    a->u.func.ntype_params != b->u.func.ntype_params)
			return false;
		for (uint32_t i = 0; i < a->u.func.nparams; i++)
			if (!type_equal(a->u.func.params[i], b->u.func.params[i]))
				return false;
		return type_equal(a->u.func.ret, b->u.func.ret);
	case TYPE_REF:
		return type_equal(a->u.ref.value, b->u.ref.value);
	case TYPE_VAR:
		return strcmp(a->u.var.name, b->u.var.name) == 0;
	case TYPE_CALL:
		if (strcmp(a->u.call.name, b->u.call.name) != 0 ||
		    a->u.call.nargs != b->u.call.nargs)
			return false;
		for (uint32_t i = 0; i < a->u.call.nargs; i++)
			if (!type_equal(a->u.call.args[i], b->u.call.args[i]))
				return false;
		return true;
	}
	return false;
}

/* TVM's DLDataType2String: int8x4, and uint1x4 for a vector of bools. */
static void type_print_dtype(StrBuf *out, const Type *t)
{
	uint32_t lanes = t->u.tensor.lanes;
	strbuf_puts(out, lanes > 1 && t->u.tensor.dtype == DT_BOOL ? "uint1"
								   : dtype_name(t->u.tensor.dtype));
	if (lanes > 1) {
		strbuf_putc(out, 'x');
		strbuf_put_int(out, (long long)lanes);
	}
}

void type_print(StrBuf *out, const Type *t)
{
	if (!t) {
		strbuf_puts(out, "?");
		return;
	}
	switch (t->kind) {
	case TYPE_TENSOR:
		/* a scalar is its dtype alone, as TVM prints it */
		if (t->u.tensor.ndim == 0) {
			type_print_dtype(out, t);
			return;
		}
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
		type_print_dtype(out, t);
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
		strbuf_puts(out, "fn ");
		if (t->u.func.ntype_params) {
			strbuf_putc(out, '[');
			for (uint32_t i = 0; i < t->u.func.ntype_params; i++) {
				if (i)
					strbuf_puts(out, ", ");
				strbuf_puts(out, t->u.func.type_params[i]);
			}
			strbuf_putc(out, ']');
		}
		strbuf_putc(out, '(');
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
	case TYPE_VAR:
		/* a hole as it was written: `?` (devplan's), `_` (TVM's) */
		strbuf_puts(out, t->u.var.name);
		return;
	case TYPE_CALL:
		/* TVM's VisitType_(TypeCallNode): the name, then the
		 * arguments in brackets, `[]` for none */
		strbuf_puts(out, t->u.call.name);
		if (t->u.call.bare)
			return;
		strbuf_putc(out, '[');
		for (uint32_t i = 0; i < t->u.call.nargs; i++) {
			if (i)
				strbuf_puts(out, ", ");
			type_print(out, t->u.call.args[i]);
		}
		strbuf_putc(out, ']');
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
		if (n > INT64_MAX / ((int64_t)dtype_size(t->u.tensor.dtype) * t->u.tensor.lanes))
			return false;
		*out = n * (int64_t)dtype_size(t->u.tensor.dtype) * t->u.tensor.lanes;
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
	case TYPE_VAR:
	case TYPE_CALL:
		return false;
	}
	return false;
}

bool type_is_tensors(const Type *t)
{
	if (t->kind == TYPE_TENSOR)
		return true;
	if (t->kind != TYPE_TUPLE)
		return false;
	for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
		if (!type_is_tensors(t->u.tuple.fields[i]))
			return false;
	return true;
}
