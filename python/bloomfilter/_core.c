/*
 * _core.c - the C core of bloomfilter (the sources in core/) behind a flat interface
 * for ctypes (bloomfilter/_native.py).
 *
 * A filter is its serialized bytes (docs/FORMAT.md) in a buffer Python
 * owns; every call takes (buffer, length).  The core stays the one
 * validator: bytes from outside go through bfpy_parse (bloom_parse), and
 * every status comes back as an int with the core's message in msg
 * (BLOOM_ERROR_MESSAGE_SIZE bytes).  Nothing here allocates except the
 * builder (malloc), whose result Python frees with bfpy_free.
 */
#include "bloom.h"

#include <stdlib.h>
#include <string.h>

/* The largest filter an engine stores at its defaults: SQLite's
 * SQLITE_LIMIT_LENGTH (10^9) less the row margin of sqlite/values.c
 * (bf_max_filter_bytes); PostgreSQL's is smaller (BLOOM_PG_MAX_FILTER_BYTES,
 * 511 MiB of bits).  A larger filter could be built here but stored nowhere. */
#define BFPY_MAX_FILTER_BYTES UINT64_C(999998976)

#if defined(__GNUC__) || defined(__clang__)
#define BFPY_EXPORT __attribute__((visibility("default")))
#else
#define BFPY_EXPORT
#endif

/* Exported prototypes (ctypes reads the symbols; these keep -Wmissing-prototypes quiet). */
BFPY_EXPORT const char *bfpy_version(void);
BFPY_EXPORT const char *bfpy_hint(int status);
BFPY_EXPORT int bfpy_layout_from_name(const char *name);
BFPY_EXPORT int bfpy_params_for_capacity(int layout, uint64_t capacity, double fpr, uint64_t *nbits,
                                         unsigned *nhashes, char *msg);
BFPY_EXPORT int bfpy_check_params(int layout, uint64_t nbits, unsigned nhashes, char *msg);
BFPY_EXPORT size_t bfpy_layout_size(int layout, uint64_t nbits);
BFPY_EXPORT int bfpy_empty_size(int layout, int64_t capacity, double fpr, size_t *size, char *msg);
BFPY_EXPORT int bfpy_empty_init(uint8_t *buf, size_t len, int layout, int64_t capacity, double fpr,
                                uint64_t seed, char *msg);
BFPY_EXPORT int bfpy_init(uint8_t *buf, size_t len, int layout, uint64_t nbits, unsigned nhashes,
                          uint64_t seed, char *msg);
BFPY_EXPORT int bfpy_parse(const uint8_t *buf, size_t len, int *layout, unsigned *nhashes,
                           uint64_t *seed, uint64_t *nbits, char *msg);
BFPY_EXPORT uint64_t bfpy_hash_int64(int64_t value, uint64_t seed);
BFPY_EXPORT uint64_t bfpy_hash_double(double value, uint64_t seed);
BFPY_EXPORT uint64_t bfpy_hash_bytes(const void *data, size_t len, uint64_t seed);
BFPY_EXPORT int bfpy_insert(uint8_t *buf, size_t len, const uint64_t *hashes, size_t n,
                            unsigned kinds, uint32_t type_oid, uint8_t **out, size_t *outlen,
                            char *msg);
BFPY_EXPORT int bfpy_remove(uint8_t *buf, size_t len, uint64_t hash, char *msg);
BFPY_EXPORT int bfpy_to_classic_size(const uint8_t *buf, size_t len, size_t *size, char *msg);
BFPY_EXPORT int bfpy_to_classic(const uint8_t *buf, size_t len, uint8_t *out, size_t outlen,
                                char *msg);
BFPY_EXPORT void bfpy_contains_hashes(const uint8_t *buf, size_t len, const uint64_t *hashes,
                                      size_t n, uint8_t *out);
