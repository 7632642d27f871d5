#!/usr/bin/env bash
# scope: each major
# Install paths of the PostgreSQL extension, in a throwaway cluster:
#   - version 1.0 installs from its released script alone, and every C
#     function it names is a symbol of the library built now;
#   - tables filled under 1.0 (both layouts, seeds, every aggregate, stored,
#     generated and indexed columns, a view, builder states) read the same
#     after ALTER EXTENSION bloomfilter UPDATE: same bytes, same probes;
#   - the updated extension has exactly the objects of a fresh install, and
#     the whole pg_regress suite passes against it;
#   - a pg_dump taken under 1.0 (plain and custom) restores into a new
#     database that creates the extension at the default version;
#   - after an update from 1.1, every value-taking call on every type of
#     tools/overloads.py's list answers as under 1.1;
#   - the extension is trusted: a database owner without superuser creates
#     it, updates it from 1.0 and uses it, and operators planted in the
#     extension's schema never run with the install script's privileges.
# --installed: test what is installed (80-packages: PG_BIN names it), build
# and install nothing.  Ends with "upgrade: N passed, M failed"; exit 1 on
# any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
# --installed (80-packages) beside a run of this suite on the same major:
# an output directory of its own
tl_begin upgrade "$([ "${1:-}" = --installed ] && echo upgrade-installed || echo upgrade)"
if [ "${1:-}" = --installed ]; then
    # PG_BIN, PG_CONFIG: the server the packages suite installed into
    PATH=$PG_BIN:$PATH
else
    pg_use
fi
. tools/pgclusters.sh
pgc_setup upgrade
pgc_start main || { fail "start of a PostgreSQL $(pg_major) server"; tl_end; }
pgc_env main

q() { psql -X -q -v ON_ERROR_STOP=1 -A -t "$@"; }
out=$TL_OUT
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)

