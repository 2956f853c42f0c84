/*
 * run_values.c - what a run keeps and dumps of the values it computes.
 *
 * The run's observer (ExecOptions.observe) gets every operator's result on
 * the host. It keeps @main's results always and every other value while
 * they fit in the budget the run gives (a quarter of the free memory;
 * nothing under `set keep-values off`), in the session, for `print`; the
 * values past it are counted, for the note `run` prints. With
 * `run --dump DIR` writes each one to DIR as `.npy`, named after its
 * binding, with DIR/manifest.json listing name, file, op, device, shape
 * and dtype in execution order. The inputs join them when the run ends.
 *
 * Files are named from the binding: `%x` is x.npy, a field of a tuple
 * result x.0.npy, an unnamed nested call OP_LINE_COL.npy, and a value
 * computed again (a loop's body) gets ~2, ~3 ... before the extension.
 * Anything but letters, digits, `.`, `-` and `_` becomes `_`. A link
 * another user made, as DIR or in it, is not followed (dump_dir_ok).
 *
 * Ownership: the keeper is the caller's (run_values_finish frees it); it
 * borrows the session and the module.
 */
#include "run_values.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_write.h"
#include "run.h"

enum { RUN_VALUES_STEPS = 64 };

struct RunValues {
	Session *session;
	const IrModule *m;
	bool *is_result;      /* by expression id: @main returns it */
	const Expr **let_var; /* by expression id: the let variable naming it */
	const char *dir;      /* --dump DIR, or NULL */
	json_object *manifest;
	char **files; /* names used so far, to number repeats */
	size_t nfiles, cap_files;
	size_t dumped;
	size_t offered; /* the values the run computed */
	char *error;    /* the first write error */
	bool keep_every;
};

/* Marks what e returns (through lets, on_device, device_copy and tuples)
 * as a result. */
static void mark_results(RunValues *k, const Expr *e, int budget)
{
	e = ir_computed_value(e);
	if (!e || budget <= 0 || e->id >= k->m->nexprs)
		return;
	if (e->kind == EXPR_TUPLE) {
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			mark_results(k, e->u.tuple.fields[i], budget - 1);
		return;
	}
	k->is_result[e->id] = true;
}

/* Makes the dump directory or checks the one there: a directory, not a
 * link another user made. Its files are written by file_write.h, which
 * follows no link another user made and replaces names by renameat, so a
 * directory others may write cannot make a dump replace another file; but
 * where others may replace or delete the dumped files (a directory another
 * user owns, or one others may write without the sticky bit of /tmp) a
 * warning says so. False after reporting. */
static bool dump_dir_ok(const char *dir, DiagList *diags)
{
	struct stat st;
	uid_t me = geteuid();
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		diag_error(diags, NULL, (Pos){0}, "cannot make '%s': %s", dir, strerror(errno));
		return false;
	}
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) && st.st_uid != me) {
		diag_error(diags, NULL, (Pos){0},
			   "cannot dump into '%s': a symbolic link that another user (uid %lu) "
			   "made; not followed",
			   dir, (unsigned long)st.st_uid);
		return false;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_error(diags, NULL, (Pos){0}, "cannot dump into '%s': not a directory", dir);
		return false;
	}
	if (st.st_uid != me && st.st_uid != 0)
		diag_warning(diags, NULL, (Pos){0},
			     "'%s' belongs to another user (uid %lu), who may replace the dumped "
			     "files",
			     dir, (unsigned long)st.st_uid);
	else if (((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != getegid())) &&
		 !(st.st_mode & S_ISVTX))
		diag_warning(diags, NULL, (Pos){0},
			     "'%s' may be written by other users, who may replace the dumped "
			     "files; dump into a directory only you may write",
			     dir);
	return true;
}

uint64_t run_values_budget(const Session *s, bool *of_limit)
{
	uint64_t budget = exec_available_memory() / 4;
	*of_limit = false;
	if (run_memory_limit(s) && run_memory_limit(s) / 4 < budget) {
		budget = run_memory_limit(s) / 4;
		*of_limit = true;
	}
	return budget;
}

RunValues *run_values_new(Session *s, const IrModule *m, const char *dump_dir, uint64_t budget,
			  DiagList *diags)
{
	RunValues *k;
	int32_t main_index = ir_find_global(m, "main");
	if (dump_dir && !dump_dir_ok(dump_dir, diags))
		return NULL;
	k = xcalloc(1, sizeof *k);
	k->session = s;
	k->m = m;
	k->dir = dump_dir;
	k->keep_every = s->settings.keep_values;
	k->is_result = xcalloc(m->nexprs + 1, sizeof(bool));
	k->let_var = ir_let_names(m);
	if (main_index >= 0)
		mark_results(k, m->globals[main_index].fn->u.fn.body, RUN_VALUES_STEPS);
	if (dump_dir)
		k->manifest = json_object_new_array();
	session_values_start(&s->values, m, k->keep_every, budget);
	return k;
}

