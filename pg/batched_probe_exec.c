/*
 * batched_probe_exec.c - executing the batched probe scan (batched_probe.h).
 *
 * Row at a time, a probe of a filter larger than the cache waits for one
 * memory miss per row: the next row's key is unknown until the current row
 * is returned.  This scan reads up to BLOOM_PROBE_BATCH visible rows,
 * keeping their tuple headers (the tuples stay in their pinned pages),
 * hashes their keys as bloom_contains does (hashing.c),
 * probes them all with the core's prefetching batch probe, and returns the
 * survivors one by one through ExecScan, which checks the other quals and
 * projects.  Rows whose key or filter is NULL are not returned (the function
 * is STRICT, so the qual is NULL there).
 *
 * Plan node: a CustomScan on a heap table, custom_exprs = (filter, key),
 * plan.qual = the other quals.
 *
 * Runtime mode (the automatic Bloom join, runtime_filter.h): the filters
 * are runtime filters of hash joins above, read from their parameter slots
 * at the first batch after the start or a rescan (NULL: none yet, or none
 * at all; read again at each batch until there is one), custom_exprs their
 * keys (each filter's in turn) and custom_private their specs.  There the
 * scan's quals are checked first and the keys are computed only for the
 * rows that pass them, as the join above computes them only for the rows
 * it receives; a row whose key is NULL matches nothing and is removed.
 * Each filter watches the share of rows it lets through, per window of
 * RUNTIME_WINDOW probed rows: above bloomfilter.runtime_filter_max_pass it
 * switches off (the filter is not selective, and probing it costs more
 * than it saves); a switched-off filter still probes one batch in
 * RUNTIME_SAMPLE_EVERY, and switches back on when a window of those passes
 * few enough.  With no filter on, rows are read one at a time as a Seq
 * Scan reads them.  EvalPlanQual rechecks test the quals only: a filter
 * only ever removes rows the join would remove.
 */
#include "bloomfilter.h"
#include "batched_probe.h"
#include "runtime_filter.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/nodeFuncs.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

/* Probed rows per decision of a runtime filter: on or off. */
#define RUNTIME_WINDOW 4096
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
	bool		present;		/* read from its parameter */
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
	uint64		switches_off;
	uint64		off_after;		/* rows probed when it first switched off */
	double		off_pass;		/* the share that passed then */
	/* this batch: the hash of each row, whether its key was NULL */
	uint64		hashes[BLOOM_PROBE_BATCH];
	bool		null_key[BLOOM_PROBE_BATCH];
} RuntimeProbe;

typedef struct BatchedProbeState
{
	CustomScanState css;
	ExprState  *filter_expr;
	ExprState  *key_expr;
	BloomHasher hasher;

	/* the filter, read at the first fetch after the start or a rescan */
	bool		filter_ready;
	bool		filter_null;
	bool		prefetch;		/* at least bloomfilter.batched_probe_min_size */
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
} BatchedProbeState;

static Node *create_state(CustomScan *cscan);
static void begin_scan(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_scan(CustomScanState *node);
static void end_scan(CustomScanState *node);
static void rescan(CustomScanState *node);
static Size estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
static void initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate);
static void explain_scan(CustomScanState *node, List *ancestors, ExplainState *es);
static void runtime_restart(BatchedProbeState *state);

static const CustomScanMethods scan_methods = {
	.CustomName = BLOOM_BATCHED_PROBE_NAME,
	.CreateCustomScanState = create_state,
};

static const CustomExecMethods exec_methods = {
	.CustomName = BLOOM_BATCHED_PROBE_NAME,
	.BeginCustomScan = begin_scan,
	.ExecCustomScan = exec_scan,
	.EndCustomScan = end_scan,
	.ReScanCustomScan = rescan,
	.EstimateDSMCustomScan = estimate_dsm,
	.InitializeDSMCustomScan = initialize_dsm,
	.ReInitializeDSMCustomScan = reinitialize_dsm,
	.InitializeWorkerCustomScan = initialize_worker,
	.ExplainCustomScan = explain_scan,
};

