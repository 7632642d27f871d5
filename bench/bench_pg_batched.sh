#!/usr/bin/env bash
# The batched probe scan (make bench-pg-batched, part of make bench-pg): run
# by bench/run_pg.sh in a throwaway server.  Each probe query runs twice, row by row
# (bloomfilter.enable_batched_probe = off: Seq Scan with the qual) and in
# batches (Custom Scan BloomBatchedProbe), next to its baseline of the same
# run:
#
#   count(*) WHERE bloom_contains(f, y), f of 10^7 values (16 MiB) read from a
#     table, classic and blocked; and f of 10^5 (128 KiB, in the cache)
#                                       vs count(*) WHERE hashint8(y) <> 0
#   the same of absent keys, -y (a join's filter mostly answers no)
#                                       vs count(*) WHERE hashint8(-y) <> 0
#   the Bloom join recipe (10M fact rows, 1% of a 1M-row dimension)
#                                       vs the hash semi-join it replaces
#
# BENCH_BATCHED_ROWS rows (default 10^7), median of BENCH_BATCHED_RUNS rounds
# (default 5) in one backend, max_parallel_workers_per_gather = 0; each
# round runs every query in turn, so a burst of load elsewhere on the
# machine lands on one round of each.  The two forms must give the same
# answers; the script stops otherwise.
set -eu
ROWS=${BENCH_BATCHED_ROWS:-10000000}
RUNS=${BENCH_BATCHED_RUNS:-5}
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }

psql <<SQL
CREATE EXTENSION IF NOT EXISTS bloomfilter;
DROP TABLE IF EXISTS batched_t, batched_filters, batched_fact, batched_dim;
CREATE TABLE batched_t AS SELECT g::int8 AS y FROM generate_series(1, $ROWS) g;
CREATE TABLE batched_filters (name text PRIMARY KEY, f bloom);
INSERT INTO batched_filters SELECT '10M classic', bloom_agg(g::int8) FROM generate_series(1, 10000000) g;
INSERT INTO batched_filters SELECT '100k classic', bloom_agg(g::int8) FROM generate_series(1, 100000) g;
SET bloomfilter.default_layout = 'blocked';
INSERT INTO batched_filters SELECT '10M blocked', bloom_agg(g::int8) FROM generate_series(1, 10000000) g;
RESET bloomfilter.default_layout;
-- the Bloom join: fact keys over 1M dimension rows, 1% of them selected
CREATE TABLE batched_dim AS SELECT g::int8 AS k, g % 100 = 0 AS selected FROM generate_series(0, 999999) g;
CREATE TABLE batched_fact AS SELECT g::int8 AS id, (hashint8(g) & 1048575) % 1000000 AS k, g % 1000 AS amount FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE batched_t, batched_filters, batched_dim, batched_fact;
SQL

# Each measured query is a function whose SET clause fixes the setting
# while its query is planned.
psql <<'SQL'
CREATE OR REPLACE FUNCTION batched_probe(filter_name text, batched bool, probe_key text DEFAULT 'y') RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    PERFORM set_config('bloomfilter.enable_batched_probe', batched::text, true);
    EXECUTE 'SELECT count(*) FROM batched_t WHERE bloom_contains((SELECT f FROM batched_filters WHERE name = $1), ' || probe_key || ')'
        INTO n USING filter_name;
    RETURN n;
END $$;
CREATE OR REPLACE FUNCTION batched_join(batched bool) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM set_config('bloomfilter.enable_batched_probe', batched::text, true);
    EXECUTE 'SELECT count(*) || '' '' || sum(amount) FROM batched_fact f
             WHERE bloom_contains((SELECT bloom_agg(k) FROM batched_dim WHERE selected), f.k)
               AND f.k IN (SELECT k FROM batched_dim WHERE selected)' INTO r;
    RETURN r;
