/*
 * bitslice_vacuum.c - VACUUM of a bloom_bitslice index.
 *
 * Bulk delete marks the rows VACUUM removes: a pending row gets its dead
 * flag, a block's slot loses its live bit (its slices keep their bits, the
 * live bitmap masks them), an aside tid is dropped from its page.
 *
 * Cleanup gives space back: a block with no live slot is unlinked and its
 * pages freed; a block with at most a quarter of its slots live (not the
 * group's last) has its live rows read back from the slices
 * (bloom_slices_to_rows) and appended to the pending chain, then is freed
 * the same way; pending chains holding a batch are sliced.  Last, the pages
 * nothing points to (left by a crash between the records of one change)
 * are marked free, and every free page goes to the free space map.
 *
 * Both hold the flush lock, so no flush runs meanwhile; inserts do, into
 * the pending chains and the aside chain, under the metapage's lock: a
 * walk measures the index again before it calls a page past its end
 * (BsWalk), and stops at a loop.  A scan running beside a compaction
 * scans the group again (bitslice_scan.c).
 */
#include "bitslice.h"

#include "commands/vacuum.h"
#include "nodes/bitmapset.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* A page of a chain, the next step of walk, exclusively locked and checked. */
static Buffer
lock_chain_page(Relation index, BlockNumber blkno, uint16 type, uint64 owner, BsWalk *walk)
{
	Buffer		buf;
	Page		page;

	bs_walk_check(walk, blkno);
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	if (!bs_chain_page_of(page, type, owner))
		bs_corrupt(index, blkno, "a page of a chain is not the chain's");
	return buf;
}

/* A block's header page, the next step of walk, locked (mode) and checked. */
static Buffer
lock_header(Relation index, BlockNumber blkno, uint64 id, uint32 gi, const BsGroup *g,
			int mode, BsWalk *walk)
{
	Buffer		buf;
	Page		page;

	bs_walk_check(walk, blkno);
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, mode);
	page = BufferGetPage(buf);
	if (!bs_page_is(page, BS_PAGE_BLOCK) ||
		!bs_header_ok((BsBlockHeader *) PageGetContents(page), id, gi, g))
		bs_corrupt(index, blkno, "a block is not the block its group points to");
	return buf;
}

