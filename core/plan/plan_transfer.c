/*
 * plan_transfer.c - `set placement min-transfer` (SPEC §3.3).
 *
 * After analysis, data crosses devices only at on_device boundaries whose
 * result is not fixed: the body's domain and the result's domain may end up
 * on different devices, and capture then turns the annotation into a
 * device_copy of the body's bytes. Every other edge is inside one domain,
 * and annotated domains are already bound, so placement is a labelling of
 * the free domains that touch a boundary:
 *   - a free domain next to a bound one pays the bytes unless it takes the
 *     bound one's device (a unary cost);
 *   - two free domains on both sides of a boundary pay it when they differ
 *     (a pairwise cost; only with constrain_body=False).
 * With two devices the labelling is an exact minimum s-t cut (Dinic's
 * algorithm on a graph whose unary terms are pre-cancelled, so the common
 * case needs no augmenting path at all). With more devices it is a
 * documented heuristic, alpha-expansion (Boykov, Veksler and Zabih): each
 * domain starts on its cheapest device, then for each device in table
 * order one exact cut decides which domains move to it, until a whole
 * round moves none (at most 32 rounds); for these costs (bytes paid when
 * two sides differ) the result is within twice the optimum. Every cut
 * takes, among the minimum ones, the one that moves the fewest domains
 * (that set is unique), and the rounds follow device numbers, so the
 * result depends on the graph alone, never on the order of the text [P4].
 * Domains no boundary touches are left to TVM's defaulting, so min-transfer
 * never changes a placement that would not save bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

typedef struct Boundary {
	uint32_t body;   /* root of the body's domain */
	uint32_t result; /* root of the result's domain */
	int64_t bytes;
	uint32_t site; /* the on_device */
} Boundary;

/* The boundaries of the analysed module, with their current domain roots. */
static Boundary *collect_boundaries(PlanAnalysis *an, size_t *count)
{
	Boundary *out = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t id = 0; id < an->nexprs; id++) {
		const Expr *e = an->by_id[id];
		int32_t device;
		bool body, result;
		int64_t bytes;
		if (!e || !ir_is_op(e, OP_ON_DEVICE))
			continue;
		ir_on_device_props(e, &device, &body, &result);
		if (result && body)
			continue;
		if (!e->u.call.args[0]->type || !type_bytes(e->u.call.args[0]->type, &bytes))
			bytes = 0;
		grow_array((void **)&out, &cap, n + 1, sizeof(Boundary));
		out[n].body = plan_domain_result(an, plan_domain_of(an, e->u.call.args[0]));
		out[n].result = plan_domain_result(an, plan_domain_of(an, e));
		out[n].bytes = bytes;
		out[n].site = id;
		n++;
	}
	*count = n;
	return out;
}

int64_t plan_boundary_bytes(PlanAnalysis *an)
{
	size_t n;
	int64_t total = 0;
	Boundary *b = collect_boundaries(an, &n);
	for (size_t i = 0; i < n; i++)
		if (an->domains[b[i].body].device != an->domains[b[i].result].device)
			total += b[i].bytes;
	free(b);
	return total;
}

/* ---- Dinic's maximum flow on a small graph ---- */

typedef struct FlowEdge {
	uint32_t to;
	uint32_t next; /* next edge out of the same node, or PLAN_NONE */
	int64_t cap;
} FlowEdge;

typedef struct Flow {
	FlowEdge *edges;
	size_t nedges, cap_edges;
	uint32_t *head; /* first edge out of each node */
	uint32_t *level;
	uint32_t *iter;
	uint32_t nnodes;
} Flow;

static void flow_add(Flow *f, uint32_t u, uint32_t v, int64_t cap_uv, int64_t cap_vu)
{
	grow_array((void **)&f->edges, &f->cap_edges, f->nedges + 2, sizeof(FlowEdge));
	f->edges[f->nedges] = (FlowEdge){v, f->head[u], cap_uv};
	f->head[u] = (uint32_t)f->nedges++;
	f->edges[f->nedges] = (FlowEdge){u, f->head[v], cap_vu};
	f->head[v] = (uint32_t)f->nedges++;
}

