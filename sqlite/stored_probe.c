/*
 * stored_probe.c - probing a filter stored in a table row, reading only the
 * bytes the probe needs (incremental BLOB I/O): the 32-byte header, then
 * the k bytes (classic, counting) or the one 32-byte block (blocked) that the
 * core's probe plan names (core/probe_offsets.c); a scalable filter, whose
 * stages its header does not locate, is read whole.  bloom_search probes every row
 * of a table this way (search.c); a bloom_bitslice index probes its
 * candidate rows this way (bitslice.c), so both answer alike.
 *
 * The header is validated by the core against the value's full length
 * (bloom_parse_header), as every filter is; the padding bits past nbits,
 * which a probe never reads, are not.
 */
#include "common.h"

#include <string.h>

int bf_stored_probe_init(bf_stored_probe *p, sqlite3 *db, const char *schema, const char *table,
                         const char *column, sqlite3_value *value)
{
    memset(p, 0, sizeof *p);
    p->db = db;
    p->schema = schema ? schema : "main";
    p->table = table;
    p->column = column;
    p->value = value;
    p->value_type = sqlite3_value_type(value);
    if (p->value_type == SQLITE_TEXT || p->value_type == SQLITE_BLOB) {
        /* text is hashed as its UTF-8 bytes whatever the database encoding */
        p->value_bytes = p->value_type == SQLITE_TEXT ? (const void *)sqlite3_value_text(value)
                                                      : sqlite3_value_blob(value);
        p->value_len = sqlite3_value_bytes(value);
        if (p->value_bytes == NULL && p->value_len > 0)
            return SQLITE_NOMEM;
    }
    if (p->value_type == SQLITE_TEXT)
        bf_text_probe_init(&p->text, value, p->value_bytes, p->value_len);
    return SQLITE_OK;
}

int bf_stored_probe_hashes(bf_stored_probe *p, unsigned mask, uint64_t seed, uint64_t out[2],
                           unsigned *n)
{
    if (p->value_type == SQLITE_TEXT)
        return bf_text_probe_hashes(&p->text, mask, seed, out, n);
    if (!p->have_hash || p->seed != seed) {
        if (p->value_type == SQLITE_INTEGER)
            p->hash = bloom_hash_int64(sqlite3_value_int64(p->value), seed);
        else if (p->value_type == SQLITE_FLOAT)
            p->hash = bloom_hash_double(sqlite3_value_double(p->value), seed);
        else
            p->hash = bloom_hash_bytes(p->value_bytes, (size_t)p->value_len, seed);
        p->have_hash = 1;
        p->seed = seed;
    }
    out[0] = p->hash;
    *n = 1;
    return SQLITE_OK;
}

/* A row's filter the core refused: "row N: status: message. Hint." */
static int malformed(const bloom_error *err, sqlite3_int64 rowid, char **msg)
{
    const char *hint = bloom_status_hint(err->status);
    *msg = sqlite3_mprintf("row %lld: %s: %s%s%s", (long long)rowid, bloom_status_name(err->status),
                           err->message, hint ? ". " : "", hint ? hint : "");
    return SQLITE_ERROR;
}

/* A filter without a probe plan (scalable) is read whole and validated
 * whole, as bloom_contains reads it. */
static int probe_whole(bf_stored_probe *p, sqlite3_int64 rowid, int len, const uint64_t *hashes,
                       unsigned nhashes, int *match, char **msg)
{
    uint8_t *buf = sqlite3_malloc64((sqlite3_uint64)len);
    if (buf == NULL)
        return SQLITE_NOMEM;
    int rc = sqlite3_blob_read(p->blob, buf, len, 0);
    if (rc != SQLITE_OK) {
        sqlite3_free(buf);
        *msg = sqlite3_mprintf("row %lld: %s", (long long)rowid, sqlite3_errmsg(p->db));
        return rc;
    }
    bloom_filter f;
    bloom_error err;
    if (bloom_parse(buf, (size_t)len, &f, &err) != BLOOM_OK) {
        sqlite3_free(buf);
        return malformed(&err, rowid, msg);
    }
    for (unsigned i = 0; i < nhashes && !*match; i++)
        *match = bloom_contains_hash(&f, hashes[i]);
    sqlite3_free(buf);
    return SQLITE_OK;
}

