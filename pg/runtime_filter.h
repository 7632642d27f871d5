/*
 * runtime_filter.h - the automatic Bloom join: runtime filters the planner
 * adds to hash joins (docs/POSTGRESQL.md, "Automatic Bloom joins").
 *
 * For a hash join whose probe (outer) side may lose the rows that match no
 * key of the build (inner) side without changing the result (inner, semi,
 * right, right semi and right anti joins), a node under the Hash node sees
 * every build row on its way into the hash table and builds a Bloom filter
 * of its join keys; the scan of the probe side, below other joins and
 * aggregations, drops the rows the filter says match nothing.  The filter
 * travels from the build to the probe in a PARAM_EXEC slot of the plan
 * (with an integer key, the keys' range in a second one: below).
 *
 *   runtime_filter_plan.c   the planner hook: finds the joins, adds the
 *                           nodes (runtime_filter_plan.h)
 *   runtime_filter_trace.c  traces a join's keys down to the scans
 *   runtime_filter_remote.c the postgres_fdw case (the filter as a
 *                           parameter of the remote query)
 *   runtime_filter_remote_schema.c
 *                           whether the remote server knows the
 *                           extension's objects by their local names
 *   runtime_filter_build.c  the build node (Custom Scan BloomFilterBuild)
 *   runtime_filter_compute_once.c
 *                           an expensive build side under a Gather,
 *                           computed by one process for all (Custom Scan
 *                           BloomComputeOnce)
 *   runtime_filter_prebuild.c
 *                           a filter built first, from the selective side
 *                           of a nested loop or merge join (Custom Scan
 *                           BloomFilterPrebuild)
 *   runtime_filter_outer_first.c
 *                           a hash join's small probe side read first, its
 *                           keys filtering the build side's scans (Custom
 *                           Scan BloomOuterFirst)
 *   runtime_filter_probe.c  the probe: the batched probe scan (Custom Scan
 *                           BloomBatchedProbe) in runtime mode, at a heap
 *                           Seq Scan, and what both probes share
 *                           (runtime_filter_probe.h)
 *   runtime_filter_wrap.c   the probe at an Index, Index Only or Bitmap
 *                           Heap Scan: Custom Scan (BloomRuntimeFilter)
 *                           above the scan, which runs the scan's
 *                           conditions with a subplan after the filters
 *   runtime_filter_keyset.c the batched probe scan's index lookups of
 *                           a filter's exact set of keys, decided from a
 *                           sample of them
 *   runtime_filter_prune.c  a probe's scan skipped whole when the range
 *                           misses the bounds its relation's constraints
 *                           imply (partitions, inheritance children)
 *   runtime_filter.c        settings, sizing, and the hashing both sides
 *                           share
 *
 * Two kinds of filter:
 *   join hash   the keys hashed with the join's own hash functions and
 *               collations (each key's 32-bit hash, combined as below), so
 *               equality is exactly the join's, whatever the types and
 *               collations; it never leaves the query.  A bytea in the
 *               parameter, whose payload is the core format.
 *   canonical   one key hashed by the extension's canonical hash: a real
 *               `bloom` value, probed with bloom_contains on a remote
 *               server; only for keys whose canonical hash follows the
 *               join's equality (runtime_filter_plan.c lists them).
 */
#ifndef BLOOMFILTER_RUNTIME_FILTER_H
#define BLOOMFILTER_RUNTIME_FILTER_H

#include "postgres.h"

#include "fmgr.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "nodes/plannodes.h"

BLOOM_HIDDEN_BEGIN

/* Name in EXPLAIN: "Custom Scan (BloomFilterBuild)". */
#define BLOOM_FILTER_BUILD_NAME "BloomFilterBuild"

typedef enum RuntimeFilterKind
{
	RUNTIME_FILTER_JOIN_HASH = 0,
	RUNTIME_FILTER_CANONICAL = 1
} RuntimeFilterKind;

