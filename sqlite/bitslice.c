/*
 * bitslice.c - the virtual table module bloom_bitslice: an index over a
 * column of filters, which answers "which rows' filters may contain x" from
 * bit slices instead of probing every filter (bitslice.h has the design,
 * docs/SQLITE.md the reference).
 *
 *   CREATE VIRTUAL TABLE daily_visitors USING bloom_bitslice(daily, visitors);
 *   CREATE VIRTUAL TABLE ... USING bloom_bitslice(daily, visitors, max_nbits=4096);
 *   SELECT rowid FROM daily_visitors WHERE value = 42;
 *   SELECT id FROM bloom_search('daily', 'visitors', 42);   -- uses the index
 *
 * Creating it indexes the table's rows and adds three triggers to the table
 * (NAME_insert, NAME_delete, NAME_update) that keep it current; dropping it
 * drops them and the shadow tables.  The table must be a rowid table whose
 * rowids stay put (an INTEGER PRIMARY KEY: VACUUM may renumber other
 * rowids), in the index's schema.  A query's rows are rechecked against the
 * table's filters as bloom_search probes them, in rowid order: the answers
 * are the scan's, a value that is no filter the same error.
 *
 * Columns: filter (what the triggers insert) and value (what a query
 * compares to), both hidden; the rowid is the table's.
 */
#include "bitslice.h"

#include <stdlib.h>
#include <string.h>

static const char fn[] = "bloom_bitslice";
static const char *const shadows[] = {"config", "groups", "pending", "blocks",
                                      "slices", "map",    "aside"};
enum { COL_FILTER, COL_VALUE };

typedef struct bs_vtab {
    sqlite3_vtab base;
    bs_index ix;
} bs_vtab;

typedef struct bs_cursor {
    sqlite3_vtab_cursor base;
    sqlite3_int64 *rows;
    int nrows, pos;
    sqlite3_value *value; /* the probe, idxNum 1 */
} bs_cursor;

/* ---- opening an index ---- */

static int set_names(bs_index *ix, sqlite3 *db, const char *schema, const char *name)
{
    ix->db = db;
    ix->schema = sqlite3_mprintf("%s", schema);
    ix->name = sqlite3_mprintf("%s", name);
    ix->slices_table = sqlite3_mprintf("%s_slices", name);
    ix->blocks_table = sqlite3_mprintf("%s_blocks", name);
    return ix->schema && ix->name && ix->slices_table && ix->blocks_table ? SQLITE_OK
                                                                           : SQLITE_NOMEM;
}

/* NAME_config's settings (*table and *column sqlite3_malloc'd), checked
 * against their checksum. */
static int read_config(bs_index *ix, char **table, char **column, uint64_t *max_nbits)
{
    char *sql = sqlite3_mprintf("SELECT k, v FROM \"%w\".\"%w_config\"", ix->schema, ix->name);
    sqlite3_stmt *st;
    sqlite3_int64 version = -1, sum = 0;
    int has_sum = 0;
    *table = *column = NULL;
    *max_nbits = 0;
    if (sql == NULL)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    int rc = sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return rc == SQLITE_ERROR ? bs_corrupt(ix, sqlite3_errmsg(ix->db)) : bs_fail_db(ix, rc);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0);
        int integer = sqlite3_column_type(st, 1) == SQLITE_INTEGER;
        if (k == NULL)
            continue;
        if (strcmp(k, "table") == 0 && *table == NULL)
            *table = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 1));
        else if (strcmp(k, "column") == 0 && *column == NULL)
            *column = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 1));
        else if (strcmp(k, "max_nbits") == 0 && integer)
            *max_nbits = (uint64_t)sqlite3_column_int64(st, 1);
        else if (strcmp(k, "version") == 0 && integer)
            version = sqlite3_column_int64(st, 1);
        else if (strcmp(k, "sum") == 0 && integer) {
            sum = sqlite3_column_int64(st, 1);
            has_sum = 1;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    if (version != BS_VERSION && version >= 1 && has_sum == (version > 1))
        return bs_fail(ix, SQLITE_ERROR,
                       "index %s was made by another version of bloom_bitslice (shadow tables "
                       "of version %lld, this one reads %d): drop it and create it again",
                       ix->name, (long long)version, BS_VERSION);
    if (*table == NULL || *column == NULL || *max_nbits < 64 || *max_nbits > BS_LIMIT_MAX_NBITS ||
        version != BS_VERSION || !has_sum)
        return bs_corrupt(ix, "no valid settings");
    return sum == bs_config_sum(*table, *column, *max_nbits, version)
               ? SQLITE_OK
               : bs_corrupt(ix, "the settings do not match their checksum");
}

