/*
 * extension.c - the entry point: registers every SQL function of
 * bloomfilter on a connection.
 *
 * Loadable:  .load ./bloomfilter  (entry point sqlite3_bloomfilter_init)
 * Needs SQLite 3.31.0 or later (common.h checks the headers, the entry
 * point the library).
 * Static:    compile with -DSQLITE_CORE and call
 *              sqlite3_bloomfilter_init(db, &errmsg, NULL)
 *            on a connection, or register it for every new connection with
 *              sqlite3_auto_extension((void (*)(void))sqlite3_bloomfilter_init);
 *
 * SQL functions (docs/SQLITE.md has the full reference):
 *   bloom_empty(capacity [, fpr [, seed [, layout]]])   -> filter (layout
 *                                   'classic', 'blocked', 'counting', 'scalable')
 *   bloom_empty_mk(nbits, nhashes [, seed [, layout]])  -> filter
 *   bloom_add(filter, value)        -> filter with value added (a scalable
 *                                      filter grows by stages past its capacity)
 *   bloom_remove(filter, value)     -> counting filter with value removed
 *   bloom_to_classic(filter)        -> the classic filter of a counting filter's set
 *   bloom_contains(filter, value)   -> 0/1, NULL for a NULL value
 *   bloom_add_all(filter, json_array)        -> filter with every element added
 *   bloom_contains_all(filter, json_array),
 *   bloom_contains_any(filter, json_array)   -> 0/1, NULL by SQL's ALL/ANY rules
 *   bloom_union(a, b), bloom_intersect(a, b)            -> filter (sizes that
 *                                   divide: a union keeps each size class as a
 *                                   stage, an intersection is at the larger size)
 *   bloom_fold(filter, nbits)       -> the filter folded to nbits, a divisor
 *                                      of its size
 *   bloom_cardinality(filter), bloom_fpr(filter)         -> real
 *   bloom_intersect_cardinality(a, b), bloom_jaccard(a, b) -> real
 *   bloom_info(filter)              -> JSON text
 *   bloom_hash(value [, seed])      -> integer (the uint64 as int64)
 *   bloom_version()                 -> text
 *   bloom_from_parquet(bitset), bloom_to_parquet(filter) -> blob
 *   aggregates: bloom_agg(value), bloom_agg(value, capacity, fpr),
 *               bloom_union_agg(filter), bloom_intersect_agg(filter)
 *   table-valued: bloom_search(table, column, value [, schema]) -> rows (id):
 *               the rowids of table whose filter in column may contain
 *               value, each filter read in the few bytes a probe needs
 *               (from the column's bloom_bitslice index when it has one)
 *   virtual table module: CREATE VIRTUAL TABLE idx USING
 *               bloom_bitslice(table, column [, max_nbits=N]): an index
 *               over the column, kept by triggers; SELECT rowid FROM idx
 *               WHERE value = x
 * A filter is a BLOB in the format of docs/FORMAT.md; values are hashed by
 * docs/HASHING.md (INTEGER 5 and REAL 5.0 are one member, TEXT by its UTF-8
 * bytes, BLOB by its bytes, NULL never a member).
 */
#include "common.h"

#ifndef SQLITE_CORE
SQLITE_EXTENSION_INIT1
#endif

/* Every function is a pure function of its arguments and harmless, so it
 * can be used in views, indexes on expressions, generated columns and
 * CHECK constraints; bloom_version too (it is constant per library). */
#define BF_FLAGS (SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS)

typedef void (*bf_scalar_fn)(sqlite3_context *, int, sqlite3_value **);
typedef void (*bf_final_fn)(sqlite3_context *);

