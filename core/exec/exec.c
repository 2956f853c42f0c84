/*
 * exec.c - the backend registry, the runtime's devices and device memory.
 *
 * The registry is one table from a device-table entry's DLPack type to the
 * backend that runs it natively and the one that stands in for it: cpu
 * devices run on the cpu backend; cuda devices on the cuda backend when
 * devplan was built with CUDA and a GPU answers, else on the emulator. The
 * gpu setting picks among them when a device is first used, and the
 * emulator's use is announced once per device as a note. Every allocation
 * and copy goes through the wrappers here so that live and peak bytes are
 * counted per device and a copy between any two devices takes the
 * shortest road: a backend's own peer copy, a single copy_in/copy_out when
 * one side is host memory, else a bounce through a host buffer.
 *
 * Host memory comes from one pool written once here (exec_host_pool),
 * over a source of blocks: aligned memory for the pageable pool every
 * runtime has, cudaMallocHost for the pinned one the cuda backend installs
 * (exec_cuda.cu).
 */
#include "exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtype_access.h"

#ifdef DEVPLAN_HAVE_CUDA
/* exec_cuda.cu: whether a GPU answers, and why not. */
bool exec_cuda_probe(char **why);
#endif

typedef struct ExecBackendEntry {
	int device_type;             /* DLPack code */
	const ExecBackend *native;   /* NULL when not built */
	const ExecBackend *emulated; /* the stand-in, or NULL */
} ExecBackendEntry;

static const ExecBackendEntry exec_registry[] = {
	{DEVICE_TYPE_CPU, &exec_backend_cpu, NULL},
#ifdef DEVPLAN_HAVE_CUDA
	{DEVICE_TYPE_CUDA, &exec_backend_cuda, &exec_backend_emulated},
#else
	{DEVICE_TYPE_CUDA, NULL, &exec_backend_emulated},
#endif
};

static const ExecBackendEntry *registry_find(int device_type)
{
	for (size_t i = 0; i < DP_COUNT(exec_registry); i++)
		if (exec_registry[i].device_type == device_type)
			return &exec_registry[i];
	return NULL;
}

bool exec_gpu_available(char **why)
{
#ifdef DEVPLAN_HAVE_CUDA
	return exec_cuda_probe(why);
#else
	*why = xstrdup("devplan was built without CUDA");
	return false;
#endif
}

/* ---- host memory ---------------------------------------------------------- */

void *exec_host_alloc(size_t nbytes)
{
	size_t size = (nbytes + 63) / 64 * 64;
	if (size < nbytes)
		return NULL;
	return aligned_alloc(64, size ? size : 64);
}

void exec_host_free(void *ptr)
{
	free(ptr);
}

uint64_t exec_physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
	if (pages <= 0 || size <= 0)
		return UINT64_MAX;
	return (uint64_t)pages * (uint64_t)size;
}

uint64_t exec_default_memory_budget(void)
{
	uint64_t phys = exec_physical_memory();
	return phys == UINT64_MAX ? phys : phys / 4 * 3;
}

uint64_t exec_available_memory(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kib;
	long pages, size;
	if (f) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
				fclose(f);
				return (uint64_t)kib * 1024;
			}
		fclose(f);
	}
	/* no /proc (or a kernel before 3.14): the pages free now */
	pages = sysconf(_SC_AVPHYS_PAGES);
	size = sysconf(_SC_PAGE_SIZE);
	if (pages <= 0 || size <= 0)
		return exec_physical_memory();
	return (uint64_t)pages * (uint64_t)size;
}

/* ---- the host pool ------------------------------------------------------------ */

/* Blocks come in size classes, each with its own free list, so that an
 * allocation and a free are O(1) whatever the cache holds (a run of 10^6
 * small tensors must not scan the cache once per tensor). A class's blocks
 * all have one size: up to 256 bytes the classes are the multiples of 64
 * (a one-element tensor takes 128 bytes with its header, not a page), and
 * above that each power of two (2^k, 2^(k+1)] is cut into four classes of
 * 2^(k-2) bytes each, so a block is at most a quarter larger than asked
 * for. A bitmap of the classes that hold a cached block finds the smallest
 * non-empty class that fits in a few word operations. */
