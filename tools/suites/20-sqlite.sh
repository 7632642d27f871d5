#!/usr/bin/env bash
# scope: once
# The SQLite extension: warning-free builds with gcc and clang, the SQL
# scripts against their expected output (like pg_regress), the Python
# client, damaged bloom_bitslice indexes, the static build, and the SQL
# scripts again: each under ASan and UBSan, and under valgrind all but the
# few whose time there is bulk rows (valgrind_bulk below).
# Ends with "sqlite: N passed, M failed"; exit 1 on any failure.
#   tools/suites/20-sqlite.sh [--bless]   --bless rewrites expected outputs
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin sqlite
bless=
[ "${1:-}" = --bless ] && bless=1
out=$TL_OUT

# Builds: any compiler warning is a failure.  gcc's last: the tests below
# use it.
for cc in clang gcc; do
    if ! command -v "$cc" >/dev/null; then
        fail "build with $cc: $cc not installed"
        continue
    fi
    log=$out/build-$cc.log
    if make --no-print-directory -B sqlite CC="$cc" >"$log" 2>&1 && ! grep -q 'warning:' "$log"; then
        pass "build with $cc, no warnings"
    else
        fail "build with $cc (see $log)"
        cat "$log"
    fi
done

# The shell's stdout unbuffered, so an error (stderr) lands right after the
# statement the shell echoed.
run_sql() {
    stdbuf -o0 sqlite3 -batch :memory: <"$1" 2>&1
}

for script in sqlite/tests/sql/*.sql; do
    name=$(basename "$script" .sql)
    expected=sqlite/tests/expected/$name.out
    result=$out/$name.out
    run_sql "$script" >"$result"
    if [ -n "$bless" ]; then
        cp "$result" "$expected"
    fi
    if [ -f "$expected" ] && diff -u "$expected" "$result" >"$out/$name.diff"; then
        pass "sql $name"
    else
        fail "sql $name (diff in $out/$name.diff)"
        head -n 40 "$out/$name.diff"
    fi
done

if /usr/bin/python3 sqlite/tests/test_python.py build/bloomfilter >"$out/python.log" 2>&1; then
    pass "python sqlite3 client ($(tail -n 1 "$out/python.log"))"
else
    fail "python sqlite3 client"
    cat "$out/python.log"
fi

# Damaged shadow tables and triggers: an error naming the index, never
# fewer rows (sqlite/tests/test_bitslice_damage.py).
if /usr/bin/python3 sqlite/tests/test_bitslice_damage.py build/bloomfilter >"$out/bitslice-damage.log" 2>&1; then
    pass "bloom_bitslice damage ($(tail -n 1 "$out/bitslice-damage.log"))"
else
    fail "bloom_bitslice damage (see $out/bitslice-damage.log)"
    grep -v '^ok\|^error\|^same' "$out/bitslice-damage.log" | head -n 40
fi

if make --no-print-directory sqlite-static-test >"$out/static.log" 2>&1; then
    pass "static build (-DSQLITE_CORE) and registration"
else
    fail "static build (-DSQLITE_CORE) and registration"
    cat "$out/static.log"
fi

# The least SQLite version, at compile and at load time (sqlite/tests/version_test.sh).
if make --no-print-directory sqlite-version-test >"$out/version.log" 2>&1; then
    pass "SQLite older than 3.31.0 refused when compiling and when loading"
else
    fail "SQLite version checks"
    cat "$out/version.log"
fi

# Memory errors and leaks of the extension, each script with its expected
# output: under ASan and UBSan (a build of its own, build/asan/, loaded
# into the stock shell with libasan preloaded), and under valgrind, which
# alone sees reads of uninitialized memory.  The shell's own allocations are
# still reachable at exit, so only definite and indirect leaks count, under
# either.  The shell itself exits 1 after a script with SQL errors; a
# finding exits 99.
asan_script() { # NAME: exit 0 when clean and the output is the expected one
    local name=$1 log=$out/$1.asan
    rm -f "$log".*
    sed 's#^\.load build/bloomfilter$#.load build/asan/bloomfilter#' "sqlite/tests/sql/$name.sql" >"$out/asan-$name.sql"
    grep -qx '.load build/asan/bloomfilter' "$out/asan-$name.sql" || return 1
    # stdbuf preloads its own library: libasan goes first.
    stdbuf -o0 env ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=99:log_path=$log" \
        LSAN_OPTIONS="exitcode=99" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=99:log_path=$log" \
        LIBASAN="$libasan" sh -c 'LD_PRELOAD="$LIBASAN $LD_PRELOAD" exec sqlite3 -batch :memory:' \
        <"$out/asan-$name.sql" >"$out/asan-$name.out" 2>&1
    [ $? -ne 99 ] && ! ls "$log".* >/dev/null 2>&1 &&
        diff -q "sqlite/tests/expected/$name.out" "$out/asan-$name.out" >/dev/null
}
valgrind_script() { # NAME: exit 0 when clean and the output is the expected one
    local name=$1 log=$out/$1.valgrind
    stdbuf -o0 valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect --log-file="$log" \
        sqlite3 -batch :memory: <"sqlite/tests/sql/$name.sql" >"$out/$name.vg.out" 2>&1
    [ $? -ne 99 ] && [ ! -s "$log" ] &&
        diff -q "sqlite/tests/expected/$name.out" "$out/$name.vg.out" >/dev/null
}
# Under valgrind (50 to 150 times native), these scripts' time is the
# hundreds of thousands of rows they make and aggregate, not more of the
# extension's code: they take most of the time of all the scripts there.
# They run under ASan and UBSan like every other.
valgrind_bulk="aggregates bitslice compose"
# Two at a time (valgrind runs one thread).
declare -A running=() # pid -> "TOOL NAME"
collect() {
    local pid
    wait -n -p pid "${!running[@]}"
    local rc=$? tool=${running[$pid]%% *} name=${running[$pid]#* }
    unset "running[$pid]"
    if [ $rc -eq 0 ]; then
        pass "$tool $name"
    else
        fail "$tool $name (see $out/$name.$tool*)"
        cat "$out/$name.$tool"* 2>/dev/null | head -n 30
    fi
}
start() { # TOOL NAME
    [ ${#running[@]} -lt 2 ] || collect
    "${1}_script" "$2" &
    running[$!]="$1 $2"
}
libasan=$(gcc -print-file-name=libasan.so)
if ! make --no-print-directory build/asan/bloomfilter.so CC=gcc >"$out/build-asan.log" 2>&1; then
    fail "the ASan and UBSan build (see $out/build-asan.log)"
    cat "$out/build-asan.log"
elif [ ! -f "$libasan" ]; then
    fail "ASan: gcc has no libasan.so"
else
    for script in sqlite/tests/sql/*.sql; do start asan "$(basename "$script" .sql)"; done
fi
if command -v valgrind >/dev/null; then
    for name in $valgrind_bulk; do
        [ -f "sqlite/tests/sql/$name.sql" ] || fail "valgrind_bulk names $name: no sqlite/tests/sql/$name.sql"
    done
    for script in sqlite/tests/sql/*.sql; do
        name=$(basename "$script" .sql)
        [[ " $valgrind_bulk " == *" $name "* ]] || start valgrind "$name"
    done
else
    fail "valgrind: not installed"
fi
while [ ${#running[@]} -gt 0 ]; do collect; done

tl_end
