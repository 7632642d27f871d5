#!/usr/bin/env bash
# scope: each major
# The extension for users who are not the server's superuser, on one major:
#   - runtime filters for a database owner: `make install` puts a link to the
#     module in $libdir/plugins, where LOAD works without superuser; the owner
#     (not a superuser, the extension created as trusted) loads it for a
#     session, or for every session of the database (local_preload_libraries),
#     and the planner's runtime filter then appears in a plan; LOAD of the
#     library by its plain name stays refused to that role, as PostgreSQL has it.
#   - PostgreSQL 18 and later: `make install DESTDIR=DIR`, run by a user who
#     is not root, into a directory of that user's own, and a server whose
#     extension_control_path and dynamic_library_path point there; the
#     server's own directories hold no bloomfilter at all (a pristine tree).
# Ends with "user-install: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin user-install
major=$(pg_major)
pg_use
. tools/pgclusters.sh
pgc_setup user-install
pgc_start main || { fail "start of a PostgreSQL $major server"; tl_end; }
pgc_env main

check "make install links \$libdir/plugins/bloomfilter.so to the module" \
    test "$(readlink "$("$PG_CONFIG" --pkglibdir)/plugins/bloomfilter.so")" = ../bloomfilter.so

psql -qX -v ON_ERROR_STOP=1 >"$TL_OUT/setup.log" 2>&1 <<'SQL' || { cat "$TL_OUT/setup.log"; fail "owner and database set-up"; tl_end; }
CREATE ROLE app_owner LOGIN NOSUPERUSER;
CREATE DATABASE app OWNER app_owner;
SQL

owner_psql() { psql -X -v ON_ERROR_STOP=1 -U app_owner -d app "$@"; }
# A join whose plan takes a runtime filter (the probe side is large, the
# build side selective), made by the owner.
owner_psql -q >"$TL_OUT/tables.log" 2>&1 <<'SQL' || { cat "$TL_OUT/tables.log"; fail "the owner's tables"; tl_end; }
CREATE EXTENSION bloomfilter;
CREATE TABLE big AS SELECT g AS k, g % 97 AS v FROM generate_series(1, 200000) g;
CREATE TABLE small AS SELECT g * 40 AS k, CASE WHEN g % 10 = 0 THEN 'north' ELSE 'south' END AS region
    FROM generate_series(1, 5000) g;
ANALYZE big; ANALYZE small;
SQL
join_plan="EXPLAIN (COSTS OFF) SELECT b.k, b.v FROM big b JOIN small s ON s.k = b.k WHERE s.region = 'north';"

if owner_psql -c "LOAD 'bloomfilter'" >"$TL_OUT/load-plain.log" 2>&1; then
    fail "LOAD 'bloomfilter' by a non-superuser succeeded: PostgreSQL refuses it outside \$libdir/plugins"
else
    check "LOAD 'bloomfilter' by a non-superuser is refused (access to library)" \
        grep -q 'access to library' "$TL_OUT/load-plain.log"
fi
owner_psql >"$TL_OUT/load-plugins.log" 2>&1 <<SQL
LOAD '\$libdir/plugins/bloomfilter';
$join_plan
SQL
if grep -q 'Runtime Filter' "$TL_OUT/load-plugins.log"; then
    pass "the database owner loads \$libdir/plugins/bloomfilter and gets a runtime filter"
else
    cat "$TL_OUT/load-plugins.log"
    fail "LOAD '\$libdir/plugins/bloomfilter' as the database owner: no runtime filter in the plan"
fi
owner_psql -c "EXPLAIN (COSTS OFF) SELECT 1" -c "$join_plan" >"$TL_OUT/no-load.log" 2>&1
check "without the library, the same session kind plans no runtime filter" \
    bash -c "! grep -q 'Runtime Filter' '$TL_OUT/no-load.log'"
owner_psql -q -c "ALTER DATABASE app SET local_preload_libraries = 'bloomfilter'" >"$TL_OUT/preload.log" 2>&1 &&
    owner_psql -c "$join_plan" >>"$TL_OUT/preload.log" 2>&1
