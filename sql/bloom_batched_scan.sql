-- The batched probe scan (Custom Scan BloomBatchedProbe): every query runs
-- with bloomfilter.enable_batched_probe on and off and must give the same
-- rows; the plan with it on must use the scan (and the plan with it off
-- must not).
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
\i :abs_srcdir/sql/include/on_and_off.sql
SET max_parallel_workers_per_gather = 0;
-- small constant filters are batched too
SET bloomfilter.batched_probe_min_size = 0;

-- Every key type the hashing knows, each column 10% NULL.
CREATE DOMAIN positive_int8 AS int8 CHECK (VALUE > 0);
CREATE TABLE bscan_keys AS
SELECT g AS id, n.v AS i8, n.v::int4 AS i4, n.v::int2 AS i2, (n.v % 2 = 0) AS b, n.v::oid AS o,
       (n.v / 4.0)::float4 AS f4, (n.v / 8.0)::float8 AS f8, (n.v / 2.0)::numeric AS num,
       'k' || n.v AS t, ('k' || n.v)::varchar(20) AS vc, ('k' || n.v)::char(12) AS bc,
       ('k' || n.v)::name AS nm, ('k' || n.v)::bytea AS by, date '2020-01-01' + n.v::int4 AS d,
       md5(n.v::text)::uuid AS u, n.v::positive_int8 AS dom, g % 5 AS m
FROM generate_series(1, 3000) g, LATERAL (SELECT CASE WHEN g % 10 = 0 THEN NULL ELSE g END::int8 AS v) n;
ANALYZE bscan_keys;

-- Filters of a third of the ids, per column and layout: overfull, so that
-- about a fifth of the other rows are false positives; and one filter per
-- layout large enough to be stored out of line (TOASTed).
CREATE TABLE bscan_filters (layout text, col text, f bloom);
ALTER TABLE bscan_filters ALTER f SET STORAGE external;
CREATE FUNCTION build_filters() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    l text;
    c text;
BEGIN
    FOREACH l IN ARRAY ARRAY['classic', 'blocked', 'counting'] LOOP
        PERFORM set_config('bloomfilter.default_layout', l, true);
        FOREACH c IN ARRAY ARRAY['i8', 'i4', 'i2', 'b', 'o', 'f4', 'f8', 'num', 't', 'vc', 'bc',
                                 'nm', 'by', 'd', 'u', 'dom'] LOOP
            EXECUTE format('INSERT INTO bscan_filters SELECT %L, %L, bloom_agg(%I, 450, 0.02) FROM bscan_keys WHERE id %% 3 = 0',
                           l, c, c);
        END LOOP;
        INSERT INTO bscan_filters SELECT l, 'i8 stored', bloom_agg(i8, 20000, 0.01) FROM bscan_keys WHERE id % 3 = 0;
    END LOOP;
END $$;
SELECT build_filters();

-- q with the setting on and off: which plans, how many rows, same rows.
CREATE FUNCTION batched_same(q text)
RETURNS TABLE (batched_plan bool, plain_plan bool, row_count int, same bool)
LANGUAGE sql AS $$
SELECT plan_on LIKE '%BloomBatchedProbe%', plan_off NOT LIKE '%BloomBatchedProbe%', row_count, same
FROM pg_temp.on_and_off('bloomfilter.enable_batched_probe', q)
$$;

-- The plan: the filter is an InitPlan's result, the other quals stay quals.
SELECT * FROM pg_temp.explain($$
SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND m = 1$$);

-- Run: the filter's size once read, and the rows it removed.
SELECT * FROM pg_temp.explain($$
SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'blocked' AND col = 'i8 stored'), i8) AND m = 1$$, 'ANALYZE');

-- Every key type, all three layouts: the members (a third, none NULL) and the
-- false positives are the same with and without batches.
SELECT layout, col, s.*
FROM bscan_filters, LATERAL batched_same(format(
    'SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = %L AND col = %L), %I)',
    layout, col, split_part(col, ' ', 1))) s
