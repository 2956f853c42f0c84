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
	for (size_t i = 0; i < r->nevents; i++)
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

size_t relax_conflicts(const RxRealize *r, RxConflict **out)
{
	uint32_t n = r->in->nvars, *comp = components(r);
	size_t count = 0, cap = 0;
	*out = NULL;
	for (uint32_t root = 0; root < n; root++) {
		RxConflict c = {0};
		if (comp[root] != root)
			continue;
		class_seeds(r, comp, root, &c);
		if (!seeds_disagree(&c)) {
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
	free(comp);
	return count;
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
	for (size_t i = 0; i < r->nevents; i++) {
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