static bool flow_bfs(Flow *f, uint32_t s, uint32_t t, uint32_t *queue)
{
	size_t qh = 0, qt = 0;
	for (uint32_t i = 0; i < f->nnodes; i++)
		f->level[i] = PLAN_NONE;
	f->level[s] = 0;
	queue[qt++] = s;
	while (qh < qt) {
		uint32_t u = queue[qh++];
		for (uint32_t e = f->head[u]; e != PLAN_NONE; e = f->edges[e].next)
			if (f->edges[e].cap > 0 && f->level[f->edges[e].to] == PLAN_NONE) {
				f->level[f->edges[e].to] = f->level[u] + 1;
				queue[qt++] = f->edges[e].to;
			}
	}
	return f->level[t] != PLAN_NONE;
}

/* One blocking-flow path by iterative depth-first search; 0 when none. */
static int64_t flow_augment(Flow *f, uint32_t s, uint32_t t, uint32_t *path_edges)
{
	uint32_t depth = 0, u = s;
	while (true) {
		if (u == t) {
			int64_t push = INT64_MAX;
			for (uint32_t i = 0; i < depth; i++)
				if (f->edges[path_edges[i]].cap < push)
					push = f->edges[path_edges[i]].cap;
			for (uint32_t i = 0; i < depth; i++) {
				f->edges[path_edges[i]].cap -= push;
				f->edges[path_edges[i] ^ 1].cap += push;
			}
			return push;
		}
		for (; f->iter[u] != PLAN_NONE; f->iter[u] = f->edges[f->iter[u]].next) {
			FlowEdge *e = &f->edges[f->iter[u]];
			if (e->cap > 0 && f->level[e->to] == f->level[u] + 1)
				break;
		}
		if (f->iter[u] == PLAN_NONE) {
			if (depth == 0)
				return 0;
			f->level[u] = PLAN_NONE; /* dead end: never come back */
			u = f->edges[path_edges[--depth] ^ 1].to;
			f->iter[u] = f->edges[f->iter[u]].next;
			continue;
		}
		path_edges[depth++] = f->iter[u];
		u = f->edges[f->iter[u]].to;
	}
}

/* Labels nodes 0..n-1 with 0 (source side) or 1. unary0/unary1: the cost
 * of each label; pairs: pair_ab[i] is charged when a is 0 and b is 1,
 * pair_ba[i] when a is 1 and b is 0. Of the minimum cuts it takes the one
 * with the fewest 1s when fewest_ones, else the one with the fewest 0s. */
static void label_two(uint32_t n, const int64_t *unary0, const int64_t *unary1,
		      const uint32_t *pair_a, const uint32_t *pair_b, const int64_t *pair_ab,
		      const int64_t *pair_ba, size_t npairs, bool fewest_ones, uint8_t *label)
{
	Flow f = {0};
	uint32_t s = n, t = n + 1;
	uint32_t *queue, *path;
	f.nnodes = n + 2;
	f.head = xmalloc(f.nnodes * sizeof(uint32_t));
	f.level = xmalloc(f.nnodes * sizeof(uint32_t));
	f.iter = xmalloc(f.nnodes * sizeof(uint32_t));
	queue = xmalloc(f.nnodes * sizeof(uint32_t));
	path = xmalloc(f.nnodes * sizeof(uint32_t));
	memset(f.head, 0xff, f.nnodes * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++) {
		/* cutting s->v puts v on the sink side (label 1) and costs
		 * unary1; cutting v->t costs unary0. Only the difference
		 * matters: the common part is flow that any cut carries. */
		int64_t common = unary0[v] < unary1[v] ? unary0[v] : unary1[v];
		if (unary1[v] - common > 0)
			flow_add(&f, s, v, unary1[v] - common, 0);
		if (unary0[v] - common > 0)
			flow_add(&f, v, t, unary0[v] - common, 0);
	}
	for (size_t i = 0; i < npairs; i++)
		if (pair_ab[i] > 0 || pair_ba[i] > 0)
			flow_add(&f, pair_a[i], pair_b[i], pair_ab[i], pair_ba[i]);
	while (flow_bfs(&f, s, t, queue)) {
		memcpy(f.iter, f.head, f.nnodes * sizeof(uint32_t));
		while (flow_augment(&f, s, t, path) > 0)
			;
	}
	/* Of the minimum cuts: the smallest sink side (what can still reach t)
	 * or the smallest source side (what s still reaches). */
	if (fewest_ones) {
		size_t qh = 0, qt = 0;
		for (uint32_t i = 0; i < f.nnodes; i++)
			f.level[i] = PLAN_NONE;
		f.level[t] = 0;
		queue[qt++] = t;
		while (qh < qt) {
			uint32_t v = queue[qh++];
			for (uint32_t e = f.head[v]; e != PLAN_NONE; e = f.edges[e].next) {
				uint32_t w = f.edges[e].to;
				if (f.edges[e ^ 1].cap > 0 && f.level[w] == PLAN_NONE) {
					f.level[w] = 0;
					queue[qt++] = w;
				}
			}
		}
		for (uint32_t v = 0; v < n; v++)
			label[v] = f.level[v] == PLAN_NONE ? 0 : 1;
	} else {
		flow_bfs(&f, s, t, queue);
		for (uint32_t v = 0; v < n; v++)
			label[v] = f.level[v] == PLAN_NONE ? 1 : 0;
	}
	free(f.edges);
	free(f.head);
	free(f.level);
	free(f.iter);
	free(queue);
	free(path);
}

