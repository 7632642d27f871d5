/*
 * bitslice_insert.c - rows into a bloom_bitslice index: a new row goes to
 * its group's pending chain (or aside); a batch of pending rows is sliced
 * into the group's blocks (bitslice.h).
 *
 * Locks: the metapage's buffer lock, exclusive, covers every change of the
 * chains and the group table, so appends and flushes are serial and a scan
 * reads a consistent metapage.  The flush lock (a heavyweight lock on page
 * 0, what GIN takes for its pending list) keeps a flush and VACUUM apart;
 * an insert that finds it taken leaves its batch to the next insert.
 */
#include "bitslice.h"

#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* ---- the signature of a filter ---- */

/* The last odd size folded and its target (bloom_fold_target divides up
 * to sqrt(nbits) times for a size that is not a power of two). */
static struct
{
	int			layout;
	uint64		nbits;
	uint64		max_nbits;
	uint64		target;
}			fold_cache;

/*
 * A row whose bytes the core does not slice goes aside, never an error: a
 * layout, hash or version it does not know (bloom_sliceable, a positive
 * check, so a layout a later release adds goes aside too), or bytes that do
 * not parse at all (the type's input checked them, so only forged or
 * damaged values).  The recheck reads such a row's filter as a sequential
 * scan does, and answers, or raises, as it does.
 */
bool
bs_signature(Datum value, uint32 max_nbits, bloom_geometry *geo, uint8 *bits, bloom_kinds *kinds)
{
	struct varlena *flat = PG_DETOAST_DATUM(value);
	bloom_filter f;
	uint64		target;
	bool		ok;
	bool		parsed = bloom_parse(VARDATA(flat), VARSIZE(flat) - VARHDRSZ, &f, NULL) == BLOOM_OK;

	kinds->mask = parsed ? f.kinds.mask : 0;
	kinds->type_oid = parsed ? f.kinds.type_oid : 0;
	if (!parsed || !bloom_sliceable(&f))
		target = 0;
	else if (f.nbits <= max_nbits)
		target = f.nbits;
	else if (fold_cache.layout == f.layout && fold_cache.nbits == f.nbits &&
			 fold_cache.max_nbits == max_nbits)
		target = fold_cache.target;
	else
	{
		target = bloom_fold_target(f.layout, f.nbits, max_nbits);
		fold_cache.layout = f.layout;
		fold_cache.nbits = f.nbits;
		fold_cache.max_nbits = max_nbits;
		fold_cache.target = target;
	}
	ok = target != 0 && bloom_signature(&f, max_nbits, target, geo, bits);
	if ((Pointer) flat != DatumGetPointer(value))
		pfree(flat);
	return ok;
}

int
bs_find_group(const BsMetaData *meta, const bloom_geometry *geo)
{
	for (uint32 i = 0; i < meta->ngroups; i++)
	{
		const BsGroup *g = &meta->groups[i];

		if (g->nbits == geo->nbits && g->layout == geo->layout &&
			g->nhashes == geo->nhashes && g->seed == geo->seed)
			return (int) i;
	}
	return -1;
}

static uint64
count_bits(const uint8 *bits, uint64 nbytes)
{
	uint64		n = 0;

	for (uint64 i = 0; i < nbytes; i += 8)
	{
		uint64		w;

		memcpy(&w, bits + i, 8);
		n += (uint64) __builtin_popcountll(w);
	}
	return n;
}

/* ---- chains: pending rows and aside tids ---- */

/* Open the tail page of a chain (owner id) for an append in x. */
static Page
chain_tail(Relation index, BsXlog *x, BlockNumber tail, uint64 owner, uint16 type, Buffer *buf)
{
	Page		page;

	*buf = ReadBuffer(index, tail);
	LockBuffer(*buf, BUFFER_LOCK_EXCLUSIVE);
	page = bs_xlog_page(x, *buf, false);
	if (!bs_chain_page_of(page, type, owner))
		bs_corrupt(index, tail, "the tail of a chain is not the chain's");
	return page;
}

/*
 * Room for `size` bytes at the end of a chain whose ends are *head, *tail
 * and id *owner (0: no chain yet), in record x: the tail page, or a new
 * page linked after it.  Returns the page to write in.
 */
