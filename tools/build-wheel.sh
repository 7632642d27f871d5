#!/usr/bin/env bash
# `make wheel`: a binary wheel of the Python package (python/) in build/wheel/,
# carrying the compiled core and the SQLite extension, so that
#     pip install build/wheel/bloomfilter-*.whl
# needs no compiler.  Built offline from Debian's setuptools and wheel.
#
# Neither library is a Python extension module (the package reads them with
# ctypes and hands the SQLite one to sqlite3), so the wheel is for any Python 3
# ("py3-none"); what it does depend on is the platform: the processor and the
# oldest glibc that has every versioned symbol the libraries use.  That glibc
# is measured here, not assumed, and becomes the manylinux tag (PEP 600); a
# library that needs any other shared library than glibc's is refused.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/wheel
tools/install-deps.sh --quiet python

# The same inputs make the same wheel: it is kept beside the servers' cache
# (tools/postgres.sh --cache), keyed by a hash of what goes into it (the
# package, the core and SQLite sources, the control file, the licence, this
# script) and of the tools that build it, so that another clone or copy of
# the same sources gets it without building it again (the doc tests run
# `make wheel` on two pages, each in a copy of the tree);
# BLOOM_WHEEL_CACHE=off builds it anyway.
cache=$(tools/postgres.sh --cache)/../wheels
key=$({
    find python core sqlite bloomfilter.control LICENSE tools/build-wheel.sh -type f \
        -not -path 'python/build/*' -not -path '*/__pycache__/*' -not -path '*.egg-info/*' -print0 |
        LC_ALL=C sort -z | xargs -0 sha256sum
    /usr/bin/python3 --version
    dpkg-query -W gcc libsqlite3-dev python3-pip python3-setuptools python3-wheel 2>/dev/null
} | sha256sum | cut -c1-16)
if [ "${BLOOM_WHEEL_CACHE:-}" != off ] && [ -f "$cache/$key/complete" ]; then
    rm -rf "$out"
    mkdir -p "$out"
    cp "$cache/$key"/*.whl "$out"/
    echo "wheel: $(ls "$out"/*.whl) (made earlier of these same sources, kept in $(cd "$cache/$key" && pwd))"
    exit 0
fi

# python/build/ keeps what an earlier pip run compiled: a stale library would
# ride along into the wheel.
rm -rf "$out" build/wheel-work python/build
mkdir -p "$out" build/wheel-work
echo "wheel: building (pip wheel --no-build-isolation ./python, offline)"
PIP_NO_INDEX=1 /usr/bin/python3 -m pip wheel --no-build-isolation --no-deps -q ./python \
    -w build/wheel-work >build/wheel-work/pip.log 2>&1 || { cat build/wheel-work/pip.log; exit 1; }
built=$(ls build/wheel-work/bloomfilter-*.whl)
/usr/bin/python3 -m wheel unpack -d build/wheel-work/tree "$built" >/dev/null
tree=$(ls -d build/wheel-work/tree/bloomfilter-*)

glibc=2.0
for lib in "$tree"/bloomfilter/*.so; do
    # Only glibc's own libraries: anything else would be missing where the wheel lands.
    others=$(objdump -p "$lib" | awk '$1 == "NEEDED" { print $2 }' |
        grep -vE '^(libc|libm|libpthread|libdl|ld-linux[-a-z0-9_]*)\.so' || true)
    if [ -n "$others" ]; then
        echo "wheel: $lib needs $others, which a wheel cannot carry" >&2
        exit 1
    fi
    need=$(objdump -T "$lib" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
    glibc=$(printf '%s\n%s\n' "$glibc" "${need:-2.0}" | sort -V | tail -n 1)
done
arch=$(uname -m)
platform="manylinux_${glibc%%.*}_${glibc#*.}_${arch}"
# The tag names what the wheel really needs: any Python 3, no Python ABI.
wheelfile=$(ls "$tree"/bloomfilter-*.dist-info/WHEEL)
sed -i -e '/^Tag: /d' -e 's/^Root-Is-Purelib: .*/Root-Is-Purelib: false/' "$wheelfile"
echo "Tag: py3-none-$platform" >>"$wheelfile"
/usr/bin/python3 -m wheel pack -d "$out" "$tree" >/dev/null
rm -rf build/wheel-work
# Kept for the next build of these same sources (the newest few); a cache
# that cannot be written is no failure.
if mkdir -p "$cache/$key.tmp.$$" 2>/dev/null && cp "$out"/*.whl "$cache/$key.tmp.$$"/ &&
    touch "$cache/$key.tmp.$$/complete"; then
    rm -rf "$cache/$key"
    mv "$cache/$key.tmp.$$" "$cache/$key" || rm -rf "$cache/$key.tmp.$$"
    ls -dt "$cache"/*/ | tail -n +6 | xargs -r rm -rf
else
    rm -rf "$cache/$key.tmp.$$"
fi
echo "wheel: $(ls "$out"/*.whl) (needs glibc $glibc or later, $arch)"
