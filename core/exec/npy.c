/*
 * npy.c - NumPy .npy reading and writing, and seeded random tensors.
 *
 * The .npy format is a 6-byte magic "\x93NUMPY", a version (1.0: a 2-byte
 * header length; 2.0 and 3.0: 4 bytes), then the header: the repr of a
 * Python dict such as {'descr': '<f4', 'fortran_order': False, 'shape':
 * (2, 3), } padded with spaces to a 64-byte boundary and ended by '\n',
 * then the data. The header is parsed by a small recursive-descent reader
 * of exactly that dict grammar (strings, True/False, tuples of integers),
 * so that a hostile file is an error with its byte offset and never a
 * crash, an overflow or a huge allocation: the data size is checked
 * against the file's length before anything is allocated, and the data is
 * read straight into the array. Array data is allocated with calloc, not
 * xmalloc: its size comes from the file, so running out of memory is an
 * error message rather than an abort.
 */
#include "npy.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_read.h"
#include "file_write.h"
#include "random_draw.h"

/* ---- arrays ------------------------------------------------------------- */

static bool checked_bytes(DType dtype, uint32_t ndim, const int64_t *shape, int64_t *count,
			  size_t *nbytes)
{
	int64_t n = 1, b;
	for (uint32_t i = 0; i < ndim; i++) {
		if (shape[i] < 0 || __builtin_mul_overflow(n, shape[i], &n))
			return false;
	}
	if (__builtin_mul_overflow(n, (int64_t)dtype_size(dtype), &b) || (uint64_t)b > SIZE_MAX / 2)
		return false;
	*count = n;
	*nbytes = (size_t)b;
	return true;
}

bool npy_array_alloc(NpyArray *a, DType dtype, uint32_t ndim, const int64_t *shape, char **err)
{
	int64_t count;
	size_t nbytes;
	memset(a, 0, sizeof *a);
	if (!checked_bytes(dtype, ndim, shape, &count, &nbytes)) {
		*err = xasprintf("a %s array of that shape has more bytes than memory can hold",
				 dtype_name(dtype));
		return false;
	}
	/* tensor data may be large: a failed allocation is an error, not an abort */
	a->data = calloc(nbytes ? nbytes : 1, 1);
	if (!a->data) {
		*err = xasprintf("cannot allocate %zu bytes for a %s array", nbytes,
				 dtype_name(dtype));
		return false;
	}
	a->dtype = dtype;
	a->ndim = ndim;
	a->shape = ndim ? xmalloc(ndim * sizeof(int64_t)) : NULL;
	if (ndim)
		memcpy(a->shape, shape, ndim * sizeof(int64_t));
	a->nbytes = nbytes;
	return true;
}

void npy_array_free(NpyArray *a)
{
	free(a->shape);
	free(a->data);
	memset(a, 0, sizeof *a);
}

int64_t npy_array_count(const NpyArray *a)
{
	int64_t n = 1;
	for (uint32_t i = 0; i < a->ndim; i++)
		n *= a->shape[i];
	return n;
}

/* ---- dtypes --------------------------------------------------------------- */

static const struct {
	const char *descr;
	DType dtype;
} npy_dtypes[] = {
	{"<f4", DT_FLOAT32}, {"<f8", DT_FLOAT64}, {"<f2", DT_FLOAT16}, {"<i4", DT_INT32},
	{"<i8", DT_INT64},   {"|b1", DT_BOOL},    {"<b1", DT_BOOL},    {"|i1", DT_INT8},
	{"<i1", DT_INT8},    {"|u1", DT_UINT8},   {"<u1", DT_UINT8},   {"<i2", DT_INT16},
	{"<u2", DT_UINT16},  {"<u4", DT_UINT32},  {"<u8", DT_UINT64},
};

/* bfloat16 has no NumPy dtype: as TVM's NDArray.numpy() does, its arrays
 * are written as uint16 bit patterns ('<u2'). */
const char *npy_descr(DType dtype)
{
	if (dtype == DT_BFLOAT16)
		dtype = DT_UINT16;
	for (size_t i = 0; i < DP_COUNT(npy_dtypes); i++)
		if (npy_dtypes[i].dtype == dtype)
			return npy_dtypes[i].descr;
	return "?";
}

/* ---- the header dict ------------------------------------------------------- */

typedef struct HeaderReader {
	const char *name; /* the file, for messages */
	const char *text; /* the header bytes */
	size_t len;
	size_t pos;
	size_t base; /* file offset of text[0] */
	char *err;   /* the first error */
} HeaderReader;

