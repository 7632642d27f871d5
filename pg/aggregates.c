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

#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/expandeddatum.h"
#include "utils/syscache.h"

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

/*
 * A row with no state yet, or a state that is not the last row's: make or
 * take over the state, then add.  Apart from the per-row path, whose frame
 * then holds no error buffer (and no stack-protector canary).
 */
static pg_noinline Datum
agg_trans_new_state(FunctionCallInfo fcinfo)
{
	MemoryContext aggctx = agg_context(fcinfo);
	BloomCallCache *cache;
	bloom_builder *b;
	Datum		state;
	bloom_error err;

	if (PG_ARGISNULL(0))
		state = bloom_builder_new_datum(fcinfo, aggctx, bloomfilter_default_layout,
										bloomfilter_default_fpr, 0, &b);
	else if (aggctx)
		state = bloom_builder_writable(fcinfo, PG_GETARG_DATUM(0), aggctx, &b);
	else
	{
		/* not in an aggregate: never modify the argument */
		bloom_builder *src,
				   *tmp;

		src = bloom_builder_peek(PG_GETARG_DATUM(0), &tmp);
		state = bloom_builder_new_datum(fcinfo, NULL, bloom_builder_layout(src),
										bloom_builder_fpr(src), bloom_builder_seed(src), &b);
		if (bloom_builder_merge(b, src, &err) != BLOOM_OK)
			bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
		bloom_builder_destroy(tmp);
	}

	cache = bloom_call_cache(fcinfo);
	bloom_builder_datum_add(state, bloom_hash_value(bloom_call_hasher(fcinfo, cache, 1),
													PG_GETARG_DATUM(1),
													bloom_builder_datum_seed(state)));
	/* once per state: the rows of the fast path are of this call site's type */
	bloom_builder_datum_add_kind(state, &cache->hasher);
	/* the fast path of bloom_agg_trans, for a state past its few hashes (a
	 * small group of a GROUP BY stays here: its state is not the last
	 * row's anyway) */
	cache->agg_state = state;
	cache->agg_builder = aggctx ? bloom_builder_agg_state(state, aggctx) : NULL;
	if (cache->agg_builder != NULL)
		cache->agg_seed = bloom_builder_seed(cache->agg_builder);
	PG_RETURN_DATUM(state);
}

/* bloom_agg_trans(state bloom_builder, value T) -> bloom_builder */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	/*
	 * Per row: the state the last row returned, which was checked then to be
	 * a read-write object of this aggregate's context; nothing but the hash
	 * and the append.  (A context reset frees it, and the next row then has
	 * no state: the object made for it is the one cached.)
	 */
	cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	if (likely(cache != NULL && !PG_ARGISNULL(0) && cache->agg_builder != NULL &&
			   PG_GETARG_DATUM(0) == cache->agg_state))
	{
		if (unlikely(bloom_builder_add_hash_inline(cache->agg_builder,
											bloom_hash_value(&cache->hasher, PG_GETARG_DATUM(1),
															 cache->agg_seed),
											&cache->agg_error) != BLOOM_OK))
			bloom_raise(&cache->agg_error, BLOOM_SOURCE_STORED, "bloom_agg state");
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	return agg_trans_new_state(fcinfo);
}

static void
raise_builder_mismatch(const bloom_error *err)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("cannot combine bloom_agg states with different settings"),
			 errdetail("%s", bloom_sentence(err->message)),
			 errhint("Partial states combine only when built with the same bloomfilter.default_fpr and bloomfilter.default_layout.")));
}

/* bloom_agg_combine(a bloom_builder, b bloom_builder) -> bloom_builder (strict) */
Datum
bloom_agg_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx = agg_context(fcinfo);
	bloom_builder *dst,
			   *src,
			   *tmp_src,
			   *tmp_dst = NULL;
	Datum		state;
	bloom_error err;

	src = bloom_builder_peek(PG_GETARG_DATUM(1), &tmp_src);
	if (aggctx)
	{
		state = bloom_builder_writable(fcinfo, PG_GETARG_DATUM(0), aggctx, &dst);
		dst = bloom_builder_datum_builder(state);
	}
	else
	{
		bloom_builder *a = bloom_builder_peek(PG_GETARG_DATUM(0), &tmp_dst);

		state = bloom_builder_new_datum(fcinfo, NULL, bloom_builder_layout(a), bloom_builder_fpr(a),
										bloom_builder_seed(a), &dst);
		if (bloom_builder_merge(dst, a, &err) != BLOOM_OK)
			raise_builder_mismatch(&err);
	}
	if (bloom_builder_merge(dst, src, &err) != BLOOM_OK)
	{
		if (err.status == BLOOM_E_MISMATCH)
			raise_builder_mismatch(&err);
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_agg state");
	}
	bloom_builder_destroy(tmp_src);
	bloom_builder_destroy(tmp_dst);
	PG_RETURN_DATUM(state);
}

