#!/usr/bin/env bash
# Scale out, part 1: bloom_agg distributed by Citus.
#
# 1. The contract, without Citus: tests/pg_fmgr calls every transition
#    function the way Citus does (fmgr_info for every row, no call
#    expression); the finished partial states must equal local bloom_agg
#    byte for byte.
# 2. Real Citus, built from ../shared/citus/citus-*.tar.gz (skipped with a
#    notice when the tarball is absent; built once per machine): a
#    coordinator and two workers on loopback ports; tests/citus/queries.sql
#    runs against a distributed, a reference and a local table and every
#    line must be the same; EXPLAIN must show the aggregate on the shards.
# Ends with "citus: N passed, M failed" and exits non-zero on any failure.
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
# make install and the servers use the machine's PostgreSQL: take turns.
# -o: the servers must not inherit the lock (a server left behind by a
# killed run would hold it for ever).
# (BLOOM_PG_DESTDIR: a private PostgreSQL tree instead, see tools/pgclusters.sh)
[ -n "${BLOOM_PG_LOCKED:-}${BLOOM_PG_DESTDIR:-}" ] || BLOOM_PG_LOCKED=1 exec flock -o /tmp/bloomfilter-pg.lock "$0" "$@"

mkdir -p build
passed=0
failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAILED: $*"; failed=$((failed + 1)); }
finish() {
    echo "citus: $passed passed, $failed failed${1:+ ($1)}"
    [ "$failed" -eq 0 ]
    exit
}

if ! tools/install-deps.sh --quiet pg; then
    fail "could not install the PostgreSQL build dependencies"
    finish
fi
if ! { make --no-print-directory all && make --no-print-directory install ${BLOOM_PG_DESTDIR:+DESTDIR=$BLOOM_PG_DESTDIR} &&
       make --no-print-directory -C tests/pg_fmgr all install ${BLOOM_PG_DESTDIR:+DESTDIR=$BLOOM_PG_DESTDIR}; } > build/citus-build.log 2>&1; then
    cat build/citus-build.log
    fail "build and install of bloomfilter and tests/pg_fmgr"
    finish
fi

# ---- 1. the contract ----
. tools/pgclusters.sh
pgc_setup citus
rm -f tests/pg_fmgr/regression.diffs
if pgc_start contract; then
    PGHOST=127.0.0.1 PGPORT=$(pgc_port contract) PGUSER=postgres \
        make --no-print-directory -C tests/pg_fmgr installcheck > build/citus-contract.log 2>&1
    cat build/citus-contract.log
    [ -f tests/pg_fmgr/regression.diffs ] && cat tests/pg_fmgr/regression.diffs
fi
if grep -qE '^test +fmgr_calls +\.\.\. ok' build/citus-contract.log 2>/dev/null; then
    ok "transition functions called as Citus calls them give the local filters"
else
    fail "tests/pg_fmgr fmgr_calls"
fi
pgc_stop_all
pgc_setup citus

# ---- 2. real Citus ----
# CITUS_TARBALL overrides the place (a clone that is not beside shared/).
tarball=${CITUS_TARBALL:-$(ls "$(cd "$root/.." && pwd)"/shared/citus/citus-*.tar.gz 2>/dev/null | tail -n 1)}
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
    echo "NOTICE: no Citus source at ../shared/citus/citus-*.tar.gz: the Citus cluster tests are SKIPPED"
    finish "Citus cluster tests skipped: no tarball"
fi
if ! tools/citus-install.sh "$tarball"; then
    fail "build and install of Citus from $tarball"
    finish
fi

for node in coord w1 w2; do
    if ! pgc_start "$node" "shared_preload_libraries='citus'" "max_connections=200"; then
        fail "start of the Citus node $node"
        finish
    fi
done
for node in coord w1 w2; do
    pgc_psql "$node" -c "CREATE EXTENSION citus" || { fail "CREATE EXTENSION citus on $node"; finish; }
done
if ! pgc_psql coord -At > /dev/null <<SQL
SELECT citus_set_coordinator_host('127.0.0.1', $(pgc_port coord));
SELECT citus_add_node('127.0.0.1', $(pgc_port w1));
SELECT citus_add_node('127.0.0.1', $(pgc_port w2));
SQL
then
    fail "Citus cluster setup"
    finish
fi
# CREATE EXTENSION on the coordinator propagates to the workers.
if pgc_psql coord -f tests/citus/setup.sql > build/citus-setup.log 2>&1; then
    ok "Citus cluster: coordinator and 2 workers, distributed, reference and local tables"
else
    cat build/citus-setup.log
    fail "tests/citus/setup.sql"
    finish
