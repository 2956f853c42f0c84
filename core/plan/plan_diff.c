/*
 * plan_diff.c - what changed between two plans' placement facts, for the
 * what-if commands (`pin`, `unpin`, `undo`).
 *
 * Facts of the two plans are matched on what names them: a param, bind or
 * result by its function, kind and value (the same binding, wherever it
 * now lives), a copy by all of it. Both lists are sorted on that key and
 * merged; equal keys keep the placement's order (a name bound twice in one
 * function is paired first with first). The changes are then put in
 * program order, the order of the placements' facts (%2 before %10), a
 * removed fact before the one at its place in the other plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* A fact with the parts of its key its line writes as text. */
typedef struct FactKey {
	const PlacementFact *fact;
	const char *kind;
	const char *value;
	const char *src, *dst; /* a copy's devices */
	char bytes[24];        /* a copy's bytes as its line writes them */
	size_t index;          /* its place in the placement */
} FactKey;

static int compare_keys(const FactKey *a, const FactKey *b)
{
	int c = strcmp(a->fact->function, b->fact->function);
	if (!c)
		c = strcmp(a->kind, b->kind);
	if (!c)
		c = strcmp(a->value, b->value);
	if (!c && a->fact->kind == FACT_COPY) {
		c = strcmp(a->src, b->src);
		if (!c)
			c = strcmp(a->dst, b->dst);
		if (!c)
			c = strcmp(a->bytes, b->bytes);
	}
	return c;
}

static int compare_sorted(const void *a, const void *b)
{
	const FactKey *x = a, *y = b;
	int c = compare_keys(x, y);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The facts of p sorted on their keys; adds up its copies and bytes. */
static FactKey *sorted_keys(const Placement *p, const DeviceTable *devices, size_t *copies,
			    int64_t *bytes)
{
	size_t n = p ? p->count : 0;
	FactKey *keys = xcalloc(n + 1, sizeof(FactKey));
	*copies = 0;
	*bytes = 0;
	for (size_t i = 0; i < n; i++) {
		const PlacementFact *f = &p->facts[i];
		FactKey *k = &keys[i];
		k->fact = f;
		k->kind = plan_fact_kind_name(f->kind);
		k->value = f->value ? f->value : "";
		k->index = i;
		if (f->kind != FACT_COPY)
			continue;
		k->src = devices_name(devices, f->device);
		k->dst = devices_name(devices, f->dest);
		if (f->bytes >= 0)
			snprintf(k->bytes, sizeof k->bytes, "%lld", (long long)f->bytes);
		else
			strcpy(k->bytes, "?");
		(*copies)++;
		*bytes += f->bytes >= 0 ? f->bytes : 0;
	}
	if (n)
		qsort(keys, n, sizeof(FactKey), compare_sorted);
	return keys;
}

static void add_change(PlacementDiff *d, size_t *cap, PlacementChangeKind kind,
		       const FactKey *before, const FactKey *after)
{
	grow_array((void **)&d->changes, cap, d->count + 1, sizeof(PlacementChange));
	d->changes[d->count++] =
		(PlacementChange){kind, before ? before->fact : NULL, after ? after->fact : NULL,
				  /* where the fact is in the program: both placements list
		 * theirs in program order */
				  after ? after->index : before->index};
}

static int compare_order(const void *a, const void *b)
{
	const PlacementChange *x = a, *y = b;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	/* a fact removed before the one that took its place */
	return (x->kind != PLACEMENT_REMOVED) - (y->kind != PLACEMENT_REMOVED);
}

void plan_placement_diff(const Placement *before, const Placement *after,
			 const DeviceTable *devices, PlacementDiff *out)
{
	FactKey *a, *b;
	size_t na = before ? before->count : 0, nb = after ? after->count : 0;
	size_t i = 0, j = 0, cap = 0;
	memset(out, 0, sizeof *out);
	a = sorted_keys(before, devices, &out->copies[0], &out->bytes[0]);
	b = sorted_keys(after, devices, &out->copies[1], &out->bytes[1]);
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : compare_keys(&a[i], &b[j]);
		if (c == 0) {
			/* a copy's key is all of it: only a param, bind or result moves */
			if (a[i].fact->kind != FACT_COPY && a[i].fact->device != b[j].fact->device)
				add_change(out, &cap, PLACEMENT_MOVED, &a[i], &b[j]);
			i++;
			j++;
		} else if (c < 0) {
			add_change(out, &cap, PLACEMENT_REMOVED, &a[i++], NULL);
		} else {
			add_change(out, &cap, PLACEMENT_ADDED, NULL, &b[j++]);
		}
	}
	if (out->count > 1)
		qsort(out->changes, out->count, sizeof(PlacementChange), compare_order);
	free(a);
	free(b);
}

void plan_placement_diff_free(PlacementDiff *d)
{
	free(d->changes);
	memset(d, 0, sizeof *d);
}
