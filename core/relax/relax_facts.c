/*
 * relax_facts.c - a realised Relax module's placement facts and their
 * JSON (see relax_facts.h).
 */
#include "relax_facts.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add_fact(RxPlacement *p, RxFact f)
{
	grow_array((void **)&p->facts, &p->cap, p->count + 1, sizeof *p->facts);
	p->facts[p->count++] = f;
}

/* Bytes of a tensor type with a static shape and a known dtype, or -1. */
static long long tensor_bytes(const RxType *t)
{
	static const struct {
		const char *dtype;
		int bytes;
	} sizes[] = {
		{"float32", 4}, {"float16", 2}, {"bfloat16", 2}, {"float64", 8}, {"int64", 8},
		{"int32", 4},   {"int16", 2},   {"int8", 1},     {"uint8", 1},   {"bool", 1},
	};
	long long n = 1;
	int bytes = 0;
	if (!t || t->kind != RX_TYPE_TENSOR || !t->shape || !t->dtype || t->shape->kind != PY_TUPLE)
		return -1;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(sizes[i].dtype, t->dtype) == 0)
			bytes = sizes[i].bytes;
	for (uint32_t i = 0; i < t->shape->nitems; i++) {
		const PyExpr *d = t->shape->items[i];
		if (d->kind != PY_INT)
			return -1;
		n *= atoll(d->text);
	}
	return bytes ? n * bytes : -1;
}

static bool is_to_vdevice(const RxExpr *e)
{
	return e && e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP &&
	       strcmp(e->name, "R.to_vdevice") == 0 && e->nitems &&
	       e->items[0]->kind == RX_EXPR_VAR;
}

static void block_facts(RxPlacement *p, const RxFunc *f, const RxBlock *b)
{
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		if (s->kind == RX_STMT_DATAFLOW) {
			block_facts(p, f, s->then_block);
			continue;
		}
		if (s->kind == RX_STMT_IF) {
			block_facts(p, f, s->then_block);
			block_facts(p, f, s->else_block);
		}
		if (!s->var || !s->var->type || s->var->type->kind != RX_TYPE_TENSOR)
			continue;
		add_fact(p, (RxFact){RX_FACT_BIND, f, s->var, NULL,
				     relax_type_vdevice(s->var->type), -1, -1, -1});
		if (s->kind == RX_STMT_BIND && is_to_vdevice(s->value)) {
			const RxVar *src = s->value->items[0]->var;
			add_fact(p, (RxFact){RX_FACT_COPY, f, src, s->var,
					     relax_type_vdevice(src->type), s->value->vdevice,
					     tensor_bytes(s->var->type), -1});
		}
	}
}

void relax_placement(const RxModule *m, const RxModule *in, RxPlacement *out)
{
	memset(out, 0, sizeof *out);
	out->m = m;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const RxFunc *f = m->funcs[i];
		if (f->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t k = 0; k < f->nparams; k++)
			add_fact(out,
				 (RxFact){RX_FACT_PARAM, f, f->params[k], NULL,
					  relax_type_vdevice(f->params[k]->type), -1, -1,
					  relax_type_vdevice(in->vars[f->params[k]->id]->type)});
		block_facts(out, f, f->body);
		if (f->ret && f->ret->kind == RX_TYPE_TENSOR)
			add_fact(out,
				 (RxFact){RX_FACT_RESULT, f, NULL, NULL, f->ret->vdevice, -1, -1,
					  i < in->nfuncs ? relax_type_vdevice(in->funcs[i]->ret)
							 : -1});
	}
}

void relax_placement_free(RxPlacement *p)
{
	free(p->facts);
	memset(p, 0, sizeof *p);
}

const char *relax_fact_mark(const RxFact *f)
{
	if ((f->kind != RX_FACT_PARAM && f->kind != RX_FACT_RESULT) || f->vdevice < 0 ||
	    f->vdevice == f->declared)
		return NULL;
	return f->declared < 0 ? "inferred" : "declared otherwise";
}

static void vdevice_text(StrBuf *out, const RxModule *m, int vdevice)
{
	if (vdevice < 0)
		strbuf_puts(out, "no vdevice");
	else
		relax_vdevice_name(m, vdevice, out);
}

static const char *const fact_words[] = {"param", "bind", "copy", "result"};

void relax_fact_format(StrBuf *out, const RxModule *m, const RxFact *f)
{
	const char *mark = relax_fact_mark(f);
	strbuf_printf(out, "@%s %s", f->func->name, fact_words[f->kind]);
	if (f->var)
		strbuf_printf(out, " %%%s", f->var->name);
	strbuf_putc(out, ' ');
	vdevice_text(out, m, f->vdevice);
	if (f->kind == RX_FACT_COPY) {
		strbuf_puts(out, " -> ");
		vdevice_text(out, m, f->dest);
		if (f->bytes >= 0)
			strbuf_printf(out, " %lld", f->bytes);
		else
			strbuf_puts(out, " ?");
	}
	if (mark)
		strbuf_printf(out, " (%s)", mark);
}

