/*
 * bloomfilter.h - the PostgreSQL wrapper's shared declarations.
 *
 * The SQL type `bloom` is a varlena whose payload is exactly the core's byte
 * format (docs/FORMAT.md); `bloom_builder` is a varlena whose payload is the
 * core builder's serialized state.  Everything here is a thin layer: the
 * core validates, hashes, sizes and combines; this layer finds the bytes,
 * caches per call site and turns core statuses into ereport()s.
 */
#ifndef BLOOMFILTER_PG_H
#define BLOOMFILTER_PG_H

#include "compat.h"

#include "access/detoast.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/guc.h"
#include "bloom.h"

/* Our own helpers are called across files, never from outside: hidden, so
 * those calls are direct (PostgreSQL 15 exports everything by default; the
 * SQL-callable functions are declared apart, by PG_FUNCTION_INFO_V1). */
BLOOM_HIDDEN_BEGIN

/* AllocSetContextCreate() checks that its name is a constant with a GNU
 * statement expression, which clang's -Wpedantic reports where the macro is
 * used; __extension__ marks that one expression as intended. */
#define bloom_context_create(parent, name, ...) \
	(__extension__ AllocSetContextCreate(parent, name, __VA_ARGS__))

/* PostgreSQL's VARATT_EXTERNAL_IS_COMPRESSED, without its comparison of
 * signed with unsigned: stored in fewer bytes than the raw payload. */
static inline bool
bloom_toast_is_compressed(const struct varatt_external *toast)
{
	return VARATT_EXTERNAL_GET_EXTSIZE(*toast) < (uint32) (toast->va_rawsize - VARHDRSZ);
}

/* ---- settings (module.c) ---- */
extern double bloomfilter_default_fpr;
extern int bloomfilter_default_layout;
/* check hook of every rate setting (module.c): the open interval (0, 1) */
extern bool bloom_check_fpr_setting(double *newval, void **extra, GucSource source);

/*
 * Largest payload a varlena can carry: a builder state beyond it cannot be a
 * SQL value (PROGRAM_LIMIT_EXCEEDED).
 */
#define BLOOM_MAX_PAYLOAD ((Size) (MaxAllocSize - VARHDRSZ))

/*
 * Largest `bloom` value, the max_bytes the core checks every new or input
 * filter against: its text form ("\x" and two hex digits a byte, what COPY
 * and pg_dump write) must fit in one allocation (MaxAllocSize, 1 GB) with
 * room for the rest of the row, so every value the type accepts can be
 * dumped and restored.  32 bytes of header and 511 MiB of bits: nbits up to
 * 2^32 - 2^23 = 4,286,578,688.
 */
#define BLOOM_PG_MAX_FILTER_BYTES ((uint64) BLOOM_HEADER_SIZE + ((uint64) 511 << 20))

/* ---- errors (errors.c) ---- */

/*
 * Where the bytes being read came from; it decides the SQLSTATE of a format
 * error: text input, binary input (recv, bytea cast, Parquet), or a value
 * already stored as `bloom` that no longer validates.
 */
typedef enum BloomSource
{
	BLOOM_SOURCE_TEXT,
	BLOOM_SOURCE_BINARY,
	BLOOM_SOURCE_STORED
} BloomSource;

/*
 * Raise err as an ERROR.  `what` names the operation for a mismatch
 * ("union", "intersect", ...) and the object for the other statuses; it may
 * be NULL.  The core's message becomes the errdetail sentence.
 */
pg_noreturn extern void bloom_raise(const bloom_error *err, BloomSource source,
									const char *what);

/*
 * Raise the error of a union or intersection ("union", "intersect"): a
 * mismatch of parameters as bloom_raise does, an operation the layouts do
 * not have as "cannot <what> these bloom filters".
 */
pg_noreturn extern void bloom_raise_combine(const bloom_error *err, const char *what);

/* A core message as an errdetail sentence (capitalized, final period). */
extern char *bloom_sentence(const char *message);

/* Check a payload size against BLOOM_MAX_PAYLOAD (PROGRAM_LIMIT_EXCEEDED). */
extern void bloom_check_payload_size(uint64 size, const char *what);

/* The allocator the core's builder uses: palloc in ctx, huge allowed. */
extern void bloom_pg_allocator(bloom_allocator *alloc, MemoryContext ctx);

