/*
 * sqlite_bitslice.c - fuzz target: the SQLite module bloom_bitslice with
 * bytes from outside, through SQLite itself (the extension linked in,
 * -DSQLITE_CORE).  A table of filters has a bloom_bitslice index (max_nbits
 * 512, so larger filters are folded); each run works in a savepoint it
 * rolls back.  The first input byte picks what the rest is:
 *
 *   even: filters.  The rest is cut in up to four blobs (at the next bytes)
 *         stored as rows, beside rows of valid filters; then values are
 *         probed through the index and by bloom_contains over the table,
 *         and when both answer they must find the same rows; the rows are
 *         then updated and deleted through the triggers.
 *   odd:  damage.  The rest is written into a shadow table (which one and
 *         which column from the next byte) of an index over valid filters,
 *         then the index is queried, written and read again: an error is
 *         an answer, and so are more rows than the scan's, but fewer rows
 *         without an error is not (nor a crash or a leak).
 */
#include "fuzz.h"

#include <limits.h>
#include <sqlite3.h>

int sqlite3_bloomfilter_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);

static sqlite3 *db;

static void exec(const char *sql)
{
    FUZZ_CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
}

static void open_db(void)
{
    char *msg = NULL;
    FUZZ_CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    FUZZ_CHECK(sqlite3_bloomfilter_init(db, &msg, NULL) == SQLITE_OK);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 24);
    exec("CREATE TABLE t (id INTEGER PRIMARY KEY, f BLOB);"
         "CREATE VIRTUAL TABLE t_f USING bloom_bitslice(t, f, max_nbits=512);");
}

/* Rows of valid filters: sizes, layouts, seeds, folded ones. */
static void valid_rows(void)
{
    /* a recursive CTE: the library has no generate_series */
    exec("WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 90) "
         "INSERT INTO t SELECT 100 + value, bloom_add_all(bloom_empty_mk("
         "CASE value % 4 WHEN 0 THEN 256 WHEN 1 THEN 1024 WHEN 2 THEN 4096 ELSE 1000 END, "
         "CASE WHEN value % 4 IN (0, 2) AND value % 3 = 0 THEN 8 ELSE 3 END, value % 2, "
         "CASE WHEN value % 4 IN (0, 2) AND value % 3 = 0 THEN 'blocked' ELSE 'classic' END), "
         "json_array(value, value + 1, 'x')) FROM s");
}

/* The ids through the index and by the scan, as text; NULL on an error. */
static char *ids(const char *sql, sqlite3_int64 v)
{
    sqlite3_stmt *st;
    FUZZ_CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
    sqlite3_bind_int64(st, 1, v);
    char *out = sqlite3_mprintf("%s", "");
    int rc;
    while (out != NULL && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char *more = sqlite3_mprintf("%s,%lld", out, (long long)sqlite3_column_int64(st, 0));
        sqlite3_free(out);
        out = more;
    }
    if (rc != SQLITE_DONE) {
        FUZZ_CHECK(sqlite3_errmsg(db)[0] != '\0');
        sqlite3_free(out);
        out = NULL;
    }
    sqlite3_finalize(st);
    return out;
}

/* Every id of the scan's list b is in the index's list a (both ascending). */
static int superset(const char *a, const char *b)
{
    while (*b == ',') {
        long long want = strtoll(b + 1, (char **)&b, 10), have = LLONG_MIN;
        while (*a == ',' && (have = strtoll(a + 1, (char **)&a, 10)) < want)
            ;
        if (have != want)
            return 0;
    }
    return 1;
}

/* Through the index: the scan's rows (more allowed) or an error. */
static void probe_no_fewer(sqlite3_int64 v)
{
    char *a = ids("SELECT rowid FROM t_f WHERE value = ?1", v);
    char *b = ids("SELECT id FROM t WHERE bloom_contains(f, ?1) ORDER BY id", v);
    if (a != NULL && b != NULL)
        FUZZ_CHECK(superset(a, b));
    sqlite3_free(a);
    sqlite3_free(b);
    a = ids("SELECT id FROM bloom_search('t', 'f', ?1)", v);
    b = ids("SELECT id FROM t WHERE bloom_contains(f, ?1) ORDER BY id", v);
    if (a != NULL && b != NULL)
        FUZZ_CHECK(superset(a, b));
    sqlite3_free(a);
    sqlite3_free(b);
}

