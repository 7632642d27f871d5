#!/usr/bin/env bash
# The Debian packages: `make deb` (lintian: no error, no warning), installed
# on this machine with apt-get, then run as a user would have them: the
# pg_regress suite and the upgrade checks against the installed
# postgresql-15-bloomfilter, the SQLite SQL tests and the Python client
# against libsqlite3-mod-bloomfilter loaded by name (never the tree's build).
# Installing replaces the machine's PostgreSQL extension files, so the whole
# suite holds the PostgreSQL lock.
# Ends with "packages: N passed, M failed"; exit 1 on any failure.
set -u
cd "$(dirname "$0")/../.."
[ -n "${BLOOM_PG_LOCKED:-}" ] || BLOOM_PG_LOCKED=1 exec flock /tmp/bloomfilter-pg.lock "$0" "$@"
export BLOOM_PG_LOCKED

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAILED - $1"; }
finish() {
    echo "packages: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
out=build/packages
rm -rf "$out"
mkdir -p "$out"
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)

# ---- build ----
# nocheck: the build's own pg_regress run (dh_pgxs_test) would repeat the
# run against the installed package below.
if DEB_BUILD_OPTIONS=nocheck tools/build-deb.sh >"$out/build.log" 2>&1; then
    pass "make deb builds $(ls build/deb/*.deb | grep -vc dbgsym) packages"
else
    tail -n 40 "$out/build.log"
    fail "make deb"
    finish
fi
if grep -E '^[EW]:' build/deb/lintian.txt; then
    fail "lintian: errors or warnings (above; build/deb/lintian.txt)"
else
    pass "lintian: no errors, no warnings ($(grep -c '^[IP]:' build/deb/lintian.txt) info/pedantic notes)"
fi

# ---- install ----
pg_pkg=$(ls build/deb/postgresql-*-bloomfilter_*.deb | grep -v dbgsym)
sqlite_pkg=$(ls build/deb/libsqlite3-mod-bloomfilter_*.deb)
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
# --reinstall: the same version may be installed already, from an older tree.
if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --reinstall \
    "$PWD/$pg_pkg" "$PWD/$sqlite_pkg" >"$out/install.log" 2>&1; then
    pass "apt-get install $(basename "$pg_pkg") $(basename "$sqlite_pkg")"
else
    cat "$out/install.log"
    fail "apt-get install of the packages"
    finish
fi
packages="$(dpkg-deb -f "$pg_pkg" Package) libsqlite3-mod-bloomfilter"
# Every installed file is the package's own, byte for byte (not a `make
# install` from a tree), so the tests below run the packaged code.
if dpkg --verify $packages >"$out/verify.log" 2>&1 && [ ! -s "$out/verify.log" ]; then
    pass "dpkg --verify: the installed files are the packages'"
else
    cat "$out/verify.log"
    fail "dpkg --verify"
fi

# ---- SQLite, loaded by name ----
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

# ---- PostgreSQL: the installed extension ----
# installcheck runs pg_regress against what is installed; it builds and
# installs nothing.
rm -f regression.diffs regression.out
pg_virtualenv -t -v 15 make --no-print-directory installcheck >"$out/pg-regress.log" 2>&1
grep -E '^(test |ok |not ok )' "$out/pg-regress.log"
[ -f regression.diffs ] && head -n 60 regression.diffs
regress_ok=$(grep -cE '^(test +[a-z_0-9]+ +\.\.\. ok|ok +[0-9]+ +[-+] )' "$out/pg-regress.log")
regress_failed=$(grep -cE '^(test +[a-z_0-9]+ +\.\.\. FAILED|not ok +[0-9]+ )' "$out/pg-regress.log")
expected_tests=$(ls sql/*.sql | wc -l)
passed=$((passed + regress_ok))
failed=$((failed + regress_failed))
if [ $((regress_ok + regress_failed)) -ne "$expected_tests" ]; then
    tail -n 20 "$out/pg-regress.log"
    fail "pg_regress ran $((regress_ok + regress_failed)) of $expected_tests tests"
fi
if [ -x tools/suites/60-upgrade.sh ]; then
    tools/suites/60-upgrade.sh --installed >"$out/upgrade.log" 2>&1
    grep -E '^(ok|FAILED) ' "$out/upgrade.log"
    line=$(grep -E '^upgrade: [0-9]+ passed, [0-9]+ failed' "$out/upgrade.log")
    if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
        failed=$((failed + $(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')))
    else
        tail -n 20 "$out/upgrade.log"
        fail "upgrade checks against the installed extension did not finish"
    fi
fi
finish