IndexBulkDeleteResult *
bs_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			  IndexBulkDeleteCallback callback, void *callback_state)
{
	Relation	index = info->index;
	BsMetaData *meta = palloc(sizeof(BsMetaData));
	BsWalk		walk;
	uint64	   *removed_live;
	uint64		removed_aside = 0;
	double		kept = 0;

	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	LockPage(index, BS_METAPAGE_BLKNO, ExclusiveLock);
	bs_read_meta(index, meta);
	/* inserts go on, and extend the pending and aside chains meanwhile */
	bs_walk_start(&walk, index);
	removed_live = palloc0(BLOOM_SLICES_MAX_GROUPS * sizeof(uint64));
	bs_pause("vacuum_bulkdelete");

	for (uint32 gi = 0; gi < meta->ngroups; gi++)
	{
		const BsGroup *g = &meta->groups[gi];
		Size		size = BS_ENTRY_SIZE((g->nbits + 63) / 64 * 8);
		BlockNumber blkno = g->pending_id != 0 ? g->pending_head : InvalidBlockNumber;
		uint64		id;

		/* pending rows: the dead flag */
		walk.steps = 0;
		while (blkno != InvalidBlockNumber)
		{
			Buffer		buf = lock_chain_page(index, blkno, BS_PAGE_PENDING, g->pending_id, &walk);
			Page		page = BufferGetPage(buf);
			uint32		n = (((PageHeader) page)->pd_lower - BS_CONTENT_OFFSET) / size;
			bool	   *dead = palloc0(Max(1, n) * sizeof(bool));
			bool		any = false;

			for (uint32 i = 0; i < n; i++)
			{
				BsPendingEntry *e = (BsPendingEntry *) ((char *) PageGetContents(page) + i * size);

				if (e->dead)
					continue;
				if (callback(&e->tid, callback_state))
					dead[i] = any = true;
				else
					kept++;
			}
			if (any)
			{
				BsXlog		x;

				bs_xlog_start(&x, index, false);
				page = bs_xlog_page(&x, buf, false);
				for (uint32 i = 0; i < n; i++)
					if (dead[i])
					{
						((BsPendingEntry *) ((char *) PageGetContents(page) + i * size))->dead = 1;
						stats->tuples_removed++;
					}
				bs_xlog_finish(&x);
			}
			blkno = BsPageGetOpaque(BufferGetPage(buf))->next;
			UnlockReleaseBuffer(buf);
			pfree(dead);
			vacuum_delay_point(false);
		}

		/* blocks: the live bit */
		blkno = g->first_block;
		id = g->first_id;
		walk.steps = 0;
		while (blkno != InvalidBlockNumber)
		{
			Buffer		buf = lock_header(index, blkno, id, gi, g, BUFFER_LOCK_EXCLUSIVE, &walk);
			BsBlockHeader *h = (BsBlockHeader *) PageGetContents(BufferGetPage(buf));
			uint16		dead[BLOOM_SLICES_MAX_CAP];
			int			ndead = 0;

			for (uint32 slot = 0; slot < h->nrows; slot++)
			{
				if (!(BS_HEADER_LIVE(h)[slot / 8] >> (slot % 8) & 1))
					continue;
				if (callback(&BS_HEADER_TIDS(h)[slot], callback_state))
					dead[ndead++] = (uint16) slot;
				else
					kept++;
			}
			if (ndead > 0)
			{
				BsXlog		x;

				bs_xlog_start(&x, index, false);
				h = (BsBlockHeader *) PageGetContents(bs_xlog_page(&x, buf, false));
				for (int i = 0; i < ndead; i++)
					BS_HEADER_LIVE(h)[dead[i] / 8] &= (uint8) ~(1 << (dead[i] % 8));
				h->nlive = (uint16) (h->nlive - ndead);
				bs_xlog_finish(&x);
				h = (BsBlockHeader *) PageGetContents(BufferGetPage(buf));
				removed_live[gi] += ndead;
				stats->tuples_removed += ndead;
			}
			blkno = h->next;
			id = h->next_id;
			UnlockReleaseBuffer(buf);
			vacuum_delay_point(false);
		}
	}

	/* aside tids: dropped from their page */
	{
		BlockNumber blkno = meta->aside_id != 0 ? meta->aside_head : InvalidBlockNumber;

		walk.steps = 0;
		while (blkno != InvalidBlockNumber)
		{
			Buffer		buf = lock_chain_page(index, blkno, BS_PAGE_ASIDE, meta->aside_id, &walk);
			Page		page = BufferGetPage(buf);
			uint32		n = (((PageHeader) page)->pd_lower - BS_CONTENT_OFFSET) /
				sizeof(ItemPointerData);
			ItemPointerData *keep = palloc(Max(1, n) * sizeof(ItemPointerData));
			uint32		nkeep = 0;

			for (uint32 i = 0; i < n; i++)
			{
				ItemPointerData tid;

				memcpy(&tid, (char *) PageGetContents(page) + i * sizeof tid, sizeof tid);
				if (callback(&tid, callback_state))
					continue;
				keep[nkeep++] = tid;
			}
			kept += nkeep;
			if (nkeep < n)
			{
				BsXlog		x;

				bs_xlog_start(&x, index, false);
				page = bs_xlog_page(&x, buf, false);
				memcpy(PageGetContents(page), keep, nkeep * sizeof(ItemPointerData));
				((PageHeader) page)->pd_lower = BS_CONTENT_OFFSET + nkeep * sizeof(ItemPointerData);
				bs_xlog_finish(&x);
				removed_aside += n - nkeep;
				stats->tuples_removed += n - nkeep;
			}
			blkno = BsPageGetOpaque(BufferGetPage(buf))->next;
			UnlockReleaseBuffer(buf);
			pfree(keep);
			vacuum_delay_point(false);
		}
	}

	/* the counts */
	{
		Buffer		metabuf = ReadBuffer(index, BS_METAPAGE_BLKNO);
		BsXlog		x;
		BsMetaData *m;

		LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
		bs_xlog_start(&x, index, false);
		m = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
		for (uint32 gi = 0; gi < meta->ngroups; gi++)
			m->groups[gi].nlive -= Min(removed_live[gi], m->groups[gi].nlive);
		m->aside_count -= Min(removed_aside, m->aside_count);
		bs_xlog_finish(&x);
		UnlockReleaseBuffer(metabuf);
	}
	UnlockPage(index, BS_METAPAGE_BLKNO, ExclusiveLock);
	stats->num_index_tuples = kept;
	pfree(removed_live);
	pfree(meta);
	return stats;
}