void
bloom_batched_probe_register(void)
{
	RegisterCustomScanMethods(&scan_methods);
}

bool
bloom_runtime_is_probe(Plan *plan)
{
	return IsA(plan, CustomScan) && ((CustomScan *) plan)->methods == &scan_methods &&
		((CustomScan *) plan)->custom_private != NIL;
}

CustomScan *
bloom_runtime_probe_make(Plan *seq, List *keys, const RuntimeFilterSpec *spec)
{
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	CustomScan *cscan = (__extension__ makeNode(CustomScan));

	Assert(IsA(seq, SeqScan));
	/* the Seq Scan's header (costs, rows, tlist, quals, parallel_aware, ...) */
	cscan->scan = ((SeqScan *) seq)->scan;
	cscan->scan.plan.type = T_CustomScan;
	cscan->flags = 0;
	cscan->custom_plans = NIL;
	cscan->custom_exprs = NIL;
	cscan->custom_private = NIL;
	cscan->custom_scan_tlist = NIL;
	cscan->custom_relids = bms_make_singleton(cscan->scan.scanrelid);
	cscan->methods = &scan_methods;
	bloom_runtime_probe_add(cscan, keys, spec);
	return cscan;
}

void
bloom_runtime_probe_add(CustomScan *probe, List *keys, const RuntimeFilterSpec *spec)
{
	Assert(list_length(keys) == spec->nkeys);
	probe->custom_exprs = list_concat(probe->custom_exprs, keys);
	probe->custom_private = lappend(probe->custom_private, bloom_runtime_spec_to_list(spec));
}

/* Whether scan may probe another runtime filter. */
bool
bloom_runtime_probe_has_room(CustomScan *probe)
{
	return list_length(probe->custom_private) < RUNTIME_MAX_FILTERS;
}

CustomScan *
bloom_batched_probe_make_scan(Index scanrelid, List *tlist, List *quals, Expr *filter, Expr *key)
{
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	CustomScan *cscan = (__extension__ makeNode(CustomScan));

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = quals;
	cscan->scan.scanrelid = scanrelid;
	cscan->flags = 0;
	cscan->custom_plans = NIL;
	cscan->custom_exprs = list_make2(filter, key);
	cscan->custom_private = NIL;
	cscan->custom_scan_tlist = NIL;
	cscan->methods = &scan_methods;
	return cscan;
}

static Node *
create_state(CustomScan *cscan)
{
	BatchedProbeState *state = palloc0(sizeof(BatchedProbeState));

	NodeSetTag(state, T_CustomScanState);
	state->css.flags = cscan->flags;
	state->css.methods = &exec_methods;
	return (Node *) state;
}