/* An existing index's settings, from NAME_config. */
static int open_index(bs_index *ix, sqlite3 *db, const char *schema, const char *name)
{
    memset(ix, 0, sizeof *ix);
    ix->page_id = -1;
    if (set_names(ix, db, schema, name) != SQLITE_OK)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    return read_config(ix, &ix->table, &ix->column, &ix->max_nbits);
}

/* The settings of a connected index still NAME_config's. */
static int check_config(bs_index *ix)
{
    char *table, *column;
    uint64_t max_nbits;
    int rc = read_config(ix, &table, &column, &max_nbits);
    if (rc == SQLITE_OK && (strcmp(table, ix->table) != 0 || strcmp(column, ix->column) != 0 ||
                            max_nbits != ix->max_nbits))
        rc = bs_corrupt(ix, "the settings changed");
    sqlite3_free(table);
    sqlite3_free(column);
    return rc;
}

/* ---- the triggers that keep an index current ---- */

static const char *const trigger_suffix[] = {"insert", "delete", "update"};

/* Trigger which of the index, from its event on: as sqlite_master keeps it
 * after "CREATE TRIGGER name ". */
static char *trigger_body(const bs_index *ix, int which)
{
    const char *t = ix->table, *c = ix->column, *n = ix->name;
    switch (which) {
    case 0:
        return sqlite3_mprintf("AFTER INSERT ON \"%w\" BEGIN "
                               "INSERT INTO \"%w\"(rowid, filter) VALUES (new.rowid, new.\"%w\"); END",
                               t, n, c);
    case 1:
        return sqlite3_mprintf("AFTER DELETE ON \"%w\" BEGIN "
                               "DELETE FROM \"%w\" WHERE rowid = old.rowid; END",
                               t, n);
    default:
        return sqlite3_mprintf("AFTER UPDATE ON \"%w\" "
                               "WHEN old.rowid IS NOT new.rowid OR old.\"%w\" IS NOT new.\"%w\" BEGIN "
                               "DELETE FROM \"%w\" WHERE rowid = old.rowid; "
                               "INSERT INTO \"%w\"(rowid, filter) VALUES (new.rowid, new.\"%w\"); END",
                               t, c, c, n, n, c);
    }
}

/* The three triggers there, as created: without one, the table's writes
 * would go past the index. */
static int check_triggers(bs_index *ix)
{
    int rc = SQLITE_OK;
    for (int i = 0; i < 3 && rc == SQLITE_OK; i++) {
        char *name = sqlite3_mprintf("%s_%s", ix->name, trigger_suffix[i]);
        char *body = trigger_body(ix, i);
        char *want = body ? sqlite3_mprintf("CREATE TRIGGER \"%w\" %s", name, body) : NULL;
        sqlite3_stmt *st = name && want ? bs_stmt(ix, BS_TRIGGER_SQL) : NULL;
        if (name == NULL || want == NULL) {
            rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
        } else if (st == NULL) {
            rc = SQLITE_ERROR;
        } else {
            sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
            int step = sqlite3_step(st);
            const char *type = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL,
                       *sql = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 2) : NULL;
            if (step != SQLITE_ROW && step != SQLITE_DONE)
                rc = bs_fail_db(ix, step);
            else if (type == NULL || sql == NULL || strcmp(type, "trigger") != 0 ||
                     strcmp(sql, want) != 0)
                rc = bs_fail(ix, SQLITE_CORRUPT_VTAB,
                             "index %s is not kept current: its trigger %s is missing or altered "
                             "(drop the index and create it again)",
                             ix->name, name);
            sqlite3_reset(st);
        }
        sqlite3_free(name);
        sqlite3_free(body);
        sqlite3_free(want);
    }
    return rc;
}

/* An identifier as CREATE VIRTUAL TABLE passes it: quotes removed. */
static char *dequote(const char *arg)
{
    size_t len = strlen(arg);
    while (len > 0 && (arg[0] == ' ' || arg[0] == '\t')) {
        arg++;
        len--;
    }
    while (len > 0 && (arg[len - 1] == ' ' || arg[len - 1] == '\t'))
        len--;
    char q = len >= 2 ? arg[0] : 0, close = q == '[' ? ']' : q;
    if ((q == '"' || q == '\'' || q == '`' || q == '[') && arg[len - 1] == close) {
        char *out = sqlite3_malloc64(len), *o = out;
        if (out == NULL)
            return NULL;
        for (size_t i = 1; i + 1 < len; i++) {
            *o++ = arg[i];
            if (arg[i] == close && q != '[' && i + 2 < len && arg[i + 1] == close)
                i++; /* a doubled quote */
        }
        *o = '\0';
        return out;
    }
    return sqlite3_mprintf("%.*s", (int)len, arg);
}

