/*
 * test_format.c - the byte format: header fields, lengths, every malformed
 * case rejected with a message that names the field.
 */
#include "util.h"

#include <string.h>

static void test_init_then_parse(void)
{
    bloom_filter f, g;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_CLASSIC, 1000, 7, UINT64_C(0x0123456789abcdef), &f);
    size_t len = bloom_serialized_size(1000);
    CHECK(len == BLOOM_HEADER_SIZE + 128);
    CHECK(memcmp(buf, "BLOM", 4) == 0);
    CHECK(buf[4] == 1 && buf[5] == 0 && buf[6] == 1 && buf[7] == 7);
    /* seed and nbits little-endian, whatever the host */
    CHECK(buf[16] == 0xef && buf[23] == 0x01);
    CHECK(buf[24] == 0xe8 && buf[25] == 0x03 && buf[26] == 0);
    CHECK(bloom_parse(buf, len, &g, NULL) == BLOOM_OK);
    CHECK(g.nbits == 1000 && g.nhashes == 7 && g.seed == UINT64_C(0x0123456789abcdef));
    CHECK(g.layout == BLOOM_LAYOUT_CLASSIC && g.nbytes == 128 && g.bits == buf + 32);
    free(buf);
}

static void test_serialized_size_limits(void)
{
    CHECK(bloom_serialized_size(0) == 0);
    CHECK(bloom_serialized_size(1) == 40);
    CHECK(bloom_serialized_size(64) == 40);
    CHECK(bloom_serialized_size(65) == 48);
    CHECK(bloom_serialized_size(BLOOM_MAX_NBITS) == 32 + BLOOM_MAX_NBITS / 8);
    CHECK(bloom_serialized_size(BLOOM_MAX_NBITS + 1) == 0);
}

