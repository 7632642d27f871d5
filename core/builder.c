/*
 * builder.c - the self-sizing builder: accept hashes without knowing how
 * many distinct values will come, then size the filter for the count seen.
 *
 * It keeps every distinct 64-bit hash:
 * - a front hash set (open addressing, up to FRONT_MAX_SLOTS: 32 KiB, in L1
 *   beside a table scan) absorbs repeats; when half full it is spilled, and
 *   once repeats are rare it steps aside: hashes then wait in a batch of
 *   PENDING and are appended in a burst;
 * - behind it, partitions (builder_store.c): one until SPLIT_AT distinct
 *   hashes, then 256 by the top byte.  A partition is a sorted, distinct
 *   prefix and a tail of appended hashes, in chunks carved from slabs
 *   (huge pages where the system offers them; growth never copies).  When
 *   it has doubled (eight-fold after a pass that found nearly all new
 *   hashes) a pass (builder_sort.c) sorts the tail (spread into L1-sized
 *   buckets, a counting sort each) and merges it into the prefix; after a
 *   pass that found mostly repeats, the tail's known hashes are first
 *   dropped by lookup in the prefix; after one that found nearly all new,
 *   the next is put off while a bitmap shows the partition nearly all
 *   distinct still.
 * The final filter (sized by builder_sizing.c, without a last pass when
 * bounds on the count fix its size class) is a function of the set of
 * hashes alone, so partial builders merged in any order give the serial
 * result bit for bit.  builder_state.c serializes a builder.
 */
#include "builder_internal.h"

#include <inttypes.h>

enum {
    FRONT_MIN_SLOTS = 8,
    FRONT_MAX_SLOTS = 1 << 12 /* 32 KiB: stays in L1 beside a table scan */
};

static bloom_status check_settings(int layout, double fpr, bloom_error *err)
{
    if (bloom_layout_name(layout) == NULL)
        return bloom_fail(err, BLOOM_E_INVALID_ARGUMENT, "unknown layout %d", layout);
    return bloom_check_fpr(fpr, err);
}

