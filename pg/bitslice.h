/*
 * bitslice.h - the index access method bloom_bitslice: an index over a
 * column of filters that answers "which rows' filters may contain x" by
 * reading k bit slices instead of n filters (docs/POSTGRESQL.md, "An index
 * over a column of filters").
 *
 * Rows are kept in groups, one per geometry (layout, nhashes, seed, nbits;
 * core/slices.c): a filter larger than the index's max_nbits is folded to
 * the largest size within it that divides its own; one that cannot be
 * folded usefully, or that would make more groups than the metapage holds,
 * is kept aside, a candidate of every probe.  In a group, rows are sliced
 * in blocks of `cap` slots (a multiple of 64, up to 1024): slice p of a block is a bitmap of
 * its slots, bit j set when slot j's filter has bit p set.  A probe of x
 * reads, per block, the header page and the pages of the k slices of x's
 * bit positions, ANDs the slices, and returns the tids of the slots left.
 *
 * New rows go to their group's pending chain, rows stored as they are
 * (tid and bits); once it holds BLOOM_SLICES_BATCH_ROWS rows they are
 * sliced into the group's last block (and a new one when it is full), which
 * writes each slice page once per batch instead of once per row.  The
 * slices' layout and their merging are the core's (core/bloom.h, "Blocks
 * of slices"), shared with SQLite; the pages and WAL are this host's.
 *
 * Pages (standard layout, a BsPageOpaqueData in the special space):
 *   block 0          the metapage: counters and the table of groups
 *   BS_PAGE_PENDING  a pending chain's page: BsPendingEntry + bits, packed
 *   BS_PAGE_BLOCK    a block's header: BsBlockHeader, live bitmap, tids,
 *                    the numbers of its slice pages
 *   BS_PAGE_SLICES   the slices of one block, cap / 8 bytes each, one after
 *                    the other (slice p at byte p * cap / 8 of the block's
 *                    slice pages taken as one stream of full pages: a
 *                    slice may end on the next page)
 *   BS_PAGE_ASIDE    tids of rows kept aside, packed
 *   BS_PAGE_FREE     free, recorded in the free space map
 *
 * Every chain and block has an id (the metapage's counter, never reused),
 * written in the opaque of each of its pages and in whatever points to it.
 * A scan checks every page it reads against the id it expects, so it never
 * reads another structure's bytes; what it must not miss (a row moved
 * while it ran) the group's drop counters tell it (bitslice_scan.c).
 * Writers order their records so that a row is always in its pending chain
 * or in a registered slot of a reachable block, whatever prefix of them a
 * crash or a replica has applied: slices are written before the slots are
 * registered, slots before the pending rows are dropped; a block's rows
 * are appended to pending before the block is unlinked.
 *
 * WAL: generic records (access/generic_xlog.h), at most 4 pages each.
 */
#ifndef BLOOMFILTER_BITSLICE_H
#define BLOOMFILTER_BITSLICE_H

#include "bloomfilter.h"

#include "access/amapi.h"
#include "access/generic_xlog.h"
#include "storage/block.h"
#include "storage/bufmgr.h"
#include "storage/itemptr.h"
#include "utils/relcache.h"

BLOOM_HIDDEN_BEGIN

#define BS_MAGIC 0x42534C49		/* "BLSI" */
#define BS_VERSION 2			/* 2: the value kinds */
#define BS_METAPAGE_BLKNO 0
#define BS_STRATEGY_CONTAINS 1	/* @>(bloom, T): the filter may contain the value */

/* At most this many pending rows are sliced by one flush. */
#define BS_FLUSH_MAX 1024

/* Page types */
#define BS_PAGE_META 1
#define BS_PAGE_PENDING 2
#define BS_PAGE_BLOCK 3
#define BS_PAGE_SLICES 4
#define BS_PAGE_ASIDE 5
#define BS_PAGE_FREE 6

typedef struct BsPageOpaqueData
{
	uint64		owner;			/* id of the chain or block of the page */
	BlockNumber next;			/* next page of a chain */
	uint16		type;
	uint16		unused;
} BsPageOpaqueData;

#define BsPageGetOpaque(page) ((BsPageOpaqueData *) PageGetSpecialPointer(page))
#define BS_CONTENT_OFFSET MAXALIGN(SizeOfPageHeaderData)
/* Bytes a page holds between its header and its special space. */
#define BS_PAGE_CAPACITY (BLCKSZ - BS_CONTENT_OFFSET - MAXALIGN(sizeof(BsPageOpaqueData)))
StaticAssertDecl(BS_PAGE_CAPACITY % 8 == 0, "slice pages hold whole words");

