#!/usr/bin/env bash
# scope: each major
# Scale out, part 1: bloom_agg distributed by Citus, on the major under test.
#
# 1. The contract, without Citus: tests/pg_fmgr calls every transition
#    function the way Citus does (fmgr_info for every row, no call
#    expression); the finished partial states must equal local bloom_agg
#    byte for byte.
# 2. Real Citus, built from ../shared/citus/citus-*.tar.gz (13.2.2 for 15
#    and 16, 14.0.1 for 17 and 18; no release supports 19, so that part is
#    skipped there, and it is skipped with a notice when the tarball is
#    absent; built once per machine and major): a
#    coordinator and two workers on loopback ports; tests/citus/queries.sql
#    runs against a distributed, a reference and a local table and every
#    line must be the same; EXPLAIN must show the aggregate on the shards;
#    a union that saturates is refused as locally, from shards' states
#    that each are far from saturation.
# Ends with "citus: N passed, M failed[, K skipped]"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin citus
root=$TL_ROOT
major=$(pg_major)
pg_use
fmgr_build=build/pg/$major/pg_fmgr
mkdir -p "$fmgr_build"
if ! make --no-print-directory -C "$fmgr_build" -f "$root/tests/pg_fmgr/Makefile" PG_CONFIG="$PG_CONFIG" all install \
        >"$TL_OUT/fmgr-build.log" 2>&1; then
    cat "$TL_OUT/fmgr-build.log"
    fail "build and install of tests/pg_fmgr"
    tl_end
fi

# ---- 1. the contract ----
. tools/pgclusters.sh
pgc_setup citus
if pgc_start contract; then
    (pgc_env contract && make --no-print-directory -C "$fmgr_build" -f "$root/tests/pg_fmgr/Makefile" \
        PG_CONFIG="$PG_CONFIG" installcheck) >"$TL_OUT/contract.log" 2>&1
    [ -f "$fmgr_build/regression.diffs" ] && cat "$fmgr_build/regression.diffs"
fi
if grep -qE '^(test +fmgr_calls +\.\.\. ok|ok +1 +[-+] fmgr_calls)' "$TL_OUT/contract.log" 2>/dev/null; then
    pass "transition functions called as Citus calls them give the local filters"
else
    cat "$TL_OUT/contract.log"
    fail "tests/pg_fmgr fmgr_calls"
fi
pgc_stop_all
pgc_setup citus

# ---- 2. real Citus ----
# The newest Citus release that builds against the major's server
# (../shared/citus/README.md): 14.0.1 needs 16.5 or later on 16
# (systable_inplace_update_begin), and the 16 here is 16.2, so 16 runs
# 13.2.2 as 15 does.  CITUS_TARBALL overrides the choice.
case $major in
    15|16) citus=citus-13.2.2 ;;
    17|18) citus=citus-14.0.1 ;;
    *) citus= ;;
esac
if [ -z "$citus" ] && [ -z "${CITUS_TARBALL:-}" ]; then
    skip "Citus cluster tests on PostgreSQL $major: no Citus release supports $major yet (13.x: 15-17, 14.x: 16-18)"
    tl_end
fi
tarball=${CITUS_TARBALL:-$(cd "$root/.." && pwd)/shared/citus/$citus.tar.gz}
if [ ! -f "$tarball" ]; then
    skip "Citus cluster tests: no Citus source at $tarball"
    tl_end
fi
if ! tools/citus-install.sh "$tarball" >"$TL_OUT/citus-install.log" 2>&1; then
    cat "$TL_OUT/citus-install.log"
    fail "build and install of Citus from $tarball"
    tl_end
fi
note "$(tail -n 1 "$TL_OUT/citus-install.log")"

for node in coord w1 w2; do
    if ! pgc_start "$node" "shared_preload_libraries='citus'" "max_connections=200" "citus.enable_statistics_collection=off"; then
        fail "start of the Citus node $node"
        tl_end
    fi
done
for node in coord w1 w2; do
    pgc_psql "$node" -c "CREATE EXTENSION citus" || { fail "CREATE EXTENSION citus on $node"; tl_end; }