static Page
chain_room(Relation index, BsXlog *x, BsMetaData *meta, uint64 *owner, BlockNumber *head,
		   BlockNumber *tail, uint16 type, Size size, Buffer *bufs, int *nbufs)
{
	Page		page = NULL;
	Buffer		newbuf;
	Page		newpage;

	if (*owner != 0)
	{
		page = chain_tail(index, x, *tail, *owner, type, &bufs[(*nbufs)++]);
		if (((PageHeader) page)->pd_lower + size <= BS_CONTENT_OFFSET + BS_PAGE_CAPACITY)
			return page;
	}
	else
		*owner = meta->next_id++;
	newbuf = bs_new_buffer(index);
	bufs[(*nbufs)++] = newbuf;
	newpage = bs_xlog_page(x, newbuf, true);
	bs_init_page(newpage, type, *owner);
	if (page != NULL)
		BsPageGetOpaque(page)->next = BufferGetBlockNumber(newbuf);
	else
		*head = BufferGetBlockNumber(newbuf);
	*tail = BufferGetBlockNumber(newbuf);
	return newpage;
}

int
bs_append_pending(Relation index, Buffer metabuf, const bloom_geometry *geo, const BsRow *rows,
				  int nrows, bool building)
{
	Size		nbytes = bloom_geometry_nbytes(geo),
				size = BS_ENTRY_SIZE(nbytes);
	int			gi = bs_find_group(BsPageGetMeta(BufferGetPage(metabuf)), geo);

	if (gi < 0 && BsPageGetMeta(BufferGetPage(metabuf))->ngroups >= BLOOM_SLICES_MAX_GROUPS)
		return -1;
	for (int r = 0; r < nrows; r++)
	{
		BsXlog		x;
		Buffer		bufs[2];
		int			nbufs = 0;
		BsMetaData *meta;
		BsGroup    *g;
		Page		page;
		BsPendingEntry *entry;

		bs_xlog_start(&x, index, building);
		meta = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
		if (gi < 0)
		{
			gi = (int) meta->ngroups++;
			g = &meta->groups[gi];
			memset(g, 0, sizeof *g);
			g->seed = geo->seed;
			g->nbits = (uint32) geo->nbits;
			g->layout = geo->layout;
			g->nhashes = geo->nhashes;
			g->cap_max = bs_cap_max(g->nbits);
			g->pending_head = g->pending_tail = InvalidBlockNumber;
			g->first_block = g->last_block = InvalidBlockNumber;
		}
		g = &meta->groups[gi];
		page = chain_room(index, &x, meta, &g->pending_id, &g->pending_head, &g->pending_tail,
						  BS_PAGE_PENDING, size, bufs, &nbufs);
		entry = (BsPendingEntry *) ((char *) page + ((PageHeader) page)->pd_lower);
		memset(entry, 0, size);
		entry->tid = rows[r].tid;
		memcpy((char *) entry + MAXALIGN(sizeof(BsPendingEntry)), rows[r].bits, nbytes);
		((PageHeader) page)->pd_lower += size;
		g->pending_count++;
		g->bits_set += count_bits(rows[r].bits, nbytes);
		g->rows_seen++;
		bs_xlog_finish(&x);
		for (int i = 0; i < nbufs; i++)
			UnlockReleaseBuffer(bufs[i]);
	}
	return gi;
}

void
bs_append_aside(Relation index, Buffer metabuf, const ItemPointerData *tids, int ntids,
				bool building)
{
	int			t = 0;

	while (t < ntids)
	{
		BsXlog		x;
		Buffer		bufs[2];
		int			nbufs = 0;
		BsMetaData *meta;
		Page		page;
		PageHeader	ph;

		bs_xlog_start(&x, index, building);
		meta = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
		page = chain_room(index, &x, meta, &meta->aside_id, &meta->aside_head, &meta->aside_tail,
						  BS_PAGE_ASIDE, sizeof(ItemPointerData), bufs, &nbufs);
		ph = (PageHeader) page;
		/* as many as fit the page in one record */
		while (t < ntids &&
			   ph->pd_lower + sizeof(ItemPointerData) <= BS_CONTENT_OFFSET + BS_PAGE_CAPACITY)
		{
			memcpy((char *) page + ph->pd_lower, &tids[t++], sizeof(ItemPointerData));
			ph->pd_lower += sizeof(ItemPointerData);
			meta->aside_count++;
		}
		bs_xlog_finish(&x);
		for (int i = 0; i < nbufs; i++)
			UnlockReleaseBuffer(bufs[i]);
	}
}

