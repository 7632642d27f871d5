/*
 * runtime_filter_prebuild.c - runtime filters for joins that build no hash
 * table (runtime_filter_plan.h): a filter built first from the selective
 * side, applied at the scans of the other.
 *
 * A star join often reaches a selective dimension by a nested loop over its
 * key's index: every fact row pays an index lookup, most of them for
 * nothing.  Where the estimates say it pays, a second scan of the
 * dimension with its own conditions (those that do not depend on the
 * fact row) builds a filter of its keys before the first fact row is read,
 * and the fact table's scan drops the rows whose key is not in it.
 *
 * The shapes:
 *   nested loop  inner or semi, the inner side a parameterized Index Scan or
 *                Index Only Scan of a table (under a Memoize or not), whose
 *                quals set the key equal to a parameter of the loop
 *   merge join   one side a scan of a table with its own conditions (under
 *                a Sort or not), whose keys filter the other side: the
 *                outer side of an inner or semi join, the inner side of an
 *                inner join
 *   chain        a nested loop as above whose inner scan has filters built
 *                first for joins above it (customer -> address): the build
 *                scan probes them too, so it keeps only the keys of rows
 *                those joins keep.  A deferred one among them is built
 *                with it, just before it.  Only filters without parameters:
 *                built once, they never change under the build that read
 *                them.
 *   inner first  a nested loop without parameters over a Material: the
 *                inner side, read to its end before the outer one starts
 *                (into the Material, which the loop rewinds), builds the
 *                filter on its way (add_inner_first below)
 *
 * Decided by estimates: the probed side at least
 * bloomfilter.runtime_filter_min_rows rows, at most
 * bloomfilter.runtime_filter_max_pass of them kept by the join, the
 * selective side's keys within bloomfilter.runtime_filter_max_size, and the
 * rows dropped saving more than the build's scan and the probes cost.
 *
 * A probed side estimated below min_rows may be far larger (the rows of a
 * CTE, a function, a set operation are often guessed at one): there the
 * build is deferred when min_rows rows' drops would pay for it.  The node
 * returns the side's rows unfiltered and counts them; once they reach
 * min_rows, it builds, and the probes below pick the filter up as they go
 * (every filter may arrive late: a filter not built drops nothing).  At
 * worst the build costs what the rows before it would have saved.  Only
 * where the rows stream from the probed scans to the node (no Sort, Hash,
 * Material or aggregate between: their scans are over before the first
 * row comes up) and no Gather is on the way (its workers get a filter only
 * when they start), and not for a build with parameters that may change
 * (an uncorrelated initPlan's are set once).  A CTE's scan
 * whose conditions run a subquery for each row (those conditions move up
 * into its filter node) builds sooner: once the rows read have cost what
 * the build does.  The rows its conditions drop count too: the filter node
 * right below tells how many it read.
 *
 * The build's scan is a Seq Scan of the same range table entry with the
 * conditions that are safe to evaluate on every row of the table: no
 * parameter of this join, no volatile or leaky function (a leaky one could
 * fail on a row the join never reads), no subplan.  Leaving a condition out
 * only lets more keys into the filter: never a false negative.  Its hash is
 * the join operator's (hashable, strict, deterministic collation).
 *
 * The node that runs it, Custom Scan (BloomFilterPrebuild), sits on top of
 * the side that is probed and returns that side's rows unchanged; before
 * the first one it runs the build (Custom Scan BloomFilterBuild over the
 * Seq Scan, its custom_plans child) to the end, so the filter is in its
 * parameter slot before any probe reads it.  A rescan builds again only
 * when a parameter of the build's conditions changed (one from an outer
 * query level, say); the filter is then traced only through nodes that
 * keep no rows between rescans.  Parallel plans: below a Gather each
 * participant builds its own filter (the dimension is small, and nothing
 * has to wait for another process); above one, the Gather sends the
 * finished filter to its workers (initParam).
 */
#include "bloomfilter.h"

#include <math.h>

#include "batched_probe.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include "access/table.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/* ---- the node ---- */

typedef struct PrebuildState
{
	CustomScanState css;
	bool		built;			/* the filter of the current parameters is in */
	bool		inner_first;	/* no build: the inner side of the child */
	bool		drove;			/* that inner side was read to its end */
	double		build_after;	/* a deferred build: after this many rows */
	double		rows;			/* rows returned before the build */
	int			build_eflags;
} PrebuildState;

