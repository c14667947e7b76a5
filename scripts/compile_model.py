#!/usr/bin/env python3
"""Entry point: ONNX -> socsim program file (see socsim_aot/compiler.py, --help)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from socsim_aot.compiler import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
