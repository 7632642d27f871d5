/*
 * test_state.c - the builder state codec (core/builder_state.c): Rice-coded
 * sorted hashes, close to the information, exact round trips, 1.0's raw
 * states still read, and every malformed input refused without a crash.
 */
#include "util.h"

#include <math.h>
#include <string.h>

static uint8_t *state_of(bloom_builder *b, size_t *len)
{
    if (bloom_builder_serialized_size(b, len, NULL) != BLOOM_OK)
        abort();
    uint8_t *buf = malloc(*len);
    if (buf == NULL || bloom_builder_serialize(b, buf, *len, NULL) != BLOOM_OK)
        abort();
    return buf;
}

/* A state of the given hashes, round-tripped: same bytes again, same filter. */
static void check_round_trip(const uint64_t *hashes, size_t n, int want_encoding)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b, *back;
    CHECK(bloom_builder_create(&alloc, 0, 0.01, 3, &b, NULL) == BLOOM_OK);
    for (size_t i = 0; i < n; i++)
        CHECK(bloom_builder_add_hash(b, hashes[i], NULL) == BLOOM_OK);
    size_t len, len2;
    uint8_t *state = state_of(b, &len);
    CHECK_MSG(want_encoding < 0 || state[7] == want_encoding, "n=%zu: encoding %u", n, state[7]);
    CHECK(len <= 32 + 8 * n);
    bloom_error err;
    CHECK_MSG(bloom_builder_deserialize(&alloc, state, len, &back, &err) == BLOOM_OK, "n=%zu: %s",
              n, err.message);
    uint8_t *again = state_of(back, &len2);
    CHECK(len2 == len && memcmp(again, state, len) == 0);
    if (n > 0) {
        bloom_filter f, g;
        uint8_t *fb = finish_builder(b, &f), *gb = finish_builder(back, &g);
        CHECK(bloom_equal(&f, &g));
        free(fb);
        free(gb);
    }
    bloom_builder_destroy(back);
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
    free(state);
    free(again);
}

static void test_round_trips(void)
{
    static uint64_t h[200000];
    size_t sizes[] = {0, 1, 2, 3, 4, 5, 8, 100, 16384, 16385, 200000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t i = 0; i < sizes[s]; i++)
            h[i] = key_at(31, i);
        /* raw while the Rice form (one k byte, then the bits) is not smaller */
        check_round_trip(h, sizes[s], sizes[s] == 0 ? 0 : sizes[s] >= 100 ? 1 : -1);
    }
    /* the edges of the hash space, consecutive hashes (gaps of 0), repeats */
    uint64_t edges[] = {0, 1, 2, 3, UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63, 42, 43, 44, 42, 0};
    check_round_trip(edges, sizeof edges / sizeof edges[0], -1);
    /* crowded: every hash within 2^20 of the others */
    for (size_t i = 0; i < 50000; i++)
        h[i] = (UINT64_C(0xabcdef12345) << 20) | ((i * 7919) % 50000);
    check_round_trip(h, 50000, 1);
    /* all in the top: one long first quotient */
    for (size_t i = 0; i < 1000; i++)
        h[i] = UINT64_MAX - i * 3;
    check_round_trip(h, 1000, -1);
}

/* Bytes a state costs per distinct value, against the information. */
static void test_close_to_information(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    uint64_t sizes[] = {1000, 100000, 1000000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint64_t n = sizes[s];
        bloom_builder *b;
        CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &b, NULL) == BLOOM_OK);
        for (uint64_t i = 0; i < n; i++)
            CHECK(bloom_builder_add_hash(b, key_at(32, i), NULL) == BLOOM_OK);
        size_t len;
        CHECK(bloom_builder_serialized_size(b, &len, NULL) == BLOOM_OK);
        /* log2 C(2^64, n) ~ n (64 - log2 n + log2 e) bits */
        double info = (64.0 - log2((double)n) + 1.4427) / 8.0;
        double per = (double)(len - 33) / (double)n;
        printf("     n=%-8llu state %.3f bytes/value (raw 8, information %.3f)\n",
               (unsigned long long)n, per, info);
        CHECK_MSG(per <= info + 0.1, "n=%llu: %.3f bytes a value, information %.3f",
                  (unsigned long long)n, per, info);
        bloom_builder_destroy(b);
    }
    CHECK(heap.live == 0);
}

