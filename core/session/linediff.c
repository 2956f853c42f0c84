/*
 * linediff.c - Myers' line diff and the unified format.
 *
 * Lines are split once and hashed, so comparing two lines is one integer
 * comparison in the common case. compare_lines trims the common prefix and
 * suffix, finds the middle snake of what is left (the furthest-reaching
 * forward and backward paths meeting on one diagonal, Myers 1986 §4b) and
 * recurses on both halves; it marks each deleted line of a and inserted
 * line of b. The recursion halves the edit distance at each level, so its
 * depth stays logarithmic. When the search passes `too_expensive` edit
 * steps it settles, like GNU diff, for the furthest point reached, which
 * bounds the time on inputs that share little.
 *
 * Before the search, lines that occur nowhere in the other text are marked
 * changed and left out (GNU diff's discard_confusing_lines, in its simple
 * form): they are changes under any alignment, and a module whose planning
 * touched every eighth line leaves the search nothing but equal lines.
 *
 * The edit script then becomes hunks: runs of changes closer than twice the
 * context are merged, and each hunk shows `context` equal lines around.
 */
#include "linediff.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Line {
	const char *text;
	size_t len; /* without the newline */
	uint64_t hash;
} Line;

typedef struct Lines {
	Line *items;
	long count;
} Lines;

typedef struct Differ {
	const Line *a, *b;
	uint8_t *deleted;  /* per line of a */
	uint8_t *inserted; /* per line of b */
	long *fd, *bd;     /* furthest x per diagonal, offset so that any
			      diagonal -(m+1) .. n+1 is a valid index */
	long too_expensive;
} Differ;

static void split_lines(Lines *out, const char *text, size_t len)
{
	size_t cap = 0, start = 0;
	out->items = NULL;
	out->count = 0;
	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		Line *l;
		grow_array((void **)&out->items, &cap, (size_t)out->count + 1, sizeof(Line));
		l = &out->items[out->count++];
		l->text = text + start;
		l->len = end - start;
		l->hash = hash_words(l->text, l->len);
		start = end + 1;
	}
}

static bool lines_equal(const Line *x, const Line *y)
{
	return x->hash == y->hash && x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
}

/* Finds a point (*xmid, *ymid) on an optimal (or, past too_expensive, a
 * good) path through a[xoff..xlim) x b[yoff..ylim), whose ends differ. */
static void middle_snake(Differ *df, long xoff, long xlim, long yoff, long ylim, long *xmid,
			 long *ymid)
{
	long *fd = df->fd, *bd = df->bd;
	const long dmin = xoff - ylim, dmax = xlim - yoff;
	const long fmid = xoff - yoff, bmid = xlim - ylim;
	long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	const int odd = (fmid - bmid) & 1;
	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (long cost = 1;; cost++) {
		long d;
		/* one more edit step forward on every diagonal */
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			++fmin;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			--fmax;
		for (d = fmax; d >= fmin; d -= 2) {
			long tlo = fd[d - 1], thi = fd[d + 1];
			long x = tlo >= thi ? tlo + 1 : thi, y = x - d;
			while (x < xlim && y < ylim && lines_equal(&df->a[x], &df->b[y]))
				x++, y++;
			fd[d] = x;
			if (odd && bmin <= d && d <= bmax && bd[d] <= x) {
				*xmid = x;
				*ymid = y;
				return;
			}
		}
		/* and backward */
		if (bmin > dmin)
			bd[--bmin - 1] = LONG_MAX;
		else
			++bmin;
		if (bmax < dmax)
			bd[++bmax + 1] = LONG_MAX;
		else
			--bmax;
		for (d = bmax; d >= bmin; d -= 2) {
			long tlo = bd[d - 1], thi = bd[d + 1];
			long x = tlo < thi ? tlo : thi - 1, y = x - d;
			while (x > xoff && y > yoff && lines_equal(&df->a[x - 1], &df->b[y - 1]))
				x--, y--;
			bd[d] = x;
			if (!odd && fmin <= d && d <= fmax && x <= fd[d]) {
				*xmid = x;
				*ymid = y;
				return;
			}
		}
		if (cost < df->too_expensive)
			continue;
		{
			/* Too costly: split at the forward point with the
			 * largest x + y or the backward one with the smallest,
			 * whichever got further. */
			long fbest = -1, fx = xoff, bbest = LONG_MAX, bx = xlim;
			for (d = fmax; d >= fmin; d -= 2) {
				long x = fd[d] < xlim ? fd[d] : xlim, y = x - d;
				if (y > ylim) {
					x = ylim + d;
					y = ylim;
				}
				if (x + y > fbest) {
					fbest = x + y;
					fx = x;
				}
			}
			for (d = bmax; d >= bmin; d -= 2) {
				long x = bd[d] > xoff ? bd[d] : xoff, y = x - d;
				if (y < yoff) {
					x = yoff + d;
					y = yoff;
				}
				if (x + y < bbest) {
					bbest = x + y;
					bx = x;
				}
			}
			if ((xlim + ylim) - bbest < fbest - (xoff + yoff)) {
				*xmid = fx;
				*ymid = fbest - fx;
			} else {
				*xmid = bx;
				*ymid = bbest - bx;
			}
			return;
		}
	}
}

