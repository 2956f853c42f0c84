/*
 * test_npy.c - NumPy .npy reading and writing (core/exec/npy.c).
 *
 * Round trips of every dtype through npy_encode/npy_parse and through
 * files, version 1.0, 2.0 and 3.0 headers written by hand the way NumPy
 * writes them, and malformed images, each of which must be an error that
 * names the file and the byte (FILE:1:COL) with the expected text, never a
 * crash. The seeded generator is checked for its documented ranges and for
 * giving the same bytes for the same seed.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "npy.h"

/* A .npy image: magic, version, header padded as NumPy pads it, data. */
static uint8_t *image(unsigned major, const char *header, const void *data, size_t ndata,
		      size_t *len)
{
	size_t prefix = major == 1 ? 10 : 12, hlen = strlen(header);
	size_t padded = hlen + 1, pad = (64 - (prefix + padded) % 64) % 64;
	uint8_t *out;
	padded += pad;
	*len = prefix + padded + ndata;
	out = xmalloc(*len);
	memcpy(out, "\x93NUMPY", 6);
	out[6] = (uint8_t)major;
	out[7] = 0;
	if (major == 1) {
		out[8] = (uint8_t)padded;
		out[9] = (uint8_t)(padded >> 8);
	} else {
		out[8] = (uint8_t)padded;
		out[9] = (uint8_t)(padded >> 8);
		out[10] = (uint8_t)(padded >> 16);
		out[11] = (uint8_t)(padded >> 24);
	}
	memcpy(out + prefix, header, hlen);
	memset(out + prefix + hlen, ' ', pad);
	out[prefix + padded - 1] = '\n';
	if (ndata)
		memcpy(out + prefix + padded, data, ndata);
	return out;
}

/* Parses an image that must fail with an error containing `want`. */
static void expect_error(const uint8_t *bytes, size_t len, const char *want)
{
	NpyArray a;
	char *err = NULL;
	bool ok = npy_parse("x.npy", bytes, len, &a, &err);
	if (ok) {
		npy_array_free(&a);
		print_error("parsed, expected an error with '%s'\n", want);
		fail();
	}
	assert_non_null(err);
	if (!strstr(err, want)) {
		print_error("error '%s' lacks '%s'\n", err, want);
		free(err);
		fail();
	}
	assert_int_equal(strncmp(err, "x.npy:", 6), 0);
	free(err);
}

static void expect_header_error(unsigned major, const char *header, size_t ndata, const char *want)
{
	uint8_t zeros[64] = {0};
	size_t len;
	uint8_t *bytes;
	assert_true(ndata <= sizeof zeros);
	bytes = image(major, header, zeros, ndata, &len);
	expect_error(bytes, len, want);
	free(bytes);
}

/* Every dtype comes back as itself, bfloat16 (which NumPy lacks) as its
 * uint16 bit patterns, as TVM's NDArray.numpy() gives it. */
static void test_round_trip_every_dtype(void **state)
{
	static const int64_t shapes[][3] = {{2, 3, 4}, {5, 0, 2}, {1, 1, 7}};
	DType dtypes[DT_COUNT];
	(void)state;
	for (int d = 0; d < DT_COUNT; d++)
		dtypes[d] = (DType)d;
	for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
		for (size_t s = 0; s < DP_COUNT(shapes); s++) {
			for (uint32_t ndim = 0; ndim <= 3; ndim++) {
				NpyArray a, b;
				char *err = NULL;
				size_t len;
				uint8_t *bytes;
				assert_true(npy_random(&a, dtypes[d], ndim, shapes[s], 7, &err));
				bytes = npy_encode(&a, &len);
				/* NumPy's alignment: header and prefix a multiple of 64 */
				assert_int_equal((len - a.nbytes) % 64, 0);
				assert_true(npy_parse("t.npy", bytes, len, &b, &err));
				assert_int_equal(b.dtype,
						 a.dtype == DT_BFLOAT16 ? DT_UINT16 : a.dtype);
				assert_int_equal(b.ndim, a.ndim);
				if (ndim)
					assert_memory_equal(b.shape, a.shape,
							    ndim * sizeof(int64_t));
				assert_int_equal(b.nbytes, a.nbytes);
				if (a.nbytes)
					assert_memory_equal(b.data, a.data, a.nbytes);
				free(bytes);
				npy_array_free(&a);
				npy_array_free(&b);
			}
		}
	}
}

