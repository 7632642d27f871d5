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
 *   NAME_config(k, v)                          table, column, max_nbits, version
 *   NAME_groups(id, layout, nhashes, seed, nbits, pending)
 *   NAME_pending(rid, grp, bits)               a row not sliced yet
 *   NAME_blocks(id, grp, cap, nrows, nlive, live, rids)
 *   NAME_slices(id, data)                      id = block * 65536 + page
 *   NAME_map(rid, loc)                         where a sliced row is: block * 1024 + slot
 *   NAME_aside(rid)                            rows every probe returns
 *
 * SQLite's transactions make every change atomic; nothing here is about
 * crashes.  Everything read back from a shadow table is checked (sizes,
 * counts, geometries) before it is used: they are ordinary tables a user
 * can write to.
 */
#ifndef BLOOMFILTER_SQLITE_BITSLICE_H
#define BLOOMFILTER_SQLITE_BITSLICE_H

#include "common.h"

#define BS_FLUSH_ROWS 64
#define BS_MIN_CAP 64
#define BS_MAX_CAP 1024
#define BS_MAX_GROUPS 64
/* Slice bytes in one row of NAME_slices: a row of this and its record
 * header is one cell of a 4 KiB page (at most 4,061 bytes of payload). */
#define BS_PAGE_BYTES 4048
#define BS_PAGE_SHIFT 16   /* NAME_slices.id = block << 16 | page */
#define BS_DEFAULT_MAX_NBITS 32768
#define BS_LIMIT_MAX_NBITS (1 << 20)

enum {
    BS_GROUP_FIND,
    BS_GROUP_COUNT,
    BS_GROUP_INSERT,
    BS_GROUP_PENDING,
    BS_GROUPS_ALL,
    BS_PENDING_INSERT,
    BS_PENDING_GROUP_OF,
    BS_PENDING_DELETE,
    BS_PENDING_OF_GROUP,
    BS_PENDING_DELETE_GROUP,
    BS_ASIDE_INSERT,
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
    BS_ALL_ROWIDS,
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
    char *error;          /* the last failure's message (sqlite3_malloc'd) */
    /* the last fold target (bloom_fold_target costs up to sqrt(nbits)
     * divisions for an odd size) */
    int fold_layout;
    uint64_t fold_nbits, fold_target;
} bs_index;

/* A group as NAME_groups holds it. */
typedef struct bs_group {
    sqlite3_int64 id;
    bloom_geometry geo;
    sqlite3_int64 pending;
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
void bs_index_close(bs_index *ix);
/* Every group (at most BS_MAX_GROUPS), checked. */
int bs_load_groups(bs_index *ix, bs_group *groups, int *ngroups);
/* Read slice page `page` of block `block` ([0, bytes)) into buf. */
int bs_read_slice_page(bs_index *ix, sqlite3_int64 block, uint32_t page, uint8_t *buf,
                       int bytes);
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
