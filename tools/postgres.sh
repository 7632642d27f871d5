#!/usr/bin/env bash
# A PostgreSQL server of a given major on this Debian 12 machine, made from
# Debian's archive and the files beside the project only, and cached outside
# the clone.  The last line printed is the server's bin directory: initdb,
# pg_ctl, postgres, psql, pg_dump, pg_restore and a pg_config against which
#     make PG_CONFIG=<bin>/pg_config && make PG_CONFIG=<bin>/pg_config install
# builds and installs the extension into that server.
#
#   tools/postgres.sh MAJOR     make the server once, print its bin directory
#   tools/postgres.sh --list    the supported majors (pg/majors)
#   tools/postgres.sh --cache   the cache directory (other builds keep theirs beside)
#   tools/postgres.sh MAJOR --unpack PACKAGE ROOT
#                               unpack another Debian package of that major's
#                               suite into ROOT (a copy of the tree: the
#                               benchmarks put postgresql-MAJOR-hll beside it)
#
# Nothing of the machine changes but the cache, and Debian 12 packages the
# routes need when they are missing (tools/install-deps.sh postgres).  The
# machine's apt sources and state are never touched: other Debian suites are
# read with a private source list and state directory.  The cache is
# BLOOM_PG_CACHE, by default /var/cache/bloomfilter/postgres as root and
# ~/.cache/bloomfilter/postgres otherwise; a tree is <cache>/MAJOR/root, laid
# out as Debian lays out a server (usr/lib/postgresql/MAJOR/{bin,lib},
# usr/share/postgresql/MAJOR, usr/include/postgresql/MAJOR/server), and
# PostgreSQL finds its files relative to its binaries, so it runs from there.
#
# Routes, by major (measured on Debian 12, docs/ARCHITECTURE.md):
#   debian SUITE...  the server, client and -dev packages of the major from
#                    that Debian suite, unpacked (dpkg-deb -x, never
#                    installed) with the shared libraries they need; binaries
#                    built for a newer glibc (trixie's, sid's) run with the
#                    tree's own loader and libraries (patchelf sets both).
#   source TARBALL   built from the release tarball (16: no Debian suite has
#                    it; the 16.2 source is in ../shared/postgres).
set -euo pipefail
root_dir=$(cd "$(dirname "$0")/.." && pwd)

say() { echo "postgres.sh: $*" >&2; }
# What a set-up adapted that a user cannot act on goes to a log, not the terminal.
log_note() { echo "$*" >>"$tree/setup.log"; }
die() { say "$*"; exit 1; }

majors() { sed 's/#.*//' "$root_dir/pg/majors" | awk 'NF { print $1 }'; }

route_of() { # MAJOR -> "debian SUITE..." or "source TARBALL"
    case $1 in
        15) echo "debian bookworm bookworm-updates bookworm-security" ;;
        16) echo "source ${BLOOM_PG16_SOURCE:-$(cd "$root_dir/.." && pwd)/shared/postgres/postgresql-16.2.tar.gz}" ;;
        17) echo "debian trixie" ;;
        18) echo "debian sid" ;;
        19) echo "debian sid experimental" ;;
        *) return 1 ;;
    esac
}

if [ "$(id -u)" -eq 0 ]; then
    cache=${BLOOM_PG_CACHE:-/var/cache/bloomfilter/postgres}
else
    cache=${BLOOM_PG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bloomfilter/postgres}
fi
case ${1:-} in
    --list) majors; exit 0 ;;
    --cache) echo "$cache"; exit 0 ;;
