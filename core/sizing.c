/*
 * sizing.c - how many bits and probes a capacity and a false-positive rate
 * need, per layout.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

static bloom_status check_fpr(double fpr, bloom_error *err)
{
    if (!(fpr > 0 && fpr < 1)) /* also rejects NaN */
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "false-positive rate %g is outside the open interval (0, 1)", fpr);
    return BLOOM_OK;
}

static bloom_status classic_params(uint64_t capacity, double fpr, uint64_t *nbits,
                                   unsigned *nhashes, bloom_error *err)
{
    double n = (double)capacity, ln2 = log(2.0);
    double m = ceil(-n * log(fpr) / (ln2 * ln2));
    if (m > (double)BLOOM_MAX_NBITS)
        return bloom_fail(err, BLOOM_E_LIMIT,
                          "capacity %" PRIu64 " at false-positive rate %g needs %.0f bits, more "
                          "than the maximum %" PRIu64,
                          capacity, fpr, m, (uint64_t)BLOOM_MAX_NBITS);
    if (m < 1)
        m = 1;
    double k = round(m / n * ln2);
    *nbits = (uint64_t)m;
    *nhashes = k < BLOOM_MIN_NHASHES ? BLOOM_MIN_NHASHES
               : k > BLOOM_MAX_NHASHES ? BLOOM_MAX_NHASHES
                                       : (unsigned)k;
    return bloom_ok(err);
}

static bloom_status blocked_params(uint64_t capacity, double fpr, uint64_t *nbits,
                                   bloom_error *err)
{
    const double max_blocks = (double)(BLOOM_MAX_NBITS / BLOOM_BLOCK_BITS);
    double n = (double)capacity, lo = 0, hi = 1;
    /* The model's rate falls as blocks are added: find the least count
     * that meets fpr, doubling then bisecting. */
    while (blocked_model_fpr(n, hi) > fpr) {
        lo = hi;
        hi *= 2;
        if (hi > max_blocks) {
            if (blocked_model_fpr(n, max_blocks) > fpr)
                return bloom_fail(err, BLOOM_E_LIMIT,
                                  "capacity %" PRIu64 " at false-positive rate %g needs more "
                                  "than the maximum %" PRIu64 " bits",
                                  capacity, fpr, (uint64_t)BLOOM_MAX_NBITS);
            hi = max_blocks;
            break;
        }
    }
    while (hi - lo > 1) {
        double mid = floor((lo + hi) / 2);
        if (blocked_model_fpr(n, mid) > fpr)
            lo = mid;
        else
            hi = mid;
    }
    *nbits = (uint64_t)hi * BLOOM_BLOCK_BITS;
    return bloom_ok(err);
}

bloom_status bloom_params_for_capacity(int layout, uint64_t capacity, double fpr, uint64_t *nbits,
                                       unsigned *nhashes, bloom_error *err)
{
    bloom_status st = check_fpr(fpr, err);
    if (st != BLOOM_OK)
        return st;
    if (capacity == 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "capacity must be at least 1");
    if (layout == BLOOM_LAYOUT_CLASSIC)
        return classic_params(capacity, fpr, nbits, nhashes, err);
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        *nhashes = BLOOM_BLOCKED_NHASHES;
        return blocked_params(capacity, fpr, nbits, err);
    }
    return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "unknown layout %d", layout);
}
