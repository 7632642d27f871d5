/*
 * test_builder.c - the self-sizing builder: its size and rate targets,
 * merging, serialization, memory, and failure handling.
 */
#include "util.h"

#include "builder_internal.h" /* whether a size skipped the final pass */

#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <string.h>

/* The targets: measured rate <= 1.15 p and size <= 2.2 x the
 * optimal m for the distinct count, at p = 0.01. */
static void check_targets(int layout, uint64_t n, int copies, double size_bound)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b;
    CHECK(bloom_builder_create(&alloc, layout, 0.01, 0, &b, NULL) == BLOOM_OK);
    for (int c = 0; c < copies; c++)
        for (uint64_t i = 0; i < n; i++)
            if (bloom_builder_add_hash(b, key_at(60, i), NULL) != BLOOM_OK)
                abort();
    uint64_t distinct;
    CHECK(bloom_builder_distinct(b, &distinct, NULL) == BLOOM_OK && distinct == n);
    bloom_filter f;
    uint8_t *buf = finish_builder(b, &f);
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n; i++)
        missing += !bloom_contains_hash(&f, key_at(60, i));
    double rate = measured_fpr(&f, n >= 1000000 ? 2000000 : 1000000);
    double optimal = optimal_classic_bits((double)n, 0.01);
    printf("     %-7s n=%-9llu copies=%d nbits=%-10llu size/optimal=%.3f measured fpr=%.5f "
           "(%.3f p) peak builder memory=%.1f bytes/value\n",
           bloom_layout_name(layout), (unsigned long long)n, copies, (unsigned long long)f.nbits,
           (double)f.nbits / optimal, rate, rate / 0.01, (double)heap.peak / (double)n);
    CHECK(missing == 0);
    CHECK_MSG(rate <= 0.0115, "n=%llu: measured fpr %g", (unsigned long long)n, rate);
    /* the least sizes (a 64-bit word, a 256-bit block) store the same bytes as any smaller */
    CHECK_MSG((double)f.nbits <= size_bound * optimal || f.nbits == (layout == BLOOM_LAYOUT_BLOCKED ? 256u : 64u),
              "n=%llu: %llu bits, optimal %.0f", (unsigned long long)n, (unsigned long long)f.nbits, optimal);
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
    free(buf);
}

static void test_targets_small(void)
{
    check_targets(BLOOM_LAYOUT_CLASSIC, 1, 3, 2.2);
    check_targets(BLOOM_LAYOUT_CLASSIC, 100, 3, 2.2);
    check_targets(BLOOM_LAYOUT_CLASSIC, 10000, 2, 2.2);
}

static void test_targets_large(void)
{
    check_targets(BLOOM_LAYOUT_CLASSIC, 1000000, 1, 2.2);
    check_targets(BLOOM_LAYOUT_CLASSIC, 10000000, 1, 2.2);
}

static void test_targets_blocked(void)
{
    check_targets(BLOOM_LAYOUT_BLOCKED, 1, 2, 2.2);
    check_targets(BLOOM_LAYOUT_BLOCKED, 100, 2, 4.0);
    check_targets(BLOOM_LAYOUT_BLOCKED, 10000, 1, 2.2);
    check_targets(BLOOM_LAYOUT_BLOCKED, 1000000, 1, 2.2);
}

static bloom_builder *new_builder(bloom_allocator *alloc, uint64_t from, uint64_t to)
{
    bloom_builder *b;
    if (bloom_builder_create(alloc, BLOOM_LAYOUT_CLASSIC, 0.01, 7, &b, NULL) != BLOOM_OK)
        abort();
    for (uint64_t i = from; i < to; i++)
        if (bloom_builder_add_hash(b, key_at(70, i), NULL) != BLOOM_OK)
            abort();
    return b;
}

