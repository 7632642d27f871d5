/*
 * builder.c - the self-sizing builder: accept hashes without knowing how
 * many distinct values will come, then size the filter for the count seen.
 *
 * It keeps every distinct 64-bit hash:
 * - a front hash set (open addressing, up to FRONT_MAX_SLOTS: 32 KiB, in L1
 *   beside a table scan) absorbs repeats; when half full it is spilled, and
 *   once repeats are rare it steps aside: hashes then wait in a batch of
 *   PENDING and are appended in a burst;
 * - behind it, partitions: one until SPLIT_AT distinct hashes, then 256 by
 *   the top byte.  A partition is a sorted, distinct prefix and a tail of
 *   appended hashes, in chunks carved from slabs (huge pages where the
 *   system offers them; growth never copies).  When it has doubled (eight-
 *   fold after a pass that found nearly all new hashes) a pass sorts the
 *   tail (spread into L1-sized buckets, a counting sort each) and merges it
 *   into the prefix; after a pass that found mostly repeats, the tail's
 *   known hashes are first dropped by lookup in the prefix.
 * The final filter is a function of the set of hashes alone, so partial
 * builders merged in any order give the serial result bit for bit.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

enum {
    FRONT_MIN_SLOTS = 8,
    FRONT_MAX_SLOTS = 1 << 12, /* 32 KiB: stays in L1 beside a table scan */
    PART_BITS = 8,             /* partitions by the top bits of the hash... */
    NPARTS = 1 << PART_BITS,   /* ... 256 of them */
    CHUNK_MIN = 16,            /* hashes in a partition's first chunk */
    CHUNK_CLASSES = 9,         /* chunk sizes double up to 16 << 8 = 4096 hashes (32 KiB) */
    DEDUP_MIN = 64,            /* a partition is deduplicated from this many hashes on */
    SPLIT_AT = 1 << 14,        /* distinct hashes (128 KiB) before 256 partitions */
    PENDING = 64,              /* hashes past the front are appended in batches of this */
    DEDUP_BUCKET = 2048,       /* hashes per sort after the spread: 16 KiB, in L1 */
    DEDUP_BUCKET_BITS = 8,     /* at most 256 buckets (larger tails sort larger buckets) */
    SLAB_MIN = 32 << 10,
    SLAB_MAX = 8 << 20,
    /* Up to this many distinct values, candidate sizes are built and their
     * actual false-positive rate checked; above it, the rate is within a
     * percent of the model's and one build suffices. */
    VERIFY_LIMIT = 1 << 16,
    STATE_HEADER_SIZE = 32
};

typedef struct chunk {
    struct chunk *next;
    uint32_t capacity; /* hashes */
    uint32_t used;     /* hashes, for every chunk but its partition's last */
    uint64_t hashes[];
} chunk;

/* Where a partition's next hash goes: apart from the rest of the
 * partition, so the 256 of them that rows touch fit in 64 cache lines. */
typedef struct tail {
    uint64_t *cursor, *end; /* the free slots of the partition's last chunk */
} tail;

typedef struct part {
    tail *t;
    chunk *first, *last;
    size_t before_last;     /* hashes in the chunks before last */
    size_t settled;         /* count after the last dedup: equal to it means sorted, distinct */
    size_t dedup_at;        /* dedup at the next chunk boundary from this count on */
    unsigned nchunks;
    bool repeats;           /* the last dedup found mostly repeats */
} part;

typedef struct slab {
    struct slab *next;
    uint64_t align; /* chunks after the header stay 8-byte aligned */
} slab;

/* Where the hashes behind the front live: allocated on the first spill,
 * so the many small builders of a GROUP BY never pay for it. */
typedef struct store {
    tail tails[NPARTS];
    /* One partition at first: a store of a few thousand hashes needs no
     * 256 chunk chains (their first chunks alone would outweigh it).  Past
     * SPLIT_AT hashes, 256 by top byte, so each pass stays small, in cache. */
    uint64_t mask; /* partition of a hash: (hash >> (64 - PART_BITS)) & mask */
    unsigned npending;
    uint64_t pending[PENDING]; /* hashes past the front, not yet appended */
    unsigned skip; /* top bits of the hash its partition fixes: 0, then 8 */
    part parts[NPARTS];
    chunk *free_chunks[CHUNK_CLASSES];
    slab *slabs;
    uint8_t *slab_cursor;
    size_t slab_left, next_slab_size;
    size_t bucket_sizes[1 << DEDUP_BUCKET_BITS], bucket_fill[1 << DEDUP_BUCKET_BITS];
} store;

