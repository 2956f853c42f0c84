/*
 * metadata.h - TVM's `#[metadata]` section: reading, keeping and writing.
 *
 * The section is the JSON object graph that TVM's astext(show_meta_data=True)
 * appends to a module: nodes with a type_key and attributes that refer to
 * other nodes by index, plus base64 NDArrays in "b64ndarrays"; its root is
 * a Map from type keys to Arrays of nodes, which `meta[KEY][i]` indexes.
 * devplan reads its VirtualDevice entries (to (device_type, device_id,
 * memory_scope)) and its relay.Constant tensors; every other entry (an IndexMap, a
 * Target, a Map, ...) it only counts, so that a reference to it can be
 * checked, and keeps as written.
 *
 * Writing: a module loaded with a section prints it back (print_module with
 * show_metadata) so that every `meta[KEY][i]` of the printed text stays
 * valid: byte for byte as written while what devplan owns in it (the
 * devices the text refers to, the constants) is unchanged, else as the
 * original graph, every node at its index, followed by the nodes devplan
 * adds (new devices, changed constants, their arrays and a new root). A
 * module without one gets a fresh section holding the session's device
 * table and the module's constants.
 *
 * Ownership: a MetadataSection is filled by metadata_parse with arrays the
 * caller frees with metadata_free; tensor data and key names are copied into
 * the arena the caller passes. The IrMetadata that metadata_keep makes lives
 * in the module's data arena (ir_data_arena), immutable and shared by every
 * version cloned from the module, which points to it (IrModule.metadata);
 * nobody frees it but the arena. A MetadataSlots belongs to the printer that
 * initialises it, for one print, and is freed with metadata_slots_free.
 */
#ifndef DEVPLAN_METADATA_H
#define DEVPLAN_METADATA_H

#include <stdbool.h>

#include "devices.h"
#include "diag.h"
#include "ir.h"

typedef struct MetadataDevice {
	int device_type; /* DLPack code; -1 for an unconstrained VirtualDevice */
	int device_id;
	const char *scope; /* its memory_scope, "" for none (in the arena) */
} MetadataDevice;

/* A root key and how many entries it has: meta[name][0 .. count - 1]. */
typedef struct MetadataKey {
	const char *name; /* "IndexMap" */
	uint32_t count;
} MetadataKey;

typedef struct MetadataSection {
	MetadataDevice *devices; /* meta[VirtualDevice][i] */
	uint32_t ndevices;
	Tensor *constants; /* meta[relay.Constant][i], data in the arena */
	uint32_t nconstants;
	MetadataKey *keys; /* every key of the root, in its order; names in the arena */
	uint32_t nkeys;
} MetadataSection;

/* What a module keeps of the section it was loaded with (see the top). */
struct IrMetadata {
	const char *text; /* from `#[metadata]` to the end of the source, as written */
	size_t len;
	const MetadataDevice *devices; /* its VirtualDevice entries */
	uint32_t ndevices;
	const Tensor *constants; /* its relay.Constant tensors, as loaded */
	uint32_t nconstants;
	const MetadataKey *keys; /* its root keys with their entry counts */
	uint32_t nkeys;
};

/* Parses the JSON text that follows `#[metadata]`; `pos` is where it starts
 * in src, for diagnostics. Returns false after reporting errors. */
bool metadata_parse(const char *json, size_t len, const SourceFile *src, Pos pos, Arena *arena,
		    MetadataSection *out, DiagList *diags);
void metadata_free(MetadataSection *section);

/* The key `name` of a section's root (`len` bytes of it), or NULL. */
const MetadataKey *metadata_find_key(const MetadataKey *keys, uint32_t nkeys, const char *name,
				     size_t len);

/* Makes m keep the section `text` (`len` bytes from `#[metadata]` on) that
 * `section` was read from, with m's constants as loaded (m->constants). */
void metadata_keep(IrModule *m, const char *text, size_t len, const MetadataSection *section);

/* The numbers `meta[VirtualDevice][i]` a module printed with its section
 * gives devices: with a kept section, its own entries first (a device
 * prints as the first entry with its device type, id and memory scope), then each other
 * device in the order the printer first asks for it; without one, the
 * device-table index. */
typedef struct MetadataSlots {
	const IrMetadata *kept; /* NULL: the device-table index */
	const DeviceTable *devices;
	int32_t *slot_of; /* by device-table index: its number, or -1 (none yet) */
	int32_t *added;   /* the devices numbered kept->ndevices, ..., in order */
	uint32_t nadded;
} MetadataSlots;

void metadata_slots_init(MetadataSlots *s, const IrMetadata *kept, const DeviceTable *devices);
/* The number of device-table entry `device` (>= 0), given one if needed. */
int32_t metadata_slot(MetadataSlots *s, int32_t device);
void metadata_slots_free(MetadataSlots *s);

/* Appends `#[metadata]` and a JSON section in the shape TVM writes, which
 * parse_module reads back. With a kept section (m->metadata) and the
 * `slots` the module's text was printed with: the kept text when no device
 * was added and m's constants are those loaded, else the kept graph with
 * the added devices and changed constants appended (see the top). Without
 * one: every entry of the device table (as VirtualDevice i) and
 * m->constants (as relay.Constant i); slots are then not used. */
void metadata_write(StrBuf *out, const IrModule *m, const DeviceTable *devices,
		    const MetadataSlots *slots);

#endif
