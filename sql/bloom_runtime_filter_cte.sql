-- The readers' conditions of a shared CTE, moved into the CTE
-- (bloomfilter.runtime_filter_cte_conditions, pg/runtime_filter_cte.c).
-- Every query runs with the setting on and off and must return the same
-- rows; "moved" says whether the plan changed (the OR of the readers'
-- conditions went into the CTE).
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/majors.sql
LOAD 'bloomfilter';
SET max_parallel_workers_per_gather = 0;

-- Sales of 40 items over 120 days of 4 months (and a day of no month);
-- item i sells in the months where i % (month + 1) <> 0, so some items
-- sell in month 1 and 3 but not in month 2.
CREATE TABLE ct_days AS
SELECT g AS day, CASE WHEN g = 120 THEN NULL ELSE g / 30 + 1 END AS month FROM generate_series(0, 120) g;
CREATE TABLE ct_sales AS
SELECT g AS id, g % 40 AS item, d.day, g % 7 + 1 AS qty
FROM generate_series(1, 6000) g
JOIN ct_days d ON d.day = g % 121
WHERE d.month IS NULL OR (g % 40) % (d.month + 1) <> 0;
CREATE TABLE ct_items AS SELECT g AS item FROM generate_series(0, 39) g;
ANALYZE ct_days, ct_sales, ct_items;

\i :abs_srcdir/sql/include/on_and_off.sql
CREATE FUNCTION ct_same(q text)
RETURNS TABLE (moved bool, row_count int, same bool)
LANGUAGE sql AS $$
    SELECT r.plan_on <> r.plan_off, r.row_count, r.same
    FROM pg_temp.on_and_off('bloomfilter.runtime_filter_cte_conditions', q) r
$$;
-- the plan's lines with a condition on month
CREATE FUNCTION ct_conditions(q text)
RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'month' AND line ~ '(Filter|Cond)' THEN
            RETURN NEXT btrim(line);
        END IF;
    END LOOP;
END $$;

-- the monthly totals per item, read twice
\set m 'WITH m AS (SELECT s.item, d.month, sum(s.qty) AS total, count(*) AS n FROM ct_sales s JOIN ct_days d ON d.day = s.day GROUP BY s.item, d.month)'

-- Two readers, month 1 and month 2: the OR reaches ct_days' scan, below
-- the grouping (month is a grouping column).
SELECT * FROM ct_same(:'m' || ' SELECT a.item, a.total, b.total FROM m a JOIN m b ON a.item = b.item WHERE a.month = 1 AND b.month = 2');
SELECT * FROM ct_conditions(:'m' || ' SELECT a.item, a.total, b.total FROM m a JOIN m b ON a.item = b.item WHERE a.month = 1 AND b.month = 2');
-- off: the readers filter the CTE's rows
SET bloomfilter.runtime_filter_cte_conditions = off;
SELECT * FROM ct_conditions(:'m' || ' SELECT a.item, a.total, b.total FROM m a JOIN m b ON a.item = b.item WHERE a.month = 1 AND b.month = 2');
RESET bloomfilter.runtime_filter_cte_conditions;
-- and with every runtime filter off, nothing moves either
SET bloomfilter.runtime_filter = off;
SELECT * FROM ct_conditions(:'m' || ' SELECT a.item, a.total, b.total FROM m a JOIN m b ON a.item = b.item WHERE a.month = 1 AND b.month = 2');
RESET bloomfilter.runtime_filter;

