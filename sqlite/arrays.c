/*
 * arrays.c - many values in one call, given as a JSON array (PostgreSQL has
 * the same names, taking an SQL array):
 *
 *   bloom_add_all(f, '[1, 2.5, "x"]')        f with every element added
 *   bloom_contains_all(f, json), bloom_contains_any(f, json)   -> 0/1/NULL
 *
 * The array is read by SQLite's own JSON parser (json_each), so an element
 * is exactly the SQL value SQLite's JSON functions give: an integer, a real
 * (5.0 hashes as 5, as everywhere), text (a string, unescaped), true and
 * false as 1 and 0, null as NULL.  Each is hashed as bloom_add hashes that
 * value alone.  Nested arrays and objects are refused: they are not values.
 * NULL elements follow SQL's ALL / ANY: adding one adds nothing; a NULL
 * makes bloom_contains_all NULL unless some element is certainly absent,
 * and bloom_contains_any NULL unless some element may be present.
 */
#include "common.h"

#include <string.h>

/* One row per element, and one row with a NULL type for an empty array,
 * so one statement also reports the top-level type. */
static const char elements_sql[] =
    "SELECT json_type(?1), e.type, e.value, e.key FROM (SELECT 1) LEFT JOIN json_each(?1) AS e";

enum { COL_TOP, COL_TYPE, COL_VALUE, COL_KEY };

/* The statement reading the JSON array argument v; BF_NULL for SQL NULL. */
static int open_elements(sqlite3_context *ctx, sqlite3_value *v, const char *fn,
                         sqlite3_stmt **out)
{
    *out = NULL;
    int type = sqlite3_value_type(v);
    if (type == SQLITE_NULL)
        return BF_NULL;
    if (type != SQLITE_TEXT) {
        bf_error(ctx, fn, "expects a JSON array as text, got %s",
                 type == SQLITE_BLOB ? "a blob" : type == SQLITE_INTEGER ? "an integer" : "a real");
        return BF_ERROR;
    }
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    int rc = sqlite3_prepare_v2(db, elements_sql, -1, out, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_value(*out, 1, v);
    if (rc != SQLITE_OK) {
        if (rc == SQLITE_NOMEM)
            sqlite3_result_error_nomem(ctx);
        else
            bf_error(ctx, fn, "cannot read a JSON array: %s", sqlite3_errmsg(db));
        sqlite3_finalize(*out);
        *out = NULL;
        return BF_ERROR;
    }
    return BF_OK;
}

/* An element of the array, in the statement's current row: its SQL type
 * (SQLITE_INTEGER, SQLITE_FLOAT or SQLITE_TEXT) and, for text, its UTF-8
 * bytes (the length from SQLite: text may hold NULs). */
typedef struct element {
    int type;
    const unsigned char *text;
    int len;
} element;

/* The next element: BF_OK, BF_NULL for a JSON null, BF_ERROR with the
 * error set; *done at the end of the array. */
static int next_element(sqlite3_context *ctx, sqlite3_stmt *stmt, const char *fn, element *el,
                        int *done)
{
    *done = 0;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
        *done = 1;
        return BF_OK;
    }
    if (rc != SQLITE_ROW) {
        if (rc == SQLITE_NOMEM)
            sqlite3_result_error_nomem(ctx);
        else if (rc == SQLITE_INTERRUPT)
            sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
        else
            /* json_each's own message, e.g. "malformed JSON" */
            bf_error(ctx, fn, "%s", sqlite3_errmsg(sqlite3_db_handle(stmt)));
        return BF_ERROR;
    }
    const unsigned char *top = sqlite3_column_text(stmt, COL_TOP);
    if (top == NULL || strcmp((const char *)top, "array") != 0) {
        bf_error(ctx, fn, "expects a JSON array, got a JSON %s", top ? (const char *)top : "null");
        return BF_ERROR;
    }
    const unsigned char *type = sqlite3_column_text(stmt, COL_TYPE);
    if (type == NULL) { /* the one row of an empty array */
        *done = 1;
        return BF_OK;
    }
    el->type = sqlite3_column_type(stmt, COL_VALUE);
    switch (el->type) {
    case SQLITE_NULL:
        return BF_NULL;
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
        return BF_OK;
    }
    if (strcmp((const char *)type, "text") != 0) {
        bf_error(ctx, fn, "element %lld is a JSON %s: nested arrays and objects are not values",
                 (long long)sqlite3_column_int64(stmt, COL_KEY), (const char *)type);
        return BF_ERROR;
    }
    el->type = SQLITE_TEXT;
    el->text = sqlite3_column_text(stmt, COL_VALUE);
    if (el->text == NULL) {
        sqlite3_result_error_nomem(ctx);
        return BF_ERROR;
    }
    el->len = sqlite3_column_bytes(stmt, COL_VALUE);
    return BF_OK;
}