static void
begin_scan(CustomScanState *node, EState *estate, int eflags)
{
	BatchedProbeState *state = (BatchedProbeState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Expr	   *filter = cscan->custom_private == NIL ? linitial(cscan->custom_exprs) : NULL;
	Expr	   *key = cscan->custom_private == NIL ? lsecond(cscan->custom_exprs) : NULL;
	TupleDesc	desc = RelationGetDescr(node->ss.ss_currentRelation);

	(void) eflags;

	/*
	 * The rows returned are heap tuples in buffer slots.  PostgreSQL gives
	 * a custom scan a virtual scan slot (15 always; 16 on, unless the state
	 * names other slotOps) and compiles the quals and the projection (and
	 * JIT-deforms) for it, so they are made again for buffer slots, as
	 * ExecInitSeqScan makes them.
	 */
	node->ss.ss_ScanTupleSlot = ExecAllocTableSlot(&estate->es_tupleTable, desc,
												   &TTSOpsBufferHeapTuple, 0);
	node->ss.ps.scandesc = desc;
	node->ss.ps.scanops = &TTSOpsBufferHeapTuple;
	node->ss.ps.scanopsfixed = true;
	node->ss.ps.scanopsset = true;
	ExecAssignScanProjectionInfoWithVarno(&node->ss, cscan->scan.scanrelid);
	node->ss.ps.qual = ExecInitQual(cscan->scan.plan.qual, &node->ss.ps);

	if (cscan->custom_private != NIL)
	{
		/* runtime mode: the quals are checked by the batches, first */
		ListCell   *lc;
		int			first = 0;

		state->runtime = true;
		state->quals = node->ss.ps.qual;
		node->ss.ps.qual = NULL;
		foreach(lc, cscan->custom_private)
		{
			RuntimeProbe *rf = palloc0(sizeof(RuntimeProbe));

			bloom_runtime_spec_from_list(lfirst(lc), &rf->spec);
			bloom_runtime_hasher_init(&rf->hasher,
									  list_copy_tail(list_truncate(list_copy(cscan->custom_exprs),
																   first + rf->spec.nkeys),
													 first),
									  rf->spec.hashfuncs, rf->spec.collations,
									  rf->spec.integer_keys, &node->ss.ps);
			first += rf->spec.nkeys;
			state->filters[state->nfilters++] = rf;
		}
	}
	else
	{
		state->filter_expr = ExecInitExpr(filter, &node->ss.ps);
		state->key_expr = ExecInitExpr(key, &node->ss.ps);
		bloom_hasher_init_type(&state->hasher, exprType((Node *) key), estate->es_query_cxt);
	}
	state->filter_cxt = bloom_context_create(estate->es_query_cxt, "bloom batched probe filter",
											  ALLOCSET_DEFAULT_SIZES);
	state->batch_cxt = bloom_context_create(estate->es_query_cxt, "bloom batched probe batch",
											 ALLOCSET_DEFAULT_SIZES);
	state->fetch_slot = ExecAllocTableSlot(&estate->es_tupleTable, desc, &TTSOpsBufferHeapTuple, 0);
	if (state->runtime)
		runtime_restart(state);
}

/* Evaluate the filter expression: once per scan, again after a rescan. */
static void
read_filter(BatchedProbeState *state)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	MemoryContext old;
	Datum		value;
	bool		isnull;
	struct varlena *flat;

	MemoryContextReset(state->filter_cxt);
	ResetExprContext(econtext);
	econtext->ecxt_scantuple = NULL;
	old = MemoryContextSwitchTo(state->filter_cxt);
	value = ExecEvalExpr(state->filter_expr, econtext, &isnull);
	state->filter_null = isnull;
	if (!isnull)
	{
		/* a TOASTed filter (a stored one) is read whole, once */
		flat = pg_detoast_datum((struct varlena *) DatumGetPointer(value));
		bloom_parse_stored(VARDATA(flat), VARSIZE(flat) - VARHDRSZ, &state->filter);
		state->filter_bytes = VARSIZE(flat);
		state->prefetch = state->filter_bytes >= (Size) bloomfilter_batched_probe_min_size * 1024;
	}
	MemoryContextSwitchTo(old);
	state->filter_ready = true;
}

/* Drop the batch's pins and rows. */
static void
release_batch(BatchedProbeState *state)
{
	for (int i = 0; i < state->npinned; i++)
		ReleaseBuffer(state->pinned[i]);
	state->npinned = 0;
	state->nsurvivors = 0;
	state->pos = 0;
}

/*
 * Fetch, hash and probe the next batch; false when the heap scan is done.
 * A batch may have no survivors.
 */
