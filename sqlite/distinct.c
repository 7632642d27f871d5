/*
 * distinct.c - the distinct hashes of a bloom_agg(x) group, collected
 * cheaply, for a filter sized by the rules of docs/FORMAT.md ("The
 * self-sizing builder"): the core's builder decides the small groups, and
 * the large ones follow its documented rule for n above 65,536 distinct
 * values (the formula's size, one build).
 *
 * Feeding the builder row by row costs a sort of everything it is given:
 * 145 ns per row for 10^7 distinct values, about five times a sum() of the
 * column.  Here a group goes through two stages:
 *
 *  - up to SET_MAX distinct hashes, an open-addressing set: a repeat costs
 *    one probe of a table that stays in cache.  At the end its hashes go to
 *    the builder as one serialized state (docs/FORMAT.md).
 *  - past that, 1024 buckets by the top 10 bits of the hash: a row is an
 *    append to one of them, and a full bucket drops its repeats through a
 *    hash table that fits in cache, growing only when that frees less than
 *    half.  At the end the buckets give the exact distinct count, then
 *    their hashes go into the filter.
 */
#include "distinct.h"

#include <string.h>

enum {
    SET_INITIAL_SLOTS = 16,
    SET_MAX = BF_DISTINCT_SET_MAX,
    BUCKET_BITS = 10,
    NBUCKETS = 1 << BUCKET_BITS,
    BUCKET_INITIAL = 64,
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
    uint64_t *grown = alloc_bytes((uint64_t)n * sizeof *grown);
    if (grown == NULL)
        return SQLITE_NOMEM;
    sqlite3_free(d->scratch);
    d->scratch = grown;
    d->scratch_cap = n;
    return SQLITE_OK;
}

/* Drop the repeats of b, in place, keeping first occurrences. */
static int bucket_dedup(bf_distinct *d, struct bf_bucket *b)
{
    size_t n = b->len;
    if (n < 2)
        return SQLITE_OK;
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    if (scratch_reserve(d, slots) != SQLITE_OK)
        return SQLITE_NOMEM;
    uint64_t *table = d->scratch, mask = slots - 1;
    memset(table, 0, slots * sizeof *table);
    size_t u = 0;
    int zero = 0; /* 0 marks an empty slot, so it is tracked apart */
    for (size_t i = 0; i < n; i++) {
        uint64_t h = b->data[i];
        if (h == 0) {
            if (!zero)
                b->data[u++] = 0;
            zero = 1;
            continue;
        }
        uint64_t j = h & mask;
        while (table[j] != 0 && table[j] != h)
            j = (j + 1) & mask;
        if (table[j] == 0) {
            table[j] = h;
            b->data[u++] = h;
        }
    }
    b->len = u;
    return SQLITE_OK;
}

static int bucket_add(bf_distinct *d, uint64_t hash)
{
    struct bf_bucket *b = &d->buckets[hash >> (64 - BUCKET_BITS)];
    if (b->len == b->cap) {
        if (bucket_dedup(d, b) != SQLITE_OK)
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

int bf_distinct_spilled(const bf_distinct *d)
{
    return d->buckets != NULL;
}

int bf_distinct_count(bf_distinct *d, uint64_t *n)
{
    *n = 0;
    for (int i = 0; i < NBUCKETS; i++) {
        if (bucket_dedup(d, &d->buckets[i]) != SQLITE_OK)
            return SQLITE_NOMEM;
        *n += d->buckets[i].len;
    }
    sqlite3_free(d->scratch);
    d->scratch = NULL;
    d->scratch_cap = 0;
    return SQLITE_OK;
}

void bf_distinct_add_all(const bf_distinct *d, bloom_filter *f)
{
    for (int i = 0; i < NBUCKETS; i++)
        bloom_add_hashes(f, d->buckets[i].data, d->buckets[i].len);
}

bloom_status bf_distinct_to_builder(bf_distinct *d, int layout, double fpr, uint64_t seed,
                                    bloom_builder **out, bloom_error *err)
{
    uint64_t n = d->count + (d->has_zero ? 1 : 0);
    uint8_t *state = alloc_bytes(STATE_HEADER + 8 * n);
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
    if (d->has_zero) {
        put_le64(p, 0);
        p += 8;
    }
    for (uint64_t i = 0; d->set != NULL && i <= d->mask; i++)
        if (d->set[i] != 0) {
            put_le64(p, d->set[i]);
            p += 8;
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
