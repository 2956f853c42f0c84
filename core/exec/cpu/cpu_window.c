/*
 * cpu_window.c - the CPU kernels of the operators that slide a window over
 * NCHW data: the convolutions and the poolings.
 *
 * nn.conv2d is im2col tiles of bounded size times the weight, through
 * OpenBLAS (1x1 convolutions use the input as it is, depthwise ones run a
 * direct loop), nn.conv2d_transpose the weight's transpose times the input
 * followed by col2im. OpenBLAS does its own threading; it is only ever
 * called from the thread that launched the kernel, never from our
 * workers, so the two pools never nest. Matrix kernels take float32 and
 * float64; other dtypes get an error, never a wrong answer. Pooling is a
 * direct loop per output plane.
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

#define DEFINE_IM2COL(NAME, T)                                                                    \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                  \
	{                                                                                         \
		Im2colJob *job = vjob;                                                            \
		const KernelWindow *w = job->w;                                                   \
		const T *x = (const T *)job->x;                                                   \
		T *col = (T *)job->col;                                                           \
		for (int64_t r = begin; r < end; r++) {                                           \
			int64_t ci = r / (w->kh * w->kw), ky = r / w->kw % w->kh, kx = r % w->kw; \
			const T *xc = x + ci * w->h * w->w;                                       \
			int64_t oy = job->p0 / w->ow, ox = job->p0 % w->ow;                       \
			T *dst = col + r * job->ncols;                                            \
			for (int64_t t = 0; t < job->ncols; t++) {                                \
				int64_t iy = oy * w->stride[0] - w->pad[0] + ky * w->dilation[0]; \
				int64_t ix = ox * w->stride[1] - w->pad[1] + kx * w->dilation[1]; \
				dst[t] = (iy >= 0 && iy < w->h && ix >= 0 && ix < w->w)           \
						 ? xc[iy * w->w + ix]                             \
						 : (T)0;                                          \
				if (++ox == w->ow) {                                              \
					ox = 0;                                                   \
					oy++;                                                     \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
	}
DEFINE_IM2COL(im2col_f32, float)
DEFINE_IM2COL(im2col_f64, double)

typedef struct DepthwiseJob {
	const KernelWindow *w;
	const void *x, *k;
	void *y;
} DepthwiseJob;

/* groups == c == o: one kh x kw filter per channel, a direct loop. */
#define DEFINE_DEPTHWISE(NAME, T)                                                            \
	static void NAME(void *vjob, int64_t begin, int64_t end)                             \
	{                                                                                    \
		DepthwiseJob *job = vjob;                                                    \
		const KernelWindow *w = job->w;                                              \
		for (int64_t plane = begin; plane < end; plane++) {                          \
			int64_t ch = plane % w->c;                                           \
			const T *x = (const T *)job->x + plane * w->h * w->w;                \
			const T *k = (const T *)job->k + ch * w->kh * w->kw;                 \
			T *y = (T *)job->y + plane * w->oh * w->ow;                          \
			for (int64_t oy = 0; oy < w->oh; oy++)                               \
				for (int64_t ox = 0; ox < w->ow; ox++) {                     \
					T acc = 0;                                           \
					for (int64_t ky = 0; ky < w->kh; ky++) {             \
						int64_t iy = oy * w->stride[0] - w->pad[0] + \
							     ky * w->dilation[0];            \
						if (iy < 0 || iy >= w->h)                    \
							continue;                            \
						for (int64_t kx = 0; kx < w->kw; kx++) {     \
							int64_t ix = ox * w->stride[1] -     \
								     w->pad[1] +             \
								     kx * w->dilation[1];    \
							if (ix >= 0 && ix < w->w)            \
								acc += x[iy * w->w + ix] *   \
								       k[ky * w->kw + kx];   \
						}                                            \
					}                                                    \
					y[oy * w->ow + ox] = acc;                            \
				}                                                            \
		}                                                                            \
	}
DEFINE_DEPTHWISE(depthwise_f32, float)
DEFINE_DEPTHWISE(depthwise_f64, double)

