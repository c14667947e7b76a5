#!/usr/bin/env bash
# Installs missing packages, configures (once) and builds socsim into build/ with -j2.
# Usage: scripts/build.sh [extra cmake --build args]
# SOCSIM_BUILD_DIR: the build folder (default build/); SOCSIM_SANITIZE: sanitizers of a new
# build folder (cmake/sanitizers.cmake, e.g. address,undefined).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
jobs="${SOCSIM_JOBS:-2}"

"$root/scripts/install-deps.sh"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    ${SOCSIM_SANITIZE:+"-DSOCSIM_SANITIZE=$SOCSIM_SANITIZE"}
fi
cmake --build "$build" -j "$jobs" "$@"
