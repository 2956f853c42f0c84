/*
 * plan_facts.c - what users inspect after planning: placement facts, the
 * verifier, explanations, and the trace's lifetime.
 *
 * Facts are read off the planned module itself (every node carries its
 * device after `core`), so they describe exactly what will run. Functions
 * come from plan_functions, which lists nested closures after their parent,
 * so every binding belongs to its innermost function.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "plan.h"

PlanTrace *plan_trace_new(void)
{
	return xcalloc(1, sizeof(PlanTrace));
}

void plan_trace_add_event(PlanTrace *t, const PlanEvent *ev)
{
	if (!t)
		return;
	grow_array((void **)&t->events, &t->cap_events, t->nevents + 1, sizeof(PlanEvent));
	t->events[t->nevents++] = *ev;
}

void plan_trace_clear(PlanTrace *t)
{
	for (size_t i = 0; i < t->nconflicts; i++)
		plan_conflict_free_fields(&t->conflicts[i]);
	free(t->conflicts);
	if (t->check) {
		plan_analysis_free(t->check);
		free(t->check);
	}
	if (t->core) {
		plan_analysis_free(t->core);
		free(t->core);
	}
	free(t->events);
	memset(t, 0, sizeof *t);
}

void plan_trace_free(PlanTrace *t)
{
	if (!t)
		return;
	plan_trace_clear(t);
	free(t);
}

/* ---- placement ---- */

static const char *intern_function(Placement *p, char *name)
{
	grow_array((void **)&p->function_names, &p->cap_functions, p->nfunctions + 1,
		   sizeof(char *));
	p->function_names[p->nfunctions++] = name;
	return name;
}

static PlacementFact *add_fact(Placement *p, FactKind kind, const char *function, const Expr *e,
			       int32_t device)
{
	PlacementFact *f;
	grow_array((void **)&p->facts, &p->cap, p->count + 1, sizeof(PlacementFact));
	f = &p->facts[p->count++];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->function = function;
	f->device = device;
	f->dest = IR_NO_DEVICE;
	f->bytes = -1;
	f->expr = e ? e->id : PLAN_NONE;
	f->value_expr = PLAN_NONE;
	if (e && kind != FACT_RESULT && e->name && !e->name_generated) {
		size_t n = strlen(e->name);
		f->value = xmalloc(n + 2);
		f->value[0] = '%';
		memcpy(f->value + 1, e->name, n + 1);
	} else if (e && kind != FACT_RESULT) {
		StrBuf sb;
		strbuf_init(&sb);
		ir_value_source_name(&sb, e);
		f->value = strbuf_detach(&sb);
	}
	return f;
}

/* A set of (value, from, to) transfers, so each is listed once. */
typedef struct TransferSet {
	uint64_t *keys;
	size_t cap, count;
} TransferSet;

/* splitmix64's finaliser: every bit of the key reaches the low bits the
 * table masks with. */
static size_t transfer_slot(uint64_t key, size_t cap)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)key & (cap - 1);
}

static bool transfer_insert(TransferSet *s, uint32_t value, int32_t from, int32_t to)
{
	/* value in the high half, the two devices below; never zero, which
	 * marks an empty slot */
	uint64_t key = ((uint64_t)value << 32 | (uint64_t)(uint16_t)from << 16 | (uint16_t)to) + 1;
	size_t i;
	if (s->count * 2 >= s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		uint64_t *nk = xcalloc(ncap, sizeof(uint64_t));
		for (size_t j = 0; j < s->cap; j++) {
			if (!s->keys[j])
				continue;
			i = transfer_slot(s->keys[j], ncap);
			while (nk[i])
				i = (i + 1) & (ncap - 1);
			nk[i] = s->keys[j];
		}
		free(s->keys);
		s->keys = nk;
		s->cap = ncap;
	}
	i = transfer_slot(key, s->cap);
	while (s->keys[i]) {
		if (s->keys[i] == key)
			return false;
		i = (i + 1) & (s->cap - 1);
	}
	s->keys[i] = key;
	s->count++;
	return true;
}

/* Whether node id is one of function fn's parameters. */
static bool is_param_of(const Expr *fn, uint32_t id)
{
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		if (fn->u.fn.params[i]->id == id)
			return true;
	return false;
}

/* A removed annotation's name as a binding (IrAlias), on its device. */
static void add_alias_fact(Placement *p, const char *function, const IrAlias *a)
{
	PlacementFact *f;
	size_t n = strlen(a->name);
	grow_array((void **)&p->facts, &p->cap, p->count + 1, sizeof(PlacementFact));
	f = &p->facts[p->count++];
	memset(f, 0, sizeof *f);
	f->kind = FACT_BIND;
	f->function = function;
	f->device = a->device;
	f->dest = IR_NO_DEVICE;
	f->bytes = -1;
	f->expr = a->target;
	f->value_expr = PLAN_NONE;
	f->value = xmalloc(n + 2);
	f->value[0] = '%';
	memcpy(f->value + 1, a->name, n + 1);
}