done
if ! pgc_psql coord -At > /dev/null <<SQL
SELECT citus_set_coordinator_host('127.0.0.1', $(pgc_port coord));
SELECT citus_add_node('127.0.0.1', $(pgc_port w1));
SELECT citus_add_node('127.0.0.1', $(pgc_port w2));
SQL
then
    fail "Citus cluster setup"
    tl_end
fi
# CREATE EXTENSION on the coordinator propagates to the workers.
if pgc_psql coord -f tests/citus/setup.sql > $TL_OUT/setup.log 2>&1; then
    pass "Citus cluster: coordinator and 2 workers, distributed, reference and local tables"
else
    cat $TL_OUT/setup.log
    fail "tests/citus/setup.sql"
    tl_end
fi
pgc_psql w1 -At -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'" | grep -q . &&
    pass "bloomfilter created on the workers by the coordinator" ||
    fail "bloomfilter is not installed on worker w1"

for tbl in t_local t_dist t_ref; do
    pgc_psql coord -At -F '|' -v tbl="$tbl" -f tests/citus/queries.sql \
        > "$TL_OUT/$tbl.out" 2> "$TL_OUT/$tbl.err"
    echo "$?" > "$TL_OUT/$tbl.rc"
done
expected_lines=$(grep -c "^SELECT '" tests/citus/queries.sql)
expected_lines=$((expected_lines + 10 + 10 - 2))   # two GROUP BY grp queries give 10 lines each
for tbl in t_local t_dist t_ref; do
    if [ "$(cat "$TL_OUT/$tbl.rc")" -ne 0 ] || [ -s "$TL_OUT/$tbl.err" ]; then
        cat "$TL_OUT/$tbl.err"
        fail "queries on $tbl ran with errors"
    elif [ "$(wc -l < "$TL_OUT/$tbl.out")" -ne "$expected_lines" ] ||
         grep -qE '^[^|]*\|\|' "$TL_OUT/$tbl.out"; then
        fail "queries on $tbl: $(wc -l < "$TL_OUT/$tbl.out") lines (want $expected_lines), or an empty result"
    else
        pass "queries on $tbl: $expected_lines results"
    fi
done
for tbl in t_dist t_ref; do
    if diff -u $TL_OUT/t_local.out "$TL_OUT/$tbl.out"; then
        pass "$tbl gives the bytes of the local table for all $expected_lines results"
    else
        fail "$tbl differs from the local table (diff above)"
    fi
done
# Filters built with 1.1's workaround for inet (its binary form) are the
# filter of the inet overload.
anyelement_local=$(pgc_psql coord -At -c "SELECT md5(overlay(bloom_agg(('10.0.' || (k % 200) || '.' || (k % 250))::inet)::bytea PLACING '\\x000000000000'::bytea FROM 11 FOR 6)) FROM t_local")
send_dist=$(grep '^inet via send|' $TL_OUT/t_dist.out | cut -d'|' -f2)
[ -n "$anyelement_local" ] && [ "$anyelement_local" = "$send_dist" ] &&
    pass "bloom_agg(inet_send(x)) on the shards (1.1's workaround) sets the bits of bloom_agg(x) locally" ||
    fail "bloom_agg(inet_send(x)) on t_dist ($send_dist) differs from bloom_agg(x) locally ($anyelement_local)"

# A union that saturates where none of its members was: refused (54000)
# through Citus as locally, though every shard's partial state is far from
# saturation (the coordinator's combine follows the transition's rule); a
# saturated member is allowed through Citus as locally.
shards=$(pgc_psql coord -At -F '|' -c "SELECT bool_and(result = 't'), count(*) FROM run_command_on_shards('sat_dist',
    \$\$SELECT coalesce((bloom_info(bloom_union_agg(f))).est_fpr < 0.1, true) FROM %s\$\$)")
sat_local=$(pgc_psql coord -At -c "SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat_local')")
sat_dist=$(pgc_psql coord -At -c "SELECT sqlstate_of('SELECT bloom_union_agg(f) FROM sat_dist')")
if [ "$sat_local" = "54000 bloom filter union is saturated" ] && [ "$sat_dist" = "$sat_local" ] &&
   [ "$shards" = "t|32" ]; then
    pass "a union of 101 filters that saturates is refused on sat_dist as locally ($sat_dist), each of the 32 shards' unions far from saturation"
