-- bloomfilter 1.0 -> 1.1.  CREATE EXTENSION bloomfilter installs 1.0 and runs
-- this script, so every object added since 1.0 is defined here, once.
-- The extension is trusted: a non-superuser's CREATE/ALTER EXTENSION runs
-- this script as superuser, so an expression here names every operator and
-- function it uses by schema (OPERATOR(pg_catalog.=), pg_catalog.f());
-- otherwise one planted in the extension's schema could run instead.

\echo Use "ALTER EXTENSION bloomfilter UPDATE TO '1.1'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Filters that compose: folding, sizes that divide each other
-- ---------------------------------------------------------------------------

-- Two-filter operations of 1.1 also accept filters whose sizes divide (the
-- larger is folded to the smaller); bloom_fold does it explicitly.
CREATE FUNCTION bloom_fold(f bloom, nbits bigint) RETURNS bloom
    AS 'MODULE_PATHNAME', 'pg_bloom_fold' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_union(bloom, bloom) IS 'filter of the union of both sets (same layout, nhashes and seed; sizes that divide: the result has the smaller)';
COMMENT ON FUNCTION bloom_intersect(bloom, bloom) IS 'bitwise AND: contains every value of both sets (same layout, nhashes and seed; sizes that divide: the result has the smaller)';
COMMENT ON FUNCTION bloom_fold(bloom, bigint) IS 'the filter folded to nbits, a divisor of its size: the filter the same values give at nbits';

-- ---------------------------------------------------------------------------
-- Hardening
-- ---------------------------------------------------------------------------