/* ---- JSON ---- */

/* The devplan device `run` puts a vdevice on: cpu:N for llvm, cuda:N for
 * cuda, KIND:N for others (vdevice_id N); null for none. */
static json_object *device_json(const RxModule *m, int vdevice)
{
	const RxVDevice *v;
	char *name;
	json_object *o;
	if (vdevice < 0 || (uint32_t)vdevice >= m->nvdevices)
		return NULL;
	v = &m->vdevices[vdevice];
	name = xasprintf("%s:%lld", strcmp(v->kind, "llvm") == 0 ? "cpu" : v->kind,
			 (long long)v->vdevice_id);
	o = json_object_new_string(name);
	free(name);
	return o;
}

static json_object *vdevice_json(const RxModule *m, int vdevice)
{
	StrBuf sb;
	json_object *o;
	if (vdevice < 0)
		return NULL;
	strbuf_init(&sb);
	relax_vdevice_name(m, vdevice, &sb);
	o = json_object_new_string(sb.data);
	strbuf_free(&sb);
	return o;
}

static json_object *fact_json(const RxModule *m, const RxFact *f)
{
	json_object *o = json_object_new_object();
	char *value = xasprintf("%%%s", f->var->name);
	json_object_object_add(o, "value", json_object_new_string(value));
	free(value);
	if (f->kind == RX_FACT_COPY) {
		json_object_object_add(o, "from", device_json(m, f->vdevice));
		json_object_object_add(o, "to", device_json(m, f->dest));
		json_object_object_add(o, "bytes",
				       f->bytes >= 0 ? json_object_new_int64(f->bytes) : NULL);
		json_object_object_add(o, "from_vdevice", vdevice_json(m, f->vdevice));
		json_object_object_add(o, "to_vdevice", vdevice_json(m, f->dest));
		return o;
	}
	json_object_object_add(o, "device", device_json(m, f->vdevice));
	json_object_object_add(o, "vdevice", vdevice_json(m, f->vdevice));
	if (f->kind == RX_FACT_PARAM) {
		json_object_object_add(o, "inferred",
				       json_object_new_boolean(f->declared < 0 && f->vdevice >= 0));
		json_object_object_add(o, "declared", vdevice_json(m, f->declared));
	}
	return o;
}

/* One function's object: facts [from, to) are its own. */
static json_object *function_json(const RxPlacement *p, size_t from, size_t to)
{
	static const char *const arrays[] = {"params", "binds", "copies"};
	static const RxFactKind kinds[] = {RX_FACT_PARAM, RX_FACT_BIND, RX_FACT_COPY};
	json_object *o = json_object_new_object();
	char *name = xasprintf("@%s", p->facts[from].func->name);
	json_object_object_add(o, "function", json_object_new_string(name));
	free(name);
	for (size_t a = 0; a < DP_COUNT(arrays); a++) {
		json_object *arr = json_object_new_array();
		for (size_t i = from; i < to; i++)
			if (p->facts[i].kind == kinds[a])
				json_object_array_add(arr, fact_json(p->m, &p->facts[i]));
		json_object_object_add(o, arrays[a], arr);
	}
	for (size_t i = from; i < to; i++) {
		const RxFact *f = &p->facts[i];
		if (f->kind != RX_FACT_RESULT)
			continue;
		json_object_object_add(o, "result", device_json(p->m, f->vdevice));
		json_object_object_add(o, "result_vdevice", vdevice_json(p->m, f->vdevice));
		json_object_object_add(o, "result_inferred",
				       json_object_new_boolean(f->declared < 0 && f->vdevice >= 0));
		json_object_object_add(o, "result_declared", vdevice_json(p->m, f->declared));
	}
	return o;
}

void relax_placement_json(StrBuf *out, const RxPlacement *p)
{
	json_object *doc = json_object_new_object(), *functions = json_object_new_array();
	json_object_object_add(doc, "language", json_object_new_string("relax"));
	for (size_t i = 0; i < p->count;) {
		size_t end = i + 1;
		while (end < p->count && p->facts[end].func == p->facts[i].func)
			end++;
		json_object_array_add(functions, function_json(p, i, end));
		i = end;
	}
	json_object_object_add(doc, "functions", functions);
	strbuf_puts(out, json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_SPACED));
	strbuf_putc(out, '\n');
	json_object_put(doc);
}
