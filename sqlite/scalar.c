/*
 * scalar.c - the scalar SQL functions.  Each one reads its arguments
 * through values.c, so NULL handling, type errors and messages are the same
 * everywhere; a result filter is always a new buffer, never SQLite's input.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bloom_empty/bloom_empty_mk share the tail: seed and layout arguments,
 * then an empty filter of (nbits, nhashes). */
static void result_empty(sqlite3_context *ctx, const char *fn, int layout, uint64_t nbits,
                         unsigned nhashes, uint64_t seed)
{
    bloom_error err;
    size_t size = bloom_layout_size(layout, nbits);
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    bloom_filter f;
    if (bloom_init(buf, size, layout, nbits, nhashes, seed, &f, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

/* Optional trailing (seed, layout) from argv[first]; BF_NULL if either is
 * NULL, since a NULL parameter has no meaning to default to. */
static int seed_layout_args(sqlite3_context *ctx, int argc, sqlite3_value **argv, int first,
                            const char *fn, uint64_t *seed, int *layout)
{
    int64_t s = 0;
    *seed = 0;
    *layout = BLOOM_LAYOUT_CLASSIC;
    if (argc > first) {
        int rc = bf_int64_arg(ctx, argv[first], fn, "seed", &s);
        if (rc != BF_OK)
            return rc;
        *seed = (uint64_t)s;
    }
    if (argc > first + 1)
        return bf_layout_arg(ctx, argv[first + 1], fn, layout);
    return BF_OK;
}

void bf_empty(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_empty";
    int64_t capacity;
    double fpr = 0.01;
    uint64_t seed;
    int layout;
    if (bf_int64_arg(ctx, argv[0], fn, "capacity", &capacity) != BF_OK)
        return;
    if (argc > 1 && bf_double_arg(ctx, argv[1], fn, "false-positive rate", &fpr) != BF_OK)
        return;
    if (seed_layout_args(ctx, argc, argv, 2, fn, &seed, &layout) != BF_OK)
        return;
    size_t size;
    bloom_error err;
    if (bloom_empty_size(layout, capacity, fpr, bf_max_filter_bytes(ctx), &size, &err) !=
        BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    bloom_filter f;
    if (bloom_empty_init(buf, size, layout, capacity, fpr, seed, &f, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

void bf_empty_mk(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_empty_mk";
    int64_t nbits, nhashes;
    uint64_t seed;
    int layout;
    if (bf_int64_arg(ctx, argv[0], fn, "nbits", &nbits) != BF_OK ||
        bf_int64_arg(ctx, argv[1], fn, "nhashes", &nhashes) != BF_OK ||
        seed_layout_args(ctx, argc, argv, 2, fn, &seed, &layout) != BF_OK)
        return;
    bloom_error err;
    if (bloom_size_explicit(layout, nbits, nhashes, bf_max_filter_bytes(ctx), &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    result_empty(ctx, fn, layout, (uint64_t)nbits, (unsigned)nhashes, seed);
}

/* A copy of f's bytes as a new result buffer, with its view (common.h). */
uint8_t *bf_copy_filter(sqlite3_context *ctx, const char *fn, const bloom_filter *f,
                        bloom_filter *copy, size_t *size)
{
    *size = bloom_filter_size(f);
    uint8_t *buf = bf_alloc_result(ctx, fn, *size);
    if (buf != NULL)
        bloom_copy(f, buf, copy);
    return buf;
}

/* The filter's own bytes as the result (copied from the view, since the
 * argument may be a bloom_ref pointer). */
static void result_unchanged(sqlite3_context *ctx, const bloom_filter *f)
{
    sqlite3_result_blob64(ctx, f->bits - BLOOM_HEADER_SIZE, BLOOM_HEADER_SIZE + f->nbytes,
                          SQLITE_TRANSIENT);
}

/* Whether a value of class cls leaves f's stored kinds as they are (text
 * into a filter that stores none stores none: core/kinds.c). */
static int kinds_hold(const bloom_filter *f, unsigned cls)
{
    if (cls == BLOOM_KIND_TEXT && f->kinds.mask == 0)
        return 1;
    return (f->kinds.mask & cls) != 0;
}

void bf_add(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_add";
    (void)argc;
    bloom_filter f, out;
    uint64_t hash;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK)
        return;
    int type = sqlite3_value_type(argv[1]);
    int rc = bf_hash_typed(ctx, argv[1], type, f.seed, &hash);
    if (rc == BF_ERROR)
        return;
    unsigned cls = bf_kind_of(type);
    if (rc == BF_NULL || (bloom_add_is_noop(&f, hash) && kinds_hold(&f, cls))) {
        result_unchanged(ctx, &f); /* nothing to set */
        return;
    }
    size_t size;
    void *buf = bf_copy_filter(ctx, fn, &f, &out, &size);
    if (buf == NULL)
        return;
    /* before the insert: a filter's kinds count its bits as they were */
    bloom_kinds_record(&out, cls, 0);
    /* a scalable filter may grow a stage: a new buffer */
    bloom_error err;
    if (bloom_insert(&bf_sqlite_allocator, bf_max_filter_bytes(ctx), &buf, &size, &out, &hash, 1,
                     &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free); /* SQLite's memory, moved or not */
}

void bf_remove(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_remove";
    (void)argc;
    bloom_filter f, out;
    uint64_t hash;
    bloom_error err;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK)
        return;
    /* the layout first: a NULL value does not make a wrong call right */
    if (bloom_check_removable(&f, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    int rc = bf_hash_value(ctx, argv[1], f.seed, &hash);
    if (rc == BF_ERROR)
        return;
    if (rc == BF_NULL) {
        result_unchanged(ctx, &f);
        return;
    }
    size_t size;
    uint8_t *buf = bf_copy_filter(ctx, fn, &f, &out, &size);
    if (buf == NULL)
        return;
    if (bloom_remove_hash(&out, hash, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

void bf_to_classic(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_to_classic";
    (void)argc;
    bloom_filter f, out;
    bloom_error err;
    size_t size;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK)
        return;
    if (bloom_to_classic_size(&f, &size, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    if (bloom_to_classic(&f, buf, size, &out, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

void bf_contains(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_contains";
    (void)argc;
    bloom_filter parsed;
    uint64_t hash;
    int type = sqlite3_value_type(argv[1]);
    if (type == SQLITE_NULL)
        return; /* NULL is never a member, nor known not to be one */
    /* per row: the cached filter and an integer key, all inline */
    const bloom_filter *f = bf_cached_filter_arg(ctx, argv, 0);
    if (f == NULL) {
        if (bf_filter_arg(ctx, argv, 0, fn, &parsed) != BF_OK)
            return;
        f = &parsed;
    }
    if (type == SQLITE_TEXT && f->kinds.mask != 0) {
        /* a filter that records its kinds: the text read as each of them */
        const unsigned char *text = sqlite3_value_text(argv[1]);
        if (text == NULL) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        bf_text_probe t;
        bf_text_probe_init(&t, argv[1], text, sqlite3_value_bytes(argv[1]));
        int member = bf_text_probe_contains(ctx, fn, &t, f);
        if (member != BF_ERROR)
            sqlite3_result_int(ctx, member);
        return;
    }
    if (bf_hash_typed(ctx, argv[1], type, f->seed, &hash) != BF_OK)
        return;
    sqlite3_result_int(ctx, bloom_contains_hash(f, hash));
}

/* Both filter arguments, validated; BF_OK only when both are present. */
static int two_filters(sqlite3_context *ctx, sqlite3_value **argv, const char *fn,
                       bloom_filter *a, bloom_filter *b)
{
    int ra = bf_filter_arg(ctx, argv, 0, fn, a);
    if (ra == BF_ERROR)
        return BF_ERROR;
    int rb = bf_filter_arg(ctx, argv, 1, fn, b);
    if (rb == BF_ERROR)
        return BF_ERROR;
    if (ra == BF_NULL || rb == BF_NULL)
        return BF_NULL;
    return BF_OK;
}

/* a op b as a new buffer (core/combine.c: a union of size classes keeps
 * each, an intersection is at the larger size); a union that saturates
 * where neither filter was is an error, which says what to do. */
static void combine(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, int is_union)
{
    bloom_filter a, b, out;
    bloom_error err;
    if (two_filters(ctx, argv, fn, &a, &b) != BF_OK)
        return;
    bloom_op op = is_union ? BLOOM_OP_UNION : BLOOM_OP_INTERSECT;
    size_t size;
    if (bloom_combine_size(&a, &b, op, &size, NULL, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    bloom_status st = bloom_combine(&a, &b, op, BLOOM_REFUSE_SATURATED, buf, size, &out, &err);
    if (st != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

void bf_union(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    combine(ctx, argv, "bloom_union", 1);
}

void bf_intersect(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    combine(ctx, argv, "bloom_intersect", 0);
}

void bf_fold(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_fold";
    (void)argc;
    bloom_filter f, out;
    int64_t nbits;
    bloom_error err;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK ||
        bf_int64_arg(ctx, argv[1], fn, "nbits", &nbits) != BF_OK)
        return;
    if (bloom_check_fold(&f, nbits, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    size_t size = bloom_layout_size(f.layout, (uint64_t)nbits);
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    if (bloom_fold(&f, (uint64_t)nbits, buf, size, &out, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

/* SQLite turns a NaN result into NULL by itself; infinities stay REAL. */
void bf_cardinality(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bloom_filter f;
    if (bf_filter_arg(ctx, argv, 0, "bloom_cardinality", &f) == BF_OK)
        sqlite3_result_double(ctx, bloom_estimate_cardinality(&f));
}

void bf_fpr(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bloom_filter f;
    if (bf_filter_arg(ctx, argv, 0, "bloom_fpr", &f) == BF_OK)
        sqlite3_result_double(ctx, bloom_estimate_fpr(&f));
}

static void estimate_pair(sqlite3_context *ctx, sqlite3_value **argv, const char *fn,
                          bloom_status (*estimate)(const bloom_filter *, const bloom_filter *,
                                                   double *, bloom_error *))
{
    bloom_filter a, b;
    bloom_error err;
    double out;
    if (two_filters(ctx, argv, fn, &a, &b) != BF_OK)
        return;
    if (estimate(&a, &b, &out, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    if (isnan(out))
        sqlite3_result_null(ctx);
    else
        sqlite3_result_double(ctx, out);
}

void bf_intersect_cardinality(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    estimate_pair(ctx, argv, "bloom_intersect_cardinality", bloom_estimate_intersection);
}

void bf_jaccard(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    estimate_pair(ctx, argv, "bloom_jaccard", bloom_estimate_jaccard);
}

/* Shortest of %.15g..%.17g that reads back as v; JSON has no infinities
 * or NaN, so those are null. */
static void json_number(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "null");
        return;
    }
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(buf, len, "%.*g", precision, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void bf_info(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bloom_filter f;
    if (bf_filter_arg(ctx, argv, 0, "bloom_info", &f) != BF_OK)
        return;
    char fill[32], card[32], fpr[32];
    bloom_stats stats;
    bloom_get_stats(&f, &stats);
    json_number(fill, sizeof fill, stats.fill);
    json_number(card, sizeof card, stats.est_cardinality);
    json_number(fpr, sizeof fpr, stats.est_fpr);
    char *json = sqlite3_mprintf(
        "{\"layout\":\"%s\",\"nbits\":%llu,\"nhashes\":%u,\"seed\":%lld,\"nbytes\":%llu,"
        "\"bits_set\":%llu,\"fill\":%s,\"est_cardinality\":%s,\"est_fpr\":%s,"
        "\"format_version\":%u}",
        bloom_layout_name(f.layout), (unsigned long long)f.nbits, (unsigned)f.nhashes,
        (long long)bf_to_int64(f.seed),
        (unsigned long long)f.nbytes, (unsigned long long)stats.bits_set, fill, card,
        fpr, (unsigned)f.version);
    if (json == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

void bf_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int64_t seed = 0;
    uint64_t hash;
    if (argc > 1 && bf_int64_arg(ctx, argv[1], "bloom_hash", "seed", &seed) != BF_OK)
        return;
    if (bf_hash_value(ctx, argv[0], (uint64_t)seed, &hash) == BF_OK)
        sqlite3_result_int64(ctx, bf_to_int64(hash));
}

void bf_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, BLOOMFILTER_VERSION, -1, SQLITE_STATIC);
}

void bf_from_parquet(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_from_parquet";
    (void)argc;
    int type = sqlite3_value_type(argv[0]);
    if (type == SQLITE_NULL)
        return;
    if (type != SQLITE_BLOB) {
        bf_error(ctx, fn, "a Parquet bitset is a blob, got %s", type == SQLITE_TEXT ? "text" : "a number");
        return;
    }
    const void *bitset = sqlite3_value_blob(argv[0]);
    size_t len = (size_t)sqlite3_value_bytes(argv[0]);
    if (bitset == NULL && len > 0) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    bloom_error err;
    bloom_filter f;
    /* The core rejects a bad length before touching the buffer. */
    if (len == 0 || len % 32 != 0) {
        if (bloom_from_parquet(bitset, len, NULL, 0, &f, &err) != BLOOM_OK)
            bf_core_error(ctx, fn, &err);
        return;
    }
    uint64_t size = (uint64_t)BLOOM_HEADER_SIZE + len;
    uint8_t *buf = bf_alloc_result(ctx, fn, size);
    if (buf == NULL)
        return;
    if (bloom_from_parquet(bitset, len, buf, (size_t)size, &f, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

void bf_to_parquet(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_to_parquet";
    (void)argc;
    bloom_filter f;
    bloom_error err;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK)
        return;
    if (bloom_check_parquet(&f, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return;
    }
    sqlite3_result_blob64(ctx, f.bits, f.nbytes, SQLITE_TRANSIENT);
}
