/*
 * aggregates.c - transition, combine and final functions of
 *
 *   bloom_agg(value)                  self-sizing: state bloom_builder (an
 *                                     expanded object in the aggregate),
 *                                     result sized for the distinct values
 *                                     at bloomfilter.default_fpr
 *   bloom_agg(value, capacity, fpr)   fixed size: state and result `bloom`
 *   bloom_union_agg(bloom)            state and result `bloom`
 *   bloom_intersect_agg(bloom)
 *
 * NULL values are skipped; no non-NULL value gives NULL.  Every state is an
 * ordinary type with text I/O, so partial states can travel as text
 * (Citus), and every combination is order-independent, so parallel plans
 * give the serial result bit for bit.
 *
 * A `bloom` state is modified in place only inside an aggregate
 * (AggCheckCallContext) and only when it is a plain in-memory value, i.e.
 * the copy nodeAgg keeps in the aggregate context; otherwise it is copied.
 */
#include "bloomfilter.h"


PG_FUNCTION_INFO_V1(bloom_agg_trans);
PG_FUNCTION_INFO_V1(bloom_agg_combine);
PG_FUNCTION_INFO_V1(bloom_agg_final);
PG_FUNCTION_INFO_V1(bloom_agg_fixed_trans);
PG_FUNCTION_INFO_V1(bloom_union_agg_trans);
PG_FUNCTION_INFO_V1(bloom_intersect_agg_trans);

static MemoryContext
agg_context(FunctionCallInfo fcinfo)
{
	MemoryContext ctx;

	if (AggCheckCallContext(fcinfo, &ctx))
		return ctx;
	return NULL;
}

/* ---- bloom_agg(value): the self-sizing builder ---- */

/* bloom_agg_trans(state bloom_builder, value T) -> bloom_builder */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx = agg_context(fcinfo);
	MemoryContext parent = aggctx ? aggctx : CurrentMemoryContext;
	BloomCallCache *cache;
	BloomAccum *acc;
	Datum		state;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	/* per row: our own state, the hasher ready: hash and append, nothing else */
	if (likely(aggctx != NULL && !PG_ARGISNULL(0) && fcinfo->flinfo->fn_extra != NULL))
	{
		acc = bloom_accum_agg_state(PG_GETARG_DATUM(0), aggctx);
		cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
		if (likely(acc != NULL && cache->hasher_ready))
		{
			bloom_accum_add(acc, bloom_hash_value(&cache->hasher, PG_GETARG_DATUM(1),
												  bloom_accum_seed(acc)));
			PG_RETURN_DATUM(PG_GETARG_DATUM(0));
		}
	}
	if (PG_ARGISNULL(0))
		state = bloom_accum_new(parent, bloomfilter_default_layout, bloomfilter_default_fpr, 0,
								&acc);
	else if (aggctx)
		state = bloom_accum_writable(PG_GETARG_DATUM(0), parent, &acc);
	else
		state = bloom_accum_copy(PG_GETARG_DATUM(0), parent, &acc);	/* never modify the argument */

	cache = bloom_call_cache(fcinfo);
	bloom_accum_add(acc, bloom_hash_value(bloom_call_hasher(fcinfo, cache, 1), PG_GETARG_DATUM(1),
										  bloom_accum_seed(acc)));
	PG_RETURN_DATUM(state);
}

/* bloom_agg_combine(a bloom_builder, b bloom_builder) -> bloom_builder (strict) */
Datum
bloom_agg_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx = agg_context(fcinfo);
	BloomAccum *acc;
	Datum		state;

	if (aggctx)
		state = bloom_accum_writable(PG_GETARG_DATUM(0), aggctx, &acc);
	else
		state = bloom_accum_copy(PG_GETARG_DATUM(0), CurrentMemoryContext, &acc);
	bloom_accum_merge(acc, PG_GETARG_DATUM(1));
	PG_RETURN_DATUM(state);
}

/* bloom_agg_final(state bloom_builder) -> bloom (strict) */
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	/* Compacting the state's runs leaves its set, the value, unchanged. */
	PG_RETURN_POINTER(bloom_accum_filter(PG_GETARG_DATUM(0)));
}

