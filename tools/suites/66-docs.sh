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
# docs/FUZZING.md's examples build the fuzz targets: built here in the
# tree, as 12-fuzz.sh builds them (one of the two suites builds them, the
# other finds them made); tools/doctest.py copies them into the page's
# scratch directory, where make finds them up to date, as a user who built
# them before would.
if ! flock build/fuzz.lock make --no-print-directory -j2 fuzz-build >"$TL_OUT/fuzz-build.log" 2>&1; then
    cat "$TL_OUT/fuzz-build.log"
    echo "docs: 0 passed, 1 failed (the fuzz targets' build)"
    exit 1
fi
exec /usr/bin/python3 tools/doctest.py --engines sqlite --selftest tools/doctest/selftest-broken.md
