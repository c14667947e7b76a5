#!/usr/bin/env bash
# Cross-checks socsim's core (rtl/) and the ISS (which takes that core's cycles) against the
# OpenHW CV32E40P, cycle for cycle.
#
# Builds the rtl CPU model a second time from a CV32E40P checkout (CMake option
# SOCSIM_CV32E40P_RTL, rtl/README.md) and runs every program of the timing suite
# (tests/timing) and random instruction programs (SOCSIM_CV32E40P_RANDOM of them, default 12,
# 1500 instructions each) on the three in the bare harness (rv_harness, --core iss for the
# ISS), with zero-wait memory and with random grants and response delays (seeds in
# SOCSIM_CV32E40P_SEEDS, default "1 7 42"), comparing their OBI bus traces with the genuine
# core's request by request (scripts/cv32e40p-compare.py): cores that fetch, load and store
# the same words in the same cycles have the same timing. The genuine core also runs the
# suite's self-checks.
#
#   scripts/cv32e40p-check.sh [--checkout DIR] [--soc] [--soc-long] [--no-bare] [--fpu]
#
# --soc also builds `socsim` with the CV32E40P and runs the firmware programs and the runtime
# on the small models (add8, the conv net delegated to the NPU; DDR, NPU and interrupts
# included) on the whole SoC with the three, comparing their cycle counts. --soc-long adds
# the runtime on the CPU-bound models (the conv net in int8 and float32 on the CPU, add8
# with packed arithmetic: minutes on the RTL cores). --no-bare leaves out the bare-harness
# comparisons (the SoC runs only).
#
# --fpu checks the CV32E40P built with its FPU instead (docs/fpu.md), once per configuration
# in SOCSIM_CV32E40P_FPU_CONFIGS (default "0,0,0 1,1,0 2,2,0 0,0,1 1,1,1 2,2,1": FPU_ADDMUL_LAT,
# FPU_OTHERS_LAT, ZFINX; each a Verilator build of FPnew, several minutes): the timing suite and
# the random programs make the same requests in the same cycles as on socsim's core (integer
# code keeps its timing with the FPU present); the RV32F conformance programs (rv32f_conformance,
# seeds in SOCSIM_CV32E40P_FPU_SEEDS, default "1 2", 128 operand triples each) give the results
# and flags socsim's float arithmetic computes, bit for bit; the F instruction costs
# (tests/timing/fpu_timing.S) are printed; and the ISS with the same FPU configuration
# (rv_harness --core iss --fpu-lat, with --zfinx for ZFINX=1) makes the same requests in the
# same cycles as the genuine core on fpu_timing.S, the float kernels, the conformance programs
# and SOCSIM_CV32E40P_FPU_RANDOM (default 12) random float programs
# (scripts/gen_random_float_program.py, 1500 instructions each). For Zfinx the programs are
# built for rv32imc_zfinx (fpu_timing.S with -DZFINX, random programs with --zfinx, the
# float kernels as soft float with firmware/crt/zfinx_float.S linked before libgcc).
#
# Without --checkout (or SOCSIM_CV32E40P_RTL in the environment), the CV32E40P sources are
# taken from PyPI's pythondata-cpu-cv32e40p (a packaging of the openhwgroup/cv32e40p
# repository), pinned by version and hash, into <build>/cv32e40p/. Needs a built tree
# (scripts/build.sh). Exit status: 0 all identical, 1 a difference, 2 usage or build errors,
# 77 no checkout given and the download failed (the test is then reported as skipped).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SOCSIM_BUILD_DIR:-$root/build}"
checkout="${SOCSIM_CV32E40P_RTL:-}"
soc=0
soc_long=0
bare=1
fpu=0
while (($#)); do
  case "$1" in
    --checkout) checkout="$2"; shift 2 ;;
    --soc) soc=1; shift ;;
    --soc-long) soc=1; soc_long=1; shift ;;
    --no-bare) bare=0; shift ;;
    --fpu) fpu=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "cv32e40p-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