static void test_check_params(void)
{
    bloom_error err;
    CHECK(bloom_check_params(0, 1, 1, &err) == BLOOM_OK);
    CHECK(bloom_check_params(0, 100, 32, &err) == BLOOM_OK);
    CHECK(bloom_check_params(0, 100, 0, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "nhashes 0") != NULL);
    CHECK(bloom_check_params(0, 100, 33, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_params(0, 0, 7, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_params(0, BLOOM_MAX_NBITS + 1, 7, &err) == BLOOM_E_LIMIT);
    CHECK(strstr(err.message, "exceeds the maximum") != NULL);
    CHECK(bloom_check_params(1, 512, 8, &err) == BLOOM_OK);
    CHECK(bloom_check_params(1, 500, 8, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "multiple of 256") != NULL);
    CHECK(bloom_check_params(1, 512, 7, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_check_params(9, 512, 8, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "unknown layout 9") != NULL);
    /* counting: counters, a quarter as many as bits */
    CHECK(bloom_check_params(BLOOM_LAYOUT_COUNTING, 100, 7, &err) == BLOOM_OK);
    CHECK(bloom_check_params(BLOOM_LAYOUT_COUNTING, BLOOM_MAX_COUNTERS + 1, 7, &err) == BLOOM_E_LIMIT);
    CHECK(strstr(err.message, "counting") != NULL);
    CHECK(bloom_layout_size(BLOOM_LAYOUT_COUNTING, 100) == 32 + 56);
    CHECK(bloom_layout_size(BLOOM_LAYOUT_SCALABLE, 100) == 0);
    /* scalable: from a capacity and a rate only */
    CHECK(bloom_check_params(BLOOM_LAYOUT_SCALABLE, 1024, 7, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "capacity and a rate") != NULL);
}

static void test_init_rejects_wrong_buffer(void)
{
    uint8_t buf[64];
    bloom_filter f;
    bloom_error err;
    CHECK(bloom_init(buf, sizeof buf, 0, 64, 3, 0, &f, &err) == BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_init(buf, 40, 0, 64, 3, 0, &f, &err) == BLOOM_OK);
}

/* One malformed variant of a valid filter per header field. */
typedef struct corruption {
    const char *what;
    size_t offset; /* byte to overwrite; SIZE_MAX: none */
    uint8_t value;
    long length_delta;
    const char *message_part;
} corruption;

static void test_malformed_headers(void)
{
    static const corruption cases[] = {
        {"magic", 0, 'X', 0, "bad magic"},
        {"magic last byte", 3, 'N', 0, "bad magic"},
        {"version 0", 4, 0, 0, "unsupported format version 0"},
        {"version 2", 4, 2, 0, "unsupported format version 2"},
        {"layout", 5, 9, 0, "unknown layout id 9"},
        {"hash id 0", 6, 0, 0, "unknown hash id 0"},
        {"hash id 2", 6, 2, 0, "unknown hash id 2"},
        {"nhashes 0", 7, 0, 0, "nhashes 0"},
        {"nhashes 33", 7, 33, 0, "nhashes 33"},
        {"flags low", 8, 1, 0, "unknown flags 0x0001"},
        {"flags high", 9, 0x80, 0, "unknown flags 0x8000"},
        {"kinds: unknown bit", 10, 0x10, 0, "byte 10 (value kinds) is 0x10: bits 0x10"},
        {"kinds: high bit", 10, 0x81, 0, "bits 0x80 are no known kind"},
        {"kinds: text alone", 10, 0x02, 0, "byte 10 (value kinds) is 0x02"},
        {"reserved 11", 11, 1, 0, "reserved byte 11"},
        {"oid without typed 12", 12, 1, 0, "bytes 12..15 (type oid) hold 1 without the typed"},
        {"oid without typed 13", 13, 1, 0, "bytes 12..15 (type oid) hold 256 without"},
        {"oid without typed 14", 14, 1, 0, "bytes 12..15 (type oid)"},
        {"oid without typed 15", 15, 0xff, 0, "bytes 12..15 (type oid)"},
        {"nbits grows", 25, 0x04, 0, "does not match nbits"},
        {"nbits shrinks", 25, 0x02, 0, "does not match nbits"},
        {"nbits huge", 31, 0x80, 0, "exceeds the maximum"},
        {"truncated by one", SIZE_MAX, 0, -1, "truncated"},
        {"truncated bit array", SIZE_MAX, 0, -64, "truncated"},
        {"trailing byte", SIZE_MAX, 0, 1, "trailing bytes"},
        {"trailing word", SIZE_MAX, 0, 8, "trailing bytes"},
        {"header only", SIZE_MAX, 0, -128, "truncated"},
        {"short header", SIZE_MAX, 0, -140, "truncated header"},
        {"empty", SIZE_MAX, 0, -160, "truncated header"},
    };
    /* nbits 1000 = 0x03e8: byte 24 = 0xe8, byte 25 = 0x03 */
    bloom_filter f;
    uint8_t *valid = new_filter(BLOOM_LAYOUT_CLASSIC, 1000, 7, 42, &f);
    size_t len = bloom_serialized_size(1000);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const corruption *c = &cases[i];
        uint8_t copy[256];
        memcpy(copy, valid, len);
        size_t n = (size_t)((long)len + c->length_delta);
        if (c->length_delta > 0)
            memset(copy + len, 0, (size_t)c->length_delta);
        if (c->offset != SIZE_MAX)
            copy[c->offset] = c->value;
        bloom_error err;
        bloom_filter g;
        bloom_status st = bloom_parse(copy, n, &g, &err);
        CHECK_MSG(st == BLOOM_E_FORMAT, "%s: status %d", c->what, st);
        CHECK_MSG(strstr(err.message, c->message_part) != NULL, "%s: message '%s'", c->what,
                  err.message);
    }
    CHECK(bloom_parse(NULL, 0, &f, NULL) == BLOOM_E_FORMAT);
    uint8_t zero[40];
    memcpy(zero, valid, 40);
    memset(zero + 24, 0, 8);
    bloom_error err;
    CHECK(bloom_parse(zero, 40, &f, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "nbits must be at least 1") != NULL);
    free(valid);
}

static void test_blocked_header_rules(void)
{
    bloom_filter f;
    uint8_t *valid = new_filter(BLOOM_LAYOUT_BLOCKED, 512, 8, 0, &f);
    size_t len = bloom_serialized_size(512);
    bloom_error err;
    CHECK(bloom_parse(valid, len, &f, &err) == BLOOM_OK);
    valid[7] = 7;
    CHECK(bloom_parse(valid, len, &f, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "must be 8") != NULL);
    valid[7] = 8;
    /* 448 bits: same byte length class as 512 is not; use 320 with 48 bytes */
    free(valid);
    uint8_t buf[32 + 40];
    uint8_t *v = new_filter(BLOOM_LAYOUT_CLASSIC, 320, 8, 0, &f);
    memcpy(buf, v, sizeof buf);
    free(v);
    buf[5] = BLOOM_LAYOUT_BLOCKED;
    CHECK(bloom_parse(buf, sizeof buf, &f, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "not a multiple of 256") != NULL);
}

static void test_padding_bits(void)
{
    bloom_filter f, g;
    uint8_t *buf = new_filter(BLOOM_LAYOUT_CLASSIC, 70, 3, 0, &f); /* 128 bits stored */
    size_t len = bloom_serialized_size(70);
    bloom_error err;
    buf[32 + 8] |= 0x20; /* bit 69: last valid one */
    CHECK(bloom_parse(buf, len, &g, &err) == BLOOM_OK);
    buf[32 + 8] |= 0x40; /* bit 70: first padding bit */
    CHECK(bloom_parse(buf, len, &g, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "padding bit 70") != NULL);
    buf[32 + 8] &= (uint8_t)~0x40;
    buf[32 + 15] = 0x80; /* bit 127 */
    CHECK(bloom_parse(buf, len, &g, &err) == BLOOM_E_FORMAT);
    CHECK(strstr(err.message, "padding bit 127") != NULL);
    /* parse_header trusts the bits (for re-reading validated bytes) */
    CHECK(bloom_parse_header(buf, len, &g, &err) == BLOOM_OK);
    free(buf);
}

static void test_random_bytes_never_crash(void)
{
    /* Random buffers, and a valid header followed by random lengths. */
    uint8_t buf[512];
    int accepted = 0;
    for (uint64_t round = 0; round < 20000; round++) {
        size_t len = (size_t)(key_at(7, round) % sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)key_at(round, i);
        if (round % 2 == 0) {
            /* a plausible header, an exact or off-by-one length */
            uint64_t nbits = 1 + key_at(3, round) % 2047;
            memcpy(buf, "BLOM\x01\x00\x01\x07\0\0\0\0\0\0\0\0", 16);
            memset(buf + 24, 0, 8);
            buf[24] = (uint8_t)nbits;
            buf[25] = (uint8_t)(nbits >> 8);
            len = 32 + (size_t)(nbits + 63) / 64 * 8 + (round % 8 == 0) - (round % 8 == 2);
        }
        bloom_filter f;
        bloom_error err;
        if (bloom_parse(buf, len, &f, &err) == BLOOM_OK) {
            accepted++;
            CHECK(bloom_serialized_size(f.nbits) == len);
            (void)bloom_contains_hash(&f, key_at(1, round));
        } else {
            CHECK(err.status == BLOOM_E_FORMAT && err.message[0] != '\0');
        }
    }
    CHECK(accepted > 0); /* the generator does reach valid filters */
}

static void test_layout_names(void)
{
    CHECK(strcmp(bloom_layout_name(0), "classic") == 0);
    CHECK(strcmp(bloom_layout_name(1), "blocked") == 0);
    CHECK(strcmp(bloom_layout_name(2), "counting") == 0);
    CHECK(strcmp(bloom_layout_name(3), "scalable") == 0);
    CHECK(bloom_layout_name(4) == NULL);
    CHECK(bloom_layout_from_name("Counting", 8) == 2);
    CHECK(bloom_layout_from_name("scalable", 8) == 3);
    CHECK(bloom_layout_from_name("classic", 7) == 0);
    CHECK(bloom_layout_from_name("BLOCKED", 7) == 1);
    CHECK(bloom_layout_from_name("block", 5) == -1);
    CHECK(bloom_layout_from_name("blockedx", 8) == -1);
    CHECK(bloom_layout_from_name("", 0) == -1);
    CHECK(strcmp(bloom_status_name(BLOOM_E_MISMATCH), "incompatible bloom filters") == 0);
}

const test_case format_tests[] = {
    {"format: init then parse", test_init_then_parse},
    {"format: serialized size limits", test_serialized_size_limits},
    {"format: parameter checks", test_check_params},
    {"format: init rejects a wrong buffer length", test_init_rejects_wrong_buffer},
    {"format: every malformed header field", test_malformed_headers},
    {"format: blocked header rules", test_blocked_header_rules},
    {"format: padding bits must be zero", test_padding_bits},
    {"format: random bytes never crash", test_random_bytes_never_crash},
    {"format: layout names", test_layout_names},
};
const size_t format_tests_count = sizeof format_tests / sizeof format_tests[0];
