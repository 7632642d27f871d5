#!/usr/bin/env bash
# The least SQLite (3.31.0, sqlite/common.h) is checked twice, and both
# checks are tested here (`make sqlite-version-test`, part of 20-sqlite.sh):
#   compile time: sqlite/extension.c against headers that say 3.30.1 must
#                 stop at common.h's #error;
#   load time:    build/old_sqlite.so (sqlite/tests/old_sqlite.c) hands the
#                 real init function SQLite's API with version 3.30.1: the
#                 load must fail with the init function's message, while the
#                 extension itself loads in this SQLite.
# Prints "ok - ..." / "not ok - ..." lines; exit 1 on any failure.
set -u
cd "$(dirname "$0")/../.."
failed=0
check() { # WHAT OK(0/1) [DETAIL]
    if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; [ -n "${3:-}" ] && echo "$3"; failed=1; fi
}
CC=${CC:-cc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Headers that report SQLite 3.30.1: the system's, with the version replaced.
cat >"$dir/sqlite3.h" <<'H'
#include_next <sqlite3.h>
#undef SQLITE_VERSION_NUMBER
#define SQLITE_VERSION_NUMBER 3030001
H
cat >"$dir/sqlite3ext.h" <<'H'
#include "sqlite3.h"
#include_next <sqlite3ext.h>
H
out=$("$CC" -std=c11 -fsyntax-only -I"$dir" -Icore -DBLOOMFILTER_VERSION='"0"' sqlite/extension.c 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q 'bloomfilter needs SQLite 3.31.0 or later' <<<"$out"
check "compile time: headers of SQLite 3.30.1 stop at the #error" $? "$out"
out=$("$CC" -std=c11 -fsyntax-only -Icore -DBLOOMFILTER_VERSION='"0"' sqlite/extension.c 2>&1)
check "compile time: this machine's headers ($(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"/\1/p' /usr/include/sqlite3.h)) pass" $? "$out"

out=$(sqlite3 -batch :memory: '.load build/old_sqlite' 2>&1)
rc=$?
want='the bloomfilter extension needs SQLite 3.31.0 or later; this is SQLite 3.30.1'
[ $rc -ne 0 ] && grep -qF "$want" <<<"$out"
check "load time: an SQLite that says 3.30.1 is refused: $want" $? "$out"
out=$(sqlite3 -batch :memory: '.load build/bloomfilter' 'SELECT bloom_version();' 2>&1)
check "load time: SQLite $(sqlite3 -batch :memory: 'SELECT sqlite_version()') loads it" $? "$out"
exit $failed
