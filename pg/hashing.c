/*
 * hashing.c - canonical hashing of Datums (docs/HASHING.md): a value hashes
 * the same whatever column type holds it, and the same as in SQLite.
 *
 *   int2, int4, int8, oid, bool (0/1)   bloom_hash_int64
 *   float4 (widened), float8            bloom_hash_double (integral values
 *                                       hash as int64)
 *   numeric                             integral and within int64: as int64;
 *                                       otherwise as the nearest float8;
 *                                       beyond float8's range: the bytes of
 *                                       its normalized text (numeric_normalize)
 *   text, varchar, bytea                the bytes
 *   char(n)                             the bytes without trailing blanks
 *   name                                the bytes up to the terminator
 *   anything else                       the bytes of its binary send function
 *   a domain                            as its base type
 *
 * The kind is looked up once per call site (fn_extra) by the callers; for a
 * call without a call expression (Citus), once per backend and function.
 */
#include "bloomfilter.h"

#include <errno.h>
#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#include "access/transam.h"

PG_FUNCTION_INFO_V1(bloom_hash);

/* The kind (and send function, in mcxt) of a hasher for values of typid
 * (also for an array's element type, arrays.c). */
void
bloom_hasher_init_type(BloomHasher *h, Oid typid, MemoryContext mcxt)
{
	Oid			base;

	memset(h, 0, sizeof *h);
	h->typid = typid;
	base = getBaseType(typid);
	h->value_class = BLOOM_KIND_NUMBER;
	switch (base)
	{
		case INT2OID:
			h->kind = BLOOM_HK_INT2;
			break;
		case INT4OID:
			h->kind = BLOOM_HK_INT4;
			break;
		case INT8OID:
			h->kind = BLOOM_HK_INT8;
			break;
		case BOOLOID:
			h->kind = BLOOM_HK_BOOL;
			break;
		case OIDOID:
			h->kind = BLOOM_HK_OID;
			break;
		case FLOAT4OID:
			h->kind = BLOOM_HK_FLOAT4;
			break;
		case FLOAT8OID:
			h->kind = BLOOM_HK_FLOAT8;
			break;
		case NUMERICOID:
			h->kind = BLOOM_HK_NUMERIC;
			break;
		case TEXTOID:
		case VARCHAROID:
			h->kind = BLOOM_HK_TEXT;
			h->value_class = BLOOM_KIND_TEXT;
			break;
		case BYTEAOID:
			h->kind = BLOOM_HK_TEXT;	/* the bytes, as text's; a class of its own */
			h->value_class = BLOOM_KIND_BYTES;
			break;
		case BPCHAROID:
			h->kind = BLOOM_HK_BPCHAR;
			h->value_class = BLOOM_KIND_TEXT;
			break;
		case NAMEOID:
			h->kind = BLOOM_HK_NAME;
			h->value_class = BLOOM_KIND_TEXT;
			break;
		default:
			{
				Oid			send;
				bool		varlena;

				if (base == UNKNOWNOID)
					ereport(ERROR,
							(errcode(ERRCODE_INDETERMINATE_DATATYPE),
							 errmsg("could not determine the type of the value to hash"),
							 errhint("Add an explicit cast, for example 'abc'::text.")));
				getTypeBinaryOutputInfo(base, &send, &varlena);
				h->send = MemoryContextAlloc(mcxt, sizeof(FmgrInfo));
				fmgr_info_cxt(send, h->send, mcxt);
				h->kind = BLOOM_HK_SEND;
				h->value_class = BLOOM_KIND_TYPED;
				h->class_oid = base < FirstNormalObjectId ? base : InvalidOid;
			}
			break;
	}
}

/*
 * Hashers of calls without a call expression, by (function, argument).
 *
 * Citus calls the transition function of an aggregate it distributes
 * through fmgr_info() with no expression, and builds a new FmgrInfo for
 * every row (worker_partial_agg_sfunc), so nothing cached in fn_extra
 * survives a row.  The argument's type is then the function's declared
 * argument type, which the concrete overloads (bloom_agg(int4), ...) fix;
 * it is resolved from the catalog once per backend and kept here.  A
 * change to any function (pg_proc invalidation) re-resolves entries.
 * Entries are never freed: a hasher copied from one keeps pointing at its
 * send function.
 */