static void compare_lines(Differ *df, long xoff, long xlim, long yoff, long ylim)
{
	long xmid, ymid;
	while (xoff < xlim && yoff < ylim && lines_equal(&df->a[xoff], &df->b[yoff]))
		xoff++, yoff++;
	while (xlim > xoff && ylim > yoff && lines_equal(&df->a[xlim - 1], &df->b[ylim - 1]))
		xlim--, ylim--;
	if (xoff == xlim) {
		for (long y = yoff; y < ylim; y++)
			df->inserted[y] = 1;
		return;
	}
	if (yoff == ylim) {
		for (long x = xoff; x < xlim; x++)
			df->deleted[x] = 1;
		return;
	}
	middle_snake(df, xoff, xlim, yoff, ylim, &xmid, &ymid);
	/* a cut-off split at a corner would not make progress */
	if ((xmid == xoff && ymid == yoff) || (xmid == xlim && ymid == ylim)) {
		for (long x = xoff; x < xlim; x++)
			df->deleted[x] = 1;
		for (long y = yoff; y < ylim; y++)
			df->inserted[y] = 1;
		return;
	}
	compare_lines(df, xoff, xmid, yoff, ymid);
	compare_lines(df, xmid, xlim, ymid, ylim);
}

/* The hashes of a text's lines: open addressing, 0 marking a free slot. */
typedef struct HashSet {
	uint64_t *slots;
	size_t mask;
} HashSet;

static uint64_t hashset_key(uint64_t hash)
{
	return hash ? hash : 1;
}

static void hashset_build(HashSet *set, const Lines *lines)
{
	size_t cap = 16;
	while (cap < 2 * (size_t)lines->count)
		cap <<= 1;
	set->slots = xcalloc(cap, sizeof(uint64_t));
	set->mask = cap - 1;
	for (long i = 0; i < lines->count; i++) {
		uint64_t key = hashset_key(lines->items[i].hash);
		size_t at = (size_t)key & set->mask;
		while (set->slots[at] && set->slots[at] != key)
			at = (at + 1) & set->mask;
		set->slots[at] = key;
	}
}

/* False only when no line of the set's text hashes to hash (and so none
 * is equal to a line with that hash). */
static bool hashset_may_have(const HashSet *set, uint64_t hash)
{
	uint64_t key = hashset_key(hash);
	for (size_t at = (size_t)key & set->mask; set->slots[at]; at = (at + 1) & set->mask)
		if (set->slots[at] == key)
			return true;
	return false;
}

/* Copies to kept the lines of from that may occur in other, with their
 * index in origin, and marks the others in changed; returns how many were
 * kept. */
