#!/usr/bin/env bash
# `make dist`: the release archive PGXN takes, build/dist/bloomfilter-VERSION.zip:
# the tree's tracked files as they are in the work tree, under one directory
# bloomfilter-VERSION/ with META.json at its top (the PGXN meta spec 1.0.0;
# tools/check-versions.py validates it).  VERSION is META.json's, the
# control file's as semver.  Installed from the archive as from a clone:
#     unzip bloomfilter-VERSION.zip && cd bloomfilter-VERSION && make && make install
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(/usr/bin/python3 -c 'import json; print(json.load(open("META.json"))["version"])')
name=bloomfilter-$version
out=build/dist
rm -rf "$out"
mkdir -p "$out"
git ls-files -z | /usr/bin/python3 -c '
import os, stat, sys, zipfile
name, archive = sys.argv[1], sys.argv[2]
paths = sorted(p for p in sys.stdin.read().split("\0") if p and os.path.isfile(p))
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for p in paths:
        info = zipfile.ZipInfo.from_file(p, f"{name}/{p}")
        info.date_time = (2026, 1, 1, 0, 0, 0)  # the same bytes for the same tree
        info.external_attr = (stat.S_IFREG | (0o755 if os.access(p, os.X_OK) else 0o644)) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(p, "rb") as f:
            z.writestr(info, f.read())
print(f"dist: {archive} ({len(paths)} files)")
' "$name" "$out/$name.zip"
