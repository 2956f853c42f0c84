/*
 * relax_print.c - the TVMScript printer (see relax_print.h).
 *
 * Names: TVM's printer gives each variable its name hint and, when a
 * variable of the same function already has that name, the first free
 * NAME_1, NAME_2, ...; names is that table, by variable id, filled as the
 * definitions are printed (parameters, then bindings in order).
 */
#include "relax_print.h"

#include <stdlib.h>
#include <string.h>

#include "relax_infer.h"
#include "relax_syntax.h"
#include "util.h"

typedef struct Printer {
	const RxModule *m;
	StrBuf *out;
	char **names; /* by variable id: the printed name (owned) */
	char **used;  /* open-addressing set of the function's names */
	size_t used_cap, used_count;
	bool devices;     /* `ir --devices`: each binding's vdevice as a comment */
	const int *known; /* by variable id below nknown: placed so far, or -1 */
	uint32_t nknown;
} Printer;

/* v's vdevice for `ir --devices`: its type's, else where the propagation
 * placed it so far, else none. */
static void device_name(Printer *pr, const RxVar *v)
{
	int vdevice = -1;
	if (v->type && v->type->kind == RX_TYPE_TENSOR)
		vdevice = v->type->vdevice;
	if (vdevice < 0 && pr->known && v->id < pr->nknown)
		vdevice = pr->known[v->id];
	if (vdevice < 0)
		strbuf_puts(pr->out, "none");
	else
		relax_vdevice_name(pr->m, vdevice, pr->out);
}

/* `  # vdevice: NAME` after a binding. */
static void device_comment(Printer *pr, const RxVar *v)
{
	if (!pr->devices)
		return;
	strbuf_puts(pr->out, "  # vdevice: ");
	device_name(pr, v);
}

static bool name_used(const Printer *pr, const char *name, size_t *slot)
{
	size_t i = (size_t)hash_bytes(name, strlen(name)) & (pr->used_cap - 1);
	while (pr->used[i]) {
		if (strcmp(pr->used[i], name) == 0)
			return *slot = i, true;
		i = (i + 1) & (pr->used_cap - 1);
	}
	*slot = i;
	return false;
}

static void use_name(Printer *pr, char *name)
{
	size_t slot;
	if ((pr->used_count + 1) * 2 > pr->used_cap) {
		char **old = pr->used;
		size_t old_cap = pr->used_cap;
		pr->used_cap = old_cap ? old_cap * 2 : 64;
		pr->used = xcalloc(pr->used_cap, sizeof *pr->used);
		for (size_t i = 0; i < old_cap; i++)
			if (old[i] && !name_used(pr, old[i], &slot))
				pr->used[slot] = old[i];
		free(old);
	}
	if (!name_used(pr, name, &slot)) {
		pr->used[slot] = name;
		pr->used_count++;
	}
}

static void forget_names(Printer *pr)
{
	free(pr->used);
	pr->used = NULL;
	pr->used_cap = pr->used_count = 0;
}

/* Gives v its printed name: its own, or the first free NAME_k. */
static void define_var(Printer *pr, const RxVar *v)
{
	size_t slot;
	char *name = xstrdup(v->name);
	for (int k = 1; pr->used && name_used(pr, name, &slot); k++) {
		free(name);
		name = xasprintf("%s_%d", v->name, k);
	}
	free(pr->names[v->id]);
	pr->names[v->id] = name;
	use_name(pr, name);
}

static const char *var_name(const Printer *pr, const RxVar *v)
{
	return pr->names[v->id] ? pr->names[v->id] : v->name;
}

static void indent(Printer *pr, int level)
{
	for (int i = 0; i < level; i++)
		strbuf_puts(pr->out, "    ");
}

void relax_print_type(StrBuf *out, const RxModule *m, const RxType *t)
{
	switch (t->kind) {
	case RX_TYPE_TENSOR: {
		bool comma = false;
		if (!t->shape && !t->dtype && t->ndim < 0 && t->vdevice < 0) {
			strbuf_puts(out, "R.Tensor"); /* nothing known */
			return;
		}
		strbuf_puts(out, "R.Tensor(");
		if (t->shape) {
			py_print(out, t->shape);
			comma = true;
		}
		if (t->dtype) {
			strbuf_printf(out, "%sdtype=\"%s\"", comma ? ", " : "", t->dtype);
			comma = true;
		}
		if (!t->shape && t->ndim >= 0) {
			strbuf_printf(out, "%sndim=%d", comma ? ", " : "", t->ndim);
			comma = true;
		}
		if (t->vdevice >= 0) {
			strbuf_printf(out, "%svdevice=\"", comma ? ", " : "");
			relax_vdevice_name(m, t->vdevice, out);
			strbuf_putc(out, '"');
		}
		strbuf_putc(out, ')');
		return;
	}
	case RX_TYPE_TUPLE:
		if (!t->listed)
			strbuf_puts(out, "R.Tuple");
		if (t->nfields == 0 && !t->listed)
			return;
		strbuf_putc(out, t->listed ? '[' : '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				strbuf_puts(out, ", ");
			relax_print_type(out, m, t->fields[i]);
		}
		strbuf_putc(out, t->listed ? ']' : ')');
		return;
	case RX_TYPE_PRIM:
	case RX_TYPE_OTHER:
		py_print(out, t->text);
		return;
	}
}

