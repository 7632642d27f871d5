/*
 * runtime_filter_trace.c - from a hash join's key down to the scans where a
 * runtime filter may drop rows (runtime_filter_plan.h).
 *
 * The key, an expression of the join's outer child's output, is rewritten
 * at each node in the terms of that node's input, through nodes where
 * dropping a row cannot change the rows the join keeps: projections
 * (Result, ProjectSet, Subquery Scan), Append and MergeAppend (every
 * branch), Gather and Gather Merge, Sort, Incremental Sort, Material, the
 * outer side of a join (the inner side too of an inner join, the inner
 * side alone of right joins), an Agg, Group or Unique where the key is a
 * grouping column whose equality implies the join's (same hash operator
 * family and collation, or both deterministic: a group is then kept or
 * dropped whole).  At a heap Seq Scan the key is rewritten into the
 * table's columns; at an Index, Index Only or Bitmap Heap Scan it stays an
 * expression of the scan's output, which the filter node above it reads.
 * Either way it must be the table's columns (or the output's) under
 * leakproof functions only (no function that could fail on a row the join
 * would never have seen), no volatile function, parameter or subplan.
 *
 * A join whose hash table may be built again with other rows (may_rescan)
 * goes only through nodes that never keep rows between rescans (no Sort,
 * Material, Agg, Group, Unique or Hash).
 *
 * Predicate transfer: at a join that equates the key with an expression
 * of its other side (a hash, merge or join clause), that expression is
 * traced too, hashed with its own type's function of the hash family both
 * equalities share (transfer_through_equalities).  The other side may be
 * the build side of that join: its scan runs after the filter is complete,
 * since the filter's own join builds before it reads the side that holds
 * that join (runtime_filter_plan.c).
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include "access/hash.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/* What tracing one key of a join carries. */
typedef struct TraceState
{
	InjectContext *cx;
	bool		may_rescan;
	int			key;
	Oid			op;				/* the join's hash operator of this key */
	Oid			collation;
	Oid			build_type;		/* the build side's key type and hash function */
	Oid			build_func;
	Oid			hashfunc;		/* the probe's hash function of the key traced,
								 * when it is another side's of an equality
								 * (predicate transfer); else InvalidOid */
	List	   *targets;
} TraceState;

/* ---- rewriting an expression of a node's output into its input's terms ---- */

typedef struct SubstituteContext
{
	List	   *tlist;
	bool		failed;
} SubstituteContext;

static Node *
substitute_mutator(Node *node, SubstituteContext *sc)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;
		TargetEntry *tle;

		if (var->varno != OUTER_VAR || var->varattno <= 0 ||
			var->varattno > list_length(sc->tlist))
		{
			sc->failed = true;
			return node;
		}
		tle = list_nth_node(TargetEntry, sc->tlist, var->varattno - 1);
		return (Node *) copyObjectImpl(tle->expr);
	}
	return expression_tree_mutator(node, substitute_mutator, sc);
}

/* expr (of the node's output: OUTER_VAR Vars) in the terms of the node's
 * targetlist; NULL when it refers to something else. */
static Expr *
substitute(Expr *expr, List *tlist)
{
	SubstituteContext sc = {tlist, false};
	Expr	   *result = (Expr *) substitute_mutator((Node *) expr, &sc);

	return sc.failed ? NULL : result;
}

/* Vars of an expression below a join: which sides they come from. */
typedef struct SidesContext
{
	bool		outer;
	bool		inner;
	bool		other;
} SidesContext;

static bool
sides_walker(Node *node, SidesContext *sc)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		if (var->varno == OUTER_VAR)
			sc->outer = true;
		else if (var->varno == INNER_VAR)
			sc->inner = true;
		else
			sc->other = true;
		return false;
	}
	return expression_tree_walker(node, sides_walker, sc);
}

/* Rename Vars of varno from to OUTER_VAR (the next node's output). */
typedef struct RenameContext
{
	int			from;
} RenameContext;

static Node *
rename_mutator(Node *node, RenameContext *rc)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == rc->from)
	{
		Var		   *var = (Var *) copyObjectImpl(node);

		var->varno = OUTER_VAR;
		return (Node *) var;
	}
	return expression_tree_mutator(node, rename_mutator, rc);
}

