/*
 * stats.c - everything bloom_info reports, in one pass over the bits.
 */
#include "internal.h"

#include <math.h>

void bloom_get_stats(const bloom_filter *f, bloom_stats *out)
{
    uint64_t set = 0;
    double fpr;
    if (f->layout == BLOOM_LAYOUT_SCALABLE || f->layout == BLOOM_LAYOUT_COUNTING) {
        /* the single functions (a pass each over the stages or counters) */
        out->bits_set = bloom_popcount(f);
        out->fill = (double)out->bits_set / (double)f->nbits;
        out->est_fpr = bloom_estimate_fpr(f);
        out->est_cardinality = bloom_estimate_cardinality(f);
        return;
    }
    if (f->layout == BLOOM_LAYOUT_BLOCKED) {
        /* per block, the product of its eight words' fills (as
         * blocked_estimate_fpr), the words' popcounts summed on the way */
        uint64_t nblocks = f->nbits / BLOOM_BLOCK_BITS;
        double sum = 0;
        for (uint64_t b = 0; b < nblocks; b++) {
            const uint8_t *block = f->bits + b * 32;
            double product = 1;
            for (int w = 0; w < 8; w++) {
                uint64_t word_set = popcount_bytes(block + 4 * w, 4);
                set += word_set;
                product *= (double)word_set / 32.0;
            }
            sum += product;
        }
        fpr = sum / (double)nblocks;
    } else {
        set = popcount_bytes(f->bits, f->nbytes);
        fpr = pow((double)set / (double)f->nbits, f->nhashes);
    }
    out->bits_set = set;
    out->fill = (double)set / (double)f->nbits;
    out->est_fpr = fpr;
    out->est_cardinality = set >= f->nbits ? INFINITY
                                           : -((double)f->nbits / f->nhashes) *
                                                 log1p(-(double)set / (double)f->nbits);
}
