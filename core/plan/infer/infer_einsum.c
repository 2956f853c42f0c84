/*
 * infer_einsum.c - the type relations of einsum, stft and dft.
 *
 * einsum((t0, t1, ...), equation) follows numpy's subscripts, as TVM's
 * topi::InferEinsumShape does: one comma-separated term of letters per
 * operand, `...` standing for the dimensions no letter names (broadcast
 * together across operands), and an output after `->`, or else the
 * broadcast dimensions followed by the letters used once, in alphabetical
 * order. A letter's dimensions must agree (1 broadcasts).
 */
#include "infer_transforms.h"

#include <string.h>

enum { EINSUM_LETTERS = 52 };

static int einsum_letter(char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	if (c >= 'A' && c <= 'Z')
		return 26 + c - 'A';
	return -1;
}

/* Joins d into *into by broadcasting (1 gives way; `?` is taken over by a
 * known dimension); false when they conflict. */
static bool einsum_join(int64_t *into, int64_t d)
{
	return infer_broadcast_dim(*into, d, into);
}

Type *infer_op_EINSUM(OpTypeContext *ctx)
{
	Type *t = ctx->arg_types[0], *r = NULL;
	const char *eq, *p, *arrow;
	int64_t letter_dim[EINSUM_LETTERS];
	int count[EINSUM_LETTERS] = {0};
	int64_t ell[INFER_MAX_NDIM];
	uint32_t nell = 0, nf, term = 0, nout = 0;
	bool ell_seen = false;
	DimBuf buf;
	int64_t *dims;
	if (!is_tensor_tuple(t)) {
		infer_op_error(ctx, "'einsum' expects a non-empty tuple of tensors, got %s",
			       infer_tname(ctx, t));
		return NULL;
	}
	if (!infer_attr_string(ctx, "equation", &eq))
		return NULL;
	if (!eq) {
		infer_op_error(ctx, "'einsum' needs an equation attribute");
		return NULL;
	}
	nf = t->u.tuple.nfields;
	for (uint32_t j = 1; j < nf; j++)
		if (t->u.tuple.fields[j]->u.tensor.dtype != t->u.tuple.fields[0]->u.tensor.dtype) {
			infer_op_error(ctx, "'einsum' operands differ in dtype: %s",
				       infer_tname(ctx, t));
			return NULL;
		}
	for (int i = 0; i < EINSUM_LETTERS; i++)
		letter_dim[i] = 1;
	arrow = strstr(eq, "->");
	/* the inputs: one term per operand */
	p = eq;
	for (term = 0; term < nf; term++) {
		const Type *f = t->u.tuple.fields[term];
		uint32_t letters = 0, axis = 0, term_ell;
		bool has_ell = false;
		const char *q;
		for (q = p; *q && *q != ',' && q != arrow; q++) {
			if (q[0] == '.' && q[1] == '.' && q[2] == '.' && !has_ell) {
				has_ell = true;
				q += 2;
			} else if (einsum_letter(*q) >= 0)
				letters++;
			else if (*q != ' ')
				goto bad;
		}
		if (letters > f->u.tensor.ndim || (!has_ell && letters != f->u.tensor.ndim) ||
		    f->u.tensor.ndim - letters > INFER_MAX_NDIM)
			goto mismatch;
		term_ell = f->u.tensor.ndim - letters;
		if (has_ell) {
			/* broadcast the operand's unnamed dimensions, right-aligned */
			uint32_t start = axis;
			for (const char *s = p; s < q && !(s[0] == '.' && s[1] == '.'); s++)
				if (einsum_letter(*s) >= 0)
					start++;
			if (term_ell > nell) {
				memmove(ell + (term_ell - nell), ell, nell * sizeof(int64_t));
				for (uint32_t i = 0; i < term_ell - nell; i++)
					ell[i] = 1;
				nell = term_ell;
			}
			for (uint32_t i = 0; i < term_ell; i++)
				if (!einsum_join(&ell[nell - term_ell + i],
						 f->u.tensor.dims[start + i]))
					goto mismatch;
			ell_seen = true;
		}
		for (const char *s = p; s < q; s++) {
			int l;
			if (s[0] == '.' && s[1] == '.') {
				axis += term_ell;
				s += 2;
				continue;
			}
			if ((l = einsum_letter(*s)) < 0)
				continue;
			if (!einsum_join(&letter_dim[l], f->u.tensor.dims[axis++]))
				goto mismatch;
			count[l]++;
		}
		p = q;
		if (term + 1 < nf) {
			if (*p != ',')
				goto bad;
			p++;
		}
	}
	if (*p && p != arrow)
		goto bad;
	/* the output */
	dims = dims_alloc(&buf, nell + EINSUM_LETTERS);
	if (arrow) {
		bool out_ell = false;
		int seen[EINSUM_LETTERS] = {0};
		for (const char *s = arrow + 2; *s; s++) {
			int l;
			if (s[0] == '.' && s[1] == '.' && s[2] == '.' && !out_ell) {
				memcpy(dims + nout, ell, nell * sizeof(int64_t));
				nout += nell;
				out_ell = true;
				s += 2;
			} else if ((l = einsum_letter(*s)) >= 0 && count[l] && !seen[l]) {
				seen[l] = 1;
				dims[nout++] = letter_dim[l];
			} else if (*s != ' ') {
				dims_release(&buf);
				goto bad;
			}
		}
		if (ell_seen && nell && !out_ell) {
			dims_release(&buf);
			goto bad;
		}
	} else {
		memcpy(dims, ell, nell * sizeof(int64_t));
		nout = nell;
		for (int l = 0; l < EINSUM_LETTERS; l++)
			if (count[l] == 1)
				dims[nout++] = letter_dim[l];
	}
	r = infer_result(ctx, t->u.tuple.fields[0]->u.tensor.dtype, nout, dims, NULL, NULL);
	dims_release(&buf);
	return r;
bad:
	infer_op_error(ctx, "'einsum' equation \"%s\" is malformed for %u operands", eq, nf);
	return NULL;
mismatch:
	infer_op_error(ctx, "'einsum' equation \"%s\" does not match the operands %s", eq,
		       infer_tname(ctx, t));
	return NULL;
}

