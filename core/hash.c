/*
 * hash.c - canonical hashing (docs/HASHING.md): equal SQL values hash equal
 * across column types and across engines.
 */
#include "internal.h"

#include <math.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t bloom_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    return XXH64(len ? data : "", len, seed);
}

void bloom_canonical_int64(int64_t value, uint8_t out[8])
{
    store_le64(out, (uint64_t)value);
}

void bloom_canonical_double(double value, uint8_t out[8])
{
    /* 2^63 is exact in binary64; every integral double in [-2^63, 2^63)
     * converts to int64 without loss, so 5.0 hashes as 5 (and -0.0 as 0). */
    if (value == trunc(value) && value >= -9223372036854775808.0 && value < 9223372036854775808.0) {
        bloom_canonical_int64((int64_t)value, out);
        return;
    }
    uint64_t bits;
    if (isnan(value))
        bits = UINT64_C(0x7ff8000000000000);
    else
        memcpy(&bits, &value, sizeof bits);
    store_le64(out, bits);
}

uint64_t bloom_hash_double(double value, uint64_t seed)
{
    uint8_t bytes[8];
    bloom_canonical_double(value, bytes);
    return bloom_hash_lane(load_le64(bytes), seed);
}