static long keep_matchable(const Lines *from, const Lines *other, uint8_t *changed, Line *kept,
			   long *origin)
{
	HashSet set;
	long n = 0;
	hashset_build(&set, other);
	for (long i = 0; i < from->count; i++) {
		if (hashset_may_have(&set, from->items[i].hash)) {
			kept[n] = from->items[i];
			origin[n++] = i;
		} else {
			changed[i] = 1;
		}
	}
	free(set.slots);
	return n;
}

/* Runs the search on a[0, n) and b[0, m), marking df->deleted and
 * df->inserted. */
static void diff_search(Differ *df, long n, long m)
{
	long diags = n + m + 3;
	long *diag_space = xmalloc(2 * (size_t)diags * sizeof(long));
	df->fd = diag_space + m + 1;
	df->bd = diag_space + diags + m + 1;
	/* about the square root of the input size, as GNU diff does */
	df->too_expensive = 1;
	for (long k = diags; k != 0; k >>= 2)
		df->too_expensive <<= 1;
	if (df->too_expensive < 256)
		df->too_expensive = 256;
	compare_lines(df, 0, n, 0, m);
	free(diag_space);
}

/* Marks deleted lines of a and inserted lines of b. */
static void diff_lines(const Lines *a, const Lines *b, uint8_t *deleted, uint8_t *inserted)
{
	Line *ka = xmalloc(((size_t)a->count + 1) * sizeof(Line));
	Line *kb = xmalloc(((size_t)b->count + 1) * sizeof(Line));
	long *oa = xmalloc(((size_t)a->count + 1) * sizeof(long));
	long *ob = xmalloc(((size_t)b->count + 1) * sizeof(long));
	long n = keep_matchable(a, b, deleted, ka, oa);
	long m = keep_matchable(b, a, inserted, kb, ob);
	Differ df;
	memset(&df, 0, sizeof df);
	df.a = ka;
	df.b = kb;
	df.deleted = xcalloc((size_t)n + 1, 1);
	df.inserted = xcalloc((size_t)m + 1, 1);
	diff_search(&df, n, m);
	for (long i = 0; i < n; i++)
		deleted[oa[i]] |= df.deleted[i];
	for (long i = 0; i < m; i++)
		inserted[ob[i]] |= df.inserted[i];
	free(df.deleted);
	free(df.inserted);
	free(ka);
	free(kb);
	free(oa);
	free(ob);
}

/* One step of the edit script. */
typedef enum EditKind { EDIT_SAME, EDIT_DELETE, EDIT_INSERT } EditKind;

typedef struct Edit {
	EditKind kind;
	long x, y; /* line of a (same, delete) and of b (same, insert) */
} Edit;

static void print_range(StrBuf *out, long start, long count)
{
	/* an empty range names the line before it, as diff -u does */
	if (count == 1)
		strbuf_printf(out, "%ld", start + 1);
	else
		strbuf_printf(out, "%ld,%ld", count ? start + 1 : start, count);
}

static void print_line(StrBuf *out, char mark, const Line *l)
{
	strbuf_putc(out, mark);
	strbuf_append(out, l->text, l->len);
	strbuf_putc(out, '\n');
}

/* The unified diff of the lines la and lb (compared), printed as sa and
 * sb show them (the same lines, or NULL: as compared); see
 * linediff_unified_keyed for what a shown form changes. */
