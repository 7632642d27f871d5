/*
 * builder_type.c - `bloom_builder`, the state type of bloom_agg(value).
 *
 * An ordinary type with text I/O ("\x" + hex of the core's serialized
 * builder state, docs/FORMAT.md), because distributed planners (Citus) move
 * partial aggregate states as text through the state type's output and
 * input functions, and never distribute an `internal` state.
 *
 * Inside PostgreSQL's own aggregation the state is an expanded object
 * (utils/expandeddatum.h) in a child context of the aggregate context: the
 * transition function appends to it in place and returns the same
 * read-write pointer, so nodeAgg neither copies nor flattens it per row.  It
 * is flattened (serialized in the core's format) only when it leaves the
 * aggregate: a parallel worker's result, text or binary output.
 *
 * The object collects the distinct hashes itself, the way the core's
 * builder does (append, then sort, deduplicate and merge when full), but in
 * up to 256 buckets by the hash's top byte once it holds many, so each
 * compaction sorts a cache-sized run instead of one array of every hash
 * (the core's builder spends about 100 ns per hash at 10^7 distinct values
 * on its whole-array compactions).  Its final function hands the sorted,
 * distinct hashes to the core as one serialized state, so the filter is the
 * core builder's for that set of hashes, bit for bit; the empty core builder
 * kept in the object holds the settings and checks merges.
 */
#include "bloomfilter.h"

#include "libpq/pqformat.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(bloom_builder_in);
PG_FUNCTION_INFO_V1(bloom_builder_out);
PG_FUNCTION_INFO_V1(bloom_builder_recv);
PG_FUNCTION_INFO_V1(bloom_builder_send);

#define STATE_HEADER 32			/* docs/FORMAT.md: the state's header */
#define STATE_COUNT_OFFSET 24
#define SPLIT_AT 16384			/* one bucket becomes 256 past this many hashes */
#define FIRST_CAPACITY 8

/* ---- sorting and merging runs of hashes ---- */

static void
insertion_sort(uint64 *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
	{
		uint64		v = a[i];
		size_t		j = i;

		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/*
 * LSD radix sort of a[0, n) with tmp[0, n), 8-bit digits; passes where every
 * key has the same digit are skipped.  Returns where the result is.
 */
static uint64 *
radix_sort(uint64 *a, uint64 *tmp, size_t n)
{
	size_t		counts[8][256];
	uint64	   *src = a,
			   *dst = tmp;

	memset(counts, 0, sizeof counts);
	for (size_t i = 0; i < n; i++)
	{
		uint64		v = a[i];

		for (int p = 0; p < 8; p++)
			counts[p][(v >> (8 * p)) & 255]++;
	}
	for (int p = 0; p < 8; p++)
	{
		size_t	   *c = counts[p];
		size_t		sum = 0;

		if (c[(src[0] >> (8 * p)) & 255] == n)
			continue;
		for (int d = 0; d < 256; d++)
		{
			size_t		here = c[d];

			c[d] = sum;
			sum += here;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> (8 * p)) & 255]++] = src[i];
		{
			uint64	   *swap = src;

			src = dst;
			dst = swap;
		}
	}
	return src;
}

typedef struct HashRun
{
	uint64	   *data;
	size_t		count;			/* used slots */
	size_t		sorted;			/* data[0, sorted) is sorted and distinct */
	size_t		capacity;
} HashRun;

struct BloomAccum
{
	ExpandedObjectHeader hdr;
	bloom_builder *settings;	/* an empty core builder: layout, fpr, seed */
	uint64		mask;			/* bucket of h: (h >> 56) & mask */
	int			nbuckets;		/* 1 or 256 */
	HashRun    *buckets;
	uint64	   *scratch;
	size_t		scratch_capacity;
};

static void *
accum_alloc(BloomAccum *acc, size_t bytes)
{
	return MemoryContextAllocHuge(acc->hdr.eoh_context, bytes);
}

