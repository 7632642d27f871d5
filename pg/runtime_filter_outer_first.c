/*
 * runtime_filter_outer_first.c - a hash join's probe side read first: its
 * keys filter the build side (runtime_filter_plan.h).
 *
 * A hash join filters its probe (outer) side with the keys of its build
 * side (runtime_filter_plan.c).  The other way round pays where the probe
 * side is small and selective and the build side is expensive (TPC-H's
 * Q20: one nation's suppliers, and a build side that runs a correlated
 * subquery for each part supplier of every nation).  Reading the probe side first, into a tuplestore, makes a
 * filter of its keys before the hash table is built; the build side's
 * scans that the key reaches drop the rows that match no probe row, and a
 * condition with a subplan of such a scan moves above the filter
 * (runtime_filter_wrap.c), so a row dropped runs no subquery.  This is the
 * backward pass of predicate transfer, for one join.
 *
 * The node, Custom Scan (BloomOuterFirst), is the join's outer child, over
 * a build node over the old outer child.  At its first row it reads its
 * child to the end into a tuplestore (work_mem, then a file), which builds
 * the filter, then returns the rows stored.  ExecHashJoin reads one outer
 * row before it builds its hash table when the outer child's startup cost
 * is less than the Hash node's total cost (to skip the build when the
 * outer side is empty), and always for a left or anti join: the node's
 * startup cost is its child's total, and the planner places it only where
 * that holds, so the filter is complete before the build side's first
 * scan.
 *
 * Where (bloomfilter.runtime_filter_outer_first, on): a hash join that is
 * not parallel-aware, inner, left, semi or anti (a build row that matches
 * no probe row is never returned), that got no filter of its own, runs
 * once per execution (not under a nested loop's inner side: a hash table
 * kept for a rescan would lack the new probe rows' matches), in a SELECT
 * that locks no rows, whose outer side has no parallel-aware node (every
 * process then reads all of it: its filter is complete for the build side
 * its hash table is built from).  Decided by estimates, for the first key
 * of the join whose trace reaches scans of the build side:
 *
 *   pass   = the probe rows (as keys) / the distinct values of the
 *            scanned column (pg_statistic), at most 1
 *   saved  = (1 - pass) * (the build side's cost above the scans
 *            + the rows scanned * their conditions with a subplan)
 *   cost   = the probe rows stored, read and hashed
 *            + the rows scanned * a probe
 *
 * each scan's rows counted as often as it runs (under a nested loop, once
 * per outer row).  Placed when saved > cost, pass at most
 * bloomfilter.runtime_filter_max_pass, the probe rows within what a filter
 * of bloomfilter.runtime_filter_max_size holds, and the scanned rows at
 * least bloomfilter.runtime_filter_min_rows unless they have conditions
 * with a subplan (each row dropped saves a subquery's run).
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"
#include "runtime_filter_prune.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

bool		bloomfilter_runtime_filter_outer_first = true;

/* ---- the node ---- */

typedef struct OuterFirstState
{
	CustomScanState css;
	Tuplestorestate *rows;
	TupleTableSlot *read_slot;
	bool		stored;			/* the child read to its end */
	/* for EXPLAIN ANALYZE */
	uint64		nrows;
	bool		spilled;
} OuterFirstState;

