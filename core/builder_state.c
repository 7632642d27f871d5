/*
 * builder_state.c - the serialized builder state (docs/FORMAT.md "builder
 * state"): a 32-byte header and the distinct hashes, Rice-coded in order
 * (1.0's raw 8-byte hashes are still read), for partial aggregates that
 * travel between processes.  The fields it shares with a
 * filter's header are checked by format.c's bloom_check_ids.
 */
#include "builder_internal.h"

#include <inttypes.h>

enum {
    STATE_HEADER_SIZE = 32,
    ENCODING_RAW = 0,  /* 1.0: 8 bytes a hash, any order, repeats allowed */
    ENCODING_RICE = 1, /* 1.1: sorted distinct hashes as Rice-coded gaps */
    ENCODING_KINDS = 0x80, /* 1.2: six bytes of value kinds follow the header */
    KINDS_SIZE = 6
};

static const uint8_t state_magic[4] = {'B', 'L', 'M', 'B'};

/*
 * The encoding (docs/FORMAT.md "builder state").  A state that travels
 * (Citus' text, send/recv, parallel workers) is the set of distinct hashes;
 * n uniform 64-bit hashes carry about log2(2^64 / n) + 1.44 bits each, so
 * they are written sorted, each as its gap from the previous one minus 1
 * (the first: itself), Golomb-Rice coded with k = log2(ln 2 * 2^64 / n):
 * the quotient gap >> k in unary (ones ended by a zero), then the k low
 * bits.  Bits fill bytes from the least significant bit on.  A set whose
 * gaps are far from uniform (never xxh64's output in practice) is written
 * raw when that is smaller, so a state never exceeds 32 + 8n bytes.
 */
static unsigned rice_param(uint64_t n)
{
    if (n == 0)
        return 0;
    uint64_t gap = UINT64_MAX / n;
    gap = (gap >> 4) * 11; /* ln 2 ~ 11/16 */
    unsigned k = 0;
    while (k < 63 && (gap >> (k + 1)) != 0)
        k++;
    return k;
}

/* The hashes in order: the partitions' (by top byte, each sorted), or the
 * front's, sorted into the scratch first. */