harness="$build/bin/rv_harness"
programs=()
for elf in "$build"/tests/timing/*.elf; do
  # fpu_timing*.elf, random_float_*.elf, rv32f_conformance_*.elf and float_kernels_*.elf
  # need the FPU: not integer programs (the --fpu checks below run their own)
  case $(basename "$elf") in
    fpu_timing*.elf | random_float_*.elf | rv32f_conformance_*.elf | float_kernels_*.elf) ;;
    *) programs+=("$elf") ;;
  esac
done
if [[ ! -x "$harness" || ! -e "${programs[0]}" ]]; then
  echo "cv32e40p-check: $build has no rv_harness or timing programs: run scripts/build.sh" >&2
  exit 2
fi

cache="$build/cv32e40p"
mkdir -p "$cache"

# Random instruction programs (scripts/gen_random_program.py): their DDR accesses fall outside
# the harness's memory (reads return 0), which changes nothing for the comparison.
random_count=${SOCSIM_CV32E40P_RANDOM:-12}
mkdir -p "$cache/random"
for ((i = 1; i <= random_count; i++)); do
  elf="$cache/random/random_$i.elf"
  if [[ ! -e "$elf" ]]; then
    /usr/bin/python3 "$root/scripts/gen_random_program.py" --seed "$((1000 + i))" --count 1500 \
      -o "$cache/random/random_$i.S"
    riscv64-unknown-elf-gcc -march=rv32imc_zicsr -mabi=ilp32 -nostdlib -nostartfiles \
      -Wl,-Ttext=0 -Wl,-e,_start "$cache/random/random_$i.S" -o "$elf"
  fi
  programs+=("$elf")
done
if [[ -z "$checkout" ]]; then
  package="pythondata-cpu-cv32e40p==1.0.1.post1909"
  hash="sha256:424a04b65d854903ada62feb94a78346e60dc84c5487ed1f32405666eee6f8c3"
  checkout="$cache/system_verilog"
  if [[ ! -f "$checkout/cv32e40p_manifest.flist" ]]; then
    echo "cv32e40p-check: fetching $package from PyPI" >&2
    [[ -x "$cache/venv/bin/pip" ]] || /usr/bin/python3 -m venv --system-site-packages "$cache/venv"
    echo "$package --hash=$hash" > "$cache/requirements.txt"
    if ! "$cache/venv/bin/pip" download -q --no-deps --require-hashes \
        -r "$cache/requirements.txt" -d "$cache/wheel"; then
      echo "cv32e40p-check: could not download $package: skipped" >&2
      exit 77
    fi
    /usr/bin/python3 - "$cache" <<'PY'
import glob, os, shutil, sys, zipfile
cache = sys.argv[1]
wheel = glob.glob(os.path.join(cache, "wheel", "pythondata_cpu_cv32e40p-*.whl"))[0]
unpacked = os.path.join(cache, "unpacked")
shutil.rmtree(unpacked, ignore_errors=True)
zipfile.ZipFile(wheel).extractall(unpacked)
shutil.rmtree(os.path.join(cache, "system_verilog"), ignore_errors=True)
os.rename(os.path.join(unpacked, "pythondata_cpu_cv32e40p", "system_verilog"),
          os.path.join(cache, "system_verilog"))
shutil.rmtree(unpacked)
PY
  fi
fi
checkout=$(cd "$checkout" && pwd)

if ((fpu)); then
  conformance="$build/bin/rv32f_conformance"
  if [[ ! -x "$conformance" ]]; then
    echo "cv32e40p-check: $build has no rv32f_conformance: run scripts/build.sh" >&2
    exit 2
  fi
  status=0
  rv32f_flags=(-nostdlib -nostartfiles -ffreestanding -fno-builtin -mno-relax -Wl,--no-relax
               -Wl,--no-warn-rwx-segments -O2 -I"$root" -T "$root/tests/timing/link.ld"
               "$root/tests/timing/crt.S")
  mkdir -p "$cache/fpu"
  float_count=${SOCSIM_CV32E40P_FPU_RANDOM:-12}
  # The float kernels of the comparison (bench/fpu/float_kernels.c, docs/fpu.md): soft float
  # on socsim's core, then each configuration's FPU; both must print the same checksum.
  kernels=(-nostdlib -nostartfiles -ffreestanding -fno-builtin -mno-relax -Wl,--no-relax
           -Wl,--no-warn-rwx-segments -O2 -I"$root" -T "$root/tests/timing/link.ld"
           "$root/tests/timing/crt.S" "$root/bench/fpu/float_kernels.c"
           "$root/tests/timing/support.c" -lgcc)
  riscv64-unknown-elf-gcc -march=rv32imc -misa-spec=2.2 -mabi=ilp32 "${kernels[@]}" \
    -o "$cache/fpu/float_kernels_soft.elf" || exit 2
  riscv64-unknown-elf-gcc -march=rv32imfc -misa-spec=2.2 -mabi=ilp32f "${kernels[@]}" \
    -o "$cache/fpu/float_kernels_fpu.elf" || exit 2
  # (zfinx_float.S before libgcc: its routines take the place of libgcc's)
  riscv64-unknown-elf-gcc -march=rv32imc -misa-spec=2.2 -mabi=ilp32 \
    "${kernels[@]/#-lgcc/$root/firmware/crt/zfinx_float.S}" -lgcc \
    -o "$cache/fpu/float_kernels_zfinx.elf" || exit 2
  "$harness" "$cache/fpu/float_kernels_soft.elf" > "$cache/fpu/float_kernels.soft.out" 2>&1 \
    || status=1
  echo "float kernels, soft float on socsim's core (cycles):" \
       "$(grep -v '^rv_harness' "$cache/fpu/float_kernels.soft.out" | paste -sd ';' \
          | sed 's/;/; /g')"
  for config in ${SOCSIM_CV32E40P_FPU_CONFIGS:-0,0,0 1,1,0 2,2,0 0,0,1 1,1,1 2,2,1}; do
    IFS=, read -r addmul others zfinx <<< "$config"
    if ((zfinx)); then name="zfinx-$addmul-$others"; else name="fpu1-$addmul-$others"; fi
    fbuild="$cache/build-$name"
    echo "CV32E40P FPU=1 FPU_ADDMUL_LAT=$addmul FPU_OTHERS_LAT=$others ZFINX=$zfinx:"
    cmake -S "$root" -B "$fbuild" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DSOCSIM_CV32E40P_RTL="$checkout" -DSOCSIM_CV32E40P_FPU=1 \
      -DSOCSIM_CV32E40P_FPU_ADDMUL_LAT="$addmul" -DSOCSIM_CV32E40P_FPU_OTHERS_LAT="$others" \
      -DSOCSIM_CV32E40P_ZFINX="$zfinx" -DSOCSIM_BUILD_TESTS=OFF -DSOCSIM_BUILD_FIRMWARE=OFF \
      > "$cache/configure-$name.log" 2>&1 || { cat "$cache/configure-$name.log" >&2; exit 2; }
    ninja -C "$fbuild" -j "${SOCSIM_JOBS:-2}" rv_harness > "$cache/build-$name.log" 2>&1 \
      || { tail -40 "$cache/build-$name.log" >&2; exit 2; }
    # Integer programs: the same requests in the same cycles as socsim's core.
    same=0
    for elf in "${programs[@]}"; do
      prog=$(basename "$elf" .elf)
      "$harness" "$elf" --bus-trace "$cache/fpu/$prog.socsim" > /dev/null || true
      "$fbuild/bin/rv_harness" "$elf" --bus-trace "$cache/fpu/$prog.$name" \
        > "$cache/fpu/$prog.$name.out" 2>&1 || true
      # csr.S checks misa and mimpid, which differ with the FPU: misa.F is set (not with
      # Zfinx) and mimpid reads 1 (cv32e40p_cs_registers.sv). The one expected difference,
      # checked as such: the program stops at the first of the two.
      if [[ $prog == csr ]]; then
        if ((zfinx)); then expect="expected 0x00000000, got 0x00000001"
        else expect="expected 0x40001104, got 0x40001124"; fi
        if grep -q "$expect" "$cache/fpu/$prog.$name.out"; then
          echo "  csr: stops at its misa/mimpid check as expected ($expect)"
        else
          status=1
          echo "  csr: expected '$expect', got: $(tail -1 "$cache/fpu/$prog.$name.out")"
        fi
        continue
      fi
      if verdict=$("$root/scripts/cv32e40p-compare.py" "$cache/fpu/$prog.socsim" \
                   "$cache/fpu/$prog.$name" --max-reports 3); then
        same=$((same + 1))
      else
        status=1
        echo "  $prog: $verdict"
      fi
    done
    echo "  integer programs with the same bus traces as socsim's core: $same of" \
         "$((${#programs[@]} - 1)) (all but csr)"
    # RV32F conformance: results and flags against socsim's float arithmetic.
    for seed in ${SOCSIM_CV32E40P_FPU_SEEDS:-1 2}; do
      program="$cache/fpu/rv32f_$name.$seed"
      if ((zfinx)); then
        "$conformance" "$program.S" --count 128 --seed "$seed" --zfinx
        march=rv32im_zfinx_zicsr_zifencei
      else
        "$conformance" "$program.S" --count 128 --seed "$seed"
        march=rv32imf_zicsr_zifencei
      fi
      riscv64-unknown-elf-gcc -march=$march -mabi=ilp32 "${rv32f_flags[@]}" "$program.S" \
        "$root/tests/timing/support.c" -o "$program.elf" || exit 2
      "$fbuild/bin/rv_harness" "$program.elf" > "$program.out" 2>&1 || true
      echo "  seed $seed: $(grep 'rv32f conformance' "$program.out" || echo 'no summary')"
      if ! grep -q "rv32f conformance: .* 0 mismatches" "$program.out"; then
        status=1
        head -5 "$program.out"
      fi
    done
    # The F programs of this configuration: for Zfinx (ZFINX=1) fpu_timing.S with -DZFINX,
    # the float kernels as soft float with firmware/crt/zfinx_float.S in place of libgcc's
    # single-precision routines (GCC 12 does not generate Zfinx code from C), random programs
    # with --zfinx; the ISS with --zfinx.
    if ((zfinx)); then
      march_f=rv32imc_zfinx_zicsr_zifencei zfinx_flags=(-DZFINX) iss_flags=(--zfinx)
      timing_elf=fpu_timing_zfinx kernels_elf=float_kernels_zfinx random_prefix=random_float_zfinx_
    else
      march_f=rv32imfc_zicsr_zifencei zfinx_flags=() iss_flags=()
      timing_elf=fpu_timing kernels_elf=float_kernels_fpu random_prefix=random_float_
    fi
    "$fbuild/bin/rv_harness" "$cache/fpu/$kernels_elf.elf" \
      > "$cache/fpu/float_kernels.$name.out" 2>&1 || status=1
    echo "  float kernels with the FPU (cycles):" \
         "$(grep -v '^rv_harness' "$cache/fpu/float_kernels.$name.out" | paste -sd ';' \
            | sed 's/;/; /g')"
    if [[ "$(grep checksum "$cache/fpu/float_kernels.$name.out")" != \
          "$(grep checksum "$cache/fpu/float_kernels.soft.out")" ]]; then
      status=1
      echo "  float kernels: the checksum differs from soft float's"
    fi
    riscv64-unknown-elf-gcc -march="$march_f" -mabi=ilp32 "${zfinx_flags[@]}" "${rv32f_flags[@]}" \
      "$root/tests/timing/fpu_timing.S" "$root/tests/timing/support.c" \
      -o "$cache/fpu/$timing_elf.elf" || exit 2
    "$fbuild/bin/rv_harness" "$cache/fpu/$timing_elf.elf" > "$cache/fpu/fpu_timing.$name.out" \
      2>&1 || status=1
    echo "  F instruction costs (cycles; tests/timing/fpu_timing.S):"
    grep -v '^rv_harness' "$cache/fpu/fpu_timing.$name.out" | paste -sd ';' \
      | sed 's/;/; /g' | fold -s -w 96 | sed 's/^/    /'
    # The ISS with the same FPU configuration (rv_harness --core iss --fpu-lat): the F
    # programs make the same requests in the same cycles as on the genuine core.
    for ((i = 1; i <= float_count; i++)); do
      elf="$cache/fpu/$random_prefix$i.elf"
      if [[ ! -e "$elf" ]]; then
        /usr/bin/python3 "$root/scripts/gen_random_float_program.py" --seed "$((2000 + i))" \
          --count 1500 "${zfinx_flags[@]/-DZFINX/--zfinx}" -o "$cache/fpu/$random_prefix$i.S"
        riscv64-unknown-elf-gcc -march="${march_f%_zifencei}" -mabi=ilp32 -nostdlib \
          -nostartfiles -Wl,-Ttext=0 -Wl,-e,_start "$cache/fpu/$random_prefix$i.S" -o "$elf" \
          || exit 2
      fi
    done
    iss_same=0 iss_total=0 iss_insns=0 iss_requests=0
    iss_programs=("$cache/fpu/$timing_elf.elf" "$cache/fpu/$kernels_elf.elf")
    for seed in ${SOCSIM_CV32E40P_FPU_SEEDS:-1 2}; do
      iss_programs+=("$cache/fpu/rv32f_$name.$seed.elf")
    done
    for ((i = 1; i <= float_count; i++)); do
      iss_programs+=("$cache/fpu/$random_prefix$i.elf")
    done
    for elf in "${iss_programs[@]}"; do
      prog=$(basename "$elf" .elf)
      "$fbuild/bin/rv_harness" "$elf" --bus-trace "$cache/fpu/$prog.$name.trace" \
        > /dev/null 2>&1 || true
      "$harness" "$elf" --core iss "${iss_flags[@]}" --fpu-lat "$addmul,$others" --trace \
        --bus-trace "$cache/fpu/$prog.$name.iss.trace" > "$cache/fpu/$prog.$name.iss.out" \
        2>&1 || true
      iss_total=$((iss_total + 1))
      if verdict=$("$root/scripts/cv32e40p-compare.py" "$cache/fpu/$prog.$name.iss.trace" \
                   "$cache/fpu/$prog.$name.trace" --max-reports 3); then
        iss_same=$((iss_same + 1))
        iss_insns=$((iss_insns + $(grep -cE '^ *[0-9]+ [0-9a-f]{8} [0-9a-f]{8}' "$cache/fpu/$prog.$name.iss.out" || true)))
        iss_requests=$((iss_requests + $(wc -l < "$cache/fpu/$prog.$name.trace")))
      else
        status=1
        echo "  ISS, $prog: $verdict"
      fi
    done
    echo "  the ISS (${iss_flags[*]:+${iss_flags[*]} }--fpu-lat $addmul,$others): $iss_same of" \
         "$iss_total F programs with the" \
         "same bus traces ($iss_requests requests, $iss_insns instructions retired)"
  done
  if ((status == 0)); then
    echo "cv32e40p-check: the CV32E40P with its FPU agrees with socsim's core on integer" \
         "programs, with socsim's float arithmetic on every RV32F instruction, and with the" \
         "ISS's FPU timing request for request"
  else
    echo "cv32e40p-check: differences with the FPU (files in $cache/fpu)"
  fi
  exit $status
fi

gbuild="$cache/build"
cmake -S "$root" -B "$gbuild" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSOCSIM_CV32E40P_RTL="$checkout" -DSOCSIM_BUILD_TESTS=OFF -DSOCSIM_BUILD_FIRMWARE=OFF \
  > "$cache/configure.log" 2>&1 || { cat "$cache/configure.log" >&2; exit 2; }
targets=(rv_harness rtl_bare_speed)
((soc)) && targets+=(socsim)
ninja -C "$gbuild" -j "${SOCSIM_JOBS:-2}" "${targets[@]}" > "$cache/build.log" 2>&1 \
  || { tail -40 "$cache/build.log" >&2; exit 2; }

traces="$cache/traces"
mkdir -p "$traces"
seeds=(${SOCSIM_CV32E40P_SEEDS:-1 7 42})
status=0
# compare NAME ELF [harness options]: runs socsim's core, the ISS and the CV32E40P (console
# output in NAME.*.out), compares the first two's traces with the CV32E40P's and prints the
# verdicts ("socsim: ...; ISS: ...").
compare() {
  local name=$1 elf=$2 ok=0
  shift 2
  "$harness" "$elf" --bus-trace "$traces/$name.socsim" "$@" > "$traces/$name.socsim.out" || true
  "$harness" "$elf" --core iss --bus-trace "$traces/$name.iss" "$@" \
    > "$traces/$name.iss.out" || true
  "$gbuild/bin/rv_harness" "$elf" --bus-trace "$traces/$name.cv32e40p" "$@" \
    > "$traces/$name.cv32e40p.out" || true
  local own iss
  own=$("$root/scripts/cv32e40p-compare.py" "$traces/$name.socsim" "$traces/$name.cv32e40p" \
        --max-reports 3) || ok=1
  iss=$("$root/scripts/cv32e40p-compare.py" "$traces/$name.iss" "$traces/$name.cv32e40p" \
        --max-reports 3) || ok=1
  echo "socsim: $own; ISS: $iss"
  return $ok
}
cycles_of() { sed -n 's/.* after \([0-9]*\) cycles.*/\1/p' <<< "$(tail -1 "$1")"; }
if ((bare)); then
echo "zero-wait memory, and random grants and response delays (seeds ${seeds[*]}):"
printf '%-12s %10s %10s %10s  %s\n' program socsim ISS CV32E40P "bus traces against the CV32E40P's"
for elf in "${programs[@]}"; do
  name=$(basename "$elf" .elf)
  if ! verdict=$(compare "$name" "$elf"); then status=1; fi
  own_cycles=$(cycles_of "$traces/$name.socsim.out")
  iss_cycles=$(cycles_of "$traces/$name.iss.out")
  gen_cycles=$(cycles_of "$traces/$name.cv32e40p.out")
  printf '%-12s %10s %10s %10s  %s\n' "$name" "${own_cycles:-?}" "${iss_cycles:-?}" \
    "${gen_cycles:-?}" "$verdict"
  # the suite's own checks pass on the genuine core at zero wait states
  gen_out=$(tail -1 "$traces/$name.cv32e40p.out")
  [[ "$gen_out" == *"exit 0 after"* ]] || { echo "  CV32E40P: $gen_out"; status=1; }
  same=0
  for seed in "${seeds[@]}"; do
    if verdict=$(compare "$name.waits$seed" "$elf" --random-waits "$seed"); then
      same=$((same + 1))
    else
      status=1
      echo "  random waits, seed $seed: $verdict"
    fi
  done
  printf '%-12s %10s %10s %10s  random waits: %d of %d seeds identical (both)\n' "" "" "" "" \
    "$same" "${#seeds[@]}"
