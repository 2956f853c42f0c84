/*
 * prepare_nn.c - decoding the attributes of the nn family: the matrix products (nn.dense, nn.batch_matmul,
 * nn.matmul) as a KernelMatmul, and the softmax axes.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

KernelMatmul prepare_dense_matmul(const KernelCall *kc)
{
	const KernelTensor *in = kc->in;
	KernelMatmul m = {.batch = 1, .batch_a = 1, .batch_b = 1, .trans_b = true};
	m.k = in[0].shape[in[0].ndim - 1];
	m.m = 1;
	for (uint32_t i = 0; i + 1 < in[0].ndim; i++)
		m.m *= in[0].shape[i];
	m.n = in[1].shape[0];
	return m;
}

KernelMatmul prepare_batch_matmul(const KernelCall *kc, const Expr *call)
{
	const KernelTensor *in = kc->in;
	const KernelTensor *out = kc->out;
	KernelMatmul m = {0};
	m.trans_a = attr_bool(call, "transpose_a", false);
	m.trans_b = attr_bool(call, "transpose_b", false);
	m.batch_a = in[0].shape[0];
	m.batch_b = in[1].shape[0];
	m.batch = out[0].shape[0];
	m.m = out[0].shape[1];
	m.n = out[0].shape[2];
	m.k = m.trans_a ? in[0].shape[1] : in[0].shape[2];
	return m;
}

static bool decode_dense(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.matmul = prepare_dense_matmul(kc);
	return same_out_dtype(kc, err);
}

KERNEL_PREPARE_VIA(DENSE, decode_dense)

static bool decode_batch_matmul(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.matmul = prepare_batch_matmul(kc, call);
	return same_out_dtype(kc, err);
}

KERNEL_PREPARE_VIA(BATCH_MATMUL, decode_batch_matmul)

static bool decode_matmul(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	const KernelTensor *out = kc->out;
	/* a [..., M, K] (transpose_a: a batch of [K, M]) times b, one matrix */
	KernelMatmul *m = &kc->p.matmul;
	uint32_t nd = in[0].ndim;
	m->trans_a = attr_bool(call, "transpose_a", false);
	m->trans_b = attr_bool(call, "transpose_b", false);
	m->batch = m->batch_a = m->batch_b = 1;
	m->n = out[0].shape[out[0].ndim - 1];
	if (m->trans_a) {
		for (uint32_t i = 0; i + 2 < nd; i++)
			m->batch *= in[0].shape[i];
		m->batch_a = m->batch;
		m->k = in[0].shape[nd - 2];
		m->m = in[0].shape[nd - 1];
	} else {
		m->k = in[0].shape[nd - 1];
		m->m = 1;
		for (uint32_t i = 0; i + 1 < nd; i++)
			m->m *= in[0].shape[i];
	}
	return same_out_dtype(kc, err);
}

KERNEL_PREPARE_VIA(MATMUL, decode_matmul)

KERNEL_PREPARE_VIA(SOFTMAX, decode_bias_add)
KERNEL_PREPARE_VIA(FAST_SOFTMAX, decode_bias_add)
