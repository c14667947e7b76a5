#!/usr/bin/env bash
# Installs the Debian packages socsim needs, only those missing (idempotent).
# Usage: scripts/install-deps.sh [--fuzz]
#   --fuzz  also what the fuzz targets need (clang and its libFuzzer runtime; scripts/fuzz.sh)
#           and, for the Python target, atheris (pinned) in a venv of the fuzz build folder
#           (build-fuzz/venv, or $SOCSIM_FUZZ_BUILD_DIR/venv)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
atheris_version=3.0.0  # a cp311 manylinux wheel: nothing to compile

# The venv of the fuzz build (made after the Debian packages, which include python3-venv).
fuzz_venv() {
  local venv="${SOCSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}/venv"
  if "$venv/bin/python" -c "import importlib.metadata as m, sys
sys.exit(m.version('atheris') != '$atheris_version')" 2>/dev/null; then
    return 0
  fi
  echo "socsim: installing atheris $atheris_version in $venv" >&2
  [[ -x "$venv/bin/pip" ]] || /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "atheris==$atheris_version"
}

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
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  [[ "${1:-}" == "--fuzz" ]] && fuzz_venv
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
[[ "${1:-}" == "--fuzz" ]] && fuzz_venv
exit 0
