/*
 * util.h - allocation that cannot fail, assertions, and a growable string.
 *
 * Every allocation in devplan goes through xmalloc and friends: they never
 * return NULL, so call sites never check (the Redis rule); on exhaustion
 * the command in progress is abandoned (oom.h), or devplan stops with a
 * message where no command is. DP_ASSERT guards internal invariants and prints where it
 * failed; it stays on in release builds because a wrong placement is worse
 * than a stopped debugger. StrBuf is the one growable byte buffer used by the
 * printer, diagnostics and commands; its owner frees it with strbuf_free.
 * prefix_match is the one rule by which a typed word names an entry of a
 * table (commands, phases, settings, choices), and Suggestions the one
 * "did you mean" for a word that names none.
 */
#ifndef DEVPLAN_UTIL_H
#define DEVPLAN_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define DP_ASSERT(cond) ((cond) ? (void)0 : dp_assert_fail(#cond, __FILE__, __LINE__, __func__))

#define DP_COUNT(array) (sizeof(array) / sizeof((array)[0]))

#if defined(__GNUC__)
#define DP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define DP_NORETURN __attribute__((noreturn))
#else
#define DP_PRINTF(fmt, args)
#define DP_NORETURN
#endif

DP_NORETURN void dp_assert_fail(const char *cond, const char *file, int line, const char *func);

/* The caller owns what these return and releases it with free(). */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) DP_PRINTF(1, 2);

/* Grows *items (of *cap elements of elem_size bytes) to hold at least need,
 * doubling; grow_array_slow does the growing when *cap is short. */
void grow_array_slow(void **items, size_t *cap, size_t need, size_t elem_size);
static inline void grow_array(void **items, size_t *cap, size_t need, size_t elem_size)
{
	/* inline: called once per element on the planner's hottest paths */
	if (need > *cap)
		grow_array_slow(items, cap, need, elem_size);
}

/* A growable, always NUL-terminated byte buffer owned by whoever holds it. */
typedef struct StrBuf {
	char *data;
	size_t len;
	size_t cap;
} StrBuf;

void strbuf_init(StrBuf *sb);
/* Makes room for extra more bytes (and the terminating NUL) now, so that
 * appends that fit need no allocation. */
void strbuf_reserve(StrBuf *sb, size_t extra);
void strbuf_free(StrBuf *sb);
void strbuf_reset(StrBuf *sb);
void strbuf_append(StrBuf *sb, const char *data, size_t len);
void strbuf_puts(StrBuf *sb, const char *s);
void strbuf_putc(StrBuf *sb, char c);
/* Appends v in decimal, as "%lld" would, without the cost of a format. */
void strbuf_put_int(StrBuf *sb, long long v);
void strbuf_printf(StrBuf *sb, const char *fmt, ...) DP_PRINTF(2, 3);
void strbuf_vprintf(StrBuf *sb, const char *fmt, va_list ap);
/* Hands the buffer to the caller (free() it) and leaves sb empty. */
char *strbuf_detach(StrBuf *sb);

/* FNV-1a over n bytes: the hash of devplan's string tables, and the
 * checksum `run` prints (fnv1a64). */
uint64_t hash_bytes(const void *data, size_t n);
/* A hash for long keys (lines of a diff), eight bytes a step; not FNV and
 * not stable across byte orders: never print it. */
uint64_t hash_words(const void *data, size_t n);

/*
 * Names in tables, the sqlite3 shell's rule: a word names the entry whose
 * name it equals, else the one entry whose name it is a non-empty prefix of.
 * A table is `count` entries of `stride` bytes; `first_name` points to the
 * `const char *` name field of entry 0 (for a plain array of names, the
 * array itself and sizeof(char *)).
 */
enum { PREFIX_NONE = -1, PREFIX_AMBIGUOUS = -2 };
/* The index of the entry `word` names; PREFIX_NONE when it names none,
 * PREFIX_AMBIGUOUS when it is a prefix of several names and equals none. */
int prefix_match(const char *word, const void *first_name, size_t count, size_t stride);
/* Appends the names that start with `word`, in table order, separated by
 * ", "; returns how many. */
size_t prefix_candidates(StrBuf *out, const char *word, const void *first_name, size_t count,
			 size_t stride);

/*
 * "Did you mean": the names nearest a word that names nothing, as git and
 * cargo suggest them. The distance is the optimal string alignment
 * distance, ignoring case: inserting, deleting or changing one letter, or
 * swapping two neighbours (`plna`), costs 1. A word of n letters (a
 * leading `%` or `@` not counted) takes names at most (n + 1) / 3 away, 1
 * to 3, and a one-letter word none, so that `x` suggests nothing; the
 * names at the smallest distance are kept, the first SUGGEST_SHOWN in the
 * order they were considered.
 */
enum { SUGGEST_SHOWN = 3 };
typedef struct Suggestions {
	char *word;                 /* what was typed (owned copy) */
	size_t limit;               /* the farthest a name may be */
	size_t best;                /* the distance of the names kept */
	size_t count;               /* how many names are at that distance */
	char *names[SUGGEST_SHOWN]; /* the first of them (owned copies) */
} Suggestions;
/* The distance between a and b, ignoring ASCII case; limit + 1 as soon as
 * it is known to exceed limit. */
size_t edit_distance(const char *a, const char *b, size_t limit);
void suggest_init(Suggestions *s, const char *word);
/* Considers one more name (copied when kept); the same name twice counts
 * once. */
void suggest_consider(Suggestions *s, const char *name);
/* Appends `; did you mean 'a'?` (`'a' or 'b'`, `'a', 'b' or 'c'`), or
 * nothing when no name was near, and frees s. Returns whether it said
 * anything. */
bool suggest_finish(Suggestions *s, StrBuf *out);

/* A size in bytes as a user writes it: a positive whole number with an
 * optional K, M, G or T suffix (powers of 1024, either case) and nothing
 * else. False with *why (a static string) for anything else. */
bool parse_byte_size(const char *s, uint64_t *out, const char **why);
/* The inverse for `show`: "4G", "512M", "1536K" or plain bytes, the
 * largest suffix that divides the size. */
void format_byte_size(StrBuf *out, uint64_t bytes);
/* A size for a message: "3.8 MiB", "512 bytes" (one decimal past bytes). */
void format_bytes(StrBuf *out, double bytes);
/* The short form into buf: "420 B", "1.5 KiB", "2.0 GiB" (powers of
 * 1024), which the run's messages and tables use. */
void format_bytes_short(char *buf, size_t size, double bytes);

#endif
