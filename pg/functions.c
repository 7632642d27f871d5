/*
 * functions.c - the SQL functions on `bloom` values (the SQLite extension
 * has the same names and meanings):
 *
 *   bloom_empty(capacity, fpr, seed, layout)   bloom_empty_mk(nbits, nhashes, seed, layout)
 *   bloom_add(f, value)         bloom_contains(f, value)  (and @>, <@)
 *   bloom_remove(f, value)      bloom_to_classic(f)
 *   bloom_union(a, b) (|)       bloom_intersect(a, b) (&)   bloom_fold(f, nbits)
 *   bloom_cardinality(f)        bloom_intersect_cardinality(a, b)   bloom_jaccard(a, b)
 *   bloom_fpr(f)                bloom_info(f)               bloom_version()
 *   bloom_from_parquet(bytea)   bloom_to_parquet(f)
 *
 * Arguments are never modified: functions returning a filter work on a copy.
 */
#include "bloomfilter.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(bloom_empty);
PG_FUNCTION_INFO_V1(bloom_empty_float);
PG_FUNCTION_INFO_V1(bloom_empty_mk);
PG_FUNCTION_INFO_V1(bloom_add);
PG_FUNCTION_INFO_V1(bloom_remove);
PG_FUNCTION_INFO_V1(pg_bloom_to_classic);
PG_FUNCTION_INFO_V1(bloom_contains);
PG_FUNCTION_INFO_V1(bloom_contained_in);
PG_FUNCTION_INFO_V1(bloom_union);
PG_FUNCTION_INFO_V1(bloom_intersect);
PG_FUNCTION_INFO_V1(pg_bloom_fold);
PG_FUNCTION_INFO_V1(bloom_cardinality);
PG_FUNCTION_INFO_V1(bloom_intersect_cardinality);
PG_FUNCTION_INFO_V1(bloom_jaccard);
PG_FUNCTION_INFO_V1(bloom_fpr);
PG_FUNCTION_INFO_V1(bloom_info);
PG_FUNCTION_INFO_V1(bloom_version);
PG_FUNCTION_INFO_V1(pg_bloom_from_parquet);
PG_FUNCTION_INFO_V1(pg_bloom_to_parquet);

static void read_one(FunctionCallInfo fcinfo, bloom_filter *f);

/* ---- constructors ---- */

static Datum
empty_for_capacity(FunctionCallInfo fcinfo, int64 capacity)
{
	double		fpr = PG_GETARG_FLOAT8(1);
	uint64		seed = (uint64) PG_GETARG_INT64(2);
	int			layout = bloom_layout_arg(PG_GETARG_TEXT_PP(3));
	size_t		size;
	bloom_error err;
	bloom_filter f;
	struct varlena *result;

	bloom_check(bloom_empty_size(layout, capacity, fpr, BLOOM_PG_MAX_FILTER_BYTES, &size, &err),
				&err, NULL);
	result = palloc(VARHDRSZ + size);
	bloom_advise_huge_pages(result, VARHDRSZ + size);	/* fewer faults filling it */
	SET_VARSIZE(result, VARHDRSZ + size);
	bloom_check(bloom_empty_init(VARDATA(result), size, layout, capacity, fpr, seed, &f, &err),
				&err, NULL);
	PG_RETURN_POINTER(result);
}

/* bloom_empty(capacity bigint, fpr float8, seed bigint, layout text) */
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	return empty_for_capacity(fcinfo, PG_GETARG_INT64(0));
}

/*
 * bloom_empty(capacity float8, ...): a capacity written as 1e6 (numeric) or
 * computed as a double, accepted when integral, as in SQLite.
 */
Datum
bloom_empty_float(PG_FUNCTION_ARGS)
{
	int64		capacity;
	bloom_error err;

	bloom_check(bloom_int64_from_double(PG_GETARG_FLOAT8(0), "capacity", &capacity, &err), &err,
				NULL);
	return empty_for_capacity(fcinfo, capacity);
}

