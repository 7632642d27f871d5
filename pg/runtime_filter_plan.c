/*
 * runtime_filter_plan.c - where the automatic Bloom join's filters go
 * (runtime_filter.h): a planner hook that reads the finished plan.
 *
 * For each hash join (every query level, every subplan), children first:
 *
 *  1. The join must be one whose probe (outer) rows that match no build
 *     row are never returned: inner, semi, right, right semi, right anti;
 *     every hash operator strict (a NULL key matches nothing).
 *  2. Estimates: the build side at most the keys a filter of
 *     bloomfilter.runtime_filter_max_size holds; for a local filter, the
 *     probe side at least bloomfilter.runtime_filter_min_rows (or a scan
 *     of it with a condition that runs a subquery for each row, which
 *     moves above the filter: runtime_filter_wrap.c) and (inner,
 *     semi and right joins) at most bloomfilter.runtime_filter_max_pass of
 *     the probe rows estimated to find a match (a remote filter needs neither:
 *     a row not shipped saves more than the remote probe costs).
 *  3. Each key is traced down to the scans where rows may be dropped
 *     (runtime_filter_trace.c).
 *  4. The keys that reach the same scans make the filter (keys that reach
 *     another scan are left out: a filter of some of the keys is still
 *     exact about what it removes).  A heap table's Seq Scan becomes the
 *     batched probe scan in runtime mode, an Index, Index Only or Bitmap
 *     Heap Scan gets the filter node above it (or a probe is already
 *     there, and probes this filter too); a build node goes between the Hash node and its
 *     child; a PARAM_EXEC slot carries the filter; each Gather between the
 *     join and the scan sends it to its workers (initParam); and the
 *     join's outer child gets a startup cost of at least the Hash node's
 *     total cost, so that the join builds its hash table (and the filter)
 *     before it reads a probe row (ExecHashJoin reads one first when the
 *     outer side is cheaper to start, to skip the build for an empty
 *     probe side).  A foreign scan gets a remote filter instead
 *     (runtime_filter_remote.c).
 *
 * Predicate transfer (bloomfilter.runtime_filter_transfer): a key also
 * reaches the scans that other joins' equalities lead to
 * (runtime_filter_trace.c), build sides of joins below included.  Then the
 * joins that got no filter are considered again, with their build side's
 * estimate reduced by the filters from above that reach it (a build side
 * they reduce makes a smaller, more selective filter: customer's filter
 * reduces orders, and the orders left filter lineitem).  The estimates
 * still decide (min_rows, max_pass, max_size).
 *
 * A hash join that got no filter may read its small probe side first
 * instead, the probe keys filtering the scans of its build side
 * (runtime_filter_outer_first.c).
 *
 * Last, under each Gather, the build side of a filter under a Hash node
 * that is not a Parallel Hash, when expensive, is computed by one process
 * for all (runtime_filter_compute_once.c).
 *
 * Rescans: a join whose hash table may be built again with other rows
 * (a join under a nested loop's inner side, in a subplan, or in a
 * scrollable or holdable cursor) filters only through nodes that never
 * keep rows between rescans; its scans are rescanned with it and read the
 * new filter.  A remote filter is made only for a join that runs once.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"
#include "runtime_filter_prune.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "optimizer/planner.h"
#include "utils/lsyscache.h"

static planner_hook_type previous_planner_hook = NULL;

/* How often the joins without a filter are reconsidered, at most: each
 * round reaches one join deeper along a chain. */
#define RECONSIDER_ROUNDS 4

static void walk_plan(InjectContext *cx, Plan **link, bool may_rescan);

/* ---- adding a filter ---- */

int
bloom_runtime_new_param(InjectContext *cx, Oid type)
{
	cx->stmt->paramExecTypes = lappend_oid(cx->stmt->paramExecTypes, type);
	return list_length(cx->stmt->paramExecTypes) - 1;
}

/* A build node for spec between the Hash node and its child. */
static void
add_build(InjectContext *cx, HashJoin *hj, Hash *hash, List *keys, RuntimeFilterSpec *spec)
{
	CustomScan *build = bloom_runtime_build_make(outerPlan(hash), keys, spec,
												 hash->plan.parallel_aware);

	build->scan.plan.plan_node_id = cx->next_plan_node_id++;
	outerPlan(hash) = (Plan *) build;

	/* build before probing (see the header) */
	outerPlan(hj)->startup_cost = Max(outerPlan(hj)->startup_cost, hash->plan.total_cost);
}

