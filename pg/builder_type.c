/*
 * builder_type.c - `bloom_builder`, the state type of bloom_agg(value).
 *
 * An ordinary type with text I/O ("\x" + hex of the core's serialized
 * builder state, docs/FORMAT.md), because distributed planners (Citus) move
 * partial aggregate states as text through the state type's output and
 * input functions, and never distribute an `internal` state.
 *
 * Inside PostgreSQL's own aggregation the state is an expanded object
 * holding a live core builder.  The transition function appends to it in
 * place and returns the same read-write pointer, so nodeAgg neither copies
 * nor flattens it per row; it is flattened (serialized) only when it leaves
 * the aggregate.
 *
 * Many groups (GROUP BY day, tenant, ...): nodeAgg keeps an expanded state
 * without copying it only when the object's context is a direct child of
 * the aggregate context, and a HashAggregate sums the memory of every child
 * context once per new group.  A context per group (8 KB at least) made
 * 10^5 groups cost 800 MB and a quadratic walk.  So the states of one
 * aggregate context share ONE child context, an arena: each object is
 * carved from it without a chunk header, and the core builder's first
 * allocations (its struct, an 8-slot front set) come from an inline area
 * of the object; only a group that grows past that allocates more.
 * Nothing of an arena is freed before the aggregate context is reset,
 * which deletes it whole.  Outside an aggregate an object keeps a context
 * of its own, as expanded objects usually do.
 */
#include "bloomfilter.h"

#include "utils/expandeddatum.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(bloom_builder_in);
PG_FUNCTION_INFO_V1(bloom_builder_out);
PG_FUNCTION_INFO_V1(bloom_builder_recv);
PG_FUNCTION_INFO_V1(bloom_builder_send);

/* Room for the core builder's struct and its first front set (8 slots):
 * a group of a few distinct values needs no other allocation. */
#define INLINE_BYTES 200

typedef struct BuilderObject
{
	ExpandedObjectHeader hdr;
	bloom_builder *builder;
	uint32		inline_used;
	/* MAXALIGNed: the header and the fields above are 64 bytes */
	char		inline_area[INLINE_BYTES] pg_attribute_aligned(MAXIMUM_ALIGNOF);
} BuilderObject;

/* The arena of one aggregate context: see the header comment. */
typedef struct BuilderArena
{
	MemoryContext aggctx;
	MemoryContext ctx;			/* child of aggctx; every object's eoh_context */
	char	   *cursor;			/* free space of the current block */
	Size		left;
	Size		next_block;
	struct BuilderArena *next;
	MemoryContextCallback on_delete;
} BuilderArena;

#define ARENA_FIRST_BLOCK ((Size) 2048)
#define ARENA_MAX_BLOCK ((Size) 64 * 1024)

/* ---- the core's allocator: the object's inline area, then its context ---- */