# Filters of every kind, made by 1.0's functions only.
fill_1_0() {
    q -d "$1" <<'SQL'
CREATE TABLE upg_filters (id int PRIMARY KEY, note text, f bloom);
INSERT INTO upg_filters VALUES
  (1, 'empty classic', bloom_empty(100)),
  (2, 'classic, seed 42, values added', bloom_add(bloom_add(bloom_empty(1000, 0.01, 42), 'x'), 7)),
  (3, 'blocked, values added', bloom_add(bloom_add(bloom_empty(1000, 0.01, 0, 'blocked'), 'x'), 7)),
  (4, 'blocked, seed -5, explicit m and k', bloom_add(bloom_empty_mk(4096, 8, -5, 'blocked'), 3)),
  (5, 'classic, explicit m and k', bloom_add(bloom_empty_mk(1000, 5), 'k1')),
  (6, 'bloom_agg(int4), self-sized', (SELECT bloom_agg(g) FROM generate_series(1, 500) g)),
  (7, 'bloom_agg(text, capacity, fpr)', (SELECT bloom_agg('k' || g, 3000, 0.001) FROM generate_series(1, 2000) g)),
  (8, 'bloom_agg(int8, capacity, fpr), stored out of line', (SELECT bloom_agg(g::int8, 1000000, 0.01) FROM generate_series(1, 100000) g)),
  -- with byte 10 zeroed, as 1.0 stored it: this library records the value
  -- kinds, and a text probe of typed values of several types would raise
  (9, 'bloom_agg(numeric), float8, date, uuid',
      set_byte((SELECT bloom_union_agg(f) FROM (
         SELECT bloom_agg(g::numeric, 1000, 0.01) FROM generate_series(1, 100) g UNION ALL
         SELECT bloom_agg(g / 2.0::float8, 1000, 0.01) FROM generate_series(1, 100) g UNION ALL
         SELECT bloom_agg(date '2026-01-01' + g, 1000, 0.01) FROM generate_series(1, 100) g UNION ALL
         SELECT bloom_agg(md5(g::text)::uuid, 1000, 0.01) FROM generate_series(1, 100) g) s(f))::bytea, 10, 0)::bloom),
  (10, 'bloom_union_agg', (SELECT bloom_union_agg(bloom_add(bloom_empty(500), g)) FROM generate_series(1, 50) g)),
  (11, 'bloom_intersect_agg', (SELECT bloom_intersect_agg(bloom_add(bloom_add(bloom_empty(500), g), 0)) FROM generate_series(1, 50) g)),
  (12, 'union, intersect operators', (bloom_add(bloom_empty(100), 1) | bloom_add(bloom_empty(100), 2)) & bloom_add(bloom_empty(100), 1)),
  (13, 'from a Parquet bitset', bloom_from_parquet(bloom_to_parquet(bloom_add(bloom_empty(1000, 0.01, 0, 'blocked'), 'p')))),
  (14, 'null', NULL);
SET bloomfilter.default_layout = 'blocked';
SET bloomfilter.default_fpr = 0.001;
INSERT INTO upg_filters SELECT 15, 'bloom_agg(text) blocked at 0.001 (settings)', bloom_agg('k' || g) FROM generate_series(1, 1500) g;
RESET bloomfilter.default_layout;
RESET bloomfilter.default_fpr;

-- Columns that keep results of 1.0 functions: generated, defaulted,
-- indexed (hash opclass, expression), and a view.
CREATE TABLE upg_stored (id int PRIMARY KEY,
    f bloom DEFAULT bloom_empty(200),
    card float8 GENERATED ALWAYS AS (bloom_cardinality(f)) STORED);
INSERT INTO upg_stored (id) VALUES (1);
INSERT INTO upg_stored (id, f) SELECT g, bloom_agg(x) FROM generate_series(2, 40) g, generate_series(1, g) x GROUP BY g;
CREATE INDEX upg_stored_hash ON upg_stored USING hash (f);
CREATE INDEX upg_stored_nbits ON upg_stored (((bloom_info(f)).nbits));
CREATE VIEW upg_view AS SELECT id, f @> 7 AS has7, bloom_contains(f, 'x') AS hasx FROM upg_filters;

-- Builder states: made by the transition function, and the 1.0 text form
-- (hex of a raw state holding bloom_hash(5::int8)).
CREATE TABLE upg_states (id int PRIMARY KEY, s bloom_builder);
INSERT INTO upg_states VALUES
  (1, bloom_agg_trans(bloom_agg_trans(bloom_agg_trans(NULL::bloom_builder, 1::int8), 2::int8), 3::int8)),
  (2, '\x424c4d420100010000000000000000007b14ae47e17a843f01000000000000003d59c2d52d0bbe89'::bloom_builder);
SQL
}

# What a user reads from the filled tables: bytes, parameters, probes.
fingerprint() {
    q -d "$1" <<'SQL'
SELECT id, note, md5(f::bytea), octet_length(f::bytea), (bloom_info(f)).*,
       (SELECT string_agg(CASE WHEN bloom_contains(f, v) THEN '1' ELSE '0' END, '' ORDER BY v)
          FROM generate_series(1, 600) v) AS int_probes,
       (SELECT string_agg(CASE WHEN f @> ('k' || v) THEN '1' ELSE '0' END, '' ORDER BY v)
          FROM generate_series(1, 600) v) AS text_probes,
       bloom_contains(f, 'x') AS x, bloom_contains(f, 'p') AS p, bloom_contains(f, 3) AS three
FROM upg_filters ORDER BY id;
SELECT id, md5(f::bytea), card FROM upg_stored ORDER BY id;
SELECT * FROM upg_view ORDER BY id;
SELECT id, md5(bloom_agg_final(s)::bytea), bloom_agg_final(s) @> 5::int8 FROM upg_states ORDER BY id;
SELECT count(*) FROM upg_stored WHERE f = (SELECT f FROM upg_stored WHERE id = 7);
SQL
}

