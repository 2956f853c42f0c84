/*
 * metadata.c - TVM's `#[metadata]` section: reading and writing.
 *
 * Reading: json-c (json_tokener) turns the text into a tree; this file walks
 * TVM's object graph on it. The root node is a Map from type keys to Arrays
 * of node indices; of the other keys than "VirtualDevice" and
 * "relay.Constant" only the entry counts are read (MetadataKey);
 * VirtualDevice nodes carry device_type_int and virtual_device_id as
 * strings; relay.Constant nodes carry attrs.data, an index into
 * "b64ndarrays", whose strings are base64 of TVM's NDArray save format:
 *
 *   uint64 magic 0xDD5E40F096B4A13F, uint64 reserved,
 *   int32 device_type, int32 device_id, int32 ndim,
 *   uint8 code (0 int, 1 uint, 2 float, 4 bfloat), uint8 bits, uint16 lanes,
 *   int64 shape[ndim], int64 data_byte_size, data.
 *
 * All of it is untrusted: every index is range-checked, every length is
 * checked against the bytes actually present before reading, and the first
 * inconsistency is reported (positioned at the JSON text it concerns when
 * that can be found) and stops the reader. Multi-byte fields are assembled
 * little-endian byte by byte, so the host's byte order and alignment do not
 * matter.
 *
 * Writing emits the graph by hand (a StrBuf, one node per line) so the
 * output is deterministic. A module without a section of its own gets a
 * fresh one (write_fresh): the device table as VirtualDevice entries (each
 * with a Target and its TargetKind name) and the module's constants as
 * relay.Constant nodes with their b64ndarrays. A module loaded with one
 * (IrModule.metadata, made by metadata_keep) prints its text as written
 * when nothing devplan owns in it changed; else write_merged reads the kept
 * text again and writes every node of it at its own index (so no reference
 * inside an object devplan does not understand needs renumbering), then
 * appends the devices the printed text added (MetadataSlots), the
 * constants that differ from those loaded, the Arrays that changed and a
 * new root Map with the kept keys in their order; the nodes these replace
 * stay, unreferenced, which TVM's loader accepts.
 */
#include "metadata.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { METADATA_JSON_DEPTH = 64, NDARRAY_MAX_DIMS = 64 };

static const uint64_t ndarray_magic = 0xDD5E40F096B4A13FULL;

typedef struct MetaReader {
	const char *json;
	size_t len;
	const SourceFile *src;
	Pos pos; /* of json[0] */
	Arena *arena;
	DiagList *diags;
	json_object *nodes;
	size_t nnodes;
	json_object *arrays; /* b64ndarrays, or NULL */
	bool failed;
} MetaReader;

/* ---- Positions and errors --------------------------------------------- */

static Pos offset_pos(const MetaReader *r, size_t offset)
{
	Pos p = r->pos;
	for (size_t i = 0; i < offset && i < r->len; i++) {
		if (r->json[i] == '\n') {
			p.line++;
			p.col = 1;
		} else {
			p.col++;
		}
	}
	return p;
}

/* Offset of the n-th (0-based) occurrence of needle, or of `fallback` when
 * there are fewer, or 0. */
static size_t find_text(const MetaReader *r, const char *needle, size_t n, const char *fallback)
{
	size_t nlen = strlen(needle), from = 0;
	const char *hit;
	for (;;) {
		hit = NULL;
		for (size_t i = from; i + nlen <= r->len; i++) {
			if (r->json[i] == needle[0] && memcmp(r->json + i, needle, nlen) == 0) {
				hit = r->json + i;
				break;
			}
		}
		if (!hit)
			break;
		if (n-- == 0)
			return (size_t)(hit - r->json);
		from = (size_t)(hit - r->json) + nlen;
	}
	return fallback ? find_text(r, fallback, 0, NULL) : 0;
}

static void meta_error(MetaReader *r, size_t offset, const char *fmt, ...) DP_PRINTF(3, 4);

static void meta_error(MetaReader *r, size_t offset, const char *fmt, ...)
{
	va_list ap;
	if (r->failed)
		return;
	r->failed = true;
	va_start(ap, fmt);
	diag_vadd(r->diags, DIAG_ERROR, r->src, offset_pos(r, offset), fmt, ap);
	va_end(ap);
}

/* Where node i is written: its type_key (each node has exactly one). */
static size_t node_offset(const MetaReader *r, int64_t i)
{
	return i >= 0 ? find_text(r, "\"type_key\"", (size_t)i, "\"nodes\"") : 0;
}

/* ---- The object graph -------------------------------------------------- */

static bool get_int(json_object *v, int64_t *out)
{
	if (!v)
		return false;
	if (json_object_is_type(v, json_type_int)) {
		*out = json_object_get_int64(v);
		return true;
	}
	if (json_object_is_type(v, json_type_string)) {
		/* TVM writes integer attributes as strings: "device_type_int": "2" */
		const char *s = json_object_get_string(v);
		char *end;
		long long x;
		if (!*s)
			return false;
		errno = 0;
		x = strtoll(s, &end, 10);
		if (*end || errno)
			return false;
		*out = x;
		return true;
	}
	return false;
}

static const char *type_key(json_object *node)
{
	json_object *k;
	if (!json_object_is_type(node, json_type_object) ||
	    !json_object_object_get_ex(node, "type_key", &k) ||
	    !json_object_is_type(k, json_type_string))
		return "";
	return json_object_get_string(k);
}

/* Node `index`, which must have type_key `want`. */
static json_object *get_node(MetaReader *r, int64_t index, const char *want, const char *role)
{
	json_object *node;
	if (index < 0 || (uint64_t)index >= r->nnodes) {
		meta_error(r, find_text(r, "\"nodes\"", 0, NULL),
			   "metadata: %s refers to node %lld, but there are %zu nodes", role,
			   (long long)index, r->nnodes);
		return NULL;
	}
	node = json_object_array_get_idx(r->nodes, (size_t)index);
	if (strcmp(type_key(node), want) != 0) {
		meta_error(r, node_offset(r, index),
			   "metadata: node %lld (%s) is a '%s', not a '%s'", (long long)index, role,
			   type_key(node), want);
		return NULL;
	}
	return node;
}

