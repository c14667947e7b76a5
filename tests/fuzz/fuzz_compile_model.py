"""Fuzz target `compile_model` (atheris, libFuzzer's engine for Python): an ONNX file
compiled by `compile_model.py` (socsim_aot.compiler.main) as a user runs it.

Exit status 0 (a program, which compile_file has read back with the verifying reader) and 1
(the compiler's answer to a model it cannot compile, one line per problem) are accepted
outcomes; anything else (70: an internal error the last-resort guard caught, any exception
escaping main, a signal, an input that takes longer than libFuzzer's -timeout or more
memory than -rss_limit_mb) is a failure. Only the socsim_aot package is instrumented.

Each input is compiled with one of three option sets, chosen by its CRC-32 so that a given
input always takes the same: float32; --quantize int8; --quantize int8 --delegate npu (one
random calibration sample). Files are written under /dev/shm (or $TMPDIR).

Run through scripts/fuzz.sh (target compile_model), which passes libFuzzer's arguments.
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

OPTION_SETS = ([], ["--quantize", "int8", "--samples", "1"],
               ["--quantize", "int8", "--samples", "1", "--delegate", "npu"])
ACCEPTED = (0, compiler.EXIT_MODEL)


def _scratch():
    base = os.environ.get("TMPDIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    top = tempfile.mkdtemp(prefix="socsim-fuzz-compile-", dir=base)
    atexit.register(shutil.rmtree, top, True)
    return top


SCRATCH = _scratch()
MODEL = os.path.join(SCRATCH, "input.onnx")
PROGRAM = os.path.join(SCRATCH, "output.prog")


def test_one_input(data):
    with open(MODEL, "wb") as f:
        f.write(data)
    argv = [MODEL, "-o", PROGRAM, "-q"] + OPTION_SETS[zlib.crc32(data) % len(OPTION_SETS)]
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
