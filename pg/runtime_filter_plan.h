/*
 * runtime_filter_plan.h - what the files that place runtime filters in
 * a plan share (runtime_filter.h has the overview):
 *
 *   runtime_filter_plan.c    the planner hook: walks the finished plan,
 *                            decides per hash join, adds the nodes
 *   runtime_filter_trace.c   traces a join key down to the scans where rows
 *                            may be dropped
 *   runtime_filter_prebuild.c filters built first for nested loops and
 *                            merge joins
 *   runtime_filter_outer_first.c
 *                            a hash join's probe side read first, its keys
 *                            filtering the build side
 *   runtime_filter_remote.c  postgres_fdw: the remote filters' candidates,
 *                            the second planning's placeholders
 *   runtime_filter_remote_schema.c
 *                            whether a remote server knows the extension's
 *                            objects by their local names
 */
#ifndef BLOOMFILTER_RUNTIME_FILTER_PLAN_H
#define BLOOMFILTER_RUNTIME_FILTER_PLAN_H

#include "postgres.h"

#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"

BLOOM_HIDDEN_BEGIN

/* A foreign table's key that could take a remote filter (first planning). */
typedef struct RemoteCandidate
{
	Oid			relid;			/* the foreign table, once in the query */
	Query	   *level;			/* the query (or subquery, view) naming it */
	Index		rti;			/* and its range table index there */
	AttrNumber	attno;
	Oid			type;
	int32		typmod;
	Oid			collation;
	int			placeholder;	/* its PARAM_EXTERN number (second planning) */
	int			paramid;		/* the PARAM_EXEC it became, or -1 */
} RemoteCandidate;

typedef struct InjectContext
{
	PlannedStmt *stmt;
	Query	   *parse;			/* the query as written (not planned) */
	bool		rewind;			/* a scrollable or holdable cursor */
	int			next_plan_node_id;
	int			next_filter_id;
	bool		second;			/* the second planning: placeholders in it */
	List	   *candidates;		/* RemoteCandidate *: found, or placed */
	Oid			bloom_type;		/* the extension's objects, when installed */
	Oid			contains_func;
	List	   *passes;			/* FilterPass *: the local filters made */
	List	   *prebuilt;		/* PrebuiltFilter *: the filters built first */
	Bitmapset  *fixed_params;	/* PARAM_EXEC set once an execution: those of
								 * initPlans that read no outer parameter */
	bool		reconsider;		/* the pass over joins that got none */
} InjectContext;

/* A local filter's estimated fraction of its probe side's rows passing. */
typedef struct FilterPass
{
	int			paramid;
	double		pass;
} FilterPass;

/* A filter built first, and the node that builds it. */
typedef struct PrebuiltFilter
{
	int			paramid;
	double		pass;			/* estimated share of probe rows passing */
	CustomScan *node;			/* its BloomFilterPrebuild node */
	bool		has_params;		/* built again when a parameter changes */
	Plan	   *join;			/* the join it was made for */
} PrebuiltFilter;

/* One way down from a join to a scan. */
typedef struct Target
{
	Plan	  **link;			/* the pointer to the scan, in its parent */
	int			key;			/* which key of the join */
	Expr	   *expr;			/* that key, in the scan's terms */
	Oid			hashfunc;		/* its hash function, when not the join's
								 * probe side's (predicate transfer) */
	List	   *gathers;		/* Gather and Gather Merge nodes on the way */
} Target;


/* ---- runtime_filter_plan.c ---- */

/* Install the planner hook (bloom_runtime_filter_init, at _PG_init). */
extern void bloom_runtime_plan_init(void);

/* ---- runtime_filter_trace.c ---- */

/*
 * The ways down from hash join hj's key number key to the scans where a
 * row whose key the join's build side lacks may be dropped (Target *): a
 * heap table's Seq Scan, an Index, Index Only or Bitmap Heap Scan, a CTE's
 * or a function's scan (its output's terms, for the filter node), a runtime
 * probe, a foreign scan.
 */
extern List *bloom_runtime_trace(InjectContext *cx, HashJoin *hj, int key, bool may_rescan);

/* The same from any key expr of the output of *link, equal by operator op
 * under collation (a join that is not a hash join); key numbers the
 * Targets. */
extern List *bloom_runtime_trace_key(InjectContext *cx, Plan **link, Expr *expr, int key, Oid op,
									 Oid collation, bool may_rescan);

