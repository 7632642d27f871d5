/*
 * runtime_filter_keyset.c - runtime index lookups: a batched probe scan in
 * runtime mode (a heap Seq Scan replaced, runtime_filter_probe.c) that
 * reads only the rows of its filter's exact set of keys through an index
 * (runtime_filter.h, "the exact-set tier").
 *
 * At plan time, for a filter whose one integer key is a plain column of
 * the scanned table, the planner looks for a valid, non-partial btree
 * index of the table led by that column (the one with the fewest columns)
 * whose operator family compares it with int8, and stores its OID in the
 * filter's spec with the most rows worth fetching through it, from the
 * planner's statistics:
 *
 *   scattered     = min(1% of the tuples, pages / 4)
 *   in order      = 5% of the tuples
 *   most rows     = scattered + correlation^2 * (in order - scattered)
 *
 * and the most keys: as many (a key costs a descent of the index, about a
 * row's fetch, whether it has rows or not), within the bound below.
 *
 * Each row fetched may cost a random page read: a quarter of the pages
 * read at random costs about the whole table read in order (random_page_cost
 * 4), and past 1% of the rows a bitmap would be needed to keep the reads
 * in order.  Where the heap is in the order of the column (its correlation,
 * as the planner's index costs weigh it), the sorted keys fetch their rows
 * in the heap's order, a page once: a row through the index then costs
 * about what ten rows of a sequential scan do, and up to 5% of the rows is
 * still well ahead (docs/PERFORMANCE.md, TPC-H's Q10).
 * The most keys are also within RUNTIME_LOOKUP_MAX_KEYS and the bytes
 * bloomfilter.runtime_filter_max_size allows: the build keeps the keys
 * (the filter's spec says how many, keyset_max).  Not in a query that
 * modifies or locks rows (UPDATE, DELETE, MERGE, a data-modifying WITH,
 * FOR UPDATE/SHARE), where the rows read are the ones that get locked.
 *
 * At the first row after the start or a rescan the scan decides, once for
 * the scan: when the filter's exact set is there and holds at most that
 * many keys (and bloomfilter.runtime_filter_index_lookups is on), it
 * counts the index entries of LOOKUP_SAMPLE_KEYS of the keys, evenly
 * spaced in their order (index tuples only, no heap page, stopping past
 * the share of the most rows); when the keys' rows estimated from them are
 * within the most rows, index scans with `key = ANY(keys)` (a btree array key, LOOKUP_CHUNK_KEYS of
 * the sorted keys at a time) and the scan's snapshot fetch the rows, which
 * then pass the scan's quals and every filter as the sequential scan's
 * would; otherwise the sequential scan, as before.  A rescan (a rebuilt
 * filter, another set) decides again.
 *
 * A parallel-aware scan (a Parallel Seq Scan replaced) shares one decision
 * in its dynamic shared memory: the first participant at its first row
 * decides for all, by a compare-and-swap.  With lookups, the participants
 * claim the chunks of keys in turn from a shared counter: every one has
 * the same sorted set (the shared one of a Parallel Hash, or the whole
 * build side's in each), so each chunk is looked up once; a participant
 * without the set (one that came after a Parallel Hash's build) returns no
 * rows.  Any participant may return any probe row: each one's join has
 * every build key, in the shared hash table or its own whole one.  Without
 * lookups all share the heap scan; never both in one scan.  A rescan of
 * the Gather resets the decision and the counter.
 */
#include "bloomfilter.h"
#include "batched_probe.h"
#include "batched_probe_state.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"
#include "runtime_filter_prune.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_am.h"
#include "catalog/pg_index.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/syscache.h"

/* The rule above: the share of the tuples, and of the pages; the share of
 * the tuples in the heap's order. */
#define LOOKUP_MAX_ROW_SHARE 0.01
#define LOOKUP_MAX_PAGE_SHARE 0.25
#define LOOKUP_ORDERED_ROW_SHARE 0.05
/* Keys of one index scan: a parallel scan's participants claim as many at a
 * time. */
#define LOOKUP_CHUNK_KEYS 1024
/* Keys whose index entries are counted to estimate the rows of all: the
 * statistics' rows per key are an average, and ANALYZE's sample of a table
 * in the order of the key underestimates its distinct values (block
 * sampling sees a clustered key's repeats too often). */
#define LOOKUP_SAMPLE_KEYS 64

/* A parallel-aware scan's decision, in its dynamic shared memory. */
typedef enum LookupMode
{
	LOOKUP_UNDECIDED = 0,
	LOOKUP_SEQUENTIAL,
	LOOKUP_INDEX
} LookupMode;

typedef struct RuntimeLookupShared
{
	pg_atomic_uint32 mode;		/* a LookupMode */
	pg_atomic_uint32 next_chunk;	/* the next chunk of keys to look up */
} RuntimeLookupShared;