void plan_placement(const IrModule *m, Placement *p)
{
	PlanFunctions functions;
	TransferSet transfers = {0};
	/* the aliases by target: first[id] and next[alias], UINT32_MAX ends */
	uint32_t *first_alias = NULL, *next_alias = NULL;
	memset(p, 0, sizeof *p);
	plan_functions(m, &functions);
	if (m->naliases) {
		first_alias = xmalloc((m->nexprs ? m->nexprs : 1) * sizeof(uint32_t));
		next_alias = xmalloc(m->naliases * sizeof(uint32_t));
		memset(first_alias, 0xff, (m->nexprs ? m->nexprs : 1) * sizeof(uint32_t));
		for (uint32_t i = m->naliases; i-- > 0;) {
			uint32_t t = m->aliases[i].target;
			next_alias[i] = t < m->nexprs ? first_alias[t] : UINT32_MAX;
			if (t < m->nexprs)
				first_alias[t] = i;
		}
	}
	for (size_t k = 0; k < functions.count; k++) {
		const PlanFunction *function = &functions.items[k];
		Expr *fn = function->fn;
		bool global = function->global >= 0;
		const char *fname = intern_function(p, xstrdup(function->name));
		/* A global's parameters and result are its interface; a closure's
		 * parameters are bindings inside it, and its device is that of
		 * the binding that holds it. */
		for (uint32_t i = 0; i < fn->u.fn.nparams; i++) {
			Expr *param = fn->u.fn.params[i];
			add_fact(p, global ? FACT_PARAM : FACT_BIND, fname, param, param->device);
		}
		/* the names of annotations this function held whose value
		 * lives elsewhere (a parameter of an enclosing function) */
		for (uint32_t a = 0; a < m->naliases; a++)
			if (m->aliases[a].fn == fn->id &&
			    (m->aliases[a].target >= m->nexprs ||
			     functions.of[m->aliases[a].target] != k ||
			     is_param_of(fn, m->aliases[a].target)))
				add_alias_fact(p, fname, &m->aliases[a]);
		for (size_t i = 0; i < function->nbody; i++) {
			Expr *e = functions.order.items[function->body + i];
			if (e->kind == EXPR_VAR && e->u.var.role == VAR_FREE)
				add_fact(p, FACT_PARAM, fname, e, e->device);
			else if (e->kind == EXPR_VAR &&
				 (e->u.var.role == VAR_LET || e->u.var.role == VAR_PATTERN) &&
				 !e->name_generated) /* not a copy check bound */
				add_fact(p, FACT_BIND, fname, e, e->device);
			else if (e->name && !e->name_generated && e->kind != EXPR_VAR)
				add_fact(p, FACT_BIND, fname, e, e->device);
			for (uint32_t a = first_alias ? first_alias[e->id] : UINT32_MAX;
			     a != UINT32_MAX; a = next_alias[a])
				if (m->aliases[a].fn == fn->id)
					add_alias_fact(p, fname, &m->aliases[a]);
			if (ir_is_op(e, OP_DEVICE_COPY)) {
				int32_t src, dst;
				/* the value, not which of its names capture's wrapper
				 * took (that depends on the order of the text [P4]) */
				const Expr *value = ir_copy_source(e);
				ir_device_copy_props(e, &src, &dst);
				if (src != dst &&
				    transfer_insert(&transfers, value->id, src, dst)) {
					PlacementFact *f =
						add_fact(p, FACT_COPY, fname, value, src);
					f->dest = dst;
					f->expr = e->id;
					f->value_expr = value->id;
					if (!value->type || !type_bytes(value->type, &f->bytes))
						f->bytes = -1;
				}
			}
		}
		if (global)
			add_fact(p, FACT_RESULT, fname, fn, fn->device);
	}
	plan_functions_free(&functions);
	free(transfers.keys);
	free(first_alias);
	free(next_alias);
}

void plan_placement_free(Placement *p)
{
	for (size_t i = 0; i < p->count; i++)
		free(p->facts[i].value);
	free(p->facts);
	for (size_t i = 0; i < p->nfunctions; i++)
		free(p->function_names[i]);
	free(p->function_names);
	memset(p, 0, sizeof *p);
}

/* ---- reading `placement --json` back ---- */

/* The device-table index of a device name in a placement file, adding the
 * device when the table has none of that name; -1 with *err set. */
static int32_t read_device(json_object *name, DeviceTable *devices, const char *what, char **err)
{
	const char *text;
	int32_t d;
	char *why = NULL;
	if (!name || !json_object_is_type(name, json_type_string)) {
		*err = xasprintf("%s: expected a device name", what);
		return -1;
	}
	text = json_object_get_string(name);
	if ((d = devices_find_name(devices, text)) >= 0)
		return d;
	if ((d = devices_add(devices, text, NULL, &why)) < 0) {
		*err = xasprintf("%s: %s", what, why);
		free(why);
	}
	return d;
}

/* A fact of kind in function, as read from a file, before its fields:
 * nothing in a module (expr PLAN_NONE), no destination, bytes unknown. */
static PlacementFact fact_read_blank(FactKind kind, const char *function)
{
	PlacementFact f;
	memset(&f, 0, sizeof f);
	f.kind = kind;
	f.function = function;
	f.dest = IR_NO_DEVICE;
	f.bytes = -1;
	f.expr = f.value_expr = PLAN_NONE;
	return f;
}

/* Appends one fact read from element `item` of the array of kind `kind` of
 * function `function`; false with *err set. */
static bool read_fact(Placement *p, json_object *item, FactKind kind, const char *function,
		      DeviceTable *devices, char **err)
{
	json_object *value, *field;
	PlacementFact f = fact_read_blank(kind, function);
	char *what;
	bool ok = true;
	if (!json_object_is_type(item, json_type_object) ||
	    !json_object_object_get_ex(item, "value", &value) ||
	    !json_object_is_type(value, json_type_string)) {
		*err = xasprintf("%s: a %s without a \"value\" string", function,
				 plan_fact_kind_name(kind));
		return false;
	}
	what = xasprintf("%s %s %s", function, plan_fact_kind_name(kind),
			 json_object_get_string(value));
	if (kind != FACT_COPY) {
		json_object_object_get_ex(item, "device", &field);
		ok = (f.device = read_device(field, devices, what, err)) >= 0;
	} else {
		json_object_object_get_ex(item, "from", &field);
		ok = (f.device = read_device(field, devices, what, err)) >= 0;
		if (ok) {
			json_object_object_get_ex(item, "to", &field);
			ok = (f.dest = read_device(field, devices, what, err)) >= 0;
		}
		if (ok && json_object_object_get_ex(item, "bytes", &field) && field) {
			if (!json_object_is_type(field, json_type_int) ||
			    json_object_get_int64(field) < 0) {
				*err = xasprintf("%s: \"bytes\" is not a count", what);
				ok = false;
			} else {
				f.bytes = json_object_get_int64(field);
			}
		}
	}
	free(what);
	if (!ok)
		return false;
	f.value = xstrdup(json_object_get_string(value));
	grow_array((void **)&p->facts, &p->cap, p->count + 1, sizeof(PlacementFact));
	p->facts[p->count++] = f;
	return true;
}

