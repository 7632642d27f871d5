/*
 * order.c - the total order of filters (docs/POSTGRESQL.md, "Ordering"): the
 * parameters first, then the bit array.  Hosts with ordered types (the
 * PostgreSQL btree operator class) compare headers with this function and
 * the bit arrays with memcmp, so they can stop before reading any bit.
 */
#include "internal.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

int bloom_compare_headers(const uint8_t *a, const uint8_t *b)
{
    /* format version, layout id, hash id, nhashes: one byte each */
    for (int i = 4; i < 8; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    /* the seed in the order of the signed bigint SQL shows */
    int64_t sa = (int64_t)load_le64(a + 16), sb = (int64_t)load_le64(b + 16);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    int c = cmp_u64(load_le64(a + 24), load_le64(b + 24));
    if (c != 0)
        return c;
    /* flags and reserved bytes are zero in valid filters; compared last so
     * that the order stays total over any 32 bytes */
    int m = memcmp(a + 8, b + 8, 8);
    return m < 0 ? -1 : m > 0;
}
