/*
 * test_fold.c - folding a filter to a size that divides its own, and
 * combining filters whose sizes divide each other, both layouts.
 */
#include "util.h"

#include <math.h>
#include <string.h>

/* A filter of the keys [0, n) of stream at (layout, nbits, k, seed). */
static uint8_t *build(int layout, uint64_t nbits, unsigned k, uint64_t stream, uint64_t n,
                      bloom_filter *f)
{
    uint8_t *buf = new_filter(layout, nbits, k, 5, f);
    for (uint64_t i = 0; i < n; i++)
        bloom_add_hash(f, key_at(stream, i));
    return buf;
}

static uint8_t *fold(const bloom_filter *f, uint64_t nbits, bloom_filter *out)
{
    size_t len = bloom_serialized_size(nbits);
    uint8_t *buf = malloc(len);
    bloom_error err;
    CHECK_MSG(bloom_fold(f, nbits, buf, len, out, &err) == BLOOM_OK, "%s", err.message);
    return buf;
}

/* Same bytes, header included (the views point just past the headers). */
static bool same_bytes(const bloom_filter *a, const bloom_filter *b)
{
    return a->nbits == b->nbits &&
           memcmp(a->bits - BLOOM_HEADER_SIZE, b->bits - BLOOM_HEADER_SIZE,
                  BLOOM_HEADER_SIZE + a->nbytes) == 0;
}

