/*
 * cpu_window.c - the CPU kernels of the operators that slide a window over
 * NCW, NCHW or NCDHW data: the convolutions and the poolings of every rank.
 *
 * Every kernel is written for three spatial dimensions (KernelWindow);
 * a 1-D or 2-D operator is the same computation with unit depth (and
 * height), so conv1d and conv3d share conv2d's code and its speed.
 *
 * nn.conv2d is im2col tiles of bounded size times the weight, through
 * OpenBLAS (1x1 convolutions use the input as it is; depthwise ones and
 * groups of few channels, whose GEMMs would have a handful of rows, are
 * computed directly), nn.conv2d_transpose the weight's transpose times the input
 * followed by col2im (a run of each input row at a time). OpenBLAS does its
 * own threading; it is only ever called from the thread that launched the
 * kernel, never from our workers, so the two pools never nest. Matrix
 * kernels take float32 and float64; other dtypes get an error, never a
 * wrong answer. Direct convolutions (depthwise ones, groups of few
 * channels) are defined as fused multiply-adds in the naive order, acc =
 * fma(x, w, acc) over input channel, kz, ky, kx from +0: the same bits on
 * every CPU, an FMA instruction where the CPU has one (AVX-512 or AVX's
 * FMA, picked at run time) and libm's correctly rounded fma elsewhere.
 * They go by runs of two output rows, 16 floats (8 doubles) of up to 4
 * output channels summed in vector registers over the whole window, from
 * the group's input copied once with its padding on every side (so no
 * tap is tested). Average pooling of strides 1 in height and width
 * takes a plane at a time, its rows padded with zeros and laid end to
 * end, so every tap adds one long shifted run to the sums (avg_flat_f32);
 * other average poolings go by output rows: each tap of the window adds a
 * run of an input row to a run of outputs, a loop that vectorises; max
 * pooling takes each input row's maximum over the
 * window's width once (kept in a small ring of rows, so a row two output
 * rows share is reduced once) and merges those rows in window order.
 */
#include "kernels_cpu.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- convolution ----------------------------------------------------------- */

/* im2col workspace per tile, in bytes. */
enum { IM2COL_TILE_BYTES = 8 << 20 };

/* Columns per im2col/col2im tile of rows rows: IM2COL_TILE_BYTES' worth, in [64, plane]. */
static int64_t workspace_tile(int64_t rows, int64_t plane, size_t es)
{
	int64_t tile = IM2COL_TILE_BYTES / (int64_t)es / (rows ? rows : 1);
	if (tile < 64)
		tile = 64;
	if (tile > plane)
		tile = plane;
	return tile;
}

typedef struct Im2colJob {
	const KernelWindow *w;
	DType dt;
	const char *x; /* the input image of this batch item and group: [cg, h, w] */
	char *col;     /* [rows, ncols] */
	int64_t p0, ncols;
} Im2colJob;

/* Row r of the tile is one (input channel, kz, ky, kx); its columns are
 * the output positions p0 .. p0 + ncols, walked as segments of output rows
 * (oz, oy): a row outside the input is zeros, and along it the columns
 * whose input position ix falls inside are one run, copied (stride 1) or
 * gathered (stride s), between zeros for the padding. No column costs a
 * division or a bounds test. */
#define DEFINE_IM2COL(NAME, T)                                                                 \
	static void NAME(void *vjob, int64_t begin, int64_t end)                               \
	{                                                                                      \
		Im2colJob *job = vjob;                                                         \
		const KernelWindow *w = job->w;                                                \
		const T *x = (const T *)job->x;                                                \
		T *col = (T *)job->col;                                                        \
		int64_t window = w->kd * w->kh * w->kw, sx = w->stride[2];                     \
		for (int64_t r = begin; r < end; r++) {                                        \
			int64_t ci = r / window, kz = r / (w->kh * w->kw) % w->kd,             \
				ky = r / w->kw % w->kh, kx = r % w->kw;                        \
			const T *xc = x + ci * w->d * w->h * w->w;                             \
			int64_t oz = job->p0 / (w->oh * w->ow), oy = job->p0 / w->ow % w->oh,  \
				ox = job->p0 % w->ow;                                          \
			/* ix = ox * sx + x_shift; inside for ox in [lo, hi) */                \
			int64_t x_shift = kx * w->dilation[2] - w->pad[2];                     \
			int64_t lo = x_shift >= 0 ? 0 : (-x_shift + sx - 1) / sx;              \
			int64_t hi = w->w - x_shift <= 0 ? 0 : (w->w - x_shift + sx - 1) / sx; \
			T *dst = col + r * job->ncols;                                         \
			if (hi > w->ow)                                                        \
				hi = w->ow;                                                    \
			if (lo > hi)                                                           \
				lo = hi;                                                       \
			for (int64_t t = 0; t < job->ncols;) {                                 \
				int64_t run = w->ow - ox, iz, iy, a, b;                        \
				const T *src;                                                  \
				if (run > job->ncols - t)                                      \
					run = job->ncols - t;                                  \
				iz = oz * w->stride[0] - w->pad[0] + kz * w->dilation[0];      \
				iy = oy * w->stride[1] - w->pad[1] + ky * w->dilation[1];      \
				/* the segment's columns ox .. ox + run - 1: zeros, then \
				 * [a, b) from the input, then zeros */     \
				a = lo > ox ? lo : ox;                                         \
				b = hi < ox + run ? hi : ox + run;                             \
				if (iz < 0 || iz >= w->d || iy < 0 || iy >= w->h || a >= b)    \
					a = b = ox + run;                                      \
				for (int64_t c = ox; c < a; c++)                               \
					dst[t + c - ox] = (T)0;                                \
				if (a < b) {                                                   \
					src = xc + (iz * w->h + iy) * w->w + x_shift;          \
					if (sx == 1)                                           \
						for (int64_t c = a; c < b; c++)                \
							dst[t + c - ox] = src[c];              \
					else                                                   \
						for (int64_t c = a; c < b; c++)                \
							dst[t + c - ox] = src[c * sx];         \
				}                                                              \
				for (int64_t c = b; c < ox + run; c++)                         \
					dst[t + c - ox] = (T)0;                                \
				t += run;                                                      \
				ox += run;                                                     \
				if (ox == w->ow) {                                             \
					ox = 0;                                                \
					if (++oy == w->oh) {                                   \
						oy = 0;                                        \
						oz++;                                          \
					}                                                      \
				}                                                              \
			}                                                                      \
		}                                                                              \
	}
DEFINE_IM2COL(im2col_f32, float)
DEFINE_IM2COL(im2col_f64, double)

/* The output positions o in [*lo, *hi) of a dimension of on outputs whose
 * tap reads input position o * stride + shift inside [0, n). */
static inline void tap_span(int64_t shift, int64_t stride, int64_t n, int64_t on, int64_t *lo,
			    int64_t *hi)
{
	*lo = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
	*hi = n - shift <= 0 ? 0 : (n - shift + stride - 1) / stride;
	if (*hi > on)
		*hi = on;
	if (*lo > *hi)
		*lo = *hi;
}

/* A helper of the CPU_CLONES row functions, inlined into each clone (a
 * call would run the baseline's code). */
#if defined(__GNUC__)
#define ROW_INLINE static inline __attribute__((always_inline))
#else
#define ROW_INLINE static inline
#endif

/* The output columns [x0[kx], x1[kx]) each tap kx of a window row reaches
 * inside the input row, and [lo, hi), those all of them reach, computed
 * once per call (row_spans_init). */
typedef struct RowSpans {
	int64_t *x0, *x1;
	int64_t lo, hi;
} RowSpans;

static void row_spans_init(RowSpans *sp, const KernelWindow *w)
{
	sp->x0 = xmalloc(2 * (size_t)(w->kw + 1) * sizeof(int64_t));
	sp->x1 = sp->x0 + w->kw + 1;
	sp->lo = 0;
	sp->hi = w->ow;
	for (int64_t kx = 0; kx < w->kw; kx++) {
		tap_span(kx * w->dilation[2] - w->pad[2], w->stride[2], w->w, w->ow, &sp->x0[kx],
			 &sp->x1[kx]);
		sp->lo = sp->x0[kx] > sp->lo ? sp->x0[kx] : sp->lo;
		sp->hi = sp->x1[kx] < sp->hi ? sp->x1[kx] : sp->hi;
	}
}

/* Merges v into a(cc): a += v * k (a depthwise convolution's tap), the
 * maximum (NaN wins, the first of equal values stays) or the sum. */
#define MERGE_FMA(a, v, k) (a) += (v) * (k)
#define MERGE_MAX(a, v, k) (a) = (v) > (a) || (v) != (v) ? (v) : (a)
#define MERGE_SUM(a, v, k) (a) += (v)

/* One input row's kw taps merged into the output row acc[0, ow): tap kx
 * reads row[ox * sx + kx * dx - pad] inside the row (the poolings' MERGE
 * leaves the weights kv unread). Each tap's
 * run of columns is the span tap_span gives; a window three wide merges
 * its three taps in one pass over the columns all three reach (a value
 * kept in a register across them), the columns at the edges tap by tap.
 * Either way every column merges its taps in the order kx. Inlined into
 * the CPU_CLONES row functions, so compiled as wide as they are. */
#define DEFINE_ROW_TAPS(NAME, T, ACC, MERGE)                                                   \
	ROW_INLINE void NAME##_run(const KernelWindow *w, const T *restrict row,               \
				   ACC *restrict acc, int64_t a, int64_t b, int64_t kx,        \
				   const T *restrict kv)                                       \
	{                                                                                      \
		int64_t sx = w->stride[2], xs = kx * w->dilation[2] - w->pad[2];               \
		if (sx == 1)                                                                   \
			for (int64_t i = a; i < b; i++) {                                      \
				T v = row[i + xs];                                             \
				MERGE(acc[i], v, kv[kx]);                                      \
			}                                                                      \
		else if (sx == 2)                                                              \
			for (int64_t i = a; i < b; i++) {                                      \
				T v = row[2 * i + xs];                                         \
				MERGE(acc[i], v, kv[kx]);                                      \
			}                                                                      \
		else                                                                           \
			for (int64_t i = a; i < b; i++) {                                      \
				T v = row[i * sx + xs];                                        \
				MERGE(acc[i], v, kv[kx]);                                      \
			}                                                                      \
	}                                                                                      \
	ROW_INLINE void NAME(const KernelWindow *w, const RowSpans *sp, const T *restrict row, \
			     ACC *restrict acc, const T *restrict kv)                          \
	{                                                                                      \
		int64_t sx = w->stride[2], dx = w->dilation[2], lo = sp->lo, hi = sp->hi;      \
		const int64_t *x0 = sp->x0, *x1 = sp->x1;                                      \
		if (w->kw != 3 || lo >= hi) {                                                  \
			for (int64_t kx = 0; kx < w->kw; kx++)                                 \
				NAME##_run(w, row, acc, x0[kx], x1[kx], kx, kv);               \
			return;                                                                \
		}                                                                              \
		for (int k = 0; k < 3; k++) {                                                  \
			NAME##_run(w, row, acc, x0[k], x1[k] < lo ? x1[k] : lo, k, kv);        \
			NAME##_run(w, row, acc, x0[k] > hi ? x0[k] : hi, x1[k], k, kv);        \
		}                                                                              \
		{                                                                              \
			const T *restrict s = row + lo * sx - w->pad[2];                       \
			ACC *restrict out = acc + lo;                                          \
			int64_t n = hi - lo;                                                   \
			if (sx == 1)                                                           \
				for (int64_t i = 0; i < n; i++) {                              \
					ACC r = out[i];                                        \
					T v0 = s[i], v1 = s[i + dx], v2 = s[i + 2 * dx];       \
					MERGE(r, v0, kv[0]);                                   \
					MERGE(r, v1, kv[1]);                                   \
					MERGE(r, v2, kv[2]);                                   \
					out[i] = r;                                            \
				}                                                              \
			else if (sx == 2)                                                      \
				for (int64_t i = 0; i < n; i++) {                              \
					ACC r = out[i];                                        \
					T v0 = s[2 * i], v1 = s[2 * i + dx],                   \
					  v2 = s[2 * i + 2 * dx];                              \
					MERGE(r, v0, kv[0]);                                   \
					MERGE(r, v1, kv[1]);                                   \
					MERGE(r, v2, kv[2]);                                   \
					out[i] = r;                                            \
				}                                                              \
			else                                                                   \
				for (int64_t i = 0; i < n; i++) {                              \
					ACC r = out[i];                                        \
					T v0 = s[i * sx], v1 = s[i * sx + dx],                 \
					  v2 = s[i * sx + 2 * dx];                             \
					MERGE(r, v0, kv[0]);                                   \
					MERGE(r, v1, kv[1]);                                   \
					MERGE(r, v2, kv[2]);                                   \
					out[i] = r;                                            \
				}                                                              \
		}                                                                              \
	}
