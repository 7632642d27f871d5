/*
 * aggregates.c - bloom_agg (self-sizing and fixed-size), bloom_union_agg
 * and bloom_intersect_agg.
 *
 * The aggregate context holds only pointers and counters; what grows (the
 * builder, the filter) is allocated with sqlite3_malloc64 and released in
 * xFinal, which SQLite calls for every context it allocated, also when the
 * statement fails or is reset before the end.  An aggregate that saw no
 * non-NULL input returns NULL, like sum().
 */
#include "common.h"

#include <string.h>

/* ---- bloom_agg(x): the core's self-sizing builder at 1%, classic ---- */

#define AGG_FPR 0.01

/* The core's builder keeps the group's distinct hashes (an in-cache set,
 * then sorted partitions) and sizes the filter at the end; it is created with the
 * group's first non-NULL value, so a group of NULLs allocates nothing. */
typedef struct agg_build {
    bloom_builder *builder;
    unsigned kinds; /* BLOOM_KIND_* of the values added, given to the builder at the end */
} agg_build;

void bf_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_agg";
    (void)argc;
    uint64_t hash;
    bloom_error err;
    int type = sqlite3_value_type(argv[0]);
    if (bf_hash_typed(ctx, argv[0], type, 0, &hash) != BF_OK)
        return;
    agg_build *st = sqlite3_aggregate_context(ctx, sizeof *st);
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (st->builder == NULL &&
        bloom_builder_create(&bf_sqlite_allocator, BLOOM_LAYOUT_CLASSIC, AGG_FPR, 0, &st->builder,
                             &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    st->kinds |= bf_kind_of(type);
    if (bloom_builder_add_hash_inline(st->builder, hash, &err) != BLOOM_OK)
        bf_core_error(ctx, fn, &err);
}

void bf_agg_final(sqlite3_context *ctx)
{
    static const char fn[] = "bloom_agg";
    agg_build *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL || st->builder == NULL)
        return; /* no rows, or only NULLs: NULL */
    bloom_builder *b = st->builder;
    st->builder = NULL;
    bloom_error err;
    size_t size;
    bloom_filter f;
    /* no cancel hook: SQLite 3.40 has no sqlite3_is_interrupted; the limit
     * bounds the work, and an interrupt stops the statement between rows */
    bloom_builder_set_host(b, bf_max_filter_bytes(ctx), NULL, NULL);
    bloom_builder_add_kind(b, st->kinds, 0);
    if (bloom_builder_result_size(b, &size, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
    } else {
        uint8_t *buf = bf_alloc_result(ctx, fn, size);
        if (buf != NULL) {
            if (bloom_builder_finish(b, buf, size, &f, &err) == BLOOM_OK) {
                sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
            } else {
                sqlite3_free(buf);
                bf_core_error(ctx, fn, &err);
            }
        }
    }
    bloom_builder_destroy(b);
}

/* ---- filters built in place: bloom_agg(x, capacity, fpr) and the
 *      union/intersection aggregates ---- */

/* A filter larger than the cache misses it on every probe; collecting
 * hashes and inserting them in batches lets the core prefetch. */
enum { PENDING_FROM_BYTES = 256 * 1024 };

typedef struct agg_filter {
    uint8_t *buf; /* the result's bytes, sqlite3_malloc64'd */
    size_t size;
    bloom_filter view;
    bloom_pending *pending; /* hashes not yet inserted (large fixed-size filters) */
    unsigned kinds;         /* BLOOM_KIND_* of the values added (bloom_agg), stored at the end */
    int64_t capacity;       /* bloom_agg(x, capacity, fpr): the last row's sizing */
    double fpr;
} agg_filter;

static agg_filter *filter_state(sqlite3_context *ctx)
{
    agg_filter *st = sqlite3_aggregate_context(ctx, sizeof *st);
    if (st == NULL)
        sqlite3_result_error_nomem(ctx);
    return st;
}

/* A row's capacity and fpr, and the size they give. */
static int fixed_sizing(sqlite3_context *ctx, sqlite3_value **argv, int64_t *capacity,
                        double *fpr, uint64_t *nbits, unsigned *nhashes)
{
    static const char fn[] = "bloom_agg";
    int rc = bf_int64_arg(ctx, argv[1], fn, "capacity", capacity);
    if (rc == BF_OK)
        rc = bf_double_arg(ctx, argv[2], fn, "false-positive rate", fpr);
    if (rc == BF_NULL)
        bf_error(ctx, fn, "capacity and false-positive rate must not be null");
    if (rc != BF_OK)
        return BF_ERROR;
    bloom_error err;
    if (bloom_size_for_capacity(BLOOM_LAYOUT_CLASSIC, *capacity, *fpr, bf_max_filter_bytes(ctx),
                                nbits, nhashes, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return BF_ERROR;
    }
    return BF_OK;
}

/* The filter of the first row's capacity and fpr. */
static int fixed_init(sqlite3_context *ctx, sqlite3_value **argv, agg_filter *st)
{
    static const char fn[] = "bloom_agg";
    uint64_t nbits;
    unsigned nhashes;
    if (fixed_sizing(ctx, argv, &st->capacity, &st->fpr, &nbits, &nhashes) != BF_OK)
        return BF_ERROR;
    bloom_error err;
    size_t size = bloom_serialized_size(nbits);
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return BF_ERROR;
    if (bloom_init(buf, size, BLOOM_LAYOUT_CLASSIC, nbits, nhashes, 0, &st->view, &err) !=
        BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return BF_ERROR;
    }
    st->buf = buf;
    st->size = size;
    if (size >= PENDING_FROM_BYTES) /* without it, hashes go in one by one */
        st->pending = sqlite3_malloc64(sizeof *st->pending);
    if (st->pending != NULL)
        st->pending->n = 0;
    return BF_OK;
}

/* A later row's capacity and fpr must give the filter's size, as in
 * PostgreSQL: a group cannot be one size for some rows and another for the
 * rest.  Other arguments of the same size are accepted (as there). */
static int fixed_check(sqlite3_context *ctx, sqlite3_value **argv, agg_filter *st)
{
    if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER &&
        sqlite3_value_type(argv[2]) == SQLITE_FLOAT &&
        sqlite3_value_int64(argv[1]) == st->capacity && sqlite3_value_double(argv[2]) == st->fpr)
        return BF_OK;
    int64_t capacity;
    double fpr;
    uint64_t nbits;
    unsigned nhashes;
    if (fixed_sizing(ctx, argv, &capacity, &fpr, &nbits, &nhashes) != BF_OK)
        return BF_ERROR;
    if (nbits != st->view.nbits || nhashes != st->view.nhashes) {
        bf_error(ctx, "bloom_agg",
                 "capacity and fpr must be the same for every row: the filter has nbits %llu "
                 "and nhashes %u; capacity %lld at fpr %g needs nbits %llu and nhashes %u",
                 (unsigned long long)st->view.nbits, (unsigned)st->view.nhashes, (long long)capacity, fpr,
                 (unsigned long long)nbits, nhashes);
        return BF_ERROR;
    }
    st->capacity = capacity;
    st->fpr = fpr;
    return BF_OK;
}

void bf_agg_fixed_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return;
    agg_filter *st = filter_state(ctx);
    if (st == NULL)
        return;
    if (st->buf == NULL ? fixed_init(ctx, argv, st) != BF_OK
                        : fixed_check(ctx, argv, st) != BF_OK)
        return;
    uint64_t hash;
    int type = sqlite3_value_type(argv[0]);
    if (bf_hash_typed(ctx, argv[0], type, 0, &hash) != BF_OK)
        return;
    st->kinds |= bf_kind_of(type);
    if (st->pending == NULL) {
        bloom_add_hash(&st->view, hash);
        return;
    }
    bloom_pending_add(&st->view, st->pending, hash);
}

