/*
 * test_slice_blocks.c - blocks of slices as the hosts store them
 * (core/slices.c): the stream's pages, where a slice's word is, the size
 * of a new block, a batch of rows merged into the pages and read back,
 * each against a naive model that sets one bit at a time, and a golden
 * digest of a fixed block: the layout both hosts' stored indexes have.
 */
#include "util.h"

#include <string.h>

static uint64_t stream_word(const uint8_t *stream, uint64_t q, bloom_slices_order order)
{
    uint64_t v = 0;
    if (order == BLOOM_SLICES_HOST_ORDER) {
        memcpy(&v, stream + 8 * q, 8);
        return v;
    }
    for (int i = 7; i >= 0; i--)
        v = v << 8 | stream[8 * q + (uint64_t)i];
    return v;
}

/* Bit of slot s in slice p of a block's stream, read the naive way. */
static int stream_bit(const uint8_t *stream, uint32_t cap, uint64_t p, uint32_t s,
                      bloom_slices_order order)
{
    return (int)(stream_word(stream, p * (cap / 64) + s / 64, order) >> (s % 64) & 1);
}

static void set_stream_bit(uint8_t *stream, uint32_t cap, uint64_t p, uint32_t s, int bit,
                           bloom_slices_order order)
{
    uint64_t q = p * (cap / 64) + s / 64, v = stream_word(stream, q, order);
    v = bit ? v | UINT64_C(1) << (s % 64) : v & ~(UINT64_C(1) << (s % 64));
    if (order == BLOOM_SLICES_HOST_ORDER) {
        memcpy(stream + 8 * q, &v, 8);
        return;
    }
    for (int i = 0; i < 8; i++)
        stream[8 * q + (uint64_t)i] = (uint8_t)(v >> (8 * i));
}

static void test_stream_pages(void)
{
    static const uint32_t caps[] = {64, 128, 640, 1024};
    static const uint64_t nbits[] = {1, 61, 64, 65, 1000, 32768, 1 << 20};
    static const uint32_t page_bytes[] = {8, 24, 512, 3984, 8152};
    for (size_t c = 0; c < 4; c++)
        for (size_t b = 0; b < 7; b++)
            for (size_t g = 0; g < 5; g++) {
                uint32_t cap = caps[c], pb = page_bytes[g];
                uint64_t bytes = nbits[b] * cap / 8, sum = 0;
                uint32_t pages = bloom_slices_pages(cap, nbits[b], pb);
                CHECK(pages == (bytes + pb - 1) / pb);
                if (pages > 100000)
                    continue;
                for (uint32_t pg = 0; pg < pages; pg++) {
                    uint32_t n = bloom_slices_page_bytes(cap, nbits[b], pb, pg);
                    CHECK(n > 0 && n % 8 == 0 && (n == pb || pg == pages - 1));
                    sum += n;
                }
                CHECK(sum == bytes);
                CHECK(bloom_slices_page_bytes(cap, nbits[b], pb, pages) == 0);
                /* every word of every slice where the stream puts it */
                for (uint64_t p = 0; p < nbits[b]; p += 1 + nbits[b] / 7)
                    for (uint32_t w = 0; w < cap / 64; w++) {
                        uint32_t page, byte;
                        bloom_slices_word_at(cap, pb, p, w, &page, &byte);
                        CHECK((uint64_t)page * pb + byte == (p * (cap / 64) + w) * 8);
                        CHECK(byte + 8 <= bloom_slices_page_bytes(cap, nbits[b], pb, page));
                    }
            }
    /* out of range: no pages, no bytes */
    CHECK(bloom_slices_pages(0, 64, 3984) == 0);
    CHECK(bloom_slices_pages(96, 64, 3984) == 0);
    CHECK(bloom_slices_pages(1088, 64, 3984) == 0);
    CHECK(bloom_slices_pages(64, 0, 3984) == 0);
    CHECK(bloom_slices_pages(64, UINT64_C(1) << 32, 3984) == 0);
    CHECK(bloom_slices_pages(64, 64, 0) == 0);
    CHECK(bloom_slices_pages(64, 64, 12) == 0);
    CHECK(bloom_slices_page_bytes(64, 64, 12, 0) == 0);
}

