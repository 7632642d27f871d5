#!/usr/bin/env bash
# PostgreSQL extension `bloomfilter`: a warning-free build, `make install`,
# then, in a throwaway cluster (pg_virtualenv -t: a private directory, so it
# never collides with another throwaway cluster on the machine), the pg_regress suite and a
# pg_dump/restore round trip of a table of filters and of the largest filter
# the type accepts, compared bit for bit.
# Counts each pg_regress test and each extra check; ends with
# "pg: N passed, M failed" and exits non-zero on any failure.
set -u
cd "$(dirname "$0")/../.."
# One PostgreSQL installation per machine: runs from several clones of the
# project (make install, then a cluster) take turns instead of overwriting
# each other's installed module.
[ -n "${BLOOM_PG_LOCKED:-}" ] || BLOOM_PG_LOCKED=1 exec flock /tmp/bloomfilter-pg.lock "$0" "$@"

# ---- inside the throwaway cluster (PGHOST, PGPORT, PGUSER, PGPASSWORD set) ----
if [ "${1:-}" = --inside ]; then
    check() { # check NAME COMMAND...
        local name=$1; shift
        if "$@"; then echo "check: ok $name"; else echo "check: FAILED $name"; fi
    }
    make --no-print-directory installcheck
    [ -f regression.diffs ] && cat regression.diffs

    dump_src=bloom_dump_src
    dropdb --if-exists "$dump_src"
    createdb "$dump_src"
    psql -X -q -v ON_ERROR_STOP=1 -d "$dump_src" <<'SQL'
CREATE EXTENSION bloomfilter;
CREATE TABLE filters (id int PRIMARY KEY, note text, f bloom);
INSERT INTO filters VALUES
  (1, 'empty', bloom_empty(100)),
  (2, 'small', (SELECT bloom_agg(g) FROM generate_series(1, 500) g)),
  (3, 'large, stored out of line', (SELECT bloom_agg(g::int8, 1000000, 0.01) FROM generate_series(1, 200000) g)),
  (4, 'blocked, seeded', (SELECT bloom_agg(g, 5000, 0.001) FROM generate_series(1, 4000) g)),
  (5, 'text values', (SELECT bloom_agg('key ' || g) FROM generate_series(1, 3000) g)),
  (6, 'null', NULL);
