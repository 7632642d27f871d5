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
-- (and the plan off none), how many rows, and the same rows.
CREATE FUNCTION rs_same(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan_on text := '';
    plan_off text := '';
    rows_on text[];
    rows_off text[];
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan_on := plan_on || line || E'\n';
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_on;
    PERFORM set_config('bloomfilter.runtime_filter', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan_off := plan_off || line || E'\n';
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_off;
    PERFORM set_config('bloomfilter.runtime_filter', 'on', true);
    IF plan_off LIKE '%Runtime Filter%' THEN
        RAISE EXCEPTION 'a filter with bloomfilter.runtime_filter off: %', plan_off;
    END IF;
    RETURN QUERY SELECT plan_on LIKE '%BloomRuntimeFilter%', coalesce(cardinality(rows_on), 0),
                        rows_on IS NOT DISTINCT FROM rows_off;
END $$;

-- EXPLAIN without the Hash node's memory (it differs between majors).
CREATE FUNCTION rs_explain(q text, options text DEFAULT '')
RETURNS SETOF text LANGUAGE sql AS $$
SELECT * FROM pg_temp.explain(q, options) p WHERE p !~ '^\s*Buckets: '
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
