-- Runtime filters at every kind of scan of the probe side: a heap Seq
-- Scan becomes the batched probe scan; an Index Scan, an Index Only Scan
-- and a Bitmap Heap Scan (of a table, a partition, in a parallel plan) get
-- the filter node, Custom Scan (BloomRuntimeFilter), above them.  Every
-- query runs with bloomfilter.runtime_filter on and off and must return
-- the same rows; "filtered" says whether the plan on has the filter node.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;
SET bloomfilter.runtime_filter_min_rows = 0;
-- hash joins only (the filters are theirs), scans chosen per test
SET enable_nestloop = off;
SET enable_mergejoin = off;

-- A fact table (20,000 rows, 2% NULL keys) with indexes on its key and on
-- another column, a dimension (4,000 keys, one in 40 selected, and a
-- selected row with a NULL key).
CREATE TABLE rs_fact AS
SELECT g AS id,
       CASE WHEN g % 50 = 0 THEN NULL ELSE (g * 7919) % 4000 END AS k,
       g % 1000 AS amount,
       g % 13 AS k2
FROM generate_series(1, 20000) g;
CREATE INDEX rs_fact_amount ON rs_fact (amount);
CREATE INDEX rs_fact_k_amount ON rs_fact (k, amount);
CREATE TABLE rs_dim AS
SELECT g AS k, g::int8 AS k8, g % 40 = 0 AS sel, g % 13 AS k2 FROM generate_series(0, 3999) g;
INSERT INTO rs_dim VALUES (NULL, NULL, true, 0);
CREATE TABLE rs_dim2 AS SELECT g AS k2 FROM generate_series(0, 12) g;
-- the index-only scans see every page all-visible
VACUUM ANALYZE rs_fact, rs_dim, rs_dim2;

