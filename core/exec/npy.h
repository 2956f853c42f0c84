/*
 * npy.h - host arrays: NumPy .npy files and seeded random tensors.
 *
 * An NpyArray is a dtype, a shape and the C-order bytes of a tensor in host
 * memory; it is what `run` reads its inputs into and what it returns as
 * outputs. npy_read accepts the .npy format versions 1.0, 2.0 and 3.0 with a
 * little-endian (or byte-order-free) dtype devplan knows ('<f4', '<f8',
 * '<f2', '<i4', '<i8', '|b1', '|i1', '|u1', '<i2', '<u2', '<u4', '<u8') in
 * C order, and validates everything: the
 * magic, the header dict (exactly the keys descr, fortran_order and shape),
 * the shape (non-negative, no overflow), the data length (neither short nor
 * long) and the bool bytes (0 or 1). Errors name the file and the byte
 * where the problem is, as FILE:1:COL (the header is the file's first line,
 * COL its byte offset plus one), e.g.
 *     x.npy:1:23: unsupported dtype '>f4': devplan reads little-endian arrays
 *
 * Random tensors come from splitmix64 (Steele, Lea and Flood, 2014): the
 * state starts at the seed, each element takes the next output z, and
 *     float32/float16  ((z >> 40) * 2^-24) * 2 - 1, uniform in [-1, 1)
 *     float64          ((z >> 11) * 2^-53) * 2 - 1, uniform in [-1, 1)
 *     bfloat16         as float32, rounded to nearest even
 *     int8 ... int64   (z >> 60) - 8, uniform in [-8, 8)
 *     uint8 ... uint32 z >> 60, uniform in [0, 16)
 *     uint64           z, uniform over all of uint64 (Threefry keys)
 *     bool             z >> 63
 * so a (seed, dtype, shape) gives the same bytes on every machine.
 *
 * Ownership: an NpyArray owns its shape and data (npy_array_free); error
 * strings are the caller's to free.
 */
#ifndef DEVPLAN_NPY_H
#define DEVPLAN_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

typedef struct NpyArray {
	DType dtype;
	uint32_t ndim;
	int64_t *shape; /* ndim dimensions (NULL for a scalar) */
	void *data;     /* nbytes bytes, C order; never NULL once allocated */
	size_t nbytes;
} NpyArray;

/* Allocates a zeroed array; false with *err when the element count or the
 * byte size overflows or the memory is not there. */
bool npy_array_alloc(NpyArray *a, DType dtype, uint32_t ndim, const int64_t *shape, char **err);
void npy_array_free(NpyArray *a);
/* Number of elements (the product of the shape; 1 for a scalar). */
int64_t npy_array_count(const NpyArray *a);

/* Parses a whole .npy image; name is used in messages. */
bool npy_parse(const char *name, const uint8_t *bytes, size_t len, NpyArray *out, char **err);
bool npy_read(const char *path, NpyArray *out, char **err);
/* Writes a version 1.0 file (2.0 when the header needs it) with
 * file_write.h's writer: atomically, every write checked; false with *err
 * set and path untouched on failure. */
bool npy_write(const char *path, const NpyArray *a, char **err);
/* The bytes of a .npy image of a (for tests and npy_write); caller frees. */
uint8_t *npy_encode(const NpyArray *a, size_t *len);

/* The dtype descriptor npy_write uses ("<f4", ...); bfloat16, which NumPy
 * lacks, is written as its uint16 bit patterns ("<u2"), as TVM does. */
const char *npy_descr(DType dtype);

/* Fills a fresh array with splitmix64 values as described above. */
bool npy_random(NpyArray *out, DType dtype, uint32_t ndim, const int64_t *shape, uint64_t seed,
		char **err);

/* IEEE half <-> single conversions (round to nearest even). */
float npy_half_to_float(uint16_t h);
uint16_t npy_float_to_half(float f);
/* bfloat16 <-> single (exact one way, round to nearest even the other). */
float npy_bfloat16_to_float(uint16_t b);
uint16_t npy_float_to_bfloat16(float f);

#endif