/* bloom_empty_mk(nbits bigint, nhashes int, seed bigint, layout text) */
Datum
bloom_empty_mk(PG_FUNCTION_ARGS)
{
	int64		nbits = PG_GETARG_INT64(0);
	int32		nhashes = PG_GETARG_INT32(1);
	uint64		seed = (uint64) PG_GETARG_INT64(2);
	int			layout = bloom_layout_arg(PG_GETARG_TEXT_PP(3));
	bloom_filter f;
	bloom_error err;

	bloom_check(bloom_size_explicit(layout, nbits, nhashes, BLOOM_PG_MAX_FILTER_BYTES, &err), &err,
				NULL);
	PG_RETURN_POINTER(bloom_make(layout, (uint64) nbits, (unsigned) nhashes, seed, &f));
}

/* ---- membership ---- */

/* bloom_add(f bloom, value anyelement): not strict; a NULL value adds nothing */
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache;
	struct varlena *result;
	bloom_filter f;
	uint64		hash;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	cache = bloom_call_cache(fcinfo);
	result = bloom_copy_arg(fcinfo, 0, &f);
	bloom_record_kind(&f, bloom_call_hasher(fcinfo, cache, 1));
	hash = bloom_hash_value(&cache->hasher, PG_GETARG_DATUM(1), f.seed);
	/* a scalable filter may grow a stage: a new value */
	PG_RETURN_POINTER(bloom_pg_insert(result, &f, &hash, 1));
}

/*
 * bloom_remove(f bloom, value anyelement): not strict; a NULL value removes
 * nothing.  Only a counting filter removes, and only a value it may hold.
 */
Datum
bloom_remove(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache;
	struct varlena *result;
	bloom_filter f;
	bloom_error err;
	uint64		hash;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	result = bloom_copy_arg(fcinfo, 0, &f);
	/* the layout first: a NULL value does not make a wrong call right */
	if (bloom_check_removable(&f, &err) != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot remove a value from a %s bloom filter", bloom_layout_name(f.layout)),
				 errdetail("%s", bloom_sentence(err.message)),
				 errhint("Build the filter with layout 'counting': bloom_empty(capacity, fpr, seed, 'counting'), or SET bloomfilter.default_layout = 'counting' for bloom_agg.")));
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(result);
	cache = bloom_call_cache(fcinfo);
	hash = bloom_hash_value(bloom_call_hasher(fcinfo, cache, 1), PG_GETARG_DATUM(1), f.seed);
	if (bloom_remove_hash(&f, hash, &err) != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot remove a value the bloom filter does not hold"),
				 errdetail("%s", bloom_sentence(err.message))));
	PG_RETURN_POINTER(result);
}

/* bloom_to_classic(f bloom) -> bloom: the classic filter of a counting filter's set */
Datum
pg_bloom_to_classic(PG_FUNCTION_ARGS)
{
	bloom_filter f,
				out;
	bloom_error err;
	size_t		size;
	struct varlena *result;

	read_one(fcinfo, &f);
	if (bloom_to_classic_size(&f, &size, &err) != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a %s bloom filter has no classic form", bloom_layout_name(f.layout)),
				 errdetail("%s", bloom_sentence(err.message))));
	result = palloc(VARHDRSZ + size);
	SET_VARSIZE(result, VARHDRSZ + size);
	if (bloom_to_classic(&f, VARDATA(result), size, &out, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
	PG_RETURN_POINTER(result);
}

/* Inlined into both operators' functions: one call a row less. */
static pg_attribute_always_inline bool
contains(FunctionCallInfo fcinfo, int filter_arg, int value_arg)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	const bloom_filter *f = bloom_cached_stored_arg(fcinfo, filter_arg, &cache->args[0]);
	bloom_filter parsed;
	BloomHasher *h;

	if (f == NULL)
	{
		bool		answer;

		if (bloom_stored_contains(fcinfo, filter_arg, value_arg, cache, &answer))
			return answer;
		bloom_read_arg(fcinfo, filter_arg, &cache->args[0], &parsed);
		f = &parsed;
	}
	h = bloom_call_hasher(fcinfo, cache, value_arg);
	if (unlikely(bloom_is_text_probe(h) && f->kinds.mask != 0))
		return bloom_text_probe_contains(bloom_call_text_probe(fcinfo, cache), h,
										 PG_GETARG_DATUM(value_arg), f);
	return bloom_contains_hash(f, bloom_hash_value(h, PG_GETARG_DATUM(value_arg), f->seed));
}

