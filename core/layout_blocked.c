/*
 * layout_blocked.c - layout 1: the split-block Bloom filter of the Apache
 * Parquet specification.  32-byte blocks of eight 32-bit little-endian
 * words; a value sets one bit in each word of one block, so a probe costs
 * one cache line (docs/FORMAT.md "Blocked layout").
 */
#include "internal.h"

#include <math.h>

/* The eight salts published by the Parquet specification. */
static const uint32_t salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                 0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

static inline uint64_t block_index(const bloom_filter *f, uint64_t hash)
{
    uint64_t nblocks = f->nbits / BLOOM_BLOCK_BITS;
    return (hash >> 32) * nblocks >> 32;
}

static inline uint8_t *block_of(const bloom_filter *f, uint64_t hash)
{
    return f->bits + block_index(f, hash) * 32;
}

uint64_t blocked_block_index(const bloom_filter *f, uint64_t hash)
{
    return block_index(f, hash);
}

/* The bit a key sets in word i and word i + 1 of its block, as one mask
 * over the two words read as a little-endian 64-bit word: a block is four
 * such words, so a probe is four loads and four tests, not eight of each. */
static inline uint64_t pair_mask(uint32_t key, int i)
{
    return (uint64_t)1 << ((key * salt[i]) >> 27) |
           (uint64_t)1 << (32 + ((key * salt[i + 1]) >> 27));
}

static inline void set_block(uint8_t *block, uint64_t hash)
{
    uint32_t key = (uint32_t)hash;
    for (int i = 0; i < 8; i += 2)
        store_le64(block + 4 * i, load_le64(block + 4 * i) | pair_mask(key, i));
}

/* Branch-free, as in the classic layout: the tests touch one line. */
static inline bool test_block(const uint8_t *block, uint64_t hash)
{
    uint32_t key = (uint32_t)hash;
    uint64_t missing = 0;
    for (int i = 0; i < 8; i += 2)
        missing |= pair_mask(key, i) & ~load_le64(block + 4 * i);
    return missing == 0;
}

/* A probe is one line: prefetch the block of hash j + DISTANCE while
 * testing hash j, so about DISTANCE misses overlap.  40, not 16: more
 * misses in flight serve both a batch of a filter far larger than the
 * caches (bench-core) and PostgreSQL's batched scan (bench-pg-batched),
 * which had fetched each block as its row was read, stalling the reading
 * more than it saved the probe. */
enum { DISTANCE = 40 };

/* The probes, written once for each way of testing a block. */
#define BLOCKED_PROBES(suffix, test, attributes)                                                   \
    attributes static bool contains_##suffix(const bloom_filter *f, uint64_t hash)                 \
    {                                                                                              \
        return test(block_of(f, hash), hash);                                                      \
    }                                                                                              \
    attributes static void contains_many_##suffix(const bloom_filter *f,                           \
                                                  const uint64_t *hashes, size_t n, bool *out)     \
    {                                                                                              \
        for (size_t j = 0; j < n && j < DISTANCE; j++)                                             \
            BLOOM_PREFETCH_READ(block_of(f, hashes[j]));                                           \
        for (size_t j = 0; j < n; j++) {                                                           \
            if (j + DISTANCE < n)                                                                  \
                BLOOM_PREFETCH_READ(block_of(f, hashes[j + DISTANCE]));                            \
            out[j] = test(block_of(f, hashes[j]), hashes[j]);                                      \
        }                                                                                          \
    }

BLOCKED_PROBES(portable, test_block, )

/* x86-64 with AVX2 (most x86-64 CPUs since 2013-2015; the build targets
 * the baseline, so it is chosen at run time): the eight words of a block
 * tested at once, the eight multiplies and shifts in one instruction each,
 * a third of the instructions of the portable test.  The same answers:
 * x86 is little-endian, as the words are. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && BLOOM_HOST_LE &&          \
    !defined(BLOOM_PORTABLE) /* the core's tests run both */
#include <immintrin.h>