/* The lookups of one probe scan. */
struct RuntimeLookup
{
	RuntimeLookupShared *shared;	/* a parallel-aware scan's, else NULL */
	bool		nothing;		/* another participant does the lookups */
	int			filter;			/* the filter whose set is looked up */
	Oid			index_oid;
	Relation	index;			/* opened at the first lookup */
	Oid			eq_proc;		/* index column = int8 */
	IndexScanDesc scan;
	MemoryContext cxt;			/* the keys' array of the current scan */
	bool		decided;		/* since the (re)scan */
	bool		active;
	bool		in_chunk;		/* scan has a chunk's rows to return */
	uint32		next_chunk;		/* without shared: this scan's next */
	/* for EXPLAIN ANALYZE */
	int			nkeys;			/* the last lookups' */
	int64		scans;
	uint64		fetched;
};

/* ---- plan time ---- */

/* The correlation of the column's order with the heap's, from its
 * statistics (0 without). */
static double
column_correlation(Oid relid, AttrNumber attno)
{
	HeapTuple	tup = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid), Int16GetDatum(attno),
									  BoolGetDatum(false));
	double		correlation = 0;

	if (HeapTupleIsValid(tup))
	{
		AttStatsSlot sslot;

		if (get_attstatsslot(&sslot, tup, STATISTIC_KIND_CORRELATION, InvalidOid,
							 ATTSTATSSLOT_NUMBERS))
		{
			if (sslot.nnumbers == 1)
				correlation = sslot.numbers[0];
			free_attstatsslot(&sslot);
		}
		ReleaseSysCache(tup);
	}
	return correlation;
}

void
bloom_runtime_lookup_plan(PlannedStmt *stmt, Plan *scan, Expr *key, RuntimeFilterSpec *spec)
{
	Oid			relid;
	AttrNumber	attno;
	Relation	rel;
	List	   *indexes;
	ListCell   *lc;
	Oid			best = InvalidOid;
	int			best_columns = 0;
	double		tuples,
				pages,
				correlation,
				scattered,
				budget,
				most;

	spec->lookup_index = InvalidOid;
	spec->lookup_max_keys = 0;
	spec->lookup_max_rows = 0;
	if (!spec->has_keyset || stmt->commandType != CMD_SELECT ||
		stmt->rowMarks != NIL || stmt->hasModifyingCTE ||
		!(IsA(scan, SeqScan) || (bloom_runtime_is_probe(scan) && !bloom_runtime_is_wrap(scan))) ||
		!bloom_runtime_key_column(stmt, scan, key, &relid, &attno))
		return;
	/* locked by the planner */
	rel = table_open(relid, NoLock);
	indexes = RelationGetIndexList(rel);
	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index form = index->rd_index;

		if (index->rd_rel->relam == BTREE_AM_OID && form->indisvalid &&
			form->indkey.values[0] == attno &&
			heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL) &&
			OidIsValid(get_opfamily_member(index->rd_opfamily[0], index->rd_opcintype[0],
										   INT8OID, BTEqualStrategyNumber)) &&
			(!OidIsValid(best) || form->indnatts < best_columns))
		{
			best = RelationGetRelid(index);
			best_columns = form->indnatts;
		}
		index_close(index, NoLock);
	}
	list_free(indexes);
	tuples = rel->rd_rel->reltuples;
	pages = rel->rd_rel->relpages;
	table_close(rel, NoLock);
	/* a table never analyzed or vacuumed: no estimate, no lookups */
	if (!OidIsValid(best) || tuples <= 0)
		return;
	correlation = column_correlation(relid, attno);
	scattered = Min(LOOKUP_MAX_ROW_SHARE * tuples, LOOKUP_MAX_PAGE_SHARE * pages);
	budget = scattered + correlation * correlation *
		Max(LOOKUP_ORDERED_ROW_SHARE * tuples - scattered, 0.0);
	if (budget < 1)
		return;
	/* the keys the build may keep */
	most = Min((double) RUNTIME_LOOKUP_MAX_KEYS,
			   (double) bloomfilter_runtime_filter_max_size * 1024 / sizeof(int64));
	spec->lookup_index = best;
	spec->lookup_max_rows = (int) Min(budget, (double) INT_MAX);
	spec->lookup_max_keys = (int) Max(Min(budget, most), 1.0);
	spec->keyset_max = Max(spec->keyset_max, spec->lookup_max_keys);
	/* a plan that reads the index depends on it */
	stmt->relationOids = lappend_oid(stmt->relationOids, best);
}

/* ---- execution ---- */

