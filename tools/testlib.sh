# What every suite of tools/suites/ shares; sourced, never run.
#
#   tl_begin NAME [DIR]    counters, `cd` to the tree's root, $TL_OUT = build/test/DIR
#                          (DIR-MAJOR for a PostgreSQL suite; DIR: NAME by default)
#   pass MSG, fail MSG, skip MSG, note MSG
#                          one line each: "ok - ", "FAILED - ", "skip - ", "note: "
#                          (tools/test.sh shows these lines and keeps the rest in a log)
#   check MSG CMD...       pass when CMD succeeds, else fail
#   count_lines LOG        add the ok/FAILED/skip lines another runner wrote to LOG
#   tl_end                 "NAME: N passed, M failed[, K skipped]"; exit 1 on any failure
#
#   PostgreSQL suites run once per major (tools/test.sh sets PG):
#   pg_major               the major under test: $PG, else the first of pg/majors
#   pg_use [--fresh]       this major's server with this tree's extension installed
#                          (--fresh: built anew, so that its warnings are seen):
#                          a private copy of tools/postgres.sh's tree (hard links; the
#                          cache is never written), so clones and majors never share an
#                          installed module; sets PG_BIN and PG_CONFIG, puts PG_BIN first
#                          on PATH.  Clusters: tools/pgclusters.sh.
# shellcheck shell=bash

TL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

tl_begin() {
    TL_NAME=$1
    TL_PASSED=0 TL_FAILED=0 TL_SKIPPED=0
    cd "$TL_ROOT" || exit 1
    local majors
    # "15 16 17": a name without spaces, which make and pg_regress take
    majors=$(echo ${PG:+$(pg_major)} | tr ' ' '-')
    TL_OUT=build/test/${2:-$TL_NAME}${majors:+-$majors}
    rm -rf "$TL_OUT"
    mkdir -p "$TL_OUT"
}

pass() { TL_PASSED=$((TL_PASSED + 1)); echo "ok - $*"; }
fail() { TL_FAILED=$((TL_FAILED + 1)); echo "FAILED - $*"; }
skip() { TL_SKIPPED=$((TL_SKIPPED + 1)); echo "skip - $*"; }
note() { echo "note: $*"; }
check() { # MSG COMMAND...
    local msg=$1; shift
    if "$@"; then pass "$msg"; else fail "$msg"; fi
}

count_lines() { # LOG: lines written by another runner in the same form
    local log=$1
    grep -E '^(ok|FAILED|skip) - ' "$log"
    TL_PASSED=$((TL_PASSED + $(grep -c '^ok - ' "$log")))
    TL_FAILED=$((TL_FAILED + $(grep -c '^FAILED - ' "$log")))
    TL_SKIPPED=$((TL_SKIPPED + $(grep -c '^skip - ' "$log")))
}

tl_end() {
    local skipped=
    [ "$TL_SKIPPED" -eq 0 ] || skipped=", $TL_SKIPPED skipped"
    echo "$TL_NAME: $TL_PASSED passed, $TL_FAILED failed$skipped"
    [ "$TL_FAILED" -eq 0 ]
    exit
}

pg_majors() { grep -o '^[0-9][0-9]*' "$TL_ROOT/pg/majors"; }
pg_major() { echo "${PG:-$(pg_majors | head -n 1)}"; }

pg_use() {
    local major cache_bin cache_root copy stamp
    major=$(pg_major)
    if ! cache_bin=$("$TL_ROOT/tools/postgres.sh" "$major" 2>"$TL_OUT/postgres.log" | tail -n 1) || [ ! -x "$cache_bin/postgres" ]; then
        cat "$TL_OUT/postgres.log"
        fail "a PostgreSQL $major server (tools/postgres.sh $major)"
        tl_end
    fi
    cache_root=${cache_bin%/usr/lib/postgresql/$major/bin}
    # One suite at a time makes the copy and builds in build/pg/MAJOR: the
    # suites of a major run in order, but a suite that runs once may use
    # the same major meanwhile.
    mkdir -p "$TL_ROOT/build/pg"
    exec 7>"$TL_ROOT/build/pg/.install-$major.lock"
    flock 7
    # Beside the cache (the servers run as the postgres user, who may not
    # reach into the clone), one copy per clone and major.
    copy=$(dirname "$cache_root")/../installs/$(echo "$TL_ROOT" | md5sum | cut -c1-12)/$major
    stamp="$cache_root $(cat "$cache_root/../complete")"
    if [ "$(cat "$copy/source" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$copy"
        mkdir -p "$copy"
        cp -al "$cache_root" "$copy/root" 2>/dev/null || cp -a "$cache_root" "$copy/root"
        echo "$stamp" > "$copy/source"
    fi
    copy=$(cd "$copy" && pwd)
    PG_BIN=$copy/root/usr/lib/postgresql/$major/bin
    PG_CONFIG=$PG_BIN/pg_config
    PATH=$PG_BIN:$PATH
    export PG_BIN PG_CONFIG PATH
    [ "${1:-}" != --fresh ] || rm -f build/pg/"$major"/core/*.o build/pg/"$major"/pg/*.o
    # install replaces files (it unlinks first): the cache keeps its own.
    make --no-print-directory PG_CONFIG="$PG_CONFIG" install >"$TL_OUT/install.log" 2>&1
    local rc=$?
    exec 7>&-
    if [ "$rc" -ne 0 ]; then
        tail -n 40 "$TL_OUT/install.log"
        fail "build and install of the extension for PostgreSQL $major"
        tl_end
    fi
}