static bool header_fail(HeaderReader *r, size_t at, const char *fmt, ...) DP_PRINTF(3, 4);

static bool header_fail(HeaderReader *r, size_t at, const char *fmt, ...)
{
	va_list ap;
	StrBuf sb;
	if (r->err)
		return false;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s:1:%zu: ", r->name, r->base + at + 1);
	va_start(ap, fmt);
	strbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	r->err = strbuf_detach(&sb);
	return false;
}

static void header_skip_space(HeaderReader *r)
{
	while (r->pos < r->len && (r->text[r->pos] == ' ' || r->text[r->pos] == '\t' ||
				   r->text[r->pos] == '\n' || r->text[r->pos] == '\r'))
		r->pos++;
}

static bool header_peek(HeaderReader *r, char c)
{
	header_skip_space(r);
	return r->pos < r->len && r->text[r->pos] == c;
}

static bool header_expect(HeaderReader *r, char c, const char *what)
{
	if (header_peek(r, c)) {
		r->pos++;
		return true;
	}
	if (r->pos >= r->len)
		return header_fail(r, r->pos, "the header ends where %s was expected", what);
	return header_fail(r, r->pos, "expected %s, found '%c'", what, r->text[r->pos]);
}

/* A quoted string without escapes (all a valid header needs); *s points
 * into the header, *n is its length. */
static bool header_string(HeaderReader *r, const char **s, size_t *n)
{
	char quote;
	size_t start;
	header_skip_space(r);
	if (r->pos >= r->len || (r->text[r->pos] != '\'' && r->text[r->pos] != '"'))
		return header_fail(r, r->pos, "expected a quoted string");
	quote = r->text[r->pos++];
	start = r->pos;
	while (r->pos < r->len && r->text[r->pos] != quote) {
		if (r->text[r->pos] == '\\' || r->text[r->pos] == '\n')
			return header_fail(r, r->pos, "unexpected character in a string");
		r->pos++;
	}
	if (r->pos >= r->len)
		return header_fail(r, start - 1, "unterminated string");
	*s = r->text + start;
	*n = r->pos - start;
	r->pos++;
	return true;
}

static bool header_word(HeaderReader *r, const char *word)
{
	size_t n = strlen(word);
	header_skip_space(r);
	if (r->len - r->pos >= n && memcmp(r->text + r->pos, word, n) == 0) {
		r->pos += n;
		return true;
	}
	return false;
}

static bool header_bool(HeaderReader *r, bool *out)
{
	header_skip_space(r);
	if (header_word(r, "True"))
		*out = true;
	else if (header_word(r, "False"))
		*out = false;
	else
		return header_fail(r, r->pos, "expected True or False");
	return true;
}

/* A non-negative integer that fits int64. */
static bool header_int(HeaderReader *r, int64_t *out)
{
	size_t start;
	int64_t v = 0;
	header_skip_space(r);
	start = r->pos;
	if (r->pos < r->len && r->text[r->pos] == '-')
		return header_fail(r, r->pos, "negative dimension in shape");
	while (r->pos < r->len && r->text[r->pos] >= '0' && r->text[r->pos] <= '9') {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, r->text[r->pos] - '0', &v))
			return header_fail(r, start, "dimension too large");
		r->pos++;
	}
	if (r->pos == start)
		return header_fail(r, r->pos, "expected a dimension");
	/* Python 2 wrote long dimensions as 3L */
	if (r->pos < r->len && r->text[r->pos] == 'L')
		r->pos++;
	*out = v;
	return true;
}

/* (d0, d1, ...) with an optional trailing comma; () is a scalar. */
static bool header_shape(HeaderReader *r, int64_t **dims, uint32_t *ndim)
{
	int64_t *d = NULL;
	size_t n = 0, cap = 0;
	if (!header_expect(r, '(', "'(' starting the shape"))
		return false;
	while (!header_peek(r, ')')) {
		int64_t v = 0;
		if (n >= 1024) {
			free(d);
			return header_fail(r, r->pos, "shape has more than 1024 dimensions");
		}
		if (!header_int(r, &v)) {
			free(d);
			return false;
		}
		grow_array((void **)&d, &cap, n + 1, sizeof(int64_t));
		d[n++] = v;
		if (header_peek(r, ','))
			r->pos++;
		else if (!header_peek(r, ')')) {
			free(d);
			return header_expect(r, ')', "',' or ')' in the shape");
		}
	}
	r->pos++;
	*dims = d;
	*ndim = (uint32_t)n;
	return true;
}

