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
 *     probe side at least bloomfilter.runtime_filter_min_rows and (inner
 *     and semi joins) at most bloomfilter.runtime_filter_max_pass of the
 *     probe rows estimated to find a match (a remote filter needs neither:
 *     a row not shipped saves more than the remote probe costs).
 *  3. Each key, an expression of the outer child's output, is traced down
 *     to the scans it comes from, rewritten at each node in the terms of
 *     that node's input, through nodes where dropping a row cannot change
 *     the rows the join keeps: projections (Result, ProjectSet, Subquery
 *     Scan), Append and MergeAppend (every branch), Gather and Gather
 *     Merge, Sort, Incremental Sort, Material, the outer side of a join
 *     (the inner side too of an inner join, the inner side alone of right
 *     joins), an Agg, Group or Unique where the key is a grouping column
 *     whose equality implies the join's (same hash operator family and
 *     collation, or both deterministic: a group is then kept or dropped
 *     whole).  The key at the scan must be the table's columns under
 *     leakproof functions only (no function that could fail on a row the
 *     join would never have seen), no volatile function, parameter or
 *     subplan.
 *  4. The keys that reach the same scans make the filter (keys that reach
 *     another scan are left out: a filter of some of the keys is still
 *     exact about what it removes).  A heap table's Seq Scan becomes the
 *     batched probe scan in runtime mode (or one already is, and probes
 *     this filter too); a build node goes between the Hash node and its
 *     child; a PARAM_EXEC slot carries the filter; each Gather between the
 *     join and the scan sends it to its workers (initParam); and the
 *     join's outer child gets a startup cost of at least the Hash node's
 *     total cost, so that the join builds its hash table (and the filter)
 *     before it reads a probe row (ExecHashJoin reads one first when the
 *     outer side is cheaper to start, to skip the build for an empty
 *     probe side).
 *
 * Rescans: a join whose hash table may be built again with other rows
 * (a join under a nested loop's inner side, in a subplan, or in a
 * scrollable or holdable cursor) filters only through nodes that never
 * keep rows between rescans (no Sort, Material, Agg, Hash on the way);
 * its scans are rescanned with it and read the new filter.
 *
 * postgres_fdw: when a probe side is a foreign table of a server whose
 * `extensions` option lists bloomfilter, the filter is worth most on the
 * remote server, before the rows are shipped.  The remote SQL is written
 * while planning, so the query is planned a second time with a condition
 * on the foreign table, ($p IS NULL OR bloom_contains($p, key)), whose $p
 * is a placeholder the planner cannot see through (estimated to keep
 * every row, so the plan is the same); postgres_fdw ships it as a query
 * parameter.  After that planning, a hash join whose probe side is that
 * foreign scan, with that key, gets a build node making a canonical filter
 * (the extension's hash, a real `bloom`) and the placeholder becomes its
 * parameter; otherwise the placeholder becomes NULL (no filter).  When the
 * second planning differs in a way that leaves the placeholder anywhere
 * else, the first plan (without the remote filter) is used.  Canonical
 * filters are made only where the canonical hash follows the join's
 * equality whatever the two sides' types: integers (int2, int4, int8 in
 * any mix), numeric, float4 and float8 (in any mix), bool, oid, uuid, date,
 * timestamp, timestamptz, bytea.  Not text: a remote database of another
 * encoding would hash other bytes.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/extension.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/varlena.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

/* Placeholders of the remote filters in the second planning: PARAM_EXTERN
 * numbers no query has. */
#define PLACEHOLDER_BASE 2147418112

static planner_hook_type previous_planner_hook = NULL;

/* A foreign table's key that could take a remote filter (first planning). */
typedef struct RemoteCandidate
{
	Oid			relid;			/* the foreign table, once in the query */
	Query	   *level;			/* the query (or subquery, view) naming it */
	Index		rti;			/* and its range table index there */
	AttrNumber	attno;
	Oid			type;
	int32		typmod;
	Oid			collation;
	int			placeholder;	/* its PARAM_EXTERN number (second planning) */
	int			paramid;		/* the PARAM_EXEC it became, or -1 */
} RemoteCandidate;

