/*
 * test_variants.c - the counting and scalable layouts, and rollups of
 * filters of different size classes (their goals, measured here).
 */
#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


static uint8_t *empty(int layout, uint64_t capacity, double fpr, uint64_t seed, size_t *len,
                      bloom_filter *f)
{
    bloom_error err;
    CHECK_MSG(bloom_empty_size(layout, (int64_t)capacity, fpr, 0, len, &err) == BLOOM_OK, "%s",
              err.message);
    uint8_t *buf = malloc(*len);
    CHECK_MSG(bloom_empty_init(buf, *len, layout, (int64_t)capacity, fpr, seed, f, &err) == BLOOM_OK,
              "%s", err.message);
    return buf;
}

/* The filter the builder (bloom_agg(x)) makes of keys [0, n) of a stream. */
static uint8_t *built(int layout, uint64_t stream, uint64_t n, size_t *len, bloom_filter *f)
{
    bloom_builder *b;
    bloom_error err;
    CHECK(bloom_builder_create(&malloc_allocator, layout, 0.01, 0, &b, &err) == BLOOM_OK);
    for (uint64_t i = 0; i < n; i++)
        CHECK(bloom_builder_add_hash(b, key_at(stream, i), &err) == BLOOM_OK);
    CHECK(bloom_builder_result_size(b, len, &err) == BLOOM_OK);
    uint8_t *buf = malloc(*len);
    CHECK_MSG(bloom_builder_finish(b, buf, *len, f, &err) == BLOOM_OK, "%s", err.message);
    bloom_builder_destroy(b);
    bloom_filter back;
    CHECK_MSG(bloom_parse(buf, *len, &back, &err) == BLOOM_OK, "%s", err.message);
    return buf;
}

/* ---- counting ---- */

/* The goal: 2,000 values in, 1,000 out: no false negative among the
 * rest, at most 3% of the removed still reported, at most 4.2 times the
 * classic filter of the same capacity and rate. */
static void test_counting_add_remove(void)
{
    size_t len, classic_len;
    bloom_filter f, c;
    uint8_t *buf = empty(BLOOM_LAYOUT_COUNTING, 2000, 0.01, 3, &len, &f);
    uint8_t *cbuf = empty(BLOOM_LAYOUT_CLASSIC, 2000, 0.01, 3, &classic_len, &c);
    CHECK(f.nbits == c.nbits && f.nhashes == c.nhashes);
    CHECK_MSG((double)len <= 4.2 * (double)classic_len, "%zu bytes against %zu", len, classic_len);
    for (uint64_t i = 0; i < 2000; i++)
        bloom_add_hash(&f, key_at(1, i));
    bloom_error err;
    for (uint64_t i = 0; i < 1000; i++)
        CHECK_MSG(bloom_remove_hash(&f, key_at(1, i), &err) == BLOOM_OK, "%s", err.message);
    uint64_t lost = 0, kept = 0;
    for (uint64_t i = 1000; i < 2000; i++)
        lost += !bloom_contains_hash(&f, key_at(1, i));
    for (uint64_t i = 0; i < 1000; i++)
        kept += bloom_contains_hash(&f, key_at(1, i));
    CHECK_MSG(lost == 0, "%llu false negatives", (unsigned long long)lost);
    CHECK_MSG(kept <= 30, "%llu of 1000 removed still reported", (unsigned long long)kept);
    /* it is the filter of the 1,000 left: the same bytes as adding only them */
    size_t len2;
    bloom_filter g;
    uint8_t *buf2 = empty(BLOOM_LAYOUT_COUNTING, 2000, 0.01, 3, &len2, &g);
    for (uint64_t i = 1000; i < 2000; i++)
        bloom_add_hash(&g, key_at(1, i));
    CHECK(memcmp(buf, buf2, len) == 0);
    /* estimates: as the classic filter of the same set */
    CHECK_MSG(fabs(bloom_estimate_cardinality(&f) - 1000) < 50, "%g", bloom_estimate_cardinality(&f));
    bloom_stats stats;
    bloom_get_stats(&f, &stats);
    CHECK(stats.bits_set == bloom_popcount(&f) && stats.est_fpr == bloom_estimate_fpr(&f));
    free(buf), free(buf2), free(cbuf);
}

static void test_counting_removal_errors(void)
{
    bloom_filter f, c;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_COUNTING, 1000, 5, 0, &f);
    uint8_t *cbuf = new_filter(BLOOM_LAYOUT_CLASSIC, 1000, 5, 0, &c);
    bloom_error err;
    /* absent: refused, nothing changed */
    CHECK(bloom_remove_hash(&f, 42, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err.message, "not in the filter") != NULL, "%s", err.message);
    CHECK(bloom_popcount(&f) == 0);
    bloom_add_hash(&f, 42);
    CHECK(bloom_remove_hash(&f, 42, &err) == BLOOM_OK);
    CHECK(bloom_remove_hash(&f, 42, &err) == BLOOM_E_INVALID_ARGUMENT); /* twice */
    /* a layout without counters */
    CHECK(bloom_remove_hash(&c, 42, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err.message, "classic filter has no counters") != NULL, "%s", err.message);
    CHECK(bloom_check_removable(&f, &err) == BLOOM_OK);
    free(buf), free(cbuf);
}

