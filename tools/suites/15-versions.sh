#!/usr/bin/env bash
# scope: once
# One version, stated alike everywhere (control file, META.json,
# debian/changelog), and released install scripts unchanged.
# Ends with "versions: N passed, M failed".
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 tools/check-versions.py
