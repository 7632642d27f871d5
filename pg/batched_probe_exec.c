/*
 * batched_probe_exec.c - executing the batched probe scan (batched_probe.h).
 *
 * Row at a time, a probe of a filter larger than the cache waits for one
 * memory miss per row: the next row's key is unknown until the current row
 * is returned.  This scan reads up to BLOOM_PROBE_BATCH visible rows,
 * keeping their tuple headers (the tuples stay in their pinned pages),
 * hashes their keys as bloom_contains does (hashing.c), probes the batch
 * (bloom_contains_hashes, which fetches the lines of the probes ahead, so
 * that their misses overlap; fetching each key's lines as its row was read
 * stalled the reading more than it saved, as bench-pg-batched shows), and
 * returns the survivors one by one through
 * ExecScan, which checks the other quals and projects.  Rows whose key or
 * filter is NULL are not returned (the function is STRICT, so the qual is
 * NULL there).
 *
 * Plan node: a CustomScan on a heap table, custom_exprs = (filter, key),
 * plan.qual = the other quals.
 *
 * Runtime mode (the automatic Bloom join, runtime_filter.h): the plan's
 * custom_private holds runtime filters' specs, the filters of hash joins
 * above; runtime_filter_probe.c reads the rows then.  EvalPlanQual
 * rechecks test the quals only: a runtime filter only ever removes rows
 * the join would remove.
 */
#include "bloomfilter.h"
#include "batched_probe.h"
#include "batched_probe_state.h"
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

const CustomScanMethods bloom_batched_probe_scan_methods = {
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
	RegisterCustomScanMethods(&bloom_batched_probe_scan_methods);
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
	cscan->methods = &bloom_batched_probe_scan_methods;
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

	if (cscan->custom_private == NIL)
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
	/* runtime mode (runtime_filter_probe.c) */
	if (cscan->custom_private != NIL)
		bloom_runtime_probe_begin(state, cscan);
}

/* Evaluate the filter expression: once per scan, again after a rescan. */
static void
read_filter(BatchedProbeState *state)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;
	MemoryContext old;
	Datum		value;
	bool		isnull;

	MemoryContextReset(state->filter_cxt);
	ResetExprContext(econtext);
	econtext->ecxt_scantuple = NULL;
	old = MemoryContextSwitchTo(state->filter_cxt);
	value = ExecEvalExpr(state->filter_expr, econtext, &isnull);
	state->filter_null = isnull;
	if (!isnull)				/* a stored (TOASTed) filter is read whole, once */
		(void) bloom_read_whole((struct varlena *) DatumGetPointer(value), state->filter_cxt,
								&state->filter, &state->filter_bytes);
	MemoryContextSwitchTo(old);
	state->filter_ready = true;
}

/* Drop the batch's pins and rows. */
void
bloom_batched_release(BatchedProbeState *state)
{
	for (int i = 0; i < state->npinned; i++)
		ReleaseBuffer(state->pinned[i]);
	state->npinned = 0;
	state->nsurvivors = 0;
	state->pos = 0;
}

/* A text key of a filter that records the kinds of its values: read as
 * those values, one key at a time. */
