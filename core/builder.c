/*
 * builder.c - the self-sizing builder: accept hashes without knowing how
 * many distinct values will come, then size the filter for the count seen.
 *
 * It keeps every distinct 64-bit hash: appended unsorted, and compacted
 * (radix-sorted, deduplicated, merged into the sorted prefix) whenever the
 * array is full, growing only when compaction frees less than half.  The
 * final filter is a function of the set of hashes alone, so partial
 * builders merged in any order give the serial result bit for bit.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

struct bloom_builder {
    bloom_allocator alloc;
    int layout;
    double fpr;
    uint64_t seed;
    uint64_t *hashes;
    size_t count;    /* used slots */
    size_t sorted;   /* hashes[0, sorted) is sorted and unique */
    size_t capacity; /* allocated slots */
    bool sized;      /* nbits/nhashes below are valid for the current set */
    uint64_t nbits;
    unsigned nhashes;
};

enum {
    INITIAL_CAPACITY = 8,
    /* Up to this many distinct values, candidate sizes are built and their
     * actual false-positive rate checked; above it, the rate is within a
     * percent of the model's and one build suffices. */
    VERIFY_LIMIT = 1 << 16,
    STATE_HEADER_SIZE = 32
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

void bloom_builder_destroy(bloom_builder *b)
{
    if (b == NULL)
        return;
    release(b, b->hashes);
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

static bloom_status reserve(bloom_builder *b, size_t slots, bloom_error *err)
{
    if (slots <= b->capacity)
        return BLOOM_OK;
    size_t capacity = b->capacity ? b->capacity : INITIAL_CAPACITY;
    while (capacity < slots) {
        if (capacity > SIZE_MAX / 16)
            return bloom_fail(err, BLOOM_E_LIMIT, "too many distinct values for one builder");
        capacity *= 2;
    }
    uint64_t *grown = allocate(b, capacity * sizeof *grown);
    if (grown == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu builder hashes", capacity);
    if (b->count)
        memcpy(grown, b->hashes, b->count * sizeof *grown);
    release(b, b->hashes);
    b->hashes = grown;
    b->capacity = capacity;
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
 * Passes in which every key has the same digit are skipped. */
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
static bloom_status compact(bloom_builder *b, bloom_error *err)
{
    size_t prefix = b->sorted, tail = b->count - b->sorted;
    if (tail == 0)
        return BLOOM_OK;
    bool small = tail <= 64;
    uint64_t *tmp = allocate(b, tail * sizeof *tmp + (small ? 0 : radix_counts(tail) * sizeof(size_t)));
    if (tmp == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory compacting %zu builder hashes", tail);
    size_t *counts = (size_t *)(tmp + tail);
    uint64_t *t = b->hashes + prefix;
    uint64_t *sorted_tail;
    if (small) {
        insertion_sort(t, tail);
        sorted_tail = t;
    } else {
        sorted_tail = radix_sort(t, tmp, counts, tail);
    }
    size_t u = unique_into(sorted_tail, tail, tmp); /* in place when sorted_tail == tmp */

    uint64_t *h = b->hashes;
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
    b->count = b->sorted = kept_prefix + merged;
    release(b, tmp);
    return BLOOM_OK;
}

bloom_status bloom_builder_add_hash(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    if (b->count == b->capacity) {
        bloom_status st = compact(b, err);
        if (st == BLOOM_OK && (b->capacity == 0 || b->count * 2 > b->capacity))
            st = reserve(b, b->capacity + 1, err);
        if (st != BLOOM_OK)
            return st;
    }
    b->hashes[b->count++] = hash;
    b->sized = false;
    return BLOOM_OK;
}

bloom_status bloom_builder_merge(bloom_builder *dst, const bloom_builder *src, bloom_error *err)
{
    if (dst->layout != src->layout || dst->fpr != src->fpr || dst->seed != src->seed)
        return bloom_fail(err, BLOOM_E_MISMATCH,
                          "left builder has layout %s, fpr %g, seed %" PRIu64
                          "; right has layout %s, fpr %g, seed %" PRIu64,
                          bloom_layout_name(dst->layout), dst->fpr, dst->seed,
                          bloom_layout_name(src->layout), src->fpr, src->seed);
    if (src->count == 0)
        return bloom_ok(err);
    bloom_status st = reserve(dst, dst->count + src->count, err);
    if (st != BLOOM_OK)
        return st;
    memcpy(dst->hashes + dst->count, src->hashes, src->count * sizeof *src->hashes);
    dst->count += src->count;
    dst->sized = false;
    st = compact(dst, err);
    return st != BLOOM_OK ? st : bloom_ok(err);
}

bloom_status bloom_builder_distinct(bloom_builder *b, uint64_t *out, bloom_error *err)
{
    bloom_status st = compact(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = b->count;
    return bloom_ok(err);
}

bloom_status bloom_builder_serialized_size(bloom_builder *b, size_t *out, bloom_error *err)
{
    bloom_status st = compact(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = STATE_HEADER_SIZE + b->count * 8;
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
    store_le64(p + 24, b->count);
    for (size_t i = 0; i < b->count; i++)
        store_le64(p + STATE_HEADER_SIZE + 8 * i, b->hashes[i]);
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
    st = reserve(b, (size_t)count, err);
    if (st != BLOOM_OK) {
        bloom_builder_destroy(b);
        return st;
    }
    bool ascending = true;
    for (size_t i = 0; i < count; i++) {
        b->hashes[i] = load_le64(p + STATE_HEADER_SIZE + 8 * i);
        if (i > 0 && b->hashes[i] <= b->hashes[i - 1])
            ascending = false;
    }
    b->count = (size_t)count;
    b->sorted = ascending ? b->count : 0;
    *out = b;
    return bloom_ok(err);
}

/* The rate a candidate filter would really have.  At small m the probes of
 * one absent value are not independent (double hashing walks a progression),
 * so (X/m)^k can flatter a tiny filter: probe it with a fixed pseudo-random
 * sequence as well and keep the worse of the two.  Deterministic, so the
 * result stays a function of the set of hashes. */
static double candidate_fpr(const bloom_filter *f)
{
    enum { PROBES = 1 << 15 };
    uint64_t hits = 0, state = 0;
    for (int i = 0; i < PROBES; i++) {
        state += UINT64_C(0x9e3779b97f4a7c15);
        uint64_t z = state;
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        hits += bloom_contains_hash(f, z ^ (z >> 31));
    }
    double sampled = (double)hits / PROBES, model = bloom_estimate_fpr(f);
    return sampled > model ? sampled : model;
}

static uint64_t next_candidate(int layout, uint64_t nbits)
{
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        uint64_t blocks = nbits / BLOOM_BLOCK_BITS, more = blocks + (blocks + 49) / 50;
        return more * BLOOM_BLOCK_BITS;
    }
    return nbits + (nbits + 49) / 50;
}

static bloom_status choose_size(bloom_builder *b, bloom_error *err)
{
    uint64_t nbits;
    unsigned nhashes;
    bloom_status st = bloom_params_for_capacity(b->layout, b->count ? b->count : 1, b->fpr, &nbits,
                                                &nhashes, err);
    if (st != BLOOM_OK)
        return st;
    if (b->count <= VERIFY_LIMIT) {
        /* At small counts one filter's rate strays from the model's; try
         * slightly larger sizes until the rate of the bits themselves fits,
         * bounded by 2.15 times the model's size. */
        uint64_t limit = nbits + nbits * 23 / 20;
        while (nbits < limit) {
            size_t size = bloom_serialized_size(nbits);
            void *buf = allocate(b, size);
            if (buf == NULL)
                return bloom_fail(err, BLOOM_E_NOMEM, "out of memory sizing a filter");
            bloom_filter f;
            st = bloom_init(buf, size, b->layout, nbits, nhashes, b->seed, &f, err);
            if (st == BLOOM_OK)
                bloom_add_hashes(&f, b->hashes, b->count);
            double rate = st == BLOOM_OK ? candidate_fpr(&f) : 0;
            release(b, buf);
            if (st != BLOOM_OK)
                return st;
            if (rate <= b->fpr)
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
    bloom_status st = compact(b, err);
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
    bloom_add_hashes(out, b->hashes, b->count);
    return bloom_ok(err);
}
