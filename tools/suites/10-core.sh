#!/usr/bin/env bash
# Core unit tests under AddressSanitizer and UBSan.
set -eu
cd "$(dirname "$0")/../.."
make --no-print-directory core-test