/* Send the filter to the workers of each Gather between the join and the scan. */
void
bloom_runtime_send_to_workers(List *gathers, int paramid)
{
	ListCell   *lc;

	foreach(lc, gathers)
	{
		Plan	   *plan = lfirst(lc);

		if (IsA(plan, Gather))
			((Gather *) plan)->initParam = bms_add_member(((Gather *) plan)->initParam, paramid);
		else
			((GatherMerge *) plan)->initParam =
				bms_add_member(((GatherMerge *) plan)->initParam, paramid);
	}
}

void
bloom_runtime_place_probe(InjectContext *cx, Plan **link, List *keys, RuntimeFilterSpec *spec,
						  bool has_range, List *gathers)
{
	Plan	   *scan = *link;

	/* the range compares integers: only a scan that reads its key as one */
	spec->has_range = has_range && linitial_int(spec->integer_keys);
	spec->has_keyset = spec->has_range;
	/* a heap scan may read the exact set's rows through an index */
	/* (the build keeps as many keys as the most any probe looks up) */
	bloom_runtime_lookup_plan(cx->stmt, scan, linitial(keys), spec);
	/* a relation whose constraints bound the key: skipped when the range
	 * misses them (runtime_filter_prune.c) */
	spec->has_bounds = spec->has_range &&
		bloom_runtime_scan_bounds(cx->stmt, scan, linitial(keys), &spec->bounds);
	if (!bloom_runtime_is_probe(scan))
		*link = bloom_runtime_probe_make(scan, keys, spec, &cx->next_plan_node_id);
	else
		bloom_runtime_probe_add((CustomScan *) scan, keys, spec);
	bloom_runtime_send_to_workers(gathers, spec->paramid);
	if (spec->has_range)
		bloom_runtime_send_to_workers(gathers, spec->range_paramid);
	if (spec->has_keyset)
		bloom_runtime_send_to_workers(gathers, spec->keyset_paramid);
}

/* The remote filter of a foreign scan target (second planning). */
static void
add_remote_filter(InjectContext *cx, HashJoin *hj, Hash *hash, Target *target,
				  RemoteCandidate *cand, double build_rows)
{
	RuntimeFilterSpec spec;
	Oid			left,
				right;

	/* this join may be another than the first planning's: its operator too */
	if (!bloom_runtime_canonical_equality(list_nth_oid(hj->hashoperators, target->key),
										  list_nth_oid(hj->hashcollations, target->key)) ||
		!get_op_hash_functions(list_nth_oid(hj->hashoperators, target->key), &left, &right) ||
		build_rows > bloom_runtime_filter_max_keys(RUNTIME_FILTER_CANONICAL))
		return;
	memset(&spec, 0, sizeof spec);
	spec.filter_id = cx->next_filter_id++;
	spec.paramid = bloom_runtime_new_param(cx, cx->bloom_type);
	spec.kind = RUNTIME_FILTER_CANONICAL;
	spec.nkeys = 1;
	spec.hashfuncs = list_make1_oid(right);
	spec.collations = list_make1_oid(list_nth_oid(hj->hashcollations, target->key));
	spec.integer_keys = list_make1_int(0);
	spec.est_keys = build_rows;
	add_build(cx, hj, hash, list_make1(copyObjectImpl(list_nth(hash->hashkeys, target->key))), &spec);
	cand->paramid = spec.paramid;
}

/* Note a local filter's estimated pass fraction (for the joins below it). */
static void
record_pass(InjectContext *cx, int paramid, double pass)
{
	FilterPass *fp = palloc(sizeof(FilterPass));

	fp->paramid = paramid;
	fp->pass = Min(Max(pass, 0.0), 1.0);
	cx->passes = lappend(cx->passes, fp);
}

/* A scan the local filter may probe, and the keys that reach it. */
typedef struct ScanGroup
{
	Plan	  **link;
	Bitmapset  *mask;			/* the keys that reach it */
	Expr	   *exprs[INDEX_MAX_KEYS];	/* each, in the scan's terms */
	Oid			hashfuncs[INDEX_MAX_KEYS];	/* each one's, when not the join's */
	List	   *gathers;
} ScanGroup;

/*
 * The local filter: the keys of the mask that reaches the most probe rows,
 * probed at the scans they reach; a build node under the Hash node.
 */
