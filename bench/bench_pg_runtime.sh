#!/usr/bin/env bash
# The automatic Bloom join (make bench-pg-runtime, part of make bench-pg):
# run by bench/run_pg.sh in a throwaway server.  Each query runs with
# bloomfilter.runtime_filter off (PostgreSQL's own plan) and on, next to
# each other in every round:
#
#   selective inner join     fact 10^7 rows, dimension 10^6 rows of which 1%
#                            selected: 1% of the fact rows match; also the
#                            hand-written recipe (bloom_contains of the
#                            InitPlan's bloom_agg, with the setting off)
#   IN                       the same as a semi-join
#   aggregate above the join the inner join grouped by a dimension column
#   aggregate below the join the fact table grouped by the key, then joined
#   star join                two selective dimensions
#   exact set                a dimension of 100 or 1,000 selected keys: the
#                            probes test the exact set, not a Bloom filter
#   non-selective, planned   every fact row matches one of 1,000 keys: no
#                            filter is planned
#   non-selective, misjudged the planner thinks the dimension selective
#                            (a condition it cannot estimate) and adds a
#                            filter; every row matches: it switches off;
#                            the same with the 10^6 keys of the dimension
#   postgres_fdw             the fact table in another database of the
#                            same server, read through a loopback
#                            postgres_fdw server (extensions 'bloomfilter');
#                            also the rows shipped each way
#
# BENCH_RUNTIME_ROWS fact rows (default 10^7), median of
# BENCH_RUNTIME_RUNS rounds (default 5) in one backend,
# max_parallel_workers_per_gather = 0 (and one parallel pair), work_mem
# 256MB (single-batch hash joins, as with 4MB and a smaller table).  The
# library is loaded with session_preload_libraries.  Each pair must give
# the same answer; the script stops otherwise.
set -eu
ROWS=${BENCH_RUNTIME_ROWS:-10000000}
RUNS=${BENCH_RUNTIME_RUNS:-5}
DIM=$((ROWS / 10))
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
# the planner hook is in the library: loaded as an application would load it
export PGOPTIONS="-c session_preload_libraries=bloomfilter"
remote_db=bench_runtime_remote

psql -d postgres -c "DROP DATABASE IF EXISTS $remote_db" -c "CREATE DATABASE $remote_db"
# the fact table: here, and in the "remote" database
fact_sql="CREATE TABLE rt_fact AS
SELECT g::int8 AS id, (hashint8(g) & 2147483647) % $DIM AS k, (hashint8(g + 1) & 2147483647) % 1000 AS k2,
       g % 1000 AS amount
FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE rt_fact;"
printf 'CREATE EXTENSION bloomfilter;\n%s\n' "$fact_sql" | psql -d "$remote_db"
psql <<SQL
CREATE EXTENSION IF NOT EXISTS bloomfilter;
CREATE EXTENSION IF NOT EXISTS postgres_fdw;
DROP TABLE IF EXISTS rt_fact, rt_dim, rt_dim2;
$fact_sql
CREATE TABLE rt_dim AS
SELECT g::int8 AS k, g % 100 = 0 AS selected, 'name ' || (g % 50) AS name FROM generate_series(0, $DIM - 1) g;
CREATE TABLE rt_dim2 AS SELECT g AS k2, g % 10 = 0 AS selected FROM generate_series(0, 999) g;
VACUUM ANALYZE rt_dim, rt_dim2;
DROP SERVER IF EXISTS rt_remote CASCADE;
CREATE SERVER rt_remote FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '$PGHOST', port '$PGPORT', dbname '$remote_db', extensions 'bloomfilter', fetch_size '10000');
CREATE USER MAPPING FOR CURRENT_USER SERVER rt_remote OPTIONS (user '$PGUSER', password '${PGPASSWORD:-x}');
CREATE FOREIGN TABLE rt_fact_remote (id int8, k int8, k2 int8, amount int8) SERVER rt_remote OPTIONS (table_name 'rt_fact');
ANALYZE rt_fact_remote;
SQL

# Each measured query: a function whose setting holds while its query is planned.
psql <<'SQL'
CREATE OR REPLACE FUNCTION rt_run(q text, filter bool, workers int DEFAULT 0) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', filter::text, true);
    PERFORM set_config('max_parallel_workers_per_gather', workers::text, true);
    EXECUTE format('SELECT array_agg(x::text ORDER BY x::text)::text FROM (%s) x', q) INTO r;
    RETURN r;
