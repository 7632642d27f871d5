/*
 * builder_sizing.c - the builder's final size: the formula's size class
 * (sizing.c), checked by trial at small counts, where one filter's rate
 * strays from the model's; a trial that fails moves up one class, so the
 * result still combines with every filter sized for the same rate.
 */
#include "builder_internal.h"

#include <math.h>

enum {
    /* Up to this many distinct values, candidate sizes are built and their
     * actual false-positive rate checked; above it, the rate is within a
     * percent of the model's and one build suffices. */
    VERIFY_LIMIT = 1 << 16
};

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
    double model = bloom_estimate_fpr(f);
    if (model > fpr)
        return false;
    /* Far below the target the progression's term cannot lift the rate
     * over it (mean measured rate at most 0.67 fpr, 1..12 values, make
     * bench-compose): most groups of a GROUP BY skip the 4,096 probes. */
    if ((double)f->nbits * sqrt(fpr) >= 16 || model <= fpr / 4)
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

bloom_status builder_choose_size(bloom_builder *b, bloom_error *err)
{
    uint64_t nbits, n = builder_stored_count(b);
    unsigned nhashes;
    if (b->layout == BLOOM_LAYOUT_SCALABLE) {
        /* a first stage sized for the distinct count, free to grow later */
        size_t size;
        bloom_status st = bloom_empty_size(BLOOM_LAYOUT_SCALABLE, (int64_t)(n ? n : 1), b->fpr,
                                           b->max_bytes, &size, err);
        if (st != BLOOM_OK)
            return st;
        b->nbits = n ? n : 1;
        b->nhashes = 0;
        b->result_bytes = size;
        builder_mark_sized(b);
        return BLOOM_OK;
    }
    /* a counting filter has its counters where the classic filter of the
     * same set has its bits: sized as that classic filter, whose candidates
     * are a quarter of the memory */
    int layout = b->layout == BLOOM_LAYOUT_COUNTING ? BLOOM_LAYOUT_CLASSIC : b->layout;
    bloom_status st = bloom_params_for_capacity(layout, n ? n : 1, b->fpr, &nbits, &nhashes, err);
    if (st != BLOOM_OK)
        return st;
    /* the host's limit before any candidate is allocated: a rate of 1e-18
     * in the blocked layout asks for gigabytes for a few values */
    st = bloom_check_host_size(bloom_layout_size(b->layout, nbits), b->max_bytes, err);
    if (st != BLOOM_OK)
        return st;
    if (n <= VERIFY_LIMIT) {
        /* At small counts one filter's rate strays from the model's; try
         * the next class (twice as large) until the rate of the bits
         * themselves fits, while it stays within 2.2 times the optimum
         * (-n ln p / ln^2 2 bits), or 128 bits, which a 32-byte header
         * dwarfs anyway. */
        double optimum = -(double)(n ? n : 1) * log(b->fpr) / (log(2.0) * log(2.0));
        double limit = fmax(2.2 * optimum, 128);
        for (;;) {
            size_t size = bloom_serialized_size(nbits);
            void *buf = builder_allocate(b, size);
            if (buf == NULL)
                return bloom_fail(err, BLOOM_E_NOMEM, "out of memory sizing a filter");
            bloom_filter f;
            st = bloom_init(buf, size, layout, nbits, nhashes, b->seed, &f, err);
            if (st == BLOOM_OK)
                builder_add_all(b, &f);
            bool fits = st == BLOOM_OK && candidate_fits(&f, b->fpr);
            builder_release(b, buf);
            if (st != BLOOM_OK)
                return st;
            if (fits || (double)nbits * 2 > limit || nbits * 2 > BLOOM_MAX_NBITS ||
                bloom_layout_size(b->layout, nbits * 2) == 0 ||
                bloom_check_host_size(bloom_layout_size(b->layout, nbits * 2), b->max_bytes,
                                      NULL) != BLOOM_OK)
                break;
            builder_check_interrupts(b);
            nbits *= 2;
        }
    }
    b->nbits = nbits;
    b->nhashes = nhashes;
    b->result_bytes = bloom_layout_size(b->layout, nbits);
    builder_mark_sized(b);
    return BLOOM_OK;
}

/*
 * The final pass over the partitions' tails is there to count: a filter
 * gets the same bits from a hash added twice (classic and blocked; a
 * counting filter would count it twice).  The partitions are disjoint, so
 * their lower bounds add up to one on the distinct count, and every hash
 * held (tails, front) is an upper bound.  Both ends in one size class fix
 * the count's class too (the class grows with the count), so the size is
 * known without the pass, a sizeable part of a bloom_agg of many distinct
 * values, from bounds that cost far less (bench-core).  Only past the
 * trial sizes, and while the hashes held exceed the lower bound by at most
 * an eighth, so that the finish adds few hashes twice.
 */
bool builder_size_from_bounds(bloom_builder *b)
{
    if ((b->layout != BLOOM_LAYOUT_CLASSIC && b->layout != BLOOM_LAYOUT_BLOCKED) ||
        b->store == NULL)
        return false;
    uint64_t upper = builder_stored_count(b), nbits_upper, nbits_lower;
    unsigned k_upper, k_lower;
    if (upper <= VERIFY_LIMIT ||
        bloom_params_for_capacity(b->layout, upper, b->fpr, &nbits_upper, &k_upper, NULL) !=
            BLOOM_OK ||
        bloom_check_host_size(bloom_layout_size(b->layout, nbits_upper), b->max_bytes, NULL) !=
            BLOOM_OK)
        return false;
    size_t largest = 0;
    for (unsigned i = 0; i < NPARTS; i++)
        if (part_count(&b->store->parts[i]) > largest)
            largest = part_count(&b->store->parts[i]);
    size_t words = distinct_bitmap_words(largest);
    if (builder_reserve_scratch(b, words * 8, NULL) != BLOOM_OK)
        return false;
    /* Hashes spread evenly over the partitions: when the first sixteenth
     * already holds more repeats than the bound allows, so does the rest,
     * and the pass settles them anyway. */
    uint64_t lower = 0, held = 0;
    for (unsigned i = 0; i < NPARTS; i++) {
        builder_check_interrupts(b);
        lower += part_distinct_at_least(&b->store->parts[i], b->scratch, words);
        held += part_count(&b->store->parts[i]);
        if (i + 1 == NPARTS / 16 && held - lower > lower / 8)
            return false;
    }
    if (lower <= VERIFY_LIMIT || upper - lower > lower / 8 ||
        bloom_params_for_capacity(b->layout, lower, b->fpr, &nbits_lower, &k_lower, NULL) !=
            BLOOM_OK ||
        nbits_lower != nbits_upper || k_lower != k_upper)
        return false;
    b->nbits = nbits_upper;
    b->nhashes = k_upper;
    b->result_bytes = bloom_layout_size(b->layout, nbits_upper);
    builder_mark_sized(b);
    return true;
}