/* bloom_agg_final(state bloom_builder) -> bloom (strict) */
/* The core's cancel hook: a cancelled query does not return from here. */
static void
bloom_check_for_interrupts(void *ctx)
{
	(void) ctx;
	CHECK_FOR_INTERRUPTS();
}

Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	bloom_builder *tmp;
	bloom_builder *b = bloom_builder_peek(PG_GETARG_DATUM(0), &tmp);
	bloom_error err;
	bloom_filter f;
	size_t		size;
	struct varlena *result;

	/* Sizing compacts the builder's array: the set, the value, is unchanged. */
	bloom_builder_set_host(b, BLOOM_PG_MAX_FILTER_BYTES, bloom_check_for_interrupts, NULL);
	if (bloom_builder_result_size(b, &size, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom filter");
	bloom_check(bloom_check_host_size(size, BLOOM_PG_MAX_FILTER_BYTES, &err), &err, NULL);
	result = palloc(VARHDRSZ + size);
	bloom_advise_huge_pages(result, VARHDRSZ + size);	/* fewer faults filling it */
	SET_VARSIZE(result, VARHDRSZ + size);
	if (bloom_builder_finish(b, VARDATA(result), size, &f, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom filter");
	bloom_builder_destroy(tmp);
	PG_RETURN_POINTER(result);
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

/* A state's filter must have the size this row's capacity and fpr give. */
static void
check_fixed_sizing(const BloomCallCache *cache, const bloom_filter *f)
{
	if (f->nbits != cache->nbits || f->nhashes != cache->nhashes || f->layout != cache->layout)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_agg capacity and fpr must be the same for every row"),
				 errdetail("The filter has nbits " UINT64_FORMAT " and nhashes %u; capacity " INT64_FORMAT " at fpr %g needs nbits " UINT64_FORMAT " and nhashes %u.",
						   f->nbits, f->nhashes, cache->capacity, cache->fpr,
						   cache->nbits, cache->nhashes)));
}

/*
 * bloom_agg_fixed_trans(state bloom, value T, capacity bigint, fpr float8) -> bloom:
 * the state modified in place inside an aggregate, a filter of 64 KiB or
 * more in batches (fixed_agg_state.c)
 */
Datum
bloom_agg_fixed_trans(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	MemoryContext aggctx;
	BloomFixedAgg *batched = NULL;
	Datum		batched_state = (Datum) 0;
	struct varlena *state;
	bloom_filter f;

	/* per row, the state the last row returned (batched, or flat and
	 * modified in place), with the same parameters (checked then) */
	if (likely(cache != NULL && (cache->fixed_agg != NULL || cache->fixed_flat) &&
			   !PG_ARGISNULL(0) && !PG_ARGISNULL(1) && PG_GETARG_DATUM(0) == cache->agg_state &&
			   !PG_ARGISNULL(2) && !PG_ARGISNULL(3) && PG_GETARG_INT64(2) == cache->capacity &&
			   PG_GETARG_FLOAT8(3) == cache->fpr && cache->layout == bloomfilter_default_layout))
	{
		uint64		hash = bloom_hash_value(&cache->hasher, PG_GETARG_DATUM(1), cache->agg_seed);

		if (cache->fixed_agg != NULL)
			bloom_fixed_agg_add(cache->fixed_agg, hash);
		else
			bloom_add_hash(&cache->flat_view, hash);
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}

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
	/* armed again below only for a flat state this call modifies in place:
	 * any other state may be new memory at the last one's address */
	cache->fixed_flat = false;
	if (!cache->sizing_ready || cache->capacity != PG_GETARG_INT64(2) ||
		cache->fpr != PG_GETARG_FLOAT8(3) || cache->layout != bloomfilter_default_layout)
	{
		int64		capacity = PG_GETARG_INT64(2);
		double		fpr = PG_GETARG_FLOAT8(3);
		bloom_error err;

		cache->sizing_ready = false;
		cache->fixed_agg = NULL;
		bloom_check(bloom_size_for_capacity(bloomfilter_default_layout, capacity, fpr,
											BLOOM_PG_MAX_FILTER_BYTES, &cache->nbits,
											&cache->nhashes, &err), &err, NULL);
		cache->capacity = capacity;
		cache->fpr = fpr;
		cache->layout = bloomfilter_default_layout;
		cache->sizing_ready = true;
	}

	aggctx = agg_context(fcinfo);
	if (PG_ARGISNULL(0) && aggctx != NULL && bloom_fixed_agg_batches(cache->layout, cache->nbits))
		batched_state = bloom_fixed_agg_new(aggctx, cache->layout, cache->nbits, cache->nhashes,
											&batched);
	else if (!PG_ARGISNULL(0) && (batched = bloom_fixed_agg_of(PG_GETARG_DATUM(0), aggctx)) != NULL)
	{
		batched_state = PG_GETARG_DATUM(0);
		check_fixed_sizing(cache, bloom_fixed_agg_filter(batched));
	}
	if (batched != NULL)
	{
		/* filled a batch at a time: the next rows take the path above */
		uint64		seed = bloom_fixed_agg_filter(batched)->seed;

		bloom_fixed_agg_add(batched, bloom_hash_value(bloom_call_hasher(fcinfo, cache, 1),
													  PG_GETARG_DATUM(1), seed));
		bloom_fixed_agg_add_kind(batched, &cache->hasher);
		cache->agg_state = batched_state;
		cache->agg_builder = NULL;
		cache->fixed_agg = batched;
		cache->agg_seed = seed;
		PG_RETURN_DATUM(batched_state);
	}

	if (PG_ARGISNULL(0))
		state = bloom_make(cache->layout, cache->nbits, cache->nhashes, 0, &f);
	else
	{
		state = writable_state(fcinfo, aggctx != NULL, &f);
		check_fixed_sizing(cache, &f);
	}
	bloom_record_kind(&f, bloom_call_hasher(fcinfo, cache, 1));
	bloom_add_hash(&f, bloom_hash_value(&cache->hasher, PG_GETARG_DATUM(1), f.seed));
	if (aggctx != NULL && !PG_ARGISNULL(0) && PointerGetDatum(state) == PG_GETARG_DATUM(0))
	{
		/* nodeAgg passes this state back to the next row of its group */
		cache->agg_state = PG_GETARG_DATUM(0);
		cache->agg_builder = NULL;
		cache->fixed_agg = NULL;
		cache->fixed_flat = true;
		cache->flat_view = f;
		cache->agg_seed = f.seed;
	}
	PG_RETURN_POINTER(state);
}

/*
 * Combine the filter argument into the state with op: in place when the
 * result keeps the state's shape (members of one size class), else a new
 * value (a union of size classes keeps each, an intersection is at the
 * larger size), which nodeAgg copies into its context in the state's place.
 * fixed_partials: the two are partial states of the fixed-size bloom_agg,
 * which must have the one size its transition allows.
 */
static Datum
combine_into_state(FunctionCallInfo fcinfo, bloom_op op, unsigned flags, bool fixed_partials,
				   const char *what)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	bloom_filter dst,
				src;
	struct varlena *state = writable_state(fcinfo, AggCheckCallContext(fcinfo, NULL) != 0, &dst);
	struct varlena *result = state;
	bloom_error err;
	size_t		size;
	bool		in_place;

	bloom_read_arg(fcinfo, 1, &cache->args[1], &src);
	/* as the transition refuses a row of another size (check_fixed_sizing):
	 * parts of the input sized differently must not make a union of sizes */
	if (fixed_partials &&
		(dst.nbits != src.nbits || dst.nhashes != src.nhashes || dst.layout != src.layout))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_agg capacity and fpr must be the same for every row"),
				 errdetail("The partial filters have nbits " UINT64_FORMAT " and nhashes %u, and nbits " UINT64_FORMAT " and nhashes %u.",
						   dst.nbits, dst.nhashes, src.nbits, src.nhashes)));
	if (bloom_combine_size(&dst, &src, op, &size, &in_place, &err) != BLOOM_OK)
		bloom_raise_combine(&err, what);
	if (!in_place)
	{
		bloom_check(bloom_check_host_size(size, BLOOM_PG_MAX_FILTER_BYTES, &err), &err, NULL);
		result = palloc(VARHDRSZ + size);
	}
	if (bloom_combine(&dst, &src, op, flags, VARDATA(result), size, &dst, &err) != BLOOM_OK)
		bloom_raise_combine(&err, what);
	SET_VARSIZE(result, VARHDRSZ + size);
	PG_RETURN_POINTER(result);
}

