/*
 * bitslice_store.c - the shadow tables of a bloom_bitslice index
 * (bitslice.h): a row in (pending, then sliced 64 at a time), a row out (a
 * block keeps its slices and loses the row's live bit; an emptied block is
 * deleted, a sparse one gives its rows back to pending), and the build of
 * a new index from its table.
 */
#include "bitslice.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- statements and errors ---- */

static const char *const templates[BS_NSTMT] = {
    [BS_GROUP_FIND] = "SELECT id FROM \"%w\".\"%w_groups\" "
                      "WHERE layout = ?1 AND nhashes = ?2 AND seed = ?3 AND nbits = ?4",
    [BS_GROUP_INSERT] = "INSERT INTO \"%w\".\"%w_groups\"(id, layout, nhashes, seed, nbits, pending, "
                        "nblocks, sum) VALUES (?1, ?2, ?3, ?4, ?5, 0, 0, ?6)",
    [BS_GROUP_PENDING] = "UPDATE \"%w\".\"%w_groups\" SET pending = pending + ?2 WHERE id = ?1",
    [BS_GROUP_BLOCKS] = "UPDATE \"%w\".\"%w_groups\" SET nblocks = nblocks + ?2 WHERE id = ?1",
    [BS_GROUPS_ALL] = "SELECT id, layout, nhashes, seed, nbits, pending, nblocks, sum "
                      "FROM \"%w\".\"%w_groups\" ORDER BY id",
    [BS_PENDING_INSERT] = "INSERT INTO \"%w\".\"%w_pending\"(rid, grp, bits, sum) VALUES (?1, ?2, ?3, ?4)",
    [BS_PENDING_GROUP_OF] = "SELECT grp, bits, sum FROM \"%w\".\"%w_pending\" WHERE rid = ?1",
    [BS_PENDING_DELETE] = "DELETE FROM \"%w\".\"%w_pending\" WHERE rid = ?1",
    [BS_PENDING_OF_GROUP] = "SELECT rid, bits, sum FROM \"%w\".\"%w_pending\" WHERE grp = ?1 ORDER BY rid",
    [BS_PENDING_DELETE_GROUP] = "DELETE FROM \"%w\".\"%w_pending\" WHERE grp = ?1",
    [BS_ASIDE_INSERT] = "INSERT INTO \"%w\".\"%w_aside\"(rid, sum) VALUES (?1, ?2)",
    [BS_ASIDE_GET] = "SELECT sum FROM \"%w\".\"%w_aside\" WHERE rid = ?1",
    [BS_ASIDE_DELETE] = "DELETE FROM \"%w\".\"%w_aside\" WHERE rid = ?1",
    [BS_ASIDE_ALL] = "SELECT rid, sum FROM \"%w\".\"%w_aside\" ORDER BY rid",
    /* loc = block * 1024 + slot: one integer a row */
    [BS_MAP_GET] = "SELECT loc / 1024, loc %% 1024 FROM \"%w\".\"%w_map\" WHERE rid = ?1",
    [BS_MAP_INSERT] = "INSERT OR REPLACE INTO \"%w\".\"%w_map\"(rid, loc) VALUES (?1, ?2 * 1024 + ?3)",
    [BS_MAP_DELETE] = "DELETE FROM \"%w\".\"%w_map\" WHERE rid = ?1",
    [BS_BLOCK_LAST] = "SELECT id FROM \"%w\".\"%w_blocks\" WHERE grp = ?1 ORDER BY id DESC LIMIT 1",
    [BS_BLOCK_GET] = "SELECT grp, cap, nrows, nlive, live, rids, sum FROM \"%w\".\"%w_blocks\" WHERE id = ?1",
    /* its checksum is written with its first rows, in the same statement */
    [BS_BLOCK_INSERT] = "INSERT INTO \"%w\".\"%w_blocks\"(grp, cap, nrows, nlive, live, rids, sum) "
                        "VALUES (?1, ?2, 0, 0, zeroblob(?2 / 8), zeroblob(?2 * 8), 0)",
    [BS_BLOCK_UPDATE] = "UPDATE \"%w\".\"%w_blocks\" SET nrows = ?2, nlive = ?3, live = ?4, rids = ?5, "
                        "sum = ?6 WHERE id = ?1",
    [BS_BLOCK_DELETE] = "DELETE FROM \"%w\".\"%w_blocks\" WHERE id = ?1",
    [BS_BLOCKS_OF_GROUP] = "SELECT id, cap, nrows, nlive, live, sum FROM \"%w\".\"%w_blocks\" WHERE grp = ?1 "
                           "ORDER BY id",
    [BS_SLICE_INSERT] = "INSERT INTO \"%w\".\"%w_slices\"(id, data) VALUES (?1, ?2)",
    [BS_SLICES_DELETE] = "DELETE FROM \"%w\".\"%w_slices\" WHERE id >= ?1 AND id < ?2",
    [BS_CONFIG_GET] = "SELECT v FROM \"%w\".\"%w_config\" WHERE k = ?1",
    [BS_CONFIG_ADD] = "UPDATE \"%w\".\"%w_config\" SET v = v + ?2 WHERE k = ?1",
};

sqlite3_stmt *bs_stmt(bs_index *ix, int which)
{
    if (ix->stmt[which] != NULL) {
        sqlite3_reset(ix->stmt[which]);
        sqlite3_clear_bindings(ix->stmt[which]);
        return ix->stmt[which];
    }
    char *sql;
    /* sqlite_master: sqlite_schema is 3.33's name for it */
    if (which == BS_TRIGGER_SQL)
        sql = sqlite3_mprintf("SELECT type, tbl_name, sql FROM \"%w\".sqlite_master WHERE name = ?1",
                              ix->schema);
    else if (which == BS_CONTENT_TYPE)
        sql = sqlite3_mprintf("SELECT typeof(\"%w\") FROM \"%w\".\"%w\" WHERE rowid = ?1",
                              ix->column, ix->schema, ix->table);
    else
        sql = sqlite3_mprintf(templates[which], ix->schema, ix->name);
    if (sql == NULL) {
        bs_fail(ix, SQLITE_NOMEM, "out of memory");
        return NULL;
    }
    int rc = sqlite3_prepare_v2(ix->db, sql, -1, &ix->stmt[which], NULL);
    sqlite3_free(sql);
    if (rc == SQLITE_ERROR && which != BS_CONTENT_TYPE) {
        /* a shadow table or column gone (no such table, no such column) */
        bs_corrupt(ix, sqlite3_errmsg(ix->db));
        return NULL;
    }
    if (rc != SQLITE_OK) {
        bs_fail_db(ix, rc);
        return NULL;
    }
    return ix->stmt[which];
}

int bs_fail(bs_index *ix, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sqlite3_free(ix->error);
    ix->error = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    return rc;
}

int bs_fail_db(bs_index *ix, int rc)
{
    return bs_fail(ix, rc, "%s", sqlite3_errmsg(ix->db));
}

