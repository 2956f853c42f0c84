/*
 * cpu_reduce.c - the CPU kernels of the reductions: sum, mean, prod, max,
 * min, all, any, argmax, argmin and variance.
 *
 * The input is seen as kept axes and reduced axes (KernelCall.axes marks
 * the reduced ones; size-1 axes are dropped, and neighbours that stay
 * contiguous merged), and every output element is one walk over the
 * reduced positions: a contiguous run when the reduced axes are innermost
 * (softmax-like rows, the common case), an odometer over their strides
 * otherwise. The operator is chosen once per output row, outside the inner
 * loop. Floats accumulate in double and integers in wrapping 64-bit
 * arithmetic (uint64 is refused); max and min propagate NaN; argmax and argmin give the
 * flattened position among the reduced axes of the first extreme (the last
 * with select_last_index) as int32, TVM's output dtype; variance reads its
 * second operand, the mean, broadcast against the input.
 *
 * float32, the dtype of nearly every real reduction, has fast paths that
 * run at memory speed: a row in one run is reduced with several independent
 * accumulators, and when the reduced axes lie outside a contiguous kept
 * axis (a sum over axis 0, a mean over a batch) a tile of neighbouring
 * outputs is accumulated per reduced position, reading the input in runs
 * rather than one strided column per output. Their sums add 16 values at
 * a time in float (vector additions of four) and those partial sums in
 * double: still far closer to the exact sum than TVM's float32
 * accumulation over the whole row.
 */
#include "kernels_cpu.h"

