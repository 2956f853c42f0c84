/*
 * gemm_skinny.c - matrix products with one narrow side, without packing.
 *
 * OpenBLAS's gemm copies ("packs") both operands into its blocked layout on
 * every call. When one side of the product is narrow (n, or m, at most
 * GEMM_SKINNY_MAX) the arithmetic per element of the other, big, operand is that
 * narrow width, so the copy costs about as much as the product: dcgan's first
 * transposed convolution multiplies a 1024 x 8192 weight (32 MB) by a
 * 1024 x 16 input, and sgemm_otcopy took as long as the kernel. Here the big
 * operand is read once, where it lies, and the narrow one (k x n, small) is
 * copied into a zero-padded k x np block.
 *
 * The product computed is C (M x N) = A (M x K) * B (K x N) with N narrow and
 * element (i, kk) of A at a[kk * lda + i]: a column of C's rows is a run of
 * A's memory, so a tile of iv vectors of rows by np columns of C sits in
 * vector registers (iv * np accumulators), each kk loads iv vectors of A and
 * adds each times B[kk][j], broadcast. cpu_gemm sends here the products whose
 * big operand lies that way: op(a) = a^T with n narrow (conv2d_transpose's
 * col = W^T x), and, computing C^T = op(b)^T op(a)^T, op(b) = b with m narrow
 * (a convolution with few output channels). B and C are read and written
 * through element strides.
 *
 * Every element of C is one chain of fused multiply-adds over kk in order,
 * from zero: the AVX-512 and AVX2 kernels use the FMA instruction and the
 * rows past the last whole tile fmaf() and fma(), so every path gives the
 * same bits, whatever the CPU, the tile and the thread count (threads split
 * the tiles of rows); the error is that of a sum of k products (at most
 * gamma_k sum |a||b|, as the tests check). A CPU with neither kernel (or
 * another architecture) leaves these products to OpenBLAS: the scalar loop
 * reads A across its rows, with fmaf() in software.
 *
 * A is read in panels of SKINNY_PANEL bytes of each row, SKINNY_KB rows at
 * a time (skinny_panel below), so that the hardware sees a few ascending
 * runs rather than one line from each of k pages.
 */
#include "kernels_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct SkinnyJob {
	DType dt;
	int64_t m, n, k, lda, sci, scj;
	const void *a;
	const void *bp; /* B, k x np, zero past column n */
	void *c;
	int64_t np, rows; /* the padded width, the rows of a tile */
} SkinnyJob;

/* The tile widths: np columns (1, 2, 4, 8 or 16: n rounded up) by iv
 * vectors of rows, iv * np about 16 accumulators, so that at least 8
 * chains of FMAs (2 units, 4 cycles each) are in flight. */
static int64_t skinny_padded(int64_t n)
{
	int64_t np = 1;
	while (np < n)
		np *= 2;
	return np;
}

static int64_t skinny_iv(int64_t np)
{
	return np >= 16 ? 1 : 16 / np > 8 ? 8 : 16 / np;
}

/* Rows [r0, r1) of C by scalar fused multiply-adds, every column. */
#define DEFINE_SKINNY_SCALAR(NAME, T, FMA)                                                      \
	static void NAME(const SkinnyJob *job, int64_t r0, int64_t r1)                          \
	{                                                                                       \
		const T *a = job->a, *bp = job->bp;                                             \
		T *c = job->c;                                                                  \
		for (int64_t i = r0; i < r1; i++)                                               \
			for (int64_t j = 0; j < job->n; j++) {                                  \
				T s = 0;                                                        \
				for (int64_t kk = 0; kk < job->k; kk++)                         \
					s = FMA(a[kk * job->lda + i], bp[kk * job->np + j], s); \
				c[i * job->sci + j * job->scj] = s;                             \
			}                                                                       \
	}
DEFINE_SKINNY_SCALAR(skinny_scalar_f32, float, fmaf)
DEFINE_SKINNY_SCALAR(skinny_scalar_f64, double, fma)

/* Writes a tile's accumulators (out: np columns of `rows` values) to C's
 * rows i0.. and its first n columns. */
#define DEFINE_SKINNY_STORE(NAME, T)                                                            \
	static void NAME(const SkinnyJob *job, const T *out, int64_t i0)                        \
	{                                                                                       \
		T *c = job->c;                                                                  \
		for (int64_t j = 0; j < job->n; j++)                                            \
			for (int64_t r = 0; r < job->rows; r++)                                 \
				c[(i0 + r) * job->sci + j * job->scj] = out[j * job->rows + r]; \
	}
