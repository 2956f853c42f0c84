/*
 * parse.h - the Relay text parser (SPEC §2).
 *
 * parse_module reads a whole module, including TVM's `#[metadata]` section,
 * and resolves every device reference against the device table (a
 * device's type, id and memory scope). It reports
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

/* A memory scope of a device the table has that it does not hold yet (the
 * module's #[metadata], a VirtualDevice(...) literal or a "cpu:0:scopeA")
 * is appended to devices (devices_intern), those of one parse sorted by
 * device and scope name, whatever the order of the text; the table may so
 * grow even when parsing fails. devices NULL is an empty table. */
IrModule *parse_module(SourceFile *src, DeviceTable *devices, DiagList *diags);
/* The deepest nesting a module may have: 1000 levels, fewer when the
 * calling thread's stack (the main thread's: `ulimit -s`) is too small to
 * hold them. */
int parse_max_depth(void);

#endif