struct bloom_builder {
    bloom_allocator alloc;
    int layout;
    double fpr;
    uint64_t seed;
    uint64_t *front; /* 0 marks a free slot; the hash 0 is front_zero */
    size_t front_slots, front_used;
    bool front_zero;
    bool bypass;         /* repeats are rare: hashes go straight to the partitions */
    uint64_t front_hits; /* repeats the front absorbed since its last spill */
    struct store *store; /* NULL until the front first spills */
    /* dedup and sort scratch, kept across calls */
    void *scratch;
    size_t scratch_size;
    bool sized; /* nbits/nhashes below are valid for the current set */
    uint64_t nbits;
    unsigned nhashes;
};

static const uint8_t state_magic[4] = {'B', 'L', 'M', 'B'};

static void *allocate(const bloom_builder *b, size_t size)
{
    void *p = b->alloc.alloc(b->alloc.ctx, size);
    if (p != NULL)
        bloom_advise_huge_pages(p, size);
    return p;
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
    for (slab *s = b->store ? b->store->slabs : NULL; s != NULL;) {
        slab *next = s->next;
        release(b, s);
        s = next;
    }
    release(b, b->store);
    release(b, b->scratch);
    release(b, b->front);
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

/* Grows the scratch to size bytes, keeping its first `keep` bytes. */
static bloom_status reserve_scratch_keeping(bloom_builder *b, size_t size, size_t keep,
                                            bloom_error *err)
{
    if (size <= b->scratch_size)
        return BLOOM_OK;
    /* a quarter more than asked: passes grow, but the scratch is kept (the
     * sanitized tests ask for no slack, so an overrun is caught) */
#ifndef BLOOM_SCRATCH_EXACT
    size += size / 4;
#endif
    void *grown = allocate(b, size);
    if (grown == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu bytes of builder scratch", size);
    if (keep > 0)
        memcpy(grown, b->scratch, keep);
    release(b, b->scratch);
    b->scratch = grown;
    b->scratch_size = size;
    return BLOOM_OK;
}

static bloom_status reserve_scratch(bloom_builder *b, size_t size, bloom_error *err)
{
    return reserve_scratch_keeping(b, size, 0, err);
}

/* ---- sorting ---- */

/* Insertion sort of a[0, n) that gives up (returns false) after about
 * `budget` moves: nearly sorted input finishes well within it. */
static bool insertion_sort_bounded(uint64_t *a, size_t n, size_t budget)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
        if (i - j > budget)
            return false;
        budget -= i - j;
    }
    return true;
}

enum { RADIX_BITS = 8, RADIX_PASSES = 8 };

/* LSD radix sort of a[0, n) using tmp[0, n) and 2 KiB of counts on the
 * stack; returns where the result is.  Passes in which every key has the
 * same digit are skipped. */
static uint64_t *radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    enum { BUCKETS = 1 << RADIX_BITS };
    size_t counts[RADIX_PASSES][BUCKETS];
    memset(counts, 0, sizeof counts);
    for (size_t i = 0; i < n; i++)
        for (unsigned p = 0; p < RADIX_PASSES; p++)
            counts[p][(a[i] >> (p * RADIX_BITS)) & (BUCKETS - 1)]++;
    uint64_t *src = a, *dst = tmp;
    for (unsigned p = 0; p < RADIX_PASSES && n > 0; p++) {
        size_t *c = counts[p];
        if (c[(src[0] >> (p * RADIX_BITS)) & (BUCKETS - 1)] == n)
            continue;
        size_t sum = 0;
        for (unsigned d = 0; d < BUCKETS; d++) {
            size_t here = c[d];
            c[d] = sum;
            sum += here;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> (p * RADIX_BITS)) & (BUCKETS - 1)]++] = src[i];
        uint64_t *swap = src;
        src = dst;
        dst = swap;
    }
    return src;
}

