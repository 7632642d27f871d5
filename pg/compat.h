/*
 * compat.h - one source for PostgreSQL 15 to 19 (pg/majors).
 *
 * The code is written against the newest major's API; this header makes the
 * older majors look like it, as Citus's pg_version_compat.h does, and it is
 * the only file that tests PG_VERSION_NUM.  Each shim names the major that
 * brought the API it stands in for: when the oldest supported major reaches
 * that one, the shim goes.  A shim of a function comes after the header that
 * declares it, so this header includes what it shims.
 *
 * Included first by bloomfilter.h, so by every file of pg/.
 */
#ifndef BLOOMFILTER_COMPAT_H
#define BLOOMFILTER_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "bloomfilter supports PostgreSQL 15 and later (pg/majors)"
#endif

/* 16: the varlena macros (VARSIZE, VARATT_IS_EXTERNAL_ONDISK, ...) left
 * postgres.h for varatt.h. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/* 18: pg_noreturn, before the declaration, replaces pg_attribute_noreturn()
 * after it; C11's own specifier, as 18 defines it for C11. */
#if PG_VERSION_NUM < 180000
#define pg_noreturn _Noreturn
#endif

/* 18: base64 reads and writes bytes as uint8; before, as char. */
#include "common/base64.h"
#if PG_VERSION_NUM < 180000
#define pg_b64_encode(src, len, dst, dstlen) \
	pg_b64_encode((const char *) (src), len, dst, dstlen)
#define pg_b64_decode(src, len, dst, dstlen) \
	pg_b64_decode(src, len, (char *) (dst), dstlen)
#endif

/* 18: ExplainState and ExplainProperty*() left commands/explain.h. */
#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#include "commands/explain_state.h"
#endif

/*
 * 18: a path counts the disabled nodes it holds (enable_seqscan = off ...),
 * and the planner compares that count before any cost.  A path costed from
 * another of the same kind copies its count; before 18 a disabled path
 * carried disable_cost in its costs instead, which the copy already has.
 */
#include "nodes/pathnodes.h"
static inline void
path_copy_disabled_nodes_compat(Path *to, const Path *from)
{
#if PG_VERSION_NUM >= 180000
	to->disabled_nodes = from->disabled_nodes;
#else
	(void) to;
	(void) from;
#endif
}

/*
 * An index search, counted where pg_stat_*_indexes.idx_scan reads it and,
 * from 18, in the scan's instrumentation ("Index Searches" in EXPLAIN
 * ANALYZE), as each amgettuple and amgetbitmap of core does.
 */
#include "access/relscan.h"
#include "pgstat.h"
#include "utils/rel.h"
#if PG_VERSION_NUM >= 180000
#define index_count_search_compat(scan) \
	do { \
		pgstat_count_index_scan((scan)->indexRelation); \
		if ((scan)->instrument != NULL) \
			(scan)->instrument->nsearches++; \
	} while (0)
#else
#define index_count_search_compat(scan) pgstat_count_index_scan((scan)->indexRelation)
#endif

/* 18: an index scan begins with its instrumentation (NULL: none); 19: and
 * ScanOptions flags. */
#include "access/genam.h"
#if PG_VERSION_NUM >= 190000
#define index_beginscan_compat(heap, index, snapshot, nkeys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, 0, 0)
#elif PG_VERSION_NUM >= 180000
#define index_beginscan_compat(heap, index, snapshot, nkeys) \
	index_beginscan(heap, index, snapshot, NULL, nkeys, 0)
#else
#define index_beginscan_compat(heap, index, snapshot, nkeys) \
	index_beginscan(heap, index, snapshot, nkeys, 0)
#endif

/* 18: a CHECK constraint may be NOT ENFORCED; before, every one is. */
#include "access/tupdesc.h"
#if PG_VERSION_NUM >= 180000
#define check_constraint_enforced_compat(check) ((check)->ccenforced)
#else
#define check_constraint_enforced_compat(check) ((void) (check), true)
#endif

/* 18: date hashes with its own function, hashdate; before, with hashint4
 * (the same value read as an int32 either way). */
#include "utils/fmgroids.h"
#if PG_VERSION_NUM < 180000
#define F_HASHDATE F_HASHINT4
#endif

/* 19: a table slot is made with tts_flags (TTS_FLAG_*). */
#include "executor/tuptable.h"
#if PG_VERSION_NUM < 190000
#define ExecAllocTableSlot(tupleTable, desc, tts_ops, flags) \
	((void) (flags), ExecAllocTableSlot(tupleTable, desc, tts_ops))
#endif

/*
 * 19: table scans begin with ScanOptions flags, among them the hint that
 * the query does not modify the relation (ScanRelIsReadOnly), which lets
 * the scan set pages all-visible; before 19 there is no such hint.
 */
#include "access/tableam.h"
#include "executor/executor.h"
#if PG_VERSION_NUM < 190000
#define SO_NONE 0
#define SO_HINT_REL_READ_ONLY 0
#define ScanRelIsReadOnly(ss) ((void) (ss), false)
#define table_beginscan(rel, snapshot, nkeys, key, flags) \
	((void) (flags), table_beginscan(rel, snapshot, nkeys, key))
