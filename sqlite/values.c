/*
 * values.c - from sqlite3_value to what the core takes: canonical hashes
 * of SQL values, validated filter views, checked parameters, and errors.
 */
#include "common.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static void *sqlite_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return sqlite3_malloc64((sqlite3_uint64)size);
}

static void sqlite_release(void *ctx, void *ptr)
{
    (void)ctx;
    sqlite3_free(ptr);
}

const bloom_allocator bf_sqlite_allocator = {
    .alloc = sqlite_alloc, .release = sqlite_release, .ctx = NULL};

void bf_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    char *msg = detail ? sqlite3_mprintf("%s: %s", fn, detail) : NULL;
    if (msg)
        sqlite3_result_error(ctx, msg, -1);
    else
        sqlite3_result_error_nomem(ctx);
    sqlite3_free(msg);
    sqlite3_free(detail);
}

void bf_core_error(sqlite3_context *ctx, const char *fn, const bloom_error *err)
{
    if (err->status == BLOOM_E_NOMEM)
        sqlite3_result_error_nomem(ctx);
    else if (bloom_status_hint(err->status) != NULL)
        bf_error(ctx, fn, "%s: %s. %s", bloom_status_name(err->status), err->message,
                 bloom_status_hint(err->status));
    else
        bf_error(ctx, fn, "%s: %s", bloom_status_name(err->status), err->message);
}

static const char *type_name(int type)
{
    switch (type) {
    case SQLITE_INTEGER:
        return "an integer";
    case SQLITE_FLOAT:
        return "a real";
    case SQLITE_TEXT:
        return "text";
    case SQLITE_BLOB:
        return "a blob";
    }
    return "null";
}

int bf_hash_other(sqlite3_context *ctx, sqlite3_value *v, int type, uint64_t seed, uint64_t *out)
{
    switch (type) {
    case SQLITE_FLOAT:
        /* The core's canonical bytes of an integral double are the integer's,
         * so 5.0 and 5 are one member, as they are one value to SQL. */
        *out = bloom_hash_double(sqlite3_value_double(v), seed);
        return BF_OK;
    case SQLITE_TEXT: {
        /* Text is hashed as its UTF-8 bytes whatever the database encoding;
         * the length comes from SQLite, since text may hold NUL bytes. */
        const unsigned char *p = sqlite3_value_text(v);
        if (p == NULL) {
            sqlite3_result_error_nomem(ctx);
            return BF_ERROR;
        }
        *out = bloom_hash_bytes(p, (size_t)sqlite3_value_bytes(v), seed);
        return BF_OK;
    }
    case SQLITE_BLOB: {
        const void *p = sqlite3_value_blob(v);
        int n = sqlite3_value_bytes(v);
        if (p == NULL && n > 0) {
            sqlite3_result_error_nomem(ctx);
            return BF_ERROR;
        }
        *out = bloom_hash_bytes(p, (size_t)n, seed);
        return BF_OK;
    }
    }
    return BF_NULL;
}

/* A filter parsed and copied once per statement by bloom_ref(): a pointer
 * value (SQL NULL to anything else), which SQLite copies by reference where
 * it would copy a blob's bytes, e.g. a scalar subquery's result on every
 * row.  The bytes are ours: the blob bloom_ref read may not outlive it. */
typedef struct filter_ref {
    bloom_filter view;
    uint8_t bytes[];
} filter_ref;

static const char ref_type[] = "bloomfilter.ref";

void bf_ref(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_ref";
    (void)argc;
    bloom_filter f;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK)
        return;
    filter_ref *ref = sqlite3_malloc64(sizeof *ref + bloom_filter_size(&f));
    if (ref == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    bloom_copy(&f, ref->bytes, &ref->view);
    sqlite3_result_pointer(ctx, ref, ref_type, sqlite3_free);
}

/* The bytes of a filter argument, or (from bloom_ref) its parsed view in
 * *parsed, which then needs no check. */
static int filter_bytes(sqlite3_context *ctx, sqlite3_value *v, const char *fn,
                        const uint8_t **p, int *n, const bloom_filter **parsed)
{
    int type = sqlite3_value_type(v);
    *parsed = NULL;
    if (type == SQLITE_NULL) {
        const filter_ref *ref = sqlite3_value_pointer(v, ref_type);
        if (ref == NULL)
            return BF_NULL;
        *parsed = &ref->view;
        return BF_OK;
    }
    if (type != SQLITE_BLOB) {
        bf_error(ctx, fn, "a bloom filter is a blob, got %s", type_name(type));
        return BF_ERROR;
    }
    *p = sqlite3_value_blob(v);
    *n = sqlite3_value_bytes(v);
    if (*p == NULL && *n > 0) {
        sqlite3_result_error_nomem(ctx);
        return BF_ERROR;
    }
    return BF_OK;
}

/* A filter from a value: a bloom_ref's parsed view, or the blob validated
 * here (*from_blob then says so, for callers that cache the result). */
