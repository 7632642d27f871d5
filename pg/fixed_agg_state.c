/*
 * fixed_agg_state.c - the state of bloom_agg(value, capacity, fpr) for a
 * filter of 64 KiB or more.
 *
 * The aggregate's state type is `bloom` and it has no final function: the
 * state after the last row is the result.  Set row by row, a large classic
 * filter costs k cache misses a row (bench-pg measures bloom_agg against
 * sum()).  So inside PostgreSQL's own aggregation such a
 * state is an expanded `bloom`: the filter and a batch of pending hashes,
 * added a batch at a time, their lines prefetched ahead (bloom_add_hashes).
 * Any reader gets the flat value through the expanded-object protocol,
 * whose flattening adds the pending hashes first: nodeAgg's copy of the
 * result, a tuple, a parallel worker's partial state, a detoasting
 * function.  The value is the same bytes as the row-by-row filter's.
 *
 * Smaller filters, the counting and scalable layouts and calls outside an
 * aggregate keep the flat state.
 */
#include "bloomfilter.h"

#include "utils/expandeddatum.h"
#include "utils/memutils.h"

/* Filters from this size on take the batched state.  Its per-row path
 * also skips the checks of a flat state, which pays even for a filter in
 * the cache; below it, the batch (2 KB) would outweigh the filter in a
 * GROUP BY of many small groups. */
#define FIXED_BATCH_MIN_BYTES (64 * 1024)
struct BloomFixedAgg
{
	ExpandedObjectHeader hdr;
	struct varlena *flat;		/* the filter's value, pending hashes aside */
	bloom_filter filter;		/* its view */
	bloom_pending pending;
};

static Size
fixed_get_flat_size(ExpandedObjectHeader *eohptr)
{
	BloomFixedAgg *obj = (BloomFixedAgg *) eohptr;

	bloom_pending_flush(&obj->filter, &obj->pending);
	return VARSIZE(obj->flat);
}

static void
fixed_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	BloomFixedAgg *obj = (BloomFixedAgg *) eohptr;

	bloom_pending_flush(&obj->filter, &obj->pending);
	if (allocated_size != VARSIZE(obj->flat))
		elog(ERROR, "bloom_agg state flattened into %zu bytes, not %zu",
			 (size_t) allocated_size, (size_t) VARSIZE(obj->flat));
	memcpy(result, obj->flat, allocated_size);
}

static const ExpandedObjectMethods fixed_methods = {
	fixed_get_flat_size,
	fixed_flatten_into
};

bool
bloom_fixed_agg_batches(int layout, uint64 nbits)
{
	return (layout == BLOOM_LAYOUT_CLASSIC || layout == BLOOM_LAYOUT_BLOCKED) &&
		bloom_layout_size(layout, nbits) >= FIXED_BATCH_MIN_BYTES;
}

Datum
bloom_fixed_agg_new(MemoryContext aggctx, int layout, uint64 nbits, unsigned nhashes,
					BloomFixedAgg **out)
{
	/*
	 * In the arena of the aggregate's states, as bloom_agg(x)'s: a context
	 * per group would make a HashAggregate walk every group's context at
	 * each new group.  The object is never deleted on its own: the
	 * transition function returns it unchanged.
	 */
	MemoryContext arena = bloom_agg_arena(aggctx);
	MemoryContext old = MemoryContextSwitchTo(arena);
	BloomFixedAgg *obj = palloc(sizeof(BloomFixedAgg));

	EOH_init_header(&obj->hdr, &fixed_methods, arena);
	obj->flat = bloom_make(layout, nbits, nhashes, 0, &obj->filter);
	obj->pending.n = 0;
	MemoryContextSwitchTo(old);
	*out = obj;
	return EOHPGetRWDatum(&obj->hdr);
}

BloomFixedAgg *
bloom_fixed_agg_of(Datum d, MemoryContext aggctx)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	ExpandedObjectHeader *eoh;

	if (aggctx == NULL || !VARATT_IS_EXTERNAL_EXPANDED_RW(p))
		return NULL;
	eoh = DatumGetEOHP(d);
	if (eoh->eoh_methods != &fixed_methods || MemoryContextGetParent(eoh->eoh_context) != aggctx)
		return NULL;
	return (BloomFixedAgg *) eoh;
}

const bloom_filter *
bloom_fixed_agg_filter(const BloomFixedAgg *obj)
{
	return &obj->filter;
}

void
bloom_fixed_agg_add(BloomFixedAgg *obj, uint64 hash)
{
	bloom_pending_add(&obj->filter, &obj->pending, hash);
}

void
bloom_fixed_agg_add_kind(BloomFixedAgg *obj, const BloomHasher *h)
{
	/* its pending hashes are of this class (one call site): recorded
	 * before they are flushed, the bits read empty or as the class */
	bloom_record_kind(&obj->filter, h);
}
