-- bloomfilter 1.1 -> 1.2.  CREATE EXTENSION bloomfilter installs 1.0 and runs
-- every upgrade script, so every object added since 1.1 is defined here, once.
-- The extension is trusted: this script may run as superuser for a
-- non-superuser; it holds DDL and comments only, no expression that names a
-- function or an operator.

\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.2'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Internals say so (docs/POSTGRESQL.md, "Naming"): an object a user never
-- calls by name has a name ending in its job (_in, _out, _recv, _send,
-- _trans, _final, _combine, _support; the hash and min/max support functions
-- follow PostgreSQL's own hashint4, int4smaller) and a comment that starts
-- with "internal:" and names what it supports.
-- ---------------------------------------------------------------------------

COMMENT ON FUNCTION bloom_in(cstring) IS 'internal: input function of type bloom (text form)';
COMMENT ON FUNCTION bloom_out(bloom) IS 'internal: output function of type bloom (text form)';
COMMENT ON FUNCTION bloom_recv(internal) IS 'internal: binary input function of type bloom';
COMMENT ON FUNCTION bloom_send(bloom) IS 'internal: binary output function of type bloom';
COMMENT ON TYPE bloom_builder IS 'internal: state of bloom_agg(value), the distinct hashes seen; text form for Citus';
COMMENT ON FUNCTION bloom_builder_in(cstring) IS 'internal: input function of type bloom_builder (text form)';
COMMENT ON FUNCTION bloom_builder_out(bloom_builder) IS 'internal: output function of type bloom_builder (text form)';
COMMENT ON FUNCTION bloom_builder_recv(internal) IS 'internal: binary input function of type bloom_builder';
COMMENT ON FUNCTION bloom_builder_send(bloom_builder) IS 'internal: binary output function of type bloom_builder';
COMMENT ON FUNCTION bloom_type_hash(bloom) IS 'internal: hash opclass support of type bloom, a hash of the filter bytes';
COMMENT ON FUNCTION bloom_type_extended_hash(bloom, bigint) IS
    'internal: hash opclass support of type bloom, a seeded 64-bit hash of the filter bytes';
COMMENT ON FUNCTION bloom_agg_combine(bloom_builder, bloom_builder) IS
    'internal: combine function of bloom_agg(value), merges two partial states';
COMMENT ON FUNCTION bloom_agg_final(bloom_builder) IS
    'internal: final function of bloom_agg(value), the filter sized for the distinct values seen';
COMMENT ON FUNCTION bloom_union_agg_trans(bloom, bloom) IS
    'internal: transition and combine function of bloom_union_agg, combine function of bloom_agg(value, capacity, fpr)';
COMMENT ON FUNCTION bloom_intersect_agg_trans(bloom, bloom) IS
    'internal: transition and combine function of bloom_intersect_agg';
COMMENT ON FUNCTION bloom_smaller(bloom, bloom) IS 'internal: transition and combine function of min(bloom)';
COMMENT ON FUNCTION bloom_larger(bloom, bloom) IS 'internal: transition and combine function of max(bloom)';
COMMENT ON FUNCTION bloom_contains_support(internal) IS
    'internal: planner support of bloom_contains and contained_in_bloom, loads the module and its batched probe scan before planning';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, anyelement) IS 'internal: transition function of bloom_agg(anyelement)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, anyelement, bigint, float8) IS
    'internal: transition function of bloom_agg(anyelement, capacity, fpr)';

-- ---------------------------------------------------------------------------
-- Counting and scalable filters (docs/FORMAT.md: layouts 2 and 3, which
-- bloom_empty and bloomfilter.default_layout name): removing a value from a
-- counting filter, and the classic filter of a counting filter's set.
-- bloom_remove has an overload per type below, as every value-taking
-- function.
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_remove(filter bloom, value anyelement) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, anyelement) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_to_classic(filter bloom) RETURNS bloom
    AS 'MODULE_PATHNAME', 'pg_bloom_to_classic' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_to_classic(bloom) IS
    'the classic filter of a counting filter''s set: same nbits, nhashes and seed, a bit where a counter is not zero';

-- ---------------------------------------------------------------------------
-- Overloads of every value-taking function, operator and aggregate for every
-- type of tools/overloads.py's list (docs/POSTGRESQL.md, "Types with their
-- own overloads"):
--   - an exact-type call resolves to the extension's own object: an overload
--     of that type in another schema of the search_path, even one listed
--     after the extension's, no longer beats an anyelement or anyarray one;
--   - Citus distributes bloom_agg of every such type: its worker checks that
--     the aggregate's declared argument types are the value's, and the
--     transition function learns the type from its own declaration.
-- Each overload is its anyelement sibling with a concrete type: the same C
-- function, volatility, strictness, parallel safety, support function and
-- comment, so a value hashes exactly as before (sql/bloom_overloads.sql and
-- tools/suites/60-upgrade.sh compare the two paths for every type).
-- ---------------------------------------------------------------------------