/* Appends bits, least significant first, for handmade states. */
typedef struct bits {
    uint8_t buf[64];
    size_t n;
} bits;

static void put(bits *w, uint64_t v, unsigned nbits)
{
    for (unsigned i = 0; i < nbits; i++, w->n++)
        if ((v >> i) & 1)
            w->buf[w->n / 8] |= (uint8_t)(1u << (w->n % 8));
}

static size_t handmade(uint8_t *out, uint64_t count, unsigned k, const bits *w)
{
    static const uint8_t header[32] = {'B', 'L', 'M', 'B', 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0x7b, 0x14, 0xae, 0x47, 0xe1, 0x7a, 0x84, 0x3f};
    memcpy(out, header, 32);
    for (int i = 0; i < 8; i++)
        out[24 + i] = (uint8_t)(count >> (8 * i));
    out[32] = (uint8_t)k;
    size_t nbytes = (w->n + 7) / 8;
    memcpy(out + 33, w->buf, nbytes);
    return 33 + nbytes;
}

static void expect_format_error(const uint8_t *state, size_t len, const char *part)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *out = NULL;
    bloom_error err;
    bloom_status st = bloom_builder_deserialize(&alloc, state, len, &out, &err);
    CHECK(st == BLOOM_E_FORMAT);
    if (st == BLOOM_OK)
        bloom_builder_destroy(out);
    else
        CHECK_MSG(strstr(err.message, part) != NULL, "want \"%s\", got: %s", part, err.message);
    CHECK(heap.live == 0);
}

static void test_malformed_rice(void)
{
    uint8_t s[128];
    size_t len;
    bits w;

    /* k = 2, hashes 5, 6: 5 = q 1 r 01; gap 0 = q 0 r 00 */
    memset(&w, 0, sizeof w);
    put(&w, 1, 1), put(&w, 0, 1), put(&w, 1, 2), put(&w, 0, 1), put(&w, 0, 2);
    len = handmade(s, 2, 2, &w);
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b;
    uint64_t distinct;
    CHECK(bloom_builder_deserialize(&alloc, s, len, &b, NULL) == BLOOM_OK);
    CHECK(bloom_builder_distinct(b, &distinct, NULL) == BLOOM_OK && distinct == 2);
    bloom_builder_destroy(b);
    CHECK(heap.live == 0);
}

static void test_malformed_rice_cases(void)
{
    uint8_t s[128];
    size_t len;
    bits w;

    /* more hashes than the length can hold: refused before allocating */
    memset(&w, 0, sizeof w);
    put(&w, 1, 1), put(&w, 0, 1), put(&w, 1, 2), put(&w, 0, 1), put(&w, 0, 2);
    len = handmade(s, 3, 2, &w);
    expect_format_error(s, len, "does not match its count");
    /* the length allows a second hash, the bits end inside it */
    memset(&w, 0, sizeof w);
    put(&w, 7, 3), put(&w, 0, 1), put(&w, 1, 2), put(&w, 0, 1);
    len = handmade(s, 2, 2, &w);
    expect_format_error(s, len, "ends inside a hash");
    /* fewer hashes than the bits: a whole byte left over */
    memset(&w, 0, sizeof w);
    for (int i = 0; i < 4; i++)
        put(&w, 0, 1), put(&w, 1, 2);
    len = handmade(s, 1, 2, &w);
    expect_format_error(s, len, "bits after");
    memset(&w, 0, sizeof w);
    put(&w, 1, 1), put(&w, 0, 1), put(&w, 1, 2), put(&w, 0, 1), put(&w, 0, 2);
    /* a trailing byte */
    len = handmade(s, 2, 2, &w);
    s[len++] = 0;
    expect_format_error(s, len, "bits after");
    /* padding bits set */
    len = handmade(s, 2, 2, &w);
    s[len - 1] |= 0x80;
    expect_format_error(s, len, "bits after");
    /* k above 63 */
    len = handmade(s, 2, 64, &w);
    expect_format_error(s, len, "above 63");
    /* a count no length could hold, refused before any allocation */
    len = handmade(s, UINT64_C(1) << 40, 2, &w);
    expect_format_error(s, len, "does not match its count");
    /* truncated before the Rice parameter */
    len = handmade(s, 0, 0, &w);
    expect_format_error(s, 32, "truncated");
    /* k = 63: the first hash UINT64_MAX (q 1, r all ones), then one more: beyond 64 bits */
    memset(&w, 0, sizeof w);
    put(&w, 1, 1), put(&w, 0, 1), put(&w, UINT64_MAX >> 1, 63), put(&w, 0, 1), put(&w, 0, 63);
    len = handmade(s, 2, 63, &w);
    expect_format_error(s, len, "beyond 64 bits");
    /* k = 63 and a quotient of 2: a gap beyond 64 bits */
    memset(&w, 0, sizeof w);
    put(&w, 3, 2), put(&w, 0, 1), put(&w, 0, 63);
    len = handmade(s, 1, 63, &w);
    expect_format_error(s, len, "gap beyond 64 bits");
    /* a unary run past every bit */
    memset(&w, 0, sizeof w);
    put(&w, UINT64_MAX, 64), put(&w, UINT64_MAX, 64);
    len = handmade(s, 1, 0, &w);
    expect_format_error(s, len, "ends inside a hash");
}

