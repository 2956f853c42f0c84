/*
 * viz.h - device-coloured graphs of a module version through Graphviz
 * (SPEC §6).
 *
 * viz_render is the one entry point: it builds the graph of a module
 * version with cgraph, lays it out and renders it with gvc, and writes the
 * file atomically; the format comes from the file's extension (png, svg,
 * pdf, dot; `.dot` is the graph source without a layout, so that it does
 * not depend on fonts or on dot's layout). viz_build_graph returns the
 * graph before layout so that tests can inspect it, and viz_write_dot
 * writes that source to a stream (`render -`). Reference node names are
 * `n<id>_<edge>`.
 *
 * The drawing: one node per parameter, free variable, constant, operator
 * call, function call, closure, tuple, projection and if (a let and its
 * variable are not nodes: a use of a let variable is an edge from the bound
 * value, which is labelled with the variable's name); data-flow edges from
 * each operand to its consumer; fill colour by device from the Okabe-Ito
 * palette (viz_device_color) and a legend cluster of the devices; device_copy
 * as a bold hexagon filled from its source colour to its destination
 * colour and labelled `cpu:0 → cuda:0` with the bytes moved; on_device as a
 * note; nodes without a device white with a dashed border; conflicting uses
 * recorded by `check` as red bold edges labelled `needs %b on cuda:0`; one
 * cluster per function (closures nested in their parent's), or with
 * `regions` one cluster per device region: a maximal run of calls
 * (operators and function calls) on one device, consecutive in execution order within one function (a
 * device_copy between two of them does not end it; copies are drawn outside
 * every region), exactly the regions the `regions` command lists.
 * In graphs of more than 40 nodes a use far from its value (in execution
 * order) is drawn from a small reference node beside the consumer, an
 * ellipse with the value's name, rather than by an edge across the drawing,
 * which would make dot's layout time quadratic.
 *
 * Unless `params`, weights (constants, parameters of a global function
 * after its first, and operator calls on weights alone) fold into the
 * operators that use them, as a `weights:` line of their label, when no use
 * is in conflict, copied, on another device or taken by anything but an
 * operator (viz_model.c says exactly when). An operand read on another
 * device than its operator's without a copy is a dashed edge in its
 * colour labelled `no copy: <why>`; the --focus node has a thick border;
 * the legend lists each thing the picture uses and nothing else. Nodes
 * carry an `id` equal to their name (the SVG's <g id=...>) and a tooltip
 * with name, op, type, device, the first step of `why` (given the
 * analysis) and position. `overview` draws one node per device region and
 * per device_copy instead, with the data flow between them (a value read
 * far from its box from a reference node, as in the full drawing); a graph
 * past max_nodes (reference nodes included) or the layout-cost limit,
 * without force or focus, is drawn that way too (stats say so, for the
 * command's warning, and the title says why); an overview past them is
 * refused, with what to draw instead (never the option just used).
 *
 * Node names are `n` and the expression id, clusters `cluster_g<global>`,
 * `cluster_fn<id>`, `cluster_r<n>` and `cluster_legend`; attributes are
 * declared in one fixed order and objects are created in the module's
 * definition and execution order, so the same module and options always
 * give the same dot bytes (no pointers, no timestamps).
 *
 * The work is split in three files, each calling only the one before:
 * viz_model.c decides what is drawn, on plain arrays (viz_model.h);
 * viz_draw.c makes the cgraph graph of that model; viz_render.c lays it
 * out with gvc and writes the file.
 *
 * Graphviz headers are included only under viz/; the graph type is exposed
 * here as the opaque struct Agraph_s, which test_viz inspects through
 * cgraph directly.
 *
 * Ownership: options are borrowed for the call; the graph viz_build_graph
 * returns belongs to the caller, who frees it with viz_free_graph; error
 * strings are the caller's to free().
 */
#ifndef DEVPLAN_VIZ_H
#define DEVPLAN_VIZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "devices.h"
#include "ir.h"

struct Agraph_s;
struct PlanTrace;
struct PlanAnalysis;

/* Above this many nodes (reference nodes included) render draws the
 * overview instead, with a note, unless forced (SPEC §6: large graphs say
 * so instead of hanging in the layout); an overview past it is refused. */
#define VIZ_MAX_NODES 5000
/* And above this layout cost per node of the limit (viz_model.c's estimate:
 * the sum over dot's ranks of the square of their width, a chain's length
 * for a chain): 100,000 for 5,000 nodes, which dot lays out in seconds,
 * where twice that takes it minutes. */
#define VIZ_MAX_COST_PER_NODE 20
/* The layout runs in a child process that may map this much memory beyond
 * what it inherits from the session, and use this much CPU time; past
 * either it is stopped and the render fails (VizOptions can set others).
 * The largest PNG (VIZ_PNG_MAX_PIXELS) is an 800 MB bitmap, and bert_base
 * drawn with --params makes one: 2 GiB leaves it room. */
#define VIZ_LAYOUT_MEMORY ((size_t)2 << 30)
#define VIZ_LAYOUT_SECONDS 60
/* A PNG is a bitmap of at most this many pixels a side (Cairo's limit; Graphviz
 * scales a larger drawing down to fit) and this many pixels in all (the
 * bitmap is held in memory, 4 bytes a pixel); a drawing that would have to
 * shrink below VIZ_PNG_MIN_SCALE, where 10-point labels fall under 7 pixels,
 * is refused rather than written unreadable. */
