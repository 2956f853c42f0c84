/*
 * relax_explain.c - conflicts and explanations of RealizeVDevice (see
 * relax_explain.h). Classes are found with a union-find over the
 * co-location graph; a value's origin is the neighbour the propagation
 * placed it from, recorded in the events.
 */
#include "relax_explain.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint32_t find(uint32_t *parent, uint32_t v)
{
	while (parent[v] != v) {
		parent[v] = parent[parent[v]];
		v = parent[v];
	}
	return v;
}

static uint32_t *components(const RxRealize *r)
{
	uint32_t n = r->in->nvars, *parent = xmalloc((n + 1) * sizeof *parent);
	for (uint32_t v = 0; v < n; v++)
		parent[v] = v;
	for (uint32_t v = 0; v < n; v++)
		for (uint32_t k = r->adj_start[v]; k < r->adj_start[v + 1]; k++)
			parent[find(parent, v)] = find(parent, r->adj[k]);
	for (uint32_t v = 0; v < n; v++)
		parent[v] = find(parent, v);
	return parent;
}

bool relax_seed_of(const RxRealize *r, uint32_t var, RxSeed *seed)
{
	for (size_t i = 0; i < r->applied; i++)
		if (r->events[i].var == var && r->events[i].from == UINT32_MAX) {
			int round = r->events[i].round;
			*seed = (RxSeed){var, r->events[i].vdevice,
					 round == 1 ? r->explicit_pos[var] : r->hint_pos[var],
					 round};
			return true;
		}
	return false;
}

/* Every seed of TVM's maps (hint inputs even when round 1 placed them). */
static void class_seeds(const RxRealize *r, const uint32_t *comp, uint32_t root, RxConflict *c)
{
	size_t cap = 0;
	for (int round = 1; round <= 2; round++) {
		const uint32_t *order = round == 1 ? r->explicit_order : r->hint_order;
		size_t n = round == 1 ? r->nexplicit : r->nhint;
		for (size_t i = 0; i < n; i++) {
			uint32_t v = order[i];
			if (comp[v] != root)
				continue;
			grow_array((void **)&c->seeds, &cap, c->nseeds + 1, sizeof *c->seeds);
			c->seeds[c->nseeds++] =
				(RxSeed){v, round == 1 ? r->explicit_dev[v] : r->hint_dev[v],
					 round == 1 ? r->explicit_pos[v] : r->hint_pos[v], round};
		}
	}
}

static bool seeds_disagree(const RxConflict *c)
{
	for (size_t i = 1; i < c->nseeds; i++)
		if (c->seeds[i].vdevice != c->seeds[0].vdevice)
			return true;
	return false;
}

/* The classes (every one, or those seeds disagree on), in order of
 * their lowest variable id. */
static size_t collect_classes(const RxRealize *r, RxConflict **out, bool conflicts_only)
{
	uint32_t n = r->in->nvars, *comp = components(r);
	size_t count = 0, cap = 0;
	bool *seen = xcalloc(n + 1, sizeof *seen);
	*out = NULL;
	for (uint32_t first = 0; first < n; first++) {
		RxConflict c = {0};
		uint32_t root = comp[first];
		if (seen[root])
			continue;
		seen[root] = true;
		class_seeds(r, comp, root, &c);
		if (conflicts_only && !seeds_disagree(&c)) {
			free(c.seeds);
			continue;
		}
		c.vars = xmalloc((n + 1) * sizeof *c.vars);
		for (uint32_t v = 0; v < n; v++)
			if (comp[v] == root)
				c.vars[c.nvars++] = v;
		grow_array((void **)out, &cap, count + 1, sizeof **out);
		(*out)[count++] = c;
	}
	free(seen);
	free(comp);
	return count;
}

size_t relax_conflicts(const RxRealize *r, RxConflict **out)
{
	return collect_classes(r, out, true);
}

size_t relax_classes(const RxRealize *r, RxConflict **out)
{
	return collect_classes(r, out, false);
}

bool relax_class_conflicts(const RxConflict *c)
{
	return seeds_disagree(c);
}

void relax_conflicts_free(RxConflict *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].vars);
		free(c[i].seeds);
	}
	free(c);
}

