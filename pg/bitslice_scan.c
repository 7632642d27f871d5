/*
 * bitslice_scan.c - a bitmap scan of a bloom_bitslice index: the tids of
 * the rows whose filter may contain every probed value (WHERE f @> x AND
 * f @> y ...), each marked for recheck (the heap's filter answers, the
 * index only narrows the rows down).
 *
 * Per group: the value's hash under the group's seed gives k bit positions
 * (bloom_probe_bits); the pending rows are tested one by one; per block,
 * the header's live bitmap is ANDed with the k slices, read from the slice
 * pages that hold them, and the tids of the slots left are returned.  Rows
 * kept aside are all returned.
 *
 * A scan takes no lock but the pages' own, one page at a time (a block's
 * header is held while its slices are read), and it must still return
 * every row live in its snapshot, as nbtree's and GIN's scans do.  Such a
 * row was indexed before the scan began, and is from then on in its
 * group's pending chain or in a live slot of a linked block, at times in
 * both; it moves only by a flush (pending to a block: sliced and
 * registered first, then the chain's head pages dropped and freed) and by
 * VACUUM's compaction (a sparse block to pending: appended first, then the
 * block unlinked and freed).  A group is scanned in three steps, each
 * reading the group's entry of the metapage:
 *
 *   A. read the group (head of the pending chain, first block, and the
 *      counters pending_drops and block_drops);
 *   B. walk the pending chain from that head, then read the group again:
 *      pending_drops unchanged means no flush dropped a page of the chain
 *      from A to here, so none was freed, let alone reused, and the walk
 *      went through every page of the chain as it was at A (pages appended
 *      since are read or not, either is right);
 *   C. walk the blocks from that first block, then read the group again:
 *      block_drops unchanged means no block was unlinked from A to here, so
 *      every block linked at A was visited (a block appended since may be).
 *
 * A row in pending at A is found by B.  A row not in pending at A is in a
 * live slot of a block linked at A: the block it was last moved into (a
 * compaction of that block that had appended the row to pending before A
 * would have put it in pending).  That block stays linked through C unless
 * unlinked, which counts in block_drops; bulk delete clears only the slots
 * of rows dead to every snapshot.  So when both counters held, the group
 * gave every row; when one moved, or a page was not what its pointer
 * promised (freed, reused: the ids), the group is scanned again, which can
 * only add tids (a tid bitmap keeps each once).  The flush increments
 * pending_drops in the record that moves the head, before it frees the
 * pages; VACUUM increments block_drops in the record that unlinks the
 * block, before it frees the pages.  After three restarts on a primary the
 * scan holds the flush lock (shared), which keeps flushes and VACUUM out
 * until it is done: then nothing moves, and a restart means damage.  Rows
 * aside never move (bulk delete drops dead ones from their page).
 */
#include "bitslice.h"

#include "access/relscan.h"
#include "access/xlog.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

typedef struct BsKey
{
	Datum		value;
	BloomHasher hasher;
	uint64		seed;			/* hash is the value's hash under seed */
	uint64		hash;
	bool		hashed;
	bool		text_key;		/* of a text type: read as each filter's values */
	bool		any_row;		/* tests no bit: every row a candidate */
} BsKey;

typedef struct BsScanOpaqueData
{
	MemoryContext cxt;
	MemoryContext keycxt;		/* the keys' hashers: reset by each rescan */
	int			nkeys;
	BsKey	   *keys;
	bool		empty;			/* a NULL key: no row matches */
	ItemPointerData *tids;		/* found, not yet in the bitmap */
	int			ntids;
	int			maxtids;
} BsScanOpaqueData;

typedef BsScanOpaqueData *BsScanOpaque;

/* Why a pass over the index stopped short. */
typedef enum BsPass
{
	BS_PASS_DONE,
	BS_PASS_RESTART				/* a page was not what its pointer promised */
} BsPass;

IndexScanDesc
bs_beginscan(Relation index, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(index, nkeys, norderbys);
	BsScanOpaque so = palloc0(sizeof(BsScanOpaqueData));

	so->cxt = bloom_context_create(CurrentMemoryContext, "bloom_bitslice scan",
									ALLOCSET_SMALL_SIZES);
	so->keycxt = bloom_context_create(so->cxt, "bloom_bitslice scan keys",
									   ALLOCSET_SMALL_SIZES);
	so->maxtids = BLOOM_SLICES_MAX_CAP;
	so->tids = MemoryContextAlloc(so->cxt, so->maxtids * sizeof(ItemPointerData));
	scan->opaque = so;
	return scan;
}

