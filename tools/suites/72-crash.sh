#!/usr/bin/env bash
# scope: each major
# The index access method bloom_bitslice across crashes and on a replica
# (throwaway servers, tools/pgclusters.sh, full_page_writes on):
#   - three times: inserts, updates, deletes and VACUUM run in three
#     sessions over a table of filters with a bloom_bitslice index, and the
#     server is stopped with `pg_ctl -m immediate` in the middle of them;
#     after the restart (WAL replay) every probe finds through the index
#     exactly the rows a sequential scan finds, the index walks without an
#     error, and VACUUM then REINDEX keep the same answers;
#   - a streaming replica made by pg_basebackup replays the same kind of
#     work (generic WAL records only): on the replica the index answers as
#     a sequential scan there, and as the primary does.
# Ends with "crash: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin crash
pg_use
. tools/pgclusters.sh
pgc_setup crash
pgc_start main "full_page_writes=on" "synchronous_commit=on" "autovacuum=off" \
    "wal_level=replica" "max_wal_senders=4" || { fail "start of a PostgreSQL $(pg_major) server"; tl_end; }
data=$PGC_DIR/main
port=$(pgc_port main)
q() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -At -h 127.0.0.1 -p "${P:-$port}" -U postgres -d postgres "$@"; }

q <<'SQL' >"$TL_OUT/setup.log" 2>&1 || { cat "$TL_OUT/setup.log"; fail "setup"; tl_end; }
CREATE EXTENSION bloomfilter;
CREATE FUNCTION bitslice_debug(regclass) RETURNS text
    AS '$libdir/bloomfilter', 'bloom_bitslice_debug' LANGUAGE C STRICT;
-- filter of row id: 1 to 120 values from id * 7 on; every 17th row another
-- seed, every 29th the blocked layout, every 31st NULL
CREATE FUNCTION filter_of(id bigint) RETURNS bloom LANGUAGE sql AS $$
    SELECT CASE WHEN id % 31 = 0 THEN NULL ELSE
        bloom_add_all(bloom_empty(1 + id % 120, 0.01, CASE WHEN id % 17 = 0 THEN 5 ELSE 0 END,
                                  CASE WHEN id % 29 = 0 THEN 'blocked' ELSE 'classic' END),
                      (SELECT array_agg(id * 7 + x) FROM generate_series(1, 1 + id % 120) x)) END $$;
CREATE TABLE t (id bigserial PRIMARY KEY, f bloom);
CREATE SEQUENCE work_steps;  -- steps of the updating session, counted
INSERT INTO t (f) SELECT filter_of(g) FROM generate_series(1, 3000) g;
CREATE INDEX t_f ON t USING bloom_bitslice (f);
-- the rows of f @> v through the index and by a sequential scan
CREATE FUNCTION ids(v bigint, through_index bool) RETURNS bigint[] LANGUAGE plpgsql AS $fn$
DECLARE r bigint[];
BEGIN
    PERFORM set_config('enable_seqscan', (NOT through_index)::text, true);
    PERFORM set_config('enable_bitmapscan', through_index::text, true);
    PERFORM set_config('enable_indexscan', 'off', true);
    -- dynamic: planned again under the settings of each call
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM t WHERE f @> $1' INTO r USING v;
    RETURN coalesce(r, '{}');
END $fn$;
-- of 80 probes spread over the values, those answered differently, and
-- the rows found
CREATE FUNCTION differences(OUT different int, OUT found bigint) LANGUAGE sql AS $$
    SELECT count(*) FILTER (WHERE ids(v, true) <> ids(v, false))::int,
           sum(cardinality(ids(v, false)))
    FROM (SELECT max(id) * 7 + 200 AS top FROM t) m, generate_series(1, top, top / 80) v $$;
SQL
pass "a table of 3,000 filters (sizes, seeds, layouts, NULLs) and its bloom_bitslice index"