typedef struct NpyHeader {
	DType dtype;
	int64_t *shape;
	uint32_t ndim;
} NpyHeader;

static bool header_parse(HeaderReader *r, NpyHeader *h)
{
	bool have_descr = false, have_order = false, have_shape = false, fortran = false;
	size_t descr_at = 0, order_at = 0;
	const char *descr = NULL;
	size_t descr_len = 0;
	h->shape = NULL;
	h->ndim = 0;
	if (!header_expect(r, '{', "'{' starting the header dict"))
		return false;
	while (!header_peek(r, '}')) {
		const char *key;
		size_t klen, key_at;
		header_skip_space(r);
		key_at = r->pos;
		if (!header_string(r, &key, &klen) || !header_expect(r, ':', "':' after a key"))
			goto fail;
		header_skip_space(r);
#define KEY_IS(k) (klen == strlen(k) && memcmp(key, k, klen) == 0)
		if (KEY_IS("descr")) {
			if (have_descr) {
				header_fail(r, key_at, "key 'descr' appears twice");
				goto fail;
			}
			have_descr = true;
			descr_at = r->pos;
			if (!header_string(r, &descr, &descr_len)) {
				if (!r->err || strstr(r->err, "expected a quoted string")) {
					free(r->err);
					r->err = NULL;
					header_fail(r, descr_at,
						    "structured dtypes are not supported: 'descr' "
						    "must be a string such as '<f4'");
				}
				goto fail;
			}
		} else if (KEY_IS("fortran_order")) {
			if (have_order) {
				header_fail(r, key_at, "key 'fortran_order' appears twice");
				goto fail;
			}
			have_order = true;
			order_at = r->pos;
			if (!header_bool(r, &fortran))
				goto fail;
		} else if (KEY_IS("shape")) {
			if (have_shape) {
				header_fail(r, key_at, "key 'shape' appears twice");
				goto fail;
			}
			have_shape = true;
			if (!header_shape(r, &h->shape, &h->ndim))
				goto fail;
		} else {
			header_fail(r, key_at, "unexpected key '%.*s' in the header", (int)klen,
				    key);
			goto fail;
		}
#undef KEY_IS
		if (header_peek(r, ','))
			r->pos++;
		else if (!header_peek(r, '}')) {
			header_expect(r, '}', "',' or '}' after a value");
			goto fail;
		}
	}
	r->pos++;
	header_skip_space(r);
	if (r->pos != r->len) {
		header_fail(r, r->pos, "unexpected text after the header dict");
		goto fail;
	}
	if (!have_descr || !have_order || !have_shape) {
		header_fail(r, 0, "the header lacks the key '%s'",
			    !have_descr   ? "descr"
			    : !have_order ? "fortran_order"
					  : "shape");
		goto fail;
	}
	if (fortran) {
		header_fail(r, order_at,
			    "fortran_order is True: devplan reads C-order arrays only "
			    "(save with np.ascontiguousarray)");
		goto fail;
	}
	for (size_t i = 0; i < DP_COUNT(npy_dtypes); i++) {
		if (strlen(npy_dtypes[i].descr) == descr_len &&
		    memcmp(npy_dtypes[i].descr, descr, descr_len) == 0) {
			h->dtype = npy_dtypes[i].dtype;
			return true;
		}
	}
	if (descr_len >= 2 && descr[0] == '>')
		header_fail(r, descr_at,
			    "unsupported dtype '%.*s': devplan reads little-endian arrays "
			    "(save with arr.astype('<%.*s'))",
			    (int)descr_len, descr, (int)(descr_len - 1), descr + 1);
	else
		header_fail(r, descr_at,
			    "unsupported dtype '%.*s': devplan reads '<f4', '<f8', '<f2', '|i1', "
			    "'|u1', '<i2', '<u2', '<i4', '<u4', '<i8', '<u8' and '|b1'",
			    (int)descr_len, descr);
fail:
	free(h->shape);
	h->shape = NULL;
	return false;
}

/* The prefix (magic, version, header length) of an image whose first len
 * bytes are at hand: where the header starts and how long it is. */