int bs_corrupt(bs_index *ix, const char *what)
{
    return bs_fail(ix, SQLITE_CORRUPT_VTAB, "the shadow tables of index %s are damaged: %s",
                   ix->name, what);
}

uint64_t bs_sum(int tag, const sqlite3_int64 *fields, int nfields, const void *blob, size_t len)
{
    uint8_t buf[8 * 8];
    for (int i = 0; i < nfields; i++)
        for (int j = 0; j < 8; j++)
            buf[8 * i + j] = (uint8_t)((uint64_t)fields[i] >> (8 * j));
    uint64_t h = bloom_hash_bytes(buf, 8 * (size_t)nfields, (uint64_t)tag);
    return len > 0 ? bloom_hash_bytes(blob, len, h) : h;
}

sqlite3_int64 bs_config_sum(const char *table, const char *column, uint64_t max_nbits,
                            sqlite3_int64 version)
{
    size_t tlen = strlen(table), clen = strlen(column);
    sqlite3_int64 fields[] = {(sqlite3_int64)tlen, (sqlite3_int64)clen, (sqlite3_int64)max_nbits,
                              version};
    uint64_t h = bs_sum(BS_SUM_CONFIG, fields, 4, table, tlen);
    return bf_to_int64(clen > 0 ? bloom_hash_bytes(column, clen, h) : h);
}

int bs_config_count(bs_index *ix, const char *key, sqlite3_int64 *count)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_CONFIG_GET);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), type = rc == SQLITE_ROW ? sqlite3_column_type(st, 0) : SQLITE_NULL;
    *count = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    return type == SQLITE_INTEGER && *count >= 0 ? SQLITE_OK : bs_corrupt(ix, "a count of rows is missing");
}

int bs_config_add(bs_index *ix, const char *key, sqlite3_int64 delta)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_CONFIG_ADD);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, delta);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return bs_fail_db(ix, rc == SQLITE_ROW ? SQLITE_ERROR : rc);
    return sqlite3_changes(ix->db) == 1 ? SQLITE_OK : bs_corrupt(ix, "a count of rows is missing");
}

void bs_index_close(bs_index *ix)
{
    for (int i = 0; i < BS_NSTMT; i++)
        sqlite3_finalize(ix->stmt[i]);
    sqlite3_blob_close(ix->slices);
    sqlite3_free(ix->schema);
    sqlite3_free(ix->name);
    sqlite3_free(ix->table);
    sqlite3_free(ix->column);
    sqlite3_free(ix->slices_table);
    sqlite3_free(ix->blocks_table);
    sqlite3_free(ix->error);
    sqlite3_free(ix->damage);
    memset(ix, 0, sizeof *ix);
}

/* Step a statement that returns nothing. */
static int done(bs_index *ix, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : bs_fail_db(ix, rc == SQLITE_ROW ? SQLITE_ERROR : rc);
}

/* ---- reading back ---- */

int bs_load_groups(bs_index *ix, bs_group *groups, int *ngroups)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_GROUPS_ALL);
    int rc, n = 0;
    if (st == NULL)
        return SQLITE_ERROR;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == BLOOM_SLICES_MAX_GROUPS) {
            sqlite3_reset(st);
            return bs_corrupt(ix, "too many groups");
        }
        bs_group *g = &groups[n++];
        sqlite3_int64 fields[] = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                                  sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
                                  sqlite3_column_int64(st, 4)};
        int64_t layout = fields[1], nhashes = fields[2], nbits = fields[4];
        g->id = fields[0];
        g->pending = sqlite3_column_int64(st, 5);
        g->nblocks = sqlite3_column_int64(st, 6);
        /* groups are never deleted: ids 1 to n */
        if (g->id != n || sqlite3_column_type(st, 7) != SQLITE_INTEGER ||
            sqlite3_column_int64(st, 7) != bf_to_int64(bs_sum(BS_SUM_GROUP, fields, 5, NULL, 0))) {
            sqlite3_reset(st);
            return bs_corrupt(ix, "a group does not match its checksum");
        }
        if (layout < 0 || layout > 255 || nhashes < 0 || nhashes > 255 || nbits < 1 ||
            (uint64_t)nbits > ix->max_nbits || g->pending < 0 || g->nblocks < 0) {
            sqlite3_reset(st);
            return bs_corrupt(ix, "a group has no valid geometry");
        }
        g->geo.layout = (uint8_t)layout;
        g->geo.nhashes = (uint8_t)nhashes;
        g->geo.seed = (uint64_t)sqlite3_column_int64(st, 3);
        g->geo.nbits = (uint64_t)nbits;
        if (bloom_check_geometry(&g->geo, NULL) != BLOOM_OK) {
            sqlite3_reset(st);
            return bs_corrupt(ix, "a group has no valid geometry");
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    sqlite3_int64 count;
    if ((rc = bs_config_count(ix, "groups", &count)) != SQLITE_OK)
        return rc;
    if (count != n)
        return bs_corrupt(ix, "groups are missing");
    *ngroups = n;
    return SQLITE_OK;
}

static int load_group(bs_index *ix, sqlite3_int64 id, bs_group *out)
{
    bs_group groups[BLOOM_SLICES_MAX_GROUPS];
    int n, rc = bs_load_groups(ix, groups, &n);
    if (rc != SQLITE_OK)
        return rc;
    for (int i = 0; i < n; i++)
        if (groups[i].id == id) {
            *out = groups[i];
            return SQLITE_OK;
        }
    return bs_corrupt(ix, "a row of no group");
}

/* The stream of a block's slices cut into rows of NAME_slices (core/bloom.h). */
uint32_t bs_slice_pages(uint32_t cap, uint64_t nbits)
{
    return bloom_slices_pages(cap, nbits, BS_PAGE_BYTES);
}

uint32_t bs_slice_page_bytes(uint32_t cap, uint64_t nbits, uint32_t page)
{
    return bloom_slices_page_bytes(cap, nbits, BS_PAGE_BYTES, page);
}

/* A page's checksums, after its bytes: one a chunk, of the page's id, the
 * chunk's number and bytes. */
static uint32_t page_chunks(uint32_t bytes)
{
    return (bytes + BS_CHUNK_BYTES - 1) / BS_CHUNK_BYTES;
}

/* Bytes of chunk c of a page of bytes. */
static uint32_t chunk_len(uint32_t bytes, uint32_t c)
{
    uint32_t start = c * BS_CHUNK_BYTES;
    return bytes - start < BS_CHUNK_BYTES ? bytes - start : BS_CHUNK_BYTES;
}

static uint64_t chunk_sum(sqlite3_int64 id, uint32_t chunk, const uint8_t *data, uint32_t len)
{
    sqlite3_int64 fields[] = {id, chunk};
    return bs_sum(BS_SUM_PAGE, fields, 2, data, len);
}