/* ---- slicing rows into blocks ---- */

/*
 * Write rows into slots [first, first + n) of a block: its slice pages
 * (pages[], fresh: new pages to initialize) get the rows' bits merged
 * (bloom_slices_batch_merge).  Records of up to 4 pages.
 */
static void
write_slices(Relation index, const BsGroup *g, uint64 id, uint32 cap, const BlockNumber *pages,
			 bool fresh, uint32 first, const BsRow *rows, uint32 n, bool building)
{
	uint32		nbits = g->nbits,
				npages = bs_slice_pages(cap, nbits);
	const uint8 *rowbits[BLOOM_SLICES_MAX_CAP];
	size_t		nwords = bloom_slices_batch_words(nbits, first, n);
	uint64	   *words;
	bloom_slices_batch batch;
	bloom_error err;

	if (nwords == 0 || n > lengthof(rowbits))
		elog(ERROR, "bloom_bitslice: %u rows at slot %u cannot be sliced", n, first);
	for (uint32 i = 0; i < n; i++)
		rowbits[i] = rows[i].bits;
	words = palloc_extended(nwords * sizeof(uint64), MCXT_ALLOC_HUGE);
	if (bloom_slices_batch_make(&batch, nbits, cap, first, rowbits, n, words, nwords, &err) !=
		BLOOM_OK)
		elog(ERROR, "bloom_bitslice: %s", err.message);
	for (uint32 pg = 0; pg < npages;)
	{
		BsXlog		x;
		Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
		int			nbufs = 0;

		bs_xlog_start(&x, index, building);
		for (; pg < npages && !bs_xlog_full(&x); pg++)
		{
			uint32		bytes = bs_slice_page_bytes(cap, nbits, pg);
			Page		page;

			bufs[nbufs] = ReadBuffer(index, pages[pg]);
			LockBuffer(bufs[nbufs], BUFFER_LOCK_EXCLUSIVE);
			page = bs_xlog_page(&x, bufs[nbufs], fresh);
			nbufs++;
			if (fresh)
			{
				bs_init_page(page, BS_PAGE_SLICES, id);
				((PageHeader) page)->pd_lower = BS_CONTENT_OFFSET + bytes;
				memset(PageGetContents(page), 0, bytes);
			}
			else if (!bs_page_of(page, BS_PAGE_SLICES, id) ||
					 ((PageHeader) page)->pd_lower != BS_CONTENT_OFFSET + bytes)
				bs_corrupt(index, pages[pg], "a slice page is not its block's");
			/* index pages hold words in the machine's order */
			if (bloom_slices_batch_merge(&batch, BS_PAGE_CAPACITY, pg,
										 (uint8 *) PageGetContents(page), bytes,
										 BLOOM_SLICES_HOST_ORDER, &err) != BLOOM_OK)
				elog(ERROR, "bloom_bitslice: %s", err.message);
		}
		bs_xlog_finish(&x);
		for (int i = 0; i < nbufs; i++)
			UnlockReleaseBuffer(bufs[i]);
		CHECK_FOR_INTERRUPTS();
	}
	pfree(words);
}

/* The pages of a new block of cap slots: the header's, then its slices'.
 * Taken from the free space map or new; written by the caller, who holds
 * the metapage (no one else allocates meanwhile). */
static void
new_block_pages(Relation index, uint32 cap, uint32 nbits, BlockNumber *header,
				BlockNumber *pages)
{
	uint32		npages = bs_slice_pages(cap, nbits);
	Buffer		buf = bs_new_buffer(index);

	*header = BufferGetBlockNumber(buf);
	UnlockReleaseBuffer(buf);
	for (uint32 i = 0; i < npages; i++)
	{
		buf = bs_new_buffer(index);
		pages[i] = BufferGetBlockNumber(buf);
		UnlockReleaseBuffer(buf);
	}
}

