/*
 * builder_state.c - fuzz target: a serialized builder state from outside
 * (bloom_builder_deserialize: PostgreSQL's bloom_builder input, receive and
 * deserial functions, i.e. what Citus workers and parallel workers send),
 * in both encodings (1.0's raw hashes, 1.1's Rice-coded gaps).  An accepted
 * state is then used as the hosts use it: counted, serialized again, merged
 * and finished into a filter, each step checked.
 */
#include "fuzz.h"

/* Finishing is skipped above this result size: the sizing of large
 * results is the sizing tests' job, and the fuzzer wants many runs a second. */
#define FUZZ_RESULT_CEILING ((size_t)16 << 20)

/* The state's serialization, malloc'd; NULL when the allocator said no. */
static uint8_t *serialize(bloom_builder *b, size_t *len)
{
    bloom_error err;
    bloom_status st = bloom_builder_serialized_size(b, len, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK(st == BLOOM_E_NOMEM || st == BLOOM_E_LIMIT);
        return NULL;
    }
    uint8_t *buf = malloc(*len);
    FUZZ_CHECK(buf != NULL);
    st = bloom_builder_serialize(b, buf, *len, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK(st == BLOOM_E_NOMEM);
        free(buf);
        return NULL;
    }
    return buf;
}

/* The finished filter, malloc'd; NULL when too large or refused. */
static uint8_t *finish(bloom_builder *b, size_t *len)
{
    bloom_error err;
    bloom_status st = bloom_builder_result_size(b, len, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK_REFUSAL(st, err);
        return NULL;
    }
    if (*len > FUZZ_RESULT_CEILING)
        return NULL;
    uint8_t *buf = malloc(*len);
    FUZZ_CHECK(buf != NULL);
    bloom_filter f;
    st = bloom_builder_finish(b, buf, *len, &f, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK_REFUSAL(st, err);
        free(buf);
        return NULL;
    }
    bloom_filter g;
    FUZZ_CHECK(bloom_parse(buf, *len, &g, &err) == BLOOM_OK);
    FUZZ_CHECK(g.layout == bloom_builder_layout(b) && g.seed == bloom_builder_seed(b));
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_heap heap = {0};
    bloom_allocator alloc = fuzz_allocator(&heap);
    uint8_t *input = fuzz_copy(data, size);
    bloom_builder *b = NULL, *again = NULL, *merged = NULL;
    bloom_error err;

    bloom_status st = bloom_builder_deserialize(&alloc, input, size, &b, &err);
    free(input);
    if (st != BLOOM_OK) {
        FUZZ_CHECK_REFUSAL(st, err);
        FUZZ_CHECK(heap.live == 0);
        return 0;
    }
    uint64_t n = 0;
    st = bloom_builder_distinct(b, &n, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK(st == BLOOM_E_NOMEM);
        goto done;
    }

    /* serialize, read back, serialize: the second state is the first */
    size_t len1 = 0, len2 = 0;
    uint8_t *state1 = serialize(b, &len1);
    if (state1 == NULL)
        goto done;
    st = bloom_builder_deserialize(&alloc, state1, len1, &again, &err);
    FUZZ_CHECK(st == BLOOM_OK || st == BLOOM_E_NOMEM);
    if (st == BLOOM_OK) {
        uint8_t *state2 = serialize(again, &len2);
        if (state2 != NULL) {
            FUZZ_CHECK(len1 == len2 && memcmp(state1, state2, len1) == 0);
            free(state2);
        }
    }
    free(state1);

    /* a builder merged with itself has the same distinct hashes */
    st = bloom_builder_create(&alloc, bloom_builder_layout(b), bloom_builder_fpr(b),
                              bloom_builder_seed(b), &merged, &err);
    if (st == BLOOM_OK) {
        st = bloom_builder_merge(merged, b, &err);
        if (st == BLOOM_OK)
            st = bloom_builder_merge(merged, b, &err);
        uint64_t m = 0;
        if (st == BLOOM_OK)
            st = bloom_builder_distinct(merged, &m, &err);
        if (st == BLOOM_OK)
            FUZZ_CHECK(m == n);
        else
            FUZZ_CHECK(st == BLOOM_E_NOMEM);
    } else {
        FUZZ_CHECK(st == BLOOM_E_NOMEM);
    }

    /* the filter depends only on the set of hashes: the same bytes from the
     * state as read and from its copy read back */
    size_t flen1 = 0, flen2 = 0;
    uint8_t *filter1 = finish(b, &flen1);
    if (filter1 != NULL && again != NULL) {
        uint8_t *filter2 = finish(again, &flen2);
        if (filter2 != NULL) {
            FUZZ_CHECK(flen1 == flen2 && memcmp(filter1, filter2, flen1) == 0);
            free(filter2);
        }
    }
    free(filter1);

done:
    bloom_builder_destroy(merged);
    bloom_builder_destroy(again);
    bloom_builder_destroy(b);
    FUZZ_CHECK(heap.live == 0);
    return 0;
}