/* The int attribute `name` of a node (attrs: {"name": "2"}), if it has one. */
static bool node_attr_int_opt(json_object *node, const char *name, int64_t *out)
{
	json_object *attrs, *v;
	return json_object_object_get_ex(node, "attrs", &attrs) &&
	       json_object_is_type(attrs, json_type_object) &&
	       json_object_object_get_ex(attrs, name, &v) && get_int(v, out);
}

static bool node_attr_int(MetaReader *r, json_object *node, int64_t index, const char *name,
			  int64_t *out)
{
	if (node_attr_int_opt(node, name, out))
		return true;
	meta_error(r, node_offset(r, index),
		   "metadata: node %lld (%s) has no integer attribute '%s'", (long long)index,
		   type_key(node), name);
	return false;
}

/* The "data" array of an Array or Map node (absent: empty). */
static json_object *node_data(MetaReader *r, json_object *node, int64_t index)
{
	json_object *data;
	if (!json_object_object_get_ex(node, "data", &data))
		return NULL;
	if (!json_object_is_type(data, json_type_array)) {
		meta_error(r, node_offset(r, index),
			   "metadata: node %lld has a \"data\" that is not an array",
			   (long long)index);
		return NULL;
	}
	return data;
}

static bool array_item_int(MetaReader *r, json_object *array, size_t i, int64_t node_index,
			   int64_t *out)
{
	if (get_int(json_object_array_get_idx(array, i), out))
		return true;
	meta_error(r, node_offset(r, node_index),
		   "metadata: item %zu of node %lld is not a node index", i, (long long)node_index);
	return false;
}

/* ---- NDArrays ---------------------------------------------------------- */

static int base64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decodes base64 (padding optional) into out, which holds at least
 * n / 4 * 3 + 3 bytes. False with *bad at the offending character. */
static bool base64_decode(const char *s, size_t n, unsigned char *out, size_t *out_len, size_t *bad)
{
	uint32_t acc = 0;
	size_t bits = 0, o = 0, body = n;
	while (body > 0 && s[body - 1] == '=' && n - body < 2)
		body--;
	for (size_t i = 0; i < body; i++) {
		int v = base64_value((unsigned char)s[i]);
		if (v < 0) {
			*bad = i;
			return false;
		}
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	if (body % 4 == 1) {
		*bad = body;
		return false;
	}
	*out_len = o;
	return true;
}

/* A bounds-checked little-endian reader over decoded bytes. */
typedef struct ByteReader {
	const unsigned char *data;
	size_t len;
	size_t at;
} ByteReader;

static bool read_le(ByteReader *br, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (br->len - br->at < n)
		return false;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)br->data[br->at + i] << (8 * i);
	br->at += n;
	*out = v;
	return true;
}

/* Decodes b64ndarrays[which] into out (shape and data in the arena). */
static bool read_ndarray(MetaReader *r, size_t which, Tensor *out)
{
	json_object *v = json_object_array_get_idx(r->arrays, which);
	const char *s;
	size_t n, decoded_len = 0, bad = 0, at;
	unsigned char *bytes;
	ByteReader br;
	uint64_t magic, word, ndim, code, bits, lanes, nbytes;
	int64_t count = 1;
	DType dt;
	char needle[40];
	bool ok = false;
	if (!json_object_is_type(v, json_type_string)) {
		meta_error(r, find_text(r, "\"b64ndarrays\"", 0, NULL),
			   "metadata: b64ndarrays[%zu] is not a string", which);
		return false;
	}
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	/* position: the string's first characters in the text */
	snprintf(needle, sizeof needle, "\"%.24s", s);
	at = find_text(r, needle, 0, "\"b64ndarrays\"");
	bytes = xmalloc(n / 4 * 3 + 3);
	if (!base64_decode(s, n, bytes, &decoded_len, &bad)) {
		if (bad < n)
			meta_error(r, at,
				   "metadata: b64ndarrays[%zu] is not valid base64 (character %zu)",
				   which, bad + 1);
		else
			meta_error(r, at, "metadata: b64ndarrays[%zu] is truncated base64", which);
		goto out;
	}
	br = (ByteReader){bytes, decoded_len, 0};
	if (!read_le(&br, 8, &magic) || magic != ndarray_magic) {
		meta_error(r, at,
			   "metadata: b64ndarrays[%zu] is not a TVM NDArray (bad magic number)",
			   which);
		goto out;
	}
	if (!read_le(&br, 8, &word) || !read_le(&br, 4, &word) || !read_le(&br, 4, &word) ||
	    !read_le(&br, 4, &ndim) || !read_le(&br, 1, &code) || !read_le(&br, 1, &bits) ||
	    !read_le(&br, 2, &lanes)) {
		meta_error(r, at, "metadata: b64ndarrays[%zu] is truncated in its header", which);
		goto out;
	}
	if (ndim > NDARRAY_MAX_DIMS) {
		meta_error(r, at, "metadata: b64ndarrays[%zu] has %llu dimensions (at most %d)",
			   which, (unsigned long long)(int32_t)ndim, NDARRAY_MAX_DIMS);
		goto out;
	}
	if (lanes != 1 || !dtype_from_dlpack((unsigned)code, (unsigned)bits, &dt)) {
		meta_error(
			r, at,
			"metadata: b64ndarrays[%zu] has an unsupported dtype (code %u, %u bits, %u "
			"lanes)",
			which, (unsigned)code, (unsigned)bits, (unsigned)lanes);
		goto out;
	}
	out->dtype = dt;
	out->ndim = (uint32_t)ndim;
	out->shape = arena_array(r->arena, ndim, sizeof(int64_t));
	for (uint64_t i = 0; i < ndim; i++) {
		int64_t d;
		if (!read_le(&br, 8, &word)) {
			meta_error(r, at, "metadata: b64ndarrays[%zu] is truncated in its shape",
				   which);
			goto out;
		}
		d = (int64_t)word;
		if (d < 0 || (d > 0 && count > INT64_MAX / d)) {
			meta_error(r, at, "metadata: b64ndarrays[%zu] has an invalid shape", which);
			goto out;
		}
		out->shape[i] = d;
		count *= d;
	}
	if (count > INT64_MAX / (int64_t)dtype_size(dt)) {
		meta_error(r, at, "metadata: b64ndarrays[%zu] has an invalid shape", which);
		goto out;
	}
	if (!read_le(&br, 8, &nbytes)) {
		meta_error(r, at, "metadata: b64ndarrays[%zu] is truncated before its data size",
			   which);
		goto out;
	}
	if (nbytes != (uint64_t)count * dtype_size(dt)) {
		meta_error(r, at,
			   "metadata: b64ndarrays[%zu] announces %llu bytes of data, but its shape "
			   "and dtype need %llu",
			   which, (unsigned long long)nbytes,
			   (unsigned long long)((uint64_t)count * dtype_size(dt)));
		goto out;
	}
	if (br.len - br.at != nbytes) {
		meta_error(
			r, at,
			"metadata: b64ndarrays[%zu] %s: its header announces %llu bytes of data, "
			"%zu are present",
			which, br.len - br.at < nbytes ? "is truncated" : "has extra bytes",
			(unsigned long long)nbytes, br.len - br.at);
		goto out;
	}
	out->nbytes = (size_t)nbytes;
	out->data = arena_alloc(r->arena, out->nbytes);
	if (nbytes)
		memcpy(out->data, br.data + br.at, out->nbytes);
	ok = true;
out:
	free(bytes);
	return ok;
}

