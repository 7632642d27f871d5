-- Runtime filters for joins that build no hash table: a nested loop over a
-- dimension's key index, a merge join.  The filter is built first, from a
-- scan of the dimension with its own conditions, and the fact table's scan
-- applies it.  Every query runs with bloomfilter.runtime_filter on and off
-- and must return the same rows.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;
SET bloomfilter.runtime_filter_min_rows = 0;
-- the joins under test, not hash joins
SET enable_hashjoin = off;

-- A fact table (100,000 rows, 2% NULL keys) and a dimension with a primary
-- key (4,000 keys, one in 40 selected), the key also as int8 and text.
CREATE TABLE pb_fact AS
SELECT g AS id,
       CASE WHEN g % 50 = 0 THEN NULL ELSE (g * 7919) % 4000 END AS k,
       ((g * 7919) % 4000)::int8 AS k8,
       'key' || (g * 7919) % 4000 AS t,
       g % 1000 AS amount
FROM generate_series(1, 100000) g;
CREATE TABLE pb_dim AS
SELECT g AS k, g::int8 AS k8, 'key' || g AS t, g % 40 AS grp, g % 40 = 0 AS sel,
       'name ' || g % 7 AS name
FROM generate_series(0, 3999) g;
-- a selected key no fact has
INSERT INTO pb_dim VALUES (-1, -1, 'key-1', -1, true, 'no facts');
ALTER TABLE pb_dim ADD PRIMARY KEY (k);
CREATE UNIQUE INDEX pb_dim_k8 ON pb_dim (k8);
CREATE UNIQUE INDEX pb_dim_t ON pb_dim (t);
ANALYZE pb_fact, pb_dim;

-- q with the setting on and off: whether the plan on builds a filter first
-- (and the plan off has none), how many rows, and the same rows.
CREATE FUNCTION pb_same(q text)
RETURNS TABLE (prebuilt bool, row_count int, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    setting text;
    line text;
    plans text[] := '{}';
    answers text[] := '{}';
    answer text;
BEGIN
    FOREACH setting IN ARRAY ARRAY['on', 'off'] LOOP
        PERFORM set_config('bloomfilter.runtime_filter', setting, true);
        plans := plans || ''::text;
        FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
            plans[cardinality(plans)] := plans[cardinality(plans)] || line || E'\n';
        END LOOP;
        EXECUTE format('SELECT array_agg(r::text ORDER BY r::text)::text FROM (%s) r', q) INTO answer;
        answers := answers || answer;
    END LOOP;
    PERFORM set_config('bloomfilter.runtime_filter', 'on', true);
    IF plans[2] LIKE '%Runtime Filter%' THEN
        RAISE EXCEPTION 'a filter with bloomfilter.runtime_filter off: %', plans[2];
    END IF;
    RETURN QUERY SELECT plans[1] LIKE '%BloomFilterPrebuild%', coalesce(cardinality(answers[1]::text[]), 0),
                        answers[1] IS NOT DISTINCT FROM answers[2];
END $$;

-- EXPLAIN without the figures that differ between majors and runs (cache,
-- aggregate, sort and tuple store memory, heap fetches).
CREATE FUNCTION pb_explain(q text, options text DEFAULT '')
RETURNS SETOF text LANGUAGE sql AS $$
SELECT * FROM pg_temp.explain(q, options) p
WHERE p !~ '^\s*(Hits|Worker \d+: +Hits|Sort Method|Heap Fetches|Batches|Storage):'
$$;

-- The star join by a nested loop over the dimension's primary key: the
-- filter of the selected keys is built first and the fact table's scan
-- drops the rows whose key is not in it, before their index lookups.
SELECT * FROM pb_explain($$
SELECT f.id, d.name FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel$$);
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel$$, 'ANALYZE');

