/*
 * format.c - the byte format (docs/FORMAT.md): writing a header, and
 * validating every field of bytes that come from outside.
 */
#include "internal.h"

#include <ctype.h>
#include <inttypes.h>

static const uint8_t filter_magic[4] = {'B', 'L', 'O', 'M'};

enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 4,
    OFF_LAYOUT = 5,
    OFF_HASH_ID = 6,
    OFF_NHASHES = 7,
    OFF_FLAGS = 8,
    OFF_KINDS = 10, /* 6 bytes: kinds, reserved, type OID */
    OFF_SEED = 16,
    OFF_NBITS = 24
};

const char *bloom_layout_name(int layout)
{
    switch (layout) {
    case BLOOM_LAYOUT_CLASSIC:
        return "classic";
    case BLOOM_LAYOUT_BLOCKED:
        return "blocked";
    case BLOOM_LAYOUT_COUNTING:
        return "counting";
    case BLOOM_LAYOUT_SCALABLE:
        return "scalable";
    }
    return NULL;
}

int bloom_layout_from_name(const char *name, size_t len)
{
    static const char *const names[BLOOM_NLAYOUTS] = {"classic", "blocked", "counting", "scalable"};
    for (int id = 0; id < BLOOM_NLAYOUTS; id++) {
        const char *candidate = names[id];
        size_t i = 0;
        while (i < len && candidate[i] && tolower((unsigned char)name[i]) == candidate[i])
            i++;
        if (i == len && candidate[i] == '\0')
            return id;
    }
    return -1;
}

static uint64_t bit_array_bytes(uint64_t nbits)
{
    return (nbits + 63) / 64 * 8;
}

size_t bloom_serialized_size(uint64_t nbits)
{
    if (nbits == 0 || nbits > BLOOM_MAX_NBITS)
        return 0;
    uint64_t total = BLOOM_HEADER_SIZE + bit_array_bytes(nbits);
    if (total > SIZE_MAX)
        return 0;
    return (size_t)total;
}

/* Bytes after the header of a filter with one array. */
static uint64_t array_bytes(int layout, uint64_t nbits)
{
    return layout == BLOOM_LAYOUT_COUNTING ? counter_bytes(nbits) : bit_array_bytes(nbits);
}

size_t bloom_layout_size(int layout, uint64_t nbits)
{
    if (layout == BLOOM_LAYOUT_COUNTING) {
        if (nbits == 0 || nbits > BLOOM_MAX_COUNTERS ||
            BLOOM_HEADER_SIZE + counter_bytes(nbits) > SIZE_MAX)
            return 0;
        return (size_t)(BLOOM_HEADER_SIZE + counter_bytes(nbits));
    }
    if (layout != BLOOM_LAYOUT_CLASSIC && layout != BLOOM_LAYOUT_BLOCKED)
        return 0;
    return bloom_serialized_size(nbits);
}

bloom_status bloom_check_params(int layout, uint64_t nbits, unsigned nhashes, bloom_error *err)
{
    if (layout == BLOOM_LAYOUT_SCALABLE)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "a scalable filter is sized from a capacity and a rate "
                          "(bloom_empty(capacity, fpr, seed, 'scalable')), not from nbits and nhashes");
    if (bloom_layout_name(layout) == NULL)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "unknown layout %d", layout);
    if (nbits == 0)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "nbits must be at least 1");
    uint64_t max = layout == BLOOM_LAYOUT_COUNTING ? BLOOM_MAX_COUNTERS : BLOOM_MAX_NBITS;
    if (nbits > max)
        return bloom_fail(err, BLOOM_E_LIMIT, "nbits %" PRIu64 " exceeds the maximum %" PRIu64 "%s",
                          nbits, max,
                          layout == BLOOM_LAYOUT_COUNTING ? " of a counting filter (4-bit counters)" : "");
    if (bloom_layout_size(layout, nbits) == 0)
        return bloom_fail(err, BLOOM_E_LIMIT, "nbits %" PRIu64 " does not fit in memory here",
                          nbits);
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        if (nbits % BLOOM_BLOCK_BITS != 0)
            return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                              "nbits %" PRIu64 " of a blocked filter is not a multiple of %d",
                              nbits, BLOOM_BLOCK_BITS);
        if (nhashes != BLOOM_BLOCKED_NHASHES)
            return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                              "nhashes %u of a blocked filter must be %d", nhashes,
                              BLOOM_BLOCKED_NHASHES);
    } else if (nhashes < BLOOM_MIN_NHASHES || nhashes > BLOOM_MAX_NHASHES) {
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "nhashes %u is outside [%d, %d]", nhashes,
                          BLOOM_MIN_NHASHES, BLOOM_MAX_NHASHES);
    }
    return bloom_ok(err);
}

