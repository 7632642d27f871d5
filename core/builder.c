/*
 * builder.c - the self-sizing builder: accept hashes without knowing how
 * many distinct values will come, then size the filter for the count seen.
 *
 * It keeps every distinct 64-bit hash, in two tiers that both stay in cache
 * per row:
 * - a front hash set (open addressing, up to FRONT_MAX_SLOTS: 32 KiB, in L1
 *   beside a table scan) absorbs repeats; when half full it is spilled into
 *   the runs, and once repeats are rare it steps aside for good;
 * - sorted runs: a run is compacted (radix-sorted, deduplicated, merged
 *   into its sorted prefix) when full and grows only when that frees less
 *   than half; past SPLIT_AT hashes it is split into 256 runs by the top
 *   byte of the hash, so each compaction stays in cache.
 * The final filter is a function of the set of hashes alone, so partial
 * builders merged in any order give the serial result bit for bit.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

typedef struct run {
    uint64_t *hashes;
    size_t count;    /* used slots */
    size_t sorted;   /* hashes[0, sorted) is sorted and unique */
    size_t capacity; /* allocated slots */
} run;

enum {
    FRONT_MIN_SLOTS = 8,
    FRONT_MAX_SLOTS = 1 << 12,   /* 32 KiB: stays in L1 beside a table scan */
    SPLIT_AT = 1 << 20,          /* distinct hashes in one run (8 MiB) before splitting */
    NRUNS = 256,
    /* Up to this many distinct values, candidate sizes are built and their
     * actual false-positive rate checked; above it, the rate is within a
     * percent of the model's and one build suffices. */
    VERIFY_LIMIT = 1 << 16,
    STATE_HEADER_SIZE = 32
};

struct bloom_builder {
    bloom_allocator alloc;
    int layout;
    double fpr;
    uint64_t seed;
    uint64_t *front; /* 0 marks a free slot; the hash 0 is front_zero */
    size_t front_slots, front_used;
    bool front_zero;
    bool bypass;   /* repeats are rare: hashes go straight to the runs */
    uint64_t front_hits; /* repeats the front absorbed since its last spill */
    run *runs;     /* NULL, then 1 run, then NRUNS runs by top byte */
    unsigned nruns;
    /* compaction scratch, kept: fresh memory costs a page fault per 4 KiB
     * (10 us each on the virtual machines measured) */
    void *scratch;
    size_t scratch_size;
    bool sized; /* nbits/nhashes below are valid for the current set */
    uint64_t nbits;
    unsigned nhashes;
};

static const uint8_t state_magic[4] = {'B', 'L', 'M', 'B'};

static void *allocate(const bloom_builder *b, size_t size)
{
    return b->alloc.alloc(b->alloc.ctx, size);
}

static void release(const bloom_builder *b, void *ptr)
{
    if (ptr)
        b->alloc.release(b->alloc.ctx, ptr);
}

static bloom_status check_settings(int layout, double fpr, bloom_error *err)
{
    if (bloom_layout_name(layout) == NULL)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "unknown layout %d", layout);
    if (!(fpr > 0 && fpr < 1))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "false-positive rate %g is outside the open interval (0, 1)", fpr);
    return BLOOM_OK;
}