static void test_block_cap(void)
{
    CHECK(bloom_slices_block_cap(0, 0, 1024) == 64);
    CHECK(bloom_slices_block_cap(1, 0, 1024) == 64);
    CHECK(bloom_slices_block_cap(64, 0, 1024) == 64);
    CHECK(bloom_slices_block_cap(65, 0, 1024) == 128);
    CHECK(bloom_slices_block_cap(1000, 0, 1024) == 1024);
    CHECK(bloom_slices_block_cap(5000, 0, 1024) == 1024);
    CHECK(bloom_slices_block_cap(UINT32_MAX, 0, 1024) == 1024);
    /* growing: twice the last block */
    CHECK(bloom_slices_block_cap(1, 64, 1024) == 128);
    CHECK(bloom_slices_block_cap(300, 64, 1024) == 320);
    CHECK(bloom_slices_block_cap(1, 640, 1024) == 1024);
    CHECK(bloom_slices_block_cap(1, UINT32_MAX, 1024) == 1024);
    /* within what the host's header holds */
    CHECK(bloom_slices_block_cap(1000, 0, 640) == 640);
    CHECK(bloom_slices_block_cap(1, 512, 640) == 640);
    CHECK(bloom_slices_block_cap(1, 0, 64) == 64);
    CHECK(bloom_slices_block_cap(1, 0, 4096) == 64);
    CHECK(bloom_slices_block_cap(4000, 0, 4096) == 1024);
}

