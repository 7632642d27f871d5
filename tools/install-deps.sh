#!/usr/bin/env bash
# Install the Debian 12 packages a part of bloomfilter needs, if missing.
#   tools/install-deps.sh [--quiet] [core|sqlite|postgres|pg|parquet|bench|citus|deb|python|all]...   (default: all)
# Needs root (or sudo) only when something is missing.
set -euo pipefail

quiet=
if [ "${1:-}" = --quiet ]; then quiet=1; shift; fi
[ $# -gt 0 ] || set -- all

# libclang-rt-14-dev: clang's sanitizer and libFuzzer runtimes (only
# recommended by clang, and recommends are not installed here).
core="gcc clang libclang-rt-14-dev make libc6-dev libxxhash-dev valgrind"
sqlite="$core libsqlite3-dev sqlite3 python3"
# tools/postgres.sh: unpacks Debian's server packages (patchelf points their
# binaries at the tree's own libraries) or builds one from source.
postgres="gcc make libc6-dev patchelf bison flex perl zlib1g-dev python3"
# PostgreSQL suites: servers of every major come from tools/postgres.sh (no
# server is installed on the machine); psql's client library for Python.
pg="$core $postgres libpq5"
# make bench-tpch, bench-tpcds: the kits' generators (flex, yacc) and psycopg.
bench="$sqlite $pg flex bison python3-psycopg"
# Citus is built from source (../shared/citus, tools/suites/70-citus.sh);
# these are its build dependencies on Debian 12.
citus="$pg build-essential autoconf flex bison libssl-dev libkrb5-dev liblz4-dev libzstd-dev libselinux1-dev libxslt1-dev libpam0g-dev libicu-dev libcurl4-openssl-dev"
# Debian packages: debhelper, pg_buildext (postgresql-server-dev-all, no
# server), lintian.
deb="$sqlite $pg debhelper postgresql-server-dev-all lintian fakeroot"
# Node.js runs DuckDB, the Parquet writer of the interop test; a machine that
# has node and npm already (outside dpkg) needs nothing.
parquet="$sqlite $pg"
command -v node >/dev/null && command -v npm >/dev/null || parquet="$parquet nodejs npm"
# The Python package (python/): built offline by pip in a venv that sees
# Debian's setuptools and psycopg modules (venv --system-site-packages).
python="$sqlite $pg python3-venv python3-pip python3-setuptools python3-wheel python3-psycopg2 python3-psycopg"

wanted=
for part in "$@"; do
    case $part in
        core) wanted="$wanted $core" ;;
        sqlite) wanted="$wanted $sqlite" ;;
        postgres) wanted="$wanted $postgres" ;;
        pg) wanted="$wanted $pg" ;;
        parquet) wanted="$wanted $parquet" ;;
        bench) wanted="$wanted $bench" ;;
        citus) wanted="$wanted $citus" ;;
        deb) wanted="$wanted $deb" ;;
        python) wanted="$wanted $python" ;;
        all) wanted="$wanted $parquet $deb $python" ;;
        *) echo "install-deps: unknown part '$part'" >&2; exit 2 ;;
    esac
done

missing_now() {
    missing=
    for pkg in $(echo "$wanted" | tr ' ' '\n' | sort -u); do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $pkg"
    done
}
missing_now
[ -n "$missing" ] || { [ -n "$quiet" ] || echo "install-deps: all present"; exit 0; }
# Two suites (two majors under test) may ask at once: one installs, the
# other waits, then finds what is still missing.
exec 9>"${TMPDIR:-/tmp}/bloomfilter-install-deps.lock"
flock 9
missing_now
[ -n "$missing" ] || exit 0

echo "install-deps: installing$missing"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
# CI has no standard input: a changed config file must never stop dpkg at a
# question.
$sudo apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $missing >/dev/null
echo "install-deps: done"
