/*
 * sizing.c - how many bits and probes a capacity and a false-positive rate
 * need, per layout.
 *
 * Sizes come in classes that divide each other (powers of two: bits for
 * classic, 256-bit blocks for blocked) and k depends on the rate alone, so
 * any two filters sized for one rate, layout and seed combine: the larger
 * folds to the smaller (fold.c).  A class costs at most twice the optimum's
 * bits, 1.44 times on average (docs/FORMAT.md "Size classes and folding").
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

/* Smallest power of two >= x (x >= 1), or 0 past 2^63. */
static uint64_t next_power_of_two(double x)
{
    uint64_t p = 1;
    while ((double)p < x) {
        if (p >> 63)
            return 0;
        p <<= 1;
    }
    return p;
}

unsigned bloom_nhashes_for_fpr(int layout, double fpr)
{
    if (layout == BLOOM_LAYOUT_BLOCKED)
        return BLOOM_BLOCKED_NHASHES;
    /* the optimum k at the optimum size, -log2(p), whatever the capacity:
     * filters of one rate share k and so combine across sizes */
    double k = round(-log2(fpr));
    return k < BLOOM_MIN_NHASHES ? BLOOM_MIN_NHASHES
           : k > BLOOM_MAX_NHASHES ? BLOOM_MAX_NHASHES
                                   : (unsigned)k;
}

static bloom_status too_large(uint64_t capacity, double fpr, bloom_error *err)
{
    return bloom_fail(err, BLOOM_E_LIMIT,
                      "capacity %" PRIu64 " at false-positive rate %g needs more than the "
                      "maximum %" PRIu64 " bits",
                      capacity, fpr, (uint64_t)BLOOM_MAX_NBITS);
}

double classic_exact_bits(double n, double fpr, unsigned k)
{
    double per_probe = pow(fpr, 1.0 / k); /* the fill that gives fpr */
    return ceil(-(double)k * n / log1p(-per_probe));
}

/* The least m with (1 - e^(-kn/m))^k <= p for the given k (the usual m =
 * -n ln p / ln^2 2 when k is the optimum), then its size class. */
static bloom_status classic_params(uint64_t capacity, double fpr, uint64_t *nbits,
                                   unsigned *nhashes, bloom_error *err)
{
    double n = (double)capacity;
    unsigned k = bloom_nhashes_for_fpr(BLOOM_LAYOUT_CLASSIC, fpr);
    double m = classic_exact_bits(n, fpr, k);
    if (!(m <= (double)BLOOM_MAX_NBITS))
        return too_large(capacity, fpr, err);
    /* at least one 64-bit word: smaller sizes store the same 8 bytes */
    uint64_t size = next_power_of_two(m < 64 ? 64 : m);
    if (size == 0 || size > BLOOM_MAX_NBITS)
        return too_large(capacity, fpr, err);
    *nbits = size;
    *nhashes = k;
    return bloom_ok(err);
}

static bloom_status blocked_params(uint64_t capacity, double fpr, uint64_t *nbits,
                                   bloom_error *err)
{
    const double max_blocks = (double)(BLOOM_MAX_NBITS / BLOOM_BLOCK_BITS);
    double n = (double)capacity, hi = 1;
    /* The model's rate falls as blocks are added: find the least power of
     * two that meets fpr (the size class), by doubling. */
    while (blocked_model_fpr(n, hi) > fpr) {
        hi *= 2;
        if (hi > max_blocks)
            return too_large(capacity, fpr, err);
    }
    *nbits = (uint64_t)hi * BLOOM_BLOCK_BITS;
    return bloom_ok(err);
}

bloom_status bloom_params_for_capacity(int layout, uint64_t capacity, double fpr, uint64_t *nbits,
                                       unsigned *nhashes, bloom_error *err)
{
    bloom_status st = bloom_check_fpr(fpr, err);
    if (st != BLOOM_OK)
        return st;
    if (capacity == 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "capacity must be at least 1");
    /* a counting filter has a counter where the classic one has a bit */
    if (layout == BLOOM_LAYOUT_CLASSIC || layout == BLOOM_LAYOUT_COUNTING)
        return classic_params(capacity, fpr, nbits, nhashes, err);
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        *nhashes = bloom_nhashes_for_fpr(layout, fpr);
        return blocked_params(capacity, fpr, nbits, err);
    }
    if (layout == BLOOM_LAYOUT_SCALABLE)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "a scalable filter has no fixed size: it grows by stages past its "
                          "capacity (bloom_empty(capacity, fpr, seed, 'scalable'))");
    return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "unknown layout %d", layout);
}