typedef struct InjectContext
{
	PlannedStmt *stmt;
	Query	   *parse;			/* the query as written (not planned) */
	bool		rewind;			/* a scrollable or holdable cursor */
	int			next_plan_node_id;
	int			next_filter_id;
	bool		second;			/* the second planning: placeholders in it */
	List	   *candidates;		/* RemoteCandidate *: found, or placed */
	Oid			bloom_type;		/* the extension's objects, when installed */
	Oid			contains_func;
} InjectContext;

/* One way down from a join to a scan. */
typedef struct Target
{
	Plan	  **link;			/* the pointer to the scan, in its parent */
	int			key;			/* which key of the join */
	Expr	   *expr;			/* that key, in the scan's terms */
	List	   *gathers;		/* Gather and Gather Merge nodes on the way */
} Target;

/* What tracing one key of a join carries. */
typedef struct TraceState
{
	InjectContext *cx;
	bool		may_rescan;
	int			key;
	Oid			op;				/* the join's hash operator of this key */
	Oid			collation;
	List	   *targets;
} TraceState;

static void walk_plan(InjectContext *cx, Plan *plan, bool may_rescan);
extern void bloom_runtime_plan_init(void);

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

/* A scan reached: keep it if the key is one it can compute. */
static void
reach_scan(TraceState *ts, Plan **link, Expr *expr, List *gathers)
{
	Plan	   *plan = *link;
	Expr	   *key = substitute(expr, plan->targetlist);
	Target	   *target;

	if (key == NULL || !safe_scan_key(key, ((Scan *) plan)->scanrelid))
		return;
	target = palloc0(sizeof(Target));
	target->link = link;
	target->key = ts->key;
	target->expr = key;
	target->gathers = gathers;
	ts->targets = lappend(ts->targets, target);
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
		case T_CustomScan:
			if (bloom_runtime_is_probe(plan))
				reach_scan(ts, link, expr, gathers);
			else if (bloom_runtime_is_build(plan))
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
			/* Limit, WindowAgg, SetOp, CTE scans, ...: the rows stop here */
			break;
	}
}

/* ---- the objects of the extension (remote filters) ---- */

static void
lookup_extension_objects(InjectContext *cx)
{
	Oid			ext = get_extension_oid("bloomfilter", true);
	Oid			nsp;
	Oid			args[2];
	List	   *name;

	cx->bloom_type = InvalidOid;
	cx->contains_func = InvalidOid;
	if (!OidIsValid(ext))
		return;
	nsp = get_extension_schema(ext);
	cx->bloom_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("bloom"),
									 ObjectIdGetDatum(nsp));
	if (!OidIsValid(cx->bloom_type))
		return;
	name = list_make2(makeString(get_namespace_name(nsp)), makeString("bloom_contains"));
	args[0] = cx->bloom_type;
	args[1] = ANYELEMENTOID;
	cx->contains_func = LookupFuncName(name, 2, args, true);
}

/* Whether the canonical hash follows the equality of op, on both sides. */
static bool
canonical_equality(Oid op)
{
	switch (get_opcode(op))
	{
		case F_INT2EQ:
		case F_INT4EQ:
		case F_INT8EQ:
		case F_INT24EQ:
		case F_INT42EQ:
		case F_INT28EQ:
		case F_INT82EQ:
		case F_INT48EQ:
		case F_INT84EQ:
		case F_NUMERIC_EQ:
		case F_FLOAT4EQ:
		case F_FLOAT8EQ:
		case F_FLOAT48EQ:
		case F_FLOAT84EQ:
		case F_BOOLEQ:
		case F_OIDEQ:
		case F_UUID_EQ:
		case F_DATE_EQ:
		case F_TIMESTAMP_EQ:
		case F_BYTEAEQ:
			return true;
		default:
			return false;
	}
}

/* Whether foreign table relid is postgres_fdw's, on a server whose
 * `extensions` option lists bloomfilter. */