void
bs_slice_rows(Relation index, Buffer metabuf, int gi, const BsRow *rows, int nrows,
			  bool building, bool grow)
{
	int			done = 0;

	while (done < nrows)
	{
		BsGroup		g = BsPageGetMeta(BufferGetPage(metabuf))->groups[gi];
		Buffer		lastbuf = InvalidBuffer;
		BsBlockHeader *last = NULL;
		uint32		cap,
					first,
					n;
		uint64		id;
		bool		fresh;
		BlockNumber header;
		BlockNumber *pages;
		BsXlog		x;
		Buffer		hbuf;
		Page		hpage;
		BsBlockHeader *h;
		BsMetaData *meta;
		BsGroup    *mg;
		uint64		bits = 0;

		if (g.last_block != InvalidBlockNumber)
		{
			lastbuf = ReadBuffer(index, g.last_block);
			LockBuffer(lastbuf, BUFFER_LOCK_SHARE);
			last = (BsBlockHeader *) PageGetContents(BufferGetPage(lastbuf));
			if (!bs_page_is(BufferGetPage(lastbuf), BS_PAGE_BLOCK) ||
				!bs_header_ok(last, g.last_id, (uint32) gi, &g))
				bs_corrupt(index, g.last_block, "the last block of a group is not its block");
		}
		if (last != NULL && last->nrows < last->cap)
		{
			/* fill the last block */
			fresh = false;
			id = last->id;
			cap = last->cap;
			first = last->nrows;
			header = g.last_block;
			pages = palloc(last->nslicepages * sizeof(BlockNumber));
			memcpy(pages, BS_HEADER_PAGES(last), last->nslicepages * sizeof(BlockNumber));
		}
		else
		{
			cap = bloom_slices_block_cap((uint32) (nrows - done),
										 grow && last != NULL ? last->cap : 0, g.cap_max);
			fresh = true;
			first = 0;
			pages = palloc(bs_slice_pages(cap, g.nbits) * sizeof(BlockNumber));
			new_block_pages(index, cap, g.nbits, &header, pages);
			id = 0;				/* from the metapage, below */
		}
		if (lastbuf != InvalidBuffer)
			LockBuffer(lastbuf, BUFFER_LOCK_UNLOCK);
		n = Min((uint32) (nrows - done), cap - first);
		if (fresh)
		{
			BsXlog		idx;

			/* the new block's id */
			bs_xlog_start(&idx, index, building);
			meta = BsPageGetMeta(bs_xlog_page(&idx, metabuf, false));
			id = meta->next_id++;
			bs_xlog_finish(&idx);
		}
		write_slices(index, &g, id, cap, pages, fresh, first, rows + done, n, building);

		/* register the slots (and link a new block) in one record */
		bs_xlog_start(&x, index, building);
		hbuf = ReadBuffer(index, header);
		LockBuffer(hbuf, BUFFER_LOCK_EXCLUSIVE);
		hpage = bs_xlog_page(&x, hbuf, fresh);
		if (fresh)
		{
			bs_init_page(hpage, BS_PAGE_BLOCK, id);
			h = (BsBlockHeader *) PageGetContents(hpage);
			memset(h, 0, bs_header_size(cap, g.nbits));
			h->id = id;
			h->next = InvalidBlockNumber;
			h->group = (uint32) gi;
			h->cap = (uint16) cap;
			h->nslicepages = bs_slice_pages(cap, g.nbits);
			memcpy(BS_HEADER_PAGES(h), pages, h->nslicepages * sizeof(BlockNumber));
			((PageHeader) hpage)->pd_lower = BS_CONTENT_OFFSET + bs_header_size(cap, g.nbits);
		}
		else
		{
			h = (BsBlockHeader *) PageGetContents(hpage);
			if (!bs_header_ok(h, id, (uint32) gi, &g) || h->nrows != first)
				bs_corrupt(index, header, "a block changed under its group's lock");
		}
		for (uint32 i = 0; i < n; i++)
		{
			uint32		slot = first + i;

			BS_HEADER_TIDS(h)[slot] = rows[done + i].tid;
			BS_HEADER_LIVE(h)[slot / 8] |= (uint8) (1 << (slot % 8));
			bits += count_bits(rows[done + i].bits, (g.nbits + 63) / 64 * 8);
		}
		h->nrows = (uint16) (first + n);
		h->nlive = (uint16) (h->nlive + n);
		if (fresh && lastbuf != InvalidBuffer)
		{
			BsBlockHeader *prev;

			LockBuffer(lastbuf, BUFFER_LOCK_EXCLUSIVE);
			prev = (BsBlockHeader *) PageGetContents(bs_xlog_page(&x, lastbuf, false));
			prev->next = header;
			prev->next_id = id;
		}
		meta = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
		mg = &meta->groups[gi];
		if (fresh)
		{
			if (mg->first_block == InvalidBlockNumber)
			{
				mg->first_block = header;
				mg->first_id = id;
			}
			mg->last_block = header;
			mg->last_id = id;
			mg->nblocks++;
		}
		mg->nrows += n;
		mg->nlive += n;
		if (building)			/* else counted when they were appended */
		{
			mg->bits_set += bits;
			mg->rows_seen += n;
		}
		bs_xlog_finish(&x);
		UnlockReleaseBuffer(hbuf);
		if (lastbuf != InvalidBuffer)
		{
			if (fresh)
				LockBuffer(lastbuf, BUFFER_LOCK_UNLOCK);
			ReleaseBuffer(lastbuf);
		}
		pfree(pages);
		done += (int) n;
	}
}