static bool
next_batch(BatchedProbeState *state)
{
	ScanState  *ss = &state->css.ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;
	TableScanDesc scan = ss->ss_currentScanDesc;
	MemoryContext old;
	int			n = 0;
	int			nkeys = 0;
	int			rows[BLOOM_PROBE_BATCH];

	CHECK_FOR_INTERRUPTS();
	/* the slot returned last may still show a row of this batch */
	ExecClearTuple(ss->ss_ScanTupleSlot);
	release_batch(state);
	if (state->done)
		return false;
	MemoryContextReset(state->batch_cxt);
	old = MemoryContextSwitchTo(state->batch_cxt);
	while (n < BLOOM_PROBE_BATCH)
	{
		TupleTableSlot *slot = state->fetch_slot;
		BufferHeapTupleTableSlot *bslot = (BufferHeapTupleTableSlot *) slot;
		Datum		key;
		bool		isnull;

		if (!table_scan_getnextslot(scan, ForwardScanDirection, slot))
		{
			state->done = true;
			break;
		}
		/* the header is the scan's, overwritten by the next fetch */
		state->tuples[n] = *bslot->base.tuple;
		state->buffers[n] = bslot->buffer;
		if (state->npinned == 0 || state->pinned[state->npinned - 1] != bslot->buffer)
		{
			IncrBufferRefCount(bslot->buffer);
			state->pinned[state->npinned++] = bslot->buffer;
		}
		econtext->ecxt_scantuple = slot;
		key = ExecEvalExpr(state->key_expr, econtext, &isnull);
		if (!isnull)
		{
			state->hashes[nkeys] = bloom_hash_value(&state->hasher, key, state->filter.seed);
			rows[nkeys++] = n;
		}
		n++;
	}
	MemoryContextSwitchTo(old);

	if (state->prefetch)
		bloom_contains_hashes(&state->filter, state->hashes, (size_t) nkeys, state->hits);
	else
		for (int i = 0; i < nkeys; i++)
			state->hits[i] = bloom_contains_hash(&state->filter, state->hashes[i]);
	for (int i = 0; i < nkeys; i++)
		if (state->hits[i])
			state->survivors[state->nsurvivors++] = rows[i];
	/* rows with a NULL key are removed too */
	InstrCountFiltered2(state, n - state->nsurvivors);
	return n > 0;
}

/* ---- runtime mode ---- */

/* Read each filter not read yet from its parameter slot. */
static void
read_runtime_filters(BatchedProbeState *state)
{
	ParamExecData *params = state->css.ss.ps.state->es_param_exec_vals;
	bool		all = true;

	for (int f = 0; f < state->nfilters; f++)
	{
		RuntimeProbe *rf = state->filters[f];
		ParamExecData *prm = &params[rf->spec.paramid];
		struct varlena *value;
		bloom_error err;

		if (rf->present)
			continue;
		/* not built yet, or not at all (too many keys): every row passes */
		if (prm->isnull || prm->value == (Datum) 0)
		{
			all = false;
			continue;
		}
		value = (struct varlena *) DatumGetPointer(prm->value);
		/* built by the build node of this plan (in this process, or sent to
		 * this worker by a Gather): only the header is read again */
		if (bloom_parse_header(VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value), &rf->filter,
							   &err) != BLOOM_OK)
			bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
		rf->bytes = VARSIZE_ANY(value);
		rf->prefetch = rf->bytes >= (Size) bloomfilter_batched_probe_min_size * 1024;
		rf->present = true;
	}
	state->filters_read = all;
}

/* Whether some filter is on: else rows are read unprobed, between samples. */
static bool
runtime_any_on(BatchedProbeState *state)
{
	for (int f = 0; f < state->nfilters; f++)
		if (state->filters[f]->present && !state->filters[f]->off)
			return true;
	return false;
}

/* The window's verdict: off when too many passed, on again when few did. */
static void
runtime_decide(RuntimeProbe *rf, uint64 probed, uint64 passed)
{
	double		share;

	rf->probed += probed;
	rf->removed += probed - passed;
	rf->window_probed += probed;
	rf->window_passed += passed;
	if (rf->window_probed < RUNTIME_WINDOW)
		return;
	share = (double) rf->window_passed / (double) rf->window_probed;
	if (!rf->off && share > bloomfilter_runtime_filter_max_pass)
	{
		rf->off = true;
		if (rf->switches_off++ == 0)
		{
			rf->off_after = rf->probed;
			rf->off_pass = share;
		}
	}
	else if (rf->off && share <= bloomfilter_runtime_filter_max_pass)
		rf->off = false;
	rf->window_probed = 0;
	rf->window_passed = 0;
}

