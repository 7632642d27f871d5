/*
 * common.h - what the SQLite wrapper's files share: the SQLite API as a
 * loadable extension sees it (or as the core of an application sees it,
 * under SQLITE_CORE), the argument helpers and the SQL functions.
 */
#ifndef BLOOMFILTER_SQLITE_COMMON_H
#define BLOOMFILTER_SQLITE_COMMON_H

#include "bloom.h"

#ifdef SQLITE_CORE
#include <sqlite3.h>
#else
#include <sqlite3ext.h>
/* The one sqlite3_api pointer is defined by SQLITE_EXTENSION_INIT1 in
 * extension.c; every other file refers to it. */
SQLITE_EXTENSION_INIT3
#endif

/* The least SQLite: 3.31.0, the first with SQLITE_INNOCUOUS, with which
 * every function is registered.  Checked here against the headers and by
 * sqlite3_bloomfilter_init against the library that loads it. */
#define BF_MIN_SQLITE_VERSION "3.31.0"
#define BF_MIN_SQLITE_VERSION_NUMBER 3031000
#if SQLITE_VERSION_NUMBER < BF_MIN_SQLITE_VERSION_NUMBER
#error "bloomfilter needs SQLite 3.31.0 or later (SQLITE_INNOCUOUS): these sqlite3.h headers are older"
#endif

#include <stdint.h>

/* What an argument helper found: a usable value, SQL NULL (the function's
 * result is NULL), or an error already set as the function's result. */
enum { BF_ERROR = -1, BF_NULL = 0, BF_OK = 1 };

/* Errors: "<function>: <message>" as the result of ctx. */
void bf_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A core failure: out of memory becomes SQLITE_NOMEM, anything else the
 * core's message prefixed with the function and the kind of failure, and
 * followed by the status's hint if it has one. */
void bf_core_error(sqlite3_context *ctx, const char *fn, const bloom_error *err);

/* The canonical hash of a value of the given type, other than an integer
 * (docs/HASHING.md); BF_NULL for SQL NULL, which is never a member. */
int bf_hash_other(sqlite3_context *ctx, sqlite3_value *v, int type, uint64_t seed, uint64_t *out);

/* The canonical hash of any value whose sqlite3_value_type() the caller
 * has; an integer, the usual key, is hashed inline (a per-row call saved). */
static inline int bf_hash_typed(sqlite3_context *ctx, sqlite3_value *v, int type, uint64_t seed,
                                uint64_t *out)
{
    if (type == SQLITE_INTEGER) {
        *out = bloom_hash_int64(sqlite3_value_int64(v), seed);
        return BF_OK;
    }
    return bf_hash_other(ctx, v, type, seed, out);
}

/* The same, the type read here. */
static inline int bf_hash_value(sqlite3_context *ctx, sqlite3_value *v, uint64_t seed,
                                uint64_t *out)
{
    return bf_hash_typed(ctx, v, sqlite3_value_type(v), seed, out);
}

/* The class of values a value of this SQLite type is (BLOOM_KIND_*), as an
 * add records it: INTEGER and REAL numbers, TEXT text, BLOB bytes. */
static inline unsigned bf_kind_of(int type)
{
    return type == SQLITE_TEXT ? BLOOM_KIND_TEXT
           : type == SQLITE_BLOB ? BLOOM_KIND_BYTES
                                 : BLOOM_KIND_NUMBER;
}

/* A TEXT probe read as the kinds of values a filter holds (text_probe.c,
 * docs/HASHING.md "What a text probe checks"): its bytes and, read once
 * when a filter holds numbers, the number SQLite's comparison with an
 * INTEGER or REAL column reads it as; their hashes under the last seed. */
typedef struct bf_text_probe {
    sqlite3_value *value; /* the caller's, protected or not: read through a copy */
    const unsigned char *text;
    int len;
    int number; /* -1 not read yet, 0 not a number, SQLITE_INTEGER or SQLITE_FLOAT */
    sqlite3_int64 i;
    double r;
    int hashed; /* text_hash (and number_hash, if a number) are under seed */
    uint64_t seed, text_hash, number_hash;
} bf_text_probe;

