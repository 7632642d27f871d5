/*
 * bitslice_am.c - the index access method bloom_bitslice: its handler, its
 * option and the check of its operator classes.
 *
 *   CREATE INDEX ON daily USING bloom_bitslice (visitors);
 *   CREATE INDEX ON daily USING bloom_bitslice (visitors) WITH (max_nbits = 8192);
 *
 * max_nbits: the most bits of a filter the index keeps per row (default and
 * largest 32768 with 8 kB pages); larger filters are folded to it
 * (bitslice.h).  The value is the metapage's, set when the index is built:
 * ALTER INDEX ... SET (max_nbits = ...) takes effect at the next REINDEX.
 *
 * The operator class bloom_bitslice_ops holds @>(bloom, T) for every type T
 * of tools/overloads.py's list, strategy 1; no support function.
 */
#include "bitslice.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "access/reloptions.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(bloom_bitslice_handler);

static relopt_kind bs_relopt_kind;

/* Called from _PG_init: the option of the access method. */
void
bloom_bitslice_init(void)
{
	bs_relopt_kind = add_reloption_kind();
	add_int_reloption(bs_relopt_kind, "max_nbits",
					  "Most bits of a filter a bloom_bitslice index keeps per row; larger filters are folded to it.",
					  (int) bs_max_nbits_limit(), 64, (int) bs_max_nbits_limit(),
					  AccessExclusiveLock);
	bs_pause_init();
}

static bytea *
bs_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		/* designated: 18 added a field (isset_offset) */
		{.optname = "max_nbits", .opttype = RELOPT_TYPE_INT, .offset = offsetof(BsOptions, max_nbits)},
	};

	return (bytea *) build_reloptions(reloptions, validate, bs_relopt_kind, sizeof(BsOptions),
									  tab, lengthof(tab));
}

int
bs_option_max_nbits(Relation index)
{
	BsOptions  *opts = (BsOptions *) index->rd_options;

	return opts ? opts->max_nbits : (int) bs_max_nbits_limit();
}

/*
 * Every operator of the family is @>(bloom, T) returning boolean, strategy
 * 1; no support function.  Messages as the built-in methods' validators
 * give them (INFO, then false).
 */
static bool
bs_validate(Oid opclassoid)
{
	HeapTuple	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid)),
				familytup;
	Form_pg_opclass classform;
	Oid			opfamilyoid,
				intype;
	char	   *familyname;
	CatCList   *oprlist,
			   *proclist;
	bool		result = true;

	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamilyoid = classform->opcfamily;
	intype = classform->opcintype;
	familytup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamilyoid));
	if (!HeapTupleIsValid(familytup))
		elog(ERROR, "cache lookup failed for operator family %u", opfamilyoid);
	familyname = pstrdup(NameStr(((Form_pg_opfamily) GETSTRUCT(familytup))->opfname));
	ReleaseSysCache(familytup);

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamilyoid));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamilyoid));
	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop op = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (op->amopstrategy != BS_STRATEGY_CONTAINS || op->amoppurpose != AMOP_SEARCH ||
			op->amoplefttype != intype ||
			!check_amop_signature(op->amopopr, BOOLOID, op->amoplefttype, op->amoprighttype))
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("operator family \"%s\" of access method %s contains operator %s with invalid strategy number or signature",
							familyname, "bloom_bitslice",
							format_operator(op->amopopr))));
			result = false;
		}
	}
	for (int i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc proc = (Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("operator family \"%s\" of access method %s contains function %s, but the method has no support functions",
						familyname, "bloom_bitslice", format_procedure(proc->amproc))));
		result = false;
	}
	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(classtup);
	return result;
}

static const IndexAmRoutine bs_routine = {
	.type = T_IndexAmRoutine,
	.amstrategies = 1,
	.amsupport = 0,
	.amoptsprocnum = 0,
	.amcanorder = false,
	.amcanorderbyop = false,
	.amcanbackward = false,
	.amcanunique = false,
	.amcanmulticol = false,
	/* a scan needs a probe: NULL filters are not indexed */
	.amoptionalkey = false,
	.amsearcharray = false,
	.amsearchnulls = false,
	.amstorage = false,
	.amclusterable = false,
	.ampredlocks = false,
	.amcanparallel = false,
	.amcaninclude = false,
	.amusemaintenanceworkmem = true,
	.amparallelvacuumoptions = VACUUM_OPTION_PARALLEL_BULKDEL | VACUUM_OPTION_PARALLEL_CLEANUP,
	.amkeytype = InvalidOid,
	.ambuild = bs_build,
	.ambuildempty = bs_buildempty,
	.aminsert = bs_insert,
	.ambulkdelete = bs_bulkdelete,
	.amvacuumcleanup = bs_vacuumcleanup,
	.amcanreturn = NULL,
	.amcostestimate = bs_costestimate,
	.amoptions = bs_options,
	.amproperty = NULL,
	.ambuildphasename = NULL,
	.amvalidate = bs_validate,
	.amadjustmembers = NULL,
	.ambeginscan = bs_beginscan,
	.amrescan = bs_rescan,
	.amgettuple = NULL,
	.amgetbitmap = bs_getbitmap,
	.amendscan = bs_endscan,
	.ammarkpos = NULL,
	.amrestrpos = NULL,
	.amestimateparallelscan = NULL,
	.aminitparallelscan = NULL,
	.amparallelrescan = NULL,
};

/* bloom_bitslice_handler(internal) -> index_am_handler */
Datum
bloom_bitslice_handler(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	return index_am_routine_result(&bs_routine);
}