static void print_expr(Printer *pr, const RxExpr *e, bool bare_tuple);

static void print_list(Printer *pr, RxExpr *const *items, uint32_t n, bool *comma)
{
	for (uint32_t i = 0; i < n; i++) {
		if (*comma)
			strbuf_puts(pr->out, ", ");
		print_expr(pr, items[i], false);
		*comma = true;
	}
}

/* Keyword arguments TVM prints even when the source left them out. */
static void print_default_kwargs(Printer *pr, const RxExpr *call, bool *comma)
{
	static const struct {
		const char *op, *key, *value;
	} defaults[] = {
		{"R.matmul", "out_dtype", "None"},
		{"R.concat", "axis", "0"},
	};
	for (size_t i = 0; i < DP_COUNT(defaults); i++) {
		bool given = false;
		if (strcmp(call->name, defaults[i].op) != 0)
			continue;
		for (uint32_t k = 0; k < call->nkwargs; k++)
			given |= strcmp(call->keys[k], defaults[i].key) == 0;
		if (!given) {
			strbuf_printf(pr->out, "%s%s=%s", *comma ? ", " : "", defaults[i].key,
				      defaults[i].value);
			*comma = true;
		}
	}
}

static void print_call(Printer *pr, const RxExpr *call)
{
	StrBuf *out = pr->out;
	bool comma = false;
	uint32_t first = 0;
	if (call->callee == RX_CALL_GLOBAL)
		strbuf_printf(out, "cls.%s(", call->name);
	else if (call->callee == RX_CALL_VAR) {
		print_expr(pr, call->items[0], false);
		strbuf_putc(out, '(');
		first = 1;
	} else
		strbuf_printf(out, "%s(", call->name);
	print_list(pr, call->items + first, call->nitems - first, &comma);
	if (call->callee == RX_CALL_OP && strcmp(call->name, "R.hint_on_device") == 0) {
		strbuf_printf(out, ", R.device(device_type=%d, index=%d), \"%s\")", call->hint_type,
			      call->hint_index, call->hint_scope);
		return;
	}
	if (call->callee == RX_CALL_OP && strcmp(call->name, "R.to_vdevice") == 0) {
		strbuf_puts(out, ", dst_vdevice=\"");
		relax_vdevice_name(pr->m, call->vdevice, out);
		strbuf_puts(out, "\")");
		return;
	}
	for (uint32_t i = 0; i < call->nkwargs; i++) {
		strbuf_printf(out, "%s%s=", comma ? ", " : "", call->keys[i]);
		print_expr(pr, call->kwargs[i], false);
		comma = true;
	}
	if (call->out_type) {
		strbuf_printf(out, "%sout_ty=", comma ? ", " : "");
		relax_print_type(out, pr->m, call->out_type);
	}
	if (call->callee == RX_CALL_OP)
		print_default_kwargs(pr, call, &comma);
	strbuf_putc(out, ')');
}

static void print_expr(Printer *pr, const RxExpr *e, bool bare_tuple)
{
	bool comma = false;
	switch (e->kind) {
	case RX_EXPR_VAR:
		strbuf_puts(pr->out, var_name(pr, e->var));
		return;
	case RX_EXPR_GLOBAL:
		strbuf_printf(pr->out, "cls.%s", e->name);
		return;
	case RX_EXPR_CALL:
		print_call(pr, e);
		return;
	case RX_EXPR_TUPLE:
		bare_tuple &= e->nitems >= 2;
		if (!bare_tuple)
			strbuf_putc(pr->out, '(');
		print_list(pr, e->items, e->nitems, &comma);
		if (e->nitems == 1)
			strbuf_putc(pr->out, ',');
		if (!bare_tuple)
			strbuf_putc(pr->out, ')');
		return;
	case RX_EXPR_GETITEM:
		print_expr(pr, e->items[0], false);
		strbuf_printf(pr->out, "[%lld]", (long long)e->index);
		return;
	case RX_EXPR_LITERAL:
		py_print(pr->out, e->py);
		return;
	}
}