static const struct {
    const char *name;
    int nargs;
    bf_scalar_fn func;  /* scalar: xFunc; aggregate: xStep */
    bf_final_fn final;  /* NULL for a scalar */
} functions[] = {
    {"bloom_empty", 1, bf_empty, NULL},
    {"bloom_empty", 2, bf_empty, NULL},
    {"bloom_empty", 3, bf_empty, NULL},
    {"bloom_empty", 4, bf_empty, NULL},
    {"bloom_empty_mk", 2, bf_empty_mk, NULL},
    {"bloom_empty_mk", 3, bf_empty_mk, NULL},
    {"bloom_empty_mk", 4, bf_empty_mk, NULL},
    {"bloom_add", 2, bf_add, NULL},
    {"bloom_remove", 2, bf_remove, NULL},
    {"bloom_to_classic", 1, bf_to_classic, NULL},
    {"bloom_contains", 2, bf_contains, NULL},
    {"bloom_union", 2, bf_union, NULL},
    {"bloom_intersect", 2, bf_intersect, NULL},
    {"bloom_fold", 2, bf_fold, NULL},
    {"bloom_cardinality", 1, bf_cardinality, NULL},
    {"bloom_intersect_cardinality", 2, bf_intersect_cardinality, NULL},
    {"bloom_jaccard", 2, bf_jaccard, NULL},
    {"bloom_fpr", 1, bf_fpr, NULL},
    {"bloom_info", 1, bf_info, NULL},
    {"bloom_hash", 1, bf_hash, NULL},
    {"bloom_hash", 2, bf_hash, NULL},
    {"bloom_version", 0, bf_version, NULL},
    {"bloom_from_parquet", 1, bf_from_parquet, NULL},
    {"bloom_to_parquet", 1, bf_to_parquet, NULL},
    {"bloom_ref", 1, bf_ref, NULL},
    {"bloom_add_all", 2, bf_add_all, NULL},
    {"bloom_contains_all", 2, bf_contains_all, NULL},
    {"bloom_contains_any", 2, bf_contains_any, NULL},
    {"bloom_agg", 1, bf_agg_step, bf_agg_final},
    {"bloom_agg", 3, bf_agg_fixed_step, bf_agg_fixed_final},
    {"bloom_union_agg", 1, bf_union_agg_step, bf_combine_agg_final},
    {"bloom_intersect_agg", 1, bf_intersect_agg_step, bf_combine_agg_final},
};

#ifdef _WIN32
__declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
__attribute__((visibility("default"))) /* the one export of a -fvisibility=hidden build */
#endif
int sqlite3_bloomfilter_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
#ifndef SQLITE_CORE
    SQLITE_EXTENSION_INIT2(pApi);
#else
    (void)pApi;
#endif
    /* A library older than the headers we were built with: refuse it before
     * registering anything (it would take SQLITE_INNOCUOUS for a flag it does
     * not know, and its API routines may end before those we call). */
    if (sqlite3_libversion_number() < BF_MIN_SQLITE_VERSION_NUMBER) {
        if (pzErrMsg != NULL)
            *pzErrMsg = sqlite3_mprintf("the bloomfilter extension needs SQLite "
                                        BF_MIN_SQLITE_VERSION " or later; this is SQLite %s",
                                        sqlite3_libversion());
        return SQLITE_ERROR;
    }
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        int rc;
        if (functions[i].final == NULL)
            rc = sqlite3_create_function_v2(db, functions[i].name, functions[i].nargs, BF_FLAGS,
                                            NULL, functions[i].func, NULL, NULL, NULL);
        else
            rc = sqlite3_create_function_v2(db, functions[i].name, functions[i].nargs, BF_FLAGS,
                                            NULL, NULL, functions[i].func, functions[i].final,
                                            NULL);
        if (rc != SQLITE_OK) {
            if (pzErrMsg != NULL)
                *pzErrMsg = sqlite3_mprintf("cannot register %s with %d arguments: %s",
                                            functions[i].name, functions[i].nargs,
                                            sqlite3_errstr(rc));
            return rc;
        }
    }
    int rc = bf_register_search(db);
    if (rc != SQLITE_OK) {
        if (pzErrMsg != NULL)
            *pzErrMsg = sqlite3_mprintf("cannot register bloom_search: %s", sqlite3_errstr(rc));
        return rc;
    }
    rc = bf_register_bitslice(db);
    if (rc != SQLITE_OK && pzErrMsg != NULL)
        *pzErrMsg = sqlite3_mprintf("cannot register bloom_bitslice: %s", sqlite3_errstr(rc));
    return rc;
}