/* Keep the row in fetch_slot in the batch (its header, a pin of its page). */
static inline void
keep_row(BatchedProbeState *state, int n)
{
	BufferHeapTupleTableSlot *bslot = (BufferHeapTupleTableSlot *) state->fetch_slot;

	state->tuples[n] = *bslot->base.tuple;
	state->buffers[n] = bslot->buffer;
	if (state->npinned == 0 || state->pinned[state->npinned - 1] != bslot->buffer)
	{
		IncrBufferRefCount(bslot->buffer);
		state->pinned[state->npinned++] = bslot->buffer;
	}
}

/*
 * Fetch the next batch of rows that pass the quals and the probing filters
 * (those on, and the ones off when the batch is a sample); false when the
 * heap scan is done.  A batch may have no survivors.
 *
 * Filters that fit in the cache are probed row by row as the rows are
 * read: a row turned away is never kept.  When a filter is larger
 * (bloomfilter.batched_probe_min_size), every row that passes the quals is
 * kept with its hashes, and each filter in turn probes the batch with the
 * prefetching batch probe.
 */
static bool
next_runtime_batch(BatchedProbeState *state)
{
	ScanState  *ss = &state->css.ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;
	TableScanDesc scan = ss->ss_currentScanDesc;
	TupleTableSlot *slot = state->fetch_slot;
	MemoryContext old;
	RuntimeProbe *probing[RUNTIME_MAX_FILTERS];
	uint64		probed[RUNTIME_MAX_FILTERS] = {0};
	uint64		passed[RUNTIME_MAX_FILTERS] = {0};
	int			nprobing = 0;
	bool		batched = false;
	int			n = 0;
	int			read = 0;
	bool		sample;

	CHECK_FOR_INTERRUPTS();
	ExecClearTuple(ss->ss_ScanTupleSlot);
	release_batch(state);
	if (state->done)
		return false;
	if (!state->filters_read)
		read_runtime_filters(state);
	/* the filters on, and the ones off when this batch is a sample */
	sample = !runtime_any_on(state) || state->batches % RUNTIME_SAMPLE_EVERY == 0;
	for (int f = 0; f < state->nfilters; f++)
	{
		RuntimeProbe *rf = state->filters[f];

		if (rf->present && (!rf->off || sample))
		{
			probing[nprobing++] = rf;
			batched |= rf->prefetch;
		}
	}
	state->batches++;
	state->passed_through = 0;

	MemoryContextReset(state->batch_cxt);
	old = MemoryContextSwitchTo(state->batch_cxt);
	while (n < BLOOM_PROBE_BATCH && read < 4 * BLOOM_PROBE_BATCH)
	{
		int			f;

		if (!table_scan_getnextslot(scan, ForwardScanDirection, slot))
		{
			state->done = true;
			break;
		}
		read++;
		econtext->ecxt_scantuple = slot;
		if (state->quals != NULL)
		{
			bool		pass = ExecQual(state->quals, econtext);

			ResetExprContext(econtext);
			if (!pass)
			{
				InstrCountFiltered1(state, 1);
				continue;
			}
		}
		for (f = 0; f < nprobing; f++)
		{
			RuntimeProbe *rf = probing[f];
			uint64		hash = 0;
			bool		hashed = bloom_runtime_hash_row(&rf->hasher, econtext, &hash);

			if (batched)
			{
				rf->null_key[n] = !hashed;
				rf->hashes[n] = hash;
				continue;
			}
			probed[f]++;
			/* a NULL key matches nothing */
			if (!hashed || !bloom_contains_hash(&rf->filter, hash))
				break;
			passed[f]++;
		}
		if (f < nprobing)
			continue;
		keep_row(state, n);
		state->survivors[n] = n;
		n++;
	}
	MemoryContextSwitchTo(old);

	state->nsurvivors = n;
	if (batched)
	{
		/* every row kept, then what each filter leaves to the next */
		int			alive[BLOOM_PROBE_BATCH];
		int			nalive = n;

		for (int i = 0; i < n; i++)
			alive[i] = i;
		for (int f = 0; f < nprobing && nalive > 0; f++)
		{
			RuntimeProbe *rf = probing[f];
			uint64		hashes[BLOOM_PROBE_BATCH];
			int			rows[BLOOM_PROBE_BATCH];
			int			nkeys = 0;

			probed[f] = nalive;
			for (int i = 0; i < nalive; i++)
				if (!rf->null_key[alive[i]])
				{
					hashes[nkeys] = rf->hashes[alive[i]];
					rows[nkeys++] = alive[i];
				}
			if (rf->prefetch)
				bloom_contains_hashes(&rf->filter, hashes, (size_t) nkeys, state->hits);
			else
				for (int i = 0; i < nkeys; i++)
					state->hits[i] = bloom_contains_hash(&rf->filter, hashes[i]);
			nalive = 0;
			for (int i = 0; i < nkeys; i++)
				if (state->hits[i])
					alive[nalive++] = rows[i];
			passed[f] = nalive;
		}
		for (int i = 0; i < nalive; i++)
			state->survivors[i] = alive[i];
		state->nsurvivors = nalive;
	}
	for (int f = 0; f < nprobing; f++)
	{
		InstrCountFiltered2(state, (double) (probed[f] - passed[f]));
		runtime_decide(probing[f], probed[f], passed[f]);
	}
	return read > 0;
}

