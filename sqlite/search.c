/*
 * search.c - bloom_search(table, column, value [, schema]): the rowids of a
 * table whose stored filter may contain value, reading of each row's filter
 * only the bytes the probe needs.
 *
 * A scalar function always receives a whole BLOB, so WHERE bloom_contains(f,
 * v) over a table of 1.2 MB filters copies 1.2 MB a row to test 7 bits.
 * Incremental BLOB I/O reads part of a value: this eponymous virtual table
 * scans the rowids (and the column's type, which SQLite answers without
 * reading the value), then per row reads the 32-byte header and the k bytes
 * (classic, counting) or the one 32-byte block (blocked) that the core's
 * probe plan names (core/probe_offsets.c), with sqlite3_blob_read; a
 * scalable filter, whose stages its header does not locate, is read whole.
 * A small filter (BF_STORED_PROBE_WHOLE_MAX bytes) comes whole with its row:
 * reopening a BLOB handle seeks the row again, which costs more than
 * copying a few KiB, so the scan is never slower than bloom_contains's.
 *
 *   SELECT d.* FROM daily d JOIN bloom_search('daily', 'f', 5000000) s ON d.rowid = s.id;
 *
 * SQLite only, by design: PostgreSQL's bloom_contains reads a stored filter
 * piecewise by itself (pg/stored_probe.c).  The probe of a row is
 * stored_probe.c's.  Rows whose column is NULL are skipped (no filter holds
 * anything); a row whose column is not a blob is an error, as
 * bloom_contains's would be.
 *
 * When the column has a bloom_bitslice index (bitslice.c), the rows come
 * from it instead of a scan: its candidates probed the same way, in rowid
 * order, so the answers are the scan's.
 */
#include "common.h"

#include <stdarg.h>
#include <string.h>

/* Columns: the result, then the arguments (hidden), in argument order. */
enum { COL_ID, COL_TABLE, COL_COLUMN, COL_VALUE, COL_SCHEMA, NCOLS };
#define NARGS (NCOLS - COL_TABLE)

static const char fn[] = "bloom_search";

typedef struct search_vtab {
    sqlite3_vtab base;
    sqlite3 *db;
} search_vtab;

typedef struct search_cursor {
    sqlite3_vtab_cursor base;
    sqlite3_value *args[NARGS]; /* copies of table, column, value, schema (or NULL) */
    sqlite3_stmt *rows;         /* SELECT rowid, the column if a small blob, else its type */
    int indexed;                /* else hits[] are the rows, from the column's index */
    sqlite3_int64 *hits;
    int nhits, next_hit;
    bf_stored_probe probe;
    int probing; /* probe is set up */
    sqlite3_int64 rowid;
    int eof;
} search_cursor;

static int search_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                          sqlite3_vtab **out, char **err)
{
    (void)aux;
    (void)argc;
    (void)argv;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(id INTEGER, table_name HIDDEN, "
                                      "column_name HIDDEN, value HIDDEN, schema_name HIDDEN)");
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: %s", fn, sqlite3_errmsg(db));
        return rc;
    }
    search_vtab *vtab = sqlite3_malloc(sizeof *vtab);
    if (vtab == NULL)
        return SQLITE_NOMEM;
    memset(vtab, 0, sizeof *vtab);
    vtab->db = db;
    *out = &vtab->base;
    return SQLITE_OK;
}

static int search_disconnect(sqlite3_vtab *vtab)
{
    sqlite3_free(vtab);
    return SQLITE_OK;
}

/* The arguments are equality constraints on the hidden columns; idxNum says
 * which are present (bit i for argument i), in argument order in argv. */
static int search_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
    (void)vtab;
    int where[NARGS];
    for (int i = 0; i < NARGS; i++)
        where[i] = -1;
    for (int c = 0; c < info->nConstraint; c++) {
        const struct sqlite3_index_constraint *con = &info->aConstraint[c];
        if (con->iColumn < COL_TABLE || con->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        /* an argument that cannot be used yet: ask for another join order */
        if (!con->usable)
            return SQLITE_CONSTRAINT;
        where[con->iColumn - COL_TABLE] = c;
    }
    int mask = 0, next = 1;
    for (int i = 0; i < NARGS; i++) {
        if (where[i] < 0)
            continue;
        mask |= 1 << i;
        info->aConstraintUsage[where[i]].argvIndex = next++;
        info->aConstraintUsage[where[i]].omit = 1;
    }
    info->idxNum = mask;
    info->estimatedCost = (mask & 7) == 7 ? 1e6 : 1e12;
    return SQLITE_OK;
}