else
    fail "a union that saturates: locally '$sat_local', on sat_dist '$sat_dist' (want 54000 both); every shard's union far from saturation|shards: '$shards' (want t|32)"
fi
member_local=$(pgc_psql coord -At -c "SELECT md5(bloom_union_agg(f)::bytea) || ' ' || ((bloom_info(bloom_union_agg(f))).est_fpr >= 0.5) FROM sat_member_local" 2>&1)
member_dist=$(pgc_psql coord -At -c "SELECT md5(bloom_union_agg(f)::bytea) || ' ' || ((bloom_info(bloom_union_agg(f))).est_fpr >= 0.5) FROM sat_member_dist" 2>&1)
[ "${member_local#* }" = true ] && [ "$member_dist" = "$member_local" ] &&
    pass "a union with a saturated member: the local filter on sat_member_dist" ||
    fail "a union with a saturated member: locally '$member_local', on sat_member_dist '$member_dist'"

# Pushdown evidence.
explain() { pgc_psql coord -At -c "EXPLAIN (VERBOSE, COSTS OFF) $1"; }
explain "SELECT bloom_agg(t) FROM t_dist" > $TL_OUT/explain-agg.txt
explain "SELECT grp, bloom_agg(i8, 5000, 0.001) FROM t_dist GROUP BY grp" > $TL_OUT/explain-fixed.txt
explain "SELECT k, bloom_agg(u) FROM t_dist GROUP BY k" > $TL_OUT/explain-groupk.txt
explain "SELECT count(*) FROM t_dist b WHERE bloom_contains((SELECT bloom_agg(k) FROM t_dist WHERE grp = 3), b.k)" \
    > $TL_OUT/explain-join.txt
explain "SELECT bloom_union_agg(f) FROM sat_dist" > $TL_OUT/explain-union.txt
grep -m1 -E 'worker_(binary_)?partial_agg\(.*bloom_agg\(text\)' $TL_OUT/explain-agg.txt &&
    grep -m1 -E 'Output: coord_(binary_)?combine_agg\(' $TL_OUT/explain-agg.txt &&
    pass "bloom_agg(text) runs on the shards (worker_partial_agg; Citus 14: worker_binary_partial_agg), combined on the coordinator" ||
    { cat $TL_OUT/explain-agg.txt; fail "EXPLAIN of bloom_agg(text) on t_dist shows no pushdown"; }
grep -m1 -E 'worker_(binary_)?partial_agg\(.*bloom_agg\(bigint,bigint,double precision\)' $TL_OUT/explain-fixed.txt &&
    pass "bloom_agg(x, capacity, fpr) GROUP BY a non-distribution column runs on the shards" ||
    { cat $TL_OUT/explain-fixed.txt; fail "EXPLAIN of the 3-argument form shows no pushdown"; }
grep -m1 -E 'worker_(binary_)?partial_agg\(.*bloom_union_agg\(public.bloom\)' $TL_OUT/explain-union.txt &&
    grep -m1 -E 'Output: coord_(binary_)?combine_agg\(' $TL_OUT/explain-union.txt &&
    pass "bloom_union_agg runs on the shards, its states combined on the coordinator" ||
    { cat $TL_OUT/explain-union.txt; fail "EXPLAIN of bloom_union_agg on sat_dist shows no pushdown"; }
grep -m1 -E 'Query: SELECT k, public.bloom_agg\(u\)' $TL_OUT/explain-groupk.txt &&
    pass "GROUP BY the distribution column: the whole bloom_agg runs on the shards" ||
    { cat $TL_OUT/explain-groupk.txt; fail "EXPLAIN of GROUP BY k shows no full pushdown"; }
grep -m1 -E 'worker_(binary_)?partial_agg\(.*bloom_agg\(bigint\)' $TL_OUT/explain-join.txt &&
    grep -m1 'bloom_contains(' $TL_OUT/explain-join.txt &&
    pass "Bloom join: the subplan's bloom_agg runs on the shards, the probe on the shards too" ||
    { cat $TL_OUT/explain-join.txt; fail "EXPLAIN of the Bloom join shows no pushdown"; }

tl_end
