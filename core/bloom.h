/*
 * bloom.h - the host-free core of bloomfilter.
 *
 * One filter, one byte format (docs/FORMAT.md), one hashing rule
 * (docs/HASHING.md), shared by the PostgreSQL and SQLite extensions.
 *
 * The core never allocates on its own: a filter lives in a buffer the caller
 * owns (the serialized bytes ARE the filter), and the self-sizing builder
 * takes an allocator.  Errors come back as a status plus a message in a
 * bloom_error the caller passes in; messages are lower case, without a final
 * period, so a host can use them as its error message or detail.
 */
#ifndef BLOOMFILTER_CORE_BLOOM_H
#define BLOOMFILTER_CORE_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The core is compiled into each host's shared library and never exported
 * from it: hidden, a call into it is a direct call, not one through the
 * PLT (bloom_agg makes two or three per row). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define BLOOM_HIDDEN_BEGIN _Pragma("GCC visibility push(hidden)")
#define BLOOM_HIDDEN_END _Pragma("GCC visibility pop")
#else
#define BLOOM_HIDDEN_BEGIN
#define BLOOM_HIDDEN_END
#endif

BLOOM_HIDDEN_BEGIN

/* The release, from bloomfilter.control through the Makefile. */
#ifndef BLOOMFILTER_VERSION
#error "build with -DBLOOMFILTER_VERSION=... (the Makefile reads it from bloomfilter.control)"
#endif

/* ---- format constants (docs/FORMAT.md) ---- */
#define BLOOM_HEADER_SIZE 32
#define BLOOM_FORMAT_VERSION 1
#define BLOOM_HASH_XXH64_CANONICAL 1

#define BLOOM_LAYOUT_CLASSIC 0
#define BLOOM_LAYOUT_BLOCKED 1
#define BLOOM_LAYOUT_COUNTING 2 /* classic's placement, a 4-bit counter per position */
#define BLOOM_LAYOUT_SCALABLE 3 /* stages of classic (or blocked) filters */
#define BLOOM_NLAYOUTS 4

#define BLOOM_MIN_NHASHES 1
#define BLOOM_MAX_NHASHES 32
#define BLOOM_BLOCKED_NHASHES 8 /* fixed by the split-block design */
#define BLOOM_BLOCK_BITS 256    /* one 32-byte block */

/* 2^40 bits (128 GiB): the blocked layout's 32-bit block index allows
 * 2^32 blocks of 256 bits; hosts apply their own, smaller, limits. */
#define BLOOM_MAX_NBITS (UINT64_C(1) << 40)

/* Counting layout: 4-bit counters, two a byte; a counter at the maximum
 * is saturated and never decremented again.  Its array holds up to
 * BLOOM_MAX_NBITS bits, so a quarter as many counters. */
#define BLOOM_COUNTER_MAX 15
#define BLOOM_MAX_COUNTERS (BLOOM_MAX_NBITS / 4)

/* Scalable layout (docs/FORMAT.md "Scalable layout"): a stack header and a
 * directory of stage records after the filter header, then the stages' bit
 * arrays.  bloom_empty(capacity, fpr, seed, 'scalable') grows by stages of
 * BLOOM_SCALABLE_GROWTH times the capacity and BLOOM_SCALABLE_RATIO times
 * the rate of the one before (Almeida et al. 2007), the first at
 * fpr * (1 - ratio), so the rates sum to at most fpr. */
#define BLOOM_MAX_STAGES 64
#define BLOOM_STACK_HEADER_SIZE 32
#define BLOOM_STAGE_RECORD_SIZE 32
#define BLOOM_SCALABLE_RATIO 0.8
#define BLOOM_SCALABLE_GROWTH 2

/* Value kinds (docs/FORMAT.md, header byte 10): the classes of the values
 * a filter holds, so that a text probe can be read as what was added
 * (docs/HASHING.md "What a text probe checks").  TEXT is stored only
 * beside another class: a filter of text values alone stores 0, as 1.1
 * did.  TYPED values were hashed through a PostgreSQL type's binary send
 * function; bytes 12..15 then name the type when it was one built-in type
 * (an OID below BLOOM_FIRST_USER_OID), else 0. */
#define BLOOM_KIND_NUMBER 0x01u /* int64/double canonical: integers, bool, floats, numeric */
#define BLOOM_KIND_TEXT 0x02u   /* UTF-8 text */
#define BLOOM_KIND_BYTES 0x04u  /* bytea, BLOB */
#define BLOOM_KIND_TYPED 0x08u  /* a PostgreSQL type's send form */
#define BLOOM_KINDS_KNOWN 0x0fu
#define BLOOM_FIRST_USER_OID 16384u /* PostgreSQL's FirstNormalObjectId */

typedef enum bloom_status {
    BLOOM_OK = 0,
    BLOOM_E_INVALID_ARGUMENT, /* a parameter out of its range (fpr, capacity, k, m) */
    BLOOM_E_LIMIT,            /* a size beyond what the format or the host allows */
    BLOOM_E_FORMAT,           /* serialized bytes that are not a valid filter/builder */
    BLOOM_E_MISMATCH,         /* combining filters with different parameters */
    BLOOM_E_NOMEM,            /* the caller's allocator returned NULL */
    BLOOM_E_SATURATED         /* a union saturated where none of its members was */
} bloom_status;

#define BLOOM_ERROR_MESSAGE_SIZE 256

typedef struct bloom_error {
    bloom_status status;
    char message[BLOOM_ERROR_MESSAGE_SIZE];
} bloom_error;