-- Inner and semi joins, NULL keys (2% of the facts), keys of two types and
-- text keys: the same rows.  Joins that return unmatched fact rows get no
-- filter.
SELECT 'inner' AS q, * FROM pb_same('SELECT f.id, d.name FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel')
UNION ALL
SELECT 'EXISTS', * FROM pb_same('SELECT id FROM pb_fact f WHERE EXISTS (SELECT FROM pb_dim d WHERE d.k = f.k AND d.sel)')
UNION ALL
SELECT 'IN', * FROM pb_same('SELECT id FROM pb_fact WHERE k IN (SELECT k FROM pb_dim WHERE sel)')
UNION ALL
SELECT 'int8 = int4', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k8 = f.k WHERE d.sel')
UNION ALL
SELECT 'int4 = int8', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k8 WHERE d.sel')
UNION ALL
SELECT 'text', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.t = f.t WHERE d.sel')
UNION ALL
SELECT 'left join', * FROM pb_same('SELECT f.id, d.k FROM pb_fact f LEFT JOIN pb_dim d ON d.k = f.k AND d.sel')
UNION ALL
SELECT 'NOT EXISTS', * FROM pb_same('SELECT id FROM pb_fact f WHERE NOT EXISTS (SELECT FROM pb_dim d WHERE d.k = f.k AND d.sel)');

-- The dimension's conditions that could fail on a row the join never
-- reads (a division by zero at the key -1, which no fact has), or are
-- volatile, are left out of the build: its filter holds more keys, never
-- fewer.
SELECT 'division' AS q, * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND 1000 / (d.k + 1) > 0')
UNION ALL
SELECT 'volatile', * FROM pb_same('SELECT count(*) > 0 FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND random() < 2');
SELECT * FROM pb_explain($$
SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND 1000 / (d.k + 1) > 0$$);

-- An index-only scan of the dimension: its conditions read the index's
-- columns.
CREATE INDEX pb_dim_k_grp ON pb_dim (k, grp);
SELECT * FROM pb_explain($$
SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7$$, 'ANALYZE');
SELECT 'index only' AS q, * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7');

-- A condition with a parameter of an outer query: the filter is built
-- again for each of its values (3 builds), and the rows are the same.
SELECT * FROM pb_explain($$
SELECT x, (SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = x)
FROM generate_series(0, 2) x$$, 'ANALYZE');
SELECT 'outer parameter' AS q, * FROM pb_same('SELECT x, (SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = x) FROM generate_series(0, 2) x');
DROP INDEX pb_dim_k_grp;

-- A merge join: the filter of the dimension's keys drops fact rows before
-- they are sorted.  (The majors put the dimension on either side: the
-- lines of the filter only.)
SET enable_nestloop = off;
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel$$, 'ANALYZE') p
WHERE p ~ '(Merge Join|Bloom|Runtime Filter)';
SELECT 'merge inner' AS q, * FROM pb_same('SELECT f.id, d.name FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel')
UNION ALL
SELECT 'merge semi', * FROM pb_same('SELECT id FROM pb_fact f WHERE EXISTS (SELECT FROM pb_dim d WHERE d.k = f.k AND d.sel)');
RESET enable_nestloop;

-- Parallel: below the Gather, each participant builds its own filter.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel$$);
SELECT 'parallel' AS q, * FROM pb_same('SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- A dimension that is not selective: the estimates say no.
SELECT 'not selective' AS q, * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp < 39');

-- A fact side estimated below runtime_filter_min_rows (a condition the
-- planner guesses at 0.5%, true of every row): the build is deferred until
-- that many rows have come up, then the scan drops the rows of the keys not
-- selected.  With fewer rows than that it is never built.
SET bloomfilter.runtime_filter_min_rows = 10000;
SET enable_mergejoin = off;
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND (f.amount * 0) = 0$$, 'ANALYZE');
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND (f.amount * 0) = 0 AND (f.id % 20) = 0$$, 'ANALYZE') p
WHERE p ~ '(Prebuild|Build|Built|Runtime Filter)';
SELECT 'deferred, built' AS q, * FROM pb_same('SELECT f.id, d.name FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND (f.amount * 0) = 0')
UNION ALL
SELECT 'deferred, semi', * FROM pb_same('SELECT f.id FROM pb_fact f WHERE (f.amount * 0) = 0 AND EXISTS (SELECT FROM pb_dim d WHERE d.k = f.k AND d.sel)')
UNION ALL
SELECT 'deferred, not built', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND (f.amount * 0) = 0 AND (f.id % 20) = 0')
UNION ALL
SELECT 'deferred, in a subquery run 3 times', * FROM pb_same('SELECT x, (SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND (f.amount * 0) = 0 AND f.id % 3 = x) FROM generate_series(0, 2) x');
-- a condition of the dimension on an uncorrelated subquery's value (an
-- initPlan, set once an execution): deferred too; one on a value of the
-- outer query (through an initPlan of a correlated subquery): not
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k
WHERE d.grp = (SELECT max(grp) FROM pb_dim WHERE k < 8) AND (f.amount * 0) = 0$$, 'ANALYZE') p
WHERE p ~ '(Prebuild|Build|Built|Runtime Filter|InitPlan)';
SELECT 'deferred, initPlan' AS q, * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = (SELECT max(grp) FROM pb_dim WHERE k < 8) AND (f.amount * 0) = 0')
UNION ALL
SELECT 'deferred, initPlan in a subquery run 3 times', * FROM pb_same('SELECT x, (SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = (SELECT max(grp) FROM pb_dim WHERE k < 8) AND (f.amount * 0) = 0 AND f.id % 3 = x) FROM generate_series(0, 2) x');
SELECT count(*) AS deferred_builds FROM pb_explain($$
SELECT x, (SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = (SELECT x) AND (f.amount * 0) = 0)
FROM generate_series(0, 2) x$$) p
WHERE p ~ 'Build After';
-- a Sort between the scan and the node: the scan is over before the first
-- row comes up, no deferred build
SET enable_nestloop = off;
RESET enable_mergejoin;
SELECT count(*) AS deferred_builds FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND (f.amount * 0) = 0$$) p
WHERE p ~ 'Build After';
RESET enable_nestloop;
SET bloomfilter.runtime_filter_min_rows = 0;

