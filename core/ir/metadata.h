/*
 * metadata.h - TVM's `#[metadata]` section: reading and writing.
 *
 * The section is the JSON object graph that TVM's astext(show_meta_data=True)
 * appends to a module: nodes with a type_key and attributes that refer to
 * other nodes by index, plus base64 NDArrays in "b64ndarrays". devplan reads
 * its VirtualDevice entries (to (device_type, device_id) pairs) and its
 * relay.Constant tensors, and writes a section of the same shape holding the
 * session's device table and the module's constants.
 *
 * Ownership: a MetadataSection is filled by metadata_parse with arrays the
 * caller frees with metadata_free; tensor data is copied into the arena the
 * caller passes.
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
} MetadataDevice;

typedef struct MetadataSection {
	MetadataDevice *devices; /* meta[VirtualDevice][i] */
	uint32_t ndevices;
	Tensor *constants; /* meta[relay.Constant][i], data in the arena */
	uint32_t nconstants;
} MetadataSection;

/* Parses the JSON text that follows `#[metadata]`; `pos` is where it starts
 * in src, for diagnostics. Returns false after reporting errors. */
bool metadata_parse(const char *json, size_t len, const SourceFile *src, Pos pos, Arena *arena,
		    MetadataSection *out, DiagList *diags);
void metadata_free(MetadataSection *section);

/* Appends `#[metadata]` and a JSON section holding every entry of the
 * device table (as VirtualDevice i) and m->constants (as relay.Constant i),
 * in the shape TVM writes, so that parse_module reads it back. */
void metadata_write(StrBuf *out, const IrModule *m, const DeviceTable *devices);

#endif
