/*
 * distinct.h - the distinct hashes of one bloom_agg(x) group (distinct.c).
 */
#ifndef BLOOMFILTER_SQLITE_DISTINCT_H
#define BLOOMFILTER_SQLITE_DISTINCT_H

#include "common.h"

#include <stddef.h>

/* Distinct hashes kept in the set before spilling to buckets. */
#define BF_DISTINCT_SET_MAX (1 << 18)

/* All zero is an empty collection, so it can live in zeroed memory such as
 * a fresh sqlite3_aggregate_context. */
typedef struct bf_distinct {
    uint64_t *set;  /* open addressing; 0 marks an empty slot */
    uint64_t mask;  /* set slots - 1 */
    uint64_t count; /* non-zero hashes in the set */
    int has_zero;   /* hash 0 was seen while in the set */
    struct bf_bucket *buckets; /* non-NULL once spilled past the set */
    uint64_t *scratch;         /* a bucket's deduplication table */
    size_t scratch_cap;
} bf_distinct;

/* SQLITE_OK or SQLITE_NOMEM. */
int bf_distinct_add(bf_distinct *d, uint64_t hash);
int bf_distinct_empty(const bf_distinct *d);
/* Past the set: more than BF_DISTINCT_SET_MAX distinct hashes. */
int bf_distinct_spilled(const bf_distinct *d);
/* Of a spilled collection: the exact number of distinct hashes (SQLITE_OK
 * or SQLITE_NOMEM), then all of them added to f. */
int bf_distinct_count(bf_distinct *d, uint64_t *n);
void bf_distinct_add_all(const bf_distinct *d, bloom_filter *f);
/* Of a collection that did not spill: a builder holding exactly the
 * distinct hashes.  Frees d's memory (d is empty afterwards), whatever the
 * outcome. */
bloom_status bf_distinct_to_builder(bf_distinct *d, int layout, double fpr, uint64_t seed,
                                    bloom_builder **out, bloom_error *err);
void bf_distinct_free(bf_distinct *d);

#endif
