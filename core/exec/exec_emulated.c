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
 *
 * The host's arrays of a run's inputs are lent to the device where they
 * are (emulated_lend) rather than copied, the emulator's memory being the
 * host's: a lent array is the device's to read (an operand, the source of
 * a copy) and never to write (a kernel's result, the target of a copy are
 * refused), and in builds with assertions its bytes are hashed when lent
 * and checked when given back, so that a kernel writing into its operand
 * is caught rather than corrupting the caller's input.
 */
#include "exec.h"

#include <stdlib.h>
#include <string.h>

enum { EMULATED_HEADER = 64 };
static const uint64_t EMULATED_MAGIC = 0x656d756c61746564ull; /* "emulated" */

typedef struct EmulatedBlock {
	uint64_t magic;
	const ExecDevice *owner;
	size_t nbytes;
} EmulatedBlock;

/* An array of host memory lent to the device (emulated_lend). */
typedef struct EmulatedLent {
	const char *data;
	size_t nbytes;
	uint32_t count; /* lent this many times and not yet given back */
#ifndef NDEBUG
	uint64_t hash; /* of the bytes when first lent */
#endif
} EmulatedLent;

/* dev->state: the arrays lent to it. */
typedef struct EmulatedSpace {
	EmulatedLent *lent;
	size_t nlent, cap_lent;
} EmulatedSpace;

static bool emulated_open(ExecDevice *dev, char **err)
{
	(void)err;
	dev->state = xcalloc(1, sizeof(EmulatedSpace));
	kernel_cpu_threads();
	kernel_cpu_pool_open();
	return true;
}

static void emulated_close(ExecDevice *dev)
{
	EmulatedSpace *space = dev->state;
	/* what is still lent (a run abandoned when memory ran out) is simply
	 * forgotten: the arrays are the caller's */
	if (space)
		free(space->lent);
	free(space);
	dev->state = NULL;
	kernel_cpu_pool_close();
}

#ifndef NDEBUG
/* FNV-1a over 8-byte words (a lent array's bytes, checked in builds with
 * assertions). */
static uint64_t lent_hash(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull, w;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	return h;
}
#endif

/* The entry of the array at data of nbytes lent to dev, or NULL. */
static EmulatedLent *lent_find(const ExecDevice *dev, const void *data, size_t nbytes)
{
	EmulatedSpace *space = dev->state;
	for (size_t i = 0; space && i < space->nlent; i++)
		if (space->lent[i].data == data && space->lent[i].nbytes == nbytes)
			return &space->lent[i];
	return NULL;
}

static bool emulated_lend(ExecDevice *dev, const void *host, size_t nbytes, char **err)
{
	EmulatedSpace *space = dev->state;
	EmulatedLent *l = lent_find(dev, host, nbytes);
	(void)err;
	if (l) {
		l->count++; /* the same array bound to two inputs */
		return true;
	}
	grow_array((void **)&space->lent, &space->cap_lent, space->nlent + 1, sizeof(EmulatedLent));
	l = &space->lent[space->nlent++];
	memset(l, 0, sizeof *l);
	l->data = host;
	l->nbytes = nbytes;
	l->count = 1;
#ifndef NDEBUG
	l->hash = lent_hash(host, nbytes);
#endif
	return true;
}

static void emulated_unlend(ExecDevice *dev, const void *host, size_t nbytes)
{
	EmulatedSpace *space = dev->state;
	EmulatedLent *l = lent_find(dev, host, nbytes);
	DP_ASSERT(l && "unlend of an array not lent");
	if (--l->count)
		return;
#ifndef NDEBUG
	/* no kernel writes into its operands */
	DP_ASSERT(lent_hash(l->data, l->nbytes) == l->hash);
#endif
	*l = space->lent[--space->nlent];
}

/* Whether [ptr, ptr + nbytes) lies in an array lent to dev. */
static bool emulated_lent(const ExecDevice *dev, const void *ptr, size_t nbytes)
{
	const EmulatedSpace *space = dev->state;
	const char *p = ptr;
	for (size_t i = 0; space && i < space->nlent; i++) {
		const EmulatedLent *l = &space->lent[i];
		if (p >= l->data && nbytes <= l->nbytes &&
		    (size_t)(p - l->data) <= l->nbytes - nbytes)
			return true;
	}
	return false;
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

/* Whether dev may read [ptr, ptr + nbytes): an array lent to it (looked up
 * first: host memory has no block header in front of it) or its own. */
static bool emulated_readable(const ExecDevice *dev, const void *ptr, size_t nbytes)
{
	return emulated_lent(dev, ptr, nbytes) || emulated_owns(dev, ptr, nbytes);
}

/* Whether dev may write [ptr, ptr + nbytes): its own memory, never an
 * array lent to it. */
static bool emulated_writable(const ExecDevice *dev, const void *ptr, size_t nbytes)
{
	return !emulated_lent(dev, ptr, nbytes) && emulated_owns(dev, ptr, nbytes);
}

static bool emulated_copy_in(ExecDevice *dev, void *dst, const void *src, size_t nbytes, char **err)
{
	if (!emulated_writable(dev, dst, nbytes)) {
		*err = xasprintf("copy into %s targets memory that is not the device's", dev->name);
		return false;
	}
	memcpy(dst, src, nbytes);
	return true;
}

static bool emulated_copy_out(ExecDevice *dev, void *dst, const void *src, size_t nbytes,
			      char **err)
{
	if (!emulated_readable(dev, src, nbytes)) {
		*err = xasprintf("copy out of %s reads memory that is not the device's", dev->name);
		return false;
	}
	memcpy(dst, src, nbytes);
	return true;
}

static bool emulated_copy_peer(ExecDevice *dst_dev, void *dst, ExecDevice *src_dev, const void *src,
			       size_t nbytes, char **err)
{
	if (!emulated_readable(src_dev, src, nbytes) || !emulated_writable(dst_dev, dst, nbytes)) {
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
		if (!emulated_readable(dev, kc->in[i].data, kc->in[i].nbytes)) {
			*err = xasprintf("operand %u of '%s' is not in %s's memory", i + 1,
					 kc->name, dev->name);
			return false;
		}
	for (uint32_t i = 0; i < kc->nout; i++)
		if (!emulated_writable(dev, kc->out[i].data, kc->out[i].nbytes)) {
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
	.lend = emulated_lend,
	.unlend = emulated_unlend,
};
