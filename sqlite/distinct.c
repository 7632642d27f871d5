/*
 * distinct.c - the distinct hashes of a bloom_agg(x) group, collected
 * cheaply, then handed to the core's builder as one serialized state
 * (docs/FORMAT.md, "The self-sizing builder, and its state"), so the
 * builder's sizing rules decide the filter and the bytes stay the core's.
 *
 * Feeding the builder row by row costs a sort of everything it is given:
 * 145 ns per row for 10^7 distinct values, about five times a sum() of the
 * column.  Here a group goes through two stages:
 *
 *  - up to SET_MAX distinct hashes, an open-addressing set: a repeat costs
 *    one probe of a table that stays in cache;
 *  - past that, 1024 buckets by the top 10 bits of the hash: a row is an
 *    append to one of them, and a full bucket is sorted and deduplicated in
 *    cache (LSD radix), growing only when that frees less than half.  At
 *    the end the buckets, each sorted, are already in ascending order: the
 *    state is sorted, so the builder has nothing left to sort.
 */
#include "distinct.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum {
    SET_INITIAL_SLOTS = 16,
    SET_MAX = 1 << 18,
    BUCKET_BITS = 10,
    NBUCKETS = 1 << BUCKET_BITS,
    BUCKET_INITIAL = 64,
    RADIX_PASSES = 7, /* 8-bit digits over bits 0..55: the top 10 are the bucket's */
    STATE_HEADER = 32
};

struct bf_bucket {
    uint64_t *data;
    size_t len, cap;
};

static void *alloc_bytes(uint64_t size)
{
    return sqlite3_malloc64(size);
}

/* ---- stage 1: the set ---- */

static void set_put(uint64_t *set, uint64_t mask, uint64_t hash)
{
    uint64_t i = hash & mask; /* hashes are uniform: their low bits are a slot */
    while (set[i] != 0 && set[i] != hash)
        i = (i + 1) & mask;
    set[i] = hash;
}

static int set_grow(bf_distinct *d)
{
    uint64_t slots = d->set ? (d->mask + 1) * 2 : SET_INITIAL_SLOTS;
    uint64_t *grown = alloc_bytes(slots * sizeof *grown);
    if (grown == NULL)
        return SQLITE_NOMEM;
    memset(grown, 0, slots * sizeof *grown);
    if (d->set != NULL)
        for (uint64_t i = 0; i <= d->mask; i++)
            if (d->set[i] != 0)
                set_put(grown, slots - 1, d->set[i]);
    sqlite3_free(d->set);
    d->set = grown;
    d->mask = slots - 1;
    return SQLITE_OK;
}

/* ---- stage 2: the buckets ---- */

static int scratch_reserve(bf_distinct *d, size_t n)
{
    if (n <= d->scratch_cap)
        return SQLITE_OK;
    size_t cap = d->scratch_cap ? d->scratch_cap : BUCKET_INITIAL;
    while (cap < n)
        cap *= 2;
    /* The radix histograms live after the keys, not on a host thread's
     * stack, which may be small. */
    uint64_t *grown = alloc_bytes((uint64_t)cap * sizeof(uint64_t) +
                                  RADIX_PASSES * 256 * sizeof(size_t));
    if (grown == NULL)
        return SQLITE_NOMEM;
    sqlite3_free(d->scratch);
    d->scratch = grown;
    d->scratch_cap = cap;
    return SQLITE_OK;
}

