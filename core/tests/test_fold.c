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
    size_t len = bloom_layout_size(f->layout, nbits);
    uint8_t *buf = malloc(len);
    bloom_error err;
    CHECK_MSG(bloom_fold(f, nbits, buf, len, out, &err) == BLOOM_OK, "%s", err.message);
    return buf;
}

/* Same bytes, header included (the views point just past the headers). */
static bool same_bytes(const bloom_filter *a, const bloom_filter *b)
{
    return a->nbytes == b->nbytes &&
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
    CHECK(bloom_check_fold(&c, -64, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "to -64:") != NULL); /* as given, not as 0 */
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

/* A new buffer holding a op b. */
static uint8_t *combine(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                        bloom_filter *out)
{
    size_t len;
    bloom_error err;
    CHECK_MSG(bloom_combine_size(a, b, op, &len, NULL, &err) == BLOOM_OK, "%s", err.message);
    uint8_t *buf = malloc(len);
    CHECK_MSG(bloom_combine(a, b, op, 0, buf, len, out, &err) == BLOOM_OK, "%s", err.message);
    bloom_filter back;
    CHECK_MSG(bloom_parse(buf, len, &back, &err) == BLOOM_OK, "%s", err.message);
    return buf;
}

/* Filters of sizes that divide combine without losing the larger's
 * precision: the union keeps both sizes, as the stages of a scalable
 * filter (each stage bit for bit its member); the intersection is at the
 * larger size, the smaller stretched, and keeps every common key. */
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
        bloom_filter a, b, u, u2, in, in2, st, expect;
        uint8_t *ba = build(layout, large, k, 40, 2000, &a);
        uint8_t *bb = new_filter(layout, small, k, 5, &b);
        for (uint64_t i = 1000; i < 2500; i++)
            bloom_add_hash(&b, key_at(40, i));
        bloom_error err;
        CHECK(bloom_check_compatible(&a, &b, &err) == BLOOM_OK);

        /* union: a scalable filter of two stages, the small one first */
        uint8_t *bu = combine(&a, &b, BLOOM_OP_UNION, &u);
        uint8_t *bu2 = combine(&b, &a, BLOOM_OP_UNION, &u2);
        CHECK(u.layout == BLOOM_LAYOUT_SCALABLE && u.nbits == small + large);
        CHECK(same_bytes(&u, &u2)); /* either order */
        uint64_t lost = 0;
        for (uint64_t i = 0; i < 2500; i++)
            lost += !bloom_contains_hash(&u, key_at(40, i));
        CHECK_MSG(lost == 0, "%llu members lost", (unsigned long long)lost);
        /* its stages are the members, bit for bit: the union's rate is the
         * sum of theirs, and the large one keeps its precision */
        double expect_fpr = 1 - (1 - bloom_estimate_fpr(&a)) * (1 - bloom_estimate_fpr(&b));
        CHECK_MSG(fabs(bloom_estimate_fpr(&u) - expect_fpr) < 1e-12, "fpr %g, expected %g",
                  bloom_estimate_fpr(&u), expect_fpr);
        CHECK(bloom_popcount(&u) == bloom_popcount(&a) + bloom_popcount(&b));
        CHECK_MSG(fabs(bloom_estimate_cardinality(&u) - 2500) < 150, "union count %g",
                  bloom_estimate_cardinality(&u));

        /* intersection: the small stretched to the large size, ANDed */
        uint8_t *bin = combine(&a, &b, BLOOM_OP_INTERSECT, &in);
        uint8_t *bin2 = combine(&b, &a, BLOOM_OP_INTERSECT, &in2);
        CHECK(in.layout == layout && in.nbits == large && same_bytes(&in, &in2));
        size_t len = bloom_serialized_size(large);
        uint8_t *bst = malloc(len);
        CHECK(bloom_stretch(&b, large, bst, len, &st, &err) == BLOOM_OK);
        uint8_t *be = fold(&a, large, &expect);
        for (uint64_t w = 0; w < expect.nbytes; w++)
            expect.bits[w] &= st.bits[w];
        CHECK(same_bytes(&in, &expect));
        for (uint64_t i = 1000; i < 2000; i++)
            lost += !bloom_contains_hash(&in, key_at(40, i));
        CHECK(lost == 0);
        /* at least as sparse as the large member, so as precise */
        CHECK(bloom_popcount(&in) <= bloom_popcount(&a));
        /* in place: into the larger, whose shape it has */
        uint8_t *bip = fold(&a, large, &expect);
        CHECK(bloom_intersect_into(&expect, &b, &err) == BLOOM_OK && same_bytes(&expect, &in));
        /* not into the smaller */
        CHECK(bloom_intersect_into(&b, &a, &err) == BLOOM_E_INVALID_ARGUMENT);

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
        free(ba), free(bb), free(bu), free(bu2), free(bin), free(bin2), free(bst), free(be);
        free(bip);
    }
}