esac
{ [ $# -eq 1 ] || { [ $# -eq 4 ] && [ "$2" = --unpack ]; }; } && [[ $1 =~ ^[0-9]+$ ]] ||
    die "usage: tools/postgres.sh MAJOR [--unpack PACKAGE ROOT]   (MAJOR: one of $(majors | tr '\n' ' '))"
major=$1
majors | grep -qx "$major" || die "PostgreSQL $major is not supported (pg/majors: $(majors | tr '\n' ' '))"
route=$(route_of "$major") || die "no route to a PostgreSQL $major server in tools/postgres.sh"

tree=$cache/$major
root=$tree/root
bin=$root/usr/lib/postgresql/$major/bin
stamp=$tree/complete

apt_private() { # apt-get|apt-cache ARGS...: apt on the private list and state
    local tool=$1; shift
    "$tool" -q -o Dir::Etc::sourcelist="$cache/apt-$major/sources.list" -o Dir::Etc::sourceparts=- \
        -o Dir::State="$cache/apt-$major/state" -o Dir::State::status="$cache/apt-$major/status" \
        -o Dir::Cache="$cache/apt-$major/cache" -o Acquire::Check-Valid-Until=false \
        -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" "$@"
}

usable() { [ -f "$stamp" ] && "$bin/postgres" --version >/dev/null 2>&1 && "$bin/pg_config" --version >/dev/null 2>&1; }

newest_in_archive() { # -> "VERSION SUITE" of the newest postgresql-MAJOR in the private lists
    local best= best_suite= v suite
    while IFS='|' read -r _ v suite; do
        v=$(echo "$v" | tr -d ' ')
        suite=$(echo "$suite" | awk '{ print $2 }')
        suite=${suite%%/*}
        if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v best_suite=$suite; fi
    done < <(apt_private apt-cache madison "postgresql-$major" 2>/dev/null)
    [ -n "$best" ] && echo "$best $best_suite"
}

# A tree of a pre-release (a version with ~, such as 19~rc1) is compared
# with the archive once a day: the release replaces it as soon as Debian has it.
superseded() {
    local what version
    what=$(cat "$tree/work/what" 2>/dev/null || cat "$tree/what" 2>/dev/null || true)
    set -- $what
    [ "${1:-}" = debian ] && version=${!#} && [[ $version == *~* ]] || return 1
    [ -z "$(find "$stamp" -mtime -1 2>/dev/null)" ] || return 1
    touch "$stamp"
    apt_private apt-get update >/dev/null 2>&1 || return 1
    local newest
    newest=$(newest_in_archive) || return 1
    if dpkg --compare-versions "${newest% *}" gt "$version"; then
        say "PostgreSQL $major: the archive now has ${newest% *} (this tree: $version); replacing the tree"
        return 0
    fi
    return 1
}

mkdir -p "$cache"
# A tree is made by one process at a time; the others wait and reuse it.
exec 9>"$cache/.lock-$major"
flock 9
if [ $# -eq 4 ]; then
    usable || die "no PostgreSQL $major tree yet: tools/postgres.sh $major makes it"
    [ -f "$cache/apt-$major/sources.list" ] || die "PostgreSQL $major comes from no Debian suite: no $3 for it"
    pkgs=$(mktemp -d)
    (cd "$pkgs" && apt_private apt-get download "$3") >"$pkgs/log" 2>&1 || { cat "$pkgs/log" >&2; rm -rf "$pkgs"; exit 1; }
    dpkg-deb -x "$pkgs"/*.deb "$4"
    rm -rf "$pkgs"
    exit 0
fi
if usable && ! superseded; then echo "$bin"; exit 0; fi

"$root_dir/tools/install-deps.sh" --quiet postgres >&2
rm -rf "$tree"
mkdir -p "$root"
trap 'rc=$?; [ $rc -eq 0 ] || { say "failed; removing the partial tree $tree"; rm -rf "$tree"; }' EXIT
work=$tree/work
mkdir -p "$work"
multiarch=$(gcc -print-multiarch 2>/dev/null || true)
[ -n "$multiarch" ] || multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
start=$SECONDS

# ---- debian: unpack the packages and the libraries they link ----

debian_route() { # SUITE...
    local suites=("$@") pgsuite=${@: -1} apt=$cache/apt-$major s
    mkdir -p "$apt/state/lists/partial" "$apt/cache/archives/partial"
    : > "$apt/status"
    for s in "${suites[@]}"; do
        case $s in
            *-security) echo "deb http://deb.debian.org/debian-security $s main" ;;
            *) echo "deb http://deb.debian.org/debian $s main" ;;
        esac
    done > "$apt/sources.list"
    say "PostgreSQL $major from Debian ${suites[*]}: reading the package lists"
    apt_private apt-get update >"$work/apt-update.log" 2>&1 || { cat "$work/apt-update.log" >&2; return 1; }

    # The newest server any of the route's suites has: 19's release reaches
    # sid while experimental still has its release candidate.
    local newest
    newest=$(newest_in_archive) || { say "no postgresql-$major in Debian ${suites[*]}"; return 1; }
    pgsuite=${newest#* }
    say "PostgreSQL $major: the newest in the archive is ${newest% *} (Debian $pgsuite)"
    local wanted="postgresql-$major postgresql-client-$major postgresql-server-dev-$major libpq5 libpq-dev" p
    mkdir -p "$work/debs"
    (cd "$work/debs" && apt_private apt-get download $(for p in $wanted; do echo "$p/$pgsuite"; done)) \
        >"$work/apt-download.log" 2>&1 || { cat "$work/apt-download.log" >&2; return 1; }
    # The shared libraries the binaries link, and theirs in turn (not the
    # maintainer-script tools: nothing is configured, only unpacked).
    local direct libs
    direct=$(for p in "$work"/debs/*.deb; do dpkg-deb -f "$p" Depends Pre-Depends; done |
        tr ',|' '\n\n' | sed -E 's/\([^)]*\)//; s/:any//; s/^ +//' | awk '{ print $1 }' |
        grep -E '^(lib|zlib)' | grep -vxE 'libpq5|libpq-dev' | sort -u)
    libs=$(apt_private apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
        --no-breaks --no-replaces --no-enhances $direct 2>/dev/null |
        grep -E '^(lib|zlib)' | grep -vxE 'libpq5|libpq-dev' | sort -u)
    (cd "$work/debs" && apt_private apt-get download $libs) >>"$work/apt-download.log" 2>&1 ||
        { cat "$work/apt-download.log" >&2; return 1; }
    say "unpacking $(ls "$work"/debs/*.deb | wc -l) packages"
    for p in "$work"/debs/*.deb; do dpkg-deb -x "$p" "$root"; done
    local version
    version=$(dpkg-deb -f "$work"/debs/postgresql-"$major"_*.deb Version)
    echo "debian ${suites[*]} postgresql-$major $version" > "$work/what"

    # The tree's binaries use the tree's loader and libraries: a newer glibc
    # than the machine's must not meet the machine's loader.
    local loader f
    loader=$(ls "$root"/usr/lib/"$multiarch"/ld-linux*.so.* "$root"/lib/"$multiarch"/ld-linux*.so.* 2>/dev/null | head -n 1 || true)
    [ -n "$loader" ] || { say "no dynamic loader in the unpacked libc6"; return 1; }
    for f in "$bin"/* "$root"/usr/lib/postgresql/"$major"/lib/pgxs/src/test/*/*; do
        [ -f "$f" ] && patchelf --print-interpreter "$f" >/dev/null 2>&1 || continue
        patchelf --set-interpreter "$loader" --force-rpath \
            --set-rpath "$root/usr/lib/$multiarch:$root/lib/$multiarch:$root/usr/lib/postgresql/$major/lib" "$f"
    done
}

# ---- source: configure, build, install into the tree ----
source_route() { # TARBALL
    local tarball=$1 src
    [ -f "$tarball" ] || { say "no source of PostgreSQL $major at $tarball (BLOOM_PG${major}_SOURCE names another)"; return 1; }
    say "PostgreSQL $major from $(basename "$tarball"): building (about 5 minutes on 2 cores, once)"
    tar -xzf "$tarball" -C "$work"
    src=$(ls -d "$work"/postgresql-*/ | head -n 1)
    # Debian's layout (see the top), no rpath (patchelf sets the tree's),
    # and nothing the tests do not use (ICU, readline).
    (cd "$src" && ./configure --prefix=/usr/lib/postgresql/"$major" --datadir=/usr/share/postgresql/"$major" \
        --includedir=/usr/include/postgresql/"$major" --disable-rpath --without-icu --without-readline) \
        >"$work/configure.log" 2>&1 || { tail -n 30 "$work/configure.log" >&2; return 1; }
    # The generated headers first: a parallel build of a tree without them
    # (a git export has none) races for utils/errcodes.h.
    { make -C "$src/src/backend" -s generated-headers &&
      make -C "$src" -s -j"$(nproc)" && make -C "$src/contrib/postgres_fdw" -s -j"$(nproc)" &&
      make -C "$src" -s install DESTDIR="$root" && make -C "$src/contrib/postgres_fdw" -s install DESTDIR="$root"; } \
        >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; return 1; }
    echo "source $(basename "$tarball") $("$src/src/bin/pg_config/pg_config" --version)" > "$work/what"
    local f
    for f in "$bin"/* "$root"/usr/lib/postgresql/"$major"/lib/pgxs/src/test/*/*; do
        [ -f "$f" ] && patchelf --print-interpreter "$f" >/dev/null 2>&1 || continue
        patchelf --force-rpath --set-rpath "$root/usr/lib/postgresql/$major/lib" "$f"
    done
}

set -- $route
kind=$1; shift
case $kind in
    debian) debian_route "$@" ;;
    source) source_route "$@" ;;
