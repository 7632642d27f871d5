/*
 * probe_batch.c - many probes of one filter at a time.  A probe of a filter
 * larger than the cache waits for memory; probing a batch whose lines were
 * prefetched ahead lets those waits overlap (the layouts' kernels hold the
 * pipelines: layout_classic.c, layout_blocked.c).
 */
#include "internal.h"

void bloom_contains_hashes(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out)
{
    if (f->layout == BLOOM_LAYOUT_BLOCKED) {
        blocked_contains_many(f, hashes, n, out);
    } else if (f->layout == BLOOM_LAYOUT_CLASSIC) {
        classic_contains_many(f, hashes, n, out);
    } else if (f->layout == BLOOM_LAYOUT_COUNTING) {
        counting_contains_many(f, hashes, n, out);
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = bloom_contains_hash(f, hashes[i]);
    }
}

size_t bloom_contains_first(const bloom_filter *f, const uint64_t *hashes, size_t n, bool answer)
{
    enum { PASS = 256 };
    bool out[PASS];
    for (size_t from = 0; from < n; from += PASS) {
        size_t m = n - from < PASS ? n - from : PASS;
        bloom_contains_hashes(f, hashes + from, m, out);
        for (size_t i = 0; i < m; i++)
            if (out[i] == answer)
                return from + i;
    }
    return n;
}