/* 4-bit counters saturate at 15 and then never decrement: a value added
 * more often than that, removed as often, stays (no false negative for the
 * values that share its counters). */
static void test_counting_saturation(void)
{
    bloom_filter f;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_COUNTING, 64, 3, 0, &f);
    bloom_error err;
    for (int i = 0; i < 20; i++)
        bloom_add_hash(&f, 7);
    bloom_add_hash(&f, 8);
    for (int i = 0; i < 20; i++)
        CHECK(bloom_remove_hash(&f, 7, &err) == BLOOM_OK);
    CHECK(bloom_contains_hash(&f, 7) && bloom_contains_hash(&f, 8));
    /* no nibble over 15, none wrapped */
    for (uint64_t i = 0; i < f.nbits; i++) {
        unsigned c = (unsigned)(f.bits[i >> 1] >> (4 * (i & 1))) & 15u;
        CHECK(c == 0 || c == 15 || c == 1);
    }
    free(buf);
}

/* bloom_agg(x) with the counting layout: the counters of the set, whose
 * classic form is bit for bit the classic bloom_agg(x). */
static void test_counting_builder_and_classic_form(void)
{
    size_t lc, lk;
    bloom_filter classic, counting, conv;
    for (uint64_t n = 1; n <= 30000; n *= 7) {
        uint8_t *bc = built(BLOOM_LAYOUT_CLASSIC, 5, n, &lc, &classic);
        uint8_t *bk = built(BLOOM_LAYOUT_COUNTING, 5, n, &lk, &counting);
        CHECK(counting.layout == BLOOM_LAYOUT_COUNTING && counting.nbits == classic.nbits);
        size_t size;
        CHECK(bloom_to_classic_size(&counting, &size, NULL) == BLOOM_OK && size == lc);
        uint8_t *bv = malloc(size);
        CHECK(bloom_to_classic(&counting, bv, size, &conv, NULL) == BLOOM_OK);
        CHECK_MSG(memcmp(bv, bc, lc) == 0, "n=%llu", (unsigned long long)n);
        CHECK(bloom_estimate_fpr(&counting) == bloom_estimate_fpr(&classic));
        CHECK(bloom_estimate_cardinality(&counting) == bloom_estimate_cardinality(&classic));
        /* a classic filter converts to itself; blocked does not convert */
        CHECK(bloom_to_classic(&classic, bv, size, &conv, NULL) == BLOOM_OK);
        CHECK(memcmp(bv, bc, lc) == 0);
        free(bc), free(bk), free(bv);
    }
    bloom_filter b;
    uint8_t *bb = new_filter(BLOOM_LAYOUT_BLOCKED, 256, 8, 0, &b);
    size_t size;
    bloom_error err;
    CHECK(bloom_to_classic_size(&b, &size, &err) == BLOOM_E_INVALID_ARGUMENT);
    free(bb);
}

/* Union adds counters (saturating): the filter of both multisets; the
 * intersection takes their minimum; across sizes the intersection
 * stretches, the union refuses. */
