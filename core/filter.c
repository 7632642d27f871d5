/*
 * filter.c - operations on a filter, whatever its layout: membership and
 * the estimates derived from the bits (combining is combine.c's).
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* Bits set in fold(a) | fold(b) at the combined size, without a copy. */
static uint64_t popcount_or(const bloom_filter *a, const bloom_filter *b)
{
    uint64_t nbits = bloom_combined_nbits(a, b), total = 0;
    if (a->nbits == nbits && b->nbits == nbits && a->layout != BLOOM_LAYOUT_COUNTING)
        return popcount_combined(BLOOM_OP_UNION, a->bits, b->bits, (nbits + 63) / 64);
    uint64_t fa = fold_factor(a, nbits), fb = fold_factor(b, nbits);
    for (uint64_t w = 0; w < (nbits + 63) / 64; w++)
        total += (uint64_t)__builtin_popcountll(fold_word(a, fa, w) | fold_word(b, fb, w));
    return total;
}

void bloom_add_hash(bloom_filter *f, uint64_t hash)
{
    switch (f->layout) {
    case BLOOM_LAYOUT_BLOCKED:
        blocked_add(f, hash);
        break;
    case BLOOM_LAYOUT_COUNTING:
        counting_add(f, hash);
        break;
    case BLOOM_LAYOUT_SCALABLE:
        scalable_add(f, hash);
        break;
    default:
        classic_add(f, hash);
    }
}

bool bloom_add_is_noop(const bloom_filter *f, uint64_t hash)
{
    switch (f->layout) {
    case BLOOM_LAYOUT_COUNTING:
        return false;
    case BLOOM_LAYOUT_SCALABLE:
        return scalable_add_is_noop(f, hash);
    }
    return bloom_contains_hash(f, hash);
}

bool bloom_contains_hash(const bloom_filter *f, uint64_t hash)
{
    if (f->layout == BLOOM_LAYOUT_BLOCKED)
        return blocked_contains(f, hash);
    switch (f->layout) {
    case BLOOM_LAYOUT_COUNTING:
        return counting_contains(f, hash);
    case BLOOM_LAYOUT_SCALABLE:
        return scalable_contains(f, hash);
    }
    return classic_contains(f, hash);
}

void bloom_add_hashes(bloom_filter *f, const uint64_t *hashes, size_t n)
{
    if (f->layout == BLOOM_LAYOUT_BLOCKED) {
        blocked_add_many(f, hashes, n);
    } else if (f->layout == BLOOM_LAYOUT_CLASSIC) {
        classic_add_many(f, hashes, n);
    } else {
        for (size_t i = 0; i < n; i++)
            bloom_add_hash(f, hashes[i]);
    }
}

void bloom_pending_flush(bloom_filter *f, bloom_pending *p)
{
    bloom_add_hashes(f, p->hashes, p->n);
    p->n = 0;
}

static void describe(const bloom_filter *f, char *buf, size_t len)
{
    snprintf(buf, len, "layout %s, nbits %" PRIu64 ", nhashes %u, seed %" PRIu64,
             bloom_layout_name(f->layout), f->nbits, f->nhashes, f->seed);
}

bloom_status bloom_check_compatible(const bloom_filter *a, const bloom_filter *b, bloom_error *err)
{
    if (a->layout == BLOOM_LAYOUT_SCALABLE || b->layout == BLOOM_LAYOUT_SCALABLE)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "the estimates of two filters compare classic, blocked or counting "
                          "filters, not scalable ones (bloom_cardinality reads one)");
    if (a->layout == b->layout && a->nhashes == b->nhashes && a->seed == b->seed &&
        a->hash_id == b->hash_id && a->version == b->version &&
        (a->nbits >= b->nbits ? sizes_divide(a->layout, a->nbits, b->nbits)
                              : sizes_divide(a->layout, b->nbits, a->nbits)))
        return bloom_ok(err);
    char left[96], right[96];
    describe(a, left, sizeof left);
    describe(b, right, sizeof right);
    return bloom_fail(err, BLOOM_E_MISMATCH, "left has %s; right has %s", left, right);
}

bool bloom_equal(const bloom_filter *a, const bloom_filter *b)
{
    /* the header sits right before the bits in every view */
    return a->nbytes == b->nbytes &&
           memcmp(a->bits - BLOOM_HEADER_SIZE, b->bits - BLOOM_HEADER_SIZE,
                  BLOOM_HEADER_SIZE + a->nbytes) == 0;
}

uint64_t bloom_popcount(const bloom_filter *f)
{
    if (f->layout == BLOOM_LAYOUT_SCALABLE)
        return scalable_popcount(f);
    if (f->layout == BLOOM_LAYOUT_COUNTING) {
        uint64_t total = 0;
        for (uint64_t w = 0; w < presence_words(f); w++)
            total += (uint64_t)__builtin_popcountll(counting_presence_word(f, w));
        return total;
    }
    return popcount_bytes(f->bits, f->nbytes);
}