bloom_status bloom_builder_create(const bloom_allocator *alloc, int layout, double fpr,
                                  uint64_t seed, bloom_builder **out, bloom_error *err)
{
    bloom_status st = check_settings(layout, fpr, err);
    if (st != BLOOM_OK)
        return st;
    bloom_builder *b = alloc->alloc(alloc->ctx, sizeof *b);
    if (b == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for a builder");
    memset(b, 0, sizeof *b);
    b->alloc = *alloc;
    b->layout = layout;
    b->fpr = fpr;
    b->seed = seed;
    *out = b;
    return bloom_ok(err);
}

static void free_runs(bloom_builder *b)
{
    for (unsigned i = 0; b->runs && i < b->nruns; i++)
        release(b, b->runs[i].hashes);
    release(b, b->runs);
    b->runs = NULL;
    b->nruns = 0;
}

void bloom_builder_destroy(bloom_builder *b)
{
    if (b == NULL)
        return;
    release(b, b->scratch);
    release(b, b->front);
    free_runs(b);
    release(b, b);
}

int bloom_builder_layout(const bloom_builder *b)
{
    return b->layout;
}

double bloom_builder_fpr(const bloom_builder *b)
{
    return b->fpr;
}

uint64_t bloom_builder_seed(const bloom_builder *b)
{
    return b->seed;
}

/* ---- runs: sorted, deduplicated arrays of hashes ---- */

static bloom_status run_reserve(bloom_builder *b, run *r, size_t slots, bloom_error *err)
{
    if (slots <= r->capacity)
        return BLOOM_OK;
    size_t capacity = r->capacity ? r->capacity : FRONT_MIN_SLOTS;
    while (capacity < slots) {
        if (capacity > SIZE_MAX / 16)
            return bloom_fail(err, BLOOM_E_LIMIT, "too many distinct values for one builder");
        capacity *= 2;
    }
    uint64_t *grown = allocate(b, capacity * sizeof *grown);
    if (grown == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu builder hashes", capacity);
    if (r->count)
        memcpy(grown, r->hashes, r->count * sizeof *grown);
    release(b, r->hashes);
    r->hashes = grown;
    r->capacity = capacity;
    return BLOOM_OK;
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

/* LSD radix digits: 8 bits while the histogram would dominate, 11 bits
 * (6 passes) for large arrays. */
static unsigned radix_digit_bits(size_t n)
{
    return n < (1u << 16) ? 8 : 11;
}

/* Histogram slots radix_sort needs for n keys (they live in the caller's
 * scratch, not on the stack: a host thread's stack may be small). */
static size_t radix_counts(size_t n)
{
    unsigned bits = radix_digit_bits(n);
    return (size_t)((64 + bits - 1) / bits) << bits;
}

/* LSD radix sort of a[0, n) using tmp[0, n); returns where the result is.
 * Passes in which every key has the same digit (the top byte, within a
 * split run) are skipped. */
static uint64_t *radix_sort(uint64_t *a, uint64_t *tmp, size_t *counts, size_t n)
{
    const unsigned digit_bits = radix_digit_bits(n);
    const unsigned buckets = 1u << digit_bits, passes = (64 + digit_bits - 1) / digit_bits;
    memset(counts, 0, sizeof(size_t) * passes * buckets);
    for (size_t i = 0; i < n; i++)
        for (unsigned p = 0; p < passes; p++)
            counts[p * buckets + ((a[i] >> (p * digit_bits)) & (buckets - 1))]++;
    uint64_t *src = a, *dst = tmp;
    for (unsigned p = 0; p < passes; p++) {
        size_t *c = counts + p * buckets;
        if (c[(src[0] >> (p * digit_bits)) & (buckets - 1)] == n)
            continue;
        size_t sum = 0;
        for (unsigned d = 0; d < buckets; d++) {
            size_t here = c[d];
            c[d] = sum;
            sum += here;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> (p * digit_bits)) & (buckets - 1)]++] = src[i];
        uint64_t *swap = src;
        src = dst;
        dst = swap;
    }
    return src;
}

static size_t unique_into(const uint64_t *sorted, size_t n, uint64_t *out)
{
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || out[u - 1] != sorted[i])
            out[u++] = sorted[i];
    return u;
}

/* Sort and deduplicate the unsorted tail, then merge it into the sorted
 * prefix from the back, dropping values present in both. */
static bloom_status run_compact(bloom_builder *b, run *r, bloom_error *err)
{
    size_t prefix = r->sorted, tail = r->count - r->sorted;
    if (tail == 0)
        return BLOOM_OK;
    bool small = tail <= 64;
    size_t need = tail * sizeof(uint64_t) + (small ? 0 : radix_counts(tail) * sizeof(size_t));
    if (need > b->scratch_size) {
        size_t size = need > 2 * b->scratch_size ? need : 2 * b->scratch_size;
        void *grown = allocate(b, size);
        if (grown == NULL)
            return bloom_fail(err, BLOOM_E_NOMEM, "out of memory compacting %zu builder hashes", tail);
        release(b, b->scratch);
        b->scratch = grown;
        b->scratch_size = size;
    }
    uint64_t *tmp = b->scratch;
    size_t *counts = (size_t *)(tmp + tail);
    uint64_t *t = r->hashes + prefix;
    uint64_t *sorted_tail;
    if (small) {
        insertion_sort(t, tail);
        sorted_tail = t;
    } else {
        sorted_tail = radix_sort(t, tmp, counts, tail);
    }
    size_t u = unique_into(sorted_tail, tail, tmp); /* in place when sorted_tail == tmp */

    uint64_t *h = r->hashes;
    size_t w = prefix + u;
    ptrdiff_t i = (ptrdiff_t)prefix - 1, j = (ptrdiff_t)u - 1;
    while (j >= 0) {
        if (i >= 0 && h[i] >= tmp[j]) {
            if (h[i] == tmp[j])
                j--;
            h[--w] = h[i--];
        } else {
            h[--w] = tmp[j--];
        }
    }
    size_t kept_prefix = (size_t)(i + 1), merged = prefix + u - w;
    if (w != kept_prefix)
        memmove(h + kept_prefix, h + w, merged * sizeof *h);
    r->count = r->sorted = kept_prefix + merged;
    return BLOOM_OK;
}

