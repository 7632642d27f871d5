#!/usr/bin/env bash
# The Python package (python/): installed offline with the README's commands
# (a venv that sees Debian's python3-psycopg2 and python3-psycopg, pip with
# no index), its C glue warning-free, then its tests: the client filter,
# load(conn) and the same bytes as SQLite; the psycopg2 and psycopg 3
# adapters and the same bytes as PostgreSQL in a throwaway cluster.
# Ends with "python: N passed, M failed"; exit 1 on any failure.
set -u
cd "$(dirname "$0")/../.."
passed=0
failed=0
out=build/python-tests
mkdir -p "$out"
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAILED - $1"; }
count() { # a runner's log: one line per test
    local log=$1
    cat "$log"
    passed=$((passed + $(grep -c '^ok - ' "$log")))
    failed=$((failed + $(grep -c '^FAILED - ' "$log")))
}

for cc in gcc clang; do
    if $cc -std=c11 -Wall -Wextra -Wpedantic -Wmissing-prototypes -Werror -fsyntax-only \
        -DBLOOMFILTER_VERSION='"0"' -Icore python/bloomfilter/_core.c 2>"$out/warn-$cc.log"; then
        pass "python/bloomfilter/_core.c warning-free with $cc"
    else
        fail "python/bloomfilter/_core.c with $cc (see $out/warn-$cc.log)"
    fi
done

venv=$PWD/build/python-venv
rm -rf "$venv"
if /usr/bin/python3 -m venv --system-site-packages "$venv" >"$out/install.log" 2>&1 &&
    PIP_NO_INDEX=1 "$venv/bin/pip" install --no-build-isolation ./python >>"$out/install.log" 2>&1; then
    pass "pip install --no-build-isolation ./python into a venv, offline"
else
    fail "pip install ./python (see $out/install.log)"
    echo "python: $passed passed, $((failed + 1)) failed (tests not run)"
    exit 1
fi

# From outside python/: the installed package, not the source tree.
tests=$PWD/python/tests
runner=$PWD/tools/python_tests.py
(cd "$out" && "$venv/bin/python" "$runner" "$tests" 'test_sqlite.py' 'test_client.py') >"$out/sqlite.log" 2>"$out/sqlite.err"
count "$out/sqlite.log"
[ -s "$out/sqlite.err" ] && grep -q FAILED "$out/sqlite.log" && cat "$out/sqlite.err"

# PostgreSQL: make install then a cluster, under the machine's PG lock.
flock /tmp/bloomfilter-pg.lock sh -c "
    make --no-print-directory >/dev/null && make --no-print-directory install >/dev/null &&
    cd '$out' && pg_virtualenv -t -v 15 '$venv/bin/python' '$runner' '$tests' 'test_postgres.py'
" >"$out/pg.log" 2>"$out/pg.err"
rc=$?
count "$out/pg.log"
if [ $rc -ne 0 ]; then
    grep -q '^FAILED - ' "$out/pg.log" || fail "PostgreSQL tests ran (see $out/pg.err)"
    cat "$out/pg.err"
fi

echo "python: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
