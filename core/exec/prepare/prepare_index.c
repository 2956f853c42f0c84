/*
 * prepare_index.c - decoding the attributes of the index family: the gathers' and scatters' KernelGather and
 * sparse_to_dense's KernelSparse.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

/* sparse_to_dense(indices, values, default_value): TVM's topi takes
 * indices of rank 0, 1 or 2 (a [tuples, width] 2-D one, width at most the
 * output's rank) and a scalar or one value per tuple. */
static bool prepare_sparse(KernelCall *kc, char **err)
{
	const KernelTensor *idx = &kc->in[0], *values = &kc->in[1], *dflt = &kc->in[2];
	const KernelTensor *out = &kc->out[0];
	KernelSparse *s = &kc->p.sparse;
	s->tuples = idx->ndim == 0 ? 1 : idx->shape[0];
	s->width = idx->ndim == 2 ? idx->shape[1] : 1;
	if (dtype_is_float(idx->dtype) || idx->ndim > 2) {
		*err = xasprintf("'%s' needs integer indices of rank 0, 1 or 2, got %s of rank %u",
				 kc->name, dtype_name(idx->dtype), idx->ndim);
		return false;
	}
	if (out->ndim == 0 || out->ndim > KERNEL_GATHER_MAX_NDIM || s->width > out->ndim) {
		*err = xasprintf("'%s' indices of %lld coordinates do not address an output of "
				 "rank %u (1 to %d)",
				 kc->name, (long long)s->width, out->ndim, KERNEL_GATHER_MAX_NDIM);
		return false;
	}
	if (values->ndim > 1 || (values->ndim == 1 && values->shape[0] != s->tuples) ||
	    dflt->ndim != 0 || values->dtype != out->dtype || dflt->dtype != out->dtype) {
		*err = xasprintf("'%s' needs a scalar or one value per index (%lld) and a scalar "
				 "default, both %s",
				 kc->name, (long long)s->tuples, dtype_name(out->dtype));
		return false;
	}
	s->values_step = values->ndim == 1 ? 1 : 0;
	s->inner = 1;
	for (uint32_t d = 0; d < out->ndim; d++) {
		if ((int64_t)d < s->width)
			s->extent[d] = out->shape[d];
		else
			s->inner *= out->shape[d];
	}
	return true;
}

/* KernelGather of gather, gather_nd, scatter_elements or scatter_nd (the
 * relations have checked ranks and the nd forms' shapes). */
static bool prepare_gather(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *data = &kc->in[0], *indices = &kc->in[1];
	KernelGather *g = &kc->p.gather;
	OpKind op = kc->op;
	const AttrValue *mode = attr_get(call, op == OP_SCATTER_ND ? "mode" : "reduction");
	static const char *const modes[] = {
		[SCATTER_UPDATE] = "update", [SCATTER_ADD] = "add", [SCATTER_MUL] = "mul",
		[SCATTER_MEAN] = "mean",     [SCATTER_MIN] = "min", [SCATTER_MAX] = "max"};
	bool empty = false;
	g->mode = SCATTER_UPDATE;
	if (mode && mode->kind == ATTR_STRING)
		for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
			if (strcmp(mode->u.s, modes[i]) == 0)
				g->mode = (KernelScatterMode)i;
	if (dtype_is_float(indices->dtype)) {
		*err = xasprintf("'%s' needs integer indices, not %s", kc->name,
				 dtype_name(indices->dtype));
		return false;
	}
	if (op == OP_GATHER || op == OP_SCATTER_ELEMENTS) {
		int64_t stride = 1;
		if (data->ndim > KERNEL_GATHER_MAX_NDIM || indices->ndim != data->ndim ||
		    !normalize_axis(attr_int(call, "axis", 0), data->ndim, &g->axis)) {
			*err = xasprintf("'%s' runs on indices of its data's rank, at most %d",
					 kc->name, KERNEL_GATHER_MAX_NDIM);
			return false;
		}
		g->ndim = data->ndim;
		g->len = data->shape[g->axis];
		for (uint32_t d = data->ndim; d-- > 0;) {
			g->shape[d] = indices->shape[d];
			g->stride[d] = stride;
			stride *= data->shape[d];
		}
		if (op == OP_SCATTER_ELEMENTS) {
			const KernelTensor *updates = &kc->in[2];
			bool fits = updates->ndim == indices->ndim;
			for (uint32_t d = 0; fits && d < data->ndim; d++)
				fits = updates->shape[d] == indices->shape[d] &&
				       ((int64_t)d == g->axis ||
					indices->shape[d] <= data->shape[d]);
			if (!fits) {
				*err = xasprintf("'scatter_elements' needs updates shaped like its "
						 "indices, and indices no larger than the data "
						 "outside the axis");
				return false;
			}
		}
		empty = g->len == 0 && indices->count > 0;
	} else {
		int64_t batch_dims = op == OP_GATHER_ND ? attr_int(call, "batch_dims", 0) : 0,
			batch = 1;
		g->m = indices->shape[0];
		if (g->m > KERNEL_GATHER_MAX_NDIM || batch_dims < 0 ||
		    batch_dims + g->m > (int64_t)data->ndim) {
			*err = xasprintf("'%s' indexes at most %d dimensions of its data", kc->name,
					 KERNEL_GATHER_MAX_NDIM);
			return false;
		}
		g->tuples = 1;
		for (uint32_t i = 1; i < indices->ndim; i++) {
			g->tuples *= indices->shape[i];
			if ((int64_t)i <= batch_dims)
				batch *= indices->shape[i];
		}
		g->per_batch = batch > 0 ? g->tuples / batch : 1;
		g->inner = 1;
		for (int64_t l = 0; l < g->m; l++) {
			g->extent[l] = data->shape[batch_dims + l];
			empty |= g->extent[l] == 0;
		}
		for (uint32_t d = (uint32_t)(batch_dims + g->m); d < data->ndim; d++)
			g->inner *= data->shape[d];
		empty = empty && g->tuples > 0 && g->inner > 0;
	}
	if (empty) {
		*err = xasprintf("'%s' indexes an empty axis", kc->name);
		return false;
	}
	return true;
}

KERNEL_PREPARE_VIA(GATHER, prepare_gather)
KERNEL_PREPARE_VIA(GATHER_ND, prepare_gather)
KERNEL_PREPARE_VIA(SCATTER_ELEMENTS, prepare_gather)
KERNEL_PREPARE_VIA(SCATTER_ND, prepare_gather)

static bool decode_sparse_to_dense(KernelCall *kc, const Expr *call, char **err)
{
	return prepare_sparse(kc, err);
}

KERNEL_PREPARE_VIA(SPARSE_TO_DENSE, decode_sparse_to_dense)