/* What a call of bloom_union_agg_trans serves (BloomCallCache.union_role). */
typedef enum BloomUnionRole
{
	BLOOM_UNION_UNKNOWN = 0,
	BLOOM_UNION_ROLLUP,			/* bloom_union_agg: its transition and combine */
	BLOOM_UNION_FIXED_PARTIALS	/* the combine of bloom_agg(x, capacity, fpr) */
} BloomUnionRole;

/* The role of function fn in aggregate aggfn; BLOOM_UNION_UNKNOWN when fn
 * is not its transition or combine function (or aggfn no aggregate). */
static BloomUnionRole
union_role_in(Oid aggfn, Oid fn)
{
	HeapTuple	tuple = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(aggfn));
	BloomUnionRole role = BLOOM_UNION_UNKNOWN;

	if (HeapTupleIsValid(tuple))
	{
		Form_pg_aggregate agg = (Form_pg_aggregate) GETSTRUCT(tuple);

		if (agg->aggtransfn == fn)
			role = BLOOM_UNION_ROLLUP;
		else if (agg->aggcombinefn == fn)
			role = BLOOM_UNION_FIXED_PARTIALS;
		ReleaseSysCache(tuple);
	}
	return role;
}

/*
 * The aggregate a call runs for decides, not the plan: the Aggref's, or,
 * when that one is a wrapper running another aggregate's support functions
 * (Citus' worker_partial_agg and coord_combine_agg, and their binary
 * forms, take the aggregate as their first argument, a constant), the one
 * it names.  Outside an aggregate (a direct call) and in a window, where
 * only the transition runs, a rollup.
 */