/* The facts of one element of "functions"; false with *err set. */
static bool read_function(Placement *p, json_object *fn, DeviceTable *devices, char **err)
{
	static const FactKind kinds[] = {FACT_PARAM, FACT_BIND, FACT_COPY};
	static const char *const arrays[] = {"params", "binds", "copies"};
	json_object *name, *field;
	const char *function;
	if (!json_object_is_type(fn, json_type_object) ||
	    !json_object_object_get_ex(fn, "function", &name) ||
	    !json_object_is_type(name, json_type_string)) {
		*err = xstrdup("a function without a \"function\" name");
		return false;
	}
	function = intern_function(p, xstrdup(json_object_get_string(name)));
	for (size_t a = 0; a < DP_COUNT(kinds); a++) {
		size_t n;
		if (!json_object_object_get_ex(fn, arrays[a], &field))
			continue;
		if (!json_object_is_type(field, json_type_array)) {
			*err = xasprintf("%s: \"%s\" is not an array", function, arrays[a]);
			return false;
		}
		n = json_object_array_length(field);
		for (size_t i = 0; i < n; i++)
			if (!read_fact(p, json_object_array_get_idx(field, i), kinds[a], function,
				       devices, err))
				return false;
	}
	if (json_object_object_get_ex(fn, "result", &field)) {
		PlacementFact f = fact_read_blank(FACT_RESULT, function);
		char *what = xasprintf("%s result", function);
		f.device = read_device(field, devices, what, err);
		free(what);
		if (f.device < 0)
			return false;
		grow_array((void **)&p->facts, &p->cap, p->count + 1, sizeof(PlacementFact));
		p->facts[p->count++] = f;
	}
	return true;
}

bool plan_placement_read_json(const char *text, size_t len, Placement *out, DeviceTable *devices,
			      char **err)
{
	json_tokener *tok = json_tokener_new();
	json_object *doc, *functions;
	bool ok = true;
	memset(out, 0, sizeof *out);
	*err = NULL;
	doc = json_tokener_parse_ex(tok, text, (int)(len > INT32_MAX ? INT32_MAX : len));
	if (!doc || json_tokener_get_error(tok) != json_tokener_success) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		*err = e == json_tokener_continue
			       ? xstrdup("not JSON: the document ends early")
			       : xasprintf("not JSON: %s", json_tokener_error_desc(e));
		ok = false;
	} else if (json_tokener_get_parse_end(tok) +
			   strspn(text + json_tokener_get_parse_end(tok), " \t\r\n") <
		   len) {
		*err = xstrdup("not JSON: text after the document");
		ok = false;
	} else if (!json_object_is_type(doc, json_type_object) ||
		   !json_object_object_get_ex(doc, "functions", &functions) ||
		   !json_object_is_type(functions, json_type_array)) {
		*err = xstrdup("not a placement: no \"functions\" array");
		ok = false;
	} else {
		size_t n = json_object_array_length(functions);
		for (size_t i = 0; i < n && ok; i++)
			ok = read_function(out, json_object_array_get_idx(functions, i), devices,
					   err);
	}
	json_object_put(doc);
	json_tokener_free(tok);
	if (!ok)
		plan_placement_free(out);
	return ok;
}

const char *plan_fact_kind_name(FactKind k)
{
	switch (k) {
	case FACT_PARAM:
		return "param";
	case FACT_BIND:
		return "bind";
	case FACT_RESULT:
		return "result";
	case FACT_COPY:
		return "copy";
	}
	return "?";
}

/*
 * `placement --json` is written as it goes, in exactly the layout of
 * json-c's JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED (test_planner
 * checks this by reparsing and reprinting with json-c): building a json-c
 * object per binding cost a hash table each, 170 ms for 100,000 bindings.
 * Strings are still escaped by json-c.
 */
static void json_indent(StrBuf *out, int level)
{
	for (int i = 0; i < level; i++)
		strbuf_puts(out, "  ");
}

static void json_string(StrBuf *out, const char *text)
{
	json_object *str = json_object_new_string(text);
	strbuf_puts(out, json_object_to_json_string_ext(str, JSON_C_TO_STRING_PLAIN));
	json_object_put(str);
}

/* `"key": ` on a line of its own at level, after a comma unless first. */
static void json_key(StrBuf *out, int level, const char *key, bool first)
{
	strbuf_puts(out, first ? "\n" : ",\n");
	json_indent(out, level);
	strbuf_printf(out, "\"%s\": ", key);
}

/* Opens an element of an array at level (its items at level + 1). */
static void json_element(StrBuf *out, int level, bool first)
{
	strbuf_puts(out, first ? "\n" : ",\n");
	json_indent(out, level);
}

/* Closes an array or object opened at level (json-c breaks the line even
 * when it is empty). */
static void json_close(StrBuf *out, int level, char bracket)
{
	strbuf_putc(out, '\n');
	json_indent(out, level);
	strbuf_putc(out, bracket);
}

/* The facts of one function, facts[from, to), as a JSON object at level 2:
 * its params, binds and copies arrays, then its result. */
static void json_function(StrBuf *out, const PlacementFact *facts, size_t from, size_t to,
			  const char *const *device_json)
{
	static const FactKind array_kinds[] = {FACT_PARAM, FACT_BIND, FACT_COPY};
	static const char *const array_names[] = {"params", "binds", "copies"};
	strbuf_putc(out, '{');
	json_key(out, 3, "function", true);
	json_string(out, facts[from].function);
	for (size_t a = 0; a < DP_COUNT(array_kinds); a++) {
		bool empty = true;
		json_key(out, 3, array_names[a], false);
		strbuf_putc(out, '[');
		for (size_t i = from; i < to; i++) {
			const PlacementFact *f = &facts[i];
			if (f->kind != array_kinds[a])
				continue;
			json_element(out, 4, empty);
			empty = false;
			strbuf_putc(out, '{');
			json_key(out, 5, "value", true);
			json_string(out, f->value);
			if (f->kind == FACT_COPY) {
				json_key(out, 5, "from", false);
				strbuf_puts(out, device_json[f->device]);
				json_key(out, 5, "to", false);
				strbuf_puts(out, device_json[f->dest]);
				json_key(out, 5, "bytes", false);
				if (f->bytes >= 0)
					strbuf_printf(out, "%lld", (long long)f->bytes);
				else
					strbuf_puts(out, "null");
			} else {
				json_key(out, 5, "device", false);
				strbuf_puts(out, device_json[f->device]);
			}
			json_close(out, 4, '}');
		}
		json_close(out, 3, ']');
	}
	for (size_t i = from; i < to; i++)
		if (facts[i].kind == FACT_RESULT) {
			json_key(out, 3, "result", false);
			strbuf_puts(out, device_json[facts[i].device]);
		}
	json_close(out, 2, '}');
}

