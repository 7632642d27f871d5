/*
 * builder_type.c - `bloom_builder`, the state type of bloom_agg(value).
 *
 * An ordinary type with text I/O ("\x" + hex of the core's serialized
 * builder state, docs/FORMAT.md), because distributed planners (Citus) move
 * partial aggregate states as text through the state type's output and
 * input functions, and never distribute an `internal` state.
 *
 * Inside PostgreSQL's own aggregation the state is an expanded object: a
 * live core builder in a memory context that is a child of the aggregate
 * context.  The transition function appends to it in place and returns the
 * same read-write pointer, so nodeAgg neither copies nor flattens it per
 * row; it is flattened (serialized) only when it leaves the aggregate.
 */
#include "bloomfilter.h"

#include "utils/expandeddatum.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(bloom_builder_in);
PG_FUNCTION_INFO_V1(bloom_builder_out);
PG_FUNCTION_INFO_V1(bloom_builder_recv);
PG_FUNCTION_INFO_V1(bloom_builder_send);

typedef struct BuilderObject
{
	ExpandedObjectHeader hdr;
	bloom_builder *builder;
} BuilderObject;

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

static BuilderObject *
object_new(MemoryContext parent)
{
	MemoryContext ctx = AllocSetContextCreate(parent, "bloom_builder",
											  ALLOCSET_DEFAULT_SIZES);
	BuilderObject *obj = MemoryContextAllocZero(ctx, sizeof(BuilderObject));

	EOH_init_header(&obj->hdr, &builder_methods, ctx);
	return obj;
}

Datum
bloom_builder_new_datum(MemoryContext parent, int layout, double fpr, uint64 seed,
						bloom_builder **builder)
{
	BuilderObject *obj = object_new(parent);
	bloom_allocator alloc;
	bloom_error err;

	bloom_pg_allocator(&alloc, obj->hdr.eoh_context);
	if (bloom_builder_create(&alloc, layout, fpr, seed, &obj->builder, &err) != BLOOM_OK)
		bloom_raise(&err, BLOOM_SOURCE_BINARY, "bloom_agg setting");
	*builder = obj->builder;
	return EOHPGetRWDatum(&obj->hdr);
}

/* Deserialize a flat state (validated: BLOOM_E_FORMAT is `source`). */
static bloom_builder *
deserialize(struct varlena *flat, MemoryContext ctx, BloomSource source)
{
	bloom_allocator alloc;
	bloom_error err;
	bloom_builder *b;

	bloom_pg_allocator(&alloc, ctx);
	if (bloom_builder_deserialize(&alloc, VARDATA_ANY(flat), VARSIZE_ANY_EXHDR(flat), &b,
								  &err) != BLOOM_OK)
		bloom_raise(&err, source, "bloom_builder");
	return b;
}

Datum
bloom_builder_writable(Datum d, MemoryContext parent, bloom_builder **builder)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	BuilderObject *obj;

	if (VARATT_IS_EXTERNAL_EXPANDED(p))
	{
		BuilderObject *src = (BuilderObject *) DatumGetEOHP(d);
		bloom_error err;
		Datum		copy;

		if (VARATT_IS_EXTERNAL_EXPANDED_RW(p) &&
			MemoryContextGetParent(src->hdr.eoh_context) == parent)
		{
			*builder = src->builder;
			return d;
		}
		/* someone else's object: copy it by merging it into an empty one */
		copy = bloom_builder_new_datum(parent, bloom_builder_layout(src->builder),
									   bloom_builder_fpr(src->builder),
									   bloom_builder_seed(src->builder), builder);
		if (bloom_builder_merge(*builder, src->builder, &err) != BLOOM_OK)
			bloom_raise(&err, BLOOM_SOURCE_STORED, "bloom_builder");
		return copy;
	}
	obj = object_new(parent);
	p = PG_DETOAST_DATUM_PACKED(d);
	obj->builder = deserialize(p, obj->hdr.eoh_context, BLOOM_SOURCE_STORED);
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
	*tmp = deserialize(PG_DETOAST_DATUM_PACKED(d), CurrentMemoryContext, BLOOM_SOURCE_STORED);
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
	bloom_builder_destroy(deserialize(flat, CurrentMemoryContext, source));
	return flat;
}

Datum
bloom_builder_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(validated(bloom_hex_decode(PG_GETARG_CSTRING(0), "bloom_builder"),
								BLOOM_SOURCE_TEXT));
}

Datum
bloom_builder_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(bloom_hex_out(PG_GETARG_DATUM(0)));
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
