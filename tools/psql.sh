#!/usr/bin/env bash
# `make psql`: a PostgreSQL server of your own with the extension, and psql
# on it.  The first call gets the server (tools/postgres.sh), installs this
# tree's extension into it, makes a database `bloomfilter` with the
# extension and the tables the README's examples use
# (tools/doctest/fixture-pg.sql, the database the doc tests run every
# PostgreSQL example in, in order), starts the server on 127.0.0.1, prints
# the PG* variables a client connects with and opens psql; later calls
# reuse it.  The server keeps running after psql exits
# (connect other clients to the port printed); `make psql-stop` stops it.
#
#   [PG=MAJOR] tools/psql.sh [--stop]     (default: the newest released major)
#
# Nothing outside the cache of tools/postgres.sh is written: the data
# directory is <cache>/playground/MAJOR; the port is 5400 + MAJOR.  As root
# the server runs as the postgres user (PostgreSQL refuses root).
set -euo pipefail
cd "$(dirname "$0")/.."
# The newest major that is not a release candidate (pg/majors marks those).
major=${PG:-$(grep -E '^[0-9]+' pg/majors | grep -v 'release candidate' | tail -n 1 | grep -o '^[0-9]*')}
port=$((5400 + major))
bin=$(tools/postgres.sh "$major" | tail -n 1)
data=$(tools/postgres.sh --cache)/playground/$major

as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "${1:-}" = --stop ]; then
    if [ -f "$data/postmaster.pid" ]; then as_owner "$bin/pg_ctl" -D "$data" -m fast stop; else echo "psql.sh: no PostgreSQL $major playground is running"; fi
    exit 0
fi

mkdir -p build
make --no-print-directory PG_CONFIG="$bin/pg_config" install >build/psql-install.log 2>&1 ||
    { tail -n 30 build/psql-install.log; echo "psql.sh: make install for PostgreSQL $major failed (build/psql-install.log)"; exit 1; }
if [ ! -f "$data/PG_VERSION" ]; then
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    mkdir -p "$data"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$data"
    as_owner "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
    printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\n" "$port" "$data" |
        as_owner tee -a "$data/postgresql.conf" >/dev/null
fi
if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w start >/dev/null
    echo "psql.sh: PostgreSQL $major started on 127.0.0.1:$port (data: $data; stop: make psql-stop)"
fi
psql=("$bin/psql" -X -h 127.0.0.1 -p "$port" -U postgres)
if [ -z "$("${psql[@]}" -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'bloomfilter'")" ]; then
    "${psql[@]}" -q -d postgres -c "CREATE DATABASE bloomfilter"
    "${psql[@]}" -q -v ON_ERROR_STOP=1 -d bloomfilter -f tools/doctest/fixture-pg.sql >/dev/null
    echo "psql.sh: database bloomfilter: the extension and the README's example tables (tools/doctest/fixture-pg.sql)"
fi
# What another client needs (libpq reads these: psql, psycopg's connect(''), ...).
echo "psql.sh: connect from a client with: export PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=bloomfilter"
# A fresh build after a change: the server loads the new module in new sessions.
"${psql[@]}" -q -d bloomfilter -c "ALTER EXTENSION bloomfilter UPDATE" 2>/dev/null || true
exec "${psql[@]}" -d bloomfilter "$@"
