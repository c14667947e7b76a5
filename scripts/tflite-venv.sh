#!/usr/bin/env bash
# Creates the pinned Python environment of the TensorFlow Lite references: PyPI's
# tensorflow-cpu (its converter writes the int8 `.tflite` test models) and ai-edge-litert (the
# interpreter whose reference kernels, OpResolverType.BUILTIN_REF, give the expected outputs).
# Never needed by the default test suite: scripts/gen_tflite_fixtures.py writes the models,
# inputs and reference outputs into tests/runtime/tflite/, which are checked in.
#
# Usage: scripts/tflite-venv.sh [VENV_DIR]
#   VENV_DIR  where the environment goes (default: build/tflite-venv, or $SOCSIM_TFLITE_VENV).
#             Prints the environment's python on the last line. An environment whose stamp
#             matches this script's pins is reused as it is.
#
# About 300 MB are downloaded (a minute or two on a normal connection). The environment is made
# without the system's site packages: TensorFlow needs numpy 2, and the system's scipy and
# other modules built for numpy 1 must not be importable beside it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="${1:-${SOCSIM_TFLITE_VENV:-$root/build/tflite-venv}}"

# The pins (and their dependencies, as resolved once). Changing one rebuilds the environment.
pins=(
  tensorflow-cpu==2.21.0 ai-edge-litert==2.3.0 numpy==2.4.6
  absl-py==2.5.1 backports.strenum==1.2.8 flatbuffers==25.12.19 gast==0.7.0
  google-pasta==0.2.0 grpcio==1.85.3 h5py==3.14.0 keras==3.15.1 libclang==18.1.1
  markdown-it-py==4.3.0 mdurl==0.1.2 ml_dtypes==0.7.0 namex==0.1.0 opt_einsum==3.4.0
  optree==0.20.0 protobuf==7.36.2 rich==15.0.0 termcolor==3.3.0 tqdm==4.70.1
  typing_extensions==4.16.0 wrapt==2.5.2 astunparse==1.6.3 wheel==0.48.0 six==1.17.0
  packaging==26.4 pygments==2.21.0 requests==2.34.2 certifi==2026.10.19.post1
  charset-normalizer==3.5.3 idna==3.20 urllib3==2.8.0 setuptools==84.2.1
)
stamp_text="${pins[*]}"
stamp="$venv/.socsim-tflite-stamp"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; then
  echo "tflite-venv: $venv is up to date" >&2
  echo "$venv/bin/python"
  exit 0
fi

case "$venv" in
  /*) ;;
  *) venv="$PWD/$venv" ;;
esac
if [[ "$venv" == "$root"/* && "$venv" != "$root"/build* ]]; then
  echo "tflite-venv: $venv is inside the source tree; give a path under build/ or outside" >&2
  exit 2
fi

rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install --quiet --no-deps "${pins[@]}" >&2
"$py" - <<'PY' >&2
import ai_edge_litert, tensorflow as tf
print("tflite-venv: tensorflow", tf.__version__, "ai-edge-litert", ai_edge_litert.__version__)
PY
echo "$stamp_text" > "$stamp"
echo "$py"
