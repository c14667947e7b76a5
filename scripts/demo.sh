#!/usr/bin/env bash
# The demo: builds everything, then runs the demo firmware on the default SoC.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"

socsim="$build/bin/socsim"
fw="$build/firmware"
echo "== hello on the default SoC (configs/soc/default.yaml)"
"$socsim" run --config "$root/configs/soc/default.yaml" --firmware "$fw/apps/hello.elf" \
  --report "$root/reports/hello" -- demo arguments
