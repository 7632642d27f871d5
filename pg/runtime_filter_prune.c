/*
 * runtime_filter_prune.c - whole scans skipped by the range tier
 * (runtime_filter_prune.h).
 *
 * Planning: for a probe whose filter has the range tier (one key read as an
 * integer: int2, int4, int8, date) and whose key is a plain column of the
 * scanned relation, the bounds of that column are read from the relation's
 * partition constraint (its own bounds and its ancestors', so several
 * levels of partitioning count) and its validated CHECK constraints (an
 * inheritance child's, any table's).  Of their top-level conjuncts only
 * `col op constant` with op a btree comparison of the column's family,
 * `col = ANY (constant array)` (a list partition) are read; everything
 * else (a default partition's NOT, an OR, a hash partition's function) is
 * left out, which only widens the bounds.  A constraint holds for a row
 * where it is true or NULL: a NULL key never matches a join key, and an
 * array with a NULL element is left out (a key outside it gives NULL).
 *
 * Running: once a filter's range is read, a probe whose bounds it misses
 * returns no row: the batched probe scan does not start its heap scan, the
 * filter node does not call its scan.  A filter not built yet skips
 * nothing; a rescan decides again.  In a parallel plan each participant
 * decides alike from the same range.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_probe.h"
#include "runtime_filter_prune.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

/* ---- planning: the bounds a relation's constraints imply ---- */

typedef struct BoundsWalk
{
	AttrNumber	attno;			/* the key's column (the constraints' varno 1) */
	bool		is_date;		/* else an integer type */
	Oid			family;			/* the column's btree family */
	bool		found;
	int64		lo;
	int64		hi;
	bool		empty;			/* no value satisfies them */
} BoundsWalk;

/* Whether node is the key's column. */
static bool
is_key_column(BoundsWalk *w, Node *node)
{
	return node != NULL && IsA(node, Var) && ((Var *) node)->varno == 1 &&
		((Var *) node)->varattno == w->attno && ((Var *) node)->varlevelsup == 0;
}

/* The value of a constant of type type as the range tier reads the key
 * (the column's own numbers); false for a type of another order. */
static bool
constant_value(BoundsWalk *w, Oid type, Datum datum, int64 *value)
{
	switch (getBaseType(type))
	{
		case INT2OID:
			*value = DatumGetInt16(datum);
			return !w->is_date;
		case INT4OID:
			*value = DatumGetInt32(datum);
			return !w->is_date;
		case INT8OID:
			*value = DatumGetInt64(datum);
			return !w->is_date;
		case DATEOID:
			*value = DatumGetDateADT(datum);
			return w->is_date;
		default:
			return false;
	}
}

/* Narrow the bounds by `col strategy value`. */
static void
narrow(BoundsWalk *w, int strategy, int64 value)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			if (value == PG_INT64_MIN)
				w->empty = true;
			else
				w->hi = Min(w->hi, value - 1);
			break;
		case BTLessEqualStrategyNumber:
			w->hi = Min(w->hi, value);
			break;
		case BTEqualStrategyNumber:
			w->lo = Max(w->lo, value);
			w->hi = Min(w->hi, value);
			break;
		case BTGreaterEqualStrategyNumber:
			w->lo = Max(w->lo, value);
			break;
		case BTGreaterStrategyNumber:
			if (value == PG_INT64_MAX)
				w->empty = true;
			else
				w->lo = Max(w->lo, value + 1);
			break;
		default:
			return;
	}
	w->found = true;
}

/* `col op constant` or `constant op col`. */
static void
note_comparison(BoundsWalk *w, OpExpr *op)
{
	Node	   *left;
	Node	   *right;
	Const	   *c;
	int			strategy;
	int64		value;

	if (list_length(op->args) != 2)
		return;
	left = linitial(op->args);
	right = lsecond(op->args);
	strategy = get_op_opfamily_strategy(op->opno, w->family);
	if (strategy == 0)
		return;
	if (is_key_column(w, left) && IsA(right, Const))
		c = (Const *) right;
	else if (is_key_column(w, right) && IsA(left, Const))
	{
		c = (Const *) left;
		/* constant < col is col > constant */
		strategy = BTMaxStrategyNumber + 1 - strategy;
	}
	else
		return;
	if (c->constisnull || !constant_value(w, c->consttype, c->constvalue, &value))
		return;
	narrow(w, strategy, value);
}