/* bloom_contains(f bloom, value anyelement) -> bool; also f @> value */
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains(fcinfo, 0, 1));
}

/* value <@ f: the commutator of @> */
Datum
bloom_contained_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains(fcinfo, 1, 0));
}

/* ---- reading arguments ---- */

static void
read_one(FunctionCallInfo fcinfo, bloom_filter *f)
{
	bloom_read_arg(fcinfo, 0, &bloom_call_cache(fcinfo)->args[0], f);
}

static void
read_two(FunctionCallInfo fcinfo, bloom_filter *a, bloom_filter *b)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);

	bloom_read_arg(fcinfo, 0, &cache->args[0], a);
	bloom_read_arg(fcinfo, 1, &cache->args[1], b);
}

/* ---- combining ---- */

/*
 * a op b as a new value (core/combine.c): a union of size classes keeps
 * each, an intersection is at the larger size; a result that saturates
 * where neither side was is an error that says what to do.
 */
static struct varlena *
combine(FunctionCallInfo fcinfo, bloom_op op, const char *what)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	bloom_filter a,
				b,
				out;
	bloom_error err;
	size_t		size;
	struct varlena *result;

	bloom_read_arg(fcinfo, 0, &cache->args[0], &a);
	bloom_read_arg(fcinfo, 1, &cache->args[1], &b);
	if (bloom_combine_size(&a, &b, op, &size, NULL, &err) != BLOOM_OK)
		bloom_raise_combine(&err, what);
	bloom_check(bloom_check_host_size(size, BLOOM_PG_MAX_FILTER_BYTES, &err), &err, NULL);
	result = palloc(VARHDRSZ + size);
	SET_VARSIZE(result, VARHDRSZ + size);
	if (bloom_combine(&a, &b, op, BLOOM_REFUSE_SATURATED, VARDATA(result), size, &out, &err) != BLOOM_OK)
		bloom_raise_combine(&err, what);
	return result;
}

Datum
bloom_union(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(combine(fcinfo, BLOOM_OP_UNION, "union"));
}

Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(combine(fcinfo, BLOOM_OP_INTERSECT, "intersect"));
}

