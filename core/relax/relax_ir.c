/*
 * relax_ir.c - Relax modules, types and vdevice names (see relax_ir.h).
 *
 * A vdevice is named in text by its target kind and its ordinal among the
 * module's entries of that kind ("cuda:1" is the second cuda entry, not
 * device id 1), or by its position ("vdevice:3"); the memory scope written
 * after a second colon is ignored on input and printed from the entry.
 * Both directions follow TVM 0.27 (LookupVDevice in
 * src/script/ir_builder/ir/ir.cc, FindVDeviceIndexByTargetKind in
 * src/relax/script/printer/utils.h).
 */
#include "relax_ir.h"

#include <stdlib.h>
#include <string.h>

#include "relax_syntax.h"
#include "util.h"

RxModule *relax_module_new(void)
{
	RxModule *m = xcalloc(1, sizeof *m);
	arena_init(&m->arena);
	return m;
}

void relax_module_free(RxModule *m)
{
	if (!m)
		return;
	arena_free(&m->arena);
	free(m->vars);
	free(m->funcs);
	free(m->vdevices);
	free(m);
}

RxType *relax_type_tensor(RxModule *m, PyExpr *shape, int ndim, const char *dtype, int vdevice)
{
	RxType *t = arena_alloc(&m->arena, sizeof *t);
	t->kind = RX_TYPE_TENSOR;
	t->shape = shape;
	t->ndim = shape && shape->kind == PY_TUPLE ? (int)shape->nitems : ndim;
	t->dtype = dtype;
	t->vdevice = vdevice;
	return t;
}

RxType *relax_type_with_vdevice(RxModule *m, const RxType *t, int vdevice)
{
	if (t->kind != RX_TYPE_TENSOR)
		return (RxType *)t;
	return relax_type_tensor(m, t->shape, t->ndim, t->dtype, vdevice);
}

int relax_type_vdevice(const RxType *t)
{
	return t && t->kind == RX_TYPE_TENSOR ? t->vdevice : -1;
}

bool relax_py_equal(const PyExpr *a, const PyExpr *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->nitems != b->nitems)
		return false;
	if ((a->text || b->text) && (!a->text || !b->text || strcmp(a->text, b->text) != 0))
		return false;
	if ((a->base || b->base) && !relax_py_equal(a->base, b->base))
		return false;
	for (uint32_t i = 0; i < a->nitems; i++) {
		const char *ka = a->keys ? a->keys[i] : NULL, *kb = b->keys ? b->keys[i] : NULL;
		if ((ka || kb) && (!ka || !kb || strcmp(ka, kb) != 0))
			return false;
		if (!relax_py_equal(a->items[i], b->items[i]))
			return false;
	}
	return true;
}

bool relax_type_equal(const RxType *a, const RxType *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case RX_TYPE_TENSOR:
		return a->ndim == b->ndim && a->vdevice == b->vdevice &&
		       relax_py_equal(a->shape, b->shape) &&
		       (a->dtype == b->dtype ||
			(a->dtype && b->dtype && strcmp(a->dtype, b->dtype) == 0));
	case RX_TYPE_TUPLE:
		if (a->nfields != b->nfields)
			return false;
		for (uint32_t i = 0; i < a->nfields; i++)
			if (!relax_type_equal(a->fields[i], b->fields[i]))
				return false;
		return true;
	case RX_TYPE_PRIM:
	case RX_TYPE_OTHER:
		return relax_py_equal(a->text, b->text);
	}
	return false;
}

void relax_vdevice_name(const RxModule *m, int vdevice, StrBuf *out)
{
	int ordinal = 0;
	if (vdevice < 0 || (uint32_t)vdevice >= m->nvdevices) {
		strbuf_puts(out, "llvm:-1:global");
		return;
	}
	for (int i = 0; i < vdevice; i++)
		if (strcmp(m->vdevices[i].kind, m->vdevices[vdevice].kind) == 0)
			ordinal++;
	strbuf_printf(out, "%s:%d:%s", m->vdevices[vdevice].kind, ordinal,
		      m->vdevices[vdevice].scope);
}

int relax_vdevice_lookup(const RxModule *m, const char *text)
{
	const char *colon = strchr(text, ':');
	size_t kind_len = colon ? (size_t)(colon - text) : strlen(text);
	long index = 0;
	if (colon) {
		char *end;
		index = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || (*end != '\0' && *end != ':'))
			return -1;
	}
	if (index < 0 || (uint32_t)index >= m->nvdevices)
		return -1;
	if (kind_len == 7 && strncmp(text, "vdevice", 7) == 0)
		return (int)index;
	for (uint32_t i = 0; i < m->nvdevices; i++) {
		const char *kind = m->vdevices[i].kind;
		if (strlen(kind) == kind_len && strncmp(kind, text, kind_len) == 0 && index-- == 0)
			return (int)i;
	}
	return -1;
}
