/*
 * bitslice_pause.c - a test hook of bloom_bitslice: named points of a scan,
 * a flush and VACUUM where a backend can be made to wait, so that a test
 * orders two sessions exactly (the isolation tests of tools/suites/73-bitslice.sh).
 *
 *   bloomfilter.bitslice_pause   a comma-separated list of points (below),
 *                                empty by default; superuser only
 *
 * A backend reaching a listed point takes and at once releases the advisory
 * lock pg_advisory_lock(hashtext('<point>')): while another session holds
 * it, the backend waits there, on a heavyweight lock, which the isolation
 * tester sees as a blocked step.  PostgreSQL's injection points do the same
 * from 17 on, but only in servers built with them (Debian's are not).
 *
 * The points (never reached with a buffer locked):
 *   scan_meta          a scan has read the metapage, before it walks a
 *                      group's pending chain
 *   scan_blocks        a scan has walked a group's pending chain, before
 *                      its blocks
 *   vacuum_bulkdelete  bulk delete holds the flush lock and has read the
 *                      metapage, before its walks
 *   vacuum_cleanup     cleanup holds the flush lock and has measured the
 *                      index, before it compacts and flushes the groups
 *   vacuum_cleaned     cleanup has compacted and flushed every group, swept
 *                      and given the free pages to the free space map
 *                      (where inserts take them), before it releases the
 *                      flush lock
 */
#include "bitslice.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "utils/guc.h"
#include "utils/varlena.h"

static char *bs_pause_points = NULL;

void
bs_pause_init(void)
{
	DefineCustomStringVariable("bloomfilter.bitslice_pause",
							   "Test hook: points where bloom_bitslice waits on an advisory lock.",
							   "A comma-separated list of scan_meta, scan_blocks, vacuum_bulkdelete, vacuum_cleanup, vacuum_cleaned; at each, the backend takes and releases pg_advisory_lock(hashtext(point)).",
							   &bs_pause_points,
							   "",
							   PGC_SUSET, GUC_NOT_IN_SAMPLE,
							   NULL, NULL, NULL);
}

void
bs_pause(const char *point)
{
	char	   *list;
	List	   *names;
	bool		listed = false;
	ListCell   *lc;

	if (bs_pause_points == NULL || bs_pause_points[0] == '\0')
		return;
	list = pstrdup(bs_pause_points);
	if (!SplitIdentifierString(list, ',', &names))
		elog(ERROR, "bloomfilter.bitslice_pause: not a list of names");
	foreach(lc, names)
		listed |= strcmp((const char *) lfirst(lc), point) == 0;
	if (listed)
	{
		/* as pg_advisory_lock(bigint) of hashtext(point), an int4 widened */
		int64		key = (int32) DatumGetUInt32(hash_any((const unsigned char *) point,
														  (int) strlen(point)));
		LOCKTAG		tag;

		SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, (uint32) ((uint64) key >> 32), (uint32) key, 1);
		(void) LockAcquire(&tag, ExclusiveLock, false, false);
		LockRelease(&tag, ExclusiveLock, false);
	}
	list_free(names);
	pfree(list);
}