-- Several conjuncts and readers: what they share and what they do not.
SELECT * FROM ct_same(:'m' || ' SELECT a.item FROM m a, m b, m c WHERE a.item = b.item AND b.item = c.item AND a.month = 1 AND a.n > 3 AND b.month IN (2, 3) AND b.n > 3 AND c.month IS NULL');
SELECT * FROM ct_conditions(:'m' || ' SELECT a.item FROM m a, m b, m c WHERE a.item = b.item AND b.item = c.item AND a.month = 1 AND a.n > 3 AND b.month IN (2, 3) AND b.n > 3 AND c.month IS NULL');
-- a reader in an EXISTS, in an ON of an inner join
SELECT * FROM ct_same(:'m' || ' SELECT a.item, a.total FROM m a WHERE a.month = 1 AND EXISTS (SELECT 1 FROM m b WHERE b.item = a.item AND b.month = 2)');
SELECT * FROM ct_same(:'m' || ' SELECT a.item FROM ct_items i JOIN m a ON a.item = i.item AND a.month = 3 JOIN m b ON b.item = i.item AND b.month = 4');
-- the nullable side of a left join: its ON counts ...
SELECT * FROM ct_same(:'m' || ' SELECT a.item, b.total FROM m a LEFT JOIN m b ON b.item = a.item AND b.month = 2 WHERE a.month = 1');
-- ... a WHERE above it does not: b.month = 2 OR b.month IS NULL keeps the
-- items without a month-2 row, which a moved condition would change
SELECT * FROM ct_same(:'m' || ' SELECT a.item, b.month FROM m a LEFT JOIN m b ON b.item = a.item WHERE a.month = 1 AND (b.month = 2 OR b.month IS NULL)');
SELECT * FROM ct_same(:'m' || ' SELECT a.item, b.month FROM m b RIGHT JOIN m a ON b.item = a.item WHERE a.month = 1 AND (b.month = 2 OR b.month IS NULL)');
SELECT * FROM ct_same(:'m' || ' SELECT a.item, b.item FROM m a FULL JOIN m b ON b.item = a.item AND b.month = 2 AND a.month = 1');

-- Nothing moves: a reader without a condition of its own ...
SELECT * FROM ct_same(:'m' || ' SELECT item, total FROM m WHERE month = 1 UNION ALL SELECT item, total FROM m');
-- ... with a condition on another relation only, or a correlated one
SELECT * FROM ct_same(:'m' || ' SELECT a.item FROM m a JOIN m b ON b.item = a.item AND b.month = a.month WHERE a.month = 1');
SELECT * FROM ct_same(:'m' || ' SELECT i.item, (SELECT sum(a.total) FROM m a WHERE a.item = i.item) FROM ct_items i, m b WHERE b.item = i.item AND b.month = 2');
-- ... a volatile condition, a volatile CTE, a CTE written MATERIALIZED,
-- FOR UPDATE
SELECT * FROM ct_same(:'m' || ' SELECT a.item FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2 + (random() * 0)::int');
SELECT * FROM ct_same('WITH m AS (SELECT item, day % 4 + (random() * 0)::int AS month FROM ct_sales) SELECT count(*) FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2');
SELECT * FROM ct_same('WITH m AS MATERIALIZED (SELECT s.item, d.month, sum(s.qty) AS total FROM ct_sales s JOIN ct_days d ON d.day = s.day GROUP BY 1, 2) SELECT a.item FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2');
SELECT * FROM ct_same('WITH m AS (SELECT * FROM ct_days FOR UPDATE) SELECT a.day FROM m a, m b WHERE a.day = b.day + 30 AND a.month = 2 AND b.month = 1');
-- (read once, PostgreSQL inlines the CTE itself)
SELECT * FROM ct_same(:'m' || ' SELECT a.item FROM m a WHERE a.month = 1');