/* stft(x, window, n_fft, hop_length, win_length, normalized, onesided=True):
 * ([batch,] n_fft / 2 + 1 or n_fft, frames, 2) with frames
 * (len - n_fft) / hop_length + 1. */
Type *infer_op_STFT(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *win;
	int64_t n_fft, hop, win_len, dims[4], len;
	bool normalized, onesided;
	uint32_t k = 0, dim = 0;
	if (!x || !(win = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "n_fft", -1, &n_fft, NULL) ||
	    !infer_attr_int(ctx, "hop_length", -1, &hop, NULL) ||
	    !infer_attr_int(ctx, "win_length", -1, &win_len, NULL) ||
	    !infer_attr_bool(ctx, "normalized", false, &normalized) ||
	    !infer_attr_bool(ctx, "onesided", true, &onesided))
		return NULL;
	if (x->u.tensor.ndim != 1 && x->u.tensor.ndim != 2) {
		infer_op_error(ctx, "'stft' expects a 1-D or 2-D signal, got %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	if (n_fft < 1 || hop < 1) {
		infer_op_error(ctx, "'stft' needs positive n_fft and hop_length, got %lld and %lld",
			       (long long)n_fft, (long long)hop);
		return NULL;
	}
	if (x->u.tensor.ndim == 2) {
		dims[k++] = x->u.tensor.dims[0];
		dim = 1;
	}
	dims[k++] = onesided ? n_fft / 2 + 1 : n_fft;
	len = x->u.tensor.dims[dim];
	if (dim_known(len) && len < n_fft) {
		infer_op_error(ctx, "'stft' signal %s is shorter than n_fft %lld",
			       infer_tname(ctx, x), (long long)n_fft);
		return NULL;
	}
	dims[k++] = dim_known(len) ? (len - n_fft) / hop + 1 : DIM_ANY;
	dims[k++] = 2;
	return infer_result(ctx, x->u.tensor.dtype, k, dims, NULL, NULL);
}

/* dft(re, im, inverse=False): (re's type, im's type). */
Type *infer_op_DFT(OpTypeContext *ctx)
{
	Type *re = infer_tensor_arg(ctx, 0), *im, *fields[2];
	bool inverse;
	if (!re || !(im = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_bool(ctx, "inverse", false, &inverse))
		return NULL;
	fields[0] = re;
	fields[1] = im;
	return type_tuple(ir_data_arena(ctx->module), 2, fields);
}
