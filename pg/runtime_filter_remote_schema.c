/*
 * runtime_filter_remote_schema.c - whether a remote server knows the
 * extension's objects by the names postgres_fdw will send
 * (runtime_filter_plan.h).
 *
 * postgres_fdw writes every name outside pg_catalog qualified by its local
 * schema: a remote filter reads `public.bloom_contains($1::public.bloom,
 * key)` when the local extension is in public, and a remote server whose
 * extension is in another schema rejects it, in a query that never named
 * the extension.  So before a server's first remote filter, a query
 * through postgres_fdw has the server parse those names: a scan of the
 * foreign table that reads no row (ctid = '(0,0)', a TID scan there) under
 * the filter's condition.  The answer is kept per server, user and local
 * schema for the life of the session, and forgotten when a server or user
 * mapping changes.  An error other than a missing name (the remote table
 * is a view, without ctid; no privilege; the server is down) means no
 * filter for that foreign table, kept for it alone: another table of the
 * server may still ask.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

typedef struct RemoteNamesKey
{
	Oid			server;
	Oid			user;
	Oid			schema;			/* the local extension's */
	Oid			relid;			/* 0, or the table whose scan could not ask */
} RemoteNamesKey;

typedef struct RemoteNamesEntry
{
	RemoteNamesKey key;
	bool		match;
} RemoteNamesEntry;

static HTAB *known = NULL;
static bool known_stale = false;
static bool asking = false;

static void
forget_known(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	(void) hashvalue;
	known_stale = true;
}

static HTAB *
known_table(void)
{
	HASHCTL		ctl;

	if (known != NULL && !known_stale)
		return known;
	if (known == NULL)
	{
		CacheRegisterSyscacheCallback(FOREIGNSERVEROID, forget_known, (Datum) 0);
		CacheRegisterSyscacheCallback(USERMAPPINGOID, forget_known, (Datum) 0);
	}
	else
		hash_destroy(known);
	memset(&ctl, 0, sizeof ctl);
	ctl.keysize = sizeof(RemoteNamesKey);
	ctl.entrysize = sizeof(RemoteNamesEntry);
	ctl.hcxt = TopMemoryContext;
	known = hash_create("bloomfilter remote names", 16, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	known_stale = false;
	return known;
}

/* The query that has the remote server parse a filter's names, reading no row. */
static char *
asking_query(Oid relid, AttrNumber attno, Oid schema)
{
	StringInfoData sql;
	const char *nsp = get_namespace_name(schema);

	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "SELECT 1 FROM ONLY %s t WHERE t.ctid OPERATOR(pg_catalog.=) '(0,0)'::pg_catalog.tid"
					 " AND %s(%s(2::pg_catalog.int8, 0.5::pg_catalog.float8), t.%s)",
					 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid)),
					 quote_qualified_identifier(nsp, "bloom_contains"),
					 quote_qualified_identifier(nsp, "bloom_empty"),
					 quote_identifier(get_attname(relid, attno, false)));
	return sql.data;
}

/*
 * Run sql in a subtransaction: 1 if it ran, 0 if the remote server lacks a
 * name, -1 on another error (a cancel is raised again).
 */
static int
ask(const char *sql)
{
	MemoryContext context = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	int			result;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(context);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute(sql, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "SPI_execute failed");
		SPI_finish();
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(context);
		CurrentResourceOwner = owner;
		result = 1;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(context);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(context);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);
		result = (edata->sqlerrcode == ERRCODE_UNDEFINED_OBJECT ||
				  edata->sqlerrcode == ERRCODE_UNDEFINED_FUNCTION ||
				  edata->sqlerrcode == ERRCODE_INVALID_SCHEMA_NAME) ? 0 : -1;
		FreeErrorData(edata);
	}
	PG_END_TRY();
	return result;
}

bool
bloom_runtime_remote_names_match(InjectContext *cx, Oid relid, AttrNumber attno)
{
	RemoteNamesKey key;
	RemoteNamesEntry *entry;
	bool		found;
	int			answer;

	/* a query planned while asking, or where no subtransaction may start */
	if (asking || IsInParallelMode() || !ActiveSnapshotSet())
		return false;
	memset(&key, 0, sizeof key);
	key.server = GetForeignTable(relid)->serverid;
	key.user = GetUserId();
	key.schema = get_func_namespace(cx->contains_func);
	entry = hash_search(known_table(), &key, HASH_FIND, &found);
	if (found)
		return entry->match;
	key.relid = relid;
	(void) hash_search(known_table(), &key, HASH_FIND, &found);
	if (found)
		return false;
	asking = true;
	PG_TRY();
	{
		answer = ask(asking_query(relid, attno, key.schema));
	}
	PG_FINALLY();
	{
		asking = false;
	}
	PG_END_TRY();
	if (answer >= 0)
		key.relid = InvalidOid;
	entry = hash_search(known_table(), &key, HASH_ENTER, &found);
	entry->match = answer == 1;
	return entry->match;
}