bloom_status bloom_init(void *buf, size_t len, int layout, uint64_t nbits, unsigned nhashes,
                        uint64_t seed, bloom_filter *out, bloom_error *err)
{
    bloom_status st = bloom_check_params(layout, nbits, nhashes, err);
    if (st != BLOOM_OK)
        return st;
    if (len != bloom_layout_size(layout, nbits))
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT,
                          "buffer of %zu bytes for a filter of %zu bytes", len,
                          bloom_layout_size(layout, nbits));
    uint8_t *p = buf;
    memset(p, 0, len);
    memcpy(p + OFF_MAGIC, filter_magic, sizeof filter_magic);
    p[OFF_VERSION] = BLOOM_FORMAT_VERSION;
    p[OFF_LAYOUT] = (uint8_t)layout;
    p[OFF_HASH_ID] = BLOOM_HASH_XXH64_CANONICAL;
    p[OFF_NHASHES] = (uint8_t)nhashes;
    store_le64(p + OFF_SEED, seed);
    store_le64(p + OFF_NBITS, nbits);
    return bloom_parse_header(buf, len, out, err);
}

bloom_status bloom_check_ids(unsigned version, unsigned layout, unsigned hash_id,
                             bloom_bytes where, bloom_error *err)
{
    const char *in = where == BLOOM_BYTES_STATE ? " in builder state" : "";
    if (version != BLOOM_FORMAT_VERSION) {
        if (where == BLOOM_BYTES_STATE)
            return bloom_fail(err, BLOOM_E_FORMAT, "unsupported builder state version %u", version);
        return bloom_fail(err, BLOOM_E_FORMAT, "unsupported format version %u (this build reads %d)",
                          version, BLOOM_FORMAT_VERSION);
    }
    if (bloom_layout_name((int)layout) == NULL)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown layout id %u%s", layout, in);
    if (hash_id != BLOOM_HASH_XXH64_CANONICAL)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown hash id %u%s", hash_id, in);
    return BLOOM_OK;
}

bloom_status bloom_check_kinds(const uint8_t *p, unsigned at, bloom_bytes where,
                              bloom_kinds *out, bloom_error *err)
{
    const char *in = where == BLOOM_BYTES_STATE ? " of the builder state" : "";
    unsigned mask = p[0];
    uint32_t oid = (uint32_t)p[2] | (uint32_t)p[3] << 8 | (uint32_t)p[4] << 16 |
                   (uint32_t)p[5] << 24;
    if (mask & ~BLOOM_KINDS_KNOWN)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "byte %u%s (value kinds) is 0x%02x: bits 0x%02x are no known kind", at,
                          in, mask, mask & ~BLOOM_KINDS_KNOWN);
    if (mask == BLOOM_KIND_TEXT)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "byte %u%s (value kinds) is 0x02: text alone is stored as 0", at, in);
    if (p[1] != 0)
        return bloom_fail(err, BLOOM_E_FORMAT, "reserved byte %u%s is 0x%02x, must be zero",
                          at + 1, in, p[1]);
    if (oid != 0 && !(mask & BLOOM_KIND_TYPED))
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "bytes %u..%u%s (type oid) hold %u without the typed kind in byte %u, "
                          "must be zero",
                          at + 2, at + 5, in, (unsigned)oid, at);
    if (oid >= BLOOM_FIRST_USER_OID)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "bytes %u..%u%s (type oid) hold %u, not a built-in type (below %u)",
                          at + 2, at + 5, in, (unsigned)oid, BLOOM_FIRST_USER_OID);
    out->mask = (uint8_t)mask;
    out->type_oid = oid;
    return BLOOM_OK;
}

void header_set_nbits(uint8_t *header, uint64_t nbits)
{
    store_le64(header + OFF_NBITS, nbits);
}