void
bs_rescan(IndexScanDesc scan, ScanKey keys, int nkeys, ScanKey orderbys, int norderbys)
{
	BsScanOpaque so = (BsScanOpaque) scan->opaque;

	(void) orderbys;
	(void) norderbys;
	if (keys && scan->numberOfKeys > 0)
		memmove(scan->keyData, keys, scan->numberOfKeys * sizeof(ScanKeyData));
	MemoryContextReset(so->keycxt);
	so->empty = false;
	so->nkeys = scan->numberOfKeys;
	so->keys = MemoryContextAllocZero(so->keycxt, Max(1, so->nkeys) * sizeof(BsKey));
	(void) nkeys;
	for (int i = 0; i < so->nkeys; i++)
	{
		ScanKey		sk = &scan->keyData[i];

		if (sk->sk_flags & SK_ISNULL)
		{
			so->empty = true;	/* @> is strict: f @> NULL is never true */
			continue;
		}
		if (sk->sk_strategy != BS_STRATEGY_CONTAINS || !OidIsValid(sk->sk_subtype))
			elog(ERROR, "bloom_bitslice: unexpected scan key (strategy %d, type %u)",
				 sk->sk_strategy, sk->sk_subtype);
		so->keys[i].value = sk->sk_argument;
		bloom_hasher_init_type(&so->keys[i].hasher, sk->sk_subtype, so->keycxt);
		so->keys[i].text_key = bloom_is_text_probe(&so->keys[i].hasher);
	}
}

void
bs_endscan(IndexScanDesc scan)
{
	BsScanOpaque so = (BsScanOpaque) scan->opaque;

	MemoryContextDelete(so->cxt);
	pfree(so);
}

static void
add_tid(BsScanOpaque so, ItemPointerData tid)
{
	if (so->ntids == so->maxtids)
	{
		so->maxtids *= 2;
		so->tids = repalloc_huge(so->tids, so->maxtids * sizeof(ItemPointerData));
	}
	so->tids[so->ntids++] = tid;
}

static void
emit(BsScanOpaque so, TIDBitmap *tbm, int64 *ntids)
{
	if (so->ntids == 0)
		return;
	tbm_add_tuples(tbm, so->tids, so->ntids, true);
	*ntids += so->ntids;
	so->ntids = 0;
}

static int
compare_positions(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a,
				y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/* The distinct bit positions every key tests in group g, sorted. */
static int
probe_positions(BsScanOpaque so, const BsGroup *g, uint64 *pos)
{
	bloom_geometry geo = {g->layout, g->nhashes, g->seed, g->nbits};
	int			n = 0,
				m = 0;

	for (int i = 0; i < so->nkeys; i++)
	{
		BsKey	   *key = &so->keys[i];

		if (key->any_row)
			continue;
		if (!key->hashed || key->seed != g->seed)
		{
			key->hash = bloom_hash_value(&key->hasher, key->value, g->seed);
			key->seed = g->seed;
			key->hashed = true;
		}
		n += (int) bloom_probe_bits(&geo, key->hash, pos + n);
	}
	qsort(pos, n, sizeof(uint64), compare_positions);
	for (int i = 0; i < n; i++)
		if (m == 0 || pos[m - 1] != pos[i])
			pos[m++] = pos[i];
	return m;
}

/* Read a chain page (share-locked), or InvalidBuffer when it is not the chain's. */
static Buffer
chain_page(Relation index, BlockNumber blkno, uint16 type, uint64 owner)
{
	Buffer		buf = ReadBuffer(index, blkno);
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!bs_chain_page_of(page, type, owner))
	{
		UnlockReleaseBuffer(buf);
		return InvalidBuffer;
	}
	return buf;
}

static BsPass
scan_pending(Relation index, BsScanOpaque so, const BsGroup *g, const uint64 *pos, int npos,
			 BsWalk *walk, TIDBitmap *tbm, int64 *ntids)
{
	Size		nbytes = (g->nbits + 63) / 64 * 8,
				size = BS_ENTRY_SIZE(nbytes);
	BlockNumber blkno = g->pending_head;

	while (blkno != InvalidBlockNumber && g->pending_id != 0)
	{
		Buffer		buf;
		Page		page;
		char	   *p,
				   *end;

		CHECK_FOR_INTERRUPTS();
		if (!bs_walk_next(walk, blkno) ||
			(buf = chain_page(index, blkno, BS_PAGE_PENDING, g->pending_id)) == InvalidBuffer)
			return BS_PASS_RESTART;
		page = BufferGetPage(buf);
		end = (char *) page + ((PageHeader) page)->pd_lower;
		for (p = PageGetContents(page); p + size <= end; p += size)
		{
			const BsPendingEntry *e = (const BsPendingEntry *) p;
			const uint8 *bits = (const uint8 *) p + MAXALIGN(sizeof(BsPendingEntry));
			int			all = 1;

			if (e->dead)
				continue;
			for (int i = 0; i < npos && all; i++)
				all = bits[pos[i] >> 3] >> (pos[i] & 7) & 1;
			if (all)
				add_tid(so, e->tid);
		}
		blkno = BsPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		emit(so, tbm, ntids);
	}
	return BS_PASS_DONE;
}

