/*
 * bench_variants.c - what the counting and scalable layouts cost, and how
 * rollups of filters of different size classes hold up (quoted in
 * docs/FORMAT.md "Counting layout", "Scalable layout" and README "Rollups"):
 *
 * 1. Scalable: a filter of bloom_empty(n0, 1%, 0, 'scalable') after t n0
 *    distinct values, for n0 in 10^2 .. 10^4 and t in 1 .. 100: its stages,
 *    its bytes against the classic filter sized for the final count (its
 *    size class, and the exact optimum), its measured and estimated rates.
 * 2. Counting: n values in, n / 2 removed: false negatives among the rest,
 *    the removed still reported, the bytes against classic.
 * 3. Rollups: bloom_union_agg of self-sized groups of very different sizes,
 *    as 1.1 made it (folded to the smallest member) and as 1.2 makes it
 *    (each size class a stage): bytes, rates, count, members lost.
 *
 * Deterministic (fixed key streams), so the tables are the same every run;
 * no timings.  make bench-variants
 */
#define BENCH_NAME "bench_variants"
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double measured_fpr(const bloom_filter *f, uint64_t probes)
{
    uint64_t hits = 0;
    for (uint64_t i = 0; i < probes; i++)
        hits += bloom_contains_hash(f, key_at(999, i));
    return (double)hits / (double)probes;
}

static uint8_t *empty(int layout, uint64_t capacity, double fpr, size_t *len, bloom_filter *f)
{
    bloom_error err;
    if (bloom_empty_size(layout, (int64_t)capacity, fpr, 0, len, &err) != BLOOM_OK)
        die("size", &err);
    uint8_t *buf = malloc(*len);
    if (buf == NULL || bloom_empty_init(buf, *len, layout, (int64_t)capacity, fpr, 0, f, &err) != BLOOM_OK)
        die("init", &err);
    return buf;
}

/* A self-sized filter (bloom_agg(x)) of keys [0, n) of stream s. */
static uint8_t *self_sized(uint64_t s, uint64_t n, size_t *len, bloom_filter *out)
{
    bloom_builder *b;
    bloom_error err;
    if (bloom_builder_create(&alloc, BLOOM_LAYOUT_CLASSIC, 0.01, 0, &b, &err) != BLOOM_OK)
        die("builder", &err);
    for (uint64_t i = 0; i < n; i++)
        if (bloom_builder_add_hash(b, key_at(s, i), &err) != BLOOM_OK)
            die("add", &err);
    if (bloom_builder_result_size(b, len, &err) != BLOOM_OK)
        die("size", &err);
    uint8_t *buf = malloc(*len);
    if (buf == NULL || bloom_builder_finish(b, buf, *len, out, &err) != BLOOM_OK)
        die("finish", &err);
    bloom_builder_destroy(b);
    return buf;
}

static double optimum_bytes(double n, double p)
{
    return 32 + ceil(-n * log(p) / (log(2.0) * log(2.0)) / 64) * 8;
}

