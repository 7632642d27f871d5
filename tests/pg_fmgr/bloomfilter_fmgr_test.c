/*
 * bloomfilter_fmgr_test.c - test only: run an aggregate's transition
 * function the way Citus' worker_partial_agg_sfunc does, and return the
 * state's text form the way worker_partial_agg_ffunc does.
 *
 *   fmgr_partial_agg(agg regprocedure, value anyelement) -> text
 *   fmgr_partial_agg(agg regprocedure, value anyelement, a int8, b float8) -> text
 *
 * For every row: a new FmgrInfo from fmgr_info() (no call expression, an
 * empty fn_extra), the aggregate's context passed on, the returned state
 * kept as nodeAgg keeps it.  Nothing here knows about bloomfilter.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_aggregate.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/expandeddatum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(fmgr_partial_agg_sfunc);
PG_FUNCTION_INFO_V1(fmgr_partial_agg_ffunc);

typedef struct PartialBox
{
	Oid			transfn;
	Oid			transtype;
	int16		typlen;
	bool		typbyval;
	Datum		value;
	bool		isnull;
} PartialBox;

/* fmgr_partial_agg_sfunc(box internal, agg regprocedure, value anyelement, ...) */
Datum
fmgr_partial_agg_sfunc(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx;
	PartialBox *box;
	FmgrInfo	info;
	LOCAL_FCINFO(inner, FUNC_MAX_ARGS);
	int			nvalues = PG_NARGS() - 2;
	Datum		result;

	if (!AggCheckCallContext(fcinfo, &aggctx))
		elog(ERROR, "fmgr_partial_agg_sfunc called outside an aggregate");
	if (PG_ARGISNULL(0))
	{
		HeapTuple	tuple;
		Form_pg_aggregate agg;

		if (PG_ARGISNULL(1))
			elog(ERROR, "fmgr_partial_agg needs an aggregate");
		tuple = SearchSysCache1(AGGFNOID, PG_GETARG_DATUM(1));
		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "%u is not an aggregate", PG_GETARG_OID(1));
		agg = (Form_pg_aggregate) GETSTRUCT(tuple);
		box = MemoryContextAllocZero(aggctx, sizeof(PartialBox));
		box->transfn = agg->aggtransfn;
		box->transtype = agg->aggtranstype;
		box->isnull = true;
		ReleaseSysCache(tuple);
		get_typlenbyval(box->transtype, &box->typlen, &box->typbyval);
	}
	else
		box = (PartialBox *) PG_GETARG_POINTER(0);

	/* as Citus: a fresh FmgrInfo for every row, no fn_expr */
	fmgr_info(box->transfn, &info);
	if (info.fn_strict)
		elog(ERROR, "fmgr_partial_agg supports non-strict transition functions only");
	InitFunctionCallInfoData(*inner, &info, nvalues + 1, fcinfo->fncollation,
							 fcinfo->context, NULL);
	inner->args[0].value = box->value;
	inner->args[0].isnull = box->isnull;
	for (int i = 0; i < nvalues; i++)
	{
		inner->args[i + 1].value = PG_GETARG_DATUM(i + 2);
		inner->args[i + 1].isnull = PG_ARGISNULL(i + 2);
	}
	result = FunctionCallInvoke(inner);

	/* keep the new state as nodeAgg (and Citus' HandleTransition) does */
	if (!box->typbyval && DatumGetPointer(result) != DatumGetPointer(box->value))
	{
		if (!inner->isnull &&
			!(DatumIsReadWriteExpandedObject(result, false, box->typlen) &&
			  MemoryContextGetParent(DatumGetEOHP(result)->eoh_context) == aggctx))
		{
			MemoryContext old = MemoryContextSwitchTo(aggctx);

			result = datumCopy(result, box->typbyval, box->typlen);
			MemoryContextSwitchTo(old);
		}
		if (!box->isnull)
		{
			if (DatumIsReadWriteExpandedObject(box->value, false, box->typlen))
				DeleteExpandedObject(box->value);
			else
				pfree(DatumGetPointer(box->value));
		}
	}
	box->value = result;
	box->isnull = inner->isnull;
	PG_RETURN_POINTER(box);
}

/* fmgr_partial_agg_ffunc(box internal) -> text: the state's output function */
Datum
fmgr_partial_agg_ffunc(PG_FUNCTION_ARGS)
{
	PartialBox *box = PG_ARGISNULL(0) ? NULL : (PartialBox *) PG_GETARG_POINTER(0);
	Oid			output;
	bool		varlena;

	if (box == NULL || box->isnull)
		PG_RETURN_NULL();
	getTypeOutputInfo(box->transtype, &output, &varlena);
	PG_RETURN_TEXT_P(cstring_to_text(OidOutputFunctionCall(output, box->value)));
}
