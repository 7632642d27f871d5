/*
 * batched_probe_scan.c - planning the batched probe scan (batched_probe.h).
 *
 *   bloomfilter.enable_batched_probe    on (default) / off
 *   bloomfilter.batched_probe_min_size  filters from this size on (default
 *                                       1MB, about an L2 cache) are probed
 *                                       in prefetched batches
 *
 * A set_rel_pathlist hook looks among a heap table's quals for
 * bloom_contains(filter, key), f @> key or key <@ f, where the filter is
 * the same for the whole scan (a constant, a query parameter, an InitPlan's
 * result, an expression of those) and the key an expression of the table's
 * columns.  It then offers a scan that probes in batches (serial, and
 * parallel-aware when the table may be scanned in parallel); the other quals
 * stay quals of that scan.
 *
 * A constant filter below the size setting is left to the plain scan: it
 * stays in the cache, so there is no miss to hide.  A parameter's size is
 * unknown when planning: the scan is offered (batches cost less than rows
 * in the cache too).
 *
 * Cost: the planner charges a probe of a filter that is the same for the
 * whole scan one operator cost per row whatever the filter's size (a probe
 * of a column of stored filters, 100: planner_support.c); the batched scan
 * is charged half of it, so it wins over
 * the same seq scan and competes with other paths (an index scan on another
 * qual) as a seq scan would; it is disabled where the seq scan is
 * (enable_seqscan = off).
 */
#include "bloomfilter.h"
#include "batched_probe.h"

#include <limits.h>

#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "nodes/extensible.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/guc.h"
#include "utils/rel.h"

bool		bloomfilter_enable_batched_probe = true;
int			bloomfilter_batched_probe_min_size = 1024;

static set_rel_pathlist_hook_type previous_set_rel_pathlist_hook = NULL;

static Plan *plan_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
					   List *tlist, List *clauses, List *custom_plans);

static const CustomPathMethods path_methods = {
	.CustomName = BLOOM_BATCHED_PROBE_NAME,
	.PlanCustomPath = plan_path,
};

/*
 * The filter and key of clause when it is a probe this scan can take:
 * bloom_contains(filter, key) with a filter that is the same for the whole
 * scan and a key of rel's columns.
 */
static bool
probe_args(Expr *clause, Expr **filter, Expr **key)
{
	Oid			funcid;
	List	   *args;
	int			argno;

	if (IsA(clause, OpExpr))
	{
		set_opfuncid((OpExpr *) clause);
		funcid = ((OpExpr *) clause)->opfuncid;
		args = ((OpExpr *) clause)->args;
	}
	else if (IsA(clause, FuncExpr))
	{
		funcid = ((FuncExpr *) clause)->funcid;
		args = ((FuncExpr *) clause)->args;
	}
	else
		return false;
	if (list_length(args) != 2 || funcid < FirstNormalObjectId)
		return false;
	argno = bloom_probe_filter_argno(funcid);
	if (argno < 0)
		return false;
	*filter = list_nth(args, argno);
	*key = list_nth(args, 1 - argno);
	return true;
}

static bool
usable_probe(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *rinfo)
{
	Expr	   *filter;
	Expr	   *key;

	/* never ahead of a qual of a lower security level (a policy's) */
	if (rinfo->pseudoconstant || rinfo->security_level > rel->baserestrict_min_security)
		return false;
	if (!probe_args(rinfo->clause, &filter, &key))
		return false;
	if (contain_volatile_functions((Node *) filter) || contain_subplans((Node *) filter) ||
		!bms_is_empty(pull_varnos(root, (Node *) filter)))
		return false;
	if (contain_volatile_functions((Node *) key) || contain_subplans((Node *) key) ||
		!bms_equal(pull_varnos(root, (Node *) key), rel->relids))
		return false;
	if (IsA(filter, Const))
	{
		Const	   *c = (Const *) filter;

		if (c->constisnull ||
			toast_raw_datum_size(c->constvalue) < (Size) bloomfilter_batched_probe_min_size * 1024)
			return false;
	}
	return true;
}

static bool
is_heap_table(RangeTblEntry *rte)
{
	Relation	rel;
	bool		heap;

	if (rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW)
		return false;
	/* the planner holds a lock on every table it plans */
	rel = table_open(rte->relid, NoLock);
	heap = rel->rd_rel->relam == HEAP_TABLE_AM_OID;
	table_close(rel, NoLock);
	return heap;
}