static void
add_local_filter(InjectContext *cx, HashJoin *hj, Hash *hash, List *groups, double build_rows,
				 double pass)
{
	Bitmapset  *mask = NULL;
	double		best = -1;
	RuntimeFilterSpec spec;
	List	   *probe_funcs = NIL;
	List	   *build_funcs = NIL;
	List	   *collations = NIL;
	List	   *integer_keys = NIL;
	List	   *build_keys = NIL;
	bool		has_range;
	int			k = -1;
	ListCell   *lc;

	foreach(lc, groups)
	{
		ScanGroup  *g = lfirst(lc);
		double		rows = 0;
		ListCell   *other;

		foreach(other, groups)
			if (bms_equal(((ScanGroup *) lfirst(other))->mask, g->mask))
				rows += (*((ScanGroup *) lfirst(other))->link)->plan_rows;
		if (rows > best || (rows == best && bms_num_members(g->mask) > bms_num_members(mask)))
		{
			best = rows;
			mask = g->mask;
		}
	}
	if (mask == NULL)
		return;
	while ((k = bms_next_member(mask, k)) >= 0)
	{
		Oid			left,
					right;

		if (!get_op_hash_functions(list_nth_oid(hj->hashoperators, k), &left, &right))
			return;
		probe_funcs = lappend_oid(probe_funcs, left);
		build_funcs = lappend_oid(build_funcs, right);
		integer_keys = lappend_int(integer_keys, bloom_runtime_integer_key(left, right));
		collations = lappend_oid(collations, list_nth_oid(hj->hashcollations, k));
		build_keys = lappend(build_keys, copyObjectImpl(list_nth(hash->hashkeys, k)));
	}
	memset(&spec, 0, sizeof spec);
	spec.filter_id = cx->next_filter_id++;
	spec.paramid = bloom_runtime_new_param(cx, BYTEAOID);
	spec.kind = RUNTIME_FILTER_JOIN_HASH;
	spec.nkeys = bms_num_members(mask);
	spec.collations = collations;
	spec.integer_keys = integer_keys;
	spec.est_keys = build_rows;
	/* one integer key: its range too (runtime_filter.h) */
	has_range = spec.nkeys == 1 && linitial_int(integer_keys);
	spec.has_range = has_range;
	spec.range_paramid = has_range ? bloom_runtime_new_param(cx, BYTEAOID) : -1;
	/* and its exact set, when it has few (same condition) */
	spec.has_keyset = has_range;
	spec.keyset_paramid = has_range ? bloom_runtime_new_param(cx, BYTEAOID) : -1;
	spec.keyset_max = RUNTIME_KEYSET_MAX;

	/* the probes: each scan of the mask, with its keys in the mask's order */
	spec.hashfuncs = probe_funcs;
	foreach(lc, groups)
	{
		ScanGroup  *g = lfirst(lc);
		List	   *keys = NIL;
		List	   *funcs = NIL;
		List	   *integers = NIL;
		ListCell   *probe_func;
		ListCell   *build_func;

		if (!bms_equal(g->mask, mask))
			continue;
		k = -1;
		forboth(probe_func, probe_funcs, build_func, build_funcs)
		{
			Oid			func;

			k = bms_next_member(mask, k);
			keys = lappend(keys, g->exprs[k]);
			/* a key reached through another join's equality: its type's */
			func = OidIsValid(g->hashfuncs[k]) ? g->hashfuncs[k] : lfirst_oid(probe_func);
			funcs = lappend_oid(funcs, func);
			integers = lappend_int(integers, bloom_runtime_integer_key(func, lfirst_oid(build_func)));
		}
		spec.hashfuncs = funcs;
		spec.integer_keys = integers;
		bloom_runtime_place_probe(cx, g->link, keys, &spec, has_range, g->gathers);
	}

	/* the build */
	spec.has_bounds = false;
	spec.hashfuncs = build_funcs;
	spec.integer_keys = integer_keys;
	spec.has_range = has_range;
	spec.has_keyset = has_range;
	spec.lookup_index = InvalidOid;
	spec.lookup_max_keys = 0;
	spec.lookup_max_rows = 0;
	add_build(cx, hj, hash, build_keys, &spec);
	record_pass(cx, spec.paramid, pass);
}

