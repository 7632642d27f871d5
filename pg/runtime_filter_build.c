/*
 * runtime_filter_build.c - the build side of a runtime filter: Custom Scan
 * (BloomFilterBuild), the child of a Hash node (runtime_filter.h).
 *
 * It returns its child's rows unchanged, so the Hash node builds its table
 * as before, and hashes each row's join keys on the way: with the join's
 * own hash functions and collations (a join-hash filter), or the
 * extension's canonical hash of the one key (a canonical filter, for a
 * remote server).  When the child is exhausted the filter is made and
 * stored in the plan's parameter slot (a bytea, or a bloom), where the
 * probe side reads it; the join builds its hash table before it reads its
 * probe side (runtime_filter_plan.c makes sure), so the filter is complete
 * when the first probe row is read.  A rescan that rebuilds the hash table
 * rebuilds the filter; until then the slot is NULL, which the probe reads
 * as "no filter".
 *
 * A filter of one integer key also keeps the keys' least and greatest
 * value, published in a slot of its own when the build ends, even past
 * the size setting (two numbers); under a Parallel Hash each participant
 * narrows the shared range with its own before the build barrier
 * (runtime_filter.h).  It keeps its distinct keys as well, up to the
 * spec's keyset_max (RUNTIME_KEYSET_MAX, more where a probe's index
 * lookups take more), in a table of open addressing that doubles while
 * at most half full, published sorted in a third slot (the exact set);
 * under a Parallel Hash each participant appends its own to a shared array
 * of keyset_max keys, which the probe sorts.
 *
 * Memory: the hashes are kept until the end (8 bytes a key), then the
 * filter is sized for their count at the target rate; past the
 * count bloomfilter.runtime_filter_max_size holds, the hashes are dropped
 * and the slot stays NULL (no filter).
 *
 * Under a Parallel Hash each participant sees a share of the build rows:
 * the filter is then in dynamic shared memory, sized when the plan starts
 * from the planner's estimate (twice it, within the size setting), each
 * participant fills a private copy and ORs it in (atomically, word by
 * word) before its share of the build ends; the participants wait for
 * each other before any probes (the Parallel Hash's build barrier), so
 * every key is in when the filter is first read.  A participant that joins
 * after the build has no filter and probes nothing.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"

#include "access/parallel.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "port/atomics.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"

/* Hashes inserted at a time (the core prefetches within a call), between
 * checks for interrupts. */
#define BUILD_CHUNK 4096

/* Slots of the table of distinct keys at first (a power of two, at most
 * half full: it doubles). */
#define KEYSET_SLOTS (2 * RUNTIME_KEYSET_MAX)

/* The shared exact set: a varlena header, then a RuntimeKeySet (8-byte
 * aligned) whose count the participants advance atomically to claim room
 * for their keys. */
typedef struct SharedKeySet
{
	uint32		pad;
	uint32		header;
	pg_atomic_uint64 nkeys;
	int64		keys[FLEXIBLE_ARRAY_MEMBER];	/* keyset_max */
} SharedKeySet;

StaticAssertDecl(offsetof(SharedKeySet, nkeys) == offsetof(SharedKeySet, header) + VARHDRSZ &&
				 offsetof(SharedKeySet, keys) == offsetof(SharedKeySet, nkeys) + sizeof(int64),
				 "the shared set reads as a RuntimeKeySet 4 bytes after a varlena header");

/* The filter in dynamic shared memory: this header, then the bloom value
 * placed so that its bit array is 8-byte aligned (for the atomic ORs). */
typedef struct SharedFilter
{
	pg_atomic_uint64 keys;		/* keys added by every participant */
	uint32		value_offset;	/* of the varlena, from the struct's start */
	uint32		keyset_offset;	/* of the exact set's varlena (has_keyset) */
	/* the keys' range (has_range): a bytea (header, then two int64) whose
	 * numbers every participant narrows atomically */
	uint32		range_pad;
	uint32		range_header;
	pg_atomic_uint64 range_min;
	pg_atomic_uint64 range_max;
	uint32		keyset_size;	/* the exact set's bytes, from keyset_offset */
} SharedFilter;

