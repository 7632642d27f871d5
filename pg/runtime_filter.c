/*
 * runtime_filter.c - the automatic Bloom join's settings, and what its
 * build and probe sides share (runtime_filter.h).
 *
 *   bloomfilter.runtime_filter           on (default) / off
 *   bloomfilter.runtime_filter_max_size  the largest filter (default 4MB);
 *                                        a build side with more keys than
 *                                        it holds at the target rate gets
 *                                        no filter (planning: estimated;
 *                                        running: counted)
 *   bloomfilter.runtime_filter_min_rows  probe sides estimated at fewer rows
 *                                        get none (default 10000)
 *   bloomfilter.runtime_filter_max_pass  the fraction of probe rows passing
 *                                        above which the planner adds no
 *                                        filter and a running filter
 *                                        switches itself off (default 0.5)
 *   bloomfilter.runtime_filter_fpr       false-positive rate of a local
 *                                        filter (default 0.01); a filter
 *                                        sent to a remote server gets a
 *                                        tenth of it
 */
#include "bloomfilter.h"
#include "runtime_filter.h"

#include <float.h>
#include <limits.h>
#include <math.h>

#include "nodes/value.h"
#include "utils/guc.h"

bool		bloomfilter_runtime_filter = true;
int			bloomfilter_runtime_filter_max_size = 4096;
int			bloomfilter_runtime_filter_min_rows = 10000;
double		bloomfilter_runtime_filter_max_pass = 0.5;
double		bloomfilter_runtime_filter_fpr = 0.01;

/* the planner hook (runtime_filter_plan.c) */
extern void bloom_runtime_plan_init(void);

/* The GUC machinery checks a closed range; the rate needs an open one. */
static bool
check_fpr(double *newval, void **extra, GucSource source)
{
	bloom_error err;

	(void) extra;
	(void) source;
	if (bloom_check_fpr(*newval, &err) != BLOOM_OK)
	{
		GUC_check_errdetail("%s", bloom_sentence(err.message));
		return false;
	}
	return true;
}

void
bloom_runtime_filter_init(void)
{
	DefineCustomBoolVariable("bloomfilter.runtime_filter",
							 "Lets the planner add Bloom runtime filters to hash joins.",
							 "The build side's keys make a filter that the probe side's scan applies.",
							 &bloomfilter_runtime_filter,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("bloomfilter.runtime_filter_max_size",
							"The largest Bloom runtime filter.",
							"A build side with more keys than such a filter holds at the target rate gets no filter.",
							&bloomfilter_runtime_filter_max_size,
							4096, 1, 1024 * 1024,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("bloomfilter.runtime_filter_min_rows",
							"Probe sides estimated at fewer rows get no Bloom runtime filter.",
							NULL,
							&bloomfilter_runtime_filter_min_rows,
							10000, 0, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomRealVariable("bloomfilter.runtime_filter_max_pass",
							 "Fraction of probe rows passing above which a Bloom runtime filter is not worth it.",
							 "The planner adds no filter to a join estimated to keep more of its probe rows; a running filter that lets more through switches itself off.",
							 &bloomfilter_runtime_filter_max_pass,
							 0.5, 0.0, 1.0,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomRealVariable("bloomfilter.runtime_filter_fpr",
							 "Target false-positive rate of a Bloom runtime filter.",
							 "Greater than 0 and less than 1; a filter sent to a remote server is built at a tenth of it.",
							 &bloomfilter_runtime_filter_fpr,
							 0.01, 0.0, 1.0,
							 PGC_USERSET, 0,
							 check_fpr, NULL, NULL);
	bloom_runtime_build_register();
	bloom_runtime_plan_init();
}

/* The largest power of two of bits in bloomfilter.runtime_filter_max_size. */
static uint64
max_nbits(void)
{
	uint64		bits = (uint64) bloomfilter_runtime_filter_max_size * 1024 * 8;

	return Max((uint64) 64, UINT64CONST(1) << pg_leftmost_one_pos64(bits));
}

double
bloom_runtime_filter_max_keys(double fpr)
{
	unsigned	k = bloom_nhashes_for_fpr(BLOOM_LAYOUT_CLASSIC, fpr);

	/* the sizing rule of core/sizing.c solved for the count */
	return floor((double) max_nbits() * -log1p(-pow(fpr, 1.0 / k)) / k);
}

/*
 * The parameters of a filter of nkeys keys at rate fpr, within the size
 * setting (a count at the limit may round up to the next size class: the
 * filter then stays at the limit, its rate a little above the target).
 */
void
bloom_runtime_filter_params(double nkeys, double fpr, uint64 *nbits, unsigned *nhashes)
{
	bloom_error err;
	uint64		limit = max_nbits();

	nkeys = Max(1.0, Min(nkeys, (double) PG_INT64_MAX));
	if (bloom_params_for_capacity(BLOOM_LAYOUT_CLASSIC, (uint64) nkeys, fpr, nbits, nhashes,
								  &err) != BLOOM_OK || *nbits > limit)
	{
		*nbits = limit;
		*nhashes = bloom_nhashes_for_fpr(BLOOM_LAYOUT_CLASSIC, fpr);
	}
}

void
bloom_runtime_hasher_init(RuntimeKeyHasher *h, List *exprs, List *hashfuncs, List *collations,
						  PlanState *parent)
{
	int			i = 0;
	ListCell   *e,
			   *f,
			   *c;

	h->nkeys = list_length(exprs);
	h->exprs = palloc(sizeof(ExprState *) * h->nkeys);
	h->fns = palloc(sizeof(FmgrInfo) * h->nkeys);
	h->collations = palloc(sizeof(Oid) * h->nkeys);
	forthree(e, exprs, f, hashfuncs, c, collations)
	{
		h->exprs[i] = ExecInitExpr(lfirst(e), parent);
		fmgr_info(lfirst_oid(f), &h->fns[i]);
		h->collations[i] = lfirst_oid(c);
		i++;
	}
}

List *
bloom_runtime_spec_to_list(const RuntimeFilterSpec *spec)
{
	/* the estimate as a whole number of rows: Integer nodes hold an int */
	int			est = (int) Min(spec->est_keys, (double) INT_MAX);

	return list_make4(list_make4(makeInteger(spec->filter_id), makeInteger(spec->paramid),
								 makeInteger((int) spec->kind), makeInteger(spec->nkeys)),
					  list_copy(spec->hashfuncs), list_copy(spec->collations), makeInteger(est));
}

void
bloom_runtime_spec_from_list(List *list, RuntimeFilterSpec *spec)
{
	List	   *ints = linitial(list);

	spec->filter_id = intVal(linitial(ints));
	spec->paramid = intVal(lsecond(ints));
	spec->kind = (RuntimeFilterKind) intVal(lthird(ints));
	spec->nkeys = intVal(lfourth(ints));
	spec->hashfuncs = lsecond(list);
	spec->collations = lthird(list);
	spec->est_keys = intVal(lfourth(list));
}