/* ---- Sections ---------------------------------------------------------- */

/* The memory_scope of VirtualDevice node `index` into *scope (in the
 * arena): the repr_str of the runtime.String its attribute refers to, ""
 * when it has none (older TVM, or the empty string TVM writes without a
 * repr_str). */
static bool read_scope(MetaReader *r, json_object *node, int64_t index, const char **scope)
{
	int64_t at;
	json_object *string, *repr;
	*scope = "";
	if (!node_attr_int_opt(node, "memory_scope", &at))
		return true;
	string = get_node(r, at, "runtime.String", "the memory_scope of a VirtualDevice");
	if (!string)
		return false;
	if (!json_object_object_get_ex(string, "repr_str", &repr))
		return true;
	if (!json_object_is_type(repr, json_type_string)) {
		meta_error(r, node_offset(r, at),
			   "metadata: node %lld (a runtime.String) has no "
			   "string repr_str",
			   (long long)at);
		return false;
	}
	if (!devices_valid_scope(json_object_get_string(repr))) {
		meta_error(r, node_offset(r, index),
			   "metadata: node %lld has the memory scope '%.64s', which is not a "
			   "name of letters, digits, '_', '.' and '-'",
			   (long long)index, json_object_get_string(repr));
		return false;
	}
	*scope = arena_strdup(r->arena, json_object_get_string(repr));
	return true;
}

static bool read_devices(MetaReader *r, int64_t array_index, MetadataSection *out)
{
	json_object *array = get_node(r, array_index, "Array", "the VirtualDevice entry");
	json_object *data;
	size_t n;
	if (!array)
		return false;
	data = node_data(r, array, array_index);
	if (r->failed)
		return false;
	n = data ? json_object_array_length(data) : 0;
	out->devices = xcalloc(n ? n : 1, sizeof(MetadataDevice));
	for (size_t i = 0; i < n; i++) {
		int64_t index, type, id;
		json_object *node;
		if (!array_item_int(r, data, i, array_index, &index))
			return false;
		node = get_node(r, index, "VirtualDevice", "a VirtualDevice entry");
		if (!node)
			return false;
		/* older TVM spells device_type_int device_type */
		if (!node_attr_int_opt(node, "device_type", &type) &&
		    !node_attr_int(r, node, index, "device_type_int", &type))
			return false;
		if (!node_attr_int(r, node, index, "virtual_device_id", &id))
			return false;
		if (!read_scope(r, node, index, &out->devices[i].scope))
			return false;
		if (type < -1 || type > INT32_MAX || id < -1 || id > INT32_MAX) {
			meta_error(r, node_offset(r, index),
				   "metadata: node %lld has an invalid device (type %lld, id %lld)",
				   (long long)index, (long long)type, (long long)id);
			return false;
		}
		out->devices[i].device_type = (int)type;
		out->devices[i].device_id = (int)id;
		out->ndevices = (uint32_t)(i + 1);
	}
	return true;
}

static bool read_constants(MetaReader *r, int64_t array_index, MetadataSection *out)
{
	json_object *array = get_node(r, array_index, "Array", "the relay.Constant entry");
	json_object *data;
	size_t n, narrays = r->arrays ? json_object_array_length(r->arrays) : 0;
	if (!array)
		return false;
	data = node_data(r, array, array_index);
	if (r->failed)
		return false;
	n = data ? json_object_array_length(data) : 0;
	out->constants = xcalloc(n ? n : 1, sizeof(Tensor));
	for (size_t i = 0; i < n; i++) {
		int64_t index, which;
		json_object *node;
		if (!array_item_int(r, data, i, array_index, &index))
			return false;
		node = get_node(r, index, "relay.Constant", "a relay.Constant entry");
		if (!node || !node_attr_int(r, node, index, "data", &which))
			return false;
		if (which < 0 || (uint64_t)which >= narrays) {
			meta_error(r, node_offset(r, index),
				   "metadata: constant %zu refers to b64ndarrays[%lld], but there "
				   "%s %zu",
				   i, (long long)which, narrays == 1 ? "is" : "are", narrays);
			return false;
		}
		if (!read_ndarray(r, (size_t)which, &out->constants[i]))
			return false;
		out->nconstants = (uint32_t)(i + 1);
	}
	return true;
}

/* One entry of the root Map: its key and the node it maps to. */
typedef struct RootEntry {
	const char *key; /* NULL: a key that is not a string */
	int64_t value;
} RootEntry;

/* The root Map's entries into *out (malloc'd, *n of them): {"keys": [names],
 * "data": [nodes]}, or without "keys", "data": [key node, value node, ...]
 * with runtime.String keys. Key strings belong to the JSON tree. */