/* Alpha-expansion over Potts costs (see the top of the file): for each
 * device alpha in table order, one exact binary cut between "keep" (0) and
 * "move to alpha" (1), until a round moves nothing. `choice` holds the
 * starting labels and receives the result. */
static void expand(uint32_t n, uint32_t ndevices, const int64_t *unary, const uint32_t *pa,
		   const uint32_t *pb, const int64_t *pw, size_t npairs, int32_t *choice)
{
	int64_t *u0 = xmalloc((n + 1) * sizeof(int64_t)), *u1 = xmalloc((n + 1) * sizeof(int64_t));
	int64_t *ab = xmalloc((npairs + 1) * sizeof(int64_t));
	int64_t *ba = xmalloc((npairs + 1) * sizeof(int64_t));
	uint8_t *label = xmalloc(n + 1);
	for (int round = 0; round < 32; round++) {
		bool changed = false;
		for (uint32_t alpha = 0; alpha < ndevices; alpha++) {
			for (uint32_t v = 0; v < n; v++) {
				u0[v] = unary[(size_t)v * ndevices + (uint32_t)choice[v]];
				u1[v] = unary[(size_t)v * ndevices + alpha];
			}
			/* E(x_a, x_b) = w when the labels differ: with A = E(0,0),
			 * B = E(0,1), C = E(1,0), D = E(1,1) = 0, it is A plus
			 * (C - A) on a's 1, (D - C) on b's 1 and (B + C - A - D)
			 * when a is 0 and b is 1 (submodular for this metric) */
			for (size_t k = 0; k < npairs; k++) {
				int64_t w = pw[k];
				int32_t la = choice[pa[k]], lb = choice[pb[k]];
				int64_t A = la != lb ? w : 0;
				int64_t B = lb != (int32_t)alpha ? w : 0;
				int64_t C = la != (int32_t)alpha ? w : 0;
				u1[pa[k]] += C - A;
				u1[pb[k]] += -C;
				ab[k] = B + C - A;
				ba[k] = 0;
			}
			/* negative unary terms: shift both labels of that node */
			for (uint32_t v = 0; v < n; v++) {
				int64_t low = u0[v] < u1[v] ? u0[v] : u1[v];
				if (low < 0) {
					u0[v] -= low;
					u1[v] -= low;
				}
			}
			label_two(n, u0, u1, pa, pb, ab, ba, npairs, true, label);
			for (uint32_t v = 0; v < n; v++)
				if (label[v] && choice[v] != (int32_t)alpha) {
					choice[v] = (int32_t)alpha;
					changed = true;
				}
		}
		if (!changed)
			break;
	}
	free(u0);
	free(u1);
	free(ab);
	free(ba);
	free(label);
}