static void test_merge_equals_serial(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *serial = new_builder(&alloc, 0, 100000);
    bloom_filter want, got1, got2;
    uint8_t *want_buf = finish_builder(serial, &want);
    /* overlapping partials, merged in two orders */
    bloom_builder *p[4] = {new_builder(&alloc, 0, 30000), new_builder(&alloc, 25000, 60000),
                           new_builder(&alloc, 60000, 60000), new_builder(&alloc, 50000, 100000)};
    CHECK(bloom_builder_merge(p[0], p[1], NULL) == BLOOM_OK);
    CHECK(bloom_builder_merge(p[0], p[2], NULL) == BLOOM_OK);
    CHECK(bloom_builder_merge(p[0], p[3], NULL) == BLOOM_OK);
    uint8_t *buf1 = finish_builder(p[0], &got1);
    CHECK(bloom_equal(&want, &got1));
    CHECK(bloom_builder_merge(p[3], p[1], NULL) == BLOOM_OK);
    CHECK(bloom_builder_merge(p[2], p[3], NULL) == BLOOM_OK);
    bloom_builder *first = new_builder(&alloc, 0, 30000);
    CHECK(bloom_builder_merge(p[2], first, NULL) == BLOOM_OK);
    uint8_t *buf2 = finish_builder(p[2], &got2);
    CHECK(bloom_equal(&want, &got2));
    CHECK(memcmp(want_buf, buf2, bloom_serialized_size(want.nbits)) == 0);
    bloom_builder_destroy(first);
    for (int i = 0; i < 4; i++)
        bloom_builder_destroy(p[i]);
    bloom_builder_destroy(serial);
    CHECK(heap.live == 0);
    free(want_buf);
    free(buf1);
    free(buf2);
}

static void test_serialize_midway(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *serial = new_builder(&alloc, 0, 20000);
    bloom_filter want, got;
    uint8_t *want_buf = finish_builder(serial, &want);

    bloom_builder *half = new_builder(&alloc, 0, 12000), *back;
    size_t len;
    /* Rice-coded: about 52 bits a hash at 12000, not 64 */
    CHECK(bloom_builder_serialized_size(half, &len, NULL) == BLOOM_OK && len < 32 + 12000 * 7);
    uint8_t *state = malloc(len);
    CHECK(bloom_builder_serialize(half, state, len, NULL) == BLOOM_OK);
    CHECK(memcmp(state, "BLMB", 4) == 0);
    CHECK(bloom_builder_deserialize(&alloc, state, len, &back, NULL) == BLOOM_OK);
    CHECK(bloom_builder_fpr(back) == 0.01 && bloom_builder_seed(back) == 7 &&
          bloom_builder_layout(back) == BLOOM_LAYOUT_CLASSIC);
    for (uint64_t i = 8000; i < 20000; i++)
        CHECK(bloom_builder_add_hash(back, key_at(70, i), NULL) == BLOOM_OK);
    uint8_t *buf = finish_builder(back, &got);
    CHECK(bloom_equal(&want, &got));

    /* a 1.0 state (raw hashes: unsorted, duplicated) is a valid state too */
    uint8_t unsorted[32 + 24];
    memcpy(unsorted, state, 32);
    unsorted[7] = 0; /* encoding: raw */
    unsorted[24] = 3;
    memset(unsorted + 25, 0, 7);
    for (int i = 0; i < 8; i++) {
        unsorted[32 + i] = (uint8_t)(key_at(70, 1) >> (8 * i));
        unsorted[40 + i] = (uint8_t)(key_at(70, 0) >> (8 * i));
        unsorted[48 + i] = (uint8_t)(key_at(70, 1) >> (8 * i));
    }
    bloom_builder *u;
    uint64_t distinct;
    CHECK(bloom_builder_deserialize(&alloc, unsorted, sizeof unsorted, &u, NULL) == BLOOM_OK);
    CHECK(bloom_builder_distinct(u, &distinct, NULL) == BLOOM_OK && distinct == 2);
    bloom_builder_destroy(u);

    bloom_builder_destroy(back);
    bloom_builder_destroy(half);
    bloom_builder_destroy(serial);
    CHECK(heap.live == 0);
    free(state);
    free(want_buf);
    free(buf);
}

