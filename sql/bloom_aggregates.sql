-- Aggregates: bloom_agg (self-sizing and fixed), bloom_union_agg,
-- bloom_intersect_agg; NULLs, empty input, settings, parallel plans, and
-- the contract distributed planners (Citus) rely on.
SET extra_float_digits = 0;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql

CREATE TABLE vals AS
SELECT g AS i,
       g::int2 AS i2, g::int4 AS i4, g::int8 AS i8, g::numeric AS num, g::float4 AS f4, g::float8 AS f8,
       'v' || g AS t, convert_to('v' || g, 'UTF8') AS b,
       md5(g::text)::uuid AS u, DATE '2020-01-01' + g AS d,
       TIMESTAMP '2020-01-01' + g * INTERVAL '1 hour' AS ts,
       TIMESTAMPTZ '2020-01-01 00:00+00' + g * INTERVAL '1 hour' AS tstz,
       g % 2 = 0 AS flag, g * INTERVAL '1 minute' AS iv, ARRAY[g, -g] AS arr
FROM generate_series(1, 2000) g;

-- an overload for every type of tools/overloads.py's list (bool and interval
-- among them), and the anyelement fallback for any other type (an array)
SELECT p.oid::regprocedure FROM pg_proc p
WHERE proname = 'bloom_agg' AND pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'bloomfilter')
ORDER BY p.oid::regprocedure::text;

WITH fs AS (
  SELECT bloom_agg(i2) AS f_i2, bloom_agg(i4) AS f_i4, bloom_agg(i8) AS f_i8, bloom_agg(num) AS f_num,
         bloom_agg(f4) AS f_f4, bloom_agg(f8) AS f_f8, bloom_agg(t) AS f_t, bloom_agg(b) AS f_b,
         bloom_agg(u) AS f_u, bloom_agg(d) AS f_d, bloom_agg(ts) AS f_ts, bloom_agg(tstz) AS f_tstz,
         bloom_agg(flag) AS f_flag, bloom_agg(iv) AS f_iv, bloom_agg(arr) AS f_arr
  FROM vals)
SELECT count(*) AS n,
       count(*) FILTER (WHERE NOT bloom_contains(f_i2, i2)) AS missing_i2,
       count(*) FILTER (WHERE NOT bloom_contains(f_i4, i4)) AS missing_i4,
       count(*) FILTER (WHERE NOT bloom_contains(f_i8, i8)) AS missing_i8,
       count(*) FILTER (WHERE NOT bloom_contains(f_num, num)) AS missing_num,
       count(*) FILTER (WHERE NOT bloom_contains(f_f4, f4)) AS missing_f4,
       count(*) FILTER (WHERE NOT bloom_contains(f_f8, f8)) AS missing_f8,
       count(*) FILTER (WHERE NOT bloom_contains(f_t, t)) AS missing_t,
       count(*) FILTER (WHERE NOT bloom_contains(f_b, b)) AS missing_b,
       count(*) FILTER (WHERE NOT bloom_contains(f_u, u)) AS missing_u,
       count(*) FILTER (WHERE NOT bloom_contains(f_d, d)) AS missing_d,
       count(*) FILTER (WHERE NOT bloom_contains(f_ts, ts)) AS missing_ts,
       count(*) FILTER (WHERE NOT bloom_contains(f_tstz, tstz)) AS missing_tstz,
       count(*) FILTER (WHERE NOT bloom_contains(f_flag, flag)) AS missing_flag,
       count(*) FILTER (WHERE NOT bloom_contains(f_iv, iv)) AS missing_iv,
       count(*) FILTER (WHERE NOT bloom_contains(f_arr, arr)) AS missing_arr
FROM vals, fs;
WITH fs AS (
  SELECT bloom_agg(i2) AS f_i2, bloom_agg(i4) AS f_i4, bloom_agg(i8) AS f_i8, bloom_agg(num) AS f_num,
         bloom_agg(f4) AS f_f4, bloom_agg(f8) AS f_f8, bloom_agg(t) AS f_t, bloom_agg(b) AS f_b,
         bloom_agg(u) AS f_u, bloom_agg(flag) AS f_flag
  FROM vals)