if grep -q 'Runtime Filter' "$TL_OUT/preload.log"; then
    pass "ALTER DATABASE ... SET local_preload_libraries = 'bloomfilter' by the owner: runtime filters in new sessions"
else
    cat "$TL_OUT/preload.log"
    fail "local_preload_libraries set by the owner: no runtime filter"
fi
# The module loaded by both names in one session is one library: no second
# _PG_init (which would fail registering its settings again).
owner_psql >"$TL_OUT/both.log" 2>&1 <<'SQL'
SELECT bloom_contains(bloom_add(bloom_empty(10), 1), 1);
LOAD '$libdir/plugins/bloomfilter';
SHOW bloomfilter.runtime_filter;
SQL
check "the module called through the extension, then LOADed from plugins: one library" test $? -eq 0

if [ "$major" -ge 18 ]; then
    # A pristine server tree (a copy of the cached one, hard links, with
    # whatever bloomfilter a hand-run install left in the cache unlinked from
    # the copy) and a directory of a non-root user's own.
    cache_bin=$("$TL_ROOT/tools/postgres.sh" "$major" 2>/dev/null | tail -n 1)
    copy=$PGC_DIR/pristine
    cp -al "${cache_bin%/usr/lib/postgresql/$major/bin}" "$copy" 2>/dev/null ||
        cp -a "${cache_bin%/usr/lib/postgresql/$major/bin}" "$copy"
    pristine=$copy/usr/lib/postgresql/$major/bin
    rm -rf "$("$pristine/pg_config" --sharedir)"/extension/bloomfilter* \
        "$("$pristine/pg_config" --pkglibdir)"/bloomfilter.so "$("$pristine/pg_config" --pkglibdir)"/plugins
    userdir=$PGC_DIR/home-ext
    pgc_as_owner mkdir -p "$userdir"
    # DESTDIR, not prefix=: a server laid out as Debian's has absolute
    # directories that prefix does not move.
    if pgc_as_owner make --no-print-directory PG_CONFIG="$pristine/pg_config" install DESTDIR="$userdir" \
        >"$TL_OUT/destdir-install.log" 2>&1; then
        pass "make install DESTDIR=DIR as a user who is not root (PostgreSQL $major)"
    else
        tail -n 20 "$TL_OUT/destdir-install.log"
        fail "make install DESTDIR=DIR as a user who is not root"
    fi
    control=$(find "$userdir" -name bloomfilter.control | head -n 1)
    module=$(find "$userdir" -name bloomfilter.so -not -path '*/plugins/*' | head -n 1)
    sharedir=$(dirname "$(dirname "$control")")
    libdir=$(dirname "$module")
    check "the pristine server has no bloomfilter of its own" \
        test ! -e "$("$pristine/pg_config" --sharedir)/extension/bloomfilter.control"
    saved_bin=$PG_BIN
    PG_BIN=$pristine
    if pgc_start userext "extension_control_path='$sharedir:\$system'" "dynamic_library_path='$libdir:\$libdir'"; then
        PGPORT=$(pgc_port userext) psql -X -v ON_ERROR_STOP=1 >"$TL_OUT/userext.log" 2>&1 <<'SQL'
CREATE EXTENSION bloomfilter;
SELECT bloom_version(), bloom_contains(bloom_add(bloom_empty(100), 42), 42) AS found;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
SQL
        if grep -q ' t$' "$TL_OUT/userext.log" && grep -q '1\.2' "$TL_OUT/userext.log"; then
            pass "extension_control_path and dynamic_library_path: CREATE EXTENSION from the user's directory"
        else
            cat "$TL_OUT/userext.log"
            fail "CREATE EXTENSION from the user's directory (extension_control_path)"
        fi
    else
        fail "start of a server with extension_control_path"
    fi
    PG_BIN=$saved_bin
else
    skip "extension_control_path: PostgreSQL $major has none (18 and later)"
fi
tl_end