/* Whether TVM leaves the binding's annotation out: R.call_tir's result
 * whose type is out_ty. */
static bool annotation_hidden(const RxVar *v, const RxExpr *value)
{
	if (!v->type)
		return true;
	return value && value->kind == RX_EXPR_CALL && value->callee == RX_CALL_OP &&
	       value->out_type && relax_type_equal(value->out_type, v->type);
}

static void print_binding(Printer *pr, int level, const RxVar *v, const RxType *type,
			  const RxExpr *value, bool define)
{
	indent(pr, level);
	if (define)
		define_var(pr, v);
	strbuf_puts(pr->out, var_name(pr, v));
	if (type && !annotation_hidden(v, value)) {
		strbuf_puts(pr->out, ": ");
		relax_print_type(pr->out, pr->m, type);
	}
	strbuf_puts(pr->out, " = ");
	print_expr(pr, value, true);
	device_comment(pr, v);
	strbuf_putc(pr->out, '\n');
}

static void print_block(Printer *pr, const RxBlock *b, int level);

static void print_if(Printer *pr, const RxStmt *s, int level)
{
	indent(pr, level);
	strbuf_puts(pr->out, "if ");
	print_expr(pr, s->value, false);
	strbuf_puts(pr->out, ":\n");
	define_var(pr, s->var);
	print_block(pr, s->then_block, level + 1);
	print_binding(pr, level + 1, s->var, s->var->type, s->then_block->result, false);
	indent(pr, level);
	strbuf_puts(pr->out, "else:\n");
	print_block(pr, s->else_block, level + 1);
	print_binding(pr, level + 1, s->var, s->var->type, s->else_block->result, false);
}

static void print_statement(Printer *pr, const RxStmt *s, int level)
{
	switch (s->kind) {
	case RX_STMT_BIND:
		print_binding(pr, level, s->var, s->var->type, s->value, true);
		return;
	case RX_STMT_MATCH:
		indent(pr, level);
		define_var(pr, s->var);
		strbuf_printf(pr->out, "%s: ", var_name(pr, s->var));
		relax_print_type(pr->out, pr->m, s->var->type);
		strbuf_puts(pr->out, " = R.match_cast(");
		print_expr(pr, s->value, false);
		strbuf_puts(pr->out, ", ");
		relax_print_type(pr->out, pr->m, s->cast);
		strbuf_puts(pr->out, ")\n");
		return;
	case RX_STMT_IF:
		print_if(pr, s, level);
		return;
	case RX_STMT_ALIAS:
		indent(pr, level);
		strbuf_printf(pr->out, "%s = Module", s->alias);
		strbuf_putc(pr->out, '\n');
		return;
	case RX_STMT_EXPR:
		indent(pr, level);
		py_print(pr->out, s->py);
		strbuf_putc(pr->out, '\n');
		return;
	case RX_STMT_DATAFLOW:
		indent(pr, level);
		strbuf_puts(pr->out, "with R.dataflow():\n");
		print_block(pr, s->then_block, level + 1);
		indent(pr, level + 1);
		strbuf_puts(pr->out, "R.output(");
		for (uint32_t i = 0; i < s->noutputs; i++)
			strbuf_printf(pr->out, "%s%s", i ? ", " : "", var_name(pr, s->outputs[i]));
		strbuf_puts(pr->out, ")\n");
		return;
	}
}

static void print_block(Printer *pr, const RxBlock *b, int level)
{
	for (uint32_t i = 0; i < b->nstmts; i++)
		print_statement(pr, b->stmts[i], level);
}

static void print_function(Printer *pr, const RxFunc *f)
{
	StrBuf *out = pr->out;
	if (f->kind == RX_FUNC_EXTERN) {
		indent(pr, 1);
		strbuf_printf(out, "%s = ", f->name);
		py_print(out, f->decorator);
		strbuf_putc(out, '\n');
		return;
	}
	if (f->kind == RX_FUNC_PRIM) {
		for (const char *line = f->text; *line;) {
			size_t n = strcspn(line, "\n");
			if (n)
				indent(pr, 1);
			strbuf_append(out, line, n);
			strbuf_putc(out, '\n');
			line += n + (line[n] == '\n');
		}
		return;
	}
	indent(pr, 1);
	strbuf_putc(out, '@');
	py_print(out, f->decorator);
	strbuf_putc(out, '\n');
	indent(pr, 1);
	strbuf_printf(out, "def %s(", f->name);
	for (uint32_t i = 0; i < f->nparams; i++) {
		define_var(pr, f->params[i]);
		strbuf_printf(out, "%s%s: ", i ? ", " : "", var_name(pr, f->params[i]));
		relax_print_type(out, pr->m, f->params[i]->type);
	}
	strbuf_putc(out, ')');
	if (f->ret) {
		strbuf_puts(out, " -> ");
		relax_print_type(out, pr->m, f->ret);
	}
	strbuf_puts(out, ":\n");
	for (uint32_t i = 0; pr->devices && i < f->nparams; i++) {
		indent(pr, 2);
		strbuf_printf(out, "# param %s: vdevice ", var_name(pr, f->params[i]));
		device_name(pr, f->params[i]);
		strbuf_putc(out, '\n');
	}
	print_block(pr, f->body, 2);
	indent(pr, 2);
	strbuf_puts(out, "return ");
	print_expr(pr, f->body->result, false);
	strbuf_putc(out, '\n');
	forget_names(pr);
}