/* ---- runtime_filter_plan.c ---- */

/* The plans of plan's list of children (an Append's, a MergeAppend's, a
 * custom scan's, a BitmapAnd's or BitmapOr's), the list itself; NIL for
 * another node. */
extern List *bloom_runtime_child_plans(Plan *plan);

/* Whether a node of the subtree at plan divides its rows among the
 * processes that run it (a parallel-aware node not under a Gather of the
 * subtree: below one, the Gather has them all). */
extern bool bloom_runtime_divides_rows(Plan *plan);

/* A new PARAM_EXEC slot of the statement, of type type. */
extern int	bloom_runtime_new_param(InjectContext *cx, Oid type);

/* Send filter paramid to the workers of each Gather in gathers. */
extern void bloom_runtime_send_to_workers(List *gathers, int paramid);

/*
 * Probe the local filter spec (hashfuncs and integer_keys already this
 * scan's) at the scan *link with keys in its terms: the range and exact set
 * where has_range and the scan reads the key as an integer, its index
 * lookups and partition bounds, and its parameters sent to the workers of
 * gathers.
 */
extern void bloom_runtime_place_probe(InjectContext *cx, Plan **link, List *keys,
									  RuntimeFilterSpec *spec, bool has_range, List *gathers);

/* ---- runtime_filter_prebuild.c ---- */

/*
 * A filter built first, from the selective side of the nested loop or merge
 * join at *link (which builds no hash table), applied at the scans of the
 * other.
 */
extern void bloom_runtime_prebuild_consider(InjectContext *cx, Plan **link, bool may_rescan);

/* Whether a target's scan can probe a filter (a heap Seq Scan, a scan the
 * filter node can wrap, a probe with room). */
extern bool bloom_runtime_probe_target(Target *target);

/* How many times the plan at *link runs for one run of root (0 when it is
 * not below root). */
extern double bloom_runtime_runs_below(Plan *root, Plan **link);

/* A new filter of one key (*spec) probed at targets, its probe side hashed
 * by probe_func, its build side by build_func; *spec is then the build's. */
extern void bloom_runtime_place_filter(InjectContext *cx, RuntimeFilterSpec *spec, List *targets,
									   Oid collation, double est_keys, Oid probe_func,
									   Oid build_func);

/* ---- runtime_filter_outer_first.c ---- */

/* A filter of hash join hj's probe side, read first, for the scans of its
 * build side (hj got no filter of its own). */
extern void bloom_runtime_outer_first_consider(InjectContext *cx, HashJoin *hj, bool may_rescan);

/* ---- runtime_filter_remote.c ---- */

/* The extension's bloom type and bloom_contains(bloom, anyelement), if installed. */
extern void bloom_runtime_lookup_extension(InjectContext *cx);

/* Whether the canonical hash follows the equality of op under collation,
 * on both sides. */
extern bool bloom_runtime_canonical_equality(Oid op, Oid collation);

/* Whether the query reads, at any level, a foreign table that could take a
 * remote filter (then it is worth keeping it for a second planning). */
extern bool bloom_runtime_reads_remote(Query *parse);

/* First planning: note target's foreign table and key as a candidate. */
extern void bloom_runtime_note_remote(InjectContext *cx, HashJoin *hj, Target *target,
									  bool may_rescan);

/* Second planning: the candidate whose placeholder target's foreign scan
 * carries for its key, or NULL. */
extern RemoteCandidate *bloom_runtime_placed_remote(InjectContext *cx, HashJoin *hj,
													 Target *target);

/* Add each candidate's placeholder condition to the query as written. */
extern void bloom_runtime_add_placeholders(InjectContext *cx);

/* Make each placeholder of the second plan its filter's parameter, or NULL;
 * false if one is left anywhere else (that plan is then not used). */
extern bool bloom_runtime_resolve_placeholders(InjectContext *cx, PlannedStmt *stmt);

/* ---- runtime_filter_remote_schema.c ---- */

/* Whether the server of foreign table relid knows the extension's objects by
 * their local names (postgres_fdw sends them so), and (same_bytes) whether
 * text reaches the local server as the remote stores it, asked once through
 * a scan of its column attno that reads no row. */
extern bool bloom_runtime_remote_names_match(InjectContext *cx, Oid relid, AttrNumber attno,
											 bool *same_bytes);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_RUNTIME_FILTER_PLAN_H */