/* A generic message for a status, for when no bloom_error was filled. */
const char *bloom_status_name(bloom_status status);
/* What the user can do about a status, as a sentence; NULL if nothing
 * general (BLOOM_E_MISMATCH: which filters combine, and the recipe;
 * BLOOM_E_SATURATED: the recipe for rollups at the target rate). */
const char *bloom_status_hint(bloom_status status);

/* Name of a layout id ("classic", "blocked", "counting", "scalable"), or
 * NULL if unknown. */
const char *bloom_layout_name(int layout);
/* Layout id for a name, case-insensitive; -1 if unknown. */
int bloom_layout_from_name(const char *name, size_t len);

/* Memory the caller gives the core (the builder, a growing filter). */
typedef struct bloom_allocator {
    void *(*alloc)(void *ctx, size_t size); /* NULL on failure */
    void (*release)(void *ctx, void *ptr);
    void *ctx;
} bloom_allocator;

/* ---- the filter ---- */

/* The classes of values a filter holds (BLOOM_KIND_*, header byte 10). */
typedef struct bloom_kinds {
    uint8_t mask;      /* BLOOM_KIND_* bits */
    uint32_t type_oid; /* with BLOOM_KIND_TYPED: the one built-in type, or 0 */
} bloom_kinds;

/*
 * A view of a filter's bytes.  bloom_parse() fills it from untrusted bytes
 * after validating every field; bloom_init() writes a new empty filter.  The
 * view points into the caller's buffer: mutating operations (add, union into,
 * intersect into) need the buffer to be writable.
 */
typedef struct bloom_filter {
    uint8_t layout;
    uint8_t hash_id;
    uint8_t nhashes; /* scalable: the largest of its stages' */
    uint8_t version;
    uint64_t seed;
    uint64_t nbits;  /* classic, blocked: bits; counting: counters; scalable:
                      * the bits of all its stages */
    uint64_t nbytes; /* the bytes after the header: classic and blocked,
                      * ceil(nbits / 64) * 8; counting ceil(nbits / 16) * 8;
                      * scalable, its stack header, directory and stages */
    uint8_t *bits;   /* the bytes after the header; classic, blocked: bit i is
                      * bits[i >> 3] & (1 << (i & 7)); counting: counter i is
                      * the nibble bits[i >> 1] >> (4 * (i & 1)) & 15 */
    bloom_kinds kinds; /* as stored (bytes 10..15): 0 for text alone, an
                        * empty filter, or one written before 1.2 */
} bloom_filter;

/* ---- value kinds (core/kinds.c) ---- */

/* k gains one value's class (a BLOOM_KIND_* bit); type_oid for TYPED: the
 * type's OID when below BLOOM_FIRST_USER_OID, else 0.  A second TYPED type
 * makes the OID 0 ("several or not built-in"), for good. */
void bloom_kinds_add(bloom_kinds *k, unsigned cls, uint32_t type_oid);
/* into gains from's classes, by the same OID rule. */
void bloom_kinds_merge(bloom_kinds *into, bloom_kinds from);
/* What f holds, for combining and adding: its stored kinds when byte 10 is
 * not 0; else TEXT when a bit (counter) is set (text values, or a filter
 * from before 1.2, read as text); else nothing (an empty filter). */
bloom_kinds bloom_kinds_effective(const bloom_filter *f);
/* The kinds as bytes 10..15 store them: TEXT alone is 0, the OID 0
 * without TYPED. */
bloom_kinds bloom_kinds_normalize(bloom_kinds k);
/* Write k (normalized) into f's header bytes 10..15 and f->kinds; f's
 * buffer must be writable. */
void bloom_kinds_store(bloom_filter *f, bloom_kinds k);
/* One value of class cls (type_oid as bloom_kinds_add) about to be added
 * to f: its effective kinds gain the class and are stored.  Call it before
 * adding the value's hash (once the hash is in, an empty filter reads as
 * one of text).  For a single add; an aggregate keeps its kinds beside the
 * filter and stores them once. */
void bloom_kinds_record(bloom_filter *f, unsigned cls, uint32_t type_oid);

/* Total serialized size of a classic or blocked filter of nbits bits; 0 if
 * nbits is out of range. */
size_t bloom_serialized_size(uint64_t nbits);
/* The same for any layout with one array (classic, blocked: nbits bits;
 * counting: nbits counters); 0 if out of range or scalable. */
size_t bloom_layout_size(int layout, uint64_t nbits);

/* Check an explicit (layout, nbits, nhashes) triple: classic, blocked or
 * counting (a scalable filter is sized from a capacity and a rate). */
bloom_status bloom_check_params(int layout, uint64_t nbits, unsigned nhashes, bloom_error *err);

/* (nbits, nhashes) for `capacity` distinct values at false-positive rate
 * `fpr` (0 < fpr < 1, capacity >= 1), in size classes: nbits is a power of
 * two (blocked: a power-of-two count of 256-bit blocks) and nhashes depends
 * on fpr alone (bloom_nhashes_for_fpr), so filters sized for one rate
 * combine whatever their capacities.  Classic: the least class where
 * (1 - e^(-kn/m))^k <= fpr; blocked: the least class where the exact
 * Poisson-mixture model meets fpr. */
bloom_status bloom_params_for_capacity(int layout, uint64_t capacity, double fpr, uint64_t *nbits,
                                       unsigned *nhashes, bloom_error *err);
/* k of every filter sized for fpr: round(log2(1/fpr)) in [1, 32] (the
 * optimum at the optimum size); blocked: 8. */
unsigned bloom_nhashes_for_fpr(int layout, double fpr);

/* ---- the one validator of user parameters (params.c) ----
 * Hosts pass SQL arguments as they came (signed, doubles) and map the
 * status; max_bytes is the largest serialized filter the host can store
 * (0: only the format's limit), checked before anything is allocated. */