/* One geometry's rows. */
typedef struct BsGroup
{
	uint64		seed;
	uint32		nbits;
	uint8		layout;
	uint8		nhashes;
	uint16		cap_max;		/* slots of a full block */
	uint64		pending_id;		/* id of the pending chain, 0 when empty */
	BlockNumber pending_head;
	BlockNumber pending_tail;
	uint32		pending_count;	/* entries in the chain, dead ones included */
	uint32		nblocks;
	BlockNumber first_block;
	BlockNumber last_block;
	uint64		first_id;
	uint64		last_id;
	uint64		nrows;			/* slots registered in blocks */
	uint64		nlive;			/* of which not deleted by VACUUM */
	uint64		bits_set;		/* bits set over the rows of rows_seen */
	uint64		rows_seen;		/* rows counted in bits_set (estimates) */
	/* Records that took pages off the head of the pending chain (a flush),
	 * and that unlinked a block (VACUUM): a scan that sees either change
	 * while it walks the group walks it again (bitslice_scan.c). */
	uint64		pending_drops;
	uint64		block_drops;
} BsGroup;

typedef struct BsMetaData
{
	uint32		magic;
	uint32		version;
	uint32		max_nbits;		/* the index's limit (option max_nbits) */
	uint32		ngroups;
	uint64		next_id;		/* ids of chains and blocks, from 1 */
	uint64		aside_id;		/* id of the aside chain, 0 when empty */
	BlockNumber aside_head;
	BlockNumber aside_tail;
	uint64		aside_count;
	BsGroup		groups[BLOOM_SLICES_MAX_GROUPS];
	/* the value kinds (header bytes 10..15) the indexed filters store,
	 * merged: while none stores any, a text key is hashed as text */
	uint8		value_kinds;
	uint8		unused[3];
	uint32		typed_oid;
} BsMetaData;

StaticAssertDecl(sizeof(BsMetaData) <= BS_PAGE_CAPACITY, "the metapage holds the group table");

#define BsPageGetMeta(page) ((BsMetaData *) PageGetContents(page))

/* A row of a pending chain: its tid, then its bits (8-byte aligned). */
typedef struct BsPendingEntry
{
	ItemPointerData tid;
	uint16		dead;			/* deleted by VACUUM */
} BsPendingEntry;

#define BS_ENTRY_SIZE(nbytes) (MAXALIGN(sizeof(BsPendingEntry)) + (Size) (nbytes))

/* A block's header page: this, then the live bitmap (cap / 8 bytes), the
 * tids of its slots (cap), the page numbers of its slice pages. */
typedef struct BsBlockHeader
{
	uint64		id;
	uint64		next_id;		/* the next block of the group, 0: none */
	BlockNumber next;
	uint32		group;
	uint16		cap;
	uint16		nrows;			/* slots registered */
	uint16		nlive;
	uint16		unused;
	uint32		nslicepages;
} BsBlockHeader;

#define BS_HEADER_LIVE(h) ((uint8 *) (h) + MAXALIGN(sizeof(BsBlockHeader)))
#define BS_HEADER_TIDS(h) ((ItemPointerData *) (BS_HEADER_LIVE(h) + (h)->cap / 8))
/* cap is a multiple of 64, so every part stays aligned */
#define BS_HEADER_PAGES(h) ((BlockNumber *) (BS_HEADER_TIDS(h) + (h)->cap))

/* ---- pages and WAL (bitslice_pages.c) ---- */

/*
 * Page changes of one record: generic WAL, or, while the index is built,
 * the buffers themselves (the build logs every page at its end).
 */
typedef struct BsXlog
{
	Relation	index;
	bool		building;
	GenericXLogState *state;
	int			nbufs;
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
} BsXlog;

extern void bs_xlog_start(BsXlog *x, Relation index, bool building);
/* The page to change (a working copy under generic WAL); fresh: the page
 * is written whole (a new page). */
extern Page bs_xlog_page(BsXlog *x, Buffer buf, bool fresh);
extern bool bs_xlog_full(const BsXlog *x);
extern void bs_xlog_finish(BsXlog *x);

extern void bs_init_page(Page page, uint16 type, uint64 owner);
/* Whether page is one of ours (initialized, with our special space) of
 * type; of type and owner; and a chain's page whose content is within it. */
extern bool bs_page_is(Page page, uint16 type);
extern bool bs_page_of(Page page, uint16 type, uint64 owner);
extern bool bs_chain_page_of(Page page, uint16 type, uint64 owner);
/* A page for new content, exclusively locked: a free one, else a new one. */
extern Buffer bs_new_buffer(Relation index);
/* Raise index corruption (XX002) naming the page. */
pg_noreturn extern void bs_corrupt(Relation index, BlockNumber blkno, const char *what);

/* Pages of the slices of a block, and the bytes of slice page pg. */
extern uint32 bs_slice_pages(uint32 cap, uint32 nbits);
extern uint32 bs_slice_page_bytes(uint32 cap, uint32 nbits, uint32 pg);
extern Size bs_header_size(uint32 cap, uint32 nbits);
extern uint16 bs_cap_max(uint32 nbits);
/* The largest max_nbits a page allows (a pending row fits one page, a
 * block of BLOOM_SLICES_MIN_CAP slots has a header that fits one). */
extern uint32 bs_max_nbits_limit(void);

/* The metapage, read and checked: a copy. */
extern void bs_read_meta(Relation index, BsMetaData *out);
/* Group gi of the metapage, read and checked: a copy. */
extern void bs_read_group(Relation index, uint32 gi, BsGroup *out);