done
fi
if ((soc)); then
  echo
  echo "the SoC (configs/soc/default.yaml), whole runs:"
  printf '%-34s %12s %12s %12s\n' program socsim ISS CV32E40P
  runner="$build/firmware/apps/executor_runner/executor_runner.elf"
  zoo="$build/tests/runtime/zoo"
  runs=()
  for elf in "$build"/firmware/apps/*.elf "$build"/firmware/tests/*.elf; do
    runs+=("$(basename "$elf" .elf)|--firmware $elf")
  done
  models=(add8_1024 convnet_int8_npu)
  ((soc_long)) && models+=(add8_1024_cpu_packed convnet_int8 convnet_f32)
  for model in "${models[@]}"; do
    [[ -e "$zoo/$model.pte" ]] || continue
    input=""
    [[ $model == convnet* ]] && input=" --input $zoo/convnet.input.bin"
    runs+=("runner $model|--firmware $runner --model $zoo/$model.pte$input")
  done
  for run in "${runs[@]}"; do
    name=${run%%|*}
    read -r -a args <<< "${run#*|}"
    own=$("$build/bin/socsim" run -q --no-probes --max-cycles 100000000 "${args[@]}" 2>&1 \
          | grep -o '@ cycle [0-9]*' | tail -1) || true
    iss=$("$build/bin/socsim" run -q --cpu iss --max-cycles 100000000 "${args[@]}" 2>&1 \
          | grep -o '@ cycle [0-9]*' | tail -1) || true
    gen=$("$gbuild/bin/socsim" run -q --max-cycles 100000000 "${args[@]}" 2>&1 \
          | grep -o '@ cycle [0-9]*' | tail -1) || true
    mark=""
    if [[ -z "$own" || "$own" != "$gen" || "$iss" != "$gen" ]]; then mark="  DIFFERENT"; status=1; fi
    printf '%-34s %12s %12s %12s%s\n' "$name" "${own#@ cycle }" "${iss#@ cycle }" \
      "${gen#@ cycle }" "$mark"
  done

  # Mark probes: from the retire trace on socsim's core, from the probe register's stores on
  # the CV32E40P (no retire trace); the same regions, the same cycles.
  probe_elf="$build/firmware/tests/probe_check.elf"
  own=$("$build/bin/socsim" run --firmware "$probe_elf" 2>&1 \
        | awk '/^mark [0-9]+ \*/ { print $2, $4, $5, $6, $7 }')
  gen=$("$gbuild/bin/socsim" run --firmware "$probe_elf" 2>&1 \
        | awk '/^mark [0-9]+ / { print $2, $3, $4, $5, $6 }')
  echo
  echo "mark probes of probe_check (id count cycles min max): socsim '$own', CV32E40P '$gen'"
  if [[ -z "$own" || "$own" != "$gen" ]]; then status=1; echo "  DIFFERENT"; fi
  # Without a retire trace, what needs one is refused with a message (status 2).
  for option in --lockstep --profile "--probe x=main"; do
    read -r -a extra <<< "$option"
    set +e
    message=$("$gbuild/bin/socsim" run --firmware "$probe_elf" "${extra[@]}" 2>&1 >/dev/null)
    code=$?
    set -e
    if [[ $code -ne 2 || "$message" != *"need"*"retire trace"* ]]; then
      echo "CV32E40P build, $option: expected status 2 and a message, got $code: $message"
      status=1
    fi
  done
fi
if ((status == 0)); then
  echo "cv32e40p-check: socsim's core, the ISS and the CV32E40P ($checkout) agree cycle for cycle"
else
  echo "cv32e40p-check: the cores differ (traces in $traces)"
fi
exit $status
