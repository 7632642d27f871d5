-- A hash join's probe side read first (bloomfilter.runtime_filter_outer_first,
-- pg/runtime_filter_outer_first.c): where the probe (outer) side is small
-- and the build side expensive, the probe rows are stored before the hash
-- table is built, their keys make a filter, and the build side's scans drop
-- the rows that match no probe row; a condition with a subplan of such a
-- scan moves above the filter, so a row dropped runs no subquery.  Every
-- query runs with the setting on and off and must return the same rows;
-- "read_first" says whether the plan on has the node (and the plan off has
-- none).  PostgreSQL 18 and later may hash the suppliers instead (a right
-- semi join): their own filter then reaches the stock scan the usual way,
-- with the same effect.  So the checks are of the effect, the same on every
-- major: the stock scan probes a filter of the suppliers' keys
-- ("filtered"), and how often the subquery runs.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
\i :abs_srcdir/sql/include/on_and_off.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;

-- TPC-H's Q20 in small: suppliers (100,000 of 50 nations, 2,000 of nation
-- 15: more than the stock rows estimated to pass, so that every major
-- hashes the stock side), parts (20,000, 400 of group 3), four suppliers a
-- part (of the first 5,000), five sales a part and supplier.
CREATE TABLE of_supplier AS
SELECT g AS id, g % 50 AS nation, 'supplier ' || g AS name FROM generate_series(1, 100000) g;
CREATE TABLE of_part AS SELECT g AS k, g % 50 AS grp FROM generate_series(1, 20000) g;
CREATE TABLE of_partsupp AS
SELECT p AS part, (p * 13 + s * 1249) % 5000 + 1 AS supp, (p * (s + 1)) % 10 AS qty
FROM generate_series(1, 20000) p, generate_series(0, 3) s;
CREATE INDEX ON of_partsupp (part, supp);
CREATE TABLE of_sales AS
SELECT p AS part, (p * 13 + (g % 4) * 1249) % 5000 + 1 AS supp, g % 3 AS qty
FROM generate_series(1, 20000) p, generate_series(1, 5) g;
CREATE INDEX ON of_sales (part, supp);
ANALYZE of_supplier, of_part, of_partsupp, of_sales;

