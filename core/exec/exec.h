/*
 * exec.h - executing a planned module (SPEC §7): device backends behind one
 * interface, device memory, and the interpreter of @main.
 *
 * A backend (ExecBackend) is a table of functions: open and close a device,
 * allocate and free its memory, copy in from and out to host memory, copy
 * between two devices of the same backend, launch one operator's kernel,
 * and wait for queued work. There is one backend per device kind: `cpu`
 * (exec_cpu.c, the C kernels of cpu/), `cuda` (exec_cuda.cu, built
 * only where CMake finds CUDA) and `emulated-cuda` (exec_emulated.c: a
 * separate host memory space per device running the CPU kernels, so that a
 * plan's copies still happen and are counted without a GPU). The registry
 * (exec.c) maps a device-table entry's DLPack type to its backend and to the
 * emulator standing in for it; the session's gpu setting decides between
 * them (auto: the GPU when one is usable, else the emulator with a note;
 * require: the GPU or an error; emulate: always the emulator).
 *
 * An ExecRuntime holds one ExecDevice per device-table entry, opened on
 * first use, and counts each device's live and peak bytes. exec_run
 * interprets @main of a planned module on it (exec_run.c): each primitive
 * op on its device's backend after checking that every operand lives in
 * that device's memory, each device_copy as a transfer, buffers freed as
 * soon as their last use has run.
 *
 * Ownership: the runtime owns its devices and frees every device buffer it
 * handed out that is still live at exec_runtime_free; an ExecResult owns its
 * output arrays and profile (exec_result_free). Error strings returned
 * through `char **err` are the caller's.
 */
#ifndef DEVPLAN_EXEC_H
#define DEVPLAN_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices.h"
#include "diag.h"
#include "ir.h"
#include "kernels.h"
#include "npy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ExecDevice ExecDevice;
typedef struct ExecRuntime ExecRuntime;

typedef struct ExecBackend {
	const char *name; /* "cpu", "cuda", "emulated-cuda" */
	/* Prepares dev->state; false with *err when the device is not usable. */
	bool (*open)(ExecDevice *dev, char **err);
	void (*close)(ExecDevice *dev);
	/* nbytes may be 0; NULL with *err when the memory is not there. */
	void *(*alloc)(ExecDevice *dev, size_t nbytes, char **err);
	void (*free)(ExecDevice *dev, void *ptr);
	/* host -> device and device -> host; host memory may be any memory the
	 * host can address (pageable or pinned). */
	bool (*copy_in)(ExecDevice *dev, void *dst, const void *host_src, size_t nbytes,
			char **err);
	bool (*copy_out)(ExecDevice *dev, void *host_dst, const void *src, size_t nbytes,
			 char **err);
	/* Between two devices of this backend; NULL: exec_copy goes through the
	 * host. */
	bool (*copy_peer)(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src,
			  size_t nbytes, char **err);
	/* Runs one kernel on operands in this device's memory. */
	bool (*launch)(ExecDevice *dev, const KernelCall *kc, char **err);
	/* Whether launch has a kernel for op on tensors of dtype; exec_run
	 * asks it for every dtype a call's operands and result have before
	 * anything runs (see kernel_dtype_checked_at_launch). */
	bool (*supports)(OpKind op, DType dtype);
	/* Waits until queued work is done (for timing); NULL when synchronous. */
	void (*sync)(ExecDevice *dev);
	/* True when the device's memory is the host's own (the cpu): copies to
	 * and from it need no staging buffer. */
	bool host_memory;
	/* True when the host can read the device's memory in place (the cpu's,
	 * the emulator's blocks of host memory): an observer that borrows
	 * (ExecOptions.observe_borrows) is lent such a value without a copy. */
	bool host_readable;
	/* Lends the device nbytes of host memory at host (an input bound
	 * where it is): the device may read it as its own until unlend (given
	 * the same host and nbytes; an array lent twice is given back twice),
	 * and must never write it; false with *err when it cannot. NULL where
	 * nothing needs recording (the cpu, whose memory is the host's) or
	 * where the device cannot read host memory (a GPU: inputs are copied). */
	bool (*lend)(ExecDevice *dev, const void *host, size_t nbytes, char **err);
	void (*unlend)(ExecDevice *dev, const void *host, size_t nbytes);
} ExecBackend;