static uint64 *
scratch(BloomAccum *acc, size_t n)
{
	if (acc->scratch_capacity < n)
	{
		if (acc->scratch)
			pfree(acc->scratch);
		acc->scratch_capacity = Max(n, acc->scratch_capacity * 2);
		acc->scratch = accum_alloc(acc, acc->scratch_capacity * sizeof(uint64));
	}
	return acc->scratch;
}

/* Sort and deduplicate the unsorted tail, merge it into the sorted prefix. */
static void
compact(BloomAccum *acc, HashRun *run)
{
	size_t		prefix = run->sorted,
				tail = run->count - run->sorted,
				u = 0;
	uint64	   *t,
			   *sorted_tail,
			   *h = run->data;
	ptrdiff_t	i,
				j;
	size_t		w,
				kept,
				merged;

	if (tail == 0)
		return;
	t = run->data + prefix;
	if (tail <= 32)
	{
		insertion_sort(t, tail);
		sorted_tail = t;
	}
	else
		sorted_tail = radix_sort(t, scratch(acc, tail), tail);
	/* distinct values of the sorted tail, into the scratch (in place if there) */
	{
		uint64	   *out = scratch(acc, tail);

		if (sorted_tail != out)
			for (size_t k = 0; k < tail; k++)
			{
				if (u == 0 || out[u - 1] != sorted_tail[k])
					out[u++] = sorted_tail[k];
			}
		else
			for (size_t k = 0; k < tail; k++)
			{
				if (u == 0 || out[u - 1] != out[k])
					out[u++] = out[k];
			}
		t = out;
	}
	/* merge from the back; values in both are kept once */
	w = prefix + u;
	i = (ptrdiff_t) prefix - 1;
	j = (ptrdiff_t) u - 1;
	while (j >= 0)
	{
		if (i >= 0 && h[i] >= t[j])
		{
			if (h[i] == t[j])
				j--;
			h[--w] = h[i--];
		}
		else
			h[--w] = t[j--];
	}
	kept = (size_t) (i + 1);
	merged = prefix + u - w;
	if (w != kept)
		memmove(h + kept, h + w, merged * sizeof(uint64));
	run->count = run->sorted = kept + merged;
}

static void
run_reserve(BloomAccum *acc, HashRun *run, size_t capacity)
{
	uint64	   *grown;

	if (capacity <= run->capacity)
		return;
	grown = accum_alloc(acc, capacity * sizeof(uint64));
	if (run->count)
		memcpy(grown, run->data, run->count * sizeof(uint64));
	if (run->data)
		pfree(run->data);
	run->data = grown;
	run->capacity = capacity;
}

static size_t
room_for(size_t n)
{
	size_t		capacity = FIRST_CAPACITY;

	while (capacity < 2 * n)
		capacity *= 2;
	return capacity;
}

/* Spread one sorted distinct run over 256 buckets by the top byte. */
static void
split(BloomAccum *acc)
{
	HashRun		one = acc->buckets[0];
	HashRun    *buckets = accum_alloc(acc, 256 * sizeof(HashRun));
	size_t		sizes[256] = {0};
	size_t		k = 0;

	for (size_t i = 0; i < one.count; i++)
		sizes[one.data[i] >> 56]++;
	memset(buckets, 0, 256 * sizeof(HashRun));
	for (int b = 0; b < 256; b++)
	{
		run_reserve(acc, &buckets[b], room_for(sizes[b]));
		memcpy(buckets[b].data, one.data + k, sizes[b] * sizeof(uint64));
		buckets[b].count = buckets[b].sorted = sizes[b];
		k += sizes[b];
	}
	pfree(one.data);
	pfree(acc->buckets);
	acc->buckets = buckets;
	acc->nbuckets = 256;
	acc->mask = 255;
}

