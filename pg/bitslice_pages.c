/*
 * bitslice_pages.c - the pages of a bloom_bitslice index (bitslice.h):
 * their sizes, WAL, allocation and checks.
 *
 * Every change is a generic WAL record of up to 4 pages (the index works on
 * a replica and after a crash with nothing of its own in the WAL); while an
 * index is built, pages are written in place and logged whole at the end.
 * Every page read is checked before it is trusted: its type and owner, and
 * every count against what the page can hold, so a corrupted index is an
 * error (index_corrupted), never a read past a page.
 */
#include "bitslice.h"

#include "access/generic_xlog.h"
#include "storage/indexfsm.h"
#include "utils/rel.h"

void
bs_xlog_start(BsXlog *x, Relation index, bool building)
{
	x->index = index;
	x->building = building;
	x->nbufs = 0;
	x->state = building ? NULL : GenericXLogStart(index);
}

Page
bs_xlog_page(BsXlog *x, Buffer buf, bool fresh)
{
	Assert(x->nbufs < MAX_GENERIC_XLOG_PAGES);
	x->bufs[x->nbufs++] = buf;
	if (x->building)
		return BufferGetPage(buf);
	return GenericXLogRegisterBuffer(x->state, buf, fresh ? GENERIC_XLOG_FULL_IMAGE : 0);
}

bool
bs_xlog_full(const BsXlog *x)
{
	return x->nbufs == MAX_GENERIC_XLOG_PAGES;
}

void
bs_xlog_finish(BsXlog *x)
{
	if (x->building)
	{
		for (int i = 0; i < x->nbufs; i++)
			MarkBufferDirty(x->bufs[i]);
	}
	else
		GenericXLogFinish(x->state);
	x->state = NULL;
	x->nbufs = 0;
}

void
bs_init_page(Page page, uint16 type, uint64 owner)
{
	BsPageOpaqueData *op;

	PageInit(page, BLCKSZ, sizeof(BsPageOpaqueData));
	op = BsPageGetOpaque(page);
	op->owner = owner;
	op->next = InvalidBlockNumber;
	op->type = type;
	op->unused = 0;
}

/*
 * A free page of the index, or a new one, exclusively locked.  The free
 * space map is not crash-safe, so a page it offers is taken only when it is
 * new or marked free.
 */
Buffer
bs_new_buffer(Relation index)
{
	for (;;)
	{
		BlockNumber blkno = GetFreeIndexPage(index);
		Buffer		buf;

		if (blkno == InvalidBlockNumber)
			break;
		buf = ReadBuffer(index, blkno);
		if (ConditionalLockBuffer(buf))
		{
			Page		page = BufferGetPage(buf);

			if (PageIsNew(page) || bs_page_is(page, BS_PAGE_FREE))
				return buf;
			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		}
		ReleaseBuffer(buf);
	}
	return ExtendBufferedRel(BMR_REL(index), MAIN_FORKNUM, NULL, EB_LOCK_FIRST);
}

void
bs_corrupt(Relation index, BlockNumber blkno, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" is corrupted", RelationGetRelationName(index)),
			 errdetail("Page %u: %s.", blkno, what),
			 errhint("REINDEX it.")));
}

bool
bs_page_is(Page page, uint16 type)
{
	return !PageIsNew(page) && PageGetSpecialSize(page) == MAXALIGN(sizeof(BsPageOpaqueData)) &&
		BsPageGetOpaque(page)->type == type;
}

bool
bs_page_of(Page page, uint16 type, uint64 owner)
{
	return bs_page_is(page, type) && BsPageGetOpaque(page)->owner == owner;
}

bool
bs_chain_page_of(Page page, uint16 type, uint64 owner)
{
	return bs_page_of(page, type, owner) &&
		((PageHeader) page)->pd_lower >= BS_CONTENT_OFFSET &&
		((PageHeader) page)->pd_lower <= BS_CONTENT_OFFSET + BS_PAGE_CAPACITY;
}

/* The stream of a block's slices cut into pages (core/bloom.h). */
uint32
bs_slice_pages(uint32 cap, uint32 nbits)
{
	return bloom_slices_pages(cap, nbits, BS_PAGE_CAPACITY);
}

uint32
bs_slice_page_bytes(uint32 cap, uint32 nbits, uint32 pg)
{
	return bloom_slices_page_bytes(cap, nbits, BS_PAGE_CAPACITY, pg);
}

Size
bs_header_size(uint32 cap, uint32 nbits)
{
	return MAXALIGN(sizeof(BsBlockHeader)) + cap / 8 + (Size) cap * sizeof(ItemPointerData) +
		(Size) bs_slice_pages(cap, nbits) * sizeof(BlockNumber);
}

uint16
bs_cap_max(uint32 nbits)
{
	uint32		cap;

	/* the most slots, in whole words, whose header fits a page */
	for (cap = BLOOM_SLICES_MAX_CAP; cap > BLOOM_SLICES_MIN_CAP; cap -= 64)
		if (bs_header_size(cap, nbits) <= BS_PAGE_CAPACITY)
			break;
	return (uint16) cap;
}