extern const ExecBackend exec_backend_cpu;
extern const ExecBackend exec_backend_emulated;
#ifdef DEVPLAN_HAVE_CUDA
extern const ExecBackend exec_backend_cuda;
#endif

struct ExecDevice {
	int32_t index;    /* device-table index; -1 for the reference cpu */
	const char *name; /* "cuda:0", borrowed from the device table */
	int device_id;    /* the N of KIND:N */
	const ExecBackend *backend;
	ExecRuntime *runtime;
	void *state; /* the backend's */
	bool opened;
	bool failed; /* opening failed once: do not retry */
	size_t bytes_live, bytes_peak;
	uint64_t allocations;
};

/* How host memory is obtained. Every runtime has a pageable pool (freed
 * blocks are kept for reuse within the run, so that a model's layers do not
 * pay the kernel's page faults again and again); the cpu backend allocates
 * from `host`, which is that pool until the cuda backend installs a pinned
 * pool when a GPU is open (so that copies between the cpu and the GPU run
 * at full DMA speed). */
typedef struct ExecHostAllocator {
	void *(*alloc)(void *ctx, size_t nbytes);
	void (*free)(void *ctx, void *ptr);
	void (*destroy)(void *ctx); /* at exec_runtime_free, after every device closed */
	void *ctx;
	const char *name; /* "pinned" or "pageable" */
} ExecHostAllocator;

enum { EXEC_DEFAULT_MAX_DEPTH = 1000 };

/* Where a cuda device runs (the session's gpu setting): on a GPU when one is
 * usable, else on the emulator with a note; on a GPU or not at all; always
 * on the emulator. */
typedef enum GpuMode { GPU_AUTO, GPU_REQUIRE, GPU_EMULATE } GpuMode;

/* An observer of a run (compare --each): called after each primitive
 * operator's kernel ran (not on_device or device_copy), once per tensor of
 * its result (field k of a tuple result; 0 for a tensor), with the value
 * copied to host memory; the observer takes the array (npy_array_free).
 * device is where it was computed. Under ExecOptions.observe_borrows the
 * array is lent for the call only (the value itself where the host can
 * read it in place, else a copy): the observer must neither keep, free nor
 * write it. */
typedef void (*ExecObserver)(void *context, const Expr *call, uint32_t field, int32_t device,
			     NpyArray *value);

/* A fault injected on purpose (tests only: exec_fault_parse accepts one only
 * in builds with DEVPLAN_FAULT_INJECTION, never in Release), so that
 * compare's detection is itself tested: the planned run computes a wrong
 * value where a user's plan or kernel would. */
typedef enum ExecFaultKind {
	EXEC_FAULT_NONE,
	EXEC_FAULT_KERNEL, /* the first call of op on device: element 0 of its
			      result is changed after the kernel ran */
	EXEC_FAULT_COPY,   /* every device_copy into device delivers zeros */
} ExecFaultKind;

typedef struct ExecFault {
	ExecFaultKind kind;
	OpKind op;      /* EXEC_FAULT_KERNEL */
	int32_t device; /* device-table index; IR_NO_DEVICE: any */
} ExecFault;

/* Parses `kernel:OP[@DEVICE]` or `copy[@DEVICE]` (the DEVPLAN_FAULT
 * environment variable of test builds) into *out; false with *err (the
 * caller frees) for anything else, or in a build without fault injection. */
bool exec_fault_parse(const char *text, const DeviceTable *devices, ExecFault *out, char **err);

