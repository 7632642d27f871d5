/*
 * type.c - the `bloom` type: text and binary I/O, the bytea casts, equality
 * and hashing, and reading bloom arguments (validated, cached per call site).
 *
 * Text form: "\x" followed by the hex digits of the core bytes, like bytea's
 * hex output, so COPY and pg_dump carry filters unchanged.  Binary form: the
 * core bytes.  Both are validated on input by the core's parser.
 */
#include "bloomfilter.h"

#include <math.h>

#include "access/detoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "common/base64.h"
#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(bloom_in);
PG_FUNCTION_INFO_V1(bloom_out);
PG_FUNCTION_INFO_V1(bloom_recv);
PG_FUNCTION_INFO_V1(bloom_send);
PG_FUNCTION_INFO_V1(bloom_from_bytea);
PG_FUNCTION_INFO_V1(bloom_eq);
PG_FUNCTION_INFO_V1(bloom_ne);
PG_FUNCTION_INFO_V1(bloom_type_hash);
PG_FUNCTION_INFO_V1(bloom_type_extended_hash);

/* ---- hex text form ---- */

/* Room kept for the rest of a protocol message around a value's text. */
#define BLOOM_TEXT_MARGIN ((Size) 1024 * 1024)

static const int8 hex_value[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16
};								/* digit value + 1; 0 = not a hex digit */

bytea *
bloom_hex_decode(const char *str, const char *type_name)
{
	size_t		len = strlen(str);
	size_t		ndigits,
				nbytes;
	bytea	   *result;
	uint8	   *out;

	if (len < 2 || str[0] != '\\' || (str[1] != 'x' && str[1] != 'X'))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", type_name),
				 errdetail("The value must start with \"\\x\" followed by hexadecimal digits.")));
	ndigits = len - 2;
	if (ndigits % 2 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", type_name),
				 errdetail("The value has an odd number (%zu) of hexadecimal digits.", ndigits)));
	nbytes = ndigits / 2;
	bloom_check_payload_size(nbytes, type_name);
	result = palloc(VARHDRSZ + nbytes);
	SET_VARSIZE(result, VARHDRSZ + nbytes);
	out = (uint8 *) VARDATA(result);
	for (size_t i = 0; i < nbytes; i++)
	{
		unsigned char hi = (unsigned char) str[2 + 2 * i],
					lo = (unsigned char) str[3 + 2 * i];

		if (hex_value[hi] == 0 || hex_value[lo] == 0)
		{
			size_t		at = hex_value[hi] == 0 ? 2 + 2 * i : 3 + 2 * i;

			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s", type_name),
					 errdetail("Character %zu is not a hexadecimal digit.", at + 1)));
		}
		out[i] = (uint8) ((hex_value[hi] - 1) << 4 | (hex_value[lo] - 1));
	}
	return result;
}

/* "000102...ff": the two digits of every byte value */
#define HEX_PAIRS_OF(h) h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" \
	h "8" h "9" h "a" h "b" h "c" h "d" h "e" h "f"
static const char hex_pairs[] =
	HEX_PAIRS_OF("0") HEX_PAIRS_OF("1") HEX_PAIRS_OF("2") HEX_PAIRS_OF("3")
	HEX_PAIRS_OF("4") HEX_PAIRS_OF("5") HEX_PAIRS_OF("6") HEX_PAIRS_OF("7")
	HEX_PAIRS_OF("8") HEX_PAIRS_OF("9") HEX_PAIRS_OF("a") HEX_PAIRS_OF("b")
	HEX_PAIRS_OF("c") HEX_PAIRS_OF("d") HEX_PAIRS_OF("e") HEX_PAIRS_OF("f");
#undef HEX_PAIRS_OF

char *
bloom_hex_out(Datum value)
{
	/* detoasting an expanded bloom_builder flattens (serializes) it */
	struct varlena *p = PG_DETOAST_DATUM_PACKED(value);
	const char *data = VARDATA_ANY(p);
	Size		len = VARSIZE_ANY_EXHDR(p);
	char	   *out;

	/*
	 * A text form past 1 GB can be neither a text value nor part of a
	 * protocol message (postgres_fdw sends a filter parameter as text: the
	 * remote server would drop the connection).  Refuse it here, clearly,
	 * leaving 1 MB of the message for the rest of it.
	 */
	if (len > (MaxAllocSize - BLOOM_TEXT_MARGIN - 3) / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom value too large for its text form"),
				 errdetail("Its text form would take %zu bytes; a text value or a protocol message (a postgres_fdw parameter) holds at most %zu.",
						   2 * len + 2, (Size) MaxAllocSize - BLOOM_TEXT_MARGIN),
				 errhint("Use the binary form (COPY ... (FORMAT binary), bloom_send, or a cast to bytea), or a filter of at most %zu bytes.",
						 (Size) (MaxAllocSize - BLOOM_TEXT_MARGIN - 3) / 2)));
	out = palloc(2 * len + 3);
	bloom_advise_huge_pages(out, 2 * len + 3);	/* before the first touch */
	out[0] = '\\';
	out[1] = 'x';
	/* two digits a byte from one table: one load a byte, not two */
	for (Size i = 0; i < len; i++)
		memcpy(out + 2 + 2 * i, hex_pairs + 2 * (unsigned char) data[i], 2);
	out[2 + 2 * len] = '\0';
	return out;
}

