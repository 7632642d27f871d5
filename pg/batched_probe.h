/*
 * batched_probe.h - the batched probe scan: a scan of a heap table that
 * keeps the rows whose key a Bloom filter may contain, probing a batch of
 * keys at a time so the memory misses of a large filter overlap.
 *
 * Two halves, so that a filter the planner injects itself reuses the
 * executor:
 *
 *   batched_probe_scan.c  planning: finds bloom_contains(filter, key) among
 *                         a table's quals and offers the path (the hook)
 *   batched_probe_exec.c  execution: any CustomScan made by
 *                         bloom_batched_probe_make_scan, whoever planned it,
 *                         and in runtime mode the runtime filters of the
 *                         hash joins above (runtime_filter.h)
 */
#ifndef BLOOMFILTER_BATCHED_PROBE_H
#define BLOOMFILTER_BATCHED_PROBE_H

#include "postgres.h"

#include "nodes/plannodes.h"

BLOOM_HIDDEN_BEGIN

/* Name in EXPLAIN: "Custom Scan (BloomBatchedProbe)". */
#define BLOOM_BATCHED_PROBE_NAME "BloomBatchedProbe"

/* Rows fetched, hashed and probed together. */
#define BLOOM_PROBE_BATCH 256

/* ---- settings (batched_probe_scan.c) ---- */
extern bool bloomfilter_enable_batched_probe;
/* Filters of at least this many kB are probed with prefetching. */
extern int	bloomfilter_batched_probe_min_size;

/* Register the settings, the planner hook and the executor (from _PG_init). */
extern void bloom_batched_probe_init(void);

/* ---- executor (batched_probe_exec.c) ---- */

/* Register the plan node's methods by name (parallel workers look them up). */
extern void bloom_batched_probe_register(void);

/*
 * A scan of range table entry scanrelid (a heap table) returning tlist for
 * the rows where bloom_contains(filter, key) is true and every clause of
 * quals (plain expressions) holds.  filter must not reference the scanned
 * table and must give the same value for the whole scan (it is evaluated
 * once per scan or rescan); key is evaluated per row.  A plan marked
 * parallel_aware shares one parallel heap scan among the workers.
 */
extern CustomScan *bloom_batched_probe_make_scan(Index scanrelid, List *tlist, List *quals,
												 Expr *filter, Expr *key);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_BATCHED_PROBE_H */
