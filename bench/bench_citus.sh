#!/usr/bin/env bash
# Citus benchmark (make bench-citus): bloom_agg on a table distributed over
# two workers (32 shards) against the same query on a local table of the
# coordinator, same rows, same machine; median of 5 runs, in rounds, each
# the client's time of the whole statement (psql \timing).  Also
# the bytes of the partial states the shards send (their text form).
# Needs the Citus source beside the project (see tools/suites/70-citus.sh).
#   ROWS (default 2000000) rows, every k distinct.
#   PG (default 15): the PostgreSQL major; Citus 13.2.2 for 15 and 16, 14.0.1 for 17 and 18.
set -eu
. "$(dirname "$0")/../tools/testlib.sh"
tl_begin bench-citus
set -e
ROWS=${BENCH_ROWS:-2000000}
RUNS=${BENCH_RUNS:-5}
case $(pg_major) in 15|16) citus=citus-13.2.2 ;; 17|18) citus=citus-14.0.1 ;; *) citus=none ;; esac
tarball=${CITUS_TARBALL:-$(cd .. && pwd)/shared/citus/$citus.tar.gz}
[ -f "$tarball" ] || { echo "bench-citus: no Citus source for PostgreSQL $(pg_major) at $tarball: skipped"; exit 0; }
pg_use
tools/citus-install.sh "$tarball" > /dev/null
. tools/pgclusters.sh
pgc_setup bench-citus
for node in coord w1 w2; do pgc_start "$node" "shared_preload_libraries='citus'" "max_connections=200" "citus.enable_statistics_collection=off"; done
for node in coord w1 w2; do pgc_psql "$node" -c "CREATE EXTENSION citus"; done
pgc_psql coord -At > /dev/null <<SQL
SELECT citus_set_coordinator_host('127.0.0.1', $(pgc_port coord));
SELECT citus_add_node('127.0.0.1', $(pgc_port w1));
SELECT citus_add_node('127.0.0.1', $(pgc_port w2));
CREATE EXTENSION bloomfilter;
CREATE TABLE t_local AS SELECT g::int8 AS k, g % 10 AS grp, 'key ' || g AS t FROM generate_series(1, $ROWS) g;
CREATE TABLE t_dist (LIKE t_local);
SELECT create_distributed_table('t_dist', 'k');
INSERT INTO t_dist SELECT * FROM t_local;
VACUUM ANALYZE t_local;
VACUUM ANALYZE t_dist;
SQL

echo "## Citus: bloom_agg over $ROWS distinct values, 2 workers, 32 shards, against a local table"
echo
echo "| query | local ms | distributed ms | distributed / local | same bytes |"
echo "|---|---:|---:|---:|---|"
for q in "bloom_agg(k)" "bloom_agg(t)" "bloom_agg(k, $ROWS, 0.01)"; do
    for tbl in t_local t_dist; do
        pgc_psql coord -At -c "SELECT md5($q::bytea) FROM $tbl" > "build/bench-citus-$tbl.md5"
    done
    same=$(cmp -s build/bench-citus-t_local.md5 build/bench-citus-t_dist.md5 && echo yes || echo NO)
    times=$(for r in $(seq "$RUNS"); do
        for tbl in t_local t_dist; do
            # client-side time of the whole statement, result discarded
            ms=$(printf '\\timing on\nSELECT %s FROM %s \\g /dev/null\n' "$q" "$tbl" | pgc_psql coord -At |
                sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
            echo "$tbl $ms"
        done
    done)
    local_ms=$(echo "$times" | awk '$1=="t_local"{print $2}' | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
    dist_ms=$(echo "$times" | awk '$1=="t_dist"{print $2}' | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
    printf '| %s | %.0f | %.0f | %.2fx | %s |\n' "SELECT $q" "$local_ms" "$dist_ms" \
        "$(python3 -c "print($dist_ms / $local_ms)")" "$same"
done
echo
# What the shards send: the text of each shard's partial state, as Citus
# computes it (worker_partial_agg), against 1.0's hex of raw hashes.
pgc_psql coord -At -F ' ' -c "
SELECT sum(result::int8) FROM run_command_on_shards('t_dist',
  \$\$SELECT length(worker_partial_agg('public.bloom_agg(bigint)'::regprocedure, k)::text) FROM %s\$\$)" \
    > build/bench-citus-state.txt
state_chars=$(cat build/bench-citus-state.txt)
printf 'partial states of bloom_agg(k), 32 shards: %s characters of text for %s distinct values: %.2f a value (1.0: %.2f)\n' \
    "$state_chars" "$ROWS" "$(python3 -c "print($state_chars / $ROWS)")" "$(python3 -c "print((2 * (32 * 32 + 8 * $ROWS) + 2 * 32) / $ROWS)")"