static Expr *
rename_to_outer(Expr *expr, int from)
{
	RenameContext rc = {from};

	return (Expr *) rename_mutator((Node *) expr, &rc);
}

/* Whether every Var of expr is of relation rti (a scan's key). */
typedef struct ScanVarsContext
{
	Index		rti;
	bool		bad;
	bool		any;
} ScanVarsContext;

static bool
scan_vars_walker(Node *node, ScanVarsContext *sc)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		if (var->varno != (int) sc->rti || var->varlevelsup != 0)
			sc->bad = true;
		sc->any = true;
		return false;
	}
	if (IsA(node, Param) || IsA(node, SubPlan) || IsA(node, AlternativeSubPlan) ||
		IsA(node, SubLink) || IsA(node, Aggref) || IsA(node, WindowFunc) ||
		IsA(node, GroupingFunc))
	{
		sc->bad = true;
		return false;
	}
	return expression_tree_walker(node, scan_vars_walker, sc);
}

/* A key the scan may compute for every row it reads. */
static bool
safe_scan_key(Expr *expr, Index rti)
{
	ScanVarsContext sc = {rti, false, false};

	(void) scan_vars_walker((Node *) expr, &sc);
	return !sc.bad && sc.any && !contain_volatile_functions((Node *) expr) &&
		!expression_returns_set((Node *) expr) && !contain_leaked_vars((Node *) expr);
}

/* expr without RelabelTypes (binary-compatible casts). */
static Expr *
strip_relabel(Expr *expr)
{
	while (expr != NULL && IsA(expr, RelabelType))
		expr = ((RelabelType *) expr)->arg;
	return expr;
}

/* ---- grouping: a group kept or dropped whole ---- */

/* The hash operator families of operator op. */
static List *
hash_families(Oid op)
{
	List	   *result = NIL;
	CatCList   *list = SearchSysCacheList1(AMOPOPID, ObjectIdGetDatum(op));

	for (int i = 0; i < list->n_members; i++)
	{
		Form_pg_amop amop = (Form_pg_amop) GETSTRUCT(&list->members[i]->tuple);

		if (amop->amopmethod == HASH_AM_OID)
			result = lappend_oid(result, amop->amopfamily);
	}
	ReleaseSysCacheList(list);
	return result;
}

static bool
collation_deterministic(Oid collation)
{
	return !OidIsValid(collation) || get_collation_isdeterministic(collation);
}

/*
 * Whether values equal by grouping operator group_op (and its collation)
 * are equal by the join's operator (and its): then they hash alike, and a
 * group's rows are all kept or all dropped.
 */
static bool
grouping_implies_join(TraceState *ts, Oid group_op, Oid group_collation)
{
	ListCell   *lc;
	List	   *families;
	bool		same_family = false;

	if (group_collation != ts->collation &&
		!(collation_deterministic(group_collation) && collation_deterministic(ts->collation)))
		return false;
	if (group_op == ts->op)
		return true;
	families = hash_families(ts->op);
	foreach(lc, families)
		if (op_in_opfamily(group_op, lfirst_oid(lc)))
			same_family = true;
	list_free(families);
	return same_family;
}

/*
 * expr at a grouping node (Agg, Group, Unique) in its input's terms, when
 * it is one of the grouping columns and grouping implies the join's
 * equality; else NULL.
 */
static Expr *
through_grouping(TraceState *ts, Plan *plan, Expr *expr, int ncols, AttrNumber *cols,
				 Oid *ops, Oid *collations)
{
	Expr	   *below = substitute(expr, plan->targetlist);
	Expr	   *bare = strip_relabel(below);
	Var		   *var;

	if (bare == NULL || !IsA(bare, Var) || ((Var *) bare)->varno != OUTER_VAR)
		return NULL;
	var = (Var *) bare;
	for (int i = 0; i < ncols; i++)
		if (cols[i] == var->varattno &&
			grouping_implies_join(ts, ops[i], collations != NULL ? collations[i] : InvalidOid))
			return below;
	return NULL;
}

/* ---- tracing a key down to its scans ---- */

