#!/usr/bin/env bash
# Runs a Python script with torch 2's ONNX exporter (`torch.onnx.export(..., dynamo=True)`):
# the torch 2 environment of scripts/executorch-venv.sh, PyPI onnx of scripts/onnx-venv.sh,
# and onnxscript + onnx_ir (pinned, installed without dependencies into a small environment of
# their own), combined through PYTHONPATH. For the torch 2 fixtures of the opset tests
# (scripts/gen_torch2_onnx_fixtures.py); never needed by the default test suite.
#
# Usage: scripts/torch2-onnx-env.sh SCRIPT.py [ARGS...]
#   SOCSIM_EXECUTORCH_VENV  the torch 2 environment (default build/executorch-venv)
#   SOCSIM_ONNX_VENV        the onnx environment (default build/onnx-venv)
#   SOCSIM_ONNXSCRIPT_VENV  where onnxscript goes (default build/onnxscript-venv)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
torch_venv="${SOCSIM_EXECUTORCH_VENV:-$root/build/executorch-venv}"
onnx_venv="${SOCSIM_ONNX_VENV:-$root/build/onnx-venv}"
script_venv="${SOCSIM_ONNXSCRIPT_VENV:-$root/build/onnxscript-venv}"
pins=(onnxscript==0.7.2 onnx_ir==1.0.0)

if (($# < 1)); then
  echo "usage: scripts/torch2-onnx-env.sh SCRIPT.py [ARGS...]" >&2
  exit 2
fi
"$root/scripts/onnx-venv.sh" "$onnx_venv" > /dev/null
if [[ ! -x "$torch_venv/bin/python" ]]; then
  echo "torch2-onnx-env: no torch 2 environment at $torch_venv (scripts/executorch-venv.sh" \
       "makes one, or set SOCSIM_EXECUTORCH_VENV)" >&2
  exit 1
fi
stamp="$script_venv/.socsim-stamp"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "${pins[*]}" ]]; then
  rm -rf "$script_venv"
  /usr/bin/python3 -m venv "$script_venv"
  "$script_venv/bin/pip" install --quiet --no-deps "${pins[@]}" >&2
  echo "${pins[*]}" > "$stamp"
fi
site() { echo "$1/lib/python3.11/site-packages"; }
PYTHONPATH="$(site "$script_venv"):$(site "$onnx_venv")" exec "$torch_venv/bin/python" "$@"