/*
 * bloom_add of n hashes to the writable filter value (a palloc'd varlena, f
 * viewing its payload): a scalable filter that grows a stage moves to a new
 * varlena in CurrentMemoryContext and value is freed.  Returns the value
 * holding the result, its length set.
 */
extern struct varlena *bloom_pg_insert(struct varlena *value, bloom_filter *f,
									   const uint64 *hashes, size_t n);

/* ---- text and binary forms shared by bloom and bloom_builder (type.c) ---- */
extern bytea *bloom_hex_decode(const char *str, const char *type_name);
/* \x + hex of a bloom or bloom_builder value (the output functions) */
extern char *bloom_hex_out(Datum value);
/*
 * The text form of bloom_builder states: "b64:" + base64 (4 characters per
 * 3 bytes, where hex takes 6); input also takes 1.0's "\x" + hex.
 */
extern char *bloom_b64_out(Datum value);
extern bytea *bloom_text_decode(const char *str, const char *type_name);
/* The rest of a binary message as a new varlena (not yet validated). */
extern struct varlena *bloom_recv_bytes(StringInfo buf);

/* ---- reading bloom arguments (type.c) ---- */

/*
 * Per-argument cache of a detoasted, validated filter.  A stored filter is
 * TOASTed; detoasting it per row costs milliseconds for a large filter, so
 * the detoasted copy is kept in fn_mcxt, keyed on the TOAST pointer (or on
 * the compressed bytes for an inline compressed value).
 */
typedef struct BloomArgCache
{
	bool		valid;
	bool		is_ondisk;		/* key is `toast`; else key is `raw` */
	varatt_external toast;
	struct varlena *raw;		/* copy of an inline compressed datum */
	void	   *flat;			/* detoasted value (or its aligned copy), in fn_mcxt */
	bloom_filter view;			/* parsed view of flat */
	/* the last plain (in-memory, uncompressed) value parsed here */
	const uint8 *plain_data;
	Size		plain_len;
	uint8		plain_header[BLOOM_HEADER_SIZE];
	bloom_filter plain_view;
	/* the last stored value probed in pieces (stored_probe.c): how many
	 * calls in a row saw it, and after how many it is read whole */
	bool		stored_valid;
	varatt_external stored_last;
	uint32		stored_repeats;
	uint32		stored_limit;
} BloomArgCache;

/* Validate the payload of a bloom datum; errors as DATA_CORRUPTED. */
extern void bloom_parse_stored(const void *data, Size len, bloom_filter *out);

/*
 * Filters from this size on are probed beyond the L2 cache, a memory miss
 * a probe: a cached whole copy of one is made cache-aligned
 * (bloom_parse_flat).
 */
#define BLOOM_PG_ALIGN_MIN_BYTES (1024 * 1024)

/*
 * Parse a detoasted filter.  One of BLOOM_PG_ALIGN_MIN_BYTES or more is
 * first copied into cxt with its bits on a cache line, in huge pages where
 * the kernel has them (a varlena's data is 4 bytes past an aligned address,
 * so half the 32-byte blocks of a blocked filter would straddle two lines,
 * and a big filter in small pages adds a TLB miss to most probes); flat is
 * then freed if free_flat.  Returns what holds the bits (flat or the copy).
 */
extern void *bloom_parse_flat(struct varlena *flat, bool free_flat, MemoryContext cxt,
							  bloom_filter *out);

/*
 * Read a filter value whole into cxt and parse it, as bloom_parse_flat lays
 * it out.  An uncompressed out-of-line value (the type's STORAGE external)
 * of BLOOM_PG_ALIGN_MIN_BYTES or more is fetched from its TOAST chunks
 * straight into the aligned copy: detoasting it first would fill a second
 * buffer as big, in small pages, only to copy it.  Others are detoasted.
 * Returns what holds the bits; *size, if size: the value's VARSIZE.
 */
extern void *bloom_read_whole(struct varlena *value, MemoryContext cxt, bloom_filter *out,
							  Size *size);

/* Raise the core's error, if any: bloom_raise(err, BLOOM_SOURCE_BINARY, what). */
static inline void
bloom_check(bloom_status status, const bloom_error *err, const char *what)
{
	if (unlikely(status != BLOOM_OK))
		bloom_raise(err, BLOOM_SOURCE_BINARY, what);
}

/*
 * Read argument argno (a bloom) read-only into *out.  cache may be NULL
 * (no caching: the value is detoasted in CurrentMemoryContext).
 */