size_t relax_why(const RxRealize *r, uint32_t var, uint32_t **chain)
{
	uint32_t n = r->in->nvars, *from = xmalloc((n + 1) * sizeof *from);
	size_t len = 0;
	bool placed = false;
	*chain = NULL;
	for (uint32_t v = 0; v < n; v++)
		from[v] = UINT32_MAX;
	for (size_t i = 0; i < r->applied; i++) {
		from[r->events[i].var] = r->events[i].from;
		placed |= r->events[i].var == var;
	}
	if (placed) {
		*chain = xmalloc((n + 1) * sizeof **chain);
		for (uint32_t v = var; v != UINT32_MAX && len <= n; v = from[v])
			(*chain)[len++] = v;
		for (size_t i = 0; i < len / 2; i++) {
			uint32_t t = (*chain)[i];
			(*chain)[i] = (*chain)[len - 1 - i];
			(*chain)[len - 1 - i] = t;
		}
	}
	free(from);
	return len;
}

static const char *seed_word(const RxRealize *r, const RxSeed *sd)
{
	if (sd->round == 2)
		return "hint input";
	switch (r->explicit_kind[sd->var]) {
	case RX_SEED_ANNOTATION:
		return "vdevice annotation";
	case RX_SEED_HINT_OUTPUT:
		return "hint output";
	default:
		return "declared return type";
	}
}

bool relax_check_conflicts(const RxRealize *r, const SourceFile *src, DiagList *diags)
{
	RxConflict *c;
	size_t n = relax_conflicts(r, &c), k = 1;
	const RxSeed *first, *other;
	StrBuf a, b;
	if (n == 0)
		return true;
	first = &c[0].seeds[0];
	while (c[0].seeds[k].vdevice == first->vdevice)
		k++;
	other = &c[0].seeds[k];
	strbuf_init(&a);
	strbuf_init(&b);
	relax_vdevice_name(r->in, first->vdevice, &a);
	relax_vdevice_name(r->in, other->vdevice, &b);
	diag_error(diags, src, other->pos,
		   "'%s' (%s) seeds %s on %s, but '%s' (%s) at %s:%u:%u seeds it on %s "
		   "(policy error; %zu conflict%s in all, see 'conflicts')",
		   r->in->vars[other->var]->name, seed_word(r, other),
		   c[0].nvars == 1 ? "its value" : "its co-location class", b.data,
		   r->in->vars[first->var]->name, seed_word(r, first), src ? src->name : "",
		   first->pos.line, first->pos.col, a.data, n, n == 1 ? "" : "s");
	diag_note(diags, src, first->pos, "'%s' (%s) seeds it on %s here",
		  r->in->vars[first->var]->name, seed_word(r, first), a.data);
	strbuf_free(&a);
	strbuf_free(&b);
	relax_conflicts_free(c, n);
	return false;
}

const char *relax_seed_kind(const RxRealize *r, const RxSeed *seed)
{
	if (seed->round == 2)
		return "hint input";
	if (seed->round == 3)
		return "fallback: nothing reaches it";
	switch (r->explicit_kind[seed->var]) {
	case RX_SEED_ANNOTATION:
		return "vdevice annotation";
	case RX_SEED_HINT_OUTPUT:
		return "hint output";
	case RX_SEED_RETURN:
		return "declared return type";
	default:
		return "seed";
	}
}

void relax_event_describe(StrBuf *out, const RxRealize *r, size_t i, const char *file)
{
	const RxEvent *e = &r->events[i];
	const RxModule *m = r->in;
	strbuf_printf(out, "%s <- ", m->vars[e->var]->name);
	if (e->vdevice < 0)
		strbuf_puts(out, "no vdevice");
	else
		relax_vdevice_name(m, e->vdevice, out);
	if (e->from == UINT32_MAX) {
		RxSeed seed = {e->var, e->vdevice,
			       e->round == 1 ? r->explicit_pos[e->var] : r->hint_pos[e->var],
			       e->round};
		strbuf_printf(out, " (%s", relax_seed_kind(r, &seed));
		if (e->round != 3 && seed.pos.line)
			strbuf_printf(out, " at %s:%u:%u", file, seed.pos.line, seed.pos.col);
		if (e->round != 3)
			strbuf_printf(out, ", round %d", e->round);
		strbuf_putc(out, ')');
	} else {
		const RxVar *a = m->vars[e->from], *b = m->vars[e->var];
		strbuf_printf(out, " from %s (co-located at line %u, round %d)", a->name,
			      a->pos.line > b->pos.line ? a->pos.line : b->pos.line, e->round);
	}
}
