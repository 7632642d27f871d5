/*
 * arrays.c - many values in one call (the SQLite extension has the same
 * names, taking a JSON array):
 *
 *   bloom_add_all(f, anyarray)        f with every element added
 *   bloom_contains_all(f, anyarray)   every element may be in f
 *   bloom_contains_any(f, anyarray)   some element may be in f
 *
 * Each element is hashed as bloom_add/bloom_contains hash that value alone
 * (docs/HASHING.md), so bloom_add_all(f, ARRAY[1,2]) is
 * bloom_add(bloom_add(f, 1), 2).  A multi-dimensional array is read in
 * storage order, as unnest() and = ANY read it.  NULL elements follow
 * = ALL / = ANY: adding one adds nothing; a NULL element makes
 * bloom_contains_all NULL unless some element is certainly absent, and
 * bloom_contains_any NULL unless some element may be present.
 *
 * An untyped literal, '{1,2}' or NULL, matches every array overload alike;
 * the *_literal entry points take it as the `unknown` it is and read it as
 * text[], as bloom_contains(f, 'x') reads an untyped 'x' as text.
 */
#include "bloomfilter.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

PG_FUNCTION_INFO_V1(bloom_add_all);
PG_FUNCTION_INFO_V1(bloom_contains_all);
PG_FUNCTION_INFO_V1(bloom_contains_any);
PG_FUNCTION_INFO_V1(bloom_add_all_literal);
PG_FUNCTION_INFO_V1(bloom_contains_all_literal);
PG_FUNCTION_INFO_V1(bloom_contains_any_literal);

/* What a call site keeps in fn_extra: its filter argument and the hasher
 * of the element type, redone if the element type changes. */
typedef struct ArrayCallCache
{
	BloomArgCache filter;
	Oid			elemtype;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	BloomHasher hasher;
	BloomTextProbe *text_probe;
} ArrayCallCache;

static ArrayCallCache *
array_call_cache(FunctionCallInfo fcinfo, Oid elemtype)
{
	ArrayCallCache *cache = (ArrayCallCache *) fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof *cache);
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->elemtype != elemtype)
	{
		get_typlenbyvalalign(elemtype, &cache->typlen, &cache->typbyval, &cache->typalign);
		bloom_hasher_init_type(&cache->hasher, elemtype, fcinfo->flinfo->fn_mcxt);
		cache->elemtype = elemtype;
	}
	return cache;
}

/* An iterator over every element of the array argument argno (an
 * untyped literal's text when literal). */
static ArrayIterator
array_elements(FunctionCallInfo fcinfo, int argno, bool literal, ArrayCallCache **cache)
{
	ArrayType  *arr;

	if (literal)				/* an unknown's datum is its C string */
		arr = DatumGetArrayTypeP(OidInputFunctionCall(F_ARRAY_IN,
													  DatumGetCString(PG_GETARG_DATUM(argno)),
													  TEXTOID, -1));
	else						/* detoasted, and flattened if expanded */
		arr = PG_GETARG_ARRAYTYPE_P(argno);

	*cache = array_call_cache(fcinfo, ARR_ELEMTYPE(arr));
	return array_create_iterator(arr, 0, NULL);
}

/* bloom_add_all(f bloom, values anyarray): not strict, like bloom_add */
static Datum
add_all(FunctionCallInfo fcinfo, bool literal)
{
	ArrayCallCache *cache;
	ArrayIterator it;
	struct varlena *result;
	bloom_filter f;
	Datum		value;
	bool		isnull;
	uint64		n = 0,
				batch[256];
	size_t		nbatch = 0;
	bool		recorded = false;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	result = bloom_copy_arg(fcinfo, 0, &f);
	it = array_elements(fcinfo, 1, literal, &cache);
	/* in order, a batch at a time: a scalable filter may grow a stage (a
	 * new value), and a large filter prefetches a batch's lines */
	while (array_iterate(it, &value, &isnull))
	{
		if ((++n & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		if (!isnull)
		{
			if (!recorded)
				bloom_record_kind(&f, &cache->hasher);
			recorded = true;
			batch[nbatch++] = bloom_hash_value(&cache->hasher, value, f.seed);
		}
		if (nbatch == lengthof(batch))
		{
			result = bloom_pg_insert(result, &f, batch, nbatch);
			nbatch = 0;
		}
	}
	array_free_iterator(it);
	PG_RETURN_POINTER(bloom_pg_insert(result, &f, batch, nbatch));
}

/*
 * bloom_contains_all (want_all) and bloom_contains_any: SQL's three-valued
 * ALL / ANY over the elements' answers, stopping at the first batch that
 * decides the result.  The hashes are probed a batch at a time, so that a
 * large filter's misses overlap; batches grow from 8 to 256 elements, so an
 * early decision hashes at most twice the elements it needed.
 */
static Datum
contains_many(FunctionCallInfo fcinfo, bool want_all, bool literal)
{
	ArrayCallCache *cache;
	ArrayIterator it = array_elements(fcinfo, 1, literal, &cache);
	bloom_filter f;
	Datum		value;
	bool		isnull;
	bool		saw_null = false;
	bool		decided = false;
	uint64		n = 0,
				batch[256];
	size_t		nbatch = 0,
				room = 8;

	bloom_read_arg(fcinfo, 0, &cache->filter, &f);
	while (!decided && array_iterate(it, &value, &isnull))
	{
		if ((++n & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		if (isnull)
		{
			saw_null = true;
			continue;
		}
		if (unlikely(bloom_is_text_probe(&cache->hasher) && f.kinds.mask != 0))
		{
			/* each element read as the filter's values, one at a time */
			if (cache->text_probe == NULL)
				cache->text_probe = bloom_text_probe_create(fcinfo->flinfo->fn_mcxt);
			decided = bloom_text_probe_contains(cache->text_probe, &cache->hasher, value, &f) ==
				!want_all;
			continue;
		}
		batch[nbatch++] = bloom_hash_value(&cache->hasher, value, f.seed);
		if (nbatch == room)
		{
			decided = bloom_contains_first(&f, batch, nbatch, !want_all) < nbatch;
			nbatch = 0;
			room = Min(2 * room, lengthof(batch));
		}
	}
	if (!decided)
		decided = bloom_contains_first(&f, batch, nbatch, !want_all) < nbatch;
	array_free_iterator(it);
	if (decided)
		PG_RETURN_BOOL(!want_all);
	if (saw_null)
		PG_RETURN_NULL();
	PG_RETURN_BOOL(want_all);
}

/* bloom_add_all(f bloom, values anyarray) */
Datum
bloom_add_all(PG_FUNCTION_ARGS)
{
	return add_all(fcinfo, false);
}

/* bloom_contains_all(f bloom, values anyarray) -> bool (true for an empty array) */
Datum
bloom_contains_all(PG_FUNCTION_ARGS)
{
	return contains_many(fcinfo, true, false);
}

/* bloom_contains_any(f bloom, values anyarray) -> bool (false for an empty array) */
Datum
bloom_contains_any(PG_FUNCTION_ARGS)
{
	return contains_many(fcinfo, false, false);
}

/* bloom_add_all(f bloom, values unknown): a NULL adds nothing */
Datum
bloom_add_all_literal(PG_FUNCTION_ARGS)
{
	return add_all(fcinfo, true);
}

Datum
bloom_contains_all_literal(PG_FUNCTION_ARGS)
{
	return contains_many(fcinfo, true, true);
}

Datum
bloom_contains_any_literal(PG_FUNCTION_ARGS)
{
	return contains_many(fcinfo, false, true);
}
