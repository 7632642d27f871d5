/*
 * builder_store.c - where the builder's hashes live behind its front set:
 * partitions of chunks carved from slabs, and the builder's scratch.
 *
 * One partition until SPLIT_AT distinct hashes, then 256 by the top byte.
 * A partition is a sorted, distinct prefix and a tail of appended hashes,
 * in chunks carved from slabs (huge pages where the system offers them;
 * growth never copies).  When a partition has doubled, builder_sort.c's
 * part_dedup sorts its tail into its prefix.
 */
#include "builder_internal.h"

enum {
    SPLIT_AT = 1 << 14, /* distinct hashes (128 KiB) before 256 partitions */
    SLAB_MIN = 32 << 10,
    SLAB_MAX = 8 << 20
};

/* ---- the scratch ---- */

bloom_status builder_reserve_scratch_keeping(bloom_builder *b, size_t size, size_t keep,
                                             bloom_error *err)
{
    if (size <= b->scratch_size)
        return BLOOM_OK;
    /* a quarter more than asked: passes grow, but the scratch is kept (the
     * sanitized tests ask for no slack, so an overrun is caught) */
#ifndef BLOOM_SCRATCH_EXACT
    size += size / 4;
#endif
    void *grown = builder_allocate(b, size);
    if (grown == NULL)
        return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu bytes of builder scratch", size);
    if (keep > 0)
        memcpy(grown, b->scratch, keep);
    builder_release(b, b->scratch);
    b->scratch = grown;
    b->scratch_size = size;
    return BLOOM_OK;
}

bloom_status builder_reserve_scratch(bloom_builder *b, size_t size, bloom_error *err)
{
    return builder_reserve_scratch_keeping(b, size, 0, err);
}

/* ---- chunks, carved from slabs ---- */

static chunk *chunk_get(bloom_builder *b, unsigned cls, bloom_error *err)
{
    store *st = b->store;
    chunk *c = st->free_chunks[cls];
    if (c != NULL) {
        st->free_chunks[cls] = c->next;
    } else {
        size_t capacity = (size_t)CHUNK_MIN << cls, size = sizeof(chunk) + capacity * 8;
        if (st->slab_left < size) {
            size_t slab_size = st->next_slab_size;
            if (slab_size < sizeof(slab) + size)
                slab_size = sizeof(slab) + size;
            slab *s = builder_allocate(b, slab_size);
            if (s == NULL) {
                bloom_fail(err, BLOOM_E_NOMEM, "out of memory for %zu bytes of builder hashes",
                           slab_size);
                return NULL;
            }
            s->next = st->slabs;
            st->slabs = s;
            st->slab_cursor = (uint8_t *)(s + 1);
            st->slab_left = slab_size - sizeof(slab);
            if (st->next_slab_size < SLAB_MAX)
                st->next_slab_size *= 2;
        }
        c = (chunk *)st->slab_cursor;
        st->slab_cursor += size;
        st->slab_left -= size;
        c->capacity = (uint32_t)capacity;
    }
    c->next = NULL;
    c->used = 0;
    return c;
}

static void chunk_put(bloom_builder *b, chunk *c)
{
    unsigned cls = 0;
    while (((size_t)CHUNK_MIN << cls) < c->capacity)
        cls++;
    c->next = b->store->free_chunks[cls];
    b->store->free_chunks[cls] = c;
}

void builder_release_store(bloom_builder *b)
{
    for (slab *s = b->store ? b->store->slabs : NULL; s != NULL;) {
        slab *next = s->next;
        builder_release(b, s);
        s = next;
    }
    builder_release(b, b->store);
    b->store = NULL;
}

/* ---- partitions ---- */

static void release_chunks(bloom_builder *b, chunk *c)
{
    while (c != NULL) {
        chunk *next = c->next;
        chunk_put(b, c);
        c = next;
    }
}

/* Makes c, holding `held` hashes after `before` in the chunks ahead of it
 * (nchunks in all), the partition's last chunk; releases those after it. */
static void part_end_at(bloom_builder *b, part *p, chunk *c, size_t before, unsigned nchunks,
                        size_t held)
{
    release_chunks(b, c->next);
    c->next = NULL;
    p->last = c;
    p->t->cursor = c->hashes + held;
    p->t->end = c->hashes + c->capacity;
    p->before_last = before;
    p->nchunks = nchunks;
}

