/*
 * test_golden.c - the published vectors of docs/FORMAT.md, produced by an
 * independent Python reading of the spec (tools/reference.py): the core must
 * write exactly these bytes, and read them back.
 */
#include "util.h"

#include <string.h>

typedef struct golden_value {
    char kind; /* 'i' int64, 'd' double, 'b' bytes */
    int64_t i;
    double d;
    const char *bytes;
    size_t len;
} golden_value;

typedef struct golden_vector {
    const char *name;
    int layout;
    uint64_t nbits;
    unsigned nhashes;
    uint64_t seed;
    size_t nvalues;
    golden_value values[8];
    const char *hex;
} golden_vector;

static const golden_vector vectors[] = {
#include "golden.h"
};

static uint64_t hash_of(const golden_value *v, uint64_t seed)
{
    switch (v->kind) {
    case 'i':
        return bloom_hash_int64(v->i, seed);
    case 'd':
        return bloom_hash_double(v->d, seed);
    default:
        return bloom_hash_bytes(v->bytes, v->len, seed);
    }
}

static void test_golden_vectors(void)
{
    for (size_t g = 0; g < sizeof vectors / sizeof vectors[0]; g++) {
        const golden_vector *v = &vectors[g];
        bloom_filter f, back;
        uint8_t *buf = new_filter(v->layout, v->nbits, v->nhashes, v->seed, &f);
        for (size_t i = 0; i < v->nvalues; i++)
            bloom_add_hash(&f, hash_of(&v->values[i], v->seed));
        size_t len = bloom_serialized_size(v->nbits);
        char hex[2 * 1024 + 1];
        for (size_t i = 0; i < len; i++)
            snprintf(hex + 2 * i, 3, "%02x", buf[i]);
        CHECK_MSG(strcmp(hex, v->hex) == 0, "%s:\n    got  %s\n    want %s", v->name, hex, v->hex);
        CHECK(bloom_parse(buf, len, &back, NULL) == BLOOM_OK);
        for (size_t i = 0; i < v->nvalues; i++)
            CHECK(bloom_contains_hash(&back, hash_of(&v->values[i], v->seed)));
        free(buf);
    }
}

const test_case golden_tests[] = {
    {"golden: vectors of docs/FORMAT.md", test_golden_vectors},
};
const size_t golden_tests_count = sizeof golden_tests / sizeof golden_tests[0];
