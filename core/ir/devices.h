/*
 * devices.h - the session's device table (SPEC §4).
 *
 * Entry i is what `meta[VirtualDevice][i]` means for a module without its own
 * #[metadata], and what an expression's `device` field indexes. Entries are
 * only ever appended, so an index stays valid for the session's life. The
 * table owns its strings.
 *
 * An entry is a virtual device as TVM has it: (device type, device id,
 * target, memory scope). Two entries of one device (type and id) in two
 * memory scopes (`cpu:0:scopeA`, `cuda:0:global.texture`) are two devices
 * to the planner, joined by a device_copy; an entry without a scope (`cpu:0`)
 * leaves the scope unconstrained, and joins an entry of the same device with
 * one, which it then takes (TVM's VirtualDevice::Join, devices_join).
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

/* Where a device's cost model comes from. */
typedef enum DeviceCosts {
	DEVICE_COSTS_NOMINAL,    /* the defaults below */
	DEVICE_COSTS_SET,        /* `target set` changed one */
	DEVICE_COSTS_CALIBRATED, /* measured on this machine (`target calibrate`) */
} DeviceCosts;

/* What a cpu's calibration measured besides the figures of Device (the
 * estimate's refinements, core/plan/plan_estimate.h): on how many threads
 * peak and memory were measured, one thread's rates, and where the cpu
 * backend and OpenBLAS split an operator over threads. A `target set`
 * makes the device's model the plain roofline of its figures again. */
typedef struct DeviceCpuModel {
	int threads;           /* the kernels' threads; 0 when not calibrated */
	double small_peak;     /* GFLOP/s of a product OpenBLAS runs on one thread */
	double memory1;        /* GB/s of one thread's copy (read + written) */
	double first_call;     /* microseconds the first call of an operator
				 kind in a run costs besides launch */
	double cache;          /* GB/s of one thread's copy within its cache */
	double cache_bytes;    /* an operator's bytes at most this go at `cache` */
	double split_elements; /* the kernels split work past this many elements */
	double gemm_split;     /* OpenBLAS splits a product past this M * N * K */
	double gemm_side;      /* the side of the square product peak was
				 measured on (its packing is in the rate) */
	double small_side;     /* ... small_peak was */
	double gemv_split;     /* ... a matrix-vector product from this M * N */
	double gemv_call;      /* microseconds a matrix-vector product costs
				 a call besides its roofline, on one thread */
	double gemv_threaded;  /* ... split over OpenBLAS's threads */
	double direct_conv;    /* a convolution group of at most this cg * og
				 is computed directly, not by a product */
	double skinny_max;     /* a product with a side this narrow (0: none) */
	double skinny_big;     /* ... and another operand this big (elements)
				 is the cpu's own kernel's, not OpenBLAS's */
	double skinny_peak;    /* ... its GFLOP/s at a narrow side of
				 skinny_max, on all the threads */
} DeviceCpuModel;

typedef struct Device {
	char *name;      /* "KIND:ID" or "KIND:ID:SCOPE", e.g. "cuda:0:global.texture" */
	char *kind;      /* "cpu", "cuda", ... */
	int device_type; /* DLPack code */
	int device_id;
	char *scope;       /* memory scope, "" when unconstrained (TVM's empty memory_scope) */
	char *target;      /* "llvm", "cuda", ... */
	char *host_target; /* "llvm" for accelerators, NULL for the cpu */
	/* The cost model `estimate` reads (`target set`); defaults in
	 * devices.c, DEVICES_*_DEFAULT below. */
	double bandwidth;   /* GB/s (1e9 bytes) of a copy between the host and
			     this device; for a cpu, of a copy within memory */
	double latency;     /* microseconds every such copy costs besides its
			     bytes (the driver, the DMA set-up, the sync) */
	double peak;        /* GFLOP/s (1e9) of float32 arithmetic (a matrix
			     product's: sgemm) */
	double memory;      /* GB/s (1e9 bytes read plus written) of the
			     device's own memory, what an operator that
			     moves data more than it computes is bound by */
	double launch;      /* microseconds every operator costs besides its
			     arithmetic (a kernel launch) */
	DeviceCosts costs;  /* where the four figures above come from */
	DeviceCpuModel cpu; /* read only while costs is DEVICE_COSTS_CALIBRATED */
} Device;

/*
 * Defaults of the cost model, for a machine of 2025-2026 (USAGE.md,
 * `target`):
 * - an accelerator's link is PCIe gen4 x16: 31.5 GB/s raw each way, about
 *   25 GB/s for a large copy from pinned memory (NVIDIA's bandwidthTest
 *   shows 24-26 GB/s on such a link);
 * - an accelerator's peak is an H100/H200-class GPU's float32 throughput
 *   without tensor cores: 67 TFLOP/s for the SXM parts, 51 for the H100
 *   PCIe, so 50 TFLOP/s;
 * - a cpu's copy is one core's memcpy, about 10 GB/s on a current server
 *   (devplan's cpu backend copies on one thread);
 * - an accelerator's memory is an H100 SXM's HBM3, 3.35 TB/s, of which a
 *   streaming kernel reaches about 90%: 3000 GB/s; a cpu's is its copy's
 *   (a copy within memory is what its bandwidth already measures);
 * - a cpu's peak is a conservative 1 TFLOP/s: 16 cores x 2 AVX-512 FMA
 *   units x 16 float32 lanes x 2 FLOP x 2 GHz = 2 TFLOP/s, of which
 *   an sgemm reaches about half (and the other kernels less);
 * - a copy between the host and an accelerator costs about 10 us however
 *   small (cudaMemcpy's driver call, DMA set-up and synchronisation: a few
 *   bytes take 8-12 us on PCIe gen4 in bandwidthTest-style measurements),
 *   and an accelerator's operator about 5 us (a kernel launch and its
 *   completion, 3-7 us measured from the host), which dominate the small
 *   tensors of most plans' copies;
 * - a cpu's copies and operators cost nothing besides their bytes and
 *   arithmetic (a function call: well under a microsecond).
 */
