/*
 * plan_estimate.h - what a plan will cost before it runs (SPEC §3.3,
 * `estimate`), from the static types of the planned module and the device
 * table's cost model (devices.h: each device's link bandwidth and peak
 * throughput) only.
 *
 * - Copies: each copy fact of the placement, the link's fixed cost plus
 *   its bytes over the link between its two devices
 *   (plan_estimate_link), summed per
 *   direction.
 * - Peak memory per device: each function's body in its planned order of
 *   execution (plan_functions); a tensor is live from its definition to its
 *   last use (a use through a let variable, a tuple, a projection, an
 *   on_device or an if's branch counts as a use of what it names),
 *   parameters and constants from the start, a function's result to its
 *   end; only tensors homed on a device count for it. A call of another
 *   function counts its result; the callee's own tensors are counted in its
 *   own walk, and each device reports the largest peak of any function.
 * - Time per device, a roofline: each operator call's FLOPs by the rule of
 *   its operator (plan_estimate.c holds the one table of rules) and the
 *   bytes it reads and writes (its tensor operands' and its result's), on
 *   the device it is planned on; the call takes
 *   max(FLOPs / peak, bytes / memory) + launch, so that a matrix product
 *   or a convolution goes at the device's sgemm rate and an operator that
 *   moves data (transpose, concatenate, take), an elementwise one or a
 *   reduction at its memory bandwidth; on a calibrated cpu, the
 *   roofline of what the cpu backend runs (the threads its kernel or
 *   OpenBLAS takes, the cache, an im2col's or col2im's pass, a kind's
 *   first call: plan_estimate.c). The device's time is the sum. A
 *   function's operators count once, however often it is called; the
 *   estimate also keeps each operator's totals per device (EstimateOp),
 *   which `profile` sets beside what it measured.
 *
 * Ownership: a PlanEstimate owns its arrays and its placement; it borrows
 * nothing from the module, which may be freed before it.
 */
#ifndef DEVPLAN_PLAN_ESTIMATE_H
#define DEVPLAN_PLAN_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "devices.h"
#include "ir.h"
#include "plan.h"

/* How an operator's FLOPs follow from the types of its call. */
typedef enum EstimateFlopRule {
	FLOP_NONE,           /* moves or makes data, computes nothing: 0 */
	FLOP_ELEMENTWISE,    /* one per output element */
	FLOP_REDUCE,         /* one per element of the first argument */
	FLOP_MATMUL,         /* 2 * M * N * K: 2 * output elements * K, K the
				reduced dimension of the first argument */
	FLOP_CONV,           /* 2 * K * output elements, K = weight elements /
				output channels (the kernel layout's O) */
	FLOP_CONV_TRANSPOSE, /* 2 * K * input elements, K = weight elements /
				input channels (the kernel layout's I) */
} EstimateFlopRule;

/* The rule of an operator (FLOP_NONE for OP_NONE and OP_UNKNOWN). */
EstimateFlopRule plan_estimate_flop_rule(OpKind op);
/* The FLOPs of one operator call by its rule; false when they cannot be
 * known (a dimension is `?`, an untyped argument, a kernel layout whose
 * channels cannot be found), *flops is then 0. */
bool plan_estimate_call_flops(const Expr *call, double *flops);
/* The link a copy from src to dst goes over: between the host and an
 * accelerator the accelerator's, between two accelerators (or two cpus)
 * the worse of theirs, the slower bandwidth and the larger latency; between
 * two memory scopes of one device, which stays within it, the
 * destination's (`target set cuda:0:global.texture bandwidth=...`). */
typedef struct EstimateLink {
	double bandwidth; /* GB/s */
	double latency;   /* microseconds each copy costs besides its bytes */
} EstimateLink;
EstimateLink plan_estimate_link(const DeviceTable *devices, int32_t src, int32_t dst);

typedef struct EstimateCopy {
	const PlacementFact *fact; /* in the estimate's placement */
	double seconds;            /* latency + bytes / link bandwidth (the
				      latency alone when the bytes are unknown) */
} EstimateCopy;

typedef struct EstimateDirection {
	int32_t src, dst;
	size_t copies;
	int64_t bytes;
	double seconds;
} EstimateDirection;

/* One operator's calls on one device, all told. */
typedef struct EstimateOp {
	OpKind op;
	int32_t device;
	size_t calls;
	double flops;
	double bytes;   /* read and written */
	double seconds; /* each call's roofline time, summed */
} EstimateOp;

typedef struct EstimateDevice {
	int64_t peak_bytes; /* largest live total of its tensors */
	size_t unsized;     /* tensors homed on it whose size is unknown (left out) */
	double flops;
	double bytes;       /* operators' bytes read and written */
	double seconds;     /* the operators' roofline times, summed */
	size_t ops;         /* operator calls planned on it */
	size_t ops_unknown; /* ... whose FLOPs could not be known (left out) */
} EstimateDevice;

typedef struct PlanEstimate {
	Placement placement;
	EstimateCopy *copies; /* the copy facts, in placement order */
	size_t ncopies;
	EstimateDirection *directions; /* by source then destination index */
	size_t ndirections;
	EstimateDevice *devices; /* one per device-table entry */
	uint32_t ndevices;
	EstimateOp *ops; /* by device, then operator */
	size_t nops;
} PlanEstimate;

/* The time of operator call `call` (flops, bytes: its rule's and
 * plan_estimate_call_bytes') on device d, in seconds: the roofline
 * max(flops / peak, bytes / memory) + launch; on a calibrated cpu
 * (DEVICE_COSTS_CALIBRATED, its DeviceCpuModel) the roofline of what the
 * cpu backend runs (see the top of this file). call may be NULL: the
 * plain roofline. */
double plan_estimate_call_seconds(const Device *d, const Expr *call, double flops, double bytes);
/* The bytes an operator call reads and writes: its tensor operands' and
 * its result's (each field of a tuple), only the result's for an operator
 * that reads its operand's shape alone (shape_of, ndarray_size,
 * zeros_like, ones_like); false when a size is unknown. */
bool plan_estimate_call_bytes(const Expr *call, double *bytes);

/* Estimates planned module m (every node carries its device) with the cost
 * model of devices. Polls for Ctrl-C: false when interrupted, with out
 * freed. */
bool plan_estimate(const IrModule *m, const DeviceTable *devices, PlanEstimate *out);
void plan_estimate_free(PlanEstimate *e);

#endif
