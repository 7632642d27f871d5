/*
 * filter_parse.c - fuzz target: bytes from outside read as a filter
 * (bloom_parse, bloom_parse_header: every host's input, recv, bytea cast and
 * stored value), then, when accepted, every read and write the hosts do
 * with a filter, each checked against a property it must have: every layout
 * (classic, blocked, counting, scalable), growth, removal, stretching.
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
        if (plan.count == 0) { /* scalable: read whole */
            FUZZ_CHECK(f->layout == BLOOM_LAYOUT_SCALABLE);
            continue;
        }
        FUZZ_CHECK(plan.count <= BLOOM_MAX_NHASHES && (plan.length == 1 || plan.length == 32));
        for (unsigned r = 0; r < plan.count; r++) {
            FUZZ_CHECK(plan.offset[r] + plan.length <= f->nbytes);
            memcpy(bytes + r * plan.length, f->bits + plan.offset[r], plan.length);
        }
        FUZZ_CHECK(bloom_probe_plan_test(f, hashes[i], &plan, bytes) == one);
    }

    bloom_error err;
    double est;
    bloom_stats stats;
    bloom_get_stats(f, &stats);
    FUZZ_CHECK(stats.bits_set == ones);
    if (f->layout == BLOOM_LAYOUT_SCALABLE) { /* no estimates of two */
        FUZZ_CHECK(bloom_check_compatible(f, f, &err) == BLOOM_E_INVALID_ARGUMENT);
        return;
    }
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

static void *plain_alloc(void *ctx, size_t size)
{
    return fuzz_alloc(ctx, size);
}

/* a op b into a new buffer (or none: the combination refused), parsed. */
static uint8_t *combined(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                         bloom_filter *out, bloom_status *st)
{
    size_t len;
    bloom_error err;
    *st = bloom_combine_size(a, b, op, &len, NULL, &err);
    if (*st != BLOOM_OK) {
        FUZZ_CHECK_REFUSAL(*st, err);
        return NULL;
    }
    uint8_t *buf = malloc(len);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(bloom_combine(a, b, op, 0, buf, len, out, &err) == BLOOM_OK);
    FUZZ_CHECK(bloom_parse(buf, len, out, &err) == BLOOM_OK);
    return buf;
}

/* A writable copy gains hashes; it then contains them, still parses, and
 * intersecting it with the original gives the original back (a filter with
 * one array) or keeps every probe of the original (a union of classes). */
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
    FUZZ_CHECK(bloom_union_into(&g, f, &err) == BLOOM_OK); /* the same shape: in place */
    for (unsigned i = 0; i < 4; i++)
        FUZZ_CHECK(bloom_contains_hash(&g, hashes[i]));
    bloom_status st;
    bloom_filter in;
    uint8_t *bin = combined(&g, f, BLOOM_OP_INTERSECT, &in, &st);
    if (f->layout != BLOOM_LAYOUT_SCALABLE) {
        FUZZ_CHECK(bin != NULL && bloom_equal(&in, f));
    } else if (bin != NULL) {
        for (unsigned i = 0; i < 8; i++) {
            uint64_t x = probe_hash(data, size, i);
            if (bloom_contains_hash(f, x))
                FUZZ_CHECK(bloom_contains_hash(&in, x));
        }
    }
    free(bin);
    FUZZ_CHECK(bloom_compare_headers(copy, data) == 0);

    /* counting: an added value is removed, the others stay */
    if (f->layout == BLOOM_LAYOUT_COUNTING) {
        FUZZ_CHECK(bloom_remove_hash(&g, hashes[0], &err) == BLOOM_OK);
        for (unsigned i = 1; i < 4; i++)
            FUZZ_CHECK(bloom_contains_hash(&g, hashes[i]));
        size_t len;
        FUZZ_CHECK(bloom_to_classic_size(f, &len, &err) == BLOOM_OK);
        uint8_t *cl = malloc(len);
        bloom_filter c;
        FUZZ_CHECK(cl != NULL && bloom_to_classic(f, cl, len, &c, &err) == BLOOM_OK);
        for (unsigned i = 0; i < 8; i++) {
            uint64_t x = probe_hash(data, size, i);
            FUZZ_CHECK(bloom_contains_hash(&c, x) == bloom_contains_hash(f, x));
        }
        free(cl);
    } else {
        FUZZ_CHECK(bloom_remove_hash(&g, hashes[0], &err) == BLOOM_E_INVALID_ARGUMENT);
    }
    free(copy);

    /* bloom_insert: a scalable filter may grow (a new buffer), within a
     * ceiling; every value it took is found */
    fuzz_heap heap = {0};
    bloom_allocator alloc = {plain_alloc, fuzz_release, &heap};
    void *grown = fuzz_alloc(&heap, size);
    FUZZ_CHECK(grown != NULL);
    memcpy(grown, data, size);
    size_t glen = size;
    FUZZ_CHECK(bloom_parse(grown, glen, &g, &err) == BLOOM_OK);
    uint64_t many[64];
    for (unsigned i = 0; i < 64; i++)
        many[i] = probe_hash(data, size, 200 + i);
    st = bloom_insert(&alloc, 1 << 20, &grown, &glen, &g, many, 64, &err);
    if (st != BLOOM_OK)
        FUZZ_CHECK_REFUSAL(st, err);
    FUZZ_CHECK(bloom_parse(grown, glen, &g, &err) == BLOOM_OK);
    if (st == BLOOM_OK)
        for (unsigned i = 0; i < 64; i++)
            FUZZ_CHECK(bloom_contains_hash(&g, many[i]));
    fuzz_release(&heap, grown);
    FUZZ_CHECK(heap.live == 0);

    /* folding to half the size, where it divides: a valid filter that keeps
     * every member (a folded bit is the OR of the bits it covers) */
    uint64_t half = f->nbits / 2;
    if (half > 0 && bloom_check_fold(f, half, &err) == BLOOM_OK) {
        size_t len = bloom_layout_size(f->layout, half);
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
    /* stretching to three times the size, where the format allows it:
     * every probe answers as before */
    if (f->nbits <= (UINT64_C(1) << 20) && bloom_check_stretch(f, 3 * f->nbits, &err) == BLOOM_OK) {
        size_t len = bloom_layout_size(f->layout, 3 * f->nbits);
        uint8_t *big = malloc(len);
        FUZZ_CHECK(big != NULL);
        bloom_filter t;
        FUZZ_CHECK(bloom_stretch(f, 3 * f->nbits, big, len, &t, &err) == BLOOM_OK);
        FUZZ_CHECK(bloom_parse(big, len, &t, &err) == BLOOM_OK);
        for (unsigned i = 0; i < 8; i++) {
            uint64_t x = probe_hash(data, size, i);
            FUZZ_CHECK(bloom_contains_hash(&t, x) == bloom_contains_hash(f, x));
        }
        free(big);
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
    FUZZ_CHECK(bloom_filter_size(&f) == size);
    if (f.layout != BLOOM_LAYOUT_SCALABLE) {
        FUZZ_CHECK(bloom_layout_size(f.layout, f.nbits) == size);
        FUZZ_CHECK(bloom_check_params(f.layout, f.nbits, f.nhashes, &err) == BLOOM_OK);
    }
    check_reads(&f, input, size);
    check_writes(&f, input, size);
    free(input);
    return 0;
}