/* Estimated build rows (every participant's, under a Parallel Hash). */
static double
build_rows_estimate(Hash *hash)
{
	return hash->plan.parallel_aware ? hash->rows_total : outerPlan(hash)->plan_rows;
}

/* Whether every hash operator is strict and has hash functions. */
static bool
hashable_keys(HashJoin *hj)
{
	ListCell   *lc;

	foreach(lc, hj->hashoperators)
	{
		Oid			left,
					right;

		if (!op_strict(lfirst_oid(lc)) || !get_op_hash_functions(lfirst_oid(lc), &left, &right))
			return false;
	}
	return true;
}

/*
 * The filters probed and built in a subtree (their parameters), to find
 * those probed there that are built outside: a join above it whose key
 * reached it.
 */
typedef struct SubtreeFilters
{
	Bitmapset  *probed;
	Bitmapset  *built;
} SubtreeFilters;

static void
collect_filters(Plan *plan, SubtreeFilters *sf)
{
	ListCell   *lc;
	RuntimeFilterSpec spec;

	check_stack_depth();
	if (plan == NULL)
		return;
	if (bloom_runtime_is_probe(plan))
	{
		foreach(lc, ((CustomScan *) plan)->custom_private)
		{
			bloom_runtime_spec_from_list(lfirst(lc), &spec);
			sf->probed = bms_add_member(sf->probed, spec.paramid);
		}
	}
	else if (bloom_runtime_is_build(plan))
	{
		bloom_runtime_spec_from_list(((CustomScan *) plan)->custom_private, &spec);
		sf->built = bms_add_member(sf->built, spec.paramid);
	}
	switch (nodeTag(plan))
	{
		case T_Append:
			foreach(lc, ((Append *) plan)->appendplans)
				collect_filters(lfirst(lc), sf);
			break;
		case T_MergeAppend:
			foreach(lc, ((MergeAppend *) plan)->mergeplans)
				collect_filters(lfirst(lc), sf);
			break;
		case T_SubqueryScan:
			collect_filters(((SubqueryScan *) plan)->subplan, sf);
			break;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) plan)->custom_plans)
				collect_filters(lfirst(lc), sf);
			break;
		default:
			break;
	}
	collect_filters(plan->lefttree, sf);
	collect_filters(plan->righttree, sf);
}

/*
 * The estimated fraction of the build side's rows left by the filters of
 * joins above that reach its scans (1 if none): the planner's estimate of
 * the build side knows nothing of them.  Those filters are complete before
 * this join builds: a hash join builds its hash table (and filter) before
 * it reads a probe row (add_build), and this join is on its probe side.
 * A filter that reaches the probe side too (the same keys, through an
 * equality) removes from both the rows that would not match: it leaves
 * the fraction of probe rows that match as it was, and is not counted.
 */
static double
build_reduction(InjectContext *cx, HashJoin *hj, Hash *hash)
{
	SubtreeFilters build = {NULL, NULL};
	SubtreeFilters probe = {NULL, NULL};
	double		reduction = 1.0;
	ListCell   *lc;

	collect_filters(outerPlan(hash), &build);
	collect_filters(outerPlan(hj), &probe);
	foreach(lc, cx->passes)
	{
		FilterPass *fp = lfirst(lc);

		if (bms_is_member(fp->paramid, build.probed) && !bms_is_member(fp->paramid, build.built) &&
			!bms_is_member(fp->paramid, probe.probed))
			reduction *= fp->pass;
	}
	return reduction;
}

