/*
 * session_relax.c - the Relax side of the session (see session_relax.h).
 *
 * Loading parses with core/relax/relax_parse.c and, on success, drops the
 * Relay module the same way a Relay load replaces one; a failed load keeps
 * whatever was loaded. Phases run through relax_realize_step, which is
 * restartable from the module as loaded.
 */
#include "session_relax.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
}

bool session_relax_step(Session *s, size_t n)
{
	SessionRelax *r = s->relax;
	session_clear_diags(s);
	if (r->realize.done == 0)
		r->realize.copy_policy = s->settings.policy == POLICY_COPY;
	for (size_t i = 0; i < n && r->realize.done < RX_PHASE_COUNT; i++) {
		size_t phase = r->realize.done;
		if (!relax_realize_step(&r->realize, &s->diags)) {
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
