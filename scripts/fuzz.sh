#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) into build-fuzz and runs
# each for a given time, one after the other (docs/hardening.md).
#
# Usage: scripts/fuzz.sh [--time S] [--runs N] [--build-only] [--no-build] [target...]
#   --time S      seconds per target (default 60, or no limit with --runs)
#   --runs N      stop a target after N inputs instead (with --time: whichever comes first)
#   --build-only  configure and build, run nothing
#   --no-build    run what build-fuzz holds (the test suite builds it once first)
#   target        soc_config, ddr_preset, npu_preset, elf, hex, program, pte, npu_descriptor,
#                 sweep_spec, compile_model, compile_tflite (default: all, as listed in
#                 build-fuzz/fuzz_targets.txt)
#
# sweep_spec is the Python sweep-file loader under atheris (in build-fuzz/venv, made by
# scripts/install-deps.sh --fuzz); it runs socsim ($SOCSIM_BINARY, default build/bin/socsim)
# to read the SoC descriptions a sweep names.
#
# Each target's corpus grows in build-fuzz/corpus/<target> (the seed folders of the tree are
# read, never written); a crash, a timeout (10 s for one input), an out-of-memory (2 GiB) or
# a sanitizer report stops the target and leaves the input in build-fuzz/artifacts/<target>/.
# One line per target gives executions, coverage and corpus size. Exit 1 if any target
# failed. SOCSIM_FUZZ_BUILD_DIR overrides the build folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds=
runs=
build_step=1
run_step=1
targets=()
while (($#)); do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --build-only) run_step=0; shift ;;
    --no-build) build_step=0; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

if ((build_step)); then
  "$root/scripts/install-deps.sh" --fuzz
  if [[ ! -f "$build/CMakeCache.txt" ]]; then
    CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOCSIM_FUZZ=ON -DSOCSIM_SANITIZE=address,undefined \
      -DSOCSIM_BUILD_TESTS=OFF -DSOCSIM_BUILD_FIRMWARE=OFF
  fi
  mapfile -t all < <(cut -d' ' -f1 "$build/fuzz_targets.txt")
  cmake --build "$build" -j "${SOCSIM_JOBS:-2}" --target "${all[@]/#/fuzz_}"
fi
((run_step)) || exit 0

if [[ ! -f "$build/fuzz_targets.txt" ]]; then
  echo "fuzz.sh: $build has no fuzz build (run scripts/fuzz.sh --build-only)" >&2
  exit 2
fi
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(cut -d' ' -f1 "$build/fuzz_targets.txt")
fi

export ASAN_OPTIONS="halt_on_error=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
failed=0
for target in "${targets[@]}"; do
  line=$(grep "^$target " "$build/fuzz_targets.txt" || true)
  if [[ -z "$line" ]]; then
    echo "fuzz.sh: unknown target '$target' (see $build/fuzz_targets.txt)" >&2
    exit 2
  fi
  read -r -a fields <<<"$line"
  seeds=("${fields[@]:2}")
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  dict=()
  [[ "${fields[1]}" != - ]] && dict=("-dict=${fields[1]}")
  # -max_total_time=0 is no limit: --runs alone runs all N inputs, however long they take
  limit=("-max_total_time=${seconds:-$([[ -n "$runs" ]] && echo 0 || echo 60)}")
  [[ -n "$runs" ]] && limit+=("-runs=$runs")
  status=0
  "$build/fuzz/fuzz_$target" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" \
    "$corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -a -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  units=$(find "$corpus" -type f | wc -l)
  if ((status == 0)); then
    verdict="crashes: 0"
  else
    verdict="FAILED (exit $status): $(grep -a -m1 -E 'ERROR: |runtime error|deadly signal|Timeout|out-of-memory' "$log" || true)"
    failed=1
    echo "--- $log (end) ---"
    tail -40 "$log"
  fi
  echo "fuzz $target: executions: ${execs:-?}, coverage: ${cov:-?} edges, ${ft:-?} features, corpus: $units inputs, $verdict"
done
exit $failed