static bool root_entries(MetaReader *r, int64_t root, RootEntry **out, size_t *count)
{
	json_object *map = get_node(r, root, "Map", "the root");
	json_object *keys = NULL, *data;
	size_t n;
	*out = NULL;
	*count = 0;
	if (!map)
		return false;
	data = node_data(r, map, root);
	if (r->failed)
		return false;
	if (!data)
		return true;
	n = json_object_array_length(data);
	if (json_object_object_get_ex(map, "keys", &keys) &&
	    (!json_object_is_type(keys, json_type_array) || json_object_array_length(keys) != n)) {
		meta_error(r, node_offset(r, root),
			   "metadata: the root Map's \"keys\" and \"data\" do not match");
		return false;
	}
	if (!keys && n % 2) {
		meta_error(r, node_offset(r, root),
			   "metadata: the root Map has an odd \"data\" array");
		return false;
	}
	*out = xcalloc(n ? n : 1, sizeof(RootEntry));
	for (size_t i = 0; i < n; i += keys ? 1 : 2) {
		RootEntry *e = &(*out)[(*count)++];
		if (keys) {
			json_object *k = json_object_array_get_idx(keys, i);
			if (json_object_is_type(k, json_type_string))
				e->key = json_object_get_string(k);
			if (!array_item_int(r, data, i, root, &e->value))
				return false;
		} else {
			int64_t key_index;
			json_object *knode, *repr;
			if (!array_item_int(r, data, i, root, &key_index) ||
			    !array_item_int(r, data, i + 1, root, &e->value))
				return false;
			knode = get_node(r, key_index, "runtime.String", "a root Map key");
			if (!knode)
				return false;
			if (json_object_object_get_ex(knode, "repr_str", &repr) &&
			    json_object_is_type(repr, json_type_string))
				e->key = json_object_get_string(repr);
		}
	}
	return true;
}

/* The entry count of a key devplan does not read: its Array's length. */
static bool count_entries(MetaReader *r, const char *key, int64_t array_index, uint32_t *count)
{
	char role[80];
	json_object *array, *data;
	size_t n;
	snprintf(role, sizeof role, "the %.40s entry", key);
	array = get_node(r, array_index, "Array", role);
	if (!array)
		return false;
	data = node_data(r, array, array_index);
	if (r->failed)
		return false;
	n = data ? json_object_array_length(data) : 0;
	for (size_t i = 0; i < n; i++) {
		int64_t index;
		if (!array_item_int(r, data, i, array_index, &index))
			return false;
		if (index < 0 || (uint64_t)index >= r->nnodes) {
			meta_error(r, node_offset(r, array_index),
				   "metadata: item %zu of node %lld refers to node %lld, but there "
				   "are %zu nodes",
				   i, (long long)array_index, (long long)index, r->nnodes);
			return false;
		}
	}
	*count = (uint32_t)n;
	return true;
}

static bool read_root(MetaReader *r, int64_t root, MetadataSection *out)
{
	RootEntry *entries;
	size_t n;
	bool ok = root_entries(r, root, &entries, &n);
	out->keys = xcalloc(n ? n : 1, sizeof(MetadataKey));
	for (size_t i = 0; ok && i < n; i++) {
		const char *key = entries[i].key;
		int64_t value = entries[i].value;
		MetadataKey *k;
		if (!key || metadata_find_key(out->keys, out->nkeys, key, strlen(key)))
			continue; /* TVM's keys are distinct strings */
		k = &out->keys[out->nkeys++];
		k->name = arena_strdup(r->arena, key);
		if (strcmp(key, "VirtualDevice") == 0) {
			ok = read_devices(r, value, out);
			k->count = out->ndevices;
		} else if (strcmp(key, "relay.Constant") == 0) {
			ok = read_constants(r, value, out);
			k->count = out->nconstants;
		} else {
			ok = count_entries(r, key, value, &k->count);
		}
	}
	free(entries);
	return ok;
}

static bool json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool metadata_parse(const char *json, size_t len, const SourceFile *src, Pos pos, Arena *arena,
		    MetadataSection *out, DiagList *diags)
{
	MetaReader r = {json, len, src, pos, arena, diags, NULL, 0, NULL, false};
	struct json_tokener *tok;
	json_object *root = NULL, *v;
	const char *nul = memchr(json, '\0', len);
	size_t end, start = 0;
	int64_t root_index;
	memset(out, 0, sizeof *out);
	while (start < len && json_space(json[start]))
		start++;
	if (nul) {
		meta_error(&r, (size_t)(nul - json), "NUL byte in the #[metadata] section");
		return false;
	}
	if (start == len) {
		meta_error(&r, 0, "expected a JSON object after '#[metadata]'");
		return false;
	}
	if (len > INT_MAX) {
		meta_error(&r, 0, "the #[metadata] section is too large");
		return false;
	}
	tok = json_tokener_new_ex(METADATA_JSON_DEPTH);
	root = json_tokener_parse_ex(tok, json, (int)len);
	if (!root) {
		enum json_tokener_error err = json_tokener_get_error(tok);
		if (err == json_tokener_continue)
			meta_error(&r, len, "the #[metadata] JSON ends too early");
		else
			meta_error(&r, json_tokener_get_parse_end(tok),
				   "malformed #[metadata] JSON: %s", json_tokener_error_desc(err));
		json_tokener_free(tok);
		return false;
	}
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (end < len && json_space(json[end]))
		end++;
	if (end < len) {
		meta_error(&r, end, "unexpected text after the #[metadata] JSON");
		goto fail;
	}
	if (!json_object_is_type(root, json_type_object)) {
		meta_error(&r, start, "the #[metadata] section is not a JSON object");
		goto fail;
	}
	if (!json_object_object_get_ex(root, "nodes", &r.nodes) ||
	    !json_object_is_type(r.nodes, json_type_array)) {
		meta_error(&r, start, "the #[metadata] section has no \"nodes\" array");
		goto fail;
	}
	r.nnodes = json_object_array_length(r.nodes);
	if (json_object_object_get_ex(root, "b64ndarrays", &v)) {
		if (!json_object_is_type(v, json_type_array)) {
			meta_error(&r, find_text(&r, "\"b64ndarrays\"", 0, NULL),
				   "metadata: \"b64ndarrays\" is not an array");
			goto fail;
		}
		r.arrays = v;
	}
	if (!json_object_object_get_ex(root, "root", &v) || !get_int(v, &root_index)) {
		meta_error(&r, start, "the #[metadata] section has no \"root\" node index");
		goto fail;
	}
	if (!read_root(&r, root_index, out))
		goto fail;
	json_object_put(root);
	return true;
fail:
	json_object_put(root);
	metadata_free(out);
	return false;
}