-- The fact rows reached by an index scan that runs once per row of a
-- driving table: a filter above that scan saves the lookups in the
-- dimension, never the scan's own runs.  With a large dimension the build
-- costs more than those lookups: no filter; without the driving table the
-- scan runs once and the same dimension pays.
SET enable_mergejoin = off;
CREATE TABLE pb_big AS SELECT g AS k, g % 40 = 0 AS sel FROM generate_series(0, 99999) g;
ALTER TABLE pb_big ADD PRIMARY KEY (k);
CREATE TABLE pb_drv AS SELECT g * 37 AS a FROM generate_series(1, 20) g;
CREATE INDEX pb_fact_amount ON pb_fact (amount);
ANALYZE pb_big, pb_drv;
SELECT 'rescanned probe' AS q, * FROM pb_same('SELECT count(*) FROM pb_drv x JOIN pb_fact f ON f.amount = x.a JOIN pb_big d ON d.k = f.k WHERE d.sel')
UNION ALL
SELECT 'probe scanned once', * FROM pb_same('SELECT count(*) FROM pb_fact f JOIN pb_big d ON d.k = f.k WHERE d.sel');
RESET enable_mergejoin;
DROP TABLE pb_big, pb_drv;

-- A filter built first has the range and the exact set of its keys, as a
-- hash join's does.  A fact table with an index on its key reads the few
-- selected keys' rows through it (index lookups); with more keys than the
-- lookups pay for, it scans.  (The majors put the dimension on either side
-- of the merge join: the lines of the filter only.)
SET enable_nestloop = off;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE INDEX pb_fact_k ON pb_fact (k);
ANALYZE pb_fact;
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7 AND d.k < 200$$, 'ANALYZE') p
WHERE p ~ '(Bloom|Runtime Filter|Index Lookups)';
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7$$, 'ANALYZE') p
WHERE p ~ '(Bloom|Runtime Filter|Index Lookups)';
SELECT 'index lookups' AS q, * FROM pb_same('SELECT f.id, f.amount FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7 AND d.k < 200')
UNION ALL
SELECT 'index lookups, semi', * FROM pb_same('SELECT f.id FROM pb_fact f WHERE EXISTS (SELECT FROM pb_dim d WHERE d.k = f.k AND d.grp = 7 AND d.k < 200)')
UNION ALL
SELECT 'no selected key', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7 AND d.k < 0')
UNION ALL
SELECT 'too many keys', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7');
-- parallel: each participant builds the same set; one does the lookups
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT 'index lookups, parallel' AS q, * FROM pb_same('SELECT f.id, f.amount FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7 AND d.k < 200');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
DROP INDEX pb_fact_k;
RESET enable_nestloop;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- Partitions whose bounds the build keys' range misses are not scanned.
-- The dimension's condition selects keys 1000 to 1999 in a way the planner
-- cannot carry over to the fact table (by the key's int8 copy).
SET max_parallel_workers_per_gather = 0;
CREATE TABLE pb_part (k int, amount int) PARTITION BY RANGE (k);
CREATE TABLE pb_part_low PARTITION OF pb_part FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE pb_part_1000 PARTITION OF pb_part FOR VALUES FROM (1000) TO (2000);
CREATE TABLE pb_part_2000 PARTITION OF pb_part FOR VALUES FROM (2000) TO (3000);
CREATE TABLE pb_part_high PARTITION OF pb_part FOR VALUES FROM (3000) TO (MAXVALUE);
CREATE TABLE pb_part_null PARTITION OF pb_part DEFAULT;
INSERT INTO pb_part SELECT k, amount FROM pb_fact;
ANALYZE pb_part;
SELECT * FROM pb_explain($$
SELECT count(*), sum(f.amount) FROM pb_part f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7 AND d.k8 BETWEEN 1000 AND 1999$$, 'ANALYZE') p
WHERE p ~ '(Bloom|Runtime Filter|Scans Skipped|on pb_part)';
SELECT 'partitions skipped' AS q, * FROM pb_same('SELECT f.k, f.amount FROM pb_part f JOIN pb_dim d ON d.k = f.k WHERE d.grp = 7 AND d.k8 BETWEEN 1000 AND 1999')
UNION ALL
SELECT 'keys at the bounds', * FROM pb_same('SELECT f.k FROM pb_part f JOIN pb_dim d ON d.k = f.k WHERE d.grp IN (0, 39) AND d.k8 BETWEEN 999 AND 2000')
UNION ALL
SELECT 'the key -1', * FROM pb_same('SELECT f.k FROM pb_part f JOIN pb_dim d ON d.k = f.k WHERE d.sel AND d.k8 < 1000');
SELECT * FROM pb_explain($$
SELECT count(*) FROM pb_part f JOIN pb_dim d ON d.k = f.k WHERE d.grp IN (0, 39) AND d.k8 BETWEEN 999 AND 2000$$, 'ANALYZE') p
WHERE p ~ '(Scans Skipped|on pb_part)';
DROP TABLE pb_part;
RESET max_parallel_workers_per_gather;

-- A nested loop over a Material, its condition no index's (d.k + 0): the
-- loop compares every fact row with every kept dimension row.  Its inner
-- side is read first, into the Material, and its keys filter the fact rows
-- before the first one is read; the inner side still runs once.
SET enable_mergejoin = off;
SELECT * FROM pb_explain($$
SELECT f.amount, count(*) FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE d.sel AND f.id <= 20000
GROUP BY f.amount ORDER BY 2 DESC, 1 LIMIT 3$$, 'ANALYZE');
SELECT 'inner first' AS q, * FROM pb_same('SELECT f.id, d.name FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE d.sel AND f.id <= 20000')
UNION ALL
SELECT 'inner first, semi', * FROM pb_same('SELECT f.id FROM pb_fact f WHERE f.id <= 20000 AND EXISTS (SELECT FROM pb_dim d WHERE d.k + 0 = f.k AND d.sel)')
UNION ALL
SELECT 'inner first, text', * FROM pb_same($$SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.t || '' = f.t WHERE d.sel AND f.id <= 20000$$)
UNION ALL
SELECT 'inner first, int8 = int4', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k8 + 0 = f.k WHERE d.sel AND f.id <= 20000')
UNION ALL
SELECT 'inner first, key on the left', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON f.k = d.k + 0 WHERE d.sel AND f.id <= 20000')
UNION ALL
SELECT 'inner first, no inner row', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE (d.grp * 0) = 1 AND f.id <= 20000')
UNION ALL
SELECT 'inner first, no outer row', * FROM pb_same('SELECT f.id FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE d.sel AND f.id <= 20000 AND f.amount + 0 <> f.amount')
UNION ALL
SELECT 'left join: none', * FROM pb_same('SELECT f.id, d.k FROM pb_fact f LEFT JOIN (SELECT k FROM pb_dim WHERE sel) d ON d.k + 0 = f.k WHERE f.id <= 20000');
-- in a subquery run for each outer row: the loop may run again, no filter
SELECT 'inner first, rescanned' AS q, * FROM pb_same('SELECT x, (SELECT count(*) FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE d.sel AND f.id <= 20000 AND d.grp = x) FROM generate_series(0, 2) x');
-- parallel: the leader reads the inner side, the workers get the filter
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SELECT * FROM pb_explain($$
SELECT f.amount, count(*) FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE d.sel AND f.id <= 20000 GROUP BY f.amount$$) p
WHERE p ~ '(Gather|Nested|Prebuild|Build|Runtime Filter)';
SELECT 'inner first, parallel' AS q, * FROM pb_same('SELECT f.amount, count(*) FROM pb_fact f JOIN pb_dim d ON d.k + 0 = f.k WHERE d.sel AND f.id <= 20000 GROUP BY f.amount');
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET enable_mergejoin;

-- A chain of filters built first: customers are selected by their address
-- (one in 25 is in 'KS'), and a CTE's rows by those customers, before a
-- correlated subquery runs for each CTE row.  The address filter, deferred
-- at the upper loop, is built with the customers' filter (whose build scan
-- probes it), once the CTE's scan has read the rows that pay for both: the
-- subquery's cost a row says after how many.  The subquery's condition
-- comes up into the filter node over the CTE's scan.
CREATE TABLE pb_addr AS
SELECT g AS a, CASE WHEN g % 25 = 0 THEN 'KS' ELSE 'state ' || g % 24 END AS state
FROM generate_series(1, 5000) g;
ALTER TABLE pb_addr ADD PRIMARY KEY (a);
CREATE TABLE pb_cust AS
SELECT g AS c, (g * 37) % 5000 + 1 AS addr, 'name ' || g AS name FROM generate_series(1, 20000) g;
ALTER TABLE pb_cust ADD PRIMARY KEY (c);
ANALYZE pb_addr, pb_cust;
SET bloomfilter.runtime_filter_min_rows = 10000;
SET enable_mergejoin = off;
SELECT * FROM pb_explain($$
WITH t AS MATERIALIZED (SELECT id % 1000 + 1 AS c, id % 7 AS grp, sum(amount) AS total
                        FROM pb_fact WHERE id <= 1000 GROUP BY 1, 2)
SELECT count(*) FROM t JOIN pb_cust cu ON cu.c = t.c JOIN pb_addr a ON a.a = cu.addr
WHERE a.state = 'KS' AND t.total > (SELECT avg(x.total) FROM t x WHERE x.grp = t.grp)$$, 'ANALYZE');
SELECT 'chain' AS q, * FROM pb_same($$
WITH t AS MATERIALIZED (SELECT id % 1000 + 1 AS c, id % 7 AS grp, sum(amount) AS total
                        FROM pb_fact WHERE id <= 1000 GROUP BY 1, 2)
SELECT cu.name, t.total FROM t JOIN pb_cust cu ON cu.c = t.c JOIN pb_addr a ON a.a = cu.addr
WHERE a.state = 'KS' AND t.total > (SELECT avg(x.total) FROM t x WHERE x.grp = t.grp)$$)
UNION ALL
-- fewer CTE rows than the build waits for: nothing built
SELECT 'chain, not built', * FROM pb_same($$
WITH t AS MATERIALIZED (SELECT id % 1000 + 1 AS c, id % 7 AS grp, sum(amount) AS total
                        FROM pb_fact WHERE id <= 100 GROUP BY 1, 2)
SELECT cu.name, t.total FROM t JOIN pb_cust cu ON cu.c = t.c JOIN pb_addr a ON a.a = cu.addr
WHERE a.state = 'KS' AND t.total > (SELECT avg(x.total) FROM t x WHERE x.grp = t.grp)$$)
UNION ALL
-- a customer key the CTE has, whose address is selected, NULL keys
SELECT 'chain, NULL keys', * FROM pb_same($$
WITH t AS MATERIALIZED (SELECT CASE WHEN id % 9 = 0 THEN NULL ELSE id % 1000 + 1 END AS c,
                               id % 7 AS grp, sum(amount) AS total
                        FROM pb_fact WHERE id <= 1000 GROUP BY 1, 2)
SELECT cu.name, t.total FROM t JOIN pb_cust cu ON cu.c = t.c JOIN pb_addr a ON a.a = cu.addr
WHERE a.state IN ('KS', 'state 3') AND t.total > (SELECT avg(x.total) FROM t x WHERE x.grp = t.grp)$$);
RESET enable_mergejoin;
SET bloomfilter.runtime_filter_min_rows = 0;
DROP TABLE pb_addr, pb_cust;

DROP TABLE pb_fact, pb_dim;
