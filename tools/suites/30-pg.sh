#!/usr/bin/env bash
# scope: each major
# The PostgreSQL extension on one major (PG, tools/test.sh sets it): a
# warning-free build with PGXS's flags, every pg/ file compiled with -Werror
# under gcc and clang against this major's headers, the pg_regress suite in a
# throwaway server, and pg_dump/restore round trips (plain, custom,
# --inserts) of a table of filters, and (plain) of the largest filter the type
# accepts, compared bit for bit, with a bloom_bitslice index on the table
# recreated and answering as before.
# Ends with "pg: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin pg
major=$(pg_major)

pg_use --fresh
if grep -E 'warning:' "$TL_OUT/install.log"; then
    fail "PostgreSQL $major: the PGXS build has warnings (above)"
else
    pass "PostgreSQL $major: warning-free PGXS build ($("$PG_CONFIG" --version))"
fi
# PGXS builds out of the tree: nothing the build made sits in the root,
# where `import bloomfilter` from the root would find a bloomfilter.so.
stray=$(ls ./*.so ./*.o core/*.o pg/*.o 2>/dev/null | tr '\n' ' ')
check "PostgreSQL $major: the build left nothing in the tree (build/pg/$major/)${stray:+: $stray}" test -z "$stray"
for cc in gcc clang; do
    if make --no-print-directory -k -j2 warnings-pg CC=$cc PG_CONFIG="$PG_CONFIG" >"$TL_OUT/warnings-$cc.log" 2>&1; then
        pass "PostgreSQL $major: every pg/ file warning-free under $cc -Werror"
    else
        grep -E 'error|warning' "$TL_OUT/warnings-$cc.log" | head -n 20
        fail "PostgreSQL $major: warnings under $cc (see $TL_OUT/warnings-$cc.log)"
    fi
done

. tools/pgclusters.sh
pgc_setup pg
pgc_start main || { fail "start of a PostgreSQL $major server"; tl_end; }
pgc_env main

# ---- pg_regress ----
# make installcheck first checks sql/schedule (tools/check-schedule.sh): a
# copy of sql/ with a test that no line names must be refused, by name.
mkdir -p "$TL_OUT/schedule-check"
cp sql/*.sql sql/schedule "$TL_OUT/schedule-check/"
: >"$TL_OUT/schedule-check/zz_unscheduled.sql"
if ! tools/check-schedule.sh "$TL_OUT/schedule-check" 2>"$TL_OUT/schedule-check.log" &&
    grep -q 'not scheduled: zz_unscheduled;' "$TL_OUT/schedule-check.log"; then
    pass "sql/schedule: a test that no line names is refused ($(head -n 1 "$TL_OUT/schedule-check.log" | sed 's#.*/schedule: ##'))"
else
    cat "$TL_OUT/schedule-check.log"
    fail "sql/schedule: a test that no line names is not refused"
fi
rm -f build/pg/"$major"/regression.diffs
make --no-print-directory PG_CONFIG="$PG_CONFIG" installcheck >"$TL_OUT/regress.log" 2>&1
# pg_regress up to 15 prints "test NAME ... ok|FAILED" (in a parallel group
# indented instead of "test"); 16 and later print TAP.
tests=$(ls sql/*.sql | wc -l)
while read -r t; do pass "pg_regress $t"; done < <(sed -nE 's/^((test +| +)([a-z_0-9]+) +\.\.\. ok|ok +[0-9]+ +[-+] ([a-z_0-9]+)).*/\3\4/p' "$TL_OUT/regress.log")
while read -r t; do fail "pg_regress $t"; done < <(sed -nE 's/^((test +| +)([a-z_0-9]+) +\.\.\. FAILED|not ok +[0-9]+ +[-+] ([a-z_0-9]+)).*/\3\4/p' "$TL_OUT/regress.log")
ran=$(grep -cE '^((test +| +)[a-z_0-9]+ +\.\.\. (ok|FAILED)|(not )?ok +[0-9]+ +[-+] )' "$TL_OUT/regress.log")
[ "$ran" -eq "$tests" ] || { tail -n 20 "$TL_OUT/regress.log"; fail "pg_regress ran $ran of $tests tests"; }
if [ -s build/pg/"$major"/regression.diffs ]; then
    cp build/pg/"$major"/regression.diffs "$TL_OUT/"
    head -n 80 "$TL_OUT/regression.diffs"
fi

# ---- pg_dump and restore ----
dump_src=bloom_dump_src
createdb "$dump_src"
psql -X -q -v ON_ERROR_STOP=1 -d "$dump_src" >"$TL_OUT/dump-fill.log" 2>&1 <<'SQL'
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
CREATE INDEX filters_f ON filters USING bloom_bitslice (f) WITH (max_nbits = 4096);
-- The largest filter the type accepts (511 MiB): its COPY text is 1 GB,
-- just within one allocation.  A table of its own: --inserts cannot carry
-- it (the SQL lexer doubles a literal's buffer past 1 GB), nor any bytea
-- of that size.
CREATE TABLE largest AS SELECT bloom_add(bloom_empty_mk(4286578688, 1), 'x') AS f;
SQL
fingerprint() {
    psql -X -A -t -d "$1" -c "SELECT id, note, md5(f::bytea), octet_length(f::bytea) FROM filters ORDER BY id"
    # the index: its definition, its plan, its answers
    psql -X -A -t -d "$1" -c "SELECT indexdef FROM pg_indexes WHERE indexname = 'filters_f'"
    psql -X -A -t -d "$1" -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT id FROM filters WHERE f @> 'x'" \
        -c "SELECT v, string_agg(id::text, ',' ORDER BY id) FROM filters, unnest(ARRAY['x', 'key 7', 'key 2999']) v
            WHERE f @> v GROUP BY v ORDER BY v" \
        -c "SELECT v, string_agg(id::text, ',' ORDER BY id) FROM filters, generate_series(1, 600, 7) v
            WHERE f @> v GROUP BY v ORDER BY v"
}
largest() { psql -X -A -t -d "$1" -c "SELECT md5(f::bytea), octet_length(f::bytea) FROM largest"; }
fingerprint "$dump_src" >"$TL_OUT/dump-src.txt"
largest "$dump_src" >"$TL_OUT/dump-largest-src.txt"

same_as_source() { # DB [--without-largest]
    fingerprint "$1" >"$TL_OUT/dump-$1.txt" &&
        [ "$(head -n 6 "$TL_OUT/dump-src.txt" | grep -c '^[1-6]|')" -eq 6 ] &&
        grep -q 'Bitmap Index Scan on filters_f' "$TL_OUT/dump-src.txt" &&
        diff -u "$TL_OUT/dump-src.txt" "$TL_OUT/dump-$1.txt" &&
        { [ "${2:-}" = --without-largest ] || {
            largest "$1" >"$TL_OUT/dump-largest-$1.txt" &&
            grep -q ' *|535822368$' "$TL_OUT/dump-largest-src.txt" &&
            diff -u "$TL_OUT/dump-largest-src.txt" "$TL_OUT/dump-largest-$1.txt"; }; }
}
restore_plain() {
    createdb bloom_dump_plain &&
        pg_dump -d "$dump_src" -f "$TL_OUT/dump.sql" &&
        psql -X -q -v ON_ERROR_STOP=1 -d bloom_dump_plain -f "$TL_OUT/dump.sql" >/dev/null &&
        rm -f "$TL_OUT/dump.sql" &&
        same_as_source bloom_dump_plain
}
restore_custom() {
    createdb bloom_dump_custom &&
        pg_dump -Fc -T largest -d "$dump_src" -f "$TL_OUT/dump.custom" &&
        pg_restore --exit-on-error -d bloom_dump_custom "$TL_OUT/dump.custom" &&
        rm -f "$TL_OUT/dump.custom" &&
        same_as_source bloom_dump_custom --without-largest
}
restore_inserts() {
    createdb bloom_dump_inserts &&
        pg_dump --inserts -T largest -d "$dump_src" -f "$TL_OUT/dump-inserts.sql" &&
        psql -X -q -v ON_ERROR_STOP=1 -d bloom_dump_inserts -f "$TL_OUT/dump-inserts.sql" >/dev/null &&
        same_as_source bloom_dump_inserts --without-largest
}
check "pg_dump plain (COPY text) restores every filter bit for bit, the largest too, and the bloom_bitslice index, answering alike" restore_plain
# The largest filter once, in plain format: its 1 GB of COPY text goes
# through the same output and input functions in every format, and the
# custom format would compress it too.
check "pg_dump custom format restores every filter bit for bit, and the index" restore_custom
check "pg_dump --inserts (text literals) restores every filter bit for bit, and the index" restore_inserts
tl_end