/* One sorted run becomes NRUNS runs by top byte: each keeps its order. */
static bloom_status split_runs(bloom_builder *b, bloom_error *err)
{
    run *one = &b->runs[0];
    run *many = allocate(b, NRUNS * sizeof *many);
    if (many == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory splitting builder runs");
    memset(many, 0, NRUNS * sizeof *many);
    size_t counts[NRUNS] = {0};
    for (size_t i = 0; i < one->count; i++)
        counts[one->hashes[i] >> 56]++;
    bloom_status st = BLOOM_OK;
    for (unsigned r = 0; r < NRUNS && st == BLOOM_OK; r++)
        st = run_reserve(b, &many[r], 2 * counts[r] + FRONT_MIN_SLOTS, err);
    if (st != BLOOM_OK) {
        for (unsigned r = 0; r < NRUNS; r++)
            release(b, many[r].hashes);
        release(b, many);
        return st;
    }
    for (size_t i = 0; i < one->count; i++) {
        run *r = &many[one->hashes[i] >> 56];
        r->hashes[r->count++] = one->hashes[i];
    }
    for (unsigned r = 0; r < NRUNS; r++)
        many[r].sorted = many[r].count;
    free_runs(b);
    b->runs = many;
    b->nruns = NRUNS;
    return BLOOM_OK;
}

static bloom_status store(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    if (b->runs == NULL) {
        b->runs = allocate(b, sizeof *b->runs);
        if (b->runs == NULL)
            return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for builder runs");
        memset(b->runs, 0, sizeof *b->runs);
        b->nruns = 1;
    }
    run *r = b->nruns == 1 ? &b->runs[0] : &b->runs[hash >> 56];
    if (r->count == r->capacity) {
        bloom_status st = run_compact(b, r, err);
        if (st == BLOOM_OK && b->nruns == 1 && r->count >= SPLIT_AT) {
            st = split_runs(b, err);
            if (st == BLOOM_OK)
                return store(b, hash, err);
        }
        if (st == BLOOM_OK && (r->capacity == 0 || r->count * 2 > r->capacity))
            st = run_reserve(b, r, r->capacity + 1, err);
        if (st != BLOOM_OK)
            return st;
    }
    r->hashes[r->count++] = hash;
    return BLOOM_OK;
}

static bloom_status compact_all(bloom_builder *b, bloom_error *err)
{
    for (unsigned i = 0; i < b->nruns; i++) {
        bloom_status st = run_compact(b, &b->runs[i], err);
        if (st != BLOOM_OK)
            return st;
    }
    return BLOOM_OK;
}

/* ---- the front set ---- */

static inline size_t front_slot(uint64_t hash, size_t slots)
{
    /* Fibonacci hashing: any bits of the hash spread over the table */
    return (size_t)((hash * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & (slots - 1);
}

static void front_insert(uint64_t *front, size_t slots, uint64_t hash)
{
    size_t i = front_slot(hash, slots);
    while (front[i] != 0)
        i = (i + 1) & (slots - 1);
    front[i] = hash;
}

static bloom_status front_resize(bloom_builder *b, size_t slots, bloom_error *err)
{
    uint64_t *table = allocate(b, slots * sizeof *table);
    if (table == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu builder slots", slots);
    memset(table, 0, slots * sizeof *table);
    for (size_t i = 0; b->front && i < b->front_slots; i++)
        if (b->front[i] != 0)
            front_insert(table, slots, b->front[i]);
    release(b, b->front);
    b->front = table;
    b->front_slots = slots;
    return BLOOM_OK;
}

/* Move everything the front holds into the runs and empty it. */
static bloom_status spill(bloom_builder *b, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    for (size_t i = 0; i < b->front_slots && st == BLOOM_OK; i++)
        if (b->front[i] != 0)
            st = store(b, b->front[i], err);
    if (st == BLOOM_OK && b->front_zero)
        st = store(b, 0, err);
    if (st != BLOOM_OK)
        return st;
    b->front_zero = false;
    b->front_used = 0;
    if (b->front)
        memset(b->front, 0, b->front_slots * sizeof *b->front);
    return BLOOM_OK;
}

static bloom_status front_full(bloom_builder *b, bloom_error *err)
{
    if (b->front_slots < FRONT_MAX_SLOTS)
        return front_resize(b, b->front_slots * 2, err);
    /* Fewer repeats than new values since the last spill: the column has
     * more distinct values than the front holds, and a probe there only
     * delays the append (1.8x sum() instead of 1.4x at 10^5 distinct
     * values in PostgreSQL).  The runs deduplicate on their own. */
    if (b->front_hits < b->front_used)
        b->bypass = true;
    b->front_hits = 0;
    return spill(b, err);
}

bloom_status bloom_builder_add_hash(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    b->sized = false;
    if (b->bypass)
        return store(b, hash, err);
    if (hash == 0) {
        b->front_zero = true;
        return BLOOM_OK;
    }
    if (b->front == NULL) {
        bloom_status st = front_resize(b, FRONT_MIN_SLOTS, err);
        if (st != BLOOM_OK)
            return st;
    }
    size_t mask = b->front_slots - 1, i = front_slot(hash, b->front_slots);
    for (;;) {
        uint64_t there = b->front[i];
        if (there == hash) {
            b->front_hits++;
            return BLOOM_OK;
        }
        if (there == 0)
            break;
        i = (i + 1) & mask;
    }
    b->front[i] = hash;
    if (++b->front_used * 2 > b->front_slots)
        return front_full(b, err);
    return BLOOM_OK;
}

/* Everything in sorted runs, deduplicated: the form every reader wants. */
static bloom_status settle(bloom_builder *b, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    if (b->front_used || b->front_zero)
        st = spill(b, err);
    return st == BLOOM_OK ? compact_all(b, err) : st;
}

static uint64_t stored_count(const bloom_builder *b)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < b->nruns; i++)
        n += b->runs[i].count;
    return n;
}

bloom_status bloom_builder_merge(bloom_builder *dst, const bloom_builder *src, bloom_error *err)
{
    if (dst->layout != src->layout || dst->fpr != src->fpr || dst->seed != src->seed)
        return bloom_fail(err, BLOOM_E_MISMATCH,
                          "left builder has layout %s, fpr %g, seed %" PRIu64
                          "; right has layout %s, fpr %g, seed %" PRIu64,
                          bloom_layout_name(dst->layout), dst->fpr, dst->seed,
                          bloom_layout_name(src->layout), src->fpr, src->seed);
    bloom_status st = BLOOM_OK;
    for (unsigned r = 0; r < src->nruns && st == BLOOM_OK; r++)
        for (size_t i = 0; i < src->runs[r].count && st == BLOOM_OK; i++)
            st = bloom_builder_add_hash(dst, src->runs[r].hashes[i], err);
    for (size_t i = 0; i < src->front_slots && st == BLOOM_OK; i++)
        if (src->front[i] != 0)
            st = bloom_builder_add_hash(dst, src->front[i], err);
    if (st == BLOOM_OK && src->front_zero)
        st = bloom_builder_add_hash(dst, 0, err);
    return st != BLOOM_OK ? st : bloom_ok(err);
}

bloom_status bloom_builder_distinct(bloom_builder *b, uint64_t *out, bloom_error *err)
{
    bloom_status st = settle(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = stored_count(b);
    return bloom_ok(err);
}

bloom_status bloom_builder_serialized_size(bloom_builder *b, size_t *out, bloom_error *err)
{
    bloom_status st = settle(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = STATE_HEADER_SIZE + (size_t)stored_count(b) * 8;
    return bloom_ok(err);
}

bloom_status bloom_builder_serialize(bloom_builder *b, void *buf, size_t len, bloom_error *err)
{
    size_t need;
    bloom_status st = bloom_builder_serialized_size(b, &need, err);
    if (st != BLOOM_OK)
        return st;
    if (len != need)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "buffer of %zu bytes for a builder state of %zu bytes", len, need);
    uint8_t *p = buf;
    uint64_t fpr_bits;
    memcpy(&fpr_bits, &b->fpr, sizeof fpr_bits);
    memcpy(p, state_magic, sizeof state_magic);
    p[4] = BLOOM_FORMAT_VERSION;
    p[5] = (uint8_t)b->layout;
    p[6] = BLOOM_HASH_XXH64_CANONICAL;
    p[7] = 0;
    store_le64(p + 8, b->seed);
    store_le64(p + 16, fpr_bits);
    store_le64(p + 24, stored_count(b));
    /* runs are split by top byte, so their concatenation is sorted */
    uint8_t *q = p + STATE_HEADER_SIZE;
    for (unsigned r = 0; r < b->nruns; r++)
        for (size_t i = 0; i < b->runs[r].count; i++, q += 8)
            store_le64(q, b->runs[r].hashes[i]);
    return bloom_ok(err);
}

bloom_status bloom_builder_deserialize(const bloom_allocator *alloc, const void *buf, size_t len,
                                       bloom_builder **out, bloom_error *err)
{
    const uint8_t *p = buf;
    if (p == NULL || len < STATE_HEADER_SIZE)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "truncated builder state: %zu bytes, the header has %d", len,
                          STATE_HEADER_SIZE);
    if (memcmp(p, state_magic, sizeof state_magic) != 0)
        return bloom_fail(err, BLOOM_E_FORMAT, "bad magic: not a bloom builder state");
    if (p[4] != BLOOM_FORMAT_VERSION)
        return bloom_fail(err, BLOOM_E_FORMAT, "unsupported builder state version %u", p[4]);
    if (bloom_layout_name(p[5]) == NULL)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown layout id %u in builder state", p[5]);
    if (p[6] != BLOOM_HASH_XXH64_CANONICAL)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown hash id %u in builder state", p[6]);
    if (p[7] != 0)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown builder state flags 0x%02x", p[7]);
    uint64_t fpr_bits = load_le64(p + 16), count = load_le64(p + 24);
    double fpr;
    memcpy(&fpr, &fpr_bits, sizeof fpr);
    if (!(fpr > 0 && fpr < 1))
        return bloom_fail(err, BLOOM_E_FORMAT, "builder state false-positive rate %g is outside (0, 1)",
                          fpr);
    if (count > (len - STATE_HEADER_SIZE) / 8 || len != STATE_HEADER_SIZE + count * 8)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "builder state length %zu does not match its count %" PRIu64, len, count);
    bloom_builder *b;
    bloom_status st = bloom_builder_create(alloc, p[5], fpr, load_le64(p + 8), &b, err);
    if (st != BLOOM_OK)
        return st;
    const uint8_t *hashes = p + STATE_HEADER_SIZE;
    bool ascending = true;
    for (size_t i = 1; i < count && ascending; i++)
        ascending = load_le64(hashes + 8 * i) > load_le64(hashes + 8 * (i - 1));
    if (ascending && count > 0) {
        /* what serialize writes: one sorted run, split if large */
        b->runs = allocate(b, sizeof *b->runs);
        st = b->runs ? BLOOM_OK : bloom_fail(err, BLOOM_E_NOMEM, "out of memory for builder runs");
        if (st == BLOOM_OK) {
            memset(b->runs, 0, sizeof *b->runs);
            b->nruns = 1;
            st = run_reserve(b, &b->runs[0], (size_t)count, err);
        }
        if (st == BLOOM_OK) {
            for (size_t i = 0; i < count; i++)
                b->runs[0].hashes[i] = load_le64(hashes + 8 * i);
            b->runs[0].count = b->runs[0].sorted = (size_t)count;
            if (count >= SPLIT_AT)
                st = split_runs(b, err);
        }
    } else {
        for (size_t i = 0; i < count && st == BLOOM_OK; i++)
            st = bloom_builder_add_hash(b, load_le64(hashes + 8 * i), err);
    }
    if (st != BLOOM_OK) {
        bloom_builder_destroy(b);
        return st;
    }
    *out = b;
    return bloom_ok(err);
}

/* Whether a candidate filter meets the target.  (X/m)^k (or the blocked
 * formula) is its rate if the k probes of an absent value were independent;
 * double hashing walks a progression, which adds a term of order 1/m^2:
 * negligible unless m < 16 / sqrt(fpr) (160 bits at 1%), where a one-value
 * filter would otherwise reach 1.45 fpr.  Those tiny filters are also probed
 * with a fixed pseudo-random sequence and must stay under 0.9 fpr there,
 * which leaves room for the sample's noise.  Deterministic, so the result
 * stays a function of the set of hashes. */
static bool candidate_fits(const bloom_filter *f, double fpr)
{
    if (bloom_estimate_fpr(f) > fpr)
        return false;
    if ((double)f->nbits * sqrt(fpr) >= 16)
        return true;
    enum { PROBES = 1 << 12 };
    uint64_t hits = 0, limit = (uint64_t)(0.9 * fpr * PROBES), state = 0;
    for (int i = 0; i < PROBES && hits <= limit; i++) {
        state += UINT64_C(0x9e3779b97f4a7c15);
        uint64_t z = state;
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        hits += bloom_contains_hash(f, z ^ (z >> 31));
    }
    return hits <= limit;
}

static uint64_t next_candidate(int layout, uint64_t nbits)
{
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        uint64_t blocks = nbits / BLOOM_BLOCK_BITS, more = blocks + (blocks + 49) / 50;
        return more * BLOOM_BLOCK_BITS;
    }
    return nbits + (nbits + 49) / 50;
}

