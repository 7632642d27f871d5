-- bloomfilter 1.0: Bloom filters as SQL values (docs/POSTGRESQL.md).
-- The payload of a `bloom` value is the core byte format (docs/FORMAT.md),
-- the same bytes the SQLite extension reads and writes.

\echo Use "CREATE EXTENSION bloomfilter" to load this file. \quit

-- ---------------------------------------------------------------------------
-- The type
-- ---------------------------------------------------------------------------

CREATE TYPE bloom;

CREATE FUNCTION bloom_in(cstring) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_out(bloom) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_recv(internal) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_send(bloom) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- STORAGE external: filters are high-entropy bit arrays that do not
-- compress, so skipping the compression attempt saves CPU on every write,
-- and uncompressed out-of-line values can be read by slices.
CREATE TYPE bloom (
    INPUT = bloom_in,
    OUTPUT = bloom_out,
    RECEIVE = bloom_recv,
    SEND = bloom_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);
COMMENT ON TYPE bloom IS 'Bloom filter: text form \x + hex of the bytes of docs/FORMAT.md';

-- bloom -> bytea is free (same bytes); bytea -> bloom validates.
CREATE CAST (bloom AS bytea) WITHOUT FUNCTION;
CREATE FUNCTION bloom(bytea) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom(bytea) IS 'cast bytea to bloom, validating every header field';
CREATE CAST (bytea AS bloom) WITH FUNCTION bloom(bytea);