esac

# PGXS as the host compiles: drop compiler flags the packages' (newer)
# compiler knew and this one does not, and bitcode for a clang that is not
# here (JIT inlining of extension code is optional).
makefile_global=$root/usr/lib/postgresql/$major/lib/pgxs/src/Makefile.global
cc=$(sed -n 's/^CC = //p' "$makefile_global")
command -v "$cc" >/dev/null || { sed -i "s|^CC = .*|CC = gcc|" "$makefile_global"; cc=gcc; }
kept=
for flag in $(sed -n 's/^CFLAGS = //p' "$makefile_global"); do
    if echo 'int x;' | "$cc" -Wall -Werror "$flag" -xc -c -o /dev/null - 2>/dev/null; then
        kept="$kept $flag"
    else
        log_note "the host's $cc does not know $flag: dropped from PGXS's CFLAGS"
    fi
done
awk -v flags="${kept# }" '/^CFLAGS = / { print "CFLAGS = " flags; next } { print }' "$makefile_global" > "$work/mg"
cat "$work/mg" > "$makefile_global"
clang=$(sed -n 's/^CLANG = //p' "$makefile_global")
if grep -q '^with_llvm	*= *yes' "$makefile_global" && ! command -v "${clang:-none}" >/dev/null; then
    sed -i 's/^with_llvm\(	*\)= *yes/with_llvm\1= no/' "$makefile_global"
    log_note "no $clang here: extensions built against this tree install no JIT bitcode"