static void *
object_alloc(void *ctx, size_t size)
{
	BuilderObject *obj = (BuilderObject *) ctx;
	size_t		need = MAXALIGN(size);

	if (need <= INLINE_BYTES - obj->inline_used)
	{
		void	   *p = obj->inline_area + obj->inline_used;

		obj->inline_used += (uint32) need;
		return p;
	}
	return MemoryContextAllocExtended(obj->hdr.eoh_context, size,
									  MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void
object_release(void *ctx, void *ptr)
{
	BuilderObject *obj = (BuilderObject *) ctx;
	char	   *p = (char *) ptr;

	/* inline space is never reused: it goes with the object */
	if (p >= obj->inline_area && p < obj->inline_area + INLINE_BYTES)
		return;
	pfree(ptr);
}

static void
object_allocator(BuilderObject *obj, bloom_allocator *alloc)
{
	alloc->alloc = object_alloc;
	alloc->release = object_release;
	alloc->ctx = obj;
}

/* ---- arenas ---- */

/*
 * The live arenas of this backend, one per aggregate context.  Not in the
 * call site's fn_extra: Citus calls the transition and combine functions
 * through a new FmgrInfo for every row, so fn_extra lives one row, while
 * an arena lives as long as its aggregate context (whose reset callback
 * takes it off this list).
 */
static BuilderArena *live_arenas = NULL;

/* The aggregate context was reset or deleted, and the arena with it. */
static void
arena_deleted(void *arg)
{
	BuilderArena *arena = (BuilderArena *) arg;
	BuilderArena **link = &live_arenas;

	while (*link != NULL && *link != arena)
		link = &(*link)->next;
	if (*link != NULL)
		*link = arena->next;
}

/* The arena of aggctx, made on first use. */
static BuilderArena *
arena_for(MemoryContext aggctx)
{
	BuilderArena *arena;
	MemoryContext ctx;

	/* one arena per aggregate context: several live at once with grouping
	 * sets, nested or concurrent aggregates */
	for (arena = live_arenas; arena != NULL; arena = arena->next)
		if (arena->aggctx == aggctx)
			return arena;
	ctx = bloom_context_create(aggctx, "bloom_agg states", ALLOCSET_SMALL_SIZES);
	arena = MemoryContextAllocZero(ctx, sizeof(BuilderArena));
	arena->aggctx = aggctx;
	arena->ctx = ctx;
	arena->next_block = ARENA_FIRST_BLOCK;
	arena->next = live_arenas;
	arena->on_delete.func = arena_deleted;
	arena->on_delete.arg = arena;
	MemoryContextRegisterResetCallback(ctx, &arena->on_delete);
	live_arenas = arena;
	return arena;
}

static BuilderObject *
arena_object(BuilderArena *arena)
{
	Size		size = MAXALIGN(sizeof(BuilderObject));
	BuilderObject *obj;

	if (arena->left < size)
	{
		Size		block = Max(arena->next_block, size);

		arena->cursor = MemoryContextAlloc(arena->ctx, block);
		arena->left = block;
		if (arena->next_block < ARENA_MAX_BLOCK)
			arena->next_block *= 2;
	}
	obj = (BuilderObject *) arena->cursor;
	arena->cursor += size;
	arena->left -= size;
	return obj;
}

static const ExpandedObjectMethods builder_methods;

/*
 * A new, empty object: in the arena of aggctx when there is one (the
 * object then must never be deleted on its own), else in a context of its
 * own under CurrentMemoryContext.
 */
static BuilderObject *
object_new(FunctionCallInfo fcinfo, MemoryContext aggctx)
{
	BuilderObject *obj;
	MemoryContext ctx;

	(void) fcinfo;				/* arenas are per aggregate context, not per call site */
	if (aggctx != NULL)
	{
		BuilderArena *arena = arena_for(aggctx);

		obj = arena_object(arena);
		ctx = arena->ctx;
	}
	else
	{
		ctx = bloom_context_create(CurrentMemoryContext, "bloom_builder",
									ALLOCSET_SMALL_SIZES);
		obj = MemoryContextAlloc(ctx, sizeof(BuilderObject));
	}
	EOH_init_header(&obj->hdr, &builder_methods, ctx);
	obj->builder = NULL;
	obj->inline_used = 0;
	return obj;
}

bloom_builder *
bloom_builder_agg_state(Datum d, MemoryContext aggctx)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	BuilderObject *obj;

	if (!VARATT_IS_EXTERNAL_EXPANDED_RW(p))
		return NULL;
	obj = (BuilderObject *) DatumGetEOHP(d);
	if (obj->hdr.eoh_context->parent != aggctx)
		return NULL;
	return obj->builder;
}

static Size
builder_get_flat_size(ExpandedObjectHeader *eohptr)
{
	BuilderObject *obj = (BuilderObject *) eohptr;
	bloom_error err;
	size_t		size;

	if (bloom_builder_serialized_size(obj->builder, &size, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
	bloom_check_payload_size(size, "bloom_builder state");
	return VARHDRSZ + size;
}

static void
builder_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	BuilderObject *obj = (BuilderObject *) eohptr;
	bloom_error err;

	SET_VARSIZE(result, allocated_size);
	if (bloom_builder_serialize(obj->builder, VARDATA(result), allocated_size - VARHDRSZ,
								&err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
}

static const ExpandedObjectMethods builder_methods = {
	builder_get_flat_size,
	builder_flatten_into
};

Datum
bloom_builder_new_datum(FunctionCallInfo fcinfo, MemoryContext aggctx, int layout, double fpr,
						uint64 seed, bloom_builder **builder)
{
	BuilderObject *obj = object_new(fcinfo, aggctx);
	bloom_allocator alloc;
	bloom_error err;

	object_allocator(obj, &alloc);
	if (bloom_builder_create(&alloc, layout, fpr, seed, &obj->builder, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom_agg setting");
	*builder = obj->builder;
	return EOHPGetRWDatum(&obj->hdr);
}

/* Deserialize a flat state (validated: BLOOM_E_FORMAT is `source`). */
static bloom_builder *
deserialize(struct varlena *flat, const bloom_allocator *alloc, BloomSource source)
{
	bloom_error err;
	bloom_builder *b;

	if (bloom_builder_deserialize(alloc, VARDATA_ANY(flat), VARSIZE_ANY_EXHDR(flat), &b,
								  &err) != BLOOM_OK)
		bloom_raise(&err, source, "bloom_builder");
	return b;
}

static bloom_builder *
deserialize_here(struct varlena *flat, BloomSource source)
{
	bloom_allocator alloc;

	bloom_pg_allocator(&alloc, CurrentMemoryContext);
	return deserialize(flat, &alloc, source);
}

Datum
bloom_builder_writable(FunctionCallInfo fcinfo, Datum d, MemoryContext aggctx,
					   bloom_builder **builder)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	BuilderObject *obj;
	bloom_allocator alloc;

	if (VARATT_IS_EXTERNAL_EXPANDED(p))
	{
		BuilderObject *src = (BuilderObject *) DatumGetEOHP(d);
		bloom_error err;
		Datum		copy;

		if (VARATT_IS_EXTERNAL_EXPANDED_RW(p) &&
			MemoryContextGetParent(src->hdr.eoh_context) == aggctx)
		{
			*builder = src->builder;
			return d;
		}
		/* someone else's object: copy it by merging it into an empty one */
		copy = bloom_builder_new_datum(fcinfo, aggctx, bloom_builder_layout(src->builder),
									   bloom_builder_fpr(src->builder),
									   bloom_builder_seed(src->builder), builder);
		if (bloom_builder_merge(*builder, src->builder, &err) != BLOOM_OK)
			bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
		return copy;
	}
	obj = object_new(fcinfo, aggctx);
	object_allocator(obj, &alloc);
	obj->builder = deserialize(PG_DETOAST_DATUM_PACKED(d), &alloc, BLOOM_SOURCE_STORED);
	*builder = obj->builder;
	return EOHPGetRWDatum(&obj->hdr);
}

bloom_builder *
bloom_builder_peek(Datum d, bloom_builder **tmp)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);

	*tmp = NULL;
	if (VARATT_IS_EXTERNAL_EXPANDED(p))
		return ((BuilderObject *) DatumGetEOHP(d))->builder;
	*tmp = deserialize_here(PG_DETOAST_DATUM_PACKED(d), BLOOM_SOURCE_STORED);
	return *tmp;
}

void
bloom_builder_datum_add(Datum state, uint64 hash)
{
	BuilderObject *obj = (BuilderObject *) DatumGetEOHP(state);
	bloom_error err;

	if (bloom_builder_add_hash(obj->builder, hash, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_agg state");
}

/* ---- I/O: the serialized state, validated by the core on input ---- */

static struct varlena *
validated(struct varlena *flat, BloomSource source)
{
	bloom_builder_destroy(deserialize_here(flat, source));
	return flat;
}

Datum
bloom_builder_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(validated(bloom_text_decode(PG_GETARG_CSTRING(0), "bloom_builder"),
								BLOOM_SOURCE_TEXT));
}

Datum
bloom_builder_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(bloom_b64_out(PG_GETARG_DATUM(0)));
}

Datum
bloom_builder_recv(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(validated(bloom_recv_bytes((StringInfo) PG_GETARG_POINTER(0)),
								BLOOM_SOURCE_BINARY));
}

Datum
bloom_builder_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
}
