#!/usr/bin/env bash
# Installs missing packages, configures (once) and builds socsim into build/ with -j2.
# Usage: scripts/build.sh [extra cmake --build args]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
jobs="${SOCSIM_JOBS:-2}"

"$root/scripts/install-deps.sh"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" -j "$jobs" "$@"