/* 0 < fpr < 1 (NaN refused). */
bloom_status bloom_check_fpr(double fpr, bloom_error *err);
/* An integer argument that arrived as a double: integral (else "<what>
 * must be an integer") and within int64 (else "<what> ... is out of range"). */
bloom_status bloom_int64_from_double(double value, const char *what, int64_t *out,
                                     bloom_error *err);
/* BLOOM_E_LIMIT when a serialized filter of `bytes` bytes exceeds max_bytes. */
bloom_status bloom_check_host_size(uint64_t bytes, uint64_t max_bytes, bloom_error *err);
/* bloom_params_for_capacity from SQL arguments: capacity >= 1, fpr in (0, 1),
 * a known layout with a fixed size (not scalable: the fixed-size bloom_agg
 * refuses it), the result within max_bytes. */
bloom_status bloom_size_for_capacity(int layout, int64_t capacity, double fpr, uint64_t max_bytes,
                                     uint64_t *nbits, unsigned *nhashes, bloom_error *err);
/* An explicit size from SQL arguments: nbits >= 1, nhashes in [1, 32], the
 * layout's rules (bloom_check_params), the result within max_bytes. */
bloom_status bloom_size_explicit(int layout, int64_t nbits, int64_t nhashes, uint64_t max_bytes,
                                 bloom_error *err);
/* bloom_empty(capacity, fpr, seed, layout) in two steps, for every layout:
 * the serialized size (checked as bloom_size_for_capacity checks, against
 * max_bytes), then the empty filter written into a buffer of that size.
 * Classic, blocked and counting take bloom_params_for_capacity's size;
 * scalable, one stage for capacity values at fpr * (1 - ratio). */
bloom_status bloom_empty_size(int layout, int64_t capacity, double fpr, uint64_t max_bytes,
                              size_t *size, bloom_error *err);
bloom_status bloom_empty_init(void *buf, size_t len, int layout, int64_t capacity, double fpr,
                              uint64_t seed, bloom_filter *out, bloom_error *err);

/* ---- statistics (stats.c) ---- */

/* What bloom_info reports, from one pass over the bits; each figure equals
 * the one of the single functions (bloom_popcount, bloom_fill,
 * bloom_estimate_cardinality, bloom_estimate_fpr). */
typedef struct bloom_stats {
    uint64_t bits_set;
    double fill;
    double est_cardinality;
    double est_fpr;
} bloom_stats;
void bloom_get_stats(const bloom_filter *f, bloom_stats *out);

/* Copy a filter into buf (len must be bloom_filter_size(f)); *out views the copy. */
size_t bloom_filter_size(const bloom_filter *f);
void bloom_copy(const bloom_filter *f, void *buf, bloom_filter *out);

/* Write an empty filter into buf (len must be bloom_serialized_size(nbits)). */
bloom_status bloom_init(void *buf, size_t len, int layout, uint64_t nbits, unsigned nhashes,
                        uint64_t seed, bloom_filter *out, bloom_error *err);

/* Validate untrusted bytes and build a view.  Rejects, naming the field: a
 * short buffer, bad magic, unknown version/layout/hash id/flags, value
 * kinds that are not valid (unknown bits, TEXT alone, a type OID without
 * TYPED or not built-in), a non-zero reserved byte 11, out-of-range nhashes or nbits, a length that is not exactly
 * header + ceil(nbits/64)*8, and set bits past nbits. */
bloom_status bloom_parse(const void *buf, size_t len, bloom_filter *out, bloom_error *err);

/* Parameters only (no check of the padding bits): cheap re-reading of bytes
 * that were validated before, e.g. a host's cached argument. */
bloom_status bloom_parse_header(const void *buf, size_t len, bloom_filter *out, bloom_error *err);

/* Add a value in place.  Classic, blocked: set its bits; counting:
 * increment its counters (saturating: a counter at BLOOM_COUNTER_MAX stays);
 * scalable: nothing if the filter already reports it, else add it to the
 * stage that takes values (bloom_insert below grows a full one first). */
void bloom_add_hash(bloom_filter *f, uint64_t hash);
/* Whether bloom_add_hash(f, hash) would leave f's bytes as they are (a
 * host can then answer with its input): classic, blocked and growing
 * scalable filters that already report the value, a union of size classes
 * whose largest stage does; never a counting filter, where every add
 * counts. */
bool bloom_add_is_noop(const bloom_filter *f, uint64_t hash);
bool bloom_contains_hash(const bloom_filter *f, uint64_t hash);
/* Insert many hashes, prefetching, for filters larger than the cache. */
void bloom_add_hashes(bloom_filter *f, const uint64_t *hashes, size_t n);
/*
 * Hashes waiting to be inserted as one batch (bloom_add_hashes), for a host
 * that gets them one row at a time: an aggregate's state.  Whoever reads the
 * filter flushes first; until then f lacks the hashes in p.
 */
enum { BLOOM_PENDING_MAX = 256 };
typedef struct bloom_pending {
    size_t n;
    uint64_t hashes[BLOOM_PENDING_MAX];
} bloom_pending;
void bloom_pending_flush(bloom_filter *f, bloom_pending *p);
static inline void bloom_pending_add(bloom_filter *f, bloom_pending *p, uint64_t hash)
{
    p->hashes[p->n++] = hash;
    if (p->n == BLOOM_PENDING_MAX)
        bloom_pending_flush(f, p);
}