void
bloom_runtime_lookup_begin(BatchedProbeState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	struct RuntimeLookup *lk;
	int			f;

	for (f = 0; f < state->nfilters; f++)
		if (OidIsValid(state->filters[f]->spec.lookup_index))
			break;
	if (f == state->nfilters)
		return;
	lk = MemoryContextAllocZero(estate->es_query_cxt, sizeof(struct RuntimeLookup));
	lk->filter = f;
	lk->index_oid = state->filters[f]->spec.lookup_index;
	lk->cxt = bloom_context_create(estate->es_query_cxt, "bloom runtime index lookups",
								   ALLOCSET_SMALL_SIZES);
	state->lookup = lk;
}

/*
 * Open the index at the first lookup: a scan that never looks up (most do
 * not: the set is too large, or no row is read) does not pay for it, in
 * each process of a parallel plan, where a relation's first open reads the
 * catalogs.
 */
static void
open_index(struct RuntimeLookup *lk)
{
	if (lk->index != NULL)
		return;
	lk->index = index_open(lk->index_oid, AccessShareLock);
	lk->eq_proc = get_opcode(get_opfamily_member(lk->index->rd_opfamily[0],
												 lk->index->rd_opcintype[0], INT8OID,
												 BTEqualStrategyNumber));
}

/* Start lk's index scan over n keys, every step-th from keys (sorted, as a
 * btree array wants); the previous scan's keys are dropped. */