static size_t unified(StrBuf *out, const Lines *la, const Lines *lb, const Lines *sa,
		      const Lines *sb, const char *label_a, const char *label_b, unsigned context)
{
	uint8_t *deleted, *inserted;
	Edit *edits;
	size_t nedits = 0, hunks = 0;
	long n = la->count, m = lb->count, x = 0, y = 0;
	deleted = xcalloc((size_t)n + 1, 1);
	inserted = xcalloc((size_t)m + 1, 1);
	diff_lines(la, lb, deleted, inserted);
	if (sa && sb) {
		/* equal keys: changed when a shows a device that b does not */
		long i = 0, j = 0;
		while (i < n || j < m) {
			if (i < n && deleted[i]) {
				i++;
			} else if (j < m && inserted[j]) {
				j++;
			} else {
				const Line *ka = &la->items[i], *va = &sa->items[i],
					   *vb = &sb->items[j];
				bool a_plain = ka->len == va->len;
				if (!a_plain && !lines_equal(va, vb))
					deleted[i] = inserted[j] = 1;
				i++;
				j++;
			}
		}
	} else {
		sa = la;
		sb = lb;
	}

	edits = xmalloc(((size_t)n + (size_t)m + 1) * sizeof(Edit));
	while (x < n || y < m) {
		if (x < n && deleted[x])
			edits[nedits++] = (Edit){EDIT_DELETE, x++, y};
		else if (y < m && inserted[y])
			edits[nedits++] = (Edit){EDIT_INSERT, x, y++};
		else
			edits[nedits++] = (Edit){EDIT_SAME, x++, y++};
	}
	for (size_t i = 0; i < nedits;) {
		size_t first, last, start, end;
		long acount = 0, bcount = 0;
		if (edits[i].kind == EDIT_SAME) {
			i++;
			continue;
		}
		/* the changes of this hunk: until a run of more than
		 * 2 * context equal lines, or the end */
		first = last = i;
		for (size_t k = i + 1; k < nedits; k++) {
			if (edits[k].kind == EDIT_SAME)
				continue;
			if (k - last - 1 > 2 * (size_t)context)
				break;
			last = k;
		}
		start = first > context ? first - context : 0;
		end = last + context + 1 < nedits ? last + context + 1 : nedits;
		for (size_t k = start; k < end; k++) {
			acount += edits[k].kind != EDIT_INSERT;
			bcount += edits[k].kind != EDIT_DELETE;
		}
		if (hunks++ == 0)
			strbuf_printf(out, "--- %s\n+++ %s\n", label_a, label_b);
		strbuf_puts(out, "@@ -");
		print_range(out, edits[start].x, acount);
		strbuf_puts(out, " +");
		print_range(out, edits[start].y, bcount);
		strbuf_puts(out, " @@\n");
		for (size_t k = start; k < end; k++) {
			switch (edits[k].kind) {
			case EDIT_SAME:
				print_line(out, ' ', &sb->items[edits[k].y]);
				break;
			case EDIT_DELETE:
				print_line(out, '-', &sa->items[edits[k].x]);
				break;
			case EDIT_INSERT:
				print_line(out, '+', &sb->items[edits[k].y]);
				break;
			}
		}
		i = end;
	}
	free(edits);
	free(deleted);
	free(inserted);
	return hunks;
}

size_t linediff_unified(StrBuf *out, const char *a, size_t alen, const char *b, size_t blen,
			const char *label_a, const char *label_b, unsigned context)
{
	Lines la, lb;
	size_t hunks;
	split_lines(&la, a, alen);
	split_lines(&lb, b, blen);
	hunks = unified(out, &la, &lb, NULL, NULL, label_a, label_b, context);
	free(la.items);
	free(lb.items);
	return hunks;
}

size_t linediff_unified_keyed(StrBuf *out, const LinediffText *a, const LinediffText *b,
			      const char *label_a, const char *label_b, unsigned context)
{
	Lines ka, kb, sa, sb;
	size_t hunks;
	split_lines(&ka, a->key, a->key_len);
	split_lines(&kb, b->key, b->key_len);
	split_lines(&sa, a->shown, a->shown_len);
	split_lines(&sb, b->shown, b->shown_len);
	DP_ASSERT(ka.count == sa.count && kb.count == sb.count);
	hunks = unified(out, &ka, &kb, &sa, &sb, label_a, label_b, context);
	free(ka.items);
	free(kb.items);
	free(sa.items);
	free(sb.items);
	return hunks;
}