StaticAssertDecl(sizeof(pg_atomic_uint64) == sizeof(int64) &&
				 offsetof(SharedFilter, range_min) == offsetof(SharedFilter, range_header) + VARHDRSZ &&
				 offsetof(SharedFilter, range_max) == offsetof(SharedFilter, range_min) + sizeof(int64),
				 "the shared range reads as a RuntimeKeyRange after a varlena header");

typedef struct BuildState
{
	CustomScanState css;
	RuntimeFilterSpec spec;
	RuntimeKeyHasher hasher;	/* join hash */
	ExprState  *canon_expr;		/* canonical */
	BloomHasher canon;
	MemoryContext cxt;			/* hashes and the filter */
	double		max_keys;

	/* this build: the keys' range (has_range), the hashes, or (shared) a
	 * private filter */
	bool		any_key;
	RuntimeKeyRange range;
	/* the distinct keys (has_keyset), open addressing in set_capacity
	 * slots (at least twice the keys), until there are more than the
	 * spec's keyset_max */
	int64	   *set_slots;
	bool	   *set_used;
	int			set_capacity;
	int			set_n;
	bool		set_overflow;
	uint64	   *hashes;
	Size		n;
	Size		cap;
	bool		overflow;		/* more keys than the size setting allows */
	bool		finished;
	struct varlena *local;
	bloom_filter local_view;

	SharedFilter *shared;		/* under a Parallel Hash, with workers */
	bool		was_shared;		/* the last build was (for EXPLAIN) */
	uint64		shared_keys;	/* every participant's keys, at the end */

	/* the last result, for EXPLAIN ANALYZE */
	int64		rows;
	Size		filter_bytes;
	int64		builds;
} BuildState;

static Node *create_state(CustomScan *cscan);
static void begin_build(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *exec_build(CustomScanState *node);
static void end_build(CustomScanState *node);
static void rescan_build(CustomScanState *node);
static Size estimate_dsm(CustomScanState *node, ParallelContext *pcxt);
static void initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate);
static void initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate);
static void shutdown_build(CustomScanState *node);
static void explain_build(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomScanMethods build_methods = {
	.CustomName = BLOOM_FILTER_BUILD_NAME,
	.CreateCustomScanState = create_state,
};

static const CustomExecMethods build_exec_methods = {
	.CustomName = BLOOM_FILTER_BUILD_NAME,
	.BeginCustomScan = begin_build,
	.ExecCustomScan = exec_build,
	.EndCustomScan = end_build,
	.ReScanCustomScan = rescan_build,
	.EstimateDSMCustomScan = estimate_dsm,
	.InitializeDSMCustomScan = initialize_dsm,
	.ReInitializeDSMCustomScan = reinitialize_dsm,
	.InitializeWorkerCustomScan = initialize_worker,
	.ShutdownCustomScan = shutdown_build,
	.ExplainCustomScan = explain_build,
};

void
bloom_runtime_build_register(void)
{
	RegisterCustomScanMethods(&build_methods);
}

bool
bloom_runtime_is_build(Plan *plan)
{
	return IsA(plan, CustomScan) && ((CustomScan *) plan)->methods == &build_methods;
}

List *
bloom_runtime_passthrough_tlist(Plan *plan, int varno)
{
	List	   *tlist = NIL;
	ListCell   *lc;

	foreach(lc, plan->targetlist)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);

		tlist = lappend(tlist,
						makeTargetEntry((Expr *) makeVar(varno, tle->resno,
														 exprType((Node *) tle->expr),
														 exprTypmod((Node *) tle->expr),
														 exprCollation((Node *) tle->expr), 0),
										tle->resno, tle->resname, tle->resjunk));
	}
	return tlist;
}

