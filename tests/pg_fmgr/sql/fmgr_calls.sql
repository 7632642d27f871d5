-- bloomfilter's transition functions called as Citus calls them: a new
-- FmgrInfo for every row and no call expression (fmgr_partial_agg, from the
-- test-only module bloomfilter_fmgr_test).  The partial state's text form,
-- finished, must be the filter the same aggregate gives locally, byte for
-- byte, for both forms of every type of tools/overloads.py's list.
SET extra_float_digits = 0;
CREATE TABLE v AS
SELECT g,
       CASE WHEN g % 17 = 0 THEN NULL ELSE g END AS k,
       (g % 300)::int2 AS i2, g::int4 AS i4, (g::int8 * 1000003) AS i8,
       (g / 7.0)::numeric AS num, (g / 4.0)::float4 AS f4, (g / 3.0)::float8 AS f8,
       'key ' || g AS t, decode(md5(g::text), 'hex') AS b,
       md5(g::text)::uuid AS u, date '2020-01-01' + g AS d,
       timestamp '2020-01-01' + g * interval '1 minute' AS ts,
       timestamptz '2020-01-01 00:00+00' + g * interval '1 second' AS tz
FROM generate_series(1, 3000) g;

-- finish a partial state given as text, as the Citus coordinator does
CREATE FUNCTION finish(state text) RETURNS bloom
    LANGUAGE sql AS $$ SELECT bloom_agg_final(state::bloom_builder) $$;

-- the filters are not empty: a member is found, the estimated count is near 2824
SELECT bloom_contains(finish(fmgr_partial_agg('bloom_agg(text)', t)), 'key 77') AS member,
       round(bloom_cardinality(finish(fmgr_partial_agg('bloom_agg(int4)', k)))) AS about_2824_distinct
FROM v;

-- grouped: every group's partial state finishes to the local group's filter
SELECT count(*) AS groups, bool_and(same) AS all_same FROM (
  SELECT finish(fmgr_partial_agg('bloom_agg(text)', t))::bytea = bloom_agg(t)::bytea AS same
  FROM v GROUP BY g % 7
) s;

-- NULLs only: no state, as locally
SELECT fmgr_partial_agg('bloom_agg(int4)', NULL::int4) IS NULL AS no_state FROM v;

-- a domain over a concrete type hashes as its base type
CREATE DOMAIN small_text AS text CHECK (length(VALUE) < 20);
SELECT finish(fmgr_partial_agg('bloom_agg(text)', t::small_text))::bytea = bloom_agg(t)::bytea AS same
FROM v;

-- the anyelement fallback (a type outside tools/overloads.py's list, an
-- array here) cannot know its type without a call expression: a clear error
-- that says what to write instead
SELECT fmgr_partial_agg('bloom_agg(anyelement)', ARRAY[g, -g]) FROM v;
-- ... and what it says to write sets the bits of the anyelement form (the
-- value kinds, header bytes 10..15, say bytes for one and the array type
-- for the other: docs/FORMAT.md, "Value kinds")
SELECT overlay(finish(fmgr_partial_agg('bloom_agg(bytea)', array_send(ARRAY[g, -g])))::bytea
               PLACING '\x000000000000'::bytea FROM 11 FOR 6)
       = overlay(bloom_agg(ARRAY[g, -g])::bytea PLACING '\x000000000000'::bytea FROM 11 FOR 6) AS same
FROM v;

-- Every type of tools/overloads.py's list, both aggregate forms: the
-- partial state, finished, is the local filter (a NULL every 13th row).
\set samples_rows 3000
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/../samples.sql
CREATE FUNCTION same_as_local(t regtype, OUT self_sizing boolean, OUT fixed boolean) LANGUAGE plpgsql AS $f$
DECLARE
    col text := (SELECT 'v_' || typname FROM pg_type WHERE oid = t);  -- the sample column
BEGIN
    EXECUTE format($q$
        SELECT finish(fmgr_partial_agg(%1$L, %3$I))::bytea = bloom_agg(%3$I)::bytea,
               fmgr_partial_agg(%2$L, %3$I, 5000::int8, 0.01::float8)::bloom::bytea = bloom_agg(%3$I, 5000, 0.01)::bytea
        FROM samples$q$, format('bloom_agg(%s)', t), format('bloom_agg(%s, int8, float8)', t), col)
        INTO self_sizing, fixed;
END $f$;
SELECT p.proargtypes[0]::regtype AS type, s.*
FROM pg_proc p, same_as_local(p.proargtypes[0]) s
WHERE p.proname = 'bloom_agg' AND p.pronargs = 1 AND p.proargtypes[0] <> 'anyelement'::regtype
ORDER BY p.proargtypes[0]::regtype::text;