/* ---- base64 text form (bloom_builder states) ---- */

#define B64_PREFIX "b64:"
#define B64_PREFIX_LEN 4

char *
bloom_b64_out(Datum value)
{
	/* detoasting an expanded bloom_builder flattens (serializes) it */
	struct varlena *p = PG_DETOAST_DATUM_PACKED(value);
	Size		len = VARSIZE_ANY_EXHDR(p);
	int			enc_len;
	char	   *out;

	if (len > (Size) (PG_INT32_MAX / 4) * 3 - 3)
		elog(ERROR, "value of %zu bytes is too large to print", len);
	enc_len = pg_b64_enc_len((int) len);
	out = palloc_extended(B64_PREFIX_LEN + enc_len + 1, MCXT_ALLOC_HUGE);
	memcpy(out, B64_PREFIX, B64_PREFIX_LEN);
	enc_len = pg_b64_encode((const uint8 *) VARDATA_ANY(p), (int) len, out + B64_PREFIX_LEN, enc_len);
	if (enc_len < 0)
		elog(ERROR, "could not encode a value of %zu bytes as base64", len);
	out[B64_PREFIX_LEN + enc_len] = '\0';
	return out;
}

bytea *
bloom_text_decode(const char *str, const char *type_name)
{
	size_t		len;
	int			dec_len;
	bytea	   *result;

	if (strncmp(str, B64_PREFIX, B64_PREFIX_LEN) != 0)
	{
		if (str[0] != '\\')
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s", type_name),
					 errdetail("The value must start with \"b64:\" followed by base64, or \"\\x\" followed by hexadecimal digits.")));
		return bloom_hex_decode(str, type_name);
	}
	str += B64_PREFIX_LEN;
	len = strlen(str);
	if (len > PG_INT32_MAX)
		bloom_check_payload_size(len, type_name);
	dec_len = pg_b64_dec_len((int) len);
	bloom_check_payload_size(dec_len, type_name);
	result = palloc_extended(VARHDRSZ + dec_len, MCXT_ALLOC_HUGE);
	dec_len = pg_b64_decode(str, (int) len, (uint8 *) VARDATA(result), dec_len);
	if (dec_len < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", type_name),
				 errdetail("The text after \"b64:\" is not valid base64.")));
	SET_VARSIZE(result, VARHDRSZ + dec_len);
	return result;
}

struct varlena *
bloom_recv_bytes(StringInfo buf)
{
	int			len = buf->len - buf->cursor;
	struct varlena *result = palloc(VARHDRSZ + len);

	SET_VARSIZE(result, VARHDRSZ + len);
	pq_copymsgbytes(buf, VARDATA(result), len);
	return result;
}

/* ---- validation and argument access ---- */

/* Validate bytes from outside (input functions): every field, named. */
static void
parse_input(const void *data, Size len, BloomSource source, bloom_filter *out)
{
	bloom_error err;

	if (bloom_parse(data, len, out, &err) != BLOOM_OK)
		bloom_raise(&err, source, NULL);
	/* what the type accepts must be dumpable: see BLOOM_PG_MAX_FILTER_BYTES */
	bloom_check(bloom_check_host_size(len, BLOOM_PG_MAX_FILTER_BYTES, &err), &err, NULL);
}