# Every object of the extension with what defines it: same result for an
# updated install and a fresh one means the upgrade script is complete.
signature() {
    q -d "$1" <<'SQL'
WITH members AS (
    SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
    WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'bloomfilter' AND d.deptype = 'e')
SELECT pg_describe_object(classid, objid, 0) || ' | ' || coalesce(CASE classid
    WHEN 'pg_proc'::regclass THEN (
        SELECT concat_ws(' ', prokind, provolatile, proisstrict, proparallel, proleakproof, prosrc,
                         probin, prorettype::regtype, proargnames::text, pg_get_expr(proargdefaults, 0),
                         (SELECT concat_ws(' ', aggtransfn, aggfinalfn, aggcombinefn, aggsortop::regoperator,
                                           aggtranstype::regtype, agginitval)
                            FROM pg_aggregate WHERE aggfnoid = p.oid))
        FROM pg_proc p WHERE p.oid = objid)
    WHEN 'pg_operator'::regclass THEN (
        SELECT concat_ws(' ', oprcode, oprcom::regoperator, oprnegate::regoperator, oprcanmerge,
                         oprcanhash, oprrest, oprjoin) FROM pg_operator WHERE oid = objid)
    WHEN 'pg_cast'::regclass THEN (
        SELECT concat_ws(' ', castfunc::regprocedure, castcontext, castmethod) FROM pg_cast WHERE oid = objid)
    WHEN 'pg_type'::regclass THEN (
        SELECT concat_ws(' ', typinput, typoutput, typreceive, typsend, typalign, typstorage)
        FROM pg_type WHERE oid = objid)
    WHEN 'pg_opclass'::regclass THEN (
        SELECT concat_ws(' ', opcdefault, opcintype::regtype) || ' ' || (
            SELECT string_agg(x, ', ' ORDER BY x) FROM (
                SELECT 'op ' || amopstrategy || ' ' || amopopr::regoperator FROM pg_amop WHERE amopfamily = c.opcfamily
                UNION ALL
                SELECT 'fn ' || amprocnum || ' ' || amproc::regprocedure FROM pg_amproc WHERE amprocfamily = c.opcfamily) s(x))
        FROM pg_opclass c WHERE c.oid = objid)
    END, '') || ' | ' || coalesce(obj_description(objid, classid::regclass::text), '')
FROM members ORDER BY 1;
SQL
}

# ---- 1.0 from its released script, over the library built now ----
dropdb --if-exists upg && createdb upg
if q -d upg -c "CREATE EXTENSION bloomfilter VERSION '1.0'" >"$out/create-1.0.log" 2>&1 &&
    [ "$(q -d upg -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")" = 1.0 ]; then
    pass "CREATE EXTENSION bloomfilter VERSION '1.0' (pg/bloomfilter--1.0.sql alone)"
else
    cat "$out/create-1.0.log"
    fail "CREATE EXTENSION bloomfilter VERSION '1.0'"
fi
# CREATE FUNCTION already resolves C symbols (check_function_bodies); the
# library is checked directly too, so a symbol renamed later is caught here.
lib="$("$PG_CONFIG" --pkglibdir)/bloomfilter.so"
q -d upg -c "SELECT DISTINCT prosrc FROM pg_proc WHERE probin = '\$libdir/bloomfilter' ORDER BY 1" >"$out/symbols-1.0.txt"
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$out/symbols-lib.txt"
missing=$(comm -23 "$out/symbols-1.0.txt" "$out/symbols-lib.txt")
if [ "$(wc -l <"$out/symbols-1.0.txt")" -gt 20 ] && [ -z "$missing" ]; then
    pass "all $(wc -l <"$out/symbols-1.0.txt") C functions of 1.0 are symbols of $lib"
else
    fail "C functions of 1.0 missing from $lib: $missing"
fi

# ---- filled under 1.0, dumped, updated ----
if fill_1_0 upg >"$out/fill.log" 2>&1; then
    pass "tables filled under 1.0: both layouts, seeds, every aggregate, stored, generated, indexed columns, builder states"
else
    cat "$out/fill.log"
    fail "filling tables under 1.0"
fi
fingerprint upg >"$out/before.txt" 2>&1
pg_dump -d upg -f "$out/dump-1.0.sql"
pg_dump -Fc -d upg -f "$out/dump-1.0.custom"

if q -d upg -c "ALTER EXTENSION bloomfilter UPDATE" >"$out/update.log" 2>&1 &&
    [ "$(q -d upg -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")" = "$version" ]; then
    pass "ALTER EXTENSION bloomfilter UPDATE: 1.0 -> $version"