static void insertion_sort(uint64_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Sort b ascending and drop repeats. */
static int bucket_compact(bf_distinct *d, struct bf_bucket *b)
{
    size_t n = b->len;
    if (n < 2)
        return SQLITE_OK;
    if (n <= 32) {
        insertion_sort(b->data, n);
    } else {
        if (scratch_reserve(d, n) != SQLITE_OK)
            return SQLITE_NOMEM;
        size_t *counts = (size_t *)(d->scratch + d->scratch_cap);
        memset(counts, 0, RADIX_PASSES * 256 * sizeof *counts);
        for (size_t i = 0; i < n; i++)
            for (int p = 0; p < RADIX_PASSES; p++)
                counts[p * 256 + ((b->data[i] >> (8 * p)) & 0xff)]++;
        uint64_t *src = b->data, *dst = d->scratch;
        for (int p = 0; p < RADIX_PASSES; p++) {
            size_t *c = counts + p * 256;
            if (c[(src[0] >> (8 * p)) & 0xff] == n)
                continue; /* every key has this digit */
            size_t sum = 0;
            for (int v = 0; v < 256; v++) {
                size_t here = c[v];
                c[v] = sum;
                sum += here;
            }
            for (size_t i = 0; i < n; i++)
                dst[c[(src[i] >> (8 * p)) & 0xff]++] = src[i];
            uint64_t *swap = src;
            src = dst;
            dst = swap;
        }
        if (src != b->data)
            memcpy(b->data, src, n * sizeof *src);
    }
    size_t u = 1;
    for (size_t i = 1; i < n; i++)
        if (b->data[i] != b->data[u - 1])
            b->data[u++] = b->data[i];
    b->len = u;
    return SQLITE_OK;
}

static int bucket_add(bf_distinct *d, uint64_t hash)
{
    struct bf_bucket *b = &d->buckets[hash >> (64 - BUCKET_BITS)];
    if (b->len == b->cap) {
        if (bucket_compact(d, b) != SQLITE_OK)
            return SQLITE_NOMEM;
        if (b->cap == 0 || b->len * 2 > b->cap) {
            size_t cap = b->cap ? b->cap * 2 : BUCKET_INITIAL;
            uint64_t *grown = sqlite3_realloc64(b->data, (uint64_t)cap * sizeof *grown);
            if (grown == NULL)
                return SQLITE_NOMEM;
            b->data = grown;
            b->cap = cap;
        }
    }
    b->data[b->len++] = hash;
    return SQLITE_OK;
}

/* From the set to the buckets, once the set is too large to stay cached. */
static int spill(bf_distinct *d)
{
    d->buckets = alloc_bytes(NBUCKETS * sizeof *d->buckets);
    if (d->buckets == NULL)
        return SQLITE_NOMEM;
    memset(d->buckets, 0, NBUCKETS * sizeof *d->buckets);
    int rc = d->has_zero ? bucket_add(d, 0) : SQLITE_OK;
    for (uint64_t i = 0; rc == SQLITE_OK && i <= d->mask; i++)
        if (d->set[i] != 0)
            rc = bucket_add(d, d->set[i]);
    sqlite3_free(d->set);
    d->set = NULL;
    return rc;
}

int bf_distinct_add(bf_distinct *d, uint64_t hash)
{
    if (d->buckets != NULL)
        return bucket_add(d, hash);
    if (hash == 0) { /* 0 marks an empty slot of the set */
        d->has_zero = 1;
        return SQLITE_OK;
    }
    if (d->set == NULL && set_grow(d) != SQLITE_OK)
        return SQLITE_NOMEM;
    uint64_t i = hash & d->mask;
    for (;;) {
        if (d->set[i] == hash)
            return SQLITE_OK;
        if (d->set[i] == 0)
            break;
        i = (i + 1) & d->mask;
    }
    d->set[i] = hash;
    d->count++;
    if (d->count >= SET_MAX)
        return spill(d);
    if (d->count * 2 > d->mask + 1) /* load at most 1/2: probes stay short */
        return set_grow(d);
    return SQLITE_OK;
}

int bf_distinct_empty(const bf_distinct *d)
{
    return d->count == 0 && !d->has_zero && d->buckets == NULL;
}

static void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

bloom_status bf_distinct_to_builder(bf_distinct *d, int layout, double fpr, uint64_t seed,
                                    bloom_builder **out, bloom_error *err)
{
    uint64_t n = 0;
    int rc = SQLITE_OK;
    if (d->buckets != NULL) {
        for (int i = 0; rc == SQLITE_OK && i < NBUCKETS; i++) {
            rc = bucket_compact(d, &d->buckets[i]);
            n += d->buckets[i].len;
        }
    } else {
        n = d->count + (d->has_zero ? 1 : 0);
    }
    if (rc == SQLITE_OK && n > (SIZE_MAX - STATE_HEADER) / 8) {
        bf_distinct_free(d);
        err->status = BLOOM_E_LIMIT;
        snprintf(err->message, sizeof err->message,
                 "%llu distinct values do not fit in memory here", (unsigned long long)n);
        return BLOOM_E_LIMIT;
    }
    uint8_t *state = rc == SQLITE_OK ? alloc_bytes(STATE_HEADER + 8 * n) : NULL;
    if (state == NULL) {
        bf_distinct_free(d);
        err->status = BLOOM_E_NOMEM;
        return BLOOM_E_NOMEM;
    }
    uint64_t fpr_bits;
    memcpy(&fpr_bits, &fpr, sizeof fpr_bits);
    memcpy(state, "BLMB", 4);
    state[4] = BLOOM_FORMAT_VERSION;
    state[5] = (uint8_t)layout;
    state[6] = BLOOM_HASH_XXH64_CANONICAL;
    state[7] = 0;
    put_le64(state + 8, seed);
    put_le64(state + 16, fpr_bits);
    put_le64(state + 24, n);
    uint8_t *p = state + STATE_HEADER;
    if (d->buckets != NULL) {
        /* Bucket i holds the hashes whose top bits are i, each bucket sorted:
         * in bucket order the whole is ascending. */
        for (int i = 0; i < NBUCKETS; i++) {
            for (size_t j = 0; j < d->buckets[i].len; j++, p += 8)
                put_le64(p, d->buckets[i].data[j]);
            sqlite3_free(d->buckets[i].data);
            d->buckets[i].data = NULL;
        }
    } else {
        if (d->has_zero) {
            put_le64(p, 0);
            p += 8;
        }
        for (uint64_t i = 0; d->set != NULL && i <= d->mask; i++)
            if (d->set[i] != 0) {
                put_le64(p, d->set[i]);
                p += 8;
            }
    }
    bf_distinct_free(d);
    bloom_status st = bloom_builder_deserialize(&bf_sqlite_allocator, state,
                                                (size_t)(STATE_HEADER + 8 * n), out, err);
    sqlite3_free(state);
    return st;
}

void bf_distinct_free(bf_distinct *d)
{
    if (d->buckets != NULL)
        for (int i = 0; i < NBUCKETS; i++)
            sqlite3_free(d->buckets[i].data);
    sqlite3_free(d->buckets);
    sqlite3_free(d->set);
    sqlite3_free(d->scratch);
    memset(d, 0, sizeof *d);
}
