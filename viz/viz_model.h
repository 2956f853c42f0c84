/*
 * viz_model.h - the plain model of a drawing, inside viz/ only.
 *
 * viz_model_build turns a module version and the render options into
 * arrays: nodes (expressions, in the module's definition and execution
 * order), data-flow edges, clusters (functions, or device regions), the
 * conflict labels from the PlanTrace, the --focus cut, the folded weights,
 * operands read on another device without a copy, reference nodes for long
 * edges, and the size check; or, for the overview, boxes (regions and
 * copies) and the links between them. Every decision about what is drawn is
 * taken here, on plain arrays; viz_draw.c only turns the model into cgraph
 * objects in one fixed order, and viz_render.c lays them out.
 *
 * Ownership: the model owns its arrays and strings; it borrows the options
 * and the module, which must outlive it; viz_model_free releases it.
 */
#ifndef DEVPLAN_VIZ_MODEL_H
#define DEVPLAN_VIZ_MODEL_H

#include "plan.h"
#include "viz.h"

#define VIZ_NONE UINT32_MAX
/* A use further than this many drawn nodes (in execution order) from its
 * value reads a reference node instead of a long edge; see viz_references. */
#define VIZ_REACH 40
/* The same for the overview, in boxes: a link between boxes further apart
 * than this is drawn from a reference node beside the box it feeds. */
#define VIZ_OVERVIEW_REACH 4
/* Past this many drawn nodes edge labels become xlabels: a real edge label
 * makes dot double every rank (a 2,000-node module: 50 s instead of 2 s). */
#define VIZ_LABEL_NODES 300

struct Agraph_s;
struct Agnode_s;

typedef enum VizClusterKind {
	VIZ_CLUSTER_GLOBAL,  /* a global function */
	VIZ_CLUSTER_CLOSURE, /* a closure, inside its parent's cluster */
	VIZ_CLUSTER_REGION,  /* --regions: a run of ops on one device */
} VizClusterKind;

typedef struct VizCluster {
	VizClusterKind kind;
	uint32_t parent;        /* enclosing cluster, or VIZ_NONE */
	char *name;             /* cluster_... (owned) */
	char *title;            /* @main, %f, fn@3:5, or a region's label (owned) */
	int32_t device;         /* a function's result device, or a region's device */
	struct Agraph_s *graph; /* viz_draw.c: created when its first node is drawn */
} VizCluster;

typedef struct VizNode {
	Expr *e;
	uint32_t function;     /* the function cluster it belongs to, or VIZ_NONE */
	uint32_t cluster;      /* the cluster it is drawn in, or VIZ_NONE */
	const char *let_name;  /* a let variable bound to it, when it has no name */
	bool drawn;            /* false: a global only called, cut by --focus, or
				  folded */
	bool folded;           /* a parameter or constant folded into its
				  consumers (viz_fold): not drawn, listed on
				  each consumer's `weights:` line */
	struct Agnode_s *node; /* viz_draw.c: the node drawn for it */
} VizNode;

typedef enum VizEdgeKind {
	VIZ_EDGE_DATA,   /* an operand, field or projected tuple */
	VIZ_EDGE_CALLEE, /* the closure a call calls */
	VIZ_EDGE_COND,   /* an if's condition */
	VIZ_EDGE_THEN,   /* an if's branches */
	VIZ_EDGE_ELSE,
	VIZ_EDGE_RESULT,  /* a closure's body into the closure */
	VIZ_EDGE_MATCHED, /* the value a match takes apart */
	VIZ_EDGE_CLAUSE,  /* a match clause's body */
} VizEdgeKind;

typedef struct VizEdge {
	uint32_t from, to; /* node indices */
	VizEdgeKind kind;
	char *conflict; /* `needs %b on cuda:0` (owned), or NULL */
	bool reference; /* drawn from a reference node beside `to` */
	bool folded;    /* from a folded value: a line of `to`'s label */
	char *uncopied; /* an operand read on another device with no copy:
			   `no copy: captured by a closure` (owned), or NULL */
} VizEdge;

/* --overview: a node per device region or device_copy, and the data flow
 * between them. */
typedef struct VizBox {
	char *name;     /* r<n> for a region, n<id> for a copy (owned) */
	char *label;    /* its lines, \n-separated (owned) */
	char *tooltip;  /* (owned) */
	int32_t device; /* a region's device; a copy's destination */
	int32_t source; /* a copy's source device; IR_NO_DEVICE for a region */
	uint32_t node;  /* a copy's node, or VIZ_NONE for a region */
	bool copy;
} VizBox;

typedef struct VizLink {
	uint32_t from, to; /* box indices */
	int64_t bytes;     /* moved along it: the distinct values it carries */
	uint32_t value;    /* the first of those values (a node index) */
	uint32_t nvalues;  /* how many there are */
	bool reference;    /* drawn from a reference node beside `to` (far) */
} VizLink;

typedef struct VizOverview {
	VizBox *boxes;
	size_t nboxes, cap_boxes;
	VizLink *links;
	size_t nlinks, cap_links;
} VizOverview;

typedef struct VizModel {
	const VizOptions *opts;
	const IrModule *m;
	VizNode *nodes;
	size_t nnodes, cap_nodes;
	VizEdge *edges;
	size_t nedges, cap_edges;
	VizCluster *clusters;
	size_t nclusters, cap_clusters;
	uint32_t *node_of;  /* by expression id: node index or VIZ_NONE */
	uint32_t *in_start; /* incoming edges of node i: in_list[in_start[i]..in_start[i+1]) */
	uint32_t *in_list;
	uint32_t *out_start;
	uint32_t *out_list;
	ExprVec lets;            /* every let, to name the values they bind */
	PlanFunctions functions; /* the module's functions, walked and named once */
	uint32_t focus;          /* the --focus node, or VIZ_NONE */
	bool overview;           /* draw `boxes`, not the nodes */
	VizOverview boxes;
	/* what the legend lists, besides the devices: each is drawn */
	bool has_on_device, has_dashed, has_regions;
} VizModel;

/* Builds the model of opts into vm (stats counts what will be drawn).
 * False with *err when focus names no value or the graph is too big; vm
 * must be freed either way. */
bool viz_model_build(VizModel *vm, const VizOptions *opts, VizStats *stats, char **err);
void viz_model_free(VizModel *vm);
/* The node drawn for what a use of e reads (through lets), or VIZ_NONE. */
uint32_t viz_node_of(const VizModel *vm, const struct Expr *e);
/* The device e is drawn on: opts->device_of's entry, else its own. */
int32_t viz_device(const VizModel *vm, const struct Expr *e);

#endif
