/*
 * infer_misc.c - the type relations of the operators of the registry that
 * belong to no family of their own: debug and the annotation.* markers
 * (TVM's IdentityRel: the argument's type, tensor or not), and the
 * operators the VM's memory planning introduces: vm.shape_of,
 * vm.reshape_tensor, vm.invoke_tvm_op and memory.kill, and LowerTE's
 * call_lowered. (cumsum and
 * cumprod, TVM's ScanopRel, live with the transforms.)
 *
 * memory.alloc_storage and memory.alloc_tensor are not here: their
 * storage argument and result have TVM's Storage type, which devplan's
 * types (tensors, tuples, functions) cannot spell yet.
 */
#include "infer_ops.h"

/* TVM's IdentityRel: the result is the argument's type, whatever it is. */
static Type *infer_identity(OpTypeContext *ctx)
{
	return ctx->arg_types[0];
}

/* debug(x) calls a host function on x and gives x back. That function,
 * TVM's attribute debug_func, is a packed function with no text form, so
 * the schema lists no attribute. */
Type *infer_op_DEBUG(OpTypeContext *ctx)
{
	return infer_identity(ctx);
}

Type *infer_op_ANNOTATION_STOP_FUSION(OpTypeContext *ctx)
{
	return infer_identity(ctx);
}

Type *infer_op_ANNOTATION_CHECKPOINT(OpTypeContext *ctx)
{
	return infer_identity(ctx);
}

Type *infer_op_ANNOTATION_BITPACK_START(OpTypeContext *ctx)
{
	return infer_identity(ctx);
}

Type *infer_op_ANNOTATION_BITPACK_END(OpTypeContext *ctx)
{
	return infer_identity(ctx);
}

/* cast_hint only records the dtype a later cast will want; its data is
 * unchanged. The dtype must still be one devplan knows. */
Type *infer_op_ANNOTATION_CAST_HINT(OpTypeContext *ctx)
{
	DType dt;
	if (!infer_attr_dtype(ctx, "dtype", DT_FLOAT32, &dt))
		return NULL;
	return infer_identity(ctx);
}

Type *infer_op_ANNOTATION_COMPILER_BEGIN(OpTypeContext *ctx)
{
	const char *compiler;
	return infer_attr_string(ctx, "compiler", &compiler) ? infer_identity(ctx) : NULL;
}

Type *infer_op_ANNOTATION_COMPILER_END(OpTypeContext *ctx)
{
	const char *compiler;
	return infer_attr_string(ctx, "compiler", &compiler) ? infer_identity(ctx) : NULL;
}

/* vm.shape_of: TVM's ShapeOfRel, a vector of x's rank of dtype (int32
 * when absent; the VM's passes write int64). */
Type *infer_op_VM_SHAPE_OF(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t rank;
	DType dt;
	if (!x || !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt))
		return NULL;
	rank = x->u.tensor.ndim;
	return infer_result(ctx, dt, 1, &rank, NULL, NULL);
}

/* vm.reshape_tensor(data, shape): TVM's ReshapeTensorRel, a tensor of
 * newshape (a list of plain sizes, -1 for a dimension known only at run
 * time) and data's dtype; the shape tensor is what the VM reads then. */