static void scalable_table(void)
{
    static const uint64_t capacities[] = {100, 1000, 10000};
    static const unsigned times[] = {1, 2, 5, 10, 20, 50, 100};
    printf("## Scalable at 1%%: bloom_add_all(bloom_empty(n0, 0.01, 0, 'scalable'), t n0 values)\n");
    printf("## (growth 2, tightening 0.8: stage i holds n0 2^i values at 0.2%% x 0.8^i)\n\n");
    printf("| n0 | values | stages | bytes | / classic for the count | / optimum | measured rate | "
           "bloom_fpr | false negatives |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double worst_size = 0, worst_rate = 0;
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
        uint64_t n0 = capacities[c], added = 0;
        size_t len;
        bloom_filter f;
        void *buf = empty(BLOOM_LAYOUT_SCALABLE, n0, 0.01, &len, &f);
        for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
            uint64_t target = times[t] * n0;
            bloom_error err;
            for (; added < target; added++) {
                uint64_t h = key_at(1, added);
                if (bloom_insert(&alloc, 0, &buf, &len, &f, &h, 1, &err) != BLOOM_OK)
                    die("insert", &err);
            }
            uint64_t lost = 0;
            for (uint64_t i = 0; i < added; i++)
                lost += !bloom_contains_hash(&f, key_at(1, i));
            size_t classic_len;
            bloom_filter cl;
            uint8_t *cb = empty(BLOOM_LAYOUT_CLASSIC, added, 0.01, &classic_len, &cl);
            double rate = measured_fpr(&f, 1000000), est = bloom_estimate_fpr(&f);
            double size = (double)len / (double)classic_len;
            unsigned stages = ((const uint8_t *)buf)[BLOOM_HEADER_SIZE + 17];
            printf("| %llu | %llu (%ux) | %u | %zu | %.2f | %.2f | %.3f%% | %.3f%% | %llu |\n",
                   (unsigned long long)n0, (unsigned long long)added, times[t], stages, len, size,
                   (double)len / optimum_bytes((double)added, 0.01), 100 * rate, 100 * est,
                   (unsigned long long)lost);
            if (size > worst_size)
                worst_size = size;
            if (rate / 0.01 > worst_rate)
                worst_rate = rate / 0.01;
            free(cb);
        }
        free(buf);
    }
    printf("\nscalable: at most %.2f x the bytes of the classic filter for the count, a measured "
           "rate at most %.2f x the target\n\n",
           worst_size, worst_rate);
}

static void counting_table(void)
{
    static const uint64_t capacities[] = {2000, 20000, 200000};
    printf("## Counting at 1%%: bloom_empty(n, 0.01, 0, 'counting'), n values in, n / 2 removed\n\n");
    printf("| n | bytes | / classic | false negatives | removed still reported | measured rate |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++) {
        uint64_t n = capacities[c];
        size_t len, classic_len;
        bloom_filter f, cl;
        uint8_t *buf = empty(BLOOM_LAYOUT_COUNTING, n, 0.01, &len, &f);
        uint8_t *cb = empty(BLOOM_LAYOUT_CLASSIC, n, 0.01, &classic_len, &cl);
        bloom_error err;
        for (uint64_t i = 0; i < n; i++)
            bloom_add_hash(&f, key_at(2, i));
        for (uint64_t i = 0; i < n / 2; i++)
            if (bloom_remove_hash(&f, key_at(2, i), &err) != BLOOM_OK)
                die("remove", &err);
        uint64_t lost = 0, kept = 0;
        for (uint64_t i = n / 2; i < n; i++)
            lost += !bloom_contains_hash(&f, key_at(2, i));
        for (uint64_t i = 0; i < n / 2; i++)
            kept += bloom_contains_hash(&f, key_at(2, i));
        printf("| %llu | %zu | %.2f | %llu | %.3f%% | %.4f%% |\n", (unsigned long long)n, len,
               (double)len / (double)classic_len, (unsigned long long)lost,
               100.0 * (double)kept / (double)(n / 2), 100 * measured_fpr(&f, 1000000));
        free(buf), free(cb);
    }
    printf("\n");
}

/* The union of self-sized groups of the given sizes (stream 100 + g, or
 * nested: every group keys [0, n) of one stream), as 1.2 makes it and as
 * 1.1 did (every member folded to the smallest one's size, OR-ed). */