static bool
is_heap_seq_scan(InjectContext *cx, Plan *plan)
{
	RangeTblEntry *rte;
	Relation	rel;
	bool		heap;

	if (!IsA(plan, SeqScan))
		return false;
	rte = rt_fetch(((Scan *) plan)->scanrelid, cx->stmt->rtable);
	if (rte->rtekind != RTE_RELATION ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW))
		return false;
	/* the planner holds a lock on every table it planned */
	rel = table_open(rte->relid, NoLock);
	heap = rel->rd_rel->relam == HEAP_TABLE_AM_OID;
	table_close(rel, NoLock);
	return heap;
}

static void trace(TraceState *ts, Plan **link, Expr *expr, List *gathers);

static void
add_target(TraceState *ts, Plan **link, Expr *key, List *gathers)
{
	Target	   *target = palloc0(sizeof(Target));

	target->link = link;
	target->key = ts->key;
	target->expr = key;
	target->hashfunc = ts->hashfunc;
	target->gathers = gathers;
	ts->targets = lappend(ts->targets, target);
}

/* A scan reached: keep it if the key is one it can compute. */
static void
reach_scan(TraceState *ts, Plan **link, Expr *expr, List *gathers)
{
	Plan	   *plan = *link;
	Expr	   *key = substitute(expr, plan->targetlist);

	if (key != NULL && safe_scan_key(key, ((Scan *) plan)->scanrelid))
		add_target(ts, link, key, gathers);
}

/* A scan under (or to put under) the filter node: the key is of its output. */
static void
reach_wrapped(TraceState *ts, Plan **link, Expr *expr, List *gathers)
{
	if (bloom_runtime_wrap_key_ok(expr))
		add_target(ts, link, expr, gathers);
}

/* ---- predicate transfer: through a join's equalities to its other side ---- */

/* Whether a and b are the same key of a join's input (a Var of the same
 * column of the same side, whatever else the planner marked on it). */
static bool
same_key(Expr *a, Expr *b)
{
	a = strip_relabel(a);
	b = strip_relabel(b);
	if (a == NULL || b == NULL)
		return false;
	if (IsA(a, Var) && IsA(b, Var))
		return ((Var *) a)->varno == ((Var *) b)->varno &&
			((Var *) a)->varattno == ((Var *) b)->varattno &&
			((Var *) a)->varlevelsup == 0 && ((Var *) b)->varlevelsup == 0;
	return equal(a, b);
}

/*
 * The hash function of type for a filter of the traced key, when values
 * equal by equality op (of that collation) are equal by the filter's join
 * operator: a hash operator family holds both operators and hashes the
 * build side's type with the filter's build function, so equal values of
 * any of its types hash alike.  Else InvalidOid.
 */
static Oid
transfer_hash_function(TraceState *ts, Oid op, Oid collation, Oid type)
{
	List	   *families;
	ListCell   *lc;
	Oid			result = InvalidOid;

	if (!grouping_implies_join(ts, op, collation))
		return InvalidOid;
	families = hash_families(ts->op);
	foreach(lc, families)
	{
		Oid			family = lfirst_oid(lc);

		if (op_in_opfamily(op, family) &&
			get_opfamily_proc(family, ts->build_type, ts->build_type, HASHSTANDARD_PROC) == ts->build_func)
		{
			result = get_opfamily_proc(family, type, type, HASHSTANDARD_PROC);
			break;
		}
	}
	list_free(families);
	return result;
}

/*
 * below, an expression of one side of join (OUTER_VAR or INNER_VAR Vars),
 * is the filter's key; where the join equates it with an expression of the
 * other side, every row the join returns has both equal: a row of the
 * other side whose expression is not in the filter joins only rows whose
 * key is not either, and those the filter's own join drops.  Such rows may
 * be dropped where that only takes matches away: both sides of an inner
 * join, the side a semi join looks up.  Outer and anti joins would return
 * other rows instead (which the filter's join would drop too, but the
 * plan above them would see rows it does not now): not done.
 */