#define DEVICES_ACCELERATOR_BANDWIDTH_DEFAULT 25.0
#define DEVICES_ACCELERATOR_PEAK_DEFAULT 50000.0
#define DEVICES_CPU_BANDWIDTH_DEFAULT 10.0
#define DEVICES_CPU_PEAK_DEFAULT 1000.0
#define DEVICES_ACCELERATOR_MEMORY_DEFAULT 3000.0
#define DEVICES_CPU_MEMORY_DEFAULT DEVICES_CPU_BANDWIDTH_DEFAULT
#define DEVICES_ACCELERATOR_LATENCY_DEFAULT 10.0
#define DEVICES_ACCELERATOR_LAUNCH_DEFAULT 5.0
#define DEVICES_CPU_LATENCY_DEFAULT 0.0
#define DEVICES_CPU_LAUNCH_DEFAULT 0.0

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
/* Appends KIND:ID or KIND:ID:SCOPE with a target (NULL: that of the same
 * device without a scope when the table has it, else the kind's default).
 * A scoped entry starts with the cost model and host of the same device
 * without a scope, when there is one. Returns the new index, or -1 with
 * *err set (caller frees) for an unknown kind, a malformed name or scope, a
 * duplicate or a full table (DEVICES_MAX). */
int devices_add(DeviceTable *table, const char *name, const char *target, char **err);
/* The entry of (type, id) in memory scope `scope` ("" or NULL: none). When
 * there is none but the table has that device in another scope (or none),
 * appends it in `scope`, as devices_add would, since a memory scope is where
 * a value lives on a device the table already has (TVM accepts any scope of
 * a configured device). -1 when the device is not in the table, the scope
 * is malformed or the table is full. */
int devices_intern(DeviceTable *table, int device_type, int device_id, const char *scope);
/* devices_find_name, but a KIND:ID:SCOPE the table lacks is added when
 * the table has KIND:ID in some scope (devices_intern). */
int devices_intern_name(DeviceTable *table, const char *name);
/* Drops the entries from `count` on. Only for entries nothing refers to
 * yet: the parser's own, which it adds again in a canonical order. */
void devices_truncate(DeviceTable *table, uint32_t count);
/* Whether `scope` is a well-formed memory scope: letters, digits, '_', '.'
 * and '-' ("global.texture-nhwc"), at most 64 of them; "" is none. */
bool devices_valid_scope(const char *scope);
/* Sets a cost-model attribute of entry i from `NAME=VALUE`: bandwidth=GB/s,
 * memory=GB/s or peak=GFLOP/s, a finite number above 0, or latency=US or launch=US,
 * 0 or more. False with *err set (caller frees) for another name or a bad
 * value; the entry is then unchanged. */
bool devices_set_attribute(DeviceTable *table, uint32_t i, const char *assignment, char **err);
/* Appends ` NAME=VALUE` for each cost-model attribute of d that differs
 * from its kind's default, as `target set` reads them (nothing when none
 * does). */
void devices_format_costs(const Device *d, StrBuf *out);
/* Index of the entry named "KIND:ID" or "KIND:ID:SCOPE" (also accepts
 * "KIND" for id 0), or -1. */
int devices_find_name(const DeviceTable *table, const char *name);
/* Index of the entry with this DLPack type and id and no memory scope, or -1. */
int devices_find(const DeviceTable *table, int device_type, int device_id);
/* Index of the entry with this DLPack type, id and memory scope ("" or NULL:
 * none), or -1. */
int devices_find_scoped(const DeviceTable *table, int device_type, int device_id,
			const char *scope);
/* TVM's VirtualDevice::Join of entries a and b: a when they are the same;
 * the scoped one when both are one device (type and id) and one has no
 * scope; -1 when they differ otherwise (two devices, or two scopes of one).
 * IR_NO_DEVICE-like negatives join nothing (-1). */
int32_t devices_join(const DeviceTable *table, int32_t a, int32_t b);
/* Whether entries a and b are one device (type and id), whatever their
 * scopes: a copy between them stays within that device's memory. */
bool devices_same_device(const DeviceTable *table, int32_t a, int32_t b);
/* The entry that stands for entry i's device without a scope: the one with
 * no scope when the table has it, else the lowest-numbered of that device. */
int32_t devices_unscoped(const DeviceTable *table, int32_t i);
/* DLPack type of a kind name ("cpu", "llvm", "cuda", "gpu", ...), or -1. */
int devices_type_of_kind(const char *kind);
/* Kind name of a DLPack type code ("cpu", "cuda", ...), or NULL. */
const char *devices_kind_of_type(int device_type);
/* The name of entry i, or "?" for IR_NO_DEVICE or an out-of-range index. */
const char *devices_name(const DeviceTable *table, int32_t index);

#endif