CustomScan *
bloom_runtime_passthrough_scan(Plan *child, const CustomScanMethods *methods)
{
	/* makeNode is a GNU statement expression (see bloom_context_create) */
	CustomScan *cscan = (__extension__ makeNode(CustomScan));

	/* the header of the child (costs, rows, width, parallel safety, params) */
	cscan->scan.plan = *child;
	cscan->scan.plan.type = T_CustomScan;
	/* the scan tuple is the child's row, returned as is */
	cscan->scan.plan.targetlist = bloom_runtime_passthrough_tlist(child, INDEX_VAR);
	cscan->scan.plan.qual = NIL;
	cscan->scan.plan.initPlan = NIL;
	cscan->scan.plan.lefttree = child;
	cscan->scan.plan.righttree = NULL;
	cscan->scan.plan.parallel_aware = false;
	cscan->scan.plan.async_capable = false;
	cscan->scan.plan.extParam = bms_copy(child->extParam);
	cscan->scan.plan.allParam = bms_copy(child->allParam);
	cscan->scan.scanrelid = 0;
	cscan->flags = 0;
	cscan->custom_plans = NIL;
	cscan->custom_exprs = NIL;
	cscan->custom_private = NIL;
	cscan->custom_scan_tlist = bloom_runtime_passthrough_tlist(child, OUTER_VAR);
	cscan->custom_relids = NULL;
	cscan->methods = methods;
	return cscan;
}

CustomScan *
bloom_runtime_build_make(Plan *child, List *keys, const RuntimeFilterSpec *spec,
						 bool parallel_shared)
{
	CustomScan *cscan = bloom_runtime_passthrough_scan(child, &build_methods);

	cscan->scan.plan.parallel_aware = parallel_shared;
	cscan->custom_exprs = keys;
	cscan->custom_private = bloom_runtime_spec_to_list(spec);
	return cscan;
}

static Node *
create_state(CustomScan *cscan)
{
	BuildState *state = palloc0(sizeof(BuildState));

	NodeSetTag(state, T_CustomScanState);
	state->css.flags = cscan->flags;
	state->css.methods = &build_exec_methods;
	return (Node *) state;
}

/* The shared exact set (has_keyset). */
static SharedKeySet *
shared_keyset(SharedFilter *shared)
{
	return (SharedKeySet *) ((char *) shared + shared->keyset_offset);
}

/* The shared filter's value in this process. */
static struct varlena *
shared_value(SharedFilter *shared)
{
	return (struct varlena *) ((char *) shared + shared->value_offset);
}

static ParamExecData *
param_slot(BuildState *state)
{
	return &state->css.ss.ps.state->es_param_exec_vals[state->spec.paramid];
}

/* No filter (yet): the probe side passes every row. */
static void
clear_param(BuildState *state)
{
	ParamExecData *prm = param_slot(state);

	prm->value = (Datum) 0;
	prm->isnull = true;
	if (state->spec.has_range)
	{
		prm = &state->css.ss.ps.state->es_param_exec_vals[state->spec.range_paramid];
		prm->value = (Datum) 0;
		prm->isnull = true;
	}
	if (state->spec.has_keyset)
	{
		prm = &state->css.ss.ps.state->es_param_exec_vals[state->spec.keyset_paramid];
		prm->value = (Datum) 0;
		prm->isnull = true;
	}
}

/* The first slot of key in a table of mask + 1 slots (Fibonacci hashing,
 * the high bits: the low ones of a product are those of the key's). */
static inline uint32
keyset_slot(int64 key, uint32 mask)
{
	return (uint32) (((uint64) key * UINT64CONST(0x9E3779B97F4A7C15)) >> 32) & mask;
}

/* A table of capacity slots, empty (query memory: the hashes' context is
 * reset on an overflow of the hashes, the set is not). */
static void
keyset_alloc(BuildState *state, int capacity)
{
	MemoryContext cxt = state->css.ss.ps.state->es_query_cxt;

	if (state->set_slots != NULL)
	{
		pfree(state->set_slots);
		pfree(state->set_used);
	}
	state->set_slots = MemoryContextAlloc(cxt, capacity * sizeof(int64));
	state->set_used = MemoryContextAllocZero(cxt, capacity * sizeof(bool));
	state->set_capacity = capacity;
}

