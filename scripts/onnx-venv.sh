#!/usr/bin/env bash
# Creates the pinned Python environment of the ONNX references: PyPI's onnx (whose wheel ships
# the operator conformance tests, onnx/backend/test/data/node, and writes opsets up to 21+)
# and onnxruntime (the CPU reference, and its quantisation tool for pre-quantised models).
# Never needed by the default test suite: fixtures made with it are checked in; the tests that
# use it carry the ctest label `onnx-reference`.
#
# Usage: scripts/onnx-venv.sh [VENV_DIR]
#   VENV_DIR  where the environment goes (default: build/onnx-venv, or $SOCSIM_ONNX_VENV).
#             Prints the environment's python on the last line. An environment whose stamp
#             matches this script's pins is reused as it is.
#
# About 40 MB are downloaded (under a minute on a normal connection). The environment is made
# without the system's site packages, so the system's onnx 1.12 is not mixed in.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="${1:-${SOCSIM_ONNX_VENV:-$root/build/onnx-venv}}"

# The pins (and their dependencies, as resolved once). Changing one rebuilds the environment.
pins=(
  onnx==1.20.1 onnxruntime==1.24.4 numpy==2.2.6
  flatbuffers==25.12.19 ml_dtypes==0.7.0 mpmath==1.3.0 packaging==26.4 protobuf==7.36.2
  sympy==1.14.0 typing_extensions==4.16.0
)
stamp_text="${pins[*]}"
stamp="$venv/.socsim-onnx-stamp"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; then
  echo "onnx-venv: $venv is up to date" >&2
  echo "$venv/bin/python"
  exit 0
fi

case "$venv" in
  /*) ;;
  *) venv="$PWD/$venv" ;;
esac
if [[ "$venv" == "$root"/* && "$venv" != "$root"/build* ]]; then
  echo "onnx-venv: $venv is inside the source tree; give a path under build/ or outside" >&2
  exit 2
fi

rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install --quiet --no-deps "${pins[@]}" >&2
"$py" - <<'PY' >&2
import onnx, onnxruntime
print("onnx-venv: onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__)
PY
echo "$stamp_text" > "$stamp"
echo "$py"