DEFINE_SKINNY_STORE(skinny_store_f32, float)
DEFINE_SKINNY_STORE(skinny_store_f64, double)

/* The widest kernel allowed (cpu_gemm_skinny_limit): 2 AVX-512, 1 AVX2, 0
 * the scalar loop; whether the scalar loop may take a whole product. */
static int skinny_isa = 2;
static bool skinny_scalar;

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

/* One tile of IV vectors of W rows by NP columns over rows [k0, k0 + kb)
 * of A (a and bp point at row k0): its accumulators in registers (the
 * loops have constant bounds and are unrolled), zero when `first`, else
 * loaded from acc, stored to acc after. pf: the next tile's A, whose lines
 * are prefetched a row at a time, or NULL. */
#define DEFINE_SKINNY_TILE(NAME, ATTR, T, V, W, NP, IV, LOADU, FMADD, SET1, ZERO, STOREU)         \
	ATTR static void NAME(const T *restrict a, int64_t lda, const T *restrict bp, int64_t kb, \
			      T *restrict acc, bool first, const T *pf)                           \
	{                                                                                         \
		V s[IV][NP];                                                                      \
		_Pragma("GCC unroll 16") for (int j = 0; j < NP; j++)                             \
			_Pragma("GCC unroll 16") for (int v = 0; v < IV; v++) s[v][j] =           \
				first ? ZERO() : LOADU(acc + (j * IV + v) * W);                   \
		for (int64_t kk = 0; kk < kb; kk++) {                                             \
			const T *ar = a + kk * lda, *br = bp + kk * NP;                           \
			V av[IV];                                                                 \
			if (pf)                                                                   \
				_Pragma("GCC unroll 16") for (int v = 0; v < IV; v++)             \
					_mm_prefetch((const char *)(pf + kk * lda + v * W),       \
						     _MM_HINT_T0);                                \
			_Pragma("GCC unroll 16") for (int v = 0; v < IV; v++) av[v] =             \
				LOADU(ar + v * W);                                                \
			_Pragma("GCC unroll 16") for (int j = 0; j < NP; j++)                     \
			{                                                                         \
				V b = SET1(br[j]);                                                \
				_Pragma("GCC unroll 16") for (int v = 0; v < IV; v++) s[v][j] =   \
					FMADD(av[v], b, s[v][j]);                                 \
			}                                                                         \
		}                                                                                 \
		_Pragma("GCC unroll 16") for (int j = 0; j < NP; j++)                             \
			_Pragma("GCC unroll 16") for (int v = 0; v < IV; v++)                     \
				STOREU(acc + (j * IV + v) * W, s[v][j]);                          \
	}

#define SKINNY_512 __attribute__((target("avx512f")))
#define SKINNY_256 __attribute__((target("avx2,fma")))