DEFINE_ROW_TAPS(max_taps_f32, float, float, MERGE_MAX)
DEFINE_ROW_TAPS(max_taps_f64, double, double, MERGE_MAX)
DEFINE_ROW_TAPS(sum_taps_f32, float, float, MERGE_SUM)
DEFINE_ROW_TAPS(sum_taps_f64, double, double, MERGE_SUM)

/* Groups of few channels (depthwise: one in, one out), whose GEMMs would
 * have a handful of rows, are computed directly, two output rows at a
 * time. The group's input is first copied (once per group and thread)
 * into a scratch with its padding as zeros on every side, wide enough for
 * whole runs of L outputs; then each run of L output columns of OB output
 * channels in both rows (2 OB NR vector registers) starts at +0 and
 * takes, for each input channel in turn and each tap in the order kz, ky,
 * kx, acc = fma(x, w, acc) of the L values the tap reads (stride 1 or 2:
 * one or two vector loads) and the weight, one rounding a tap, so every
 * output is the seven loops' fused multiply-adds in their order, and the
 * sums stay in registers until they are stored. A padding zero times a
 * finite weight is a zero, which leaves the sum as it was (a sum from +0
 * is never -0), so the result is that of skipping the taps outside the
 * input, as the loops do; with a weight that is not finite (inf times 0
 * is NaN) the convolution is computed a column at a time with the taps
 * skipped. With strides 1 across and down, a block is a band of about
 * DIRECT_FLAT outputs a channel, computed as one flat run across the ends
 * of its rows (DEFINE_DIRECT_FLAT) from a scratch of the band's rows only
 * (which stays in the first-level cache), as wide as the padded row, so
 * that the vectors are full (a row of 56 took four of 16, 64 columns). */

typedef struct DirectJob {
	const KernelWindow *w;
	const void *x, *k;
	void *y;
	int64_t blocks; /* blocks of output channels per group: og / 4 + og % 4 */
	int64_t wp;     /* the scratch's row: the input row with its padding */
	int64_t hp, dp; /* the scratch's rows and planes a channel: those read
			 * (flat: by a band) */
	const void *kq; /* the weights, each block of four channels tap-major
			 * (direct_pack) */
	bool finite;    /* every weight is finite: the vector runs may read padding */
	bool flat;      /* finite, strides 1 across and down: the flat runs */
	int64_t band;   /* output rows a block: 2, or more for the flat runs */
} DirectJob;

/* A block of output rows of the job (one or two, or a band of flat ones). */
typedef struct DirectRow {
	const KernelWindow *w;
	const void *x;  /* the group's input channels: [cg, d, h, w] */
	const void *k;  /* the block's first output channel's weights: [cg, kd, kh, kw] */
	const void *kq; /* the block's weights tap-major: [cg, kd, kh, kw][nob] */
	void *y;        /* the block's first output channel, this row: y[o * plane + ox] */
	/* scratch: the group's input with its padding on every side, [cg,
	 * dp, hp, wp]: plane pad[0] + z, row pad[1] + y, column pad[2] + x
	 * hold input (z, y, x), the others zeros; for the flat runs, the rows
	 * of a band only: its row 0 is padded row oy */
	const void *rows;
	int64_t oz, oy;
	int64_t nob; /* the block's output channels */
	int64_t ny;  /* its output rows: oy to oy + ny - 1 */
	int64_t wp, hp, dp;
} DirectRow;

/* The columns [c0, c1) of a direct row one at a time, the taps outside
 * the input skipped, by the same fused multiply-adds (CPU_CLONES_FMA). */
#define DEFINE_DIRECT_COLUMNS(NAME, T, FMA)                                                        \
	CPU_CLONES_FMA static void NAME(const DirectRow *r, int64_t c0, int64_t c1)                \
	{                                                                                          \
		const KernelWindow *w = r->w;                                                      \
		int64_t cg = w->c / w->groups, window = w->kd * w->kh * w->kw;                     \
		int64_t plane = w->od * w->oh * w->ow;                                             \
		for (int64_t ox = c0; ox < c1; ox++)                                               \
			for (int64_t o = 0; o < r->nob; o++) {                                     \
				const T *k = (const T *)r->k + o * cg * window;                    \
				T acc = 0;                                                         \
				for (int64_t ci = 0; ci < cg; ci++)                                \
					for (int64_t t = 0; t < window; t++) {                     \
						int64_t kz = t / (w->kh * w->kw),                  \
							ky = t / w->kw % w->kh, kx = t % w->kw;    \
						int64_t iz = r->oz * w->stride[0] - w->pad[0] +    \
							     kz * w->dilation[0];                  \
						int64_t iy = r->oy * w->stride[1] - w->pad[1] +    \
							     ky * w->dilation[1];                  \
						int64_t ix = ox * w->stride[2] - w->pad[2] +       \
							     kx * w->dilation[2];                  \
						if (iz < 0 || iz >= w->d || iy < 0 ||              \
						    iy >= w->h || ix < 0 || ix >= w->w)            \
							continue;                                  \
						acc = FMA(((const T *)r                            \
								   ->x)[((ci * w->d + iz) * w->h + \
									 iy) * w->w +              \
									ix],                       \
							  k[ci * window + t], acc);                \
					}                                                          \
				((T *)r->y)[o * plane + ox] = acc;                                 \
			}                                                                          \
	}
DEFINE_DIRECT_COLUMNS(direct_columns_f32, float, __builtin_fmaf)
DEFINE_DIRECT_COLUMNS(direct_columns_f64, double, __builtin_fma)

#if defined(__GNUC__)
#define DIRECT_VECTORS 1
typedef float DirectVecF32 __attribute__((vector_size(64)));  /* 16 floats */
typedef double DirectVecF64 __attribute__((vector_size(64))); /* 8 doubles */
/* The L values s[0], s[2], .., s[2 (L - 1)] (stride 2) from a = s[0, L)
 * and b = s[L - 1, 2 L - 1): the loads stop at the last value read. */
#if defined(__clang__)
#define DIRECT_EVEN_F32(a, b) \
	__builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31)
#define DIRECT_EVEN_F64(a, b) __builtin_shufflevector(a, b, 0, 2, 4, 6, 9, 11, 13, 15)
#else
typedef int DirectMaskF32 __attribute__((vector_size(64)));
typedef long long DirectMaskF64 __attribute__((vector_size(64)));
#define DIRECT_EVEN_F32(a, b) \
	__builtin_shuffle(    \
		a, b, (DirectMaskF32){0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31})
#define DIRECT_EVEN_F64(a, b) __builtin_shuffle(a, b, (DirectMaskF64){0, 2, 4, 6, 9, 11, 13, 15})
#endif

/* NR runs of L output columns from x0 of OB output channels in each of
 * the block's two output rows (a block of one row computes and stores it
 * twice), input stride SX (1, 2, or 0: any), window width KW (0: any),
 * from the padded rows: 2 * OB * NR sums, each a chain of fused
 * multiply-adds of its own, so that the FMAs of different sums overlap.
 * Each sum adds the taps in the naive order (input channel, kz, ky, kx),
 * those on the padding too: fma(0, w, acc) is acc for a finite w (acc,
 * from +0, is never -0). Columns past the row's end are computed from the
 * padding and not stored. */
#define DEFINE_DIRECT_RUN(NAME, T, VEC, EVEN, ATTR, VFMA, OB, NR, SX, KW)                          \
	ATTR ROW_INLINE void NAME(const DirectRow *r, int64_t x0)                                  \
	{                                                                                          \
		enum { L = (int)(sizeof(VEC) / sizeof(T)) };                                       \
		const KernelWindow *w = r->w;                                                      \
		int64_t cg = w->c / w->groups;                                                     \
		int64_t sx = SX ? SX : w->stride[2], plane = w->od * w->oh * w->ow;                \
		int64_t dx = w->dilation[2], kw = KW ? KW : w->kw;                                 \
		int64_t chan = r->dp * r->hp * r->wp, dz = w->dilation[0] * r->hp * r->wp;         \
		int64_t dy = w->dilation[1] * r->wp;                                               \
		int64_t qin = r->ny > 1 ? w->stride[1] * r->wp : 0, qout = r->ny > 1 ? w->ow : 0;  \
		const T *top = (const T *)r->rows +                                                \
			       (r->oz * w->stride[0] * r->hp + r->oy * w->stride[1]) * r->wp +     \
			       x0 * sx;                                                            \
		const T *k = (const T *)r->kq;                                                     \
		VEC acc[2][OB][NR];                                                                \
		for (int q = 0; q < 2; q++)                                                        \
			for (int o = 0; o < OB; o++)                                               \
				for (int j = 0; j < NR; j++)                                       \
					acc[q][o][j] = (VEC){0};                                   \
		for (int64_t ci = 0; ci < cg; ci++, top += chan)                                   \
			for (int64_t kz = 0; kz < w->kd; kz++)                                     \
				for (int64_t ky = 0; ky < w->kh; ky++, k += kw * OB) {             \
					const T *row = top + kz * dz + ky * dy;                    \
					for (int64_t kx = 0; kx < kw; kx++) {                      \
						VEC v[2][NR];                                      \
						for (int q = 0; q < 2; q++)                        \
							for (int j = 0; j < NR; j++) {             \
								const T *s = row + q * qin +       \
									     kx * dx + j * L * sx; \
								if (SX == 1) {                     \
									memcpy(&v[q][j], s,        \
									       sizeof(VEC));       \
								} else if (SX == 2) {              \
									VEC a, b;                  \
									memcpy(&a, s, sizeof a);   \
									memcpy(&b, s + L - 1,      \
									       sizeof b);          \
									v[q][j] = EVEN(a, b);      \
								} else {                           \
									VEC g = {0};               \
									for (int l = 0; l < L;     \
									     l++)                  \
										g[l] = s[l * sx];  \
									v[q][j] = g;               \
								}                                  \
							}                                          \
						for (int o = 0; o < OB; o++) {                     \
							T wk = k[kx * OB + o];                     \
							for (int q = 0; q < 2; q++)                \
								for (int j = 0; j < NR; j++)       \
									VFMA(&acc[q][o][j],        \
									     &v[q][j], wk);        \
						}                                                  \
					}                                                          \
				}                                                                  \
		for (int q = 0; q < 2; q++)                                                        \
			for (int o = 0; o < OB; o++)                                               \
				for (int j = 0; j < NR; j++) {                                     \
					int64_t c = x0 + j * L;                                    \
					T *y = (T *)r->y + q * qout + o * plane + c;               \
					if (c + L <= w->ow)                                        \
						memcpy(y, &acc[q][o][j], sizeof(VEC));             \
					else                                                       \
						for (int64_t l = 0; l < w->ow - c; l++)            \
							y[l] = acc[q][o][j][l];                    \
				}                                                                  \
	}

/* Calls the run of P for the row's stride and window width: the
 * unrolled 3-wide windows of strides 1 and 2, or the general one. */
#define DIRECT_RUN_BY_STRIDE(P, ISA, r, at, sx, k3) \
	do {                                        \
		if ((sx) == 1 && (k3))              \
			P##_s1k3_##ISA(r, at);      \
		else if ((sx) == 1)                 \
			P##_s1_##ISA(r, at);        \
		else if ((sx) == 2 && (k3))         \
			P##_s2k3_##ISA(r, at);      \
		else if ((sx) == 2)                 \
			P##_s2_##ISA(r, at);        \
		else                                \
			P##_sn_##ISA(r, at);        \
	} while (0)