END $$;
CREATE OR REPLACE FUNCTION rt_plan(q text, filter bool, workers int DEFAULT 0) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', filter::text, true);
    PERFORM set_config('max_parallel_workers_per_gather', workers::text, true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;
-- the actual rows of the foreign scans of q
CREATE OR REPLACE FUNCTION rt_shipped(q text, filter bool) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', filter::text, true);
    EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO plan;
    RETURN (SELECT round(sum((n->>'Actual Rows')::numeric * (n->>'Actual Loops')::numeric))
            FROM jsonb_path_query(plan::jsonb, 'strict $.** ? (@."Node Type" == "Foreign Scan")') n);
END $$;
SQL

psql -A -F ' | ' <<SQL
SET work_mem = '256MB';
CREATE TEMP TABLE queries (ord serial, name text, query text, workers int DEFAULT 0, filtered bool, recipe text);
INSERT INTO queries (name, query, workers, filtered, recipe) VALUES
  ('selective inner join',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE d.selected', 0, true,
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE d.selected
      AND bloom_contains((SELECT bloom_agg(k) FROM rt_dim WHERE selected), f.k)'),
  ('IN',
   'SELECT count(*), sum(amount) FROM rt_fact WHERE k IN (SELECT k FROM rt_dim WHERE selected)', 0, true, NULL),
  ('aggregate above the join',
   'SELECT d.name, count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE d.selected GROUP BY d.name', 0, true, NULL),
  ('aggregate below the join',
   'SELECT count(*), sum(a.total) FROM (SELECT k, sum(amount) AS total FROM rt_fact GROUP BY k) a JOIN rt_dim d ON d.k = a.k WHERE d.selected', 0, true, NULL),
  ('star join',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k JOIN rt_dim2 e ON e.k2 = f.k2 WHERE d.selected AND e.selected', 0, true, NULL),
  ('exact set, 100 keys',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim2 e ON e.k2 = f.k2 WHERE e.selected', 0, true, NULL),
  ('exact set, 1,000 keys',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE d.k % 1000 = 7', 0, true, NULL),
  ('selective inner join, 2 workers',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE d.selected', 2, true, NULL),
  ('non-selective, planned',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim2 e ON e.k2 = f.k2', 0, false, NULL),
  ('non-selective, misjudged',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim2 e ON e.k2 = f.k2 WHERE (e.k2 * 0) = 0', 0, true, NULL),
  ('non-selective, misjudged, 10^6 keys',
   'SELECT count(*), sum(f.amount) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE (d.k * 0) = 0', 0, true, NULL),
  ('postgres_fdw, selective',
   'SELECT count(*), sum(f.amount) FROM rt_fact_remote f JOIN rt_dim d ON d.k = f.k WHERE d.selected', 0, true, NULL);
-- the plans: a filter where expected, none with the setting off; the same answers
DO \$\$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM queries ORDER BY ord LOOP
        IF (rt_plan(q.query, true, q.workers) LIKE '%BloomFilterBuild%') <> q.filtered
           OR rt_plan(q.query, false, q.workers) LIKE '%BloomFilterBuild%' THEN
            RAISE EXCEPTION 'unexpected plan for %: %', q.name, rt_plan(q.query, true, q.workers);
        END IF;
        IF rt_run(q.query, true, q.workers) IS DISTINCT FROM rt_run(q.query, false, q.workers) THEN
            RAISE EXCEPTION 'different answers with and without the filter: %', q.name;
        END IF;
        IF q.recipe IS NOT NULL AND rt_run(q.recipe, false, q.workers) IS DISTINCT FROM rt_run(q.query, false, q.workers) THEN
            RAISE EXCEPTION 'the hand recipe answers differently: %', q.name;
        END IF;
    END LOOP;
END \$\$;
-- warm the cache
SELECT count(*) FROM rt_fact \\g /dev/null
SELECT count(*) FROM rt_fact_remote \\g /dev/null
CREATE TEMP TABLE timings (ord int, filter bool, round int, ms float8, recipe bool DEFAULT false);
DO \$\$
DECLARE
    q record;
    f bool;
    started timestamptz;
    ignored text;
BEGIN
    FOR r IN 1..$RUNS LOOP
        FOR q IN SELECT * FROM queries ORDER BY ord LOOP
            FOREACH f IN ARRAY ARRAY[false, true] LOOP
                started := clock_timestamp();
                ignored := rt_run(q.query, f, q.workers);
                INSERT INTO timings VALUES (q.ord, f, r, extract(epoch FROM clock_timestamp() - started) * 1000);
            END LOOP;
            IF q.recipe IS NOT NULL THEN
                started := clock_timestamp();
                ignored := rt_run(q.recipe, false, q.workers);
                INSERT INTO timings VALUES (q.ord, false, r, extract(epoch FROM clock_timestamp() - started) * 1000, true);
            END IF;
        END LOOP;
    END LOOP;
END \$\$;
CREATE TEMP TABLE medians AS
SELECT ord, filter, recipe, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM timings GROUP BY ord, filter, recipe;
SELECT q.name AS "query ($ROWS fact rows)", round(m_off.ms::numeric, 1) AS "off, median ms",
       round(m_on.ms::numeric, 1) AS "on, median ms", round((m_on.ms / m_off.ms)::numeric, 2) || 'x' AS "on / off",
       round(m_hand.ms::numeric, 1) AS "hand recipe, median ms",
       round((m_hand.ms / m_off.ms)::numeric, 2) || 'x' AS "hand recipe / off"
FROM queries q JOIN medians m_off ON m_off.ord = q.ord AND NOT m_off.filter AND NOT m_off.recipe
JOIN medians m_on ON m_on.ord = q.ord AND m_on.filter
LEFT JOIN medians m_hand ON m_hand.ord = q.ord AND m_hand.recipe ORDER BY q.ord;
SELECT 'postgres_fdw rows shipped: without the filter ' ||
       rt_shipped('SELECT count(*) FROM rt_fact_remote f JOIN rt_dim d ON d.k = f.k WHERE d.selected', false) ||
       ', with it ' ||
       rt_shipped('SELECT count(*) FROM rt_fact_remote f JOIN rt_dim d ON d.k = f.k WHERE d.selected', true) ||
       ', matching rows ' ||
       (SELECT count(*) FROM rt_fact f JOIN rt_dim d ON d.k = f.k WHERE d.selected);
SQL
psql -c "DROP TABLE rt_fact, rt_dim, rt_dim2; DROP SERVER rt_remote CASCADE;
         DROP FUNCTION rt_run(text, bool, int), rt_plan(text, bool, int), rt_shipped(text, bool)"
psql -d postgres -c "DROP DATABASE $remote_db"