/* ---- create, connect, destroy ---- */

static int exec(bs_index *ix, char *sql)
{
    if (sql == NULL)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    char *err = NULL;
    int rc = sqlite3_exec(ix->db, sql, NULL, NULL, &err);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        bs_fail(ix, rc, "%s", err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return rc;
}

static int declare(sqlite3 *db)
{
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(filter HIDDEN, value HIDDEN)");
    if (rc == SQLITE_OK)
        rc = sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    return rc;
}

static int connect_or_create(sqlite3 *db, int argc, const char *const *argv, sqlite3_vtab **out,
                             char **err, int create)
{
    bs_vtab *vt = sqlite3_malloc(sizeof *vt);
    int rc;
    if (vt == NULL)
        return SQLITE_NOMEM;
    memset(vt, 0, sizeof *vt);
    bs_index *ix = &vt->ix;
    ix->page_id = -1;
    if (!create) {
        /* a damaged index still connects, so it can be dropped; what it
         * found is each query's error */
        rc = open_index(ix, db, argv[1], argv[2]);
        if (rc != SQLITE_OK && rc != SQLITE_NOMEM && ix->error != NULL) {
            ix->damage = ix->error;
            ix->error = NULL;
            ix->damage_rc = rc;
            rc = SQLITE_OK;
        }
        if (rc == SQLITE_OK)
            rc = declare(db);
        goto out;
    }
    if (argc < 5 || argc > 6) {
        rc = bs_fail(ix, SQLITE_ERROR, "takes a table and a column (and max_nbits=N): "
                                       "USING bloom_bitslice(table, column [, max_nbits=N])");
        goto out;
    }
    if ((rc = set_names(ix, db, argv[1], argv[2])) != SQLITE_OK) {
        rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
        goto out;
    }
    ix->table = dequote(argv[3]);
    ix->column = dequote(argv[4]);
    ix->max_nbits = BS_DEFAULT_MAX_NBITS;
    if (ix->table == NULL || ix->column == NULL) {
        rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
        goto out;
    }
    if (argc == 6) {
        char *opt = dequote(argv[5]), *end = NULL;
        long long v = 0;
        if (opt != NULL && strncmp(opt, "max_nbits", 9) == 0) {
            const char *p = opt + 9;
            while (*p == ' ')
                p++;
            if (*p == '=')
                v = strtoll(p + 1, &end, 10);
        }
        int ok = end != NULL && *end == '\0' && v >= 64 && v <= BS_LIMIT_MAX_NBITS;
        sqlite3_free(opt);
        if (!ok) {
            rc = bs_fail(ix, SQLITE_ERROR, "the third argument is max_nbits=N, N from 64 to %d",
                         BS_LIMIT_MAX_NBITS);
            goto out;
        }
        ix->max_nbits = (uint64_t)v;
    }
    /* a rowid table with that column, in this schema */
    /* qualified, so a column that does not exist is an error, not a string */
    char *sql = sqlite3_mprintf("SELECT \"%w\".\"%w\".rowid, \"%w\".\"%w\".\"%w\" "
                                "FROM \"%w\".\"%w\" LIMIT 0",
                                ix->schema, ix->table, ix->schema, ix->table, ix->column,
                                ix->schema, ix->table);
    sqlite3_stmt *st = NULL;
    if (sql == NULL) {
        rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
        goto out;
    }
    rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    sqlite3_free(sql);
    sqlite3_finalize(st);
    if (rc != SQLITE_OK) {
        rc = bs_fail(ix, rc, "%s (the table must be a rowid table of schema %s)",
                     sqlite3_errmsg(db), ix->schema);
        goto out;
    }
    const char *s = ix->schema, *n = ix->name;
    if ((rc = exec(ix, sqlite3_mprintf(
             "CREATE TABLE \"%w\".\"%w_config\"(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
             "CREATE TABLE \"%w\".\"%w_groups\"(id INTEGER PRIMARY KEY, layout INTEGER NOT NULL, "
             "nhashes INTEGER NOT NULL, seed INTEGER NOT NULL, nbits INTEGER NOT NULL, "
             "pending INTEGER NOT NULL, nblocks INTEGER NOT NULL, sum INTEGER NOT NULL);"
             "CREATE TABLE \"%w\".\"%w_pending\"(rid INTEGER PRIMARY KEY, grp INTEGER NOT NULL, "
             "sum INTEGER NOT NULL, bits BLOB NOT NULL);"
             "CREATE INDEX \"%w\".\"%w_pending_grp\" ON \"%w_pending\"(grp);"
             "CREATE TABLE \"%w\".\"%w_blocks\"(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, "
             "cap INTEGER NOT NULL, nrows INTEGER NOT NULL, nlive INTEGER NOT NULL, "
             "sum INTEGER NOT NULL, live BLOB NOT NULL, rids BLOB NOT NULL);"
             "CREATE INDEX \"%w\".\"%w_blocks_grp\" ON \"%w_blocks\"(grp, id);"
             "CREATE TABLE \"%w\".\"%w_slices\"(id INTEGER PRIMARY KEY, data BLOB NOT NULL);"
             "CREATE TABLE \"%w\".\"%w_map\"(rid INTEGER PRIMARY KEY, loc INTEGER NOT NULL);"
             "CREATE TABLE \"%w\".\"%w_aside\"(rid INTEGER PRIMARY KEY, sum INTEGER NOT NULL);"
             "INSERT INTO \"%w\".\"%w_config\" VALUES ('table', %Q), ('column', %Q), "
             "('max_nbits', %lld), ('version', %d), ('sum', %lld), ('groups', 0), ('aside', 0);",
             s, n, s, n, s, n, s, n, n, s, n, s, n, n, s, n, s, n, s, n, s, n, ix->table,
             ix->column, (long long)ix->max_nbits, BS_VERSION,
             (long long)bs_config_sum(ix->table, ix->column, ix->max_nbits, BS_VERSION)))) != SQLITE_OK)
        goto out;
    if ((rc = bs_build(ix)) != SQLITE_OK)
        goto out;
    /* the triggers that keep it current */
    for (int i = 0; i < 3 && rc == SQLITE_OK; i++) {
        char *body = trigger_body(ix, i);
        rc = body ? exec(ix, sqlite3_mprintf("CREATE TRIGGER \"%w\".\"%w_%s\" %s", s, n,
                                             trigger_suffix[i], body))
                  : bs_fail(ix, SQLITE_NOMEM, "out of memory");
        sqlite3_free(body);
    }
    if (rc == SQLITE_OK)
        rc = declare(db);
out:
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: %s", fn, ix->error ? ix->error : sqlite3_errstr(rc));
        bs_index_close(ix);
        sqlite3_free(vt);
        return rc;
    }
    *out = &vt->base;
    return SQLITE_OK;
}

