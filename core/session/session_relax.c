/*
 * session_relax.c - the Relax side of the session (see session_relax.h).
 *
 * Loading parses with core/relax/relax_parse.c and, on success, drops the
 * Relay module the same way a Relay load replaces one; a failed load keeps
 * whatever was loaded. Phases run through relax_realize_step, which is
 * restartable from the module as loaded.
 */
#include "session_relax.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "relax_explain.h"
#include "relax_lower.h"
#include "relax_parse.h"
#include "util.h"

bool session_relax_active(const Session *s)
{
	return s->relax != NULL;
}

void session_relax_free(Session *s)
{
	if (!s->relax)
		return;
	relax_realize_free(&s->relax->realize);
	relax_module_free(s->relax->module);
	free(s->relax);
	s->relax = NULL;
}

bool session_load_relax(Session *s, SourceFile *src, const char *path)
{
	RxModule *m = relax_parse(src, &s->diags);
	char *new_path;
	if (!m)
		return false;
	new_path = xstrdup(path);
	session_unload(s);
	session_relax_free(s);
	if (!s->path || strcmp(s->path, path) != 0)
		pins_clear(&s->pins);
	source_release(s->source);
	free(s->path);
	s->source = source_retain(src);
	s->path = new_path;
	s->relax = xcalloc(1, sizeof *s->relax);
	s->relax->module = m;
	s->relax->failed_phase = -1;
	relax_realize_init(&s->relax->realize, m);
	return true;
}

void session_relax_restart(Session *s)
{
	if (!s->relax)
		return;
	relax_realize_free(&s->relax->realize);
	relax_realize_init(&s->relax->realize, s->relax->module);
	s->relax->failed_phase = -1;
	session_unload(s); /* the lowered module of the plan */
}

bool session_relax_step(Session *s, size_t n)
{
	SessionRelax *r = s->relax;
	session_clear_diags(s);
	if (r->realize.done == 0)
		r->realize.copy_policy =
			s->settings.policy == POLICY_COPY || s->settings.policy == POLICY_ERROR;
	if (n > 0 && r->realize.done < RX_PHASE_COUNT)
		session_unload(s); /* the lowered module of the plan */
	for (size_t i = 0; i < n && r->realize.done < RX_PHASE_COUNT; i++) {
		size_t phase = r->realize.done;
		/* policy error: a conflict stops planning before propagate */
		bool stop = phase == RX_PHASE_PROPAGATE && s->settings.policy == POLICY_ERROR &&
			    !relax_check_conflicts(&r->realize, s->source, &s->diags);
		if (stop || !relax_realize_step(&r->realize, &s->diags)) {
			r->failed_phase = (int)phase;
			return false;
		}
		r->failed_phase = -1;
	}
	return true;
}

size_t session_relax_phases_done(const Session *s)
{
	return s->relax ? s->relax->realize.done : 0;
}

bool session_relax_planned(const Session *s)
{
	return s->relax && s->relax->realize.done == RX_PHASE_COUNT;
}

const RxModule *session_relax_module(const Session *s, int phase)
{
	const RxRealize *r = &s->relax->realize;
	if (phase < 0)
		return relax_realize_current(r);
	if (phase >= RX_PHASE_NORMALIZE && r->normalized)
		return r->normalized;
	if (phase >= RX_PHASE_REWRITE && r->rewritten)
		return r->rewritten;
	return s->relax->module;
}

/* The device-table entry a vdevice runs on: llvm's vdevice_id-th cpu,
 * cuda's vdevice_id-th cuda device (TVM's VM takes vdevice_id as the
 * physical id), added to the table when missing; -1 for other kinds. */
static int32_t vdevice_device(Session *s, const RxVDevice *v)
{
	int type = strcmp(v->kind, "llvm") == 0   ? DEVICE_TYPE_CPU
		   : strcmp(v->kind, "cuda") == 0 ? DEVICE_TYPE_CUDA
						  : 0;
	int found;
	char name[64], *err = NULL;
	if (!type || v->vdevice_id < 0 || v->vdevice_id > 255)
		return -1;
	found = devices_find(&s->devices, type, (int)v->vdevice_id);
	if (found >= 0)
		return found;
	snprintf(name, sizeof name, "%s:%d", type == DEVICE_TYPE_CPU ? "cpu" : "cuda",
		 (int)v->vdevice_id);
	found = devices_add(&s->devices, name, NULL, &err);
	free(err);
	return found;
}

IrModule *session_relax_lowered(Session *s, DiagList *diags)
{
	const RxModule *m;
	int32_t *device_of, unplaced = -1;
	StrBuf text;
	SourceFile *src;
	IrModule *lowered;
	size_t errors = diags->errors;
	bool ok;
	if (!session_relax_planned(s)) {
		diag_error(diags, NULL, (Pos){0, 0}, "the module is not planned yet; use 'plan'");
		return NULL;
	}
	m = session_relax_module(s, -1);
	device_of = xcalloc(m->nvdevices ? m->nvdevices : 1, sizeof *device_of);
	for (uint32_t i = 0; i < m->nvdevices; i++) {
		device_of[i] = vdevice_device(s, &m->vdevices[i]);
		if (unplaced < 0 && device_of[i] >= 0 &&
		    strcmp(m->vdevices[i].scope, "global") == 0)
			unplaced = device_of[i];
	}
	if (unplaced < 0)
		unplaced = devices_find(&s->devices, DEVICE_TYPE_CPU, 0);
	if (unplaced < 0)
		unplaced = 0;
	strbuf_init(&text);
	ok = relax_lower(m, device_of, unplaced, &text, diags);
	free(device_of);
	if (!ok) {
		strbuf_free(&text);
		return NULL;
	}
	{
		StrBuf name;
		strbuf_init(&name);
		strbuf_printf(&name, "%s (lowered to Relay)", session_module_name(s));
		src = source_from_string(name.data, text.data, text.len);
		strbuf_free(&name);
	}
	strbuf_free(&text);
	lowered = parse_module(src, &s->devices, diags);
	source_release(src);
	if (!lowered || diags->errors > errors) {
		if (lowered)
			ir_module_free(lowered);
		diag_error(
			diags, NULL, (Pos){0, 0},
			"internal error: the Relax module's Relay lowering does not parse (a bug "
			"in devplan)");
		return NULL;
	}
	return lowered;
}

bool session_relax_lower(Session *s)
{
	IrModule *lowered;
	session_clear_diags(s);
	if (!session_relax_planned(s)) {
		diag_error(&s->diags, NULL, (Pos){0, 0},
			   "the module is not planned yet; use 'plan'");
		return false;
	}
	/* lowered already (the version before the current one may have been
	 * let go: session_version recomputes it through session_relax_lowered) */
	if (session_has_module(s))
		return s->phases_done == pipeline_count || session_step(s, SIZE_MAX);
	lowered = session_relax_lowered(s, &s->diags);
	if (!lowered)
		return false;
	ir_module_commit(lowered);
	s->versions[0] = lowered;
	s->phases_done = 0;
	if (session_step(s, SIZE_MAX))
		return true;
	session_unload(s);
	return false;
}
