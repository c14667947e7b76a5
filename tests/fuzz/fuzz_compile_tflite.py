"""Fuzz target `compile_tflite` (atheris): a `.tflite` file compiled by `compile_model.py`
(socsim_aot.compiler.main, the TFLite front end) as a user runs it.

Exit status 0 (a program, read back by the verifying reader) and 1 (the compiler's one-line
answer to a model it cannot compile) are accepted outcomes; anything else (70: an internal
error the last-resort guard caught, an exception escaping main, a signal, a timeout or
memory limit of libFuzzer) is a failure. Only the socsim_aot package is instrumented. Each
input identified as TFLite is compiled for the CPU or, chosen by its CRC-32, with
--delegate npu. The seeds are
the checked-in TFLite fixtures (tests/runtime/tflite); libFuzzer mutates their bytes, which
reaches the reader's bounds checks (offsets, vtables, vectors) and, through the tables it
leaves intact, the lowerings.

Run through scripts/fuzz.sh (target compile_tflite), which passes libFuzzer's arguments.
"""

import atexit
import io
import os
import shutil
import sys
import tempfile
import zlib
from contextlib import redirect_stderr, redirect_stdout

import atheris

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

with atheris.instrument_imports(include=["socsim_aot"]):
    from socsim_aot import compiler

OPTION_SETS = ([], ["--delegate", "npu"])
ACCEPTED = (0, compiler.EXIT_MODEL)


def _scratch():
    base = os.environ.get("TMPDIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    top = tempfile.mkdtemp(prefix="socsim-fuzz-tflite-", dir=base)
    atexit.register(shutil.rmtree, top, True)
    return top


SCRATCH = _scratch()
MODEL = os.path.join(SCRATCH, "input.tflite")
PROGRAM = os.path.join(SCRATCH, "output.prog")


def test_one_input(data):
    with open(MODEL, "wb") as f:
        f.write(data)
    # --delegate npu without --quantize is a usage error (status 2) for a file that is not
    # recognised as TFLite (no TFL3 identifier), so only identified files get it
    options = OPTION_SETS[zlib.crc32(data) % len(OPTION_SETS)] if data[4:8] == b"TFL3" else []
    argv = [MODEL, "-o", PROGRAM, "-q"] + options
    log = io.StringIO()
    with redirect_stdout(log), redirect_stderr(log):
        status = compiler.main(argv)
    if status not in ACCEPTED:
        raise RuntimeError(f"compile_model {' '.join(argv[3:])} exited {status}:\n"
                           f"{log.getvalue()}")


def main():
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