static bloom_status visit_sorted(bloom_builder *b, uint64_t count, batch_visitor visit, void *ctx,
                                 bloom_error *err)
{
    if (b->store != NULL)
        return builder_visit_all(b, visit, ctx, err);
    if (count == 0)
        return BLOOM_OK;
    bloom_status st = builder_reserve_scratch(b, 2 * count * 8, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t *sorted = b->scratch;
    size_t n = 0;
    for (size_t i = 0; i < b->front_slots; i++)
        if (b->front[i] != 0)
            sorted[n++] = b->front[i];
    if (b->front_zero)
        sorted[n++] = 0;
    n = sort_unique(sorted, sorted + n, n);
    return visit(ctx, sorted, n, err);
}

typedef struct rice_sizer {
    unsigned k;
    bool first;
    uint64_t prev;
    uint64_t bits;  /* so far */
    uint64_t limit; /* more than this: raw is smaller */
} rice_sizer;

static bloom_status size_hashes(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    rice_sizer *z = ctx;
    (void)err;
    for (size_t i = 0; i < n && z->bits <= z->limit; i++) {
        uint64_t gap = z->first ? hashes[i] : hashes[i] - z->prev - 1;
        uint64_t q = gap >> z->k;
        z->first = false;
        z->prev = hashes[i];
        z->bits += q > z->limit ? z->limit + 1 : q + 1 + z->k;
    }
    return BLOOM_OK;
}

/* The kinds block's size: none when the kinds store as 0 (text alone, or
 * nothing), so such a state has 1.1's bytes. */
static size_t kinds_size(const bloom_builder *b)
{
    return bloom_kinds_normalize(b->kinds).mask != 0 ? KINDS_SIZE : 0;
}

/* The encoding of b's state (without ENCODING_KINDS) and its size in bytes. */
static bloom_status state_layout(bloom_builder *b, int *encoding, size_t *size, bloom_error *err)
{
    size_t body = STATE_HEADER_SIZE + kinds_size(b);
    bloom_status st = builder_settle(b, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t count = builder_stored_count(b);
    rice_sizer z = {rice_param(count), true, 0, 0, count * 64 - (count > 0 ? 8 : 0)};
    st = visit_sorted(b, count, size_hashes, &z, err);
    if (st != BLOOM_OK)
        return st;
    if (count > 0 && z.bits <= z.limit) {
        *encoding = ENCODING_RICE;
        *size = body + 1 + (size_t)((z.bits + 7) / 8);
    } else {
        *encoding = ENCODING_RAW;
        *size = body + (size_t)count * 8;
    }
    return bloom_ok(err);
}

bloom_status bloom_builder_serialized_size(bloom_builder *b, size_t *out, bloom_error *err)
{
    int encoding;
    return state_layout(b, &encoding, out, err);
}

typedef struct hash_writer {
    uint8_t *at;
    /* Rice */
    unsigned k;
    bool first;
    uint64_t prev;
    uint64_t acc; /* bits not yet stored, from bit 0 */
    unsigned nacc;
} hash_writer;

static bloom_status write_raw(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    hash_writer *w = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++, w->at += 8)
        store_le64(w->at, hashes[i]);
    return BLOOM_OK;
}

/* Appends the low `nbits` (at most 32) of v. */
static inline void put_bits(hash_writer *w, uint64_t v, unsigned nbits)
{
    w->acc |= (nbits == 64 ? v : v & ((UINT64_C(1) << nbits) - 1)) << w->nacc;
    w->nacc += nbits;
    while (w->nacc >= 8) {
        *w->at++ = (uint8_t)w->acc;
        w->acc >>= 8;
        w->nacc -= 8;
    }
}

static bloom_status write_rice(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    hash_writer *w = ctx;
    (void)err;
    for (size_t i = 0; i < n; i++) {
        uint64_t gap = w->first ? hashes[i] : hashes[i] - w->prev - 1;
        w->first = false;
        w->prev = hashes[i];
        for (uint64_t q = gap >> w->k; q > 0;) {
            unsigned ones = q > 32 ? 32 : (unsigned)q;
            put_bits(w, UINT64_MAX, ones);
            q -= ones;
        }
        put_bits(w, 0, 1);
        if (w->k > 32) {
            put_bits(w, gap, 32);
            put_bits(w, gap >> 32, w->k - 32);
        } else {
            put_bits(w, gap, w->k);
        }
    }
    return BLOOM_OK;
}

bloom_status bloom_builder_serialize(bloom_builder *b, void *buf, size_t len, bloom_error *err)
{
    size_t need;
    int encoding;
    bloom_status st = state_layout(b, &encoding, &need, err);
    if (st != BLOOM_OK)
        return st;
    if (len != need)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "buffer of %zu bytes for a builder state of %zu bytes", len, need);
    uint64_t count = builder_stored_count(b);
    uint8_t *p = buf;
    uint64_t fpr_bits;
    memcpy(&fpr_bits, &b->fpr, sizeof fpr_bits);
    memcpy(p, state_magic, sizeof state_magic);
    p[4] = BLOOM_FORMAT_VERSION;
    p[5] = (uint8_t)b->layout;
    p[6] = BLOOM_HASH_XXH64_CANONICAL;
    p[7] = (uint8_t)(encoding | (kinds_size(b) ? ENCODING_KINDS : 0));
    store_le64(p + 8, b->seed);
    store_le64(p + 16, fpr_bits);
    store_le64(p + 24, count);
    if (kinds_size(b))
        bloom_kinds_write(p + STATE_HEADER_SIZE, b->kinds);
    hash_writer w = {p + STATE_HEADER_SIZE + kinds_size(b), 0, true, 0, 0, 0};
    if (encoding == ENCODING_RAW) {
        st = visit_sorted(b, count, write_raw, &w, err);
        return st != BLOOM_OK ? st : bloom_ok(err);
    }
    w.k = rice_param(count);
    *w.at++ = (uint8_t)w.k;
    st = visit_sorted(b, count, write_rice, &w, err);
    if (st != BLOOM_OK)
        return st;
    if (w.nacc > 0)
        *w.at++ = (uint8_t)w.acc; /* the last byte's unused bits are zero */
    return bloom_ok(err);
}

/* ---- reading ---- */

typedef struct bit_reader {
    const uint8_t *p, *end;
    uint64_t acc; /* unread bits, from bit 0 */
    unsigned n;
} bit_reader;

static inline void refill(bit_reader *r)
{
    if (r->end - r->p >= 8) {
        /* eight bytes at once: keep the whole bytes that fit above n */
        r->acc |= load_le64(r->p) << r->n;
        r->p += (63 - r->n) >> 3;
        r->n |= 56;
        return;
    }
    while (r->n <= 56 && r->p < r->end) {
        r->acc |= (uint64_t)*r->p++ << r->n;
        r->n += 8;
    }
}

/* Trailing one bits of x (64 when all are ones). */
static inline unsigned trailing_ones(uint64_t x)
{
    if (x == UINT64_MAX)
        return 64;
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(~x);
#else
    unsigned n = 0;
    while ((x >> n) & 1)
        n++;
    return n;
#endif
}

/* Reads nbits (at most 32); false when the bytes end first. */
static inline bool get_bits(bit_reader *r, unsigned nbits, uint64_t *out)
{
    refill(r);
    if (r->n < nbits)
        return false;
    *out = nbits == 0 ? 0 : r->acc & ((UINT64_C(1) << nbits) - 1);
    r->acc = nbits == 64 ? 0 : r->acc >> nbits;
    r->n -= nbits;
    return true;
}