static Node *create_state(CustomScan *cscan);
static void begin_outer_first(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_outer_first(CustomScanState *node);
static void end_outer_first(CustomScanState *node);
static void rescan_outer_first(CustomScanState *node);
static void explain_outer_first(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomScanMethods outer_first_methods = {
	.CustomName = BLOOM_OUTER_FIRST_NAME,
	.CreateCustomScanState = create_state,
};

static const CustomExecMethods outer_first_exec_methods = {
	.CustomName = BLOOM_OUTER_FIRST_NAME,
	.BeginCustomScan = begin_outer_first,
	.ExecCustomScan = exec_outer_first,
	.EndCustomScan = end_outer_first,
	.ReScanCustomScan = rescan_outer_first,
	.ExplainCustomScan = explain_outer_first,
};

void
bloom_runtime_outer_first_register(void)
{
	RegisterCustomScanMethods(&outer_first_methods);
}

bool
bloom_runtime_is_outer_first(Plan *plan)
{
	return IsA(plan, CustomScan) && ((CustomScan *) plan)->methods == &outer_first_methods;
}

static Node *
create_state(CustomScan *cscan)
{
	OuterFirstState *state = palloc0(sizeof(OuterFirstState));

	NodeSetTag(state, T_CustomScanState);
	state->css.flags = cscan->flags;
	state->css.methods = &outer_first_exec_methods;
	return (Node *) state;
}

static void
begin_outer_first(CustomScanState *node, EState *estate, int eflags)
{
	OuterFirstState *state = (OuterFirstState *) node;
	PlanState  *child;

	child = ExecInitNode(outerPlan(node->ss.ps.plan), estate, eflags);
	outerPlanState(node) = child;
	node->ss.ps.ps_ProjInfo = NULL;
	state->read_slot = ExecInitExtraTupleSlot(estate, ExecGetResultType(child),
											  &TTSOpsMinimalTuple);
	node->ss.ps.resultops = &TTSOpsMinimalTuple;
	node->ss.ps.resultopsfixed = true;
	node->ss.ps.resultopsset = true;
}

static TupleTableSlot *
exec_outer_first(CustomScanState *node)
{
	OuterFirstState *state = (OuterFirstState *) node;

	if (!state->stored)
	{
		PlanState  *child = outerPlanState(node);

		if (state->rows == NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(node->ss.ps.state->es_query_cxt);

			state->rows = tuplestore_begin_heap(false, false, work_mem);
			MemoryContextSwitchTo(old);
		}
		/* every row first: the build node under it makes the filter */
		for (;;)
		{
			TupleTableSlot *slot = ExecProcNode(child);

			if (TupIsNull(slot))
				break;
			tuplestore_puttupleslot(state->rows, slot);
			state->nrows++;
			CHECK_FOR_INTERRUPTS();
		}
		state->spilled = !tuplestore_in_memory(state->rows);
		state->stored = true;
	}
	if (!tuplestore_gettupleslot(state->rows, true, false, state->read_slot))
		return ExecClearTuple(state->read_slot);
	return state->read_slot;
}

static void
end_outer_first(CustomScanState *node)
{
	OuterFirstState *state = (OuterFirstState *) node;

	if (state->rows != NULL)
		tuplestore_end(state->rows);
	state->rows = NULL;
	ExecEndNode(outerPlanState(node));
}

static void
rescan_outer_first(CustomScanState *node)
{
	OuterFirstState *state = (OuterFirstState *) node;
	PlanState  *child = outerPlanState(node);

	if (state->rows == NULL)
		return;
	/* other rows (a parameter changed): read the child again */
	if (child->chgParam != NULL)
	{
		tuplestore_clear(state->rows);
		state->stored = false;
		state->nrows = 0;
	}
	else
		tuplestore_rescan(state->rows);
}

static void
explain_outer_first(CustomScanState *node, List *ancestors, ExplainState *es)
{
	OuterFirstState *state = (OuterFirstState *) node;
	StringInfoData buf;

	(void) ancestors;
	if (!es->analyze || !state->stored)
		return;
	initStringInfo(&buf);
	appendStringInfo(&buf, UINT64_FORMAT " rows, %s", state->nrows,
					 state->spilled ? "on disk" : "in memory");
	ExplainPropertyText("Read First", buf.data, es);
}

/* ---- the planner ---- */

/* The distinct values of the column that target's key is, from its
 * statistics; 0 when unknown. */
static double
target_distinct(InjectContext *cx, Target *target)
{
	Oid			relid;
	AttrNumber	attno;
	HeapTuple	tup;
	double		nd = 0;

	if (!bloom_runtime_key_column(cx->stmt, *target->link, target->expr, &relid, &attno))
		return 0;
	tup = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid), Int16GetDatum(attno),
						  BoolGetDatum(false));
	if (!HeapTupleIsValid(tup))
		return 0;
	nd = ((Form_pg_statistic) GETSTRUCT(tup))->stadistinct;
	ReleaseSysCache(tup);
	/* a fraction of the table's rows */
	if (nd < 0 && (tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid))) != NULL &&
		HeapTupleIsValid(tup))
	{
		double		tuples = ((Form_pg_class) GETSTRUCT(tup))->reltuples;

		ReleaseSysCache(tup);
		nd = tuples > 0 ? -nd * tuples : 0;
	}
	return Max(nd, 0.0);
}

