/*
 * infer_misc.c - the type relations of the operators of the registry that
 * belong to no family of their own: debug and the annotation.* markers
 * (TVM's IdentityRel: the argument's type, tensor or not), and the
 * operators the VM's memory planning introduces: vm.shape_of,
 * vm.reshape_tensor, vm.invoke_tvm_op, memory.kill, LowerTE's
 * call_lowered, memory.alloc_storage and memory.alloc_tensor (whose
 * storage has the type `Storage[]`, the ADT of that name the module must
 * define, as TVM's prelude does). (cumsum and cumprod, TVM's ScanopRel,
 * live with the transforms.)
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

/* `Storage[]`, TVM's TypeCall of the module's Storage type; NULL after an
 * error when the module defines no such type. */
static Type *storage_type(OpTypeContext *ctx)
{
	if (ir_find_typedef(ctx->module, "Storage") < 0) {
		infer_op_error(ctx,
			       "'%s' needs the module's 'type Storage' definition (TVM's prelude "
			       "has it)",
			       infer_op_name(ctx));
		return NULL;
	}
	return type_call(ir_data_arena(ctx->module), "Storage", 0, NULL, false);
}

/* Argument i is a scalar int64 tensor (a size or an alignment). */
static bool int64_scalar_arg(OpTypeContext *ctx, uint32_t i, const char *what)
{
	Type *t = infer_tensor_arg(ctx, i);
	if (!t)
		return false;
	if (t->u.tensor.ndim != 0 || t->u.tensor.dtype != DT_INT64) {
		infer_op_error(ctx, "'%s' expects its %s to be int64, got %s", infer_op_name(ctx),
			       what, infer_tname(ctx, t));
		return false;
	}
	return true;
}

/* memory.alloc_storage(size, shape, alignment): TVM's AllocStorageRel,
 * Storage[] of a scalar int64 size and alignment (the shape any tensor). */
Type *infer_op_MEMORY_ALLOC_STORAGE(OpTypeContext *ctx)
{
	DType dt;
	if (!int64_scalar_arg(ctx, 0, "size") || !infer_tensor_arg(ctx, 1) ||
	    !int64_scalar_arg(ctx, 2, "alignment") ||
	    !infer_attr_dtype(ctx, "dtype", DT_FLOAT32, &dt))
		return NULL;
	return storage_type(ctx);
}

/* memory.alloc_tensor's const_shape: TVM's Constant, printed
 * meta[relay.Constant][i], a vector of int64 (or int32) sizes; or those
 * sizes written out as a list. A constant's sizes are copied into the
 * module's arena as AttrValue ints, so that both forms read alike;
 * *present is false when it is absent or None. */
static bool const_shape_attr(OpTypeContext *ctx, const AttrValue **items, uint32_t *n,
			     bool *present)
{
	const AttrValue *v = infer_attr_value(ctx, "const_shape");
	const IrModule *m = ctx->module;
	const Tensor *t;
	AttrValue *buf;
	if (!v || v->kind != ATTR_CONSTANT)
		return infer_attr_list(ctx, "const_shape", items, n, present);
	*present = true;
	t = v->u.constant >= 0 && (uint32_t)v->u.constant < m->nconstants &&
			    m->constants[v->u.constant]
		    ? &m->constants[v->u.constant]->u.constant.tensor
		    : NULL;
	if (!t || !t->data || t->ndim != 1 || (t->dtype != DT_INT64 && t->dtype != DT_INT32)) {
		infer_op_error(ctx,
			       "'memory.alloc_tensor' const_shape must be a constant vector of "
			       "int64 or int32 sizes");
		return false;
	}
	if (t->shape[0] > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'memory.alloc_tensor' shape has %lld dimensions, more than %d",
			       (long long)t->shape[0], INFER_MAX_NDIM);
		return false;
	}
	*n = (uint32_t)t->shape[0];
	buf = arena_array(ir_data_arena(ctx->module), *n ? *n : 1, sizeof(AttrValue));
	for (uint32_t i = 0; i < *n; i++) {
		buf[i].kind = ATTR_INT;
		buf[i].u.i = t->dtype == DT_INT64 ? ((const int64_t *)t->data)[i]
						  : ((const int32_t *)t->data)[i];
	}
	*items = buf;
	return true;
}

/* memory.alloc_tensor(storage, offset, shape): TVM's AllocTensorRel, a
 * tensor of dtype shaped const_shape (as many sizes as the shape vector
 * has), else assert_shape, which one of them must give. */
Type *infer_op_MEMORY_ALLOC_TENSOR(OpTypeContext *ctx)
{
	Type *storage = storage_type(ctx), *shape;
	const AttrValue *items;
	uint32_t n;
	bool is_const, is_assert;
	DimBuf buf;
	int64_t *dims;
	DType dt;
	Type *r;
	if (!storage)
		return NULL;
	if (!type_equal(ctx->arg_types[0], storage)) {
		infer_op_error(ctx,
			       "'memory.alloc_tensor' expects Storage[] for argument 1, got %s",
			       infer_tname(ctx, ctx->arg_types[0]));
		return NULL;
	}
	if (!infer_tensor_arg(ctx, 1) || !(shape = infer_tensor_arg(ctx, 2)) ||
	    !infer_attr_dtype(ctx, "dtype", DT_FLOAT32, &dt) ||
	    !const_shape_attr(ctx, &items, &n, &is_const))
		return NULL;
	if (shape->u.tensor.ndim > 1 ||
	    (shape->u.tensor.ndim == 1 && shape->u.tensor.dims[0] == DIM_ANY)) {
		infer_op_error(
			ctx, "'memory.alloc_tensor' expects a shape vector of known length, got %s",
			infer_tname(ctx, shape));
		return NULL;
	}
	if (is_const) {
		int64_t rank = shape->u.tensor.ndim ? shape->u.tensor.dims[0] : 0;
		if ((int64_t)n != rank) {
			infer_op_error(ctx,
				       "'memory.alloc_tensor' const_shape=%s has %u sizes, but the "
				       "shape vector %s has %lld",
				       infer_list_text(ctx, items, n), n, infer_tname(ctx, shape),
				       (long long)rank);
			return NULL;
		}
	} else {
		if (!infer_attr_list(ctx, "assert_shape", &items, &n, &is_assert))
			return NULL;
		if (!is_assert) {
			infer_op_error(ctx,
				       "'memory.alloc_tensor' needs const_shape or assert_shape");
			return NULL;
		}
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'memory.alloc_tensor' shape has %u dimensions, more than %d",
			       n, INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		if (items[i].u.i < -1) {
			infer_op_error(ctx, "'memory.alloc_tensor' shape %s has a negative size",
				       infer_list_text(ctx, items, n));
			dims_release(&buf);
			return NULL;
		}
		dims[i] = items[i].u.i < 0 ? DIM_ANY : items[i].u.i;
	}
	r = infer_result(ctx, dt, n, dims, NULL, NULL);
	dims_release(&buf);
	return r;
}