else
    cat "$out/update.log"
    fail "ALTER EXTENSION bloomfilter UPDATE to $version"
fi
fingerprint upg >"$out/after.txt" 2>&1
if [ "$(grep -c . "$out/before.txt")" -ge 60 ] && diff -u "$out/before.txt" "$out/after.txt"; then
    pass "every stored filter reads the same after the update: bytes, parameters, 1,200 probes each, views, indexes, builder states"
else
    fail "stored filters read differently after the update ($out/before.txt, $out/after.txt)"
fi
after_update_works() {
    q -d upg <<'SQL'
SET enable_seqscan = off;
-- the stored columns take the 1.1 btree opclass, and the new functions
-- work on filters stored under 1.0
-- (a btree entry holds at most 2704 bytes: larger filters take a
-- hash-based exclusion constraint instead, docs/POSTGRESQL.md)
CREATE UNIQUE INDEX upg_filters_f ON upg_filters (f) WHERE octet_length(f::bytea) <= 2704;
ALTER TABLE upg_filters ADD EXCLUDE USING hash (f WITH =);
SELECT count(DISTINCT f) = 14 AND min(f) < max(f) FROM upg_filters;
SELECT bloom_fold(f, 500) @> 'k1'::text FROM upg_filters WHERE id = 5;
SELECT bloom_contains_all(f, ARRAY[1, 2, 500]) AND NOT bloom_contains_any(f, ARRAY[-1, -2]) FROM upg_filters WHERE id = 6;
SELECT bloom_add_all(f, ARRAY['a', 'b']) @> 'b'::text FROM upg_filters WHERE id = 1;
-- 1.2's index access method over the filters stored under 1.0
CREATE INDEX upg_filters_bitslice ON upg_filters USING bloom_bitslice (f);
SET enable_bitmapscan = off;
CREATE TEMP TABLE scanned AS SELECT v, array_agg(id ORDER BY id) AS ids
FROM upg_filters, unnest(ARRAY['x', 'p', 'k1', 'k7']) v WHERE f @> v GROUP BY v;
RESET enable_bitmapscan;
SELECT array_agg(i.v || ':' || i.ids::text ORDER BY i.v) = array_agg(s.v || ':' || s.ids::text ORDER BY s.v)
FROM (SELECT v, array_agg(id ORDER BY id) AS ids FROM upg_filters, unnest(ARRAY['x', 'p', 'k1', 'k7']) v
      WHERE f @> v GROUP BY v) i JOIN scanned s USING (v);
SQL
}
after_update_works >"$out/after-update.log" 2>&1
if [ "$(tr '\n' ' ' <"$out/after-update.log")" = "t t t t t " ]; then
    pass "1.1 functions, the btree opclass and 1.2's bloom_bitslice index work on filters stored under 1.0"
else
    cat "$out/after-update.log"
    fail "1.1 functions on filters stored under 1.0"
fi

dropdb --if-exists upg_fresh && createdb upg_fresh && q -d upg_fresh -c "CREATE EXTENSION bloomfilter"
signature upg >"$out/objects-updated.txt" 2>&1
signature upg_fresh >"$out/objects-fresh.txt" 2>&1
if [ "$(wc -l <"$out/objects-fresh.txt")" -gt 100 ] &&
    diff -u "$out/objects-fresh.txt" "$out/objects-updated.txt"; then
    pass "the updated extension has the $(wc -l <"$out/objects-fresh.txt") objects of a fresh install, alike (volatility, strictness, parallel safety, operators, opclasses, casts, comments)"
else
    fail "the updated extension differs from a fresh install ($out/objects-*.txt)"
fi