BFPY_EXPORT int bfpy_combine_size(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                                  int is_union, size_t *size, char *msg);
BFPY_EXPORT int bfpy_combine(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                             int is_union, uint8_t *out, size_t outlen, char *msg);
BFPY_EXPORT int bfpy_check_fold(const uint8_t *buf, size_t len, int64_t nbits, char *msg);
BFPY_EXPORT int bfpy_fold(const uint8_t *buf, size_t len, uint64_t nbits, uint8_t *out,
                          size_t outlen, char *msg);
BFPY_EXPORT double bfpy_cardinality(const uint8_t *buf, size_t len);
BFPY_EXPORT double bfpy_fpr(const uint8_t *buf, size_t len);
BFPY_EXPORT uint64_t bfpy_popcount(const uint8_t *buf, size_t len);
BFPY_EXPORT int bfpy_build(int layout, double fpr, uint64_t seed, const uint64_t *hashes, size_t n,
                           unsigned kinds, uint32_t type_oid, uint8_t **out, size_t *outlen,
                           char *msg);
BFPY_EXPORT void bfpy_free(void *p);

static int fail(const bloom_error *err, char *msg)
{
    memcpy(msg, err->message, BLOOM_ERROR_MESSAGE_SIZE);
    msg[BLOOM_ERROR_MESSAGE_SIZE - 1] = '\0';
    return (int)err->status;
}

/* A buffer Python owns and bfpy_init/bfpy_parse checked before: its header
 * only is re-read (the bits were validated once). */
static bloom_filter view(const uint8_t *buf, size_t len)
{
    bloom_filter f;
    bloom_error err;
    if (bloom_parse_header(buf, len, &f, &err) != BLOOM_OK)
        abort(); /* can't happen: _native.py only passes checked buffers */
    return f;
}

const char *bfpy_version(void)
{
    return BLOOMFILTER_VERSION;
}

const char *bfpy_hint(int status)
{
    return bloom_status_hint((bloom_status)status);
}

int bfpy_layout_from_name(const char *name)
{
    return bloom_layout_from_name(name, strlen(name));
}

