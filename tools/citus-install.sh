#!/usr/bin/env bash
# Citus from a source tarball beside the project (../shared/citus/, see its
# README.md), built once per Citus version and PostgreSQL major in the
# server cache (tools/postgres.sh --cache, beside the servers), then
# installed into the server whose pg_config is PG_CONFIG (the suite's
# private copy).
#   PG_CONFIG=... tools/citus-install.sh TARBALL
# Exit status 0 when Citus is installed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$1
: "${PG_CONFIG:?the server to install into}"
major=$("$PG_CONFIG" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
version=$(basename "$tarball" .tar.gz)
build=$(tools/postgres.sh --cache)/citus/$version-pg$major
# Configured against the cached server's pg_config: paths that outlive any
# copy of it (make's dependency files name the headers).
cache_pg_config=$(tools/postgres.sh "$major" | tail -n 1)/pg_config

mkdir -p "$(dirname "$build")"
exec 9>"$build.lock"
flock 9
if [ ! -f "$build/built" ]; then
    echo "citus-install: building $version for PostgreSQL $major (1-3 minutes, once per machine)"
    tools/install-deps.sh --quiet citus
    rm -rf "$build"
    mkdir -p "$build"
    tar -xzf "$tarball" -C "$build" --strip-components=1
    # PostgreSQL 15.20's commands/dbcommands.h declares have_createdb_privilege();
    # Citus 13.2.2 defines a static function of that name for PostgreSQL < 16.
    # Rename Citus's copy with a macro placed before its definition, so both
    # orders of inclusion compile (a no-op when the header has no such copy).
    compat=$build/src/include/pg_version_compat.h
    line=$(grep -n '^have_createdb_privilege(void)' "$compat" | cut -d: -f1 || true)
    if [ -n "$line" ]; then
        sed -i "$((line - 1))i #define have_createdb_privilege citus_have_createdb_privilege" "$compat"
    fi
    # libcurl: PostgreSQL 18's pg_config.h (Debian builds it with libcurl)
    # defines HAVE_LIBCURL, so Citus must find curl's headers either way.
    (cd "$build" && ./configure PG_CONFIG="$cache_pg_config") >"$build/configure.log" 2>&1 &&
        make -C "$build" -j"$(nproc)" >"$build/make.log" 2>&1 ||
        { tail -n 40 "$build"/*.log; exit 1; }
    touch "$build/built"
fi
make -C "$build" install PG_CONFIG="$PG_CONFIG" >"$build/install.log" 2>&1 || { tail -n 40 "$build/install.log"; exit 1; }
echo "citus-install: $version installed into PostgreSQL $major ($("$PG_CONFIG" --pkglibdir))"
