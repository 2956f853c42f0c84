/*
 * plan_pins.c - what a what-if pin names (phase.h's PlanPin).
 *
 * A pin names values as an annotation would: by name (`pin %x cuda:0`,
 * every expression so named), or by operator (`pin --op nn.conv*,nn.dense
 * cuda:0`, every call of an operator one of the globs matches, with
 * fnmatch's shell patterns). The phases apply pins (plan_constraints.c
 * binds a fixed pin's values; plan_rewrite.c puts a plain on_device around
 * a --body pin's), TVM's walk reads them (plan_tvm.c), and `save` writes
 * them as annotations (session_annotate_pins).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

bool plan_op_globs_match(const char *globs, const char *op)
{
	const char *p = globs;
	char glob[256];
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n && n < sizeof glob) {
			memcpy(glob, p, n);
			glob[n] = '\0';
			if (fnmatch(glob, op, 0) == 0)
				return true;
		}
		p += n + (p[n] == ',');
	}
	return false;
}

bool plan_pin_matches(const PlanPin *pin, const Expr *e)
{
	if (pin->name)
		return e->name && strcmp(e->name, pin->name) == 0;
	if (e->kind != EXPR_CALL || e->u.call.op == OP_NONE || e->u.call.op == OP_ON_DEVICE ||
	    e->u.call.op == OP_DEVICE_COPY)
		return false;
	return plan_op_globs_match(pin->op, ir_call_op_name(e));
}

void plan_pin_format(StrBuf *out, const PlanPin *pin, const DeviceTable *devices)
{
	if (pin->body)
		strbuf_puts(out, "--body ");
	if (pin->name)
		strbuf_printf(out, "%%%s", pin->name);
	else
		strbuf_printf(out, "--op %s", pin->op);
	strbuf_printf(out, " %s", devices_name(devices, pin->device));
}