static void
transfer_through_equalities(TraceState *ts, Plan *plan, Expr *below, bool from_outer,
							List *gathers)
{
	Join	   *join = (Join *) plan;
	JoinType	jointype = join->jointype;
	List	   *clauses = list_copy(join->joinqual);
	ListCell   *lc;

	if (!bloomfilter_runtime_filter_transfer ||
		!(jointype == JOIN_INNER || (jointype == JOIN_SEMI && from_outer) ||
		  (jointype == JOIN_RIGHT_SEMI && !from_outer)))
		return;
	if (IsA(plan, HashJoin))
		clauses = list_concat(clauses, ((HashJoin *) plan)->hashclauses);
	else if (IsA(plan, MergeJoin))
		clauses = list_concat(clauses, ((MergeJoin *) plan)->mergeclauses);
	foreach(lc, clauses)
	{
		OpExpr	   *eq = lfirst(lc);
		Expr	   *args[2];
		SidesContext sides[2] = {{false, false, false}, {false, false, false}};
		Oid			types[2];
		Oid			hashfunc,
					saved;
		int			mine = -1;

		if (!IsA(eq, OpExpr) || list_length(eq->args) != 2)
			continue;
		args[0] = linitial(eq->args);
		args[1] = lsecond(eq->args);
		op_input_types(eq->opno, &types[0], &types[1]);
		for (int i = 0; i < 2; i++)
		{
			(void) sides_walker((Node *) args[i], &sides[i]);
			if (sides[i].other || sides[i].outer == sides[i].inner)
				break;
			if (sides[i].outer == from_outer && same_key(args[i], below))
				mine = i;
		}
		/* one argument is the key, the other of the other side alone */
		if (mine < 0 || sides[1 - mine].other || sides[1 - mine].outer == sides[1 - mine].inner ||
			sides[1 - mine].outer == from_outer)
			continue;
		hashfunc = transfer_hash_function(ts, eq->opno, eq->inputcollid, types[1 - mine]);
		if (!OidIsValid(hashfunc))
			continue;
		saved = ts->hashfunc;
		ts->hashfunc = hashfunc;
		if (from_outer)
			trace(ts, &plan->righttree, rename_to_outer(args[1 - mine], INNER_VAR), gathers);
		else
			trace(ts, &plan->lefttree, args[1 - mine], gathers);
		ts->hashfunc = saved;
	}
	list_free(clauses);
}

/* Down a join's side: which one expr comes from, if rows may be dropped there. */
static void
through_join(TraceState *ts, Plan *plan, Expr *expr, List *gathers)
{
	JoinType	jointype = ((Join *) plan)->jointype;
	Expr	   *below = substitute(expr, plan->targetlist);
	SidesContext sc = {false, false, false};

	if (below == NULL)
		return;
	(void) sides_walker((Node *) below, &sc);
	if (sc.other || sc.outer == sc.inner)
		return;
	if (sc.outer)
	{
		/* the outer side's rows are returned only with a match above them */
		if (jointype == JOIN_INNER || jointype == JOIN_LEFT || jointype == JOIN_SEMI ||
			jointype == JOIN_ANTI)
			trace(ts, &plan->lefttree, below, gathers);
	}
	else if (jointype == JOIN_INNER || jointype == JOIN_RIGHT || jointype == JOIN_RIGHT_SEMI ||
			 jointype == JOIN_RIGHT_ANTI)
	{
		/* a nested loop's inner side is rescanned: through it, if it keeps
		 * nothing between rescans (a Material would keep filtered rows) */
		trace(ts, &plan->righttree, rename_to_outer(below, INNER_VAR), gathers);
	}
	transfer_through_equalities(ts, plan, below, sc.outer, gathers);
}

/*
 * expr is an expression of (*link)'s output (OUTER_VAR Vars, numbered by
 * its targetlist).  Adds the scans below where rows of a key outside the
 * filter may be dropped to ts->targets.
 */