/* Sort and deduplicate a[0, n) with tmp[0, n) beside it; the result is
 * left at the start of a, and its length returned. */
static size_t sort_unique(uint64_t *a, uint64_t *tmp, size_t n)
{
    const uint64_t *sorted = a;
    if (n <= 32)
        insertion_sort_bounded(a, n, SIZE_MAX);
    else
        sorted = radix_sort(a, tmp, n);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || a[u - 1] != sorted[i])
            a[u++] = sorted[i];
    return u;
}

/* ---- chunks, carved from slabs ---- */

static chunk *chunk_get(bloom_builder *b, unsigned cls, bloom_error *err)
{
    store *st = b->store;
    chunk *c = st->free_chunks[cls];
    if (c != NULL) {
        st->free_chunks[cls] = c->next;
    } else {
        size_t capacity = (size_t)CHUNK_MIN << cls, size = sizeof(chunk) + capacity * 8;
        if (st->slab_left < size) {
            size_t slab_size = st->next_slab_size;
            if (slab_size < sizeof(slab) + size)
                slab_size = sizeof(slab) + size;
            slab *s = allocate(b, slab_size);
            if (s == NULL) {
                bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu bytes of builder hashes",
                           slab_size);
                return NULL;
            }
            s->next = st->slabs;
            st->slabs = s;
            st->slab_cursor = (uint8_t *)(s + 1);
            st->slab_left = slab_size - sizeof(slab);
            if (st->next_slab_size < SLAB_MAX)
                st->next_slab_size *= 2;
        }
        c = (chunk *)st->slab_cursor;
        st->slab_cursor += size;
        st->slab_left -= size;
        c->capacity = (uint32_t)capacity;
    }
    c->next = NULL;
    c->used = 0;
    return c;
}

static void chunk_put(bloom_builder *b, chunk *c)
{
    unsigned cls = 0;
    while (((size_t)CHUNK_MIN << cls) < c->capacity)
        cls++;
    c->next = b->store->free_chunks[cls];
    b->store->free_chunks[cls] = c;
}

static size_t chunk_length(const part *p, const chunk *c)
{
    return c == p->last ? (size_t)(p->t->cursor - c->hashes) : c->used;
}

static size_t part_count(const part *p)
{
    return p->last ? p->before_last + (size_t)(p->t->cursor - p->last->hashes) : 0;
}

/* ---- partitions ---- */

static void release_chunks(bloom_builder *b, chunk *c)
{
    while (c != NULL) {
        chunk *next = c->next;
        chunk_put(b, c);
        c = next;
    }
}

/* Makes c, holding `held` hashes after `before` in the chunks ahead of it
 * (nchunks in all), the partition's last chunk; releases those after it. */
static void part_end_at(bloom_builder *b, part *p, chunk *c, size_t before, unsigned nchunks,
                        size_t held)
{
    release_chunks(b, c->next);
    c->next = NULL;
    p->last = c;
    p->t->cursor = c->hashes + held;
    p->t->end = c->hashes + c->capacity;
    p->before_last = before;
    p->nchunks = nchunks;
}

/* Rewrites a partition's chunks with the n hashes of src, releasing the
 * chunks it no longer needs. */
static void part_rewrite(bloom_builder *b, part *p, const uint64_t *src, size_t n)
{
    chunk *c = p->first;
    size_t before = 0;
    unsigned nchunks = 1;
    while (n - before > c->capacity) {
        c->used = c->capacity;
        memcpy(c->hashes, src + before, (size_t)c->capacity * 8);
        before += c->capacity;
        c = c->next;
        nchunks++;
    }
    memcpy(c->hashes, src + before, (n - before) * 8);
    part_end_at(b, p, c, before, nchunks, n - before);
}

/* Shortens a partition to its first n hashes. */
static void part_truncate(bloom_builder *b, part *p, size_t n)
{
    chunk *c = p->first;
    size_t before = 0;
    unsigned nchunks = 1;
    while (n - before > chunk_length(p, c)) {
        before += c->used;
        c = c->next;
        nchunks++;
    }
    part_end_at(b, p, c, before, nchunks, n - before);
}