/* the tiles of each width: (np, iv) = (1, 8), (2, 8), (4, 4), (8, 2), (16, 1) */
#define DEFINE_SKINNY_TILES(P, ATTR, T, V, W, LOADU, FMADD, SET1, ZERO, STOREU)             \
	DEFINE_SKINNY_TILE(P##_1, ATTR, T, V, W, 1, 8, LOADU, FMADD, SET1, ZERO, STOREU)    \
	DEFINE_SKINNY_TILE(P##_2, ATTR, T, V, W, 2, 8, LOADU, FMADD, SET1, ZERO, STOREU)    \
	DEFINE_SKINNY_TILE(P##_4, ATTR, T, V, W, 4, 4, LOADU, FMADD, SET1, ZERO, STOREU)    \
	DEFINE_SKINNY_TILE(P##_8, ATTR, T, V, W, 8, 2, LOADU, FMADD, SET1, ZERO, STOREU)    \
	DEFINE_SKINNY_TILE(P##_16, ATTR, T, V, W, 16, 1, LOADU, FMADD, SET1, ZERO, STOREU)  \
	ATTR static void P(const SkinnyJob *job, const void *a, const void *bp, int64_t kb, \
			   void *acc, bool first, const void *pf)                           \
	{                                                                                   \
		switch (job->np) {                                                          \
		case 1:                                                                     \
			P##_1(a, job->lda, bp, kb, acc, first, pf);                         \
			break;                                                              \
		case 2:                                                                     \
			P##_2(a, job->lda, bp, kb, acc, first, pf);                         \
			break;                                                              \
		case 4:                                                                     \
			P##_4(a, job->lda, bp, kb, acc, first, pf);                         \
			break;                                                              \
		case 8:                                                                     \
			P##_8(a, job->lda, bp, kb, acc, first, pf);                         \
			break;                                                              \
		default:                                                                    \
			P##_16(a, job->lda, bp, kb, acc, first, pf);                        \
			break;                                                              \
		}                                                                           \
	}

DEFINE_SKINNY_TILES(skinny512_f32, SKINNY_512, float, __m512, 16, _mm512_loadu_ps, _mm512_fmadd_ps,
		    _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps)
DEFINE_SKINNY_TILES(skinny512_f64, SKINNY_512, double, __m512d, 8, _mm512_loadu_pd, _mm512_fmadd_pd,
		    _mm512_set1_pd, _mm512_setzero_pd, _mm512_storeu_pd)
DEFINE_SKINNY_TILES(skinny256_f32, SKINNY_256, float, __m256, 8, _mm256_loadu_ps, _mm256_fmadd_ps,
		    _mm256_set1_ps, _mm256_setzero_ps, _mm256_storeu_ps)
DEFINE_SKINNY_TILES(skinny256_f64, SKINNY_256, double, __m256d, 4, _mm256_loadu_pd, _mm256_fmadd_pd,
		    _mm256_set1_pd, _mm256_setzero_pd, _mm256_storeu_pd)

typedef void (*SkinnyTileFn)(const SkinnyJob *job, const void *a, const void *bp, int64_t kb,
			     void *acc, bool first, const void *pf);

/* The widest tile kernel this CPU runs (the OS's saved vector state
 * included: __builtin_cpu_supports checks XGETBV), and its vector width
 * in elements; NULL where it has neither. */
static SkinnyTileFn skinny_tile_fn(DType dt, int64_t *lanes)
{
	__builtin_cpu_init();
	if (skinny_isa >= 2 && __builtin_cpu_supports("avx512f")) {
		*lanes = dt == DT_FLOAT32 ? 16 : 8;
		return dt == DT_FLOAT32 ? skinny512_f32 : skinny512_f64;
	}
	if (skinny_isa >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
		*lanes = dt == DT_FLOAT32 ? 8 : 4;
		return dt == DT_FLOAT32 ? skinny256_f32 : skinny256_f64;
	}
	return NULL;
}
#else
typedef void (*SkinnyTileFn)(const SkinnyJob *job, const void *a, const void *bp, int64_t kb,
			     void *acc, bool first, const void *pf);

static SkinnyTileFn skinny_tile_fn(DType dt, int64_t *lanes)
{
	return NULL;
}
#endif

int cpu_gemm_skinny_limit(int isa)
{
	int64_t lanes = 0;
	int have;
	skinny_isa = 2;
	have = !skinny_tile_fn(DT_FLOAT32, &lanes) ? 0 : lanes == 16 ? 2 : 1;
	skinny_isa = isa;
	skinny_scalar = isa == 0;
	return isa < have ? isa : have;
}

bool kernel_cpu_gemm_skinny(void)
{
	int64_t lanes;
	return skinny_tile_fn(DT_FLOAT32, &lanes) || skinny_scalar;
}

typedef struct SkinnyRun {
	const SkinnyJob *job;
	SkinnyTileFn tile; /* NULL: every row by the scalar loop */
} SkinnyRun;

/* The tiles of a panel of A's columns are run a block of SKINNY_KB rows
 * at a time, each tile's accumulators kept in `acc` between blocks: the
 * block's rows are then read SKINNY_PANEL bytes at a time, SKINNY_KB
 * ascending runs that the hardware prefetches, rather than one line from
 * each of k pages (dcgan's 8192 x 16 x 1024 product took 19 ms so, 5-6 ms
 * by panels of 8 KiB, 7-8 ms by panels of 512 bytes, and more with blocks
 * of 32 or 64 rows; OpenBLAS's sgemm 8-10 ms, load 14). Each tile
 * prefetches the next tile's lines. A tile's accumulators take at most
 * SKINNY_TILE bytes (16 x 16 floats). */
enum { SKINNY_KB = 16, SKINNY_PANEL = 8192, SKINNY_TILE = 1024 };

/* The tiles of a panel: SKINNY_PANEL bytes of each row of A, at least one
 * tile; their accumulators take np times as many bytes. */
static int64_t skinny_panel_tiles(const SkinnyJob *job)
{
	int64_t bytes = job->rows * (int64_t)dtype_size(job->dt);
	return bytes >= SKINNY_PANEL ? 1 : SKINNY_PANEL / bytes;
}

static void skinny_panel(const SkinnyRun *run, int64_t i0, int64_t tiles, char *acc)
{
	const SkinnyJob *job = run->job;
	size_t es = dtype_size(job->dt), tile = (size_t)(job->np * job->rows) * es;
	const char *a = job->a, *bp = job->bp;
	for (int64_t k0 = 0; k0 < job->k; k0 += SKINNY_KB) {
		int64_t kb = job->k - k0 < SKINNY_KB ? job->k - k0 : SKINNY_KB;
		for (int64_t t = 0; t < tiles; t++) {
			const char *at = a + (size_t)(k0 * job->lda + i0 + t * job->rows) * es, *pf;
			if (t + 1 < tiles)
				pf = at + (size_t)job->rows * es;
			else if (k0 + kb < job->k)
				pf = a + (size_t)((k0 + kb) * job->lda + i0) * es;
			else
				pf = NULL;
			run->tile(job, at, bp + (size_t)(k0 * job->np) * es, kb,
				  acc + (size_t)t * tile, k0 == 0, pf);
		}
	}
	for (int64_t t = 0; t < tiles; t++) {
		if (job->dt == DT_FLOAT32)
			skinny_store_f32(job, (const float *)(acc + (size_t)t * tile),
					 i0 + t * job->rows);
		else
			skinny_store_f64(job, (const double *)(acc + (size_t)t * tile),
					 i0 + t * job->rows);
	}
}

/* Tiles [begin, end) of rows; the last, partial, one by the scalar loop. */
static void skinny_range(void *ctx, int64_t begin, int64_t end)
{
	const SkinnyRun *run = ctx;
	const SkinnyJob *job = run->job;
	int64_t r0 = begin * job->rows, r1 = end * job->rows;
	_Alignas(64) char one[SKINNY_TILE];
	if (r1 > job->m)
		r1 = job->m;
	if (run->tile) {
		int64_t whole = (r1 - r0) / job->rows, per = skinny_panel_tiles(job);
		char *acc;
		if (per > whole)
			per = whole;
		acc = per > 1 ? malloc((size_t)(per * job->np * job->rows) * dtype_size(job->dt))
			      : NULL;
		if (!acc) /* a tile at a time in `one` */
			per = 1;
		for (int64_t t = 0; t < whole; t += per) {
			int64_t tiles = whole - t < per ? whole - t : per;
			skinny_panel(run, r0 + t * job->rows, tiles, acc ? acc : one);
		}
		free(acc);
		r0 += whole * job->rows;
	}
	if (job->dt == DT_FLOAT32)
		skinny_scalar_f32(job, r0, r1);
	else
		skinny_scalar_f64(job, r0, r1);
}

bool cpu_gemm_skinny(DType dt, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
		     const void *b, int64_t sbk, int64_t sbj, void *c, int64_t sci, int64_t scj)
{
	size_t es = dtype_size(dt);
	int64_t lanes = 1, np = skinny_padded(n);
	SkinnyRun run = {NULL, skinny_tile_fn(dt, &lanes)};
	SkinnyJob job = {dt, m, n, k, lda, sci, scj, a, NULL, c, np, skinny_iv(np) * lanes};
	char *bp;
	/* a CPU without the vector kernels: OpenBLAS rather than the scalar
	 * loop (fmaf in software, and A read across its rows), unless the
	 * tests asked for it */
	if (n < 1 || n > GEMM_SKINNY_MAX || m < 1 || k < 1 || (!run.tile && !skinny_scalar))
		return false;
	bp = calloc((size_t)(k * np), es);
	if (!bp)
		return false;
	for (int64_t kk = 0; kk < k; kk++)
		for (int64_t j = 0; j < n; j++)
			memcpy(bp + (size_t)(kk * np + j) * es,
			       (const char *)b + (size_t)(kk * sbk + j * sbj) * es, es);
	job.bp = bp;
	run.job = &job;
	/* about 2^16 multiply-adds a thread at least */
	kernel_parallel_for((m + job.rows - 1) / job.rows, 1 + (1 << 16) / (job.rows * k * np),
			    skinny_range, &run);
	free(bp);
	return true;
}