static void test_counting_combine(void)
{
    bloom_filter a, b, both, u, in;
    uint8_t *ba = new_filter(BLOOM_LAYOUT_COUNTING, 4096, 7, 0, &a);
    uint8_t *bb = new_filter(BLOOM_LAYOUT_COUNTING, 4096, 7, 0, &b);
    uint8_t *bboth = new_filter(BLOOM_LAYOUT_COUNTING, 4096, 7, 0, &both);
    for (uint64_t i = 0; i < 300; i++) {
        bloom_add_hash(&a, key_at(2, i));
        bloom_add_hash(&both, key_at(2, i));
    }
    for (uint64_t i = 200; i < 400; i++) {
        bloom_add_hash(&b, key_at(2, i));
        bloom_add_hash(&both, key_at(2, i));
    }
    size_t len;
    bool in_place;
    bloom_error err;
    CHECK(bloom_combine_size(&a, &b, BLOOM_OP_UNION, &len, &in_place, &err) == BLOOM_OK && in_place);
    uint8_t *bu = malloc(len), *bi = malloc(len);
    CHECK(bloom_combine(&a, &b, BLOOM_OP_UNION, 0, bu, len, &u, &err) == BLOOM_OK);
    CHECK(memcmp(bu, bboth, len) == 0); /* a value in both counts twice */
    CHECK(bloom_combine(&a, &b, BLOOM_OP_INTERSECT, 0, bi, len, &in, &err) == BLOOM_OK);
    uint64_t lost = 0;
    for (uint64_t i = 200; i < 300; i++)
        lost += !bloom_contains_hash(&in, key_at(2, i));
    CHECK(lost == 0);
    /* removing a common value from the intersection keeps the others */
    for (uint64_t i = 200; i < 250; i++)
        CHECK(bloom_remove_hash(&in, key_at(2, i), &err) == BLOOM_OK);
    for (uint64_t i = 250; i < 300; i++)
        lost += !bloom_contains_hash(&in, key_at(2, i));
    CHECK(lost == 0);
    /* across sizes */
    bloom_filter s;
    uint8_t *bs = new_filter(BLOOM_LAYOUT_COUNTING, 1024, 7, 0, &s);
    for (uint64_t i = 250; i < 260; i++)
        bloom_add_hash(&s, key_at(2, i));
    CHECK(bloom_combine_size(&a, &s, BLOOM_OP_UNION, &len, NULL, &err) == BLOOM_E_MISMATCH);
    CHECK_MSG(strstr(err.message, "counting filters union at one nbits") != NULL, "%s", err.message);
    CHECK(bloom_combine_size(&s, &a, BLOOM_OP_INTERSECT, &len, &in_place, &err) == BLOOM_OK);
    CHECK(!in_place && len == bloom_layout_size(BLOOM_LAYOUT_COUNTING, 4096));
    CHECK(bloom_combine(&s, &a, BLOOM_OP_INTERSECT, 0, bi, len, &in, &err) == BLOOM_OK);
    CHECK(in.nbits == 4096);
    for (uint64_t i = 250; i < 260; i++)
        lost += !bloom_contains_hash(&in, key_at(2, i));
    CHECK(lost == 0);
    /* a classic filter does not combine with a counting one */
    bloom_filter c;
    uint8_t *bc = new_filter(BLOOM_LAYOUT_CLASSIC, 4096, 7, 0, &c);
    CHECK(bloom_combine_size(&a, &c, BLOOM_OP_UNION, &len, NULL, &err) == BLOOM_E_MISMATCH);
    CHECK(bloom_combine_size(&c, &a, BLOOM_OP_INTERSECT, &len, NULL, &err) == BLOOM_E_MISMATCH);
    free(ba), free(bb), free(bboth), free(bu), free(bi), free(bs), free(bc);
}

/* Folding counters sums them: the counting filter built at the smaller size. */
static void test_counting_fold(void)
{
    bloom_filter big, small, folded;
    uint8_t *bb = new_filter(BLOOM_LAYOUT_COUNTING, 4096, 5, 1, &big);
    uint8_t *bs = new_filter(BLOOM_LAYOUT_COUNTING, 512, 5, 1, &small);
    for (uint64_t i = 0; i < 60; i++) {
        bloom_add_hash(&big, key_at(3, i));
        bloom_add_hash(&small, key_at(3, i));
    }
    size_t len = bloom_layout_size(BLOOM_LAYOUT_COUNTING, 512);
    uint8_t *bf = malloc(len);
    bloom_error err;
    CHECK_MSG(bloom_fold(&big, 512, bf, len, &folded, &err) == BLOOM_OK, "%s", err.message);
    CHECK(memcmp(bf, bs, len) == 0);
    free(bb), free(bs), free(bf);
}

/* ---- scalable ---- */

/* The goals, after 50 times the capacity: no false negative, a
 * measured rate at most 1.5 times the target, at most twice the bytes of
 * a classic filter sized for the final count. */
