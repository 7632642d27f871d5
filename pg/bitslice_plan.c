/*
 * bitslice_plan.c - what the planner asks a bloom_bitslice index: what a
 * scan costs and how many rows it hands to the heap, and (through the
 * planner support function of bloom_contains and contained_in_bloom) which
 * function calls it can answer.
 *
 * Cost.  The metapage counts, per group, the blocks, the pending rows and
 * the bits set over the rows added.  A probe reads per block its header and
 * the pages of its distinct bit positions (k per value, at most the block's
 * slice pages), every pending page and every aside page.  A block's slice
 * pages are a run written together and read in order, costed as pages read
 * in sequence; the rest as pages read at random.  The rows it
 * returns are the rows kept aside, the rows whose filter holds the value,
 * and the false positives: a filter with a fraction `fill` of its bits set
 * passes a probe of k positions with probability fill^k.  The share of
 * rows holding the value is unknown to the index; it is taken as 0.5% per
 * value.  The heap's side (the candidates' pages, the recheck) is the
 * planner's bitmap heap scan cost from that selectivity, so a seq scan wins
 * where most rows pass anyway (saturated filters, rows kept aside, small
 * tables).
 */
#include "bitslice.h"

#include <math.h>

#include "access/genam.h"
#include "catalog/pg_opfamily.h"
#include "commands/defrem.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"
#include "utils/syscache.h"

/* Share of rows whose filter holds a probed value, a guess (see above). */
#define BS_MEMBER_SHARE 0.005

void
bs_costestimate(PlannerInfo *root, IndexPath *path, double loop_count, Cost *indexStartupCost,
				Cost *indexTotalCost, Selectivity *indexSelectivity, double *indexCorrelation,
				double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	double		tuples = Max(1.0, index->rel->tuples);
	int			nkeys = 0;
	ListCell   *lc;
	Relation	rel;
	BsMetaData *meta = palloc(sizeof(BsMetaData));
	double		pages = 1,		/* read at random: the metapage, headers, chains */
				slice_pages = 0,	/* read in order, a few of each block's run */
				candidates,
				rows = 0,
				cpu = 0,
				fetched,
				spc_random_page_cost,
				spc_seq_page_cost;
	Selectivity sel;

	foreach(lc, path->indexclauses)
		nkeys += list_length(lfirst_node(IndexClause, lc)->indexquals);
	nkeys = Max(1, nkeys);

	rel = index_open(index->indexoid, NoLock);
	if (RelationGetNumberOfBlocks(rel) == 0)
		memset(meta, 0, sizeof *meta);
	else
		bs_read_meta(rel, meta);
	index_close(rel, NoLock);

	candidates = (double) meta->aside_count;
	pages += ceil((double) meta->aside_count * sizeof(ItemPointerData) / BS_PAGE_CAPACITY);
	for (uint32 gi = 0; gi < meta->ngroups; gi++)
	{
		const BsGroup *g = &meta->groups[gi];
		double		k = g->layout == BLOOM_LAYOUT_BLOCKED ? 8 : g->nhashes,
					npos = Min((double) g->nbits, k * nkeys),
					fill = g->rows_seen > 0 ?
			(double) g->bits_set / ((double) g->rows_seen * g->nbits) : 0.5,
					per_page = floor(BS_PAGE_CAPACITY / (double) BS_ENTRY_SIZE((g->nbits + 63) / 64 * 8)),
					grows = (double) g->nlive + g->pending_count;

		pages += g->nblocks + ceil(g->pending_count / Max(1.0, per_page));
		slice_pages += g->nblocks * Min(npos, (double) bs_slice_pages(g->cap_max, g->nbits));
		candidates += grows * pow(Min(1.0, fill), npos);
		rows += grows;
		cpu += (g->nblocks * npos * (g->cap_max / 64) + g->pending_count * npos) *
			cpu_operator_cost;
	}
	candidates += rows * pow(BS_MEMBER_SHARE, nkeys);
	sel = Min(1.0, candidates / tuples);

	get_tablespace_page_costs(index->reltablespace, &spc_random_page_cost, &spc_seq_page_cost);
	/* repeated scans (loop_count > 1) find pages in the cache */
	fetched = index_pages_fetched(pages * loop_count, Max(index->pages, 1),
								  (double) index->pages, root) / Max(1.0, loop_count);
	*indexTotalCost = fetched * spc_random_page_cost + slice_pages * spc_seq_page_cost + cpu +
		sel * tuples * cpu_index_tuple_cost;
	*indexStartupCost = *indexTotalCost;	/* a bitmap is made whole */
	*indexSelectivity = sel;
	*indexCorrelation = 0;
	*indexPages = pages + slice_pages;
	pfree(meta);
}

