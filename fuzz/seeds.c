/*
 * seeds.c - writes the seed corpora in fuzz/corpus/ (`make fuzz-seeds`):
 * small valid inputs of every kind each target reads, from the core's own
 * writers, so the fuzzers start inside the formats instead of at their
 * magic numbers.  Deterministic: the same files on every run.
 */
#include "fuzz.h"

#include <errno.h>
#include <sys/stat.h>

static const char *dir;

static void put(const char *target, const char *name, const void *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL && fwrite(data, 1, size, f) == size && fclose(f) == 0);
}

/* A filter of `values` small integers, malloc'd. */
static uint8_t *filter(int layout, uint64_t nbits, unsigned k, uint64_t seed, int values,
                       size_t *size)
{
    bloom_filter f;
    bloom_error err;
    *size = bloom_layout_size(layout, nbits);
    uint8_t *buf = malloc(*size);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(bloom_init(buf, *size, layout, nbits, k, seed, &f, &err) == BLOOM_OK);
    for (int i = 1; i <= values; i++)
        bloom_add_hash(&f, bloom_hash_int64(i, seed));
    return buf;
}

/* A builder state of `values` hashes, serialized (Rice-coded), malloc'd. */
static uint8_t *state(int layout, double fpr, uint64_t seed, int values, size_t *size)
{
    fuzz_heap heap = {0};
    bloom_allocator alloc = fuzz_allocator(&heap);
    bloom_builder *b;
    bloom_error err;
    FUZZ_CHECK(bloom_builder_create(&alloc, layout, fpr, seed, &b, &err) == BLOOM_OK);
    for (int i = 1; i <= values; i++)
        FUZZ_CHECK(bloom_builder_add_hash(b, bloom_hash_int64(i, seed), &err) == BLOOM_OK);
    FUZZ_CHECK(bloom_builder_serialized_size(b, size, &err) == BLOOM_OK);
    uint8_t *buf = malloc(*size);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(bloom_builder_serialize(b, buf, *size, &err) == BLOOM_OK);
    bloom_builder_destroy(b);
    return buf;
}

/* 1.0's raw encoding of the same header: encoding byte 0, then 8-byte
 * little-endian hashes in any order, repeats allowed. */
static void raw_state(const char *name, int layout, double fpr, uint64_t seed,
                      const uint64_t *hashes, size_t n)
{
    size_t size;
    uint8_t *header = state(layout, fpr, seed, 0, &size);
    uint8_t *buf = malloc(32 + 8 * n);
    FUZZ_CHECK(buf != NULL);
    memcpy(buf, header, 32);
    buf[7] = 0;
    for (int i = 0; i < 8; i++)
        buf[24 + i] = (uint8_t)((uint64_t)n >> (8 * i));
    for (size_t j = 0; j < n; j++)
        for (int i = 0; i < 8; i++)
            buf[32 + 8 * j + i] = (uint8_t)(hashes[j] >> (8 * i));
    put("builder_state", name, buf, 32 + 8 * n);
    free(buf);
    free(header);
}