/* Hands the buffer to SQLite as the result; also the cleanup when the
 * statement failed (SQLite then discards the result and frees the buffer). */
static void filter_final(sqlite3_context *ctx)
{
    agg_filter *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL)
        return;
    if (st->pending != NULL) {
        bloom_pending_flush(&st->view, st->pending);
        sqlite3_free(st->pending);
        st->pending = NULL;
    }
    if (st->buf == NULL)
        return;
    uint8_t *buf = st->buf;
    st->buf = NULL;
    sqlite3_result_blob64(ctx, buf, st->size, sqlite3_free);
}

void bf_agg_fixed_final(sqlite3_context *ctx)
{
    agg_filter *st = sqlite3_aggregate_context(ctx, 0);
    if (st != NULL && st->buf != NULL) {
        /* the filter started empty: its kinds are its values' */
        bloom_kinds kinds = {(uint8_t)st->kinds, 0};
        bloom_kinds_store(&st->view, kinds);
    }
    filter_final(ctx);
}

static void combine_step(sqlite3_context *ctx, sqlite3_value **argv, const char *fn,
                         int is_union)
{
    bloom_filter in;
    int rc = bf_filter_value(ctx, argv[0], fn, &in);
    if (rc != BF_OK)
        return;
    agg_filter *st = filter_state(ctx);
    if (st == NULL)
        return;
    bloom_error err;
    if (st->buf == NULL) {
        size_t size = bloom_filter_size(&in);
        uint8_t *buf = bf_alloc_result(ctx, fn, size);
        if (buf == NULL)
            return;
        bloom_copy(&in, buf, &st->view);
        st->buf = buf;
        st->size = size;
        return;
    }
    /* In place when the result has the state's shape (members of one size
     * class); else a new buffer: a union of size classes keeps each, an
     * intersection is at the larger size (core/combine.c). */
    bloom_op op = is_union ? BLOOM_OP_UNION : BLOOM_OP_INTERSECT;
    size_t size;
    bool in_place;
    if (bloom_combine_size(&st->view, &in, op, &size, &in_place, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    uint8_t *buf = in_place ? st->buf : bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    bloom_filter out;
    if (bloom_combine(&st->view, &in, op, BLOOM_REFUSE_SATURATED, buf, size, &out, &err) !=
        BLOOM_OK) {
        /* refused before anything was written: the state is as it was */
        if (!in_place)
            sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    if (!in_place) {
        sqlite3_free(st->buf);
        st->buf = buf;
    }
    st->view = out;
    st->size = size;
}

void bf_union_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    combine_step(ctx, argv, "bloom_union_agg", 1);
}

void bf_intersect_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    combine_step(ctx, argv, "bloom_intersect_agg", 0);
}

void bf_combine_agg_final(sqlite3_context *ctx)
{
    filter_final(ctx);
}