static void test_malformed_states(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b = new_builder(&alloc, 0, 3), *out;
    size_t len;
    CHECK(bloom_builder_serialized_size(b, &len, NULL) == BLOOM_OK && len == 56);
    uint8_t valid[56];
    CHECK(bloom_builder_serialize(b, valid, len, NULL) == BLOOM_OK);
    struct {
        size_t offset;
        uint8_t value;
        long delta;
        const char *part;
    } cases[] = {
        {0, 'X', 0, "bad magic"},         {4, 2, 0, "version 2"},
        {5, 7, 0, "unknown layout id 7"}, {6, 0, 0, "unknown hash id 0"},
        {7, 2, 0, "encoding 2"},               {23, 0x7f, 0, "false-positive rate"}, /* fpr -> NaN or >= 1 */
        {24, 4, 0, "does not match"},     {31, 0x80, 0, "does not match"},
        {SIZE_MAX, 0, -1, "does not match"}, {SIZE_MAX, 0, -30, "truncated"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t copy[56];
        memcpy(copy, valid, 56);
        if (cases[i].offset != SIZE_MAX)
            copy[cases[i].offset] = cases[i].value;
        bloom_error err;
        CHECK(bloom_builder_deserialize(&alloc, copy, (size_t)(56 + cases[i].delta), &out, &err) ==
              BLOOM_E_FORMAT);
        CHECK_MSG(strstr(err.message, cases[i].part) != NULL, "case %zu: %s", i, err.message);
    }
    uint8_t zero_fpr[56];
    memcpy(zero_fpr, valid, 56);
    memset(zero_fpr + 16, 0, 8);
    CHECK(bloom_builder_deserialize(&alloc, zero_fpr, 56, &out, NULL) == BLOOM_E_FORMAT);
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
}

static void test_merge_mismatch(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *a, *b;
    bloom_error err;
    CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &a, NULL) == BLOOM_OK);
    CHECK(bloom_builder_create(&alloc, 0, 0.02, 0, &b, NULL) == BLOOM_OK);
    CHECK(bloom_builder_merge(a, b, &err) == BLOOM_E_MISMATCH);
    CHECK(strstr(err.message, "fpr 0.01") && strstr(err.message, "fpr 0.02"));
    bloom_builder_destroy(b);
    CHECK(bloom_builder_create(&alloc, 1, 0.01, 0, &b, NULL) == BLOOM_OK);
    CHECK(bloom_builder_merge(a, b, &err) == BLOOM_E_MISMATCH);
    CHECK(strstr(err.message, "layout blocked") != NULL);
    bloom_builder_destroy(b);
    CHECK(bloom_builder_create(&alloc, 0, 1.0, 0, &b, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_builder_create(&alloc, 9, 0.1, 0, &b, &err) == BLOOM_E_INVALID_ARGUMENT);
    bloom_builder_destroy(a);
    CHECK(heap.live == 0);
}

static void test_memory_grows_with_data(void)
{
    /* A GROUP BY may hold 100,000 builders at once: small groups stay small. */
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    enum { GROUPS = 10000 };
    static bloom_builder *groups[GROUPS];
    for (int g = 0; g < GROUPS; g++) {
        CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &groups[g], NULL) == BLOOM_OK);
        for (int i = 0; i < 3; i++)
            CHECK(bloom_builder_add_hash(groups[g], key_at((uint64_t)g, (uint64_t)i), NULL) == BLOOM_OK);
    }
    CHECK_MSG(heap.live < (size_t)GROUPS * 256, "%zu bytes for %d three-value builders", heap.live,
              GROUPS);
    for (int g = 0; g < GROUPS; g++)
        bloom_builder_destroy(groups[g]);
    /* many duplicates: memory follows distinct values, not rows */
    heap.peak = heap.live;
    bloom_builder *b;
    CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &b, NULL) == BLOOM_OK);
    for (uint64_t i = 0; i < 1000000; i++)
        CHECK(bloom_builder_add_hash(b, key_at(80, i % 1000), NULL) == BLOOM_OK);
    CHECK_MSG(heap.peak < 64 * 1024, "peak %zu bytes for 1000 distinct values", heap.peak);
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
}