/* ---- cleanup ---- */

/*
 * The live rows of a block, read back from its slices: rows[i] gets the
 * tid and bits of the i-th live slot (bits palloc'd).  Returns the count.
 */
static int
read_live_rows(Relation index, const BsGroup *g, const BsBlockHeader *h, BsRow *rows)
{
	uint32		nbytes = (g->nbits + 63) / 64 * 8,
				nwords = h->cap / 64;
	Size		ncols = (Size) nwords * nbytes * 8;
	uint64	   *cols = palloc_extended(ncols * sizeof(uint64), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	int			n = 0;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);
	bloom_error err;

	for (uint32 pg = 0; pg < h->nslicepages; pg++)
	{
		Buffer		buf;
		Page		page;
		uint32		bytes = bs_slice_page_bytes(h->cap, g->nbits, pg);

		if (BS_HEADER_PAGES(h)[pg] >= nblocks)
			bs_corrupt(index, BS_HEADER_PAGES(h)[pg], "a block points past the end of the index");
		buf = ReadBuffer(index, BS_HEADER_PAGES(h)[pg]);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!bs_page_of(page, BS_PAGE_SLICES, h->id) ||
			((PageHeader) page)->pd_lower != BS_CONTENT_OFFSET + bytes)
			bs_corrupt(index, BS_HEADER_PAGES(h)[pg], "a slice page is not its block's");
		/* its size checked above: the core refuses nothing here */
		if (bloom_slices_page_to_cols(h->cap, g->nbits, BS_PAGE_CAPACITY, pg,
									  (const uint8 *) PageGetContents(page), bytes,
									  BLOOM_SLICES_HOST_ORDER, cols, ncols, &err) != BLOOM_OK)
			elog(ERROR, "bloom_bitslice: %s", err.message);
		UnlockReleaseBuffer(buf);
	}
	for (uint32 w = 0; w < nwords; w++)
	{
		uint8	   *out[64];
		uint8	   *buf = palloc0((Size) 64 * nbytes);

		for (int j = 0; j < 64; j++)
			out[j] = buf + (Size) j * nbytes;
		bloom_slices_to_rows(cols + (Size) w * nbytes * 8, nbytes, out, 64);
		for (uint32 j = 0; j < 64; j++)
		{
			uint32		slot = 64 * w + j;

			if (slot >= h->nrows || !(BS_HEADER_LIVE(h)[slot / 8] >> (slot % 8) & 1))
				continue;
			rows[n].tid = BS_HEADER_TIDS(h)[slot];
			rows[n].bits = out[j];
			n++;
		}
	}
	pfree(cols);
	return n;
}

/* Unlink block (blkno, id) of group gi, whose predecessor is prev (or
 * none), and free its pages. */
