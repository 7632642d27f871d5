#!/usr/bin/env bash
# `make test`: install what is missing, build everything, run every suite of
# tools/suites/, and end with one line "N passed, M failed" (exit 1 on any
# failure).
#
#   make test               every suite; the PostgreSQL ones on every major of pg/majors
#   PG=17 make test         the PostgreSQL suites on 17 only (PG="16 18": those two)
#   SUITES="pg fdw" make test   those suites only
#   BLOOM_TEST_JOBS=1 make test  one unit at a time (default: 2 at once)
#
# A suite says in its header when it runs: "# scope: once" (the default),
# "# scope: each major" (once per PostgreSQL major, with PG set), or
# "# scope: all majors" (once, with PG set to the list).  Each suite prints
# "ok - ", "FAILED - ", "skip - " and "note: " lines and ends with
# "<suite>: N passed, M failed[, K skipped]"; those lines are shown here,
# everything else it prints goes to its log in build/test/logs/.  A suite
# that dies without its closing line counts as one failure.
#
# The units (a major's suites in order, a suite over all majors, a suite
# that runs once) run BLOOM_TEST_JOBS at a time, longest first: a suite
# often waits on a server, and one unit alone leaves a core idle.  Each
# major has its own build directory, installed copy, clusters (free ports)
# and output directory; the lines are shown prefixed with "[MAJOR] ",
# "[all] " or "[once] ".  At the end: the time of each suite and unit, the
# unit that ended last, then the line "N passed, M failed".
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
    printf '%d\t%s\n' $((SECONDS - t0)) "$label" >>"$suite_times"
}
suite_times=build/test/logs/suite-times  # "seconds<TAB>suite", one per suite run
: >"$suite_times"

scope_of() { sed -n 's/^# scope: //p' "$1" | head -n 1; }
selected() { # SCRIPT
    local name
    name=$(basename "$1" .sh)
    name=${name#[0-9][0-9]-}
    [ -z "$wanted" ] || [[ " $wanted " == *" $name "* ]]
}

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

# The units of work, BLOOM_TEST_JOBS at a time: each major's suites in
# order (one unit: they share the major's installed copy), each suite over
# all majors, each suite that runs once.  Longest first, so that no slot
# idles at the end: the majors, with the two long suites that run once
# (once_long, as long as a major) after every second major, then the
# suites over all majors (they need the majors' servers, which the majors'
# units made or are making), then the other suites that run once, the
# longer ones (once_first) first.
once_long="sqlite docs"
once_first="fuzz docs-pg core reach"
once=()
for suite in tools/suites/*.sh; do
    selected "$suite" && [ "$(scope_of "$suite")" != "each major" ] &&
        [ "$(scope_of "$suite")" != "all majors" ] && once+=("$suite")
done
once_named() { # NAME...: the "once" units of the selected suites of these names
    local name suite
    for name in "$@"; do
        for suite in "${once[@]}"; do [[ $suite == */[0-9][0-9]-$name.sh ]] && echo "once $suite"; done
    done
}
mapfile -t long_units < <(once_named $once_long)
units=()
n=0
for major in $majors; do
    units+=("major $major")
    n=$((n + 1))
    if [ $((n % 2)) -eq 0 ] && [ ${#long_units[@]} -gt 0 ]; then
        units+=("${long_units[0]}")
        long_units=("${long_units[@]:1}")
    fi
done
units+=("${long_units[@]}")
for suite in tools/suites/*.sh; do
    selected "$suite" && [ "$(scope_of "$suite")" = "all majors" ] && units+=("all $suite")
done
mapfile -t -O ${#units[@]} units < <(once_named $once_first)
once_first="$once_long $once_first"
for suite in "${once[@]}"; do
    name=$(basename "$suite" .sh)
    [[ " $once_first " == *" ${name#[0-9][0-9]-} "* ]] || units+=("once $suite")
done

run_unit() { # KIND ARG: its lines marked with its major, [all] or [once]
    local kind=$1 arg=$2 t0=$SECONDS name what
    name=$(basename "$arg" .sh)
    name=${name#[0-9][0-9]-}
    case $kind in
        major) what="PostgreSQL $arg"; run_major "$arg" 2>&1 | sed -u "s/^/[$arg] /" ;;
        all) what=$name; PG="$majors" run_suite "$name" "$arg" 2>&1 | sed -u "s/^/[all] /" ;;
        once) what=$name; run_suite "$name" "$arg" 2>&1 | sed -u "s/^/[once] /" ;;
    esac
    printf '%d\t%d\t%d\t%s\n' $((SECONDS - t0)) $((t0 - start)) $((SECONDS - start)) "$what" >>"$units_times"
}
units_times=build/test/logs/unit-times  # "seconds<TAB>from<TAB>to<TAB>unit", one per unit
: >"$units_times"
running=0
for unit in "${units[@]}"; do
    if [ "$running" -ge "$jobs_max" ]; then
        wait -n
        running=$((running - 1))
    fi
    running=$((running + 1))
    # shellcheck disable=SC2086  # "KIND ARG"
    run_unit $unit &
done
wait

echo "=== summary ($(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s)"
cut -f 2- "$results"
# The time of each suite, longest first; the units (a major's suites run
# one after another) and the one that ended last: what a regression in
# time shows in.
echo "=== time of each suite (wall, longest first; $jobs_max units at a time, load $(cut -d ' ' -f 1-3 /proc/loadavg))"
sort -rn "$suite_times" | awk -F '\t' '{printf "    %5d s  %s\n", $1, $2}'
awk -F '\t' '{s += $1} END {printf "    %5d s  the suites together\n", s}' "$suite_times"
echo "=== time of each unit (wall, longest first: from, to, seconds after the start)"
sort -rn "$units_times" | awk -F '\t' '{printf "    %5d s  %-16s %5d to %5d\n", $1, $4, $2, $3}'
longest=$(sort -rn "$units_times" | head -n 1 | awk -F '\t' '{printf "%s, %d s", $4, $1}')
last=$(sort -t "$(printf '\t')" -k3,3rn "$units_times" | head -n 1 | awk -F '\t' '{printf "%s, at %d s", $4, $3}')
echo "critical path: the longest unit ($longest; no run can be shorter); the last to end: $last;" \
    "make test took $((SECONDS - start)) s"
read -r passed failed skipped < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$results")
if [ "$skipped" -gt 0 ]; then
    echo "$skipped skipped:"
    grep -H '^skip - ' build/test/logs/*.log | sed -E 's#^build/test/logs/(.*)\.log:skip - #    \1: #'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
