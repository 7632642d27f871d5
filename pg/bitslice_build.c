/*
 * bitslice_build.c - CREATE INDEX ... USING bloom_bitslice: one pass over
 * the table.  Each filter is read whole once (as bloom_union_agg reads it),
 * put in its group's buffer of cap_max rows, and a full buffer is sliced
 * into a block at once, 64 rows by 64 bit positions at a time
 * (bloom_slices_from_rows).  At the end a group's last rows make a block of
 * their own size, or stay pending when they are fewer than a batch.
 *
 * Pages are written in place and logged whole at the end (log_newpage_range),
 * as GiST's sorted build does: the index is not visible until the build
 * commits.
 */
#include "bitslice.h"

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

typedef struct BsBuildGroup
{
	int			nrows;
	int			cap;
	BsRow	   *rows;
	uint8	   *bits;			/* cap rows of nbytes */
} BsBuildGroup;

typedef struct BsBuildState
{
	Relation	index;
	Buffer		metabuf;
	uint32		max_nbits;
	uint8	   *sig;
	BsBuildGroup groups[BLOOM_SLICES_MAX_GROUPS];
	ItemPointerData *aside;
	int			naside;
	int			maxaside;
	Size		buffered;		/* bytes of rows in the buffers */
	Size		limit;			/* maintenance_work_mem */
	double		indtuples;
	MemoryContext tmpcxt;
	MemoryContext groupcxt;
} BsBuildState;

static void
init_meta(Page page, uint32 max_nbits)
{
	BsMetaData *meta;

	bs_init_page(page, BS_PAGE_META, 0);
	meta = BsPageGetMeta(page);
	memset(meta, 0, sizeof *meta);
	meta->magic = BS_MAGIC;
	meta->version = BS_VERSION;
	meta->max_nbits = max_nbits;
	meta->next_id = 1;
	meta->aside_head = meta->aside_tail = InvalidBlockNumber;
	((PageHeader) page)->pd_lower = BS_CONTENT_OFFSET + sizeof(BsMetaData);
}

static uint32
checked_max_nbits(Relation index)
{
	return (uint32) bs_option_max_nbits(index);
}

/* Slice a group's buffered rows into a block. */
static void
slice_buffer(BsBuildState *st, int gi)
{
	BsBuildGroup *bg = &st->groups[gi];

	if (bg->nrows == 0)
		return;
	bs_slice_rows(st->index, st->metabuf, gi, bg->rows, bg->nrows, true, false);
	st->buffered -= (Size) bg->nrows *
		((BsPageGetMeta(BufferGetPage(st->metabuf))->groups[gi].nbits + 63) / 64 * 8);
	bg->nrows = 0;
}

/* Under memory pressure: slice the group holding the most bytes. */
static void
slice_largest(BsBuildState *st)
{
	BsMetaData *meta = BsPageGetMeta(BufferGetPage(st->metabuf));
	int			best = -1;
	Size		most = 0;

	for (uint32 i = 0; i < meta->ngroups; i++)
	{
		Size		bytes = (Size) st->groups[i].nrows * ((meta->groups[i].nbits + 63) / 64 * 8);

		if (bytes > most)
		{
			most = bytes;
			best = (int) i;
		}
	}
	if (best >= 0)
		slice_buffer(st, best);
}

