#!/usr/bin/env bash
# scope: each major
# The index access method bloom_bitslice under concurrency, on one major
# (PG, tools/test.sh sets it), in a throwaway server:
#   - isolation tests (tests/isolation/specs, pg_isolation_regress of the
#     major): a scan against VACUUM moving a sparse block's rows to pending,
#     a scan against a flush whose freed pages inserts reuse, VACUUM while
#     inserts extend the chains; the sessions are ordered by the test hook
#     bloomfilter.bitslice_pause (pg/bitslice_pause.c); and runtime index
#     lookups against another session's writes, at REPEATABLE READ and
#     READ COMMITTED (the rows a sequential scan's snapshot sees);
#   - a pending page damaged to point to itself: VACUUM and a scan stop
#     with index_corrupted (XX002), they do not run forever;
#   - a bounded stress: writers (inserts, updates, deletes) and VACUUM
#     beside checkers that count the rows of a probe through the index and
#     by a sequential scan in one REPEATABLE READ snapshot, zero differences;
#     until BITSLICE_STRESS_PROBES probes were checked and
#     BITSLICE_STRESS_VACUUMS VACUUMs ran (default 1000 and 250), or
#     BITSLICE_STRESS_SECONDS passed (default 30, a loaded machine).
# Ends with "bitslice: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin bitslice
major=$(pg_major)
pg_use
. tools/pgclusters.sh
pgc_setup bitslice
pgc_start main "autovacuum=off" "max_connections=40" || { fail "start of a PostgreSQL $major server"; tl_end; }
pgc_env main
q() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

# ---- isolation tests ----
isolation=$PG_BIN/../lib/pgxs/src/test/isolation/pg_isolation_regress
if [ ! -x "$isolation" ]; then
    fail "pg_isolation_regress of PostgreSQL $major ($isolation)"