/*
 * bloom_add of n hashes, in order, to the filter in *buf (*len bytes,
 * allocated by alloc; *f views it), growing a scalable filter: before a
 * value goes to a full stage, a new stage is appended, so the filter moves
 * to a new buffer from alloc (its size checked against max_bytes, as
 * bloom_check_host_size, before it is allocated), the old one released, and
 * *buf, *len and *f follow it.  Other layouts never move.  On an error the
 * filter holds the hashes before the failing one.
 */
bloom_status bloom_insert(const bloom_allocator *alloc, uint64_t max_bytes, void **buf,
                          size_t *len, bloom_filter *f, const uint64_t *hashes, size_t n,
                          bloom_error *err);

/* ---- counting filters (core/layout_counting.c) ---- */

/* BLOOM_OK if f has counters (the counting layout), else
 * BLOOM_E_INVALID_ARGUMENT saying so. */
bloom_status bloom_check_removable(const bloom_filter *f, bloom_error *err);
/* Decrement the counters of a value (one per probe; a saturated counter
 * stays).  BLOOM_E_INVALID_ARGUMENT, f unchanged, when f has no counters
 * or when the value cannot be in it (a counter below the number of its
 * probes that land on it: the filter says it is absent). */
bloom_status bloom_remove_hash(bloom_filter *f, uint64_t hash, bloom_error *err);
/* The classic filter of the same set: same nbits, nhashes and seed, a bit
 * set where the counter is not zero; a classic filter as it is.  Other
 * layouts: BLOOM_E_INVALID_ARGUMENT.  *size is the result's size. */
bloom_status bloom_to_classic_size(const bloom_filter *f, size_t *size, bloom_error *err);
bloom_status bloom_to_classic(const bloom_filter *f, void *buf, size_t len, bloom_filter *out,
                              bloom_error *err);

/* ---- probes that read part of a filter (core/probe_offsets.c) ---- */

/*
 * Which bytes of the bit array a probe of `hash` reads, for hosts that read
 * a stored filter piecewise (a TOAST slice, SQLite's incremental BLOB I/O)
 * instead of whole: classic, the byte of each of its k bits (in probe order,
 * the same byte possibly twice); counting, the byte of each of its k
 * counters; blocked, its one 32-byte block.  Offsets count from the start of
 * the bit array, i.e. BLOOM_HEADER_SIZE bytes into the serialized filter.
 * Only f's header fields are read, never f->bits: parse the header with
 * bloom_parse_header(first 32 bytes, total length).  A scalable filter's
 * stages are found in its directory, which the header does not give: its
 * plan has count 0, and the host reads it whole.
 */
typedef struct bloom_probe_plan {
    unsigned count;                      /* byte ranges to read; 0: read it whole */
    unsigned length;                     /* bytes in each: 1 (classic, counting) or 32 (blocked) */
    uint64_t offset[BLOOM_MAX_NHASHES];  /* into the bit array */
    uint8_t mask[BLOOM_MAX_NHASHES];     /* classic: the probed bit of each byte;
                                          * counting: the probed counter's nibble */
} bloom_probe_plan;

void bloom_probe_plan_for(const bloom_filter *f, uint64_t hash, bloom_probe_plan *out);
/* bloom_contains_hash's answer from the planned bytes alone: range i is
 * bytes[i * plan->length, (i + 1) * plan->length). */
bool bloom_probe_plan_test(const bloom_filter *f, uint64_t hash, const bloom_probe_plan *plan,
                           const uint8_t *bytes);

/* ---- bit-sliced indexes over many filters (core/slices.c) ---- */

/*
 * An index over a column of filters (docs/FORMAT.md "Bit-sliced index")
 * keeps the filters of one geometry (layout, nhashes, seed, nbits) as bit
 * slices: for each bit position, a bitmap over rows.  A probe then reads
 * the k slices of its k bit positions instead of n filters.  The hosts
 * store the slices (PostgreSQL pages, SQLite rows); the core says under
 * which geometry a filter is indexed, which positions a probe reads,
 * turns rows into slices and back, and lays a block's slices out in pages.
 */
typedef struct bloom_geometry {
    uint8_t layout;
    uint8_t nhashes;
    uint64_t seed;
    uint64_t nbits;
} bloom_geometry;

/* Bytes of the bit array of a filter of geometry g. */
static inline uint64_t bloom_geometry_nbytes(const bloom_geometry *g)
{
    return (g->nbits + 63) / 64 * 8;
}

/* Whether an index can slice f's bits at all: a positive check of what it
 * knows (the classic and blocked layouts, the canonical hash, this format
 * version), so a filter of any other layout, including one added later, is
 * refused here and kept aside by the host, a candidate of every probe. */
bool bloom_sliceable(const bloom_filter *f);

/* The largest size at most max_nbits that a filter of layout and nbits
 * folds to (bloom_check_fold): its own when it is at most max_nbits; 0 when
 * there is none, or when the layout is not one an index slices. */
uint64_t bloom_fold_target(int layout, uint64_t nbits, uint64_t max_nbits);

/*
 * The geometry an index that holds at most max_nbits bits per filter files
 * f under, and the bit array it indexes (written to bits, which holds
 * ceil(max_nbits / 64) * 8 bytes; bloom_geometry_nbytes(out) are written):
 * f's own when f->nbits <= max_nbits, else f folded to
 * bloom_fold_target(...), bit for bit the filter of the same values built
 * at that size.  false, with nothing written: f cannot be indexed at that
 * size, because it is not sliceable (bloom_sliceable: a layout, hash or
 * version the index does not know), because no size divides its own or
 * because folded it is saturated (it would answer "maybe" to at least half
 * of all values).  An index keeps such a row aside, as a candidate of
 * every probe.  target, when not 0, is bloom_fold_target(f->layout,
 * f->nbits, max_nbits) computed before (a host caches it: it costs up to
 * sqrt(nbits) divisions for an odd size).
 */