bloom_status bloom_parse_header(const void *buf, size_t len, bloom_filter *out, bloom_error *err)
{
    const uint8_t *p = buf;
    if (p == NULL || len < BLOOM_HEADER_SIZE)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "truncated header: %zu bytes, a bloom filter has at least %d", len,
                          BLOOM_HEADER_SIZE);
    if (memcmp(p + OFF_MAGIC, filter_magic, sizeof filter_magic) != 0)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "bad magic 0x%02x%02x%02x%02x: not a bloom filter", p[0], p[1], p[2],
                          p[3]);
    bloom_status st = bloom_check_ids(p[OFF_VERSION], p[OFF_LAYOUT], p[OFF_HASH_ID],
                                      BLOOM_BYTES_FILTER, err);
    if (st != BLOOM_OK)
        return st;
    uint16_t flags = load_le16(p + OFF_FLAGS);
    if (flags != 0)
        return bloom_fail(err, BLOOM_E_FORMAT, "unknown flags 0x%04x", flags);
    bloom_kinds kinds;
    st = bloom_check_kinds(p + OFF_KINDS, OFF_KINDS, BLOOM_BYTES_FILTER, &kinds, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t nbits = load_le64(p + OFF_NBITS);
    bloom_error perr;
    if (p[OFF_LAYOUT] == BLOOM_LAYOUT_SCALABLE) {
        /* nbits and nhashes sum up and bound the stages (layout_scalable.c) */
        if (bloom_check_params(BLOOM_LAYOUT_CLASSIC, nbits, p[OFF_NHASHES], &perr) != BLOOM_OK)
            return bloom_fail(err, BLOOM_E_FORMAT, "bad header: %s", perr.message);
        bloom_status st2 = scalable_check_header(p, len, nbits, err);
        if (st2 != BLOOM_OK)
            return st2;
    } else if (bloom_check_params(p[OFF_LAYOUT], nbits, p[OFF_NHASHES], &perr) != BLOOM_OK) {
        return bloom_fail(err, BLOOM_E_FORMAT, "bad header: %s", perr.message);
    }
    uint64_t expected = p[OFF_LAYOUT] == BLOOM_LAYOUT_SCALABLE
                            ? (uint64_t)len
                            : BLOOM_HEADER_SIZE + array_bytes(p[OFF_LAYOUT], nbits);
    if ((uint64_t)len != expected)
        return bloom_fail(err, BLOOM_E_FORMAT,
                          "length %zu does not match nbits %" PRIu64 " (expected %" PRIu64
                          " bytes)%s",
                          len, nbits, expected, (uint64_t)len < expected ? ": truncated" : ": trailing bytes");
    out->version = p[OFF_VERSION];
    out->layout = p[OFF_LAYOUT];
    out->hash_id = p[OFF_HASH_ID];
    out->nhashes = p[OFF_NHASHES];
    out->seed = load_le64(p + OFF_SEED);
    out->nbits = nbits;
    out->nbytes = (uint64_t)len - BLOOM_HEADER_SIZE;
    out->bits = (uint8_t *)p + BLOOM_HEADER_SIZE;
    out->kinds = kinds;
    return bloom_ok(err);
}

uint64_t bloom_first_padding_bit(const uint8_t *bits, uint64_t nbytes, uint64_t used_bits)
{
    /* Bits past the used ones would make equal filters compare unequal and
     * inflate popcounts: the format says they are zero. */
    uint64_t first = used_bits >> 3; /* the byte holding bit used_bits */
    for (uint64_t i = first; i < nbytes; i++) {
        unsigned keep = i == first ? (1u << (used_bits & 7)) - 1 : 0;
        unsigned padding = bits[i] & ~keep & 0xffu;
        if (padding)
            return i * 8 + (uint64_t)__builtin_ctz(padding);
    }
    return UINT64_MAX;
}

bloom_status bloom_parse(const void *buf, size_t len, bloom_filter *out, bloom_error *err)
{
    bloom_status st = bloom_parse_header(buf, len, out, err);
    if (st != BLOOM_OK)
        return st;
    if (out->layout == BLOOM_LAYOUT_SCALABLE) {
        st = scalable_parse(buf, len, out, true, err);
        return st != BLOOM_OK ? st : bloom_ok(err);
    }
    bool counting = out->layout == BLOOM_LAYOUT_COUNTING;
    uint64_t bad = bloom_first_padding_bit(out->bits, out->nbytes, counting ? 4 * out->nbits : out->nbits);
    if (bad == UINT64_MAX)
        return bloom_ok(err);
    if (counting)
        return bloom_fail(err, BLOOM_E_FORMAT, "padding bit %" PRIu64 " past the %" PRIu64 " counters is set",
                          bad, out->nbits);
    return bloom_fail(err, BLOOM_E_FORMAT, "padding bit %" PRIu64 " past nbits %" PRIu64 " is set", bad,
                      out->nbits);
}
