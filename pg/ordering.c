/*
 * ordering.c - the btree operator class of `bloom`: bloom_cmp and the
 * operators < <= > >=, and the min/max transition functions.
 *
 * The order (docs/POSTGRESQL.md, "Ordering"): the parameters first, by the
 * core's bloom_compare_headers (format version, layout, hash id, nhashes,
 * seed, nbits), then the bit arrays byte by byte.  Valid filters differ
 * only where their bytes differ, so cmp = 0 exactly when = holds, and
 * equal filters hash alike (bloom_hash_ops).
 *
 * Cheap: the 32-byte headers decide most comparisons and are read alone (a
 * slice of an out-of-line value); bit arrays stored out of line and
 * uncompressed are compared slice by slice, stopping at the first
 * difference, so a large stored filter is never detoasted whole.
 */
#include "bloomfilter.h"

#include "access/detoast.h"
#include "miscadmin.h"

PG_FUNCTION_INFO_V1(bloom_cmp);
PG_FUNCTION_INFO_V1(bloom_lt);
PG_FUNCTION_INFO_V1(bloom_le);
PG_FUNCTION_INFO_V1(bloom_gt);
PG_FUNCTION_INFO_V1(bloom_ge);
PG_FUNCTION_INFO_V1(bloom_smaller);
PG_FUNCTION_INFO_V1(bloom_larger);

/* Bytes of bit array compared per fetch of out-of-line values. */
#define COMPARE_SLICE ((Size) 256 * 1024)

/* One side of a comparison: the whole payload in memory, or a value read
 * in slices from its TOAST table. */
typedef struct Side
{
	struct varlena *raw;
	struct varlena *whole;		/* detoasted, when not read in slices */
	Size		len;			/* payload bytes */
} Side;

static void
side_init(Side *s, Datum d)
{
	s->raw = (struct varlena *) DatumGetPointer(d);
	s->whole = NULL;
	s->len = toast_raw_datum_size(d) - VARHDRSZ;
	if (s->len < BLOOM_HEADER_SIZE)
		elog(ERROR, "bloom value of %zu bytes is shorter than its header", s->len);
	if (!VARATT_IS_EXTENDED(s->raw))
		s->whole = s->raw;
	else if (VARATT_IS_EXTERNAL_ONDISK(s->raw))
	{
		struct varatt_external toast;

		VARATT_EXTERNAL_GET_POINTER(toast, s->raw);
		if (bloom_toast_is_compressed(&toast))	/* slices would decompress again */
			s->whole = detoast_attr(s->raw);
	}
	else
		s->whole = pg_detoast_datum_packed(s->raw);
}

/* Payload bytes [offset, offset + len); *fetched is set when they were
 * copied for the call (the caller frees them). */
static const uint8 *
side_bytes(Side *s, Size offset, Size len, struct varlena **fetched)
{
	*fetched = NULL;
	if (s->whole != NULL)
		return (const uint8 *) VARDATA_ANY(s->whole) + offset;
	*fetched = detoast_attr_slice(s->raw, (int32) offset, (int32) len);
	if (VARSIZE(*fetched) - VARHDRSZ != len)
		elog(ERROR, "bloom value slice of %zu bytes at %zu is short", len, offset);
	return (const uint8 *) VARDATA(*fetched);
}

static void
release(struct varlena *fetched)
{
	if (fetched != NULL)
		pfree(fetched);
}

static int
compare(Datum da, Datum db)
{
	Side		a,
				b;
	struct varlena *fa,
			   *fb;
	const uint8 *pa,
			   *pb;
	int			c;
	Size		header = BLOOM_HEADER_SIZE;

	if (!VARATT_IS_EXTENDED(DatumGetPointer(da)) && !VARATT_IS_EXTENDED(DatumGetPointer(db)))
	{
		/* the common in-memory case: no slicing bookkeeping */
		struct varlena *ra = (struct varlena *) DatumGetPointer(da),
				   *rb = (struct varlena *) DatumGetPointer(db);

		if (VARSIZE(ra) < VARHDRSZ + header || VARSIZE(rb) < VARHDRSZ + header)
			elog(ERROR, "bloom value is shorter than its header");
		c = bloom_compare_headers((const uint8 *) VARDATA(ra), (const uint8 *) VARDATA(rb));
		if (c != 0)
			return c;
		/* equal headers, lengths that may differ (scalable): a proper prefix first */
		c = memcmp(VARDATA(ra) + header, VARDATA(rb) + header,
				   Min(VARSIZE(ra), VARSIZE(rb)) - VARHDRSZ - header);
		if (c != 0)
			return c < 0 ? -1 : 1;
		return VARSIZE(ra) < VARSIZE(rb) ? -1 : VARSIZE(ra) > VARSIZE(rb);
	}

	side_init(&a, da);
	side_init(&b, db);
	pa = side_bytes(&a, 0, header, &fa);
	pb = side_bytes(&b, 0, header, &fb);
	c = bloom_compare_headers(pa, pb);
	release(fa);
	release(fb);
	/* equal headers, lengths that may differ (scalable): a proper prefix first */
	for (Size offset = header; c == 0 && offset < Min(a.len, b.len); offset += COMPARE_SLICE)
	{
		Size		n = Min(COMPARE_SLICE, Min(a.len, b.len) - offset);

		CHECK_FOR_INTERRUPTS();
		pa = side_bytes(&a, offset, n, &fa);
		pb = side_bytes(&b, offset, n, &fb);
		c = memcmp(pa, pb, n);
		c = c < 0 ? -1 : c > 0;
		release(fa);
		release(fb);
	}
	if (c == 0)
		c = a.len < b.len ? -1 : a.len > b.len;
	if (a.whole != NULL && a.whole != a.raw)
		pfree(a.whole);
	if (b.whole != NULL && b.whole != b.raw)
		pfree(b.whole);
	return c;
}

Datum
bloom_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)));
}

Datum
bloom_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) < 0);
}

Datum
bloom_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0);
}

Datum
bloom_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) > 0);
}

Datum
bloom_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0);
}

/*
 * min(bloom) and max(bloom).  The state is the first argument; a new winner
 * is returned detoasted, so the state that nodeAgg copies is the value
 * itself, never a TOAST pointer into a row.
 */
static Datum
winner(FunctionCallInfo fcinfo, bool keep_state)
{
	if (keep_state)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	PG_RETURN_POINTER(PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(1)));
}

Datum
bloom_smaller(PG_FUNCTION_ARGS)
{
	return winner(fcinfo, compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0);
}

Datum
bloom_larger(PG_FUNCTION_ARGS)
{
	return winner(fcinfo, compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0);
}