/* Reads a unary quotient of at most `limit`. */
static bloom_status get_unary(bit_reader *r, uint64_t limit, uint64_t *out, bloom_error *err)
{
    uint64_t q = 0;
    for (;;) {
        refill(r);
        if (r->n == 0)
            return bloom_fail(err, BLOOM_E_FORMAT, "builder state ends inside a hash");
        uint64_t ones = trailing_ones(r->acc);
        if (ones < r->n) {
            q += ones;
            r->acc = ones + 1 >= 64 ? 0 : r->acc >> (ones + 1);
            r->n -= (unsigned)ones + 1;
            break;
        }
        q += r->n;
        r->acc = 0;
        r->n = 0;
        if (q > limit)
            break;
    }
    if (q > limit)
        return bloom_fail(err, BLOOM_E_FORMAT, "builder state has a gap beyond 64 bits");
    *out = q;
    return BLOOM_OK;
}

/* The hashes of a Rice-coded state, validated, into b. */
static bloom_status read_rice(bloom_builder *b, const uint8_t *bits, size_t nbytes, unsigned k,
                              uint64_t count, bloom_error *err)
{
    bit_reader r = {bits, bits + nbytes, 0, 0};
    uint64_t prev = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t q = 0, lo = 0, hi = 0, gap, hash;
        bloom_status st = get_unary(&r, UINT64_MAX >> k, &q, err);
        if (st != BLOOM_OK)
            return st;
        bool ok = k > 32 ? get_bits(&r, 32, &lo) && get_bits(&r, k - 32, &hi)
                         : get_bits(&r, k, &lo);
        if (!ok)
            return bloom_fail(err, BLOOM_E_FORMAT, "builder state ends inside a hash");
        gap = (k == 0 ? 0 : q << k) | (hi << 32) | lo;
        if (i == 0)
            hash = gap;
        else if (prev == UINT64_MAX || gap > UINT64_MAX - prev - 1)
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "builder state hash %" PRIu64 " is beyond 64 bits", i + 1);
        else
            hash = prev + 1 + gap;
        prev = hash;
        st = bloom_builder_add_hash(b, hash, err);
        if (st != BLOOM_OK)
            return st;
    }
    refill(&r);
    if (r.p != r.end || r.n >= 8 || r.acc != 0)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "builder state has bits after its %" PRIu64 " hashes", count);
    return BLOOM_OK;
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
    unsigned encoding = p[7] & ~(unsigned)ENCODING_KINDS;
    if (encoding != ENCODING_RAW && encoding != ENCODING_RICE)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown builder state encoding %u", p[7]);
    size_t body = STATE_HEADER_SIZE; /* where the hashes start */
    bloom_kinds kinds = {0, 0};
    if (p[7] & ENCODING_KINDS) {
        if (len < STATE_HEADER_SIZE + KINDS_SIZE)
            return bloom_fail(err, BLOOM_E_FORMAT, "truncated builder state: %zu bytes", len);
        st = bloom_check_kinds(p + STATE_HEADER_SIZE, STATE_HEADER_SIZE, BLOOM_BYTES_STATE,
                               &kinds, err);
        if (st != BLOOM_OK)
            return st;
        if (kinds.mask == 0)
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "byte %d of the builder state (value kinds) is 0: a state without "
                              "kinds has no kinds bytes",
                              STATE_HEADER_SIZE);
        body += KINDS_SIZE;
    }
    uint64_t fpr_bits = load_le64(p + 16), count = load_le64(p + 24);
    double fpr;
    memcpy(&fpr, &fpr_bits, sizeof fpr);
    bloom_error ferr;
    if (bloom_check_fpr(fpr, &ferr) != BLOOM_OK)
        return bloom_fail(err, BLOOM_E_FORMAT, "bad builder state: %s", ferr.message);
    unsigned k = 0;
    if (encoding == ENCODING_RAW) {
        if (count > (len - body) / 8 || len != body + count * 8)
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "builder state length %zu does not match its count %" PRIu64, len,
                              count);
    } else {
        if (len < body + 1)
            return bloom_fail(err, BLOOM_E_FORMAT, "truncated builder state: %zu bytes", len);
        k = p[body];
        if (k > 63)
            return bloom_fail(err, BLOOM_E_FORMAT, "builder state Rice parameter %u is above 63",
                              k);
        /* every hash takes at least k + 1 bits: bound the count before any allocation */
        if (count > (uint64_t)(len - body - 1) * 8 / (k + 1))
            return bloom_fail(err, BLOOM_E_FORMAT,
                              "builder state length %zu does not match its count %" PRIu64, len,
                              count);
    }
    bloom_builder *b;
    st = bloom_builder_create(alloc, p[5], fpr, load_le64(p + 8), &b, err);
    if (st != BLOOM_OK)
        return st;
    if (encoding == ENCODING_RAW) {
        const uint8_t *hashes = p + body;
        for (size_t i = 0; i < count && st == BLOOM_OK; i++)
            st = bloom_builder_add_hash(b, load_le64(hashes + 8 * i), err);
    } else {
        st = read_rice(b, p + body + 1, len - body - 1, k, count, err);
    }
    if (st != BLOOM_OK) {
        bloom_builder_destroy(b);
        return st;
    }
    /* no kinds bytes: text values, or a state from before 1.2, read as text */
    if (kinds.mask == 0 && count > 0)
        kinds.mask = BLOOM_KIND_TEXT;
    b->kinds = kinds;
    *out = b;
    return bloom_ok(err);
}
