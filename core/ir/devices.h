/*
 * devices.h - the session's device table (SPEC §4).
 *
 * Entry i is what `meta[VirtualDevice][i]` means for a module without its own
 * #[metadata], and what an expression's `device` field indexes. Entries are
 * only ever appended, so an index stays valid for the session's life. The
 * table owns its strings.
 */
#ifndef DEVPLAN_DEVICES_H
#define DEVPLAN_DEVICES_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/* The most entries a table holds: an expression stores its device index in
 * 16 bits (ir.h). */
#define DEVICES_MAX 4096

/* DLPack device type codes, as TVM prints them in device_type=N. */
enum { DEVICE_TYPE_CPU = 1, DEVICE_TYPE_CUDA = 2 };

typedef struct Device {
	char *name;      /* "KIND:ID", e.g. "cuda:0" */
	char *kind;      /* "cpu", "cuda", ... */
	int device_type; /* DLPack code */
	int device_id;
	char *target;      /* "llvm", "cuda", ... */
	char *host_target; /* "llvm" for accelerators, NULL for the cpu */
} Device;

typedef struct DeviceTable {
	Device *items;
	uint32_t count;
	size_t cap;
} DeviceTable;

/* The default table: 0 = cpu:0 (llvm), 1 = cuda:0 (cuda, host llvm). */
void devices_init_default(DeviceTable *table);
void devices_free(DeviceTable *table);
/* Makes dst (uninitialised) an independent copy of src. */
void devices_copy(DeviceTable *dst, const DeviceTable *src);
/* Appends KIND:ID with a target (NULL: the kind's default target). Returns
 * the new index, or -1 with *err set (caller frees) for an unknown kind, a
 * malformed name, a duplicate or a full table (DEVICES_MAX). */
int devices_add(DeviceTable *table, const char *name, const char *target, char **err);
/* Index of the entry named "KIND:ID" (also accepts "KIND" for id 0), or -1. */
int devices_find_name(const DeviceTable *table, const char *name);
/* Index of the entry with this DLPack type and id, or -1. */
int devices_find(const DeviceTable *table, int device_type, int device_id);
/* DLPack type of a kind name ("cpu", "llvm", "cuda", "gpu", ...), or -1. */
int devices_type_of_kind(const char *kind);
/* Kind name of a DLPack type code ("cpu", "cuda", ...), or NULL. */
const char *devices_kind_of_type(int device_type);
/* The name of entry i, or "?" for IR_NO_DEVICE or an out-of-range index. */
const char *devices_name(const DeviceTable *table, int32_t index);

#endif