static void placement_json(StrBuf *out, const Placement *p, const DeviceTable *devices)
{
	/* each device's name, escaped once */
	char **device_json = xcalloc(devices->count ? devices->count : 1, sizeof(char *));
	bool empty = true;
	for (size_t d = 0; d < devices->count; d++) {
		StrBuf sb;
		strbuf_init(&sb);
		json_string(&sb, devices_name(devices, (int32_t)d));
		device_json[d] = strbuf_detach(&sb);
	}
	strbuf_putc(out, '{');
	json_key(out, 1, "functions", true);
	strbuf_putc(out, '[');
	for (size_t i = 0; i < p->count;) {
		size_t end = i + 1;
		while (end < p->count && p->facts[end].function == p->facts[i].function)
			end++;
		json_element(out, 2, empty);
		empty = false;
		json_function(out, p->facts, i, end, (const char *const *)device_json);
		i = end;
	}
	json_close(out, 1, ']');
	json_close(out, 0, '}');
	strbuf_putc(out, '\n');
	for (size_t d = 0; d < devices->count; d++)
		free(device_json[d]);
	free(device_json);
}

void plan_placement_format(StrBuf *out, const Placement *p, const DeviceTable *devices, bool json)
{
	if (json) {
		placement_json(out, p, devices);
		return;
	}
	for (size_t i = 0; i < p->count; i++) {
		plan_fact_format(out, &p->facts[i], devices);
		strbuf_putc(out, '\n');
	}
}

void plan_fact_format(StrBuf *out, const PlacementFact *f, const DeviceTable *devices)
{
	/* plain appends: this runs once per binding of the module */
	strbuf_puts(out, f->function);
	strbuf_putc(out, ' ');
	strbuf_puts(out, plan_fact_kind_name(f->kind));
	if (f->value) {
		strbuf_putc(out, ' ');
		strbuf_puts(out, f->value);
	}
	strbuf_putc(out, ' ');
	strbuf_puts(out, devices_name(devices, f->device));
	if (f->kind == FACT_COPY) {
		strbuf_printf(out, " -> %s", devices_name(devices, f->dest));
		if (f->bytes >= 0)
			strbuf_printf(out, " %lld", (long long)f->bytes);
		else
			strbuf_puts(out, " ?");
	}
}

/* ---- verify ---- */

typedef struct Verifier {
	const IrModule *m;
	const DeviceTable *devices;
	DiagList *diags;
	size_t errors;
	uint8_t *lowered_args; /* plan_lowered_argument_tuples, or NULL */
	uint8_t *primitive;    /* plan_primitive_bodies, or NULL */
} Verifier;

static void edge_error(Verifier *v, const Expr *consumer, const Expr *child, int32_t want,
		       const char *what)
{
	StrBuf a, b;
	strbuf_init(&a);
	strbuf_init(&b);
	ir_value_name(&a, child);
	ir_value_name(&b, consumer);
	diag_error(v->diags, v->m->src, consumer->pos,
		   "cross-device edge without a device_copy: %s on %s is %s %s on %s", a.data,
		   devices_name(v->devices, child->device), what, b.data,
		   devices_name(v->devices, want));
	strbuf_free(&a);
	strbuf_free(&b);
	v->errors++;
}

static void check_edge(Verifier *v, const Expr *consumer, const Expr *child, int32_t want,
		       const char *what)
{
	if (child->kind == EXPR_FN || child->kind == EXPR_GLOBAL || child->kind == EXPR_OP_VALUE)
		return; /* a closure lives where its result lives; checked at its body;
			   an operator or constructor is device-polymorphic */
	if (child->device != want)
		edge_error(v, consumer, child, want, what);
}

/* An edge to a device written in the module (the host TVM keeps shapes on,
 * an allocation's virtual_device): the child may be there or in a memory
 * scope of that device, which the written device, having none, joins. */
static void check_edge_refined(Verifier *v, const Expr *consumer, const Expr *child, int32_t want,
			       const char *what)
{
	if (child->kind == EXPR_FN || child->kind == EXPR_GLOBAL)
		return;
	if (child->device != want && devices_join(v->devices, want, child->device) != child->device)
		edge_error(v, consumer, child, want, what);
}

static const Expr *callee_function(const IrModule *m, const Expr *callee)
{
	if (callee->kind == EXPR_FN)
		return callee;
	if (callee->kind == EXPR_GLOBAL && callee->u.global.index >= 0)
		return m->globals[callee->u.global.index].fn;
	if (callee->kind == EXPR_VAR && callee->u.var.value && callee->u.var.value->kind == EXPR_FN)
		return callee->u.var.value;
	return NULL;
}

/* call_lowered(@f, (args)): each field on its parameter's device, the
 * result on @f's, as a call of @f. */
static void verify_call_lowered(Verifier *v, const Expr *e)
{
	const Expr *fn, *tuple;
	if (e->u.call.nargs != 2 || e->u.call.args[1]->kind != EXPR_TUPLE)
		return;
	fn = callee_function(v->m, e->u.call.args[0]);
	tuple = e->u.call.args[1];
	if (!fn)
		return;
	for (uint32_t i = 0; i < tuple->u.tuple.nfields && i < fn->u.fn.nparams; i++)
		check_edge(v, e, tuple->u.tuple.fields[i], fn->u.fn.params[i]->device,
			   "an argument of");
	if (fn->device != e->device)
		edge_error(v, e, e, fn->device, "the result of");
}