extern void bloom_read_arg(FunctionCallInfo fcinfo, int argno, BloomArgCache *cache,
						   bloom_filter *out);

/*
 * Parse the payload of a plain in-memory value, skipping the work when it is
 * the value parsed last time at the same address with the same header (a
 * view depends only on the address, the length and the header).
 */
extern void bloom_parse_cached(BloomArgCache *cache, const void *data, Size len,
							   bloom_filter *out);

/* A writable copy of argument argno, palloc'd in CurrentMemoryContext. */
extern struct varlena *bloom_copy_arg(FunctionCallInfo fcinfo, int argno, bloom_filter *out);

/* A new zeroed varlena filter; *out views it. */
extern struct varlena *bloom_make(int layout, uint64 nbits, unsigned nhashes, uint64 seed,
								  bloom_filter *out);

/* Layout id for a layout name given as text (INVALID_PARAMETER_VALUE if unknown). */
extern int	bloom_layout_arg(text *name);

/* ---- canonical hashing of Datums (hashing.c) ---- */

typedef enum BloomHashKind
{
	BLOOM_HK_INT2,
	BLOOM_HK_INT4,
	BLOOM_HK_INT8,
	BLOOM_HK_BOOL,
	BLOOM_HK_OID,
	BLOOM_HK_FLOAT4,
	BLOOM_HK_FLOAT8,
	BLOOM_HK_NUMERIC,
	BLOOM_HK_TEXT,				/* text, varchar, bytea: the bytes */
	BLOOM_HK_BPCHAR,			/* without trailing blanks */
	BLOOM_HK_NAME,
	BLOOM_HK_SEND				/* bytes of the type's binary send function */
} BloomHashKind;

typedef struct BloomHasher
{
	Oid			typid;			/* the type as called (may be a domain) */
	BloomHashKind kind;
	FmgrInfo   *send;			/* for BLOOM_HK_SEND; owned by whoever set it up */
	/* the class a filter records for these values (BLOOM_KIND_*), and with
	 * BLOOM_KIND_TYPED the base type's OID when built-in (else 0) */
	uint8		value_class;
	Oid			class_oid;
} BloomHasher;

/* Record in f the class of a value of h about to be added (core
 * bloom_kinds_record). */
static inline void
bloom_record_kind(bloom_filter *f, const BloomHasher *h)
{
	bloom_kinds_record(f, h->value_class, h->class_oid);
}

/*
 * Set up a hasher for the type of argument argno: the type of its call
 * expression (in fn_mcxt), or without one the function's declared argument
 * type (a backend-lifetime hasher shared by all such calls).
 */
extern void bloom_hasher_init(BloomHasher *h, FunctionCallInfo fcinfo, int argno);
/* The same for a type known by oid (an array's element type); the send
 * function's FmgrInfo lives in mcxt. */
extern void bloom_hasher_init_type(BloomHasher *h, Oid typid, MemoryContext mcxt);
extern uint64 bloom_hash_datum(BloomHasher *h, Datum value, uint64 seed);

/* bloom_hash_datum with the integer kinds inlined. */
static inline uint64
bloom_hash_value(BloomHasher *h, Datum value, uint64 seed)
{
	if (h->kind == BLOOM_HK_INT8)
		return bloom_hash_int64(DatumGetInt64(value), seed);
	if (h->kind == BLOOM_HK_INT4)
		return bloom_hash_int64(DatumGetInt32(value), seed);
	return bloom_hash_datum(h, value, seed);
}

/* ---- a text probe read as the filter's values (text_probe.c) ---- */

/* The readings of the last text probed at a call site, in mcxt. */
typedef struct BloomTextProbe BloomTextProbe;
extern BloomTextProbe *bloom_text_probe_create(MemoryContext mcxt);

/* Whether a probe value of this hasher is read by the text-probe rule. */
static inline bool
bloom_is_text_probe(const BloomHasher *h)
{
	return h->value_class == BLOOM_KIND_TEXT;
}

/* Tests a hash against a filter (or a part of one, or many). */
typedef bool (*BloomHashTest) (void *ctx, uint64 hash);

/*
 * Whether a filter of these kinds and seed may hold the text probe value
 * (h a text-class hasher): test of the hash of each reading its kinds call
 * for, true at the first that passes (docs/HASHING.md, "What a text probe
 * checks").  Raises the filter's type's input error for a text that is not
 * of that type when it is the filter's only class, and DATATYPE_MISMATCH
 * when the filter's typed values are of several types and no other
 * reading passed.
 */
