/*
 * exec_cpu.c - the cpu backend: host memory and the C kernels.
 *
 * Memory comes from the runtime's host allocator: the pageable pool, or
 * pinned memory once a GPU is open (the cuda backend installs it so
 * that a device_copy from or to the cpu is one DMA at full speed). Each
 * block starts with a 64-byte header recording which allocator produced
 * it, so a block is always released by the allocator that made it even if
 * a GPU was opened in between. Copies are memcpy; launches run the kernels
 * of cpu/ on the calling thread (which may fan out to workers).
 *
 * Tensor memory is the one allocation in devplan that may fail without
 * aborting: its size comes from the user's model, so running out is an
 * error message, not a crash.
 */
#include "exec.h"

#include <stdlib.h>
#include <string.h>

enum { CPU_HEADER = 64 };
static const uint64_t CPU_MAGIC = 0x6465767063707530ull; /* "devpcpu0" */

typedef struct CpuBlock {
	uint64_t magic;
	const ExecDevice *owner;
	void (*release)(void *ctx, void *ptr); /* the allocator that made it */
	void *ctx;
	size_t nbytes;
} CpuBlock;

static bool cpu_open(ExecDevice *dev, char **err)
{
	(void)dev;
	(void)err;
	kernel_cpu_threads();
	kernel_cpu_pool_open();
	return true;
}

static void cpu_close(ExecDevice *dev)
{
	(void)dev;
	kernel_cpu_pool_close();
}

static void *cpu_alloc(ExecDevice *dev, size_t nbytes, char **err)
{
	const ExecHostAllocator *host = &dev->runtime->host;
	size_t total = nbytes + CPU_HEADER;
	char *base;
	CpuBlock *b;
	if (total < nbytes) {
		*err = xasprintf("%zu bytes is more than the cpu can address", nbytes);
		return NULL;
	}
	base = host->alloc(host->ctx, total);
	if (!base) {
		*err = xasprintf("out of memory: cannot allocate %zu bytes on %s", nbytes,
				 dev->name);
		return NULL;
	}
	b = (CpuBlock *)base;
	b->magic = CPU_MAGIC;
	b->owner = dev;
	b->release = host->free;
	b->ctx = host->ctx;
	b->nbytes = nbytes;
	return base + CPU_HEADER;
}

static void cpu_free(ExecDevice *dev, void *ptr)
{
	char *base = (char *)ptr - CPU_HEADER;
	CpuBlock *b = (CpuBlock *)base;
	(void)dev;
	DP_ASSERT(b->magic == CPU_MAGIC);
	b->magic = 0;
	b->release(b->ctx, base);
}

static bool cpu_copy(ExecDevice *dev, void *dst, const void *src, size_t nbytes, char **err)
{
	(void)dev;
	(void)err;
	memcpy(dst, src, nbytes);
	return true;
}

static bool cpu_copy_peer(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src,
			  size_t nbytes, char **err)
{
	(void)dst_dev;
	(void)src_dev;
	(void)err;
	memcpy(dst, src, nbytes);
	return true;
}

static bool cpu_launch(ExecDevice *dev, const KernelCall *kc, char **err)
{
	(void)dev;
	return kernel_cpu_launch(kc, err);
}

const ExecBackend exec_backend_cpu = {
	.name = "cpu",
	.open = cpu_open,
	.close = cpu_close,
	.alloc = cpu_alloc,
	.free = cpu_free,
	.copy_in = cpu_copy,
	.copy_out = cpu_copy,
	.copy_peer = cpu_copy_peer,
	.launch = cpu_launch,
	.supports = kernel_cpu_supports,
	.sync = NULL,
	.host_memory = true,
	.host_readable = true,
};