# Three sessions of work until the server goes away: many small
# transactions of inserts; updates and deletes; VACUUM (each one counted
# in $TL_OUT/vacuums).
work() {
    q -c "DO \$\$ BEGIN FOR i IN 1..1000000 LOOP
            INSERT INTO t (f) SELECT filter_of(nextval('t_id_seq')) FROM generate_series(1, 5);
            COMMIT; PERFORM pg_sleep(0.002); END LOOP; END \$\$" >/dev/null 2>&1 &
    q -c "DO \$\$ BEGIN FOR i IN 1..1000000 LOOP
            UPDATE t SET f = filter_of(id + 100000) WHERE id = (SELECT (random() * max(id))::bigint FROM t);
            DELETE FROM t WHERE id = (SELECT (random() * max(id))::bigint FROM t);
            PERFORM nextval('work_steps');
            COMMIT; PERFORM pg_sleep(0.002); END LOOP; END \$\$" >/dev/null 2>&1 &
    ( n=0; while q -c "VACUUM t" >/dev/null 2>&1; do n=$((n + 1)); echo "$n" >"$TL_OUT/vacuums"; done ) &
}
# Until the sessions of work() did INSERTS and UPDATES transactions and
# VACUUM ran VACUUMS times, or SECONDS passed (a loaded machine): the crash
# then comes in the middle of all three, however fast the machine.  The
# amounts are what a loaded 2-core machine does in SECONDS (some 30,000
# rows in the table by the third crash).
progress() { q -F ' ' -c "SELECT (SELECT last_value FROM t_id_seq), (SELECT last_value FROM work_steps)"; }
wait_for_work() { # INSERTS UPDATES VACUUMS SECONDS
    local end=$((SECONDS + $4)) i0 u0 i u v
    echo 0 >"$TL_OUT/vacuums"
    read -r i0 u0 < <(progress)
    work
    while [ "$SECONDS" -lt "$end" ]; do
        sleep 0.2
        read -r i u < <(progress)
        v=$(cat "$TL_OUT/vacuums")  # empty while the loop rewrites it
        # an insert step takes ten values of t_id_seq: five rows, each
        # with its id's default and filter_of's argument
        [ $(( (i - i0) / 10 )) -ge "$1" ] && [ $((u - u0)) -ge "$2" ] && [ "${v:-0}" -ge "$3" ] && break
    done
    note "work before the crash: $(( (i - i0) / 10 )) insert and $((u - u0)) update steps, ${v:-0} VACUUMs"
}

check_answers() { # WHAT
    local out
    if out=$(q -c "SELECT different, found FROM differences()" 2>&1) && [ "${out%%|*}" = 0 ]; then
        pass "$1: every probe finds through the index the rows a sequential scan finds ($(q -c "SELECT count(*) FROM t") rows, ${out#*|} found)"
    else
        echo "$out"
        fail "$1: probes answer differently through the index ($out)"
    fi
}

for round in 1 2 3; do
    wait_for_work $((600 * (1 + round))) $((100 * (1 + round))) $((2 * round)) $((2 + 2 * round))
    pgc_as_owner "$PG_BIN/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1
    wait
    if pgc_as_owner "$PG_BIN/pg_ctl" -D "$data" -l "$PGC_DIR/main.log" -w -t 120 -o "-p $port" start >/dev/null 2>&1; then
        pass "round $round: immediate shutdown during inserts, updates, deletes and VACUUM; the server recovers"
    else
        tail -n 30 "$PGC_DIR/main.log"
        fail "round $round: the server does not recover"
        tl_end
    fi
    check_answers "round $round, after recovery"
    check "round $round: the index walks without an error: $(q -c "SELECT bitslice_debug('t_f')" 2>&1)" \
        q -c "SELECT bitslice_debug('t_f')"
done
q -c "VACUUM t"
check_answers "after VACUUM (pages a crash left unlinked swept)"
check "after VACUUM, the metapage's counters are what a walk counts" \
    test "$(q -c "SELECT bitslice_debug('t_f')::json->>'counters_agree'")" = true
q -c "REINDEX INDEX t_f"
check_answers "after REINDEX"

# ---- a streaming replica ----
standby=$PGC_DIR/standby
sport=$(pgc_free_port)
# --checkpoint=fast: the backup starts at once, not after a checkpoint
# spread over minutes.
if pgc_as_owner "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$standby" -R -X stream --checkpoint=fast \
        >"$TL_OUT/basebackup.log" 2>&1 &&
    printf "port = %s\nunix_socket_directories = '%s'\nhot_standby = on\n" "$sport" "$PGC_DIR" |
        pgc_as_owner tee -a "$standby/postgresql.conf" >/dev/null &&
    pgc_as_owner "$PG_BIN/pg_ctl" -D "$standby" -l "$PGC_DIR/standby.log" -w -t 120 start >/dev/null 2>&1; then
    PGC_NAMES+=(standby)
    printf -v PGC_PORT_standby '%s' "$sport"
    pass "a streaming replica (pg_basebackup -R)"
else
    cat "$TL_OUT/basebackup.log"
    tail -n 20 "$PGC_DIR/standby.log" 2>/dev/null
    fail "a streaming replica"
    tl_end
fi
wait_for_work 1800 300 6 6
kill $(jobs -p) 2>/dev/null
wait
q -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'DO %'" >/dev/null
q -c "VACUUM t"
lsn=$(q -c "SELECT pg_current_wal_lsn()")
for _ in $(seq 1 600); do
    [ "$(P=$sport q -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
    sleep 0.2
done
P=$sport check_answers "on the replica, after inserts, updates, deletes and VACUUM on the primary"
primary=$(q -c "SELECT md5(string_agg(ids(v, true)::text, ';' ORDER BY v)) FROM generate_series(1, 200000, 997) v")
replica=$(P=$sport q -c "SELECT md5(string_agg(ids(v, true)::text, ';' ORDER BY v)) FROM generate_series(1, 200000, 997) v")
check "the replica's index answers as the primary's" test -n "$primary" -a "$primary" = "$replica"
tl_end
