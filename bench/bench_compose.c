/*
 * bench_compose.c - what filters that compose cost and how well their
 * estimates hold (quoted in docs/FORMAT.md "Size classes"):
 *
 * 1. Sizing: the self-sizing builder's size against the optimum
 *    (-n ln p / ln^2 2 bits) and its measured false-positive rate, at
 *    p = 1%, from 1 to 10^7 distinct values, for each decade and for the
 *    worst case just past a size-class boundary.
 * 2. Estimates across sizes: bloom_intersect_cardinality and bloom_jaccard
 *    of two self-sized filters of 10^3 .. 10^6 distinct values with 0 .. 100%
 *    of the smaller set shared, against the exact counts.
 *
 * Deterministic (fixed key streams), so the tables are the same every run;
 * no timings.  make bench-compose
 */
#define BENCH_NAME "bench_compose"
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A self-sized filter (bloom_agg(x)) of keys [from, to) of stream s plus
 * keys [0, shared) of stream t; caller frees the returned buffer. */
static uint8_t *self_sized(int layout, uint64_t s, uint64_t from, uint64_t to, uint64_t t,
                           uint64_t shared, bloom_filter *out)
{
    bloom_builder *b;
    bloom_error err;
    if (bloom_builder_create(&alloc, layout, 0.01, 0, &b, &err) != BLOOM_OK)
        die("builder", &err);
    for (uint64_t i = from; i < to; i++)
        if (bloom_builder_add_hash(b, key_at(s, i), &err) != BLOOM_OK)
            die("add", &err);
    for (uint64_t i = 0; i < shared; i++)
        if (bloom_builder_add_hash(b, key_at(t, i), &err) != BLOOM_OK)
            die("add", &err);
    size_t len;
    if (bloom_builder_result_size(b, &len, &err) != BLOOM_OK)
        die("size", &err);
    uint8_t *buf = malloc(len);
    if (buf == NULL || bloom_builder_finish(b, buf, len, out, &err) != BLOOM_OK)
        die("finish", &err);
    bloom_builder_destroy(b);
    return buf;
}

static double measured_fpr(const bloom_filter *f, uint64_t probes)
{
    uint64_t hits = 0;
    for (uint64_t i = 0; i < probes; i++)
        hits += bloom_contains_hash(f, key_at(999, i));
    return (double)hits / (double)probes;
}

/* The least capacity whose size class is above the class of n: where a
 * class is least used (about twice the optimum). */