bloom_status bloom_builder_create(const bloom_allocator *alloc, int layout, double fpr,
                                  uint64_t seed, bloom_builder **out, bloom_error *err)
{
    bloom_status st = check_settings(layout, fpr, err);
    if (st != BLOOM_OK)
        return st;
    bloom_builder *b = alloc->alloc(alloc->ctx, sizeof *b);
    if (b == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for a builder");
    memset(b, 0, sizeof *b);
    b->alloc = *alloc;
    b->layout = layout;
    b->fpr = fpr;
    b->seed = seed;
    *out = b;
    return bloom_ok(err);
}

void bloom_builder_destroy(bloom_builder *b)
{
    if (b == NULL)
        return;
    builder_release_store(b);
    builder_release(b, b->scratch);
    builder_release(b, b->fill_buckets);
    builder_release(b, b->front);
    builder_release(b, b);
}

int bloom_builder_layout(const bloom_builder *b)
{
    return b->layout;
}

double bloom_builder_fpr(const bloom_builder *b)
{
    return b->fpr;
}

uint64_t bloom_builder_seed(const bloom_builder *b)
{
    return b->seed;
}

/* ---- the front set ---- */

static inline size_t front_slot(uint64_t hash, size_t slots)
{
    /* Fibonacci hashing: any bits of the hash spread over the table */
    return (size_t)((hash * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & (slots - 1);
}

static void front_insert(uint64_t *front, size_t slots, uint64_t hash)
{
    size_t i = front_slot(hash, slots);
    while (front[i] != 0)
        i = (i + 1) & (slots - 1);
    front[i] = hash;
}

static bloom_status front_resize(bloom_builder *b, size_t slots, bloom_error *err)
{
    uint64_t *table = builder_allocate(b, slots * sizeof *table);
    if (table == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu builder slots", slots);
    memset(table, 0, slots * sizeof *table);
    for (size_t i = 0; b->front && i < b->front_slots; i++)
        if (b->front[i] != 0)
            front_insert(table, slots, b->front[i]);
    builder_release(b, b->front);
    b->front = table;
    b->front_slots = slots;
    return BLOOM_OK;
}

/* Move everything the front holds into the partitions and empty it. */
static bloom_status spill(bloom_builder *b, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    for (size_t i = 0; i < b->front_slots && st == BLOOM_OK; i++)
        if (b->front[i] != 0)
            st = store_append(b, b->front[i], err);
    if (st == BLOOM_OK && b->front_zero)
        st = store_append(b, 0, err);
    if (st != BLOOM_OK)
        return st;
    b->front_zero = false;
    b->front_used = 0;
    if (b->front)
        memset(b->front, 0, b->front_slots * sizeof *b->front);
    return BLOOM_OK;
}

static bloom_status front_full(bloom_builder *b, bloom_error *err)
{
    if (b->front_slots < FRONT_MAX_SLOTS)
        return front_resize(b, b->front_slots * 2, err);
    /* Fewer repeats than new values since the last spill: the column has
     * more distinct values than the front holds, and a probe there only
     * delays the append (bench-pg: bloom_agg against sum()).  The
     * partitions deduplicate on their own. */
    bool bypass = b->front_hits < b->front_used;
    b->front_hits = 0;
    bloom_status st = spill(b, err);
    b->bypass = st == BLOOM_OK && bypass; /* with the store there to take them */
    if (b->bypass)
        b->run.next = b->run.end = b->store->pending; /* the next add opens the run */
    return st;
}

/* Appends the hashes that bypassed the front, a batch at a time: the
 * partitions' cache lines are then touched in a burst, not between the
 * host's per-row work, which evicts them. */
static bloom_status flush_pending(bloom_builder *b, bloom_error *err)
{
    store *s = b->store;
    if (s == NULL || b->run.next == NULL)
        return BLOOM_OK;
    unsigned n = (unsigned)(b->run.next - s->pending);
    b->run.next = s->pending;
    if (b->sized)
        b->run.end = b->run.next; /* the run stays closed: see builder_mark_sized */
    /* store_append with the store and its mask in locals: a host built
     * with -fno-strict-aliasing (PostgreSQL) would read them again after
     * every hash stored */
    uint64_t mask = s->mask;
    for (unsigned i = 0; i < n; i++) {
        uint64_t hash = s->pending[i];
        if (tail_append(&s->tails[(hash >> (64 - PART_BITS)) & mask], hash))
            continue;
        bloom_status st = store_append_slow(b, hash, err);
        if (st != BLOOM_OK) {
            /* the adds of hashes i.. returned BLOOM_OK: they wait in the
             * run, closed so that the next add comes through here */
            memmove(s->pending, s->pending + i, (n - i) * sizeof *s->pending);
            b->run.next = b->run.end = s->pending + (n - i);
            return st;
        }
        mask = s->mask; /* the store may have split */
    }
    return BLOOM_OK;
}

bloom_status bloom_builder_add_hash(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    b->sized = false;
    if (b->bypass) {
        /* the run is full, or was closed when the builder was sized */
        store *s = b->store;
        if (b->run.next == s->pending + PENDING) {
            bloom_status st = flush_pending(b, err);
            if (st != BLOOM_OK)
                return st;
        }
        *b->run.next++ = hash;
        b->run.end = s->pending + PENDING;
        return BLOOM_OK;
    }
    if (hash == 0) {
        b->front_zero = true;
        return BLOOM_OK;
    }
    if (b->front == NULL) {
        bloom_status st = front_resize(b, FRONT_MIN_SLOTS, err);
        if (st != BLOOM_OK)
            return st;
    }
    size_t mask = b->front_slots - 1, i = front_slot(hash, b->front_slots);
    /* Two slots at once: at most half full, that settles most lookups
     * without the branch on each slot, which a repeat-heavy column
     * mispredicts often. */
    uint64_t first = b->front[i], second = b->front[(i + 1) & mask];
    if ((first == hash) | (second == hash)) {
        b->front_hits++;
        return BLOOM_OK;
    }
    if (first != 0) {
        i = (i + 1) & mask;
        for (;;) {
            uint64_t there = b->front[i];
            if (there == hash) {
                b->front_hits++;
                return BLOOM_OK;
            }
            if (there == 0)
                break;
            i = (i + 1) & mask;
        }
    }
    b->front[i] = hash;
    if (++b->front_used * 2 > b->front_slots)
        return front_full(b, err);
    return BLOOM_OK;
}

/* ---- the whole set ---- */

/* If the front ever spilled, it is spilled again. */
bloom_status builder_settle(bloom_builder *b, bloom_error *err)
{
    if (b->store == NULL)
        return BLOOM_OK;
    bloom_status st = flush_pending(b, err);
    if (st == BLOOM_OK && (b->front_used || b->front_zero))
        st = spill(b, err);
    for (unsigned i = 0; i < NPARTS && st == BLOOM_OK; i++)
        st = part_dedup(b, &b->store->parts[i], err);
    return st;
}

uint64_t builder_stored_count(const bloom_builder *b)
{
    uint64_t n = b->front_used + b->front_zero;
    for (unsigned i = 0; b->store && i < NPARTS; i++)
        n += part_count(&b->store->parts[i]);
    return n;
}

bloom_status builder_visit_all(const bloom_builder *b, batch_visitor visit, void *ctx,
                               bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    if (b->store && b->run.next != NULL && b->run.next != b->store->pending)
        st = visit(ctx, b->store->pending, (size_t)(b->run.next - b->store->pending), err);
    for (unsigned i = 0; b->store && i < NPARTS && st == BLOOM_OK; i++) {
        const part *p = &b->store->parts[i];
        for (const chunk *c = p->first; c != NULL && st == BLOOM_OK; c = c->next) {
            /* once a chunk: filling, merging or serializing 10^9 hashes takes seconds */
            builder_check_interrupts(b);
            st = visit(ctx, c->hashes, chunk_length(p, c), err);
        }
    }
    for (size_t i = 0; i < b->front_slots && st == BLOOM_OK; i++)
        if (b->front[i] != 0)
            st = visit(ctx, &b->front[i], 1, err);
    if (st == BLOOM_OK && b->front_zero) {
        static const uint64_t zero = 0;
        st = visit(ctx, &zero, 1, err);
    }
    return st;
}

static bloom_status add_to_filter(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    (void)err;
    bloom_add_hashes(ctx, hashes, n);
    return BLOOM_OK;
}

void builder_add_all(const bloom_builder *b, bloom_filter *f)
{
    builder_visit_all(b, add_to_filter, f, NULL);
}

typedef struct region_fill {
    bloom_filter *f;
    classic_regions regions;
} region_fill;

static bloom_status add_by_region(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    region_fill *fill = ctx;
    (void)err;
    classic_add_by_region(fill->f, &fill->regions, hashes, n);
    return BLOOM_OK;
}

/* The final filter's bits: a classic filter of 8 to 64 MiB a region at a
 * time (a region's bits stay in the cache while they are set, where
 * fetching each bit's line ahead still waits on memory), with buckets of the filter's size for as long as the
 * fill; without them if they cannot be had.  (A blocked filter gains
 * nothing: the partitions are by the hash's top byte, which picks the
 * block, so each partition's blocks are already neighbours.) */
static void fill_filter(bloom_builder *b, bloom_filter *f)
{
    region_fill fill;
    memset(&fill, 0, sizeof fill);
    fill.f = f;
    uint32_t *slots = NULL;
    if (b->fill_buckets != NULL) { /* a fill the host left by longjmp */
        builder_release(b, b->fill_buckets);
        b->fill_buckets = NULL;
    }
    if (classic_regions_fit(f))
        slots = builder_allocate(b, (size_t)(f->nbits >> CLASSIC_REGION_BITS) * CLASSIC_REGION_STRIDE *
                                        sizeof(uint32_t));
    if (slots == NULL) {
        builder_add_all(b, f);
        return;
    }
    classic_regions_start(f, &fill.regions, slots);
    b->fill_buckets = slots;
    builder_visit_all(b, add_by_region, &fill, NULL);
    classic_regions_flush(f, &fill.regions);
    b->fill_buckets = NULL;
    builder_release(b, fill.regions.slots);
}

void bloom_builder_set_host(bloom_builder *b, uint64_t max_bytes, void (*check_interrupts)(void *),
                            void *interrupt_ctx)
{
    b->max_bytes = max_bytes;
    b->check_interrupts = check_interrupts;
    b->interrupt_ctx = interrupt_ctx;
}

static bloom_status add_to_builder(void *ctx, const uint64_t *hashes, size_t n, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    for (size_t i = 0; i < n && st == BLOOM_OK; i++)
        st = bloom_builder_add_hash(ctx, hashes[i], err);
    return st;
}

bloom_status bloom_builder_merge(bloom_builder *dst, const bloom_builder *src, bloom_error *err)
{
    if (dst->layout != src->layout || dst->fpr != src->fpr || dst->seed != src->seed)
        return bloom_fail(err, BLOOM_E_MISMATCH,
                          "left builder has layout %s, fpr %g, seed %" PRIu64
                          "; right has layout %s, fpr %g, seed %" PRIu64,
                          bloom_layout_name(dst->layout), dst->fpr, dst->seed,
                          bloom_layout_name(src->layout), src->fpr, src->seed);
    bloom_status st = builder_visit_all(src, add_to_builder, dst, err);
    if (st != BLOOM_OK)
        return st;
    bloom_kinds_merge(&dst->kinds, src->kinds);
    return bloom_ok(err);
}

void bloom_builder_add_kind(bloom_builder *b, unsigned cls, uint32_t type_oid)
{
    bloom_kinds_add(&b->kinds, cls, type_oid);
}

bloom_kinds bloom_builder_kinds(const bloom_builder *b)
{
    return b->kinds;
}

bloom_status bloom_builder_distinct(bloom_builder *b, uint64_t *out, bloom_error *err)
{
    bloom_status st = builder_settle(b, err);
    if (st != BLOOM_OK)
        return st;
    *out = builder_stored_count(b);
    return bloom_ok(err);
}

bloom_status bloom_builder_result_size(bloom_builder *b, size_t *out, bloom_error *err)
{
    bloom_status st = BLOOM_OK;
    if (!b->sized) {
        st = flush_pending(b, err);
        if (st == BLOOM_OK && !builder_size_from_bounds(b))
            st = builder_settle(b, err);
        if (st == BLOOM_OK && !b->sized)
            st = builder_choose_size(b, err);
    }
    if (st != BLOOM_OK)
        return st;
    *out = b->result_bytes;
    return bloom_ok(err);
}

bloom_status bloom_builder_finish(bloom_builder *b, void *buf, size_t len, bloom_filter *out,
                                  bloom_error *err)
{
    size_t need;
    bloom_status st = bloom_builder_result_size(b, &need, err);
    if (st != BLOOM_OK)
        return st;
    if (b->layout == BLOOM_LAYOUT_SCALABLE)
        st = bloom_empty_init(buf, len, BLOOM_LAYOUT_SCALABLE, (int64_t)b->nbits, b->fpr, b->seed,
                              out, err);
    else
        st = bloom_init(buf, len, b->layout, b->nbits, b->nhashes, b->seed, out, err);
    if (st != BLOOM_OK)
        return st;
    fill_filter(b, out);
    /* scalable: the stage holds the distinct hashes, whatever the order it
     * saw them in (one it already reported was not counted by the adds) */
    if (b->layout == BLOOM_LAYOUT_SCALABLE)
        scalable_set_last_count(out, builder_stored_count(b));
    bloom_kinds_store(out, b->kinds);
    return bloom_ok(err);
}
