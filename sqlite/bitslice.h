/*
 * bitslice.h - the SQLite module bloom_bitslice, an index over a column of
 * filters (docs/SQLITE.md, "An index over a column of filters"): what its
 * two files share.  bitslice.c is the module (create, connect, queries);
 * bitslice_store.c keeps the shadow tables (rows in, rows out, slicing).
 *
 * The design is PostgreSQL's bloom_bitslice (pg/bitslice.h) in tables:
 * rows are grouped by geometry (core/slices.c), larger filters folded to
 * max_nbits, those that cannot be (and values that are no filter) kept
 * aside; a group's new rows wait in _pending and are sliced 64 at a time
 * into blocks of up to 1024 slots, each block's slices one stream of bytes
 * cut into rows of _slices.  Shadow tables of an index NAME:
 *
 *   NAME_config(k, v)          table, column, max_nbits, version, sum; groups, aside
 *   NAME_groups(id, layout, nhashes, seed, nbits, pending, nblocks, sum)
 *   NAME_pending(rid, grp, sum, bits)          a row not sliced yet
 *   NAME_blocks(id, grp, cap, nrows, nlive, sum, live, rids)
 *   NAME_slices(id, data)      id = block * 65536 + page; data = bytes, sums
 *   NAME_map(rid, loc)         where a sliced row is: block * 1024 + slot
 *   NAME_aside(rid, sum)       rows every probe returns
 *
 * SQLite's transactions make every change atomic; nothing here is about
 * crashes.  The shadow tables are ordinary tables a user can write to
 * (unless defensive mode is on), so everything a query reads is checked
 * before it is used: each row carries a checksum of its fields (a page
 * of slices, of its bytes and id), each count of rows is compared with
 * the rows found (config: groups and aside rows; a group: its pending
 * rows and blocks; a block: its live bits), a candidate's rowid must be
 * where NAME_map puts it, and the triggers must be there as created.
 * A write checks what it reads before it rewrites it, so it never
 * stamps damage with a fresh checksum.
 */
#ifndef BLOOMFILTER_SQLITE_BITSLICE_H
#define BLOOMFILTER_SQLITE_BITSLICE_H

#include "common.h"

/* Slice bytes in one row of NAME_slices, checked in chunks: a query reads
 * a slice and checks the chunk it is in, not the page.  A row of the bytes,
 * a checksum a chunk and its record header is one cell of a 4 KiB page (at
 * most 4,061 bytes of payload). */
#define BS_PAGE_BYTES 3984
#define BS_CHUNK_BYTES 512
#define BS_PAGE_CHUNKS ((BS_PAGE_BYTES + BS_CHUNK_BYTES - 1) / BS_CHUNK_BYTES)
#define BS_SUM_BYTES 8
#define BS_PAGE_ROW_MAX (BS_PAGE_BYTES + BS_PAGE_CHUNKS * BS_SUM_BYTES)
#define BS_PAGE_SHIFT 16   /* NAME_slices.id = block << 16 | page */
#define BS_DEFAULT_MAX_NBITS 32768
#define BS_LIMIT_MAX_NBITS (1 << 20)
/* NAME_config's version: the layout of the shadow tables above */
#define BS_VERSION 2

/* What a checksum is of: its tag seeds the hash, so a row of one table
 * never checks as a row of another. */
enum { BS_SUM_CONFIG = 1, BS_SUM_GROUP, BS_SUM_PENDING, BS_SUM_BLOCK, BS_SUM_PAGE, BS_SUM_ASIDE };

enum {
    BS_GROUP_FIND,
    BS_GROUP_INSERT,
    BS_GROUP_PENDING,
    BS_GROUP_BLOCKS,
    BS_GROUPS_ALL,
    BS_PENDING_INSERT,
    BS_PENDING_GROUP_OF,
    BS_PENDING_DELETE,
    BS_PENDING_OF_GROUP,
    BS_PENDING_DELETE_GROUP,
    BS_ASIDE_INSERT,
    BS_ASIDE_GET,
    BS_ASIDE_DELETE,
    BS_ASIDE_ALL,
    BS_MAP_GET,
    BS_MAP_INSERT,
    BS_MAP_DELETE,
    BS_BLOCK_LAST,
    BS_BLOCK_GET,
    BS_BLOCK_INSERT,
    BS_BLOCK_UPDATE,
    BS_BLOCK_DELETE,
    BS_BLOCKS_OF_GROUP,
    BS_SLICE_INSERT,
    BS_SLICES_DELETE,
    BS_CONFIG_GET,
    BS_CONFIG_ADD,
    BS_TRIGGER_SQL,
    BS_CONTENT_TYPE,
    BS_NSTMT
};

