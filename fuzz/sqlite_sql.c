/*
 * sqlite_sql.c - fuzz target: the SQLite extension's SQL functions with
 * arguments from outside, through SQLite itself (the extension linked in,
 * -DSQLITE_CORE): blobs read as filters by every function that takes one,
 * blobs as Parquet bitsets, and text as the JSON arrays of bloom_add_all /
 * bloom_contains_all / bloom_contains_any (our reading of json_each's rows).
 * The first input byte picks the statement; the rest is split in two
 * arguments at the second byte.  A statement may fail with an error
 * message, never crash, leak or return a malformed filter.
 */
#include "fuzz.h"

#include <sqlite3.h>

int sqlite3_bloomfilter_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);

/* ?1 and ?2 are blobs unless the statement casts them; each returns rows of
 * one column, and a blob result must be a filter (checked below) unless the
 * statement returns a Parquet bitset. */
static const char *const statements[] = {
    "SELECT bloom_contains(?1, 1) UNION ALL SELECT bloom_contains(?1, 'x')",
    "SELECT bloom_info(?1)",
    "SELECT bloom_cardinality(?1) UNION ALL SELECT bloom_fpr(?1)",
    "SELECT bloom_add(?1, ?2)",
    "SELECT bloom_union(?1, ?2) UNION ALL SELECT bloom_intersect(?1, ?2)",
    "SELECT bloom_jaccard(?1, ?2) UNION ALL SELECT bloom_intersect_cardinality(?1, ?2)",
    "SELECT bloom_fold(?1, length(?2) * 64)",
    "SELECT bloom_union_agg(f) FROM (SELECT ?1 AS f UNION ALL SELECT ?2)",
    "SELECT bloom_intersect_agg(f) FROM (SELECT ?1 AS f UNION ALL SELECT ?2)",
    "SELECT bloom_add_all(bloom_empty(100), CAST(?1 AS TEXT))",
    ("SELECT bloom_contains_all(bloom_add(bloom_empty(100), 1), CAST(?1 AS TEXT))"
     " UNION ALL SELECT bloom_contains_any(bloom_empty(100, 0.01, 0, 'blocked'), CAST(?1 AS TEXT))"),
    "SELECT bloom_add_all(?2, CAST(?1 AS TEXT))",
    "SELECT bloom_from_parquet(?1)",
    "SELECT bloom_to_parquet(?1)",
    "SELECT bloom_contains(bloom_ref(?1), ?2)",
    "SELECT bloom_agg(v) FROM (SELECT ?1 AS v UNION ALL SELECT CAST(?2 AS TEXT))",
    "SELECT bloom_remove(?1, ?2) UNION ALL SELECT bloom_to_classic(?1)",
    "SELECT bloom_add_all(?1, '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]')",
};
enum { NSTATEMENTS = sizeof statements / sizeof statements[0], PARQUET_OUT = 13 };

static sqlite3 *db;
static sqlite3_stmt *prepared[NSTATEMENTS];

static void open_db(void)
{
    char *msg = NULL;
    FUZZ_CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    FUZZ_CHECK(sqlite3_bloomfilter_init(db, &msg, NULL) == SQLITE_OK);
    /* a filter beyond this is refused, not built: many runs a second */
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 24);
    for (int i = 0; i < NSTATEMENTS; i++)
        FUZZ_CHECK(sqlite3_prepare_v2(db, statements[i], -1, &prepared[i], NULL) == SQLITE_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (db == NULL)
        open_db();
    if (size < 2)
        return 0;
    int which = data[0] % NSTATEMENTS;
    size_t rest = size - 2, split = rest == 0 ? 0 : data[1] % (rest + 1);
    sqlite3_stmt *stmt = prepared[which];
    /* copies of exactly their size, so ASan sees any read past them */
    uint8_t *a = fuzz_copy(data + 2, split), *b = fuzz_copy(data + 2 + split, rest - split);
    int params = sqlite3_bind_parameter_count(stmt);
    FUZZ_CHECK(sqlite3_bind_blob(stmt, 1, a, (int)split, SQLITE_STATIC) == SQLITE_OK);
    if (params >= 2)
        FUZZ_CHECK(sqlite3_bind_blob(stmt, 2, b, (int)(rest - split), SQLITE_STATIC) == SQLITE_OK);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (sqlite3_column_type(stmt, 0) != SQLITE_BLOB || which == PARQUET_OUT)
            continue;
        bloom_filter f;
        bloom_error err;
        int n = sqlite3_column_bytes(stmt, 0);
        uint8_t *result = fuzz_copy(sqlite3_column_blob(stmt, 0), (size_t)n);
        FUZZ_CHECK(bloom_parse(result, (size_t)n, &f, &err) == BLOOM_OK);
        free(result);
    }
    /* an error is an answer; it must come with a message */
    if (rc != SQLITE_DONE)
        FUZZ_CHECK(sqlite3_errmsg(db)[0] != '\0');
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    free(a);
    free(b);
    return 0;
}
