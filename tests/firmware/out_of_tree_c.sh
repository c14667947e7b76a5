#!/usr/bin/env bash
# A C-only out-of-tree firmware project (docs/examples/firmware_c_app: project(... C ASM), no
# C++ compiler enabled): configures and builds from a copy outside the source and build trees,
# checks that no runtime object was compiled for it, and runs it on the simulator.
# Usage: out_of_tree_c.sh <source dir> <build dir>
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/socsim-oot-c.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$src/docs/examples/firmware_c_app" "$work/app"

cmake -S "$work/app" -B "$work/build" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$src/firmware/cmake/riscv32_toolchain.cmake" \
  -Dsocsim_firmware_DIR="$build/socsim_firmware"
cmake --build "$work/build" -j "${SOCSIM_JOBS:-2}" -- -v > "$work/build.log"
if grep -qE 'firmware/(runtime|kernels|delegates)/|\.cpp' "$work/build.log"; then
  echo "FAIL: C++ runtime sources compiled for a C program:"
  grep -E 'firmware/(runtime|kernels|delegates)/|\.cpp' "$work/build.log" | head -n 5
  exit 1
fi
"$build/bin/socsim" run --cpu iss --firmware "$work/build/hello_c.elf" --max-cycles 10000000
