/*
 * bench_sqlite_floor.c - a benchmark-only SQLite extension: the least work
 * any probe of a filter must do per row, as a function SQLite calls row at
 * a time, so that bench_sqlite.py can measure the floor under its probes.
 *
 *   bench_one_access(nbytes, value) -> 1
 *
 * Per row it does what every probe of a one-line (blocked) filter does and
 * no more: it finds its constant argument's bytes (auxdata, as
 * bloom_contains finds its parsed filter), reads the integer, hashes it
 * canonically, and reads one byte of the cache line the hash picks in a
 * buffer of nbytes.  The buffer gets the best memory a probe can have:
 * 2 MiB aligned, huge pages asked for, every byte set (so the answer is 1
 * and the branch on it as predictable as a member probe's).  A probe that
 * costs about this is at the limit of a row-at-a-time function on the
 * machine: the rest is the memory access, which one row's work cannot hide.
 *
 * Not part of the product: built by make bench-sqlite only.
 */
#define _ISOC11_SOURCE
#include "bloom.h"

#include <sqlite3ext.h>
#include <stdlib.h>
#include <string.h>

SQLITE_EXTENSION_INIT1

enum { HUGE_PAGE = 2 << 20, LINE = 64 };

typedef struct floor_buffer {
    uint8_t *bytes;
    uint64_t lines;
} floor_buffer;

static void free_buffer(void *p)
{
    floor_buffer *b = p;
    free(b->bytes);
    sqlite3_free(b);
}

/* The buffer for argument 0, kept as its auxdata; 0 after an error. */
static int make_buffer(sqlite3_context *ctx, sqlite3_value *size)
{
    sqlite3_int64 nbytes = sqlite3_value_int64(size);
    if (nbytes < LINE || nbytes > ((sqlite3_int64)1 << 40)) {
        sqlite3_result_error(ctx, "bench_one_access: nbytes must be 64 to 2^40", -1);
        return 0;
    }
    size_t rounded = ((size_t)nbytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    floor_buffer *b = sqlite3_malloc(sizeof *b);
    uint8_t *bytes = aligned_alloc(HUGE_PAGE, rounded);
    if (b == NULL || bytes == NULL) {
        sqlite3_free(b);
        free(bytes);
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    bloom_advise_huge_pages(bytes, rounded);
    memset(bytes, 0xff, rounded);
    b->bytes = bytes;
    b->lines = (uint64_t)nbytes / LINE;
    sqlite3_set_auxdata(ctx, 0, b, free_buffer);
    return 1;
}

static void one_access(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const floor_buffer *b = sqlite3_get_auxdata(ctx, 0);
    if (b == NULL) {
        if (!make_buffer(ctx, argv[0]))
            return;
        /* SQLite frees the auxdata of an argument that is not constant at once */
        if ((b = sqlite3_get_auxdata(ctx, 0)) == NULL) {
            sqlite3_result_error(ctx, "bench_one_access: nbytes must be a constant", -1);
            return;
        }
    }
    uint64_t hash = bloom_hash_int64(sqlite3_value_int64(argv[1]), 0);
    uint64_t line = (hash >> 32) * b->lines >> 32; /* as a blocked filter picks its block */
    sqlite3_result_int(ctx, b->bytes[line * LINE] != 0);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_benchsqlitefloor_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
    SQLITE_EXTENSION_INIT2(api);
    (void)errmsg;
    return sqlite3_create_function_v2(db, "bench_one_access", 2,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                      one_access, NULL, NULL, NULL);
}