void metadata_free(MetadataSection *section)
{
	free(section->devices);
	free(section->constants);
	free(section->keys);
	memset(section, 0, sizeof *section);
}

/* ---- Writing ----------------------------------------------------------- */

static void json_string(StrBuf *out, const char *s)
{
	strbuf_putc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			strbuf_printf(out, "\\%c", c);
		else if (c < 0x20)
			strbuf_printf(out, "\\u%04x", c);
		else
			strbuf_putc(out, (char)c);
	}
	strbuf_putc(out, '"');
}

static void base64_encode(StrBuf *out, const unsigned char *data, size_t n)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char chunk[256];
	size_t used = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)data[i + 1] << 8;
		if (i + 2 < n)
			v |= data[i + 2];
		chunk[used++] = alphabet[(v >> 18) & 63];
		chunk[used++] = alphabet[(v >> 12) & 63];
		chunk[used++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
		chunk[used++] = i + 2 < n ? alphabet[v & 63] : '=';
		if (used == sizeof chunk) {
			strbuf_append(out, chunk, used);
			used = 0;
		}
	}
	strbuf_append(out, chunk, used);
}

static void put_le(StrBuf *bytes, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_putc(bytes, (char)(v >> (8 * i)));
}

/* TVM's NDArray save format, base64-encoded. */
static void write_ndarray(StrBuf *out, const Tensor *t)
{
	StrBuf bytes;
	unsigned code, bits;
	strbuf_init(&bytes);
	dtype_dlpack(t->dtype, &code, &bits);
	put_le(&bytes, ndarray_magic, 8);
	put_le(&bytes, 0, 8);               /* reserved */
	put_le(&bytes, DEVICE_TYPE_CPU, 4); /* saved from the host */
	put_le(&bytes, 0, 4);
	put_le(&bytes, t->ndim, 4);
	put_le(&bytes, code, 1);
	put_le(&bytes, bits, 1);
	put_le(&bytes, 1, 2); /* lanes */
	for (uint32_t i = 0; i < t->ndim; i++)
		put_le(&bytes, (uint64_t)t->shape[i], 8);
	put_le(&bytes, t->nbytes, 8);
	if (t->nbytes)
		strbuf_append(&bytes, t->data, t->nbytes);
	base64_encode(out, (const unsigned char *)bytes.data, bytes.len);
	strbuf_free(&bytes);
}

/* Numbers the nodes as they are written, one per line. */
typedef struct NodeWriter {
	StrBuf *out;
	uint32_t count;
} NodeWriter;

static uint32_t node_begin(NodeWriter *w)
{
	strbuf_puts(w->out, w->count ? ",\n    " : "    ");
	return w->count++;
}

static uint32_t write_string_node(NodeWriter *w, const char *s)
{
	uint32_t index = node_begin(w);
	strbuf_puts(w->out, "{\"type_key\": \"runtime.String\"");
	if (s) {
		strbuf_puts(w->out, ", \"repr_str\": ");
		json_string(w->out, s);
	}
	strbuf_putc(w->out, '}');
	return index;
}

/* The nodes the devices and constants devplan writes refer to. */
typedef struct CommonNodes {
	uint32_t empty_string, empty_map, empty_array;
	uint32_t unconstrained; /* VirtualDevice(-1, -1), the constants' device */
} CommonNodes;

static void write_common_nodes(NodeWriter *w, CommonNodes *c)
{
	c->empty_string = write_string_node(w, NULL);
	c->empty_map = node_begin(w);
	strbuf_puts(w->out, "{\"type_key\": \"Map\"}");
	c->empty_array = node_begin(w);
	strbuf_puts(w->out, "{\"type_key\": \"Array\"}");
	c->unconstrained = node_begin(w);
	strbuf_printf(
		w->out,
		"{\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"-1\", "
		"\"memory_scope\": \"%u\", \"target\": \"0\", \"virtual_device_id\": \"-1\"}}",
		c->empty_string);
}

/* A Target and its TargetKind: three nodes (name, kind, target); returns
 * the Target's index. */
static uint32_t write_target(NodeWriter *w, const CommonNodes *c, const char *name, int device_type,
			     uint32_t host)
{
	uint32_t name_node = write_string_node(w, name), kind, index;
	kind = node_begin(w);
	strbuf_printf(w->out,
		      "{\"type_key\": \"TargetKind\", \"attrs\": {\"default_device_type\": \"%d\", "
		      "\"default_keys\": \"%u\", \"name\": \"%u\"}}",
		      device_type, c->empty_array, name_node);
	index = node_begin(w);
	strbuf_printf(
		w->out,
		"{\"type_key\": \"Target\", \"attrs\": {\"attrs\": \"%u\", \"features\": \"%u\", "
		"\"host\": \"%u\", \"keys\": \"%u\", \"kind\": \"%u\", \"tag\": \"%u\"}}",
		c->empty_map, c->empty_map, host, c->empty_array, kind, c->empty_string);
	return index;
}

/* A device-table entry as a VirtualDevice with its Target (and its host's)
 * and its memory scope: 4 nodes, 7 with a host, one more with a scope (a
 * runtime.String; none shares the empty string); returns the
 * VirtualDevice's index. */
