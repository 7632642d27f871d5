/*
 * test_params.c - the one validator (params.c), one-pass statistics
 * (stats.c) and copying (copy.c).
 */
#include "util.h"

#include <math.h>
#include <string.h>

static void test_int64_from_double(void)
{
    bloom_error err;
    int64_t v = 0;
    CHECK(bloom_int64_from_double(1e6, "capacity", &v, &err) == BLOOM_OK && v == 1000000);
    CHECK(bloom_int64_from_double(-9223372036854775808.0, "seed", &v, &err) == BLOOM_OK &&
          v == INT64_MIN);
    CHECK(bloom_int64_from_double(2.5, "capacity", &v, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "capacity must be an integer, got 2.5") == 0);
    CHECK(bloom_int64_from_double(NAN, "capacity", &v, &err) == BLOOM_E_INVALID_ARGUMENT);
    /* integral but out of range: says so, not "must be an integer" */
    CHECK(bloom_int64_from_double(1e20, "capacity", &v, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err.message, "out of range") != NULL, "%s", err.message);
    CHECK(bloom_int64_from_double(9223372036854775808.0, "capacity", &v, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "out of range") != NULL);
    CHECK(bloom_int64_from_double(-INFINITY, "capacity", &v, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "out of range") != NULL);
}

static void test_size_checks(void)
{
    bloom_error err;
    uint64_t nbits;
    unsigned k;
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, 0, 0.01, 0, &nbits, &k, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "the capacity must be at least 1, got 0") == 0);
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, -5, 0.01, 0, &nbits, &k, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, 100, 1, 0, &nbits, &k, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_size_for_capacity(7, 100, 0.01, 0, &nbits, &k, &err) == BLOOM_E_INVALID_ARGUMENT);
    /* the same sizes as bloom_params_for_capacity, within the host's limit */
    uint64_t want;
    unsigned want_k;
    CHECK(bloom_params_for_capacity(BLOOM_LAYOUT_BLOCKED, 1000, 0.001, &want, &want_k, NULL) ==
          BLOOM_OK);
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_BLOCKED, 1000, 0.001, 0, &nbits, &k, &err) ==
              BLOOM_OK &&
          nbits == want && k == want_k);
    uint64_t bytes = bloom_serialized_size(want);
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_BLOCKED, 1000, 0.001, bytes, &nbits, &k, &err) ==
          BLOOM_OK);
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_BLOCKED, 1000, 0.001, bytes - 1, &nbits, &k, &err) ==
          BLOOM_E_LIMIT);
    /* refused from the lower bound, before any sizing */
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_BLOCKED, INT64_MAX, 1e-300, 1 << 20, &nbits, &k,
                                  &err) == BLOOM_E_LIMIT);
    CHECK(strstr(err.message, "needs at least") != NULL);
    /* in bytes on both sides, with the largest capacity that fits: it does,
     * and one more does not */
    uint64_t max = 1000000;
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, 10000000, 0.01, max, &nbits, &k, &err) ==
          BLOOM_E_LIMIT);
    CHECK(strstr(err.message, "bits") == NULL);
    const char *largest = strstr(err.message, "capacity of at most ");
    CHECK(largest != NULL);
    if (largest != NULL) {
        int64_t n = strtoll(largest + strlen("capacity of at most "), NULL, 10);
        CHECK(n > 0 && bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, n, 0.01, max, &nbits, &k,
                                               NULL) == BLOOM_OK);
        CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, n + 1, 0.01, max, &nbits, &k, NULL) ==
              BLOOM_E_LIMIT);
    }
    /* a subnormal rate: 1/p overflows, -log2(p) does not */
    CHECK(bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, 1000, 1e-320, max, &nbits, &k, &err) ==
          BLOOM_E_LIMIT);
    CHECK(strstr(err.message, "inf") == NULL && strstr(err.message, "fits no capacity") != NULL);

    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, 64, 3, 0, &err) == BLOOM_OK);
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, -64, 3, 0, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, 64, 4294967297LL, 0, &err) ==
          BLOOM_E_INVALID_ARGUMENT); /* not truncated to 1 */
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, 64, -1, 0, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_BLOCKED, 256, 7, 0, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, 64, 3, 40, &err) == BLOOM_OK);
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, 65, 3, 40, &err) == BLOOM_E_LIMIT);
    CHECK(bloom_size_explicit(BLOOM_LAYOUT_CLASSIC, (int64_t)BLOOM_MAX_NBITS + 1, 3, 0, &err) ==
          BLOOM_E_LIMIT);
    CHECK(bloom_check_fpr(0.5, &err) == BLOOM_OK);
    CHECK(bloom_check_fpr(NAN, &err) == BLOOM_E_INVALID_ARGUMENT);
}

static void check_stats(const bloom_filter *f)
{
    bloom_stats s;
    bloom_get_stats(f, &s);
    CHECK(s.bits_set == bloom_popcount(f));
    CHECK(s.fill == bloom_fill(f));
    double card = bloom_estimate_cardinality(f);
    CHECK(s.est_cardinality == card || (isinf(card) && isinf(s.est_cardinality)));
    CHECK(s.est_fpr == bloom_estimate_fpr(f));
}

static void test_stats_and_copy(void)
{
    for (int layout = 0; layout < 2; layout++) {
        for (uint64_t n = 0; n <= 3000; n += 1500) {
            bloom_filter f, copy;
            uint8_t *buf = new_filter_for(layout, 1000, 0.01, 5, &f);
            for (uint64_t i = 0; i < n; i++)
                bloom_add_hash(&f, key_at(layout, i));
            check_stats(&f);
            uint8_t *again = malloc(bloom_filter_size(&f));
            bloom_copy(&f, again, &copy);
            CHECK(bloom_equal(&f, &copy) && copy.bits == again + BLOOM_HEADER_SIZE);
            CHECK(memcmp(buf, again, bloom_filter_size(&f)) == 0);
            free(again);
            free(buf);
        }
    }
}

const test_case params_tests[] = {
    {"params: an integer given as a double", test_int64_from_double},
    {"params: capacity, explicit sizes and the host's limit", test_size_checks},
    {"stats: one pass agrees with the single functions; copy", test_stats_and_copy},
};
const size_t params_tests_count = sizeof params_tests / sizeof params_tests[0];
