-- The exact-set tier of a runtime filter (a filter of one integer key with
-- at most 1024 build keys also has the keys themselves, probed in place of
-- the Bloom filter) and runtime index lookups (a probe scan of a table
-- with a btree index led by the key reads only the rows of those keys,
-- when few).  Every query runs with bloomfilter.runtime_filter on and off
-- and must return the same rows.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;
SET bloomfilter.runtime_filter_min_rows = 0;
-- hash joins only (the filters are theirs)
SET enable_nestloop = off;
SET enable_mergejoin = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;

-- Fact tables of 100,000 rows, 5 per key (0 to 19999), with the key as
-- int4, int8 and int2, each with an index on the key and a wider one (the
-- lookups take the one with the fewest columns); a dimension with the key
-- in the three types, groups of 20 keys, a NULL key and repeated keys.
CREATE TABLE ks_fact AS
SELECT g AS id, g % 20000 AS k, g % 97 AS v FROM generate_series(1, 100000) g;
CREATE INDEX ks_fact_k_v ON ks_fact (k, v);
CREATE INDEX ks_fact_k ON ks_fact (k);
CREATE TABLE ks_fact8 AS SELECT id, k::int8 AS k, v FROM ks_fact;
CREATE INDEX ks_fact8_k ON ks_fact8 (k);
CREATE TABLE ks_fact2 AS SELECT id, k::int2 AS k, v FROM ks_fact;
CREATE INDEX ks_fact2_k ON ks_fact2 (k);
CREATE TABLE ks_dim AS
SELECT g AS k, g::int8 AS k8, g::int2 AS k2, g % 1000 AS grp FROM generate_series(0, 19999) g;
-- the same keys again, and a NULL key, in group 7
INSERT INTO ks_dim SELECT k, k8, k2, grp FROM ks_dim WHERE grp = 7;
INSERT INTO ks_dim VALUES (NULL, NULL, NULL, 7);
VACUUM ANALYZE ks_fact, ks_fact8, ks_fact2, ks_dim;

\i :abs_srcdir/sql/include/on_and_off.sql
\i :abs_srcdir/sql/include/runtime_filter_same.sql
CREATE FUNCTION ks_same(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$ SELECT * FROM pg_temp.rf_same_on_off(q, 'Runtime Filter') $$;
-- the lines of EXPLAIN ANALYZE that say how the filter probed
CREATE FUNCTION ks_explain(q text)
RETURNS SETOF text LANGUAGE sql AS $$
SELECT * FROM pg_temp.explain(q, 'ANALYZE') p
WHERE p ~ '(Runtime Filter|Index Lookups|Rows Removed by Bloom Filter|BloomBatchedProbe)'
$$;

-- 20 keys (a repeated one, a NULL): the exact set, and lookups through the
-- one-column index (20 keys of 5 rows: within 1% of the table).
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'int4 = int4' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
-- the scan's own quals still apply to the rows looked up
SELECT 'quals' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7 AND f.v < 50$$);
-- a semi join
SELECT 'semi' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact f WHERE f.k IN (SELECT k8 FROM ks_dim WHERE grp = 7)$$);

-- Mixed integer types: int8 and int2 fact keys, int4 and int8 build keys.
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_fact8 f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'int8 = int4' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact8 f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_fact2 f JOIN ks_dim d ON d.k8 = f.k WHERE d.grp = 7$$);
SELECT 'int2 = int8' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact2 f JOIN ks_dim d ON d.k8 = f.k WHERE d.grp = 7$$);
SELECT 'int4 = int2' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact f JOIN ks_dim d ON d.k2 = f.k WHERE d.grp = 7$$);

-- 500 keys: the exact set, no lookups (2,500 rows: above 1% of the table).
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp < 25$$);
SELECT '500 keys' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp < 25$$);
-- 2,000 keys: no exact set (more than 1024), the Bloom filter.
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp < 100$$);
SELECT '2000 keys' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp < 100$$);
-- no build key at all: an empty set
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 5000$$);

-- Lookups off: the exact set, no lookups.
SET bloomfilter.runtime_filter_index_lookups = off;
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
RESET bloomfilter.runtime_filter_index_lookups;

-- A query that locks the rows it reads: no lookups.
SELECT * FROM ks_explain($$
SELECT f.id FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7 FOR UPDATE OF f$$);
SELECT 'for update' AS q, * FROM ks_same($$
SELECT f.id FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7 FOR UPDATE OF f$$);

-- Deleted and updated rows, before and after VACUUM: the rows looked up
-- are the ones the snapshot sees.
DELETE FROM ks_fact WHERE k IN (7, 1007) AND id > 50000;
UPDATE ks_fact SET v = v + 1000 WHERE k = 2007;
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'dead rows' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
VACUUM ks_fact;
SELECT 'vacuumed' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);

-- Rescans: the join under a nested loop, a new build (another group, so
-- another set) each time; every rescan decides again.
SET enable_nestloop = on;
SELECT * FROM ks_explain($$
SELECT t.g, s.* FROM (VALUES (7), (8), (150), (5000)) t(g),
LATERAL (SELECT count(*), sum(f.v) FROM ks_fact f JOIN ks_dim d ON d.k = f.k
         WHERE d.grp = t.g OR (t.g = 150 AND d.grp < 150)) s$$);
