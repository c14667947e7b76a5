#!/usr/bin/env bash
# The demo: builds everything, then runs models through the inference runtime on the
# simulated SoC (cycle-exact RTL core at 400 MHz), as in the seed's benchmarking campaign.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"

socsim="$build/bin/socsim"
runner="$build/firmware/apps/executor_runner/executor_runner.elf"
zoo="$build/tests/runtime/zoo"
reports="$root/reports"
banner() { printf '\n======== %s\n' "$*"; }

banner "hello: firmware arguments through the boot-info block"
"$socsim" run --firmware "$build/firmware/apps/hello.elf" -- demo arguments

banner "add8 (int8, 1024 elements): one execution, then 11 (fixed vs dynamic cost)"
"$socsim" run -q --firmware "$runner" --model "$zoo/add8_1024.prog" \
  --report "$reports/add8_1x" -- --num-executions 1
"$socsim" run -q --firmware "$runner" --model "$zoo/add8_1024.prog" \
  --report "$reports/add8_11x" -- --num-executions 11

banner "add8 delegated to the cpu-packed backend (4 bytes per word)"
"$socsim" run -q --firmware "$runner" --model "$zoo/add8_1024_cpu_packed.prog" \
  --report "$reports/add8_packed" -- --num-executions 11

banner "small conv net (int8) on the CPU, in lockstep with the ISS"
"$socsim" run -q --lockstep --firmware "$runner" --model "$zoo/convnet_int8.prog" \
  --report "$reports/convnet_cpu"
