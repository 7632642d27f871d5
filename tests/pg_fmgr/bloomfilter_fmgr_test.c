/*
 * bloomfilter_fmgr_test.c - test only: run an aggregate's transition
 * function the way Citus' worker_partial_agg_sfunc does, and return the
 * state's text form the way worker_partial_agg_ffunc does.
 *
 *   fmgr_partial_agg(agg regprocedure, value anyelement) -> text
 *   fmgr_partial_agg(agg regprocedure, value anyelement, a int8, b float8) -> text
 *   fmgr_combine_agg(agg regprocedure, state text) -> text
 *
 * and the coordinator's side as coord_combine_agg_sfunc/ffunc do: each
 * partial state through the state type's input function, combined through
 * the combine function (a new FmgrInfo per row again), then the final
 * function; the result in its text form.
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
PG_FUNCTION_INFO_V1(fmgr_combine_agg_sfunc);
PG_FUNCTION_INFO_V1(fmgr_combine_agg_ffunc);

typedef struct PartialBox
{
	Oid			transfn;
	Oid			transtype;
	int16		typlen;
	bool		typbyval;
	Datum		value;
	bool		isnull;
	/* the coordinator's side */
	Oid			combinefn;
	Oid			finalfn;
} PartialBox;

/* Keep a new state as nodeAgg (and Citus' HandleTransition) does. */
static void
keep_state(PartialBox *box, MemoryContext aggctx, Datum result, bool isnull)
{
	if (!box->typbyval && DatumGetPointer(result) != DatumGetPointer(box->value))
	{
		if (!isnull &&
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
	box->isnull = isnull;
}

/* A box for aggregate aggfn, in aggctx. */
static PartialBox *
new_box(Oid aggfn, MemoryContext aggctx)
{
	HeapTuple	tuple = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggfn));
	Form_pg_aggregate agg;
	PartialBox *box;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "%u is not an aggregate", aggfn);
	agg = (Form_pg_aggregate) GETSTRUCT(tuple);
	box = MemoryContextAllocZero(aggctx, sizeof(PartialBox));
	box->transfn = agg->aggtransfn;
	box->combinefn = agg->aggcombinefn;
	box->finalfn = agg->aggfinalfn;
	box->transtype = agg->aggtranstype;
	box->isnull = true;
	ReleaseSysCache(tuple);
	get_typlenbyval(box->transtype, &box->typlen, &box->typbyval);
	return box;
}

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
		if (PG_ARGISNULL(1))
			elog(ERROR, "fmgr_partial_agg needs an aggregate");
		box = new_box(PG_GETARG_OID(1), aggctx);
	}
	else
		box = (PartialBox *) PG_GETARG_POINTER(0);

	/* as Citus: a fresh FmgrInfo for every row, no fn_expr */
	fmgr_info(box->transfn, &info);
	if (info.fn_strict)
	{
		/* as nodeAgg and Citus: a row with a NULL skipped, the first value
		 * the state (no initial value here) */
		for (int i = 0; i < nvalues; i++)
			if (PG_ARGISNULL(i + 2))
				PG_RETURN_POINTER(box);
		if (box->isnull)
		{
			MemoryContext old = MemoryContextSwitchTo(aggctx);

			box->value = datumCopy(PG_GETARG_DATUM(2), box->typbyval, box->typlen);
			box->isnull = false;
			MemoryContextSwitchTo(old);
			PG_RETURN_POINTER(box);
		}
	}
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
	keep_state(box, aggctx, result, inner->isnull);
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

/* fmgr_combine_agg_sfunc(box internal, agg regprocedure, state text) */
Datum
fmgr_combine_agg_sfunc(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx;
	PartialBox *box;
	FmgrInfo	info;
	LOCAL_FCINFO(inner, 2);
	Oid			input,
				ioparam;
	Datum		state,
				result;

	if (!AggCheckCallContext(fcinfo, &aggctx))
		elog(ERROR, "fmgr_combine_agg_sfunc called outside an aggregate");
	if (PG_ARGISNULL(0))
	{
		if (PG_ARGISNULL(1))
			elog(ERROR, "fmgr_combine_agg needs an aggregate");
		box = new_box(PG_GETARG_OID(1), aggctx);
	}
	else
		box = (PartialBox *) PG_GETARG_POINTER(0);
	if (PG_ARGISNULL(2))
		PG_RETURN_POINTER(box);

	/* the partial state as the coordinator reads it: its type's input function */
	getTypeInputInfo(box->transtype, &input, &ioparam);
	state = OidInputFunctionCall(input, text_to_cstring(PG_GETARG_TEXT_PP(2)), ioparam, -1);

	fmgr_info(box->combinefn, &info);
	if (info.fn_strict && box->isnull)
	{
		/* a strict combine function starts from the first state, copied */
		MemoryContext old = MemoryContextSwitchTo(aggctx);

		box->value = datumCopy(state, box->typbyval, box->typlen);
		box->isnull = false;
		MemoryContextSwitchTo(old);
		PG_RETURN_POINTER(box);
	}
	InitFunctionCallInfoData(*inner, &info, 2, fcinfo->fncollation, fcinfo->context, NULL);
	inner->args[0].value = box->value;
	inner->args[0].isnull = box->isnull;
	inner->args[1].value = state;
	inner->args[1].isnull = false;
	result = FunctionCallInvoke(inner);
	keep_state(box, aggctx, result, inner->isnull);
	PG_RETURN_POINTER(box);
}

/* fmgr_combine_agg_ffunc(box internal) -> text: the final value's text form */
Datum
fmgr_combine_agg_ffunc(PG_FUNCTION_ARGS)
{
	PartialBox *box = PG_ARGISNULL(0) ? NULL : (PartialBox *) PG_GETARG_POINTER(0);
	Datum		value;
	Oid			type,
				output;
	bool		varlena;

	if (box == NULL || box->isnull)
		PG_RETURN_NULL();
	value = box->value;
	type = box->transtype;
	if (OidIsValid(box->finalfn))
	{
		FmgrInfo	info;
		LOCAL_FCINFO(inner, 1);

		fmgr_info(box->finalfn, &info);
		InitFunctionCallInfoData(*inner, &info, 1, fcinfo->fncollation, fcinfo->context, NULL);
		inner->args[0].value = value;
		inner->args[0].isnull = false;
		value = FunctionCallInvoke(inner);
		if (inner->isnull)
			PG_RETURN_NULL();
		type = get_func_rettype(box->finalfn);
	}
	getTypeOutputInfo(type, &output, &varlena);
	PG_RETURN_TEXT_P(cstring_to_text(OidOutputFunctionCall(output, value)));
}