/* value is TEXT; text and len its UTF-8 bytes, which must outlive t. */
void bf_text_probe_init(bf_text_probe *t, sqlite3_value *value, const unsigned char *text, int len);
/* The hashes (*n, 0 to 2) to test in a filter whose stored kinds are mask:
 * the text's when mask is 0 or has TEXT, the number's when mask has NUMBER
 * and the text reads as one.  SQLITE_NOMEM when the reading fails. */
int bf_text_probe_hashes(bf_text_probe *t, unsigned mask, uint64_t seed, uint64_t out[2],
                         unsigned *n);
/* The error of a text probe that no reading found in a filter of
 * PostgreSQL-typed values (kinds has TYPED): sqlite3_mprintf'd, no
 * function name; NULL when out of memory. */
char *bf_text_probe_refusal(bloom_kinds kinds);
/* Whether f holds t by the rule: 1 or 0, or BF_ERROR with the error set
 * (the refusal, or out of memory). */
int bf_text_probe_contains(sqlite3_context *ctx, const char *fn, bf_text_probe *t,
                           const bloom_filter *f);

/* A filter argument, validated.  The view points into SQLite's copy of the
 * value: read only.  A filter that is constant for the statement is parsed
 * once and its view cached as auxdata of argument i. */
int bf_filter_arg(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn,
                  bloom_filter *out);

/* What a constant filter argument keeps between rows (auxdata): its parsed
 * header.  The bytes stay SQLite's, so bits is refreshed on every call,
 * until a big filter has been probed often enough to pay for a copy of its
 * own (bf_filter_cache_copy): bits then point into the copy. */
typedef struct bf_filter_cache {
    bloom_filter view;
    uint64_t calls, copy_after; /* calls so far; the call that copies */
    void *copy;                 /* the copy's allocation, or NULL */
} bf_filter_cache;

/* Copy the filter cache->view shows so that its bits start on a cache line,
 * in huge pages where the kernel has them (values.c). */
void bf_filter_cache_copy(bf_filter_cache *cache);

/* The per-row case of bf_filter_arg, inline: argument i is a constant
 * filter already parsed for this statement; NULL in every other case.
 * SQLite keeps auxdata only while the argument's value cannot change, so
 * the cached header (and a copy) still describes the blob; its address is
 * read again, SQLite being free to move it. */
static inline const bloom_filter *bf_cached_filter_arg(sqlite3_context *ctx,
                                                       sqlite3_value **argv, int i)
{
    bf_filter_cache *cached = sqlite3_get_auxdata(ctx, i);
    if (cached == NULL)
        return NULL;
    if (cached->copy != NULL)
        return &cached->view;
    const uint8_t *bytes = sqlite3_value_blob(argv[i]);
    if (bytes == NULL)
        return NULL;
    cached->view.bits = (uint8_t *)bytes + BLOOM_HEADER_SIZE;
    if (++cached->calls == cached->copy_after)
        bf_filter_cache_copy(cached);
    return &cached->view;
}
/* A filter from bytes that need no cache (aggregate inputs). */
int bf_filter_value(sqlite3_context *ctx, sqlite3_value *v, const char *fn, bloom_filter *out);

/* Scalar parameters: integer (an integral REAL is accepted), real, layout. */
int bf_int64_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, const char *what,
                 int64_t *out);
int bf_double_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, const char *what,
                  double *out);
int bf_layout_arg(sqlite3_context *ctx, sqlite3_value *v, const char *fn, int *out);

/* The largest filter this connection can store (the max_bytes the core
 * checks new filters against): SQLITE_LIMIT_LENGTH, which SQLite applies to
 * a whole row's record, less BF_ROW_MARGIN (or an eighth of the limit, if
 * less) for the rest of the row. */
#define BF_ROW_MARGIN 1024
uint64_t bf_max_filter_bytes(sqlite3_context *ctx);

/* A buffer for a result filter of size bytes, after the core checked it
 * against bf_max_filter_bytes; NULL with the error set. */
uint8_t *bf_alloc_result(sqlite3_context *ctx, const char *fn, uint64_t size);

/* A copy of f's bytes as a new result buffer (*size bytes), with its view
 * in *copy; NULL with the error set. */
uint8_t *bf_copy_filter(sqlite3_context *ctx, const char *fn, const bloom_filter *f,
                        bloom_filter *copy, size_t *size);

/* uint64 <-> SQLite INTEGER by two's complement, without relying on the
 * implementation-defined conversion of out-of-range values. */
