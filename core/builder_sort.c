/*
 * builder_sort.c - sorting, deduplicating and merging the builder's hashes.
 *
 * A partition (builder_store.c) is a sorted, distinct prefix and a tail of
 * appended hashes.  A dedup pass sorts the tail (spread into L1-sized
 * buckets, a counting sort each) and merges it into the prefix; after a
 * pass that found mostly repeats, the tail's known hashes are first
 * dropped by lookup in the prefix.
 */
#include "builder_internal.h"

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

size_t sort_unique(uint64_t *a, uint64_t *tmp, size_t n)
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

/* ---- a partition's dedup pass ---- */

enum { PROBE_WIDTH = 4 }; /* hashes of the prefix compared per probe, without a branch
                              (filter_known writes the four out) */

/* The index over the prefix: index[k] is where the prefix's hashes whose
 * next `bits` bits are k begin.  Returns bits. */
static unsigned index_prefix(unsigned skip, const uint64_t *pre, size_t np, uint32_t *index)
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
    return bits;
}

/* The lookup of each tail hash v.  Where the index narrows it to at most
 * PROBE_WIDTH hashes, the four are compared without the bucket's length
 * (gcc kept a loop, a third of a pass's time at 10^5 distinct values among
 * 10^7 rows): a hash past the bucket is in another bucket, so differs from
 * v in the index bits, and the zeros past np are read only for the last
 * buckets, whose v is not 0 (the first bucket starts at 0 and np >=
 * PROBE_WIDTH).  KNOWN4(q, v) compares v with q[0..3]. */