/* A direct row's columns in blocks of NR runs of L while more than
 * NRS * L remain, then of NRS runs: wide blocks give the FMAs more
 * independent sums, the short one wastes less of a short row's end. A
 * last block that would pass the row's end starts earlier where the row
 * is long enough, recomputing some columns (the same sums: the same
 * bits) so that every store is a whole vector. Windows 3 wide have their
 * own runs, the taps of a window row unrolled. ISA names the instruction
 * set's variant, ATTR its target attribute. */
#define DEFINE_DIRECT_VECTOR_ROW(NAME, T, VEC, EVEN, ISA, ATTR, VFMA, OB, NR, NRS)          \
	DEFINE_DIRECT_RUN(NAME##_s1_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NR, 1, 0)          \
	DEFINE_DIRECT_RUN(NAME##_s2_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NR, 2, 0)          \
	DEFINE_DIRECT_RUN(NAME##_sn_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NR, 0, 0)          \
	DEFINE_DIRECT_RUN(NAME##_s1k3_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NR, 1, 3)        \
	DEFINE_DIRECT_RUN(NAME##_s2k3_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NR, 2, 3)        \
	DEFINE_DIRECT_RUN(NAME##_short_s1_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NRS, 1, 0)   \
	DEFINE_DIRECT_RUN(NAME##_short_s2_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NRS, 2, 0)   \
	DEFINE_DIRECT_RUN(NAME##_short_sn_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NRS, 0, 0)   \
	DEFINE_DIRECT_RUN(NAME##_short_s1k3_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NRS, 1, 3) \
	DEFINE_DIRECT_RUN(NAME##_short_s2k3_##ISA, T, VEC, EVEN, ATTR, VFMA, OB, NRS, 2, 3) \
	ATTR static void NAME##_##ISA(const DirectRow *r)                                   \
	{                                                                                   \
		int64_t L = (int64_t)(sizeof(VEC) / sizeof(T)), sx = r->w->stride[2];       \
		int64_t ow = r->w->ow;                                                      \
		bool k3 = r->w->kw == 3;                                                    \
		for (int64_t x0 = 0; x0 < ow;) {                                            \
			bool wide = ow - x0 > NRS * L;                                      \
			int64_t width = wide ? NR * L : NRS * L;                            \
			int64_t at = ow - x0 < width && ow >= width ? ow - width : x0;      \
			if (wide)                                                           \
				DIRECT_RUN_BY_STRIDE(NAME, ISA, r, at, sx, k3);             \
			else                                                                \
				DIRECT_RUN_BY_STRIDE(NAME##_short, ISA, r, at, sx, k3);     \
			x0 += width;                                                        \
		}                                                                           \
	}

/* Stride 1 across and down: the output plane as one flat run. Output
 * (oy, ox) is at flat position oy * wp + ox of the plane and reads the
 * scratch's value at that position plus the tap's offset, so runs of NR
 * vectors of L consecutive flat positions of OB output channels (OB * NR
 * sums) are computed across the ends of rows: the columns from ow to wp
 * (the padding's) are computed and dropped, so that no vector is part
 * empty. The taps, their order and their FMAs are those of
 * DEFINE_DIRECT_RUN's. top is the scratch at the block's first row (flat
 * position 0), n the block's flat positions ((ny - 1) * wp + ow): lanes
 * from n on are dropped too; runs of the runs from p. A vector's kept
 * lanes are consecutive outputs, stored by PART (lanes of a mask, packed). */
#define DEFINE_DIRECT_FLAT(NAME, T, VEC, ATTR, VFMA, PART, OB, NR, KW)                             \
	ATTR ROW_INLINE void NAME(const DirectRow *r, const T *top, int64_t p, int64_t runs,       \
				  int64_t n)                                                       \
	{                                                                                          \
		enum { L = (int)(sizeof(VEC) / sizeof(T)) };                                       \
		const KernelWindow *w = r->w;                                                      \
		int64_t cg = w->c / w->groups, plane = w->od * w->oh * w->ow, ow = w->ow;          \
		int64_t dx = w->dilation[2], kw = KW ? KW : w->kw, wp = r->wp;                     \
		int64_t chan = r->dp * r->hp * wp, dz = w->dilation[0] * r->hp * wp;               \
		int64_t dy = w->dilation[1] * wp, kd = w->kd, kh = w->kh;                          \
		int64_t y0 = p / wp, x0 = p % wp;                                                  \
		for (int64_t run = 0; run < runs; run++, p += NR * L) {                            \
			const T *k = (const T *)r->kq, *at = top + p;                              \
			VEC acc[OB][NR];                                                           \
			for (int o = 0; o < OB; o++)                                               \
				for (int j = 0; j < NR; j++)                                       \
					acc[o][j] = (VEC){0};                                      \
			for (int64_t ci = 0; ci < cg; ci++, at += chan)                            \
				for (int64_t kz = 0; kz < kd; kz++)                                \
					for (int64_t ky = 0; ky < kh; ky++, k += kw * OB) {        \
						const T *row = at + kz * dz + ky * dy;             \
						for (int64_t kx = 0; kx < kw; kx++) {              \
							VEC v[NR];                                 \
							for (int j = 0; j < NR; j++)               \
								memcpy(&v[j],                      \
								       row + kx * dx + j * L,      \
								       sizeof(VEC));               \
							for (int o = 0; o < OB; o++) {             \
								T wk = k[kx * OB + o];             \
								for (int j = 0; j < NR; j++)       \
									VFMA(&acc[o][j], &v[j],    \
									     wk);                  \
							}                                          \
						}                                                  \
					}                                                          \
			for (int j = 0; j < NR; j++) {                                             \
				int64_t q = p + j * L, lim = n - q < L ? n - q : L;                \
				T *y = (T *)r->y;                                                  \
				if (x0 + L <= ow && lim == L) {                                    \
					for (int o = 0; o < OB; o++)                               \
						memcpy(y + o * plane + y0 * ow + x0, &acc[o][j],   \
						       sizeof(VEC));                               \
				} else {                                                           \
					uint32_t mask = 0;                                         \
					for (int64_t l = 0, x = x0; l < lim; x = 0) {              \
						int64_t seg = wp - x < lim - l ? wp - x : lim - l; \
						int64_t keep = x < ow ? ow - x : 0;                \
						keep = keep < seg ? keep : seg;                    \
						mask |= ((1u << keep) - 1) << l;                   \
						l += seg;                                          \
					}                                                          \
					/* from the next row's first when x0 is padding */         \
					int64_t first = x0 < ow ? y0 * ow + x0 : (y0 + 1) * ow;    \
					for (int o = 0; o < OB && mask; o++)                       \
						PART(y + o * plane + first, &acc[o][j], mask);     \
				}                                                                  \
				for (x0 += L; x0 >= wp; x0 -= wp)                                  \
					y0++;                                                      \
			}                                                                          \
		}                                                                                  \
	}

/* The block's flat positions in runs of NR vectors, then of NRS, the last
 * started earlier where the block is long enough (recomputed columns:
 * the same bits), so that no lane past the block is computed for
 * nothing. */
#define DEFINE_DIRECT_FLAT_ROW(NAME, T, VEC, ISA, ATTR, VFMA, PART, OB, NR, NRS)                 \
	DEFINE_DIRECT_FLAT(NAME##_flat_##ISA, T, VEC, ATTR, VFMA, PART, OB, NR, 0)               \
	DEFINE_DIRECT_FLAT(NAME##_flat3_##ISA, T, VEC, ATTR, VFMA, PART, OB, NR, 3)              \
	DEFINE_DIRECT_FLAT(NAME##_flats_##ISA, T, VEC, ATTR, VFMA, PART, OB, NRS, 0)             \
	DEFINE_DIRECT_FLAT(NAME##_flats3_##ISA, T, VEC, ATTR, VFMA, PART, OB, NRS, 3)            \
	ATTR static void NAME##_flat_row_##ISA(const DirectRow *r)                               \
	{                                                                                        \
		int64_t L = (int64_t)(sizeof(VEC) / sizeof(T));                                  \
		const KernelWindow *w = r->w;                                                    \
		int64_t n = (r->ny - 1) * r->wp + w->ow, p, runs = n / (NR * L);                 \
		const T *top = (const T *)r->rows + r->oz * w->stride[0] * r->hp * r->wp;        \
		bool k3 = w->kw == 3;                                                            \
		if (runs > 0)                                                                    \
			(k3 ? NAME##_flat3_##ISA : NAME##_flat_##ISA)(r, top, 0, runs, n);       \
		p = runs * NR * L;                                                               \
		runs = (n - p) / (NRS * L);                                                      \
		if (runs > 0)                                                                    \
			(k3 ? NAME##_flats3_##ISA : NAME##_flats_##ISA)(r, top, p, runs, n);     \
		p += runs * NRS * L;                                                             \
		if (p < n)                                                                       \
			(k3 ? NAME##_flats3_##ISA                                                \
			    : NAME##_flats_##ISA)(r, top, n >= NRS * L ? n - NRS * L : p, 1, n); \
	}

/* The lanes of v that mask has, in order, to dst on. */
#define DEFINE_DIRECT_PART_ANY(NAME, T, VEC)                             \
	ROW_INLINE void NAME(T *dst, const VEC *v, uint32_t mask)        \
	{                                                                \
		for (int l = 0; l < (int)(sizeof(VEC) / sizeof(T)); l++) \
			if (mask >> l & 1)                               \
				*dst++ = (*v)[l];                        \
	}
DEFINE_DIRECT_PART_ANY(direct_part_any_f32, float, DirectVecF32)
DEFINE_DIRECT_PART_ANY(direct_part_any_f64, double, DirectVecF64)

/* acc + v * s per lane with one rounding (fma), s a scalar: in the
 * baseline variant, fmaf/fma a lane (libm's, correctly rounded in
 * software where the CPU has no FMA). */
#define DEFINE_DIRECT_FMA_ANY(NAME, T, VEC, FMA)                         \
	ROW_INLINE void NAME(VEC *acc, const VEC *v, T s)                \
	{                                                                \
		for (int l = 0; l < (int)(sizeof(VEC) / sizeof(T)); l++) \
			(*acc)[l] = FMA((*v)[l], s, (*acc)[l]);          \
	}
DEFINE_DIRECT_FMA_ANY(direct_fma_any_f32, float, DirectVecF32, __builtin_fmaf)
DEFINE_DIRECT_FMA_ANY(direct_fma_any_f64, double, DirectVecF64, __builtin_fma)
#define DIRECT_NO_ATTR

/* Each row function in every variant: the same FMAs in the same order,
 * so the same bits on every CPU. */
#define DEFINE_DIRECT_ROWS(ISA, ATTR, FMA_F32, FMA_F64, PART_F32, PART_F64)                        \
	DEFINE_DIRECT_VECTOR_ROW(direct_row4_f32, float, DirectVecF32, DIRECT_EVEN_F32, ISA, ATTR, \
				 FMA_F32, 4, 2, 2)                                                 \
	DEFINE_DIRECT_VECTOR_ROW(direct_row1_f32, float, DirectVecF32, DIRECT_EVEN_F32, ISA, ATTR, \
				 FMA_F32, 1, 4, 2)                                                 \
	DEFINE_DIRECT_VECTOR_ROW(direct_row4_f64, double, DirectVecF64, DIRECT_EVEN_F64, ISA,      \
				 ATTR, FMA_F64, 4, 2, 2)                                           \
	DEFINE_DIRECT_VECTOR_ROW(direct_row1_f64, double, DirectVecF64, DIRECT_EVEN_F64, ISA,      \
				 ATTR, FMA_F64, 1, 4, 2)                                           \
	DEFINE_DIRECT_FLAT_ROW(direct_row4_f32, float, DirectVecF32, ISA, ATTR, FMA_F32, PART_F32, \
			       4, 4, 1)                                                            \
	DEFINE_DIRECT_FLAT_ROW(direct_row1_f32, float, DirectVecF32, ISA, ATTR, FMA_F32, PART_F32, \
			       1, 8, 2)                                                            \
	DEFINE_DIRECT_FLAT_ROW(direct_row4_f64, double, DirectVecF64, ISA, ATTR, FMA_F64,          \
			       PART_F64, 4, 4, 1)                                                  \
	DEFINE_DIRECT_FLAT_ROW(direct_row1_f64, double, DirectVecF64, ISA, ATTR, FMA_F64,          \
			       PART_F64, 1, 8, 2)
DEFINE_DIRECT_ROWS(any, DIRECT_NO_ATTR, direct_fma_any_f32, direct_fma_any_f64, direct_part_any_f32,
		   direct_part_any_f64)

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#include <immintrin.h>
/* The same lanes' fma by AVX-512's vfmadd (one instruction for 16 floats
 * or 8 doubles) and by AVX's FMA (two of 8 floats or 4 doubles). */
#define DIRECT_ATTR_512 __attribute__((target("avx512f")))
#define DIRECT_ATTR_FMA __attribute__((target("fma")))
DIRECT_ATTR_512 ROW_INLINE void direct_fma_512_f32(DirectVecF32 *acc, const DirectVecF32 *v,
						   float s)
{
	*acc = (DirectVecF32)_mm512_fmadd_ps((__m512)*v, _mm512_set1_ps(s), (__m512)*acc);
}
DIRECT_ATTR_512 ROW_INLINE void direct_fma_512_f64(DirectVecF64 *acc, const DirectVecF64 *v,
						   double s)
{
	*acc = (DirectVecF64)_mm512_fmadd_pd((__m512d)*v, _mm512_set1_pd(s), (__m512d)*acc);
}
DIRECT_ATTR_FMA ROW_INLINE void direct_fma_256_f32(DirectVecF32 *acc, const DirectVecF32 *v,
						   float s)
{
	__m256 a[2], c[2], b = _mm256_set1_ps(s);
	memcpy(a, v, sizeof a);
	memcpy(c, acc, sizeof c);
	c[0] = _mm256_fmadd_ps(a[0], b, c[0]);
	c[1] = _mm256_fmadd_ps(a[1], b, c[1]);
	memcpy(acc, c, sizeof c);
}
DIRECT_ATTR_FMA ROW_INLINE void direct_fma_256_f64(DirectVecF64 *acc, const DirectVecF64 *v,
						   double s)
{
	__m256d a[2], c[2], b = _mm256_set1_pd(s);
	memcpy(a, v, sizeof a);
	memcpy(c, acc, sizeof c);
	c[0] = _mm256_fmadd_pd(a[0], b, c[0]);
	c[1] = _mm256_fmadd_pd(a[1], b, c[1]);
	memcpy(acc, c, sizeof c);
}
/* The lanes of a mask packed (vcompress) and stored by one masked store. */
DIRECT_ATTR_512 ROW_INLINE void direct_part_512_f32(float *dst, const DirectVecF32 *v,
						    uint32_t mask)
{
	__m512 c = _mm512_maskz_compress_ps((__mmask16)mask, (__m512)*v);
	_mm512_mask_storeu_ps(dst, (__mmask16)((1u << __builtin_popcount(mask)) - 1), c);
}
DIRECT_ATTR_512 ROW_INLINE void direct_part_512_f64(double *dst, const DirectVecF64 *v,
						    uint32_t mask)
{
	__m512d c = _mm512_maskz_compress_pd((__mmask8)mask, (__m512d)*v);
	_mm512_mask_storeu_pd(dst, (__mmask8)((1u << __builtin_popcount(mask)) - 1), c);
}
DEFINE_DIRECT_ROWS(512, DIRECT_ATTR_512, direct_fma_512_f32, direct_fma_512_f64,
		   direct_part_512_f32, direct_part_512_f64)
DEFINE_DIRECT_ROWS(256, DIRECT_ATTR_FMA, direct_fma_256_f32, direct_fma_256_f64,
		   direct_part_any_f32, direct_part_any_f64)
/* The variant for this CPU (__builtin_cpu_supports checks that the OS
 * saves the vector registers too). */
#define DEFINE_DIRECT_DISPATCH(NAME)                    \
	static void NAME(const DirectRow *r)            \
	{                                               \
		if (__builtin_cpu_supports("avx512f"))  \
			NAME##_512(r);                  \
		else if (__builtin_cpu_supports("fma")) \
			NAME##_256(r);                  \
		else                                    \
			NAME##_any(r);                  \
	}
#else
#define DEFINE_DIRECT_DISPATCH(NAME)         \
	static void NAME(const DirectRow *r) \
	{                                    \
		NAME##_any(r);               \
	}
#endif
DEFINE_DIRECT_DISPATCH(direct_row4_f32)
DEFINE_DIRECT_DISPATCH(direct_row1_f32)
DEFINE_DIRECT_DISPATCH(direct_row4_f64)
DEFINE_DIRECT_DISPATCH(direct_row1_f64)
DEFINE_DIRECT_DISPATCH(direct_row4_f32_flat_row)
DEFINE_DIRECT_DISPATCH(direct_row1_f32_flat_row)
DEFINE_DIRECT_DISPATCH(direct_row4_f64_flat_row)
DEFINE_DIRECT_DISPATCH(direct_row1_f64_flat_row)
/* the most columns a block of runs computes */
#define DIRECT_LANES_F32 64
#define DIRECT_LANES_F64 32
#else
#define DIRECT_VECTORS 0
#define DIRECT_LANES_F32 1
#define DIRECT_LANES_F64 1
static void direct_row_none(const DirectRow *r)
{
	(void)r;
}
#define direct_row4_f32 direct_row_none
#define direct_row1_f32 direct_row_none
#define direct_row4_f64 direct_row_none
#define direct_row1_f64 direct_row_none
#define direct_row4_f32_flat_row direct_row_none
#define direct_row1_f32_flat_row direct_row_none
#define direct_row4_f64_flat_row direct_row_none
#define direct_row1_f64_flat_row direct_row_none
#endif

/* Values after the scratch, zeros, that a flat run shorter than a band's
 * positions reads (at most two vectors: 32 floats), and the outputs a flat
 * band aims at. */
#define DIRECT_SLACK 64
#define DIRECT_FLAT 1024

/* The group's input x, cg channels, into rows as dp planes of hp rows of
 * wp each: the input's rows after pad[0] planes, pad[1] rows and pad[2]
 * columns, the rest of rows left as it is: zeros (the scratch is cleared
 * once, and every group's input takes the same places; the flat runs'
 * bands clear their rows past the input, which an earlier band may have
 * filled). A row is copied by vectors of 16 values (inline moves, not a
 * call a row), the last one ending at the row's end. */
#define DEFINE_DIRECT_PAD(NAME, T)                                                               \
	static void NAME(const DirectJob *job, const T *x, T *rows, int64_t y0)                  \
	{                                                                                        \
		enum { V = 16 };                                                                 \
		const KernelWindow *w = job->w;                                                  \
		int64_t wp = job->wp, cg = w->c / w->groups;                                     \
		int64_t left = w->pad[2] < wp ? w->pad[2] : wp;                                  \
		int64_t len = w->w < wp - left ? w->w : wp - left;                               \
		for (int64_t ci = 0; ci < cg; ci++)                                              \
			for (int64_t z = 0; z < job->dp; z++)                                    \
				for (int64_t y = 0; y < job->hp; y++, rows += wp) {              \
					int64_t iz = z - w->pad[0], i = 0;                       \
					int64_t iy = y0 + y - w->pad[1];                         \
					const T *src;                                            \
					T *dst = rows + left;                                    \
					if (iz < 0 || iz >= w->d || iy < 0 || iy >= w->h) {      \
						if (job->flat) /* a row of the last band */      \
							memset(dst, 0, (size_t)len * sizeof(T)); \
						continue;                                        \
					}                                                        \
					src = x + ((ci * w->d + iz) * w->h + iy) * w->w;         \
					for (; i + V <= len; i += V)                             \
						memcpy(dst + i, src + i, V * sizeof(T));         \
					if (i < len && len >= V)                                 \
						memcpy(dst + len - V, src + len - V,             \
						       V * sizeof(T));                           \
					else                                                     \
						for (; i < len; i++)                             \
							dst[i] = src[i];                         \
				}                                                                \
	}
DEFINE_DIRECT_PAD(direct_pad_f32, float)
DEFINE_DIRECT_PAD(direct_pad_f64, double)

/* The job's items [begin, end): item i is block i % blocks of the band
 * of output rows i / blocks % (od * halves) (halves = ceil(oh / band):
 * rows band j to band (j + 1) - 1 of a plane, fewer for its last) of
 * group .. of batch item ..; a group's blocks are og / 4 of four
 * channels, then og % 4 of one. Each thread pads the groups it reaches
 * once (the flat runs: the bands). */
#define DEFINE_DIRECT(NAME, T, PAD, COLUMNS, ROW4, ROW1)                                          \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                  \
	{                                                                                         \
		DirectJob *job = vjob;                                                            \
		const KernelWindow *w = job->w;                                                   \
		int64_t halves = (w->oh + job->band - 1) / job->band, pairs = w->od * halves;     \
		int64_t rows = w->od * w->oh, in_plane = w->d * w->h * w->w;                      \
		int64_t cg = w->c / w->groups, og = w->o / w->groups, quads = og / 4;             \
		int64_t window = w->kd * w->kh * w->kw;                                           \
		bool vectors = DIRECT_VECTORS && job->finite;                                     \
		int64_t used = cg * job->dp * job->hp * job->wp;                                  \
		T *scratch = vectors ? xmalloc((size_t)(used + DIRECT_SLACK) * sizeof(T)) : NULL; \
		int64_t b = begin % job->blocks, pair = begin / job->blocks % pairs;              \
		if (scratch)                                                                      \
			memset(scratch, 0, (size_t)(used + DIRECT_SLACK) * sizeof(T));            \
		int64_t ng = begin / job->blocks / pairs, padded = -1;                            \
		for (int64_t i = begin; i < end; i++) {                                           \
			int64_t n = ng / w->groups, g = ng % w->groups;                           \
			int64_t oc = g * og + (b < quads ? 4 * b : 4 * quads + b - quads);        \
			int64_t oz = pair / halves, oy = pair % halves * job->band;               \
			DirectRow r = {w,                                                         \
				       (const T *)job->x + (n * w->c + g * cg) * in_plane,        \
				       (const T *)job->k + oc * cg * window,                      \
				       job->kq ? (const T *)job->kq + oc * cg * window : NULL,    \
				       (T *)job->y + (n * w->o + oc) * rows * w->ow +             \
					       (oz * w->oh + oy) * w->ow,                         \
				       scratch,                                                   \
				       oz,                                                        \
				       oy,                                                        \
				       b < quads ? 4 : 1,                                         \
				       w->oh - oy < job->band ? w->oh - oy : job->band,           \
				       job->wp,                                                   \
				       job->hp,                                                   \
				       job->dp};                                                  \
			if (!vectors) {                                                           \
				for (int64_t q = 0; q < r.ny; q++, r.oy++) {                      \
					COLUMNS(&r, 0, w->ow);                                    \
					r.y = (T *)r.y + w->ow;                                   \
				}                                                                 \
			} else {                                                                  \
				int64_t at = job->flat ? ng * pairs + pair : ng;                  \
				if (padded != at)                                                 \
					PAD(job, r.x, scratch, job->flat ? oy : 0);               \
				padded = at;                                                      \
				if (job->flat)                                                    \
					(r.nob == 4 ? ROW4##_flat_row : ROW1##_flat_row)(&r);     \
				else                                                              \
					(r.nob == 4 ? ROW4 : ROW1)(&r);                           \
			}                                                                         \
			if (++b == job->blocks) {                                                 \
				b = 0;                                                            \
				if (++pair == pairs) {                                            \
					pair = 0;                                                 \
					ng++;                                                     \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
		free(scratch);                                                                    \
	}
DEFINE_DIRECT(direct_f32, float, direct_pad_f32, direct_columns_f32, direct_row4_f32,
	      direct_row1_f32)
DEFINE_DIRECT(direct_f64, double, direct_pad_f64, direct_columns_f64, direct_row4_f64,
	      direct_row1_f64)

/* The weights k of a direct convolution ([o, cg * window], es bytes an
 * element) with each group's og / 4 blocks of four channels tap-major:
 * [cg * window][4], the four weights a tap multiplies next to each other. */
static void *direct_pack(const KernelWindow *w, const void *k, size_t es)
{
	int64_t cg = w->c / w->groups, og = w->o / w->groups, taps = cg * w->kd * w->kh * w->kw;
	char *kq = xmalloc((size_t)(w->o * taps) * es);
	const char *src = k;
	memcpy(kq, k, (size_t)(w->o * taps) * es);
	for (int64_t g = 0; g < w->groups; g++)
		for (int64_t b = 0; b < og / 4; b++) {
			int64_t oc = g * og + 4 * b;
			for (int64_t t = 0; t < taps; t++)
				for (int64_t o = 0; o < 4; o++)
					memcpy(kq + (size_t)(oc * taps + t * 4 + o) * es,
					       src + (size_t)((oc + o) * taps + t) * es, es);
		}
	return kq;
}

/* Whether the n weights of a direct convolution are all finite. */
static bool direct_finite(DType dt, const void *k, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		if (!isfinite(dt == DT_FLOAT32 ? ((const float *)k)[i] : ((const double *)k)[i]))
			return false;
	return true;
}

bool kernel_cpu_CONV2D(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	DType dt = kc->in[0].dtype;
	size_t es = dtype_size(dt);
	int64_t window = w->kd * w->kh * w->kw, in_plane = w->d * w->h * w->w;
	int64_t cg = w->c / w->groups, og = w->o / w->groups, rows = cg * window;
	int64_t plane = w->od * w->oh * w->ow, tile;
	bool pointwise = window == 1 && w->stride[0] == 1 && w->stride[1] == 1 &&
			 w->stride[2] == 1 && w->pad[0] == 0 && w->pad[1] == 0 && w->pad[2] == 0 &&
			 w->od == w->d && w->oh == w->h && w->ow == w->w;
	char *col = NULL;
	if (!cpu_blas_dtype(kc, err))
		return false;
	if (kc->out[0].count == 0)
		return true;
	if (cg * og <= DIRECT_CONV_MAX) {
		int64_t lanes = dt == DT_FLOAT32 ? DIRECT_LANES_F32 : DIRECT_LANES_F64;
		int64_t runs = (w->ow + lanes - 1) / lanes;
		bool finite = direct_finite(dt, kc->in[1].data, w->o * cg * window);
		bool flat = DIRECT_VECTORS && finite && w->stride[1] == 1 && w->stride[2] == 1;
		/* a flat band of about DIRECT_FLAT outputs a row */
		int64_t band = flat ? (DIRECT_FLAT + w->ow - 1) / w->ow : 2;
		/* a run of lanes reads lanes * stride values after its first one
		 * (stride 2: 2 lanes - 1, the last load's end) */
		DirectJob job = {w,
				 kc->in[0].data,
				 kc->in[1].data,
				 kc->out[0].data,
				 og / 4 + og % 4,
				 flat ? w->ow + (w->kw - 1) * w->dilation[2]
				      : (runs * lanes - 1) * w->stride[2] +
						 (w->kw - 1) * w->dilation[2] + 2,
				 ((flat && band < w->oh ? band : w->oh) - 1) * w->stride[1] +
					 (w->kh - 1) * w->dilation[1] + 1,
				 (w->od - 1) * w->stride[0] + (w->kd - 1) * w->dilation[0] + 1,
				 NULL,
				 finite,
				 flat,
				 band};
		void *kq = DIRECT_VECTORS && job.finite ? direct_pack(w, job.k, es) : NULL;
		job.kq = kq;
		kernel_parallel_for(w->n * w->groups * w->od * ((w->oh + band - 1) / band) *
					    job.blocks,
				    1 + GRAIN_ROWS / (band * w->ow * window * cg + 1),
				    dt == DT_FLOAT32 ? direct_f32 : direct_f64, &job);
		free(kq);
		return true;
	}
	if (!fits_int(og) || !fits_int(rows) || !fits_int(plane))
		return cpu_too_large(kc, err);
	tile = workspace_tile(rows, plane, es);
	if (!pointwise) {
		col = malloc((size_t)(rows * tile) * es);
		if (!col) {
			*err = xasprintf("'%s': cannot allocate its im2col workspace", kc->name);
			return false;
		}
	}
	for (int64_t n = 0; n < w->n; n++) {
		for (int64_t g = 0; g < w->groups; g++) {
			const char *x = (const char *)kc->in[0].data +
					(size_t)((n * w->c + g * cg) * in_plane) * es;
			const char *k = (const char *)kc->in[1].data + (size_t)(g * og * rows) * es;
			char *y = (char *)kc->out[0].data +
				  (size_t)((n * w->o + g * og) * plane) * es;
			if (pointwise) {
				cpu_gemm(dt, false, false, og, plane, rows, k, rows, x, plane, y,
					 plane);
				continue;
			}
			for (int64_t p0 = 0; p0 < plane; p0 += tile) {
				Im2colJob job = {w,   dt, x,
						 col, p0, plane - p0 < tile ? plane - p0 : tile};
				kernel_parallel_for(rows, 1 + GRAIN_ROWS / job.ncols,
						    dt == DT_FLOAT32 ? im2col_f32 : im2col_f64,
						    &job);
				cpu_gemm(dt, false, false, og, job.ncols, rows, k, rows, col,
					 job.ncols, y + (size_t)p0 * es, plane);
			}
		}
	}
	free(col);
	return true;
}

typedef struct Col2imJob {
	const KernelWindow *w;
	const char *col; /* [og * kd * kh * kw, ncols] for input positions p0.. */
	char *y;         /* the output of this batch item and group: [og, od, oh, ow] */
	int64_t p0, ncols;
} Col2imJob;

/* Scatter-adds the tile into the output channels [begin, end): each
 * channel is written by one thread only. Tap (kz, ky, kx) of input
 * position (iz, iy, ix) adds to output (iz * sz - pz + kz * dz, ..); the
 * tile's positions are walked as segments of input rows, and along a row
 * the positions whose output falls inside are one run (tap_span), added
 * without a bounds test. Each output adds its taps in the order of the
 * taps, then of the positions, as a loop over the tile would. */
#define DEFINE_COL2IM(NAME, T)                                                                     \
	CPU_CLONES static void NAME##_run(T *restrict y, const T *restrict src, int64_t n,         \
					  int64_t sx)                                              \
	{                                                                                          \
		if (sx == 1)                                                                       \
			for (int64_t i = 0; i < n; i++)                                            \
				y[i] += src[i];                                                    \
		else if (sx == 2)                                                                  \
			for (int64_t i = 0; i < n; i++)                                            \
				y[2 * i] += src[i];                                                \
		else                                                                               \
			for (int64_t i = 0; i < n; i++)                                            \
				y[i * sx] += src[i];                                               \
	}                                                                                          \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		Col2imJob *job = vjob;                                                             \
		const KernelWindow *w = job->w;                                                    \
		int64_t window = w->kd * w->kh * w->kw, sx = w->stride[2];                         \
		for (int64_t oc = begin; oc < end; oc++) {                                         \
			T *y = (T *)job->y + oc * w->od * w->oh * w->ow;                           \
			for (int64_t k = 0; k < window; k++) {                                     \
				int64_t kz = k / (w->kh * w->kw), ky = k / w->kw % w->kh,          \
					kx = k % w->kw, xs = kx * w->dilation[2] - w->pad[2], a,   \
					b;                                                         \
				const T *src =                                                     \
					(const T *)job->col + (oc * window + k) * job->ncols;      \
				int64_t iz = job->p0 / (w->h * w->w), iy = job->p0 / w->w % w->h,  \
					ix = job->p0 % w->w;                                       \
				tap_span(xs, sx, w->ow, w->w, &a, &b);                             \
				for (int64_t t = 0; t < job->ncols;) {                             \
					int64_t run = w->w - ix < job->ncols - t ? w->w - ix       \
										 : job->ncols - t; \
					int64_t oz = iz * w->stride[0] - w->pad[0] +               \
						     kz * w->dilation[0];                          \
					int64_t oy = iy * w->stride[1] - w->pad[1] +               \
						     ky * w->dilation[1];                          \
					int64_t s = a > ix ? a : ix,                               \
						e = b < ix + run ? b : ix + run;                   \
					if (oz >= 0 && oz < w->od && oy >= 0 && oy < w->oh &&      \
					    s < e)                                                 \
						NAME##_run(y + (oz * w->oh + oy) * w->ow +         \
								   s * sx + xs,                    \
							   src + t + s - ix, e - s, sx);           \
					t += run;                                                  \
					ix += run;                                                 \
					if (ix == w->w) {                                          \
						ix = 0;                                            \
						if (++iy == w->h) {                                \
							iy = 0;                                    \
							iz++;                                      \
						}                                                  \
					}                                                          \
				}                                                                  \
			}                                                                          \
		}                                                                                  \
	}
DEFINE_COL2IM(col2im_f32, float)
DEFINE_COL2IM(col2im_f64, double)

/* y = sum over input positions of w^T x, scattered: per batch item and
 * group, col = W_g^T [og*kd*kh*kw, cg] x X_g [cg, d*h*w] in column tiles. */
bool kernel_cpu_CONV2D_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	DType dt = kc->in[0].dtype;
	size_t es = dtype_size(dt);
	int64_t window = w->kd * w->kh * w->kw;
	int64_t cg = w->c / w->groups, og = w->o / w->groups, rows = og * window;
	int64_t plane = w->d * w->h * w->w, out_plane = w->od * w->oh * w->ow, tile;
	char *col;
	if (!cpu_blas_dtype(kc, err))
		return false;
	memset(kc->out[0].data, 0, kc->out[0].nbytes);
	if (kc->out[0].count == 0 || plane == 0)
		return true;
	if (!fits_int(rows) || !fits_int(plane) || !fits_int(cg))
		return cpu_too_large(kc, err);
	tile = workspace_tile(rows, plane, es);
	col = malloc((size_t)(rows * tile) * es);
	if (!col) {
		*err = xasprintf("'%s': cannot allocate its col2im workspace", kc->name);
		return false;
	}
	for (int64_t n = 0; n < w->n; n++) {
		for (int64_t g = 0; g < w->groups; g++) {
			const char *x = (const char *)kc->in[0].data +
					(size_t)((n * w->c + g * cg) * plane) * es;
			const char *k = (const char *)kc->in[1].data + (size_t)(g * cg * rows) * es;
			char *y = (char *)kc->out[0].data +
				  (size_t)((n * w->o + g * og) * out_plane) * es;
			for (int64_t p0 = 0; p0 < plane; p0 += tile) {
				Col2imJob job = {w, col, y, p0,
						 plane - p0 < tile ? plane - p0 : tile};
				cpu_gemm(dt, true, false, rows, job.ncols, cg, k, rows,
					 x + (size_t)p0 * es, plane, col, job.ncols);
				kernel_parallel_for(og, 1 + GRAIN_ROWS / (job.ncols * window),
						    dt == DT_FLOAT32 ? col2im_f32 : col2im_f64,
						    &job);
			}
		}
	}
	free(col);
	return true;
}

KERNEL_CPU_VIA(CONV1D, kernel_cpu_CONV2D)
KERNEL_CPU_VIA(CONV3D, kernel_cpu_CONV2D)
KERNEL_CPU_VIA(CONV1D_TRANSPOSE, kernel_cpu_CONV2D_TRANSPOSE)
KERNEL_CPU_VIA(CONV3D_TRANSPOSE, kernel_cpu_CONV2D_TRANSPOSE)

/* ---- pooling --------------------------------------------------------------- */

/* Output columns per row are computed in multiples of POOL_COLUMNS (the
 * widest vector's floats), so that the row loops have no remainder. */
enum { POOL_COLUMNS = 16 };

typedef struct PoolJob {
	const KernelCall *kc;
	bool is_max;
	/* per output position of each dimension (od, then oh, then ow
	 * entries): the window's positions inside the input and inside the
	 * padded input */
	int64_t *in, *padded;
	double *count_x; /* the width's counts the average divides by, as doubles */
	float *count_xf; /* and as floats */
	bool x_empty;    /* some output column's window holds no input */
	/* the window over the input's rows padded to wp columns (pad columns
	 * before the row, the rest after): no padding, owp >= ow outputs a
	 * row, a multiple of POOL_COLUMNS; its spans (all of [0, owp)) */
	KernelWindow pw;
	int64_t wp;
	RowSpans sp;
	/* the maximum reads the input's rows as they are (copying them
	 * costs it more than the remainders do), by the spans of the window
	 * over them */
	RowSpans sp_in;
	/* average pooling of strides 1 in height and width (avg_flat_f32):
	 * the padded planes' rows and columns (flat_hp 0: not taken), the
	 * counts of each output (od * oh rows of flat_wp) as doubles and floats */
	int64_t flat_hp, flat_wp;
	double *flat_cnt;
	float *flat_cntf;
} PoolJob;

/* Whether position i of a dimension of extent n, with pad before and
 * pad_end after, is inside the input (in) and inside the padded input. */
static inline bool inside(int64_t i, int64_t n)
{
	return i >= 0 && i < n;
}
static inline bool inside_padded(int64_t i, int64_t n, int64_t pad, int64_t pad_end)
{
	return i >= -pad && i < n + pad_end;
}

/* Of the kernel taps start + k * dilation (k < taps) of one dimension, how
 * many fall inside the input (*in) and inside the padded input (*padded). */
static inline void window_counts(int64_t start, int64_t taps, int64_t dilation, int64_t n,
				 int64_t pad, int64_t pad_end, int64_t *in, int64_t *padded)
{
	*in = *padded = 0;
	for (int64_t k = 0; k < taps; k++) {
		int64_t i = start + k * dilation;
		*in += inside(i, n);
		*padded += inside_padded(i, n, pad, pad_end);
	}
}

/* The rows of plane x (d * h rows of w) copied into rows of wp columns,
 * pad columns of fill before each and fill after it: fill, -inf for the
 * maximum and 0 for the sum, leaves any merge unchanged (-inf is never
 * greater, nor a NaN; a sum starting at +0 is never -0, and +0 added to
 * any other value is that value), so the padded row is merged as the
 * input's taps alone would be. */
#define DEFINE_POOL_PAD(NAME, T)                                                                \
	CPU_CLONES static void NAME(const KernelWindow *w, const T *restrict x, T *restrict pp, \
				    int64_t wp, T fill)                                         \
	{                                                                                       \
		int64_t pad = w->pad[2];                                                        \
		for (int64_t r = 0; r < w->d * w->h; r++) {                                     \
			T *restrict dst = pp + r * wp;                                          \
			for (int64_t j = 0; j < pad; j++)                                       \
				dst[j] = fill;                                                  \
			memcpy(dst + pad, x + r * w->w, (size_t)w->w * sizeof(T));              \
			for (int64_t j = pad + w->w; j < wp; j++)                               \
				dst[j] = fill;                                                  \
		}                                                                               \
	}
DEFINE_POOL_PAD(pool_pad_f32, float)
DEFINE_POOL_PAD(pool_pad_f64, double)

/* One output row (oz, oy) of a plane: acc merges (MERGE_MAX or
 * MERGE_SUM) the window's rows inside the input in the order kz, ky, each
 * row's kx taps by TAPS, so every output merges its taps in the order a
 * loop over its window would; one call per output row, as wide as the
 * CPU's vectors (CPU_CLONES). pw: the window over the rows pp, wp apart:
 * the input's (pw is w; the taps' spans keep to the row, no tap costs a
 * bounds test) or the padded ones (pool_padded_window: every tap runs
 * over all of [0, owp), the padding merging nothing). */
#define DEFINE_POOL_ROW(NAME, T, ACC, TAPS)                                                       \
	CPU_CLONES static void NAME(const KernelWindow *w, const KernelWindow *pw,                \
				    const RowSpans *sp, const T *restrict pp, int64_t wp,         \
				    ACC *restrict acc, int64_t oz, int64_t oy)                    \
	{                                                                                         \
		for (int64_t kz = 0; kz < w->kd; kz++) {                                          \
			int64_t iz = oz * w->stride[0] - w->pad[0] + kz * w->dilation[0];         \
			if (iz < 0 || iz >= w->d)                                                 \
				continue;                                                         \
			for (int64_t ky = 0; ky < w->kh; ky++) {                                  \
				int64_t iy = oy * w->stride[1] - w->pad[1] + ky * w->dilation[1]; \
				if (iy < 0 || iy >= w->h)                                         \
					continue;                                                 \
				TAPS(pw, sp, pp + (iz * w->h + iy) * wp, acc, NULL);              \
			}                                                                         \
		}                                                                                 \
	}
DEFINE_POOL_ROW(sum_row_f32, float, float, sum_taps_f32)
DEFINE_POOL_ROW(sum_row_f64, double, double, sum_taps_f64)

/* A max pooling's output row from acc: the window's maximum, or LOWEST
 * where it holds no input (TVM pads with it): all of the row when the
 * rows of the window hold none (!zy), else the columns whose windows
 * hold none (x_empty: some do; in_x: the inputs of each column's). */
#define DEFINE_MAX_FINISH(NAME, T, LOWEST)                                                    \
	CPU_CLONES static void NAME(const T *restrict acc, bool zy, bool x_empty,             \
				    const int64_t *restrict in_x, T *restrict out, int64_t n) \
	{                                                                                     \
		if (!zy)                                                                      \
			for (int64_t i = 0; i < n; i++)                                       \
				out[i] = LOWEST;                                              \
		else if (x_empty)                                                             \
			for (int64_t i = 0; i < n; i++)                                       \
				out[i] = in_x[i] == 0 ? LOWEST : acc[i];                      \
		else                                                                          \
			for (int64_t i = 0; i < n; i++)                                       \
				out[i] = acc[i];                                              \
	}
DEFINE_MAX_FINISH(max_finish_f32, float, -FLT_MAX)
DEFINE_MAX_FINISH(max_finish_f64, double, -DBL_MAX)

/* acc[i] merged with rows[0][i], ..., rows[n - 1][i] (n <= 3) in that
 * order, MERGE_MAX. */
#define DEFINE_MAX_MERGE(NAME, T)                                                      \
	ROW_INLINE void NAME(T *restrict acc, const T *const *rows, int n, int64_t ow) \
	{                                                                              \
		const T *restrict h0 = rows[0], *restrict h1 = rows[n > 1 ? 1 : 0],    \
				  *restrict h2 = rows[n > 2 ? 2 : 0];                  \
		if (n == 3)                                                            \
			for (int64_t i = 0; i < ow; i++) {                             \
				T a = acc[i];                                          \
				MERGE_MAX(a, h0[i], 0);                                \
				MERGE_MAX(a, h1[i], 0);                                \
				MERGE_MAX(a, h2[i], 0);                                \
				acc[i] = a;                                            \
			}                                                              \
		else if (n == 2)                                                       \
			for (int64_t i = 0; i < ow; i++) {                             \
				T a = acc[i];                                          \
				MERGE_MAX(a, h0[i], 0);                                \
				MERGE_MAX(a, h1[i], 0);                                \
				acc[i] = a;                                            \
			}                                                              \
		else if (n == 1)                                                       \
			for (int64_t i = 0; i < ow; i++)                               \
				MERGE_MAX(acc[i], h0[i], 0);                           \
	}
DEFINE_MAX_MERGE(max_merge_f32, float)
DEFINE_MAX_MERGE(max_merge_f64, double)

/* out[i] = rows[0][i] merged with rows[1][i] and rows[2][i] (MERGE_MAX):
 * the same bits as merging all three into -inf, as -inf merged with v is
 * v (v > -inf, or v is -inf, or a NaN that wins). */
#define DEFINE_MAX_MERGE3(NAME, T)                                                              \
	ROW_INLINE void NAME(T *restrict out, const T *const *rows, int64_t ow)                 \
	{                                                                                       \
		const T *restrict h0 = rows[0], *restrict h1 = rows[1], *restrict h2 = rows[2]; \
		for (int64_t i = 0; i < ow; i++) {                                              \
			T a = h0[i];                                                            \
			MERGE_MAX(a, h1[i], 0);                                                 \
			MERGE_MAX(a, h2[i], 0);                                                 \
			out[i] = a;                                                             \
		}                                                                               \
	}
DEFINE_MAX_MERGE3(max_merge3_f32, float)
DEFINE_MAX_MERGE3(max_merge3_f64, double)

/* Sets row a[0, n) to -inf. */
#define MAX_FILL(a, n)                               \
	do {                                         \
		for (int64_t i_ = 0; i_ < (n); i_++) \
			(a)[i_] = -INFINITY;         \
	} while (0)

/* A max pooling's plane x (d * h rows of w) into y, separably: each input
 * row's maximum over the window's width (its kw taps in the order kx,
 * TAPS from -inf) computed once into a slot of ring, kept while the next
 * output rows need it (slot: iz mod kd * dz, iy mod kh * dy, distinct
 * within an output row's window; tag: the input row each slot holds, -1
 * none), then those rows merged into acc in the order kz, ky (MERGE),
 * three at a time, or, where the window has three rows and every column
 * an input, straight into the output row (MERGE3). The same bits as
 * merging the window's taps in the order kz, ky, kx: the maximum M is the
 * same; the first value equal to M in that order (-0 and +0 tie) lies in
 * the first row holding one, which is that row's maximum, and rows before
 * it are below M, so the first row equal to M stays; a NaN wins, and the
 * last in that order is the last row's holding one, that row's last. */
#define DEFINE_MAX_PLANE(NAME, T, TAPS, MERGE, MERGE3, FINISH)                                    \
	CPU_CLONES static void NAME(const PoolJob *job, const T *restrict x, T *restrict y,       \
				    T *restrict ring, int64_t *restrict tag, T *restrict acc)     \
	{                                                                                         \
		const KernelWindow *w = &job->kc->p.window;                                       \
		const int64_t *in = job->in, *in_y = in + w->od, *in_x = in_y + w->oh;            \
		int64_t ow = w->ow, sz = w->kd * w->dilation[0], sh = w->kh * w->dilation[1];     \
		for (int64_t i = 0; i < sz * sh; i++)                                             \
			tag[i] = -1;                                                              \
		for (int64_t oz = 0; oz < w->od; oz++)                                            \
			for (int64_t oy = 0; oy < w->oh; oy++) {                                  \
				const T *rows[3];                                                 \
				int n = 0;                                                        \
				bool merged = false;                                              \
				T *out = y + (oz * w->oh + oy) * ow;                              \
				for (int64_t kz = 0; kz < w->kd; kz++) {                          \
					int64_t iz = oz * w->stride[0] - w->pad[0] +              \
						     kz * w->dilation[0];                         \
					if (iz < 0 || iz >= w->d)                                 \
						continue;                                         \
					for (int64_t ky = 0; ky < w->kh; ky++) {                  \
						int64_t iy = oy * w->stride[1] - w->pad[1] +      \
							     ky * w->dilation[1];                 \
						int64_t r = iz * w->h + iy,                       \
							slot = iz % sz * sh + iy % sh;            \
						T *h;                                             \
						if (iy < 0 || iy >= w->h)                         \
							continue;                                 \
						h = ring + slot * ow;                             \
						if (tag[slot] != r) {                             \
							MAX_FILL(h, ow);                          \
							TAPS(w, &job->sp_in, x + r * w->w, h,     \
							     NULL);                               \
							tag[slot] = r;                            \
						}                                                 \
						if (n == 3) {                                     \
							if (!merged)                              \
								MAX_FILL(acc, ow);                \
							MERGE(acc, rows, 3, ow);                  \
							merged = true;                            \
							n = 0;                                    \
						}                                                 \
						rows[n++] = h;                                    \
					}                                                         \
				}                                                                 \
				if (n == 3 && !merged && !job->x_empty) {                         \
					MERGE3(out, rows, ow); /* the common case */              \
					continue;                                                 \
				}                                                                 \
				if (!merged)                                                      \
					MAX_FILL(acc, ow);                                        \
				if (n > 0)                                                        \
					MERGE(acc, rows, n, ow);                                  \
				FINISH(acc, in[oz] * in_y[oy] != 0, job->x_empty, in_x, out, ow); \
			}                                                                         \
	}
DEFINE_MAX_PLANE(max_plane_f32, float, max_taps_f32, max_merge_f32, max_merge3_f32, max_finish_f32)
DEFINE_MAX_PLANE(max_plane_f64, double, max_taps_f64, max_merge_f64, max_merge3_f64, max_finish_f64)

/* An average pooling's output row: out[ox] = sum[ox] / (zy * cx[ox]),
 * the count the product of the height's (and depth's) and the width's, or
 * 0 when it is 0; in the dtype, as topi divides its sum by the count cast
 * to it (the product of two counts below 2^24 rounds as the cast of the
 * integer product does). */
#define DEFINE_AVG_FINISH(NAME, T)                                                     \
	CPU_CLONES static void NAME(const T *restrict sum, T zy, const T *restrict cx, \
				    T *restrict out, int64_t n)                        \
	{                                                                              \
		for (int64_t i = 0; i < n; i++) {                                      \
			T count = zy * cx[i];                                          \
			out[i] = count != 0 ? sum[i] / count : 0;                      \
		}                                                                      \
	}
DEFINE_AVG_FINISH(avg_finish_f32, float)
DEFINE_AVG_FINISH(avg_finish_f64, double)

/* An average pooling of strides 1 in height and width, a plane at a
 * time as one long run: plane x's rows copied (pool_flat_pad) into hp
 * rows of wp columns of zeros (all of the height's padding and the
 * width's, so no tap needs a bound), output (oz, oy, ox) is acc[oy * wp +
 * ox] and its tap (kz, ky, kx) reads pp[iz's plane + oy * wp + ox + ky *
 * dy * wp + kx * dx]: every tap is the same shift of the run [0, oh * wp),
 * which vectorises with no remainder per row (the wp - ow columns past
 * each row's end are computed and dropped). Each output adds its taps in
 * the order kz, ky, kx from 0 (a zero tap adds nothing: the sum starts at
 * +0 and is never -0), then divides by cnt (the count, 1 past the row's
 * end) as avg_finish does. */
#define DEFINE_AVG_FLAT(NAME, T)                                                                  \
	CPU_CLONES static void NAME(const KernelWindow *w, const T *restrict x, T *restrict pp,   \
				    T *restrict acc, const T *restrict cnt, int64_t hp,           \
				    int64_t wp, T *restrict y)                                    \
	{                                                                                         \
		int64_t n = w->oh * wp, dy = w->dilation[1] * wp, dx = w->dilation[2];            \
		for (int64_t z = 0; z < w->d; z++)                                                \
			for (int64_t r = 0; r < hp; r++) {                                        \
				T *restrict dst = pp + (z * hp + r) * wp;                         \
				int64_t iy = r - w->pad[1], j = 0;                                \
				if (iy >= 0 && iy < w->h) {                                       \
					for (; j < w->pad[2]; j++)                                \
						dst[j] = 0;                                       \
					memcpy(dst + j, x + (z * w->h + iy) * w->w,               \
					       (size_t)w->w * sizeof(T));                         \
					j += w->w;                                                \
				}                                                                 \
				for (; j < wp; j++)                                               \
					dst[j] = 0;                                               \
			}                                                                         \
		for (int64_t oz = 0; oz < w->od; oz++) {                                          \
			const T *restrict c = cnt + oz * n;                                       \
			bool first = true, divided = false, last = w->kd == 1;                    \
			for (int64_t kz = 0; kz < w->kd; kz++) {                                  \
				int64_t iz = oz * w->stride[0] - w->pad[0] + kz * w->dilation[0]; \
				const T *restrict s = pp + iz * hp * wp;                          \
				if (iz < 0 || iz >= w->d)                                         \
					continue;                                                 \
				if (w->kh == 3 && w->kw == 3) {                                   \
					const T *restrict s1 = s + dy, *restrict s2 = s + 2 * dy; \
					for (int64_t p = 0; p < n; p++) {                         \
						T a = first ? 0 : acc[p];                         \
						a += s[p];                                        \
						a += s[p + dx];                                   \
						a += s[p + 2 * dx];                               \
						a += s1[p];                                       \
						a += s1[p + dx];                                  \
						a += s1[p + 2 * dx];                              \
						a += s2[p];                                       \
						a += s2[p + dx];                                  \
						a += s2[p + 2 * dx];                              \
						acc[p] = !last ? a : c[p] != 0 ? a / c[p] : 0;    \
					}                                                         \
					first = false;                                            \
					divided = last;                                           \
					continue;                                                 \
				}                                                                 \
				for (int64_t ky = 0; ky < w->kh; ky++)                            \
					for (int64_t kx = 0; kx < w->kw; kx++) {                  \
						const T *restrict t = s + ky * dy + kx * dx;      \
						if (first)                                        \
							for (int64_t p = 0; p < n; p++)           \
								acc[p] = (T)0 + t[p];             \
						else                                              \
							for (int64_t p = 0; p < n; p++)           \
								acc[p] += t[p];                   \
						first = false;                                    \
					}                                                         \
			}                                                                         \
			if (first)                                                                \
				for (int64_t p = 0; p < n; p++)                                   \
					acc[p] = 0;                                               \
			for (int64_t p = 0; !divided && p < n; p++)                               \
				acc[p] = c[p] != 0 ? acc[p] / c[p] : 0;                           \
			for (int64_t oy = 0; oy < w->oh; oy++)                                    \
				memcpy(y + (oz * w->oh + oy) * w->ow, acc + oy * wp,              \
				       (size_t)w->ow * sizeof(T));                                \
		}                                                                                 \
	}
DEFINE_AVG_FLAT(avg_flat_f32, float)
DEFINE_AVG_FLAT(avg_flat_f64, double)

/* Window positions inside the input add to the value; with
 * count_include_pad the average divides by the positions inside the padded
 * input, else by those inside the input (TVM's pool semantics). Computed
 * in the dtype: the maximum separably by planes (max_plane_f32), the sum
 * (topi's pool_sum, in the order kz, ky, kx, from 0) over
 * each plane's padded rows (pool_pad_f32), divided in the dtype. Both counts are products
 * of per-dimension counts, computed once per call (pool_kernel). */
#define DEFINE_POOL(NAME, T, PAD, MAX_PLANE, SUM_ROW, FINISH, COUNT_X, FLAT, FLAT_CNT)             \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                   \
	{                                                                                          \
		const PoolJob *job = vjob;                                                         \
		const KernelCall *kc = job->kc;                                                    \
		const KernelWindow *w = &kc->p.window;                                             \
		int64_t out_plane = w->od * w->oh * w->ow, wp = job->wp, owp = job->pw.ow;         \
		const int64_t *in = job->in, *in_y = in + w->od;                                   \
		const int64_t *padded = job->padded, *padded_y = padded + w->od;                   \
		T *acc = xmalloc((size_t)owp * sizeof(T)), *pp;                                    \
		if (job->is_max) {                                                                 \
			int64_t slots = w->kd * w->dilation[0] * w->kh * w->dilation[1];           \
			T *ring = xmalloc((size_t)(slots * w->ow + 1) * sizeof(T));                \
			int64_t *tag = xmalloc((size_t)slots * sizeof(int64_t));                   \
			for (int64_t plane = begin; plane < end; plane++)                          \
				MAX_PLANE(job,                                                     \
					  (const T *)kc->in[0].data + plane * w->d * w->h * w->w,  \
					  (T *)kc->out[0].data + plane * out_plane, ring, tag,     \
					  acc);                                                    \
			free(ring);                                                                \
			free(tag);                                                                 \
			free(acc);                                                                 \
			return;                                                                    \
		}                                                                                  \
		if (job->flat_hp) {                                                                \
			int64_t hp = job->flat_hp, fwp = job->flat_wp;                             \
			size_t room =                                                              \
				(size_t)(w->d * hp * fwp + (w->kw - 1) * w->dilation[2] + 1);      \
			pp = xmalloc(room * sizeof(T));                                            \
			for (size_t i = (size_t)(w->d * hp * fwp); i < room; i++)                  \
				pp[i] = 0;                                                         \
			free(acc);                                                                 \
			acc = xmalloc((size_t)(w->oh * fwp) * sizeof(T));                          \
			for (int64_t plane = begin; plane < end; plane++)                          \
				FLAT(w, (const T *)kc->in[0].data + plane * w->d * w->h * w->w,    \
				     pp, acc, job->FLAT_CNT, hp, fwp,                              \
				     (T *)kc->out[0].data + plane * out_plane);                    \
			free(acc);                                                                 \
			free(pp);                                                                  \
			return;                                                                    \
		}                                                                                  \
		pp = xmalloc((size_t)(w->d * w->h * wp + 1) * sizeof(T));                          \
		for (int64_t plane = begin; plane < end; plane++) {                                \
			const T *x = (const T *)kc->in[0].data + plane * w->d * w->h * w->w;       \
			T *y = (T *)kc->out[0].data + plane * out_plane;                           \
			PAD(w, x, pp, wp, (T)0);                                                   \
			for (int64_t oz = 0; oz < w->od; oz++)                                     \
				for (int64_t oy = 0; oy < w->oh; oy++) {                           \
					T *out = y + (oz * w->oh + oy) * w->ow;                    \
					int64_t in_zy = in[oz] * in_y[oy],                         \
						padded_zy = padded[oz] * padded_y[oy];             \
					for (int64_t ox = 0; ox < owp; ox++)                       \
						acc[ox] = 0;                                       \
					SUM_ROW(w, &job->pw, &job->sp, pp, wp, acc, oz, oy);       \
					FINISH(acc, (T)(w->count_include_pad ? padded_zy : in_zy), \
					       job->COUNT_X, out, w->ow);                          \
				}                                                                  \
		}                                                                                  \
		free(acc);                                                                         \
		free(pp);                                                                          \
	}
DEFINE_POOL(pool_f32, float, pool_pad_f32, max_plane_f32, sum_row_f32, avg_finish_f32, count_xf,
	    avg_flat_f32, flat_cntf)
DEFINE_POOL(pool_f64, double, pool_pad_f64, max_plane_f64, sum_row_f64, avg_finish_f64, count_x,
	    avg_flat_f64, flat_cnt)

/* The window over rows padded to *wp columns: no padding, the output
 * row rounded up to POOL_COLUMNS and the padded row long enough for the
 * last column's last tap and for pad + the row. */
static void pool_padded_window(const KernelWindow *w, KernelWindow *pw, int64_t *wp)
{
	int64_t owp = (w->ow + POOL_COLUMNS - 1) / POOL_COLUMNS * POOL_COLUMNS;
	*pw = *w;
	pw->ow = owp;
	pw->pad[2] = pw->pad_end[2] = 0;
	*wp = (owp - 1) * w->stride[2] + (w->kw - 1) * w->dilation[2] + 1;
	if (*wp < w->pad[2] + w->w)
		*wp = w->pad[2] + w->w;
	pw->w = *wp;
}

/* avg_flat_f32's planes (stride 1 in height and width): hp rows of wp
 * columns, enough for every tap of every output and for the padded
 * input, and the count of each output, zy * cx as avg_finish has it (1
 * in the columns past the row's end). */
static void pool_flat_counts(PoolJob *job, const KernelWindow *w)
{
	int64_t hp = w->oh + (w->kh - 1) * w->dilation[1],
		wp = w->ow + (w->kw - 1) * w->dilation[2];
	const int64_t *in_y = job->in + w->od, *padded_y = job->padded + w->od;
	hp = hp > w->pad[1] + w->h ? hp : w->pad[1] + w->h;
	wp = wp > w->pad[2] + w->w ? wp : w->pad[2] + w->w;
	job->flat_hp = hp;
	job->flat_wp = wp;
	job->flat_cnt = xmalloc((size_t)(w->od * w->oh * wp) * sizeof(double));
	job->flat_cntf = xmalloc((size_t)(w->od * w->oh * wp) * sizeof(float));
	for (int64_t oz = 0; oz < w->od; oz++)
		for (int64_t oy = 0; oy < w->oh; oy++) {
			int64_t zy = w->count_include_pad ? job->padded[oz] * padded_y[oy]
							  : job->in[oz] * in_y[oy];
			double *c = job->flat_cnt + (oz * w->oh + oy) * wp;
			float *cf = job->flat_cntf + (oz * w->oh + oy) * wp;
			for (int64_t ox = 0; ox < wp; ox++) {
				c[ox] = ox < w->ow ? (double)zy * job->count_x[ox] : 1;
				cf[ox] = ox < w->ow ? (float)zy * job->count_xf[ox] : 1;
			}
		}
}

static bool pool_kernel(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	PoolJob job = {0};
	int64_t grain = 1 + GRAIN_ROWS / (w->od * w->oh * w->ow * w->kd * w->kh * w->kw + 1);
	int64_t n = w->od + w->oh + w->ow;
	int64_t *in_y, *in_x, *padded_y, *padded_x;
	bool ok;
	job.kc = kc;
	job.is_max = kc->op == OP_MAX_POOL1D || kc->op == OP_MAX_POOL2D || kc->op == OP_MAX_POOL3D;
	job.in = xmalloc(2 * (size_t)(n + 1) * sizeof(int64_t));
	job.count_x = xmalloc((size_t)(w->ow + 1) * sizeof(double));
	job.count_xf = xmalloc((size_t)(w->ow + 1) * sizeof(float));
	pool_padded_window(w, &job.pw, &job.wp);
	row_spans_init(&job.sp, &job.pw);
	row_spans_init(&job.sp_in, w);
	job.padded = job.in + n;
	in_y = job.in + w->od;
	in_x = in_y + w->oh;
	padded_y = job.padded + w->od;
	padded_x = padded_y + w->oh;
	for (int64_t i = 0; i < w->od; i++)
		window_counts(i * w->stride[0] - w->pad[0], w->kd, w->dilation[0], w->d, w->pad[0],
			      w->pad_end[0], &job.in[i], &job.padded[i]);
	for (int64_t i = 0; i < w->oh; i++)
		window_counts(i * w->stride[1] - w->pad[1], w->kh, w->dilation[1], w->h, w->pad[1],
			      w->pad_end[1], &in_y[i], &padded_y[i]);
	for (int64_t i = 0; i < w->ow; i++)
		window_counts(i * w->stride[2] - w->pad[2], w->kw, w->dilation[2], w->w, w->pad[2],
			      w->pad_end[2], &in_x[i], &padded_x[i]);
	for (int64_t i = 0; i < w->ow; i++) {
		job.count_x[i] = (double)(w->count_include_pad ? padded_x[i] : in_x[i]);
		job.count_xf[i] = (float)job.count_x[i];
		job.x_empty = job.x_empty || in_x[i] == 0;
	}
	if (!job.is_max && w->stride[1] == 1 && w->stride[2] == 1)
		pool_flat_counts(&job, w);
	ok = cpu_run_float(kc, w->n * w->c, grain, pool_f32, pool_f64, &job, err);
	free(job.flat_cnt);
	free(job.flat_cntf);
	free(job.in);
	free(job.count_x);
	free(job.count_xf);
	free(job.sp.x0);
	free(job.sp_in.x0);
	return ok;
}

KERNEL_CPU_VIA(MAX_POOL1D, pool_kernel)
KERNEL_CPU_VIA(MAX_POOL3D, pool_kernel)
KERNEL_CPU_VIA(AVG_POOL1D, pool_kernel)
KERNEL_CPU_VIA(AVG_POOL3D, pool_kernel)
KERNEL_CPU_VIA(MAX_POOL2D, pool_kernel)
KERNEL_CPU_VIA(AVG_POOL2D, pool_kernel)

/* ---- adaptive pooling ------------------------------------------------------ */

/* Output position i of out over an input extent of in covers [start, end)
 * with TVM's start = floor(i * in / out), end = ceil((i + 1) * in / out). */
static inline int64_t adaptive_start(int64_t i, int64_t in, int64_t out)
{
	return i * in / out;
}
static inline int64_t adaptive_end(int64_t i, int64_t in, int64_t out)
{
	return ((i + 1) * in + out - 1) / out;
}

/* Max or average over each output position's window, in the dtype (topi's
 * adaptive_pool: the sum from 0 in the order z, y, x, divided by the
 * window's size cast to the dtype); the max starts from the dtype's lowest
 * value (TVM's min_value), a NaN wins. */
#define DEFINE_ADAPTIVE(NAME, T, LOWEST)                                                       \
	static void NAME(void *vjob, int64_t begin, int64_t end)                               \
	{                                                                                      \
		const PoolJob *job = vjob;                                                     \
		const KernelCall *kc = job->kc;                                                \
		const KernelWindow *w = &kc->p.window;                                         \
		int64_t out_plane = w->od * w->oh * w->ow;                                     \
		for (int64_t plane = begin; plane < end; plane++) {                            \
			const T *x = (const T *)kc->in[0].data + plane * w->d * w->h * w->w;   \
			T *y = (T *)kc->out[0].data + plane * out_plane;                       \
			for (int64_t o = 0; o < out_plane; o++) {                              \
				int64_t oz = o / (w->oh * w->ow), oy = o / w->ow % w->oh,      \
					ox = o % w->ow;                                        \
				int64_t z0 = adaptive_start(oz, w->d, w->od),                  \
					z1 = adaptive_end(oz, w->d, w->od);                    \
				int64_t y0 = adaptive_start(oy, w->h, w->oh),                  \
					y1 = adaptive_end(oy, w->h, w->oh);                    \
				int64_t x0 = adaptive_start(ox, w->w, w->ow),                  \
					x1 = adaptive_end(ox, w->w, w->ow);                    \
				T acc = job->is_max ? LOWEST : 0;                              \
				for (int64_t iz = z0; iz < z1; iz++)                           \
					for (int64_t iy = y0; iy < y1; iy++)                   \
						for (int64_t ix = x0; ix < x1; ix++) {         \
							T v = x[(iz * w->h + iy) * w->w + ix]; \
							if (!job->is_max)                      \
								acc += v;                      \
							else if (v > acc || v != v)            \
								acc = v;                       \
						}                                              \
				if (!job->is_max)                                              \
					acc /= (T)((z1 - z0) * (y1 - y0) * (x1 - x0));         \
				y[o] = acc;                                                    \
			}                                                                      \
		}                                                                              \
	}
DEFINE_ADAPTIVE(adaptive_f32, float, -FLT_MAX)
DEFINE_ADAPTIVE(adaptive_f64, double, -DBL_MAX)

/* A global pooling (an output of 1 x 1) by blocks of GLOBAL_PLANES planes,
 * each plane's sum (or maximum) in its own accumulator, so that the
 * planes' chains of additions overlap; each plane merges its elements in
 * order, as the loop above would. */
enum { GLOBAL_PLANES = 8 };

/* Elements per thread of a global pooling: an addition an element, read
 * once, is cheaper than waking a thread for less (rw_resnet50's 2048 x 7
 * x 7 at 2 threads: 49 us of busy time split, 31 us on one) */
enum { GLOBAL_GRAIN = 4 * GRAIN_ELEMENTWISE };

#define DEFINE_GLOBAL_BLOCK(NAME, T, LOWEST)                                                       \
	ROW_INLINE void NAME(const T *restrict x, T *restrict y, int64_t size, bool is_max, int m) \
	{                                                                                          \
		T acc[GLOBAL_PLANES];                                                              \
		for (int j = 0; j < m; j++)                                                        \
			acc[j] = is_max ? LOWEST : 0;                                              \
		if (is_max)                                                                        \
			for (int64_t i = 0; i < size; i++)                                         \
				for (int j = 0; j < m; j++) {                                      \
					T v = x[j * size + i];                                     \
					acc[j] = v > acc[j] || v != v ? v : acc[j];                \
				}                                                                  \
		else                                                                               \
			for (int64_t i = 0; i < size; i++)                                         \
				for (int j = 0; j < m; j++)                                        \
					acc[j] += x[j * size + i];                                 \
		for (int j = 0; j < m; j++)                                                        \
			y[j] = is_max ? acc[j] : acc[j] / (T)size;                                 \
	}

/* Over planes [begin, end) of size elements. */
#define DEFINE_GLOBAL(NAME, T, LOWEST)                                                          \
	DEFINE_GLOBAL_BLOCK(NAME##_block, T, LOWEST)                                            \
	CPU_CLONES static void NAME##_planes(const T *restrict x, T *restrict y, int64_t begin, \
					     int64_t end, int64_t size, bool is_max)            \
	{                                                                                       \
		int64_t p = begin;                                                              \
		for (; p + GLOBAL_PLANES <= end; p += GLOBAL_PLANES)                            \
			NAME##_block(x + p * size, y + p, size, is_max, GLOBAL_PLANES);         \
		if (p < end)                                                                    \
			NAME##_block(x + p * size, y + p, size, is_max, (int)(end - p));        \
	}                                                                                       \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                \
	{                                                                                       \
		const PoolJob *job = vjob;                                                      \
		const KernelTensor *in = &job->kc->in[0];                                       \
		NAME##_planes((const T *)in->data, (T *)job->kc->out[0].data, begin, end,       \
			      in->shape[2] * in->shape[3], job->is_max);                        \
	}
DEFINE_GLOBAL(global_f32, float, -FLT_MAX)
DEFINE_GLOBAL(global_f64, double, -DBL_MAX)

/* The adaptive poolings and nn.global_max_pool2d (an adaptive max pooling
 * to 1 x 1, by planes: global_f32). */
static bool adaptive_kernel(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	PoolJob job = {0};
	int64_t size = w->d * w->h * w->w;
	job.kc = kc;
	job.is_max = kc->op == OP_ADAPTIVE_MAX_POOL1D || kc->op == OP_ADAPTIVE_MAX_POOL2D ||
		     kc->op == OP_ADAPTIVE_MAX_POOL3D || kc->op == OP_GLOBAL_MAX_POOL2D;
	if (kc->op == OP_GLOBAL_MAX_POOL2D)
		return cpu_run_float(kc, w->n * w->c, 1 + GLOBAL_GRAIN / (size + 1), global_f32,
				     global_f64, &job, err);
	return cpu_run_float(kc, w->n * w->c, 1 + GRAIN_ROWS / (size + 1), adaptive_f32,
			     adaptive_f64, &job, err);
}

KERNEL_CPU_VIA(GLOBAL_MAX_POOL2D, adaptive_kernel)
KERNEL_CPU_VIA(ADAPTIVE_AVG_POOL1D, adaptive_kernel)
KERNEL_CPU_VIA(ADAPTIVE_AVG_POOL2D, adaptive_kernel)
KERNEL_CPU_VIA(ADAPTIVE_AVG_POOL3D, adaptive_kernel)
KERNEL_CPU_VIA(ADAPTIVE_MAX_POOL1D, adaptive_kernel)
KERNEL_CPU_VIA(ADAPTIVE_MAX_POOL2D, adaptive_kernel)
KERNEL_CPU_VIA(ADAPTIVE_MAX_POOL3D, adaptive_kernel)

/* nn.global_avg_pool2d: float32 and float64 by planes (global_f32),
 * the other float dtypes summed in double. */
bool kernel_cpu_GLOBAL_AVG_POOL2D(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	int64_t planes = in->shape[0] * in->shape[1], size = in->shape[2] * in->shape[3];
	if (in->dtype == DT_FLOAT32 || in->dtype == DT_FLOAT64) {
		PoolJob job = {0};
		job.kc = kc;
		return cpu_run_float(kc, planes, 1 + GLOBAL_GRAIN / (size + 1), global_f32,
				     global_f64, &job, err);
	}
	if (!dtype_is_float(in->dtype))
		return cpu_unsupported(kc, in->dtype, err);
	for (int64_t p = 0; p < planes; p++) {
		double sum = 0;
		for (int64_t i = 0; i < size; i++)
			sum += dtype_load_double(in->data, in->dtype, p * size + i);
		dtype_store_double(kc->out[0].data, in->dtype, p, size ? sum / (double)size : NAN);
	}
	return true;
}