double bloom_fill(const bloom_filter *f)
{
    return (double)bloom_popcount(f) / (double)f->nbits;
}

static double cardinality_from_popcount(uint64_t set, uint64_t nbits, unsigned nhashes)
{
    if (set >= nbits)
        return INFINITY;
    double m = (double)nbits;
    return -(m / nhashes) * log1p(-(double)set / m);
}

double bloom_estimate_cardinality(const bloom_filter *f)
{
    if (f->layout == BLOOM_LAYOUT_SCALABLE)
        return scalable_estimate_cardinality(f);
    return cardinality_from_popcount(bloom_popcount(f), f->nbits, f->nhashes);
}

double bloom_estimate_fpr(const bloom_filter *f)
{
    switch (f->layout) {
    case BLOOM_LAYOUT_BLOCKED:
        return blocked_estimate_fpr(f);
    case BLOOM_LAYOUT_COUNTING:
        return pow(bloom_fill(f), f->nhashes);
    case BLOOM_LAYOUT_SCALABLE:
        return scalable_estimate_fpr(f);
    }
    return classic_estimate_fpr(f);
}

bool bloom_is_saturated(const bloom_filter *f)
{
    return bloom_estimate_fpr(f) >= 0.5;
}

/* Values common to filters of different sizes, without folding the larger
 * (folded, a large filter saturates the small size and says nothing).
 * Each bit of the smaller stands for a run of `factor` bits of the larger
 * (fold.c).  Values of the larger alone leave the same zero fraction z0 in
 * every run; a common value also sets its k bits of the larger, all in
 * runs whose small bit is set.  So the set runs' zero fraction z1 is lower:
 * z1 = z0 (1 - D / set_bits), D the larger's bits set by common values,
 * D = m (1 - e^(-k c / m)) at the larger's m.  The error grows as
 * sqrt(factor): a small filter places its members only to within a run.
 * INFINITY when either filter is saturated. */
double estimate_common_across_sizes(const bloom_filter *large, const bloom_filter *small)
{
    uint64_t factor = fold_factor(large, small->nbits), ones, over;
    uint64_t set = bloom_popcount(small), units = small->nbits;
    if (set == 0)
        return 0;
    if (set >= units)
        return INFINITY;
    fold_preimage_ones(large, small, &ones, &over);
    double m = (double)large->nbits;
    double run1 = (double)set * (double)factor, run0 = (double)(units - set) * (double)factor;
    double z1 = (run1 - (double)over) / run1, z0 = (run0 - (double)(ones - over)) / run0;
    if (z0 <= 0)
        return INFINITY;
    double d = run1 * (1 - z1 / z0);
    if (d >= m)
        return INFINITY;
    double c = -(m / small->nhashes) * log1p(-d / m);
    return c > 0 ? c : 0;
}

bloom_status bloom_estimate_union(const bloom_filter *a, const bloom_filter *b, double *out,
                                  bloom_error *err)
{
    bloom_status st = bloom_check_compatible(a, b, err);
    if (st != BLOOM_OK)
        return st;
    if (a->nbits == b->nbits) {
        *out = cardinality_from_popcount(popcount_or(a, b), a->nbits, a->nhashes);
        return BLOOM_OK;
    }
    const bloom_filter *large = a->nbits > b->nbits ? a : b, *small = large == a ? b : a;
    double common = estimate_common_across_sizes(large, small);
    *out = isinf(common) ? INFINITY
                         : bloom_estimate_cardinality(large) + bloom_estimate_cardinality(small) -
                               common;
    return BLOOM_OK;
}

bloom_status bloom_estimate_intersection(const bloom_filter *a, const bloom_filter *b, double *out,
                                         bloom_error *err)
{
    double both;
    bloom_status st = bloom_estimate_union(a, b, &both, err);
    if (st != BLOOM_OK)
        return st;
    if (isinf(both)) {
        *out = INFINITY; /* saturated: nothing can be said */
        return BLOOM_OK;
    }
    double inter;
    if (a->nbits == b->nbits) {
        inter = bloom_estimate_cardinality(a) + bloom_estimate_cardinality(b) - both;
    } else {
        const bloom_filter *large = a->nbits > b->nbits ? a : b, *small = large == a ? b : a;
        double small_count = bloom_estimate_cardinality(small);
        inter = estimate_common_across_sizes(large, small);
        if (inter > small_count)
            inter = small_count;
    }
    *out = inter > 0 ? inter : 0;
    return BLOOM_OK;
}

bloom_status bloom_estimate_jaccard(const bloom_filter *a, const bloom_filter *b, double *out,
                                    bloom_error *err)
{
    double both, inter;
    bloom_status st = bloom_estimate_union(a, b, &both, err);
    if (st != BLOOM_OK)
        return st;
    bloom_estimate_intersection(a, b, &inter, NULL);
    if (both == 0)
        *out = 1; /* two empty sets are the same set */
    else if (isinf(both))
        *out = NAN;
    else
        *out = inter / both > 1 ? 1 : inter / both;
    return BLOOM_OK;
}
