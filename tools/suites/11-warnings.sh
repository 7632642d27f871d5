#!/usr/bin/env bash
# Every C file of the project (core, its tests, SQLite, PostgreSQL, bench,
# fuzz targets) compiled with -Wall -Wextra -Wpedantic -Werror, once with gcc
# and once with clang (`make warnings`): a new warning fails `make test`.
# Ends with "warnings: N passed, M failed"; exit 1 on any failure.
set -u
cd "$(dirname "$0")/../.."
mkdir -p build
passed=0
failed=0
for cc in gcc clang; do
    log=build/warnings-$cc.log
    if ! command -v "$cc" >/dev/null; then
        echo "FAILED - $cc is not installed (tools/install-deps.sh core)"
        failed=$((failed + 1))
    elif make --no-print-directory -k -j2 warnings CC="$cc" >"$log" 2>&1; then
        echo "ok - every file warning-free under $cc ($(grep -c -- ' -o /dev/null' "$log") compilations)"
        passed=$((passed + 1))
    else
        grep -E 'error|warning' "$log"
        echo "FAILED - warnings under $cc (see $log)"
        failed=$((failed + 1))
    fi
done
echo "warnings: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