static bool
remote_has_extension(Oid relid)
{
	ForeignTable *table = GetForeignTable(relid);
	ForeignServer *server = GetForeignServer(table->serverid);
	ForeignDataWrapper *fdw = GetForeignDataWrapper(server->fdwid);
	char	   *handler;
	ListCell   *lc;

	if (!OidIsValid(fdw->fdwhandler))
		return false;
	handler = get_func_name(fdw->fdwhandler);
	if (handler == NULL || strcmp(handler, "postgres_fdw_handler") != 0)
		return false;
	foreach(lc, server->options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);
		List	   *names;
		ListCell   *n;
		bool		found = false;

		if (strcmp(def->defname, "extensions") != 0)
			continue;
		if (!SplitIdentifierString(pstrdup(defGetString(def)), ',', &names))
			return false;
		foreach(n, names)
			if (strcmp(lfirst(n), "bloomfilter") == 0)
				found = true;
		return found;
	}
	return false;
}

/* Whether rti is a relation of the query's FROM list that no outer join
 * nulls: a condition in WHERE on it restricts its scan, in any plan. */
static bool
in_inner_position(Node *jtnode, Index rti)
{
	if (jtnode == NULL)
		return false;
	if (IsA(jtnode, RangeTblRef))
		return ((RangeTblRef *) jtnode)->rtindex == (int) rti;
	if (IsA(jtnode, FromExpr))
	{
		ListCell   *lc;

		foreach(lc, ((FromExpr *) jtnode)->fromlist)
			if (in_inner_position(lfirst(lc), rti))
				return true;
		return false;
	}
	if (IsA(jtnode, JoinExpr))
	{
		JoinExpr   *join = (JoinExpr *) jtnode;

		switch (join->jointype)
		{
			case JOIN_INNER:
				return in_inner_position(join->larg, rti) || in_inner_position(join->rarg, rti);
			case JOIN_LEFT:
				return in_inner_position(join->larg, rti);
			case JOIN_RIGHT:
				return in_inner_position(join->rarg, rti);
			default:
				return false;
		}
	}
	return false;
}

/* Where relation relid is named in a query, at every level (subqueries,
 * views, CTEs, sublinks). */
typedef struct FindRelation
{
	Oid			relid;
	int			count;
	Query	   *level;
	Index		rti;
} FindRelation;

static bool
find_relation_walker(Node *node, FindRelation *fr)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;
		Index		rti = 0;
		ListCell   *lc;

		foreach(lc, query->rtable)
		{
			RangeTblEntry *rte = lfirst(lc);

			rti++;
			if (rte->rtekind == RTE_RELATION && rte->relid == fr->relid)
			{
				fr->count++;
				fr->level = query;
				fr->rti = rti;
			}
		}
		return query_tree_walker(query, find_relation_walker, fr, 0);
	}
	return expression_tree_walker(node, find_relation_walker, fr);
}

/*
 * First planning: whether the key of a foreign scan target could take a
 * remote filter; if so, note the candidate.  The foreign table must be
 * named once in the query (so that the scan of the plan is that one), in
 * a query level where a condition in WHERE restricts its scan.  Where the
 * second planning puts the condition is checked again then: a placeholder
 * anywhere but in the foreign scan sends that plan back.
 */
static void
note_remote_candidate(InjectContext *cx, HashJoin *hj, Target *target, bool may_rescan)
{
	ForeignScan *fs = (ForeignScan *) *target->link;
	RangeTblEntry *rte = rt_fetch(fs->scan.scanrelid, cx->stmt->rtable);
	Var		   *var = (Var *) target->expr;
	FindRelation fr;
	RemoteCandidate *cand;
	ListCell   *lc;

	if (may_rescan || cx->parse == NULL || !OidIsValid(cx->contains_func) ||
		cx->parse->commandType != CMD_SELECT || !IsA(var, Var) || var->varattno <= 0 ||
		!canonical_equality(list_nth_oid(hj->hashoperators, target->key)) ||
		rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_FOREIGN_TABLE ||
		rte->inh || !remote_has_extension(rte->relid))
		return;
	foreach(lc, cx->candidates)
	{
		RemoteCandidate *c = lfirst(lc);

		if (c->relid == rte->relid && c->attno == var->varattno)
			return;
	}
	memset(&fr, 0, sizeof fr);
	fr.relid = rte->relid;
	(void) find_relation_walker((Node *) cx->parse, &fr);
	if (fr.count != 1 || fr.level->commandType != CMD_SELECT || fr.level->jointree == NULL ||
		!in_inner_position((Node *) fr.level->jointree, fr.rti))
		return;
	cand = palloc0(sizeof(RemoteCandidate));
	cand->relid = rte->relid;
	cand->level = fr.level;
	cand->rti = fr.rti;
	cand->attno = var->varattno;
	cand->type = var->vartype;
	cand->typmod = var->vartypmod;
	cand->collation = var->varcollid;
	cand->placeholder = PLACEHOLDER_BASE + list_length(cx->candidates);
	cand->paramid = -1;
	cx->candidates = lappend(cx->candidates, cand);
}