static void probe_and_compare(sqlite3_int64 v)
{
    char *a = ids("SELECT rowid FROM t_f WHERE value = ?1", v);
    char *b = ids("SELECT id FROM t WHERE bloom_contains(f, ?1) ORDER BY id", v);
    if (a != NULL && b != NULL)
        FUZZ_CHECK(strcmp(a, b) == 0);
    sqlite3_free(a);
    sqlite3_free(b);
}

static void run(const char *sql)
{
    /* may fail: an error is an answer, with a message */
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
        FUZZ_CHECK(sqlite3_errmsg(db)[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (db == NULL)
        open_db();
    if (size < 2)
        return 0;
    exec("SAVEPOINT run");
    if (data[0] % 2 == 0) {
        size_t pos = 1;
        for (int row = 1; row <= 4 && pos < size; row++) {
            size_t len = data[pos++] * 8u;
            if (len > size - pos)
                len = size - pos;
            uint8_t *blob = fuzz_copy(data + pos, len);
            sqlite3_stmt *st;
            FUZZ_CHECK(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1, ?2)", -1, &st, NULL) ==
                       SQLITE_OK);
            sqlite3_bind_int64(st, 1, row);
            sqlite3_bind_blob(st, 2, blob, (int)len, SQLITE_STATIC);
            FUZZ_CHECK(sqlite3_step(st) == SQLITE_DONE);
            sqlite3_finalize(st);
            free(blob);
            pos += len;
        }
        valid_rows();
        for (sqlite3_int64 v = 1; v <= 8; v++)
            probe_and_compare(v * 13);
        run("UPDATE t SET f = bloom_add(f, 5) WHERE id % 3 = 0");
        run("DELETE FROM t WHERE id % 2 = 0");
        for (sqlite3_int64 v = 1; v <= 8; v++)
            probe_and_compare(v * 13);
    } else {
        static const char *const targets[] = {
            "UPDATE t_f_blocks SET live = ?1", "UPDATE t_f_blocks SET rids = ?1",
            "UPDATE t_f_blocks SET cap = length(?1)", "UPDATE t_f_blocks SET nrows = length(?1)",
            "UPDATE t_f_slices SET data = ?1", "UPDATE t_f_pending SET bits = ?1",
            "UPDATE t_f_groups SET nbits = length(?1) * 8", "UPDATE t_f_groups SET seed = length(?1)",
            "UPDATE t_f_map SET loc = length(?1)", "UPDATE t_f_config SET v = ?1 WHERE k = 'max_nbits'",
            "INSERT INTO t_f_aside VALUES (length(?1), 0)", "UPDATE t_f_groups SET pending = length(?1)",
            /* a layout the index does not slice (2, 3: what counting and
             * scalable will be) is damage, never read as classic */
            "UPDATE t_f_groups SET layout = length(?1)",
            "UPDATE t_f_blocks SET nlive = length(?1)", "UPDATE t_f_blocks SET sum = length(?1)",
            "UPDATE t_f_groups SET nblocks = length(?1)", "UPDATE t_f_pending SET rid = length(?1)",
            "UPDATE t_f_config SET v = length(?1) WHERE k IN ('groups', 'aside')",
            "DELETE FROM t_f_slices WHERE id % 7 = length(?1) % 7",
        };
        valid_rows();
        sqlite3_stmt *st;
        FUZZ_CHECK(sqlite3_prepare_v2(db, targets[data[1] % (sizeof targets / sizeof targets[0])],
                                      -1, &st, NULL) == SQLITE_OK);
        uint8_t *blob = fuzz_copy(data + 2, size - 2);
        sqlite3_bind_blob(st, 1, blob, (int)(size - 2), SQLITE_STATIC);
        (void)sqlite3_step(st);
        sqlite3_finalize(st);
        free(blob);
        for (sqlite3_int64 v = 1; v <= 4; v++)
            probe_no_fewer(v);
        run("WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 70) "
            "INSERT INTO t SELECT 1000 + value, bloom_add(bloom_empty(300), value) FROM s");
        run("DELETE FROM t WHERE id % 3 = 0");
        probe_no_fewer(7);
    }
    exec("ROLLBACK TO run; RELEASE run");
    return 0;
}
