/*
 * parquet.c - a blocked filter with seed 0 is, bit for bit, the bitset of a
 * Parquet split-block Bloom filter: only the header differs.
 */
#include "internal.h"

#include <inttypes.h>

bloom_status bloom_from_parquet(const void *bitset, size_t bitset_len, void *buf, size_t len,
                                bloom_filter *out, bloom_error *err)
{
    if (bitset_len == 0 || bitset_len % 32 != 0)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "a Parquet bitset is a positive multiple of 32 bytes, got %zu",
                          bitset_len);
    if ((uint64_t)bitset_len > BLOOM_MAX_NBITS / 8)
        return bloom_fail(err, BLOOM_E_LIMIT, "a Parquet bitset of %zu bytes is too large",
                          bitset_len);
    bloom_status st = bloom_init(buf, len, BLOOM_LAYOUT_BLOCKED, (uint64_t)bitset_len * 8,
                                 BLOOM_BLOCKED_NHASHES, 0, out, err);
    if (st != BLOOM_OK)
        return st;
    memcpy(out->bits, bitset, bitset_len);
    return BLOOM_OK;
}

bloom_status bloom_check_parquet(const bloom_filter *f, bloom_error *err)
{
    if (f->layout != BLOOM_LAYOUT_BLOCKED)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "only a blocked filter has a Parquet bitset; this one is %s",
                          bloom_layout_name(f->layout));
    if (f->seed != 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "Parquet hashes with seed 0; this filter has seed %" PRIu64, f->seed);
    return bloom_ok(err);
}
