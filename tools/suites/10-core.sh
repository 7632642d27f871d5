#!/usr/bin/env bash
# scope: once
# Core unit tests under AddressSanitizer and UBSan.
set -eu
cd "$(dirname "$0")/../.."
make --no-print-directory core-test