typedef struct ExecOptions {
	GpuMode gpu;           /* auto, require or emulate */
	bool all_on_cpu;       /* compare's reference: every op on the cpu, device_copy
				   and on_device pass values through */
	bool profile;          /* time every op and copy (synchronising devices) */
	uint64_t memory_limit; /* bytes one tensor may need, and all the run's
				  live tensors together (memory_held
				  included); 0: physical memory for one,
				  exec_default_memory_budget() for all */
	uint64_t memory_held;  /* bytes of the run's the caller holds outside
				  the executor (its inputs' arrays), counted
				  as live from the start */
	uint32_t max_depth;    /* nested calls; 0: EXEC_DEFAULT_MAX_DEPTH */
	ExecObserver observe;  /* every op's result, or NULL */
	void *observe_context;
	bool observe_borrows; /* lend the observer each value (ExecObserver) */
	ExecFault fault;      /* kind EXEC_FAULT_NONE (zeroed options): none; ignored
			    under all_on_cpu */
} ExecOptions;

struct ExecRuntime {
	const DeviceTable *table;
	ExecOptions opts;
	DiagList *diags;            /* notes (emulator) and errors (open failures) */
	ExecDevice *devices;        /* table->count entries */
	ExecDevice reference;       /* the cpu of all_on_cpu runs */
	ExecHostAllocator pageable; /* the emulator's memory, and the cpu's by default */
	ExecHostAllocator host;     /* the cpu backend's memory */
	uint64_t budget;            /* bytes every device's live tensors and
				       opts.memory_held may take together */
	uint64_t bytes_live;        /* what they take now */
};

/* A runtime over the device table; nothing is opened yet. */
ExecRuntime *exec_runtime_new(const DeviceTable *table, const ExecOptions *opts, DiagList *diags);
/* Closes every opened device and releases the host allocator. */
void exec_runtime_free(ExecRuntime *rt);
/* The device for table entry index, opened on first use with the backend
 * the registry and the gpu setting choose (with the emulator note); the
 * reference cpu for index -1 or under all_on_cpu. NULL after reporting
 * into rt->diags when it cannot be used. */
ExecDevice *exec_runtime_device(ExecRuntime *rt, int32_t index);
/* Whether a GPU can be used (devplan built with CUDA and a device
 * present); *why says why not (caller frees). */
bool exec_gpu_available(char **why);

/* Device memory with accounting. exec_alloc refuses (NULL with *err) an
 * allocation that would take the runtime's live bytes past its budget,
 * before asking the backend. */
void *exec_alloc(ExecDevice *dev, size_t nbytes, char **err);
void exec_free(ExecDevice *dev, void *ptr, size_t nbytes);
/* Whether dev can borrow host memory in place (exec_borrow): its memory is
 * the host's, or its backend can be lent host memory. */
bool exec_can_borrow(const ExecDevice *dev);
/* The accounting of exec_alloc and exec_free without the memory: nbytes
 * of host memory at host that the caller lends the device (an input bound
 * where it is) are counted as live until exec_unborrow (the same host and
 * nbytes), and refused as exec_alloc would refuse them; the backend is lent
 * them (ExecBackend.lend) where it records what it may read. */
bool exec_borrow(ExecDevice *dev, const void *host, size_t nbytes, char **err);
void exec_unborrow(ExecDevice *dev, const void *host, size_t nbytes);
/* Copies nbytes between any two devices: directly within a backend that
 * has copy_peer, to or from host memory, otherwise through a host buffer. */
bool exec_copy(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src, size_t nbytes,
	       char **err);
bool exec_copy_in(ExecDevice *dev, void *dst, const void *host_src, size_t nbytes, char **err);
bool exec_copy_out(ExecDevice *dev, void *host_dst, const void *src, size_t nbytes, char **err);
bool exec_launch(ExecDevice *dev, const KernelCall *kc, char **err);
void exec_sync(ExecDevice *dev);

/* Aligned host memory (64 bytes) that may fail; exec_host_free releases it. */
void *exec_host_alloc(size_t nbytes);
void exec_host_free(void *ptr);

