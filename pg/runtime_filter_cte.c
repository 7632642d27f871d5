/*
 * runtime_filter_cte.c - the readers' conditions of a shared CTE, moved into
 * the CTE (bloomfilter.runtime_filter_cte_conditions), before planning.
 *
 * PostgreSQL evaluates a CTE that is read more than once in full, once, and
 * gives each reader all of its rows; a reader's own conditions run on the
 * rows it reads.  When every reader keeps only the rows of some condition on
 * the CTE's columns, a row none of them keeps is never used: the OR of the
 * readers' conditions may go into the CTE.  This is predicate transfer with
 * the predicate itself for the filter (its keys are constants, known when
 * planning): TPC-DS Q39 reads one month of a year's aggregate twice, month 1
 * and month 2, and the planner then aggregates two months instead of twelve.
 *
 * The CTE's query becomes SELECT * FROM (the query) WHERE the OR, and
 * PostgreSQL's own rules move that condition as far down as is safe
 * (through grouping columns, set operations, window partitions) and estimate
 * it, so the joins under it see the smaller counts and may get filters.
 *
 * What counts as a reader's condition: the conjuncts of the WHERE and of the
 * inner joins' ON that read only that reader's columns, above it in its
 * query; at the nullable side of an outer join only that join's ON (a WHERE
 * above would see NULLs for the rows dropped); none at a full join.  A
 * conjunct with a subquery, a volatile function, a set-returning function,
 * a parameter other than an outer one ($1) or a whole-row reference does
 * not count.  Each reader must have one, or nothing moves.
 *
 * Only a CTE that PostgreSQL materializes of its own accord: read more than
 * once, a plain SELECT without FOR UPDATE or volatile functions, not
 * recursive, and not written MATERIALIZED (there, the user asked for the
 * fence).  Every reader must be found: their count must be the CTE's
 * reference count.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"

#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "access/sysattr.h"
#include "rewrite/rewriteManip.h"

bool		bloomfilter_runtime_filter_cte_conditions = true;

/* The readers of one CTE, as a walk over the query tree finds them. */
typedef struct Readers
{
	const char *name;			/* the CTE's name */
	int			depth;			/* query levels below the CTE's owner */
	int			found;			/* readers found */
	bool		unrestricted;	/* a reader without a condition */
	List	   *conjuncts;		/* each reader's list of them, in the wrapper's terms */
	List	   *subquery_attnos;	/* the CTE's column k -> the query's resno */
} Readers;

typedef struct ConjunctCheck
{
	int			rti;
	bool		ok;
	bool		has_var;
} ConjunctCheck;

static bool
conjunct_check_walker(Node *node, ConjunctCheck *check)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		if (var->varlevelsup != 0 || var->varno != check->rti || var->varattno <= 0)
			check->ok = false;
		check->has_var = true;
		return !check->ok;
	}
	if (IsA(node, Param))
	{
		if (((Param *) node)->paramkind != PARAM_EXTERN)
			check->ok = false;
		return !check->ok;
	}
	if (IsA(node, SubLink) || IsA(node, Aggref) || IsA(node, WindowFunc) ||
		IsA(node, GroupingFunc) || IsA(node, PlaceHolderVar) ||
		IsA(node, CurrentOfExpr) || IsA(node, NextValueExpr))
	{
		check->ok = false;
		return true;
	}
	return expression_tree_walker(node, conjunct_check_walker, check);
}

/* Whether a conjunct reads only reader rti's columns, and safely. */
static bool
movable_conjunct(Node *conjunct, int rti)
{
	ConjunctCheck check = {rti, true, false};

	conjunct_check_walker(conjunct, &check);
	return check.ok && check.has_var &&
		!contain_volatile_functions(conjunct) &&
		!expression_returns_set(conjunct);
}

/* A reader's Var of the CTE's column k as the wrapper's Var of the query's
 * column subquery_attnos[k]. */
static Node *
to_wrapper_mutator(Node *node, List *subquery_attnos)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		return (Node *) makeVar(1, (AttrNumber) list_nth_int(subquery_attnos, var->varattno - 1),
								var->vartype, var->vartypmod, var->varcollid, 0);
	}
	return expression_tree_mutator(node, to_wrapper_mutator, subquery_attnos);
}

/*
 * The conjuncts that apply to the rows of rti where jt holds it, above being
 * those of the levels above; false if rti is not in jt.
 */