bool bloom_signature(const bloom_filter *f, uint64_t max_nbits, uint64_t target,
                     bloom_geometry *out, uint8_t *bits);

/* Whether g is a geometry an index may hold (a sliceable layout, and
 * bloom_check_params): for hosts that read one back from storage. */
bloom_status bloom_check_geometry(const bloom_geometry *g, bloom_error *err);

/* The bit positions, in [0, g->nbits), a probe of hash tests in a filter of
 * geometry g: classic its k bits, blocked the 8 bits of its block; returns
 * their count (0 for a geometry bloom_check_geometry refuses).  A filter of
 * g may contain the value when all are set. */
unsigned bloom_probe_bits(const bloom_geometry *g, uint64_t hash, uint64_t *bits);

/*
 * Rows to slices, 64 rows at a time: rows[j] (j < nrows <= 64) is a bit
 * array of nbytes bytes (a multiple of 8); cols[p], for every p <
 * 8 * nbytes, gets bit j set when bit p of rows[j] is set (rows past nrows
 * count as zeros).  bloom_slices_to_rows is the inverse: rows[j] gets the
 * bits j of the column words.
 */
void bloom_slices_from_rows(const uint8_t *const *rows, unsigned nrows, uint64_t nbytes,
                            uint64_t *cols);
void bloom_slices_to_rows(const uint64_t *cols, uint64_t nbytes, uint8_t *const *rows,
                          unsigned nrows);

/*
 * Blocks of slices, as both hosts store them.  An index keeps a group's
 * rows in blocks of cap slots, cap a multiple of 64 from
 * BLOOM_SLICES_MIN_CAP to BLOOM_SLICES_MAX_CAP.  A block's slices are one
 * stream of nbits * cap / 8 bytes: slice p at byte p * cap / 8, its word w
 * (the bits of slots 64 w to 64 w + 63, bit j for slot 64 w + j) at word
 * p * cap / 64 + w.  The host cuts the stream into pages of page_bytes (a
 * multiple of 8; the last page holds the rest), stored as it stores them
 * (PostgreSQL pages, SQLite rows of NAME_slices).
 */
#define BLOOM_SLICES_MIN_CAP 64
#define BLOOM_SLICES_MAX_CAP 1024
/* Pending rows of a group that make a batch to slice. */
#define BLOOM_SLICES_BATCH_ROWS 64
/* Geometries an index holds; rows of further ones are kept aside. */
#define BLOOM_SLICES_MAX_GROUPS 64

/* How a page stores its words: little-endian (SQLite's rows, portable), or
 * in the host's order (PostgreSQL's pages, which are the machine's). */
typedef enum bloom_slices_order {
    BLOOM_SLICES_LITTLE_ENDIAN,
    BLOOM_SLICES_HOST_ORDER
} bloom_slices_order;

/* Pages of a block's stream, and the bytes of page `page` (0 past the
 * last).  0 for a cap or page_bytes out of range. */
uint32_t bloom_slices_pages(uint32_t cap, uint64_t nbits, uint32_t page_bytes);
uint32_t bloom_slices_page_bytes(uint32_t cap, uint64_t nbits, uint32_t page_bytes, uint32_t page);

/* Where word w (w < cap / 64) of slice p of a block is: its page and the
 * byte in that page. */
static inline void bloom_slices_word_at(uint32_t cap, uint32_t page_bytes, uint64_t p, uint32_t w,
                                        uint32_t *page, uint32_t *byte)
{
    uint64_t q = p * (cap / 64) + w;
    *page = (uint32_t)(q / (page_bytes / 8));
    *byte = (uint32_t)(q % (page_bytes / 8) * 8);
}

/* The slots of a new block for nrows rows (whole words), at least twice
 * last_cap (0: no last block, or rows not trickling in), within
 * [BLOOM_SLICES_MIN_CAP, cap_max]; cap_max, what the host's block header
 * allows, is a multiple of 64 in [BLOOM_SLICES_MIN_CAP, BLOOM_SLICES_MAX_CAP]. */
uint32_t bloom_slices_block_cap(uint32_t nrows, uint32_t last_cap, uint32_t cap_max);

/*
 * Rows for slots [first, first + n) of a block, transposed once and then
 * merged into each page of the stream: in every slot word the rows touch,
 * the slots before first keep their bits, the rows' slots get the rows'
 * bits and the slots after them are cleared (a host may have left bits of
 * rows never registered).  Other words are left as they are.
 */
typedef struct bloom_slices_batch {
    uint64_t nbits;
    uint32_t cap, first, n;
    uint32_t w0, nw;      /* the slot words touched: [w0, w0 + nw) */
    uint64_t nslices;     /* slices a slot word holds: nbits rounded up to 64 */
    const uint64_t *cols; /* [w - w0][p]: word w of slice p */
    const uint64_t *keep; /* [w - w0]: the bits of slots before first */
} bloom_slices_batch;

/* Words of memory bloom_slices_batch_make needs; 0 when the arguments are
 * out of range (n 0, first + n past BLOOM_SLICES_MAX_CAP, nbits 0 or past
 * 2^32) or the size does not fit a size_t. */
size_t bloom_slices_batch_words(uint64_t nbits, uint32_t first, uint32_t n);
/* rows[i] (i < n) is the bit array of the row for slot first + i
 * (bloom_geometry_nbytes bytes); words, of nwords >= bloom_slices_batch_words
 * words, is the caller's and holds the batch while it is used.
 * BLOOM_E_INVALID_ARGUMENT for a cap or range of slots out of range,
 * BLOOM_E_LIMIT for memory too small. */