/* bloom_fold(f bloom, nbits bigint) -> bloom: f at a size that divides its own */
Datum
pg_bloom_fold(PG_FUNCTION_ARGS)
{
	int64		nbits = PG_GETARG_INT64(1);
	bloom_filter f,
				out;
	bloom_error err;
	size_t		size;
	struct varlena *result;

	read_one(fcinfo, &f);
	if (bloom_check_fold(&f, nbits, &err) != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot fold bloom filter to " INT64_FORMAT " bits", nbits),
				 errdetail("%s", bloom_sentence(err.message)),
				 f.layout == BLOOM_LAYOUT_SCALABLE ? 0 :
				 errhint("Fold to a divisor of nbits " UINT64_FORMAT "%s.", f.nbits,
						 f.layout == BLOOM_LAYOUT_BLOCKED ? " that is a whole number of 256-bit blocks" : "")));
	size = bloom_layout_size(f.layout, (uint64) nbits);
	result = palloc(VARHDRSZ + size);
	SET_VARSIZE(result, VARHDRSZ + size);
	if (bloom_fold(&f, (uint64) nbits, VARDATA(result), size, &out, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
	PG_RETURN_POINTER(result);
}

/* ---- estimates ---- */

Datum
bloom_cardinality(PG_FUNCTION_ARGS)
{
	bloom_filter f;

	read_one(fcinfo, &f);
	PG_RETURN_FLOAT8(bloom_estimate_cardinality(&f));
}

Datum
bloom_intersect_cardinality(PG_FUNCTION_ARGS)
{
	bloom_filter a,
				b;
	bloom_error err;
	double		out;

	read_two(fcinfo, &a, &b);
	if (bloom_estimate_intersection(&a, &b, &out, &err) != BLOOM_OK)
		bloom_raise_combine(&err, "compare");
	PG_RETURN_FLOAT8(out);
}

Datum
bloom_jaccard(PG_FUNCTION_ARGS)
{
	bloom_filter a,
				b;
	bloom_error err;
	double		out;

	read_two(fcinfo, &a, &b);
	if (bloom_estimate_jaccard(&a, &b, &out, &err) != BLOOM_OK)
		bloom_raise_combine(&err, "compare");
	PG_RETURN_FLOAT8(out);
}

Datum
bloom_fpr(PG_FUNCTION_ARGS)
{
	bloom_filter f;

	read_one(fcinfo, &f);
	PG_RETURN_FLOAT8(bloom_estimate_fpr(&f));
}

/*
 * bloom_info(f) -> (layout text, nbits bigint, nhashes int, seed bigint,
 *   nbytes bigint, bits_set bigint, fill float8, est_cardinality float8,
 *   est_fpr float8, format_version int); nbytes is the bit array's size.
 */
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[10];
	bool		nulls[10] = {0};
	bloom_filter f;
	bloom_stats stats;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bloom_info must return a record");
	tupdesc = BlessTupleDesc(tupdesc);
	read_one(fcinfo, &f);
	bloom_get_stats(&f, &stats);
	values[0] = CStringGetTextDatum(bloom_layout_name(f.layout));
	values[1] = Int64GetDatum((int64) f.nbits);
	values[2] = Int32GetDatum((int32) f.nhashes);
	values[3] = Int64GetDatum((int64) f.seed);
	values[4] = Int64GetDatum((int64) f.nbytes);
	values[5] = Int64GetDatum((int64) stats.bits_set);
	values[6] = Float8GetDatum(stats.fill);
	values[7] = Float8GetDatum(stats.est_cardinality);
	values[8] = Float8GetDatum(stats.est_fpr);
	values[9] = Int32GetDatum((int32) f.version);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

Datum
bloom_version(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_TEXT_P(cstring_to_text(BLOOMFILTER_VERSION));
}

/* ---- Parquet ---- */

/* bloom_from_parquet(bitset bytea): Parquet's split-block bitset as a blocked filter */
Datum
pg_bloom_from_parquet(PG_FUNCTION_ARGS)
{
	bytea	   *bitset = PG_GETARG_BYTEA_PP(0);
	size_t		len = VARSIZE_ANY_EXHDR(bitset);
	struct varlena *result;
	bloom_filter f;
	bloom_error err;

	bloom_check(bloom_check_host_size((uint64) len + BLOOM_HEADER_SIZE, BLOOM_PG_MAX_FILTER_BYTES,
									  &err), &err, NULL);
	result = palloc(VARHDRSZ + BLOOM_HEADER_SIZE + len);
	SET_VARSIZE(result, VARHDRSZ + BLOOM_HEADER_SIZE + len);
	if (bloom_from_parquet(VARDATA_ANY(bitset), len, VARDATA(result), BLOOM_HEADER_SIZE + len,
						   &f, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "a Parquet bitset");
	PG_RETURN_POINTER(result);
}

/* bloom_to_parquet(f bloom) -> bytea: the bitset of a blocked, seed-0 filter */
Datum
pg_bloom_to_parquet(PG_FUNCTION_ARGS)
{
	bloom_filter f;
	bloom_error err;
	bytea	   *result;

	read_one(fcinfo, &f);
	if (bloom_check_parquet(&f, &err) != BLOOM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter has no Parquet bitset"),
				 errdetail("%s", bloom_sentence(err.message)),
				 errhint("Build it with layout 'blocked' and seed 0.")));
	result = palloc(VARHDRSZ + f.nbytes);
	SET_VARSIZE(result, VARHDRSZ + f.nbytes);
	memcpy(VARDATA(result), f.bits, f.nbytes);
	PG_RETURN_BYTEA_P(result);
}