static BsPass
scan_aside(Relation index, BsScanOpaque so, const BsMetaData *meta, BsWalk *walk,
		   TIDBitmap *tbm, int64 *ntids)
{
	BlockNumber blkno = meta->aside_head;

	while (blkno != InvalidBlockNumber && meta->aside_id != 0)
	{
		Buffer		buf;
		Page		page;
		char	   *p,
				   *end;

		CHECK_FOR_INTERRUPTS();
		if (!bs_walk_next(walk, blkno) ||
			(buf = chain_page(index, blkno, BS_PAGE_ASIDE, meta->aside_id)) == InvalidBuffer)
			return BS_PASS_RESTART;
		page = BufferGetPage(buf);
		end = (char *) page + ((PageHeader) page)->pd_lower;
		for (p = PageGetContents(page); p + sizeof(ItemPointerData) <= end;
			 p += sizeof(ItemPointerData))
		{
			ItemPointerData tid;

			memcpy(&tid, p, sizeof tid);
			add_tid(so, tid);
		}
		blkno = BsPageGetOpaque(page)->next;
		UnlockReleaseBuffer(buf);
		emit(so, tbm, ntids);
	}
	return BS_PASS_DONE;
}

/* One block: its live slots ANDed with the slices at pos. */
static BsPass
scan_block(Relation index, BsScanOpaque so, uint32 gi, const BsGroup *g, const uint64 *pos,
		   int npos, BlockNumber *blkno, uint64 *id, BsWalk *walk)
{
	Buffer		hbuf;
	Page		hpage;
	const BsBlockHeader *h;
	uint64		acc[BLOOM_SLICES_MAX_CAP / 64];
	uint32		nwords;
	bool		any = false,
				bad = false;
	Buffer		sbuf = InvalidBuffer;
	uint32		spg = 0;
	const uint8 *scontent = NULL;

	if (!bs_walk_next(walk, *blkno))
		return BS_PASS_RESTART;
	hbuf = ReadBuffer(index, *blkno);
	LockBuffer(hbuf, BUFFER_LOCK_SHARE);
	hpage = BufferGetPage(hbuf);
	h = (const BsBlockHeader *) PageGetContents(hpage);
	if (!bs_page_is(hpage, BS_PAGE_BLOCK) || !bs_header_ok(h, *id, gi, g) ||
		((PageHeader) hpage)->pd_lower != BS_CONTENT_OFFSET + bs_header_size(h->cap, g->nbits))
	{
		UnlockReleaseBuffer(hbuf);
		return BS_PASS_RESTART;
	}
	nwords = h->cap / 64;
	/* the live, registered slots */
	for (uint32 w = 0; w < nwords; w++)
	{
		uint64		live;
		uint32		base = 64 * w;

		memcpy(&live, BS_HEADER_LIVE(h) + 8 * w, 8);
		if (base + 64 > h->nrows)
			live &= h->nrows <= base ? 0 : (UINT64CONST(1) << (h->nrows - base)) - 1;
		acc[w] = live;
		any |= live != 0;
	}
	/* the slices' words, in stream order: page by page */
	for (int i = 0; i < npos && any && !bad; i++)
	{
		any = false;
		for (uint32 w = 0; w < nwords; w++)
		{
			uint32		pg,
						at;
			uint64		word;

			bloom_slices_word_at(h->cap, BS_PAGE_CAPACITY, pos[i], w, &pg, &at);

			if (sbuf == InvalidBuffer || pg != spg)
			{
				BlockNumber sblk = BS_HEADER_PAGES(h)[pg];
				Page		spage;

				if (sbuf != InvalidBuffer)
					UnlockReleaseBuffer(sbuf);
				sbuf = InvalidBuffer;
				if (sblk >= walk->nblocks)
					walk->nblocks = RelationGetNumberOfBlocks(index);
				if (sblk >= walk->nblocks)
				{
					bad = true;
					break;
				}
				sbuf = ReadBuffer(index, sblk);
				LockBuffer(sbuf, BUFFER_LOCK_SHARE);
				spage = BufferGetPage(sbuf);
				spg = pg;
				scontent = (const uint8 *) PageGetContents(spage);
				if (!bs_page_of(spage, BS_PAGE_SLICES, h->id) ||
					((PageHeader) spage)->pd_lower !=
					BS_CONTENT_OFFSET + bs_slice_page_bytes(h->cap, g->nbits, pg))
				{
					bad = true;
					break;
				}
			}
			memcpy(&word, scontent + at, 8);
			acc[w] &= word;
			any |= acc[w] != 0;
		}
	}
	if (sbuf != InvalidBuffer)
		UnlockReleaseBuffer(sbuf);
	if (bad)
	{
		/* a page is not its block's: freed and reused meanwhile */
		UnlockReleaseBuffer(hbuf);
		return BS_PASS_RESTART;
	}
	if (any)
		for (uint32 w = 0; w < nwords; w++)
			for (uint64 bits = acc[w]; bits != 0; bits &= bits - 1)
				add_tid(so, BS_HEADER_TIDS(h)[64 * w + (uint32) __builtin_ctzll(bits)]);
	*blkno = h->next;
	*id = h->next_id;
	UnlockReleaseBuffer(hbuf);
	return BS_PASS_DONE;
}