/* Twice the slots, every key placed again. */
static void
keyset_grow(BuildState *state)
{
	int64	   *slots = state->set_slots;
	bool	   *used = state->set_used;
	int			old = state->set_capacity;
	uint32		mask = 2 * old - 1;

	state->set_slots = NULL;
	keyset_alloc(state, 2 * old);
	for (int i = 0; i < old; i++)
		if (used[i])
		{
			uint32		slot = keyset_slot(slots[i], mask);

			while (state->set_used[slot])
				slot = (slot + 1) & mask;
			state->set_used[slot] = true;
			state->set_slots[slot] = slots[i];
		}
	pfree(slots);
	pfree(used);
}

/* Note key in the exact set (has_keyset), until there are too many. */
static void
keyset_add(BuildState *state, int64 key)
{
	uint32		mask = state->set_capacity - 1;
	uint32		slot = keyset_slot(key, mask);

	while (state->set_used[slot])
	{
		if (state->set_slots[slot] == key)
			return;
		slot = (slot + 1) & mask;
	}
	if (state->set_n >= state->spec.keyset_max)
	{
		state->set_overflow = true;
		return;
	}
	if (2 * (state->set_n + 1) > state->set_capacity)
	{
		CHECK_FOR_INTERRUPTS();
		keyset_grow(state);
		keyset_add(state, key);
		return;
	}
	state->set_used[slot] = true;
	state->set_slots[slot] = key;
	state->set_n++;
}

/* Publish the exact set, sorted; with too many keys, a count above the
 * bound and no keys (the probe stops looking). */
static void
publish_keyset(BuildState *state)
{
	ParamExecData *prm;
	bytea	   *value;
	RuntimeKeySet *set;
	int			n = state->set_overflow ? 0 : state->set_n;

	if (!state->spec.has_keyset)
		return;
	value = MemoryContextAlloc(state->cxt, VARHDRSZ + offsetof(RuntimeKeySet, keys) + n * sizeof(int64));
	SET_VARSIZE(value, VARHDRSZ + offsetof(RuntimeKeySet, keys) + n * sizeof(int64));
	set = (RuntimeKeySet *) VARDATA(value);
	set->nkeys = state->set_overflow ? (int64) state->spec.keyset_max + 1 : n;
	n = 0;
	if (!state->set_overflow)
		for (int i = 0; i < state->set_capacity; i++)
			if (state->set_used[i])
				set->keys[n++] = state->set_slots[i];
	qsort(set->keys, n, sizeof(int64), bloom_runtime_compare_int64);
	prm = &state->css.ss.ps.state->es_param_exec_vals[state->spec.keyset_paramid];
	prm->value = PointerGetDatum(value);
	prm->isnull = false;
}

/* Publish the keys' range, if there were keys (else the filter rejects
 * every row by itself). */
static void
publish_range(BuildState *state)
{
	ParamExecData *prm;
	bytea	   *value;

	if (!state->spec.has_range || !state->any_key)
		return;
	value = MemoryContextAlloc(state->cxt, VARHDRSZ + sizeof(RuntimeKeyRange));
	SET_VARSIZE(value, VARHDRSZ + sizeof(RuntimeKeyRange));
	memcpy(VARDATA(value), &state->range, sizeof(RuntimeKeyRange));
	prm = &state->css.ss.ps.state->es_param_exec_vals[state->spec.range_paramid];
	prm->value = PointerGetDatum(value);
	prm->isnull = false;
}

