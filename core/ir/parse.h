/*
 * parse.h - the Relay text parser (SPEC §2).
 *
 * parse_module reads a whole module, including TVM's `#[metadata]` section,
 * and resolves every device reference against the device table. It reports
 * every error it can find (with file:line:col) into diags, recovering at
 * statement boundaries, and stops after PARSE_MAX_ERRORS. It never crashes,
 * hangs or leaks on any byte sequence.
 *
 * Ownership: the returned module is the caller's (ir_module_free); it
 * retains src. On error it returns NULL and diags holds at least one error.
 */
#ifndef DEVPLAN_PARSE_H
#define DEVPLAN_PARSE_H

#include "devices.h"
#include "diag.h"
#include "ir.h"

enum { PARSE_MAX_ERRORS = 20 };

IrModule *parse_module(SourceFile *src, const DeviceTable *devices, DiagList *diags);
/* The deepest nesting a module may have: 1000 levels, fewer when the stack
 * (`ulimit -s`) is too small to hold them. */
int parse_max_depth(void);

#endif