static uint64_t past_boundary(int layout, uint64_t n)
{
    uint64_t m, m2, lo = n, hi = n * 2 + 2;
    unsigned k;
    bloom_params_for_capacity(layout, n, 0.01, &m, &k, NULL);
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        bloom_params_for_capacity(layout, mid, 0.01, &m2, &k, NULL);
        if (m2 == m)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

static void sizing_table(void)
{
    printf("## Sizing at p = 1%%: bloom_agg(x), size classes\n\n");
    printf("| layout | distinct values | nbits | size / optimum | measured rate | rate / target |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    double worst_size = 0, worst_rate = 0;
    for (int layout = 0; layout < 2; layout++) {
        for (uint64_t n = 1; n <= 10000000; n *= 10) {
            uint64_t ns[2] = {n, past_boundary(layout, n)};
            for (int w = 0; w < 2; w++) {
                if (layout == BLOOM_LAYOUT_BLOCKED && n < 1000)
                    continue; /* one 256-bit block at least: no optimum to compare */
                bloom_filter f;
                uint8_t *buf = self_sized(layout, 60, 0, ns[w], 0, 0, &f);
                double opt = -(double)ns[w] * log(0.01) / (log(2.0) * log(2.0));
                double rate = measured_fpr(&f, 1000000);
                double size = (double)f.nbits / opt;
                printf("| %s | %llu%s | %llu | %.2f | %.4f%% | %.2f |\n", bloom_layout_name(layout),
                       (unsigned long long)ns[w], w ? " (past a class boundary)" : "",
                       (unsigned long long)f.nbits, size, 100 * rate, rate / 0.01);
                if (opt > 64 && size > worst_size) /* below a word, every size stores one */
                    worst_size = size;
                if (rate / 0.01 > worst_rate)
                    worst_rate = rate / 0.01;
                free(buf);
            }
        }
    }
    printf("\nsize at most %.3f x optimum (filters of more than one 64-bit word); measured rate at "
           "most %.2f x target\n\n",
           worst_size, worst_rate);
}

/* Groups of a few values (GROUP BY day, tenant): one filter's rate strays
 * from the model's most there, so the mean over 300 sets of each count. */
static void small_groups_table(void)
{
    enum { SETS = 300, PROBES = 100000 };
    printf("## Small groups at p = 1%%: mean over %d sets of each count\n\n", SETS);
    printf("| distinct values | mean nbits | mean measured rate / target |\n|---:|---:|---:|\n");
    double worst = 0;
    for (uint64_t n = 1; n <= 12; n++) {
        double bits = 0, rate = 0;
        for (uint64_t s = 0; s < SETS; s++) {
            bloom_filter f;
            uint8_t *buf = self_sized(BLOOM_LAYOUT_CLASSIC, 1000 + s, 0, n, 0, 0, &f);
            bits += (double)f.nbits;
            rate += measured_fpr(&f, PROBES);
            free(buf);
        }
        rate /= SETS * 0.01;
        printf("| %llu | %.0f | %.2f |\n", (unsigned long long)n, bits / SETS, rate);
        if (rate > worst)
            worst = rate;
    }
    printf("\nsmall groups: mean measured rate at most %.2f x target\n\n", worst);
}

static void estimate_table(void)
{
    static const uint64_t sizes[] = {1000, 10000, 100000, 1000000};
    static const double overlaps[] = {0, 0.1, 0.5, 0.9, 1.0};
    enum { NS = 4, NO = 5 };
    printf("## Estimates across sizes: self-sized filters A (n_A values) and B (n_B <= n_A),\n");
    printf("## a share of B also in A; relative error of bloom_intersect_cardinality / bloom_jaccard\n");
    printf("## (at 0%% overlap: the estimate over n_B / the estimated Jaccard)\n\n");
    printf("| n_A | n_B | nbits A / B |");
    for (int o = 0; o < NO; o++)
        printf(" %.0f%% |", 100 * overlaps[o]);
    printf("\n|---:|---:|---:|");
    for (int o = 0; o < NO; o++)
        printf("---:|");
    printf("\n");
    for (int i = 0; i < NS; i++) {
        bloom_filter a;
        uint8_t *abuf = self_sized(BLOOM_LAYOUT_CLASSIC, 10, 0, sizes[i], 0, 0, &a);
        for (int j = 0; j <= i; j++) {
            uint64_t na = sizes[i], nb = sizes[j];
            printf("| %llu | %llu |", (unsigned long long)na, (unsigned long long)nb);
            for (int o = 0; o < NO; o++) {
                uint64_t shared = (uint64_t)(overlaps[o] * (double)nb);
                bloom_filter b;
                /* B: the first `shared` keys of A, then keys of its own */
                uint8_t *bbuf = self_sized(BLOOM_LAYOUT_CLASSIC, 20 + (uint64_t)o, 0, nb - shared, 10,
                                           shared, &b);
                if (o == 0)
                    printf(" %llu / %llu |", (unsigned long long)a.nbits, (unsigned long long)b.nbits);
                double inter, jac, exact_j = (double)shared / (double)(na + nb - shared);
                bloom_error err;
                if (bloom_estimate_intersection(&a, &b, &inter, &err) != BLOOM_OK ||
                    bloom_estimate_jaccard(&a, &b, &jac, &err) != BLOOM_OK)
                    die("estimate", &err);
                if (shared == 0)
                    printf(" %+.1f%% / %.4f |", 100 * inter / (double)nb, jac);
                else
                    printf(" %+.1f%% / %+.1f%% |", 100 * (inter - (double)shared) / (double)shared,
                           100 * (jac - exact_j) / exact_j);
                free(bbuf);
            }
            printf("\n");
        }
        free(abuf);
    }
    printf("\n");
}

int main(void)
{
    sizing_table();
    small_groups_table();
    estimate_table();
    return 0;
}
