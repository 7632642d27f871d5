#!/usr/bin/env bash
# scope: each major
# The blocked layout against a real Parquet writer: DuckDB (node bindings from
# the npm registry, pinned in tests/parquet/package.json) writes a file with
# split-block Bloom filters; both extensions must rebuild those bitsets byte
# for byte and answer as DuckDB's own probe (tests/parquet/check_interop.py).
# Ends with "parquet: N passed, M failed".
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin parquet
tools/install-deps.sh --quiet parquet
make --no-print-directory sqlite >"$TL_OUT/sqlite-build.log" 2>&1 || { cat "$TL_OUT/sqlite-build.log"; fail "SQLite build"; tl_end; }
pg_use

# DuckDB once per clone; no lock file is kept: the version is pinned exactly
# in package.json.
work=build/parquet
mkdir -p "$work"
# Two majors' suites may run at once: one installs, the other waits.
exec 8>"$work/.lock"
flock 8
cp tests/parquet/package.json tests/parquet/write_parquet.mjs "$work"/
if ! (cd "$work" && npm install --no-package-lock --no-audit --no-fund --loglevel=error) >"$TL_OUT/npm.log" 2>&1; then
    cat "$TL_OUT/npm.log"
    fail "npm install of the pinned DuckDB"
    tl_end
fi
flock -u 8
node "$work"/write_parquet.mjs "$TL_OUT"/values.parquet > "$TL_OUT"/filters.json
. tools/pgclusters.sh
pgc_run -- /usr/bin/python3 tests/parquet/check_interop.py "$TL_OUT"/filters.json build/bloomfilter