/* Second planning: the candidate whose placeholder the foreign scan
 * carries for this key, or NULL. */
typedef struct FindPlaceholder
{
	int			placeholder;
} FindPlaceholder;

static bool
find_placeholder_walker(Node *node, FindPlaceholder *fp)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXTERN &&
		((Param *) node)->paramid == fp->placeholder)
		return true;
	return expression_tree_walker(node, find_placeholder_walker, fp);
}

static RemoteCandidate *
placed_candidate(InjectContext *cx, Target *target)
{
	ForeignScan *fs = (ForeignScan *) *target->link;
	RangeTblEntry *rte = rt_fetch(fs->scan.scanrelid, cx->stmt->rtable);
	Var		   *var = (Var *) target->expr;
	ListCell   *lc;

	if (!IsA(var, Var) || rte->rtekind != RTE_RELATION)
		return NULL;
	foreach(lc, cx->candidates)
	{
		RemoteCandidate *c = lfirst(lc);
		FindPlaceholder fp = {c->placeholder};

		if (c->relid == rte->relid && c->attno == var->varattno && c->paramid < 0 &&
			(find_placeholder_walker((Node *) fs->fdw_exprs, &fp) ||
			 find_placeholder_walker((Node *) fs->scan.plan.qual, &fp)))
			return c;
	}
	return NULL;
}

/* ---- adding a filter ---- */

static int
new_param(InjectContext *cx, Oid type)
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
static void
send_to_workers(List *gathers, int paramid)
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

/* The remote filter of a foreign scan target (second planning). */
static void
add_remote_filter(InjectContext *cx, HashJoin *hj, Hash *hash, Target *target,
				  RemoteCandidate *cand, double build_rows)
{
	RuntimeFilterSpec spec;
	Oid			left,
				right;

	/* this join may be another than the first planning's: its operator too */
	if (!canonical_equality(list_nth_oid(hj->hashoperators, target->key)) ||
		!get_op_hash_functions(list_nth_oid(hj->hashoperators, target->key), &left, &right) ||
		build_rows > bloom_runtime_filter_max_keys(RUNTIME_FILTER_CANONICAL))
		return;
	memset(&spec, 0, sizeof spec);
	spec.filter_id = cx->next_filter_id++;
	spec.paramid = new_param(cx, cx->bloom_type);
	spec.kind = RUNTIME_FILTER_CANONICAL;
	spec.nkeys = 1;
	spec.hashfuncs = list_make1_oid(right);
	spec.collations = list_make1_oid(list_nth_oid(hj->hashcollations, target->key));
	spec.integer_keys = list_make1_int(0);
	spec.est_keys = build_rows;
	add_build(cx, hj, hash, list_make1(copyObjectImpl(list_nth(hash->hashkeys, target->key))), &spec);
	cand->paramid = spec.paramid;
}

/* A scan the local filter may probe, and the keys that reach it. */
typedef struct ScanGroup
{
	Plan	  **link;
	Bitmapset  *mask;			/* the keys that reach it */
	Expr	   *exprs[INDEX_MAX_KEYS];	/* each, in the scan's terms */
	List	   *gathers;
} ScanGroup;

