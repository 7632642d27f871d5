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
 * header is held while its slices are read).  Every page must be what the
 * pointer to it promised (type, owner id): a page freed and reused while
 * the scan ran is seen, and the scan starts over, which can only add tids
 * already found (a tid bitmap keeps each once).  Writers order their
 * records so that a row is always in its pending chain or in a registered
 * slot of a block (bitslice.h), and a scan reads the pending chains before
 * the blocks: a row moved by a flush meanwhile is found in one or the
 * other.  After three restarts on a primary the scan holds the flush lock
 * (shared), which keeps flushes and VACUUM out until it is done.
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
	so->maxtids = BS_MAX_CAP;
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
	if (PageIsNew(page) || PageGetSpecialSize(page) != MAXALIGN(sizeof(BsPageOpaqueData)) ||
		BsPageGetOpaque(page)->type != type || BsPageGetOpaque(page)->owner != owner ||
		((PageHeader) page)->pd_lower < BS_CONTENT_OFFSET ||
		((PageHeader) page)->pd_lower > BS_CONTENT_OFFSET + BS_PAGE_CAPACITY)
	{
		UnlockReleaseBuffer(buf);
		return InvalidBuffer;
	}
	return buf;
}

static BsPass
scan_pending(Relation index, BsScanOpaque so, const BsGroup *g, const uint64 *pos, int npos,
			 BlockNumber nblocks, TIDBitmap *tbm, int64 *ntids)
{
	Size		nbytes = (g->nbits + 63) / 64 * 8,
				size = BS_ENTRY_SIZE(nbytes);
	BlockNumber blkno = g->pending_head,
				seen = 0;

	while (blkno != InvalidBlockNumber && g->pending_id != 0)
	{
		Buffer		buf;
		Page		page;
		char	   *p,
				   *end;

		if (blkno >= nblocks || ++seen > nblocks ||
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
scan_aside(Relation index, BsScanOpaque so, const BsMetaData *meta, BlockNumber nblocks,
		   TIDBitmap *tbm, int64 *ntids)
{
	BlockNumber blkno = meta->aside_head,
				seen = 0;

	while (blkno != InvalidBlockNumber && meta->aside_id != 0)
	{
		Buffer		buf;
		Page		page;
		char	   *p,
				   *end;

		if (blkno >= nblocks || ++seen > nblocks ||
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
		   int npos, BlockNumber *blkno, uint64 *id, BlockNumber nblocks)
{
	Buffer		hbuf;
	Page		hpage;
	const BsBlockHeader *h;
	uint64		acc[BS_MAX_CAP / 64];
	uint32		nwords;
	bool		any = false,
				bad = false;
	Buffer		sbuf = InvalidBuffer;
	uint32		spg = 0;
	const uint8 *scontent = NULL;

	if (*blkno >= nblocks)
		return BS_PASS_RESTART;
	hbuf = ReadBuffer(index, *blkno);
	LockBuffer(hbuf, BUFFER_LOCK_SHARE);
	hpage = BufferGetPage(hbuf);
	h = (const BsBlockHeader *) PageGetContents(hpage);
	if (PageIsNew(hpage) || PageGetSpecialSize(hpage) != MAXALIGN(sizeof(BsPageOpaqueData)) ||
		BsPageGetOpaque(hpage)->type != BS_PAGE_BLOCK || !bs_header_ok(h, *id, gi, g) ||
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
		uint64		q0 = pos[i] * nwords;

		any = false;
		for (uint32 w = 0; w < nwords; w++)
		{
			uint64		q = q0 + w;
			uint32		pg = (uint32) (q / (BS_PAGE_CAPACITY / 8));
			uint64		word;

			if (sbuf == InvalidBuffer || pg != spg)
			{
				BlockNumber sblk = BS_HEADER_PAGES(h)[pg];
				Page		spage;

				if (sbuf != InvalidBuffer)
					UnlockReleaseBuffer(sbuf);
				sbuf = InvalidBuffer;
				if (sblk >= nblocks)
				{
					bad = true;
					break;
				}
				sbuf = ReadBuffer(index, sblk);
				LockBuffer(sbuf, BUFFER_LOCK_SHARE);
				spage = BufferGetPage(sbuf);
				spg = pg;
				scontent = (const uint8 *) PageGetContents(spage);
				if (PageIsNew(spage) ||
					PageGetSpecialSize(spage) != MAXALIGN(sizeof(BsPageOpaqueData)) ||
					BsPageGetOpaque(spage)->type != BS_PAGE_SLICES ||
					BsPageGetOpaque(spage)->owner != h->id ||
					((PageHeader) spage)->pd_lower !=
					BS_CONTENT_OFFSET + bs_slice_page_bytes(h->cap, g->nbits, pg))
				{
					bad = true;
					break;
				}
			}
			memcpy(&word, scontent + 8 * (q % (BS_PAGE_CAPACITY / 8)), 8);
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

static BsPass
scan_index(IndexScanDesc scan, const BsMetaData *meta, TIDBitmap *tbm, int64 *ntids)
{
	Relation	index = scan->indexRelation;
	BsScanOpaque so = (BsScanOpaque) scan->opaque;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);
	uint64	   *pos = palloc(Max(1, so->nkeys) * BLOOM_MAX_NHASHES * sizeof(uint64));
	int		   *npos = palloc(Max(1, meta->ngroups) * sizeof(int));
	uint64	   *gpos = palloc(Max(1, meta->ngroups) * Max(1, so->nkeys) * BLOOM_MAX_NHASHES *
							  sizeof(uint64));
	BsPass		pass = BS_PASS_DONE;

	/* pending rows first: a flush moves them into blocks, read after */
	for (uint32 gi = 0; gi < meta->ngroups && pass == BS_PASS_DONE; gi++)
	{
		uint64	   *gp = gpos + (Size) gi * so->nkeys * BLOOM_MAX_NHASHES;

		npos[gi] = probe_positions(so, &meta->groups[gi], pos);
		memcpy(gp, pos, npos[gi] * sizeof(uint64));
		pass = scan_pending(index, so, &meta->groups[gi], gp, npos[gi], nblocks, tbm, ntids);
	}
	if (pass == BS_PASS_DONE)
		pass = scan_aside(index, so, meta, nblocks, tbm, ntids);
	for (uint32 gi = 0; gi < meta->ngroups && pass == BS_PASS_DONE; gi++)
	{
		const BsGroup *g = &meta->groups[gi];
		BlockNumber blkno = g->first_block,
					seen = 0;
		uint64		id = g->first_id;

		while (blkno != InvalidBlockNumber && pass == BS_PASS_DONE)
		{
			CHECK_FOR_INTERRUPTS();
			if (++seen > nblocks)
				pass = BS_PASS_RESTART;
			else
				pass = scan_block(index, so, gi, g, gpos + (Size) gi * so->nkeys * BLOOM_MAX_NHASHES,
								  npos[gi], &blkno, &id, nblocks);
			emit(so, tbm, ntids);
		}
	}
	so->ntids = 0;
	pfree(pos);
	pfree(npos);
	pfree(gpos);
	return pass;
}

int64
bs_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	Relation	index = scan->indexRelation;
	BsScanOpaque so = (BsScanOpaque) scan->opaque;
	int64		ntids = 0;
	bool		locked = false;
	BsMetaData *meta;

	if (so->empty)
		return 0;
	index_count_search_compat(scan);
	meta = palloc(sizeof(BsMetaData));
	for (int attempt = 1;; attempt++)
	{
		bs_read_meta(index, meta);
		if (scan_index(scan, meta, tbm, &ntids) == BS_PASS_DONE)
			break;
		/* with the flush lock held nothing moves: the index is damaged */
		if (locked || attempt >= 100)
			bs_corrupt(index, BS_METAPAGE_BLKNO,
					   "a page is not what the page pointing to it says");
		if (attempt >= 3 && !RecoveryInProgress())
		{
			LockPage(index, BS_METAPAGE_BLKNO, ShareLock);
			locked = true;
		}
		CHECK_FOR_INTERRUPTS();
	}
	if (locked)
		UnlockPage(index, BS_METAPAGE_BLKNO, ShareLock);
	pfree(meta);
	return ntids;
}
