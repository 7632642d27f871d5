/*
 * runtime_filter_remote_schema.c - whether a remote server knows the
 * extension's objects by the names postgres_fdw will send, and whether it
 * stores text as the bytes the local server receives
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
 *
 * A text filter hashes the bytes of the local database's encoding on one
 * side and of the remote database's on the other: the same only where
 * postgres_fdw's connection converts nothing.  The scan that asks for a
 * text column asks that too: a text parameter holding U+00E9 in UTF-8
 * reaches the remote server converted to its encoding, where the
 * condition divides by zero when its bytes are still C3 A9.  The remote
 * planner folds the condition with the parameter's value, before any row;
 * the local one cannot (the values come from InitPlans), and postgres_fdw
 * ships it because the CASE takes its collation from the foreign column
 * (it ships no expression of a collatable type that does not, and no
 * stable function such as getdatabaseencoding()).  Every other server
 * encoding writes U+00E9 otherwise, or cannot (an error too); SQL_ASCII
 * converts nothing, either way.  So the division by zero is proof, and any
 * other outcome means no text filter.  A local SQL_ASCII database converts
 * nothing either; other local encodings get no text filter.
 */
#include "bloomfilter.h"
#include "runtime_filter.h"
#include "runtime_filter_plan.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "foreign/foreign.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
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
	bool		bytes_known;	/* same_bytes asked (or needs no asking) */
	bool		same_bytes;		/* text: the remote stores what arrives here */
} RemoteNamesEntry;

/* What the asking scan answered. */
typedef enum AskAnswer
{
	ASK_OTHER_ERROR,
	ASK_MISSING_NAME,
	ASK_NAMES,					/* ran: the names parse */
	ASK_NAMES_SAME_BYTES		/* the names parse, and text arrives unconverted */
} AskAnswer;

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

/*
 * The query that has the remote server parse a filter's names, reading no
 * row; with_bytes (a text column, a UTF-8 local database), it also divides
 * by zero there when U+00E9 arrives as its UTF-8 bytes.
 */
static char *
asking_query(Oid relid, AttrNumber attno, Oid schema, bool with_bytes)
{
	StringInfoData sql;
	const char *nsp = get_namespace_name(schema);
	const char *column = quote_identifier(get_attname(relid, attno, false));

	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "SELECT 1 FROM ONLY %s t WHERE t.ctid OPERATOR(pg_catalog.=) '(0,0)'::pg_catalog.tid"
					 " AND %s(%s(2::pg_catalog.int8, 0.5::pg_catalog.float8), t.%s)",
					 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid)),
					 quote_qualified_identifier(nsp, "bloom_contains"),
					 quote_qualified_identifier(nsp, "bloom_empty"),
					 column);
	if (with_bytes)
		appendStringInfo(&sql,
						 " AND 1 OPERATOR(pg_catalog./) pg_catalog.int4(pg_catalog.decode("
						 "CASE WHEN (SELECT false) THEN t.%s ELSE (SELECT '\xc3\xa9'::pg_catalog.text) END,"
						 " 'escape') OPERATOR(pg_catalog.<>) E'\\\\xc3a9'::pg_catalog.bytea)"
						 " OPERATOR(pg_catalog.=) 1",
						 column);
	return sql.data;
}

/* Run sql in a subtransaction, and what it answered (a cancel is raised again). */
static AskAnswer
ask(const char *sql)
{
	MemoryContext context = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	AskAnswer	result;

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
		result = ASK_NAMES;
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
		if (edata->sqlerrcode == ERRCODE_DIVISION_BY_ZERO)
			result = ASK_NAMES_SAME_BYTES;
		else if (edata->sqlerrcode == ERRCODE_UNTRANSLATABLE_CHARACTER ||
				 edata->sqlerrcode == ERRCODE_CHARACTER_NOT_IN_REPERTOIRE)
			result = ASK_NAMES;	/* parsed; the parameter did not convert */
		else if (edata->sqlerrcode == ERRCODE_UNDEFINED_OBJECT ||
				 edata->sqlerrcode == ERRCODE_UNDEFINED_FUNCTION ||
				 edata->sqlerrcode == ERRCODE_INVALID_SCHEMA_NAME)
			result = ASK_MISSING_NAME;
		else
			result = ASK_OTHER_ERROR;
		FreeErrorData(edata);
	}
	PG_END_TRY();
	return result;
}

bool
bloom_runtime_remote_names_match(InjectContext *cx, Oid relid, AttrNumber attno, bool *same_bytes)
{
	RemoteNamesKey key;
	RemoteNamesEntry *entry;
	bool		found;
	Oid			type = getBaseType(get_atttype(relid, attno));
	bool		with_bytes = GetDatabaseEncoding() == PG_UTF8 &&
		(type == TEXTOID || type == VARCHAROID || type == BPCHAROID);
	AskAnswer	answer;

	*same_bytes = false;
	/* a query planned while asking, or where no subtransaction may start */
	if (asking || IsInParallelMode() || !ActiveSnapshotSet())
		return false;
	memset(&key, 0, sizeof key);
	key.server = GetForeignTable(relid)->serverid;
	key.user = GetUserId();
	key.schema = get_func_namespace(cx->contains_func);
	entry = hash_search(known_table(), &key, HASH_FIND, &found);
	/* asked again for the first text column after other columns */
	if (found && !(entry->match && with_bytes && !entry->bytes_known))
	{
		*same_bytes = entry->same_bytes;
		return entry->match;
	}
	key.relid = relid;
	(void) hash_search(known_table(), &key, HASH_FIND, &found);
	if (found)
		return false;
	asking = true;
	PG_TRY();
	{
		answer = ask(asking_query(relid, attno, key.schema, with_bytes));
	}
	PG_FINALLY();
	{
		asking = false;
	}
	PG_END_TRY();
	if (answer != ASK_OTHER_ERROR)
		key.relid = InvalidOid;
	entry = hash_search(known_table(), &key, HASH_ENTER, &found);
	entry->match = answer == ASK_NAMES || answer == ASK_NAMES_SAME_BYTES;
	/* a local SQL_ASCII database converts nothing either way */
	entry->same_bytes = entry->match &&
		(answer == ASK_NAMES_SAME_BYTES || GetDatabaseEncoding() == PG_SQL_ASCII);
	entry->bytes_known = with_bytes || GetDatabaseEncoding() != PG_UTF8;
	*same_bytes = entry->same_bytes;
	return entry->match;
}