/* Whether opfamily is an operator family of bloom_bitslice. */
static bool
is_bitslice_family(Oid opfamily)
{
	HeapTuple	tup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamily));
	bool		ours = false;

	if (HeapTupleIsValid(tup))
	{
		char	   *am = get_am_name(((Form_pg_opfamily) GETSTRUCT(tup))->opfmethod);

		ours = am != NULL && strcmp(am, "bloom_bitslice") == 0;
		ReleaseSysCache(tup);
	}
	return ours;
}

/*
 * bloom_contains(f, x) and contained_in_bloom(x, f), and the operators on a
 * type without its own overload (the anyelement ones), as index conditions
 * f @> x on an index of f.  A value of a type of tools/overloads.py's list
 * takes the family's operator of its type; any other type hashes the bytes
 * of its binary send function (docs/HASHING.md), which is what @>(bloom,
 * bytea) hashes, so x becomes its send function's result.
 */
Node *
bs_index_condition(Node *rawreq)
{
	SupportRequestIndexCondition *req = (SupportRequestIndexCondition *) rawreq;
	List	   *args;
	char	   *name = get_func_name(req->funcid);
	int			filter_arg;
	Node	   *filter,
			   *value;
	Oid			intype,
				valtype,
				op;
	Expr	   *clause;

	if (IsA(req->node, FuncExpr))
		args = ((FuncExpr *) req->node)->args;
	else if (IsA(req->node, OpExpr))
		args = ((OpExpr *) req->node)->args;
	else
		return NULL;
	if (name == NULL || list_length(args) != 2 || !is_bitslice_family(req->opfamily))
		return NULL;
	filter_arg = strcmp(name, "contained_in_bloom") == 0 ? 1 : 0;
	if (req->indexarg != filter_arg)
		return NULL;
	filter = list_nth(args, filter_arg);
	value = list_nth(args, 1 - filter_arg);
	intype = req->index->opcintype[req->indexcol];
	valtype = exprType(value);
	op = get_opfamily_member(req->opfamily, intype, valtype, BS_STRATEGY_CONTAINS);
	req->lossy = false;
	if (!OidIsValid(op))
	{
		Oid			base = getBaseType(valtype),
					send;
		bool		varlena;
		BloomHasher h;

		bloom_hasher_init_type(&h, base, CurrentMemoryContext);
		if (h.kind != BLOOM_HK_SEND)
			return NULL;
		getTypeBinaryOutputInfo(base, &send, &varlena);
		if (base != valtype)
			value = (Node *) makeRelabelType((Expr *) value, base, -1, InvalidOid,
											 COERCE_IMPLICIT_CAST);
		value = (Node *) makeFuncExpr(send, BYTEAOID, list_make1(value), InvalidOid, InvalidOid,
									  COERCE_EXPLICIT_CALL);
		op = get_opfamily_member(req->opfamily, intype, BYTEAOID, BS_STRATEGY_CONTAINS);
		if (!OidIsValid(op))
			return NULL;
		req->lossy = true;		/* the call stays, as the heap's recheck */
	}
	clause = make_opclause(op, BOOLOID, false, (Expr *) filter, (Expr *) value, InvalidOid,
						   InvalidOid);
	return (Node *) list_make1(clause);
}
