/*
 * runtime_filter_prune.h - whole scans skipped by the range tier
 * (runtime_filter.h): a probe at the scan of a partition, an inheritance
 * child or any table whose constraints bound the key returns no row, and
 * does not start its scan, when the build keys' range misses those bounds.
 * Shared by the planner (runtime_filter_plan.c) and both probe nodes.
 */
#ifndef BLOOMFILTER_RUNTIME_FILTER_PRUNE_H
#define BLOOMFILTER_RUNTIME_FILTER_PRUNE_H

#include "postgres.h"

#include "commands/explain.h"
#include "nodes/plannodes.h"
#include "runtime_filter.h"
#include "runtime_filter_probe.h"

BLOOM_HIDDEN_BEGIN

/*
 * The table and column that key (a probe's key, in the terms of scan, as
 * below) reads, when it is a plain column of a table the scan reads: what
 * both the bounds and index lookups (runtime_filter_keyset.c) start from.
 */
extern bool bloom_runtime_key_column(PlannedStmt *stmt, Plan *scan, Expr *key, Oid *relid,
									 AttrNumber *attno);

/*
 * The bounds every non-NULL value of key (a probe's key, in the terms of
 * scan: a Seq Scan, a scan the filter node goes over, or a probe of one of
 * those) lies within, as the range tier reads it, when key is a plain
 * column of an integer type or date and the relation's partition
 * constraint or validated CHECK constraints imply some.  Empty bounds
 * (min > max): the relation holds no such value.
 */
extern bool bloom_runtime_scan_bounds(PlannedStmt *stmt, Plan *scan, Expr *key,
									  RuntimeKeyRange *bounds);

/* A probe node's scans skipped since it started (this process's). */
typedef struct RuntimeSkip
{
	bool		checked;		/* the filters looked at since the (re)scan */
	bool		skipped;		/* this (re)scan returns nothing */
	uint64		count;
	/* the last skip's reason */
	int			filter_id;
	RuntimeKeyRange range;
	RuntimeKeyRange bounds;
} RuntimeSkip;

/* Whether a filter read (its range present) misses its scan's bounds: then
 * the scan returns nothing until a rescan, and skip says why. */
extern bool bloom_runtime_skip_check(RuntimeSkip *skip, RuntimeProbe **filters, int nfilters);

/* Decide again at the next row (a rescan: the filters may be built again). */
static inline void
bloom_runtime_skip_reset(RuntimeSkip *skip)
{
	skip->checked = false;
	skip->skipped = false;
}

/* EXPLAIN: the filters' bounds (VERBOSE), the scans skipped (ANALYZE). */
extern void bloom_runtime_explain_skip(const RuntimeSkip *skip, RuntimeProbe **filters,
									   int nfilters, ExplainState *es);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_RUNTIME_FILTER_PRUNE_H */
