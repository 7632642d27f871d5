/*
 * test_golden.c - the published vectors of docs/FORMAT.md, produced by an
 * independent Python reading of the spec (tools/reference.py): the core must
 * write exactly these bytes, and read them back.
 */
#include "util.h"

#include <stdlib.h>
#include <string.h>

typedef struct golden_value {
    char kind; /* 'i' int64, 'd' double, 's' text, 'b' bytes */
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

#include "golden.h"

static const golden_vector vectors[] = {GOLDEN_ARRAYS};

/* bloom_add of the integers 1..count, one at a time, to
 * bloom_empty(capacity, fpr, seed, 'scalable'). */
typedef struct golden_scalable {
    const char *name;
    uint64_t capacity;
    double fpr;
    uint64_t seed;
    int64_t count;
    const char *hex;
} golden_scalable;

static const golden_scalable scalables[] = {GOLDEN_SCALABLE};

/* bloom_union of classic or blocked filters, member i of nbits holding
 * the integers first..last. */
typedef struct golden_union {
    const char *name;
    int layout;
    unsigned nhashes;
    uint64_t seed;
    size_t nmembers;
    struct {
        uint64_t nbits;
        int64_t first, last;
    } members[4];
    const char *hex;
} golden_union;

static const golden_union unions[] = {GOLDEN_UNIONS};

static bool same_hex(const uint8_t *buf, size_t len, const char *want, const char *name)
{
    char *hex = malloc(2 * len + 1);
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", buf[i]);
    bool same = strcmp(hex, want) == 0;
    CHECK_MSG(same, "%s:\n    got  %s\n    want %s", name, hex, want);
    free(hex);
    return same;
}

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

/* The class bloom_add records for the value (header byte 10). */
static unsigned class_of(const golden_value *v)
{
    switch (v->kind) {
    case 'i':
    case 'd':
        return BLOOM_KIND_NUMBER;
    case 's':
        return BLOOM_KIND_TEXT;
    default:
        return BLOOM_KIND_BYTES;
    }
}

static void test_golden_vectors(void)
{
    for (size_t g = 0; g < sizeof vectors / sizeof vectors[0]; g++) {
        const golden_vector *v = &vectors[g];
        bloom_filter f, back;
        uint8_t *buf = new_filter(v->layout, v->nbits, v->nhashes, v->seed, &f);
        for (size_t i = 0; i < v->nvalues; i++) {
            bloom_kinds_record(&f, class_of(&v->values[i]), 0);
            bloom_add_hash(&f, hash_of(&v->values[i], v->seed));
        }
        size_t len = bloom_layout_size(v->layout, v->nbits);
        same_hex(buf, len, v->hex, v->name);
        CHECK(bloom_parse(buf, len, &back, NULL) == BLOOM_OK);
        for (size_t i = 0; i < v->nvalues; i++)
            CHECK(bloom_contains_hash(&back, hash_of(&v->values[i], v->seed)));
        free(buf);
    }
}

static void test_golden_scalable(void)
{
    for (size_t g = 0; g < sizeof scalables / sizeof scalables[0]; g++) {
        const golden_scalable *v = &scalables[g];
        size_t len;
        bloom_error err;
        bloom_filter f, back;
        CHECK(bloom_empty_size(BLOOM_LAYOUT_SCALABLE, (int64_t)v->capacity, v->fpr, 0, &len, &err) ==
              BLOOM_OK);
        void *buf = malloc(len);
        CHECK(bloom_empty_init(buf, len, BLOOM_LAYOUT_SCALABLE, (int64_t)v->capacity, v->fpr, v->seed,
                               &f, &err) == BLOOM_OK);
        for (int64_t i = 1; i <= v->count; i++) {
            uint64_t h = bloom_hash_int64(i, v->seed);
            bloom_kinds_record(&f, BLOOM_KIND_NUMBER, 0);
            CHECK(bloom_insert(&malloc_allocator, 0, &buf, &len, &f, &h, 1, &err) == BLOOM_OK);
        }
        same_hex(buf, len, v->hex, v->name);
        CHECK(bloom_parse(buf, len, &back, NULL) == BLOOM_OK);
        free(buf);
    }
    for (size_t g = 0; g < sizeof unions / sizeof unions[0]; g++) {
        const golden_union *v = &unions[g];
        bloom_filter acc;
        uint8_t *abuf = NULL;
        size_t alen = 0;
        bloom_error err;
        for (size_t m = 0; m < v->nmembers; m++) {
            bloom_filter f;
            uint8_t *buf = new_filter(v->layout, v->members[m].nbits, v->nhashes, v->seed, &f);
            bloom_kinds_record(&f, BLOOM_KIND_NUMBER, 0);
            for (int64_t i = v->members[m].first; i <= v->members[m].last; i++)
                bloom_add_hash(&f, bloom_hash_int64(i, v->seed));
            if (abuf == NULL) {
                abuf = buf, alen = bloom_filter_size(&f), acc = f;
                continue;
            }
            size_t size;
            CHECK(bloom_combine_size(&acc, &f, BLOOM_OP_UNION, &size, NULL, &err) == BLOOM_OK);
            uint8_t *next = malloc(size);
            CHECK(bloom_combine(&acc, &f, BLOOM_OP_UNION, 0, next, size, &acc, &err) == BLOOM_OK);
            free(abuf), free(buf);
            abuf = next, alen = size;
        }
        same_hex(abuf, alen, v->hex, v->name);
        free(abuf);
    }
}

const test_case golden_tests[] = {
    {"golden: vectors of docs/FORMAT.md", test_golden_vectors},
    {"golden: scalable vectors of docs/FORMAT.md", test_golden_scalable},
};
const size_t golden_tests_count = sizeof golden_tests / sizeof golden_tests[0];