static Node *create_state(CustomScan *cscan);
static void begin_prebuild(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_prebuild(CustomScanState *node);
static void end_prebuild(CustomScanState *node);
static void rescan_prebuild(CustomScanState *node);
static void mark_prebuild(CustomScanState *node);
static void restore_prebuild(CustomScanState *node);
static void explain_prebuild(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomScanMethods prebuild_methods = {
	.CustomName = BLOOM_FILTER_PREBUILD_NAME,
	.CreateCustomScanState = create_state,
};

static const CustomExecMethods prebuild_exec_methods = {
	.CustomName = BLOOM_FILTER_PREBUILD_NAME,
	.BeginCustomScan = begin_prebuild,
	.ExecCustomScan = exec_prebuild,
	.EndCustomScan = end_prebuild,
	.ReScanCustomScan = rescan_prebuild,
	.MarkPosCustomScan = mark_prebuild,
	.RestrPosCustomScan = restore_prebuild,
	.ExplainCustomScan = explain_prebuild,
};

void
bloom_runtime_prebuild_register(void)
{
	RegisterCustomScanMethods(&prebuild_methods);
}

bool
bloom_runtime_is_prebuild(Plan *plan)
{
	return IsA(plan, CustomScan) && ((CustomScan *) plan)->methods == &prebuild_methods;
}

static Node *
create_state(CustomScan *cscan)
{
	PrebuildState *state = palloc0(sizeof(PrebuildState));

	NodeSetTag(state, T_CustomScanState);
	state->css.flags = cscan->flags;
	state->css.methods = &prebuild_exec_methods;
	return (Node *) state;
}

/*
 * Make the builds' plan states.  A build is read only when its rows are
 * needed (a deferred one often never is): until then, in each process of a
 * parallel plan, its scan would open and lock its relation and compile its
 * conditions for nothing.  EXPLAIN makes them at once, to show them.
 */
static void
init_builds(CustomScanState *node)
{
	PrebuildState *state = (PrebuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	MemoryContext old = MemoryContextSwitchTo(estate->es_query_cxt);
	ListCell   *lc;

	foreach(lc, cscan->custom_plans)
		node->custom_ps = lappend(node->custom_ps,
								  ExecInitNode(lfirst(lc), estate, state->build_eflags));
	MemoryContextSwitchTo(old);
}

static void
begin_prebuild(CustomScanState *node, EState *estate, int eflags)
{
	PrebuildState *state = (PrebuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	PlanState  *child;
	bool		fixed;

	child = ExecInitNode(outerPlan(cscan), estate, eflags);
	outerPlanState(node) = child;
	/* each build is read forward once */
	state->build_eflags = eflags & ~(EXEC_FLAG_BACKWARD | EXEC_FLAG_MARK | EXEC_FLAG_REWIND);
	if ((eflags & EXEC_FLAG_EXPLAIN_ONLY) || estate->es_instrument != 0)
		init_builds(node);
	/* the rows returned are the child's own slots */
	node->ss.ps.resultops = ExecGetResultSlotOps(child, &fixed);
	node->ss.ps.resultopsfixed = fixed;
	node->ss.ps.resultopsset = true;
	state->build_after = intVal(linitial(cscan->custom_private));
	state->inner_first = cscan->custom_plans == NIL;
}

/* Read plan to its end (TupIsNull reads its argument twice: one call a
 * row). */
static void
read_to_end(PlanState *plan)
{
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(plan);

		if (TupIsNull(slot))
			break;
	}
}

/*
 * Read the inner side of the child nested loop to its end: the Material
 * there keeps the rows for the loop (which rescans it before its first outer
 * row, and rewinds it then), and the build node below it publishes the
 * filter when its child is exhausted.
 */
static void
drive_inner_side(PrebuildState *state)
{
	PlanState  *inner = innerPlanState(outerPlanState(&state->css));

	if (state->drove)
		ExecReScan(inner);
	read_to_end(inner);
	state->drove = true;
}

static TupleTableSlot *
exec_prebuild(CustomScanState *node)
{
	PrebuildState *state = (PrebuildState *) node;
	TupleTableSlot *slot;

	if (!state->built && state->inner_first)
	{
		drive_inner_side(state);
		state->built = true;
	}
	else if (!state->built &&
			 Max(state->rows, bloom_runtime_wrap_rows_read(outerPlanState(node))) >=
			 state->build_after)
	{
		/* (a filter node right below counts the rows it read: the ones its
		 * conditions drop too) */
		ListCell   *lc;

		if (node->custom_ps == NIL)
			init_builds(node);
		/* in order: a build may probe the filter of one before it; the
		 * build node publishes the filter when its child is exhausted */
		foreach(lc, node->custom_ps)
			read_to_end(lfirst(lc));
		state->built = true;
	}
	slot = ExecProcNode(outerPlanState(node));
	if (!state->built && !TupIsNull(slot))
		state->rows++;
	return slot;
}

static void
end_prebuild(CustomScanState *node)
{
	ListCell   *lc;

	ExecEndNode(outerPlanState(node));
	foreach(lc, node->custom_ps)
		ExecEndNode(lfirst(lc));
}

static void
rescan_prebuild(CustomScanState *node)
{
	PrebuildState *state = (PrebuildState *) node;
	PlanState  *child = outerPlanState(node);
	ListCell   *lc;

	if (state->inner_first)
	{
		/* read the inner side again (its Material rewinds, or runs again
		 * when a parameter of it changed, and its build with it) */
		state->built = false;
		if (child->chgParam == NULL)
			ExecReScan(child);
		return;
	}

	/* the same conditions make the same filters: build again only when a
	 * parameter of them changed (ExecProcNode rescans the builds then) */
	foreach(lc, node->custom_ps)
	{
		PlanState  *build = lfirst(lc);

		if (node->ss.ps.chgParam != NULL)
			UpdateChangedParamSet(build, node->ss.ps.chgParam);
		if (build->chgParam != NULL)
			state->built = false;
	}
	if (child->chgParam == NULL)
		ExecReScan(child);
}

/* under a merge join's inner side: the child's positions */
static void
mark_prebuild(CustomScanState *node)
{
	ExecMarkPos(outerPlanState(node));
}

static void
restore_prebuild(CustomScanState *node)
{
	ExecRestrPos(outerPlanState(node));
}

/* A build from the inner side, or a deferred one: after how many rows, and
 * whether it ran. */
static void
explain_prebuild(CustomScanState *node, List *ancestors pg_attribute_unused(), ExplainState *es)
{
	PrebuildState *state = (PrebuildState *) node;

	if (state->inner_first)
		ExplainPropertyText("Build", "inner side first", es);
	if (state->build_after <= 0)
		return;
	ExplainPropertyFloat("Build After Rows", NULL, state->build_after, 0, es);
	if (es->analyze)
		ExplainPropertyBool("Built", state->built, es);
}

/* ---- planning ---- */

/* What a join offers for a filter built first. */
typedef struct Prebuild
{
	Plan	  **probe_side;		/* the link to the side to filter */
	Expr	   *probe_key;		/* the key, of that side's output */
	Index		rti;			/* the selective side's table */
	Expr	   *build_key;		/* its key, of the table's columns */
	List	   *conditions;		/* its own conditions, any of them */
	Oid			op;				/* probe key = build key */
	bool		build_on_left;	/* the build key is op's left operand */
	Oid			collation;
	bool		parallel_safe;
	double		probe_rows;		/* rows of the probe side */
	double		pass;			/* the share of them the join keeps */
	double		saved_per_row;	/* what a row dropped saves the join */
	Plan	   *join;
	CustomScan *inner_wrap;		/* the filter node over the selective side's
								 * scan (nested loop), or NULL */
} Prebuild;

/* Parameters (PARAM_EXEC) an expression reads. */
static bool
params_walker(Node *node, Bitmapset **ids)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC)
		*ids = bms_add_member(*ids, ((Param *) node)->paramid);
	return expression_tree_walker(node, params_walker, ids);
}

static Bitmapset *
params_of(Node *node)
{
	Bitmapset  *ids = NULL;

	(void) params_walker(node, &ids);
	return ids;
}

/* Whether an expression has a Var of another relation than rti, a subplan,
 * an aggregate, a parameter of a sublink (nothing a scan of rti alone could
 * compute: a query's parameters and PARAM_EXEC slots it can). */
typedef struct ForeignContext
{
	Index		rti;
	bool		found;
} ForeignContext;

static bool
foreign_walker(Node *node, ForeignContext *fc)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		if (var->varno != (int) fc->rti || var->varlevelsup != 0)
			fc->found = true;
		return false;
	}
	if (IsA(node, SubPlan) || IsA(node, AlternativeSubPlan) || IsA(node, SubLink) ||
		IsA(node, Aggref) || IsA(node, WindowFunc) || IsA(node, GroupingFunc) ||
		(IsA(node, Param) && ((Param *) node)->paramkind != PARAM_EXEC &&
		 ((Param *) node)->paramkind != PARAM_EXTERN))
	{
		fc->found = true;
		return false;
	}
	return expression_tree_walker(node, foreign_walker, fc);
}

