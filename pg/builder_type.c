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
 * carved from it without a chunk header.  A group's first distinct hashes
 * (up to FEW_HASHES) are kept in the object itself, with the settings: the
 * core builder (its struct, 176 bytes, and a front set) is made only for a
 * group that outgrows them, or for a read of the state (its final
 * function works on a temporary one).  The set, and so every result, is
 * the same either way.  Nothing of an arena is freed before the aggregate
 * context is reset, which deletes it whole (the batched states of
 * bloom_agg(x, capacity, fpr) are carved from it too, for the same
 * reasons: fixed_agg_state.c).  Outside an aggregate an
 * object keeps a context of its own, as expanded objects usually do, and
 * its builder from the start.
 */
#include "bloomfilter.h"

#include "utils/expandeddatum.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(bloom_builder_in);
PG_FUNCTION_INFO_V1(bloom_builder_out);
PG_FUNCTION_INFO_V1(bloom_builder_recv);
PG_FUNCTION_INFO_V1(bloom_builder_send);

/* Distinct hashes an arena object holds before it needs a core builder:
 * the state of a small group of a GROUP BY is then 96 bytes (PostgreSQL's
 * hash table adds about 150 a group). */
#define FEW_HASHES 4
#define BUILT UINT32_MAX		/* nfew of an object whose builder holds the hashes */

/* The settings of the objects that have no builder yet, shared in their arena */
typedef struct BuilderSettings
{
	int			layout;
	double		fpr;
	uint64		seed;
	struct BuilderSettings *next;
} BuilderSettings;

typedef struct BuilderObject
{
	ExpandedObjectHeader hdr;
	const BuilderSettings *settings;	/* until the builder is made */
	uint32		nfew;			/* distinct hashes in u.few, or BUILT */
	bloom_kinds kinds;			/* of the few hashes' values (BUILT: the builder's) */
	union
	{
		uint64		few[FEW_HASHES];
		bloom_builder *builder;
	}			u;
} BuilderObject;

static inline bloom_builder *
object_core(const BuilderObject *obj)
{
	return obj->nfew == BUILT ? obj->u.builder : NULL;
}

/* The arena of one aggregate context: see the header comment. */
typedef struct BuilderArena
{
	MemoryContext aggctx;
	MemoryContext ctx;			/* child of aggctx; every object's eoh_context */
	char	   *cursor;			/* free space of the current block */
	Size		left;
	Size		next_block;
	BuilderSettings *settings;	/* every setting its objects were made with */
	struct BuilderArena *next;
	MemoryContextCallback on_delete;
} BuilderArena;

#define ARENA_FIRST_BLOCK ((Size) 2048)
#define ARENA_MAX_BLOCK ((Size) 64 * 1024)

/* ---- the core's allocator: the object's context ---- */