bloom_status bloom_slices_batch_make(bloom_slices_batch *b, uint64_t nbits, uint32_t cap,
                                     uint32_t first, const uint8_t *const *rows, uint32_t n,
                                     uint64_t *words, size_t nwords, bloom_error *err);
/* Merge the batch into page `page` of its block's stream: content holds
 * the page's bytes, content_bytes of them (bloom_slices_page_bytes, else
 * BLOOM_E_INVALID_ARGUMENT). */
bloom_status bloom_slices_batch_merge(const bloom_slices_batch *b, uint32_t page_bytes,
                                      uint32_t page, uint8_t *content, uint32_t content_bytes,
                                      bloom_slices_order order, bloom_error *err);

/*
 * The words of page `page` of a block's stream (content: its
 * content_bytes bytes) into cols, as bloom_slices_to_rows reads them: the
 * cap / 64 slot words one after the other, each bloom_geometry_nbytes * 8
 * words long (ncols words in all), word w of slice p at
 * [w * nbytes * 8 + p]; the words past nbits, which no page holds, are
 * zeroed.  Read every page of the block, then turn each slot word back
 * into rows.
 */
bloom_status bloom_slices_page_to_cols(uint32_t cap, uint64_t nbits, uint32_t page_bytes,
                                       uint32_t page, const uint8_t *content,
                                       uint32_t content_bytes, bloom_slices_order order,
                                       uint64_t *cols, size_t ncols, bloom_error *err);

/* ---- batched probes (core/probe_batch.c) ---- */

/*
 * out[i] = bloom_contains_hash(f, hashes[i]) for i < n.  For filters larger
 * than the cache: the lines of hashes further on are prefetched while the
 * current one is tested, so the memory misses of a batch overlap instead of
 * costing one full miss per probe.  Same answers as the single probe.
 */
void bloom_contains_hashes(const bloom_filter *f, const uint64_t *hashes, size_t n, bool *out);
/* The index of the first of hashes[0, n) whose bloom_contains_hash is
 * `answer`, n if none: SQL's ALL (the first false) and ANY (the first true)
 * over a batch, its probes overlapping as bloom_contains_hashes's. */
size_t bloom_contains_first(const bloom_filter *f, const uint64_t *hashes, size_t n, bool answer);

/* BLOOM_OK if the estimates of two filters (bloom_estimate_union,
 * _intersection, _jaccard) can compare a and b: the same layout (classic,
 * blocked or counting), hash id, nhashes and seed, and sizes that divide
 * (one nbits a multiple of the other; blocked: one block count).  Else
 * BLOOM_E_MISMATCH with a message naming both sides' layout, nbits,
 * nhashes and seed (hosts add bloom_status_hint()); scalable filters:
 * BLOOM_E_INVALID_ARGUMENT. */
bloom_status bloom_check_compatible(const bloom_filter *a, const bloom_filter *b, bloom_error *err);
static inline uint64_t bloom_combined_nbits(const bloom_filter *a, const bloom_filter *b)
{
    return a->nbits < b->nbits ? a->nbits : b->nbits;
}

/*
 * Union and intersection (core/combine.c, docs/FORMAT.md "Combining").
 * Filters combine when they have the same seed and hash id, and:
 * - classic or blocked, one layout and nhashes, sizes that divide each
 *   other: of one size, OR / AND.  Of different sizes, the union keeps each
 *   size class as a stage of a scalable filter (no class loses precision);
 *   the intersection stretches the smaller to the larger's size
 *   (bloom_stretch), then ANDs: the larger's precision, or better.
 *   Unions of such scalable filters (stages of one layout and nhashes, no
 *   growth) merge their classes; intersections AND every pair of stages.
 * - counting, one size and nhashes: union sums the counters (saturating),
 *   intersection takes their minimum; an intersection of different sizes
 *   stretches the smaller.
 * - scalable filters that grow: a union of two with the same growth
 *   parameters merges their stages one by one (counts added); no
 *   intersection.
 * Else BLOOM_E_MISMATCH naming both sides.
 */
typedef enum bloom_op { BLOOM_OP_UNION, BLOOM_OP_INTERSECT } bloom_op;
/* flags of bloom_combine: a result that would be saturated
 * (bloom_is_saturated) when neither a nor b is fails with BLOOM_E_SATURATED,
 * before anything is written (the union of filters of one size class that
 * hold more values than it carries; an intersection of unions of classes
 * whose stages are near saturation). */
#define BLOOM_REFUSE_SATURATED 1u

/* The serialized size of a op b, and whether it can be written over a's
 * own bytes (*in_place: the result has a's shape, e.g. a union into an
 * aggregate's state of the same size); in_place may be NULL. */
bloom_status bloom_combine_size(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                                size_t *size, bool *in_place, bloom_error *err);
/* a op b into buf (len from bloom_combine_size): a new buffer that
 * overlaps neither, or a's own bytes (a->bits - BLOOM_HEADER_SIZE) when
 * *in_place said so.  *out views the result (out may be a). */
bloom_status bloom_combine(const bloom_filter *a, const bloom_filter *b, bloom_op op,
                           unsigned flags, void *buf, size_t len, bloom_filter *out,
                           bloom_error *err);
/* dst op= src in place, when the result has dst's shape; else
 * BLOOM_E_INVALID_ARGUMENT (combine into a new buffer with bloom_combine). */
bloom_status bloom_union_into(bloom_filter *dst, const bloom_filter *src, bloom_error *err);
bloom_status bloom_intersect_into(bloom_filter *dst, const bloom_filter *src, bloom_error *err);

