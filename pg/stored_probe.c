/*
 * stored_probe.c - probing a stored filter without reading it whole.
 *
 * A table of stored filters (one per day, per file, per partition) probed
 * row by row would detoast every row's filter whole: 1.2 MB for 10^6 values
 * to test 7 bits.  A probe needs the 32-byte header and then k bytes
 * (classic) or one 32-byte block (blocked), so for an out-of-line,
 * uncompressed value we fetch just the TOAST chunks that hold them
 * (core/probe_offsets.c says which bytes).
 *
 * Which way a call site reads is decided by what it sees, not by a setting:
 * a stored filter seen for the first time is probed in pieces; the same
 * TOAST pointer on many calls in a row means one filter for many rows, which
 * is then read whole once and cached (type.c, bloom_read_arg).  "Many" is
 * the rent-or-buy rule: pieces are paid for until they have cost about what
 * the whole read costs, so neither a run of a few rows nor a run of millions
 * pays more than twice the better choice.  A chunk fetched by its own index
 * lookup costs about as much as several chunks read in sequence (the 7 below;
 * bench-pg-stored measures it).  Compressed and inline values
 * are always read whole, and so are small ones (WHOLE_READ_CHUNKS below),
 * where a probe's lookups cost more than the value's chunks.
 *
 * The piecewise path validates the header with the value's full length (the
 * core's bloom_parse_header); the padding bits past nbits, which the whole
 * path also checks, are never read by a probe and are not checked here.
 */
#include "bloomfilter.h"

#include "access/heaptoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "utils/rel.h"

PG_FUNCTION_INFO_V1(bloom_debug_stored_probes);

/* Piecewise probes made by this backend: for the regression tests, which
 * declare the function themselves (it is not part of the extension). */
static uint64 stored_probes = 0;

/* Read [offset, offset + length) of the value into out. */
static void
fetch_range(Relation toastrel, const varatt_external *toast, int32 offset, int32 length,
			uint8 *out)
{
	struct varlena *slice = palloc(VARHDRSZ + length);

	SET_VARSIZE(slice, VARHDRSZ + length);
	table_relation_fetch_toast_slice(toastrel, toast->va_valueid,
									 VARATT_EXTERNAL_GET_EXTSIZE(*toast), offset, length, slice);
	memcpy(out, VARDATA(slice), length);
	pfree(slice);
}

typedef struct WantedRange
{
	int32		start;			/* offset in the value */
	int			index;			/* range number in the probe plan */
} WantedRange;

static int
compare_wanted(const void *a, const void *b)
{
	int32		x = ((const WantedRange *) a)->start,
				y = ((const WantedRange *) b)->start;

	return (x > y) - (x < y);
}

/*
 * Fetch the plan's ranges into bytes (range i at i * plan->length).  Ranges
 * whose chunks are the same or adjacent are fetched in one scan of the
 * TOAST index: a classic probe of a small filter often needs one chunk twice.
 */
static void
fetch_plan(Relation toastrel, const varatt_external *toast, const bloom_probe_plan *plan,
		   uint8 *bytes)
{
	WantedRange wanted[BLOOM_MAX_NHASHES];
	int32		len = (int32) plan->length;
	unsigned	n = plan->count,
				first = 0;

	for (unsigned i = 0; i < n; i++)
	{
		wanted[i].start = BLOOM_HEADER_SIZE + (int32) plan->offset[i];
		wanted[i].index = (int) i;
	}
	qsort(wanted, n, sizeof wanted[0], compare_wanted);
	while (first < n)
	{
		unsigned	last = first;
		int32		start = wanted[first].start,
					end;
		uint8	   *buf;

		while (last + 1 < n &&
			   wanted[last + 1].start / TOAST_MAX_CHUNK_SIZE <=
			   (wanted[last].start + len - 1) / TOAST_MAX_CHUNK_SIZE + 1)
			last++;
		end = wanted[last].start + len;
		buf = palloc(end - start);
		fetch_range(toastrel, toast, start, end - start, buf);
		for (unsigned i = first; i <= last; i++)
			memcpy(bytes + wanted[i].index * len, buf + (wanted[i].start - start), len);
		pfree(buf);
		first = last + 1;
	}
}

/*
 * Small values are read whole: up to WHOLE_READ_CHUNKS chunks a range the
 * probe reads (a block of a blocked filter; a byte a hash of a classic or
 * counting one).  A piecewise probe makes at least two index lookups, the
 * header's and a range's, each with the TOAST table and its
 * index opened and closed; one lookup and a few chunks in sequence cost
 * less.  A probe of several ranges (classic, counting: a byte a hash) makes
 * a lookup for each run of chunks it touches, so its threshold scales with
 * its ranges (bench-pg-stored measures where whole and piecewise cross).
 */
