#!/usr/bin/env bash
# Every fenced example of README.md and docs/*.md, run by tools/doctest.py:
# SQL in SQLite and in a throwaway PostgreSQL cluster (pg_virtualenv), shell
# and Python in a scratch copy of the tree, expected output compared.  A
# block that is not run says why (an annotation with a reason).  First the
# runner itself: a page of wrong examples must fail block by block.
# Ends with "docs: N passed, M failed" (tools/doctest.py prints it) and exits
# non-zero on any failure.
set -u
cd "$(dirname "$0")/../.."
# The PostgreSQL examples install the extension (make install) and start a
# cluster: one PostgreSQL installation per machine, so take turns with other
# clones (see 30-pg.sh).
[ -n "${BLOOM_PG_LOCKED:-}" ] || BLOOM_PG_LOCKED=1 exec flock -o /tmp/bloomfilter-pg.lock "$0" "$@"

mkdir -p build
if ! tools/install-deps.sh --quiet core sqlite pg python; then
    echo "docs: 0 passed, 1 failed (could not install the dependencies)"
    exit 1
fi
if ! { make --no-print-directory sqlite && make --no-print-directory all &&
       make --no-print-directory install; } > build/docs-build.log 2>&1; then
    cat build/docs-build.log
    echo "docs: 0 passed, 1 failed (build and install)"
    exit 1
fi

# --selftest: first, a page of wrong examples must fail block by block.
pg_virtualenv -t -v 15 /usr/bin/python3 tools/doctest.py --engines sqlite,pg \
    --selftest tools/doctest/selftest-broken.md