/*
 * Whether a scan of rti may evaluate expr on every row of the table: only
 * rti's columns and parameters not in excluded, nothing volatile, nothing
 * that could fail or leak (a row the join never reads could make it fail).
 */
static bool
safe_on_every_row(Node *expr, Index rti, Bitmapset *excluded)
{
	ForeignContext fc = {rti, false};
	Bitmapset  *params;
	bool		overlap;

	(void) foreign_walker(expr, &fc);
	if (fc.found || contain_volatile_functions(expr) || expression_returns_set(expr) ||
		contain_leaked_vars(expr))
		return false;
	params = params_of(expr);
	overlap = bms_overlap(params, excluded);
	bms_free(params);
	return !overlap;
}

static Expr *
strip_relabel(Expr *expr)
{
	while (expr != NULL && IsA(expr, RelabelType))
		expr = ((RelabelType *) expr)->arg;
	return expr;
}

/* Vars of one varno replaced by the expressions of a targetlist's entries. */
typedef struct ReplaceVars
{
	int			varno;
	List	   *tlist;
} ReplaceVars;

static Node *
replace_vars_mutator(Node *node, ReplaceVars *rv)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == rv->varno)
	{
		Var		   *var = (Var *) node;

		if (var->varattno <= 0 || var->varattno > list_length(rv->tlist))
			elog(ERROR, "plan column %d out of range", var->varattno);
		return (Node *) copyObjectImpl(list_nth_node(TargetEntry, rv->tlist, var->varattno - 1)->expr);
	}
	return expression_tree_mutator(node, replace_vars_mutator, rv);
}

static Node *
replace_vars(Node *node, int varno, List *tlist)
{
	ReplaceVars rv = {varno, tlist};

	return replace_vars_mutator(node, &rv);
}

/* An index-only scan's quals (recheckqual too, after setrefs) read the
 * index's columns: its tlist says which of the table's columns (or
 * expressions of them) they are. */
static Node *
index_to_table(Node *node, List *indextlist)
{
	return replace_vars(node, INDEX_VAR, indextlist);
}

/* The conditions of a scan, of its table's columns; false for another kind. */
static bool
scan_conditions(Plan *scan, List **conditions)
{
	switch (nodeTag(scan))
	{
		case T_SeqScan:
			*conditions = list_copy(scan->qual);
			return true;
		case T_IndexScan:
			*conditions = list_concat(list_copy(((IndexScan *) scan)->indexqualorig),
									  scan->qual);
			return true;
		case T_IndexOnlyScan:
			{
				IndexOnlyScan *ios = (IndexOnlyScan *) scan;

				*conditions = (List *) index_to_table((Node *) list_concat(list_copy(ios->recheckqual),
																				   scan->qual),
															  ios->indextlist);
			}
			return true;
		default:
			return false;
	}
}

/* Whether rti is a table (or materialized view) a Seq Scan can read. */
static bool
plain_table(InjectContext *cx, Index rti, double *tuples, double *pages)
{
	RangeTblEntry *rte = rt_fetch(rti, cx->stmt->rtable);
	Relation	rel;

	if (rte->rtekind != RTE_RELATION ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW))
		return false;
	/* the planner holds a lock on every table it planned */
	rel = table_open(rte->relid, NoLock);
	*tuples = rel->rd_rel->reltuples;
	*pages = rel->rd_rel->relpages;
	table_close(rel, NoLock);
	return *tuples >= 0;
}

/* Whether op (under collation) can make a filter: strict, hashable, and
 * equal values hash alike. */
static bool
filter_operator(Oid op, Oid collation)
{
	Oid			left,
				right;

	return op_strict(op) && get_op_hash_functions(op, &left, &right) &&
		(!OidIsValid(collation) || get_collation_isdeterministic(collation));
}

/* The conditions of rti's scan that a build may evaluate on every row. */
static List *
build_conditions(List *conditions, Index rti, Bitmapset *excluded)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, conditions)
		if (safe_on_every_row(lfirst(lc), rti, excluded))
			result = lappend(result, copyObjectImpl(lfirst(lc)));
	return result;
}

/*
 * A nested loop: its inner side a parameterized index scan whose quals set
 * the key equal to a parameter the loop takes from its outer row.
 */
static bool
nestloop_prebuild(NestLoop *nl, Prebuild *pb)
{
	Plan	   *inner = innerPlan(nl);
	Plan	   *outer = outerPlan(nl);
	Bitmapset  *loop_params = NULL;
	double		miss = 1.0;
	List	   *conditions;
	CustomScan *wrap = NULL;
	ListCell   *lc;

	if (nl->join.jointype != JOIN_INNER && nl->join.jointype != JOIN_SEMI)
		return false;
	if (inner != NULL && IsA(inner, Memoize))
	{
		/* a lookup it answers from its cache saves less: at best the
		 * share of distinct keys it has to look up */
		miss = Min(1.0, (double) ((Memoize *) inner)->est_entries / Max(outer->plan_rows, 1.0));
		inner = outerPlan(inner);
	}
	if (inner != NULL && bloom_runtime_is_wrap(inner))
	{
		/* the filters of joins above: the build may probe them too */
		wrap = (CustomScan *) inner;
		inner = outerPlan(inner);
	}
	if (inner == NULL || !(IsA(inner, IndexScan) || IsA(inner, IndexOnlyScan)) ||
		!scan_conditions(inner, &conditions))
		return false;
	foreach(lc, nl->nestParams)
		loop_params = bms_add_member(loop_params, ((NestLoopParam *) lfirst(lc))->paramno);

	memset(pb, 0, sizeof(Prebuild));
	pb->rti = ((Scan *) inner)->scanrelid;
	foreach(lc, conditions)
	{
		OpExpr	   *clause = lfirst(lc);
		Expr	   *left,
				   *right;
		Param	   *param;
		Expr	   *dim;
		ListCell   *p;

		if (!IsA(clause, OpExpr) || list_length(clause->args) != 2)
			continue;
		left = strip_relabel(linitial(clause->args));
		right = strip_relabel(lsecond(clause->args));
		if (IsA(right, Param))
		{
			param = (Param *) right;
			dim = linitial(clause->args);
			pb->build_on_left = true;
		}
		else if (IsA(left, Param))
		{
			param = (Param *) left;
			dim = lsecond(clause->args);
			pb->build_on_left = false;
		}
		else
			continue;
		if (param->paramkind != PARAM_EXEC || !bms_is_member(param->paramid, loop_params) ||
			!safe_on_every_row((Node *) dim, pb->rti, NULL) || params_of((Node *) dim) != NULL ||
			!filter_operator(clause->opno, clause->inputcollid))
			continue;
		foreach(p, nl->nestParams)
		{
			NestLoopParam *nlp = lfirst(p);

			if (nlp->paramno == param->paramid)
				pb->probe_key = (Expr *) nlp->paramval;
		}
		if (pb->probe_key == NULL)
			continue;
		pb->build_key = dim;
		pb->op = clause->opno;
		pb->collation = clause->inputcollid;
		break;
	}
	if (pb->build_key == NULL)
		return false;
	pb->conditions = build_conditions(conditions, pb->rti, loop_params);
	pb->probe_side = &outerPlan(nl);
	pb->join = (Plan *) nl;
	pb->inner_wrap = wrap;
	pb->parallel_safe = inner->parallel_safe;
	pb->probe_rows = outer->plan_rows;
	pb->pass = nl->join.plan.plan_rows / Max(outer->plan_rows, 1.0);
	pb->saved_per_row = inner->total_cost * miss + cpu_tuple_cost;
	return true;
}

