/*
 * parquet.c - fuzz target: a Parquet column chunk's Bloom filter bitset
 * from outside (bloom_from_parquet, SQL bloom_from_parquet in both
 * engines).  Accepted bitsets become blocked filters that parse, carry the
 * bitset unchanged and are Parquet bitsets again (bloom_check_parquet).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *bitset = fuzz_copy(data, size);
    size_t len = size + BLOOM_HEADER_SIZE;
    uint8_t *buf = malloc(len);
    FUZZ_CHECK(buf != NULL);
    bloom_filter f;
    bloom_error err;

    /* a buffer of the wrong length is refused, whatever the bitset */
    bloom_status st = bloom_from_parquet(bitset, size, buf, len - 1, &f, &err);
    FUZZ_CHECK(st != BLOOM_OK);
    FUZZ_CHECK_REFUSAL(st, err);

    st = bloom_from_parquet(bitset, size, buf, len, &f, &err);
    if (st != BLOOM_OK) {
        FUZZ_CHECK_REFUSAL(st, err);
    } else {
        FUZZ_CHECK(size > 0 && size % 32 == 0);
        FUZZ_CHECK(f.layout == BLOOM_LAYOUT_BLOCKED && f.seed == 0 && f.nbytes == size);
        FUZZ_CHECK(memcmp(f.bits, data, size) == 0);
        bloom_filter g;
        FUZZ_CHECK(bloom_parse(buf, len, &g, &err) == BLOOM_OK);
        FUZZ_CHECK(bloom_equal(&f, &g));
        FUZZ_CHECK(bloom_check_parquet(&g, &err) == BLOOM_OK);
    }
    free(buf);
    free(bitset);
    return 0;
}