/* A row read without probing (no filter on), as a Seq Scan reads it. */
static TupleTableSlot *
next_unprobed_row(BatchedProbeState *state)
{
	ScanState  *ss = &state->css.ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;

	for (;;)
	{
		if (!table_scan_getnextslot(ss->ss_currentScanDesc, ForwardScanDirection, slot))
		{
			state->done = true;
			return NULL;
		}
		state->passed_through++;
		if (state->quals == NULL)
			return slot;
		econtext->ecxt_scantuple = slot;
		if (ExecQual(state->quals, econtext))
			return slot;
		ResetExprContext(econtext);
		InstrCountFiltered1(state, 1);
	}
}

/*
 * The next row of a scan in runtime mode: the survivors of the current
 * batch; then, while some filter is on, another batch; with none on, rows
 * read unprobed until a batch is due to look for the filters not read yet
 * and to sample the ones off.
 */
static TupleTableSlot *
next_runtime_row(BatchedProbeState *state)
{
	ScanState  *ss = &state->css.ss;

	for (;;)
	{
		if (state->pos < state->nsurvivors)
		{
			int			row = state->survivors[state->pos++];

			return ExecStoreBufferHeapTuple(&state->tuples[row], ss->ss_ScanTupleSlot,
											state->buffers[row]);
		}
		if (state->done)
		{
			release_batch(state);
			return ExecClearTuple(ss->ss_ScanTupleSlot);
		}
		if (!runtime_any_on(state) && state->passed_through < RUNTIME_SAMPLE_ROWS)
		{
			TupleTableSlot *slot;

			if (state->npinned > 0)
				release_batch(state);
			slot = next_unprobed_row(state);
			if (slot != NULL)
				return slot;
			continue;
		}
		next_runtime_batch(state);
	}
}

/* Start (or start again): look for the filters at the first row. */
static void
runtime_restart(BatchedProbeState *state)
{
	state->filters_read = false;
	state->batches = 0;
	state->passed_through = RUNTIME_SAMPLE_ROWS;
	for (int f = 0; f < state->nfilters; f++)
	{
		RuntimeProbe *rf = state->filters[f];

		rf->present = false;
		rf->off = false;
		rf->window_probed = 0;
		rf->window_passed = 0;
	}
}

/* The options a Seq Scan begins its heap scan with. */
static uint32
scan_flags(ScanState *ss)
{
	return ScanRelIsReadOnly(ss) ? SO_HINT_REL_READ_ONLY : SO_NONE;
}

