#!/usr/bin/env bash
# The blocked layout against a real Parquet writer: DuckDB (node bindings from
# the npm registry, pinned in tests/parquet/package.json) writes a file with
# split-block Bloom filters; both extensions must rebuild those bitsets byte
# for byte and answer as DuckDB's own probe.
set -eu
cd "$(dirname "$0")/../.."
# One PostgreSQL installation per machine: runs from several clones of the
# project (make install, then a cluster) take turns instead of overwriting
# each other's installed module.
[ -n "${BLOOM_PG_LOCKED:-}" ] || BLOOM_PG_LOCKED=1 exec flock /tmp/bloomfilter-pg.lock "$0" "$@"
tools/install-deps.sh --quiet parquet
make --no-print-directory sqlite >/dev/null
make --no-print-directory >/dev/null
make --no-print-directory install >/dev/null

work=build/parquet
mkdir -p "$work"
cp tests/parquet/package.json tests/parquet/write_parquet.mjs "$work"/
# No lock file is kept: the version is pinned exactly in package.json.
(cd "$work" && npm install --no-package-lock --no-audit --no-fund --loglevel=error >/dev/null)
node "$work"/write_parquet.mjs "$work"/values.parquet > "$work"/filters.json
pg_virtualenv -t -v 15 /usr/bin/python3 tests/parquet/check_interop.py "$work"/filters.json build/bloomfilter