/*
 * The local filter: the keys of the mask that reaches the most probe rows,
 * probed at the scans they reach; a build node under the Hash node.
 */
static void
add_local_filter(InjectContext *cx, HashJoin *hj, Hash *hash, List *groups, double build_rows)
{
	Bitmapset  *mask = NULL;
	double		best = -1;
	RuntimeFilterSpec spec;
	List	   *probe_funcs = NIL;
	List	   *build_funcs = NIL;
	List	   *collations = NIL;
	List	   *integer_keys = NIL;
	List	   *build_keys = NIL;
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
	spec.paramid = new_param(cx, BYTEAOID);
	spec.kind = RUNTIME_FILTER_JOIN_HASH;
	spec.nkeys = bms_num_members(mask);
	spec.collations = collations;
	spec.integer_keys = integer_keys;
	spec.est_keys = build_rows;

	/* the probes: each scan of the mask, with its keys in the mask's order */
	spec.hashfuncs = probe_funcs;
	foreach(lc, groups)
	{
		ScanGroup  *g = lfirst(lc);
		Plan	   *scan = *g->link;
		List	   *keys = NIL;

		if (!bms_equal(g->mask, mask))
			continue;
		k = -1;
		while ((k = bms_next_member(mask, k)) >= 0)
			keys = lappend(keys, g->exprs[k]);
		if (IsA(scan, SeqScan))
			*g->link = (Plan *) bloom_runtime_probe_make(scan, keys, &spec);
		else
			bloom_runtime_probe_add((CustomScan *) scan, keys, &spec);
		send_to_workers(g->gathers, spec.paramid);
	}

	/* the build */
	spec.hashfuncs = build_funcs;
	add_build(cx, hj, hash, build_keys, &spec);
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
	bool		local_ok;
	ListCell   *lc;

	if (!(jointype == JOIN_INNER || jointype == JOIN_SEMI || jointype == JOIN_RIGHT ||
		  jointype == JOIN_RIGHT_SEMI || jointype == JOIN_RIGHT_ANTI))
		return;
	if (hash == NULL || !IsA(hash, Hash) || outer == NULL || nkeys == 0 ||
		nkeys != list_length(hash->hashkeys) || !hashable_keys(hj))
		return;
	build_rows = build_rows_estimate(hash);
	if (nkeys > INDEX_MAX_KEYS || build_rows > bloom_runtime_filter_max_keys(RUNTIME_FILTER_JOIN_HASH))
		return;

	/*
	 * A local filter is worth its probes where the probe side is large and
	 * (inner and semi joins) few of its rows are estimated to match.  A
	 * remote one always is: a row not shipped saves far more than the
	 * remote probe of it costs, and foreign tables are often not analyzed.
	 */
	local_ok = outer->plan_rows >= bloomfilter_runtime_filter_min_rows &&
		!((jointype == JOIN_INNER || jointype == JOIN_SEMI) &&
		  hj->join.plan.plan_rows > bloomfilter_runtime_filter_max_pass * Max(outer->plan_rows, 1.0));

	for (int k = 0; k < nkeys; k++)
	{
		TraceState	ts;

		memset(&ts, 0, sizeof ts);
		ts.cx = cx;
		ts.may_rescan = may_rescan;
		ts.key = k;
		ts.op = list_nth_oid(hj->hashoperators, k);
		ts.collation = list_nth_oid(hj->hashcollations, k);
		trace(&ts, &outerPlan(hj), (Expr *) list_nth(hj->hashkeys, k), NIL);
		targets = list_concat(targets, ts.targets);
	}

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

			if (!cx->second)
				note_remote_candidate(cx, hj, t, may_rescan);
			else if (!may_rescan && (cand = placed_candidate(cx, t)) != NULL)
				add_remote_filter(cx, hj, hash, t, cand, build_rows);
			continue;
		}
		if (IsA(scan, CustomScan) && !bloom_runtime_probe_has_room((CustomScan *) scan))
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
	}
	if (groups != NIL && local_ok)
		add_local_filter(cx, hj, hash, groups, build_rows);
}

