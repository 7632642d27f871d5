/*
 * runtime_filter.c - the automatic Bloom join's settings, and what its
 * build and probe sides share (runtime_filter.h).
 *
 *   bloomfilter.runtime_filter           on (default) / off
 *   bloomfilter.runtime_filter_max_size  the largest filter (default 4MB, at
 *                                        most 256MB, the largest power of
 *                                        two of bits a value holds);
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
 *   bloomfilter.runtime_filter_transfer  on (default) / off: filters travel
 *                                        through other joins' equalities
 *                                        (predicate transfer)
 *   bloomfilter.runtime_filter_fpr       false-positive rate of a local
 *                                        filter (default 0.01); a filter
 *                                        sent to a remote server gets a
 *                                        tenth of it
 *   bloomfilter.runtime_filter_build_once
 *                                        on (default) / off: an expensive
 *                                        build side under a Gather is
 *                                        computed by one process for all
 *   bloomfilter.runtime_filter_build_once_min_cost
 *                                        the least estimated cost of such a
 *                                        build side (default 1000)
 *   bloomfilter.runtime_filter_outer_first
 *                                        on (default) / off: a hash join's
 *                                        small probe side read first, its
 *                                        keys filtering the build side
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include <float.h>
#include <limits.h>
#include <math.h>

#include "nodes/value.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"

bool		bloomfilter_runtime_filter = true;
int			bloomfilter_runtime_filter_max_size = 4096;
int			bloomfilter_runtime_filter_min_rows = 10000;
double		bloomfilter_runtime_filter_max_pass = 0.5;
double		bloomfilter_runtime_filter_fpr = 0.01;
bool		bloomfilter_runtime_filter_transfer = true;
bool		bloomfilter_runtime_filter_index_lookups = true;

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
							4096, 1, 256 * 1024,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("bloomfilter.runtime_filter_min_rows",
							"Probe sides estimated at fewer rows get no Bloom runtime filter.",
							"A filter built first for a nested loop or merge join is then deferred: built once the probe side has returned this many rows.",
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
	DefineCustomBoolVariable("bloomfilter.runtime_filter_index_lookups",
							 "Lets a Bloom runtime filter's exact set of keys read the probe side through an index.",
							 "A sequential scan of a table with a btree index on the key reads only the rows of the build side's keys when they are few.",
							 &bloomfilter_runtime_filter_index_lookups,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("bloomfilter.runtime_filter_transfer",
							 "Lets Bloom runtime filters travel through the equalities of other joins.",
							 "A filter then also reduces the scans its key's equalities reach, and a join whose build side such a filter reduces is reconsidered.",
							 &bloomfilter_runtime_filter_transfer,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomRealVariable("bloomfilter.runtime_filter_fpr",
							 "Target false-positive rate of a Bloom runtime filter.",
							 "Greater than 0 and less than 1; a filter sent to a remote server is built at a tenth of it.",
							 &bloomfilter_runtime_filter_fpr,
							 0.01, 0.0, 1.0,
							 PGC_USERSET, 0,
							 bloom_check_fpr_setting, NULL, NULL);
	DefineCustomBoolVariable("bloomfilter.runtime_filter_cte_conditions",
							 "Lets the readers' conditions of a CTE read more than once reduce the CTE's rows.",
							 "When every reader of a CTE that is materialized keeps only the rows of a condition on its columns, the OR of those conditions goes into the CTE's query.",
							 &bloomfilter_runtime_filter_cte_conditions,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("bloomfilter.runtime_filter_build_once",
							 "Lets one process of a parallel plan compute an expensive build side of a Bloom runtime filter for all.",
							 "Under a Gather, a hash join whose hash table is not shared has each process compute the build side in full; when it costs well more than writing its rows down, the first process computes it and the others read its rows.",
							 &bloomfilter_runtime_filter_build_once,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("bloomfilter.runtime_filter_outer_first",
							 "Lets a hash join read its small probe side first, to filter its build side by those keys.",
							 "Where the estimates say the build side's scans drop enough rows, the probe side's rows are stored before the hash table is built and their keys make a filter for the build side.",
							 &bloomfilter_runtime_filter_outer_first,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomRealVariable("bloomfilter.runtime_filter_build_once_min_cost",
							 "The least estimated cost of a build side that one process of a parallel plan computes for all.",
							 "Below it, each process computes its own rows, as without bloomfilter.runtime_filter_build_once.",
							 &bloomfilter_runtime_filter_build_once_min_cost,
							 1000.0, 0.0, DBL_MAX,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	bloom_runtime_build_register();
	bloom_runtime_compute_once_register();
	bloom_runtime_outer_first_register();
	bloom_runtime_wrap_register();
	bloom_runtime_prebuild_register();
	bloom_runtime_plan_init();
}

/* The largest power of two of bits in bloomfilter.runtime_filter_max_size. */
static uint64
max_nbits(void)
{
	uint64		bits = (uint64) bloomfilter_runtime_filter_max_size * 1024 * 8;

	return Max((uint64) 64, UINT64CONST(1) << pg_leftmost_one_pos64(bits));
}

/* Bits a key of a filter of k hash functions at rate fpr: the least m/n
 * with (1 - e^(-kn/m))^k <= fpr (the rule of core/sizing.c). */
static double
bits_per_key(unsigned k, double fpr)
{
	return -(double) k / log1p(-pow(fpr, 1.0 / k));
}