uint32
bs_max_nbits_limit(void)
{
	uint32		nbits = 1u << 30;

	/* a pending row in one page, a header of the least block in one page */
	while (nbits > 64 &&
		   (BS_ENTRY_SIZE(nbits / 8) > BS_PAGE_CAPACITY ||
			bs_header_size(BLOOM_SLICES_MIN_CAP, nbits) > BS_PAGE_CAPACITY))
		nbits /= 2;
	return nbits;
}

void
bs_check_meta(Relation index, const BsMetaData *meta)
{
	if (meta->magic != BS_MAGIC)
		bs_corrupt(index, BS_METAPAGE_BLKNO, "not the metapage of a bloom_bitslice index");
	if (meta->version != BS_VERSION)
		bs_corrupt(index, BS_METAPAGE_BLKNO, psprintf("unknown version %u", meta->version));
	if (meta->ngroups > BLOOM_SLICES_MAX_GROUPS || meta->max_nbits < 1 ||
		meta->max_nbits > bs_max_nbits_limit())
		bs_corrupt(index, BS_METAPAGE_BLKNO, "counts out of range");
	for (uint32 i = 0; i < meta->ngroups; i++)
	{
		const BsGroup *g = &meta->groups[i];
		bloom_geometry geo = {g->layout, g->nhashes, g->seed, g->nbits};

		if (bloom_check_geometry(&geo, NULL) != BLOOM_OK || g->nbits > meta->max_nbits ||
			g->cap_max != bs_cap_max(g->nbits))
			bs_corrupt(index, BS_METAPAGE_BLKNO, psprintf("group %u has no valid geometry", i));
	}
}

void
bs_read_meta(Relation index, BsMetaData *out)
{
	Buffer		buf = ReadBuffer(index, BS_METAPAGE_BLKNO);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!bs_page_is(page, BS_PAGE_META))
		bs_corrupt(index, BS_METAPAGE_BLKNO, "not a metapage");
	memcpy(out, BsPageGetMeta(page), sizeof(BsMetaData));
	UnlockReleaseBuffer(buf);
	bs_check_meta(index, out);
}

void
bs_read_group(Relation index, uint32 gi, BsGroup *out)
{
	Buffer		buf = ReadBuffer(index, BS_METAPAGE_BLKNO);
	Page		page;
	const BsMetaData *meta;
	bloom_geometry geo;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	meta = BsPageGetMeta(page);
	if (!bs_page_is(page, BS_PAGE_META) || meta->magic != BS_MAGIC ||
		meta->ngroups <= gi || meta->ngroups > BLOOM_SLICES_MAX_GROUPS)
		bs_corrupt(index, BS_METAPAGE_BLKNO, "a group is not in the metapage");
	memcpy(out, &meta->groups[gi], sizeof(BsGroup));
	UnlockReleaseBuffer(buf);
	geo = (bloom_geometry) {out->layout, out->nhashes, out->seed, out->nbits};
	if (bloom_check_geometry(&geo, NULL) != BLOOM_OK || out->nbits > bs_max_nbits_limit() ||
		out->cap_max != bs_cap_max(out->nbits))
		bs_corrupt(index, BS_METAPAGE_BLKNO, psprintf("group %u has no valid geometry", gi));
}

void
bs_walk_start(BsWalk *w, Relation index)
{
	w->index = index;
	w->nblocks = RelationGetNumberOfBlocks(index);
	w->steps = 0;
}

bool
bs_walk_next(BsWalk *w, BlockNumber blkno)
{
	if (blkno >= w->nblocks || w->steps >= w->nblocks)
		w->nblocks = RelationGetNumberOfBlocks(w->index);
	if (blkno >= w->nblocks || w->steps >= w->nblocks)
		return false;
	w->steps++;
	return true;
}

void
bs_walk_check(BsWalk *w, BlockNumber blkno)
{
	if (!bs_walk_next(w, blkno))
		bs_corrupt(w->index, blkno, blkno >= w->nblocks ?
				   "a chain points past the end of the index" :
				   "a chain loops: it has more pages than the index");
}

bool
bs_header_ok(const BsBlockHeader *h, uint64 id, uint32 group, const BsGroup *g)
{
	return h->id == id && h->group == group &&
		h->cap >= BLOOM_SLICES_MIN_CAP && h->cap <= g->cap_max && h->cap % 64 == 0 &&
		h->nrows <= h->cap && h->nlive <= h->nrows &&
		h->nslicepages == bs_slice_pages(h->cap, g->nbits) &&
		bs_header_size(h->cap, g->nbits) <= BS_PAGE_CAPACITY;
}

void
bs_free_pages(Relation index, const BlockNumber *pages, int npages)
{
	int			i = 0;

	while (i < npages)
	{
		BsXlog		x;
		Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
		int			n = 0;

		bs_xlog_start(&x, index, false);
		for (; i < npages && n < MAX_GENERIC_XLOG_PAGES; i++)
		{
			bufs[n] = ReadBuffer(index, pages[i]);
			LockBuffer(bufs[n], BUFFER_LOCK_EXCLUSIVE);
			bs_init_page(bs_xlog_page(&x, bufs[n], true), BS_PAGE_FREE, 0);
			n++;
		}
		bs_xlog_finish(&x);
		for (int j = 0; j < n; j++)
		{
			RecordFreeIndexPage(index, BufferGetBlockNumber(bufs[j]));
			UnlockReleaseBuffer(bufs[j]);
		}
	}
}
