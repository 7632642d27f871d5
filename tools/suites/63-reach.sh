#!/usr/bin/env bash
# scope: once
# What a user installs without building from the repository, each made by its
# make target and installed into a clean place:
#   - make wheel: the wheel in a fresh virtual environment whose PATH has no
#     compiler, offline; import, load(conn) into sqlite3, the README's Python
#     example, the package's SQLite tests; then the psycopg adapters' tests
#     against a server (a venv that sees Debian's psycopg), the same wheel;
#   - make npm: the package installed into an empty npm project, loaded into
#     better-sqlite3 (and node:sqlite where this Node has it);
#   - make dist: the PGXN archive unpacked, built and installed from there
#     into a server of the first major, CREATE EXTENSION.
# Ends with "reach: N passed, M failed[, K skipped]"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin reach
tools/install-deps.sh --quiet python
out=$PWD/$TL_OUT
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)

# ---- the wheel ----
if tools/build-wheel.sh >"$out/wheel.log" 2>&1; then
    wheel=$(ls "$PWD"/build/wheel/*.whl)
    pass "make wheel: $(basename "$wheel")"
else
    cat "$out/wheel.log"
    fail "make wheel"
    tl_end
fi
need=$(objdump -T build/bloomfilter.so | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
check "the wheel's tag is py3-none-manylinux_${need/./_}_$(uname -m) (the glibc its libraries need, measured)" \
    test "$(basename "$wheel")" = "bloomfilter-$version-py3-none-manylinux_${need/./_}_$(uname -m).whl"

# A PATH with Python and nothing else: no gcc, no cc, no make.
nocc=$out/nocc-bin
mkdir -p "$nocc"
ln -sf /usr/bin/python3 "$nocc/python3"
fresh=$out/venv-fresh
/usr/bin/python3 -m venv "$fresh" >"$out/venv.log" 2>&1
if /usr/bin/env -i HOME="$out" PATH="$fresh/bin:$nocc" PIP_NO_INDEX=1 \
    "$fresh/bin/pip" install -q "$wheel" >>"$out/venv.log" 2>&1; then
    pass "pip install the wheel into a fresh venv, offline, no compiler on PATH"
else
    cat "$out/venv.log"
    fail "pip install of the wheel into a fresh venv"
fi
in_fresh() { (cd "$out" && /usr/bin/env -i HOME="$out" PATH="$fresh/bin:$nocc" "$@"); }
if in_fresh python - >"$out/import.log" 2>&1 <<'PY'
import shutil, sqlite3
assert all(shutil.which(cc) is None for cc in ('gcc', 'cc', 'clang')), 'a compiler is on PATH'
import bloomfilter
db = sqlite3.connect(':memory:')
bloomfilter.load(db)
assert bloomfilter.library_path().startswith(bloomfilter.__path__[0]), bloomfilter.library_path()
print(db.execute('SELECT bloom_version()').fetchone()[0], bloomfilter.__version__)
PY
then
    pass "import bloomfilter and bloomfilter.load(sqlite3 connection) from the wheel ($(tail -n 1 "$out/import.log"))"
else
    cat "$out/import.log"
    fail "import bloomfilter / load(conn) from the wheel"
fi
# The README's Python example, as the README has it (the block it saves as example.py).
/usr/bin/python3 - README.md "$out/example.py" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'<!-- doctest: file="build/examples/example.py" -->\n```python\n(.*?)```', text, re.S)
open(sys.argv[2], 'w', encoding='utf-8').write(m.group(1))
PY
if in_fresh python example.py >"$out/example.log" 2>&1; then
    pass "the README's Python example against the wheel"
else
    cat "$out/example.log"
    fail "the README's Python example against the wheel"
fi
in_fresh python "$TL_ROOT/tools/python_tests.py" "$TL_ROOT/python/tests" 'test_sqlite.py' 'test_client.py' \
    >"$out/wheel-tests.log" 2>"$out/wheel-tests.err"
sed 's/^\(ok\|FAILED\) - /\1 - wheel: /' "$out/wheel-tests.log" >"$out/wheel-tests.lines"
count_lines "$out/wheel-tests.lines"
grep -q '^FAILED - ' "$out/wheel-tests.log" && cat "$out/wheel-tests.err"

# The psycopg adapters: psycopg comes from Debian (no index here), so this
# venv sees the system's packages; the package itself is the wheel's.
with_psycopg=$out/venv-psycopg
/usr/bin/python3 -m venv --system-site-packages "$with_psycopg" >"$out/venv-psycopg.log" 2>&1 &&
    /usr/bin/env -i HOME="$out" PATH="$with_psycopg/bin:$nocc" PIP_NO_INDEX=1 \
        "$with_psycopg/bin/pip" install -q "$wheel" >>"$out/venv-psycopg.log" 2>&1 ||
    { cat "$out/venv-psycopg.log"; fail "the wheel into a venv that sees Debian's psycopg"; }
pg_use
. tools/pgclusters.sh
pgc_setup reach
(cd "$out" && pgc_run -- /usr/bin/env PATH="$with_psycopg/bin:$nocc" \
    "$with_psycopg/bin/python" "$TL_ROOT/tools/python_tests.py" "$TL_ROOT/python/tests" 'test_postgres.py') \
    >"$out/psycopg.log" 2>"$out/psycopg.err"
sed 's/^\(ok\|FAILED\) - /\1 - wheel, PostgreSQL '"$(pg_major)"': /' "$out/psycopg.log" >"$out/psycopg.lines"
count_lines "$out/psycopg.lines"
grep -q '^ok - ' "$out/psycopg.log" || { cat "$out/psycopg.err"; fail "the psycopg adapters' tests ran against the wheel"; }

# ---- the npm package ----
if tools/build-npm.sh >"$out/npm-build.log" 2>&1; then
    tgz=$(ls "$PWD"/build/npm/bloomfilter-sqlite-*.tgz)
    pass "make npm: $(basename "$tgz")"
    project=$out/node-project
    mkdir -p "$project"
    echo '{"private": true}' >"$project/package.json"
    if (cd "$project" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$tgz") \
        >"$out/npm-install.log" 2>&1; then
        pass "npm install ./build/npm/$(basename "$tgz") into an empty project"
    else
        cat "$out/npm-install.log"
        fail "npm install of the package"
    fi
    # The package under test is installed for real, from its tarball; then
    # better-sqlite3 from the doc tests' cache (compiled once; npm install
    # would prune it first, as the project does not list it).
    /usr/bin/python3 - "$project" <<'PY' >"$out/better-sqlite3.log" 2>&1
import importlib.util, sys
spec = importlib.util.spec_from_file_location('doctest_runner', 'tools/doctest.py')
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)
runner.npm_from_cache('npm install better-sqlite3@12.9.0\n', sys.argv[1])
PY
    cat >"$project/check.js" <<'JS'
const Database = require('better-sqlite3');
const bloomfilter = require('bloomfilter-sqlite');
const db = bloomfilter.load(new Database(':memory:'));
const f = db.prepare('SELECT bloom_add_all(bloom_empty(1000), ?)').pluck().get('[1, 2, 3]');
const found = db.prepare('SELECT bloom_contains(?, 2), bloom_contains(?, 7)').raw().get(f, f);
console.log(db.prepare('SELECT bloom_version()').pluck().get(), found.join(' '));
try {
  require('bloomfilter-sqlite').load({});
  console.log('load({}) did not throw');
} catch (e) {
  console.log(e instanceof TypeError ? 'TypeError' : String(e));
}
JS
    if [ "$(cd "$project" && node check.js 2>&1 | tr '\n' ' ')" = "$version 1 0 TypeError " ]; then
        pass "require('bloomfilter-sqlite').load(db) with better-sqlite3: the functions work; a wrong argument is a TypeError"
    else
        (cd "$project" && node check.js)
        fail "the npm package with better-sqlite3"
    fi
    if node -e "require('node:sqlite')" 2>/dev/null; then
        cat >"$project/check-node-sqlite.js" <<'JS'
const { DatabaseSync } = require('node:sqlite');
const db = require('bloomfilter-sqlite').load(new DatabaseSync(':memory:', { allowExtension: true }));
console.log(db.prepare('SELECT bloom_version() AS v').get().v);
JS
        check "require('bloomfilter-sqlite').load(db) with node:sqlite ($(node --version))" \
            test "$(cd "$project" && node check-node-sqlite.js 2>&1)" = "$version"
    else
        skip "node:sqlite: Node $(node --version) has none (22.13 and later)"
    fi
else
    cat "$out/npm-build.log"
    fail "make npm"
fi

# ---- the PGXN archive ----
if tools/build-dist.sh >"$out/dist.log" 2>&1; then
    archive=$(ls "$PWD"/build/dist/bloomfilter-*.zip)
    pass "make dist: $(basename "$archive")"
    unpacked=$out/pgxn
    mkdir -p "$unpacked"
    (cd "$unpacked" && /usr/bin/python3 -m zipfile -e "$archive" .)
    top=$(ls -d "$unpacked"/bloomfilter-*)
    meta_version=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$top/META.json")
    check "the archive holds one directory, bloomfilter-$meta_version/, with META.json at its top" \
        test "$(basename "$top")" = "bloomfilter-$meta_version" -a "$(ls "$unpacked" | wc -l)" -eq 1
    # Installed from the unpacked archive into a server of its own (a copy of
    # the cached tree: install unlinks before it writes, the cache keeps its files).
    major=$(pg_major)
    cache_bin=$(tools/postgres.sh "$major" 2>/dev/null | tail -n 1)
    server=$(tools/postgres.sh --cache)/installs/pgxn-$(echo "$TL_ROOT" | md5sum | cut -c1-12)/$major
    rm -rf "$server"
    mkdir -p "$(dirname "$server")"
    cp -al "${cache_bin%/usr/lib/postgresql/$major/bin}" "$server"
    if (cd "$top" && make -j2 PG_CONFIG="$server/usr/lib/postgresql/$major/bin/pg_config" &&
        make PG_CONFIG="$server/usr/lib/postgresql/$major/bin/pg_config" install) >"$out/pgxn-install.log" 2>&1; then
        pass "make && make install from the unpacked archive (PostgreSQL $major)"
    else
        tail -n 30 "$out/pgxn-install.log"
        fail "build and install from the unpacked archive"
    fi
    PG_BIN=$server/usr/lib/postgresql/$major/bin
    if pgc_start pgxn; then
        created=$(PGPORT=$(pgc_port pgxn) PGHOST=127.0.0.1 psql -XAtq -U postgres -d postgres \
            -c 'CREATE EXTENSION bloomfilter' -c 'SELECT bloom_version()' 2>&1)
        check "CREATE EXTENSION bloomfilter from the archive's install ($created)" test "$created" = "$version"
    else
        fail "start of a server for the archive's install"
    fi
else
    cat "$out/dist.log"
    fail "make dist"
fi
tl_end