SELECT f_i2 = f_i8 AND f_i4 = f_i8 AND f_num = f_i8 AND f_f4 = f_i8 AND f_f8 = f_i8 AS numbers_agree,
       -- the same bits; byte 10 records text (0) or bytes (0x04)
       set_byte(f_t::bytea, 10, 4) = f_b::bytea AS text_is_bytes, f_u = f_i8 AS uuid_differs,
       bloom_contains(f_flag, 0::int8) AND bloom_contains(f_flag, 1::int8) AS bools_are_0_and_1,
       round(bloom_cardinality(f_flag)) AS two_values
FROM fs;

-- self-sizing: sized for the distinct count at bloomfilter.default_fpr
-- (docs/FORMAT.md: the formula's size class; up to 65,536 values, one or two
-- classes up when a trial of the bits misses the target)
CREATE FUNCTION size_ok(f bloom, n bigint, p float8) RETURNS boolean LANGUAGE sql AS $$
  SELECT i.nbits IN (e.nbits, e.nbits * 2, e.nbits * 4) AND i.nhashes = e.nhashes AND i.est_fpr <= p
  FROM bloom_info(f) i, bloom_info(bloom_empty(n, p, 0, i.layout)) e $$;
SELECT layout, nhashes, seed, size_ok(f, 2000, 0.01), abs(est_cardinality - 2000) < 100 AS est_close
FROM (SELECT bloom_agg(i8) AS f FROM vals) s, bloom_info(f);
-- duplicates do not change the result
SELECT (SELECT bloom_agg(i8) FROM vals) = (SELECT bloom_agg(i8) FROM (SELECT i8 FROM vals UNION ALL SELECT i8 FROM vals) d) AS dup;
-- NULLs are skipped; no non-NULL value gives NULL
SELECT (SELECT bloom_agg(i8) FROM vals) = (SELECT bloom_agg(x) FROM (SELECT i8 FROM vals UNION ALL SELECT NULL FROM generate_series(1, 10)) d(x)) AS nulls_skipped;
SELECT bloom_agg(x) IS NULL AS empty, bloom_agg(x, 100, 0.01) IS NULL AS empty_fixed FROM (SELECT 1::int8 WHERE false) e(x);
SELECT bloom_agg(x) IS NULL AS all_null, bloom_agg(x, 100, 0.01) IS NULL AS all_null_fixed FROM (SELECT NULL::int8 FROM generate_series(1, 3)) e(x);
SELECT bloom_union_agg(f) IS NULL, bloom_intersect_agg(f) IS NULL FROM (SELECT NULL::bloom) e(f);
-- GROUP BY
SELECT g, n, size_ok(f, n, 0.01), abs(est_cardinality - n) < 0.05 * n AS est_close
FROM (SELECT i % 3 AS g, count(*) AS n, bloom_agg(i8) AS f FROM vals GROUP BY 1) s, bloom_info(f) ORDER BY 1;

-- settings
SHOW bloomfilter.default_fpr;
SHOW bloomfilter.default_layout;
SET bloomfilter.default_fpr = 0.001;
SELECT layout, nhashes, size_ok(f, 2000, 0.001) FROM (SELECT bloom_agg(i8) AS f FROM vals) s, bloom_info(f);
SET bloomfilter.default_layout = 'blocked';
SELECT layout, nhashes, size_ok(f, 2000, 0.001) FROM (SELECT bloom_agg(i8) AS f FROM vals) s, bloom_info(f);
SELECT layout, nbits, nhashes FROM (SELECT bloom_agg(i8, 2000, 0.01) AS f FROM vals) s, bloom_info(f);
RESET bloomfilter.default_fpr;
RESET bloomfilter.default_layout;
SET bloomfilter.default_fpr = 0;
SET bloomfilter.default_fpr = 1;
SET bloomfilter.default_fpr = -0.5;
SET bloomfilter.default_layout = 'sparse';
SET bloomfilter.no_such_setting = 1;