/* NumPy's descrs for the dtypes TVM's quantized programs use, written and
 * read back. */
static void test_descrs(void **state)
{
	static const struct {
		const char *descr;
		DType dtype;
	} cases[] = {
		{"|i1", DT_INT8},   {"|u1", DT_UINT8},  {"<i2", DT_INT16},
		{"<u2", DT_UINT16}, {"<u4", DT_UINT32}, {"<u8", DT_UINT64},
	};
	(void)state;
	assert_string_equal(npy_descr(DT_BFLOAT16), "<u2");
	for (size_t i = 0; i < DP_COUNT(cases); i++) {
		char header[96];
		uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
		size_t len;
		uint8_t *bytes;
		NpyArray a;
		char *err = NULL;
		assert_string_equal(npy_descr(cases[i].dtype), cases[i].descr);
		snprintf(header, sizeof header,
			 "{'descr': '%s', 'fortran_order': False, 'shape': (), }", cases[i].descr);
		bytes = image(1, header, data, dtype_size(cases[i].dtype), &len);
		assert_true(npy_parse("x.npy", bytes, len, &a, &err));
		assert_int_equal(a.dtype, cases[i].dtype);
		assert_memory_equal(a.data, data, dtype_size(cases[i].dtype));
		npy_array_free(&a);
		free(bytes);
	}
	expect_header_error(1, "{'descr': '>u2', 'fortran_order': False, 'shape': (), }", 2,
			    "unsupported dtype '>u2': devplan reads little-endian arrays");
	expect_header_error(1, "{'descr': '<V2', 'fortran_order': False, 'shape': (), }", 2,
			    "unsupported dtype '<V2': devplan reads '<f4', '<f8', '<f2', '|i1', "
			    "'|u1', '<i2', '<u2', '<i4', '<u4', '<i8', '<u8' and '|b1'");
}

static void test_file_round_trip(void **state)
{
	char path[] = "/tmp/devplan_test_npy_XXXXXX";
	int fd = mkstemp(path);
	int64_t shape[2] = {3, 5};
	NpyArray a, b;
	char *err = NULL;
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_true(npy_random(&a, DT_FLOAT32, 2, shape, 1, &err));
	assert_true(npy_write(path, &a, &err));
	assert_true(npy_read(path, &b, &err));
	assert_memory_equal(a.data, b.data, a.nbytes);
	npy_array_free(&a);
	npy_array_free(&b);
	unlink(path);
	assert_false(npy_read("/nonexistent/dir/x.npy", &b, &err));
	assert_non_null(strstr(err, "cannot open '/nonexistent/dir/x.npy'"));
	free(err);
}

/* Headers as NumPy 1.x wrote them (v1) and as it writes them for long
 * headers (v2) and utf-8 names (v3). */
static void test_versions(void **state)
{
	float data[6] = {1, 2, 3, 4, 5, 6};
	static const char *const headers[] = {
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
		"{\"descr\": \"<f4\", \"shape\": (2, 3), \"fortran_order\": False}",
		"{'shape':(2,3),'fortran_order':False,'descr':'<f4'}",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }",
	};
	(void)state;
	for (unsigned major = 1; major <= 3; major++) {
		for (size_t h = 0; h < DP_COUNT(headers); h++) {
			NpyArray a;
			char *err = NULL;
			size_t len;
			uint8_t *bytes = image(major, headers[h], data, sizeof data, &len);
			if (!npy_parse("v.npy", bytes, len, &a, &err)) {
				print_error("v%u '%s': %s\n", major, headers[h], err);
				fail();
			}
			assert_int_equal(a.ndim, 2);
			assert_int_equal(a.shape[0], 2);
			assert_int_equal(a.shape[1], 3);
			assert_memory_equal(a.data, data, sizeof data);
			npy_array_free(&a);
			free(bytes);
		}
	}
}