static uint64_t sum_at(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = BS_SUM_BYTES - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_page_sum(sqlite3_int64 id, uint8_t *page, uint32_t bytes)
{
    for (uint32_t c = 0; c < page_chunks(bytes); c++) {
        uint64_t sum = chunk_sum(id, c, page + c * BS_CHUNK_BYTES, chunk_len(bytes, c));
        for (int i = 0; i < BS_SUM_BYTES; i++)
            page[bytes + BS_SUM_BYTES * c + (uint32_t)i] = (uint8_t)(sum >> (8 * i));
    }
}

static int page_sum_ok(sqlite3_int64 id, const uint8_t *page, uint32_t bytes)
{
    for (uint32_t c = 0; c < page_chunks(bytes); c++)
        if (chunk_sum(id, c, page + c * BS_CHUNK_BYTES, chunk_len(bytes, c)) !=
            sum_at(page + bytes + BS_SUM_BYTES * c))
            return 0;
    return 1;
}

/* Open *blob on page id of NAME_slices (writable or not), of bytes and
 * their checksums. */
static int open_page(bs_index *ix, sqlite3_blob **blob, int writable, sqlite3_int64 id,
                     uint32_t bytes)
{
    int rc = *blob ? sqlite3_blob_reopen(*blob, id)
                   : sqlite3_blob_open(ix->db, ix->schema, ix->slices_table, "data", id, writable,
                                       blob);
    if (rc != SQLITE_OK) {
        sqlite3_blob_close(*blob); /* a failed reopen leaves it unusable */
        *blob = NULL;
        return rc == SQLITE_ERROR ? bs_corrupt(ix, "a slice page is missing") : bs_fail_db(ix, rc);
    }
    if (sqlite3_blob_bytes(*blob) != (int)(bytes + BS_SUM_BYTES * page_chunks(bytes)))
        return bs_corrupt(ix, "a slice page has the wrong size");
    return SQLITE_OK;
}

/* Read page id whole, its checksums checked, into buf (BS_PAGE_ROW_MAX). */
static int read_page(bs_index *ix, sqlite3_blob **blob, int writable, sqlite3_int64 id,
                     uint8_t *buf, uint32_t bytes)
{
    int rc = open_page(ix, blob, writable, id, bytes);
    if (rc != SQLITE_OK)
        return rc;
    if ((rc = sqlite3_blob_read(*blob, buf, (int)(bytes + BS_SUM_BYTES * page_chunks(bytes)), 0)) !=
        SQLITE_OK)
        return bs_fail_db(ix, rc);
    return page_sum_ok(id, buf, bytes) ? SQLITE_OK
                                       : bs_corrupt(ix, "a slice page does not match its checksum");
}

int bs_read_slice_page(bs_index *ix, sqlite3_int64 block, uint32_t page, uint8_t *buf, int bytes)
{
    sqlite3_int64 id = (sqlite3_int64)((uint64_t)block << BS_PAGE_SHIFT | page);
    return read_page(ix, &ix->slices, 0, id, buf, (uint32_t)bytes);
}

int bs_read_slice(bs_index *ix, sqlite3_int64 block, uint32_t cap, uint64_t nbits, uint64_t p,
                  uint8_t *out)
{
    uint32_t want = cap / 8;
    while (want > 0) {
        /* pages and chunks hold whole words: what is left starts a word */
        uint32_t page, in;
        bloom_slices_word_at(cap, BS_PAGE_BYTES, p, (cap / 8 - want) / 8, &page, &in);
        uint32_t bytes = bs_slice_page_bytes(cap, nbits, page), chunk = in / BS_CHUNK_BYTES;
        uint32_t start = chunk * BS_CHUNK_BYTES;
        sqlite3_int64 id = (sqlite3_int64)((uint64_t)block << BS_PAGE_SHIFT | page);
        if (in >= bytes)
            return bs_corrupt(ix, "a slice page has the wrong size");
        uint32_t len = chunk_len(bytes, chunk);
        if (id != ix->page_id || chunk != ix->chunk) {
            uint8_t sum[BS_SUM_BYTES];
            int rc;
            ix->page_id = -1;
            if ((rc = open_page(ix, &ix->slices, 0, id, bytes)) != SQLITE_OK)
                return rc;
            if ((rc = sqlite3_blob_read(ix->slices, ix->page, (int)len, (int)start)) != SQLITE_OK ||
                (rc = sqlite3_blob_read(ix->slices, sum, BS_SUM_BYTES,
                                        (int)(bytes + BS_SUM_BYTES * chunk))) != SQLITE_OK)
                return bs_fail_db(ix, rc);
            if (chunk_sum(id, chunk, ix->page, len) != sum_at(sum))
                return bs_corrupt(ix, "a slice page does not match its checksum");
            ix->page_id = id;
            ix->chunk = chunk;
        }
        uint32_t take = start + len - in < want ? start + len - in : want;
        memcpy(out, ix->page + (in - start), take);
        out += take;
        want -= take;
    }
    return SQLITE_OK;
}

/* A block as NAME_blocks holds it, checked. */
typedef struct bs_block {
    sqlite3_int64 id, grp;
    uint32_t cap, nrows, nlive;
    uint8_t live[BLOOM_SLICES_MAX_CAP / 8];
    uint8_t rids[8 * BLOOM_SLICES_MAX_CAP];
} bs_block;

static sqlite3_int64 block_sum(sqlite3_int64 id, sqlite3_int64 grp, sqlite3_int64 cap,
                               sqlite3_int64 nrows, sqlite3_int64 nlive, const uint8_t *live)
{
    sqlite3_int64 fields[] = {id, grp, cap, nrows, nlive};
    return bf_to_int64(bs_sum(BS_SUM_BLOCK, fields, 5, live, (size_t)cap / 8));
}

int bs_check_block(bs_index *ix, sqlite3_int64 id, sqlite3_int64 grp, sqlite3_int64 cap,
                   sqlite3_int64 nrows, sqlite3_int64 nlive, const uint8_t *live, int live_bytes,
                   sqlite3_int64 sum)
{
    if (cap < BLOOM_SLICES_MIN_CAP || cap > BLOOM_SLICES_MAX_CAP || cap % 64 != 0 || nrows < 0 || nrows > cap ||
        nlive < 1 || nlive > nrows || live_bytes != cap / 8 || live == NULL)
        return bs_corrupt(ix, "a block has counts out of range");
    if (sum != block_sum(id, grp, cap, nrows, nlive, live))
        return bs_corrupt(ix, "a block does not match its checksum");
    /* the live slots: nlive of them, all below nrows */
    sqlite3_int64 n = 0;
    for (sqlite3_int64 i = 0; i < cap / 8; i++)
        n += __builtin_popcount(live[i]);
    for (sqlite3_int64 slot = nrows; slot < cap && n == nlive; slot++)
        if (live[slot / 8] >> (slot % 8) & 1)
            n = -1;
    return n == nlive ? SQLITE_OK : bs_corrupt(ix, "a block's live rows do not match its counts");
}

static int load_block(bs_index *ix, sqlite3_int64 id, bs_block *b)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_BLOCK_GET);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        return rc == SQLITE_DONE ? bs_corrupt(ix, "a block is missing") : bs_fail_db(ix, rc);
    }
    int64_t cap = sqlite3_column_int64(st, 1), nrows = sqlite3_column_int64(st, 2),
            nlive = sqlite3_column_int64(st, 3);
    b->id = id;
    b->grp = sqlite3_column_int64(st, 0);
    if ((rc = bs_check_block(ix, id, b->grp, cap, nrows, nlive, sqlite3_column_blob(st, 4),
                             sqlite3_column_bytes(st, 4), sqlite3_column_int64(st, 6))) != SQLITE_OK) {
        sqlite3_reset(st);
        return rc;
    }
    if (sqlite3_column_bytes(st, 5) != 8 * cap || sqlite3_column_blob(st, 5) == NULL) {
        sqlite3_reset(st);
        return bs_corrupt(ix, "a block has counts out of range");
    }
    b->cap = (uint32_t)cap;
    b->nrows = (uint32_t)nrows;
    b->nlive = (uint32_t)nlive;
    memcpy(b->live, sqlite3_column_blob(st, 4), (size_t)cap / 8);
    memcpy(b->rids, sqlite3_column_blob(st, 5), (size_t)cap * 8);
    sqlite3_reset(st);
    return SQLITE_OK;
}