static void
begin_build(CustomScanState *node, EState *estate, int eflags)
{
	BuildState *state = (BuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	PlanState  *child;
	bool		fixed;

	bloom_runtime_spec_from_list(cscan->custom_private, &state->spec);
	child = ExecInitNode(outerPlan(cscan), estate, eflags);
	outerPlanState(node) = child;

	/*
	 * The rows returned are the child's own slots: say so, so that the
	 * Hash node above compiles its key expressions for them.
	 */
	node->ss.ps.resultops = ExecGetResultSlotOps(child, &fixed);
	node->ss.ps.resultopsfixed = fixed;
	node->ss.ps.resultopsset = true;

	if (state->spec.kind == RUNTIME_FILTER_JOIN_HASH)
		bloom_runtime_hasher_init(&state->hasher, cscan->custom_exprs, state->spec.hashfuncs,
								  state->spec.collations, state->spec.integer_keys, &node->ss.ps);
	else
	{
		Expr	   *key = linitial(cscan->custom_exprs);

		state->canon_expr = ExecInitExpr(key, &node->ss.ps);
		bloom_hasher_init_type(&state->canon, exprType((Node *) key), estate->es_query_cxt);
	}
	state->cxt = bloom_context_create(estate->es_query_cxt, "bloom runtime filter build",
									  ALLOCSET_DEFAULT_SIZES);
	state->max_keys = bloom_runtime_filter_max_keys(state->spec.kind);
	/* outside cxt, which an overflow of the hashes resets */
	if (state->spec.has_keyset)
		keyset_alloc(state, KEYSET_SLOTS);
	clear_param(state);
}

/* The shared filter (and range) as this process's parameters. */
static void
publish_shared(BuildState *state)
{
	ParamExecData *prm = param_slot(state);

	prm->value = PointerGetDatum(shared_value(state->shared));
	prm->isnull = false;
	if (state->spec.has_range)
	{
		prm = &state->css.ss.ps.state->es_param_exec_vals[state->spec.range_paramid];
		prm->value = PointerGetDatum(&state->shared->range_header);
		prm->isnull = false;
	}
	if (state->spec.has_keyset)
	{
		prm = &state->css.ss.ps.state->es_param_exec_vals[state->spec.keyset_paramid];
		prm->value = PointerGetDatum(&shared_keyset(state->shared)->header);
		prm->isnull = false;
	}
}

/* An empty shared set (the participants append their keys). */
static void
reset_shared_keyset(SharedFilter *shared)
{
	SharedKeySet *set = shared_keyset(shared);

	SET_VARSIZE(&set->header, shared->keyset_size - offsetof(SharedKeySet, header));
	pg_atomic_write_u64(&set->nkeys, 0);
}

/* An empty shared range (no keys: every probe key is outside it, as every
 * key is outside the empty filter). */
static void
reset_shared_range(SharedFilter *shared)
{
	SET_VARSIZE(&shared->range_header, VARHDRSZ + sizeof(RuntimeKeyRange));
	pg_atomic_write_u64(&shared->range_min, (uint64) PG_INT64_MAX);
	pg_atomic_write_u64(&shared->range_max, (uint64) PG_INT64_MIN);
}

/* Narrow a shared bound to value: the lesser (or greater) of the two. */
static void
narrow_shared_bound(pg_atomic_uint64 *bound, int64 value, bool least)
{
	uint64		old = pg_atomic_read_u64(bound);

	while (least ? value < (int64) old : value > (int64) old)
		if (pg_atomic_compare_exchange_u64(bound, &old, (uint64) value))
			break;
}

/* Forget this build's hashes (a new build follows). */
static void
reset_build(BuildState *state)
{
	MemoryContextReset(state->cxt);
	state->hashes = NULL;
	state->n = 0;
	state->cap = 0;
	state->overflow = false;
	state->finished = false;
	state->local = NULL;
	state->rows = 0;
	state->any_key = false;
	state->set_n = 0;
	state->set_overflow = false;
	if (state->set_used != NULL)
		memset(state->set_used, 0, state->set_capacity * sizeof(bool));
	if (state->shared == NULL)
		clear_param(state);
}

/* Keep a hash: in the array, or (shared) straight into the private filter. */
static void
keep_hash(BuildState *state, uint64 hash)
{
	if (state->shared != NULL)
	{
		if (state->local == NULL)
		{
			struct varlena *value = shared_value(state->shared);
			bloom_filter view;
			bloom_error err;
			MemoryContext old;

			if (bloom_parse_header(VARDATA(value), VARSIZE(value) - VARHDRSZ, &view, &err) != BLOOM_OK)
				bloom_raise(&err, BLOOM_SOURCE_STORED, NULL);
			old = MemoryContextSwitchTo(state->cxt);
			state->local = bloom_make(view.layout, view.nbits, view.nhashes, view.seed,
									  &state->local_view);
			MemoryContextSwitchTo(old);
		}
		bloom_add_hash(&state->local_view, hash);
		state->n++;
		return;
	}
	if (state->n >= state->cap)
	{
		Size		want;

		if ((double) state->n >= state->max_keys)
		{
			/* more keys than a filter of the size setting holds: none */
			MemoryContextReset(state->cxt);
			state->hashes = NULL;
			state->overflow = true;
			return;
		}
		want = state->cap == 0 ? 1024 : state->cap * 2;
		if ((double) want > state->max_keys + 1)
			want = (Size) state->max_keys + 1;
		state->hashes = state->hashes == NULL ?
			MemoryContextAllocHuge(state->cxt, want * sizeof(uint64)) :
			repalloc_huge(state->hashes, want * sizeof(uint64));
		state->cap = want;
	}
	state->hashes[state->n++] = hash;
}

static void
add_row(BuildState *state, TupleTableSlot *slot)
{
	ExprContext *econtext = state->css.ss.ps.ps_ExprContext;

	state->rows++;
	ResetExprContext(econtext);
	econtext->ecxt_outertuple = slot;
	if (state->spec.kind == RUNTIME_FILTER_JOIN_HASH)
	{
		uint64		hash;
		int64		key = 0;
		MemoryContext old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		bool		hashed = bloom_runtime_hash_row_key(&state->hasher, econtext, &hash, &key);

		MemoryContextSwitchTo(old);
		/* a NULL key matches nothing */
		if (!hashed)
			return;
		if (state->spec.has_range)
		{
			if (!state->any_key || key < state->range.min)
				state->range.min = key;
			if (!state->any_key || key > state->range.max)
				state->range.max = key;
		}
		state->any_key = true;
		if (state->spec.has_keyset && !state->set_overflow)
			keyset_add(state, key);
		if (!state->overflow)
			keep_hash(state, hash);
	}
	else
	{
		bool		isnull;
		Datum		value = ExecEvalExprSwitchContext(state->canon_expr, econtext, &isnull);

		if (!isnull)
			keep_hash(state, bloom_hash_value(&state->canon, value, 0));
	}
}

/* Build the filter from the kept hashes and publish it. */
static void
finish_local(BuildState *state)
{
	uint64		nbits;
	unsigned	nhashes;
	bloom_filter view;
	struct varlena *value;
	MemoryContext old;
	ParamExecData *prm;

	bloom_runtime_filter_params(state->spec.kind, (double) state->n, &nbits, &nhashes);
	old = MemoryContextSwitchTo(state->cxt);
	value = bloom_make(BLOOM_LAYOUT_CLASSIC, nbits, nhashes, 0, &view);
	MemoryContextSwitchTo(old);
	for (Size i = 0; i < state->n; i += BUILD_CHUNK)
	{
		CHECK_FOR_INTERRUPTS();
		bloom_add_hashes(&view, state->hashes + i, Min((Size) BUILD_CHUNK, state->n - i));
	}
	/* the hashes are no longer needed */
	if (state->hashes != NULL)
		pfree(state->hashes);
	state->hashes = NULL;
	state->filter_bytes = VARSIZE(value);
	prm = param_slot(state);
	prm->value = PointerGetDatum(value);
	prm->isnull = false;
}

/* OR this participant's filter into the shared one. */
static void
finish_shared(BuildState *state)
{
	struct varlena *value = shared_value(state->shared);

	if (state->local != NULL)
	{
		pg_atomic_uint64 *words = (pg_atomic_uint64 *) (VARDATA(value) + BLOOM_HEADER_SIZE);
		const uint64 *mine = (const uint64 *) state->local_view.bits;
		Size		nwords = state->local_view.nbytes / sizeof(uint64);

		for (Size i = 0; i < nwords; i++)
		{
			if ((i & 0xFFFF) == 0)
				CHECK_FOR_INTERRUPTS();
			if (mine[i] != 0)
				pg_atomic_fetch_or_u64(&words[i], mine[i]);
		}
		pg_atomic_fetch_add_u64(&state->shared->keys, state->n);
	}
	if (state->spec.has_range && state->any_key)
	{
		narrow_shared_bound(&state->shared->range_min, state->range.min, true);
		narrow_shared_bound(&state->shared->range_max, state->range.max, false);
	}
	if (state->spec.has_keyset && (state->set_n > 0 || state->set_overflow))
	{
		SharedKeySet *set = shared_keyset(state->shared);
		/* too many: claim more than the room, so that every reader sees so */
		uint64		want = state->set_overflow ? (uint64) state->spec.keyset_max + 1 :
			(uint64) state->set_n;
		uint64		at = pg_atomic_fetch_add_u64(&set->nkeys, want);

		if (at + want <= (uint64) state->spec.keyset_max)
			for (int i = 0; i < state->set_capacity; i++)
				if (state->set_used[i])
					set->keys[at++] = state->set_slots[i];
	}
	state->filter_bytes = VARSIZE(value);
}

static TupleTableSlot *
exec_build(CustomScanState *node)
{
	BuildState *state = (BuildState *) node;
	TupleTableSlot *slot = ExecProcNode(outerPlanState(node));

	if (TupIsNull(slot))
	{
		if (!state->finished)
		{
			state->finished = true;
			state->builds++;
			if (state->shared != NULL)
				finish_shared(state);
			else
			{
				if (!state->overflow)
					finish_local(state);
				publish_range(state);
				publish_keyset(state);
			}
		}
		return slot;
	}
	/* past the size setting, only the range is kept */
	if (!state->overflow || state->spec.has_range)
		add_row(state, slot);
	return slot;
}

static void
end_build(CustomScanState *node)
{
	ExecEndNode(outerPlanState(node));
}

static void
rescan_build(CustomScanState *node)
{
	BuildState *state = (BuildState *) node;
	PlanState  *child = outerPlanState(node);

	reset_build(state);
	if (child->chgParam == NULL)
		ExecReScan(child);
}

/* ---- parallel: one filter in shared memory (under a Parallel Hash) ---- */

static void
shared_params(BuildState *state, uint64 *nbits, unsigned *nhashes)
{
	/* twice the estimate: the filter cannot grow once the plan runs */
	bloom_runtime_filter_params(state->spec.kind, 2 * state->spec.est_keys, nbits, nhashes);
}

/* The varlena's start: 4 bytes before an 8-byte boundary, so that its bit
 * array (after the 4-byte length and the 32-byte header) is 8-byte aligned. */
static uint32
shared_value_offset(void)
{
	return (uint32) (TYPEALIGN(8, sizeof(SharedFilter) + VARHDRSZ) - VARHDRSZ);
}

/* The shared set's start, after the filter of nbits, 8-byte aligned. */
static uint32
shared_keyset_offset(uint64 nbits)
{
	return (uint32) TYPEALIGN(8, shared_value_offset() + VARHDRSZ + bloom_serialized_size(nbits));
}

/* The shared set's bytes: room for the spec's most keys. */
static uint32
shared_keyset_size(BuildState *state)
{
	if (!state->spec.has_keyset)
		return 0;
	return (uint32) (offsetof(SharedKeySet, keys) +
					 state->spec.keyset_max * sizeof(int64));
}

static Size
estimate_dsm(CustomScanState *node, ParallelContext *pcxt)
{
	BuildState *state = (BuildState *) node;
	uint64		nbits;
	unsigned	nhashes;

	(void) pcxt;
	shared_params(state, &nbits, &nhashes);
	return shared_keyset_offset(nbits) + shared_keyset_size(state);
}

static void
initialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	BuildState *state = (BuildState *) node;
	SharedFilter *shared = coordinate;
	uint64		nbits;
	unsigned	nhashes;
	size_t		size;
	struct varlena *value;
	bloom_filter view;
	bloom_error err;

	(void) pcxt;
	shared_params(state, &nbits, &nhashes);
	size = bloom_serialized_size(nbits);
	pg_atomic_init_u64(&shared->keys, 0);
	pg_atomic_init_u64(&shared->range_min, 0);
	pg_atomic_init_u64(&shared->range_max, 0);
	reset_shared_range(shared);
	shared->value_offset = shared_value_offset();
	shared->keyset_offset = shared_keyset_offset(nbits);
	shared->keyset_size = shared_keyset_size(state);
	if (state->spec.has_keyset)
		reset_shared_keyset(shared);
	value = shared_value(shared);
	SET_VARSIZE(value, VARHDRSZ + size);
	if (bloom_init(VARDATA(value), size, BLOOM_LAYOUT_CLASSIC, nbits, nhashes, 0, &view, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, NULL);
	state->shared = shared;
	publish_shared(state);
}

static void
reinitialize_dsm(CustomScanState *node, ParallelContext *pcxt, void *coordinate)
{
	SharedFilter *shared = coordinate;
	struct varlena *value = shared_value(shared);

	(void) pcxt;
	((BuildState *) node)->shared = shared;
	pg_atomic_write_u64(&shared->keys, 0);
	reset_shared_range(shared);
	if (((BuildState *) node)->spec.has_keyset)
		reset_shared_keyset(shared);
	memset(VARDATA(value) + BLOOM_HEADER_SIZE, 0, VARSIZE(value) - VARHDRSZ - BLOOM_HEADER_SIZE);
	publish_shared((BuildState *) node);
}

static void
initialize_worker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	BuildState *state = (BuildState *) node;

	(void) toc;
	state->shared = coordinate;
	publish_shared(state);
}

