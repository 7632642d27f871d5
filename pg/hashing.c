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
 * The kind is looked up once per call site (fn_extra) by the callers.
 */
#include "bloomfilter.h"

#include <errno.h>
#include <math.h>

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

PG_FUNCTION_INFO_V1(bloom_hash);

void
bloom_hasher_init(BloomHasher *h, FunctionCallInfo fcinfo, int argno)
{
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, argno);
	Oid			base;

	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine the type of the value to hash")));
	memset(h, 0, sizeof *h);
	h->typid = typid;
	base = getBaseType(typid);
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
		case BYTEAOID:
			h->kind = BLOOM_HK_TEXT;
			break;
		case BPCHAROID:
			h->kind = BLOOM_HK_BPCHAR;
			break;
		case NAMEOID:
			h->kind = BLOOM_HK_NAME;
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
				fmgr_info_cxt(send, &h->send, fcinfo->flinfo->fn_mcxt);
				h->kind = BLOOM_HK_SEND;
			}
			break;
	}
}

static uint64
canonical_numeric_hash(Numeric num, uint64 seed)
{
	char	   *str;
	uint64		hash;

	if (numeric_is_nan(num))
		return bloom_hash_double(NAN, seed);
#if PG_VERSION_NUM >= 140000
	if (numeric_is_inf(num))
	{
		str = numeric_normalize(num);
		hash = bloom_hash_double(str[0] == '-' ? -INFINITY : INFINITY, seed);
		pfree(str);
		return hash;
	}
#endif
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
				bytea	   *bytes = SendFunctionCall(&h->send, value);
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