static BloomUnionRole
find_union_role(FunctionCallInfo fcinfo)
{
	Aggref	   *ref = AggGetAggref(fcinfo);
	Oid			fn = fcinfo->flinfo->fn_oid;
	BloomUnionRole role;
	Node	   *first;

	if (ref == NULL)
		return BLOOM_UNION_ROLLUP;
	role = union_role_in(ref->aggfnoid, fn);
	if (role == BLOOM_UNION_UNKNOWN && ref->args != NIL)
	{
		first = (Node *) ((TargetEntry *) linitial(ref->args))->expr;
		while (IsA(first, RelabelType))
			first = (Node *) ((RelabelType *) first)->arg;
		if (IsA(first, Const) && !((Const *) first)->constisnull &&
			(((Const *) first)->consttype == OIDOID ||
			 ((Const *) first)->consttype == REGPROCEDUREOID))
			role = union_role_in(DatumGetObjectId(((Const *) first)->constvalue), fn);
	}
	return role == BLOOM_UNION_FIXED_PARTIALS ? role : BLOOM_UNION_ROLLUP;
}

/*
 * bloom_union_agg_trans(state bloom, value bloom) -> bloom (strict): the
 * transition and combine function of bloom_union_agg and the combine
 * function of the fixed-size bloom_agg.  An answer never depends on the
 * plan (serial, parallel, partial states of Citus shards):
 * - bloom_union_agg refuses a union that saturates where neither side was
 *   (a rollup with no good result says so), in the transition and in the
 *   combine alike.  A state is saturated only when one of its inputs was
 *   (a union never clears a bit, and the transition refused any other
 *   saturation), so two partial states, each unsaturated, that saturate
 *   combined are refused as the serial transition refuses their inputs.
 * - bloom_agg(x, capacity, fpr) adds every value to one filter without a
 *   word however full, so its partial states combine without that rule,
 *   but must have the one size its transition allows.
 */
Datum
bloom_union_agg_trans(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);

	if (cache->union_role == BLOOM_UNION_UNKNOWN)
		cache->union_role = find_union_role(fcinfo);
	if (cache->union_role == BLOOM_UNION_FIXED_PARTIALS)
		return combine_into_state(fcinfo, BLOOM_OP_UNION, 0, true, "union");
	return combine_into_state(fcinfo, BLOOM_OP_UNION, BLOOM_REFUSE_SATURATED, false, "union");
}

/*
 * bloom_intersect_agg_trans(state bloom, value bloom) -> bloom (strict): an
 * intersection saturated where neither side was (unions of size classes
 * near saturation, core/combine.c) is refused, as bloom_intersect's.
 */
Datum
bloom_intersect_agg_trans(PG_FUNCTION_ARGS)
{
	return combine_into_state(fcinfo, BLOOM_OP_INTERSECT, BLOOM_REFUSE_SATURATED, false,
							  "intersect");
}
