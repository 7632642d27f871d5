#!/usr/bin/env bash
# The data and queries of the standard kits (../shared/bench-kits: dbgen and
# qgen of TPC-H, dsdgen and dsqgen of TPC-DS), made once per scale factor in a
# cache outside the clone, for bench/bench_standard.py.  The kits are built
# there too; nothing of theirs enters the tree.
#
#   bench/bench_kits.sh tpch|tpcds SF    make what is missing, print the directory:
#       DIR/data/TABLE.tbl    rows with '|' between columns (no trailing '|')
#       DIR/queries/          the kit's queries as its generator wrote them
#                             (TPC-H: N.sql, default substitutions; TPC-DS:
#                             the netezza dialect, one stream of the 99)
#       DIR/answers/          TPC-H only: the kit's reference answers (SF 1)
#       DIR/schema.sql        the kit's CREATE TABLEs
#
# The cache is BLOOM_BENCH_CACHE, by default /var/cache/bloomfilter/bench-kits
# as root and ~/.cache/bloomfilter/bench-kits otherwise (as tools/postgres.sh
# chooses its own).  TPC-DS's dsdgen has no scale below 1 (it crashes).
set -euo pipefail
root_dir=$(cd "$(dirname "$0")/.." && pwd)
kits=${BLOOM_BENCH_KITS:-$(cd "$root_dir/.." && pwd)/shared/bench-kits}
say() { echo "bench_kits.sh: $*" >&2; }
die() { say "$*"; exit 1; }

[ $# -eq 2 ] || die "usage: bench/bench_kits.sh tpch|tpcds SF"
kit=$1 sf=$2
[[ $sf =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v s="$sf" 'BEGIN { exit !(s > 0) }' || die "scale factor '$sf' is not a positive number"
case $kit in
    tpch) ;;
    tpcds) [[ $sf =~ ^[1-9][0-9]*$ ]] || die "TPC-DS: the scale factor must be a whole number (dsdgen crashes below 1), not $sf" ;;
    *) die "unknown kit '$kit' (tpch or tpcds)" ;;
esac
tarball=$kits/$kit-kit.tar.gz
[ -r "$tarball" ] || die "no $tarball (the offline kits, ../shared/bench-kits/README.md)"

if [ "$(id -u)" -eq 0 ]; then
    cache=${BLOOM_BENCH_CACHE:-/var/cache/bloomfilter/bench-kits}
else
    cache=${BLOOM_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bloomfilter/bench-kits}
fi
mkdir -p "$cache"
# Two runs may ask at once: one makes, the other waits and finds it made.
exec 9>"$cache/$kit.lock"
flock 9

# The kit, built once per tarball (its checksum is the stamp).
sum=$(sha256sum "$tarball" | cut -c1-16)
src=$cache/$kit-kit-$sum
if [ ! -f "$src/built" ]; then
    say "building $kit-kit in $src"
    rm -rf "$src" && mkdir -p "$src"
    tar -xzf "$tarball" -C "$src" --strip-components=1
    if [ "$kit" = tpch ]; then
        make -C "$src/dbgen" MACHINE=LINUX DATABASE=POSTGRESQL >"$src/build.log" 2>&1 ||
            { tail -n 20 "$src/build.log"; die "building dbgen failed"; }
    else
        # -fcommon: the kit defines globals in headers (an error since gcc 10)
        make -C "$src/tools" OS=LINUX LINUX_CFLAGS="-O2 -fcommon -w" >"$src/build.log" 2>&1 ||
            { tail -n 20 "$src/build.log"; die "building dsdgen failed"; }
    fi
    touch "$src/built"
fi

out=$cache/$kit/sf$sf-$sum
if [ -f "$out/complete" ]; then echo "$out"; exit 0; fi
rm -rf "$out" && mkdir -p "$out/data" "$out/queries"
started=$(date +%s)
if [ "$kit" = tpch ]; then
    say "dbgen -s $sf into $out/data"
    (cd "$src/dbgen" && DSS_PATH="$out/data" ./dbgen -q -f -s "$sf") || die "dbgen failed"
    for i in $(seq 1 22); do
        (cd "$src/dbgen" && DSS_QUERY=queries ./qgen -s "$sf" -d "$i") >"$out/queries/$i.sql" || die "qgen $i failed"
    done
    cp -r "$src/dbgen/answers" "$out/answers"
    cp "$src/dbgen/dss.ddl" "$out/schema.sql"
    ext=tbl
else
    say "dsdgen -SCALE $sf into $out/data"
    (cd "$src/tools" && ./dsdgen -SCALE "$sf" -DIR "$out/data" -FORCE Y -QUIET Y) >"$out/dsdgen.log" 2>&1 ||
        { cat "$out/dsdgen.log"; die "dsdgen failed"; }
    (cd "$src/tools" && ./dsqgen -DIRECTORY ../query_templates -INPUT ../query_templates/templates.lst \
        -DIALECT netezza -SCALE "$sf" -OUTPUT_DIR "$out/queries" -QUIET Y) >"$out/dsqgen.log" 2>&1 ||
        { cat "$out/dsqgen.log"; die "dsqgen failed"; }
    for f in "$out/data"/*.dat; do mv "$f" "${f%.dat}.tbl"; done
    cp "$src/tools/tpcds.sql" "$out/schema.sql"
    ext=tbl
fi
# Every row ends with '|': COPY would read one column too many.
for f in "$out/data"/*."$ext"; do sed -i 's/|$//' "$f"; done
say "$kit at scale $sf made in $(($(date +%s) - started)) s"
touch "$out/complete"
echo "$out"
