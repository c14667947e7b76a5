#!/usr/bin/env bash
# The test suite: builds everything, then runs every test through CTest on 2 cores.
# Extra arguments go to ctest (e.g. -L unit, -R Iss, -LE long).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
cd "$build"
ctest -j "${SOCSIM_JOBS:-2}" --output-on-failure --timeout 600 -LE long "$@"
