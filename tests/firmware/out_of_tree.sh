#!/usr/bin/env bash
# The out-of-tree firmware kit end to end: copies docs/examples/firmware_app to a fresh
# directory outside the source and build trees, configures it with the RISC-V toolchain file
# and the build's socsim_firmware package, builds it, checks the flags it was compiled with
# (-O2 and -g, no -O3/-DNDEBUG), and runs it on the simulator with a model.
# Usage: out_of_tree.sh <source dir> <build dir> <model.pte>
set -euo pipefail
src=$1 build=$2 model=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/socsim-oot.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$src/docs/examples/firmware_app" "$work/app"

cmake -S "$work/app" -B "$work/build" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$src/firmware/cmake/riscv32_toolchain.cmake" \
  -Dsocsim_firmware_DIR="$build/socsim_firmware"
cmake --build "$work/build" -j "${SOCSIM_JOBS:-2}" -- -v > "$work/build.log"
cmd=$(grep -E -- '-c .*/app/main\.cpp' "$work/build.log" | head -n 1)
for want in ' -O2' ' -g' 'ffunction-sections'; do
  [[ "$cmd" == *"$want"* ]] || { echo "FAIL: main.cpp compiled without '$want': $cmd"; exit 1; }
done
for unwanted in ' -O3' 'NDEBUG'; do
  [[ "$cmd" != *"$unwanted"* ]] || { echo "FAIL: main.cpp compiled with '$unwanted': $cmd"; exit 1; }
done
test -f "$work/build/model_info.map" && test -f "$work/build/model_info.lst"

"$build/bin/socsim" run --cpu iss --firmware "$work/build/model_info.elf" --model "$model" \
  --max-cycles 50000000