__attribute__((target("avx2"))) static inline __m256i mask_avx2(uint64_t hash)
{
    const __m256i salts = _mm256_loadu_si256((const __m256i *)(const void *)salt);
    __m256i key = _mm256_set1_epi32((int)(uint32_t)hash);
    __m256i bit = _mm256_srli_epi32(_mm256_mullo_epi32(key, salts), 27);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), bit);
}

__attribute__((target("avx2"))) static inline bool test_block_avx2(const uint8_t *block,
                                                                   uint64_t hash)
{
    __m256i words = _mm256_loadu_si256((const __m256i *)(const void *)block);
    return _mm256_testc_si256(words, mask_avx2(hash)) != 0; /* mask & ~words == 0 */
}

__attribute__((target("avx2"))) static void add_avx2(bloom_filter *f, uint64_t hash)
{
    __m256i *block = (__m256i *)(void *)block_of(f, hash);
    _mm256_storeu_si256(block, _mm256_or_si256(_mm256_loadu_si256(block), mask_avx2(hash)));
}

BLOCKED_PROBES(avx2, test_block_avx2, __attribute__((target("avx2"))))

static bool have_avx2;

__attribute__((constructor)) static void detect_avx2(void)
{
    __builtin_cpu_init();
    have_avx2 = __builtin_cpu_supports("avx2");
}
#else
static const bool have_avx2 = false;
#define contains_avx2 contains_portable
#define contains_many_avx2 contains_many_portable
#define add_avx2(f, hash) set_block(block_of(f, hash), hash)
#endif

void blocked_add(bloom_filter *f, uint64_t hash)
{
    if (have_avx2)
        add_avx2(f, hash);
    else
        set_block(block_of(f, hash), hash);
}

bool blocked_contains(const bloom_filter *f, uint64_t hash)
{
    return have_avx2 ? contains_avx2(f, hash) : contains_portable(f, hash);
}

bool blocked_block_contains(const uint8_t *block, uint64_t hash)
{
    return test_block(block, hash);
}

void blocked_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    if (have_avx2)
        contains_many_avx2(f, hashes, n, out);
    else
        contains_many_portable(f, hashes, n, out);
}

enum { BATCH = 16 };

void blocked_add_many(bloom_filter *f, const uint64_t *hashes, size_t n)
{
    size_t i = 0;
    for (; i + BATCH <= n; i += BATCH) {
        for (size_t j = 0; j < BATCH && i + BATCH + j < n; j++)
            BLOOM_PREFETCH_WRITE(block_of(f, hashes[i + BATCH + j]));
        for (size_t j = 0; j < BATCH; j++)
            blocked_add(f, hashes[i + j]);
    }
    for (; i < n; i++)
        blocked_add(f, hashes[i]);
}

/* Exact for the filter as it is: a random absent value picks a block
 * uniformly and must find its one bit set in each of the eight words. */
double blocked_estimate_fpr(const bloom_filter *f)
{
    uint64_t nblocks = f->nbits / BLOOM_BLOCK_BITS;
    double sum = 0;
    for (uint64_t b = 0; b < nblocks; b++) {
        const uint8_t *block = f->bits + b * 32;
        double product = 1;
        for (int w = 0; w < 8 && product > 0; w++)
            product *= (double)popcount_bytes(block + 4 * w, 4) / 32.0;
        sum += product;
    }
    return sum / (double)nblocks;
}

/* Block loads are Poisson(n / nblocks); a block holding j values has each
 * word's probed bit set with probability 1 - (31/32)^j. */
double blocked_model_fpr(double n, double nblocks)
{
    double lambda = n / nblocks;
    if (lambda <= 0)
        return 0;
    if (lambda > 1e4) /* 10^4 values in 256 bits: every probe hits */
        return 1;
    double spread = 12 * sqrt(lambda) + 30;
    double lower = lambda > spread ? floor(lambda - spread) : 0, upper = lambda + spread;
    double log_lambda = log(lambda), sum = 0;
    for (double j = lower; j <= upper; j++) {
        double log_pois = j * log_lambda - lambda - lgamma(j + 1);
        double word = 1 - pow(31.0 / 32.0, j);
        sum += exp(log_pois) * pow(word, 8);
    }
    return sum;
}