/* The shared memory goes away after this: keep what EXPLAIN shows. */
static void
shutdown_build(CustomScanState *node)
{
	BuildState *state = (BuildState *) node;

	if (state->shared != NULL)
	{
		state->was_shared = true;
		state->shared_keys = pg_atomic_read_u64(&state->shared->keys);
		state->shared = NULL;
	}
}

/* ---- EXPLAIN ---- */

static void
explain_build(CustomScanState *node, List *ancestors, ExplainState *es)
{
	BuildState *state = (BuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context = set_deparse_context_plan(es->deparse_cxt, (Plan *) cscan, ancestors);
	StringInfoData buf;
	char		label[64];
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, cscan->custom_exprs)
	{
		if (buf.len > 0)
			appendStringInfoString(&buf, ", ");
		/* as EXPLAIN shows a join's condition: with the table names */
		appendStringInfoString(&buf, deparse_expression(lfirst(lc), context,
														list_length(es->rtable) > 1 || es->verbose,
														false));
	}
	/* (remote; N keys, S kB): what was built, the last time */
	if (state->spec.kind == RUNTIME_FILTER_CANONICAL || (es->analyze && state->builds > 0))
	{
		const char *sep = "";

		appendStringInfoString(&buf, " (");
		if (state->spec.kind == RUNTIME_FILTER_CANONICAL)
		{
			appendStringInfoString(&buf, "remote");
			sep = "; ";
		}
		if (es->analyze && state->builds > 0)
		{
			if (state->was_shared)
				appendStringInfo(&buf, "%s" UINT64_FORMAT " keys, %zu kB, shared by the workers", sep,
								 state->shared_keys, (state->filter_bytes + 1023) / 1024);
			else if (state->overflow)
				appendStringInfo(&buf, "%snone: more than %.0f keys", sep, state->max_keys);
			else
				appendStringInfo(&buf, "%s%zu keys, %zu kB", sep, state->n,
								 (state->filter_bytes + 1023) / 1024);
		}
		appendStringInfoChar(&buf, ')');
	}
	snprintf(label, sizeof label, "Runtime Filter %d", state->spec.filter_id);
	ExplainPropertyText(label, buf.data, es);
}
