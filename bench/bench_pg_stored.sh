#!/usr/bin/env bash
# Piecewise probes of stored filters (make bench-pg-stored, part of make bench-pg):
# run by bench/run_pg.sh in a throwaway server.  A table of distinct stored filters (one a day, a
# file, a partition; STORAGE EXTERNAL: out of line, uncompressed) probed row by
# row, against the cheapest read of such a value there is: one 32-byte slice
# of each row's filter, substring(f::bytea from N for 32), in the same run.
# Beside it the same probe of each value read whole (f::bytea::bloom, an
# in-memory copy, which is what every row cost before piecewise probes).
#
#   200 filters of 10^6 values (2 MiB each), 20 filters of 10^7 (16 MiB),
#   classic and blocked; 2,000 small ones, read whole rather than in pieces:
#   10^3 values (2 KiB, 2 TOAST chunks), classic and blocked, and 10^4 values
#   classic (16 KiB, 9 chunks); and 20 filters of 10^6 each probed by 200
#   values in a row (the call site reads pieces, then reads the filter whole once)
#
# Per row: the median over BENCH_STORED_RUNS rounds (default 11) of the time
# of one query divided by its rows; each round runs every query in turn, so a
# burst of load elsewhere on the machine lands on one round of each.
set -eu
RUNS=${BENCH_STORED_RUNS:-11}
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }

psql <<SQL
CREATE EXTENSION IF NOT EXISTS bloomfilter;
DROP TABLE IF EXISTS stored_source, daily_c6, daily_b6, daily_c7, daily_b7, daily_c3, daily_b3, daily_c4;
CREATE TABLE stored_source (n int8, layout text, f bloom);
INSERT INTO stored_source SELECT 1000, 'classic', bloom_agg(g::int8) FROM generate_series(1, 1000) g;
INSERT INTO stored_source SELECT 10000, 'classic', bloom_agg(g::int8) FROM generate_series(1, 10000) g;
INSERT INTO stored_source SELECT 1000000, 'classic', bloom_agg(g::int8) FROM generate_series(1, 1000000) g;
INSERT INTO stored_source SELECT 10000000, 'classic', bloom_agg(g::int8) FROM generate_series(1, 10000000) g;
SET bloomfilter.default_layout = 'blocked';
INSERT INTO stored_source SELECT 1000, 'blocked', bloom_agg(g::int8) FROM generate_series(1, 1000) g;
INSERT INTO stored_source SELECT 1000000, 'blocked', bloom_agg(g::int8) FROM generate_series(1, 1000000) g;
INSERT INTO stored_source SELECT 10000000, 'blocked', bloom_agg(g::int8) FROM generate_series(1, 10000000) g;
RESET bloomfilter.default_layout;
-- Copies of one filter, each with its own seed (bytes 16-23): every row is
-- another TOAST value of the same size and the same probe cost.
DO \$\$
DECLARE t record;
BEGIN
    FOR t IN SELECT * FROM (VALUES ('daily_c6', 1000000, 'classic', 200), ('daily_b6', 1000000, 'blocked', 200),
                                   ('daily_c7', 10000000, 'classic', 20), ('daily_b7', 10000000, 'blocked', 20),
                                   ('daily_c3', 1000, 'classic', 2000), ('daily_b3', 1000, 'blocked', 2000),
                                   ('daily_c4', 10000, 'classic', 2000)) v(tab, n, layout, copies) LOOP
        EXECUTE format('CREATE TABLE %I (day int, f bloom)', t.tab);
        EXECUTE format('ALTER TABLE %I ALTER COLUMN f SET STORAGE EXTERNAL', t.tab);
        EXECUTE format('INSERT INTO %I SELECT d, overlay(f::bytea placing int8send(d) from 17 for 8)::bloom
                        FROM stored_source, generate_series(1, %s) d WHERE n = %s AND layout = %L',
                       t.tab, t.copies, t.n, t.layout);
    END LOOP;
END \$\$;
VACUUM ANALYZE daily_c6, daily_b6, daily_c7, daily_b7, daily_c3, daily_b3, daily_c4;
SQL