enum {
	POOL_HEADER = 64,
	POOL_SMALL = 256, /* up to here the classes are multiples of 64 */
	POOL_CLASSES = 4 + 4 * (64 - 8),
	POOL_WORDS = (POOL_CLASSES + 63) / 64,
};

/* What sits at the start of every block: its size, whether the source
 * made it (false: the pageable memory a fall_back source's pool handed out
 * when the source had none left), and while it is cached the next block of
 * its class. */
typedef struct PoolHeader {
	size_t size;
	bool from_source;
	struct PoolHeader *next;
} PoolHeader;
_Static_assert(sizeof(PoolHeader) <= POOL_HEADER, "the header fits its slot");

typedef struct HostPool {
	const ExecHostSource *src;
	PoolHeader *free_lists[POOL_CLASSES]; /* cached blocks by class */
	uint64_t nonempty[POOL_WORDS];        /* bit c: free_lists[c] has a block */
	size_t cached_bytes, max_cached;
} HostPool;

/* The class of a block of size bytes (a multiple of 64, at least 64, at
 * most SIZE_MAX / 2), and the size of that class's blocks. */
static unsigned pool_class(size_t size, size_t *class_size)
{
	unsigned k;
	size_t step, units;
	if (size <= POOL_SMALL) {
		*class_size = (size + 63) / 64 * 64;
		return (unsigned)(*class_size / 64 - 1);
	}
	k = 63u - (unsigned)__builtin_clzll((unsigned long long)(size - 1)); /* 2^k < size */
	step = (size_t)1 << (k - 2);
	units = (size + step - 1) / step; /* 5..8 */
	*class_size = units * step;
	return 4 + 4 * (k - 8) + (unsigned)(units - 5);
}

static void pool_push(HostPool *pool, unsigned c, PoolHeader *h)
{
	h->next = pool->free_lists[c];
	pool->free_lists[c] = h;
	pool->nonempty[c / 64] |= (uint64_t)1 << (c % 64);
	pool->cached_bytes += h->size;
}

static PoolHeader *pool_pop(HostPool *pool, unsigned c)
{
	PoolHeader *h = pool->free_lists[c];
	pool->free_lists[c] = h->next;
	if (!h->next)
		pool->nonempty[c / 64] &= ~((uint64_t)1 << (c % 64));
	pool->cached_bytes -= h->size;
	return h;
}

/* The smallest non-empty class from c on, or POOL_CLASSES. */
static unsigned pool_first_cached(const HostPool *pool, unsigned c)
{
	for (unsigned w = c / 64; w < POOL_WORDS; w++) {
		uint64_t bits = pool->nonempty[w];
		if (w == c / 64)
			bits &= ~(uint64_t)0 << (c % 64);
		if (bits)
			return w * 64 + (unsigned)__builtin_ctzll(bits);
	}
	return POOL_CLASSES;
}

/* Gives every cached block back to the source. */
static void pool_release_cache(HostPool *pool)
{
	for (unsigned c = 0; c < POOL_CLASSES; c++)
		while (pool->free_lists[c])
			pool->src->free(pool_pop(pool, c));
}

/* A cached block of the smallest class that fits, as long as it is at most
 * twice the size asked for, else fresh memory of the class's size from the
 * source; the block's size sits in its header. When the source has none, a
 * fall_back source's pool gives its cache back and tries once more, then
 * hands out pageable memory instead of failing an allocation the host
 * could satisfy. */
static void *pool_alloc(void *ctx, size_t nbytes)
{
	HostPool *pool = ctx;
	size_t want, size;
	unsigned c, cached;
	PoolHeader *h;
	if (nbytes > SIZE_MAX / 2 - POOL_HEADER)
		return NULL;
	want = (nbytes + POOL_HEADER + 63) / 64 * 64;
	c = pool_class(want, &size);
	cached = pool_first_cached(pool, c);
	if (cached < POOL_CLASSES && pool->free_lists[cached]->size / 2 <= want)
		return (char *)pool_pop(pool, cached) + POOL_HEADER;
	h = pool->src->alloc(size);
	if (h) {
		h->from_source = true;
	} else {
		if (!pool->src->fall_back)
			return NULL;
		pool_release_cache(pool);
		h = pool->src->alloc(size);
		if (h) {
			h->from_source = true;
		} else {
			h = exec_host_alloc(size);
			if (!h)
				return NULL;
			h->from_source = false;
		}
	}
	h->size = size;
	h->next = NULL;
	return (char *)h + POOL_HEADER;
}