static void test_empty_builder(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    for (int layout = 0; layout < 2; layout++) {
        bloom_builder *b;
        CHECK(bloom_builder_create(&alloc, layout, 0.01, 0, &b, NULL) == BLOOM_OK);
        bloom_filter f, one;
        uint8_t *buf = finish_builder(b, &f);
        CHECK(bloom_popcount(&f) == 0);
        /* sized as for one value: no larger than a one-value filter */
        bloom_builder *single;
        CHECK(bloom_builder_create(&alloc, layout, 0.01, 0, &single, NULL) == BLOOM_OK);
        CHECK(bloom_builder_add_hash(single, 12345, NULL) == BLOOM_OK);
        uint8_t *buf1 = finish_builder(single, &one);
        CHECK(f.nbits <= one.nbits && f.nhashes == one.nhashes);
        CHECK(f.nbits == (layout ? 256u : 64u)); /* one block, one word */
        bloom_builder_destroy(single);
        bloom_builder_destroy(b);
        free(buf1);
        free(buf);
    }
    CHECK(heap.live == 0);
}

static void test_allocation_failures(void)
{
    /* Every allocation in turn fails: a status, never a crash or a leak. */
    for (long fail_at = 0; fail_at < 40; fail_at++) {
        counting_heap heap = {0, 0, fail_at};
        bloom_allocator alloc = counting_allocator(&heap);
        bloom_builder *b = NULL, *c = NULL;
        bloom_status st = bloom_builder_create(&alloc, 0, 0.01, 0, &b, NULL);
        for (uint64_t i = 0; st == BLOOM_OK && i < 3000; i++)
            st = bloom_builder_add_hash(b, key_at(90, i), NULL);
        if (st == BLOOM_OK)
            st = bloom_builder_create(&alloc, 0, 0.01, 0, &c, NULL);
        if (st == BLOOM_OK)
            st = bloom_builder_merge(c, b, NULL);
        size_t len = 0;
        if (st == BLOOM_OK)
            st = bloom_builder_result_size(c, &len, NULL);
        CHECK(st == BLOOM_OK || st == BLOOM_E_NOMEM);
        bloom_builder_destroy(b);
        bloom_builder_destroy(c);
        CHECK(heap.live == 0);
    }
}

static void test_crowded_hashes(void)
{
    /* Hashes that agree on their top 44 bits (only crafted input does
     * that) defeat the counting sort: the radix sort must take over, with
     * the same set as the result. */
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b;
    enum { N = 60000 };
    const uint64_t top = UINT64_C(0x9e3779b97f4) << 20;
    CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &b, NULL) == BLOOM_OK);
    for (int copy = 0; copy < 2; copy++)
        for (uint64_t i = 0; i < N; i++)
            CHECK(bloom_builder_add_hash(b, top | ((i * 7919) % N), NULL) == BLOOM_OK);
    uint64_t distinct;
    CHECK(bloom_builder_distinct(b, &distinct, NULL) == BLOOM_OK && distinct == N);
    size_t len;
    /* the state of such a set is still exact (a long first quotient) */
    CHECK(bloom_builder_serialized_size(b, &len, NULL) == BLOOM_OK && len <= 32 + 8 * (size_t)N);
    uint8_t *state = malloc(len);
    CHECK(bloom_builder_serialize(b, state, len, NULL) == BLOOM_OK);
    bloom_builder *back;
    CHECK(bloom_builder_deserialize(&alloc, state, len, &back, NULL) == BLOOM_OK);
    CHECK(bloom_builder_distinct(back, &distinct, NULL) == BLOOM_OK && distinct == N);
    bloom_filter g;
    uint8_t *gbuf = finish_builder(back, &g);
    bloom_builder_destroy(back);
    bloom_filter f;
    uint8_t *buf = finish_builder(b, &f);
    uint64_t missing = 0;
    for (uint64_t i = 0; i < N; i++)
        missing += !bloom_contains_hash(&f, top | i);
    CHECK(missing == 0);
    CHECK(bloom_equal(&f, &g));
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
    free(state);
    free(buf);
    free(gbuf);
}

