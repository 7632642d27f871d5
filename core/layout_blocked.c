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

void blocked_add(bloom_filter *f, uint64_t hash)
{
    uint8_t *block = block_of(f, hash);
    uint32_t key = (uint32_t)hash;
    for (int i = 0; i < 8; i++) {
        uint32_t bit = (key * salt[i]) >> 27;
        block[4 * i + (bit >> 3)] |= (uint8_t)(1u << (bit & 7));
    }
}

/* Branch-free, as in the classic layout: the eight tests touch one line. */
static inline bool test_block(const uint8_t *block, uint64_t hash)
{
    uint32_t key = (uint32_t)hash;
    unsigned all = 1;
    for (int i = 0; i < 8; i++) {
        uint32_t bit = (key * salt[i]) >> 27;
        all &= (unsigned)(block[4 * i + (bit >> 3)] >> (bit & 7));
    }
    return all & 1u;
}

bool blocked_contains(const bloom_filter *f, uint64_t hash)
{
    return test_block(block_of(f, hash), hash);
}

bool blocked_block_contains(const uint8_t *block, uint64_t hash)
{
    return test_block(block, hash);
}

/* A probe is one line: prefetch the block of hash j + DISTANCE while
 * testing hash j, so about DISTANCE misses overlap. */
enum { DISTANCE = 16 };

void blocked_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    for (size_t j = 0; j < n && j < DISTANCE; j++)
        BLOOM_PREFETCH_READ(block_of(f, hashes[j]));
    for (size_t j = 0; j < n; j++) {
        if (j + DISTANCE < n)
            BLOOM_PREFETCH_READ(block_of(f, hashes[j + DISTANCE]));
        out[j] = test_block(block_of(f, hashes[j]), hashes[j]);
    }
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