/* Stretching (tiling) a filter of m bits to f m answers every probe as the
 * small filter does: the multiply-high placement puts a probe at P of the
 * large size in the run floor(P / f) of its small position.  Checked on
 * every key added and on 2^17 others, for classic sizes with odd factors
 * and sizes that are not multiples of 64, blocked and counting; the result
 * folds back to the small filter, and holds the filter built at the large
 * size (it is the least large filter that keeps every member of S). */
static void test_stretch_answers_as_the_small_filter(void)
{
    static const struct {
        int layout;
        uint64_t nbits;
        unsigned k;
        uint64_t n;
        unsigned factors[4];
    } cases[] = {
        {BLOOM_LAYOUT_CLASSIC, 64, 7, 2, {2, 64, 2048, 3}},
        {BLOOM_LAYOUT_CLASSIC, 999, 3, 60, {2, 3, 37, 130}},
        {BLOOM_LAYOUT_CLASSIC, 6720, 7, 700, {1, 5, 9, 64}},
        {BLOOM_LAYOUT_CLASSIC, 1 << 14, 10, 1500, {2, 16, 100, 1024}},
        {BLOOM_LAYOUT_BLOCKED, 256, 8, 5, {2, 3, 64, 1000}},
        {BLOOM_LAYOUT_BLOCKED, 360 * 256, 8, 4000, {1, 2, 7, 16}},
        {BLOOM_LAYOUT_COUNTING, 100, 7, 12, {2, 3, 50, 64}},
        {BLOOM_LAYOUT_COUNTING, 4096, 7, 500, {1, 4, 9, 32}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bloom_filter sm;
        uint8_t *bs = build(cases[c].layout, cases[c].nbits, cases[c].k, 60, cases[c].n, &sm);
        for (int i = 0; i < 4; i++) {
            uint64_t nbits = cases[c].nbits * cases[c].factors[i];
            size_t len = bloom_layout_size(cases[c].layout, nbits);
            uint8_t *bt = malloc(len);
            bloom_filter t, back, direct;
            bloom_error err;
            CHECK_MSG(bloom_stretch(&sm, nbits, bt, len, &t, &err) == BLOOM_OK, "%s", err.message);
            CHECK(bloom_parse(bt, len, &back, &err) == BLOOM_OK); /* padding stays clear */
            uint64_t differ = 0;
            for (uint64_t j = 0; j < cases[c].n; j++)
                differ += !bloom_contains_hash(&t, key_at(60, j));
            for (uint64_t j = 0; j < (1 << 17); j++) {
                uint64_t h = key_at(61, j);
                differ += bloom_contains_hash(&t, h) != bloom_contains_hash(&sm, h);
            }
            CHECK_MSG(differ == 0, "%s %llu stretched by %u: %llu answers differ",
                      bloom_layout_name(cases[c].layout), (unsigned long long)cases[c].nbits,
                      cases[c].factors[i], (unsigned long long)differ);
            /* it folds back to the small filter (counting: sums, so only
             * the presence folds back; checked through the classic form) */
            if (cases[c].layout != BLOOM_LAYOUT_COUNTING) {
                bloom_filter f;
                uint8_t *bf = fold(&t, cases[c].nbits, &f);
                CHECK(same_bytes(&f, &sm));
                free(bf);
            }
            /* every bit the large build sets, the stretched filter has */
            uint8_t *bd = build(cases[c].layout, nbits, cases[c].k, 60, cases[c].n, &direct);
            uint64_t missing = 0;
            for (uint64_t w = 0; w < (nbits + 63) / 64; w++) {
                uint64_t d, s;
                if (cases[c].layout == BLOOM_LAYOUT_COUNTING) {
                    bloom_filter dc, tc;
                    size_t cl = bloom_serialized_size(nbits);
                    uint8_t *b1 = malloc(cl), *b2 = malloc(cl);
                    CHECK(bloom_to_classic(&direct, b1, cl, &dc, NULL) == BLOOM_OK);
                    CHECK(bloom_to_classic(&t, b2, cl, &tc, NULL) == BLOOM_OK);
                    for (uint64_t x = 0; x < dc.nbytes; x++)
                        missing += (uint64_t)__builtin_popcount(dc.bits[x] & ~tc.bits[x]);
                    free(b1), free(b2);
                    break;
                }
                memcpy(&d, direct.bits + 8 * w, 8);
                memcpy(&s, t.bits + 8 * w, 8);
                missing += (uint64_t)__builtin_popcountll(d & ~s);
            }
            CHECK_MSG(missing == 0, "%llu bits of the direct build missing", (unsigned long long)missing);
            free(bd);
            free(bt);
        }
        free(bs);
    }
    /* refused: not a multiple, smaller, blocked not in blocks, scalable */
    bloom_filter f;
    uint8_t *bf = new_filter(BLOOM_LAYOUT_CLASSIC, 1000, 7, 0, &f);
    bloom_error err;
    CHECK(bloom_check_stretch(&f, 1500, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "not a multiple of 1000") != NULL);
    CHECK(bloom_check_stretch(&f, 500, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_stretch(&f, 3000, &err) == BLOOM_OK);
    free(bf);
    bf = new_filter(BLOOM_LAYOUT_BLOCKED, 512, 8, 0, &f);
    CHECK(bloom_check_stretch(&f, 1000, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_stretch(&f, 768, &err) == BLOOM_E_INVALID_ARGUMENT); /* 3 blocks of 2 */
    CHECK(bloom_check_stretch(&f, 1024, &err) == BLOOM_OK);
    free(bf);
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
    /* a union of two sizes is no longer in place: a new buffer */
    bloom_filter f;
    uint8_t *bf = new_filter(BLOOM_LAYOUT_CLASSIC, 1024, 7, 0, &f);
    CHECK(bloom_union_into(&a, &f, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "new buffer") != NULL);
    free(bf);
    const char *hint = bloom_status_hint(BLOOM_E_MISMATCH);
    CHECK(hint != NULL && strstr(hint, "bloom_agg(x, capacity, fpr)") != NULL);
    CHECK(bloom_status_hint(BLOOM_E_FORMAT) == NULL);
    free(ba), free(bb), free(bc), free(bd), free(be);
}

const test_case fold_tests[] = {
    {"fold: folded filter = filter built at the smaller size", test_fold_is_the_smaller_build},
    {"fold: sizes that do not divide refused", test_fold_refuses_sizes_that_do_not_divide},
    {"fold: union (size classes as stages) and intersection (stretched) across sizes",
     test_combine_across_sizes},
    {"stretch: a filter tiled to a multiple of its size answers as it does",
     test_stretch_answers_as_the_small_filter},
    {"fold: estimates across sizes where folding saturates", test_estimates_where_folding_saturates},
    {"fold: other seed, nhashes, layout or sizes refused", test_combine_refuses},
};
const size_t fold_tests_count = sizeof fold_tests / sizeof fold_tests[0];
