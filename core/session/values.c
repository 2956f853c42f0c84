/*
 * values.c - the tensors the last run kept (values.h).
 *
 * A plain array in the order the run computed them; a lookup walks it from
 * the end, so the last occurrence of a value computed several times (a
 * loop's body) is the one `print` shows.
 */
#include "values.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void session_values_clear(SessionValues *v)
{
	unsigned run = v->run;
	for (size_t i = 0; i < v->count; i++)
		npy_array_free(&v->items[i].value);
	free(v->items);
	for (size_t i = 0; i < v->nresults; i++)
		npy_array_free(&v->results[i]);
	free(v->results);
	free(v->result_devices);
	if (v->module)
		ir_module_free(v->module);
	memset(v, 0, sizeof *v);
	v->run = run;
}

void session_values_start(SessionValues *v, const IrModule *m, bool every, uint64_t budget)
{
	session_values_clear(v);
	v->module = ir_module_retain(m);
	v->every = every;
	v->budget = budget;
	v->run++;
}

void session_values_set_results(SessionValues *v, NpyArray *results, int32_t *devices, size_t n)
{
	for (size_t i = 0; i < v->nresults; i++)
		npy_array_free(&v->results[i]);
	free(v->results);
	free(v->result_devices);
	v->results = results;
	v->result_devices = devices;
	v->nresults = n;
}

void session_values_add(SessionValues *v, uint32_t id, uint32_t field, int32_t device,
			SessionValueKind kind, NpyArray *value)
{
	SessionValue *item;
	grow_array((void **)&v->items, &v->cap, v->count + 1, sizeof(SessionValue));
	item = &v->items[v->count++];
	item->id = id;
	item->field = field;
	item->device = device;
	item->kind = kind;
	item->value = *value;
	v->bytes += value->nbytes;
	memset(value, 0, sizeof *value);
}

const SessionValue *session_values_find(const SessionValues *v, uint32_t id, uint32_t field)
{
	for (size_t i = v->count; i-- > 0;)
		if (v->items[i].id == id && v->items[i].field == field)
			return &v->items[i];
	return NULL;
}