/* TVM's order: prim_funcs, then extern functions, then Relax functions,
 * @main last; by name. */
static int function_priority(const RxFunc *f)
{
	return strcmp(f->name, "main") == 0 ? 1000
	       : f->kind == RX_FUNC_PRIM    ? 1
	       : f->kind == RX_FUNC_EXTERN  ? 2
					    : 3;
}

static int compare_functions(const void *a, const void *b)
{
	const RxFunc *fa = *(RxFunc *const *)a, *fb = *(RxFunc *const *)b;
	int pa = function_priority(fa), pb = function_priority(fb);
	return pa != pb ? pa - pb : strcmp(fa->name, fb->name);
}

static void print_header(Printer *pr)
{
	const RxModule *m = pr->m;
	StrBuf *out = pr->out;
	strbuf_puts(out,
		    "# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n");
	/* the symbolic dims declared before the class, as read */
	for (uint32_t i = 0; i < m->nprelude; i++) {
		strbuf_printf(out, "%s = ", m->prelude_names[i]);
		py_print(out, m->prelude_values[i]);
		strbuf_putc(out, '\n');
	}
	/* TVM names the printed class Module whatever the source called it */
	strbuf_puts(out, "@I.ir_module\nclass Module:\n");
	if (m->attrs) {
		strbuf_puts(out, "    I.module_attrs(");
		py_print(out, m->attrs);
		strbuf_puts(out, ")\n");
	}
	if (!m->has_global_infos && !m->global_infos)
		return;
	strbuf_puts(out, "    I.module_global_infos({");
	/* the other global infos as read, the vdevice list as devplan holds it */
	for (uint32_t i = 0; m->global_infos && i + 1 < m->global_infos->nitems; i += 2) {
		const PyExpr *key = m->global_infos->items[i];
		if (key->kind == PY_STR && strcmp(key->text, "vdevice") == 0)
			continue;
		py_print(out, key);
		strbuf_puts(out, ": ");
		py_print(out, m->global_infos->items[i + 1]);
		strbuf_puts(out,
			    m->has_global_infos || i + 3 < m->global_infos->nitems ? ", " : "");
	}
	if (!m->has_global_infos) {
		strbuf_puts(out, "})\n");
		return;
	}
	strbuf_puts(out, "\"vdevice\": [");
	for (uint32_t i = 0; i < m->nvdevices; i++) {
		strbuf_puts(out, i ? ", I.vdevice(" : "I.vdevice(");
		py_print(out, m->vdevices[i].target);
		strbuf_printf(out, ", %lld, \"%s\")", (long long)m->vdevices[i].vdevice_id,
			      m->vdevices[i].scope);
	}
	strbuf_puts(out, "]})\n");
}

static void print_module(Printer *pr);

void relax_print_module(StrBuf *out, const RxModule *m)
{
	Printer pr = {.m = m, .out = out};
	print_module(&pr);
}

void relax_print_module_devices(StrBuf *out, const RxModule *m, const int *known, uint32_t nknown)
{
	Printer pr = {.m = m, .out = out, .devices = true, .known = known, .nknown = nknown};
	print_module(&pr);
}

static void print_module(Printer *pr)
{
	const RxModule *m = pr->m;
	StrBuf *out = pr->out;
	RxFunc **order = xmalloc((m->nfuncs + 1) * sizeof *order);
	pr->names = xcalloc(m->nvars + 1, sizeof *pr->names);
	print_header(pr);
	if (m->nfuncs)
		memcpy(order, m->funcs, m->nfuncs * sizeof *order);
	qsort(order, m->nfuncs, sizeof *order, compare_functions);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (i)
			strbuf_putc(out, '\n');
		print_function(pr, order[i]);
	}
	for (uint32_t i = 0; i < m->nvars; i++)
		free(pr->names[i]);
	free(pr->names);
	free(order);
	forget_names(pr);
}
