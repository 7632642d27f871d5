#!/usr/bin/env bash
# Build and install Citus from the source tarball beside the project
# (../shared/citus/citus-*.tar.gz, see its README.md) into the machine's
# PostgreSQL 15, unless that same Citus version is installed already.
#   tools/citus-install.sh TARBALL
# The build happens in build/citus (kept between runs); `make install` must
# run under the PostgreSQL lock (/tmp/bloomfilter-pg.lock), which the caller
# holds.  Exit status 0 when Citus is installed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$1
pg_config=${PG_CONFIG:-pg_config}
# BLOOM_PG_DESTDIR: install into that private PostgreSQL tree instead
destdir=${BLOOM_PG_DESTDIR:-}
libdir=$destdir$("$pg_config" --pkglibdir)
sharedir=$destdir$("$pg_config" --sharedir)

src=build/citus/$(basename "$tarball" .tar.gz)
mkdir -p build/citus
if [ ! -f "$src/configure" ]; then
    tar -xzf "$tarball" -C build/citus
fi
wanted=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$src/src/backend/distributed/citus.control")
installed=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$sharedir/extension/citus.control" 2>/dev/null || true)
if [ -f "$libdir/citus.so" ] && [ "$installed" = "$wanted" ]; then
    echo "citus-install: Citus $wanted is installed already"
    exit 0
fi

echo "citus-install: building Citus $wanted (a few minutes, once per machine)"
tools/install-deps.sh --quiet citus
# PostgreSQL 15.20's commands/dbcommands.h declares have_createdb_privilege();
# Citus 13.2.2 defines a static function of that name for PostgreSQL < 16.
# Rename Citus's copy with a macro placed before its definition, so both
# orders of inclusion compile (a no-op when the header has no such copy).
compat=$src/src/include/pg_version_compat.h
if ! grep -q 'citus_have_createdb_privilege' "$compat"; then
    line=$(grep -n '^have_createdb_privilege(void)' "$compat" | cut -d: -f1 || true)
    if [ -n "$line" ]; then
        sed -i "$((line - 1))i #define have_createdb_privilege citus_have_createdb_privilege" "$compat"
    fi
fi
(
    cd "$src"
    [ -f config.status ] || ./configure --without-libcurl PG_CONFIG="$pg_config" > ../configure.log 2>&1
    make -j"$(nproc)" > ../make.log 2>&1
) || { tail -n 40 build/citus/*.log; exit 1; }
make -C "$src" install ${destdir:+DESTDIR=$destdir} > build/citus/install.log 2>&1 || { tail -n 40 build/citus/install.log; exit 1; }
echo "citus-install: installed Citus $wanted"
