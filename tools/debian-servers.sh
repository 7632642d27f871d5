#!/usr/bin/env bash
# Inside a private mount namespace (tools/build-deb.sh runs it under
# unshare --mount): show the given server trees at Debian's places, then run
# COMMAND.  Each tree (tools/postgres.sh) is laid out as Debian lays out a
# server, so its pg_config, found at /usr/lib/postgresql/MAJOR/bin, answers
# Debian's paths, as pg_buildext expects.
#   tools/debian-servers.sh MAJOR=TREE_ROOT... -- COMMAND...
set -euo pipefail
trees=()
while [ "$1" != -- ]; do trees+=("$1"); shift; done
shift
for dir in /usr/lib/postgresql /usr/share/postgresql /usr/include/postgresql; do
    mkdir -p "$dir"
    mount -t tmpfs -o mode=755 bloomfilter-servers "$dir"
done
for t in "${trees[@]}"; do
    major=${t%%=*} root=${t#*=}
    for dir in /usr/lib/postgresql/"$major" /usr/share/postgresql/"$major" /usr/include/postgresql/"$major"; do
        mkdir -p "$dir"
        mount --bind -o ro "$root$dir" "$dir"
    done
    [ ! -d "$root/usr/include/postgresql/internal" ] || internal=$root/usr/include/postgresql/internal
done
# libpq's internal headers (libpq-dev: one for all majors), the newest
if [ -n "${internal:-}" ]; then
    mkdir -p /usr/include/postgresql/internal
    mount --bind -o ro "$internal" /usr/include/postgresql/internal
fi
exec "$@"