/*
 * One group, in the three steps of the comment at the top: restart when a
 * page was not what its pointer promised or a drop counter moved.
 */
static BsPass
scan_group(IndexScanDesc scan, uint32 gi, uint64 *pos, TIDBitmap *tbm, int64 *ntids)
{
	Relation	index = scan->indexRelation;
	BsScanOpaque so = (BsScanOpaque) scan->opaque;
	BsGroup		g,
				now;
	BsWalk		walk;
	BlockNumber blkno;
	uint64		id;
	int			npos;
	BsPass		pass;

	/* A */
	bs_read_group(index, gi, &g);
	bs_pause("scan_meta");
	npos = probe_positions(so, &g, pos);

	/* B */
	bs_walk_start(&walk, index);
	pass = scan_pending(index, so, &g, pos, npos, &walk, tbm, ntids);
	so->ntids = 0;
	if (pass != BS_PASS_DONE)
		return pass;
	bs_read_group(index, gi, &now);
	if (now.pending_drops != g.pending_drops)
		return BS_PASS_RESTART;
	bs_pause("scan_blocks");

	/* C */
	walk.steps = 0;
	blkno = g.first_block;
	id = g.first_id;
	while (blkno != InvalidBlockNumber)
	{
		CHECK_FOR_INTERRUPTS();
		pass = scan_block(index, so, gi, &g, pos, npos, &blkno, &id, &walk);
		if (pass != BS_PASS_DONE)
		{
			so->ntids = 0;
			return pass;
		}
		emit(so, tbm, ntids);
	}
	bs_read_group(index, gi, &now);
	if (now.block_drops != g.block_drops)
		return BS_PASS_RESTART;
	return BS_PASS_DONE;
}

int64
bs_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	Relation	index = scan->indexRelation;
	BsScanOpaque so = (BsScanOpaque) scan->opaque;
	int64		ntids = 0;
	int			restarts = 0,
				tries = 0;
	bool		locked = false;
	BsMetaData *meta;
	uint64	   *pos;

	if (so->empty)
		return 0;
	index_count_search_compat(scan);
	meta = palloc(sizeof(BsMetaData));
	pos = palloc(Max(1, so->nkeys) * BLOOM_MAX_NHASHES * sizeof(uint64));
	bs_read_meta(index, meta);

	/*
	 * A text key is read as the values each row's filter records (its
	 * header's kinds, pg/text_probe.c), which the slices do not keep: once
	 * any indexed filter records kinds, every row is a candidate of a text
	 * key and the operator rechecks each; while none does, it is the text.
	 * A row of this scan's snapshot was indexed before the scan began, so
	 * its kinds are in this copy of the metapage.
	 */
	for (int i = 0; i < so->nkeys; i++)
		so->keys[i].any_row = so->keys[i].text_key && meta->value_kinds != 0;
	/* groups are only ever added: those of this copy are there to the end */
	for (uint32 gi = 0; gi <= meta->ngroups;)
	{
		BsPass		pass;

		if (gi < meta->ngroups)
			pass = scan_group(scan, gi, pos, tbm, &ntids);
		else
		{
			BsWalk		walk;

			bs_read_meta(index, meta);
			bs_walk_start(&walk, index);
			pass = scan_aside(index, so, meta, &walk, tbm, &ntids);
			so->ntids = 0;
		}
		if (pass == BS_PASS_DONE)
		{
			gi++;
			tries = 0;
			continue;
		}
		/* with the flush lock held nothing moves: the index is damaged */
		restarts++;
		if (locked || ++tries >= 100)
			bs_corrupt(index, BS_METAPAGE_BLKNO,
					   "a page is not what the page pointing to it says");
		if (restarts >= 3 && !RecoveryInProgress())
		{
			LockPage(index, BS_METAPAGE_BLKNO, ShareLock);
			locked = true;
		}
		CHECK_FOR_INTERRUPTS();
	}
	if (locked)
		UnlockPage(index, BS_METAPAGE_BLKNO, ShareLock);
	pfree(pos);
	pfree(meta);
	return ntids;
}