-- Equality: same parameters and same bits (byte equality of valid filters).
CREATE FUNCTION bloom_eq(bloom, bloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_eq(bloom, bloom) IS 'true when both filters have the same parameters and bits';
CREATE FUNCTION bloom_ne(bloom, bloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_ne(bloom, bloom) IS 'negation of bloom_eq';
CREATE FUNCTION bloom_type_hash(bloom) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_type_hash(bloom) IS 'hash opclass support: hash of the filter bytes';
CREATE FUNCTION bloom_type_extended_hash(bloom, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_type_extended_hash(bloom, bigint) IS 'hash opclass support: seeded 64-bit hash of the filter bytes';

CREATE OPERATOR = (
    LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES
);
COMMENT ON OPERATOR =(bloom, bloom) IS 'same parameters and same bits';
CREATE OPERATOR <> (
    LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <>(bloom, bloom) IS 'different parameters or bits';

CREATE OPERATOR CLASS bloom_hash_ops DEFAULT FOR TYPE bloom USING hash AS
    OPERATOR 1 = (bloom, bloom),
    FUNCTION 1 bloom_type_hash(bloom),
    FUNCTION 2 bloom_type_extended_hash(bloom, bigint);

-- ---------------------------------------------------------------------------
-- Functions (same names and meanings as the SQLite extension)
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_empty(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0,
                            layout text DEFAULT 'classic') RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_empty(bigint, float8, bigint, text) IS
    'empty filter sized for capacity distinct values at false-positive rate fpr';

CREATE FUNCTION bloom_empty_mk(nbits bigint, nhashes integer, seed bigint DEFAULT 0,
                               layout text DEFAULT 'classic') RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_empty_mk(bigint, integer, bigint, text) IS
    'empty filter with nbits bits and nhashes hash functions';

-- Not STRICT: bloom_add(f, NULL) is f unchanged (and bloom_add(NULL, x) is NULL).
-- The text overloads make unknown-typed literals (bloom_add(f, 'abc')) resolve as text.
CREATE FUNCTION bloom_add(filter bloom, value anyelement) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, anyelement) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_add(filter bloom, value text) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, text) IS 'the filter with value added; a NULL value adds nothing';

CREATE FUNCTION bloom_contains(filter bloom, value anyelement) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains(bloom, anyelement) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION bloom_contains(filter bloom, value text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains(bloom, text) IS 'false when value is definitely absent, true when it may be present';

-- The commutator of @> (value <@ filter).
CREATE FUNCTION contained_in_bloom(value anyelement, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION contained_in_bloom(anyelement, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE FUNCTION contained_in_bloom(value text, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION contained_in_bloom(text, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';

CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = anyelement, PROCEDURE = bloom_contains,
                    COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, anyelement) IS 'filter may contain value';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = text, PROCEDURE = bloom_contains,
                    COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, text) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = anyelement, RIGHTARG = bloom, PROCEDURE = contained_in_bloom,
                    COMMUTATOR = @>);
COMMENT ON OPERATOR <@(anyelement, bloom) IS 'value may be in filter';
CREATE OPERATOR <@ (LEFTARG = text, RIGHTARG = bloom, PROCEDURE = contained_in_bloom,
                    COMMUTATOR = @>);
COMMENT ON OPERATOR <@(text, bloom) IS 'value may be in filter';

CREATE FUNCTION bloom_union(bloom, bloom) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_union(bloom, bloom) IS 'filter of the union of both sets (same parameters needed)';
CREATE OPERATOR | (LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_union, COMMUTATOR = |);
COMMENT ON OPERATOR |(bloom, bloom) IS 'bloom_union';

CREATE FUNCTION bloom_intersect(bloom, bloom) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_intersect(bloom, bloom) IS 'bitwise AND: contains every value of both sets (same parameters needed)';
CREATE OPERATOR & (LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_intersect, COMMUTATOR = &);
COMMENT ON OPERATOR &(bloom, bloom) IS 'bloom_intersect';

CREATE FUNCTION bloom_cardinality(bloom) RETURNS float8
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_cardinality(bloom) IS 'estimated number of distinct values added (Infinity when saturated)';
CREATE FUNCTION bloom_intersect_cardinality(bloom, bloom) RETURNS float8
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_intersect_cardinality(bloom, bloom) IS 'estimated number of distinct values in both sets';
CREATE FUNCTION bloom_jaccard(bloom, bloom) RETURNS float8
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_jaccard(bloom, bloom) IS 'estimated Jaccard similarity of both sets';
CREATE FUNCTION bloom_fpr(bloom) RETURNS float8
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_fpr(bloom) IS 'estimated current false-positive rate';

CREATE FUNCTION bloom_info(filter bloom,
    OUT layout text, OUT nbits bigint, OUT nhashes integer, OUT seed bigint,
    OUT nbytes bigint, OUT bits_set bigint, OUT fill float8,
    OUT est_cardinality float8, OUT est_fpr float8, OUT format_version integer)
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_info(bloom) IS 'parameters and estimates of a filter (nbytes: size of the bit array)';

CREATE FUNCTION bloom_hash(value anyelement, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(anyelement, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_hash(value text, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(text, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';

CREATE FUNCTION bloom_version() RETURNS text
    AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_version() IS 'version of the loaded bloomfilter library';

-- SQLite's bloom_ref passes a stored filter to bloom_contains by reference
-- instead of copying it per row; here a stored filter is already detoasted
-- once per call site, so bloom_ref is the filter itself (an inlined SQL
-- function): the same Bloom-join query text runs on both engines.
CREATE FUNCTION bloom_ref(bloom) RETURNS bloom
    AS 'SELECT $1' LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_ref(bloom) IS 'the filter itself, for Bloom-join queries written for both engines (in SQLite it avoids a per-row copy)';

CREATE FUNCTION bloom_from_parquet(bytea) RETURNS bloom
    AS 'MODULE_PATHNAME', 'pg_bloom_from_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_from_parquet(bytea) IS 'blocked filter from the bitset of a Parquet split-block Bloom filter';
CREATE FUNCTION bloom_to_parquet(bloom) RETURNS bytea
    AS 'MODULE_PATHNAME', 'pg_bloom_to_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_to_parquet(bloom) IS 'Parquet split-block bitset of a blocked filter with seed 0';

-- ---------------------------------------------------------------------------
-- Aggregates
-- ---------------------------------------------------------------------------

-- State of bloom_agg(value): the core's serialized builder (docs/FORMAT.md).
-- An ordinary type with text I/O so that partial states can travel as text
-- (Citus pushes down only such aggregates); inside PostgreSQL it is an
-- expanded object appended to in place.
CREATE TYPE bloom_builder;
CREATE FUNCTION bloom_builder_in(cstring) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_builder_out(bloom_builder) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_builder_recv(internal) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloom_builder_send(bloom_builder) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE bloom_builder (
    INPUT = bloom_builder_in,
    OUTPUT = bloom_builder_out,
    RECEIVE = bloom_builder_recv,
    SEND = bloom_builder_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = external
);
COMMENT ON TYPE bloom_builder IS 'partial state of bloom_agg(value): the distinct hashes seen';

CREATE FUNCTION bloom_agg_combine(bloom_builder, bloom_builder) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_combine(bloom_builder, bloom_builder) IS 'bloom_agg support: merge two partial states';
CREATE FUNCTION bloom_agg_final(bloom_builder) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_final(bloom_builder) IS 'bloom_agg support: the filter sized for the distinct values seen';

CREATE FUNCTION bloom_union_agg_trans(bloom, bloom) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_union_agg_trans(bloom, bloom) IS 'bloom_union_agg and bloom_agg(value, capacity, fpr) support: union into the state';
CREATE FUNCTION bloom_intersect_agg_trans(bloom, bloom) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_intersect_agg_trans(bloom, bloom) IS 'bloom_intersect_agg support: intersect into the state';

-- Concrete overloads besides anyelement: Citus rejects anyelement arguments at
-- run time, and distributes only aggregates whose state has text I/O.

CREATE FUNCTION bloom_agg_trans(bloom_builder, int2) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int2) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(int2) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int2) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int2, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int2, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(int2, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int2, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, int4) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int4) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(int4) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int4) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int4, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int4, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(int4, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int4, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, int8) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int8) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(int8) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int8) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int8, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int8, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(int8, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int8, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, numeric) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, numeric) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(numeric) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(numeric) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, numeric, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, numeric, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(numeric, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(numeric, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, float4) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, float4) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(float4) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(float4) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, float4, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, float4, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(float4, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(float4, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, float8) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, float8) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(float8) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(float8) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, float8, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, float8, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(float8, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(float8, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, text) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, text) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(text) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(text) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, text, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, text, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(text, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(text, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, bytea) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, bytea) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(bytea) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(bytea) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, bytea, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, bytea, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(bytea, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(bytea, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, uuid) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, uuid) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(uuid) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(uuid) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, uuid, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, uuid, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(uuid, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(uuid, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, date) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, date) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(date) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(date) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, date, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, date, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(date, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(date, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, timestamp) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, timestamp) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(timestamp) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(timestamp) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, timestamp, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, timestamp, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(timestamp, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(timestamp, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, timestamptz) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, timestamptz) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(timestamptz) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(timestamptz) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, timestamptz, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, timestamptz, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(timestamptz, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(timestamptz, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE FUNCTION bloom_agg_trans(bloom_builder, anyelement) RETURNS bloom_builder
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, anyelement) IS 'bloom_agg support: add a value to the state';
CREATE AGGREGATE bloom_agg(anyelement) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, anyelement, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, anyelement, bigint, float8) IS 'bloom_agg(value, capacity, fpr) support: add a value to the state';
CREATE AGGREGATE bloom_agg(anyelement, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';

CREATE AGGREGATE bloom_union_agg(bloom) (
    SFUNC = bloom_union_agg_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_union_agg(bloom) IS 'union of the non-NULL filters; NULL for no filters';

CREATE AGGREGATE bloom_intersect_agg(bloom) (
    SFUNC = bloom_intersect_agg_trans, STYPE = bloom,
    COMBINEFUNC = bloom_intersect_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_intersect_agg(bloom) IS 'intersection of the non-NULL filters; NULL for no filters';
