/*
 * test_slices.c - what a bit-sliced index takes from the core (slices.c):
 * the transposition of rows into slices and back, the bit positions of a
 * probe, the geometry a filter is indexed under (folded or set aside), and
 * an index simulated in memory answering as the filters do.
 */
#include "util.h"

#include <string.h>

static uint64_t next_random(uint64_t *state)
{
    *state += UINT64_C(0x9e3779b97f4a7c15);
    return key_at(7, *state);
}

static int row_bit(const uint8_t *row, uint64_t p)
{
    return row[p >> 3] >> (p & 7) & 1;
}

static void test_transpose_is_the_naive_one(void)
{
    uint64_t state = 1;
    for (unsigned nrows = 0; nrows <= 64; nrows += (nrows < 3 ? 1 : 13)) {
        uint64_t nbytes = 8 * (1 + nrows % 5);
        uint8_t *rows[64];
        for (unsigned j = 0; j < 64; j++) {
            rows[j] = malloc(nbytes);
            for (uint64_t b = 0; b < nbytes; b++)
                rows[j][b] = (uint8_t)(next_random(&state) & (j % 3 ? 0xff : 0x11));
        }
        uint64_t *cols = malloc(8 * nbytes * sizeof *cols);
        bloom_slices_from_rows((const uint8_t *const *)rows, nrows, nbytes, cols);
        int wrong = 0;
        for (uint64_t p = 0; p < 8 * nbytes; p++)
            for (unsigned j = 0; j < 64; j++) {
                int want = j < nrows ? row_bit(rows[j], p) : 0;
                wrong += (int)(cols[p] >> j & 1) != want;
            }
        CHECK_MSG(wrong == 0, "%d bits wrong at %u rows", wrong, nrows);
        /* and back */
        uint8_t *back[64];
        for (unsigned j = 0; j < 64; j++)
            back[j] = calloc(1, nbytes);
        bloom_slices_to_rows(cols, nbytes, back, nrows);
        for (unsigned j = 0; j < nrows; j++)
            CHECK(memcmp(back[j], rows[j], nbytes) == 0);
        for (unsigned j = 0; j < 64; j++) {
            free(rows[j]);
            free(back[j]);
        }
        free(cols);
    }
}

static const struct {
    int layout;
    uint64_t nbits;
    unsigned k;
} shapes[] = {{BLOOM_LAYOUT_CLASSIC, 1, 1},     {BLOOM_LAYOUT_CLASSIC, 61, 3},
              {BLOOM_LAYOUT_CLASSIC, 9585, 7},  {BLOOM_LAYOUT_CLASSIC, 1 << 16, 32},
              {BLOOM_LAYOUT_BLOCKED, 256, 8},   {BLOOM_LAYOUT_BLOCKED, 256 * 37, 8},
              {BLOOM_LAYOUT_BLOCKED, 1 << 16, 8}};

static void test_probe_bits_are_the_probe(void)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        bloom_filter f;
        uint8_t *buf = new_filter(shapes[s].layout, shapes[s].nbits, shapes[s].k, 99, &f);
        for (uint64_t i = 0; i < shapes[s].nbits / 20 + 1; i++)
            bloom_add_hash(&f, key_at(40, i));
        bloom_geometry g = {f.layout, f.nhashes, f.seed, f.nbits};
        int wrong = 0;
        for (uint64_t i = 0; i < 3000; i++) {
            uint64_t h = key_at(i % 3 ? 41 : 40, i), bits[BLOOM_MAX_NHASHES];
            unsigned n = bloom_probe_bits(&g, h, bits);
            int all = 1;
            CHECK(n == (f.layout == BLOOM_LAYOUT_BLOCKED ? 8u : f.nhashes));
            for (unsigned r = 0; r < n; r++) {
                CHECK(bits[r] < f.nbits);
                all &= row_bit(f.bits, bits[r]);
            }
            wrong += all != (int)bloom_contains_hash(&f, h);
        }
        CHECK_MSG(wrong == 0, "shape %zu: %d probes differ", s, wrong);
        free(buf);
    }
}

static void test_fold_target(void)
{
    /* its own size when small enough */
    CHECK(bloom_fold_target(BLOOM_LAYOUT_CLASSIC, 1000, 4096) == 1000);
    /* size classes: the largest power of two */
    CHECK(bloom_fold_target(BLOOM_LAYOUT_CLASSIC, 1 << 20, 32768) == 32768);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_CLASSIC, 1 << 20, 40000) == 32768);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_BLOCKED, 1 << 20, 32768) == 32768);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_BLOCKED, 1 << 20, 1000) == 512);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_BLOCKED, 1 << 20, 255) == 0);
    /* other sizes: the largest divisor */
    CHECK(bloom_fold_target(BLOOM_LAYOUT_CLASSIC, 60480, 1000) == 960);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_CLASSIC, 100003, 4096) == 1); /* a prime */
    CHECK(bloom_fold_target(BLOOM_LAYOUT_BLOCKED, 256 * 37, 4096) == 256);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_BLOCKED, 256 * 3 * 7, 2000) == 256 * 7);
    CHECK(bloom_fold_target(BLOOM_LAYOUT_CLASSIC, UINT64_C(4286578688), 32768) == 32768);
}

