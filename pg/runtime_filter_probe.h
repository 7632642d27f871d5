/*
 * runtime_filter_probe.h - a runtime filter as its probe sees it, shared by
 * the two probe nodes (runtime_filter.h): the batched probe scan in runtime
 * mode (a heap Seq Scan replaced, batched_probe_state.h) and the filter node
 * over any other scan (runtime_filter_wrap.c).  Not for other files.
 */
#ifndef BLOOMFILTER_RUNTIME_FILTER_PROBE_H
#define BLOOMFILTER_RUNTIME_FILTER_PROBE_H

#include "postgres.h"

#include "commands/explain.h"
#include "nodes/execnodes.h"
#include "batched_probe.h"
#include "runtime_filter.h"

BLOOM_HIDDEN_BEGIN

/* Probed rows per decision of a runtime filter that is on: stay on or
 * switch off; and of one that is off (sampled rows): switch on or not. */
#define RUNTIME_WINDOW 4096
#define RUNTIME_SWITCH_ON_WINDOW 256
/* A switched-off filter probes one batch in this many; with every filter
 * off, a batch after this many rows read unprobed. */
#define RUNTIME_SAMPLE_EVERY 64
#define RUNTIME_SAMPLE_ROWS ((uint64) RUNTIME_SAMPLE_EVERY * BLOOM_PROBE_BATCH)
/* Runtime filters one scan probes at most (the joins above it). */
#define RUNTIME_MAX_FILTERS 8

/* One runtime filter of a scan in runtime mode. */
typedef struct RuntimeProbe
{
	RuntimeFilterSpec spec;
	RuntimeKeyHasher hasher;
	bool		present;		/* the Bloom filter, read from its parameter */
	bool		range_present;	/* the range tier, read from its own */
	RuntimeKeyRange range;
	bool		keyset_read;	/* the exact set's slot read: a set, or none */
	bool		keyset_keys;	/* the set's keys are in keyset */
	bool		keyset_present; /* and probed in place of the Bloom filter (at
								 * most RUNTIME_KEYSET_MAX: a bigger set is
								 * for index lookups only) */
	int			keyset_n;
	int64	   *keyset;			/* sorted, distinct */
	int			keyset_room;	/* keys allocated */
	/* the same keys in open addressing, at most half full, for the probes
	 * (a binary search costs a row several mispredicted branches) */
	int64	   *keyset_slots;
	bool	   *keyset_used;
	uint32		keyset_mask;	/* slots - 1, a power of 2 less one */
	int			keyset_shift;	/* 64 - log2(slots) */
	int			keyset_capacity;	/* slots allocated */
	bool		off;			/* switched off */
	bool		prefetch;
	bloom_filter filter;
	Size		bytes;
	/* the current window */
	uint64		window_probed;
	uint64		window_passed;
	/* totals, for EXPLAIN ANALYZE */
	uint64		probed;
	uint64		removed;
	uint64		range_removed;	/* of those, by the range */
	uint64		switches_off;
	uint64		off_after;		/* rows probed when it first switched off */
	double		off_pass;		/* the share that passed then */
	/* this batch: the hash of each row, whether its key was NULL */
	uint64		hashes[BLOOM_PROBE_BATCH];
	bool		null_key[BLOOM_PROBE_BATCH];	/* or out of the range */
	bool		out_of_range[BLOOM_PROBE_BATCH];
} RuntimeProbe;

/* Whether a filter has something to test: its Bloom filter, its range. */
static inline bool
bloom_runtime_probe_ready(const RuntimeProbe *rf)
{
	return rf->present || rf->range_present || rf->keyset_present;
}

/* The first slot of key in the exact set's table (Fibonacci hashing). */
static inline uint32
bloom_runtime_keyset_slot(const RuntimeProbe *rf, int64 key)
{
	return (uint32) (((uint64) key * UINT64CONST(0x9E3779B97F4A7C15)) >> rf->keyset_shift);
}

/* Whether key is in the exact set. */
static inline bool
bloom_runtime_keyset_contains(const RuntimeProbe *rf, int64 key)
{
	uint32		slot = bloom_runtime_keyset_slot(rf, key);

	while (rf->keyset_used[slot])
	{
		if (rf->keyset_slots[slot] == key)
			return true;
		slot = (slot + 1) & rf->keyset_mask;
	}
	return false;
}

/*
 * The hash of the row in econtext; false when it matches none of the
 * build's keys without a look at the Bloom filter: a NULL key, a key
 * outside the build keys' range (*out_of_range), or not in their exact set.
 */
static inline bool
bloom_runtime_probe_key(RuntimeProbe *rf, ExprContext *econtext, uint64 *hash, bool *out_of_range)
{
	int64		key = 0;

	*out_of_range = false;
	if (!bloom_runtime_hash_row_key(&rf->hasher, econtext, hash, &key))
		return false;
	if (rf->range_present && (key < rf->range.min || key > rf->range.max))
	{
		*out_of_range = true;
		return false;
	}
	if (rf->keyset_present && !bloom_runtime_keyset_contains(rf, key))
		return false;
	return true;
}

/* Whether the Bloom filter, if read and not replaced by the exact set, may
 * hold hash. */
static inline bool
bloom_runtime_probe_hash(RuntimeProbe *rf, uint64 hash)
{
	return !rf->present || rf->keyset_present || bloom_contains_hash(&rf->filter, hash);
}

/*
 * The probes of the specs in specs (a plan's custom_private), whose keys are
 * keys in turn (expressions compiled for parent), into filters; their count.
 */
extern int	bloom_runtime_probes_init(RuntimeProbe **filters, List *specs, List *keys,
									  PlanState *parent);

/* Read each filter not read yet from its parameter slot; whether all are. */
extern bool bloom_runtime_read_filters(EState *estate, RuntimeProbe **filters, int nfilters);

/* Read the exact set of rf from its slot prm, sorted and without repeats
 * (rf->keyset_keys); whether it is probed in place of the Bloom filter
 * (rf->keyset_present: at most RUNTIME_KEYSET_MAX keys).  rf->keyset_read:
 * the slot held a set or "too many", not to be looked at again. */
extern bool bloom_runtime_read_keyset(RuntimeProbe *rf, ParamExecData *prm);

/* Forget the filters read: look for them again (a rescan may rebuild them). */
extern void bloom_runtime_forget_filters(RuntimeProbe **filters, int nfilters);

/* Count a window's probes: switch off when too many passed, on when few. */
extern void bloom_runtime_decide(RuntimeProbe *rf, uint64 probed, uint64 passed);

/* The filters' EXPLAIN lines, "Runtime Filter N: keys (figures)". */
extern void bloom_runtime_explain_filters(RuntimeProbe **filters, int nfilters, List *keys,
										  List *context, ExplainState *es);

/* "Rows Removed by Bloom Filter" of the probe node ps (EXPLAIN ANALYZE). */
extern void bloom_runtime_explain_removed(PlanState *ps, ExplainState *es);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_RUNTIME_FILTER_PROBE_H */