static uint32_t write_device(NodeWriter *w, const CommonNodes *c, const Device *d)
{
	uint32_t host = 0, target, index, scope = c->empty_string;
	if (d->host_target)
		host = write_target(w, c, d->host_target, DEVICE_TYPE_CPU, 0);
	target = write_target(w, c, d->target ? d->target : d->kind, d->device_type, host);
	if (d->scope[0])
		scope = write_string_node(w, d->scope);
	index = node_begin(w);
	strbuf_printf(w->out,
		      "{\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": "
		      "\"%d\", \"memory_scope\": \"%u\", \"target\": \"%u\", "
		      "\"virtual_device_id\": \"%d\"}}",
		      d->device_type, scope, target, d->device_id);
	return index;
}

static uint32_t write_constant_node(NodeWriter *w, const CommonNodes *c, size_t ndarray)
{
	uint32_t index = node_begin(w);
	strbuf_printf(w->out,
		      "{\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": "
		      "\"0\", \"data\": \"%zu\", \"span\": \"0\", \"virtual_device_\": \"%u\"}}",
		      ndarray, c->unconstrained);
	return index;
}

/* A relay.Constant's tensor; a slot no expression filled keeps its index
 * with a 0-d zero. */
static const Tensor *constant_tensor(const IrModule *m, uint32_t i)
{
	static float zero = 0;
	static const Tensor placeholder = {DT_FLOAT32, 0, NULL, &zero, sizeof zero};
	const Expr *c = m->constants[i];
	return c && c->kind == EXPR_CONSTANT ? &c->u.constant.tensor : &placeholder;
}

static void write_array_node(NodeWriter *w, const uint32_t *items, size_t n)
{
	node_begin(w);
	strbuf_puts(w->out, "{\"type_key\": \"Array\", \"data\": [");
	for (size_t i = 0; i < n; i++)
		strbuf_printf(w->out, "%s%u", i ? ", " : "", items[i]);
	strbuf_puts(w->out, "]}");
}

/* The b64ndarrays strings: `kept` (JSON strings as read, or NULL) first,
 * then the tensors. */
static void write_ndarrays(StrBuf *out, json_object *kept, const Tensor *const *tensors, size_t n)
{
	size_t nkept = kept ? json_object_array_length(kept) : 0;
	strbuf_puts(out, "\n  ],\n  \"b64ndarrays\": [");
	for (size_t i = 0; i < nkept + n; i++) {
		strbuf_puts(out, i ? ",\n    " : "\n    ");
		if (i < nkept) {
			json_string(out,
				    json_object_get_string(json_object_array_get_idx(kept, i)));
			continue;
		}
		strbuf_putc(out, '"');
		write_ndarray(out, tensors[i - nkept]);
		strbuf_putc(out, '"');
	}
	strbuf_puts(out, nkept + n ? "\n  ],\n" : "],\n");
}

/* In a fresh section: */
enum {
	NODE_ROOT = 1,  /* Map {VirtualDevice: NODE_DEVICES, relay.Constant: ...} */
	NODE_DEVICES,   /* Array of VirtualDevice */
	NODE_CONSTANTS, /* Array of relay.Constant */
	NODE_FIRST_COMMON,
	NODE_FIRST_FREE = NODE_FIRST_COMMON + 4
};

/* The device table and m's constants, in a section of their own. */
static void write_fresh(StrBuf *out, const IrModule *m, const DeviceTable *devices)
{
	NodeWriter w = {out, 0};
	uint32_t ndevices = devices ? devices->count : 0;
	uint32_t *device_nodes = xcalloc(ndevices + 1, sizeof(uint32_t));
	const Tensor **tensors = xcalloc(m->nconstants + 1, sizeof(Tensor *));
	uint32_t next = NODE_FIRST_FREE, first_constant;
	CommonNodes common;

	/* Number the nodes first: the root's arrays come before their items. */
	for (uint32_t i = 0; i < ndevices; i++) {
		next += (devices->items[i].host_target ? 6 : 3) +
			(devices->items[i].scope[0] ? 1 : 0);
		device_nodes[i] = next++;
	}
	first_constant = next;

	strbuf_puts(out, "#[metadata]\n{\n  \"root\": 1,\n  \"nodes\": [\n");
	node_begin(&w);
	strbuf_puts(out, "{\"type_key\": \"\"}");
	node_begin(&w);
	strbuf_printf(out,
		      "{\"type_key\": \"Map\", \"keys\": [\"VirtualDevice\", \"relay.Constant\"], "
		      "\"data\": [%d, %d]}",
		      NODE_DEVICES, NODE_CONSTANTS);
	write_array_node(&w, device_nodes, ndevices);
	node_begin(&w);
	strbuf_puts(out, "{\"type_key\": \"Array\", \"data\": [");
	for (uint32_t i = 0; i < m->nconstants; i++)
		strbuf_printf(out, "%s%u", i ? ", " : "", first_constant + i);
	strbuf_puts(out, "]}");
	DP_ASSERT(w.count == NODE_FIRST_COMMON);
	write_common_nodes(&w, &common);
	for (uint32_t i = 0; i < ndevices; i++) {
		uint32_t index = write_device(&w, &common, &devices->items[i]);
		DP_ASSERT(index == device_nodes[i]);
		(void)index;
	}
	DP_ASSERT(w.count == first_constant);
	for (uint32_t i = 0; i < m->nconstants; i++) {
		write_constant_node(&w, &common, i);
		tensors[i] = constant_tensor(m, i);
	}
	write_ndarrays(out, NULL, tensors, m->nconstants);
	strbuf_puts(out, "  \"attrs\": {\"tvm_version\": \"0.14.0\"}\n}\n");
	free(tensors);
	free(device_nodes);
}