#include <math.h>
#include <stdlib.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The reduction's geometry: kept and reduced axes with their strides in the
 * input (and, for the kept ones, in variance's mean). */
typedef struct ReducePlan {
	uint32_t nkept, nred;
	int64_t kept_shape[64], kept_stride[64], kept_mean_stride[64];
	int64_t red_shape[64], red_stride[64];
	int64_t red_count;
	bool contiguous; /* the reduced positions of a row are one run */
} ReducePlan;

typedef struct ReduceJob {
	const KernelCall *kc;
	const ReducePlan *p;
} ReduceJob;

/* What one row accumulates. */
typedef struct Acc {
	double d;    /* float operands */
	int64_t i;   /* integer operands */
	int64_t arg; /* argmax, argmin: position of the best so far */
	bool is_float;
} Acc;

static void acc_init(Acc *a, KernelReduce op, bool is_float)
{
	a->is_float = is_float;
	a->arg = 0;
	switch (op) {
	case REDUCE_PROD:
	case REDUCE_ALL:
		a->d = 1;
		a->i = 1;
		break;
	case REDUCE_MAX:
		a->d = -INFINITY;
		a->i = INT64_MIN;
		break;
	case REDUCE_MIN:
		a->d = INFINITY;
		a->i = INT64_MAX;
		break;
	case REDUCE_SUM:
	case REDUCE_MEAN:
	case REDUCE_ANY:
	case REDUCE_ARGMAX:
	case REDUCE_ARGMIN:
	case REDUCE_VARIANCE:
		a->d = 0;
		a->i = 0;
		break;
	}
}

/* The inner loops: UPDATE sees the element's value as `v` (double or
 * int64_t) and its position among the reduced ones as `r`. */
#define REDUCE_WALK(T, LOAD, UPDATE)                                      \
	do {                                                              \
		const T *src = (const T *)in->data;                       \
		if (p->contiguous) {                                      \
			for (int64_t r = 0; r < p->red_count; r++) {      \
				T_VALUE v = LOAD(src[base + r]);          \
				UPDATE;                                   \
			}                                                 \
		} else {                                                  \
			int64_t idx[64] = {0}, off = base;                \
			for (int64_t r = 0; r < p->red_count; r++) {      \
				T_VALUE v = LOAD(src[off]);               \
				UPDATE;                                   \
				for (uint32_t k = p->nred; k-- > 0;) {    \
					off += p->red_stride[k];          \
					if (++idx[k] < p->red_shape[k])   \
						break;                    \
					off -= idx[k] * p->red_stride[k]; \
					idx[k] = 0;                       \
				}                                         \
			}                                                 \
		}                                                         \
	} while (0)

/* One reduction over a row, for operands stored as T and computed as
 * T_VALUE. MEAN and VARIANCE sum here; the caller divides. */
#define REDUCE_ROW(NAME, T, T_VALUE_, LOAD, ACC, ADD, MUL)                                     \
	static void NAME(const KernelTensor *in, const ReducePlan *p, int64_t base,            \
			 KernelReduce op, bool last, double mean, Acc *a)                      \
	{                                                                                      \
		typedef T_VALUE_ T_VALUE;                                                      \
		T_VALUE best = 0;                                                              \
		(void)mean;                                                                    \
		switch (op) {                                                                  \
		case REDUCE_SUM:                                                               \
		case REDUCE_MEAN:                                                              \
			REDUCE_WALK(T, LOAD, ACC = ADD(ACC, v));                               \
			break;                                                                 \
		case REDUCE_PROD:                                                              \
			REDUCE_WALK(T, LOAD, ACC = MUL(ACC, v));                               \
			break;                                                                 \
		case REDUCE_MAX:                                                               \
			REDUCE_WALK(T, LOAD,                                                   \
				    ACC = (ACC != ACC || v > ACC || v != v)                    \
						  ? (ACC != ACC ? ACC : v)                     \
						  : ACC);                                      \
			break;                                                                 \
		case REDUCE_MIN:                                                               \
			REDUCE_WALK(T, LOAD,                                                   \
				    ACC = (ACC != ACC || v < ACC || v != v)                    \
						  ? (ACC != ACC ? ACC : v)                     \
						  : ACC);                                      \
			break;                                                                 \
		case REDUCE_ALL:                                                               \
			REDUCE_WALK(T, LOAD, ACC = ACC && v != 0);                             \
			break;                                                                 \
		case REDUCE_ANY:                                                               \
			REDUCE_WALK(T, LOAD, ACC = ACC || v != 0);                             \
			break;                                                                 \
		case REDUCE_ARGMAX:                                                            \
			REDUCE_WALK(                                                           \
				T, LOAD, if (r == 0 || v > best || (last && v == best)) {      \
					best = v;                                              \
					a->arg = r;                                            \
				});                                                            \
			break;                                                                 \
		case REDUCE_ARGMIN:                                                            \
			REDUCE_WALK(                                                           \
				T, LOAD, if (r == 0 || v < best || (last && v == best)) {      \
					best = v;                                              \
					a->arg = r;                                            \
				});                                                            \
			break;                                                                 \
		case REDUCE_VARIANCE:                                                          \
			REDUCE_WALK(T, LOAD, a->d += ((double)v - mean) * ((double)v - mean)); \
			break;                                                                 \
		}                                                                              \
	}

#define LOAD_PLAIN(x) (x)
#define LOAD_HALF(x) dtype_half_to_float(x)
#define FADD(x, y) ((x) + (y))
#define FMUL(x, y) ((x) * (y))
REDUCE_ROW(row_f32, float, double, LOAD_PLAIN, a->d, FADD, FMUL)
REDUCE_ROW(row_f64, double, double, LOAD_PLAIN, a->d, FADD, FMUL)
REDUCE_ROW(row_f16, uint16_t, double, LOAD_HALF, a->d, FADD, FMUL)
REDUCE_ROW(row_i32, int32_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
REDUCE_ROW(row_i64, int64_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
REDUCE_ROW(row_bool, uint8_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
#define LOAD_BF16(x) dtype_bfloat16_to_float(x)
REDUCE_ROW(row_bf16, uint16_t, double, LOAD_BF16, a->d, FADD, FMUL)
REDUCE_ROW(row_i8, int8_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
REDUCE_ROW(row_u8, uint8_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
REDUCE_ROW(row_i16, int16_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
REDUCE_ROW(row_u16, uint16_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)
REDUCE_ROW(row_u32, uint32_t, int64_t, LOAD_PLAIN, a->i, iadd, imul)

typedef void (*RowFn)(const KernelTensor *in, const ReducePlan *p, int64_t base, KernelReduce op,
		      bool last, double mean, Acc *a);

static RowFn row_fn(DType dt)
{
	switch (dt) {
	case DT_FLOAT32:
		return row_f32;
	case DT_FLOAT64:
		return row_f64;
	case DT_FLOAT16:
		return row_f16;
	case DT_INT32:
		return row_i32;
	case DT_INT64:
		return row_i64;
	case DT_BOOL:
		return row_bool;
	case DT_BFLOAT16:
		return row_bf16;
	case DT_INT8:
		return row_i8;
	case DT_UINT8:
		return row_u8;
	case DT_INT16:
		return row_i16;
	case DT_UINT16:
		return row_u16;
	case DT_UINT32:
		return row_u32;
	case DT_UINT64: /* would need unsigned accumulation */
	case DT_COUNT:
		break;
	}
	return NULL;
}

/* ---- float32 fast paths ------------------------------------------------ */

enum { REDUCE_LANES = 8, REDUCE_BLOCK = 256, REDUCE_TILE = 2048 };

/* Whether the float32 fast paths compute op (the rest take the generic
 * walk, which handles every operator and dtype). */
static bool fast_op(KernelReduce op)
{
	switch (op) {
	case REDUCE_SUM:
	case REDUCE_MEAN:
	case REDUCE_MAX:
	case REDUCE_MIN:
		return true;
	case REDUCE_PROD:
	case REDUCE_ALL:
	case REDUCE_ANY:
	case REDUCE_ARGMAX:
	case REDUCE_ARGMIN:
	case REDUCE_VARIANCE:
		break;
	}
	return false;
}

/* The largest (max) or smallest element of src[0 .. n), NaN skipped, and
 * whether there was a NaN; -inf (inf) when every element is NaN or there
 * is none. With SSE2 eight lanes at a time: MAXPS(v, m) is exactly
 * `v > m ? v : m`, which keeps m for a NaN v, and the compiler will not
 * vectorise that C expression itself without assuming there are no NaNs. */
static float extreme_f32(const float *src, int64_t n, bool max, bool *nan)
{
	int64_t i = 0;
	float m = max ? -INFINITY : INFINITY;
	bool seen = false;
#ifdef __SSE2__
	__m128 b0 = _mm_set1_ps(m), b1 = b0, bad = _mm_setzero_ps();
	float lanes[8];
	if (max)
		for (; i + 8 <= n; i += 8) {
			__m128 v0 = _mm_loadu_ps(src + i), v1 = _mm_loadu_ps(src + i + 4);
			bad = _mm_or_ps(
				bad, _mm_or_ps(_mm_cmpunord_ps(v0, v0), _mm_cmpunord_ps(v1, v1)));
			b0 = _mm_max_ps(v0, b0);
			b1 = _mm_max_ps(v1, b1);
		}
	else
		for (; i + 8 <= n; i += 8) {
			__m128 v0 = _mm_loadu_ps(src + i), v1 = _mm_loadu_ps(src + i + 4);
			bad = _mm_or_ps(
				bad, _mm_or_ps(_mm_cmpunord_ps(v0, v0), _mm_cmpunord_ps(v1, v1)));
			b0 = _mm_min_ps(v0, b0);
			b1 = _mm_min_ps(v1, b1);
		}
	_mm_storeu_ps(lanes, b0);
	_mm_storeu_ps(lanes + 4, b1);
	seen = _mm_movemask_ps(bad) != 0;
	for (int k = 0; k < 8; k++)
		m = (max ? lanes[k] > m : lanes[k] < m) ? lanes[k] : m;
#endif
	for (; i < n; i++) {
		float v = src[i];
		seen |= v != v;
		m = (max ? v > m : v < m) ? v : m;
	}
	*nan = seen;
	return m;
}

/* A float32 row in one run. Sums go through independent accumulators
 * (blocks of 16 lanes in float, then REDUCE_LANES in double), so the loop
 * is bound by memory rather than by the latency of one chain of additions;
 * max and min take extreme_f32 and propagate NaN. argmax and argmin find
 * the extreme first and then its first (or last) position, with the
 * generic walk's rule that a NaN in front wins and others are skipped. */
static void row_f32_run(const float *restrict src, int64_t n, KernelReduce op, bool last, Acc *a)
{
	double lane[REDUCE_LANES];
	int64_t i = 0;
	bool nan = false;
	switch (op) {
	case REDUCE_SUM:
	case REDUCE_MEAN:
		/* a block's 16 lanes in float (16 values each), then in double */
		for (int k = 0; k < REDUCE_LANES; k++)
			lane[k] = 0;
		for (; i + REDUCE_BLOCK <= n; i += REDUCE_BLOCK) {
			float part[2 * REDUCE_LANES] = {0};
			for (int j = 0; j < REDUCE_BLOCK; j += 2 * REDUCE_LANES)
				for (int k = 0; k < 2 * REDUCE_LANES; k++)
					part[k] += src[i + j + k];
			for (int k = 0; k < REDUCE_LANES; k++)
				lane[k] += (double)part[k] + (double)part[k + REDUCE_LANES];
		}
		for (; i < n; i++)
			lane[0] += (double)src[i];
		a->d = 0;
		for (int k = 0; k < REDUCE_LANES; k++)
			a->d += lane[k];
		return;
	case REDUCE_MAX:
	case REDUCE_MIN: {
		float m = extreme_f32(src, n, op == REDUCE_MAX, &nan);
		a->d = nan ? NAN : m;
		return;
	}
	case REDUCE_ARGMAX:
	case REDUCE_ARGMIN: {
		float m;
		a->arg = 0;
		if (n == 0 || src[0] != src[0])
			return;
		m = extreme_f32(src, n, op == REDUCE_ARGMAX, &nan);
		if (last) {
			for (i = n; i-- > 0;)
				if (src[i] == m)
					break;
		} else {
			for (i = 0; i < n; i++)
				if (src[i] == m)
					break;
		}
		a->arg = i;
		return;
	}
	case REDUCE_PROD:
	case REDUCE_ALL:
	case REDUCE_ANY:
	case REDUCE_VARIANCE:
		break;
	}
}

/* The offset of the next reduced position after the one at *off, idx its
 * coordinates (an odometer over the reduced axes). */
static void next_reduced(const ReducePlan *p, int64_t *idx, int64_t *off)
{
	for (uint32_t k = p->nred; k-- > 0;) {
		*off += p->red_stride[k];
		if (++idx[k] < p->red_shape[k])
			break;
		*off -= idx[k] * p->red_stride[k];
		idx[k] = 0;
	}
}

/* Zeros in place of the reduced positions past the last in a block of 16:
 * adding them changes no sum (x + 0 is x, and -0 + 0 is the +0 that the
 * double accumulator, starting at +0, gives anyway). */
static const float zero_row[REDUCE_TILE];

/* acc[j] += the float sum of rows[0][j] .. rows[15][j], added in that
 * order: the 16 runs are read side by side (16 streams the prefetchers
 * follow, no partial row written back and read again), each column's sum
 * kept in a register. */
static void sum_rows16(const float *const *rows, int64_t len, double *restrict acc)
{
	const float *restrict r0 = rows[0], *restrict r1 = rows[1], *restrict r2 = rows[2];
	const float *restrict r3 = rows[3], *restrict r4 = rows[4], *restrict r5 = rows[5];
	const float *restrict r6 = rows[6], *restrict r7 = rows[7], *restrict r8 = rows[8];
	const float *restrict r9 = rows[9], *restrict r10 = rows[10], *restrict r11 = rows[11];
	const float *restrict r12 = rows[12], *restrict r13 = rows[13], *restrict r14 = rows[14];
	const float *restrict r15 = rows[15];
	for (int64_t j = 0; j < len; j++) {
		float s = r0[j];
		s += r1[j];
		s += r2[j];
		s += r3[j];
		s += r4[j];
		s += r5[j];
		s += r6[j];
		s += r7[j];
		s += r8[j];
		s += r9[j];
		s += r10[j];
		s += r11[j];
		s += r12[j];
		s += r13[j];
		s += r14[j];
		s += r15[j];
		acc[j] += (double)s;
	}
}

/* Outputs base_out .. base_out + len - 1 lie along the innermost kept axis,
 * which is contiguous in the input: they are reduced together, a tile of
 * them per reduced position, so the input is read in runs instead of one
 * strided column per output. A sum takes the reduced positions 16 at a
 * time (sum_rows16): each column's 16 values in float, in order, then
 * into its double accumulator. */
static void tile_f32(const KernelTensor *in, const ReducePlan *p, int64_t base, int64_t len,
		     KernelReduce op, double *restrict acc)
{
	const float *src = in->data;
	int64_t idx[64] = {0}, off = base;
	bool max = op == REDUCE_MAX, sum = op == REDUCE_SUM || op == REDUCE_MEAN;
	for (int64_t j = 0; j < len; j++)
		acc[j] = sum ? 0 : max ? -INFINITY : INFINITY;
	if (sum) {
		for (int64_t r = 0; r < p->red_count; r += 16) {
			const float *rows[16];
			for (int64_t b = 0; b < 16; b++) {
				rows[b] = r + b < p->red_count ? src + off : zero_row;
				if (r + b < p->red_count)
					next_reduced(p, idx, &off);
			}
			sum_rows16(rows, len, acc);
		}
		return;
	}
	for (int64_t r = 0; r < p->red_count; r++) {
		const float *restrict row = src + off;
		for (int64_t j = 0; j < len; j++) {
			double v = row[j];
			/* NaN sticks: v != v takes it, acc != acc keeps it */
			acc[j] = (acc[j] != acc[j] || v != v || (max ? v > acc[j] : v < acc[j]))
					 ? (acc[j] != acc[j] ? acc[j] : v)
					 : acc[j];
		}
		next_reduced(p, idx, &off);
	}
}

/* The float32 path for outputs begin .. end - 1: rows in one run, or tiles
 * along a contiguous kept axis. Returns false when neither applies. */
static bool reduce_range_f32(const KernelCall *kc, const ReducePlan *p, int64_t begin, int64_t end)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	KernelReduce op = kc->p.reduce.kind;
	bool tiles = !p->contiguous && p->nkept > 0 && p->kept_stride[p->nkept - 1] == 1;
	bool arg = op == REDUCE_ARGMAX || op == REDUCE_ARGMIN;
	int64_t n = p->red_count;
	if (in->dtype != DT_FLOAT32)
		return false;
	if (arg ? !p->contiguous
		: !fast_op(op) || out->dtype != DT_FLOAT32 || (!p->contiguous && !tiles))
		return false;
	for (int64_t o = begin; o < end;) {
		int64_t base = 0, rest = o, len = 1, inner = 0;
		double acc[REDUCE_TILE]; /* 16 KiB: in the L1 cache */
		for (uint32_t i = p->nkept; i-- > 0;) {
			int64_t c = rest % p->kept_shape[i];
			if (i == p->nkept - 1)
				inner = c;
			rest /= p->kept_shape[i];
			base += c * p->kept_stride[i];
		}
		if (tiles) {
			len = p->kept_shape[p->nkept - 1] - inner;
			if (len > end - o)
				len = end - o;
			if (len > REDUCE_TILE)
				len = REDUCE_TILE;
			tile_f32(in, p, base, len, op, acc);
		} else {
			Acc a = {0};
			row_f32_run((const float *)in->data + base, n, op,
				    kc->p.reduce.select_last_index, &a);
			if (arg) {
				dtype_store_int(out->data, out->dtype, o++, a.arg);
				continue;
			}
			acc[0] = a.d;
		}
		for (int64_t j = 0; j < len; j++) {
			double v = acc[j];
			if (op == REDUCE_MEAN)
				v = n ? v / (double)n : NAN;
			((float *)out->data)[o + j] = (float)v;
		}
		o += len;
	}
	return true;
}

static void reduce_range(void *vjob, int64_t begin, int64_t end)
{
	ReduceJob *job = vjob;
	const KernelCall *kc = job->kc;
	const ReducePlan *p = job->p;
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	RowFn row = row_fn(in->dtype);
	bool is_float = dtype_is_float(in->dtype);
	int64_t n = p->red_count;
	if (reduce_range_f32(kc, p, begin, end))
		return;
	for (int64_t o = begin; o < end; o++) {
		int64_t base = 0, mean_off = 0, rest = o;
		double mean = 0;
		Acc a;
		for (uint32_t i = p->nkept; i-- > 0;) {
			int64_t c = rest % p->kept_shape[i];
			rest /= p->kept_shape[i];
			base += c * p->kept_stride[i];
			mean_off += c * p->kept_mean_stride[i];
		}
		if (kc->p.reduce.kind == REDUCE_VARIANCE)
			mean = dtype_load_double(kc->in[1].data, kc->in[1].dtype, mean_off);
		acc_init(&a, kc->p.reduce.kind, is_float);
		row(in, p, base, kc->p.reduce.kind, kc->p.reduce.select_last_index, mean, &a);
		switch (kc->p.reduce.kind) {
		case REDUCE_ARGMAX:
		case REDUCE_ARGMIN:
			dtype_store_int(out->data, out->dtype, o, a.arg);
			continue;
		case REDUCE_MEAN:
			a.d = n ? a.d / (double)n : NAN;
			a.i = n ? a.i / n : 0;
			break;
		case REDUCE_VARIANCE: {
			int64_t div = n - (kc->p.reduce.unbiased ? 1 : 0);
			a.d = div > 0 ? a.d / (double)div : NAN;
			break;
		}
		case REDUCE_SUM:
		case REDUCE_PROD:
		case REDUCE_MAX:
		case REDUCE_MIN:
		case REDUCE_ALL:
		case REDUCE_ANY:
			break;
		}
		if (is_float || kc->p.reduce.kind == REDUCE_VARIANCE)
			dtype_store_double(out->data, out->dtype, o, a.d);
		else
			dtype_store_int(out->data, out->dtype, o, a.i);
	}
}

/* The plan of kc: size-1 axes dropped, adjacent reduced (or kept) axes
 * that are contiguous merged. */
static void reduce_plan(const KernelCall *kc, ReducePlan *p)
{
	const KernelTensor *in = &kc->in[0];
	const KernelTensor *mean = kc->p.reduce.kind == REDUCE_VARIANCE ? &kc->in[1] : NULL;
	int64_t stride = 1, mean_stride = 1;
	int64_t strides[64], mean_strides[64];
	int last_kind = -1; /* 0 kept, 1 reduced: of the axis merged last */
	p->nkept = p->nred = 0;
	p->red_count = 1;
	for (uint32_t i = in->ndim; i-- > 0;) {
		strides[i] = stride;
		stride *= in->shape[i];
		mean_strides[i] = mean && mean->shape[i] != 1 ? mean_stride : 0;
		if (mean)
			mean_stride *= mean->shape[i];
	}
	for (uint32_t i = 0; i < in->ndim; i++) {
		int kind = kc->axes[i] ? 1 : 0;
		if (in->shape[i] == 1)
			continue;
		if (kind == 1) {
			p->red_count *= in->shape[i];
			if (last_kind == 1 &&
			    p->red_stride[p->nred - 1] == strides[i] * in->shape[i]) {
				p->red_shape[p->nred - 1] *= in->shape[i];
				p->red_stride[p->nred - 1] = strides[i];
			} else {
				p->red_shape[p->nred] = in->shape[i];
				p->red_stride[p->nred++] = strides[i];
			}
		} else {
			p->kept_shape[p->nkept] = in->shape[i];
			p->kept_stride[p->nkept] = strides[i];
			p->kept_mean_stride[p->nkept++] = mean_strides[i];
		}
		last_kind = kind;
	}
	p->contiguous = p->nred == 0 || (p->nred == 1 && p->red_stride[0] == 1);
}

static bool reduce_kernel(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	ReducePlan p;
	ReduceJob job = {.kc = kc, .p = &p};
	if (!row_fn(in->dtype))
		return cpu_unsupported(kc, in->dtype, err);
	if (in->ndim > 64) {
		*err = xasprintf("'%s' on the cpu takes at most 64 dimensions", kc->name);
		return false;
	}
	reduce_plan(kc, &p);
	kernel_parallel_for(out->count, p.red_count ? GRAIN_ELEMENTWISE / p.red_count + 1 : 1,
			    reduce_range, &job);
	return true;
}

KERNEL_CPU_VIA(SUM, reduce_kernel)
KERNEL_CPU_VIA(MEAN, reduce_kernel)
KERNEL_CPU_VIA(MAX, reduce_kernel)
KERNEL_CPU_VIA(MIN, reduce_kernel)
KERNEL_CPU_VIA(PROD, reduce_kernel)
KERNEL_CPU_VIA(ALL, reduce_kernel)
KERNEL_CPU_VIA(ANY, reduce_kernel)
KERNEL_CPU_VIA(ARGMAX, reduce_kernel)
KERNEL_CPU_VIA(ARGMIN, reduce_kernel)
KERNEL_CPU_VIA(VARIANCE, reduce_kernel)
/* collapse_sum_like and collapse_sum_to: sum over the axes the target
 * broadcasts along (kernels.c marks them) */
KERNEL_CPU_VIA(COLLAPSE_SUM_LIKE, reduce_kernel)
KERNEL_CPU_VIA(COLLAPSE_SUM_TO, reduce_kernel)