static TupleTableSlot *
next_row(ScanState *ss)
{
	BatchedProbeState *state = (BatchedProbeState *) ss;

	if (ss->ss_currentScanDesc == NULL)
		ss->ss_currentScanDesc = table_beginscan(ss->ss_currentRelation,
												 ss->ps.state->es_snapshot, 0, NULL,
												 scan_flags(ss));
	if (state->runtime)
		return next_runtime_row(state);
	if (!state->filter_ready)
		read_filter(state);
	if (state->filter_null)
		return ExecClearTuple(ss->ss_ScanTupleSlot);
	while (state->pos >= state->nsurvivors)
		if (!next_batch(state))
			return ExecClearTuple(ss->ss_ScanTupleSlot);
	{
		int			row = state->survivors[state->pos++];

		return ExecStoreBufferHeapTuple(&state->tuples[row], ss->ss_ScanTupleSlot,
										state->buffers[row]);
	}
}

/* EvalPlanQual: the filter test on the row being rechecked. */
static bool
recheck_row(ScanState *ss, TupleTableSlot *slot)
{
	BatchedProbeState *state = (BatchedProbeState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;
	Datum		key;
	bool		isnull;

	econtext->ecxt_scantuple = slot;
	/* runtime filters only remove rows the joins remove: the quals decide */
	if (state->runtime)
		return state->quals == NULL || ExecQual(state->quals, econtext);
	if (!state->filter_ready)
		read_filter(state);
	if (state->filter_null)
		return false;
	key = ExecEvalExprSwitchContext(state->key_expr, econtext, &isnull);
	return !isnull &&
		bloom_contains_hash(&state->filter, bloom_hash_value(&state->hasher, key, state->filter.seed));
}

static TupleTableSlot *
exec_scan(CustomScanState *node)
{
	return ExecScan(&node->ss, next_row, recheck_row);
}

static void
clear_batch(BatchedProbeState *state)
{
	ExecClearTuple(state->css.ss.ss_ScanTupleSlot);
	ExecClearTuple(state->fetch_slot);
	release_batch(state);
	state->done = false;
}

static void
end_scan(CustomScanState *node)
{
	BatchedProbeState *state = (BatchedProbeState *) node;

	clear_batch(state);
	ExecClearTuple(node->ss.ss_ScanTupleSlot);
	if (node->ss.ss_currentScanDesc != NULL)
		table_endscan(node->ss.ss_currentScanDesc);
}

static void
rescan(CustomScanState *node)
{
	BatchedProbeState *state = (BatchedProbeState *) node;

	clear_batch(state);
	/* the filter may be a parameter that changed */
	if (node->ss.ps.chgParam != NULL)
		state->filter_ready = false;
	/* a runtime filter may have been built again */
	if (state->runtime)
		runtime_restart(state);
	if (node->ss.ss_currentScanDesc != NULL)
		table_rescan(node->ss.ss_currentScanDesc, NULL);
	ExecScanReScan(&node->ss);
}

/* ---- parallel: one parallel heap scan shared by the workers (as Seq Scan) ---- */

static Size
estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	(void) pcxt;
	return table_parallelscan_estimate(node->ss.ss_currentRelation,
									   node->ss.ps.state->es_snapshot);
}

static void
initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	ParallelTableScanDesc pscan = coordinate;

	(void) pcxt;
	table_parallelscan_initialize(node->ss.ss_currentRelation, pscan,
								  node->ss.ps.state->es_snapshot);
	node->ss.ss_currentScanDesc = table_beginscan_parallel(node->ss.ss_currentRelation, pscan,
														   scan_flags(&node->ss));
}

static void
reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	(void) pcxt;
	table_parallelscan_reinitialize(node->ss.ss_currentRelation, coordinate);
}

static void
initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	(void) toc;
	node->ss.ss_currentScanDesc = table_beginscan_parallel(node->ss.ss_currentRelation,
														   coordinate, scan_flags(&node->ss));
}

/* ---- EXPLAIN ---- */

/*
 * Runtime mode: a line per filter, "Runtime Filter N: keys", and with
 * ANALYZE its size, the rows it probed and removed, and whether it
 * switched off (this process's figures: a parallel worker's are its own).
 */