else
    specs=$(cd tests/isolation/specs && ls ./*.spec | sed 's#^\./##; s#\.spec$##' | tr '\n' ' ')
    # shellcheck disable=SC2086
    "$isolation" --inputdir=tests/isolation --outputdir="$TL_OUT/isolation" \
        --bindir="$PG_BIN" --host="$PGHOST" --port="$PGPORT" --user=postgres \
        --load-extension=bloomfilter --dbname=bloom_isolation $specs >"$TL_OUT/isolation.log" 2>&1
    # up to 15 "test NAME ... ok|FAILED"; 16 and later TAP
    while read -r t; do pass "isolation $t"; done < <(sed -nE 's/^(test +([a-z_0-9]+) +\.\.\. ok|ok +[0-9]+ +[-+] ([a-z_0-9]+)).*/\2\3/p' "$TL_OUT/isolation.log")
    while read -r t; do fail "isolation $t"; done < <(sed -nE 's/^(test +([a-z_0-9]+) +\.\.\. FAILED|not ok +[0-9]+ +[-+] ([a-z_0-9]+)).*/\2\3/p' "$TL_OUT/isolation.log")
    ran=$(grep -cE '^(test +[a-z_0-9]+ +\.\.\. (ok|FAILED)|(not )?ok +[0-9]+ +[-+] )' "$TL_OUT/isolation.log")
    [ "$ran" -eq "$(echo $specs | wc -w)" ] || { tail -n 20 "$TL_OUT/isolation.log"; fail "pg_isolation_regress ran $ran of $(echo $specs | wc -w) tests"; }
    [ ! -s "$TL_OUT/isolation/regression.diffs" ] || head -n 80 "$TL_OUT/isolation/regression.diffs"
fi

# ---- a pending page that points to itself ----
data=$PGC_DIR/main
q >"$TL_OUT/damage-setup.log" 2>&1 <<'SQL' || { cat "$TL_OUT/damage-setup.log"; fail "damage: setup"; }
CREATE EXTENSION IF NOT EXISTS bloomfilter;
CREATE TABLE damaged (id int PRIMARY KEY, f bloom) WITH (autovacuum_enabled = off);
CREATE INDEX damaged_f ON damaged USING bloom_bitslice (f);
INSERT INTO damaged SELECT g, bloom_add(bloom_empty_mk(1024, 3), g % 10) FROM generate_series(1, 20) g;
DELETE FROM damaged WHERE id <= 5;  -- dead rows: VACUUM walks the chain
SQL
file=$data/$(q -c "SELECT pg_relation_filepath('damaged_f')")
pgc_as_owner "$PG_BIN/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1
# every pending page (type 2 in the special space: owner u64, next u32,
# type u16) gets its own number as its next page (checksums: see below)
patched=$(python3 - "$file" <<'PY'
import struct, sys
path = sys.argv[1]
with open(path, "r+b") as fh:
    data = bytearray(fh.read())
    n = 0
    for blkno in range(1, len(data) // 8192):
        page = blkno * 8192
        special = struct.unpack_from("<H", data, page + 16)[0]
        if special == 8192 - 16 and struct.unpack_from("<H", data, page + special + 12)[0] == 2:
            struct.pack_into("<I", data, page + special + 8, blkno)
            n += 1
    fh.seek(0)
    fh.write(data)
print(n)
PY
)
if pgc_as_owner "$PG_BIN/pg_ctl" -D "$data" -l "$PGC_DIR/main.log" -w -t 60 -o "-p $PGPORT" start >/dev/null 2>&1; then
    # ignore_checksum_failure: majors from 18 on make clusters with checksums
    damaged() { # SQL: its error's SQLSTATE and message, within 60 s
        q -v VERBOSITY=verbose -c "SET statement_timeout = '60s'" -c "SET ignore_checksum_failure = on" \
            -c "SET enable_seqscan = off" -c "$1" 2>&1 | grep -m 1 -E '^ERROR'
    }
    out=$(damaged "VACUUM damaged")
    check "damage ($patched pending page made to point to itself): VACUUM stops with XX002 naming the index, not a loop ($out)" \
        grep -q 'XX002: index "damaged_f" is corrupted' <<<"$out"
    out=$(damaged "SELECT count(*) FROM damaged WHERE f @> 3")
    check "damage: a scan stops with XX002 ($out)" grep -q 'XX002: index "damaged_f" is corrupted' <<<"$out"
    q -c "DROP TABLE damaged"
else
    tail -n 20 "$PGC_DIR/main.log"
    fail "damage: the server does not start again"
    tl_end
fi

# ---- a bounded stress ----
seconds=${BITSLICE_STRESS_SECONDS:-30}
probes_wanted=${BITSLICE_STRESS_PROBES:-1000}
vacuums_wanted=${BITSLICE_STRESS_VACUUMS:-250}
q >"$TL_OUT/stress-setup.log" 2>&1 <<'SQL' || { cat "$TL_OUT/stress-setup.log"; fail "stress: setup"; tl_end; }
-- filter of row id: twelve sizes, two seeds (24 groups: a scan walks the
-- blocks of many groups after their pending rows), the values id % 30 and
-- 100 + id % 17
CREATE FUNCTION stress_filter(id bigint) RETURNS bloom LANGUAGE sql IMMUTABLE AS $$
    SELECT bloom_add_all(bloom_empty(50 * (1 + id % 12), 0.01, CASE WHEN id % 11 = 0 THEN 5 ELSE 0 END),
                         ARRAY[id % 30, 100 + id % 17]) $$;
CREATE TABLE stress (id bigserial PRIMARY KEY, f bloom) WITH (autovacuum_enabled = off);
INSERT INTO stress (f) SELECT stress_filter(g) FROM generate_series(1, 30000) g;
CREATE INDEX stress_f ON stress USING bloom_bitslice (f);
CREATE TABLE stress_counts (what text, n bigint);
CREATE TABLE stress_stop ();  -- a row: the writers stop
SQL
# one statement, one snapshot: the rows of each probe through the index
# (a parameterized bitmap scan) and by a sequential scan (an expression the
# index cannot answer)
{
    echo "SET enable_seqscan = off;"
    echo "SET enable_indexscan = off;"
    for _ in 1 2 3 4 5; do
        cat <<'SQL'
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT v, (SELECT count(*) FROM stress WHERE f @> v) AS via_index,
          (SELECT count(*) FROM stress WHERE bloom_contains(f::bytea::bloom, v)) AS via_seq
FROM unnest(ARRAY[3, 17, 29, 105, 116]::bigint[]) v;
COMMIT;
SQL
    done
} >"$TL_OUT/stress-check.sql"
plan=$(q -f "$TL_OUT/stress-check.sql" -c "SET enable_seqscan = off" -c "SET enable_indexscan = off" -c "EXPLAIN (COSTS OFF) SELECT v, (SELECT count(*) FROM stress WHERE f @> v), (SELECT count(*) FROM stress WHERE bloom_contains(f::bytea::bloom, v)) FROM unnest(ARRAY[3]::bigint[]) v" 2>&1)
if grep -q 'Bitmap Index Scan on stress_f' <<<"$plan" && grep -q 'Seq Scan on stress' <<<"$plan"; then
    pass "stress: a check counts through the index and by a sequential scan in one snapshot"
else
    echo "$plan"
    fail "stress: the check's plan is not an index scan beside a sequential scan"
fi
# the moves the scans must see, summed over the groups of the metapage
# (pageinspect, when the server has it): flushes that dropped pending pages,
# blocks VACUUM unlinked (BsGroup's pending_drops and block_drops)
moves() {
    q -c "CREATE EXTENSION IF NOT EXISTS pageinspect" \
      -c "CREATE FUNCTION pg_temp.le64(b bytea, o int) RETURNS numeric LANGUAGE sql AS
            \$\$ SELECT sum(get_byte(b, o + k) * 256::numeric ^ k) FROM generate_series(0, 7) k \$\$" \
      -c "SELECT sum(pg_temp.le64(b, 72 + 112 * g + 96)) || ' ' || sum(pg_temp.le64(b, 72 + 112 * g + 104))
          FROM (SELECT get_raw_page('stress_f', 0) AS b) p,
               generate_series(0, get_byte(b, 36) + 256 * get_byte(b, 37) - 1) g" 2>/dev/null
}
moves_before=$(moves)
stress_end=$((SECONDS + seconds))
until_sql="clock_timestamp() < '$(q -c "SELECT now() + interval '$seconds seconds'")'::timestamptz
    AND NOT EXISTS (SELECT FROM stress_stop)"
stop=$TL_OUT/stress-stop
# inserts; updates and deletes of runs of rows (blocks left sparse, which
# VACUUM moves back to pending); VACUUM in a loop; two checkers
q -c "DO \$\$ DECLARE n bigint := 0; BEGIN WHILE $until_sql LOOP
        INSERT INTO stress (f) SELECT stress_filter(nextval('stress_id_seq')) FROM generate_series(1, 20);
        n := n + 20; COMMIT; PERFORM pg_sleep(0.01); END LOOP;
        INSERT INTO stress_counts VALUES ('inserted', n); END \$\$" >"$TL_OUT/stress-insert.log" 2>&1 &
q -c "DO \$\$ DECLARE n bigint := 0; d bigint; x bigint; BEGIN WHILE $until_sql LOOP
        x := (SELECT (random() * max(id))::bigint FROM stress);
        DELETE FROM stress WHERE id BETWEEN x AND x + 200 AND id % 9 <> 0;
        GET DIAGNOSTICS d = ROW_COUNT; n := n + d;
        UPDATE stress SET f = stress_filter(id + 7) WHERE id BETWEEN x + 201 AND x + 205;
        COMMIT; PERFORM pg_sleep(0.02); END LOOP;
        INSERT INTO stress_counts VALUES ('deleted', n); END \$\$" >"$TL_OUT/stress-delete.log" 2>&1 &
(
    n=0
    while [ "$SECONDS" -lt "$stress_end" ] && [ ! -e "$stop" ]; do
        q -c "VACUUM stress" >>"$TL_OUT/stress-vacuum.log" 2>&1 || echo "VACUUM failed" >>"$TL_OUT/stress-vacuum.log"
        n=$((n + 1))
        echo "$n" >"$TL_OUT/stress-vacuums"
    done
) &
for c in 1 2; do
    (
        while [ "$SECONDS" -lt "$stress_end" ] && [ ! -e "$stop" ]; do
            q -F ' ' -f "$TL_OUT/stress-check.sql" >>"$TL_OUT/stress-checks-$c.txt" 2>>"$TL_OUT/stress-check-errors.log"
        done
    ) &
done
stress_start=$SECONDS
while [ "$SECONDS" -lt "$stress_end" ]; do
    sleep 0.5
    v=$(cat "$TL_OUT/stress-vacuums" 2>/dev/null)  # empty while the loop rewrites it
    [ "$(cat "$TL_OUT"/stress-checks-*.txt 2>/dev/null | grep -cE '^[0-9]+ [0-9]+ [0-9]+$')" -ge "$probes_wanted" ] &&
        [ "${v:-0}" -ge "$vacuums_wanted" ] && break
done
touch "$stop"
q -c "INSERT INTO stress_stop DEFAULT VALUES"
wait
checks=$(cat "$TL_OUT"/stress-checks-*.txt | grep -cE '^[0-9]+ [0-9]+ [0-9]+$')
differences=$(cat "$TL_OUT"/stress-checks-*.txt | awk 'NF == 3 && $2 != $3' | wc -l)
vacuums=$(cat "$TL_OUT/stress-vacuums" 2>/dev/null || echo 0)
vacuum_errors=$(grep -c 'ERROR' "$TL_OUT/stress-vacuum.log" 2>/dev/null)
counts=$(q -c "SELECT string_agg(what || ' ' || n, ', ' ORDER BY what) FROM stress_counts")
moves_after=$(moves)
if [ -n "$moves_before" ] && [ -n "$moves_after" ]; then
    read -r f0 b0 <<<"$moves_before"
    read -r f1 b1 <<<"$moves_after"
    moved="; $((${f1%.*} - ${f0%.*})) flushes and $((${b1%.*} - ${b0%.*})) blocks unlinked by VACUUM meanwhile"
else
    moved=
fi
note "stress, $((SECONDS - stress_start)) s (at most $seconds): $checks probes checked, $differences differences; $vacuums VACUUMs ($vacuum_errors failed); rows $counts; $(q -c "SELECT count(*) FROM stress") rows at the end$moved"
cat "$TL_OUT"/stress-checks-*.txt | awk 'NF == 3 && $2 != $3' | head -n 5
head -n 5 "$TL_OUT/stress-check-errors.log" "$TL_OUT/stress-vacuum.log"
check "stress: every probe through the index counts the rows of the sequential scan in the same snapshot ($checks probes, $differences differences)" \
    test "$checks" -gt 0 -a "$differences" -eq 0 -a ! -s "$TL_OUT/stress-check-errors.log"
check "stress: every VACUUM completes ($vacuums, $vacuum_errors failed)" \
    test "$vacuums" -gt 0 -a "$vacuum_errors" -eq 0
check "stress: the writers ran to the end ($counts)" grep -q 'deleted [0-9]*, inserted [0-9]' <<<"$counts"
q -c "VACUUM stress"
check "stress: after a last VACUUM the metapage's counters are what a walk counts" \
    test "$(q -c "CREATE FUNCTION pg_temp.debug(regclass) RETURNS text AS '\$libdir/bloomfilter', 'bloom_bitslice_debug' LANGUAGE C STRICT" -c "SELECT pg_temp.debug('stress_f')::json->>'counters_agree'")" = true

tl_end
