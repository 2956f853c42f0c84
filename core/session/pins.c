/*
 * pins.c - what-if pins (SPEC §3.3) and their undo stack (pins.h).
 *
 * The pins are a small list of (name, device); the phases receive them in
 * PhaseContext and turn each into a bind constraint, so a pin behaves
 * exactly like an annotation the user did not have to write. Undo keeps a
 * snapshot of the whole list before every change: lists are short and a
 * snapshot cannot get out of step with the operations that made it.
 */
#include "pins.h"

#include <stdlib.h>
#include <string.h>

static void pin_free(PlanPin *pin)
{
	free(pin->name);
	free(pin->op);
}

static PlanPin pin_copy(const PlanPin *pin)
{
	PlanPin c = *pin;
	c.name = pin->name ? xstrdup(pin->name) : NULL;
	c.op = pin->op ? xstrdup(pin->op) : NULL;
	return c;
}

/* Whether two pins name the same values: the same name or the same
 * operators as written (how they place them may differ). */
static bool same_key(const PlanPin *a, const char *name, const char *op)
{
	if (name)
		return a->name && strcmp(a->name, name) == 0;
	return a->op && op && strcmp(a->op, op) == 0;
}

static void pin_list_free(PinList *l)
{
	for (size_t i = 0; i < l->count; i++)
		pin_free(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof *l);
}

static PinList pin_list_copy(const PinList *l)
{
	PinList c = {0};
	if (!l->count)
		return c;
	c.items = xmalloc(l->count * sizeof(PlanPin));
	c.cap = c.count = l->count;
	for (size_t i = 0; i < l->count; i++)
		c.items[i] = pin_copy(&l->items[i]);
	return c;
}

static void push_undo(PinSet *p)
{
	grow_array((void **)&p->undo, &p->cap_undo, p->nundo + 1, sizeof(PinList));
	p->undo[p->nundo++] = pin_list_copy(&p->current);
}

void pins_set(PinSet *p, const PlanPin *pin)
{
	PinList *l = &p->current;
	push_undo(p);
	for (size_t i = 0; i < l->count; i++)
		if (same_key(&l->items[i], pin->name, pin->op)) {
			pin_free(&l->items[i]);
			l->items[i] = pin_copy(pin);
			return;
		}
	grow_array((void **)&l->items, &l->cap, l->count + 1, sizeof(PlanPin));
	l->items[l->count++] = pin_copy(pin);
}

bool pins_remove(PinSet *p, const char *name, const char *op)
{
	PinList *l = &p->current;
	for (size_t i = 0; i < l->count; i++) {
		if (!same_key(&l->items[i], name, op))
			continue;
		push_undo(p);
		pin_free(&l->items[i]);
		memmove(&l->items[i], &l->items[i + 1], (l->count - i - 1) * sizeof(PlanPin));
		l->count--;
		return true;
	}
	return false;
}

bool pins_undo(PinSet *p)
{
	if (!p->nundo)
		return false;
	pin_list_free(&p->current);
	p->current = p->undo[--p->nundo];
	return true;
}

void pins_clear(PinSet *p)
{
	pin_list_free(&p->current);
	for (size_t i = 0; i < p->nundo; i++)
		pin_list_free(&p->undo[i]);
	free(p->undo);
	memset(p, 0, sizeof *p);
}

void pins_copy(PinSet *dst, const PinSet *src)
{
	memset(dst, 0, sizeof *dst);
	dst->current = pin_list_copy(&src->current);
	for (size_t i = 0; i < src->nundo; i++) {
		grow_array((void **)&dst->undo, &dst->cap_undo, dst->nundo + 1, sizeof(PinList));
		dst->undo[dst->nundo++] = pin_list_copy(&src->undo[i]);
	}
}