/* ---- settings (runtime_filter.c) ---- */
extern bool bloomfilter_runtime_filter;
/* The largest filter, in kB; a build side with more keys gets none. */
extern int	bloomfilter_runtime_filter_max_size;
/* Probe sides estimated smaller than this get no filter. */
extern int	bloomfilter_runtime_filter_min_rows;
/* Above this fraction of probe rows passing, no filter (planning) / the
 * filter switches off (running). */
extern double bloomfilter_runtime_filter_max_pass;
/* Whether filters travel through the equalities of other joins to the
 * scans they reach, and joins whose build side they reduce are reconsidered
 * (predicate transfer, runtime_filter_plan.c). */
extern bool bloomfilter_runtime_filter_transfer;
/* Whether a probe scan may read the rows of an exact set's keys through an
 * index (runtime_filter_keyset.c). */
extern bool bloomfilter_runtime_filter_index_lookups;
/* Target false-positive rate of a local filter; a remote one gets a tenth. */
extern double bloomfilter_runtime_filter_fpr;
/* Whether the readers' conditions of a shared CTE go into the CTE
 * (runtime_filter_cte.c). */
extern bool bloomfilter_runtime_filter_cte_conditions;
/* Whether an expensive build side under a Gather is computed by one process
 * for all (runtime_filter_compute_once.c). */
extern bool bloomfilter_runtime_filter_build_once;
extern bool bloomfilter_runtime_filter_outer_first;
/* The least estimated cost of a build side computed once. */
extern double bloomfilter_runtime_filter_build_once_min_cost;

/* Register the settings, the planner hook and the build node (_PG_init). */
extern void bloom_runtime_filter_init(void);

/* Before planning: the OR of its readers' conditions into each shared CTE
 * that every reader restricts (runtime_filter_cte.c). */
extern void bloom_runtime_cte_conditions(Query *parse);

/*
 * Sizing.  A local filter has 2 hash functions and about twice the bits a
 * filter of the same rate with the optimal count would have: it is sparse
 * (a tenth of its bits set), so a key that is not in it is turned away by
 * its first bit nine times in ten, in one load and a branch that is easy
 * to predict; the optimal count (7 at 1%) costs a probe about twice as
 * much.  A remote filter is shipped once and probed by another server: it
 * has the optimal count at a tenth of the rate.
 */
#define RUNTIME_FILTER_LOCAL_NHASHES 2

/* The false-positive rate of a filter of this kind. */
static inline double
bloom_runtime_filter_rate(RuntimeFilterKind kind)
{
	return kind == RUNTIME_FILTER_CANONICAL ? bloomfilter_runtime_filter_fpr / 10 :
		bloomfilter_runtime_filter_fpr;
}

/* The most keys a filter of this kind holds within
 * bloomfilter.runtime_filter_max_size. */
extern double bloom_runtime_filter_max_keys(RuntimeFilterKind kind);

/* nbits and nhashes of a classic filter of this kind for nkeys keys, within
 * bloomfilter.runtime_filter_max_size. */
extern void bloom_runtime_filter_params(RuntimeFilterKind kind, double nkeys, uint64 *nbits,
										unsigned *nhashes);

/*
 * How a join-hash filter hashes a key: with the join's hash function of
 * its side and the join's collation (its 32-bit result), or, for the
 * integer operator family (int2, int4, int8 in any mix, whose hash
 * functions give equal values equal hashes) and for date (an int32, with
 * hashint4 before PostgreSQL 18 and hashdate from it), the value itself
 * read as an int64: the same equality, without a function call.  The planner decides
 * per key from both sides' functions, so that both sides read alike.
 */
typedef enum RuntimeKeyRead
{
	RUNTIME_KEY_HASH_FUNCTION,
	RUNTIME_KEY_INT2,
	RUNTIME_KEY_INT4,
	RUNTIME_KEY_INT8
} RuntimeKeyRead;

/*
 * The keys of one side of a join, evaluated and hashed as above; a row's
 * hash chains its keys' through bloom_hash_lane.
 */