/* Random damage to valid states: every result is OK or a format error,
 * never a crash or a leak (run under ASan); what reads, writes back. */
static void test_fuzzed_states(void)
{
    counting_heap heap = {0, 0, -1};
    bloom_allocator alloc = counting_allocator(&heap);
    bloom_builder *b;
    CHECK(bloom_builder_create(&alloc, 0, 0.01, 0, &b, NULL) == BLOOM_OK);
    for (uint64_t i = 0; i < 300; i++)
        CHECK(bloom_builder_add_hash(b, key_at(33, i), NULL) == BLOOM_OK);
    size_t len;
    uint8_t *valid = state_of(b, &len);
    bloom_builder_destroy(b);
    uint8_t *copy = malloc(len + 16);
    size_t accepted = 0;
    for (uint64_t round = 0; round < 20000; round++) {
        uint64_t r = key_at(34, round);
        memcpy(copy, valid, len);
        size_t clen = len;
        int edits = 1 + (int)(r & 3);
        for (int e = 0; e < edits; e++) {
            uint64_t x = key_at(35, round * 8 + (uint64_t)e);
            size_t at = (size_t)(x % len);
            switch ((x >> 32) % 4) {
            case 0: copy[at] ^= (uint8_t)(1u << ((x >> 40) % 8)); break;
            case 1: copy[at] = (uint8_t)(x >> 48); break;
            case 2: clen = at; break;
            default: if (clen < len + 16) copy[clen++] = (uint8_t)(x >> 40); break;
            }
        }
        bloom_builder *out;
        bloom_error err;
        bloom_status st = bloom_builder_deserialize(&alloc, copy, clen, &out, &err);
        CHECK_MSG(st == BLOOM_OK || st == BLOOM_E_FORMAT, "round %llu: status %d",
                  (unsigned long long)round, (int)st);
        if (st == BLOOM_OK) {
            size_t l2;
            uint8_t *again = state_of(out, &l2);
            bloom_builder *twice;
            CHECK(bloom_builder_deserialize(&alloc, again, l2, &twice, NULL) == BLOOM_OK);
            bloom_builder_destroy(twice);
            free(again);
            bloom_builder_destroy(out);
            accepted++;
        }
    }
    printf("     %zu of 20000 damaged states still valid (bit flips in hash bits)\n", accepted);
    CHECK(heap.live == 0);
    free(copy);
    free(valid);
}

const test_case state_tests[] = {
    {"state: round trips, edges, crowded and skewed sets", test_round_trips},
    {"state: bytes per value close to the information", test_close_to_information},
    {"state: a handmade Rice state reads", test_malformed_rice},
    {"state: malformed Rice states refused", test_malformed_rice_cases},
    {"state: fuzzed states", test_fuzzed_states},
};
const size_t state_tests_count = sizeof state_tests / sizeof state_tests[0];