static int save_block(bs_index *ix, const bs_block *b)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_BLOCK_UPDATE);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, b->id);
    sqlite3_bind_int64(st, 2, b->nrows);
    sqlite3_bind_int64(st, 3, b->nlive);
    sqlite3_bind_blob(st, 4, b->live, (int)b->cap / 8, SQLITE_STATIC);
    sqlite3_bind_blob(st, 5, b->rids, (int)b->cap * 8, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, block_sum(b->id, b->grp, b->cap, b->nrows, b->nlive, b->live));
    return done(ix, st);
}

static sqlite3_int64 rid_at(const bs_block *b, uint32_t slot)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b->rids[8 * slot + (uint32_t)i];
    return bf_to_int64(v);
}

static void set_rid(bs_block *b, uint32_t slot, sqlite3_int64 rid)
{
    uint64_t v = (uint64_t)rid;
    for (int i = 0; i < 8; i++)
        b->rids[8 * slot + (uint32_t)i] = (uint8_t)(v >> (8 * i));
}

static int is_live(const bs_block *b, uint32_t slot)
{
    return b->live[slot / 8] >> (slot % 8) & 1;
}

int bs_check_map(bs_index *ix, sqlite3_int64 rid, sqlite3_int64 block, sqlite3_int64 slot)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_MAP_GET);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = sqlite3_step(st);
    int here = rc == SQLITE_ROW && sqlite3_column_int64(st, 0) == block &&
               sqlite3_column_int64(st, 1) == slot;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    return here ? SQLITE_OK : bs_corrupt(ix, "a block's row is not where the map puts it");
}

/* ---- slicing ---- */

/*
 * Write rows into slots [first, first + n) of block b (of nbits): the
 * rows' bits merged into each page of its slices (bloom_slices_batch_merge).
 * fresh: the block's slice pages are new.
 */
static int write_slices(bs_index *ix, uint64_t nbits, const bs_block *b, int fresh,
                        uint32_t first, const bs_row *rows, uint32_t n)
{
    uint32_t npages = bs_slice_pages(b->cap, nbits);
    size_t nwords = bloom_slices_batch_words(nbits, first, n);
    const uint8_t *rowbits[BLOOM_SLICES_MAX_CAP];
    uint64_t *words = nwords > 0 ? sqlite3_malloc64((sqlite3_uint64)nwords * sizeof(uint64_t)) : NULL;
    uint8_t *page = sqlite3_malloc(BS_PAGE_ROW_MAX);
    sqlite3_blob *blob = NULL;
    bloom_slices_batch batch;
    bloom_error err;
    int rc = SQLITE_OK;
    if (words == NULL || page == NULL) {
        rc = nwords == 0 ? bs_fail(ix, SQLITE_INTERNAL, "%u rows at slot %u cannot be sliced", n, first)
                         : bs_fail(ix, SQLITE_NOMEM, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < n && i < BLOOM_SLICES_MAX_CAP; i++)
        rowbits[i] = rows[i].bits;
    if (bloom_slices_batch_make(&batch, nbits, b->cap, first, rowbits, n, words, nwords, &err) !=
        BLOOM_OK) {
        rc = bs_fail(ix, SQLITE_INTERNAL, "%s", err.message);
        goto out;
    }
    for (uint32_t pg = 0; pg < npages && rc == SQLITE_OK; pg++) {
        uint32_t bytes = bs_slice_page_bytes(b->cap, nbits, pg);
        sqlite3_int64 id = (sqlite3_int64)((uint64_t)b->id << BS_PAGE_SHIFT | pg);
        if (fresh)
            memset(page, 0, bytes);
        else if ((rc = read_page(ix, &blob, 1, id, page, bytes)) != SQLITE_OK)
            break;
        /* rows of NAME_slices are portable: little-endian words */
        if (bloom_slices_batch_merge(&batch, BS_PAGE_BYTES, pg, page, bytes,
                                     BLOOM_SLICES_LITTLE_ENDIAN, &err) != BLOOM_OK) {
            rc = bs_fail(ix, SQLITE_INTERNAL, "%s", err.message);
            break;
        }
        put_page_sum(id, page, bytes);
        if (fresh) {
            sqlite3_stmt *st = bs_stmt(ix, BS_SLICE_INSERT);
            if (st == NULL) {
                rc = SQLITE_ERROR;
                break;
            }
            sqlite3_bind_int64(st, 1, id);
            sqlite3_bind_blob(st, 2, page, (int)(bytes + BS_SUM_BYTES * page_chunks(bytes)),
                              SQLITE_STATIC);
            rc = done(ix, st);
        } else if ((rc = sqlite3_blob_write(blob, page, (int)(bytes + BS_SUM_BYTES * page_chunks(bytes)),
                                            0)) != SQLITE_OK) {
            rc = bs_fail_db(ix, rc);
        }
    }
out:
    sqlite3_blob_close(blob);
    sqlite3_free(words);
    sqlite3_free(page);
    return rc;
}

/* The last block of group gid (*id 0: none). */
static int last_block(bs_index *ix, sqlite3_int64 gid, sqlite3_int64 *id)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_BLOCK_LAST);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, gid);
    int rc = sqlite3_step(st);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : bs_fail_db(ix, rc);
}

/* Slice rows into group g's last block, then new ones: of room for the
 * rows left, at least twice the last block when grow (rows trickling in). */