int bfpy_params_for_capacity(int layout, uint64_t capacity, double fpr, uint64_t *nbits,
                             unsigned *nhashes, char *msg)
{
    bloom_error err;
    if (bloom_params_for_capacity(layout, capacity, fpr, nbits, nhashes, &err) != BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

int bfpy_check_params(int layout, uint64_t nbits, unsigned nhashes, char *msg)
{
    bloom_error err;
    if (bloom_check_params(layout, nbits, nhashes, &err) != BLOOM_OK ||
        bloom_check_host_size(bloom_layout_size(layout, nbits), BFPY_MAX_FILTER_BYTES, &err) !=
            BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

size_t bfpy_layout_size(int layout, uint64_t nbits)
{
    return bloom_layout_size(layout, nbits);
}

int bfpy_empty_size(int layout, int64_t capacity, double fpr, size_t *size, char *msg)
{
    bloom_error err;
    if (bloom_empty_size(layout, capacity, fpr, BFPY_MAX_FILTER_BYTES, size, &err) != BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

int bfpy_empty_init(uint8_t *buf, size_t len, int layout, int64_t capacity, double fpr,
                    uint64_t seed, char *msg)
{
    bloom_filter f;
    bloom_error err;
    if (bloom_empty_init(buf, len, layout, capacity, fpr, seed, &f, &err) != BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

int bfpy_init(uint8_t *buf, size_t len, int layout, uint64_t nbits, unsigned nhashes,
              uint64_t seed, char *msg)
{
    bloom_filter f;
    bloom_error err;
    if (bloom_init(buf, len, layout, nbits, nhashes, seed, &f, &err) != BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

int bfpy_parse(const uint8_t *buf, size_t len, int *layout, unsigned *nhashes, uint64_t *seed,
               uint64_t *nbits, char *msg)
{
    bloom_filter f;
    bloom_error err;
    if (bloom_parse(buf, len, &f, &err) != BLOOM_OK)
        return fail(&err, msg);
    *layout = f.layout;
    *nhashes = f.nhashes;
    *seed = f.seed;
    *nbits = f.nbits;
    return BLOOM_OK;
}

uint64_t bfpy_hash_int64(int64_t value, uint64_t seed)
{
    return bloom_hash_int64(value, seed);
}

uint64_t bfpy_hash_double(double value, uint64_t seed)
{
    return bloom_hash_double(value, seed);
}

uint64_t bfpy_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    return bloom_hash_bytes(data, len, seed);
}

static void *heap_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size > 0 ? size : 1);
}

static void heap_release(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static const bloom_allocator heap = {heap_alloc, heap_release, NULL};

/* The classes of a batch of values (BLOOM_KIND_* bits; type_oid for
 * TYPED) recorded in f, before their hashes go in: the kinds a filter
 * already has count its bits as they were (core/kinds.c). */
static void record_kinds(bloom_filter *f, unsigned kinds, uint32_t type_oid)
{
    if (kinds == 0 || (kinds == BLOOM_KIND_TEXT && f->kinds.mask == 0))
        return; /* text alone into a filter that stores none stores none */
    bloom_kinds k = bloom_kinds_effective(f);
    for (unsigned cls = 1; cls <= BLOOM_KINDS_KNOWN; cls <<= 1)
        if (kinds & cls)
            bloom_kinds_add(&k, cls, cls == BLOOM_KIND_TYPED ? type_oid : 0);
    bloom_kinds_store(f, k);
}

/* bloom_add_all: in place, *out NULL; a scalable filter works on a malloc'd
 * copy, which may grow, returned in *out (bfpy_free) even on an error,
 * holding the values before the failing one.  kinds, type_oid: the
 * values' classes (record_kinds). */
int bfpy_insert(uint8_t *buf, size_t len, const uint64_t *hashes, size_t n, unsigned kinds,
                uint32_t type_oid, uint8_t **out, size_t *outlen, char *msg)
{
    bloom_filter f = view(buf, len);
    bloom_error err;
    *out = NULL;
    if (f.layout != BLOOM_LAYOUT_SCALABLE) {
        record_kinds(&f, kinds, type_oid);
        bloom_add_hashes(&f, hashes, n);
        return BLOOM_OK;
    }
    void *copy = malloc(len);
    if (copy == NULL) {
        strcpy(msg, "out of memory");
        return BLOOM_E_NOMEM;
    }
    memcpy(copy, buf, len);
    f = view(copy, len);
    record_kinds(&f, kinds, type_oid);
    bloom_status st = bloom_insert(&heap, BFPY_MAX_FILTER_BYTES, &copy, &len, &f, hashes, n, &err);
    *out = copy;
    *outlen = len;
    return st == BLOOM_OK ? BLOOM_OK : fail(&err, msg);
}

int bfpy_remove(uint8_t *buf, size_t len, uint64_t hash, char *msg)
{
    bloom_filter f = view(buf, len);
    bloom_error err;
    return bloom_remove_hash(&f, hash, &err) == BLOOM_OK ? BLOOM_OK : fail(&err, msg);
}

int bfpy_to_classic_size(const uint8_t *buf, size_t len, size_t *size, char *msg)
{
    bloom_filter f = view(buf, len);
    bloom_error err;
    return bloom_to_classic_size(&f, size, &err) == BLOOM_OK ? BLOOM_OK : fail(&err, msg);
}

int bfpy_to_classic(const uint8_t *buf, size_t len, uint8_t *out, size_t outlen, char *msg)
{
    bloom_filter f = view(buf, len), res;
    bloom_error err;
    return bloom_to_classic(&f, out, outlen, &res, &err) == BLOOM_OK ? BLOOM_OK : fail(&err, msg);
}

void bfpy_contains_hashes(const uint8_t *buf, size_t len, const uint64_t *hashes, size_t n,
                          uint8_t *out)
{
    bloom_filter f = view(buf, len);
    for (size_t i = 0; i < n; i++)
        out[i] = bloom_contains_hash(&f, hashes[i]);
}

int bfpy_combine_size(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, int is_union,
                      size_t *size, char *msg)
{
    bloom_filter fa = view(a, alen), fb = view(b, blen);
    bloom_error err;
    if (bloom_combine_size(&fa, &fb, is_union ? BLOOM_OP_UNION : BLOOM_OP_INTERSECT, size, NULL,
                           &err) != BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

/* a op b into out (bfpy_combine_size bytes), as both engines combine: a
 * union of size classes keeps each, and neither saturates where the
 * operands were not. */
int bfpy_combine(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, int is_union,
                 uint8_t *out, size_t outlen, char *msg)
{
    bloom_filter fa = view(a, alen), fb = view(b, blen), res;
    bloom_error err;
    bloom_status st = bloom_combine(&fa, &fb, is_union ? BLOOM_OP_UNION : BLOOM_OP_INTERSECT,
                                    BLOOM_REFUSE_SATURATED, out, outlen, &res, &err);
    return st == BLOOM_OK ? BLOOM_OK : fail(&err, msg);
}

/* Whether the filter folds to nbits (the core's check), before the caller
 * allocates the result's bloom_serialized_size(nbits) bytes. */
int bfpy_check_fold(const uint8_t *buf, size_t len, int64_t nbits, char *msg)
{
    bloom_filter f = view(buf, len);
    bloom_error err;
    return bloom_check_fold(&f, nbits, &err) == BLOOM_OK ? BLOOM_OK : fail(&err, msg);
}

int bfpy_fold(const uint8_t *buf, size_t len, uint64_t nbits, uint8_t *out, size_t outlen,
              char *msg)
{
    bloom_filter f = view(buf, len), res;
    bloom_error err;
    if (bloom_fold(&f, nbits, out, outlen, &res, &err) != BLOOM_OK)
        return fail(&err, msg);
    return BLOOM_OK;
}

double bfpy_cardinality(const uint8_t *buf, size_t len)
{
    bloom_filter f = view(buf, len);
    return bloom_estimate_cardinality(&f);
}

double bfpy_fpr(const uint8_t *buf, size_t len)
{
    bloom_filter f = view(buf, len);
    return bloom_estimate_fpr(&f);
}

uint64_t bfpy_popcount(const uint8_t *buf, size_t len)
{
    bloom_filter f = view(buf, len);
    return bloom_popcount(&f);
}


/* The self-sizing builder over n hashes, as bloom_agg(x) builds: a filter
 * sized for the distinct hashes at fpr, holding values of classes kinds
 * (type_oid for TYPED), in *out (malloc; bfpy_free). */
int bfpy_build(int layout, double fpr, uint64_t seed, const uint64_t *hashes, size_t n,
               unsigned kinds, uint32_t type_oid, uint8_t **out, size_t *outlen, char *msg)
{
    bloom_builder *b;
    bloom_error err;
    bloom_filter f;
    *out = NULL;
    if (bloom_builder_create(&heap, layout, fpr, seed, &b, &err) != BLOOM_OK)
        return fail(&err, msg);
    bloom_builder_set_host(b, BFPY_MAX_FILTER_BYTES, NULL, NULL);
    for (unsigned cls = 1; cls <= BLOOM_KINDS_KNOWN; cls <<= 1)
        if (kinds & cls)
            bloom_builder_add_kind(b, cls, cls == BLOOM_KIND_TYPED ? type_oid : 0);
    bloom_status st = BLOOM_OK;
    for (size_t i = 0; i < n && st == BLOOM_OK; i++)
        st = bloom_builder_add_hash(b, hashes[i], &err);
    if (st == BLOOM_OK)
        st = bloom_builder_result_size(b, outlen, &err);
    if (st == BLOOM_OK) {
        *out = malloc(*outlen);
        if (*out == NULL) {
            err.status = st = BLOOM_E_NOMEM;
            strcpy(err.message, "out of memory");
        }
    }
    if (st == BLOOM_OK)
        st = bloom_builder_finish(b, *out, *outlen, &f, &err);
    bloom_builder_destroy(b);
    if (st != BLOOM_OK) {
        free(*out);
        *out = NULL;
        return fail(&err, msg);
    }
    return BLOOM_OK;
}

void bfpy_free(void *p)
{
    free(p);
}
