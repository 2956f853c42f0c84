/*
 * lexical.h - the devices TVM reads off a module's text.
 *
 * After PlanDevices, TVM keeps no device per expression: every later pass
 * (LowerTE, the VM compiler, memory planning) recovers it lexically, with
 * DeviceAwareExprVisitor (src/relay/transforms/device_aware_visitors.cc at
 * v0.14.0, whose RecoverVirtualDeviceMap this mirrors):
 *   - a fixed on_device (body and result constrained) is on its device, and
 *     so is everything below it up to the next scope;
 *   - a function (not Primitive=1) is on its virtual_device, and so is its
 *     body; its parameters are on their own virtual_devices;
 *   - a let variable is where its value reads, as of the let;
 *   - a reference to a global is on that function's virtual_device;
 *   - anything else, a device_copy included (it does not scope its
 *     argument), is on the innermost enclosing scope's device.
 * TVM binds no pattern variable of a match and no free variable, and does
 * not look inside a Primitive=1 function: for those it recovers nothing.
 *
 * The planned module devplan prints must read back as planned: plan_verify
 * compares this reading with every node's device.
 */
#ifndef DEVPLAN_LEXICAL_H
#define DEVPLAN_LEXICAL_H

#include <stdint.h>

#include "ir.h"

/* A node TVM reads as on two devices: it is shared by two places of the
 * text whose scopes differ (TVM keeps whichever it visits last). */
#define IR_LEXICAL_AMBIGUOUS (-2)

/* By expression id (m->nexprs entries, at least one; the caller frees the
 * array): each node's device as TVM reads it, IR_NO_DEVICE where TVM
 * recovers none (see above) or where no global reaches the node, and
 * IR_LEXICAL_AMBIGUOUS where two places disagree. Iterative; each node is
 * walked at most twice. */
int16_t *ir_lexical_devices(const IrModule *m);

#endif