/* The scan under a merge join's side (through a Sort), or NULL. */
static Plan *
merge_side_scan(Plan *side, Expr **key)
{
	Plan	   *scan = side;
	Expr	   *bare;
	TargetEntry *tle;

	if (IsA(scan, Sort))
	{
		/* the key, of the Sort's output, is of its child's */
		bare = strip_relabel(*key);
		if (!IsA(bare, Var) || ((Var *) bare)->varattno <= 0 ||
			((Var *) bare)->varattno > list_length(scan->targetlist))
			return NULL;
		tle = list_nth_node(TargetEntry, scan->targetlist, ((Var *) bare)->varattno - 1);
		*key = tle->expr;
		scan = outerPlan(scan);
	}
	if (!(IsA(scan, SeqScan) || IsA(scan, IndexScan) || IsA(scan, IndexOnlyScan)))
		return NULL;
	bare = strip_relabel(*key);
	if (!IsA(bare, Var) || ((Var *) bare)->varattno <= 0 ||
		((Var *) bare)->varattno > list_length(scan->targetlist))
		return NULL;
	*key = list_nth_node(TargetEntry, scan->targetlist, ((Var *) bare)->varattno - 1)->expr;
	if (IsA(scan, IndexOnlyScan))
		*key = (Expr *) index_to_table((Node *) *key, ((IndexOnlyScan *) scan)->indextlist);
	return scan;
}

/* Vars of the inner side (INNER_VAR) as the outer side's (OUTER_VAR): an
 * inner key in the terms the trace reads. */
static Node *
inner_to_outer_mutator(Node *node, void *context)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == INNER_VAR)
	{
		Var		   *var = (Var *) copyObjectImpl(node);

		var->varno = OUTER_VAR;
		return (Node *) var;
	}
	return expression_tree_mutator(node, inner_to_outer_mutator, context);
}

/*
 * One side of a merge join as the selective one: a scan of a table with its
 * own conditions (under a Sort or not), whose keys filter the other side.
 */
static bool
merge_side_prebuild(MergeJoin *mj, OpExpr *clause, bool selective_inner, Prebuild *pb)
{
	Plan	   *selective = selective_inner ? innerPlan(mj) : outerPlan(mj);
	Plan	   *probed = selective_inner ? outerPlan(mj) : innerPlan(mj);
	Expr	   *key = selective_inner ? lsecond(clause->args) : linitial(clause->args);
	Plan	   *scan;
	List	   *conditions;

	memset(pb, 0, sizeof(Prebuild));
	if ((scan = merge_side_scan(selective, &key)) == NULL || !scan_conditions(scan, &conditions))
		return false;
	pb->rti = ((Scan *) scan)->scanrelid;
	if (!safe_on_every_row((Node *) key, pb->rti, NULL) || params_of((Node *) key) != NULL)
		return false;
	pb->conditions = build_conditions(conditions, pb->rti, NULL);
	if (pb->conditions == NIL)
		return false;			/* nothing selective about it */
	pb->build_key = key;
	pb->build_on_left = !selective_inner;
	pb->probe_key = selective_inner ? linitial(clause->args) :
		(Expr *) inner_to_outer_mutator((Node *) lsecond(clause->args), NULL);
	pb->op = clause->opno;
	pb->collation = clause->inputcollid;
	pb->probe_side = selective_inner ? &outerPlan(mj) : &innerPlan(mj);
	pb->join = (Plan *) mj;
	pb->parallel_safe = scan->parallel_safe;
	pb->probe_rows = probed->plan_rows;
	pb->pass = mj->join.plan.plan_rows / Max(probed->plan_rows, 1.0);
	/* its step of the merge (its sort is in the side's cost) */
	pb->saved_per_row = cpu_tuple_cost;
	return true;
}

/*
 * A merge join: the side to filter loses the rows that match nothing on the
 * selective side (the outer side of an inner or semi join, the inner side
 * of an inner join); setrefs puts the outer side's key first.
 */
static bool
mergejoin_prebuild(MergeJoin *mj, Prebuild *pb)
{
	OpExpr	   *clause;
	JoinType	jointype = mj->join.jointype;

	if (mj->mergeclauses == NIL)
		return false;
	clause = linitial(mj->mergeclauses);
	if (!IsA(clause, OpExpr) || list_length(clause->args) != 2 ||
		!filter_operator(clause->opno, clause->inputcollid))
		return false;
	if ((jointype == JOIN_INNER || jointype == JOIN_SEMI) &&
		merge_side_prebuild(mj, clause, true, pb))
		return true;
	return jointype == JOIN_INNER && merge_side_prebuild(mj, clause, false, pb);
}

/* The Seq Scan of the selective side's table that returns its keys. */
static Plan *
make_build_scan(InjectContext *cx, const Prebuild *pb, double est_keys, double cost)
{
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	SeqScan    *seq = (__extension__ makeNode(SeqScan));
	Plan	   *plan = &seq->scan.plan;

	seq->scan.scanrelid = pb->rti;
	plan->targetlist = list_make1(makeTargetEntry(copyObjectImpl(pb->build_key), 1, NULL, false));
	plan->qual = pb->conditions;
	plan->startup_cost = 0;
	plan->total_cost = cost;
	plan->plan_rows = est_keys;
	plan->plan_width = get_typavgwidth(exprType((Node *) pb->build_key),
									   exprTypmod((Node *) pb->build_key));
	plan->parallel_aware = false;
	plan->parallel_safe = pb->parallel_safe;
	plan->plan_node_id = cx->next_plan_node_id++;
	plan->extParam = params_of((Node *) plan->qual);
	plan->allParam = bms_copy(plan->extParam);
	return plan;
}

