#!/usr/bin/env bash
# scope: once
# The Python package (python/): its C glue warning-free, installed offline
# with the README's commands (tools/python-venv.sh), then its tests without
# a server: the client filter, load(conn) and the same bytes as SQLite.  The
# psycopg adapters are tested on every PostgreSQL major by 65-python-pg.
# Ends with "python: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin python
tools/install-deps.sh --quiet python

for cc in gcc clang; do
    if $cc -std=c11 -Wall -Wextra -Wpedantic -Wmissing-prototypes -Werror -fsyntax-only \
        -DBLOOMFILTER_VERSION='"0"' -Icore python/bloomfilter/_core.c 2>"$TL_OUT/warn-$cc.log"; then
        pass "python/bloomfilter/_core.c warning-free with $cc"
    else
        fail "python/bloomfilter/_core.c with $cc (see $TL_OUT/warn-$cc.log)"
    fi
done

if tools/python-venv.sh "$TL_OUT/install.log"; then
    pass "pip install --no-build-isolation ./python into a venv, offline"
else
    cat "$TL_OUT/install.log"
    fail "pip install ./python (see $TL_OUT/install.log)"
    tl_end
fi
# From outside python/: the installed package, not the source tree.
(cd "$TL_OUT" && "$TL_ROOT/build/python-venv/bin/python" "$TL_ROOT/tools/python_tests.py" "$TL_ROOT/python/tests" 'test_sqlite.py' 'test_client.py') \
    >"$TL_OUT/sqlite.log" 2>"$TL_OUT/sqlite.err"
count_lines "$TL_OUT/sqlite.log"
grep -q '^FAILED - ' "$TL_OUT/sqlite.log" && cat "$TL_OUT/sqlite.err"
tl_end