static void test_memory_after_repeats_return(void)
{
    /* Distinct values first, then the same values again: the passes that
     * wait longer after new values must not let repeats pile up without
     * bound. */
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b;
    enum { N = 200000 };
    CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &b, NULL) == BLOOM_OK);
    for (int round = 0; round < 10; round++)
        for (uint64_t i = 0; i < N; i++)
            CHECK(bloom_builder_add_hash(b, key_at(95, i), NULL) == BLOOM_OK);
    uint64_t distinct;
    CHECK(bloom_builder_distinct(b, &distinct, NULL) == BLOOM_OK && distinct == N);
    printf("     %d distinct values seen 10 times: peak builder memory=%.1f bytes/value\n", N,
           (double)heap.peak / N);
    CHECK_MSG(heap.peak < (size_t)N * 96, "peak %zu bytes for %d distinct values", heap.peak, N);
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
}

/* The host's cancel hook: called in every long step (partition passes,
 * filling, merging, serializing), and it may leave by longjmp as
 * PostgreSQL's ereport does, after which the builder is still destroyable. */
typedef struct cancel_probe {
    unsigned calls;
    unsigned leave_after; /* 0: never */
    jmp_buf *jump;
} cancel_probe;

static void count_call(void *ctx)
{
    cancel_probe *probe = ctx;
    probe->calls++;
    if (probe->leave_after != 0 && probe->calls == probe->leave_after)
        longjmp(*probe->jump, 1);
}

static bloom_builder *builder_with_rate(bloom_allocator *alloc, cancel_probe *probe,
                                        uint64_t stream, uint64_t n, double fpr)
{
    bloom_builder *b;
    if (bloom_builder_create(alloc, 0, fpr, 0, &b, NULL) != BLOOM_OK)
        abort();
    bloom_builder_set_host(b, 0, count_call, probe);
    for (uint64_t i = 0; i < n; i++)
        if (bloom_builder_add_hash(b, key_at(stream, i), NULL) != BLOOM_OK)
            abort();
    return b;
}

static bloom_builder *builder_of(bloom_allocator *alloc, cancel_probe *probe, uint64_t stream,
                                 uint64_t n)
{
    return builder_with_rate(alloc, probe, stream, n, 0.01);
}

/* Sizes b (a filter of at least min_len bytes), leaves its fill by the
 * hook's longjmp, finishes it again if asked (n hashes of stream, all
 * found), and destroys it. */
static void cancel_mid_fill(bloom_builder *b, cancel_probe *probe, size_t min_len,
                            bool finish_again, uint64_t stream, uint64_t n)
{
    size_t len;
    bloom_filter f;
    CHECK(bloom_builder_result_size(b, &len, NULL) == BLOOM_OK && len >= min_len);
    uint8_t *buf = malloc(len);
    probe->leave_after = probe->calls + 2;
    if (setjmp(*probe->jump) == 0) {
        (void)bloom_builder_finish(b, buf, len, &f, NULL);
        CHECK_MSG(0, "the hook's longjmp never happened while filling");
    }
    probe->leave_after = 0;
    if (finish_again) {
        memset(buf, 0, len);
        CHECK(bloom_builder_finish(b, buf, len, &f, NULL) == BLOOM_OK);
        uint64_t missing = 0;
        for (uint64_t i = 0; i < n; i++)
            missing += !bloom_contains_hash(&f, key_at(stream, i));
        CHECK_MSG(missing == 0, "%" PRIu64 " hashes missing after the second finish", missing);
    }
    free(buf);
    bloom_builder_destroy(b);
}

