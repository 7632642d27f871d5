/*
 * runtime_filter_wrap.c - the runtime filters of the hash joins above a
 * scan that is not a heap Seq Scan (an Index Scan, an Index Only Scan, a
 * Bitmap Heap Scan, of a table, a partition or an inheritance child; the
 * scan of a CTE or a function): Custom Scan (BloomRuntimeFilter) over the
 * scan (runtime_filter.h).  A CTE's or a function's scan's conditions with
 * a subplan move up into the node, after the filters; of the other scans,
 * the conditions with a subplan do, one by one (the others stay in the
 * scan, which is cheaper at them).  Not a volatile one: it runs for fewer
 * rows.
 *
 * The scan is the node's outer child (plan.lefttree), so that EXPLAIN,
 * parallel query (a parallel-aware scan's shared state), rescans and the
 * deparsing of OUTER_VAR go through it as through any node's child.  The
 * node returns the scan's rows in the scan's own slot, without
 * projecting: its targetlist is the scan's output as OUTER_VAR Vars, and
 * the keys are expressions of that output.  A row whose keys a filter
 * lacks is dropped; a row with a NULL key matches nothing.
 *
 * The filters are read from their parameter slots as the batched probe
 * scan reads them (runtime_filter_probe.c): a filter not built yet lets
 * every row through, and is looked for again every BLOOM_PROBE_BATCH rows.
 * Each filter watches its pass rate per window and switches off, then
 * probes one stretch of rows in RUNTIME_SAMPLE_EVERY, as there.
 *
 * EvalPlanQual rechecks get every row the scan gives: a runtime filter
 * only removes rows the join above would remove, and the recheck's join
 * decides.  Mark/restore and backward scans are the scan's: the node keeps
 * no row of its own.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_probe.h"
#include "runtime_filter_prune.h"

#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/ruleutils.h"

/* Name in EXPLAIN: "Custom Scan (BloomRuntimeFilter)". */
#define BLOOM_RUNTIME_FILTER_NAME "BloomRuntimeFilter"

typedef struct WrapState
{
	CustomScanState css;
	int			nfilters;
	RuntimeProbe *filters[RUNTIME_MAX_FILTERS];
	bool		filters_read;	/* every filter found since the (re)scan */
	uint64		rows;			/* rows of the scan since the (re)scan */
	RuntimeSkip skip;			/* the scan skipped (runtime_filter_prune.h) */
} WrapState;

static Node *create_state(CustomScan *cscan);
static void begin_wrap(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_wrap(CustomScanState *node);
static void end_wrap(CustomScanState *node);
static void rescan_wrap(CustomScanState *node);
static void mark_wrap(CustomScanState *node);
static void restore_wrap(CustomScanState *node);
static void explain_wrap(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomScanMethods wrap_scan_methods = {
	.CustomName = BLOOM_RUNTIME_FILTER_NAME,
	.CreateCustomScanState = create_state,
};

static const CustomExecMethods wrap_exec_methods = {
	.CustomName = BLOOM_RUNTIME_FILTER_NAME,
	.BeginCustomScan = begin_wrap,
	.ExecCustomScan = exec_wrap,
	.EndCustomScan = end_wrap,
	.ReScanCustomScan = rescan_wrap,
	.MarkPosCustomScan = mark_wrap,
	.RestrPosCustomScan = restore_wrap,
	.ExplainCustomScan = explain_wrap,
};

void
bloom_runtime_wrap_register(void)
{
	RegisterCustomScanMethods(&wrap_scan_methods);
}

/* ---- the plan node ---- */

bool
bloom_runtime_is_wrap(Plan *plan)
{
	return IsA(plan, CustomScan) && ((CustomScan *) plan)->methods == &wrap_scan_methods;
}

bool
bloom_runtime_wrappable(Plan *plan)
{
	return IsA(plan, IndexScan) || IsA(plan, IndexOnlyScan) || IsA(plan, BitmapHeapScan) ||
		IsA(plan, CteScan) || IsA(plan, FunctionScan);
}

/* The scan's output column of Var var (its position, from 1), appended to
 * the scan's targetlist when the scan does not return it. */
static AttrNumber
output_column(Plan *scan, Var *var)
{
	ListCell   *lc;
	AttrNumber	attno = 0;

	foreach(lc, scan->targetlist)
	{
		TargetEntry *tle = lfirst(lc);

		attno++;
		if (IsA(tle->expr, Var) && equal(tle->expr, var))
			return attno;
	}
	scan->targetlist = lappend(scan->targetlist,
							   makeTargetEntry((Expr *) copyObjectImpl(var), ++attno, NULL, true));
	return attno;
}

/* A scan's condition in the terms of its output (OUTER_VAR). */
static Node *
to_output_mutator(Node *node, Plan *scan)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varlevelsup == 0)
	{
		Var		   *var = (Var *) copyObjectImpl(node);

		var->varattno = output_column(scan, (Var *) node);
		var->varno = OUTER_VAR;
		return (Node *) var;
	}
	return expression_tree_mutator(node, to_output_mutator, scan);
}