static void test_scalar_and_one_dim(void **state)
{
	double v = 2.5;
	int64_t iv[3] = {1, -2, 3};
	NpyArray a;
	char *err = NULL;
	size_t len;
	uint8_t *bytes;
	(void)state;
	bytes = image(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", &v, 8, &len);
	assert_true(npy_parse("s.npy", bytes, len, &a, &err));
	assert_int_equal(a.ndim, 0);
	assert_true(*(double *)a.data == 2.5);
	npy_array_free(&a);
	free(bytes);
	bytes = image(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", iv, 24, &len);
	assert_true(npy_parse("s.npy", bytes, len, &a, &err));
	assert_int_equal(a.ndim, 1);
	assert_int_equal(a.shape[0], 3);
	assert_int_equal(((int64_t *)a.data)[1], -2);
	npy_array_free(&a);
	free(bytes);
}

static void test_malformed(void **state)
{
	uint8_t bad_magic[16] = "\x93NUMPX\x01\x00\x04\x00{}  ";
	uint8_t version[16] = "\x93NUMPY\x04\x00\x04\x00{}  ";
	uint8_t minor[16] = "\x93NUMPY\x01\x05\x04\x00{}  ";
	uint8_t long_header[16] = "\x93NUMPY\x01\x00\xff\x00{}  ";
	uint8_t short_file[7] = "\x93NUMPY";
	(void)state;
	expect_error(bad_magic, sizeof bad_magic, "x.npy:1:1: not a NumPy .npy file");
	expect_error(short_file, sizeof short_file, "not a NumPy .npy file");
	expect_error(version, sizeof version, "x.npy:1:7: unsupported .npy version 4.0");
	expect_error(minor, sizeof minor, "unsupported .npy version 1.5");
	expect_error(long_header, sizeof long_header, "the header says 255 bytes");
	expect_header_error(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8,
			    "x.npy:1:21: unsupported dtype '>f4': devplan reads little-endian");
	expect_header_error(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16,
			    "unsupported dtype '<c8'");
	expect_header_error(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}",
			    8, "structured dtypes are not supported");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16,
			    "x.npy:1:45: fortran_order is True: devplan reads C-order arrays only");
	expect_header_error(1, "{'descr': '<f4', 'shape': (2,), }", 8,
			    "the header lacks the key 'fortran_order'");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, }", 4,
			    "the header lacks the key 'shape'");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", 8,
			    "unexpected key 'x'");
	expect_header_error(
		1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 8,
		"key 'descr' appears twice");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", 8,
			    "negative dimension");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 8,
			    "the shape needs 24 bytes of float32 data but the file has 8");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 8,
			    "needs 4 bytes of float32 data but the file has 8");
	expect_header_error(1,
			    "{'descr': '<f4', 'fortran_order': False, 'shape': "
			    "(99999999999, 99999999999), }",
			    0, "overflows");
	expect_header_error(1,
			    "{'descr': '<f4', 'fortran_order': False, 'shape': "
			    "(99999999999999999999,), }",
			    0, "dimension too large");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }", 8,
			    "expected True or False");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,) ", 8,
			    "the header ends where ',' or '}' after a value was expected");
	expect_header_error(1, "{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }", 8,
			    "x.npy:1:28: expected ',' or '}' after a value, found 'f'");
	expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", 8,
			    "unexpected text after the header dict");
	expect_header_error(1, "['descr', '<f4']", 8, "x.npy:1:11: expected '{' starting");
	{
		uint8_t data[3] = {0, 2, 1};
		size_t len;
		uint8_t *bytes =
			image(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", data,
			      3, &len);
		expect_error(bytes, len, "bool element 1 is 2, not 0 or 1");
		free(bytes);
	}
	{
		size_t len;
		uint8_t *bytes =
			image(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
			      "abcdefgh", 8, &len);
		bytes[20] = 0xc3;
		expect_error(bytes, len, "unexpected byte 0xc3 in the header");
		free(bytes);
	}
}

