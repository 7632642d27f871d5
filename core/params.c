/*
 * params.c - the one validator of the parameters a user gives: a rate, a
 * capacity, an explicit size, an integer that arrived as a double, and the
 * size of a new filter against what the host can store.
 *
 * The hosts pass SQL arguments here as they came (signed integers, doubles)
 * and only map the status to their error mechanism, so one mistake gives
 * one message in both engines.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>

bloom_status bloom_check_fpr(double fpr, bloom_error *err)
{
    if (!(fpr > 0 && fpr < 1)) /* also rejects NaN */
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "false-positive rate %g is outside the open interval (0, 1)", fpr);
    return bloom_ok(err);
}

bloom_status bloom_int64_from_double(double value, const char *what, int64_t *out,
                                     bloom_error *err)
{
    if (isnan(value) || (isfinite(value) && value != trunc(value)))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "%s must be an integer, got %.15g", what,
                          value);
    /* -2^63 is exact as a double; 2^63 is the first value past the range */
    if (!(value >= -9223372036854775808.0 && value < 9223372036854775808.0))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "%s %.15g is out of range (a 64-bit integer)", what, value);
    *out = (int64_t)value;
    return bloom_ok(err);
}

/* The format's limit, or the host's when it is smaller (0: none). */
static uint64_t effective_max(uint64_t max_bytes)
{
    uint64_t format_max = BLOOM_HEADER_SIZE + BLOOM_MAX_NBITS / 8;
    return max_bytes == 0 || max_bytes > format_max ? format_max : max_bytes;
}

bloom_status bloom_check_host_size(uint64_t bytes, uint64_t max_bytes, bloom_error *err)
{
    uint64_t max = effective_max(max_bytes);
    if (bytes > max)
        return bloom_fail(err, BLOOM_E_LIMIT,
                          "the filter needs %" PRIu64 " bytes; a value holds at most %" PRIu64 " bytes",
                          bytes, max);
    if (bytes > SIZE_MAX)
        return bloom_fail(err, BLOOM_E_LIMIT, "a filter of %" PRIu64 " bytes does not fit in memory here",
                          bytes);
    return bloom_ok(err);
}

/* Serialized bytes of a filter with one array of nbits bits or counters
 * (bloom_layout_size without its limits). */
static uint64_t bytes_for(int layout, uint64_t nbits)
{
    if (layout == BLOOM_LAYOUT_COUNTING)
        return BLOOM_HEADER_SIZE + (nbits + 15) / 16 * 8;
    return BLOOM_HEADER_SIZE + (nbits + 63) / 64 * 8;
}

/* Whether a filter for capacity at fpr fits in max bytes. */
static bool capacity_fits(int layout, uint64_t capacity, double fpr, uint64_t max)
{
    uint64_t nbits;
    unsigned nhashes;
    return bloom_params_for_capacity(layout, capacity, fpr, &nbits, &nhashes, NULL) == BLOOM_OK &&
           bytes_for(layout, nbits) <= max;
}

/* The largest capacity whose filter at fpr fits in max bytes (0: none):
 * sizes grow with the capacity, so a binary search below the bound
 * n log2(1/p) <= the bits a value holds. */
