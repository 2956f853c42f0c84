/*
 * session_pins.c - what-if pins (SPEC §3.3) and their undo stack.
 *
 * The pins are a small list of (name, device); the phases receive them in
 * PhaseContext and turn each into a bind constraint, so a pin behaves
 * exactly like an annotation the user did not have to write. Undo keeps a
 * snapshot of the whole list before every change: lists are short and a
 * snapshot cannot get out of step with the operations that made it.
 */
#include <stdlib.h>
#include <string.h>

#include "session.h"

typedef struct PinList {
	PlanPin *items;
	size_t count, cap;
} PinList;

typedef struct SessionPins {
	PinList current;
	PinList *undo; /* snapshots, newest last */
	size_t nundo, cap_undo;
} SessionPins;

static void pin_list_free(PinList *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->items[i].name);
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
	for (size_t i = 0; i < l->count; i++) {
		c.items[i].name = xstrdup(l->items[i].name);
		c.items[i].device = l->items[i].device;
	}
	return c;
}

static SessionPins *pins_of(Session *s)
{
	if (!s->pins)
		s->pins = xcalloc(1, sizeof(SessionPins));
	return s->pins;
}

static void push_undo(SessionPins *p)
{
	grow_array((void **)&p->undo, &p->cap_undo, p->nundo + 1, sizeof(PinList));
	p->undo[p->nundo++] = pin_list_copy(&p->current);
}

void session_pin(Session *s, const char *name, int32_t device)
{
	SessionPins *p = pins_of(s);
	PinList *l = &p->current;
	push_undo(p);
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->items[i].name, name) == 0) {
			l->items[i].device = device;
			session_restart(s);
			return;
		}
	grow_array((void **)&l->items, &l->cap, l->count + 1, sizeof(PlanPin));
	l->items[l->count].name = xstrdup(name);
	l->items[l->count].device = device;
	l->count++;
	session_restart(s);
}

bool session_unpin(Session *s, const char *name)
{
	SessionPins *p = pins_of(s);
	PinList *l = &p->current;
	for (size_t i = 0; i < l->count; i++) {
		if (strcmp(l->items[i].name, name) != 0)
			continue;
		push_undo(p);
		free(l->items[i].name);
		memmove(&l->items[i], &l->items[i + 1], (l->count - i - 1) * sizeof(PlanPin));
		l->count--;
		session_restart(s);
		return true;
	}
	return false;
}

bool session_undo_pins(Session *s)
{
	SessionPins *p = pins_of(s);
	if (!p->nundo)
		return false;
	pin_list_free(&p->current);
	p->current = p->undo[--p->nundo];
	session_restart(s);
	return true;
}

const PlanPin *session_pins(const Session *s, size_t *count)
{
	if (!s->pins) {
		*count = 0;
		return NULL;
	}
	*count = s->pins->current.count;
	return s->pins->current.items;
}

void session_pins_free(Session *s)
{
	SessionPins *p = s->pins;
	if (!p)
		return;
	pin_list_free(&p->current);
	for (size_t i = 0; i < p->nundo; i++)
		pin_list_free(&p->undo[i]);
	free(p->undo);
	free(p);
	s->pins = NULL;
}