static int slice_rows(bs_index *ix, const bs_group *g, const bs_row *rows, uint32_t n, int grow)
{
    bs_block *b = sqlite3_malloc(sizeof *b);
    uint32_t done_rows = 0;
    int rc = SQLITE_OK;
    if (b == NULL)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    while (done_rows < n && rc == SQLITE_OK) {
        sqlite3_int64 last;
        int fresh = 0;
        if ((rc = last_block(ix, g->id, &last)) != SQLITE_OK)
            break;
        if (last != 0 && (rc = load_block(ix, last, b)) != SQLITE_OK)
            break;
        if (last == 0 || b->nrows == b->cap) {
            uint32_t want = bloom_slices_block_cap(n - done_rows, grow && last != 0 ? b->cap : 0,
                                                   BLOOM_SLICES_MAX_CAP);
            sqlite3_stmt *st = bs_stmt(ix, BS_BLOCK_INSERT);
            if (st == NULL) {
                rc = SQLITE_ERROR;
                break;
            }
            sqlite3_bind_int64(st, 1, g->id);
            sqlite3_bind_int64(st, 2, want);
            if ((rc = done(ix, st)) != SQLITE_OK)
                break;
            memset(b, 0, sizeof *b);
            b->id = sqlite3_last_insert_rowid(ix->db);
            if ((st = bs_stmt(ix, BS_GROUP_BLOCKS)) == NULL) {
                rc = SQLITE_ERROR;
                break;
            }
            sqlite3_bind_int64(st, 1, g->id);
            sqlite3_bind_int64(st, 2, 1);
            if ((rc = done(ix, st)) != SQLITE_OK)
                break;
            b->grp = g->id;
            b->cap = want;
            fresh = 1;
        }
        uint32_t first = b->nrows, take = n - done_rows < b->cap - first ? n - done_rows : b->cap - first;
        if ((rc = write_slices(ix, g->geo.nbits, b, fresh, first, rows + done_rows, take)) != SQLITE_OK)
            break;
        for (uint32_t i = 0; i < take && rc == SQLITE_OK; i++) {
            uint32_t slot = first + i;
            set_rid(b, slot, rows[done_rows + i].rid);
            b->live[slot / 8] |= (uint8_t)(1u << (slot % 8));
            sqlite3_stmt *st = bs_stmt(ix, BS_MAP_INSERT);
            if (st == NULL) {
                rc = SQLITE_ERROR;
                break;
            }
            sqlite3_bind_int64(st, 1, rows[done_rows + i].rid);
            sqlite3_bind_int64(st, 2, b->id);
            sqlite3_bind_int64(st, 3, slot);
            rc = done(ix, st);
        }
        b->nrows = first + take;
        b->nlive += take;
        if (rc == SQLITE_OK)
            rc = save_block(ix, b);
        done_rows += take;
    }
    sqlite3_free(b);
    return rc;
}

int bs_check_pending(bs_index *ix, const bs_group *g, sqlite3_stmt *st)
{
    uint64_t nbytes = bloom_geometry_nbytes(&g->geo);
    const void *bits = sqlite3_column_blob(st, 1);
    if (sqlite3_column_type(st, 1) != SQLITE_BLOB || (uint64_t)sqlite3_column_bytes(st, 1) != nbytes ||
        bits == NULL)
        return bs_corrupt(ix, "a pending row has the wrong size");
    if (sqlite3_column_type(st, 2) != SQLITE_INTEGER ||
        sqlite3_column_int64(st, 2) !=
            bf_to_int64(bs_pending_sum(sqlite3_column_int64(st, 0), g->id, bits, nbytes)))
        return bs_corrupt(ix, "a pending row does not match its checksum");
    return SQLITE_OK;
}

/* Slice group g's pending rows. */
static int flush(bs_index *ix, const bs_group *g)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_PENDING_OF_GROUP);
    uint64_t nbytes = bloom_geometry_nbytes(&g->geo);
    bs_row *rows = NULL;
    uint8_t *bits = NULL;
    uint32_t n = 0, max = 0;
    int rc;
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, g->id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if ((rc = bs_check_pending(ix, g, st)) != SQLITE_OK)
            goto out;
        if (n == max) {
            max = max ? 2 * max : 64;
            bs_row *r2 = sqlite3_realloc64(rows, (sqlite3_uint64)max * sizeof *rows);
            uint8_t *b2 = sqlite3_realloc64(bits, (sqlite3_uint64)max * nbytes);
            if (r2 != NULL)
                rows = r2;
            if (b2 != NULL)
                bits = b2;
            if (r2 == NULL || b2 == NULL) {
                rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
                goto out;
            }
        }
        rows[n].rid = sqlite3_column_int64(st, 0);
        memcpy(bits + (size_t)n * nbytes, sqlite3_column_blob(st, 1), nbytes);
        n++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        rc = bs_fail_db(ix, rc);
        goto out;
    }
    if (n != g->pending) {
        rc = bs_corrupt(ix, "pending rows do not match their count");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++)
        rows[i].bits = bits + (size_t)i * nbytes;
    if (n > 0 && (rc = slice_rows(ix, g, rows, n, 1)) != SQLITE_OK)
        goto out;
    if ((st = bs_stmt(ix, BS_PENDING_DELETE_GROUP)) == NULL) {
        rc = SQLITE_ERROR;
        goto out;
    }
    sqlite3_bind_int64(st, 1, g->id);
    if ((rc = done(ix, st)) != SQLITE_OK)
        goto out;
    if ((st = bs_stmt(ix, BS_GROUP_PENDING)) == NULL) {
        rc = SQLITE_ERROR;
        goto out;
    }
    sqlite3_bind_int64(st, 1, g->id);
    sqlite3_bind_int64(st, 2, -g->pending);
    rc = done(ix, st);
out:
    sqlite3_reset(st);
    sqlite3_free(rows);
    sqlite3_free(bits);
    return rc;
}

/* ---- a row in ---- */

/* The group of geometry geo, made when there is room; *gid 0: no room. */
static int group_of(bs_index *ix, const bloom_geometry *geo, sqlite3_int64 *gid)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_GROUP_FIND);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, geo->layout);
    sqlite3_bind_int64(st, 2, geo->nhashes);
    sqlite3_bind_int64(st, 3, bf_to_int64(geo->seed));
    sqlite3_bind_int64(st, 4, (sqlite3_int64)geo->nbits);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *gid = sqlite3_column_int64(st, 0);
        sqlite3_reset(st);
        return SQLITE_OK;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    *gid = 0;
    bs_group groups[BLOOM_SLICES_MAX_GROUPS];
    int count;
    if ((rc = bs_load_groups(ix, groups, &count)) != SQLITE_OK)
        return rc;
    if (count >= BLOOM_SLICES_MAX_GROUPS)
        return SQLITE_OK;
    sqlite3_int64 fields[] = {count + 1, geo->layout, geo->nhashes, bf_to_int64(geo->seed),
                              (sqlite3_int64)geo->nbits};
    if ((st = bs_stmt(ix, BS_GROUP_INSERT)) == NULL)
        return SQLITE_ERROR;
    for (int i = 0; i < 5; i++)
        sqlite3_bind_int64(st, i + 1, fields[i]);
    sqlite3_bind_int64(st, 6, bf_to_int64(bs_sum(BS_SUM_GROUP, fields, 5, NULL, 0)));
    if ((rc = done(ix, st)) != SQLITE_OK || (rc = bs_config_add(ix, "groups", 1)) != SQLITE_OK)
        return rc;
    *gid = count + 1;
    return SQLITE_OK;
}