# The whole regression suite against a database whose extension was
# installed as 1.0 and updated (pg_regress's own database settings).
dropdb --if-exists upg_regress && createdb -T template0 upg_regress
q -d upg_regress -c "ALTER DATABASE upg_regress SET lc_messages TO 'C'" \
    -c "ALTER DATABASE upg_regress SET lc_monetary TO 'C'" -c "ALTER DATABASE upg_regress SET lc_numeric TO 'C'" \
    -c "ALTER DATABASE upg_regress SET lc_time TO 'C'" -c "ALTER DATABASE upg_regress SET bytea_output TO 'hex'" \
    -c "ALTER DATABASE upg_regress SET timezone_abbreviations TO 'Default'" \
    -c "CREATE EXTENSION bloomfilter VERSION '1.0'" -c "ALTER EXTENSION bloomfilter UPDATE"
pg_regress="$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress"
tests=$(ls sql/*.sql | xargs -n1 basename | sed 's/\.sql$//')
# in the groups of sql/schedule, as make installcheck runs them (the pg
# suite fails on a test it lacks)
if "$pg_regress" --inputdir=. --outputdir="$out/regress" --use-existing --dbname=upg_regress \
    --bindir="$("$PG_CONFIG" --bindir)" --schedule=sql/schedule >"$out/regress.log" 2>&1 &&
    [ "$(grep -cE '^((test +| +)[a-z_0-9]+ +\.\.\. ok|ok +[0-9]+ +[-+] )' "$out/regress.log")" -eq "$(echo $tests | wc -w)" ]; then
    pass "pg_regress: all $(echo $tests | wc -w) tests pass on an extension updated from 1.0"
else
    grep -E '^(test |not ok)' "$out/regress.log" | grep -v ' ok '
    head -n 40 "$out/regress/regression.diffs" 2>/dev/null
    fail "pg_regress on an extension updated from 1.0"
fi

# ---- 1.1 -> the default version: every value-taking call on every type of
# tools/overloads.py's list answers as it did under 1.1 (tests/upgrade/types.sql) ----
dropdb --if-exists upg_types && createdb upg_types
q -d upg_types -c "CREATE EXTENSION bloomfilter VERSION '1.1'" -f tests/upgrade/types.sql >"$out/types-1.1.log" 2>&1
if q -d upg_types -c "ALTER EXTENSION bloomfilter UPDATE" -f tests/upgrade/types.sql >"$out/types-updated.log" 2>&1 &&
    grep -qE '^[0-9]{3,} calls of 1\.1: [0-9]+ answered as before, 0 answered differently, [0-9]+ refused before, 0 refused now$' \
        "$out/types-updated.log"; then
    pass "1.1 -> $version: $(head -n 1 "$out/types-updated.log")"
else
    cat "$out/types-1.1.log" "$out/types-updated.log"
    fail "calls answer differently after the update from 1.1 ($out/types-*.log)"
fi

# ---- a dump taken under 1.0 restores under the default version ----
restored_same() { # DB
    [ "$(q -d "$1" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter'")" = "$version" ] &&
        fingerprint "$1" >"$out/restored-$1.txt" 2>&1 &&
        diff -u "$out/before.txt" "$out/restored-$1.txt"
}
restore_plain() {
    dropdb --if-exists upg_plain && createdb upg_plain &&
        q -d upg_plain -f "$out/dump-1.0.sql" >"$out/restore-plain.log" 2>&1 &&
        restored_same upg_plain
}
restore_custom() {
    dropdb --if-exists upg_custom && createdb upg_custom &&
        pg_restore --exit-on-error -d upg_custom "$out/dump-1.0.custom" >"$out/restore-custom.log" 2>&1 &&
        restored_same upg_custom
}
check "a plain pg_dump taken under 1.0 restores under $version, every filter the same" restore_plain
check "a custom-format pg_dump taken under 1.0 restores under $version, every filter the same" restore_custom

# ---- trusted: a database owner without superuser ----
owner=bloom_owner
owner_pw=$(od -An -tx8 -N8 /dev/urandom | tr -d ' ')
as_owner() { PGUSER=$owner PGPASSWORD=$owner_pw q -d upg_trusted "$@"; }
q -d postgres -c "DROP DATABASE IF EXISTS upg_trusted" -c "DROP ROLE IF EXISTS $owner" \
    -c "CREATE ROLE $owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$owner_pw'" \
    -c "CREATE DATABASE upg_trusted OWNER $owner"
check "the control file marks the extension trusted" \
    test "$(q -d postgres -c "SELECT bool_and(trusted) FROM pg_available_extension_versions WHERE name = 'bloomfilter'")" = t
# Operators a user may plant in the schema the extension goes into: an
# install script that wrote an unqualified = with these argument types
# would run them as superuser.
as_owner >"$out/plant.log" 2>&1 <<'SQL'
CREATE TABLE public.planted_calls (who text);
CREATE FUNCTION public.planted(oid, regtype) RETURNS boolean LANGUAGE plpgsql
    AS $$ BEGIN INSERT INTO public.planted_calls VALUES (current_user); RETURN false; END $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regtype, FUNCTION = public.planted);
CREATE FUNCTION public.planted(oid, regoperator) RETURNS boolean LANGUAGE plpgsql
    AS $$ BEGIN INSERT INTO public.planted_calls VALUES (current_user); RETURN false; END $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regoperator, FUNCTION = public.planted);
SQL
check "a database owner without superuser: CREATE EXTENSION bloomfilter" \
    as_owner -c "CREATE EXTENSION bloomfilter"
trusted_use() {
    as_owner <<'SQL'
CREATE TABLE sig (id int, f bloom UNIQUE);
INSERT INTO sig SELECT g, bloom_agg(x) FROM generate_series(1, 20) g, generate_series(1, g) x GROUP BY g;
SELECT count(DISTINCT f), bool_and(bloom_contains(f, id)), min(f) < max(f) FROM sig;
SELECT bloom_fold(bloom_add(bloom_empty_mk(1024, 3), 3), 512) @> 3;
SELECT bloom_contains_all(bloom_add_all(bloom_empty(100), ARRAY[1, 2]), ARRAY[1, 2]);
SQL
}
trusted_use >"$out/trusted-use.log" 2>&1
if [ "$(tr '\n' ' ' <"$out/trusted-use.log")" = "20|t|t t t " ]; then
    pass "the database owner uses it: a UNIQUE bloom column, aggregates, ordering, fold, arrays"
else
    cat "$out/trusted-use.log"
    fail "the database owner using the extension"
fi
check "the database owner updates it: DROP, CREATE VERSION '1.0', ALTER EXTENSION UPDATE" \
    as_owner -c "DROP EXTENSION bloomfilter CASCADE" -c "CREATE EXTENSION bloomfilter VERSION '1.0'" \
    -c "ALTER EXTENSION bloomfilter UPDATE"
check "the planted operators never ran, and the owner is still no superuser" \
    test "$(as_owner -c "SELECT count(*) FROM public.planted_calls" -c "SELECT rolsuper FROM pg_roles WHERE rolname = current_user" | tr '\n' ' ')" = "0 f "
# The owner cannot change the extension's C functions (owned by the bootstrap superuser).
if as_owner -c "CREATE OR REPLACE FUNCTION bloom_version() RETURNS text LANGUAGE sql AS 'SELECT 1::text'" \
    >"$out/replace.log" 2>&1; then
    fail "the database owner replaced an extension function"
elif grep -q "must be owner of function bloom_version" "$out/replace.log"; then
    pass "the database owner cannot replace the extension's functions (must be owner)"
else
    cat "$out/replace.log"
    fail "replacing an extension function failed for another reason"
fi
# Sizes a user asks for are refused before any allocation.
too_large() { # SQL: refused with program_limit_exceeded
    local state
    state=$(as_owner -c "\\set VERBOSITY verbose" -c "$1" 2>&1 | sed -n 's/^ERROR: *\([0-9A-Z]\{5\}\):.*/\1/p')
    [ "$state" = 54000 ]
}
check "bloom_empty(10^12) is refused before allocating (54000)" too_large "SELECT bloom_empty(1000000000000)"
check "bloom_empty_mk(2^40 bits) is refused before allocating (54000)" too_large "SELECT bloom_empty_mk(1099511627776, 3)"
check "bloom_agg(value, 10^12, 0.01) is refused before allocating (54000)" too_large "SELECT bloom_agg(1, 1000000000000, 0.01)"

tl_end
