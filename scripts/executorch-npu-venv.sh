#!/usr/bin/env bash
# Creates the environment of socsim's ExecuTorch backends (scripts/socsim_executorch,
# scripts/export_executorch.py, docs/executorch-npu.md): the pinned ExecuTorch environment of
# scripts/executorch-venv.sh plus torchvision (the classifiers to export) and Pillow (which
# torchvision imports). Never needed by the default test suite.
#
# Usage: scripts/executorch-npu-venv.sh [VENV_DIR [BASE_VENV_DIR]]
#   VENV_DIR       where the environment goes (default: build/executorch-npu-venv)
#   BASE_VENV_DIR  the ExecuTorch environment to build on (default: build/executorch-venv,
#                  made or checked by scripts/executorch-venv.sh; it is not modified)
# Prints the environment's python on the last line. The new environment sees the base's
# packages through a .pth file and installs only its two pins (a few MB). torchvision's wheel
# is built for torch 2.14: its compiled operators (detection's nms, ...) may not load beside
# torch 2.15, which the classifiers do not use.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="${1:-$root/build/executorch-npu-venv}"
base="${2:-$root/build/executorch-venv}"
pins=(torchvision==0.29.2 pillow==12.0.0)

base_py=$("$root/scripts/executorch-venv.sh" "$base" | tail -n 1)
base=$(cd "$(dirname "$base_py")/.." && pwd)
site=$("$base_py" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
stamp_text="${pins[*]} | $site"
stamp="$venv/.socsim-executorch-npu-stamp"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; then
  echo "executorch-npu-venv: $venv is up to date" >&2
  echo "$venv/bin/python"
  exit 0
fi
rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
own=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
echo "$site" > "$own/executorch_base.pth"
"$venv/bin/python" -m pip install --quiet --no-deps "${pins[@]}" >&2
"$venv/bin/python" -c "import torch, torchvision, executorch, torchao" >&2
echo "$stamp_text" > "$stamp"
echo "$venv/bin/python"