extern bool bloom_text_probe_test(BloomTextProbe *tp, const BloomHasher *h, Datum value,
								  bloom_kinds kinds, uint64 seed, BloomHashTest test, void *ctx);
extern bool bloom_text_probe_contains(BloomTextProbe *tp, const BloomHasher *h, Datum value,
									  const bloom_filter *f);

/* the batched state of bloom_agg(x, capacity, fpr), fixed_agg_state.c */
typedef struct BloomFixedAgg BloomFixedAgg;

/*
 * Everything a call site caches in fn_extra: up to two filter arguments
 * and the hasher of the value argument.
 */
typedef struct BloomCallCache
{
	BloomArgCache args[2];
	bool		hasher_ready;
	BloomHasher hasher;
	BloomTextProbe *text_probe; /* made at the first text probe */
	/* bloom_agg(value), and bloom_agg(x, capacity, fpr): the state of the
	 * last row, checked to be this aggregate's own, its builder, batched
	 * filter or flat filter (fixed_flat: then flat_view is its parsed
	 * header), and its seed */
	Datum		agg_state;
	bloom_builder *agg_builder;
	BloomFixedAgg *fixed_agg;
	bool		fixed_flat;
	bloom_filter flat_view;
	uint64		agg_seed;
	bloom_error agg_error;		/* off the per-row path's stack */
	/* bloom_agg(x, capacity, fpr): the last parameters and their sizing */
	bool		sizing_ready;
	int64		capacity;
	double		fpr;
	int			layout;
	uint64		nbits;
	unsigned	nhashes;
	/* bloom_union_agg_trans: the aggregate it serves (a BloomUnionRole),
	 * found on the first call */
	int			union_role;
} BloomCallCache;

extern BloomCallCache *bloom_call_cache_create(FunctionCallInfo fcinfo);

/* The call site's cache (fn_extra), made on first use. */
static inline BloomCallCache *
bloom_call_cache(FunctionCallInfo fcinfo)
{
	if (likely(fcinfo->flinfo->fn_extra != NULL))
		return (BloomCallCache *) fcinfo->flinfo->fn_extra;
	return bloom_call_cache_create(fcinfo);
}

static inline bool
bloom_same_toast_pointer(const varatt_external *a, const varatt_external *b)
{
	return a->va_valueid == b->va_valueid && a->va_toastrelid == b->va_toastrelid &&
		a->va_rawsize == b->va_rawsize && a->va_extinfo == b->va_extinfo;
}

/*
 * The per-row case of bloom_read_arg, inline: argument argno is the same
 * stored (TOASTed) filter as on the last call, whose parsed view is
 * returned; NULL in every other case.
 */
static inline const bloom_filter *
bloom_cached_stored_arg(FunctionCallInfo fcinfo, int argno, BloomArgCache *cache)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	varatt_external key;

	if (!cache->valid || !cache->is_ondisk || !VARATT_IS_EXTERNAL_ONDISK(p))
		return NULL;
	VARATT_EXTERNAL_GET_POINTER(key, p);
	return bloom_same_toast_pointer(&key, &cache->toast) ? &cache->view : NULL;
}

/* ---- probing a stored filter piecewise (stored_probe.c) ---- */

/*
 * When argument filter_arg is an out-of-line, uncompressed value not seen on
 * the last call, probe it for argument value_arg reading only the bytes the
 * probe needs, set *answer and return true; else return false (the caller
 * reads the value whole, and caches it).
 */
extern bool bloom_stored_contains(FunctionCallInfo fcinfo, int filter_arg, int value_arg,
								  BloomCallCache *cache, bool *answer);

/* The call site's text probe, made on first use. */
static inline BloomTextProbe *
bloom_call_text_probe(FunctionCallInfo fcinfo, BloomCallCache *cache)
{
	if (cache->text_probe == NULL)
		cache->text_probe = bloom_text_probe_create(fcinfo->flinfo->fn_mcxt);
	return cache->text_probe;
}

/* The hasher of argument argno, set up on first use. */
static inline BloomHasher *
bloom_call_hasher(FunctionCallInfo fcinfo, BloomCallCache *cache, int argno)
{
	if (!cache->hasher_ready)
	{
		bloom_hasher_init(&cache->hasher, fcinfo, argno);
		cache->hasher_ready = true;
	}
	return &cache->hasher;
}

