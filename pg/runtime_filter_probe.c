/*
 * runtime_filter_probe.c - the batched probe scan in runtime mode: the
 * runtime filters of the hash joins above the scan (runtime_filter.h,
 * batched_probe_state.h).
 *
 * The filters are read from their parameter slots at the first batch after
 * the start or a rescan (NULL: none yet, or none at all; looked for again
 * from time to time until there is one), custom_exprs holds their keys
 * (each filter's in turn) and custom_private their specs.  The scan's
 * quals are checked first and the keys are computed only for the rows
 * that pass them, as the join above computes them only for the rows it
 * receives; a row whose key is NULL matches nothing and is removed.
 *
 * Each filter watches the share of rows it lets through, per window of
 * RUNTIME_WINDOW probed rows: above bloomfilter.runtime_filter_max_pass it
 * switches off (the filter is not selective, and probing it costs more
 * than it saves); a switched-off filter still probes one batch in
 * RUNTIME_SAMPLE_EVERY, and switches back on when a batch's worth of those
 * (RUNTIME_SWITCH_ON_WINDOW) passes few enough.  With no filter on, rows
 * are read one at a time as a Seq Scan reads them.
 */
#include "bloomfilter.h"
#include "batched_probe.h"
#include "batched_probe_state.h"
#include "runtime_filter.h"

#include "access/relscan.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"

/* ---- the plan nodes ---- */

bool
bloom_runtime_is_probe(Plan *plan)
{
	return bloom_runtime_is_wrap(plan) ||
		(IsA(plan, CustomScan) &&
		 ((CustomScan *) plan)->methods == &bloom_batched_probe_scan_methods &&
		 ((CustomScan *) plan)->custom_private != NIL);
}

Plan *
bloom_runtime_probe_make(Plan *scan, List *keys, const RuntimeFilterSpec *spec,
						 int *next_plan_node_id)
{
	CustomScan *cscan;

	if (!IsA(scan, SeqScan))
		return (Plan *) bloom_runtime_wrap_make(scan, keys, spec, (*next_plan_node_id)++);
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	cscan = (__extension__ makeNode(CustomScan));
	/* the Seq Scan's header (costs, rows, tlist, quals, parallel_aware, ...) */
	cscan->scan = ((SeqScan *) scan)->scan;
	cscan->scan.plan.type = T_CustomScan;
	cscan->flags = 0;
	cscan->custom_plans = NIL;
	cscan->custom_exprs = NIL;
	cscan->custom_private = NIL;
	cscan->custom_scan_tlist = NIL;
	cscan->custom_relids = bms_make_singleton(cscan->scan.scanrelid);
	cscan->methods = &bloom_batched_probe_scan_methods;
	bloom_runtime_probe_add(cscan, keys, spec);
	return (Plan *) cscan;
}

void
bloom_runtime_probe_add(CustomScan *probe, List *keys, const RuntimeFilterSpec *spec)
{
	Assert(list_length(keys) == spec->nkeys);
	probe->custom_exprs = list_concat(probe->custom_exprs, keys);
	probe->custom_private = lappend(probe->custom_private, bloom_runtime_spec_to_list(spec));
}

bool
bloom_runtime_probe_has_room(CustomScan *probe)
{
	return list_length(probe->custom_private) < RUNTIME_MAX_FILTERS;
}

/* ---- a runtime filter as probed, for both probe nodes ---- */

/* The open-addressing table of rf's exact set, for its probes. */
static void
keyset_index(RuntimeProbe *rf)
{
	int			bits = 3;

	/* at most half full: a missing key ends its search at an empty slot soon */
	while ((1 << bits) < 2 * rf->keyset_n)
		bits++;
	if ((1 << bits) > rf->keyset_capacity)
	{
		MemoryContext cxt = GetMemoryChunkContext(rf);

		if (rf->keyset_slots != NULL)
		{
			pfree(rf->keyset_slots);
			pfree(rf->keyset_used);
		}
		rf->keyset_slots = MemoryContextAlloc(cxt, sizeof(int64) << bits);
		rf->keyset_used = MemoryContextAlloc(cxt, sizeof(bool) << bits);
		rf->keyset_capacity = 1 << bits;
	}
	rf->keyset_mask = (1u << bits) - 1;
	rf->keyset_shift = 64 - bits;
	memset(rf->keyset_used, 0, sizeof(bool) << bits);
	for (int i = 0; i < rf->keyset_n; i++)
	{
		uint32		slot = bloom_runtime_keyset_slot(rf, rf->keyset[i]);

		while (rf->keyset_used[slot])
			slot = (slot + 1) & rf->keyset_mask;
		rf->keyset_used[slot] = true;
		rf->keyset_slots[slot] = rf->keyset[i];
	}
}