SELECT 'rescans' AS q, * FROM ks_same($$
SELECT t.g, s.* FROM (VALUES (7), (8), (150), (5000)) t(g),
LATERAL (SELECT count(*), sum(f.v) FROM ks_fact f JOIN ks_dim d ON d.k = f.k
         WHERE d.grp = t.g OR (t.g = 150 AND d.grp < 150)) s$$);
SET enable_nestloop = off;

-- Parallel plans: a Parallel Hash builds one shared set from every
-- participant's keys; the Parallel Seq Scan of the probe side is decided
-- once for all participants (the first decides; with lookups, it does them
-- all and the others return nothing).  Without workers launched the leader
-- does everything, so the figures are the same every time.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = on;
SELECT * FROM pg_temp.explain($$
SELECT count(*), sum(f.v) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
SET max_parallel_workers = 0;
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
RESET max_parallel_workers;
SELECT 'parallel' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'parallel, 500 keys' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_fact f JOIN ks_dim d ON d.k = f.k WHERE d.grp < 25$$);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;

DROP TABLE ks_fact, ks_fact8, ks_fact2, ks_dim;

-- Sets above 1024 keys, for the lookups only: a table in the order of its
-- key (correlation 1) may fetch up to 5% of its rows through the index,
-- and its filter keeps as many keys (the Bloom filter is probed still).
-- 200,000 rows, 4 per key, in key order; the same rows shuffled; and a
-- table in order whose first 100 keys have 1,000 rows each (the average
-- says 2 rows a key: the sample of the keys' index entries says more).
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ks_ordered AS SELECT g AS id, g / 4 AS k, g % 89 AS v FROM generate_series(0, 199999) g;
CREATE INDEX ks_ordered_k ON ks_ordered (k);
CREATE TABLE ks_shuffled AS SELECT * FROM ks_ordered ORDER BY (id * 7919) % 200003;
CREATE INDEX ks_shuffled_k ON ks_shuffled (k);
CREATE TABLE ks_skewed AS
SELECT g AS id, CASE WHEN g < 100000 THEN g / 1000 ELSE g - 99900 END AS k, g % 89 AS v
FROM generate_series(0, 199999) g;
CREATE INDEX ks_skewed_k ON ks_skewed (k);
CREATE TABLE ks_big_dim AS SELECT g AS k, g % 25 AS grp FROM generate_series(0, 49999) g;
VACUUM ANALYZE ks_ordered, ks_shuffled, ks_skewed, ks_big_dim;
SELECT tablename, round(correlation::numeric, 1) AS correlation FROM pg_stats
WHERE tablename IN ('ks_ordered', 'ks_shuffled', 'ks_skewed') AND attname = 'k' ORDER BY 1;

-- 2,000 keys (grp 7: every 25th key), 8,000 rows: lookups in order, two
-- chunks of 1,024 keys; shuffled, the same keys: the sequential scan.
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'ordered, 2000 keys' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_shuffled f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'shuffled, 2000 keys' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_shuffled f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
-- 5,000 keys (20,000 rows): above 5% of the table, no lookups
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k
WHERE d.grp IN (7, 8) OR (d.grp = 9 AND d.k < 25000)$$);
-- the first 100 keys of ks_skewed, 100,000 rows: the sample sees them, no
-- lookups; 100 keys of one row each: lookups
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_skewed f JOIN ks_big_dim d ON d.k = f.k WHERE d.k < 100$$);
SELECT 'skewed' AS q, * FROM ks_same($$
SELECT f.id FROM ks_skewed f JOIN ks_big_dim d ON d.k = f.k WHERE d.k < 100$$);
SELECT * FROM ks_explain($$
SELECT count(*) FROM ks_skewed f JOIN ks_big_dim d ON d.k = f.k WHERE d.k BETWEEN 1000 AND 1099$$);
-- the keys kept for lookups are bounded by the memory a filter may take:
-- at 8kB, 1,024 keys, so the set of 2,000 is not kept (no lookups)
SET bloomfilter.runtime_filter_max_size = '8kB';
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
RESET bloomfilter.runtime_filter_max_size;
-- rescans with sets of 2,000 keys, then 20: the chunks start over
SET enable_nestloop = on;
SELECT 'rescans, 2000 keys' AS q, * FROM ks_same($$
SELECT t.g, s.* FROM (VALUES (7), (8), (1000)) t(g),
LATERAL (SELECT count(*), sum(f.v) FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k
         WHERE d.grp = t.g OR (t.g = 1000 AND d.k < 20)) s$$);
SELECT * FROM ks_explain($$
SELECT t.g, s.* FROM (VALUES (7), (8), (1000)) t(g),
LATERAL (SELECT count(*), sum(f.v) FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k
         WHERE d.grp = t.g OR (t.g = 1000 AND d.k < 20)) s$$);
SET enable_nestloop = off;

-- Parallel: a Parallel Hash's shared set of 2,000 keys, its chunks of keys
-- taken by the participants in turn (without workers launched the leader
-- takes them all, so the figures are the same every time), and with
-- workers the same rows on and off.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers = 0;
SELECT * FROM ks_explain($$
SELECT count(*), sum(f.v) FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
RESET max_parallel_workers;
SELECT 'parallel, 2000 keys' AS q, * FROM ks_same($$
SELECT f.id, f.v FROM ks_ordered f JOIN ks_big_dim d ON d.k = f.k WHERE d.grp = 7$$);
SELECT 'parallel, skewed' AS q, * FROM ks_same($$
SELECT f.id FROM ks_skewed f JOIN ks_big_dim d ON d.k = f.k WHERE d.k < 100 OR d.grp = 3$$);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