-- The whole trip as Citus makes it: partial states per "shard" (g % 4), then
-- the coordinator's combine and final functions, each called without a call
-- expression through a new FmgrInfo per row; the filter of the local query.
CREATE TABLE shard_states AS
SELECT g % 4 AS shard,
       fmgr_partial_agg('bloom_agg(int8)', i8) AS s_int8,
       fmgr_partial_agg('bloom_agg(text)', t) AS s_text,
       fmgr_partial_agg('bloom_agg(uuid,int8,float8)', u, 5000::int8, 0.01::float8) AS s_fixed
FROM v GROUP BY 1;
SELECT fmgr_combine_agg('bloom_agg(int8)', s_int8 ORDER BY shard) = (SELECT bloom_agg(i8)::text FROM v) AS int8_same,
       fmgr_combine_agg('bloom_agg(text)', s_text ORDER BY shard DESC) = (SELECT bloom_agg(t)::text FROM v) AS text_same,
       fmgr_combine_agg('bloom_agg(uuid,int8,float8)', s_fixed) = (SELECT bloom_agg(u, 5000, 0.01)::text FROM v) AS fixed_same
FROM shard_states;
-- grouped on the coordinator too (a combine per group, one aggregate context)
SELECT count(*) AS groups, bool_and(c = l) AS all_same
FROM (SELECT grp, fmgr_combine_agg('bloom_agg(text)', s) AS c
      FROM (SELECT g % 5 AS grp, g % 3 AS shard, fmgr_partial_agg('bloom_agg(text)', t) AS s FROM v GROUP BY 1, 2) p
      GROUP BY grp) d
JOIN (SELECT g % 5 AS grp, bloom_agg(t)::text AS l FROM v GROUP BY 1) q USING (grp);

-- bloom_union_agg as Citus runs it (its transition on the shards, its
-- combine on the coordinator) follows the rule the local aggregate does: a
-- union that saturates where none of its members was is refused (54000),
-- here from four shards' states each far from saturation.
\i :abs_srcdir/../sqlstate_of.sql
CREATE TABLE sat AS
SELECT i AS id, bloom_agg(v, 1000, 0.01) AS f
FROM generate_series(1, 101) i, generate_series(i * 80, i * 80 + 79) v GROUP BY i;
CREATE TABLE sat_shards AS
SELECT id % 4 AS shard, fmgr_partial_agg('bloom_union_agg(bloom)', f) AS s FROM sat GROUP BY 1;
SELECT shard, (bloom_info(s::bloom)).est_fpr < 0.1 AS far_from_saturation FROM sat_shards ORDER BY shard;
SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat') AS local,
       sqlstate_of($$SELECT fmgr_combine_agg('bloom_union_agg(bloom)', s) FROM sat_shards$$) AS coordinator,
       sqlstate_of($$SELECT fmgr_partial_agg('bloom_union_agg(bloom)', f) FROM sat$$) AS one_shard;
-- a saturated member is allowed, on a shard as locally
INSERT INTO sat SELECT 1000, bloom_agg(v, 1000, 0.01) FROM generate_series(1, 20000) v;
SELECT fmgr_combine_agg('bloom_union_agg(bloom)', s ORDER BY shard)::bloom
       = (SELECT bloom_union_agg(f) FROM sat WHERE id % 10 = 0) AS saturated_member
FROM (SELECT id % 4 AS shard, fmgr_partial_agg('bloom_union_agg(bloom)', f) AS s
      FROM sat WHERE id % 10 = 0 GROUP BY 1) p;
-- The fixed-size bloom_agg fills one filter however full: shards' states
-- each far from saturation whose union saturates are combined, as the
-- local aggregate fills one filter; states of different sizes are refused
-- as the local transition refuses rows of different sizes.
CREATE TABLE sat_fixed AS
SELECT g % 4 AS shard,
       fmgr_partial_agg('bloom_agg(int4,int8,float8)', g, 1000::int8, 0.01::float8) AS s,
       fmgr_partial_agg('bloom_agg(int4,int8,float8)', g, (1000 * (1 + g % 4 / 3))::int8, 0.01::float8) AS s_sizes
FROM generate_series(1, 8000) g GROUP BY 1;
SELECT bool_and((bloom_info(s::bloom)).est_fpr < 0.1) AS far_from_saturation,
       (bloom_info(fmgr_combine_agg('bloom_agg(int4,int8,float8)', s)::bloom)).est_fpr >= 0.5 AS union_saturated,
       fmgr_combine_agg('bloom_agg(int4,int8,float8)', s)::bloom
       = (SELECT bloom_agg(g, 1000, 0.01) FROM generate_series(1, 8000) g) AS same_as_local
FROM sat_fixed;
SELECT sqlstate_of('SELECT bloom_agg(g, (1000 * (1 + g % 4 / 3))::int8, 0.01) FROM generate_series(1, 8000) g') AS local,
       sqlstate_of($$SELECT fmgr_combine_agg('bloom_agg(int4,int8,float8)', s_sizes) FROM sat_fixed$$) AS coordinator;