static bool
text_key_contains(BatchedProbeState *state, Datum key)
{
	if (state->text_probe == NULL)
		state->text_probe = bloom_text_probe_create(state->css.ss.ps.state->es_query_cxt);
	return bloom_text_probe_contains(state->text_probe, &state->hasher, key, &state->filter);
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
	bool		text_keys = bloom_is_text_probe(&state->hasher) && state->filter.kinds.mask != 0;

	CHECK_FOR_INTERRUPTS();
	/* the slot returned last may still show a row of this batch */
	ExecClearTuple(ss->ss_ScanTupleSlot);
	bloom_batched_release(state);
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
		if (!isnull && text_keys)
			state->hits[nkeys] = text_key_contains(state, key);
		else if (!isnull)
			state->hashes[nkeys] = bloom_hash_value(&state->hasher, key, state->filter.seed);
		if (!isnull)
			rows[nkeys++] = n;
		n++;
	}
	MemoryContextSwitchTo(old);

	if (!text_keys)
		bloom_contains_hashes(&state->filter, state->hashes, (size_t) nkeys, state->hits);
	for (int i = 0; i < nkeys; i++)
		if (state->hits[i])
			state->survivors[state->nsurvivors++] = rows[i];
	/* rows with a NULL key are removed too */
	InstrCountFiltered2(state, n - state->nsurvivors);
	return n > 0;
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

	/* runtime mode: a scan whose table holds none of the build keys is not started */
	if (state->runtime && (!state->skip.checked || state->skip.skipped) &&
		bloom_runtime_probe_skips(state))
		return ExecClearTuple(ss->ss_ScanTupleSlot);
	if (ss->ss_currentScanDesc == NULL)
		ss->ss_currentScanDesc = table_beginscan(ss->ss_currentRelation,
												 ss->ps.state->es_snapshot, 0, NULL,
												 scan_flags(ss));
	if (state->runtime)
		return bloom_runtime_probe_next(state);
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
	if (!isnull && bloom_is_text_probe(&state->hasher) && state->filter.kinds.mask != 0)
		return text_key_contains(state, key);
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
	bloom_batched_release(state);
	state->done = false;
}

static void
end_scan(CustomScanState *node)
{
	BatchedProbeState *state = (BatchedProbeState *) node;

	clear_batch(state);
	ExecClearTuple(node->ss.ss_ScanTupleSlot);
	if (state->lookup != NULL)
		bloom_runtime_lookup_end(state);
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
		bloom_runtime_probe_restart(state);
	if (node->ss.ss_currentScanDesc != NULL)
		table_rescan(node->ss.ss_currentScanDesc, NULL);
	ExecScanReScan(&node->ss);
}

/* ---- parallel: one parallel heap scan shared by the workers (as Seq Scan) ---- */

/* Before the heap scan's state: the runtime index lookups' decision, when
 * the plan has lookups (runtime_filter_keyset.c). */
static Size
lookup_room(CustomScanState *node)
{
	return ((BatchedProbeState *) node)->lookup != NULL ? bloom_runtime_lookup_shared_size() : 0;
}

static Size
estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	(void) pcxt;
	return lookup_room(node) + table_parallelscan_estimate(node->ss.ss_currentRelation,
														   node->ss.ps.state->es_snapshot);
}

static void
initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	ParallelTableScanDesc pscan = (ParallelTableScanDesc) ((char *) coordinate + lookup_room(node));

	(void) pcxt;
	if (lookup_room(node) > 0)
		bloom_runtime_lookup_shared_init((BatchedProbeState *) node, coordinate, false);
	table_parallelscan_initialize(node->ss.ss_currentRelation, pscan,
								  node->ss.ps.state->es_snapshot);
	node->ss.ss_currentScanDesc = table_beginscan_parallel(node->ss.ss_currentRelation, pscan,
														   scan_flags(&node->ss));
}

static void
reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	(void) pcxt;
	if (lookup_room(node) > 0)
		bloom_runtime_lookup_shared_init((BatchedProbeState *) node, coordinate, false);
	table_parallelscan_reinitialize(node->ss.ss_currentRelation,
									(ParallelTableScanDesc) ((char *) coordinate + lookup_room(node)));
}

static void
initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	(void) toc;
	if (lookup_room(node) > 0)
		bloom_runtime_lookup_shared_init((BatchedProbeState *) node, coordinate, true);
	node->ss.ss_currentScanDesc = table_beginscan_parallel(node->ss.ss_currentRelation,
														   (ParallelTableScanDesc) ((char *) coordinate + lookup_room(node)),
														   scan_flags(&node->ss));
}

/* ---- EXPLAIN ---- */

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
		bloom_runtime_probe_explain(state, context, es);
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
