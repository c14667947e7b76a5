#!/usr/bin/env bash
# Ten ONNX models of the kinds users bring (a U-Net, a 1-D KWS net, a ViT, a causal decoder
# over token ids, a GroupNorm net, a YOLO-style detector at 640, a TCN, a DCGAN generator,
# MobileNetV3-Small and a DS-CNN) exported by torch 1.13, run by onnxruntime in float32,
# compiled int8 with the NPU delegate, run on the simulator and compared
# (scripts/onnx_models.py; docs/compiler.md, "Ten models against onnxruntime"). Opt-in: it
# needs the onnx venv (scripts/onnx-venv.sh) and a build. The simulator runs the CPU on the
# ISS (cpu.model=iss: the RTL core's cycles, faster).
#
# Usage: scripts/onnx-models.sh BUILD_DIR OUT_DIR [--models a,b]
# Exits with status 1 when a model does not compile, fails on the simulator, or its outputs
# correlate with onnxruntime's below 0.98.
# Environment: SOCSIM_ONNX_VENV, a ready onnx venv to reuse (else scripts/onnx-venv.sh makes
# build/onnx-venv).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 2 ]]; then
  echo "usage: scripts/onnx-models.sh BUILD_DIR OUT_DIR [--models a,b]" >&2
  exit 2
fi
build=$1
out=$2
shift 2
venv_python=$("$root/scripts/onnx-venv.sh" ${SOCSIM_ONNX_VENV:+"$SOCSIM_ONNX_VENV"} | tail -1)
/usr/bin/python3 "$root/scripts/onnx_models.py" export "$out" "$@"
"$venv_python" "$root/scripts/onnx_models.py" reference "$out" "$@"
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 PYTHONPATH="$root/scripts" /usr/bin/python3 \
  "$root/scripts/onnx_models.py" run "$out" --socsim "$build/bin/socsim" \
  --runner "$build/firmware/apps/executor_runner/executor_runner.elf" --set cpu.model=iss "$@"