/* ---- probes as the planner sees them (planner_support.c) ---- */

/*
 * Which argument of function funcid is the filter: 0 for bloom_contains
 * (and @>), 1 for contained_in_bloom (<@), -1 for any other function.
 */
extern int	bloom_probe_filter_argno(Oid funcid);

/* ---- the aggregate state type bloom_builder (builder_type.c) ---- */

/*
 * In an aggregate the state is an expanded object (utils/expandeddatum.h)
 * holding a live core builder, so a row costs one append, not a
 * re-serialization; it flattens to the serialized builder state whenever it
 * must become an ordinary value (a tuple, text output, a parallel worker's
 * result).  With aggctx (the aggregate context) the object lives in the
 * call site's arena for that context, shared by all groups; with NULL, in a
 * context of its own under CurrentMemoryContext.
 */
extern Datum bloom_builder_new_datum(FunctionCallInfo fcinfo, MemoryContext aggctx, int layout,
									 double fpr, uint64 seed, bloom_builder **builder);

/*
 * A read-write expanded state for d in the arena of aggctx (an aggregate
 * context): d itself when it already is one there, else a new copy.
 */
extern Datum bloom_builder_writable(FunctionCallInfo fcinfo, Datum d, MemoryContext aggctx,
									bloom_builder **builder);

/*
 * The builder of d when d is a read-write state of this aggregate (its
 * context a child of aggctx): the per-row fast path.
 * NULL otherwise.
 */
extern bloom_builder *bloom_builder_agg_state(Datum d, MemoryContext aggctx);

/* Add a hash to a state returned by the two functions above. */
extern void bloom_builder_datum_add(Datum state, uint64 hash);
/* Record the class of the values of h in such a state. */
extern void bloom_builder_datum_add_kind(Datum state, const BloomHasher *h);
/* The seed of such a state. */
extern uint64 bloom_builder_datum_seed(Datum state);
/* The core builder of such a state, made now if it held only a few hashes. */
extern bloom_builder *bloom_builder_datum_builder(Datum state);

/*
 * Read-only access to the builder in d; *tmp is set when one had to be
 * deserialized (free it with bloom_builder_destroy).
 */
extern bloom_builder *bloom_builder_peek(Datum d, bloom_builder **tmp);

/*
 * bloom_agg(value, capacity, fpr) over a classic or blocked filter of
 * 64 KiB or more (fixed_agg_state.c): in an aggregate its state is an
 * expanded `bloom` that adds its hashes a batch at a time, flattened with
 * every hash added.
 */
extern bool bloom_fixed_agg_batches(int layout, uint64 nbits);
/*
 * The context the aggregate states of aggctx are carved from
 * (builder_type.c): one child of aggctx for all its groups, deleted whole
 * when aggctx is reset.  nodeAgg keeps a read-write expanded state there
 * without copying it, and never deletes one that the transition function
 * returns unchanged.
 */
extern MemoryContext bloom_agg_arena(MemoryContext aggctx);
/* A new read-write state in aggctx, the filter empty; *obj its object. */
extern Datum bloom_fixed_agg_new(MemoryContext aggctx, int layout, uint64 nbits,
								 unsigned nhashes, BloomFixedAgg **obj);
/* The object of d when d is such a state of aggctx, else NULL. */
extern BloomFixedAgg *bloom_fixed_agg_of(Datum d, MemoryContext aggctx);
/* Its filter: the parameters and the bits so far, pending hashes aside. */
extern const bloom_filter *bloom_fixed_agg_filter(const BloomFixedAgg *obj);
extern void bloom_fixed_agg_add(BloomFixedAgg *obj, uint64 hash);
/* Record the class of the values of h in its filter. */
extern void bloom_fixed_agg_add_kind(BloomFixedAgg *obj, const BloomHasher *h);

BLOOM_HIDDEN_END

/*
 * The SQL functions behind bloom_contains, @> and <@ (functions.c), which
 * the planner's code compares a call's function against.  Declared outside
 * the hidden region: before PostgreSQL 16, PGDLLEXPORT is empty, and a
 * first declaration there would hide the symbols CREATE FUNCTION looks up.
 */
extern PGDLLEXPORT Datum bloom_contains(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum bloom_contained_in(PG_FUNCTION_ARGS);

#endif							/* BLOOMFILTER_PG_H */