/* Sorts and deduplicates in[0, n), hashes that agree on their top `skip`
 * bits, into out (which may be in: out advances no faster than in is
 * read), through work[0, n) and counts[0, 4n).  A counting sort on the
 * next bits, with two to four counts per hash, leaves only hashes of one
 * count out of order; an insertion sort puts them right.  Hashes crafted
 * to agree on 20-odd bits would make that quadratic: past a budget, the
 * radix sort takes over. */
static size_t dedup_sorted(const uint64_t *in, size_t n, unsigned skip, uint64_t *work,
                           uint32_t *counts, uint64_t *out)
{
    unsigned bits = 2;
    while (((size_t)1 << bits) < 2 * n)
        bits++;
    const size_t buckets = (size_t)1 << bits; /* < 4n */
    const unsigned shift = 64 - bits;
    memset(counts, 0, buckets * sizeof *counts);
    for (size_t i = 0; i < n; i++)
        counts[(in[i] << skip) >> shift]++;
    uint32_t sum = 0;
    for (size_t i = 0; i < buckets; i++) { /* the sum in a register, not reloaded */
        uint32_t here = counts[i];
        counts[i] = sum;
        sum += here;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v = in[i];
        work[counts[(v << skip) >> shift]++] = v;
    }
    const uint64_t *sorted = work;
    if (!insertion_sort_bounded(work, n, 4 * n + 64))
        sorted = radix_sort(work, out, n); /* out is free: it trails in */
    size_t u = 1;
    uint64_t last = sorted[0];
    out[0] = last;
    for (size_t i = 1; i < n; i++) { /* branch-free */
        uint64_t v = sorted[i];
        out[u] = v;
        u += v != last;
        last = v;
    }
    return u;
}

/* Reads a partition's hashes in order, from a given position on. */
typedef struct part_reader {
    const part *p;
    const chunk *c;
    size_t i, len;
} part_reader;

static void reader_start(part_reader *r, const part *p, size_t from)
{
    r->p = p;
    r->c = p->first;
    r->len = r->c ? chunk_length(p, r->c) : 0;
    while (r->c != NULL && from >= r->len) {
        from -= r->len;
        r->c = r->c->next;
        r->len = r->c ? chunk_length(p, r->c) : 0;
    }
    r->i = from;
}

/* The next run of hashes, at most `want`; 0 at the end. */
static size_t reader_next(part_reader *r, const uint64_t **out, size_t want)
{
    while (r->c != NULL && r->i == r->len) {
        r->c = r->c->next;
        r->len = r->c ? chunk_length(r->p, r->c) : 0;
        r->i = 0;
    }
    if (r->c == NULL)
        return 0;
    size_t n = r->len - r->i < want ? r->len - r->i : want;
    *out = r->c->hashes + r->i;
    r->i += n;
    return n;
}

enum { PROBE_WIDTH = 4 }; /* hashes of the prefix compared per probe, without a branch */

/* Copies the tail's hashes that are not in the sorted, distinct prefix
 * pre[0, np) into out; returns how many.  An index by the hashes' next
 * bits narrows each lookup to a slot or two of the prefix (pre has
 * PROBE_WIDTH readable slots past np). */
static size_t filter_known(part_reader *r, unsigned skip, const uint64_t *pre, size_t np,
                           uint32_t *index, uint64_t *out)
{
    unsigned bits = 2;
    while (((size_t)1 << bits) < np)
        bits++;
    const size_t keys = (size_t)1 << bits;
    const unsigned shift = 64 - bits;
    memset(index, 0, (keys + 1) * sizeof *index);
    for (size_t i = 0; i < np; i++)
        index[(pre[i] << skip) >> shift]++;
    uint32_t sum = 0;
    for (size_t k = 0; k <= keys; k++) {
        uint32_t here = index[k];
        index[k] = sum;
        sum += here;
    }
    size_t m = 0, len;
    const uint64_t *h;
    while ((len = reader_next(r, &h, SIZE_MAX)) > 0) {
        for (size_t i = 0; i < len; i++) {
            uint64_t v = h[i];
            size_t k = (size_t)((v << skip) >> shift), from = index[k], to = index[k + 1];
            bool known = false;
            if (to - from <= PROBE_WIDTH) {
                for (size_t j = 0; j < PROBE_WIDTH; j++)
                    known |= (from + j < to) & (pre[from + j] == v);
            } else {
                for (size_t j = from; j < to; j++)
                    known |= pre[j] == v;
            }
            out[m] = v;
            m += !known;
        }
    }
    return m;
}

