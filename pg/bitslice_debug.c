/*
 * bitslice_debug.c - bloom_bitslice_debug(regclass) -> text: a walk of a
 * bloom_bitslice index, as JSON: its groups, blocks, registered and live
 * slots, live and dead pending rows, rows aside, max_nbits, and whether the
 * metapage's counters agree with what the walk counted.  For the tests,
 * which declare it themselves; it is not part of the extension.
 */
#include "bitslice.h"

#include "access/genam.h"
#include "commands/defrem.h"
#include "utils/builtins.h"
#include "utils/rel.h"

PG_FUNCTION_INFO_V1(bloom_bitslice_debug);

/* The next page of a chain after counting its entries. */
static BlockNumber
walk_chain_page(BsWalk *walk, BlockNumber blkno, uint16 type, uint64 owner, Size size,
				uint64 *live, uint64 *dead)
{
	Relation	index = walk->index;
	Buffer		buf;
	Page		page;
	BlockNumber next;
	uint32		n;

	bs_walk_check(walk, blkno);
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!bs_chain_page_of(page, type, owner))
		bs_corrupt(index, blkno, "a page of a chain is not the chain's");
	n = (((PageHeader) page)->pd_lower - BS_CONTENT_OFFSET) / size;
	for (uint32 i = 0; i < n; i++)
	{
		if (type == BS_PAGE_PENDING &&
			((BsPendingEntry *) ((char *) PageGetContents(page) + i * size))->dead)
			(*dead)++;
		else
			(*live)++;
	}
	next = BsPageGetOpaque(page)->next;
	UnlockReleaseBuffer(buf);
	return next;
}

Datum
bloom_bitslice_debug(PG_FUNCTION_ARGS)
{
	Relation	index = index_open(PG_GETARG_OID(0), AccessShareLock);
	BsMetaData *meta = palloc(sizeof(BsMetaData));
	uint64		blocks = 0,
				rows = 0,
				live = 0,
				pending = 0,
				dead = 0,
				aside = 0,
				unused = 0;
	bool		agree = true;
	BsWalk		walk;

	if (index->rd_rel->relam != get_index_am_oid("bloom_bitslice", false))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bloom_bitslice index", RelationGetRelationName(index))));
	LockPage(index, BS_METAPAGE_BLKNO, ShareLock);	/* no flush, no VACUUM */
	bs_read_meta(index, meta);
	bs_walk_start(&walk, index);
	for (uint32 gi = 0; gi < meta->ngroups; gi++)
	{
		const BsGroup *g = &meta->groups[gi];
		uint64		gpending = 0,
					gdead = 0,
					grows = 0,
					glive = 0,
					gblocks = 0;
		BlockNumber blkno = g->pending_id != 0 ? g->pending_head : InvalidBlockNumber;
		uint64		id = g->first_id;

		walk.steps = 0;
		while (blkno != InvalidBlockNumber)
			blkno = walk_chain_page(&walk, blkno, BS_PAGE_PENDING, g->pending_id,
									BS_ENTRY_SIZE((g->nbits + 63) / 64 * 8), &gpending, &gdead);
		walk.steps = 0;
		for (blkno = g->first_block; blkno != InvalidBlockNumber;)
		{
			Buffer		buf;
			BsBlockHeader *h;
			uint32		nlive = 0;

			bs_walk_check(&walk, blkno);
			buf = ReadBuffer(index, blkno);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			h = (BsBlockHeader *) PageGetContents(BufferGetPage(buf));
			if (!bs_page_is(BufferGetPage(buf), BS_PAGE_BLOCK) ||
				!bs_header_ok(h, id, gi, g))
				bs_corrupt(index, blkno, "a block is not the block its group points to");
			for (uint32 slot = 0; slot < h->nrows; slot++)
				nlive += BS_HEADER_LIVE(h)[slot / 8] >> (slot % 8) & 1;
			agree &= nlive == h->nlive;
			gblocks++;
			grows += h->nrows;
			glive += h->nlive;
			if (blkno == g->last_block)
				agree &= h->next == InvalidBlockNumber;
			blkno = h->next;
			id = h->next_id;
			UnlockReleaseBuffer(buf);
		}
		agree &= gblocks == g->nblocks && grows == g->nrows && glive == g->nlive &&
			gpending + gdead == g->pending_count;
		blocks += gblocks;
		rows += grows;
		live += glive;
		pending += gpending;
		dead += gdead;
	}
	walk.steps = 0;
	for (BlockNumber blkno = meta->aside_id != 0 ? meta->aside_head : InvalidBlockNumber;
		 blkno != InvalidBlockNumber;)
		blkno = walk_chain_page(&walk, blkno, BS_PAGE_ASIDE, meta->aside_id,
								sizeof(ItemPointerData), &aside, &unused);
	agree &= aside == meta->aside_count;
	UnlockPage(index, BS_METAPAGE_BLKNO, ShareLock);
	index_close(index, AccessShareLock);
	PG_RETURN_TEXT_P(cstring_to_text(psprintf(
		"{\"groups\": %u, \"blocks\": " UINT64_FORMAT ", \"rows\": " UINT64_FORMAT
		", \"live\": " UINT64_FORMAT ", \"pending\": " UINT64_FORMAT
		", \"pending_dead\": " UINT64_FORMAT ", \"aside\": " UINT64_FORMAT
		", \"max_nbits\": %u, \"counters_agree\": %s}",
		meta->ngroups, blocks, rows, live, pending, dead, aside, meta->max_nbits,
		agree ? "true" : "false")));
}