/* Whether every Var of expr is one of the output's (OUTER_VAR). */
static bool
other_vars_walker(Node *node, void *context)
{
	(void) context;
	if (node == NULL)
		return false;
	if (IsA(node, Var))
		return ((Var *) node)->varno != OUTER_VAR || ((Var *) node)->varlevelsup != 0;
	if (IsA(node, Param) || IsA(node, SubPlan) || IsA(node, AlternativeSubPlan) ||
		IsA(node, SubLink) || IsA(node, Aggref) || IsA(node, WindowFunc) ||
		IsA(node, GroupingFunc))
		return true;
	return expression_tree_walker(node, other_vars_walker, context);
}

bool
bloom_runtime_wrap_key_ok(Expr *expr)
{
	return expr != NULL && !other_vars_walker((Node *) expr, NULL) &&
		contain_var_clause((Node *) expr) && !contain_volatile_functions((Node *) expr) &&
		!expression_returns_set((Node *) expr) && !contain_leaked_vars((Node *) expr);
}

/* Whether the filter node over scan takes clause of its conditions: of a
 * CTE's or a function's scan, every one when one has a subplan (a scan
 * cheap at none of them); of another scan, one with a subplan that is not
 * volatile (it runs for fewer rows). */
static bool
moves(Plan *scan, Node *clause)
{
	if (IsA(scan, CteScan) || IsA(scan, FunctionScan))
		return contain_subplans((Node *) scan->qual);
	return contain_subplans(clause) && !contain_volatile_functions(clause);
}

double
bloom_runtime_wrap_moved_cost(Plan *scan)
{
	List	   *moved = NIL;
	ListCell   *lc;
	QualCost	cost;

	if (!bloom_runtime_wrappable(scan) || !contain_subplans((Node *) scan->qual))
		return 0;
	foreach(lc, scan->qual)
		if (moves(scan, lfirst(lc)))
			moved = lappend(moved, lfirst(lc));
	cost_qual_eval(&cost, moved, NULL);
	list_free(moved);
	return cost.per_tuple;
}

CustomScan *
bloom_runtime_wrap_make(Plan *scan, List *keys, const RuntimeFilterSpec *spec, int plan_node_id)
{
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	CustomScan *cscan = (__extension__ makeNode(CustomScan));
	Plan	   *plan = &cscan->scan.plan;
	ListCell   *lc;
	AttrNumber	attno = 0;

	Assert(bloom_runtime_wrappable(scan));

	/*
	 * The conditions with a subplan (a correlated subquery run for each
	 * row) come up here, after the filters: a row a filter drops does not
	 * run them.  Rows that pass are the same either way: the join above
	 * drops the others.
	 */
	if (contain_subplans((Node *) scan->qual))
	{
		List	   *kept = NIL;

		foreach(lc, scan->qual)
		{
			Node	   *clause = lfirst(lc);

			if (moves(scan, clause))
				plan->qual = lappend(plan->qual, to_output_mutator(clause, scan));
			else
				kept = lappend(kept, clause);
		}
		scan->qual = kept;
	}
	plan->startup_cost = scan->startup_cost;
	plan->total_cost = scan->total_cost;
	plan->plan_rows = scan->plan_rows;
	plan->plan_width = scan->plan_width;
	/* the scan is parallel-aware, if anything: this node shares nothing */
	plan->parallel_aware = false;
	plan->parallel_safe = scan->parallel_safe;
	plan->plan_node_id = plan_node_id;
	plan->extParam = bms_copy(scan->extParam);
	plan->allParam = bms_copy(scan->allParam);
	foreach(lc, scan->targetlist)
	{
		TargetEntry *tle = lfirst(lc);
		Var		   *var = makeVarFromTargetEntry(OUTER_VAR, tle);

		var->varattno = ++attno;
		plan->targetlist = lappend(plan->targetlist,
								   makeTargetEntry((Expr *) var, tle->resno, tle->resname,
												   tle->resjunk));
	}
	plan->lefttree = scan;
	cscan->scan.scanrelid = 0;
	cscan->flags = CUSTOMPATH_SUPPORT_BACKWARD_SCAN | CUSTOMPATH_SUPPORT_MARK_RESTORE;
	cscan->methods = &wrap_scan_methods;
	bloom_runtime_probe_add(cscan, keys, spec);
	return cscan;
}

/* ---- running ---- */

static Node *
create_state(CustomScan *cscan)
{
	WrapState  *state = palloc0(sizeof(WrapState));

	NodeSetTag(state, T_CustomScanState);
	state->css.flags = cscan->flags;
	state->css.methods = &wrap_exec_methods;
	return (Node *) state;
}