/* Every prefix of a valid image is an error, never a crash or a read past
 * the end. */
static void test_truncations(void **state)
{
	int64_t shape[2] = {3, 4};
	NpyArray a, b;
	char *err = NULL;
	size_t len;
	uint8_t *bytes;
	(void)state;
	assert_true(npy_random(&a, DT_FLOAT64, 2, shape, 3, &err));
	bytes = npy_encode(&a, &len);
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = xmalloc(n ? n : 1);
		memcpy(copy, bytes, n);
		assert_false(npy_parse("t.npy", copy, n, &b, &err));
		free(err);
		err = NULL;
		free(copy);
	}
	free(bytes);
	npy_array_free(&a);
}

/* npy_read reads the header and then the data straight into the array:
 * the same errors as npy_parse, for every prefix of a file. */
static void test_read_files(void **state)
{
	char path[] = "/tmp/devplan_test_npy_XXXXXX";
	int fd = mkstemp(path);
	int64_t shape[2] = {3, 4};
	uint8_t data[3] = {0, 2, 1};
	NpyArray a, b;
	char *err = NULL;
	size_t len;
	uint8_t *bytes;
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_true(npy_random(&a, DT_INT32, 2, shape, 9, &err));
	bytes = npy_encode(&a, &len);
	for (size_t n = 0; n <= len; n++) {
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(bytes, 1, n, f), n);
		fclose(f);
		if (n == len) {
			assert_true(npy_read(path, &b, &err));
			assert_memory_equal(a.data, b.data, a.nbytes);
			npy_array_free(&b);
		} else {
			assert_false(npy_read(path, &b, &err));
			assert_int_equal(strncmp(err, path, strlen(path)), 0);
			free(err);
			err = NULL;
		}
	}
	free(bytes);
	npy_array_free(&a);
	bytes = image(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", data, 3,
		      &len);
	{
		FILE *f = fopen(path, "wb");
		assert_int_equal(fwrite(bytes, 1, len, f), len);
		fclose(f);
	}
	assert_false(npy_read(path, &b, &err));
	/* the header pads to 128 bytes: element 1 is byte 129, column 130 */
	assert_non_null(strstr(err, ":1:130: bool element 1 is 2, not 0 or 1"));
	free(err);
	free(bytes);
	unlink(path);
}

/* Element i of an integer array of at most 32 bits. */
static double small_int_at(const NpyArray *a, int i)
{
	const uint8_t *p = (const uint8_t *)a->data + (size_t)i * dtype_size(a->dtype);
	switch (dtype_size(a->dtype)) {
	case 1:
		return dtype_is_unsigned(a->dtype) ? *p : *(const int8_t *)p;
	case 2:
		return dtype_is_unsigned(a->dtype) ? *(const uint16_t *)p : *(const int16_t *)p;
	default:
		return *(const uint32_t *)p;
	}
}

