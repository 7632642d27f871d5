/*
 * internal.h - helpers shared by the core's .c files; not installed.
 */
#ifndef BLOOMFILTER_CORE_INTERNAL_H
#define BLOOMFILTER_CORE_INTERNAL_H

#include "bloom.h"

#include <string.h>

BLOOM_HIDDEN_BEGIN

/* Every multi-byte field of the format is little-endian, whatever the host.
 * On a little-endian host the helpers are one load or store: writing eight
 * bytes one at a time and reading them back as a word would stall store
 * forwarding (it made hashing an int64 six times slower). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BLOOM_HOST_LE 1
#else
#define BLOOM_HOST_LE 0
#endif

static inline uint64_t load_le64(const uint8_t *p)
{
    if (BLOOM_HOST_LE) {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

static inline void store_le64(uint8_t *p, uint64_t v)
{
    if (BLOOM_HOST_LE) {
        memcpy(p, &v, sizeof v);
        return;
    }
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t load_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

#if defined(__GNUC__) || defined(__clang__)
#define BLOOM_PREFETCH_WRITE(p) __builtin_prefetch((p), 1, 1)
#define BLOOM_PREFETCH_READ(p) __builtin_prefetch((p), 0, 3)
#else
#define BLOOM_PREFETCH_WRITE(p) ((void)(p))
#define BLOOM_PREFETCH_READ(p) ((void)(p))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define BLOOM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BLOOM_PRINTF(f, a)
#endif

/* Fill err (if any) and return status. */
bloom_status bloom_fail(bloom_error *err, bloom_status status, const char *fmt, ...)
    BLOOM_PRINTF(3, 4);

static inline bloom_status bloom_ok(bloom_error *err)
{
    if (err) {
        err->status = BLOOM_OK;
        err->message[0] = '\0';
    }
    return BLOOM_OK;
}

/* The identifying fields a filter's header and a builder state's share
 * (format.c): format version, layout id, hash id.  `where` names the bytes
 * in the messages: BLOOM_BYTES_FILTER or BLOOM_BYTES_STATE. */
typedef enum bloom_bytes { BLOOM_BYTES_FILTER, BLOOM_BYTES_STATE } bloom_bytes;
bloom_status bloom_check_ids(unsigned version, unsigned layout, unsigned hash_id,
                             bloom_bytes where, bloom_error *err);

/* Layout kernels (layout_classic.c, layout_blocked.c). */
void classic_add(bloom_filter *f, uint64_t hash);
bool classic_contains(const bloom_filter *f, uint64_t hash);
void classic_add_many(bloom_filter *f, const uint64_t *hashes, size_t n);
double classic_estimate_fpr(const bloom_filter *f);
/* The k bit positions a value of this hash sets, in probe order. */
void classic_probe_bits(const bloom_filter *f, uint64_t hash, uint64_t *bits);
void classic_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out);

void blocked_add(bloom_filter *f, uint64_t hash);
bool blocked_contains(const bloom_filter *f, uint64_t hash);
void blocked_add_many(bloom_filter *f, const uint64_t *hashes, size_t n);
double blocked_estimate_fpr(const bloom_filter *f);
/* The block a value of this hash lives in, and the test of that block
 * alone (32 bytes, wherever they were read into). */
uint64_t blocked_block_index(const bloom_filter *f, uint64_t hash);
bool blocked_block_contains(const uint8_t *block, uint64_t hash);
void blocked_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out);
/* Expected false-positive rate of a blocked filter of nblocks blocks holding
 * n values, by the Poisson mixture over block loads. */
double blocked_model_fpr(double n, double nblocks);

uint64_t popcount_bytes(const uint8_t *p, uint64_t nbytes);

/* Folding (fold.c).  fold_word: word w of f folded by factor (1: the word
 * itself); it reads only words >= w, so it can fold in place. */
uint64_t fold_word(const bloom_filter *f, uint64_t factor, uint64_t w);
/* Ratio of f's size to nbits, in bits (classic) or blocks (blocked). */
uint64_t fold_factor(const bloom_filter *f, uint64_t nbits);
void fold_preimage_ones(const bloom_filter *large, const bloom_filter *small, uint64_t *ones_total,
                        uint64_t *ones_over_set);
/* Whether `smaller` bits divide `larger` bits in the layout's unit. */
bool sizes_divide(int layout, uint64_t larger, uint64_t smaller);
/* Fold f to nbits (checked by the caller) in its own buffer, header
 * (at f->bits - BLOOM_HEADER_SIZE) included. */
void fold_in_place(bloom_filter *f, uint64_t nbits);

/* Rewrite the nbits field of a serialized header (format.c). */
void header_set_nbits(uint8_t *header, uint64_t nbits);

BLOOM_HIDDEN_END

#endif
