/*
 * planner_support.c - the planner support function of bloom_contains and
 * contained_in_bloom (the functions behind @> and <@), one for the three
 * subsystems that plan around a probe:
 *
 *   the bitslice index        SupportRequestIndexCondition: a probe of an
 *                             indexed column becomes an index condition of
 *                             a bloom_bitslice index (bitslice_plan.c)
 *   costs                     SupportRequestCost: a probe of a column of
 *                             stored filters costs what reading a filter a
 *                             row costs (probe_cost below)
 *   remote runtime filters    SupportRequestSelectivity: a probe of a
 *                             placeholder filter, the condition of a remote
 *                             runtime filter while the query is planned
 *                             (runtime_filter_plan.c), keeps every row, so
 *                             that the plan is the one without it
 *
 * and bloom_probe_filter_argno, which tells a probe from another call for
 * these and for the batched probe scan's planning (batched_probe_scan.c).
 */
#include "bloomfilter.h"
#include "bitslice.h"
#include "runtime_filter.h"

#include "access/htup_details.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "nodes/supportnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

/*
 * Which argument of function funcid is the filter: 0 for bloom_contains
 * (and @>), 1 for contained_in_bloom (<@), -1 for any other function.  The
 * SQL names may live in any schema; the C function is what identifies them.
 */
int
bloom_probe_filter_argno(Oid funcid)
{
	HeapTuple	tuple;
	bool		candidate = false;
	FmgrInfo	flinfo;

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		return -1;
	if (((Form_pg_proc) GETSTRUCT(tuple))->prolang == ClanguageId)
	{
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc, &isnull);

		if (!isnull)
		{
			char	   *name = TextDatumGetCString(src);

			candidate = strcmp(name, "bloom_contains") == 0 ||
				strcmp(name, "bloom_contained_in") == 0;
			pfree(name);
		}
	}
	ReleaseSysCache(tuple);
	if (!candidate)
		return -1;
	/* the same symbol of another library is not ours */
	fmgr_info(funcid, &flinfo);
	if (flinfo.fn_addr == bloom_contains)
		return 0;
	if (flinfo.fn_addr == bloom_contained_in)
		return 1;
	return -1;
}

/*
 * A probe whose filter differs from row to row (a column of stored
 * filters) reads a filter on every row: detoasted whole, or its header and
 * the TOAST chunks it probes, microseconds against the nanoseconds of a
 * comparison.  It is charged a SQL function's default cost, 100 operator
 * costs, so that the planner tests a row's cheap quals first: left at the
 * function's cost of 1, the probe went ahead of an equality on the day or
 * tenant (the planner puts the quals it derives from equalities last), and
 * read every row's filter.  A filter that is the same for the whole scan
 * keeps the function's cost.
 */
#define STORED_PROBE_COST 100

static Node *
probe_cost(SupportRequestCost *req)
{
	List	   *args;
	int			argno;

	if (req->node != NULL && IsA(req->node, FuncExpr))
		args = ((FuncExpr *) req->node)->args;
	else if (req->node != NULL && IsA(req->node, OpExpr))
		args = ((OpExpr *) req->node)->args;
	else
		return NULL;
	if (list_length(args) != 2)
		return NULL;
	argno = bloom_probe_filter_argno(req->funcid);
	if (argno < 0 || !contain_var_clause(list_nth(args, argno)))
		return NULL;
	req->per_tuple = STORED_PROBE_COST * cpu_operator_cost;
	return (Node *) req;
}

/*
 * bloom_contains_support(internal): the planner calls it while it simplifies
 * a query, before it plans the scans, which loads this module, and so
 * installs the batched probe scan's hook in a session that has not used a
 * filter yet.
 */
PG_FUNCTION_INFO_V1(bloom_contains_support);

Datum
bloom_contains_support(PG_FUNCTION_ARGS)
{
	Node	   *request = (Node *) PG_GETARG_POINTER(0);

	if (IsA(request, SupportRequestIndexCondition))
		PG_RETURN_POINTER(bs_index_condition(request));
	if (IsA(request, SupportRequestCost))
		PG_RETURN_POINTER(probe_cost((SupportRequestCost *) request));
	if (IsA(request, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) request;

		if (list_length(req->args) == 2 && bloom_runtime_is_placeholder(linitial(req->args)))
		{
			req->selectivity = 1.0;
			PG_RETURN_POINTER(req);
		}
	}
	PG_RETURN_POINTER(NULL);
}

