/*
 * exec_emulated.c - the host emulator that stands in for a cuda device.
 *
 * Each emulated device has its own memory space: blocks of host memory
 * tagged with the device that owns them. Copies in, out and between
 * devices are real memcpys, so a plan's transfers happen and are counted
 * exactly as on a GPU, and a launch runs the CPU kernels only after
 * checking that every operand is a block of this device's space. The
 * interpreter checks placement first and names the op and both devices;
 * the check here is the second line, so that no bug in it can silently
 * read another device's memory.
 */
#include "exec.h"

#include <string.h>

enum { EMULATED_HEADER = 64 };
static const uint64_t EMULATED_MAGIC = 0x656d756c61746564ull; /* "emulated" */

typedef struct EmulatedBlock {
	uint64_t magic;
	const ExecDevice *owner;
	size_t nbytes;
} EmulatedBlock;

static bool emulated_open(ExecDevice *dev, char **err)
{
	(void)dev;
	(void)err;
	kernel_cpu_threads();
	kernel_cpu_pool_open();
	return true;
}

static void emulated_close(ExecDevice *dev)
{
	(void)dev;
	kernel_cpu_pool_close();
}

static void *emulated_alloc(ExecDevice *dev, size_t nbytes, char **err)
{
	const ExecHostAllocator *pool = &dev->runtime->pageable;
	size_t total = nbytes + EMULATED_HEADER;
	char *base = total < nbytes ? NULL : pool->alloc(pool->ctx, total);
	EmulatedBlock *b;
	if (!base) {
		*err = xasprintf("out of memory: cannot allocate %zu bytes on %s (emulated)",
				 nbytes, dev->name);
		return NULL;
	}
	b = (EmulatedBlock *)base;
	b->magic = EMULATED_MAGIC;
	b->owner = dev;
	b->nbytes = nbytes;
	return base + EMULATED_HEADER;
}

static EmulatedBlock *emulated_block(const void *ptr)
{
	return (EmulatedBlock *)((char *)ptr - EMULATED_HEADER);
}

static void emulated_free(ExecDevice *dev, void *ptr)
{
	EmulatedBlock *b = emulated_block(ptr);
	DP_ASSERT(b->magic == EMULATED_MAGIC && b->owner == dev);
	b->magic = 0;
	dev->runtime->pageable.free(dev->runtime->pageable.ctx, b);
}

/* Whether [ptr, ptr + nbytes) lies in a block of dev's space. */
static bool emulated_owns(const ExecDevice *dev, const void *ptr, size_t nbytes)
{
	const EmulatedBlock *b = emulated_block(ptr);
	return b->magic == EMULATED_MAGIC && b->owner == dev && nbytes <= b->nbytes;
}

static bool emulated_copy_in(ExecDevice *dev, void *dst, const void *src, size_t nbytes, char **err)
{
	if (!emulated_owns(dev, dst, nbytes)) {
		*err = xasprintf("copy into %s targets memory that is not the device's", dev->name);
		return false;
	}
	memcpy(dst, src, nbytes);
	return true;
}

static bool emulated_copy_out(ExecDevice *dev, void *dst, const void *src, size_t nbytes,
			      char **err)
{
	if (!emulated_owns(dev, src, nbytes)) {
		*err = xasprintf("copy out of %s reads memory that is not the device's", dev->name);
		return false;
	}
	memcpy(dst, src, nbytes);
	return true;
}

static bool emulated_copy_peer(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src,
			       size_t nbytes, char **err)
{
	if (!emulated_owns(src_dev, src, nbytes) || !emulated_owns(dst_dev, dst, nbytes)) {
		*err = xasprintf("copy from %s to %s uses memory outside their spaces",
				 src_dev->name, dst_dev->name);
		return false;
	}
	memcpy(dst, src, nbytes);
	return true;
}

static bool emulated_launch(ExecDevice *dev, const KernelCall *kc, char **err)
{
	for (uint32_t i = 0; i < kc->nin; i++)
		if (!emulated_owns(dev, kc->in[i].data, kc->in[i].nbytes)) {
			*err = xasprintf("operand %u of '%s' is not in %s's memory", i + 1,
					 kc->name, dev->name);
			return false;
		}
	for (uint32_t i = 0; i < kc->nout; i++)
		if (!emulated_owns(dev, kc->out[i].data, kc->out[i].nbytes)) {
			*err = xasprintf("result %u of '%s' is not in %s's memory", i + 1, kc->name,
					 dev->name);
			return false;
		}
	return kernel_cpu_launch(kc, err);
}

const ExecBackend exec_backend_emulated = {
	.name = "emulated-cuda",
	.open = emulated_open,
	.close = emulated_close,
	.alloc = emulated_alloc,
	.free = emulated_free,
	.copy_in = emulated_copy_in,
	.copy_out = emulated_copy_out,
	.copy_peer = emulated_copy_peer,
	.launch = emulated_launch,
	.supports = kernel_cpu_supports,
	.sync = NULL,
	.host_memory = false,
	.host_readable = true,
};