static uint64_t largest_capacity(int layout, double fpr, uint64_t max)
{
    double bits = 8.0 * (double)(max - BLOOM_HEADER_SIZE);
    if (layout == BLOOM_LAYOUT_COUNTING)
        bits /= 4;
    double bound = bits / -log2(fpr);
    uint64_t lo = 0, hi = bound < (double)INT64_MAX ? (uint64_t)bound + 1 : INT64_MAX; /* lo fits, hi does not */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (capacity_fits(layout, mid, fpr, max))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A capacity too large for max bytes, in bytes on both sides, with the
 * largest that fits: what to ask for instead. */
static bloom_status capacity_too_large(int layout, int64_t capacity, double fpr, const char *needs,
                                       double bytes, uint64_t max, bloom_error *err)
{
    uint64_t largest = largest_capacity(layout, fpr, max);
    if (largest == 0)
        return bloom_fail(err, BLOOM_E_LIMIT,
                          "capacity %" PRId64 " at false-positive rate %g needs %s%.0f"
                          " bytes; a value holds at most %" PRIu64
                          " bytes, which fits no capacity at this rate",
                          capacity, fpr, needs, bytes, max);
    return bloom_fail(err, BLOOM_E_LIMIT,
                      "capacity %" PRId64 " at false-positive rate %g needs %s%.0f"
                      " bytes; a value holds at most %" PRIu64
                      " bytes, which fits a capacity of at most %" PRIu64 " at this rate",
                      capacity, fpr, needs, bytes, max, largest);
}

bloom_status bloom_size_for_capacity(int layout, int64_t capacity, double fpr, uint64_t max_bytes,
                                     uint64_t *nbits, unsigned *nhashes, bloom_error *err)
{
    if (bloom_layout_name(layout) == NULL)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "unknown layout %d", layout);
    if (layout == BLOOM_LAYOUT_SCALABLE)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "a scalable filter grows by stages, in the order values arrive: "
                          "bloom_agg(value, capacity, fpr) does not build one (bloom_agg(value) "
                          "does, or bloom_add_all on bloom_empty(capacity, fpr, seed, 'scalable'))");
    if (capacity < 1)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "the capacity must be at least 1, got %" PRId64,
                          capacity);
    bloom_status st = bloom_check_fpr(fpr, err);
    if (st != BLOOM_OK)
        return st;
    /* Any filter needs at least n log2(1/p) bits: refuse what cannot fit
     * before sizing it (the blocked layout's search would otherwise walk
     * up to the format's 2^40 bits first).  -log2(p), not log2(1/p): 1/p
     * overflows for a subnormal p. */
    uint64_t max = effective_max(max_bytes);
    double lower_bits = (double)capacity * -log2(fpr);
    if (layout == BLOOM_LAYOUT_COUNTING)
        lower_bits *= 4; /* a counter where classic has a bit */
    if (lower_bits > 8.0 * (double)(max - BLOOM_HEADER_SIZE))
        return capacity_too_large(layout, capacity, fpr, "at least ",
                                  BLOOM_HEADER_SIZE + ceil(lower_bits / 8), max, err);
    st = bloom_params_for_capacity(layout, (uint64_t)capacity, fpr, nbits, nhashes, err);
    if (st == BLOOM_E_LIMIT) /* past the format's 2^40 bits */
        return capacity_too_large(layout, capacity, fpr, "more than ",
                                  (double)effective_max(0), max, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t bytes = bytes_for(layout, *nbits);
    if (bytes > max)
        return capacity_too_large(layout, capacity, fpr, "", (double)bytes, max, err);
    return bloom_check_host_size(bytes, max_bytes, err);
}

bloom_status bloom_size_explicit(int layout, int64_t nbits, int64_t nhashes, uint64_t max_bytes,
                                 bloom_error *err)
{
    if (nbits < 1)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "the number of bits nbits must be at least 1, got %" PRId64,
                          nbits);
    if (nhashes < BLOOM_MIN_NHASHES || nhashes > BLOOM_MAX_NHASHES)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "the number of hash functions nhashes must be between %d and %d, got %" PRId64, BLOOM_MIN_NHASHES, BLOOM_MAX_NHASHES, nhashes);
    bloom_status st = bloom_check_params(layout, (uint64_t)nbits, (unsigned)nhashes, err);
    if (st != BLOOM_OK)
        return st;
    return bloom_check_host_size(bytes_for(layout, (uint64_t)nbits), max_bytes, err);
}

bloom_status bloom_empty_size(int layout, int64_t capacity, double fpr, uint64_t max_bytes,
                              size_t *size, bloom_error *err)
{
    if (layout == BLOOM_LAYOUT_SCALABLE)
        return scalable_empty_size(capacity, fpr, max_bytes, size, err);
    uint64_t nbits;
    unsigned nhashes;
    bloom_status st = bloom_size_for_capacity(layout, capacity, fpr, max_bytes, &nbits, &nhashes, err);
    if (st == BLOOM_OK)
        *size = bloom_layout_size(layout, nbits);
    return st;
}

bloom_status bloom_empty_init(void *buf, size_t len, int layout, int64_t capacity, double fpr,
                              uint64_t seed, bloom_filter *out, bloom_error *err)
{
    if (capacity < 1)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "the capacity must be at least 1, got %" PRId64, capacity);
    if (layout == BLOOM_LAYOUT_SCALABLE) {
        bloom_status st = bloom_check_fpr(fpr, err);
        return st != BLOOM_OK ? st
                              : scalable_empty_init(buf, len, (uint64_t)capacity, fpr, seed, out, err);
    }
    uint64_t nbits;
    unsigned nhashes;
    bloom_status st = bloom_params_for_capacity(layout, (uint64_t)capacity, fpr, &nbits, &nhashes, err);
    return st != BLOOM_OK ? st : bloom_init(buf, len, layout, nbits, nhashes, seed, out, err);
}