#define table_beginscan_parallel(rel, pscan, flags) \
	((void) (flags), table_beginscan_parallel(rel, pscan))
#endif

/*
 * 16: a relation grows by ExtendBufferedRel(); before, ReadBuffer(P_NEW)
 * under the relation extension lock.  The shim serves the one use here:
 * a page returned exclusively locked (EB_LOCK_FIRST), any fork.
 */
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#if PG_VERSION_NUM < 160000
#define EB_LOCK_FIRST 0
#define BMR_REL(rel) (rel)
static inline Buffer
ExtendBufferedRel(Relation rel, ForkNumber fork, BufferAccessStrategy strategy, uint32 flags)
{
	Buffer		buf;

	(void) flags;
	LockRelationForExtension(rel, ExclusiveLock);
	buf = ReadBufferExtended(rel, fork, P_NEW, RBM_NORMAL, strategy);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(rel, ExclusiveLock);
	return buf;
}
#endif

/* 18: vacuum_delay_point() says whether it is called by ANALYZE. */
#include "commands/vacuum.h"
#if PG_VERSION_NUM < 180000
#define vacuum_delay_point(is_analyze) ((void) (is_analyze), vacuum_delay_point())
#endif

/*
 * 19: an index access method's handler returns a routine it keeps (the
 * core neither copies nor frees it: a static const struct); before, the
 * relcache copied the routine and pfree'd what the handler returned, so it
 * must be palloc'd.  Fields a major added after 15 default to 0 (false,
 * NULL) in a designated initializer that does not name them.
 */
#include "access/amapi.h"
#if PG_VERSION_NUM >= 190000
#define index_am_routine_result(routine) PointerGetDatum(routine)
#else
#define index_am_routine_result(routine) \
	PointerGetDatum(memcpy(palloc(sizeof(IndexAmRoutine)), (routine), sizeof(IndexAmRoutine)))
#endif

/*
 * 16: JOIN_RIGHT_ANTI, 18: JOIN_RIGHT_SEMI (hash joins whose hash side is
 * the one whose rows are returned).  Before, no plan has them: the names
 * stand for a value no join type takes.
 */
#include "nodes/nodes.h"
#if PG_VERSION_NUM < 160000
#define JOIN_RIGHT_ANTI ((JoinType) 1000)
#endif
#if PG_VERSION_NUM < 180000
#define JOIN_RIGHT_SEMI ((JoinType) 1001)
#endif

/*
 * 19: the planner hook and standard_planner take the ExplainState of an
 * EXPLAIN being planned (else NULL).  A hook is declared with
 * PLANNER_HOOK_PARAMS and passes PLANNER_HOOK_ARGS on.
 */
#include "optimizer/planner.h"
#if PG_VERSION_NUM >= 190000
#define PLANNER_HOOK_PARAMS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams, ExplainState *es
#define PLANNER_HOOK_ARGS parse, query_string, cursorOptions, boundParams, es
#else
#define PLANNER_HOOK_PARAMS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams
#define PLANNER_HOOK_ARGS parse, query_string, cursorOptions, boundParams
#endif

/* 16: BufFileReadExact() and BufFileReadMaybeEOF() raise the error of a
 * short read; before, BufFileRead() returns the bytes read. */
#include "storage/buffile.h"
#if PG_VERSION_NUM < 160000
static inline size_t
BufFileReadMaybeEOF(BufFile *file, void *ptr, size_t size, bool eofOK)
{
	size_t		got = BufFileRead(file, ptr, size);

	if (got == size || (got == 0 && eofOK))
		return got;
	ereport(ERROR,
			(errcode_for_file_access(),
			 errmsg("could not read from temporary file: read only %zu of %zu bytes", got, size)));
	return 0;
}
#define BufFileReadExact(file, ptr, size) ((void) BufFileReadMaybeEOF(file, ptr, size, false))
#endif

/* 16: get_extension_schema(), the schema of an installed extension, is
 * exported; before, it is read from pg_extension here. */
#include "commands/extension.h"
#if PG_VERSION_NUM < 160000
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_extension.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
static inline Oid
get_extension_schema(Oid ext_oid)
{
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			result = InvalidOid;

	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ext_oid));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		result = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return result;
}
#endif

/*
 * 16: input functions report errors softly (InputFunctionCallSafe with an
 * ErrorSaveContext).  bloom_input_soft returns false when str is not a
 * value of the type; before 16 the type's error is raised instead
 * (BLOOM_SOFT_INPUT says which).
 */
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#define BLOOM_SOFT_INPUT 1
static inline bool
bloom_input_soft(FmgrInfo *flinfo, char *str, Oid ioparam, int32 typmod, Datum *out)
{
	ErrorSaveContext escontext;

	memset(&escontext, 0, sizeof escontext);
	escontext.type = T_ErrorSaveContext;
	return InputFunctionCallSafe(flinfo, str, ioparam, typmod, (Node *) &escontext, out);
}
#else
#define BLOOM_SOFT_INPUT 0
static inline bool
bloom_input_soft(FmgrInfo *flinfo, char *str, Oid ioparam, int32 typmod, Datum *out)
{
	*out = InputFunctionCall(flinfo, str, ioparam, typmod);
	return true;
}
#endif

#endif							/* BLOOMFILTER_COMPAT_H */