static void test_random(void **state)
{
	int64_t shape[1] = {10000};
	NpyArray a, b;
	char *err = NULL;
	(void)state;
	assert_true(npy_random(&a, DT_FLOAT32, 1, shape, 42, &err));
	assert_true(npy_random(&b, DT_FLOAT32, 1, shape, 42, &err));
	assert_memory_equal(a.data, b.data, a.nbytes);
	{
		float lo = 1, hi = -1;
		for (int i = 0; i < 10000; i++) {
			float v = ((float *)a.data)[i];
			assert_true(v >= -1.0f && v < 1.0f);
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		assert_true(lo < -0.99f && hi > 0.99f);
	}
	npy_array_free(&b);
	assert_true(npy_random(&b, DT_FLOAT32, 1, shape, 43, &err));
	assert_true(memcmp(a.data, b.data, a.nbytes) != 0);
	npy_array_free(&a);
	npy_array_free(&b);
	/* the documented first value of seed 0: splitmix64(0) = 0xe220a8397b1dcdaf */
	assert_true(npy_random(&a, DT_FLOAT64, 1, shape, 0, &err));
	assert_true(((double *)a.data)[0] == (double)(0xe220a8397b1dcdafull >> 11) * 0x1p-52 - 1.0);
	npy_array_free(&a);
	assert_true(npy_random(&a, DT_INT32, 1, shape, 5, &err));
	for (int i = 0; i < 10000; i++)
		assert_true(((int32_t *)a.data)[i] >= -8 && ((int32_t *)a.data)[i] < 8);
	npy_array_free(&a);
	assert_true(npy_random(&a, DT_BOOL, 1, shape, 5, &err));
	for (int i = 0; i < 10000; i++)
		assert_true(((uint8_t *)a.data)[i] <= 1);
	npy_array_free(&a);
	/* the other integers: signed ones in [-8, 8), unsigned in [0, 16), each
	 * value drawn; uint64 (Threefry keys) over the whole range */
	{
		static const DType small[] = {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_UINT32};
		for (size_t d = 0; d < DP_COUNT(small); d++) {
			bool seen[16] = {false};
			NpyArray c;
			int64_t lo = dtype_is_unsigned(small[d]) ? 0 : -8;
			assert_true(npy_random(&a, small[d], 1, shape, 5, &err));
			assert_true(npy_random(&c, small[d], 1, shape, 5, &err));
			assert_memory_equal(a.data, c.data, a.nbytes);
			for (int i = 0; i < 10000; i++) {
				double v = small_int_at(&a, i);
				assert_true(v >= (double)lo && v < (double)(lo + 16));
				seen[(int)v - lo] = true;
			}
			for (int k = 0; k < 16; k++)
				assert_true(seen[k]);
			npy_array_free(&a);
			npy_array_free(&c);
		}
	}
	assert_true(npy_random(&a, DT_UINT64, 1, shape, 0, &err));
	assert_true(((uint64_t *)a.data)[0] == 0xe220a8397b1dcdafull);
	npy_array_free(&a);
	assert_true(npy_random(&a, DT_BFLOAT16, 1, shape, 42, &err));
	for (int i = 0; i < 10000; i++) {
		float v = npy_bfloat16_to_float(((uint16_t *)a.data)[i]);
		assert_true(v >= -1.0f && v <= 1.0f);
	}
	npy_array_free(&a);
}

static void test_bfloat16(void **state)
{
	(void)state;
	assert_int_equal(npy_float_to_bfloat16(1.0f), 0x3f80);
	assert_true(npy_bfloat16_to_float(0x3f80) == 1.0f);
	assert_true(npy_bfloat16_to_float(0xc060) == -3.5f);
	/* round to nearest, ties to even */
	assert_int_equal(npy_float_to_bfloat16(1.0f + 0x1p-8f), 0x3f80);
	assert_int_equal(npy_float_to_bfloat16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
	assert_int_equal(npy_float_to_bfloat16(1.0f + 3 * 0x1p-8f), 0x3f82);
	/* the largest float rounds up to infinity; a NaN stays a NaN */
	assert_int_equal(npy_float_to_bfloat16(3.4028235e38f), 0x7f80);
	assert_true(isnan(npy_bfloat16_to_float(npy_float_to_bfloat16(NAN))));
}

static void test_half(void **state)
{
	static const float values[] = {0.0f,     -0.0f,          1.0f,           -2.5f,
				       65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.333251953125f};
	(void)state;
	for (size_t i = 0; i < DP_COUNT(values); i++)
		assert_true(npy_half_to_float(npy_float_to_half(values[i])) == values[i]);
	assert_int_equal(npy_float_to_half(1.0f), 0x3c00);
	assert_int_equal(npy_float_to_half(65536.0f), 0x7c00);        /* overflow: inf */
	assert_int_equal(npy_float_to_half(1.0f + 0x1p-11f), 0x3c00); /* tie to even */
	assert_int_equal(npy_float_to_half(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
	assert_true(npy_half_to_float(0x7e00) != npy_half_to_float(0x7e00)); /* NaN */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_dtype),
		cmocka_unit_test(test_descrs),
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_scalar_and_one_dim),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_read_files),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_half),
		cmocka_unit_test(test_bfloat16),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