-- A capacity written as a numeric literal (1e6) or computed as a double, as
-- SQLite accepts it: integral values only, the same messages (the core's).
CREATE FUNCTION bloom_empty(capacity float8, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0,
                            layout text DEFAULT 'classic') RETURNS bloom
    AS 'MODULE_PATHNAME', 'bloom_empty_float' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_empty(float8, float8, bigint, text) IS
    'empty filter sized for capacity distinct values at false-positive rate fpr; capacity must be integral';

-- ---------------------------------------------------------------------------
-- Stored and big filters: sliced probes, batched scans
-- ---------------------------------------------------------------------------

-- The batched probe scan is offered by a planner hook of the module; the
-- planner calls this support function while simplifying a query that probes
-- a filter, which loads the module (and the hook) before the scans are
-- planned, even in a session that has not used a filter yet.
CREATE FUNCTION bloom_contains_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
COMMENT ON FUNCTION bloom_contains_support(internal) IS 'planner support of bloom_contains: loads the module, and its batched probe scan, before planning';
ALTER FUNCTION bloom_contains(bloom, anyelement) SUPPORT bloom_contains_support;
ALTER FUNCTION bloom_contains(bloom, text) SUPPORT bloom_contains_support;
ALTER FUNCTION contained_in_bloom(anyelement, bloom) SUPPORT bloom_contains_support;
ALTER FUNCTION contained_in_bloom(text, bloom) SUPPORT bloom_contains_support;

-- ---------------------------------------------------------------------------
-- Scale out: Citus and postgres_fdw
-- ---------------------------------------------------------------------------

-- ---------------------------------------------------------------------------
-- Ecosystem: ordering (btree), arrays
-- ---------------------------------------------------------------------------

-- Many values in one call; each element hashes as bloom_add of that element
-- would.  Not STRICT: a NULL array adds nothing, as bloom_add(f, NULL).
CREATE FUNCTION bloom_add_all(filter bloom, vals anyarray) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add_all(bloom, anyarray) IS
    'the filter with every element of the array added; NULL elements add nothing';
CREATE FUNCTION bloom_contains_all(filter bloom, vals anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_all(bloom, anyarray) IS
    'false when some element is definitely absent, else NULL when some element is NULL, else true';
CREATE FUNCTION bloom_contains_any(filter bloom, vals anyarray) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains_any(bloom, anyarray) IS
    'true when some element may be present, else NULL when some element is NULL, else false';

-- bytea binds as bloom: client libraries send bytes as bytea, so
-- bloom_contains($1, x) with a bytea $1 and INSERT of bytea into a bloom
-- column work without a cast in the SQL text.  The cast validates the bytes
-- (bloom(bytea)); only bytea -> bloom is implicit, so an expression mixing
-- the two resolves to bloom, and bytea's own operators still win for two
-- bytea operands (exact matches come first).
DROP CAST (bytea AS bloom);
CREATE CAST (bytea AS bloom) WITH FUNCTION bloom(bytea) AS IMPLICIT;

-- A total order (docs/POSTGRESQL.md, "Ordering"): parameters first (format
-- version, layout, hash id, nhashes, seed, nbits), then the bit array byte
-- by byte.  Equal filters compare 0, so it agrees with = and bloom_hash_ops.
CREATE FUNCTION bloom_cmp(bloom, bloom) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_cmp(bloom, bloom) IS 'btree support: -1, 0 or 1 by parameters, then bits';
CREATE FUNCTION bloom_lt(bloom, bloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_lt(bloom, bloom) IS 'bloom_cmp < 0 (operator <)';
CREATE FUNCTION bloom_le(bloom, bloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_le(bloom, bloom) IS 'bloom_cmp <= 0 (operator <=)';
CREATE FUNCTION bloom_gt(bloom, bloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_gt(bloom, bloom) IS 'bloom_cmp > 0 (operator >)';
CREATE FUNCTION bloom_ge(bloom, bloom) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION bloom_ge(bloom, bloom) IS 'bloom_cmp >= 0 (operator >=)';

CREATE OPERATOR < (
    LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR <(bloom, bloom) IS 'orders before (parameters, then bits)';
CREATE OPERATOR <= (
    LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <=(bloom, bloom) IS 'orders before or equal (parameters, then bits)';
CREATE OPERATOR > (
    LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR >(bloom, bloom) IS 'orders after (parameters, then bits)';
CREATE OPERATOR >= (
    LEFTARG = bloom, RIGHTARG = bloom, PROCEDURE = bloom_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >=(bloom, bloom) IS 'orders after or equal (parameters, then bits)';

-- Equal filters are equal bytes, so btree deduplication may merge them
-- (btequalimage).
CREATE OPERATOR CLASS bloom_btree_ops DEFAULT FOR TYPE bloom USING btree AS
    OPERATOR 1 < (bloom, bloom),
    OPERATOR 2 <= (bloom, bloom),
    OPERATOR 3 = (bloom, bloom),
    OPERATOR 4 >= (bloom, bloom),
    OPERATOR 5 > (bloom, bloom),
    FUNCTION 1 bloom_cmp(bloom, bloom),
    FUNCTION 4 pg_catalog.btequalimage(oid);

-- Merge joins need = marked MERGES; 1.0 created it without, and ALTER
-- OPERATOR cannot set it before PostgreSQL 17 (contrib's citext updated
-- pg_proc the same way).  This script runs as superuser (also when a
-- non-superuser creates the trusted extension) and changes only this
-- extension's =; every operator in it is schema-qualified, so no operator
-- a user created in the extension's schema can run here.
UPDATE pg_catalog.pg_operator SET oprcanmerge = true
WHERE oid OPERATOR(pg_catalog.=) pg_catalog.to_regoperator('=(bloom,bloom)')::pg_catalog.oid
  AND oprleft OPERATOR(pg_catalog.=) pg_catalog.to_regtype('bloom')::pg_catalog.oid
  AND oprright OPERATOR(pg_catalog.=) oprleft;

-- min and max: aggregates with a sort operator, so an index on a bloom
-- column answers them (as citext's do).
CREATE FUNCTION bloom_smaller(bloom, bloom) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_smaller(bloom, bloom) IS 'the smaller of two filters (min support)';
CREATE FUNCTION bloom_larger(bloom, bloom) RETURNS bloom
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_larger(bloom, bloom) IS 'the larger of two filters (max support)';
CREATE AGGREGATE min(bloom) (
    SFUNC = bloom_smaller, STYPE = bloom, COMBINEFUNC = bloom_smaller,
    SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(bloom) IS 'the first filter in the bloom order (parameters, then bits)';
CREATE AGGREGATE max(bloom) (
    SFUNC = bloom_larger, STYPE = bloom, COMBINEFUNC = bloom_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(bloom) IS 'the last filter in the bloom order (parameters, then bits)';