/* ---- folding (core/fold.c, docs/FORMAT.md "Folding") ---- */

/* BLOOM_OK if f folds to nbits (as the caller gave it, signed): 1 <= nbits <= f->nbits and it divides f's size
 * (blocked: a whole number of blocks whose count divides f's), else
 * BLOOM_E_INVALID_ARGUMENT saying why. */
bloom_status bloom_check_fold(const bloom_filter *f, int64_t nbits, bloom_error *err);
/* f folded to nbits into buf (len bloom_layout_size(f->layout, nbits), not
 * overlapping f): bit for bit the filter of the same values built at nbits
 * with f's nhashes and seed (counting: each counter the saturating sum of
 * those it covers).  nbits == f->nbits copies f.  Scalable filters do not
 * fold. */
bloom_status bloom_fold(const bloom_filter *f, uint64_t nbits, void *buf, size_t len,
                        bloom_filter *out, bloom_error *err);

/* ---- stretching (core/stretch.c, docs/FORMAT.md "Stretching") ---- */

/* BLOOM_OK if f stretches to nbits: a multiple of its size (blocked: of its
 * block count; counting: of its counters); scalable filters do not. */
bloom_status bloom_check_stretch(const bloom_filter *f, uint64_t nbits, bloom_error *err);
/* f stretched to nbits = factor * f->nbits into buf (len
 * bloom_layout_size(f->layout, nbits), not overlapping f): bit i is bit
 * floor(i / factor) of f (blocked: block j is block floor(j / factor);
 * counting: counter i is counter floor(i / factor)).  Both layouts place a
 * value with a multiply-high, so its probes at nbits land in the runs of
 * its probes at f's size: the result answers every probe exactly as f
 * does, and folds back to f. */
bloom_status bloom_stretch(const bloom_filter *f, uint64_t nbits, void *buf, size_t len,
                           bloom_filter *out, bloom_error *err);

/* Same parameters and same bits (the same bytes). */
bool bloom_equal(const bloom_filter *a, const bloom_filter *b);

/* Bits set (counting: counters not zero; scalable: in all stages). */
uint64_t bloom_popcount(const bloom_filter *f);
/* Fraction of bits set. */
double bloom_fill(const bloom_filter *f);
/* Swamidass-Baldi: -(m/k) ln(1 - X/m); +infinity when every bit is set.
 * Scalable: the sum over stages, less the values a stage shares with
 * larger ones (estimated as across sizes, for unions of size classes). */
double bloom_estimate_cardinality(const bloom_filter *f);
/* Probability that a value never added is reported present: (X/m)^k for the
 * classic and counting layouts, the mean over blocks of the product of word
 * fills for the blocked layout; scalable, 1 - the product over stages of
 * (1 - the stage's rate). */
double bloom_estimate_fpr(const bloom_filter *f);
/* True when the filter answers "maybe" to at least half of all absent values. */
bool bloom_is_saturated(const bloom_filter *f);

/* Estimated |A u B|, |A n B| (inclusion-exclusion, clamped to >= 0) and
 * Jaccard |A n B| / |A u B| (1 for two empty filters), for filters that
 * combine; |A u B| is read at the combined size. */
bloom_status bloom_estimate_union(const bloom_filter *a, const bloom_filter *b, double *out,
                                  bloom_error *err);
bloom_status bloom_estimate_intersection(const bloom_filter *a, const bloom_filter *b, double *out,
                                         bloom_error *err);
bloom_status bloom_estimate_jaccard(const bloom_filter *a, const bloom_filter *b, double *out,
                                    bloom_error *err);

/* ---- Order ---- */

/* The total order of filters, on their BLOOM_HEADER_SIZE-byte headers:
 * format version, layout id, hash id, nhashes, seed (as a signed int64),
 * nbits; -1, 0 or 1.  Filters with equal headers are ordered by the bytes
 * after the header, by memcmp, a proper prefix first (the only layout whose
 * length the header does not fix is scalable; docs/POSTGRESQL.md,
 * "Ordering"). */
int bloom_compare_headers(const uint8_t *a, const uint8_t *b);

/* ---- Parquet interchange (layout 1 is Parquet's split-block filter) ---- */

/* Wrap the bitset of a Parquet column chunk's Bloom filter (the bytes after
 * its Thrift header) as a blocked filter with seed 0; len must be
 * BLOOM_HEADER_SIZE + bitset_len, bitset_len a positive multiple of 32. */
bloom_status bloom_from_parquet(const void *bitset, size_t bitset_len, void *buf, size_t len,
                                bloom_filter *out, bloom_error *err);
/* BLOOM_OK if f's bit array is a Parquet bitset as it is (blocked, seed 0);
 * the bitset is then f->bits[0, f->nbytes). */
bloom_status bloom_check_parquet(const bloom_filter *f, bloom_error *err);

/* ---- canonical hashing (docs/HASHING.md) ---- */

/* XXH64 of the canonical bytes of a value, with the filter's seed. */
uint64_t bloom_hash_bytes(const void *data, size_t len, uint64_t seed);
/* XXH64 of exactly one 8-byte little-endian lane, written out: the hot path
 * of every integer and double key (the general XXH64 spends a measurable
 * share of a probe on its length loops).  core/tests check it against the
 * system XXH64. */
