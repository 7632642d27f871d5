-- A runtime filter's build side computed once for all the processes of a
-- parallel plan (bloomfilter.runtime_filter_build_once,
-- pg/runtime_filter_compute_once.c): under a Gather, a hash join whose Hash
-- node is not a Parallel Hash has each process compute the whole build
-- side; when it is expensive, the first process computes it and the others
-- read its rows.  Every query runs with the setting on and off and must
-- return the same rows; "once" says whether the plan on has the node (and
-- the plan off has none).
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
\i :abs_srcdir/sql/include/on_and_off.sql
LOAD 'bloomfilter';
SET bloomfilter.runtime_filter_min_rows = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
-- a hash table in each process (a Parallel Hash shares its own)
SET enable_parallel_hash = off;
-- the tables are small: any build side is worth computing once
SET bloomfilter.runtime_filter_build_once_min_cost = 0;

-- Facts (30,000 rows, keys 0-2999 and some NULL), sales (20,000 rows over
-- the same keys), dimensions (3,000 keys, one in 30 selected).  Sales and
-- dimensions are read by one process each (parallel_workers = 0): a build
-- side each process computes in full.
CREATE TABLE bo_fact AS
SELECT g AS id, CASE WHEN g % 97 = 0 THEN NULL ELSE (g * 7919) % 3000 END AS k, g % 100 AS amount
FROM generate_series(1, 30000) g;
CREATE TABLE bo_sales WITH (parallel_workers = 0) AS
SELECT g AS id, (g * 31) % 3000 AS k, g % 9 + 1 AS qty FROM generate_series(1, 20000) g;
CREATE TABLE bo_dim WITH (parallel_workers = 0) AS SELECT g AS k, g % 30 = 0 AS sel, g % 7 AS grp FROM generate_series(0, 2999) g;
ANALYZE bo_fact, bo_sales, bo_dim;

\i :abs_srcdir/sql/include/runtime_filter_same.sql
CREATE FUNCTION bo_same(q text)
RETURNS TABLE (once bool, row_count int, same bool)
LANGUAGE sql AS $$
    SELECT * FROM pg_temp.same_on_off('bloomfilter.runtime_filter_build_once', q,
                                      'BloomComputeOnce', 'BloomComputeOnce')
$$;

-- What EXPLAIN ANALYZE says of the node: who computed the rows depends on
-- which process came first, and how many read them on the workers started.
CREATE FUNCTION bo_computed(q text)
RETURNS TABLE (computed text, child_loops int)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    seen bool := false;
BEGIN
    FOR line IN SELECT * FROM pg_temp.explain(q, 'ANALYZE') LOOP
        IF line ~ 'Computed Once: ' THEN
            computed := regexp_replace(btrim(line), 'by (the leader|worker [0-9]+), (.*), read by [0-9]+ other process(es)?$',
                                       'by one process, \2');
            seen := true;
        ELSIF seen AND line ~ '->' THEN
            child_loops := substring(line from 'loops=([0-9]+)')::int;
            RETURN NEXT;
            seen := false;
        END IF;
    END LOOP;
END $$;

-- The build side an aggregate: the keys of more than 40 units sold.
SELECT * FROM pg_temp.explain($$
SELECT count(*), sum(f.amount) FROM bo_fact f
WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);
SELECT * FROM bo_computed($$
SELECT count(*), sum(f.amount) FROM bo_fact f
WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);

SELECT 'aggregate' AS q, * FROM bo_same($$
SELECT f.id, f.amount FROM bo_fact f
WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$)
UNION ALL
-- the build side a join: the selected dimensions' sales
SELECT 'join', * FROM bo_same($$
SELECT f.id, s.qty FROM bo_fact f
JOIN (SELECT s.k, s.qty FROM bo_sales s JOIN bo_dim d ON d.k = s.k WHERE d.sel AND s.qty > 5) s ON s.k = f.k$$)
UNION ALL
-- a join of two keys, NULL keys on the probe side
SELECT 'two keys', * FROM bo_same($$
SELECT f.id FROM bo_fact f
JOIN (SELECT k, max(qty) % 3 AS q3 FROM bo_sales GROUP BY k HAVING count(*) > 6) s
  ON s.k = f.k AND s.q3 = f.amount % 3$$)
UNION ALL
-- a semi join with DISTINCT on the build side
SELECT 'distinct', * FROM bo_same($$
SELECT f.id FROM bo_fact f
WHERE EXISTS (SELECT FROM (SELECT DISTINCT k FROM bo_sales WHERE qty = 9 AND k % 10 = 0) s WHERE s.k = f.k)$$);

-- Many batches: the join spills its hash table, and reads the build side
-- once still.
SET work_mem = '64kB';
SELECT 'many batches' AS q, * FROM bo_same($$
SELECT f.id, s.id FROM bo_fact f JOIN (SELECT s.* FROM bo_sales s JOIN bo_dim d ON d.k = s.k WHERE d.grp = 3) s ON s.k = f.k$$);
RESET work_mem;

-- No worker started: the leader computes the rows and reads none.
SET max_parallel_workers = 0;
SELECT 'no worker' AS q, * FROM bo_same($$
SELECT f.id FROM bo_fact f WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);
SELECT * FROM bo_computed($$
SELECT count(*) FROM bo_fact f WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);
RESET max_parallel_workers;

-- A Gather run again for each outer row (the inner side of a nested loop,
-- nothing materialized): each execution computes the rows once.
SET enable_material = off;
SELECT 'Gather rescanned' AS q, * FROM bo_same($$
SELECT d.k, c.id FROM bo_dim d
JOIN (SELECT f.k, f.id FROM bo_fact f
      WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40) OFFSET 0) c
  ON c.k <= d.k AND c.k >= d.k
WHERE d.k < 4$$);
SELECT * FROM bo_computed($$
SELECT d.k, c.id FROM bo_dim d
JOIN (SELECT f.k, f.id FROM bo_fact f
      WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40) OFFSET 0) c
  ON c.k <= d.k AND c.k >= d.k
WHERE d.k < 4$$);
RESET enable_material;

-- An error in the build side ends the query (no process waits for ever).
\set VERBOSITY terse
SELECT count(*) FROM bo_fact f
WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) / (k - 1234) > 60);
\set VERBOSITY default

-- Not computed once:
-- a Parallel Hash (one hash table for all, each process adds its share)
RESET enable_parallel_hash;
SELECT 'parallel hash' AS q, * FROM bo_same($$
SELECT f.id FROM bo_fact f JOIN bo_fact g ON g.id = f.k WHERE g.amount = 7$$);
SET enable_parallel_hash = off;
-- a build side cheaper than the least cost (the default, 1000)
RESET bloomfilter.runtime_filter_build_once_min_cost;
SELECT 'cheap' AS q, * FROM bo_same($$
SELECT f.id FROM bo_fact f WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);
SET bloomfilter.runtime_filter_build_once_min_cost = 0;
-- no parallel plan
SET max_parallel_workers_per_gather = 0;
SELECT 'serial' AS q, * FROM bo_same($$
SELECT f.id FROM bo_fact f WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);
SET max_parallel_workers_per_gather = 2;
-- no filter
SET bloomfilter.runtime_filter = off;
SELECT 'no filter' AS q, * FROM bo_same($$
SELECT f.id FROM bo_fact f WHERE f.k IN (SELECT k FROM bo_sales GROUP BY k HAVING sum(qty) > 40)$$);
RESET bloomfilter.runtime_filter;