static void
scan_keys(struct RuntimeLookup *lk, ScanState *ss, const int64 *keys, int n, int step)
{
	Datum	   *datums;
	ArrayType  *array;
	ScanKeyData skey;
	MemoryContext old;

	open_index(lk);
	MemoryContextReset(lk->cxt);
	old = MemoryContextSwitchTo(lk->cxt);
	datums = palloc(sizeof(Datum) * Max(n, 1));
	for (int i = 0; i < n; i++)
		datums[i] = Int64GetDatum(keys[(int64) i * step]);
	array = construct_array(datums, n, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
	MemoryContextSwitchTo(old);
	ScanKeyEntryInitialize(&skey, SK_SEARCHARRAY, 1, BTEqualStrategyNumber, INT8OID, InvalidOid,
						   lk->eq_proc, PointerGetDatum(array));
	if (lk->scan == NULL)
		lk->scan = index_beginscan_compat(ss->ss_currentRelation, lk->index,
										  ss->ps.state->es_snapshot, 1);
	index_rescan(lk->scan, &skey, 1, NULL, 0);
}

/* Whether the rows of rf's keys, estimated from the index entries of a
 * sample of them, are within the most rows worth fetching. */
static bool
few_rows(struct RuntimeLookup *lk, RuntimeProbe *rf, ScanState *ss)
{
	int			n = rf->keyset_n;
	int			step = Max(n / LOOKUP_SAMPLE_KEYS, 1);
	int			samples = Min(n, LOOKUP_SAMPLE_KEYS);
	double		limit = (double) rf->spec.lookup_max_rows * samples / Max(n, 1);
	double		entries = 0;

	if (n == 0)
		return true;
	/* evenly spaced */
	scan_keys(lk, ss, rf->keyset, samples, step);
	while (index_getnext_tid(lk->scan, ForwardScanDirection) != NULL)
	{
		if ((++entries > limit))
			return false;
		if (((uint64) entries & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return true;
}

/* Decide for this (re)scan; start the lookups when they pay. */
static void
decide(BatchedProbeState *state)
{
	struct RuntimeLookup *lk = state->lookup;
	ScanState  *ss = &state->css.ss;
	EState	   *estate = ss->ps.state;
	PlannedStmt *stmt = estate->es_plannedstmt;
	RuntimeProbe *rf = state->filters[lk->filter];
	bool		lookups;

	lk->decided = true;
	lk->active = false;
	lk->nothing = false;
	lk->in_chunk = false;
	if (!state->filters_read)
		state->filters_read = bloom_runtime_read_filters(estate, state->filters, state->nfilters);
	lookups = bloomfilter_runtime_filter_index_lookups &&
		stmt->commandType == CMD_SELECT && stmt->rowMarks == NIL && !stmt->hasModifyingCTE &&
		rf->keyset_keys && rf->keyset_n <= rf->spec.lookup_max_keys;
	if (lookups)
	{
		open_index(lk);
		lookups = OidIsValid(lk->eq_proc);
	}
	/* the first participant to decide samples; the others follow */
	if (lookups && (lk->shared == NULL ||
					pg_atomic_read_u32(&lk->shared->mode) == LOOKUP_UNDECIDED))
		lookups = few_rows(lk, rf, ss);
	if (lk->shared != NULL)
	{
		uint32		mode = LOOKUP_UNDECIDED;

		/* the first to decide decides for all; the others follow, and take
		 * their chunks of the keys if they have them */
		if (!pg_atomic_compare_exchange_u32(&lk->shared->mode, &mode,
											lookups ? LOOKUP_INDEX : LOOKUP_SEQUENTIAL))
		{
			lk->active = mode == LOOKUP_INDEX;
			lk->nothing = lk->active && !rf->keyset_keys;
			if (!lk->active || lk->nothing)
				return;
		}
		else if (!lookups)
			return;
	}
	else if (!lookups)
		return;
	lk->active = true;
	lk->in_chunk = false;
	lk->next_chunk = 0;
	lk->nkeys = rf->keyset_n;
	lk->scans++;
}

/* Start the index scan of the next chunk of keys not looked up yet (this
 * participant's next, in a parallel scan); false when none is left. */
static bool
next_chunk(BatchedProbeState *state)
{
	struct RuntimeLookup *lk = state->lookup;
	RuntimeProbe *rf = state->filters[lk->filter];
	uint32		chunk;
	int			first;

	chunk = lk->shared != NULL ? pg_atomic_fetch_add_u32(&lk->shared->next_chunk, 1) :
		lk->next_chunk++;
	if ((int64) chunk * LOOKUP_CHUNK_KEYS >= rf->keyset_n)
		return false;
	first = (int) chunk * LOOKUP_CHUNK_KEYS;
	scan_keys(lk, &state->css.ss, rf->keyset + first,
			  Min(rf->keyset_n - first, LOOKUP_CHUNK_KEYS), 1);
	lk->in_chunk = true;
	return true;
}

bool
bloom_runtime_lookup_use(BatchedProbeState *state)
{
	if (!state->lookup->decided)
		decide(state);
	return state->lookup->active;
}

TupleTableSlot *
bloom_runtime_lookup_next(BatchedProbeState *state)
{
	struct RuntimeLookup *lk = state->lookup;
	ScanState  *ss = &state->css.ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;

	if (lk->nothing)
		return ExecClearTuple(slot);
	for (;;)
	{
		bool		pass = true;
		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		if (!lk->in_chunk && !next_chunk(state))
			return ExecClearTuple(slot);
		if (!index_getnext_slot(lk->scan, ForwardScanDirection, slot))
		{
			lk->in_chunk = false;
			continue;
		}
		lk->fetched++;
		econtext->ecxt_scantuple = slot;
		if (state->quals != NULL && !ExecQual(state->quals, econtext))
		{
			ResetExprContext(econtext);
			InstrCountFiltered1(state, 1);
			continue;
		}
		/* every filter, as the sequential scan probes them (the looked up
		 * key is in its set: it passes) */
		old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		for (int f = 0; f < state->nfilters && pass; f++)
		{
			RuntimeProbe *rf = state->filters[f];
			uint64		hash;
			bool		out;

			if (!bloom_runtime_probe_ready(rf))
				continue;
			pass = bloom_runtime_probe_key(rf, econtext, &hash, &out) &&
				bloom_runtime_probe_hash(rf, hash);
			rf->probed++;
			rf->removed += !pass;
			rf->range_removed += out;
		}
		MemoryContextSwitchTo(old);
		if (pass)
			return slot;
		ResetExprContext(econtext);
		InstrCountFiltered2(state, 1);
	}
}

Size
bloom_runtime_lookup_shared_size(void)
{
	return MAXALIGN(sizeof(RuntimeLookupShared));
}

void
bloom_runtime_lookup_shared_init(BatchedProbeState *state, void *shared, bool attach)
{
	state->lookup->shared = shared;
	if (!attach)
	{
		pg_atomic_init_u32(&state->lookup->shared->mode, LOOKUP_UNDECIDED);
		pg_atomic_init_u32(&state->lookup->shared->next_chunk, 0);
	}
}

void
bloom_runtime_lookup_restart(BatchedProbeState *state)
{
	state->lookup->decided = false;
	state->lookup->active = false;
}

void
bloom_runtime_lookup_end(BatchedProbeState *state)
{
	struct RuntimeLookup *lk = state->lookup;

	if (lk->scan != NULL)
		index_endscan(lk->scan);
	lk->scan = NULL;
	if (lk->index != NULL)
		index_close(lk->index, NoLock);
	lk->index = NULL;
}

void
bloom_runtime_lookup_explain(BatchedProbeState *state, ExplainState *es)
{
	struct RuntimeLookup *lk = state->lookup;
	StringInfoData buf;

	if (!es->analyze || lk->scans == 0)
		return;
	initStringInfo(&buf);
	appendStringInfo(&buf, "%d keys using %s, rows fetched " UINT64_FORMAT, lk->nkeys,
					 get_rel_name(lk->index_oid), lk->fetched);
	if (lk->scans > 1)
		appendStringInfo(&buf, " (%lld scans, the last one's keys)", (long long) lk->scans);
	ExplainPropertyText("Index Lookups", buf.data, es);
}