/* ---- walking the plan ---- */

static void
walk_list(InjectContext *cx, List *plans, bool may_rescan)
{
	ListCell   *lc;

	foreach(lc, plans)
		walk_plan(cx, lfirst(lc), may_rescan);
}

/* Children first, then the node itself if it is a hash join. */
static void
walk_plan(InjectContext *cx, Plan *plan, bool may_rescan)
{
	check_stack_depth();
	if (plan == NULL)
		return;
	switch (nodeTag(plan))
	{
		case T_NestLoop:
		case T_MergeJoin:
			walk_plan(cx, plan->lefttree, may_rescan);
			walk_plan(cx, plan->righttree, true);
			return;
		case T_Memoize:
		case T_RecursiveUnion:
			walk_plan(cx, plan->lefttree, true);
			walk_plan(cx, plan->righttree, true);
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
			walk_plan(cx, ((SubqueryScan *) plan)->subplan, may_rescan);
			return;
		case T_CustomScan:
			walk_list(cx, ((CustomScan *) plan)->custom_plans, may_rescan);
			break;
		default:
			break;
	}
	walk_plan(cx, plan->lefttree, may_rescan);
	walk_plan(cx, plan->righttree, may_rescan);
	if (IsA(plan, HashJoin))
		consider_join(cx, (HashJoin *) plan, may_rescan);
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
	switch (nodeTag(plan))
	{
		case T_Append:
			foreach(lc, ((Append *) plan)->appendplans)
				result = Max(result, max_node_id(lfirst(lc)));
			break;
		case T_MergeAppend:
			foreach(lc, ((MergeAppend *) plan)->mergeplans)
				result = Max(result, max_node_id(lfirst(lc)));
			break;
		case T_BitmapAnd:
			foreach(lc, ((BitmapAnd *) plan)->bitmapplans)
				result = Max(result, max_node_id(lfirst(lc)));
			break;
		case T_BitmapOr:
			foreach(lc, ((BitmapOr *) plan)->bitmapplans)
				result = Max(result, max_node_id(lfirst(lc)));
			break;
		case T_SubqueryScan:
			result = Max(result, max_node_id(((SubqueryScan *) plan)->subplan));
			break;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) plan)->custom_plans)
				result = Max(result, max_node_id(lfirst(lc)));
			break;
		default:
			break;
	}
	return result;
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
	walk_plan(cx, stmt->planTree, cx->rewind);
	foreach(lc, stmt->subplans)
		walk_plan(cx, lfirst(lc), true);
}

/* ---- the second planning: placeholders for the remote filters ---- */

bool
bloom_runtime_is_placeholder(Node *node)
{
	return node != NULL && IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXTERN &&
		((Param *) node)->paramid >= PLACEHOLDER_BASE;
}

/* Whether the query reads, at any level, a foreign table that could take a
 * remote filter. */
static bool
reads_remote_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		ListCell   *lc;

		foreach(lc, ((Query *) node)->rtable)
		{
			RangeTblEntry *rte = lfirst(lc);

			if (rte->rtekind == RTE_RELATION && rte->relkind == RELKIND_FOREIGN_TABLE &&
				remote_has_extension(rte->relid))
				return true;
		}
		return query_tree_walker((Query *) node, reads_remote_walker, context, 0);
	}
	return expression_tree_walker(node, reads_remote_walker, context);
}

static bool
reads_remote_candidate(Query *parse)
{
	return parse->commandType == CMD_SELECT && reads_remote_walker((Node *) parse, NULL);
}