static void
bloom_accum_make_room(BloomAccum *acc, HashRun *run)
{
	compact(acc, run);
	if (run->count * 2 > run->capacity || run->capacity == 0)
		run_reserve(acc, run, run->capacity ? run->capacity * 2 : FIRST_CAPACITY);
	if (acc->nbuckets == 1 && run->count > SPLIT_AT)
		split(acc);
}

static inline void
accum_add(BloomAccum *acc, uint64 hash)
{
	HashRun    *run = &acc->buckets[(hash >> 56) & acc->mask];

	if (unlikely(run->count == run->capacity))
	{
		bloom_accum_make_room(acc, run);
		run = &acc->buckets[(hash >> 56) & acc->mask];
	}
	run->data[run->count++] = hash;
}

void
bloom_accum_add(BloomAccum *acc, uint64 hash)
{
	accum_add(acc, hash);
}

/* Compact every bucket; the number of distinct hashes. */
static size_t
compact_all(BloomAccum *acc)
{
	size_t		total = 0;

	for (int b = 0; b < acc->nbuckets; b++)
	{
		compact(acc, &acc->buckets[b]);
		total += acc->buckets[b].count;
	}
	return total;
}

/* ---- the expanded object ---- */

static Size
accum_flat_size(ExpandedObjectHeader *eohptr)
{
	BloomAccum *acc = (BloomAccum *) eohptr;
	uint64		size = STATE_HEADER + 8 * (uint64) compact_all(acc);

	bloom_check_payload_size(size, "bloom_builder state");
	return VARHDRSZ + size;
}

static void
store_le64(uint8 *p, uint64 v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8) (v >> (8 * i));
}

/* The serialized state: the core's header for these settings, then the hashes. */
static void
write_state(BloomAccum *acc, uint8 *out, size_t len)
{
	bloom_error err;
	size_t		count = (len - STATE_HEADER) / 8;
	uint8	   *p = out + STATE_HEADER;

	if (bloom_builder_serialize(acc->settings, out, STATE_HEADER, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
	store_le64(out + STATE_COUNT_OFFSET, count);
	for (int b = 0; b < acc->nbuckets; b++)
	{
		HashRun    *run = &acc->buckets[b];

		for (size_t i = 0; i < run->count; i++, p += 8)
			store_le64(p, run->data[i]);
	}
	Assert(p == out + len);
}

static void
accum_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	BloomAccum *acc = (BloomAccum *) eohptr;

	SET_VARSIZE(result, allocated_size);
	compact_all(acc);
	write_state(acc, (uint8 *) VARDATA(result), allocated_size - VARHDRSZ);
}

static const ExpandedObjectMethods accum_methods = {
	accum_flat_size,
	accum_flatten_into
};

static BloomAccum *
accum_new(MemoryContext parent, int layout, double fpr, uint64 seed)
{
	MemoryContext ctx = AllocSetContextCreate(parent, "bloom_builder", ALLOCSET_DEFAULT_SIZES);
	BloomAccum *acc = MemoryContextAllocZero(ctx, sizeof(BloomAccum));
	bloom_allocator alloc;
	bloom_error err;

	EOH_init_header(&acc->hdr, &accum_methods, ctx);
	bloom_pg_allocator(&alloc, ctx);
	if (bloom_builder_create(&alloc, layout, fpr, seed, &acc->settings, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom_agg setting");
	acc->nbuckets = 1;
	acc->mask = 0;
	acc->buckets = accum_alloc(acc, sizeof(HashRun));
	memset(acc->buckets, 0, sizeof(HashRun));
	return acc;
}

Datum
bloom_accum_new(MemoryContext parent, int layout, double fpr, uint64 seed, BloomAccum **out)
{
	*out = accum_new(parent, layout, fpr, seed);
	return EOHPGetRWDatum(&(*out)->hdr);
}

uint64
bloom_accum_seed(const BloomAccum *acc)
{
	return bloom_builder_seed(acc->settings);
}

BloomAccum *
bloom_accum_agg_state(Datum d, MemoryContext aggctx)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	BloomAccum *acc;

	if (!VARATT_IS_EXTERNAL_EXPANDED_RW(p))
		return NULL;
	acc = (BloomAccum *) DatumGetEOHP(d);
	if (acc->hdr.eoh_context->parent != aggctx)
		return NULL;
	return acc;
}

static void
raise_mismatch(const bloom_error *err)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("cannot combine bloom_agg states with different settings"),
			 errdetail("%s", bloom_sentence(err->message)),
			 errhint("Partial states combine only when built with the same bloomfilter.default_fpr and bloomfilter.default_layout.")));
}