static void test_scalable_grows(void)
{
    static const uint64_t capacities[] = {1, 100, 1000, 10000};
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
        uint64_t cap = capacities[c], n = 50 * cap;
        size_t len;
        bloom_filter f;
        void *buf = empty(BLOOM_LAYOUT_SCALABLE, cap, 0.01, 9, &len, &f);
        bloom_error err;
        uint64_t batch[256];
        for (uint64_t i = 0; i < n;) {
            size_t m = 0;
            while (m < 256 && i < n)
                batch[m++] = key_at(4, i++);
            CHECK_MSG(bloom_insert(&malloc_allocator, 0, &buf, &len, &f, batch, m, &err) == BLOOM_OK, "%s",
                      err.message);
        }
        bloom_filter back;
        CHECK_MSG(bloom_parse(buf, len, &back, &err) == BLOOM_OK, "%s", err.message);
        CHECK(bloom_filter_size(&f) == len);
        uint64_t lost = 0;
        for (uint64_t i = 0; i < n; i++)
            lost += !bloom_contains_hash(&f, key_at(4, i));
        CHECK_MSG(lost == 0, "capacity %llu: %llu false negatives", (unsigned long long)cap,
                  (unsigned long long)lost);
        double rate = measured_fpr(&f, 400000), est = bloom_estimate_fpr(&f);
        CHECK_MSG(rate <= 0.015 && est <= 0.01, "capacity %llu: measured %g, estimated %g",
                  (unsigned long long)cap, rate, est);
        size_t classic_len;
        bloom_filter cl;
        uint8_t *cb = empty(BLOOM_LAYOUT_CLASSIC, n, 0.01, 9, &classic_len, &cl);
        double ratio = (double)len / (double)classic_len;
        /* a capacity of 1: 64-bit stages, each with its 32-byte record */
        CHECK_MSG(cap == 1 || ratio <= 2.0, "capacity %llu: %zu bytes, %.2f times classic",
                  (unsigned long long)cap, len, ratio);
        double card = bloom_estimate_cardinality(&f);
        CHECK_MSG(fabs(card - (double)n) < 0.05 * (double)n + 3, "capacity %llu: count %g",
                  (unsigned long long)cap, card);
        /* a repeat adds nothing: the same bytes */
        uint8_t *copy = malloc(len);
        memcpy(copy, buf, len);
        uint64_t again = key_at(4, 7);
        CHECK(bloom_insert(&malloc_allocator, 0, &buf, &len, &f, &again, 1, &err) == BLOOM_OK);
        CHECK(memcmp(copy, buf, len) == 0);
        free(copy), free(cb), free(buf);
    }
}

/* Growth stops at the host's limit with an error, the filter intact. */
static void test_scalable_host_limit(void)
{
    size_t len;
    bloom_filter f;
    void *buf = empty(BLOOM_LAYOUT_SCALABLE, 10, 0.01, 0, &len, &f);
    bloom_error err;
    bloom_status st = BLOOM_OK;
    uint64_t i = 0;
    while (st == BLOOM_OK && i < 100000) {
        uint64_t h = key_at(5, i++);
        st = bloom_insert(&malloc_allocator, 2000, &buf, &len, &f, &h, 1, &err);
    }
    CHECK(st == BLOOM_E_LIMIT);
    CHECK(len <= 2000);
    bloom_filter back;
    CHECK(bloom_parse(buf, len, &back, NULL) == BLOOM_OK);
    for (uint64_t j = 0; j + 1 < i; j++)
        CHECK(bloom_contains_hash(&f, key_at(5, j)));
    free(buf);
}

/* bloom_agg(x) with the scalable layout: one stage for the distinct count,
 * whatever the order; it grows from there. */
static void test_scalable_builder(void)
{
    size_t len;
    bloom_filter f;
    uint8_t *buf = built(BLOOM_LAYOUT_SCALABLE, 6, 5000, &len, &f);
    size_t elen;
    bloom_filter e;
    uint8_t *ebuf = empty(BLOOM_LAYOUT_SCALABLE, 5000, 0.01, 0, &elen, &e);
    CHECK(elen == len);
    uint64_t lost = 0;
    for (uint64_t i = 0; i < 5000; i++)
        lost += !bloom_contains_hash(&f, key_at(6, i));
    CHECK(lost == 0);
    CHECK(measured_fpr(&f, 100000) < 0.01);
    /* the count of its stage is the distinct count: the record's last field */
    uint64_t count = 0;
    for (int i = 0; i < 8; i++)
        count |= (uint64_t)buf[32 + 32 + 24 + i] << (8 * i);
    CHECK(count == 5000);
    free(buf), free(ebuf);
}