static void test_cancel_hook(void)
{
    enum { N = 1000000 };
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    cancel_probe probe = {0, 0, NULL};

    bloom_builder *b = builder_of(&alloc, &probe, 96, N);
    unsigned before = probe.calls;
    uint64_t distinct;
    CHECK(bloom_builder_distinct(b, &distinct, NULL) == BLOOM_OK && distinct == N);
    CHECK_MSG(probe.calls > before, "the partition passes never called the hook");

    bloom_builder *other = builder_of(&alloc, &probe, 97, N);
    before = probe.calls;
    CHECK(bloom_builder_merge(b, other, NULL) == BLOOM_OK);
    CHECK_MSG(probe.calls > before, "merging never called the hook");
    bloom_builder_destroy(other);

    size_t len;
    CHECK(bloom_builder_serialized_size(b, &len, NULL) == BLOOM_OK);
    uint8_t *state = malloc(len);
    before = probe.calls;
    CHECK(bloom_builder_serialize(b, state, len, NULL) == BLOOM_OK);
    CHECK_MSG(probe.calls > before, "serializing never called the hook");
    free(state);

    before = probe.calls;
    bloom_filter f;
    free(finish_builder(b, &f));
    CHECK_MSG(probe.calls > before, "sizing and filling never called the hook");
    bloom_builder_destroy(b);

    /* Cancelled in the middle of the final build: nothing leaks once the
     * host frees the builder; the same in the fill of a filter big enough
     * to be filled a region at a time (8 MiB at 1e-6): its buckets too. */
    jmp_buf jump;
    probe = (cancel_probe){0, 0, &jump};
    cancel_mid_fill(builder_of(&alloc, &probe, 98, N), &probe, 0, false, 0, 0);
    CHECK(heap.live == 0);
    const size_t regions_min = bloom_serialized_size((uint64_t)CLASSIC_REGIONS_MIN << CLASSIC_REGION_BITS);
    cancel_mid_fill(builder_with_rate(&alloc, &probe, 99, 1500000, 1e-6), &probe, regions_min,
                    false, 0, 0);
    CHECK(heap.live == 0);
    /* finished again after the longjmp: the first fill's buckets are not
     * lost, and the second fill is whole */
    cancel_mid_fill(builder_with_rate(&alloc, &probe, 100, 1500000, 1e-6), &probe, regions_min,
                    true, 100, 1500000);
    CHECK(heap.live == 0);
}

/* An allocation fails in the flush of the run of pending hashes; the host
 * retries the add that failed and goes on.  The hashes whose adds returned
 * BLOOM_OK before are kept (the flush used to drop the rest of the run). */
static void test_failed_flush_keeps_accepted(void)
{
    enum { N = 300000, FAIL_FROM = 100000 };
    for (long skip = 0; skip < 2; skip++) { /* the next two allocations come in flushes */
        counting_heap heap = {0, 0, -1};
        bloom_allocator alloc = counting_allocator(&heap);
        bloom_builder *b;
        CHECK(bloom_builder_create(&alloc, BLOOM_LAYOUT_CLASSIC, 0.01, 0, &b, NULL) == BLOOM_OK);
        unsigned failures = 0;
        for (uint64_t i = 0; i < N; i++) {
            if (i == FAIL_FROM)
                heap.fail_after = skip; /* one of the next allocations fails */
            while (bloom_builder_add_hash_inline(b, key_at(101, i), NULL) != BLOOM_OK) {
                failures++;
                heap.fail_after = -1;
            }
        }
        CHECK_MSG(failures == 1, "skip %ld: %u adds failed", skip, failures);
        bloom_filter f;
        uint8_t *buf = finish_builder(b, &f);
        uint64_t missing = 0;
        for (uint64_t i = 0; i < N; i++)
            missing += !bloom_contains_hash(&f, key_at(101, i));
        CHECK_MSG(missing == 0, "skip %ld: %" PRIu64 " hashes lost", skip, missing);
        free(buf);
        bloom_builder_destroy(b);
        CHECK(heap.live == 0);
    }
}

/* Whether every partition is settled (the final pass ran). */
static bool all_settled(const bloom_builder *b)
{
    for (unsigned i = 0; b->store != NULL && i < NPARTS; i++)
        if (part_count(&b->store->parts[i]) != b->store->parts[i].settled)
            return false;
    return true;
}

/* Sized from bounds on the distinct count, without the final pass, a
 * builder gives the bytes of the same builder settled first: with every
 * hash distinct, with an eighth's worth of repeats in the tails (added
 * twice by the finish), and when the repeats are too many for the bounds
 * (the pass runs).  The first two must skip the pass, or this tests
 * nothing. */