static int bs_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
                     sqlite3_vtab **out, char **err)
{
    (void)aux;
    return connect_or_create(db, argc, argv, out, err, 1);
}

static int bs_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
    (void)aux;
    return connect_or_create(db, argc, argv, out, err, 0);
}

static int bs_disconnect(sqlite3_vtab *base)
{
    bs_vtab *vt = (bs_vtab *)base;
    bs_index_close(&vt->ix);
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int bs_destroy(sqlite3_vtab *base)
{
    bs_vtab *vt = (bs_vtab *)base;
    bs_index *ix = &vt->ix;
    const char *s = ix->schema, *n = ix->name;
    for (int i = 0; i < BS_NSTMT; i++) {
        sqlite3_finalize(ix->stmt[i]);
        ix->stmt[i] = NULL;
    }
    sqlite3_blob_close(ix->slices);
    ix->slices = NULL;
    int rc = exec(ix, sqlite3_mprintf(
                 "DROP TRIGGER IF EXISTS \"%w\".\"%w_insert\";"
                 "DROP TRIGGER IF EXISTS \"%w\".\"%w_delete\";"
                 "DROP TRIGGER IF EXISTS \"%w\".\"%w_update\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_config\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_groups\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_pending\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_blocks\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_slices\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_map\";"
                 "DROP TABLE IF EXISTS \"%w\".\"%w_aside\";",
                 s, n, s, n, s, n, s, n, s, n, s, n, s, n, s, n, s, n, s, n));
    if (rc != SQLITE_OK) {
        sqlite3_free(base->zErrMsg);
        base->zErrMsg = sqlite3_mprintf("%s: %s", fn, ix->error);
        return rc;
    }
    return bs_disconnect(base);
}

static int bs_shadow_name(const char *suffix)
{
    for (size_t i = 0; i < sizeof shadows / sizeof shadows[0]; i++)
        if (sqlite3_stricmp(suffix, shadows[i]) == 0)
            return 1;
    return 0;
}

/* ---- queries ---- */

/* idxNum: 1 value = ?, 2 rowid = ?, 0 every row.  A value constraint that
 * cannot be used yet asks for another join order: a scan without it would
 * compare the hidden column (NULL) and find nothing. */
static int bs_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
    (void)base;
    int value = -1, rowid = -1;
    for (int c = 0; c < info->nConstraint; c++) {
        const struct sqlite3_index_constraint *con = &info->aConstraint[c];
        if (con->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        if (con->iColumn == COL_VALUE) {
            if (!con->usable)
                return SQLITE_CONSTRAINT;
            value = c;
        } else if (con->iColumn == -1 && con->usable) {
            rowid = c;
        }
    }
    if (value >= 0) {
        info->idxNum = 1;
        info->aConstraintUsage[value].argvIndex = 1;
        info->aConstraintUsage[value].omit = 1;
        info->estimatedCost = 1000;
        info->estimatedRows = 100;
    } else if (rowid >= 0) {
        info->idxNum = 2;
        info->aConstraintUsage[rowid].argvIndex = 1;
        info->aConstraintUsage[rowid].omit = 1;
        info->estimatedCost = 10;
        info->estimatedRows = 1;
        info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    } else {
        info->idxNum = 0;
        info->estimatedCost = 1e9;
    }
    return SQLITE_OK;
}

static int compare_rowids(const void *a, const void *b)
{
    sqlite3_int64 x = *(const sqlite3_int64 *)a, y = *(const sqlite3_int64 *)b;
    return (x > y) - (x < y);
}

static int compare_positions(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct bs_list {
    sqlite3_int64 *v;
    int n, max;
} bs_list;

static int push(bs_index *ix, bs_list *l, sqlite3_int64 rid)
{
    if (l->n == l->max) {
        int max = l->max ? 2 * l->max : 256;
        sqlite3_int64 *v = sqlite3_realloc64(l->v, (sqlite3_uint64)max * sizeof *v);
        if (v == NULL)
            return bs_fail(ix, SQLITE_NOMEM, "out of memory");
        l->v = v;
        l->max = max;
    }
    l->v[l->n++] = rid;
    return SQLITE_OK;
}

static uint64_t word_at(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The rowid at slot of block id, which NAME_map must put there: a rowid
 * damaged in the block, or in the map, is an error, not a row lost. */
static int rowid_at(bs_index *ix, sqlite3_blob **rids, sqlite3_int64 id, sqlite3_int64 cap,
                    uint32_t slot, sqlite3_int64 *rid)
{
    uint8_t bytes[8];
    int rc = *rids ? sqlite3_blob_reopen(*rids, id)
                   : sqlite3_blob_open(ix->db, ix->schema, ix->blocks_table, "rids", id, 0, rids);
    if (rc != SQLITE_OK) {
        sqlite3_blob_close(*rids);
        *rids = NULL;
        return bs_fail_db(ix, rc);
    }
    if (sqlite3_blob_bytes(*rids) != 8 * cap)
        return bs_corrupt(ix, "a block has counts out of range");
    if ((rc = sqlite3_blob_read(*rids, bytes, 8, (int)(8 * slot))) != SQLITE_OK)
        return bs_fail_db(ix, rc);
    *rid = bf_to_int64(word_at(bytes));
    return bs_check_map(ix, *rid, id, slot);
}

/* The candidates of one group: its pending rows and block slots whose
 * bits at pos are all set (npos 0: all of them).  Counts and checksums of
 * what it reads are checked on the way. */
static int group_candidates(bs_index *ix, const bs_group *g, const uint64_t *pos, int npos,
                            bs_list *cands)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_PENDING_OF_GROUP);
    sqlite3_blob *rids = NULL;
    sqlite3_int64 npending = 0, nblocks = 0;
    int rc;
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, g->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const uint8_t *bits = sqlite3_column_blob(st, 1);
        int all = 1;
        npending++;
        if ((rc = bs_check_pending(ix, g, st)) != SQLITE_OK) {
            sqlite3_reset(st);
            return rc;
        }
        for (int i = 0; i < npos && all; i++)
            all = bits[pos[i] >> 3] >> (pos[i] & 7) & 1;
        if (all && (rc = push(ix, cands, sqlite3_column_int64(st, 0))) != SQLITE_OK) {
            sqlite3_reset(st);
            return rc;
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    if (npending != g->pending)
        return bs_corrupt(ix, "pending rows do not match their count");

    /* the blocks: live slots AND the slices at pos */
    if ((st = bs_stmt(ix, BS_BLOCKS_OF_GROUP)) == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, g->id);
    int step;
    rc = SQLITE_OK;
    while (rc == SQLITE_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 id = sqlite3_column_int64(st, 0), cap = sqlite3_column_int64(st, 1),
                      nrows = sqlite3_column_int64(st, 2);
        const uint8_t *live = sqlite3_column_blob(st, 4);
        uint64_t acc[BLOOM_SLICES_MAX_CAP / 64];
        uint8_t slice[BLOOM_SLICES_MAX_CAP / 8];
        int any = 0;
        nblocks++;
        if ((rc = bs_check_block(ix, id, g->id, cap, nrows, sqlite3_column_int64(st, 3), live,
                                 sqlite3_column_bytes(st, 4), sqlite3_column_int64(st, 5))) != SQLITE_OK)
            break;
        uint32_t nwords = (uint32_t)cap / 64;
        for (uint32_t w = 0; w < nwords; w++) {
            acc[w] = word_at(live + 8 * w); /* none past nrows: checked */
            any |= acc[w] != 0;
        }
        for (int i = 0; i < npos && any && rc == SQLITE_OK; i++) {
            rc = bs_read_slice(ix, id, (uint32_t)cap, g->geo.nbits, pos[i], slice);
            any = 0;
            for (uint32_t w = 0; w < nwords && rc == SQLITE_OK; w++) {
                acc[w] &= word_at(slice + 8 * w);
                any |= acc[w] != 0;
            }
        }
        for (uint32_t w = 0; w < nwords && any && rc == SQLITE_OK; w++)
            for (uint64_t bits = acc[w]; bits != 0 && rc == SQLITE_OK; bits &= bits - 1) {
                sqlite3_int64 rid = 0;
                rc = rowid_at(ix, &rids, id, cap, 64 * w + (uint32_t)__builtin_ctzll(bits), &rid);
                if (rc == SQLITE_OK)
                    rc = push(ix, cands, rid);
            }
    }
    if (rc == SQLITE_OK && step != SQLITE_DONE)
        rc = bs_fail_db(ix, step);
    sqlite3_reset(st);
    sqlite3_blob_close(rids);
    if (rc == SQLITE_OK && nblocks != g->nblocks)
        rc = bs_corrupt(ix, "blocks do not match their count");
    return rc;
}

/* The rows of the table whose filter may contain probe's value; without a
 * probe, every row the index holds.  Everything read is checked first. */
static int query(bs_index *ix, bf_stored_probe *probe, sqlite3_int64 **out, int *nout)
{
    bs_group groups[BLOOM_SLICES_MAX_GROUPS];
    bs_list cands = {NULL, 0, 0}, hits = {NULL, 0, 0};
    sqlite3_int64 naside = 0, want_aside;
    int ngroups, rc;
    *out = NULL;
    *nout = 0;
    ix->page_id = -1;
    if (ix->damage != NULL)
        return bs_fail(ix, ix->damage_rc, "%s", ix->damage);
    if ((rc = check_config(ix)) != SQLITE_OK || (rc = check_triggers(ix)) != SQLITE_OK ||
        (rc = bs_load_groups(ix, groups, &ngroups)) != SQLITE_OK ||
        (rc = bs_config_count(ix, "aside", &want_aside)) != SQLITE_OK)
        return rc;
    for (int gi = 0; gi < ngroups && rc == SQLITE_OK; gi++) {
        /* every reading of the value (a text's as text and as a number):
         * the slices do not say which kinds a row's filter holds, its
         * recheck does; no probe: every row of the group */
        uint64_t hashes[2];
        unsigned nhashes = 1;
        if (probe != NULL && bf_stored_probe_hashes(probe, BLOOM_KIND_TEXT | BLOOM_KIND_NUMBER,
                                                    groups[gi].geo.seed, hashes, &nhashes) != SQLITE_OK) {
            rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
            break;
        }
        for (unsigned h = 0; h < nhashes && rc == SQLITE_OK; h++) {
            uint64_t pos[BLOOM_MAX_NHASHES];
            int m = 0;
            if (probe != NULL) {
                int n = (int)bloom_probe_bits(&groups[gi].geo, hashes[h], pos);
                qsort(pos, (size_t)n, sizeof pos[0], compare_positions);
                for (int i = 0; i < n; i++)
                    if (m == 0 || pos[m - 1] != pos[i])
                        pos[m++] = pos[i];
            }
            rc = group_candidates(ix, &groups[gi], pos, m, &cands);
        }
    }
    sqlite3_stmt *st = rc == SQLITE_OK ? bs_stmt(ix, BS_ASIDE_ALL) : NULL;
    if (rc == SQLITE_OK && st == NULL)
        rc = SQLITE_ERROR;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 rid = sqlite3_column_int64(st, 0);
        naside++;
        rc = bs_aside_sum_ok(st, 1, rid)
                 ? push(ix, &cands, rid)
                 : bs_corrupt(ix, "a row kept aside does not match its checksum");
    }
    if (st != NULL)
        sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        rc = naside == want_aside ? SQLITE_OK : bs_corrupt(ix, "rows kept aside do not match their count");
    else if (rc != SQLITE_OK && ix->error == NULL)
        rc = bs_fail_db(ix, rc);
    if (rc != SQLITE_OK)
        goto out;

    /* each candidate probed in its own filter, in rowid order */
    if (cands.n > 1)
        qsort(cands.v, (size_t)cands.n, sizeof cands.v[0], compare_rowids);
    for (int i = 0; i < cands.n && rc == SQLITE_OK; i++) {
        if (i > 0 && cands.v[i] == cands.v[i - 1])
            continue;
        if (probe == NULL) {
            rc = push(ix, &hits, cands.v[i]);
            continue;
        }
        if ((st = bs_stmt(ix, BS_CONTENT_TYPE)) == NULL) {
            rc = SQLITE_ERROR;
            break;
        }
        sqlite3_bind_int64(st, 1, cands.v[i]);
        int step = sqlite3_step(st);
        if (step != SQLITE_ROW) {
            sqlite3_reset(st);
            if (step != SQLITE_DONE)
                rc = bs_fail_db(ix, step);
            continue; /* no such row any more */
        }
        const char *type = (const char *)sqlite3_column_text(st, 0);
        int is_null = type != NULL && strcmp(type, "null") == 0,
            is_blob = type != NULL && strcmp(type, "blob") == 0;
        if (!is_null && !is_blob)
            rc = bs_fail(ix, SQLITE_ERROR, "row %lld: a bloom filter is a blob, got %s",
                         (long long)cands.v[i], type ? type : "?");
        sqlite3_reset(st);
        if (rc != SQLITE_OK || is_null)
            continue;
        int match = 0;
        char *msg = NULL;
        rc = bf_stored_probe_row(probe, cands.v[i], &match, &msg);
        if (rc != SQLITE_OK) {
            bs_fail(ix, rc, "%s", msg ? msg : "out of memory");
            sqlite3_free(msg);
        } else if (match) {
            rc = push(ix, &hits, cands.v[i]);
        }
    }
out:
    sqlite3_free(cands.v);
    if (rc != SQLITE_OK) {
        sqlite3_free(hits.v);
        return rc;
    }
    *out = hits.v;
    *nout = hits.n;
    return SQLITE_OK;
}

int bf_bitslice_find(sqlite3 *db, const char *schema, const char *table, const char *column,
                     char **name)
{
    /* sqlite_master: sqlite_schema is 3.33's name for it */
    char *sql = sqlite3_mprintf("SELECT name FROM \"%w\".sqlite_master WHERE type = 'table' "
                                "AND sql LIKE 'CREATE VIRTUAL TABLE%%USING%%bloom_bitslice%%'",
                                schema);
    sqlite3_stmt *st;
    int rc;
    *name = NULL;
    if (sql == NULL)
        return SQLITE_NOMEM;
    rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return rc;
    while (*name == NULL && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        bs_index ix;
        const char *candidate = (const char *)sqlite3_column_text(st, 0);
        memset(&ix, 0, sizeof ix);
        if (candidate == NULL || open_index(&ix, db, schema, candidate) != SQLITE_OK) {
            bs_index_close(&ix);
            continue; /* not one of ours after all, or damaged: the scan answers */
        }
        if (sqlite3_stricmp(ix.table, table) == 0 && sqlite3_stricmp(ix.column, column) == 0)
            *name = sqlite3_mprintf("%s", candidate);
        bs_index_close(&ix);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int bf_bitslice_query(sqlite3 *db, const char *schema, const char *name, bf_stored_probe *probe,
                      sqlite3_int64 **rowids, int *n, char **msg)
{
    bs_index ix;
    int rc = open_index(&ix, db, schema, name);
    if (rc == SQLITE_OK)
        rc = query(&ix, probe, rowids, n);
    if (rc != SQLITE_OK && ix.error != NULL)
        *msg = sqlite3_mprintf("%s", ix.error);
    bs_index_close(&ix);
    return rc;
}

static int bs_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
    (void)base;
    bs_cursor *cur = sqlite3_malloc(sizeof *cur);
    if (cur == NULL)
        return SQLITE_NOMEM;
    memset(cur, 0, sizeof *cur);
    *out = &cur->base;
    return SQLITE_OK;
}

static void cursor_reset(bs_cursor *cur)
{
    sqlite3_free(cur->rows);
    sqlite3_value_free(cur->value);
    cur->rows = NULL;
    cur->value = NULL;
    cur->nrows = cur->pos = 0;
}

static int bs_close(sqlite3_vtab_cursor *base)
{
    cursor_reset((bs_cursor *)base);
    sqlite3_free(base);
    return SQLITE_OK;
}

static int vtab_error(sqlite3_vtab *base, int rc)
{
    bs_index *ix = &((bs_vtab *)base)->ix;
    sqlite3_free(base->zErrMsg);
    base->zErrMsg = sqlite3_mprintf("%s: %s", fn, ix->error ? ix->error : sqlite3_errstr(rc));
    return rc;
}

static int bs_filter(sqlite3_vtab_cursor *base, int idx_num, const char *idx_str, int argc,
                     sqlite3_value **argv)
{
    (void)idx_str;
    bs_cursor *cur = (bs_cursor *)base;
    bs_index *ix = &((bs_vtab *)base->pVtab)->ix;
    int rc = SQLITE_OK;
    cursor_reset(cur);
    if (ix->damage != NULL) {
        bs_fail(ix, ix->damage_rc, "%s", ix->damage);
        return vtab_error(base->pVtab, ix->damage_rc);
    }
    if (idx_num == 1 && argc == 1) {
        if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
            return SQLITE_OK; /* NULL is never a member */
        bf_stored_probe probe;
        if ((cur->value = sqlite3_value_dup(argv[0])) == NULL)
            return SQLITE_NOMEM;
        rc = bf_stored_probe_init(&probe, ix->db, ix->schema, ix->table, ix->column, cur->value);
        if (rc == SQLITE_OK) {
            rc = query(ix, &probe, &cur->rows, &cur->nrows);
            bf_stored_probe_close(&probe);
        }
    } else if (idx_num == 2 && argc == 1) {
        int has = 0;
        sqlite3_int64 rid = sqlite3_value_int64(argv[0]);
        rc = bs_has(ix, rid, &has);
        if (rc == SQLITE_OK && has) {
            if ((cur->rows = sqlite3_malloc(sizeof *cur->rows)) == NULL)
                return SQLITE_NOMEM;
            cur->rows[0] = rid;
            cur->nrows = 1;
        }
    } else {
        rc = query(ix, NULL, &cur->rows, &cur->nrows);
    }
    return rc == SQLITE_OK ? SQLITE_OK : vtab_error(base->pVtab, rc);
}

static int bs_next(sqlite3_vtab_cursor *base)
{
    ((bs_cursor *)base)->pos++;
    return SQLITE_OK;
}

static int bs_eof(sqlite3_vtab_cursor *base)
{
    bs_cursor *cur = (bs_cursor *)base;
    return cur->pos >= cur->nrows;
}

static int bs_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
    bs_cursor *cur = (bs_cursor *)base;
    if (col == COL_VALUE && cur->value != NULL)
        sqlite3_result_value(ctx, cur->value);
    return SQLITE_OK; /* filter: NULL (the table has it) */
}

static int bs_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *out)
{
    bs_cursor *cur = (bs_cursor *)base;
    *out = cur->rows[cur->pos];
    return SQLITE_OK;
}

