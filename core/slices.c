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

/* bloom_slices_from_rows, a NULL row counting as zeros. */
static void from_rows(const uint8_t *const *rows, unsigned nrows, uint64_t nbytes, uint64_t *cols)
{
    uint64_t tile[64];
    for (uint64_t w = 0; w < nbytes / 8; w++) {
        uint64_t any = 0;
        for (unsigned j = 0; j < 64; j++) {
            tile[j] = j < nrows && rows[j] != NULL ? load_le64(rows[j] + 8 * w) : 0;
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

void bloom_slices_from_rows(const uint8_t *const *rows, unsigned nrows, uint64_t nbytes,
                            uint64_t *cols)
{
    from_rows(rows, nrows < 64 ? nrows : 64, nbytes, cols);
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

/* ---- blocks of slices ---- */

static bool cap_ok(uint32_t cap)
{
    return cap >= BLOOM_SLICES_MIN_CAP && cap <= BLOOM_SLICES_MAX_CAP && cap % 64 == 0;
}

/* Bytes of a block's stream; 0 when cap, nbits or page_bytes are out of
 * range (nbits below 2^32: the stream then stays below 2^39 bytes). */
static uint64_t stream_bytes(uint32_t cap, uint64_t nbits, uint32_t page_bytes)
{
    if (!cap_ok(cap) || nbits == 0 || nbits > UINT32_MAX || page_bytes == 0 || page_bytes % 8 != 0)
        return 0;
    return nbits * (cap / 8);
}

uint32_t bloom_slices_pages(uint32_t cap, uint64_t nbits, uint32_t page_bytes)
{
    uint64_t bytes = stream_bytes(cap, nbits, page_bytes), pages;
    if (bytes == 0)
        return 0;
    pages = (bytes + page_bytes - 1) / page_bytes;
    return pages > UINT32_MAX ? 0 : (uint32_t)pages;
}

uint32_t bloom_slices_page_bytes(uint32_t cap, uint64_t nbits, uint32_t page_bytes, uint32_t page)
{
    uint64_t bytes = stream_bytes(cap, nbits, page_bytes), start = (uint64_t)page * page_bytes;
    if (start >= bytes)
        return 0;
    return bytes - start < page_bytes ? (uint32_t)(bytes - start) : page_bytes;
}

uint32_t bloom_slices_block_cap(uint32_t nrows, uint32_t last_cap, uint32_t cap_max)
{
    uint64_t want = ((uint64_t)nrows + 63) / 64 * 64;
    if (want < 2 * (uint64_t)last_cap)
        want = 2 * (uint64_t)last_cap;
    if (want > cap_max)
        want = cap_max;
    if (want > BLOOM_SLICES_MAX_CAP)
        want = BLOOM_SLICES_MAX_CAP;
    return want < BLOOM_SLICES_MIN_CAP ? BLOOM_SLICES_MIN_CAP : (uint32_t)want;
}

/* Slices a slot word holds: one a bit of the row's whole words. */
static uint64_t slices_of(uint64_t nbits)
{
    return (nbits + 63) / 64 * 64;
}

size_t bloom_slices_batch_words(uint64_t nbits, uint32_t first, uint32_t n)
{
    if (nbits == 0 || nbits > UINT32_MAX || n == 0 || first > BLOOM_SLICES_MAX_CAP ||
        n > BLOOM_SLICES_MAX_CAP - first)
        return 0;
    uint64_t nw = (first + n - 1) / 64 - first / 64 + 1, words = nw * (slices_of(nbits) + 1);
    return words > SIZE_MAX ? 0 : (size_t)words;
}

bloom_status bloom_slices_batch_make(bloom_slices_batch *b, uint64_t nbits, uint32_t cap,
                                     uint32_t first, const uint8_t *const *rows, uint32_t n,
                                     uint64_t *words, size_t nwords, bloom_error *err)
{
    size_t need = bloom_slices_batch_words(nbits, first, n);
    if (!cap_ok(cap) || need == 0 || first + n > cap)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "slots %u to %u of a block of %u slots of %llu bits cannot be sliced",
                          first, first + n, cap, (unsigned long long)nbits);
    if (words == NULL || nwords < need)
        return bloom_fail(err, BLOOM_E_LIMIT, "slicing %u rows takes %zu words, not %zu", n, need,
                          nwords);
    uint64_t nslices = slices_of(nbits);
    uint32_t w0 = first / 64, nw = (first + n - 1) / 64 - w0 + 1;
    uint64_t *cols = words, *keep = words + (size_t)nw * nslices;
    for (uint32_t w = 0; w < nw; w++) {
        const uint8_t *tile[64];
        uint32_t base = 64 * (w0 + w);
        for (uint32_t j = 0; j < 64; j++) {
            uint32_t slot = base + j;
            tile[j] = slot >= first && slot < first + n ? rows[slot - first] : NULL;
        }
        from_rows(tile, 64, nslices / 8, cols + (size_t)w * nslices);
        keep[w] = base + 64 <= first ? ~UINT64_C(0)
                  : base >= first    ? 0
                                     : (UINT64_C(1) << (first - base)) - 1;
    }
    *b = (bloom_slices_batch){.nbits = nbits,
                              .cap = cap,
                              .first = first,
                              .n = n,
                              .w0 = w0,
                              .nw = nw,
                              .nslices = nslices,
                              .cols = cols,
                              .keep = keep};
    return bloom_ok(err);
}

static uint64_t load_word(const uint8_t *p, bloom_slices_order order)
{
    uint64_t v;
    if (order == BLOOM_SLICES_LITTLE_ENDIAN)
        return load_le64(p);
    memcpy(&v, p, sizeof v);
    return v;
}

static void store_word(uint8_t *p, uint64_t v, bloom_slices_order order)
{
    if (order == BLOOM_SLICES_LITTLE_ENDIAN)
        store_le64(p, v);
    else
        memcpy(p, &v, sizeof v);
}

/* Whether content_bytes are the bytes of page `page` of the stream. */
static bloom_status check_page(uint32_t cap, uint64_t nbits, uint32_t page_bytes, uint32_t page,
                               uint32_t content_bytes, bloom_error *err)
{
    uint32_t bytes = bloom_slices_page_bytes(cap, nbits, page_bytes, page);
    if (bytes == 0 || bytes != content_bytes)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "page %u of slices of %u slots of %llu bits in pages of %u bytes is not "
                          "%u bytes",
                          page, cap, (unsigned long long)nbits, page_bytes, content_bytes);
    return BLOOM_OK;
}

bloom_status bloom_slices_batch_merge(const bloom_slices_batch *b, uint32_t page_bytes,
                                      uint32_t page, uint8_t *content, uint32_t content_bytes,
                                      bloom_slices_order order, bloom_error *err)
{
    bloom_status st = check_page(b->cap, b->nbits, page_bytes, page, content_bytes, err);
    if (st != BLOOM_OK)
        return st;
    uint32_t swords = b->cap / 64; /* words of a slice */
    uint64_t q0 = (uint64_t)page * (page_bytes / 8);
    /* word q of the stream is word q % swords of slice q / swords */
    for (uint32_t i = 0; i < content_bytes / 8; i++) {
        uint64_t q = q0 + i, p = q / swords;
        uint32_t w = (uint32_t)(q % swords);
        if (w < b->w0 || w - b->w0 >= b->nw)
            continue;
        size_t at = (size_t)(w - b->w0);
        store_word(content + 8 * i,
                   (load_word(content + 8 * i, order) & b->keep[at]) | b->cols[at * b->nslices + p],
                   order);
    }
    return bloom_ok(err);
}

bloom_status bloom_slices_page_to_cols(uint32_t cap, uint64_t nbits, uint32_t page_bytes,
                                       uint32_t page, const uint8_t *content,
                                       uint32_t content_bytes, bloom_slices_order order,
                                       uint64_t *cols, size_t ncols, bloom_error *err)
{
    bloom_status st = check_page(cap, nbits, page_bytes, page, content_bytes, err);
    if (st != BLOOM_OK)
        return st;
    uint32_t swords = cap / 64;
    uint64_t nslices = slices_of(nbits), q0 = (uint64_t)page * (page_bytes / 8);
    if (cols == NULL || ncols / swords < nslices)
        return bloom_fail(err, BLOOM_E_LIMIT, "the slices of %u slots of %llu bits take %llu words",
                          cap, (unsigned long long)nbits, (unsigned long long)(swords * nslices));
    for (uint32_t i = 0; i < content_bytes / 8; i++) {
        uint64_t q = q0 + i;
        cols[(size_t)(q % swords) * nslices + q / swords] = load_word(content + 8 * i, order);
    }
    for (uint32_t w = 0; w < swords; w++)
        for (uint64_t p = nbits; p < nslices; p++)
            cols[(size_t)w * nslices + p] = 0;
    return bloom_ok(err);
}