void
bloom_parse_stored(const void *data, Size len, bloom_filter *out)
{
	bloom_error err;

	if (bloom_parse(data, len, out, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
}

/*
 * Room in cxt for a value of len bytes whose bits (after its header) start
 * on a cache line, with a varlena header's room before it; huge pages asked
 * for before the first touch.  Returns the allocation, *start the value's.
 */
static char *
alloc_aligned(MemoryContext cxt, Size len, char **start)
{
	Size		alloc = VARHDRSZ + len + 2 * PG_CACHE_LINE_SIZE;
	char	   *raw = MemoryContextAllocHuge(cxt, alloc);

	StaticAssertStmt(BLOOM_HEADER_SIZE <= PG_CACHE_LINE_SIZE, "the header fits before a line");
	*start = (char *) TYPEALIGN(PG_CACHE_LINE_SIZE, raw + VARHDRSZ + BLOOM_HEADER_SIZE) -
		BLOOM_HEADER_SIZE;
	bloom_advise_huge_pages(raw, alloc);
	return raw;
}

void *
bloom_parse_flat(struct varlena *flat, bool free_flat, MemoryContext cxt, bloom_filter *out)
{
	Size		len = VARSIZE(flat) - VARHDRSZ;
	char	   *raw;
	char	   *start;

	if (VARSIZE(flat) < BLOOM_PG_ALIGN_MIN_BYTES)
	{
		bloom_parse_stored(VARDATA(flat), len, out);
		return flat;
	}
	raw = alloc_aligned(cxt, len, &start);
	memcpy(start, VARDATA(flat), len);
	bloom_parse_stored(start, len, out);
	if (free_flat)
		pfree(flat);
	return raw;
}

/*
 * An uncompressed out-of-line value's chunks, fetched straight into the
 * aligned copy (the fetch writes after a varlena header: alloc_aligned
 * leaves room for one).
 */
static void *
fetch_aligned(const varatt_external *toast, MemoryContext cxt, bloom_filter *out)
{
	int32		len = VARATT_EXTERNAL_GET_EXTSIZE(*toast);
	char	   *start;
	char	   *raw = alloc_aligned(cxt, len, &start);
	struct varlena *into = (struct varlena *) (start - VARHDRSZ);
	Relation	toastrel;

	SET_VARSIZE(into, VARHDRSZ + len);
	toastrel = table_open(toast->va_toastrelid, AccessShareLock);
	table_relation_fetch_toast_slice(toastrel, toast->va_valueid, len, 0, len, into);
	table_close(toastrel, AccessShareLock);
	bloom_parse_stored(start, len, out);
	return raw;
}

void *
bloom_read_whole(struct varlena *value, MemoryContext cxt, bloom_filter *out, Size *size)
{
	MemoryContext old;
	struct varlena *flat;

	if (VARATT_IS_EXTERNAL_ONDISK(value))
	{
		varatt_external toast;

		VARATT_EXTERNAL_GET_POINTER(toast, value);
		if (!bloom_toast_is_compressed(&toast) &&
			VARHDRSZ + VARATT_EXTERNAL_GET_EXTSIZE(toast) >= BLOOM_PG_ALIGN_MIN_BYTES)
		{
			if (size)
				*size = VARHDRSZ + VARATT_EXTERNAL_GET_EXTSIZE(toast);
			return fetch_aligned(&toast, cxt, out);
		}
	}
	old = MemoryContextSwitchTo(cxt);
	flat = pg_detoast_datum(value);
	MemoryContextSwitchTo(old);
	if (size)
		*size = VARSIZE(flat);
	return bloom_parse_flat(flat, flat != value, cxt, out);
}

static void
cache_reset(BloomArgCache *cache)
{
	cache->valid = false;
	if (cache->flat)
		pfree(cache->flat);
	if (cache->raw)
		pfree(cache->raw);
	cache->flat = NULL;
	cache->raw = NULL;
}

void
bloom_read_arg(FunctionCallInfo fcinfo, int argno, BloomArgCache *cache, bloom_filter *out)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	bool		ondisk = VARATT_IS_EXTERNAL_ONDISK(p);

	if (cache != NULL && (ondisk || VARATT_IS_COMPRESSED(p)))
	{
		const bloom_filter *known = bloom_cached_stored_arg(fcinfo, argno, cache);

		if (known == NULL && !ondisk && cache->valid && !cache->is_ondisk &&
			VARSIZE(p) == VARSIZE(cache->raw) && memcmp(p, cache->raw, VARSIZE(p)) == 0)
			known = &cache->view;
		if (known != NULL)
		{
			*out = *known;
			return;
		}

		cache_reset(cache);
		if (!ondisk)
		{
			cache->raw = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, VARSIZE(p));
			memcpy(cache->raw, p, VARSIZE(p));
		}
		cache->flat = bloom_read_whole(p, fcinfo->flinfo->fn_mcxt, out, NULL);
		cache->view = *out;
		cache->is_ondisk = ondisk;
		if (ondisk)
			VARATT_EXTERNAL_GET_POINTER(cache->toast, p);
		cache->valid = true;
		return;
	}

	p = pg_detoast_datum_packed(p);
	if (cache != NULL && !VARATT_IS_EXTENDED(p))
		bloom_parse_cached(cache, VARDATA(p), VARSIZE(p) - VARHDRSZ, out);
	else
		bloom_parse_stored(VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p), out);
}

void
bloom_parse_cached(BloomArgCache *cache, const void *data, Size len, bloom_filter *out)
{
	if (cache->plain_data == data && cache->plain_len == len && len >= BLOOM_HEADER_SIZE &&
		memcmp(cache->plain_header, data, BLOOM_HEADER_SIZE) == 0)
	{
		*out = cache->plain_view;
		return;
	}
	cache->plain_data = NULL;
	bloom_parse_stored(data, len, out);
	memcpy(cache->plain_header, data, BLOOM_HEADER_SIZE);
	cache->plain_len = len;
	cache->plain_view = *out;
	cache->plain_data = data;
}