typedef struct RuntimeKeyHasher
{
	int			nkeys;
	ExprState **exprs;
	FmgrInfo   *fns;
	Oid		   *collations;
	RuntimeKeyRead *reads;
} RuntimeKeyHasher;

/* Set up hashing of exprs (compiled for parent) with the functions,
 * collations and integer flags of the plan (lists). */
extern void bloom_runtime_hasher_init(RuntimeKeyHasher *h, List *exprs, List *hashfuncs,
									  List *collations, List *integer_keys, PlanState *parent);

/* Whether a key whose sides hash with functions left and right is read as
 * an integer on both. */
extern bool bloom_runtime_integer_key(Oid left, Oid right);

/*
 * The hash of the row in econtext, and its first key as an integer (that
 * key's value when it is read as one, else a meaningless number); false
 * when a key is NULL (every join operator a filter is made for is strict:
 * such a row matches nothing).
 */
static inline bool
bloom_runtime_hash_row_key(RuntimeKeyHasher *h, ExprContext *econtext, uint64 *out, int64 *first)
{
	uint64		hash = 0;

	for (int i = 0; i < h->nkeys; i++)
	{
		bool		isnull;
		Datum		value = ExecEvalExpr(h->exprs[i], econtext, &isnull);
		uint64		key;

		if (isnull)
			return false;
		switch (h->reads[i])
		{
			case RUNTIME_KEY_INT2:
				key = (uint64) (int64) DatumGetInt16(value);
				break;
			case RUNTIME_KEY_INT4:
				key = (uint64) (int64) DatumGetInt32(value);
				break;
			case RUNTIME_KEY_INT8:
				key = (uint64) DatumGetInt64(value);
				break;
			default:
				key = DatumGetUInt32(FunctionCall1Coll(&h->fns[i], h->collations[i], value));
				break;
		}
		if (i == 0)
			*first = (int64) key;
		hash = bloom_hash_lane(key, hash);
	}
	*out = hash;
	return true;
}

/* The hash of the row in econtext; false when a key is NULL. */
static inline bool
bloom_runtime_hash_row(RuntimeKeyHasher *h, ExprContext *econtext, uint64 *out)
{
	int64		first;

	return bloom_runtime_hash_row_key(h, econtext, out, &first);
}

/*
 * The range tier: a filter of one key read as an integer (above: equal
 * keys are equal numbers, so a number outside the build keys' least and
 * greatest matches none of them, whatever the type's own order) also has
 * the keys' range, in a second PARAM_EXEC slot (a bytea of two int64,
 * NULL while there is none: not built yet, a build without keys).  The
 * probe tests it before the Bloom filter.
 */
typedef struct RuntimeKeyRange
{
	int64		min;
	int64		max;
} RuntimeKeyRange;

/*
 * The exact-set tier: such a filter also has its build keys themselves,
 * when there are few, in a third PARAM_EXEC slot (a bytea: this struct).
 * The probe tests a key in a hash table it makes of the set instead of the
 * Bloom filter (no false positives; runtime_filter_probe.h), and a probe
 * scan may read only the rows of those keys through an index
 * (runtime_filter_keyset.c).  The bound keeps the set within 8 kB and its
 * table within 18 kB (the cache), and is about where lookups of every key
 * stop paying off against a sequential scan.  The keys may come
 * unsorted and repeated (a Parallel Hash's participants append theirs);
 * the probe sorts them.  NULL while not built; nkeys above the bound: no
 * set (too many keys).
 */
#define RUNTIME_KEYSET_MAX 1024

/*
 * A probe scan whose index lookups may take more keys than that (a heap in
 * the order of the index: runtime_filter_keyset.c) raises its filter's
 * bound (RuntimeFilterSpec.keyset_max) up to this, 2 MB of keys: the build
 * then keeps up to that many, and the probes test the Bloom filter still
 * for a set above RUNTIME_KEYSET_MAX (too big for the cache); the set is
 * there for the lookups.
 */