/* Where a host pool's blocks come from: exec_host_alloc for the pageable
 * pool, cudaMallocHost for the pinned one. alloc returns NULL when the
 * memory is not there; a fall_back source's pool then gives its cache back,
 * tries once more and hands out pageable memory instead (pinned memory is
 * a fraction of RAM, and a copy of pageable memory still works). */
typedef struct ExecHostSource {
	void *(*alloc)(size_t nbytes);
	void (*free)(void *raw);
	bool fall_back;
	const char *name; /* the allocator's name */
} ExecHostSource;

/* The host pool (exec.c), the one cache of host blocks behind the runtime's
 * pageable allocator and the cuda backend's pinned one: blocks come in
 * size classes (64-byte multiples up to 256 bytes, then four classes per
 * power of two), freed blocks are kept on their class's free list, up to
 * max_cached bytes, and a block of the smallest non-empty class that fits
 * is reused when it is at most twice the size asked for; allocating and
 * freeing take constant time. src must outlive the allocator; destroy
 * releases the pool and its cached blocks. */
ExecHostAllocator exec_host_pool(const ExecHostSource *src, size_t max_cached);

/* ---- running a module -------------------------------------------------- */

/* An input of @main: its parameters in order, then the module's free
 * variables. */
typedef struct ExecParam {
	const char *name; /* without '%' */
	const Expr *var;
	const Type *type;
	int32_t device; /* where the plan wants it (IR_NO_DEVICE when unplanned) */
} ExecParam;

/* The inputs of m's @main (caller frees the array); 0 without @main. */
size_t exec_params(const IrModule *m, ExecParam **out);

typedef struct ExecOpStat {
	OpKind op;
	int32_t device; /* device-table index */
	uint64_t calls;
	double seconds; /* wall clock, the device synchronised */
	double busy;    /* what the calls cost: their busy time (exec_clock.h,
			   CPU time) where the kernels run on the host (a backend
			   without sync), else the wall clock */
} ExecOpStat;

typedef struct ExecCopyStat {
	uint32_t expr; /* the device_copy's expression id */
	int32_t src, dst;
	uint64_t count;
	uint64_t bytes;
	double seconds;
} ExecCopyStat;

typedef struct ExecDeviceStat {
	int32_t device;
	const char *backend; /* static */
	size_t peak_bytes;
} ExecDeviceStat;

typedef struct ExecProfile {
	ExecOpStat *ops;
	size_t nops, cap_ops;
	ExecCopyStat *copies;
	size_t ncopies, cap_copies;
	ExecDeviceStat *devices;
	size_t ndevices;
	uint64_t input_copies, input_bytes; /* inputs moved to their devices */
	double input_seconds;
	uint64_t output_bytes;
	double output_seconds;
	double run_seconds; /* the whole interpretation, inputs to outputs */
	double run_busy;    /* and its busy time (exec_clock.h) */
} ExecProfile;

typedef struct ExecResult {
	NpyArray *outputs;       /* @main's result, tuples flattened in order */
	int32_t *output_devices; /* where each output lived */
	size_t noutputs;
	ExecProfile profile; /* filled with opts.profile (devices always) */
} ExecResult;

/*
 * Runs @main of m (every expression typed; planned unless all_on_cpu) with
 * inputs[i] for exec_params(m)[i]. Shapes must be static; every tensor's
 * size is checked against the memory limit before anything is allocated.
 * Polls interrupt_pending() (interrupt.h) between ops. On failure returns false with
 * the reasons in diags (positioned at the op where one is known) and no
 * outputs; notes (the emulator announcement) are added to diags as well.
 * Either way *out holds the profile of what ran (the devices opened and
 * their peak memory) and the caller releases it with exec_result_free.
 */
bool exec_run(const IrModule *m, const DeviceTable *devices, const ExecOptions *opts,
	      const NpyArray *inputs, size_t ninputs, ExecResult *out, DiagList *diags);