struct varlena *
bloom_copy_arg(FunctionCallInfo fcinfo, int argno, bloom_filter *out)
{
	struct varlena *copy = PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(argno));

	bloom_parse_stored(VARDATA(copy), VARSIZE(copy) - VARHDRSZ, out);
	return copy;
}

struct varlena *
bloom_make(int layout, uint64 nbits, unsigned nhashes, uint64 seed, bloom_filter *out)
{
	bloom_error err;
	size_t		size;
	struct varlena *result;

	size = bloom_layout_size(layout, nbits);
	bloom_check(bloom_check_host_size(size, BLOOM_PG_MAX_FILTER_BYTES, &err), &err, NULL);
	result = palloc(VARHDRSZ + size);
	bloom_advise_huge_pages(result, VARHDRSZ + size);	/* fewer faults filling it */
	SET_VARSIZE(result, VARHDRSZ + size);
	if (bloom_init(VARDATA(result), size, layout, nbits, nhashes, seed, out, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, NULL);
	return result;
}

int
bloom_layout_arg(text *name)
{
	int			layout = bloom_layout_from_name(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));

	if (layout < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown bloom filter layout \"%s\"", text_to_cstring(name)),
				 errhint("The layouts are \"classic\", \"blocked\", \"counting\" and \"scalable\".")));
	return layout;
}

BloomCallCache *
bloom_call_cache_create(FunctionCallInfo fcinfo)
{
	fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
													  sizeof(BloomCallCache));
	return (BloomCallCache *) fcinfo->flinfo->fn_extra;
}

/* ---- I/O ---- */

Datum
bloom_in(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = bloom_hex_decode(PG_GETARG_CSTRING(0), "bloom");
	bloom_filter f;

	parse_input(VARDATA(bytes), VARSIZE(bytes) - VARHDRSZ, BLOOM_SOURCE_TEXT, &f);
	PG_RETURN_POINTER(bytes);
}

Datum
bloom_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(bloom_hex_out(PG_GETARG_DATUM(0)));
}

Datum
bloom_recv(PG_FUNCTION_ARGS)
{
	struct varlena *result = bloom_recv_bytes((StringInfo) PG_GETARG_POINTER(0));
	bloom_filter f;

	parse_input(VARDATA(result), VARSIZE(result) - VARHDRSZ, BLOOM_SOURCE_BINARY, &f);
	PG_RETURN_POINTER(result);
}

Datum
bloom_send(PG_FUNCTION_ARGS)
{
	/*
	 * The binary form is the payload, returned as a copy: callers such as
	 * array_send and record_send pfree a send function's result, which must
	 * then never be the argument itself (as byteasend copies too).
	 */
	PG_RETURN_BYTEA_P(PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0)));
}

/* bytea::bloom validates; bloom::bytea is binary-coercible (no function). */
Datum
bloom_from_bytea(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bloom_filter f;

	parse_input(VARDATA(p), VARSIZE(p) - VARHDRSZ, BLOOM_SOURCE_BINARY, &f);
	PG_RETURN_POINTER(p);
}

/* ---- equality and hashing ---- */

/*
 * Two filters are equal when they have the same parameters and the same
 * bits.  Valid filters encode that in every byte (reserved bytes, flags and
 * padding bits are zero), so equality is byte equality and the hash is a
 * hash of the bytes.
 */
static bool
bytes_equal(FunctionCallInfo fcinfo)
{
	Datum		a = PG_GETARG_DATUM(0),
				b = PG_GETARG_DATUM(1);
	struct varlena *pa,
			   *pb;

	if (toast_raw_datum_size(a) != toast_raw_datum_size(b))
		return false;
	pa = PG_DETOAST_DATUM_PACKED(a);
	pb = PG_DETOAST_DATUM_PACKED(b);
	return VARSIZE_ANY_EXHDR(pa) == VARSIZE_ANY_EXHDR(pb) &&
		memcmp(VARDATA_ANY(pa), VARDATA_ANY(pb), VARSIZE_ANY_EXHDR(pa)) == 0;
}

Datum
bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bytes_equal(fcinfo));
}

Datum
bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!bytes_equal(fcinfo));
}

Datum
bloom_type_hash(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));

	return hash_any((unsigned char *) VARDATA_ANY(p), (int) VARSIZE_ANY_EXHDR(p));
}

Datum
bloom_type_extended_hash(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));

	return hash_any_extended((unsigned char *) VARDATA_ANY(p), (int) VARSIZE_ANY_EXHDR(p),
							 PG_GETARG_INT64(1));
}
