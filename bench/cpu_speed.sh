#!/usr/bin/env bash
# Simulation speed of the CPU models on a long CPU-bound loop (bench/programs/cpu_loop.S):
# simulated cycles and instructions per host second, median of N runs (default 3).
# Usage: bench/cpu_speed.sh [runs]    (after scripts/build.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
runs="${1:-3}"
elf="$build/bench/cpu_loop.elf"
[[ -f "$elf" ]] || { echo "build first: scripts/build.sh" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

for cpu in iss; do
  for i in $(seq "$runs"); do
    "$build/bin/socsim" run --cpu "$cpu" --firmware "$elf" --report "$tmp/$cpu.$i" -q > /dev/null
  done
  /usr/bin/python3 - "$tmp" "$cpu" "$runs" <<'PY'
import json, statistics, sys
tmp, cpu, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = [json.load(open(f"{tmp}/{cpu}.{i}/summary.json")) for i in range(1, runs + 1)]
secs = statistics.median(x["host_seconds"] for x in s)
cyc, ins = s[0]["cycles"], s[0]["instructions"]
print(f"{cpu:4s}: {cyc:,} cycles, {ins:,} instructions; median {secs:.3f} s over {runs} runs: "
      f"{cyc / secs / 1e6:.1f} M cycles/s, {ins / secs / 1e6:.1f} M instructions/s")
PY
done