#define RUNTIME_LOOKUP_MAX_KEYS (256 * 1024)

typedef struct RuntimeKeySet
{
	int64		nkeys;
	int64		keys[FLEXIBLE_ARRAY_MEMBER];
} RuntimeKeySet;

/* qsort's comparison of int64 (runtime_filter_probe.c). */
extern int	bloom_runtime_compare_int64(const void *a, const void *b);

/*
 * What the planner stores in a probe node's custom_private for each filter
 * it probes (the keys are in custom_exprs, in order), and in the build
 * node's: a List of Integer nodes and OID lists, so it copies and
 * serializes as any plan (parallel workers).
 */
typedef struct RuntimeFilterSpec
{
	int			filter_id;		/* shown in EXPLAIN, both sides */
	int			paramid;		/* the PARAM_EXEC slot of the filter */
	RuntimeFilterKind kind;
	int			nkeys;
	List	   *hashfuncs;		/* OIDs: this side's hash function of each key */
	List	   *collations;		/* OIDs */
	List	   *integer_keys;	/* ints: 1 where a key is read as an integer */
	double		est_keys;		/* the planner's estimate of build rows */
	bool		has_range;		/* the range tier (see RuntimeKeyRange) */
	int			range_paramid;	/* its PARAM_EXEC slot, if has_range */
	bool		has_keyset;		/* the exact-set tier (see RuntimeKeySet) */
	int			keyset_paramid; /* its PARAM_EXEC slot, if has_keyset */
	int			keyset_max;		/* the most keys of the set: RUNTIME_KEYSET_MAX,
								 * or more for a probe's lookups */
	/* a probe scan's index lookups (runtime_filter_keyset.c): the btree
	 * index its key leads, or InvalidOid, the most keys to look up, and
	 * the most rows they may fetch (estimated from a sample of the keys) */
	Oid			lookup_index;
	int			lookup_max_keys;
	int			lookup_max_rows;
	/* a probe's: the bounds its relation holds of the key, whose scan is
	 * skipped when the range misses them (runtime_filter_prune.h) */
	bool		has_bounds;
	RuntimeKeyRange bounds;
} RuntimeFilterSpec;

extern List *bloom_runtime_spec_to_list(const RuntimeFilterSpec *spec);
extern void bloom_runtime_spec_from_list(List *list, RuntimeFilterSpec *spec);

/* Whether node is the placeholder of a remote filter, in the second planning
 * of a query (runtime_filter_plan.c): its selectivity is 1. */
extern bool bloom_runtime_is_placeholder(Node *node);

/* ---- the build node (runtime_filter_build.c) ---- */

extern void bloom_runtime_build_register(void);

/*
 * A build node over child (the Hash node's child), hashing the inner keys
 * (expressions of child's output, OUTER_VAR) into the filter of spec.
 */
extern CustomScan *bloom_runtime_build_make(Plan *child, List *keys, const RuntimeFilterSpec *spec,
											bool parallel_shared);

/* Whether plan is a build node (the planner passes through them). */
extern bool bloom_runtime_is_build(Plan *plan);

/* Vars of each column of plan's output, of varno: the target list of a
 * node that returns its child's rows as they are. */
extern List *bloom_runtime_passthrough_tlist(Plan *plan, int varno);

/* A Custom Scan of methods over child that returns child's rows as they
 * are, with child's header (costs, rows, width, parallel safety, params);
 * not parallel-aware, no flags, plan_node_id the child's (to be set). */
extern CustomScan *bloom_runtime_passthrough_scan(Plan *child, const CustomScanMethods *methods);

/* ---- a hash join's probe side read first (runtime_filter_outer_first.c) ---- */

/* Name in EXPLAIN: "Custom Scan (BloomOuterFirst)". */
#define BLOOM_OUTER_FIRST_NAME "BloomOuterFirst"

extern void bloom_runtime_outer_first_register(void);

/* Whether plan is such a node (its join then takes no filter of its own:
 * that one needs the hash table built first). */