static void
trace(TraceState *ts, Plan **link, Expr *expr, List *gathers)
{
	Plan	   *plan = *link;
	Expr	   *below;

	check_stack_depth();
	if (plan == NULL || expr == NULL)
		return;
	switch (nodeTag(plan))
	{
		case T_SeqScan:
			if (is_heap_seq_scan(ts->cx, plan))
				reach_scan(ts, link, expr, gathers);
			break;
		case T_ForeignScan:
			if (((Scan *) plan)->scanrelid > 0)
				reach_scan(ts, link, expr, gathers);
			break;
		case T_IndexScan:
		case T_IndexOnlyScan:
		case T_BitmapHeapScan:
		case T_CteScan:
		case T_FunctionScan:
			reach_wrapped(ts, link, expr, gathers);
			break;
		case T_CustomScan:
			if (bloom_runtime_is_wrap(plan))
				reach_wrapped(ts, link, expr, gathers);
			else if (bloom_runtime_is_probe(plan))
				reach_scan(ts, link, expr, gathers);
			else if (bloom_runtime_is_build(plan) || bloom_runtime_is_prebuild(plan))
				trace(ts, &plan->lefttree, expr, gathers);	/* rows unchanged */
			break;
		case T_SubqueryScan:
			{
				SubqueryScan *sq = (SubqueryScan *) plan;

				below = substitute(expr, plan->targetlist);
				if (below != NULL)
					trace(ts, &sq->subplan, rename_to_outer(below, sq->scan.scanrelid), gathers);
			}
			break;
		case T_HashJoin:
		case T_MergeJoin:
		case T_NestLoop:
			through_join(ts, plan, expr, gathers);
			break;
		case T_Gather:
		case T_GatherMerge:
			trace(ts, &plan->lefttree, substitute(expr, plan->targetlist), lappend(list_copy(gathers), plan));
			break;
		case T_Result:
		case T_ProjectSet:
			below = substitute(expr, plan->targetlist);
			if (below != NULL && !expression_returns_set((Node *) below))
				trace(ts, &plan->lefttree, below, gathers);
			break;
		case T_Append:
			{
				ListCell   *lc;

				below = substitute(expr, plan->targetlist);
				foreach(lc, ((Append *) plan)->appendplans)
					trace(ts, (Plan **) &lfirst(lc), below, gathers);
			}
			break;
		case T_MergeAppend:
			{
				ListCell   *lc;

				below = substitute(expr, plan->targetlist);
				foreach(lc, ((MergeAppend *) plan)->mergeplans)
					trace(ts, (Plan **) &lfirst(lc), below, gathers);
			}
			break;

			/* nodes that keep rows between rescans */
		case T_Sort:
		case T_IncrementalSort:
		case T_Material:
		case T_Hash:
			if (!ts->may_rescan)
				trace(ts, &plan->lefttree, substitute(expr, plan->targetlist), gathers);
			break;
		case T_Agg:
			{
				Agg		   *agg = (Agg *) plan;

				if (!ts->may_rescan && agg->groupingSets == NIL)
					trace(ts, &plan->lefttree,
						  through_grouping(ts, plan, expr, agg->numCols, agg->grpColIdx,
										   agg->grpOperators, agg->grpCollations),
						  gathers);
			}
			break;
		case T_Group:
			{
				Group	   *group = (Group *) plan;

				if (!ts->may_rescan)
					trace(ts, &plan->lefttree,
						  through_grouping(ts, plan, expr, group->numCols, group->grpColIdx,
										   group->grpOperators, group->grpCollations),
						  gathers);
			}
			break;
		case T_Unique:
			{
				Unique	   *unique = (Unique *) plan;

				if (!ts->may_rescan)
					trace(ts, &plan->lefttree,
						  through_grouping(ts, plan, expr, unique->numCols, unique->uniqColIdx,
										   unique->uniqOperators, unique->uniqCollations),
						  gathers);
			}
			break;
		default:
			/* Limit, WindowAgg, SetOp, ...: the rows stop here */
			break;
	}
}

List *
bloom_runtime_trace(InjectContext *cx, HashJoin *hj, int key, bool may_rescan)
{
	return bloom_runtime_trace_key(cx, &outerPlan(hj), (Expr *) list_nth(hj->hashkeys, key), key,
								   list_nth_oid(hj->hashoperators, key),
								   list_nth_oid(hj->hashcollations, key), may_rescan);
}

List *
bloom_runtime_trace_key(InjectContext *cx, Plan **link, Expr *expr, int key, Oid op,
						Oid collation, bool may_rescan)
{
	TraceState	ts;
	Oid			left_type,
				left_func;

	memset(&ts, 0, sizeof ts);
	ts.cx = cx;
	ts.may_rescan = may_rescan;
	ts.key = key;
	ts.op = op;
	ts.collation = collation;
	ts.hashfunc = InvalidOid;
	op_input_types(ts.op, &left_type, &ts.build_type);
	if (!get_op_hash_functions(ts.op, &left_func, &ts.build_func))
		return NIL;
	trace(&ts, link, expr, NIL);
	return ts.targets;
}