/* A batched probe path costed from the seq scan with parallel_workers. */
static Path *
make_path(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *probe, int parallel_workers)
{
	Path	   *seq = create_seqscan_path(root, rel, NULL, parallel_workers);
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	CustomPath *path = (__extension__ makeNode(CustomPath));
	QualCost	probe_cost;

	cost_qual_eval_node(&probe_cost, (Node *) probe, root);
	path->path.pathtype = T_CustomScan;
	path->path.parent = rel;
	path->path.pathtarget = rel->reltarget;
	path->path.param_info = NULL;
	path->path.parallel_aware = parallel_workers > 0;
	path->path.parallel_safe = rel->consider_parallel;
	path->path.parallel_workers = parallel_workers;
	path->path.rows = seq->rows;
	/* disabled where a seq scan is (enable_seqscan = off) */
	path_copy_disabled_nodes_compat(&path->path, seq);
	path->path.startup_cost = seq->startup_cost;
	/* half the probe's cost, on this process's share of the rows */
	path->path.total_cost = seq->total_cost -
		0.5 * probe_cost.per_tuple * rel->tuples * (seq->rows / Max(rel->rows, 1.0));
	path->path.pathkeys = NIL;
	path->flags = 0;
	path->custom_paths = NIL;
	path->custom_private = list_make1(probe);
	path->methods = &path_methods;
	pfree(seq);
	return &path->path;
}

static void
offer_paths(PlannerInfo *root, RelOptInfo *rel, Index rti, RangeTblEntry *rte)
{
	RestrictInfo *probe = NULL;
	ListCell   *lc;

	if (previous_set_rel_pathlist_hook)
		previous_set_rel_pathlist_hook(root, rel, rti, rte);

	if (!bloomfilter_enable_batched_probe)
		return;
	if (rte->rtekind != RTE_RELATION || rte->inh || rte->tablesample != NULL ||
		(rel->reloptkind != RELOPT_BASEREL && rel->reloptkind != RELOPT_OTHER_MEMBER_REL) ||
		!bms_is_empty(rel->lateral_relids) || IS_DUMMY_REL(rel))
		return;
	foreach(lc, rel->baserestrictinfo)
	{
		if (usable_probe(root, rel, lfirst_node(RestrictInfo, lc)))
		{
			probe = lfirst_node(RestrictInfo, lc);
			break;
		}
	}
	if (probe == NULL || !is_heap_table(rte))
		return;

	add_path(rel, make_path(root, rel, probe, 0));
	if (rel->consider_parallel)
	{
		int			workers = compute_parallel_worker(rel, rel->pages, -1,
													  max_parallel_workers_per_gather);

		if (workers > 0)
			add_partial_path(rel, make_path(root, rel, probe, workers));
	}
}

static Plan *
plan_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
		  List *clauses, List *custom_plans)
{
	RestrictInfo *probe = linitial_node(RestrictInfo, best_path->custom_private);
	List	   *others = NIL;
	ListCell   *lc;
	Expr	   *filter;
	Expr	   *key;

	(void) root;
	(void) custom_plans;
	if (!probe_args(probe->clause, &filter, &key))
		elog(ERROR, "bloom batched probe lost its clause");
	foreach(lc, clauses)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (rinfo != probe)
			others = lappend(others, rinfo);
	}
	return (Plan *) bloom_batched_probe_make_scan(rel->relid, tlist,
												  extract_actual_clauses(others, false),
												  filter, key);
}

void
bloom_batched_probe_init(void)
{
	DefineCustomBoolVariable("bloomfilter.enable_batched_probe",
							 "Lets the planner probe Bloom filters in batches (Custom Scan BloomBatchedProbe).",
							 "A scan with a qual bloom_contains(filter, column), whose filter is the same for the whole scan, hashes and probes a batch of rows at a time.",
							 &bloomfilter_enable_batched_probe,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("bloomfilter.batched_probe_min_size",
							"Size from which a Bloom filter is probed in prefetched batches.",
							"A constant filter below it is probed row by row by the plain scan; a filter from a parameter or a subquery, whose size is unknown when planning, is probed in batches at any size.",
							&bloomfilter_batched_probe_min_size,
							1024, 0, INT_MAX,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	bloom_batched_probe_register();
	previous_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = offer_paths;
}
