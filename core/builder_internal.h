/*
 * builder_internal.h - the self-sizing builder's data structures, shared by
 * its files; not installed.
 *
 *   builder.c         the API, the front hash set, settling and visiting
 *   builder_store.c   the partition store: chunks carved from slabs,
 *                     partitions, the split into 256, the scratch
 *   builder_sort.c    sorting, deduplicating and merging a partition
 *   builder_state.c   the serialized builder state (docs/FORMAT.md)
 *   builder_sizing.c  the final filter's size: from bounds on the count, or by
 *                     trial
 *
 * builder.c's header comment describes the method.
 */
#ifndef BLOOMFILTER_CORE_BUILDER_INTERNAL_H
#define BLOOMFILTER_CORE_BUILDER_INTERNAL_H

#include "internal.h"

#include <stddef.h>

BLOOM_HIDDEN_BEGIN

enum {
    PART_BITS = 8,           /* partitions by the top bits of the hash... */
    NPARTS = 1 << PART_BITS, /* ... 256 of them */
    CHUNK_MIN = 16,          /* hashes in a partition's first chunk */
    CHUNK_CLASSES = 9,       /* chunk sizes double up to 16 << 8 = 4096 hashes (32 KiB) */
    DEDUP_MIN = 64,          /* a partition is deduplicated from this many hashes on */
    PENDING = 64,            /* hashes past the front are appended in batches of this */
    DEDUP_BUCKET = 2048,     /* hashes per sort after the spread: 16 KiB, in L1 */
    DEDUP_BUCKET_BITS = 8    /* at most 256 buckets (larger tails sort larger buckets) */
};

typedef struct chunk {
    struct chunk *next;
    uint32_t capacity; /* hashes */
    uint32_t used;     /* hashes, for every chunk but its partition's last */
    uint64_t hashes[];
} chunk;

/* Where a partition's next hash goes: apart from the rest of the
 * partition, so the 256 of them that rows touch fit in 64 cache lines. */
typedef struct tail {
    uint64_t *cursor, *end; /* the free slots of the partition's last chunk */
} tail;

typedef struct part {
    tail *t;
    chunk *first, *last;
    size_t before_last;     /* hashes in the chunks before last */
    size_t settled;         /* count after the last dedup: equal to it means sorted, distinct */
    size_t dedup_at;        /* dedup at the next chunk boundary from this count on */
    unsigned nchunks;
    bool repeats;           /* the last dedup found mostly repeats */
    bool fresh;             /* the last dedup found nearly all new */
} part;

typedef struct slab {
    struct slab *next;
    uint64_t align; /* chunks after the header stay 8-byte aligned */
} slab;

/* Where the hashes behind the front live: allocated on the first spill,
 * so the many small builders of a GROUP BY never pay for it. */
typedef struct store {
    tail tails[NPARTS];
    /* One partition at first: a store of a few thousand hashes needs no
     * 256 chunk chains (their first chunks alone would outweigh it).  Past
     * SPLIT_AT hashes, 256 by top byte, so each pass stays small, in cache. */
    uint64_t mask; /* partition of a hash: (hash >> (64 - PART_BITS)) & mask */
    uint64_t pending[PENDING]; /* hashes past the front, not yet appended: up to
                                * the builder's run.next */
    unsigned skip; /* top bits of the hash its partition fixes: 0, then 8 */
    part parts[NPARTS];
    chunk *free_chunks[CHUNK_CLASSES];
    slab *slabs;
    uint8_t *slab_cursor;
    size_t slab_left, next_slab_size;
    size_t bucket_sizes[1 << DEDUP_BUCKET_BITS], bucket_fill[1 << DEDUP_BUCKET_BITS];
} store;

struct bloom_builder {
    /* first: bloom_builder_add_hash_inline writes here.  While the builder
     * bypasses its front and is not sized, [pending, next) are hashes to
     * append and end is pending + PENDING; else next == end (NULL or at a
     * sized builder's last hash) */
    bloom_builder_run run;
    bloom_allocator alloc;
    int layout;
    unsigned nhashes; /* with nbits below (beside layout: a GROUP BY has many builders) */
    double fpr;
    uint64_t seed;
    uint64_t *front; /* 0 marks a free slot; the hash 0 is front_zero */
    size_t front_slots, front_used;
    bool front_zero;
    bool bypass; /* repeats are rare: hashes go straight to the partitions */
    bool sized;  /* nbits/nhashes/result_bytes are valid for the current set */
    uint64_t front_hits; /* repeats the front absorbed since its last spill */
    struct store *store; /* NULL until the front first spills */
    /* dedup and sort scratch, kept across calls */
    void *scratch;
    size_t scratch_size;
    void *fill_buckets; /* the final fill's buckets while it runs (a host may
                         * leave it by longjmp: destroy releases them) */
    uint64_t max_bytes;                /* the host's largest filter (0: the format's) */
    void (*check_interrupts)(void *);  /* may not return (PostgreSQL raises) */
    void *interrupt_ctx;
    uint64_t nbits; /* scalable: the first stage's capacity, the distinct count */
    size_t result_bytes; /* the final filter's serialized size */
    bloom_kinds kinds;   /* of the values added, TEXT included (not normalized) */
};
_Static_assert(offsetof(struct bloom_builder, run) == 0,
               "bloom_builder_add_hash_inline reads the run at the builder's address");