static void rollup_row(const char *name, const uint64_t *sizes, size_t ngroups, bool nested)
{
    uint8_t *u = NULL, *old = NULL;
    size_t ulen = 0;
    bloom_filter uf, of;
    uint64_t smallest = UINT64_MAX;
    bloom_error err;
    uint8_t **bufs = calloc(ngroups, sizeof *bufs);
    bloom_filter *fs = calloc(ngroups, sizeof *fs);
    for (size_t g = 0; g < ngroups; g++) {
        size_t len;
        bufs[g] = self_sized(nested ? 300 : 100 + g, sizes[g], &len, &fs[g]);
        if (fs[g].nbits < smallest)
            smallest = fs[g].nbits;
        if (u == NULL) {
            u = malloc(len);
            memcpy(u, bufs[g], len);
            bloom_parse(u, len, &uf, NULL);
            ulen = len;
            continue;
        }
        size_t size;
        if (bloom_combine_size(&uf, &fs[g], BLOOM_OP_UNION, &size, NULL, &err) != BLOOM_OK)
            die("union size", &err);
        uint8_t *next = malloc(size);
        if (bloom_combine(&uf, &fs[g], BLOOM_OP_UNION, 0, next, size, &uf, &err) != BLOOM_OK)
            die("union", &err);
        free(u);
        u = next, ulen = size;
    }
    /* 1.1: fold every member to the smallest size, OR them */
    size_t olen = bloom_serialized_size(smallest);
    old = calloc(1, olen);
    for (size_t g = 0; g < ngroups; g++) {
        bloom_filter folded;
        uint8_t *fb = malloc(olen);
        if (bloom_fold(&fs[g], smallest, fb, olen, &folded, &err) != BLOOM_OK)
            die("fold", &err);
        if (g == 0)
            memcpy(old, fb, olen);
        else
            for (size_t i = BLOOM_HEADER_SIZE; i < olen; i++)
                old[i] |= fb[i];
        free(fb);
    }
    bloom_parse(old, olen, &of, NULL);
    uint64_t total = 0, lost = 0, distinct = 0;
    for (size_t g = 0; g < ngroups; g++) {
        total += sizes[g];
        if (!nested || sizes[g] > distinct)
            distinct = nested ? sizes[g] : distinct + sizes[g];
        for (uint64_t i = 0; i < sizes[g]; i++)
            lost += !bloom_contains_hash(&uf, key_at(nested ? 300 : 100 + g, i));
    }
    printf("| %s | %llu | 1.1: %zu / 1.2: %zu | %.3f / %.3f | %.3f / %.3f | %.0f / %.0f | %llu |\n",
           name, (unsigned long long)distinct, olen, ulen, bloom_estimate_fpr(&of),
           bloom_estimate_fpr(&uf), measured_fpr(&of, 200000), measured_fpr(&uf, 200000),
           bloom_estimate_cardinality(&of), bloom_estimate_cardinality(&uf),
           (unsigned long long)lost);
    (void)total;
    for (size_t g = 0; g < ngroups; g++)
        free(bufs[g]);
    free(bufs), free(fs), free(u), free(old);
}

static void rollup_table(void)
{
    printf("## Rollups: bloom_union_agg of self-sized groups (bloom_agg(x) at 1%%), as 1.1 folded\n");
    printf("## it to the smallest member and as 1.2 keeps each size class (a stage)\n\n");
    printf("| groups | distinct values | bytes | bloom_fpr 1.1 / 1.2 | measured rate 1.1 / 1.2 | "
           "bloom_cardinality 1.1 / 1.2 | members lost (1.2) |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    static const uint64_t issue[] = {2, 2, 10000, 10000};
    rollup_row("2, 2, 10^4, 10^4", issue, 4, false);
    static const uint64_t decades[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    rollup_row("1, 10, ..., 10^6, disjoint", decades, 7, false);
    rollup_row("1, 10, ..., 10^6, each inside the next (README)", decades, 7, true);
    static const uint64_t days[] = {300, 1200, 2700, 4800, 7500, 10800};
    rollup_row("300 (d + 1)^2 for d = 0..5, nested (1.1's README)", days, 6, true);
    static const uint64_t same[] = {1000, 1000, 1000, 1000};
    rollup_row("4 x 1000, one class", same, 4, false);
    printf("\n");
    /* one class, too full: refused */
    size_t len;
    bloom_filter uf;
    uint8_t *u = self_sized(500, 100, &len, &uf);
    bloom_error err;
    int g;
    bloom_status st = BLOOM_OK;
    for (g = 1; g < 50 && st == BLOOM_OK; g++) {
        size_t l2;
        bloom_filter f;
        uint8_t *buf = self_sized(500 + (uint64_t)g, 100, &l2, &f);
        st = bloom_combine(&uf, &f, BLOOM_OP_UNION, BLOOM_REFUSE_SATURATED, u, len, &uf, &err);
        free(buf);
    }
    printf("50 groups of 100 (%llu bits each): the union is refused at group %d: %s\n\n",
           (unsigned long long)uf.nbits, g, st == BLOOM_E_SATURATED ? err.message : "(not refused)");
    free(u);
}

int main(void)
{
    scalable_table();
    counting_table();
    rollup_table();
    return 0;
}