static bool
conjuncts_at(Node *jt, int rti, List *above, List **conjuncts)
{
	if (jt == NULL)
		return false;
	if (IsA(jt, RangeTblRef))
	{
		if (((RangeTblRef *) jt)->rtindex != rti)
			return false;
		*conjuncts = above;
		return true;
	}
	if (IsA(jt, FromExpr))
	{
		FromExpr   *from = (FromExpr *) jt;
		List	   *here = list_concat_copy(above, make_ands_implicit((Expr *) from->quals));
		ListCell   *lc;

		foreach(lc, from->fromlist)
			if (conjuncts_at(lfirst(lc), rti, here, conjuncts))
				return true;
		return false;
	}
	if (IsA(jt, JoinExpr))
	{
		JoinExpr   *join = (JoinExpr *) jt;
		List	   *on = make_ands_implicit((Expr *) join->quals);
		List	   *left = NIL;
		List	   *right = NIL;

		switch (join->jointype)
		{
			case JOIN_INNER:
				left = right = list_concat_copy(above, on);
				break;
			case JOIN_LEFT:
				left = above;
				right = on;
				break;
			case JOIN_RIGHT:
				left = on;
				right = above;
				break;
			default:
				break;
		}
		return conjuncts_at(join->larg, rti, left, conjuncts) ||
			conjuncts_at(join->rarg, rti, right, conjuncts);
	}
	return false;
}

/* A reader: query's range table entry rti. */
static void
add_reader(Readers *readers, Query *query, int rti)
{
	List	   *conjuncts = NIL;
	List	   *movable = NIL;
	ListCell   *lc;

	readers->found++;
	if (query->commandType != CMD_SELECT ||
		!conjuncts_at((Node *) query->jointree, rti, NIL, &conjuncts))
	{
		readers->unrestricted = true;
		return;
	}
	foreach(lc, conjuncts)
		if (movable_conjunct(lfirst(lc), rti))
			movable = lappend(movable, to_wrapper_mutator(lfirst(lc), readers->subquery_attnos));
	if (movable == NIL)
	{
		readers->unrestricted = true;
		return;
	}
	readers->conjuncts = lappend(readers->conjuncts, movable);
}

/* The OR over the readers of the AND of each one's conjuncts that read only
 * the query's column attno (all of them when attno is 0); NULL if a reader
 * has none. */
static Node *
or_of_readers(List *readers_conjuncts, int attno)
{
	List	   *either = NIL;
	ListCell   *lc;

	foreach(lc, readers_conjuncts)
	{
		List	   *mine = NIL;
		ListCell   *lc2;

		foreach(lc2, (List *) lfirst(lc))
		{
			Bitmapset  *attnos = NULL;
			int			only;

			pull_varattnos(lfirst(lc2), 1, &attnos);
			if (attno == 0 ||
				(bms_get_singleton_member(attnos, &only) &&
				 only == attno - FirstLowInvalidHeapAttributeNumber))
				mine = lappend(mine, lfirst(lc2));
		}
		if (mine == NIL)
			return NULL;
		either = list_append_unique(either, make_ands_explicit(mine));
	}
	return list_length(either) == 1 ? linitial(either) : (Node *) make_orclause(either);
}

/* The conjuncts of condition, in the planner's canonical form (what all
 * readers share taken out of the OR), that conditions lacks. */
static void
add_conjuncts(List **conditions, Node *condition)
{
	if (condition == NULL)
		return;
	condition = (Node *) canonicalize_qual((Expr *) condition, false);
	*conditions = list_concat_unique(*conditions, make_ands_implicit((Expr *) condition));
}

/*
 * What the CTE's rows must meet: the OR of the readers' conditions, and for
 * each column the OR of their conditions on that column alone, when each
 * has one.  The latter are implied by the former, but they move further
 * where the former cannot (a reader that also tests an aggregate keeps the
 * whole OR above the grouping; its month alone goes below).
 */
static List *
cte_conditions(Readers *readers)
{
	List	   *conditions = NIL;
	ListCell   *lc;

	add_conjuncts(&conditions, or_of_readers(readers->conjuncts, 0));
	foreach(lc, readers->subquery_attnos)
		add_conjuncts(&conditions, or_of_readers(readers->conjuncts, lfirst_int(lc)));
	return conditions;
}