fi
pgc_psql w1 -At -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'" | grep -q . &&
    ok "bloomfilter created on the workers by the coordinator" ||
    fail "bloomfilter is not installed on worker w1"

for tbl in t_local t_dist t_ref; do
    pgc_psql coord -At -F '|' -v tbl="$tbl" -f tests/citus/queries.sql \
        > "build/citus-$tbl.out" 2> "build/citus-$tbl.err"
    echo "$?" > "build/citus-$tbl.rc"
done
expected_lines=$(grep -c "^SELECT '" tests/citus/queries.sql)
expected_lines=$((expected_lines + 10 + 10 - 2))   # two GROUP BY grp queries give 10 lines each
for tbl in t_local t_dist t_ref; do
    if [ "$(cat "build/citus-$tbl.rc")" -ne 0 ] || [ -s "build/citus-$tbl.err" ]; then
        cat "build/citus-$tbl.err"
        fail "queries on $tbl ran with errors"
    elif [ "$(wc -l < "build/citus-$tbl.out")" -ne "$expected_lines" ] ||
         grep -qE '^[^|]*\|\|' "build/citus-$tbl.out"; then
        fail "queries on $tbl: $(wc -l < "build/citus-$tbl.out") lines (want $expected_lines), or an empty result"
    else
        ok "queries on $tbl: $expected_lines results"
    fi
done
for tbl in t_dist t_ref; do
    if diff -u build/citus-t_local.out "build/citus-$tbl.out"; then
        ok "$tbl gives the bytes of the local table for all $expected_lines results"
    else
        fail "$tbl differs from the local table (diff above)"
    fi
done
# Filters built with 1.1's workaround for inet (its binary form) are the
# filter of the inet overload.
anyelement_local=$(pgc_psql coord -At -c "SELECT md5(bloom_agg(('10.0.' || (k % 200) || '.' || (k % 250))::inet)::bytea) FROM t_local")
send_dist=$(grep '^inet via send|' build/citus-t_dist.out | cut -d'|' -f2)
[ -n "$anyelement_local" ] && [ "$anyelement_local" = "$send_dist" ] &&
    ok "bloom_agg(inet_send(x)) on the shards (1.1's workaround) = bloom_agg(x) locally" ||
    fail "bloom_agg(inet_send(x)) on t_dist ($send_dist) differs from bloom_agg(x) locally ($anyelement_local)"

# Pushdown evidence.
explain() { pgc_psql coord -At -c "EXPLAIN (VERBOSE, COSTS OFF) $1"; }
explain "SELECT bloom_agg(t) FROM t_dist" > build/citus-explain-agg.txt
explain "SELECT grp, bloom_agg(i8, 5000, 0.001) FROM t_dist GROUP BY grp" > build/citus-explain-fixed.txt
explain "SELECT k, bloom_agg(u) FROM t_dist GROUP BY k" > build/citus-explain-groupk.txt
explain "SELECT count(*) FROM t_dist b WHERE bloom_contains((SELECT bloom_agg(k) FROM t_dist WHERE grp = 3), b.k)" \
    > build/citus-explain-join.txt
grep -m1 'worker_partial_agg(.*bloom_agg(text)' build/citus-explain-agg.txt &&
    grep -m1 'Output: coord_combine_agg(' build/citus-explain-agg.txt &&
    ok "bloom_agg(text) runs on the shards (worker_partial_agg), combined on the coordinator" ||
    { cat build/citus-explain-agg.txt; fail "EXPLAIN of bloom_agg(text) on t_dist shows no pushdown"; }
grep -m1 'worker_partial_agg(.*bloom_agg(bigint,bigint,double precision)' build/citus-explain-fixed.txt &&
    ok "bloom_agg(x, capacity, fpr) GROUP BY a non-distribution column runs on the shards" ||
    { cat build/citus-explain-fixed.txt; fail "EXPLAIN of the 3-argument form shows no pushdown"; }
grep -m1 -E 'Query: SELECT k, public.bloom_agg\(u\)' build/citus-explain-groupk.txt &&
    ok "GROUP BY the distribution column: the whole bloom_agg runs on the shards" ||
    { cat build/citus-explain-groupk.txt; fail "EXPLAIN of GROUP BY k shows no full pushdown"; }
grep -m1 'worker_partial_agg(.*bloom_agg(bigint)' build/citus-explain-join.txt &&
    grep -m1 'bloom_contains(' build/citus-explain-join.txt &&
    ok "Bloom join: the subplan's bloom_agg runs on the shards, the probe on the shards too" ||
    { cat build/citus-explain-join.txt; fail "EXPLAIN of the Bloom join shows no pushdown"; }

finish