static void
consider_join(InjectContext *cx, HashJoin *hj, bool may_rescan)
{
	JoinType	jointype = hj->join.jointype;
	Hash	   *hash = (Hash *) innerPlan(hj);
	Plan	   *outer = outerPlan(hj);
	double		build_rows;
	List	   *targets = NIL;
	List	   *groups = NIL;
	int			nkeys = list_length(hj->hashkeys);
	double		reduction = 1.0;
	double		pass;
	bool		estimated;
	bool		local_ok;
	ListCell   *lc;

	if (!(jointype == JOIN_INNER || jointype == JOIN_SEMI || jointype == JOIN_RIGHT ||
		  jointype == JOIN_RIGHT_SEMI || jointype == JOIN_RIGHT_ANTI))
		return;
	if (hash == NULL || !IsA(hash, Hash) || outer == NULL || nkeys == 0 ||
		nkeys != list_length(hash->hashkeys) || !hashable_keys(hj) ||
		bloom_runtime_is_outer_first(outer))
		return;
	/*
	 * Reconsidered: a join that got no filter, whose build side the filters
	 * of joins above now reduce (predicate transfer along a chain: the
	 * orders that customer's filter leaves make the filter of lineitem).
	 */
	if (cx->reconsider)
	{
		if (bloom_runtime_is_build(outerPlan(hash)))
			return;
		reduction = build_reduction(cx, hj, hash);
		if (reduction >= 1.0)
			return;
	}
	build_rows = build_rows_estimate(hash) * reduction;
	if (nkeys > INDEX_MAX_KEYS || build_rows > bloom_runtime_filter_max_keys(RUNTIME_FILTER_JOIN_HASH))
		return;

	/*
	 * A local filter is worth its probes where the probe side is large and
	 * (inner and semi joins) few of its rows are estimated to match.  A
	 * remote one always is: a row not shipped saves far more than the
	 * remote probe of it costs, and foreign tables are often not analyzed.
	 * Each of the join's rows has one build row: the build side reduced by
	 * filters from above, its rows are reduced alike.  A right join's rows
	 * are its matches and the build rows that found none: at least as many
	 * as the probe rows that match, so more than max_pass of the probe rows
	 * there says the filter would most likely pass most of them.
	 */
	estimated = jointype == JOIN_INNER || jointype == JOIN_SEMI || jointype == JOIN_RIGHT;
	pass = estimated ?
		Min(hj->join.plan.plan_rows * reduction / Max(outer->plan_rows, 1.0), 1.0) : 1.0;
	local_ok = outer->plan_rows >= bloomfilter_runtime_filter_min_rows &&
		!(estimated && pass > bloomfilter_runtime_filter_max_pass);

	for (int k = 0; k < nkeys; k++)
		targets = list_concat(targets, bloom_runtime_trace(cx, hj, k, may_rescan));

	/* local scans, grouped; foreign scans, each key apart */
	foreach(lc, targets)
	{
		Target	   *t = lfirst(lc);
		Plan	   *scan = *t->link;
		ScanGroup  *group = NULL;
		ListCell   *g;

		if (IsA(scan, ForeignScan))
		{
			RemoteCandidate *cand;

			if (cx->reconsider)
				continue;		/* remote filters: the first pass's */
			if (!cx->second)
				bloom_runtime_note_remote(cx, hj, t, may_rescan);
			else if (!may_rescan && (cand = bloom_runtime_placed_remote(cx, hj, t)) != NULL)
				add_remote_filter(cx, hj, hash, t, cand, build_rows);
			continue;
		}
		if (IsA(scan, CustomScan) && !bloom_runtime_probe_has_room((CustomScan *) scan))
			continue;
		/* a scan reached through another join's equality: only if it is
		 * large enough to be worth its probes itself */
		if (OidIsValid(t->hashfunc) && scan->plan_rows < bloomfilter_runtime_filter_min_rows)
			continue;
		foreach(g, groups)
			if (*((ScanGroup *) lfirst(g))->link == scan)
				group = lfirst(g);
		if (group == NULL)
		{
			group = palloc0(sizeof(ScanGroup));
			group->link = t->link;
			group->gathers = t->gathers;
			groups = lappend(groups, group);
		}
		group->mask = bms_add_member(group->mask, t->key);
		group->exprs[t->key] = t->expr;
		group->hashfuncs[t->key] = t->hashfunc;
	}
	/* a small probe side is worth a filter where a scan of it runs a
	 * subquery for each row (it moves above the filter) */
	if (!local_ok && !(estimated && pass > bloomfilter_runtime_filter_max_pass))
		foreach(lc, groups)
			if (bloom_runtime_wrap_moved_cost(*((ScanGroup *) lfirst(lc))->link) > 0)
				local_ok = true;
	if (groups != NIL && local_ok)
		add_local_filter(cx, hj, hash, groups, build_rows, pass);
}

/* ---- walking the plan ---- */

static void
walk_list(InjectContext *cx, List *plans, bool may_rescan)
{
	ListCell   *lc;

	foreach(lc, plans)
		walk_plan(cx, (Plan **) &lfirst(lc), may_rescan);
}