-- The CTE's query as PostgreSQL's rules allow: set operations, a window
-- (the condition stays above it where month is not a partition), DISTINCT,
-- LIMIT (the condition stays above it)
SELECT * FROM ct_same('WITH m AS (SELECT item, 1 AS month, qty FROM ct_sales WHERE day < 30 UNION ALL SELECT item, 2, qty FROM ct_sales WHERE day BETWEEN 30 AND 59 UNION ALL SELECT item, 3, qty FROM ct_sales WHERE day >= 60) SELECT a.item, sum(a.qty) FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2 GROUP BY a.item');
SELECT * FROM ct_conditions('WITH m AS (SELECT item, 1 AS month, qty FROM ct_sales WHERE day < 30 UNION ALL SELECT item, 2, qty FROM ct_sales WHERE day BETWEEN 30 AND 59 UNION ALL SELECT item, 3, qty FROM ct_sales WHERE day >= 60) SELECT a.item, sum(a.qty) FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2 GROUP BY a.item');
SELECT * FROM ct_same('WITH m AS (SELECT item, month, total, rank() OVER (ORDER BY total, item, month) AS r FROM (SELECT s.item, d.month, sum(s.qty) AS total FROM ct_sales s JOIN ct_days d ON d.day = s.day GROUP BY s.item, d.month) x) SELECT a.item, a.r, b.r AS rb FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2');
SELECT * FROM ct_same('WITH m AS (SELECT item, month, total, rank() OVER (PARTITION BY month ORDER BY total, item) AS r FROM (SELECT s.item, d.month, sum(s.qty) AS total FROM ct_sales s JOIN ct_days d ON d.day = s.day GROUP BY s.item, d.month) x) SELECT a.item, a.r, b.r AS rb FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 2');
-- (grouping sets: the subtotals' NULL month is no month of a row; the
-- condition stays above the grouping)
SELECT * FROM ct_same('WITH m AS (SELECT s.item, d.month, sum(s.qty) AS total FROM ct_sales s JOIN ct_days d ON d.day = s.day GROUP BY ROLLUP (s.item, d.month)) SELECT a.item, a.total, b.total AS tb FROM m a, m b WHERE a.item = b.item AND a.month IS NULL AND b.month = 1');
SELECT * FROM ct_same('WITH m AS (SELECT DISTINCT s.item, d.month FROM ct_sales s JOIN ct_days d USING (day)) SELECT a.item FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 3');
SELECT * FROM ct_same('WITH m AS (SELECT s.item, d.month FROM ct_sales s JOIN ct_days d USING (day) ORDER BY s.id LIMIT 500) SELECT a.item, count(*) FROM m a, m b WHERE a.item = b.item AND a.month = 1 AND b.month = 1 GROUP BY a.item');

-- Levels: a CTE of a subquery that reads the outer query's row, a CTE that
-- reads another, readers in another CTE
SELECT * FROM ct_same('SELECT i.item, (WITH m AS (SELECT d.month, sum(s.qty) AS total FROM ct_sales s JOIN ct_days d ON d.day = s.day WHERE s.item = i.item GROUP BY d.month) SELECT sum(a.total) - sum(b.total) FROM m a, m b WHERE a.month = 1 AND b.month = 2) FROM ct_items i');
SELECT * FROM ct_same('WITH base AS (SELECT s.item, d.month, s.qty FROM ct_sales s JOIN ct_days d ON d.day = s.day), m AS (SELECT item, month, sum(qty) AS total FROM base WHERE month < 4 GROUP BY 1, 2), x AS (SELECT a.item, a.total FROM m a, base b WHERE b.item = a.item AND a.month = 1 AND b.month = 1) SELECT x.item, sum(x.total), (SELECT sum(total) FROM m WHERE month = 3) FROM x GROUP BY x.item');

-- Parameters: a generic plan moves $1 and $2
PREPARE ct_months(int, int) AS
WITH m AS (SELECT s.item, d.month, sum(s.qty) AS total FROM ct_sales s JOIN ct_days d ON d.day = s.day GROUP BY s.item, d.month)
SELECT count(*), sum(a.total), sum(b.total) FROM m a JOIN m b ON a.item = b.item WHERE a.month = $1 AND b.month = $2;
SET plan_cache_mode = force_generic_plan;
SELECT * FROM ct_conditions('EXECUTE ct_months(1, 3)');
EXECUTE ct_months(1, 3);
SET bloomfilter.runtime_filter_cte_conditions = off;
EXECUTE ct_months(1, 3);
RESET bloomfilter.runtime_filter_cte_conditions;
RESET plan_cache_mode;
DEALLOCATE ct_months;

DROP TABLE ct_days, ct_sales, ct_items;
