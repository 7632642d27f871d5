/*
 * filter_parse.c - fuzz target: bytes from outside read as a filter
 * (bloom_parse, bloom_parse_header: every host's input, recv, bytea cast and
 * stored value), then, when accepted, every read and write the hosts do
 * with a filter, each checked against a property it must have.
 */
#include "fuzz.h"

#include <math.h>

/* Hashes to probe with, from the input itself (deterministic). */
static uint64_t probe_hash(const uint8_t *data, size_t size, unsigned i)
{
    return bloom_hash_bytes(data, size < 16 ? size : 16, i);
}

static void check_reads(const bloom_filter *f, const uint8_t *data, size_t size)
{
    uint64_t ones = bloom_popcount(f);
    FUZZ_CHECK(ones <= f->nbits);
    double fill = bloom_fill(f), fpr = bloom_estimate_fpr(f);
    FUZZ_CHECK(fill >= 0 && fill <= 1);
    FUZZ_CHECK(fpr >= 0 && fpr <= 1);
    double n = bloom_estimate_cardinality(f);
    FUZZ_CHECK(n >= 0 && !isnan(n));
    (void)bloom_is_saturated(f);
    FUZZ_CHECK(bloom_equal(f, f));

    uint64_t hashes[8];
    bool batch[8];
    for (unsigned i = 0; i < 8; i++)
        hashes[i] = probe_hash(data, size, i);
    bloom_contains_hashes(f, hashes, 8, batch);
    for (unsigned i = 0; i < 8; i++) {
        bool one = bloom_contains_hash(f, hashes[i]);
        FUZZ_CHECK(batch[i] == one);
        /* the piecewise probe reads the bytes it plans, and agrees */
        bloom_probe_plan plan;
        uint8_t bytes[BLOOM_MAX_NHASHES * (BLOOM_BLOCK_BITS / 8)];
        bloom_probe_plan_for(f, hashes[i], &plan);
        FUZZ_CHECK(plan.count <= BLOOM_MAX_NHASHES && (plan.length == 1 || plan.length == 32));
        for (unsigned r = 0; r < plan.count; r++) {
            FUZZ_CHECK(plan.offset[r] + plan.length <= f->nbytes);
            memcpy(bytes + r * plan.length, f->bits + plan.offset[r], plan.length);
        }
        FUZZ_CHECK(bloom_probe_plan_test(f, hashes[i], &plan, bytes) == one);
    }

    bloom_error err;
    double est;
    FUZZ_CHECK(bloom_check_compatible(f, f, &err) == BLOOM_OK);
    double both;
    FUZZ_CHECK(bloom_estimate_union(f, f, &both, &err) == BLOOM_OK);
    FUZZ_CHECK(bloom_estimate_intersection(f, f, &est, &err) == BLOOM_OK);
    FUZZ_CHECK(both >= 0 && est >= 0);
    FUZZ_CHECK(bloom_estimate_jaccard(f, f, &est, &err) == BLOOM_OK);
    /* undefined (NaN) exactly when the union is: every bit set */
    FUZZ_CHECK(isinf(both) ? isnan(est) : est >= 0 && est <= 1);
    bloom_status st = bloom_check_parquet(f, &err);
    FUZZ_CHECK(st == BLOOM_OK || err.message[0] != '\0');
}

/* A writable copy gains hashes; it then contains them, still parses, and
 * intersecting it with the original gives the original back. */
static void check_writes(const bloom_filter *f, const uint8_t *data, size_t size)
{
    uint8_t *copy = fuzz_copy(data, size);
    bloom_filter g;
    bloom_error err;
    FUZZ_CHECK(bloom_parse(copy, size, &g, &err) == BLOOM_OK);
    uint64_t hashes[4];
    for (unsigned i = 0; i < 4; i++)
        hashes[i] = probe_hash(data, size, 100 + i);
    bloom_add_hash(&g, hashes[0]);
    bloom_add_hashes(&g, hashes + 1, 3);
    for (unsigned i = 0; i < 4; i++)
        FUZZ_CHECK(bloom_contains_hash(&g, hashes[i]));
    FUZZ_CHECK(bloom_parse(copy, size, &g, &err) == BLOOM_OK);
    FUZZ_CHECK(bloom_union_into(&g, f, &err) == BLOOM_OK);
    FUZZ_CHECK(bloom_intersect_into(&g, f, &err) == BLOOM_OK);
    FUZZ_CHECK(bloom_equal(&g, f));
    FUZZ_CHECK(bloom_compare_headers(copy, data) == 0);
    free(copy);

    /* folding to half the size, where it divides: a valid filter that keeps
     * every member (a folded bit is the OR of the bits it covers) */
    uint64_t half = f->nbits / 2;
    if (half > 0 && bloom_check_fold(f, half, &err) == BLOOM_OK) {
        size_t len = bloom_serialized_size(half);
        FUZZ_CHECK(len > 0);
        uint8_t *folded = malloc(len);
        FUZZ_CHECK(folded != NULL);
        bloom_filter h;
        FUZZ_CHECK(bloom_fold(f, half, folded, len, &h, &err) == BLOOM_OK);
        FUZZ_CHECK(bloom_parse(folded, len, &h, &err) == BLOOM_OK);
        FUZZ_CHECK(bloom_popcount(&h) <= bloom_popcount(f));
        for (unsigned i = 0; i < 8; i++) {
            uint64_t x = probe_hash(data, size, i);
            if (bloom_contains_hash(f, x))
                FUZZ_CHECK(bloom_contains_hash(&h, x));
        }
        free(folded);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *input = fuzz_copy(data, size);
    bloom_filter f, header;
    bloom_error err;
    bloom_status header_st = bloom_parse_header(input, size, &header, &err);
    if (header_st != BLOOM_OK)
        FUZZ_CHECK_REFUSAL(header_st, err);
    bloom_status st = bloom_parse(input, size, &f, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK_REFUSAL(st, err);
        free(input);
        return 0;
    }
    /* what the full check accepts, the header check accepts alike */
    FUZZ_CHECK(header_st == BLOOM_OK);
    FUZZ_CHECK(header.nbits == f.nbits && header.nhashes == f.nhashes &&
               header.layout == f.layout && header.seed == f.seed);
    FUZZ_CHECK(bloom_serialized_size(f.nbits) == size);
    FUZZ_CHECK(bloom_check_params(f.layout, f.nbits, f.nhashes, &err) == BLOOM_OK);
    check_reads(&f, input, size);
    check_writes(&f, input, size);
    free(input);
    return 0;
}
