#!/usr/bin/env bash
# Pre-quantised MobileNetV2 and ResNet-18 at 224x224 and a transformer encoder, quantised by
# onnxruntime's quantize_static (QDQ and QOperator, uint8 and int8, per-tensor and
# per-channel), compiled as they are and compared with onnxruntime's outputs in quantisation
# steps (scripts/qdq_reference.py; docs/compiler.md, "Pre-quantised models"). Opt-in: it
# needs the onnx venv (scripts/onnx-venv.sh) and is not part of scripts/test.sh's run.
#
# Usage: scripts/qdq-reference.sh OUT_DIR [--set fixtures|large] [--models a,b]
#   OUT_DIR  where the models, inputs and onnxruntime outputs go
# Exits with status 1 when an output differs from onnxruntime's by more than 2 steps (the
# largest difference measured, docs/compiler.md).
# Environment: SOCSIM_ONNX_VENV, a ready onnx venv to reuse (else scripts/onnx-venv.sh makes
# build/onnx-venv). With --set fixtures it regenerates scripts/test/data/qdq/ when OUT_DIR is
# that folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 1 ]]; then
  echo "usage: scripts/qdq-reference.sh OUT_DIR [--set fixtures|large] [--models a,b]" >&2
  exit 2
fi
out=$1
shift
args=("$@")
[[ " ${args[*]-} " == *" --set "* ]] || args+=(--set large)
venv_python=$("$root/scripts/onnx-venv.sh" ${SOCSIM_ONNX_VENV:+"$SOCSIM_ONNX_VENV"} | tail -1)
/usr/bin/python3 "$root/scripts/qdq_reference.py" export "$out" "${args[@]}"
"$venv_python" "$root/scripts/qdq_reference.py" quantize "$out" "${args[@]}"
PYTHONPATH="$root/scripts" /usr/bin/python3 "$root/scripts/qdq_reference.py" compare "$out" \
  --max-steps 2 "${args[@]}"
