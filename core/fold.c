/*
 * fold.c - folding a filter to a size that divides its own, and the
 * combining of filters whose sizes divide each other.
 *
 * Both layouts place a value with a multiply-high: classic bit
 * floor(g * m / 2^64), blocked block floor(h * nblocks / 2^32).  For an
 * integer f, floor(floor(x) / f) == floor(x / f), so the position a value
 * takes at m / f is its position at m divided by f: OR-ing each run of f
 * adjacent bits (blocked: f adjacent blocks, bits within a block untouched)
 * gives bit for bit the filter built at m / f with the same k and seed.
 * (Counting: each counter the saturating sum of those it covers, the
 * counters of the same values at m / f.)  Folding is how bloom_fold
 * shrinks a filter, and how the estimates of two filters of different
 * sizes read them (filter.c); combining filters of different sizes keeps
 * the larger's size instead (combine.c, stretch.c; docs/FORMAT.md
 * "Folding").
 */
#include "internal.h"

#include <inttypes.h>

/* Word w (64 bits, LE) of f folded by `factor`: classic bits
 * [64 w f, 64 (w + 1) f) of f, each run of factor bits OR-ed into one;
 * blocked word q of block j OR-ed over blocks [j f, (j + 1) f); counting,
 * the folded presence of its counters (counting_fold_word folds the
 * counters).  It reads only words >= w of f, so folding word by word
 * upwards works in place. */
uint64_t fold_word(const bloom_filter *f, uint64_t factor, uint64_t w)
{
    if (factor == 1)
        return presence_word(f, w);
    uint64_t out = 0;
    if (f->layout == BLOOM_LAYOUT_BLOCKED) {
        uint64_t block = w / 4 * factor, q = w % 4; /* 4 words per 32-byte block */
        for (uint64_t i = 0; i < factor; i++)
            out |= load_le64(f->bits + 32 * (block + i) + 8 * q);
        return out;
    }
    uint64_t first = w * factor, end = first + factor, nwords = presence_words(f);
    if (end > nwords)
        end = nwords;
    bool pow2 = (factor & (factor - 1)) == 0;
    unsigned shift = pow2 ? (unsigned)__builtin_ctzll(factor) : 0;
    for (uint64_t i = first; i < end; i++) {
        uint64_t word = presence_word(f, i);
        while (word) {
            /* bit p of f lands on bit p / factor, within word w */
            uint64_t p = 64 * i + (uint64_t)__builtin_ctzll(word);
            uint64_t q = pow2 ? p >> shift : p / factor;
            out |= UINT64_C(1) << (q - 64 * w);
            word &= word - 1;
        }
    }
    return out;
}

/* The ones of `large` (ones_total) and those of them whose folded image in
 * `small` (a size dividing large's) is a set bit (ones_over_set): how the
 * smaller filter's members sit in the larger, without folding it away. */
void fold_preimage_ones(const bloom_filter *large, const bloom_filter *small, uint64_t *ones_total,
                        uint64_t *ones_over_set)
{
    uint64_t factor = fold_factor(large, small->nbits), total = 0, over = 0;
    if (large->layout == BLOOM_LAYOUT_BLOCKED) {
        for (uint64_t w = 0; w < large->nbytes / 8; w++) {
            uint64_t l = load_le64(large->bits + 8 * w);
            uint64_t s = load_le64(small->bits + 8 * (w / 4 / factor * 4 + w % 4));
            total += (uint64_t)__builtin_popcountll(l);
            over += (uint64_t)__builtin_popcountll(l & s);
        }
    } else {
        /* classic or counting: presence bits */
        for (uint64_t w = 0; w < presence_words(large); w++) {
            uint64_t l = presence_word(large, w);
            total += (uint64_t)__builtin_popcountll(l);
            if (factor % 64 == 0) { /* the whole word folds onto one bit */
                uint64_t q = 64 * w / factor;
                if (presence_word(small, q / 64) >> (q % 64) & 1)
                    over += (uint64_t)__builtin_popcountll(l);
                continue;
            }
            while (l) {
                uint64_t q = (64 * w + (uint64_t)__builtin_ctzll(l)) / factor;
                over += presence_word(small, q / 64) >> (q % 64) & 1;
                l &= l - 1;
            }
        }
    }
    *ones_total = total;
    *ones_over_set = over;
}

/* Size in the unit that must divide: bits (classic) or blocks (blocked). */
static uint64_t size_units(int layout, uint64_t nbits)
{
    return layout == BLOOM_LAYOUT_BLOCKED ? nbits / BLOOM_BLOCK_BITS : nbits;
}

uint64_t fold_factor(const bloom_filter *f, uint64_t nbits)
{
    return size_units(f->layout, f->nbits) / size_units(f->layout, nbits);
}

bool sizes_divide(int layout, uint64_t larger, uint64_t smaller)
{
    uint64_t a = size_units(layout, larger), b = size_units(layout, smaller);
    return b > 0 && a >= b && a % b == 0 &&
           (layout != BLOOM_LAYOUT_BLOCKED || smaller % BLOOM_BLOCK_BITS == 0);
}

bloom_status bloom_check_fold(const bloom_filter *f, int64_t signed_nbits, bloom_error *err)
{
    if (f->layout == BLOOM_LAYOUT_SCALABLE)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "a scalable filter does not fold: its stages have sizes of their own");
    if (signed_nbits < 1 || (uint64_t)signed_nbits > f->nbits)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "cannot fold a filter of %" PRIu64 " bits to %" PRId64
                          ": folding shrinks a filter to a size that divides its own",
                          f->nbits, signed_nbits);
    uint64_t nbits = (uint64_t)signed_nbits;
    if (f->layout == BLOOM_LAYOUT_BLOCKED && nbits % BLOOM_BLOCK_BITS != 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "cannot fold a blocked filter to %" PRIu64
                          " bits: not a whole number of %d-bit blocks",
                          nbits, BLOOM_BLOCK_BITS);
    if (!sizes_divide(f->layout, f->nbits, nbits)) {
        if (f->layout == BLOOM_LAYOUT_BLOCKED)
            return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                              "cannot fold a blocked filter of %" PRIu64 " blocks to %" PRIu64
                              ": the block count must divide %" PRIu64,
                              f->nbits / BLOOM_BLOCK_BITS, nbits / BLOOM_BLOCK_BITS,
                              f->nbits / BLOOM_BLOCK_BITS);
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "cannot fold a filter of %" PRIu64 " bits to %" PRIu64
                          ": %" PRIu64 " does not divide %" PRIu64,
                          f->nbits, nbits, nbits, f->nbits);
    }
    return bloom_ok(err);
}

bloom_status bloom_fold(const bloom_filter *f, uint64_t nbits, void *buf, size_t len,
                        bloom_filter *out, bloom_error *err)
{
    bloom_status st = nbits > INT64_MAX ? bloom_check_fold(f, -1, err) : bloom_check_fold(f, (int64_t)nbits, err);
    if (st != BLOOM_OK)
        return st;
    bloom_filter src = *f; /* out may be f */
    uint64_t factor = fold_factor(&src, nbits);
    st = bloom_init(buf, len, src.layout, nbits, src.nhashes, src.seed, out, err);
    if (st != BLOOM_OK)
        return st;
    for (uint64_t w = 0; w < out->nbytes / 8; w++)
        store_le64(out->bits + 8 * w, src.layout == BLOOM_LAYOUT_COUNTING
                                          ? counting_fold_word(&src, factor, w)
                                          : fold_word(&src, factor, w));
    bloom_kinds_store(out, src.kinds);
    return bloom_ok(err);
}
