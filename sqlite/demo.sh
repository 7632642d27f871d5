#!/usr/bin/env bash
# make demo: the Bloom join on SQLite (sqlite/demo.py), with Debian's python3,
# whose sqlite3 module may load extensions.
set -eu
cd "$(dirname "$0")/.."
exec /usr/bin/python3 sqlite/demo.py build/bloomfilter