#define VIZ_PNG_MAX_SIDE 32767
#define VIZ_PNG_MAX_PIXELS 200000000.0
#define VIZ_PNG_MIN_SCALE 0.5
/* --focus without --depth. */
#define VIZ_DEFAULT_DEPTH 2

typedef enum VizFormat {
	VIZ_FORMAT_PNG,
	VIZ_FORMAT_SVG,
	VIZ_FORMAT_PDF,
	VIZ_FORMAT_DOT, /* the graph source, without a layout */
} VizFormat;

/* What to draw. */
typedef struct VizOptions {
	const IrModule *module;        /* the version to draw */
	const DeviceTable *devices;    /* names and the legend */
	const struct PlanTrace *trace; /* conflicts to draw as red edges, or NULL;
					  conflict ids are expression ids, stable
					  across versions */
	const int32_t *device_of;      /* by expression id of module: the device
					  to draw each node on instead of its own,
					  IR_NO_DEVICE drawn as unplanned (the
					  devices a phase in progress has bound so
					  far); NULL: each node's own */
	const char *title;             /* the graph's label, or NULL */
	const char *focus;             /* `%x` (or `x`): only the nodes within
					  depth edges of it, either direction */
	int depth;                     /* with focus; < 0: VIZ_DEFAULT_DEPTH */
	bool regions;                  /* clusters by device region, not function */
	bool params;                   /* draw every parameter and constant, none
					  folded into its consumers */
	bool overview;                 /* one node per device region (see above) */
	bool force;                    /* lay out past max_nodes and the cost
					  limit (still within the child's) */
	size_t max_nodes;              /* 0: VIZ_MAX_NODES */
	size_t layout_memory;          /* bytes; 0: VIZ_LAYOUT_MEMORY */
	unsigned layout_seconds;       /* of CPU; 0: VIZ_LAYOUT_SECONDS */
	struct PlanAnalysis *analysis; /* the analysis `why` reads, for the first
					  step of each node's why in its tooltip,
					  or NULL; read only (plan_explain takes
					  it non-const) */
	/* Where a render's warnings go (Graphviz's own, and devplan's about the
	 * image, such as a PNG scaled down to fit), one message a call without
	 * a trailing newline; NULL drops them. Library code never prints. */
	void (*warn)(void *context, const char *message);
	void *warn_context;
} VizOptions;

/* What was drawn (nodes and edges exclude the legend). */
typedef struct VizStats {
	size_t nodes;
	size_t edges;
	size_t copies;     /* device_copy nodes */
	size_t conflicts;  /* red conflict edges */
	size_t clusters;   /* function or region clusters */
	size_t unplanned;  /* nodes without a device */
	size_t references; /* uses drawn from a reference node, not a long edge */
	size_t folded;     /* weights folded into their operators' labels */
	size_t uncopied;   /* operands read on another device without a copy */
	bool overview;     /* drawn as the overview of device regions */
	bool too_big;      /* the overview because the full graph is past the
			      limits below: its size in full_* */
	size_t full_nodes, full_edges, full_references;
	double full_cost;
	double cost;      /* the layout-cost estimate of what is drawn
			      (viz_model.c): its node count for a chain */
	size_t max_nodes; /* the limits applied: nodes (references included) */
	double max_cost;  /* and the cost estimate */
} VizStats;

/* Why the full graph of stats->too_big was not laid out: "the graph has
 * 5002 nodes, more than 5000 to lay out" (with edges: "5002 nodes and 5001
 * edges"), or that its layout would cost too much. The caller frees it. */
char *viz_too_big_reason(const VizStats *stats, bool edges);

/* The format named by path's extension (case-insensitive). False for a
 * missing or unknown extension. */
bool viz_format_of_path(const char *path, VizFormat *out);
const char *viz_format_name(VizFormat format);

/* The fill colour of a device-table index ("#RRGGBB"), cycling through the
 * palette; "#FFFFFF" for IR_NO_DEVICE. */
const char *viz_device_color(int32_t device);

/*
 * Builds the graph, without a layout. Returns NULL with *err set when focus
 * names no value, or, without force, when what would be drawn is past the
 * limits (max_nodes, reference nodes included, and the layout-cost
 * estimate): a --focus neighbourhood, an --overview, or the overview a
 * whole graph past them falls back to (stats->too_big); the message says
 * how big it is and what to draw instead. stats may be NULL.
 */
struct Agraph_s *viz_build_graph(const VizOptions *opts, VizStats *stats, char **err);
void viz_free_graph(struct Agraph_s *g);

/*
 * Draws the graph into path, in the format of its extension: builds it,
 * lays it out with dot and renders it with gvc in a child process under
 * the limits of opts (dot format: writes the source), into memory, and
 * writes the bytes with file_write.h's writer (a temporary file renamed
 * over path, so that path is never left half-written). An unknown
 * extension, a destination file_begin refuses, a failed write, a Graphviz
 * error or a layout stopped at its limits (or by Ctrl-C) return false with
 * *err set and path untouched; the destination is checked before the
 * layout.
 */
bool viz_render(const VizOptions *opts, const char *path, VizStats *stats, char **err);

/* Renders the graph into memory in format (as viz_render writes it): *data
 * (NUL-terminated, the caller's to free) and its length *len. False with
 * *err set, *data NULL, when the graph cannot be built or rendered. */
bool viz_render_to_memory(const VizOptions *opts, VizFormat format, char **data, size_t *len,
			  VizStats *stats, char **err);

/* Writes the graph source (the `.dot` format) to out. */
bool viz_write_dot(const VizOptions *opts, FILE *out, VizStats *stats, char **err);

#endif
