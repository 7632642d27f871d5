/*
 * test_order.c - the total order of filters: parameters in their documented
 * sequence, equal headers only for equal parameters.
 */
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_filters(int la, uint64_t na, unsigned ka, uint64_t sa, int lb, uint64_t nb,
                       unsigned kb, uint64_t sb)
{
    bloom_filter fa, fb;
    uint8_t *a = new_filter(la, na, ka, sa, &fa), *b = new_filter(lb, nb, kb, sb, &fb);
    int c = bloom_compare_headers(a, b);
    CHECK(bloom_compare_headers(b, a) == -c);
    free(a);
    free(b);
    return c;
}

static void test_parameter_sequence(void)
{
    CHECK(cmp_filters(0, 512, 3, 0, 0, 512, 3, 0) == 0);
    /* layout before everything else: classic (0) < blocked (1) */
    CHECK(cmp_filters(0, 4096, 9, 9, 1, 256, 8, 0) < 0);
    /* then nhashes, before seed and nbits */
    CHECK(cmp_filters(0, 4096, 2, 9, 0, 64, 3, 0) < 0);
    /* then the seed as a signed int64: -1 < 0 < 1 */
    CHECK(cmp_filters(0, 4096, 3, UINT64_MAX, 0, 64, 3, 0) < 0);
    CHECK(cmp_filters(0, 4096, 3, 0, 0, 64, 3, 1) < 0);
    CHECK(cmp_filters(0, 64, 3, 256, 0, 64, 3, 1) > 0); /* numeric, not byte order */
    /* then nbits, numerically */
    CHECK(cmp_filters(0, 64, 3, 5, 0, 65, 3, 5) < 0);
    CHECK(cmp_filters(0, 1 << 20, 3, 5, 0, 256, 3, 5) > 0);
}

static void test_bits_do_not_matter(void)
{
    bloom_filter fa, fb;
    uint8_t *a = new_filter(0, 1000, 4, 7, &fa), *b = new_filter(0, 1000, 4, 7, &fb);
    memset(fb.bits, 0xff, 8);
    CHECK(bloom_compare_headers(a, b) == 0);
    free(a);
    free(b);
}

const test_case order_tests[] = {
    {"order: parameters in their documented sequence", test_parameter_sequence},
    {"order: headers ignore the bits", test_bits_do_not_matter},
};
const size_t order_tests_count = sizeof order_tests / sizeof order_tests[0];
