/*
 * layout_classic.c - layout 0: k probes anywhere in m bits, derived from one
 * 64-bit hash by enhanced double hashing in 64-bit arithmetic, each mapped
 * onto [0, m) by a multiply-high (docs/FORMAT.md "Classic layout").
 */
#include "internal.h"

#include <math.h>

/* floor(a * b / 2^64): maps a uniform 64-bit value onto [0, b) without a
 * division (Lemire's multiply-shift). */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)a * b) >> 64);
#else
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* The second hash of enhanced double hashing: MurmurHash3's 64-bit
 * finalizer, a bijection, so it is as well spread as the first. */
static inline uint64_t second_hash(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    h ^= h >> 33;
    return h;
}

/* From value i of a hash's progression (x: the value, starting at the
 * hash; y: the step, starting at its second hash) to value i + 1:
 * docs/FORMAT.md "Classic layout". */
static inline void progression_step(uint64_t *x, uint64_t *y, unsigned i)
{
    *x += *y;
    *y += i + 1;
}

static inline void set_bit(uint8_t *bits, uint64_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static inline unsigned test_bit(const uint8_t *bits, uint64_t i)
{
    return (bits[i >> 3] >> (i & 7)) & 1u;
}

/* The probe loops are written once, for a k the compiler knows where it
 * can: specialised for the usual k (fpr 0.5 down to 0.0001) they unroll
 * completely, which saves about a third of the instructions of a probe
 * (asked for explicitly: gcc -O2 kept a loop for k = 7). */
#if defined(__GNUC__) && !defined(__clang__) /* clang unrolls them unasked */
#define UNROLL _Pragma("GCC unroll 16")
#else
#define UNROLL
#endif
static inline __attribute__((always_inline)) void add_k(bloom_filter *f, uint64_t hash, unsigned k)
{
    uint64_t x = hash, y = second_hash(hash), m = f->nbits;
    UNROLL
    for (unsigned i = 0; i < k; i++) {
        set_bit(f->bits, mulhi64(x, m));
        progression_step(&x, &y, i);
    }
}

/* In cache, no early exit: for absent values (most probes of a Bloom join)
 * the exit point is random and its mispredicted branch costs more than the
 * loads it saves (in L3 too; bench-core probes filters of every size).  Out
 * of every cache each load is a miss to memory, and stopping at the
 * first clear bit (after two probes on average) saves the other misses. */
enum { EARLY_EXIT_BYTES = 64 << 20 }; /* beyond any last-level cache here */

static inline __attribute__((always_inline)) bool contains_k(const bloom_filter *f, uint64_t hash,
                                                             unsigned k)
{
    uint64_t x = hash, y = second_hash(hash), m = f->nbits;
    if (f->nbytes > EARLY_EXIT_BYTES) {
        for (unsigned i = 0; i < k; i++) {
            if (!test_bit(f->bits, mulhi64(x, m)))
                return false;
            progression_step(&x, &y, i);
        }
        return true;
    }
    unsigned all = 1;
    UNROLL
    for (unsigned i = 0; i < k; i++) {
        all &= test_bit(f->bits, mulhi64(x, m));
        progression_step(&x, &y, i);
    }
    return all;
}

/* call(k) is a whole statement that returns: a void function may not return
 * a void expression in ISO C, so `add` and `contains` spell their own return. */
#define SPECIALISE(call, k)                                                                  \
    switch (k) {                                                                             \
    case 1: call(1);                                                                         \
    case 2: call(2);                                                                         \
    case 3: call(3);                                                                         \
    case 4: call(4);                                                                         \
    case 5: call(5);                                                                         \
    case 6: call(6);                                                                         \
    case 7: call(7);                                                                         \
    case 8: call(8);                                                                         \
    case 9: call(9);                                                                         \
    case 10: call(10);                                                                       \
    case 11: call(11);                                                                       \
    case 12: call(12);                                                                       \
    case 13: call(13);                                                                       \
    default: call(k);                                                                        \
    }

void classic_add(bloom_filter *f, uint64_t hash)
{
#define ADD(k) add_k(f, hash, k); return
    SPECIALISE(ADD, f->nhashes)
#undef ADD
}

bool classic_contains(const bloom_filter *f, uint64_t hash)
{
#define CONTAINS(k) return contains_k(f, hash, k)
    SPECIALISE(CONTAINS, f->nhashes)
#undef CONTAINS
}

/* The k values of a hash's double-hashing progression, written out for a k
 * the compiler knows; position i is floor(out[i] m / 2^64). */
static inline __attribute__((always_inline)) void progression_k(uint64_t hash, unsigned k,
                                                                uint64_t *out)
{
    uint64_t x = hash, y = second_hash(hash);
    UNROLL
    for (unsigned i = 0; i < k; i++) {
        out[i] = x;
        progression_step(&x, &y, i);
    }
}

/* The k bit positions of a hash. */
static inline __attribute__((always_inline)) void positions_k(uint64_t hash, uint64_t m, unsigned k,
                                                              uint64_t *out)
{
    progression_k(hash, k, out);
    UNROLL
    for (unsigned i = 0; i < k; i++)
        out[i] = mulhi64(out[i], m);
}

/* A filter larger than the cache costs a miss per bit set: the positions of
 * hash j + AHEAD are computed and fetched while hash j's bits are set, so
 * about AHEAD hashes' misses are in flight all the time (computing a batch
 * of 8, then setting it, kept fewer in flight, and was slower: bench-core's
 * inserts).  Fetched into L1 (prefetcht0): a set reads the
 * byte first, and the write hint without -mprfchw only reaches L2. */
enum { AHEAD = 8 };

static inline __attribute__((always_inline)) void add_many_k(bloom_filter *f, const uint64_t *hashes,
                                                             size_t n, unsigned k)
{
    uint64_t ring[AHEAD][BLOOM_MAX_NHASHES];
    const uint64_t m = f->nbits;
    for (size_t j = 0; j < n + AHEAD; j++) {
        uint64_t *slot = ring[j % AHEAD];
        if (j >= AHEAD) /* hash j - AHEAD, fetched AHEAD hashes ago */
            for (unsigned i = 0; i < k; i++)
                set_bit(f->bits, slot[i]);
        if (j < n) {
            positions_k(hashes[j], m, k, slot);
            for (unsigned i = 0; i < k; i++)
                BLOOM_PREFETCH_READ(f->bits + (slot[i] >> 3));
        }
    }
}

void classic_add_many(bloom_filter *f, const uint64_t *hashes, size_t n)
{
#define ADD_MANY(k) add_many_k(f, hashes, n, k); return
    SPECIALISE(ADD_MANY, f->nhashes)
#undef ADD_MANY
}

bool classic_regions_fit(const bloom_filter *f)
{
    uint64_t regions = f->nbits >> CLASSIC_REGION_BITS;
    return f->layout == BLOOM_LAYOUT_CLASSIC && (f->nbits & (f->nbits - 1)) == 0 &&
           regions >= CLASSIC_REGIONS_MIN && regions <= CLASSIC_REGIONS_MAX;
}

/* Where region r's bucket begins (its offsets run from here to r->end). */
static inline uint32_t *bucket_start(const classic_regions *r, uint64_t region)
{
    return r->slots + region * CLASSIC_REGION_STRIDE;
}

void classic_regions_start(const bloom_filter *f, classic_regions *r, uint32_t *slots)
{
    r->slots = slots;
    for (uint64_t region = 0; region < (f->nbits >> CLASSIC_REGION_BITS); region++)
        r->end[region] = bucket_start(r, region);
}

static void set_region(bloom_filter *f, classic_regions *r, uint64_t region)
{
    /* locals: the stores go through bytes, which may alias anything, so
     * the count and the pointers would be read again after each */
    uint8_t *const base = f->bits + (region << CLASSIC_REGION_BITS >> 3);
    uint32_t *const start = bucket_start(r, region);
    const uint32_t *const end = r->end[region];
    for (const uint32_t *o = start; o < end; o++) {
        uint8_t *word = base + 8 * (*o >> 6);
        store_le64(word, load_le64(word) | (uint64_t)1 << (*o & 63));
    }
    r->end[region] = start;
}

static inline __attribute__((always_inline)) void add_by_region_k(bloom_filter *f,
                                                                  classic_regions *r,
                                                                  const uint64_t *hashes,
                                                                  size_t n, unsigned k)
{
    /* m a power of two: floor(x m / 2^64) is x's top bits, a shift (the
     * multiply-high's 128-bit product held up the loop) */
    const unsigned shift = 64 - (unsigned)__builtin_ctzll(f->nbits);
    const uint64_t offset_mask = ((uint64_t)1 << CLASSIC_REGION_BITS) - 1;
    const uint64_t regions = f->nbits >> CLASSIC_REGION_BITS;
    /* a run of `chunk` hashes adds at most chunk k offsets to a bucket:
     * buckets that could overflow are emptied between runs, not checked at
     * each add */
    const size_t chunk = CLASSIC_REGION_SLOTS / 8 / k;
    uint64_t xs[BLOOM_MAX_NHASHES];
    for (size_t from = 0; from < n; from += chunk) {
        for (uint64_t region = 0; region < regions; region++)
            if (r->end[region] - bucket_start(r, region) > CLASSIC_REGION_SLOTS - (ptrdiff_t)(chunk * k))
                set_region(f, r, region);
        size_t to = n - from < chunk ? n : from + chunk;
        for (size_t j = from; j < to; j++) {
            progression_k(hashes[j], k, xs);
            set_bit(f->bits, xs[0] >> shift); /* in the partition's part of the filter */
            UNROLL
            for (unsigned i = 1; i < k; i++) {
                uint64_t pos = xs[i] >> shift;
                uint32_t *at = r->end[pos >> CLASSIC_REGION_BITS];
                /* the bucket's line two ahead: with 32-256 buckets written
                 * at random, a store whose line is not there holds up the
                 * stores behind it */
                BLOOM_PREFETCH_WRITE(at + 32);
                *at = (uint32_t)(pos & offset_mask);
                r->end[pos >> CLASSIC_REGION_BITS] = at + 1;
            }
        }
    }
}

void classic_add_by_region(bloom_filter *f, classic_regions *r, const uint64_t *hashes, size_t n)
{
#define ADD_BY_REGION(k) add_by_region_k(f, r, hashes, n, k); return
    SPECIALISE(ADD_BY_REGION, f->nhashes)
#undef ADD_BY_REGION
}

void classic_regions_flush(bloom_filter *f, classic_regions *r)
{
    for (uint64_t region = 0; region < (f->nbits >> CLASSIC_REGION_BITS); region++)
        set_region(f, r, region);
}

void classic_probe_bits(const bloom_filter *f, uint64_t hash, uint64_t *bits)
{
    positions_k(hash, f->nbits, f->nhashes, bits);
}

/* The probes of a batch, in two passes.  Most probes of a join's filter are
 * of absent keys, and an absent key's first two bits are both set with
 * probability fill^2 (about 1/6 at the filter's capacity): the first pass
 * tests those two for every hash, the second the other k - 2 for the hashes
 * left.  A miss then fetches about 2.9 lines instead of k.  In each pass the
 * lines of the probe DISTANCE ahead are prefetched while one is tested, so
 * about DISTANCE misses are in flight instead of one. */
enum { DISTANCE = 8, FIRST = 2, PASS_HASHES = 256, CACHED_BYTES = 1 << 20 };

/* Positions 0 and 1 of positions_k, their lines asked for. */
static inline void first_positions(const bloom_filter *f, uint64_t hash, uint64_t *pos)
{
    pos[0] = mulhi64(hash, f->nbits);
    pos[1] = mulhi64(hash + second_hash(hash), f->nbits);
    BLOOM_PREFETCH_READ(f->bits + (pos[0] >> 3));
    BLOOM_PREFETCH_READ(f->bits + (pos[1] >> 3));
}

static inline void rest_positions(const bloom_filter *f, uint64_t hash, uint64_t *pos)
{
    positions_k(hash, f->nbits, f->nhashes, pos);
    for (unsigned i = FIRST; i < f->nhashes; i++)
        BLOOM_PREFETCH_READ(f->bits + (pos[i] >> 3));
}

/* Probes hashes[0, n), n <= PASS_HASHES, with k >= FIRST. */
static void contains_pass(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    uint64_t ring[DISTANCE][BLOOM_MAX_NHASHES];
    uint16_t left[PASS_HASHES];
    size_t nleft = 0, ahead = n < DISTANCE ? n : DISTANCE;
    for (size_t j = 0; j < ahead; j++)
        first_positions(f, hashes[j], ring[j]);
    for (size_t j = 0; j < n; j++) {
        uint64_t *slot = ring[j % DISTANCE];
        unsigned both = test_bit(f->bits, slot[0]) & test_bit(f->bits, slot[1]);
        out[j] = false;
        left[nleft] = (uint16_t)j; /* kept only if both are set: no branch */
        nleft += both;
        if (j + DISTANCE < n)
            first_positions(f, hashes[j + DISTANCE], slot);
    }
    ahead = nleft < DISTANCE ? nleft : DISTANCE;
    for (size_t j = 0; j < ahead; j++)
        rest_positions(f, hashes[left[j]], ring[j]);
    for (size_t j = 0; j < nleft; j++) {
        uint64_t *slot = ring[j % DISTANCE];
        unsigned all = 1;
        for (unsigned i = FIRST; i < f->nhashes; i++)
            all &= test_bit(f->bits, slot[i]);
        out[left[j]] = all != 0;
        if (j + DISTANCE < nleft)
            rest_positions(f, hashes[left[j + DISTANCE]], slot);
    }
}

/* The same two passes over a filter in the cache, where a prefetch and its
 * ring only cost instructions: the CPU overlaps the loads of neighbouring
 * hashes by itself. */
static void contains_pass_cached(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    uint16_t left[PASS_HASHES];
    uint64_t second[PASS_HASHES]; /* hash j's second hash, kept for the second pass */
    size_t nleft = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t x = hashes[j], y = second_hash(x);
        unsigned both = test_bit(f->bits, mulhi64(x, f->nbits)) & test_bit(f->bits, mulhi64(x + y, f->nbits));
        out[j] = false;
        left[nleft] = (uint16_t)j;
        second[nleft] = y;
        nleft += both;
    }
    for (size_t j = 0; j < nleft; j++) {
        /* the progression again from the kept second hash, to value FIRST */
        uint64_t x = hashes[left[j]], y = second[j];
        for (unsigned i = 0; i < FIRST; i++)
            progression_step(&x, &y, i);
        unsigned all = 1;
        for (unsigned i = FIRST; i < f->nhashes; i++) {
            all &= test_bit(f->bits, mulhi64(x, f->nbits));
            progression_step(&x, &y, i);
        }
        out[left[j]] = all != 0;
    }
}

void classic_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    if (f->nhashes < FIRST) {
        for (size_t j = 0; j < n; j++)
            out[j] = classic_contains(f, hashes[j]);
        return;
    }
    void (*pass)(const bloom_filter *, const uint64_t *, size_t, bool *) =
        f->nbytes <= CACHED_BYTES ? contains_pass_cached : contains_pass;
    for (size_t from = 0; from < n; from += PASS_HASHES)
        pass(f, hashes + from, n - from < PASS_HASHES ? n - from : PASS_HASHES, out + from);
}

double classic_estimate_fpr(const bloom_filter *f)
{
    double fill = (double)popcount_bytes(f->bits, f->nbytes) / (double)f->nbits;
    return pow(fill, f->nhashes);
}