Type *infer_op_VM_RESHAPE_TENSOR(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	const AttrValue *items;
	uint32_t n;
	bool present;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_tensor_arg(ctx, 1) ||
	    !infer_attr_list(ctx, "newshape", &items, &n, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'vm.reshape_tensor' needs newshape");
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'vm.reshape_tensor' newshape has %u dimensions, more than %d",
			       n, INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		if (items[i].u.i < -1) {
			infer_op_error(ctx, "'vm.reshape_tensor' newshape=%s has a negative size",
				       infer_list_text(ctx, items, n));
			dims_release(&buf);
			return NULL;
		}
		dims[i] = items[i].u.i < 0 ? DIM_ANY : items[i].u.i;
	}
	r = infer_result(ctx, x->u.tensor.dtype, n, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* call_lowered(@f, (a, b)): TVM's CallLoweredRel, the result type of @f
 * applied to the tuple's fields, which must have @f's parameter types.
 * TVM's GetCallLoweredProps insists on a global function and a tuple
 * expression (a variable holding a tuple will not do): the planner reads
 * the arguments off the tuple, as TVM's GetAnyCall does. */
Type *infer_op_CALL_LOWERED(OpTypeContext *ctx)
{
	const Expr *callee = ctx->call->u.call.args[0], *args = ctx->call->u.call.args[1];
	const Type *ft = ctx->arg_types[0], *tt = ctx->arg_types[1];
	if (callee->kind != EXPR_GLOBAL || ft->kind != TYPE_FUNC) {
		infer_op_error(ctx, "'call_lowered' expects a global function first, got %s",
			       infer_tname(ctx, ft));
		return NULL;
	}
	if (args->kind != EXPR_TUPLE) {
		infer_op_error(
			ctx, "'call_lowered' expects a tuple of @%s's arguments second, got %s%s",
			callee->u.global.name, tt->kind == TYPE_TUPLE ? "a variable of " : "",
			infer_tname(ctx, tt));
		return NULL;
	}
	if (tt->u.tuple.nfields != ft->u.func.nparams) {
		infer_op_error(ctx, "'call_lowered' passes %u argument%s to @%s, which takes %u",
			       tt->u.tuple.nfields, tt->u.tuple.nfields == 1 ? "" : "s",
			       callee->u.global.name, ft->u.func.nparams);
		return NULL;
	}
	for (uint32_t i = 0; i < ft->u.func.nparams; i++)
		if (!type_equal(tt->u.tuple.fields[i], ft->u.func.params[i])) {
			infer_op_error(ctx,
				       "'call_lowered' passes %s as argument %u of @%s, which "
				       "expects %s",
				       infer_tname(ctx, tt->u.tuple.fields[i]), i + 1,
				       callee->u.global.name,
				       infer_tname(ctx, ft->u.func.params[i]));
			return NULL;
		}
	return ft->u.func.ret;
}

static Type *empty_tuple(OpTypeContext *ctx)
{
	return type_tuple(ir_data_arena(ctx->module), 0, NULL);
}

/* vm.invoke_tvm_op(func, inputs, outputs): TVM's InvokeTVMOpRel. func is a
 * primitive function; inputs is the tuple of its parameters' types and
 * outputs the tuple of its results (its result, when a tensor, as a
 * tuple of one). The call itself gives the empty tuple. */
Type *infer_op_VM_INVOKE_TVM_OP(OpTypeContext *ctx)
{
	Type *fn = ctx->arg_types[0], *in = ctx->arg_types[1], *out = ctx->arg_types[2], *want;
	if (fn->kind != TYPE_FUNC) {
		infer_op_error(ctx, "'vm.invoke_tvm_op' expects a function for argument 1, got %s",
			       infer_tname(ctx, fn));
		return NULL;
	}
	for (uint32_t i = 1; i < 3; i++) {
		if (ctx->arg_types[i]->kind != TYPE_TUPLE) {
			infer_op_error(ctx,
				       "'vm.invoke_tvm_op' expects a tuple for argument %u, got %s",
				       i + 1, infer_tname(ctx, ctx->arg_types[i]));
			return NULL;
		}
	}
	want = type_tuple(ir_data_arena(ctx->module), fn->u.func.nparams, fn->u.func.params);
	if (!type_equal(want, in)) {
		infer_op_error(ctx, "'vm.invoke_tvm_op' inputs %s do not match the parameters %s",
			       infer_tname(ctx, in), infer_tname(ctx, want));
		return NULL;
	}
	want = fn->u.func.ret;
	if (want->kind == TYPE_TENSOR)
		want = type_tuple(ir_data_arena(ctx->module), 1, &want);
	if (want->kind != TYPE_TUPLE || !type_equal(want, out)) {
		infer_op_error(ctx, "'vm.invoke_tvm_op' outputs %s do not match the results %s",
			       infer_tname(ctx, out), infer_tname(ctx, want));
		return NULL;
	}
	return empty_tuple(ctx);
}

/* memory.kill(x) frees x's storage; it gives the empty tuple. */
Type *infer_op_MEMORY_KILL(OpTypeContext *ctx)
{
	return empty_tuple(ctx);
}
