/*
 * print.h - the Relay text printer.
 *
 * Writes the format the parser reads, in TVM's layout: `def @f(...) -> T {`,
 * one `%N = expr;` graph binding per non-atomic expression, lets, closures,
 * and devices as `meta[VirtualDevice][i]` indexing the session's device
 * table. A binding keeps its source name when it has one; new nodes get the
 * lowest free number. print(parse(print(m))) == print(m) [P1].
 * The caller owns the StrBuf it passes in.
 */
#ifndef DEVPLAN_PRINT_H
#define DEVPLAN_PRINT_H

#include <stdbool.h>

#include "devices.h"
#include "ir.h"

typedef struct PrintOptions {
	const DeviceTable *devices; /* for --devices comments; may be NULL */
	const char *only_global;    /* print just this @global, or NULL */
	bool show_devices;          /* `/* cuda:0 *\/` after each binding */
	bool show_types;            /* `/* ty=... *\/` after typed bindings */
	bool show_metadata;         /* append the #[metadata] section when the
				       module has constants */
} PrintOptions;

void print_module(StrBuf *out, const IrModule *m, const PrintOptions *opts);
/* One expression on one line (nested, no bindings), for messages. */
void print_expr_inline(StrBuf *out, const Expr *e);
/* `meta[VirtualDevice][i]` for a device index. */
void print_device(StrBuf *out, int32_t device);

#endif