void part_rewrite(bloom_builder *b, part *p, const uint64_t *src, size_t n)
{
    chunk *c = p->first;
    size_t before = 0;
    unsigned nchunks = 1;
    while (n - before > c->capacity) {
        c->used = c->capacity;
        memcpy(c->hashes, src + before, (size_t)c->capacity * 8);
        before += c->capacity;
        c = c->next;
        nchunks++;
    }
    memcpy(c->hashes, src + before, (n - before) * 8);
    part_end_at(b, p, c, before, nchunks, n - before);
}

void part_truncate(bloom_builder *b, part *p, size_t n)
{
    chunk *c = p->first;
    size_t before = 0;
    unsigned nchunks = 1;
    while (n - before > chunk_length(p, c)) {
        before += c->used;
        c = c->next;
        nchunks++;
    }
    part_end_at(b, p, c, before, nchunks, n - before);
}

void part_reader_start(part_reader *r, const part *p, size_t from)
{
    r->p = p;
    r->c = p->first;
    r->len = r->c ? chunk_length(p, r->c) : 0;
    while (r->c != NULL && from >= r->len) {
        from -= r->len;
        r->c = r->c->next;
        r->len = r->c ? chunk_length(p, r->c) : 0;
    }
    r->i = from;
}

size_t part_reader_next(part_reader *r, const uint64_t **out, size_t want)
{
    while (r->c != NULL && r->i == r->len) {
        r->c = r->c->next;
        r->len = r->c ? chunk_length(r->p, r->c) : 0;
        r->i = 0;
    }
    if (r->c == NULL)
        return 0;
    size_t n = r->len - r->i < want ? r->len - r->i : want;
    *out = r->c->hashes + r->i;
    r->i += n;
    return n;
}

/* Chains a chunk (twice the size of the last, up to the largest) to the
 * partition's end. */
static bloom_status part_add_chunk(bloom_builder *b, part *p, bloom_error *err)
{
    unsigned cls = p->nchunks < CHUNK_CLASSES ? p->nchunks : CHUNK_CLASSES - 1;
    chunk *c = chunk_get(b, cls, err);
    if (c == NULL)
        return BLOOM_E_NOMEM;
    if (p->last != NULL) {
        p->last->used = (uint32_t)(p->t->cursor - p->last->hashes);
        p->before_last += p->last->used;
        p->last->next = c;
    } else {
        p->first = c;
        p->dedup_at = DEDUP_MIN;
    }
    p->last = c;
    p->t->cursor = c->hashes;
    p->t->end = c->hashes + c->capacity;
    p->nchunks++;
    return BLOOM_OK;
}

/* The one partition, sorted and distinct, becomes 256 by top byte: each
 * takes its range of the sorted hashes. */
static bloom_status split_store(bloom_builder *b, bloom_error *err)
{
    store *s = b->store;
    part *one = &s->parts[0];
    size_t n = part_count(one);
    bloom_status st = builder_reserve_scratch(b, n * 8, err);
    if (st != BLOOM_OK)
        return st;
    uint64_t *sorted = b->scratch;
    part_reader r;
    const uint64_t *h;
    size_t len, at = 0;
    for (part_reader_start(&r, one, 0); (len = part_reader_next(&r, &h, SIZE_MAX)) > 0; at += len)
        memcpy(sorted + at, h, len * 8);
    release_chunks(b, one->first);
    memset(one, 0, sizeof *one);
    one->t = &s->tails[0];
    memset(one->t, 0, sizeof *one->t);
    s->mask = NPARTS - 1;
    s->skip = PART_BITS;
    for (size_t i = 0; i < n && st == BLOOM_OK;) {
        part *p = &s->parts[sorted[i] >> (64 - PART_BITS)];
        size_t end = i;
        while (end < n && (sorted[end] >> (64 - PART_BITS)) == (sorted[i] >> (64 - PART_BITS)))
            end++;
        for (; i < end && st == BLOOM_OK;) {
            if (p->t->cursor == p->t->end)
                st = part_add_chunk(b, p, err);
            size_t room = (size_t)(p->t->end - p->t->cursor), take = end - i < room ? end - i : room;
            if (st == BLOOM_OK) {
                memcpy(p->t->cursor, sorted + i, take * 8);
                p->t->cursor += take;
                i += take;
            }
        }
        p->settled = part_count(p);
        p->dedup_at = 2 * p->settled > DEDUP_MIN ? 2 * p->settled : DEDUP_MIN;
    }
    return st;
}