typedef struct DeclaredHasherKey
{
	Oid			fn_oid;
	int			argno;
} DeclaredHasherKey;

typedef struct DeclaredHasher
{
	DeclaredHasherKey key;		/* hash key: first */
	uint64		generation;
	BloomHasher hasher;
} DeclaredHasher;

static HTAB *declared_hashers = NULL;
static MemoryContext declared_hashers_cxt = NULL;
static uint64 declared_generation = 1;

static void
declared_hashers_invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	(void) hashvalue;
	declared_generation++;
}

/* The declared type of argument argno of fn_oid: concrete, or an error. */
static Oid
declared_argtype(Oid fn_oid, int argno)
{
	HeapTuple	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn_oid));
	Form_pg_proc proc;
	Oid			typid;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for function %u", fn_oid);
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	if (argno < 0 || argno >= proc->pronargs)
		elog(ERROR, "function %u has no argument %d", fn_oid, argno);
	typid = proc->proargtypes.values[argno];
	ReleaseSysCache(tuple);
	if (IsPolymorphicType(typid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("could not determine the type of the value to hash"),
				 errdetail("Function %s was called without a call expression (as Citus calls the transition function of an aggregate it distributes), and its argument %d has the polymorphic type %s.",
						   format_procedure(fn_oid), argno + 1, format_type_be(typid)),
				 errhint("Use an overload of a concrete type (every hashable built-in type has one), or hash the value's binary form, which gives the same filter: bloom_agg(array_send(x)) for bloom_agg(x) of an array x.")));
	return typid;
}

static const BloomHasher *
declared_hasher(Oid fn_oid, int argno)
{
	DeclaredHasherKey key;
	DeclaredHasher *entry;
	bool		found;

	if (declared_hashers == NULL)
	{
		HASHCTL		ctl;

		declared_hashers_cxt = bloom_context_create(TopMemoryContext,
													 "bloomfilter declared-type hashers",
													 ALLOCSET_SMALL_SIZES);
		memset(&ctl, 0, sizeof ctl);
		ctl.keysize = sizeof(DeclaredHasherKey);
		ctl.entrysize = sizeof(DeclaredHasher);
		ctl.hcxt = declared_hashers_cxt;
		declared_hashers = hash_create("bloomfilter declared-type hashers", 64, &ctl,
									   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterSyscacheCallback(PROCOID, declared_hashers_invalidate, (Datum) 0);
	}
	memset(&key, 0, sizeof key);
	key.fn_oid = fn_oid;
	key.argno = argno;
	entry = hash_search(declared_hashers, &key, HASH_ENTER, &found);
	if (!found)
		entry->generation = 0;	/* not resolved yet */
	if (entry->generation != declared_generation)
	{
		uint64		generation = declared_generation;

		/* resolve before stamping: an error leaves the entry unresolved */
		bloom_hasher_init_type(&entry->hasher, declared_argtype(fn_oid, argno), declared_hashers_cxt);
		entry->generation = generation;
	}
	return &entry->hasher;
}

void
bloom_hasher_init(BloomHasher *h, FunctionCallInfo fcinfo, int argno)
{
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, argno);

	if (OidIsValid(typid))
		bloom_hasher_init_type(h, typid, fcinfo->flinfo->fn_mcxt);
	else if (fcinfo->flinfo->fn_expr == NULL && OidIsValid(fcinfo->flinfo->fn_oid))
		*h = *declared_hasher(fcinfo->flinfo->fn_oid, argno);
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine the type of the value to hash")));
}

