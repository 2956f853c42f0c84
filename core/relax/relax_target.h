/*
 * relax_target.h - TVM targets as the vdevice list holds them: the kind's
 * DLPack device type and the full config dict TVM 0.27 prints.
 *
 * Ownership: the dicts are built in the module's arena.
 */
#ifndef DEVPLAN_RELAX_TARGET_H
#define DEVPLAN_RELAX_TARGET_H

#include "relax_ir.h"

/* The DLPack device type of a target kind (llvm 1, cuda 2, ...), or 0. */
int relax_target_device_type(const char *kind);
/* The kind of a target given as a string ("cuda -arch=sm_80") or a
 * dict; NULL when there is none. */
const char *relax_target_kind(RxModule *m, const PyExpr *target);
/* The config dict TVM prints for a target given as a string or a
 * (partial) dict: the kind's defaults, then the keys given, sorted. */
PyExpr *relax_target_config(RxModule *m, const PyExpr *target, const char *kind);

#endif