/*
 * The node that runs builds, in order, before the first row of *link; with
 * none, the node that reads the inner side of the nested loop at *link
 * first.
 */
static CustomScan *
add_prebuild_node(InjectContext *cx, Plan **link, List *builds, double cost, double build_after)
{
	Plan	   *child = *link;
	CustomScan *cscan = bloom_runtime_passthrough_scan(child, &prebuild_methods);
	ListCell   *lc;

	foreach(lc, builds)
	{
		Plan	   *build = lfirst(lc);

		cscan->scan.plan.parallel_safe &= build->parallel_safe;
		cscan->scan.plan.extParam = bms_add_members(cscan->scan.plan.extParam, build->extParam);
		cscan->scan.plan.allParam = bms_add_members(cscan->scan.plan.allParam, build->allParam);
	}
	cscan->scan.plan.startup_cost += cost;
	cscan->scan.plan.total_cost += cost;
	cscan->scan.plan.plan_node_id = cx->next_plan_node_id++;
	cscan->flags = CUSTOMPATH_SUPPORT_MARK_RESTORE;
	cscan->custom_plans = builds;
	cscan->custom_private = list_make1(makeInteger((int) build_after));
	*link = (Plan *) cscan;
	return cscan;
}

/* ---- chains: a build that probes filters built before it ---- */

/* A filter over the selective side's scan that is built first: its spec
 * (as a list), its keys of the table's columns, and how it is built. */
typedef struct ChainedFilter
{
	PrebuiltFilter *pf;
	List	   *spec;
	List	   *keys;
} ChainedFilter;

static PrebuiltFilter *
find_prebuilt(InjectContext *cx, int paramid)
{
	ListCell   *lc;

	foreach(lc, cx->prebuilt)
	{
		PrebuiltFilter *pf = lfirst(lc);

		if (pf->paramid == paramid)
			return pf;
	}
	return NULL;
}

static bool
join_prebuilt(InjectContext *cx, Plan *join)
{
	ListCell   *lc;

	foreach(lc, cx->prebuilt)
	{
		if (((PrebuiltFilter *) lfirst(lc))->join == join)
			return true;
	}
	return false;
}

/* A key of a filter node over scan (its output, OUTER_VAR) in the terms
 * of the table's columns. */
static Node *
scan_output_to_table(Node *key, Plan *scan)
{
	Node	   *expr = replace_vars(key, OUTER_VAR, scan->targetlist);

	if (IsA(scan, IndexOnlyScan))
		expr = index_to_table(expr, ((IndexOnlyScan *) scan)->indextlist);
	return expr;
}

/*
 * The filters over the selective side's scan that were built first, with
 * no parameter (built once: a build that probes one must not outlive it),
 * whose keys a Seq Scan of the table may compute for every row.  Each
 * lowers the share of the table's rows the join keeps by its pass.
 */
static List *
chained_filters(InjectContext *cx, Prebuild *pb)
{
	CustomScan *wrap = pb->inner_wrap;
	Plan	   *scan = outerPlan(wrap);
	List	   *result = NIL;
	int			first = 0;
	ListCell   *lc;

	foreach(lc, wrap->custom_private)
	{
		RuntimeFilterSpec spec;
		PrebuiltFilter *pf;
		List	   *keys = NIL;
		bool		ok;

		bloom_runtime_spec_from_list(lfirst(lc), &spec);
		pf = find_prebuilt(cx, spec.paramid);
		ok = pf != NULL && !pf->has_params;
		for (int k = first; k < first + spec.nkeys; k++)
		{
			Node	   *key = scan_output_to_table(list_nth(wrap->custom_exprs, k), scan);

			ok &= safe_on_every_row(key, pb->rti, NULL) && params_of(key) == NULL;
			keys = lappend(keys, key);
		}
		first += spec.nkeys;
		if (ok)
		{
			ChainedFilter *cf = palloc(sizeof(ChainedFilter));

			cf->pf = pf;
			cf->spec = lfirst(lc);
			cf->keys = keys;
			result = lappend(result, cf);
			pb->pass *= pf->pass;
		}
	}
	return result;
}

/* The link to plan, below *link, or NULL. */
static Plan **
find_link(Plan **link, Plan *plan)
{
	Plan	   *node = *link;
	Plan	  **found;
	List	   *children = NIL;
	ListCell   *lc;

	if (node == NULL)
		return NULL;
	if (node == plan)
		return link;
	check_stack_depth();
	if ((found = find_link(&node->lefttree, plan)) != NULL ||
		(found = find_link(&node->righttree, plan)) != NULL)
		return found;
	if (IsA(node, SubqueryScan))
		return find_link(&((SubqueryScan *) node)->subplan, plan);
	children = bloom_runtime_child_plans(node);
	foreach(lc, children)
	{
		if ((found = find_link((Plan **) &lfirst(lc), plan)) != NULL)
			return found;
	}
	return NULL;
}

/* Whether the node of a filter built first defers its builds. */
static bool
prebuild_deferred(CustomScan *node)
{
	return intVal(linitial(node->custom_private)) > 0;
}

/*
 * A filter built first whose build was deferred, probed by a build below:
 * its build moves into the node of the build below, ahead of it (that node
 * runs before any row comes up to the one above), and its node goes.
 */
static List *
take_deferred_builds(InjectContext *cx, List *chain)
{
	List	   *builds = NIL;
	ListCell   *lc;

	foreach(lc, chain)
	{
		PrebuiltFilter *pf = ((ChainedFilter *) lfirst(lc))->pf;
		Plan	  **link = NULL;
		ListCell   *sp;

		if (!prebuild_deferred(pf->node) || pf->node->custom_plans == NIL)
			continue;			/* built first, or taken already */
		link = find_link(&cx->stmt->planTree, (Plan *) pf->node);
		foreach(sp, cx->stmt->subplans)
		{
			if (link == NULL)
				link = find_link((Plan **) &lfirst(sp), (Plan *) pf->node);
		}
		if (link == NULL)
			elog(ERROR, "runtime filter build node not found");
		*link = pf->node->scan.plan.lefttree;
		builds = list_concat(builds, pf->node->custom_plans);
		pf->node->custom_plans = NIL;
	}
	return builds;
}