/* ---- memory (the caller's allocator) ---- */

static inline void *builder_allocate(const bloom_builder *b, size_t size)
{
    void *p = b->alloc.alloc(b->alloc.ctx, size);
    if (p != NULL)
        bloom_advise_huge_pages(p, size);
    return p;
}

/* The size is for the hashes so far: the next add must go through
 * bloom_builder_add_hash, which forgets it. */
static inline void builder_mark_sized(bloom_builder *b)
{
    b->sized = true;
    b->run.end = b->run.next;
}

static inline void builder_check_interrupts(const bloom_builder *b)
{
    if (b->check_interrupts != NULL)
        b->check_interrupts(b->interrupt_ctx);
}

static inline void builder_release(const bloom_builder *b, void *ptr)
{
    if (ptr)
        b->alloc.release(b->alloc.ctx, ptr);
}

/* builder_store.c: grows the scratch to size bytes, keeping its first
 * `keep` bytes. */
bloom_status builder_reserve_scratch_keeping(bloom_builder *b, size_t size, size_t keep,
                                             bloom_error *err);
bloom_status builder_reserve_scratch(bloom_builder *b, size_t size, bloom_error *err);
/* Releases every slab and the store itself. */
void builder_release_store(bloom_builder *b);

/* ---- the partition store (builder_store.c) ---- */

static inline size_t chunk_length(const part *p, const chunk *c)
{
    return c == p->last ? (size_t)(p->t->cursor - c->hashes) : c->used;
}

static inline size_t part_count(const part *p)
{
    return p->last ? p->before_last + (size_t)(p->t->cursor - p->last->hashes) : 0;
}

/* Rewrites a partition's chunks with the n hashes of src, releasing the
 * chunks it no longer needs. */
void part_rewrite(bloom_builder *b, part *p, const uint64_t *src, size_t n);
/* Shortens a partition to its first n hashes. */
void part_truncate(bloom_builder *b, part *p, size_t n);

/* Reads a partition's hashes in order, from a given position on. */
typedef struct part_reader {
    const part *p;
    const chunk *c;
    size_t i, len;
} part_reader;

void part_reader_start(part_reader *r, const part *p, size_t from);
/* The next run of hashes, at most `want`; 0 at the end. */
size_t part_reader_next(part_reader *r, const uint64_t **out, size_t want);

/* A lower bound on a partition's distinct hashes, by a bitmap of `words`
 * words (the caller's, distinct_bitmap_words of its count). */
size_t distinct_bitmap_words(size_t n);
uint64_t part_distinct_at_least(const part *p, uint64_t *bitmap, size_t words);

/* Appends a hash whose partition's last chunk is full (or before the
 * store exists): makes room by a dedup pass, a split or a new chunk. */
bloom_status store_append_slow(bloom_builder *b, uint64_t hash, bloom_error *err);

/* The path of every row once the front steps aside: one store. */
/* Appends to a partition's last chunk if it has room. */
static inline bool tail_append(tail *t, uint64_t hash)
{
    uint64_t *cursor = t->cursor;
    if (cursor == t->end)
        return false;
    /* 256 append streams are more than a hardware prefetcher follows: ask
     * for the partition's next line now, so the store that reaches it
     * (hundreds of rows on) does not wait for it */
    BLOOM_PREFETCH_WRITE(cursor + 8);
    *cursor = hash;
    t->cursor = cursor + 1;
    return true;
}

static inline bloom_status store_append(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    if (b->store != NULL &&
        tail_append(&b->store->tails[(hash >> (64 - PART_BITS)) & b->store->mask], hash))
        return BLOOM_OK;
    return store_append_slow(b, hash, err);
}

/* ---- sorting and deduplicating (builder_sort.c) ---- */

/* Sort and deduplicate a[0, n) with tmp[0, n) beside it; the result is
 * left at the start of a, and its length returned. */
size_t sort_unique(uint64_t *a, uint64_t *tmp, size_t n);
/* Leave the partition sorted and distinct. */
bloom_status part_dedup(bloom_builder *b, part *p, bloom_error *err);

/* ---- the whole set (builder.c) ---- */

/* Everything deduplicated: the front is a set, and the partitions are each
 * sorted and distinct. */
bloom_status builder_settle(bloom_builder *b, bloom_error *err);
/* Hashes held (distinct after builder_settle). */
uint64_t builder_stored_count(const bloom_builder *b);

/* Calls visit on every stored hash, in batches: the front's (distinct) and
 * the partitions' (distinct after settle). */
typedef bloom_status (*batch_visitor)(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err);
bloom_status builder_visit_all(const bloom_builder *b, batch_visitor visit, void *ctx,
                               bloom_error *err);

/* Adds every stored hash to f (settled, or sized by
 * builder_size_from_bounds: then a hash may come more than once). */
void builder_add_all(const bloom_builder *b, bloom_filter *f);

/* ---- the final size (builder_sizing.c) ---- */

/* Sets b->nbits and b->nhashes for the settled set. */
bloom_status builder_choose_size(bloom_builder *b, bloom_error *err);
/* Sets them without settling when bounds on the distinct count already fix
 * the size; false (nothing set) when they do not.  The pending hashes must
 * have been appended. */
bool builder_size_from_bounds(bloom_builder *b);

BLOOM_HIDDEN_END

#endif
