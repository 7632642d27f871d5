#!/usr/bin/env bash
# scope: once
# The PostgreSQL examples of README.md and docs/*.md (tools/doctest.py
# --engines pg: SQL on PostgreSQL, and the shell and Python blocks that need
# a server) on a server of the major PG (default: the first of pg/majors).
# Once, not per major: pg_regress checks on every major the behaviour the
# examples show (docs/ARCHITECTURE.md, "Tests").
# Ends with "docs-pg: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin docs-pg
tools/install-deps.sh --quiet core sqlite python
make --no-print-directory sqlite >"$TL_OUT/build.log" 2>&1 || { cat "$TL_OUT/build.log"; fail "SQLite build"; tl_end; }
pg_use
. tools/pgclusters.sh
# The blocks that need no engine run once, in 66-docs; the self-test's
# PostgreSQL part here.
pgc_run -- /usr/bin/python3 tools/doctest.py --engines pg --engine-blocks-only \
    --selftest tools/doctest/selftest-broken.md >"$TL_OUT/doctest.log" 2>&1
cat "$TL_OUT/doctest.log"
line=$(grep -E '^docs: [0-9]+ passed, [0-9]+ failed' "$TL_OUT/doctest.log" | tail -n 1)
TL_PASSED=$(echo "$line" | sed -nE 's/^docs: ([0-9]+) passed.*/\1/p')
TL_FAILED=$(echo "$line" | sed -nE 's/.*passed, ([0-9]+) failed.*/\1/p')
[ -n "$TL_PASSED" ] || { TL_PASSED=0; fail "tools/doctest.py did not finish"; }
tl_end