static void pool_free(void *ctx, void *ptr)
{
	HostPool *pool = ctx;
	PoolHeader *h = (PoolHeader *)((char *)ptr - POOL_HEADER);
	size_t size;
	unsigned c;
	if (!h->from_source) {
		exec_host_free(h);
		return;
	}
	if (h->size > pool->max_cached - pool->cached_bytes) {
		pool->src->free(h);
		return;
	}
	c = pool_class(h->size, &size);
	pool_push(pool, c, h);
}

static void pool_destroy(void *ctx)
{
	HostPool *pool = ctx;
	pool_release_cache(pool);
	free(pool);
}

ExecHostAllocator exec_host_pool(const ExecHostSource *src, size_t max_cached)
{
	HostPool *pool = xcalloc(1, sizeof *pool);
	pool->src = src;
	pool->max_cached = max_cached;
	return (ExecHostAllocator){pool_alloc, pool_free, pool_destroy, pool, src->name};
}

static const ExecHostSource pageable_source = {exec_host_alloc, exec_host_free, false, "pageable"};

/* ---- the runtime ------------------------------------------------------------ */

ExecRuntime *exec_runtime_new(const DeviceTable *table, const ExecOptions *opts, DiagList *diags)
{
	ExecRuntime *rt = xcalloc(1, sizeof *rt);
	int32_t cpu = -1;
	rt->table = table;
	rt->opts = *opts;
	rt->diags = diags;
	rt->budget = opts->memory_limit ? opts->memory_limit : exec_default_memory_budget();
	rt->bytes_live = opts->memory_held;
	rt->devices = xcalloc(table->count ? table->count : 1, sizeof(ExecDevice));
	for (uint32_t i = 0; i < table->count; i++) {
		rt->devices[i].index = (int32_t)i;
		rt->devices[i].name = table->items[i].name;
		rt->devices[i].device_id = table->items[i].device_id;
		rt->devices[i].runtime = rt;
		if (cpu < 0 && table->items[i].device_type == DEVICE_TYPE_CPU)
			cpu = (int32_t)i;
	}
	rt->reference.index = -1;
	rt->reference.name = cpu >= 0 ? table->items[cpu].name : "cpu";
	rt->reference.runtime = rt;
	{
		uint64_t phys = exec_physical_memory();
		size_t max_cached =
			phys / 4 < ((uint64_t)1 << 30) ? (size_t)(phys / 4) : (size_t)1 << 30;
		rt->pageable = exec_host_pool(&pageable_source, max_cached);
		rt->host = rt->pageable;
	}
	return rt;
}

static void device_close(ExecDevice *dev)
{
	if (dev->opened && dev->backend->close)
		dev->backend->close(dev);
	dev->opened = false;
}

void exec_runtime_free(ExecRuntime *rt)
{
	if (!rt)
		return;
	/* the cpu devices first: their memory may come from a GPU's pinned pool */
	device_close(&rt->reference);
	for (uint32_t i = 0; i < rt->table->count; i++)
		if (rt->devices[i].backend == &exec_backend_cpu)
			device_close(&rt->devices[i]);
	for (uint32_t i = 0; i < rt->table->count; i++)
		device_close(&rt->devices[i]);
	if (rt->host.ctx != rt->pageable.ctx && rt->host.destroy)
		rt->host.destroy(rt->host.ctx);
	rt->pageable.destroy(rt->pageable.ctx);
	free(rt->devices);
	free(rt);
}

static bool device_open_with(ExecDevice *dev, const ExecBackend *backend, char **err)
{
	dev->backend = backend;
	if (!backend->open(dev, err)) {
		dev->backend = NULL;
		return false;
	}
	dev->opened = true;
	return true;
}