static void test_fold_is_the_smaller_build(void)
{
    /* classic: sizes with many divisors, one not a multiple of 64 */
    static const struct {
        int layout;
        uint64_t nbits;
        unsigned k;
        uint64_t n;
        unsigned factors[6];
    } cases[] = {
        {BLOOM_LAYOUT_CLASSIC, 60480, 7, 3000, {1, 2, 3, 5, 8, 9}},
        {BLOOM_LAYOUT_CLASSIC, 999, 3, 60, {3, 9, 27, 37, 111, 999}},
        {BLOOM_LAYOUT_CLASSIC, UINT64_C(1) << 20, 10, 20000, {2, 4, 16, 64, 1024, 1 << 20}},
        {BLOOM_LAYOUT_BLOCKED, 360 * 256, 8, 4000, {1, 2, 3, 5, 8, 360}},
        {BLOOM_LAYOUT_BLOCKED, 4096 * 256, 8, 30000, {2, 4, 16, 64, 256, 4096}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bloom_filter big;
        uint8_t *bb = build(cases[c].layout, cases[c].nbits, cases[c].k, 30, cases[c].n, &big);
        for (int i = 0; i < 6; i++) {
            uint64_t nbits = cases[c].nbits / cases[c].factors[i];
            bloom_filter folded, direct;
            uint8_t *bf = fold(&big, nbits, &folded);
            uint8_t *bd = build(cases[c].layout, nbits, cases[c].k, 30, cases[c].n, &direct);
            CHECK_MSG(same_bytes(&folded, &direct), "%s %llu bits folded by %u",
                      bloom_layout_name(cases[c].layout), (unsigned long long)cases[c].nbits,
                      cases[c].factors[i]);
            /* and the result validates: no padding bit set */
            bloom_filter back;
            CHECK(bloom_parse(bf, bloom_serialized_size(nbits), &back, NULL) == BLOOM_OK);
            free(bf);
            free(bd);
        }
        free(bb);
    }
}

static void test_fold_refuses_sizes_that_do_not_divide(void)
{
    bloom_filter c, b, out;
    uint8_t *bc = new_filter(BLOOM_LAYOUT_CLASSIC, 1000, 7, 0, &c);
    uint8_t *bb = new_filter(BLOOM_LAYOUT_BLOCKED, 12 * 256, 8, 0, &b);
    bloom_error err;
    CHECK(bloom_check_fold(&c, 300, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK_MSG(strcmp(err.message, "cannot fold a filter of 1000 bits to 300: 300 does not "
                                  "divide 1000") == 0,
              "%s", err.message);
    CHECK(bloom_check_fold(&c, 2000, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "shrinks") != NULL);
    CHECK(bloom_check_fold(&c, 0, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_fold(&c, 250, &err) == BLOOM_OK);
    CHECK(bloom_check_fold(&b, 100, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "256-bit blocks") != NULL);
    CHECK(bloom_check_fold(&b, 5 * 256, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK_MSG(strcmp(err.message, "cannot fold a blocked filter of 12 blocks to 5: the block "
                                  "count must divide 12") == 0,
              "%s", err.message);
    CHECK(bloom_check_fold(&b, 4 * 256, &err) == BLOOM_OK);
    /* bloom_fold checks the same way, before touching the buffer */
    uint8_t small[BLOOM_HEADER_SIZE + 48];
    CHECK(bloom_fold(&c, 300, small, sizeof small, &out, &err) == BLOOM_E_INVALID_ARGUMENT);
    /* and a buffer of the wrong length */
    CHECK(bloom_fold(&c, 500, small, sizeof small, &out, &err) == BLOOM_E_INVALID_ARGUMENT);
    free(bc);
    free(bb);
}

/* Filters of sizes that divide combine at the smaller size, and the result
 * is the filter built there: a union is the build of both key sets, so no
 * member of either side is lost; an intersection keeps every common key. */
static void test_combine_across_sizes(void)
{
    static const struct {
        int layout;
        uint64_t small, factor;
        unsigned k;
    } cases[] = {
        {BLOOM_LAYOUT_CLASSIC, 1 << 15, 4, 7},
        {BLOOM_LAYOUT_CLASSIC, 3000, 3, 5},
        {BLOOM_LAYOUT_BLOCKED, 128 * 256, 2, 8},
        {BLOOM_LAYOUT_BLOCKED, 100 * 256, 8, 8},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int layout = cases[c].layout;
        uint64_t small = cases[c].small, large = small * cases[c].factor;
        unsigned k = cases[c].k;
        /* A: keys 0..1999 of stream 40 at the large size; B: keys 1000..2499 at the small */
        bloom_filter a, b, both, u, in, expect;
        uint8_t *ba = build(layout, large, k, 40, 2000, &a);
        uint8_t *bb = new_filter(layout, small, k, 5, &b);
        uint8_t *bboth = new_filter(layout, small, k, 5, &both);
        for (uint64_t i = 1000; i < 2500; i++)
            bloom_add_hash(&b, key_at(40, i));
        for (uint64_t i = 0; i < 2500; i++)
            bloom_add_hash(&both, key_at(40, i));
        bloom_error err;
        CHECK(bloom_check_compatible(&a, &b, &err) == BLOOM_OK);
        CHECK(bloom_combined_nbits(&a, &b) == small && bloom_combined_nbits(&b, &a) == small);

        /* small dst, large src: src folds on the fly */
        uint8_t *bu = fold(&b, small, &u);
        CHECK_MSG(bloom_union_into(&u, &a, &err) == BLOOM_OK, "%s", err.message);
        CHECK(same_bytes(&u, &both));
        /* large dst: folds in place, header included, to the small size */
        uint8_t *bu2 = fold(&a, large, &u);
        CHECK(bloom_union_into(&u, &b, &err) == BLOOM_OK);
        CHECK(u.nbits == small && same_bytes(&u, &both));
        bloom_filter reparsed;
        CHECK(bloom_parse(bu2, bloom_serialized_size(small), &reparsed, NULL) == BLOOM_OK);
        uint64_t lost = 0;
        for (uint64_t i = 0; i < 2500; i++)
            lost += !bloom_contains_hash(&reparsed, key_at(40, i));
        CHECK_MSG(lost == 0, "%llu members lost", (unsigned long long)lost);

        /* intersection either way = fold(A) & B; common keys stay */
        uint8_t *bin = fold(&a, large, &in);
        CHECK(bloom_intersect_into(&in, &b, &err) == BLOOM_OK && in.nbits == small);
        uint8_t *be = fold(&a, small, &expect);
        for (uint64_t w = 0; w < expect.nbytes; w++)
            expect.bits[w] &= b.bits[w];
        CHECK(same_bytes(&in, &expect));
        uint8_t *bin2 = fold(&b, small, &u);
        CHECK(bloom_intersect_into(&u, &a, &err) == BLOOM_OK && same_bytes(&u, &expect));
        for (uint64_t i = 1000; i < 2000; i++)
            lost += !bloom_contains_hash(&in, key_at(40, i));
        CHECK(lost == 0);

        /* estimates: each counted at its own size, the common values from
         * how the smaller's bits sit in the larger; symmetric */
        double est, est2;
        CHECK(bloom_estimate_union(&a, &b, &est, &err) == BLOOM_OK);
        CHECK(bloom_estimate_union(&b, &a, &est2, &err) == BLOOM_OK && est == est2);
        CHECK_MSG(fabs(est - 2500) < 150, "union %g", est);
        CHECK(bloom_estimate_intersection(&a, &b, &est, &err) == BLOOM_OK);
        CHECK_MSG(fabs(est - 1000) < 200, "intersection %g", est);
        CHECK(bloom_estimate_jaccard(&a, &b, &est, &err) == BLOOM_OK);
        CHECK_MSG(fabs(est - 0.4) < 0.08, "jaccard %g", est);
        free(ba), free(bb), free(bboth), free(bu), free(bu2), free(bin), free(be), free(bin2);
    }
}

/* A large filter folded to a small one's size would be all ones: the
 * estimates across sizes must not fold it.  Their error grows as the square
 * root of the size ratio (a small filter places a value only to within a
 * run of that many bits): about 2% at 8x, 8% at 64x (sd over seeds). */
static void test_estimates_where_folding_saturates(void)
{
    static const struct {
        uint64_t large_nbits, large_n;
        double tolerance;
    } cases[] = {{1 << 17, 10000, 80}, {1 << 20, 100000, 300}};
    for (int layout = 0; layout < 2; layout++) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            bloom_filter a, b;
            unsigned k = layout == BLOOM_LAYOUT_BLOCKED ? 8 : 7;
            uint8_t *ba = build(layout, cases[i].large_nbits, k, 50, cases[i].large_n, &a);
            uint8_t *bb = build(layout, 1 << 14, k, 50, 1000, &b); /* keys 0..999: all in a */
            bloom_error err;
            double est;
            CHECK(bloom_estimate_intersection(&a, &b, &est, &err) == BLOOM_OK);
            CHECK_MSG(fabs(est - 1000) < cases[i].tolerance, "%s %llu: intersection %g",
                      bloom_layout_name(layout), (unsigned long long)cases[i].large_n, est);
            CHECK(bloom_estimate_union(&a, &b, &est, &err) == BLOOM_OK);
            CHECK_MSG(fabs(est - (double)cases[i].large_n) < 0.02 * (double)cases[i].large_n,
                      "%s union %g", bloom_layout_name(layout), est);
            free(bb);
            bb = build(layout, 1 << 14, k, 51, 1000, &b); /* another stream: none in a */
            CHECK(bloom_estimate_intersection(&a, &b, &est, &err) == BLOOM_OK);
            CHECK_MSG(est < cases[i].tolerance, "%s disjoint intersection %g",
                      bloom_layout_name(layout), est);
            free(ba), free(bb);
        }
    }
}

static void test_combine_refuses(void)
{
    bloom_filter a, b, c, d, e;
    uint8_t *ba = new_filter(BLOOM_LAYOUT_CLASSIC, 4096, 7, 0, &a);
    uint8_t *bb = new_filter(BLOOM_LAYOUT_CLASSIC, 1024, 7, 1, &b);   /* seed */
    uint8_t *bc = new_filter(BLOOM_LAYOUT_CLASSIC, 1024, 6, 0, &c);   /* nhashes */
    uint8_t *bd = new_filter(BLOOM_LAYOUT_CLASSIC, 3072, 7, 0, &d);   /* 3072 and 4096 */
    uint8_t *be = new_filter(BLOOM_LAYOUT_BLOCKED, 4096, 8, 0, &e);   /* layout */
    bloom_error err;
    CHECK(bloom_check_compatible(&a, &b, &err) == BLOOM_E_MISMATCH);
    CHECK(bloom_check_compatible(&a, &c, &err) == BLOOM_E_MISMATCH);
    CHECK(bloom_check_compatible(&a, &d, &err) == BLOOM_E_MISMATCH);
    CHECK(bloom_check_compatible(&d, &a, &err) == BLOOM_E_MISMATCH);
    CHECK(bloom_check_compatible(&a, &e, &err) == BLOOM_E_MISMATCH);
    /* a refused combination leaves dst as it was */
    CHECK(bloom_union_into(&a, &b, &err) == BLOOM_E_MISMATCH && a.nbits == 4096);
    const char *hint = bloom_status_hint(BLOOM_E_MISMATCH);
    CHECK(hint != NULL && strstr(hint, "bloom_agg(x, capacity, fpr)") != NULL);
    CHECK(bloom_status_hint(BLOOM_E_FORMAT) == NULL);
    free(ba), free(bb), free(bc), free(bd), free(be);
}

const test_case fold_tests[] = {
    {"fold: folded filter = filter built at the smaller size", test_fold_is_the_smaller_build},
    {"fold: sizes that do not divide refused", test_fold_refuses_sizes_that_do_not_divide},
    {"fold: union and intersection across sizes", test_combine_across_sizes},
    {"fold: estimates across sizes where folding saturates", test_estimates_where_folding_saturates},
    {"fold: other seed, nhashes, layout or sizes refused", test_combine_refuses},
};
const size_t fold_tests_count = sizeof fold_tests / sizeof fold_tests[0];
