/*
 * layout_classic.c - layout 0: k probes anywhere in m bits, derived from one
 * 64-bit hash by enhanced double hashing in 64-bit arithmetic, each mapped
 * onto [0, m) by a multiply-high (docs/FORMAT.md "Classic layout").
 */
#include "internal.h"

#include <math.h>

static inline void set_bit(uint8_t *bits, uint64_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static inline bool test_bit(const uint8_t *bits, uint64_t i)
{
    return (bits[i >> 3] >> (i & 7)) & 1u;
}

void classic_add(bloom_filter *f, uint64_t hash)
{
    uint64_t x = hash, y = second_hash(hash), m = f->nbits;
    for (unsigned i = 0; i < f->nhashes; i++) {
        set_bit(f->bits, mulhi64(x, m));
        x += y;
        y += i + 1;
    }
}

bool classic_contains(const bloom_filter *f, uint64_t hash)
{
    uint64_t x = hash, y = second_hash(hash), m = f->nbits;
    for (unsigned i = 0; i < f->nhashes; i++) {
        if (!test_bit(f->bits, mulhi64(x, m)))
            return false;
        x += y;
        y += i + 1;
    }
    return true;
}

/* A filter larger than the cache costs a miss per probe; computing a batch
 * of positions and prefetching them first lets the misses overlap. */
enum { BATCH = 8 };

void classic_add_many(bloom_filter *f, const uint64_t *hashes, size_t n)
{
    uint64_t pos[2][BATCH * BLOOM_MAX_NHASHES];
    size_t count[2] = {0, 0};
    unsigned k = f->nhashes;
    uint64_t m = f->nbits;
    size_t done = 0;
    int cur = 0;
    while (done < n || count[cur ^ 1] > 0) {
        size_t batch = n - done < BATCH ? n - done : BATCH;
        count[cur] = 0;
        for (size_t j = 0; j < batch; j++) {
            uint64_t x = hashes[done + j], y = second_hash(x);
            for (unsigned i = 0; i < k; i++) {
                uint64_t bit = mulhi64(x, m);
                BLOOM_PREFETCH_WRITE(f->bits + (bit >> 3));
                pos[cur][count[cur]++] = bit;
                x += y;
                y += i + 1;
            }
        }
        done += batch;
        int prev = cur ^ 1;
        for (size_t j = 0; j < count[prev]; j++)
            set_bit(f->bits, pos[prev][j]);
        count[prev] = 0;
        cur = prev;
    }
}

double classic_estimate_fpr(const bloom_filter *f)
{
    double fill = (double)popcount_bytes(f->bits, f->nbytes) / (double)f->nbits;
    return pow(fill, f->nhashes);
}
