/*
 * slices.c - what a bit-sliced index over a column of filters needs from
 * the format (docs/FORMAT.md "Bit-sliced index"): the geometry a filter is
 * indexed under (folded where it is larger than the index holds), the bit
 * positions a probe reads, and the transposition of rows into slices.
 *
 * An index stores the filters of one geometry as slices: slice p is a
 * bitmap over the rows, bit j set when row j's filter has bit p set.  A
 * probe of a value tests k positions in every filter, so it reads k slices
 * and ANDs them: the rows left are those whose filter may contain the
 * value, exactly the rows bloom_contains_hash answers true for.  Filters
 * larger than the index holds are folded (fold.c: bit for bit the filter of
 * the same values at the smaller size), so they answer "maybe" more often,
 * never "no" for a member.
 */
#include "internal.h"

/*
 * The layouts whose bits an index can slice, by a list of those known, never
 * by excluding others: classic and blocked place a value on bits of one
 * array, which folding keeps and bloom_probe_bits names.  Any other layout
 * (one added later, such as counting's counters or scalable's stages) is
 * kept aside by the hosts and found by their recheck.
 */
static bool sliceable_layout(int layout)
{
    switch (layout) {
    case BLOOM_LAYOUT_CLASSIC:
    case BLOOM_LAYOUT_BLOCKED:
        return true;
    default:
        return false;
    }
}

bool bloom_sliceable(const bloom_filter *f)
{
    return sliceable_layout(f->layout) && f->hash_id == BLOOM_HASH_XXH64_CANONICAL &&
           f->version == BLOOM_FORMAT_VERSION && f->nbits >= 1 &&
           f->nbytes == (f->nbits + 63) / 64 * 8;
}

uint64_t bloom_fold_target(int layout, uint64_t nbits, uint64_t max_nbits)
{
    if (!sliceable_layout(layout))
        return 0;
    if (nbits <= max_nbits)
        return nbits;
    /* in the unit that must divide: bits, or 256-bit blocks */
    uint64_t unit = layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_BITS : 1;
    uint64_t size = nbits / unit, most = max_nbits / unit, best = 0;
    if (most == 0)
        return 0;
    if ((size & (size - 1)) == 0) { /* a size class: the largest power of two */
        best = UINT64_C(1) << (63 - __builtin_clzll(most));
        return best * unit;
    }
    /* divisor pairs (d, size / d) with d <= sqrt(size) */
    for (uint64_t d = 1; d <= size / d; d++) {
        if (size % d != 0)
            continue;
        if (d <= most && d > best)
            best = d;
        if (size / d <= most && size / d > best)
            best = size / d;
    }
    return best * unit;
}

bool bloom_signature(const bloom_filter *f, uint64_t max_nbits, uint64_t target,
                     bloom_geometry *out, uint8_t *bits)
{
    if (!bloom_sliceable(f))
        return false;
    if (target == 0)
        target = bloom_fold_target(f->layout, f->nbits, max_nbits);
    if (target == 0 || target > max_nbits || target > f->nbits)
        return false;
    bloom_filter folded = *f;
    uint64_t factor = fold_factor(f, target), nbytes = (target + 63) / 64 * 8;
    folded.nbits = target;
    folded.nbytes = nbytes;
    folded.bits = bits;
    for (uint64_t w = 0; w < nbytes / 8; w++)
        store_le64(bits + 8 * w, fold_word(f, factor, w));
    /* a filter that is saturated at its own size is indexed all the same:
     * only folding must not make a useful filter useless */
    if (factor > 1 && bloom_is_saturated(&folded))
        return false;
    out->layout = f->layout;
    out->nhashes = f->nhashes;
    out->seed = f->seed;
    out->nbits = target;
    return true;
}

bloom_status bloom_check_geometry(const bloom_geometry *g, bloom_error *err)
{
    if (!sliceable_layout(g->layout))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "layout %d is not one a bit-sliced index holds", g->layout);
    return bloom_check_params(g->layout, g->nbits, g->nhashes, err);
}

unsigned bloom_probe_bits(const bloom_geometry *g, uint64_t hash, uint64_t *bits)
{
    bloom_filter f = {.layout = g->layout,
                      .hash_id = BLOOM_HASH_XXH64_CANONICAL,
                      .nhashes = g->nhashes,
                      .version = BLOOM_FORMAT_VERSION,
                      .seed = g->seed,
                      .nbits = g->nbits,
                      .nbytes = bloom_geometry_nbytes(g),
                      .bits = NULL};
    if (!sliceable_layout(g->layout))
        return 0; /* bloom_check_geometry refuses it: never reached */
    if (g->layout == BLOOM_LAYOUT_BLOCKED) {
        /* bit b of word i of the block is bit 32 i + b of the block */
        uint64_t base = blocked_block_index(&f, hash) * BLOOM_BLOCK_BITS;
        uint32_t key = (uint32_t)hash;
        static const uint32_t salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                         0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
        for (unsigned i = 0; i < 8; i++)
            bits[i] = base + 32 * i + ((key * salt[i]) >> 27);
        return 8;
    }
    classic_probe_bits(&f, hash, bits);
    return g->nhashes;
}

/*
 * The 64 x 64 bit matrix a[] transposed in place: bit j of a[i] becomes
 * bit i of a[j].  Six rounds swap ever smaller off-diagonal blocks (32 x 32,
 * then 16 x 16, ...), each pair of words with a shift and a mask: about 200
 * word operations where a bit at a time takes 4,096.
 */
static void transpose64(uint64_t a[64])
{
    uint64_t m = UINT64_C(0x00000000FFFFFFFF);
    for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j) {
        for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
    }
}

void bloom_slices_from_rows(const uint8_t *const *rows, unsigned nrows, uint64_t nbytes,
                            uint64_t *cols)
{
    uint64_t tile[64];
    for (uint64_t w = 0; w < nbytes / 8; w++) {
        uint64_t any = 0;
        for (unsigned j = 0; j < 64; j++) {
            tile[j] = j < nrows ? load_le64(rows[j] + 8 * w) : 0;
            any |= tile[j];
        }
        if (any == 0) {
            memset(cols + 64 * w, 0, 64 * sizeof cols[0]);
            continue;
        }
        transpose64(tile);
        memcpy(cols + 64 * w, tile, sizeof tile);
    }
}

void bloom_slices_to_rows(const uint64_t *cols, uint64_t nbytes, uint8_t *const *rows,
                          unsigned nrows)
{
    uint64_t tile[64];
    for (uint64_t w = 0; w < nbytes / 8; w++) {
        memcpy(tile, cols + 64 * w, sizeof tile);
        transpose64(tile);
        for (unsigned j = 0; j < nrows && j < 64; j++)
            store_le64(rows[j] + 8 * w, tile[j]);
    }
}
