/*
 * relax_print.h - printing a Relax module as TVM 0.27's `mod.script()`.
 *
 * The text is what TVM prints for the same module: keyword forms
 * (dtype=, vdevice=, dst_vdevice=, out_ty=), vdevice strings with their
 * ":global" scope, full target dicts, functions sorted as TVM sorts them
 * (prim_funcs, then Relax functions, @main last; by name), a shadowed
 * name renamed x_1, a tuple binding without parentheses and an annotation
 * on every binding but those of R.call_tir. Reading the text back
 * (relax_parse) gives a module that prints the same text.
 */
#ifndef DEVPLAN_RELAX_PRINT_H
#define DEVPLAN_RELAX_PRINT_H

#include "relax_ir.h"

void relax_print_module(StrBuf *out, const RxModule *m);
/* The same text with each binding's vdevice as a comment (`# vdevice:
 * llvm:0:global`, or `none`) and one comment line per parameter: its
 * type's vdevice, else known[id] for an id below nknown (where the
 * propagation placed it; NULL for none). Not for reading back. */
void relax_print_module_devices(StrBuf *out, const RxModule *m, const int *known, uint32_t nknown);
/* A type as an annotation, e.g. R.Tensor((2, 3), dtype="float32"). */
void relax_print_type(StrBuf *out, const RxModule *m, const RxType *t);

#endif
