"""socsim as an ExecuTorch target: a PT2E quantizer with socsim's integer scheme, the NPU and
cpu-packed delegate backends with their partitioners, and the export call
(docs/executorch-npu.md). Imports torch 2 and executorch: use the environment of
scripts/executorch-npu-venv.sh. lower_npu.py is the exception: it runs in Debian's Python.
"""