static void check_bounds_equal_settled(int layout, uint64_t n, uint64_t repeats, bool skips)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *bounded, *settled;
    CHECK(bloom_builder_create(&alloc, layout, 0.01, 3, &bounded, NULL) == BLOOM_OK);
    CHECK(bloom_builder_create(&alloc, layout, 0.01, 3, &settled, NULL) == BLOOM_OK);
    for (uint64_t i = 0; i < n + repeats; i++) {
        uint64_t h = key_at(130, i < n ? i : i - n);
        if (bloom_builder_add_hash(bounded, h, NULL) != BLOOM_OK ||
            bloom_builder_add_hash(settled, h, NULL) != BLOOM_OK)
            abort();
    }
    uint64_t distinct;
    CHECK(bloom_builder_distinct(settled, &distinct, NULL) == BLOOM_OK && distinct == n);
    bloom_filter want, got;
    uint8_t *want_buf = finish_builder(settled, &want);
    uint8_t *got_buf = finish_builder(bounded, &got);
    CHECK_MSG(all_settled(bounded) != skips, "%s n=%llu repeats=%llu: the final pass %s",
              bloom_layout_name(layout), (unsigned long long)n, (unsigned long long)repeats,
              skips ? "ran" : "was skipped");
    CHECK(got.nbits == want.nbits && got.nhashes == want.nhashes);
    CHECK(memcmp(want_buf, got_buf, bloom_serialized_size(want.nbits)) == 0);
    /* a second finish of the same builder, and its count, agree */
    free(got_buf);
    got_buf = finish_builder(bounded, &got);
    CHECK(memcmp(want_buf, got_buf, bloom_serialized_size(want.nbits)) == 0);
    CHECK(bloom_builder_distinct(bounded, &distinct, NULL) == BLOOM_OK && distinct == n);
    bloom_builder_destroy(bounded);
    bloom_builder_destroy(settled);
    CHECK(heap.live == 0);
    free(want_buf);
    free(got_buf);
}

static void test_size_from_bounds(void)
{
    check_bounds_equal_settled(BLOOM_LAYOUT_CLASSIC, 3000000, 0, true);
    check_bounds_equal_settled(BLOOM_LAYOUT_CLASSIC, 3000000, 100000, true);
    check_bounds_equal_settled(BLOOM_LAYOUT_CLASSIC, 3000000, 1500000, false);
    check_bounds_equal_settled(BLOOM_LAYOUT_BLOCKED, 3000000, 0, true);
    check_bounds_equal_settled(BLOOM_LAYOUT_BLOCKED, 3000000, 100000, true);
    /* a counting filter would count a repeat twice: always the pass */
    check_bounds_equal_settled(BLOOM_LAYOUT_COUNTING, 3000000, 100000, false);
}

/* The builder's own filter of a size it fills a region at a time (8 MiB at
 * 1e-6), visiting its partitions in order and setting each hash's first bit
 * at once, holds the bits single adds of the same hashes set. */
static void test_region_filled_builder_equals_single_adds(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b;
    const uint64_t n = 1500000;
    CHECK(bloom_builder_create(&alloc, BLOOM_LAYOUT_CLASSIC, 1e-6, 11, &b, NULL) == BLOOM_OK);
    for (uint64_t i = 0; i < n; i++)
        if (bloom_builder_add_hash(b, key_at(140, i), NULL) != BLOOM_OK)
            abort();
    bloom_filter got, want;
    uint8_t *got_buf = finish_builder(b, &got);
    CHECK_MSG(classic_regions_fit(&got), "%llu bits: not filled a region at a time",
              (unsigned long long)got.nbits);
    size_t size = bloom_serialized_size(got.nbits);
    uint8_t *want_buf = calloc(1, size);
    CHECK(bloom_init(want_buf, size, BLOOM_LAYOUT_CLASSIC, got.nbits, got.nhashes, 11, &want, NULL) ==
          BLOOM_OK);
    for (uint64_t i = 0; i < n; i++)
        bloom_add_hash(&want, key_at(140, i));
    CHECK(bloom_equal(&want, &got));
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
    free(want_buf);
    free(got_buf);
}