static void
drop_block(Relation index, uint32 gi, BlockNumber blkno, const BsBlockHeader *h,
		   BlockNumber prev, uint64 prev_id)
{
	Buffer		metabuf = ReadBuffer(index, BS_METAPAGE_BLKNO);
	Buffer		pbuf = InvalidBuffer;
	BsXlog		x;
	BsMetaData *meta;
	BsGroup    *g;
	BlockNumber *pages = palloc((h->nslicepages + 1) * sizeof(BlockNumber));

	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	bs_xlog_start(&x, index, false);
	meta = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
	g = &meta->groups[gi];
	if (prev != InvalidBlockNumber)
	{
		BsBlockHeader *ph;

		pbuf = ReadBuffer(index, prev);
		LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
		ph = (BsBlockHeader *) PageGetContents(bs_xlog_page(&x, pbuf, false));
		if (ph->id != prev_id || ph->next != blkno)
			bs_corrupt(index, prev, "a block does not point to the next one");
		ph->next = h->next;
		ph->next_id = h->next_id;
	}
	else
	{
		g->first_block = h->next;
		g->first_id = h->next_id;
	}
	if (g->last_block == blkno)
	{
		g->last_block = prev;
		g->last_id = prev != InvalidBlockNumber ? prev_id : 0;
	}
	g->nblocks--;
	g->nrows -= Min((uint64) h->nrows, g->nrows);
	g->nlive -= Min((uint64) h->nlive, g->nlive);
	/* in the record of the unlink, before the pages are freed: a scan
	 * walking the blocks meanwhile scans the group again (bitslice_scan.c) */
	g->block_drops++;
	bs_xlog_finish(&x);
	if (pbuf != InvalidBuffer)
		UnlockReleaseBuffer(pbuf);
	UnlockReleaseBuffer(metabuf);

	/* the header first: a scan holding it keeps the slices until it is done */
	pages[0] = blkno;
	memcpy(pages + 1, BS_HEADER_PAGES(h), h->nslicepages * sizeof(BlockNumber));
	bs_free_pages(index, pages, (int) h->nslicepages + 1);
	pfree(pages);
}

/*
 * Free empty blocks, and sparse ones after moving their rows to pending:
 * appended first, then the block unlinked, so that a row is always in one
 * or the other (bitslice_scan.c says why a scan finds it).
 */
static void
compact_group(Relation index, uint32 gi)
{
	BsMetaData *meta = palloc(sizeof(BsMetaData));
	BsWalk		walk;
	BsGroup		g;
	BlockNumber blkno,
				prev = InvalidBlockNumber;
	uint64		id,
				prev_id = 0;

	bs_read_meta(index, meta);
	g = meta->groups[gi];
	blkno = g.first_block;
	id = g.first_id;
	bs_walk_start(&walk, index);
	while (blkno != InvalidBlockNumber)
	{
		Buffer		buf = lock_header(index, blkno, id, gi, &g, BUFFER_LOCK_SHARE, &walk);
		BsBlockHeader *h = palloc(BS_PAGE_CAPACITY);
		bool		last = blkno == g.last_block;

		memcpy(h, PageGetContents(BufferGetPage(buf)), bs_header_size(
			((BsBlockHeader *) PageGetContents(BufferGetPage(buf)))->cap, g.nbits));
		UnlockReleaseBuffer(buf);
		if ((h->nlive == 0 && h->nrows > 0) ||
			(!last && h->nlive > 0 && h->nlive <= h->cap / 4))
		{
			if (h->nlive > 0)
			{
				BsRow	   *rows = palloc(h->nlive * sizeof(BsRow));
				int			n = read_live_rows(index, &g, h, rows);
				bloom_geometry geo = {g.layout, g.nhashes, g.seed, g.nbits};
				Buffer		metabuf = ReadBuffer(index, BS_METAPAGE_BLKNO);

				LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
				if (bs_append_pending(index, metabuf, &geo, rows, n, false) != (int) gi)
					bs_corrupt(index, BS_METAPAGE_BLKNO, "a group moved");
				UnlockReleaseBuffer(metabuf);
			}
			drop_block(index, gi, blkno, h, prev, prev_id);
			/* prev stays the predecessor of what follows */
		}
		else
		{
			prev = blkno;
			prev_id = id;
		}
		blkno = h->next;
		id = h->next_id;
		pfree(h);
		vacuum_delay_point(false);
	}
	pfree(meta);
}