#define FILTER_KNOWN_LOOP(KNOWN4)                                                                  \
    do {                                                                                           \
        while ((len = part_reader_next(r, &h, SIZE_MAX)) > 0) {                                    \
            for (size_t i = 0; i < len; i++) {                                                     \
                uint64_t v = h[i];                                                                 \
                size_t k = (size_t)((v << skip) >> shift), from = index[k], to = index[k + 1];     \
                bool known = false;                                                                \
                if (to - from <= PROBE_WIDTH) {                                                    \
                    known = KNOWN4(pre + from, v);                                                 \
                } else {                                                                           \
                    for (size_t j = from; j < to; j++)                                             \
                        known |= pre[j] == v;                                                      \
                }                                                                                  \
                out[m] = v;                                                                        \
                m += !known;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define KNOWN4_SCALAR(q, v) (((q)[0] == (v)) | ((q)[1] == (v)) | ((q)[2] == (v)) | ((q)[3] == (v)))

static size_t filter_known_portable(part_reader *r, unsigned skip, unsigned shift,
                                    const uint64_t *pre, const uint32_t *index, uint64_t *out)
{
    size_t m = 0, len;
    const uint64_t *h;
    FILTER_KNOWN_LOOP(KNOWN4_SCALAR);
    return m;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BLOOM_PORTABLE)
#include <immintrin.h>

/* The four compares as one (and the index's shifts without the count in
 * cl): a third of the lookup's instructions */
#define KNOWN4_AVX2(q, v)                                                                          \
    (_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(                                    \
         _mm256_loadu_si256((const __m256i *)(const void *)(q)), _mm256_set1_epi64x((long long)(v))))) != 0)

__attribute__((target("avx2,bmi2"))) static size_t filter_known_avx2(part_reader *r, unsigned skip,
                                                                      unsigned shift,
                                                                      const uint64_t *pre,
                                                                      const uint32_t *index,
                                                                      uint64_t *out)
{
    size_t m = 0, len;
    const uint64_t *h;
    FILTER_KNOWN_LOOP(KNOWN4_AVX2);
    return m;
}

static bool wide_lookup(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
}
#else
#define filter_known_avx2 filter_known_portable
static bool wide_lookup(void)
{
    return false;
}
#endif

/* Copies the tail's hashes that are not in the sorted, distinct prefix
 * pre[0, np) into out; returns how many.  An index by the hashes' next
 * bits narrows each lookup to a slot or two of the prefix (pre has
 * PROBE_WIDTH readable slots past np). */
static size_t filter_known(part_reader *r, unsigned skip, const uint64_t *pre, size_t np,
                           uint32_t *index, uint64_t *out)
{
    unsigned shift = 64 - index_prefix(skip, pre, np, index);
    return wide_lookup() ? filter_known_avx2(r, skip, shift, pre, index, out)
                         : filter_known_portable(r, skip, shift, pre, index, out);
}

/* The scratch of step 1 when the tail's known hashes are dropped by
 * lookup, in order:
 *   raw[tail]                    the tail's new hashes (what step 1 returns)
 *   prefix[prefix + PROBE_WIDTH] the prefix, then zeros a probe may read
 *   index                        up to 2 prefix + 1 counts of 32 bits, in
 *                                prefix + 2 words */
typedef struct lookup_scratch {
    uint64_t *raw, *prefix;
    uint32_t *index;
} lookup_scratch;

static size_t lookup_scratch_words(size_t tail, size_t prefix)
{
    return tail + (prefix + PROBE_WIDTH) + (prefix + 2);
}

static lookup_scratch lay_out_lookup(uint64_t *scratch, size_t tail, size_t prefix)
{
    lookup_scratch s;
    s.raw = scratch;
    s.prefix = s.raw + tail;
    s.index = (uint32_t *)(s.prefix + prefix + PROBE_WIDTH);
    return s;
}

/* Step 1 by lookup: the prefix copied beside the tail, and the tail's
 * hashes not in it into raw; returns how many. */
static size_t drop_known(const part *p, size_t prefix, unsigned skip, const lookup_scratch *s)
{
    part_reader r;
    const uint64_t *h;
    size_t len, got = 0;
    for (part_reader_start(&r, p, 0); got < prefix && (len = part_reader_next(&r, &h, prefix - got)) > 0; got += len)
        memcpy(s->prefix + got, h, len * 8);
    memset(s->prefix + prefix, 0, PROBE_WIDTH * 8);
    return filter_known(&r, skip, s->prefix, prefix, s->index, s->raw);
}

/* Step 1 as read: the tail copied to raw; returns its length. */
static size_t copy_tail(const part *p, size_t prefix, uint64_t *raw)
{
    part_reader r;
    const uint64_t *h;
    size_t len, got = 0;
    for (part_reader_start(&r, p, prefix); (len = part_reader_next(&r, &h, SIZE_MAX)) > 0; got += len)
        memcpy(raw + got, h, len * 8);
    return got;
}

/* Step 1: the tail, as read or as left by the lookup (after a pass that
 * found mostly repeats), at the start of the scratch; its length in *m. */
static bloom_status gather_tail(bloom_builder *b, const part *p, unsigned skip, size_t *m,
                                bloom_error *err)
{
    const size_t prefix = p->settled, tail = part_count(p) - prefix;
    const bool lookup = p->repeats && prefix >= 32;
    size_t words = lookup ? lookup_scratch_words(tail, prefix) : tail;
    bloom_status st = builder_reserve_scratch(b, words * 8, err);
    if (st != BLOOM_OK)
        return st;
    if (lookup) {
        const lookup_scratch s = lay_out_lookup(b->scratch, tail, prefix);
        *m = drop_known(p, prefix, skip, &s);
    } else {
        *m = copy_tail(p, prefix, b->scratch);
    }
    return BLOOM_OK;
}

/* How the tail is spread by its next bits: into buckets of about
 * DEDUP_BUCKET hashes, so each bucket's sort stays in L1 however large the
 * partition grows. */
typedef struct bucket_plan {
    unsigned bits; /* 0: one bucket, no spread */
    size_t count;
    size_t largest; /* hashes in the largest bucket */
} bucket_plan;

/* Step 2: the buckets, and their sizes into sizes[0, count). */
static bucket_plan plan_buckets(const uint64_t *raw, size_t m, unsigned skip, size_t *sizes)
{
    bucket_plan plan = {0, 1, m};
    while (((size_t)DEDUP_BUCKET << plan.bits) < m && plan.bits < DEDUP_BUCKET_BITS)
        plan.bits++;
    plan.count = (size_t)1 << plan.bits;
    if (plan.bits > 0) {
        const unsigned shift = 64 - plan.bits;
        memset(sizes, 0, plan.count * sizeof *sizes);
        for (size_t i = 0; i < m; i++)
            sizes[(raw[i] << skip) >> shift]++;
        plan.largest = 0;
        for (size_t k = 0; k < plan.count; k++)
            plan.largest = sizes[k] > plan.largest ? sizes[k] : plan.largest;
    }
    return plan;
}

/* The scratch of the sort and merge, in order:
 *   raw[m]            the tail from step 1
 *   spread[m]         raw spread into buckets (none for one bucket: raw)
 *   work[largest]     one bucket's counting sort
 *   counts            4 largest + 4 counts of 32 bits, 2 largest + 2 words
 *   merged[n]         the prefix and the sorted tail, merged
 * The sorted, distinct tail ends at the start of spread. */
typedef struct dedup_scratch {
    uint64_t *raw, *spread, *work, *merged;
    uint32_t *counts;
} dedup_scratch;

/* Step 3: room for the above, keeping raw. */
static bloom_status lay_out_scratch(bloom_builder *b, size_t m, const bucket_plan *plan, size_t n,
                                    dedup_scratch *s, bloom_error *err)
{
    const size_t largest = plan->largest;
    size_t words = m + (plan->bits > 0 ? m : 0) + largest + (2 * largest + 2) + n;
    bloom_status st = builder_reserve_scratch_keeping(b, words * 8, m * 8, err);
    if (st != BLOOM_OK)
        return st;
    s->raw = b->scratch;
    s->spread = plan->bits > 0 ? s->raw + m : s->raw;
    s->work = s->spread + m;
    s->counts = (uint32_t *)(s->work + largest);
    s->merged = s->work + largest + (2 * largest + 2);
    return BLOOM_OK;
}

/* Step 4: sort and deduplicate raw[0, m) (m > 0), bucket by bucket, into
 * spread; returns how many distinct hashes. */
static size_t sort_tail(const dedup_scratch *s, size_t m, unsigned skip, const bucket_plan *plan,
                        const size_t *sizes, size_t *fill)
{
    if (plan->bits == 0)
        return dedup_sorted(s->raw, m, skip, s->work, s->counts, s->raw);
    const unsigned shift = 64 - plan->bits;
    for (size_t k = 0, at = 0; k < plan->count; at += sizes[k++])
        fill[k] = at;
    for (size_t i = 0; i < m; i++)
        s->spread[fill[(s->raw[i] << skip) >> shift]++] = s->raw[i];
    size_t t = 0;
    const uint64_t *in = s->spread;
    for (size_t k = 0; k < plan->count; in += sizes[k++])
        if (sizes[k] > 0)
            t += dedup_sorted(in, sizes[k], skip + plan->bits, s->work, s->counts, s->spread + t);
    return t;
}

/* Step 5: merge the partition's prefix of `prefix` hashes with
 * tail[0, t) into merged; returns the length.  Branch-free: the prefix's
 * hashes are distinct, and so are the tail's; one in both is written once. */
static size_t merge_prefix(const part *p, size_t prefix, const uint64_t *tail, size_t t,
                           uint64_t *merged)
{
    part_reader r;
    const uint64_t *h;
    size_t u = 0, j = 0, len;
    part_reader_start(&r, p, 0);
    for (size_t left = prefix; left > 0 && (len = part_reader_next(&r, &h, left)) > 0;) {
        size_t i = 0;
        left -= len;
        while (i < len && j < t) {
            uint64_t x = h[i], y = tail[j];
            merged[u++] = x <= y ? x : y;
            i += x <= y;
            j += y <= x;
        }
        memcpy(merged + u, h + i, (len - i) * 8);
        u += len - i;
    }
    memcpy(merged + u, tail + j, (t - j) * 8);
    return u + (t - j);
}

/* Step 6: when to pass again.  Dedup again at eight times the size if the
 * tail was nearly all new, since passes over a partition that keeps growing
 * find little (the final pass covers it all anyway); at four times if it
 * was mostly repeats, since each such pass copies and indexes the whole
 * prefix to drop them (with few distinct values among many rows, passes at
 * twice the size cost time a row, and passes at eight hold more memory than
 * at four for little); else at twice.  A partition holds at most 8 times
 * its distinct hashes (about 9 when builder_store.c puts a pass off). */
static void schedule_next(part *p, size_t prefix, size_t tail, size_t u)
{
    size_t fresh = u - prefix;
    p->repeats = fresh < tail / 2;
    p->fresh = fresh >= tail - tail / 8;
    p->settled = u;
    size_t next = (p->fresh ? 8 : p->repeats ? 4 : 2) * u;
    p->dedup_at = next > DEDUP_MIN ? next : DEDUP_MIN;
}

/* Leave the partition sorted and distinct: sort and deduplicate the tail
 * appended since the last pass, then merge it into the sorted prefix; the
 * merge only streams. */
bloom_status part_dedup(bloom_builder *b, part *p, bloom_error *err)
{
    const size_t n = part_count(p), prefix = p->settled, tail = n - prefix;
    if (tail == 0)
        return BLOOM_OK;
    builder_check_interrupts(b); /* a partition's pass sorts up to 1/256 of the set */
    store *s = b->store;
    size_t m;
    bloom_status st = gather_tail(b, p, s->skip, &m, err);
    if (st != BLOOM_OK)
        return st;
    const bucket_plan plan = plan_buckets(b->scratch, m, s->skip, s->bucket_sizes);
    dedup_scratch scratch;
    st = lay_out_scratch(b, m, &plan, n, &scratch, err);
    if (st != BLOOM_OK)
        return st;
    size_t t = m > 0 ? sort_tail(&scratch, m, s->skip, &plan, s->bucket_sizes, s->bucket_fill) : 0;
    size_t u = prefix;
    if (t > 0) {
        u = merge_prefix(p, prefix, scratch.spread, t, scratch.merged);
        part_rewrite(b, p, scratch.merged, u);
    } else {
        part_truncate(b, p, prefix);
    }
    schedule_next(p, prefix, tail, u);
    return BLOOM_OK;
}