static void
object_allocator(BuilderObject *obj, bloom_allocator *alloc)
{
	bloom_pg_allocator(alloc, obj->hdr.eoh_context);
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

static void *
arena_alloc(BuilderArena *arena, Size size)
{
	void	   *p;

	size = MAXALIGN(size);

	if (arena->left < size)
	{
		Size		block = Max(arena->next_block, size);

		arena->cursor = MemoryContextAlloc(arena->ctx, block);
		arena->left = block;
		if (arena->next_block < ARENA_MAX_BLOCK)
			arena->next_block *= 2;
	}
	p = arena->cursor;
	arena->cursor += size;
	arena->left -= size;
	return p;
}

/* The arena's copy of these settings: objects point to it, not each a copy. */
static const BuilderSettings *
arena_settings(BuilderArena *arena, int layout, double fpr, uint64 seed)
{
	BuilderSettings *s;

	for (s = arena->settings; s != NULL; s = s->next)
		if (s->layout == layout && s->fpr == fpr && s->seed == seed)
			return s;
	s = arena_alloc(arena, sizeof(BuilderSettings));
	s->layout = layout;
	s->fpr = fpr;
	s->seed = seed;
	s->next = arena->settings;
	arena->settings = s;
	return s;
}

static const ExpandedObjectMethods builder_methods;

/*
 * A new, empty object: in the arena of aggctx when there is one (the
 * object then must never be deleted on its own), else in a context of its
 * own under CurrentMemoryContext.
 */
static BuilderObject *
object_new(FunctionCallInfo fcinfo, MemoryContext aggctx, BuilderArena **arena_out)
{
	BuilderObject *obj;
	MemoryContext ctx;

	(void) fcinfo;				/* arenas are per aggregate context, not per call site */
	*arena_out = NULL;
	if (aggctx != NULL)
	{
		BuilderArena *arena = arena_for(aggctx);

		obj = arena_alloc(arena, sizeof(BuilderObject));
		ctx = arena->ctx;
		*arena_out = arena;
	}
	else
	{
		ctx = bloom_context_create(CurrentMemoryContext, "bloom_builder",
									ALLOCSET_SMALL_SIZES);
		obj = MemoryContextAlloc(ctx, sizeof(BuilderObject));
	}
	EOH_init_header(&obj->hdr, &builder_methods, ctx);
	obj->settings = NULL;
	obj->nfew = 0;
	obj->kinds.mask = 0;
	obj->kinds.type_oid = 0;
	return obj;
}

/* b gains the classes of k. */
static void
builder_add_kinds(bloom_builder *b, bloom_kinds k)
{
	if (k.mask & ~BLOOM_KIND_TYPED)
		bloom_builder_add_kind(b, k.mask & ~BLOOM_KIND_TYPED, 0);
	if (k.mask & BLOOM_KIND_TYPED)
		bloom_builder_add_kind(b, BLOOM_KIND_TYPED, k.type_oid);
}

/* A core builder with the object's settings and few hashes, from alloc. */
static bloom_builder *
builder_of_few(const BuilderObject *obj, const bloom_allocator *alloc)
{
	bloom_builder *b;
	bloom_error err;

	if (bloom_builder_create(alloc, obj->settings->layout, obj->settings->fpr,
							 obj->settings->seed, &b, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom_agg setting");
	for (uint32 i = 0; i < obj->nfew; i++)
		if (bloom_builder_add_hash(b, obj->u.few[i], &err) != BLOOM_OK)
		{
			bloom_builder_destroy(b);
			bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_agg state");
		}
	builder_add_kinds(b, obj->kinds);
	return b;
}

/* The object's core builder, made from its few hashes if need be. */
static bloom_builder *
object_builder(BuilderObject *obj)
{
	if (obj->nfew != BUILT)
	{
		bloom_allocator alloc;
		bloom_builder *b;

		object_allocator(obj, &alloc);
		b = builder_of_few(obj, &alloc);
		obj->u.builder = b;
		obj->nfew = BUILT;
	}
	return obj->u.builder;
}

static void
object_set_builder(BuilderObject *obj, bloom_builder *b)
{
	obj->u.builder = b;
	obj->nfew = BUILT;
}

MemoryContext
bloom_agg_arena(MemoryContext aggctx)
{
	return arena_for(aggctx)->ctx;
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
	return object_core(obj);	/* NULL while it holds a few hashes */
}

static Size
builder_get_flat_size(ExpandedObjectHeader *eohptr)
{
	BuilderObject *obj = (BuilderObject *) eohptr;
	bloom_error err;
	size_t		size;

	if (bloom_builder_serialized_size(object_builder(obj), &size, &err) != BLOOM_OK)
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
	if (bloom_builder_serialize(object_builder(obj), VARDATA(result), allocated_size - VARHDRSZ,
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
	BuilderArena *arena;
	BuilderObject *obj = object_new(fcinfo, aggctx, &arena);
	bloom_error err;

	/* in an arena, a few hashes first; else, or with settings the builder
	 * refuses (it raises the error now), the builder */
	*builder = NULL;
	if (arena != NULL && bloom_layout_name(layout) != NULL && bloom_check_fpr(fpr, &err) == BLOOM_OK)
		obj->settings = arena_settings(arena, layout, fpr, seed);
	else
	{
		BuilderSettings settings = {layout, fpr, seed, NULL};

		obj->settings = &settings;
		*builder = object_builder(obj);
		obj->settings = NULL;
	}
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
	BuilderArena *arena;
	bloom_allocator alloc;

	if (VARATT_IS_EXTERNAL_EXPANDED(p))
	{
		BuilderObject *src = (BuilderObject *) DatumGetEOHP(d);
		bloom_error err;
		Datum		copy;

		if (VARATT_IS_EXTERNAL_EXPANDED_RW(p) &&
			MemoryContextGetParent(src->hdr.eoh_context) == aggctx)
		{
			*builder = object_core(src);
			return d;
		}
		/* someone else's object: copy it */
		if (src->nfew != BUILT)
		{
			copy = bloom_builder_new_datum(fcinfo, aggctx, src->settings->layout,
										   src->settings->fpr, src->settings->seed, builder);
			obj = (BuilderObject *) DatumGetEOHP(copy);
			for (uint32 i = 0; i < src->nfew; i++)
				bloom_builder_datum_add(copy, src->u.few[i]);
			if (obj->nfew == BUILT)
				builder_add_kinds(obj->u.builder, src->kinds);
			else
				obj->kinds = src->kinds;
		}
		else
		{
			copy = bloom_builder_new_datum(fcinfo, aggctx, bloom_builder_layout(src->u.builder),
										   bloom_builder_fpr(src->u.builder),
										   bloom_builder_seed(src->u.builder), builder);
			obj = (BuilderObject *) DatumGetEOHP(copy);
			if (bloom_builder_merge(object_builder(obj), src->u.builder, &err) != BLOOM_OK)
				bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
		}
		*builder = object_core(obj);
		return copy;
	}
	obj = object_new(fcinfo, aggctx, &arena);
	object_allocator(obj, &alloc);
	object_set_builder(obj, deserialize(PG_DETOAST_DATUM_PACKED(d), &alloc, BLOOM_SOURCE_STORED));
	*builder = object_core(obj);
	return EOHPGetRWDatum(&obj->hdr);
}

bloom_builder *
bloom_builder_peek(Datum d, bloom_builder **tmp)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);

	*tmp = NULL;
	if (VARATT_IS_EXTERNAL_EXPANDED(p))
	{
		BuilderObject *obj = (BuilderObject *) DatumGetEOHP(d);
		bloom_allocator alloc;

		if (obj->nfew == BUILT)
			return obj->u.builder;
		/* a few hashes: a temporary builder, so the arena does not grow */
		bloom_pg_allocator(&alloc, CurrentMemoryContext);
		*tmp = builder_of_few(obj, &alloc);
		return *tmp;
	}
	*tmp = deserialize_here(PG_DETOAST_DATUM_PACKED(d), BLOOM_SOURCE_STORED);
	return *tmp;
}

bloom_builder *
bloom_builder_datum_builder(Datum state)
{
	return object_builder((BuilderObject *) DatumGetEOHP(state));
}

uint64
bloom_builder_datum_seed(Datum state)
{
	BuilderObject *obj = (BuilderObject *) DatumGetEOHP(state);

	return obj->nfew == BUILT ? bloom_builder_seed(obj->u.builder) : obj->settings->seed;
}

void
bloom_builder_datum_add(Datum state, uint64 hash)
{
	BuilderObject *obj = (BuilderObject *) DatumGetEOHP(state);
	bloom_error err;

	if (obj->nfew != BUILT)
	{
		for (uint32 i = 0; i < obj->nfew; i++)
			if (obj->u.few[i] == hash)
				return;
		if (obj->nfew < FEW_HASHES)
		{
			obj->u.few[obj->nfew++] = hash;
			return;
		}
	}
	if (bloom_builder_add_hash(object_builder(obj), hash, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_agg state");
}

void
bloom_builder_datum_add_kind(Datum state, const BloomHasher *h)
{
	BuilderObject *obj = (BuilderObject *) DatumGetEOHP(state);

	if (obj->nfew == BUILT)
		bloom_builder_add_kind(obj->u.builder, h->value_class, h->class_oid);
	else
		bloom_kinds_add(&obj->kinds, h->value_class, h->class_oid);
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
