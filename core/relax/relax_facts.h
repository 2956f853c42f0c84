/*
 * relax_facts.h - the placement of a realised Relax module as facts
 * (SPEC §5.1's param, bind, copy and result lines), the one source of
 * `placement`, `placement --json` and `info contract` for Relax.
 *
 * A parameter or result carries the vdevice the module as loaded declared
 * beside the one it ended with, so that the device contract a caller must
 * meet shows what RealizeVDevice inferred (test_multi_cpu's z on llvm:1)
 * or replaced. The JSON is Relay's `placement --json` document (functions,
 * each with params, binds, copies and result; "device" a devplan device
 * name as `run` maps it: llvm vdevice N is cpu:N, cuda's cuda:N) with what
 * Relax adds: "vdevice" (TVM's name, "llvm:1:global"), "inferred" and
 * "declared" on parameters, "result_vdevice", "result_inferred" and
 * "result_declared" on a function, and "language": "relax".
 *
 * Ownership: an RxPlacement borrows the modules it was made from.
 */
#ifndef DEVPLAN_RELAX_FACTS_H
#define DEVPLAN_RELAX_FACTS_H

#include "relax_ir.h"

typedef enum RxFactKind { RX_FACT_PARAM, RX_FACT_BIND, RX_FACT_COPY, RX_FACT_RESULT } RxFactKind;

typedef struct RxFact {
	RxFactKind kind;
	const RxFunc *func; /* of the realised module */
	const RxVar *var;   /* param, bind: the variable; copy: the copied
			       one; NULL for a result */
	const RxVar *copy;  /* copy: the R.to_vdevice binding's variable */
	int vdevice;        /* where it lives (copy: from), -1 for none */
	int dest;           /* copy: to */
	long long bytes;    /* copy: bytes moved, -1 when unknown */
	int declared;       /* param, result: the vdevice the module as loaded
			       declared, -1 for none */
} RxFact;

typedef struct RxPlacement {
	const RxModule *m; /* the realised module */
	RxFact *facts;     /* functions in definition order */
	size_t count, cap;
} RxPlacement;

/* The facts of realised, whose functions and variable ids are those of in
 * (the module as loaded), Relax functions only. */
void relax_placement(const RxModule *realised, const RxModule *in, RxPlacement *out);
void relax_placement_free(RxPlacement *p);
/* Whether a param or result's vdevice is not the one declared: "inferred"
 * (none was declared), "declared otherwise", or NULL. */
const char *relax_fact_mark(const RxFact *f);
/* One fact's line, without its newline: `@foo param %z llvm:1:global
 * (inferred)`, `@foo copy %lv0 llvm:0:global -> llvm:1:global 32`. */
void relax_fact_format(StrBuf *out, const RxModule *m, const RxFact *f);
/* The JSON document (see the top), in json-c's pretty layout. */
void relax_placement_json(StrBuf *out, const RxPlacement *p);

#endif
