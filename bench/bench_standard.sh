#!/usr/bin/env bash
# make bench-tpch and make bench-tpcds: the runtime filters on queries derived
# from TPC-H or TPC-DS (bench/bench_standard.py), in one throwaway server of
# PostgreSQL PG (default 17) with this tree's extension installed:
#
#   [PG=17] [SF=1] [RUNS=3] [MIN_SECONDS=6] [CONFIRM_RUNS=4] [TIMEOUT=s] [QUERIES=Q3,Q5] \
#       bench/bench_standard.sh tpch|tpcds
#
# SF: the scale factor (TPC-DS: whole numbers only); the data is made once
# per SF in a cache outside the clone (bench/bench_kits.sh).  TIMEOUT: the
# seconds one statement may run (default 300).  MIN_SECONDS: a query whose
# RUNS took less runs again, on and off, up to 15 times each.  CONFIRM_RUNS: a
# query with a filter whose on/off ratio is past 1.05 either way runs that many
# more times each (within 120 s).  The table goes to
# build/bench/WORKLOAD-sfSF-pgMAJOR.md (or BENCH_OUT), the raw figures beside
# it (.json); bench/bench_standard.py --merge makes one table of several runs.
# Server settings for a machine of 24 GiB and 2 cores: BENCH_PG_SETTINGS.
set -u
workload=${1:-}
case $workload in
    tpch|tpcds) ;;
    *) echo "usage: bench/bench_standard.sh tpch|tpcds" >&2; exit 2 ;;
esac
export PG=${PG:-17}
. "$(dirname "$0")/../tools/testlib.sh"
tl_begin "bench-$workload"
pg_use
sf=${SF:-1}
kitdir=$(bench/bench_kits.sh "$workload" "$sf") || exit 1
. tools/pgclusters.sh
# shared_buffers holds the SF 1 tables and indexes; work_mem keeps the SF 1
# hash joins in one batch mostly; JIT off: its compile time would depend on
# the plan's cost, on or off, not on the filters.
read -r -a settings <<<"${BENCH_PG_SETTINGS:-shared_buffers=4GB work_mem=64MB maintenance_work_mem=1GB effective_cache_size=16GB max_wal_size=8GB jit=off}"
echo "bench-$workload: PostgreSQL $("$PG_CONFIG" --version), scale factor $sf, server settings: ${settings[*]}"
pgc_run "${settings[@]}" -- /usr/bin/python3 bench/bench_standard.py "$workload" "$kitdir" --sf "$sf" \
    --runs "${RUNS:-3}" --min-seconds "${MIN_SECONDS:-6}" \
    --confirm-runs "${CONFIRM_RUNS:-4}" --timeout "${TIMEOUT:-300}" --queries "${QUERIES:-}" \
    --out "${BENCH_OUT:-build/bench/$workload-sf$sf-pg$PG.md}"
