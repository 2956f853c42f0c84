/*
 * relax_lower.h - a realised Relax module lowered onto devplan's Relay, so
 * that the executor, render, estimate and copies run it unchanged.
 *
 * The lowering writes Relay text (the Relay parser reads it back with
 * every attribute checked): the entry function (`main`, else the one
 * Relax function no other one calls) becomes @main; each binding a `let` whose value is
 * wrapped in on_device with its vdevice's device, each parameter annotated
 * with its device, R.to_vdevice a device_copy, and an operand on another
 * device than its operator a device_copy too (TVM's VM reads it in place:
 * two llvm vdevices share the host's memory). The Relax operators map onto
 * the Relay ones that relax_ops.def names, with their attributes
 * translated here; an operator without one is a positioned error naming
 * it ("R.foo has no kernel: cannot run").
 *
 * Ownership: the caller owns out (strbuf_free); nothing else is kept.
 */
#ifndef DEVPLAN_RELAX_LOWER_H
#define DEVPLAN_RELAX_LOWER_H

#include <stdbool.h>
#include <stdint.h>

#include "relax_ir.h"
#include "util.h"

/* Lowers m's entry function into out. device_of[v] is the device-table
 * index of vdevice v (-1: it cannot run; using it is an error), and
 * unplaced the one of a tensor with no vdevice (TVM's VM allocates it on
 * its first device). False with positioned errors in diags. */
bool relax_lower(const RxModule *m, const int32_t *device_of, int32_t unplaced, StrBuf *out,
		 DiagList *diags);

#endif