ExecDevice *exec_runtime_device(ExecRuntime *rt, int32_t index)
{
	ExecDevice *dev;
	const Device *d;
	const ExecBackendEntry *entry;
	char *err = NULL;
	if (rt->opts.all_on_cpu || index < 0) {
		dev = &rt->reference;
		if (!dev->opened && !device_open_with(dev, &exec_backend_cpu, &err)) {
			diag_error(rt->diags, NULL, (Pos){0, 0}, "cpu: %s", err);
			free(err);
			return NULL;
		}
		return dev;
	}
	if ((uint32_t)index >= rt->table->count) {
		diag_error(rt->diags, NULL, (Pos){0, 0},
			   "device index %d is not in the device table", index);
		return NULL;
	}
	dev = &rt->devices[index];
	if (dev->opened)
		return dev;
	if (dev->failed)
		return NULL;
	d = &rt->table->items[index];
	entry = registry_find(d->device_type);
	if (!entry) {
		diag_error(
			rt->diags, NULL, (Pos){0, 0},
			"no executor for device kind '%s' (%s): devplan runs cpu and cuda devices",
			d->kind, d->name);
		dev->failed = true;
		return NULL;
	}
	if (!entry->emulated) {
		if (!device_open_with(dev, entry->native, &err)) {
			diag_error(rt->diags, NULL, (Pos){0, 0}, "%s: %s", d->name, err);
			free(err);
			dev->failed = true;
			return NULL;
		}
		return dev;
	}
	switch (rt->opts.gpu) {
	case GPU_EMULATE:
		break;
	case GPU_AUTO:
	case GPU_REQUIRE:
		if (entry->native) {
			if (device_open_with(dev, entry->native, &err))
				return dev;
		} else {
			err = xstrdup("devplan was built without CUDA");
		}
		if (rt->opts.gpu == GPU_REQUIRE) {
			diag_error(rt->diags, NULL, (Pos){0, 0},
				   "no usable GPU for %s (%s) and the gpu setting is require",
				   d->name, err);
			free(err);
			dev->failed = true;
			return NULL;
		}
		free(err);
		err = NULL;
		break;
	}
	if (!device_open_with(dev, entry->emulated, &err)) {
		diag_error(rt->diags, NULL, (Pos){0, 0}, "%s: %s", d->name, err);
		free(err);
		dev->failed = true;
		return NULL;
	}
	if (rt->opts.gpu == GPU_EMULATE)
		diag_note(rt->diags, NULL, (Pos){0, 0},
			  "%s runs on the host emulator (gpu emulate)", d->name);
	else
		diag_note(rt->diags, NULL, (Pos){0, 0},
			  "no usable GPU: %s runs on the host emulator", d->name);
	return dev;
}

/* ---- memory and copies ------------------------------------------------------- */

/* The error of an allocation past the runtime's budget. */
static char *budget_error(const ExecRuntime *rt, size_t nbytes)
{
	StrBuf need, live, have;
	char *err;
	strbuf_init(&need);
	strbuf_init(&live);
	strbuf_init(&have);
	format_bytes(&need, (double)nbytes);
	format_bytes(&live, (double)rt->bytes_live);
	format_bytes(&have, (double)rt->budget);
	if (rt->opts.memory_limit)
		err = xasprintf(
			"needs %s more while the run's tensors (its inputs among them) take %s: "
			"more than the %s memory limit for all of them together",
			need.data, live.data, have.data);
	else
		err = xasprintf(
			"needs %s more while the run's tensors (its inputs among them) take %s: "
			"more than the %s a run may take (3/4 of this machine's memory; "
			"set memory-limit)",
			need.data, live.data, have.data);
	strbuf_free(&need);
	strbuf_free(&live);
	strbuf_free(&have);
	return err;
}

/* Whether nbytes more fit the runtime's budget (else *err). */
static bool budget_takes(const ExecDevice *dev, size_t nbytes, char **err)
{
	const ExecRuntime *rt = dev->runtime;
	if (rt && (nbytes > rt->budget || rt->bytes_live > rt->budget - nbytes)) {
		*err = budget_error(rt, nbytes);
		return false;
	}
	return true;
}