END $$;
CREATE OR REPLACE FUNCTION batched_plan(q text, batched bool) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    PERFORM set_config('bloomfilter.enable_batched_probe', batched::text, true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;
SQL

psql -A -F ' | ' <<SQL
SET max_parallel_workers_per_gather = 0;
SET work_mem = '256MB';
-- the plans measured: the probe is a Custom Scan only in batches
SELECT 'plans as expected: ' ||
       (batched_plan('SELECT count(*) FROM batched_t WHERE bloom_contains((SELECT f FROM batched_filters LIMIT 1), y)', true) LIKE '%BloomBatchedProbe%'
        AND batched_plan('SELECT count(*) FROM batched_t WHERE bloom_contains((SELECT f FROM batched_filters LIMIT 1), y)', false) NOT LIKE '%BloomBatchedProbe%');
-- and the answers are the same
DO \$\$
BEGIN
    IF batched_probe('10M classic', true) <> batched_probe('10M classic', false)
       OR batched_probe('10M blocked', true) <> batched_probe('10M blocked', false)
       OR batched_probe('100k classic', true) <> batched_probe('100k classic', false)
       OR batched_probe('10M classic', true, '-y') <> batched_probe('10M classic', false, '-y')
       OR batched_probe('10M blocked', true, '-y') <> batched_probe('10M blocked', false, '-y')
       OR batched_join(true) <> batched_join(false) THEN
        RAISE EXCEPTION 'batched and row-by-row answers differ';
    END IF;
END \$\$;
CREATE TEMP TABLE queries (ord serial, name text, query text, baseline text);
INSERT INTO queries (name, query, baseline) VALUES
  ('count(*) WHERE hashint8(y) <> 0', 'SELECT count(*) FROM batched_t WHERE hashint8(y) <> 0', NULL),
  ('bloom_contains(f, y), f 10M classic, row by row', 'SELECT batched_probe(''10M classic'', false)', 'count(*) WHERE hashint8(y) <> 0'),
  ('bloom_contains(f, y), f 10M classic, batched', 'SELECT batched_probe(''10M classic'', true)', 'count(*) WHERE hashint8(y) <> 0'),
  ('bloom_contains(f, y), f 10M blocked, row by row', 'SELECT batched_probe(''10M blocked'', false)', 'count(*) WHERE hashint8(y) <> 0'),
  ('bloom_contains(f, y), f 10M blocked, batched', 'SELECT batched_probe(''10M blocked'', true)', 'count(*) WHERE hashint8(y) <> 0'),
  ('bloom_contains(f, y), f 100k classic, row by row', 'SELECT batched_probe(''100k classic'', false)', 'count(*) WHERE hashint8(y) <> 0'),
  ('bloom_contains(f, y), f 100k classic, batched', 'SELECT batched_probe(''100k classic'', true)', 'count(*) WHERE hashint8(y) <> 0'),
  ('count(*) WHERE hashint8(-y) <> 0', 'SELECT count(*) FROM batched_t WHERE hashint8(-y) <> 0', NULL),
  ('bloom_contains(f, -y), absent, f 10M classic, row by row', 'SELECT batched_probe(''10M classic'', false, ''-y'')', 'count(*) WHERE hashint8(-y) <> 0'),
  ('bloom_contains(f, -y), absent, f 10M classic, batched', 'SELECT batched_probe(''10M classic'', true, ''-y'')', 'count(*) WHERE hashint8(-y) <> 0'),
  ('bloom_contains(f, -y), absent, f 10M blocked, batched', 'SELECT batched_probe(''10M blocked'', true, ''-y'')', 'count(*) WHERE hashint8(-y) <> 0'),
  ('hash semi-join (fact 10M, dim 1%)', 'SELECT count(*), sum(amount) FROM batched_fact f WHERE f.k IN (SELECT k FROM batched_dim WHERE selected)', NULL),
  ('Bloom join recipe, row by row', 'SELECT batched_join(false)', 'hash semi-join (fact 10M, dim 1%)'),
  ('Bloom join recipe, batched', 'SELECT batched_join(true)', 'hash semi-join (fact 10M, dim 1%)');
-- goals: a stored filter beyond the caches within 1.5x hashint8
CREATE TEMP TABLE goals (name text, goal float8);
INSERT INTO goals VALUES
  ('bloom_contains(f, y), f 10M classic, batched', 1.5),
  ('bloom_contains(f, y), f 10M blocked, batched', 1.5),
  ('bloom_contains(f, -y), absent, f 10M classic, batched', 1.5),
  ('bloom_contains(f, -y), absent, f 10M blocked, batched', 1.5);
-- warm the cache
SELECT count(*) FROM batched_t \\g /dev/null
SELECT count(*) FROM batched_fact \\g /dev/null
CREATE TEMP TABLE timings (name text, round int, ms float8);
DO \$\$
DECLARE
    q record;
    started timestamptz;
    ignored text;
BEGIN
    FOR r IN 1..$RUNS LOOP
        FOR q IN SELECT * FROM queries ORDER BY ord LOOP
            started := clock_timestamp();
            EXECUTE q.query INTO ignored;
            INSERT INTO timings VALUES (q.name, r, extract(epoch FROM clock_timestamp() - started) * 1000);
        END LOOP;
    END LOOP;
END \$\$;
CREATE TEMP TABLE results AS
SELECT q.ord, q.name, q.baseline, percentile_disc(0.5) WITHIN GROUP (ORDER BY t.ms) AS ms
FROM queries q JOIN timings t USING (name) GROUP BY q.ord, q.name, q.baseline;
SELECT r.name AS "query ($ROWS rows)", round(r.ms::numeric, 1) AS "median ms",
       CASE WHEN b.ms IS NULL THEN 'baseline' ELSE round((r.ms / b.ms)::numeric, 2) || 'x ' || b.name END AS "ratio",
       coalesce('<= ' || g.goal || 'x ' || CASE WHEN r.ms / b.ms <= g.goal THEN 'met' ELSE 'missed' END, '') AS "goal"
FROM results r LEFT JOIN results b ON b.name = r.baseline LEFT JOIN goals g ON g.name = r.name ORDER BY r.ord;
SELECT 'filter sizes: ' || string_agg(name || ' -> ' || pg_size_pretty(octet_length(f::bytea)::bigint), ', ' ORDER BY name) FROM batched_filters;
SQL
psql -c "DROP TABLE batched_t, batched_filters, batched_fact, batched_dim; DROP FUNCTION batched_probe(text, bool, text), batched_join(bool), batched_plan(text, bool)"