/* WHERE ... AND ($p IS NULL OR bloom_contains($p, key)) for each candidate. */
static void
add_placeholder_quals(InjectContext *cx)
{
	ListCell   *lc;

	foreach(lc, cx->candidates)
	{
		RemoteCandidate *c = lfirst(lc);
		Param	   *param = (__extension__ makeNode(Param));
		NullTest   *isnull = (__extension__ makeNode(NullTest));
		FuncExpr   *contains;

		param->paramkind = PARAM_EXTERN;
		param->paramid = c->placeholder;
		param->paramtype = cx->bloom_type;
		param->paramtypmod = -1;
		param->paramcollid = InvalidOid;
		param->location = -1;
		isnull->arg = (Expr *) param;
		isnull->nulltesttype = IS_NULL;
		isnull->argisrow = false;
		isnull->location = -1;
		contains = makeFuncExpr(cx->contains_func, BOOLOID,
								list_make2(copyObjectImpl(param),
										   makeVar(c->rti, c->attno, c->type, c->typmod,
												   c->collation, 0)),
								InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
		/* in the WHERE of the query level that names the table */
		c->level->jointree->quals =
			make_and_qual(c->level->jointree->quals,
						  (Node *) makeBoolExpr(OR_EXPR, list_make2(isnull, contains), -1));
	}
}

/* The placeholders: the parameter of their filter, or NULL (no filter). */
static Node *
resolve_mutator(Node *node, InjectContext *cx)
{
	if (node == NULL)
		return NULL;
	if (bloom_runtime_is_placeholder(node))
	{
		ListCell   *lc;

		foreach(lc, cx->candidates)
		{
			RemoteCandidate *c = lfirst(lc);

			if (c->placeholder == ((Param *) node)->paramid)
			{
				Param	   *param;

				if (c->paramid < 0)
					return (Node *) makeNullConst(cx->bloom_type, -1, InvalidOid);
				param = (Param *) copyObjectImpl(node);
				param->paramkind = PARAM_EXEC;
				param->paramid = c->paramid;
				return (Node *) param;
			}
		}
		return node;
	}
	return expression_tree_mutator(node, resolve_mutator, cx);
}

static void
resolve_in_plan(InjectContext *cx, Plan *plan)
{
	ListCell   *lc;

	if (plan == NULL)
		return;
	if (IsA(plan, ForeignScan))
	{
		ForeignScan *fs = (ForeignScan *) plan;

		fs->fdw_exprs = (List *) resolve_mutator((Node *) fs->fdw_exprs, cx);
		fs->fdw_recheck_quals = (List *) resolve_mutator((Node *) fs->fdw_recheck_quals, cx);
		fs->scan.plan.qual = (List *) resolve_mutator((Node *) fs->scan.plan.qual, cx);
	}
	resolve_in_plan(cx, plan->lefttree);
	resolve_in_plan(cx, plan->righttree);
	switch (nodeTag(plan))
	{
		case T_Append:
			foreach(lc, ((Append *) plan)->appendplans)
				resolve_in_plan(cx, lfirst(lc));
			break;
		case T_MergeAppend:
			foreach(lc, ((MergeAppend *) plan)->mergeplans)
				resolve_in_plan(cx, lfirst(lc));
			break;
		case T_SubqueryScan:
			resolve_in_plan(cx, ((SubqueryScan *) plan)->subplan);
			break;
		case T_CustomScan:
			foreach(lc, ((CustomScan *) plan)->custom_plans)
				resolve_in_plan(cx, lfirst(lc));
			break;
		default:
			break;
	}
}

/*
 * Resolve every placeholder of the second plan; false if one is left
 * where it was not expected (then that plan is not used).
 */
static bool
resolve_placeholders(InjectContext *cx, PlannedStmt *stmt)
{
	ListCell   *lc;
	char	   *text;

	resolve_in_plan(cx, stmt->planTree);
	foreach(lc, stmt->subplans)
		resolve_in_plan(cx, lfirst(lc));
	text = nodeToString(stmt->planTree);
	if (strstr(text, ":paramid 214741") != NULL)
		return false;
	foreach(lc, stmt->subplans)
		if (lfirst(lc) != NULL && strstr(nodeToString(lfirst(lc)), ":paramid 214741") != NULL)
			return false;
	return true;
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
	if (reads_remote_candidate(parse))
	{
		lookup_extension_objects(&cx);
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
		add_placeholder_quals(&cx);
		parse = written;
		stmt2 = plan_next(PLANNER_HOOK_ARGS);
		second.second = true;
		second.parse = NULL;
		inject(&second, stmt2);
		if (resolve_placeholders(&second, stmt2))
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