psql -A -F ' | ' <<SQL
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE queries (ord serial, tab text, what text, query text);
-- every row probes another value at another place: nothing is cached between rows
INSERT INTO queries (tab, what, query)
-- (the slice read starts within the smallest filters' 2 KiB)
SELECT tab, what, format(query, tab, span)
FROM unnest(ARRAY['daily_c6', 'daily_b6', 'daily_c7', 'daily_b7', 'daily_c3', 'daily_b3', 'daily_c4'],
            ARRAY[1000000, 1000000, 1000000, 1000000, 2000, 2000, 16000]) WITH ORDINALITY t(tab, span, i),
     (VALUES (1, 'one 32-byte slice', 'SELECT count(*) FROM %1\$s WHERE substring(f::bytea from 33 + (day * 40961) %% %2\$s for 32) <> ''''::bytea'),
             (2, 'f @> v, in pieces', 'SELECT count(*) FROM %1\$s WHERE f @> (day * 7919)::int8'),
             (3, 'v <@ f, in pieces', 'SELECT count(*) FROM %1\$s WHERE (day * 7919 + 1)::int8 <@ f'),
             (4, 'f @> v, whole value', 'SELECT count(*) FROM %1\$s WHERE f::bytea::bloom @> (day * 7919)::int8'))
         q(ord, what, query)
ORDER BY t.i, q.ord;
-- Runs: each filter probed by 200 values in a row (20 filters of 10^6,
-- classic), what a join of a few stored filters against many keys does: the
-- call site reads the first probes of a filter in pieces, then reads it
-- whole once (rent or buy).  Against reading every probe in pieces, and reading every probe whole.
INSERT INTO queries (tab, what, query) VALUES
  ('daily_c6', 'runs of 200: 1 slice read a probe', 'SELECT count(*) FROM (SELECT * FROM daily_c6 WHERE day <= 20 ORDER BY day OFFSET 0) d CROSS JOIN LATERAL (SELECT substring(d.f::bytea from 33 + (g * 40961) % 1000000 for 32) AS s FROM generate_series(1, 200) g OFFSET 0) x WHERE x.s <> ''''::bytea'),
  ('daily_c6', 'runs of 200: f @> v', 'SELECT count(*) FROM (SELECT * FROM daily_c6 WHERE day <= 20 ORDER BY day OFFSET 0) d CROSS JOIN LATERAL (SELECT d.f @> (g * 7919)::int8 AS hit FROM generate_series(1, 200) g OFFSET 0) x WHERE x.hit'),
  ('daily_c6', 'runs of 200: f @> v, whole value each probe', 'SELECT count(*) FROM (SELECT * FROM daily_c6 WHERE day <= 20 ORDER BY day OFFSET 0) d CROSS JOIN LATERAL (SELECT d.f::bytea::bloom @> (g * 7919)::int8 AS hit FROM generate_series(1, 200) g OFFSET 0) x WHERE x.hit');
-- warm the cache: every filter read once
SELECT count(*) FROM daily_c6 WHERE octet_length(f::bytea) > 0 \\g /dev/null
SELECT count(*) FROM daily_b6 WHERE octet_length(f::bytea) > 0 \\g /dev/null
SELECT count(*) FROM daily_c7 WHERE octet_length(f::bytea) > 0 \\g /dev/null
SELECT count(*) FROM daily_b7 WHERE octet_length(f::bytea) > 0 \\g /dev/null
SELECT count(*) FROM daily_c3 WHERE octet_length(f::bytea) > 0 \\g /dev/null
SELECT count(*) FROM daily_b3 WHERE octet_length(f::bytea) > 0 \\g /dev/null
SELECT count(*) FROM daily_c4 WHERE octet_length(f::bytea) > 0 \\g /dev/null
CREATE TEMP TABLE timings (ord int, round int, us_per_row float8);
DO \$\$
DECLARE
    q record;
    started timestamptz;
    nrows bigint;
BEGIN
    FOR r IN 1..$RUNS LOOP
        FOR q IN SELECT * FROM queries ORDER BY ord LOOP
            IF q.what LIKE 'runs of 200%' THEN
                nrows := 20 * 200;
            ELSE
                EXECUTE format('SELECT count(*) FROM %s', q.tab) INTO nrows;
            END IF;
            started := clock_timestamp();
            EXECUTE q.query;
            INSERT INTO timings VALUES (q.ord, r, extract(epoch FROM clock_timestamp() - started) * 1e6 / nrows);
        END LOOP;
    END LOOP;
END \$\$;
CREATE TEMP TABLE results AS
SELECT q.ord, q.tab, q.what, percentile_disc(0.5) WITHIN GROUP (ORDER BY t.us_per_row) AS us
FROM queries q JOIN timings t USING (ord) GROUP BY q.ord, q.tab, q.what;
SELECT CASE WHEN r.what LIKE 'runs of 200%' THEN '20 x 10^6, classic, 200 probes each'
            ELSE CASE r.tab WHEN 'daily_c6' THEN '200 x 10^6, classic' WHEN 'daily_b6' THEN '200 x 10^6, blocked'
                  WHEN 'daily_c7' THEN '20 x 10^7, classic' WHEN 'daily_b7' THEN '20 x 10^7, blocked'
                  WHEN 'daily_c3' THEN '2000 x 10^3, classic (read whole)'
                  WHEN 'daily_b3' THEN '2000 x 10^3, blocked (read whole)'
                  ELSE '2000 x 10^4, classic (header, then whole)' END END AS "filters",
       r.what AS "per row (probe)", round(r.us::numeric, 1) AS "median us/row",
       CASE WHEN r.what = b.what THEN 'baseline'
            ELSE round((r.us / b.us)::numeric, 1) || 'x' END AS "/ slice read"
FROM results r JOIN results b ON b.tab = r.tab
     AND b.what = CASE WHEN r.what LIKE 'runs of 200%' THEN 'runs of 200: 1 slice read a probe'
                       ELSE 'one 32-byte slice' END
ORDER BY r.ord;
SELECT 'filter sizes: ' || string_agg(layout || ' ' || n || ' -> ' || pg_size_pretty(octet_length(f::bytea)::bigint), ', ' ORDER BY layout, n)
FROM stored_source;
SQL
psql -c 'DROP TABLE stored_source, daily_c6, daily_b6, daily_c7, daily_b7, daily_c3, daily_b3, daily_c4'
