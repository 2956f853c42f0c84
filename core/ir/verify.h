/*
 * verify.h - the IR verifier: what every module version must satisfy.
 *
 * STYLE.md §4: a verifier checks invariants after every phase in debug and
 * test builds. session_run_phase runs ir_verify on each phase's output when
 * devplan is built with DEVPLAN_VERIFY (on in every build type but Release
 * and MinSizeRel, so in the tests and the sanitizer and fuzz builds), and a
 * violation is an internal error: a phase broke the module, and nothing
 * planned from it could be trusted.
 *
 * Every version, whatever phases made it: every node reachable from the
 * globals and free variables has an id below nexprs that no other node
 * has; no child is missing; a call of an op has that op's number of
 * arguments; a let binds a let variable to its value, a function's
 * parameters are parameters, each bound by one binder only, and every use
 * of a bound variable lies inside its binder (a let's value included, for a
 * closure that calls itself); a global reference names a global; a device,
 * where set, is in the device table. After a phase that produces types
 * (VERIFY_TYPES) every node has a type; after one that places devices
 * (VERIFY_DEVICES) every node has a device. Free variables no global uses
 * are exempt from both.
 */
#ifndef DEVPLAN_VERIFY_H
#define DEVPLAN_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "ir.h"

/* What a version must have besides a sound structure. */
enum {
	VERIFY_TYPES = 1 << 0,   /* every node typed, and the module says so */
	VERIFY_DEVICES = 1 << 1, /* every node on a device */
};

/* Checks m against the invariants above (`require`: VERIFY_* flags; the
 * device table has ndevices entries). Reports the first violations found
 * as errors positioned at the node concerned; true when there was none. */
bool ir_verify(const IrModule *m, unsigned require, uint32_t ndevices, DiagList *diags);

#endif