static uint64
canonical_numeric_hash(Numeric num, uint64 seed)
{
	char	   *str;
	uint64		hash;

	if (numeric_is_nan(num))
		return bloom_hash_double(NAN, seed);
	if (numeric_is_inf(num))
	{
		str = numeric_normalize(num);
		hash = bloom_hash_double(str[0] == '-' ? -INFINITY : INFINITY, seed);
		pfree(str);
		return hash;
	}
	/* Shortest exact text, no trailing fractional zeros: "-12", "0.5". */
	str = numeric_normalize(num);
	if (strchr(str, '.') == NULL)
	{
		char	   *end;
		long long	v;

		errno = 0;
		v = strtoll(str, &end, 10);
		if (errno == 0 && *end == '\0')
		{
			pfree(str);
			return bloom_hash_int64((int64) v, seed);
		}
	}
	{
		/* strtod rounds correctly, as float8in does: 0.1 hashes as 0.1::float8 */
		double		d = strtod(str, NULL);

		if (isinf(d))
			hash = bloom_hash_bytes(str, strlen(str), seed);
		else
			hash = bloom_hash_double(d, seed);
	}
	pfree(str);
	return hash;
}

static uint64
hash_varlena(Datum value, uint64 seed, bool trim_blanks)
{
	struct varlena *p = PG_DETOAST_DATUM_PACKED(value);
	const char *data = VARDATA_ANY(p);
	size_t		len = VARSIZE_ANY_EXHDR(p);
	uint64		hash;

	if (trim_blanks)
		while (len > 0 && data[len - 1] == ' ')
			len--;
	hash = bloom_hash_bytes(data, len, seed);
	if ((Pointer) p != DatumGetPointer(value))
		pfree(p);
	return hash;
}

uint64
bloom_hash_datum(BloomHasher *h, Datum value, uint64 seed)
{
	switch (h->kind)
	{
		case BLOOM_HK_INT8:
			return bloom_hash_int64(DatumGetInt64(value), seed);
		case BLOOM_HK_INT4:
			return bloom_hash_int64(DatumGetInt32(value), seed);
		case BLOOM_HK_INT2:
			return bloom_hash_int64(DatumGetInt16(value), seed);
		case BLOOM_HK_BOOL:
			return bloom_hash_int64(DatumGetBool(value) ? 1 : 0, seed);
		case BLOOM_HK_OID:
			return bloom_hash_int64((int64) DatumGetObjectId(value), seed);
		case BLOOM_HK_FLOAT4:
			return bloom_hash_double((double) DatumGetFloat4(value), seed);
		case BLOOM_HK_FLOAT8:
			return bloom_hash_double(DatumGetFloat8(value), seed);
		case BLOOM_HK_NUMERIC:
			{
				Numeric		num = DatumGetNumeric(value);
				uint64		hash = canonical_numeric_hash(num, seed);

				if ((Pointer) num != DatumGetPointer(value))
					pfree(num);
				return hash;
			}
		case BLOOM_HK_TEXT:
			return hash_varlena(value, seed, false);
		case BLOOM_HK_BPCHAR:
			return hash_varlena(value, seed, true);
		case BLOOM_HK_NAME:
			{
				const char *s = NameStr(*DatumGetName(value));

				return bloom_hash_bytes(s, strnlen(s, NAMEDATALEN), seed);
			}
		case BLOOM_HK_SEND:
			{
				bytea	   *bytes = SendFunctionCall(h->send, value);
				uint64		hash = bloom_hash_bytes(VARDATA(bytes), VARSIZE(bytes) - VARHDRSZ, seed);

				pfree(bytes);
				return hash;
			}
	}
	elog(ERROR, "unknown bloom hash kind %d", (int) h->kind);
	return 0;					/* keep the compiler quiet */
}

/* bloom_hash(value anyelement, seed bigint DEFAULT 0) -> bigint */
Datum
bloom_hash(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	BloomHasher *h = bloom_call_hasher(fcinfo, cache, 0);

	PG_RETURN_INT64((int64) bloom_hash_datum(h, PG_GETARG_DATUM(0), (uint64) PG_GETARG_INT64(1)));
}