static void add_all(const bloom_builder *b, bloom_filter *f)
{
    for (unsigned r = 0; r < b->nruns; r++)
        bloom_add_hashes(f, b->runs[r].hashes, b->runs[r].count);
}

static bloom_status choose_size(bloom_builder *b, bloom_error *err)
{
    uint64_t nbits, n = stored_count(b);
    unsigned nhashes;
    bloom_status st = bloom_params_for_capacity(b->layout, n ? n : 1, b->fpr, &nbits, &nhashes, err);
    if (st != BLOOM_OK)
        return st;
    if (n <= VERIFY_LIMIT) {
        /* At small counts one filter's rate strays from the model's; try
         * slightly larger sizes until the rate of the bits themselves fits,
         * bounded by 2.15 times the model's size. */
        uint64_t limit = nbits + nbits * 23 / 20;
        /* tiny filters (the sampled regime) rarely fit at the formula's
         * size: start half as large again, so one sample usually decides */
        if ((double)nbits * sqrt(b->fpr) < 16 && b->layout == BLOOM_LAYOUT_CLASSIC)
            nbits += nbits / 2;
        while (nbits < limit) {
            size_t size = bloom_serialized_size(nbits);
            void *buf = allocate(b, size);
            if (buf == NULL)
                return bloom_fail(err, BLOOM_E_NOMEM, "out of memory sizing a filter");
            bloom_filter f;
            st = bloom_init(buf, size, b->layout, nbits, nhashes, b->seed, &f, err);
            if (st == BLOOM_OK)
                add_all(b, &f);
            bool fits = st == BLOOM_OK && candidate_fits(&f, b->fpr);
            release(b, buf);
            if (st != BLOOM_OK)
                return st;
            if (fits)
                break;
            uint64_t next = next_candidate(b->layout, nbits);
            if (next >= limit)
                break;
            nbits = next;
        }
    }
    b->nbits = nbits;
    b->nhashes = nhashes;
    b->sized = true;
    return BLOOM_OK;
}

bloom_status bloom_builder_result_size(bloom_builder *b, size_t *out, bloom_error *err)
{
    bloom_status st = settle(b, err);
    if (st == BLOOM_OK && !b->sized)
        st = choose_size(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = bloom_serialized_size(b->nbits);
    return bloom_ok(err);
}

bloom_status bloom_builder_finish(bloom_builder *b, void *buf, size_t len, bloom_filter *out,
                                  bloom_error *err)
{
    size_t need;
    bloom_status st = bloom_builder_result_size(b, &need, err);
    if (st != BLOOM_OK)
        return st;
    st = bloom_init(buf, len, b->layout, b->nbits, b->nhashes, b->seed, out, err);
    if (st != BLOOM_OK)
        return st;
    add_all(b, out);
    return bloom_ok(err);
}