-- BEGIN generated by tools/overloads.py: overloads
-- bool
CREATE FUNCTION bloom_add(filter bloom, value bool) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, bool) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value bool) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, bool) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value bool, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(bool, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = bool, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, bool) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = bool, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(bool, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value bool, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(bool, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value bool) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, bool) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals bool[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, bool[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals bool[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, bool[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals bool[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, bool[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, bool) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(bool) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(bool) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, bool, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(bool, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(bool, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, bool) IS 'internal: transition function of bloom_agg(bool)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, bool, bigint, float8) IS
    'internal: transition function of bloom_agg(bool, capacity, fpr)';
-- int2
CREATE FUNCTION bloom_add(filter bloom, value int2) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int2) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int2) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int2) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int2, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int2, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int2, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int2) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int2, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int2, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int2, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int2, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int2) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int2) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int2[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int2[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int2[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int2[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int2[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int2[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int2) IS 'internal: transition function of bloom_agg(int2)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int2, bigint, float8) IS
    'internal: transition function of bloom_agg(int2, capacity, fpr)';
-- int4
CREATE FUNCTION bloom_add(filter bloom, value int4) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int4) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int4) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int4) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int4, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int4, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int4, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int4) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int4, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int4, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int4, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int4, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int4) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int4) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int4[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int4[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int4[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int4[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int4[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int4[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int4) IS 'internal: transition function of bloom_agg(int4)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int4, bigint, float8) IS
    'internal: transition function of bloom_agg(int4, capacity, fpr)';
-- int8
CREATE FUNCTION bloom_add(filter bloom, value int8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int8) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int8) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int8) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int8, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int8, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int8, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int8) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int8, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int8, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int8, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int8, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int8) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int8[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int8[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int8[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int8[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int8) IS 'internal: transition function of bloom_agg(int8)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int8, bigint, float8) IS
    'internal: transition function of bloom_agg(int8, capacity, fpr)';
-- oid
CREATE FUNCTION bloom_add(filter bloom, value oid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, oid) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value oid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, oid) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value oid, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(oid, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = oid, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, oid) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = oid, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(oid, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value oid, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(oid, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value oid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, oid) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals oid[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, oid[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals oid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, oid[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals oid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, oid[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, oid) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(oid) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(oid) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, oid, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(oid, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(oid, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, oid) IS 'internal: transition function of bloom_agg(oid)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, oid, bigint, float8) IS
    'internal: transition function of bloom_agg(oid, capacity, fpr)';
-- float4
CREATE FUNCTION bloom_add(filter bloom, value float4) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, float4) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value float4) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, float4) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value float4, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(float4, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = float4, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, float4) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = float4, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(float4, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value float4, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(float4, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value float4) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, float4) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals float4[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, float4[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals float4[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, float4[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals float4[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, float4[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, float4) IS 'internal: transition function of bloom_agg(float4)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, float4, bigint, float8) IS
    'internal: transition function of bloom_agg(float4, capacity, fpr)';
-- float8
CREATE FUNCTION bloom_add(filter bloom, value float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, float8) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value float8) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, float8) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value float8, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(float8, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = float8, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, float8) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = float8, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(float8, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value float8, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(float8, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, float8) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals float8[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, float8[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals float8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, float8[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals float8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, float8[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, float8) IS 'internal: transition function of bloom_agg(float8)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, float8, bigint, float8) IS
    'internal: transition function of bloom_agg(float8, capacity, fpr)';
-- numeric
CREATE FUNCTION bloom_add(filter bloom, value numeric) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, numeric) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value numeric) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, numeric) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value numeric, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(numeric, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = numeric, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, numeric) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = numeric, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(numeric, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value numeric, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(numeric, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value numeric) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, numeric) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals numeric[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, numeric[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals numeric[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, numeric[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals numeric[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, numeric[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, numeric) IS 'internal: transition function of bloom_agg(numeric)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, numeric, bigint, float8) IS
    'internal: transition function of bloom_agg(numeric, capacity, fpr)';
-- text
CREATE FUNCTION bloom_remove(filter bloom, value text) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, text) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals text[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, text[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals text[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, text[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals text[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, text[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, text) IS 'internal: transition function of bloom_agg(text)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, text, bigint, float8) IS
    'internal: transition function of bloom_agg(text, capacity, fpr)';
-- varchar
CREATE FUNCTION bloom_add(filter bloom, value varchar) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, varchar) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value varchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, varchar) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value varchar, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(varchar, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = varchar, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, varchar) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = varchar, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(varchar, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value varchar, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(varchar, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value varchar) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, varchar) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals varchar[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, varchar[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals varchar[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, varchar[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals varchar[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, varchar[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, varchar) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(varchar) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(varchar) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, varchar, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(varchar, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(varchar, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, varchar) IS 'internal: transition function of bloom_agg(varchar)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, varchar, bigint, float8) IS
    'internal: transition function of bloom_agg(varchar, capacity, fpr)';
-- bpchar
CREATE FUNCTION bloom_add(filter bloom, value bpchar) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, bpchar) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value bpchar) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, bpchar) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value bpchar, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(bpchar, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = bpchar, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, bpchar) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = bpchar, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(bpchar, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value bpchar, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(bpchar, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value bpchar) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, bpchar) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals bpchar[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, bpchar[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals bpchar[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, bpchar[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals bpchar[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, bpchar[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, bpchar) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(bpchar) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(bpchar) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, bpchar, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(bpchar, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(bpchar, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, bpchar) IS 'internal: transition function of bloom_agg(bpchar)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, bpchar, bigint, float8) IS
    'internal: transition function of bloom_agg(bpchar, capacity, fpr)';
-- name
CREATE FUNCTION bloom_add(filter bloom, value name) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, name) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value name) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, name) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value name, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(name, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = name, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, name) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = name, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(name, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value name, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(name, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value name) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, name) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals name[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, name[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals name[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, name[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals name[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, name[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, name) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(name) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(name) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, name, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(name, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(name, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, name) IS 'internal: transition function of bloom_agg(name)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, name, bigint, float8) IS
    'internal: transition function of bloom_agg(name, capacity, fpr)';
-- "char"
CREATE FUNCTION bloom_add(filter bloom, value "char") RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, "char") IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value "char") RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, "char") IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value "char", filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom("char", bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = "char", FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, "char") IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = "char", RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@("char", bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value "char", seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash("char", bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value "char") RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, "char") IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals "char"[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, "char"[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals "char"[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, "char"[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals "char"[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, "char"[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, "char") RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg("char") (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg("char") IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, "char", bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg("char", capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg("char", bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, "char") IS 'internal: transition function of bloom_agg("char")';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, "char", bigint, float8) IS
    'internal: transition function of bloom_agg("char", capacity, fpr)';
-- bytea
CREATE FUNCTION bloom_add(filter bloom, value bytea) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, bytea) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value bytea) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, bytea) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value bytea, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(bytea, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = bytea, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, bytea) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = bytea, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(bytea, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value bytea, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(bytea, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value bytea) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, bytea) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals bytea[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, bytea[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals bytea[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, bytea[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals bytea[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, bytea[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, bytea) IS 'internal: transition function of bloom_agg(bytea)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, bytea, bigint, float8) IS
    'internal: transition function of bloom_agg(bytea, capacity, fpr)';
-- uuid
CREATE FUNCTION bloom_add(filter bloom, value uuid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, uuid) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, uuid) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value uuid, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(uuid, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = uuid, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, uuid) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = uuid, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(uuid, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value uuid, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(uuid, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value uuid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, uuid) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals uuid[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, uuid[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals uuid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, uuid[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals uuid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, uuid[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, uuid) IS 'internal: transition function of bloom_agg(uuid)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, uuid, bigint, float8) IS
    'internal: transition function of bloom_agg(uuid, capacity, fpr)';
-- date
CREATE FUNCTION bloom_add(filter bloom, value date) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, date) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value date) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, date) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value date, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(date, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = date, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, date) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = date, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(date, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value date, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(date, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value date) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, date) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals date[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, date[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals date[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, date[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals date[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, date[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, date) IS 'internal: transition function of bloom_agg(date)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, date, bigint, float8) IS
    'internal: transition function of bloom_agg(date, capacity, fpr)';
-- time
CREATE FUNCTION bloom_add(filter bloom, value time) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, time) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value time) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, time) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value time, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(time, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = time, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, time) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = time, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(time, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value time, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(time, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value time) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, time) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals time[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, time[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals time[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, time[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals time[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, time[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, time) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(time) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(time) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, time, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(time, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(time, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, time) IS 'internal: transition function of bloom_agg(time)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, time, bigint, float8) IS
    'internal: transition function of bloom_agg(time, capacity, fpr)';
-- timetz
CREATE FUNCTION bloom_add(filter bloom, value timetz) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, timetz) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value timetz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, timetz) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value timetz, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(timetz, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = timetz, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, timetz) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = timetz, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(timetz, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value timetz, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(timetz, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value timetz) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, timetz) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals timetz[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, timetz[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals timetz[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, timetz[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals timetz[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, timetz[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, timetz) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(timetz) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(timetz) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, timetz, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(timetz, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(timetz, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, timetz) IS 'internal: transition function of bloom_agg(timetz)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, timetz, bigint, float8) IS
    'internal: transition function of bloom_agg(timetz, capacity, fpr)';
-- timestamp
CREATE FUNCTION bloom_add(filter bloom, value timestamp) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, timestamp) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value timestamp) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, timestamp) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value timestamp, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(timestamp, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = timestamp, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, timestamp) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = timestamp, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(timestamp, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value timestamp, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(timestamp, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value timestamp) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, timestamp) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals timestamp[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, timestamp[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals timestamp[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, timestamp[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals timestamp[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, timestamp[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, timestamp) IS 'internal: transition function of bloom_agg(timestamp)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, timestamp, bigint, float8) IS
    'internal: transition function of bloom_agg(timestamp, capacity, fpr)';
-- timestamptz
CREATE FUNCTION bloom_add(filter bloom, value timestamptz) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, timestamptz) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, timestamptz) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value timestamptz, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(timestamptz, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = timestamptz, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, timestamptz) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = timestamptz, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(timestamptz, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value timestamptz, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(timestamptz, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value timestamptz) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, timestamptz) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals timestamptz[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, timestamptz[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals timestamptz[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, timestamptz[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals timestamptz[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, timestamptz[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, timestamptz) IS 'internal: transition function of bloom_agg(timestamptz)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, timestamptz, bigint, float8) IS
    'internal: transition function of bloom_agg(timestamptz, capacity, fpr)';
-- interval
CREATE FUNCTION bloom_add(filter bloom, value interval) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, interval) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value interval) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, interval) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value interval, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(interval, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = interval, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, interval) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = interval, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(interval, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value interval, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(interval, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value interval) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, interval) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals interval[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, interval[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals interval[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, interval[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals interval[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, interval[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, interval) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(interval) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(interval) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, interval, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(interval, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(interval, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, interval) IS 'internal: transition function of bloom_agg(interval)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, interval, bigint, float8) IS
    'internal: transition function of bloom_agg(interval, capacity, fpr)';
-- inet
CREATE FUNCTION bloom_add(filter bloom, value inet) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, inet) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value inet) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, inet) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value inet, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(inet, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = inet, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, inet) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = inet, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(inet, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value inet, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(inet, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value inet) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, inet) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals inet[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, inet[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals inet[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, inet[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals inet[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, inet[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, inet) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(inet) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(inet) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, inet, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(inet, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(inet, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, inet) IS 'internal: transition function of bloom_agg(inet)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, inet, bigint, float8) IS
    'internal: transition function of bloom_agg(inet, capacity, fpr)';
-- cidr
CREATE FUNCTION bloom_add(filter bloom, value cidr) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, cidr) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value cidr) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, cidr) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value cidr, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(cidr, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = cidr, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, cidr) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = cidr, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(cidr, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value cidr, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(cidr, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value cidr) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, cidr) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals cidr[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, cidr[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals cidr[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, cidr[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals cidr[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, cidr[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, cidr) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(cidr) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(cidr) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, cidr, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(cidr, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(cidr, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, cidr) IS 'internal: transition function of bloom_agg(cidr)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, cidr, bigint, float8) IS
    'internal: transition function of bloom_agg(cidr, capacity, fpr)';
-- macaddr
CREATE FUNCTION bloom_add(filter bloom, value macaddr) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, macaddr) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value macaddr) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, macaddr) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value macaddr, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(macaddr, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = macaddr, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, macaddr) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = macaddr, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(macaddr, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value macaddr, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(macaddr, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value macaddr) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, macaddr) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals macaddr[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, macaddr[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals macaddr[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, macaddr[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals macaddr[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, macaddr[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, macaddr) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(macaddr) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(macaddr) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, macaddr, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(macaddr, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(macaddr, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, macaddr) IS 'internal: transition function of bloom_agg(macaddr)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, macaddr, bigint, float8) IS
    'internal: transition function of bloom_agg(macaddr, capacity, fpr)';
-- macaddr8
CREATE FUNCTION bloom_add(filter bloom, value macaddr8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, macaddr8) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value macaddr8) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, macaddr8) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value macaddr8, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(macaddr8, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = macaddr8, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, macaddr8) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = macaddr8, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(macaddr8, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value macaddr8, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(macaddr8, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value macaddr8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, macaddr8) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals macaddr8[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, macaddr8[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals macaddr8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, macaddr8[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals macaddr8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, macaddr8[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, macaddr8) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(macaddr8) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(macaddr8) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, macaddr8, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(macaddr8, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(macaddr8, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, macaddr8) IS 'internal: transition function of bloom_agg(macaddr8)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, macaddr8, bigint, float8) IS
    'internal: transition function of bloom_agg(macaddr8, capacity, fpr)';
-- jsonb
CREATE FUNCTION bloom_add(filter bloom, value jsonb) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, jsonb) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value jsonb) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, jsonb) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value jsonb, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(jsonb, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = jsonb, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, jsonb) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = jsonb, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(jsonb, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value jsonb, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(jsonb, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value jsonb) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, jsonb) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals jsonb[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, jsonb[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals jsonb[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, jsonb[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals jsonb[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, jsonb[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, jsonb) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(jsonb) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(jsonb) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, jsonb, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(jsonb, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(jsonb, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, jsonb) IS 'internal: transition function of bloom_agg(jsonb)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, jsonb, bigint, float8) IS
    'internal: transition function of bloom_agg(jsonb, capacity, fpr)';
-- pg_lsn
CREATE FUNCTION bloom_add(filter bloom, value pg_lsn) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, pg_lsn) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value pg_lsn) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, pg_lsn) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value pg_lsn, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(pg_lsn, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = pg_lsn, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, pg_lsn) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = pg_lsn, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(pg_lsn, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value pg_lsn, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(pg_lsn, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value pg_lsn) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, pg_lsn) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals pg_lsn[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, pg_lsn[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals pg_lsn[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, pg_lsn[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals pg_lsn[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, pg_lsn[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, pg_lsn) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(pg_lsn) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(pg_lsn) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, pg_lsn, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(pg_lsn, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(pg_lsn, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, pg_lsn) IS 'internal: transition function of bloom_agg(pg_lsn)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, pg_lsn, bigint, float8) IS
    'internal: transition function of bloom_agg(pg_lsn, capacity, fpr)';
-- xid
CREATE FUNCTION bloom_add(filter bloom, value xid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, xid) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value xid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, xid) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value xid, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(xid, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = xid, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, xid) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = xid, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(xid, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value xid, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(xid, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value xid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, xid) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals xid[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, xid[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals xid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, xid[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals xid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, xid[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, xid) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(xid) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(xid) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, xid, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(xid, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(xid, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, xid) IS 'internal: transition function of bloom_agg(xid)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, xid, bigint, float8) IS
    'internal: transition function of bloom_agg(xid, capacity, fpr)';
-- xid8
CREATE FUNCTION bloom_add(filter bloom, value xid8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, xid8) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value xid8) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, xid8) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value xid8, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(xid8, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = xid8, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, xid8) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = xid8, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(xid8, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value xid8, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(xid8, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value xid8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, xid8) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals xid8[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, xid8[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals xid8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, xid8[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals xid8[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, xid8[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, xid8) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(xid8) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(xid8) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, xid8, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(xid8, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(xid8, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, xid8) IS 'internal: transition function of bloom_agg(xid8)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, xid8, bigint, float8) IS
    'internal: transition function of bloom_agg(xid8, capacity, fpr)';
-- cid
CREATE FUNCTION bloom_add(filter bloom, value cid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, cid) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value cid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, cid) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value cid, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(cid, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = cid, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, cid) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = cid, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(cid, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value cid, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(cid, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value cid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, cid) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals cid[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, cid[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals cid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, cid[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals cid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, cid[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, cid) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(cid) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(cid) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, cid, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(cid, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(cid, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, cid) IS 'internal: transition function of bloom_agg(cid)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, cid, bigint, float8) IS
    'internal: transition function of bloom_agg(cid, capacity, fpr)';
-- tid
CREATE FUNCTION bloom_add(filter bloom, value tid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, tid) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value tid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, tid) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value tid, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(tid, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = tid, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, tid) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = tid, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(tid, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value tid, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(tid, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value tid) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, tid) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals tid[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, tid[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals tid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, tid[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals tid[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, tid[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, tid) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tid) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tid) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, tid, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tid, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tid, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, tid) IS 'internal: transition function of bloom_agg(tid)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, tid, bigint, float8) IS
    'internal: transition function of bloom_agg(tid, capacity, fpr)';
-- oidvector
CREATE FUNCTION bloom_add(filter bloom, value oidvector) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, oidvector) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value oidvector) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, oidvector) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value oidvector, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(oidvector, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = oidvector, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, oidvector) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = oidvector, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(oidvector, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value oidvector, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(oidvector, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value oidvector) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, oidvector) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals oidvector[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, oidvector[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals oidvector[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, oidvector[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals oidvector[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, oidvector[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, oidvector) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(oidvector) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(oidvector) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, oidvector, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(oidvector, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(oidvector, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, oidvector) IS 'internal: transition function of bloom_agg(oidvector)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, oidvector, bigint, float8) IS
    'internal: transition function of bloom_agg(oidvector, capacity, fpr)';
-- regproc
CREATE FUNCTION bloom_add(filter bloom, value regproc) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regproc) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regproc) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regproc) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regproc, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regproc, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regproc, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regproc) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regproc, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regproc, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regproc, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regproc, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regproc) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regproc) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regproc[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regproc[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regproc[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regproc[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regproc[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regproc[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regproc) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regproc) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regproc) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regproc, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regproc, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regproc, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regproc) IS 'internal: transition function of bloom_agg(regproc)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regproc, bigint, float8) IS
    'internal: transition function of bloom_agg(regproc, capacity, fpr)';
-- regprocedure
CREATE FUNCTION bloom_add(filter bloom, value regprocedure) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regprocedure) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regprocedure) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regprocedure) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regprocedure, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regprocedure, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regprocedure, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regprocedure) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regprocedure, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regprocedure, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regprocedure, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regprocedure, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regprocedure) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regprocedure) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regprocedure[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regprocedure[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regprocedure[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regprocedure[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regprocedure[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regprocedure[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regprocedure) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regprocedure) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regprocedure) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regprocedure, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regprocedure, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regprocedure, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regprocedure) IS 'internal: transition function of bloom_agg(regprocedure)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regprocedure, bigint, float8) IS
    'internal: transition function of bloom_agg(regprocedure, capacity, fpr)';
-- regoper
CREATE FUNCTION bloom_add(filter bloom, value regoper) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regoper) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regoper) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regoper) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regoper, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regoper, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regoper, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regoper) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regoper, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regoper, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regoper, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regoper, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regoper) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regoper) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regoper[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regoper[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regoper[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regoper[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regoper[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regoper[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regoper) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regoper) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regoper) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regoper, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regoper, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regoper, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regoper) IS 'internal: transition function of bloom_agg(regoper)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regoper, bigint, float8) IS
    'internal: transition function of bloom_agg(regoper, capacity, fpr)';
-- regoperator
CREATE FUNCTION bloom_add(filter bloom, value regoperator) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regoperator) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regoperator) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regoperator) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regoperator, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regoperator, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regoperator, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regoperator) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regoperator, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regoperator, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regoperator, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regoperator, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regoperator) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regoperator) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regoperator[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regoperator[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regoperator[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regoperator[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regoperator[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regoperator[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regoperator) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regoperator) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regoperator) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regoperator, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regoperator, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regoperator, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regoperator) IS 'internal: transition function of bloom_agg(regoperator)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regoperator, bigint, float8) IS
    'internal: transition function of bloom_agg(regoperator, capacity, fpr)';
-- regclass
CREATE FUNCTION bloom_add(filter bloom, value regclass) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regclass) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regclass) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regclass) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regclass, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regclass, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regclass, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regclass) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regclass, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regclass, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regclass, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regclass, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regclass) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regclass) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regclass[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regclass[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regclass[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regclass[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regclass[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regclass[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regclass) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regclass) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regclass) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regclass, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regclass, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regclass, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regclass) IS 'internal: transition function of bloom_agg(regclass)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regclass, bigint, float8) IS
    'internal: transition function of bloom_agg(regclass, capacity, fpr)';
-- regtype
CREATE FUNCTION bloom_add(filter bloom, value regtype) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regtype) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regtype) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regtype) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regtype, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regtype, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regtype, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regtype) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regtype, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regtype, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regtype, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regtype, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regtype) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regtype) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regtype[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regtype[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regtype[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regtype[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regtype[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regtype[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regtype) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regtype) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regtype) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regtype, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regtype, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regtype, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regtype) IS 'internal: transition function of bloom_agg(regtype)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regtype, bigint, float8) IS
    'internal: transition function of bloom_agg(regtype, capacity, fpr)';
-- regrole
CREATE FUNCTION bloom_add(filter bloom, value regrole) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regrole) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regrole) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regrole) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regrole, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regrole, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regrole, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regrole) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regrole, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regrole, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regrole, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regrole, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regrole) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regrole) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regrole[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regrole[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regrole[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regrole[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regrole[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regrole[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regrole) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regrole) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regrole) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regrole, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regrole, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regrole, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regrole) IS 'internal: transition function of bloom_agg(regrole)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regrole, bigint, float8) IS
    'internal: transition function of bloom_agg(regrole, capacity, fpr)';
-- regnamespace
CREATE FUNCTION bloom_add(filter bloom, value regnamespace) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regnamespace) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regnamespace) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regnamespace) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regnamespace, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regnamespace, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regnamespace, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regnamespace) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regnamespace, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regnamespace, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regnamespace, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regnamespace, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regnamespace) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regnamespace) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regnamespace[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regnamespace[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regnamespace[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regnamespace[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regnamespace[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regnamespace[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regnamespace) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regnamespace) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regnamespace) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regnamespace, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regnamespace, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regnamespace, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regnamespace) IS 'internal: transition function of bloom_agg(regnamespace)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regnamespace, bigint, float8) IS
    'internal: transition function of bloom_agg(regnamespace, capacity, fpr)';
-- regconfig
CREATE FUNCTION bloom_add(filter bloom, value regconfig) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regconfig) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regconfig) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regconfig) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regconfig, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regconfig, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regconfig, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regconfig) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regconfig, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regconfig, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regconfig, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regconfig, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regconfig) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regconfig) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regconfig[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regconfig[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regconfig[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regconfig[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regconfig[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regconfig[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regconfig) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regconfig) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regconfig) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regconfig, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regconfig, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regconfig, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regconfig) IS 'internal: transition function of bloom_agg(regconfig)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regconfig, bigint, float8) IS
    'internal: transition function of bloom_agg(regconfig, capacity, fpr)';
-- regdictionary
CREATE FUNCTION bloom_add(filter bloom, value regdictionary) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regdictionary) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regdictionary) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regdictionary) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regdictionary, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regdictionary, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regdictionary, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regdictionary) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regdictionary, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regdictionary, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regdictionary, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regdictionary, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regdictionary) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regdictionary) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regdictionary[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regdictionary[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regdictionary[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regdictionary[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regdictionary[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regdictionary[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regdictionary) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regdictionary) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regdictionary) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regdictionary, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regdictionary, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regdictionary, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regdictionary) IS 'internal: transition function of bloom_agg(regdictionary)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regdictionary, bigint, float8) IS
    'internal: transition function of bloom_agg(regdictionary, capacity, fpr)';
-- regcollation
CREATE FUNCTION bloom_add(filter bloom, value regcollation) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, regcollation) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value regcollation) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, regcollation) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value regcollation, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(regcollation, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = regcollation, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, regcollation) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = regcollation, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(regcollation, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value regcollation, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(regcollation, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value regcollation) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, regcollation) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals regcollation[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, regcollation[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals regcollation[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, regcollation[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals regcollation[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, regcollation[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, regcollation) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regcollation) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regcollation) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, regcollation, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(regcollation, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(regcollation, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, regcollation) IS 'internal: transition function of bloom_agg(regcollation)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, regcollation, bigint, float8) IS
    'internal: transition function of bloom_agg(regcollation, capacity, fpr)';
-- int4range
CREATE FUNCTION bloom_add(filter bloom, value int4range) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int4range) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int4range) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int4range) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int4range, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int4range, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int4range, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int4range) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int4range, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int4range, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int4range, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int4range, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int4range) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int4range) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int4range[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int4range[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int4range[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int4range[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int4range[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int4range[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, int4range) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int4range) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int4range) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int4range, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int4range, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int4range, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int4range) IS 'internal: transition function of bloom_agg(int4range)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int4range, bigint, float8) IS
    'internal: transition function of bloom_agg(int4range, capacity, fpr)';
-- int8range
CREATE FUNCTION bloom_add(filter bloom, value int8range) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int8range) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int8range) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int8range) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int8range, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int8range, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int8range, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int8range) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int8range, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int8range, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int8range, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int8range, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int8range) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int8range) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int8range[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int8range[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int8range[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int8range[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int8range[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int8range[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, int8range) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int8range) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int8range) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int8range, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int8range, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int8range, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int8range) IS 'internal: transition function of bloom_agg(int8range)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int8range, bigint, float8) IS
    'internal: transition function of bloom_agg(int8range, capacity, fpr)';
-- numrange
CREATE FUNCTION bloom_add(filter bloom, value numrange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, numrange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value numrange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, numrange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value numrange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(numrange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = numrange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, numrange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = numrange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(numrange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value numrange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(numrange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value numrange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, numrange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals numrange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, numrange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals numrange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, numrange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals numrange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, numrange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, numrange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(numrange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(numrange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, numrange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(numrange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(numrange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, numrange) IS 'internal: transition function of bloom_agg(numrange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, numrange, bigint, float8) IS
    'internal: transition function of bloom_agg(numrange, capacity, fpr)';
-- daterange
CREATE FUNCTION bloom_add(filter bloom, value daterange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, daterange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value daterange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, daterange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value daterange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(daterange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = daterange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, daterange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = daterange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(daterange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value daterange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(daterange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value daterange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, daterange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals daterange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, daterange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals daterange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, daterange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals daterange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, daterange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, daterange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(daterange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(daterange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, daterange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(daterange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(daterange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, daterange) IS 'internal: transition function of bloom_agg(daterange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, daterange, bigint, float8) IS
    'internal: transition function of bloom_agg(daterange, capacity, fpr)';
-- tsrange
CREATE FUNCTION bloom_add(filter bloom, value tsrange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, tsrange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value tsrange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, tsrange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value tsrange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(tsrange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = tsrange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, tsrange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = tsrange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(tsrange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value tsrange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(tsrange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value tsrange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, tsrange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals tsrange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, tsrange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals tsrange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, tsrange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals tsrange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, tsrange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, tsrange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tsrange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tsrange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, tsrange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tsrange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tsrange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, tsrange) IS 'internal: transition function of bloom_agg(tsrange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, tsrange, bigint, float8) IS
    'internal: transition function of bloom_agg(tsrange, capacity, fpr)';
-- tstzrange
CREATE FUNCTION bloom_add(filter bloom, value tstzrange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, tstzrange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value tstzrange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, tstzrange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value tstzrange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(tstzrange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = tstzrange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, tstzrange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = tstzrange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(tstzrange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value tstzrange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(tstzrange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value tstzrange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, tstzrange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals tstzrange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, tstzrange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals tstzrange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, tstzrange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals tstzrange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, tstzrange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, tstzrange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tstzrange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tstzrange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, tstzrange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tstzrange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tstzrange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, tstzrange) IS 'internal: transition function of bloom_agg(tstzrange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, tstzrange, bigint, float8) IS
    'internal: transition function of bloom_agg(tstzrange, capacity, fpr)';
-- int4multirange
CREATE FUNCTION bloom_add(filter bloom, value int4multirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int4multirange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int4multirange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int4multirange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int4multirange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int4multirange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int4multirange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int4multirange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int4multirange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int4multirange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int4multirange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int4multirange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int4multirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int4multirange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int4multirange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int4multirange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int4multirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int4multirange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int4multirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int4multirange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, int4multirange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int4multirange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int4multirange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int4multirange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int4multirange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int4multirange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int4multirange) IS 'internal: transition function of bloom_agg(int4multirange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int4multirange, bigint, float8) IS
    'internal: transition function of bloom_agg(int4multirange, capacity, fpr)';
-- int8multirange
CREATE FUNCTION bloom_add(filter bloom, value int8multirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, int8multirange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value int8multirange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, int8multirange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value int8multirange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(int8multirange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = int8multirange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, int8multirange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = int8multirange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(int8multirange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value int8multirange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(int8multirange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value int8multirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, int8multirange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals int8multirange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, int8multirange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals int8multirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, int8multirange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals int8multirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, int8multirange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, int8multirange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int8multirange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int8multirange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, int8multirange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(int8multirange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(int8multirange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, int8multirange) IS 'internal: transition function of bloom_agg(int8multirange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, int8multirange, bigint, float8) IS
    'internal: transition function of bloom_agg(int8multirange, capacity, fpr)';
-- nummultirange
CREATE FUNCTION bloom_add(filter bloom, value nummultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, nummultirange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value nummultirange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, nummultirange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value nummultirange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(nummultirange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = nummultirange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, nummultirange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = nummultirange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(nummultirange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value nummultirange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(nummultirange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value nummultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, nummultirange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals nummultirange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, nummultirange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals nummultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, nummultirange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals nummultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, nummultirange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, nummultirange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(nummultirange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(nummultirange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, nummultirange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(nummultirange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(nummultirange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, nummultirange) IS 'internal: transition function of bloom_agg(nummultirange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, nummultirange, bigint, float8) IS
    'internal: transition function of bloom_agg(nummultirange, capacity, fpr)';
-- datemultirange
CREATE FUNCTION bloom_add(filter bloom, value datemultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, datemultirange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value datemultirange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, datemultirange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value datemultirange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(datemultirange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = datemultirange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, datemultirange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = datemultirange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(datemultirange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value datemultirange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(datemultirange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value datemultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, datemultirange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals datemultirange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, datemultirange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals datemultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, datemultirange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals datemultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, datemultirange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, datemultirange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(datemultirange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(datemultirange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, datemultirange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(datemultirange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(datemultirange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, datemultirange) IS 'internal: transition function of bloom_agg(datemultirange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, datemultirange, bigint, float8) IS
    'internal: transition function of bloom_agg(datemultirange, capacity, fpr)';
-- tsmultirange
CREATE FUNCTION bloom_add(filter bloom, value tsmultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, tsmultirange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value tsmultirange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, tsmultirange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value tsmultirange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(tsmultirange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = tsmultirange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, tsmultirange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = tsmultirange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(tsmultirange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value tsmultirange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(tsmultirange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value tsmultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, tsmultirange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals tsmultirange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, tsmultirange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals tsmultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, tsmultirange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals tsmultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, tsmultirange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, tsmultirange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tsmultirange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tsmultirange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, tsmultirange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tsmultirange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tsmultirange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, tsmultirange) IS 'internal: transition function of bloom_agg(tsmultirange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, tsmultirange, bigint, float8) IS
    'internal: transition function of bloom_agg(tsmultirange, capacity, fpr)';
-- tstzmultirange
CREATE FUNCTION bloom_add(filter bloom, value tstzmultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloom, tstzmultirange) IS 'the filter with value added; a NULL value adds nothing';
CREATE FUNCTION bloom_contains(filter bloom, value tstzmultirange) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION bloom_contains(bloom, tstzmultirange) IS 'false when value is definitely absent, true when it may be present';
CREATE FUNCTION contained_in_bloom(value tstzmultirange, filter bloom) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    SUPPORT bloom_contains_support;
COMMENT ON FUNCTION contained_in_bloom(tstzmultirange, bloom) IS 'bloom_contains with the arguments swapped (operator <@)';
CREATE OPERATOR @> (LEFTARG = bloom, RIGHTARG = tstzmultirange, FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @>(bloom, tstzmultirange) IS 'filter may contain value';
CREATE OPERATOR <@ (LEFTARG = tstzmultirange, RIGHTARG = bloom, FUNCTION = contained_in_bloom, COMMUTATOR = @>);
COMMENT ON OPERATOR <@(tstzmultirange, bloom) IS 'value may be in filter';
CREATE FUNCTION bloom_hash(value tstzmultirange, seed bigint DEFAULT 0) RETURNS bigint
    AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_hash(tstzmultirange, bigint) IS 'canonical 64-bit hash of a value (docs/HASHING.md)';
CREATE FUNCTION bloom_remove(filter bloom, value tstzmultirange) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_remove' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_remove(bloom, tstzmultirange) IS 'the counting filter with value removed; a NULL value removes nothing';
CREATE FUNCTION bloom_add_all(filter bloom, vals tstzmultirange[]) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, tstzmultirange[]) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals tstzmultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, tstzmultirange[]) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals tstzmultirange[]) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, tstzmultirange[]) IS
    'true when some element may be present, else NULL when some element is NULL, else false';
CREATE FUNCTION bloom_agg_trans(bloom_builder, tstzmultirange) RETURNS bloom_builder
    AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tstzmultirange) (
    SFUNC = bloom_agg_trans, STYPE = bloom_builder,
    FINALFUNC = bloom_agg_final, COMBINEFUNC = bloom_agg_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tstzmultirange) IS 'filter of the non-NULL values, sized for their distinct count at bloomfilter.default_fpr; NULL for no values';
CREATE FUNCTION bloom_agg_fixed_trans(bloom, tstzmultirange, bigint, float8) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_agg_fixed_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE bloom_agg(tstzmultirange, capacity bigint, fpr float8) (
    SFUNC = bloom_agg_fixed_trans, STYPE = bloom,
    COMBINEFUNC = bloom_union_agg_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(tstzmultirange, bigint, float8) IS 'filter of the non-NULL values sized for capacity at fpr; NULL for no values';
COMMENT ON FUNCTION bloom_agg_trans(bloom_builder, tstzmultirange) IS 'internal: transition function of bloom_agg(tstzmultirange)';
COMMENT ON FUNCTION bloom_agg_fixed_trans(bloom, tstzmultirange, bigint, float8) IS
    'internal: transition function of bloom_agg(tstzmultirange, capacity, fpr)';
-- END generated by tools/overloads.py: overloads

-- ---------------------------------------------------------------------------
-- An untyped literal ('{1,2}', NULL) as the array of bloom_add_all,
-- bloom_contains_all and bloom_contains_any matches every array overload
-- alike ("not unique"); these take it as `unknown`, an exact match no
-- function in another schema can beat or be (only C functions take
-- unknown), and read it as text[], as bloom_contains(f, 'x') reads an
-- untyped 'x' as text.  A typed array still resolves as before: no type
-- casts to unknown.
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_add_all(filter bloom, vals unknown) RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_add_all_literal' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, unknown) IS
    'the filter with every element of the array literal (read as text[]) added; a NULL adds nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals unknown) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_all_literal' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, unknown) IS
    'bloom_contains_all of the array literal read as text[]';
CREATE FUNCTION bloom_contains_any(filter bloom, vals unknown) RETURNS boolean
    AS 'MODULE_PATHNAME', 'bloom_contains_any_literal' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, unknown) IS
    'bloom_contains_any of the array literal read as text[]';

-- ---------------------------------------------------------------------------
-- The index access method bloom_bitslice: an index over a column of filters
-- that answers "which rows' filters may contain x" from bit slices
-- (docs/POSTGRESQL.md, "An index over a column of filters").  Its operator
-- class holds @>(bloom, T) for every type of tools/overloads.py's list;
-- bloom_contains, contained_in_bloom, <@ and the anyelement forms become
-- index conditions through bloom_contains_support.
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_bitslice_handler(internal) RETURNS index_am_handler
    AS 'MODULE_PATHNAME', 'bloom_bitslice_handler' LANGUAGE C;
COMMENT ON FUNCTION bloom_bitslice_handler(internal) IS
    'internal: handler of the index access method bloom_bitslice';
CREATE ACCESS METHOD bloom_bitslice TYPE INDEX HANDLER bloom_bitslice_handler;
COMMENT ON ACCESS METHOD bloom_bitslice IS
    'index over a column of filters: the rows whose filter may contain a value, from bit slices';
-- BEGIN generated by tools/overloads.py: bitslice_opclass
CREATE OPERATOR CLASS bloom_bitslice_ops DEFAULT FOR TYPE bloom USING bloom_bitslice AS
    OPERATOR 1 @> (bloom, bool),
    OPERATOR 1 @> (bloom, int2),
    OPERATOR 1 @> (bloom, int4),
    OPERATOR 1 @> (bloom, int8),
    OPERATOR 1 @> (bloom, oid),
    OPERATOR 1 @> (bloom, float4),
    OPERATOR 1 @> (bloom, float8),
    OPERATOR 1 @> (bloom, numeric),
    OPERATOR 1 @> (bloom, text),
    OPERATOR 1 @> (bloom, varchar),
    OPERATOR 1 @> (bloom, bpchar),
    OPERATOR 1 @> (bloom, name),
    OPERATOR 1 @> (bloom, "char"),
    OPERATOR 1 @> (bloom, bytea),
    OPERATOR 1 @> (bloom, uuid),
    OPERATOR 1 @> (bloom, date),
    OPERATOR 1 @> (bloom, time),
    OPERATOR 1 @> (bloom, timetz),
    OPERATOR 1 @> (bloom, timestamp),
    OPERATOR 1 @> (bloom, timestamptz),
    OPERATOR 1 @> (bloom, interval),
    OPERATOR 1 @> (bloom, inet),
    OPERATOR 1 @> (bloom, cidr),
    OPERATOR 1 @> (bloom, macaddr),
    OPERATOR 1 @> (bloom, macaddr8),
    OPERATOR 1 @> (bloom, jsonb),
    OPERATOR 1 @> (bloom, pg_lsn),
    OPERATOR 1 @> (bloom, xid),
    OPERATOR 1 @> (bloom, xid8),
    OPERATOR 1 @> (bloom, cid),
    OPERATOR 1 @> (bloom, tid),
    OPERATOR 1 @> (bloom, oidvector),
    OPERATOR 1 @> (bloom, regproc),
    OPERATOR 1 @> (bloom, regprocedure),
    OPERATOR 1 @> (bloom, regoper),
    OPERATOR 1 @> (bloom, regoperator),
    OPERATOR 1 @> (bloom, regclass),
    OPERATOR 1 @> (bloom, regtype),
    OPERATOR 1 @> (bloom, regrole),
    OPERATOR 1 @> (bloom, regnamespace),
    OPERATOR 1 @> (bloom, regconfig),
    OPERATOR 1 @> (bloom, regdictionary),
    OPERATOR 1 @> (bloom, regcollation),
    OPERATOR 1 @> (bloom, int4range),
    OPERATOR 1 @> (bloom, int8range),
    OPERATOR 1 @> (bloom, numrange),
    OPERATOR 1 @> (bloom, daterange),
    OPERATOR 1 @> (bloom, tsrange),
    OPERATOR 1 @> (bloom, tstzrange),
    OPERATOR 1 @> (bloom, int4multirange),
    OPERATOR 1 @> (bloom, int8multirange),
    OPERATOR 1 @> (bloom, nummultirange),
    OPERATOR 1 @> (bloom, datemultirange),
    OPERATOR 1 @> (bloom, tsmultirange),
    OPERATOR 1 @> (bloom, tstzmultirange);
-- END generated by tools/overloads.py: bitslice_opclass
COMMENT ON OPERATOR CLASS bloom_bitslice_ops USING bloom_bitslice IS
    'bloom_bitslice index of a bloom column: f @> value, bloom_contains(f, value), value <@ f';