static void test_signature(void)
{
    /* small enough: the filter itself */
    bloom_filter f, folded;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_CLASSIC, 4096, 7, 3, &f);
    for (uint64_t i = 0; i < 300; i++)
        bloom_add_hash(&f, key_at(50, i));
    uint8_t bits[1 << 13];
    bloom_geometry g;
    CHECK(bloom_signature(&f, 32768, 0, &g, bits));
    CHECK(g.nbits == 4096 && g.nhashes == 7 && g.seed == 3 && g.layout == BLOOM_LAYOUT_CLASSIC);
    CHECK(memcmp(bits, f.bits, f.nbytes) == 0);
    /* folded: bloom_fold's bits */
    CHECK(bloom_signature(&f, 2048, 0, &g, bits));
    CHECK(g.nbits == 2048);
    size_t len = bloom_serialized_size(2048);
    uint8_t *fb = malloc(len);
    CHECK(bloom_fold(&f, 2048, fb, len, &folded, NULL) == BLOOM_OK);
    CHECK(memcmp(bits, folded.bits, folded.nbytes) == 0);
    /* folded until saturated: set aside */
    CHECK(!bloom_signature(&f, 256, 0, &g, bits));
    /* saturated at its own size: indexed as it is */
    memset(f.bits, 0xff, f.nbytes);
    CHECK(bloom_signature(&f, 32768, 0, &g, bits) && g.nbits == 4096);
    free(fb);
    free(buf);
    /* an odd size with no divisor under the limit */
    buf = new_filter(BLOOM_LAYOUT_CLASSIC, 100003, 3, 0, &f);
    CHECK(bloom_signature(&f, 4096, 0, &g, bits) && g.nbits == 1); /* empty: one bit, clear */
    bloom_add_hash(&f, 1);
    CHECK(!bloom_signature(&f, 4096, 0, &g, bits)); /* one bit, set: saturated */
    free(buf);
    bloom_geometry bad = {BLOOM_LAYOUT_BLOCKED, 7, 0, 256};
    CHECK(bloom_check_geometry(&bad, NULL) == BLOOM_E_INVALID_ARGUMENT);
    bloom_geometry good = {BLOOM_LAYOUT_BLOCKED, 8, 0, 256};
    CHECK(bloom_check_geometry(&good, NULL) == BLOOM_OK);
}

/*
 * What the index does not know it does not index: a filter whose layout is
 * not classic or blocked (2 and 3 are what a later release calls counting
 * and scalable; 255 anything), whose hash id or version is another, is
 * refused by bloom_signature with nothing written, at every size and limit,
 * so the hosts keep it aside; a stored geometry of such a layout is refused
 * as damaged, and no probe positions are named for it.
 */
static void test_unknown_is_not_sliced(void)
{
    bloom_filter f;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_CLASSIC, 4096, 7, 3, &f);
    for (uint64_t i = 0; i < 100; i++)
        bloom_add_hash(&f, key_at(51, i));
    uint8_t bits[1 << 13];
    bloom_geometry g = {0};
    CHECK(bloom_sliceable(&f));
    static const uint8_t layouts[] = {2, 3, 4, 255};
    for (unsigned i = 0; i < sizeof layouts; i++) {
        bloom_filter other = f;
        other.layout = layouts[i];
        CHECK(!bloom_sliceable(&other));
        for (uint64_t max = 256; max <= 32768; max *= 8) {
            memset(bits, 0xa5, sizeof bits);
            CHECK_MSG(!bloom_signature(&other, max, 0, &g, bits), "layout %u indexed", layouts[i]);
            CHECK(!bloom_signature(&other, max, 256, &g, bits));
            CHECK(bits[0] == 0xa5 && bits[sizeof bits - 1] == 0xa5);
        }
        CHECK(bloom_fold_target(layouts[i], 4096, 32768) == 0);
        CHECK(bloom_fold_target(layouts[i], 1 << 20, 32768) == 0);
        bloom_geometry stored = {layouts[i], 7, 3, 4096};
        CHECK(bloom_check_geometry(&stored, NULL) == BLOOM_E_INVALID_ARGUMENT);
        uint64_t pos[BLOOM_MAX_NHASHES];
        CHECK(bloom_probe_bits(&stored, 42, pos) == 0);
    }
    bloom_filter other = f;
    other.hash_id = BLOOM_HASH_XXH64_CANONICAL + 1;
    CHECK(!bloom_signature(&other, 32768, 0, &g, bits));
    other = f;
    other.version = BLOOM_FORMAT_VERSION + 1;
    CHECK(!bloom_signature(&other, 32768, 0, &g, bits));
    other = f;
    other.nbytes = f.nbytes / 2; /* an array of another shape than nbits bits */
    CHECK(!bloom_signature(&other, 32768, 0, &g, bits));
    /* and the filter itself still is */
    CHECK(bloom_signature(&f, 32768, 0, &g, bits) && g.nbits == 4096);
    free(buf);
}

