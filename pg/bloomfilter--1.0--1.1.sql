-- bloomfilter 1.0 -> 1.1.  CREATE EXTENSION bloomfilter installs 1.0 and runs
-- this script, so every object added since 1.0 is defined here, once.

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

-- ---------------------------------------------------------------------------
-- Stored and big filters: sliced probes, batched scans
-- ---------------------------------------------------------------------------

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
