"""A digest of the compiler's own sources, to key caches of compiled models.

A program file depends on its model and options and on the code that wrote it: the compiler,
the program format, the operator schema and the zoo's exporter. Tools that keep compiled
models between runs (socsim sweep, scripts/socsim_cycle_cost.py) key them with `digest()` so that
any change to this package compiles them again. Needs no third-party package.
"""

import glob
import hashlib
import os

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def digest():
    """SHA-256 (hex) over the relative path and contents of every .py file of socsim_aot."""
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(PACKAGE_DIR, "**", "*.py"), recursive=True)):
        h.update(os.path.relpath(path, PACKAGE_DIR).replace(os.sep, "/").encode() + b"\0")
        with open(path, "rb") as f:
            data = f.read()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()