static int search_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
    (void)vtab;
    search_cursor *cur = sqlite3_malloc(sizeof *cur);
    if (cur == NULL)
        return SQLITE_NOMEM;
    memset(cur, 0, sizeof *cur);
    cur->eof = 1;
    *out = &cur->base;
    return SQLITE_OK;
}

static void search_reset(search_cursor *cur)
{
    for (int i = 0; i < NARGS; i++) {
        sqlite3_value_free(cur->args[i]);
        cur->args[i] = NULL;
    }
    sqlite3_finalize(cur->rows);
    cur->rows = NULL;
    if (cur->probing)
        bf_stored_probe_close(&cur->probe);
    cur->probing = 0;
    cur->indexed = 0;
    sqlite3_free(cur->hits);
    cur->hits = NULL;
    cur->nhits = cur->next_hit = 0;
    cur->eof = 1;
}

static int search_close(sqlite3_vtab_cursor *base)
{
    search_cursor *cur = (search_cursor *)base;
    search_reset(cur);
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* An error of the statement: "bloom_search: ..." as the vtab's message. */
static int fail(search_cursor *cur, int rc, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(search_cursor *cur, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *detail = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    sqlite3_free(cur->base.pVtab->zErrMsg);
    cur->base.pVtab->zErrMsg = detail ? sqlite3_mprintf("%s: %s", fn, detail) : NULL;
    sqlite3_free(detail);
    if (cur->base.pVtab->zErrMsg == NULL)
        return SQLITE_NOMEM;
    return rc;
}

/* Advance to the next row whose filter may contain the value. */
static int search_next(sqlite3_vtab_cursor *base)
{
    search_cursor *cur = (search_cursor *)base;
    if (cur->indexed) {
        /* the index's rows: probed already, in rowid order */
        cur->eof = cur->next_hit >= cur->nhits;
        if (!cur->eof)
            cur->rowid = cur->hits[cur->next_hit++];
        return SQLITE_OK;
    }
    for (;;) {
        int rc = sqlite3_step(cur->rows);
        if (rc == SQLITE_DONE) {
            cur->eof = 1;
            return SQLITE_OK;
        }
        if (rc != SQLITE_ROW)
            return fail(cur, rc, "%s", sqlite3_errmsg(sqlite3_db_handle(cur->rows)));
        int match = 0;
        char *msg = NULL;
        cur->rowid = sqlite3_column_int64(cur->rows, 0);
        if (sqlite3_column_type(cur->rows, 1) == SQLITE_BLOB) { /* a small filter, whole */
            const void *bytes = sqlite3_column_blob(cur->rows, 1);
            int len = sqlite3_column_bytes(cur->rows, 1);
            if (bytes == NULL && len > 0)
                return SQLITE_NOMEM;
            rc = bf_stored_probe_bytes(&cur->probe, cur->rowid, bytes, len, &match, &msg);
        } else { /* the column's type */
            const unsigned char *type = sqlite3_column_text(cur->rows, 1);
            if (type == NULL)
                return SQLITE_NOMEM;
            if (strcmp((const char *)type, "null") == 0)
                continue;
            if (strcmp((const char *)type, "blob") != 0)
                return fail(cur, SQLITE_ERROR, "row %lld: a bloom filter is a blob, got %s",
                            (long long)cur->rowid, (const char *)type);
            rc = bf_stored_probe_row(&cur->probe, cur->rowid, &match, &msg);
        }
        if (rc != SQLITE_OK) {
            rc = msg ? fail(cur, rc, "%s", msg) : SQLITE_NOMEM;
            sqlite3_free(msg);
            return rc;
        }
        if (match) {
            cur->eof = 0;
            return SQLITE_OK;
        }
    }
}

static int search_filter(sqlite3_vtab_cursor *base, int idx_num, const char *idx_str, int argc,
                         sqlite3_value **argv)
{
    (void)idx_str;
    (void)argc;
    search_cursor *cur = (search_cursor *)base;
    search_reset(cur);
    int next = 0;
    for (int i = 0; i < NARGS; i++) {
        if (!(idx_num & (1 << i)))
            continue;
        cur->args[i] = sqlite3_value_dup(argv[next++]);
        if (cur->args[i] == NULL)
            return SQLITE_NOMEM;
    }
    if ((idx_num & 7) != 7)
        return fail(cur, SQLITE_ERROR,
                    "needs a table, a column and a value: bloom_search(table, column, value "
                    "[, schema])");
    for (int i = 0; i < NARGS; i++) {
        if (i == COL_VALUE - COL_TABLE || cur->args[i] == NULL)
            continue;
        static const char *const what[] = {"the table", "the column", "", "the schema"};
        if (sqlite3_value_type(cur->args[i]) != SQLITE_TEXT)
            return fail(cur, SQLITE_ERROR, "%s name must be text", what[i]);
    }
    sqlite3_value *value = cur->args[COL_VALUE - COL_TABLE];
    if (sqlite3_value_type(value) == SQLITE_NULL)
        return SQLITE_OK; /* NULL is never a member: no rows */
    const char *schema = (const char *)sqlite3_value_text(cur->args[COL_SCHEMA - COL_TABLE]);
    const char *table = (const char *)sqlite3_value_text(cur->args[0]);
    const char *column = (const char *)sqlite3_value_text(cur->args[1]);
    if (schema == NULL)
        schema = "main";
    sqlite3 *db = ((search_vtab *)cur->base.pVtab)->db;
    int rc = bf_stored_probe_init(&cur->probe, db, schema, table, column, value);
    if (rc != SQLITE_OK)
        return rc;
    cur->probing = 1;
    /* qualified, so a column that does not exist is an error, not a string;
     * a small blob itself, else the column's type (typeof() and length() of
     * a column do not read its value) */
    char *col = sqlite3_mprintf("\"%w\".\"%w\".\"%w\"", schema, table, column);
    if (col == NULL)
        return SQLITE_NOMEM;
    char *sql = sqlite3_mprintf("SELECT \"%w\".\"%w\".rowid, CASE WHEN typeof(%s) = 'blob' AND "
                                "length(%s) <= %d THEN %s ELSE typeof(%s) END FROM \"%w\".\"%w\"",
                                schema, table, col, col, BF_STORED_PROBE_WHOLE_MAX, col, col,
                                schema, table);
    sqlite3_free(col);
    if (sql == NULL)
        return SQLITE_NOMEM;
    rc = sqlite3_prepare_v2(db, sql, -1, &cur->rows, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return fail(cur, rc, "%s", sqlite3_errmsg(db));
    /* the table and column exist: an index of them answers instead */
    char *index = NULL, *msg = NULL;
    rc = bf_bitslice_find(db, schema, table, column, &index);
    if (rc != SQLITE_OK)
        return fail(cur, rc, "%s", sqlite3_errmsg(db));
    if (index != NULL) {
        cur->indexed = 1;
        rc = bf_bitslice_query(db, schema, index, &cur->probe, &cur->hits, &cur->nhits, &msg);
        sqlite3_free(index);
        if (rc != SQLITE_OK) {
            rc = msg ? fail(cur, rc, "%s", msg) : rc;
            sqlite3_free(msg);
            return rc;
        }
    }
    return search_next(base);
}

static int search_eof(sqlite3_vtab_cursor *base)
{
    return ((search_cursor *)base)->eof;
}

static int search_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
    search_cursor *cur = (search_cursor *)base;
    if (col == COL_ID)
        sqlite3_result_int64(ctx, cur->rowid);
    else if (cur->args[col - COL_TABLE] != NULL)
        sqlite3_result_value(ctx, cur->args[col - COL_TABLE]);
    return SQLITE_OK;
}

static int search_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *out)
{
    *out = ((search_cursor *)base)->rowid;
    return SQLITE_OK;
}

static const sqlite3_module search_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: no CREATE VIRTUAL TABLE */
    .xConnect = search_connect,
    .xBestIndex = search_best_index,
    .xDisconnect = search_disconnect,
    .xDestroy = search_disconnect,
    .xOpen = search_open,
    .xClose = search_close,
    .xFilter = search_filter,
    .xNext = search_next,
    .xEof = search_eof,
    .xColumn = search_column,
    .xRowid = search_rowid,
};

int bf_register_search(sqlite3 *db)
{
    return sqlite3_create_module_v2(db, fn, &search_module, NULL, NULL);
}