/* An SQLite target input: statement, split, then the two arguments. */
static void sql(const char *name, unsigned statement, const void *a, size_t alen, const void *b,
                size_t blen)
{
    uint8_t *buf = malloc(2 + alen + blen);
    FUZZ_CHECK(buf != NULL && alen < 256);
    buf[0] = (uint8_t)statement;
    buf[1] = (uint8_t)alen; /* split = byte % (rest + 1) = alen */
    memcpy(buf + 2, a, alen);
    memcpy(buf + 2 + alen, b, blen);
    put("sqlite_sql", name, buf, 2 + alen + blen);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS-DIR\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    static const struct {
        const char *name;
        int layout;
        uint64_t nbits;
        unsigned k;
        uint64_t seed;
        int values;
    } filters[] = {
        {"classic-64-empty", BLOOM_LAYOUT_CLASSIC, 64, 3, 0, 0},
        {"classic-100-seed42", BLOOM_LAYOUT_CLASSIC, 100, 5, 42, 5},
        {"classic-130-k1", BLOOM_LAYOUT_CLASSIC, 130, 1, 0, 9},
        {"classic-1000-k7", BLOOM_LAYOUT_CLASSIC, 1000, 7, 0, 60},
        {"classic-2048-k32", BLOOM_LAYOUT_CLASSIC, 2048, 32, UINT64_MAX, 20},
        {"blocked-256-empty", BLOOM_LAYOUT_BLOCKED, 256, 8, 0, 0},
        {"blocked-512", BLOOM_LAYOUT_BLOCKED, 512, 8, 0, 4},
        {"blocked-1024-seed9", BLOOM_LAYOUT_BLOCKED, 1024, 8, 9, 40},
        {"counting-100", BLOOM_LAYOUT_COUNTING, 100, 4, 0, 12},
        {"counting-64-saturated", BLOOM_LAYOUT_COUNTING, 64, 3, 2, 40},
    };
    size_t size;
    /* scalable: grown to three stages, and a union of two size classes */
    {
        fuzz_heap heap = {0};
        bloom_allocator alloc = fuzz_allocator(&heap);
        bloom_error err;
        bloom_filter f, g, u;
        size_t len;
        FUZZ_CHECK(bloom_empty_size(BLOOM_LAYOUT_SCALABLE, 2, 0.01, 0, &len, &err) == BLOOM_OK);
        void *buf = fuzz_alloc(&heap, len);
        FUZZ_CHECK(bloom_empty_init(buf, len, BLOOM_LAYOUT_SCALABLE, 2, 0.01, 0, &f, &err) == BLOOM_OK);
        for (int i = 1; i <= 10; i++) {
            uint64_t h = bloom_hash_int64(i, 0);
            FUZZ_CHECK(bloom_insert(&alloc, 0, &buf, &len, &f, &h, 1, &err) == BLOOM_OK);
        }
        put("filter_parse", "scalable-3-stages", buf, len);
        size_t sa, sb, su;
        uint8_t *a = filter(BLOOM_LAYOUT_CLASSIC, 64, 3, 0, 2, &sa);
        uint8_t *b = filter(BLOOM_LAYOUT_CLASSIC, 256, 3, 0, 20, &sb);
        FUZZ_CHECK(bloom_parse(a, sa, &g, &err) == BLOOM_OK && bloom_parse(b, sb, &u, &err) == BLOOM_OK);
        FUZZ_CHECK(bloom_combine_size(&g, &u, BLOOM_OP_UNION, &su, NULL, &err) == BLOOM_OK);
        uint8_t *c = malloc(su);
        FUZZ_CHECK(c != NULL && bloom_combine(&g, &u, BLOOM_OP_UNION, 0, c, su, &u, &err) == BLOOM_OK);
        put("filter_parse", "scalable-union-64-256", c, su);
        fuzz_release(&heap, buf);
        free(a), free(b), free(c);
    }
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++) {
        uint8_t *f = filter(filters[i].layout, filters[i].nbits, filters[i].k, filters[i].seed,
                            filters[i].values, &size);
        put("filter_parse", filters[i].name, f, size);
        if (filters[i].layout == BLOOM_LAYOUT_BLOCKED && filters[i].seed == 0)
            put("parquet", filters[i].name, f + BLOOM_HEADER_SIZE, size - BLOOM_HEADER_SIZE);
        free(f);
    }
    put("parquet", "short-33", "0123456789abcdef0123456789abcdef0", 33);

    static const struct {
        const char *name;
        int layout;
        double fpr;
        uint64_t seed;
        int values;
    } states[] = {
        {"rice-empty", BLOOM_LAYOUT_CLASSIC, 0.01, 0, 0},
        {"rice-1", BLOOM_LAYOUT_CLASSIC, 0.01, 0, 1},
        {"rice-3-seed7", BLOOM_LAYOUT_CLASSIC, 0.001, 7, 3},
        {"rice-200", BLOOM_LAYOUT_CLASSIC, 0.01, 0, 200},
        {"rice-blocked-50", BLOOM_LAYOUT_BLOCKED, 0.05, 3, 50},
        {"rice-fpr-tiny", BLOOM_LAYOUT_CLASSIC, 1e-9, 0, 10},
    };
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        uint8_t *s = state(states[i].layout, states[i].fpr, states[i].seed, states[i].values,
                           &size);
        put("builder_state", states[i].name, s, size);
        free(s);
    }
    const uint64_t raw[] = {5, 0, UINT64_MAX, 5, UINT64_C(0x8000000000000000), 17};
    raw_state("raw-6-repeats", BLOOM_LAYOUT_CLASSIC, 0.01, 0, raw, 6);
    raw_state("raw-empty-blocked", BLOOM_LAYOUT_BLOCKED, 0.1, 1, raw, 0);

    /* SQLite: statements as listed in sqlite_sql.c */
    uint8_t *small = filter(BLOOM_LAYOUT_CLASSIC, 128, 3, 0, 3, &size);
    size_t blocked_size;
    uint8_t *blocked = filter(BLOOM_LAYOUT_BLOCKED, 512, 8, 0, 4, &blocked_size);
    static const char json[] = "[1, 2.5, \"x\", true, null, -7, 1e300]";
    for (unsigned s = 0; s < 9; s++) {
        char name[32];
        snprintf(name, sizeof name, "stmt%u-classic", s);
        sql(name, s, small, size, small, size);
        snprintf(name, sizeof name, "stmt%u-blocked", s);
        sql(name, s, blocked, blocked_size, blocked, blocked_size);
    }
    sql("stmt9-json", 9, json, sizeof json - 1, "", 0);
    sql("stmt9-nested", 9, "[[1], {\"a\": 2}]", 15, "", 0);
    sql("stmt10-json", 10, json, sizeof json - 1, "", 0);
    sql("stmt10-empty", 10, "[]", 2, "", 0);
    sql("stmt11-json", 11, json, sizeof json - 1, small, size);
    sql("stmt12-parquet", 12, blocked + BLOOM_HEADER_SIZE, blocked_size - BLOOM_HEADER_SIZE, "",
        0);
    sql("stmt13-to-parquet", 13, blocked, blocked_size, "", 0);
    sql("stmt14-ref", 14, small, size, "x", 1);
    sql("stmt15-agg", 15, "\x01\x02", 2, "value", 5);
    size_t counting_size, scalable_size;
    uint8_t *counting = filter(BLOOM_LAYOUT_COUNTING, 128, 3, 0, 3, &counting_size);
    sql("stmt16-counting", 16, counting, counting_size, "\x01", 1);
    {
        bloom_filter f;
        bloom_error err;
        FUZZ_CHECK(bloom_empty_size(BLOOM_LAYOUT_SCALABLE, 2, 0.05, 0, &scalable_size, &err) == BLOOM_OK);
        uint8_t *scal = malloc(scalable_size);
        FUZZ_CHECK(scal != NULL && bloom_empty_init(scal, scalable_size, BLOOM_LAYOUT_SCALABLE, 2, 0.05,
                                                    0, &f, &err) == BLOOM_OK);
        sql("stmt17-scalable", 17, scal, scalable_size, "", 0);
        free(scal);
    }
    free(counting);

    /* SQLite bloom_bitslice (sqlite_bitslice.c): even first byte, filters
     * each after its length in 8-byte units; odd, a shadow-table column and
     * bytes to write there */
    size_t large_size;
    uint8_t *large = filter(BLOOM_LAYOUT_CLASSIC, 4096, 7, 5, 100, &large_size);
    uint8_t in[4096 + 1024];
    size_t n = 0;
    in[n++] = 0;
    in[n++] = (uint8_t)(size / 8);
    memcpy(in + n, small, size);
    n += size;
    in[n++] = (uint8_t)(blocked_size / 8);
    memcpy(in + n, blocked, blocked_size);
    n += blocked_size;
    put("sqlite_bitslice", "filters-small-blocked", in, n);
    in[0] = 2;
    in[1] = (uint8_t)((large_size / 8) & 0xff); /* folded to 512 bits: 600 bytes kept */
    memcpy(in + 2, large, 600);
    put("sqlite_bitslice", "filters-large", in, 602);
    for (unsigned t = 0; t < 12; t++) {
        char name[32];
        uint8_t damage[2 + 16] = {1, (uint8_t)t};
        memcpy(damage + 2, small, 16);
        snprintf(name, sizeof name, "damage-%u", t);
        put("sqlite_bitslice", name, damage, sizeof damage);
    }
    free(large);
    free(small);
    free(blocked);
    return 0;
}