/* Whether target's scan may probe another filter. */
bool
bloom_runtime_probe_target(Target *target)
{
	Plan	   *scan = *target->link;

	return IsA(scan, SeqScan) || bloom_runtime_wrappable(scan) ||
		(bloom_runtime_is_probe(scan) && bloom_runtime_probe_has_room((CustomScan *) scan));
}

/*
 * How many times the plan at *link runs for one run of *root: the outer
 * rows of each nested loop whose inner side leads there (an index scan
 * under a nested loop runs once per outer row, and its cost is per run).
 * 0 when *link is not below *root.
 */
double
bloom_runtime_runs_below(Plan *root, Plan **link)
{
	double		runs;
	ListCell   *lc;

	if (root == NULL)
		return 0;
	if (root == *link)
		return 1;
	if ((runs = bloom_runtime_runs_below(root->lefttree, link)) > 0)
		return runs;
	if ((runs = bloom_runtime_runs_below(root->righttree, link)) > 0)
		return IsA(root, NestLoop) ? runs * Max(root->lefttree->plan_rows, 1.0) : runs;
	switch (nodeTag(root))
	{
		case T_SubqueryScan:
			return bloom_runtime_runs_below(((SubqueryScan *) root)->subplan, link);
		case T_Append:
			foreach(lc, ((Append *) root)->appendplans)
			{
				if ((runs = bloom_runtime_runs_below(lfirst(lc), link)) > 0)
					return runs;
			}
			break;
		case T_MergeAppend:
			foreach(lc, ((MergeAppend *) root)->mergeplans)
			{
				if ((runs = bloom_runtime_runs_below(lfirst(lc), link)) > 0)
					return runs;
			}
			break;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) root)->custom_plans)
			{
				if ((runs = bloom_runtime_runs_below(lfirst(lc), link)) > 0)
					return runs;
			}
			break;
		default:
			break;
	}
	return 0;
}

/*
 * Whether the rows of the plan at *link reach *root as they come: no node
 * on the way reads all its input before its first row (a deferred build
 * would come after that scan is over).
 */
static bool
streams_below(Plan *root, Plan **link)
{
	ListCell   *lc;

	if (root == NULL)
		return false;
	if (root == *link)
		return true;
	switch (nodeTag(root))
	{
		case T_Sort:
		case T_IncrementalSort:
		case T_Material:
		case T_Agg:
		case T_Hash:
		case T_SetOp:
		case T_WindowAgg:
		case T_Gather:
		case T_GatherMerge:
			return false;
		case T_SubqueryScan:
			return streams_below(((SubqueryScan *) root)->subplan, link);
		case T_Append:
			foreach(lc, ((Append *) root)->appendplans)
			{
				if (streams_below(lfirst(lc), link))
					return true;
			}
			return false;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) root)->custom_plans)
			{
				if (streams_below(lfirst(lc), link))
					return true;
			}
			break;
		default:
			break;
	}
	return streams_below(root->lefttree, link) || streams_below(root->righttree, link);
}

/* Whether the build's conditions read a parameter that may change during
 * an execution (not one of an initPlan set once: d_week_seq = (SELECT ...)). */
static bool
changing_params(InjectContext *cx, Prebuild *pb)
{
	Bitmapset  *params = params_of((Node *) pb->conditions);
	bool		changing = !bms_is_subset(params, cx->fixed_params);

	bms_free(params);
	return changing;
}

/*
 * After how many rows of the probed side a build the estimates turned down
 * is to run (above), or 0: none.
 */
static double
deferred_build_after(InjectContext *cx, Prebuild *pb, List *targets, double build_cost,
					 double tuples, double moved)
{
	double		per_row,
				after;
	bool		streams = false;
	ListCell   *lc;

	if (pb->probe_rows >= bloomfilter_runtime_filter_min_rows || changing_params(cx, pb))
		return 0;
	foreach(lc, targets)
	{
		Target	   *t = lfirst(lc);

		if (t->gathers != NIL)
			return 0;
		streams |= streams_below(*pb->probe_side, t->link);
	}
	/*
	 * Only a build that min_rows rows' drops pay for by their join step
	 * alone (the rows after them are unknown; the work above the scans may
	 * be a hash table's the filter never reaches), and only of a dimension
	 * of at most ten rows per row of those: the lookups a large dimension's
	 * scan saves cost less, cached, than their cost units say, and every
	 * participant of a parallel plan scans it.
	 */
	after = Max(bloomfilter_runtime_filter_min_rows, 1);
	per_row = (1.0 - pb->pass) * pb->saved_per_row - cpu_operator_cost;
	if (!streams || per_row <= 0 || build_cost > per_row * after || tuples > 10.0 * after)
		return 0;

	/*
	 * A row that runs a subplan (moved up to the filter node) costs what its
	 * estimate says at least: build once the rows read have cost what the
	 * build does (the rows after them pay for it; at worst the build costs
	 * what those rows did), after a batch of rows at least.
	 */
	if (moved > 0)
		after = Min(after, Max(ceil(build_cost / per_row), (double) BLOOM_PROBE_BATCH));
	return after;
}

/*
 * A new filter of one key (*spec) probed at targets, its probe side hashed
 * by probe_func (but where a target's key came through another join's
 * equality: its type's), its build side by build_func; *spec is then the
 * build's.  An integer key has its range and exact set too, as a hash
 * join's.
 */
void
bloom_runtime_place_filter(InjectContext *cx, RuntimeFilterSpec *spec, List *targets, Oid collation,
			 double est_keys, Oid probe_func, Oid build_func)
{
	bool		has_range = bloom_runtime_integer_key(probe_func, build_func);
	ListCell   *lc;

	memset(spec, 0, sizeof(RuntimeFilterSpec));
	spec->filter_id = cx->next_filter_id++;
	spec->paramid = bloom_runtime_new_param(cx, BYTEAOID);
	spec->kind = RUNTIME_FILTER_JOIN_HASH;
	spec->nkeys = 1;
	spec->collations = list_make1_oid(collation);
	spec->est_keys = est_keys;
	spec->range_paramid = has_range ? bloom_runtime_new_param(cx, BYTEAOID) : -1;
	spec->keyset_paramid = has_range ? bloom_runtime_new_param(cx, BYTEAOID) : -1;
	spec->keyset_max = RUNTIME_KEYSET_MAX;
	foreach(lc, targets)
	{
		Target	   *t = lfirst(lc);
		Oid			func = OidIsValid(t->hashfunc) ? t->hashfunc : probe_func;

		spec->hashfuncs = list_make1_oid(func);
		spec->integer_keys = list_make1_int(bloom_runtime_integer_key(func, build_func));
		bloom_runtime_place_probe(cx, t->link, list_make1(t->expr), spec, has_range, t->gathers);
	}
	spec->hashfuncs = list_make1_oid(build_func);
	spec->integer_keys = list_make1_int(has_range);
	spec->has_range = has_range;
	spec->has_keyset = has_range;
	spec->has_bounds = false;
	spec->lookup_index = InvalidOid;
	spec->lookup_max_keys = 0;
	spec->lookup_max_rows = 0;
}

