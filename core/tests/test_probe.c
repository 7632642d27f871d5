/*
 * test_probe.c - the partial-read probe (probe_offsets.c) and the batched
 * probe (probe_batch.c) answer exactly as bloom_contains_hash.
 */
#include "util.h"

#include <string.h>

/* Filters of both layouts, small and odd sizes included, half full. */
typedef struct shape {
    int layout;
    uint64_t nbits;
    unsigned k;
} shape;
static const shape shapes[] = {{BLOOM_LAYOUT_CLASSIC, 1, 1},
                               {BLOOM_LAYOUT_CLASSIC, 61, 3},
                               {BLOOM_LAYOUT_CLASSIC, 9585, 7},
                               {BLOOM_LAYOUT_CLASSIC, 1 << 20, 32},
                               {BLOOM_LAYOUT_CLASSIC, 1 << 24, 7}, /* 2 MiB: the batch prefetches */
                               {BLOOM_LAYOUT_BLOCKED, 256, 8},
                               {BLOOM_LAYOUT_BLOCKED, 256 * 37, 8},
                               {BLOOM_LAYOUT_BLOCKED, 1 << 20, 8}};
/* and, for the batches, counting filters (1 << 22 counters: 2 MiB, beyond
 * the cache, where the batch's prefetches matter) */
static const shape counting_shapes[] = {{BLOOM_LAYOUT_COUNTING, 61, 3},
                                        {BLOOM_LAYOUT_COUNTING, 9585, 7},
                                        {BLOOM_LAYOUT_COUNTING, 1 << 22, 7}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0],
       NBATCH_SHAPES = NSHAPES + sizeof counting_shapes / sizeof counting_shapes[0] };

static const shape *batch_shape(size_t s)
{
    return s < NSHAPES ? &shapes[s] : &counting_shapes[s - NSHAPES];
}

static void test_plan_reads_what_probe_reads(void)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        bloom_filter f, header;
        uint8_t *buf = new_filter(shapes[s].layout, shapes[s].nbits, shapes[s].k, 17, &f);
        size_t len = bloom_serialized_size(f.nbits);
        for (uint64_t i = 0; i < shapes[s].nbits / 16 + 1; i++)
            bloom_add_hash(&f, key_at(30, i));
        /* the header alone, with the total length, is enough to plan */
        CHECK(bloom_parse_header(buf, len, &header, NULL) == BLOOM_OK);
        int mismatches = 0, out_of_range = 0;
        for (uint64_t i = 0; i < 4000; i++) {
            uint64_t h = key_at(i % 2 ? 30 : 31, i / 2);
            bloom_probe_plan plan;
            uint8_t bytes[BLOOM_MAX_NHASHES * 32];
            bloom_probe_plan_for(&header, h, &plan);
            CHECK(plan.length == (f.layout == BLOOM_LAYOUT_BLOCKED ? 32u : 1u));
            CHECK(plan.count == (f.layout == BLOOM_LAYOUT_BLOCKED ? 1u : f.nhashes));
            for (unsigned r = 0; r < plan.count; r++) {
                if (plan.offset[r] + plan.length > f.nbytes) {
                    out_of_range++;
                    continue;
                }
                memcpy(bytes + r * plan.length, f.bits + plan.offset[r], plan.length);
            }
            if (bloom_probe_plan_test(&header, h, &plan, bytes) != bloom_contains_hash(&f, h))
                mismatches++;
        }
        CHECK_MSG(mismatches == 0 && out_of_range == 0, "shape %zu: %d mismatches, %d out of range",
                  s, mismatches, out_of_range);
        free(buf);
    }
}

static void test_batch_equals_single(void)
{
    /* on both sides of the prefetch distances (8 classic and counting, 40
     * blocked) and of the classic passes (256) */
    static const size_t counts[] = {0, 1, 7, 8, 9, 16, 17, 39, 40, 41, 255, 256, 257, 1000};
    uint64_t hashes[1000];
    bool out[1000];
    for (size_t s = 0; s < NBATCH_SHAPES; s++) {
        const shape *sh = batch_shape(s);
        bloom_filter f;
        uint8_t *buf = new_filter(sh->layout, sh->nbits, sh->k, 3, &f);
        for (uint64_t i = 0; i < 500; i++) /* the odd-numbered hashes below */
            bloom_add_hash(&f, key_at(40, i));
        /* about 40% of the bits set, so that absent hashes pass the batch's
         * first bits as often as at a filter's capacity */
        for (uint64_t i = 0; i < sh->nbits / (2 * sh->k); i++)
            bloom_add_hash(&f, key_at(42, i));
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            size_t n = counts[c];
            for (size_t i = 0; i < n; i++)
                hashes[i] = key_at(i % 2 ? 40 : 41, i / 2);
            memset(out, 0, sizeof out);
            bloom_contains_hashes(&f, hashes, n, out);
            int mismatches = 0, present = 0;
            for (size_t i = 0; i < n; i++) {
                mismatches += out[i] != bloom_contains_hash(&f, hashes[i]);
                present += out[i];
            }
            CHECK_MSG(mismatches == 0, "shape %zu, n %zu: %d mismatches", s, n, mismatches);
            /* every other hash was added: no false negatives */
            CHECK(present >= (int)(n / 2));
        }
        free(buf);
    }
}

/* The first hash of an answer, wherever it lies in the passes of 256: in
 * the first, at a pass's last and first place, late, or nowhere. */
static void test_first_answer_equals_single(void)
{
    static const size_t places[] = {0, 1, 255, 256, 257, 999, 1000};
    uint64_t hashes[1000];
    for (size_t s = 0; s < NBATCH_SHAPES; s++) {
        const shape *sh = batch_shape(s);
        bloom_filter f;
        uint8_t *buf = new_filter(sh->layout, sh->nbits, sh->k, 5, &f);
        for (uint64_t i = 0; i < 1000; i++)
            bloom_add_hash(&f, key_at(50, i));
        for (int answer = 0; answer < 2; answer++) {
            for (size_t c = 0; c < sizeof places / sizeof places[0]; c++) {
                /* members all through for ALL, absent keys for ANY; the
                 * other kind at the place */
                for (size_t i = 0; i < 1000; i++)
                    hashes[i] = key_at((i == places[c]) == (answer == 1) ? 50 : 51, i);
                size_t expected = 1000;
                for (size_t i = 0; i < 1000 && expected == 1000; i++)
                    if (bloom_contains_hash(&f, hashes[i]) == (answer == 1))
                        expected = i;
                /* the whole array, and cut just before and just after the place */
                size_t after = places[c] < 1000 ? places[c] + 1 : 1000;
                const size_t lengths[] = {1000, places[c], after};
                for (size_t l = 0; l < 3; l++) {
                    size_t n = lengths[l], want = expected < n ? expected : n;
                    size_t got = bloom_contains_first(&f, hashes, n, answer == 1);
                    CHECK_MSG(got == want, "shape %zu, answer %d, place %zu, n %zu: %zu, not %zu",
                              s, answer, places[c], n, got, want);
                }
            }
        }
        free(buf);
    }
}

const test_case probe_tests[] = {
    {"probe: planned bytes give the probe's answer", test_plan_reads_what_probe_reads},
    {"probe: batched probes equal single probes", test_batch_equals_single},
    {"probe: a batch's first answer is the single probes' first",
     test_first_answer_equals_single},
};
const size_t probe_tests_count = sizeof probe_tests / sizeof probe_tests[0];
