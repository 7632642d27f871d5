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