bool
bloom_runtime_read_keyset(RuntimeProbe *rf, ParamExecData *prm)
{
	const char *set;
	int64		nkeys;
	int			n = 0;

	if (prm->isnull || prm->value == (Datum) 0)
		return false;			/* not built yet */
	rf->keyset_read = true;
	/* a RuntimeKeySet, maybe unaligned (a copy a Gather sent) */
	set = VARDATA_ANY(DatumGetPointer(prm->value));
	memcpy(&nkeys, set + offsetof(RuntimeKeySet, nkeys), sizeof(int64));
	/* too many keys: for the build; or more than this probe looks up (its
	 * bound may be less than the build's, which another probe raised) */
	if (nkeys < 0 || nkeys > rf->spec.keyset_max ||
		(nkeys > RUNTIME_KEYSET_MAX && nkeys > rf->spec.lookup_max_keys))
		return false;
	if (nkeys > rf->keyset_room)
	{
		MemoryContext cxt = GetMemoryChunkContext(rf);
		int			room = Max((int) nkeys, 64);

		if (rf->keyset != NULL)
			pfree(rf->keyset);
		rf->keyset = MemoryContextAlloc(cxt, room * sizeof(int64));
		rf->keyset_room = room;
	}
	memcpy(rf->keyset, set + offsetof(RuntimeKeySet, keys), nkeys * sizeof(int64));
	/* a Parallel Hash's participants append theirs unsorted, maybe the same */
	qsort(rf->keyset, nkeys, sizeof(int64), bloom_runtime_compare_int64);
	for (int i = 0; i < nkeys; i++)
		if (n == 0 || rf->keyset[n - 1] != rf->keyset[i])
			rf->keyset[n++] = rf->keyset[i];
	rf->keyset_n = n;
	rf->keyset_keys = true;
	/* a bigger set is not for the cache: the Bloom filter is probed */
	if (n > RUNTIME_KEYSET_MAX)
		return false;
	keyset_index(rf);
	rf->keyset_present = true;
	return true;
}

int
bloom_runtime_compare_int64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

bool
bloom_runtime_read_filters(EState *estate, RuntimeProbe **filters, int nfilters)
{
	ParamExecData *params = estate->es_param_exec_vals;
	bool		all = true;

	for (int f = 0; f < nfilters; f++)
	{
		RuntimeProbe *rf = filters[f];
		ParamExecData *prm = &params[rf->spec.paramid];
		struct varlena *value;
		bloom_error err;

		if (rf->spec.has_range && !rf->range_present)
		{
			ParamExecData *rprm = &params[rf->spec.range_paramid];

			if (!rprm->isnull && rprm->value != (Datum) 0)
			{
				memcpy(&rf->range, VARDATA_ANY(DatumGetPointer(rprm->value)), sizeof(RuntimeKeyRange));
				rf->range_present = true;
			}
			else
				all = false;
		}
		if (rf->spec.has_keyset && !rf->keyset_read)
		{
			if (bloom_runtime_read_keyset(rf, &params[rf->spec.keyset_paramid]))
				rf->prefetch = false;
			else if (!rf->keyset_read)
				all = false;
		}
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
		/* the exact set is probed in its place: no batch to prefetch */
		rf->prefetch = !rf->keyset_present &&
			rf->bytes >= (Size) bloomfilter_batched_probe_min_size * 1024;
		rf->present = true;
	}
	return all;
}

void
bloom_runtime_forget_filters(RuntimeProbe **filters, int nfilters)
{
	for (int f = 0; f < nfilters; f++)
	{
		RuntimeProbe *rf = filters[f];

		rf->present = false;
		rf->range_present = false;
		rf->keyset_read = false;
		rf->keyset_keys = false;
		rf->keyset_present = false;
		rf->off = false;
		rf->window_probed = 0;
		rf->window_passed = 0;
	}
}

