#!/usr/bin/env bash
# The test suite: builds everything, then runs every test through CTest on 2 cores.
# Usage: scripts/test.sh [--sanitize | --fuzz] [ctest args]
# Extra arguments go to ctest (e.g. -L unit, -R Iss). Tests labelled `long`, `fuzz`,
# `onnx-reference` (onnxruntime comparisons in the onnx venv, scripts/onnx-venv.sh) or
# `executorch` (the .pte fixtures regenerated with the pinned torch 2 / ExecuTorch
# environment, scripts/executorch-venv.sh) are not part of the suite.
#
# --sanitize: the same under AddressSanitizer and UndefinedBehaviorSanitizer, in a second
# build folder (build-asan, or SOCSIM_ASAN_BUILD_DIR) configured with
# -DSOCSIM_SANITIZE=address,undefined; runs the labels unit, cli, run and firmware (the
# sanitizer subset, docs/hardening.md) unless ctest arguments say otherwise. Any sanitizer
# report fails its test.
#
# --fuzz: the fuzz targets (tests/fuzz), each for 30 s, through scripts/fuzz.sh, which builds
# them with clang in build-fuzz first (label `fuzz`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [[ "${1:-}" == "--sanitize" ]]; then
  shift
  export SOCSIM_BUILD_DIR="${SOCSIM_ASAN_BUILD_DIR:-$root/build-asan}"
  export SOCSIM_SANITIZE=address,undefined
  # halt_on_error: the first report ends the process (a failed test). SystemC's coroutine
  # stacks: detect_stack_use_after_return=0 (cmake/sanitizers.cmake). Leak checking is off:
  # SystemC's kernel never frees its simulation context, and a simulator that exits holds
  # no memory a later run could lose.
  export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=0:detect_leaks=0:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  if (($# == 0)); then
    set -- -L '^(unit|cli|run|firmware)$'
  fi
  exclude='^(long|executorch|onnx-reference)$'
elif [[ "${1:-}" == "--fuzz" ]]; then
  shift
  set -- -L '^fuzz$' "$@"
  exclude='^(long|executorch|onnx-reference)$'
else
  exclude='^(long|fuzz|executorch|onnx-reference)$'
fi

build="${SOCSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
cd "$build"
ctest -j "${SOCSIM_JOBS:-2}" --output-on-failure --timeout 600 -LE "$exclude" "$@"