bool kernel_cpu_CONV2D(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	DType dt = kc->in[0].dtype;
	size_t es = dtype_size(dt);
	int64_t cg = w->c / w->groups, og = w->o / w->groups, rows = cg * w->kh * w->kw;
	int64_t plane = w->oh * w->ow, tile;
	bool pointwise = w->kh == 1 && w->kw == 1 && w->stride[0] == 1 && w->stride[1] == 1 &&
			 w->pad[0] == 0 && w->pad[1] == 0 && w->oh == w->h && w->ow == w->w;
	char *col = NULL;
	if (!cpu_blas_dtype(kc, err))
		return false;
	if (kc->out[0].count == 0)
		return true;
	if (cg == 1 && og == 1) {
		DepthwiseJob job = {w, kc->in[0].data, kc->in[1].data, kc->out[0].data};
		kernel_parallel_for(w->n * w->c, 1 + GRAIN_ROWS / (plane * w->kh * w->kw + 1),
				    dt == DT_FLOAT32 ? depthwise_f32 : depthwise_f64, &job);
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
					(size_t)((n * w->c + g * cg) * w->h * w->w) * es;
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
	const char *col; /* [og * kh * kw, ncols] for input positions p0.. */
	char *y;         /* the output of this batch item and group: [og, oh, ow] */
	int64_t p0, ncols;
} Col2imJob;

/* Scatter-adds the tile into the output channels [begin, end): each
 * channel is written by one thread only. */
#define DEFINE_COL2IM(NAME, T)                                                                 \
	static void NAME(void *vjob, int64_t begin, int64_t end)                               \
	{                                                                                      \
		Col2imJob *job = vjob;                                                         \
		const KernelWindow *w = job->w;                                                \
		for (int64_t oc = begin; oc < end; oc++) {                                     \
			T *y = (T *)job->y + oc * w->oh * w->ow;                               \
			for (int64_t ky = 0; ky < w->kh; ky++)                                 \
				for (int64_t kx = 0; kx < w->kw; kx++) {                       \
					const T *src =                                         \
						(const T *)job->col +                          \
						((oc * w->kh + ky) * w->kw + kx) * job->ncols; \
					int64_t iy = job->p0 / w->w, ix = job->p0 % w->w;      \
					for (int64_t t = 0; t < job->ncols; t++) {             \
						int64_t oy = iy * w->stride[0] - w->pad[0] +   \
							     ky * w->dilation[0];              \
						int64_t ox = ix * w->stride[1] - w->pad[1] +   \
							     kx * w->dilation[1];              \
						if (oy >= 0 && oy < w->oh && ox >= 0 &&        \
						    ox < w->ow)                                \
							y[oy * w->ow + ox] += src[t];          \
						if (++ix == w->w) {                            \
							ix = 0;                                \
							iy++;                                  \
						}                                              \
					}                                                      \
				}                                                              \
		}                                                                              \
	}
DEFINE_COL2IM(col2im_f32, float)
DEFINE_COL2IM(col2im_f64, double)

/* y = sum over input positions of w^T x, scattered: per batch item and
 * group, col = W_g^T [og*kh*kw, cg] x X_g [cg, h*w] in column tiles. */
bool kernel_cpu_CONV2D_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	DType dt = kc->in[0].dtype;
	size_t es = dtype_size(dt);
	int64_t cg = w->c / w->groups, og = w->o / w->groups, rows = og * w->kh * w->kw;
	int64_t plane = w->h * w->w, tile;
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
				  (size_t)((n * w->o + g * og) * w->oh * w->ow) * es;
			for (int64_t p0 = 0; p0 < plane; p0 += tile) {
				Col2imJob job = {w, col, y, p0,
						 plane - p0 < tile ? plane - p0 : tile};
				cpu_gemm(dt, true, false, rows, job.ncols, cg, k, rows,
					 x + (size_t)p0 * es, plane, col, job.ncols);
				kernel_parallel_for(
					og, 1 + GRAIN_ROWS / (job.ncols * w->kh * w->kw),
					dt == DT_FLOAT32 ? col2im_f32 : col2im_f64, &job);
			}
		}
	}
	free(col);
	return true;
}