/* `%x`, `%x.1`, or `nn.relu@9:16` for an unnamed call. */
static void value_name(const RunValues *k, StrBuf *sb, const Expr *e, uint32_t field, bool tuple)
{
	if (!e->name && e->id < k->m->nexprs && k->let_var[e->id])
		strbuf_printf(sb, "%%%s", k->let_var[e->id]->name);
	else
		ir_value_name(sb, e);
	if (tuple)
		strbuf_printf(sb, ".%u", field);
}

/* The file name of a value: its name made safe, numbered when repeated. */
static char *file_name(RunValues *k, const char *name)
{
	StrBuf base;
	char *file;
	unsigned repeat = 1;
	strbuf_init(&base);
	for (const char *p = name[0] == '%' ? name + 1 : name; *p; p++) {
		char c = *p;
		bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
		strbuf_putc(&base, safe ? c : '_');
	}
	for (;;) {
		bool used = false;
		file = repeat == 1 ? xasprintf("%s.npy", base.data)
				   : xasprintf("%s~%u.npy", base.data, repeat);
		for (size_t i = 0; i < k->nfiles && !used; i++)
			used = strcmp(k->files[i], file) == 0;
		if (!used)
			break;
		free(file);
		repeat++;
	}
	strbuf_free(&base);
	grow_array((void **)&k->files, &k->cap_files, k->nfiles + 1, sizeof(char *));
	k->files[k->nfiles++] = xstrdup(file);
	return file;
}

/* Writes value to the dump directory and lists it in the manifest. */
static void dump_value(RunValues *k, const char *name, const char *op, int32_t device,
		       const NpyArray *value)
{
	char *file, *path, *err = NULL;
	json_object *entry, *shape;
	if (k->error)
		return;
	file = file_name(k, name);
	path = xasprintf("%s/%s", k->dir, file);
	if (!npy_write(path, value, &err)) {
		k->error = err;
		free(path);
		free(file);
		return;
	}
	entry = json_object_new_object();
	json_object_object_add(entry, "name", json_object_new_string(name));
	json_object_object_add(entry, "file", json_object_new_string(file));
	json_object_object_add(entry, "op", json_object_new_string(op));
	json_object_object_add(
		entry, "device",
		json_object_new_string(device >= 0 ? devices_name(&k->session->devices, device)
						   : "cpu"));
	shape = json_object_new_array();
	for (uint32_t d = 0; d < value->ndim; d++)
		json_object_array_add(shape, json_object_new_int64(value->shape[d]));
	json_object_object_add(entry, "shape", shape);
	json_object_object_add(entry, "dtype", json_object_new_string(dtype_name(value->dtype)));
	json_object_array_add(k->manifest, entry);
	k->dumped++;
	free(path);
	free(file);
}

void run_values_observe(void *context, const Expr *call, uint32_t field, int32_t device,
			NpyArray *value)
{
	RunValues *k = context;
	SessionValues *values = &k->session->values;
	bool result = call->id < k->m->nexprs && k->is_result[call->id];
	k->offered++;
	if (k->dir) {
		StrBuf name;
		strbuf_init(&name);
		value_name(k, &name, call, field, call->type && call->type->kind == TYPE_TUPLE);
		dump_value(k, name.data, ir_call_op_name(call), device, value);
		strbuf_free(&name);
	}
	if (!result && k->keep_every && values->bytes + value->nbytes > values->budget) {
		values->dropped++;
		npy_array_free(value);
	} else if (result || k->keep_every)
		session_values_add(values, call->id, field, device,
				   result ? VALUE_KEPT_RESULT : VALUE_KEPT_OP, value);
	else
		npy_array_free(value);
}

/* The manifest written beside the dumped files, unless a write failed. */
static void write_manifest(RunValues *k)
{
	char *path = xasprintf("%s/manifest.json", k->dir);
	if (!k->error) {
		size_t len;
		const char *text = json_object_to_json_string_length(
			k->manifest, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE,
			&len);
		file_write_all(path, text, len, &k->error);
	}
	free(path);
}

void run_values_finish(RunValues *k, NpyArray *inputs, size_t n, bool ok, RunValuesReport *report)
{
	ExecParam *params;
	size_t np;
	memset(report, 0, sizeof *report);
	if (!k)
		return;
	np = exec_params(k->m, &params);
	for (size_t i = 0; i < np && i < n && ok; i++) {
		StrBuf name;
		strbuf_init(&name);
		strbuf_printf(&name, "%%%s", params[i].name);
		if (k->dir)
			dump_value(k, name.data, "input", params[i].device, &inputs[i]);
		strbuf_free(&name);
		session_values_add(&k->session->values, params[i].var->id, 0, params[i].device,
				   VALUE_KEPT_INPUT, &inputs[i]);
	}
	free(params);
	if (k->dir && ok)
		write_manifest(k);
	if (ok) {
		report->offered = k->offered;
		report->dropped = k->session->values.dropped;
		report->budget = k->session->values.budget;
		report->dumped = k->dumped;
		report->error = k->error;
		k->error = NULL;
	}
	if (k->manifest)
		json_object_put(k->manifest);
	for (size_t i = 0; i < k->nfiles; i++)
		free(k->files[i]);
	free(k->files);
	free(k->error);
	free(k->is_result);
	free(k->let_var);
	free(k);
}
