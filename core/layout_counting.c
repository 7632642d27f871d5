/*
 * layout_counting.c - layout 2: the counting filter (Fan et al. 2000).  A
 * value takes the positions the classic layout gives it (enhanced double
 * hashing, multiply-high), and each position holds a 4-bit counter instead
 * of a bit (docs/FORMAT.md "Counting layout"):
 *
 * - adding increments the value's k counters, removing decrements them;
 * - a counter that reaches 15 is saturated: it may count more values than
 *   it can hold, so it is never decremented again, and a value can never
 *   lose a counter it still needs (no false negative);
 * - a position is set where its counter is not zero: the classic filter of
 *   the same set is that presence pattern, bit for bit.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

#define NIBBLES UINT64_C(0x1111111111111111)

/* Counter i of the presence pattern's bit i: the k positions of classic. */
static void positions(const bloom_filter *f, uint64_t hash, uint64_t *pos)
{
    classic_probe_bits(f, hash, pos);
}

void counting_add(bloom_filter *f, uint64_t hash)
{
    uint64_t pos[BLOOM_MAX_NHASHES];
    positions(f, hash, pos);
    for (unsigned i = 0; i < f->nhashes; i++) {
        unsigned c = counter_get(f->bits, pos[i]);
        if (c < BLOOM_COUNTER_MAX)
            counter_set(f->bits, pos[i], c + 1);
    }
}

bool counting_contains(const bloom_filter *f, uint64_t hash)
{
    uint64_t pos[BLOOM_MAX_NHASHES];
    positions(f, hash, pos);
    unsigned all = 1;
    for (unsigned i = 0; i < f->nhashes; i++)
        all &= counter_get(f->bits, pos[i]) != 0;
    return all != 0;
}

/* A probe reads up to k lines: the counters of hash j + DISTANCE are
 * fetched while hash j's are tested, so the misses of a filter larger than
 * the cache overlap. */
enum { DISTANCE = 8 };

void counting_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    uint64_t ring[DISTANCE][BLOOM_MAX_NHASHES];
    for (size_t j = 0; j < n + DISTANCE; j++) {
        uint64_t *slot = ring[j % DISTANCE];
        if (j >= DISTANCE) { /* hash j - DISTANCE, fetched DISTANCE hashes ago */
            unsigned all = 1;
            for (unsigned i = 0; i < f->nhashes; i++)
                all &= counter_get(f->bits, slot[i]) != 0;
            out[j - DISTANCE] = all != 0;
        }
        if (j < n) {
            positions(f, hashes[j], slot);
            /* counter i is the nibble of byte i / 2 */
            for (unsigned i = 0; i < f->nhashes; i++)
                BLOOM_PREFETCH_READ(f->bits + (slot[i] >> 1));
        }
    }
}

bloom_status bloom_check_removable(const bloom_filter *f, bloom_error *err)
{
    if (f->layout != BLOOM_LAYOUT_COUNTING)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "a %s filter has no counters: only a counting filter removes values "
                          "(bloom_empty(capacity, fpr, seed, 'counting'))",
                          bloom_layout_name(f->layout));
    return bloom_ok(err);
}

bloom_status bloom_remove_hash(bloom_filter *f, uint64_t hash, bloom_error *err)
{
    bloom_status st = bloom_check_removable(f, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t pos[BLOOM_MAX_NHASHES];
    positions(f, hash, pos);
    /* A value that was added has, at each of its positions, a counter at
     * least the number of its probes that land there (double hashing may
     * land twice on one), or a saturated one.  Anything less: it is not in
     * the filter, and decrementing would take counts other values hold. */
    for (unsigned i = 0; i < f->nhashes; i++) {
        unsigned c = counter_get(f->bits, pos[i]), times = 0;
        for (unsigned j = 0; j < f->nhashes; j++)
            times += pos[j] == pos[i];
        if (c < BLOOM_COUNTER_MAX && c < times)
            return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                              "the value is not in the filter (its counter %" PRIu64
                              " is %u): removing it would take counts that other values hold",
                              pos[i], c);
    }
    for (unsigned i = 0; i < f->nhashes; i++) {
        unsigned c = counter_get(f->bits, pos[i]);
        if (c < BLOOM_COUNTER_MAX)
            counter_set(f->bits, pos[i], c - 1);
    }
    return bloom_ok(err);
}

