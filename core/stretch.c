/*
 * stretch.c - a filter carried to a size that is a multiple of its own,
 * answering exactly as it does (docs/FORMAT.md "Stretching").
 *
 * The layouts place a value with a multiply-high: classic probe i at bit
 * floor(g_i m / 2^64), where g_i comes from the hash alone, blocked at block
 * floor(h nblocks / 2^32) with bits inside the block from the hash alone.
 * At a size f times larger, a probe's position P satisfies
 * floor(P / f) = p, its position at the smaller size (fold.c).  So the
 * filter T with bit P equal to bit floor(P / f) of the smaller filter S
 * (each bit repeated f times: a run, not a copy of the whole pattern) sees,
 * for every value, exactly the bits S sees: T answers every probe as S
 * does.  Blocked: block J of T is block floor(J / f) of S; counting: counter
 * P is counter floor(P / f).  T folds back to S, and it is the least filter
 * at the larger size that keeps every member of S: a set bit of S may stand
 * for any of the f positions under it.
 *
 * Its use: intersecting filters of different sizes at the larger size
 * (combine.c), where the larger's precision is kept (the AND is at least
 * as sparse as the larger filter), instead of folding the larger, which
 * saturates the smaller size when it holds many more values.
 */
#include "internal.h"

#include <inttypes.h>

/* Size in the unit that must divide: bits, blocks (blocked) or counters. */
static uint64_t units(int layout, uint64_t nbits)
{
    return layout == BLOOM_LAYOUT_BLOCKED ? nbits / BLOOM_BLOCK_BITS : nbits;
}

/* Bits [lo, hi) of a word, lo < hi <= 64. */
static inline uint64_t run_mask(unsigned lo, unsigned hi)
{
    uint64_t upto = hi == 64 ? UINT64_MAX : (UINT64_C(1) << hi) - 1;
    return upto & ~((UINT64_C(1) << lo) - 1);
}

uint64_t stretch_word(const bloom_filter *src, uint64_t factor, uint64_t w)
{
    if (factor == 1)
        return load_le64(src->bits + 8 * w);
    if (src->layout == BLOOM_LAYOUT_BLOCKED) {
        uint64_t block = w / 4 / factor, q = w % 4; /* 4 words per 32-byte block */
        return load_le64(src->bits + 32 * block + 8 * q);
    }
    /* classic: bits [64 w, 64 w + 64) are those of the runs of small bits
     * floor(64 w / factor) .. floor((64 w + 63) / factor) */
    uint64_t first = 64 * w, last = first + 63, out = 0;
    for (uint64_t q = first / factor; q <= last / factor && q < src->nbits; q++) {
        if (!(src->bits[q >> 3] >> (q & 7) & 1))
            continue;
        uint64_t lo = q * factor, hi = lo + factor; /* the run of q */
        if (lo < first)
            lo = first;
        if (hi > last + 1)
            hi = last + 1;
        out |= run_mask((unsigned)(lo - first), (unsigned)(hi - first));
    }
    return out;
}

bloom_status bloom_check_stretch(const bloom_filter *f, uint64_t nbits, bloom_error *err)
{
    if (f->layout == BLOOM_LAYOUT_SCALABLE)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "a scalable filter does not stretch");
    uint64_t max = f->layout == BLOOM_LAYOUT_COUNTING ? BLOOM_MAX_COUNTERS : BLOOM_MAX_NBITS;
    if (nbits < f->nbits || nbits > max)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "cannot stretch a filter of %" PRIu64 " to %" PRIu64
                          ": stretching grows a filter to a multiple of its size, at most %" PRIu64,
                          f->nbits, nbits, max);
    if (f->layout == BLOOM_LAYOUT_BLOCKED && nbits % BLOOM_BLOCK_BITS != 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "cannot stretch a blocked filter to %" PRIu64
                          " bits: not a whole number of %d-bit blocks",
                          nbits, BLOOM_BLOCK_BITS);
    if (units(f->layout, nbits) % units(f->layout, f->nbits) != 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "cannot stretch a filter of %" PRIu64 " to %" PRIu64
                          ": %" PRIu64 " is not a multiple of %" PRIu64,
                          units(f->layout, f->nbits), units(f->layout, nbits),
                          units(f->layout, nbits), units(f->layout, f->nbits));
    return bloom_ok(err);
}

bloom_status bloom_stretch(const bloom_filter *f, uint64_t nbits, void *buf, size_t len,
                           bloom_filter *out, bloom_error *err)
{
    bloom_status st = bloom_check_stretch(f, nbits, err);
    if (st != BLOOM_OK)
        return st;
    bloom_filter src = *f; /* out may be f */
    uint64_t factor = units(src.layout, nbits) / units(src.layout, src.nbits);
    st = bloom_init(buf, len, src.layout, nbits, src.nhashes, src.seed, out, err);
    if (st != BLOOM_OK)
        return st;
    for (uint64_t w = 0; w < out->nbytes / 8; w++)
        store_le64(out->bits + 8 * w, src.layout == BLOOM_LAYOUT_COUNTING
                                          ? counting_stretch_word(&src, factor, w)
                                          : stretch_word(&src, factor, w));
    bloom_kinds_store(out, src.kinds);
    return bloom_ok(err);
}