/* Children first, then the node itself if it is a join. */
static void
walk_plan(InjectContext *cx, Plan **link, bool may_rescan)
{
	Plan	   *plan = *link;

	check_stack_depth();
	if (plan == NULL)
		return;
	switch (nodeTag(plan))
	{
		case T_NestLoop:
		case T_MergeJoin:
			walk_plan(cx, &plan->lefttree, may_rescan);
			walk_plan(cx, &plan->righttree, true);
			/* (again in the reconsidering rounds: for a build that probes
			 * filters built first above) */
			bloom_runtime_prebuild_consider(cx, link, may_rescan);
			return;
		case T_Memoize:
		case T_RecursiveUnion:
			walk_plan(cx, &plan->lefttree, true);
			walk_plan(cx, &plan->righttree, true);
			return;
		case T_Append:
			walk_list(cx, ((Append *) plan)->appendplans, may_rescan);
			return;
		case T_MergeAppend:
			walk_list(cx, ((MergeAppend *) plan)->mergeplans, may_rescan);
			return;
		case T_BitmapAnd:
			walk_list(cx, ((BitmapAnd *) plan)->bitmapplans, may_rescan);
			return;
		case T_BitmapOr:
			walk_list(cx, ((BitmapOr *) plan)->bitmapplans, may_rescan);
			return;
		case T_SubqueryScan:
			walk_plan(cx, &((SubqueryScan *) plan)->subplan, may_rescan);
			return;
		case T_CustomScan:
			walk_list(cx, ((CustomScan *) plan)->custom_plans, may_rescan);
			break;
		default:
			break;
	}
	walk_plan(cx, &plan->lefttree, may_rescan);
	walk_plan(cx, &plan->righttree, may_rescan);
	if (IsA(plan, HashJoin))
	{
		consider_join(cx, (HashJoin *) plan, may_rescan);
		bloom_runtime_outer_first_consider(cx, (HashJoin *) plan, may_rescan);
	}
}

/* The largest plan_node_id of the statement. */
static int
max_node_id(Plan *plan)
{
	int			result;
	ListCell   *lc;

	if (plan == NULL)
		return -1;
	result = Max(plan->plan_node_id, Max(max_node_id(plan->lefttree), max_node_id(plan->righttree)));
	if (IsA(plan, SubqueryScan))
		result = Max(result, max_node_id(((SubqueryScan *) plan)->subplan));
	foreach(lc, bloom_runtime_child_plans(plan))
		result = Max(result, max_node_id(lfirst(lc)));
	return result;
}

bool
bloom_runtime_divides_rows(Plan *plan)
{
	ListCell   *lc;

	check_stack_depth();
	if (plan == NULL || IsA(plan, Gather) || IsA(plan, GatherMerge))
		return false;
	if (plan->parallel_aware)
		return true;
	if (IsA(plan, SubqueryScan) && bloom_runtime_divides_rows(((SubqueryScan *) plan)->subplan))
		return true;
	foreach(lc, bloom_runtime_child_plans(plan))
		if (bloom_runtime_divides_rows(lfirst(lc)))
			return true;
	return bloom_runtime_divides_rows(plan->lefttree) ||
		bloom_runtime_divides_rows(plan->righttree);
}

List *
bloom_runtime_child_plans(Plan *plan)
{
	switch (nodeTag(plan))
	{
		case T_Append:
			return ((Append *) plan)->appendplans;
		case T_MergeAppend:
			return ((MergeAppend *) plan)->mergeplans;
		case T_CustomScan:
			return ((CustomScan *) plan)->custom_plans;
		case T_BitmapAnd:
			return ((BitmapAnd *) plan)->bitmapplans;
		case T_BitmapOr:
			return ((BitmapOr *) plan)->bitmapplans;
		default:
			return NIL;
	}
}

/*
 * The parameters set by the initPlans under plan that read no parameter of
 * an outer query level: evaluated once an execution, never again on a
 * rescan (ExecReScan re-evaluates an initPlan when its extParam changed).
 */