/* Bit j of the result: nibble j of c is not zero. */
static inline uint64_t nonzero_nibbles(uint64_t c)
{
    uint64_t t = (c | c >> 1 | c >> 2 | c >> 3) & NIBBLES; /* bit 4j */
    t = (t | t >> 3) & UINT64_C(0x0303030303030303);
    t = (t | t >> 6) & UINT64_C(0x000F000F000F000F);
    t = (t | t >> 12) & UINT64_C(0x000000FF000000FF);
    t = (t | t >> 24) & UINT64_C(0xFFFF);
    return t;
}

uint64_t counting_nonzero_count(uint64_t word)
{
    return (uint64_t)__builtin_popcountll((word | word >> 1 | word >> 2 | word >> 3) & NIBBLES);
}

uint64_t counting_presence_word(const bloom_filter *f, uint64_t w)
{
    uint64_t out = 0, words = f->nbytes / 8;
    for (unsigned q = 0; q < 4 && 4 * w + q < words; q++)
        out |= nonzero_nibbles(load_le64(f->bits + 8 * (4 * w + q))) << (16 * q);
    return out;
}

uint64_t counting_sum_word(uint64_t a, uint64_t b)
{
    uint64_t out = 0;
    for (unsigned j = 0; j < 64; j += 4) {
        unsigned s = (unsigned)(a >> j & 15) + (unsigned)(b >> j & 15);
        out |= (uint64_t)(s > BLOOM_COUNTER_MAX ? BLOOM_COUNTER_MAX : s) << j;
    }
    return out;
}

uint64_t counting_min_word(uint64_t a, uint64_t b)
{
    uint64_t out = 0;
    for (unsigned j = 0; j < 64; j += 4) {
        uint64_t x = a >> j & 15, y = b >> j & 15;
        out |= (x < y ? x : y) << j;
    }
    return out;
}

/* Counters [16 w, 16 w + 16) of src stretched by factor. */
uint64_t counting_stretch_word(const bloom_filter *src, uint64_t factor, uint64_t w)
{
    if (factor == 1)
        return load_le64(src->bits + 8 * w);
    uint64_t out = 0;
    for (unsigned j = 0; j < 16; j++) {
        uint64_t i = (16 * w + j) / factor; /* past src's end: padding, zero */
        if (i < src->nbits)
            out |= (uint64_t)counter_get(src->bits, i) << (4 * j);
    }
    return out;
}

/* Counters [16 w, 16 w + 16) of src folded by factor: each the saturating
 * sum of the factor counters it covers (those past src's end are zero). */
uint64_t counting_fold_word(const bloom_filter *src, uint64_t factor, uint64_t w)
{
    if (factor == 1)
        return load_le64(src->bits + 8 * w);
    uint64_t out = 0;
    for (unsigned j = 0; j < 16; j++) {
        uint64_t first = (16 * w + j) * factor;
        unsigned sum = 0;
        for (uint64_t i = first; i < first + factor && i < src->nbits && sum < BLOOM_COUNTER_MAX;
             i++)
            sum += counter_get(src->bits, i);
        out |= (uint64_t)(sum > BLOOM_COUNTER_MAX ? BLOOM_COUNTER_MAX : sum) << (4 * j);
    }
    return out;
}

bloom_status bloom_to_classic_size(const bloom_filter *f, size_t *size, bloom_error *err)
{
    if (f->layout != BLOOM_LAYOUT_COUNTING && f->layout != BLOOM_LAYOUT_CLASSIC)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "a %s filter has no classic form: only a counting filter (or a classic "
                          "one) converts",
                          bloom_layout_name(f->layout));
    *size = bloom_serialized_size(f->nbits);
    return bloom_ok(err);
}

bloom_status bloom_to_classic(const bloom_filter *f, void *buf, size_t len, bloom_filter *out,
                              bloom_error *err)
{
    size_t size;
    bloom_status st = bloom_to_classic_size(f, &size, err);
    if (st != BLOOM_OK)
        return st;
    bloom_filter src = *f; /* out may be f */
    st = bloom_init(buf, len, BLOOM_LAYOUT_CLASSIC, src.nbits, src.nhashes, src.seed, out, err);
    if (st != BLOOM_OK)
        return st;
    for (uint64_t w = 0; w < out->nbytes / 8; w++)
        store_le64(out->bits + 8 * w, presence_word(&src, w));
    bloom_kinds_store(out, src.kinds);
    return bloom_ok(err);
}