size_t plan_min_transfer_choose(PlanAnalysis *an, uint32_t ndevices, int32_t fallback,
				uint32_t **domains_out, int32_t **devices_out, uint32_t **sites_out)
{
	size_t nb;
	Boundary *b = collect_boundaries(an, &nb);
	uint32_t *index = xmalloc((an->ndomains + 1) * sizeof(uint32_t));
	uint32_t *roots = NULL, *sites = NULL, n = 0;
	size_t cap_roots = 0, cap_sites = 0;
	int64_t *unary; /* n x ndevices */
	uint32_t *pa = xmalloc((nb + 1) * sizeof(uint32_t)),
		 *pb = xmalloc((nb + 1) * sizeof(uint32_t));
	int64_t *pw = xmalloc((nb + 1) * sizeof(int64_t));
	size_t npairs = 0;
	int32_t *choice;
	memset(index, 0xff, (an->ndomains + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < nb; i++) {
		uint32_t ends[2] = {b[i].body, b[i].result};
		for (int k = 0; k < 2; k++)
			if (an->domains[ends[k]].device == IR_NO_DEVICE &&
			    index[ends[k]] == PLAN_NONE) {
				grow_array((void **)&roots, &cap_roots, n + 1, sizeof(uint32_t));
				grow_array((void **)&sites, &cap_sites, n + 1, sizeof(uint32_t));
				roots[n] = ends[k];
				sites[n] = b[i].site;
				index[ends[k]] = n++;
			}
	}
	unary = xcalloc((size_t)n * ndevices + 1, sizeof(int64_t));
	for (size_t i = 0; i < nb; i++) {
		int32_t db = an->domains[b[i].body].device, dr = an->domains[b[i].result].device;
		if (db != IR_NO_DEVICE && dr == IR_NO_DEVICE) {
			for (uint32_t d = 0; d < ndevices; d++)
				if ((int32_t)d != db)
					unary[(size_t)index[b[i].result] * ndevices + d] +=
						b[i].bytes;
		} else if (db == IR_NO_DEVICE && dr != IR_NO_DEVICE) {
			for (uint32_t d = 0; d < ndevices; d++)
				if ((int32_t)d != dr)
					unary[(size_t)index[b[i].body] * ndevices + d] +=
						b[i].bytes;
		} else if (db == IR_NO_DEVICE && dr == IR_NO_DEVICE && b[i].body != b[i].result) {
			pa[npairs] = index[b[i].body];
			pb[npairs] = index[b[i].result];
			pw[npairs++] = b[i].bytes;
		}
	}
	choice = xmalloc((n + 1) * sizeof(int32_t));
	/* start: the cheapest device of each domain, ties to the fallback and
	 * then the lowest index */
	for (uint32_t v = 0; v < n; v++) {
		int32_t best = fallback;
		for (uint32_t d = 0; d < ndevices; d++)
			if (unary[(size_t)v * ndevices + d] < unary[(size_t)v * ndevices + best])
				best = (int32_t)d;
		choice[v] = best;
	}
	if (ndevices == 2 && npairs) {
		int64_t *u0 = xmalloc((n + 1) * sizeof(int64_t)),
			*u1 = xmalloc((n + 1) * sizeof(int64_t));
		uint8_t *label = xmalloc(n + 1);
		for (uint32_t v = 0; v < n; v++) {
			u0[v] = unary[(size_t)v * 2];
			u1[v] = unary[(size_t)v * 2 + 1];
		}
		/* ties: the undecided domains go to the fallback */
		label_two(n, u0, u1, pa, pb, pw, pw, npairs, fallback == 0, label);
		for (uint32_t v = 0; v < n; v++)
			choice[v] = label[v];
		free(u0);
		free(u1);
		free(label);
	} else if (npairs) {
		expand(n, ndevices, unary, pa, pb, pw, npairs, choice);
	}
	*domains_out = roots;
	*devices_out = choice;
	*sites_out = sites;
	free(unary);
	free(pa);
	free(pb);
	free(pw);
	free(index);
	free(b);
	return n;
}
