#!/usr/bin/env bash
# `make bench-pg` and its parts: the given PostgreSQL benchmark scripts in one
# throwaway server of the major PG (default: the first of pg/majors), the
# extension installed from this tree and postgresql-hll beside it (the
# baseline of bench_pg.sh; Debian has it for every major it has).
#   [PG=MAJOR] bench/run_pg.sh SCRIPT...
set -u
. "$(dirname "$0")/../tools/testlib.sh"
tl_begin bench-pg
major=$(pg_major)
pg_use
if ! tools/postgres.sh "$major" --unpack "postgresql-$major-hll" "${PG_BIN%/usr/lib/postgresql/$major/bin}"; then
    echo "bench-pg: no postgresql-$major-hll for PostgreSQL $major (the source-built 16 has none): PG=15, 17 or 18" >&2
    exit 1
fi
. tools/pgclusters.sh
echo "bench-pg: PostgreSQL $("$PG_CONFIG" --version), one throwaway server"
pgc_run -- sh -c 'for script in "$@"; do "$script" || exit; done' bench "$@"
