-- Predicate transfer: a runtime filter reduces every scan its join key's
-- equalities reach, not only its own join's probe side: along a chain
-- (customer -> orders -> lineitem), through an equivalence class
-- (a.k = b.k = c.k), into the build side of a join below.  Every query
-- runs with transfer on, with it off, and with no filters, and must return
-- the same rows.
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;
SET bloomfilter.runtime_filter_min_rows = 0;
SHOW bloomfilter.runtime_filter_transfer;

-- customer (2,000, one nation in ten selected), orders (20,000), lineitem
-- (60,000, some keys NULL); keys as int4 and int8 and text.
CREATE TABLE rt_customer AS
SELECT g AS c_custkey, g::int8 AS c_custkey8, g::numeric AS c_custnum, g::float8 AS c_custfloat,
       g % 10 AS c_nation, 'c' || g AS c_name
FROM generate_series(1, 2000) g;
CREATE TABLE rt_orders AS
SELECT g AS o_orderkey, (g * 7) % 2000 + 1 AS o_custkey, ((g * 7) % 2000 + 1)::int8 AS o_custkey8,
       ((g * 7) % 2000 + 1)::numeric AS o_custnum,
       CASE WHEN g % 3 = 0 THEN 'C' ELSE 'c' END || ((g * 7) % 2000 + 1) AS o_custname, g % 5 AS o_prio
FROM generate_series(1, 20000) g;
CREATE TABLE rt_lineitem AS
SELECT CASE WHEN g % 97 = 0 THEN NULL ELSE (g * 13) % 20000 + 1 END AS l_orderkey, g AS l_id,
       g % 50 AS l_qty
FROM generate_series(1, 60000) g;
ANALYZE rt_customer, rt_orders, rt_lineitem;