static int read_filter(sqlite3_context *ctx, sqlite3_value *v, const char *fn,
                       bloom_filter *out, int *from_blob)
{
    const uint8_t *p = NULL;
    const bloom_filter *parsed;
    int n = 0;
    *from_blob = 0;
    int rc = filter_bytes(ctx, v, fn, &p, &n, &parsed);
    if (rc != BF_OK)
        return rc;
    if (parsed != NULL) {
        *out = *parsed;
        return BF_OK;
    }
    bloom_error err;
    if (bloom_parse(p, (size_t)n, out, &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return BF_ERROR;
    }
    *from_blob = 1;
    return BF_OK;
}

int bf_filter_value(sqlite3_context *ctx, sqlite3_value *v, const char *fn, bloom_filter *out)
{
    int from_blob;
    return read_filter(ctx, v, fn, out, &from_blob);
}

/* A filter bigger than the L2 cache costs a memory miss a probe.  SQLite's
 * copy of a blob is 8- or 16-byte aligned, so half the 32-byte blocks of a
 * blocked filter straddle two lines (two misses), and small pages add a TLB
 * miss to most probes: a filter probed as often as its bytes / 128 times
 * (the copy then costs about what those probes do) gets a copy of its own,
 * aligned, in huge pages where the kernel has them.  A statement that
 * probes it a few times never pays for the copy. */
enum { COPY_MIN_BYTES = 1 << 20, COPY_BYTES_PER_CALL = 128, LINE = 64 };

static uint64_t copy_after(const bloom_filter *f)
{
    return f->nbytes >= COPY_MIN_BYTES && f->layout != BLOOM_LAYOUT_SCALABLE
               ? f->nbytes / COPY_BYTES_PER_CALL
               : UINT64_MAX; /* never */
}

void bf_filter_cache_copy(bf_filter_cache *cache)
{
    sqlite3_uint64 len = BLOOM_HEADER_SIZE + cache->view.nbytes;
    uint8_t *raw = sqlite3_malloc64(len + 2 * LINE);
    if (raw == NULL)
        return; /* probes go on from SQLite's bytes */
    uint8_t *start = raw + (LINE - ((uintptr_t)raw + BLOOM_HEADER_SIZE) % LINE);
    bloom_advise_huge_pages(raw, (size_t)len + 2 * LINE); /* before the first touch */
    memcpy(start, cache->view.bits - BLOOM_HEADER_SIZE, (size_t)len);
    cache->view.bits = start + BLOOM_HEADER_SIZE;
    cache->copy = raw;
}

static void free_filter_cache(void *p)
{
    bf_filter_cache *cache = p;
    sqlite3_free(cache->copy);
    sqlite3_free(cache);
}

int bf_filter_arg(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn,
                  bloom_filter *out)
{
    const bloom_filter *cached = bf_cached_filter_arg(ctx, argv, i);
    if (cached != NULL) {
        *out = *cached;
        return BF_OK;
    }
    int from_blob;
    int rc = read_filter(ctx, argv[i], fn, out, &from_blob);
    if (rc != BF_OK || !from_blob)
        return rc;
    bf_filter_cache *cache = sqlite3_malloc(sizeof *cache);
    if (cache != NULL) { /* without a cache the next call parses again */
        cache->view = *out;
        cache->calls = 0;
        cache->copy = NULL;
        cache->copy_after = copy_after(out);
        sqlite3_set_auxdata(ctx, i, cache, free_filter_cache);
    }
    return BF_OK;
}

int bf_int64_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, const char *what,
                 int64_t *out)
{
    int type = sqlite3_value_type(v);
    if (type == SQLITE_NULL)
        return BF_NULL;
    if (type == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(v);
        return BF_OK;
    }
    if (type == SQLITE_FLOAT) {
        bloom_error err;
        if (bloom_int64_from_double(sqlite3_value_double(v), what, out, &err) == BLOOM_OK)
            return BF_OK;
        bf_core_error(ctx, fn, &err);
        return BF_ERROR;
    }
    bf_error(ctx, fn, "%s must be an integer, got %s", what, type_name(type));
    return BF_ERROR;
}

int bf_double_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, const char *what,
                  double *out)
{
    int type = sqlite3_value_type(v);
    if (type == SQLITE_NULL)
        return BF_NULL;
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        *out = sqlite3_value_double(v);
        return BF_OK;
    }
    bf_error(ctx, fn, "%s must be a number, got %s", what, type_name(type));
    return BF_ERROR;
}

int bf_layout_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, int *out)
{
    int type = sqlite3_value_type(v);
    if (type == SQLITE_NULL)
        return BF_NULL;
    if (type != SQLITE_TEXT) {
        bf_error(ctx, fn, "layout must be 'classic', 'blocked', 'counting' or 'scalable', got %s",
                 type_name(type));
        return BF_ERROR;
    }
    const unsigned char *name = sqlite3_value_text(v);
    if (name == NULL) {
        sqlite3_result_error_nomem(ctx);
        return BF_ERROR;
    }
    int n = sqlite3_value_bytes(v);
    int layout = bloom_layout_from_name((const char *)name, (size_t)n);
    if (layout < 0) {
        /* %.*s stops at a NUL byte, which is what a message should show. */
        bf_error(ctx, fn,
                 "unknown layout '%.*s': expected 'classic', 'blocked', 'counting' or 'scalable'",
                 n > 64 ? 64 : n, (const char *)name);
        return BF_ERROR;
    }
    *out = layout;
    return BF_OK;
}

uint64_t bf_max_filter_bytes(sqlite3_context *ctx)
{
    uint64_t limit = (uint64_t)sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    /* SQLite applies the limit to the whole record of a row: leave room for
     * the record header and a few small columns beside the filter */
    uint64_t margin = limit / 8 < BF_ROW_MARGIN ? limit / 8 : BF_ROW_MARGIN;
    return limit - margin;
}

uint8_t *bf_alloc_result(sqlite3_context *ctx, const char *fn, uint64_t size)
{
    bloom_error err;
    if (bloom_check_host_size(size, bf_max_filter_bytes(ctx), &err) != BLOOM_OK) {
        bf_core_error(ctx, fn, &err);
        return NULL;
    }
    uint8_t *buf = sqlite3_malloc64(size);
    if (buf == NULL)
        sqlite3_result_error_nomem(ctx);
    else
        bloom_advise_huge_pages(buf, size); /* a large filter fills with fewer faults */
    return buf;
}