/* ---- `bloom` states ---- */

/*
 * The state argument as a writable filter: in place when nodeAgg owns it
 * (a plain value in the aggregate context), else a copy.
 */
static struct varlena *
writable_state(FunctionCallInfo fcinfo, bool in_agg, bloom_filter *f)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));

	if (in_agg && !VARATT_IS_EXTENDED(p))
	{
		bloom_parse_cached(&bloom_call_cache(fcinfo)->args[0], VARDATA(p), VARSIZE(p) - VARHDRSZ, f);
		return p;
	}
	return bloom_copy_arg(fcinfo, 0, f);
}

/* bloom_agg_fixed_trans(state bloom, value T, capacity bigint, fpr float8) -> bloom */
Datum
bloom_agg_fixed_trans(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache;
	struct varlena *state;
	bloom_filter f;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg capacity and fpr must not be null")));

	cache = bloom_call_cache(fcinfo);
	if (!cache->sizing_ready || cache->capacity != PG_GETARG_INT64(2) ||
		cache->fpr != PG_GETARG_FLOAT8(3) || cache->layout != bloomfilter_default_layout)
	{
		int64		capacity = PG_GETARG_INT64(2);
		double		fpr = PG_GETARG_FLOAT8(3);
		bloom_error err;

		bloom_check_capacity(bloomfilter_default_layout, capacity, fpr);
		cache->sizing_ready = false;
		if (bloom_params_for_capacity(bloomfilter_default_layout, (uint64) capacity, fpr,
									  &cache->nbits, &cache->nhashes, &err) != BLOOM_OK)
			bloom_raise(&err, BLOOM_SOURCE_BINARY, NULL);
		bloom_check_payload_size(bloom_serialized_size(cache->nbits), "bloom filter");
		cache->capacity = capacity;
		cache->fpr = fpr;
		cache->layout = bloomfilter_default_layout;
		cache->sizing_ready = true;
	}

	if (PG_ARGISNULL(0))
		state = bloom_make(cache->layout, cache->nbits, cache->nhashes, 0, &f);
	else
	{
		state = writable_state(fcinfo, AggCheckCallContext(fcinfo, NULL) != 0, &f);
		if (f.nbits != cache->nbits || f.nhashes != cache->nhashes || f.layout != cache->layout)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("bloom_agg capacity and fpr must be the same for every row"),
					 errdetail("The filter has nbits " UINT64_FORMAT " and nhashes %u; capacity " INT64_FORMAT " at fpr %g needs nbits " UINT64_FORMAT " and nhashes %u.",
							   f.nbits, f.nhashes, cache->capacity, cache->fpr,
							   cache->nbits, cache->nhashes)));
	}
	bloom_add_hash(&f, bloom_hash_value(bloom_call_hasher(fcinfo, cache, 1),
										PG_GETARG_DATUM(1), f.seed));
	PG_RETURN_POINTER(state);
}

/*
 * bloom_union_agg_trans(state bloom, value bloom) -> bloom (strict); also
 * the combine function of bloom_union_agg and of the fixed-size bloom_agg.
 */
Datum
bloom_union_agg_trans(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	bloom_filter dst,
				src;
	struct varlena *state = writable_state(fcinfo, AggCheckCallContext(fcinfo, NULL) != 0, &dst);
	bloom_error err;

	bloom_read_arg(fcinfo, 1, &cache->args[1], &src);
	if (bloom_union_into(&dst, &src, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "union");
	PG_RETURN_POINTER(state);
}

/* bloom_intersect_agg_trans(state bloom, value bloom) -> bloom (strict) */
Datum
bloom_intersect_agg_trans(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	bloom_filter dst,
				src;
	struct varlena *state = writable_state(fcinfo, AggCheckCallContext(fcinfo, NULL) != 0, &dst);
	bloom_error err;

	bloom_read_arg(fcinfo, 1, &cache->args[1], &src);
	if (bloom_intersect_into(&dst, &src, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "intersect");
	PG_RETURN_POINTER(state);
}