/* Leave the partition sorted and distinct: sort and deduplicate the tail
 * appended since the last pass, then merge it into the sorted prefix.  When
 * the last pass found mostly repeats, the tail's hashes already in the
 * prefix are dropped first, by lookup: the sort then has little to do.  A
 * tail is spread by its next bits into buckets of about DEDUP_BUCKET, so
 * each bucket's sort stays in L1 however large the partition grows; the
 * merge only streams. */
static bloom_status part_dedup(bloom_builder *b, part *p, bloom_error *err)
{
    const size_t n = part_count(p), prefix = p->settled, tail = n - prefix;
    if (tail == 0)
        return BLOOM_OK;
    const bool lookup = p->repeats && prefix >= 32;
    const unsigned skip = b->store->skip;
    /* First the tail, as read or as left by the lookup, at the start of the
     * scratch; for a lookup, the prefix and its index after it. */
    size_t words = tail + (lookup ? (prefix + PROBE_WIDTH) + (prefix + 2) : 0);
    bloom_status st = reserve_scratch(b, words * 8, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t *raw = b->scratch, *pre = raw + tail;
    part_reader r;
    const uint64_t *h;
    size_t len, m = 0;
    if (lookup) { /* the index: at most 2 prefix + 1 counts, prefix + 1 words */
        for (reader_start(&r, p, 0); m < prefix && (len = reader_next(&r, &h, prefix - m)) > 0; m += len)
            memcpy(pre + m, h, len * 8);
        memset(pre + prefix, 0, PROBE_WIDTH * 8);
        m = filter_known(&r, skip, pre, prefix, (uint32_t *)(pre + prefix + PROBE_WIDTH), raw);
    } else {
        for (reader_start(&r, p, prefix); (len = reader_next(&r, &h, SIZE_MAX)) > 0; m += len)
            memcpy(raw + m, h, len * 8);
    }
    /* Then the buckets' sizes, and room after the tail for the spread
     * tail, the largest bucket's work and counts, and the merged result. */
    unsigned bucket_bits = 0;
    while (((size_t)DEDUP_BUCKET << bucket_bits) < m && bucket_bits < DEDUP_BUCKET_BITS)
        bucket_bits++;
    const size_t nbuckets = (size_t)1 << bucket_bits;
    const unsigned bucket_shift = 64 - bucket_bits;
    size_t *sizes = b->store->bucket_sizes, largest = m;
    if (bucket_bits > 0) {
        memset(sizes, 0, nbuckets * sizeof *sizes);
        for (size_t i = 0; i < m; i++)
            sizes[(raw[i] << skip) >> bucket_shift]++;
        largest = 0;
        for (size_t k = 0; k < nbuckets; k++)
            largest = sizes[k] > largest ? sizes[k] : largest;
    }
    words = m + (bucket_bits > 0 ? m : 0) + largest + (2 * largest + 2) + n;
    st = reserve_scratch_keeping(b, words * 8, m * 8, err);
    if (st != BLOOM_OK)
        return st;
    raw = b->scratch;
    uint64_t *spread = bucket_bits > 0 ? raw + m : raw, *work = spread + m;
    uint32_t *counts = (uint32_t *)(work + largest); /* 4 largest + 4 of them */
    uint64_t *merged = work + largest + (2 * largest + 2);
    size_t t = 0;
    if (m > 0 && bucket_bits == 0) {
        t = dedup_sorted(raw, m, skip, work, counts, raw);
    } else if (m > 0) {
        size_t *fill = b->store->bucket_fill;
        for (size_t k = 0, at = 0; k < nbuckets; at += sizes[k++])
            fill[k] = at;
        for (size_t i = 0; i < m; i++)
            spread[fill[(raw[i] << skip) >> bucket_shift]++] = raw[i];
        uint64_t *in = spread;
        for (size_t k = 0; k < nbuckets; in += sizes[k++])
            if (sizes[k] > 0)
                t += dedup_sorted(in, sizes[k], skip + bucket_bits, work, counts, spread + t);
    }
    size_t u = prefix;
    if (t > 0) {
        /* merge, branch-free: the prefix's hashes are distinct, and so are
         * the tail's; one in both is written once */
        size_t j = 0;
        u = 0;
        reader_start(&r, p, 0);
        for (size_t left = prefix; left > 0 && (len = reader_next(&r, &h, left)) > 0;) {
            size_t i = 0;
            left -= len;
            while (i < len && j < t) {
                uint64_t x = h[i], y = spread[j];
                merged[u++] = x <= y ? x : y;
                i += x <= y;
                j += y <= x;
            }
            memcpy(merged + u, h + i, (len - i) * 8);
            u += len - i;
        }
        memcpy(merged + u, spread + j, (t - j) * 8);
        u += t - j;
        part_rewrite(b, p, merged, u);
    } else {
        part_truncate(b, p, prefix);
    }
    /* Dedup again at twice the size; at eight times if the tail was nearly
     * all new, since passes over a partition that keeps growing find
     * little (the final pass covers it all anyway).  Should repeats come
     * back, the partition holds up to 8 times its distinct hashes once. */
    size_t fresh = u - prefix;
    p->repeats = fresh < tail / 2;
    p->settled = u;
    size_t next = (fresh >= tail - tail / 8 ? 8 : 2) * u;
    p->dedup_at = next > DEDUP_MIN ? next : DEDUP_MIN;
    return BLOOM_OK;
}

/* Chains a chunk (twice the size of the last, up to the largest) to the
 * partition's end. */
static bloom_status part_add_chunk(bloom_builder *b, part *p, bloom_error *err)
{
    unsigned cls = p->nchunks < CHUNK_CLASSES ? p->nchunks : CHUNK_CLASSES - 1;
    chunk *c = chunk_get(b, cls, err);
    if (c == NULL)
        return BLOOM_E_NOMEM;
    if (p->last != NULL) {
        p->last->used = (uint32_t)(p->t->cursor - p->last->hashes);
        p->before_last += p->last->used;
        p->last->next = c;
    } else {
        p->first = c;
        p->dedup_at = DEDUP_MIN;
    }
    p->last = c;
    p->t->cursor = c->hashes;
    p->t->end = c->hashes + c->capacity;
    p->nchunks++;
    return BLOOM_OK;
}

/* The one partition, sorted and distinct, becomes 256 by top byte: each
 * takes its range of the sorted hashes. */
static bloom_status split_store(bloom_builder *b, bloom_error *err)
{
    store *s = b->store;
    part *one = &s->parts[0];
    size_t n = part_count(one);
    bloom_status st = reserve_scratch(b, n * 8, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t *sorted = b->scratch;
    part_reader r;
    const uint64_t *h;
    size_t len, at = 0;
    for (reader_start(&r, one, 0); (len = reader_next(&r, &h, SIZE_MAX)) > 0; at += len)
        memcpy(sorted + at, h, len * 8);
    release_chunks(b, one->first);
    memset(one, 0, sizeof *one);
    one->t = &s->tails[0];
    memset(one->t, 0, sizeof *one->t);
    s->mask = NPARTS - 1;
    s->skip = PART_BITS;
    for (size_t i = 0; i < n && st == BLOOM_OK;) {
        part *p = &s->parts[sorted[i] >> (64 - PART_BITS)];
        size_t end = i;
        while (end < n && (sorted[end] >> (64 - PART_BITS)) == (sorted[i] >> (64 - PART_BITS)))
            end++;
        for (; i < end && st == BLOOM_OK;) {
            if (p->t->cursor == p->t->end)
                st = part_add_chunk(b, p, err);
            size_t room = (size_t)(p->t->end - p->t->cursor), take = end - i < room ? end - i : room;
            if (st == BLOOM_OK) {
                memcpy(p->t->cursor, sorted + i, take * 8);
                p->t->cursor += take;
                i += take;
            }
        }
        p->settled = part_count(p);
        p->dedup_at = 2 * p->settled > DEDUP_MIN ? 2 * p->settled : DEDUP_MIN;
    }
    return st;
}

/* A partition's last chunk is full: deduplicate it if it has doubled since
 * last time, else chain another chunk. */
static bloom_status part_make_room(bloom_builder *b, part *p, bloom_error *err)
{
    if (p->last != NULL && part_count(p) >= p->dedup_at) {
        bloom_status st = part_dedup(b, p, err);
        if (st == BLOOM_OK && b->store->mask == 0 && p->settled >= SPLIT_AT) {
            st = split_store(b, err);
            return st; /* the caller picks the hash's partition again */
        }
        if (st != BLOOM_OK || p->t->cursor != p->t->end)
            return st;
    }
    return part_add_chunk(b, p, err);
}

static bloom_status store_slow(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    if (b->store == NULL) {
        b->store = allocate(b, sizeof *b->store);
        if (b->store == NULL)
            return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for builder partitions");
        memset(b->store, 0, sizeof *b->store);
        b->store->next_slab_size = SLAB_MIN;
        for (unsigned i = 0; i < NPARTS; i++)
            b->store->parts[i].t = &b->store->tails[i];
    }
    part *p = &b->store->parts[(hash >> (64 - PART_BITS)) & b->store->mask];
    while (p->t->cursor == p->t->end) {
        bloom_status st = part_make_room(b, p, err);
        if (st != BLOOM_OK)
            return st;
        p = &b->store->parts[(hash >> (64 - PART_BITS)) & b->store->mask];
    }
    *p->t->cursor++ = hash;
    return BLOOM_OK;
}

/* The path of every row once the front steps aside: one store. */
static inline bloom_status store_hash(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    if (b->store != NULL) {
        tail *t = &b->store->tails[(hash >> (64 - PART_BITS)) & b->store->mask];
        if (t->cursor != t->end) {
            /* 256 append streams are more than a hardware prefetcher
             * follows: ask for the partition's next line now, so the store
             * that reaches it (hundreds of rows on) does not wait for it */
            BLOOM_PREFETCH_WRITE(t->cursor + 8);
            *t->cursor++ = hash;
            return BLOOM_OK;
        }
    }
    return store_slow(b, hash, err);
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

/* Move everything the front holds into the partitions and empty it. */
static bloom_status spill(bloom_builder *b, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    for (size_t i = 0; i < b->front_slots && st == BLOOM_OK; i++)
        if (b->front[i] != 0)
            st = store_hash(b, b->front[i], err);
    if (st == BLOOM_OK && b->front_zero)
        st = store_hash(b, 0, err);
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
     * values in PostgreSQL).  The partitions deduplicate on their own. */
    bool bypass = b->front_hits < b->front_used;
    b->front_hits = 0;
    bloom_status st = spill(b, err);
    b->bypass = st == BLOOM_OK && bypass; /* with the store there to take them */
    return st;
}

/* Appends the hashes that bypassed the front, a batch at a time: the
 * partitions' cache lines are then touched in a burst, not between the
 * host's per-row work (4 ns a row less inside PostgreSQL). */
static bloom_status flush_pending(bloom_builder *b, bloom_error *err)
{
    store *s = b->store;
    unsigned n = s ? s->npending : 0;
    bloom_status st = BLOOM_OK;
    if (s != NULL)
        s->npending = 0;
    for (unsigned i = 0; i < n && st == BLOOM_OK; i++)
        st = store_hash(b, s->pending[i], err);
    return st;
}

bloom_status bloom_builder_add_hash(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    b->sized = false;
    if (b->bypass) {
        store *s = b->store;
        s->pending[s->npending++] = hash;
        return s->npending < PENDING ? BLOOM_OK : flush_pending(b, err);
    }
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
    /* Two slots at once: at most half full, that settles most lookups
     * without the branch on each slot, which a repeat-heavy column
     * mispredicts often. */
    uint64_t first = b->front[i], second = b->front[(i + 1) & mask];
    if ((first == hash) | (second == hash)) {
        b->front_hits++;
        return BLOOM_OK;
    }
    if (first != 0) {
        i = (i + 1) & mask;
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
    }
    b->front[i] = hash;
    if (++b->front_used * 2 > b->front_slots)
        return front_full(b, err);
    return BLOOM_OK;
}

/* Everything deduplicated: the front is a set, and the partitions (if the
 * front ever spilled, it is spilled again) are each sorted and distinct. */
static bloom_status settle(bloom_builder *b, bloom_error *err)
{
    if (b->store == NULL)
        return BLOOM_OK;
    bloom_status st = flush_pending(b, err);
    if (st == BLOOM_OK && (b->front_used || b->front_zero))
        st = spill(b, err);
    for (unsigned i = 0; i < NPARTS && st == BLOOM_OK; i++)
        st = part_dedup(b, &b->store->parts[i], err);
    return st;
}

static uint64_t stored_count(const bloom_builder *b)
{
    uint64_t n = b->front_used + b->front_zero;
    for (unsigned i = 0; b->store && i < NPARTS; i++)
        n += part_count(&b->store->parts[i]);
    return n;
}

/* Calls visit on every stored hash, in batches: the front's (distinct) and
 * the partitions' (distinct after settle). */
typedef bloom_status (*batch_visitor)(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err);

static bloom_status visit_all(const bloom_builder *b, batch_visitor visit, void *ctx, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    if (b->store && b->store->npending > 0)
        st = visit(ctx, b->store->pending, b->store->npending, err);
    for (unsigned i = 0; b->store && i < NPARTS && st == BLOOM_OK; i++) {
        const part *p = &b->store->parts[i];
        for (const chunk *c = p->first; c != NULL && st == BLOOM_OK; c = c->next)
            st = visit(ctx, c->hashes, chunk_length(p, c), err);
    }
    for (size_t i = 0; i < b->front_slots && st == BLOOM_OK; i++)
        if (b->front[i] != 0)
            st = visit(ctx, &b->front[i], 1, err);
    if (st == BLOOM_OK && b->front_zero) {
        static const uint64_t zero = 0;
        st = visit(ctx, &zero, 1, err);
    }
    return st;
}

static bloom_status add_to_builder(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    for (size_t i = 0; i < n && st == BLOOM_OK; i++)
        st = bloom_builder_add_hash(ctx, hashes[i], err);
    return st;
}

bloom_status bloom_builder_merge(bloom_builder *dst, const bloom_builder *src, bloom_error *err)
{
    if (dst->layout != src->layout || dst->fpr != src->fpr || dst->seed != src->seed)
        return bloom_fail(err, BLOOM_E_MISMATCH,
                          "left builder has layout %s, fpr %g, seed %" PRIu64
                          "; right has layout %s, fpr %g, seed %" PRIu64,
                          bloom_layout_name(dst->layout), dst->fpr, dst->seed,
                          bloom_layout_name(src->layout), src->fpr, src->seed);
    bloom_status st = visit_all(src, add_to_builder, dst, err);
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

typedef struct hash_writer {
    uint8_t *at;
} hash_writer;

static bloom_status write_hashes(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    hash_writer *w = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++, w->at += 8)
        store_le64(w->at, hashes[i]);
    return BLOOM_OK;
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
    uint64_t count = stored_count(b);
    if (b->store == NULL && count > 0) {
        /* only the front: sort it, so a state is a function of the set */
        st = reserve_scratch(b, 2 * count * 8, err);
        if (st != BLOOM_OK)
            return st;
        uint64_t *sorted = b->scratch;
        size_t n = 0;
        for (size_t i = 0; i < b->front_slots; i++)
            if (b->front[i] != 0)
                sorted[n++] = b->front[i];
        if (b->front_zero)
            sorted[n++] = 0;
        sort_unique(sorted, sorted + n, n);
    }
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
    store_le64(p + 24, count);
    hash_writer w = {p + STATE_HEADER_SIZE};
    /* partitions are by top byte and each is sorted: the concatenation is */
    if (b->store != NULL)
        visit_all(b, write_hashes, &w, err);
    else
        write_hashes(&w, b->scratch, (size_t)count, err);
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
    for (size_t i = 0; i < count && st == BLOOM_OK; i++)
        st = bloom_builder_add_hash(b, load_le64(hashes + 8 * i), err);
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

static bloom_status add_to_filter(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    (void)err;
    bloom_add_hashes(ctx, hashes, n);
    return BLOOM_OK;
}

static void add_all(const bloom_builder *b, bloom_filter *f)
{
    visit_all(b, add_to_filter, f, NULL);
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