ORDER BY layout, col;
-- no false negative: every member passes
SELECT count(*) AS members_missed FROM bscan_keys
WHERE id % 3 = 0 AND i8 IS NOT NULL
  AND NOT bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'blocked' AND col = 'i8'), i8);
SELECT layout, col, pg_column_size(f) > 20000 AS out_of_line FROM bscan_filters WHERE col = 'i8 stored' ORDER BY layout;

-- A stored filter of 1 MiB or more is read whole, once, into a cache-aligned
-- buffer: uncompressed (the type's STORAGE external) straight from its TOAST
-- chunks, compressed by detoasting first.  Batched and row by row (where the
-- piecewise probes give way to a whole read after a few rows), each answers as
-- the same filter held in memory, and every member passes.
CREATE TABLE bscan_big (storage text, f bloom);
INSERT INTO bscan_big SELECT 'external', bloom_agg(i8, 1000000, 0.01) FROM bscan_keys WHERE id % 3 = 0;
ALTER TABLE bscan_big ALTER f SET STORAGE extended;
INSERT INTO bscan_big SELECT 'extended', f FROM bscan_big;
SELECT storage, octet_length(f::bytea) AS bytes, pg_column_size(f) < octet_length(f::bytea) AS compressed
FROM bscan_big ORDER BY storage;
CREATE FUNCTION big_ids(storage text, held text) RETURNS int[] LANGUAGE plpgsql AS $$
DECLARE
    ids int[];
BEGIN
    EXECUTE format('SELECT array_agg(id ORDER BY id) FROM bscan_keys
                    WHERE bloom_contains((SELECT %s FROM bscan_big WHERE storage = %L), i8)', held, storage)
    INTO ids;
    RETURN ids;
END $$;
SELECT storage, s.*,
       big_ids(storage, 'f') = big_ids(storage, 'f::bytea::bloom') AS same_as_in_memory,
       (SELECT count(*) FROM bscan_keys WHERE id % 3 = 0 AND i8 IS NOT NULL
          AND i8 <> ALL (big_ids(storage, 'f'))) AS members_missed
FROM bscan_big, LATERAL batched_same(format(
    'SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_big WHERE storage = %L), i8)', storage)) s
ORDER BY storage;

-- The operator forms, other quals, projection, a NULL filter.
SELECT s.* FROM batched_same(
    'SELECT id, upper(t) AS tt, i8 * 2 AS twice FROM bscan_keys
     WHERE (SELECT f FROM bscan_filters WHERE layout = ''classic'' AND col = ''t'') @> t AND m IN (1, 2) AND id > 100') s;
SELECT s.* FROM batched_same(
    'SELECT id FROM bscan_keys WHERE i4 <@ (SELECT f FROM bscan_filters WHERE layout = ''blocked'' AND col = ''i4'') AND b') s;
SELECT s.* FROM batched_same(
    'SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = ''none''), i8)') s;
-- a key expression, not a bare column
SELECT s.* FROM batched_same(
    'SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = ''classic'' AND col = ''i8''), i8 + 1)') s;

-- A constant filter: chosen from the size setting on, shown with its size.
SELECT format('SELECT id FROM bscan_keys WHERE bloom_contains(%L::bloom, i8)', f::text) AS const_query
FROM bscan_filters WHERE layout = 'classic' AND col = 'i8 stored' \gset
SELECT s.* FROM batched_same(:'const_query') s;
SELECT * FROM pg_temp.explain(:'const_query' || ' AND m = 1');
RESET bloomfilter.batched_probe_min_size;
SHOW bloomfilter.batched_probe_min_size;
-- below the size: the plain scan
SELECT s.* FROM batched_same(:'const_query') s;
SET bloomfilter.batched_probe_min_size = 0;

-- A query parameter in a generic plan.
SELECT f::text AS filter_text FROM bscan_filters WHERE layout = 'blocked' AND col = 't' \gset
SET plan_cache_mode = force_generic_plan;
PREPARE probe_batched(bloom) AS SELECT count(*), sum(id) FROM bscan_keys WHERE $1 @> t;
SELECT * FROM pg_temp.explain(format('EXECUTE probe_batched(%L)', :'filter_text'));
EXECUTE probe_batched(:'filter_text');
SET bloomfilter.enable_batched_probe = off;
PREPARE probe_plain(bloom) AS SELECT count(*), sum(id) FROM bscan_keys WHERE $1 @> t;
SELECT * FROM pg_temp.explain(format('EXECUTE probe_plain(%L)', :'filter_text'));
EXECUTE probe_plain(:'filter_text');
RESET bloomfilter.enable_batched_probe;
RESET plan_cache_mode;

-- enable_seqscan = off disables the batched scan as it disables the Seq
-- Scan it is costed from (18 on: a count of disabled nodes, compared before
-- costs; before: disable_cost added to them): an index scan on another qual
-- wins however much more it costs, and without one the batched scan still
-- wins over the plain scan, both disabled.
BEGIN;
CREATE INDEX bscan_keys_id ON bscan_keys (id);
SELECT * FROM pg_temp.explain($$
SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND id > 0$$);
SET LOCAL enable_seqscan = off;
SELECT * FROM pg_temp.explain($$
SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND id > 0$$);
SELECT * FROM pg_temp.explain($$
SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND m = 1$$);
ROLLBACK;

-- A filter that changes per outer row: the scan is rescanned and reads it again.
SELECT s.* FROM batched_same(
    'SELECT fl.layout, fl.col, (SELECT count(*) FROM bscan_keys WHERE bloom_contains(fl.f, bscan_keys.i8)) AS n
     FROM bscan_filters fl WHERE fl.col IN (''i8'', ''t'', ''f8'')') s;

-- Partitions: each one gets the scan.
CREATE TABLE bscan_parts (id int, k int8) PARTITION BY RANGE (id);
CREATE TABLE bscan_parts_1 PARTITION OF bscan_parts FOR VALUES FROM (0) TO (1500);
CREATE TABLE bscan_parts_2 PARTITION OF bscan_parts FOR VALUES FROM (1500) TO (3001);
INSERT INTO bscan_parts SELECT id, i8 FROM bscan_keys;
ANALYZE bscan_parts;
SELECT * FROM pg_temp.explain($$
SELECT count(*) FROM bscan_parts WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), k)$$);
SELECT s.* FROM batched_same(
    'SELECT id FROM bscan_parts WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = ''classic'' AND col = ''i8''), k)') s;

-- Rows to lock, delete or update come with their row identity.
SELECT s.* FROM batched_same(
    'SELECT id FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = ''classic'' AND col = ''o''), o) AND m = 3 FOR UPDATE') s;
BEGIN;
SELECT * FROM pg_temp.explain($$
DELETE FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND m = 0$$);
WITH d AS (DELETE FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND m = 0 RETURNING id)
SELECT count(*), sum(id) FROM d;
WITH u AS (UPDATE bscan_keys SET m = 9 WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) RETURNING id)
SELECT count(*), sum(id) FROM u;
ROLLBACK;
BEGIN;
SET LOCAL bloomfilter.enable_batched_probe = off;
WITH d AS (DELETE FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) AND m = 0 RETURNING id)
SELECT count(*), sum(id) FROM d;
WITH u AS (UPDATE bscan_keys SET m = 9 WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'classic' AND col = 'i8'), i8) RETURNING id)
SELECT count(*), sum(id) FROM u;
ROLLBACK;

-- Parallel: the scan is parallel-aware (workers share one heap scan).
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM pg_temp.explain($$
SELECT count(*), sum(id) FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = 'blocked' AND col = 'i8'), i8)$$);
SELECT s.* FROM batched_same(
    'SELECT count(*), sum(id) FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = ''blocked'' AND col = ''i8''), i8)') s;
SELECT s.* FROM batched_same(
    'SELECT id, t FROM bscan_keys WHERE bloom_contains((SELECT f FROM bscan_filters WHERE layout = ''classic'' AND col = ''num''), num) AND m < 4') s;
RESET ALL;
DROP TABLE bscan_keys, bscan_filters, bscan_parts;
DROP FUNCTION build_filters(), batched_same(text);
DROP DOMAIN positive_int8;
