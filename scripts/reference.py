#!/usr/bin/env python3
"""Entry point: numpy reference executor of program files (see socsim_aot/reference.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from socsim_aot.reference import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