static void
build_callback(Relation index, ItemPointer tid, Datum *values, bool *isnull, bool tupleIsAlive,
			   void *state)
{
	BsBuildState *st = (BsBuildState *) state;
	MemoryContext old;
	bloom_geometry geo;
	bloom_kinds kinds;
	bool		indexed;
	BsMetaData *meta = BsPageGetMeta(BufferGetPage(st->metabuf));
	int			gi = -1;

	(void) index;
	(void) tupleIsAlive;
	if (isnull[0])
		return;
	old = MemoryContextSwitchTo(st->tmpcxt);
	indexed = bs_signature(values[0], st->max_nbits, &geo, st->sig, &kinds);
	MemoryContextSwitchTo(old);
	bs_merge_kinds(meta, kinds);	/* the build writes the metapage whole at its end */
	MemoryContextReset(st->tmpcxt);
	st->indtuples += 1;

	if (indexed)
	{
		gi = bs_find_group(meta, &geo);
		if (gi < 0 && meta->ngroups < BLOOM_SLICES_MAX_GROUPS)
		{
			/* a new group, with nothing in it yet */
			BsGroup    *g = &meta->groups[meta->ngroups];

			memset(g, 0, sizeof *g);
			g->seed = geo.seed;
			g->nbits = (uint32) geo.nbits;
			g->layout = geo.layout;
			g->nhashes = geo.nhashes;
			g->cap_max = bs_cap_max(g->nbits);
			g->pending_head = g->pending_tail = InvalidBlockNumber;
			g->first_block = g->last_block = InvalidBlockNumber;
			gi = (int) meta->ngroups++;
		}
	}
	if (gi >= 0)
	{
		BsBuildGroup *bg = &st->groups[gi];
		Size		nbytes = bloom_geometry_nbytes(&geo);

		if (bg->rows == NULL)
		{
			bg->cap = meta->groups[gi].cap_max;
			bg->rows = MemoryContextAlloc(st->groupcxt, bg->cap * sizeof(BsRow));
			bg->bits = MemoryContextAllocHuge(st->groupcxt, (Size) bg->cap * nbytes);
		}
		bg->rows[bg->nrows].tid = *tid;
		bg->rows[bg->nrows].bits = bg->bits + (Size) bg->nrows * nbytes;
		memcpy(bg->rows[bg->nrows].bits, st->sig, nbytes);
		bg->nrows++;
		st->buffered += nbytes;
		if (bg->nrows == bg->cap)
			slice_buffer(st, gi);
		else if (st->buffered > st->limit)
			slice_largest(st);
		return;
	}
	if (st->naside == st->maxaside)
	{
		st->maxaside = Max(64, 2 * st->maxaside);
		st->aside = st->aside ? repalloc_huge(st->aside, st->maxaside * sizeof(ItemPointerData))
			: MemoryContextAlloc(st->groupcxt, st->maxaside * sizeof(ItemPointerData));
	}
	st->aside[st->naside++] = *tid;
}

IndexBuildResult *
bs_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	BsBuildState st;
	IndexBuildResult *result;
	double		reltuples;
	BsMetaData *meta;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));
	memset(&st, 0, sizeof st);
	st.index = index;
	st.max_nbits = checked_max_nbits(index);
	st.limit = (Size) maintenance_work_mem * 1024;
	st.tmpcxt = bloom_context_create(CurrentMemoryContext, "bloom_bitslice build row",
									  ALLOCSET_DEFAULT_SIZES);
	st.groupcxt = bloom_context_create(CurrentMemoryContext, "bloom_bitslice build",
										ALLOCSET_DEFAULT_SIZES);
	st.sig = MemoryContextAlloc(st.groupcxt, bs_max_nbits_limit() / 8 + 8);

	st.metabuf = ExtendBufferedRel(BMR_REL(index), MAIN_FORKNUM, NULL, EB_LOCK_FIRST);
	Assert(BufferGetBlockNumber(st.metabuf) == BS_METAPAGE_BLKNO);
	init_meta(BufferGetPage(st.metabuf), st.max_nbits);
	MarkBufferDirty(st.metabuf);

	reltuples = table_index_build_scan(heap, index, indexInfo, true, true, build_callback,
									   &st, NULL);

	/* each group's last rows: a block of their size, or pending when few */
	meta = BsPageGetMeta(BufferGetPage(st.metabuf));
	for (uint32 gi = 0; gi < meta->ngroups; gi++)
	{
		BsBuildGroup *bg = &st.groups[gi];
		BsGroup    *g = &meta->groups[gi];
		bloom_geometry geo = {g->layout, g->nhashes, g->seed, g->nbits};

		if (bg->nrows >= BLOOM_SLICES_BATCH_ROWS || (bg->nrows > 0 && g->last_block != InvalidBlockNumber))
			slice_buffer(&st, (int) gi);
		else if (bg->nrows > 0)
			bs_append_pending(index, st.metabuf, &geo, bg->rows, bg->nrows, true);
		bg->nrows = 0;
	}
	if (st.naside > 0)
		bs_append_aside(index, st.metabuf, st.aside, st.naside, true);
	MarkBufferDirty(st.metabuf);
	UnlockReleaseBuffer(st.metabuf);

	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0, RelationGetNumberOfBlocks(index), true);

	MemoryContextDelete(st.tmpcxt);
	MemoryContextDelete(st.groupcxt);
	result = palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = st.indtuples;
	return result;
}

/* An unlogged index's init fork: the metapage alone, logged whole (the
 * init fork is logged although the index is not). */
void
bs_buildempty(Relation index)
{
	Buffer		metabuf = ExtendBufferedRel(BMR_REL(index), INIT_FORKNUM, NULL, EB_LOCK_FIRST);

	START_CRIT_SECTION();
	init_meta(BufferGetPage(metabuf), checked_max_nbits(index));
	MarkBufferDirty(metabuf);
	log_newpage_buffer(metabuf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(metabuf);
}
