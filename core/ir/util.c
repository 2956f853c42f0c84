/*
 * util.c - the allocators that never return NULL (oom.h: what they do
 * instead), the assertion hook and StrBuf.
 */
#include "util.h"

#include "oom.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dp_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "devplan: internal error: %s:%d: %s: assertion '%s' failed\n", file, line,
		func, cond);
	abort();
}

static DP_NORETURN void out_of_memory(size_t size)
{
	oom_fail(size);
}

void *xmalloc(size_t size)
{
	void *p = oom_inject() ? NULL : malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = oom_inject() ? NULL : calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = oom_inject() ? NULL : realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	StrBuf sb;
	va_list ap;
	strbuf_init(&sb);
	va_start(ap, fmt);
	strbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void grow_array_slow(void **items, size_t *cap, size_t need, size_t elem_size)
{
	size_t n = *cap ? *cap : 8;
	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / elem_size)
		out_of_memory(SIZE_MAX);
	*items = xrealloc(*items, n * elem_size);
	*cap = n;
}

void strbuf_init(StrBuf *sb)
{
	sb->data = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void strbuf_free(StrBuf *sb)
{
	free(sb->data);
	strbuf_init(sb);
}

void strbuf_reset(StrBuf *sb)
{
	sb->len = 0;
	if (sb->data)
		sb->data[0] = '\0';
}

void strbuf_reserve(StrBuf *sb, size_t extra)
{
	if (sb->len + extra + 1 > sb->cap)
		grow_array((void **)&sb->data, &sb->cap, sb->len + extra + 1, 1);
}

void strbuf_append(StrBuf *sb, const char *data, size_t len)
{
	strbuf_reserve(sb, len);
	memcpy(sb->data + sb->len, data, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

void strbuf_puts(StrBuf *sb, const char *s)
{
	strbuf_append(sb, s, strlen(s));
}

void strbuf_putc(StrBuf *sb, char c)
{
	strbuf_append(sb, &c, 1);
}

void strbuf_vprintf(StrBuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	size_t room;
	int n;
	/* format straight into the free space; only when it does not fit,
	 * grow and format again */
	strbuf_reserve(sb, 64);
	room = sb->cap - sb->len;
	va_copy(copy, ap);
	n = vsnprintf(sb->data + sb->len, room, fmt, copy);
	va_end(copy);
	DP_ASSERT(n >= 0);
	if ((size_t)n >= room) {
		strbuf_reserve(sb, (size_t)n);
		vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_put_int(StrBuf *sb, long long v)
{
	char digits[24];
	size_t n = 0;
	/* negate as unsigned: LLONG_MIN has no positive counterpart */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do {
		digits[sizeof digits - ++n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		digits[sizeof digits - ++n] = '-';
	strbuf_append(sb, digits + sizeof digits - n, n);
}

void strbuf_printf(StrBuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *strbuf_detach(StrBuf *sb)
{
	char *p = sb->data ? sb->data : xstrdup("");
	strbuf_init(sb);
	return p;
}

uint64_t hash_bytes(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* Each word is mixed in with a multiply and a shift (as in the murmur3
 * finaliser), the tail likewise, and the length too, so that a key and the
 * same key with trailing zero bytes differ. */
uint64_t hash_words(const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
	uint64_t w;
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static const char *name_at(const void *first_name, size_t i, size_t stride)
{
	return *(const char *const *)((const char *)first_name + i * stride);
}

int prefix_match(const char *word, const void *first_name, size_t count, size_t stride)
{
	size_t len = strlen(word);
	int found = PREFIX_NONE;
	for (size_t i = 0; i < count; i++)
		if (strcmp(name_at(first_name, i, stride), word) == 0)
			return (int)i;
	if (len == 0)
		return PREFIX_NONE;
	for (size_t i = 0; i < count; i++) {
		if (strncmp(name_at(first_name, i, stride), word, len) != 0)
			continue;
		if (found != PREFIX_NONE)
			return PREFIX_AMBIGUOUS;
		found = (int)i;
	}
	return found;
}

size_t prefix_candidates(StrBuf *out, const char *word, const void *first_name, size_t count,
			 size_t stride)
{
	size_t len = strlen(word), n = 0;
	for (size_t i = 0; i < count; i++) {
		const char *name = name_at(first_name, i, stride);
		if (strncmp(name, word, len) == 0)
			strbuf_printf(out, "%s%s", n++ ? ", " : "", name);
	}
	return n;
}

/* ---- did you mean ---- */

static int fold_case(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Three rows of the dynamic programme, since a transposition looks two
 * back; a row whose smallest entry passes limit ends the search. */
size_t edit_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), result;
	size_t *rows, *prev2, *prev, *cur;
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	rows = xmalloc(3 * (lb + 1) * sizeof(size_t));
	prev2 = rows;
	prev = rows + lb + 1;
	cur = rows + 2 * (lb + 1);
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t row_min;
		cur[0] = row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = fold_case((unsigned char)a[i - 1]);
			int cb = fold_case((unsigned char)b[j - 1]);
			size_t d = prev[j - 1] + (ca != cb);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == fold_case((unsigned char)b[j - 2]) &&
			    cb == fold_case((unsigned char)a[i - 2]) && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < row_min)
				row_min = d;
		}
		if (row_min > limit) {
			free(rows);
			return limit + 1;
		}
		{
			size_t *t = prev2;
			prev2 = prev;
			prev = cur;
			cur = t;
		}
	}
	result = prev[lb] > limit ? limit + 1 : prev[lb];
	free(rows);
	return result;
}

void suggest_init(Suggestions *s, const char *word)
{
	size_t len = strlen(word);
	memset(s, 0, sizeof *s);
	s->word = xstrdup(word);
	if (word[0] == '%' || word[0] == '@')
		len--;
	s->limit = len < 2 ? 0 : (len + 1) / 3 > 3 ? 3 : (len + 1) / 3;
	s->best = s->limit + 1;
}

void suggest_consider(Suggestions *s, const char *name)
{
	size_t d;
	if (s->limit == 0 || strcmp(name, s->word) == 0)
		return;
	d = edit_distance(s->word, name, s->best < s->limit ? s->best : s->limit);
	if (d > s->limit || d > s->best)
		return;
	if (d < s->best) {
		for (size_t i = 0; i < s->count && i < SUGGEST_SHOWN; i++)
			free(s->names[i]);
		s->best = d;
		s->count = 0;
	}
	for (size_t i = 0; i < s->count && i < SUGGEST_SHOWN; i++)
		if (strcmp(s->names[i], name) == 0)
			return;
	if (s->count < SUGGEST_SHOWN)
		s->names[s->count] = xstrdup(name);
	s->count++;
}

bool suggest_finish(Suggestions *s, StrBuf *out)
{
	size_t shown = s->count < SUGGEST_SHOWN ? s->count : SUGGEST_SHOWN;
	for (size_t i = 0; i < shown; i++) {
		strbuf_puts(out, i == 0 ? "; did you mean " : i + 1 == shown ? " or " : ", ");
		strbuf_printf(out, "'%s'", s->names[i]);
	}
	if (shown)
		strbuf_putc(out, '?');
	for (size_t i = 0; i < shown; i++)
		free(s->names[i]);
	free(s->word);
	memset(s, 0, sizeof *s);
	return shown > 0;
}

bool parse_byte_size(const char *s, uint64_t *out, const char **why)
{
	static const char suffixes[] = "KMGT";
	const char *suffix;
	char *end;
	unsigned long long v;
	unsigned shift = 0;
	if (!s || !(*s >= '0' && *s <= '9')) {
		*why = "not a number of bytes";
		return false;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno) {
		*why = "too large";
		return false;
	}
	if (*end && (suffix = strchr(suffixes, *end & ~0x20)) != NULL) {
		shift = 10 * (unsigned)(suffix - suffixes + 1);
		end++;
	}
	if (*end) {
		*why = "not a number of bytes with an optional K, M, G or T suffix";
		return false;
	}
	if (v == 0) {
		*why = "must be more than 0";
		return false;
	}
	if (v > (UINT64_MAX >> shift)) {
		*why = "too large";
		return false;
	}
	*out = (uint64_t)v << shift;
	return true;
}

void format_byte_size(StrBuf *out, uint64_t bytes)
{
	static const char suffixes[] = "TGMK";
	for (unsigned i = 0; i < 4; i++) {
		unsigned shift = 10 * (4 - i);
		if (bytes && (bytes & ((UINT64_C(1) << shift) - 1)) == 0) {
			strbuf_printf(out, "%llu%c", (unsigned long long)(bytes >> shift),
				      suffixes[i]);
			return;
		}
	}
	strbuf_printf(out, "%llu", (unsigned long long)bytes);
}

void format_bytes(StrBuf *out, double bytes)
{
	static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	size_t u = 0;
	while (bytes >= 1024 && u + 1 < DP_COUNT(units)) {
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		strbuf_printf(out, "%.0f bytes", bytes);
	else
		strbuf_printf(out, "%.1f %s", bytes, units[u]);
}

void format_bytes_short(char *buf, size_t size, double bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	size_t u = 0;
	while (bytes >= 1024 && u + 1 < DP_COUNT(units)) {
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%.0f B", bytes);
	else
		snprintf(buf, size, "%.1f %s", bytes, units[u]);
}
