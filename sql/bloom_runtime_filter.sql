-- The automatic Bloom join: runtime filters the planner adds to hash joins.
-- Every query of the corpus runs with bloomfilter.runtime_filter on and off
-- and must return the same rows; the plan with it off must have no filter,
-- and "filtered" says whether the plan with it on has one.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
\i :abs_srcdir/sql/include/on_and_off.sql
-- the planner hook is in the library: loaded here as a session of an
-- application would load it (session_preload_libraries, or LOAD)
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;
-- the test tables are small: every probe side is worth a filter
SET bloomfilter.runtime_filter_min_rows = 0;
SHOW bloomfilter.runtime_filter;

-- A fact table (20,000 rows, 2% NULL keys) and a dimension (4,000 keys, one
-- in 40 selected, and a selected row with NULL keys), with the same keys
-- as several types: int4 and int8, numeric of two scales, float4 and
-- float8, text differing only in case.
CREATE TABLE rf_fact AS
SELECT g AS id,
       CASE WHEN g % 50 = 0 THEN NULL ELSE (g * 7919) % 4000 END AS k,
       ((g * 7919) % 4000)::int8 AS k8,
       g % 13 AS k2,
       (((g * 7919) % 4000) / 2.0)::numeric(10, 2) AS num,
       (((g * 7919) % 4000) / 4.0)::float4 AS f4,
       CASE WHEN g % 3 = 0 THEN 'KEY' ELSE 'key' END || (g * 7919) % 4000 AS t,
       g % 1000 AS amount
FROM generate_series(1, 20000) g;
CREATE TABLE rf_dim AS
SELECT g AS k, g::int8 AS k8, g % 13 AS k2, (g / 2.0)::numeric(10, 1) AS num, (g / 4.0)::float8 AS f8,
       'key' || g AS t, g % 40 = 0 AS sel, 'name ' || g % 7 AS name
FROM generate_series(0, 3999) g;
INSERT INTO rf_dim VALUES (NULL, NULL, NULL, NULL, NULL, NULL, true, 'no key');
CREATE TABLE rf_other AS SELECT g AS id, g % 13 AS k2, g % 7 = 0 AS sel FROM generate_series(1, 20000) g;
CREATE TABLE rf_dim2 AS SELECT g AS k2, g IN (3, 5) AS sel FROM generate_series(0, 12) g;
ANALYZE rf_fact, rf_dim, rf_other, rf_dim2;

-- A case-insensitive collation where the server has ICU (the 16 this
-- project builds has not: there it is "C", and the query still runs).
DO $$
BEGIN
    CREATE COLLATION rf_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
    CREATE COLLATION rf_ci FROM "C";
END $$;

-- q with the setting on and off: whether the plan on has a filter (and
-- the plan off none), how many rows, and the same rows.
\i :abs_srcdir/sql/include/runtime_filter_same.sql
CREATE FUNCTION rf_same(q text)
RETURNS TABLE (filtered bool, row_count int, same bool)
LANGUAGE sql AS $$ SELECT * FROM pg_temp.rf_same_on_off(q, 'BloomFilterBuild') $$;