/* ---- flushing a pending chain ---- */

void
bs_flush(Relation index, int gi)
{
	Buffer		metabuf = ReadBuffer(index, BS_METAPAGE_BLKNO);
	BsGroup		g;
	Size		nbytes;
	BsRow	   *rows;
	int			nrows = 0,
				maxrows = 256;
	uint32		consumed = 0;
	BlockNumber *freed;
	int			nfreed = 0,
				maxfreed = 64;
	BsWalk		walk;
	BlockNumber blkno,
				next = InvalidBlockNumber;
	BsXlog		x;
	BsMetaData *meta;
	MemoryContext cxt = bloom_context_create(CurrentMemoryContext, "bloom_bitslice flush",
											  ALLOCSET_DEFAULT_SIZES),
				old = MemoryContextSwitchTo(cxt);

	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	meta = BsPageGetMeta(BufferGetPage(metabuf));
	bs_check_meta(index, meta);
	if (gi >= (int) meta->ngroups || meta->groups[gi].pending_count < BLOOM_SLICES_BATCH_ROWS)
	{
		UnlockReleaseBuffer(metabuf);
		MemoryContextSwitchTo(old);
		MemoryContextDelete(cxt);
		return;
	}
	g = meta->groups[gi];
	nbytes = (g.nbits + 63) / 64 * 8;
	rows = palloc(maxrows * sizeof(BsRow));
	freed = palloc(maxfreed * sizeof(BlockNumber));

	/* whole pages from the head, up to BS_FLUSH_MAX entries */
	bs_walk_start(&walk, index);
	for (blkno = g.pending_head; blkno != InvalidBlockNumber; blkno = next)
	{
		Buffer		buf;
		Page		page;
		uint32		nentries;

		bs_walk_check(&walk, blkno);
		buf = ReadBuffer(index, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!bs_chain_page_of(page, BS_PAGE_PENDING, g.pending_id))
			bs_corrupt(index, blkno, "a page of a pending chain is not the chain's");
		nentries = (((PageHeader) page)->pd_lower - BS_CONTENT_OFFSET) / BS_ENTRY_SIZE(nbytes);
		if (consumed > 0 && consumed + nentries > BS_FLUSH_MAX)
		{
			UnlockReleaseBuffer(buf);
			next = blkno;
			break;
		}
		for (uint32 i = 0; i < nentries; i++)
		{
			BsPendingEntry *e = (BsPendingEntry *) ((char *) PageGetContents(page) +
													i * BS_ENTRY_SIZE(nbytes));

			if (e->dead)
				continue;
			if (nrows == maxrows)
				rows = repalloc(rows, (maxrows *= 2) * sizeof(BsRow));
			rows[nrows].tid = e->tid;
			rows[nrows].bits = palloc(nbytes);
			memcpy(rows[nrows].bits, (char *) e + MAXALIGN(sizeof(BsPendingEntry)), nbytes);
			nrows++;
		}
		consumed += nentries;
		if (nfreed == maxfreed)
			freed = repalloc(freed, (maxfreed *= 2) * sizeof(BlockNumber));
		freed[nfreed++] = blkno;
		next = BsPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
	}

	/* slice them: the rows are then in both places until the chain drops them */
	if (nrows > 0)
		bs_slice_rows(index, metabuf, gi, rows, nrows, false, true);

	bs_xlog_start(&x, index, false);
	meta = BsPageGetMeta(bs_xlog_page(&x, metabuf, false));
	meta->groups[gi].pending_head = next;
	if (next == InvalidBlockNumber)
	{
		meta->groups[gi].pending_tail = InvalidBlockNumber;
		meta->groups[gi].pending_id = 0;
	}
	meta->groups[gi].pending_count -= Min(consumed, meta->groups[gi].pending_count);
	/* in the record that drops the pages, before they are freed: a scan
	 * walking the chain meanwhile scans the group again (bitslice_scan.c) */
	meta->groups[gi].pending_drops++;
	bs_xlog_finish(&x);
	UnlockReleaseBuffer(metabuf);

	bs_free_pages(index, freed, nfreed);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}