static Bitmapset *
fixed_params(PlannedStmt *stmt, Plan *plan)
{
	Bitmapset  *result = NULL;
	List	   *children = NIL;
	ListCell   *lc;

	check_stack_depth();
	if (plan == NULL)
		return NULL;
	foreach(lc, plan->initPlan)
	{
		SubPlan    *sp = lfirst(lc);
		Plan	   *sub = list_nth(stmt->subplans, sp->plan_id - 1);
		ListCell   *id;

		if (sp->parParam == NIL && sp->args == NIL && bms_is_empty(sub->extParam))
			foreach(id, sp->setParam)
				result = bms_add_member(result, lfirst_int(id));
	}
	if (IsA(plan, SubqueryScan))
		result = bms_join(result, fixed_params(stmt, ((SubqueryScan *) plan)->subplan));
	children = bloom_runtime_child_plans(plan);
	foreach(lc, children)
		result = bms_join(result, fixed_params(stmt, lfirst(lc)));
	result = bms_join(result, fixed_params(stmt, plan->lefttree));
	return bms_join(result, fixed_params(stmt, plan->righttree));
}

/* Add the filters to a finished plan. */
static void
inject(InjectContext *cx, PlannedStmt *stmt)
{
	ListCell   *lc;

	cx->stmt = stmt;
	cx->next_filter_id = 1;
	cx->next_plan_node_id = max_node_id(stmt->planTree) + 1;
	foreach(lc, stmt->subplans)
		cx->next_plan_node_id = Max(cx->next_plan_node_id, max_node_id(lfirst(lc)) + 1);
	cx->passes = NIL;
	cx->prebuilt = NIL;
	cx->fixed_params = fixed_params(stmt, stmt->planTree);
	foreach(lc, stmt->subplans)
		cx->fixed_params = bms_join(cx->fixed_params, fixed_params(stmt, lfirst(lc)));
	cx->reconsider = false;
	walk_plan(cx, &stmt->planTree, cx->rewind);
	foreach(lc, stmt->subplans)
		walk_plan(cx, (Plan **) &lfirst(lc), true);

	/*
	 * Then the joins that got no filter, again, where filters from above
	 * reduce their build sides; a filter made so may reduce the build side
	 * of a join below it in turn.
	 */
	if (bloomfilter_runtime_filter_transfer)
	{
		cx->reconsider = true;
		for (int round = 0; round < RECONSIDER_ROUNDS; round++)
		{
			int			made = cx->next_filter_id;

			walk_plan(cx, &stmt->planTree, cx->rewind);
			foreach(lc, stmt->subplans)
				walk_plan(cx, (Plan **) &lfirst(lc), true);
			if (cx->next_filter_id == made)
				break;
		}
		cx->reconsider = false;
	}

	/* the expensive build sides under a Gather: computed once for all */
	bloom_runtime_share_builds(&stmt->planTree, &cx->next_plan_node_id);
	foreach(lc, stmt->subplans)
		bloom_runtime_share_builds((Plan **) &lfirst(lc), &cx->next_plan_node_id);
}

/* ---- the hook ---- */

static PlannedStmt *
plan_next(PLANNER_HOOK_PARAMS)
{
	if (previous_planner_hook)
		return previous_planner_hook(PLANNER_HOOK_ARGS);
	return standard_planner(PLANNER_HOOK_ARGS);
}

static PlannedStmt *
plan_with_filters(PLANNER_HOOK_PARAMS)
{
	PlannedStmt *stmt;
	Query	   *written = NULL;
	InjectContext cx;

	if (!bloomfilter_runtime_filter)
		return plan_next(PLANNER_HOOK_ARGS);
	memset(&cx, 0, sizeof cx);
	cx.rewind = (cursorOptions & (CURSOR_OPT_SCROLL | CURSOR_OPT_HOLD)) != 0;
	bloom_runtime_cte_conditions(parse);
	if (bloom_runtime_reads_remote(parse))
	{
		bloom_runtime_lookup_extension(&cx);
		if (OidIsValid(cx.contains_func))
			written = (Query *) copyObjectImpl(parse);
	}
	cx.parse = written;
	stmt = plan_next(PLANNER_HOOK_ARGS);
	inject(&cx, stmt);

	if (cx.candidates != NIL)
	{
		InjectContext second = cx;
		PlannedStmt *stmt2;

		/* the query as written, with the remote filters' conditions */
		bloom_runtime_add_placeholders(&cx);
		parse = written;
		stmt2 = plan_next(PLANNER_HOOK_ARGS);
		second.second = true;
		second.parse = NULL;
		inject(&second, stmt2);
		if (bloom_runtime_resolve_placeholders(&second, stmt2))
			return stmt2;
	}
	return stmt;
}

void
bloom_runtime_plan_init(void)
{
	previous_planner_hook = planner_hook;
	planner_hook = plan_with_filters;
}