static bool parse_prefix(const char *name, const uint8_t *bytes, size_t len, size_t *header_at,
			 size_t *header_len, char **err)
{
	static const uint8_t magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
	unsigned major;
	if (len < 8 || memcmp(bytes, magic, 6) != 0) {
		*err = xasprintf("%s:1:1: not a NumPy .npy file (no \\x93NUMPY magic)", name);
		return false;
	}
	major = bytes[6];
	if (major == 1) {
		if (len < 10) {
			*err = xasprintf("%s:1:9: the file ends inside the header length", name);
			return false;
		}
		*header_len = (size_t)bytes[8] | (size_t)bytes[9] << 8;
		*header_at = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12) {
			*err = xasprintf("%s:1:9: the file ends inside the header length", name);
			return false;
		}
		*header_len = (size_t)bytes[8] | (size_t)bytes[9] << 8 | (size_t)bytes[10] << 16 |
			      (size_t)bytes[11] << 24;
		*header_at = 12;
	} else {
		*err = xasprintf("%s:1:7: unsupported .npy version %u.%u (devplan reads 1.0, "
				 "2.0 and 3.0)",
				 name, major, bytes[7]);
		return false;
	}
	if (bytes[7] != 0) {
		*err = xasprintf("%s:1:8: unsupported .npy version %u.%u (devplan reads 1.0, "
				 "2.0 and 3.0)",
				 name, major, bytes[7]);
		return false;
	}
	return true;
}

/* The header dict at bytes[header_at, header_at + header_len); then the
 * data size it implies, which must be exactly data_len. */
static bool parse_header_text(const char *name, const uint8_t *bytes, size_t header_at,
			      size_t header_len, size_t data_len, NpyHeader *h, size_t *nbytes,
			      char **err)
{
	HeaderReader r = {.name = name,
			  .text = (const char *)bytes + header_at,
			  .len = header_len,
			  .base = header_at};
	size_t data_at = header_at + header_len;
	int64_t count;
	for (size_t i = 0; i < header_len; i++) {
		unsigned char c = bytes[header_at + i];
		if (c == 0 || c >= 0x80) {
			header_fail(&r, i, "unexpected byte 0x%02x in the header", c);
			*err = r.err;
			return false;
		}
	}
	if (!header_parse(&r, h)) {
		*err = r.err;
		return false;
	}
	if (!checked_bytes(h->dtype, h->ndim, h->shape, &count, nbytes)) {
		*err = xasprintf("%s:1:%zu: the shape's byte size overflows", name, data_at);
		free(h->shape);
		return false;
	}
	if (*nbytes != data_len) {
		*err = xasprintf("%s:1:%zu: the shape needs %zu bytes of %s data but the file has "
				 "%zu",
				 name, data_at + 1, *nbytes, dtype_name(h->dtype), data_len);
		free(h->shape);
		return false;
	}
	return true;
}

/* Allocates out for h and checks bool data once it is there. */
static bool alloc_for(const char *name, NpyHeader *h, NpyArray *out, char **err)
{
	bool ok = npy_array_alloc(out, h->dtype, h->ndim, h->shape, err);
	free(h->shape);
	h->shape = NULL;
	if (!ok) {
		char *inner = *err;
		*err = xasprintf("%s: %s", name, inner);
		free(inner);
	}
	return ok;
}

static bool check_bools(const char *name, const NpyArray *a, size_t data_at, char **err)
{
	const uint8_t *p = a->data;
	if (a->dtype != DT_BOOL)
		return true;
	for (size_t i = 0; i < a->nbytes; i++)
		if (p[i] > 1) {
			*err = xasprintf("%s:1:%zu: bool element %zu is %u, not 0 or 1", name,
					 data_at + i + 1, i, p[i]);
			return false;
		}
	return true;
}

bool npy_parse(const char *name, const uint8_t *bytes, size_t len, NpyArray *out, char **err)
{
	size_t header_at, header_len, data_at, nbytes;
	NpyHeader h;
	memset(out, 0, sizeof *out);
	if (!parse_prefix(name, bytes, len, &header_at, &header_len, err))
		return false;
	if (header_len > len - header_at) {
		*err = xasprintf("%s:1:%zu: the header says %zu bytes but the file has only %zu "
				 "after it",
				 name, header_at - 1, header_len, len - header_at);
		return false;
	}
	data_at = header_at + header_len;
	if (!parse_header_text(name, bytes, header_at, header_len, len - data_at, &h, &nbytes,
			       err) ||
	    !alloc_for(name, &h, out, err))
		return false;
	if (nbytes)
		memcpy(out->data, bytes + data_at, nbytes);
	if (!check_bools(name, out, data_at, err)) {
		npy_array_free(out);
		return false;
	}
	return true;
}