static inline uint64_t bloom_hash_lane(uint64_t lane, uint64_t seed)
{
    const uint64_t p1 = UINT64_C(0x9E3779B185EBCA87), p2 = UINT64_C(0xC2B2AE3D27D4EB4F),
                   p3 = UINT64_C(0x165667B19E3779F9), p4 = UINT64_C(0x85EBCA77C2B2AE63),
                   p5 = UINT64_C(0x27D4EB2F165667C5);
    /* declarations first: PostgreSQL builds its code with
     * -Wdeclaration-after-statement and includes this header */
    uint64_t k = lane * p2, h;
    k = ((k << 31) | (k >> 33)) * p1;
    h = (seed + p5 + 8) ^ k;
    h = ((h << 27) | (h >> 37)) * p1 + p4;
    h ^= h >> 33;
    h *= p2;
    h ^= h >> 29;
    h *= p3;
    return h ^ (h >> 32);
}

/* Integers of every width and booleans: 8-byte little-endian int64, whose
 * lane is the value itself on every host. */
static inline uint64_t bloom_hash_int64(int64_t value, uint64_t seed)
{
    return bloom_hash_lane((uint64_t)value, seed);
}
/* Floating point: as int64 when integral and in range, else binary64 LE
 * (every NaN as 0x7ff8000000000000). */
uint64_t bloom_hash_double(double value, uint64_t seed);
/* The 8 canonical bytes of a double (what bloom_hash_double hashes). */
void bloom_canonical_double(double value, uint8_t out[8]);
void bloom_canonical_int64(int64_t value, uint8_t out[8]);

/* Ask the system to back the whole 2 MiB pages inside [ptr, ptr + size)
 * with huge pages where it can (Linux transparent huge pages); a no-op
 * elsewhere and for buffers without a whole huge page inside.
 * For callers that allocate large filters: first-touch page faults and TLB
 * misses dominate at that size. */
void bloom_advise_huge_pages(void *ptr, size_t size);

/* ---- the self-sizing builder ---- */

/*
 * Accepts hashes without knowing how many distinct values will come, then
 * yields a filter sized for the number of distinct hashes it saw, at the
 * target fpr.  It keeps the distinct hashes (8 bytes each, compacted by
 * sorting), so its memory grows with the data; the result depends only on
 * the set of hashes, so merged partial builders give bit-for-bit the filter
 * of one serial builder.  docs/FORMAT.md describes the method and its bounds.
 */
typedef struct bloom_builder bloom_builder;

bloom_status bloom_builder_create(const bloom_allocator *alloc, int layout, double fpr,
                                  uint64_t seed, bloom_builder **out, bloom_error *err);
void bloom_builder_destroy(bloom_builder *b);
bloom_status bloom_builder_add_hash(bloom_builder *b, uint64_t hash, bloom_error *err);
/* What a builder begins with: where its next hash may be written without a
 * call, and where that run ends (equal when every hash must go through
 * bloom_builder_add_hash).  Not to be touched but by the inline add below. */
typedef struct bloom_builder_run {
    uint64_t *next, *end;
} bloom_builder_run;
/* bloom_builder_add_hash, with its commonest case inline: when the values
 * are mostly distinct the builder takes hashes in runs of 64 and appends
 * them in a burst, and a call per value would be much of a hot loop's
 * cost. */
static inline bloom_status bloom_builder_add_hash_inline(bloom_builder *b, uint64_t hash,
                                                         bloom_error *err)
{
    bloom_builder_run *run = (bloom_builder_run *)(void *)b; /* its first member */
    if (run->next != run->end) {
        *run->next++ = hash;
        return BLOOM_OK;
    }
    return bloom_builder_add_hash(b, hash, err);
}
/* dst gains src's hashes; both must have the same layout, fpr and seed. */
bloom_status bloom_builder_merge(bloom_builder *dst, const bloom_builder *src, bloom_error *err);
/* Number of distinct hashes so far (compacts). */
bloom_status bloom_builder_distinct(bloom_builder *b, uint64_t *out, bloom_error *err);
int bloom_builder_layout(const bloom_builder *b);
double bloom_builder_fpr(const bloom_builder *b);
uint64_t bloom_builder_seed(const bloom_builder *b);
/* The classes of the values whose hashes the builder holds: the host
 * records each value's (bloom_kinds_add rules; adding a raw hash records
 * nothing), merge and the serialized state carry them, and the finished
 * filter stores them. */
void bloom_builder_add_kind(bloom_builder *b, unsigned cls, uint32_t type_oid);
bloom_kinds bloom_builder_kinds(const bloom_builder *b);

/* The serialized builder (docs/FORMAT.md "builder state"): for partial
 * aggregates that travel between processes. */
bloom_status bloom_builder_serialized_size(bloom_builder *b, size_t *out, bloom_error *err);
bloom_status bloom_builder_serialize(bloom_builder *b, void *buf, size_t len, bloom_error *err);
bloom_status bloom_builder_deserialize(const bloom_allocator *alloc, const void *buf, size_t len,
                                       bloom_builder **out, bloom_error *err);

/* The host's limits for the result: max_bytes as bloom_check_host_size (0:
 * the format's), checked before the builder allocates any candidate filter;
 * check_interrupts, when not NULL, is called between the steps of the long
 * loops of sizing and finishing (PostgreSQL's CHECK_FOR_INTERRUPTS, which
 * does not return when the query is cancelled). */
void bloom_builder_set_host(bloom_builder *b, uint64_t max_bytes, void (*check_interrupts)(void *),
                            void *interrupt_ctx);

/* Size of the final filter in bytes (compacts and sizes; call before
 * bloom_builder_finish to allocate its buffer). */
bloom_status bloom_builder_result_size(bloom_builder *b, size_t *out, bloom_error *err);
/* Write the final filter into buf (len from bloom_builder_result_size). */
bloom_status bloom_builder_finish(bloom_builder *b, void *buf, size_t len, bloom_filter *out,
                                  bloom_error *err);

BLOOM_HIDDEN_END

#ifdef __cplusplus
}
#endif

#endif