-- fixed size: the filter of bloom_empty(capacity, fpr) with every value added
SELECT bloom_agg(i8, 5000, 0.02) = bloom_union_agg(bloom_add(bloom_empty(5000, 0.02), i8)) AS fixed_equals_adds FROM vals;
SELECT layout, nbits, nhashes FROM (SELECT bloom_agg(t, 5000, 0.02) AS f FROM vals) s, bloom_info(f);

-- fixed size, 64 KiB and more (a filter beyond the caches), added a batch at a time:
-- the filter of the row-by-row adds, however many hashes wait in the batch
-- when the state is read; in groups, as a window's running value, blocked
SELECT n, bloom_agg(g, 1000000, 0.01) = bloom_add_all(bloom_empty(1000000, 0.01), array_agg(g)) AS same
FROM (VALUES (1), (255), (256), (257), (100000)) v(n), generate_series(1, n) g GROUP BY n ORDER BY n;
SELECT count(*) FILTER (WHERE NOT bloom_contains(w, g)) AS missing,
       count(DISTINCT md5(w::bytea)) AS distinct_running,
       bool_and(w = bloom_add_all(bloom_empty(1000000, 0.01), ARRAY(SELECT generate_series(1, g)))) FILTER (WHERE g IN (1, 256, 300)) AS same
FROM (SELECT g, bloom_agg(g, 1000000, 0.01) OVER (ORDER BY g) AS w FROM generate_series(1, 300) g) s;
SET bloomfilter.default_layout = 'blocked';
SELECT bloom_agg(g, 1000000, 0.01) = bloom_add_all(bloom_empty(1000000, 0.01, 0, 'blocked'), array_agg(g)) AS same_blocked
FROM generate_series(1, 3001) g;
RESET bloomfilter.default_layout;

-- fixed size under 64 KiB: each row after a group's second adds to the state
-- the last row returned without reading it again; a state that is not the
-- last row's (interleaved groups, a new group's state at the last one's
-- address, a window frame started again) is read again
CREATE FUNCTION pg_temp.fixed_groups(keys text, capacity int, n int)
    RETURNS TABLE (groups bigint, same boolean) LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT count(*), bool_and(f = bloom_add_all(bloom_empty(%1$s, 0.01), v))
         FROM (SELECT %2$s AS k, bloom_agg(g, %1$s, 0.01) AS f, array_agg(g) AS v
               FROM generate_series(1, %3$s) g GROUP BY 1) s', capacity, keys, n);
END $$;
SELECT * FROM pg_temp.fixed_groups('g % 7', 1000, 3000);
SET enable_hashagg = off;
SELECT * FROM pg_temp.fixed_groups('g / 3', 1000, 3000);
RESET enable_hashagg;
-- a HashAggregate that spills (work_mem 64kB): its groups' memory is reset
-- between batches, and a new state may take an old one's address
SET work_mem = '64kB';
SET enable_sort = off;
SELECT * FROM pg_temp.fixed_groups('g / 7', 100, 60000);
RESET enable_sort;
RESET work_mem;
SELECT count(*) FILTER (WHERE NOT bloom_contains(w, g)) AS missing,
       count(DISTINCT md5(w::bytea)) AS distinct_running,
       bool_and(w = bloom_add_all(bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(1, g)))) FILTER (WHERE g IN (1, 2, 3, 300)) AS same
FROM (SELECT g, bloom_agg(g, 1000, 0.01) OVER (ORDER BY g) AS w FROM generate_series(1, 300) g) s;
SELECT count(*) AS frames,
       bool_and(w = bloom_add_all(bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(greatest(g - 2, 1), g)))) AS same