/* An open index: its names, settings and prepared statements. */
typedef struct bs_index {
    sqlite3 *db;
    char *schema, *name, *table, *column;
    char *slices_table, *blocks_table; /* NAME_slices, NAME_blocks */
    uint64_t max_nbits;
    sqlite3_stmt *stmt[BS_NSTMT];
    sqlite3_blob *slices; /* on a row of NAME_slices */
    /* the chunk of a page of slices a query read last, checked */
    sqlite3_int64 page_id; /* -1: none */
    uint32_t chunk;
    uint8_t page[BS_CHUNK_BYTES];
    char *error;          /* the last failure's message (sqlite3_malloc'd) */
    char *damage;         /* what connecting found wrong: every query's error */
    int damage_rc;
    /* the last fold target (bloom_fold_target costs up to sqrt(nbits)
     * divisions for an odd size) */
    int fold_layout;
    uint64_t fold_nbits, fold_target;
} bs_index;

/* A group as NAME_groups holds it. */
typedef struct bs_group {
    sqlite3_int64 id;
    bloom_geometry geo;
    sqlite3_int64 pending, nblocks;
} bs_group;

/* A row to slice: its rowid and bits (of its group's geometry). */
typedef struct bs_row {
    sqlite3_int64 rid;
    uint8_t *bits;
} bs_row;

/* ---- bitslice_store.c ---- */

/* The statement `which`, reset, prepared on first use; NULL on failure
 * (ix->error set). */
sqlite3_stmt *bs_stmt(bs_index *ix, int which);
/* Set ix->error from the connection's error (or fmt); return rc. */
int bs_fail(bs_index *ix, int rc, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int bs_fail_db(bs_index *ix, int rc);
/* "the shadow tables of index NAME are damaged: what"; SQLITE_CORRUPT_VTAB */
int bs_corrupt(bs_index *ix, const char *what);
/* The checksum of a row: its integer fields, then a blob (len may be 0). */
uint64_t bs_sum(int tag, const sqlite3_int64 *fields, int nfields, const void *blob, size_t len);
/* A row kept aside carries the checksum of its rowid: whether column col
 * of st's current row is that of rid. */
int bs_aside_sum_ok(sqlite3_stmt *st, int col, sqlite3_int64 rid);
/* The checksum of NAME_config's settings. */
sqlite3_int64 bs_config_sum(const char *table, const char *column, uint64_t max_nbits,
                            sqlite3_int64 version);
/* A counter of NAME_config ("groups", "aside"), and one added to. */
int bs_config_count(bs_index *ix, const char *key, sqlite3_int64 *count);
int bs_config_add(bs_index *ix, const char *key, sqlite3_int64 delta);
void bs_index_close(bs_index *ix);
/* Every group (at most BLOOM_SLICES_MAX_GROUPS), checked. */
int bs_load_groups(bs_index *ix, bs_group *groups, int *ngroups);
/* Read slice page `page` of block `block` ([0, bytes) and its checksums,
 * checked; buf of BS_PAGE_ROW_MAX) into buf. */
int bs_read_slice_page(bs_index *ix, sqlite3_int64 block, uint32_t page, uint8_t *buf,
                       int bytes);
/* Slice p (cap / 8 bytes) of a block of nbits into out, through the page
 * a query read last (ix->page_id -1 forgets it). */
int bs_read_slice(bs_index *ix, sqlite3_int64 block, uint32_t cap, uint64_t nbits, uint64_t p,
                  uint8_t *out);
/* A row of NAME_blocks as read (live: live_bytes bytes), checked: ranges,
 * checksum, live bits against nlive. */
int bs_check_block(bs_index *ix, sqlite3_int64 id, sqlite3_int64 grp, sqlite3_int64 cap,
                   sqlite3_int64 nrows, sqlite3_int64 nlive, const uint8_t *live, int live_bytes,
                   sqlite3_int64 sum);
/* The row of NAME_pending at st (rid, bits, sum) of group g, checked. */
int bs_check_pending(bs_index *ix, const bs_group *g, sqlite3_stmt *st);
/* NAME_map puts rid at slot of block: else a rowid of the block or of the
 * map is damaged. */
int bs_check_map(bs_index *ix, sqlite3_int64 rid, sqlite3_int64 block, sqlite3_int64 slot);
uint64_t bs_pending_sum(sqlite3_int64 rid, sqlite3_int64 grp, const void *bits, size_t nbytes);
uint32_t bs_slice_pages(uint32_t cap, uint64_t nbits);
uint32_t bs_slice_page_bytes(uint32_t cap, uint64_t nbits, uint32_t page);

/* Index the row rid whose column holds v (any value: NULL indexes
 * nothing, what is no filter goes aside), and drop it. */
int bs_put(bs_index *ix, sqlite3_int64 rid, sqlite3_value *v);
int bs_drop(bs_index *ix, sqlite3_int64 rid);
/* Whether rid is indexed. */
int bs_has(bs_index *ix, sqlite3_int64 rid, int *has);
/* Index every row of the table (a new index). */
int bs_build(bs_index *ix);

#endif
