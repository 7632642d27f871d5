/*
 * static_test.c - the extension compiled into a program (-DSQLITE_CORE):
 * both documented registration calls work and the functions answer.
 * Prints "ok <n> - <what>" / "not ok" lines and exits non-zero on failure.
 */
#include "bloom.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sqlite3_bloomfilter_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);

static int failures, checks;

static void *sqlite_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return sqlite3_malloc64(size);
}

static void sqlite_release(void *ctx, void *ptr)
{
    (void)ctx;
    sqlite3_free(ptr);
}

static void check(int ok, const char *what)
{
    checks++;
    if (!ok)
        failures++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", checks, what);
}

/* The first column of the first row of sql as text ("" for NULL, the error
 * message prefixed with "error: " on failure). */
static void query(sqlite3 *db, const char *sql, char *out, size_t len)
{
    sqlite3_stmt *stmt;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        snprintf(out, len, "error: %s", sqlite3_errmsg(db));
        return;
    }
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(stmt, 0);
        snprintf(out, len, "%s", text ? (const char *)text : "");
    } else if (rc != SQLITE_DONE) {
        snprintf(out, len, "error: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(stmt);
}

static void expect(sqlite3 *db, const char *sql, const char *want)
{
    char got[1024], what[1200];
    query(db, sql, got, sizeof got);
    snprintf(what, sizeof what, "%s -> %s", sql, want);
    check(strcmp(got, want) == 0, what);
    if (strcmp(got, want) != 0)
        printf("#   got: %s\n", got);
}

int main(void)
{
    sqlite3 *db;
    char *err = NULL;

    /* 1. A direct call on one connection. */
    check(sqlite3_open(":memory:", &db) == SQLITE_OK, "open a connection");
    expect(db, "SELECT bloom_version()", "error: no such function: bloom_version");
    check(sqlite3_bloomfilter_init(db, &err, NULL) == SQLITE_OK && err == NULL,
          "sqlite3_bloomfilter_init(db, &err, NULL)");
    expect(db, "SELECT bloom_version()", BLOOMFILTER_VERSION);
    expect(db,
           "WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 1000), "
           "f(b) AS (SELECT bloom_agg(v) FROM s) "
           "SELECT bloom_contains(b, 42) || bloom_contains(b, 42.0) || bloom_contains(b, 1001) "
           "FROM f",
           "110");
    {
        /* the core's message, then its hint: how filters combine */
        char want[700];
        snprintf(want, sizeof want,
                 "error: bloom_union: incompatible bloom filters: left has layout classic, "
                 "nbits 96, nhashes 7, seed 0; right has layout classic, nbits 96, nhashes 10, "
                 "seed 0. %s",
                 bloom_status_hint(BLOOM_E_MISMATCH));
        expect(db, "SELECT bloom_union(bloom_empty_mk(96, 7), bloom_empty_mk(96, 10))", want);
    }
    /* 1b. SQL's bloom_agg over 300000 distinct values is, byte for byte, the
     * filter of the core's builder driven directly through the C API. */
    {
        enum { N = 300000 };
        bloom_allocator alloc = {.alloc = sqlite_alloc, .release = sqlite_release, .ctx = NULL};
        bloom_builder *b = NULL;
        bloom_error berr;
        int ok = bloom_builder_create(&alloc, BLOOM_LAYOUT_CLASSIC, 0.01, 0, &b, &berr) == BLOOM_OK;
        for (int64_t v = 1; ok && v <= N; v++)
            ok = bloom_builder_add_hash(b, bloom_hash_int64(v, 0), &berr) == BLOOM_OK;
        if (ok) /* the values were integers: the filter records numbers */
            bloom_builder_add_kind(b, BLOOM_KIND_NUMBER, 0);
        size_t size = 0;
        ok = ok && bloom_builder_result_size(b, &size, &berr) == BLOOM_OK;
        unsigned char *want = ok ? malloc(size) : NULL;
        bloom_filter f;
        ok = want && bloom_builder_finish(b, want, size, &f, &berr) == BLOOM_OK;
        bloom_builder_destroy(b);
        sqlite3_stmt *stmt = NULL;
        ok = ok && sqlite3_prepare_v2(db,
                                      "WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s "
                                      "WHERE v < 300000) SELECT bloom_agg(v) FROM s",
                                      -1, &stmt, NULL) == SQLITE_OK;
        ok = ok && sqlite3_step(stmt) == SQLITE_ROW &&
             (size_t)sqlite3_column_bytes(stmt, 0) == size &&
             memcmp(sqlite3_column_blob(stmt, 0), want, size) == 0;
        sqlite3_finalize(stmt);
        free(want);
        check(ok, "bloom_agg of 300000 distinct values is the core builder's filter, byte for byte");
    }

    sqlite3_close(db);

    /* 2. Registered for every connection opened afterwards. */
    check(sqlite3_auto_extension((void (*)(void))sqlite3_bloomfilter_init) == SQLITE_OK,
          "sqlite3_auto_extension(sqlite3_bloomfilter_init)");
    check(sqlite3_open(":memory:", &db) == SQLITE_OK, "open a second connection");
    expect(db, "SELECT bloom_hash(5) = bloom_hash(5.0)", "1");
    expect(db, "SELECT json_extract(bloom_info(bloom_empty(1000)), '$.nbits')", "16384");
    sqlite3_close(db);
    sqlite3_reset_auto_extension();

    printf("static: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