int
bloom_runtime_probes_init(RuntimeProbe **filters, List *specs, List *keys, PlanState *parent)
{
	ListCell   *lc;
	int			first = 0;
	int			n = 0;

	foreach(lc, specs)
	{
		RuntimeProbe *rf = palloc0(sizeof(RuntimeProbe));
		List	   *mine;

		bloom_runtime_spec_from_list(lfirst(lc), &rf->spec);
		/* this filter's keys: keys[first, first + nkeys) */
		mine = list_copy_tail(list_truncate(list_copy(keys), first + rf->spec.nkeys), first);
		bloom_runtime_hasher_init(&rf->hasher, mine, rf->spec.hashfuncs, rf->spec.collations,
								  rf->spec.integer_keys, parent);
		first += rf->spec.nkeys;
		filters[n++] = rf;
	}
	return n;
}

/* ---- the batched probe scan in runtime mode ---- */

/* Read each filter not read yet from its parameter slot. */
static void
read_runtime_filters(BatchedProbeState *state)
{
	state->filters_read = bloom_runtime_read_filters(state->css.ss.ps.state, state->filters,
													 state->nfilters);
	/* a range that misses the table's bounds: no row left to read */
	if (!state->skip.skipped &&
		bloom_runtime_skip_check(&state->skip, state->filters, state->nfilters))
		state->done = true;
}

bool
bloom_runtime_probe_skips(BatchedProbeState *state)
{
	if (!state->skip.checked)
	{
		state->skip.checked = true;
		if (!state->filters_read)
			read_runtime_filters(state);
	}
	return state->skip.skipped;
}

/* Whether some filter is on: else rows are read unprobed, between samples. */
static bool
runtime_any_on(BatchedProbeState *state)
{
	for (int f = 0; f < state->nfilters; f++)
		if (bloom_runtime_probe_ready(state->filters[f]) && !state->filters[f]->off)
			return true;
	return false;
}

void
bloom_runtime_decide(RuntimeProbe *rf, uint64 probed, uint64 passed)
{
	double		share;

	rf->probed += probed;
	rf->removed += probed - passed;
	rf->window_probed += probed;
	rf->window_passed += passed;
	/*
	 * Off, one sampled batch decides: a table stored in the order of the
	 * key (dates) passes everything for a while, then nothing, and a whole
	 * window of samples would come 16 times 64 batches later.  Switching
	 * on too early costs one window's probes; switching off still takes a
	 * whole window.
	 */
	if (rf->window_probed < (rf->off ? RUNTIME_SWITCH_ON_WINDOW : RUNTIME_WINDOW))
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
	bloom_batched_release(state);
	if (state->done)
		return false;
	if (!state->filters_read)
		read_runtime_filters(state);
	if (state->done)
		return false;
	/* the filters on, and the ones off when this batch is a sample */
	sample = !runtime_any_on(state) || state->batches % RUNTIME_SAMPLE_EVERY == 0;
	for (int f = 0; f < state->nfilters; f++)
	{
		RuntimeProbe *rf = state->filters[f];

		if (bloom_runtime_probe_ready(rf) && (!rf->off || sample))
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
			bool		out;
			bool		hashed = bloom_runtime_probe_key(rf, econtext, &hash, &out);

			if (batched)
			{
				rf->null_key[n] = !hashed;
				rf->out_of_range[n] = out;
				rf->hashes[n] = hash;
				continue;
			}
			probed[f]++;
			rf->range_removed += out;
			/* a NULL key matches nothing */
			if (!hashed || !bloom_runtime_probe_hash(rf, hash))
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
				else
					rf->range_removed += rf->out_of_range[alive[i]];
			if (rf->present && !rf->keyset_present)
				bloom_contains_hashes(&rf->filter, hashes, (size_t) nkeys, state->hits);
			else
				memset(state->hits, true, sizeof(bool) * nkeys);
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
		bloom_runtime_decide(probing[f], probed[f], passed[f]);
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
TupleTableSlot *
bloom_runtime_probe_next(BatchedProbeState *state)
{
	ScanState  *ss = &state->css.ss;

	if (state->lookup != NULL && bloom_runtime_lookup_use(state))
		return bloom_runtime_lookup_next(state);
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
			bloom_batched_release(state);
			return ExecClearTuple(ss->ss_ScanTupleSlot);
		}
		if (!runtime_any_on(state) && state->passed_through < RUNTIME_SAMPLE_ROWS)
		{
			TupleTableSlot *slot;

			if (state->npinned > 0)
				bloom_batched_release(state);
			slot = next_unprobed_row(state);
			if (slot != NULL)
				return slot;
			continue;
		}
		next_runtime_batch(state);
	}
}