static void test_scalable_combine(void)
{
    size_t la, lb;
    bloom_filter a, b, u;
    void *ba = empty(BLOOM_LAYOUT_SCALABLE, 100, 0.01, 0, &la, &a);
    void *bb = empty(BLOOM_LAYOUT_SCALABLE, 100, 0.01, 0, &lb, &b);
    bloom_error err;
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t h = key_at(7, i);
        CHECK(bloom_insert(&malloc_allocator, 0, &ba, &la, &a, &h, 1, &err) == BLOOM_OK);
    }
    for (uint64_t i = 0; i < 150; i++) {
        uint64_t h = key_at(8, i);
        CHECK(bloom_insert(&malloc_allocator, 0, &bb, &lb, &b, &h, 1, &err) == BLOOM_OK);
    }
    size_t len;
    bool in_place;
    CHECK(bloom_combine_size(&a, &b, BLOOM_OP_UNION, &len, &in_place, &err) == BLOOM_OK);
    CHECK(len == la && in_place); /* b's two stages are a's first two */
    uint8_t *bu = malloc(len);
    CHECK(bloom_combine(&b, &a, BLOOM_OP_UNION, 0, bu, len, &u, &err) == BLOOM_OK);
    bloom_filter back;
    CHECK(bloom_parse(bu, len, &back, &err) == BLOOM_OK);
    uint64_t lost = 0;
    for (uint64_t i = 0; i < 1000; i++)
        lost += !bloom_contains_hash(&u, key_at(7, i));
    for (uint64_t i = 0; i < 150; i++)
        lost += !bloom_contains_hash(&u, key_at(8, i));
    CHECK(lost == 0);
    CHECK_MSG(fabs(bloom_estimate_cardinality(&u) - 1150) < 60, "%g", bloom_estimate_cardinality(&u));
    CHECK(bloom_union_into(&a, &b, &err) == BLOOM_OK && bloom_equal(&a, &u));
    /* no intersection; no union with other growth or a classic filter */
    CHECK(bloom_combine_size(&a, &b, BLOOM_OP_INTERSECT, &len, NULL, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "have no intersection") != NULL);
    /* the same parameters on both sides are said once */
    CHECK(strstr(err.message, "both have layout scalable") != NULL &&
          strstr(err.message, "right has") == NULL);
    size_t lc;
    bloom_filter c, d;
    void *bc = empty(BLOOM_LAYOUT_SCALABLE, 200, 0.01, 0, &lc, &c);
    CHECK(bloom_combine_size(&a, &c, BLOOM_OP_UNION, &len, NULL, &err) == BLOOM_E_MISMATCH);
    CHECK_MSG(strstr(err.message, "capacity 100") && strstr(err.message, "capacity 200"), "%s",
              err.message);
    uint8_t *bd = new_filter(BLOOM_LAYOUT_CLASSIC, 1024, 7, 0, &d);
    CHECK(bloom_combine_size(&a, &d, BLOOM_OP_UNION, &len, NULL, &err) == BLOOM_E_MISMATCH);
    /* nor folds, nor stretches, nor gives pair estimates */
    double x;
    CHECK(bloom_check_fold(&a, 64, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_stretch(&a, a.nbits * 2, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_estimate_jaccard(&a, &b, &x, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_remove_hash(&a, 1, &err) == BLOOM_E_INVALID_ARGUMENT);
    bloom_probe_plan plan;
    bloom_probe_plan_for(&a, 1, &plan);
    CHECK(plan.count == 0);
    free(ba), free(bb), free(bu), free(bc), free(bd);
}

/* Every byte of a scalable filter is checked: the stack header, each stage
 * record, the sums in the filter header, the length, padding. */
static void test_scalable_malformed(void)
{
    size_t len;
    bloom_filter f;
    void *buf = empty(BLOOM_LAYOUT_SCALABLE, 100, 0.01, 0, &len, &f);
    uint64_t h[300];
    for (int i = 0; i < 300; i++)
        h[i] = key_at(9, (uint64_t)i);
    bloom_error err;
    CHECK(bloom_insert(&malloc_allocator, 0, &buf, &len, &f, h, 300, &err) == BLOOM_OK);
    uint8_t *good = buf;
    CHECK(good[32 + 17] == 2); /* two stages */
    static const struct {
        size_t offset;
        uint8_t value;
        const char *message;
    } damage[] = {
        {7, 3, "header nhashes"},                 /* not the largest stage's */
        {24, 1, "header nbits"},                  /* not the sum */
        {32 + 7, 0x7f, "target false-positive"},  /* fpr ~ 2.6e304 */
        {32 + 15, 0x40, "tightening ratio"},      /* ratio 2.0 + */
        {32 + 16, 1, "growth 1"},
        {32 + 16, 17, "growth 17"},
        {32 + 17, 0, "0 stages"},
        {32 + 17, 3, "stage 2"},
        {32 + 20, 1, "reserved byte 52"},
        {64 + 8, 1, "stage 0: nbits"},
        {64 + 8, 2, "layout id 2"},
        {64 + 9, 0, "stage 0: nhashes 0"},
        {64 + 12, 1, "reserved byte 12 of its record"},
        {64 + 16, 7, "capacity"},
        {64 + 32 + 16, 1, "capacity"},
    };
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        uint8_t *bad = malloc(len);
        memcpy(bad, good, len);
        bad[damage[i].offset] = damage[i].value;
        bloom_filter v;
        CHECK_MSG(bloom_parse(bad, len, &v, &err) == BLOOM_E_FORMAT, "damage %zu accepted", i);
        CHECK_MSG(strstr(err.message, damage[i].message) != NULL, "damage %zu: %s", i, err.message);
        free(bad);
    }
    /* truncated, trailing */
    bloom_filter v;
    CHECK(bloom_parse(good, len - 8, &v, &err) == BLOOM_E_FORMAT);
    uint8_t *longer = calloc(len + 8, 1);
    memcpy(longer, good, len);
    CHECK(bloom_parse(longer, len + 8, &v, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "trailing") != NULL);
    free(longer);
    /* a padding bit of the first stage (nbits not a multiple of 64? the
     * stages are whole words: flip the header sum check instead) */
    CHECK(bloom_parse(good, 100, &v, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "too short") != NULL);
    free(buf);
}

/* ---- rollups of filters of different size classes ---- */

/* The case: self-sized groups of 2, 2, 10^4 and 10^4 values.  1.1
 * folded the union to 64 bits, every bit set.  Now each class is a stage:
 * no member lost, a rate near that of the union at the largest size (5%;
 * the goal is 8%), an honest count. */
static void test_rollup_of_size_classes(void)
{
    static const uint64_t groups[] = {2, 2, 10000, 10000};
    uint8_t *u = NULL;
    size_t ulen = 0;
    bloom_filter uf;
    bloom_error err;
    for (size_t g = 0; g < 4; g++) {
        size_t len;
        bloom_filter f;
        uint8_t *buf = built(BLOOM_LAYOUT_CLASSIC, 20 + g, groups[g], &len, &f);
        if (u == NULL) {
            u = buf;
            ulen = len;
            uf = f;
            continue;
        }
        size_t size;
        bool in_place;
        CHECK(bloom_combine_size(&uf, &f, BLOOM_OP_UNION, &size, &in_place, &err) == BLOOM_OK);
        uint8_t *next = in_place ? u : malloc(size);
        CHECK_MSG(bloom_combine(&uf, &f, BLOOM_OP_UNION, BLOOM_REFUSE_SATURATED, next, size, &uf,
                                &err) == BLOOM_OK,
                  "%s", err.message);
        if (next != u)
            free(u);
        u = next;
        ulen = size;
        free(buf);
    }
    bloom_filter back;
    CHECK(bloom_parse(u, ulen, &back, &err) == BLOOM_OK);
    CHECK(uf.layout == BLOOM_LAYOUT_SCALABLE);
    uint64_t lost = 0;
    for (size_t g = 0; g < 4; g++)
        for (uint64_t i = 0; i < groups[g]; i++)
            lost += !bloom_contains_hash(&uf, key_at(20 + g, i));
    CHECK(lost == 0);
    double est = bloom_estimate_fpr(&uf), rate = measured_fpr(&uf, 200000);
    CHECK_MSG(est <= 0.08 && rate <= 0.08, "estimated %g, measured %g", est, rate);
    CHECK_MSG(fabs(bloom_estimate_cardinality(&uf) - 20004) < 600, "%g",
              bloom_estimate_cardinality(&uf));
    free(u);
}

/* Days of 1 to 10^6 values, each day's set inside the next (the same users
 * coming back): one stage per class, the count of the largest day. */
static void test_rollup_nested_days(void)
{
    uint8_t *u = NULL;
    size_t ulen = 0;
    bloom_filter uf;
    bloom_error err;
    for (uint64_t n = 1; n <= 1000000; n *= 10) {
        size_t len;
        bloom_filter f;
        uint8_t *buf = built(BLOOM_LAYOUT_CLASSIC, 30, n, &len, &f);
        if (u == NULL) {
            u = buf, ulen = len, uf = f;
            continue;
        }
        size_t size;
        CHECK(bloom_combine_size(&uf, &f, BLOOM_OP_UNION, &size, NULL, &err) == BLOOM_OK);
        uint8_t *next = malloc(size);
        CHECK(bloom_combine(&uf, &f, BLOOM_OP_UNION, BLOOM_REFUSE_SATURATED, next, size, &uf,
                            &err) == BLOOM_OK);
        free(u), free(buf);
        u = next, ulen = size;
    }
    uint64_t lost = 0;
    for (uint64_t i = 0; i < 1000000; i++)
        lost += !bloom_contains_hash(&uf, key_at(30, i));
    CHECK(lost == 0);
    double card = bloom_estimate_cardinality(&uf);
    CHECK_MSG(fabs(card - 1e6) < 0.02e6, "count %g", card);
    double est = bloom_estimate_fpr(&uf);
    CHECK_MSG(est < 0.05, "estimated rate %g", est);
    (void)ulen;
    free(u);
}

/* 50 groups of 100 values: all of one class, their union 5,000 values in
 * the 1,024 bits sized for 100: refused, saying so; without the flag, the
 * saturated filter as before. */
static void test_rollup_too_full(void)
{
    size_t len;
    bloom_filter uf;
    uint8_t *u = built(BLOOM_LAYOUT_CLASSIC, 100, 100, &len, &uf);
    CHECK(uf.nbits == 1024);
    bloom_error err;
    bloom_status st = BLOOM_OK;
    int g;
    for (g = 1; g < 50 && st == BLOOM_OK; g++) {
        size_t l2;
        bloom_filter f;
        uint8_t *buf = built(BLOOM_LAYOUT_CLASSIC, 100 + (uint64_t)g, 100, &l2, &f);
        st = bloom_combine(&uf, &f, BLOOM_OP_UNION, BLOOM_REFUSE_SATURATED, u, len, &uf, &err);
        free(buf);
    }
    CHECK(st == BLOOM_E_SATURATED);
    CHECK_MSG(strstr(err.message, "the union is saturated") != NULL, "%s", err.message);
    /* refused before a byte was written: the state is the union before */
    CHECK(!bloom_is_saturated(&uf));
    CHECK(strstr(bloom_status_hint(BLOOM_E_SATURATED), "bloom_agg(x, capacity, fpr)") != NULL);
    CHECK_MSG(g < 20, "refused at group %d", g);
    /* without the flag the union is made; a saturated member is not
     * refused again */
    size_t l2;
    bloom_filter f;
    uint8_t *buf = built(BLOOM_LAYOUT_CLASSIC, 200, 100, &l2, &f);
    CHECK(bloom_combine(&uf, &f, BLOOM_OP_UNION, 0, u, len, &uf, &err) == BLOOM_OK);
    CHECK(bloom_is_saturated(&uf));
    CHECK(bloom_combine(&uf, &f, BLOOM_OP_UNION, BLOOM_REFUSE_SATURATED, u, len, &uf, &err) ==
          BLOOM_OK);
    free(buf), free(u);
}

/* One array each side, of one size (combine.c's own loops): a union or an
 * intersection is refused exactly when its result is saturated and neither
 * side was (a union only, then), and its message counts the result's bits;
 * classic and blocked, from sparse to full, in place and into a new buffer. */
static void test_one_array_refusal(void)
{
    enum { NBITS = 2048, BYTES = BLOOM_HEADER_SIZE + NBITS / 8 };
    for (int layout = BLOOM_LAYOUT_CLASSIC; layout <= BLOOM_LAYOUT_BLOCKED; layout++) {
        for (int op = BLOOM_OP_UNION; op <= BLOOM_OP_INTERSECT; op++) {
            int refused = 0, made = 0;
            for (uint64_t n = 20; n <= 1600; n += 20) {
                uint8_t ba[BYTES], bb[BYTES], bo[BYTES], bp[BYTES];
                bloom_filter a, b, out, plain;
                bloom_error err;
                unsigned k = layout == BLOOM_LAYOUT_BLOCKED ? 8 : 5;
                CHECK(bloom_init(ba, BYTES, layout, NBITS, k, 0, &a, &err) == BLOOM_OK);
                CHECK(bloom_init(bb, BYTES, layout, NBITS, k, 0, &b, &err) == BLOOM_OK);
                /* the intersection: half the values in common */
                for (uint64_t i = 0; i < n; i++) {
                    bloom_add_hash(&a, key_at(300, i));
                    bloom_add_hash(&b, key_at(op == BLOOM_OP_UNION || i % 2 ? 301 : 300, i));
                }
                CHECK(bloom_combine(&a, &b, (bloom_op)op, 0, bp, BYTES, &plain, &err) == BLOOM_OK);
                uint8_t expected[BYTES];
                memcpy(expected, ba, BLOOM_HEADER_SIZE);
                for (size_t i = BLOOM_HEADER_SIZE; i < BYTES; i++)
                    expected[i] = op == BLOOM_OP_UNION ? ba[i] | bb[i] : ba[i] & bb[i];
                CHECK(memcmp(bp, expected, BYTES) == 0);
                bool should = bloom_is_saturated(&plain) && !bloom_is_saturated(&a) &&
                              !bloom_is_saturated(&b);
                bloom_status st = bloom_combine(&a, &b, (bloom_op)op, BLOOM_REFUSE_SATURATED, bo,
                                                BYTES, &out, &err);
                CHECK_MSG((st == BLOOM_E_SATURATED) == should, "layout %d op %d n %" PRIu64, layout,
                          op, n);
                if (st == BLOOM_E_SATURATED) {
                    char set[64];
                    snprintf(set, sizeof set, ": %" PRIu64 " of its %d bits are set",
                             bloom_popcount(&plain), NBITS);
                    CHECK_MSG(strstr(err.message, set) != NULL, "%s", err.message);
                    refused++;
                    continue;
                }
                made++;
                CHECK(memcmp(bo, bp, BYTES) == 0);
                /* in place: the same bytes over a's */
                CHECK(bloom_combine(&a, &b, (bloom_op)op, BLOOM_REFUSE_SATURATED, ba, BYTES, &a,
                                    &err) == BLOOM_OK);
                CHECK(memcmp(ba, bp, BYTES) == 0);
            }
            /* an intersection of single arrays is never fuller than either */
            CHECK_MSG((op == BLOOM_OP_UNION ? refused > 0 : refused == 0) && made > 0,
                      "layout %d op %d: %d refused, %d made", layout, op, refused, made);
        }
    }
}

/* A union of classes: a 64-bit and a 128-bit classic filter (k 7) with n64
 * and n128 keys of streams s and s + 1. */
static uint8_t *two_classes(uint64_t s, uint64_t n64, uint64_t n128, size_t *len, bloom_filter *u)
{
    uint8_t small[BLOOM_HEADER_SIZE + 8], large[BLOOM_HEADER_SIZE + 16];
    bloom_filter fs, fl;
    bloom_error err;
    CHECK(bloom_init(small, sizeof small, BLOOM_LAYOUT_CLASSIC, 64, 7, 0, &fs, &err) == BLOOM_OK);
    CHECK(bloom_init(large, sizeof large, BLOOM_LAYOUT_CLASSIC, 128, 7, 0, &fl, &err) == BLOOM_OK);
    for (uint64_t i = 0; i < n64; i++)
        bloom_add_hash(&fs, key_at(s, i));
    for (uint64_t i = 0; i < n128; i++)
        bloom_add_hash(&fl, key_at(s + 1, i));
    CHECK(bloom_combine_size(&fs, &fl, BLOOM_OP_UNION, len, NULL, &err) == BLOOM_OK);
    uint8_t *buf = malloc(*len);
    CHECK_MSG(bloom_combine(&fs, &fl, BLOOM_OP_UNION, 0, buf, *len, u, &err) == BLOOM_OK, "%s",
              err.message);
    return buf;
}

/* The intersection of two unions of classes is, at each size, the OR of
 * the ANDs of their stages' pairs: of stages near saturation it can be
 * saturated where neither operand is.  Refused, as such a union is. */
static void test_intersection_too_full(void)
{
    int found = 0;
    for (uint64_t n64 = 8; n64 < 20; n64++) {
        for (uint64_t n128 = 20; n128 < 44; n128++) {
            size_t la, lb, size;
            bloom_filter a, b, out;
            bloom_error err;
            uint8_t *ba = two_classes(100, n64, n128, &la, &a);
            uint8_t *bb = two_classes(200, n64, n128, &lb, &b);
            if (!bloom_is_saturated(&a) && !bloom_is_saturated(&b)) {
                CHECK(bloom_combine_size(&a, &b, BLOOM_OP_INTERSECT, &size, NULL, &err) == BLOOM_OK);
                uint8_t *buf = malloc(size);
                CHECK(bloom_combine(&a, &b, BLOOM_OP_INTERSECT, 0, buf, size, &out, &err) ==
                      BLOOM_OK);
                if (bloom_is_saturated(&out)) {
                    found++;
                    bloom_status st = bloom_combine(&a, &b, BLOOM_OP_INTERSECT,
                                                    BLOOM_REFUSE_SATURATED, buf, size, &out, &err);
                    CHECK(st == BLOOM_E_SATURATED);
                    CHECK_MSG(strstr(err.message, "the intersection is saturated") != NULL, "%s",
                              err.message);
                }
                free(buf);
            }
            free(ba), free(bb);
        }
    }
    CHECK_MSG(found > 0, "no intersection of unions near saturation saturated");
}

const test_case variant_tests[] = {
    {"combine: one array each side, refused exactly when the result is saturated",
     test_one_array_refusal},
    {"counting: 2,000 in, 1,000 out, no false negative, 4x the bits", test_counting_add_remove},
    {"counting: removing an absent value or from a classic filter is refused",
     test_counting_removal_errors},
    {"counting: saturated counters never decrement", test_counting_saturation},
    {"counting: bloom_agg's counters, and their classic form", test_counting_builder_and_classic_form},
    {"counting: union sums, intersection takes the minimum", test_counting_combine},
    {"counting: folding sums the counters", test_counting_fold},
    {"scalable: 50 times its capacity, rate and size within the goals", test_scalable_grows},
    {"scalable: growth stops at the host's limit", test_scalable_host_limit},
    {"scalable: bloom_agg's one stage", test_scalable_builder},
    {"scalable: union of one growth; no intersection", test_scalable_combine},
    {"scalable: malformed bytes refused, field by field", test_scalable_malformed},
    {"rollup: groups of 2, 2, 10^4, 10^4 keep their classes", test_rollup_of_size_classes},
    {"rollup: nested days of 1 to 10^6 values", test_rollup_nested_days},
    {"rollup: a union of one class too full is refused", test_rollup_too_full},
    {"rollup: an intersection saturated where neither operand was is refused",
     test_intersection_too_full},
};
const size_t variant_tests_count = sizeof variant_tests / sizeof variant_tests[0];