/* Note the filter of pb built by node; the deferred builds taken into node
 * are built by it from now on. */
static void
record_prebuilt(InjectContext *cx, Prebuild *pb, int paramid, CustomScan *node)
{
	PrebuiltFilter *pf = palloc0(sizeof(PrebuiltFilter));
	ListCell   *lc;

	foreach(lc, cx->prebuilt)
	{
		PrebuiltFilter *other = lfirst(lc);

		if (prebuild_deferred(other->node) && other->node->custom_plans == NIL)
			other->node = node;
	}
	pf->paramid = paramid;
	pf->pass = Min(Max(pb->pass, 0.0), 1.0);
	pf->node = node;
	pf->has_params = changing_params(cx, pb);
	pf->join = pb->join;
	cx->prebuilt = lappend(cx->prebuilt, pf);
}

/* Estimates, the probes, the build. */
static void
add_prebuild(InjectContext *cx, Prebuild *pb, bool may_rescan, bool need_chain)
{
	double		tuples,
				pages,
				est_keys,
				build_cost,
				scans_cost = 0,
				scans_rows = 0,
				runs,
				above,
				saved,
				build_after = 0;
	Oid			left,
				right;
	List	   *targets = NIL;
	RuntimeFilterSpec spec;
	Plan	   *scan;
	Expr	   *build_key;
	CustomScan *build;
	CustomScan *node;
	List	   *chain = NIL;
	List	   *builds;
	double		chain_cost = 0,
				moved;
	ListCell   *lc;

	/* the filters over the selective side's scan, built before this one */
	if (pb->inner_wrap != NULL)
		chain = chained_filters(cx, pb);
	if (need_chain && chain == NIL)
		return;
	foreach(lc, chain)
	{
		PrebuiltFilter *pf = ((ChainedFilter *) lfirst(lc))->pf;
		ListCell   *b;

		/* a deferred one is built with this one, for it */
		if (prebuild_deferred(pf->node))
			foreach(b, pf->node->custom_plans)
				chain_cost += ((Plan *) lfirst(b))->total_cost;
	}
	if (pb->pass > bloomfilter_runtime_filter_max_pass ||
		!plain_table(cx, pb->rti, &tuples, &pages) ||
		!get_op_hash_functions(pb->op, &left, &right))
		return;

	/*
	 * The keys: for a key the selective side has once, the share of its
	 * table the join keeps is about the share of probe rows it keeps.
	 */
	est_keys = clamp_row_est(tuples * Max(pb->pass, 0.0));
	if (est_keys > bloom_runtime_filter_max_keys(RUNTIME_FILTER_JOIN_HASH))
		return;

	/*
	 * The scans: a filter built again with other keys must not reach rows
	 * kept from before; one that never changes may (its rows stay right).
	 */
	foreach(lc, bloom_runtime_trace_key(cx, pb->probe_side, pb->probe_key, 0, pb->op,
										pb->collation,
										may_rescan && params_of((Node *) pb->conditions) != NULL))
	{
		Target	   *t = lfirst(lc);

		if (!bloom_runtime_probe_target(t))
			continue;
		runs = Max(bloom_runtime_runs_below(*pb->probe_side, t->link), 1.0);
		targets = lappend(targets, t);
		scans_cost += runs * (*t->link)->total_cost;
		scans_rows += runs * (*t->link)->plan_rows;
	}
	if (targets == NIL)
		return;
	/* a row dropped at the probed scan itself runs none of the conditions
	 * with a subplan that come up to the filter node */
	moved = bloom_runtime_wrap_moved_cost(*pb->probe_side);
	pb->saved_per_row += moved;

	/*
	 * Worth it when the rows dropped save more than the build and the
	 * probes cost: each row dropped saves its share of the work between the
	 * scans and the join (the probed side's cost but the scans', each
	 * counted as often as it runs: a scan on the inner side of a nested
	 * loop runs once per outer row, and the filter above it saves none of
	 * it) and its step of the join (an index lookup, a merge).
	 */
	build_cost = pages * seq_page_cost +
		tuples * (cpu_tuple_cost + (list_length(pb->conditions) + list_length(chain)) *
				  cpu_operator_cost) +
		est_keys * cpu_operator_cost + chain_cost;
	above = Max(0.0, (*pb->probe_side)->total_cost - scans_cost);
	saved = (1.0 - pb->pass) * (above + pb->probe_rows * pb->saved_per_row);
	if (pb->probe_rows < bloomfilter_runtime_filter_min_rows ||
		build_cost + scans_rows * cpu_operator_cost >= saved)
	{
		build_after = deferred_build_after(cx, pb, targets, build_cost, tuples, moved);
		if (build_after <= 0)
			return;
	}

	bloom_runtime_place_filter(cx, &spec, targets, pb->collation, est_keys,
				 pb->build_on_left ? right : left, pb->build_on_left ? left : right);

	/* the build: the keys of the selective side's own rows, those that pass
	 * the filters before it too */
	scan = make_build_scan(cx, pb, est_keys, build_cost);
	foreach(lc, chain)
	{
		ChainedFilter *cf = lfirst(lc);
		RuntimeFilterSpec chained;

		bloom_runtime_spec_from_list(cf->spec, &chained);
		if (!bloom_runtime_is_probe(scan))
			scan = bloom_runtime_probe_make(scan, cf->keys, &chained, &cx->next_plan_node_id);
		else
			bloom_runtime_probe_add((CustomScan *) scan, cf->keys, &chained);
	}
	build_key = (Expr *) makeVar(OUTER_VAR, 1, exprType((Node *) pb->build_key),
								 exprTypmod((Node *) pb->build_key),
								 exprCollation((Node *) pb->build_key), 0);
	build = bloom_runtime_build_make(scan, list_make1(build_key), &spec, false);
	build->scan.plan.plan_node_id = cx->next_plan_node_id++;
	builds = lappend(take_deferred_builds(cx, chain), build);
	node = add_prebuild_node(cx, pb->probe_side, builds, build_after > 0 ? 0 : build_cost,
							 build_after);
	record_prebuilt(cx, pb, spec.paramid, node);
}

