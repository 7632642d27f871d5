#!/usr/bin/env bash
# `make test`: install what is missing, build everything, run every suite,
# and end with one line "N passed, M failed" (exit 1 on any failure).
#
# Each suite prints its own closing line "<suite>: N passed, M failed"; a
# suite that dies without one counts as one failure.
set -u
cd "$(dirname "$0")/.."
mkdir -p build

if ! tools/install-deps.sh all; then
    echo "install: could not install the build dependencies"
    echo "0 passed, 1 failed"
    exit 1
fi

passed=0
failed=0
summary=()

run_suite() {
    local name=$1; shift
    local log=build/test-$name.log
    echo "=== $name: $*"
    local start=$SECONDS
    "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    local line
    line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
    local p=0 f=1
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    summary+=("$(printf '%-8s %5d passed, %d failed (exit %d, %d s)' "$name" "$p" "$f" "$rc" $((SECONDS - start)))")
}

for suite in tools/suites/*.sh; do
    name=$(basename "$suite" .sh)
    name=${name#[0-9][0-9]-}
    run_suite "$name" "$suite"
done

echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