/* The inline add and the call build the same filter: through the front,
 * in runs once the front steps aside, and after the builder was sized (its
 * run then closed, so the size is for every hash). */
static void test_inline_add_equals_call(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *inl, *call;
    CHECK(bloom_builder_create(&alloc, BLOOM_LAYOUT_CLASSIC, 0.01, 5, &inl, NULL) == BLOOM_OK);
    CHECK(bloom_builder_create(&alloc, BLOOM_LAYOUT_CLASSIC, 0.01, 5, &call, NULL) == BLOOM_OK);
    const uint64_t rounds[] = {100, 50000, 1, 63, 64, 65, 200000};
    uint64_t from = 0;
    bool opened = false; /* a hash was written inline, with no call */
    for (size_t r = 0; r < sizeof rounds / sizeof rounds[0]; r++) {
        for (uint64_t i = from; i < from + rounds[r]; i++) {
            opened |= inl->run.next != inl->run.end;
            CHECK(bloom_builder_add_hash_inline(inl, key_at(150, i), NULL) == BLOOM_OK);
            CHECK(bloom_builder_add_hash(call, key_at(150, i), NULL) == BLOOM_OK);
        }
        from += rounds[r];
        size_t a, b;
        CHECK(bloom_builder_result_size(inl, &a, NULL) == BLOOM_OK);
        CHECK(bloom_builder_result_size(call, &b, NULL) == BLOOM_OK);
        CHECK_MSG(a == b, "after %llu hashes: %zu bytes against %zu", (unsigned long long)from, a, b);
        /* a size is cached for the hashes so far: the next add must
         * forget it, so must not be written inline */
        CHECK(inl->run.next == inl->run.end);
    }
    CHECK_MSG(inl->bypass && opened, "no hash was written into a run: the inline path was not tested");
    uint64_t distinct;
    CHECK(bloom_builder_distinct(inl, &distinct, NULL) == BLOOM_OK && distinct == from);
    bloom_filter fi, fc;
    uint8_t *bi = finish_builder(inl, &fi), *bc = finish_builder(call, &fc);
    CHECK(fi.nbits == fc.nbits && memcmp(bi, bc, bloom_serialized_size(fi.nbits)) == 0);
    bloom_builder_destroy(inl);
    bloom_builder_destroy(call);
    CHECK(heap.live == 0);
    free(bi);
    free(bc);
}

const test_case builder_tests[] = {
    {"builder: the cancel hook runs in every long step, and may longjmp", test_cancel_hook},
    {"builder: an add that fails in the run's flush loses no hash added before",
     test_failed_flush_keeps_accepted},
    {"builder: size and rate targets at 1, 100, 10^4 values", test_targets_small},
    {"builder: size and rate targets at 10^6, 10^7 values", test_targets_large},
    {"builder: blocked layout targets", test_targets_blocked},
    {"builder: merged partials equal the serial result", test_merge_equals_serial},
    {"builder: sized from bounds on the count, the bytes of the settled builder",
     test_size_from_bounds},
    {"builder: a filter filled a region at a time holds the bits of single adds",
     test_region_filled_builder_equals_single_adds},
    {"builder: the inline add builds what the call builds, sized midway or not",
     test_inline_add_equals_call},
    {"builder: serialize midway and go on", test_serialize_midway},
    {"builder: malformed states rejected", test_malformed_states},
    {"builder: merging mismatched builders fails", test_merge_mismatch},
    {"builder: memory grows with the data", test_memory_grows_with_data},
    {"builder: memory when repeats return", test_memory_after_repeats_return},
    {"builder: hashes crafted to crowd", test_crowded_hashes},
    {"builder: empty input", test_empty_builder},
    {"builder: allocation failures", test_allocation_failures},
};
const size_t builder_tests_count = sizeof builder_tests / sizeof builder_tests[0];
