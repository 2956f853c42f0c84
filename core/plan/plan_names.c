/*
 * plan_names.c - names for the nodes a phase adds (plan.h).
 *
 * The numbers no node of the module is named, lowest first: what the
 * printer would number an unnamed binding anyway. A node that keeps such a
 * name from the phase that made it is named the same in every later
 * version, and the user can type it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "plan.h"

void plan_fresh_numbers_init(PlanFreshNumbers *f, const ExprVec *all, uint32_t count)
{
	/* the first count free numbers are below the nodes + count */
	f->limit = (uint32_t)all->count + count + 1;
	f->taken = xcalloc(f->limit, 1);
	f->next = 0;
	for (size_t i = 0; i < all->count; i++) {
		const char *name = all->items[i]->name;
		uint64_t n = 0;
		if (!name || !*name || (name[0] == '0' && name[1]))
			continue;
		for (; *name >= '0' && *name <= '9' && n < f->limit; name++)
			n = n * 10 + (uint64_t)(*name - '0');
		if (!*name && n < f->limit)
			f->taken[n] = 1;
	}
}

const char *plan_fresh_number(PlanFreshNumbers *f, IrModule *m)
{
	char buf[16];
	while (f->next < f->limit && f->taken[f->next])
		f->next++;
	DP_ASSERT(f->next < f->limit);
	f->taken[f->next] = 1;
	snprintf(buf, sizeof buf, "%u", f->next);
	return arena_strdup(ir_data_arena(m), buf);
}

void plan_fresh_numbers_free(PlanFreshNumbers *f)
{
	free(f->taken);
	f->taken = NULL;
}