/* Words of the bitmap part_distinct_at_least needs for n hashes: 8 to 16
 * bits a hash. */
size_t distinct_bitmap_words(size_t n)
{
    size_t words = 1;
    while (words * 8 < n)
        words *= 2;
    return words;
}

/* A lower bound on a partition's distinct hashes without sorting them:
 * each sets one bit of a bitmap of 8 to 16 bits a hash, and the set bits
 * are at most the distinct hashes, whatever the hashes (94-97% of them for
 * hashes that spread).  Its settled prefix, sorted and distinct, is
 * another. */
uint64_t part_distinct_at_least(const part *p, uint64_t *bitmap, size_t words)
{
    memset(bitmap, 0, words * 8);
    const uint64_t mask = words * 64 - 1;
    part_reader r;
    const uint64_t *h;
    size_t len;
    for (part_reader_start(&r, p, 0); (len = part_reader_next(&r, &h, SIZE_MAX)) > 0;)
        for (size_t i = 0; i < len; i++)
            bitmap[(h[i] & mask) >> 6] |= UINT64_C(1) << (h[i] & 63);
    uint64_t ones = popcount_bytes((const uint8_t *)bitmap, words * 8);
    return ones > p->settled ? ones : p->settled;
}

/* Whether a partition whose last pass found nearly all new hashes still
 * holds nearly none twice: the bitmap's bound leaves at most an eighth of
 * them repeats, so a pass would free little and sort the rest for nothing
 * (at 10^7 distinct values such passes sorted a quarter of them to a
 * half).  Its next pass is then due as after a pass that found all new;
 * the final count and bloom_builder_distinct still sort it all. */
static bool part_still_distinct(bloom_builder *b, part *p)
{
    size_t n = part_count(p), words = distinct_bitmap_words(n);
    if (!p->fresh || b->store->mask == 0 || builder_reserve_scratch(b, words * 8, NULL) != BLOOM_OK)
        return false;
    return n - part_distinct_at_least(p, b->scratch, words) <= n / 8;
}

/* A partition's last chunk is full: deduplicate it if it has doubled since
 * last time, else chain another chunk. */
static bloom_status part_make_room(bloom_builder *b, part *p, bloom_error *err)
{
    if (p->last != NULL && part_count(p) >= p->dedup_at && part_still_distinct(b, p)) {
        p->dedup_at = 8 * part_count(p);
    } else if (p->last != NULL && part_count(p) >= p->dedup_at) {
        bloom_status st = part_dedup(b, p, err);
        if (st == BLOOM_OK && b->store->mask == 0 && p->settled >= SPLIT_AT) {
            st = split_store(b, err);
            return st; /* the caller picks the hash's partition again */
        }
        if (st != BLOOM_OK || p->t->cursor != p->t->end)
            return st;
    }
    return part_add_chunk(b, p, err);
}

bloom_status store_append_slow(bloom_builder *b, uint64_t hash, bloom_error *err)
{
    if (b->store == NULL) {
        b->store = builder_allocate(b, sizeof *b->store);
        if (b->store == NULL)
            return bloom_fail(err, BLOOM_E_NOMEM, "out of memory for builder partitions");
        memset(b->store, 0, sizeof *b->store);
        b->store->next_slab_size = SLAB_MIN;
        for (unsigned i = 0; i < NPARTS; i++)
            b->store->parts[i].t = &b->store->tails[i];
    }
    part *p = &b->store->parts[(hash >> (64 - PART_BITS)) & b->store->mask];
    while (p->t->cursor == p->t->end) {
        bloom_status st = part_make_room(b, p, err);
        if (st != BLOOM_OK)
            return st;
        p = &b->store->parts[(hash >> (64 - PART_BITS)) & b->store->mask];
    }
    *p->t->cursor++ = hash;
    return BLOOM_OK;
}