/* Start (or start again): look for the filters at the first row. */
void
bloom_runtime_probe_restart(BatchedProbeState *state)
{
	state->filters_read = false;
	state->batches = 0;
	state->passed_through = RUNTIME_SAMPLE_ROWS;
	bloom_runtime_forget_filters(state->filters, state->nfilters);
	if (state->lookup != NULL)
		bloom_runtime_lookup_restart(state);
	bloom_runtime_skip_reset(&state->skip);
}


void
bloom_runtime_explain_filters(RuntimeProbe **filters, int nfilters, List *keys, List *context,
							  ExplainState *es)
{
	ListCell   *key = list_head(keys);

	for (int f = 0; f < nfilters; f++)
	{
		RuntimeProbe *rf = filters[f];
		StringInfoData buf;
		char		label[64];

		initStringInfo(&buf);
		for (int k = 0; k < rf->spec.nkeys; k++)
		{
			if (k > 0)
				appendStringInfoString(&buf, ", ");
			appendStringInfoString(&buf, deparse_expression(lfirst(key), context, es->verbose, false));
			key = lnext(keys, key);
		}
		if (es->analyze)
		{
			if (rf->bytes == 0 && !rf->range_present && !rf->keyset_present)
				appendStringInfoString(&buf, " (no filter)");
			else
			{
				if (rf->keyset_present)
					appendStringInfo(&buf, " (exact set of %d keys, ", rf->keyset_n);
				else if (rf->bytes > 0)
					appendStringInfo(&buf, " (%zu kB, ", (rf->bytes + 1023) / 1024);
				else
					appendStringInfoString(&buf, " (range only: too many keys, ");
				appendStringInfo(&buf, "probed " UINT64_FORMAT ", removed " UINT64_FORMAT,
								 rf->probed, rf->removed);
				if (rf->range_present)
					appendStringInfo(&buf, ", " UINT64_FORMAT " of them out of the range "
									 INT64_FORMAT " to " INT64_FORMAT,
									 rf->range_removed, rf->range.min, rf->range.max);
				if (rf->switches_off > 0)
					appendStringInfo(&buf, "; switched off after " UINT64_FORMAT " rows, %.0f%% passing",
									 rf->off_after, 100 * rf->off_pass);
				appendStringInfoChar(&buf, ')');
			}
		}
		snprintf(label, sizeof label, "Runtime Filter %d", rf->spec.filter_id);
		ExplainPropertyText(label, buf.data, es);
	}
}

void
bloom_runtime_explain_removed(PlanState *ps, ExplainState *es)
{
	/* as "Rows Removed by Filter": per loop, the workers' counts included */
	if (es->analyze && ps->instrument != NULL)
	{
		double		removed = ps->instrument->nfiltered2;
		double		nloops = ps->instrument->nloops;

		if (removed > 0 || es->format != EXPLAIN_FORMAT_TEXT)
			ExplainPropertyFloat("Rows Removed by Bloom Filter", NULL,
								 nloops > 0 ? removed / nloops : 0.0, 0, es);
	}
}

/*
 * Runtime mode: a line per filter, "Runtime Filter N: keys", and with
 * ANALYZE its size, the rows it probed and removed, and whether it
 * switched off (this process's figures: a parallel worker's are its own).
 */
void
bloom_runtime_probe_explain(BatchedProbeState *state, List *context, ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) state->css.ss.ps.plan;

	bloom_runtime_explain_filters(state->filters, state->nfilters, cscan->custom_exprs, context, es);
	if (state->lookup != NULL)
		bloom_runtime_lookup_explain(state, es);
	bloom_runtime_explain_skip(&state->skip, state->filters, state->nfilters, es);
	ExplainPropertyInteger("Batch Size", NULL, BLOOM_PROBE_BATCH, es);
	bloom_runtime_explain_removed(&state->css.ss.ps, es);
}

void
bloom_runtime_probe_begin(BatchedProbeState *state, CustomScan *cscan)
{
	/* the quals are checked by the batches, first */
	state->runtime = true;
	state->quals = state->css.ss.ps.qual;
	state->css.ss.ps.qual = NULL;
	state->nfilters = bloom_runtime_probes_init(state->filters, cscan->custom_private,
												cscan->custom_exprs, &state->css.ss.ps);
	bloom_runtime_lookup_begin(state);
	bloom_runtime_probe_restart(state);
}