FROM (SELECT g, bloom_agg(g, 1000, 0.01) OVER (ORDER BY g ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w
      FROM generate_series(1, 300) g) s;
-- grouping sets; DISTINCT, ORDER BY and FILTER in the call; every group's
-- first values NULL; two calls of one state (a2 shares a's), hashed and sorted
CREATE FUNCTION pg_temp.fixed_sets() RETURNS TABLE (groups bigint, same boolean) LANGUAGE sql AS $$
    SELECT count(*),
           bool_and(a = bloom_add_all(bloom_empty(1000, 0.01), va) AND a2 = a
                    AND d = bloom_add_all(bloom_empty(1000, 0.01), va)
                    AND o = bloom_add_all(bloom_empty(1000, 0.01), va)
                    AND f = bloom_add_all(bloom_empty(1000, 0.01), vf))
    FROM (SELECT bloom_agg(v, 1000, 0.01) AS a, bloom_agg(v, 1000, 0.01) AS a2,
                 bloom_agg(DISTINCT v, 1000, 0.01) AS d, bloom_agg(v, 1000, 0.01 ORDER BY g DESC) AS o,
                 bloom_agg(v, 1000, 0.01) FILTER (WHERE g % 2 = 0) AS f,
                 array_agg(v) FILTER (WHERE v IS NOT NULL) AS va,
                 array_agg(v) FILTER (WHERE v IS NOT NULL AND g % 2 = 0) AS vf
          FROM (SELECT g, g % 3 AS x, g % 5 AS y, CASE WHEN g > 30 THEN g / 2 END AS v
                FROM generate_series(1, 3000) g) s
          GROUP BY GROUPING SETS ((x), (y), (x, y), ())) t $$;
SELECT * FROM pg_temp.fixed_sets();
SET enable_hashagg = off;
SELECT * FROM pg_temp.fixed_sets();
RESET enable_hashagg;

-- union and intersection of groups
CREATE TABLE grouped AS
SELECT i % 4 AS g, bloom_agg(i8, 4000, 0.01) AS f FROM vals GROUP BY 1;
SELECT bloom_union_agg(f) = (SELECT bloom_agg(i8, 4000, 0.01) FROM vals) AS union_is_whole FROM grouped;
SELECT bloom_intersect_agg(f) = (SELECT f FROM grouped WHERE g = 0) & (SELECT f FROM grouped WHERE g = 1)
       & (SELECT f FROM grouped WHERE g = 2) & (SELECT f FROM grouped WHERE g = 3) AS intersect_all FROM grouped;
SELECT bloom_union_agg(f) = (SELECT f FROM grouped WHERE g = 2) AS single FROM grouped WHERE g = 2;
-- the aggregate's input is not modified
SELECT f = (SELECT bloom_agg(i8, 4000, 0.01) FROM vals WHERE i % 4 = 0) AS input_unchanged FROM grouped WHERE g = 0;

-- parallel plans give the serial result bit for bit
CREATE TABLE big AS SELECT g::int8 AS x, (g % 50000)::int8 AS y, 'k' || (g % 1000) AS k FROM generate_series(1, 300000) g;
ANALYZE big;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE serial_groups AS SELECT x % 7 AS g, bloom_agg(y) AS f FROM big GROUP BY 1;
-- (e over a hundredth of the rows: each row makes, fills and ORs a 128 KiB filter,
-- 40 s for all 300,000)
CREATE TABLE serial AS
SELECT bloom_agg(x) AS a, bloom_agg(y) AS b, bloom_agg(k) AS c, bloom_agg(x, 300000, 0.01) AS d,
       bloom_union_agg(bloom_add(bloom_empty(100000), y)) FILTER (WHERE x % 100 = 0) AS e, bloom_intersect_agg(bloom_add(bloom_empty(1000), 1) | bloom_add(bloom_empty(1000), y)) AS f,
       bloom_agg(x, 1000000, 0.01) AS g, bloom_agg(y, 5000, 0.01) AS h
FROM big;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM pg_temp.explain('SELECT bloom_agg(x) FROM big');
-- real workers (rows are per loop: 300000 rows over 3 processes)
SELECT * FROM pg_temp.explain('SELECT bloom_agg(x) FROM big', 'ANALYZE');
CREATE TABLE parallel AS
SELECT bloom_agg(x) AS a, bloom_agg(y) AS b, bloom_agg(k) AS c, bloom_agg(x, 300000, 0.01) AS d,
       bloom_union_agg(bloom_add(bloom_empty(100000), y)) FILTER (WHERE x % 100 = 0) AS e, bloom_intersect_agg(bloom_add(bloom_empty(1000), 1) | bloom_add(bloom_empty(1000), y)) AS f,
       bloom_agg(x, 1000000, 0.01) AS g, bloom_agg(y, 5000, 0.01) AS h
FROM big;
SELECT s.a = p.a AS a, s.b = p.b AS b, s.c = p.c AS c, s.d = p.d AS d, s.e = p.e AS e, s.f = p.f AS f,
       s.g = p.g AS g, s.h = p.h AS h, md5(s.a::bytea) = md5(p.a::bytea) AS same_bytes
FROM serial s, parallel p;
-- 300,000 distinct values: the formula's size class exactly
SELECT nbits = (SELECT nbits FROM bloom_info(bloom_empty(300000))) AS formula_size,
       abs(est_cardinality - 300000) < 3000 AS est_close FROM serial, bloom_info(a);
-- parallel GROUP BY, with partial states per group
SET enable_sort = off;
SELECT * FROM pg_temp.explain('SELECT x % 7 AS g, bloom_agg(y) AS f FROM big GROUP BY 1');
SELECT count(*) AS groups, count(*) FILTER (WHERE s.f = p.f) AS equal
FROM serial_groups s JOIN (SELECT x % 7 AS g, bloom_agg(y) AS f FROM big GROUP BY 1) p USING (g);
RESET enable_sort;
-- a single worker doing everything (force_parallel_mode before 16)
CALL pg_temp.set_known('{debug_parallel_query,force_parallel_mode}', 'on');
SELECT bloom_agg(x) = (SELECT a FROM serial) AS forced, bloom_agg(x, 1000000, 0.01) = (SELECT g FROM serial) AS forced_fixed FROM big;
CALL pg_temp.set_known('{debug_parallel_query,force_parallel_mode}', NULL);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- The Citus contract: partial states computed on parts of a table, moved as
-- text through bloom_builder's output and input functions, and combined by
-- bloom_agg's combine function, give the filter of one serial aggregate.
SELECT aggtransfn, aggcombinefn, aggfinalfn, aggtranstype::regtype, aggserialfn, aggdeserialfn
FROM pg_aggregate WHERE aggfnoid = 'bloom_agg(int8)'::regprocedure;
SELECT typinput, typoutput FROM pg_type WHERE oid = 'bloom_builder'::regtype;
-- what a worker runs: the transition function without the final function
CREATE AGGREGATE partial_bloom_agg(int8) (SFUNC = bloom_agg_trans, STYPE = bloom_builder);
-- what the coordinator runs: the combine function, then the final function
CREATE AGGREGATE combine_bloom_agg(bloom_builder) (
    SFUNC = bloom_agg_combine, STYPE = bloom_builder, FINALFUNC = bloom_agg_final);
CREATE TABLE shard_states AS
SELECT x % 4 AS shard, partial_bloom_agg(y)::text AS state FROM big GROUP BY 1;
SELECT shard, left(state, 12) AS state_prefix, length(state) > 100 AS nonempty FROM shard_states ORDER BY shard;
SELECT combine_bloom_agg(state::bloom_builder) = (SELECT b FROM serial) AS citus_equals_serial FROM shard_states;
-- in another order, and text -> state -> text is stable
SELECT combine_bloom_agg(state::bloom_builder ORDER BY shard DESC) = (SELECT b FROM serial) AS any_order FROM shard_states;
SELECT bool_and(state::bloom_builder::text = state) AS text_stable FROM shard_states;
-- COPY BINARY carries states too (bloom_builder_send / bloom_builder_recv)
CREATE TABLE shard_states_bin AS SELECT shard, state::bloom_builder AS s FROM shard_states;
COPY shard_states_bin TO '/tmp/bloomfilter_regress_states.bin' (FORMAT binary);
CREATE TABLE shard_states_copy (LIKE shard_states_bin);
COPY shard_states_copy FROM '/tmp/bloomfilter_regress_states.bin' (FORMAT binary);
SELECT count(*) AS same_states FROM shard_states_bin a JOIN shard_states_copy b USING (shard) WHERE a.s::text = b.s::text;
SELECT combine_bloom_agg(s) = (SELECT b FROM serial) AS copied_states_combine FROM shard_states_copy;
-- the binary form carries the same state
SELECT bool_and(bloom_builder_send(state::bloom_builder) = decode(substr(state, 5), 'base64')) AS send_is_bytes FROM shard_states;
-- states travel compact: sorted hashes, Rice-coded (FORMAT.md), in base64 text
SELECT shard, round(octet_length(bloom_builder_send(state::bloom_builder)) / count_distinct::numeric, 2) AS bytes_per_value,
       round(length(state) / count_distinct::numeric, 2) AS text_chars_per_value
FROM shard_states JOIN (SELECT x % 4 AS shard, count(DISTINCT y) AS count_distinct FROM big GROUP BY 1) c USING (shard)
ORDER BY shard;
-- a 1.0 state (hex text, raw hashes in input order) still reads.
-- bloom_agg collects distinct hashes in runs of its own (bucketed past 16384);
-- the core's builder, given every hash in input order with duplicates as a
-- serialized state, deduplicates and sizes them itself: same filter
CREATE FUNCTION le_hex(h bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT string_agg(substr(encode(int8send(h), 'hex'), 15 - 2 * i, 2), '' ORDER BY i) FROM generate_series(0, 7) i $$;
CREATE TABLE dup_input AS SELECT (g % 20011)::int8 AS v, g AS ord FROM generate_series(1, 40000) g;
SELECT bloom_agg_final(('\x424c4d4201000100' || '0000000000000000' || '7b14ae47e17a843f' || le_hex(count(*))
                        || string_agg(le_hex(bloom_hash(v)), '' ORDER BY ord))::bloom_builder)::bytea
       -- a 1.0 state records no value kinds: its filter's byte 10 is 0, not NUMBER's 0x01
       = set_byte((SELECT bloom_agg(v) FROM dup_input)::bytea, 10, 0) AS core_equals_runs,
       (SELECT sum(get_byte(bloom_builder_send(s), 24 + i)::int8 << (8 * i))
        FROM (SELECT partial_bloom_agg(v) AS s FROM dup_input) p, generate_series(0, 7) i) AS distinct_in_state,
       count(DISTINCT v) AS distinct_values
FROM dup_input;
-- the transition function outside an aggregate does not modify its argument
SELECT bloom_agg_trans(bloom_agg_trans(NULL, 1::int8), 2::int8)::text AS two_values;
SELECT bloom_agg_final(bloom_agg_trans(bloom_agg_trans(NULL, 1::int8), 2::int8)) = bloom_agg(v) AS direct
FROM (VALUES (1::int8), (2::int8)) t(v);
SELECT bloom_agg_combine(s, s)::text = s::text AS combine_idempotent
FROM (SELECT bloom_agg_trans(NULL, 1::int8) AS s) t;
-- an empty state (valid input) can still grow
SELECT bloom_agg_final(bloom_agg_trans('\x424c4d420100010000000000000000007b14ae47e17a843f0000000000000000'::bloom_builder, 5::int8))
       = bloom_agg(5::int8) AS from_empty_state;
