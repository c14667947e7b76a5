#!/usr/bin/env python3
"""Entry point: export and compile the model zoo (see socsim_aot/zoo.py, --help)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from socsim_aot.zoo import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
