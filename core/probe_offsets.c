/*
 * probe_offsets.c - probing a filter from the few bytes a probe reads, for
 * hosts that fetch a stored filter in pieces: a classic probe reads one byte
 * per hash function, a counting probe the byte of each counter, a blocked
 * probe one 32-byte block (docs/FORMAT.md); a scalable filter is read whole.
 */
#include "internal.h"

void bloom_probe_plan_for(const bloom_filter *f, uint64_t hash, bloom_probe_plan *out)
{
    if (f->layout == BLOOM_LAYOUT_SCALABLE) { /* its stages are in its directory */
        out->count = 0;
        out->length = 0;
        return;
    }
    if (f->layout == BLOOM_LAYOUT_BLOCKED) {
        out->count = 1;
        out->length = BLOOM_BLOCK_BITS / 8;
        out->offset[0] = blocked_block_index(f, hash) * (BLOOM_BLOCK_BITS / 8);
        out->mask[0] = 0;
        return;
    }
    uint64_t bits[BLOOM_MAX_NHASHES];
    classic_probe_bits(f, hash, bits);
    out->count = f->nhashes;
    out->length = 1;
    for (unsigned i = 0; i < f->nhashes; i++) {
        if (f->layout == BLOOM_LAYOUT_COUNTING) { /* counter i: nibble i & 1 of byte i / 2 */
            out->offset[i] = bits[i] >> 1;
            out->mask[i] = (uint8_t)(15u << (4 * (bits[i] & 1)));
        } else {
            out->offset[i] = bits[i] >> 3;
            out->mask[i] = (uint8_t)(1u << (bits[i] & 7));
        }
    }
}

bool bloom_probe_plan_test(const bloom_filter *f, uint64_t hash, const bloom_probe_plan *plan,
                           const uint8_t *bytes)
{
    if (f->layout == BLOOM_LAYOUT_BLOCKED)
        return blocked_block_contains(bytes, hash);
    /* classic: the probed bit; counting: the probed counter, not zero */
    unsigned all = 1;
    for (unsigned i = 0; i < plan->count; i++)
        all &= (bytes[i] & plan->mask[i]) != 0;
    return all != 0;
}