/*
 * A walk along a chain of pages: each page within the index and no more
 * steps than the index has pages (a loop).  The length is measured again
 * before a page is declared past the end: inserts extend the pending and
 * aside chains while VACUUM and scans walk them.
 */
typedef struct BsWalk
{
	Relation	index;
	BlockNumber nblocks;
	BlockNumber steps;
} BsWalk;

extern void bs_walk_start(BsWalk *w, Relation index);
/* Count a step to blkno: false when it is past the end or one too many. */
extern bool bs_walk_next(BsWalk *w, BlockNumber blkno);
/* The same, raising index corruption (XX002) instead of returning false. */
extern void bs_walk_check(BsWalk *w, BlockNumber blkno);
extern void bs_check_meta(Relation index, const BsMetaData *meta);
/* Check a block header read from blkno for block id of group g. */
extern bool bs_header_ok(const BsBlockHeader *h, uint64 id, uint32 group, const BsGroup *g);

/* ---- the access method and its option (bitslice_am.c) ---- */
/* Called by _PG_init: registers the option. */
extern void bloom_bitslice_init(void);

typedef struct BsOptions
{
	int32		vl_len_;
	int			max_nbits;
} BsOptions;

extern int	bs_option_max_nbits(Relation index);

/* ---- build, insert, flush (bitslice_build.c, bitslice_insert.c) ---- */
extern IndexBuildResult *bs_build(Relation heap, Relation index, IndexInfo *indexInfo);
extern void bs_buildempty(Relation index);
extern bool bs_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid,
					  Relation heapRel, IndexUniqueCheck checkUnique, bool indexUnchanged,
					  IndexInfo *indexInfo);

/* A row ready to index: its tid and bits (of its group's geometry). */
typedef struct BsRow
{
	ItemPointerData tid;
	uint8	   *bits;
} BsRow;

/* The signature of a filter datum, as bloom_signature; false (the row goes
 * aside, never an error) also for bytes that do not parse. */
extern bool bs_signature(Datum value, uint32 max_nbits, bloom_geometry *geo, uint8 *bits,
						 bloom_kinds *kinds);
/* meta's value kinds with kinds merged in; whether they changed */
extern bool bs_merge_kinds(BsMetaData *meta, bloom_kinds kinds);
/* The group of geo in meta, or -1. */
extern int	bs_find_group(const BsMetaData *meta, const bloom_geometry *geo);
/*
 * Append rows of geometry geo to their group's pending chain, making the
 * group when it is new; -1 (nothing appended) when the metapage has no room
 * for another group.  The caller holds the metapage buffer exclusively
 * locked; each record changes it with the pages it links.
 */
extern int	bs_append_pending(Relation index, Buffer metabuf, const bloom_geometry *geo,
							  const BsRow *rows, int nrows, bool building);
extern void bs_append_aside(Relation index, Buffer metabuf, const ItemPointerData *tids,
							int ntids, bool building);
/*
 * Slice rows into the group's last block and new ones (the caller holds
 * the metapage buffer exclusively).  A new block has room for the rows
 * given, within the group's cap_max; grow: at least twice the last block
 * (rows trickling in from inserts).
 */
extern void bs_slice_rows(Relation index, Buffer metabuf, int group, const BsRow *rows,
						  int nrows, bool building, bool grow);
/* Slice a group's pending rows (holding the flush lock). */
extern void bs_flush(Relation index, int group);
/* Mark pages free (the caller holds the flush lock) and tell the FSM. */
extern void bs_free_pages(Relation index, const BlockNumber *pages, int npages);

/* ---- the test hook (bitslice_pause.c) ---- */
extern void bs_pause_init(void);
/* Wait at a named point when bloomfilter.bitslice_pause lists it. */
extern void bs_pause(const char *point);

/* ---- scans (bitslice_scan.c) ---- */
extern IndexScanDesc bs_beginscan(Relation index, int nkeys, int norderbys);
extern void bs_rescan(IndexScanDesc scan, ScanKey keys, int nkeys, ScanKey orderbys,
					  int norderbys);
extern int64 bs_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void bs_endscan(IndexScanDesc scan);

/* ---- VACUUM (bitslice_vacuum.c) ---- */
extern IndexBulkDeleteResult *bs_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
											IndexBulkDeleteCallback callback,
											void *callback_state);
extern IndexBulkDeleteResult *bs_vacuumcleanup(IndexVacuumInfo *info,
											   IndexBulkDeleteResult *stats);

/* ---- planning (bitslice_plan.c) ---- */
extern void bs_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
							Cost *indexStartupCost, Cost *indexTotalCost,
							Selectivity *indexSelectivity, double *indexCorrelation,
							double *indexPages);
/* bloom_contains(f, x) and contained_in_bloom(x, f) as index conditions. */
extern Node *bs_index_condition(Node *rawreq);

BLOOM_HIDDEN_END

#endif							/* BLOOMFILTER_BITSLICE_H */
