#!/usr/bin/env bash
# scope: once
# Every C file of the project but the PostgreSQL ones (core, its tests,
# SQLite, bench, fuzz targets) compiled with -Wall -Wextra -Wpedantic
# -Werror, once with gcc and once with clang (`make warnings-c`): a new
# warning fails `make test`.  The PostgreSQL files: 30-pg, on every major.
# Ends with "warnings: N passed, M failed"; exit 1 on any failure.
set -u
. "$(dirname "$0")/../testlib.sh"
tl_begin warnings
for cc in gcc clang; do
    log=$TL_OUT/$cc.log
    if ! command -v "$cc" >/dev/null; then
        fail "$cc is not installed (tools/install-deps.sh core)"
    elif make --no-print-directory -k -j2 warnings-c CC="$cc" >"$log" 2>&1; then
        pass "every file warning-free under $cc ($(grep -c -- ' -o /dev/null' "$log") compilations)"
    else
        grep -E 'error|warning' "$log"
        fail "warnings under $cc (see $log)"
    fi
done
tl_end