/* `col = ANY (constant array)`: between its least and greatest element. */
static void
note_list(BoundsWalk *w, ScalarArrayOpExpr *sa)
{
	Const	   *c;
	ArrayType  *array;
	Oid			elemtype;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int64		lo = PG_INT64_MAX;
	int64		hi = PG_INT64_MIN;

	if (!sa->useOr || list_length(sa->args) != 2 || !is_key_column(w, linitial(sa->args)) ||
		!IsA(lsecond(sa->args), Const) ||
		get_op_opfamily_strategy(sa->opno, w->family) != BTEqualStrategyNumber)
		return;
	c = lsecond(sa->args);
	if (c->constisnull)
		return;
	array = DatumGetArrayTypeP(c->constvalue);
	elemtype = ARR_ELEMTYPE(array);
	get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
	deconstruct_array(array, elemtype, elmlen, elmbyval, elmalign, &elems, &nulls, &n);
	if (n == 0)
		return;
	for (int i = 0; i < n; i++)
	{
		int64		value;

		/* a key matching no element but a NULL one satisfies the constraint */
		if (nulls[i] || !constant_value(w, elemtype, elems[i], &value))
			return;
		lo = Min(lo, value);
		hi = Max(hi, value);
	}
	narrow(w, BTGreaterEqualStrategyNumber, lo);
	narrow(w, BTLessEqualStrategyNumber, hi);
}

/* A constraint: its AND's conjuncts, each read or left out. */
static void
note_constraint(BoundsWalk *w, Node *clause)
{
	if (clause == NULL)
		return;
	if (IsA(clause, BoolExpr) && ((BoolExpr *) clause)->boolop == AND_EXPR)
	{
		ListCell   *lc;

		foreach(lc, ((BoolExpr *) clause)->args)
			note_constraint(w, lfirst(lc));
	}
	else if (IsA(clause, List))
	{
		ListCell   *lc;

		foreach(lc, (List *) clause)
			note_constraint(w, lfirst(lc));
	}
	else if (IsA(clause, OpExpr))
		note_comparison(w, (OpExpr *) clause);
	else if (IsA(clause, ScalarArrayOpExpr))
		note_list(w, (ScalarArrayOpExpr *) clause);
}

bool
bloom_runtime_key_column(PlannedStmt *stmt, Plan *scan, Expr *key, Oid *relid, AttrNumber *attno)
{
	Index		scanrelid;
	RangeTblEntry *rte;
	Var		   *var;

	if (bloom_runtime_is_wrap(scan))
		scan = outerPlan(scan);
	if (key == NULL || !IsA(key, Var))
		return false;
	var = (Var *) key;
	if (bloom_runtime_wrappable(scan))
	{
		/* the scan's output column the filter node reads */
		TargetEntry *tle;

		if (var->varno != OUTER_VAR ||
			(tle = get_tle_by_resno(scan->targetlist, var->varattno)) == NULL)
			return false;
		var = (Var *) tle->expr;
		if (IsA(scan, IndexOnlyScan) && IsA(var, Var) && var->varno == INDEX_VAR)
		{
			tle = get_tle_by_resno(((IndexOnlyScan *) scan)->indextlist, var->varattno);
			if (tle == NULL)
				return false;
			var = (Var *) tle->expr;
		}
	}
	else if (!IsA(scan, SeqScan) && !(IsA(scan, CustomScan) && bloom_runtime_is_probe(scan)))
		return false;
	scanrelid = ((Scan *) scan)->scanrelid;
	if (var == NULL || !IsA(var, Var) || var->varno != (int) scanrelid ||
		var->varlevelsup != 0 || var->varattno <= 0 || scanrelid == 0)
		return false;
	rte = rt_fetch(scanrelid, stmt->rtable);
	if (rte->rtekind != RTE_RELATION)
		return false;
	*relid = rte->relid;
	*attno = var->varattno;
	return true;
}

