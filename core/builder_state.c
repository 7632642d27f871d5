/*
 * builder_state.c - the serialized builder state (docs/FORMAT.md "builder
 * state"): a 32-byte header and the distinct hashes in order, for partial
 * aggregates that travel between processes.  The fields it shares with a
 * filter's header are checked by format.c's bloom_check_ids.
 */
#include "builder_internal.h"

#include <inttypes.h>

enum { STATE_HEADER_SIZE = 32 };

static const uint8_t state_magic[4] = {'B', 'L', 'M', 'B'};

bloom_status bloom_builder_serialized_size(bloom_builder *b, size_t *out, bloom_error *err)
{
    bloom_status st = builder_settle(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = STATE_HEADER_SIZE + (size_t)builder_stored_count(b) * 8;
    return bloom_ok(err);
}

typedef struct hash_writer {
    uint8_t *at;
} hash_writer;

static bloom_status write_hashes(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    hash_writer *w = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++, w->at += 8)
        store_le64(w->at, hashes[i]);
    return BLOOM_OK;
}

bloom_status bloom_builder_serialize(bloom_builder *b, void *buf, size_t len, bloom_error *err)
{
    size_t need;
    bloom_status st = bloom_builder_serialized_size(b, &need, err);
    if (st != BLOOM_OK)
        return st;
    if (len != need)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "buffer of %zu bytes for a builder state of %zu bytes", len, need);
    uint64_t count = builder_stored_count(b);
    if (b->store == NULL && count > 0) {
        /* only the front: sort it, so a state is a function of the set */
        st = builder_reserve_scratch(b, 2 * count * 8, err);
        if (st != BLOOM_OK)
            return st;
        uint64_t *sorted = b->scratch;
        size_t n = 0;
        for (size_t i = 0; i < b->front_slots; i++)
            if (b->front[i] != 0)
                sorted[n++] = b->front[i];
        if (b->front_zero)
            sorted[n++] = 0;
        sort_unique(sorted, sorted + n, n);
    }
    uint8_t *p = buf;
    uint64_t fpr_bits;
    memcpy(&fpr_bits, &b->fpr, sizeof fpr_bits);
    memcpy(p, state_magic, sizeof state_magic);
    p[4] = BLOOM_FORMAT_VERSION;
    p[5] = (uint8_t)b->layout;
    p[6] = BLOOM_HASH_XXH64_CANONICAL;
    p[7] = 0;
    store_le64(p + 8, b->seed);
    store_le64(p + 16, fpr_bits);
    store_le64(p + 24, count);
    hash_writer w = {p + STATE_HEADER_SIZE};
    /* partitions are by top byte and each is sorted: the concatenation is */
    if (b->store != NULL)
        builder_visit_all(b, write_hashes, &w, err);
    else
        write_hashes(&w, b->scratch, (size_t)count, err);
    return bloom_ok(err);
}

bloom_status bloom_builder_deserialize(const bloom_allocator *alloc, const void *buf, size_t len,
                                       bloom_builder **out, bloom_error *err)
{
    const uint8_t *p = buf;
    if (p == NULL || len < STATE_HEADER_SIZE)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "truncated builder state: %zu bytes, the header has %d", len,
                          STATE_HEADER_SIZE);
    if (memcmp(p, state_magic, sizeof state_magic) != 0)
        return bloom_fail(err, BLOOM_E_FORMAT, "bad magic: not a bloom builder state");
    bloom_status st = bloom_check_ids(p[4], p[5], p[6], BLOOM_BYTES_STATE, err);
    if (st != BLOOM_OK)
        return st;
    if (p[7] != 0)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown builder state flags 0x%02x", p[7]);
    uint64_t fpr_bits = load_le64(p + 16), count = load_le64(p + 24);
    double fpr;
    memcpy(&fpr, &fpr_bits, sizeof fpr);
    if (!(fpr > 0 && fpr < 1))
        return bloom_fail(err, BLOOM_E_FORMAT, "builder state false-positive rate %g is outside (0, 1)",
                          fpr);
    if (count > (len - STATE_HEADER_SIZE) / 8 || len != STATE_HEADER_SIZE + count * 8)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "builder state length %zu does not match its count %" PRIu64, len, count);
    bloom_builder *b;
    st = bloom_builder_create(alloc, p[5], fpr, load_le64(p + 8), &b, err);
    if (st != BLOOM_OK)
        return st;
    const uint8_t *hashes = p + STATE_HEADER_SIZE;
    for (size_t i = 0; i < count && st == BLOOM_OK; i++)
        st = bloom_builder_add_hash(b, load_le64(hashes + 8 * i), err);
    if (st != BLOOM_OK) {
        bloom_builder_destroy(b);
        return st;
    }
    *out = b;
    return bloom_ok(err);
}
