#!/usr/bin/env bash
# `make npm`: the npm package bloomfilter-sqlite in build/npm/, made from
# npm/ (its sources) and the SQLite extension built here (make sqlite):
#     npm install ./build/npm/bloomfilter-sqlite-VERSION.tgz
# gives a project require('bloomfilter-sqlite').load(db), with nothing to
# compile.  The version is the control file's, as semver (1.2 -> 1.2.0).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh --quiet sqlite
command -v npm >/dev/null || { echo "npm: no npm on PATH (Debian: apt-get install npm)" >&2; exit 1; }
make --no-print-directory sqlite >/dev/null
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)
case $version in *.*.*) ;; *) version=$version.0 ;; esac

out=build/npm
stage=$out/package
rm -rf "$out"
mkdir -p "$stage/lib"
cp npm/index.js npm/index.d.ts npm/README.md LICENSE "$stage/"
cp build/bloomfilter.so "$stage/lib/bloomfilter.so"
sed "s/\"version\": \"[^\"]*\"/\"version\": \"$version\"/" npm/package.json >"$stage/package.json"
glibc=$(objdump -T build/bloomfilter.so | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
(cd "$out" && npm pack ./package --silent >/dev/null)
rm -rf "$stage"
echo "npm: $(ls "$out"/*.tgz) (Linux x64, glibc $glibc or later)"
