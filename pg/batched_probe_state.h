/*
 * batched_probe_state.h - the state of a batched probe scan, shared by its
 * two executors: batched_probe_exec.c (the scan, the filter of a
 * bloom_contains qual) and runtime_filter_probe.c (its runtime mode: the
 * runtime filters of hash joins above it).  Not for other files.
 */
#ifndef BLOOMFILTER_BATCHED_PROBE_STATE_H
#define BLOOMFILTER_BATCHED_PROBE_STATE_H

#include "postgres.h"

#include "access/htup.h"
#include "commands/explain.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "storage/buf.h"
#include "batched_probe.h"
#include "runtime_filter.h"
#include "runtime_filter_probe.h"
#include "runtime_filter_prune.h"

BLOOM_HIDDEN_BEGIN

typedef struct BatchedProbeState
{
	CustomScanState css;
	ExprState  *filter_expr;
	ExprState  *key_expr;
	BloomHasher hasher;
	BloomTextProbe *text_probe;	/* a text key of a filter that records kinds */

	/* the filter, read at the first fetch after the start or a rescan */
	bool		filter_ready;
	bool		filter_null;
	bloom_filter filter;
	Size		filter_bytes;
	MemoryContext filter_cxt;	/* the detoasted filter */
	MemoryContext batch_cxt;	/* keys of the current batch */

	/*
	 * The current batch: survivors[pos..nsurvivors) are still to return.
	 * Rows are read through fetch_slot; the batch keeps each row's tuple
	 * header and buffer, and one pin per page (not per row: a resource
	 * owner slows down with many pins of one buffer).
	 */
	TupleTableSlot *fetch_slot;
	HeapTupleData tuples[BLOOM_PROBE_BATCH];
	Buffer		buffers[BLOOM_PROBE_BATCH];
	Buffer		pinned[BLOOM_PROBE_BATCH];
	int			npinned;
	uint64		hashes[BLOOM_PROBE_BATCH];
	bool		hits[BLOOM_PROBE_BATCH];
	int			survivors[BLOOM_PROBE_BATCH];
	int			nsurvivors;
	int			pos;
	bool		done;			/* the heap scan is exhausted */

	/* runtime mode */
	bool		runtime;
	int			nfilters;
	RuntimeProbe *filters[RUNTIME_MAX_FILTERS];
	ExprState  *quals;			/* the scan's quals, checked before the filters */
	bool		filters_read;	/* every filter looked for since the (re)scan */
	uint64		batches;
	uint64		passed_through; /* rows read unprobed since the last sample */
	struct RuntimeLookup *lookup;	/* index lookups, when planned */
	RuntimeSkip skip;			/* the heap scan skipped (runtime_filter_prune.h) */
} BatchedProbeState;

/* batched_probe_exec.c: the plan node's methods (a runtime probe is one
 * of its plans, made by runtime_filter_probe.c) */
extern const CustomScanMethods bloom_batched_probe_scan_methods;

/* batched_probe_exec.c: drop the current batch's pins and rows */
extern void bloom_batched_release(BatchedProbeState *state);

/* runtime_filter_probe.c */

/* Set up runtime mode for a plan with runtime filters (begin_scan). */
extern void bloom_runtime_probe_begin(BatchedProbeState *state, CustomScan *cscan);

/* Start, or start again after a rescan: look for the filters at the first row. */
extern void bloom_runtime_probe_restart(BatchedProbeState *state);

/* Whether the scan returns nothing, a filter's range missing the table's
 * bounds of its key: decided at the first row, or when a filter is read. */
extern bool bloom_runtime_probe_skips(BatchedProbeState *state);

/* The next row that passes the quals and the filters on (empty at the end). */
extern TupleTableSlot *bloom_runtime_probe_next(BatchedProbeState *state);

/* The runtime filters' EXPLAIN lines. */
extern void bloom_runtime_probe_explain(BatchedProbeState *state, List *context, ExplainState *es);

/* runtime_filter_keyset.c: index lookups of a filter's exact set */

/* Set up the lookups the plan allows, if any (state->lookup). */
extern void bloom_runtime_lookup_begin(BatchedProbeState *state);

/* Whether this (re)scan reads by lookups (decided at its first row). */
extern bool bloom_runtime_lookup_use(BatchedProbeState *state);

/* The next row of the lookups that passes the quals and the filters. */
extern TupleTableSlot *bloom_runtime_lookup_next(BatchedProbeState *state);

/* A parallel-aware scan's shared decision: its size in the scan's dynamic
 * shared memory, made (or made again) there, or found by a worker. */
extern Size bloom_runtime_lookup_shared_size(void);
extern void bloom_runtime_lookup_shared_init(BatchedProbeState *state, void *shared, bool attach);

/* A rescan: decide again. */
extern void bloom_runtime_lookup_restart(BatchedProbeState *state);

extern void bloom_runtime_lookup_end(BatchedProbeState *state);

/* "Index Lookups: N keys using INDEX, rows fetched M" (EXPLAIN ANALYZE). */
extern void bloom_runtime_lookup_explain(BatchedProbeState *state, ExplainState *es);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_BATCHED_PROBE_STATE_H */