void
bloom_runtime_outer_first_consider(InjectContext *cx, HashJoin *hj, bool may_rescan)
{
	JoinType	jointype = hj->join.jointype;
	Hash	   *hash = (Hash *) innerPlan(hj);
	Plan	   *outer = outerPlan(hj);
	double		est_keys;
	int			nkeys = list_length(hj->hashkeys);

	if (!bloomfilter_runtime_filter_outer_first || may_rescan || cx->reconsider ||
		cx->stmt->commandType != CMD_SELECT || cx->stmt->rowMarks != NIL ||
		!(jointype == JOIN_INNER || jointype == JOIN_LEFT || jointype == JOIN_SEMI ||
		  jointype == JOIN_ANTI) ||
		hj->join.plan.parallel_aware || hash == NULL || !IsA(hash, Hash) ||
		hash->plan.parallel_aware || outer == NULL || nkeys == 0 ||
		bloom_runtime_is_build(outerPlan(hash)) || bloom_runtime_divides_rows(outer))
		return;
	est_keys = clamp_row_est(outer->plan_rows);
	if (est_keys > bloom_runtime_filter_max_keys(RUNTIME_FILTER_JOIN_HASH))
		return;
	/* ExecHashJoin must read the first outer row before it builds */
	if (jointype != JOIN_LEFT && jointype != JOIN_ANTI &&
		outer->total_cost + 2 * est_keys * cpu_tuple_cost >= hash->plan.total_cost)
		return;

	for (int k = 0; k < nkeys; k++)
	{
		Oid			op = get_commutator(list_nth_oid(hj->hashoperators, k));
		Oid			collation = list_nth_oid(hj->hashcollations, k);
		Oid			probe_func,
					build_func;
		double		scans_cost = 0,
					scans_rows = 0,
					moved = 0,
					distinct = 0,
					pass,
					above,
					saved,
					cost;
		List	   *targets = NIL;
		RuntimeFilterSpec spec;
		CustomScan *build;
		CustomScan *node;
		ListCell   *lc;

		if (!OidIsValid(op) || !op_strict(op) ||
			!get_op_hash_functions(op, &probe_func, &build_func))
			continue;
		/* the build side's key, traced down the Hash node's child */
		foreach(lc, bloom_runtime_trace_key(cx, &outerPlan(hash), list_nth(hash->hashkeys, k), 0,
											op, collation, false))
		{
			Target	   *t = lfirst(lc);
			double		runs,
						nd;

			if (!bloom_runtime_probe_target(t) || (nd = target_distinct(cx, t)) <= 0)
				continue;
			runs = Max(bloom_runtime_runs_below(outerPlan(hash), t->link), 1.0);
			targets = lappend(targets, t);
			scans_cost += runs * (*t->link)->total_cost;
			scans_rows += runs * (*t->link)->plan_rows;
			moved += runs * (*t->link)->plan_rows * bloom_runtime_wrap_moved_cost(*t->link);
			distinct = Max(distinct, nd);
		}
		/* few rows are worth it where each runs a subquery */
		if (targets == NIL || (scans_rows < bloomfilter_runtime_filter_min_rows && moved == 0))
			continue;
		pass = Min(est_keys / distinct, 1.0);
		above = Max(0.0, outerPlan(hash)->total_cost - scans_cost);
		saved = (1.0 - pass) * (above + moved);
		cost = est_keys * (2 * cpu_tuple_cost + cpu_operator_cost) + scans_rows * cpu_operator_cost;
		if (pass > bloomfilter_runtime_filter_max_pass || saved <= cost)
			continue;

		bloom_runtime_place_filter(cx, &spec, targets, collation, est_keys, probe_func, build_func);
		build = bloom_runtime_build_make(outer, list_make1(copyObjectImpl(list_nth(hj->hashkeys, k))),
										 &spec, false);
		build->scan.plan.plan_node_id = cx->next_plan_node_id++;
		node = bloom_runtime_passthrough_scan((Plan *) build, &outer_first_methods);
		node->scan.plan.plan_node_id = cx->next_plan_node_id++;
		/* every row is read before the first comes */
		node->scan.plan.startup_cost = outer->total_cost + est_keys * cpu_tuple_cost;
		node->scan.plan.total_cost = node->scan.plan.startup_cost + est_keys * cpu_tuple_cost;
		outerPlan(hj) = (Plan *) node;
		return;
	}
}
