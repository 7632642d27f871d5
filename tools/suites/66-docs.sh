#!/usr/bin/env bash
# scope: once
# Every fenced example of README.md and docs/*.md that needs no PostgreSQL
# server, run by tools/doctest.py: SQL in SQLite, shell and Python in a
# scratch copy of the tree, expected output compared; the PostgreSQL examples
# run on every major in 67-docs-pg.  A block that is not run says why (an
# annotation with a reason).  First the runner itself: a page of wrong
# examples must fail block by block.
# Ends with "docs: N passed, M failed" (tools/doctest.py prints it) and exits
# non-zero on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin docs
if ! tools/install-deps.sh --quiet core sqlite python; then
    echo "docs: 0 passed, 1 failed (could not install the dependencies)"
    exit 1
fi
if ! make --no-print-directory sqlite >"$TL_OUT/build.log" 2>&1; then
    cat "$TL_OUT/build.log"
    echo "docs: 0 passed, 1 failed (build)"
    exit 1
fi
exec /usr/bin/python3 tools/doctest.py --engines sqlite --selftest tools/doctest/selftest-broken.md