/* The geometry and bits v is indexed with: 0 when v goes aside (not a
 * filter; a layout, hash or version the core does not slice, such as a
 * layout added later: bloom_sliceable is a positive check; one that
 * cannot be folded usefully; or one of PostgreSQL-typed values, which
 * every text probe must reach to be refused: text_probe.c). */
static int signature_of(bs_index *ix, sqlite3_value *v, bloom_geometry *geo, uint8_t *bits)
{
    if (sqlite3_value_type(v) != SQLITE_BLOB)
        return 0;
    bloom_filter f;
    if (bloom_parse(sqlite3_value_blob(v), (size_t)sqlite3_value_bytes(v), &f, NULL) != BLOOM_OK ||
        !bloom_sliceable(&f) || (f.kinds.mask & BLOOM_KIND_TYPED))
        return 0;
    uint64_t target;
    if (f.nbits <= ix->max_nbits) {
        target = f.nbits;
    } else if (ix->fold_layout == f.layout && ix->fold_nbits == f.nbits) {
        target = ix->fold_target;
    } else {
        target = bloom_fold_target(f.layout, f.nbits, ix->max_nbits);
        ix->fold_layout = f.layout;
        ix->fold_nbits = f.nbits;
        ix->fold_target = target;
    }
    return target != 0 && bloom_signature(&f, ix->max_nbits, target, geo, bits);
}

static sqlite3_int64 aside_sum(sqlite3_int64 rid)
{
    return bf_to_int64(bs_sum(BS_SUM_ASIDE, &rid, 1, NULL, 0));
}

int bs_aside_sum_ok(sqlite3_stmt *st, int col, sqlite3_int64 rid)
{
    return sqlite3_column_type(st, col) == SQLITE_INTEGER &&
           sqlite3_column_int64(st, col) == aside_sum(rid);
}

static int put_aside(bs_index *ix, sqlite3_int64 rid)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_ASIDE_INSERT);
    int rc;
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    sqlite3_bind_int64(st, 2, aside_sum(rid));
    if ((rc = done(ix, st)) != SQLITE_OK)
        return rc;
    return bs_config_add(ix, "aside", 1);
}

uint64_t bs_pending_sum(sqlite3_int64 rid, sqlite3_int64 grp, const void *bits, size_t nbytes)
{
    sqlite3_int64 fields[] = {rid, grp};
    return bs_sum(BS_SUM_PENDING, fields, 2, bits, nbytes);
}

/* rows of group gid to pending (then sliced when they make a batch). */
static int put_pending(bs_index *ix, sqlite3_int64 gid, const bs_row *rows, uint32_t n,
                       uint64_t nbytes)
{
    int rc = SQLITE_OK;
    for (uint32_t i = 0; i < n && rc == SQLITE_OK; i++) {
        sqlite3_stmt *st = bs_stmt(ix, BS_PENDING_INSERT);
        if (st == NULL)
            return SQLITE_ERROR;
        sqlite3_bind_int64(st, 1, rows[i].rid);
        sqlite3_bind_int64(st, 2, gid);
        sqlite3_bind_blob(st, 3, rows[i].bits, (int)nbytes, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, bf_to_int64(bs_pending_sum(rows[i].rid, gid, rows[i].bits, nbytes)));
        rc = done(ix, st);
    }
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_stmt *st = bs_stmt(ix, BS_GROUP_PENDING);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, gid);
    sqlite3_bind_int64(st, 2, n);
    if ((rc = done(ix, st)) != SQLITE_OK)
        return rc;
    bs_group g;
    if ((rc = load_group(ix, gid, &g)) != SQLITE_OK)
        return rc;
    return g.pending >= BLOOM_SLICES_BATCH_ROWS ? flush(ix, &g) : SQLITE_OK;
}

int bs_put(bs_index *ix, sqlite3_int64 rid, sqlite3_value *v)
{
    if (sqlite3_value_type(v) == SQLITE_NULL)
        return SQLITE_OK; /* a NULL filter holds nothing: never a candidate */
    uint8_t *bits = sqlite3_malloc64(ix->max_nbits / 8 + 8);
    bloom_geometry geo;
    sqlite3_int64 gid = 0;
    int rc = SQLITE_OK;
    if (bits == NULL)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    if (signature_of(ix, v, &geo, bits))
        rc = group_of(ix, &geo, &gid);
    if (rc == SQLITE_OK) {
        if (gid == 0) {
            rc = put_aside(ix, rid);
        } else {
            bs_row row = {rid, bits};
            rc = put_pending(ix, gid, &row, 1, bloom_geometry_nbytes(&geo));
        }
    }
    sqlite3_free(bits);
    return rc;
}

/* ---- a row out ---- */

static int delete_block(bs_index *ix, const bs_block *b)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_SLICES_DELETE);
    int rc;
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)((uint64_t)b->id << BS_PAGE_SHIFT));
    sqlite3_bind_int64(st, 2, (sqlite3_int64)((uint64_t)(b->id + 1) << BS_PAGE_SHIFT));
    if ((rc = done(ix, st)) != SQLITE_OK)
        return rc;
    if ((st = bs_stmt(ix, BS_BLOCK_DELETE)) == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, b->id);
    if ((rc = done(ix, st)) != SQLITE_OK)
        return rc;
    if ((st = bs_stmt(ix, BS_GROUP_BLOCKS)) == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, b->grp);
    sqlite3_bind_int64(st, 2, -1);
    return done(ix, st);
}

/* The live rows of block b, read back from its slices: rows[] (bits in
 * *store, sqlite3_malloc'd), *n. */
