#!/usr/bin/env bash
# Cross-engine: filters built in PostgreSQL read in SQLite and the reverse,
# with real data through both engines.
set -eu
cd "$(dirname "$0")/../.."
# One PostgreSQL installation per machine: runs from several clones of the
# project (make install, then a cluster) take turns instead of overwriting
# each other's installed module.
[ -n "${BLOOM_PG_LOCKED:-}" ] || BLOOM_PG_LOCKED=1 exec flock /tmp/bloomfilter-pg.lock "$0" "$@"
make --no-print-directory sqlite >/dev/null
make --no-print-directory >/dev/null
make --no-print-directory install >/dev/null
# -t: a private cluster directory, so it never collides with another
# throwaway cluster of the machine (the default name is shared).
pg_virtualenv -t -v 15 /usr/bin/python3 tools/cross_engine.py build/bloomfilter