/* ---- pooling --------------------------------------------------------------- */

typedef struct PoolJob {
	const KernelCall *kc;
} PoolJob;

/* Window rows/columns inside the input add to the value; with
 * count_include_pad the average divides by the positions inside the padded
 * input, else by those inside the input (TVM's pool semantics). */
#define DEFINE_POOL(NAME, T, LOWEST)                                                                    \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                        \
	{                                                                                               \
		const KernelCall *kc = ((PoolJob *)vjob)->kc;                                           \
		const KernelWindow *w = &kc->p.window;                                                  \
		bool is_max = kc->op == OP_MAX_POOL2D;                                                  \
		for (int64_t plane = begin; plane < end; plane++) {                                     \
			const T *x = (const T *)kc->in[0].data + plane * w->h * w->w;                   \
			T *y = (T *)kc->out[0].data + plane * w->oh * w->ow;                            \
			for (int64_t oy = 0; oy < w->oh; oy++)                                          \
				for (int64_t ox = 0; ox < w->ow; ox++) {                                \
					double acc = is_max ? -INFINITY : 0;                            \
					int64_t count = 0;                                              \
					bool any = false;                                               \
					for (int64_t ky = 0; ky < w->kh; ky++) {                        \
						int64_t iy = oy * w->stride[0] - w->pad[0] +            \
							     ky * w->dilation[0];                       \
						bool row_in = iy >= 0 && iy < w->h;                     \
						bool row_pad = iy >= -w->pad[0] &&                      \
							       iy < w->h + w->pad_end[0];               \
						for (int64_t kx = 0; kx < w->kw; kx++) {                \
							int64_t ix = ox * w->stride[1] -                \
								     w->pad[1] +                        \
								     kx * w->dilation[1];               \
							bool in = row_in && ix >= 0 && ix < w->w;       \
							if (in) {                                       \
								T v = x[iy * w->w + ix];                \
								any = true;                             \
								if (is_max)                             \
									acc = v > acc || v != v         \
										      ? v               \
										      : acc;            \
								else                                    \
									acc += v;                       \
							}                                               \
							if (w->count_include_pad                        \
								    ? row_pad &&                        \
									      ix >= -w->pad[1] &&       \
									      ix < w->w + w->pad_end[1] \
								    : in)                               \
								count++;                                \
						}                                                       \
					}                                                               \
					if (is_max && !any)                                             \
						acc = LOWEST; /* TVM pads with it */                    \
					y[oy * w->ow + ox] = (T)(is_max  ? acc                          \
								 : count ? acc / count                  \
									 : 0);                          \
				}                                                                       \
		}                                                                                       \
	}
DEFINE_POOL(pool_f32, float, -FLT_MAX)
DEFINE_POOL(pool_f64, double, -DBL_MAX)

static bool pool_kernel(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	PoolJob job = {kc};
	int64_t grain = 1 + GRAIN_ROWS / (w->oh * w->ow * w->kh * w->kw + 1);
	return cpu_run_float(kc, w->n * w->c, grain, pool_f32, pool_f64, &job, err);
}

KERNEL_CPU_VIA(MAX_POOL2D, pool_kernel)
KERNEL_CPU_VIA(AVG_POOL2D, pool_kernel)

bool kernel_cpu_GLOBAL_AVG_POOL2D(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	int64_t planes = in->shape[0] * in->shape[1], size = in->shape[2] * in->shape[3];
	if (!dtype_is_float(in->dtype))
		return cpu_unsupported(kc, in->dtype, err);
	for (int64_t p = 0; p < planes; p++) {
		double sum = 0;
		for (int64_t i = 0; i < size; i++)
			sum += load_double(in->data, in->dtype, p * size + i);
		store_double(kc->out[0].data, in->dtype, p, size ? sum / (double)size : NAN);
	}
	return true;
}