/* Rows in (the insert trigger: rowid and filter), out (the delete
 * trigger), both (the update trigger does a delete and an insert). */
static int bs_update(sqlite3_vtab *base, int argc, sqlite3_value **argv, sqlite3_int64 *rowid)
{
    bs_index *ix = &((bs_vtab *)base)->ix;
    int rc = SQLITE_OK;
    if (ix->damage != NULL) {
        bs_fail(ix, ix->damage_rc, "%s", ix->damage);
        return vtab_error(base, ix->damage_rc);
    }
    if (sqlite3_value_type(argv[0]) != SQLITE_NULL)
        rc = bs_drop(ix, sqlite3_value_int64(argv[0]));
    if (rc == SQLITE_OK && argc > 1) {
        if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER) {
            bs_fail(ix, SQLITE_ERROR, "a row is indexed under its table's rowid: "
                                      "INSERT INTO index(rowid, filter) VALUES (rowid, filter)");
            return vtab_error(base, SQLITE_ERROR);
        }
        *rowid = sqlite3_value_int64(argv[1]);
        rc = bs_drop(ix, *rowid);
        if (rc == SQLITE_OK)
            rc = bs_put(ix, *rowid, argv[2 + COL_FILTER]);
    }
    return rc == SQLITE_OK ? SQLITE_OK : vtab_error(base, rc);
}

static const sqlite3_module bitslice_module = {
    .iVersion = 3,
    .xCreate = bs_create,
    .xConnect = bs_connect,
    .xBestIndex = bs_best_index,
    .xDisconnect = bs_disconnect,
    .xDestroy = bs_destroy,
    .xOpen = bs_open,
    .xClose = bs_close,
    .xFilter = bs_filter,
    .xNext = bs_next,
    .xEof = bs_eof,
    .xColumn = bs_column,
    .xRowid = bs_rowid,
    .xUpdate = bs_update,
    .xShadowName = bs_shadow_name,
};

int bf_register_bitslice(sqlite3 *db)
{
    return sqlite3_create_module_v2(db, fn, &bitslice_module, NULL, NULL);
}
