#!/usr/bin/env bash
# An index over a column of filters (make bench-pg-bitslice, part of make
# bench-pg): run by bench/run_pg.sh in a throwaway server.  Tables of 10^5 and
# 10^6 stored filters, each of 10 to 1,000 values (bloom_agg, self-sized: 128
# to 16,384 bits), with a bloom_bitslice index:
#
#   probe   20 values, SELECT count(*) ... WHERE f @> v, through the index
#           (enable_seqscan off; the plan the planner picks by itself is
#           printed too) against the sequential scan with piecewise probes
#           (enable_bitmapscan off), the same counts asserted;
#   build   CREATE INDEX against a bloom_union_agg(f) over the same column
#           (both read every filter once);
#   size    the index against the filters it indexes (sum of their bytes)
#           and the table (heap and TOAST).
#
# Times are the median over BENCH_BITSLICE_RUNS rounds (default 3); each
# round runs every measurement in turn, so a burst of load elsewhere on the
# machine lands on one round of each.  BENCH_BITSLICE_SIZES (default
# "100000 1000000") picks the tables.
set -eu
RUNS=${BENCH_BITSLICE_RUNS:-3}
SIZES=${BENCH_BITSLICE_SIZES:-"100000 1000000"}
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }

psql -c 'CREATE EXTENSION IF NOT EXISTS bloomfilter'
for n in $SIZES; do
    t=filters_$n
    psql <<SQL
DROP TABLE IF EXISTS $t;
CREATE TABLE $t (id int PRIMARY KEY, f bloom);
-- row g holds 10 to 1,000 values (g + 7x) mod 10^6: a value is in ~70 rows per 10^5
INSERT INTO $t
SELECT g, (SELECT bloom_agg((g + x * 7) % 1000000) FROM generate_series(1, 10 + (hashint4(g) & 1023) % 991) x)
FROM generate_series(1, $n) g;
VACUUM ANALYZE $t;
CREATE INDEX ${t}_f ON $t USING bloom_bitslice (f);
ANALYZE $t;
SQL
    psql -A -F ' | ' <<SQL
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE probes AS SELECT (g * 48271) % 1000000 AS v FROM generate_series(1, 20) g;
CREATE TEMP TABLE timings (what text, round int, ms float8);
CREATE TEMP TABLE answers (v int, through_index bigint, scanned bigint);
-- the plan the planner picks by itself
EXPLAIN (COSTS OFF) SELECT count(*) FROM $t WHERE f @> 4242;
-- warm the cache: every filter read once
SELECT count(*) FROM $t WHERE octet_length(f::bytea) > 0 \\g /dev/null
DO \$\$
DECLARE
    started timestamptz;
    p record;
    c bigint;
BEGIN
    FOR r IN 1..$RUNS LOOP
        -- build, against bloom_union_agg over the same filters
        started := clock_timestamp();
        PERFORM bloom_union_agg(f) FROM $t;
        INSERT INTO timings VALUES ('bloom_union_agg(f)', r, extract(epoch FROM clock_timestamp() - started) * 1e3);
        DROP INDEX ${t}_f;
        started := clock_timestamp();
        CREATE INDEX ${t}_f ON $t USING bloom_bitslice (f);
        INSERT INTO timings VALUES ('CREATE INDEX', r, extract(epoch FROM clock_timestamp() - started) * 1e3);
        -- 20 probes through the index
        PERFORM set_config('enable_seqscan', 'off', true);
        started := clock_timestamp();
        FOR p IN SELECT v FROM probes LOOP
            EXECUTE 'SELECT count(*) FROM $t WHERE f @> \$1' INTO c USING p.v;
            IF r = 1 THEN
                INSERT INTO answers VALUES (p.v, c, NULL);
            END IF;
        END LOOP;
        INSERT INTO timings VALUES ('probe, index', r, extract(epoch FROM clock_timestamp() - started) * 1e3 / 20);
        PERFORM set_config('enable_seqscan', 'on', true);
        -- the same probes by the sequential scan
        PERFORM set_config('enable_bitmapscan', 'off', true);
        PERFORM set_config('enable_indexscan', 'off', true);
        started := clock_timestamp();
        FOR p IN SELECT v FROM probes LOOP
            EXECUTE 'SELECT count(*) FROM $t WHERE f @> \$1' INTO c USING p.v;
            IF r = 1 THEN
                UPDATE answers SET scanned = c WHERE v = p.v;
            END IF;
        END LOOP;
        INSERT INTO timings VALUES ('probe, seq scan', r, extract(epoch FROM clock_timestamp() - started) * 1e3 / 20);
        PERFORM set_config('enable_bitmapscan', 'on', true);
        PERFORM set_config('enable_indexscan', 'on', true);
    END LOOP;
END \$\$;
SELECT CASE WHEN count(*) FILTER (WHERE through_index IS DISTINCT FROM scanned) = 0
            THEN 'same answers: ' || count(*) || ' probes, ' || sum(scanned) || ' rows'
            ELSE 'DIFFERENT ANSWERS: ' || string_agg(v || ': ' || through_index || ' / ' || scanned, ', ') END
FROM answers;
CREATE TEMP TABLE m AS
SELECT what, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM timings GROUP BY what;
SELECT '$n filters' AS "table", what AS "measured", round(ms::numeric, 2) AS "median ms",
       CASE what WHEN 'probe, index' THEN round(((SELECT ms FROM m WHERE what = 'probe, seq scan') / ms)::numeric, 1) || 'x faster'
                 WHEN 'CREATE INDEX' THEN round((ms / (SELECT ms FROM m WHERE what = 'bloom_union_agg(f)'))::numeric, 2) || 'x bloom_union_agg'
                 ELSE 'baseline' END AS "ratio",
       CASE what WHEN 'probe, index' THEN CASE WHEN $n >= 1000000 THEN '>= 20x' ELSE '>= 10x' END
                 WHEN 'CREATE INDEX' THEN '<= 2x' ELSE '' END AS "goal"
FROM m ORDER BY CASE what WHEN 'probe, seq scan' THEN 1 WHEN 'probe, index' THEN 2
                          WHEN 'bloom_union_agg(f)' THEN 3 ELSE 4 END;
SELECT '$n filters' AS "table", pg_size_pretty(sum(octet_length(f::bytea))) AS "filters",
       pg_size_pretty(pg_relation_size('${t}_f')) AS "index",
       round(pg_relation_size('${t}_f') / sum(octet_length(f::bytea))::numeric, 3) || 'x' AS "index / filters",
       pg_size_pretty(pg_table_size('$t')) AS "table (heap, TOAST)", '<= 1x' AS "goal"
FROM $t;
SQL
    psql -c "DROP TABLE $t"
done
