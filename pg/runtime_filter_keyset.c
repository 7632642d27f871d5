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
 * filter's spec with the most keys worth looking up, from the planner's
 * statistics:
 *
 *   rows per key  = the table's tuples / the column's distinct values
 *   lookups when  keys * rows per key <= min(1% of the tuples, pages / 4)
 *
 * Each row fetched may cost a random page read: a quarter of the pages
 * read at random costs about the whole table read in order (random_page_cost
 * 4), and past 1% of the rows a bitmap would be needed to keep the reads
 * in order.  Not in a query that modifies or locks rows (UPDATE, DELETE,
 * MERGE, a data-modifying WITH, FOR UPDATE/SHARE), where the rows read are
 * the ones that get locked.
 *
 * A parallel-aware scan (a Parallel Seq Scan replaced) shares one decision
 * in its dynamic shared memory: the first participant at its first row
 * decides for all, by a compare-and-swap; with lookups, that participant
 * does every lookup and the others return no rows (any participant may
 * return any probe row: each one's join has every build key, in the shared
 * hash table or its own whole one), else all share the heap scan.  Never
 * both in one scan; a rescan of the Gather resets the decision.
 *
 * At the first row after the start or a rescan the scan decides, once for
 * the scan: when the filter's exact set is there and holds at most that
 * many keys (and bloomfilter.runtime_filter_index_lookups is on), one index
 * scan with `key = ANY(keys)` (a btree array key) and the scan's snapshot
 * fetches the rows, which then pass the scan's quals and every filter as
 * the sequential scan's would; otherwise the sequential scan, as before.
 * A rescan (a rebuilt filter, another set) decides again.
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

/* The rule above: the share of the tuples, and of the pages. */
#define LOOKUP_MAX_ROW_SHARE 0.01
#define LOOKUP_MAX_PAGE_SHARE 0.25
/* Distinct values of a column without statistics (as the planner's). */
#define LOOKUP_DEFAULT_DISTINCT 200.0

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
} RuntimeLookupShared;

/* The lookups of one probe scan. */
struct RuntimeLookup
{
	RuntimeLookupShared *shared;	/* a parallel-aware scan's, else NULL */
	bool		nothing;		/* another participant does the lookups */
	int			filter;			/* the filter whose set is looked up */
	Relation	index;
	Oid			eq_proc;		/* index column = int8 */
	IndexScanDesc scan;
	MemoryContext cxt;			/* the keys' array of the current scan */
	bool		decided;		/* since the (re)scan */
	bool		active;
	/* for EXPLAIN ANALYZE */
	int			nkeys;			/* the last lookups' */
	int64		scans;
	uint64		fetched;
};

/* ---- plan time ---- */

/* The column's distinct values in a table of tuples rows, from its statistics. */
static double
column_distinct(Oid relid, AttrNumber attno, double tuples, bool unique)
{
	HeapTuple	tup = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid), Int16GetDatum(attno),
									  BoolGetDatum(false));
	double		nd = 0;

	if (HeapTupleIsValid(tup))
	{
		float4		stadistinct = ((Form_pg_statistic) GETSTRUCT(tup))->stadistinct;

		nd = stadistinct > 0 ? stadistinct : -stadistinct * tuples;
		ReleaseSysCache(tup);
	}
	if (nd <= 0)
		nd = unique ? tuples : LOOKUP_DEFAULT_DISTINCT;
	return Max(nd, 1.0);
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
	bool		unique = false;
	double		tuples,
				pages,
				per_key,
				budget;

	spec->lookup_index = InvalidOid;
	spec->lookup_max_keys = 0;
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
			unique = form->indisunique && form->indnkeyatts == 1;
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
	per_key = Max(tuples / column_distinct(relid, attno, tuples, unique), 1.0);
	budget = Min(LOOKUP_MAX_ROW_SHARE * tuples, LOOKUP_MAX_PAGE_SHARE * pages);
	if (budget / per_key < 1)
		return;
	spec->lookup_index = best;
	spec->lookup_max_keys = (int) Min(budget / per_key, (double) RUNTIME_KEYSET_MAX);
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
	lk->index = index_open(state->filters[f]->spec.lookup_index, AccessShareLock);
	lk->eq_proc = get_opcode(get_opfamily_member(lk->index->rd_opfamily[0],
												 lk->index->rd_opcintype[0], INT8OID,
												 BTEqualStrategyNumber));
	lk->cxt = bloom_context_create(estate->es_query_cxt, "bloom runtime index lookups",
								   ALLOCSET_SMALL_SIZES);
	state->lookup = lk;
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
	Datum	   *keys;
	ArrayType  *array;
	ScanKeyData skey;
	MemoryContext old;
	bool		lookups;

	lk->decided = true;
	lk->active = false;
	lk->nothing = false;
	if (!state->filters_read)
		state->filters_read = bloom_runtime_read_filters(estate, state->filters, state->nfilters);
	lookups = bloomfilter_runtime_filter_index_lookups && OidIsValid(lk->eq_proc) &&
		stmt->commandType == CMD_SELECT && stmt->rowMarks == NIL && !stmt->hasModifyingCTE &&
		rf->keyset_present && rf->keyset_n <= rf->spec.lookup_max_keys;
	if (lk->shared != NULL)
	{
		uint32		mode = LOOKUP_UNDECIDED;

		/* the first to decide decides for all; the others follow */
		if (!pg_atomic_compare_exchange_u32(&lk->shared->mode, &mode,
											lookups ? LOOKUP_INDEX : LOOKUP_SEQUENTIAL))
		{
			lk->nothing = lk->active = mode == LOOKUP_INDEX;
			return;
		}
	}
	if (!lookups)
		return;
	MemoryContextReset(lk->cxt);
	old = MemoryContextSwitchTo(lk->cxt);
	keys = palloc(sizeof(Datum) * Max(rf->keyset_n, 1));
	for (int i = 0; i < rf->keyset_n; i++)
		keys[i] = Int64GetDatum(rf->keyset[i]);
	array = construct_array(keys, rf->keyset_n, INT8OID, sizeof(int64), FLOAT8PASSBYVAL,
							TYPALIGN_DOUBLE);
	MemoryContextSwitchTo(old);
	ScanKeyEntryInitialize(&skey, SK_SEARCHARRAY, 1, BTEqualStrategyNumber, INT8OID, InvalidOid,
						   lk->eq_proc, PointerGetDatum(array));
	if (lk->scan == NULL)
		lk->scan = index_beginscan_compat(ss->ss_currentRelation, lk->index, estate->es_snapshot, 1);
	index_rescan(lk->scan, &skey, 1, NULL, 0);
	lk->active = true;
	lk->nkeys = rf->keyset_n;
	lk->scans++;
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
		if (!index_getnext_slot(lk->scan, ForwardScanDirection, slot))
			return ExecClearTuple(slot);
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
		pg_atomic_init_u32(&state->lookup->shared->mode, LOOKUP_UNDECIDED);
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
	index_close(lk->index, NoLock);
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
					 RelationGetRelationName(lk->index), lk->fetched);
	if (lk->scans > 1)
		appendStringInfo(&buf, " (%lld scans, the last one's keys)", (long long) lk->scans);
	ExplainPropertyText("Index Lookups", buf.data, es);
}