static int read_live_rows(bs_index *ix, const bs_group *g, const bs_block *b, bs_row *rows,
                          uint8_t **store, uint32_t *n)
{
    uint64_t nbytes = bloom_geometry_nbytes(&g->geo);
    uint32_t nwords = b->cap / 64, npages = bs_slice_pages(b->cap, g->geo.nbits);
    size_t ncols = (size_t)nwords * nbytes * 8;
    uint64_t *cols = sqlite3_malloc64((sqlite3_uint64)ncols * sizeof(uint64_t));
    uint8_t *page = sqlite3_malloc(BS_PAGE_ROW_MAX), *bits = sqlite3_malloc64(64 * nbytes);
    int rc = SQLITE_OK;
    *store = sqlite3_malloc64((sqlite3_uint64)b->nlive * nbytes + 1);
    *n = 0;
    if (cols == NULL || page == NULL || bits == NULL || *store == NULL) {
        rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
        goto out;
    }
    for (uint32_t pg = 0; pg < npages; pg++) {
        uint32_t bytes = bs_slice_page_bytes(b->cap, g->geo.nbits, pg);
        bloom_error err;
        if ((rc = bs_read_slice_page(ix, b->id, pg, page, (int)bytes)) != SQLITE_OK)
            goto out;
        if (bloom_slices_page_to_cols(b->cap, g->geo.nbits, BS_PAGE_BYTES, pg, page, bytes,
                                      BLOOM_SLICES_LITTLE_ENDIAN, cols, ncols, &err) != BLOOM_OK) {
            rc = bs_fail(ix, SQLITE_INTERNAL, "%s", err.message);
            goto out;
        }
    }
    for (uint32_t w = 0; w < nwords; w++) {
        uint8_t *out[64];
        for (int j = 0; j < 64; j++)
            out[j] = bits + (size_t)j * nbytes;
        bloom_slices_to_rows(cols + (size_t)w * nbytes * 8, nbytes, out, 64);
        for (uint32_t j = 0; j < 64; j++) {
            uint32_t slot = 64 * w + j;
            if (slot >= b->nrows || !is_live(b, slot) || *n >= b->nlive)
                continue;
            rows[*n].rid = rid_at(b, slot);
            if ((rc = bs_check_map(ix, rows[*n].rid, b->id, slot)) != SQLITE_OK)
                goto out;
            rows[*n].bits = *store + (size_t)*n * nbytes;
            memcpy(rows[*n].bits, out[j], nbytes);
            (*n)++;
        }
    }
out:
    sqlite3_free(cols);
    sqlite3_free(page);
    sqlite3_free(bits);
    return rc;
}

static int drop_from_block(bs_index *ix, sqlite3_int64 rid, sqlite3_int64 block, sqlite3_int64 slot)
{
    bs_block *b = sqlite3_malloc(sizeof *b);
    bs_row *rows = NULL;
    uint8_t *store = NULL;
    int rc;
    if (b == NULL)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    if ((rc = load_block(ix, block, b)) != SQLITE_OK)
        goto out;
    if (slot < 0 || slot >= b->nrows || !is_live(b, (uint32_t)slot) ||
        rid_at(b, (uint32_t)slot) != rid) {
        rc = bs_corrupt(ix, "a row is not where the map says");
        goto out;
    }
    b->live[slot / 8] &= (uint8_t)~(1u << (slot % 8));
    b->nlive--;
    sqlite3_int64 last;
    if ((rc = last_block(ix, b->grp, &last)) != SQLITE_OK)
        goto out;
    if (b->nlive == 0) {
        rc = delete_block(ix, b);
    } else if (b->id != last && b->nlive <= b->cap / 4) {
        /* sparse: its rows go back to pending, the block away */
        bs_group g;
        uint32_t n;
        if ((rc = load_group(ix, b->grp, &g)) != SQLITE_OK)
            goto out;
        if ((rows = sqlite3_malloc64((sqlite3_uint64)b->nlive * sizeof *rows)) == NULL) {
            rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
            goto out;
        }
        if ((rc = read_live_rows(ix, &g, b, rows, &store, &n)) != SQLITE_OK)
            goto out;
        for (uint32_t i = 0; i < n && rc == SQLITE_OK; i++) {
            sqlite3_stmt *st = bs_stmt(ix, BS_MAP_DELETE);
            if (st == NULL) {
                rc = SQLITE_ERROR;
                goto out;
            }
            sqlite3_bind_int64(st, 1, rows[i].rid);
            rc = done(ix, st);
        }
        if (rc == SQLITE_OK && (rc = delete_block(ix, b)) == SQLITE_OK)
            rc = put_pending(ix, g.id, rows, n, bloom_geometry_nbytes(&g.geo));
    } else {
        rc = save_block(ix, b);
    }
out:
    sqlite3_free(b);
    sqlite3_free(rows);
    sqlite3_free(store);
    return rc;
}

/* Whether rid is kept aside (its row checked). */
static int aside_has(bs_index *ix, sqlite3_int64 rid, int *has)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_ASIDE_GET);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = sqlite3_step(st);
    int ok = rc != SQLITE_ROW || bs_aside_sum_ok(st, 0, rid);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    *has = rc == SQLITE_ROW;
    return ok ? SQLITE_OK : bs_corrupt(ix, "a row kept aside does not match its checksum");
}

/* Whether rid is pending (its row checked: a row of another rowid damaged
 * into this one is not taken for it), in group *gid. */
static int pending_has(bs_index *ix, sqlite3_int64 rid, int *has, sqlite3_int64 *gid)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_PENDING_GROUP_OF);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = sqlite3_step(st), ok = 1;
    if (rc == SQLITE_ROW) {
        *gid = sqlite3_column_int64(st, 0);
        ok = sqlite3_column_type(st, 2) == SQLITE_INTEGER &&
             sqlite3_column_int64(st, 2) ==
                 bf_to_int64(bs_pending_sum(rid, *gid, sqlite3_column_blob(st, 1),
                                            (size_t)sqlite3_column_bytes(st, 1)));
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    *has = rc == SQLITE_ROW;
    return ok ? SQLITE_OK : bs_corrupt(ix, "a pending row does not match its checksum");
}

