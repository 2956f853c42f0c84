/*
 * plan_regions.c - device regions: the runs of calls on one device, in
 * execution order, and where each device_copy falls between them (plan.h
 * says what a region is). The `regions` command prints them and `render
 * --regions` draws one cluster per region, both from this one result.
 *
 * Every call and every copy of a function is listed once, so the id lists
 * of all regions fit in one array of the functions' total body length,
 * allocated up front: the lists point into it as they are filled.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* A call that runs on a device and so belongs to a region: an operator or
 * a function call, not on_device or device_copy. */
static bool region_call(const Expr *e)
{
	return e->kind == EXPR_CALL && !op_is_annotation(e->u.call.op);
}

static int32_t device_of_expr(const int32_t *device_of, const Expr *e)
{
	return device_of ? device_of[e->id] : e->device;
}

/* The device a copy brings its value to. */
static int32_t copy_destination(const Expr *copy)
{
	int32_t src, dst;
	ir_device_copy_props(copy, &src, &dst);
	return dst;
}

void plan_regions(const PlanFunctions *functions, const int32_t *device_of, PlanRegions *out)
{
	size_t nids = 0, nregions = 0, cap_regions = 0;
	size_t *first_region = xmalloc((functions->count + 1) * sizeof(size_t));
	memset(out, 0, sizeof *out);
	out->count = functions->count;
	out->functions = xcalloc(functions->count + 1, sizeof(PlanFunctionRegions));
	out->ids = xmalloc((functions->order.count + 1) * sizeof(uint32_t));
	for (size_t f = 0; f < functions->count; f++) {
		const PlanFunction *function = &functions->items[f];
		Expr *const *body =
			function->nbody ? functions->order.items + function->body : NULL;
		size_t n = function->nbody, i = 0;
		PlanFunctionRegions *fr = &out->functions[f];
		fr->function = function;
		fr->trailing = out->ids + nids;
		first_region[f] = nregions;
		while (i < n) {
			size_t first = i, last, start = nids;
			int32_t device;
			PlanRegion *r;
			/* the copies before the next region, in order */
			for (; first < n && !region_call(body[first]); first++)
				if (ir_is_op(body[first], OP_DEVICE_COPY))
					out->ids[nids++] = body[first]->id;
			if (first == n) {
				fr->trailing = out->ids + start;
				fr->ntrailing = nids - start;
				break;
			}
			/* the region: to its last call before a call on another device */
			device = device_of_expr(device_of, body[first]);
			last = first;
			for (size_t k = first + 1; k < n; k++) {
				if (!region_call(body[k]))
					continue;
				if (device_of_expr(device_of, body[k]) != device)
					break;
				last = k;
			}
			grow_array((void **)&out->regions, &cap_regions, nregions + 1,
				   sizeof(PlanRegion));
			r = &out->regions[nregions++];
			r->device = device;
			r->before = out->ids + start;
			for (size_t k = first; k <= last; k++)
				if (ir_is_op(body[k], OP_DEVICE_COPY) &&
				    copy_destination(body[k]) == device)
					out->ids[nids++] = body[k]->id;
			r->nbefore = nids - start;
			r->calls = out->ids + nids;
			for (size_t k = first; k <= last; k++)
				if (region_call(body[k]))
					out->ids[nids++] = body[k]->id;
			r->ncalls = (size_t)(out->ids + nids - r->calls);
			r->after = out->ids + nids;
			for (size_t k = first + 1; k < last; k++)
				if (ir_is_op(body[k], OP_DEVICE_COPY) &&
				    copy_destination(body[k]) != device)
					out->ids[nids++] = body[k]->id;
			r->nafter = (size_t)(out->ids + nids - r->after);
			i = last + 1;
		}
	}
	/* the regions array has stopped moving: point each function at its own */
	for (size_t f = 0; f < functions->count; f++) {
		size_t end = f + 1 < functions->count ? first_region[f + 1] : nregions;
		out->functions[f].regions = out->regions ? out->regions + first_region[f] : NULL;
		out->functions[f].count = end - first_region[f];
	}
	free(first_region);
}

void plan_regions_free(PlanRegions *r)
{
	free(r->functions);
	free(r->regions);
	free(r->ids);
	memset(r, 0, sizeof *r);
}