/* The element's canonical hash, as bloom_add hashes the value alone. */
static uint64_t element_hash(sqlite3_stmt *stmt, const element *el, uint64_t seed)
{
    if (el->type == SQLITE_INTEGER)
        return bloom_hash_int64(sqlite3_column_int64(stmt, COL_VALUE), seed);
    if (el->type == SQLITE_FLOAT)
        return bloom_hash_double(sqlite3_column_double(stmt, COL_VALUE), seed);
    return bloom_hash_bytes(el->text, (size_t)el->len, seed);
}

void bf_add_all(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char fn[] = "bloom_add_all";
    (void)argc;
    bloom_filter f, out;
    sqlite3_stmt *stmt;
    if (bf_filter_arg(ctx, argv, 0, fn, &f) != BF_OK)
        return;
    int rc = open_elements(ctx, argv[1], fn, &stmt);
    if (rc == BF_ERROR)
        return;
    size_t size;
    void *buf = bf_copy_filter(ctx, fn, &f, &out, &size);
    if (buf == NULL) {
        sqlite3_finalize(stmt);
        return;
    }
    /* a NULL array adds nothing, as bloom_add(f, NULL) */
    for (int done = rc == BF_NULL; !done;) {
        element el;
        rc = next_element(ctx, stmt, fn, &el, &done);
        if (rc == BF_OK && !done) {
            uint64_t hash = element_hash(stmt, &el, out.seed);
            bloom_error err;
            /* before the insert: a filter's kinds count its bits as they were */
            bloom_kinds_record(&out, bf_kind_of(el.type), 0);
            if (bloom_insert(&bf_sqlite_allocator, bf_max_filter_bytes(ctx), &buf, &size, &out,
                             &hash, 1, &err) != BLOOM_OK) {
                bf_core_error(ctx, fn, &err); /* a scalable filter that cannot grow */
                rc = BF_ERROR;
            }
        }
        if (rc == BF_ERROR) {
            sqlite3_finalize(stmt);
            sqlite3_free(buf);
            return;
        }
    }
    sqlite3_finalize(stmt);
    sqlite3_result_blob64(ctx, buf, size, sqlite3_free);
}

/* SQL's three-valued ALL (want_all) or ANY over the elements' answers,
 * stopping at the first element that decides it. */
static void contains_many(sqlite3_context *ctx, sqlite3_value **argv, const char *fn,
                          int want_all)
{
    bloom_filter parsed;
    sqlite3_stmt *stmt;
    const bloom_filter *f = bf_cached_filter_arg(ctx, argv, 0);
    if (f == NULL) {
        if (bf_filter_arg(ctx, argv, 0, fn, &parsed) != BF_OK)
            return;
        f = &parsed;
    }
    if (open_elements(ctx, argv[1], fn, &stmt) != BF_OK)
        return; /* a NULL array: NULL */
    int saw_null = 0;
    for (;;) {
        element el;
        int done, member = 0;
        int rc = next_element(ctx, stmt, fn, &el, &done);
        if (rc == BF_OK && !done) {
            if (el.type == SQLITE_TEXT && f->kinds.mask != 0) {
                /* text read as each kind the filter holds (text_probe.c) */
                bf_text_probe t;
                bf_text_probe_init(&t, sqlite3_column_value(stmt, COL_VALUE), el.text, el.len);
                member = bf_text_probe_contains(ctx, fn, &t, f);
                if (member == BF_ERROR)
                    rc = BF_ERROR;
            } else {
                member = bloom_contains_hash(f, element_hash(stmt, &el, f->seed));
            }
        }
        if (rc == BF_ERROR) {
            sqlite3_finalize(stmt);
            return;
        }
        if (done)
            break;
        if (rc == BF_NULL)
            saw_null = 1;
        else if (member != want_all) {
            sqlite3_finalize(stmt);
            sqlite3_result_int(ctx, !want_all);
            return;
        }
    }
    sqlite3_finalize(stmt);
    if (!saw_null)
        sqlite3_result_int(ctx, want_all);
}

void bf_contains_all(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    contains_many(ctx, argv, "bloom_contains_all", 1);
}

void bf_contains_any(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    contains_many(ctx, argv, "bloom_contains_any", 0);
}