/* Whether NAME_map has rid, at slot of block. */
static int map_has(bs_index *ix, sqlite3_int64 rid, int *has, sqlite3_int64 *block,
                   sqlite3_int64 *slot)
{
    sqlite3_stmt *st = bs_stmt(ix, BS_MAP_GET);
    if (st == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *block = sqlite3_column_int64(st, 0);
        *slot = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return bs_fail_db(ix, rc);
    *has = rc == SQLITE_ROW;
    return SQLITE_OK;
}

int bs_drop(bs_index *ix, sqlite3_int64 rid)
{
    sqlite3_stmt *st;
    sqlite3_int64 gid = 0;
    int rc, pending;
    if ((rc = pending_has(ix, rid, &pending, &gid)) != SQLITE_OK)
        return rc;
    if (pending) {
        if ((st = bs_stmt(ix, BS_PENDING_DELETE)) == NULL)
            return SQLITE_ERROR;
        sqlite3_bind_int64(st, 1, rid);
        if ((rc = done(ix, st)) != SQLITE_OK)
            return rc;
        if ((st = bs_stmt(ix, BS_GROUP_PENDING)) == NULL)
            return SQLITE_ERROR;
        sqlite3_bind_int64(st, 1, gid);
        sqlite3_bind_int64(st, 2, -1);
        return done(ix, st);
    }
    int aside;
    if ((rc = aside_has(ix, rid, &aside)) != SQLITE_OK)
        return rc;
    if (aside) {
        if ((st = bs_stmt(ix, BS_ASIDE_DELETE)) == NULL)
            return SQLITE_ERROR;
        sqlite3_bind_int64(st, 1, rid);
        if ((rc = done(ix, st)) != SQLITE_OK)
            return rc;
        return bs_config_add(ix, "aside", -1);
    }
    sqlite3_int64 block = 0, slot = 0;
    int mapped;
    if ((rc = map_has(ix, rid, &mapped, &block, &slot)) != SQLITE_OK || !mapped)
        return rc; /* not indexed */
    if ((st = bs_stmt(ix, BS_MAP_DELETE)) == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    if ((rc = done(ix, st)) != SQLITE_OK)
        return rc;
    return drop_from_block(ix, rid, block, slot);
}

int bs_has(bs_index *ix, sqlite3_int64 rid, int *has)
{
    sqlite3_int64 gid, block = 0, slot = 0;
    int rc = pending_has(ix, rid, has, &gid);
    if (rc != SQLITE_OK || *has)
        return rc;
    if ((rc = map_has(ix, rid, has, &block, &slot)) != SQLITE_OK)
        return rc;
    if (!*has)
        return aside_has(ix, rid, has);
    /* the block holds it where the map says */
    bs_block *b = sqlite3_malloc(sizeof *b);
    if (b == NULL)
        return bs_fail(ix, SQLITE_NOMEM, "out of memory");
    if ((rc = load_block(ix, block, b)) == SQLITE_OK &&
        (slot < 0 || slot >= b->nrows || !is_live(b, (uint32_t)slot) || rid_at(b, (uint32_t)slot) != rid))
        rc = bs_corrupt(ix, "a row is not where the map says");
    sqlite3_free(b);
    return rc;
}

/* ---- the build ---- */

/* Bytes of rows the build holds before it slices a group's partial block. */
#define BS_BUILD_MEMORY (64 << 20)

/* Up to BLOOM_SLICES_MAX_CAP rows of one group, waiting to be sliced into a block. */
typedef struct bs_build_group {
    sqlite3_int64 gid;
    bloom_geometry geo;
    uint32_t n;
    bs_row rows[BLOOM_SLICES_MAX_CAP];
    uint8_t *bits;
} bs_build_group;

static int build_slice(bs_index *ix, bs_build_group *bg)
{
    if (bg->n == 0)
        return SQLITE_OK;
    bs_group g = {bg->gid, bg->geo, 0, 0};
    int rc = slice_rows(ix, &g, bg->rows, bg->n, 0);
    bg->n = 0;
    return rc;
}

int bs_build(bs_index *ix)
{
    bs_build_group *groups[BLOOM_SLICES_MAX_GROUPS] = {NULL};
    int ngroups = 0, rc, step;
    uint64_t buffered = 0; /* bytes of rows in the groups' buffers */
    uint8_t *bits = sqlite3_malloc64(ix->max_nbits / 8 + 8);
    char *sql = sqlite3_mprintf("SELECT rowid, \"%w\" FROM \"%w\".\"%w\" ORDER BY rowid",
                                ix->column, ix->schema, ix->table);
    sqlite3_stmt *scan = NULL;
    if (bits == NULL || sql == NULL) {
        rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
        goto out;
    }
    if ((rc = sqlite3_prepare_v2(ix->db, sql, -1, &scan, NULL)) != SQLITE_OK) {
        rc = bs_fail_db(ix, rc);
        goto out;
    }
    while ((step = sqlite3_step(scan)) == SQLITE_ROW) {
        sqlite3_int64 rid = sqlite3_column_int64(scan, 0);
        sqlite3_value *v = sqlite3_column_value(scan, 1);
        bloom_geometry geo;
        sqlite3_int64 gid = 0;
        if (sqlite3_value_type(v) == SQLITE_NULL)
            continue;
        if (signature_of(ix, v, &geo, bits) && (rc = group_of(ix, &geo, &gid)) != SQLITE_OK)
            goto out;
        if (gid == 0) {
            if ((rc = put_aside(ix, rid)) != SQLITE_OK)
                goto out;
            continue;
        }
        bs_build_group *bg = NULL;
        for (int i = 0; i < ngroups && bg == NULL; i++)
            if (groups[i]->gid == gid)
                bg = groups[i];
        if (bg == NULL) {
            uint64_t nbytes = bloom_geometry_nbytes(&geo);
            bg = groups[ngroups] = sqlite3_malloc(sizeof *bg);
            if (bg == NULL || (bg->bits = sqlite3_malloc64(BLOOM_SLICES_MAX_CAP * nbytes)) == NULL) {
                rc = bs_fail(ix, SQLITE_NOMEM, "out of memory");
                goto out;
            }
            ngroups++;
            bg->gid = gid;
            bg->geo = geo;
            bg->n = 0;
            for (int j = 0; j < BLOOM_SLICES_MAX_CAP; j++)
                bg->rows[j].bits = bg->bits + (size_t)j * nbytes;
        }
        bg->rows[bg->n].rid = rid;
        memcpy(bg->rows[bg->n].bits, bits, bloom_geometry_nbytes(&geo));
        buffered += bloom_geometry_nbytes(&geo);
        if (++bg->n == BLOOM_SLICES_MAX_CAP) {
            buffered -= bg->n * bloom_geometry_nbytes(&bg->geo);
            if ((rc = build_slice(ix, bg)) != SQLITE_OK)
                goto out;
        } else if (buffered > BS_BUILD_MEMORY) {
            /* the group holding the most bytes is sliced now */
            bs_build_group *most = groups[0];
            for (int i = 1; i < ngroups; i++)
                if (groups[i]->n * bloom_geometry_nbytes(&groups[i]->geo) >
                    most->n * bloom_geometry_nbytes(&most->geo))
                    most = groups[i];
            buffered -= most->n * bloom_geometry_nbytes(&most->geo);
            if ((rc = build_slice(ix, most)) != SQLITE_OK)
                goto out;
        }
    }
    if (step != SQLITE_DONE) {
        rc = bs_fail_db(ix, step);
        goto out;
    }
    /* each group's last rows: a block of their size, or pending when few */
    for (int i = 0; i < ngroups; i++) {
        bs_build_group *bg = groups[i];
        sqlite3_int64 last;
        if ((rc = last_block(ix, bg->gid, &last)) != SQLITE_OK)
            goto out;
        if (bg->n >= BLOOM_SLICES_BATCH_ROWS || (bg->n > 0 && last != 0))
            rc = build_slice(ix, bg);
        else if (bg->n > 0)
            rc = put_pending(ix, bg->gid, bg->rows, bg->n, bloom_geometry_nbytes(&bg->geo));
        if (rc != SQLITE_OK)
            goto out;
    }
    rc = SQLITE_OK;
out:
    sqlite3_finalize(scan);
    sqlite3_free(sql);
    sqlite3_free(bits);
    for (int i = 0; i < ngroups; i++) {
        sqlite3_free(groups[i]->bits);
        sqlite3_free(groups[i]);
    }
    return rc;
}