/* Which of OUTER_VAR and INNER_VAR an expression's Vars are of: 0 for
 * none, -1 for both or anything a plain expression of one side is not. */
static bool
side_walker(Node *node, int *side)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		int			varno = ((Var *) node)->varno;

		if ((varno != OUTER_VAR && varno != INNER_VAR) || (*side != 0 && *side != varno))
			*side = -1;
		else
			*side = varno;
		return false;
	}
	if (IsA(node, Param) || IsA(node, SubPlan) || IsA(node, AlternativeSubPlan))
	{
		*side = -1;
		return false;
	}
	return expression_tree_walker(node, side_walker, side);
}

static int
side_of(Node *expr)
{
	int			side = 0;

	(void) side_walker(expr, &side);
	return side;
}

/*
 * A nested loop without parameters over a Material (a join condition that
 * is no index's): its inner side is read once and kept, and every outer row
 * is compared with every inner row.  Reading the inner side first, before
 * the outer one starts (a Sort, a Gather Merge read all of theirs before
 * their first row), builds a filter of its keys on the way into the
 * Material, for the outer side's scans, at no cost but the probes: the
 * inner side is read once either way.  The one loss: an outer side that
 * turns out empty would have spared the inner side's run.
 */
static void
add_inner_first(InjectContext *cx, Plan **link, bool may_rescan)
{
	NestLoop   *nl = (NestLoop *) *link;
	Plan	   *outer = outerPlan(nl);
	Plan	   *material = innerPlan(nl);
	OpExpr	   *clause = NULL;
	Expr	   *probe_key = NULL,
			   *build_key = NULL;
	Oid			op = InvalidOid,
				left,
				right;
	bool		build_on_left = false;
	double		pass,
				est_keys,
				per_row,
				above,
				scans_cost = 0,
				scans_rows = 0;
	List	   *targets = NIL;
	RuntimeFilterSpec spec;
	CustomScan *build;
	ListCell   *lc;

	if (may_rescan || nl->nestParams != NIL || material == NULL || !IsA(material, Material) ||
		(nl->join.jointype != JOIN_INNER && nl->join.jointype != JOIN_SEMI) ||
		outer->plan_rows < bloomfilter_runtime_filter_min_rows)
		return;
	foreach(lc, nl->join.joinqual)
	{
		OpExpr	   *candidate = lfirst(lc);
		int			left_side,
					right_side;

		if (!IsA(candidate, OpExpr) || list_length(candidate->args) != 2 ||
			!filter_operator(candidate->opno, candidate->inputcollid) ||
			contain_volatile_functions((Node *) candidate))
			continue;
		left_side = side_of(linitial(candidate->args));
		right_side = side_of(lsecond(candidate->args));
		if (left_side == OUTER_VAR && right_side == INNER_VAR)
			build_on_left = false;
		else if (left_side == INNER_VAR && right_side == OUTER_VAR)
			build_on_left = true;
		else
			continue;
		/* the trace reads the probe key as op's left operand */
		op = build_on_left ? get_commutator(candidate->opno) : candidate->opno;
		if (!OidIsValid(op))
			continue;
		clause = candidate;
		break;
	}
	if (clause == NULL || !get_op_hash_functions(op, &left, &right))
		return;
	probe_key = build_on_left ? lsecond(clause->args) : linitial(clause->args);
	/* the inner side's key, of the Material's child's output (it returns
	 * its rows as they are) */
	build_key = (Expr *) replace_vars(build_on_left ? linitial(clause->args) : lsecond(clause->args),
									  INNER_VAR, material->targetlist);

	pass = nl->join.plan.plan_rows / Max(outer->plan_rows, 1.0);
	est_keys = clamp_row_est(material->plan_rows);
	if (pass > bloomfilter_runtime_filter_max_pass ||
		est_keys > bloom_runtime_filter_max_keys(RUNTIME_FILTER_JOIN_HASH))
		return;

	foreach(lc, bloom_runtime_trace_key(cx, &outerPlan(nl), probe_key, 0, op,
										clause->inputcollid, false))
	{
		Target	   *t = lfirst(lc);

		if (!bloom_runtime_probe_target(t))
			continue;
		targets = lappend(targets, t);
		scans_cost += (*t->link)->total_cost;
		scans_rows += (*t->link)->plan_rows;
	}
	if (targets == NIL)
		return;

	/*
	 * Each outer row dropped saves its share of the work between the scans
	 * and the loop, and its pass over the inner rows (the loop's cost but
	 * its two sides'); the build costs a hash of each inner row.
	 */
	above = Max(0.0, outer->total_cost - scans_cost);
	per_row = Max(0.0, nl->join.plan.total_cost - outer->total_cost - material->total_cost) /
		Max(outer->plan_rows, 1.0);
	if (est_keys * cpu_operator_cost + scans_rows * cpu_operator_cost >=
		(1.0 - pass) * (above + outer->plan_rows * per_row))
		return;

	bloom_runtime_place_filter(cx, &spec, targets, clause->inputcollid, est_keys, left, right);

	/* the build: on the way into the Material */
	build = bloom_runtime_build_make(outerPlan(material), list_make1(build_key), &spec, false);
	build->scan.plan.plan_node_id = cx->next_plan_node_id++;
	outerPlan(material) = (Plan *) build;
	(void) add_prebuild_node(cx, link, NIL, 0, 0);
}

void
bloom_runtime_prebuild_consider(InjectContext *cx, Plan **link, bool may_rescan)
{
	Join	   *join = (Join *) *link;
	Prebuild	pb;

	/* a row lock or a recheck reads other rows than the build saw */
	if (cx->stmt->commandType != CMD_SELECT || cx->stmt->rowMarks != NIL ||
		join_prebuilt(cx, (Plan *) join))
		return;
	if (cx->reconsider)
	{
		/* again: a nested loop whose selective side got filters built
		 * first from joins above, that its build may probe */
		if (IsA(join, NestLoop) && nestloop_prebuild((NestLoop *) join, &pb) &&
			pb.inner_wrap != NULL)
			add_prebuild(cx, &pb, may_rescan, true);
		return;
	}
	if (IsA(join, NestLoop) ? nestloop_prebuild((NestLoop *) join, &pb) :
		IsA(join, MergeJoin) && mergejoin_prebuild((MergeJoin *) join, &pb))
		add_prebuild(cx, &pb, may_rescan, false);
	else if (IsA(join, NestLoop))
		add_inner_first(cx, link, may_rescan);
}
