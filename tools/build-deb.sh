#!/usr/bin/env bash
# `make deb`: the Debian packages postgresql-NN-bloomfilter, one per
# PostgreSQL major (pg/majors, or the majors in PG), and
# libsqlite3-mod-bloomfilter, and lintian's report.
#
# pg_buildext builds one package per major it finds at
# /usr/lib/postgresql/NN/bin/pg_config, Debian's layout.  Debian 12 has 15
# only, so dpkg-buildpackage runs in a private mount namespace (unshare)
# where /usr/lib/postgresql, /usr/share/postgresql and
# /usr/include/postgresql hold the servers of tools/postgres.sh, each at
# Debian's place: the machine's own directories are never written.
#
# dpkg-buildpackage writes beside the source tree, so it runs on a copy of
# the tree's tracked files (as they are in the work tree) in build/deb/; the
# packages, the .changes and lintian.txt land in build/deb/.  Untracked
# files never go in: a virtual environment made where the README says
# (.venv), a scratch file or a build left in the tree would otherwise land in
# the orig tarball (a .venv: 867 files, and lintian warnings about them).
# The pg_regress run inside the build (dh_pgxs_test) is skipped unless
# DEB_BUILD_OPTIONS asks for it (DEB_BUILD_OPTIONS= make deb): it needs
# Debian's own server (extension_destdir), which the 16 built from source
# is not; the packages suite tests every installed package instead.
# parallel=: each major's build uses every core.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS-nocheck parallel=$(nproc)}

majors=${PG:-$(grep -o '^[0-9][0-9]*' pg/majors | tr '\n' ' ')}
cache=$(tools/postgres.sh --cache)
missing=
for major in $majors; do [ -f "$cache/$major/complete" ] || missing="$missing $major"; done
echo "deb: packages for PostgreSQL ${majors% } and SQLite (PG=\"15 17\" make deb: those majors only)"
if [ -n "$missing" ]; then
    echo "deb: first, the servers of${missing} (tools/postgres.sh, cached in $cache): about a minute each" \
        "from Debian's archive, 5 minutes for 16, built from source; then about a minute a major"
else
    echo "deb: the servers are cached; about a minute a major"
fi
tools/install-deps.sh --quiet deb
trees=
for major in $majors; do
    bin=$(tools/postgres.sh "$major" | tail -n 1)
    trees="$trees $major=${bin%/usr/lib/postgresql/$major/bin}"
done

version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" bloomfilter.control)
debian_version=$(dpkg-parsechangelog -S Version)
if [ "${debian_version%-*}" != "$version" ]; then
    echo "deb: debian/changelog is at $debian_version, bloomfilter.control at $version:" >&2
    echo "deb: add a debian/changelog entry for $version (dch -v $version-1)" >&2
    exit 1
fi

out=build/deb
src=$out/bloomfilter-$version
rm -rf "$out"
mkdir -p "$src"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf - | tar -xf - -C "$src"
else
    tar --exclude=./build --exclude=./.git --exclude=./.venv -cf - . | tar -xf - -C "$src"
fi
# The upstream tarball: the tree without debian/ (format 3.0 (quilt)).
tar -C "$out" --exclude="bloomfilter-$version/debian" --sort=name --owner=0 --group=0 \
    -czf "$out/bloomfilter_$version.orig.tar.gz" "bloomfilter-$version"

# debian/control names one package per major: the committed one all of
# pg/majors, the copy's those built (pg_buildext updatecontrol).
unshare_opts=--mount
[ "$(id -u)" -eq 0 ] || unshare_opts="--mount --map-root-user"
# shellcheck disable=SC2086
(cd "$src" && PG_SUPPORTED_VERSIONS="${majors% }" unshare $unshare_opts --propagation private \
    "$OLDPWD/tools/debian-servers.sh" $trees -- sh -c 'pg_buildext updatecontrol && dpkg-buildpackage -us -uc') \
    > "$out/build.log" 2>&1 || {
    tail -n 60 "$out/build.log"
    echo "deb: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
    exit 1
}
# Every tag lintian emits, with its explanation-free one-line form; the
# packages suite fails on errors and warnings.
lintian --info --display-info --pedantic "$out"/bloomfilter_*.changes > "$out/lintian.txt" 2>&1 || true
ls "$out"/*.deb
echo "deb: lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings," \
    "$(grep -c '^[IP]:' "$out/lintian.txt") info/pedantic notes ($out/lintian.txt)"
