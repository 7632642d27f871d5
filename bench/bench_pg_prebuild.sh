#!/usr/bin/env bash
# Runtime filters built first, for joins that build no hash table (make
# bench-pg-prebuild, part of make bench-pg): run by bench/run_pg.sh in a
# throwaway server.  A star schema: a fact table of BENCH_PREBUILD_ROWS rows
# (default 2*10^6), a dimension of a tenth as many rows with a primary key,
# 1% of them selected, and a second one of 1,000 rows (10% selected).  The
# joins are forced to what PostgreSQL picks for a star join over a
# dimension's key index, or a merge join (settings per query, below), and
# each query runs with bloomfilter.runtime_filter off (PostgreSQL's own
# plan, and the extension's before filters were built first: no hash join,
# no filter) and on, next to each other in every round:
#
#   nested loop              the fact table, then the dimension's primary
#                            key index for each row (hash and merge joins
#                            off; Memoize on, as PostgreSQL plans it)
#   nested loop, no Memoize  every fact row an index lookup
#   nested loop, semi join   EXISTS of a selected dimension row
#   two dimensions           both through their key indexes
#   merge join               the fact table sorted by the key (hash joins
#                            and nested loops off)
#   nested loop, 2 workers   below a Gather: each process builds its filter
#   not selective            90% of the dimension selected: the estimates
#                            say no, no filter
#
# Median of BENCH_PREBUILD_RUNS rounds (default 3) in one backend; the
# library is loaded with session_preload_libraries; each pair must give the
# same answer, and the plans must have a filter built first where one is
# expected (the script stops otherwise).
set -eu
ROWS=${BENCH_PREBUILD_ROWS:-2000000}
RUNS=${BENCH_PREBUILD_RUNS:-3}
DIM=$((ROWS / 10))
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
export PGOPTIONS="-c session_preload_libraries=bloomfilter"

psql <<SQL
DROP TABLE IF EXISTS pb_fact, pb_dim, pb_dim2;
CREATE TABLE pb_fact AS
SELECT g::int8 AS id, (hashint8(g) & 2147483647) % $DIM AS k, (hashint8(g + 1) & 2147483647) % 1000 AS k2,
       g % 1000 AS amount
FROM generate_series(1, $ROWS) g;
CREATE TABLE pb_dim AS
SELECT g::int8 AS k, g % 100 = 0 AS selected, g % 10 <> 0 AS most, 'name ' || (g % 50) AS name
FROM generate_series(0, $DIM - 1) g;
ALTER TABLE pb_dim ADD PRIMARY KEY (k);
CREATE TABLE pb_dim2 AS SELECT g::int8 AS k2, g % 10 = 0 AS selected FROM generate_series(0, 999) g;
ALTER TABLE pb_dim2 ADD PRIMARY KEY (k2);
VACUUM ANALYZE pb_fact, pb_dim, pb_dim2;
SQL