/* The settings of `src` must be those of `acc` (the core's check and message). */
static void
check_settings(BloomAccum *acc, const bloom_builder *src)
{
	bloom_error err;
	bloom_allocator alloc;
	bloom_builder *empty;

	if (bloom_builder_layout(src) == bloom_builder_layout(acc->settings) &&
		bloom_builder_fpr(src) == bloom_builder_fpr(acc->settings) &&
		bloom_builder_seed(src) == bloom_builder_seed(acc->settings))
		return;
	bloom_pg_allocator(&alloc, CurrentMemoryContext);
	if (bloom_builder_create(&alloc, bloom_builder_layout(src), bloom_builder_fpr(src),
							 bloom_builder_seed(src), &empty, &err) != BLOOM_OK ||
		bloom_builder_merge(acc->settings, empty, &err) != BLOOM_OK)
		raise_mismatch(&err);
	elog(ERROR, "bloom_agg settings differ but the core merges them");
}

/*
 * A flat state, validated by the core: its hashes and a core builder with
 * its settings (free with bloom_builder_destroy).
 */
static const uint8 *
flat_hashes(Datum d, bloom_builder **settings, size_t *count)
{
	struct varlena *p = PG_DETOAST_DATUM_PACKED(d);
	bloom_allocator alloc;
	bloom_error err;

	bloom_pg_allocator(&alloc, CurrentMemoryContext);
	if (bloom_builder_deserialize(&alloc, VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p), settings,
								  &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
	*count = (VARSIZE_ANY_EXHDR(p) - STATE_HEADER) / 8;
	return (const uint8 *) VARDATA_ANY(p) + STATE_HEADER;
}

static inline uint64
load_le64(const uint8 *p)
{
	uint64		v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void
bloom_accum_merge(BloomAccum *acc, Datum src)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(src);

	if (VARATT_IS_EXTERNAL_EXPANDED(p))
	{
		BloomAccum *other = (BloomAccum *) DatumGetEOHP(src);

		check_settings(acc, other->settings);
		if (other == acc)
			return;				/* a set merged with itself is itself */
		for (int b = 0; b < other->nbuckets; b++)
		{
			HashRun    *run = &other->buckets[b];

			for (size_t i = 0; i < run->count; i++)
				accum_add(acc, run->data[i]);
		}
	}
	else
	{
		bloom_builder *settings;
		size_t		count;
		const uint8 *h = flat_hashes(src, &settings, &count);

		check_settings(acc, settings);
		bloom_builder_destroy(settings);
		for (size_t i = 0; i < count; i++)
			accum_add(acc, load_le64(h + 8 * i));
	}
}

/* A new object with the settings and hashes of d (flat or expanded). */
static BloomAccum *
accum_copy(Datum d, MemoryContext parent)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	const bloom_builder *s;
	bloom_builder *flat_settings = NULL;
	BloomAccum *acc;

	if (VARATT_IS_EXTERNAL_EXPANDED(p))
		s = ((BloomAccum *) DatumGetEOHP(d))->settings;
	else
	{
		size_t		count;

		(void) flat_hashes(d, &flat_settings, &count);
		s = flat_settings;
	}
	acc = accum_new(parent, bloom_builder_layout(s), bloom_builder_fpr(s), bloom_builder_seed(s));
	if (flat_settings)
		bloom_builder_destroy(flat_settings);
	bloom_accum_merge(acc, d);
	return acc;
}

