/*
 * relax_lower.h - a realised Relax module lowered onto devplan's Relay, so
 * that the executor, render, estimate and copies run it unchanged.
 *
 * The lowering writes Relay text (the Relay parser reads it back with
 * every attribute checked): the entry function (named, else `main`, else
 * the one Relax function no other one calls) becomes @main, the functions
 * it calls inlined; each binding a `let` whose value is
 * wrapped in on_device with its vdevice's device, each parameter annotated
 * with its device, R.to_vdevice a device_copy, and an operand on another
 * device than its operator a device_copy too (TVM's VM reads it in place:
 * two llvm vdevices share the host's memory). The Relax operators map onto
 * the Relay ones that relax_ops.def names, with their attributes
 * translated here; an operator without one is a positioned error naming
 * it ("R.foo has no kernel: cannot run"). An `if` is a Relay if, an
 * R.match_cast a let annotated with the cast's type.
 *
 * Ownership: the caller owns out (strbuf_free); nothing else is kept.
 */
#ifndef DEVPLAN_RELAX_LOWER_H
#define DEVPLAN_RELAX_LOWER_H

#include <stdbool.h>
#include <stdint.h>

#include "relax_ir.h"
#include "util.h"

/* The function a run starts from: the Relax function name (a leading '@'
 * allowed), or with name NULL `main`, else the one Relax function no
 * other one calls. NULL with an error in diags (an unknown name gets a
 * did-you-mean). */
const RxFunc *relax_lower_entry(const RxModule *m, const char *name, DiagList *diags);

/* Lowers m's entry function (relax_lower_entry's) into out. device_of[v]
 * is the device-table index of vdevice v (-1: it cannot run; using it is
 * an error), and unplaced the one of a tensor with no vdevice (TVM's VM
 * allocates it on its first device). With origin, where each line of out
 * comes from in m's source (diag.h; the caller frees it or gives it to
 * the lowered text's SourceFile). False with positioned errors in
 * diags. */
bool relax_lower(const RxModule *m, const int32_t *device_of, int32_t unplaced, const char *entry,
		 StrBuf *out, SourceOrigin *origin, DiagList *diags);

#endif
