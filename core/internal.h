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
 * forwarding, and hashing an int64 would wait on it. */
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

/* binary64 fields, as their IEEE-754 bits little-endian */
static inline double load_le_double(const uint8_t *p)
{
    uint64_t v = load_le64(p);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static inline void store_le_double(uint8_t *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    store_le64(p, v);
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

/* Six bytes of value kinds (format.c): the mask, a zero byte, the type OID
 * little-endian, in the form bloom_kinds_store writes; `at` numbers the
 * first byte in the messages. */
bloom_status bloom_check_kinds(const uint8_t *p, unsigned at, bloom_bytes where,
                               bloom_kinds *out, bloom_error *err);
/* Write k, normalized, as those six bytes (kinds.c). */
void bloom_kinds_write(uint8_t *p, bloom_kinds k);

/* Layout kernels (layout_classic.c, layout_blocked.c; counting, scalable
 * below). */
void classic_add(bloom_filter *f, uint64_t hash);
bool classic_contains(const bloom_filter *f, uint64_t hash);
void classic_add_many(bloom_filter *f, const uint64_t *hashes, size_t n);
double classic_estimate_fpr(const bloom_filter *f);
/* The k bit positions a value of this hash sets, in probe order. */
void classic_probe_bits(const bloom_filter *f, uint64_t hash, uint64_t *bits);
void classic_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out);
/* Filling a classic filter beyond the L2 cache a region at a time: each
 * position waits in its 256 KiB region's bucket, and a full bucket sets its
 * bits while the region stays in L2 (a line comes from memory about once per
 * 16 of its positions, not once per position).  A hash's first position is
 * its top bits, the ones the builder's partitions share, so it is set at
 * once: the builder's hashes come a partition at a time, and its 64 KiB of
 * the filter stay in cache.  For power-of-two sizes of CLASSIC_REGIONS_MIN
 * to CLASSIC_REGIONS_MAX regions (8 to 64 MiB: smaller filters gain
 * nothing, larger ones would scatter to too many buckets); the caller gives
 * the buckets, CLASSIC_REGION_STRIDE offsets a region. */
enum {
    CLASSIC_REGION_BITS = 21, /* 256 KiB of the filter */
    CLASSIC_REGIONS_MIN = 32,
    CLASSIC_REGIONS_MAX = 256,
    CLASSIC_REGION_SLOTS = 1 << 16, /* 256 KiB of offsets, the region's size (half: twice the flushes) */
    CLASSIC_REGION_STRIDE = CLASSIC_REGION_SLOTS + 48 /* buckets start on different cache sets */
};
typedef struct classic_regions {
    uint32_t *slots; /* region r's bucket: slots + r * CLASSIC_REGION_STRIDE */
    uint32_t *end[CLASSIC_REGIONS_MAX]; /* where region r's next offset goes */
} classic_regions;
bool classic_regions_fit(const bloom_filter *f);
void classic_regions_start(const bloom_filter *f, classic_regions *r, uint32_t *slots);
void classic_add_by_region(bloom_filter *f, classic_regions *r, const uint64_t *hashes, size_t n);
/* Sets the bits still waiting in the buckets. */
void classic_regions_flush(bloom_filter *f, classic_regions *r);

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

/* Bits set (popcount.c): in nbytes bytes; in `words` little-endian words
 * of a and b combined (word w: combined_word); and, for blocked filters,
 * the sum over blocks of the product of the 8 word fills (32-bit words),
 * as bloom_estimate_fpr forms it, the bits set in *set. */
static inline uint64_t combined_word(bloom_op op, const uint8_t *a, const uint8_t *b, uint64_t w)
{
    uint64_t x = load_le64(a + 8 * w), y = load_le64(b + 8 * w);
    return op == BLOOM_OP_UNION ? x | y : x & y;
}
/* One 64-bit word of a blocked filter's block (two of its 32-bit words)
 * into the block's product of word fills and its bits set, in the order
 * bloom_estimate_fpr multiplies them (combine.c, popcount.c). */
static inline void blocked_word_fills(uint64_t x, double *product, uint64_t *set)
{
    unsigned lo = (unsigned)__builtin_popcountll(x & 0xffffffffu),
             hi = (unsigned)__builtin_popcountll(x >> 32);
    *set += lo + hi;
    *product *= (double)lo / 32.0;
    *product *= (double)hi / 32.0;
}
uint64_t popcount_bytes(const uint8_t *p, uint64_t nbytes);
uint64_t popcount_combined(bloom_op op, const uint8_t *a, const uint8_t *b, uint64_t words);
double block_fills_combined(bloom_op op, const uint8_t *a, const uint8_t *b, uint64_t words,
                            uint64_t *set);

/* Counting layout (layout_counting.c): counter i is the nibble
 * bits[i >> 1] >> (4 * (i & 1)), the classic layout's bit i. */
static inline unsigned counter_get(const uint8_t *counters, uint64_t i)
{
    return (unsigned)(counters[i >> 1] >> (4 * (i & 1))) & 15u;
}

static inline void counter_set(uint8_t *counters, uint64_t i, unsigned v)
{
    unsigned shift = 4 * (unsigned)(i & 1);
    counters[i >> 1] = (uint8_t)((counters[i >> 1] & ~(15u << shift)) | (v & 15u) << shift);
}

/* The bytes of m counters: ceil(m / 16) 64-bit words. */
static inline uint64_t counter_bytes(uint64_t m)
{
    return (m + 15) / 16 * 8;
}

void counting_add(bloom_filter *f, uint64_t hash);
bool counting_contains(const bloom_filter *f, uint64_t hash);
void counting_contains_many(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out);
/* Which of the 64 counters [64 w, 64 w + 64) are not zero, as the bits of
 * a word: the classic filter of the same set, word w. */
uint64_t counting_presence_word(const bloom_filter *f, uint64_t w);
/* Counters of a counter word (16) that are not zero. */
uint64_t counting_nonzero_count(uint64_t word);
/* Counter word w (16 counters) op the counters of src stretched by factor
 * (counter i of the result is counter floor(i / factor) of src): the
 * saturating sum (union) or the minimum (intersection). */
uint64_t counting_sum_word(uint64_t a, uint64_t b);
uint64_t counting_min_word(uint64_t a, uint64_t b);
uint64_t counting_stretch_word(const bloom_filter *src, uint64_t factor, uint64_t w);
uint64_t counting_fold_word(const bloom_filter *src, uint64_t factor, uint64_t w);

/* Word w of the filter's set bits: its bit array for classic and blocked,
 * the counters that are not zero for counting. */
static inline uint64_t presence_word(const bloom_filter *f, uint64_t w)
{
    if (f->layout == BLOOM_LAYOUT_COUNTING)
        return counting_presence_word(f, w);
    return load_le64(f->bits + 8 * w);
}

/* Words of presence: ceil(nbits / 64). */
static inline uint64_t presence_words(const bloom_filter *f)
{
    return (f->nbits + 63) / 64;
}

/* Stretching (stretch.c): word w of src stretched by factor (classic and
 * blocked: the bits; counting: use counting_stretch_word). */
uint64_t stretch_word(const bloom_filter *src, uint64_t factor, uint64_t w);

/* ---- scalable filters (layout_scalable.c) ---- */

/* One stage: a classic or blocked filter inside a scalable one (or a whole
 * classic, blocked or counting filter read as one stage). */
typedef struct stage {
    bloom_filter f;  /* its layout, nhashes, seed, nbits, nbytes and bits */
    uint64_t capacity; /* values it is sized for; 0 without growth */
    uint64_t count;    /* values added to it; 0 without growth */
} stage;

typedef struct stack {
    double fpr, ratio; /* the growth: target rate and tightening ratio; 0 without */
    unsigned growth;   /* capacity factor from one stage to the next; 0 without */
    unsigned nstages;
    bool is_scalable;  /* read from a scalable filter (else a filter as one stage) */
    stage stages[BLOOM_MAX_STAGES];
} stack;

/* The stages of f: a parsed scalable filter's, or f itself as one stage. */
void stack_read(const bloom_filter *f, stack *out);
/* Validation of a scalable filter's bytes after its header (format.c calls
 * it with the header's fields in *out): full also checks padding bits. */
bloom_status scalable_parse(const uint8_t *p, size_t len, bloom_filter *out, bool full,
                            bloom_error *err);
/* What a scalable header alone allows (bloom_parse_header). */
bloom_status scalable_check_header(const uint8_t *p, size_t len, uint64_t nbits,
                                   bloom_error *err);
void scalable_add(bloom_filter *f, uint64_t hash);
bool scalable_add_is_noop(const bloom_filter *f, uint64_t hash);
bool scalable_contains(const bloom_filter *f, uint64_t hash);
uint64_t scalable_popcount(const bloom_filter *f);
double scalable_estimate_fpr(const bloom_filter *f);
double scalable_estimate_cardinality(const bloom_filter *f);
bloom_status scalable_empty_size(int64_t capacity, double fpr, uint64_t max_bytes, size_t *size,
                                 bloom_error *err);
bloom_status scalable_empty_init(void *buf, size_t len, uint64_t capacity, double fpr,
                                 uint64_t seed, bloom_filter *out, bloom_error *err);
/* Write a scalable filter's header, stack header and directory from a
 * stack description (stage bits pointers ignored) into buf; the stages'
 * arrays follow, zeroed; *out views it and st->stages[i].f.bits point at
 * them.  Returns the size written; 0 if it does not match len. */
size_t stack_size(const stack *st);
void stack_write(uint8_t *buf, uint64_t seed, stack *st, bloom_filter *out);
/* Record the counts of st's stages (a stack read from f) into f's bytes. */
void stack_store_counts(const bloom_filter *f, const stack *st);
/* Set the count of a scalable filter's last stage (the builder: its distinct count). */
void scalable_set_last_count(bloom_filter *f, uint64_t count);

/* The values two filters of sizes that divide have in common, estimated
 * without folding the larger (filter.c): INFINITY when either is saturated. */
double estimate_common_across_sizes(const bloom_filter *large, const bloom_filter *small);
/* The exact classic size for n values at p with k probes: the least m
 * with (1 - e^(-kn/m))^k <= p, as a double (sizing.c). */
double classic_exact_bits(double n, double fpr, unsigned k);

/* Folding (fold.c).  fold_word: word w of f folded by factor (1: the word
 * itself); it reads only words >= w, so it can fold in place. */
uint64_t fold_word(const bloom_filter *f, uint64_t factor, uint64_t w);
/* Ratio of f's size to nbits, in bits (classic) or blocks (blocked). */
uint64_t fold_factor(const bloom_filter *f, uint64_t nbits);
void fold_preimage_ones(const bloom_filter *large, const bloom_filter *small, uint64_t *ones_total,
                        uint64_t *ones_over_set);
/* Whether `smaller` bits divide `larger` bits in the layout's unit. */
bool sizes_divide(int layout, uint64_t larger, uint64_t smaller);

/* The first set bit of bits[0, nbytes) at or past used_bits, padding the
 * format says is zero; UINT64_MAX when there is none (format.c).  The
 * caller words the error: a filter parsed per row formats nothing. */
uint64_t bloom_first_padding_bit(const uint8_t *bits, uint64_t nbytes, uint64_t used_bits);

/* Rewrite the nbits field of a serialized header (format.c). */
void header_set_nbits(uint8_t *header, uint64_t nbits);

BLOOM_HIDDEN_END

#endif
