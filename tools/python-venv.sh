#!/usr/bin/env bash
# The Python package (python/) installed as the README says, offline, into
# build/python-venv: a venv of Debian's /usr/bin/python3 that sees Debian's
# psycopg2 and psycopg 3 (--system-site-packages), pip with no index.
#   tools/python-venv.sh LOG     (re)make it; the pip output goes to LOG
#   tools/python-venv.sh LOG --if-missing   make it unless it is complete
set -eu
cd "$(dirname "$0")/.."
venv=$PWD/build/python-venv
# Under a lock, complete when .complete is there: the suites of two majors
# may ask for it at the same time.
mkdir -p build
exec 9>build/python-venv.lock
flock 9
[ "${2:-}" = --if-missing ] && [ -f "$venv/.complete" ] && exit 0
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv" >"$1" 2>&1
PIP_NO_INDEX=1 "$venv/bin/pip" install --no-build-isolation ./python >>"$1" 2>&1
touch "$venv/.complete"