static void count_live(ExecDevice *dev, size_t nbytes)
{
	if (dev->runtime)
		dev->runtime->bytes_live += nbytes;
	dev->bytes_live += nbytes;
	if (dev->bytes_live > dev->bytes_peak)
		dev->bytes_peak = dev->bytes_live;
	dev->allocations++;
}

static void count_freed(ExecDevice *dev, size_t nbytes)
{
	DP_ASSERT(dev->bytes_live >= nbytes);
	dev->bytes_live -= nbytes;
	if (dev->runtime) {
		DP_ASSERT(dev->runtime->bytes_live >= nbytes);
		dev->runtime->bytes_live -= nbytes;
	}
}

void *exec_alloc(ExecDevice *dev, size_t nbytes, char **err)
{
	void *p;
	if (!budget_takes(dev, nbytes, err))
		return NULL;
	p = dev->backend->alloc(dev, nbytes, err);
	if (!p)
		return NULL;
	count_live(dev, nbytes);
	return p;
}

bool exec_can_borrow(const ExecDevice *dev)
{
	return dev->backend->host_memory || dev->backend->lend;
}

bool exec_borrow(ExecDevice *dev, const void *host, size_t nbytes, char **err)
{
	DP_ASSERT(exec_can_borrow(dev));
	if (!budget_takes(dev, nbytes, err))
		return false;
	if (dev->backend->lend && !dev->backend->lend(dev, host, nbytes, err))
		return false;
	count_live(dev, nbytes);
	return true;
}

void exec_unborrow(ExecDevice *dev, const void *host, size_t nbytes)
{
	if (dev->backend->unlend)
		dev->backend->unlend(dev, host, nbytes);
	count_freed(dev, nbytes);
}

void exec_free(ExecDevice *dev, void *ptr, size_t nbytes)
{
	if (!ptr)
		return;
	dev->backend->free(dev, ptr);
	count_freed(dev, nbytes);
}

bool exec_copy_in(ExecDevice *dev, void *dst, const void *host_src, size_t nbytes, char **err)
{
	return nbytes == 0 || dev->backend->copy_in(dev, dst, host_src, nbytes, err);
}

bool exec_copy_out(ExecDevice *dev, void *host_dst, const void *src, size_t nbytes, char **err)
{
	return nbytes == 0 || dev->backend->copy_out(dev, host_dst, src, nbytes, err);
}

bool exec_copy(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src, size_t nbytes,
	       char **err)
{
	void *bounce;
	bool ok;
	if (nbytes == 0)
		return true;
	if (dst_dev->backend == src_dev->backend && dst_dev->backend->copy_peer)
		return dst_dev->backend->copy_peer(dst_dev, dst, src_dev, src, nbytes, err);
	if (src_dev->backend->host_memory)
		return dst_dev->backend->copy_in(dst_dev, dst, src, nbytes, err);
	if (dst_dev->backend->host_memory)
		return src_dev->backend->copy_out(src_dev, dst, src, nbytes, err);
	bounce = exec_host_alloc(nbytes);
	if (!bounce) {
		*err = xasprintf("cannot allocate a %zu-byte host buffer to copy from %s to %s",
				 nbytes, src_dev->name, dst_dev->name);
		return false;
	}
	ok = src_dev->backend->copy_out(src_dev, bounce, src, nbytes, err) &&
	     dst_dev->backend->copy_in(dst_dev, dst, bounce, nbytes, err);
	exec_host_free(bounce);
	return ok;
}

bool exec_launch(ExecDevice *dev, const KernelCall *kc, char **err)
{
	return dev->backend->launch(dev, kc, err);
}

void exec_sync(ExecDevice *dev)
{
	if (dev->backend->sync)
		dev->backend->sync(dev);
}

/* ---- host arrays ------------------------------------------------------------- */

double exec_element(const NpyArray *a, int64_t i)
{
	return dtype_load_double(a->data, a->dtype, i);
}

void exec_checksum(const NpyArray *a, double *sum, uint64_t *hash)
{
	int64_t n = npy_array_count(a);
	double s = 0;
	for (int64_t i = 0; i < n; i++)
		s += exec_element(a, i);
	*sum = s;
	*hash = hash_bytes(a->data, a->nbytes);
}