/* The probe of one hash in the bytes its plan names. */
static int probe_planned(bf_stored_probe *p, sqlite3_int64 rowid, const bloom_filter *f,
                         uint64_t hash, const bloom_probe_plan *plan, int *match, char **msg)
{
    /* In ascending order: SQLite walks a value's overflow pages forward and
     * remembers where it has been, so one walk serves every range. */
    unsigned order[BLOOM_MAX_NHASHES];
    for (unsigned i = 0; i < plan->count; i++) {
        unsigned j = i;
        for (; j > 0 && plan->offset[order[j - 1]] > plan->offset[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    uint8_t bytes[BLOOM_MAX_NHASHES * (BLOOM_BLOCK_BITS / 8)];
    for (unsigned n = 0; n < plan->count; n++) {
        unsigned i = order[n];
        /* offsets are below nbytes, which bloom_parse_header checked against len */
        int rc = sqlite3_blob_read(p->blob, bytes + (size_t)i * plan->length, (int)plan->length,
                                   BLOOM_HEADER_SIZE + (int)plan->offset[i]);
        if (rc != SQLITE_OK) {
            *msg = sqlite3_mprintf("row %lld: %s", (long long)rowid, sqlite3_errmsg(p->db));
            return rc;
        }
    }
    *match = bloom_probe_plan_test(f, hash, plan, bytes);
    return SQLITE_OK;
}

/* Text that no reading found among PostgreSQL-typed values: unknown, not absent. */
static int typed_refusal(const bf_stored_probe *p, const bloom_filter *f, sqlite3_int64 rowid,
                         int match, char **msg)
{
    if (match || p->value_type != SQLITE_TEXT || !(f->kinds.mask & BLOOM_KIND_TYPED))
        return SQLITE_OK;
    char *refusal = bf_text_probe_refusal(f->kinds);
    if (refusal == NULL)
        return SQLITE_NOMEM;
    *msg = sqlite3_mprintf("row %lld: %s", (long long)rowid, refusal);
    sqlite3_free(refusal);
    return *msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

int bf_stored_probe_bytes(bf_stored_probe *p, sqlite3_int64 rowid, const void *bytes, int len,
                          int *match, char **msg)
{
    bloom_filter f;
    bloom_error err;
    *match = 0;
    if (bloom_parse(bytes, (size_t)len, &f, &err) != BLOOM_OK)
        return malformed(&err, rowid, msg);
    uint64_t hashes[2];
    unsigned nhashes;
    if (bf_stored_probe_hashes(p, f.kinds.mask, f.seed, hashes, &nhashes) != SQLITE_OK)
        return SQLITE_NOMEM;
    for (unsigned h = 0; h < nhashes && !*match; h++)
        *match = bloom_contains_hash(&f, hashes[h]);
    return typed_refusal(p, &f, rowid, *match, msg);
}

int bf_stored_probe_row(bf_stored_probe *p, sqlite3_int64 rowid, int *match, char **msg)
{
    int rc;
    *match = 0;
    if (p->blob == NULL)
        rc = sqlite3_blob_open(p->db, p->schema, p->table, p->column, rowid, 0, &p->blob);
    else
        rc = sqlite3_blob_reopen(p->blob, rowid);
    if (rc != SQLITE_OK) {
        /* a failed reopen leaves the handle unusable */
        *msg = sqlite3_mprintf("row %lld: %s", (long long)rowid, sqlite3_errmsg(p->db));
        sqlite3_blob_close(p->blob);
        p->blob = NULL;
        return rc;
    }
    int len = sqlite3_blob_bytes(p->blob);
    uint8_t header[BLOOM_HEADER_SIZE] = {0};
    rc = sqlite3_blob_read(p->blob, header, len < BLOOM_HEADER_SIZE ? len : BLOOM_HEADER_SIZE, 0);
    if (rc != SQLITE_OK) {
        *msg = sqlite3_mprintf("row %lld: %s", (long long)rowid, sqlite3_errmsg(p->db));
        return rc;
    }
    bloom_filter f;
    bloom_error err;
    if (bloom_parse_header(header, (size_t)len, &f, &err) != BLOOM_OK)
        return malformed(&err, rowid, msg);
    f.bits = NULL; /* only the header was read */
    uint64_t hashes[2];
    unsigned nhashes;
    if (bf_stored_probe_hashes(p, f.kinds.mask, f.seed, hashes, &nhashes) != SQLITE_OK)
        return SQLITE_NOMEM;
    for (unsigned h = 0; h < nhashes && !*match; h++) {
        bloom_probe_plan plan;
        bloom_probe_plan_for(&f, hashes[h], &plan);
        if (plan.count == 0) { /* a scalable filter: its stages are known from its bytes */
            rc = probe_whole(p, rowid, len, hashes, nhashes, match, msg);
            break;
        }
        rc = probe_planned(p, rowid, &f, hashes[h], &plan, match, msg);
        if (rc != SQLITE_OK)
            return rc;
    }
    return rc == SQLITE_OK ? typed_refusal(p, &f, rowid, *match, msg) : rc;
}

void bf_stored_probe_close(bf_stored_probe *p)
{
    sqlite3_blob_close(p->blob);
    p->blob = NULL;
}