static void verify_node(Verifier *v, const Expr *e)
{
	if (e->device == IR_NO_DEVICE) {
		StrBuf s;
		strbuf_init(&s);
		ir_value_name(&s, e);
		diag_error(v->diags, v->m->src, e->pos, "%s has no device", s.data);
		strbuf_free(&s);
		v->errors++;
		return;
	}
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
		return;
	case EXPR_CALL:
		if (e->u.call.op == OP_DEVICE_COPY) {
			int32_t src, dst;
			ir_device_copy_props(e, &src, &dst);
			check_edge(v, e, e->u.call.args[0], src, "the source of");
			if (e->device != dst)
				edge_error(v, e, e, dst, "the result of");
		} else if (e->u.call.op == OP_ON_DEVICE) {
			int32_t device;
			bool body, result;
			ir_on_device_props(e, &device, &body, &result);
			/* TVM neither reads nor writes one inside a fused kernel */
			if (body && !(v->primitive && v->primitive[e->id]))
				check_edge(v, e, e->u.call.args[0], device, "annotated for");
			check_edge(v, e, e->u.call.args[0], e->device, "the body of");
		} else if (e->u.call.op != OP_NONE) {
			int32_t host = plan_host_device(v->devices);
			for (uint32_t i = 0; i < e->u.call.nargs; i++) {
				int32_t want = plan_op_operand_device(e, i, host);
				if (want == host && want != e->device)
					check_edge_refined(v, e, e->u.call.args[i], want,
							   "an operand of");
				else if (want != IR_NO_DEVICE)
					check_edge(v, e, e->u.call.args[i], want, "an operand of");
			}
			if (e->u.call.op == OP_VM_SHAPE_OF && host != IR_NO_DEVICE)
				check_edge_refined(v, e, e, host, "the result of");
			if (e->u.call.op == OP_CALL_LOWERED)
				verify_call_lowered(v, e);
			if (e->u.call.op == OP_MEMORY_ALLOC_STORAGE) {
				const Attr *a = ir_attr(e, "virtual_device");
				if (a && a->value.kind == ATTR_DEVICE)
					check_edge_refined(v, e, e, a->value.u.device,
							   "the result of");
			}
		} else {
			const Expr *fn = callee_function(v->m, e->u.call.callee);
			if (fn) {
				for (uint32_t i = 0; i < e->u.call.nargs && i < fn->u.fn.nparams;
				     i++)
					check_edge(v, e, e->u.call.args[i],
						   fn->u.fn.params[i]->device, "an argument of");
				if (fn->device != e->device)
					edge_error(v, e, e, fn->device, "the result of");
			}
		}
		return;
	case EXPR_LET:
		check_edge(v, e, e->u.let.value, e->u.let.var->device, "bound by");
		check_edge(v, e, e->u.let.body, e->device, "the body of");
		return;
	case EXPR_FN:
		check_edge(v, e, e->u.fn.body, e->device, "the result of");
		return;
	case EXPR_TUPLE:
		if (v->lowered_args && v->lowered_args[e->id])
			return; /* verify_call_lowered checks each field */
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			check_edge(v, e, e->u.tuple.fields[i], e->device, "a field of");
		return;
	case EXPR_PROJ:
		check_edge(v, e, e->u.proj.tuple, e->device, "projected by");
		return;
	case EXPR_IF:
		check_edge(v, e, e->u.if_.cond, e->device, "the condition of");
		check_edge(v, e, e->u.if_.then_branch, e->device, "a branch of");
		check_edge(v, e, e->u.if_.else_branch, e->device, "a branch of");
		return;
	case EXPR_CONSTRUCT:
		for (uint32_t i = 0; i < e->u.construct.nargs; i++)
			check_edge(v, e, e->u.construct.args[i], e->device, "a field of");
		return;
	case EXPR_MATCH:
		check_edge(v, e, e->u.match.scrutinee, e->device, "matched by");
		for (uint32_t i = 0; i < e->u.match.nvars; i++)
			check_edge(v, e, e->u.match.vars[i], e->u.match.scrutinee->device,
				   "a pattern variable of");
		for (uint32_t k = 0; k < e->u.match.nclauses; k++)
			check_edge(v, e, e->u.match.bodies[k], e->device, "a clause of");
		return;
	}
}

/* TVM reads every node of the printed plan where it was planned
 * (lexical.h): a node TVM recovers a device for has that device. */
static void verify_lexical(Verifier *v, const ExprVec *all)
{
	int16_t *lexical = ir_lexical_devices(v->m);
	for (size_t i = 0; i < all->count && v->errors < 50; i++) {
		const Expr *e = all->items[i];
		int16_t read = lexical[e->id];
		StrBuf s;
		if (read == IR_NO_DEVICE || read == e->device)
			continue;
		strbuf_init(&s);
		ir_value_name(&s, e);
		if (read == IR_LEXICAL_AMBIGUOUS)
			diag_error(v->diags, v->m->src, e->pos,
				   "TVM would read %s as on two devices: it is shared by places "
				   "of the text in different device scopes",
				   s.data);
		else
			diag_error(v->diags, v->m->src, e->pos,
				   "TVM would read %s as on %s (its innermost fixed on_device or "
				   "function), but it is planned on %s",
				   s.data, devices_name(v->devices, read),
				   devices_name(v->devices, e->device));
		strbuf_free(&s);
		v->errors++;
	}
	free(lexical);
}

bool plan_verify(const IrModule *m, const DeviceTable *devices, DiagList *diags)
{
	Verifier v = {m, devices, diags, 0, NULL, NULL};
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	ExprVec all = {0};
	for (uint32_t g = 0; g < m->nglobals; g++)
		ir_postorder(m, m->globals[g].fn, true, seen, &all);
	v.lowered_args = plan_lowered_argument_tuples(all.items, all.count, m->nexprs);
	v.primitive = plan_primitive_bodies(all.items, all.count, m->nexprs);
	for (size_t i = 0; i < all.count && v.errors < 50; i++)
		verify_node(&v, all.items[i]);
	if (!v.errors)
		verify_lexical(&v, &all);
	exprvec_free(&all);
	free(seen);
	free(v.lowered_args);
	free(v.primitive);
	return v.errors == 0;
}

/* ---- why ---- */

/* The domains as a graph: an edge both ways for each applied constraint
 * between two domains, for each pair of matching children of two
 * unified function domains, and from a first-order leaf to each part of
 * the function domain it collapsed, labelled with the constraint. The edges of
 * domain d are adj[2k] (the other domain) and adj[2k + 1] (the constraint)
 * for k in [start[d], start[d + 1]). */
typedef struct DomainGraph {
	uint32_t *start; /* ndomains + 1 */
	uint32_t *adj;
} DomainGraph;

/* Whether constraint c unifies two function domains child by child. */
static bool unifies_children(const PlanAnalysis *an, const Constraint *c)
{
	return an->domains[c->a].nchildren &&
	       an->domains[c->a].nchildren == an->domains[c->b].nchildren;
}

static uint32_t graph_root(const PlanAnalysis *an, uint32_t d)
{
	while (an->domains[d].parent != d)
		d = an->domains[d].parent;
	return d;
}

/* The function domain (a root) that constraint c collapsed onto a
 * first-order leaf (a closure in a tuple, say), with that leaf's side of
 * c in *leaf; PLAN_NONE when c did not. */
