/*
 * relax_parse.h - reading a Relax module from TVMScript text.
 *
 * relax_parse reads what TVM's `mod.script()` prints (0.25 to 0.27) and
 * what its tests write by hand in the same subset: an @I.ir_module class
 * with I.module_attrs, I.module_global_infos and its functions. Errors are
 * positioned diagnostics (file:line:col) in diags, as the Relay parser
 * gives them; a vdevice string naming no entry of the module's list is
 * TVM's own error ("The target VDevice in the GlobalInfos was not found").
 *
 * Ownership: the returned module is the caller's (relax_module_free); it
 * points into src for positions, so src must outlive it.
 */
#ifndef DEVPLAN_RELAX_PARSE_H
#define DEVPLAN_RELAX_PARSE_H

#include "relax_ir.h"

/* Whether a file is Relax rather than Relay: its name ends in .py or
 * .relax, or its text has `@I.ir_module`. */
bool relax_source_is_relax(const SourceFile *src, const char *path);
/* The module, or NULL with the errors in diags. */
RxModule *relax_parse(const SourceFile *src, DiagList *diags);

#endif
