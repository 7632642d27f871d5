#!/usr/bin/env bash
# scope: each major
# The Python package's psycopg2 and psycopg 3 adapters against a server of
# the major under test: the same bytes as PostgreSQL, bloom columns as
# BloomFilter, parameters bound as bloom (python/tests/test_postgres.py).
# Uses the venv of 64-python (made here when missing).
# Ends with "python-pg: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin python-pg
tools/install-deps.sh --quiet python
if ! tools/python-venv.sh "$TL_OUT/install.log" --if-missing; then
    cat "$TL_OUT/install.log"
    fail "pip install ./python (see $TL_OUT/install.log)"
    tl_end
fi
pg_use
. tools/pgclusters.sh
# A shared hold on the venv's lock: 64-python may remake it meanwhile.
(flock -s 9 && cd "$TL_OUT" && pgc_run -- "$TL_ROOT/build/python-venv/bin/python" "$TL_ROOT/tools/python_tests.py" \
    "$TL_ROOT/python/tests" 'test_postgres.py') 9>build/python-venv.lock >"$TL_OUT/pg.log" 2>"$TL_OUT/pg.err"
rc=$?
count_lines "$TL_OUT/pg.log"
if [ $rc -ne 0 ]; then
    grep -q '^FAILED - ' "$TL_OUT/pg.log" || fail "the PostgreSQL tests ran (see $TL_OUT/pg.err)"
    cat "$TL_OUT/pg.err"
fi
tl_end