UPDATE filters SET f = bloom_add(bloom_empty(1000, 0.01, 77, 'blocked'), 'x') WHERE id = 4;
-- The largest filter the type accepts (511 MiB): its COPY text is 1 GB,
-- just within one allocation.  A table of its own: --inserts cannot carry
-- it (the SQL lexer doubles a literal's buffer past 1 GB), nor any bytea
-- of that size.
CREATE TABLE largest AS SELECT bloom_add(bloom_empty_mk(4286578688, 1), 'x') AS f;
SQL
    fingerprint() { psql -X -A -t -d "$1" -c "SELECT id, note, md5(f::bytea), octet_length(f::bytea) FROM filters ORDER BY id"; }
    fingerprint "$dump_src" > build/pg-dump-src.txt

    largest() { psql -X -A -t -d "$1" -c "SELECT md5(f::bytea), octet_length(f::bytea) FROM largest"; }
    largest "$dump_src" > build/pg-dump-largest-src.txt

    same_as_source() { # DB [--without-largest]
        fingerprint "$1" > "build/pg-dump-$1.txt" &&
            [ "$(wc -l < build/pg-dump-src.txt)" -eq 6 ] &&
            diff -u build/pg-dump-src.txt "build/pg-dump-$1.txt" &&
            { [ "${2:-}" = --without-largest ] || {
                largest "$1" > "build/pg-dump-largest-$1.txt" &&
                grep -q ' *|535822368$' build/pg-dump-largest-src.txt &&
                diff -u build/pg-dump-largest-src.txt "build/pg-dump-largest-$1.txt"; }; }
    }
    restore_plain() {
        dropdb --if-exists bloom_dump_plain && createdb bloom_dump_plain &&
            pg_dump -d "$dump_src" -f build/pg-dump.sql &&
            psql -X -q -v ON_ERROR_STOP=1 -d bloom_dump_plain -f build/pg-dump.sql >/dev/null &&
            rm -f build/pg-dump.sql &&
            same_as_source bloom_dump_plain
    }
    restore_custom() {
        dropdb --if-exists bloom_dump_custom && createdb bloom_dump_custom &&
            pg_dump -Fc -d "$dump_src" -f build/pg-dump.custom &&
            pg_restore --exit-on-error -d bloom_dump_custom build/pg-dump.custom &&
            rm -f build/pg-dump.custom &&
            same_as_source bloom_dump_custom
    }
    restore_inserts() {
        dropdb --if-exists bloom_dump_inserts && createdb bloom_dump_inserts &&
            pg_dump --inserts -T largest -d "$dump_src" -f build/pg-dump-inserts.sql &&
            psql -X -q -v ON_ERROR_STOP=1 -d bloom_dump_inserts -f build/pg-dump-inserts.sql >/dev/null &&
            same_as_source bloom_dump_inserts --without-largest
    }
    check "pg_dump plain (COPY text) restores every filter bit for bit, the largest too" restore_plain
    check "pg_dump custom format restores every filter bit for bit, the largest too" restore_custom
    check "pg_dump --inserts (text literals) restores every filter bit for bit" restore_inserts
    exit 0
fi

# ---- outside: build, install, run the cluster part, count ----
mkdir -p build
passed=0
failed=0
finish() {
    echo "pg: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

if ! tools/install-deps.sh --quiet pg; then
    echo "FAILED: could not install the PostgreSQL build dependencies"
    failed=$((failed + 1))
    finish
fi

if make --no-print-directory all > build/pg-build.log 2>&1; then
    if grep -E "warning:" build/pg-build.log; then
        echo "FAILED: the build has warnings (above)"
        failed=$((failed + 1))
    else
        echo "ok: warning-free build"
        passed=$((passed + 1))
    fi
else
    cat build/pg-build.log
    echo "FAILED: build"
    failed=$((failed + 1))
    finish
fi

if ! make --no-print-directory install > build/pg-install.log 2>&1; then
    cat build/pg-install.log
    echo "FAILED: make install"
    failed=$((failed + 1))
    finish
fi

rm -f regression.diffs regression.out
pg_virtualenv -t -v 15 "$0" --inside > build/pg-cluster.log 2>&1
cat build/pg-cluster.log | grep -vE '^[0-9]{4}-[0-9]{2}-[0-9]{2} ' || true

# pg_regress up to 15 prints "test NAME ... ok|FAILED"; 16 and later print TAP.
regress_ok=$(grep -cE '^(test +[a-z_0-9]+ +\.\.\. ok|ok +[0-9]+ +[-+] )' build/pg-cluster.log)
regress_failed=$(grep -cE '^(test +[a-z_0-9]+ +\.\.\. FAILED|not ok +[0-9]+ )' build/pg-cluster.log)
expected_tests=$(ls sql/*.sql | wc -l)
checks_ok=$(grep -c '^check: ok ' build/pg-cluster.log)
checks_failed=$(grep -c '^check: FAILED ' build/pg-cluster.log)
passed=$((passed + regress_ok + checks_ok))
failed=$((failed + regress_failed + checks_failed))
if [ $((regress_ok + regress_failed)) -ne "$expected_tests" ]; then
    echo "FAILED: pg_regress ran $((regress_ok + regress_failed)) of $expected_tests tests"
    failed=$((failed + expected_tests - regress_ok - regress_failed))
fi
if [ $((checks_ok + checks_failed)) -ne 3 ]; then
    echo "FAILED: $((checks_ok + checks_failed)) of 3 pg_dump checks ran"
    failed=$((failed + 3 - checks_ok - checks_failed))
fi
finish