extern bool bloom_runtime_is_outer_first(Plan *plan);

/* ---- a build side computed once for a parallel plan
 * (runtime_filter_compute_once.c) ---- */

/* Name in EXPLAIN: "Custom Scan (BloomComputeOnce)". */
#define BLOOM_COMPUTE_ONCE_NAME "BloomComputeOnce"

extern void bloom_runtime_compute_once_register(void);

/*
 * Under each Gather of the plan, a BloomComputeOnce node over the child of
 * each filter's build node under a Hash that is not a Parallel Hash, when
 * that child costs well more than writing and reading its rows and the
 * hash table is built once an execution.
 */
extern void bloom_runtime_share_builds(Plan **link, int *next_plan_node_id);

/* ---- a filter built first (runtime_filter_prebuild.c) ---- */

/* Name in EXPLAIN: "Custom Scan (BloomFilterPrebuild)". */
#define BLOOM_FILTER_PREBUILD_NAME "BloomFilterPrebuild"

extern void bloom_runtime_prebuild_register(void);

/* Whether plan is the node that runs a build before its child's rows (the
 * planner passes through them). */
extern bool bloom_runtime_is_prebuild(Plan *plan);

/* ---- the probe (runtime_filter_probe.c): a heap Seq Scan is replaced by
 * the batched probe scan in runtime mode; an Index, Index Only or Bitmap
 * Heap Scan gets the filter node above it (runtime_filter_wrap.c) ---- */

/*
 * The probe of scan (a heap Seq Scan, or a scan bloom_runtime_wrappable
 * accepts) for the filter of spec with keys (expressions of the table's
 * columns for a Seq Scan; of the scan's output, OUTER_VAR, for the others),
 * to put in the scan's place.  A new node takes the id *next_plan_node_id++.
 */
extern Plan *bloom_runtime_probe_make(Plan *scan, List *keys, const RuntimeFilterSpec *spec,
									  int *next_plan_node_id);

/* Another filter probed by an existing probe. */
extern void bloom_runtime_probe_add(CustomScan *probe, List *keys, const RuntimeFilterSpec *spec);

/* Whether an existing probe may take another filter. */
extern bool bloom_runtime_probe_has_room(CustomScan *probe);

/* Whether plan is a probe: a batched probe scan in runtime mode, or a filter node. */
extern bool bloom_runtime_is_probe(Plan *plan);

/* ---- the filter node over other scans (runtime_filter_wrap.c) ---- */

extern void bloom_runtime_wrap_register(void);

/* Whether plan is a scan the filter node goes over. */
extern bool bloom_runtime_wrappable(Plan *plan);

/* The rows a filter node has read from its scan since its (re)scan; 0 for
 * another node. */
extern double bloom_runtime_wrap_rows_read(PlanState *node);

/* Whether plan is a filter node. */
extern bool bloom_runtime_is_wrap(Plan *plan);

/* ---- index lookups of the exact set (runtime_filter_keyset.c) ---- */

/* The index lookups of spec at scan (a heap Seq Scan or a batched probe
 * scan) with key, if any: spec's lookup_index, lookup_max_keys and
 * lookup_max_rows; it raises spec's keyset_max to lookup_max_keys. */
extern void bloom_runtime_lookup_plan(PlannedStmt *stmt, Plan *scan, Expr *key,
									  RuntimeFilterSpec *spec);

/* Whether expr (of a scan's output, OUTER_VAR) is a key the filter node may
 * compute for every row the scan returns. */
extern bool bloom_runtime_wrap_key_ok(Expr *expr);

/* The cost a row of the conditions with a subplan that move from scan
 * (wrappable) up to its filter node, after the filters; 0 for none. */
extern double bloom_runtime_wrap_moved_cost(Plan *scan);

/* The filter node over scan, probing the filter of spec with keys. */
extern CustomScan *bloom_runtime_wrap_make(Plan *scan, List *keys, const RuntimeFilterSpec *spec,
										   int plan_node_id);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_RUNTIME_FILTER_H */
