#!/usr/bin/env bash
# scope: each major
# Runtime filters on and off give the same rows: random joins of facts
# (tables, and subqueries with LIMIT, OFFSET, DISTINCT ON, windows, GROUP
# BY, UNION) to dimensions, inner, outer, semi and anti, with keys of four
# types, NULLs and duplicates (tools/runtime_filter_diff.py), in eight modes:
# on one server, over postgres_fdw to a second, through index, index-only
# and bitmap heap scans, chains, snowflakes and equivalence classes with
# predicate transfer on and off, star joins whose filters are built
# first, small sets of keys looked up through the facts' indexes,
# partitions and inheritance children with random bounds, which a probe
# skips whole, and small probe sides read first to filter build sides whose
# rows each run a subquery.  Bounded and seeded: two seeds of its own on each major
# (MAJOR1 and MAJOR2: 151 and 152 on 15), 25 joins each in each mode, so
# that the five majors run 250 different joins a mode, not the same 100
# five times.
# A long run:
#   BLOOM_DIFF_SEEDS="1 2 3 4 5" BLOOM_DIFF_QUERIES=1000 SUITES=runtime-filter-diff make test
# Printed: per mode and seed, the joins and those that got each kind of
# filter; every difference in full, with its plan.
# Ends with "runtime-filter-diff: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin runtime-filter-diff
pg_use
. tools/pgclusters.sh
pgc_setup diff
pgc_start remote || { fail "start of the remote server"; tl_end; }
pgc_start local || { fail "start of the local server"; tl_end; }
seeds=${BLOOM_DIFF_SEEDS:-${PG}1 ${PG}2}
queries=${BLOOM_DIFF_QUERIES:-25}
/usr/bin/python3 tools/runtime_filter_diff.py "$(pgc_port local)" "$(pgc_port remote)" \
    "$(echo $seeds | tr ' ' ',')" "$queries" >"$TL_OUT/diff.log" 2>&1
rc=$?
grep -v -E '^(ok|FAILED) - ' "$TL_OUT/diff.log" | head -n 200
count_lines "$TL_OUT/diff.log"
counts=$(grep '^runtime-filter-diff-counts: ' "$TL_OUT/diff.log")
if [ -n "$counts" ]; then
    note "${counts#runtime-filter-diff-counts: } (seeds $seeds, $queries joins each, locally, over postgres_fdw, and transferred)"
else
    fail "the random joins ran to the end (see $TL_OUT/diff.log)"
fi
[ $rc -eq 0 ] || grep -q '^FAILED - ' "$TL_OUT/diff.log" || fail "runtime_filter_diff.py exited with $rc"
tl_end
