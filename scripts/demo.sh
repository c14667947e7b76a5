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
python="${SOCSIM_PYTHON:-/usr/bin/python3}"  # Debian's, with numpy and matplotlib
banner() { printf '\n======== %s\n' "$*"; }

banner "hello: firmware arguments through the boot-info block"
"$socsim" run --firmware "$build/firmware/apps/hello.elf" -- demo arguments

banner "add8 (int8, 1024 elements): one execution with its start-up probes, then 11"
"$socsim" run --firmware "$runner" --model "$zoo/add8_1024.pte" \
  --report "$reports/add8_1x" -- --num-executions 1
"$socsim" run -q --firmware "$runner" --model "$zoo/add8_1024.pte" \
  --report "$reports/add8_11x" -- --num-executions 11

banner "add8 delegated to the cpu-packed backend (4 bytes per word)"
"$socsim" run -q --firmware "$runner" --model "$zoo/add8_1024_cpu_packed.pte" \
  --report "$reports/add8_packed" -- --num-executions 11

banner "small conv net (int8) on the CPU, in lockstep with the ISS"
"$socsim" run -q --lockstep --firmware "$runner" --model "$zoo/convnet_int8.pte" \
  --report "$reports/convnet_cpu"

# ---- The NPU ---------------------------------------------------------------------------------
# The default SoC has an RK3588-like NPU (3 cores x 1024 int8 MACs at 1 GHz, configs/npu/).
# The *_int8_npu programs delegate every NPU-capable layer to it; the CPU keeps quantize,
# reshape and dequantize. Cycles are the CPU's (400 MHz) for one execution, NPU time included.
exec_cycles() { sed -n 's/^Execution 1: \([0-9]*\) cycles$/\1/p' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
results=()
# npu_compare <model> <cpu model for the CPU-only run> [extra socsim run args of the NPU run]
npu_compare() {
  local model=$1 cpu=$2
  shift 2
  local log_cpu="$reports/${model}_cpu_$cpu.log" log_npu="$reports/${model}_npu.log"
  local input="$zoo/$model.input.bin"
  mkdir -p "$reports"
  echo "-- $model, CPU only (--cpu $cpu)"
  "$socsim" run -q --cpu "$cpu" --firmware "$runner" --model "$zoo/${model}_int8.pte" \
    --input "$input" --max-cycles 20000000000 | tee "$log_cpu" | grep -v '^res\['
  echo "-- $model, delegated to the NPU (--cpu rtl)"
  "$socsim" run "$@" --firmware "$runner" --model "$zoo/${model}_int8_npu.pte" \
    --input "$input" --report "$reports/${model}_npu" | tee "$log_npu"
  local c n
  c=$(exec_cycles "$log_cpu")
  n=$(exec_cycles "$log_npu")
  local label="$cpu"
  results+=("$(printf '%-14s %11s %-17s %9s (rtl) %9sx' "$model" "$c" "($label)" "$n" \
    "$(ratio "$c" "$n")")")
}

banner "NPU: the small conv net (int8), CPU only vs delegated, with its per-layer report"
npu_compare convnet rtl

banner "NPU: MobileNetV2 (int8, 32x32), per-layer report"
echo "(the CPU-only baseline of the two large models runs on the ISS: about 4.5e8 and 9.5e8"
echo " cycles would take minutes on the RTL core; the ISS takes the RTL core's cycles)"
npu_compare mobilenet_v2 iss
"$python" "$root/scripts/npu_roofline.py" "$reports/mobilenet_v2_npu/npu_layers.json" \
  -o "$reports/mobilenet_v2_npu/roofline.png"

banner "NPU: ResNet-18 (int8, 32x32)"
npu_compare resnet18 iss -q

banner "NPU speed-ups (CPU cycles at 400 MHz for one inference)"
printf '%-14s %-29s %-15s %10s\n' model "CPU only" "with the NPU" speed-up
printf '%s\n' "${results[@]}"

banner "What if ... (MobileNetV2 with the NPU, one line each)"
echo "(the NPU's time per inference, from the per-layer report, and the whole inference's"
echo " cycles, which include the CPU's quantisation of the float input)"
# npu_us <report dir>: the NPU's time for the last frame, in microseconds
npu_us() {
  "$python" -c 'import json, sys
r = json.load(open(sys.argv[1]))
last = max(l["frame"] for l in r["layers"])
print("%.1f" % sum(l["time_us"] for l in r["layers"] if l["frame"] == last))' "$1/npu_layers.json"
}
base_us=$(npu_us "$reports/mobilenet_v2_npu")
whatif() {
  local what=$1
  shift
  local dir="$reports/mobilenet_v2_whatif"
  "$socsim" run -q "$@" --firmware "$runner" --model "$zoo/mobilenet_v2_int8_npu.pte" \
    --input "$zoo/mobilenet_v2.input.bin" --report "$dir" > "$dir.log"
  local us
  us=$(npu_us "$dir")
  printf '%-50s NPU %8s us (%5sx)  inference %9s cycles\n' "$what" "$us" \
    "$(ratio "$us" "$base_us")" "$(exec_cycles "$dir.log")"
}
whatif "rk3588-like, LPDDR4X-4266 (as above)"
whatif "--set npu.cores=1" --set npu.cores=1
whatif "--set npu.mac_array.rows=16" --set npu.mac_array.rows=16
whatif "--set memory_map.ddr.preset=../ddr/ddr4-3200.yaml" \
  --set memory_map.ddr.preset=../ddr/ddr4-3200.yaml
