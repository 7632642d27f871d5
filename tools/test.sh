#!/usr/bin/env bash
# `make test`: install what is missing, build everything, run every suite of
# tools/suites/, and end with one line "N passed, M failed" (exit 1 on any
# failure).
#
#   make test               every suite; the PostgreSQL ones on every major of pg/majors
#   PG=17 make test         the PostgreSQL suites on 17 only (PG="16 18": those two)
#   SUITES="pg fdw" make test   those suites only
#
# A suite says in its header when it runs: "# scope: once" (the default),
# "# scope: each major" (once per PostgreSQL major, with PG set), or
# "# scope: all majors" (once, after them, with PG set to the list).  Each
# suite prints "ok - ", "FAILED - ", "skip - " and "note: " lines and ends
# with "<suite>: N passed, M failed[, K skipped]"; those lines are shown
# here, everything else it prints goes to its log in build/test/logs/.  A
# suite that dies without its closing line counts as one failure.
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

passed=0
failed=0
skipped=0
summary=()

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
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    summary+=("$(printf '%-14s %5d passed, %d failed%s (%d s)' "$label" "$p" "$f" \
        "$([ "$s" -eq 0 ] || echo ", $s skipped")" $((SECONDS - t0)))")
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
for major in $majors; do
    # The major's server first, once: a route that fails fails here, not
    # in every suite of the major.
    echo "=== PostgreSQL $major: the server (tools/postgres.sh $major; the first time, the longest step)"
    t0=$SECONDS
    if tools/postgres.sh "$major" >"build/test/logs/server@$major.log" 2>&1; then
        echo "ok - PostgreSQL $major: $(tail -n 1 "build/test/logs/server@$major.log")"
        passed=$((passed + 1))
        summary+=("$(printf '%-14s %5d passed, %d failed (%d s)' "server@$major" 1 0 $((SECONDS - t0)))")
    else
        tail -n 20 "build/test/logs/server@$major.log" | sed 's/^/    /'
        echo "FAILED - PostgreSQL $major: no server; its suites are not run"
        failed=$((failed + 1))
        summary+=("$(printf '%-14s %5d passed, %d failed (%d s): its suites not run' "server@$major" 0 1 $((SECONDS - t0)))")
        continue
    fi
    for suite in tools/suites/*.sh; do
        selected "$suite" && [ "$(scope_of "$suite")" = "each major" ] || continue
        name=$(basename "$suite" .sh)
        PG=$major run_suite "${name#[0-9][0-9]-}@$major" "$suite"
    done
done
for suite in tools/suites/*.sh; do
    selected "$suite" && [ "$(scope_of "$suite")" = "all majors" ] || continue
    name=$(basename "$suite" .sh)
    PG="$majors" run_suite "${name#[0-9][0-9]-}" "$suite"
done

echo "=== summary ($(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s)"
printf '%s\n' "${summary[@]}"
if [ "$skipped" -gt 0 ]; then
    echo "$skipped skipped:"
    grep -H '^skip - ' build/test/logs/*.log | sed -E 's#^build/test/logs/(.*)\.log:skip - #    \1: #'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