fi

# Headers configured against a newer C library declare less than this one
# needs: trixie's and sid's glibc have strlcpy (2.38), so their pg_config.h
# says so and port.h leaves it undeclared.  Functions this machine's headers
# lack are marked undeclared again (port.h then declares them; the server's
# own C library defines them at run time).
for header in "$root"/usr/include/postgresql/"$major"/server/pg_config.h "$root"/usr/include/postgresql/pg_config.h; do
    [ -f "$header" ] || continue
    for decl in $(sed -n 's/^#define HAVE_DECL_\([A-Z0-9_]*\) 1$/\1/p' "$header"); do
        case $decl in LLVM*|F_*) continue ;; esac
        fn=$(echo "$decl" | tr 'A-Z' 'a-z')
        if ! printf '#define _GNU_SOURCE\n#include <string.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <fcntl.h>\n#include <sys/uio.h>\nvoid *p(void) { return (void *) %s; }\n' "$fn" |
            gcc -Werror=implicit-function-declaration -xc -c -o /dev/null - 2>/dev/null; then
            sed -i "s/^#define HAVE_DECL_$decl 1$/#define HAVE_DECL_$decl 0/" "$header"
            [ "$header" != "$root/usr/include/postgresql/$major/server/pg_config.h" ] ||
                log_note "this machine's C library declares no $fn: pg_config.h says so"
        fi
    done
done

"$bin/postgres" --version >/dev/null && "$bin/pg_config" --version >/dev/null ||
    die "the binaries of $bin do not run"
mv "$work/what" "$tree/what"
rm -rf "$work"
# The servers run as the postgres user (PostgreSQL refuses root).
chmod -R a+rX "$tree"
cp "$tree/what" "$stamp"
say "PostgreSQL $major ready in $((SECONDS - start)) s: $(cat "$stamp")$([ ! -f "$tree/setup.log" ] || echo " (set-up notes: $tree/setup.log)")"
echo "$bin"
