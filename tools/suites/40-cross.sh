#!/usr/bin/env bash
# scope: each major
# Cross-engine: filters built in PostgreSQL (of the major under test) read in
# SQLite and the reverse, with real data through both engines
# (tools/cross_engine.py).  Ends with "cross: N passed, M failed".
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin cross
make --no-print-directory sqlite >"$TL_OUT/sqlite-build.log" 2>&1 || { cat "$TL_OUT/sqlite-build.log"; fail "SQLite build"; tl_end; }
pg_use
. tools/pgclusters.sh
# The checks print their own lines and closing line.
pgc_run -- /usr/bin/python3 tools/cross_engine.py build/bloomfilter