static inline int64_t bf_to_int64(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* The core's allocator over SQLite's, so memory shows in sqlite3_memory_used
 * and obeys sqlite3_hard_heap_limit64. */
extern const bloom_allocator bf_sqlite_allocator;

/* Scalar functions (scalar.c). */
void bf_empty(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_empty_mk(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_add(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_remove(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_to_classic(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_contains(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_union(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_intersect(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_fold(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_cardinality(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_intersect_cardinality(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_jaccard(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_fpr(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_info(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_version(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_from_parquet(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_ref(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_to_parquet(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* Many values in one call, from a JSON array (arrays.c). */
void bf_add_all(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_contains_all(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_contains_any(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* bloom_search(table, column, value [, schema]), an eponymous virtual table
 * (search.c): registered on db. */
int bf_register_search(sqlite3 *db);

/* The virtual table module bloom_bitslice, an index over a column of
 * filters (bitslice.c): registered on db.  bf_bitslice_find: the name of
 * an index of schema.table's column (sqlite3_malloc'd), *name NULL when
 * there is none. */
int bf_register_bitslice(sqlite3 *db);
int bf_bitslice_find(sqlite3 *db, const char *schema, const char *table, const char *column,
                     char **name);
struct bf_stored_probe;
/* The rows of index schema.name's table whose filter may contain probe's
 * value, each probed (bf_stored_probe_row): *rowids (sqlite3_malloc'd,
 * ascending), *n.  On failure an SQLite code and maybe *msg
 * (sqlite3_mprintf'd, no function name). */
int bf_bitslice_query(sqlite3 *db, const char *schema, const char *name,
                      struct bf_stored_probe *probe, sqlite3_int64 **rowids, int *n, char **msg);

/* A filter stored in a table, probed in the bytes the probe needs
 * (stored_probe.c): bloom_search's probe of every row, a bloom_bitslice
 * index's of its candidate rows. */
typedef struct bf_stored_probe {
    sqlite3 *db;
    const char *schema, *table, *column; /* the caller's */
    sqlite3_value *value;                /* the caller's; not NULL */
    sqlite3_blob *blob;                  /* on the last row probed */
    int value_type;
    const void *value_bytes; /* text (UTF-8) or blob */
    int value_len;
    int have_hash; /* hash is the value's hash under seed */
    uint64_t seed, hash;
    bf_text_probe text; /* a TEXT value's readings */
} bf_stored_probe;

/* SQLITE_NOMEM when the value's bytes cannot be had. */
int bf_stored_probe_init(bf_stored_probe *p, sqlite3 *db, const char *schema, const char *table,
                         const char *column, sqlite3_value *value);
/* The hashes (*n, 0 to 2) to test for the value in a filter whose stored
 * kinds are mask (a TEXT value is read as each kind, text_probe.c; any
 * other has its one canonical hash), under seed (the last seed's are
 * kept).  SQLITE_NOMEM when a text's reading fails. */
int bf_stored_probe_hashes(bf_stored_probe *p, unsigned mask, uint64_t seed, uint64_t out[2],
                           unsigned *n);
/* Probe the filter (a blob) of row rowid: *match.  On failure an SQLite
 * code and *msg, "row N: ..." (sqlite3_mprintf'd). */
int bf_stored_probe_row(bf_stored_probe *p, sqlite3_int64 rowid, int *match, char **msg);
/* Values up to this size are cheaper to probe whole, read with the row
 * (bloom_search's scan), than through a BLOB handle, whose reopen seeks the
 * row again. */
enum { BF_STORED_PROBE_WHOLE_MAX = 8192 };
/* Probe the filter of row rowid, its bytes at hand (len of them): as
 * bloom_contains reads a filter, validated whole. */
int bf_stored_probe_bytes(bf_stored_probe *p, sqlite3_int64 rowid, const void *bytes, int len,
                          int *match, char **msg);
void bf_stored_probe_close(bf_stored_probe *p);

/* Aggregates (aggregates.c). */
void bf_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_agg_final(sqlite3_context *ctx);
void bf_agg_fixed_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_agg_fixed_final(sqlite3_context *ctx);
void bf_union_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_intersect_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void bf_combine_agg_final(sqlite3_context *ctx);

#endif
