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

import os
import sys
import zlib

import atheris

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import compiler_fuzz  # noqa: E402 (beside this file)

with atheris.instrument_imports(include=["socsim_aot"]):
    from socsim_aot import compiler

OPTION_SETS = ([], ["--delegate", "npu"])


MODEL, PROGRAM = compiler_fuzz.scratch_paths("socsim-fuzz-tflite-", "input.tflite")


def test_one_input(data):
    # --delegate npu without --quantize is a usage error (status 2) for a file that is not
    # recognised as TFLite (no TFL3 identifier), so only identified files get it
    options = OPTION_SETS[zlib.crc32(data) % len(OPTION_SETS)] if data[4:8] == b"TFL3" else []
    compiler_fuzz.compile_checked(compiler, MODEL, PROGRAM, data, options)


def main():
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