Datum
bloom_accum_writable(Datum d, MemoryContext parent, BloomAccum **out)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);

	if (VARATT_IS_EXTERNAL_EXPANDED_RW(p) &&
		((BloomAccum *) DatumGetEOHP(d))->hdr.eoh_context->parent == parent)
	{
		*out = (BloomAccum *) DatumGetEOHP(d);
		return d;
	}
	*out = accum_copy(d, parent);
	return EOHPGetRWDatum(&(*out)->hdr);
}

Datum
bloom_accum_copy(Datum d, MemoryContext parent, BloomAccum **out)
{
	*out = accum_copy(d, parent);
	return EOHPGetRWDatum(&(*out)->hdr);
}

/*
 * The filter of a state: its distinct hashes, sorted, handed to the core as
 * one serialized state, then the core's sizing and build.
 */
struct varlena *
bloom_accum_filter(Datum d)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	struct varlena *flat;
	bloom_allocator alloc;
	bloom_builder *b;
	bloom_error err;
	bloom_filter f;
	size_t		size;
	struct varlena *result;

	if (VARATT_IS_EXTERNAL_EXPANDED(p))
	{
		BloomAccum *acc = (BloomAccum *) DatumGetEOHP(d);
		size_t		len = STATE_HEADER + 8 * compact_all(acc);

		/* the core's deserialize checks the length, not MaxAllocSize */
		flat = palloc_extended(VARHDRSZ + len, MCXT_ALLOC_HUGE);
		SET_VARSIZE(flat, VARHDRSZ + len);
		write_state(acc, (uint8 *) VARDATA(flat), len);
	}
	else
		flat = PG_DETOAST_DATUM_PACKED(d);

	bloom_pg_allocator(&alloc, CurrentMemoryContext);
	if (bloom_builder_deserialize(&alloc, VARDATA_ANY(flat), VARSIZE_ANY_EXHDR(flat), &b,
								  &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
	if ((Pointer) flat != DatumGetPointer(d))
		pfree(flat);
	if (bloom_builder_result_size(b, &size, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom filter");
	bloom_check_payload_size(size, "bloom filter");
	result = palloc(VARHDRSZ + size);
	SET_VARSIZE(result, VARHDRSZ + size);
	if (bloom_builder_finish(b, VARDATA(result), size, &f, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom filter");
	bloom_builder_destroy(b);
	return result;
}

/* ---- I/O: the serialized state, validated by the core on input ---- */

static struct varlena *
validated(struct varlena *flat, BloomSource source)
{
	bloom_allocator alloc;
	bloom_error err;
	bloom_builder *b;

	bloom_pg_allocator(&alloc, CurrentMemoryContext);
	if (bloom_builder_deserialize(&alloc, VARDATA_ANY(flat), VARSIZE_ANY_EXHDR(flat), &b,
								  &err) != BLOOM_OK)
		bloom_raise(&err, source, "bloom_builder");
	bloom_builder_destroy(b);
	return flat;
}

Datum
bloom_builder_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(validated(bloom_hex_decode(PG_GETARG_CSTRING(0), "bloom_builder"),
								BLOOM_SOURCE_TEXT));
}

Datum
bloom_builder_out(PG_FUNCTION_ARGS)
{
	/* detoasting an expanded state flattens (serializes) it */
	struct varlena *p = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(0));

	PG_RETURN_CSTRING(bloom_hex_encode(VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p)));
}

Datum
bloom_builder_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	struct varlena *result = palloc(VARHDRSZ + len);

	SET_VARSIZE(result, VARHDRSZ + len);
	pq_copymsgbytes(buf, VARDATA(result), len);
	PG_RETURN_POINTER(validated(result, BLOOM_SOURCE_BINARY));
}

Datum
bloom_builder_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
}