/* Reads the prefix and header, then the data straight into the array, so
 * that a large input is in memory once. */
bool npy_read(const char *path, NpyArray *out, char **err)
{
	FILE *f = file_fopen_read(path, err);
	uint8_t prefix[12], *head = NULL;
	size_t got, header_at, header_len, data_at, nbytes;
	long size;
	NpyHeader h;
	bool ok = false;
	memset(out, 0, sizeof *out);
	if (!f)
		return false;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		*err = xasprintf("cannot read '%s': not a regular file", path);
		goto done;
	}
	got = fread(prefix, 1, sizeof prefix < (size_t)size ? sizeof prefix : (size_t)size, f);
	if (!parse_prefix(path, prefix, got, &header_at, &header_len, err))
		goto done;
	if (header_len > (size_t)size - header_at) {
		*err = xasprintf("%s:1:%zu: the header says %zu bytes but the file has only %zu "
				 "after it",
				 path, header_at - 1, header_len, (size_t)size - header_at);
		goto done;
	}
	data_at = header_at + header_len;
	head = xmalloc(data_at);
	if (fseek(f, 0, SEEK_SET) != 0 || fread(head, 1, data_at, f) != data_at) {
		*err = xasprintf("cannot read '%s': %s", path, strerror(errno));
		goto done;
	}
	if (!parse_header_text(path, head, header_at, header_len, (size_t)size - data_at, &h,
			       &nbytes, err) ||
	    !alloc_for(path, &h, out, err))
		goto done;
	if (fread(out->data, 1, nbytes, f) != nbytes) {
		*err = xasprintf("cannot read '%s': %s", path,
				 ferror(f) ? strerror(errno) : "the file shrank while reading");
		npy_array_free(out);
		goto done;
	}
	if (!check_bools(path, out, data_at, err)) {
		npy_array_free(out);
		goto done;
	}
	ok = true;
done:
	free(head);
	fclose(f);
	return ok;
}

/* The magic, version, header length and header of a's .npy image: the
 * bytes before its data (*len of them; the caller frees). */
static uint8_t *npy_encode_header(const NpyArray *a, size_t *len)
{
	StrBuf h;
	size_t prefix, pad;
	uint8_t *out;
	bool v2;
	strbuf_init(&h);
	strbuf_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (",
		      npy_descr(a->dtype));
	for (uint32_t i = 0; i < a->ndim; i++)
		strbuf_printf(&h, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
	strbuf_puts(&h, a->ndim == 1 ? ",), }" : "), }");
	v2 = h.len + 1 + 10 > 65535;
	prefix = v2 ? 12 : 10;
	pad = (64 - (prefix + h.len + 1) % 64) % 64;
	for (size_t i = 0; i < pad; i++)
		strbuf_putc(&h, ' ');
	strbuf_putc(&h, '\n');
	out = xmalloc(prefix + h.len);
	memcpy(out, "\x93NUMPY", 6);
	out[6] = v2 ? 2 : 1;
	out[7] = 0;
	if (v2) {
		out[8] = (uint8_t)h.len;
		out[9] = (uint8_t)(h.len >> 8);
		out[10] = (uint8_t)(h.len >> 16);
		out[11] = (uint8_t)(h.len >> 24);
	} else {
		out[8] = (uint8_t)h.len;
		out[9] = (uint8_t)(h.len >> 8);
	}
	memcpy(out + prefix, h.data, h.len);
	*len = prefix + h.len;
	strbuf_free(&h);
	return out;
}

uint8_t *npy_encode(const NpyArray *a, size_t *len)
{
	size_t head;
	uint8_t *out = npy_encode_header(a, &head);
	out = xrealloc(out, head + a->nbytes + (a->nbytes == 0));
	if (a->nbytes)
		memcpy(out + head, a->data, a->nbytes);
	*len = head + a->nbytes;
	return out;
}

bool npy_write(const char *path, const NpyArray *a, char **err)
{
	size_t len;
	uint8_t *head;
	FileWriter *f = file_begin(path, err);
	bool ok;
	if (!f)
		return false;
	/* the header, then the data where it lies: no copy of a large tensor */
	head = npy_encode_header(a, &len);
	ok = file_write(f, head, len, err) && file_write(f, a->data, a->nbytes, err);
	free(head);
	if (!ok) {
		file_abort(f);
		return false;
	}
	return file_commit(f, err);
}

/* ---- half precision -------------------------------------------------------- */

float npy_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
	float f;
	if (exp == 0x1f) {
		bits = sign | 0x7f800000u | (man << 13);
	} else if (exp == 0) {
		if (man == 0) {
			bits = sign;
		} else {
			/* subnormal: renormalise */
			int e = -1;
			do {
				e++;
				man <<= 1;
			} while (!(man & 0x400));
			bits = sign | (uint32_t)(127 - 15 - e) << 23 | (man & 0x3ff) << 13;
		}
	} else {
		bits = sign | (exp + 127 - 15) << 23 | man << 13;
	}
	memcpy(&f, &bits, sizeof f);
	return f;
}

