/*
 * infer_ref.c - the type relations of references, TVM's RefCreate,
 * RefRead and RefWrite (src/relay/transforms/type_infer.cc): a cell holds
 * a value of any type, tensor, tuple or closure alike.
 *
 *   ref(v: T)                    ref(T)
 *   ref_read(r: ref(T))          T
 *   ref_write(r: ref(T), v: T)   ()
 */
#include "infer_ops.h"

Type *infer_op_REF_CREATE(OpTypeContext *ctx)
{
	return type_ref(ir_data_arena(ctx->module), ctx->arg_types[0]);
}

/* The referenced type of argument i, or NULL after reporting that it is
 * not a reference. */
static Type *referenced(OpTypeContext *ctx, uint32_t i)
{
	const Type *t = ctx->arg_types[i];
	if (t->kind != TYPE_REF) {
		infer_op_error(ctx, "'%s' expects a reference, got %s", infer_op_name(ctx),
			       infer_tname(ctx, t));
		return NULL;
	}
	return t->u.ref.value;
}

Type *infer_op_REF_READ(OpTypeContext *ctx)
{
	return referenced(ctx, 0);
}

Type *infer_op_REF_WRITE(OpTypeContext *ctx)
{
	Type *held = referenced(ctx, 0);
	if (!held)
		return NULL;
	if (!type_equal(held, ctx->arg_types[1])) {
		infer_op_error(ctx, "'%s' cannot store %s in %s", infer_op_name(ctx),
			       infer_tname(ctx, ctx->arg_types[1]),
			       infer_tname(ctx, ctx->arg_types[0]));
		return NULL;
	}
	return type_tuple(ir_data_arena(ctx->module), 0, NULL);
}
