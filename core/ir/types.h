/*
 * types.h - Relay types: tensors (dtype and shape, `?` dimensions allowed),
 * tuples, function types and reference types.
 *
 * Types are immutable once built and are shared freely between expressions;
 * they live in the arena of the module version that created them (or of a
 * later version that copied the pointer, which is safe because a version
 * never outlives the versions it was derived from; see session.h).
 */
#ifndef DEVPLAN_TYPES_H
#define DEVPLAN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "util.h"

/* X(ENUM, "name", bytes per element, DLPack type code, bits): TVM's
 * spelling of each dtype and its DLDataType (code 0 int, 1 uint, 2 float,
 * 4 bfloat; bool is TVM's uint1, stored in a byte). */
#define DTYPE_LIST(X)                      \
	X(DT_FLOAT32, "float32", 4, 2, 32) \
	X(DT_FLOAT64, "float64", 8, 2, 64) \
	X(DT_FLOAT16, "float16", 2, 2, 16) \
	X(DT_INT32, "int32", 4, 0, 32)     \
	X(DT_INT64, "int64", 8, 0, 64)     \
	X(DT_BOOL, "bool", 1, 1, 1)        \
	X(DT_INT8, "int8", 1, 0, 8)        \
	X(DT_UINT8, "uint8", 1, 1, 8)      \
	X(DT_INT16, "int16", 2, 0, 16)     \
	X(DT_UINT16, "uint16", 2, 1, 16)   \
	X(DT_UINT32, "uint32", 4, 1, 32)   \
	X(DT_UINT64, "uint64", 8, 1, 64)   \
	X(DT_BFLOAT16, "bfloat16", 2, 4, 16)

typedef enum DType {
#define X(e, name, size, code, bits) e,
	DTYPE_LIST(X)
#undef X
		DT_COUNT
} DType;

const char *dtype_name(DType dt);
size_t dtype_size(DType dt);
/* Returns false when name is not a dtype devplan knows. */
bool dtype_from_name(const char *name, size_t len, DType *out);
/* A dtype as TVM's String2DLDataType reads one in a type: a name above,
 * `int`, `uint` and `float` (32 bits), `uint1` (bool), each perhaps with
 * a vector width, `int8x4` (*lanes 4; 1 otherwise). Returns false for
 * anything else, or a width of 0 or above 65535. */
bool dtype_parse(const char *name, size_t len, DType *out, uint32_t *lanes);
/* "float32, float64, ..., bfloat16": every dtype name, for messages. */
const char *dtype_known_names(void);
/* float16, bfloat16, float32 or float64. */
bool dtype_is_float(DType dt);
/* A signed or unsigned integer dtype (bool is neither). */
bool dtype_is_integer(DType dt);
bool dtype_is_unsigned(DType dt);
/* The DLPack DLDataType of dt (lanes 1), and back; dtype_from_dlpack
 * returns false for one devplan does not know. */
void dtype_dlpack(DType dt, unsigned *code, unsigned *bits);
bool dtype_from_dlpack(unsigned code, unsigned bits, DType *out);

/* A dimension that is not known statically (printed `?`). */
#define DIM_ANY (-1)

typedef enum TypeKind {
	TYPE_TENSOR, /* u.tensor */
	TYPE_TUPLE,  /* u.tuple */
	TYPE_FUNC,   /* u.func */
	TYPE_REF,    /* u.ref: a mutable cell, TVM's RelayRefType `ref(T)` */
	TYPE_VAR,    /* u.var: a type parameter `A`, or an inference hole */
	TYPE_CALL,   /* u.call: an ADT applied to its arguments, `List[A]` */
} TypeKind;

typedef struct Type Type;
struct Type {
	TypeKind kind;
	union {
		/* TYPE_TENSOR: ndim dims, each >= 0 or DIM_ANY; ndim 0 is a
		 * scalar. lanes: TVM's vector dtypes (`int8x4`: 4), 1 for a
		 * plain one; a type of several lanes is read and printed, and
		 * the phases refuse it (type_has_lanes) */
		struct {
			DType dtype;
			uint32_t ndim;
			int64_t *dims;
			uint32_t lanes;
		} tensor;
		/* TYPE_TUPLE */
		struct {
			uint32_t nfields;
			Type **fields;
		} tuple;
		/* TYPE_FUNC: a polymorphic closure's (`fn [A](A) -> A`) names
		 * its type parameters, which each call instantiates */
		struct {
			uint32_t nparams;
			uint32_t ntype_params;
			Type **params;
			Type *ret;
			const char **type_params; /* shared, never copied */
		} func;
		/* TYPE_REF: the type of the value the cell holds */
		struct {
			Type *value;
		} ref;
		/* TYPE_VAR: `hole` marks a type inference could not determine
		 * (a nullary constructor with nothing to say what its type
		 * arguments are), named `?`, or one the text left to it,
		 * TVM's IncompleteType `_`, named `_`; type_equal lets a hole
		 * equal any type */
		struct {
			const char *name;
			bool hole;
		} var;
		/* TYPE_CALL: the ADT's name and its nargs arguments; `bare` is
		 * TVM's spelling of a reference without brackets (`Storage`,
		 * a GlobalTypeVar) as against `Storage[]` (a TypeCall with no
		 * arguments), kept so that both print back as written */
		struct {
			const char *name;
			uint32_t nargs;
			Type **args;
			bool bare;
		} call;
	} u;
};

/* Constructors copy the arrays they are given into the arena. A tensor
 * type has one lane. */
Type *type_tensor(Arena *arena, DType dtype, uint32_t ndim, const int64_t *dims);
Type *type_scalar(Arena *arena, DType dtype);
Type *type_tuple(Arena *arena, uint32_t nfields, Type *const *fields);
Type *type_func(Arena *arena, uint32_t nparams, Type *const *params, Type *ret);
Type *type_ref(Arena *arena, Type *value);
/* name is copied into the arena. */
Type *type_var(Arena *arena, const char *name, bool hole);
Type *type_call(Arena *arena, const char *name, uint32_t nargs, Type *const *args, bool bare);
/* t with every type variable named params[i] (not a hole) replaced by
 * args[i]; t itself when none occurs. */
Type *type_substitute(Arena *arena, Type *t, uint32_t n, const char *const *params,
		      Type *const *args);

/* Whether t is a tensor or a tuple of them (nested): a value made of
 * tensors only, not a closure, a reference or an ADT value. */
bool type_is_tensors(const Type *t);
/* Does t contain an inference hole anywhere? */
bool type_has_hole(const Type *t);
/* Does t contain a tensor of a vector dtype (lanes > 1) anywhere? */
bool type_has_lanes(const Type *t);
/* Structural equality; type variables are equal by name, a hole equals
 * anything, and `bare` does not count. */
bool type_equal(const Type *a, const Type *b);
/* Appends the Relay spelling: Tensor[(5, 7), float32], (T1, T2), fn (T) -> T,
 * ref(T), A, List[A], Storage, int8x4 (a bool vector is TVM's uint1x4);
 * `?` for NULL, a hole by its name (`?` or `_`). */
void type_print(StrBuf *out, const Type *t);
/* type_print's spelling as a string in arena, for diagnostics; it lives as
 * long as the arena. */
const char *type_string(Arena *arena, const Type *t);
/* Elements of a tensor type; false if a dimension is unknown or the count
 * overflows int64. */
bool type_num_elements(const Type *t, int64_t *out);
/* Bytes of a value of this type summed over tuple fields (every lane of a
 * vector dtype); false when any dimension is unknown or the size
 * overflows. */
bool type_bytes(const Type *t, int64_t *out);

#endif