-- EXPLAIN without the lines whose figures differ between majors (the Hash
-- node's memory).
CREATE FUNCTION rf_explain(q text, options text DEFAULT '')
RETURNS SETOF text LANGUAGE sql AS $$
SELECT * FROM pg_temp.explain(q, options) p WHERE p !~ '^\s*Buckets: '
$$;

-- The plan: the filter of the selected keys is built under the Hash node
-- and applied by the fact table's scan.
SELECT * FROM rf_explain($$
SELECT f.id, f.amount FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel$$);
-- run: the build's keys and size, the rows the scan removed
SELECT * FROM rf_explain($$
SELECT count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel$$, 'ANALYZE');

-- Where dropping a probe row cannot change the result: inner joins, IN and
-- EXISTS (semi joins), the outer side of a right join.
SELECT 'inner' AS q, * FROM rf_same('SELECT f.id, f.amount, d.name FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel')
UNION ALL
SELECT 'IN', * FROM rf_same('SELECT id FROM rf_fact WHERE k IN (SELECT k FROM rf_dim WHERE sel)')
UNION ALL
SELECT 'EXISTS', * FROM rf_same('SELECT id FROM rf_fact f WHERE EXISTS (SELECT FROM rf_dim d WHERE d.k = f.k AND d.sel)')
UNION ALL
SELECT 'right join', * FROM rf_same('SELECT d.k, f.id FROM rf_dim d LEFT JOIN rf_fact f ON f.k = d.k WHERE d.sel')
-- where it can: no filter
UNION ALL
SELECT 'left join', * FROM rf_same('SELECT f.id, d.k FROM rf_fact f LEFT JOIN rf_dim d ON d.k = f.k AND d.sel')
UNION ALL
SELECT 'full join', * FROM rf_same('SELECT f.id, d.k FROM rf_fact f FULL JOIN (SELECT * FROM rf_dim WHERE sel) d ON d.k = f.k')
UNION ALL
SELECT 'NOT EXISTS', * FROM rf_same('SELECT id FROM rf_fact f WHERE NOT EXISTS (SELECT FROM rf_dim d WHERE d.k = f.k AND d.sel)')
UNION ALL
SELECT 'NOT IN', * FROM rf_same('SELECT id FROM rf_fact f WHERE k NOT IN (SELECT k FROM rf_dim WHERE sel AND k IS NOT NULL)');
SELECT * FROM rf_explain($$
SELECT d.k, f.id FROM rf_dim d LEFT JOIN rf_fact f ON f.k = d.k WHERE d.sel$$);
-- the dimension's rows with and without facts: from 16 on a Hash Right
-- Anti Join, from 18 on a Hash Right Semi Join may read the fact table as
-- the probe side (and filter it); before, the dimension is the probe side
SELECT 'dimension rows without facts' AS q, same
FROM rf_same('SELECT d.k FROM rf_dim d WHERE d.sel AND NOT EXISTS (SELECT FROM rf_fact f WHERE f.k = d.k)')
UNION ALL
SELECT 'dimension rows with facts', same
FROM rf_same('SELECT d.k FROM rf_dim d WHERE d.sel AND EXISTS (SELECT FROM rf_fact f WHERE f.k = d.k)');

-- Keys of two types, numerics of two scales, float4 against float8: the
-- join's own hash functions (one family: equal values hash alike).
SELECT 'int4 = int8' AS q, * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k8 = f.k WHERE d.sel')
UNION ALL
SELECT 'int8 = int4', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k8 WHERE d.sel')
UNION ALL
SELECT 'numeric(10,2) = numeric(10,1)', * FROM rf_same('SELECT f.id, f.num FROM rf_fact f JOIN rf_dim d ON d.num = f.num WHERE d.sel')
UNION ALL
SELECT 'float4 = float8', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.f8 = f.f4 WHERE d.sel')
UNION ALL
SELECT 'text', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.t = f.t WHERE d.sel');
-- text under a case-insensitive collation: 'KEY40' matches 'key40' (the
-- count is the major's, ICU or not: not shown)
SELECT 'text, nondeterministic' AS q, filtered, same
FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.t = f.t COLLATE rf_ci WHERE d.sel');

-- Expressions: a key the scan computes only under leakproof functions (a
-- cast that cannot fail); an expression that could fail (an addition can
-- overflow) stays where the join computes it: no filter.
SELECT 'int4::int8 = int8' AS q, * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k8 = f.k::int8 WHERE d.sel')
UNION ALL
SELECT 'k + 1 = k', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k + 1 WHERE d.sel')
UNION ALL
SELECT 'lower(t) = t', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.t = lower(f.t) WHERE d.sel');

-- Several keys: both in one filter; keys of two tables: each table's scan
-- is reachable, the filter takes the keys of the larger side.
SELECT 'two keys' AS q, * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k AND d.k2 = f.k2 WHERE d.sel')
UNION ALL
SELECT 'keys of two tables', * FROM rf_same(
    'SELECT f.id FROM rf_fact f JOIN rf_other o ON o.id = f.id JOIN rf_dim d ON d.k = f.k AND d.k2 = o.k2 WHERE d.sel');
SELECT * FROM rf_explain($$
SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k AND d.k2 = f.k2 WHERE d.sel$$);

-- Below other joins and aggregations: a star join (two filters on the fact
-- table's scan), an aggregate grouped by the key below the join, and above.
SELECT 'star' AS q, * FROM rf_same(
    'SELECT f.id, d.name FROM rf_fact f JOIN rf_dim d ON d.k = f.k JOIN rf_dim2 e ON e.k2 = f.k2 WHERE d.sel AND e.sel')
UNION ALL
SELECT 'aggregate below', * FROM rf_same(
    'SELECT a.k, a.total FROM (SELECT k, sum(amount) AS total FROM rf_fact GROUP BY k) a JOIN rf_dim d ON d.k = a.k WHERE d.sel')
UNION ALL
SELECT 'numeric groups below', * FROM rf_same(
    'SELECT a.num, a.n FROM (SELECT num, count(*) AS n FROM rf_fact GROUP BY num) a JOIN rf_dim d ON d.num = a.num WHERE d.sel')
UNION ALL
SELECT 'aggregate above', * FROM rf_same(
    'SELECT d.name, count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel GROUP BY d.name')
UNION ALL
SELECT 'DISTINCT below', * FROM rf_same(
    'SELECT u.k FROM (SELECT DISTINCT k FROM rf_fact) u JOIN rf_dim d ON d.k = u.k WHERE d.sel');
SELECT * FROM rf_explain($$
SELECT f.id, d.name FROM rf_fact f JOIN rf_dim d ON d.k = f.k JOIN rf_dim2 e ON e.k2 = f.k2 WHERE d.sel AND e.sel$$);
SELECT * FROM rf_explain($$
SELECT a.k, a.total FROM (SELECT k, sum(amount) AS total FROM rf_fact GROUP BY k) a JOIN rf_dim d ON d.k = a.k WHERE d.sel$$);
-- groups of a collation that is not the join's: a group could be cut, so
-- no filter below the aggregate when that collation is nondeterministic
-- (where ICU is missing, rf_ci is "C": both deterministic, a filter)
SELECT 'groups by another collation' AS q,
       filtered = (SELECT collisdeterministic FROM pg_collation WHERE collname = 'rf_ci') AS filtered_if_deterministic,
       same FROM rf_same(
    'SELECT a.t, a.n FROM (SELECT t COLLATE rf_ci AS t, count(*) AS n FROM rf_fact GROUP BY 1) a
     JOIN rf_dim d ON d.t = a.t COLLATE "C" WHERE d.sel');

-- UNION ALL and partitions: every branch.
CREATE TABLE rf_parts (id int, k int, amount int) PARTITION BY RANGE (id);
CREATE TABLE rf_parts_1 PARTITION OF rf_parts FOR VALUES FROM (0) TO (10000);
CREATE TABLE rf_parts_2 PARTITION OF rf_parts FOR VALUES FROM (10000) TO (20001);
INSERT INTO rf_parts SELECT id, k, amount FROM rf_fact;
ANALYZE rf_parts;
SELECT 'partitions' AS q, * FROM rf_same('SELECT p.id FROM rf_parts p JOIN rf_dim d ON d.k = p.k WHERE d.sel')
UNION ALL
SELECT 'UNION ALL', * FROM rf_same(
    'SELECT u.id FROM (SELECT id, k FROM rf_fact UNION ALL SELECT id + 100000, k8::int FROM rf_fact) u JOIN rf_dim d ON d.k = u.k WHERE d.sel');
SELECT * FROM rf_explain($$
SELECT p.id FROM rf_parts p JOIN rf_dim d ON d.k = p.k WHERE d.sel$$);

-- An empty build side; NULL keys only.
SELECT 'empty build' AS q, * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND d.k < 0')
UNION ALL
SELECT 'NULL keys only', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND d.k IS NULL');

-- Rescans: the join in a correlated subquery and in a lateral subquery,
-- its build side changing with the outer row (the filter is built again);
-- a probe side changing (the hash table and its filter are kept).
SELECT 'subplan, build changes' AS q, * FROM rf_same(
    'SELECT v.x, (SELECT count(*) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND d.k2 = v.x)
     FROM (VALUES (1), (2), (3), (5)) v(x)')
UNION ALL
SELECT 'lateral, build changes', * FROM rf_same(
    'SELECT v.x, s.n FROM (VALUES (1), (4), (7)) v(x)
     CROSS JOIN LATERAL (SELECT count(*) AS n, sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k
                         WHERE d.sel AND d.k2 = v.x) s')
UNION ALL
SELECT 'subplan, probe changes', * FROM rf_same(
    'SELECT v.x, (SELECT count(*) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND f.k2 = v.x)
     FROM (VALUES (1), (2), (3)) v(x)')
-- a join that may run again does not filter through a node that keeps rows
UNION ALL
SELECT 'subplan, aggregate below', * FROM rf_same(
    'SELECT v.x, (SELECT count(*) FROM (SELECT k, count(*) FROM rf_fact GROUP BY k) a JOIN rf_dim d ON d.k = a.k
                  WHERE d.sel AND d.k2 = v.x)
     FROM (VALUES (1), (2)) v(x)');
SELECT * FROM rf_explain($$
SELECT v.x, (SELECT count(*) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND d.k2 = v.x)
FROM (VALUES (1), (2), (3), (5)) v(x)$$);

-- A prepared statement in a generic plan: the build side's parameter.
SET plan_cache_mode = force_generic_plan;
PREPARE rf_generic(int) AS
SELECT count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND d.k2 = $1;
SELECT * FROM rf_explain('EXECUTE rf_generic(3)');
EXECUTE rf_generic(3);
EXECUTE rf_generic(4);
SET bloomfilter.runtime_filter = off;
PREPARE rf_generic_off(int) AS
SELECT count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel AND d.k2 = $1;
EXECUTE rf_generic_off(3);
EXECUTE rf_generic_off(4);
RESET bloomfilter.runtime_filter;
RESET plan_cache_mode;

-- Rows to lock, delete or update keep their identity.
SELECT 'FOR UPDATE' AS q, * FROM rf_same(
    'SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel FOR UPDATE OF f');
BEGIN;
WITH gone AS (DELETE FROM rf_fact f USING rf_dim d WHERE d.k = f.k AND d.sel RETURNING f.id)
SELECT count(*), sum(id) FROM gone;
WITH changed AS (UPDATE rf_fact f SET amount = -1 FROM rf_dim d WHERE d.k = f.k8 AND d.sel RETURNING f.id)
SELECT count(*), sum(id) FROM changed;
ROLLBACK;
BEGIN;
SET LOCAL bloomfilter.runtime_filter = off;
WITH gone AS (DELETE FROM rf_fact f USING rf_dim d WHERE d.k = f.k AND d.sel RETURNING f.id)
SELECT count(*), sum(id) FROM gone;
WITH changed AS (UPDATE rf_fact f SET amount = -1 FROM rf_dim d WHERE d.k = f.k8 AND d.sel RETURNING f.id)
SELECT count(*), sum(id) FROM changed;
ROLLBACK;

-- A build side larger than the setting allows gets no Bloom filter (here
-- the estimate is far too low, so the planner adds one: the build node
-- drops it at run time); an integer key's range is kept (two numbers).
SET bloomfilter.runtime_filter_max_size = '1kB';
SELECT * FROM rf_explain($$
SELECT count(*) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE (d.k2 * 0) = 0 AND d.k < 3000$$, 'ANALYZE');
SELECT 'too many keys' AS q, * FROM rf_same(
    'SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE (d.k2 * 0) = 0 AND d.k < 3000');
RESET bloomfilter.runtime_filter_max_size;
-- The planner estimates this build side selective; every probe row finds
-- a key: the filter switches itself off after its first window of rows.
SELECT * FROM rf_explain($$
SELECT count(*) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE (d.k2 * 0) = 0$$, 'ANALYZE');
-- estimated not selective: no filter
SELECT 'not selective' AS q, * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k');

-- Parallel plans: a Parallel Hash (one filter in shared memory, built by
-- every participant), a hash per worker, and a Gather between the join and
-- the scan (the filter is sent to the workers).
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM rf_explain($$
SELECT count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel$$);
SELECT 'parallel hash' AS q, * FROM rf_same('SELECT f.id, f.amount FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel')
UNION ALL
SELECT 'parallel hash, two keys', * FROM rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON d.k = f.k AND d.k2 = f.k2 WHERE d.sel');
SET enable_parallel_hash = off;
SELECT * FROM rf_explain($$
SELECT count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel$$);
SELECT 'hash per worker' AS q, * FROM rf_same('SELECT f.id, f.amount FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel');
RESET enable_parallel_hash;
-- the build side calls a function that must run in the leader: the join
-- is above the Gather
CREATE FUNCTION rf_leader_only(k int) RETURNS bool LANGUAGE plpgsql PARALLEL RESTRICTED
AS $$ BEGIN RETURN k % 40 = 0; END $$;
SELECT * FROM rf_explain($$
SELECT count(*), sum(f.amount) FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE rf_leader_only(d.k)$$);
SELECT 'Gather below the join' AS q, * FROM rf_same(
    'SELECT f.id, f.amount FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE rf_leader_only(d.k)');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- Across postgres_fdw: a foreign table on a server whose `extensions` lists
-- bloomfilter gets the filter as a parameter of its remote query; the
-- remote server drops the rows before they are shipped.  A loopback
-- server stands for the remote one (as in bloom_join, which installs
-- postgres_fdw in this database too).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS postgres_fdw;
RESET client_min_messages;
\getenv pghost PGHOST
\getenv pguser PGUSER
\getenv pgpassword PGPASSWORD
SELECT current_database() AS dbname, current_setting('port') AS port \gset
CREATE SERVER rf_loopback FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host :'pghost', port :'port', dbname :'dbname', extensions 'bloomfilter');
CREATE USER MAPPING FOR CURRENT_USER SERVER rf_loopback
    OPTIONS (user :'pguser', password :'pgpassword');
CREATE FOREIGN TABLE rf_fact_remote (id int, k int, k8 int8, k2 int, num numeric, f4 float4, t text, amount int)
    SERVER rf_loopback OPTIONS (table_name 'rf_fact');
ANALYZE rf_fact_remote;
SELECT * FROM rf_explain($$
SELECT count(*), sum(f.amount) FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel$$, 'VERBOSE');
-- rows shipped: the matches, and few more
CREATE FUNCTION rf_shipped(q text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO plan;
    RETURN (SELECT round(sum((n->>'Actual Rows')::numeric * (n->>'Actual Loops')::numeric))
            FROM jsonb_path_query(plan::jsonb, 'strict $.** ? (@."Node Type" == "Foreign Scan")') n);
END $$;
SELECT rf_shipped('SELECT count(*) FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel') AS shipped_on \gset
SET bloomfilter.runtime_filter = off;
SELECT rf_shipped('SELECT count(*) FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel') AS shipped_off \gset
RESET bloomfilter.runtime_filter;
SELECT count(*) AS matches, :shipped_off AS shipped_without,
       :shipped_on BETWEEN count(*) AND 2 * count(*) AS shipped_with_at_most_twice_the_matches
FROM rf_fact f JOIN rf_dim d ON d.k = f.k WHERE d.sel;
SELECT 'remote inner' AS q, * FROM rf_same('SELECT f.id, f.amount FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel')
UNION ALL
SELECT 'remote IN', * FROM rf_same('SELECT id FROM rf_fact_remote WHERE k IN (SELECT k FROM rf_dim WHERE sel)')
UNION ALL
SELECT 'remote int8 = int4', * FROM rf_same('SELECT f.id FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k8 WHERE d.sel')
UNION ALL
SELECT 'remote numeric', * FROM rf_same('SELECT f.id FROM rf_fact_remote f JOIN rf_dim d ON d.num = f.num WHERE d.sel')
-- text keys too: the remote database stores text as the bytes this one
-- receives (the same database here)
UNION ALL
SELECT 'remote text', * FROM rf_same('SELECT f.id FROM rf_fact_remote f JOIN rf_dim d ON d.t = f.t WHERE d.sel')
-- joins that keep every foreign row stay local
UNION ALL
SELECT 'remote left join', * FROM rf_same('SELECT f.id, d.k FROM rf_fact_remote f LEFT JOIN rf_dim d ON d.k = f.k AND d.sel');
-- in a view (a subquery): the same; a foreign table named twice: no remote
-- filter (which scan is which could change between the two plannings)
CREATE VIEW rf_remote_view AS
SELECT f.id, f.amount, d.name FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel;
SELECT * FROM rf_explain('SELECT count(*) FROM rf_remote_view', 'VERBOSE') p WHERE p ~ 'Remote SQL|Runtime';
SELECT 'remote, in a view' AS q, * FROM rf_same('SELECT * FROM rf_remote_view')
UNION ALL
SELECT 'remote, named twice', * FROM rf_same(
    'SELECT f.id, g.id FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k JOIN rf_fact_remote g ON g.id = f.id WHERE d.sel');
DROP VIEW rf_remote_view;
-- a remote query that keeps some of its rows: postgres_fdw pushes a LIMIT
-- or OFFSET into the scan, where a filter would run before it; no remote
-- filter there, and the same rows
SELECT 'remote under LIMIT' AS q, * FROM rf_same(
    'SELECT s.id FROM (SELECT * FROM rf_fact_remote ORDER BY id LIMIT 1000) s JOIN rf_dim d ON d.k = s.k WHERE d.sel')
UNION ALL
SELECT 'remote under LIMIT, a subquery pulled up', * FROM rf_same(
    'SELECT s.id FROM (SELECT * FROM (SELECT * FROM rf_fact_remote) x ORDER BY id LIMIT 1000) s JOIN rf_dim d ON d.k = s.k WHERE d.sel')
UNION ALL
SELECT 'remote under LIMIT and OFFSET, IN', * FROM rf_same(
    'SELECT s.id FROM (SELECT * FROM rf_fact_remote ORDER BY id LIMIT 2000 OFFSET 300) s WHERE s.k IN (SELECT k FROM rf_dim WHERE sel)');
-- the plan without a hash join on the foreign table: no filter, no
-- condition left behind
SET enable_hashjoin = off;
SELECT 'remote, no hash join' AS q, * FROM rf_same('SELECT f.id FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel');
RESET enable_hashjoin;
-- without the extensions option, nothing is sent
ALTER SERVER rf_loopback OPTIONS (DROP extensions);
SELECT * FROM rf_explain($$
SELECT count(*) FROM rf_fact_remote f JOIN rf_dim d ON d.k = f.k WHERE d.sel$$, 'VERBOSE');

RESET ALL;
DROP SERVER rf_loopback CASCADE;
DROP TABLE rf_fact, rf_dim, rf_other, rf_dim2, rf_parts;
DROP FUNCTION rf_same(text), rf_explain(text, text), rf_shipped(text), rf_leader_only(int);
DROP COLLATION rf_ci;