-- q with transfer on, transfer off, and no filters: the filters the plan
-- has (build and probe lines, transfer on and off) and whether all three
-- return the same rows.
CREATE FUNCTION rt_same(q text)
RETURNS TABLE (filters_on int, filters_without_transfer int, row_count int, same bool)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    n_on int := 0;
    n_off int := 0;
    rows_on text[];
    rows_off text[];
    rows_none text[];
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter_transfer', 'on', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        n_on := n_on + (line ~ 'Runtime Filter \d+:')::int;
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_on;
    PERFORM set_config('bloomfilter.runtime_filter_transfer', 'off', true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        n_off := n_off + (line ~ 'Runtime Filter \d+:')::int;
    END LOOP;
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_off;
    PERFORM set_config('bloomfilter.runtime_filter', 'off', true);
    EXECUTE format('SELECT array_agg(r::text ORDER BY r::text) FROM (%s) r', q) INTO rows_none;
    PERFORM set_config('bloomfilter.runtime_filter', 'on', true);
    PERFORM set_config('bloomfilter.runtime_filter_transfer', 'on', true);
    RETURN QUERY SELECT n_on, n_off, coalesce(cardinality(rows_on), 0),
                        rows_on IS NOT DISTINCT FROM rows_none AND rows_off IS NOT DISTINCT FROM rows_none;
END $$;

-- EXPLAIN without the Hash node's memory (it differs between majors).
CREATE FUNCTION rt_explain(q text, options text DEFAULT '')
RETURNS SETOF text LANGUAGE sql AS $$
SELECT * FROM pg_temp.explain(q, options) p WHERE p !~ '^\s*Buckets: '
$$;

-- The chain, joined in the order written: lineitem to orders first, then
-- customer.  customer's filter reaches orders, the build side of the join
-- below (its scan runs after the filter is complete: a hash join builds
-- its table before it reads its probe side); that join, reconsidered with
-- orders so reduced, gets the filter of the orders left, and lineitem's
-- scan applies it.  Rows removed at each scan:
SET join_collapse_limit = 1;
SELECT * FROM rt_explain($$
SELECT count(*), sum(l.l_qty) FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey WHERE c.c_nation = 3$$, 'ANALYZE');
-- without transfer: orders is reduced, lineitem is not
SET bloomfilter.runtime_filter_transfer = off;
SELECT * FROM rt_explain($$
SELECT count(*), sum(l.l_qty) FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey WHERE c.c_nation = 3$$, 'ANALYZE');
RESET bloomfilter.runtime_filter_transfer;

-- An equivalence class: lineitem's key equals orders' (a.k = b.k), orders'
-- equals the selected orders' (b.k = c.k); the top join's key is lineitem's,
-- and through the join below it reaches orders too.
CREATE TABLE rt_selected AS SELECT o_orderkey AS s_orderkey FROM rt_orders WHERE o_orderkey % 50 = 0;
ANALYZE rt_selected;
SELECT * FROM rt_explain($$
SELECT count(*) FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_selected s ON s.s_orderkey = l.l_orderkey$$, 'ANALYZE');

-- The same rows every way, and the filters that transfer adds.
SELECT 'chain' AS q, * FROM rt_same($$
SELECT l.l_id, c.c_name FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey WHERE c.c_nation = 3$$)
UNION ALL
SELECT 'chain, int8 customer key', * FROM rt_same($$
SELECT l.l_id FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey8 = o.o_custkey WHERE c.c_nation = 3$$)
UNION ALL
SELECT 'equivalence class', * FROM rt_same($$
SELECT l.l_id FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_selected s ON s.s_orderkey = l.l_orderkey$$)
UNION ALL
-- int4 = int8 below an int4 key: the integer family hashes both alike
SELECT 'equivalence class, int4 = int8', * FROM rt_same($$
SELECT o.o_orderkey FROM rt_orders o JOIN rt_customer c ON c.c_custkey8 = o.o_custkey8
JOIN rt_customer c2 ON c2.c_custkey = o.o_custkey8 WHERE c2.c_nation = 3$$)
UNION ALL
-- a semi join below (which PostgreSQL may run as a join of unique keys)
SELECT 'semi join', * FROM rt_same($$
SELECT o.o_orderkey FROM rt_orders o
JOIN rt_selected s ON s.s_orderkey = o.o_orderkey
WHERE EXISTS (SELECT FROM rt_lineitem l WHERE l.l_orderkey = o.o_orderkey AND l.l_qty < 40)$$)
UNION ALL
-- a snowflake: customer and its nation's selection, orders, lineitem
SELECT 'snowflake', * FROM rt_same($$
SELECT l.l_id FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey
JOIN (SELECT DISTINCT c_nation FROM rt_customer WHERE c_nation IN (2, 3)) n ON n.c_nation = c.c_nation
WHERE o.o_prio = 1$$);
RESET join_collapse_limit;
SELECT 'chain, the planner''s order' AS q, * FROM rt_same($$
SELECT l.l_id, c.c_name FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey WHERE c.c_nation = 3$$);

-- Where it must not transfer.  A join below that equates the key under a
-- collation whose equality is not the filter's: an order's 'C5' is 'c5'
-- case-insensitively and hashes apart from it under "C"; where the server
-- has ICU no filter reaches orders through that join, or the orders named
-- 'C5' would be lost (without ICU rt_ci is "C": then it transfers, and
-- the rows are the same).
DO $$
BEGIN
    CREATE COLLATION rt_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
    CREATE COLLATION rt_ci FROM "C";
END $$;
CREATE TABLE rt_names AS SELECT c_name AS n_name, c_custkey AS n_custkey FROM rt_customer;
ANALYZE rt_names;
SET join_collapse_limit = 1;
SELECT 'another collation below' AS q,
       (filters_on > filters_without_transfer) =
           (SELECT collisdeterministic FROM pg_collation WHERE collname = 'rt_ci')
           AS transferred_iff_deterministic,
       -- a case-insensitive rt_ci matches more names than "C" (no ICU)
       row_count = CASE WHEN (SELECT collisdeterministic FROM pg_collation WHERE collname = 'rt_ci')
                        THEN 1333 ELSE 2000 END AS rows_as_the_collation_says,
       same
FROM rt_same($$
SELECT o.o_orderkey, n.n_custkey FROM rt_orders o JOIN rt_names n ON n.n_name = o.o_custname COLLATE rt_ci
JOIN rt_customer c ON c.c_name = n.n_name COLLATE "C" WHERE c.c_nation = 3$$);
-- a numeric key, and a join below that compares it as a float8 (numerics
-- that differ can be the same float8): no transfer through it
SELECT 'numeric key, float8 = below' AS q, filters_on = filters_without_transfer AS no_transfer,
       row_count, same FROM rt_same($$
SELECT o.o_orderkey FROM rt_orders o JOIN rt_customer c2 ON c2.c_custfloat = o.o_custnum
JOIN rt_customer c ON c.c_custnum = o.o_custnum WHERE c.c_nation = 3$$)
UNION ALL
-- an anti join: not reduced either
SELECT 'anti join below', filters_on = filters_without_transfer, row_count, same FROM rt_same($$
SELECT o.o_orderkey FROM rt_orders o
JOIN rt_selected s ON s.s_orderkey = o.o_orderkey
WHERE NOT EXISTS (SELECT FROM rt_lineitem l WHERE l.l_orderkey = o.o_orderkey AND l.l_id % 3 = 0)$$);
-- a left join's nullable side: not reduced by the selected keys' filter
-- (its rows would come back NULL-extended rather than go away).  The
-- right join's own filter (every lineitem matches some order: not planned
-- without transfer) is, once transfer has reduced its build side, the
-- orders: filter 2 below, of o.o_orderkey.
SELECT 'left join below' AS q, filters_on, filters_without_transfer, row_count, same FROM rt_same($$
SELECT o.o_orderkey, l.l_id FROM rt_orders o LEFT JOIN rt_lineitem l ON l.l_orderkey = o.o_orderkey
JOIN rt_selected s ON s.s_orderkey = o.o_orderkey$$);
SELECT * FROM rt_explain($$
SELECT o.o_orderkey, l.l_id FROM rt_orders o LEFT JOIN rt_lineitem l ON l.l_orderkey = o.o_orderkey
JOIN rt_selected s ON s.s_orderkey = o.o_orderkey$$);
RESET join_collapse_limit;

-- Parallel plans: a filter built by a Parallel Hash (every participant's
-- share in, behind its build barrier) or sent to the workers by a Gather,
-- transferred below.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET join_collapse_limit = 1;
SELECT 'parallel chain' AS q, filters_on >= filters_without_transfer AS not_fewer, row_count, same
FROM rt_same($$
SELECT l.l_id, c.c_name FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey WHERE c.c_nation = 3$$)
UNION ALL
SELECT 'parallel equivalence class', filters_on >= filters_without_transfer, row_count, same
FROM rt_same($$
SELECT l.l_id FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_selected s ON s.s_orderkey = l.l_orderkey$$);
RESET join_collapse_limit;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SET max_parallel_workers_per_gather = 0;

-- Estimates decide: a join whose build side the filters from above barely
-- reduce gets no filter of its own (all customers selected).
SET join_collapse_limit = 1;
SELECT 'chain, nothing selected away' AS q, * FROM rt_same($$
SELECT l.l_id FROM rt_lineitem l JOIN rt_orders o ON o.o_orderkey = l.l_orderkey
JOIN rt_customer c ON c.c_custkey = o.o_custkey WHERE c.c_nation >= 0$$);
RESET join_collapse_limit;