# Each measured query: a function whose settings hold while its query is planned.
psql <<'SQL'
CREATE OR REPLACE FUNCTION pb_set(filter bool, settings text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s text;
BEGIN
    PERFORM set_config('bloomfilter.runtime_filter', filter::text, true);
    FOREACH s IN ARRAY string_to_array(settings, ' ') LOOP
        PERFORM set_config(split_part(s, '=', 1), split_part(s, '=', 2), true);
    END LOOP;
END $$;
CREATE OR REPLACE FUNCTION pb_run(q text, filter bool, settings text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM pb_set(filter, settings);
    EXECUTE format('SELECT array_agg(x::text ORDER BY x::text)::text FROM (%s) x', q) INTO r;
    RETURN r;
END $$;
CREATE OR REPLACE FUNCTION pb_plan(q text, filter bool, settings text, with_analyze bool DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    PERFORM pb_set(filter, settings);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF' || CASE WHEN with_analyze THEN ', ANALYZE, TIMING OFF' ELSE '' END
                        || ') ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;
SQL

psql -A -F ' | ' <<SQL
SET work_mem = '256MB';
CREATE TEMP TABLE queries (ord serial, name text, query text, settings text, prebuilt bool);
INSERT INTO queries (name, query, settings, prebuilt) VALUES
  ('nested loop',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.selected',
   'enable_hashjoin=off enable_mergejoin=off max_parallel_workers_per_gather=0', true),
  ('nested loop, no Memoize',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.selected',
   'enable_hashjoin=off enable_mergejoin=off enable_memoize=off max_parallel_workers_per_gather=0', true),
  ('nested loop, semi join',
   'SELECT count(*), sum(f.amount) FROM pb_fact f WHERE EXISTS (SELECT FROM pb_dim d WHERE d.k = f.k AND d.selected)',
   'enable_hashjoin=off enable_mergejoin=off max_parallel_workers_per_gather=0', true),
  ('two dimensions',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k JOIN pb_dim2 e ON e.k2 = f.k2 WHERE d.selected AND e.selected',
   'enable_hashjoin=off enable_mergejoin=off max_parallel_workers_per_gather=0', true),
  ('merge join',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.selected',
   'enable_hashjoin=off enable_nestloop=off max_parallel_workers_per_gather=0', true),
  ('nested loop, 2 workers',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.selected',
   'enable_hashjoin=off enable_mergejoin=off max_parallel_workers_per_gather=2', true),
  ('not selective',
   'SELECT count(*), sum(f.amount) FROM pb_fact f JOIN pb_dim d ON d.k = f.k WHERE d.most',
   'enable_hashjoin=off enable_mergejoin=off max_parallel_workers_per_gather=0', false);
DO \$\$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM queries ORDER BY ord LOOP
        IF (pb_plan(q.query, true, q.settings) LIKE '%BloomFilterPrebuild%') <> q.prebuilt
           OR pb_plan(q.query, false, q.settings) LIKE '%Runtime Filter%' THEN
            RAISE EXCEPTION 'unexpected plan for %: %', q.name, pb_plan(q.query, true, q.settings);
        END IF;
        IF pb_run(q.query, true, q.settings) IS DISTINCT FROM pb_run(q.query, false, q.settings) THEN
            RAISE EXCEPTION 'different answers with and without the filter: %', q.name;
        END IF;
    END LOOP;
END \$\$;
-- the rows the fact table's scan removed, with the filter
SELECT q.name AS "query", coalesce(sum(m[1]::numeric), 0) AS "fact rows removed by the filter"
FROM queries q LEFT JOIN LATERAL regexp_matches(pb_plan(q.query, true, q.settings, true),
                                                 'Rows Removed by Bloom Filter: (\d+)', 'g') m ON true
GROUP BY q.ord, q.name ORDER BY q.ord;
SELECT count(*) FROM pb_fact \\g /dev/null
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
            FOREACH f IN ARRAY CASE WHEN r % 2 = 0 THEN ARRAY[true, false] ELSE ARRAY[false, true] END LOOP
                started := clock_timestamp();
                ignored := pb_run(q.query, f, q.settings);
                INSERT INTO timings VALUES (q.ord, f, r, extract(epoch FROM clock_timestamp() - started) * 1000);
            END LOOP;
        END LOOP;
    END LOOP;
END \$\$;
CREATE TEMP TABLE medians AS
SELECT ord, filter, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM timings GROUP BY ord, filter;
SELECT q.name AS "query ($ROWS fact rows)", round(m_off.ms::numeric, 1) AS "off, median ms",
       round(m_on.ms::numeric, 1) AS "on, median ms", round((m_on.ms / m_off.ms)::numeric, 2) || 'x' AS "on / off"
FROM queries q JOIN medians m_off ON m_off.ord = q.ord AND NOT m_off.filter
JOIN medians m_on ON m_on.ord = q.ord AND m_on.filter ORDER BY q.ord;
SQL
psql -c "DROP TABLE pb_fact, pb_dim, pb_dim2;
         DROP FUNCTION pb_set(bool, text), pb_run(text, bool, text), pb_plan(text, bool, text, bool)"