static bool tensor_same(const Tensor *a, const Tensor *b)
{
	if (a->dtype != b->dtype || a->ndim != b->ndim || a->nbytes != b->nbytes)
		return false;
	for (uint32_t i = 0; i < a->ndim; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	return a->data == b->data || a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0;
}

/* Whether m's constant i is the kept section's constant i. */
static bool constant_kept(const IrModule *m, const IrMetadata *kept, uint32_t i)
{
	return i < kept->nconstants && m->constants[i] && m->constants[i]->kind == EXPR_CONSTANT &&
	       tensor_same(&m->constants[i]->u.constant.tensor, &kept->constants[i]);
}

/* A JSON value as read, on one line: {"k": v, ...}, [a, b]. The tree is at
 * most METADATA_JSON_DEPTH deep (the tokener's limit). */
static void write_json(StrBuf *out, json_object *v)
{
	bool first = true;
	switch (json_object_get_type(v)) {
	case json_type_null:
		strbuf_puts(out, "null");
		return;
	case json_type_boolean:
		strbuf_puts(out, json_object_get_boolean(v) ? "true" : "false");
		return;
	case json_type_double:
		strbuf_printf(out, "%.17g", json_object_get_double(v));
		return;
	case json_type_int:
		strbuf_printf(out, "%lld", (long long)json_object_get_int64(v));
		return;
	case json_type_string:
		json_string(out, json_object_get_string(v));
		return;
	case json_type_array:
		strbuf_putc(out, '[');
		for (size_t i = 0, n = json_object_array_length(v); i < n; i++) {
			strbuf_puts(out, i ? ", " : "");
			write_json(out, json_object_array_get_idx(v, i));
		}
		strbuf_putc(out, ']');
		return;
	case json_type_object: {
		json_object_object_foreach(v, key, value)
		{
			strbuf_puts(out, first ? "{" : ", ");
			first = false;
			json_string(out, key);
			strbuf_puts(out, ": ");
			write_json(out, value);
		}
		strbuf_puts(out, first ? "{}" : "}");
		return;
	}
	}
}

/* The items of the Array node `index` (validated when the section was read). */
static json_object *kept_array_items(MetaReader *r, int64_t index)
{
	json_object *array = get_node(r, index, "Array", "an entry");
	return array ? node_data(r, array, index) : NULL;
}

static int64_t item_index(json_object *items, size_t i)
{
	int64_t v = 0;
	get_int(json_object_array_get_idx(items, i), &v);
	return v;
}

/* The kept graph, every node at its index, then the added devices, the
 * constants that changed, the arrays that grew and a new root. False when
 * the kept text does not read (it did when loaded, so never). */
static bool write_merged(StrBuf *out, const IrModule *m, const MetadataSlots *slots)
{
	const IrMetadata *kept = m->metadata;
	size_t skip = strlen("#[metadata]");
	DiagList diags;
	MetaReader r = {.json = kept->text + skip, .len = kept->len - skip, .diags = &diags};
	struct json_tokener *tok = json_tokener_new_ex(METADATA_JSON_DEPTH);
	json_object *root = NULL, *v, *attrs = NULL, *old_devices = NULL, *old_constants = NULL;
	int64_t root_index = 0;
	RootEntry *entries = NULL;
	size_t nentries = 0, ndevice_items, nconstant_items;
	uint32_t *items, devices_node = 0, constants_node = 0, new_root;
	const Tensor **tensors = xcalloc(m->nconstants + 1, sizeof(Tensor *));
	size_t ntensors = 0, nold_arrays;
	bool has_devices = false, has_constants = false, constants_changed = false, ok = false;
	StrBuf nodes;
	NodeWriter w = {&nodes, 0};
	CommonNodes common;
	diag_init(&diags);
	strbuf_init(&nodes);
	root = json_tokener_parse_ex(tok, r.json, (int)r.len);
	json_tokener_free(tok);
	if (!root || !json_object_object_get_ex(root, "nodes", &r.nodes) ||
	    !json_object_is_type(r.nodes, json_type_array) ||
	    !json_object_object_get_ex(root, "root", &v) || !get_int(v, &root_index))
		goto out;
	r.nnodes = json_object_array_length(r.nodes);
	if (json_object_object_get_ex(root, "b64ndarrays", &r.arrays) &&
	    !json_object_is_type(r.arrays, json_type_array))
		goto out;
	nold_arrays = r.arrays ? json_object_array_length(r.arrays) : 0;
	if (!json_object_object_get_ex(root, "attrs", &attrs))
		attrs = NULL;
	if (!root_entries(&r, root_index, &entries, &nentries))
		goto out;
	for (size_t i = 0; i < nentries; i++) {
		if (!entries[i].key)
			continue;
		if (strcmp(entries[i].key, "VirtualDevice") == 0 && !has_devices) {
			has_devices = true;
			devices_node = (uint32_t)entries[i].value;
			old_devices = kept_array_items(&r, entries[i].value);
		} else if (strcmp(entries[i].key, "relay.Constant") == 0 && !has_constants) {
			has_constants = true;
			constants_node = (uint32_t)entries[i].value;
			old_constants = kept_array_items(&r, entries[i].value);
		}
	}
	if (r.failed)
		goto out;
	ndevice_items = old_devices ? json_object_array_length(old_devices) : 0;
	nconstant_items = old_constants ? json_object_array_length(old_constants) : 0;
	items = xcalloc(ndevice_items + slots->nadded + m->nconstants + 1, sizeof(uint32_t));

	for (size_t i = 0; i < r.nnodes; i++) {
		node_begin(&w);
		write_json(&nodes, json_object_array_get_idx(r.nodes, i));
	}
	write_common_nodes(&w, &common);
	if (slots->nadded) {
		/* the kept entries, then the added devices */
		for (size_t i = 0; i < ndevice_items; i++)
			items[i] = (uint32_t)item_index(old_devices, i);
		for (uint32_t i = 0; i < slots->nadded; i++)
			items[ndevice_items + i] =
				write_device(&w, &common, &slots->devices->items[slots->added[i]]);
		write_array_node(&w, items, ndevice_items + slots->nadded);
		devices_node = w.count - 1;
		has_devices = true;
	}
	constants_changed = m->nconstants != nconstant_items;
	for (uint32_t i = 0; i < m->nconstants; i++) {
		if (i < nconstant_items && constant_kept(m, kept, i)) {
			items[i] = (uint32_t)item_index(old_constants, i);
			continue;
		}
		constants_changed = true;
		tensors[ntensors] = constant_tensor(m, i);
		items[i] = write_constant_node(&w, &common, nold_arrays + ntensors);
		ntensors++;
	}
	if (constants_changed) {
		write_array_node(&w, items, m->nconstants);
		constants_node = w.count - 1;
		has_constants = true;
	}
	free(items);

	/* the root: the kept keys in their order, two of them moved */
	new_root = node_begin(&w);
	strbuf_puts(&nodes, "{\"type_key\": \"Map\", \"keys\": [");
	{
		bool first = true, put_devices = false, put_constants = false;
		StrBuf values;
		strbuf_init(&values);
		for (size_t i = 0; i < nentries; i++) {
			int64_t value = entries[i].value;
			const char *key = entries[i].key;
			if (!key)
				continue;
			if (strcmp(key, "VirtualDevice") == 0) {
				if (put_devices)
					continue;
				put_devices = true;
				value = devices_node;
			} else if (strcmp(key, "relay.Constant") == 0) {
				if (put_constants)
					continue;
				put_constants = true;
				value = constants_node;
			}
			strbuf_puts(&nodes, first ? "" : ", ");
			json_string(&nodes, key);
			strbuf_printf(&values, "%s%lld", first ? "" : ", ", (long long)value);
			first = false;
		}
		if (has_devices && !put_devices) {
			strbuf_puts(&nodes, first ? "\"VirtualDevice\"" : ", \"VirtualDevice\"");
			strbuf_printf(&values, "%s%u", first ? "" : ", ", devices_node);
			first = false;
		}
		if (has_constants && !put_constants) {
			strbuf_puts(&nodes, first ? "\"relay.Constant\"" : ", \"relay.Constant\"");
			strbuf_printf(&values, "%s%u", first ? "" : ", ", constants_node);
		}
		strbuf_puts(&nodes, "], \"data\": [");
		strbuf_append(&nodes, values.data ? values.data : "", values.len);
		strbuf_puts(&nodes, "]}");
		strbuf_free(&values);
	}

	strbuf_printf(out, "#[metadata]\n{\n  \"root\": %u,\n  \"nodes\": [\n", new_root);
	strbuf_append(out, nodes.data, nodes.len);
	write_ndarrays(out, r.arrays, tensors, ntensors);
	strbuf_puts(out, "  \"attrs\": ");
	if (attrs)
		write_json(out, attrs);
	else
		strbuf_puts(out, "{\"tvm_version\": \"0.14.0\"}");
	strbuf_puts(out, "\n}\n");
	ok = true;
out:
	free(entries);
	free(tensors);
	strbuf_free(&nodes);
	json_object_put(root);
	diag_free(&diags);
	return ok;
}

void metadata_write(StrBuf *out, const IrModule *m, const DeviceTable *devices,
		    const MetadataSlots *slots)
{
	const IrMetadata *kept = m->metadata;
	bool same = kept && slots && slots->kept == kept && slots->nadded == 0 &&
		    m->nconstants == kept->nconstants;
	for (uint32_t i = 0; same && i < m->nconstants; i++)
		same = constant_kept(m, kept, i);
	if (same) {
		strbuf_append(out, kept->text, kept->len);
		if (kept->len && kept->text[kept->len - 1] != '\n')
			strbuf_putc(out, '\n');
		return;
	}
	if (kept && slots && slots->kept == kept && write_merged(out, m, slots))
		return;
	write_fresh(out, m, devices);
}

/* ---- Keeping ----------------------------------------------------------- */

const MetadataKey *metadata_find_key(const MetadataKey *keys, uint32_t nkeys, const char *name,
				     size_t len)
{
	for (uint32_t i = 0; i < nkeys; i++)
		if (strlen(keys[i].name) == len && memcmp(keys[i].name, name, len) == 0)
			return &keys[i];
	return NULL;
}

void metadata_keep(IrModule *m, const char *text, size_t len, const MetadataSection *section)
{
	Arena *a = ir_data_arena(m);
	IrMetadata *k = arena_alloc(a, sizeof *k);
	char *copy = arena_alloc_uninit(a, len + 1);
	MetadataDevice *devices = arena_array(a, section->ndevices, sizeof *devices);
	Tensor *constants = arena_array(a, m->nconstants, sizeof *constants);
	MetadataKey *keys = arena_array(a, section->nkeys, sizeof *keys);
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (uint32_t i = 0; i < section->ndevices; i++) {
		devices[i] = section->devices[i];
		devices[i].scope = arena_strdup(a, section->devices[i].scope);
	}
	for (uint32_t i = 0; i < m->nconstants; i++)
		constants[i] = m->constants[i]->u.constant.tensor; /* data in the arena */
	for (uint32_t i = 0; i < section->nkeys; i++) {
		keys[i].name = arena_strdup(a, section->keys[i].name);
		keys[i].count = section->keys[i].count;
	}
	*k = (IrMetadata){copy,      len,           devices, section->ndevices,
			  constants, m->nconstants, keys,    section->nkeys};
	m->metadata = k;
}

/* ---- Device numbers ---------------------------------------------------- */

void metadata_slots_init(MetadataSlots *s, const IrMetadata *kept, const DeviceTable *devices)
{
	uint32_t n = devices->count ? devices->count : 1;
	memset(s, 0, sizeof *s);
	s->kept = kept;
	s->devices = devices;
	s->slot_of = xmalloc(n * sizeof(int32_t));
	s->added = xmalloc(n * sizeof(int32_t));
	for (uint32_t i = 0; i < n; i++)
		s->slot_of[i] = -1;
	for (uint32_t i = 0; kept && i < kept->ndevices; i++) {
		int d = devices_find_scoped(devices, kept->devices[i].device_type,
					    kept->devices[i].device_id, kept->devices[i].scope);
		if (d >= 0 && s->slot_of[d] < 0)
			s->slot_of[d] = (int32_t)i;
	}
}

int32_t metadata_slot(MetadataSlots *s, int32_t device)
{
	if (!s->kept || device < 0 || (uint32_t)device >= s->devices->count)
		return device;
	if (s->slot_of[device] < 0) {
		s->slot_of[device] = (int32_t)(s->kept->ndevices + s->nadded);
		s->added[s->nadded++] = device;
	}
	return s->slot_of[device];
}

void metadata_slots_free(MetadataSlots *s)
{
	free(s->slot_of);
	free(s->added);
	memset(s, 0, sizeof *s);
}