static void test_batch_limits(void)
{
    uint64_t words[2 * 65];
    uint8_t row[8] = {0};
    const uint8_t *rows[2] = {row, row};
    bloom_slices_batch b;
    bloom_error err;
    CHECK(bloom_slices_batch_words(64, 0, 1) == 65);
    CHECK(bloom_slices_batch_words(61, 63, 2) == 2 * 65);
    CHECK(bloom_slices_batch_words(65, 0, 64) == 129);
    CHECK(bloom_slices_batch_words(64, 0, 0) == 0);
    CHECK(bloom_slices_batch_words(0, 0, 1) == 0);
    CHECK(bloom_slices_batch_words(64, 1024, 1) == 0);
    CHECK(bloom_slices_batch_words(64, 1, 1024) == 0);
    CHECK(bloom_slices_batch_words(64, UINT32_MAX, 2) == 0);
    CHECK(bloom_slices_batch_words(UINT64_C(1) << 32, 0, 1) == 0);
    CHECK(bloom_slices_batch_words(64, 0, 1024) == 16 * 65);
    CHECK(bloom_slices_batch_make(&b, 64, 64, 63, rows, 2, words, 130, &err) ==
          BLOOM_E_INVALID_ARGUMENT); /* past the block */
    CHECK(bloom_slices_batch_make(&b, 64, 100, 0, rows, 2, words, 130, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_slices_batch_make(&b, 64, 128, 0, rows, 0, words, 130, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_slices_batch_make(&b, 64, 128, 63, rows, 2, words, 129, &err) == BLOOM_E_LIMIT);
    CHECK(bloom_slices_batch_make(&b, 64, 128, 63, rows, 2, NULL, 130, &err) == BLOOM_E_LIMIT);
    CHECK(bloom_slices_batch_make(&b, 64, 128, 63, rows, 2, words, 130, &err) == BLOOM_OK);
    /* a page of the wrong size, or past the stream (128 * 64 / 8 = 1024 bytes) */
    uint8_t page[1024] = {0};
    CHECK(bloom_slices_batch_merge(&b, 512, 0, page, 256, BLOOM_SLICES_LITTLE_ENDIAN, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_slices_batch_merge(&b, 512, 2, page, 512, BLOOM_SLICES_LITTLE_ENDIAN, &err) ==
          BLOOM_E_INVALID_ARGUMENT);
    CHECK(bloom_slices_batch_merge(&b, 512, 1, page, 512, BLOOM_SLICES_LITTLE_ENDIAN, &err) ==
          BLOOM_OK);
    CHECK(bloom_slices_page_to_cols(128, 64, 512, 0, page, 512, BLOOM_SLICES_LITTLE_ENDIAN, words,
                                    127, &err) == BLOOM_E_LIMIT);
    CHECK(bloom_slices_page_to_cols(128, 64, 512, 0, page, 512, BLOOM_SLICES_LITTLE_ENDIAN, words,
                                    128, &err) == BLOOM_OK);
    CHECK(bloom_slices_page_to_cols(128, 64, 512, 0, page, 504, BLOOM_SLICES_LITTLE_ENDIAN, words,
                                    128, &err) == BLOOM_E_INVALID_ARGUMENT);
}

/*
 * One block: a stream of random old bytes (rows registered before, and
 * bits a crash left past them), a batch of random rows at slots [first,
 * first + n) merged page by page, against the naive model; then read back
 * into rows.
 */
static void check_merge(uint64_t nbits, uint32_t cap, uint32_t page_bytes, uint32_t first,
                        uint32_t n, bloom_slices_order order, uint64_t seed)
{
    uint64_t nbytes = (nbits + 63) / 64 * 8, bytes = nbits * cap / 8, state = seed;
    uint8_t *stream = malloc(bytes), *want = malloc(bytes), *rowmem = malloc(n * nbytes);
    const uint8_t **rows = malloc(n * sizeof *rows);
    for (uint64_t i = 0; i < bytes; i++)
        stream[i] = (uint8_t)key_at(60, state++);
    memcpy(want, stream, bytes);
    for (uint32_t i = 0; i < n; i++) {
        for (uint64_t b = 0; b < nbytes; b++)
            rowmem[i * nbytes + b] = (uint8_t)(key_at(61, state++) & (i % 3 ? 0xff : 0x81));
        rows[i] = rowmem + i * nbytes;
    }
    /* the model: the words the rows touch, the slots before first kept */
    for (uint32_t s = first / 64 * 64; s < (first + n + 63) / 64 * 64; s++)
        for (uint64_t p = 0; p < nbits; p++) {
            if (s < first)
                continue;
            int bit = s < first + n ? rows[s - first][p / 8] >> (p % 8) & 1 : 0;
            set_stream_bit(want, cap, p, s, bit, order);
        }
    size_t nwords = bloom_slices_batch_words(nbits, first, n);
    uint64_t *words = malloc(nwords * sizeof *words);
    bloom_slices_batch b;
    CHECK(bloom_slices_batch_make(&b, nbits, cap, first, rows, n, words, nwords, NULL) == BLOOM_OK);
    uint32_t pages = bloom_slices_pages(cap, nbits, page_bytes);
    for (uint32_t pg = 0; pg < pages; pg++)
        CHECK(bloom_slices_batch_merge(&b, page_bytes, pg, stream + (uint64_t)pg * page_bytes,
                                       bloom_slices_page_bytes(cap, nbits, page_bytes, pg), order,
                                       NULL) == BLOOM_OK);
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < bytes; i++)
        wrong += stream[i] != want[i];
    CHECK_MSG(wrong == 0, "nbits %llu cap %u pages of %u slots [%u, %u): %llu bytes differ",
              (unsigned long long)nbits, cap, page_bytes, first, first + n,
              (unsigned long long)wrong);
    /* and back: every slot's bits, the words past nbits zero */
    size_t ncols = (size_t)(cap / 64) * nbytes * 8;
    uint64_t *cols = malloc(ncols * sizeof *cols);
    memset(cols, 0xff, ncols * sizeof *cols);
    for (uint32_t pg = 0; pg < pages; pg++)
        CHECK(bloom_slices_page_to_cols(cap, nbits, page_bytes, pg,
                                        stream + (uint64_t)pg * page_bytes,
                                        bloom_slices_page_bytes(cap, nbits, page_bytes, pg), order,
                                        cols, ncols, NULL) == BLOOM_OK);
    uint8_t *back = malloc(64 * nbytes), *out[64];
    for (unsigned j = 0; j < 64; j++)
        out[j] = back + j * nbytes;
    wrong = 0;
    for (uint32_t w = 0; w < cap / 64; w++) {
        bloom_slices_to_rows(cols + (size_t)w * nbytes * 8, nbytes, out, 64);
        for (uint32_t j = 0; j < 64; j++)
            for (uint64_t p = 0; p < nbytes * 8; p++) {
                int bit = p < nbits ? stream_bit(want, cap, p, 64 * w + j, order) : 0;
                wrong += (out[j][p / 8] >> (p % 8) & 1) != bit;
            }
    }
    CHECK_MSG(wrong == 0, "read back: %llu bits differ", (unsigned long long)wrong);
    free(back);
    free(cols);
    free(words);
    free(rows);
    free(rowmem);
    free(want);
    free(stream);
}

static void test_merge_is_the_naive_one(void)
{
    static const uint64_t nbits[] = {1, 61, 64, 65, 1000};
    static const uint32_t caps[] = {64, 640, 1024};
    static const uint32_t page_bytes[] = {8, 24, 3984};
    uint64_t seed = 1;
    for (size_t b = 0; b < 5; b++)
        for (size_t c = 0; c < 3; c++)
            for (size_t g = 0; g < 3; g++) {
                uint32_t cap = caps[c];
                /* slot ranges at word boundaries: one slot, a word, across
                 * two words, the last slot, all slots but the first */
                const uint32_t ranges[][2] = {
                    {0, 1}, {0, 64}, {63, 2}, {cap - 1, 1}, {1, cap - 1}, {cap / 2 + 5, cap / 4}};
                for (size_t r = 0; r < 6; r++) {
                    if (ranges[r][0] + ranges[r][1] > cap ||
                        (nbits[b] * cap > 100000 && r % 2 == 1))
                        continue; /* past the block; the large blocks: a few ranges */
                    check_merge(nbits[b], cap, page_bytes[g], ranges[r][0], ranges[r][1],
                                (r + g) % 2 ? BLOOM_SLICES_HOST_ORDER : BLOOM_SLICES_LITTLE_ENDIAN,
                                seed++ * 1000003);
                }
            }
}

/*
 * A fixed block of 1000-bit rows, 128 slots, filled by two batches in pages
 * of 3,984 bytes (SQLite's rows of NAME_slices), little-endian: its digest.
 * The stored indexes of both hosts have this layout; a change that moves a
 * bit in it changes this number.
 */
static void test_golden_block(void)
{
    enum { NBITS = 1000, NBYTES = 128, CAP = 128, PAGE = 3984 };
    uint8_t rowmem[CAP][NBYTES];
    const uint8_t *rows[CAP];
    uint8_t stream[NBITS * CAP / 8];
    uint64_t words[2 * (1024 + 1)];
    memset(stream, 0, sizeof stream);
    for (uint32_t i = 0; i < CAP; i++) {
        for (uint32_t b = 0; b < NBYTES; b++)
            rowmem[i][b] = (uint8_t)key_at(62, i * NBYTES + b);
        rowmem[i][NBYTES - 3] = 0; /* bits past nbits stay clear in a filter */
        rowmem[i][NBYTES - 2] = 0;
        rowmem[i][NBYTES - 1] = 0;
        rows[i] = rowmem[i];
    }
    static const uint32_t batches[][2] = {{0, 100}, {100, 28}};
    for (int k = 0; k < 2; k++) {
        bloom_slices_batch b;
        CHECK(bloom_slices_batch_make(&b, NBITS, CAP, batches[k][0], rows + batches[k][0],
                                      batches[k][1], words, sizeof words / sizeof words[0],
                                      NULL) == BLOOM_OK);
        for (uint32_t pg = 0; pg < bloom_slices_pages(CAP, NBITS, PAGE); pg++)
            CHECK(bloom_slices_batch_merge(&b, PAGE, pg, stream + pg * PAGE,
                                           bloom_slices_page_bytes(CAP, NBITS, PAGE, pg),
                                           BLOOM_SLICES_LITTLE_ENDIAN, NULL) == BLOOM_OK);
    }
    CHECK(stream_bit(stream, CAP, 999, 127, BLOOM_SLICES_LITTLE_ENDIAN) ==
          (rowmem[127][124] >> 7 & 1));
    uint64_t digest = bloom_hash_bytes(stream, sizeof stream, 0);
    CHECK_MSG(digest == UINT64_C(0x68f291fa6b0aa150), "the layout of a block moved: digest %016llx",
              (unsigned long long)digest);
}

const test_case slice_block_tests[] = {
    {"slice blocks: pages of the stream, and where each slice's word is", test_stream_pages},
    {"slice blocks: the size of a new block", test_block_cap},
    {"slice blocks: sizes and memory are checked before use", test_batch_limits},
    {"slice blocks: a batch merged into pages is the naive merge, and reads back",
     test_merge_is_the_naive_one},
    {"slice blocks: a fixed block has the golden digest", test_golden_block},
};
const size_t slice_block_tests_count = sizeof slice_block_tests / sizeof slice_block_tests[0];