static unsigned
kind_nhashes(RuntimeFilterKind kind)
{
	if (kind == RUNTIME_FILTER_CANONICAL)
		return bloom_nhashes_for_fpr(BLOOM_LAYOUT_CLASSIC, bloom_runtime_filter_rate(kind));
	return RUNTIME_FILTER_LOCAL_NHASHES;
}

double
bloom_runtime_filter_max_keys(RuntimeFilterKind kind)
{
	return floor((double) max_nbits() /
				 bits_per_key(kind_nhashes(kind), bloom_runtime_filter_rate(kind)));
}

/*
 * The parameters of a filter of nkeys keys: the least power of two of bits
 * (at least 64) for the rate, within the size setting (a count at the limit
 * may round up to the next power: the filter then stays at the limit, its
 * rate a little above the target).
 */
void
bloom_runtime_filter_params(RuntimeFilterKind kind, double nkeys, uint64 *nbits, unsigned *nhashes)
{
	double		want;
	uint64		limit = max_nbits();
	uint64		bits = 64;

	*nhashes = kind_nhashes(kind);
	want = Max(1.0, nkeys) * bits_per_key(*nhashes, bloom_runtime_filter_rate(kind));
	while (bits < limit && (double) bits < want)
		bits <<= 1;
	*nbits = bits;
}

void
bloom_runtime_hasher_init(RuntimeKeyHasher *h, List *exprs, List *hashfuncs, List *collations,
						  List *integer_keys, PlanState *parent)
{
	int			i = 0;
	ListCell   *e,
			   *f,
			   *c,
			   *n;

	h->nkeys = list_length(exprs);
	h->exprs = palloc(sizeof(ExprState *) * h->nkeys);
	h->fns = palloc(sizeof(FmgrInfo) * h->nkeys);
	h->collations = palloc(sizeof(Oid) * h->nkeys);
	h->reads = palloc(sizeof(RuntimeKeyRead) * h->nkeys);
	forfour(e, exprs, f, hashfuncs, c, collations, n, integer_keys)
	{
		Oid			fn = lfirst_oid(f);

		h->exprs[i] = ExecInitExpr(lfirst(e), parent);
		fmgr_info(fn, &h->fns[i]);
		h->collations[i] = lfirst_oid(c);
		h->reads[i] = RUNTIME_KEY_HASH_FUNCTION;
		if (lfirst_int(n))
			h->reads[i] = fn == F_HASHINT2 ? RUNTIME_KEY_INT2 :
				fn == F_HASHINT4 || fn == F_HASHDATE ? RUNTIME_KEY_INT4 : RUNTIME_KEY_INT8;
		i++;
	}
}

/* Whether a key's hash function is the integer family's, or date's (an
 * int32, in a family of its own): a value read as an integer. */
static bool
integer_hash(Oid fn)
{
	return fn == F_HASHINT2 || fn == F_HASHINT4 || fn == F_HASHINT8 || fn == F_HASHDATE;
}

/* Whether both sides of a key hash it with the integer family's functions
 * or date's (then both read it as an integer). */
bool
bloom_runtime_integer_key(Oid left, Oid right)
{
	return integer_hash(left) && integer_hash(right);
}

List *
bloom_runtime_spec_to_list(const RuntimeFilterSpec *spec)
{
	/* the estimate as a whole number of rows: Integer nodes hold an int */
	int			est = (int) Min(spec->est_keys, (double) INT_MAX);

	List	   *list = list_make5(list_make4(makeInteger(spec->filter_id), makeInteger(spec->paramid),
												 makeInteger((int) spec->kind), makeInteger(spec->nkeys)),
									  list_copy(spec->hashfuncs), list_copy(spec->collations),
									  list_copy(spec->integer_keys), makeInteger(est));

	/* the range's slot, the set's, or -1; the index of lookups, or 0 */
	list = lappend(list, makeInteger(spec->has_range ? spec->range_paramid : -1));
	list = lappend(list, makeInteger(spec->has_keyset ? spec->keyset_paramid : -1));
	list = lappend(list, makeInteger((int) spec->lookup_index));
	list = lappend(list, makeInteger(spec->lookup_max_keys));
	/* a set holds at least the exact set's keys */
	Assert(!spec->has_keyset || spec->keyset_max >= RUNTIME_KEYSET_MAX);
	list = lappend(list, makeInteger(spec->keyset_max));
	list = lappend(list, makeInteger(spec->lookup_max_rows));
	/* the bounds, or NIL (int64s as text: an Integer node holds an int) */
	return lappend(list, !spec->has_bounds ? NIL :
				   list_make2(makeString(psprintf(INT64_FORMAT, spec->bounds.min)),
							  makeString(psprintf(INT64_FORMAT, spec->bounds.max))));
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
	spec->integer_keys = lfourth(list);
	spec->est_keys = intVal(list_nth(list, 4));
	spec->range_paramid = intVal(list_nth(list, 5));
	spec->has_range = spec->range_paramid >= 0;
	spec->keyset_paramid = intVal(list_nth(list, 6));
	spec->has_keyset = spec->keyset_paramid >= 0;
	spec->lookup_index = (Oid) intVal(list_nth(list, 7));
	spec->lookup_max_keys = intVal(list_nth(list, 8));
	spec->keyset_max = intVal(list_nth(list, 9));
	spec->lookup_max_rows = intVal(list_nth(list, 10));
	spec->has_bounds = list_nth(list, 11) != NIL;
	if (spec->has_bounds)
	{
		List	   *bounds = list_nth(list, 11);

		spec->bounds.min = pg_strtoint64(strVal(linitial(bounds)));
		spec->bounds.max = pg_strtoint64(strVal(lsecond(bounds)));
	}
}