static void
begin_wrap(CustomScanState *node, EState *estate, int eflags)
{
	WrapState  *state = (WrapState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	PlanState  *child;
	bool		fixed;

	child = ExecInitNode(outerPlan(cscan), estate, eflags);
	outerPlanState(node) = child;
	/* the scan's rows are returned in its slot, as they are */
	node->ss.ps.ps_ProjInfo = NULL;
	node->ss.ps.resultops = ExecGetResultSlotOps(child, &fixed);
	node->ss.ps.resultopsfixed = fixed;
	node->ss.ps.resultopsset = true;
	/* the keys read the scan's output (OUTER_VAR) */
	node->ss.ps.outerops = node->ss.ps.resultops;
	node->ss.ps.outeropsfixed = fixed;
	node->ss.ps.outeropsset = true;
	state->nfilters = bloom_runtime_probes_init(state->filters, cscan->custom_private,
												cscan->custom_exprs, &node->ss.ps);
}

/* Whether the row in econtext's outer slot passes every filter probing. */
static bool
passes(WrapState *state, ExprContext *econtext)
{
	/* the same stretch of rows is a sample for every filter that is off */
	bool		sample = (state->rows / BLOOM_PROBE_BATCH) % RUNTIME_SAMPLE_EVERY == 0;

	for (int f = 0; f < state->nfilters; f++)
	{
		RuntimeProbe *rf = state->filters[f];
		uint64		hash;
		bool		out;
		bool		pass;

		if (!bloom_runtime_probe_ready(rf) || (rf->off && !sample))
			continue;
		/* a NULL key matches nothing; nor does a key out of the range */
		pass = bloom_runtime_probe_key(rf, econtext, &hash, &out) &&
			bloom_runtime_probe_hash(rf, hash);
		rf->range_removed += out;
		bloom_runtime_decide(rf, 1, pass ? 1 : 0);
		if (!pass)
			return false;
	}
	return true;
}

/* Read the filters not read yet; whether the scan is to return nothing (a
 * filter's range misses the relation's bounds of its key). */
static bool
read_filters_skip(WrapState *state)
{
	state->filters_read = bloom_runtime_read_filters(state->css.ss.ps.state, state->filters,
													 state->nfilters);
	return state->skip.skipped ||
		bloom_runtime_skip_check(&state->skip, state->filters, state->nfilters);
}

static TupleTableSlot *
exec_wrap(CustomScanState *node)
{
	WrapState  *state = (WrapState *) node;
	PlanState  *child = outerPlanState(node);
	ExprContext *econtext = node->ss.ps.ps_ExprContext;
	bool		epq = node->ss.ps.state->es_epq_active != NULL;

	/* at the first row: a scan that holds none of the build keys is not called */
	if (!epq && (!state->skip.checked || state->skip.skipped))
	{
		state->skip.checked = true;
		if (state->skip.skipped || (!state->filters_read && read_filters_skip(state)))
			return NULL;
	}
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(child);

		if (TupIsNull(slot))
			return slot;
		ResetExprContext(econtext);
		econtext->ecxt_outertuple = slot;
		/* a recheck: every row the scan gives, but for the conditions moved
		 * here (ExecQual passes every row when there are none) */
		if (epq)
		{
			if (ExecQual(node->ss.ps.qual, econtext))
				return slot;
			continue;
		}
		if (!state->filters_read && state->rows % BLOOM_PROBE_BATCH == 0 &&
			read_filters_skip(state))
			return NULL;
		state->rows++;
		if (!passes(state, econtext))
			InstrCountFiltered2(node, 1);
		else if (ExecQual(node->ss.ps.qual, econtext))
			return slot;
		else
			InstrCountFiltered1(node, 1);
		CHECK_FOR_INTERRUPTS();
	}
}

double
bloom_runtime_wrap_rows_read(PlanState *node)
{
	if (!IsA(node, CustomScanState) ||
		((CustomScanState *) node)->methods != &wrap_exec_methods)
		return 0;
	return (double) ((WrapState *) node)->rows;
}

static void
end_wrap(CustomScanState *node)
{
	ExecEndNode(outerPlanState(node));
}

static void
rescan_wrap(CustomScanState *node)
{
	WrapState  *state = (WrapState *) node;
	PlanState  *child = outerPlanState(node);

	/* a filter may have been built again */
	state->filters_read = false;
	state->rows = 0;
	bloom_runtime_forget_filters(state->filters, state->nfilters);
	bloom_runtime_skip_reset(&state->skip);
	/* a changed parameter reaches the child through ExecReScan's chgParam */
	if (child->chgParam == NULL)
		ExecReScan(child);
}

static void
mark_wrap(CustomScanState *node)
{
	ExecMarkPos(outerPlanState(node));
}

static void
restore_wrap(CustomScanState *node)
{
	ExecRestrPos(outerPlanState(node));
}

/* ---- EXPLAIN: the filters, their keys and figures, the rows removed ---- */

static void
explain_wrap(CustomScanState *node, List *ancestors, ExplainState *es)
{
	WrapState  *state = (WrapState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context = set_deparse_context_plan(es->deparse_cxt, (Plan *) cscan, ancestors);

	bloom_runtime_explain_filters(state->filters, state->nfilters, cscan->custom_exprs, context, es);
	bloom_runtime_explain_skip(&state->skip, state->filters, state->nfilters, es);
	bloom_runtime_explain_removed(&node->ss.ps, es);
}