bool
bs_merge_kinds(BsMetaData *meta, bloom_kinds kinds)
{
	bloom_kinds merged = {meta->value_kinds, meta->typed_oid};

	bloom_kinds_merge(&merged, kinds);
	if (merged.mask == meta->value_kinds && merged.type_oid == meta->typed_oid)
		return false;
	meta->value_kinds = merged.mask;
	meta->typed_oid = merged.type_oid;
	return true;
}

/* ---- aminsert ---- */

bool
bs_insert(Relation index, Datum *values, bool *isnull, ItemPointer ht_ctid, Relation heapRel,
		  IndexUniqueCheck checkUnique, bool indexUnchanged, IndexInfo *indexInfo)
{
	MemoryContext cxt = bloom_context_create(CurrentMemoryContext, "bloom_bitslice insert",
											  ALLOCSET_DEFAULT_SIZES),
				old;
	uint32		max_nbits = (uint32) bs_option_max_nbits(index);
	bloom_geometry geo;
	bloom_kinds kinds,
				merged;
	uint8	   *bits;
	bool		indexed;
	Buffer		metabuf;
	BsMetaData *meta;
	int			gi = -1;
	bool		flush = false;

	(void) heapRel;
	(void) checkUnique;
	(void) indexUnchanged;
	(void) indexInfo;
	if (isnull[0])
		return false;			/* NULL filters hold nothing: never a match */
	old = MemoryContextSwitchTo(cxt);
	bits = palloc(bs_max_nbits_limit() / 8 + 8);
	indexed = bs_signature(values[0], max_nbits, &geo, bits, &kinds);

	metabuf = ReadBuffer(index, BS_METAPAGE_BLKNO);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	meta = BsPageGetMeta(BufferGetPage(metabuf));
	bs_check_meta(index, meta);
	if (meta->max_nbits != max_nbits)	/* set again since the build */
		indexed = bs_signature(values[0], meta->max_nbits, &geo, bits, &kinds);
	/* the row's kinds before the row: a scan that sees it sees them */
	merged.mask = meta->value_kinds;
	merged.type_oid = meta->typed_oid;
	bloom_kinds_merge(&merged, kinds);
	if (merged.mask != meta->value_kinds || merged.type_oid != meta->typed_oid)
	{
		BsXlog		x;

		bs_xlog_start(&x, index, false);
		bs_merge_kinds(BsPageGetMeta(bs_xlog_page(&x, metabuf, false)), kinds);
		bs_xlog_finish(&x);
	}
	if (indexed)
	{
		BsRow		row = {*ht_ctid, bits};

		gi = bs_append_pending(index, metabuf, &geo, &row, 1, false);
		if (gi >= 0)
			flush = BsPageGetMeta(BufferGetPage(metabuf))->groups[gi].pending_count >=
				BLOOM_SLICES_BATCH_ROWS;
	}
	if (gi < 0)
		bs_append_aside(index, metabuf, ht_ctid, 1, false);
	UnlockReleaseBuffer(metabuf);

	/* slice the batch unless a flush or VACUUM is at work: the next insert will */
	if (flush && ConditionalLockPage(index, BS_METAPAGE_BLKNO, ExclusiveLock))
	{
		bs_flush(index, gi);
		UnlockPage(index, BS_METAPAGE_BLKNO, ExclusiveLock);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return false;
}