/*
 * An index in memory: filters of mixed sizes (one above the limit, folded),
 * slices per 64 rows, probes by ANDing the probe's slices.  The rows found
 * are exactly those whose indexed filter answers true, a superset of those
 * whose own filter does, and those whenever the filter was not folded.
 */
static void test_index_in_memory(void)
{
    enum { N = 64 * 3 + 5, MAX = 8192 };
    bloom_filter f[N];
    uint8_t *buf[N], *sig[N];
    bloom_geometry g[N];
    int folded = 0;
    for (unsigned r = 0; r < N; r++) {
        uint64_t nbits = r % 5 == 4 ? 16384 : 4096; /* one size class above MAX */
        buf[r] = new_filter(BLOOM_LAYOUT_CLASSIC, nbits, 7, 0, &f[r]);
        for (uint64_t i = 0; i < 40 + r; i++)
            bloom_add_hash(&f[r], key_at(60, r * 7 + i));
        sig[r] = malloc(MAX / 8);
        CHECK(bloom_signature(&f[r], MAX, 0, &g[r], sig[r]));
        folded += g[r].nbits != nbits;
    }
    CHECK(folded > 0);
    /* one group per geometry: rows of 4096 and of 8192 bits */
    for (uint64_t size = 4096; size <= MAX; size *= 2) {
        unsigned ids[N], n = 0;
        for (unsigned r = 0; r < N; r++)
            if (g[r].nbits == size)
                ids[n++] = r;
        unsigned nwords = (n + 63) / 64;
        uint64_t *slices = calloc(size * nwords, sizeof *slices); /* slice p: nwords words */
        uint64_t *cols = malloc(size * sizeof *cols);
        for (unsigned w = 0; w < nwords; w++) {
            const uint8_t *rows[64];
            unsigned m = n - 64 * w < 64 ? n - 64 * w : 64;
            for (unsigned j = 0; j < m; j++)
                rows[j] = sig[ids[64 * w + j]];
            bloom_slices_from_rows(rows, m, size / 8, cols);
            for (uint64_t p = 0; p < size; p++)
                slices[p * nwords + w] = cols[p];
        }
        bloom_geometry geo = g[ids[0]];
        int wrong = 0, missed = 0, extra = 0;
        for (uint64_t i = 0; i < 2000; i++) {
            uint64_t h = i % 2 ? key_at(60, i) : key_at(61, i), bits[BLOOM_MAX_NHASHES];
            unsigned k = bloom_probe_bits(&geo, h, bits);
            for (unsigned w = 0; w < nwords; w++) {
                uint64_t acc = ~UINT64_C(0);
                for (unsigned b = 0; b < k; b++)
                    acc &= slices[bits[b] * nwords + w];
                for (unsigned j = 0; j < 64 && 64 * w + j < n; j++) {
                    unsigned r = ids[64 * w + j];
                    bool found = acc >> j & 1, own = bloom_contains_hash(&f[r], h);
                    bloom_filter view = f[r];
                    view.nbits = size;
                    view.nbytes = size / 8;
                    view.bits = sig[r];
                    wrong += found != bloom_contains_hash(&view, h);
                    missed += own && !found;
                    extra += !own && found;
                }
            }
        }
        CHECK_MSG(wrong == 0 && missed == 0, "size %llu: %d wrong, %d missed",
                  (unsigned long long)size, wrong, missed);
        CHECK(size == MAX || extra == 0); /* not folded: the very answers */
        free(slices);
        free(cols);
    }
    for (unsigned r = 0; r < N; r++) {
        free(buf[r]);
        free(sig[r]);
    }
}

const test_case slices_tests[] = {
    {"slices: 64 x 64 transposition is the naive one, and its own inverse",
     test_transpose_is_the_naive_one},
    {"slices: a probe's bit positions are the bits bloom_contains_hash tests",
     test_probe_bits_are_the_probe},
    {"slices: fold targets are the largest divisor within the limit", test_fold_target},
    {"slices: the indexed bit array is the filter, folded, or nothing when saturated",
     test_signature},
    {"slices: a layout, hash or version it does not know is never sliced (kept aside)",
     test_unknown_is_not_sliced},
    {"slices: an index in memory finds every member, as the filters answer", test_index_in_memory},
};
const size_t slices_tests_count = sizeof slices_tests / sizeof slices_tests[0];
