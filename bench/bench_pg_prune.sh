#!/usr/bin/env bash
# Partitions skipped by the runtime filters' range (make bench-pg-prune, part
# of make bench-pg): run by bench/run_pg.sh in a throwaway server.  A fact
# table of BENCH_PRUNE_ROWS rows (default 4 * 10^6) over two years, in 24
# monthly partitions, once by a date and once by an integer date key
# (20240115), joined to a calendar whose selected days are chosen by other
# columns than the key (so the planner cannot prune):
#
#   one week          7 days of one month: the other 23 partitions skipped
#   one day a month   a day in each month: the range spans every partition,
#                     nothing is skipped (the cost of looking)
#
# Each query runs with bloomfilter.runtime_filter off (PostgreSQL's own
# plan: every partition read) and on, next to each other in every round;
# median of BENCH_PRUNE_RUNS rounds (default 5), no parallel workers.  Also
# printed: the partitions the probes skipped (EXPLAIN ANALYZE).  Each pair
# must give the same answer; the script stops otherwise.
set -eu
ROWS=${BENCH_PRUNE_ROWS:-4000000}
RUNS=${BENCH_PRUNE_RUNS:-5}
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
export PGOPTIONS="-c session_preload_libraries=bloomfilter"

psql <<SQL
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomfilter;
DROP TABLE IF EXISTS pb_fact, pb_fact_key, pb_cal;
CREATE TABLE pb_fact (id int8, day date, amount int) PARTITION BY RANGE (day);
CREATE TABLE pb_fact_key (id int8, day_key int, amount int) PARTITION BY RANGE (day_key);
DO \$\$
DECLARE
    m date;
BEGIN
    FOR i IN 0..23 LOOP
        m := DATE '2023-01-01' + make_interval(months => i);
        EXECUTE format('CREATE TABLE pb_fact_%s PARTITION OF pb_fact FOR VALUES FROM (%L) TO (%L)',
                       i, m, m + interval '1 month');
        EXECUTE format('CREATE TABLE pb_fact_key_%s PARTITION OF pb_fact_key FOR VALUES FROM (%s) TO (%s)',
                       i, to_char(m, 'YYYYMMDD'), to_char(m + interval '1 month', 'YYYYMMDD'));
    END LOOP;
END \$\$;
INSERT INTO pb_fact SELECT g, DATE '2023-01-01' + (hashint8(g) & 2147483647) % 731, g % 1000
FROM generate_series(1, $ROWS) g;
INSERT INTO pb_fact_key SELECT id, to_char(day, 'YYYYMMDD')::int, amount FROM pb_fact;
CREATE TABLE pb_cal AS
SELECT d::date AS day, to_char(d, 'YYYYMMDD')::int AS day_key, extract(year FROM d)::int AS year,
       extract(week FROM d)::int AS week, extract(day FROM d)::int AS dom
FROM generate_series(DATE '2023-01-01', DATE '2024-12-31', interval '1 day') d;
VACUUM ANALYZE pb_fact, pb_fact_key, pb_cal;
SQL

psql <<'SQL'
CREATE OR REPLACE FUNCTION pb_run(q text, filter bool) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', filter::text, true);
    PERFORM set_config('max_parallel_workers_per_gather', '0', true);
    EXECUTE format('SELECT array_agg(x::text ORDER BY x::text)::text FROM (%s) x', q) INTO r;
    RETURN r;
END $$;
-- the probes of q that skipped their partition, of all its probes
CREATE OR REPLACE FUNCTION pb_skipped(q text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    PERFORM set_config('max_parallel_workers_per_gather', '0', true);
    EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ' || q INTO plan;
    RETURN (SELECT count(*) FILTER (WHERE n->>'Scans Skipped' NOT LIKE '0%') || ' of ' || count(*)
            FROM jsonb_path_query(plan, 'strict $.**') n
            WHERE jsonb_typeof(n) = 'object' AND n->>'Custom Plan Provider' = 'BloomBatchedProbe');
END $$;
SQL

psql -A -F ' | ' <<SQL
SET work_mem = '64MB';
CREATE TEMP TABLE queries (ord serial, name text, query text);
INSERT INTO queries (name, query) VALUES
  ('date, one week',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_cal c ON c.day = f.day WHERE c.year = 2024 AND c.week = 20'),
  ('date key, one week',
   'SELECT count(*), sum(f.amount) FROM pb_fact_key f JOIN pb_cal c ON c.day_key = f.day_key WHERE c.year = 2024 AND c.week = 20'),
  ('date, one day a month',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_cal c ON c.day = f.day WHERE c.dom = 15');
DO \$\$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM queries ORDER BY ord LOOP
        IF pb_run(q.query, true) IS DISTINCT FROM pb_run(q.query, false) THEN
            RAISE EXCEPTION 'different answers with and without the filter: %', q.name;
        END IF;
    END LOOP;
END \$\$;
SELECT count(*) FROM pb_fact \\g /dev/null
SELECT count(*) FROM pb_fact_key \\g /dev/null
CREATE TEMP TABLE timings (ord int, filter bool, round int, ms float8);
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
                ignored := pb_run(q.query, f);
                INSERT INTO timings VALUES (q.ord, f, r, extract(epoch FROM clock_timestamp() - started) * 1000);
            END LOOP;
        END LOOP;
    END LOOP;
END \$\$;
CREATE TEMP TABLE medians AS
SELECT ord, filter, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM timings GROUP BY ord, filter;
SELECT q.name AS "query ($ROWS fact rows, 24 partitions)", round(m_off.ms::numeric, 1) AS "off, median ms",
       round(m_on.ms::numeric, 1) AS "on, median ms", round((m_on.ms / m_off.ms)::numeric, 2) || 'x' AS "on / off",
       pb_skipped(q.query) AS "partitions skipped"
FROM queries q JOIN medians m_off ON m_off.ord = q.ord AND NOT m_off.filter
JOIN medians m_on ON m_on.ord = q.ord AND m_on.filter ORDER BY q.ord;
SQL
psql -c "DROP TABLE pb_fact, pb_fact_key, pb_cal; DROP FUNCTION pb_run(text, bool), pb_skipped(text)"
