#!/usr/bin/env bash
# Creates the pinned Python environment that exports the ExecuTorch (.pte) test programs
# (scripts/gen_pte_fixtures.py, docs/executorch.md). Never needed by the default test suite:
# the programs, their inputs and the reference outputs are checked in.
#
# Usage: scripts/executorch-venv.sh [VENV_DIR]
#   VENV_DIR  where the environment goes (default: build/executorch-venv; keep it outside the
#             source tree). Prints the environment's python on the last line. A directory
#             that already holds a complete environment (its stamp file matches this
#             script's pins) is reused as it is.
#
# About 2.6 GB are downloaded and 5 GB written (2 to 20 minutes, as the network allows).
# PyPI's torch wheels for Linux x86_64 are CUDA builds: `import torch` needs the NVIDIA
# runtime libraries even on a CPU, so they are installed explicitly (without their own
# dependency resolution). The environment is made without the system's site packages: the
# system's torch 1.x must not be importable beside torch 2.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="${1:-${SOCSIM_EXECUTORCH_VENV:-$root/build/executorch-venv}}"

# The pins. Changing one changes the stamp, which rebuilds the environment.
torch_pins=(
  torch==2.15.0
  nvidia-cuda-runtime==13.2.86 nvidia-cuda-cupti==13.2.86 nvidia-cuda-nvrtc==13.2.86
  nvidia-cublas==13.4.1.3 nvidia-cufft==12.2.0.57 nvidia-cufile==1.17.1.22
  nvidia-cusparse==12.7.10.12 nvidia-nvjitlink==13.5.37 nvidia-cudnn-cu13==9.26.0.51
  nvidia-cusparselt-cu13==0.8.1 nvidia-nccl-cu13==2.30.7 nvidia-nvshmem-cu13==3.7.2
)
executorch_pins=(
  filelock typing-extensions sympy networkx jinja2 fsspec setuptools
  executorch==1.5.1 torchao==0.18.0
)
# Every other package's version (the dependencies of the above, as resolved once).
constraints="$root/scripts/executorch-venv-constraints.txt"
stamp_text="${torch_pins[*]} | ${executorch_pins[*]} | $(sha256sum < "$constraints" | cut -c1-16)"
stamp="$venv/.socsim-executorch-stamp"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; then
  echo "executorch-venv: $venv is up to date" >&2
  echo "$venv/bin/python"
  exit 0
fi

case "$venv" in
  "$root"/build*|/*) ;;
  *) venv="$PWD/$venv" ;;
esac
if [[ "$venv" == "$root"/* && "$venv" != "$root"/build* ]]; then
  echo "executorch-venv: $venv is inside the source tree; give a path under build/ or outside" >&2
  exit 2
fi

rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install --quiet --no-deps "${torch_pins[@]}" >&2
"$py" -m pip install --quiet -c "$constraints" "${executorch_pins[@]}" >&2
"$py" - <<'EOF' >&2
import torch, executorch, torchao
from importlib.metadata import version
print("executorch-venv: torch", torch.__version__, "executorch", version("executorch"),
      "torchao", version("torchao"))
EOF
echo "$stamp_text" > "$stamp"
echo "$py"