void exec_result_free(ExecResult *r);

/*
 * exec_run a step at a time, for a caller that interleaves two runs on its
 * own thread (compare --each: the reference run produces each value when
 * the planned run asks for it, so that the values kept wait a moment, not
 * a whole run). exec_run_begin does what exec_run does before the first
 * op (the checks, the devices, the inputs); each exec_run_step runs until
 * the observer has been handed one op's result (EXEC_STEP_MORE), or to the
 * end (EXEC_STEP_DONE), or until it failed (EXEC_STEP_FAILED, as does every
 * step after); exec_run_end finishes as exec_run returns: the outputs into
 * *out when the run got to its end (false otherwise, a run left before its
 * end included), the profile either way, and frees the running run. The
 * arguments of begin must outlive end. Two runs may be in progress at once
 * (each has its own runtime and memory); only the thread that began one
 * steps it.
 */
typedef enum ExecStepStatus { EXEC_STEP_MORE, EXEC_STEP_DONE, EXEC_STEP_FAILED } ExecStepStatus;
typedef struct ExecRunning ExecRunning;
ExecRunning *exec_run_begin(const IrModule *m, const DeviceTable *devices, const ExecOptions *opts,
			    const NpyArray *inputs, size_t ninputs, ExecResult *out,
			    DiagList *diags);
ExecStepStatus exec_run_step(ExecRunning *r);
bool exec_run_end(ExecRunning *r);

/* Whether every tensor a run of m (static shapes) can create fits: a known
 * shape, a size that does not overflow, within opts->memory_limit or the
 * machine's memory. The check exec_run makes first, for a command to make
 * before it makes the inputs, so that nothing is allocated for a run that
 * cannot happen; false after reporting into diags. */
bool exec_check_sizes(const IrModule *m, const ExecOptions *opts, DiagList *diags);

/*
 * Evaluates one expression `target` of m on the cpu, computing only what it
 * depends on: the values it reads, through let variables to their values,
 * constants and, in @main, @main's inputs (only those read are bound); in
 * another function (a closure included) it may read none of that
 * function's parameters nor values of the functions around it. shape_of reads only the type of its
 * operand, which is not computed when nothing else in that cone reads it.
 * Everything computed must have a static type of at most max_elements
 * elements, be a primitive op with a cpu kernel, a tuple or a projection
 * (no call of a function, no if): so a shape operand is computed cheaply
 * before the run computes it again. Returns EVAL_DONE with *out (the
 * caller frees it, npy_array_free); EVAL_UNKNOWN with *why (the caller's)
 * when the cone has a `?` type, an `if`, a call of a function or an op
 * without a kernel; EVAL_FAILED after reporting into diags (a value over
 * max_elements, an input that does not match, a kernel's error).
 */
typedef enum ExecEvalStatus { EVAL_DONE, EVAL_UNKNOWN, EVAL_FAILED } ExecEvalStatus;
ExecEvalStatus exec_evaluate(const IrModule *m, const Expr *target, const NpyArray *inputs,
			     size_t ninputs, int64_t max_elements, NpyArray *out, char **why,
			     DiagList *diags);

/* The sum of the elements (as double) and FNV-1a of the bytes. */
void exec_checksum(const NpyArray *a, double *sum, uint64_t *hash);
/* Element i as a double (any dtype). */
double exec_element(const NpyArray *a, int64_t i);
/* The physical memory of the machine in bytes (sysconf). */
uint64_t exec_physical_memory(void);
/* What a run's tensors may take together when no limit is set: 3/4 of the
 * physical memory, leaving room for the session, its kept values and the
 * rest of the machine. */
uint64_t exec_default_memory_budget(void);
/* The memory free for new allocations now, in bytes (MemAvailable of
 * /proc/meminfo, else the free pages). */
uint64_t exec_available_memory(void);

#ifdef __cplusplus
}
#endif

#endif