static uint32_t collapsed_function(const PlanAnalysis *an, const Constraint *c, uint32_t *leaf)
{
	uint32_t ra = graph_root(an, c->a), rb = graph_root(an, c->b);
	bool fa = an->domains[ra].nchildren, fb = an->domains[rb].nchildren;
	if (fa == fb)
		return PLAN_NONE;
	*leaf = fa ? c->b : c->a;
	return fa ? ra : rb;
}

static void domain_graph_build(const PlanAnalysis *an, DomainGraph *g)
{
	size_t nd = an->ndomains, nedges = 0;
	uint32_t *fill, fn, leaf;
	/* count each domain's edges, then place them */
	g->start = xcalloc(nd + 1, sizeof(uint32_t));
	for (size_t i = 0; i < an->nconstraints; i++) {
		const Constraint *c = &an->constraints[i];
		if (!an->applied[i] || c->b == PLAN_NONE)
			continue;
		g->start[c->a + 1]++;
		g->start[c->b + 1]++;
		nedges += 2;
		if (unifies_children(an, c))
			for (uint32_t k = 0; k < an->domains[c->a].nchildren; k++) {
				g->start[an->children[an->domains[c->a].children + k] + 1]++;
				g->start[an->children[an->domains[c->b].children + k] + 1]++;
				nedges += 2;
			}
		if ((fn = collapsed_function(an, c, &leaf)) != PLAN_NONE)
			for (uint32_t k = 0; k < an->domains[fn].nchildren; k++) {
				g->start[leaf + 1]++;
				g->start[an->children[an->domains[fn].children + k] + 1]++;
				nedges += 2;
			}
	}
	for (size_t d = 0; d < nd; d++)
		g->start[d + 1] += g->start[d];
	g->adj = xmalloc((nedges + 1) * 2 * sizeof(uint32_t));
	fill = xmalloc((nd + 1) * sizeof(uint32_t));
	memcpy(fill, g->start, (nd + 1) * sizeof(uint32_t));
#define ADD_EDGE(x, y, ci)                        \
	do {                                      \
		g->adj[2 * fill[x]] = (y);        \
		g->adj[2 * fill[x]++ + 1] = (ci); \
	} while (0)
	for (size_t i = 0; i < an->nconstraints; i++) {
		const Constraint *c = &an->constraints[i];
		if (!an->applied[i] || c->b == PLAN_NONE)
			continue;
		ADD_EDGE(c->a, c->b, (uint32_t)i);
		ADD_EDGE(c->b, c->a, (uint32_t)i);
		if (unifies_children(an, c))
			for (uint32_t k = 0; k < an->domains[c->a].nchildren; k++) {
				uint32_t x = an->children[an->domains[c->a].children + k];
				uint32_t y = an->children[an->domains[c->b].children + k];
				ADD_EDGE(x, y, (uint32_t)i);
				ADD_EDGE(y, x, (uint32_t)i);
			}
		/* a collapse joined the leaf to every part of the function */
		if ((fn = collapsed_function(an, c, &leaf)) != PLAN_NONE)
			for (uint32_t k = 0; k < an->domains[fn].nchildren; k++) {
				uint32_t y = an->children[an->domains[fn].children + k];
				ADD_EDGE(leaf, y, (uint32_t)i);
				ADD_EDGE(y, leaf, (uint32_t)i);
			}
	}
#undef ADD_EDGE
	free(fill);
}

static void domain_graph_free(DomainGraph *g)
{
	free(g->start);
	free(g->adj);
}

/* A bind that only restates a decision made elsewhere: a device_copy or
 * on_device check inserted (ids at or above inserted_from) is on the
 * devices check chose for it, and a conflict's home is check's choice.
 * `why` looks past them for the annotation, pin, fallback or rule behind
 * the placement, and ends at one only when nothing else reaches. */
static bool bind_is_consequence(const PlanAnalysis *an, const Constraint *c, uint32_t inserted_from)
{
	bool inserted_site = inserted_from && c->site != PLAN_NONE && c->site >= inserted_from &&
			     c->site < an->nexprs;
	if (c->kind == CONSTRAINT_CONFLICT_HOME || c->kind == CONSTRAINT_CONFLICT_MEET)
		return true;
	return inserted_site &&
	       (c->kind == CONSTRAINT_COPY_SOURCE || c->kind == CONSTRAINT_COPY_DEST ||
		c->kind == CONSTRAINT_ON_DEVICE_BODY || c->kind == CONSTRAINT_ON_DEVICE_RESULT);
}

/* Where the search from a domain ended: `found`, the nearest domain that a
 * bind constraint touches directly, and `bind`, that constraint (both
 * PLAN_NONE when no bind is reachable); prev_domain and prev_constraint
 * lead back from each domain reached to the start. */
typedef struct ExplainPath {
	uint32_t found, bind;
	uint32_t *prev_domain, *prev_constraint;
} ExplainPath;

/* Which domain a bind constraint touches directly, for one (want,
 * consequences) of explain_search: the same for every search of an
 * analysis, so an explainer makes each once. */
typedef struct ExplainBinds {
	int32_t want;
	uint32_t inserted_from;
	bool consequences;
	uint32_t *bind_of; /* by domain: the first such constraint, or PLAN_NONE */
} ExplainBinds;

/* What the searches of one analysis share: its domain graph, the binds,
 * and the search's arrays, kept all PLAN_NONE between searches (a search
 * puts back only what it touched, so each costs what it visits, not the
 * number of domains). */
struct PlanExplainer {
	PlanAnalysis *an;
	DomainGraph g;
	ExplainBinds *binds;
	size_t nbinds;
	uint32_t *prev_domain, *prev_constraint, *queue;
	size_t nqueued; /* the domains the last search visited, in queue */
};

