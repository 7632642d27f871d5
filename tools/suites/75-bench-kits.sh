#!/usr/bin/env bash
# scope: once
# The harness of make bench-tpch (bench/bench_standard.sh), not timed: its
# comparisons of rows must see a difference, and the 22 queries derived from
# TPC-H at scale factor 0.01, run once on and once off on PostgreSQL PG
# (default 17), must give the same rows with runtime filters planned in some.
# Ends with "bench-kits: N passed, M failed".
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin bench-kits
if ! tools/install-deps.sh --quiet bench; then
    fail "the dependencies of the benchmarks (tools/install-deps.sh bench)"
    tl_end
fi
/usr/bin/python3 bench/bench_standard.py --selftest >"$TL_OUT/selftest.log" 2>&1
count_lines "$TL_OUT/selftest.log"
table=build/bench/tpch-sf0.01-pg${PG:-17}.md
rm -f "$table"
if SF=0.01 RUNS=1 MIN_SECONDS=0 TIMEOUT=120 bench/bench_standard.sh tpch >"$TL_OUT/tpch.log" 2>&1; then
    pass "TPC-H-derived SF 0.01: the same rows on and off"
else
    tail -n 30 "$TL_OUT/tpch.log"
    fail "TPC-H-derived SF 0.01: the same rows on and off (bench/bench_standard.sh tpch)"
fi
check "TPC-H-derived SF 0.01: 22 of 22 finished" grep -q '^- 22 of 22 queries finished' "$table"
# a run without a single filter would compare a plan with itself
check "TPC-H-derived SF 0.01: runtime filters planned, rows removed" \
    /usr/bin/python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"]
sys.exit(not any(q.get("filters", {}).get("removed", 0) > 0 for q in r))' "${table%.md}.json"
tl_end
