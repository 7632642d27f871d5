#!/usr/bin/env bash
# scope: all majors
# The Debian packages: `make deb` for the majors under test (lintian: no
# error, no warning), then each used as a user would have it:
#   - libsqlite3-mod-bloomfilter installed on this machine with apt-get,
#     then the SQLite SQL tests and the Python client against it, loaded by
#     name (never the tree's build);
#   - postgresql-MAJOR-bloomfilter installed by dpkg into a copy of that
#     major's server (tools/postgres.sh) that has a dpkg database of its own
#     (Debian 12 has no server but 15, and the machine's own PostgreSQL is
#     left alone); the first major's runs pg_regress and the upgrade
#     checks against it, every other major's a short check that its module
#     loads and works (the pg suite runs pg_regress on each major, from the
#     same sources); for 15, apt-get --simulate shows that Debian 12
#     installs it as it is.
# Ends with "packages: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin packages
# Installing replaces the machine's SQLite module: one clone at a time.
[ -n "${BLOOM_PACKAGES_LOCKED:-}" ] || BLOOM_PACKAGES_LOCKED=1 exec flock /tmp/bloomfilter-packages.lock "$0" "$@"
out=$TL_OUT
majors=${PG:-$(pg_majors | tr '\n' ' ')}
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)

# ---- build ----
# What make deb made of these very sources (the tracked files as they are
# in the work tree, the majors and their servers, the build tools) is kept
# beside the servers' cache, outside the clone: another run or clone of the
# same tree tests the same packages without building them again
# (BLOOM_DEB_CACHE=off builds them anyway).
cache=$(tools/postgres.sh --cache)
key=$({
    git ls-files -z | xargs -0 sha256sum 2>/dev/null
    echo "$majors"
    for m in $majors; do echo "$m $(cat "$cache/$m/complete" 2>/dev/null)"; done
    dpkg-query -W gcc clang dpkg-dev debhelper lintian postgresql-server-dev-all 2>/dev/null
} | sha256sum | cut -c1-16)
debs=$cache/../debs/$key
if [ "${BLOOM_DEB_CACHE:-}" != off ] && [ -f "$debs/complete" ]; then
    rm -rf build/deb
    mkdir -p build/deb
    cp -a "$debs"/. build/deb/
    rm -f build/deb/complete
    built="made earlier of these same sources, kept in $(cd "$debs" && pwd)"
elif PG="$majors" tools/build-deb.sh >"$out/build.log" 2>&1; then
    rm -rf "$debs.tmp.$$"
    mkdir -p "$debs.tmp.$$"
    find build/deb -maxdepth 1 -type f -exec cp -a {} "$debs.tmp.$$"/ \;
    touch "$debs.tmp.$$/complete"
    rm -rf "$debs"
    mv "$debs.tmp.$$" "$debs"
    # the newest few trees' packages
    ls -dt "$cache"/../debs/*/ | tail -n +6 | xargs -r rm -rf
    built="built now"
fi
if [ -n "${built:-}" ]; then
    pass "make deb builds $(ls build/deb/*.deb | grep -vc dbgsym) packages ($built): $(cd build/deb && ls *.deb | grep -v dbgsym | sed 's/_.*//' | tr '\n' ' ')"
else
    tail -n 40 "$out/build.log"
    fail "make deb"
    tl_end
fi
if grep -E '^[EW]:' build/deb/lintian.txt; then
    fail "lintian: errors or warnings (above; build/deb/lintian.txt)"
else
    pass "lintian: no errors, no warnings ($(grep -c '^[IP]:' build/deb/lintian.txt) info/pedantic notes)"
fi

# ---- SQLite, installed on this machine, loaded by name ----
sqlite_pkg=$(ls build/deb/libsqlite3-mod-bloomfilter_*.deb)
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
# --reinstall: the same version may be installed already, from an older tree.
if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --reinstall "$PWD/$sqlite_pkg" >"$out/install.log" 2>&1; then
    pass "apt-get install $(basename "$sqlite_pkg")"
else
    cat "$out/install.log"
    fail "apt-get install of the SQLite package"
fi
if dpkg --verify libsqlite3-mod-bloomfilter >"$out/verify.log" 2>&1 && [ ! -s "$out/verify.log" ]; then
    pass "dpkg --verify: the installed SQLite module is the package's"
else
    cat "$out/verify.log"
    fail "dpkg --verify libsqlite3-mod-bloomfilter"
fi
by_name=$(cd / && sqlite3 -batch :memory: "SELECT load_extension('bloomfilter'); SELECT bloom_version();" 2>&1)
if [ "$by_name" = "$(printf '\n%s' "$version")" ]; then
    pass "sqlite3: load_extension('bloomfilter') finds the installed module ($version)"
else
    fail "sqlite3: load_extension('bloomfilter') gave: $by_name"
