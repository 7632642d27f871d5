#!/usr/bin/env bash
# Every fenced example of README.md and docs/*.md, run by tools/doctest.py:
# SQL in SQLite and in a throwaway PostgreSQL cluster (pg_virtualenv), shell
# and Python in a scratch copy of the tree, expected output compared.  A
# block that is not run says why (an annotation with a reason).  First the
# runner itself: a page of wrong examples must fail block by block.
# Ends with "docs: N passed, M failed" and exits non-zero on any failure.
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

selftest_passed=0
selftest_failed=0
/usr/bin/python3 tools/doctest.py --engines sqlite tools/doctest/selftest-broken.md > build/docs-selftest.log 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -qx 'docs: 0 passed, 6 failed' build/docs-selftest.log; then
    echo "ok: the runner fails each of the 6 wrong examples of tools/doctest/selftest-broken.md"
    selftest_passed=1
else
    cat build/docs-selftest.log
    echo "FAILED: the runner did not fail each wrong example of tools/doctest/selftest-broken.md (exit $rc)"
    selftest_failed=1
fi

pg_virtualenv -t -v 15 /usr/bin/python3 tools/doctest.py --engines sqlite,pg 2>&1 | tee build/docs.log
rc=${PIPESTATUS[0]}
line=$(grep -E '^docs: [0-9]+ passed, [0-9]+ failed' build/docs.log | tail -n 1)
if [ -z "$line" ]; then
    echo "docs: $selftest_passed passed, $((selftest_failed + 1)) failed (the runner did not finish)"
    exit 1
fi
p=$(echo "$line" | sed -E 's/docs: ([0-9]+) passed.*/\1/')
f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
echo "docs: $((p + selftest_passed)) passed, $((f + selftest_failed)) failed"
[ $((f + selftest_failed)) -eq 0 ]