bool
bloom_runtime_scan_bounds(PlannedStmt *stmt, Plan *scan, Expr *key, RuntimeKeyRange *bounds)
{
	BoundsWalk	w;
	Oid			relid;
	Oid			type;
	Relation	rel;
	TupleConstr *constr;
	Node	   *partition_qual;

	memset(&w, 0, sizeof w);
	if (!bloom_runtime_key_column(stmt, scan, key, &relid, &w.attno))
		return false;
	type = getBaseType(exprType((Node *) key));
	if (type != INT2OID && type != INT4OID && type != INT8OID && type != DATEOID)
		return false;
	w.is_date = type == DATEOID;
	/* the type cache's (GetDefaultOpClass reads pg_opclass each call) */
	w.family = lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	if (!OidIsValid(w.family))
		return false;
	w.lo = PG_INT64_MIN;
	w.hi = PG_INT64_MAX;

	/* the partition's bounds and its ancestors' (NULL: not a partition);
	 * folded, so that a list's ARRAY[...] is a constant array */
	partition_qual = (Node *) get_partition_qual_relid(relid);
	if (partition_qual != NULL)
		note_constraint(&w, eval_const_expressions(NULL, partition_qual));

	/* the validated CHECK constraints (locked by the planner already) */
	rel = table_open(relid, AccessShareLock);
	constr = RelationGetDescr(rel)->constr;
	for (int i = 0; constr != NULL && i < constr->num_check; i++)
	{
		ConstrCheck *check = &constr->check[i];

		if (!check->ccvalid || !check_constraint_enforced_compat(check))
			continue;
		note_constraint(&w, eval_const_expressions(NULL, stringToNode(check->ccbin)));
	}
	table_close(rel, AccessShareLock);

	if (!w.found)
		return false;
	if (w.empty || w.lo > w.hi)
	{
		bounds->min = 1;
		bounds->max = 0;
	}
	else
	{
		bounds->min = w.lo;
		bounds->max = w.hi;
	}
	return true;
}

/* ---- running ---- */

bool
bloom_runtime_skip_check(RuntimeSkip *skip, RuntimeProbe **filters, int nfilters)
{
	for (int f = 0; f < nfilters; f++)
	{
		RuntimeProbe *rf = filters[f];
		RuntimeKeyRange b = rf->spec.bounds;

		/* no range yet (not built, or no key at all): nothing is known */
		if (!rf->spec.has_bounds || !rf->range_present)
			continue;
		if (b.min > b.max || rf->range.max < b.min || rf->range.min > b.max)
		{
			skip->skipped = true;
			skip->count++;
			skip->filter_id = rf->spec.filter_id;
			skip->range = rf->range;
			skip->bounds = b;
			return true;
		}
	}
	return false;
}

void
bloom_runtime_explain_skip(const RuntimeSkip *skip, RuntimeProbe **filters, int nfilters,
						   ExplainState *es)
{
	bool		any = false;

	for (int f = 0; f < nfilters; f++)
	{
		RuntimeProbe *rf = filters[f];
		char		label[64];
		char	   *text;

		if (!rf->spec.has_bounds)
			continue;
		any = true;
		if (!es->verbose)
			continue;
		snprintf(label, sizeof label, "Runtime Filter %d Key Bounds", rf->spec.filter_id);
		text = rf->spec.bounds.min > rf->spec.bounds.max ? pstrdup("none") :
			psprintf(INT64_FORMAT " to " INT64_FORMAT, rf->spec.bounds.min, rf->spec.bounds.max);
		ExplainPropertyText(label, text, es);
	}
	/* only where a filter could skip the scan */
	if (es->analyze && any && (skip->count > 0 || es->format != EXPLAIN_FORMAT_TEXT))
	{
		StringInfoData buf;

		initStringInfo(&buf);
		appendStringInfo(&buf, UINT64_FORMAT, skip->count);
		if (skip->count > 0 && skip->bounds.min > skip->bounds.max)
			appendStringInfo(&buf, " (Runtime Filter %d: the relation holds no key)",
							 skip->filter_id);
		else if (skip->count > 0)
			appendStringInfo(&buf, " (Runtime Filter %d: the build keys' range " INT64_FORMAT
							 " to " INT64_FORMAT " is outside the bounds " INT64_FORMAT " to "
							 INT64_FORMAT ")", skip->filter_id, skip->range.min,
							 skip->range.max, skip->bounds.min, skip->bounds.max);
		ExplainPropertyText("Scans Skipped", buf.data, es);
	}
}