static void
mark(Bitmapset **reached, BlockNumber blkno, BlockNumber nblocks)
{
	if (blkno < nblocks)
		*reached = bms_add_member(*reached, (int) blkno);
}

/*
 * Every page not reachable from the metapage is free: those marked so, new
 * ones, and those a crash left between two records of one change (marked
 * free here).  The counters of the metapage are set to what the walk
 * counted (a crash between a change and the record of its counts leaves
 * them off).  The caller holds the metapage buffer exclusively, so nothing
 * is allocated meanwhile.  Returns the number of free pages.
 */
static BlockNumber
sweep(Relation index, Buffer metabuf, BlockNumber nblocks)
{
	BsMetaData *meta = palloc(sizeof(BsMetaData));
	Bitmapset  *reached = NULL;
	BlockNumber nfree = 0,
				nleaked = 0;
	BlockNumber *leaked = palloc(Max(1, nblocks) * sizeof(BlockNumber));
	BsGroup    *counted = palloc0(BLOOM_SLICES_MAX_GROUPS * sizeof(BsGroup));
	uint64		aside = 0;
	bool		same = true;
	BsWalk		walk;

	memcpy(meta, BsPageGetMeta(BufferGetPage(metabuf)), sizeof(BsMetaData));
	bs_check_meta(index, meta);
	bs_walk_start(&walk, index);
	mark(&reached, BS_METAPAGE_BLKNO, nblocks);
	for (uint32 gi = 0; gi < meta->ngroups; gi++)
	{
		const BsGroup *g = &meta->groups[gi];
		Size		size = BS_ENTRY_SIZE((g->nbits + 63) / 64 * 8);
		BlockNumber blkno = g->pending_id != 0 ? g->pending_head : InvalidBlockNumber;
		uint64		id = g->first_id;

		walk.steps = 0;
		while (blkno != InvalidBlockNumber)
		{
			Buffer		buf = lock_chain_page(index, blkno, BS_PAGE_PENDING, g->pending_id, &walk);
			Page		page = BufferGetPage(buf);

			mark(&reached, blkno, nblocks);
			counted[gi].pending_count += (((PageHeader) page)->pd_lower - BS_CONTENT_OFFSET) / size;
			blkno = BsPageGetOpaque(page)->next;
			UnlockReleaseBuffer(buf);
		}
		walk.steps = 0;
		for (blkno = g->first_block; blkno != InvalidBlockNumber;)
		{
			Buffer		buf = lock_header(index, blkno, id, gi, g, BUFFER_LOCK_SHARE, &walk);
			BsBlockHeader *h = (BsBlockHeader *) PageGetContents(BufferGetPage(buf));

			mark(&reached, blkno, nblocks);
			for (uint32 i = 0; i < h->nslicepages; i++)
				mark(&reached, BS_HEADER_PAGES(h)[i], nblocks);
			counted[gi].nblocks++;
			counted[gi].nrows += h->nrows;
			counted[gi].nlive += h->nlive;
			blkno = h->next;
			id = h->next_id;
			UnlockReleaseBuffer(buf);
		}
		same &= counted[gi].nblocks == g->nblocks && counted[gi].nrows == g->nrows &&
			counted[gi].nlive == g->nlive && counted[gi].pending_count == g->pending_count;
	}
	walk.steps = 0;
	for (BlockNumber blkno = meta->aside_id != 0 ? meta->aside_head : InvalidBlockNumber;
		 blkno != InvalidBlockNumber;)
	{
		Buffer		buf = lock_chain_page(index, blkno, BS_PAGE_ASIDE, meta->aside_id, &walk);
		Page		page = BufferGetPage(buf);

		mark(&reached, blkno, nblocks);
		aside += (((PageHeader) page)->pd_lower - BS_CONTENT_OFFSET) / sizeof(ItemPointerData);
		blkno = BsPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
	}
	if (!same || aside != meta->aside_count)
	{
		BsXlog		x;
		BsMetaData *m;

		bs_xlog_start(&x, index, false);
		m = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
		for (uint32 gi = 0; gi < meta->ngroups; gi++)
		{
			m->groups[gi].nblocks = counted[gi].nblocks;
			m->groups[gi].nrows = counted[gi].nrows;
			m->groups[gi].nlive = counted[gi].nlive;
			m->groups[gi].pending_count = counted[gi].pending_count;
		}
		m->aside_count = aside;
		bs_xlog_finish(&x);
	}
	for (BlockNumber blkno = 1; blkno < nblocks; blkno++)
	{
		Buffer		buf;
		Page		page;
		bool		free;

		if (bms_is_member((int) blkno, reached))
			continue;
		buf = ReadBuffer(index, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		free = PageIsNew(page) || bs_page_is(page, BS_PAGE_FREE);
		UnlockReleaseBuffer(buf);
		if (free)
			RecordFreeIndexPage(index, blkno);
		else
			leaked[nleaked++] = blkno;
		nfree++;
		vacuum_delay_point(false);
	}
	if (nleaked > 0)
		bs_free_pages(index, leaked, (int) nleaked);
	pfree(leaked);
	pfree(counted);
	pfree(meta);
	bms_free(reached);
	return nfree;
}

IndexBulkDeleteResult *
bs_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	Relation	index = info->index;
	BsMetaData *meta = palloc(sizeof(BsMetaData));
	BlockNumber nblocks;
	Buffer		metabuf;
	double		rows = 0;

	if (info->analyze_only)
		return stats;
	if (stats == NULL)
	{
		/* nothing was deleted: counts only */
		stats = palloc0(sizeof(IndexBulkDeleteResult));
		bs_read_meta(index, meta);
		for (uint32 gi = 0; gi < meta->ngroups; gi++)
			rows += (double) meta->groups[gi].nlive + meta->groups[gi].pending_count;
		stats->num_pages = RelationGetNumberOfBlocks(index);
		stats->num_index_tuples = rows + meta->aside_count;
		stats->estimated_count = true;
		pfree(meta);
		return stats;
	}

	LockPage(index, BS_METAPAGE_BLKNO, ExclusiveLock);
	bs_read_meta(index, meta);
	bs_pause("vacuum_cleanup");
	for (uint32 gi = 0; gi < meta->ngroups; gi++)
	{
		compact_group(index, gi);
		bs_flush(index, (int) gi);
	}

	metabuf = ReadBuffer(index, BS_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	nblocks = RelationGetNumberOfBlocks(index);
	stats->pages_free = sweep(index, metabuf, nblocks);
	memcpy(meta, BsPageGetMeta(BufferGetPage(metabuf)), sizeof(BsMetaData));
	UnlockReleaseBuffer(metabuf);
	IndexFreeSpaceMapVacuum(index);
	bs_pause("vacuum_cleaned");
	UnlockPage(index, BS_METAPAGE_BLKNO, ExclusiveLock);

	for (uint32 gi = 0; gi < meta->ngroups; gi++)
		rows += (double) meta->groups[gi].nlive + meta->groups[gi].pending_count;
	stats->num_pages = nblocks;
	stats->num_index_tuples = rows + meta->aside_count;
	stats->estimated_count = true;
	pfree(meta);
	return stats;
}