\i :abs_srcdir/sql/include/runtime_filter_same.sql
CREATE FUNCTION of_same(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$
    SELECT * FROM pg_temp.same_on_off('bloomfilter.runtime_filter_outer_first', q,
                                      'Runtime Filter 1: supp', 'BloomOuterFirst')
$$;
-- Whether the probe side is read first (where it must not be).
CREATE FUNCTION of_first(q text)
RETURNS TABLE (read_first bool, row_count int, same bool)
LANGUAGE sql AS $$
    SELECT * FROM pg_temp.same_on_off('bloomfilter.runtime_filter_outer_first', q,
                                      'BloomOuterFirst', 'BloomOuterFirst')
$$;
-- How often the subquery ran (its Aggregate's loops), with ANALYZE.
CREATE FUNCTION of_runs(q text)
RETURNS TABLE (filtered bool, subquery_runs int)
LANGUAGE sql AS $$
    SELECT bool_or(p ~ 'Runtime Filter 1: supp'),
           max(substring(p FROM 'Aggregate \(actual rows=1 loops=([0-9]+)\)')::int)
    FROM pg_temp.explain(q, 'ANALYZE') p
$$;

-- The queries: suppliers (selection sel) joined by kind to the stock of
-- group 3's parts whose quantity passes cond, a subquery over the sales.
CREATE FUNCTION of_q(kind text, sel text DEFAULT 's.nation = 40',
                     cond text DEFAULT 'ps.qty > (SELECT 0.5 * sum(l.qty) FROM of_sales l '
                                       'WHERE l.part = ps.part AND l.supp = ps.supp)')
RETURNS text LANGUAGE sql AS $$
SELECT format(CASE kind
    WHEN 'semi' THEN 'SELECT s.id, s.name FROM of_supplier s WHERE %1$s AND s.id IN (SELECT x.supp FROM (%2$s) x)'
    WHEN 'inner' THEN 'SELECT s.id, x.part FROM of_supplier s JOIN (%2$s) x ON x.supp = s.id WHERE %1$s'
    WHEN 'left' THEN 'SELECT s.id, x.part FROM of_supplier s LEFT JOIN (%2$s) x ON x.supp = s.id WHERE %1$s'
    WHEN 'anti' THEN 'SELECT s.id FROM of_supplier s WHERE %1$s AND NOT EXISTS '
                     '(SELECT 1 FROM (%2$s) x WHERE x.supp = s.id)'
    WHEN 'full' THEN 'SELECT s.id, x.part FROM (SELECT * FROM of_supplier s WHERE %1$s) s '
                     'FULL JOIN (%2$s) x ON x.supp = s.id'
    WHEN 'lateral' THEN 'SELECT t.n, c.n FROM (VALUES (40), (41)) t(n), LATERAL (SELECT count(*) AS n '
                        'FROM of_supplier s WHERE s.nation = t.n AND s.id IN (SELECT x.supp FROM (%2$s) x)) c'
    END, sel,
    format('SELECT ps.supp, ps.part FROM of_partsupp ps JOIN of_part p ON p.k = ps.part '
           'WHERE p.grp = 3 AND %s', cond))
$$;

-- The suppliers of nation 40 that have a part of group 3 in stock above
-- half its sales: the subquery runs for the part suppliers of nation 40's
-- suppliers only (408 of 1,600).
SELECT * FROM of_runs(of_q('semi'));
SET bloomfilter.runtime_filter = off;
SELECT * FROM of_runs(of_q('semi'));
RESET bloomfilter.runtime_filter;
SELECT 'semi' AS q, * FROM of_same(of_q('semi'));
-- An inner, a left and an anti join: the suppliers read first or hashed,
-- the stock scan filtered either way where its few rows each run the
-- subquery (which moves above the filter).
SELECT * FROM of_runs(of_q('inner'));
SELECT 'inner' AS q, * FROM of_same(of_q('inner'));
SELECT 'left' AS q, * FROM of_same(of_q('left'));
SELECT 'anti' AS q, * FROM of_same(of_q('anti'));
-- no probe row: the join ends before its build side runs
SELECT 'no probe row' AS q, * FROM of_same(of_q('semi', 's.nation = 99'));

-- The probe rows beyond work_mem go to a file (2,000 suppliers' rows).
SET work_mem = '64kB';
SELECT 'on disk' AS q, * FROM of_same(of_q('semi'));
RESET work_mem;

-- Where it must not apply: a full join (a build row without a match is
-- returned), a volatile condition (it would run for fewer rows), a join
-- under a nested loop's inner side (a hash table kept for a rescan would
-- lack the new probe rows' matches), rows locked, the filters off.
SELECT 'full join' AS q, * FROM of_first(of_q('full'));
SELECT 'volatile' AS q, * FROM of_first(of_q('semi', cond =>
  'ps.qty + random() * 0 > (SELECT 0.5 * sum(l.qty) FROM of_sales l WHERE l.part = ps.part AND l.supp = ps.supp)'));
SELECT 'rescanned' AS q, * FROM of_first(of_q('lateral'));
SELECT 'for update' AS q, * FROM of_first(of_q('semi') || ' FOR UPDATE OF s');
SET bloomfilter.runtime_filter = off;
SELECT 'filters off' AS q, * FROM of_first(of_q('semi'));
RESET bloomfilter.runtime_filter;

-- Parallel: a probe side gathered from the workers is read first whole;
-- one divided among the processes (a partial path under the join) would
-- not be (its filter would hold one process's keys).
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT 'parallel' AS q, * FROM of_same(of_q('semi'));
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
