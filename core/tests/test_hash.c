/*
 * test_hash.c - canonical hashing: equal values hash equal across types.
 */
#include "util.h"

#include <math.h>
#include <string.h>

static void test_xxh64_reference_values(void)
{
    /* Published XXH64 values: the hash is the system xxHash, seed passed. */
    CHECK(bloom_hash_bytes("", 0, 0) == UINT64_C(0xef46db3751d8e999));
    CHECK(bloom_hash_bytes(NULL, 0, 0) == UINT64_C(0xef46db3751d8e999));
    CHECK(bloom_hash_bytes("abc", 3, 0) == UINT64_C(0x44bc2cf5ad770999));
    CHECK(bloom_hash_bytes("abc", 3, 1) != bloom_hash_bytes("abc", 3, 0));
}

static void test_one_lane_hash_is_xxh64(void)
{
    /* bloom_hash_lane is XXH64 of 8 bytes written out: check it against
     * the general XXH64 of the canonical bytes, many values and seeds. */
    const uint64_t seeds[] = {0, 1, 42, UINT64_MAX, UINT64_C(0x8000000000000000)};
    for (int s = 0; s < 5; s++)
        for (uint64_t i = 0; i < 20000; i++) {
            int64_t v = (int64_t)key_at(s, i) >> (i % 64);
            uint8_t b[8];
            bloom_canonical_int64(v, b);
            CHECK(bloom_hash_int64(v, seeds[s]) == bloom_hash_bytes(b, 8, seeds[s]));
            double d = (double)v / 7.0;
            bloom_canonical_double(d, b);
            CHECK(bloom_hash_double(d, seeds[s]) == bloom_hash_bytes(b, 8, seeds[s]));
        }
}

static void test_int64_canonical_bytes(void)
{
    uint8_t b[8];
    bloom_canonical_int64(5, b);
    CHECK(memcmp(b, "\x05\0\0\0\0\0\0\0", 8) == 0);
    bloom_canonical_int64(-2, b);
    CHECK(memcmp(b, "\xfe\xff\xff\xff\xff\xff\xff\xff", 8) == 0);
    bloom_canonical_int64(INT64_MIN, b);
    CHECK(memcmp(b, "\0\0\0\0\0\0\0\x80", 8) == 0);
    CHECK(bloom_hash_int64(5, 9) == bloom_hash_bytes("\x05\0\0\0\0\0\0\0", 8, 9));
}

static void test_integral_doubles_hash_as_integers(void)
{
    CHECK(bloom_hash_double(5.0, 0) == bloom_hash_int64(5, 0));
    CHECK(bloom_hash_double(-7.0, 3) == bloom_hash_int64(-7, 3));
    CHECK(bloom_hash_double(-0.0, 0) == bloom_hash_int64(0, 0));
    CHECK(bloom_hash_double(0.0, 0) == bloom_hash_int64(0, 0));
    CHECK(bloom_hash_double(9007199254740992.0, 0) == bloom_hash_int64(INT64_C(9007199254740992), 0));
    CHECK(bloom_hash_double(-9223372036854775808.0, 0) == bloom_hash_int64(INT64_MIN, 0));
    /* 2^63 does not fit int64: its IEEE bytes are hashed */
    uint8_t b[8];
    bloom_canonical_double(9223372036854775808.0, b);
    CHECK(memcmp(b, "\0\0\0\0\0\0\xe0\x43", 8) == 0);
}

static void test_fractions_and_specials(void)
{
    uint8_t b[8];
    bloom_canonical_double(0.5, b);
    CHECK(memcmp(b, "\0\0\0\0\0\0\xe0\x3f", 8) == 0);
    CHECK(bloom_hash_double(0.5, 0) != bloom_hash_int64(0, 0));
    CHECK(bloom_hash_double(1.5, 0) != bloom_hash_double(2.5, 0));
    /* every NaN is the same value */
    double nan1 = NAN, nan2 = -NAN;
    uint64_t payload = UINT64_C(0x7ff0000000000123);
    double nan3;
    memcpy(&nan3, &payload, 8);
    CHECK(bloom_hash_double(nan1, 0) == bloom_hash_double(nan2, 0));
    CHECK(bloom_hash_double(nan1, 0) == bloom_hash_double(nan3, 0));
    bloom_canonical_double(nan3, b);
    CHECK(memcmp(b, "\0\0\0\0\0\0\xf8\x7f", 8) == 0);
    CHECK(bloom_hash_double(INFINITY, 0) != bloom_hash_double(-INFINITY, 0));
    bloom_canonical_double(INFINITY, b);
    CHECK(memcmp(b, "\0\0\0\0\0\0\xf0\x7f", 8) == 0);
}

static void test_bytes_are_bytes(void)
{
    /* Embedded NULs count: lengths are explicit. */
    CHECK(bloom_hash_bytes("a\0b", 3, 0) != bloom_hash_bytes("a", 1, 0));
    CHECK(bloom_hash_bytes("abc", 3, 0) == bloom_hash_bytes("abcd", 3, 0));
}

const test_case hash_tests[] = {
    {"hash: XXH64 reference values", test_xxh64_reference_values},
    {"hash: one-lane hash equals XXH64", test_one_lane_hash_is_xxh64},
    {"hash: int64 canonical bytes", test_int64_canonical_bytes},
    {"hash: integral doubles hash as integers", test_integral_doubles_hash_as_integers},
    {"hash: fractions, NaN, infinities", test_fractions_and_specials},
    {"hash: bytes with explicit lengths", test_bytes_are_bytes},
};
const size_t hash_tests_count = sizeof hash_tests / sizeof hash_tests[0];