uint16_t npy_float_to_half(float f)
{
	uint32_t x, sign, man;
	int32_t exp;
	memcpy(&x, &f, sizeof x);
	sign = (x >> 16) & 0x8000;
	exp = (int32_t)((x >> 23) & 0xff);
	man = x & 0x7fffff;
	if (exp == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
	exp = exp - 127 + 15;
	if (exp >= 0x1f)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {
		uint32_t shift, half, rest;
		if (exp < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		shift = (uint32_t)(14 - exp);
		half = man >> shift;
		rest = man & ((1u << shift) - 1);
		if (rest > (1u << (shift - 1)) || (rest == (1u << (shift - 1)) && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	{
		uint32_t h = sign | (uint32_t)exp << 10 | (man >> 13);
		uint32_t rest = man & 0x1fff;
		if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
			h++; /* may carry into the exponent, which rounds correctly */
		return (uint16_t)h;
	}
}

/* bfloat16 is float32's top half: widening is exact, narrowing rounds to
 * nearest even and keeps a NaN a NaN. */
float npy_bfloat16_to_float(uint16_t b)
{
	uint32_t bits = (uint32_t)b << 16;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

uint16_t npy_float_to_bfloat16(float f)
{
	uint32_t x;
	memcpy(&x, &f, sizeof x);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40);
	x += 0x7fffu + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

/* ---- random tensors -------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

bool npy_random(NpyArray *out, DType dtype, uint32_t ndim, const int64_t *shape, uint64_t seed,
		char **err)
{
	uint64_t state = seed;
	int64_t n;
	if (!npy_array_alloc(out, dtype, ndim, shape, err))
		return false;
	n = npy_array_count(out);
	switch (dtype) {
	case DT_FLOAT32: /* the same sequence, on the cpu kernels' threads */
		random_uniform_f32(out->data, n, seed);
		break;
	case DT_FLOAT16: {
		uint16_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = npy_float_to_half((float)(splitmix64(&state) >> 40) * 0x1p-23f -
						 1.0f);
		break;
	}
	case DT_FLOAT64: {
		double *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (double)(splitmix64(&state) >> 11) * 0x1p-52 - 1.0;
		break;
	}
	case DT_INT32: {
		int32_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (int32_t)(splitmix64(&state) >> 60) - 8;
		break;
	}
	case DT_INT64: {
		int64_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (int64_t)(splitmix64(&state) >> 60) - 8;
		break;
	}
	case DT_BFLOAT16: {
		uint16_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = npy_float_to_bfloat16((float)(splitmix64(&state) >> 40) * 0x1p-23f -
						     1.0f);
		break;
	}
	case DT_INT8: {
		int8_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (int8_t)((int)(splitmix64(&state) >> 60) - 8);
		break;
	}
	case DT_INT16: {
		int16_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (int16_t)((int)(splitmix64(&state) >> 60) - 8);
		break;
	}
	case DT_UINT8: {
		uint8_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (uint8_t)(splitmix64(&state) >> 60);
		break;
	}
	case DT_UINT16: {
		uint16_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (uint16_t)(splitmix64(&state) >> 60);
		break;
	}
	case DT_UINT32: {
		uint32_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (uint32_t)(splitmix64(&state) >> 60);
		break;
	}
	case DT_UINT64: {
		uint64_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = splitmix64(&state);
		break;
	}
	case DT_BOOL: {
		uint8_t *p = out->data;
		for (int64_t i = 0; i < n; i++)
			p[i] = (uint8_t)(splitmix64(&state) >> 63);
		break;
	}
	case DT_COUNT:
		DP_ASSERT(!"dtype");
	}
	return true;
}