static const uint32_t *explain_binds(PlanExplainer *x, int32_t want, uint32_t inserted_from,
				     bool consequences)
{
	const PlanAnalysis *an = x->an;
	uint32_t *bind_of;
	for (size_t i = 0; i < x->nbinds; i++)
		if (x->binds[i].want == want && x->binds[i].consequences == consequences &&
		    x->binds[i].inserted_from == inserted_from)
			return x->binds[i].bind_of;
	bind_of = xmalloc((an->ndomains + 1) * sizeof(uint32_t));
	memset(bind_of, 0xff, (an->ndomains + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < an->nconstraints; i++) {
		const Constraint *c = &an->constraints[i];
		if (an->applied[i] && c->b == PLAN_NONE &&
		    (want == IR_NO_DEVICE || c->device == want) && bind_of[c->a] == PLAN_NONE &&
		    (consequences || !bind_is_consequence(an, c, inserted_from)))
			bind_of[c->a] = (uint32_t)i;
	}
	x->binds = xrealloc(x->binds, (x->nbinds + 1) * sizeof *x->binds);
	x->binds[x->nbinds++] = (ExplainBinds){want, inserted_from, consequences, bind_of};
	return bind_of;
}

/* Breadth first from start, so the chain found is a shortest one, to a
 * bind to `want` (the class's device: a class bound to a device without a
 * memory scope and to a scope of it is on the scope, devices_join), or to
 * any bind when want is IR_NO_DEVICE. A bind that is a consequence
 * (bind_is_consequence) counts only when `consequences` is set. The path
 * borrows x's arrays until explain_path_free. */
static void explain_search(PlanExplainer *x, uint32_t start, int32_t want, uint32_t inserted_from,
			   bool consequences, ExplainPath *p)
{
	const DomainGraph *g = &x->g;
	const uint32_t *bind_of = explain_binds(x, want, inserted_from, consequences);
	size_t head = 0, tail = 0;
	p->found = p->bind = PLAN_NONE;
	p->prev_domain = x->prev_domain;
	p->prev_constraint = x->prev_constraint;
	x->queue[tail++] = start;
	p->prev_domain[start] = start;
	while (head < tail) {
		uint32_t d = x->queue[head++];
		if (bind_of[d] != PLAN_NONE) {
			p->found = d;
			p->bind = bind_of[d];
			break;
		}
		for (uint32_t k = g->start[d]; k < g->start[d + 1]; k++) {
			uint32_t y = g->adj[2 * k];
			if (p->prev_domain[y] != PLAN_NONE)
				continue;
			p->prev_domain[y] = d;
			p->prev_constraint[y] = g->adj[2 * k + 1];
			x->queue[tail++] = y;
		}
	}
	x->nqueued = tail;
}

/* Puts back what the last search touched. */
static void explain_path_free(PlanExplainer *x)
{
	for (size_t i = 0; i < x->nqueued; i++)
		x->prev_domain[x->queue[i]] = PLAN_NONE;
	x->nqueued = 0;
}

/* What kind of reason a bind is, for the chain's last line. */
static const char *bind_reason(const Constraint *c, const PlanTrace *trace)
{
	if (trace &&
	    (c->kind == CONSTRAINT_ON_DEVICE_BODY || c->kind == CONSTRAINT_ON_DEVICE_RESULT) &&
	    c->value >= trace->pin_wrappers_from && c->value < trace->pin_wrappers_to)
		return "a pin (--body, which rewrite writes as this on_device; 'pin' alone lists "
		       "them)";
	switch (c->kind) {
	case CONSTRAINT_PIN:
		return "a pin ('pin' alone lists them)";
	case CONSTRAINT_ON_DEVICE_BODY:
	case CONSTRAINT_ON_DEVICE_RESULT:
		return "an on_device annotation";
	case CONSTRAINT_COPY_SOURCE:
	case CONSTRAINT_COPY_DEST:
		return "a device_copy written in the module";
	case CONSTRAINT_PARAM_DEVICE:
	case CONSTRAINT_FN_DEVICE:
		return "a virtual_device written in the module";
	case CONSTRAINT_DEFAULT_RESULT:
	case CONSTRAINT_DEFAULT_CALL:
	case CONSTRAINT_DEFAULT_OTHER:
		return "the fallback device ('set fallback')";
	case CONSTRAINT_DEFAULT_PARAM:
	case CONSTRAINT_DEFAULT_LET:
	case CONSTRAINT_DEFAULT_SHARED:
	case CONSTRAINT_FREE_ON_DEVICE:
		return "defaulting, by TVM's rules for what nothing constrains";
	case CONSTRAINT_MIN_TRANSFER:
		return "'set placement min-transfer'";
	case CONSTRAINT_HOST_RESULT:
	case CONSTRAINT_HOST_OPERAND:
		return "the rule that shapes live on the host";
	case CONSTRAINT_ALLOC_DEVICE:
		return "the rule that storage is where it is allocated";
	case CONSTRAINT_SCOPE_JOIN:
		return "the rule that a device without a memory scope takes the scope met";
	case CONSTRAINT_CONFLICT_HOME:
	case CONSTRAINT_CONFLICT_MEET:
		return "check, resolving a conflict";
	case CONSTRAINT_OP_ARG: /* these unify; none binds */
	case CONSTRAINT_CALL_ARG:
	case CONSTRAINT_CALL_RESULT:
	case CONSTRAINT_CALLEE:
	case CONSTRAINT_LET_VAR:
	case CONSTRAINT_LET_BODY:
	case CONSTRAINT_FN_BODY:
	case CONSTRAINT_FN_PARAM:
	case CONSTRAINT_PRIMITIVE_PARAM:
	case CONSTRAINT_TUPLE_FIELD:
	case CONSTRAINT_PROJ:
	case CONSTRAINT_IF_COND:
	case CONSTRAINT_IF_BRANCH:
	case CONSTRAINT_GLOBAL:
	case CONSTRAINT_CONSTRUCT_ARG:
	case CONSTRAINT_MATCH_SCRUTINEE:
	case CONSTRAINT_PATTERN_VAR:
	case CONSTRAINT_MATCH_CLAUSE:
		break;
	}
	return "a constraint of the planner";
}

/* The value a consequence is about: the source of the copy or the body of
 * the on_device check inserted, or the conflicting value itself. */
static uint32_t consequence_value(const PlanAnalysis *an, const Constraint *c)
{
	const Expr *site = c->site < an->nexprs ? an->by_id[c->site] : NULL;
	if (c->kind == CONSTRAINT_CONFLICT_HOME || c->kind == CONSTRAINT_CONFLICT_MEET)
		return c->value;
	if (!site || site->kind != EXPR_CALL || site->u.call.nargs == 0)
		return PLAN_NONE;
	site = ir_is_op(site, OP_DEVICE_COPY) ? ir_copy_source(site) : site->u.call.args[0];
	return site->id;
}

void plan_conflict_devices(StrBuf *out, const PlanConflict *c, const DeviceTable *devices)
{
	for (size_t k = 0; k < c->ndemands; k++)
		strbuf_printf(out, "%s%s",
			      k == 0                 ? ""
			      : k + 1 == c->ndemands ? " and "
						     : ", ",
			      devices_name(devices, c->demands[k].device));
}

/* A chain that could only end at a consequence: the conflict check
 * resolved, with the rule that chose the device and what demanded it. */
static void explain_consequence(StrBuf *out, const PlanAnalysis *an, const DeviceTable *devices,
				const PlanTrace *trace, uint32_t bind)
{
	const Constraint *c = &an->constraints[bind];
	uint32_t value = consequence_value(an, c);
	for (size_t i = 0; trace && value != PLAN_NONE && i < trace->nconflicts; i++) {
		const PlanConflict *pc = &trace->conflicts[i];
		if (pc->value != value)
			continue;
		strbuf_printf(out, "  check: %s is needed on ", pc->value_name);
		plan_conflict_devices(out, pc, devices);
		for (size_t k = 0; k < pc->ndemands; k++)
			if (pc->demands[k].device == c->device)
				strbuf_printf(out, "\n    %s: %s", devices_name(devices, c->device),
					      pc->demands[k].source_text);
		if (pc->home != IR_NO_DEVICE && pc->home_reason)
			strbuf_printf(out,
				      "\n  decided by: check, resolving the conflict: %s stays on "
				      "%s, %s\n",
				      pc->value_name, devices_name(devices, pc->home),
				      pc->home_reason);
		else
			strbuf_puts(out, "\n  decided by: check, resolving the conflict\n");
		return;
	}
	strbuf_printf(out, "  decided by: %s\n", bind_reason(c, trace));
}

/* "NAME is on DEVICE:" and the chain from the start to the bind, one
 * constraint a line; the middle of a very long chain is elided (and said
 * so); then which reason it ends at. */
static void explain_print(StrBuf *out, PlanAnalysis *an, const DeviceTable *devices,
			  const PlanTrace *trace, uint32_t inserted_from, const char *name,
			  uint32_t start, const ExplainPath *p)
{
	enum { EXPLAIN_ENDS = 32 };
	int32_t dev = plan_domain_device(an, start);
	uint32_t *steps = NULL;
	size_t nsteps = 0, cap = 0;
	if (p->found == PLAN_NONE && dev == IR_NO_DEVICE) {
		strbuf_printf(out, "%s is free (nothing constrains it yet)\n", name);
		return;
	}
	if (p->found == PLAN_NONE) {
		strbuf_printf(out, "%s is on %s (nothing constrains it)\n", name,
			      devices_name(devices, dev));
		return;
	}
	/* walk back from the bind to the start; print forwards */
	for (uint32_t d = p->found; d != start; d = p->prev_domain[d]) {
		grow_array((void **)&steps, &cap, nsteps + 1, sizeof(uint32_t));
		steps[nsteps++] = p->prev_constraint[d];
	}
	strbuf_printf(out, "%s is on %s:\n", name, devices_name(devices, dev));
	for (size_t i = nsteps; i-- > 0;) {
		if (nsteps > 2 * EXPLAIN_ENDS && i == nsteps - EXPLAIN_ENDS - 1) {
			strbuf_printf(out, "  ... %zu more steps ...\n", nsteps - 2 * EXPLAIN_ENDS);
			i = EXPLAIN_ENDS;
			continue;
		}
		strbuf_puts(out, "  ");
		plan_constraint_describe(out, an, steps[i], devices);
		strbuf_putc(out, '\n');
	}
	free(steps);
	strbuf_puts(out, "  ");
	plan_constraint_describe(out, an, p->bind, devices);
	strbuf_putc(out, '\n');
	if (bind_is_consequence(an, &an->constraints[p->bind], inserted_from))
		explain_consequence(out, an, devices, trace, p->bind);
	else
		strbuf_printf(out, "  decided by: %s\n",
			      bind_reason(&an->constraints[p->bind], trace));
}

/* The chain of constraints from e's domain to the nearest bind that is a
 * reason (not a copy check inserted), found breadth first over the graph
 * of the applied constraints: to its own device first, then to any. */
PlanExplainer *plan_explainer_new(PlanAnalysis *an)
{
	PlanExplainer *x = xcalloc(1, sizeof *x);
	size_t nd = an->ndomains + 1;
	x->an = an;
	domain_graph_build(an, &x->g);
	x->prev_domain = xmalloc(nd * sizeof(uint32_t));
	x->prev_constraint = xmalloc(nd * sizeof(uint32_t));
	x->queue = xmalloc(nd * sizeof(uint32_t));
	memset(x->prev_domain, 0xff, nd * sizeof(uint32_t));
	return x;
}

void plan_explainer_free(PlanExplainer *x)
{
	if (!x)
		return;
	domain_graph_free(&x->g);
	for (size_t i = 0; i < x->nbinds; i++)
		free(x->binds[i].bind_of);
	free(x->binds);
	free(x->prev_domain);
	free(x->prev_constraint);
	free(x->queue);
	free(x);
}

void plan_explainer_explain(PlanExplainer *x, StrBuf *out, const Expr *e,
			    const DeviceTable *devices, const PlanTrace *trace)
{
	PlanAnalysis *an = x->an;
	uint32_t start, inserted_from = trace ? trace->check_nexprs : 0;
	ExplainPath path;
	StrBuf name;
	if (e->id >= an->nexprs || an->expr_domain[e->id] == PLAN_NONE) {
		strbuf_puts(out, "no device constraint mentions it\n");
		return;
	}
	start = an->expr_domain[e->id];
	strbuf_init(&name);
	ir_value_name(&name, e);
	/* a reason on its device, a consequence on it, a reason anywhere */
	for (int pass = 0; pass < 3; pass++) {
		explain_search(x, start, pass < 2 ? plan_domain_device(an, start) : IR_NO_DEVICE,
			       inserted_from, pass == 1, &path);
		if (path.found != PLAN_NONE || pass == 2)
			break;
		explain_path_free(x);
	}
	explain_print(out, an, devices, trace, inserted_from, name.data, start, &path);
	explain_path_free(x);
	strbuf_free(&name);
}

void plan_explain(StrBuf *out, PlanAnalysis *an, const Expr *e, const DeviceTable *devices,
		  const PlanTrace *trace)
{
	PlanExplainer *x;
	if (e->id >= an->nexprs || an->expr_domain[e->id] == PLAN_NONE) {
		strbuf_puts(out, "no device constraint mentions it\n");
		return;
	}
	x = plan_explainer_new(an);
	plan_explainer_explain(x, out, e, devices, trace);
	plan_explainer_free(x);
}