fi
for script in sqlite/tests/sql/*.sql; do
    name=$(basename "$script" .sql)
    installed=$out/sqlite-$name.sql
    sed 's#^\.load build/bloomfilter$#.load bloomfilter#' "$script" >"$installed"
    if ! grep -qx '.load bloomfilter' "$installed"; then
        fail "sqlite $name: no '.load build/bloomfilter' line to point at the installed module"
        continue
    fi
    stdbuf -o0 sqlite3 -batch :memory: <"$installed" >"$out/sqlite-$name.out" 2>&1
    if diff -u "sqlite/tests/expected/$name.out" "$out/sqlite-$name.out" >"$out/sqlite-$name.diff"; then
        pass "sqlite $name against the installed module"
    else
        head -n 30 "$out/sqlite-$name.diff"
        fail "sqlite $name against the installed module"
    fi
done
if (cd / && /usr/bin/python3 "$OLDPWD/sqlite/tests/test_python.py" bloomfilter) >"$out/python.log" 2>&1; then
    pass "python sqlite3 client, load_extension('bloomfilter') ($(tail -n 1 "$out/python.log"))"
else
    cat "$out/python.log"
    fail "python sqlite3 client against the installed module"
fi

# ---- PostgreSQL: each major's package in a copy of that major's server ----
# Two majors at a time (each its own root, clusters and log); each prints
# ok/FAILED lines to its log, counted here in the order of the majors.
# pg_regress and the upgrade checks (pg_dump of 1.0, trusted install, the
# chain) run against the first major's package.  Every other package ships
# the same SQL scripts (checked byte for byte) and its module is built from
# the same sources that the pg suite's pg_regress checks on that major: what
# is left to check there is that the package's module is the one that loads
# and works, through the chain from 1.0 and through the plugins link.
. tools/pgclusters.sh
first_major=${majors%% *}
filter_hex=$(sqlite3 -batch :memory: "SELECT load_extension('bloomfilter');" \
    "SELECT lower(hex(bloom_add(bloom_add(bloom_empty_mk(256, 3), 'x'), 'bloom')));" | tail -n 1)
regress_package() { # MAJOR: pg_regress against the installed package
    local major=$1 regress_ok regress_failed tests
    # installcheck runs pg_regress against what is installed; it builds and
    # installs nothing.  Its results go to a directory of their own: the
    # pg suite may run on the same major meanwhile, in build/pg/MAJOR.
    (
        pgc_setup packages-"$major"
        pgc_start main || exit 1
        pgc_env main
        make --no-print-directory PG_CONFIG="$PG_CONFIG" PG_BUILD_DIR="$out/regress-$major" installcheck
    ) >"$out/pg-regress-$major.log" 2>&1
    regress_ok=$(grep -cE '^((test +| +)[a-z_0-9]+ +\.\.\. ok|ok +[0-9]+ +[-+] )' "$out/pg-regress-$major.log")
    regress_failed=$(grep -cE '^((test +| +)[a-z_0-9]+ +\.\.\. FAILED|not ok +[0-9]+ )' "$out/pg-regress-$major.log")
    tests=$(ls sql/*.sql | wc -l)
    if [ "$regress_ok" -eq "$tests" ] && [ "$regress_failed" -eq 0 ]; then
        pass "PostgreSQL $major: pg_regress, all $tests tests, against the installed package"
    else
        grep -E '^(test |not ok )' "$out/pg-regress-$major.log" | grep -v ' ok '
        head -n 40 "$out/regress-$major/regression.diffs" 2>/dev/null
        fail "PostgreSQL $major: pg_regress against the installed package ($regress_ok of $tests ok)"
    fi
}
smoke_package() { # MAJOR: the installed package's module loads and works
    local major=$1 got want
    # A value from each step, one a line: the version reached through the
    # chain from 1.0, a filter built by the aggregate and probed for every
    # value it holds, a filter's bytes (the installed SQLite module's), and
    # the setting that only the loaded module defines, in a database
    # owner's session that LOADed it from $libdir/plugins.
    want=$(printf '%s\n' "$version" 20000 "$filter_hex" on)
    got=$(
        pgc_setup packages-"$major"
        pgc_start main || exit 1
        pgc_env main
        "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 2>&1 <<'SQL' || exit 1
CREATE EXTENSION bloomfilter VERSION '1.0';
ALTER EXTENSION bloomfilter UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';
CREATE TABLE f AS SELECT bloom_agg(g, 20000, 0.01) AS f FROM generate_series(1, 20000) g;
SELECT count(*) FROM f, generate_series(1, 20000) g WHERE bloom_contains(f.f, g);
SELECT encode(bloom_add(bloom_add(bloom_empty_mk(256, 3), 'x'::text), 'bloom'::text)::bytea, 'hex');
CREATE ROLE app_owner LOGIN NOSUPERUSER;
CREATE DATABASE app OWNER app_owner;
SQL
        "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -U app_owner -d app 2>&1 <<'SQL'
LOAD '$libdir/plugins/bloomfilter';
SHOW bloomfilter.runtime_filter;
SQL
    )
    echo "$got" >"$out/smoke-$major.log"
    if [ "$got" = "$want" ]; then
        pass "PostgreSQL $major: the installed package's module works: CREATE EXTENSION 1.0 and the chain to $version, bloom_agg of 20000 values finds each, a database owner LOADs it from \$libdir/plugins"
    else
        printf 'wanted:\n%s\ngot:\n%s\n' "$want" "$got"
        fail "PostgreSQL $major: the installed package's module (see $out/smoke-$major.log)"
    fi
}
check_package() { # MAJOR: ok/FAILED lines
    local major=$1 pkg cache_bin root line f missing
    pkg=$(ls build/deb/postgresql-"$major"-bloomfilter_*.deb 2>/dev/null | head -n 1)
    [ -n "$pkg" ] || { fail "PostgreSQL $major: no package postgresql-$major-bloomfilter"; return; }
    if [ "$major" = 15 ]; then
        if DEBIAN_FRONTEND=noninteractive $sudo apt-get install --simulate -qq "$PWD/$pkg" >"$out/simulate-15.log" 2>&1; then
            pass "PostgreSQL 15: apt-get install ./$(basename "$pkg") resolves on Debian 12 (simulated)"
        else
            cat "$out/simulate-15.log"
            fail "PostgreSQL 15: apt-get --simulate install of $(basename "$pkg")"
        fi
    fi
    # The package needs its major, not the newest point release of it
    # (debian/minor_versions says why).
    local depends
    depends=$(dpkg-deb -f "$pkg" Depends)
    if echo "$depends" | grep -qE "(^|, )postgresql-$major(,|$)"; then
        pass "PostgreSQL $major: the package depends on postgresql-$major, any point release ($depends)"
    else
        fail "PostgreSQL $major: Depends: $depends (wanted postgresql-$major without a point release)"
    fi
    if dpkg-deb -c "$pkg" | grep -q "usr/lib/postgresql/$major/lib/plugins/bloomfilter.so -> ../bloomfilter.so"; then
        pass "PostgreSQL $major: the package links \$libdir/plugins/bloomfilter.so (LOAD by a database owner)"
    else
        fail "PostgreSQL $major: no \$libdir/plugins/bloomfilter.so link in the package"
    fi
    cache_bin=$(tools/postgres.sh "$major" 2>>"$out/postgres-$major.log" | tail -n 1)
    root=$(tools/postgres.sh --cache)/installs/packages-$(echo "$TL_ROOT" | md5sum | cut -c1-12)/$major
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    cp -al "${cache_bin%/usr/lib/postgresql/$major/bin}" "$root" 2>/dev/null ||
        cp -a "${cache_bin%/usr/lib/postgresql/$major/bin}" "$root"
    mkdir -p "$root"/var/lib/dpkg/info "$root"/var/lib/dpkg/updates "$root"/var/lib/dpkg/triggers
    touch "$root"/var/lib/dpkg/status "$root"/var/lib/dpkg/available
    # --force-depends: this root's dpkg database knows no server package.
    if dpkg --root="$root" --force-depends --force-not-root -i "$pkg" >"$out/dpkg-$major.log" 2>&1 &&
        dpkg --root="$root" --verify "postgresql-$major-bloomfilter" >>"$out/dpkg-$major.log" 2>&1; then
        pass "PostgreSQL $major: dpkg installs $(basename "$pkg") into a $major server, its files verify"
    else
        cat "$out/dpkg-$major.log"
        fail "PostgreSQL $major: dpkg install of $(basename "$pkg")"
        return
    fi
    missing=
    for f in pg/bloomfilter--*.sql bloomfilter.control; do
        cmp -s "$f" "$root/usr/share/postgresql/$major/extension/$(basename "$f")" || missing+=" $(basename "$f")"
    done
    check "PostgreSQL $major: the package ships the tree's control file and every SQL script${missing:+ (differ or missing:$missing)}" \
        test -z "$missing"
    PG_BIN=$root/usr/lib/postgresql/$major/bin PG_CONFIG=$root/usr/lib/postgresql/$major/bin/pg_config
    export PG_BIN PG_CONFIG
    if [ "$major" = "$first_major" ]; then
        regress_package "$major"
    else
        smoke_package "$major"
    fi
    if [ "$major" = "$first_major" ]; then
        PG=$major tools/suites/60-upgrade.sh --installed >"$out/upgrade-$major.log" 2>&1
        line=$(grep -E '^upgrade: [0-9]+ passed, [0-9]+ failed' "$out/upgrade-$major.log")
        if [ -n "$line" ] && [ "$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')" -eq 0 ]; then
            pass "PostgreSQL $major: the upgrade checks against the installed package ($line)"
        else
            grep -E '^FAILED - ' "$out/upgrade-$major.log"
            tail -n 5 "$out/upgrade-$major.log"
            fail "PostgreSQL $major: the upgrade checks against the installed package"
        fi
    fi
    rm -rf "$root"
}
# In order: the oldest job is waited for (and its lines shown) before the
# third starts.
pids=() started=()
for major in $majors; do
    if [ "${#pids[@]}" -ge 2 ]; then
        wait "${pids[0]}"
        count_lines "$out/package-${started[0]}.log"
        pids=("${pids[@]:1}") started=("${started[@]:1}")
    fi
    note "PostgreSQL $major: checking its package"
    (check_package "$major" >"$out/package-$major.log" 2>&1) &
    pids+=($!) started+=("$major")
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    count_lines "$out/package-${started[$i]}.log"
done
tl_end