static void
explain_runtime(BatchedProbeState *state, List *context, ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) state->css.ss.ps.plan;
	ListCell   *key = list_head(cscan->custom_exprs);

	for (int f = 0; f < state->nfilters; f++)
	{
		RuntimeProbe *rf = state->filters[f];
		StringInfoData buf;
		char		label[64];

		initStringInfo(&buf);
		for (int k = 0; k < rf->spec.nkeys; k++)
		{
			if (k > 0)
				appendStringInfoString(&buf, ", ");
			appendStringInfoString(&buf, deparse_expression(lfirst(key), context, es->verbose, false));
			key = lnext(cscan->custom_exprs, key);
		}
		if (es->analyze)
		{
			if (rf->bytes == 0)
				appendStringInfoString(&buf, " (no filter)");
			else
			{
				appendStringInfo(&buf, " (%zu kB, probed " UINT64_FORMAT ", removed " UINT64_FORMAT,
								 (rf->bytes + 1023) / 1024, rf->probed, rf->removed);
				if (rf->switches_off > 0)
					appendStringInfo(&buf, "; switched off after " UINT64_FORMAT " rows, %.0f%% passing",
									 rf->off_after, 100 * rf->off_pass);
				appendStringInfoChar(&buf, ')');
			}
		}
		snprintf(label, sizeof label, "Runtime Filter %d", rf->spec.filter_id);
		ExplainPropertyText(label, buf.data, es);
	}
	ExplainPropertyInteger("Batch Size", NULL, BLOOM_PROBE_BATCH, es);
	if (es->analyze && state->css.ss.ps.instrument != NULL)
	{
		double		removed = state->css.ss.ps.instrument->nfiltered2;
		double		nloops = state->css.ss.ps.instrument->nloops;

		if (removed > 0 || es->format != EXPLAIN_FORMAT_TEXT)
			ExplainPropertyFloat("Rows Removed by Bloom Filter", NULL,
								 nloops > 0 ? removed / nloops : 0.0, 0, es);
	}
}

static void
explain_scan(CustomScanState *node, List *ancestors, ExplainState *es)
{
	BatchedProbeState *state = (BatchedProbeState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Node	   *filter;
	Node	   *key;
	List	   *context = set_deparse_context_plan(es->deparse_cxt, (Plan *) cscan, ancestors);

	if (state->runtime)
	{
		explain_runtime(state, context, es);
		return;
	}
	filter = linitial(cscan->custom_exprs);
	key = lsecond(cscan->custom_exprs);
	ExplainPropertyText("Probe Key", deparse_expression(key, context, es->verbose, false), es);
	if (IsA(filter, Const))
		ExplainPropertyText("Bloom Filter", "constant", es);
	else
		ExplainPropertyText("Bloom Filter", deparse_expression(filter, context, es->verbose, false), es);
	/* a constant's size is known before running; a parameter's once read */
	if (IsA(filter, Const) && !((Const *) filter)->constisnull)
		ExplainPropertyInteger("Filter Size", "bytes",
							   (int64) toast_raw_datum_size(((Const *) filter)->constvalue), es);
	else if (es->analyze && state->filter_ready && !state->filter_null)
		ExplainPropertyInteger("Filter Size", "bytes", (int64) state->filter_bytes, es);
	ExplainPropertyInteger("Batch Size", NULL, BLOOM_PROBE_BATCH, es);
	/* as "Rows Removed by Filter": per loop, the workers' counts included */
	if (es->analyze && node->ss.ps.instrument != NULL)
	{
		double		removed = node->ss.ps.instrument->nfiltered2;
		double		nloops = node->ss.ps.instrument->nloops;

		if (removed > 0 || es->format != EXPLAIN_FORMAT_TEXT)
			ExplainPropertyFloat("Rows Removed by Bloom Filter", NULL,
								 nloops > 0 ? removed / nloops : 0.0, 0, es);
	}
}
