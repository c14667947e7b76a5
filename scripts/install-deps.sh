#!/usr/bin/env bash
# Installs the Debian packages socsim needs, only those missing (idempotent).
# Usage: scripts/install-deps.sh
set -euo pipefail

packages=(
  cmake ninja-build g++ make pkg-config git ca-certificates
  libsystemc-dev verilator libyaml-cpp-dev libboost-dev libboost-program-options-dev
  libgtest-dev libgmock-dev nlohmann-json3-dev libelf-dev libbenchmark-dev libssl-dev
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
  python3 python3-numpy python3-yaml python3-venv python3-pip
  # the model compiler and model zoo (Debian's torch is CPU-only)
  python3-torch python3-onnx python3-torchvision python3-matplotlib
  # debugging a run (docs/debugging.md): the GDB client, DWARF line tables for the profile,
  # callgrind_annotate, and fst2vcd for the waveform test
  gdb-multiarch libdw-dev valgrind gtkwave
  # socsim sweep --backend slurm and its test's one-node cluster (scripts/slurm-local.sh)
  slurm-wlm munge
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "socsim: installing Debian packages: ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
# Where init scripts run, installing munge starts the system's munged; socsim's tests start a
# munged of their own (scripts/slurm-local.sh), so leave the machine as it was.
if [[ " ${missing[*]} " == *" munge "* && -x /etc/init.d/munge && -f /run/munge/munged.pid ]]; then
  $SUDO /etc/init.d/munge stop > /dev/null 2>&1 || true
fi