-- q with the setting on and off: whether the plan on has the filter node
-- (rs_same) or any runtime filter (rs_same_any), how many rows, the same rows.
\i :abs_srcdir/sql/include/on_and_off.sql
\i :abs_srcdir/sql/include/runtime_filter_same.sql
CREATE FUNCTION rs_same(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$ SELECT * FROM pg_temp.rf_same_on_off(q, 'BloomRuntimeFilter') $$;
CREATE FUNCTION rs_same_any(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$ SELECT * FROM pg_temp.rf_same_on_off(q, 'Runtime Filter') $$;

-- EXPLAIN without the Hash node's and a tuple store's memory (they differ
-- between majors; 18 on shows the latter) and an index-only scan's heap
-- fetches (pages another session's snapshot kept from being all-visible).
CREATE FUNCTION rs_explain(q text, options text DEFAULT '')
RETURNS SETOF text LANGUAGE sql AS $$
SELECT * FROM pg_temp.explain(q, options) p WHERE p !~ '^\s*(Buckets|Heap Fetches|Storage): '
$$;

-- Index Scan: by the other column's index, and by the key's own index.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT * FROM rs_explain($$
SELECT count(*), sum(f.amount) FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900$$,
    'ANALYZE');
SELECT 'index scan' AS q, * FROM rs_same(
    'SELECT f.id, f.amount FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900')
UNION ALL
SELECT 'index scan of the key', * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.k BETWEEN 100 AND 3000')
UNION ALL
SELECT 'IN', * FROM rs_same(
    'SELECT id FROM rs_fact WHERE amount < 900 AND k IN (SELECT k FROM rs_dim WHERE sel)')
UNION ALL
SELECT 'key expression', * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k8 = f.k::int8 WHERE d.sel AND f.amount < 900')
UNION ALL
-- two filters on one index scan (a star join)
SELECT 'star', * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k JOIN rs_dim2 e ON e.k2 = f.k2
     WHERE d.sel AND e.k2 IN (3, 5) AND f.amount < 900')
UNION ALL
-- no filter where the join keeps the probe side's rows without a match
SELECT 'left join', * FROM rs_same(
    'SELECT f.id, d.k FROM rs_fact f LEFT JOIN rs_dim d ON d.k = f.k AND d.sel WHERE f.amount < 900')
UNION ALL
-- an empty build side, NULL keys only
SELECT 'empty build', * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND d.k < 0 AND f.amount < 900')
UNION ALL
SELECT 'NULL keys only', * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND d.k IS NULL AND f.amount < 900');
SELECT * FROM rs_explain($$
SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k JOIN rs_dim2 e ON e.k2 = f.k2
WHERE d.sel AND e.k2 IN (3, 5) AND f.amount < 900$$);

-- Index Only Scan.
SET enable_indexonlyscan = on;
SELECT * FROM rs_explain($$
SELECT f.k, f.amount FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.k < 2000$$, 'ANALYZE');
SELECT 'index only scan' AS q, * FROM rs_same(
    'SELECT f.k, f.amount FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.k < 2000');

-- Bitmap Heap Scan.
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = on;
SELECT * FROM rs_explain($$
SELECT count(*), sum(f.amount) FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900$$,
    'ANALYZE');
SELECT 'bitmap heap scan' AS q, * FROM rs_same(
    'SELECT f.id, f.amount FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900')
UNION ALL
SELECT 'bitmap heap scan, OR', * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND (f.amount < 300 OR f.amount > 700)');

-- Partitions: each partition's index scan gets the filter.
CREATE TABLE rs_parts (id int, k int, amount int) PARTITION BY RANGE (id);
CREATE TABLE rs_parts_1 PARTITION OF rs_parts FOR VALUES FROM (0) TO (10000);
CREATE TABLE rs_parts_2 PARTITION OF rs_parts FOR VALUES FROM (10000) TO (20001);
INSERT INTO rs_parts SELECT id, k, amount FROM rs_fact;
CREATE INDEX ON rs_parts (amount);
-- an inheritance child too
CREATE TABLE rs_inh (id int, k int, amount int);
CREATE TABLE rs_inh_child () INHERITS (rs_inh);
INSERT INTO rs_inh_child SELECT id, k, amount FROM rs_fact;
CREATE INDEX ON rs_inh_child (amount);
VACUUM ANALYZE rs_parts, rs_inh, rs_inh_child;
SELECT * FROM rs_explain($$
SELECT p.id FROM rs_parts p JOIN rs_dim d ON d.k = p.k WHERE d.sel AND p.amount < 900$$);
SELECT 'partitions' AS q, * FROM rs_same(
    'SELECT p.id FROM rs_parts p JOIN rs_dim d ON d.k = p.k WHERE d.sel AND p.amount < 900')
UNION ALL
SELECT 'inheritance', * FROM rs_same(
    'SELECT i.id FROM rs_inh i JOIN rs_dim d ON d.k = i.k WHERE d.sel AND i.amount < 900');

-- A hash join built again on each rescan, with other rows: the filter is
-- read again after each build (the partitions' index scans, under a
-- nested loop over a lateral reference).
SET enable_nestloop = on;
SELECT * FROM rs_explain($$
SELECT e.k2, s.n FROM rs_dim2 e,
LATERAL (SELECT count(*) AS n FROM rs_parts p JOIN rs_dim d ON d.k = p.k
         WHERE d.sel AND d.k2 = e.k2 AND p.amount < 900) s$$);
SELECT 'rebuilt on rescan' AS q, * FROM rs_same(
    'SELECT e.k2, s.n FROM rs_dim2 e,
     LATERAL (SELECT count(*) AS n FROM rs_parts p JOIN rs_dim d ON d.k = p.k
              WHERE d.sel AND d.k2 = e.k2 AND p.amount < 900) s');
SET enable_nestloop = off;

-- Parallel plans: a Parallel Index Scan and a Parallel Bitmap Heap Scan
-- under the filter node, the filter sent to the workers.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET min_parallel_index_scan_size = 0;
SELECT * FROM rs_explain($$
SELECT count(*), sum(f.amount) FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900$$);
SELECT 'parallel index scan' AS q, * FROM rs_same(
    'SELECT f.id, f.amount FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900');
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT * FROM rs_explain($$
SELECT count(*), sum(f.amount) FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900$$);
SELECT 'parallel bitmap heap scan' AS q, * FROM rs_same(
    'SELECT f.id, f.amount FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND f.amount < 900');

-- The range tier: a filter of one integer key also has the build keys'
-- least and greatest; a probe key outside them is removed before the
-- Bloom filter is probed (EXPLAIN ANALYZE counts those rows).
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = on;
SET enable_indexscan = on;
SET enable_bitmapscan = off;
-- at the batched probe (a Seq Scan) and at the filter node (an index scan)
SELECT * FROM rs_explain($$
SELECT count(*) FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.sel AND d.k BETWEEN 1000 AND 1400$$,
    'ANALYZE');
SET enable_seqscan = off;
SELECT * FROM rs_explain($$
SELECT count(*) FROM rs_fact f JOIN rs_dim d ON d.k = f.k
WHERE d.sel AND d.k BETWEEN 1000 AND 1400 AND f.amount < 900$$, 'ANALYZE');
SET enable_seqscan = on;
-- keys at the ends of int8 and int2, keys of two types (int8 build, int4
-- probe), a range that excludes every probe row, two keys far apart
CREATE TABLE rs_wide (k8 int8, k2 int2);
INSERT INTO rs_wide VALUES (-9223372036854775808, -32768), (9223372036854775807, 32767),
    (-1, -1), (0, 0), (1, 1), (3999, 3999), (NULL, NULL);
CREATE TABLE rs_wide_dim (k8 int8, k2 int2, sel bool);
INSERT INTO rs_wide_dim SELECT k8, k2, true FROM rs_wide;
INSERT INTO rs_wide_dim SELECT g, g, false FROM generate_series(2, 1000) g;
-- keys above every fact key; dates (hashed as int4: read as numbers too)
CREATE TABLE rs_far AS SELECT g + 5000 AS k FROM generate_series(0, 99) g;
CREATE TABLE rs_days AS SELECT id, DATE '2000-01-01' + k AS day FROM rs_fact;
CREATE TABLE rs_days_dim AS SELECT DATE '2000-01-01' + k AS day, sel FROM rs_dim WHERE k BETWEEN 1000 AND 1400;
ANALYZE rs_wide, rs_wide_dim, rs_far, rs_days, rs_days_dim;
SELECT 'int8 ends' AS q, * FROM rs_same_any(
    'SELECT w.k8 FROM rs_wide w JOIN rs_wide_dim d ON d.k8 = w.k8 WHERE d.sel')
UNION ALL
SELECT 'int2 ends', * FROM rs_same_any(
    'SELECT w.k2 FROM rs_wide w JOIN rs_wide_dim d ON d.k2 = w.k2 WHERE d.sel')
UNION ALL
SELECT 'int8 build, int4 probe', * FROM rs_same_any(
    'SELECT f.id FROM rs_fact f JOIN rs_wide_dim d ON d.k8 = f.k WHERE d.sel')
UNION ALL
SELECT 'int2 build, int4 probe', * FROM rs_same_any(
    'SELECT f.id FROM rs_fact f JOIN rs_wide_dim d ON d.k2 = f.k WHERE d.k2 BETWEEN 100 AND 200')
UNION ALL
SELECT 'range excludes all', * FROM rs_same_any(
    'SELECT f.id FROM rs_fact f JOIN rs_far d ON d.k = f.k')
UNION ALL
SELECT 'dates', * FROM rs_same_any(
    'SELECT f.id, f.day FROM rs_days f JOIN rs_days_dim d ON d.day = f.day WHERE d.sel')
UNION ALL
SELECT 'two keys far apart', * FROM rs_same_any(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE d.k IN (7, 3993)');
SELECT * FROM rs_explain($$
SELECT f.id FROM rs_fact f JOIN rs_far d ON d.k = f.k$$, 'ANALYZE');
SELECT * FROM rs_explain($$
SELECT f.id FROM rs_fact f JOIN rs_wide_dim d ON d.k8 = f.k WHERE d.sel$$, 'ANALYZE');
-- More build keys than the size setting allows (the estimate is far too
-- low, so the planner adds a filter): no Bloom filter, the range alone, at
-- the filter node too.
SET bloomfilter.runtime_filter_max_size = '1kB';
SET enable_seqscan = off;
SELECT * FROM rs_explain($$
SELECT count(*) FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE (d.k2 * 0) = 0 AND d.k < 3000 AND f.amount < 900$$,
    'ANALYZE');
SELECT 'range only' AS q, * FROM rs_same(
    'SELECT f.id FROM rs_fact f JOIN rs_dim d ON d.k = f.k WHERE (d.k2 * 0) = 0 AND d.k < 3000 AND f.amount < 900');
RESET bloomfilter.runtime_filter_max_size;
RESET enable_seqscan;

-- The scan of a CTE and of a function: the filter node over it.  A CTE's
-- condition with a correlated subquery moves up into the filter node, after
-- the filter: a row the filter drops does not run the subquery (its loops
-- in EXPLAIN ANALYZE: the rows the filter passes).
SELECT * FROM rs_explain($$
WITH c AS MATERIALIZED (SELECT id, k, amount, k2 FROM rs_fact WHERE id <= 2000)
SELECT count(*) FROM c JOIN rs_dim d ON d.k = c.k
WHERE d.sel AND c.amount >= (SELECT avg(x.amount) FROM c x WHERE x.k2 = c.k2)$$,
    'ANALYZE');
SELECT 'CTE' AS q, * FROM rs_same(
    'WITH c AS MATERIALIZED (SELECT id, k, amount FROM rs_fact)
     SELECT c.id FROM c JOIN rs_dim d ON d.k = c.k WHERE d.sel')
UNION ALL
SELECT 'CTE, correlated subquery', * FROM rs_same(
    'WITH c AS MATERIALIZED (SELECT id, k, amount, k2 FROM rs_fact WHERE id <= 2000)
     SELECT c.id, c.amount FROM c JOIN rs_dim d ON d.k = c.k
     WHERE d.sel AND c.amount >= (SELECT avg(x.amount) FROM c x WHERE x.k2 = c.k2)')
UNION ALL
SELECT 'CTE, subquery of a column not returned', * FROM rs_same(
    'WITH c AS MATERIALIZED (SELECT id, k, amount, k2 FROM rs_fact WHERE id <= 2000)
     SELECT c.id FROM c JOIN rs_dim d ON d.k = c.k
     WHERE d.sel AND c.amount >= (SELECT min(x.amount) FROM c x WHERE x.k2 = c.k2 AND x.id > c.id - 100)')
UNION ALL
SELECT 'CTE, semi join', * FROM rs_same(
    'WITH c AS MATERIALIZED (SELECT id, k FROM rs_fact)
     SELECT c.id FROM c WHERE c.k IN (SELECT k FROM rs_dim WHERE sel)')
UNION ALL
SELECT 'function', * FROM rs_same(
    'SELECT g FROM generate_series(1, 20000) g JOIN rs_dim d ON d.k = g WHERE d.sel')
UNION ALL
SELECT 'function, left join: none', * FROM rs_same(
    'SELECT g, d.k FROM generate_series(1, 20000) g LEFT JOIN rs_dim d ON d.k = g AND d.sel');