static bool
readers_walker(Node *node, Readers *readers)
{
	if (node == NULL || readers->unrestricted)
		return false;
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;
		bool		result;
		int			rti = 0;
		ListCell   *lc;

		foreach(lc, query->rtable)
		{
			RangeTblEntry *rte = lfirst(lc);

			rti++;
			if (rte->rtekind == RTE_CTE && rte->ctelevelsup == (Index) readers->depth &&
				!rte->self_reference && strcmp(rte->ctename, readers->name) == 0)
				add_reader(readers, query, rti);
		}
		readers->depth++;
		result = query_tree_walker(query, readers_walker, readers, 0);
		readers->depth--;
		return result;
	}
	return expression_tree_walker(node, readers_walker, readers);
}

/* SELECT the CTE's columns FROM (its query) WHERE condition. */
static Query *
wrap_query(CommonTableExpr *cte, Query *subquery, List *subquery_attnos, Node *condition)
{
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	Query	   *wrapper = (__extension__ makeNode(Query));
	RangeTblEntry *rte = (__extension__ makeNode(RangeTblEntry));
	RangeTblRef *ref = (__extension__ makeNode(RangeTblRef));
	ListCell   *attno,
			   *name,
			   *type,
			   *typmod,
			   *collation;
	AttrNumber	resno = 0;

	/* the query is a level further down now */
	IncrementVarSublevelsUp((Node *) subquery, 1, 1);
	rte->rtekind = RTE_SUBQUERY;
	rte->subquery = subquery;
	rte->eref = makeAlias(cte->ctename, (List *) copyObjectImpl(cte->ctecolnames));
	rte->inFromCl = true;

	wrapper->commandType = CMD_SELECT;
	wrapper->querySource = QSRC_ORIGINAL;
	wrapper->canSetTag = subquery->canSetTag;
	wrapper->rtable = list_make1(rte);
	ref->rtindex = 1;
	wrapper->jointree = makeFromExpr(list_make1(ref), condition);
	forfive(attno, subquery_attnos, name, cte->ctecolnames, type, cte->ctecoltypes,
			typmod, cte->ctecoltypmods, collation, cte->ctecolcollations)
	{
		Var		   *var = makeVar(1, (AttrNumber) lfirst_int(attno), lfirst_oid(type),
								  lfirst_int(typmod), lfirst_oid(collation), 0);

		wrapper->targetList = lappend(wrapper->targetList,
									  makeTargetEntry((Expr *) var, ++resno,
													  pstrdup(strVal(lfirst(name))), false));
	}
	return wrapper;
}

/* cte, of owner's WITH: its readers' conditions into it, when it may take them. */
static void
move_conditions(Query *owner, CommonTableExpr *cte)
{
	Query	   *subquery = (Query *) cte->ctequery;
	Readers		readers;
	ListCell   *lc;

	if (cte->ctematerialized != CTEMaterializeDefault || cte->cterefcount < 2 ||
		cte->cterecursive || !IsA(subquery, Query) ||
		subquery->commandType != CMD_SELECT || subquery->rowMarks != NIL ||
		subquery->utilityStmt != NULL ||
		contain_volatile_functions((Node *) subquery))
		return;

	memset(&readers, 0, sizeof readers);
	readers.name = cte->ctename;
	foreach(lc, subquery->targetList)
	{
		TargetEntry *tle = lfirst(lc);

		if (!tle->resjunk)
			readers.subquery_attnos = lappend_int(readers.subquery_attnos, tle->resno);
	}
	if (list_length(readers.subquery_attnos) != list_length(cte->ctecolnames))
		return;
	readers_walker((Node *) owner, &readers);
	if (readers.unrestricted || readers.found != cte->cterefcount || readers.conjuncts == NIL)
		return;
	cte->ctequery = (Node *) wrap_query(cte, subquery, readers.subquery_attnos,
										(Node *) make_ands_explicit(cte_conditions(&readers)));
}

static bool
cte_owners_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;
		ListCell   *lc;

		/* the inner levels first */
		query_tree_walker(query, cte_owners_walker, context, 0);
		foreach(lc, query->cteList)
			move_conditions(query, lfirst(lc));
		return false;
	}
	return expression_tree_walker(node, cte_owners_walker, context);
}

void
bloom_runtime_cte_conditions(Query *parse)
{
	if (bloomfilter_runtime_filter_cte_conditions)
		cte_owners_walker((Node *) parse, NULL);
}
