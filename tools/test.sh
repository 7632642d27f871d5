#!/usr/bin/env bash
# `make test`: install what is missing, build everything, run every suite of
# tools/suites/, and end with one line "N passed, M failed" (exit 1 on any
# failure).
#
#   make test               every suite; the PostgreSQL ones on every major of pg/majors
#   PG=17 make test         the PostgreSQL suites on 17 only (PG="16 18": those two)
#   SUITES="pg fdw" make test   those suites only
#   BLOOM_TEST_JOBS=1 make test  one major at a time (default: 2 at once)
#
# A suite says in its header when it runs: "# scope: once" (the default),
# "# scope: each major" (once per PostgreSQL major, with PG set), or
# "# scope: all majors" (once, with PG set to the list, once every major has
# started).  Each suite prints "ok - ", "FAILED - ", "skip - " and "note: "
# lines and ends with "<suite>: N passed, M failed[, K skipped]"; those lines are shown
# here, everything else it prints goes to its log in build/test/logs/.  A
# suite that dies without its closing line counts as one failure.
#
# The majors run BLOOM_TEST_JOBS at a time (default 2), then the suites over
# all majors (the packages) beside the last: a suite mostly waits on one
# server, so one major alone leaves a core idle.  Each major has its
# own build directory, installed copy, clusters (free ports) and output
# directory; its lines are shown prefixed with "[MAJOR] ".
set -u
cd "$(dirname "$0")/.."
rm -rf build/test/logs
mkdir -p build/test/logs
. tools/testlib.sh

majors=${PG:-$(pg_majors | tr '\n' ' ')}
for m in $majors; do
    pg_majors | grep -qx "$m" || { echo "PG=$m: not a supported major (pg/majors: $(pg_majors | tr '\n' ' '))"; echo "0 passed, 1 failed"; exit 1; }
done
wanted=${SUITES:-}
start=$SECONDS

echo "=== make test: PostgreSQL majors ${majors% }; logs in build/test/logs/"
if ! tools/install-deps.sh all; then
    echo "install: could not install the build dependencies"
    echo "0 passed, 1 failed"
    exit 1
fi

results=build/test/logs/results  # "passed failed skipped<TAB>summary line", one per step
: >"$results"
record() { # PASSED FAILED SKIPPED SUMMARY-LINE
    printf '%d %d %d\t%s\n' "$1" "$2" "$3" "$4" >>"$results"
}

run_suite() { # LABEL SCRIPT (PG in the environment for PostgreSQL suites)
    local label=$1 script=$2 name
    name=$(basename "$script" .sh)
    name=${name#[0-9][0-9]-}
    local log=build/test/logs/$label.log t0=$SECONDS
    echo "=== $label ($(date +%H:%M:%S), $(( (SECONDS - start) / 60 )) min in)"
    # Show the suite's own lines as they come; all of it goes to the log.
    "$script" 2>&1 | tee "$log" | grep --line-buffered -E '^(ok - |FAILED - |skip - |note: )'
    local rc=${PIPESTATUS[0]} line p=0 f=1 s=0
    line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')
        s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
        s=${s:-0}
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    fi
    if [ "$f" -gt 0 ]; then
        echo "--- $label failed: the end of $log"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
    record "$p" "$f" "$s" "$(printf '%-14s %5d passed, %d failed%s (%d s)' "$label" "$p" "$f" \
        "$([ "$s" -eq 0 ] || echo ", $s skipped")" $((SECONDS - t0)))"
}

scope_of() { sed -n 's/^# scope: //p' "$1" | head -n 1; }
selected() { # SCRIPT
    local name
    name=$(basename "$1" .sh)
    name=${name#[0-9][0-9]-}
    [ -z "$wanted" ] || [[ " $wanted " == *" $name "* ]]
}

for suite in tools/suites/*.sh; do
    selected "$suite" && [ "$(scope_of "$suite")" != "each major" ] &&
        [ "$(scope_of "$suite")" != "all majors" ] || continue
    name=$(basename "$suite" .sh)
    run_suite "${name#[0-9][0-9]-}" "$suite"
done
run_major() { # MAJOR: its server, then its suites in order
    local major=$1 t0=$SECONDS suite name
    # The major's server first, once: a route that fails fails here, not
    # in every suite of the major.
    echo "=== PostgreSQL $major: the server (tools/postgres.sh $major; the first time, the longest step)"
    if tools/postgres.sh "$major" >"build/test/logs/server@$major.log" 2>&1; then
        local bin
        bin=$(tail -n 1 "build/test/logs/server@$major.log")
        echo "ok - PostgreSQL $major: $("$bin/postgres" --version) ($bin)"
        record 1 0 0 "$(printf '%-14s %5d passed, %d failed (%d s)' "server@$major" 1 0 $((SECONDS - t0)))"
    else
        tail -n 20 "build/test/logs/server@$major.log" | sed 's/^/    /'
        echo "FAILED - PostgreSQL $major: no server; its suites are not run"
        record 0 1 0 "$(printf '%-14s %5d passed, %d failed (%d s): its suites not run' "server@$major" 0 1 $((SECONDS - t0)))"
        return
    fi
    for suite in tools/suites/*.sh; do
        selected "$suite" && [ "$(scope_of "$suite")" = "each major" ] || continue
        name=$(basename "$suite" .sh)
        PG=$major run_suite "${name#[0-9][0-9]-}@$major" "$suite"
    done
}
jobs_max=${BLOOM_TEST_JOBS:-2}
# What the suites of every major use and would otherwise make at the same
# time: the SQLite extension (cross, parquet, doc tests).
make --no-print-directory sqlite >build/test/logs/sqlite-build.log 2>&1 ||
    echo "note: make sqlite failed (build/test/logs/sqlite-build.log); the suites that need it will say so"
# The suites over all majors (the packages) take the next free slot once
# every major has started: they need the majors' servers, not their suites.
running=0
take_slot() {
    if [ "$running" -ge "$jobs_max" ]; then
        wait -n
        running=$((running - 1))
    fi
    running=$((running + 1))
}
for major in $majors; do
    take_slot
    # sed -u: each line as it comes, marked with its major
    (run_major "$major" 2>&1 | sed -u "s/^/[$major] /") &
done
for suite in tools/suites/*.sh; do
    selected "$suite" && [ "$(scope_of "$suite")" = "all majors" ] || continue
    name=$(basename "$suite" .sh)
    take_slot
    (PG="$majors" run_suite "${name#[0-9][0-9]-}" "$suite" 2>&1 | sed -u "s/^/[all] /") &
done
wait

echo "=== summary ($(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s)"
cut -f 2- "$results"
read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$results")
if [ "$skipped" -gt 0 ]; then
    echo "$skipped skipped:"
    grep -H '^skip - ' build/test/logs/*.log | sed -E 's#^build/test/logs/(.*)\.log:skip - #    \1: #'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