#define WHOLE_READ_CHUNKS 4

/* A stored filter whose header was read, probed a hash at a time (a text
 * probe may test several readings). */
typedef struct StoredProbe
{
	Relation	toastrel;
	const varatt_external *toast;
	const bloom_filter *f;		/* its header's view */
} StoredProbe;

static bool
stored_test(void *ctx, uint64 hash)
{
	StoredProbe *probe = ctx;
	bloom_probe_plan plan;
	uint8		bytes[BLOOM_MAX_NHASHES * (BLOOM_BLOCK_BITS / 8)];

	bloom_probe_plan_for(probe->f, hash, &plan);
	fetch_plan(probe->toastrel, probe->toast, &plan, bytes);
	return bloom_probe_plan_test(probe->f, hash, &plan, bytes);
}

bool
bloom_stored_contains(FunctionCallInfo fcinfo, int filter_arg, int value_arg,
					  BloomCallCache *cache, bool *answer)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(filter_arg));
	BloomArgCache *arg = &cache->args[0];
	varatt_external toast;
	Relation	toastrel;
	uint8		header[BLOOM_HEADER_SIZE];
	bloom_filter f;
	bloom_probe_plan plan;
	bloom_error err;
	BloomHasher *h;
	StoredProbe probe;
	uint32		chunks;

	if (!VARATT_IS_EXTERNAL_ONDISK(p))
		return false;
	VARATT_EXTERNAL_GET_POINTER(toast, p);
	if (bloom_toast_is_compressed(&toast) ||
		VARATT_EXTERNAL_GET_EXTSIZE(toast) < BLOOM_HEADER_SIZE)
		return false;
	chunks = (uint32) ((VARATT_EXTERNAL_GET_EXTSIZE(toast) + TOAST_MAX_CHUNK_SIZE - 1) /
					   TOAST_MAX_CHUNK_SIZE);
	if (chunks <= WHOLE_READ_CHUNKS)	/* whatever the plan: it has a range */
		return false;
	/* the same value again: once pieces have cost a whole read, read it
	 * whole and cache it */
	if (arg->stored_valid && bloom_same_toast_pointer(&toast, &arg->stored_last))
	{
		if (++arg->stored_repeats >= arg->stored_limit)
			return false;
	}
	else
	{
		arg->stored_last = toast;
		arg->stored_valid = true;
		arg->stored_repeats = 0;
		arg->stored_limit = 1;	/* until the header says more */
	}

	toastrel = table_open(toast.va_toastrelid, AccessShareLock);
	fetch_range(toastrel, &toast, 0, BLOOM_HEADER_SIZE, header);
	if (bloom_parse_header(header, VARATT_EXTERNAL_GET_EXTSIZE(toast), &f, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
	f.bits = NULL;				/* only the header was read */
	h = bloom_call_hasher(fcinfo, cache, value_arg);
	/* the plan's ranges depend on the header alone, not on the hash */
	bloom_probe_plan_for(&f, 0, &plan);
	/* read whole: a scalable filter (its stages are found in its bytes), or
	 * a probe whose ranges cost more lookups than the value's chunks */
	if (plan.count == 0 || chunks <= WHOLE_READ_CHUNKS * plan.count)
	{
		table_close(toastrel, AccessShareLock);
		return false;
	}
	/* index lookups per probe: the header's and one per range */
	if (arg->stored_repeats == 0)
		arg->stored_limit = Max(1, chunks / (7 * (plan.count + 1)));
	probe.toastrel = toastrel;
	probe.toast = &toast;
	probe.f = &f;
	if (bloom_is_text_probe(h) && f.kinds.mask != 0)
		*answer = bloom_text_probe_test(bloom_call_text_probe(fcinfo, cache), h,
										PG_GETARG_DATUM(value_arg), f.kinds, f.seed,
										stored_test, &probe);
	else
		*answer = stored_test(&probe, bloom_hash_value(h, PG_GETARG_DATUM(value_arg), f.seed));
	table_close(toastrel, AccessShareLock);
	stored_probes++;
	return true;
}

/* bloom_debug_stored_probes() -> bigint: piecewise probes made by this backend */
Datum
bloom_debug_stored_probes(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_INT64((int64) stored_probes);
}
