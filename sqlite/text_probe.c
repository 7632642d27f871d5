/*
 * text_probe.c - a TEXT probe read as the kinds of values a filter holds
 * (docs/HASHING.md, "What a text probe checks"): as text, and as the
 * number SQLite's own comparison with an INTEGER or REAL column reads it
 * as (numeric affinity: a well-formed integer or real, spaces around it
 * allowed).  SQLite never equates TEXT with a BLOB, and cannot read text
 * as a PostgreSQL type: a filter of such values refuses a text probe that
 * no other reading found, rather than answer a false it cannot know.
 */
#include "common.h"

void bf_text_probe_init(bf_text_probe *t, sqlite3_value *value, const unsigned char *text, int len)
{
    t->value = value;
    t->text = text;
    t->len = len;
    t->number = -1;
    t->hashed = 0;
}

/* Whether the text may read as a number: SQLite's reading starts, after
 * spaces, with a digit, a sign or a point.  Most text that is no number is
 * known so without a copy of the value. */
static int may_be_number(const unsigned char *p, int len)
{
    int i = 0;
    while (i < len && (p[i] == ' ' || (p[i] >= '\t' && p[i] <= '\r')))
        i++;
    return i < len && ((p[i] >= '0' && p[i] <= '9') || p[i] == '+' || p[i] == '-' || p[i] == '.');
}

/* The number v reads as, by numeric affinity, on a copy: the caller's
 * value stays text. */
static int read_number(bf_text_probe *t)
{
    t->number = 0;
    if (!may_be_number(t->text, t->len))
        return SQLITE_OK;
    sqlite3_value *copy = sqlite3_value_dup(t->value);
    if (copy == NULL)
        return SQLITE_NOMEM;
    int type = sqlite3_value_numeric_type(copy);
    if (type == SQLITE_INTEGER) {
        t->number = type;
        t->i = sqlite3_value_int64(copy);
    } else if (type == SQLITE_FLOAT) {
        t->number = type;
        t->r = sqlite3_value_double(copy);
    }
    sqlite3_value_free(copy);
    return SQLITE_OK;
}

int bf_text_probe_hashes(bf_text_probe *t, unsigned mask, uint64_t seed, uint64_t out[2],
                         unsigned *n)
{
    int as_text = mask == 0 || (mask & BLOOM_KIND_TEXT);
    int as_number = (mask & BLOOM_KIND_NUMBER) != 0;
    *n = 0;
    if (as_number && t->number < 0) {
        if (read_number(t) != SQLITE_OK)
            return SQLITE_NOMEM;
        t->hashed = 0; /* the number's hash is not there yet */
    }
    if (!t->hashed || t->seed != seed) {
        t->text_hash = bloom_hash_bytes(t->text, (size_t)t->len, seed);
        if (t->number == SQLITE_INTEGER)
            t->number_hash = bloom_hash_int64(t->i, seed);
        else if (t->number == SQLITE_FLOAT)
            t->number_hash = bloom_hash_double(t->r, seed);
        t->hashed = 1;
        t->seed = seed;
    }
    if (as_text)
        out[(*n)++] = t->text_hash;
    if (as_number && t->number > 0)
        out[(*n)++] = t->number_hash;
    return SQLITE_OK;
}

char *bf_text_probe_refusal(bloom_kinds kinds)
{
    char type[48];
    if (kinds.type_oid != 0)
        sqlite3_snprintf(sizeof type, type, "PostgreSQL type OID %u", (unsigned)kinds.type_oid);
    else
        sqlite3_snprintf(sizeof type, type, "several or non-built-in PostgreSQL types");
    return sqlite3_mprintf("cannot read a text probe as the values of this filter: it holds values "
                           "of %s, which SQLite cannot read from text. Probe with a blob of the "
                           "value's canonical bytes (docs/HASHING.md)",
                           type);
}

int bf_text_probe_contains(sqlite3_context *ctx, const char *fn, bf_text_probe *t,
                           const bloom_filter *f)
{
    uint64_t hashes[2];
    unsigned n;
    if (bf_text_probe_hashes(t, f->kinds.mask, f->seed, hashes, &n) != SQLITE_OK) {
        sqlite3_result_error_nomem(ctx);
        return BF_ERROR;
    }
    for (unsigned i = 0; i < n; i++)
        if (bloom_contains_hash(f, hashes[i]))
            return 1;
    if (!(f->kinds.mask & BLOOM_KIND_TYPED))
        return 0;
    char *refusal = bf_text_probe_refusal(f->kinds);
    if (refusal == NULL) {
        sqlite3_result_error_nomem(ctx);
        return BF_ERROR;
    }
    bf_error(ctx, fn, "%s", refusal);
    sqlite3_free(refusal);
    return BF_ERROR;
}
