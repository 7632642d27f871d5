/*
 * old_sqlite.c - the load-time version check of sqlite3_bloomfilter_init,
 * through SQLite's own loading path: a loadable extension (entry point
 * sqlite3_oldsqlite_init, from its file name) that hands the real init
 * function a copy of the loading SQLite's API routines in which only the
 * version is older, 3.30.1.  Loading it must fail with the init function's
 * message, set through *pzErrMsg; a check that let it through would
 * register the functions and the load would succeed.
 * Built with the extension's sources by `make sqlite-version-test`
 * (sqlite/tests/version_test.sh).
 */
#include <sqlite3ext.h>

/* No SQLITE_EXTENSION_INIT1 here: extension.c defines sqlite3_api. */
int sqlite3_bloomfilter_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);
int sqlite3_oldsqlite_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);

static sqlite3_api_routines older;

static int older_version_number(void)
{
    return 3030001;
}

static const char *older_version(void)
{
    return "3.30.1";
}

int sqlite3_oldsqlite_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
    older = *pApi;
    older.libversion_number = older_version_number;
    older.libversion = older_version;
    return sqlite3_bloomfilter_init(db, pzErrMsg, &older);
}
