/*
 * print.h - the Relay text printer.
 *
 * Writes the format the parser reads, in TVM's layout: `def @f(...) -> T {`,
 * one `%N = expr;` graph binding per non-atomic expression, lets, closures,
 * and devices as `meta[VirtualDevice][i]` indexing the session's device
 * table (or, printed with the #[metadata] section the module was loaded
 * with, that section's entries). A binding keeps its source name when it has one; new nodes get the
 * lowest free number. print(parse(print(m))) == print(m) [P1].
 * The caller owns the StrBuf it passes in.
 */
#ifndef DEVPLAN_PRINT_H
#define DEVPLAN_PRINT_H

#include <stdbool.h>

#include "devices.h"
#include "ir.h"

typedef struct PrintOptions {
	const DeviceTable *devices; /* names for show_devices and the table that
				       show_metadata writes; NULL: the default
				       table (cpu:0, cuda:0) */
	const char *only_global;    /* print just this @global (after the header
				       and free_var lines), or NULL */
	bool show_devices;          /* a `cuda:0` comment, see print_module */
	const int32_t *device_of;   /* with show_devices: by expression id, the
				       device to show instead of each node's own,
				       IR_NO_DEVICE shown as `free` (the devices a
				       phase in progress has bound so far); NULL:
				       the node's own */
	bool show_types;            /* a `ty=...` comment, see print_module */
	bool show_metadata;         /* append a blank line and the #[metadata]
				       section when m has constants or was
				       loaded with one (metadata_write); with
				       its own section, devices print as that
				       section numbers them (MetadataSlots) */
} PrintOptions;

/*
 * Appends the module: `#[version = "0.0.5"]`, a `free_var %x: T;` line per
 * free variable (m->free_vars, then any other VAR_FREE variable the printed
 * globals use), then the globals in definition order, separated by blank
 * lines, ending with a newline.
 *
 * Comments: with show_types and/or show_devices, every parameter, binding
 * line, let line and scope result printed in full (not a bare reference)
 * carries one TVM-style block comment just before its `;` or end of line,
 *     %0 = add(%a, %b) <comment ty=Tensor[(5, 7), float32] cuda:0>;
 * where <comment ...> stands for the slash-star delimiters. It holds `ty=T`
 * (show_types, type known) and the device-table name (show_devices, device
 * set; with device_of, its entry, or `free`), separated by a space, and is
 * omitted when neither applies. A
 * binding's comment describes the bound expression, a let line's the let
 * variable; a closure's or an if's follows its closing brace.
 *
 * Spans: an expression with a source span (ir_span) has `span=S` last in
 * the comment after it, whatever the options, as TVM prints it: a
 * binding's, a scope result's and a let's value in the line's comment (a
 * call whose type is printed after it, in that one), a constant's and a
 * parameter's in theirs, and a let's or a pattern's variable in a comment
 * of its own after its type. With
 * show_types a function without a written `-> T` shows its inferred result
 * type. The parser skips comments, so annotated output still reads back.
 */
void print_module(StrBuf *out, const IrModule *m, const PrintOptions *opts);
/* Whether e prints in place, never as a binding of its own: a variable, a
 * global, a constant, a constructor without fields. */
bool print_is_atom(const Expr *e);
/* One expression on one line, nested, without bindings, for messages;
 * subexpressions deeper than 8 levels or past 64 nodes print as `...`. */
void print_expr_inline(StrBuf *out, const Expr *e);
/* `meta[VirtualDevice][i]` for a device index; `VirtualDevice()` (TVM's
 * spelling of the unconstrained device) for IR_NO_DEVICE. */
void print_device(StrBuf *out, int32_t device);

#endif
